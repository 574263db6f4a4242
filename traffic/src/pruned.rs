//! Reading a few members of a JSON value without building the rest: what the tap's protocol
//! recognition and lifecycles read of a message, and what the checker reads of the protocol in
//! a message over a limit of ours. The rest is checked to be JSON and skipped as serde_json
//! skips what it ignores, so it may hold what no `serde_json::Value` holds (a number past
//! `f64`, a lone surrogate escape, nesting past the 127 levels serde_json parses).

use serde::de::{DeserializeSeed, Visitor};
use serde_json::Value;
use toolcall_contracts::__private::Key;

/// What of a value is built.
#[derive(Clone, Copy)]
pub(crate) enum Keep {
    /// All of it.
    All,
    /// The members named, each as said; the rest of an object is skipped. An array's elements
    /// are read the same way (a batch's messages; nothing reads a member of an array), and any
    /// other value is kept.
    Members(&'static [(&'static str, Keep)]),
}

/// `text`, one JSON value, with only the members `keep` names built; `None` when it is not
/// JSON (or what `keep` builds whole is not what a `Value` holds).
pub(crate) fn read_str(text: &str, keep: Keep) -> Option<Value> {
    read(serde_json::Deserializer::from_str(text), keep)
}

/// [`read_str`] for bytes.
pub(crate) fn read_slice(json: &[u8], keep: Keep) -> Option<Value> {
    read(serde_json::Deserializer::from_slice(json), keep)
}

fn read<'de, R: serde_json::de::Read<'de>>(
    mut parser: serde_json::Deserializer<R>,
    keep: Keep,
) -> Option<Value> {
    let value = keep.deserialize(&mut parser).ok()?;
    parser.end().ok().map(|()| value)
}

impl<'de> DeserializeSeed<'de> for Keep {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        match self {
            Self::All => serde::Deserialize::deserialize(deserializer),
            Self::Members(members) => deserializer.deserialize_any(Pick(members)),
        }
    }
}

/// The visitor of a value of which the members named are built (see [`Keep::Members`]).
#[derive(Clone, Copy)]
struct Pick(&'static [(&'static str, Keep)]);

impl<'de> Visitor<'de> for Pick {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(value.into())
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(value.into())
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(value.into())
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(value.into())
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(value.into())
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut elements = Vec::new();
        while let Some(element) = seq.next_element_seed(Keep::Members(self.0))? {
            elements.push(element);
        }
        Ok(Value::Array(elements))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(Key(name)) = map.next_key()? {
            match self.0.iter().find(|(kept, _)| *kept == name) {
                Some((_, keep)) => {
                    let value = map.next_value_seed(*keep)?;
                    object.insert(name.into_owned(), value);
                }
                None => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        Ok(Value::Object(object))
    }
}
