//! Tool-call lifecycle → ACP `session/update`: what an agent reports to the editor for a call it
//! runs, from the canonical lifecycle or from the MCP messages of a call it relays.
//!
//! | source | ACP update |
//! |---|---|
//! | canonical `Started` with its [`ToolCall`] ([`tool_call`]), or an MCP `tools/call` ([`mcp_tool_call`]) | `tool_call`: `toolCallId`, `title` (the caller's, else the tool name), `kind` (the caller's [`ToolKinds`], `other` by default), `status: "in_progress"`, `rawInput` (the arguments), `name` (the tool name) |
//! | MCP `notifications/progress` ([`progress_update`]) | `tool_call_update`, `status: "in_progress"`, `content`: one text block, `progress P of T: MESSAGE` (`of T` and `: MESSAGE` when sent; numbers as sent) |
//! | canonical `Completed` ([`completion_update`]) | `tool_call_update`, `completed` (success) or `failed` (domain failure), `content`: one text block (the text, the JSON as compact text, or the error's message), `rawOutput`: the JSON value, the text as a JSON string, or `{"code", "message", "data"}` |
//! | canonical `RuntimeFailed` ([`completion_update`]) | `tool_call_update`, `failed`, `content`: ``the runtime could not complete the call: `CODE` ``, `rawOutput: {"code"}` |
//! | MCP `CallToolResult` ([`result_update`]) | `tool_call_update`, `failed` when `isError: true`, else `completed`; `content`: each MCP content block as ACP content (ACP's `ContentBlock` is MCP's); `rawOutput`: the whole result |
//! | MCP JSON-RPC error response ([`error_update`]) | `tool_call_update`, `failed`, `content`: the error's message, `rawOutput`: the error object |
//! | MCP `notifications/cancelled` ([`cancelled_update`]) | `tool_call_update`, `failed`, `content`: `cancelled: REASON` (or `cancelled`) |
//!
//! Applying the updates of one call, in order, to its `tool_call` with
//! [`toolcall_contracts::acp::ToolCall::apply`] gives the call's final state: its last status, content and
//! output.
//!
//! Reported `dropped`: from a canonical call, `tool_id`, `provider_tool_call_id` and
//! `request_ordinal` (ACP has no member for them); from MCP, `_meta` members other than
//! `progressToken` and the per-request envelope of 2026-07-28 ([`REQUEST_ENVELOPE`]), and a
//! content block ACP refuses (it stays in `rawOutput`). The `progressToken`, the request id and
//! a task id are what select the call, and the envelope is the protocol's (as `jsonrpc` is):
//! they are not reported.
//!
//! ```
//! use serde_json::json;
//! use toolcall_contracts::acp::ToolCallId;
//! use toolcall_hops::acp_updates::progress_update;
//! use toolcall_contracts::mcp::v2025_11_25::ProgressNotificationParams;
//!
//! let params: ProgressNotificationParams =
//!     serde_json::from_value(json!({"progress": 1, "total": 5, "progressToken": 19}))?;
//! let update = progress_update(&ToolCallId::from("mcp-1-19"), &params)?;
//! assert_eq!(serde_json::to_value(&update.value)?, json!({
//!     "toolCallId": "mcp-1-19",
//!     "status": "in_progress",
//!     "content": [{"type": "content", "content": {"type": "text", "text": "progress 1 of 5"}}]
//! }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::mcp_result::runtime_failure_message;
use super::report::{by_name, Change, Converted};
use super::versions::{to_object, McpCallToolResult, McpProgressParams};
use toolcall_contracts::acp::{
    Content, ContentBlock, SessionId, SessionNotification, SessionUpdate, TextContent,
    ToolCall as AcpToolCall, ToolCallContent, ToolCallId, ToolCallStatus, ToolCallUpdate, ToolKind,
};
use toolcall_contracts::canonical::{
    CanonicalToolOutput, CanonicalToolResultOutcome, ToolCall, ToolLifecycleEvent,
};
use toolcall_contracts::{pointer, MaybeUndefined};

