//! An MCP transcript → the ACP `session/update` notifications an agent relaying its tool calls
//! would send (what `toolcall convert --to acp` runs).
//!
//! A transcript line is a bare JSON-RPC message or a wrapper `{"from": "client"|"server",
//! "message": ...}`, as `toolcall validate` and `toolcall tap` read and write them. Each MCP
//! `initialize` (or `server/discover`) starts a new MCP session, numbered from 1; all of them
//! are relayed into one ACP session, [`Relay::new`]'s `session_id`.
//!
//! Per call (see [`super::acp_updates`] for each update's members):
//! - a `tools/call` request → `tool_call` with `toolCallId` `mcp-<session>-<id>` (`<id>`: the
//!   JSON-RPC id, a string as is, an integer in decimal), the tool's `title` from the
//!   session's `tools/list` when it was seen, else its name;
//! - `notifications/progress` for its `_meta.progressToken` → `tool_call_update` in progress;
//! - its response: a `CallToolResult` → `completed` or `failed`; a JSON-RPC error → `failed`;
//!   a `CreateTaskResult` (a task-augmented call) → in progress, and then
//!   `notifications/tasks/status` for the task → in progress (`working`, `input_required`) or
//!   `failed` (`failed`, `cancelled`), and the response to the client's `tasks/result` for
//!   it → `completed` or `failed`;
//! - `notifications/cancelled` for it → `failed`.
//!
//! Nothing else produces an update. What is not relayed is a [`RelayNote`]: progress for a call
//! that has ended (the ACP stream would reopen a finished call), a line that is not JSON, a
//! response whose direction a bare transcript leaves open, a call that never ends, and each
//! member an update could not carry.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::acp_updates::{
    cancelled_update, error_update, mcp_tool_call, progress_to_update, result_to_update,
    status_update, ToolKinds,
};
use super::report::{Change, Converted};
use crate::acp::{SessionId, SessionNotification, SessionUpdate, ToolCallId, ToolCallUpdate};

/// Something the relay did not carry into the ACP stream as it was.
#[derive(Debug, Clone, PartialEq)]
pub struct RelayNote {
    /// 1-based line of the transcript.
    pub line: usize,
    /// What happened; pointers are into the line's message (`/params/...`, `/result/...`).
    pub change: Change,
}

/// What the relay knows of one `tools/call`.
#[derive(Debug)]
struct Call {
    id: ToolCallId,
    line: usize,
    ended: bool,
}

/// Relays the tool calls of an MCP transcript into ACP updates, one line at a time.
///
/// ```
/// # #[cfg(feature = "hops")] {
/// use toolcall_contracts::acp::SessionId;
/// use toolcall_contracts::hops::acp_updates::ToolKinds;
/// use toolcall_contracts::hops::relay::Relay;
///
/// let mut relay = Relay::new(SessionId::from("editor-1"), ToolKinds::new());
/// let call = br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}"#;
/// let result = br#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Echo: hi"}]}}"#;
/// let first = relay.push(1, call);
/// let second = relay.push(2, result);
/// assert_eq!(first.len() + second.len(), 2);
/// assert!(relay.finish().is_empty());
/// # }
/// ```
#[derive(Debug)]
pub struct Relay {
    session_id: SessionId,
    kinds: ToolKinds,
    session: usize,
    /// `tools/call` requests of the current session, by JSON-RPC id (as JSON text).
    calls: HashMap<String, Call>,
    /// Progress tokens (as JSON text) → request id.
    tokens: HashMap<String, String>,
    /// Task ids → request id.
    tasks: HashMap<String, String>,
    /// Pending `tasks/result` requests of the client (id as JSON text) → the call's request id.
    task_results: HashMap<String, String>,
    /// Requests the server sent that are pending (id as JSON text).
    server_requests: HashMap<String, ()>,
    /// Pending `tools/list` requests (id as JSON text).
    tools_lists: HashMap<String, ()>,
    /// Tool titles from `tools/list`.
    titles: HashMap<String, String>,
    notes: Vec<RelayNote>,
}

/// Which side sent a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sender {
    Client,
    Server,
    Unknown,
}

impl Relay {
    /// A relay writing every notification into the ACP session `session_id`, with the tools'
    /// kinds from `kinds` (by MCP tool name).
    #[must_use]
    pub fn new(session_id: SessionId, kinds: ToolKinds) -> Self {
        Self {
            session_id,
            kinds,
            session: 1,
            calls: HashMap::new(),
            tokens: HashMap::new(),
            tasks: HashMap::new(),
            task_results: HashMap::new(),
            server_requests: HashMap::new(),
            tools_lists: HashMap::new(),
            titles: HashMap::new(),
            notes: Vec::new(),
        }
    }

