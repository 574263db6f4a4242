//! A deserializer adapter for the SIMD pass (feature `simd`): it hands the generated impls what
//! sonic-rs reads, and trips (fails the pass, so that serde_json reads the input instead)
//! on what sonic-rs may read differently from serde_json.
//!
//! It trips on (and for a float reads on to the end, the pass's value unused):
//! - a number read as an `f64` (`visit_f64`): negative zero (sonic-rs reads `-0` as `0.0`,
//!   serde_json as `-0.0`), every fraction and exponent (serde_json's default float parsing is
//!   not correctly rounded for every input; sonic-rs's is), and every integer outside
//!   `i64::MIN..=u64::MAX` (both read it as an `f64`). Integers within that range are read
//!   exactly by both.
//! - nesting deeper than [`MAX_DEPTH`] arrays and objects that a visitor walks (serde_json
//!   refuses the 128th level, sonic-rs past 255; and below that sonic-rs takes more stack);
//! - an externally tagged enum: not walked here, so not guarded.
//!
//! Every value is read with sonic-rs's `deserialize_any` (but `Option`s and newtype structs,
//! which sonic-rs reads without skipping anything), and the visitor refuses a value of the wrong
//! kind: sonic-rs's typed methods skip such a value recursively, with no depth limit, to name it
//! in their error. A skipped value (`IgnoredAny`) is walked with visitors
//! too, so that its nesting is guarded (serde_json skips at any depth; sonic-rs's own skipping
//! recurses on the stack: 200 levels overflowed a 2 MiB thread in a debug build).

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// The deepest nesting the SIMD pass walks: where sonic-rs's stack use stays within
/// serde_json's at serde_json's own limit of 128 levels. sonic-rs's frames are larger
/// (measured with `ToolCallLocation` and a nested `_meta`, least stack for a decode to
/// succeed: release, 64 levels 47 KiB against serde_json's 55 KiB at 120; a debug build, 16
/// levels 315 KiB against serde_json's 295 KiB at 120, about 20 KiB a level where serde_json
/// takes 2.3 KiB), so deeper input is decoded by serde_json, which refuses the 128th level as before.
pub(super) const MAX_DEPTH: usize = if cfg!(debug_assertions) { 16 } else { 64 };

/// What the guard saw during one pass.
#[derive(Default)]
pub(super) struct Watch {
    depth: Cell<usize>,
    tripped: Cell<bool>,
}

impl Watch {
    /// Whether the pass met something sonic-rs may read differently: its result is not used.
    pub(super) fn tripped(&self) -> bool {
        self.tripped.get()
    }

    fn trip<E: de::Error>(&self, what: &str) -> E {
        self.tripped.set(true);
        E::custom(format_args!("{what}: left to serde_json"))
    }
}

/// A deserializer whose visitors are guarded by `watch`.
pub(super) struct Guard<'w, D> {
    inner: D,
    watch: &'w Watch,
}

impl<'w, D> Guard<'w, D> {
    pub(super) fn new(inner: D, watch: &'w Watch) -> Self {
        Self { inner, watch }
    }
}

/// What serde_json's typed method of that name hands its visitor; anything else it refuses.
/// Reading through `deserialize_any` gives the visitor whatever the input holds, and some
/// visitors take more than their type's method would give them (serde_json's `Map` visitor
/// takes a unit: `null` would decode as `{}`), so the guard trips on any other kind and the
/// serde_json pass decides.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Accepts {
    /// `deserialize_any`, `deserialize_ignored_any`, and `deserialize_option`'s value.
    Any,
    /// `deserialize_bool`: `true`, `false`.
    Bool,
    /// The integer and float methods: a number.
    Number,
    /// `deserialize_str`, `deserialize_string`, `deserialize_char`, `deserialize_identifier`:
    /// a string.
    Str,
    /// `deserialize_unit`, `deserialize_unit_struct`: `null`.
    Unit,
    /// `deserialize_seq`, `deserialize_tuple`, `deserialize_tuple_struct`: an array.
    Seq,
    /// `deserialize_map`: an object.
    Map,
    /// `deserialize_struct`: an object or an array.
    Struct,
}

