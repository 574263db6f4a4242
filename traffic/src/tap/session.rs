//! [`Session`]: what the traffic has said so far about the protocol and the tool calls in flight.

use crate::pruned::Keep;
use serde_json::Value;
use toolcall_contracts::acp;

use super::lifecycle::{
    AcpToolCalls, HiddenByGap, LifecycleFinding, LifecycleProblem, McpProgress, ToolCallUpdate,
};
use super::monitor::Peer;
use super::protocol::{negotiated, opening, Opening, Protocol, MCP_VERSION_META};
use super::Side;

/// What [`Session::observe`] found in one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Observed {
    /// The session's protocol, first recognized or changed by this message.
    Recognized(Protocol),
    /// A tool call's life went wrong.
    Problem(LifecycleProblem),
    /// A tool call first seen after a gap in checking, which may have hidden its announcement.
    Hidden(HiddenByGap),
}

impl From<LifecycleFinding> for Observed {
    fn from(finding: LifecycleFinding) -> Self {
        match finding {
            LifecycleFinding::Problem(problem) => Self::Problem(problem),
            LifecycleFinding::Hidden(hidden) => Self::Hidden(hidden),
        }
    }
}

/// A message as [`Session::observe`] needs it, from its text (JSON text that is not valid
/// UTF-8 is not JSON): `None` when it is not JSON.
///
/// Only the members `observe` reads are built ([`MESSAGE`]: `id`, `method`, some of `params`
/// and `result`); the others are checked to be JSON and skipped (`crate::pruned`), so
/// `observe` finds what it would in the whole message. The parts skipped are only checked to
/// be JSON: a message whose `rawInput` nests past the 127 levels serde_json parses, or holds a lone
/// surrogate escape (`"\ud800"`) or a number past `f64`, is followed, where a whole parse into
/// a `Value` gives up.
pub(crate) fn parse_for_observe(text: &str) -> Option<Value> {
    crate::pruned::read_str(text, Keep::Members(MESSAGE))
}

/// What [`Session::observe`] and the lifecycles read of a message: protocol recognition
/// (`initialize`, `server/discover`, an MCP version in `_meta`), session loads, ACP tool calls,
/// MCP progress, cancellations and tasks.
const MESSAGE: &[(&str, Keep)] = &[
    ("id", Keep::All),
    ("method", Keep::All),
    (
        "params",
        Keep::Members(&[
            ("protocolVersion", Keep::All),
            (
                "_meta",
                Keep::Members(&[(MCP_VERSION_META, Keep::All), ("progressToken", Keep::All)]),
            ),
            ("sessionId", Keep::All),
            (
                "update",
                Keep::Members(&[
                    ("sessionUpdate", Keep::All),
                    ("toolCallId", Keep::All),
                    ("status", Keep::All),
                ]),
            ),
            ("taskId", Keep::All),
            ("requestId", Keep::All),
            ("status", Keep::All),
            ("progressToken", Keep::All),
            ("progress", Keep::All),
        ]),
    ),
    (
        "result",
        Keep::Members(&[
            ("protocolVersion", Keep::All),
            ("supportedVersions", Keep::All),
            ("task", Keep::Members(&[("taskId", Keep::All)])),
        ]),
    ),
];

/// The tool call a decoded `session/update` announces or updates, as the tap's tool-call
/// lifecycle reads it; `None` for any other update (the lifecycle follows tool calls).
pub(crate) fn tool_call_of(notification: &acp::SessionNotification) -> Option<ToolCallUpdate<'_>> {
    let session = notification.session_id.0.as_str();
    match &notification.update {
        acp::SessionUpdate::ToolCall(call) => Some(ToolCallUpdate {
            session,
            kind: "tool_call",
            tool_call_id: &call.tool_call_id.0,
            status: call.status.as_ref().map(acp::ToolCallStatus::as_str),
        }),
        acp::SessionUpdate::ToolCallUpdate(update) => Some(ToolCallUpdate {
            session,
            kind: "tool_call_update",
            tool_call_id: &update.tool_call_id.0,
            status: update.status.value().map(acp::ToolCallStatus::as_str),
        }),
        _ => None,
    }
}

