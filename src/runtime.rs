//! Support code the generated types call: the path of the member being decoded, the leniency
//! report of the current [`crate::decode::decode`] call, and the seeds that apply leniency.
//!
//! Not a public API (hidden): generated code reaches it as `crate::runtime`. Every generated
//! `Deserialize` impl pushes the member or item it is decoding onto a thread-local path, so a
//! leniency event or a failure knows its RFC 6901 pointer into the input without buffering.

#![allow(missing_docs, reason = "hidden support module for generated code")]

use std::cell::RefCell;
use std::fmt::Write as _;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::decode::{Leniency, LeniencyKind};

#[derive(Debug, Clone, Copy)]
enum Segment {
    Key(&'static str),
    Index(usize),
}

#[derive(Default)]
struct State {
    path: Vec<Segment>,
    /// `Some` inside a [`Session`]: the report being collected.
    report: Option<Vec<Leniency>>,
    /// The pointer of the innermost failure, kept until the session ends.
    failed_at: Option<String>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
    /// What the decode running on this thread records (see [`Mode`]).
    static MODE: std::cell::Cell<Mode> = const { std::cell::Cell::new(Mode::Plain) };
    /// Set when the optimistic pass met a leniency event: the careful pass must then run to
    /// record it with its pointer (the optimistic pass tracks no path).
    static EVENT_SEEN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// How the decode running on this thread is driven.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// No [`Session`]: plain serde (`serde_json::from_slice` and the like). Leniency is applied
    /// but nobody reads a report or a failure pointer, so no path is tracked.
    Plain,
    /// The first pass of [`crate::decode::decode`]: leniency seeds decode straight from the
    /// input without buffering, any failure fails the pass, and no path is tracked.
    Optimistic,
    /// The careful pass of a [`Session`]: the path is tracked, leniency is recorded.
    Careful,
}

fn mode() -> Mode {
    MODE.with(std::cell::Cell::get)
}

fn set_mode(mode: Mode) {
    MODE.with(|m| m.set(mode));
}

fn optimistic() -> bool {
    mode() == Mode::Optimistic
}

fn pointer_of(path: &[Segment], last: Option<Segment>) -> String {
    let mut out = String::new();
    for segment in path.iter().copied().chain(last) {
        out.push('/');
        match segment {
            Segment::Key(key) => {
                for c in key.chars() {
                    match c {
                        '~' => out.push_str("~0"),
                        '/' => out.push_str("~1"),
                        c => out.push(c),
                    }
                }
            }
            Segment::Index(i) => {
                let _ = write!(out, "{i}");
            }
        }
    }
    out
}

/// Orders RFC 6901 pointers segment by segment, array indices numerically.
fn pointer_order(a: &str, b: &str) -> std::cmp::Ordering {
    let mut left = a.split('/');
    let mut right = b.split('/');
    loop {
        match (left.next(), right.next()) {
            (None, None) => return std::cmp::Ordering::Equal,
            (None, Some(_)) => return std::cmp::Ordering::Less,
            (Some(_), None) => return std::cmp::Ordering::Greater,
            (Some(x), Some(y)) => {
                let order = match (x.parse::<u64>(), y.parse::<u64>()) {
                    (Ok(x), Ok(y)) => x.cmp(&y),
                    _ => x.cmp(y),
                };
                if order.is_ne() {
                    return order;
                }
            }
        }
    }
}

/// A decode with a report; ends with [`Session::finish`].
pub(crate) struct Session(());

impl Session {
    /// Begins a session whose first pass is optimistic (see [`Session::restart_careful`]).
    pub(crate) fn begin_optimistic() -> Self {
        let session = Self::begin();
        set_mode(Mode::Optimistic);
        EVENT_SEEN.with(|e| e.set(false));
        session
    }

    /// Whether the optimistic pass met a leniency event (so its report must come from a
    /// careful pass).
    pub(crate) fn saw_event(&self) -> bool {
        EVENT_SEEN.with(std::cell::Cell::get)
    }

    /// Ends the optimistic pass: clears what it recorded and continues carefully.
    pub(crate) fn restart_careful(self) -> Self {
        drop(self);
        Self::begin()
    }

