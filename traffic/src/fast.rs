//! The one-pass check: most of an ACP session is well-formed JSON-RPC whose `params` or `result`
//! has a generated type, and such a message is checked in one parse of its bytes.
//!
//! The message is parsed once: its `params` (or the `result` of a response paired with its
//! request) are decoded straight into the generated type of their definition, in the optimistic pass of a decode session (leniency is noticed, not reported).
//! The generated types carry every assertion of the schema (the code generator's contract:
//! decoding enforces what the schema says, and refuses nothing the schema accepts), so a decode
//! with no error, no leniency and no repeated member is what the schema accepts as it is: the
//! verdict is then the one the full check gives, built by the same code (the envelope, the
//! pairing, the protocol). Repeated member names are found by the same parse: the generated
//! types refuse a member given twice, and in a check the values they do not type (free-form
//! members, buffered unions) are read with every object's names compared
//! (`toolcall_contracts::__private::repeats`); the envelope compares its own.
//!
//! Anything else goes to the full check (`Checker::check_line`), which parses the message into
//! a `Value`, validates it with the schema, decodes the tool-call payloads for their report and
//! looks for repeated members: a message that is not JSON, over a limit, not ACP, an error
//! response, a response whose request is not paired, `initialize`, a message with members
//! outside the envelope, one whose decode failed or applied leniency, one with a repeated
//! member. The fast path changes nothing before it knows it decides, so the full check starts
//! from the same transcript.

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::sync::LazyLock;
use toolcall_contracts::__private::any;
use toolcall_contracts::__private::seeds::Adapter;
use toolcall_contracts::__private::session::{optimistic_check, Unbuilt};
use toolcall_contracts::__private::Key;
use toolcall_contracts::acp;

use super::checker::{Body, Checker};
use super::mcp::META_PROTOCOL_VERSION;
use super::rpc::{Bodies, Envelope};
use super::transcript::{Family, Side, Transcript};
use super::verdict::{Protocol, Verdict};

/// The only `jsonrpc` the one pass decides.
static JSONRPC_VERSION: LazyLock<Value> = LazyLock::new(|| Value::from("2.0"));

/// The deepest nesting serde_json parses: within limits at least this deep, the parse itself
/// enforces the depth limit, and a message over it fails the parse and goes to the full check,
/// which reports the limit. (The tap's transcript records hold a message one level down:
/// `crate::tap_records::nests_in_record`.)
pub(crate) const PARSER_DEPTH: usize =
    toolcall_contracts::policy::DecodeLimits::SERDE_JSON_MAX_DEPTH;

macro_rules! targets {
    ($($name:ident),* $(,)?) => {
        /// The ACP definitions of method params and results, decoded into their generated type.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        enum Target {
            $($name,)*
        }

        impl Target {
            fn of(definition: &str) -> Option<Self> {
                Some(match definition {
                    $(stringify!($name) => Self::$name,)*
                    _ => return None,
                })
            }

            fn decode<'de, D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                match self {
                    $(Self::$name => acp::$name::deserialize(d).map(drop),)*
                }
            }
        }
    };
}

targets! {
    InitializeResponse, AuthenticateRequest, AuthenticateResponse, LogoutRequest, LogoutResponse,
    NewSessionRequest, NewSessionResponse, LoadSessionRequest, LoadSessionResponse,
    ListSessionsRequest, ListSessionsResponse, DeleteSessionRequest, DeleteSessionResponse,
    ResumeSessionRequest, ResumeSessionResponse, CloseSessionRequest, CloseSessionResponse,
    SetSessionModeRequest, SetSessionModeResponse, SetSessionConfigOptionRequest,
    SetSessionConfigOptionResponse, PromptRequest, PromptResponse, SessionNotification,
    CancelNotification, CancelRequestNotification, CompleteElicitationNotification,
    WriteTextFileRequest, WriteTextFileResponse, ReadTextFileRequest, ReadTextFileResponse,
    RequestPermissionRequest, RequestPermissionResponse, CreateTerminalRequest,
    CreateTerminalResponse, TerminalOutputRequest, TerminalOutputResponse, ReleaseTerminalRequest,
    ReleaseTerminalResponse, WaitForTerminalExitRequest, WaitForTerminalExitResponse,
    KillTerminalRequest, KillTerminalResponse, CreateElicitationRequest, CreateElicitationResponse,
}

