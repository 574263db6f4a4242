//! [`JsonNumber`]: a JSON number kept as written, every digit and its form, at any size.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use serde::de::{self, Deserializer};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// A JSON number as written: `2` stays `2`, `2.0` stays `2.0`, and
/// `98249283749234923498293171823948729348710298301928331` keeps every digit. What a type of a
/// user's own schema holds for `type: number` (modules generated with `toolcall-codegen
/// generate --schema`), so that a value decodes and encodes back as it came, whatever its size.
///
/// Equality is of the text (`1.0` and `1` differ, as they do on the wire); [`JsonNumber::cmp_value`]
/// compares values. Encoding writes the text as it is.
///
/// ```
/// use toolcall_contracts::JsonNumber;
///
/// let n: JsonNumber = "1.50".parse().unwrap();
/// assert_eq!(n.as_str(), "1.50");
/// assert_eq!(n.as_f64(), 1.5);
/// assert_eq!(serde_json::to_string(&n).unwrap(), "1.50");
/// assert!("1.5x".parse::<JsonNumber>().is_err());
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct JsonNumber(String);

/// Why a text is not a [`JsonNumber`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a JSON number")]
pub struct NotANumber(pub String);

/// Whether `text` is a number as JSON writes one (RFC 8259: `-? int frac? exp?`).
fn is_json_number(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = usize::from(bytes.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while bytes.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    match bytes.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == bytes.len()
}

/// `text` (a JSON number) as `(negative, digits, exponent)`: its value is digits × 10^exponent,
/// `digits` without leading zeros (`"0"` for zero). The exponent is exact up to 38 digits
/// (`i128`); a longer one (no value of any real use) saturates at ±10^38.
fn decimal(text: &str) -> (bool, String, i128) {
    const SATURATED: i128 = 10_i128.pow(38);
    let (negative, rest) = text
        .strip_prefix('-')
        .map_or((false, text), |rest| (true, rest));
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => {
            let written = &rest[at + 1..];
            let (minus, digits) = match written.as_bytes().first() {
                Some(b'-') => (true, &written[1..]),
                Some(b'+') => (false, &written[1..]),
                _ => (false, written),
            };
            let digits = digits.trim_start_matches('0');
            let magnitude = if digits.len() > 38 {
                SATURATED
            } else {
                digits.parse::<i128>().unwrap_or(0).min(SATURATED)
            };
            (&rest[..at], if minus { -magnitude } else { magnitude })
        }
        None => (rest, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits: String = format!("{whole}{fraction}");
    let mut exponent = exponent.saturating_sub(length(fraction));
    while digits.len() > 1 && digits.ends_with('0') {
        digits.pop();
        exponent = exponent.saturating_add(1);
    }
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return (false, "0".to_owned(), 0);
    }
    (negative, digits.to_owned(), exponent)
}

/// A length as an `i128` (exact: a `usize` fits).
fn length(text: &str) -> i128 {
    i128::try_from(text.len()).unwrap_or(i128::MAX)
}

/// Compares two non-negative decimals `digits × 10^exponent` exactly.
fn cmp_magnitude(a: &(String, i128), b: &(String, i128)) -> Ordering {
    if a.0 == "0" || b.0 == "0" {
        return (a.0 != "0").cmp(&(b.0 != "0"));
    }
    // The number of digits before the decimal point decides first.
    let order_a = length(&a.0).saturating_add(a.1);
    let order_b = length(&b.0).saturating_add(b.1);
    order_a.cmp(&order_b).then_with(|| {
        let width = a.0.len().max(b.0.len());
        format!("{:0<width$}", a.0).cmp(&format!("{:0<width$}", b.0))
    })
}

impl JsonNumber {
    /// The number's text, as it was written.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The nearest `f64` (infinite beyond its range).
    #[must_use]
    pub fn as_f64(&self) -> f64 {
        self.0.parse().unwrap_or(f64::NAN)
    }

    /// The value as an `i64`, when it is written as an integer in range (`2`, not `2.0`).
    #[must_use]
    pub fn as_i64(&self) -> Option<i64> {
        self.0.parse().ok()
    }

    /// The value as a `u64`, when it is written as an integer in range.
    #[must_use]
    pub fn as_u64(&self) -> Option<u64> {
        self.0.parse().ok()
    }

    /// Whether the value is an integer (`2`, `2.0` and `2e3` are; JSON Schema's `integer`).
    #[must_use]
    pub fn is_integer(&self) -> bool {
        decimal(&self.0).2 >= 0
    }

    /// Compares the values exactly, whatever their size and form (`1.0` equals `1`).
    #[must_use]
    pub fn cmp_value(&self, other: &Self) -> Ordering {
        let (na, da, ea) = decimal(&self.0);
        let (nb, db, eb) = decimal(&other.0);
        match (na, nb) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => cmp_magnitude(&(da, ea), &(db, eb)),
            (true, true) => cmp_magnitude(&(db, eb), &(da, ea)),
        }
    }

    /// The value as `(negative, digits, exponent)` with value = digits × 10^exponent.
    pub(crate) fn decimal(&self) -> (bool, String, i128) {
        decimal(&self.0)
    }
}

