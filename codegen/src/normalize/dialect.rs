//! Draft-07 and draft 2019-09 documents rewritten as 2020-12, so that later stages read one
//! dialect. Detected by `$schema`; a document without one is 2020-12 unless its root holds
//! `definitions` and no `$defs` (draft-07's spelling).

use serde_json::{Map, Value};

use crate::pointer;

/// The dialect of a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// Draft-07 (or an older draft with the same keywords: 04, 06).
    Draft07,
    /// Draft 2019-09.
    Draft2019,
    /// Draft 2020-12.
    Draft2020,
}

/// The dialect `document` declares.
#[must_use]
pub fn of(document: &Value) -> Dialect {
    let declared = document
        .get("$schema")
        .and_then(Value::as_str)
        .unwrap_or("");
    if declared.contains("draft-07")
        || declared.contains("draft-06")
        || declared.contains("draft-04")
    {
        Dialect::Draft07
    } else if declared.contains("2019-09") {
        Dialect::Draft2019
    } else if declared.is_empty()
        && document.get("definitions").is_some()
        && document.get("$defs").is_none()
    {
        Dialect::Draft07
    } else {
        Dialect::Draft2020
    }
}

/// Rewrites `document` as 2020-12 in place. `faithful`: the siblings of a `$ref` in draft-04 to
/// draft-07 are dropped (those drafts ignore them) rather than refused, and `$recursiveRef` is
/// left for a run-time check rather than refused.
///
/// # Errors
/// `(pointer, what)` for a construct refused (never when `faithful`).
pub fn to_2020_12_with(document: &mut Value, faithful: bool) -> Result<(), (String, String)> {
    let dialect = of(document);
    let draft4 = document
        .get("$schema")
        .and_then(Value::as_str)
        .is_some_and(|s| s.contains("draft-04"));
    if dialect == Dialect::Draft2020 {
        return Ok(());
    }
    if let Some(map) = document.as_object_mut() {
        if let Some(definitions) = map.remove("definitions") {
            let mut defs = map
                .remove("$defs")
                .and_then(|d| d.as_object().cloned())
                .unwrap_or_default();
            for (name, schema) in definitions.as_object().cloned().unwrap_or_default() {
                defs.entry(name).or_insert(schema);
            }
            map.insert("$defs".to_owned(), Value::Object(defs));
        }
        map.insert(
            "$schema".to_owned(),
            Value::from("https://json-schema.org/draft/2020-12/schema"),
        );
    }
    let context = Context {
        dialect,
        draft4,
        faithful,
    };
    rewrite(document, "", &context).map_err(|(at, what)| {
        // Pointers name the document as written: draft-07's definitions are `definitions`.
        let at = match at.strip_prefix("/$defs/") {
            Some(rest) if dialect == Dialect::Draft07 => format!("/definitions/{rest}"),
            _ => at,
        };
        (at, what)
    })
}

/// How a document is rewritten.
struct Context {
    dialect: Dialect,
    /// Draft-04: `id`, boolean `exclusiveMinimum`/`exclusiveMaximum`.
    draft4: bool,
    faithful: bool,
}