impl<'de> DeserializeSeed<'de> for Target {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.decode(d)
    }
}

/// What the one pass read of a message the fast path decides.
struct Parsed {
    /// The sender: the wrapper's, or the caller's.
    from: Option<Side>,
    id: Option<Value>,
    method: Option<String>,
    params: bool,
    result: bool,
    /// `params` of `session/update`, decoded (for the tap's tool-call lifecycle), its
    /// free-form members (`rawInput`, `rawOutput`, `_meta`) left empty and its strings empty but
    /// those of named string types (`sessionId`, `toolCallId`): the one pass reads them without
    /// building them (`optimistic_check`). Without `keep_update` it builds no string at all.
    update: Option<Box<acp::SessionNotification>>,
}

impl Checker {
    /// The verdict on `message` (sent by `from` when known) when the one-pass check decides it
    /// (see the module docs); `None`, with `transcript` unchanged, otherwise.
    pub(super) fn check_fast(
        &self,
        transcript: &mut Transcript,
        from: Option<Side>,
        message: &[u8],
    ) -> Option<Verdict> {
        if !self.one_pass_applies(message) {
            return None;
        }
        // Parsed as `str` once its UTF-8 is checked as a whole (serde_json then checks no
        // string's UTF-8 again); anything else is the full check's.
        let text = simdutf8::basic::from_utf8(message).ok()?;
        let parsed = self.parse_fast(transcript, from, text, false)?;
        self.decide(transcript, parsed)
    }

    /// For the tap: the verdict on a `session/update` notification from `from` when the one-pass
    /// check decides it, with the decoded notification (what the tool-call lifecycle reads of it:
    /// `tap::session::tool_call_of`; only the strings of named string types, such as its ids,
    /// are built). `None`, with `transcript` unchanged (the message not begun),
    /// otherwise: then it is checked as any other message.
    pub(crate) fn check_update_from(
        &self,
        transcript: &mut Transcript,
        from: Side,
        message: &str,
    ) -> Option<(Verdict, Box<acp::SessionNotification>)> {
        if !self.one_pass_applies(message.as_bytes()) {
            return None;
        }
        let mut parsed = self.parse_fast(transcript, Some(from), message, true)?;
        let update = parsed.update.take()?;
        if parsed.id.is_some() || !Self::decides(transcript, &parsed) {
            return None;
        }
        transcript.begin_message();
        Some((self.decide(transcript, parsed)?, update))
    }

    /// Whether the one pass may check `message` at all under this checker's settings.
    fn one_pass_applies(&self, message: &[u8]) -> bool {
        self.one_pass
            && message.len() <= self.limits.max_bytes
            && self.limits.max_depth >= PARSER_DEPTH
    }

    /// Whether a message the one pass read is one it decides.
    fn decides(transcript: &Transcript, parsed: &Parsed) -> bool {
        match &parsed.method {
            None => parsed.result && parsed.id.is_some() && !parsed.params,
            Some(method) => {
                !parsed.result
                    && (parsed.params || method.starts_with('_'))
                    && transcript.family() != Some(Family::Mcp)
            }
        }
    }

