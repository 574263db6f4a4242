//! The compact JSON writer of [`encode`](super::encode) without the `simd` feature: serde_json's
//! bytes, with each string scanned eight bytes at a time for the bytes JSON escapes (serde_json
//! looks at one byte at a time: 45 % of the cost of encoding an MCP `tools/list` result).
//!
//! Numbers and byte arrays are written by serde_json itself. Anything this writer does not
//! write as serde_json would (a map key that is not a string, serde_json's private raw value
//! and number tokens, an error from a `Serialize` impl) stops it, and the caller has serde_json
//! write the whole value instead: the bytes, or the error, are then serde_json's.

use std::fmt;

use serde::ser::{self, Serialize};

/// `value` as compact JSON, byte for byte what `serde_json::to_vec` writes; `None` when this
/// writer leaves the value to serde_json (see the module docs).
pub(super) fn to_vec<T: Serialize + ?Sized>(value: &T) -> Option<Vec<u8>> {
    let mut writer = Writer {
        out: Vec::with_capacity(128),
    };
    value.serialize(&mut writer).ok()?;
    Some(writer.out)
}

/// Why the writer stopped: the value is left to serde_json, which says what is wrong, if
/// anything.
#[derive(Debug)]
pub(super) struct LeftToSerdeJson;

impl fmt::Display for LeftToSerdeJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("left to serde_json")
    }
}

impl std::error::Error for LeftToSerdeJson {}

impl ser::Error for LeftToSerdeJson {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Self
    }
}

struct Writer {
    out: Vec<u8>,
}

impl Writer {
    /// `{"variant":`, before an enum variant's value (serde's externally tagged form).
    fn open_variant(&mut self, variant: &str) {
        self.out.push(b'{');
        write_string(&mut self.out, variant);
        self.out.push(b':');
    }

    /// One value written by serde_json's own serializer (numbers, bytes).
    fn by_serde_json(
        &mut self,
        write: impl FnOnce(&mut serde_json::Serializer<&mut Vec<u8>>) -> serde_json::Result<()>,
    ) -> Result<(), LeftToSerdeJson> {
        write(&mut serde_json::Serializer::new(&mut self.out)).map_err(|_| LeftToSerdeJson)
    }
}

/// Bytes with each byte `b`.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of each byte.
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit set in the bytes of `word` that JSON escapes (`"`, `\`, below 0x20), exact from
/// the lowest such byte up (a borrow may mark bytes above it, never below).
const fn escapes(word: u64) -> u64 {
    let quote = word ^ (ONES * b'"' as u64);
    let backslash = word ^ (ONES * b'\\' as u64);
    let quotes = quote.wrapping_sub(ONES) & !quote;
    let backslashes = backslash.wrapping_sub(ONES) & !backslash;
    // Below 0x20: subtracting 0x20 sets the high bit, which `!word` keeps only for bytes
    // below 0x80.
    let controls = word.wrapping_sub(ONES * 0x20) & !word;
    (quotes | backslashes | controls) & HIGHS
}

const fn is_escaped(byte: u8) -> bool {
    byte < 0x20 || byte == b'"' || byte == b'\\'
}

/// The index of the first byte of `bytes` that JSON escapes.
fn first_escaped(bytes: &[u8]) -> Option<usize> {
    let len = bytes.len();
    if len < 8 {
        return bytes.iter().position(|&b| is_escaped(b));
    }
    let word_at = |at: usize| {
        let mut word = [0; 8];
        word.copy_from_slice(&bytes[at..at + 8]);
        escapes(u64::from_le_bytes(word))
    };
    let found_at = |at: usize, found: u64| at + (found.trailing_zeros() / 8) as usize;
    let mut at = 0;
    while at + 8 <= len {
        let found = word_at(at);
        if found != 0 {
            return Some(found_at(at, found));
        }
        at += 8;
    }
    if at < len {
        // The last eight bytes: those before `at` are known to need no escape, so the first
        // marked byte is still the first escaped one.
        let found = word_at(len - 8);
        if found != 0 {
            return Some(found_at(len - 8, found));
        }
    }
    None
}

/// `text` as a JSON string, escaped as serde_json escapes: `\"`, `\\`, the short escapes of
/// backspace, form feed, line feed, carriage return and tab, `\u00xx` (lower-case hex) for
/// the other control characters, everything else as it is.
fn write_string(out: &mut Vec<u8>, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = text.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut start = 0;
    while let Some(offset) = first_escaped(&bytes[start..]) {
        let at = start + offset;
        out.extend_from_slice(&bytes[start..at]);
        let byte = bytes[at];
        match byte {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            _ => out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 0xf)],
            ]),
        }
        start = at + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// serde_json's private tokens (its raw value, its arbitrary-precision number): left to it.