    pub(crate) fn begin() -> Self {
        set_mode(Mode::Careful);
        STATE.with(|s| {
            let mut s = s.borrow_mut();
            s.path.clear();
            s.report = Some(Vec::new());
            s.failed_at = None;
        });
        Self(())
    }

    pub(crate) fn finish(self) -> (Vec<Leniency>, Option<String>) {
        let (mut report, failed_at) = STATE.with(|s| {
            let mut s = s.borrow_mut();
            s.path.clear();
            (s.report.take().unwrap_or_default(), s.failed_at.take())
        });
        // Decode order depends on how serde_json orders a buffered object's members (its
        // `preserve_order` feature); document order of the pointers does not.
        report.sort_by(|a, b| pointer_order(&a.pointer, &b.pointer));
        (report, failed_at)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        set_mode(Mode::Plain);
        STATE.with(|s| {
            let mut s = s.borrow_mut();
            s.report = None;
            s.failed_at = None;
            s.path.clear();
        });
    }
}

/// Runs `f` with `segment` pushed onto the path; on failure records where (innermost wins).
fn within<T, E>(segment: Segment, f: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
    // Only the careful pass tracks the path: in the optimistic pass any failure or leniency
    // event sends decoding to the careful pass, and plain serde has nobody to tell.
    if mode() != Mode::Careful {
        return f();
    }
    STATE.with(|s| s.borrow_mut().path.push(segment));
    let result = f();
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if result.is_err() && s.report.is_some() && s.failed_at.is_none() {
            s.failed_at = Some(pointer_of(&s.path, None));
        }
        s.path.pop();
    });
    result
}

/// Records a leniency event at the current path (plus `last`), inside a session only.
fn record(kind: LeniencyKind, last: Option<Segment>, raw: impl FnOnce() -> Value) {
    match mode() {
        Mode::Plain => return,
        Mode::Optimistic => {
            EVENT_SEEN.with(|e| e.set(true));
            return;
        }
        Mode::Careful => {}
    }
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if s.report.is_some() {
            let pointer = pointer_of(&s.path, last);
            let raw = raw();
            if let Some(report) = s.report.as_mut() {
                report.push(Leniency { pointer, kind, raw });
            }
        }
    });
}

/// Reports an unknown enum value or union tag at the current path (the member being decoded).
pub fn report_unknown(kind: LeniencyKind, raw: impl FnOnce() -> Value) {
    record(kind, None, raw);
}

/// A report position, to roll back events recorded by an attempt that failed.
pub fn mark() -> (usize, bool) {
    STATE.with(|s| {
        let s = s.borrow();
        (s.report.as_ref().map_or(0, Vec::len), s.failed_at.is_some())
    })
}

/// Drops events recorded since `mark` and a failure recorded since then.
pub fn rollback(mark: (usize, bool)) {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if let Some(report) = s.report.as_mut() {
            report.truncate(mark.0);
        }
        if !mark.1 {
            s.failed_at = None;
        }
    });
}

/// How one member's value is decoded: the seeds below, composed by generated code. Every
/// generated type is owned, so a seed decodes from any deserializer lifetime (including a
/// buffered [`Value`]).
pub trait Seed: Copy {
    type Value;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error>;

