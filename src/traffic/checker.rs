//! [`Checker`]: recognizes a message, validates it against its schema definition, decodes it
//! into the generated type where there is one, and combines both into a [`Verdict`].

use std::sync::OnceLock;

use jsonschema::Validator;
use serde::de::DeserializeOwned;
use serde_json::{json, Map, Value};

use super::input::split_messages;
use super::leaves::{self, is_under, render, SchemaError};
use super::schema::{AcpSchema, Method, Role};
use super::transcript::{self, Answer, Line, Side, Transcript};
use super::unique;
use super::verdict::{Kind, Status, Verdict};
use super::TrafficError;
use crate::decode::{decode_with, DecodeError, Leniency, LeniencyKind};
use crate::policy::DecodeLimits;
use crate::{acp, route};

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
    decode_with::<T>(json, limits).map(|decoded| Decoded {
        // A value that does not encode cannot show a kept value: nothing is dropped then.
        encoded: serde_json::to_value(&decoded.value).unwrap_or(Value::Null),
        report: decoded.report,
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
/// use toolcall_contracts::traffic::{Checker, Status, Transcript};
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
/// # Ok::<(), toolcall_contracts::traffic::TrafficError>(())
/// ```
pub struct Checker {
    acp: AcpSchema,
    route: OnceLock<Result<Validator, String>>,
    limits: DecodeLimits,
}

impl std::fmt::Debug for Checker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checker").finish_non_exhaustive()
    }
}

impl Checker {
    /// A checker over [`acp::SCHEMA_JSON`] and [`route::SCHEMA_JSON`]. Compiles nothing yet.
    ///
    /// # Errors
    /// [`TrafficError::SchemaJson`] or [`TrafficError::SchemaShape`] when the built-in ACP
    /// schema is not JSON or has no `$defs` (a broken build, never the input's fault).
    pub fn new() -> Result<Self, TrafficError> {
        Ok(Self {
            acp: AcpSchema::new()?,
            route: OnceLock::new(),
            limits: DecodeLimits::default(),
        })
    }

