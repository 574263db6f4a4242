//! Which assertions of a schema its type carries, and which are left to a run-time check.
//!
//! Every keyword of the validation and applicator vocabularies of draft-04 to 2020-12 asserts
//! something about the values of some kinds (`minLength` about strings, `properties` about
//! objects, `not` about any value); any other keyword is an annotation. The model builds a
//! type from a schema by one construct (a struct, an enumeration, a string...), which carries
//! some of them; [`residual`] names the others that apply to the values the type admits, so
//! that a check enforces them.

use serde_json::Value;

use super::build::{types, Builder};

/// Keywords about numbers.
const NUMERIC: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];
/// Keywords about strings (`format` only when formats are asserted).
const STRING: &[&str] = &["minLength", "maxLength", "pattern", "format"];
/// Keywords about arrays.
const ARRAY: &[&str] = &[
    "items",
    "prefixItems",
    "additionalItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedItems",
];
/// Keywords about objects.
const OBJECT: &[&str] = &[
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "unevaluatedProperties",
];
/// Keywords about values of any kind.
const ANY: &[&str] = &[
    "type",
    "enum",
    "const",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
];

/// Whether `keyword` asserts something about a value (else it is an annotation: documentation,
/// a vendor keyword, or a keyword no vocabulary defines).
#[must_use]
pub fn is_assertion(keyword: &str, assert_formats: bool) -> bool {
    if keyword == "format" {
        return assert_formats;
    }
    [NUMERIC, STRING, ARRAY, OBJECT, ANY]
        .iter()
        .any(|list| list.contains(&keyword))
}

/// The kinds of values a keyword is about (`None`: any kind).
fn about(keyword: &str) -> Option<&'static [&'static str]> {
    if NUMERIC.contains(&keyword) {
        Some(&["integer", "number"])
    } else if STRING.contains(&keyword) {
        Some(&["string"])
    } else if ARRAY.contains(&keyword) {
        Some(&["array"])
    } else if OBJECT.contains(&keyword) {
        Some(&["object"])
    } else {
        None
    }
}

/// How the model built a type from a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Construct {
    /// Another call decides (a hoisted item, the branches of a `type` array, an array
    /// definition built as a value): nothing to check here.
    Delegated,
    /// A `$ref`: the referenced type.
    Ref,
    /// A string or integer enumeration.
    Enum,
    /// A union of `anyOf`/`oneOf` branches; `exact` when it enforces the keyword as written
    /// (one variant per `oneOf` branch).
    Union { exact: bool },
    /// A struct; `flattened` with a union beside its members.
    Struct { flattened: bool },
    /// A map of `additionalProperties` values, or any object.
    ObjectMap,
    /// An array of `items`.
    Array,
    /// A `prefixItems` tuple.
    Tuple,
    /// A string, integer, number or boolean, by its `type`.
    Scalar(&'static str),
    /// Any JSON value, with the bounds it carries by kind.
    Any,
}

impl Construct {
    /// The kinds of values the type admits (`None`: any).
    fn kinds(self) -> Option<&'static [&'static str]> {
        match self {
            Self::Struct { .. } | Self::ObjectMap => Some(&["object"]),
            Self::Array | Self::Tuple => Some(&["array"]),
            Self::Scalar("string") => Some(&["string"]),
            Self::Scalar("integer") => Some(&["integer"]),
            Self::Scalar("number") => Some(&["number"]),
            Self::Scalar(_) => Some(&["boolean"]),
            Self::Enum => Some(&["string", "integer"]),
            Self::Delegated | Self::Ref | Self::Union { .. } | Self::Any => None,
        }
    }

    /// Whether the type carries `keyword`.
    fn carries(self, keyword: &str, schema: &Value) -> bool {
        let bound = |k: &str| {
            k == "pattern"
                && schema
                    .get("pattern")
                    .and_then(Value::as_str)
                    .is_some_and(super::scalars::native_pattern)
        };
        match self {
            Self::Delegated => true,
            Self::Ref => keyword == "$ref",
            Self::Enum => matches!(keyword, "type" | "enum" | "const"),
            Self::Union { exact } => keyword == "anyOf" || (keyword == "oneOf" && exact),
            Self::Struct { flattened } => {
                matches!(keyword, "type" | "properties" | "required")
                    || (keyword == "additionalProperties"
                        && schema.get("patternProperties").is_none())
                    || (flattened && matches!(keyword, "anyOf" | "oneOf"))
            }
            Self::ObjectMap => {
                keyword == "type"
                    || (keyword == "additionalProperties"
                        && schema.get("patternProperties").is_none())
            }
            Self::Array => matches!(
                keyword,
                "type" | "items" | "minItems" | "maxItems" | "uniqueItems"
            ),
            Self::Tuple => matches!(
                keyword,
                "type" | "prefixItems" | "items" | "minItems" | "maxItems"
            ),
            Self::Scalar("string") => {
                matches!(keyword, "type" | "minLength" | "maxLength") || bound(keyword)
            }
            Self::Scalar("integer" | "number") => keyword == "type" || NUMERIC.contains(&keyword),
            Self::Scalar(_) => keyword == "type",
            Self::Any => {
                NUMERIC.contains(&keyword)
                    || matches!(
                        keyword,
                        "minLength" | "maxLength" | "minItems" | "maxItems" | "uniqueItems"
                    )
                    || bound(keyword)
            }
        }
    }
}

