//! Member names compared in a check ([`session::optimistic_check`]).
//!
//! The generated types refuse a member they declare given twice (`duplicate field`), and so do
//! kept unknown members and maps of a schema. A `serde_json::Value` keeps the last of two equal
//! names without a word, so a check reading free-form values, buffered unions or `const`
//! members through one would miss a repeat that readers resolve differently (first or last
//! wins). In a check, such values are read here instead: [`value`] builds a `Value` refusing a
//! repeated name, and `Names` is what the unbuilt reads (`rt::any()`) compare names with.
//! Outside a check, [`value`] is `Value::deserialize`.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::session;

/// Decodes a [`Value`]; in a check, an object with a member name twice (or one the check
/// declines) fails it.
///
/// # Errors
/// The deserializer's; in a check, `duplicate field` for a repeated name.
pub fn value<'de, D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
    if session::comparing_names() {
        d.deserialize_any(Compared)
    } else {
        Value::deserialize(d)
    }
}

/// [`value`] as a seed (`next_value_seed`).
#[derive(Clone, Copy)]
pub(crate) struct Buffered;

impl<'de> DeserializeSeed<'de> for Buffered {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        value(d)
    }
}

/// Fails for member `name` given twice in one object (serde's error, at the member); a running
/// check fails whatever else takes the error.
pub(crate) fn repeated<E: de::Error>(name: &str) -> E {
    session::fail_here(Some(session::Segment::Key(name)));
    session::name_failed();
    E::custom(format_args!("duplicate field `{name}`"))
}

/// Fails the running check for a member name it declines.
pub(crate) fn declined<E: de::Error>(name: &str) -> E {
    E::custom(format_args!("member `{name}` is not for this check"))
}

/// Objects with more members than this compare a new name through a hash set rather than with
/// each name before it.
const SCAN: usize = 16;

/// The member names of one object read so far: borrowed from the input where they have no
/// escapes.
pub(crate) struct Names<'de> {
    seen: Vec<Cow<'de, str>>,
    /// The names of a large object, once it has more than [`SCAN`].
    set: Option<HashSet<Cow<'de, str>>>,
}

impl<'de> Names<'de> {
    pub(crate) fn new() -> Self {
        Self {
            seen: Vec::new(),
            set: None,
        }
    }

    /// Records `name`.
    ///
    /// # Errors
    /// When the object has it already or the check declines it; the check then fails.
    pub(crate) fn insert<E: de::Error>(&mut self, name: Cow<'de, str>) -> Result<(), E> {
        if session::declined(&name) {
            return Err(declined(&name));
        }
        if let Some(set) = &mut self.set {
            if set.contains(&name) {
                return Err(repeated(&name));
            }
            set.insert(name);
            return Ok(());
        }
        if self.seen.contains(&name) {
            return Err(repeated(&name));
        }
        if self.seen.len() < SCAN {
            self.seen.push(name);
        } else {
            let mut set: HashSet<Cow<'de, str>> = self.seen.drain(..).collect();
            set.insert(name);
            self.set = Some(set);
        }
        Ok(())
    }
}

/// A member name, borrowed from the input when it can be.
pub struct Key<'de>(pub Cow<'de, str>);

impl Key<'_> {
    /// The name.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_identifier(V)
    }
}

/// `Value`'s own visitor, with names compared.
#[derive(Clone, Copy)]
struct Compared;

impl<'de> DeserializeSeed<'de> for Compared {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(Compared)
    }
}

/// The member name serde_json's `arbitrary_precision` feature gives a number as (when another
/// crate of the build turns the feature on).
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

impl<'de> Visitor<'de> for Compared {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(Compared)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(item) = seq.next_element_seed(Compared)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        let mut first = true;
        while let Some(Key(name)) = map.next_key::<Key<'de>>()? {
            if std::mem::take(&mut first) && name == NUMBER_TOKEN {
                // A number as `arbitrary_precision` gives it: its text, as `Value` reads it.
                let text: String = map.next_value()?;
                return serde_json::from_str(&text).map_err(de::Error::custom);
            }
            if session::declined(&name) {
                return Err(declined(&name));
            }
            let member = map.next_value_seed(Compared)?;
            let name = name.into_owned();
            if object.contains_key(&name) {
                return Err(repeated(&name));
            }
            object.insert(name, member);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::__private::session::{optimistic_check, Unbuilt};

    fn checked(json: &str, declined: &'static [&'static str]) -> Option<Value> {
        optimistic_check(Unbuilt::FreeForm, declined, || {
            let mut de = serde_json::Deserializer::from_str(json);
            value(&mut de)
        })
    }

    #[test]
    fn in_a_check_a_repeated_name_fails_at_any_depth() {
        let json = r#"{"a":[1,{"b":2,"c":[{"d":null}]}],"e":"\u00e9","f":1.5,"g":-3}"#;
        assert_eq!(
            checked(json, &[]),
            Some(serde_json::from_str::<Value>(json).expect("parses"))
        );
        for repeated in [
            r#"{"a":1,"a":2}"#,
            r#"[{"x":{"y":1,"y":1}}]"#,
            r#"{"a":{"b":1},"c":[{"d":1,"e":2,"d":3}]}"#,
            // The same name spelled with an escape.
            r#"{"ab":1,"a\u0062":2}"#,
        ] {
            assert_eq!(checked(repeated, &[]), None, "{repeated}");
            // Outside a check, `Value`'s own reading: the last one kept.
            let mut de = serde_json::Deserializer::from_str(repeated);
            assert!(value(&mut de).is_ok());
        }
        assert_eq!(checked(r#"{"a":{"k":1}}"#, &["k"]), None);
        assert_eq!(checked(r#"{"a":{"k":1}}"#, &["a"]), None);
        assert_eq!(checked(r#"{"a":"k"}"#, &["k"]), Some(json!({"a": "k"})));
    }

    #[test]
    fn names_compare_past_the_inline_ones_and_the_hash_set() {
        for count in [1, 3, 4, 5, 15, 16, 17, 40] {
            let members: Vec<String> = (0..count).map(|i| format!("\"m{i}\":{i}")).collect();
            let clean = format!("{{{}}}", members.join(","));
            assert!(checked(&clean, &[]).is_some(), "{count}");
            for again in [0, count / 2, count - 1] {
                let repeated = format!("{{{},\"m{again}\":0}}", members.join(","));
                assert_eq!(checked(&repeated, &[]), None, "{count} {again}");
            }
        }
    }

    #[test]
    fn a_repeat_fails_the_check_even_when_a_seed_takes_the_error() {
        // Leniency would take a malformed value as absent; the repeat still fails the check.
        let json = r#"{"a":{"b":1,"b":2}}"#;
        let taken = optimistic_check(Unbuilt::FreeForm, &[], || {
            let mut de = serde_json::Deserializer::from_str(json);
            let _ = value(&mut de);
            Ok::<_, serde_json::Error>(())
        });
        assert_eq!(taken, None);
        // And the next check starts clean.
        assert!(checked(r#"{"b":1}"#, &[]).is_some());
    }
}