/// The ACP `kind` of each tool, by key (the canonical `tool_id`, or the MCP tool name); a tool
/// not listed is `other`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolKinds {
    kinds: BTreeMap<String, ToolKind>,
}

impl ToolKinds {
    /// No tool listed: every tool is `other`.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The same map with `key` of `kind`.
    #[must_use]
    pub fn with(mut self, key: impl Into<String>, kind: ToolKind) -> Self {
        self.kinds.insert(key.into(), kind);
        self
    }

    /// The kind of `key`: its listed kind, else `other`.
    #[must_use]
    pub fn kind(&self, key: &str) -> ToolKind {
        self.kinds.get(key).copied().unwrap_or(ToolKind::Other)
    }
}

/// Why an update could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AcpUpdateError {
    /// [`tool_call`] takes a `started` event, [`completion_update`] a `completed` or
    /// `runtime_failed` one.
    #[error("a `{found}` event cannot start or end a tool call here")]
    WrongEvent {
        /// The event's type.
        found: &'static str,
    },
    /// The `started` event is for another tool than the call.
    #[error("the `started` event is for tool `{event}`, the call for `{call}`")]
    ToolMismatch {
        /// The event's `tool_id`.
        event: String,
        /// The call's `tool_id`.
        call: String,
    },
    /// An MCP member the update needs is missing or of the wrong type.
    #[error("`{pointer}` is missing or not {expected}")]
    Mcp {
        /// Pointer into the MCP message's `params` (or result).
        pointer: &'static str,
        /// What it must be.
        expected: &'static str,
    },
}

/// The `tool_call` announcing a canonical call the runtime started: `toolCallId` is the
/// event's `tool_action_id`; `title` is `title`, else the tool name.
///
/// # Errors
/// [`AcpUpdateError::WrongEvent`] unless `started` is `Started`;
/// [`AcpUpdateError::ToolMismatch`] when it is for another tool.
pub fn tool_call(
    call: &ToolCall,
    started: &ToolLifecycleEvent,
    title: Option<&str>,
    kinds: &ToolKinds,
) -> Result<Converted<AcpToolCall>, AcpUpdateError> {
    let ToolLifecycleEvent::Started {
        tool_action_id,
        tool_id,
    } = started
    else {
        return Err(AcpUpdateError::WrongEvent {
            found: event_type(started),
        });
    };
    if tool_id != &call.tool_id {
        return Err(AcpUpdateError::ToolMismatch {
            event: tool_id.to_string(),
            call: call.tool_id.to_string(),
        });
    }
    let mut update = AcpToolCall::new(
        tool_action_id.as_str(),
        title.unwrap_or(call.tool_name.as_str()),
    );
    update.name = MaybeUndefined::Value(call.tool_name.to_string());
    update.kind = Some(kinds.kind(tool_id.as_str()));
    update.status = Some(ToolCallStatus::InProgress);
    update.raw_input = MaybeUndefined::Value(call.arguments.clone());
    let reason = "ACP's tool call has no member for it";
    let report = vec![
        Change::dropped("/tool_id", json!(call.tool_id.as_str()), reason),
        Change::dropped(
            "/provider_tool_call_id",
            json!(call.provider_tool_call_id),
            reason,
        ),
        Change::dropped("/request_ordinal", json!(call.request_ordinal), reason),
    ];
    Ok(Converted {
        value: update,
        report,
    })
}

