//! The checking thread of the HTTP tap: what the relay saw ([`Traffic`]) turned into messages,
//! each message given to the [`Monitor`] of its session, every finding to the [`Reporter`].
//!
//! Sessions: on Streamable HTTP one per `Mcp-Session-Id` (a request without one, `initialize`,
//! joins the session its response names; a server that names none has one session for all such
//! traffic); on HTTP+SSE one per `GET` stream, which names the endpoint its `POST`s go to in its
//! `endpoint` event. Sessions are numbered from 1 in the order they open; the number is in every
//! transcript record and report line of the session.
//!
//! Messages: a request body, a JSON response body, or a server-sent event's data, when it is
//! JSON-RPC (an object, or an array of objects, with `jsonrpc` or `method`) or is not JSON at all
//! while its content type says JSON; anything else an HTTP server answers (OAuth metadata, a
//! `202 Accepted` text) is relayed and not a message.
//!
//! Resumption: a server-sent event whose `id` the session saw already on the stream being
//! resumed (`Last-Event-ID`) is relayed and not checked again (the tap checked it the first time);
//! one it saw on another stream is a replay the specification forbids ("MUST NOT replay messages
//! that would have been delivered on a different stream"): reported, and checked as the message
//! the client receives once more.

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::{self, Write};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use hyper::http::{request, response};
use serde_json::{json, Map, Value};
use toolcall_traffic::tap::{Backlog, Event, Monitor, Protocol, Reporter, Side, TapSummary};

use super::headers;
use super::sse;

/// Most sessions followed at once; past it the one idle longest is forgotten.
pub(super) const MAX_SESSIONS: usize = 1024;
/// Most server-sent event ids (to tell a replay) and cancelled request ids remembered per
/// session.
const MAX_EVENT_IDS: usize = 4096;
/// How many bytes of an oversized message are kept for the transcript.
const PREFIX: usize = 1024;

/// Which transport the traffic is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Transport {
    /// Recognized from the traffic: a `GET` stream that announces an `endpoint` is HTTP+SSE,
    /// anything else Streamable HTTP.
    Auto,
    /// Streamable HTTP (MCP 2025-03-26 and later).
    StreamableHttp,
    /// HTTP+SSE (MCP 2024-11-05).
    Sse,
}

/// What the relay hands the checking thread.
pub(super) enum Traffic {
    /// A request arrived and is forwarded.
    Request(Box<RequestSeen>),
    /// A request was refused (never forwarded), and why.
    Refused(Box<(RequestSeen, String)>),
    /// The upstream's response started.
    Response(Box<ResponseSeen>),
    /// Body bytes relayed from `side` (the client's request body, or the server's response
    /// body), after `skipped` bytes relayed but not queued.
    Chunk {
        exchange: u64,
        side: Side,
        bytes: Bytes,
        skipped: usize,
    },
    /// A body ended.
    End {
        exchange: u64,
        side: Side,
        skipped: usize,
        how: BodyEnd,
    },
    /// The upstream gave no response; the client got the failure's status.
    Failed { exchange: u64, failure: Failure },
    /// The client went away before the upstream's response started.
    Abandoned { exchange: u64 },
    /// The tap was told to stop: the streams still open are closed by it, not by their client.
    Stopping,
    /// The tap is stopping: wrap up.
    Finish,
}

/// How a body ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum BodyEnd {
    /// Read to its end.
    Complete,
    /// Reading it failed (the connection broke).
    Broken(String),
    /// Its reader went away before its end (the client disconnected, or the upstream stopped
    /// reading the request).
    Abandoned,
}

/// Why the upstream gave no response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Failure {
    /// It could not be reached, or the connection failed before a response.
    Unreachable(String),
    /// It did not start a response in time.
    Timeout(Duration),
    /// The request could not be forwarded at all.
    Request(String),
}

impl Failure {
    pub(super) const fn status(&self) -> hyper::StatusCode {
        match self {
            Self::Unreachable(_) | Self::Request(_) => hyper::StatusCode::BAD_GATEWAY,
            Self::Timeout(_) => hyper::StatusCode::GATEWAY_TIMEOUT,
        }
    }

    pub(super) fn describe(&self) -> String {
        match self {
            Self::Unreachable(error) => format!("could not be reached ({error})"),
            Self::Timeout(after) => {
                format!(
                    "did not start its response within {} s",
                    after.as_secs_f64()
                )
            }
            Self::Request(error) => format!("could not be sent the request ({error})"),
        }
    }
}

/// A request as the checking side keeps it.
pub(super) struct RequestSeen {
    exchange: u64,
    method: String,
    /// The path without the query (what the report shows: a query may hold a credential).
    path: String,
    /// Path and query (what an HTTP+SSE endpoint is matched against).
    target: String,
    session_id: Option<String>,
    protocol_version: Option<String>,
    last_event_id: Option<String>,
    content_type: Option<String>,
    headers: Map<String, Value>,
}

impl RequestSeen {
    pub(super) fn of(exchange: u64, parts: &request::Parts) -> Self {
        Self {
            exchange,
            method: parts.method.as_str().to_owned(),
            path: parts.uri.path().to_owned(),
            target: parts
                .uri
                .path_and_query()
                .map_or_else(|| "/".to_owned(), |pq| pq.as_str().to_owned()),
            session_id: headers::text(&parts.headers, "mcp-session-id"),
            protocol_version: headers::text(&parts.headers, "mcp-protocol-version"),
            last_event_id: headers::text(&parts.headers, "last-event-id"),
            content_type: headers::text(&parts.headers, "content-type"),
            headers: headers::shown(&parts.headers),
        }
    }
}

