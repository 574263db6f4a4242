//! Site-relative documentation links made absolute (`families::Family::doc_site`): the MCP
//! schemas' descriptions link into modelcontextprotocol.io as `[Meta](/specification/...)`,
//! which renders as a broken link in the generated docs.

use serde_json::Value;

use crate::load::SchemaFile;

/// `files` with every Markdown link target that starts with `/` in a `description` prefixed with
/// `site` (`](/x)` becomes `](https://site/x)`); nothing else changes.
#[must_use]
pub fn absolute(files: &[SchemaFile], site: &str) -> Vec<SchemaFile> {
    files
        .iter()
        .map(|file| {
            let mut value = file.value.clone();
            rewrite(&mut value, site);
            SchemaFile {
                path: file.path.clone(),
                value,
                text: file.text.clone(),
            }
        })
        .collect()
}

fn rewrite(value: &mut Value, site: &str) {
    match value {
        Value::Object(members) => {
            for (name, member) in members.iter_mut() {
                match member {
                    Value::String(text) if name == "description" && text.contains("](/") => {
                        *text = text.replace("](/", &format!("]({site}/"));
                    }
                    _ => rewrite(member, site),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| rewrite(item, site)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn relative_links_in_descriptions_become_absolute_and_nothing_else_changes() {
        let file = SchemaFile {
            path: "schema.json".into(),
            value: json!({"$defs": {"A": {
                "description": "See [Meta](/specification/2025-11-25/basic#meta) and [x](https://x.dev/a).",
                "properties": {"description": {"type": "string", "const": "](/kept)"}},
            }}}),
            text: String::new(),
        };
        let linked = absolute(&[file], "https://modelcontextprotocol.io");
        assert_eq!(
            linked[0].value,
            json!({"$defs": {"A": {
                "description": "See [Meta](https://modelcontextprotocol.io/specification/2025-11-25/basic#meta) and [x](https://x.dev/a).",
                "properties": {"description": {"type": "string", "const": "](/kept)"}},
            }}})
        );
    }
}