/// The `tool_call_update` ending a canonical call: `completed` or `failed` with its content and
/// `rawOutput` (see the [module docs](self)); `toolCallId` is the event's `tool_action_id`.
///
/// # Errors
/// [`AcpUpdateError::WrongEvent`] for a `started` event.
pub fn completion_update(
    event: &ToolLifecycleEvent,
) -> Result<Converted<ToolCallUpdate>, AcpUpdateError> {
    let (id, status, text, raw_output) = match event {
        ToolLifecycleEvent::Started { .. } => {
            return Err(AcpUpdateError::WrongEvent { found: "started" })
        }
        ToolLifecycleEvent::Completed { result } => {
            let (status, text, raw) = match &result.outcome {
                CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Json(value)) => {
                    (ToolCallStatus::Completed, value.to_string(), value.clone())
                }
                CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Text(text)) => {
                    (ToolCallStatus::Completed, text.clone(), json!(text))
                }
                CanonicalToolResultOutcome::DomainFailed(error) => (
                    ToolCallStatus::Failed,
                    error.message().to_owned(),
                    serde_json::to_value(error).unwrap_or(Value::Null),
                ),
            };
            (result.tool_action_id.as_str(), status, text, raw)
        }
        ToolLifecycleEvent::RuntimeFailed {
            tool_action_id,
            code,
            ..
        } => (
            tool_action_id.as_str(),
            ToolCallStatus::Failed,
            runtime_failure_message(*code),
            json!({"code": code.as_str()}),
        ),
    };
    let mut update = ToolCallUpdate::new(id);
    update.status = MaybeUndefined::Value(status);
    update.content = MaybeUndefined::Value(vec![text_content(text)]);
    update.raw_output = MaybeUndefined::Value(raw_output);
    Ok(Converted::exact(update))
}

/// The `tool_call` for an MCP `tools/call` an agent relays, from the JSON of its `params` (any
/// MCP version): `title` is `title` (such as the tool's title from `tools/list`), else the
/// tool name; the kind is the name's in `kinds`. Pointers are into `params`.
///
/// # Errors
/// [`AcpUpdateError::Mcp`] when `params` has no string `name`.
pub fn mcp_tool_call(
    tool_call_id: &ToolCallId,
    params: &Map<String, Value>,
    title: Option<&str>,
    kinds: &ToolKinds,
) -> Result<Converted<AcpToolCall>, AcpUpdateError> {
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .ok_or(AcpUpdateError::Mcp {
            pointer: "/name",
            expected: "a string",
        })?;
    let mut call = AcpToolCall::new(tool_call_id.clone(), title.unwrap_or(name));
    call.name = MaybeUndefined::Value(name.to_owned());
    call.kind = Some(kinds.kind(name));
    call.status = Some(ToolCallStatus::InProgress);
    let mut report = Vec::new();
    for (member, value) in by_name(params.clone()) {
        match member.as_str() {
            "name" | "task" => {}
            "arguments" => call.raw_input = MaybeUndefined::Value(value),
            "_meta" => match value {
                Value::Object(meta) => {
                    for (key, value) in by_name(meta) {
                        if key != "progressToken" && !REQUEST_ENVELOPE.contains(&key.as_str()) {
                            report.push(Change::dropped(
                                pointer::join("/_meta", &key),
                                value,
                                "ACP's tool call has no member for MCP request metadata",
                            ));
                        }
                    }
                }
                other => report.push(Change::dropped(
                    "/_meta",
                    other,
                    "ACP's tool call has no member for MCP request metadata",
                )),
            },
            _ => report.push(Change::dropped(
                pointer::join("", &member),
                value,
                "ACP's tool call has no member for it",
            )),
        }
    }
    Ok(Converted {
        value: call,
        report,
    })
}

/// The `_meta` members every MCP 2026-07-28 request carries for the protocol, not for the tool
/// call (`RequestMetaObject` in `schema/mcp/2026-07-28/schema.json`: the protocol version, the
/// client's capabilities and identity, the log level): like `jsonrpc`, not relayed and not
/// reported.
pub const REQUEST_ENVELOPE: &[&str] = &[
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientCapabilities",
    "io.modelcontextprotocol/clientInfo",
    "io.modelcontextprotocol/logLevel",
];

/// The `tool_call_update` reporting an MCP `notifications/progress` (any served version) for
/// the call `tool_call_id`; see the [module docs](self).
///
/// # Errors
/// As [`progress_to_update`].
pub fn progress_update<P: McpProgressParams>(
    tool_call_id: &ToolCallId,
    params: &P,
) -> Result<Converted<ToolCallUpdate>, AcpUpdateError> {
    progress_to_update(tool_call_id, &to_object(params))
}

