//! JSON-RPC messages: the envelope, the session's protocol (ACP or MCP, and the MCP version),
//! pairing responses with requests, and the ACP checks. The MCP checks are in `mcp_rpc`.
//!
//! # Which protocol
//!
//! What the transcript shows decides, per session, never a guess per message once the session
//! said which:
//! - an `initialize` request starts a session: ACP when its `protocolVersion` is an integer, MCP
//!   when it is a string (a date); an MCP `server/discover` request starts an MCP session;
//! - otherwise the first method only one protocol defines (ACP's `session/prompt`, MCP's
//!   `tools/call`), or a request carrying an MCP `protocolVersion` in `params._meta`, sets it;
//!   until then a message is checked as ACP;
//! - a response is checked as the request it answers was.
//!
//! The MCP version of a session is the one the `initialize` exchange settles (the request's offer
//! until the response names the negotiated one), else the one a request carries in
//! `params._meta` (`io.modelcontextprotocol/protocolVersion`, 2026-07-28), else `--mcp-version`
//! ([`Checker::with_mcp_version`]), else the newest. A version the checker does not hold is
//! skipped in that order. When the newest is assumed (neither the transcript nor
//! `--mcp-version` gave a version the checker holds), the session's first MCP verdict carries a
//! [`Verdict::note`] saying so.

use serde_json::{json, Map, Value};

use super::answered::Answered;
use super::checker::{judge, Body, Checker};
use super::envelope;
use super::leaves::{self, render, SchemaError};
use super::mcp::{self, meta_version};
use super::schema::{Method, Role};
use super::transcript::{self, Answer, Family, Request, Side, Transcript};
use super::verdict::{Kind, Protocol, Status, Verdict};

impl Checker {
    pub(super) fn check_json_rpc(
        &self,
        transcript: &mut Transcript,
        from: Option<Side>,
        value: &Value,
        object: &Map<String, Value>,
    ) -> Verdict {
        let bodies = Bodies {
            params: object.get("params").map(Body::Parsed),
            result: object.get("result").map(Body::Parsed),
        };
        self.check_envelope(transcript, from, value, Envelope::of(object), bodies)
    }

    /// [`Checker::check_json_rpc`] with the envelope's members read already and the `params`
    /// and `result` to check given apart (they may have been decoded already:
    /// [`Body::Decoded`]).
    pub(super) fn check_envelope(
        &self,
        transcript: &mut Transcript,
        from: Option<Side>,
        value: &Value,
        message: Envelope<'_>,
        bodies: Bodies<'_>,
    ) -> Verdict {
        let object = message.object;
        let mut envelope = version_errors(message.jsonrpc);
        let id = message.id;
        if let Some(method) = message.method {
            let Some(method) = method.as_str() else {
                envelope.push(SchemaError::new(
                    "/method",
                    format!("`method` must be a string, not `{}`", render(method)),
                ));
                return judge(Kind::JsonRpc, envelope, None);
            };
            let protocol = self.protocol_of_call(transcript, method, id.is_some(), object);
            let call = Call {
                from,
                method,
                id,
                value,
                object,
                params: bodies.params,
            };
            let verdict = match protocol {
                Protocol::Acp => self.acp_call(transcript, &call, envelope),
                Protocol::Mcp { version } => self.mcp_call(transcript, version, &call, envelope),
            };
            return verdict.checked_as(protocol);
        }
        let (result, error) = (bodies.result, message.error);
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
        if let (Answer::NotSeen, Some(id)) = (&answer, id) {
            if let Some(answered) = transcript.answered(id, from.map(Side::role)) {
                return answered_again(id, answered, error.is_some());
            }
        }
        let protocol =
            self.protocol_of_response(transcript, &answer, result.and_then(Body::parsed));
        let verdict = match protocol {
            Protocol::Acp => self.acp_response(answer, value, message, result, envelope),
            Protocol::Mcp { version } => {
                self.mcp_response(version, answer, value, object, envelope)
            }
        };
        verdict.checked_as(protocol)
    }