impl Accepts {
    fn bool(self) -> bool {
        matches!(self, Self::Any | Self::Bool)
    }

    fn number(self) -> bool {
        matches!(self, Self::Any | Self::Number)
    }

    fn str(self) -> bool {
        matches!(self, Self::Any | Self::Str)
    }

    fn unit(self) -> bool {
        matches!(self, Self::Any | Self::Unit)
    }

    fn seq(self) -> bool {
        matches!(self, Self::Any | Self::Seq | Self::Struct)
    }

    fn map(self) -> bool {
        matches!(self, Self::Any | Self::Map | Self::Struct)
    }
}

/// Reads every value with the inner deserializer's `deserialize_any`, the visitor guarded: the
/// guard refuses (trips on) a value of another kind than the method's ([`Accepts`]). sonic-rs's
/// typed methods would instead skip a container of the wrong kind (`[` where a string is
/// expected) to name it in the error, with a recursive skip that no depth limit bounds: a
/// megabyte of `[` would overflow the stack.
macro_rules! through_any {
    ($($method:ident $(($($arg:ident: $ty:ty),*))? => $accepts:ident;)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($($arg: $ty,)*)? visitor: V) -> Result<V::Value, D::Error> {
                $($(let _ = $arg;)*)?
                self.read(Accepts::$accepts, visitor)
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Guard<'_, D> {
    fn read<V: Visitor<'de>>(self, accepts: Accepts, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_any(GuardVisitor {
            inner: visitor,
            watch: self.watch,
            accepts,
        })
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Guard<'_, D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.read(Accepts::Any, visitor)
    }

    through_any! {
        deserialize_bool => Bool;
        deserialize_i8 => Number; deserialize_i16 => Number; deserialize_i32 => Number;
        deserialize_i64 => Number; deserialize_i128 => Number; deserialize_u8 => Number;
        deserialize_u16 => Number; deserialize_u32 => Number; deserialize_u64 => Number;
        deserialize_u128 => Number; deserialize_f32 => Number; deserialize_f64 => Number;
        deserialize_char => Str; deserialize_str => Str; deserialize_string => Str;
        deserialize_identifier => Str;
        deserialize_unit => Unit;
        deserialize_unit_struct(name: &'static str) => Unit;
        deserialize_seq => Seq;
        deserialize_tuple(len: usize) => Seq;
        deserialize_tuple_struct(name: &'static str, len: usize) => Seq;
        deserialize_map => Map;
        deserialize_struct(name: &'static str, fields: &'static [&'static str]) => Struct;
    }

    /// serde_json hands a string as bytes (`visit_borrowed_bytes`) and an array as a sequence;
    /// sonic-rs may not: left to serde_json.
    fn deserialize_bytes<V: Visitor<'de>>(self, _: V) -> Result<V::Value, D::Error> {
        Err(self.watch.trip("bytes"))
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, _: V) -> Result<V::Value, D::Error> {
        Err(self.watch.trip("bytes"))
    }

    /// Walks the skipped value with visitors (sonic-rs's own skipping does not say how deep it
    /// went, and recurses on its own stack), so that its nesting is guarded too.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.read(Accepts::Any, visitor)
    }

    /// sonic-rs's own: `null` is `visit_none`, anything else `visit_some` (nothing skipped).
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_option(GuardVisitor {
            inner: visitor,
            watch: self.watch,
            accepts: Accepts::Any,
        })
    }

    /// sonic-rs's own: its private tokens, else `visit_newtype_struct` (nothing skipped).
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_newtype_struct(
            name,
            GuardVisitor {
                inner: visitor,
                watch: self.watch,
                accepts: Accepts::Any,
            },
        )
    }

    /// Not guarded: trips without reading (externally tagged enums are left to serde_json).
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, D::Error> {
        Err(self.watch.trip("an enum"))
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

struct GuardVisitor<'w, V> {
    inner: V,
    watch: &'w Watch,
    accepts: Accepts,
}