impl FromStr for JsonNumber {
    type Err = NotANumber;
    fn from_str(text: &str) -> Result<Self, NotANumber> {
        if is_json_number(text) {
            Ok(Self(text.to_owned()))
        } else {
            Err(NotANumber(text.to_owned()))
        }
    }
}

macro_rules! from_integers {
    ($($t:ty),*) => {$(
        impl From<$t> for JsonNumber {
            fn from(value: $t) -> Self {
                Self(value.to_string())
            }
        }
    )*};
}
from_integers!(i8, i16, i32, i64, u8, u16, u32, u64);

impl From<serde_json::Number> for JsonNumber {
    fn from(value: serde_json::Number) -> Self {
        Self(value.to_string())
    }
}

impl TryFrom<f64> for JsonNumber {
    type Error = NotANumber;
    /// The shortest text that reads back as `value` (as serde_json writes it); a NaN or an
    /// infinity is not a JSON number.
    fn try_from(value: f64) -> Result<Self, NotANumber> {
        serde_json::Number::from_f64(value)
            .map(Self::from)
            .ok_or_else(|| NotANumber(value.to_string()))
    }
}

impl fmt::Display for JsonNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for JsonNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JsonNumber({})", self.0)
    }
}

thread_local! {
    /// Set while `encode` writes with sonic-rs (feature `simd`): a number that neither `i64`,
    /// `u64` nor `f64` writes as it is goes through sonic-rs's raw number, not serde_json's.
    pub(crate) static SONIC_WRITER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl Serialize for JsonNumber {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text = self.0.as_str();
        if let Ok(v) = text.parse::<u64>() {
            if v.to_string() == text {
                return serializer.serialize_u64(v);
            }
        }
        if let Ok(v) = text.parse::<i64>() {
            if v.to_string() == text {
                return serializer.serialize_i64(v);
            }
        }
        if let Some(n) = text
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
        {
            if n.to_string() == text {
                return n.serialize(serializer);
            }
        }
        // Written as it is: serde_json's raw value, or sonic-rs's raw number under `encode`.
        if SONIC_WRITER.with(std::cell::Cell::get) {
            const SONIC_NUMBER: &str = "$sonic_rs::private::JsonNumber";
            let mut raw = serializer.serialize_struct(SONIC_NUMBER, 1)?;
            raw.serialize_field(SONIC_NUMBER, text)?;
            return raw.end();
        }
        RawValue::from_string(text.to_owned())
            .map_err(serde::ser::Error::custom)?
            .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for JsonNumber {
    /// From serde_json (the text as written), or from any other deserializer through the value
    /// it gives.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        let text = raw.get();
        if is_json_number(text) {
            Ok(Self(text.to_owned()))
        } else {
            let found: serde_json::Value = serde_json::from_str(text).map_err(de::Error::custom)?;
            Err(de::Error::invalid_type(
                crate::__private::seeds::unexpected(&found),
                &"a number",
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> JsonNumber {
        text.parse().unwrap()
    }

    #[test]
    fn text_round_trips_through_serde_json_digit_for_digit() {
        for text in [
            "0",
            "-0",
            "2",
            "2.0",
            "1.50",
            "1e2",
            "-1.5E-7",
            "98249283749234923498293171823948729348710298301928331",
            "-18446744073709551616",
            "972783798187987123879878123.188781371",
        ] {
            let decoded: JsonNumber = serde_json::from_str(text).unwrap();
            assert_eq!(decoded.as_str(), text);
            assert_eq!(serde_json::to_string(&decoded).unwrap(), text);
            let wrapped: Vec<JsonNumber> = serde_json::from_str(&format!("[{text}]")).unwrap();
            assert_eq!(
                serde_json::to_string(&wrapped).unwrap(),
                format!("[{text}]")
            );
        }
    }

    #[test]
    fn only_numbers_are_numbers() {
        for bad in ["", "-", "01", "1.", ".5", "1e", "+1", "1.5x", "NaN"] {
            assert!(bad.parse::<JsonNumber>().is_err(), "{bad}");
        }
        let error = serde_json::from_str::<JsonNumber>("\"1\"").unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid type: string \"1\", expected a number"
        );
    }

    #[test]
    fn values_compare_exactly_at_any_size() {
        assert_eq!(n("1.0").cmp_value(&n("1")), Ordering::Equal);
        assert_eq!(n("1e2").cmp_value(&n("100")), Ordering::Equal);
        assert_eq!(n("-0").cmp_value(&n("0.0")), Ordering::Equal);
        assert_eq!(
            n("972783798187987123879878123.188781371")
                .cmp_value(&n("972783798187987123879878123.18878137")),
            Ordering::Greater
        );
        assert_eq!(
            n("-18446744073709551600").cmp_value(&n("-18446744073709551615")),
            Ordering::Greater
        );
        assert_eq!(n("0.001").cmp_value(&n("0.01")), Ordering::Less);
        assert_eq!(n("-2").cmp_value(&n("1")), Ordering::Less);
        assert!(n("2.0").is_integer() && n("2e3").is_integer() && !n("2.5").is_integer());
    }

    /// Exponents past 64 bits keep their value (they used to read as 0) and exponents at the
    /// ends of `i64` do not overflow.
    #[test]
    fn huge_exponents_compare_by_their_value_without_overflow() {
        let ten = n("10");
        for greater in [
            "1e99999999999999999999",
            "1e9223372036854775807",
            "10e9223372036854775807",
            "1e+0000000000000000000000000000000000000000000000099",
        ] {
            assert_eq!(n(greater).cmp_value(&ten), Ordering::Greater, "{greater}");
            assert!(n(greater).is_integer(), "{greater}");
        }
        for smaller in [
            "100000000000000000000e-99999999999999999999",
            "0.5e-9223372036854775808",
            "1e-9223372036854775808",
        ] {
            assert_eq!(n(smaller).cmp_value(&ten), Ordering::Less, "{smaller}");
            assert_eq!(
                n(smaller).cmp_value(&n("0")),
                Ordering::Greater,
                "{smaller}"
            );
            assert!(!n(smaller).is_integer(), "{smaller}");
        }
        assert_eq!(
            n("1e99999999999999999999").cmp_value(&n("1e99999999999999999998")),
            Ordering::Greater
        );
        assert_eq!(
            n("10e99999999999999999998").cmp_value(&n("1e99999999999999999999")),
            Ordering::Equal
        );
        assert_eq!(n("-1e99999999999999999999").cmp_value(&ten), Ordering::Less);
    }
}
