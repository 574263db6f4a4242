//! A document's root schema as a definition of its own.
//!
//! Most schemas a user writes describe their value at the root (`{"title": "Config", "type":
//! "object", ...}`) and keep only helpers under `$defs`. Such a root becomes a definition named
//! after its `title` (else the file name before its first `.`), and `"$ref": "#"` (recursion to
//! the root) points at it. A root that only `$ref`s a definition is that definition: nothing is
//! added.

use std::path::Path;

use serde_json::{Map, Value};

use crate::check::is_allowed;
use crate::pointer;

/// Keywords of the document, not of the root's value.
const DOCUMENT_KEYWORDS: &[&str] = &["$defs", "definitions", "$schema", "$id"];

/// The root's own schema for a faithful family (a user's schema): the root is always a type,
/// except in a document that only holds definitions (`$defs` and annotations beside them).
/// A boolean root is itself; `$defs` stay (a pointer into them still names them).
#[must_use]
pub fn schema_faithful(document: &Value) -> Option<Value> {
    let Some(map) = document.as_object() else {
        return Some(document.clone());
    };
    let has_defs = map.contains_key("$defs") || map.contains_key("definitions");
    let asserts = map
        .keys()
        .any(|k| crate::model::is_assertion(k) && !DOCUMENT_KEYWORDS.contains(&k.as_str()));
    if has_defs && !asserts {
        return None;
    }
    Some(own_schema(map))
}

/// The root's own schema (without `$defs` and the document keywords), when it has a shape
/// beyond a lone `$ref`.
#[must_use]
pub fn schema(document: &Value) -> Option<Value> {
    let map = document.as_object()?;
    let shape: Vec<&str> = map
        .keys()
        .map(String::as_str)
        .filter(|k| is_allowed(k) && !DOCUMENT_KEYWORDS.contains(k))
        .collect();
    if shape.is_empty() || shape == ["$ref"] {
        return None;
    }
    Some(own_schema(map))
}

/// The root's keywords without the document's own (`$defs`, `$schema`, ...).
fn own_schema(map: &Map<String, Value>) -> Value {
    Value::Object(
        map.iter()
            .filter(|(k, _)| !DOCUMENT_KEYWORDS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    )
}

/// The definition names a root schema may take, in order: its `title`, then the file name
/// before its first `.` (`orders.schema.json` is `orders`).
#[must_use]
pub fn candidate_names(document: &Value, path: &Path) -> Vec<String> {
    let title = document
        .get("title")
        .and_then(Value::as_str)
        .filter(|t| !t.trim().is_empty())
        .map(str::to_owned);
    let stem = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .and_then(|n| n.split('.').next().map(str::to_owned))
        .filter(|s| !s.is_empty());
    title.into_iter().chain(stem).collect()
}

/// Points every `"$ref": "#"` of `document` at the definition `name`.
pub fn point_refs_at(document: &mut Value, name: &str) {
    let target = format!("#/$defs/{}", pointer::escape(name));
    super::refs::each_ref(document, &mut |reference| {
        if reference == "#" {
            target.clone_into(reference);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_root_with_a_shape_is_a_schema_a_lone_ref_is_not() {
        let document = json!({"$schema": "x", "title": "Config", "type": "object",
            "properties": {"next": {"$ref": "#"}}, "$defs": {"Port": {"type": "integer"}}});
        assert_eq!(
            schema(&document),
            Some(
                json!({"title": "Config", "type": "object", "properties": {"next": {"$ref": "#"}}})
            )
        );
        assert_eq!(
            schema(&json!({"title": "T", "$ref": "#/$defs/A", "$defs": {}})),
            None
        );
        assert_eq!(schema(&json!({"$schema": "x", "$defs": {}})), None);
    }

    #[test]
    fn names_come_from_the_title_then_the_file() {
        let path = Path::new("dir/orders.schema.json");
        assert_eq!(
            candidate_names(&json!({"title": "Order"}), path),
            ["Order", "orders"]
        );
        assert_eq!(candidate_names(&json!({"title": " "}), path), ["orders"]);
    }

    #[test]
    fn recursion_to_the_root_points_at_its_definition() {
        let mut document =
            json!({"properties": {"next": {"$ref": "#"}, "c": {"const": {"$ref": "#"}}}});
        point_refs_at(&mut document, "a/b");
        assert_eq!(document["properties"]["next"]["$ref"], "#/$defs/a~1b");
        assert_eq!(document["properties"]["c"]["const"]["$ref"], "#");
    }
}