    /// The verdict on a message over a limit (`message` says which), of which `json` holds all
    /// or only the first bytes: [`Status::OverLimit`], and what its top level shows is followed
    /// as the message would have been: a request (`id` and `method`) is recorded, so that its
    /// response is checked against its result; a response answers its request; `initialize`
    /// starts a session.
    pub(super) fn over_limit(
        &self,
        transcript: &mut Transcript,
        from: Option<Side>,
        json: &[u8],
        message: String,
    ) -> Verdict {
        let over = |kind: Kind| Verdict::over_limit(kind, message.clone()).sent_by(from);
        let Some(members) = envelope::members(json) else {
            return over(Kind::OverLimit);
        };
        let has = |name: &str| members.iter().any(|member| member.name == name);
        let id = envelope::scalar(json, &members, "id");
        let method = envelope::scalar(json, &members, "method");
        if let Some(Value::String(method)) = method {
            // What the params say of the protocol, read even where the rest of them is what
            // the limit is about.
            let mut object = Map::new();
            if let Some(said) = envelope::protocol_said(json, &members, "params") {
                object.insert("params".to_owned(), said);
            }
            let protocol = self.protocol_of_call(transcript, &method, id.is_some(), &object);
            let Some(id) = id else {
                return over(Kind::Notification { method }).checked_as(protocol);
            };
            let sender = match protocol {
                Protocol::Acp => self.acp.method(&method).and_then(|known| known.sender),
                Protocol::Mcp { version } => self
                    .mcp
                    .get(version)
                    .ok()
                    .and_then(|schema| schema.method(&method))
                    .and_then(|known| known.sender),
            };
            let role = from.map(Side::role).or(sender);
            transcript.request(&id, &method, role, protocol);
            return over(Kind::Request { method }).checked_as(protocol);
        }
        match id {
            Some(id) if has("result") || has("error") => {
                let answer = transcript.answer(&id, from.map(Side::role));
                // The version an `initialize` response settles on, read without the rest.
                let said = envelope::protocol_said(json, &members, "result");
                let protocol = self.protocol_of_response(transcript, &answer, said.as_ref());
                over(response_kind(answer, !has("result"))).checked_as(protocol)
            }
            _ => over(Kind::OverLimit),
        }
    }

    /// The protocol a request or notification is checked as; starts a session on `initialize`
    /// and `server/discover`.
    fn protocol_of_call(
        &self,
        transcript: &mut Transcript,
        method: &str,
        is_request: bool,
        object: &Map<String, Value>,
    ) -> Protocol {
        if is_request && method == "initialize" {
            match object.get("params").and_then(|p| p.get("protocolVersion")) {
                Some(Value::Number(_)) => {
                    transcript.start_session(Family::Acp);
                    return Protocol::Acp;
                }
                Some(Value::String(offered)) => {
                    transcript.start_session(Family::Mcp);
                    // The offer holds until the response names the negotiated version.
                    let version = match mcp::known(offered) {
                        Some(version) if self.defines_initialize(version) => {
                            transcript.set_mcp_version(version);
                            version
                        }
                        Some(version) => {
                            // A version that opens with `server/discover` (2026-07-28), offered
                            // in a handshake: a negotiation, the server may counter-offer. The
                            // request is checked as the newest version that has `initialize`;
                            // the response settles the session's version.
                            transcript.set_handshake_offer(version);
                            self.newest_with_initialize()
                        }
                        None => {
                            transcript.set_unknown_offer(offered);
                            self.default_mcp()
                        }
                    };
                    return Protocol::Mcp { version };
                }
                _ => {
                    let family = transcript.family().unwrap_or(Family::Acp);
                    transcript.start_session(family);
                }
            }
        } else if is_request && method == "server/discover" {
            transcript.start_session(Family::Mcp);
        } else if transcript.family().is_none() {
            if let Some(family) = self.family_of(method, object) {
                transcript.set_family(family);
            }
        }
        self.protocol_in(transcript, object)
    }

    /// The protocol a response is checked as: the request's it answers (the version an MCP
    /// `initialize` response names becomes the session's), else the session's.
    fn protocol_of_response(
        &self,
        transcript: &mut Transcript,
        answer: &Answer,
        result: Option<&Value>,
    ) -> Protocol {
        match answer {
            Answer::Paired(Request {
                method, protocol, ..
            }) => {
                if let (Protocol::Mcp { .. }, "initialize") = (protocol, method.as_str()) {
                    let negotiated = result
                        .and_then(|result| result.get("protocolVersion"))
                        .and_then(Value::as_str)
                        .and_then(mcp::known);
                    if let Some(version) = negotiated {
                        transcript.set_mcp_version(version);
                        return Protocol::Mcp { version };
                    }
                }
                *protocol
            }
            Answer::Ambiguous(requests) => requests[0].protocol,
            Answer::NotSeen => self.protocol_in(transcript, &Map::new()),
        }
    }

