//! Canonical result ↔ MCP `CallToolResult`: what a gateway answers an MCP `tools/call` with.
//!
//! **Canonical → MCP** ([`from_outcome`], [`from_result`], [`from_runtime_failure`],
//! [`from_event`]):
//!
//! | canonical | MCP `CallToolResult` |
//! |---|---|
//! | JSON success `v` | `structuredContent: v` and `content: [{"type": "text", "text": <v as compact JSON>}]`, the text fallback MCP recommends for clients that predate structured content (2025-06-18 and 2025-11-25 allow only an object there: another value is carried by the text block alone, and reported `dropped`) |
//! | text success `t` | `content: [{"type": "text", "text": t}]` |
//! | domain failure | `isError: true`, `content: [{"type": "text", "text": message}]`, `structuredContent: {"code", "message", "data"}` (`data` only when the error has one) |
//! | runtime failure `code` | what MCP says a server answers when a tool fails: a tool execution error in the result, not a JSON-RPC error: `isError: true`, ``content: [{"type": "text", "text": "the runtime could not complete the call: `CODE`"}]``, `structuredContent: {"code", "message"}` |
//!
//! MCP 2026-07-28 results also get `"resultType": "complete"`. [`from_result`] reports the
//! members that correlate the result (`transaction_id`, `session_key`, `exchange_id`,
//! `tool_action_id`, `tool_id`, `provider_tool_call_id`, `request_ordinal`) as `dropped`: the
//! JSON-RPC response carries the correlation by its `id`.
//!
//! **MCP → canonical** ([`to_outcome`]; pointers into the MCP result and the canonical
//! outcome's wire form). `isError: true` is a domain failure; absent, `false` or `null` a
//! success (`false` and `null` are reported `dropped`: the canonical success has no member for
//! them); another type is refused ([`McpResultError::IsError`]). A `resultType` other than
//! `complete` (2026-07-28's `input_required`) is refused ([`McpResultError::NotComplete`]);
//! `complete` is written back by [`from_outcome`] for 2026-07-28 and not reported.
//! - A domain failure: `structuredContent` of the shape above (`code`, `message`, `data` only)
//!   whose `code` and `message` the canonical model accepts gives it back exactly (the first
//!   text block equal to the message is its text; any other block is `dropped`). MCP's wire
//!   has no member telling a runtime failure from a domain failure (both are `isError: true`)
//!   and a canonical outcome holds no runtime failure: the result [`from_runtime_failure`]
//!   writes reads back as a domain failure of the runtime code (`panicked`) and its message,
//!   reported `derived` from `/isError` to `/type` so that the distinction is not lost
//!   silently (a caller that needs the runtime failure reads the code from the report's
//!   entry, or from `structuredContent.code`). Otherwise
//!   (no such shape, or a third party's `{"code", "message"}` the canonical model refuses, the
//!   refused member reported `derived` into the data) its `code` is `tool_error` (`defaulted`),
//!   its message the text blocks joined by a space (control characters replaced by spaces, cut
//!   at 4096 bytes; `derived` unless it is one block as it was; none: `the tool reported an
//!   error`, `defaulted`), and its `data` the `structuredContent` (`derived`).
//! - A success with `structuredContent` (any value, `null` included: 2026-07-28 allows any JSON
//!   value) is a JSON success. Its text fallback is the first text block whose text parses to
//!   a value equal to it as JSON Schema compares values (objects in any member order, numbers
//!   by their value: `2` equals `2.0`), whatever order serde_json keeps members in (its
//!   `preserve_order` feature, which another crate of a build may turn on). Its other members
//!   (`annotations`, `_meta`) are `dropped`, and so is its text when [`from_outcome`] would
//!   write a number of it otherwise (`2` where `structuredContent` has `2.0`, `1e2`, written
//!   `100.0`); member order and whitespace are not meaning and are not reported. Every other
//!   content block, a second fallback included, is `dropped`.
//! - A success without `structuredContent`: one text block is a text success, several are
//!   joined by a line break (`derived`), none give `""` (`defaulted`); every other block is
//!   `dropped`, as are members of a text block other than `type` and `text`.
//!
//! `_meta` and unknown members of the result are `dropped`.
//!
//! ```
//! use serde_json::json;
//! use toolcall_contracts::canonical::{CanonicalToolOutput, CanonicalToolResultOutcome};
//! use toolcall_hops::mcp_result::from_outcome;
//! use toolcall_contracts::mcp::v2025_11_25::CallToolResult;
//!
//! let outcome = CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Json(json!({"temperature": 36})));
//! let result = from_outcome::<CallToolResult>(&outcome)?;
//! assert_eq!(serde_json::to_value(&result.value)?, json!({
//!     "content": [{"type": "text", "text": "{\"temperature\":36}"}],
//!     "structuredContent": {"temperature": 36}
//! }));
//! assert!(result.report.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde_json::{json, Map, Value};