impl<V> GuardVisitor<'_, V> {
    /// Trips unless the method this visitor was handed to takes the kind `check` tells.
    fn check<E: de::Error>(&self, check: fn(Accepts) -> bool, what: &str) -> Result<(), E> {
        if check(self.accepts) {
            Ok(())
        } else {
            Err(self.watch.trip(what))
        }
    }
}

/// Forwards `visit_*` methods of one value to the inner visitor, when the method it was handed
/// to takes that kind of value.
macro_rules! forward {
    ($($method:ident($ty:ty) if $check:ident;)*) => {
        $(
            fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
                self.check(Accepts::$check, concat!("a value of another kind (", stringify!($check), ")"))?;
                self.inner.$method(v)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for GuardVisitor<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    forward! {
        visit_bool(bool) if bool;
        visit_i8(i8) if number; visit_i16(i16) if number; visit_i32(i32) if number;
        visit_i64(i64) if number; visit_i128(i128) if number; visit_u8(u8) if number;
        visit_u16(u16) if number; visit_u32(u32) if number; visit_u64(u64) if number;
        visit_u128(u128) if number;
        visit_char(char) if str; visit_str(&str) if str; visit_borrowed_str(&'de str) if str;
        visit_string(String) if str;
    }

    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<V::Value, E> {
        Err(self.watch.trip("bytes"))
    }

    fn visit_borrowed_bytes<E: de::Error>(self, _: &'de [u8]) -> Result<V::Value, E> {
        Err(self.watch.trip("bytes"))
    }

    fn visit_byte_buf<E: de::Error>(self, _: Vec<u8>) -> Result<V::Value, E> {
        Err(self.watch.trip("bytes"))
    }

    fn visit_f32<E: de::Error>(self, v: f32) -> Result<V::Value, E> {
        self.visit_f64(f64::from(v))
    }

    /// Trips, but reads on: the pass's value is not used once tripped, and failing here would
    /// have sonic-rs build an error at every level it unwinds, each with its line and column
    /// counted from the start of the input (44 % of a decode of an MCP result holding one
    /// float), which costs more than reading the rest.
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        self.watch.tripped.set(true);
        self.check(Accepts::number, "a float")?;
        self.inner.visit_f64(v)
    }

    /// Only `deserialize_option` gives `visit_none` (its visitor takes any kind).
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.check(Accepts::unit, "a null")?;
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.check(Accepts::unit, "a null")?;
        self.inner.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.inner.visit_some(Guard::new(d, self.watch))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.inner.visit_newtype_struct(Guard::new(d, self.watch))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.check(Accepts::seq, "an array")?;
        let watch = self.watch;
        nested(watch, || {
            self.inner.visit_seq(GuardSeq { inner: seq, watch })
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.check(Accepts::map, "an object")?;
        let watch = self.watch;
        nested(watch, || {
            self.inner.visit_map(GuardMap { inner: map, watch })
        })
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, _: A) -> Result<V::Value, A::Error> {
        Err(self.watch.trip("an enum"))
    }
}

/// Runs `f` one level deeper, tripping past [`MAX_DEPTH`].
fn nested<T, E: de::Error>(watch: &Watch, f: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
    let depth = watch.depth.get() + 1;
    if depth > MAX_DEPTH {
        return Err(watch.trip("deep nesting"));
    }
    watch.depth.set(depth);
    let result = f();
    watch.depth.set(depth - 1);
    result
}

struct GuardSeed<'w, S> {
    inner: S,
    watch: &'w Watch,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for GuardSeed<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.inner.deserialize(Guard::new(d, self.watch))
    }
}

struct GuardSeq<'w, A> {
    inner: A,
    watch: &'w Watch,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for GuardSeq<'_, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.inner.next_element_seed(GuardSeed {
            inner: seed,
            watch: self.watch,
        })
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

struct GuardMap<'w, A> {
    inner: A,
    watch: &'w Watch,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for GuardMap<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.inner.next_key_seed(GuardSeed {
            inner: seed,
            watch: self.watch,
        })
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.inner.next_value_seed(GuardSeed {
            inner: seed,
            watch: self.watch,
        })
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use serde::de::{Deserialize, IgnoredAny};
    use serde_json::Value;

    use super::*;

    /// Decodes `json` as `T` through sonic-rs and the guard: the value, or `None` when the
    /// guard tripped.
    fn through<T: for<'de> Deserialize<'de>>(json: &str) -> Option<Result<T, String>> {
        let watch = Watch::default();
        let mut de = sonic_rs::Deserializer::from_str(json);
        let value = T::deserialize(Guard::new(&mut de, &watch)).map_err(|e| e.to_string());
        (!watch.tripped()).then_some(value)
    }

    #[test]
    fn integers_strings_and_literals_pass() {
        let json = r#"{"a":[1,-2,18446744073709551615,-9223372036854775808],"b":"x\ny","c":[true,null,{}]}"#;
        assert_eq!(
            through::<Value>(json),
            Some(Ok(serde_json::from_str::<Value>(json).unwrap()))
        );
    }

    #[test]
    fn floats_trip() {
        for json in [
            "-0",
            "[-0.0]",
            r#"{"a":1.5}"#,
            "1e2",
            "18446744073709551616",
            "-9223372036854775809",
        ] {
            assert!(through::<Value>(json).is_none(), "{json}");
        }
        assert!(through::<f64>("2.5").is_none());
        assert_eq!(through::<f64>("2"), Some(Ok(2.0)));
    }

    #[test]
    fn nesting_past_the_limit_trips_also_when_skipped() {
        let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(through::<Value>(&nested(MAX_DEPTH)).is_some_and(|v| v.is_ok()));
        assert!(through::<Value>(&nested(MAX_DEPTH + 1)).is_none());
        assert!(through::<IgnoredAny>(&nested(MAX_DEPTH)).is_some_and(|v| v.is_ok()));
        assert!(through::<IgnoredAny>(&nested(MAX_DEPTH + 1)).is_none());
        // A float inside a skipped value trips too (serde_json then reads the input).
        assert!(through::<IgnoredAny>("[1.5]").is_none());
    }

    /// A type read as an externally tagged enum.
    #[derive(Debug)]
    struct Enum;

    impl<'de> Deserialize<'de> for Enum {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Enum;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("an enum")
                }
                fn visit_enum<A: de::EnumAccess<'de>>(self, _: A) -> Result<Enum, A::Error> {
                    Ok(Enum)
                }
            }
            d.deserialize_enum("Enum", &["A"], V)
        }
    }

    /// What serde_json's typed methods refuse, the guard trips on, even where the visitor
    /// would take it: serde_json's `Map` visitor takes a unit (`null` would decode as `{}`
    /// through `deserialize_any`).
    #[test]
    fn a_value_of_another_kind_than_the_method_takes_trips() {
        type Object = serde_json::Map<String, Value>;
        assert!(through::<Object>("null").is_none());
        assert!(through::<Option<Object>>("null").is_some_and(|v| v == Ok(None)));
        assert!(through::<Option<Object>>(r#"{"a":1}"#).is_some_and(|v| v.is_ok()));
        assert!(through::<String>("1").is_none());
        assert!(through::<u64>(r#""1""#).is_none());
        assert!(through::<bool>("null").is_none());
        assert!(through::<()>("null").is_some_and(|v| v.is_ok()));
        assert!(through::<()>("1").is_none());
        assert!(through::<Vec<u64>>(r#"{"a":1}"#).is_none());
        assert_eq!(through::<Vec<u64>>("[1,2]"), Some(Ok(vec![1, 2])));
    }

    #[test]
    fn enums_trip() {
        assert!(through::<Enum>(r#"{"A":1}"#).is_none());
    }
}