    /// The session's protocol (ACP until the transcript shows one), with the MCP version rule.
    pub(super) fn protocol_in(
        &self,
        transcript: &mut Transcript,
        object: &Map<String, Value>,
    ) -> Protocol {
        match transcript.family() {
            None | Some(Family::Acp) => Protocol::Acp,
            Some(Family::Mcp) => {
                let version = match transcript.mcp_version() {
                    Some(version) => version,
                    None => match meta_version(object).and_then(mcp::known) {
                        Some(version) => {
                            transcript.set_mcp_version(version);
                            version
                        }
                        None => self.default_mcp(),
                    },
                };
                Protocol::Mcp { version }
            }
        }
    }

    /// The protocol a method (or a request's `_meta`) shows, when only one has it.
    pub(super) fn family_of(&self, method: &str, object: &Map<String, Value>) -> Option<Family> {
        if meta_version(object).is_some() {
            return Some(Family::Mcp);
        }
        let acp = method.starts_with('_') || self.acp.method(method).is_some();
        match (acp, self.mcp.knows_method(method)) {
            (true, false) => Some(Family::Acp),
            (false, true) => Some(Family::Mcp),
            _ => None,
        }
    }

    /// Whether MCP `version` has `initialize` (2026-07-28 opens with `server/discover`).
    fn defines_initialize(&self, version: &str) -> bool {
        self.mcp
            .get(version)
            .is_ok_and(|schema| schema.method("initialize").is_some())
    }

    /// The newest MCP version that has `initialize`.
    fn newest_with_initialize(&self) -> &'static str {
        mcp::MCP_VERSIONS
            .iter()
            .rev()
            .copied()
            .find(|version| self.defines_initialize(version))
            .unwrap_or_else(mcp::newest)
    }

    /// The MCP version of a session that did not say which.
    pub(super) fn default_mcp(&self) -> &'static str {
        self.mcp_version.unwrap_or_else(mcp::newest)
    }

    /// The note of the first message of an MCP session checked against a version that neither
    /// the transcript nor `--mcp-version` gave (the newest): which, why, and how to choose.
    pub(super) fn assumed_version_note(
        &self,
        transcript: &mut Transcript,
        protocol: Option<Protocol>,
    ) -> Option<String> {
        let Some(Protocol::Mcp { version }) = protocol else {
            return None;
        };
        if let Some(offered) = transcript.handshake_offer() {
            if transcript.note_assumption() {
                return None;
            }
            return Some(format!(
                "`initialize` offers MCP `{offered}`, which has no `initialize` (it opens with \
                 `server/discover`): a handshake offer the server may counter, checked as \
                 {version}, the newest version with `initialize`; the response settles the \
                 session's version"
            ));
        }
        if self.mcp_version.is_some()
            || transcript.mcp_version().is_some()
            || transcript.note_assumption()
        {
            return None;
        }
        let why = match transcript.unknown_offer() {
            Some(offered) => format!(
                "`initialize` offers MCP version `{offered}`, which the checker does not hold"
            ),
            None => "no `initialize` negotiated an MCP version".to_owned(),
        };
        Some(format!(
            "{why}: checked as {version}, the newest; pass `--mcp-version VERSION` to choose \
             (known: {})",
            mcp::MCP_VERSIONS.join(", ")
        ))
    }

    /// An ACP request or notification.
    fn acp_call(
        &self,
        transcript: &mut Transcript,
        call: &Call<'_>,
        mut envelope: Vec<SchemaError>,
    ) -> Verdict {
        let Call {
            from, method, id, ..
        } = *call;
        if let Some(id) = id {
            envelope.extend(self.schema_errors("RequestId", id, "/id"));
        }
        let known = self.acp.method(method);
        let sender = known.and_then(|known| known.sender);
        envelope.extend(wrong_side(method, from, sender, Side::Agent));
        let kind = match id {
            Some(id) => {
                let role = from.map(Side::role).or(sender);
                let reused = transcript.request(id, method, role, Protocol::Acp);
                envelope.extend(reused.map(|line| id_pending(id, line)));
                Kind::Request {
                    method: method.to_owned(),
                }
            }
            None => Kind::Notification {
                method: method.to_owned(),
            },
        };
        self.check_call(kind, method, known, id.is_some(), call.params, envelope)
    }

    /// A request or notification: the params of a known method against its definition.
    fn check_call(
        &self,
        kind: Kind,
        method: &str,
        known: Option<&Method>,
        has_id: bool,
        params: Option<Body<'_>>,
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
            Ok(validator) if validator.is_valid(&empty) => self.check_definition(
                kind,
                &known.params,
                Body::Parsed(&empty),
                "/params",
                envelope,
            ),
            _ => {
                envelope.push(SchemaError::new(
                    "",
                    format!("`params` is missing; `{method}` requires them"),
                ));
                judge(kind, envelope, None)
            }
        }
    }

    /// An ACP response.
    fn acp_response(
        &self,
        answer: Answer,
        value: &Value,
        message: Envelope<'_>,
        result: Option<Body<'_>>,
        mut envelope: Vec<SchemaError>,
    ) -> Verdict {
        if let Some(id) = message.id {
            envelope.extend(self.schema_errors("RequestId", id, "/id"));
        }
        match (result, message.error) {
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
            (None, None) => unreachable!("the caller checked one is present"),
        }
    }

    /// A successful ACP response: its `result` against the response definition of the request
    /// it answers; against the whole schema when that request was not seen; against each
    /// candidate's when the pairing is ambiguous.
    fn check_result(
        &self,
        answer: Answer,
        message: &Value,
        result: Body<'_>,
        envelope: Vec<SchemaError>,
    ) -> Verdict {
        match answer {
            Answer::Paired(Request { method, .. }) => match self.result_definition(&method) {
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
                ResultDefinition::Unknown => unknown_method_result(method, envelope),
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
            Answer::Ambiguous(requests) => {
                let candidates = requests
                    .into_iter()
                    .map(|request| {
                        let answer = Answer::Paired(request.clone());
                        let verdict = self.check_result(answer, &Value::Null, result, Vec::new());
                        (request.method, verdict)
                    })
                    .collect();
                ambiguous(candidates, envelope)
            }
        }
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
}

/// A request or notification being checked.
pub(super) struct Call<'a> {
    pub(super) from: Option<Side>,
    pub(super) method: &'a str,
    pub(super) id: Option<&'a Value>,
    pub(super) value: &'a Value,
    pub(super) object: &'a Map<String, Value>,
    /// Its `params`, parsed or decoded already.
    pub(super) params: Option<Body<'a>>,
}

