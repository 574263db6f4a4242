//! The members of a struct: reading one, refusing it twice, requiring it, and keeping the
//! members the schema does not define.

use std::borrow::Cow;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};

pub use super::repeats::Key;
use super::repeats::{self, Buffered};
use super::seeds::{unexpected, Adapter, Seed};
use super::session::{self, within, within_key, Segment};

/// The members a generated struct declares, for telling apart untagged union branches.
pub trait Members {
    /// Wire names of the declared members (const members included).
    const MEMBERS: &'static [&'static str];
    /// Wire names of the members without which the struct refuses a value (required members,
    /// `null` allowed or not, and required `const` members): a union branch of this struct is
    /// not tried on an object that lacks one.
    const REQUIRED: &'static [&'static str] = &[];
}

/// Fails for a repeated member, as serde's derive does.
pub fn duplicate<E: de::Error>(key: &'static str) -> E {
    session::fail_here(Some(Segment::Key(key)));
    session::name_failed();
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

/// The one value a schema fixes a member to (`const`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Const {
    /// A string.
    Str(&'static str),
    /// An integer.
    Int(i64),
    /// An integer above `i64::MAX`.
    UInt(u64),
    /// A boolean.
    Bool(bool),
}

impl Const {
    /// Whether `value` is this constant.
    #[must_use]
    pub fn matches(self, value: &Value) -> bool {
        match self {
            Self::Str(s) => value.as_str() == Some(s),
            Self::Int(i) => value.as_i64() == Some(i),
            Self::UInt(u) => value.as_u64() == Some(u),
            Self::Bool(b) => value.as_bool() == Some(b),
        }
    }
}

impl std::fmt::Display for Const {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Str(s) => write!(f, "`{s}`"),
            Self::Int(i) => write!(f, "`{i}`"),
            Self::UInt(u) => write!(f, "`{u}`"),
            Self::Bool(b) => write!(f, "`{b}`"),
        }
    }
}

impl serde::Serialize for Const {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Self::Str(s) => serializer.serialize_str(s),
            Self::Int(i) => serializer.serialize_i64(i),
            Self::UInt(u) => serializer.serialize_u64(u),
            Self::Bool(b) => serializer.serialize_bool(b),
        }
    }
}

fn check_constant<E: de::Error>(found: &Value, value: Const) -> Result<(), E> {
    if value.matches(found) {
        Ok(())
    } else {
        session::fail_here(None);
        Err(de::Error::invalid_value(
            unexpected(found),
            &value.to_string().as_str(),
        ))
    }
}

/// Reads member `key`, which the schema fixes to `value` (`const`).
///
/// # Errors
/// `duplicate field` when already seen; when the value is not `value`.
pub fn constant<'de, A: MapAccess<'de>>(
    map: &mut A,
    seen: &mut bool,
    key: &'static str,
    value: Const,
) -> Result<(), A::Error> {
    if *seen {
        return Err(duplicate(key));
    }
    within_key(key, || {
        let found = map.next_value_seed(Buffered)?;
        check_constant(&found, value)
    })?;
    *seen = true;
    Ok(())
}

/// Takes member `key`, which the schema fixes to `value`, out of a buffered object: whether it
/// was there.
///
/// # Errors
/// When its value is not `value`.
pub fn take_constant(
    object: &mut Map<String, Value>,
    key: &'static str,
    value: Const,
) -> Result<bool, serde_json::Error> {
    match object.remove(key) {
        None => Ok(false),
        Some(found) => within_key(key, || check_constant(&found, value)).map(|()| true),
    }
}

/// `anyOf` (`exactly_one` false) or `oneOf` of sets of members that must be present, checked on
/// which sets are (`present`).
///
/// # Errors
/// When no set (or, for `oneOf`, more than one) is present, naming the sets.
pub fn presence<E: de::Error>(
    name: &'static str,
    exactly_one: bool,
    sets: &[&[&str]],
    present: &[bool],
) -> Result<(), E> {
    let count = present.iter().filter(|p| **p).count();
    if count == 1 || (count > 1 && !exactly_one) {
        return Ok(());
    }
    let list = sets
        .iter()
        .map(|set| {
            set.iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(" and ")
        })
        .collect::<Vec<_>>()
        .join(", or ");
    session::fail_here(None);
    Err(E::custom(format_args!(
        "`{name}` needs {} of: {list}",
        if exactly_one {
            "exactly one"
        } else {
            "at least one"
        }
    )))
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
        return Err(repeats::repeated(&key));
    }
    if session::declined(&key) {
        return Err(repeats::declined(&key));
    }
    let value = within(Segment::Key(&key), || map.next_value_seed(Buffered))?;
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
    if session::declined(&key) {
        return Err(repeats::declined(&key));
    }
    if kept.contains_key(&key) {
        return Err(repeats::repeated(&key));
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
