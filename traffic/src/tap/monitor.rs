//! [`Monitor`]: what the tap does with the side copy of the traffic: frames it into messages,
//! checks each with [`Checker`], follows the session, writes the transcript.

use std::fmt;
use std::io::Write;
use std::sync::Arc;

use serde_json::Value;

use super::frame::{Frame, LineFramer};
use super::gap::Gap;
use super::lifecycle::{HiddenByGap, LifecycleProblem};
use super::protocol::Protocol;
use super::session::{Observed, Session};
use super::Side;
use crate::{Checker, Kind, Status, Summary, Transcript, Verdict};
use toolcall_contracts::policy::DecodeLimits;

/// Who sent a message, as transcripts and reports name it: the client, or the child as an ACP
/// `agent` or an MCP `server` (the same names as `toolcall validate`'s transcripts).
pub type Peer = crate::Side;

/// Something the monitor found, in the order it found it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// A message opened a session (or settled its version).
    Session {
        /// Its transcript line.
        line: usize,
        /// Its sender.
        from: Peer,
        /// The protocol and version.
        protocol: Protocol,
    },
    /// The verdict on one message: what `toolcall validate` gives it. A message over the byte
    /// limit is `over-limit` as there, and still relayed.
    Message {
        /// Its transcript line.
        line: usize,
        /// Its sender.
        from: Peer,
        /// The checker's verdict.
        verdict: Verdict,
    },
    /// A tool call's life went wrong in this message.
    Lifecycle {
        /// The message's transcript line.
        line: usize,
        /// Its sender.
        from: Peer,
        /// What went wrong.
        problem: LifecycleProblem,
    },
    /// A tool call (ACP) or progress token (MCP) first seen in an update after bytes that were
    /// relayed but not checked (or a message over the byte limit): its announcement may have
    /// been among them, so it is followed
    /// from here and not reported as a problem. Once per gap, at the first such call.
    HiddenByGap {
        /// The message's transcript line.
        line: usize,
        /// Its sender.
        from: Peer,
        /// Which call, and where the gap was.
        hidden: HiddenByGap,
    },
    /// Bytes that were relayed but not checked: checking fell more than
    /// [`super::BACKLOG_BYTES`] behind the relay (the relay never waits for it). The message
    /// they were part of is not checked either.
    NotChecked {
        /// The transcript line of its record (`{"from", "not_checked_bytes"}`), which notes on
        /// calls the gap may have hidden name.
        line: usize,
        /// Who sent them.
        from: Peer,
        /// How many bytes.
        bytes: usize,
    },
    /// The transcript could not be written; nothing more is written to it.
    TranscriptFailed {
        /// The I/O error.
        error: String,
    },
}

/// The tally of a tap run.
///
/// Displays as `42 messages (20 from the client, 22 from the agent): 40 ok, 1 lenient, 0
/// unchecked, 1 invalid; 1 tool-call problem` (`, N over a limit` after `invalid` when N is not
/// 0); serializes as `{"messages": 42, "from_client": 20, "from_child": 22, "ok": 40,
/// "lenient": 1, "unchecked": 0, "invalid": 1, "over_limit": 0, "lifecycle": 1,
/// "not_checked_bytes": 0, "protocol": {"protocol": "acp", "version": 1}}` (`protocol` is
/// `null` when none was recognized).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct TapSummary {
    /// Messages seen (each one line of the transcript).
    pub messages: usize,
    /// Of which from the client.
    pub from_client: usize,
    /// Of which from the child.
    pub from_child: usize,
    /// Verdicts `ok`.
    pub ok: usize,
    /// Verdicts `lenient`.
    pub lenient: usize,
    /// Verdicts `unchecked` (a response to a request whose method the schema does not define).
    pub unchecked: usize,
    /// Verdicts `invalid`.
    pub invalid: usize,
    /// Verdicts `over-limit`: messages over `--max-bytes` or `--max-depth`, not checked.
    pub over_limit: usize,
    /// Tool-call lifecycle problems.
    pub lifecycle: usize,
    /// Bytes relayed but not checked (see [`Event::NotChecked`]).
    pub not_checked_bytes: usize,
    /// The protocol last recognized.
    pub protocol: Option<Protocol>,
}

impl fmt::Display for TapSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let child = self.protocol.as_ref().map_or("child", Protocol::child_role);
        write!(
            f,
            "{} messages ({} from the client, {} from the {child}): {} ok, {} lenient, {} unchecked, \
             {} invalid",
            self.messages,
            self.from_client,
            self.from_child,
            self.ok,
            self.lenient,
            self.unchecked,
            self.invalid,
        )?;
        if self.over_limit > 0 {
            write!(f, ", {} over a limit", self.over_limit)?;
        }
        write!(
            f,
            "; {} tool-call problem{}",
            self.lifecycle,
            if self.lifecycle == 1 { "" } else { "s" }
        )?;
        if self.not_checked_bytes > 0 {
            write!(f, "; {} bytes not checked", self.not_checked_bytes)?;
        }
        Ok(())
    }
}