/// The `params` and `result` of a JSON-RPC message, when it has them.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bodies<'a> {
    pub(super) params: Option<Body<'a>>,
    pub(super) result: Option<Body<'a>>,
}

/// What an ACP response's result is checked against.
enum ResultDefinition {
    /// Any value (an extension method: `ExtResponse`).
    Any,
    /// `#/$defs/<name>`.
    Definition(String),
    /// Nothing: the method has no definition (or no result definition).
    Unknown,
}

/// The members of a JSON-RPC message the envelope check reads, each looked up once.
#[derive(Debug, Clone, Copy)]
pub(super) struct Envelope<'a> {
    /// The message's members, for what only some messages need (`initialize`'s params, MCP's
    /// `params._meta`, an MCP response's members).
    pub(super) object: &'a Map<String, Value>,
    pub(super) jsonrpc: Option<&'a Value>,
    pub(super) id: Option<&'a Value>,
    pub(super) method: Option<&'a Value>,
    pub(super) error: Option<&'a Value>,
}

impl<'a> Envelope<'a> {
    /// The envelope of the message whose members are `object`.
    pub(super) fn of(object: &'a Map<String, Value>) -> Self {
        Self {
            object,
            jsonrpc: object.get("jsonrpc"),
            id: object.get("id"),
            method: object.get("method"),
            error: object.get("error"),
        }
    }
}

/// `jsonrpc` must be `"2.0"`.
fn version_errors(jsonrpc: Option<&Value>) -> Vec<SchemaError> {
    match jsonrpc {
        Some(Value::String(version)) if version == "2.0" => Vec::new(),
        Some(other) => vec![SchemaError::new(
            "/jsonrpc",
            format!("`jsonrpc` must be `\"2.0\"`, not `{}`", render(other)),
        )],
        None => vec![SchemaError::new(
            "",
            "`jsonrpc` is missing (it must be `\"2.0\"`)",
        )],
    }
}

/// The error of a method sent by the side that does not send it (`peer` names the other side:
/// the agent, the server).
pub(super) fn wrong_side(
    method: &str,
    from: Option<Side>,
    sender: Option<transcript::Role>,
    peer: Side,
) -> Option<SchemaError> {
    let (from, sender) = (from?, sender?);
    if from.role() == sender {
        return None;
    }
    let sender = match sender {
        transcript::Role::Client => Side::Client,
        transcript::Role::Peer => peer,
    };
    Some(SchemaError::new(
        "/method",
        format!("`{method}` is sent by the {sender}, not by the {from}"),
    ))
}

