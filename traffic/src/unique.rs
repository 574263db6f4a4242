//! The first member name repeated within one object of a message, at any depth, found while the
//! message is parsed.
//!
//! `serde_json::Value` keeps the last of two equal member names without a word, so a message
//! checked as a `Value` would hide a repeat that the typed decoders refuse (`duplicate field`)
//! and that readers resolve differently (first or last wins). [`Watch`] sits between
//! serde_json's parser and whatever reads the message (a generated type, a `Value`, or nothing)
//! and sees every member name of every object, skipped values included: the names of the
//! objects being read are kept on one stack (borrowed from the input where they have no
//! escapes), so nothing is allocated per member, and the pointer of a repeat is built only when
//! one is found.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde::Deserialize;

/// A member name that appears twice in one object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Repeated {
    /// RFC 6901 pointer to the second occurrence.
    pub(crate) pointer: String,
    /// The member name.
    pub(crate) name: String,
}

/// The first repeated member name of `json` (document order), or `None` (also when `json` is
/// not JSON: the caller reports that).
pub(crate) fn first_repeated(json: &[u8]) -> Option<Repeated> {
    let watcher = Watcher::new(true);
    let mut de = serde_json::Deserializer::from_slice(json);
    let _ = IgnoredAny::deserialize(Watch::new(&mut de, &watcher));
    watcher.into_repeated()
}

/// Objects with more members than this are checked with a hash set rather than by scanning the
/// names read so far.
const SCAN_MEMBERS: usize = 24;

/// The member names and open objects a watcher has room for before its stacks grow.
const NAMES_CAPACITY: usize = 32;
const FRAMES_CAPACITY: usize = 8;

/// What [`Watch`] saw of one parse.
pub(crate) struct Watcher<'de> {
    /// Whether the path is followed (for the pointer of a repeat): without it, entering and
    /// leaving values touches nothing.
    pointer: bool,
    state: RefCell<State<'de>>,
}

struct State<'de> {
    /// The member names of the objects being read, outermost first; each object's start in
    /// `frames`.
    names: Vec<Cow<'de, str>>,
    frames: Vec<Frame<'de>>,
    /// The member or item being read, when the pointer of a repeat is wanted.
    path: Option<Vec<Step<'de>>>,
    /// The name just read, before its value is.
    key: Option<Cow<'de, str>>,
    repeated: Option<Repeated>,
    /// Set when a value was read in a way the watch cannot see into (an enum access, a raw
    /// value, a member name read as something else than a string): a repeat may have gone
    /// unseen.
    blind: bool,
    /// Set when a member is named [`Watcher::FLAGGED`].
    flagged: bool,
}

struct Frame<'de> {
    start: usize,
    /// The names of a large object, once it has more than [`SCAN_MEMBERS`].
    set: Option<HashSet<Cow<'de, str>>>,
}

enum Step<'de> {
    Key(Cow<'de, str>),
    Index(usize),
}

impl<'de> Watcher<'de> {
    /// A member name the checker must see as a `Value` when present anywhere: the MCP protocol
    /// version a request may carry in `params._meta`.
    pub(crate) const FLAGGED: &'static str = crate::mcp::META_PROTOCOL_VERSION;

    /// A watcher; with `pointer`, the path is followed so that a repeat's pointer can be given.
    pub(crate) fn new(pointer: bool) -> Self {
        Self {
            pointer,
            // Sized for a typical message's open objects and their members, so that the
            // stacks are allocated once rather than grown member by member.
            state: RefCell::new(State {
                names: Vec::with_capacity(NAMES_CAPACITY),
                frames: Vec::with_capacity(FRAMES_CAPACITY),
                path: pointer.then(Vec::new),
                key: None,
                repeated: None,
                blind: false,
                flagged: false,
            }),
        }
    }

    /// Whether every member name was seen and none is repeated.
    pub(crate) fn clean(&self) -> bool {
        let state = self.state.borrow();
        state.repeated.is_none() && !state.blind
    }

    /// Whether a member is named [`Watcher::FLAGGED`].
    pub(crate) fn flagged(&self) -> bool {
        self.state.borrow().flagged
    }

    fn into_repeated(self) -> Option<Repeated> {
        self.state.into_inner().repeated
    }

    fn blind(&self) {
        self.state.borrow_mut().blind = true;
    }

    fn open(&self) -> usize {
        let mut state = self.state.borrow_mut();
        let start = state.names.len();
        let depth = state.frames.len();
        state.frames.push(Frame { start, set: None });
        depth
    }

    fn close(&self, depth: usize) {
        let mut state = self.state.borrow_mut();
        if let Some(frame) = state.frames.get(depth) {
            let start = frame.start;
            state.names.truncate(start);
        }
        state.frames.truncate(depth);
    }

