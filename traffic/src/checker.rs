//! [`Checker`]: recognizes a message, validates it against its schema definition, decodes it
//! into the generated type where there is one, and combines both into a [`Verdict`].

use std::sync::OnceLock;

use jsonschema::Validator;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::batch;
use super::input::split_messages;
use super::leaves::{self, is_under, SchemaError};
use super::mcp::{self, McpSchemas};
use super::schema::AcpSchema;
use super::tap_records;
use super::transcript::{self, Line, Side, Transcript};
use super::unique;
use super::verdict::{Kind, Status, Verdict};
use super::TrafficError;
use toolcall_contracts::decode::{decode_with, DecodeError, Leniency, LeniencyKind};
use toolcall_contracts::policy::{DecodeLimits, LimitError};
use toolcall_contracts::{acp, route};

/// ACP definitions tried, in this order, on a message that is neither JSON-RPC nor a route body.
/// The first that accepts the message and declares each of its members names the fragment.
pub const FRAGMENT_DEFINITIONS: &[&str] = &[
    "ContentBlock",
    "ToolCallContent",
    "ToolCall",
    "ToolCallUpdate",
    "ToolCallLocation",
    "SessionUpdate",
    "SessionNotification",
    "AuthMethod",
    "PermissionOption",
    "RequestPermissionOutcome",
    "McpServer",
    "SessionConfigOption",
    "SessionMode",
    "AvailableCommand",
    "Plan",
    "PlanEntry",
    "ClientCapabilities",
    "AgentCapabilities",
    "InitializeRequest",
    "InitializeResponse",
];

/// What decoding into a generated type gave: the leniency report, and the value encoded again
/// (to tell whether a reported value was kept).
struct Decoded {
    report: Vec<Leniency>,
    encoded: Value,
}

/// Decodes into a generated type.
type Decoder = fn(&[u8], &DecodeLimits) -> Result<Decoded, DecodeError>;

fn report_of<T: DeserializeOwned + serde::Serialize>(
    json: &[u8],
    limits: &DecodeLimits,
) -> Result<Decoded, DecodeError> {
    decode_with::<T>(json, limits).map(|decoded| {
        // Encoded again only when an entry may be a kept value (most messages have no report);
        // a value that does not encode cannot show a kept value: nothing is dropped then.
        let kept_value_possible = decoded.report.iter().any(|leniency| {
            matches!(
                leniency.kind,
                LeniencyKind::UnknownValue | LeniencyKind::UnknownVariant
            )
        });
        Decoded {
            encoded: if kept_value_possible {
                serde_json::to_value(&decoded.value).unwrap_or(Value::Null)
            } else {
                Value::Null
            },
            report: decoded.report,
        }
    })
}

/// The generated type a definition decodes into, for the definitions that carry a tool-call
/// contract.
fn decoder(definition: &str) -> Option<Decoder> {
    Some(match definition {
        "SessionNotification" => report_of::<acp::SessionNotification>,
        "RequestPermissionRequest" => report_of::<acp::RequestPermissionRequest>,
        "RequestPermissionResponse" => report_of::<acp::RequestPermissionResponse>,
        "ToolCall" => report_of::<acp::ToolCall>,
        "ToolCallUpdate" => report_of::<acp::ToolCallUpdate>,
        _ => return None,
    })
}

/// A `params` or `result` value to check against its definition.
#[derive(Debug, Clone, Copy)]
pub(super) enum Body<'a> {
    /// Parsed: checked against the schema, and decoded where the definition has a generated
    /// type.
    Parsed(&'a Value),
    /// Decoded into the definition's generated type while the message was parsed, with no
    /// error, no leniency and no repeated member (`fast`): what the schema accepts as it is.
    Decoded,
}

impl<'a> Body<'a> {
    /// The parsed value.
    pub(super) const fn parsed(self) -> Option<&'a Value> {
        match self {
            Self::Parsed(value) => Some(value),
            Self::Decoded => None,
        }
    }
}

/// A verdict with the line its message starts on.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// 1-based line of the message's first byte.
    pub line: usize,
    /// The verdict.
    pub verdict: Verdict,
}