    /// Relays the transcript line `text` (line number `line`): the notifications it produces,
    /// in order.
    pub fn push(&mut self, line: usize, text: &[u8]) -> Vec<SessionNotification> {
        let value: Value = match serde_json::from_slice(text) {
            Ok(value) => value,
            Err(error) => {
                self.note(
                    line,
                    Change::dropped("", Value::Null, format!("not JSON: {error}")),
                );
                return Vec::new();
            }
        };
        let (from, message) = match value {
            Value::Object(mut wrapper) if wrapper.contains_key("from") => {
                let from = match wrapper.get("from").and_then(Value::as_str) {
                    Some("client") => Sender::Client,
                    Some("server") => Sender::Server,
                    _ => Sender::Unknown,
                };
                match wrapper.remove("message") {
                    Some(Value::Object(message)) => (from, message),
                    _ => {
                        let text = wrapper.remove("text").unwrap_or(Value::Null);
                        self.note(
                            line,
                            Change::dropped(
                                "",
                                text,
                                "a transcript line that is not a JSON-RPC message",
                            ),
                        );
                        return Vec::new();
                    }
                }
            }
            Value::Object(message) => (Sender::Unknown, message),
            other => {
                self.note(line, Change::dropped("", other, "not a JSON-RPC message"));
                return Vec::new();
            }
        };
        let updates = self.message(line, from, &message);
        updates
            .into_iter()
            .map(|update| SessionNotification::new(self.session_id.clone(), update))
            .collect()
    }

    /// Ends the transcript: a note for each call that never ended, then every note, in line
    /// order.
    pub fn finish(&mut self) -> Vec<RelayNote> {
        self.end_session();
        let mut notes = std::mem::take(&mut self.notes);
        notes.sort_by_key(|note| note.line);
        notes
    }

    fn note(&mut self, line: usize, change: Change) {
        self.notes.push(RelayNote { line, change });
    }

    fn notes_from(&mut self, line: usize, prefix: &str, report: Vec<Change>) {
        for change in report {
            self.note(line, change.under(prefix, ""));
        }
    }

    fn end_session(&mut self) {
        let mut open: Vec<(usize, ToolCallId)> = self
            .calls
            .values()
            .filter(|call| !call.ended)
            .map(|call| (call.line, call.id.clone()))
            .collect();
        open.sort();
        for (line, id) in open {
            self.note(
                line,
                Change::dropped(
                    "",
                    Value::String(id.0.clone()),
                    format!(
                        "`{}` never ended in the transcript: its ACP tool call stays in progress",
                        id.0
                    ),
                ),
            );
        }
        self.calls.clear();
        self.tokens.clear();
        self.tasks.clear();
        self.task_results.clear();
        self.server_requests.clear();
        self.tools_lists.clear();
        self.titles.clear();
    }

    fn message(
        &mut self,
        line: usize,
        from: Sender,
        message: &Map<String, Value>,
    ) -> Vec<SessionUpdate> {
        let method = message.get("method").and_then(Value::as_str);
        let id = message.get("id").map(Value::to_string);
        let params = message.get("params").and_then(Value::as_object);
        match (method, id) {
            (Some(method), Some(id)) => self.request(line, from, method, id, params),
            (Some(method), None) => self.notification(line, method, params),
            (None, Some(id)) => self.response(line, from, &id, message),
            (None, None) => Vec::new(),
        }
    }

    fn request(
        &mut self,
        line: usize,
        from: Sender,
        method: &str,
        id: String,
        params: Option<&Map<String, Value>>,
    ) -> Vec<SessionUpdate> {
        match method {
            "initialize" | "server/discover" if from != Sender::Server => {
                if self.session_started() {
                    self.end_session();
                    self.session += 1;
                }
                Vec::new()
            }
            "tools/list" if from != Sender::Server => {
                self.tools_lists.insert(id, ());
                Vec::new()
            }
            "tools/call" if from != Sender::Server => self.tools_call(line, id, params),
            "tasks/result" if from != Sender::Server => {
                let task = params
                    .and_then(|params| params.get("taskId"))
                    .and_then(Value::as_str)
                    .and_then(|task| self.tasks.get(task).cloned());
                match task {
                    Some(call) => {
                        self.task_results.insert(id, call);
                    }
                    None if from == Sender::Unknown => {
                        self.server_requests.insert(id, ());
                    }
                    None => {}
                }
                Vec::new()
            }
            _ => {
                if from == Sender::Server || (from == Sender::Unknown && is_server_request(method))
                {
                    self.server_requests.insert(id, ());
                }
                Vec::new()
            }
        }
    }

