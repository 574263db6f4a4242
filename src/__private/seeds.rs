//! How one member's value is decoded: seeds that generated code composes, one per concern
//! (nullability, arrays and maps with their index or key on the path, declared leniency).
//!
//! Every generated type is owned, so a seed decodes from any deserializer lifetime, a buffered
//! [`Value`] included.

use std::collections::BTreeMap;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::repeats::{self, Key, Names};
use super::session::{self, record, within, Segment};
use crate::report::LeniencyKind;

/// How one value is decoded.
pub trait Seed: Copy {
    /// What it decodes to.
    type Value;

    /// Decodes one value.
    ///
    /// # Errors
    /// The deserializer's, or the value's own.
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error>;

    /// Decodes, or gives back the raw JSON of a value the seed rejects (for
    /// `x-deserialize-default-on-error`), without failing the stream. The default captures the
    /// value's text and decodes from it; seeds that can only reject a value at its first token
    /// override it to decode straight from the stream.
    ///
    /// # Errors
    /// The deserializer's (malformed JSON), or a nesting limit.
    fn run_or_raw<'de, D: Deserializer<'de>>(
        self,
        d: D,
    ) -> Result<Result<Self::Value, Value>, D::Error> {
        let raw = Box::<RawValue>::deserialize(d)?;
        let before = session::mark();
        match from_raw_text(self, &raw) {
            Ok(value) => Ok(Ok(value)),
            Err(error) if is_recursion_limit(&error) => Err(de::Error::custom(error)),
            Err(_) => {
                session::rollback(before);
                Ok(Err(raw_to_value(&raw)))
            }
        }
    }
}

/// Adapts a [`Seed`] to serde's [`DeserializeSeed`].
#[derive(Clone, Copy)]
pub struct Adapter<S>(pub S);

impl<'de, S: Seed> DeserializeSeed<'de> for Adapter<S> {
    type Value = S::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.run(d)
    }
}

/// Decodes `T` with its own `Deserialize`.
pub struct Plain<T>(PhantomData<fn() -> T>);

impl<T> Clone for Plain<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Plain<T> {}

impl<T: de::DeserializeOwned> Seed for Plain<T> {
    type Value = T;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::deserialize(d)
    }
}

/// Decodes `T` with its own `Deserialize`.
#[must_use]
pub const fn plain<T>() -> Plain<T> {
    Plain(PhantomData)
}

/// Decodes any JSON value, which never fails: with `x-deserialize-default-on-error` nothing
/// needs capturing.
#[derive(Clone, Copy, Default)]
pub struct AnyValue;

impl Seed for AnyValue {
    type Value = Value;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        if session::values_unused() {
            return Skipped::deserialize(d).map(|Skipped| Value::Null);
        }
        repeats::value(d)
    }

    fn run_or_raw<'de, D: Deserializer<'de>>(self, d: D) -> Result<Result<Value, Value>, D::Error> {
        self.run(d).map(Ok)
    }
}

/// Decodes any JSON value.
#[must_use]
pub const fn any() -> AnyValue {
    AnyValue
}

/// Decodes a string: [`text`], or the string of a named string type, [`name`].
#[derive(Clone, Copy, Default)]
pub struct Text {
    /// A named string type's (a newtype such as `SessionId`): built in a check that skips other
    /// strings ([`session::Unbuilt::FreeFormAndUnnamedStrings`]).
    named: bool,
}

impl Seed for Text {
    type Value = String;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        let unused = if self.named {
            session::named_strings_unused()
        } else {
            session::strings_unused()
        };
        if unused {
            return d.deserialize_string(SkippedString);
        }
        String::deserialize(d)
    }
}

/// Decodes a string.
#[must_use]
pub const fn text() -> Text {
    Text { named: false }
}

/// Decodes the string of a named string type (a newtype such as `SessionId`): as [`text`], but
/// built in a check that skips other strings ([`session::Unbuilt::FreeFormAndUnnamedStrings`]).
#[must_use]
pub const fn name() -> Text {
    Text { named: true }
}

/// A string read as `String` reads one, and not kept (see [`session::optimistic_check`]).
struct SkippedString;

impl Visitor<'_> for SkippedString {
    type Value = String;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<String, E> {
        Ok(String::new())
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<String, E> {
        match std::str::from_utf8(v) {
            Ok(_) => Ok(String::new()),
            Err(_) => Err(E::invalid_value(de::Unexpected::Bytes(v), &self)),
        }
    }
}

/// Decodes a free-form JSON object (`type: object` with nothing else said of its members).
#[derive(Clone, Copy, Default)]
pub struct AnyObject;