    /// The same checker refusing messages over `limits` (each message is checked before it
    /// is parsed; the default is [`DecodeLimits::default`]).
    #[must_use]
    pub fn with_limits(mut self, limits: DecodeLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Checks every message of `content` (see [`split_messages`]) with a fresh [`Transcript`].
    #[must_use]
    pub fn check_input(&self, content: &[u8]) -> Vec<Checked> {
        let mut transcript = Transcript::default();
        split_messages(content)
            .into_iter()
            .map(|message| Checked {
                line: message.line,
                verdict: self.check(&mut transcript, message.text),
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
        if let Err(limit) = self.limits.check(message) {
            return Verdict::invalid(Kind::NotJson, "", limit.to_string()).sent_by(from);
        }
        let value: Value = match serde_json::from_slice(message) {
            Ok(value) => value,
            Err(error) => {
                return Verdict::invalid(Kind::NotJson, "", error.to_string()).sent_by(from)
            }
        };
        if from.is_some() {
            // The caller gave the direction: the bytes are the message itself.
            return self.check_value(transcript, from, message, &value);
        }
        match transcript::unwrap(value) {
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
            Line::Text { from, text } => {
                let error = serde_json::from_str::<serde::de::IgnoredAny>(&text)
                    .err()
                    .map_or_else(
                        || "the wrapper's `text` is JSON: wrap it as `message`".to_owned(),
                        |error| error.to_string(),
                    );
                Verdict::invalid(Kind::NotJson, "", error).sent_by(Some(from))
            }
        }
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
                self.check_json_rpc(transcript, from, value, object)
            }
            Value::Object(object)
                if object.contains_key("name") && object.contains_key("arguments") =>
            {
                self.check_route(message, value)
            }
            _ => self.check_fragment(value),
        }
        .sent_by(from);
        // `value` kept the last of two equal member names; the typed decoders refuse them.
        if matches!(verdict.status, Status::Invalid { .. }) {
            return verdict;
        }
        match unique::first_repeated(message) {
            Some(repeated) => Verdict::invalid(
                verdict.kind,
                repeated.pointer,
                format!(
                    "member `{}` appears twice in one object (readers disagree on which counts)",
                    repeated.name
                ),
            )
            .sent_by(from),
            None => verdict,
        }
    }

    fn check_json_rpc(
        &self,
        transcript: &mut Transcript,
        from: Option<Side>,
        value: &Value,
        object: &Map<String, Value>,
    ) -> Verdict {
        let mut envelope = Vec::new();
        match object.get("jsonrpc") {
            Some(Value::String(version)) if version == "2.0" => {}
            Some(other) => envelope.push(SchemaError::new(
                "/jsonrpc",
                format!("`jsonrpc` must be `\"2.0\"`, not `{}`", render(other)),
            )),
            None => envelope.push(SchemaError::new(
                "",
                "`jsonrpc` is missing (it must be `\"2.0\"`)",
            )),
        }
        let id = object.get("id");
        if let Some(id) = id {
            envelope.extend(self.schema_errors("RequestId", id, "/id"));
        }
        if let Some(method) = object.get("method") {
            let Some(method) = method.as_str() else {
                envelope.push(SchemaError::new(
                    "/method",
                    format!("`method` must be a string, not `{}`", render(method)),
                ));
                return judge(Kind::JsonRpc, envelope, None);
            };
            let known = self.acp.method(method);
            let sender = known.and_then(|known| known.sender);
            if let (Some(from), Some(sender)) = (from, sender) {
                if from.role() != sender {
                    let sender = match sender {
                        transcript::Role::Client => Side::Client,
                        transcript::Role::Peer => Side::Agent,
                    };
                    envelope.push(SchemaError::new(
                        "/method",
                        format!("`{method}` is sent by the {sender}, not by the {from}"),
                    ));
                }
            }
            let kind = match id {
                Some(id) => {
                    let role = from.map(Side::role).or(sender);
                    transcript.request(id, method, role);
                    Kind::Request {
                        method: method.to_owned(),
                    }
                }
                None => Kind::Notification {
                    method: method.to_owned(),
                },
            };
            return self.check_call(
                kind,
                method,
                known,
                id.is_some(),
                object.get("params"),
                envelope,
            );
        }
        let (result, error) = (object.get("result"), object.get("error"));
        if result.is_none() && error.is_none() {
            envelope.push(SchemaError::new(
                "",
                "neither a request, a notification nor a response: no `method`, `result` or `error`",
            ));
            return judge(Kind::JsonRpc, envelope, None);
        }
        let answer = match id {
            Some(id) => transcript.answer(id, from.map(Side::role)),
            None => {
                envelope.push(SchemaError::new(
                    "",
                    "`id` is missing (a response needs one)",
                ));
                Answer::NotSeen
            }
        };
        match (result, error) {
            (Some(_), Some(_)) => {
                envelope.push(SchemaError::new(
                    "",
                    "a response has `result` or `error`, not both",
                ));
                judge(response_kind(answer, false), envelope, None)
            }
            (None, Some(error)) => {
                envelope.extend(self.schema_errors("Error", error, "/error"));
                judge(response_kind(answer, true), envelope, None)
            }
            (Some(result), None) => self.check_result(answer, value, result, envelope),
            (None, None) => unreachable!("handled above"),
        }
    }

    /// A request or notification: the params of a known method against its definition.
    fn check_call(
        &self,
        kind: Kind,
        method: &str,
        known: Option<&Method>,
        has_id: bool,
        params: Option<&Value>,
        mut envelope: Vec<SchemaError>,
    ) -> Verdict {
        if method.starts_with('_') {
            // Extension method: any params (ACP extensibility).
            return judge(kind, envelope, None);
        }
        let Some(known) = known else {
            envelope.push(SchemaError::new(
                "/method",
                format!("unknown method `{method}` (extension methods start with `_`)"),
            ));
            return judge(kind, envelope, None);
        };
        match (&known.role, has_id) {
            (Role::Notification, true) => envelope.push(SchemaError::new(
                "/id",
                format!("`{method}` is a notification: it takes no `id`"),
            )),
            (Role::Request { .. }, false) => envelope.push(SchemaError::new(
                "",
                format!("`{method}` is a request: it needs an `id`"),
            )),
            _ => {}
        }
        if let Some(params) = params {
            return self.check_definition(kind, &known.params, params, "/params", envelope);
        }
        // JSON-RPC lets a call omit `params`: fine when the definition accepts `{}`.
        let empty = json!({});
        match self.acp.validator(&known.params) {
            Ok(validator) if validator.is_valid(&empty) => {
                self.check_definition(kind, &known.params, &empty, "/params", envelope)
            }
            _ => {
                envelope.push(SchemaError::new(
                    "",
                    format!("`params` is missing; `{method}` requires them"),
                ));
                judge(kind, envelope, None)
            }
        }
    }

    /// A successful response: its `result` against the response definition of the request it
    /// answers; against the whole schema when that request was not seen; against each
    /// candidate's when the pairing is ambiguous.
    fn check_result(
        &self,
        answer: Answer,
        message: &Value,
        result: &Value,
        envelope: Vec<SchemaError>,
    ) -> Verdict {
        match answer {
            Answer::Paired(method) => match self.result_definition(&method) {
                ResultDefinition::Any => judge(
                    Kind::Response {
                        method: Some(method),
                    },
                    envelope,
                    None,
                ),
                ResultDefinition::Definition(response) => self.check_definition(
                    Kind::Response {
                        method: Some(method),
                    },
                    &response,
                    result,
                    "/result",
                    envelope,
                ),
                ResultDefinition::Unknown => {
                    let message = format!(
                        "`{method}` has no definition in the schema: the result cannot be checked \
                         against a result definition"
                    );
                    let kind = Kind::ResponseToUnknownMethod { method };
                    match envelope.into_iter().next() {
                        Some(first) => Verdict::invalid(kind, first.pointer, first.message),
                        None => Verdict::unchecked(kind, "/result", message),
                    }
                }
            },
            Answer::NotSeen => {
                let mut errors = envelope;
                match self.acp.root_validator() {
                    Ok(root) if root.is_valid(message) => {}
                    Ok(root) => errors.extend(leaves::collect(root.iter_errors(message), "")),
                    Err(compile) => errors.push(SchemaError::new("", compile)),
                }
                leaves::sort(&mut errors);
                judge(Kind::Response { method: None }, errors, None)
            }
            Answer::Ambiguous(methods) => self.check_ambiguous(methods, result, envelope),
        }
    }

    /// A result that answers one of `methods` (the line does not say which): valid as the answer
    /// to each, invalid as the answer to each, or unchecked.
    fn check_ambiguous(
        &self,
        methods: Vec<String>,
        result: &Value,
        envelope: Vec<SchemaError>,
    ) -> Verdict {
        let kind = Kind::AmbiguousResponse {
            methods: methods.clone(),
            error: false,
        };
        if let Some(first) = envelope.into_iter().next() {
            return Verdict::invalid(kind, first.pointer, first.message);
        }
        let verdicts: Vec<(String, Verdict)> = methods
            .into_iter()
            .map(|method| {
                let verdict = self.check_result(
                    Answer::Paired(method.clone()),
                    &Value::Null,
                    result,
                    Vec::new(),
                );
                (method, verdict)
            })
            .collect();
        let fits = |verdict: &Verdict| matches!(verdict.status, Status::Ok | Status::Lenient);
        let named = |(method, verdict): &(String, Verdict)| match &verdict.status {
            Status::Invalid { pointer, message } | Status::Unchecked { pointer, message } => {
                format!("as the answer to `{method}`, `{pointer}`: {message}")
            }
            _ => format!("valid as the answer to `{method}`"),
        };
        if verdicts.iter().all(|(_, verdict)| fits(verdict)) {
            // Valid whichever request it answers.
            let report = verdicts
                .into_iter()
                .flat_map(|(_, verdict)| verdict.report)
                .collect::<Vec<_>>();
            let status = if report.is_empty() {
                Status::Ok
            } else {
                Status::Lenient
            };
            return Verdict {
                status,
                kind,
                report,
                from: None,
            };
        }
        if verdicts
            .iter()
            .all(|(_, verdict)| matches!(verdict.status, Status::Invalid { .. }))
        {
            let Status::Invalid { pointer, .. } = &verdicts[0].1.status else {
                unreachable!("all invalid")
            };
            let pointer = pointer.clone();
            let message = verdicts.iter().map(named).collect::<Vec<_>>().join("; ");
            return Verdict::invalid(
                kind,
                pointer,
                format!("invalid whichever request it answers: {message}"),
            );
        }
        let message = verdicts.iter().map(named).collect::<Vec<_>>().join("; ");
        Verdict::unchecked(
            kind,
            "/result",
            format!(
                "requests with this `id` are pending in both directions and the line does not say \
                 who sent it ({message}); wrap lines as {{\"from\": ..., \"message\": ...}}"
            ),
        )
    }

    /// What the result of `method` is checked against.
    fn result_definition(&self, method: &str) -> ResultDefinition {
        if method.starts_with('_') {
            return ResultDefinition::Any;
        }
        match self.acp.method(method).map(|known| &known.role) {
            Some(Role::Request {
                response: Some(response),
            }) => ResultDefinition::Definition(response.clone()),
            // A notification answered, or a request without a response definition: nothing to
            // check the result against.
            Some(_) | None => ResultDefinition::Unknown,
        }
    }

    /// `value` (at `prefix` in the message) against `#/$defs/<definition>`, decoded into the
    /// generated type when the definition has one.
    fn check_definition(
        &self,
        kind: Kind,
        definition: &str,
        value: &Value,
        prefix: &str,
        mut errors: Vec<SchemaError>,
    ) -> Verdict {
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
    fn schema_errors(&self, definition: &str, value: &Value, prefix: &str) -> Vec<SchemaError> {
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
                    return self.check_definition(kind, definition, value, "", Vec::new());
                }
                if decoder(definition).is_some() {
                    let verdict = self.check_definition(kind, definition, value, "", Vec::new());
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
/// - no schema error but the decoder failed or applied leniency: `invalid`, saying that schema
///   and types disagree;
/// - otherwise `invalid` with the first schema error.
fn judge(
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
        // were dropped from the report already (they are not leniency); any leniency left on a
        // valid message means the schema and the types disagree (a value accepted by the schema
        // yet replaced or dropped by decoding).
        return match report.first() {
            None => Verdict::ok(kind),
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
    }
}

/// What a response's result is checked against.
enum ResultDefinition {
    /// Any value (an extension method: `ExtResponse`).
    Any,
    /// `#/$defs/<name>`.
    Definition(String),
    /// Nothing: the method has no definition (or no result definition).
    Unknown,
}

/// The kind of a response with the request it answers.
fn response_kind(answer: Answer, error: bool) -> Kind {
    match (answer, error) {
        (Answer::Paired(method), false) => Kind::Response {
            method: Some(method),
        },
        (Answer::Paired(method), true) => Kind::ErrorResponse {
            method: Some(method),
        },
        (Answer::NotSeen, false) => Kind::Response { method: None },
        (Answer::NotSeen, true) => Kind::ErrorResponse { method: None },
        (Answer::Ambiguous(methods), error) => Kind::AmbiguousResponse { methods, error },
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

/// The bytes of a wrapper line's `message` member, as written.
fn wrapped_message(line: &[u8]) -> Option<&[u8]> {
    let members: std::collections::BTreeMap<&str, &serde_json::value::RawValue> =
        serde_json::from_slice(line).ok()?;
    members.get("message").map(|raw| raw.get().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::LeniencyKind;

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
            run(r#"{"jsonrpc":"2.0","id":5,"result":{}}"#),
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