    /// Decodes, or gives back the raw JSON of a value the seed rejects (for
    /// `x-deserialize-default-on-error`), without failing the stream. The default captures the
    /// value's text and decodes from it; seeds that can only reject a value at its first token
    /// override it to decode straight from the stream.
    fn run_or_raw<'de, D: Deserializer<'de>>(
        self,
        d: D,
    ) -> Result<Result<Self::Value, Value>, D::Error> {
        let raw = Box::<RawValue>::deserialize(d)?;
        let before = mark();
        match from_raw_text(self, &raw) {
            Ok(value) => Ok(Ok(value)),
            Err(error) if is_recursion_limit(&error) => Err(de::Error::custom(error)),
            Err(_) => {
                rollback(before);
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
impl<T> Plain<T> {
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}
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

/// Decodes `Box<T>` with the inner seed.
#[derive(Clone, Copy)]
pub struct Boxed<S>(pub S);
impl<S: Seed> Seed for Boxed<S> {
    type Value = Box<S::Value>;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.run(d).map(Box::new)
    }
}

/// Decodes `null` as `None`, anything else with the inner seed.
#[derive(Clone, Copy)]
pub struct Opt<S>(pub S);
impl<S: Seed> Seed for Opt<S> {
    type Value = Option<S::Value>;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        struct V<S>(S);
        impl<'de, S: Seed> Visitor<'de> for V<S> {
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
        d.deserialize_option(V(self.0))
    }

    fn run_or_raw<'de, D: Deserializer<'de>>(
        self,
        d: D,
    ) -> Result<Result<Self::Value, Value>, D::Error> {
        struct V<S>(S);
        impl<'de, S: Seed> Visitor<'de> for V<S> {
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
        d.deserialize_option(V(self.0))
    }
}

/// Decodes `null` as [`crate::MaybeUndefined::Null`], anything else as `Value`.
#[derive(Clone, Copy)]
pub struct Nullable<S>(pub S);
impl<S: Seed> Seed for Nullable<S> {
    type Value = crate::MaybeUndefined<S::Value>;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        Opt(self.0)
            .run(d)
            .map(|v| v.map_or(crate::MaybeUndefined::Null, crate::MaybeUndefined::Value))
    }

    fn run_or_raw<'de, D: Deserializer<'de>>(
        self,
        d: D,
    ) -> Result<Result<Self::Value, Value>, D::Error> {
        Ok(Opt(self.0)
            .run_or_raw(d)?
            .map(|v| v.map_or(crate::MaybeUndefined::Null, crate::MaybeUndefined::Value)))
    }
}

/// Decodes an array, pushing each item's index onto the path.
#[derive(Clone, Copy)]
pub struct Seq<S>(pub S);
impl<S: Seed> Seed for Seq<S> {
    type Value = Vec<S::Value>;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        struct V<S>(S);
        impl<'de, S: Seed> Visitor<'de> for V<S> {
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
        d.deserialize_seq(V(self.0))
    }
}

/// `x-deserialize-skip-invalid-items`: an item the inner seed rejects is skipped and reported
/// as [`LeniencyKind::SkippedItem`] with the item's pointer and JSON.
#[derive(Clone, Copy)]
pub struct SkipInvalid<S>(pub S);
impl<S: Seed> Seed for SkipInvalid<S> {
    type Value = Vec<S::Value>;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        if optimistic() {
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
        struct V<S>(S);
        impl<'de, S: Seed> Visitor<'de> for V<S> {
            type Value = Result<Vec<S::Value>, Value>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                // Each item is captured as raw text and decoded from it, so that an invalid
                // item can be skipped without losing the stream.
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
                let mut index = 0;
                while let Some(item) = seq.next_element::<Box<RawValue>>()? {
                    let before = mark();
                    match within(Segment::Index(index), || from_raw_text(self.0, &item)) {
                        Ok(value) => out.push(value),
                        Err(error) if is_recursion_limit(&error) => {
                            return Err(de::Error::custom(error));
                        }
                        Err(_) => {
                            rollback(before);
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
                Value::deserialize(de::value::MapAccessDeserializer::new(map)).map(Err)
            }
        }
        d.deserialize_any(V(self.0))
    }
}

/// serde_json's nesting guard: never absorbed by declared leniency (it is a limit, not a
/// malformed value).
fn is_recursion_limit(error: &serde_json::Error) -> bool {
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

/// `x-deserialize-default-on-error`: a value the inner seed rejects decodes as `None` and is
/// reported as [`LeniencyKind::Defaulted`] (or [`LeniencyKind::UnknownValue`] when `enum_hint`
/// is set and the value is a string: an unknown value of a string enum).
#[derive(Clone, Copy)]
pub struct DefaultOnError<S> {
    pub seed: S,
    pub enum_hint: bool,
}
impl<S: Seed> Seed for DefaultOnError<S> {
    type Value = Option<S::Value>;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        if optimistic() {
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

/// `x-deserialize-default-on-null`: `null` decodes as `None` and is reported as
/// [`LeniencyKind::Defaulted`]; any other value goes to the inner seed.
#[derive(Clone, Copy)]
pub struct DefaultOnNull<S>(pub S);
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

/// Decodes any JSON value (`serde_json::Value`), which never rejects one: with
/// `x-deserialize-default-on-error` nothing needs capturing.
#[derive(Clone, Copy, Default)]
pub struct AnyValue;
impl Seed for AnyValue {
    type Value = Value;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn run_or_raw<'de, D: Deserializer<'de>>(self, d: D) -> Result<Result<Value, Value>, D::Error> {
        Value::deserialize(d).map(Ok)
    }
}

/// Decodes the value of the member `key` with `seed`, with `key` on the path.
///
/// # Errors
/// The seed's error; the failure's pointer is kept for [`crate::decode::decode`].
pub fn member<'de, A: MapAccess<'de>, S: Seed>(
    map: &mut A,
    key: &'static str,
    seed: S,
) -> Result<S::Value, A::Error> {
    within(Segment::Key(key), || map.next_value_seed(Adapter(seed)))
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
    within(Segment::Key(key), || seed.run(value))
}

/// Fails for a duplicate member, as serde's derive does.
pub fn duplicate<E: de::Error>(key: &'static str) -> E {
    E::duplicate_field(key)
}

/// Fails for a missing required member, as serde's derive does.
pub fn missing<E: de::Error>(key: &'static str) -> E {
    E::missing_field(key)
}

/// A member name, borrowed from the input when it can be.
pub struct Key<'de>(pub std::borrow::Cow<'de, str>);
impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a member name")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(v)))
            }
        }
        d.deserialize_identifier(V)
    }
}

/// Converts an error from decoding a buffered [`Value`] into the outer deserializer's error.
pub fn lift<E: de::Error>(error: serde_json::Error) -> E {
    E::custom(error)
}

impl<T> Default for Plain<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Buffers an object (for structs with a flattened union).
///
/// # Errors
/// When the value is not an object.
pub fn object<'de, D: Deserializer<'de>>(
    d: D,
    expecting: &'static str,
) -> Result<serde_json::Map<String, Value>, D::Error> {
    match Value::deserialize(d)? {
        Value::Object(map) => Ok(map),
        other => Err(de::Error::invalid_type(unexpected(&other), &expecting)),
    }
}

fn unexpected(value: &Value) -> de::Unexpected<'_> {
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

/// A string value, borrowed from the input when it can be.
///
/// # Errors
/// When the value is not a string.
pub fn string<'de, D: Deserializer<'de>>(d: D) -> Result<std::borrow::Cow<'de, str>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = std::borrow::Cow<'de, str>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
            Ok(std::borrow::Cow::Borrowed(v))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(std::borrow::Cow::Owned(v.to_owned()))
        }
        fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
            Ok(std::borrow::Cow::Owned(v))
        }
    }
    d.deserialize_str(V)
}