fn rewrite(schema: &mut Value, at: &str, context: &Context) -> Result<(), (String, String)> {
    match schema {
        Value::Object(map) => rewrite_object(map, at, context),
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                rewrite(item, &format!("{at}/{i}"), context)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Draft-04's `id` as `$id`, and its boolean `exclusiveMinimum`/`exclusiveMaximum` as the
/// number bound they make exclusive.
fn draft4_spellings(map: &mut Map<String, Value>) {
    if let Some(Value::String(id)) = map.get("id").cloned() {
        if !map.contains_key("$id") {
            map.remove("id");
            map.insert("$id".to_owned(), Value::String(id));
        }
    }
    for (exclusive, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        match map.get(exclusive) {
            Some(Value::Bool(true)) => {
                map.remove(exclusive);
                if let Some(limit) = map.remove(bound) {
                    map.insert(exclusive.to_owned(), limit);
                }
            }
            Some(Value::Bool(false)) => {
                map.remove(exclusive);
            }
            _ => {}
        }
    }
}

fn rewrite_object(
    map: &mut Map<String, Value>,
    at: &str,
    context: &Context,
) -> Result<(), (String, String)> {
    let dialect = context.dialect;
    if context.draft4 {
        draft4_spellings(map);
    }
    if dialect == Dialect::Draft07 && map.contains_key("$ref") && context.faithful {
        // Draft-04 to draft-07 ignore every keyword beside `$ref`.
        let keep = |k: &String| {
            k == "$ref"
                || (at.is_empty() && matches!(k.as_str(), "$defs" | "definitions" | "$schema"))
                || crate::check::is_annotation(k)
        };
        map.retain(|k, _| keep(k));
    }
    if dialect == Dialect::Draft07 && map.contains_key("$ref") {
        let siblings: Vec<String> = map
            .keys()
            .filter(|k| {
                // At the root, `definitions` (here already `$defs`) belongs to the document.
                let document = at.is_empty() && matches!(k.as_str(), "$defs" | "definitions");
                *k != "$ref" && !document && !crate::check::is_annotation(k)
            })
            .map(|k| format!("`{k}`"))
            .collect();
        if !siblings.is_empty() {
            return Err((
                pointer::join(at, "$ref"),
                format!(
                    "`$ref` with sibling keywords {} in a draft-07 document (draft-07 ignores them, 2020-12 applies them): move them into an `allOf` beside the `$ref`, or declare 2020-12",
                    siblings.join(", ")
                ),
            ));
        }
    }
    for keyword in ["$recursiveRef", "$recursiveAnchor"] {
        if map.contains_key(keyword) && !context.faithful {
            return Err((
                pointer::join(at, keyword),
                format!("`{keyword}` (draft 2019-09) has no 2020-12 rewrite the pipeline takes"),
            ));
        }
    }
    if let Some(Value::String(reference)) = map.get_mut("$ref") {
        to_defs(reference);
    }
    if let Some(discriminator) = map.get_mut("discriminator") {
        super::refs::mapping_refs(discriminator).for_each(to_defs);
    }
    if matches!(map.get("items"), Some(Value::Array(_))) {
        let prefix = map.remove("items").unwrap_or_default();
        map.insert("prefixItems".to_owned(), prefix);
        if let Some(additional) = map.remove("additionalItems") {
            map.insert("items".to_owned(), additional);
        }
    } else {
        // `additionalItems` without an `items` array has no effect.
        map.remove("additionalItems");
    }
    if let Some(Value::Object(dependencies)) = map.remove("dependencies") {
        let mut required = Map::new();
        let mut schemas = Map::new();
        for (name, dependency) in dependencies {
            if dependency.is_array() {
                required.insert(name, dependency);
            } else {
                schemas.insert(name, dependency);
            }
        }
        if !required.is_empty() {
            map.insert("dependentRequired".to_owned(), Value::Object(required));
        }
        if !schemas.is_empty() {
            map.insert("dependentSchemas".to_owned(), Value::Object(schemas));
        }
    }
    for (key, value) in map.iter_mut() {
        let here = pointer::join(at, key);
        match key.as_str() {
            // Values that are not schemas (or maps of them) are left alone.
            "enum" | "const" | "default" | "examples" | "required" | "dependentRequired" => {}
            "properties" | "$defs" | "patternProperties" | "dependentSchemas" => {
                if let Value::Object(children) = value {
                    for (name, child) in children.iter_mut() {
                        rewrite(child, &pointer::join(&here, name), context)?;
                    }
                }
            }
            _ => rewrite(value, &here, context)?,
        }
    }
    Ok(())
}

/// A draft-07 reference into `definitions`, local or into a sibling file, as one into `$defs`.
fn to_defs(reference: &mut String) {
    if let Some(rest) = reference.strip_prefix("#/definitions/") {
        *reference = format!("#/$defs/{rest}");
    } else if let Some((file, rest)) = reference.split_once("#/definitions/") {
        *reference = format!("{file}#/$defs/{rest}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn draft_07_becomes_2020_12() {
        let mut document = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "definitions": {
                "Pair": {"type": "array", "items": [{"type": "string"}, {"$ref": "#/definitions/N"}], "additionalItems": false},
                "N": {"type": "integer"},
                "D": {"type": "object", "dependencies": {"a": ["b"], "c": {"required": ["d"]}}}
            }
        });
        to_2020_12_with(&mut document, false).unwrap();
        assert_eq!(
            document,
            json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$defs": {
                    "Pair": {"type": "array", "prefixItems": [{"type": "string"}, {"$ref": "#/$defs/N"}], "items": false},
                    "N": {"type": "integer"},
                    "D": {"type": "object", "dependentRequired": {"a": ["b"]}, "dependentSchemas": {"c": {"required": ["d"]}}}
                }
            })
        );
    }

    #[test]
    fn recursive_refs_are_refused_by_pointer() {
        let mut document = json!({
            "$schema": "https://json-schema.org/draft/2019-09/schema",
            "$defs": {"T": {"properties": {"c": {"$recursiveRef": "#"}}}}
        });
        let (pointer, what) = to_2020_12_with(&mut document, false).unwrap_err();
        assert_eq!(pointer, "/$defs/T/properties/c/$recursiveRef");
        assert!(what.starts_with("`$recursiveRef`"), "{what}");
    }
}
