//! MCP messages by the side that sends them: each version module has a `ClientMessage` (what a
//! client sends: its requests, its notifications, its responses to the server's requests,
//! errors) and a `ServerMessage` (the same from the server), decoded in one pass over the
//! message's member names and then once as the kind they name.
//!
//! A response carries no method: [`decode`](crate::mcp::v2025_11_25::ServerMessage::decode)
//! takes a function giving the method of the pending request a response answers (by its `id`),
//! and decodes the result as that method's result in one pass (`ServerResult::decode_for`); when
//! it gives `None` the result is decoded as the result union (every branch its members allow
//! tried in turn). As with `decode_for`, a result the method's type refuses is decoded as the
//! union decodes it: the schema's plain `Result` takes any object, so a `tools/list` answer
//! whose tools are malformed is a `ServerResult::Result` holding them as unknown members, not
//! an error. The function is asked once the message's envelope is read, before its result is
//! decoded: keep the pending request until the decode succeeds.
//!
//! ```
//! # #[cfg(feature = "mcp-2025-11-25")] {
//! use std::collections::HashMap;
//! use toolcall_contracts::mcp::v2025_11_25::{
//!     ClientMessage, ClientRequest, RequestId, ServerMessage, ServerResult,
//! };
//!
//! // The client's request, and what it asked, by id (`1` and `"1"` are different ids).
//! let sent = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
//! let ClientMessage::Request(request) = ClientMessage::decode(sent, |_| None)?.value else {
//!     panic!("a request");
//! };
//! let mut pending: HashMap<RequestId, &str> = HashMap::new();
//! pending.insert(RequestId::Integer(1), request.method());
//!
//! // The server's answer, decoded as the result of `tools/list`.
//! let received = br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#;
//! let message = ServerMessage::decode(received, |id| pending.get(id).copied())?;
//! let ServerMessage::Response(response) = message.value else {
//!     panic!("a response");
//! };
//! pending.remove(&response.id);
//! assert!(matches!(response.result, ServerResult::ListToolsResult(_)));
//! assert_eq!(
//!     toolcall_contracts::encode(&ServerMessage::Response(response)).unwrap(),
//!     received
//! );
//! # }
//! # Ok::<(), toolcall_contracts::DecodeError>(())
//! ```
//!
//! The versions before 2025-11-25 define their requests and notifications without the JSON-RPC
//! envelope (`id`, `jsonrpc`): there a request is a [`Request`] (the `id` beside the version's
//! request type), and the `jsonrpc` member is checked and written by the message, not kept in
//! the request's or the notification's own members. From 2025-11-25 the version's types hold
//! the whole message. The 2025-03-26 batches (a JSON array of messages) decode as `Batch`.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{Error as _, SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::__private::Key;
use crate::decode::{decode_with, Decoded, DecodeError};
use crate::policy::DecodeLimits;

/// A request of a version whose request types hold no JSON-RPC envelope (before 2025-11-25):
/// the request's `id` beside it. On the wire: `"jsonrpc": "2.0"`, `id` and the request's members
/// (`method`, `params`, any other), the shape of the version's `JSONRPCRequest` with `params`
/// typed by the request.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Request<Id, R> {
    /// `id`.
    pub id: Id,
    /// The request (`method`, `params` and any other member).
    pub request: R,
}

impl<Id, R> Request<Id, R> {
    /// A request with its id.
    pub fn new(id: impl Into<Id>, request: impl Into<R>) -> Self {
        Self {
            id: id.into(),
            request: request.into(),
        }
    }
}

impl<Id: Serialize, R: Serialize> Serialize for Request<Id, R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        enveloped(serializer, Some(&self.id), &self.request)
    }
}

#[cfg(any(feature = "mcp-2024-11-05", feature = "mcp-2025-03-26", feature = "mcp-2025-06-18"))]
/// A notification of a version whose notification types hold no `jsonrpc` member (before
/// 2025-11-25), written with `"jsonrpc": "2.0"`.
pub(crate) struct Notification<'a, N>(pub &'a N);

#[cfg(any(feature = "mcp-2024-11-05", feature = "mcp-2025-03-26", feature = "mcp-2025-06-18"))]
impl<N: Serialize> Serialize for Notification<'_, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        enveloped::<S, (), N>(serializer, None, self.0)
    }
}

/// Writes `"jsonrpc": "2.0"`, `id` when given, then the members of `inner` (an object).
fn enveloped<S: Serializer, Id: Serialize, T: Serialize>(
    serializer: S,
    id: Option<&Id>,
    inner: &T,
) -> Result<S::Ok, S::Error> {
    let Value::Object(members) = serde_json::to_value(inner).map_err(S::Error::custom)? else {
        return Err(S::Error::custom("a request or notification is an object"));
    };
    let mut out = serializer.serialize_map(Some(members.len() + 2))?;
    out.serialize_entry("jsonrpc", "2.0")?;
    if let Some(id) = id {
        out.serialize_entry("id", id)?;
    }
    for (name, value) in &members {
        out.serialize_entry(name, value)?;
    }
    out.end()
}