    /// The verdict on a message the one pass read, when it decides it.
    fn decide(&self, transcript: &mut Transcript, parsed: Parsed) -> Option<Verdict> {
        if !Self::decides(transcript, &parsed) {
            return None;
        }
        let Parsed {
            from,
            id,
            method,
            params,
            result,
            update: _,
        } = parsed;
        // The one pass read `jsonrpc` as "2.0" and no member but these: nothing else of the
        // message is asked for (not `initialize`, not MCP).
        let method = method.map(Value::String);
        let message = Envelope {
            object: &Map::new(),
            jsonrpc: Some(&JSONRPC_VERSION),
            id: id.as_ref(),
            method: method.as_ref(),
            error: None,
        };
        let bodies = Bodies {
            params: params.then_some(Body::Decoded),
            result: result.then_some(Body::Decoded),
        };
        let verdict = self.check_envelope(transcript, from, &Value::Null, message, bodies);
        debug_assert_eq!(verdict.protocol, Some(Protocol::Acp));
        let note = self.assumed_version_note(transcript, verdict.protocol);
        Some(Verdict { note, ..verdict }.sent_by(from))
    }

    /// The one pass over `text`, a message whose UTF-8 is checked: `None` when the fast path does
    /// not decide it.
    fn parse_fast(
        &self,
        transcript: &Transcript,
        from: Option<Side>,
        text: &str,
        keep_update: bool,
    ) -> Option<Parsed> {
        let context = Context {
            checker: self,
            transcript,
            keep_update,
        };
        // The tap's lifecycle reads the update's session and tool call ids (named string types).
        let unbuilt = if keep_update {
            Unbuilt::FreeFormAndUnnamedStrings
        } else {
            Unbuilt::FreeFormAndStrings
        };
        // A request carrying an MCP protocol version in its `_meta` is MCP's: the full check's.
        optimistic_check(unbuilt, &[META_PROTOCOL_VERSION], || {
            let mut de = serde_json::Deserializer::from_str(text);
            let parsed = de.deserialize_map(Top {
                context: &context,
                from,
            })?;
            de.end()?;
            Ok::<_, serde_json::Error>(parsed)
        })
    }
}

struct Context<'c> {
    checker: &'c Checker,
    transcript: &'c Transcript,
    /// Whether `session/update`'s params are kept ([`Parsed::update`]) rather than dropped as
    /// soon as decoded.
    keep_update: bool,
}

fn not_decided<E: de::Error>() -> E {
    E::custom("not for the one-pass check")
}

/// The top level: a transcript wrapper `{"from": ..., "message": ...}` (when the caller did not
/// give the sender), or the message itself.
struct Top<'c> {
    context: &'c Context<'c>,
    from: Option<Side>,
}

impl<'de> Visitor<'de> for Top<'_> {
    type Value = Parsed;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Parsed, A::Error> {
        let Some(first) = map.next_key::<Key<'de>>()? else {
            return Err(not_decided());
        };
        let wrapper = self.from.is_none() && matches!(first.as_str(), "from" | "message");
        if !wrapper {
            return read_envelope(self.context, self.from, map, Some(first));
        }
        // A wrapper: exactly `from` (a side's name), then `message`.
        if first.as_str() != "from" {
            return Err(not_decided());
        }
        let name = map.next_value::<Key<'de>>()?;
        let from = Side::from_name(name.as_str()).ok_or_else(not_decided)?;
        match map.next_key::<Key<'de>>()? {
            Some(key) if key.as_str() == "message" => {}
            _ => return Err(not_decided()),
        }
        let parsed = map.next_value_seed(EnvelopeSeed {
            context: self.context,
            from: Some(from),
        })?;
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(not_decided());
        }
        Ok(parsed)
    }
}

struct EnvelopeSeed<'c> {
    context: &'c Context<'c>,
    from: Option<Side>,
}

impl<'de> DeserializeSeed<'de> for EnvelopeSeed<'_> {
    type Value = Parsed;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Parsed, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EnvelopeSeed<'_> {
    type Value = Parsed;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Parsed, A::Error> {
        read_envelope(self.context, self.from, map, None)
    }
}