/// A `session/load` or `session/resume` request cut short (`prefix`), as far as the replay of
/// its session needs it: `{"id", "method", "params": {"sessionId"}}`, when its first bytes hold
/// all three whole.
fn load_begun(prefix: &[u8]) -> Option<Value> {
    use crate::envelope::member_text;
    let whole = |text: &[u8]| serde_json::from_slice::<Value>(text).ok();
    let method = whole(member_text(prefix, "method")?)?;
    if !matches!(method.as_str(), Some("session/load" | "session/resume")) {
        return None;
    }
    let id = whole(member_text(prefix, "id")?)?;
    let params = member_text(prefix, "params")?;
    let session = whole(member_text(params, "sessionId")?)?;
    Some(serde_json::json!({"id": id, "method": method, "params": {"sessionId": session}}))
}

/// The methods [`Session::observe`] acts on, as the value of a `"method"` member (those of
/// `notifications/...` too, by their prefix).
const METHODS_FOLLOWED: &[&[u8]] = &[
    b"initialize",
    b"server/discover",
    b"session/load",
    b"session/resume",
    b"session/update",
    b"tasks/result",
];

/// What else in a message's text makes [`Session::follows`] read it: `_meta` (its MCP version
/// and progress token, in any request), and `\u`, the one escape that could spell a character
/// of `_meta` or `method` otherwise.
const FOLLOWED_ANYWHERE: &[&str] = &["\"_meta\"", "\\u"];

/// Whether `text` holds a `"method"` member naming one of [`METHODS_FOLLOWED`] (or
/// `notifications/...`), or one of [`FOLLOWED_ANYWHERE`]. Each is searched for with a finder
/// built once (on short messages a vectorized search for a name's rarest byte is cheaper than
/// one automaton over all of them); the methods by one search for `"method"`, reading the
/// string after each (a method matters only as the message's own, but one nested in `params`
/// is read too: following more than needed changes nothing).
fn names_followed(text: &[u8]) -> bool {
    static FINDERS: std::sync::LazyLock<Vec<memchr::memmem::Finder<'static>>> =
        std::sync::LazyLock::new(|| {
            FOLLOWED_ANYWHERE
                .iter()
                .map(|name| memchr::memmem::Finder::new(name.as_bytes()))
                .collect()
        });
    static METHOD: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\"method\""));
    let named = |at: usize| {
        // A method spelled with an escape is followed whatever it is.
        member_string(&text[at + b"\"method\"".len()..]).is_some_and(|value| {
            value.starts_with(b"notifications/")
                || METHODS_FOLLOWED.contains(&value)
                || value.contains(&b'\\')
        })
    };
    METHOD.find_iter(text).any(named) || FINDERS.iter().any(|finder| finder.find(text).is_some())
}

/// The text of the string value `rest` starts with when it follows a member name (JSON
/// whitespace, `:`, whitespace, then the string), up to its first `"`; `None` when it does not
/// (a `"method"` that is a value, not a name). A value with an escape holds a backslash (when
/// the escape is `\"`, it is cut after it).
fn member_string(rest: &[u8]) -> Option<&[u8]> {
    let is_space = |byte: &u8| matches!(byte, b' ' | b'\t' | b'\n' | b'\r');
    let start = rest.iter().position(|byte| !is_space(byte))?;
    let rest = rest[start..].strip_prefix(b":")?;
    let start = rest.iter().position(|byte| !is_space(byte))?;
    let rest = rest[start..].strip_prefix(b"\"")?;
    let end = memchr::memchr(b'"', rest)?;
    Some(&rest[..end])
}

/// Protocol recognition and tool-call lifecycles across one stdio connection. Each `initialize`
/// or `server/discover` request starts a new session: the tool calls and tokens followed so far
/// are forgotten.
#[derive(Debug, Default)]
pub(crate) struct Session {
    protocol: Option<Protocol>,
    /// The opening request still waiting for its response: its side, its id (as JSON) and what
    /// it offered.
    opening: Option<(Side, String, Opening)>,
    acp: AcpToolCalls,
    mcp: McpProgress,
}

impl Session {
    /// The protocol recognized so far.
    pub(crate) const fn protocol(&self) -> Option<&Protocol> {
        self.protocol.as_ref()
    }

    /// Whether following `text`, a message from either side, can find anything or change what
    /// is followed; when not, it need not be parsed for [`Session::observe`].
    ///
    /// It can when a response is awaited (to the opening request, a session load, an MCP
    /// request carrying a progress token or a `tasks/result`), or when `text` names a method
    /// followed ([`METHODS_FOLLOWED`]) or holds `_meta`. A JSON string spells one of them that
    /// way unless it escapes one of its characters: a method with an escape is followed, and so
    /// is text holding `\u` (the one escape that could spell `_meta` or `method`). (A message a
    /// side sent is never one of the tap's own transcript records.)
    pub(crate) fn follows(&self, text: &[u8]) -> bool {
        self.opening.is_some()
            || self.acp.awaits_response()
            || self.mcp.awaits_response()
            || names_followed(text)
    }