/// A response: the `id` of the request it answers and its result. On the wire
/// `{"jsonrpc": "2.0", "id": ..., "result": ...}` and any other member kept, the shape of each
/// version's `JSONRPCResponse` (`JSONRPCResultResponse` from 2025-11-25) with `result` typed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Response<Id, R> {
    /// `id`: the request's.
    pub id: Id,
    /// `result`.
    pub result: R,
    /// Members JSON-RPC does not define, kept and written back when encoding.
    pub unknown_members: Map<String, Value>,
}

impl<Id, R> Response<Id, R> {
    /// A response with no other member.
    pub fn new(id: impl Into<Id>, result: impl Into<R>) -> Self {
        Self {
            id: id.into(),
            result: result.into(),
            unknown_members: Map::new(),
        }
    }
}

impl<Id: Serialize, R: Serialize> Serialize for Response<Id, R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_map(Some(self.unknown_members.len() + 3))?;
        out.serialize_entry("jsonrpc", "2.0")?;
        out.serialize_entry("id", &self.id)?;
        out.serialize_entry("result", &self.result)?;
        for (name, value) in &self.unknown_members {
            out.serialize_entry(name, value)?;
        }
        out.end()
    }
}

/// What a message is, by its members: `method` and `id` a request, `method` alone a
/// notification, else `result` a response, `error` an error (JSON-RPC 2.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Request,
    Notification,
    Response,
    Error,
}

/// One top-level member of a message: its name and its value's text, borrowed from the message.
struct Member<'a> {
    name: Cow<'a, str>,
    value: &'a [u8],
}

/// The top-level members of a message (an object), or the items of a batch (an array).
enum Shape<'a> {
    Object(Vec<Member<'a>>),
    Array(Vec<&'a [u8]>),
    Other(&'static str),
}

impl<'de> Deserialize<'de> for Shape<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ShapeVisitor;
        impl<'de> Visitor<'de> for ShapeVisitor {
            type Value = Shape<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON-RPC message")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Shape<'de>, A::Error> {
                let mut members = Vec::new();
                while let Some(Key(name)) = map.next_key()? {
                    let value: &'de RawValue = map.next_value()?;
                    members.push(Member {
                        name,
                        value: value.get().as_bytes(),
                    });
                }
                Ok(Shape::Object(members))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Shape<'de>, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<&'de RawValue>()? {
                    items.push(item.get().as_bytes());
                }
                Ok(Shape::Array(items))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Shape<'de>, E> {
                Ok(Shape::Other("a boolean"))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Shape<'de>, E> {
                Ok(Shape::Other("a number"))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Shape<'de>, E> {
                Ok(Shape::Other("a number"))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Shape<'de>, E> {
                Ok(Shape::Other("a number"))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Shape<'de>, E> {
                Ok(Shape::Other("a string"))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Shape<'de>, E> {
                Ok(Shape::Other("null"))
            }
        }
        deserializer.deserialize_any(ShapeVisitor)
    }
}

/// A message's top-level members, read once.
pub(crate) struct Skim<'a> {
    json: &'a [u8],
    members: Vec<Member<'a>>,
    pub(crate) kind: Kind,
}

/// What the skim of a message found.
pub(crate) enum Skimmed<'a> {
    Message(Skim<'a>),
    /// A batch: the text of each item.
    Batch(Vec<&'a [u8]>),
}

/// Reads the top-level member names of `json` (one message, or a batch of them), within
/// `limits`.
pub(crate) fn skim<'a>(json: &'a [u8], limits: &DecodeLimits) -> Result<Skimmed<'a>, DecodeError> {
    // The fast path: the structure read by `Scanner`, which also counts the whole message's
    // depth (a decode of the whole message would count it; its members are then decoded on
    // their own, each from depth 0). Whatever it does not take, serde_json reads, and says why.
    // Deeper than serde_json's 127 levels is refused however deep `limits` allows, as a decode
    // of the whole message refuses it.
    let limits = &DecodeLimits::new(
        limits.max_bytes,
        limits.max_depth.min(crate::DECODE_LIMITS.max_depth),
    );
    let scanned = if json.len() <= limits.max_bytes {
        Scanner::new(json, limits.max_depth).shape()
    } else {
        None
    };
    let shape = match scanned {
        Some(shape) => shape,
        None => {
            limits.check(json).map_err(DecodeError::from_limit)?;
            let mut de = serde_json::Deserializer::from_slice(json);
            Shape::deserialize(&mut de)
                .and_then(|shape| de.end().map(|()| shape))
                .map_err(|error| DecodeError::from_serde(&error, String::new()))?
        }
    };
    let members = match shape {
        Shape::Object(members) => members,
        Shape::Array(items) => return Ok(Skimmed::Batch(items)),
        Shape::Other(kind) => return Err(refused(format!("{kind} that is not a JSON-RPC message"))),
    };
    let has = |name: &str| members.iter().any(|member| member.name == name);
    let kind = if has("method") {
        if has("id") {
            Kind::Request
        } else {
            Kind::Notification
        }
    } else if has("result") {
        Kind::Response
    } else if has("error") {
        Kind::Error
    } else {
        return Err(refused(
            "an object with none of `method`, `result` and `error`: not a JSON-RPC message"
                .to_owned(),
        ));
    };
    Ok(Skimmed::Message(Skim {
        json,
        members,
        kind,
    }))
}

