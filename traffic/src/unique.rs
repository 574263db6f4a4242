//! The first member name repeated within one object of a message, at any depth.
//!
//! `serde_json::Value` keeps the last of two equal member names without a word, so a message
//! checked as a `Value` would hide a repeat that the typed decoders refuse (`duplicate field`)
//! and that readers resolve differently (first or last wins). The checker looks for one first.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// A member name that appears twice in one object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Repeated {
    /// RFC 6901 pointer to the second occurrence.
    pub(crate) pointer: String,
    /// The member name.
    pub(crate) name: String,
}

/// The first repeated member name of `json` (document order), or `None` (also when `json` is
/// not JSON: the caller reports that).
pub(crate) fn first_repeated(json: &[u8]) -> Option<Repeated> {
    let mut found = None;
    let mut de = serde_json::Deserializer::from_slice(json);
    let _ = Walk {
        pointer: String::new(),
        found: &mut found,
    }
    .deserialize(&mut de);
    found
}

/// Walks one value, stopping (with an error) at the first repeated name.
struct Walk<'a> {
    pointer: String,
    found: &'a mut Option<Repeated>,
}

fn escape(name: &str) -> String {
    toolcall_contracts::pointer::escape(name).into_owned()
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0_usize;
        loop {
            let walk = Walk {
                pointer: format!("{}/{index}", self.pointer),
                found: &mut *self.found,
            };
            if seq.next_element_seed(walk)?.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        // Names are borrowed from the input where they have no escapes.
        let mut names = HashSet::new();
        while let Some(toolcall_contracts::__private::Key(name)) = map.next_key()? {
            let pointer = format!("{}/{}", self.pointer, escape(&name));
            if names.contains(&name) {
                *self.found = Some(Repeated {
                    pointer,
                    name: name.into_owned(),
                });
                return Err(de::Error::custom("repeated member"));
            }
            names.insert(name);
            map.next_value_seed(Walk {
                pointer,
                found: &mut *self.found,
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_repeat_at_any_depth() {
        assert_eq!(
            first_repeated(br#"{"a":1,"b":[{"c":1}],"d":{"e":2}}"#),
            None
        );
        assert_eq!(
            first_repeated(br#"{"params":{"sessionId":"s","sessionId":"t"}}"#),
            Some(Repeated {
                pointer: "/params/sessionId".into(),
                name: "sessionId".into()
            })
        );
        assert_eq!(
            first_repeated(br#"[0,{"a/b":1,"a/b":2}]"#),
            Some(Repeated {
                pointer: "/1/a~1b".into(),
                name: "a/b".into()
            })
        );
        // Names are compared after unescaping: "\u0061" is "a".
        assert_eq!(
            first_repeated(br#"{"a":1,"\u0061":2}"#).map(|r| r.name),
            Some("a".into())
        );
        assert_eq!(first_repeated(b"not json"), None);
    }
}