/// The members of a JSON-RPC message (`first` is its first member name, when read already):
/// `jsonrpc`, `id`, `method`, and `params` or `result` decoded into the generated type of their
/// definition as they come.
fn read_envelope<'de, A: MapAccess<'de>>(
    context: &Context<'_>,
    from: Option<Side>,
    mut map: A,
    first: Option<Key<'de>>,
) -> Result<Parsed, A::Error> {
    let mut parsed = Parsed {
        from,
        id: None,
        method: None,
        params: false,
        result: false,
        update: None,
    };
    let mut jsonrpc = false;
    let mut key = match first {
        Some(first) => Some(first),
        None => map.next_key::<Key<'de>>()?,
    };
    while let Some(name) = key {
        // A member given twice is the full check's to report.
        let repeated = match name.as_str() {
            "jsonrpc" => jsonrpc,
            "id" => parsed.id.is_some(),
            "method" => parsed.method.is_some(),
            "params" => parsed.params,
            "result" => parsed.result,
            _ => false,
        };
        if repeated {
            return Err(not_decided());
        }
        match name.as_str() {
            "jsonrpc" => {
                if map.next_value::<Key<'de>>()?.as_str() != "2.0" {
                    return Err(not_decided());
                }
                jsonrpc = true;
            }
            "id" => {
                let id = map.next_value::<Value>()?;
                let valid = match &id {
                    Value::Null | Value::String(_) => true,
                    Value::Number(number) => number.is_i64() || number.is_u64(),
                    _ => false,
                };
                if !valid {
                    return Err(not_decided());
                }
                parsed.id = Some(id);
            }
            "method" => {
                let method = map.next_value::<Key<'de>>()?;
                if matches!(method.as_str(), "initialize" | "server/discover") {
                    return Err(not_decided());
                }
                parsed.method = Some(method.0.into_owned());
            }
            "params" => {
                let method = parsed.method.as_deref().ok_or_else(not_decided)?;
                if method.starts_with('_') {
                    // An extension method: any params (their members are still compared).
                    map.next_value_seed(Adapter(any()))?;
                } else {
                    let known = context.checker.acp.method(method).ok_or_else(not_decided)?;
                    let target = Target::of(&known.params).ok_or_else(not_decided)?;
                    if context.keep_update && target == Target::SessionNotification {
                        parsed.update = Some(Box::new(map.next_value()?));
                    } else {
                        map.next_value_seed(target)?;
                    }
                }
                parsed.params = true;
            }
            "result" => {
                if parsed.method.is_some() {
                    return Err(not_decided());
                }
                let id = parsed.id.as_ref().ok_or_else(not_decided)?;
                let request = context
                    .transcript
                    .peek_answer(id, parsed.from.map(Side::role))
                    .ok_or_else(not_decided)?;
                if request.protocol != Protocol::Acp {
                    return Err(not_decided());
                }
                let method = request.method.as_str();
                let response =
                    context
                        .checker
                        .acp
                        .method(method)
                        .and_then(|known| match &known.role {
                            super::schema::Role::Request { response } => response.as_deref(),
                            super::schema::Role::Notification => None,
                        });
                match response {
                    // An extension method's result is any value; a method without a result
                    // definition is not checked (`unchecked`): its members are still compared.
                    _ if method.starts_with('_') => {
                        map.next_value_seed(Adapter(any()))?;
                    }
                    None => {
                        map.next_value_seed(Adapter(any()))?;
                    }
                    Some(response) => {
                        let target = Target::of(response).ok_or_else(not_decided)?;
                        map.next_value_seed(target)?;
                    }
                }
                parsed.result = true;
            }
            _ => return Err(not_decided()),
        }
        key = map.next_key::<Key<'de>>()?;
    }
    if jsonrpc {
        Ok(parsed)
    } else {
        Err(not_decided())
    }
}

/// The benchmark corpus (`benches/wire/corpus.rs`), for the tests.
#[cfg(test)]
#[path = "../../benches/wire/corpus.rs"]
#[allow(
    dead_code,
    unexpected_cfgs,
    reason = "the benchmark corpus; only some of it is used here, without its crate's features"
)]
mod corpus;

#[cfg(test)]
pub(crate) mod tests {
    //! The one-pass check gives the verdict the full check gives, message for message, on real
    //! traffic, on the benchmark corpus, and on mutations of both (values of another type,
    //! members removed, added or repeated, unknown tags, escapes, nesting).

