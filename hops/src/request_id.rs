//! JSON-RPC request ids (and MCP progress tokens) as MCP defines them, a string or an integer,
//! read exactly: an integer keeps its digits as written (serde_json without
//! `arbitrary_precision` reads `18446744073709551616` as a float), so that two ids are one key
//! only when they are one id.

use std::fmt;

use serde_json::Value;

use toolcall_contracts::__private::json_type;

/// An MCP `RequestId` or `ProgressToken`: a string or an integer, exactly as sent.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Key {
    /// An integer, its decimal digits as written (`-` first when negative).
    Integer(String),
    /// A string.
    String(String),
}

/// Why a value is not an MCP request id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NotAnId {
    /// A number that is not an integer (`1.5`, `1.0`, `1e2`), as written.
    NotInteger(String),
    /// Another type: `null`, a boolean, an array or an object.
    Type(&'static str),
}

impl fmt::Display for NotAnId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotInteger(text) => write!(f, "`{text}` is a number but not an integer"),
            Self::Type(found) => write!(f, "found {found}"),
        }
    }
}

impl Key {
    /// Reads `value` (its text `text` as written when serde_json writes the number otherwise,
    /// see [`super::numbers`]).
    pub(crate) fn read(value: &Value, text: Option<&str>) -> Result<Self, NotAnId> {
        match value {
            Value::String(text) => Ok(Self::String(text.clone())),
            Value::Number(number) => {
                let text = text.map_or_else(|| number.to_string(), str::to_owned);
                if is_integer(&text) {
                    Ok(Self::Integer(text))
                } else {
                    Err(NotAnId::NotInteger(text))
                }
            }
            other => Err(NotAnId::Type(json_type(other))),
        }
    }

    /// The id in an ACP `toolCallId` after `mcp-<session>-`: an integer in its digits, a string
    /// in double quotes, as is (not escaped): `7`, `"7"`, `"a"b"`. The two forms never meet (an
    /// integer never starts with `"`), so distinct ids give distinct text.
    pub(crate) fn tool_call_text(&self) -> String {
        match self {
            Self::Integer(digits) => digits.clone(),
            Self::String(text) => format!("\"{text}\""),
        }
    }

    /// The id as JSON: a string, or an integer of 64 bits; an integer beyond them as its digits
    /// in a string (serde_json would round it).
    pub(crate) fn to_json(&self) -> Value {
        match self {
            Self::String(text) => Value::String(text.clone()),
            Self::Integer(digits) => match (digits.parse::<i64>(), digits.parse::<u64>()) {
                (Ok(number), _) => Value::from(number),
                (_, Ok(number)) => Value::from(number),
                // Beyond 64 bits: its digits, as a string.
                _ => Value::String(digits.clone()),
            },
        }
    }
}

impl fmt::Display for Key {
    /// As JSON would write it: `7`, `"a"` (the string escaped).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Integer(digits) => f.write_str(digits),
            Self::String(text) => write!(f, "{}", Value::String(text.clone())),
        }
    }
}

/// `-?(0|[1-9][0-9]*)`: a JSON integer (no fraction, no exponent).
fn is_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn ids_are_strings_or_integers_read_exactly() {
        assert_eq!(Key::read(&json!(7), None), Ok(Key::Integer("7".into())));
        assert_eq!(
            Key::read(&json!(1.8446744073709552e19), Some("18446744073709551617")),
            Ok(Key::Integer("18446744073709551617".into()))
        );
        assert_eq!(Key::read(&json!("7"), None), Ok(Key::String("7".into())));
        assert_eq!(
            Key::read(&json!(1.5), None),
            Err(NotAnId::NotInteger("1.5".into()))
        );
        assert_eq!(
            Key::read(&json!(100.0), Some("1e2")),
            Err(NotAnId::NotInteger("1e2".into()))
        );
        assert_eq!(Key::read(&json!(null), None), Err(NotAnId::Type("null")));
        assert_eq!(Key::read(&json!([1]), None), Err(NotAnId::Type("array")));
        assert_eq!(
            Key::read(&json!(1.5), None).unwrap_err().to_string(),
            "`1.5` is a number but not an integer"
        );
    }

    #[test]
    fn tool_call_text_tells_every_id_apart() {
        let ids = [
            Key::Integer("1".into()),
            Key::String("1".into()),
            Key::String("null".into()),
            Key::String("a\"b".into()),
            Key::String("\"q\"".into()),
            Key::String("q".into()),
            Key::Integer("18446744073709551616".into()),
            Key::Integer("18446744073709551617".into()),
        ];
        let texts: Vec<String> = ids.iter().map(Key::tool_call_text).collect();
        assert_eq!(
            texts,
            [
                "1",
                "\"1\"",
                "\"null\"",
                "\"a\"b\"",
                "\"\"q\"\"",
                "\"q\"",
                "18446744073709551616",
                "18446744073709551617"
            ]
        );
        let mut unique = texts.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), texts.len());
        assert_eq!(Key::String("a\"b".into()).to_string(), "\"a\\\"b\"");
        assert_eq!(
            Key::Integer("18446744073709551616".into()).to_json(),
            json!("18446744073709551616")
        );
    }
}