/// A response as the checking side keeps it.
pub(super) struct ResponseSeen {
    exchange: u64,
    status: u16,
    session_id: Option<String>,
    content_type: Option<String>,
    headers: Map<String, Value>,
}

impl ResponseSeen {
    pub(super) fn of(exchange: u64, parts: &response::Parts) -> Self {
        Self {
            exchange,
            status: parts.status.as_u16(),
            session_id: headers::text(&parts.headers, "mcp-session-id"),
            content_type: headers::text(&parts.headers, "content-type"),
            headers: headers::shown(&parts.headers),
        }
    }
}

/// A body's bytes, held up to the byte limit.
#[derive(Debug, Default)]
struct Assembler {
    bytes: Vec<u8>,
    total: usize,
    skipped: usize,
}

/// A whole body.
enum Assembled {
    Whole(Vec<u8>),
    TooLarge {
        bytes: usize,
        prefix: Vec<u8>,
    },
    /// Part of it was relayed but not checked: `bytes` in all.
    NotChecked {
        bytes: usize,
    },
}

impl Assembler {
    fn push(&mut self, bytes: &[u8], skipped: usize, max: usize) {
        self.skipped += skipped;
        self.total += skipped + bytes.len();
        if self.skipped > 0 {
            return;
        }
        let room = if self.total <= max {
            bytes.len()
        } else {
            PREFIX.saturating_sub(self.bytes.len())
        };
        self.bytes
            .extend_from_slice(&bytes[..room.min(bytes.len())]);
        if self.total > max {
            self.bytes.truncate(PREFIX);
            self.bytes.shrink_to(PREFIX);
        }
    }

    fn finish(self, skipped: usize, max: usize) -> Assembled {
        let total = self.total + skipped;
        if self.skipped + skipped > 0 {
            Assembled::NotChecked { bytes: total }
        } else if total > max {
            Assembled::TooLarge {
                bytes: total,
                prefix: self.bytes,
            }
        } else {
            Assembled::Whole(self.bytes)
        }
    }
}

/// How a response body is read.
enum Reading {
    /// Not a message (or not read yet).
    Ignored,
    /// One JSON document.
    Json(Assembler),
    /// Server-sent events.
    Events(Box<sse::Parser>),
}

/// One request and its response.
struct Exchange {
    method: String,
    path: String,
    request_headers: Map<String, Value>,
    /// The session, once known.
    session: Option<u64>,
    /// Client messages complete before the session was known (held for the response).
    held: Vec<Assembled>,
    request: Option<Assembler>,
    request_json: bool,
    response: Reading,
    /// Ids (as JSON) of the requests in the body, for a stream that ends without their response.
    asked: Vec<String>,
    /// Ids (as JSON) of the responses the response stream carried.
    answered: HashSet<String>,
    /// Events relayed again after a `Last-Event-ID` and not checked.
    replayed: usize,
    /// Events replayed from another stream (checked again).
    foreign: usize,
    /// The stream its response is: its own number, or the stream a `Last-Event-ID` resumes.
    stream: u64,
    /// The `Last-Event-ID` it sent.
    last_event_id: Option<String>,
    /// Why it ends its session once complete (`DELETE` answered 2xx; an HTTP+SSE stream).
    closes: Option<&'static str>,
    /// Messages the response carried.
    messages: usize,
    /// Whether the response is a stream of server-sent events.
    streamed: bool,
    /// Whether the response is read for messages (JSON, or server-sent events).
    reads_messages: bool,
    /// Whether the client went away before the response started.
    abandoned: bool,
}

/// One session.
struct SessionState {
    monitor: Monitor,
    transport: &'static str,
    /// When it was last used (for forgetting the one idle longest).
    used: u64,
    /// The stream each server-sent event id was first seen on, and the ids oldest first.
    event_streams: HashMap<String, u64>,
    event_order: VecDeque<String>,
    /// Ids (as JSON) of the client's requests it cancelled (`notifications/cancelled`), and
    /// the same oldest first (at most [`MAX_EVENT_IDS`]).
    cancelled: HashSet<String>,
    cancelled_order: VecDeque<String>,
    mcp_id: Option<String>,
    endpoint: Option<String>,
}

const STREAMABLE: &str = "Streamable HTTP";
const SSE: &str = "HTTP+SSE";

/// Counts of what the HTTP side saw, in the summary (`"http"`).
#[derive(Debug, Default, Clone, serde::Serialize)]
pub(super) struct HttpStats {
    /// Sessions opened.
    pub(super) sessions: usize,
    /// Requests relayed (or refused).
    pub(super) requests: usize,
    /// Requests refused (`Host`, `Origin`).
    pub(super) refused: usize,
    /// Requests the upstream gave no response to (502, 504).
    pub(super) upstream_failures: usize,
    /// Responses the client went away from before their end.
    pub(super) client_disconnects: usize,
    /// Responses whose upstream stream broke off.
    pub(super) broken_streams: usize,
    /// Requests whose response stream ended without their response.
    pub(super) unanswered: usize,
    /// Server-sent events relayed again on a resumed stream, not checked again.
    pub(super) replayed_events: usize,
    /// Server-sent events replayed from another stream (checked again).
    pub(super) foreign_replays: usize,
}

impl std::fmt::Display for HttpStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} session{}, {} HTTP request{}: {} refused, {} upstream failure{}, {} client \
             disconnect{}, {} broken stream{}, {} unanswered",
            self.sessions,
            plural(self.sessions),
            self.requests,
            plural(self.requests),
            self.refused,
            self.upstream_failures,
            plural(self.upstream_failures),
            self.client_disconnects,
            plural(self.client_disconnects),
            self.broken_streams,
            plural(self.broken_streams),
            self.unanswered,
        )?;
        if self.replayed_events > 0 {
            write!(
                f,
                "; {} replayed events not checked again",
                self.replayed_events
            )?;
        }
        if self.foreign_replays > 0 {
            write!(
                f,
                "; {} events replayed from another stream",
                self.foreign_replays
            )?;
        }
        Ok(())
    }
}