fn is_private(name: &str) -> bool {
    name.starts_with("$serde_json::private::")
}

/// Numbers, written by serde_json.
macro_rules! numbers {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(
            fn $method(self, v: $ty) -> Result<(), LeftToSerdeJson> {
                self.by_serde_json(|s| ser::Serializer::$method(s, v))
            }
        )*
    };
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = LeftToSerdeJson;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    numbers! {
        serialize_i8(i8), serialize_i16(i16), serialize_i32(i32), serialize_i64(i64),
        serialize_i128(i128), serialize_u8(u8), serialize_u16(u16), serialize_u32(u32),
        serialize_u64(u64), serialize_u128(u128), serialize_f32(f32), serialize_f64(f64),
    }

    fn serialize_bool(self, v: bool) -> Result<(), LeftToSerdeJson> {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), LeftToSerdeJson> {
        write_string(&mut self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, v: &str) -> Result<(), LeftToSerdeJson> {
        write_string(&mut self.out, v);
        Ok(())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), LeftToSerdeJson> {
        self.by_serde_json(|s| ser::Serializer::serialize_bytes(s, v))
    }

    fn serialize_none(self) -> Result<(), LeftToSerdeJson> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), LeftToSerdeJson> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), LeftToSerdeJson> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), LeftToSerdeJson> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), LeftToSerdeJson> {
        write_string(&mut self.out, variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), LeftToSerdeJson> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), LeftToSerdeJson> {
        self.open_variant(variant);
        value.serialize(&mut *self)?;
        self.out.push(b'}');
        Ok(())
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, LeftToSerdeJson> {
        Ok(Compound::open(self, b'[', b"]"))
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, LeftToSerdeJson> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, LeftToSerdeJson> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, LeftToSerdeJson> {
        self.open_variant(variant);
        Ok(Compound::open(self, b'[', b"]}"))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, LeftToSerdeJson> {
        Ok(Compound::open(self, b'{', b"}"))
    }

    fn serialize_struct(
        self,
        name: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, LeftToSerdeJson> {
        if is_private(name) {
            return Err(LeftToSerdeJson);
        }
        Ok(Compound::open(self, b'{', b"}"))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, LeftToSerdeJson> {
        self.open_variant(variant);
        Ok(Compound::open(self, b'{', b"}}"))
    }
}

/// An array or object being written: its items or members, comma-separated, then `close`.
struct Compound<'a> {
    writer: &'a mut Writer,
    first: bool,
    close: &'static [u8],
}

impl<'a> Compound<'a> {
    fn open(writer: &'a mut Writer, open: u8, close: &'static [u8]) -> Self {
        writer.out.push(open);
        Self {
            writer,
            first: true,
            close,
        }
    }

    fn separate(&mut self) {
        if !self.first {
            self.writer.out.push(b',');
        }
        self.first = false;
    }

    fn item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), LeftToSerdeJson> {
        self.separate();
        value.serialize(&mut *self.writer)
    }

    fn member<T: Serialize + ?Sized>(
        &mut self,
        name: &str,
        value: &T,
    ) -> Result<(), LeftToSerdeJson> {
        self.separate();
        write_string(&mut self.writer.out, name);
        self.writer.out.push(b':');
        value.serialize(&mut *self.writer)
    }

    fn close(self) -> Result<(), LeftToSerdeJson> {
        self.writer.out.extend_from_slice(self.close);
        Ok(())
    }
}

/// The array kinds: each item written after a comma.
macro_rules! items {
    ($($kind:ident::$method:ident),* $(,)?) => {
        $(
            impl ser::$kind for Compound<'_> {
                type Ok = ();
                type Error = LeftToSerdeJson;

                fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), LeftToSerdeJson> {
                    self.item(v)
                }

                fn end(self) -> Result<(), LeftToSerdeJson> {
                    self.close()
                }
            }
        )*
    };
}