    use serde_json::{json, Value};

    use super::*;
    use crate::input::split_messages;

    use super::corpus;

    /// Every corpus of real or realistic ACP traffic at hand: `(name, NDJSON)`.
    /// The repository's files at `relatives`, each named by its path.
    pub(crate) fn fixtures(relatives: &[&str]) -> Vec<(String, Vec<u8>)> {
        relatives
            .iter()
            .map(|relative| {
                let path = toolcall_test_support::fixture(relative);
                (
                    (*relative).to_owned(),
                    std::fs::read(path).expect("readable"),
                )
            })
            .collect()
    }

    pub(crate) fn corpora() -> Vec<(String, Vec<u8>)> {
        let mut out = Vec::new();
        for relative in ["acp-traffic/messages.ndjson", "acp-examples/docs-v1.ndjson"] {
            if let Some(path) = toolcall_test_support::shared(relative) {
                out.push((relative.to_owned(), std::fs::read(path).expect("readable")));
            }
        }
        out.extend(fixtures(&[
            "tests/fixtures/acp/claude-agent-acp/session-load.ndjson",
            "tests/fixtures/transcripts/acp_reused_ids.ndjson",
            "tests/fixtures/transcripts/acp_same_ids.ndjson",
            "examples/transcript.ndjson",
            "examples/invalid.ndjson",
            "examples/lenient.ndjson",
        ]));
        let params = corpus::notifications(60, corpus::SEED);
        out.push(("wire corpus".to_owned(), corpus::ndjson(&params)));
        out.push(("hand-made".to_owned(), hand_made().into_bytes()));
        out
    }