const fn plural(count: usize) -> &'static str {
    if count == 1 {
        ""
    } else {
        "s"
    }
}

/// The checking thread's state.
pub(super) struct Checking {
    base: Monitor,
    transcript: Option<SharedWriter>,
    reporter: Reporter,
    /// Whether the report is JSON (records only JSON has, such as each exchange's headers).
    json: bool,
    reported: io::Result<()>,
    transport: Transport,
    max_bytes: usize,
    /// The last transcript line written.
    line: usize,
    sessions: HashMap<u64, SessionState>,
    by_mcp_id: HashMap<String, u64>,
    by_endpoint: HashMap<String, u64>,
    sessionless: Option<u64>,
    next_session: u64,
    exchanges: HashMap<u64, Exchange>,
    /// The tally of the sessions closed so far.
    totals: TapSummary,
    /// The protocol last recognized, in any session.
    protocol: Option<Protocol>,
    stats: HttpStats,
    tick: u64,
    /// The tap is stopping (streams it closes are no client's disconnect).
    stopping: bool,
}

/// What the checking thread ends with.
pub(super) struct Outcome {
    pub(super) summary: TapSummary,
    pub(super) stats: HttpStats,
    pub(super) reporter: Reporter,
    pub(super) reported: io::Result<()>,
}

/// One transcript file written by every session's monitor.
#[derive(Clone)]
pub(super) struct SharedWriter(Arc<Mutex<Box<dyn Write + Send>>>);

impl SharedWriter {
    pub(super) fn new(out: Box<dyn Write + Send>) -> Self {
        Self(Arc::new(Mutex::new(out)))
    }
}

impl Write for SharedWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .flush()
    }
}