use super::mcp_tool::replace_controls;
use super::numbers;
use super::report::{by_name, sorted, Change, Converted};
use super::versions::{from_object, to_object, McpCallToolResult};
use toolcall_contracts::__private::json_equal;
use toolcall_contracts::__private::json_type;
use toolcall_contracts::canonical::{
    CanonicalToolError, CanonicalToolOutput, CanonicalToolResult, CanonicalToolResultOutcome,
    ToolContractError, ToolLifecycleEvent, ToolRuntimeErrorCode, MAX_ERROR_MESSAGE_BYTES,
};
use toolcall_contracts::pointer;

/// The `code` of a domain failure read from an MCP error result that does not name one.
pub const MCP_TOOL_ERROR_CODE: &str = "tool_error";

/// The message of a domain failure read from an MCP error result without text.
pub const MCP_TOOL_ERROR_MESSAGE: &str = "the tool reported an error";

/// Why a result could not be converted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum McpResultError {
    /// A `started` event has no result.
    #[error("a `started` event has no result")]
    NotTerminal,
    /// The MCP result has no `content` array.
    #[error("`/content` must be an array")]
    MissingContent,
    /// `isError` is neither a boolean nor `null`.
    #[error("`/isError` must be a boolean, found {found}")]
    IsError {
        /// JSON type found.
        found: &'static str,
    },
    /// The result does not end the call: `resultType` is not `complete` (MCP 2026-07-28's
    /// `input_required` asks the client for input and a retry).
    #[error("`/resultType` is `{result_type}`: the result does not end the call")]
    NotComplete {
        /// The `resultType` found.
        result_type: String,
    },
    /// The domain failure read from the MCP result breaks the canonical rules (never for the
    /// text the conversion derives; kept for a future rule).
    #[error("`{pointer}` is refused: {source}")]
    Canonical {
        /// Pointer into the MCP result.
        pointer: &'static str,
        /// The canonical refusal.
        #[source]
        source: ToolContractError,
    },
    /// The MCP type of the requested version refused the JSON built for it.
    #[error("MCP {version} `CallToolResult` refused the converted result: {message}")]
    Mcp {
        /// The MCP version.
        version: &'static str,
        /// serde's message.
        message: String,
    },
}

/// Converts the outcome of a completed call into an MCP `CallToolResult` of the version `R`;
/// pointers in the report are into the outcome's wire form.
///
/// # Errors
/// [`McpResultError::Mcp`] when the version's type refuses the result (never for the served
/// versions).
pub fn from_outcome<R: McpCallToolResult>(
    outcome: &CanonicalToolResultOutcome,
) -> Result<Converted<R>, McpResultError> {
    let (result, report) = outcome_to_result(outcome, R::STRUCTURED_CONTENT_ANY);
    finish::<R>(result, report)
}

/// [`from_outcome`] on a whole result, its correlation members reported `dropped`.
///
/// # Errors
/// As [`from_outcome`].
pub fn from_result<R: McpCallToolResult>(
    result: &CanonicalToolResult,
) -> Result<Converted<R>, McpResultError> {
    let (converted, mut report) = outcome_to_result(&result.outcome, R::STRUCTURED_CONTENT_ANY);
    for change in &mut report {
        if let Some(from) = &mut change.from {
            from.insert_str(0, "/outcome");
        }
    }
    let correlation = [
        ("transaction_id", json!(result.transaction_id.as_str())),
        (
            "session_key",
            serde_json::to_value(&result.session_key).unwrap_or(Value::Null),
        ),
        ("exchange_id", json!(result.exchange_id.as_str())),
        ("tool_action_id", json!(result.tool_action_id.as_str())),
        ("tool_id", json!(result.tool_id.as_str())),
        ("provider_tool_call_id", json!(result.provider_tool_call_id)),
        ("request_ordinal", json!(result.request_ordinal)),
    ];
    for (member, value) in correlation {
        report.push(Change::dropped(
            pointer::join("", member),
            value,
            "correlation of the call: the JSON-RPC response carries it by its `id`",
        ));
    }
    finish::<R>(converted, report)
}

