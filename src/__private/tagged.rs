//! Unions told apart by a tag member (`"type": "text"`): decoded by streaming when the tag is
//! the object's first member, by buffering the object otherwise.

use std::borrow::Cow;
use std::marker::PhantomData;

use serde::de::value::{BorrowedStrDeserializer, MapAccessDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::members::{duplicate, keep_unknown, lift};
use super::repeats::{self, Key};
use super::session::{self, record, within_key, Segment};
use crate::report::LeniencyKind;

/// A union generated code tells apart by the member [`Tagged::TAG`].
pub trait Tagged: Sized {
    /// The tag member (`type`, `sessionUpdate`, `method`).
    const TAG: &'static str;
    /// The union's name, for messages.
    const NAME: &'static str;
    /// The tag values the union knows, for messages.
    const VALUES: &'static [&'static str];
    /// Whether a branch is taken without the tag: an absent tag selects it, and so does a tag
    /// that is not a string (`null` included), kept in the object the branch decodes (the
    /// branch refuses it, or keeps it and writes it back). Without a fallback, a `null` tag is
    /// a missing one.
    const FALLBACK: bool;

    /// Decodes the variant `tag` selects (`None`: absent, or `null` without a fallback, or a
    /// non-string tag kept in `payload` for the fallback) from `payload`, the object without
    /// its tag member.
    ///
    /// # Errors
    /// An unknown or missing tag ([`unknown_tag`], [`missing_tag`]), or the variant's error.
    fn variant<'de, D: Deserializer<'de>>(tag: Option<&str>, payload: D) -> Result<Self, D::Error>;
}

/// Decodes a [`Tagged`] union: when the first member is the tag, the rest of the object goes
/// straight to the variant; otherwise the object is buffered to find the tag.
///
/// # Errors
/// When the value is not an object, or the union's own errors.
pub fn tagged_union<'de, D: Deserializer<'de>, U: Tagged>(d: D) -> Result<U, D::Error> {
    d.deserialize_map(UnionVisitor::<U>(PhantomData))
}

struct UnionVisitor<U>(PhantomData<U>);

impl<'de, U: Tagged> Visitor<'de> for UnionVisitor<U> {
    type Value = U;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "an object (`{}`)", U::NAME)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<U, A::Error> {
        let mut object = Map::new();
        match map.next_key::<Key<'de>>()? {
            Some(first) if first.as_str() == U::TAG => {
                match within_key(U::TAG, || map.next_value::<TagValue<'de>>())? {
                    TagValue::Str(tag) => {
                        // A second tag member would otherwise reach the payload as an unknown
                        // member, and be written back beside the tag.
                        let rest = MapAccessDeserializer::new(TagGuard { map, tag: U::TAG });
                        return U::variant(Some(&tag), rest);
                    }
                    // The fallback branch decides what a `null` tag is (nothing is dropped).
                    TagValue::Null if U::FALLBACK => {
                        object.insert(U::TAG.to_owned(), Value::Null);
                    }
                    TagValue::Null => {
                        let rest = MapAccessDeserializer::new(TagGuard { map, tag: U::TAG });
                        return U::variant(None, rest);
                    }
                    TagValue::Other(value) => {
                        object.insert(U::TAG.to_owned(), value);
                    }
                }
            }
            Some(first) => keep_unknown(&mut map, &mut object, first)?,
            None => {}
        }
        while let Some(key) = map.next_key::<Key<'de>>()? {
            keep_unknown(&mut map, &mut object, key)?;
        }
        from_object::<U>(object).map_err(lift)
    }
}

/// Decodes a buffered union object.
fn from_object<U: Tagged>(mut object: Map<String, Value>) -> Result<U, serde_json::Error> {
    match object.remove(U::TAG) {
        None => U::variant(None, Value::Object(object)),
        Some(Value::String(tag)) => U::variant(Some(&tag), Value::Object(object)),
        // A fallback branch decides what a tag that is not a string is (`null` included): it
        // gets the member, and refuses it or keeps it.
        Some(other) if U::FALLBACK => {
            object.insert(U::TAG.to_owned(), other);
            U::variant(None, Value::Object(object))
        }
        Some(Value::Null) => U::variant(None, Value::Object(object)),
        Some(other) => within_key(U::TAG, || {
            Err(de::Error::custom(format_args!(
                "tag `{}` of `{}` must be a string, found {other}",
                U::TAG,
                U::NAME
            )))
        }),
    }
}

/// The value of a tag member.
enum TagValue<'de> {
    Str(Cow<'de, str>),
    Null,
    Other(Value),
}