    /// Follows one JSON message from `side` on transcript line `line`.
    pub(crate) fn observe(&mut self, side: Side, line: usize, message: &Value) -> Vec<Observed> {
        self.observe_from(Some(side), line, message)
    }

    /// [`Session::observe`] for a `session/update` notification from `side` that the checker
    /// decoded: `call` is the tool call it announces or updates, `None` for any other update
    /// (which no lifecycle follows).
    pub(crate) fn observe_update(
        &mut self,
        side: Side,
        line: usize,
        call: Option<ToolCallUpdate<'_>>,
    ) -> Vec<Observed> {
        match call {
            // `session/update` is the agent's; MCP follows no such notification.
            Some(call) if side != Side::Client => self
                .acp
                .observe_tool_call(line, call)
                .map(Observed::from)
                .into_iter()
                .collect(),
            _ => Vec::new(),
        }
    }

    /// [`Session::observe`] for a message whose sender may be unknown (a bare transcript line):
    /// then only what does not depend on the direction is followed: the protocol from
    /// `initialize` (a client's request), ACP tool calls (`session/update` is the agent's) and
    /// session loads; MCP progress needs the direction and is not followed. A record of the
    /// tap's own transcript (`{"from", "not_checked_bytes"}`, or a message over the byte limit)
    /// is a line of unknown sender too: a gap in what was checked.
    pub(crate) fn observe_from(
        &mut self,
        side: Option<Side>,
        line: usize,
        message: &Value,
    ) -> Vec<Observed> {
        if let Value::Array(elements) = message {
            // A JSON-RPC batch (MCP 2025-03-26): its messages in order.
            return elements
                .iter()
                .filter(|element| element.is_object())
                .flat_map(|element| self.observe_from(side, line, element))
                .collect();
        }
        let mut found = Vec::new();
        let Some(object) = message.as_object() else {
            return found;
        };
        // A record of the transcript the tap wrote (never a message a side sent).
        match side.map_or_else(|| toolcall_hops::pairing::tap_record(message), |_| None) {
            Some(toolcall_hops::pairing::TapRecord::NotChecked { .. }) => {
                // Bytes it did not check.
                self.gap(line);
                return found;
            }
            Some(toolcall_hops::pairing::TapRecord::Truncated { from, text, .. }) => {
                let from = match from {
                    Peer::Client => Side::Client,
                    Peer::Agent | Peer::Server => Side::Child,
                };
                return self.truncated(from, line, text.as_bytes());
            }
            None => {}
        }
        let has_id = object.contains_key("id");
        let method = object.get("method").and_then(Value::as_str);
        if object.contains_key("method") {
            if has_id {
                if side != Some(Side::Child) {
                    self.recognize(Side::Client, message, &mut found);
                    if matches!(method, Some("session/load" | "session/resume")) {
                        self.acp.load(message);
                    }
                }
                if let Some(side) = side {
                    found.extend(self.mcp.request(side, line, message).map(Observed::Problem));
                }
            } else {
                if method == Some("session/update") && side != Some(Side::Client) {
                    found.extend(self.acp.observe(line, message).map(Observed::from));
                }
                if let Some(side) = side {
                    found.extend(
                        self.mcp
                            .notification(side, line, message)
                            .map(Observed::from),
                    );
                }
            }
        } else if has_id {
            if side != Some(Side::Client) {
                self.acp.loaded(message);
            }
            if let Some(side) = side {
                self.settle(side, message, &mut found);
                self.mcp.response(side, line, message);
            }
        }
        found
    }