/// The MCP `CallToolResult` for a call the runtime could not complete (see the
/// [module docs](self)).
///
/// # Errors
/// As [`from_outcome`].
pub fn from_runtime_failure<R: McpCallToolResult>(
    code: ToolRuntimeErrorCode,
) -> Result<Converted<R>, McpResultError> {
    let message = runtime_failure_message(code);
    let mut result = Map::new();
    result.insert("content".to_owned(), json!([text_block(&message)]));
    result.insert("isError".to_owned(), json!(true));
    result.insert(
        "structuredContent".to_owned(),
        json!({"code": code.as_str(), "message": message}),
    );
    finish::<R>(result, Vec::new())
}

/// The MCP `CallToolResult` ending a call's lifecycle: [`from_result`] for `completed`,
/// [`from_runtime_failure`] for `runtime_failed` (its `tool_action_id` and `tool_id` reported
/// `dropped`).
///
/// # Errors
/// [`McpResultError::NotTerminal`] for `started`; else as [`from_outcome`].
pub fn from_event<R: McpCallToolResult>(
    event: &ToolLifecycleEvent,
) -> Result<Converted<R>, McpResultError> {
    match event {
        ToolLifecycleEvent::Started { .. } => Err(McpResultError::NotTerminal),
        ToolLifecycleEvent::Completed { result } => from_result(result),
        ToolLifecycleEvent::RuntimeFailed {
            tool_action_id,
            tool_id,
            code,
        } => {
            let mut converted = from_runtime_failure::<R>(*code)?;
            let reason = "correlation of the call: the JSON-RPC response carries it by its `id`";
            converted.report.push(Change::dropped(
                "/tool_action_id",
                json!(tool_action_id.as_str()),
                reason,
            ));
            converted
                .report
                .push(Change::dropped("/tool_id", json!(tool_id.as_str()), reason));
            Ok(converted)
        }
    }
}

/// The text of a runtime failure's result: ``the runtime could not complete the call: `code` ``.
#[must_use]
pub fn runtime_failure_message(code: ToolRuntimeErrorCode) -> String {
    format!(
        "the runtime could not complete the call: `{}`",
        code.as_str()
    )
}

/// Converts an MCP `CallToolResult` (any served version) into a canonical outcome; see the
/// [module docs](self).
///
/// # Errors
/// [`McpResultError::MissingContent`] without a `content` array; [`McpResultError::IsError`]
/// when `isError` is neither a boolean nor `null`; [`McpResultError::NotComplete`] for a
/// `resultType` other than `complete`.
pub fn to_outcome<R: McpCallToolResult>(
    result: &R,
) -> Result<Converted<CanonicalToolResultOutcome>, McpResultError> {
    result_to_outcome(to_object(result))
}

/// [`to_outcome`] on the JSON of a result (any MCP version).
///
/// # Errors
/// As [`to_outcome`].
pub fn result_to_outcome(
    mut result: Map<String, Value>,
) -> Result<Converted<CanonicalToolResultOutcome>, McpResultError> {
    let mut report = Vec::new();
    match result.get("resultType") {
        Some(Value::String(complete)) if complete == "complete" => {
            // MCP 2026-07-28 writes it on every complete result; `from_outcome` writes it back.
            result.remove("resultType");
        }
        Some(Value::String(other)) => {
            return Err(McpResultError::NotComplete {
                result_type: other.clone(),
            })
        }
        _ => {}
    }
    let Some(Value::Array(content)) = result.remove("content") else {
        return Err(McpResultError::MissingContent);
    };
    let is_error = match result.remove("isError") {
        None => false,
        Some(Value::Bool(true)) => true,
        Some(Value::Bool(false)) => {
            report.push(Change::dropped(
                "/isError",
                json!(false),
                "`false` is MCP's default: the canonical success has no member for it",
            ));
            false
        }
        Some(Value::Null) => {
            report.push(Change::dropped(
                "/isError",
                Value::Null,
                "`null` is read as absent: the call succeeded",
            ));
            false
        }
        Some(other) => {
            return Err(McpResultError::IsError {
                found: json_type(&other),
            })
        }
    };
    // Absent: no structured content; any value, `null` included (MCP 2026-07-28 allows any
    // JSON value there), is the JSON output.
    let structured = result.remove("structuredContent");
    for (member, value) in by_name(result) {
        report.push(Change::dropped(
            pointer::join("", &member),
            value,
            "the canonical outcome has no member for it",
        ));
    }
    let outcome = if is_error {
        CanonicalToolResultOutcome::DomainFailed(error_outcome(&content, structured, &mut report)?)
    } else {
        CanonicalToolResultOutcome::Succeeded(success_outcome(&content, structured, &mut report))
    };
    Ok(Converted {
        value: outcome,
        report,
    })
}