/// Reads the structure of a message (an object's member names and the text of each value, or an
/// array's items) in one pass over its bytes, counting its depth, without parsing the values:
/// each is decoded on its own afterwards, which checks it. `None` for anything that is not a
/// well-formed object or array of this shape, or deeper than the limit: serde_json then reads
/// it and gives the error.
struct Scanner<'a> {
    json: &'a [u8],
    at: usize,
    max_depth: usize,
}

impl<'a> Scanner<'a> {
    fn new(json: &'a [u8], max_depth: usize) -> Self {
        Self {
            json,
            at: 0,
            max_depth,
        }
    }

    fn shape(mut self) -> Option<Shape<'a>> {
        if self.max_depth == 0 {
            return None;
        }
        self.space();
        let shape = match self.json.get(self.at)? {
            b'{' => Shape::Object(self.members()?),
            b'[' => Shape::Array(self.items()?),
            _ => return None,
        };
        self.space();
        (self.at == self.json.len()).then_some(shape)
    }

    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.json.get(self.at) {
            self.at += 1;
        }
    }

    /// The byte at the cursor, when it is `byte`, stepped over.
    fn eat(&mut self, byte: u8) -> bool {
        let found = self.json.get(self.at) == Some(&byte);
        self.at += usize::from(found);
        found
    }

    /// The members of the object at the cursor (its `{`).
    fn members(&mut self) -> Option<Vec<Member<'a>>> {
        self.at += 1;
        let mut members = Vec::new();
        self.space();
        if self.eat(b'}') {
            return Some(members);
        }
        loop {
            self.space();
            let name = self.name()?;
            self.space();
            if !self.eat(b':') {
                return None;
            }
            self.space();
            let value = self.value()?;
            members.push(Member { name, value });
            self.space();
            if self.eat(b'}') {
                return Some(members);
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    /// The items of the array at the cursor (its `[`).
    fn items(&mut self) -> Option<Vec<&'a [u8]>> {
        self.at += 1;
        let mut items = Vec::new();
        self.space();
        if self.eat(b']') {
            return Some(items);
        }
        loop {
            self.space();
            items.push(self.value()?);
            self.space();
            if self.eat(b']') {
                return Some(items);
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    /// A member name: borrowed when it has no escapes, else decoded by serde_json.
    fn name(&mut self) -> Option<Cow<'a, str>> {
        let start = self.at;
        self.string()?;
        let quoted = &self.json[start..self.at];
        let inner = &quoted[1..quoted.len() - 1];
        if inner.iter().any(|&b| b == b'\\' || b < 0x20) {
            serde_json::from_slice::<String>(quoted).ok().map(Cow::Owned)
        } else {
            std::str::from_utf8(inner).ok().map(Cow::Borrowed)
        }
    }

    /// Steps over the string at the cursor (its opening quote).
    fn string(&mut self) -> Option<()> {
        if self.json.get(self.at) != Some(&b'"') {
            return None;
        }
        self.at = crate::policy::limits::string_end(self.json, self.at)?;
        Some(())
    }

    /// The text of the value at the cursor. Containers are skipped by their brackets (strings
    /// stepped over), counting the depth: their content is checked when they are decoded.
    fn value(&mut self) -> Option<&'a [u8]> {
        let start = self.at;
        match self.json.get(self.at)? {
            b'"' => self.string()?,
            b'{' | b'[' => {
                // The message itself is depth 1.
                let mut depth = 1;
                loop {
                    match self.json.get(self.at)? {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'{' | b'[' => {
                            depth += 1;
                            if depth > self.max_depth {
                                return None;
                            }
                        }
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 1 {
                                self.at += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    self.at += 1;
                }
            }
            _ => {
                while let Some(&byte) = self.json.get(self.at) {
                    if matches!(byte, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    self.at += 1;
                }
                if self.at == start {
                    return None;
                }
            }
        }
        Some(&self.json[start..self.at])
    }
}

/// An error about the message as a whole (pointer `""`, no position).
fn refused(message: String) -> DecodeError {
    DecodeError {
        pointer: String::new(),
        message,
        line: 0,
        column: 0,
        limit: None,
    }
}

impl<'a> Skim<'a> {
    /// The value of the member `name` (the only one: a repeated member is refused).
    fn member(&self, name: &str) -> Result<Option<&'a [u8]>, DecodeError> {
        let mut found = self.members.iter().filter(|member| member.name == name);
        match (found.next(), found.next()) {
            (first, None) => Ok(first.map(|member| member.value)),
            (_, Some(_)) => Err(refused(format!("duplicate field `{name}`"))),
        }
    }

    /// The whole message decoded as `T`.
    pub(crate) fn decode<T: de::DeserializeOwned>(
        &self,
        limits: &DecodeLimits,
    ) -> Result<Decoded<T>, DecodeError> {
        decode_with(self.json, limits)
    }

    /// Checks `"jsonrpc": "2.0"` (what the versions' envelope types require).
    pub(crate) fn check_jsonrpc(&self) -> Result<(), DecodeError> {
        match self.member("jsonrpc")? {
            None => Err(refused("missing field `jsonrpc`".to_owned())),
            Some(value) if value == b"\"2.0\"" => Ok(()),
            Some(value) => {
                // Written with escapes, or not a string, or not JSON at all.
                let read = self.member_with(value, "jsonrpc", |text| {
                    decode_with::<Value>(text, &crate::DECODE_LIMITS)
                })?;
                if read.value == "2.0" {
                    return Ok(());
                }
                let mut error = self.error_at(value, "jsonrpc");
                error.message = format!("`jsonrpc` is {}, not \"2.0\"", read.value);
                Err(error)
            }
        }
    }

    /// The member `name`'s value decoded as `T`, errors and report at its pointer.
    pub(crate) fn decode_member<T: de::DeserializeOwned>(
        &self,
        name: &str,
        limits: &DecodeLimits,
    ) -> Result<Decoded<T>, DecodeError> {
        let Some(value) = self.member(name)? else {
            return Err(refused(format!("missing field `{name}`")));
        };
        self.member_with(value, name, |json| decode_with(json, limits))
    }

    /// The member `name`'s value decoded with `decode`, errors and report at its pointer.
    pub(crate) fn member_as<T>(
        &self,
        name: &str,
        decode: impl FnOnce(&[u8]) -> Result<Decoded<T>, DecodeError>,
    ) -> Result<Decoded<T>, DecodeError> {
        let Some(value) = self.member(name)? else {
            return Err(refused(format!("missing field `{name}`")));
        };
        self.member_with(value, name, decode)
    }

    fn member_with<T>(
        &self,
        value: &[u8],
        name: &str,
        decode: impl FnOnce(&[u8]) -> Result<Decoded<T>, DecodeError>,
    ) -> Result<Decoded<T>, DecodeError> {
        let prefix = crate::pointer::escape(name);
        match decode(value) {
            Ok(mut decoded) => {
                for event in &mut decoded.report {
                    event.pointer.insert_str(0, &format!("/{prefix}"));
                }
                Ok(decoded)
            }
            Err(mut error) => {
                error.pointer.insert_str(0, &format!("/{prefix}"));
                if error.line > 0 {
                    let (line, column) = self.position_of(value);
                    if error.line == 1 {
                        error.column += column - 1;
                    }
                    error.line += line - 1;
                }
                Err(error)
            }
        }
    }

    /// An error at the member `name` whose value is `value`, positioned at its start.
    fn error_at(&self, value: &[u8], name: &str) -> DecodeError {
        let (line, column) = self.position_of(value);
        DecodeError {
            pointer: format!("/{}", crate::pointer::escape(name)),
            message: String::new(),
            line,
            column,
            limit: None,
        }
    }

    /// The 1-based line and column of the first byte of `value` in the message.
    fn position_of(&self, value: &[u8]) -> (usize, usize) {
        let offset = self.offset_of(value);
        let before = &self.json[..offset];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |newline| newline + 1);
        (line, offset - line_start + 1)
    }

    /// Where `value` (borrowed from the message) starts in it.
    fn offset_of(&self, value: &[u8]) -> usize {
        (value.as_ptr() as usize).saturating_sub(self.json.as_ptr() as usize)
    }

    /// The members other than `known`, as values.
    pub(crate) fn others(&self, known: &[&str]) -> Result<Map<String, Value>, DecodeError> {
        let mut out = Map::new();
        for member in &self.members {
            if known.contains(&member.name.as_ref()) {
                continue;
            }
            let value = self.member_with(member.value, &member.name, |text| {
                decode_with::<Value>(text, &crate::DECODE_LIMITS)
            })?;
            if out
                .insert(member.name.clone().into_owned(), value.value)
                .is_some()
            {
                return Err(refused(format!("duplicate field `{}`", member.name)));
            }
        }
        Ok(out)
    }

    #[cfg(any(feature = "mcp-2024-11-05", feature = "mcp-2025-03-26", feature = "mcp-2025-06-18"))]
    /// The message with the members `names` blanked out (each member, its name and one comma
    /// beside it become spaces), so that the rest decodes at the same lines and columns: the
    /// request or notification type of a version without the JSON-RPC envelope.
    pub(crate) fn without(&self, names: &[&str]) -> Vec<u8> {
        let mut text = self.json.to_vec();
        for member in self.members.iter().filter(|m| names.contains(&m.name.as_ref())) {
            let start = self.offset_of(member.value);
            let end = start + member.value.len();
            blank_member(&mut text, start, end);
        }
        text
    }
}

#[cfg(any(feature = "mcp-2024-11-05", feature = "mcp-2025-03-26", feature = "mcp-2025-06-18"))]
/// Blanks the member whose value spans `start..end` of `text` (an object's text): its name (the
/// string before the colon), the value, and the comma after it, or before it for the last member.
fn blank_member(text: &mut [u8], start: usize, end: usize) {
    let is_space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    // Back over the colon to the name's closing quote, then to its opening quote (one not
    // escaped: preceded by an even number of backslashes).
    let mut at = start;
    while at > 0 && (is_space(text[at - 1]) || text[at - 1] == b':') {
        at -= 1;
    }
    let close = at - 1;
    let mut open = close;
    loop {
        open -= 1;
        if text[open] == b'"' {
            let slashes = text[..open].iter().rev().take_while(|&&b| b == b'\\').count();
            if slashes % 2 == 0 {
                break;
            }
        }
    }
    let mut from = open;
    let mut to = end;
    // The comma after, or else the one before.
    let mut after = end;
    while after < text.len() && is_space(text[after]) {
        after += 1;
    }
    if text.get(after) == Some(&b',') {
        to = after + 1;
    } else {
        let mut before = open;
        while before > 0 && is_space(text[before - 1]) {
            before -= 1;
        }
        if before > 0 && text[before - 1] == b',' {
            from = before - 1;
        }
    }
    for byte in &mut text[from..to] {
        // Keep line breaks, so that lines stay where they were.
        if !matches!(*byte, b'\n' | b'\r') {
            *byte = b' ';
        }
    }
}

#[cfg(feature = "mcp-2025-03-26")]
/// A batch's items decoded one by one; errors and report under the item's index.
pub(crate) fn batch<T>(
    json: &[u8],
    items: &[&[u8]],
    mut decode: impl FnMut(&[u8]) -> Result<Decoded<T>, DecodeError>,
) -> Result<Decoded<Vec<T>>, DecodeError> {
    let mut values = Vec::with_capacity(items.len());
    let mut report = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let skim = Skim {
            json,
            members: Vec::new(),
            kind: Kind::Error,
        };
        let decoded = skim.member_with(item, &index.to_string(), &mut decode)?;
        values.push(decoded.value);
        report.extend(decoded.report);
    }
    Ok(Decoded {
        value: values,
        report,
    })
}

/// Declares `ClientMessage` and `ServerMessage` in a version module (see the module docs):
/// `enveloped` for versions whose request types hold the JSON-RPC envelope, `bare` for the
/// others; `batch: [Batch]` when the version has batches; each side's request type when it sends
/// requests, and whether its result union has `decode_for` (`paired`) or is decoded plainly.
macro_rules! messages {
    (
        form: $form:ident,
        batch: [$($batch:ident)?],
        error: $error:ident,
        client: { [$($client_request:ident)?], $client_notification:ident, $client_result:ident $client_pairing:ident },
        server: { [$($server_request:ident)?], $server_notification:ident, $server_result:ident $server_pairing:ident } $(,)?
    ) => {
        $crate::mcp::side::messages!(@side $form, [$($batch)?], $error, ClientMessage, ClientResponse,
            "client", "server", [$($client_request)?], $client_notification, $client_result $client_pairing);
        $crate::mcp::side::messages!(@side $form, [$($batch)?], $error, ServerMessage, ServerResponse,
            "server", "client", [$($server_request)?], $server_notification, $server_result $server_pairing);
    };
    (@side $form:ident, [$($batch:ident)?], $error:ident, $message:ident, $response:ident, $by:literal,
        $other:literal, [$($request:ident)?], $notification:ident, $result:ident $pairing:ident) => {
        #[doc = concat!("A response the ", $by, " sends: the id of the ", $other, "'s request and its `", stringify!($result), "`.")]
        pub type $response = $crate::mcp::side::Response<RequestId, $result>;

        #[doc = concat!("A message the ", $by, " sends, by what it is: one JSON-RPC 2.0 object (`method` and `id`: a request; `method` alone: a notification; `result`: a response; `error`: an error), typed by this version's schema (`schema/mcp/<version>/schema.json`: `", stringify!($notification), "`, `", stringify!($result), "`, `", stringify!($error), "` and, where this side sends requests, its request union). Decoded by `decode`/`decode_with`, written by `toolcall_contracts::encode` as the message it holds. See `toolcall_contracts::mcp::side`.")]
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
        pub enum $message {
            $(
                /// A request (`method` and `id`).
                Request($crate::mcp::side::messages!(@request $form, $request)),
            )?
            /// A notification (`method`, no `id`).
            Notification($notification),
            #[doc = concat!("A response to the ", $other, "'s request (`result`).")]
            Response($response),
            /// An error response (`error`).
            Error($error),
            $(
                /// A batch: messages in a JSON array.
                $batch(Vec<$message>),
            )?
        }

        impl $message {
            #[doc = concat!("Decodes one message the ", $by, " sent (within `toolcall_contracts::DECODE_LIMITS`). `method_of` gives the method of the ", $other, "'s pending request a response answers, by its id: the result is then decoded as that method's result; `None` decodes it as `", stringify!($result), "`.")]
            ///
            /// # Errors
            /// `DecodeError` at the pointer of the member that fails: a message that is no
            /// JSON-RPC message of this side, or whose request, notification, result or error
            /// breaks the schema.
            pub fn decode<'m>(
                json: &[u8],
                method_of: impl FnMut(&RequestId) -> Option<&'m str>,
            ) -> ::std::result::Result<rt::Decoded<Self>, rt::DecodeError> {
                Self::decode_with(json, &rt::DECODE_LIMITS, method_of)
            }

            /// [`Self::decode`] within `limits`.
            ///
            /// # Errors
            /// As `decode`, input over `limits` giving the limit.
            pub fn decode_with<'m>(
                json: &[u8],
                limits: &rt::DecodeLimits,
                mut method_of: impl FnMut(&RequestId) -> Option<&'m str>,
            ) -> ::std::result::Result<rt::Decoded<Self>, rt::DecodeError> {
                Self::decode_in(json, limits, &mut method_of)
            }

            /// `decode_with`, a syntax error said as such wherever the input is not JSON (the
            /// members are decoded one by one, so a member's own error could come first).
            fn decode_in<'m>(
                json: &[u8],
                limits: &rt::DecodeLimits,
                method_of: &mut dyn FnMut(&RequestId) -> Option<&'m str>,
            ) -> ::std::result::Result<rt::Decoded<Self>, rt::DecodeError> {
                Self::decode_message(json, limits, method_of)
                    .map_err(|error| $crate::mcp::side::syntax_first(json, error))
            }

            fn decode_message<'m>(
                json: &[u8],
                limits: &rt::DecodeLimits,
                method_of: &mut dyn FnMut(&RequestId) -> Option<&'m str>,
            ) -> ::std::result::Result<rt::Decoded<Self>, rt::DecodeError> {
                use $crate::mcp::side::{Kind, Skimmed};
                let skim = match $crate::mcp::side::skim(json, limits)? {
                    Skimmed::Message(skim) => skim,
                    Skimmed::Batch(items) => {
                        return $crate::mcp::side::messages!(@batch [$($batch)?], $message, json, items, limits, method_of);
                    }
                };
                let members = $crate::mcp::side::member_limits(limits);
                match skim.kind {
                    Kind::Request => {
                        $crate::mcp::side::messages!(@decode_request $form, [$($request)?], $by, skim, limits, members)
                    }
                    Kind::Notification => {
                        $crate::mcp::side::messages!(@decode_notification $form, $notification, skim, limits)
                            .map(|d| rt::Decoded { value: Self::Notification(d.value), report: d.report })
                    }
                    Kind::Response => {
                        let id = skim.decode_member::<RequestId>("id", &members)?;
                        skim.check_jsonrpc()?;
                        let unknown_members = skim.others(&["jsonrpc", "id", "result"])?;
                        // Asked once the envelope is read; the result may still be refused.
                        let method = method_of(&id.value);
                        let result = skim.member_as("result", |text| {
                            $crate::mcp::side::messages!(@decode_result $pairing, $result, method, text, &members)
                        })?;
                        let mut report = id.report;
                        report.extend(result.report);
                        let mut response = $crate::mcp::side::Response::new(id.value, result.value);
                        response.unknown_members = unknown_members;
                        Ok(rt::Decoded { value: Self::Response(response), report })
                    }
                    Kind::Error => skim
                        .decode::<$error>(limits)
                        .map(|d| rt::Decoded { value: Self::Error(d.value), report: d.report }),
                }
            }
        }

        impl Serialize for $message {
            fn serialize<S: Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                match self {
                    $(
                        Self::Request(request) => {
                            let request: &$crate::mcp::side::messages!(@request $form, $request) = request;
                            request.serialize(serializer)
                        }
                    )?
                    Self::Notification(notification) => {
                        $crate::mcp::side::messages!(@write_notification $form, notification, serializer)
                    }
                    Self::Response(response) => response.serialize(serializer),
                    Self::Error(error) => error.serialize(serializer),
                    $(
                        Self::$batch(messages) => messages.serialize(serializer),
                    )?
                }
            }
        }
        impl rt::Sealed for $message {}
        impl Contract for $message {}
    };

    (@request enveloped, $request:ident) => { $request };
    (@request bare, $request:ident) => { $crate::mcp::side::Request<RequestId, $request> };

    (@decode_request $form:ident, [], $by:literal, $skim:ident, $limits:ident, $members:ident) => {{
        let _ = (&$skim, &$members);
        Err($crate::mcp::side::not_sent(concat!("a request: the ", $by, " sends none in this version")))
    }};
    (@decode_request enveloped, [$request:ident], $by:literal, $skim:ident, $limits:ident, $members:ident) => {{
        let _ = &$members;
        $skim
            .decode::<$request>($limits)
            .map(|d| rt::Decoded { value: Self::Request(d.value), report: d.report })
    }};
    (@decode_request bare, [$request:ident], $by:literal, $skim:ident, $limits:ident, $members:ident) => {{
        // The envelope as the version defines it (`params._meta` and all), then the request.
        $skim.decode::<JSONRPCRequest>($limits)?;
        let id = $skim.decode_member::<RequestId>("id", &$members)?;
        $skim.check_jsonrpc()?;
        let request: rt::Decoded<$request> =
            $crate::decode_with(&$skim.without(&["jsonrpc", "id"]), $limits)?;
        let mut report = id.report;
        report.extend(request.report);
        Ok(rt::Decoded {
            value: Self::Request($crate::mcp::side::Request::new(id.value, request.value)),
            report,
        })
    }};

    (@decode_notification enveloped, $notification:ident, $skim:ident, $limits:ident) => {
        $skim.decode::<$notification>($limits)
    };
    (@decode_notification bare, $notification:ident, $skim:ident, $limits:ident) => {{
        $skim.decode::<JSONRPCNotification>($limits)?;
        $skim.check_jsonrpc()?;
        $crate::decode_with::<$notification>(&$skim.without(&["jsonrpc"]), $limits)
    }};

    (@write_notification enveloped, $notification:ident, $serializer:ident) => {
        $notification.serialize($serializer)
    };
    (@write_notification bare, $notification:ident, $serializer:ident) => {
        $crate::mcp::side::write_bare_notification($notification, $serializer)
    };

    (@decode_result paired, $result:ident, $method:ident, $text:ident, $limits:expr) => {
        match $method {
            Some(method) => $result::decode_for_with(method, $text, $limits),
            None => $crate::decode_with::<$result>($text, $limits),
        }
    };
    (@decode_result plain, $result:ident, $method:ident, $text:ident, $limits:expr) => {{
        let _ = $method;
        $crate::decode_with::<$result>($text, $limits)
    }};

    (@batch [$batch:ident], $message:ident, $json:ident, $items:ident, $limits:ident, $method_of:ident) => {
        $crate::mcp::side::batch($json, &$items, |item| {
            if item.first() == Some(&b'[') {
                return Err($crate::mcp::side::not_sent("a batch inside a batch"));
            }
            $message::decode_in(item, $limits, &mut *$method_of)
        })
        .and_then(|d| {
            // A batch of requests and notifications, or one of responses and errors.
            let asks = |m: &$message| !matches!(m, Self::Response(_) | Self::Error(_));
            match d.value.iter().position(|m| asks(m) != d.value.first().is_some_and(asks)) {
                Some(index) => Err($crate::mcp::side::mixed_batch(index)),
                None => Ok(rt::Decoded { value: Self::$batch(d.value), report: d.report }),
            }
        })
    };
    (@batch [], $message:ident, $json:ident, $items:ident, $limits:ident, $method_of:ident) => {{
        let _ = (&$items, &$method_of);
        Err($crate::mcp::side::not_sent("an array (a batch): this version has none"))
    }};
}
pub(crate) use messages;

