//! [`JsonValue`]: any JSON value, its numbers kept as written.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::JsonNumber;

/// Any JSON value, its numbers [`JsonNumber`]s: `300.00` stays `300.00`, `[1.0, 1.00, 1]` comes
/// back as it came, and an integer past 64 bits keeps every digit. What a module generated for
/// your own schema (`toolcall-codegen generate --schema`) holds where the schema allows a value
/// of any kind (`serde_json::Value` keeps a number as an `i64`, `u64` or `f64`).
///
/// Members of an object are kept in key order (as `serde_json::Value` keeps them without its
/// `preserve_order` feature); a member repeated in one object keeps its last value, as
/// `serde_json::Value` does. Equality is of the text of numbers (`1.0` and `1` differ, as on the
/// wire).
///
/// ```
/// use toolcall_contracts::JsonValue;
///
/// let value: JsonValue = serde_json::from_str(r#"{"price": 300.00, "ids": [1e2, 18446744073709551616]}"#).unwrap();
/// assert_eq!(value.get("price").and_then(JsonValue::as_number).unwrap().as_str(), "300.00");
/// assert_eq!(value.to_string(), r#"{"ids":[1e2,18446744073709551616],"price":300.00}"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum JsonValue {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written.
    Number(JsonNumber),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<JsonValue>),
    /// An object.
    Object(BTreeMap<String, JsonValue>),
}

impl JsonValue {
    /// Whether the value is `null`.
    #[must_use]
    pub const fn is_null(&self) -> bool {
        matches!(self, Self::Null)
    }

