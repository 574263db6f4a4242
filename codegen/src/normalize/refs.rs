//! References made local: `sibling.schema.json#/$defs/X` (a file of the same family), a
//! definition's `$id` (absolute, or relative to the document's `$id`), and the document's own
//! `$id` followed by a fragment, all become `#/$defs/<name>`. A fragment is percent-decoded
//! (RFC 3986: `#/$defs/with%20space` names `with space`), except where only the text as written
//! names a definition (schemas that write `#/$defs/50%off` for a definition `50%off`).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::pointer;

/// `reference` resolved against `base` (`toolcall_schema::refs`, RFC 3986); a relative base (an
/// `$id` such as `schemas/a.json`) resolves as if under a root and stays relative. Itself when
/// there is no base or it does not resolve (it is then looked up as written, and refused if
/// nothing has that name).
fn resolve(base: &str, reference: &str) -> String {
    const ROOT: &str = "json-schema:///";
    if base.is_empty() {
        return reference.to_owned();
    }
    let resolved = match toolcall_schema::refs::resolve(base, reference) {
        Some(resolved) => Some(resolved),
        None => toolcall_schema::refs::resolve(&format!("{ROOT}{base}"), reference)
            .map(|r| r.strip_prefix(ROOT).map_or(r.clone(), str::to_owned)),
    };
    resolved.unwrap_or_else(|| reference.to_owned())
}