/// Checks messages against the ACP schema, the route schema and the generated types.
///
/// Holds the parsed schemas and one compiled validator per definition, each built on first use
/// and reused after: building one over the large ACP schema costs far more than validating a
/// message with it. Validators are compiled offline as JSON Schema 2020-12: nothing is ever fetched.
///
/// ```
/// use toolcall_traffic::{Checker, Status, Transcript};
///
/// let checker = Checker::new()?;
/// let mut transcript = Transcript::default();
/// let verdict = checker.check(&mut transcript, br#"{"type":"text","text":"hi"}"#);
/// assert_eq!(verdict.status, Status::Ok);
/// assert_eq!(verdict.kind.to_string(), "fragment ContentBlock");
///
/// let verdict = checker.check(&mut transcript, br#"{"name":"fs.read","arguments":{},"call_key":"a b"}"#);
/// assert_eq!(verdict.kind.to_string(), "route body");
/// assert!(matches!(verdict.status, Status::Invalid { ref pointer, .. } if pointer == "/call_key"));
/// # Ok::<(), toolcall_traffic::TrafficError>(())
/// ```
pub struct Checker {
    pub(super) acp: AcpSchema,
    pub(super) mcp: McpSchemas,
    /// The MCP version of a session that did not say which (`--mcp-version`); the newest when
    /// `None`.
    pub(super) mcp_version: Option<&'static str>,
    route: OnceLock<Result<Validator, String>>,
    pub(super) limits: DecodeLimits,
    /// Whether a message the one-pass check decides is checked that way (`fast`); off only to
    /// compare the two.
    pub(super) one_pass: bool,
}

impl std::fmt::Debug for Checker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checker").finish_non_exhaustive()
    }
}

impl Checker {
    /// The checker's default limits: messages of up to 32 MiB (33 554 432 bytes), nested up to
    /// 127 levels. Over a limit a message is not checked ([`Status::OverLimit`]), so the
    /// defaults let through what real peers send and accept:
    /// - 32 MiB is the per-message limit of the official ACP TypeScript SDK
    ///   (`DEFAULT_MAX_MESSAGE_BYTES`), above the official MCP TypeScript SDK's 10 MiB stdio read
    ///   buffer. Real answers are a multiple of what they carry: MCP server-filesystem sends a
    ///   file's text twice (text content and `structuredContent`), 1 370 910 bytes for a 0.6 MB
    ///   file, and an image twice in base64, 961 445 bytes for a 360 KB PNG;
    /// - 127 is the deepest JSON serde_json parses ([`DecodeLimits::SERDE_JSON_MAX_DEPTH`]); a
    ///   36-level tree argument of a fastmcp tool (a recursive pydantic model) nests 75 levels
    ///   deep in its `tools/call`.
    ///
    /// [`DecodeLimits::default`] (1 MiB, 64 levels) stays the library's default for decoding
    /// untrusted input into types.
    pub const DEFAULT_LIMITS: DecodeLimits =
        DecodeLimits::new(32 * 1024 * 1024, DecodeLimits::SERDE_JSON_MAX_DEPTH);

    /// A checker over [`acp::SCHEMA_JSON`] and [`route::SCHEMA_JSON`]. Compiles nothing yet.
    ///
    /// # Errors
    /// [`TrafficError::SchemaJson`] or [`TrafficError::SchemaShape`] when the built-in ACP
    /// schema is not JSON or has no `$defs` (a broken build, never the input's fault).
    pub fn new() -> Result<Self, TrafficError> {
        Ok(Self {
            acp: AcpSchema::new()?,
            mcp: McpSchemas::default(),
            mcp_version: None,
            route: OnceLock::new(),
            limits: Self::DEFAULT_LIMITS,
            one_pass: true,
        })
    }

    /// The same checker taking `version` as the MCP version of a session whose transcript does
    /// not say which (no `initialize` exchange, no `protocolVersion` in a request's `_meta`);
    /// the default is the newest of [`super::MCP_VERSIONS`].
    ///
    /// # Errors
    /// [`TrafficError::UnknownMcpVersion`] when `version` is not one of [`super::MCP_VERSIONS`].
    pub fn with_mcp_version(mut self, version: &str) -> Result<Self, TrafficError> {
        let known = mcp::known(version).ok_or_else(|| TrafficError::UnknownMcpVersion {
            version: version.to_owned(),
        })?;
        self.mcp_version = Some(known);
        Ok(self)
    }