/// The tag of a union object: `None` when the member is absent or `null`.
///
/// # Errors
/// When the value is not an object, or the tag is not a string.
pub fn tag_of(
    raw: &Value,
    tag: &'static str,
    union: &'static str,
    has_fallback: bool,
) -> Result<Option<String>, serde_json::Error> {
    let Value::Object(map) = raw else {
        return Err(de::Error::invalid_type(
            unexpected(raw),
            &format!("an object (`{union}`)").as_str(),
        ));
    };
    match map.get(tag) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        // A fallback branch does not constrain the tag member: a non-string there selects it.
        Some(_) if has_fallback => Ok(None),
        Some(other) => within(Segment::Key(tag), || {
            Err(de::Error::custom(format_args!(
                "tag `{tag}` of `{union}` must be a string, found {other}"
            )))
        }),
    }
}

fn expected_list(known: &[&str]) -> String {
    known
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The error for a tag value no variant has.
pub fn unknown_tag(
    tag: &'static str,
    value: &str,
    union: &'static str,
    known: &[&str],
) -> serde_json::Error {
    let error = de::Error::custom(format_args!(
        "unknown `{tag}` value `{value}` for `{union}`, expected one of {}",
        expected_list(known)
    ));
    let _: Result<(), ()> = within(Segment::Key(tag), || Err(()));
    error
}

/// The error for a missing (or `null`) tag.
pub fn missing_tag(tag: &'static str, union: &'static str, known: &[&str]) -> serde_json::Error {
    let error = de::Error::custom(format_args!(
        "missing tag `{tag}` for `{union}`, expected one of {}",
        expected_list(known)
    ));
    let _: Result<(), ()> = within(Segment::Key(tag), || Err(()));
    error
}

/// The error when no variant of an untagged union accepts the value.
pub fn no_variant(union: &'static str, raw: &Value) -> serde_json::Error {
    let kind = match raw {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    let error = de::Error::custom(format_args!("{kind} that matches no variant of `{union}`"));
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if s.report.is_some() && s.failed_at.is_none() {
            s.failed_at = Some(pointer_of(&s.path, None));
        }
    });
    error
}