/// The error of a request whose `id` its sender has pending already (on `line`).
pub(super) fn id_pending(id: &Value, line: usize) -> SchemaError {
    SchemaError::new(
        "/id",
        format!(
            "id `{}` is already pending (line {line}): ids are unique per sender until answered",
            render(id)
        ),
    )
}

/// A response to a request that was answered already: `invalid` at `/id`, naming the request's
/// line and the first response's.
fn answered_again(id: &Value, answered: &Answered, error: bool) -> Verdict {
    let method = Some(answered.request.method.clone());
    let kind = if error {
        Kind::ErrorResponse { method }
    } else {
        Kind::Response { method }
    };
    Verdict::invalid(
        kind,
        "/id",
        format!(
            "no request with id `{}` is pending: the one of line {} was answered already (line {})",
            render(id),
            answered.request.line,
            answered.response_line
        ),
    )
    .checked_as(answered.request.protocol)
}

/// The kind of a response with the request it answers.
pub(super) fn response_kind(answer: Answer, error: bool) -> Kind {
    match (answer, error) {
        (Answer::Paired(request), false) => Kind::Response {
            method: Some(request.method),
        },
        (Answer::Paired(request), true) => Kind::ErrorResponse {
            method: Some(request.method),
        },
        (Answer::NotSeen, false) => Kind::Response { method: None },
        (Answer::NotSeen, true) => Kind::ErrorResponse { method: None },
        (Answer::Ambiguous(requests), error) => Kind::AmbiguousResponse {
            methods: requests.into_iter().map(|r| r.method).collect(),
            error,
        },
    }
}

/// A result answering a request whose method has no definition: `unchecked` (or `invalid` when
/// the envelope is).
pub(super) fn unknown_method_result(method: String, envelope: Vec<SchemaError>) -> Verdict {
    let message = format!(
        "`{method}` has no definition in the schema: the result cannot be checked against a \
         result definition"
    );
    let kind = Kind::ResponseToUnknownMethod { method };
    match envelope.into_iter().next() {
        Some(first) => Verdict::invalid(kind, first.pointer, first.message),
        None => Verdict::unchecked(kind, "/result", message),
    }
}

/// A result that answers one of several requests (the line does not say which), from its verdict
/// as the answer to each: `ok` (or `lenient`) when it fits each, `invalid` when it fits none,
/// else `unchecked`, naming each candidate.
pub(super) fn ambiguous(candidates: Vec<(String, Verdict)>, envelope: Vec<SchemaError>) -> Verdict {
    let kind = Kind::AmbiguousResponse {
        methods: candidates
            .iter()
            .map(|(method, _)| method.clone())
            .collect(),
        error: false,
    };
    if let Some(first) = envelope.into_iter().next() {
        return Verdict::invalid(kind, first.pointer, first.message);
    }
    let fits = |verdict: &Verdict| matches!(verdict.status, Status::Ok | Status::Lenient);
    let named = |(method, verdict): &(String, Verdict)| match &verdict.status {
        Status::Invalid { pointer, message } | Status::Unchecked { pointer, message } => {
            format!("as the answer to `{method}`, `{pointer}`: {message}")
        }
        Status::OverLimit { message } => format!("as the answer to `{method}`: {message}"),
        Status::Ok | Status::Lenient => format!("valid as the answer to `{method}`"),
    };
    if candidates.iter().all(|(_, verdict)| fits(verdict)) {
        // Valid whichever request it answers.
        let report: Vec<_> = candidates
            .into_iter()
            .flat_map(|(_, verdict)| verdict.report)
            .collect();
        return Verdict::valid(kind, report);
    }
    let message = candidates.iter().map(named).collect::<Vec<_>>().join("; ");
    let all_invalid = candidates
        .iter()
        .all(|(_, verdict)| matches!(verdict.status, Status::Invalid { .. }));
    match (all_invalid, &candidates[0].1.status) {
        (true, Status::Invalid { pointer, .. }) => Verdict::invalid(
            kind,
            pointer.clone(),
            format!("invalid whichever request it answers: {message}"),
        ),
        _ => Verdict::unchecked(
            kind,
            "/result",
            format!(
                "requests with this `id` are pending in both directions and the line does not \
                 say who sent it ({message}); wrap lines as {{\"from\": ..., \"message\": ...}}"
            ),
        ),
    }
}