items! {
    SerializeSeq::serialize_element, SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field, SerializeTupleVariant::serialize_field,
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = LeftToSerdeJson;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), LeftToSerdeJson> {
        self.separate();
        key.serialize(Key(&mut self.writer.out))
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), LeftToSerdeJson> {
        self.writer.out.push(b':');
        v.serialize(&mut *self.writer)
    }

    fn end(self) -> Result<(), LeftToSerdeJson> {
        self.close()
    }
}

/// The object kinds whose member names are known: each member written after a comma.
macro_rules! members {
    ($($kind:ident),* $(,)?) => {
        $(
            impl ser::$kind for Compound<'_> {
                type Ok = ();
                type Error = LeftToSerdeJson;

                fn serialize_field<T: Serialize + ?Sized>(
                    &mut self,
                    name: &'static str,
                    v: &T,
                ) -> Result<(), LeftToSerdeJson> {
                    self.member(name, v)
                }

                fn end(self) -> Result<(), LeftToSerdeJson> {
                    self.close()
                }
            }
        )*
    };
}

members!(SerializeStruct, SerializeStructVariant);

/// A map key: a string (what every contract type's maps have); any other key is left to
/// serde_json, which quotes integers and booleans and refuses the rest.
struct Key<'a>(&'a mut Vec<u8>);

/// Every kind of key but a string.
macro_rules! left_to_serde_json {
    ($($method:ident($($arg:ty),*)),* $(,)?) => {
        $(
            fn $method(self, $(_: $arg),*) -> Result<(), LeftToSerdeJson> {
                Err(LeftToSerdeJson)
            }
        )*
    };
}

