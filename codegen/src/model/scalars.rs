//! Bounds on values (`minimum`, `maxLength`, `pattern`, `minItems`...), read from a schema and
//! checked against the type they apply to.

use serde_json::Value;

use super::build::{BuildError, Builder};
use super::{Bounds, Ty};

fn number(schema: &Value, key: &str) -> Option<serde_json::Number> {
    schema.get(key).and_then(Value::as_number).cloned()
}

/// A count (`maxLength`, `minItems`...): a non-negative integer, also when written as an
/// integral float (`2.0`), which every draft allows.
fn count(schema: &Value, key: &str) -> Option<u64> {
    let value = schema.get(key)?;
    value.as_u64().or_else(|| {
        value
            .as_f64()
            .filter(|v| v.fract() == 0.0 && *v >= 0.0 && *v < 1.8e19)
            .map(|v| {
                #[allow(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "integral, in range"
                )]
                let n = v as u64;
                n
            })
    })
}

/// Whether the linear-time engine the runtime matches `pattern`s with takes `pattern` (else a
/// run-time check of the `jsonschema` crate matches it).
#[must_use]
pub fn native_pattern(pattern: &str) -> bool {
    jsonschema_regex::to_rust_regex(pattern)
        .ok()
        .is_some_and(|translated| regex_automata::meta::Regex::new(&translated).is_ok())
}

/// Drops the bounds that do not apply to values of `ty` (JSON Schema ignores a `minimum` on a
/// string), and a `pattern` the runtime's engine cannot match (a check matches it).
pub(super) fn keep_applicable(bounds: &mut Bounds, ty: &Ty) {
    let (numeric, textual, items) = match ty {
        Ty::Int(_) | Ty::Number | Ty::JsonNumber => (true, false, false),
        Ty::String => (false, true, false),
        Ty::Vec(_) => (false, false, true),
        Ty::Value => (true, true, true),
        _ => (false, false, false),
    };
    if !numeric {
        bounds.minimum = None;
        bounds.maximum = None;
        bounds.exclusive_minimum = None;
        bounds.exclusive_maximum = None;
        bounds.multiple_of = None;
    }
    if !textual {
        bounds.min_length = None;
        bounds.max_length = None;
        bounds.pattern = None;
    }
    if bounds
        .pattern
        .as_deref()
        .is_some_and(|p| !native_pattern(p))
    {
        bounds.pattern = None;
    }
    if !items {
        bounds.min_items = None;
        bounds.max_items = None;
        bounds.unique_items = false;
    }
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
        Ty::Int(_) | Ty::Number | Ty::JsonNumber => !textual && !items,
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
            return Err(BuildError::Invalid {
                definition: builder.definition.clone(),
                pointer: pointer.to_owned(),
                what: format!(
                    "`multipleOf` `{step}`: JSON Schema requires a number greater than 0"
                ),
            });
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