/// [`progress_update`] on the JSON of the notification's `params` (any MCP version).
///
/// # Errors
/// [`AcpUpdateError::Mcp`] when `progress` is not a number.
pub fn progress_to_update(
    tool_call_id: &ToolCallId,
    params: &Map<String, Value>,
) -> Result<Converted<ToolCallUpdate>, AcpUpdateError> {
    let mut report = Vec::new();
    let mut progress = None;
    let mut total = None;
    let mut message = None;
    for (member, value) in by_name(params.clone()) {
        match (member.as_str(), value) {
            ("progress", Value::Number(number)) => progress = Some(number),
            ("total", Value::Number(number)) => total = Some(number),
            ("message", Value::String(text)) => message = Some(text),
            ("progressToken", _) => {}
            (_, value) => report.push(Change::dropped(
                pointer::join("", &member),
                value,
                "ACP's tool call update has no member for it",
            )),
        }
    }
    let progress = progress.ok_or(AcpUpdateError::Mcp {
        pointer: "/progress",
        expected: "a number",
    })?;
    let mut text = format!("progress {progress}");
    if let Some(total) = total {
        text.push_str(&format!(" of {total}"));
    }
    if let Some(message) = message {
        text.push_str(": ");
        text.push_str(&message);
    }
    let mut update = ToolCallUpdate::new(tool_call_id.clone());
    update.status = MaybeUndefined::Value(ToolCallStatus::InProgress);
    update.content = MaybeUndefined::Value(vec![text_content(text)]);
    Ok(Converted {
        value: update,
        report,
    })
}

/// The `tool_call_update` ending a call with an MCP `CallToolResult` (any served version); see
/// the [module docs](self).
#[must_use]
pub fn result_update<R: McpCallToolResult>(
    tool_call_id: &ToolCallId,
    result: &R,
) -> Converted<ToolCallUpdate> {
    result_to_update(tool_call_id, &to_object(result))
}

/// [`result_update`] on the JSON of a result (any MCP version). Pointers are into the result.
#[must_use]
pub fn result_to_update(
    tool_call_id: &ToolCallId,
    result: &Map<String, Value>,
) -> Converted<ToolCallUpdate> {
    let mut report = Vec::new();
    let failed = match result.get("isError") {
        None | Some(Value::Bool(_)) => result.get("isError") == Some(&Value::Bool(true)),
        Some(other) => {
            report.push(Change::dropped(
                "/isError",
                other.clone(),
                "not a boolean: read as absent, the call `completed` (it stays in `rawOutput`)",
            ));
            false
        }
    };
    let mut content = Vec::new();
    if let Some(Value::Array(blocks)) = result.get("content") {
        for (index, block) in blocks.iter().enumerate() {
            let wrapped = json!({"type": "content", "content": block});
            let bytes = serde_json::to_vec(&wrapped).unwrap_or_default();
            // The block was read within the input's limits already: no byte limit of `decode`'s
            // own (1 MiB), which ACP does not have.
            let limits = toolcall_contracts::policy::DecodeLimits::new(
                bytes.len(),
                toolcall_contracts::policy::DecodeLimits::SERDE_JSON_MAX_DEPTH,
            );
            match toolcall_contracts::decode_with::<ToolCallContent>(&bytes, &limits) {
                Ok(decoded) => {
                    for leniency in decoded.report {
                        report.push(Change::dropped(
                            format!(
                                "/content/{index}{}",
                                leniency.pointer.trim_start_matches("/content")
                            ),
                            leniency.raw,
                            format!(
                                "ACP decoded it leniently ({}); it stays in `rawOutput`",
                                leniency.kind
                            ),
                        ));
                    }
                    content.push(decoded.value);
                }
                Err(error) => report.push(Change::dropped(
                    format!("/content/{index}"),
                    block.clone(),
                    format!("ACP content refuses it ({error}); it stays in `rawOutput`"),
                )),
            }
        }
    }
    let mut update = ToolCallUpdate::new(tool_call_id.clone());
    update.status = MaybeUndefined::Value(if failed {
        ToolCallStatus::Failed
    } else {
        ToolCallStatus::Completed
    });
    update.content = MaybeUndefined::Value(content);
    update.raw_output = MaybeUndefined::Value(Value::Object(result.clone()));
    Converted {
        value: update,
        report,
    }
}