impl<'de> Deserialize<'de> for TagValue<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TagValue<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a tag")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(TagValue::Str(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(TagValue::Str(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(TagValue::Str(Cow::Owned(v)))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(TagValue::Null)
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(TagValue::Null)
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
                Ok(TagValue::Other(Value::Bool(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Ok(TagValue::Other(Value::from(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(TagValue::Other(Value::from(v)))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                Ok(TagValue::Other(Value::from(v)))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                repeats::value(de::value::SeqAccessDeserializer::new(seq)).map(TagValue::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                repeats::value(MapAccessDeserializer::new(map)).map(TagValue::Other)
            }
        }
        d.deserialize_any(V)
    }
}

/// The rest of a union object whose tag came first, refusing the tag member a second time.
struct TagGuard<A> {
    map: A,
    tag: &'static str,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for TagGuard<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let Some(Key(key)) = self.map.next_key::<Key<'de>>()? else {
            return Ok(None);
        };
        if key == self.tag {
            return Err(duplicate(self.tag));
        }
        let key = match key {
            Cow::Borrowed(key) => seed.deserialize(BorrowedStrDeserializer::<A::Error>::new(key)),
            Cow::Owned(key) => {
                seed.deserialize(de::value::StringDeserializer::<A::Error>::new(key))
            }
        };
        key.map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// The error for a tag value no variant has.
pub fn unknown_tag<U: Tagged, E: de::Error>(value: &str) -> E {
    session::fail_here(Some(Segment::Key(U::TAG)));
    E::custom(format_args!(
        "unknown `{}` value `{value}` for `{}`, expected one of {}",
        U::TAG,
        U::NAME,
        expected_list(U::VALUES)
    ))
}

/// The error for a missing (or `null`) tag.
pub fn missing_tag<U: Tagged, E: de::Error>() -> E {
    session::fail_here(Some(Segment::Key(U::TAG)));
    E::custom(format_args!(
        "missing tag `{}` for `{}`, expected one of {}",
        U::TAG,
        U::NAME,
        expected_list(U::VALUES)
    ))
}

fn expected_list(known: &[&str]) -> String {
    known
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The raw JSON of a variant the union does not know (`Unknown`), with its tag put back.
/// `report` is set when the union is open by the family's decision rather than the schema's
/// (the value is then accepted by leniency, reported as [`LeniencyKind::UnknownVariant`]).
///
/// # Errors
/// When the payload is not an object.
pub fn catch_all<'de, U: Tagged, D: Deserializer<'de>>(
    payload: D,
    tag: &str,
    report: bool,
) -> Result<Value, D::Error> {
    let mut object = super::members::object(payload, "an object")?;
    object.insert(U::TAG.to_owned(), Value::from(tag));
    if report {
        record(
            LeniencyKind::UnknownVariant,
            Some(Segment::Key(U::TAG)),
            || Value::from(tag),
        );
    }
    Ok(Value::Object(object))
}

/// A deserializer of a union payload that holds its own tag member (the tag `const` lives in the
/// referenced definition): the tag, already read by the union, is handed back to the payload
/// as its first member.
pub struct WithTag<'v, D> {
    inner: D,
    tag: &'static str,
    value: &'v str,
}

impl<'v, D> WithTag<'v, D> {
    /// `inner` with `tag: value` put back first.
    pub const fn new(inner: D, tag: &'static str, value: &'static str) -> Self {
        Self { inner, tag, value }
    }

    /// `inner` with `tag: value` put back first, for a tag value no variant has, handed to the
    /// branch taken without a tag (which keeps it as one of its unknown members).
    pub const fn other(inner: D, tag: &'static str, value: &'v str) -> Self {
        Self { inner, tag, value }
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for WithTag<'_, D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_map(WithTagVisitor {
            visitor,
            tag: self.tag,
            value: self.value,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

struct WithTagVisitor<'v, V> {
    visitor: V,
    tag: &'static str,
    value: &'v str,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for WithTagVisitor<'_, V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.visitor.expecting(f)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_map(WithTagMap {
            map,
            tag: self.tag,
            value: self.value,
            state: TagState::Key,
        })
    }
}

enum TagState {
    Key,
    Value,
    Done,
}

struct WithTagMap<'v, A> {
    map: A,
    tag: &'static str,
    value: &'v str,
    state: TagState,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for WithTagMap<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.state {
            TagState::Key => {
                self.state = TagState::Value;
                seed.deserialize(BorrowedStrDeserializer::new(self.tag))
                    .map(Some)
            }
            _ => self.map.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.state {
            TagState::Value => {
                self.state = TagState::Done;
                seed.deserialize(de::value::StrDeserializer::new(self.value))
            }
            _ => self.map.next_value_seed(seed),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint().map(|n| n + 1)
    }
}

/// Consumes the rest of a variant that carries nothing but its tag.
///
/// # Errors
/// The input's errors.
pub fn drain<'de, D: Deserializer<'de>>(payload: D) -> Result<(), D::Error> {
    de::IgnoredAny::deserialize(payload).map(drop)
}