/// The side copy of a stdio connection, direction by direction: frames each direction into
/// newline-delimited messages ([`LineFramer`], bounded by the checker's byte limit), gives each
/// its [`Checker`] verdict with requests paired to responses by id *and direction* (a response
/// from the child answers a request from the client, and the other way round: both sides send
/// requests, with overlapping ids), recognizes the protocol, follows tool calls through their
/// life, and writes the transcript.
///
/// The transcript is NDJSON, one record per message in the order the monitor saw them (its line
/// numbers are the `line` of every [`Event`]):
/// - `{"from": "client"|"agent"|"server", "message": <the message, byte for byte>}`;
/// - `{"from": ..., "text": "<the line>"}` for a line that is not JSON (lossy UTF-8), JSON no
///   `serde_json::Value` holds, or JSON nested so deep (127 levels) that the record holding it
///   could not be read back into one;
/// - `{"from": ..., "text": "<its first 1024 bytes>", "truncated": true, "bytes": N}` for a
///   message over the byte limit (relayed whole, not held);
/// - `{"from": ..., "not_checked_bytes": N}` where bytes were relayed but not seen.
///
/// The child is `agent` until a session says MCP.
///
/// A tap with several connections (the HTTP tap: one session per `Mcp-Session-Id` or SSE
/// connection) runs one monitor per session: [`Monitor::another`] shares the checker,
/// [`Monitor::named`] puts `"session": <name>` first in each record, [`Monitor::at_line`] keeps
/// the lines of one transcript file across them, and [`Monitor::feed_message`] takes a whole
/// message (an HTTP body, a server-sent event) rather than newline-delimited bytes.
///
/// ```
/// use toolcall_traffic::tap::{Event, Monitor, Side};
/// use toolcall_traffic::Checker;
///
/// let mut monitor = Monitor::new(Checker::new()?, Default::default());
/// let events = monitor.feed(Side::Client, br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}
/// "#);
/// assert!(matches!(&events[0], Event::Session { line: 1, protocol, .. } if protocol.to_string() == "ACP protocol version 1"));
/// assert_eq!(monitor.summary().ok, 1);
/// # Ok::<(), toolcall_traffic::TrafficError>(())
/// ```
pub struct Monitor {
    /// Shared with the monitors of other sessions ([`Monitor::another`]): its validators are
    /// compiled once.
    checker: Arc<Checker>,
    limits: DecodeLimits,
    framers: [LineFramer; 2],
    /// The session as the checker follows it: requests waiting for their responses (paired by
    /// id and direction), the protocol and version negotiated.
    pairing: Transcript,
    session: Session,
    transcript: Option<Box<dyn Write + Send>>,
    summary: TapSummary,
    /// Transcript records so far (messages and gaps): the line of the latest.
    lines: usize,
    /// `"session":<name>,` (the name as JSON) put first in each record, for a named session.
    name: Option<String>,
    /// What the child is before a session says (the HTTP tap's upstream is an MCP server).
    child: Option<Peer>,
}

impl fmt::Debug for Monitor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Monitor")
            .field("limits", &self.limits)
            .field("summary", &self.summary)
            .finish_non_exhaustive()
    }
}

impl Monitor {
    /// A monitor checking with `checker` under `limits` (a longer message is `invalid` and not
    /// held in memory; the same limits apply to the checker).
    #[must_use]
    pub fn new(checker: Checker, limits: DecodeLimits) -> Self {
        Self {
            checker: Arc::new(checker.with_limits(limits)),
            limits,
            framers: [
                LineFramer::new(limits.max_bytes),
                LineFramer::new(limits.max_bytes),
            ],
            pairing: Transcript::default(),
            session: Session::default(),
            transcript: None,
            summary: TapSummary::default(),
            lines: 0,
            name: None,
            child: None,
        }
    }

    /// A fresh monitor for another session of the same tap: the same checker (its compiled
    /// validators are shared) and limits, nothing pending, no transcript, no name.
    #[must_use]
    pub fn another(&self) -> Self {
        Self {
            checker: Arc::clone(&self.checker),
            limits: self.limits,
            framers: [
                LineFramer::new(self.limits.max_bytes),
                LineFramer::new(self.limits.max_bytes),
            ],
            pairing: Transcript::default(),
            session: Session::default(),
            transcript: None,
            summary: TapSummary::default(),
            lines: 0,
            name: None,
            child: self.child,
        }
    }

    /// The same monitor taking the child for an MCP server from the first message (it is an
    /// `agent` until a session says MCP otherwise): the HTTP tap's upstream, which only MCP
    /// speaks over HTTP.
    #[must_use]
    pub fn mcp_server(mut self) -> Self {
        self.child = Some(Peer::Server);
        self
    }

    /// The same monitor naming its session in every transcript record:
    /// `{"session": <name>, "from": ..., "message": ...}`, `name` being any JSON value (the HTTP
    /// tap numbers its sessions: `1`, `2`, ...). `toolcall validate` pairs the records of each
    /// session apart from the others.
    #[must_use]
    pub fn named(mut self, name: &Value) -> Self {
        self.name = Some(format!("\"session\":{name},"));
        self
    }

    /// The transcript line the next record takes (by default, the one after this monitor's
    /// last): for monitors that write one transcript between them.
    pub fn at_line(&mut self, line: usize) {
        self.lines = line.saturating_sub(1);
    }

