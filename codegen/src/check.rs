//! Stage 2: check every keyword of a schema against an allow-list.
//!
//! A keyword outside the list is refused by name with the file, the definition and the JSON
//! pointer, so an unsupported construct never reaches typify (which would panic or silently
//! generate the wrong shape, see `../shared/notes/typify.md`).

use std::path::PathBuf;

use serde_json::Value;

use crate::load::SchemaFile;

/// Keywords the pipeline understands, in schema position.
pub const ALLOWED_KEYWORDS: &[&str] = &[
    "$schema",
    "$id",
    "$defs",
    "$ref",
    "$comment",
    "title",
    "description",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "oneOf",
    "anyOf",
    "allOf",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "default",
    "examples",
    "deprecated",
    "discriminator",
    // ACP vendor keywords: leniency declared on a property, and documentation routing.
    "x-deserialize-default-on-error",
    "x-deserialize-skip-invalid-items",
    "x-deserialize-default-on-null",
    "x-side",
    "x-method",
    "x-docs-ignore",
];

/// Keywords allowed only directly in a branch of a union (`.../anyOf/N` or `.../oneOf/N`).
pub const CATCH_ALL_KEYWORDS: &[&str] = &["not", "unevaluatedProperties"];

fn is_union_branch(pointer: &str) -> bool {
    let mut parts = pointer.rsplit('/');
    let index = parts.next().is_some_and(|p| p.parse::<usize>().is_ok());
    index && matches!(parts.next(), Some("anyOf" | "oneOf"))
}

/// A keyword the pipeline refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{path}`: keyword `{keyword}` is not supported (definition `{definition}`, at `{pointer}`)"
)]
pub struct UnsupportedKeyword {
    /// The schema file.
    pub path: PathBuf,
    /// The `$defs` entry holding the keyword (`<root>` outside `$defs`).
    pub definition: String,
    /// RFC 6901 pointer of the keyword inside the file.
    pub pointer: String,
    /// The keyword itself.
    pub keyword: String,
}

/// Checks every keyword in `file` and returns all refusals, in document order.
///
/// # Errors
/// One [`UnsupportedKeyword`] per keyword outside [`ALLOWED_KEYWORDS`], and per boolean schema
/// other than `additionalProperties: true` (boolean schemas elsewhere have no Rust shape here).
pub fn check(file: &SchemaFile) -> Result<(), Vec<UnsupportedKeyword>> {
    check_with_siblings(file, &[])
}

/// Like [`check`], also accepting `$ref`s into `$defs` of the sibling files named (file names
/// such as `ids.schema.json`, resolved relative to this file: one family's files).
///
/// # Errors
/// As [`check`].
pub fn check_with_siblings(
    file: &SchemaFile,
    siblings: &[String],
) -> Result<(), Vec<UnsupportedKeyword>> {
    let mut walker = Walker {
        siblings,
        file,
        definition: "<root>".to_owned(),
        errors: Vec::new(),
    };
    walker.schema(&file.value, "");
    if walker.errors.is_empty() {
        Ok(())
    } else {
        Err(walker.errors)
    }
}

struct Walker<'a> {
    siblings: &'a [String],
    file: &'a SchemaFile,
    definition: String,
    errors: Vec<UnsupportedKeyword>,
}

