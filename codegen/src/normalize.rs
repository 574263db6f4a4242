//! Stage 3: rewrite ACP idioms that typify mishandles into shapes it handles, and take out the
//! constructs it cannot express so that [`crate::postpass`] emits them instead.
//!
//! What this stage does, each recorded in [`Normalized`]:
//! - `const: v` becomes `enum: [v]` (typify drops `const`).
//! - A discriminated union (a `oneOf`/`anyOf` whose every branch is an object whose `properties`
//!   carry the same `const` tag member, listed in `required`, with or without a `discriminator`)
//!   becomes a [`TaggedUnion`]; its definition is replaced for typify by a reference to the
//!   enum the post-pass emits. A branch holding members beside the tag and no `$ref` becomes a
//!   synthetic definition `<Union><Variant>`.
//! - Vendor keywords (`x-*`) are removed before typify and recorded per property.
//! - Optional properties whose schema admits `null` are recorded ([`PropertyFacts::nullable`]).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::check::escape;

/// One variant of a [`TaggedUnion`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnionVariant {
    /// The tag value on the wire (`"tool_call"`).
    pub tag: String,
    /// The Rust variant name (`ToolCall`).
    pub name: String,
    /// The definition the variant wraps; `None` for a variant with the tag alone.
    pub payload: Option<String>,
    /// The branch's `description`.
    pub description: Option<String>,
}

/// A union discriminated by a `const` tag member: emitted as an internally tagged enum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaggedUnion {
    /// The definition name (`SessionUpdate`).
    pub name: String,
    /// The tag member (`sessionUpdate`).
    pub tag: String,
    /// The variants, in schema order.
    pub variants: Vec<UnionVariant>,
    /// The definition's `description`.
    pub description: Option<String>,
}

/// What the schema says about one property that typify does not carry into Rust.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PropertyFacts {
    /// Optional (not in `required`) and admits `null`: three states on the wire.
    pub nullable: bool,
    /// `x-deserialize-default-on-error`: a malformed value decodes as absent.
    pub default_on_error: bool,
    /// `x-deserialize-skip-invalid-items`: an invalid array item is skipped.
    pub skip_invalid_items: bool,
}

/// The output of this stage.
#[derive(Debug, Clone, Default)]
pub struct Normalized {
    /// Definitions for typify, in schema order (synthetic ones appended).
    pub defs: Vec<(String, Value)>,
    /// Unions the post-pass emits; their definitions are replaced for typify.
    pub unions: Vec<TaggedUnion>,
    /// Facts per `(definition, property)` for the post-pass.
    pub properties: BTreeMap<(String, String), PropertyFacts>,
}

/// A construct this stage cannot express faithfully.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NormalizeError {
    /// A `$ref` names a definition that does not exist.
    #[error("definition `{definition}`: `$ref` to missing definition `{target}` at `{pointer}`")]
    MissingRef {
        /// The definition holding the reference.
        definition: String,
        /// The missing name.
        target: String,
        /// RFC 6901 pointer of the reference.
        pointer: String,
    },
    /// A requested root definition does not exist.
    #[error("root definition `{definition}` is not in the schema")]
    MissingRoot {
        /// The requested name.
        definition: String,
    },
    /// A tagged-union branch mixes a `$ref` payload with members of its own.
    #[error("definition `{definition}`: union branch at `{pointer}` has both `allOf` and members beside the tag `{tag}`")]
    MixedBranch {
        /// The union definition.
        definition: String,
        /// RFC 6901 pointer of the branch.
        pointer: String,
        /// The tag member.
        tag: String,
    },
}