    /// The line of the last record this monitor wrote (or would have written, without a
    /// transcript).
    #[must_use]
    pub const fn line(&self) -> usize {
        self.lines
    }

    /// Takes one whole message from `side`: an HTTP body or a server-sent event's data, not
    /// newline-delimited (it may hold line breaks: they are JSON whitespace, written as spaces
    /// in the transcript so that each record stays one line). A message over the byte limit is
    /// `invalid`, as in [`Monitor::feed`]; a blank one is no message.
    pub fn feed_message(&mut self, side: Side, bytes: &[u8]) -> Vec<Event> {
        let mut events = Vec::new();
        let frame = if bytes.len() > self.limits.max_bytes {
            Frame::TooLarge {
                bytes: bytes.len(),
                prefix: &bytes[..LineFramer::PREFIX.min(bytes.len())],
            }
        } else {
            let text = bytes.trim_ascii();
            if text.is_empty() {
                return events;
            }
            Frame::Line(text)
        };
        self.message(side, frame, &mut events);
        events
    }

    /// A whole message of `bytes` bytes from `side` that was too large to hold (the caller
    /// kept `prefix`, its first bytes): `invalid`, over the byte limit, as in
    /// [`Monitor::feed`].
    pub fn too_large(&mut self, side: Side, bytes: usize, prefix: &[u8]) -> Vec<Event> {
        let mut events = Vec::new();
        let prefix = &prefix[..LineFramer::PREFIX.min(prefix.len())];
        self.message(side, Frame::TooLarge { bytes, prefix }, &mut events);
        events
    }

    /// The same monitor writing the transcript to `out` (one record per message, flushed as
    /// each is written).
    #[must_use]
    pub fn with_transcript(mut self, out: Box<dyn Write + Send>) -> Self {
        self.transcript = Some(out);
        self
    }

    /// The tally so far.
    #[must_use]
    pub const fn summary(&self) -> &TapSummary {
        &self.summary
    }

    /// Takes the next bytes `side` sent; returns what they completed.
    pub fn feed(&mut self, side: Side, bytes: &[u8]) -> Vec<Event> {
        let mut events = Vec::new();
        let mut framer = self.take_framer(side);
        framer.push(bytes, &mut |frame| self.message(side, frame, &mut events));
        self.framers[side.index()] = framer;
        events
    }

    /// `bytes` of `side` were relayed but not handed to [`Monitor::feed`], where their newlines
    /// were not known: the message they belong to is dropped, and the gap is recorded.
    pub fn not_checked(&mut self, side: Side, bytes: usize) -> Vec<Event> {
        self.skipped(side, Gap::unknown(bytes))
    }

    /// The bytes of `gap` from `side` were relayed but not handed to [`Monitor::feed`]: the gap
    /// is recorded; a message whose known length is over the byte limit is still `invalid`, over
    /// the limit ([`LineFramer::skip`]), and any other message the gap broke is dropped. A gap
    /// wholly inside a message over the byte limit is not one: that message is reported at its
    /// end as it would have been, its bytes past the first ones unchecked either way.
    pub fn skipped(&mut self, side: Side, gap: Gap) -> Vec<Event> {
        let bytes = gap.bytes();
        let mut events = Vec::new();
        let mut framer = self.take_framer(side);
        let inside_too_large =
            framer.skip(&gap, &mut |frame| self.message(side, frame, &mut events));
        self.framers[side.index()] = framer;
        if inside_too_large {
            return events;
        }
        self.summary.not_checked_bytes += bytes;
        // The record takes a transcript line, so later lines stay the transcript's.
        self.lines += 1;
        self.session.gap(self.lines);
        let from = self.peer(side);
        self.record(
            &record(&GapRecord {
                from,
                not_checked_bytes: bytes,
            }),
            &mut events,
        );
        events.push(Event::NotChecked {
            line: self.lines,
            from,
            bytes,
        });
        events
    }

    /// The stream of `side` ended: a last line without `\n` is a message too.
    pub fn end(&mut self, side: Side) -> Vec<Event> {
        let mut events = Vec::new();
        let mut framer = self.take_framer(side);
        framer.finish(&mut |frame| self.message(side, frame, &mut events));
        self.framers[side.index()] = framer;
        events
    }

    /// The framer of `side`, taken out while the messages it completes are checked (they are
    /// checked as it emits them, without a copy); put back after.
    fn take_framer(&mut self, side: Side) -> LineFramer {
        std::mem::replace(&mut self.framers[side.index()], LineFramer::new(0))
    }

    fn peer(&self, side: Side) -> Peer {
        match (side, self.session.protocol()) {
            (Side::Client, _) => Peer::Client,
            (Side::Child, Some(Protocol::Mcp { .. })) => Peer::Server,
            (Side::Child, Some(Protocol::Acp { .. })) => Peer::Agent,
            (Side::Child, None) => self.child.unwrap_or(Peer::Agent),
        }
    }