    /// Records member name `name` of the innermost object; `false` when it is repeated.
    fn name(&self, name: Cow<'de, str>) -> bool {
        let mut state = self.state.borrow_mut();
        let state = &mut *state;
        if name == Self::FLAGGED {
            state.flagged = true;
        }
        let Some(frame) = state.frames.last_mut() else {
            // A name outside any object (cannot happen with serde_json): nothing to compare.
            state.key = Some(name);
            return true;
        };
        let repeated = match &mut frame.set {
            Some(set) => !set.insert(name.clone()),
            None => {
                let names = &state.names[frame.start..];
                let repeated = names.contains(&name);
                if !repeated && names.len() >= SCAN_MEMBERS {
                    let mut set: HashSet<Cow<'de, str>> = names.iter().cloned().collect();
                    set.insert(name.clone());
                    frame.set = Some(set);
                } else if !repeated {
                    state.names.push(name.clone());
                }
                repeated
            }
        };
        if repeated {
            let pointer = state
                .path
                .as_ref()
                .map(|path| pointer(path, &name))
                .unwrap_or_default();
            state.repeated = Some(Repeated {
                pointer,
                name: name.into_owned(),
            });
            return false;
        }
        if self.pointer {
            state.key = Some(name);
        }
        true
    }

    /// Before a member's value: its name goes on the path.
    fn enter_value(&self) {
        if !self.pointer {
            return;
        }
        let mut state = self.state.borrow_mut();
        let key = state.key.take();
        if let (Some(path), Some(key)) = (state.path.as_mut(), key) {
            path.push(Step::Key(key));
        }
    }

    fn enter_item(&self, index: usize) {
        if !self.pointer {
            return;
        }
        if let Some(path) = self.state.borrow_mut().path.as_mut() {
            path.push(Step::Index(index));
        }
    }

    fn leave(&self) {
        if !self.pointer {
            return;
        }
        if let Some(path) = self.state.borrow_mut().path.as_mut() {
            path.pop();
        }
    }
}

fn pointer(path: &[Step<'_>], last: &str) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(key) => toolcall_contracts::pointer::push(&mut out, key),
            Step::Index(index) => {
                out.push('/');
                out.push_str(&index.to_string());
            }
        }
    }
    toolcall_contracts::pointer::push(&mut out, last);
    out
}

fn stop<E: de::Error>() -> E {
    E::custom("repeated member")
}

/// A deserializer that shows every member name `D` reads to a [`Watcher`] and stops at the
/// first repeated one (with an error). Values that would be skipped are read through
/// `deserialize_any` instead, so that their members are seen too (serde_json parses them as
/// it would parse a `Value`: the same syntax, UTF-8 and nesting checks).
pub(crate) struct Watch<'w, 'de, D> {
    de: D,
    watcher: &'w Watcher<'de>,
}

impl<'w, 'de, D> Watch<'w, 'de, D> {
    pub(crate) fn new(de: D, watcher: &'w Watcher<'de>) -> Self {
        Self { de, watcher }
    }
}