impl ser::Serializer for Key<'_> {
    type Ok = ();
    type Error = LeftToSerdeJson;
    type SerializeSeq = ser::Impossible<(), LeftToSerdeJson>;
    type SerializeTuple = ser::Impossible<(), LeftToSerdeJson>;
    type SerializeTupleStruct = ser::Impossible<(), LeftToSerdeJson>;
    type SerializeTupleVariant = ser::Impossible<(), LeftToSerdeJson>;
    type SerializeMap = ser::Impossible<(), LeftToSerdeJson>;
    type SerializeStruct = ser::Impossible<(), LeftToSerdeJson>;
    type SerializeStructVariant = ser::Impossible<(), LeftToSerdeJson>;

    fn serialize_str(self, v: &str) -> Result<(), LeftToSerdeJson> {
        write_string(self.0, v);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), LeftToSerdeJson> {
        value.serialize(self)
    }

    left_to_serde_json! {
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_i128(i128), serialize_u8(u8), serialize_u16(u16),
        serialize_u32(u32), serialize_u64(u64), serialize_u128(u128), serialize_f32(f32),
        serialize_f64(f64), serialize_char(char), serialize_bytes(&[u8]), serialize_none(),
        serialize_unit(), serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), LeftToSerdeJson> {
        Err(LeftToSerdeJson)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), LeftToSerdeJson> {
        Err(LeftToSerdeJson)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, LeftToSerdeJson> {
        Err(LeftToSerdeJson)
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, LeftToSerdeJson> {
        Err(LeftToSerdeJson)
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, LeftToSerdeJson> {
        Err(LeftToSerdeJson)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, LeftToSerdeJson> {
        Err(LeftToSerdeJson)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, LeftToSerdeJson> {
        Err(LeftToSerdeJson)
    }

    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, LeftToSerdeJson> {
        Err(LeftToSerdeJson)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, LeftToSerdeJson> {
        Err(LeftToSerdeJson)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;

    /// Ours and serde_json's bytes for `value`, when ours wrote it.
    fn same<T: Serialize + ?Sized>(value: &T) -> bool {
        let ours = to_vec(value).expect("written");
        let reference = serde_json::to_vec(value).expect("serde_json writes it");
        assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&reference)
        );
        ours == reference
    }

    #[test]
    fn every_ascii_byte_is_escaped_as_serde_json_escapes_it() {
        for byte in 0..=0x7f_u8 {
            let c = char::from(byte);
            // Alone, at every position of a word, and after a run that needs no escape.
            for text in [
                c.to_string(),
                format!("abcdefg{c}"),
                format!("abc{c}defghijklmnop"),
                format!("{c}{c}{c}{c}{c}{c}{c}{c}{c}"),
                format!("0123456789abcdef{c}x"),
            ] {
                assert!(same(&text), "{byte:#04x}");
                assert!(same(&c), "{byte:#04x}");
            }
        }
    }

    #[test]
    fn the_word_scan_finds_the_first_escaped_byte_at_every_offset() {
        // Bytes that are close to the escaped ones on either side, and multi-byte UTF-8 text.
        let fillers = [" ", "!", "#", "[", "]", "\u{7f}", "é", "€", "😀", "\u{a0}"];
        for filler in fillers {
            for escaped in ['"', '\\', '\u{0}', '\u{1f}', '\n'] {
                for at in 0..24 {
                    let mut text = filler.repeat(at);
                    text.push(escaped);
                    text.push_str(&filler.repeat(9));
                    text.push(escaped);
                    assert!(same(&text), "{filler:?} {escaped:?} at {at}");
                }
            }
        }
    }

    #[test]
    fn values_of_every_kind_are_written_as_serde_json_writes_them() {
        let value = json!({
            "null": null, "t": true, "f": false,
            "numbers": [0, -1, 1.5, -0.0, 1e300, 12345678901234567890_u64, -9223372036854775808_i64, 0.1],
            "nested": {"a": [[], {}, [{}]], "\u{1}key\"": "v\\"},
            "text": "line\nbreak\ttab \u{2028} 😀 \u{0}",
        });
        assert!(same(&value));
        let map: BTreeMap<String, Vec<Option<i32>>> = [
            ("b".to_owned(), vec![Some(1), None]),
            ("a".to_owned(), vec![]),
        ]
        .into();
        assert!(same(&map));
        assert!(same(&(1_u8, 'x', "y", [1.25_f32])));
        assert!(same(&b"bytes"[..]));
    }

    /// An enum of every variant kind, serialized as serde's derive does.
    enum Variants {
        Unit,
        Newtype(u8),
        Tuple(u8, String),
        Struct { a: u8, b: Option<String> },
    }

    impl Serialize for Variants {
        fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use ser::{SerializeStructVariant, SerializeTupleVariant};
            match self {
                Self::Unit => s.serialize_unit_variant("Variants", 0, "Unit"),
                Self::Newtype(v) => s.serialize_newtype_variant("Variants", 1, "Newtype", v),
                Self::Tuple(a, b) => {
                    let mut t = s.serialize_tuple_variant("Variants", 2, "Tuple", 2)?;
                    t.serialize_field(a)?;
                    t.serialize_field(b)?;
                    t.end()
                }
                Self::Struct { a, b } => {
                    let mut t = s.serialize_struct_variant("Variants", 3, "Struct", 2)?;
                    t.serialize_field("a", a)?;
                    t.serialize_field("b", b)?;
                    t.end()
                }
            }
        }
    }

    #[test]
    fn enum_variants_are_written_as_serde_json_writes_them() {
        for variant in [
            Variants::Unit,
            Variants::Newtype(7),
            Variants::Tuple(1, "t".to_owned()),
            Variants::Struct { a: 2, b: None },
        ] {
            assert!(same(&variant));
        }
    }

    #[test]
    fn what_it_does_not_write_is_left_to_serde_json() {
        // Integer keys (serde_json quotes them), a raw value (serde_json's private token).
        let keys: BTreeMap<i32, &str> = [(1, "a")].into();
        assert!(to_vec(&keys).is_none());
        let raw = serde_json::value::RawValue::from_string("1.50".to_owned()).unwrap();
        assert!(to_vec(&raw).is_none());
        assert!(to_vec(&json!({"a": [1, "b"]})).is_some());
    }
}
