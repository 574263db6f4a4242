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
