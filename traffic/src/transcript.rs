//! What one input has said so far: who sent each message, and the requests still waiting for
//! their response, paired by `id` *and* direction (the pairing itself, and the transcript
//! lines, are `toolcall_hops::pairing`'s, shared with the MCP → ACP relay).
//!
//! In ACP (and MCP) both sides send requests, and each side numbers its own: the client's
//! `session/prompt` `3` and the agent's `session/request_permission` `3` can be pending at the
//! same time, and a response with `"id": 3` answers the one the *other* side sent.
//!
//! # Transcript lines
//!
//! A line of NDJSON is either a bare message or a wrapper that says who sent it:
//!
//! ```json
//! {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "session/prompt", ...}}
//! {"from": "agent", "text": "a line that was not JSON"}
//! ```
//!
//! `from` is `client`, `agent` (ACP) or `server` (MCP); `message` is the JSON-RPC message, or
//! `text` the raw line when it was not JSON. With wrappers the direction is exact. With bare
//! lines the checker infers a request's direction from its method where the schema says which
//! side sends it, and pairs a bare response with the pending request of the other side; when
//! requests with the response's `id` are pending in both directions, the pairing is ambiguous
//! and the verdict says so.

use serde_json::Value;

use super::answered::{Answered, AnsweredRequests};
use super::verdict::Protocol;
pub use toolcall_hops::pairing::Side;
pub(crate) use toolcall_hops::pairing::{read_line, Line, Role};

/// A request a response answers: its method, the protocol (and version) it was checked as,
/// whether it asked for task-augmented execution (MCP `params.task`), who sent it (when known)
/// and its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Request {
    pub(crate) method: String,
    pub(crate) protocol: Protocol,
    pub(crate) task: bool,
    pub(crate) from: Option<Role>,
    pub(crate) line: usize,
}

/// What a response answers: the request ([`Request`]), none seen, or several (ambiguous).
pub(crate) type Answer = toolcall_hops::pairing::Answer<Request>;

/// The protocol family a session speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    /// Agent Client Protocol.
    Acp,
    /// Model Context Protocol.
    Mcp,
}

/// What one input has said so far: the session it is in (which protocol, which MCP version),
/// and the requests still waiting for their response, with who sent them, so that a response is
/// checked against the result definition of the request it answers.
///
/// A transcript may hold several sessions one after another: an `initialize` request (ACP or
/// MCP) or an MCP `server/discover` starts a new one, forgetting the requests still pending.
///
/// Ids are unique per sender while a request is pending (JSON-RPC): a request reusing an id its
/// sender has pending, and a second response to one request, are findings that name the line of
/// the first use. Lines are the ones [`Transcript::at_line`] gives, else messages are numbered
/// from 1 in the order they are checked (the lines of NDJSON).
///
/// Use one per input (file); ids of different inputs never match.
#[derive(Debug, Clone, Default)]
pub struct Transcript {
    /// Every request not yet answered, oldest first.
    pending: toolcall_hops::pairing::Pending<Value, Request>,
    /// The latest requests answered in this session.
    answered: AnsweredRequests,
    /// Messages checked so far.
    messages: usize,
    /// The line of the message being checked.
    line: usize,
    /// The line of the next message, when the caller gave it.
    next_line: Option<usize>,
    /// The MCP version the session's `initialize` offered, when the checker does not hold it.
    unknown_offer: Option<String>,
    /// The MCP version the session's `initialize` offered, when it has no `initialize` itself
    /// (a handshake offer of 2026-07-28), until the response settles the version.
    handshake_offer: Option<&'static str>,
    /// Whether a verdict of this session said which MCP version was assumed.
    assumption_noted: bool,
    /// The protocol of the session, once the transcript showed it.
    family: Option<Family>,
    /// The MCP version of the session, once negotiated (or carried by a request's `_meta`).
    mcp_version: Option<&'static str>,
}

impl Transcript {
    /// Sets the 1-based line the next message checked starts on (findings name the lines of
    /// earlier messages); without it, the number of messages checked so far plus one.
    pub fn at_line(&mut self, line: usize) {
        self.next_line = Some(line);
    }

    /// Starts checking the next message: sets its line.
    pub(crate) fn begin_message(&mut self) {
        self.messages += 1;
        self.line = self.next_line.take().unwrap_or(self.messages);
    }

    /// Records a request sent by `from` (`None` when unknown), checked as `protocol`; returns the
    /// line of a request with the same `id` that `from` sent and is still pending (the id is
    /// reused: JSON-RPC ids are unique per sender while pending).
    pub(crate) fn request(
        &mut self,
        id: &Value,
        method: &str,
        from: Option<Role>,
        protocol: Protocol,
    ) -> Option<usize> {
        self.request_with_task(id, method, from, protocol, false)
    }

