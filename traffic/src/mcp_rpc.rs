//! The MCP checks of a JSON-RPC message, against the official schema of the session's version
//! (`mcp`): a request or notification as a whole against its method's definition, a result
//! against its request's result definition, an error response against the version's error
//! response. Schema-based only: decoding into generated MCP types is not part of the verdict.

use serde_json::{Map, Value};

use super::checker::{judge, Checker};
use super::leaves::{self, SchemaError};
use super::mcp::{McpSchema, ResultCheck};
use super::rpc::{ambiguous, id_pending, response_kind, unknown_method_result, wrong_side, Call};
use super::transcript::{Answer, Request, Side, Transcript};
use super::verdict::{Kind, Protocol, Verdict};

impl Checker {
    /// An MCP request or notification, checked against MCP `version`.
    pub(super) fn mcp_call(
        &self,
        transcript: &mut Transcript,
        version: &'static str,
        call: &Call<'_>,
        mut envelope: Vec<SchemaError>,
    ) -> Verdict {
        let Call {
            from,
            method,
            id,
            value,
            ..
        } = *call;
        let kind = match id {
            Some(_) => Kind::Request {
                method: method.to_owned(),
            },
            None => Kind::Notification {
                method: method.to_owned(),
            },
        };
        let schema = match self.mcp.get(version) {
            Ok(schema) => schema,
            Err(error) => return Verdict::invalid(kind, "", error),
        };
        if let Some(id) = id {
            envelope.extend(mcp_errors(schema, "RequestId", id, "/id"));
        }
        let known = schema.method(method);
        let sender = known.and_then(|known| known.sender);
        envelope.extend(wrong_side(method, from, sender, Side::Server));
        if let Some(id) = id {
            let role = from.map(Side::role).or(sender);
            let task = call
                .object
                .get("params")
                .and_then(|params| params.get("task"))
                .is_some_and(Value::is_object);
            let reused =
                transcript.request_with_task(id, method, role, Protocol::Mcp { version }, task);
            envelope.extend(reused.map(|line| id_pending(id, line)));
        }
        let Some(known) = known else {
            envelope.push(SchemaError::new(
                "/method",
                format!("unknown method `{method}` (MCP {version} does not define it)"),
            ));
            return judge(kind, envelope, None);
        };
        match (known.result.is_some(), id.is_some()) {
            (false, true) => envelope.push(SchemaError::new(
                "/id",
                format!("`{method}` is a notification: it takes no `id`"),
            )),
            (true, false) => envelope.push(SchemaError::new(
                "",
                format!("`{method}` is a request: it needs an `id`"),
            )),
            _ => {}
        }
        let errors = mcp_errors(schema, &known.definition, value, "");
        judge(kind, merge(envelope, errors), None)
    }

    /// An MCP response, checked against MCP `version`.
    pub(super) fn mcp_response(
        &self,
        version: &'static str,
        answer: Answer,
        value: &Value,
        object: &Map<String, Value>,
        mut envelope: Vec<SchemaError>,
    ) -> Verdict {
        let schema = match self.mcp.get(version) {
            Ok(schema) => schema,
            Err(error) => return Verdict::invalid(response_kind(answer, false), "", error),
        };
        if let Some(id) = object.get("id") {
            envelope.extend(mcp_errors(schema, "RequestId", id, "/id"));
        }
        match (object.get("result"), object.get("error")) {
            (Some(_), Some(_)) => {
                envelope.push(SchemaError::new(
                    "",
                    "a response has `result` or `error`, not both",
                ));
                judge(response_kind(answer, false), envelope, None)
            }
            (None, Some(_)) => {
                let errors = mcp_errors(schema, schema.error_response(), value, "");
                judge(response_kind(answer, true), merge(envelope, errors), None)
            }
            (Some(result), None) => mcp_result(schema, answer, value, result, envelope),
            (None, None) => unreachable!("the caller checked one is present"),
        }
    }
}

/// A successful MCP response.
fn mcp_result(
    schema: &McpSchema,
    answer: Answer,
    value: &Value,
    result: &Value,
    envelope: Vec<SchemaError>,
) -> Verdict {
    match answer {
        Answer::Paired(Request { method, task, .. }) => {
            // A task-augmented request is answered by a `CreateTaskResult`.
            let known = schema.method(&method);
            let check = match known.and_then(|known| known.task_result.clone()) {
                Some(task_result) if task => Some(ResultCheck::Result(task_result)),
                _ => known.and_then(|known| known.result.clone()),
            };
            let errors = match &check {
                Some(ResultCheck::Response(definition)) => {
                    mcp_errors(schema, definition, value, "")
                }
                Some(ResultCheck::Result(definition)) => {
                    mcp_errors(schema, definition, result, "/result")
                }
                None => return unknown_method_result(method, envelope),
            };
            judge(
                Kind::Response {
                    method: Some(method),
                },
                merge(envelope, errors),
                None,
            )
        }
        Answer::NotSeen => {
            let errors = mcp_errors(schema, schema.result_response(), value, "");
            judge(
                Kind::Response { method: None },
                merge(envelope, errors),
                None,
            )
        }
        Answer::Ambiguous(requests) => {
            let candidates = requests
                .into_iter()
                .map(|request| {
                    let method = request.method.clone();
                    let verdict =
                        mcp_result(schema, Answer::Paired(request), value, result, Vec::new());
                    (method, verdict)
                })
                .collect();
            ambiguous(candidates, envelope)
        }
    }
}

/// The leaf errors of `value` against `definition`, pointers under `prefix`.
fn mcp_errors(
    schema: &McpSchema,
    definition: &str,
    value: &Value,
    prefix: &str,
) -> Vec<SchemaError> {
    match schema.validator(definition) {
        Ok(validator) if validator.is_valid(value) => Vec::new(),
        Ok(validator) => leaves::collect(validator.iter_errors(value), prefix),
        Err(compile) => vec![SchemaError::new(prefix, compile)],
    }
}

/// The envelope's errors and the schema's, sorted; the schema's errors about `jsonrpc` are
/// dropped when the envelope already has one (from 2025-11-25 the definitions check it too).
fn merge(mut envelope: Vec<SchemaError>, errors: Vec<SchemaError>) -> Vec<SchemaError> {
    let about_jsonrpc =
        |error: &SchemaError| error.pointer == "/jsonrpc" || error.message.contains("jsonrpc");
    let jsonrpc_reported = envelope.iter().any(about_jsonrpc);
    envelope.extend(
        errors
            .into_iter()
            .filter(|error| !(jsonrpc_reported && about_jsonrpc(error))),
    );
    leaves::sort(&mut envelope);
    envelope
}