    fn message(&mut self, side: Side, frame: Frame<'_>, events: &mut Vec<Event>) {
        self.summary.messages += 1;
        match side {
            Side::Client => self.summary.from_client += 1,
            Side::Child => self.summary.from_child += 1,
        }
        self.lines += 1;
        let line = self.lines;
        let (text, utf8) = match frame {
            Frame::TooLarge { bytes, prefix } => {
                // Followed as far as its first bytes tell (see `Session::truncated`), and
                // recognized first, as any message.
                let observed = self.session.truncated(side, line, prefix);
                let (problems, hidden) = self.recognized(side, line, observed, events);
                let from = self.peer(side);
                let record = record(&TruncatedRecord {
                    from,
                    text: String::from_utf8_lossy(prefix),
                    truncated: true,
                    bytes,
                });
                self.record(&record, events);
                self.pairing.at_line(line);
                let verdict = self
                    .checker
                    .check_truncated(&mut self.pairing, from, prefix, bytes);
                self.tally(line, from, verdict, events);
                self.report(line, from, problems, hidden, events);
                return;
            }
            Frame::Line(text) => (text, simdutf8::basic::from_utf8(text)),
        };
        // The text as UTF-8 is validated once, here, for the parse and the record.
        if let Ok(utf8) = utf8 {
            if update_method().find(text).is_some() {
                // Most of an ACP session: an update the checker's one pass decides, its
                // lifecycle read from the decoded value (no second parse). Such a notification
                // says nothing about the protocol, so it is checked before it is followed.
                let from = self.peer(side);
                self.pairing.at_line(line);
                if let Some((verdict, update)) =
                    self.checker
                        .check_update_from(&mut self.pairing, from, utf8)
                {
                    let call = super::session::tool_call_of(&update);
                    let observed = self.session.observe_update(side, line, call);
                    self.message_record(from, utf8, events);
                    self.tally(line, from, verdict, events);
                    self.follow(side, line, observed, events);
                    return;
                }
            }
        }
        // Recognition first: the response to `initialize` is already the agent's or server's.
        // A message that cannot change what is followed is not parsed for it.
        let observed = utf8
            .ok()
            .filter(|utf8| self.session.follows(utf8.as_bytes()))
            .and_then(super::session::parse_for_observe)
            .map(|value| self.session.observe(side, line, &value))
            .unwrap_or_default();
        let (problems, hidden) = self.recognized(side, line, observed, events);
        let from = self.peer(side);
        self.pairing.at_line(line);
        let verdict = self.checker.check_from(&mut self.pairing, from, text);
        // The message as sent when it is JSON a `Value` holds, else its text (the checker said
        // which; only a message over a limit may be JSON that no `Value` holds). The record
        // itself must be too: `message_record` writes a message too deep for it as text.
        let held = match (&verdict.kind, &verdict.status) {
            (Kind::NotJson, _) => false,
            (_, Status::OverLimit { .. }) => serde_json::from_slice::<Value>(text).is_ok(),
            _ => true,
        };
        match utf8 {
            Ok(utf8) if held => self.message_record(from, utf8, events),
            _ => {
                let text = String::from_utf8_lossy(text);
                self.record(&record(&TextRecord { from, text }), events);
            }
        }
        self.tally(line, from, verdict, events);
        self.report(line, from, problems, hidden, events);
    }

    /// What [`Session::observe`] found in a message checked before it was followed: the
    /// lifecycle's findings, after the message's verdict.
    fn follow(
        &mut self,
        side: Side,
        line: usize,
        observed: Vec<Observed>,
        events: &mut Vec<Event>,
    ) {
        let (problems, hidden) = self.recognized(side, line, observed, events);
        let from = self.peer(side);
        self.report(line, from, problems, hidden, events);
    }

    /// Reports the protocol a message made known (first, before its verdict); returns the
    /// lifecycle's problems and the calls a gap hid, reported after it.
    fn recognized(
        &mut self,
        side: Side,
        line: usize,
        observed: Vec<Observed>,
        events: &mut Vec<Event>,
    ) -> (Vec<LifecycleProblem>, Vec<HiddenByGap>) {
        let mut problems = Vec::new();
        let mut hidden = Vec::new();
        for found in observed {
            match found {
                Observed::Hidden(call) => hidden.push(call),
                Observed::Recognized(protocol) => {
                    self.summary.protocol = Some(protocol.clone());
                    events.push(Event::Session {
                        line,
                        from: self.peer(side),
                        protocol,
                    });
                }
                Observed::Problem(problem) => problems.push(problem),
            }
        }
        (problems, hidden)
    }

    /// Reports a message's lifecycle problems and the calls a gap hid.
    fn report(
        &mut self,
        line: usize,
        from: Peer,
        problems: Vec<LifecycleProblem>,
        hidden: Vec<HiddenByGap>,
        events: &mut Vec<Event>,
    ) {
        for problem in problems {
            self.summary.lifecycle += 1;
            events.push(Event::Lifecycle {
                line,
                from,
                problem,
            });
        }
        for hidden in hidden {
            events.push(Event::HiddenByGap { line, from, hidden });
        }
    }

    fn tally(&mut self, line: usize, from: Peer, verdict: Verdict, events: &mut Vec<Event>) {
        let mut counts = Summary::default();
        counts.add(&verdict);
        self.summary.ok += counts.ok;
        self.summary.lenient += counts.lenient;
        self.summary.unchecked += counts.unchecked;
        self.summary.invalid += counts.invalid;
        self.summary.over_limit += counts.over_limit;
        events.push(Event::Message {
            line,
            from,
            verdict,
        });
    }