/// The `tool_call_update` ending a call whose MCP request got a JSON-RPC error response:
/// `failed`, the error's `message` as content (``JSON-RPC error `CODE` `` without one), the
/// error object as `rawOutput`.
#[must_use]
pub fn error_update(tool_call_id: &ToolCallId, error: &Value) -> Converted<ToolCallUpdate> {
    let text = match error.get("message").and_then(Value::as_str) {
        Some(message) => message.to_owned(),
        None => format!(
            "JSON-RPC error `{}`",
            error.get("code").unwrap_or(&Value::Null)
        ),
    };
    let mut update = ToolCallUpdate::new(tool_call_id.clone());
    update.status = MaybeUndefined::Value(ToolCallStatus::Failed);
    update.content = MaybeUndefined::Value(vec![text_content(text)]);
    update.raw_output = MaybeUndefined::Value(error.clone());
    Converted::exact(update)
}

/// The `tool_call_update` ending a call the MCP client cancelled (`notifications/cancelled`):
/// `failed`, content `cancelled: REASON` (or `cancelled`).
#[must_use]
pub fn cancelled_update(
    tool_call_id: &ToolCallId,
    reason: Option<&str>,
) -> Converted<ToolCallUpdate> {
    let text = match reason {
        Some(reason) => format!("cancelled: {reason}"),
        None => "cancelled".to_owned(),
    };
    let mut update = ToolCallUpdate::new(tool_call_id.clone());
    update.status = MaybeUndefined::Value(ToolCallStatus::Failed);
    update.content = MaybeUndefined::Value(vec![text_content(text)]);
    Converted::exact(update)
}

/// An in-progress `tool_call_update` with `text` as its content (a task's status message).
#[must_use]
pub fn status_update(tool_call_id: &ToolCallId, text: impl Into<String>) -> ToolCallUpdate {
    let mut update = ToolCallUpdate::new(tool_call_id.clone());
    update.status = MaybeUndefined::Value(ToolCallStatus::InProgress);
    update.content = MaybeUndefined::Value(vec![text_content(text.into())]);
    update
}

/// The `session/update` notification carrying `update` in the session `session_id`.
#[must_use]
pub fn notification(session_id: &SessionId, update: SessionUpdate) -> SessionNotification {
    SessionNotification::new(session_id.clone(), update)
}

/// The JSON-RPC notification an agent sends for `notification`:
/// `{"jsonrpc": "2.0", "method": "session/update", "params": ...}`, written through the
/// generated ACP types: members in the ACP schema's order, the same text in every build
/// (whatever serde_json's `preserve_order`; members of `rawInput`, `rawOutput` and other free
/// JSON values in the order their map keeps). Encode it with serde (`serde_json::to_string`),
/// or with `to_string()` for the compact text.
#[must_use]
pub fn session_update_message(notification: &SessionNotification) -> SessionUpdateMessage<'_> {
    SessionUpdateMessage {
        jsonrpc: "2.0",
        method: "session/update",
        params: notification,
    }
}

/// A `session/update` JSON-RPC notification ([`session_update_message`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SessionUpdateMessage<'a> {
    jsonrpc: &'static str,
    method: &'static str,
    params: &'a SessionNotification,
}

impl SessionUpdateMessage<'_> {
    /// The notification carried (`params`).
    #[must_use]
    pub fn params(&self) -> &SessionNotification {
        self.params
    }
}

impl std::fmt::Display for SessionUpdateMessage<'_> {
    /// The compact JSON text, one line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| std::fmt::Error)?;
        f.write_str(&text)
    }
}

fn text_content(text: String) -> ToolCallContent {
    ToolCallContent::Content(Content::new(ContentBlock::Text(TextContent::new(text))))
}

fn event_type(event: &ToolLifecycleEvent) -> &'static str {
    match event {
        ToolLifecycleEvent::Started { .. } => "started",
        ToolLifecycleEvent::Completed { .. } => "completed",
        ToolLifecycleEvent::RuntimeFailed { .. } => "runtime_failed",
    }
}
