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
    #[cfg(feature = "patterns")]
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
        #[cfg(feature = "patterns")]
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

    fn is_multiple_of(self, divisor: Self) -> bool {
        match (self, divisor) {
            (_, Self::Int(0)) => true,
            (Self::Int(a), Self::Int(b)) => a % b == 0,
            (a, b) => {
                let quotient = a.as_f64() / b.as_f64();
                quotient.is_finite() && quotient.fract() == 0.0
            }
        }
    }
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

impl Check for String {
    fn violation(&self, bounds: &Bounds) -> Option<String> {
        if bounds.min_length.is_some() || bounds.max_length.is_some() {
            let length = self.chars().count();
            if let Some(min) = bounds.min_length.filter(|&min| length < min) {
                return Some(format!(
                    "a string of {length} characters is shorter than the minimum length `{min}`"
                ));
            }
            if let Some(max) = bounds.max_length.filter(|&max| length > max) {
                return Some(format!(
                    "a string of {length} characters is longer than the maximum length `{max}`"
                ));
            }
        }
        #[cfg(feature = "patterns")]
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

impl<T: PartialEq> Check for Vec<T> {
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
            for (i, item) in self.iter().enumerate() {
                if let Some(j) = self[..i].iter().position(|earlier| earlier == item) {
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
        let value = self.seed.run(d)?;
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
/// linear-time engine `jsonschema` uses (feature `patterns`).
#[cfg(feature = "patterns")]
pub struct Pattern {
    source: &'static str,
    compiled: std::sync::OnceLock<Option<regex_automata::meta::Regex>>,
}

#[cfg(feature = "patterns")]
impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Pattern").field(&self.source).finish()
    }
}

#[cfg(feature = "patterns")]
impl Pattern {
    /// The pattern `source`, not compiled yet.
    #[must_use]
    pub const fn new(source: &'static str) -> Self {
        Self {
            source,
            compiled: std::sync::OnceLock::new(),
        }
    }

    /// Whether `text` matches somewhere (JSON Schema patterns are not anchored). A pattern the
    /// engine cannot compile matches nothing (the pipeline refuses such patterns when it
    /// generates the code, so this does not happen in generated code).
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