/// Normalizes the `$defs` of one schema document.
///
/// `roots`: when given, only the closure of these definitions (over `$ref`) is kept; otherwise
/// every definition is.
///
/// # Errors
/// [`NormalizeError::MissingRoot`] for a root not in `$defs`, [`NormalizeError::MissingRef`]
/// for a dangling `$ref`, [`NormalizeError::MixedBranch`] for a union branch this stage cannot
/// split into tag and payload.
pub fn normalize(document: &Value, roots: Option<&[&str]>) -> Result<Normalized, NormalizeError> {
    let all: Vec<(String, Value)> = document
        .get("$defs")
        .and_then(Value::as_object)
        .map(|defs| defs.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    let index: BTreeMap<&str, &Value> = all.iter().map(|(k, v)| (k.as_str(), v)).collect();

    let keep: BTreeSet<String> = match roots {
        None => all.iter().map(|(k, _)| k.clone()).collect(),
        Some(roots) => closure(&index, roots)?,
    };

    let mut out = Normalized::default();
    let mut synthetic = Vec::new();
    for (name, schema) in &all {
        if !keep.contains(name) {
            continue;
        }
        let pointer = format!("/$defs/{}", escape(name));
        if let Some(union) = tagged_union(name, schema, &pointer, &mut synthetic)? {
            out.unions.push(union);
            continue;
        }
        let mut schema = schema.clone();
        record_properties(name, &schema, &mut out.properties);
        rewrite(&mut schema);
        out.defs.push((name.clone(), schema));
    }
    for (name, mut schema) in synthetic {
        record_properties(&name, &schema, &mut out.properties);
        rewrite(&mut schema);
        out.defs.push((name, schema));
    }
    Ok(out)
}

/// The names reachable from `roots` over `$ref`, roots included.
fn closure(index: &BTreeMap<&str, &Value>, roots: &[&str]) -> Result<BTreeSet<String>, NormalizeError> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<String> = Vec::new();
    for root in roots {
        if !index.contains_key(root) {
            return Err(NormalizeError::MissingRoot {
                definition: (*root).to_owned(),
            });
        }
        stack.push((*root).to_owned());
    }
    while let Some(name) = stack.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let mut refs = Vec::new();
        collect_refs(index[name.as_str()], &format!("/$defs/{}", escape(&name)), &mut refs);
        for (target, pointer) in refs {
            if !index.contains_key(target.as_str()) {
                return Err(NormalizeError::MissingRef {
                    definition: name,
                    target,
                    pointer,
                });
            }
            stack.push(target);
        }
    }
    Ok(seen)
}

