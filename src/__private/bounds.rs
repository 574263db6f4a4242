//! The bounds a schema declares on a value (`minimum`, `maximum`, `exclusiveMinimum`,
//! `exclusiveMaximum`, `multipleOf`, `minLength`, `maxLength`, `pattern`, `minItems`,
//! `maxItems`, `uniqueItems`), checked when decoding.
//!
//! Lengths count Unicode code points, as JSON Schema does (not bytes). Numbers compare exactly
//! when both sides are integers, as `f64` otherwise.

use std::cmp::Ordering;

use serde::de::{self, Deserializer};
use serde_json::Number;

use super::seeds::Seed;

/// A numeric bound as the schema writes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    /// An integer bound.
    Int(i64),
    /// A non-negative integer bound above `i64::MAX`.
    UInt(u64),
    /// A bound with a fraction (or an exponent).
    Float(f64),
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Int(v) => v.fmt(f),
            Self::UInt(v) => v.fmt(f),
            Self::Float(v) => v.fmt(f),
        }
    }
}

/// Every bound one value may have; [`Bounds::NONE`] has none.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    pub minimum: Option<Limit>,
    pub maximum: Option<Limit>,
    pub exclusive_minimum: Option<Limit>,
    pub exclusive_maximum: Option<Limit>,
    pub multiple_of: Option<Limit>,
    pub min_length: Option<usize>,
    pub max_length: Option<usize>,
    pub min_items: Option<usize>,
    pub max_items: Option<usize>,
    pub unique_items: bool,
    pub pattern: Option<&'static Pattern>,
}

impl Bounds {
    /// No bound at all (the base of a struct update in generated code).
    pub const NONE: Self = Self {
        minimum: None,
        maximum: None,
        exclusive_minimum: None,
        exclusive_maximum: None,
        multiple_of: None,
        min_length: None,
        max_length: None,
        min_items: None,
        max_items: None,
        unique_items: false,
        pattern: None,
    };
}

/// A value whose bounds can be checked.
pub trait Check {
    /// Why the value breaks `bounds`, if it does.
    fn violation(&self, bounds: &Bounds) -> Option<String>;
}

#[derive(Clone, Copy)]
enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    fn of_number(n: &Number) -> Self {
        if let Some(v) = n.as_i64() {
            Self::Int(i128::from(v))
        } else if let Some(v) = n.as_u64() {
            Self::Int(i128::from(v))
        } else {
            Self::Float(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    fn of_limit(limit: Limit) -> Self {
        match limit {
            Limit::Int(v) => Self::Int(i128::from(v)),
            Limit::UInt(v) => Self::Int(i128::from(v)),
            Limit::Float(v) => Self::Float(v),
        }
    }

    #[allow(
        clippy::cast_precision_loss,
        reason = "compared as f64 only when one side has a fraction"
    )]
    fn as_f64(self) -> f64 {
        match self {
            Self::Int(v) => v as f64,
            Self::Float(v) => v,
        }
    }

    fn cmp(self, other: Self) -> Ordering {
        match (self, other) {
            (Self::Int(a), Self::Int(b)) => a.cmp(&b),
            (a, b) => a
                .as_f64()
                .partial_cmp(&b.as_f64())
                .unwrap_or(Ordering::Equal),
        }
    }

    /// Whether `self` is an integral multiple of `divisor`, exactly: a float is read as the
    /// shortest decimal that gives it back (`0.07` is 7 × 10⁻², which `0.01` divides, although
    /// `0.07 / 0.01` is `7.000000000000001` in `f64`), as JSON Schema defines `multipleOf` on
    /// the numbers written.
    fn is_multiple_of(self, divisor: Self) -> bool {
        match (self, divisor) {
            (_, Self::Int(0)) => true,
            (Self::Int(a), Self::Int(b)) => a % b == 0,
            (a, b) => match (a.decimal(), b.decimal()) {
                (Some((digits, exponent)), Some(step)) => decimal_multiple(
                    &digits.unsigned_abs().to_string(),
                    i128::from(exponent),
                    step,
                ),
                // A value that is not finite is a multiple of nothing.
                _ => false,
            },
        }
    }

    /// `(digits, exponent)` with `self` = digits × 10^exponent, from the shortest decimal that
    /// reads back as the same `f64`; `None` for a non-finite float.
    fn decimal(self) -> Option<(i128, i32)> {
        match self {
            Self::Int(v) => Some((v, 0)),
            Self::Float(v) if v.is_finite() => {
                // `{:e}` writes the shortest round-trip digits: `7e-2`, `1.999e1`, `-2.5e0`.
                let text = format!("{v:e}");
                let (mantissa, exponent) = text.split_once('e')?;
                let exponent: i32 = exponent.parse().ok()?;
                let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
                let digits: i128 = format!("{whole}{fraction}").parse().ok()?;
                let places = i32::try_from(fraction.len()).ok()?;
                Some((digits, exponent - places))
            }
            Self::Float(_) => None,
        }
    }
}