impl Seed for AnyObject {
    type Value = Map<String, Value>;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        if session::values_unused() {
            return d.deserialize_map(SkippedObject);
        }
        if session::comparing_names() {
            // Under bounds in a check: built, its names compared.
            return match repeats::value(d)? {
                Value::Object(object) => Ok(object),
                other => Err(de::Error::invalid_type(unexpected(&other), &"a map")),
            };
        }
        Map::deserialize(d)
    }
}

/// An object read member by member and not kept (see [`session::optimistic_check`]).
struct SkippedObject;

impl<'de> Visitor<'de> for SkippedObject {
    type Value = Map<String, Value>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a map")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        skip_members(map)?;
        Ok(Map::new())
    }
}

/// Reads the members of an object without keeping them, comparing their names (values are read
/// only in a check, where names are compared: [`repeats`]).
fn skip_members<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    let mut names = Names::new();
    while let Some(Key(name)) = map.next_key::<Key<'de>>()? {
        names.insert(name)?;
        map.next_value::<Skipped>()?;
    }
    Ok(())
}

/// A JSON value parsed as a [`Value`] would be, and not kept: every string's escapes and every
/// number's range are checked as when building one (serde's `IgnoredAny` lets serde_json skip
/// them unchecked: a lone surrogate, `1e400`), so a check refuses what a decode refuses.
struct Skipped;

impl<'de> Deserialize<'de> for Skipped {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Skipped)
    }
}

impl<'de> Visitor<'de> for Skipped {
    type Value = Skipped;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Skipped, E> {
        Ok(Skipped)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Skipped, E> {
        Ok(Skipped)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Skipped, E> {
        Ok(Skipped)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Skipped, E> {
        Ok(Skipped)
    }

    fn visit_str<E>(self, _: &str) -> Result<Skipped, E> {
        Ok(Skipped)
    }

    fn visit_unit<E>(self) -> Result<Skipped, E> {
        Ok(Skipped)
    }

    fn visit_none<E>(self) -> Result<Skipped, E> {
        Ok(Skipped)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Skipped, D::Error> {
        Skipped::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skipped, A::Error> {
        while seq.next_element::<Skipped>()?.is_some() {}
        Ok(Skipped)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Skipped, A::Error> {
        skip_members(map)?;
        Ok(Skipped)
    }
}

/// Decodes a free-form JSON object.
#[must_use]
pub const fn any_object() -> AnyObject {
    AnyObject
}

/// Decodes `Box<T>` with the inner seed (recursive types).
#[derive(Clone, Copy)]
pub struct Boxed<S>(pub S);

impl<S: Seed> Seed for Boxed<S> {
    type Value = Box<S::Value>;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.run(d).map(Box::new)
    }
}

/// Decodes `Box<T>` with `seed`.
#[must_use]
pub const fn boxed<S>(seed: S) -> Boxed<S> {
    Boxed(seed)
}

/// Decodes `null` as `None`, anything else with the inner seed.
#[derive(Clone, Copy)]
pub struct Opt<S>(pub S);

struct OptVisitor<S>(S);

impl<'de, S: Seed> Visitor<'de> for OptVisitor<S> {
    type Value = Option<S::Value>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a value or null")
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.run(d).map(Some)
    }
}

struct OptRawVisitor<S>(S);

impl<'de, S: Seed> Visitor<'de> for OptRawVisitor<S> {
    type Value = Result<Option<S::Value>, Value>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a value or null")
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Ok(None))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Ok(None))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        Ok(self.0.run_or_raw(d)?.map(Some))
    }
}

impl<S: Seed> Seed for Opt<S> {
    type Value = Option<S::Value>;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_option(OptVisitor(self.0))
    }

    fn run_or_raw<'de, D: Deserializer<'de>>(
        self,
        d: D,
    ) -> Result<Result<Self::Value, Value>, D::Error> {
        d.deserialize_option(OptRawVisitor(self.0))
    }
}

/// `null` as `None`, anything else with `seed` (a required member whose schema admits `null`).
#[must_use]
pub const fn opt<S>(seed: S) -> Opt<S> {
    Opt(seed)
}

/// Decodes `null` as [`crate::MaybeUndefined::Null`], anything else as
/// [`crate::MaybeUndefined::Value`].
#[derive(Clone, Copy)]
pub struct Nullable<S>(pub S);

fn maybe<T>(value: Option<T>) -> crate::MaybeUndefined<T> {
    value.map_or(crate::MaybeUndefined::Null, crate::MaybeUndefined::Value)
}