/// The newtype name serde_json's `RawValue` asks for: its text cannot be watched.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// The `Deserializer` methods of an adapter holding `de` and `watcher`, each forwarding to
/// `de` with the visitor wrapped in `$wrapper { visitor, watcher }`.
macro_rules! forward_wrapped {
    ($wrapper:ident: $($method:ident($($arg:ident: $ty:ty),*)),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, Self::Error> {
                self.de.$method($($arg,)* $wrapper { visitor, watcher: self.watcher })
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Watch<'_, 'de, D> {
    type Error = D::Error;

    forward_wrapped! {
        Watched: deserialize_any(), deserialize_bool(), deserialize_i8(), deserialize_i16(),
        deserialize_i32(), deserialize_i64(), deserialize_i128(), deserialize_u8(),
        deserialize_u16(), deserialize_u32(), deserialize_u64(), deserialize_u128(),
        deserialize_f32(), deserialize_f64(), deserialize_char(), deserialize_str(),
        deserialize_string(), deserialize_bytes(), deserialize_byte_buf(),
        deserialize_option(), deserialize_unit(), deserialize_unit_struct(name: &'static str),
        deserialize_seq(), deserialize_tuple(len: usize),
        deserialize_tuple_struct(name: &'static str, len: usize), deserialize_map(),
        deserialize_struct(name: &'static str, fields: &'static [&'static str]),
        deserialize_enum(name: &'static str, variants: &'static [&'static str]),
        deserialize_identifier(),
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        if name == RAW_VALUE_TOKEN {
            self.watcher.blind();
            return self.de.deserialize_newtype_struct(name, visitor);
        }
        self.de.deserialize_newtype_struct(
            name,
            Watched {
                visitor,
                watcher: self.watcher,
            },
        )
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.de.deserialize_any(Watched {
            visitor,
            watcher: self.watcher,
        })
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

/// A visitor whose maps and sequences are watched.
struct Watched<'w, 'de, V> {
    visitor: V,
    watcher: &'w Watcher<'de>,
}

macro_rules! forward_visits {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(
            fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
                self.visitor.$method(v)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Watched<'_, 'de, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    forward_visits! {
        visit_bool(bool), visit_i8(i8), visit_i16(i16), visit_i32(i32), visit_i64(i64),
        visit_i128(i128), visit_u8(u8), visit_u16(u16), visit_u32(u32), visit_u64(u64),
        visit_u128(u128), visit_f32(f32), visit_f64(f64), visit_char(char), visit_str(&str),
        visit_borrowed_str(&'de str), visit_string(String), visit_bytes(&[u8]),
        visit_borrowed_bytes(&'de [u8]), visit_byte_buf(Vec<u8>),
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.visitor.visit_some(Watch::new(d, self.watcher))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.visitor
            .visit_newtype_struct(Watch::new(d, self.watcher))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_seq(WatchedSeq {
            seq,
            watcher: self.watcher,
            index: 0,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let depth = self.watcher.open();
        let result = self.visitor.visit_map(WatchedMap {
            map,
            watcher: self.watcher,
        });
        self.watcher.close(depth);
        result
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.watcher.blind();
        self.visitor.visit_enum(data)
    }
}

struct WatchedSeq<'w, 'de, A> {
    seq: A,
    watcher: &'w Watcher<'de>,
    index: usize,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for WatchedSeq<'_, 'de, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.watcher.enter_item(self.index);
        self.index += 1;
        let element = self.seq.next_element_seed(WatchedSeed {
            seed,
            watcher: self.watcher,
        });
        self.watcher.leave();
        element
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

struct WatchedMap<'w, 'de, A> {
    map: A,
    watcher: &'w Watcher<'de>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for WatchedMap<'_, 'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.map.next_key_seed(NameSeed {
            seed,
            watcher: self.watcher,
        })
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.watcher.enter_value();
        let value = self.map.next_value_seed(WatchedSeed {
            seed,
            watcher: self.watcher,
        });
        self.watcher.leave();
        value
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// A value's seed, reading through a [`Watch`].
struct WatchedSeed<'w, 'de, T> {
    seed: T,
    watcher: &'w Watcher<'de>,
}

impl<'de, T: DeserializeSeed<'de>> DeserializeSeed<'de> for WatchedSeed<'_, 'de, T> {
    type Value = T::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T::Value, D::Error> {
        self.seed.deserialize(Watch::new(d, self.watcher))
    }
}

/// A member name's seed: the name is recorded (and compared) before the seed sees it.
struct NameSeed<'w, 'de, K> {
    seed: K,
    watcher: &'w Watcher<'de>,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for NameSeed<'_, 'de, K> {
    type Value = K::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<K::Value, D::Error> {
        self.seed.deserialize(NameDe {
            de: d,
            watcher: self.watcher,
        })
    }
}

struct NameDe<'w, 'de, D> {
    de: D,
    watcher: &'w Watcher<'de>,
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for NameDe<'_, 'de, D> {
    type Error = D::Error;

    forward_wrapped! {
        Named: deserialize_any(), deserialize_bool(), deserialize_i8(), deserialize_i16(),
        deserialize_i32(), deserialize_i64(), deserialize_i128(), deserialize_u8(),
        deserialize_u16(), deserialize_u32(), deserialize_u64(), deserialize_u128(),
        deserialize_f32(), deserialize_f64(), deserialize_char(), deserialize_str(),
        deserialize_string(), deserialize_bytes(), deserialize_byte_buf(),
        deserialize_option(), deserialize_unit(), deserialize_unit_struct(name: &'static str),
        deserialize_newtype_struct(name: &'static str), deserialize_seq(),
        deserialize_tuple(len: usize), deserialize_tuple_struct(name: &'static str, len: usize),
        deserialize_map(), deserialize_struct(name: &'static str, fields: &'static [&'static str]),
        deserialize_enum(name: &'static str, variants: &'static [&'static str]),
        deserialize_identifier(),
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        // The name must still be seen: read it as a string.
        self.de.deserialize_str(Named {
            visitor,
            watcher: self.watcher,
        })
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

/// A member name's visitor: records the name, then hands it on.
struct Named<'w, 'de, V> {
    visitor: V,
    watcher: &'w Watcher<'de>,
}

impl<'de, V: Visitor<'de>> Named<'_, 'de, V> {
    fn not_a_string(&self) {
        self.watcher.blind();
    }
}

macro_rules! forward_unnamed {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(
            fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
                self.not_a_string();
                self.visitor.$method(v)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Named<'_, 'de, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        if !self.watcher.name(Cow::Borrowed(v)) {
            return Err(stop());
        }
        self.visitor.visit_borrowed_str(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        if !self.watcher.name(Cow::Owned(v.to_owned())) {
            return Err(stop());
        }
        self.visitor.visit_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        if !self.watcher.name(Cow::Owned(v.clone())) {
            return Err(stop());
        }
        self.visitor.visit_string(v)
    }

    forward_unnamed! {
        visit_bool(bool), visit_i8(i8), visit_i16(i16), visit_i32(i32), visit_i64(i64),
        visit_i128(i128), visit_u8(u8), visit_u16(u16), visit_u32(u32), visit_u64(u64),
        visit_u128(u128), visit_f32(f32), visit_f64(f64), visit_char(char), visit_bytes(&[u8]),
        visit_borrowed_bytes(&'de [u8]), visit_byte_buf(Vec<u8>),
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.not_a_string();
        self.visitor.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.not_a_string();
        self.visitor.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.not_a_string();
        self.visitor.visit_some(d)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.not_a_string();
        self.visitor.visit_newtype_struct(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.not_a_string();
        self.visitor.visit_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.not_a_string();
        self.visitor.visit_map(map)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.not_a_string();
        self.visitor.visit_enum(data)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    #[test]
    fn finds_the_first_repeat_at_any_depth() {
        assert_eq!(
            first_repeated(br#"{"a":1,"b":[{"c":1}],"d":{"e":2}}"#),
            None
        );
        assert_eq!(
            first_repeated(br#"{"params":{"sessionId":"s","sessionId":"t"}}"#),
            Some(Repeated {
                pointer: "/params/sessionId".into(),
                name: "sessionId".into()
            })
        );
        assert_eq!(
            first_repeated(br#"[0,{"a/b":1,"a/b":2}]"#),
            Some(Repeated {
                pointer: "/1/a~1b".into(),
                name: "a/b".into()
            })
        );
        // Names are compared after unescaping: "\u0061" is "a".
        assert_eq!(
            first_repeated(br#"{"a":1,"\u0061":2}"#).map(|r| r.name),
            Some("a".into())
        );
        assert_eq!(first_repeated(b"not json"), None);
        // The same name in sibling and nested objects is no repeat.
        assert_eq!(
            first_repeated(br#"{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}],"c":{"a":1}}"#),
            None
        );
        // After a nested object, its names are forgotten and the outer ones remembered.
        assert_eq!(
            first_repeated(br#"{"x":{"y":1,"z":2},"y":3,"x":4}"#),
            Some(Repeated {
                pointer: "/x".into(),
                name: "x".into()
            })
        );
        assert_eq!(
            first_repeated(br#"{"a":[[{}],{"b":[1,{"c":{"~":1,"~":2}}]}]}"#).map(|r| r.pointer),
            Some("/a/1/b/1/c/~0".into())
        );
    }

    #[test]
    fn large_objects_are_checked_too() {
        let members = |n: usize| (0..n).map(|i| format!("\"m{i}\":{i}")).collect::<Vec<_>>();
        let mut names = members(100);
        let clean = format!("{{{}}}", names.join(","));
        assert_eq!(first_repeated(clean.as_bytes()), None);
        names.push("\"m7\":0".to_owned());
        names.push("\"m100\":0".to_owned());
        let repeated = format!("{{\"o\":{{{}}}}}", names.join(","));
        assert_eq!(
            first_repeated(repeated.as_bytes()).map(|r| r.pointer),
            Some("/o/m7".into())
        );
    }

    #[test]
    fn a_value_read_through_the_watch_is_the_value() {
        let json = br#"{"a":[1,-2,3.5,"\u00e9\n",null,true,{"b":{}}],"c":{"d":"e"}}"#;
        let watcher = Watcher::new(false);
        let mut de = serde_json::Deserializer::from_slice(json);
        let value = Value::deserialize(Watch::new(&mut de, &watcher)).expect("parses");
        assert!(watcher.clean() && !watcher.flagged());
        assert_eq!(
            value,
            serde_json::from_slice::<Value>(json).expect("parses")
        );
        // A repeat stops the parse; the flagged name is noticed.
        let json = br#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"x"},"a":1,"a":2}"#;
        let watcher = Watcher::new(false);
        let mut de = serde_json::Deserializer::from_slice(json);
        assert!(Value::deserialize(Watch::new(&mut de, &watcher)).is_err());
        assert!(!watcher.clean() && watcher.flagged());
    }
}