fn essence(content_type: Option<&str>) -> String {
    content_type
        .unwrap_or_default()
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

fn is_json(content_type: Option<&str>) -> bool {
    let essence = essence(content_type);
    essence == "application/json" || essence.ends_with("+json")
}

fn is_event_stream(content_type: Option<&str>) -> bool {
    essence(content_type) == "text/event-stream"
}

/// Whether `value` is JSON-RPC: an object with `jsonrpc` or `method`, or an array whose first
/// element is one.
fn is_json_rpc(value: &Value) -> bool {
    let object = match value {
        Value::Array(elements) => elements.first().and_then(Value::as_object),
        other => other.as_object(),
    };
    object.is_some_and(|object| object.contains_key("jsonrpc") || object.contains_key("method"))
}

/// The request ids (as JSON) a message mentions.
#[derive(Debug, Default, PartialEq, Eq)]
struct Ids {
    /// Of its requests.
    asked: Vec<String>,
    /// Of its responses.
    answered: Vec<String>,
    /// Of the requests its `notifications/cancelled` cancel.
    cancelled: Vec<String>,
}

fn ids(value: &Value) -> Ids {
    let mut ids = Ids::default();
    let elements: Vec<&Value> = match value {
        Value::Array(elements) => elements.iter().collect(),
        other => vec![other],
    };
    for element in elements {
        let method = element.get("method").and_then(Value::as_str);
        match element.get("id") {
            Some(id) if method.is_some() => ids.asked.push(id.to_string()),
            Some(id) if element.get("result").is_some() || element.get("error").is_some() => {
                ids.answered.push(id.to_string());
            }
            _ => {}
        }
        if method == Some("notifications/cancelled") {
            if let Some(id) = element.pointer("/params/requestId") {
                ids.cancelled.push(id.to_string());
            }
        }
    }
    ids
}

/// Adds a closed session's tally to the totals.
fn add(totals: &mut TapSummary, summary: &TapSummary) {
    totals.messages += summary.messages;
    totals.from_client += summary.from_client;
    totals.from_child += summary.from_child;
    totals.ok += summary.ok;
    totals.lenient += summary.lenient;
    totals.unchecked += summary.unchecked;
    totals.invalid += summary.invalid;
    totals.over_limit += summary.over_limit;
    totals.lifecycle += summary.lifecycle;
    totals.not_checked_bytes += summary.not_checked_bytes;
}

/// Where a `POST` goes after an `endpoint` event with `data`, sent on the stream of `GET path`:
/// its path and query, and whether the event named another origin.
fn endpoint_target(data: &str, path: &str) -> (String, bool) {
    for scheme in ["http://", "https://"] {
        if let Some(rest) = data.strip_prefix(scheme) {
            let target = rest.find('/').map_or("/", |slash| &rest[slash..]);
            return (target.to_owned(), true);
        }
    }
    if data.starts_with('/') {
        return (data.to_owned(), false);
    }
    let directory = path.rfind('/').map_or("/", |slash| &path[..=slash]);
    (format!("{directory}{data}"), false)
}

impl Checking {
    pub(super) fn new(
        base: Monitor,
        transcript: Option<Box<dyn Write + Send>>,
        reporter: Reporter,
        json: bool,
        transport: Transport,
        max_bytes: usize,
    ) -> Self {
        Self {
            base,
            transcript: transcript.map(SharedWriter::new),
            reporter,
            json,
            reported: Ok(()),
            transport,
            max_bytes,
            line: 0,
            sessions: HashMap::new(),
            by_mcp_id: HashMap::new(),
            by_endpoint: HashMap::new(),
            sessionless: None,
            next_session: 1,
            exchanges: HashMap::new(),
            totals: TapSummary::default(),
            protocol: None,
            stats: HttpStats::default(),
            tick: 0,
            stopping: false,
        }
    }

    /// Takes traffic from `queue` until [`Traffic::Finish`], then closes every session.
    pub(super) fn run(mut self, queue: &Backlog<Traffic>) -> Outcome {
        loop {
            match queue.take() {
                Traffic::Request(seen) => self.request(*seen),
                Traffic::Refused(refused) => {
                    let (seen, reason) = *refused;
                    self.refused(&seen, &reason);
                }
                Traffic::Response(seen) => self.response(*seen),
                Traffic::Chunk {
                    exchange,
                    side,
                    bytes,
                    skipped,
                } => self.chunk(exchange, side, &bytes, skipped),
                Traffic::End {
                    exchange,
                    side,
                    skipped,
                    how,
                } => self.end(exchange, side, skipped, &how),
                Traffic::Failed { exchange, failure } => self.failed(exchange, &failure),
                Traffic::Abandoned { exchange } => self.abandoned(exchange),
                Traffic::Stopping => self.stopping = true,
                Traffic::Finish => break,
            }
        }
        let mut open: Vec<u64> = self.sessions.keys().copied().collect();
        open.sort_unstable();
        for number in open {
            self.close(number, None);
        }
        let mut summary = self.totals;
        summary.protocol = self.protocol;
        Outcome {
            summary,
            stats: self.stats,
            reporter: self.reporter,
            reported: self.reported,
        }
    }

    /// Reports a finding (text and JSON).
    fn finding(&mut self, text: &str, json: &Value) {
        if self.reported.is_ok() {
            self.reported = self.reporter.finding(text, json);
        }
    }

    /// Reports a record that only the JSON report has.
    fn record(&mut self, json: &Value) {
        if self.json && self.reported.is_ok() {
            self.reported = self.reporter.finding("", json);
        }
    }

    fn report(&mut self, number: u64, events: &[Event]) {
        let session = json!(number);
        for event in events {
            if let Event::Session { protocol, .. } = event {
                self.protocol = Some(protocol.clone());
            }
            if self.reported.is_ok() {
                self.reported = self.reporter.session_event(&session, event);
            }
        }
    }

    fn request(&mut self, seen: RequestSeen) {
        self.stats.requests += 1;
        let mut session = None;
        if self.transport != Transport::StreamableHttp && seen.method == "POST" {
            session = self.by_endpoint.get(&seen.target).copied();
        }
        if session.is_none() && self.transport != Transport::Sse {
            if let Some(id) = &seen.session_id {
                session = Some(match self.by_mcp_id.get(id) {
                    Some(&number) => number,
                    None => self.open_streamable(id),
                });
            }
        }
        if self.transport == Transport::Sse && seen.method == "POST" && session.is_none() {
            let text = format!(
                "POST {}: not to an endpoint an SSE stream announced (--transport sse)",
                seen.path
            );
            let json = json!({"event": "unknown-endpoint", "exchange": seen.exchange,
                              "method": seen.method, "path": seen.path});
            self.finding(&text, &json);
        }
        if let Some(number) = session {
            self.touch(number);
            self.check_version_header(number, &seen);
            if seen.last_event_id.is_some() {
                let text = format!(
                    "session {number}: {} {} resumes a stream (Last-Event-ID): events the \
                     session saw on it already are relayed and not checked again",
                    seen.method, seen.path
                );
                let json = json!({"event": "resumed", "session": number,
                                  "exchange": seen.exchange, "method": seen.method,
                                  "path": seen.path});
                self.finding(&text, &json);
            }
        }
        let exchange = Exchange {
            request: (seen.method == "POST").then(Assembler::default),
            request_json: is_json(seen.content_type.as_deref()),
            method: seen.method,
            path: seen.path,
            request_headers: seen.headers,
            session,
            held: Vec::new(),
            response: Reading::Ignored,
            asked: Vec::new(),
            answered: HashSet::new(),
            replayed: 0,
            foreign: 0,
            stream: seen.exchange,
            last_event_id: seen.last_event_id,
            closes: None,
            messages: 0,
            streamed: false,
            reads_messages: false,
            abandoned: false,
        };
        self.exchanges.insert(seen.exchange, exchange);
    }

    /// From MCP 2025-06-18 on, every request after initialization carries the negotiated
    /// version in `MCP-Protocol-Version` (Streamable HTTP).
    fn check_version_header(&mut self, number: u64, seen: &RequestSeen) {
        let Some(state) = self.sessions.get(&number) else {
            return;
        };
        let Some(Protocol::Mcp { version }) = state.monitor.summary().protocol.clone() else {
            return;
        };
        if state.transport != STREAMABLE || version.as_str() < "2025-06-18" {
            return;
        }
        let problem = match &seen.protocol_version {
            Some(sent) if *sent == version => return,
            Some(sent) => format!("`MCP-Protocol-Version: {sent}`, not the negotiated `{version}`"),
            None => {
                format!("no `MCP-Protocol-Version` header (the negotiated version is `{version}`)")
            }
        };
        let text = format!("session {number}: {} {}: {problem}", seen.method, seen.path);
        let json = json!({"event": "protocol-version-header", "session": number,
                          "exchange": seen.exchange, "method": seen.method, "path": seen.path,
                          "header": seen.protocol_version, "negotiated": version,
                          "message": problem});
        self.finding(&text, &json);
    }

    fn touch(&mut self, number: u64) {
        self.tick += 1;
        if let Some(state) = self.sessions.get_mut(&number) {
            state.used = self.tick;
        }
    }

    /// A new session, forgetting the one idle longest when [`MAX_SESSIONS`] are open.
    fn open_session(&mut self, transport: &'static str) -> u64 {
        if self.sessions.len() >= MAX_SESSIONS {
            let busy: HashSet<u64> = self.exchanges.values().filter_map(|e| e.session).collect();
            let idle = self
                .sessions
                .iter()
                .filter(|(number, _)| !busy.contains(number))
                .min_by_key(|(_, state)| state.used)
                .map(|(number, _)| *number);
            if let Some(idle) = idle {
                self.close(
                    idle,
                    Some("forgotten: more sessions are open than the tap follows (1024); this one was idle longest"),
                );
            }
        }
        let number = self.next_session;
        self.next_session += 1;
        self.stats.sessions += 1;
        let mut monitor = self.base.another().named(&json!(number));
        if let Some(transcript) = &self.transcript {
            monitor = monitor.with_transcript(Box::new(transcript.clone()));
        }
        self.tick += 1;
        self.sessions.insert(
            number,
            SessionState {
                monitor,
                transport,
                used: self.tick,
                event_streams: HashMap::new(),
                event_order: VecDeque::new(),
                cancelled: HashSet::new(),
                cancelled_order: VecDeque::new(),
                mcp_id: None,
                endpoint: None,
            },
        );
        number
    }

    fn open_streamable(&mut self, id: &str) -> u64 {
        let number = self.open_session(STREAMABLE);
        self.by_mcp_id.insert(id.to_owned(), number);
        if let Some(state) = self.sessions.get_mut(&number) {
            state.mcp_id = Some(id.to_owned());
        }
        let text = format!("session {number}: opened ({STREAMABLE}, Mcp-Session-Id `{id}`)");
        let json = json!({"event": "session-opened", "session": number,
                          "transport": "streamable-http", "mcp_session_id": id});
        self.finding(&text, &json);
        number
    }

    /// The session of Streamable HTTP traffic without `Mcp-Session-Id` (a server that names no
    /// session).
    fn sessionless(&mut self) -> u64 {
        if let Some(number) = self.sessionless.filter(|n| self.sessions.contains_key(n)) {
            return number;
        }
        let number = self.open_session(STREAMABLE);
        self.sessionless = Some(number);
        let text = format!(
            "session {number}: opened ({STREAMABLE} without Mcp-Session-Id: every request \
             without one)"
        );
        let json = json!({"event": "session-opened", "session": number,
                          "transport": "streamable-http", "mcp_session_id": null});
        self.finding(&text, &json);
        number
    }

    fn close(&mut self, number: u64, why: Option<&str>) {
        let Some(state) = self.sessions.remove(&number) else {
            return;
        };
        if let Some(id) = &state.mcp_id {
            self.by_mcp_id.remove(id);
        }
        if let Some(endpoint) = &state.endpoint {
            self.by_endpoint.remove(endpoint);
        }
        if self.sessionless == Some(number) {
            self.sessionless = None;
        }
        let summary = state.monitor.summary();
        add(&mut self.totals, summary);
        if let Some(why) = why {
            let text = format!(
                "session {number}: closed ({why}): {} message{}",
                summary.messages,
                plural(summary.messages)
            );
            let json = json!({"event": "session-closed", "session": number, "why": why,
                              "messages": summary.messages});
            self.finding(&text, &json);
        }
    }

    fn refused(&mut self, seen: &RequestSeen, reason: &str) {
        self.stats.requests += 1;
        self.stats.refused += 1;
        let text = format!(
            "{} {}: refused with 403 Forbidden: {reason}",
            seen.method, seen.path
        );
        let json = json!({"event": "refused", "exchange": seen.exchange, "method": seen.method,
                          "path": seen.path, "status": 403, "message": reason,
                          "request_headers": seen.headers});
        self.finding(&text, &json);
    }

    fn response(&mut self, seen: ResponseSeen) {
        let Some(mut exchange) = self.exchanges.remove(&seen.exchange) else {
            return;
        };
        let event_stream = is_event_stream(seen.content_type.as_deref());
        if exchange.session.is_none() {
            let success = (200..300).contains(&seen.status);
            let number = match &seen.session_id {
                Some(id) if self.transport != Transport::Sse => match self.by_mcp_id.get(id) {
                    Some(&number) => number,
                    None => self.open_streamable(id),
                },
                _ if exchange.method == "GET"
                    && event_stream
                    && success
                    && self.transport != Transport::StreamableHttp =>
                {
                    exchange.closes = Some("its SSE stream ended");
                    self.open_session(SSE)
                }
                _ => self.sessionless(),
            };
            exchange.session = Some(number);
            for held in std::mem::take(&mut exchange.held) {
                self.feed(number, Side::Client, held, &mut exchange, true);
            }
        }
        exchange.streamed = event_stream;
        if let (Some(last), Some(number)) = (&exchange.last_event_id, exchange.session) {
            if let Some(stream) = self
                .sessions
                .get(&number)
                .and_then(|state| state.event_streams.get(last))
            {
                exchange.stream = *stream;
            }
        }
        exchange.response = if event_stream {
            Reading::Events(Box::new(sse::Parser::new(self.max_bytes)))
        } else if is_json(seen.content_type.as_deref()) {
            Reading::Json(Assembler::default())
        } else {
            Reading::Ignored
        };
        exchange.reads_messages = !matches!(exchange.response, Reading::Ignored);
        if exchange.method == "DELETE" && (200..300).contains(&seen.status) {
            exchange.closes = Some("DELETE");
        }
        let record = json!({"event": "http", "exchange": seen.exchange,
                            "session": exchange.session, "method": exchange.method,
                            "path": exchange.path, "status": seen.status,
                            "request_headers": exchange.request_headers,
                            "response_headers": seen.headers});
        self.record(&record);
        exchange.request_headers = Map::new();
        self.exchanges.insert(seen.exchange, exchange);
    }

    fn chunk(&mut self, id: u64, side: Side, bytes: &[u8], skipped: usize) {
        let Some(mut exchange) = self.exchanges.remove(&id) else {
            return;
        };
        match side {
            Side::Client => {
                if let Some(request) = &mut exchange.request {
                    request.push(bytes, skipped, self.max_bytes);
                }
            }
            Side::Child => {
                let mut events = Vec::new();
                match &mut exchange.response {
                    Reading::Json(body) => body.push(bytes, skipped, self.max_bytes),
                    Reading::Events(parser) => {
                        if skipped > 0 {
                            **parser = sse::Parser::new(self.max_bytes);
                        }
                        parser.push(bytes, &mut |event| events.push(event));
                    }
                    Reading::Ignored => {}
                }
                if skipped > 0 {
                    if let (Some(number), Reading::Events(_)) =
                        (exchange.session, &exchange.response)
                    {
                        self.feed(
                            number,
                            Side::Child,
                            Assembled::NotChecked { bytes: skipped },
                            &mut exchange,
                            true,
                        );
                    }
                }
                for event in events {
                    self.event(&mut exchange, id, event);
                }
            }
        }
        self.exchanges.insert(id, exchange);
    }

    /// One server-sent event of exchange `id`.
    fn event(&mut self, exchange: &mut Exchange, id: u64, event: sse::Event) {
        let Some(number) = exchange.session else {
            return;
        };
        let announces = self
            .sessions
            .get(&number)
            .is_some_and(|state| state.transport == SSE);
        match event.name.as_deref() {
            // Only an HTTP+SSE stream announces where its messages go (with `--transport
            // streamable-http`, such a stream is not one: its `endpoint` event is no message).
            Some("endpoint") if !announces => {}
            Some("endpoint") => {
                let sse::Data::Whole(data) = event.data else {
                    return;
                };
                let data = String::from_utf8_lossy(&data).into_owned();
                let (target, absolute) = endpoint_target(data.trim(), &exchange.path);
                let path = target.split('?').next().unwrap_or_default().to_owned();
                if let Some(state) = self.sessions.get_mut(&number) {
                    if let Some(old) = state.endpoint.replace(target.clone()) {
                        self.by_endpoint.remove(&old);
                    }
                }
                self.by_endpoint.insert(target, number);
                let mut text = format!(
                    "session {number}: opened ({SSE}, GET {}; messages to POST {path})",
                    exchange.path
                );
                if absolute {
                    text.push_str(
                        "; the endpoint is an absolute URL: a client that follows it as given \
                         bypasses the tap",
                    );
                }
                let json = json!({"event": "session-opened", "session": number,
                                  "transport": "sse", "exchange": id, "path": exchange.path,
                                  "endpoint": path, "absolute": absolute});
                self.finding(&text, &json);
            }
            None | Some("message") => {
                if let Some(event_id) = event.id {
                    if let Some(state) = self.sessions.get_mut(&number) {
                        match state.event_streams.get(&event_id) {
                            Some(stream) if *stream == exchange.stream => {
                                exchange.replayed += 1;
                                self.stats.replayed_events += 1;
                                return;
                            }
                            Some(_) => {
                                exchange.foreign += 1;
                                self.stats.foreign_replays += 1;
                            }
                            None => {
                                state
                                    .event_streams
                                    .insert(event_id.clone(), exchange.stream);
                                state.event_order.push_back(event_id);
                                if state.event_order.len() > MAX_EVENT_IDS {
                                    if let Some(oldest) = state.event_order.pop_front() {
                                        state.event_streams.remove(&oldest);
                                    }
                                }
                            }
                        }
                    }
                }
                let assembled = match event.data {
                    sse::Data::Whole(data) => Assembled::Whole(data),
                    sse::Data::TooLarge { bytes, prefix } => Assembled::TooLarge { bytes, prefix },
                };
                self.feed(number, Side::Child, assembled, exchange, true);
            }
            Some(_) => {}
        }
    }

    /// Gives one body or event to session `number`'s monitor when it is a message.
    fn feed(
        &mut self,
        number: u64,
        side: Side,
        assembled: Assembled,
        exchange: &mut Exchange,
        content_json: bool,
    ) {
        match &assembled {
            Assembled::Whole(bytes) => match serde_json::from_slice::<Value>(bytes) {
                Ok(value) => {
                    if !is_json_rpc(&value) {
                        return;
                    }
                    let ids = ids(&value);
                    // Only a `POST`'s own stream owes answers (a long `GET` stream would
                    // otherwise collect every id it carries).
                    let post = exchange.method == "POST";
                    match side {
                        Side::Client => {
                            if post {
                                exchange.asked.extend(ids.asked);
                            }
                            if let Some(state) = self.sessions.get_mut(&number) {
                                for id in ids.cancelled {
                                    if state.cancelled.insert(id.clone()) {
                                        state.cancelled_order.push_back(id);
                                    }
                                    if state.cancelled_order.len() > MAX_EVENT_IDS {
                                        if let Some(oldest) = state.cancelled_order.pop_front() {
                                            state.cancelled.remove(&oldest);
                                        }
                                    }
                                }
                            }
                        }
                        Side::Child if post => exchange.answered.extend(ids.answered),
                        Side::Child => {}
                    }
                }
                Err(_) if !content_json || bytes.trim_ascii().is_empty() => return,
                Err(_) => {}
            },
            Assembled::TooLarge { .. } | Assembled::NotChecked { .. } if !content_json => return,
            Assembled::TooLarge { .. } | Assembled::NotChecked { .. } => {}
        }
        self.touch(number);
        let Some(state) = self.sessions.get_mut(&number) else {
            return;
        };
        state.monitor.at_line(self.line + 1);
        let events = match assembled {
            Assembled::Whole(bytes) => state.monitor.feed_message(side, &bytes),
            Assembled::TooLarge { bytes, prefix } => state.monitor.too_large(side, bytes, &prefix),
            Assembled::NotChecked { bytes } => state.monitor.not_checked(side, bytes),
        };
        self.line = state.monitor.line();
        if side == Side::Child {
            exchange.messages += 1;
        }
        self.report(number, &events);
    }

    fn end(&mut self, id: u64, side: Side, skipped: usize, how: &BodyEnd) {
        let Some(mut exchange) = self.exchanges.remove(&id) else {
            return;
        };
        match side {
            Side::Client => {
                let request = exchange.request.take();
                if let Some(request) = request {
                    let incomplete = *how != BodyEnd::Complete && request.total > 0;
                    let assembled = request.finish(skipped, self.max_bytes);
                    if incomplete {
                        let why = match how {
                            BodyEnd::Broken(error) => {
                                format!("the client's upload broke off ({error})")
                            }
                            _ => "it was not read to its end".to_owned(),
                        };
                        let text = format!(
                            "{} {}: the request body was not relayed whole ({why}); it is not checked",
                            exchange.method, exchange.path
                        );
                        let json = json!({"event": "request-incomplete", "exchange": id,
                                          "session": exchange.session, "method": exchange.method,
                                          "path": exchange.path, "message": why});
                        self.finding(&text, &json);
                    } else {
                        let content_json = exchange.request_json;
                        match exchange.session {
                            Some(number) => {
                                self.feed(
                                    number,
                                    Side::Client,
                                    assembled,
                                    &mut exchange,
                                    content_json,
                                );
                            }
                            None if content_json
                                || !matches!(assembled, Assembled::Whole(ref b) if b.is_empty()) =>
                            {
                                exchange.held.push(assembled);
                            }
                            None => {}
                        }
                    }
                }
                if exchange.abandoned {
                    self.settle_abandoned(id, exchange);
                } else {
                    self.exchanges.insert(id, exchange);
                }
            }
            Side::Child => {
                let number = exchange.session;
                if let Reading::Json(body) =
                    std::mem::replace(&mut exchange.response, Reading::Ignored)
                {
                    if let Some(number) = number {
                        if *how == BodyEnd::Complete {
                            let assembled = body.finish(skipped, self.max_bytes);
                            self.feed(number, Side::Child, assembled, &mut exchange, true);
                        }
                    }
                }
                self.ended(id, &mut exchange, how);
                // The exchange is over; a request body still arriving has nobody to answer it.
            }
        }
    }

    /// The response of exchange `id` ended.
    fn ended(&mut self, id: u64, exchange: &mut Exchange, how: &BodyEnd) {
        let session = exchange
            .session
            .map(|number| format!("session {number}: "))
            .unwrap_or_default();
        let what = format!("{} {}", exchange.method, exchange.path);
        match how {
            BodyEnd::Complete => {}
            BodyEnd::Broken(error) => {
                self.stats.broken_streams += 1;
                let text = format!(
                    "{session}the upstream's response to {what} broke off ({error}) after {} \
                     message{}",
                    exchange.messages,
                    plural(exchange.messages)
                );
                let json = json!({"event": "upstream-broke-off", "exchange": id,
                                  "session": exchange.session, "method": exchange.method,
                                  "path": exchange.path, "messages": exchange.messages,
                                  "message": error});
                self.finding(&text, &json);
            }
            // The tap closed it; or a body that holds no message (a `202 Accepted` text).
            BodyEnd::Abandoned if self.stopping || !exchange.reads_messages => {}
            // The client closing its HTTP+SSE stream is how such a session ends.
            BodyEnd::Abandoned if exchange.closes.is_some() => {
                exchange.closes = Some("the client closed its SSE stream");
            }
            BodyEnd::Abandoned => {
                self.stats.client_disconnects += 1;
                let text = format!(
                    "{session}the client went away before the end of the response to {what} \
                     ({} message{} relayed)",
                    exchange.messages,
                    plural(exchange.messages)
                );
                let json = json!({"event": "client-disconnected", "exchange": id,
                                  "session": exchange.session, "method": exchange.method,
                                  "path": exchange.path, "messages": exchange.messages});
                self.finding(&text, &json);
            }
        }
        if *how != BodyEnd::Abandoned {
            // A session closed already (`DELETE`) leaves its streams nothing to answer.
            let cancelled = exchange
                .session
                .and_then(|number| self.sessions.get(&number))
                .map(|state| &state.cancelled);
            let mut unanswered: Vec<String> = exchange
                .asked
                .iter()
                .filter(|asked| !exchange.answered.contains(*asked))
                .filter(|asked| !cancelled.is_some_and(|cancelled| cancelled.contains(*asked)))
                .cloned()
                .collect();
            unanswered.dedup();
            if cancelled.is_some()
                && exchange.streamed
                && exchange.method == "POST"
                && !unanswered.is_empty()
            {
                self.stats.unanswered += unanswered.len();
                let ids = unanswered.join(", ");
                let text = format!(
                    "{session}the stream answering {what} ended without the response to request \
                     {ids} (the client may resume it with Last-Event-ID)"
                );
                let json = json!({"event": "stream-ended-unanswered", "exchange": id,
                                  "session": exchange.session, "method": exchange.method,
                                  "path": exchange.path, "ids": unanswered});
                self.finding(&text, &json);
            }
        }
        if exchange.foreign > 0 {
            let text = format!(
                "{session}{what}: {} event{} delivered before on another stream replayed on this \
                 one (a server MUST NOT replay messages of a different stream); checked again as \
                 the client receives them again",
                exchange.foreign,
                plural(exchange.foreign)
            );
            let json = json!({"event": "foreign-replay", "exchange": id,
                              "session": exchange.session, "events": exchange.foreign});
            self.finding(&text, &json);
        }
        if exchange.replayed > 0 {
            let text = format!(
                "{session}{what}: {} event{} relayed again (resumed stream), not checked again",
                exchange.replayed,
                plural(exchange.replayed)
            );
            let json = json!({"event": "replayed", "exchange": id, "session": exchange.session,
                              "events": exchange.replayed});
            self.finding(&text, &json);
        }
        if let (Some(why), Some(number)) = (exchange.closes, exchange.session) {
            self.close(number, Some(why));
        }
    }

    /// The client of exchange `id` went away before the upstream's response started: what it
    /// sent is checked (in the session it named, else the session of traffic without one).
    fn abandoned(&mut self, id: u64) {
        let Some(mut exchange) = self.exchanges.remove(&id) else {
            return;
        };
        exchange.abandoned = true;
        if exchange.request.is_some() {
            // Its body is still on its way to the upstream: checked when it ends.
            self.exchanges.insert(id, exchange);
            return;
        }
        self.settle_abandoned(id, exchange);
    }

    /// An abandoned exchange whose request body ended: its messages checked, its end reported.
    fn settle_abandoned(&mut self, id: u64, mut exchange: Exchange) {
        if !exchange.held.is_empty() {
            let number = match exchange.session {
                Some(number) => number,
                None => self.sessionless(),
            };
            for held in std::mem::take(&mut exchange.held) {
                self.feed(number, Side::Client, held, &mut exchange, true);
            }
        }
        if self.stopping {
            return;
        }
        self.stats.client_disconnects += 1;
        let session = exchange
            .session
            .map(|number| format!("session {number}: "))
            .unwrap_or_default();
        let text = format!(
            "{session}the client went away before the upstream answered {} {}",
            exchange.method, exchange.path
        );
        let json = json!({"event": "client-disconnected", "exchange": id,
                          "session": exchange.session, "method": exchange.method,
                          "path": exchange.path, "messages": 0, "before_response": true});
        self.finding(&text, &json);
    }

    fn failed(&mut self, id: u64, failure: &Failure) {
        self.stats.upstream_failures += 1;
        let Some(mut exchange) = self.exchanges.remove(&id) else {
            return;
        };
        let number = match exchange.session {
            Some(number) => number,
            None if exchange.held.is_empty() => 0,
            None => self.sessionless(),
        };
        for held in std::mem::take(&mut exchange.held) {
            self.feed(number, Side::Client, held, &mut exchange, true);
        }
        let session = exchange
            .session
            .map(|number| format!("session {number}: "))
            .unwrap_or_default();
        let status = failure.status();
        let text = format!(
            "{session}{} {}: the upstream {}: the client got {status}",
            exchange.method,
            exchange.path,
            failure.describe()
        );
        let json = json!({"event": "upstream-failed", "exchange": id,
                          "session": exchange.session, "method": exchange.method,
                          "path": exchange.path, "status": status.as_u16(),
                          "message": failure.describe()});
        self.finding(&text, &json);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_is_held_up_to_the_limit_then_only_its_start() {
        let mut body = Assembler::default();
        body.push(b"{\"a\":", 0, 8);
        body.push(b"1}", 0, 8);
        assert!(matches!(body.finish(0, 8), Assembled::Whole(bytes) if bytes == b"{\"a\":1}"));
        let mut big = Assembler::default();
        for _ in 0..64 {
            big.push(&[b'x'; 64 * 1024], 0, 1000);
            assert!(big.bytes.capacity() <= 64 * 1024 + PREFIX);
            assert!(big.bytes.len() <= PREFIX);
        }
        assert!(
            matches!(big.finish(0, 1000), Assembled::TooLarge { bytes, prefix }
            if bytes == 64 * 64 * 1024 && prefix.len() == PREFIX)
        );
        let mut gap = Assembler::default();
        gap.push(b"{", 0, 8);
        gap.push(b"}", 5, 8);
        assert!(matches!(
            gap.finish(0, 8),
            Assembled::NotChecked { bytes: 7 }
        ));
    }

    #[test]
    fn messages_are_json_rpc_and_their_ids_are_found() {
        assert!(is_json_rpc(
            &json!({"jsonrpc": "2.0", "id": 1, "result": {}})
        ));
        assert!(is_json_rpc(&json!([{"method": "ping", "id": 1}])));
        assert!(!is_json_rpc(&json!({"issuer": "https://auth.example"})));
        assert!(!is_json_rpc(&json!([])));
        let found = ids(&json!([
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call"},
            {"jsonrpc": "2.0", "id": "a", "result": {}},
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}
        ]));
        assert_eq!(
            found,
            Ids {
                asked: vec!["1".into()],
                answered: vec![r#""a""#.into()],
                cancelled: vec!["1".into()],
            }
        );
        assert!(is_json(Some("application/json; charset=utf-8")));
        assert!(is_json(Some("application/vnd.api+json")));
        assert!(!is_json(Some("text/plain")));
        assert!(is_event_stream(Some("Text/Event-Stream")));
    }

    #[test]
    fn an_endpoint_is_a_path_an_absolute_url_or_relative_to_its_stream() {
        assert_eq!(
            endpoint_target("/message?sessionId=1", "/sse"),
            ("/message?sessionId=1".to_owned(), false)
        );
        assert_eq!(
            endpoint_target("http://127.0.0.1:3001/messages/?session_id=ab", "/sse"),
            ("/messages/?session_id=ab".to_owned(), true)
        );
        assert_eq!(
            endpoint_target("messages?s=1", "/mcp/sse"),
            ("/mcp/messages?s=1".to_owned(), false)
        );
    }
}