    /// Writes one transcript record (a JSON object); on failure, says so once and stops
    /// writing.
    fn record(&mut self, record: &str, events: &mut Vec<Event>) {
        let members = record.strip_prefix('{').unwrap_or(record);
        self.write_record(&[members], events);
    }

    /// Writes the transcript record of a JSON message from `from` that a `Value` holds:
    /// `{"from", "message"}`, the message as sent spliced in (it is one JSON value; a line break
    /// in it, which only a whole message can hold, is JSON whitespace: a space keeps the record
    /// one line); `{"from", "text"}` when the record, a level deeper than the message, would nest
    /// past what serde_json reads (`crate::tap_records::nests_in_record`).
    fn message_record(&mut self, from: Peer, text: &str, events: &mut Vec<Event>) {
        if self.transcript.is_none() {
            return;
        }
        if !crate::tap_records::nests_in_record(text.as_bytes()) {
            let text = text.into();
            self.record(&record(&TextRecord { from, text }), events);
            return;
        }
        let text = one_line(text);
        let members = ["\"from\":\"", from.name(), "\",\"message\":", &text, "}"];
        self.write_record(&members, events);
    }

    /// Writes one record: `{`, the session's name, then `members` (the record's members and
    /// its closing `}`), and a line break; on failure, says so once and stops writing.
    fn write_record(&mut self, members: &[&str], events: &mut Vec<Event>) {
        let Some(out) = &mut self.transcript else {
            return;
        };
        let mut written = out.write_all(b"{");
        for part in self
            .name
            .iter()
            .map(String::as_str)
            .chain(members.iter().copied())
        {
            written = written.and_then(|()| out.write_all(part.as_bytes()));
        }
        let written = written
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush());
        if let Err(error) = written {
            self.transcript = None;
            events.push(Event::TranscriptFailed {
                error: error.to_string(),
            });
        }
    }
}

/// A transcript line that was not JSON: `{"from", "text"}`, members in that order whatever
/// serde_json's features (the transcript's format is the same in every build).
#[derive(serde::Serialize)]
struct TextRecord<'a> {
    from: Peer,
    text: std::borrow::Cow<'a, str>,
}

/// A message over the byte limit: `{"from", "text", "truncated": true, "bytes"}`.
#[derive(serde::Serialize)]
struct TruncatedRecord<'a> {
    from: Peer,
    text: std::borrow::Cow<'a, str>,
    truncated: bool,
    bytes: usize,
}

/// Bytes relayed but not checked: `{"from", "not_checked_bytes"}`.
#[derive(serde::Serialize)]
struct GapRecord {
    from: Peer,
    not_checked_bytes: usize,
}

/// One transcript record as one line of JSON (these structs of strings and integers always
/// serialize).
fn record(record: &impl serde::Serialize) -> String {
    serde_json::to_string(record).unwrap_or_default()
}

/// Finds `"session/update"` in a message (the finder built once).
fn update_method() -> &'static memchr::memmem::Finder<'static> {
    static UPDATE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\"session/update\""));
    &UPDATE
}