/// Reports a tag value kept by a catch-all variant.
pub fn unknown_variant(tag: &'static str, value: &str) {
    record(
        LeniencyKind::UnknownVariant,
        Some(Segment::Key(tag)),
        || Value::from(value),
    );
}

/// Serializes `payload` (an object) with the member `tag: value` first, in one pass: the
/// payload's own members are forwarded into the same object as they are produced (a `tag`
/// member of the payload's own is left out).
///
/// # Errors
/// The serializer's error, or when the payload is not an object.
pub fn tagged<S: serde::Serializer, P: serde::Serialize>(
    serializer: S,
    tag: &'static str,
    value: &'static str,
    payload: &P,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = serializer.serialize_map(None)?;
    map.serialize_entry(tag, value)?;
    payload.serialize(FlatInto {
        map: &mut map,
        skip: Some(tag),
    })?;
    map.end()
}

macro_rules! not_an_object {
    ($($method:ident($($arg:ty),*);)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<Self::Ok, Self::Error> {
            self.not_an_object()
        })*
    };
}

/// Writes the members of `value` into the map being written, as serde's `#[serde(flatten)]`
/// does: `value` must serialize as an object (a struct or a map), or as nothing (`None`, unit).
/// Generated `Serialize` impls use it for a flattened union and for kept unknown members.
///
/// # Errors
/// The serializer's error, or when `value` is not an object.
pub fn flatten_into<M: serde::ser::SerializeMap, T: serde::Serialize + ?Sized>(
    map: &mut M,
    value: &T,
) -> Result<(), M::Error> {
    value.serialize(FlatInto { map, skip: None })
}

/// The serializer of [`flatten_into`] and [`tagged`]: forwards an object's members into an open
/// map, leaving out the struct field `skip`.
struct FlatInto<'a, M> {
    map: &'a mut M,
    skip: Option<&'static str>,
}

/// The object being forwarded by `FlatInto` (see [`flatten_into`]).
pub struct FlatIntoMap<'a, M> {
    map: &'a mut M,
    skip: Option<&'static str>,
}

impl<M: serde::ser::SerializeMap> FlatInto<'_, M> {
    fn not_an_object<T>(self) -> Result<T, M::Error> {
        Err(serde::ser::Error::custom(
            "a flattened member must be an object",
        ))
    }
}

impl<M: serde::ser::SerializeMap> serde::ser::SerializeMap for FlatIntoMap<'_, M> {
    type Ok = ();
    type Error = M::Error;
    fn serialize_key<T: serde::Serialize + ?Sized>(&mut self, key: &T) -> Result<(), M::Error> {
        self.map.serialize_key(key)
    }
    fn serialize_value<T: serde::Serialize + ?Sized>(&mut self, value: &T) -> Result<(), M::Error> {
        self.map.serialize_value(value)
    }
    fn serialize_entry<K: serde::Serialize + ?Sized, V: serde::Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), M::Error> {
        self.map.serialize_entry(key, value)
    }
    fn end(self) -> Result<(), M::Error> {
        Ok(())
    }
}

impl<M: serde::ser::SerializeMap> serde::ser::SerializeStruct for FlatIntoMap<'_, M> {
    type Ok = ();
    type Error = M::Error;
    fn serialize_field<T: serde::Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), M::Error> {
        if self.skip == Some(key) {
            return Ok(());
        }
        self.map.serialize_entry(key, value)
    }
    fn end(self) -> Result<(), M::Error> {
        Ok(())
    }
}