/// The messages of each version module: what differs between the versions' schemas.
macro_rules! version_messages {
    (v2024_11_05) => { $crate::mcp::side::version_messages!(@bare []); };
    (v2025_03_26) => { $crate::mcp::side::version_messages!(@bare [Batch]); };
    (v2025_06_18) => { $crate::mcp::side::version_messages!(@bare []); };
    (@bare [$($batch:ident)?]) => {
        $crate::mcp::side::messages! {
            form: bare,
            batch: [$($batch)?],
            error: JSONRPCError,
            client: { [ClientRequest], ClientNotification, ClientResult paired },
            server: { [ServerRequest], ServerNotification, ServerResult paired },
        }
    };
    (v2025_11_25) => {
        $crate::mcp::side::messages! {
            form: enveloped,
            batch: [],
            error: JSONRPCErrorResponse,
            client: { [ClientRequest], ClientNotification, ClientResult paired },
            server: { [ServerRequest], ServerNotification, ServerResult paired },
        }
    };
    // The draft: the server sends no requests, and a client's result is the plain `Result`.
    (v2026_07_28) => {
        $crate::mcp::side::messages! {
            form: enveloped,
            batch: [],
            error: JSONRPCErrorResponse,
            client: { [ClientRequest], ClientNotification, ClientResult plain },
            server: { [], ServerNotification, ServerResult paired },
        }
    };
}
pub(crate) use version_messages;