/// Whether `digits` × 10^`exponent` (the digits of a decimal of any length, without sign) is
/// an integral multiple of `step`, `(digits, exponent)` as [`Num::decimal`] gives it, exactly:
/// the remainder is worked out digit by digit, and the power of ten by squaring, modulo the
/// step's digits (at most 20 of them: a step is an `i64`, a `u64` or the shortest decimal of an
/// `f64`), so any number of digits and any exponent cost the same few operations per digit.
fn decimal_multiple(digits: &str, exponent: i128, (step, step_exponent): (i128, i32)) -> bool {
    // Below 2^64 (see above), so that every product below fits in a `u128`: never more.
    let Ok(step) = u64::try_from(step.unsigned_abs()) else {
        return false;
    };
    let (mut step, mut step_exponent) = (u128::from(step), i128::from(step_exponent));
    if step == 0 {
        return true;
    }
    while step % 10 == 0 {
        step /= 10;
        step_exponent += 1;
    }
    let significant = digits.trim_start_matches('0');
    let trimmed = significant.trim_end_matches('0');
    if trimmed.is_empty() {
        // Zero is a multiple of anything.
        return true;
    }
    let zeros = i128::try_from(significant.len() - trimmed.len()).unwrap_or(i128::MAX);
    // value / step = (trimmed / step) × 10^shift, with neither ending in a zero: for a negative
    // shift the quotient is an integer only if `trimmed` ended in a zero, which it does not.
    let Ok(shift) = u128::try_from(exponent.saturating_add(zeros).saturating_sub(step_exponent))
    else {
        return false;
    };
    let remainder = trimmed.bytes().fold(0_u128, |r, digit| {
        (r * 10 + u128::from(digit - b'0')) % step
    });
    let (mut power, mut base, mut rest) = (1 % step, 10 % step, shift);
    while rest > 0 {
        if rest & 1 == 1 {
            power = power * base % step;
        }
        base = base * base % step;
        rest >>= 1;
    }
    remainder * power % step == 0
}

fn numeric(value: Num, shown: &dyn std::fmt::Display, bounds: &Bounds) -> Option<String> {
    let below = |limit: Option<Limit>, strict: bool| {
        limit.filter(|&l| {
            let order = value.cmp(Num::of_limit(l));
            order == Ordering::Less || (strict && order == Ordering::Equal)
        })
    };
    let above = |limit: Option<Limit>, strict: bool| {
        limit.filter(|&l| {
            let order = value.cmp(Num::of_limit(l));
            order == Ordering::Greater || (strict && order == Ordering::Equal)
        })
    };
    if let Some(l) = below(bounds.minimum, false) {
        return Some(format!("`{shown}` is less than the minimum `{l}`"));
    }
    if let Some(l) = below(bounds.exclusive_minimum, true) {
        return Some(format!(
            "`{shown}` is not greater than the exclusive minimum `{l}`"
        ));
    }
    if let Some(l) = above(bounds.maximum, false) {
        return Some(format!("`{shown}` is greater than the maximum `{l}`"));
    }
    if let Some(l) = above(bounds.exclusive_maximum, true) {
        return Some(format!(
            "`{shown}` is not less than the exclusive maximum `{l}`"
        ));
    }
    if let Some(l) = bounds.multiple_of {
        if !value.is_multiple_of(Num::of_limit(l)) {
            return Some(format!("`{shown}` is not a multiple of `{l}`"));
        }
    }
    None
}