    /// A message from `side` over the byte limit, of which `prefix` (its first bytes) was kept,
    /// on transcript line `line`: followed as any message when the prefix is all of it (a limit
    /// under the prefix's length); else a gap for what it may have carried that is not known:
    /// a tool call it announced, when the agent sent it, and a progress token, when it may be
    /// a request (its first bytes show no response). A `session/load` or `session/resume` whose
    /// first bytes hold its id and session id starts the session's replay, as a whole one does.
    pub(crate) fn truncated(&mut self, side: Side, line: usize, prefix: &[u8]) -> Vec<Observed> {
        if let Some(message) = simdutf8::basic::from_utf8(prefix)
            .ok()
            .and_then(parse_for_observe)
        {
            return self.observe(side, line, &message);
        }
        if side == Side::Client {
            if let Some(load) = load_begun(prefix) {
                self.acp.load(&load);
            }
        }
        if side == Side::Child {
            self.acp.gap(line);
        }
        let response = crate::envelope::names(prefix).is_some_and(|names| {
            let has = |name: &str| names.iter().any(|named| named == name);
            !has("method") && (has("result") || has("error"))
        });
        if !response {
            self.mcp.gap(line);
        }
        Vec::new()
    }

    /// Bytes were relayed but not checked; the gap's record is on transcript line `line`.
    pub(crate) fn gap(&mut self, line: usize) {
        self.acp.gap(line);
        self.mcp.gap(line);
    }

    /// A request that opens a session, or names its MCP version.
    fn recognize(&mut self, side: Side, request: &Value, found: &mut Vec<Observed>) {
        let Some(opened) = opening(request) else {
            return;
        };
        let protocol = match &opened {
            Opening::Initialize(protocol) | Opening::Discover(protocol) => {
                *self = Self::default();
                let id = request.get("id").map(Value::to_string).unwrap_or_default();
                self.opening = Some((side, id, opened.clone()));
                protocol.clone()
            }
            Opening::Meta(protocol) if self.protocol.is_none() => protocol.clone(),
            Opening::Meta(_) => return,
        };
        self.protocol = Some(protocol.clone());
        found.push(Observed::Recognized(protocol));
    }

    /// The response to the opening request: the version it settled on.
    fn settle(&mut self, side: Side, response: &Value, found: &mut Vec<Observed>) {
        let Some((requester, id, _)) = &self.opening else {
            return;
        };
        let answers = *requester == side.other()
            && response.get("id").map(Value::to_string).as_deref() == Some(id.as_str());
        if !answers {
            return;
        }
        let Some((_, _, offered)) = self.opening.take() else {
            return;
        };
        let Some(result) = response.get("result") else {
            return;
        };
        if let Some(protocol) = negotiated(&offered, result) {
            if self.protocol.as_ref() != Some(&protocol) {
                self.protocol = Some(protocol.clone());
                found.push(Observed::Recognized(protocol));
            }
        }
    }
}

/// The tap's tool-call lifecycle checks over a recorded transcript, message by message (what
/// `toolcall validate --lifecycle` runs): the same findings [`super::Monitor`] reports live.
///
/// Each message is given with its transcript line and its sender when the line names it
/// (`{"from": ..., "message": ...}`). A bare line's sender is unknown: then ACP tool calls are
/// still followed (`session/update` is the agent's), and so are session loads and the protocol
/// (`initialize` is the client's), but MCP progress, which pairs a notification with a request
/// of the other side, is not.
///
/// ```
/// use serde_json::json;
/// use toolcall_traffic::tap::{Lifecycle, LifecycleProblem, Peer};
///
/// let update = |kind: &str, status: &str| json!({"jsonrpc": "2.0", "method": "session/update",
///     "params": {"sessionId": "s", "update": {"sessionUpdate": kind, "toolCallId": "c",
///     "title": "Read", "status": status}}});
/// let mut lifecycle = Lifecycle::default();
/// assert_eq!(lifecycle.observe(Some(Peer::Agent), 1, &update("tool_call", "pending")), []);
/// assert_eq!(lifecycle.observe(None, 2, &update("tool_call_update", "completed")), []);
/// assert!(matches!(
///     lifecycle.observe(None, 3, &update("tool_call_update", "completed"))[..],
///     [LifecycleProblem::UpdateAfterEnd { ended_line: 2, .. }]
/// ));
/// ```
#[derive(Debug, Default)]
pub struct Lifecycle {
    session: Session,
}

impl Lifecycle {
    /// Follows one message, sent by `from` (`None` when the line does not say), on transcript
    /// line `line`; returns what went wrong in a tool call's life there.
    pub fn observe(
        &mut self,
        from: Option<Peer>,
        line: usize,
        message: &Value,
    ) -> Vec<LifecycleProblem> {
        problems(self.follow(from, line, message))
    }

