//! What an untagged union buffers to try its branches on: a `serde_json::Value` (this crate's
//! families), or the value's raw text (modules for a user's own schema), which the branches
//! decode again from the text, so that every digit of a number reaches a `JsonNumber` or a
//! `JsonValue` as written.

use serde::de::{self, DeserializeOwned, Deserializer, IgnoredAny};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use super::seeds::Seed;

/// A buffered value the branches of an untagged union decode.
pub trait Buffer {
    /// What kind of JSON value it is, for messages (`a string`, `null`).
    fn kind(&self) -> &'static str;
    /// Decodes it as `T`.
    ///
    /// # Errors
    /// `T`'s.
    fn decode<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error>;
    /// Decodes it with `seed`.
    ///
    /// # Errors
    /// The seed's.
    fn run<S: Seed>(&self, seed: S) -> Result<S::Value, serde_json::Error>;
    /// How many members of an object are not in `known` (`0` for any other value).
    fn unknown_members(&self, known: &[&str]) -> usize;
    /// Whether it is an object with every member of `names` (`true` for no names, whatever
    /// the value).
    fn has_members(&self, names: &[&str]) -> bool;
}

impl Buffer for Value {
    fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }

    fn decode<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        T::deserialize(self)
    }

    fn run<S: Seed>(&self, seed: S) -> Result<S::Value, serde_json::Error> {
        seed.run(self)
    }

    fn has_members(&self, names: &[&str]) -> bool {
        names.is_empty()
            || self
                .as_object()
                .is_some_and(|object| names.iter().all(|name| object.contains_key(*name)))
    }

    fn unknown_members(&self, known: &[&str]) -> usize {
        self.as_object().map_or(0, |object| {
            object
                .keys()
                .filter(|key| !known.contains(&key.as_str()))
                .count()
        })
    }
}

impl Buffer for RawValue {
    fn kind(&self) -> &'static str {
        match self.get().trim_start().as_bytes().first() {
            Some(b'{') => "an object",
            Some(b'[') => "an array",
            Some(b'"') => "a string",
            Some(b't' | b'f') => "a boolean",
            Some(b'n') => "null",
            _ => "a number",
        }
    }

    fn decode<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        from_text(self.get(), |de| T::deserialize(de))
    }

    fn run<S: Seed>(&self, seed: S) -> Result<S::Value, serde_json::Error> {
        from_text(self.get(), |de| seed.run(de))
    }

    fn has_members(&self, names: &[&str]) -> bool {
        names.is_empty()
            || serde_json::from_str::<std::collections::BTreeMap<String, IgnoredAny>>(self.get())
                .is_ok_and(|object| names.iter().all(|name| object.contains_key(*name)))
    }

    fn unknown_members(&self, known: &[&str]) -> usize {
        serde_json::from_str::<std::collections::BTreeMap<String, IgnoredAny>>(self.get()).map_or(
            0,
            |object| {
                object
                    .keys()
                    .filter(|key| !known.contains(&key.as_str()))
                    .count()
            },
        )
    }
}

/// The raw text of the value `d` holds (every digit of a number as written), buffered for
/// decoding again.
///
/// serde_json skips the text without counting its depth, and counts from 0 when it is decoded
/// again: a text nested deeper than serde_json decodes is refused here, once per buffered text
/// (not once per union branch that decodes it), with serde_json's own error. Each text nested
/// inside lies inside this one, so decoding buffered texts cannot recurse past this depth.
///
/// # Errors
/// The deserializer's, and `recursion limit exceeded`.
pub fn raw<'de, D: Deserializer<'de>>(d: D) -> Result<Box<RawValue>, D::Error> {
    let raw = Box::<RawValue>::deserialize(d)?;
    let deepest = crate::policy::DecodeLimits::new(usize::MAX, MAX_TEXT_DEPTH);
    if deepest.check(raw.get().as_bytes()).is_err() {
        return Err(de::Error::custom("recursion limit exceeded"));
    }
    Ok(raw)
}

thread_local! {
    /// Set when a buffered text was decoded again on this thread (see [`take_redecoded`]).
    static REDECODED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a buffered text was decoded again on this thread since the last call: serde_json
/// skipped that text without counting its depth, and counted it from 0 when decoding it again,
/// so the depth of the whole input is for the caller to check ([`crate::decode()`] does).
pub(crate) fn take_redecoded() -> bool {
    REDECODED.with(|r| r.replace(false))
}

/// The deepest nesting a buffered text may have: serde_json's own (its recursion limit).
const MAX_TEXT_DEPTH: usize = 127;

/// Decodes `text` (one JSON value, buffered by [`raw`], which limited its depth) with `decode`,
/// an error without serde_json's position in `text` (the outer deserializer adds its own).
pub(super) fn from_text<T, E: de::Error>(
    text: &str,
    decode: impl FnOnce(
        &mut serde_json::Deserializer<serde_json::de::StrRead<'_>>,
    ) -> Result<T, serde_json::Error>,
) -> Result<T, E> {
    REDECODED.with(|r| r.set(true));
    let mut de = serde_json::Deserializer::from_str(text);
    let value = decode(&mut de).and_then(|value| de.end().map(|()| value));
    value.map_err(|error| {
        let text = error.to_string();
        let suffix = format!(" at line {} column {}", error.line(), error.column());
        E::custom(text.strip_suffix(&suffix).unwrap_or(&text))
    })
}
