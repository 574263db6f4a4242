//! An MCP transcript → the ACP `session/update` notifications an agent relaying its tool calls
//! would send (what `toolcall convert --to acp` runs).
//!
//! A transcript line is a bare JSON-RPC message or a wrapper `{"from": "client"|"server",
//! "message": ...}`, as `toolcall validate` and `toolcall tap` read and write them. Each MCP
//! `initialize` (or `server/discover`) starts a new MCP session, numbered from 1; all of them
//! are relayed into one ACP session, [`Relay::new`]'s `session_id`.
//!
//! # Pairing: by id and direction
//!
//! Each side of MCP numbers its own requests, so the client's `tools/call` `3` and the server's
//! `sampling/createMessage` `3` can be pending at once. A response answers the request of the
//! *other* side with its id; a `notifications/cancelled` cancels the request its *own* sender
//! sent; a `notifications/progress` reports on a request the *other* side sent, whose
//! `_meta.progressToken` it carries (the relay pairs them as `toolcall validate` does, with the
//! same pairing code). A wrapper's `from` gives the direction. A bare line's request gets it
//! from its method where the MCP schema has only one side send it (`tools/call`: the client;
//! `sampling/createMessage`, `roots/list`, `elicitation/create`: the server), as the generated
//! `ClientRequest` and `ServerRequest` unions list them; a request both sides send (`ping`,
//! `tasks/get`, `tasks/list`, `tasks/cancel`, `tasks/result`), and every bare response,
//! progress and cancellation, has no known direction. When such a message may refer to the
//! client's `tools/call` and to a request of the other (or an unknown) side at once, it is not
//! relayed, with a note (wrap the lines with `from` to tell them apart).
//!
//! # Per call
//!
//! (See [`super::acp_updates`] for each update's members.)
//! - a `tools/call` request → `tool_call` with `toolCallId` `mcp-<session>-<id>`, where `<id>`
//!   is an integer id in its digits as written (`mcp-1-7`, `mcp-1-18446744073709551616`) and a
//!   string id in double quotes, as is, not escaped (`mcp-1-"7"`, `mcp-1-"a"b"`): distinct
//!   JSON-RPC ids give distinct tool call ids. The title is the tool's `title` from the
//!   session's `tools/list` when it was seen, else its name. An id that is not an MCP
//!   `RequestId` (`null`, `1.5`, an array, an object) is not relayed, with a note;
//! - a request id the client already used for a `tools/call` in this MCP session (MCP forbids
//!   reusing one): the second call is not relayed, with a note naming the first, which keeps
//!   its tool call; responses with the id go to the first;
//! - `notifications/progress` for its `_meta.progressToken` → `tool_call_update` in progress;
//! - its response: a `CallToolResult` → `completed` or `failed`; a JSON-RPC error → `failed`;
//!   a `CreateTaskResult` (a task-augmented call) → in progress, and then
//!   `notifications/tasks/status` for the task → in progress (`working`, `input_required`) or
//!   `failed` (`failed`, `cancelled`), and the response to the client's `tasks/result` for
//!   it → `completed` or `failed`;
//! - an MCP 2026-07-28 `InputRequiredResult` (`"resultType": "input_required"`: the server
//!   needs the client to answer `inputRequests` and retry) → in progress, `rawOutput` the
//!   result; the client's retry, a `tools/call` of the same tool with `requestState` or
//!   `inputResponses`, continues that ACP call (no new `tool_call`; its responses and progress
//!   are the call's): the call whose `requestState` it returns, else the one call of that tool
//!   waiting for input whose `inputRequests` keys its `inputResponses` answer. A retry the
//!   transcript shows no such call for is a new call, with a note; one that matches several
//!   continues none of them (a new call, with a note);
//! - `notifications/cancelled` for it → `failed`.
//!
//! Nothing else produces an update. What is not relayed, or not as it was, is a [`RelayNote`]:
//! a line that is not JSON or not a JSON-RPC message; a message whose direction a bare
//! transcript leaves open; a response, JSON-RPC error or cancellation of no request seen;
//! progress for a token no request carries; anything for a call that has ended (the ACP stream
//! would reopen a finished call); a `tools/call` the server sent; a call that never ends; each
//! member an update could not carry; and each number of a relayed message that is written
//! otherwise (`1e2` as `100.0`: serde_json holds numbers as 64-bit integers or floats).
//!
//! Objects the relay writes from the transcript (`rawInput`, `rawOutput`, content) have their
//! members in name order, whatever serde_json's `preserve_order`: the output is the same in
//! every build.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::acp_updates::{
    cancelled_update, error_update, mcp_tool_call, progress_to_update, result_to_update,
    status_update, ToolKinds,
};
use super::numbers::{self, ChangedNumber};
use super::report::{sorted, Change, Converted};
use super::request_id::Key;
use super::versions;
use crate::pairing::{self, Answer, Line, Pending, Role};
use toolcall_contracts::acp::{
    SessionId, SessionNotification, SessionUpdate, ToolCallId, ToolCallUpdate,
};