    /// [`Transcript::request`] for a request that may ask for task-augmented execution.
    pub(crate) fn request_with_task(
        &mut self,
        id: &Value,
        method: &str,
        from: Option<Role>,
        protocol: Protocol,
        task: bool,
    ) -> Option<usize> {
        let reused = from
            .and_then(|sender| self.pending.pending_from(id, sender))
            .map(|pending| pending.line);
        self.pending.request(
            id.clone(),
            from,
            Request {
                method: method.to_owned(),
                protocol,
                task,
                from,
                line: self.line,
            },
        );
        reused
    }

    /// Starts a new session of `family`: no request pending, no MCP version yet.
    pub(crate) fn start_session(&mut self, family: Family) {
        self.pending.clear();
        self.answered.clear();
        self.unknown_offer = None;
        self.handshake_offer = None;
        self.assumption_noted = false;
        self.family = Some(family);
        self.mcp_version = None;
    }

    /// The session's protocol, once shown.
    pub(crate) fn family(&self) -> Option<Family> {
        self.family
    }

    /// Records the session's protocol (shown by a method only one protocol has).
    pub(crate) fn set_family(&mut self, family: Family) {
        self.family = Some(family);
    }

    /// The session's MCP version, once known.
    pub(crate) fn mcp_version(&self) -> Option<&'static str> {
        self.mcp_version
    }

    /// Records that the session's `initialize` offered `version`, which the checker does not hold.
    pub(crate) fn set_unknown_offer(&mut self, version: &str) {
        self.unknown_offer = Some(version.to_owned());
    }

    /// The version the session's `initialize` offered, when the checker does not hold it.
    pub(crate) fn unknown_offer(&self) -> Option<&str> {
        self.unknown_offer.as_deref()
    }

    /// Records that a verdict said which MCP version was assumed; returns whether one had already.
    pub(crate) fn note_assumption(&mut self) -> bool {
        std::mem::replace(&mut self.assumption_noted, true)
    }

    /// Records the session's MCP version (which settles a handshake offer).
    pub(crate) fn set_mcp_version(&mut self, version: &'static str) {
        self.mcp_version = Some(version);
        self.handshake_offer = None;
    }

    /// Records that the session's `initialize` offered `version`, which has no `initialize`.
    pub(crate) fn set_handshake_offer(&mut self, version: &'static str) {
        self.handshake_offer = Some(version);
    }

    /// The version the session's `initialize` offered, when it has no `initialize` and no
    /// response settled the version yet.
    pub(crate) fn handshake_offer(&self) -> Option<&'static str> {
        self.handshake_offer
    }

    /// Finds (and removes, once answered) the request a response with `id` answers; `from` is who
    /// sent the response, when known.
    ///
    /// The candidates are the latest pending request with `id` of each direction the response
    /// can answer: the other side's when `from` is known (and requests of unknown direction),
    /// every direction otherwise. One candidate is paired. Several are ambiguous; none is
    /// removed then, until as many ambiguous responses as candidates have come, which answered
    /// them all.
    pub(crate) fn answer(&mut self, id: &Value, from: Option<Role>) -> Answer {
        let answer = self.pending.answer(id, from);
        if let Answer::Paired(request) = &answer {
            self.answered.push(id, request.clone(), self.line);
        }
        answer
    }

    /// The request a response with `id` from `from` answers, when exactly one is pending for it
    /// (what [`Transcript::answer`] would pair); changes nothing.
    pub(crate) fn peek_answer(&self, id: &Value, from: Option<Role>) -> Option<&Request> {
        self.pending.peek_answer(id, from)
    }

    /// The request with `id` that a response from `from` could answer and that was answered
    /// already (no request with `id` pending), when this session remembers one.
    pub(crate) fn answered(&self, id: &Value, from: Option<Role>) -> Option<&Answered> {
        self.answered.find(id, from)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn paired(method: &str, from: Option<Role>) -> Answer {
        Answer::Paired(Request {
            method: method.to_owned(),
            protocol: Protocol::Acp,
            task: false,
            from,
            line: 0,
        })
    }

    trait Acp {
        fn acp(&mut self, id: Value, method: &str, from: Option<Role>);
    }

    impl Acp for Transcript {
        fn acp(&mut self, id: Value, method: &str, from: Option<Role>) {
            self.request(&id, method, from, Protocol::Acp);
        }
    }

    #[test]
    fn responses_find_their_request_by_id_and_direction() {
        let mut transcript = Transcript::default();
        transcript.acp(json!(1), "initialize", Some(Role::Client));
        transcript.acp(json!("1"), "session/new", Some(Role::Client));
        transcript.acp(json!(3), "session/prompt", Some(Role::Client));
        transcript.acp(json!(3), "session/request_permission", Some(Role::Peer));
        // The agent answers the client's request 3, the client the agent's.
        assert_eq!(
            transcript.answer(&json!(3), Some(Role::Client)),
            paired("session/request_permission", Some(Role::Peer))
        );
        assert_eq!(
            transcript.answer(&json!(3), Some(Role::Peer)),
            paired("session/prompt", Some(Role::Client))
        );
        assert_eq!(
            transcript.answer(&json!(3), Some(Role::Peer)),
            Answer::NotSeen
        );
        // `1` and `"1"` are different ids.
        assert_eq!(
            transcript.answer(&json!("1"), None),
            paired("session/new", Some(Role::Client))
        );
        assert_eq!(
            transcript.answer(&json!(1), None),
            paired("initialize", Some(Role::Client))
        );
        // A new session forgets what was pending.
        transcript.acp(json!(4), "session/prompt", Some(Role::Client));
        transcript.start_session(Family::Mcp);
        assert_eq!(transcript.answer(&json!(4), None), Answer::NotSeen);
        assert_eq!(transcript.family(), Some(Family::Mcp));
        assert_eq!(transcript.mcp_version(), None);
    }

    #[test]
    fn a_bare_response_with_an_id_pending_both_ways_is_ambiguous_until_both_are_answered() {
        let mut transcript = Transcript::default();
        transcript.acp(json!(2), "session/prompt", Some(Role::Client));
        transcript.acp(json!(2), "fs/read_text_file", Some(Role::Peer));
        let request = |method: &str, from: Role| Request {
            method: method.to_owned(),
            protocol: Protocol::Acp,
            task: false,
            from: Some(from),
            line: 0,
        };
        let both = Answer::Ambiguous(vec![
            request("session/prompt", Role::Client),
            request("fs/read_text_file", Role::Peer),
        ]);
        assert_eq!(transcript.answer(&json!(2), None), both);
        assert_eq!(transcript.answer(&json!(2), None), both);
        // Two responses answered the two requests.
        assert_eq!(transcript.answer(&json!(2), None), Answer::NotSeen);
        // A direction given later still pairs exactly.
        transcript.acp(json!(2), "session/prompt", Some(Role::Client));
        transcript.acp(json!(2), "fs/read_text_file", Some(Role::Peer));
        assert!(matches!(
            transcript.answer(&json!(2), None),
            Answer::Ambiguous(_)
        ));
        assert_eq!(
            transcript.answer(&json!(2), Some(Role::Client)),
            paired("fs/read_text_file", Some(Role::Peer))
        );
        assert_eq!(
            transcript.answer(&json!(2), None),
            paired("session/prompt", Some(Role::Client))
        );
    }

    #[test]
    fn a_pending_id_reused_by_its_sender_and_a_second_answer_name_the_first_line() {
        let mut transcript = Transcript::default();
        let at = |transcript: &mut Transcript, line: usize| {
            transcript.at_line(line);
            transcript.begin_message();
        };
        at(&mut transcript, 2);
        let first = transcript.request(&json!(1), "session/new", Some(Role::Client), Protocol::Acp);
        assert_eq!(first, None);
        // The agent's request 1 does not reuse the client's; a request of unknown sender neither.
        at(&mut transcript, 3);
        let agent = transcript.request(
            &json!(1),
            "fs/read_text_file",
            Some(Role::Peer),
            Protocol::Acp,
        );
        assert_eq!(agent, None);
        assert_eq!(
            transcript.request(&json!(1), "_x", None, Protocol::Acp),
            None
        );
        at(&mut transcript, 4);
        let reused =
            transcript.request(&json!(1), "session/new", Some(Role::Client), Protocol::Acp);
        assert_eq!(reused, Some(2));
        // Answered, then answered again: the second finds the first answer.
        let mut transcript = Transcript::default();
        at(&mut transcript, 1);
        transcript.request(&json!(7), "session/new", Some(Role::Client), Protocol::Acp);
        at(&mut transcript, 2);
        assert!(matches!(
            transcript.answer(&json!(7), Some(Role::Peer)),
            Answer::Paired(_)
        ));
        at(&mut transcript, 3);
        assert_eq!(
            transcript.answer(&json!(7), Some(Role::Peer)),
            Answer::NotSeen
        );
        let answered = transcript
            .answered(&json!(7), Some(Role::Peer))
            .expect("answered");
        assert_eq!((answered.request.line, answered.response_line), (1, 2));
        transcript.start_session(Family::Acp);
        assert_eq!(transcript.answered(&json!(7), None), None);
    }
}