macro_rules! check_integers {
    ($($t:ty),*) => {$(
        impl Check for $t {
            fn violation(&self, bounds: &Bounds) -> Option<String> {
                numeric(Num::Int(i128::from(*self)), self, bounds)
            }
        }
    )*};
}
check_integers!(i8, i16, i32, i64, u8, u16, u32, u64);

impl Check for Number {
    fn violation(&self, bounds: &Bounds) -> Option<String> {
        numeric(Num::of_number(self), self, bounds)
    }
}

impl Check for crate::JsonNumber {
    fn violation(&self, bounds: &Bounds) -> Option<String> {
        let limit = |l: Limit| -> Option<crate::JsonNumber> {
            match l {
                Limit::Int(v) => Some(v.into()),
                Limit::UInt(v) => Some(v.into()),
                Limit::Float(v) => crate::JsonNumber::try_from(v).ok(),
            }
        };
        let order = |l: Limit| limit(l).map(|l| self.cmp_value(&l));
        if let Some(l) = bounds.minimum.filter(|&l| order(l) == Some(Ordering::Less)) {
            return Some(format!("`{self}` is less than the minimum `{l}`"));
        }
        if let Some(l) = bounds
            .exclusive_minimum
            .filter(|&l| order(l).is_some_and(|o| o != Ordering::Greater))
        {
            return Some(format!(
                "`{self}` is not greater than the exclusive minimum `{l}`"
            ));
        }
        if let Some(l) = bounds
            .maximum
            .filter(|&l| order(l) == Some(Ordering::Greater))
        {
            return Some(format!("`{self}` is greater than the maximum `{l}`"));
        }
        if let Some(l) = bounds
            .exclusive_maximum
            .filter(|&l| order(l).is_some_and(|o| o != Ordering::Less))
        {
            return Some(format!(
                "`{self}` is not less than the exclusive maximum `{l}`"
            ));
        }
        if let Some(l) = bounds.multiple_of {
            let (_, digits, exponent) = self.decimal();
            let multiple = Num::of_limit(l)
                .decimal()
                .is_some_and(|step| decimal_multiple(&digits, exponent, step));
            if !multiple {
                return Some(format!("`{self}` is not a multiple of `{l}`"));
            }
        }
        None
    }
}

fn characters(count: usize) -> String {
    if count == 1 {
        "1 character".to_owned()
    } else {
        format!("{count} characters")
    }
}

impl Check for String {
    fn violation(&self, bounds: &Bounds) -> Option<String> {
        if bounds.min_length.is_some() || bounds.max_length.is_some() {
            let length = self.chars().count();
            if let Some(min) = bounds.min_length.filter(|&min| length < min) {
                return Some(format!(
                    "a string of {} is shorter than the minimum length `{min}`",
                    characters(length)
                ));
            }
            if let Some(max) = bounds.max_length.filter(|&max| length > max) {
                return Some(format!(
                    "a string of {} is longer than the maximum length `{max}`",
                    characters(length)
                ));
            }
        }
        if let Some(pattern) = bounds.pattern {
            if !pattern.is_match(self) {
                return Some(format!(
                    "`{self}` does not match the pattern `{}`",
                    pattern.source
                ));
            }
        }
        None
    }
}