    /// A session both ways, wrapped and bare, with the cases the fast path must leave alone.
    fn hand_made() -> String {
        let lines = [
            json!({"from": "client", "message": {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {"protocolVersion": 1, "clientCapabilities": {}}}}),
            json!({"from": "agent", "message": {"jsonrpc": "2.0", "id": 0,
                "result": {"protocolVersion": 1, "agentCapabilities": {}}}}),
            json!({"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "session/new",
                "params": {"cwd": "/w", "mcpServers": []}}}),
            json!({"from": "agent", "message": {"jsonrpc": "2.0", "id": 1, "result": {"sessionId": "s"}}}),
            json!({"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "session/prompt",
                "params": {"sessionId": "s", "prompt": [{"type": "text", "text": "hi"}]}}}),
            json!({"from": "agent", "message": {"jsonrpc": "2.0", "id": 0, "method": "session/request_permission",
                "params": {"sessionId": "s", "toolCall": {"toolCallId": "c"},
                "options": [{"optionId": "a", "name": "Allow", "kind": "allow_once"}]}}}),
            json!({"from": "client", "message": {"jsonrpc": "2.0", "id": 0,
                "result": {"outcome": {"outcome": "selected", "optionId": "a"}}}}),
            json!({"from": "agent", "message": {"jsonrpc": "2.0", "id": 7, "method": "_zed.dev/x", "params": [1, {"a": 1}]}}),
            json!({"from": "client", "message": {"jsonrpc": "2.0", "id": 7, "result": null}}),
            json!({"from": "agent", "message": {"jsonrpc": "2.0", "method": "_zed.dev/note"}}),
            json!({"from": "agent", "message": {"jsonrpc": "2.0", "id": 8, "method": "fs/read_text_file",
                "params": {"sessionId": "s", "path": "/w/a"}}}),
            json!({"from": "client", "message": {"jsonrpc": "2.0", "id": 8, "error": {"code": -32000, "message": "no"}}}),
            json!({"from": "agent", "message": {"jsonrpc": "2.0", "id": 2, "result": {"stopReason": "end_turn"}}}),
            json!({"from": "agent", "message": {"jsonrpc": "2.0", "id": 2, "result": {"stopReason": "end_turn"}}}),
            json!({"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "session/cancel",
                "params": {"sessionId": "s"}}}),
            json!({"from": "client", "message": {"jsonrpc": "2.0", "method": "session/prompt",
                "params": {"sessionId": "s", "prompt": []}}}),
            json!({"from": "agent", "message": {"jsonrpc": "2.0", "id": 9, "method": "session/prompt",
                "params": {"sessionId": "s", "prompt": []}}}),
            json!({"jsonrpc": "2.0", "id": 4, "method": "session/prompt", "params": {"sessionId": "s", "prompt": []}}),
            json!({"jsonrpc": "2.0", "id": 4, "method": "session/prompt", "params": {"sessionId": "s", "prompt": []}}),
            json!({"jsonrpc": "2.0", "id": 4, "result": {"stopReason": "cancelled"}}),
            json!({"jsonrpc": "2.0", "id": 4.0, "result": {"stopReason": "cancelled"}}),
            json!({"jsonrpc": "2.0", "id": 5, "method": "session/update",
                "params": {"sessionId": "s", "update": {"sessionUpdate": "plan", "entries": []}}}),
            json!({"jsonrpc": "2.0", "method": "session/update",
                "params": {"sessionId": "s", "update": {"sessionUpdate": "plan", "entries": []},
                "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}),
            json!({"jsonrpc": "2.0", "method": "session/update",
                "params": {"sessionId": "s", "update": {"sessionUpdate": "future_kind", "x": 1}}}),
            json!({"from": "agent", "message": [{"jsonrpc": "2.0", "method": "session/update"}]}),
            json!({"from": "agent", "message": {"jsonrpc": "2.0", "method": "session/update",
                "params": {"sessionId": "s", "update": {"sessionUpdate": "tool_call", "toolCallId": "t",
                "title": "x", "status": "paused", "rawInput": {"a": {"b": [1, 2.5, "\u{e9}"]}}}}}}),
            json!({"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}}),
            json!({"jsonrpc": "2.0", "id": 3, "method": "initialize",
                "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}),
            json!({"jsonrpc": "2.0", "method": "session/update",
                "params": {"sessionId": "s", "update": {"sessionUpdate": "plan", "entries": []}}}),
        ];
        let mut out = String::new();
        for line in lines {
            out.push_str(&line.to_string());
            out.push('\n');
        }
        // Text the `json!` macro cannot write: repeated members, escaped names, member order.
        for line in [
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]},"sessionId":"t"}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","title":"t","rawInput":{"a":1,"\u0061":2}}}}"#,
            r#"{"jsonrpc":"2.0","method":"_x","params":{"a":{"b":1,"b":2}}}"#,
            r#"{"method":"session/update","jsonrpc":"2.0","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}"#,
            r#"{"params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}},"jsonrpc":"2.0","method":"session/update"}"#,
            r#"{"message":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}},"from":"agent"}"#,
            r#"{"from":"agent","message":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}},"from":"client"}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}} x"#,
            r#"{"jsonrpc":"2.0","jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}"#,
            "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"c\",\"title\":\"t\",\"rawInput\":{\"k\":\"\\ud800\"}}}}",
            // JSON no `Value` holds, in the free-form members the one pass reads without
            // building them.
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","title":"t","rawOutput":[1e400]}}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]},"_meta":{"\udc00":1}}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[],"_meta":{"a":"\udc00"}}}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]},"_meta":[]}}"#,
        ] {
            out.push_str(line);
            out.push('\n');
        }
        // Nesting at and past serde_json's limit, in a value the type keeps as it is.
        for depth in [125, 126, 127, 128] {
            let open = "[".repeat(depth);
            let close = "]".repeat(depth);
            out.push_str(&format!(
                r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{{"sessionUpdate":"tool_call","toolCallId":"d{depth}","title":"t","rawInput":{open}{close}}}}}}}"#
            ));
            out.push('\n');
        }
        out
    }

    /// The verdicts on `content` with the one-pass check on and off, and how many messages it
    /// decided.
    fn both(content: &[u8]) -> (Vec<crate::Checked>, Vec<crate::Checked>, usize) {
        let fast = Checker::new().expect("schema");
        let full = Checker::new().expect("schema").with_one_pass(false);
        let mut decided = 0;
        let mut transcript = Transcript::default();
        for message in split_messages(content) {
            let mut probe = transcript.clone();
            probe.begin_message();
            decided += usize::from(fast.check_fast(&mut probe, None, message.text).is_some());
            transcript.at_line(message.line);
            let _ = fast.check(&mut transcript, message.text);
        }
        (
            fast.check_input(content),
            full.check_input(content),
            decided,
        )
    }

    fn assert_same(name: &str, content: &[u8]) -> usize {
        let (fast, full, decided) = both(content);
        assert_eq!(fast.len(), full.len(), "{name}");
        for (one, other) in fast.iter().zip(&full) {
            assert_eq!(one, other, "{name}, line {}", one.line);
        }
        decided
    }

    #[test]
    fn the_one_pass_check_gives_the_full_checks_verdicts() {
        let mut decided = 0;
        let mut messages = 0;
        for (name, content) in corpora() {
            messages += split_messages(&content).len();
            decided += assert_same(&name, &content);
        }
        // It decides most of real traffic (the rest goes to the full check).
        assert!(decided * 2 > messages, "{decided} of {messages}");
    }

    /// xorshift64*, so that a failure can be replayed.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        fn below(&mut self, n: usize) -> usize {
            usize::try_from(self.next() % n as u64).expect("small")
        }
    }

    /// A value of another kind than `value`, or an edge of its kind.
    fn replacement(rng: &mut Rng, value: &Value) -> Value {
        let others = [
            json!(null),
            json!(true),
            json!(0),
            json!(-1),
            json!(1.5),
            json!(18_446_744_073_709_551_615_u64),
            json!(""),
            json!("x"),
            json!("completed"),
            json!("_unknown"),
            json!([]),
            json!([null]),
            json!({}),
            json!({"type": "text"}),
        ];
        match value {
            Value::String(s) if rng.below(3) == 0 => Value::String(format!("{s}\"\\\n\u{1f600}")),
            _ => others[rng.below(others.len())].clone(),
        }
    }

    /// Changes one place of `value`: replaces a value, removes or adds a member.
    fn mutate(rng: &mut Rng, value: &mut Value, depth: usize) {
        let descend = depth < 12 && rng.below(4) != 0;
        match value {
            Value::Object(object) if !object.is_empty() => {
                let index = rng.below(object.len());
                let key = object.keys().nth(index).cloned().expect("in range");
                match rng.below(8) {
                    0 => {
                        object.remove(&key);
                    }
                    1 => {
                        object.insert("unknownMember".to_owned(), json!({"a": [1]}));
                    }
                    _ if descend => mutate(rng, object.get_mut(&key).expect("present"), depth + 1),
                    _ => {
                        let new = replacement(rng, &object[&key]);
                        object.insert(key, new);
                    }
                }
            }
            Value::Array(items) if !items.is_empty() => {
                let index = rng.below(items.len());
                if descend {
                    mutate(rng, &mut items[index], depth + 1);
                } else if rng.below(3) == 0 {
                    items.remove(index);
                } else {
                    items[index] = replacement(rng, &items[index]);
                }
            }
            other => *other = replacement(rng, other),
        }
    }

    /// The line with one member of one object written twice (text the `Value` cannot hold).
    fn repeat_a_member(rng: &mut Rng, line: &str) -> Option<String> {
        let bytes = line.as_bytes();
        let starts: Vec<usize> = (1..bytes.len())
            .filter(|&i| bytes[i] == b'"' && matches!(bytes[i - 1], b'{' | b','))
            .collect();
        if starts.is_empty() {
            return None;
        }
        let start = starts[rng.below(starts.len())];
        let end = start + 1 + line[start + 1..].find('"')?;
        let name = &line[start..=end];
        Some(format!("{}{name}:0,{}", &line[..start], &line[start..]))
    }

    /// Each of [`corpora`] changed in four rounds: in each, a quarter of the messages have one
    /// place changed ([`mutate`]) and a quarter one member repeated. `(name, NDJSON)`.
    pub(crate) fn mutated_corpora() -> Vec<(String, Vec<u8>)> {
        let mut rng = Rng(0x5eed_0f0e_ba55);
        let mut out = Vec::new();
        for (name, content) in corpora() {
            let lines: Vec<&str> = std::str::from_utf8(&content)
                .expect("UTF-8")
                .lines()
                .collect();
            for round in 0..4 {
                let mut mutated = String::new();
                for line in &lines {
                    let text = match rng.below(4) {
                        0 => match serde_json::from_str::<Value>(line) {
                            Ok(mut value) => {
                                mutate(&mut rng, &mut value, 0);
                                value.to_string()
                            }
                            Err(_) => (*line).to_owned(),
                        },
                        1 => repeat_a_member(&mut rng, line).unwrap_or_else(|| (*line).to_owned()),
                        _ => (*line).to_owned(),
                    };
                    mutated.push_str(&text);
                    mutated.push('\n');
                }
                out.push((format!("{name} round {round}"), mutated.into_bytes()));
            }
        }
        out
    }

    #[test]
    fn mutated_traffic_gets_the_same_verdicts() {
        for (name, content) in mutated_corpora() {
            assert_same(&name, &content);
        }
    }

    /// What [`with_member`] adds to the object it is given.
    #[derive(Clone, Copy)]
    enum Added {
        /// The object's first member again (`"k":1,"k":1` in an empty one).
        Repeat,
        /// The member the one pass declines (an MCP request's protocol version).
        Declined,
    }

    /// `value` as JSON text, with `added` at the end of its object number `target` (objects
    /// counted in document order from 0, through `seen`).
    fn with_member(value: &Value, target: usize, added: Added, seen: &mut usize, out: &mut String) {
        match value {
            Value::Object(object) => {
                let this = *seen;
                *seen += 1;
                out.push('{');
                for (index, (key, member)) in object.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::from(key.as_str()).to_string());
                    out.push(':');
                    with_member(member, target, added, seen, out);
                }
                if this == target {
                    let extra = match (added, object.iter().next()) {
                        (Added::Repeat, Some((key, member))) => {
                            format!("{}:{member}", Value::from(key.as_str()))
                        }
                        (Added::Repeat, None) => r#""k":1,"k":1"#.to_owned(),
                        (Added::Declined, _) => {
                            format!("\"{META_PROTOCOL_VERSION}\":\"2026-07-28\"")
                        }
                    };
                    if !object.is_empty() {
                        out.push(',');
                    }
                    out.push_str(&extra);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    with_member(item, target, added, seen, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }

    /// Every object of every message given a repeated member, or the declined one, where a
    /// `Value` would keep one of the two: the one pass finds them in its own parse (the
    /// generated types, free-form members, buffered unions, the envelope) and leaves the message
    /// to the full check, which reports the repeat (or reads the protocol version).
    #[test]
    fn a_repeated_or_declined_member_in_any_object_gets_the_full_checks_verdict() {
        for (name, content) in corpora() {
            let messages: Vec<Option<Value>> = split_messages(&content)
                .iter()
                .map(|message| serde_json::from_slice(message.text).ok())
                .collect();
            for added in [Added::Repeat, Added::Declined] {
                // Corpus `target` changes object number `target` of every message that has one.
                for target in 0.. {
                    let mut mutated = String::new();
                    let mut changed = 0;
                    for value in messages.iter().flatten() {
                        let mut seen = 0;
                        let mut line = String::new();
                        with_member(value, target, added, &mut seen, &mut line);
                        changed += usize::from(seen > target);
                        mutated.push_str(&line);
                        mutated.push('\n');
                    }
                    if changed == 0 {
                        break;
                    }
                    assert_same(&format!("{name}, object {target}"), mutated.as_bytes());
                }
            }
        }
    }
}