impl<S: Seed> Seed for Nullable<S> {
    type Value = crate::MaybeUndefined<S::Value>;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        Opt(self.0).run(d).map(maybe)
    }

    fn run_or_raw<'de, D: Deserializer<'de>>(
        self,
        d: D,
    ) -> Result<Result<Self::Value, Value>, D::Error> {
        Ok(Opt(self.0).run_or_raw(d)?.map(maybe))
    }
}

/// `null` or a value of `seed`, for an optional member whose schema admits `null`.
#[must_use]
pub const fn nullable<S>(seed: S) -> Nullable<S> {
    Nullable(seed)
}

/// Decodes an array, each item with its index on the path.
#[derive(Clone, Copy)]
pub struct Seq<S>(pub S);

struct SeqVisitor<S>(S);

impl<'de, S: Seed> Visitor<'de> for SeqVisitor<S> {
    type Value = Vec<S::Value>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        let mut index = 0;
        while let Some(item) = within(Segment::Index(index), || {
            seq.next_element_seed(Adapter(self.0))
        })? {
            out.push(item);
            index += 1;
        }
        Ok(out)
    }
}

impl<S: Seed> Seed for Seq<S> {
    type Value = Vec<S::Value>;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(SeqVisitor(self.0))
    }
}

/// An array of `seed`.
#[must_use]
pub const fn seq<S>(seed: S) -> Seq<S> {
    Seq(seed)
}

/// Decodes an object whose every member is a value of the inner seed (`additionalProperties`
/// with a schema), each member's name on the path.
#[derive(Clone, Copy)]
pub struct MapOf<S>(pub S);

struct MapVisitor<S>(S);

impl<'de, S: Seed> Visitor<'de> for MapVisitor<S> {
    type Value = BTreeMap<String, S::Value>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = BTreeMap::new();
        while let Some(key) = map.next_key::<String>()? {
            if session::declined(&key) {
                return Err(repeats::declined(&key));
            }
            if out.contains_key(&key) {
                return Err(repeats::repeated(&key));
            }
            let value = within(Segment::Key(&key), || map.next_value_seed(Adapter(self.0)))?;
            out.insert(key, value);
        }
        Ok(out)
    }
}

impl<S: Seed> Seed for MapOf<S> {
    type Value = BTreeMap<String, S::Value>;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(MapVisitor(self.0))
    }
}

/// An object of `seed` values.
#[must_use]
pub const fn map_of<S>(seed: S) -> MapOf<S> {
    MapOf(seed)
}

/// `x-deserialize-skip-invalid-items`: an item the inner seed rejects is skipped and reported as
/// [`LeniencyKind::SkippedItem`] with the item's pointer and JSON.
#[derive(Clone, Copy)]
pub struct SkipInvalid<S>(pub S);

/// An array of `seed` whose invalid items are skipped and reported.
#[must_use]
pub const fn skip_invalid<S>(seed: S) -> SkipInvalid<S> {
    SkipInvalid(seed)
}

struct SkipVisitor<S>(S);