fn outcome_to_result(
    outcome: &CanonicalToolResultOutcome,
    structured_any: bool,
) -> (Map<String, Value>, Vec<Change>) {
    let mut result = Map::new();
    let mut report = Vec::new();
    match outcome {
        CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Json(value)) => {
            let text = value.to_string();
            result.insert("content".to_owned(), json!([text_block(&text)]));
            if structured_any || value.is_object() {
                result.insert("structuredContent".to_owned(), value.clone());
            } else {
                report.push(Change::dropped(
                    "/output/value",
                    value.clone(),
                    "MCP `structuredContent` must be an object in this version: the value is carried by the text block alone",
                ));
            }
        }
        CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Text(text)) => {
            result.insert("content".to_owned(), json!([text_block(text)]));
        }
        CanonicalToolResultOutcome::DomainFailed(error) => {
            result.insert("content".to_owned(), json!([text_block(error.message())]));
            result.insert("isError".to_owned(), json!(true));
            let mut structured = json!({"code": error.code(), "message": error.message()});
            if let Some(data) = error.data() {
                structured["data"] = data.clone();
            }
            result.insert("structuredContent".to_owned(), structured);
        }
    }
    (result, report)
}

fn finish<R: McpCallToolResult>(
    mut result: Map<String, Value>,
    report: Vec<Change>,
) -> Result<Converted<R>, McpResultError> {
    R::complete(&mut result);
    let value = from_object(result).map_err(|message| McpResultError::Mcp {
        version: R::PROTOCOL_VERSION,
        message,
    })?;
    Ok(Converted { value, report })
}

/// The runtime failure whose result [`from_runtime_failure`] writes is this error (its code a
/// runtime code, its message that code's message, no data).
fn runtime_failure_code(error: &CanonicalToolError) -> Option<ToolRuntimeErrorCode> {
    let code: ToolRuntimeErrorCode = serde_json::from_value(json!(error.code())).ok()?;
    (error.data().is_none() && error.message() == runtime_failure_message(code)).then_some(code)
}

fn text_block(text: &str) -> Value {
    json!({"type": "text", "text": text})
}

/// The text of a text block, its other members reported (`why` they are not carried).
fn block_text<'a>(
    index: usize,
    block: &'a Value,
    why: &str,
    report: &mut Vec<Change>,
) -> Option<&'a str> {
    let object = block.as_object()?;
    if object.get("type") != Some(&json!("text")) {
        return None;
    }
    let text = object.get("text")?.as_str()?;
    for (member, value) in by_name(object.clone()) {
        if member != "type" && member != "text" {
            report.push(Change::dropped(
                format!("/content/{index}/{}", pointer::escape(&member)),
                value,
                why,
            ));
        }
    }
    Some(text)
}

fn drop_block(index: usize, block: &Value, report: &mut Vec<Change>) {
    report.push(Change::dropped(
        format!("/content/{index}"),
        block.clone(),
        "the canonical output holds text or JSON, not this content block",
    ));
}

fn success_outcome(
    content: &[Value],
    structured: Option<Value>,
    report: &mut Vec<Change>,
) -> CanonicalToolOutput {
    if let Some(value) = structured {
        // The first text block whose text is this JSON (as JSON Schema compares values) is its
        // fallback; any other block, a second fallback included, is dropped.
        let mut fallback = false;
        for (index, block) in content.iter().enumerate() {
            let text = block
                .get("text")
                .and_then(Value::as_str)
                .filter(|_| !fallback && block.get("type") == Some(&json!("text")))
                .and_then(|text| Some((text, serde_json::from_str::<Value>(text).ok()?)))
                .filter(|(_, parsed)| json_equal(parsed, &value));
            let Some((text, parsed)) = text else {
                drop_block(index, block, report);
                continue;
            };
            fallback = true;
            block_text(
                index,
                block,
                "the canonical output is the JSON alone, not the members of its text fallback",
                report,
            );
            // Carried when `from_outcome` writes every number of it as the text has it (member
            // order and whitespace aside): the texts of both values, members in name order.
            // (Written only here: one block at most is the fallback.)
            let (written, as_written) = (
                sorted(value.clone()).to_string(),
                sorted(parsed).to_string(),
            );
            if as_written != written || !numbers::changed(text.as_bytes()).is_empty() {
                report.push(Change::dropped(
                    format!("/content/{index}/text"),
                    json!(text),
                    "the text fallback writes a number otherwise than the JSON of `structuredContent` is written (`2` for `2.0`, `1e2` for `100.0`): the canonical output keeps the JSON, whose text fallback is written from it",
                ));
            }
        }
        return CanonicalToolOutput::Json(value);
    }
    let mut texts = Vec::new();
    for (index, block) in content.iter().enumerate() {
        match block_text(
            index,
            block,
            "the canonical output is the text alone",
            report,
        ) {
            Some(text) => texts.push(text),
            None => drop_block(index, block, report),
        }
    }
    match texts.as_slice() {
        [] => {
            report.push(Change::defaulted(
                "/output/text",
                json!(""),
                "the MCP result has no text block",
            ));
            CanonicalToolOutput::Text(String::new())
        }
        [one] => CanonicalToolOutput::Text((*one).to_owned()),
        many => {
            let joined = many.join("\n");
            report.push(Change::derived(
                "/content",
                "/output/text",
                json!(joined),
                "several text blocks joined by a line break",
            ));
            CanonicalToolOutput::Text(joined)
        }
    }
}

