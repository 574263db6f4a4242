//! [`Session`]: what the traffic has said so far about the protocol and the tool calls in flight.

use serde_json::Value;
use toolcall_contracts::acp;

use super::lifecycle::{
    AcpToolCalls, Finding, HiddenByGap, LifecycleProblem, McpProgress, ToolCallUpdate,
};
use super::monitor::Peer;
use super::protocol::{negotiated, opening, Opening, Protocol};
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

impl From<Finding> for Observed {
    fn from(finding: Finding) -> Self {
        match finding {
            Finding::Problem(problem) => Self::Problem(problem),
            Finding::Hidden(hidden) => Self::Hidden(hidden),
        }
    }
}

/// A message as [`Session::observe`] needs it, from its text (JSON text that is not valid
/// UTF-8 is not JSON): `None` when it is not JSON.
///
/// A `session/update` notification (most of an ACP session's bytes) is read for the members
/// the tool-call lifecycle follows (`method`, `params.sessionId`, `params.update`'s
/// `sessionUpdate`, `toolCallId` and `status`), skipping the rest without building it;
/// anything else, or an update whose members are not as expected, is parsed whole. Both give
/// `observe` the same findings. The parts skipped are only checked to be JSON: an update whose
/// `rawInput` nests past serde_json's 128 levels, or holds a lone surrogate escape (`"\ud800"`),
/// is followed, where a whole parse into a `Value` gives up.
pub(crate) fn parse_for_observe(text: &str) -> Option<Value> {
    if memchr::memmem::find(text.as_bytes(), b"\"session/update\"").is_some() {
        if let Some(update) = serde_json::from_str::<UpdateSkim<'_>>(text)
            .ok()
            .and_then(UpdateSkim::into_value)
        {
            return Some(update);
        }
    }
    serde_json::from_str(text).ok()
}

/// The members of a `session/update` notification the lifecycle reads; the others are checked
/// to be JSON and skipped.
#[derive(serde::Deserialize)]
struct UpdateSkim<'a> {
    #[serde(borrow)]
    method: std::borrow::Cow<'a, str>,
    /// Present (even `null`) only on a request: then the message is parsed whole.
    #[serde(default)]
    id: Present,
    #[serde(borrow)]
    params: ParamsSkim<'a>,
}

#[derive(serde::Deserialize)]
struct ParamsSkim<'a> {
    #[serde(rename = "sessionId", borrow)]
    session_id: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    update: ToolCallSkim<'a>,
}

#[derive(serde::Deserialize)]
struct ToolCallSkim<'a> {
    #[serde(rename = "sessionUpdate", borrow)]
    session_update: std::borrow::Cow<'a, str>,
    #[serde(rename = "toolCallId", borrow, default)]
    tool_call_id: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow, default)]
    status: Option<std::borrow::Cow<'a, str>>,
}

/// Whether a member is present, whatever its value (`null` too).
#[derive(Default)]
struct Present(bool);

impl<'de> serde::Deserialize<'de> for Present {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(deserializer).map(|_| Self(true))
    }
}

impl UpdateSkim<'_> {
    /// The notification with the members the lifecycle reads; `None` for anything else.
    fn into_value(self) -> Option<Value> {
        if self.method != "session/update" || self.id.0 {
            return None;
        }
        let update = &self.params.update;
        Some(update_view(
            &self.params.session_id,
            Some(&update.session_update),
            update.tool_call_id.as_deref(),
            update.status.as_deref(),
        ))
    }
}