/// Something the relay did not carry into the ACP stream as it was.
#[derive(Debug, Clone, PartialEq)]
pub struct RelayNote {
    /// 1-based line of the transcript.
    pub line: usize,
    /// What happened; pointers are into the line's message (`/params/...`, `/result/...`).
    pub change: Change,
}

/// Where one `tools/call` stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Announced, waiting for its response.
    Open,
    /// The server made it a task: waiting for the task's result.
    Task,
    /// The server asked for input (MCP 2026-07-28 `input_required`): waiting for the retry.
    InputRequired,
    /// Ended (`completed` or `failed`).
    Ended,
}

/// What the relay knows of one ACP tool call: one `tools/call`, and its retries.
#[derive(Debug)]
struct Call {
    id: ToolCallId,
    line: usize,
    name: String,
    /// The progress tokens of its requests.
    tokens: Vec<Key>,
    state: State,
    /// `requestState` and the `inputRequests` keys of its `input_required` result.
    input: Option<(Option<String>, Vec<String>)>,
}

/// What the relay keeps of a pending request.
#[derive(Debug, Clone)]
struct Sent {
    method: String,
    token: Option<Key>,
    kind: Kind,
}

/// The requests the relay follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A `tools/call` (or its retry) of the call at this index.
    ToolsCall(usize),
    /// The client's `tools/list`.
    ToolsList,
    /// The client's `tasks/result` for the call at this index.
    TasksResult(usize),
    /// The client's `tasks/cancel` for the call at this index.
    TasksCancel(usize),
    /// Any other request.
    Other,
}

impl Kind {
    fn call(self) -> Option<usize> {
        match self {
            Self::ToolsCall(call) | Self::TasksResult(call) | Self::TasksCancel(call) => Some(call),
            Self::ToolsList | Self::Other => None,
        }
    }
}

/// Relays the tool calls of an MCP transcript into ACP updates, one line at a time.
///
/// ```
/// use toolcall_contracts::acp::SessionId;
/// use toolcall_hops::acp_updates::ToolKinds;
/// use toolcall_hops::relay::Relay;
///
/// let mut relay = Relay::new(SessionId::from("editor-1"), ToolKinds::new());
/// let call = br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}"#;
/// let result = br#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Echo: hi"}]}}"#;
/// let first = relay.push(1, call);
/// let second = relay.push(2, result);
/// assert_eq!(first.len() + second.len(), 2);
/// assert!(relay.finish().is_empty());
/// ```
#[derive(Debug)]
pub struct Relay {
    session_id: SessionId,
    kinds: ToolKinds,
    session: usize,
    /// Every request of the session still waiting for its response, both directions.
    pending: Pending<Key, Sent>,
    /// The session's tool calls, in order.
    calls: Vec<Call>,
    /// The client's `tools/call` request ids of the session → the call and the request's line.
    requests: HashMap<Key, (usize, usize)>,
    /// Task ids → the call.
    tasks: HashMap<String, usize>,
    /// Tool titles from `tools/list`.
    titles: HashMap<String, String>,
    /// Whether the session has shown a tool list or call (a new `initialize` starts another).
    started: bool,
    notes: Vec<RelayNote>,
}

/// One message of a line, as the relay reads it.
struct Message<'a> {
    line: usize,
    /// Who sent it, when the line or the method says.
    from: Option<Role>,
    object: &'a Map<String, Value>,
    /// Its numbers that serde_json writes otherwise, pointers into the message.
    numbers: &'a [ChangedNumber],
}