    /// What [`Lifecycle::observe`] finds, with the notes: the problems, then the calls a gap
    /// hid (the order the tap reports them in).
    fn follow(
        &mut self,
        from: Option<Peer>,
        line: usize,
        message: &Value,
    ) -> Vec<LifecycleFinding> {
        let side = from.map(|from| match from {
            Peer::Client => Side::Client,
            Peer::Agent | Peer::Server => Side::Child,
        });
        let mut found = Vec::new();
        let mut hidden = Vec::new();
        for observed in self.session.observe_from(side, line, message) {
            match observed {
                Observed::Problem(problem) => found.push(LifecycleFinding::Problem(problem)),
                Observed::Hidden(call) => hidden.push(LifecycleFinding::Hidden(call)),
                Observed::Recognized(_) => {}
            }
        }
        found.extend(hidden);
        found
    }

    /// Follows one line of a transcript: a record (`{"from": ..., "message": ...}`, the sender
    /// read from it; or `{"from": ..., "text": ...}`, which the tap writes for a message that is
    /// not JSON, JSON a `serde_json::Value` cannot hold, or JSON nested so deep that the record
    /// could not hold it) or a bare message (sender unknown),
    /// read as the tap reads what it relays: a message whose members JSON allows but a `Value`
    /// cannot hold (a number past `f64`, a lone surrogate escape, nesting past 127 levels in
    /// `rawInput`) is still followed. Returns the sender and what went wrong; a line that is not
    /// JSON gives nothing. [`Lifecycle::follow_line`] gives the notes too.
    pub fn observe_line(
        &mut self,
        line: usize,
        text: &[u8],
    ) -> (Option<Peer>, Vec<LifecycleProblem>) {
        let (from, found) = self.follow_line(line, text);
        (from, problems(found))
    }

    /// [`Lifecycle::observe_line`] with the notes the tap gives beside the problems: a tool
    /// call (or progress token) first seen after one of the tap's gap records
    /// (`{"from": ..., "not_checked_bytes": N}`, or the truncated record of a message over its
    /// byte limit) is followed from there and said once per gap
    /// ([`LifecycleFinding::Hidden`]), on the same line and in the same words as the tap's
    /// [`super::Event::HiddenByGap`] (what `toolcall validate --lifecycle` prints).
    pub fn follow_line(
        &mut self,
        line: usize,
        text: &[u8],
    ) -> (Option<Peer>, Vec<LifecycleFinding>) {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Record<'a> {
            #[serde(borrow)]
            from: std::borrow::Cow<'a, str>,
            #[serde(borrow, default)]
            message: Option<&'a serde_json::value::RawValue>,
            #[serde(borrow, default)]
            text: Option<std::borrow::Cow<'a, str>>,
        }
        let Ok(text) = std::str::from_utf8(text) else {
            return (None, Vec::new());
        };
        let record = serde_json::from_str::<Record<'_>>(text).ok();
        let (from, message) = match &record {
            Some(Record {
                from,
                message: Some(message),
                text: None,
            }) => (Peer::from_name(from), message.get()),
            // JSON in a text record is what the tap followed only when a `message` record could
            // not hold it (else the tap wrote it as text because it was not UTF-8, and did not
            // follow it).
            Some(Record {
                from,
                message: None,
                text: Some(sent),
            }) if !crate::tap_records::message_record_holds(sent) => {
                (Peer::from_name(from), sent.as_ref())
            }
            Some(Record {
                from,
                message: None,
                text: Some(_),
            }) => return (Peer::from_name(from), Vec::new()),
            _ => (None, text),
        };
        match parse_for_observe(message) {
            // None of a message's members, on a line with no sender: perhaps one of the tap's
            // own records (a gap, a message over the byte limit), which is read whole.
            Some(Value::Object(kept)) if kept.is_empty() && from.is_none() => {
                match serde_json::from_str::<Value>(message) {
                    Ok(whole) => (from, self.follow(from, line, &whole)),
                    Err(_) => (from, Vec::new()),
                }
            }
            Some(value) => (from, self.follow(from, line, &value)),
            None => (from, Vec::new()),
        }
    }
}