/// The assertions of `schema` (its own keywords) that the type built by `construct` does not
/// carry but that apply to a value it admits, in schema order.
pub(super) fn residual(builder: &Builder<'_>, schema: &Value, construct: Construct) -> Vec<String> {
    let Some(map) = schema.as_object() else {
        return if schema == &Value::Bool(false) {
            vec!["false".to_owned()]
        } else {
            Vec::new()
        };
    };
    let assert_formats = builder.assert_formats();
    let kinds = construct.kinds();
    let nullable = types(schema).nullable;
    map.keys()
        .filter(|k| is_assertion(k, assert_formats))
        .filter(|k| match (about(k), kinds) {
            (Some(about), Some(kinds)) => about.iter().any(|a| kinds.contains(a)),
            _ => true,
        })
        .filter(|k| !construct.carries(k, schema))
        // `type: [T, null]` is carried by the presence of the member or by `Option`.
        .filter(|k| !(k.as_str() == "type" && nullable && kinds.is_some()))
        .cloned()
        .collect()
}

/// `branch` and the schemas it takes in (the definition its `$ref` names, its `allOf` parts and
/// the definitions they name), one level deep.
fn branch_parts<'s>(builder: &'s Builder<'_>, branch: &'s Value) -> Vec<&'s Value> {
    let mut parts = vec![branch];
    let add_ref = |schema: &'s Value, parts: &mut Vec<&'s Value>| {
        if let Some(target) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| builder.resolve(r, "").ok())
        {
            parts.push(target);
        }
    };
    add_ref(branch, &mut parts);
    for part in branch
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        parts.push(part);
        add_ref(part, &mut parts);
    }
    parts
}

/// The branches of `schema`'s `oneOf` (or `anyOf`).
fn union_branches(schema: &Value) -> &[Value] {
    schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Whether a branch keyword is one a struct built from the branch carries: its members, their
/// presence, the rest of the members, and how it takes in other schemas.
fn shapes_members(keyword: &str, value: &Value, assert_formats: bool) -> bool {
    match keyword {
        "properties" | "required" | "additionalProperties" | "$ref" | "allOf" => true,
        "type" => value == "object",
        other => !is_assertion(other, assert_formats),
    }
}

/// Whether the union of an object schema cannot sit beside its members as a flattened part of
/// the struct (a faithful family's): a branch (or a schema it takes in) constrains a member the
/// struct declares (`parent_members`, which the struct takes out before the union sees the
/// rest), or asserts about the object as a whole (`minProperties`, `patternProperties`,
/// `additionalProperties` counting the struct's members...). Such a union is checked as a
/// whole instead, its branches' members kept as the struct's unknown members.
pub(super) fn union_reaches_members(
    builder: &Builder<'_>,
    schema: &Value,
    parent_members: &[String],
) -> bool {
    let assert_formats = builder.assert_formats();
    let names = |part: &Value, key: &str| -> Vec<String> {
        match part.get(key) {
            Some(Value::Object(map)) => map.keys().cloned().collect(),
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        }
    };
    union_branches(schema).iter().any(|branch| {
        branch_parts(builder, branch).into_iter().any(|part| {
            let Some(map) = part.as_object() else {
                return part == &Value::Bool(false);
            };
            map.iter()
                .any(|(k, v)| k == "additionalProperties" || !shapes_members(k, v, assert_formats))
                || names(part, "properties")
                    .iter()
                    .chain(&names(part, "required"))
                    .any(|name| parent_members.contains(name))
        })
    })
}

/// Whether a branch of a tagged union asserts something its variant's struct does not carry
/// (`minProperties`, `patternProperties`, `not` beside a catch-all's...), which holds for the
/// whole object, tag included: the union is then checked as a whole (a faithful family's).
pub(super) fn tagged_branches_lossy(builder: &Builder<'_>, schema: &Value) -> bool {
    let assert_formats = builder.assert_formats();
    union_branches(schema).iter().any(|branch| {
        let catch_all = branch.get("not").is_some();
        branch_parts(builder, branch).into_iter().any(|part| {
            let Some(map) = part.as_object() else {
                return part == &Value::Bool(false);
            };
            map.iter()
                .any(|(k, v)| !(shapes_members(k, v, assert_formats) || (catch_all && k == "not")))
        })
    })
}

/// Whether `schema` reaches a `$dynamicRef` or `$recursiveRef`, in itself or through the
/// definitions its `$ref`s name: its value then depends on the dynamic scope it is decoded
/// in, which a check of a part on its own does not have.
pub(super) fn reaches_dynamic_ref(builder: &Builder<'_>, schema: &Value) -> bool {
    fn walk<'a>(builder: &'a Builder<'_>, value: &'a Value, seen: &mut Vec<&'a str>) -> bool {
        match value {
            Value::Object(map) => map.iter().any(|(k, v)| match k.as_str() {
                "$dynamicRef" | "$recursiveRef" => true,
                "$ref" => v.as_str().is_some_and(|r| {
                    if seen.contains(&r) {
                        return false;
                    }
                    seen.push(r);
                    builder
                        .resolve(r, "")
                        .is_ok_and(|target| walk(builder, target, seen))
                }),
                _ => walk(builder, v, seen),
            }),
            Value::Array(items) => items.iter().any(|v| walk(builder, v, seen)),
            _ => false,
        }
    }
    walk(builder, schema, &mut Vec::new())
}