    /// The same checker leaving messages over `limits` unchecked, `over-limit` (each message is
    /// measured before it is parsed; the default is [`Checker::DEFAULT_LIMITS`]).
    #[must_use]
    pub fn with_limits(mut self, limits: DecodeLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The same checker with the one-pass check of well-formed ACP messages on (the default) or
    /// off, every message then parsed into a `Value` and validated with the schema: the same
    /// verdicts, for comparing the two.
    #[doc(hidden)]
    #[must_use]
    pub fn with_one_pass(mut self, on: bool) -> Self {
        self.one_pass = on;
        self
    }

    /// Checks every message of `content` (see [`split_messages`]) with a fresh [`Transcript`];
    /// records naming a session (`{"session": S, "from": ..., "message": ...}`, as the HTTP tap
    /// writes them) with a fresh [`Transcript`] per session, so that the sessions' requests and
    /// responses pair within each.
    #[must_use]
    pub fn check_input(&self, content: &[u8]) -> Vec<Checked> {
        let mut transcript = Transcript::default();
        let mut sessions: std::collections::HashMap<String, Transcript> =
            std::collections::HashMap::new();
        split_messages(content)
            .into_iter()
            .map(|message| {
                let verdict = match tap_records::in_session(message.text) {
                    Some((session, record)) => {
                        let transcript = sessions.entry(session).or_default();
                        transcript.at_line(message.line);
                        self.check(transcript, &record)
                    }
                    None => {
                        transcript.at_line(message.line);
                        self.check(&mut transcript, message.text)
                    }
                };
                Checked {
                    line: message.line,
                    verdict,
                }
            })
            .collect()
    }

    /// Checks one message; `transcript` remembers requests so that their responses can be
    /// checked against the right result definition.
    ///
    /// Recognition: a transcript wrapper `{"from": "client"|"agent"|"server", "message": ...}` is
    /// unwrapped and its message checked as sent by that side (`{"from": ..., "text": ...}`, a
    /// line that was not JSON, is `invalid` as not JSON); an object with `jsonrpc` or `method` is
    /// JSON-RPC; an object with `name` and `arguments` is a route body; anything else is tried
    /// against [`FRAGMENT_DEFINITIONS`]. Input that is not JSON is `invalid` at pointer `""`
    /// with the parse error.
    pub fn check(&self, transcript: &mut Transcript, message: &[u8]) -> Verdict {
        self.check_line(transcript, None, message)
    }

    /// Checks one message sent by `from` (for a caller that knows the direction, such as a tap
    /// between the two sides): as [`Checker::check`] on `{"from": from, "message": message}`.
    pub fn check_from(&self, transcript: &mut Transcript, from: Side, message: &[u8]) -> Verdict {
        self.check_line(transcript, Some(from), message)
    }

    fn check_line(
        &self,
        transcript: &mut Transcript,
        from: Option<Side>,
        message: &[u8],
    ) -> Verdict {
        transcript.begin_message();
        if let Some(verdict) = self.check_fast(transcript, from, message) {
            return verdict;
        }
        if let Err(limit) = self.limits.check(message) {
            // The limits are the message's: a transcript wrapper's own bytes and level do not
            // count, nor do those of the tap's records, whose text is judged as the tap judged
            // the message.
            if from.is_none() {
                if let Some((side, inner)) = wrapped(message) {
                    return self.check_wrapped(transcript, side, inner);
                }
                if let Some(value) = tap_records::record_line(message) {
                    return self.check_transcript_line(transcript, message, value);
                }
            }
            return self.past_limit(transcript, from, message, &limit);
        }
        let value: Value = match serde_json::from_slice(message) {
            Ok(value) => value,
            Err(error) => {
                if let Some((side, inner)) = from.is_none().then(|| wrapped(message)).flatten() {
                    if grammar_error(message).is_none() {
                        return self.check_wrapped(transcript, side, inner);
                    }
                }
                return self.not_a_value(transcript, from, message, &error);
            }
        };
        if from.is_some() {
            // The caller gave the direction: the bytes are the message itself.
            return self.check_value(transcript, from, message, &value);
        }
        self.check_transcript_line(transcript, message, value)
    }

    /// A transcript line (`value` is `message` parsed) whose sender is not given: a record
    /// naming it, or a bare message.
    fn check_transcript_line(
        &self,
        transcript: &mut Transcript,
        message: &[u8],
        value: Value,
    ) -> Verdict {
        // A transcript record (a wrapper, a tap record) with a member twice: the message checked
        // is the one a reader keeping the last would see, but readers disagree.
        let record = value.as_object().is_some_and(tap_records::is_record);
        let repeated = record.then(|| record_repeat(message)).flatten();
        let verdict = self.check_record(transcript, message, value, record);
        match repeated {
            Some(name) => verdict.repeated(
                "",
                format!(
                    "member `{name}` of the transcript record appears twice (readers disagree \
                     on which counts)"
                ),
            ),
            None => verdict,
        }
    }

    /// A line that is not a message sent by a known side: a tap record, a transcript wrapper,
    /// or a bare message; `record` when it is meant as a record ([`tap_records::is_record`]).
    fn check_record(
        &self,
        transcript: &mut Transcript,
        message: &[u8],
        value: Value,
        record: bool,
    ) -> Verdict {
        match tap_records::record(&value) {
            Some(tap_records::Record::NotChecked(verdict)) => return verdict,
            Some(tap_records::Record::Truncated { from, text, bytes }) => {
                let message = tap_records::Record::truncated_message(bytes);
                return self.over_limit(transcript, Some(from), text.as_bytes(), message);
            }
            None => {}
        }
        if let Some((pointer, why)) = value
            .as_object()
            .filter(|_| record)
            .and_then(tap_records::malformed)
        {
            return Verdict::invalid(Kind::TranscriptRecord, pointer, why);
        }
        match transcript::read_line(value) {
            Line::Message {
                from: Some(side),
                value,
            } => {
                let inner = wrapped_message(message).unwrap_or(message);
                self.check_value(transcript, Some(side), inner, &value)
            }
            Line::Message { from: None, value } => {
                self.check_value(transcript, None, message, &value)
            }
            Line::Text { from, text } => match serde_json::from_str::<Value>(&text) {
                Ok(_) if tap_records::nests_in_record(text.as_bytes()) => {
                    // JSON a `message` record holds: the tap writes such a line as text only
                    // when it is not UTF-8 (lossily, U+FFFD in place of the bytes that are not),
                    // and judges it not JSON.
                    let message = if text.contains('\u{fffd}') {
                        "not UTF-8 text, as JSON must be (the transcript holds the line with \
                         U+FFFD in place of the bytes that are not)"
                    } else {
                        "the wrapper's `text` is JSON: wrap it as `message`"
                    };
                    Verdict::invalid(Kind::NotJson, "", message).sent_by(Some(from))
                }
                // JSON a `Value` holds, nested too deep to be held inside the record (which adds
                // a level): the tap writes it as text so that any JSON reader reads its
                // transcript, and it is judged as the message it was, as the tap judged it.
                Ok(_) => self.check_wrapped(transcript, from, text.as_bytes()),
                // Not JSON, or JSON a `Value` cannot hold (a number past `f64`, a lone surrogate
                // escape, nesting past 127 levels), which the tap writes as text likewise.
                Err(error) => self.not_held(transcript, from, text.as_bytes(), &error),
            },
        }
    }

    /// The verdict on a message from `from` that no `Value` holds (`error` says why), as
    /// [`Checker::check_from`] gives it: `invalid` when it is not JSON, else over a limit of
    /// ours.
    fn not_held(
        &self,
        transcript: &mut Transcript,
        from: Side,
        message: &[u8],
        error: &serde_json::Error,
    ) -> Verdict {
        if let Err(limit) = self.limits.check(message) {
            return self.past_limit(transcript, Some(from), message, &limit);
        }
        self.not_a_value(transcript, Some(from), message, error)
    }

    /// The message of a transcript wrapper line whose wrapper is over a limit: the limits, then
    /// the checks, on the message alone.
    fn check_wrapped(&self, transcript: &mut Transcript, from: Side, message: &[u8]) -> Verdict {
        if let Err(limit) = self.limits.check(message) {
            return self.past_limit(transcript, Some(from), message, &limit);
        }
        match serde_json::from_slice::<Value>(message) {
            Ok(value) => self.check_value(transcript, Some(from), message, &value),
            Err(error) => self.not_a_value(transcript, Some(from), message, &error),
        }
    }

    /// The verdict on a message serde_json could not read into a `Value`: `invalid` when it is
    /// not JSON; over a limit of ours when it is JSON a `Value` cannot hold (a number past the
    /// range of an `f64`, a lone surrogate escape: JSON's grammar allows both), its envelope
    /// still followed.
    fn not_a_value(
        &self,
        transcript: &mut Transcript,
        from: Option<Side>,
        message: &[u8],
        error: &serde_json::Error,
    ) -> Verdict {
        if grammar_error(message).is_none() {
            let limit = format!("JSON the checker cannot hold as a value ({error})");
            return self.over_limit(transcript, from, message, limit);
        }
        Verdict::invalid(Kind::NotJson, "", error.to_string()).sent_by(from)
    }

    /// The verdict on a message over a limit of ours: over the limit, unless it is over the depth
    /// only and not JSON at all, which is seen without the depth mattering (`invalid`: a limit
    /// of ours must not hide what the protocol says).
    fn past_limit(
        &self,
        transcript: &mut Transcript,
        from: Option<Side>,
        message: &[u8],
        limit: &LimitError,
    ) -> Verdict {
        if let LimitError::TooDeep { .. } = limit {
            if let Some(error) = grammar_error(message) {
                return Verdict::invalid(Kind::NotJson, "", error).sent_by(from);
            }
        }
        self.over_limit(transcript, from, message, limit.to_string())
    }

    /// The verdict on a message of `bytes` bytes over the byte limit of which only `prefix`, its
    /// first bytes, was kept (what `toolcall tap` keeps of one, and writes as a transcript record
    /// `{"from", "text", "truncated": true, "bytes"}`): [`Status::OverLimit`], and what its
    /// first bytes show of it is followed as [`Checker::check`] follows a message over a limit
    /// (a request whose `id` and `method` come first is recorded, so that its response is
    /// checked against its result).
    pub fn check_truncated(
        &self,
        transcript: &mut Transcript,
        from: Side,
        prefix: &[u8],
        bytes: usize,
    ) -> Verdict {
        transcript.begin_message();
        let limit = toolcall_contracts::policy::LimitError::TooLarge {
            bytes,
            limit: self.limits.max_bytes,
        };
        self.over_limit(transcript, Some(from), prefix, limit.to_string())
    }

    /// Checks a parsed message (`message` is its text) sent by `from`.
    fn check_value(
        &self,
        transcript: &mut Transcript,
        from: Option<Side>,
        message: &[u8],
        value: &Value,
    ) -> Verdict {
        let verdict = match value {
            Value::Object(object)
                if object.contains_key("jsonrpc") || object.contains_key("method") =>
            {
                let verdict = self.check_json_rpc(transcript, from, value, object);
                let note = self.assumed_version_note(transcript, verdict.protocol);
                Verdict { note, ..verdict }
            }
            Value::Array(elements) if batch::is_batch(value) => {
                self.check_batch(transcript, from, elements)
            }
            Value::Object(object)
                if object.contains_key("name") && object.contains_key("arguments") =>
            {
                self.check_route(message, value)
            }
            _ => self.check_fragment(value),
        }
        .sent_by(from);
        // `value` kept the last of two equal member names; the typed decoders refuse them. A
        // repeat comes first: any other finding was made on the value a reader keeping the last
        // of the two would see (`{"x":2}` where the input has `{"x":1,"x":2}`).
        match unique::first_repeated(message) {
            Some(repeated) => verdict.repeated(
                &repeated.pointer,
                format!(
                    "member `{}` appears twice in one object (readers disagree on which counts)",
                    repeated.name
                ),
            ),
            None => verdict,
        }
    }

    /// `value` (at `prefix` in the message) against `#/$defs/<definition>`, decoded into the
    /// generated type when the definition has one.
    pub(super) fn check_definition(
        &self,
        kind: Kind,
        definition: &str,
        body: Body<'_>,
        prefix: &str,
        mut errors: Vec<SchemaError>,
    ) -> Verdict {
        let value = match body {
            Body::Parsed(value) => value,
            Body::Decoded => {
                // Decoded without a finding: no schema error, an empty report.
                leaves::sort(&mut errors);
                return judge(kind, errors, decoder(definition).map(|_| Ok(Vec::new())));
            }
        };
        errors.extend(self.schema_errors(definition, value, prefix));
        leaves::sort(&mut errors);
        let decoded = decoder(definition).map(|decode| {
            let prefixed = |pointer: &str| format!("{prefix}{pointer}");
            decode(value.to_string().as_bytes(), &self.limits)
                .map(|decoded| {
                    let Decoded { report, encoded } = decoded;
                    report
                        .into_iter()
                        .filter(|leniency| !accepted_and_kept(leniency, &encoded, prefix, &errors))
                        .map(|leniency| Leniency {
                            pointer: prefixed(&leniency.pointer),
                            ..leniency
                        })
                        .collect()
                })
                .map_err(|error| DecodeError {
                    pointer: prefixed(&error.pointer),
                    // The position is in the re-encoded value, not in the input.
                    line: 0,
                    column: 0,
                    ..error
                })
        });
        judge(kind, errors, decoded)
    }

    /// The leaf errors of `value` against `#/$defs/<definition>`, pointers under `prefix`.
    pub(super) fn schema_errors(
        &self,
        definition: &str,
        value: &Value,
        prefix: &str,
    ) -> Vec<SchemaError> {
        match self.acp.validator(definition) {
            Ok(validator) if validator.is_valid(value) => Vec::new(),
            Ok(validator) => leaves::collect(validator.iter_errors(value), prefix),
            Err(compile) => vec![SchemaError::new(prefix, compile)],
        }
    }

    /// A message that is neither JSON-RPC nor a route body.
    fn check_fragment(&self, value: &Value) -> Verdict {
        if let Value::Object(object) = value {
            for &definition in FRAGMENT_DEFINITIONS {
                if !self.acp.declares_members(definition, object) {
                    continue;
                }
                let Ok(validator) = self.acp.validator(definition) else {
                    continue;
                };
                let kind = Kind::Fragment {
                    definition: definition.to_owned(),
                };
                if validator.is_valid(value) {
                    return self.check_definition(
                        kind,
                        definition,
                        Body::Parsed(value),
                        "",
                        Vec::new(),
                    );
                }
                if decoder(definition).is_some() {
                    let verdict = self.check_definition(
                        kind,
                        definition,
                        Body::Parsed(value),
                        "",
                        Vec::new(),
                    );
                    if verdict.status == Status::Lenient {
                        return verdict;
                    }
                }
            }
        }
        Verdict::invalid(
            Kind::Unrecognized,
            "",
            "neither a JSON-RPC message, a route body nor a known ACP definition",
        )
    }

    /// A route body: the route schema, then tolerant decoding, then
    /// [`route::ToolCallRequest::validate`].
    fn check_route(&self, message: &[u8], value: &Value) -> Verdict {
        let kind = Kind::RouteBody;
        let errors = match self.route_validator() {
            Ok(validator) if validator.is_valid(value) => Vec::new(),
            Ok(validator) => leaves::collect(validator.iter_errors(value), ""),
            Err(compile) => vec![SchemaError::new("", compile)],
        };
        let decoded = match decode_with::<route::ToolCallRequest>(message, &self.limits) {
            Ok(decoded) => decoded,
            Err(error) => return judge(kind, errors, Some(Err(error))),
        };
        if let Err(error) = decoded.value.validate() {
            let pointer = match error {
                route::RouteError::CallKey { .. } => "/call_key",
                route::RouteError::SchemaPin { .. } => "/schema_pin",
                route::RouteError::ProgressToken { .. } => "/progress_token",
            };
            let mut message = error.to_string();
            if errors.is_empty() {
                message.push_str(" (the route schema accepts it: schema and validation disagree)");
            }
            return Verdict::invalid(kind, pointer, message);
        }
        judge(kind, errors, Some(Ok(decoded.report)))
    }

    fn route_validator(&self) -> Result<&Validator, String> {
        self.route
            .get_or_init(|| {
                let schema: Value = serde_json::from_str(route::SCHEMA_JSON)
                    .map_err(|error| format!("the route schema is not JSON: {error}"))?;
                jsonschema::draft202012::options()
                    .offline()
                    .build(&schema)
                    .map_err(|error| format!("cannot compile the route schema: {error}"))
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// The verdict rule. `errors` are the schema's leaf errors (sorted); `decoded` is the decode
/// result when the value has a generated type.
///
/// - no schema error, decoded with an empty report (or nothing to decode): `ok`;
/// - schema errors, decoded with a report, and every error at or under a reported pointer:
///   `lenient`;
/// - no schema error, decoded with a report of numbers defaulted only (past what a member's
///   `format` holds, which the validator does not check): `lenient`;
/// - no schema error but the decoder failed or applied other leniency: `invalid`, saying that
///   schema and types disagree;
/// - otherwise `invalid` with the first schema error.
pub(super) fn judge(
    kind: Kind,
    errors: Vec<SchemaError>,
    decoded: Option<Result<Vec<Leniency>, DecodeError>>,
) -> Verdict {
    let report = match decoded {
        None => Vec::new(),
        Some(Ok(report)) => report,
        Some(Err(error)) => {
            return match errors.into_iter().next() {
                Some(first) => Verdict::invalid(kind, first.pointer, first.message),
                None => Verdict::invalid(
                    kind,
                    error.pointer,
                    format!(
                        "the schema accepts this but the generated type rejects it \
                         (schema and types disagree): {}",
                        error.message
                    ),
                ),
            };
        }
    };
    let Some(first) = errors.first() else {
        // The schema accepts it as it is. Values its catch-all branches accept and decoding kept
        // were dropped from the report already (they are not leniency). A number a member
        // declaring `x-deserialize-default-on-error` defaulted is outside what its `format`
        // (`uint32`, `int64`, ...) holds, past its range or with a fraction part (`2.0`): the
        // schema's word, which the validator does not check (for a number a `format` is an
        // annotation), and leniency the schema declares, as for a number under its `minimum`.
        // Any other leniency left on a valid message means the schema and the types disagree
        // (a value accepted by the schema yet replaced or dropped by decoding).
        let past_format = |leniency: &Leniency| {
            leniency.kind == LeniencyKind::Defaulted && leniency.raw.is_number()
        };
        return match report.iter().find(|leniency| !past_format(leniency)) {
            None if report.is_empty() => Verdict::ok(kind),
            None => Verdict {
                status: Status::Lenient,
                kind,
                report,
                from: None,
                protocol: None,
                note: None,
            },
            Some(leniency) => Verdict {
                status: Status::Invalid {
                    pointer: leniency.pointer.clone(),
                    message: format!(
                        "the schema accepts this but decoding applied leniency `{}` \
                         (schema and types disagree)",
                        leniency.kind
                    ),
                },
                kind,
                report,
                from: None,
                protocol: None,
                note: None,
            },
        };
    };
    let covered = |error: &SchemaError| {
        report
            .iter()
            .any(|leniency| is_under(&error.pointer, &leniency.pointer))
    };
    let status = if !report.is_empty() && errors.iter().all(covered) {
        Status::Lenient
    } else {
        Status::Invalid {
            pointer: first.pointer.clone(),
            message: first.message.clone(),
        }
    };
    Verdict {
        status,
        kind,
        report,
        from: None,
        protocol: None,
        note: None,
    }
}

/// Whether a report entry is a value the schema accepts as it is and decoding kept: an unknown
/// enum value or union tag that a catch-all branch takes (ACP `NoticeSeverity`'s `other` takes
/// `_vendor_debug`), with no schema error at, above or under its place, found unchanged at its
/// place in the re-encoded value. Such a value is valid and kept: no leniency was applied.
fn accepted_and_kept(
    leniency: &Leniency,
    encoded: &Value,
    prefix: &str,
    errors: &[SchemaError],
) -> bool {
    if !matches!(
        leniency.kind,
        LeniencyKind::UnknownValue | LeniencyKind::UnknownVariant
    ) {
        return false;
    }
    let at = format!("{prefix}{}", leniency.pointer);
    let related =
        |error: &SchemaError| is_under(&error.pointer, &at) || is_under(&at, &error.pointer);
    !errors.iter().any(related) && encoded.pointer(&leniency.pointer) == Some(&leniency.raw)
}

/// The sender and the message bytes of a transcript wrapper line, `{"from": SIDE, "message":
/// ...}`, read without parsing the message.
fn wrapped(line: &[u8]) -> Option<(Side, &[u8])> {
    let members = super::envelope::members(line)?;
    let [first, second] = &members[..] else {
        return None;
    };
    let (from, message) = match (first.name.as_str(), second.name.as_str()) {
        ("from", "message") => (first, second),
        ("message", "from") => (second, first),
        _ => return None,
    };
    let side = serde_json::from_slice::<&str>(&line[from.value.clone()]).ok()?;
    let side = Side::from_name(side)?;
    Some((side, &line[message.value.clone()]))
}

/// The top-level member a transcript record has twice (a `Value` keeps the last of two).
fn record_repeat(line: &[u8]) -> Option<String> {
    let members = super::envelope::members(line)?;
    super::envelope::repeated(&members).map(str::to_owned)
}

/// The bytes of a wrapper line's `message` member, as written.
fn wrapped_message(line: &[u8]) -> Option<&[u8]> {
    let members: std::collections::BTreeMap<&str, &serde_json::value::RawValue> =
        serde_json::from_slice(line).ok()?;
    members.get("message").map(|raw| raw.get().as_bytes())
}

/// Why `message` is not JSON by RFC 8259's grammar (UTF-8 text), whatever a `Value` can hold;
/// `None` when it is. serde_json's skipping parse checks the grammar at any depth without a
/// stack, but not the UTF-8 of the strings it skips: that is checked apart.
fn grammar_error(message: &[u8]) -> Option<String> {
    if let Err(error) = serde_json::from_slice::<serde::de::IgnoredAny>(message) {
        return Some(error.to_string());
    }
    std::str::from_utf8(message)
        .err()
        .map(|error| format!("not UTF-8 text, as JSON must be: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use toolcall_contracts::decode::LeniencyKind;

    fn leniency(pointer: &str) -> Leniency {
        Leniency {
            pointer: pointer.to_owned(),
            kind: LeniencyKind::UnknownValue,
            raw: json!("paused"),
        }
    }

    fn status(verdict: &Verdict) -> (&'static str, Option<&str>) {
        match &verdict.status {
            Status::Invalid { pointer, .. } => ("invalid", Some(pointer.as_str())),
            other => (other.name(), None),
        }
    }

    #[test]
    fn rule_ok_lenient_invalid() {
        let kind = || Kind::Notification {
            method: "session/update".into(),
        };
        let error = |p: &str| SchemaError::new(p, "bad");
        assert_eq!(
            status(&judge(kind(), vec![], Some(Ok(vec![])))),
            ("ok", None)
        );
        assert_eq!(status(&judge(kind(), vec![], None)), ("ok", None));
        let lenient = judge(
            kind(),
            vec![error("/params/update/status")],
            Some(Ok(vec![leniency("/params/update/status")])),
        );
        assert_eq!(status(&lenient), ("lenient", None));
        assert_eq!(lenient.report.len(), 1);
        // An error the report does not cover.
        let uncovered = judge(
            kind(),
            vec![error("/params/sessionId"), error("/params/update/status")],
            Some(Ok(vec![leniency("/params/update/status")])),
        );
        assert_eq!(status(&uncovered), ("invalid", Some("/params/sessionId")));
        // Schema errors and no leniency: the first schema error.
        assert_eq!(
            status(&judge(kind(), vec![error("/params")], Some(Ok(vec![])))),
            ("invalid", Some("/params"))
        );
    }

    #[test]
    fn rule_names_disagreements() {
        let kind = || Kind::RouteBody;
        let failed = judge(
            kind(),
            vec![],
            Some(Err(DecodeError {
                pointer: "/params/update".into(),
                message: "unknown variant".into(),
                line: 0,
                column: 0,
                limit: None,
            })),
        );
        let Status::Invalid { pointer, message } = failed.status else {
            panic!("not invalid");
        };
        assert_eq!(pointer, "/params/update");
        assert!(message.contains("schema and types disagree"), "{message}");
        // A value the schema accepts that decoding did not keep (kept ones never reach `judge`).
        let lost_value = judge(kind(), vec![], Some(Ok(vec![leniency("/params/x")])));
        assert!(
            matches!(lost_value.status, Status::Invalid { ref message, .. } if message.contains("`unknown_value`"))
        );
        let needless = judge(
            kind(),
            vec![],
            Some(Ok(vec![Leniency {
                kind: LeniencyKind::Defaulted,
                ..leniency("/params/x")
            }])),
        );
        assert!(
            matches!(needless.status, Status::Invalid { ref message, .. } if message.contains("`defaulted`"))
        );
    }

    #[test]
    fn fragment_definitions_exist() {
        let schema = AcpSchema::new().expect("parses");
        for definition in FRAGMENT_DEFINITIONS {
            assert!(schema.has_definition(definition), "{definition}");
        }
    }

    fn check(checker: &Checker, transcript: &mut Transcript, line: &str) -> (String, String) {
        let verdict = checker.check(transcript, line.as_bytes());
        let status = match &verdict.status {
            Status::Invalid { pointer, message } => format!("invalid {pointer}: {message}"),
            other => other.name().to_owned(),
        };
        (status, verdict.kind.to_string())
    }

    #[test]
    fn messages_are_recognized() {
        let checker = Checker::new().expect("schema");
        let mut t = Transcript::default();
        let mut run = |line: &str| check(&checker, &mut t, line);
        assert_eq!(
            run(
                r#"{"jsonrpc":"2.0","id":5,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"c"},"options":[{"optionId":"a","name":"Allow","kind":"allow_once"}]}}"#
            ),
            ("ok".into(), "session/request_permission".into())
        );
        assert_eq!(
            run(
                r#"{"jsonrpc":"2.0","id":5,"result":{"outcome":{"outcome":"selected","optionId":"a"}}}"#
            ),
            ("ok".into(), "response to session/request_permission".into())
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":6,"result":{}}"#),
            ("ok".into(), "response (request not seen)".into())
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","method":"_x/y","params":[1]}"#),
            ("ok".into(), "_x/y".into())
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","method":"session/nope","params":{}}"#).0,
            "invalid /method: unknown method `session/nope` (extension methods start with `_`)"
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":9,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"txt","text":"hi"}]}}"#).0,
            r#"invalid /params/prompt/0/type: "txt" is not one of "text", "image", "audio", "resource_link", "resource""#
        );
        assert_eq!(
            run(r#"{"jsonrpc":"1.0","method":"session/cancel","params":{"sessionId":"s"}}"#).0,
            r#"invalid /jsonrpc: `jsonrpc` must be `"2.0"`, not `"1.0"`"#
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","method":"session/update"}"#).0,
            "invalid : `params` is missing; `session/update` requires them"
        );
        assert_eq!(
            run(r#"{"path":"/x","line":3}"#),
            ("ok".into(), "fragment ToolCallLocation".into())
        );
        assert_eq!(
            run(r#"{"colour":"blue"}"#),
            (
                "invalid : neither a JSON-RPC message, a route body nor a known ACP definition"
                    .into(),
                "unrecognized".into()
            )
        );
        assert_eq!(run("{oops").1, "not JSON");
        assert_eq!(
            run(r#"{"method":"session/cancel","params":{"sessionId":"s"}}"#).0,
            r#"invalid : `jsonrpc` is missing (it must be `"2.0"`)"#
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","method":"session/prompt","params":{"sessionId":"s","prompt":[]}}"#).0,
            "invalid : `session/prompt` is a request: it needs an `id`"
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}"#),
            ("ok".into(), "error response (request not seen)".into())
        );
    }
}