impl Message<'_> {
    /// The text of the number at `pointer` as written, when serde_json writes it otherwise.
    fn number_text(&self, pointer: &str) -> Option<&str> {
        self.numbers
            .iter()
            .find(|number| number.pointer == pointer)
            .map(|number| number.text.as_str())
    }

    /// The member at `pointer` (not `""`) of the message.
    fn member(&self, pointer: &str) -> Option<&Value> {
        let mut tokens = toolcall_contracts::pointer::tokens(pointer);
        let mut value = self.object.get(tokens.next()?.as_ref())?;
        for token in tokens {
            value = match value {
                Value::Object(object) => object.get(token.as_ref())?,
                Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(value)
    }

    /// The member at `pointer` read as an MCP id or token.
    fn key(&self, pointer: &str) -> Option<Result<Key, super::request_id::NotAnId>> {
        let member = self.member(pointer)?;
        Some(Key::read(member, self.number_text(pointer)))
    }

    fn params(&self) -> Option<&Map<String, Value>> {
        self.object.get("params").and_then(Value::as_object)
    }
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
            pending: Pending::default(),
            calls: Vec::new(),
            requests: HashMap::new(),
            tasks: HashMap::new(),
            titles: HashMap::new(),
            started: false,
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
        match pairing::tap_record(&value) {
            Some(pairing::TapRecord::Truncated { from, bytes, .. }) => {
                self.note(
                    line,
                    Change::dropped(
                        "",
                        value.clone(),
                        format!(
                            "a message of `{bytes}` bytes from the {from} that `toolcall tap` \
                             did not keep (over its `--max-bytes`): not relayed"
                        ),
                    ),
                );
                return Vec::new();
            }
            Some(pairing::TapRecord::NotChecked { from, bytes }) => {
                self.note(
                    line,
                    Change::dropped(
                        "",
                        value.clone(),
                        format!(
                            "`{bytes}` bytes from the {from} that `toolcall tap` relayed but did \
                             not record (its checking fell behind): the messages they held are \
                             missing here"
                        ),
                    ),
                );
                return Vec::new();
            }
            None => {}
        }
        let (from, message) = match pairing::read_line(value) {
            Line::Message {
                from,
                value: Value::Object(message),
            } => (from, message),
            Line::Message { value, .. } => {
                self.note(line, Change::dropped("", value, "not a JSON-RPC message"));
                return Vec::new();
            }
            Line::Text { from, text } => {
                self.note(
                    line,
                    Change::dropped(
                        "",
                        Value::String(text),
                        format!("a line the {from} sent that was not JSON"),
                    ),
                );
                return Vec::new();
            }
        };
        // A wrapper's message: pointers into it.
        let prefix = if from.is_some() { "/message" } else { "" };
        let numbers: Vec<ChangedNumber> = numbers::changed(text)
            .into_iter()
            .filter_map(|mut number| {
                let rest = number.pointer.strip_prefix(prefix)?;
                if !(rest.is_empty() || rest.starts_with('/')) {
                    return None;
                }
                number.pointer = rest.to_owned();
                Some(number)
            })
            .collect();
        let message = match sorted(Value::Object(message)) {
            Value::Object(message) => message,
            _ => unreachable!("sorting keeps an object an object"),
        };
        let message = Message {
            line,
            from: from.map(pairing::Side::role),
            object: &message,
            numbers: &numbers,
        };
        let updates = self.message(&message);
        self.number_notes(&message, &updates);
        updates
            .into_iter()
            .map(|update| SessionNotification::new(self.session_id.clone(), update))
            .collect()
    }

    /// A note for each number of `message` that `updates` carry and serde_json writes
    /// otherwise, from its pointer in the message to its pointer in the notification.
    fn number_notes(&mut self, message: &Message<'_>, updates: &[SessionUpdate]) {
        // (pointer into the message, pointer into the notification) of what the updates copy.
        let mut copied: Vec<(&str, &str)> = Vec::new();
        for update in updates {
            match update {
                SessionUpdate::ToolCall(_) => {
                    copied.push(("/params/arguments", "/params/update/rawInput"));
                }
                SessionUpdate::ToolCallUpdate(update) => {
                    if update.raw_input.value().is_some() {
                        copied.push(("/params/arguments", "/params/update/rawInput"));
                    }
                    if update.raw_output.value().is_some() {
                        for source in ["/result", "/error", "/params"] {
                            copied.push((source, "/params/update/rawOutput"));
                        }
                    }
                    if message.object.get("method").and_then(Value::as_str)
                        == Some("notifications/progress")
                    {
                        for source in ["/params/progress", "/params/total"] {
                            copied.push((source, "/params/update/content/0/content/text"));
                        }
                    }
                }
                _ => {}
            }
        }
        for number in message.numbers {
            let target = copied.iter().find_map(|(from, to)| {
                let rest = number.pointer.strip_prefix(from)?;
                (rest.is_empty() || rest.starts_with('/')).then(|| {
                    if to.ends_with("/text") {
                        (*to).to_owned()
                    } else {
                        format!("{to}{rest}")
                    }
                })
            });
            if let Some(to) = target {
                self.note(
                    message.line,
                    Change::derived(
                        number.pointer.clone(),
                        to,
                        Value::String(number.written.clone()),
                        format!(
                            "the number `{}` is written `{}` (numbers are carried as 64-bit integers or floats)",
                            number.text, number.written
                        ),
                    ),
                );
            }
        }
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

    fn take<T>(&mut self, line: usize, prefix: &str, converted: Converted<T>) -> T {
        for change in converted.report {
            self.note(line, change.under(prefix, ""));
        }
        converted.value
    }

    fn end_session(&mut self) {
        let open: Vec<(usize, ToolCallId)> = self
            .calls
            .iter()
            .filter(|call| call.state != State::Ended)
            .map(|call| (call.line, call.id.clone()))
            .collect();
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
        self.pending.clear();
        self.calls.clear();
        self.requests.clear();
        self.tasks.clear();
        self.titles.clear();
        self.started = false;
    }

    fn message(&mut self, message: &Message<'_>) -> Vec<SessionUpdate> {
        let method = message.object.get("method");
        let has_id = message.object.contains_key("id");
        match (method, has_id) {
            (Some(Value::String(method)), true) => self.request(message, method),
            (Some(Value::String(method)), false) => self.notification(message, method),
            (None, true) => self.response(message),
            (Some(other), _) => {
                self.note(
                    message.line,
                    Change::dropped("/method", other.clone(), "`method` is not a string"),
                );
                Vec::new()
            }
            (None, false) => {
                self.note(
                    message.line,
                    Change::dropped(
                        "",
                        Value::Object(message.object.clone()),
                        "not a JSON-RPC message: neither `method` nor `id`",
                    ),
                );
                Vec::new()
            }
        }
    }

    fn request(&mut self, message: &Message<'_>, method: &str) -> Vec<SessionUpdate> {
        let line = message.line;
        let from = message.from.or_else(|| versions::sender(method, true));
        let key = match message.key("/id") {
            Some(Ok(key)) => key,
            Some(Err(error)) => {
                if method == "tools/call" {
                    self.note(
                        line,
                        Change::dropped(
                            "/id",
                            message.object.get("id").cloned().unwrap_or(Value::Null),
                            format!(
                                "not an MCP request id (a string or an integer): {error}; the `tools/call` is not relayed"
                            ),
                        ),
                    );
                }
                return Vec::new();
            }
            None => return Vec::new(),
        };
        let token = match message.key("/params/_meta/progressToken") {
            Some(Ok(token)) => Some(token),
            _ => None,
        };
        let mut sent = Sent {
            method: method.to_owned(),
            token,
            kind: Kind::Other,
        };
        let by_client = from != Some(Role::Peer);
        match method {
            "initialize" | "server/discover" if by_client && self.started => {
                self.end_session();
                self.session += 1;
            }
            "tools/call" if !by_client => {
                self.note(
                    line,
                    Change::dropped(
                        "",
                        Value::Object(message.object.clone()),
                        "a `tools/call` the server sent: the relay follows the client's calls to the server; not relayed",
                    ),
                );
            }
            "tools/call" => return self.tools_call(message, key, sent),
            "tools/list" if by_client => {
                self.started = true;
                sent.kind = Kind::ToolsList;
            }
            "tasks/cancel" => {
                let call = message
                    .params()
                    .and_then(|params| params.get("taskId"))
                    .and_then(Value::as_str)
                    .and_then(|task| self.tasks.get(task).copied());
                if let (Some(call), true) = (call, by_client) {
                    sent.kind = Kind::TasksCancel(call);
                    self.pending.request(key, Some(Role::Client), sent);
                    return Vec::new();
                }
            }
            "tasks/result" => {
                let call = message
                    .params()
                    .and_then(|params| params.get("taskId"))
                    .and_then(Value::as_str)
                    .and_then(|task| self.tasks.get(task).copied());
                if let (Some(call), true) = (call, by_client) {
                    sent.kind = Kind::TasksResult(call);
                    // A `tasks/result` for a task of the client's call is the client's.
                    self.pending.request(key, Some(Role::Client), sent);
                    return Vec::new();
                }
            }
            _ => {}
        }
        self.pending.request(key, from, sent);
        Vec::new()
    }

    fn tools_call(
        &mut self,
        message: &Message<'_>,
        key: Key,
        mut sent: Sent,
    ) -> Vec<SessionUpdate> {
        let line = message.line;
        self.started = true;
        if let Some(&(call, first_line)) = self.requests.get(&key) {
            let id = self.calls[call].id.0.clone();
            self.note(
                line,
                Change::dropped(
                    "/id",
                    key.to_json(),
                    format!(
                        "request id `{key}` is the client's `tools/call` of line {first_line} (`{id}`) in this MCP session, which MCP forbids reusing: this call is not relayed; responses with the id go to `{id}`"
                    ),
                ),
            );
            return Vec::new();
        }
        let empty = Map::new();
        let params = message.params().unwrap_or(&empty);
        let name = params.get("name").and_then(Value::as_str).unwrap_or("");
        if let Some(call) = self.retried_call(line, name, params) {
            self.requests.insert(key.clone(), (call, line));
            if let Some(token) = &sent.token {
                self.calls[call].tokens.push(token.clone());
            }
            self.calls[call].state = State::Open;
            self.calls[call].input = None;
            sent.kind = Kind::ToolsCall(call);
            self.pending.request(key, Some(Role::Client), sent);
            return self.retry_update(line, call, params);
        }
        let tool_call_id =
            ToolCallId::from(format!("mcp-{}-{}", self.session, key.tool_call_text()));
        let title = self.titles.get(name).cloned();
        let converted = match mcp_tool_call(&tool_call_id, params, title.as_deref(), &self.kinds) {
            Ok(converted) => converted,
            Err(error) => {
                self.note(
                    line,
                    Change::dropped("/params", Value::Object(params.clone()), error.to_string()),
                );
                self.pending.request(key, Some(Role::Client), sent);
                return Vec::new();
            }
        };
        let index = self.calls.len();
        self.calls.push(Call {
            id: tool_call_id,
            line,
            name: name.to_owned(),
            tokens: sent.token.iter().cloned().collect(),
            state: State::Open,
            input: None,
        });
        self.requests.insert(key.clone(), (index, line));
        sent.kind = Kind::ToolsCall(index);
        self.pending.request(key, Some(Role::Client), sent);
        let call = self.take(line, "/params", converted);
        vec![SessionUpdate::ToolCall(call)]
    }

    /// The in-progress update of a retry continuing the call at `call`: `rawInput` the retry's
    /// arguments, content ``input provided: `KEY`, ...`` (the `inputResponses` keys); the
    /// members ACP has no place for (`inputResponses`, `requestState`, `_meta`) are reported.
    fn retry_update(
        &mut self,
        line: usize,
        call: usize,
        params: &Map<String, Value>,
    ) -> Vec<SessionUpdate> {
        let id = self.calls[call].id.clone();
        let converted = match mcp_tool_call(&id, params, None, &self.kinds) {
            Ok(converted) => converted,
            Err(error) => {
                self.note(
                    line,
                    Change::dropped("/params", Value::Object(params.clone()), error.to_string()),
                );
                return Vec::new();
            }
        };
        let retried = self.take(line, "/params", converted);
        let keys: Vec<String> = params
            .get("inputResponses")
            .and_then(Value::as_object)
            .map(|responses| responses.keys().map(|key| format!("`{key}`")).collect())
            .unwrap_or_default();
        let mut text = String::from("input provided");
        if !keys.is_empty() {
            text.push_str(": ");
            text.push_str(&keys.join(", "));
        }
        let mut update = status_update(&id, text);
        update.raw_input = retried.raw_input;
        vec![SessionUpdate::ToolCallUpdate(update)]
    }

    /// The call waiting for input (MCP 2026-07-28) that the `tools/call` `params` retry, if
    /// any: see the [module docs](self).
    fn retried_call(
        &mut self,
        line: usize,
        name: &str,
        params: &Map<String, Value>,
    ) -> Option<usize> {
        let state = params.get("requestState").and_then(Value::as_str);
        let responses: Option<Vec<&String>> = params
            .get("inputResponses")
            .and_then(Value::as_object)
            .map(|responses| responses.keys().collect());
        if state.is_none() && responses.is_none() {
            return None;
        }
        let waiting: Vec<usize> = (0..self.calls.len())
            .filter(|&index| {
                let call = &self.calls[index];
                call.state == State::InputRequired && call.name == name
            })
            .collect();
        let by_state: Vec<usize> = waiting
            .iter()
            .copied()
            .filter(|&index| {
                state.is_some()
                    && self.calls[index]
                        .input
                        .as_ref()
                        .and_then(|(state, _)| state.as_deref())
                        == state
            })
            .collect();
        let matching = if by_state.is_empty() {
            waiting
                .iter()
                .copied()
                .filter(|&index| {
                    let asked = self.calls[index]
                        .input
                        .as_ref()
                        .map(|(_, keys)| keys.as_slice())
                        .unwrap_or_default();
                    responses.as_ref().is_some_and(|responses| {
                        !responses.is_empty() && responses.iter().all(|key| asked.contains(key))
                    })
                })
                .collect()
        } else {
            by_state
        };
        match matching.as_slice() {
            [one] => Some(*one),
            [] => {
                self.note(
                    line,
                    Change::dropped(
                        "/params",
                        Value::String(name.to_owned()),
                        format!(
                            "a retry of `{name}` (`requestState` or `inputResponses`) with no call of it waiting for input in the transcript: relayed as a new call"
                        ),
                    ),
                );
                None
            }
            several => {
                let ids: Vec<String> = several
                    .iter()
                    .map(|&index| format!("`{}`", self.calls[index].id.0))
                    .collect();
                self.note(
                    line,
                    Change::dropped(
                        "/params",
                        Value::String(name.to_owned()),
                        format!(
                            "a retry of `{name}` that may continue any of {}: relayed as a new call",
                            ids.join(", ")
                        ),
                    ),
                );
                None
            }
        }
    }

    /// The open call at `index`, or a note saying why it has ended.
    fn open_call(&mut self, line: usize, index: usize, what: &str) -> Option<ToolCallId> {
        let call = &self.calls[index];
        if call.state == State::Ended {
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

    fn notification(&mut self, message: &Message<'_>, method: &str) -> Vec<SessionUpdate> {
        let from = message.from.or_else(|| versions::sender(method, false));
        match method {
            "notifications/progress" => self.progress(message, from),
            "notifications/cancelled" => self.cancelled(message, from),
            "notifications/tasks/status" if from != Some(Role::Client) => self.task_status(message),
            _ => Vec::new(),
        }
    }

    fn progress(&mut self, message: &Message<'_>, from: Option<Role>) -> Vec<SessionUpdate> {
        let line = message.line;
        let token = match message.key("/params/progressToken") {
            Some(Ok(token)) => token,
            other => {
                let found = match other {
                    Some(Err(error)) => format!(": {error}"),
                    _ => String::new(),
                };
                self.note(
                    line,
                    Change::dropped(
                        "/params/progressToken",
                        message
                            .params()
                            .and_then(|params| params.get("progressToken"))
                            .cloned()
                            .unwrap_or(Value::Null),
                        format!("progress without a string or integer `progressToken`{found}: not relayed"),
                    ),
                );
                return Vec::new();
            }
        };
        // The client's calls are reported on by the server; other requests of either side by
        // the side that did not send them.
        let calls: Vec<usize> = if from == Some(Role::Client) {
            Vec::new()
        } else {
            (0..self.calls.len())
                .filter(|&index| self.calls[index].tokens.contains(&token))
                .collect()
        };
        let others: Vec<&Sent> = self
            .pending
            .iter()
            .filter(|(_, sent_by, sent)| {
                sent.kind.call().is_none()
                    && sent.token.as_ref() == Some(&token)
                    && match (from, sent_by) {
                        (Some(from), Some(sent_by)) => *sent_by == from.other(),
                        _ => true,
                    }
            })
            .map(|(_, _, sent)| sent)
            .collect();
        let open: Vec<usize> = calls
            .iter()
            .copied()
            .filter(|&index| self.calls[index].state != State::Ended)
            .collect();
        match (open.last(), others.first()) {
            (Some(&call), Some(other)) => {
                let change = Change::dropped(
                    "/params/progressToken",
                    token.to_json(),
                    format!(
                        "bare progress for token `{token}`, which both the client's `tools/call` (`{}`) and a pending `{}` carry: not relayed (wrap the lines with `from`)",
                        self.calls[call].id.0, other.method
                    ),
                );
                self.note(line, change);
                Vec::new()
            }
            (Some(&call), None) => {
                let Some(tool_call_id) = self.open_call(line, call, "progress") else {
                    return Vec::new();
                };
                let params = message.params().cloned().unwrap_or_default();
                match progress_to_update(&tool_call_id, &params) {
                    Ok(converted) => {
                        let update = self.take(line, "/params", converted);
                        vec![SessionUpdate::ToolCallUpdate(update)]
                    }
                    Err(error) => {
                        self.note(
                            line,
                            Change::dropped("/params", Value::Object(params), error.to_string()),
                        );
                        Vec::new()
                    }
                }
            }
            (None, Some(_)) => Vec::new(),
            (None, None) => {
                if let Some(&call) = calls.last() {
                    self.open_call(line, call, "progress");
                } else {
                    self.note(
                        line,
                        Change::dropped(
                            "/params/progressToken",
                            token.to_json(),
                            format!(
                                "progress for token `{token}`, which no pending request of this MCP session carries: not relayed"
                            ),
                        ),
                    );
                }
                Vec::new()
            }
        }
    }

    fn cancelled(&mut self, message: &Message<'_>, from: Option<Role>) -> Vec<SessionUpdate> {
        let line = message.line;
        let key = match message.key("/params/requestId") {
            Some(Ok(key)) => key,
            // 2025-11-25 lets a cancellation of a task omit `requestId`; nothing to relay.
            _ => return Vec::new(),
        };
        let reason = message
            .params()
            .and_then(|params| params.get("reason"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let call = match self.pending.cancel(&key, from) {
            Answer::Paired(sent) => match sent.kind {
                Kind::ToolsCall(call) => call,
                _ => return Vec::new(),
            },
            Answer::Ambiguous(sents) => {
                if let Some(call) = sents.iter().find_map(|sent| sent.kind.call()) {
                    let others: Vec<String> = sents
                        .iter()
                        .filter(|sent| sent.kind.call().is_none())
                        .map(|sent| format!("`{}`", sent.method))
                        .collect();
                    let change = Change::dropped(
                        "/params/requestId",
                        key.to_json(),
                        format!(
                            "a bare cancellation of request `{key}`, which may be the client's `tools/call` (`{}`) or a pending {}: not relayed (wrap the lines with `from`)",
                            self.calls[call].id.0,
                            others.join(", ")
                        ),
                    );
                    self.note(line, change);
                }
                return Vec::new();
            }
            Answer::NotSeen => {
                // A call no longer pending (a task, or ended) by its request id.
                let known = (from != Some(Role::Peer))
                    .then(|| self.requests.get(&key).map(|&(call, _)| call))
                    .flatten();
                match known {
                    Some(call) if self.calls[call].state == State::Ended => {
                        self.open_call(line, call, "cancellation");
                        return Vec::new();
                    }
                    Some(call) => call,
                    None => {
                        self.note(
                            line,
                            Change::dropped(
                                "/params/requestId",
                                key.to_json(),
                                format!(
                                    "cancellation of request `{key}`, which no pending request of its sender in this MCP session has: not relayed"
                                ),
                            ),
                        );
                        return Vec::new();
                    }
                }
            }
        };
        let Some(tool_call_id) = self.open_call(line, call, "cancellation") else {
            return Vec::new();
        };
        self.calls[call].state = State::Ended;
        let update = self.take(
            line,
            "/params",
            cancelled_update(&tool_call_id, reason.as_deref()),
        );
        vec![SessionUpdate::ToolCallUpdate(update)]
    }

    fn task_status(&mut self, message: &Message<'_>) -> Vec<SessionUpdate> {
        let line = message.line;
        let Some(params) = message.params() else {
            return Vec::new();
        };
        let Some(call) = params
            .get("taskId")
            .and_then(Value::as_str)
            .and_then(|task| self.tasks.get(task))
            .copied()
        else {
            return Vec::new();
        };
        let status = params.get("status").and_then(Value::as_str).unwrap_or("");
        let text = task_text(params);
        match status {
            "working" | "input_required" => {
                let Some(tool_call_id) = self.open_call(line, call, "task status") else {
                    return Vec::new();
                };
                vec![SessionUpdate::ToolCallUpdate(status_update(
                    &tool_call_id,
                    text,
                ))]
            }
            "failed" | "cancelled" => self.task_ended(line, call, params, "task status"),
            _ => Vec::new(),
        }
    }

    /// The call at `call` ended with its task, `failed` or `cancelled` (`task`: the task's
    /// status, the `rawOutput`).
    fn task_ended(
        &mut self,
        line: usize,
        call: usize,
        task: &Map<String, Value>,
        what: &str,
    ) -> Vec<SessionUpdate> {
        let Some(tool_call_id) = self.open_call(line, call, what) else {
            return Vec::new();
        };
        self.calls[call].state = State::Ended;
        let mut update = status_update(&tool_call_id, task_text(task));
        update.status = toolcall_contracts::MaybeUndefined::Value(
            toolcall_contracts::acp::ToolCallStatus::Failed,
        );
        update.raw_output = toolcall_contracts::MaybeUndefined::Value(Value::Object(task.clone()));
        vec![SessionUpdate::ToolCallUpdate(update)]
    }

    /// The response to the client's `tasks/cancel` for the task of the call at `call`: a task
    /// whose status is `cancelled` ends the call, `failed`; an error leaves it going.
    fn cancelled_task(&mut self, message: &Message<'_>, call: usize) -> Vec<SessionUpdate> {
        let Some(task) = message.object.get("result").and_then(Value::as_object) else {
            return Vec::new();
        };
        if task.get("status").and_then(Value::as_str) != Some("cancelled") {
            return Vec::new();
        }
        if self.calls[call].state == State::Ended {
            return Vec::new();
        }
        self.task_ended(message.line, call, task, "`tasks/cancel` response")
    }

    fn response(&mut self, message: &Message<'_>) -> Vec<SessionUpdate> {
        let line = message.line;
        let what = if message.object.contains_key("error") {
            "a JSON-RPC error"
        } else {
            "a response"
        };
        let key = match message.key("/id") {
            Some(Ok(key)) => key,
            Some(Err(error)) => {
                self.note(
                    line,
                    Change::dropped(
                        "/id",
                        message.object.get("id").cloned().unwrap_or(Value::Null),
                        format!("{what} whose `id` is not an MCP request id ({error}) answers no request: not relayed"),
                    ),
                );
                return Vec::new();
            }
            None => return Vec::new(),
        };
        match self.pending.answer(&key, message.from) {
            Answer::Paired(sent) => match sent.kind {
                Kind::ToolsCall(call) => self.call_response(message, call),
                Kind::TasksResult(call) => self.ending(message, call),
                Kind::TasksCancel(call) => self.cancelled_task(message, call),
                Kind::ToolsList => {
                    self.titles_from(message.object);
                    Vec::new()
                }
                Kind::Other => Vec::new(),
            },
            Answer::Ambiguous(sents) => {
                if let Some(call) = sents.iter().find_map(|sent| sent.kind.call()) {
                    let methods: Vec<String> = sents
                        .iter()
                        .map(|sent| format!("`{}`", sent.method))
                        .collect();
                    let change = Change::dropped(
                        "",
                        Value::Object(message.object.clone()),
                        format!(
                            "{what} with id `{key}` of unknown direction: requests {} with that id are pending in more than one direction, one of them the client's (`{}`): not relayed (wrap the lines with `from`)",
                            methods.join(", "),
                            self.calls[call].id.0
                        ),
                    );
                    self.note(line, change);
                }
                Vec::new()
            }
            Answer::NotSeen => {
                let call = (message.from != Some(Role::Client))
                    .then(|| self.requests.get(&key).map(|&(call, _)| call))
                    .flatten();
                match call {
                    Some(call) if self.calls[call].state == State::Ended => {
                        self.open_call(line, call, what);
                    }
                    Some(call) => {
                        let id = self.calls[call].id.0.clone();
                        self.note(
                            line,
                            Change::dropped(
                                "",
                                Value::Object(message.object.clone()),
                                format!("a second response to the request of `{id}`: not relayed"),
                            ),
                        );
                    }
                    None => self.note(
                        line,
                        Change::dropped(
                            "",
                            Value::Object(message.object.clone()),
                            format!(
                                "{what} with id `{key}` answers no pending request of the other side in this MCP session: not relayed"
                            ),
                        ),
                    ),
                }
                Vec::new()
            }
        }
    }

    /// The response to a `tools/call`: a task, input required, or the end of the call.
    fn call_response(&mut self, message: &Message<'_>, call: usize) -> Vec<SessionUpdate> {
        let line = message.line;
        let result = message.object.get("result").and_then(Value::as_object);
        if let Some(task) = result
            .and_then(|result| result.get("task"))
            .and_then(Value::as_object)
        {
            let Some(tool_call_id) = self.open_call(line, call, "task result") else {
                return Vec::new();
            };
            if let Some(task_id) = task.get("taskId").and_then(Value::as_str) {
                self.tasks.insert(task_id.to_owned(), call);
            }
            self.calls[call].state = State::Task;
            return vec![SessionUpdate::ToolCallUpdate(status_update(
                &tool_call_id,
                task_text(task),
            ))];
        }
        if let Some(result) = result.filter(|result| {
            result.get("resultType").and_then(Value::as_str) == Some("input_required")
        }) {
            let Some(tool_call_id) = self.open_call(line, call, "input required") else {
                return Vec::new();
            };
            let state = result
                .get("requestState")
                .and_then(Value::as_str)
                .map(str::to_owned);
            let keys: Vec<String> = result
                .get("inputRequests")
                .and_then(Value::as_object)
                .map(|requests| requests.keys().cloned().collect())
                .unwrap_or_default();
            let mut text = String::from("input required");
            if !keys.is_empty() {
                let listed: Vec<String> = keys.iter().map(|key| format!("`{key}`")).collect();
                text.push_str(": ");
                text.push_str(&listed.join(", "));
            }
            let mut update = status_update(&tool_call_id, text);
            update.raw_output =
                toolcall_contracts::MaybeUndefined::Value(Value::Object(result.clone()));
            let call = &mut self.calls[call];
            call.state = State::InputRequired;
            call.input = Some((state, keys));
            return vec![SessionUpdate::ToolCallUpdate(update)];
        }
        self.ending(message, call)
    }

    /// The update ending the call at `call` with the response `message`.
    fn ending(&mut self, message: &Message<'_>, call: usize) -> Vec<SessionUpdate> {
        let line = message.line;
        let Some(tool_call_id) = self.open_call(line, call, "a response") else {
            return Vec::new();
        };
        let update: ToolCallUpdate = if let Some(error) = message.object.get("error") {
            let converted = error_update(&tool_call_id, error);
            self.take(line, "/error", converted)
        } else if let Some(Value::Object(result)) = message.object.get("result") {
            let converted = result_to_update(&tool_call_id, result);
            self.take(line, "/result", converted)
        } else {
            self.note(
                line,
                Change::dropped(
                    "",
                    Value::Object(message.object.clone()),
                    "a response with neither an object `result` nor `error`: the call is not ended",
                ),
            );
            return Vec::new();
        };
        self.calls[call].state = State::Ended;
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