/// The limits a member of a message is decoded within, once the whole message was checked
/// against `limits`: the same byte limit, and serde_json's own depth (no second scan).
#[must_use]
pub(crate) fn member_limits(limits: &DecodeLimits) -> DecodeLimits {
    DecodeLimits::new(limits.max_bytes, crate::DECODE_LIMITS.max_depth)
}

#[cfg(any(feature = "mcp-2024-11-05", feature = "mcp-2025-03-26", feature = "mcp-2025-06-18"))]
/// Writes a notification of a version without the envelope, with `"jsonrpc": "2.0"`.
///
/// # Errors
/// The serializer's.
pub(crate) fn write_bare_notification<S: Serializer, N: Serialize>(
    notification: &N,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    Notification(notification).serialize(serializer)
}

/// `error`, or the syntax error of `json` when it is not JSON (a limit stays the error).
pub(crate) fn syntax_first(json: &[u8], error: DecodeError) -> DecodeError {
    if error.limit.is_some() {
        return error;
    }
    match serde_json::from_slice::<de::IgnoredAny>(json) {
        Err(syntax) if !syntax.to_string().starts_with("recursion limit exceeded") => {
            DecodeError::from_serde(&syntax, String::new())
        }
        _ => error,
    }
}

/// The error for a batch whose item `index` is a request or notification among responses and
/// errors, or the other way round (2025-03-26 has batches of either, not both).
#[cfg(feature = "mcp-2025-03-26")]
pub(crate) fn mixed_batch(index: usize) -> DecodeError {
    DecodeError {
        pointer: format!("/{index}"),
        message: "a batch mixing requests or notifications with responses or errors".to_owned(),
        line: 0,
        column: 0,
        limit: None,
    }
}