impl<'de, S: Seed> Visitor<'de> for SkipVisitor<S> {
    type Value = Result<Vec<S::Value>, Value>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        // Each item is captured as raw text and decoded from it, so that an invalid item can be
        // skipped without losing the stream.
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        let mut index = 0;
        while let Some(item) = seq.next_element::<Box<RawValue>>()? {
            let before = session::mark();
            match within(Segment::Index(index), || from_raw_text(self.0, &item)) {
                Ok(value) => out.push(value),
                Err(error) if is_recursion_limit(&error) => return Err(de::Error::custom(error)),
                Err(_) => {
                    session::rollback(before);
                    record(
                        LeniencyKind::SkippedItem,
                        Some(Segment::Index(index)),
                        || raw_to_value(&item),
                    );
                }
            }
            index += 1;
        }
        Ok(Ok(out))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Err(Value::Bool(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Err(Value::from(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Err(Value::from(v)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok(Err(Value::from(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Err(Value::from(v)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Err(Value::Null))
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Err(Value::Null))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        repeats::value(de::value::MapAccessDeserializer::new(map)).map(Err)
    }
}

impl<S: Seed> Seed for SkipInvalid<S> {
    type Value = Vec<S::Value>;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        if session::optimistic() {
            return Seq(self.0).run(d);
        }
        match self.run_or_raw(d)? {
            Ok(items) => Ok(items),
            Err(raw) => Err(de::Error::invalid_type(unexpected(&raw), &"an array")),
        }
    }

    fn run_or_raw<'de, D: Deserializer<'de>>(
        self,
        d: D,
    ) -> Result<Result<Self::Value, Value>, D::Error> {
        d.deserialize_any(SkipVisitor(self.0))
    }
}

/// `x-deserialize-default-on-error`: a value the inner seed rejects decodes as `None` and is
/// reported as [`LeniencyKind::Defaulted`] (or [`LeniencyKind::UnknownValue`] when `enum_hint`
/// is set and the value is a string: an unknown value of a string enum).
#[derive(Clone, Copy)]
pub struct DefaultOnError<S> {
    pub seed: S,
    pub enum_hint: bool,
}

/// `seed` with `x-deserialize-default-on-error`; `enum_hint` when the member is a string enum.
#[must_use]
pub const fn default_on_error<S>(seed: S, enum_hint: bool) -> DefaultOnError<S> {
    DefaultOnError { seed, enum_hint }
}

impl<S: Seed> Seed for DefaultOnError<S> {
    type Value = Option<S::Value>;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        if session::optimistic() {
            return self.seed.run(d).map(Some);
        }
        match self.seed.run_or_raw(d)? {
            Ok(value) => Ok(Some(value)),
            Err(raw) => {
                let kind = if self.enum_hint && raw.is_string() {
                    LeniencyKind::UnknownValue
                } else {
                    LeniencyKind::Defaulted
                };
                record(kind, None, || raw);
                Ok(None)
            }
        }
    }
}

/// `x-deserialize-default-on-null` (and `null` for an optional member whose schema does not
/// admit it, where the family says so): `null` decodes as `None` and is reported as
/// [`LeniencyKind::Defaulted`]; any other value goes to the inner seed.
#[derive(Clone, Copy)]
pub struct DefaultOnNull<S>(pub S);

/// `seed`, with `null` decoding as absent (reported).
#[must_use]
pub const fn default_on_null<S>(seed: S) -> DefaultOnNull<S> {
    DefaultOnNull(seed)
}

impl<S: Seed> Seed for DefaultOnNull<S> {
    type Value = Option<S::Value>;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let value = Opt(self.0).run(d)?;
        if value.is_none() {
            record(LeniencyKind::Defaulted, None, || Value::Null);
        }
        Ok(value)
    }

    fn run_or_raw<'de, D: Deserializer<'de>>(
        self,
        d: D,
    ) -> Result<Result<Self::Value, Value>, D::Error> {
        let value = Opt(self.0).run_or_raw(d)?;
        if matches!(value, Ok(None)) {
            record(LeniencyKind::Defaulted, None, || Value::Null);
        }
        Ok(value)
    }
}

/// serde_json's nesting guard: never absorbed by declared leniency (it is a limit, not a
/// malformed value).
pub(crate) fn is_recursion_limit(error: &serde_json::Error) -> bool {
    error.to_string().starts_with("recursion limit exceeded")
}

/// Runs `seed` over captured raw JSON text, requiring it to be consumed entirely.
fn from_raw_text<S: Seed>(seed: S, raw: &RawValue) -> Result<S::Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(raw.get());
    let value = seed.run(&mut de)?;
    de.end()?;
    Ok(value)
}

/// The JSON value of captured raw text (for a report; the text was valid JSON when captured).
fn raw_to_value(raw: &RawValue) -> Value {
    serde_json::from_str(raw.get()).unwrap_or(Value::Null)
}

/// What serde calls the kind of `value`, for `invalid_type` errors.
pub(crate) fn unexpected(value: &Value) -> de::Unexpected<'_> {
    match value {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(n) => n
            .as_i64()
            .map(de::Unexpected::Signed)
            .or_else(|| n.as_f64().map(de::Unexpected::Float))
            .unwrap_or(de::Unexpected::Other("number")),
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

/// The next item of an array with `seed`, its index on the path (`None` at the end).
///
/// # Errors
/// The seed's error.
pub fn element<'de, A: SeqAccess<'de>, S: Seed>(
    seq: &mut A,
    index: usize,
    seed: S,
) -> Result<Option<S::Value>, A::Error> {
    within(Segment::Index(index), || {
        seq.next_element_seed(Adapter(seed))
    })
}

/// The error for an array with fewer items than its `prefixItems` require.
pub fn too_short<E: de::Error>(name: &'static str, index: usize) -> E {
    session::fail_here(None);
    E::custom(format_args!(
        "`{name}` needs an item at index {index}, the array ends before it"
    ))
}

/// The error for an array with more items than its `prefixItems` allow.
pub fn too_long<E: de::Error>(name: &'static str, count: usize) -> E {
    session::fail_here(None);
    E::custom(format_args!(
        "`{name}` has at most {count} items, the array has more"
    ))
}

#[cfg(test)]
mod tests {
    use super::super::bounds::{bounded, Bounds};
    use super::super::session::{
        optimistic_check, optimistic_only, strings_unused, values_unused, Unbuilt,
    };
    use super::*;

    fn run<S: Seed>(seed: S, json: &str) -> Result<S::Value, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_str(json);
        let value = seed.run(&mut de)?;
        de.end()?;
        Ok(value)
    }

    #[test]
    fn a_check_reads_free_form_values_without_building_them() {
        let json = r#"{"a": [1, {"b": "\u00e9"}], "c": null}"#;
        assert_eq!(
            optimistic_only(|| run(any(), json)),
            Some(serde_json::json!({"a": [1, {"b": "é"}], "c": null}))
        );
        assert_eq!(
            optimistic_check(Unbuilt::FreeForm, &[], || run(any(), json)),
            Some(Value::Null)
        );
        assert_eq!(
            optimistic_check(Unbuilt::FreeForm, &[], || run(any_object(), json)),
            Some(Map::new())
        );
        assert!(!values_unused(), "the check's setting ends with it");
    }

    #[test]
    fn a_check_reads_strings_without_building_them_only_when_asked() {
        let json = r#""caf\u00e9 \"x\"""#;
        let check = |unbuilt| optimistic_check(unbuilt, &[], || run(text(), json));
        assert_eq!(check(Unbuilt::FreeForm), Some("café \"x\"".to_owned()));
        assert_eq!(check(Unbuilt::FreeFormAndStrings), Some(String::new()));
        assert_eq!(
            check(Unbuilt::FreeFormAndUnnamedStrings),
            Some(String::new())
        );
        // A named string type's string is built unless every string is skipped.
        let named = |unbuilt| optimistic_check(unbuilt, &[], || run(name(), json));
        assert_eq!(named(Unbuilt::FreeForm), Some("café \"x\"".to_owned()));
        assert_eq!(
            named(Unbuilt::FreeFormAndUnnamedStrings),
            Some("café \"x\"".to_owned())
        );
        assert_eq!(named(Unbuilt::FreeFormAndStrings), Some(String::new()));
        for bad in [r#""\ud800""#, r#""\q""#, "\"\u{1}\"", "1", "null", "[]"] {
            assert_eq!(
                optimistic_check(Unbuilt::FreeFormAndStrings, &[], || run(text(), bad)),
                None,
                "{bad}"
            );
            assert_eq!(
                optimistic_check(Unbuilt::FreeFormAndStrings, &[], || run(name(), bad)),
                None,
                "{bad}"
            );
        }
        assert!(!strings_unused());
    }

    #[test]
    fn a_check_still_refuses_what_is_not_json_or_not_an_object() {
        // A lone surrogate and `1e400` are JSON that no `Value` holds: refused as a decode
        // refuses them.
        let bad = [
            r#"{"a": }"#,
            r#"{"a": "\ud800"}"#,
            r#"{"\udc00": 1}"#,
            r#"[1e400]"#,
            "[1,]",
        ];
        for bad in bad {
            assert_eq!(
                optimistic_check(Unbuilt::FreeForm, &[], || run(any(), bad)),
                None,
                "{bad}"
            );
            assert_eq!(
                optimistic_check(Unbuilt::FreeForm, &[], || run(any_object(), bad)),
                None,
                "{bad}"
            );
        }
        for not_object in ["[1]", "\"text\"", "2", "null"] {
            assert_eq!(
                optimistic_check(Unbuilt::FreeForm, &[], || run(any_object(), not_object)),
                None,
                "{not_object}"
            );
        }
    }

    #[test]
    fn bounds_look_at_the_value_inside_a_check_too() {
        static SHORT: Bounds = Bounds {
            max_length: Some(2),
            ..Bounds::NONE
        };
        let short = || bounded(any(), &SHORT);
        assert_eq!(
            optimistic_check(Unbuilt::FreeForm, &[], || run(short(), r#""ab""#)),
            Some(Value::from("ab"))
        );
        assert_eq!(
            optimistic_check(Unbuilt::FreeForm, &[], || run(short(), r#""abc""#)),
            None
        );
        // A free-form value under a bounded one: built, since the bounds read it.
        let nested = || seq(bounded(any(), &SHORT));
        assert_eq!(
            optimistic_check(Unbuilt::FreeForm, &[], || run(nested(), r#"["abc"]"#)),
            None
        );
        let short_text = || bounded(text(), &SHORT);
        assert_eq!(
            optimistic_check(Unbuilt::FreeFormAndStrings, &[], || run(
                short_text(),
                r#""abc""#
            )),
            None
        );
        assert!(!values_unused());
    }
}