fn error_outcome(
    content: &[Value],
    structured: Option<Value>,
    report: &mut Vec<Change>,
) -> Result<CanonicalToolError, McpResultError> {
    // The shape `from_outcome` writes: `{"code", "message"[, "data"]}`, the message as the one
    // text block.
    if let Some(Value::Object(object)) = &structured {
        let code = object.get("code").and_then(Value::as_str);
        let message = object.get("message").and_then(Value::as_str);
        let only_ours = object
            .keys()
            .all(|key| matches!(key.as_str(), "code" | "message" | "data"));
        if let (Some(code), Some(message), true) = (code, message, only_ours) {
            match CanonicalToolError::try_new(
                code,
                message,
                object.get("data").cloned(),
                MAX_ERROR_MESSAGE_BYTES,
            ) {
                Ok(error) => {
                    if let Some(code) = runtime_failure_code(&error) {
                        report.push(Change::derived(
                            "/isError",
                            "/type",
                            json!("domain_failed"),
                            format!(
                                "MCP's `isError` does not tell a runtime failure from a domain failure: this is the result written for the runtime failure `{code}`, read as a domain failure of that code"
                            ),
                        ));
                    }
                    // The first block that is the message as text is its text; any other is
                    // dropped.
                    let mut seen = false;
                    for (index, block) in content.iter().enumerate() {
                        if !seen && block == &text_block(message) {
                            seen = true;
                        } else {
                            drop_block(index, block, report);
                        }
                    }
                    return Ok(error);
                }
                // A third party's payload of the same shape: the generic path keeps it as data.
                Err(source) => {
                    let member = match source {
                        ToolContractError::InvalidErrorCode { .. } => "code",
                        _ => "message",
                    };
                    report.push(Change::derived(
                        pointer::join("/structuredContent", member),
                        pointer::join("/error/data", member),
                        object.get(member).cloned().unwrap_or(Value::Null),
                        format!(
                            "not a canonical error `{member}` ({source}): the structured content is read as the error's data"
                        ),
                    ));
                }
            }
        }
    }
    let mut texts = Vec::new();
    for (index, block) in content.iter().enumerate() {
        match block_text(
            index,
            block,
            "the canonical error message is the text alone",
            report,
        ) {
            Some(text) => texts.push(text),
            None => drop_block(index, block, report),
        }
    }
    let joined = texts.join(" ");
    let mut message = replace_controls(&joined);
    if message.len() > MAX_ERROR_MESSAGE_BYTES {
        let mut end = MAX_ERROR_MESSAGE_BYTES;
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        message.truncate(end);
    }
    if message.is_empty() {
        message = MCP_TOOL_ERROR_MESSAGE.to_owned();
        report.push(Change::defaulted(
            "/error/message",
            json!(message),
            "the MCP error result has no text",
        ));
    } else if texts.len() != 1 || message != joined {
        report.push(Change::derived(
            "/content",
            "/error/message",
            json!(message),
            "text blocks joined by a space, control characters replaced by spaces, at most 4096 bytes",
        ));
    }
    report.push(Change::defaulted(
        "/error/code",
        json!(MCP_TOOL_ERROR_CODE),
        "an MCP error result names no code",
    ));
    if let Some(data) = &structured {
        report.push(Change::derived(
            "/structuredContent",
            "/error/data",
            data.clone(),
            "the structured content of an error result is its data",
        ));
    }
    CanonicalToolError::try_new(
        MCP_TOOL_ERROR_CODE,
        message,
        structured,
        MAX_ERROR_MESSAGE_BYTES,
    )
    .map_err(|source| McpResultError::Canonical {
        pointer: "/content",
        source,
    })
}
