//! Bounds on values (`minimum`, `maxLength`, `pattern`, `minItems`...), read from a schema and
//! checked against the type they apply to.

use serde_json::Value;

use super::build::{BuildError, Builder};
use super::{Bounds, Ty};

fn number(schema: &Value, key: &str) -> Option<serde_json::Number> {
    schema.get(key).and_then(Value::as_number).cloned()
}

fn count(schema: &Value, key: &str) -> Option<u64> {
    schema.get(key).and_then(Value::as_u64)
}

/// The bounds `schema` declares.
pub(super) fn bounds(schema: &Value) -> Bounds {
    Bounds {
        minimum: number(schema, "minimum"),
        maximum: number(schema, "maximum"),
        exclusive_minimum: number(schema, "exclusiveMinimum"),
        exclusive_maximum: number(schema, "exclusiveMaximum"),
        multiple_of: number(schema, "multipleOf"),
        min_length: count(schema, "minLength"),
        max_length: count(schema, "maxLength"),
        pattern: schema
            .get("pattern")
            .and_then(Value::as_str)
            .map(str::to_owned),
        min_items: count(schema, "minItems"),
        max_items: count(schema, "maxItems"),
        unique_items: schema.get("uniqueItems") == Some(&Value::Bool(true)),
    }
}

/// Refuses bounds that do not apply to `ty` (a `maxLength` on an integer would never be
/// checked) and patterns the runtime's linear-time engine cannot compile.
pub(super) fn check_bounds(
    builder: &Builder<'_>,
    ty: &Ty,
    bounds: &Bounds,
    pointer: &str,
) -> Result<(), BuildError> {
    let numeric = bounds.minimum.is_some()
        || bounds.maximum.is_some()
        || bounds.exclusive_minimum.is_some()
        || bounds.exclusive_maximum.is_some()
        || bounds.multiple_of.is_some();
    let textual =
        bounds.min_length.is_some() || bounds.max_length.is_some() || bounds.pattern.is_some();
    let items = bounds.min_items.is_some() || bounds.max_items.is_some() || bounds.unique_items;
    let applies = match ty {
        Ty::Int(_) | Ty::Number => !textual && !items,
        Ty::String => !numeric && !items,
        Ty::Vec(_) => !numeric && !textual,
        // A bound beside a value of any type applies to values of its kind only, as in JSON
        // Schema; the runtime checks it by the value's kind.
        Ty::Value => true,
        _ => false,
    };
    if !applies {
        return Err(builder.unsupported(
            pointer,
            format!("bounds ({}) on a value they cannot apply to", names(bounds)),
        ));
    }
    if let Some(step) = &bounds.multiple_of {
        if step.as_f64().is_none_or(|v| v <= 0.0) {
            return Err(builder.unsupported(
                pointer,
                format!("`multipleOf` `{step}`: JSON Schema requires a number greater than 0"),
            ));
        }
    }
    if let Some(pattern) = &bounds.pattern {
        let translated = jsonschema_regex::to_rust_regex(pattern).map_err(|()| {
            builder.unsupported(
                pointer,
                format!("`pattern` `{pattern}`, which ECMA-262 to Rust regex translation refuses"),
            )
        })?;
        regex_automata::meta::Regex::new(&translated).map_err(|e| {
            builder.unsupported(
                pointer,
                format!("`pattern` `{pattern}`, which the linear-time regex engine refuses ({e})"),
            )
        })?;
    }
    Ok(())
}

fn names(bounds: &Bounds) -> String {
    let set = [
        bounds.minimum.is_some(),
        bounds.maximum.is_some(),
        bounds.exclusive_minimum.is_some(),
        bounds.exclusive_maximum.is_some(),
        bounds.multiple_of.is_some(),
        bounds.min_length.is_some(),
        bounds.max_length.is_some(),
        bounds.pattern.is_some(),
        bounds.min_items.is_some(),
        bounds.max_items.is_some(),
        bounds.unique_items,
    ];
    crate::check::BOUND_KEYWORDS
        .iter()
        .zip(set)
        .filter(|(_, set)| *set)
        .map(|(name, _)| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