impl Walker<'_> {
    fn refuse(&mut self, pointer: String, keyword: &str) {
        self.errors.push(UnsupportedKeyword {
            path: self.file.path.clone(),
            definition: self.definition.clone(),
            pointer,
            keyword: keyword.to_owned(),
        });
    }

    fn schema(&mut self, schema: &Value, pointer: &str) {
        let Value::Object(map) = schema else {
            if !schema.is_boolean() {
                self.refuse(pointer.to_owned(), "<non-schema value>");
            }
            return;
        };
        for (keyword, value) in map {
            let here = format!("{pointer}/{}", escape(keyword));
            // ACP's catch-all union branch: `not: {anyOf: [known tags]}` with
            // `unevaluatedProperties: true`; normalize keeps such a branch as raw JSON.
            let catch_all =
                CATCH_ALL_KEYWORDS.contains(&keyword.as_str()) && is_union_branch(pointer);
            if catch_all {
                continue;
            }
            if !ALLOWED_KEYWORDS.contains(&keyword.as_str()) {
                self.refuse(here, keyword);
                continue;
            }
            match keyword.as_str() {
                "$defs" => {
                    for (name, sub) in value.as_object().into_iter().flatten() {
                        let outer = std::mem::replace(&mut self.definition, name.clone());
                        if pointer.is_empty() {
                            self.schema(sub, &format!("{here}/{}", escape(name)));
                        } else {
                            // typify panics on nested `$defs`.
                            self.refuse(here.clone(), "$defs (nested)");
                        }
                        self.definition = outer;
                    }
                }
                "properties" => {
                    for (name, sub) in value.as_object().into_iter().flatten() {
                        self.schema(sub, &format!("{here}/{}", escape(name)));
                    }
                }
                "oneOf" | "anyOf" | "allOf" => {
                    for (index, sub) in value.as_array().into_iter().flatten().enumerate() {
                        self.schema(sub, &format!("{here}/{index}"));
                    }
                }
                "items" => self.schema(value, &here),
                "additionalProperties" if !value.is_boolean() => self.schema(value, &here),
                "$ref" => {
                    let local = value.as_str().map(|r| match r.split_once('#') {
                        Some((file, fragment)) if self.siblings.iter().any(|s| s == file) => {
                            format!("#{fragment}")
                        }
                        _ => r.to_owned(),
                    });
                    let value = Value::from(local);
                    if !value.as_str().is_some_and(|r| r.starts_with("#/$defs/")) {
                        self.refuse(here, "$ref (not a `#/$defs/...` reference)");
                    } else if value
                        .as_str()
                        .is_some_and(|r| r["#/$defs/".len()..].contains('/'))
                    {
                        // typify resolves only the last segment: `#/$defs/A/properties/q` would
                        // silently become a definition named `q`.
                        self.refuse(here, "$ref (into a definition's interior)");
                    }
                }
                _ => {}
            }
        }
    }
}

/// Escapes one RFC 6901 reference token.
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn file(value: Value) -> SchemaFile {
        SchemaFile {
            path: PathBuf::from("x.schema.json"),
            value,
        }
    }

    #[test]
    fn refuses_unknown_keyword_with_definition_and_pointer() {
        let errors = check(&file(json!({
            "$defs": {"A": {"type": "object", "properties": {"q": {"not": {"type": "string"}}}}}
        })))
        .unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(
            errors[0].to_string(),
            "`x.schema.json`: keyword `not` is not supported (definition `A`, at `/$defs/A/properties/q/not`)"
        );
    }

    #[test]
    fn refuses_interior_and_remote_refs() {
        let errors = check(&file(json!({
            "$defs": {
                "A": {"$ref": "#/$defs/B/properties/q"},
                "B": {"$ref": "https://example.com/x.json"}
            }
        })))
        .unwrap_err();
        let keywords: Vec<_> = errors.iter().map(|e| e.keyword.as_str()).collect();
        assert_eq!(
            keywords,
            [
                "$ref (into a definition's interior)",
                "$ref (not a `#/$defs/...` reference)"
            ]
        );
    }

    #[test]
    fn accepts_acp_idioms() {
        check(&file(json!({
            "$defs": {"U": {"oneOf": [{"type": "object", "properties": {"type": {"const": "a"}},
                "required": ["type"], "allOf": [{"$ref": "#/$defs/A"}]}],
                "discriminator": {"propertyName": "type"}},
                "A": {"type": "object", "additionalProperties": true,
                    "properties": {"x": {"type": ["string", "null"], "x-deserialize-default-on-error": true}}}}
        })))
        .unwrap();
    }
}
