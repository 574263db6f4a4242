//! Writing objects: optional members, and the members of a nested value written into the
//! object being written (a flattened union, kept unknown members, a tagged union's payload).

use serde::ser::{self, Impossible, Serialize, SerializeMap, SerializeStruct, Serializer};

/// A member value that may be absent: `None` and [`crate::MaybeUndefined::Undefined`] are not
/// written.
pub trait Present {
    /// Whether the member is written.
    fn is_present(&self) -> bool;
}

impl<T> Present for Option<T> {
    fn is_present(&self) -> bool {
        self.is_some()
    }
}

impl<T> Present for crate::MaybeUndefined<T> {
    fn is_present(&self) -> bool {
        !self.is_undefined()
    }
}

/// Writes member `key` unless its value is absent.
///
/// # Errors
/// The serializer's.
pub fn entry<M: SerializeMap, T: Present + Serialize>(
    map: &mut M,
    key: &'static str,
    value: &T,
) -> Result<(), M::Error> {
    if value.is_present() {
        map.serialize_entry(key, value)
    } else {
        Ok(())
    }
}

/// Writes the members of `value` into the map being written, as serde's `#[serde(flatten)]`
/// does: `value` must serialize as an object (a struct or a map), or as nothing (`None`, unit).
///
/// # Errors
/// The serializer's error, or when `value` is not an object.
pub fn flatten_into<M: SerializeMap, T: Serialize + ?Sized>(
    map: &mut M,
    value: &T,
) -> Result<(), M::Error> {
    value.serialize(FlatInto { map, skip: None })
}

/// Writes `payload` (an object) with the member `tag: value` first, in one pass: the payload's
/// members are forwarded into the same object as they are produced (a `tag` member of the
/// payload's own is left out).
///
/// # Errors
/// The serializer's error, or when the payload is not an object.
pub fn tagged<S: Serializer, P: Serialize>(
    serializer: S,
    tag: &'static str,
    value: &'static str,
    payload: &P,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(None)?;
    map.serialize_entry(tag, value)?;
    payload.serialize(FlatInto {
        map: &mut map,
        skip: Some(tag),
    })?;
    map.end()
}

/// Writes the object `{tag: value}`.
///
/// # Errors
/// The serializer's.
pub fn tag_only<S: Serializer>(
    serializer: S,
    tag: &'static str,
    value: &'static str,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(1))?;
    map.serialize_entry(tag, value)?;
    map.end()
}

/// Writes the raw JSON of a catch-all variant (`Unknown`), which must be an object with a string
/// tag: anything else would not decode back as that union.
///
/// # Errors
/// The serializer's error, or when `raw` is not an object with a string `tag`.
pub fn unknown_variant<S: Serializer>(
    serializer: S,
    raw: &serde_json::Value,
    tag: &'static str,
    union: &'static str,
) -> Result<S::Ok, S::Error> {
    match raw {
        serde_json::Value::Object(object) if object.get(tag).is_some_and(|t| t.is_string()) => {
            raw.serialize(serializer)
        }
        _ => Err(ser::Error::custom(format_args!(
            "the raw JSON of an unknown `{union}` must be an object with a string `{tag}`"
        ))),
    }
}

/// The serializer of [`flatten_into`] and [`tagged`]: forwards an object's members into an open
/// map, leaving out the struct field `skip` (a payload's own tag field).
struct FlatInto<'a, M> {
    map: &'a mut M,
    skip: Option<&'static str>,
}

/// The object being forwarded by `FlatInto`.
pub struct FlatIntoMap<'a, M> {
    map: &'a mut M,
    skip: Option<&'static str>,
}

impl<M: SerializeMap> FlatInto<'_, M> {
    fn not_an_object<T>(self) -> Result<T, M::Error> {
        Err(ser::Error::custom("a flattened member must be an object"))
    }
}

impl<M: SerializeMap> SerializeMap for FlatIntoMap<'_, M> {
    type Ok = ();
    type Error = M::Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), M::Error> {
        self.map.serialize_key(key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), M::Error> {
        self.map.serialize_value(value)
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
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

impl<M: SerializeMap> SerializeStruct for FlatIntoMap<'_, M> {
    type Ok = ();
    type Error = M::Error;
    fn serialize_field<T: Serialize + ?Sized>(
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

macro_rules! not_an_object {
    ($($method:ident($($arg:ty),*);)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<Self::Ok, Self::Error> {
            self.not_an_object()
        })*
    };
}

impl<'a, M: SerializeMap> Serializer for FlatInto<'a, M> {
    type Ok = ();
    type Error = M::Error;
    type SerializeSeq = Impossible<(), M::Error>;
    type SerializeTuple = Impossible<(), M::Error>;
    type SerializeTupleStruct = Impossible<(), M::Error>;
    type SerializeTupleVariant = Impossible<(), M::Error>;
    type SerializeMap = FlatIntoMap<'a, M>;
    type SerializeStruct = FlatIntoMap<'a, M>;
    type SerializeStructVariant = Impossible<(), M::Error>;

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
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), M::Error> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), M::Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
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