/// A `session/update` notification as the tool-call lifecycle reads it: its session, and its
/// update's kind (`sessionUpdate`), `toolCallId` and `status` where it has them. What
/// [`parse_for_observe`] gives for one (one the checker's one pass decoded is followed from
/// the decoded value: [`Session::observe_update`]).
pub(crate) fn update_view(
    session_id: &str,
    kind: Option<&str>,
    tool_call_id: Option<&str>,
    status: Option<&str>,
) -> Value {
    let mut update = serde_json::Map::new();
    for (name, value) in [
        ("sessionUpdate", kind),
        ("toolCallId", tool_call_id),
        ("status", status),
    ] {
        if let Some(value) = value {
            update.insert(name.into(), value.into());
        }
    }
    serde_json::json!({
        "method": "session/update",
        "params": {"sessionId": session_id, "update": update},
    })
}

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
    /// session loads; MCP progress needs the direction and is not followed.
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
        if let Some(toolcall_hops::pairing::TapRecord::NotChecked { .. }) =
            toolcall_hops::pairing::tap_record(message)
        {
            // A transcript the tap wrote: where its checking had a gap.
            self.gap(line);
            return found;
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
        let side = from.map(|from| match from {
            Peer::Client => Side::Client,
            Peer::Agent | Peer::Server => Side::Child,
        });
        self.session
            .observe_from(side, line, message)
            .into_iter()
            .filter_map(|found| match found {
                Observed::Problem(problem) => Some(problem),
                Observed::Recognized(_) | Observed::Hidden(_) => None,
            })
            .collect()
    }

    /// Follows one line of a transcript: a record (`{"from": ..., "message": ...}`, the sender
    /// read from it) or a bare message (sender unknown), read as the tap reads what it relays:
    /// an update whose members JSON allows but a `serde_json::Value` cannot hold (a number past
    /// `f64`, a lone surrogate escape, nesting past 128 levels in `rawInput`) is still followed.
    /// Returns the sender and what went wrong; a line that is not JSON gives nothing.
    pub fn observe_line(
        &mut self,
        line: usize,
        text: &[u8],
    ) -> (Option<Peer>, Vec<LifecycleProblem>) {
        #[derive(serde::Deserialize)]
        struct Record<'a> {
            #[serde(borrow)]
            from: std::borrow::Cow<'a, str>,
            #[serde(borrow)]
            message: &'a serde_json::value::RawValue,
        }
        let Ok(text) = std::str::from_utf8(text) else {
            return (None, Vec::new());
        };
        let (from, message) = match serde_json::from_str::<Record<'_>>(text) {
            Ok(record) => (Peer::from_name(&record.from), record.message.get()),
            Err(_) => (None, text),
        };
        match parse_for_observe(message) {
            Some(value) => (from, self.observe(from, line, &value)),
            None => (from, Vec::new()),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Follows `content` (NDJSON, transcript records or bare messages) with two sessions, one
    /// given each message parsed whole, the other [`parse_for_observe`]'s: the same findings,
    /// message for message. Returns how many messages were skimmed.
    fn assert_skim_agrees(name: &str, content: &[u8]) -> usize {
        let mut whole = Session::default();
        let mut skim = Session::default();
        let mut skimmed = 0;
        for (index, line) in content.split(|&b| b == b'\n').enumerate() {
            let line_no = index + 1;
            // A transcript record: the message as sent, and its sender.
            let record = serde_json::from_slice::<
                std::collections::BTreeMap<&str, &serde_json::value::RawValue>,
            >(line)
            .ok()
            .filter(|record| record.contains_key("message"));
            let (side, text) = match &record {
                Some(record) => (
                    if record.get("from").map(|from| from.get()) == Some("\"client\"") {
                        Some(Side::Client)
                    } else {
                        Some(Side::Child)
                    },
                    record["message"].get().as_bytes(),
                ),
                None => (None, line),
            };
            let full = serde_json::from_slice::<Value>(text).ok();
            let quick = std::str::from_utf8(text).ok().and_then(parse_for_observe);
            let (Some(full), Some(quick)) = (full.clone(), quick.clone()) else {
                // JSON past what a `Value` holds (nesting past 128, a lone surrogate escape) in
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
    fn what_the_skim_cannot_say_is_parsed_whole() {
        let announce = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c\u0031","status":"pending","rawInput":{"deep":[[[1]]]}}}}"#;
        assert_eq!(
            parse_for_observe(announce),
            Some(
                json!({"method": "session/update", "params": {"sessionId": "s",
                "update": {"sessionUpdate": "tool_call", "toolCallId": "c1", "status": "pending"}}})
            )
        );
        for whole in [
            // A request (`id`, even `null`): not a notification.
            r#"{"jsonrpc":"2.0","id":null,"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c"}}}"#,
            // Members of another kind, or written twice.
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","status":3}}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","toolCallId":"d"}}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"toolCallId":"c"}}}"#,
            // `session/update` only inside a value.
            r#"{"jsonrpc":"2.0","id":1,"result":{"note":"session/update","x":"\"session/update\""}}"#,
            // A batch.
            r#"[{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan"}}}]"#,
        ] {
            assert_eq!(
                parse_for_observe(whole),
                serde_json::from_str::<Value>(whole).ok(),
                "{whole}"
            );
        }
        // Not JSON, or not UTF-8, whichever way it is read.
        for broken in [
            &br#"{"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan"}}"#[..],
            b"{\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"plan\",\"x\":\"\xff\"}}}",
            br#"{"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","x":[1,]}}}"#,
        ] {
            assert_eq!(
                std::str::from_utf8(broken).ok().and_then(parse_for_observe),
                None
            );
        }
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