    /// The boolean, if the value is one.
    #[must_use]
    pub const fn as_bool(&self) -> Option<bool> {
        match self {
            Self::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, if the value is one.
    #[must_use]
    pub const fn as_number(&self) -> Option<&JsonNumber> {
        match self {
            Self::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The string, if the value is one.
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::String(s) => Some(s),
            _ => None,
        }
    }

    /// The items, if the value is an array.
    #[must_use]
    pub fn as_array(&self) -> Option<&[JsonValue]> {
        match self {
            Self::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The members, if the value is an object.
    #[must_use]
    pub const fn as_object(&self) -> Option<&BTreeMap<String, JsonValue>> {
        match self {
            Self::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The member `key`, if the value is an object that has it.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&JsonValue> {
        self.as_object().and_then(|members| members.get(key))
    }

    /// The value as a `serde_json::Value`, whose numbers are `i64`, `u64` or `f64`: a number
    /// that none of them holds exactly comes back as the nearest `f64` (`1.50` as `1.5`), one
    /// beyond `f64`'s range as `null`.
    #[must_use]
    pub fn to_serde_json(&self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            Self::Null => Value::Null,
            Self::Bool(b) => Value::Bool(*b),
            Self::Number(n) => n
                .as_i64()
                .map(Value::from)
                .or_else(|| n.as_u64().map(Value::from))
                .or_else(|| serde_json::Number::from_f64(n.as_f64()).map(Value::Number))
                .unwrap_or(Value::Null),
            Self::String(s) => Value::String(s.clone()),
            Self::Array(items) => Value::Array(items.iter().map(Self::to_serde_json).collect()),
            Self::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_serde_json()))
                    .collect(),
            ),
        }
    }
}

impl From<serde_json::Value> for JsonValue {
    fn from(value: serde_json::Value) -> Self {
        use serde_json::Value;
        match value {
            Value::Null => Self::Null,
            Value::Bool(b) => Self::Bool(b),
            Value::Number(n) => Self::Number(n.into()),
            Value::String(s) => Self::String(s),
            Value::Array(items) => Self::Array(items.into_iter().map(Self::from).collect()),
            Value::Object(members) => Self::Object(
                members
                    .into_iter()
                    .map(|(k, v)| (k, Self::from(v)))
                    .collect(),
            ),
        }
    }
}

impl From<JsonNumber> for JsonValue {
    fn from(value: JsonNumber) -> Self {
        Self::Number(value)
    }
}

impl From<String> for JsonValue {
    fn from(value: String) -> Self {
        Self::String(value)
    }
}

impl From<&str> for JsonValue {
    fn from(value: &str) -> Self {
        Self::String(value.to_owned())
    }
}

impl From<bool> for JsonValue {
    fn from(value: bool) -> Self {
        Self::Bool(value)
    }
}

impl fmt::Display for JsonValue {
    /// The value as compact JSON, every number as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

impl Serialize for JsonValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Null => serializer.serialize_unit(),
            Self::Bool(b) => serializer.serialize_bool(*b),
            Self::Number(n) => n.serialize(serializer),
            Self::String(s) => serializer.serialize_str(s),
            Self::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Self::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, value) in members {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for JsonValue {
    /// From serde_json, every number as written (the value's text is taken whole, then read);
    /// from another deserializer, through the value it gives.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        parse(raw.get()).map_err(de::Error::custom)
    }
}

/// How deep [`parse`] nests: no deeper than a `serde_json::Value`.
const MAX_DEPTH: usize = crate::policy::DecodeLimits::SERDE_JSON_MAX_DEPTH;

/// Reads `text`, one JSON value serde_json has already checked (a raw value), every number
/// as written.
pub(crate) fn parse(text: &str) -> Result<JsonValue, String> {
    let mut reader = Reader { text, at: 0 };
    let value = reader.value(0)?;
    reader.space();
    if reader.at == text.len() {
        Ok(value)
    } else {
        Err(format!("trailing characters at byte {}", reader.at))
    }
}

/// A cursor over the text of one JSON value.
struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Result<(), String> {
        self.space();
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!(
                "expected `{}` at byte {}",
                char::from(byte),
                self.at
            ))
        }
    }

    fn word(&mut self, word: &str, value: JsonValue) -> Result<JsonValue, String> {
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(format!("expected `{word}` at byte {}", self.at))
        }
    }

    fn value(&mut self, depth: usize) -> Result<JsonValue, String> {
        self.space();
        match self.peek() {
            Some(b'{' | b'[') if depth >= MAX_DEPTH => {
                Err(format!("nested deeper than {MAX_DEPTH} levels"))
            }
            Some(b'{') => {
                self.at += 1;
                let mut members = BTreeMap::new();
                self.space();
                if self.peek() == Some(b'}') {
                    self.at += 1;
                    return Ok(JsonValue::Object(members));
                }
                loop {
                    self.space();
                    let key = self.string()?;
                    self.eat(b':')?;
                    let value = self.value(depth + 1)?;
                    members.insert(key, value);
                    self.space();
                    match self.peek() {
                        Some(b',') => self.at += 1,
                        Some(b'}') => {
                            self.at += 1;
                            return Ok(JsonValue::Object(members));
                        }
                        _ => return Err(format!("expected `,` or `}}` at byte {}", self.at)),
                    }
                }
            }
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                self.space();
                if self.peek() == Some(b']') {
                    self.at += 1;
                    return Ok(JsonValue::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.space();
                    match self.peek() {
                        Some(b',') => self.at += 1,
                        Some(b']') => {
                            self.at += 1;
                            return Ok(JsonValue::Array(items));
                        }
                        _ => return Err(format!("expected `,` or `]` at byte {}", self.at)),
                    }
                }
            }
            Some(b'"') => self.string().map(JsonValue::String),
            Some(b't') => self.word("true", JsonValue::Bool(true)),
            Some(b'f') => self.word("false", JsonValue::Bool(false)),
            Some(b'n') => self.word("null", JsonValue::Null),
            Some(_) => {
                let start = self.at;
                while matches!(
                    self.peek(),
                    Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                ) {
                    self.at += 1;
                }
                self.text[start..self.at]
                    .parse()
                    .map(JsonValue::Number)
                    .map_err(|e: crate::NotANumber| e.to_string())
            }
            None => Err("expected a value at the end".to_owned()),
        }
    }

    /// A string at the cursor: its text as it is when it has no escape, else as serde_json
    /// reads it.
    fn string(&mut self) -> Result<String, String> {
        let start = self.at;
        if self.peek() != Some(b'"') {
            return Err(format!("expected a string at byte {start}"));
        }
        self.at += 1;
        let mut escaped = false;
        loop {
            match self.peek() {
                None => return Err(format!("unterminated string at byte {start}")),
                Some(b'\\') => {
                    escaped = true;
                    self.at += 2;
                }
                Some(b'"') => {
                    self.at += 1;
                    break;
                }
                Some(_) => self.at += 1,
            }
        }
        let quoted = self
            .text
            .get(start..self.at)
            .ok_or_else(|| format!("unterminated string at byte {start}"))?;
        if escaped {
            serde_json::from_str(quoted).map_err(|e| e.to_string())
        } else {
            Ok(quoted[1..quoted.len() - 1].to_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_number_comes_back_as_written() {
        for text in [
            "300.00",
            "[1.0,1.00,1]",
            "98249283749234923498293171823948729348710298301928331",
            r#"{"a":-0.0,"b":[1e400,{"c":2E-7}],"d":"\u00e9\"x","e":null,"f":true,"g":false}"#,
            r#""plain""#,
            "[]",
            "{}",
        ] {
            let value: JsonValue = serde_json::from_str(text).unwrap();
            assert_eq!(
                serde_json::to_string(&value)
                    .unwrap()
                    .replace('é', "\\u00e9"),
                text
            );
        }
    }

    #[test]
    fn whitespace_and_escapes_are_read() {
        let value: JsonValue =
            serde_json::from_str(" { \"k\\n\" : [ 1 , 2.50 ] , \"a\" : \"\\ud83d\\ude00\" } ")
                .unwrap();
        assert_eq!(value.to_string(), "{\"a\":\"😀\",\"k\\n\":[1,2.50]}");
        assert_eq!(value.get("a").and_then(JsonValue::as_str), Some("😀"));
    }

    #[test]
    fn too_deep_is_an_error_not_a_crash() {
        let nested = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        let error = serde_json::from_str::<JsonValue>(&nested(200)).unwrap_err();
        assert!(
            error.to_string().contains("nested deeper than 127 levels")
                || error.to_string().contains("recursion limit"),
            "{error}"
        );
        // As deep as a `serde_json::Value`, and no deeper: `parse` takes text serde_json
        // skipped, without its limit.
        for levels in [127, 128] {
            let value = serde_json::from_str::<serde_json::Value>(&nested(levels));
            assert_eq!(
                parse(&nested(levels)).is_ok(),
                value.is_ok(),
                "{levels} levels"
            );
        }
        assert_eq!(
            parse(&nested(128)),
            Err("nested deeper than 127 levels".to_owned())
        );
    }

    #[test]
    fn converts_to_and_from_serde_json() {
        let value: JsonValue = serde_json::from_str(r#"{"n":1.50,"i":[7]}"#).unwrap();
        assert_eq!(
            value.to_serde_json(),
            serde_json::json!({"n": 1.5, "i": [7]})
        );
        assert_eq!(
            JsonValue::from(serde_json::json!({"n": 2})).to_string(),
            r#"{"n":2}"#
        );
    }
}
