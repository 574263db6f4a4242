//! A deserializer adapter for the SIMD pass (feature `simd`): it hands the generated impls what
//! sonic-rs reads, and trips (fails the pass, so that the careful pass on serde_json decides)
//! on what sonic-rs may read differently from serde_json.
//!
//! It trips on:
//! - a number read as an `f64` (`visit_f64`): negative zero (sonic-rs reads `-0` as `0.0`,
//!   serde_json as `-0.0`), every fraction and exponent (serde_json's default float parsing is
//!   not correctly rounded for every input; sonic-rs's is), and every integer outside
//!   `i64::MIN..=u64::MAX` (both read it as an `f64`). Integers within that range are read
//!   exactly by both.
//! - nesting deeper than [`MAX_DEPTH`] arrays and objects that a visitor walks (serde_json
//!   refuses past 128, sonic-rs past 255; and below that sonic-rs takes more stack);
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
/// takes 2.3 KiB), so deeper input is decoded by serde_json, which refuses past 128 as before.
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

/// Reads every value with the inner deserializer's `deserialize_any`, the visitor guarded: the
/// visitor then refuses a value of the wrong kind itself. sonic-rs's typed methods would instead
/// skip a container of the wrong kind (`[` where a string is expected) to name it in the error,
/// with a recursive skip that no depth limit bounds: a megabyte of `[` would overflow the stack.
macro_rules! through_any {
    ($($method:ident $(($($arg:ident: $ty:ty),*))?;)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($($arg: $ty,)*)? visitor: V) -> Result<V::Value, D::Error> {
                $($(let _ = $arg;)*)?
                self.deserialize_any(visitor)
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Guard<'_, D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_any(GuardVisitor {
            inner: visitor,
            watch: self.watch,
        })
    }

    through_any! {
        deserialize_bool; deserialize_i8; deserialize_i16; deserialize_i32; deserialize_i64;
        deserialize_i128; deserialize_u8; deserialize_u16; deserialize_u32; deserialize_u64;
        deserialize_u128; deserialize_f32; deserialize_f64; deserialize_char; deserialize_str;
        deserialize_string; deserialize_bytes; deserialize_byte_buf; deserialize_unit;
        deserialize_seq; deserialize_map; deserialize_identifier;
        deserialize_unit_struct(name: &'static str);
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
    }

    /// Walks the skipped value with visitors (sonic-rs's own skipping does not say how deep it
    /// went, and recurses on its own stack), so that its nesting is guarded too.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.deserialize_any(visitor)
    }

    /// sonic-rs's own: `null` is `visit_none`, anything else `visit_some` (nothing skipped).
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_option(GuardVisitor {
            inner: visitor,
            watch: self.watch,
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
}

/// Forwards `visit_*` methods of one value to the inner visitor.
macro_rules! forward {
    ($($method:ident($ty:ty);)*) => {
        $(
            fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
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
        visit_bool(bool); visit_i8(i8); visit_i16(i16); visit_i32(i32); visit_i64(i64);
        visit_i128(i128); visit_u8(u8); visit_u16(u16); visit_u32(u32); visit_u64(u64);
        visit_u128(u128); visit_char(char); visit_str(&str); visit_borrowed_str(&'de str);
        visit_string(String); visit_bytes(&[u8]); visit_borrowed_bytes(&'de [u8]);
        visit_byte_buf(Vec<u8>);
    }

    fn visit_f32<E: de::Error>(self, _: f32) -> Result<V::Value, E> {
        Err(self.watch.trip("a float"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<V::Value, E> {
        Err(self.watch.trip("a float"))
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.inner.visit_some(Guard::new(d, self.watch))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.inner.visit_newtype_struct(Guard::new(d, self.watch))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let watch = self.watch;
        nested(watch, || {
            self.inner.visit_seq(GuardSeq { inner: seq, watch })
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
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
        // A float inside a skipped value trips too (the careful pass then decides).
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

    #[test]
    fn enums_trip() {
        assert!(through::<Enum>(r#"{"A":1}"#).is_none());
    }
}