/// The problems among `found` (the notes left out).
fn problems(found: Vec<LifecycleFinding>) -> Vec<LifecycleProblem> {
    found
        .into_iter()
        .filter_map(|found| match found {
            LifecycleFinding::Problem(problem) => Some(problem),
            LifecycleFinding::Hidden(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A transcript line's message and sender: a record's (`{"from", "message"}`), or the bare
    /// line's (sender unknown).
    fn sent(line: &[u8]) -> (Option<Side>, &[u8]) {
        let record = serde_json::from_slice::<
            std::collections::BTreeMap<&str, &serde_json::value::RawValue>,
        >(line)
        .ok()
        .filter(|record| record.contains_key("message"));
        match record {
            Some(record) => (
                if record.get("from").map(|from| from.get()) == Some("\"client\"") {
                    Some(Side::Client)
                } else {
                    Some(Side::Child)
                },
                record["message"].get().as_bytes(),
            ),
            None => (None, line),
        }
    }

    /// Follows `content` (NDJSON, transcript records or bare messages) with two sessions, one
    /// given every message, the other only those [`Session::follows`] lets through: the same
    /// findings and protocol, message for message. Returns how many messages were let through
    /// and how many were not.
    fn assert_filter_agrees(name: &str, content: &[u8]) -> (usize, usize) {
        let mut every = Session::default();
        let mut filtered = Session::default();
        let (mut through, mut not) = (0, 0);
        for (index, line) in content.split(|&b| b == b'\n').enumerate() {
            let line_no = index + 1;
            let (side, text) = sent(line);
            let Some(value) = std::str::from_utf8(text).ok().and_then(parse_for_observe) else {
                continue;
            };
            let all = every.observe_from(side, line_no, &value);
            let some = if filtered.follows(text) {
                through += 1;
                filtered.observe_from(side, line_no, &value)
            } else {
                not += 1;
                Vec::new()
            };
            assert_eq!(all, some, "{name}:{line_no}");
            assert_eq!(every.protocol(), filtered.protocol(), "{name}:{line_no}");
        }
        (through, not)
    }

    #[test]
    fn a_message_not_followed_would_have_changed_nothing() {
        let mcp = crate::fast::tests::fixtures(&[
            "tests/fixtures/transcripts/mcp_2024-11-05.ndjson",
            "tests/fixtures/transcripts/mcp_2025-03-26.ndjson",
            "tests/fixtures/transcripts/mcp_2025-03-26_batches.ndjson",
            "tests/fixtures/transcripts/mcp_2025-06-18.ndjson",
            "tests/fixtures/transcripts/mcp_2025-11-25.ndjson",
            "tests/fixtures/transcripts/mcp_2026-07-28.ndjson",
            "tests/fixtures/mcp/python-sdk/transcript.ndjson",
            "tests/fixtures/mcp/server-everything/transcript.ndjson",
            "tests/fixtures/mcp/fastmcp/tree.ndjson",
            "tests/fixtures/mcp/server-filesystem/offer-2026-07-28.ndjson",
        ]);
        let (mut through, mut not) = (0, 0);
        for (name, content) in crate::fast::tests::corpora()
            .into_iter()
            .chain(crate::fast::tests::mutated_corpora())
            .chain(mcp)
        {
            let (t, n) = assert_filter_agrees(&name, &content);
            through += t;
            not += n;
        }
        // Both ways are taken, each hundreds of times (the updates are followed).
        assert!(through > 1000 && not > 500, "{through} followed, {not} not");
    }

    #[test]
    fn names_spelled_with_escapes_are_followed() {
        let lines = [
            (
                Side::Client,
                r#"{"jsonrpc":"2.0","id":0,"method":"initi\u0061lize","params":{"protocolVersion":"2025-11-25"}}"#,
            ),
            (
                Side::Child,
                r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18"}}"#,
            ),
            (
                Side::Client,
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","\u005fmeta":{"progressToken":"t"}}}"#,
            ),
            (
                Side::Child,
                r#"{"jsonrpc":"2.0","method":"notifications\/progress","params":{"progressToken":"t","progress":2}}"#,
            ),
            (
                Side::Child,
                r#"{"jsonrpc":"2.0","method":"notifications\/progress","params":{"progressToken":"t","progress":1}}"#,
            ),
            (
                Side::Child,
                r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#,
            ),
            (
                Side::Child,
                r#"{"jsonrpc":"2.0","method":"notifications\/progress","params":{"progressToken":"t","progress":3}}"#,
            ),
        ];
        let mut session = Session::default();
        let mut found = Vec::new();
        for (index, (side, text)) in lines.into_iter().enumerate() {
            assert!(session.follows(text.as_bytes()), "{text}");
            let value = parse_for_observe(text).expect("JSON");
            found.extend(session.observe(side, index + 1, &value));
        }
        assert_eq!(
            found
                .iter()
                .map(|found| match found {
                    Observed::Recognized(protocol) => protocol.to_string(),
                    Observed::Problem(problem) => problem.name().to_owned(),
                    Observed::Hidden(_) => "hidden".to_owned(),
                })
                .collect::<Vec<_>>(),
            [
                "MCP 2025-11-25",
                "MCP 2025-06-18",
                "progress-not-increasing",
                "progress-after-response"
            ]
        );
        // Nothing awaited, nothing named: not followed.
        let answer = br#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"tools/call \n"}]}}"#;
        assert!(!session.follows(answer));
    }

    #[test]
    fn a_method_followed_is_read_from_the_method_member() {
        let session = Session::default();
        let follows = |text: &str| session.follows(text.as_bytes());
        // Whitespace around the colon, a method given twice, a prefix.
        assert!(follows(
            r#"{"jsonrpc":"2.0","id":1, "method" :	"session/load","params":{}}"#
        ));
        assert!(follows(
            r#"{"jsonrpc":"2.0","method":"x","method":"session/update","params":{}}"#
        ));
        assert!(follows(r#"{"jsonrpc":"2.0","method":"notifications/x"}"#));
        // A method with an escape, whatever it spells.
        assert!(follows(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize\"x"}"#
        ));
        assert!(follows(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools\/call"}"#
        ));
        // A name that only starts like one, a `"method"` that is a value, none at all.
        assert!(!follows(
            r#"{"jsonrpc":"2.0","id":1,"method":"session/loader"}"#
        ));
        assert!(!follows(
            r#"{"jsonrpc":"2.0","id":1,"method":"session/prompt"}"#
        ));
        assert!(!follows(
            r#"{"jsonrpc":"2.0","id":1,"result":{"kind":"method"}}"#
        ));
        assert!(!follows(
            r#"{"jsonrpc":"2.0","id":1,"result":{"text":"\"method\":\"initialize\""}}"#
        ));
        assert!(!follows(r#"{"jsonrpc":"2.0","id":1,"result":{},"method"#));
    }

    /// Follows `content` (NDJSON, transcript records or bare messages) with two sessions, one
    /// given each message parsed whole, the other [`parse_for_observe`]'s: the same findings,
    /// message for message. Returns how many messages were skimmed.
    fn assert_skim_agrees(name: &str, content: &[u8]) -> usize {
        let mut whole = Session::default();
        let mut skim = Session::default();
        let mut skimmed = 0;
        for (index, line) in content.split(|&b| b == b'\n').enumerate() {
            let line_no = index + 1;
            let (side, text) = sent(line);
            let full = serde_json::from_slice::<Value>(text).ok();
            let quick = std::str::from_utf8(text).ok().and_then(parse_for_observe);
            let (Some(full), Some(quick)) = (full.clone(), quick.clone()) else {
                // JSON past what a `Value` holds (nesting past 127, a lone surrogate escape) in
                // a part the skim skips: followed now, where the whole parse gave up.
                if full.is_none() && quick.is_some() {
                    assert!(
                        serde_json::from_slice::<&serde_json::value::RawValue>(text).is_ok(),
                        "{name}:{line_no}"
                    );
                    continue;
                }
                assert_eq!(full.is_some(), quick.is_some(), "{name}:{line_no}");
                continue;
            };
            skimmed += usize::from(full != quick);
            assert_eq!(
                whole.observe_from(side, line_no, &full),
                skim.observe_from(side, line_no, &quick),
                "{name}:{line_no}"
            );
        }
        skimmed
    }

    #[test]
    fn a_skimmed_update_gives_the_findings_of_the_whole_message() {
        let mut skimmed = 0;
        let mut messages = 0;
        for (name, content) in crate::fast::tests::corpora()
            .into_iter()
            .chain(crate::fast::tests::mutated_corpora())
        {
            messages += content.split(|&b| b == b'\n').count();
            skimmed += assert_skim_agrees(&name, &content);
        }
        // Most of ACP traffic is `session/update`s, which are skimmed.
        assert!(skimmed * 3 > messages, "{skimmed} of {messages}");
    }

    #[test]
    fn what_observe_reads_is_kept_and_the_rest_skipped() {
        for (text, kept) in [
            (
                r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c\u0031","status":"pending","rawInput":{"deep":[[[1]]]}}}}"#,
                json!({"method": "session/update", "params": {"sessionId": "s",
                    "update": {"sessionUpdate": "tool_call", "toolCallId": "c1", "status": "pending"}}}),
            ),
            // A request's `id`, even `null`, and an MCP request's progress token, as sent.
            (
                r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"add","arguments":{"a":1},"_meta":{"progressToken":1.0,"other":2}}}"#,
                json!({"id": null, "method": "tools/call",
                    "params": {"_meta": {"progressToken": 1.0}}}),
            ),
            // Members of another kind kept as they are; a member written twice, the last.
            (
                r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","toolCallId":"d","status":3}}}"#,
                json!({"method": "session/update", "params": {"sessionId": "s",
                    "update": {"sessionUpdate": "tool_call", "toolCallId": "d", "status": 3}}}),
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"x","params":["sessionId",{"sessionId":"s","y":1}]}"#,
                json!({"id": 1, "method": "x", "params": ["sessionId", {"sessionId": "s"}]}),
            ),
            // The response to `initialize`.
            (
                r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true},"task":{"taskId":"t","ttl":5}}}"#,
                json!({"id": 0, "result": {"protocolVersion": 1, "task": {"taskId": "t"}}}),
            ),
            // A batch: each message.
            (
                r#"[{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2025-03-26","clientInfo":{}}},3]"#,
                json!([{"id": "a", "method": "initialize", "params": {"protocolVersion": "2025-03-26"}}, 3]),
            ),
            // Members of the tap's own transcript records are no message's: skipped (a line
            // of a transcript is read whole when it keeps nothing: `Lifecycle::observe_line`).
            (r#"{"from":"agent","not_checked_bytes":5}"#, json!({})),
            (r#"[{"id":1,"from":"client","x":[1]}]"#, json!([{"id": 1}])),
            // A member `from` beside what a `Value` cannot hold.
            (
                r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"d2","rawInput":1e400}},"from":"agent"}"#,
                json!({"method": "session/update", "params": {"sessionId": "s",
                    "update": {"sessionUpdate": "tool_call", "toolCallId": "d2"}}}),
            ),
        ] {
            assert_eq!(parse_for_observe(text), Some(kept), "{text}");
        }
        // Not JSON, or not UTF-8, whichever way it is read.
        for broken in [
            &br#"{"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan"}}"#[..],
            b"{\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"plan\",\"x\":\"\xff\"}}}",
            br#"{"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","x":[1,]}}}"#,
            br#"{"jsonrpc":"2.0","id":1,"result":{}} x"#,
            br#"{"from":"agent","x":}"#,
        ] {
            assert_eq!(
                std::str::from_utf8(broken).ok().and_then(parse_for_observe),
                None
            );
        }
    }

    #[test]
    fn a_transcript_line_that_is_a_gap_record_is_read_whole() {
        let update = br#"{"from":"agent","message":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c","status":"completed"}}}}"#;
        let mut after_gap = Lifecycle::default();
        let gap = br#"{"from":"agent","not_checked_bytes":5}"#;
        assert_eq!(after_gap.observe_line(1, gap), (None, vec![]));
        assert_eq!(
            after_gap.observe_line(2, update),
            (Some(Peer::Agent), vec![])
        );
        let mut no_gap = Lifecycle::default();
        assert!(matches!(
            &no_gap.observe_line(2, update).1[..],
            [LifecycleProblem::UnannouncedUpdate { .. }]
        ));
    }

    #[test]
    fn an_mcp_server_may_answer_with_an_older_version() {
        let mut session = Session::default();
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                          "params": {"protocolVersion": "2025-11-25"}});
        assert_eq!(
            session.observe(Side::Client, 1, &init),
            [Observed::Recognized(Protocol::Mcp {
                version: "2025-11-25".into()
            })]
        );
        // A response with the same id from the client side answers nothing.
        let echo = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2024-11-05"}});
        assert_eq!(session.observe(Side::Client, 2, &echo), []);
        assert_eq!(
            session.observe(Side::Child, 3, &echo),
            [Observed::Recognized(Protocol::Mcp {
                version: "2024-11-05".into()
            })]
        );
        assert_eq!(session.protocol().map(Protocol::child_role), Some("server"));
    }

    #[test]
    fn a_new_initialize_starts_a_new_session() {
        let mut session = Session::default();
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                          "params": {"protocolVersion": 1}});
        let call = json!({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s",
            "update": {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "t"}}});
        session.observe(Side::Client, 1, &init);
        assert_eq!(session.observe(Side::Child, 2, &call), []);
        assert_eq!(session.observe(Side::Child, 3, &call).len(), 1);
        session.observe(Side::Client, 4, &init);
        assert_eq!(session.observe(Side::Child, 5, &call), []);
    }
}