impl<'a, M: serde::ser::SerializeMap> serde::Serializer for FlatInto<'a, M> {
    type Ok = ();
    type Error = M::Error;
    type SerializeSeq = serde::ser::Impossible<(), M::Error>;
    type SerializeTuple = serde::ser::Impossible<(), M::Error>;
    type SerializeTupleStruct = serde::ser::Impossible<(), M::Error>;
    type SerializeTupleVariant = serde::ser::Impossible<(), M::Error>;
    type SerializeMap = FlatIntoMap<'a, M>;
    type SerializeStruct = FlatIntoMap<'a, M>;
    type SerializeStructVariant = serde::ser::Impossible<(), M::Error>;

    not_an_object! {
        serialize_bool(bool);
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_f32(f32);
        serialize_f64(f64);
        serialize_char(char);
        serialize_str(&str);
        serialize_bytes(&[u8]);
        serialize_unit_variant(&'static str, u32, &'static str);
    }

    fn serialize_none(self) -> Result<(), M::Error> {
        Ok(())
    }
    fn serialize_unit(self) -> Result<(), M::Error> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), M::Error> {
        Ok(())
    }
    fn serialize_some<T: serde::Serialize + ?Sized>(self, value: &T) -> Result<(), M::Error> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: serde::Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), M::Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: serde::Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), M::Error> {
        self.not_an_object()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, M::Error> {
        self.not_an_object()
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, M::Error> {
        self.not_an_object()
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, M::Error> {
        self.not_an_object()
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, M::Error> {
        self.not_an_object()
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, M::Error> {
        Ok(FlatIntoMap {
            map: self.map,
            skip: self.skip,
        })
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, M::Error> {
        Ok(FlatIntoMap {
            map: self.map,
            skip: self.skip,
        })
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, M::Error> {
        self.not_an_object()
    }
}

/// Serializes the raw JSON of a catch-all variant (`Unknown`), which must be an object with a
/// string tag: anything else would not decode back as that union.
///
/// # Errors
/// The serializer's error, or when `raw` is not an object with a string `tag`.
pub fn unknown_variant_value<S: serde::Serializer>(
    serializer: S,
    raw: &Value,
    tag: &'static str,
    union: &'static str,
) -> Result<S::Ok, S::Error> {
    match raw {
        Value::Object(object) if object.get(tag).is_some_and(Value::is_string) => {
            serde::Serialize::serialize(raw, serializer)
        }
        _ => Err(serde::ser::Error::custom(format_args!(
            "the raw JSON of an unknown `{union}` must be an object with a string `{tag}`"
        ))),
    }
}

/// Serializes the object `{tag: value}`.
///
/// # Errors
/// The serializer's error.
pub fn tag_only<S: serde::Serializer>(
    serializer: S,
    tag: &'static str,
    value: &'static str,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = serializer.serialize_map(Some(1))?;
    map.serialize_entry(tag, value)?;
    map.end()
}

/// Serializes `{}`.
///
/// # Errors
/// The serializer's error.
pub fn empty_object<S: serde::Serializer>(serializer: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    serializer.serialize_map(Some(0))?.end()
}

/// A tagged union the generated code decodes: by streaming when the tag is the first member,
/// by buffering the object otherwise.
pub trait Tagged: Sized {
    /// The tag member.
    const TAG: &'static str;
    /// The union's name, for messages.
    const NAME: &'static str;
    /// Whether a branch without the tag exists (taken when the tag is absent, `null`, not a
    /// string, or unknown).
    const HAS_FALLBACK: bool;
    /// Decodes from a buffered object.
    ///
    /// # Errors
    /// A wrong or missing tag, or the variant's error.
    fn from_raw(raw: Value) -> Result<Self, serde_json::Error>;
    /// Decodes the rest of an object whose first member was the tag (`None` for `null`).
    ///
    /// # Errors
    /// A wrong or missing tag, or the variant's error.
    fn from_stream<'de, A: MapAccess<'de>>(tag: Option<&str>, map: A) -> Result<Self, A::Error>;
}

/// Decodes a [`Tagged`] union: reads the first member; when it is the tag, the rest of the
/// object goes straight to the variant; otherwise the object is buffered to find the tag.
///
/// # Errors
/// When the value is not an object, or the union's own errors.
pub fn tagged_union<'de, D: Deserializer<'de>, U: Tagged>(d: D) -> Result<U, D::Error> {
    struct V<U>(PhantomData<U>);
    impl<'de, U: Tagged> Visitor<'de> for V<U> {
        type Value = U;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "an object (`{}`)", U::NAME)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<U, A::Error> {
            let Some(first) = map.next_key::<Key<'de>>()? else {
                return U::from_raw(Value::Object(serde_json::Map::new())).map_err(lift);
            };
            let first_value = if first.0 == U::TAG {
                let tag = within(Segment::Key(U::TAG), || string_or_null::<A, U>(&mut map))?;
                match tag {
                    TagValue::Tag(tag) => {
                        // A second tag member would otherwise reach the payload as an unknown
                        // member, and be written back beside the tag.
                        let map = TagGuard { map, tag: U::TAG };
                        return U::from_stream(tag.as_deref(), map);
                    }
                    // A non-string tag for a union with a fallback: decide on the whole object.
                    TagValue::Other(value) => value,
                }
            } else {
                map.next_value::<Value>()?
            };
            let mut object = serde_json::Map::new();
            object.insert(first.0.into_owned(), first_value);
            while let Some((key, value)) = map.next_entry::<String, Value>()? {
                insert_once(&mut object, key, value)?;
            }
            U::from_raw(Value::Object(object)).map_err(lift)
        }
    }
    d.deserialize_map(V(PhantomData))
}

/// Inserts a member of an object being buffered; a member that is already there fails, as
/// serde's derive fails for a repeated field (a buffered object would otherwise keep the last
/// value silently).
fn insert_once<E: de::Error>(
    object: &mut serde_json::Map<String, Value>,
    key: String,
    value: Value,
) -> Result<(), E> {
    if object.contains_key(&key) {
        return Err(E::custom(format_args!("duplicate field `{key}`")));
    }
    object.insert(key, value);
    Ok(())
}

/// Keeps a member the schema does not define (generated `unknown_members`); the same member
/// twice fails, as a repeated defined member does.
///
/// # Errors
/// `duplicate field` when `key` is already kept.
pub fn keep_unknown<E: de::Error>(
    kept: &mut serde_json::Map<String, Value>,
    key: &str,
    value: Value,
) -> Result<(), E> {
    insert_once(kept, key.to_owned(), value)
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
            return within(Segment::Key(self.tag), || Err(duplicate(self.tag)));
        }
        let key = match key {
            std::borrow::Cow::Borrowed(key) => {
                seed.deserialize(de::value::BorrowedStrDeserializer::<A::Error>::new(key))
            }
            std::borrow::Cow::Owned(key) => {
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

enum TagValue {
    Tag(Option<String>),
    Other(Value),
}

fn string_or_null<'de, A: MapAccess<'de>, U: Tagged>(map: &mut A) -> Result<TagValue, A::Error> {
    match map.next_value::<Value>()? {
        Value::Null => Ok(TagValue::Tag(None)),
        Value::String(s) => Ok(TagValue::Tag(Some(s))),
        other if U::HAS_FALLBACK => Ok(TagValue::Other(other)),
        other => Err(de::Error::custom(format_args!(
            "tag `{}` of `{}` must be a string, found {other}",
            U::TAG,
            U::NAME
        ))),
    }
}

/// Skips the rest of an object.
///
/// # Errors
/// The input's errors.
pub fn drain<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map
        .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
        .is_some()
    {}
    Ok(())
}

/// The rest of an object as JSON, with the tag member put back.
///
/// # Errors
/// The input's errors.
pub fn rest_with_tag<'de, A: MapAccess<'de>>(
    mut map: A,
    tag: &'static str,
    value: Option<&str>,
) -> Result<Value, A::Error> {
    let mut object = serde_json::Map::new();
    object.insert(tag.to_owned(), value.map_or(Value::Null, Value::from));
    while let Some((key, value)) = map.next_entry::<String, Value>()? {
        insert_once(&mut object, key, value)?;
    }
    Ok(Value::Object(object))
}

/// A copy of an object without the member `key` (the tag, before decoding a variant's payload).
#[must_use]
pub fn without(raw: &Value, key: &str) -> Value {
    match raw {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| k.as_str() != key)
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}