/// `text` with its line breaks as spaces (JSON whitespace outside strings, where JSON allows no
/// raw line break).
fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if memchr::memchr2(b'\n', b'\r', text.as_bytes()).is_some() {
        text.replace(['\n', '\r'], " ").into()
    } else {
        text.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolcall_test_support::SharedBuffer;

    /// Feeds `content` (NDJSON: transcript records or bare messages, the latter the child's) to
    /// a monitor: its events and its transcript.
    fn run(monitor: Monitor, content: &[u8]) -> (Vec<Event>, String) {
        let transcript = SharedBuffer::default();
        let mut monitor = monitor.with_transcript(Box::new(transcript.clone()));
        let mut events = Vec::new();
        for line in content.split(|&b| b == b'\n') {
            let record = serde_json::from_slice::<
                std::collections::BTreeMap<&str, &serde_json::value::RawValue>,
            >(line)
            .ok()
            .filter(|record| record.contains_key("message"));
            let (side, text) = match &record {
                Some(record) if record.get("from").map(|f| f.get()) == Some("\"client\"") => {
                    (Side::Client, record["message"].get().as_bytes())
                }
                Some(record) => (Side::Child, record["message"].get().as_bytes()),
                None => (Side::Child, line),
            };
            events.extend(monitor.feed_message(side, text));
        }
        (events, transcript.text())
    }

    #[test]
    fn updates_the_one_pass_decides_give_the_events_and_transcript_of_the_full_check() {
        let mut decided = 0;
        for (name, content) in crate::fast::tests::corpora()
            .into_iter()
            .chain(crate::fast::tests::mutated_corpora())
        {
            let limits = Checker::DEFAULT_LIMITS;
            let one_pass = Monitor::new(Checker::new().expect("schema"), limits);
            let full = Monitor::new(Checker::new().expect("schema").with_one_pass(false), limits);
            let (events, transcript) = run(one_pass, &content);
            let (full_events, full_transcript) = run(full, &content);
            assert_eq!(events.len(), full_events.len(), "{name}");
            for (one, other) in events.iter().zip(&full_events) {
                assert_eq!(one, other, "{name}");
            }
            assert_eq!(transcript, full_transcript, "{name}");
            decided += events
                .iter()
                .filter(|event| {
                    matches!(event, Event::Lifecycle { .. } | Event::HiddenByGap { .. })
                })
                .count();
        }
        // The corpora hold lifecycle findings for the comparison to be worth something.
        assert!(decided > 0);
    }

    #[test]
    fn a_message_is_recorded_as_sent_when_a_value_holds_it() {
        let transcript = SharedBuffer::default();
        let mut monitor = Monitor::new(Checker::new().expect("schema"), Checker::DEFAULT_LIMITS)
            .with_transcript(Box::new(transcript.clone()));
        let update = |kind: &str, status: &str, extra: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{{"sessionUpdate":"{kind}","toolCallId":"c1","title":"t","status":"{status}"{extra}}}}}}}"#
            )
        };
        let announce = update("tool_call", "pending", r#","rawInput":{"n":1e400}"#);
        let surrogate = r#"{"jsonrpc":"2.0","method":"x/y","params":{"s":"\ud800"}}"#;
        let broken = r#"{"jsonrpc":"2.0","id":3,"#;
        let done = update("tool_call_update", "completed", "");
        let messages: [&[u8]; 7] = [
            // JSON a `Value` cannot hold, as text (any JSON reader reads the transcript), and
            // followed: it announces `c1`.
            announce.as_bytes(),
            surrogate.as_bytes(),
            // A line break (JSON whitespace) as a space.
            b"{\"jsonrpc\":\"2.0\",\r\n\"method\":\"x/y\"}",
            // Not JSON, or not UTF-8: as text.
            broken.as_bytes(),
            b"{\"jsonrpc\":\"2.0\",\"method\":\"x\xff\"}",
            done.as_bytes(),
            // Ended already.
            done.as_bytes(),
        ];
        let mut live = Vec::new();
        let mut live_problems = Vec::new();
        for message in messages {
            for event in monitor.feed_message(Side::Child, message) {
                match event {
                    Event::Message { verdict, .. } => live.push(verdict.status.name()),
                    Event::Lifecycle { line, problem, .. } => {
                        live_problems.push((line, problem.name()));
                    }
                    _ => {}
                }
            }
        }
        let text = |text: &str| serde_json::json!({"from": "agent", "text": text}).to_string();
        let message = |text: &str| format!(r#"{{"from":"agent","message":{text}}}"#);
        let expected = [
            text(&announce),
            text(surrogate),
            message(r#"{"jsonrpc":"2.0",  "method":"x/y"}"#),
            text(broken),
            text("{\"jsonrpc\":\"2.0\",\"method\":\"x\u{fffd}\"}"),
            message(&done),
            message(&done),
        ];
        let written = transcript.text();
        assert_eq!(written.lines().collect::<Vec<_>>(), expected);
        assert_eq!(
            live,
            [
                "over-limit",
                "over-limit",
                "invalid",
                "invalid",
                "invalid",
                "ok",
                "ok"
            ]
        );
        assert_eq!(live_problems, [(7, "update-after-end")]);
        // The transcript checked and followed again gives what the tap gave live.
        let checked: Vec<&str> = Checker::new()
            .expect("schema")
            .check_input(written.as_bytes())
            .iter()
            .map(|checked| checked.verdict.status.name())
            .collect();
        assert_eq!(checked, live);
        assert_eq!(followed_in(&written), live_problems);
        // The line that was not UTF-8 is said to be so, though its text record holds JSON.
        let again = Checker::new()
            .expect("schema")
            .check_input(written.as_bytes());
        let Status::Invalid { message, .. } = &again[4].verdict.status else {
            panic!("{:?}", again[4].verdict);
        };
        assert!(
            message.starts_with("not UTF-8 text, as JSON must be"),
            "{message}"
        );
    }

    /// Lifecycle events, as (line, name).
    type Followed = Vec<(usize, &'static str)>;

    /// The lifecycle problems and notes of following `transcript` line by line (`validate
    /// --lifecycle`).
    fn followed_in(transcript: &str) -> Followed {
        let mut lifecycle = super::super::Lifecycle::default();
        let mut followed = Vec::new();
        for (index, line) in transcript.lines().enumerate() {
            let (_, found) = lifecycle.follow_line(index + 1, line.as_bytes());
            followed.extend(found.iter().map(|found| (index + 1, found.name())));
        }
        followed
    }

    /// What `messages` (the agent's) give live, and what following the transcript written gives.
    fn lifecycle_both_ways(limits: DecodeLimits, messages: &[&str]) -> (Followed, Followed) {
        let transcript = SharedBuffer::default();
        let mut monitor = Monitor::new(Checker::new().expect("schema"), limits)
            .with_transcript(Box::new(transcript.clone()));
        let mut live = Vec::new();
        for message in messages {
            for event in monitor.feed_message(Side::Child, message.as_bytes()) {
                match event {
                    Event::Lifecycle { line, problem, .. } => live.push((line, problem.name())),
                    Event::HiddenByGap { line, .. } => live.push((line, "hidden-by-gap")),
                    _ => {}
                }
            }
        }
        let followed = followed_in(&transcript.text());
        (live, followed)
    }

    const UPDATE_C1: &str = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}}}"#;

    #[test]
    fn a_peers_message_is_never_the_taps_own_record() {
        for fake in [
            r#"{"from":"agent","not_checked_bytes":5}"#,
            r#"{"fr\u006fm":"agent","not_checked_bytes":5}"#,
            r#"{"from":"agent","text":"x","truncated":true,"bytes":900}"#,
        ] {
            let (live, followed) = lifecycle_both_ways(Checker::DEFAULT_LIMITS, &[fake, UPDATE_C1]);
            assert_eq!(live, [(2, "unannounced-update")], "{fake}");
            assert_eq!(followed, live, "{fake}");
        }
    }

    #[test]
    fn a_message_over_the_byte_limit_is_followed_as_far_as_its_first_bytes_tell() {
        let announce = |title: usize| {
            format!(
                r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{{"sessionUpdate":"tool_call","toolCallId":"c1","title":"{}"}}}}}}"#,
                "t".repeat(title)
            )
        };
        let limits = DecodeLimits::new(250, DecodeLimits::DEFAULT_MAX_DEPTH);
        // Whole in the 1,024 bytes kept: followed as any message.
        let (live, followed) = lifecycle_both_ways(limits, &[&announce(300), UPDATE_C1, UPDATE_C1]);
        assert_eq!(live, [(3, "update-after-end")]);
        assert_eq!(followed, live);
        // Cut: a gap; the call is followed from its first update, said once.
        let (live, followed) =
            lifecycle_both_ways(limits, &[&announce(2000), UPDATE_C1, UPDATE_C1]);
        assert_eq!(live, [(2, "hidden-by-gap"), (3, "update-after-end")]);
        assert_eq!(followed, live);
    }

    #[test]
    fn a_message_over_the_byte_limit_hides_only_what_it_could_carry() {
        let limits = DecodeLimits::new(250, DecodeLimits::DEFAULT_MAX_DEPTH);
        let long = "x".repeat(2000);
        // The client announces no tool call.
        let prompt = format!(
            r#"{{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{{"sessionId":"s","prompt":[{{"type":"text","text":"{long}"}}]}}}}"#
        );
        let transcript = SharedBuffer::default();
        let mut monitor = Monitor::new(Checker::new().expect("schema"), limits)
            .with_transcript(Box::new(transcript.clone()));
        let mut live = Vec::new();
        for (side, message) in [(Side::Client, prompt.as_str()), (Side::Child, UPDATE_C1)] {
            for event in monitor.feed_message(side, message.as_bytes()) {
                if let Event::Lifecycle { line, problem, .. } = event {
                    live.push((line, problem.name()));
                }
            }
        }
        assert_eq!(live, [(2, "unannounced-update")]);
        assert_eq!(followed_in(&transcript.text()), live);
        // A response carries no progress token.
        let mut session = super::super::session::Session::default();
        let response = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":["{long}"]}}}}"#);
        assert_eq!(
            session.truncated(Side::Child, 1, &response.as_bytes()[..1024]),
            []
        );
        let progress = serde_json::json!({"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": "t", "progress": 1}});
        assert!(matches!(
            &session.observe(Side::Child, 2, &progress)[..],
            [super::super::session::Observed::Problem(
                LifecycleProblem::UnknownProgressToken { .. }
            )]
        ));
    }

    #[test]
    fn a_gap_inside_a_message_over_the_byte_limit_loses_no_message() {
        let limits = DecodeLimits::new(100, DecodeLimits::DEFAULT_MAX_DEPTH);
        let transcript = SharedBuffer::default();
        let mut monitor = Monitor::new(Checker::new().expect("schema"), limits)
            .with_transcript(Box::new(transcript.clone()));
        let start = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":""#;
        let mut events = monitor.feed(Side::Child, start.as_bytes());
        // Checking fell behind twice inside the message's text, and caught up before its end.
        for _ in 0..2 {
            events.extend(monitor.skipped(Side::Child, Gap::default().then(&[b'x'; 5000])));
        }
        events.extend(monitor.feed(Side::Child, b"\"}}}}\n"));
        let bytes = start.len() + 10_000 + 5;
        // One message, over the limit with its whole length; no gap, so no message missing.
        assert!(
            matches!(
                &events[..],
                [Event::Message { line: 1, verdict, .. }]
                    if matches!(verdict.status, Status::OverLimit { .. })
            ),
            "{events:?}"
        );
        let written = transcript.text();
        let record: Value = serde_json::from_str(written.trim_end()).expect("one record");
        assert_eq!(record["bytes"], bytes);
        assert_eq!(record["truncated"], true);
        assert_eq!(monitor.summary().not_checked_bytes, 0);
        // A gap that takes the next message's start too is one.
        let events = monitor.skipped(Side::Child, Gap::default().then(b"xx\n{\"jsonrpc\""));
        assert!(
            matches!(
                &events[..],
                [Event::NotChecked {
                    line: 2,
                    bytes: 13,
                    ..
                }]
            ),
            "{events:?}"
        );
    }

    #[test]
    fn a_session_load_over_the_byte_limit_still_starts_its_replay() {
        let limits = DecodeLimits::new(250, DecodeLimits::DEFAULT_MAX_DEPTH);
        let update = |kind: &str, status: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{{"sessionUpdate":"{kind}","toolCallId":"a","title":"Read","status":"{status}"}}}}}}"#
            )
        };
        let load = |servers: usize| {
            let env = r#"{"name":"x","value":"y"}"#;
            let envs = vec![env; servers].join(",");
            format!(
                r#"{{"jsonrpc":"2.0","id":7,"method":"session/load","params":{{"sessionId":"s","cwd":"/w","mcpServers":[{{"name":"m","command":"c","args":[],"env":[{envs}]}}]}}}}"#
            )
        };
        let loaded = r#"{"jsonrpc":"2.0","id":7,"result":{}}"#;
        // A call announced and ended, then a load (its first 1,024 bytes hold its id and session
        // id, the rest cut) whose replay announces and ends it again.
        for servers in [20, 200] {
            let load = load(servers);
            assert!(load.len() > 1024 || servers == 20);
            let messages = [
                (Side::Child, update("tool_call", "pending")),
                (Side::Child, update("tool_call_update", "completed")),
                (Side::Client, load),
                (Side::Child, update("tool_call", "pending")),
                (Side::Child, update("tool_call_update", "completed")),
                (Side::Child, loaded.to_owned()),
                (Side::Child, update("tool_call_update", "completed")),
            ];
            let transcript = SharedBuffer::default();
            let mut monitor = Monitor::new(Checker::new().expect("schema"), limits)
                .with_transcript(Box::new(transcript.clone()));
            let mut live = Vec::new();
            for (side, message) in &messages {
                for event in monitor.feed_message(*side, message.as_bytes()) {
                    match event {
                        Event::Lifecycle { line, problem, .. } => {
                            live.push((line, problem.name()));
                        }
                        Event::HiddenByGap { line, .. } => live.push((line, "hidden-by-gap")),
                        _ => {}
                    }
                }
            }
            // Only the update after the replayed call's end is a problem.
            assert_eq!(live, [(7, "update-after-end")], "{servers} servers");
            assert_eq!(followed_in(&transcript.text()), live, "{servers} servers");
        }
    }

    /// The session events and verdicts (`status protocol`) of `messages`.
    fn protocols_seen(messages: &[(Side, &str)]) -> Vec<String> {
        protocols_seen_within(Checker::DEFAULT_LIMITS, messages)
    }

    /// [`protocols_seen`] under `limits`.
    fn protocols_seen_within(limits: DecodeLimits, messages: &[(Side, &str)]) -> Vec<String> {
        let mut monitor = Monitor::new(Checker::new().expect("schema"), limits);
        let mut seen = Vec::new();
        for (side, message) in messages {
            for event in monitor.feed_message(*side, message.as_bytes()) {
                match event {
                    Event::Session { protocol, .. } => seen.push(protocol.to_string()),
                    Event::Message { verdict, .. } => seen.push(format!(
                        "{} {}",
                        verdict.status.name(),
                        verdict.protocol.map(|p| p.to_string()).unwrap_or_default()
                    )),
                    _ => {}
                }
            }
        }
        seen
    }

    #[test]
    fn a_message_over_the_byte_limit_is_recognized_before_its_verdict() {
        // The tap reports the session a message opens before the message, whatever its size.
        let limits = DecodeLimits::new(60, DecodeLimits::DEFAULT_MAX_DEPTH);
        let seen = protocols_seen_within(
            limits,
            &[
                (
                    Side::Client,
                    r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}"#,
                ),
                (
                    Side::Child,
                    r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}"#,
                ),
            ],
        );
        assert_eq!(seen, ["ACP protocol version 1", "over-limit ACP", "ok ACP"]);
    }

    #[test]
    fn an_initialize_response_no_value_holds_still_settles_the_version() {
        let seen = protocols_seen(&[
            (
                Side::Client,
                r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
            ),
            (
                Side::Child,
                r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-03-26","capabilities":{},"serverInfo":{"name":"\ud800","version":"1"}}}"#,
            ),
            // Batches are 2025-03-26's only.
            (
                Side::Client,
                r#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#,
            ),
        ]);
        assert_eq!(
            seen,
            [
                "MCP 2025-06-18",
                "ok MCP 2025-06-18",
                "MCP 2025-03-26",
                "over-limit MCP 2025-03-26",
                "ok MCP 2025-03-26"
            ]
        );
    }

    #[test]
    fn an_initialize_no_value_holds_still_names_the_protocol_checked() {
        let seen = protocols_seen(&[
            (
                Side::Client,
                r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"\ud800","version":"1"}}}"#,
            ),
            (
                Side::Child,
                r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#,
            ),
            (
                Side::Client,
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{}}}"#,
            ),
        ]);
        assert_eq!(
            seen,
            [
                "MCP 2025-06-18",
                "over-limit MCP 2025-06-18",
                "ok MCP 2025-06-18",
                "ok MCP 2025-06-18"
            ]
        );
    }
}
