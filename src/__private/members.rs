//! The members of a struct: reading one, refusing it twice, requiring it, and keeping the
//! members the schema does not define.

use std::borrow::Cow;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::seeds::{unexpected, Adapter, Seed};
use super::session::{self, within, within_key, Segment};

/// The members a generated struct declares, for telling apart untagged union branches.
pub trait Members {
    /// Wire names of the declared members (const members included).
    const MEMBERS: &'static [&'static str];
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
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
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

/// Fails for a repeated member, as serde's derive does.
pub fn duplicate<E: de::Error>(key: &'static str) -> E {
    session::fail_here(Some(Segment::Key(key)));
    E::duplicate_field(key)
}

/// Fails for a missing required member, as serde's derive does (the pointer is the object's).
pub fn missing<E: de::Error>(key: &'static str) -> E {
    session::fail_here(None);
    E::missing_field(key)
}

/// Converts an error from decoding a buffered [`Value`] into the outer deserializer's error.
pub fn lift<E: de::Error>(error: serde_json::Error) -> E {
    E::custom(error)
}

/// Reads the value of member `key` into `slot` with `seed`, with `key` on the path.
///
/// # Errors
/// `duplicate field` when `slot` is already filled, or the seed's error.
pub fn member<'de, A: MapAccess<'de>, S: Seed>(
    map: &mut A,
    slot: &mut Option<S::Value>,
    key: &'static str,
    seed: S,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(duplicate(key));
    }
    *slot = Some(within_key(key, || map.next_value_seed(Adapter(seed)))?);
    Ok(())
}

/// The value of a required member.
///
/// # Errors
/// `missing field` when the member was absent.
pub fn required<T, E: de::Error>(slot: Option<T>, key: &'static str) -> Result<T, E> {
    slot.ok_or_else(|| missing(key))
}

/// Reads member `key`, which the schema fixes to the string `value` (`const`).
///
/// # Errors
/// `duplicate field` when already seen; when the value is not the string `value`.
pub fn constant<'de, A: MapAccess<'de>>(
    map: &mut A,
    seen: &mut bool,
    key: &'static str,
    value: &'static str,
) -> Result<(), A::Error> {
    if *seen {
        return Err(duplicate(key));
    }
    within_key(key, || {
        let found = map.next_value::<Value>()?;
        if found.as_str() == Some(value) {
            Ok(())
        } else {
            Err(de::Error::invalid_value(
                unexpected(&found),
                &format!("`{value}`").as_str(),
            ))
        }
    })?;
    *seen = true;
    Ok(())
}

/// A required `const` member must have been seen.
///
/// # Errors
/// `missing field` when it was not.
pub fn required_constant<E: de::Error>(seen: bool, key: &'static str) -> Result<(), E> {
    if seen {
        Ok(())
    } else {
        Err(missing(key))
    }
}

/// Whether an optional `const` member was seen (kept, so that it is written back).
#[must_use]
pub const fn optional_constant(seen: bool) -> bool {
    seen
}

/// Keeps a member the schema does not define; the same member twice fails, as a repeated
/// declared member does.
///
/// # Errors
/// `duplicate field` when `key` is already kept, or the input's errors.
pub fn keep_unknown<'de, A: MapAccess<'de>>(
    map: &mut A,
    kept: &mut Map<String, Value>,
    key: Key<'de>,
) -> Result<(), A::Error> {
    let key = key.0.into_owned();
    if kept.contains_key(&key) {
        session::fail_here(Some(Segment::Key(&key)));
        return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
    }
    let value = within(Segment::Key(&key), || map.next_value::<Value>())?;
    kept.insert(key, value);
    Ok(())
}

/// Keeps a member of an object whose other members all match `seed`
/// (`additionalProperties` with a schema beside declared members).
///
/// # Errors
/// `duplicate field` when `key` is already kept, or the seed's error.
pub fn keep_typed<'de, A: MapAccess<'de>, S: Seed>(
    map: &mut A,
    kept: &mut std::collections::BTreeMap<String, S::Value>,
    key: Key<'de>,
    seed: S,
) -> Result<(), A::Error> {
    let key = key.0.into_owned();
    if kept.contains_key(&key) {
        session::fail_here(Some(Segment::Key(&key)));
        return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
    }
    let value = within(Segment::Key(&key), || map.next_value_seed(Adapter(seed)))?;
    kept.insert(key, value);
    Ok(())
}

/// Skips the value of a member the schema does not define and the family does not keep.
///
/// # Errors
/// The input's errors.
pub fn skip_unknown<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    map.next_value::<IgnoredAny>().map(drop)
}

/// Fails for a member the schema forbids (`additionalProperties: false`).
pub fn deny_unknown<E: de::Error>(key: &Key<'_>, expected: &'static [&'static str]) -> E {
    session::fail_here(Some(Segment::Key(key.as_str())));
    E::unknown_field(key.as_str(), expected)
}

/// Buffers an object (for structs with a flattened union).
///
/// # Errors
/// When the value is not an object, or a member is repeated.
pub fn object<'de, D: Deserializer<'de>>(
    d: D,
    expecting: &'static str,
) -> Result<Map<String, Value>, D::Error> {
    struct V(&'static str);
    impl<'de> Visitor<'de> for V {
        type Value = Map<String, Value>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut object = Map::new();
            while let Some(key) = map.next_key::<Key<'de>>()? {
                keep_unknown(&mut map, &mut object, key)?;
            }
            Ok(object)
        }
    }
    d.deserialize_map(V(expecting))
}

/// Takes member `key` out of a buffered object and decodes it with `seed`, with `key` on the
/// path (`None` when absent).
///
/// # Errors
/// The seed's error.
pub fn take<S: Seed>(
    object: &mut Map<String, Value>,
    key: &'static str,
    seed: S,
) -> Result<Option<S::Value>, serde_json::Error> {
    match object.remove(key) {
        None => Ok(None),
        Some(value) => within_key(key, || seed.run(value)).map(Some),
    }
}

/// Decodes member `key` of a buffered object with `seed`, with `key` on the path.
///
/// # Errors
/// The seed's error.
pub fn member_of<S: Seed>(
    value: &Value,
    key: &'static str,
    seed: S,
) -> Result<S::Value, serde_json::Error> {
    within_key(key, || seed.run(value))
}

/// A string value, borrowed from the input when it can be.
///
/// # Errors
/// When the value is not a string.
pub fn string<'de, D: Deserializer<'de>>(d: D) -> Result<Cow<'de, str>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Cow<'de, str>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(v))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Cow::Owned(v.to_owned()))
        }
        fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
            Ok(Cow::Owned(v))
        }
    }
    d.deserialize_str(V)
}