/// Whether two JSON values are equal as JSON Schema defines it (`uniqueItems`, `const`,
/// `enum`): numbers by their mathematical value (`1` and `1.0` are equal), arrays item by item,
/// objects member by member in any order. Also what the differential tests compare
/// re-encodings with.
pub fn json_equal(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            Num::of_number(x).cmp(Num::of_number(y)) == Ordering::Equal
                && !(x.as_f64().is_some_and(f64::is_nan) || y.as_f64().is_some_and(f64::is_nan))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_equal(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

/// Writes `value` in one form per JSON Schema value (`uniqueItems`): a number as its sign,
/// digits and exponent (`1` and `1.0` are one, every digit kept), members sorted, strings
/// escaped as JSON.
fn canonical(value: &crate::JsonValue, out: &mut String) {
    use crate::JsonValue;
    match value {
        JsonValue::Null => out.push('n'),
        JsonValue::Bool(b) => out.push(if *b { 't' } else { 'f' }),
        JsonValue::Number(n) => {
            let (negative, digits, exponent) = n.decimal();
            out.push_str(&format!(
                "#{}{digits}e{exponent}",
                if negative { "-" } else { "" }
            ));
        }
        JsonValue::String(text) => {
            out.push_str(&serde_json::to_string(text).unwrap_or_default());
        }
        JsonValue::Array(items) => {
            out.push('[');
            for item in items {
                canonical(item, out);
                out.push(',');
            }
            out.push(']');
        }
        JsonValue::Object(members) => {
            out.push('{');
            for (key, member) in members {
                out.push_str(&serde_json::to_string(key).unwrap_or_default());
                out.push(':');
                canonical(member, out);
                out.push(',');
            }
            out.push('}');
        }
    }
}

impl<T: PartialEq + serde::Serialize> Check for Vec<T> {
    fn violation(&self, bounds: &Bounds) -> Option<String> {
        let count = self.len();
        if let Some(min) = bounds.min_items.filter(|&min| count < min) {
            return Some(format!(
                "an array of {count} items has fewer than the minimum `{min}`"
            ));
        }
        if let Some(max) = bounds.max_items.filter(|&max| count > max) {
            return Some(format!(
                "an array of {count} items has more than the maximum `{max}`"
            ));
        }
        if bounds.unique_items {
            // Compared as JSON, every digit of a number kept (`1` and `1.0` are one number,
            // `12345678901234567890123` and `...124` two); an item that does not encode is
            // compared by `==` alone.
            // Each item normalized once (numbers as digits and exponent, members sorted), then
            // looked up: linear in the items, not quadratic.
            let mut first: std::collections::HashMap<String, usize> =
                std::collections::HashMap::with_capacity(self.len());
            for (i, item) in self.iter().enumerate() {
                let key = serde_json::to_string(item)
                    .ok()
                    .and_then(|text| serde_json::from_str::<crate::JsonValue>(&text).ok())
                    .map(|value| {
                        let mut key = String::new();
                        canonical(&value, &mut key);
                        key
                    });
                let earlier = match key {
                    Some(key) => match first.entry(key) {
                        std::collections::hash_map::Entry::Occupied(seen) => Some(*seen.get()),
                        std::collections::hash_map::Entry::Vacant(slot) => {
                            slot.insert(i);
                            None
                        }
                    },
                    None => (0..i).find(|&j| self[j] == *item),
                };
                if let Some(j) = earlier {
                    return Some(format!("items {j} and {i} are equal (`uniqueItems`)"));
                }
            }
        }
        None
    }
}

impl Check for serde_json::Value {
    fn violation(&self, bounds: &Bounds) -> Option<String> {
        match self {
            Self::Number(n) => n.violation(bounds),
            Self::String(s) => s.violation(bounds),
            Self::Array(items) => items.violation(bounds),
            _ => None,
        }
    }
}

/// A value of any kind checks the bounds about its own kind, every digit of a number kept.
impl Check for crate::JsonValue {
    fn violation(&self, bounds: &Bounds) -> Option<String> {
        match self {
            Self::Number(n) => n.violation(bounds),
            Self::String(s) => s.violation(bounds),
            Self::Array(items) => items.violation(bounds),
            _ => None,
        }
    }
}

/// Decodes with the inner seed, then checks the value against `bounds`.
#[derive(Clone, Copy)]
pub struct Bounded<S> {
    seed: S,
    bounds: &'static Bounds,
}

/// `seed`, whose value must keep within `bounds`.
#[must_use]
pub const fn bounded<S>(seed: S, bounds: &'static Bounds) -> Bounded<S> {
    Bounded { seed, bounds }
}

impl<S: Seed> Seed for Bounded<S>
where
    S::Value: Check,
{
    type Value = S::Value;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        // The bounds look at the value: it is built even where free-form values are not.
        let value = super::session::keeping_values(|| self.seed.run(d))?;
        match value.violation(self.bounds) {
            None => Ok(value),
            Some(message) => {
                super::session::fail_here(None);
                Err(de::Error::custom(message))
            }
        }
    }
}

/// A `pattern` (ECMA-262 syntax, as JSON Schema writes it), compiled on first use by the
/// linear-time engine `jsonschema` uses (feature `patterns`; without it a module that has
/// patterns does not compile, `require_feature!(patterns)` saying so).
pub struct Pattern {
    source: &'static str,
    #[cfg(feature = "patterns")]
    compiled: std::sync::OnceLock<Option<regex_automata::meta::Regex>>,
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Pattern").field(&self.source).finish()
    }
}