/// The error for a message this side does not send, at the root.
#[must_use]
pub(crate) fn not_sent(what: &str) -> DecodeError {
    refused(format!("{what}: not a message of this side"))
}

#[cfg(any(feature = "mcp-2024-11-05", feature = "mcp-2025-03-26", feature = "mcp-2025-06-18"))]
#[cfg(test)]
mod tests {
    use super::blank_member;

    fn blanked(text: &str, value: &str) -> String {
        let start = text.find(value).unwrap();
        let mut bytes = text.as_bytes().to_vec();
        blank_member(&mut bytes, start, start + value.len());
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn a_blanked_member_leaves_the_rest_where_it_was() {
        assert_eq!(
            blanked(r#"{"id":7,"method":"ping"}"#, "7"),
            r#"{       "method":"ping"}"#
        );
        assert_eq!(
            blanked(r#"{"method":"ping", "id" : 7 }"#, "7"),
            r#"{"method":"ping"           }"#
        );
        assert_eq!(
            blanked("{\"a\\\"\\\\\":\n 1,\n\"b\":2}", "1"),
            "{        \n   \n\"b\":2}"
        );
        let text = blanked(r#"{"x":1,"id":"a,b","y":2}"#, r#""a,b""#);
        assert_eq!(text, r#"{"x":1,           "y":2}"#);
        serde_json::from_str::<serde_json::Value>(&text).unwrap();
    }
}

#[cfg(test)]
mod scanner_tests {
    use super::{Member, Scanner, Shape};

    /// What a shape holds, to compare: member names and value texts, or item texts.
    fn parts(shape: &Shape<'_>) -> Vec<(String, Vec<u8>)> {
        match shape {
            Shape::Object(members) => members
                .iter()
                .map(|Member { name, value }| (name.to_string(), value.to_vec()))
                .collect(),
            Shape::Array(items) => items.iter().map(|item| (String::new(), item.to_vec())).collect(),
            Shape::Other(kind) => vec![((*kind).to_owned(), Vec::new())],
        }
    }

    /// serde_json's reading of the same text.
    fn serde_shape(text: &[u8]) -> Option<Vec<(String, Vec<u8>)>> {
        let mut de = serde_json::Deserializer::from_slice(text);
        let shape = serde::Deserialize::deserialize(&mut de).ok()?;
        de.end().ok()?;
        Some(parts(&shape))
    }

    /// Every value the scanner found is JSON on its own (what decoding each does next).
    fn values_parse(parts: &[(String, Vec<u8>)]) -> bool {
        parts
            .iter()
            .all(|(_, value)| serde_json::from_slice::<serde::de::IgnoredAny>(value).is_ok())
    }

    /// The scanner agrees with serde_json wherever it answers: the same members and values when
    /// serde_json reads the text, and where serde_json refuses it, a value that is not JSON
    /// (which its decode then refuses). On real and hand-written messages, each cut at every
    /// byte and with every byte replaced by one of JSON's structural characters.
    #[test]
    fn the_scanner_reads_what_serde_json_reads() {
        let transcripts = [
            include_str!("../../tests/fixtures/transcripts/mcp_2025-11-25.ndjson"),
            include_str!("../../tests/fixtures/transcripts/mcp_2025-03-26_batches.ndjson"),
            include_str!("../../tests/fixtures/mcp/python-sdk/transcript.ndjson"),
        ];
        let mut texts: Vec<Vec<u8>> = Vec::new();
        for line in transcripts.iter().flat_map(|t| t.lines()) {
            let message = match serde_json::from_str::<serde_json::Value>(line).unwrap() {
                serde_json::Value::Object(mut record) if record.contains_key("from") => {
                    record.remove("message").unwrap()
                }
                other => other,
            };
            texts.push(serde_json::to_vec(&message).unwrap());
        }
        texts.push(b" { \"a\\\"\" : [1, {\"b\": \"]}\\\\\"}] ,\"\\u0069d\":2 } ".to_vec());
        texts.push(b"[]".to_vec());
        texts.push(b"{}".to_vec());
        let mut cases = 0;
        let mut answered = 0;
        for text in &texts {
            let mut variants = vec![text.clone()];
            for at in 0..text.len() {
                variants.push(text[..at].to_vec());
                for byte in b"{}[]\",:\\ x\t" {
                    let mut changed = text.clone();
                    changed[at] = *byte;
                    variants.push(changed);
                }
            }
            for variant in variants {
                cases += 1;
                let Some(shape) = Scanner::new(&variant, 127).shape() else {
                    continue;
                };
                answered += 1;
                let scanned = parts(&shape);
                match serde_shape(&variant) {
                    Some(read) => assert_eq!(scanned, read, "{}", String::from_utf8_lossy(&variant)),
                    None => assert!(
                        !values_parse(&scanned),
                        "serde_json refuses {} but every value parses",
                        String::from_utf8_lossy(&variant)
                    ),
                }
            }
        }
        assert!(cases > 90_000 && answered > cases / 2, "{cases} cases, {answered} answered");
    }

    #[test]
    fn the_scanner_counts_the_depth() {
        let nested = |levels: usize| {
            format!("{{\"a\":{}1{}}}", "[".repeat(levels), "]".repeat(levels)).into_bytes()
        };
        assert!(Scanner::new(&nested(126), 127).shape().is_some());
        assert!(Scanner::new(&nested(127), 127).shape().is_none());
        assert!(Scanner::new(&nested(2), 3).shape().is_some());
        assert!(Scanner::new(&nested(3), 3).shape().is_none());
        assert!(Scanner::new(b"{}", 0).shape().is_none());
    }
}