fn collect_refs(value: &Value, pointer: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            for (key, sub) in map {
                let here = format!("{pointer}/{}", escape(key));
                if key == "$ref" {
                    if let Some(target) = sub.as_str().and_then(|r| r.strip_prefix("#/$defs/")) {
                        out.push((target.to_owned(), here));
                    }
                } else if key != "enum" && key != "const" && key != "default" && key != "examples" {
                    collect_refs(sub, &here, out);
                }
            }
        }
        Value::Array(items) => {
            for (i, sub) in items.iter().enumerate() {
                collect_refs(sub, &format!("{pointer}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Recognizes a discriminated union and returns it, pushing synthetic payload definitions.
fn tagged_union(
    name: &str,
    schema: &Value,
    pointer: &str,
    synthetic: &mut Vec<(String, Value)>,
) -> Result<Option<TaggedUnion>, NormalizeError> {
    let (keyword, branches) = match (schema.get("oneOf"), schema.get("anyOf")) {
        (Some(Value::Array(b)), None) => ("oneOf", b),
        (None, Some(Value::Array(b))) => ("anyOf", b),
        _ => return Ok(None),
    };
    let Some(tag) = common_tag(branches) else {
        return Ok(None);
    };
    let mut variants = Vec::new();
    let mut pending = Vec::new();
    for (i, branch) in branches.iter().enumerate() {
        let value = branch["properties"][&tag]["const"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let variant_name = pascal(&value);
        let payload_ref = branch
            .get("allOf")
            .and_then(Value::as_array)
            .and_then(|a| a.first())
            .and_then(|r| r.get("$ref"))
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/$defs/"))
            .map(str::to_owned);
        let own: Map<String, Value> = branch["properties"]
            .as_object()
            .map(|p| p.iter().filter(|(k, _)| **k != tag).map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default();
        let payload = match (payload_ref, own.is_empty()) {
            (Some(target), true) => Some(target),
            (None, true) => None,
            (None, false) => {
                let synthetic_name = format!("{name}{variant_name}");
                let mut object = Map::new();
                object.insert("type".into(), Value::from("object"));
                object.insert("properties".into(), Value::Object(own));
                if let Some(required) = branch.get("required").and_then(Value::as_array) {
                    let required: Vec<Value> =
                        required.iter().filter(|r| r.as_str() != Some(tag.as_str())).cloned().collect();
                    object.insert("required".into(), Value::Array(required));
                }
                if let Some(description) = branch.get("description") {
                    object.insert("description".into(), description.clone());
                }
                pending.push((synthetic_name.clone(), Value::Object(object)));
                Some(synthetic_name)
            }
            (Some(_), false) => {
                return Err(NormalizeError::MixedBranch {
                    definition: name.to_owned(),
                    pointer: format!("{pointer}/{keyword}/{i}"),
                    tag,
                })
            }
        };
        variants.push(UnionVariant {
            tag: value,
            name: variant_name,
            payload,
            description: branch.get("description").and_then(Value::as_str).map(str::to_owned),
        });
    }
    synthetic.extend(pending);
    Ok(Some(TaggedUnion {
        name: name.to_owned(),
        tag,
        variants,
        description: schema.get("description").and_then(Value::as_str).map(str::to_owned),
    }))
}

/// The tag member shared by every branch: a `const` string property listed in `required`.
fn common_tag(branches: &[Value]) -> Option<String> {
    let first = branches.first()?;
    let candidates = first.get("properties")?.as_object()?;
    candidates.iter().find_map(|(member, _)| {
        let tagged = |b: &Value| {
            b["properties"][member]["const"].is_string()
                && b.get("required")
                    .and_then(Value::as_array)
                    .is_some_and(|r| r.iter().any(|x| x.as_str() == Some(member)))
        };
        branches.iter().all(tagged).then(|| member.clone())
    })
}

fn record_properties(
    definition: &str,
    schema: &Value,
    out: &mut BTreeMap<(String, String), PropertyFacts>,
) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    let required: BTreeSet<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for (property, sub) in properties {
        let facts = PropertyFacts {
            nullable: !required.contains(property.as_str()) && admits_null(sub),
            default_on_error: sub["x-deserialize-default-on-error"] == Value::Bool(true),
            skip_invalid_items: sub["x-deserialize-skip-invalid-items"] == Value::Bool(true),
        };
        if facts != PropertyFacts::default() {
            out.insert((definition.to_owned(), property.clone()), facts);
        }
    }
}

/// Whether a property schema admits `null`: `type` naming `null`, or an `anyOf`/`oneOf` branch
/// that does, or no constraint at all (`{}` admits every value).
fn admits_null(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => return t == "null",
        Some(Value::Array(types)) => return types.iter().any(|t| t == "null"),
        _ => {}
    }
    for keyword in ["anyOf", "oneOf"] {
        if let Some(branches) = schema.get(keyword).and_then(Value::as_array) {
            return branches.iter().any(admits_null);
        }
    }
    if schema.get("$ref").is_some() || schema.get("allOf").is_some() || schema.get("enum").is_some() {
        return false;
    }
    true
}

/// The typify-facing rewrites: `const` to a one-value `enum`, vendor keywords removed.
fn rewrite(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|k, _| !k.starts_with("x-"));
            if let Some(constant) = map.remove("const") {
                map.insert("enum".into(), Value::Array(vec![constant]));
            }
            // typify turns an `anyOf` into a struct of flattened optional members; as `oneOf` it
            // becomes an untagged enum whose first matching variant wins, which is exactly
            // `anyOf`'s acceptance. (A nullable `anyOf: [X, {type: null}]` stays: typify maps it
            // to `Option<X>`.)
            let nullable_pair = map.get("anyOf").and_then(Value::as_array).is_some_and(|b| {
                b.len() == 2 && b.iter().any(|x| x.get("type") == Some(&Value::from("null")))
            });
            if !nullable_pair {
                if let Some(branches) = map.remove("anyOf") {
                    map.insert("oneOf".into(), branches);
                }
            }
            for (key, sub) in map.iter_mut() {
                if key != "enum" && key != "default" && key != "examples" {
                    rewrite(sub);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(rewrite),
        _ => {}
    }
}

/// `user_message_chunk` → `UserMessageChunk`; `in-progress` → `InProgress`.
pub fn pascal(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut upper = true;
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() {
            if upper {
                out.push(c.to_ascii_uppercase());
            } else {
                out.push(c);
            }
            upper = false;
        } else {
            upper = true;
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) || out.is_empty() {
        out.insert(0, 'V');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tagged_union_over_refs_and_inline_branch() {
        let doc = json!({"$defs": {
            "Outcome": {"oneOf": [
                {"properties": {"outcome": {"type": "string", "const": "cancelled"}}, "required": ["outcome"]},
                {"properties": {"outcome": {"type": "string", "const": "selected"}}, "required": ["outcome"],
                 "allOf": [{"$ref": "#/$defs/Selected"}]},
                {"properties": {"outcome": {"const": "later"}, "at": {"type": "integer"}}, "required": ["outcome", "at"]}
            ], "discriminator": {"propertyName": "outcome"}},
            "Selected": {"type": "object", "properties": {"optionId": {"type": "string"}}}
        }});
        let n = normalize(&doc, Some(&["Outcome"])).unwrap();
        assert_eq!(n.unions.len(), 1);
        let u = &n.unions[0];
        assert_eq!(u.tag, "outcome");
        let v: Vec<_> = u.variants.iter().map(|v| (v.name.as_str(), v.payload.as_deref())).collect();
        assert_eq!(v, [("Cancelled", None), ("Selected", Some("Selected")), ("Later", Some("OutcomeLater"))]);
        let names: Vec<_> = n.defs.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["Selected", "OutcomeLater"]);
        assert_eq!(n.defs[1].1["required"], json!(["at"]));
    }

    #[test]
    fn const_becomes_enum_and_vendor_keywords_are_recorded() {
        let doc = json!({"$defs": {"A": {"type": "object", "required": ["k"], "properties": {
            "k": {"type": "string", "const": "x"},
            "t": {"type": ["string", "null"], "x-deserialize-default-on-error": true},
            "r": {"description": "any"}
        }}}});
        let n = normalize(&doc, None).unwrap();
        assert_eq!(n.defs[0].1["properties"]["k"], json!({"type": "string", "enum": ["x"]}));
        assert_eq!(n.defs[0].1["properties"]["t"], json!({"type": ["string", "null"]}));
        let t = &n.properties[&("A".to_owned(), "t".to_owned())];
        assert!(t.nullable && t.default_on_error && !t.skip_invalid_items);
        assert!(n.properties[&("A".to_owned(), "r".to_owned())].nullable);
        assert!(!n.properties.contains_key(&("A".to_owned(), "k".to_owned())));
    }

    #[test]
    fn missing_ref_is_named() {
        let doc = json!({"$defs": {"A": {"properties": {"b": {"$ref": "#/$defs/B"}}}}});
        let e = normalize(&doc, Some(&["A"])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "definition `A`: `$ref` to missing definition `B` at `/$defs/A/properties/b/$ref`"
        );
    }

    #[test]
    fn pascal_names() {
        assert_eq!(pascal("user_message_chunk"), "UserMessageChunk");
        assert_eq!(pascal("resource_link"), "ResourceLink");
        assert_eq!(pascal("2.0"), "V20");
    }
}