impl Pattern {
    /// The pattern `source`, not compiled yet.
    #[must_use]
    pub const fn new(source: &'static str) -> Self {
        Self {
            source,
            #[cfg(feature = "patterns")]
            compiled: std::sync::OnceLock::new(),
        }
    }

    /// Without the feature no generated module compiles (`require_feature!(patterns)`).
    #[cfg(not(feature = "patterns"))]
    #[must_use]
    pub fn is_match(&self, _text: &str) -> bool {
        false
    }

    /// Whether `text` matches somewhere (JSON Schema patterns are not anchored). A pattern the
    /// engine cannot compile matches nothing (the pipeline refuses such patterns when it
    /// generates the code, so this does not happen in generated code).
    #[cfg(feature = "patterns")]
    #[must_use]
    pub fn is_match(&self, text: &str) -> bool {
        self.compiled
            .get_or_init(|| {
                let translated = jsonschema_regex::to_rust_regex(self.source).ok()?;
                regex_automata::meta::Regex::new(&translated).ok()
            })
            .as_ref()
            .is_some_and(|regex| regex.is_match(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn multiple_of(value: serde_json::Value, step: Limit) -> bool {
        let bounds = Bounds {
            multiple_of: Some(step),
            ..Bounds::NONE
        };
        let serde_json::Value::Number(n) = value else {
            panic!("a number")
        };
        n.violation(&bounds).is_none()
    }

    #[test]
    fn multiple_of_a_decimal_step_is_exact_on_the_numbers_written() {
        for ok in [
            json!(0.07),
            json!(0.29),
            json!(19.99),
            json!(3),
            json!(-0.05),
            json!(0),
        ] {
            assert!(multiple_of(ok.clone(), Limit::Float(0.01)), "{ok}");
        }
        assert!(multiple_of(json!(0.3), Limit::Float(0.1)));
        assert!(multiple_of(json!(0.7), Limit::Float(0.1)));
        assert!(multiple_of(json!(2.5), Limit::Float(0.5)));
        // Beyond `i128`: still the number written, 10^300.
        assert!(multiple_of(json!(1e300), Limit::Float(0.5)));
        assert!(!multiple_of(json!(1e300), Limit::Int(7)));
        assert!(!multiple_of(json!(1e-300), Limit::Int(1)));
        for bad in [json!(0.075), json!(1.001), json!(0.0001)] {
            assert!(!multiple_of(bad.clone(), Limit::Float(0.01)), "{bad}");
        }
        assert!(!multiple_of(json!(0.35), Limit::Float(0.1)));
        assert!(multiple_of(json!(6), Limit::Int(3)));
        assert!(!multiple_of(json!(7), Limit::Int(3)));
        assert!(multiple_of(json!(7.5), Limit::Float(2.5)));
    }

    /// A number of any size or exponent is a multiple or not by its digits, never by an `f64`
    /// that rounds it (`1e-400` is no multiple of 1, though it is 0 as an `f64`).
    #[test]
    fn multiple_of_any_number_written_is_exact() {
        let multiple_of = |text: &str, step: Limit| {
            let number: crate::JsonNumber = text.parse().expect("a number");
            let bounds = Bounds {
                multiple_of: Some(step),
                ..Bounds::NONE
            };
            number.violation(&bounds).is_none()
        };
        // 98249...28331 is 7 × 14035611964176417642613310260564104192672899757418333.
        let big = "98249283749234923498293171823948729348710298301928331";
        for (text, step, expected) in [
            ("1e-400", Limit::Int(1), false),
            ("1e-400", Limit::Float(1e-300), false),
            ("3e-300", Limit::Float(1e-300), true),
            ("1e400", Limit::Int(1), true),
            ("1e400", Limit::Float(0.5), true),
            ("1.5e400", Limit::Float(0.5), true),
            ("1e400", Limit::Int(3), false),
            ("1e400", Limit::Int(7), false),
            ("7e400", Limit::Int(7), true),
            ("-7.0e400", Limit::UInt(7), true),
            (big, Limit::Int(7), true),
            (big, Limit::Int(1), true),
            (big, Limit::Int(3), false),
            (big, Limit::Int(2), false),
            ("0.0e-99999", Limit::Int(3), true),
            ("-21.000", Limit::Int(7), true),
            ("2.1", Limit::Int(7), false),
            ("0.07", Limit::Float(0.01), true),
            ("0.075", Limit::Float(0.01), false),
            ("18446744073709551615e2", Limit::UInt(u64::MAX), true),
            ("18446744073709551614", Limit::UInt(u64::MAX), false),
        ] {
            assert_eq!(
                multiple_of(text, step),
                expected,
                "{text} multipleOf {step}"
            );
        }
    }

    #[test]
    fn unique_items_compares_numbers_by_value_and_objects_in_any_order() {
        let bounds = Bounds {
            unique_items: true,
            ..Bounds::NONE
        };
        let numbers: Vec<Number> = serde_json::from_str("[1, 2, 1.0]").unwrap();
        assert_eq!(
            numbers.violation(&bounds).as_deref(),
            Some("items 0 and 2 are equal (`uniqueItems`)")
        );
        let values: Vec<serde_json::Value> =
            serde_json::from_str(r#"[{"a": [1], "b": 2}, {"b": 2.0, "a": [1.0]}]"#).unwrap();
        assert!(values.violation(&bounds).is_some());
        let distinct: Vec<serde_json::Value> =
            serde_json::from_str(r#"[1, "1", [1], {"a": 1}, {"a": 1, "b": 1}, true, null]"#)
                .unwrap();
        assert_eq!(distinct.violation(&bounds), None);
        // Every digit counts: integers past `f64` that differ in their last digit differ.
        let big: Vec<crate::JsonNumber> = serde_json::from_str(
            "[12345678901234567890123, 12345678901234567890124, 0.1000000000000000000001, 0.1]",
        )
        .unwrap();
        assert_eq!(big.violation(&bounds), None);
        let same: Vec<crate::JsonNumber> =
            serde_json::from_str("[12345678901234567890123, 1.2345678901234567890123e22]").unwrap();
        assert_eq!(
            same.violation(&bounds).as_deref(),
            Some("items 0 and 1 are equal (`uniqueItems`)")
        );
        // The same inside objects.
        let objects: Vec<crate::JsonValue> = serde_json::from_str(
            r#"[{"v": 12345678901234567890123}, {"v": 12345678901234567890124}]"#,
        )
        .unwrap();
        assert_eq!(objects.violation(&bounds), None);
    }

    #[test]
    fn unique_items_names_the_first_equal_pair_of_a_long_array() {
        let bounds = Bounds {
            unique_items: true,
            ..Bounds::NONE
        };
        let mut numbers: Vec<crate::JsonNumber> = (0..100_000_u32).map(Into::into).collect();
        assert_eq!(numbers.violation(&bounds), None);
        numbers.push("4.2e1".parse().unwrap());
        assert_eq!(
            numbers.violation(&bounds).as_deref(),
            Some("items 42 and 100000 are equal (`uniqueItems`)")
        );
    }

    #[test]
    fn a_huge_exponent_is_checked_against_bounds_by_its_value() {
        let bounds = Bounds {
            maximum: Some(Limit::Int(10)),
            ..Bounds::NONE
        };
        for (text, refused) in [
            ("1e99999999999999999999", true),
            ("1e9223372036854775807", true),
            ("0.5e-9223372036854775808", false),
            ("100000000000000000000e-99999999999999999999", false),
        ] {
            let number: crate::JsonNumber = text.parse().unwrap();
            assert_eq!(number.violation(&bounds).is_some(), refused, "{text}");
        }
    }

    #[test]
    fn one_character_is_singular() {
        let bounds = Bounds {
            min_length: Some(2),
            ..Bounds::NONE
        };
        assert_eq!(
            "a".to_owned().violation(&bounds).as_deref(),
            Some("a string of 1 character is shorter than the minimum length `2`")
        );
    }
}