/// Gives a `$ref` that is a bare fragment (`#/$defs/x`) inside a schema resource of its own (a
/// subschema with an `$id`) that resource's `$id` in front (`inner.json#/$defs/x`): the
/// fragment names a place in that resource, not in the document, so it is not local to the
/// document (a run-time check follows it in the document as written).
pub fn scope_nested_fragments(document: &mut Value) {
    fn walk(value: &mut Value, scope: Option<&str>, top: bool) {
        match value {
            Value::Object(map) => {
                let own = map
                    .get("$id")
                    .and_then(Value::as_str)
                    .filter(|id| !top && !id.starts_with('#'))
                    .map(|id| id.split('#').next().unwrap_or(id).to_owned());
                let scope = own.as_deref().or(scope);
                if let (Some(scope), Some(Value::String(reference))) = (scope, map.get_mut("$ref"))
                {
                    if reference.starts_with('#') {
                        *reference = format!("{scope}{reference}");
                    }
                }
                for (key, sub) in map.iter_mut() {
                    if !matches!(
                        key.as_str(),
                        "enum" | "const" | "default" | "examples" | "$ref"
                    ) {
                        walk(sub, scope, false);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| walk(v, scope, false)),
            _ => {}
        }
    }
    walk(document, None, true);
}

/// Rewrites the references of `document` in place; `relative_siblings_only`: a sibling file is
/// named by a relative reference (`other.json#/x`) only, not by any URI whose last segment is
/// its name (a user's `schema.json` referring to `https://example.com/schema.json` names
/// another document).
///
/// # Errors
/// `(id, first, second)` when two definitions declare the same `$id`.
pub fn localize(
    document: &mut Value,
    siblings: &[String],
    relative_siblings_only: bool,
) -> Result<(), (String, String, String)> {
    let base = document
        .get("$id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let mut ids: BTreeMap<String, String> = BTreeMap::new();
    if let Some(defs) = document.get("$defs").and_then(Value::as_object) {
        for (name, schema) in defs {
            if let Some(id) = schema.get("$id").and_then(Value::as_str) {
                let absolute = resolve(&base, id);
                if let Some(first) = ids.insert(absolute.clone(), name.clone()) {
                    return Err((absolute, first, name.clone()));
                }
            }
        }
    }
    let names: Vec<String> = document
        .get("$defs")
        .and_then(Value::as_object)
        .map(|defs| defs.keys().cloned().collect())
        .unwrap_or_default();
    let context = Context {
        base: &base,
        siblings,
        relative_siblings_only,
        ids: &ids,
        names: &names,
    };
    rewrite(document, &context);
    Ok(())
}

/// What rewriting a document's references needs.
struct Context<'a> {
    base: &'a str,
    siblings: &'a [String],
    /// See [`localize`].
    relative_siblings_only: bool,
    ids: &'a BTreeMap<String, String>,
    /// The document's definition names.
    names: &'a [String],
}

fn rewrite(value: &mut Value, context: &Context<'_>) {
    each_ref(value, &mut |reference| {
        if let Some(local) = local(reference, context) {
            *reference = local;
        }
        if let Some(decoded) = decoded(reference, context.names) {
            *reference = decoded;
        }
    });
}

/// Calls `f` on every `$ref` of `value`, at any depth, except inside data (`enum`, `const`,
/// `default`, `examples`, where a member named `$ref` is a value, not a reference), and on
/// every reference in a `discriminator`'s `mapping` (OpenAPI: a value holding `#` is a
/// reference, any other a definition name).
pub fn each_ref(value: &mut Value, f: &mut dyn FnMut(&mut String)) {
    match value {
        Value::Object(map) => {
            for (key, sub) in map.iter_mut() {
                if key == "$ref" {
                    if let Value::String(reference) = sub {
                        f(reference);
                    }
                } else if key == "discriminator" {
                    mapping_refs(sub).for_each(&mut *f);
                } else if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                    each_ref(sub, f);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| each_ref(v, f)),
        _ => {}
    }
}

/// The references among a `discriminator`'s `mapping` values.
pub fn mapping_refs(discriminator: &mut Value) -> impl Iterator<Item = &mut String> {
    discriminator
        .get_mut("mapping")
        .and_then(Value::as_object_mut)
        .into_iter()
        .flat_map(|mapping| mapping.values_mut())
        .filter_map(|target| match target {
            Value::String(reference) if reference.contains('#') => Some(reference),
            _ => None,
        })
}

/// A local reference with its fragment percent-decoded, when decoding changes it, gives UTF-8,
/// and the text as written does not name one of `names` where the decoded text does not.
fn decoded(reference: &str, names: &[String]) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    if !fragment.contains('%') {
        return None;
    }
    let text = pointer::from_fragment(fragment)?;
    let names_one = |fragment: &str| {
        fragment
            .strip_prefix("/$defs/")
            .is_some_and(|name| names.iter().any(|n| *n == pointer::unescape(name)))
    };
    if names_one(fragment) && !names_one(&text) {
        return None;
    }
    Some(format!("#{text}"))
}

fn local(reference: &str, context: &Context<'_>) -> Option<String> {
    let (base, siblings, ids) = (context.base, context.siblings, context.ids);
    if reference.starts_with('#') {
        return None;
    }
    if let Some(name) = ids.get(&resolve(base, reference)) {
        return Some(format!("#/$defs/{}", pointer::escape(name)));
    }
    let (file, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    let file_name = file.rsplit('/').next().unwrap_or(file);
    let own = !base.is_empty() && resolve(base, file) == base.split('#').next().unwrap_or(base);
    if own
        || siblings.iter().any(|s| s == file_name)
            && (file == file_name
                || !context.relative_siblings_only
                    && resolve(base, file).ends_with(&format!("/{file_name}")))
    {
        return Some(format!("#{fragment}"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn for_a_user_schema_only_a_relative_reference_names_a_sibling() {
        let document = json!({
            "$defs": {
                "Relative": {"$ref": "schema.json#/$defs/Thing"},
                "Elsewhere": {"$ref": "https://example.com/other/schema.json#/$defs/Thing"},
                "Thing": {"type": "string"}
            }
        });
        let siblings = ["schema.json".to_owned()];
        let mut family = document.clone();
        localize(&mut family, &siblings, false).unwrap();
        assert_eq!(family["$defs"]["Elsewhere"]["$ref"], "#/$defs/Thing");
        let mut user = document;
        localize(&mut user, &siblings, true).unwrap();
        assert_eq!(user["$defs"]["Relative"]["$ref"], "#/$defs/Thing");
        assert_eq!(
            user["$defs"]["Elsewhere"]["$ref"],
            "https://example.com/other/schema.json#/$defs/Thing"
        );
    }

    #[test]
    fn ids_siblings_and_the_own_document_become_local() {
        let mut document = json!({
            "$id": "https://example.com/schemas/main.json",
            "$defs": {
                "A": {"$id": "https://example.com/schemas/a.json", "type": "string"},
                "B": {"$id": "b.json", "type": "integer"},
                "C": {"properties": {
                    "a": {"$ref": "https://example.com/schemas/a.json"},
                    "b": {"$ref": "b.json"},
                    "own": {"$ref": "https://example.com/schemas/main.json#/$defs/A"},
                    "sibling": {"$ref": "ids.schema.json#/$defs/Id"},
                    "remote": {"$ref": "https://elsewhere.org/x.json"}
                }}
            }
        });
        localize(&mut document, &["ids.schema.json".to_owned()], false).unwrap();
        let props = &document["$defs"]["C"]["properties"];
        assert_eq!(props["a"]["$ref"], "#/$defs/A");
        assert_eq!(props["b"]["$ref"], "#/$defs/B");
        assert_eq!(props["own"]["$ref"], "#/$defs/A");
        assert_eq!(props["sibling"]["$ref"], "#/$defs/Id");
        assert_eq!(props["remote"]["$ref"], "https://elsewhere.org/x.json");
    }

    #[test]
    fn fragments_are_percent_decoded_unless_only_the_written_text_names_a_definition() {
        let mut document = json!({
            "$defs": {
                "with space": {"type": "string"},
                "per%cent": {"type": "string"},
                "50%25": {"type": "string"},
                "C": {"properties": {
                    "a": {"$ref": "#/$defs/with%20space"},
                    "b": {"$ref": "#/$defs/per%25cent"},
                    "raw": {"$ref": "#/$defs/per%cent"},
                    "written": {"$ref": "#/$defs/50%25"},
                    "slash": {"$ref": "#/$defs/a~1b%7E0"}
                }}
            }
        });
        localize(&mut document, &[], false).unwrap();
        let props = &document["$defs"]["C"]["properties"];
        assert_eq!(props["a"]["$ref"], "#/$defs/with space");
        assert_eq!(props["b"]["$ref"], "#/$defs/per%cent");
        assert_eq!(props["raw"]["$ref"], "#/$defs/per%cent");
        assert_eq!(props["written"]["$ref"], "#/$defs/50%25");
        assert_eq!(props["slash"]["$ref"], "#/$defs/a~1b~0");
    }

    #[test]
    fn ids_resolve_by_rfc_3986_and_relative_bases_stay_relative() {
        let base = "https://example.com/a/b.json";
        assert_eq!(resolve(base, "c.json"), "https://example.com/a/c.json");
        assert_eq!(resolve(base, "../c.json"), "https://example.com/c.json");
        assert_eq!(
            resolve(base, "#/$defs/x"),
            "https://example.com/a/b.json#/$defs/x"
        );
        assert_eq!(resolve("schemas/a.json", "b.json"), "schemas/b.json");
        assert_eq!(resolve("schemas/a.json", "../b.json"), "b.json");
        assert_eq!(resolve("", "b.json"), "b.json");
    }
}