    fn session_started(&self) -> bool {
        !self.calls.is_empty() || !self.titles.is_empty() || !self.tools_lists.is_empty()
    }

    fn tools_call(
        &mut self,
        line: usize,
        id: String,
        params: Option<&Map<String, Value>>,
    ) -> Vec<SessionUpdate> {
        let empty = Map::new();
        let params = params.unwrap_or(&empty);
        let tool_call_id =
            ToolCallId::from(format!("mcp-{}-{}", self.session, id.trim_matches('"')));
        let title = params
            .get("name")
            .and_then(Value::as_str)
            .and_then(|name| self.titles.get(name))
            .cloned();
        let converted = match mcp_tool_call(&tool_call_id, params, title.as_deref(), &self.kinds) {
            Ok(converted) => converted,
            Err(error) => {
                self.note(
                    line,
                    Change::dropped("/params", Value::Object(params.clone()), error.to_string()),
                );
                return Vec::new();
            }
        };
        if let Some(token) = params
            .get("_meta")
            .and_then(|meta| meta.get("progressToken"))
        {
            self.tokens.insert(token.to_string(), id.clone());
        }
        self.calls.insert(
            id,
            Call {
                id: tool_call_id,
                line,
                ended: false,
            },
        );
        let value = self.take(line, "/params", converted);
        vec![SessionUpdate::ToolCall(value)]
    }

    fn take<T>(&mut self, line: usize, prefix: &str, converted: Converted<T>) -> T {
        self.notes_from(line, prefix, converted.report);
        converted.value
    }

    /// The open call of request `id`, or a note saying why there is none.
    fn open_call(&mut self, line: usize, id: &str, what: &str) -> Option<ToolCallId> {
        let call = self.calls.get(id)?;
        if call.ended {
            let change = Change::dropped(
                "",
                Value::String(call.id.0.clone()),
                    format!(
                        "{what} for `{}` after the call ended: not relayed (ACP updates end with `completed` or `failed`)",
                    call.id.0
                ),
            );
            self.note(line, change);
            return None;
        }
        Some(call.id.clone())
    }

    fn end(&mut self, id: &str) {
        if let Some(call) = self.calls.get_mut(id) {
            call.ended = true;
        }
    }

    fn notification(
        &mut self,
        line: usize,
        method: &str,
        params: Option<&Map<String, Value>>,
    ) -> Vec<SessionUpdate> {
        let Some(params) = params else {
            return Vec::new();
        };
        match method {
            "notifications/progress" => {
                let Some(request) = params
                    .get("progressToken")
                    .and_then(|token| self.tokens.get(&token.to_string()))
                    .cloned()
                else {
                    return Vec::new();
                };
                let Some(tool_call_id) = self.open_call(line, &request, "progress") else {
                    return Vec::new();
                };
                match progress_to_update(&tool_call_id, params) {
                    Ok(converted) => {
                        let update = self.take(line, "/params", converted);
                        vec![SessionUpdate::ToolCallUpdate(update)]
                    }
                    Err(error) => {
                        self.note(
                            line,
                            Change::dropped(
                                "/params",
                                Value::Object(params.clone()),
                                error.to_string(),
                            ),
                        );
                        Vec::new()
                    }
                }
            }
            "notifications/cancelled" => {
                let Some(request) = params.get("requestId").map(Value::to_string) else {
                    return Vec::new();
                };
                if !self.calls.contains_key(&request) {
                    return Vec::new();
                }
                let Some(tool_call_id) = self.open_call(line, &request, "cancellation") else {
                    return Vec::new();
                };
                self.end(&request);
                let reason = params.get("reason").and_then(Value::as_str);
                let update = self.take(line, "/params", cancelled_update(&tool_call_id, reason));
                vec![SessionUpdate::ToolCallUpdate(update)]
            }
            "notifications/tasks/status" => {
                let Some(request) = params
                    .get("taskId")
                    .and_then(Value::as_str)
                    .and_then(|task| self.tasks.get(task))
                    .cloned()
                else {
                    return Vec::new();
                };
                let status = params.get("status").and_then(Value::as_str).unwrap_or("");
                let text = task_text(params);
                match status {
                    "working" | "input_required" => {
                        let Some(tool_call_id) = self.open_call(line, &request, "task status")
                        else {
                            return Vec::new();
                        };
                        vec![SessionUpdate::ToolCallUpdate(status_update(
                            &tool_call_id,
                            text,
                        ))]
                    }
                    "failed" | "cancelled" => {
                        let Some(tool_call_id) = self.open_call(line, &request, "task status")
                        else {
                            return Vec::new();
                        };
                        self.end(&request);
                        let mut update = status_update(&tool_call_id, text);
                        update.status =
                            crate::MaybeUndefined::Value(crate::acp::ToolCallStatus::Failed);
                        update.raw_output =
                            crate::MaybeUndefined::Value(Value::Object(params.clone()));
                        vec![SessionUpdate::ToolCallUpdate(update)]
                    }
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        }
    }

    fn response(
        &mut self,
        line: usize,
        from: Sender,
        id: &str,
        message: &Map<String, Value>,
    ) -> Vec<SessionUpdate> {
        if from == Sender::Client {
            self.server_requests.remove(id);
            return Vec::new();
        }
        let ours = self.calls.contains_key(id)
            || self.task_results.contains_key(id)
            || self.tools_lists.contains_key(id);
        if from == Sender::Unknown && self.server_requests.contains_key(id) {
            if ours {
                self.note(
                    line,
                    Change::dropped(
                        "",
                        Value::Object(message.clone()),
                        "a bare response whose id both sides have pending: not relayed (wrap the lines with `from`)",
                    ),
                );
            }
            self.server_requests.remove(id);
            return Vec::new();
        }
        if self.tools_lists.remove(id).is_some() {
            self.titles_from(message);
            return Vec::new();
        }
        if let Some(request) = self.task_results.remove(id) {
            return self.ending(line, &request, message);
        }
        if !self.calls.contains_key(id) {
            return Vec::new();
        }
        let task = message
            .get("result")
            .and_then(|result| result.get("task"))
            .and_then(Value::as_object);
        if let Some(task) = task {
            let Some(tool_call_id) = self.open_call(line, id, "task result") else {
                return Vec::new();
            };
            if let Some(task_id) = task.get("taskId").and_then(Value::as_str) {
                self.tasks.insert(task_id.to_owned(), id.to_owned());
            }
            return vec![SessionUpdate::ToolCallUpdate(status_update(
                &tool_call_id,
                task_text(task),
            ))];
        }
        self.ending(line, id, message)
    }

    /// The update ending the call of request `request` with the response `message`.
    fn ending(
        &mut self,
        line: usize,
        request: &str,
        message: &Map<String, Value>,
    ) -> Vec<SessionUpdate> {
        let Some(tool_call_id) = self.open_call(line, request, "a response") else {
            return Vec::new();
        };
        let update: ToolCallUpdate = if let Some(error) = message.get("error") {
            let converted = error_update(&tool_call_id, error);
            self.take(line, "/error", converted)
        } else if let Some(Value::Object(result)) = message.get("result") {
            let converted = result_to_update(&tool_call_id, result);
            self.take(line, "/result", converted)
        } else {
            self.note(
                line,
                Change::dropped(
                    "",
                    Value::Object(message.clone()),
                    "a response with neither `result` nor `error`",
                ),
            );
            return Vec::new();
        };
        self.end(request);
        vec![SessionUpdate::ToolCallUpdate(update)]
    }

    fn titles_from(&mut self, message: &Map<String, Value>) {
        let tools = message
            .get("result")
            .and_then(|result| result.get("tools"))
            .and_then(Value::as_array);
        for tool in tools.into_iter().flatten() {
            let name = tool.get("name").and_then(Value::as_str);
            let title = tool
                .get("title")
                .or_else(|| tool.get("annotations").and_then(|a| a.get("title")))
                .and_then(Value::as_str);
            if let (Some(name), Some(title)) = (name, title) {
                self.titles.insert(name.to_owned(), title.to_owned());
            }
        }
    }
}

/// ``task `ID` STATUS: MESSAGE`` for a task's status.
fn task_text(task: &Map<String, Value>) -> String {
    let id = task.get("taskId").and_then(Value::as_str).unwrap_or("");
    let status = task.get("status").and_then(Value::as_str).unwrap_or("");
    let mut text = format!("task `{id}` {status}");
    if let Some(message) = task.get("statusMessage").and_then(Value::as_str) {
        text.push_str(": ");
        text.push_str(message);
    }
    text
}

/// Requests only an MCP server sends.
fn is_server_request(method: &str) -> bool {
    matches!(
        method,
        "roots/list" | "sampling/createMessage" | "elicitation/create"
    )
}
