//! Following tool calls through their life: ACP `tool_call` / `tool_call_update` by
//! `toolCallId`, MCP progress notifications by `progressToken`.
//!
//! Both trackers read raw [`Value`]s, so that a message the schema refuses is still followed as
//! far as it can be; they never fail, they only report [`LifecycleProblem`]s.

use std::collections::VecDeque;

use serde_json::Value;

use super::Side;

/// The maps of what is followed, keyed by ids a peer chose: hashed with `ahash` (randomly
/// seeded, as SipHash is, and already behind `jsonschema`), looked up for every tool-call update.
type Map<K, V> = std::collections::HashMap<K, V, ahash::RandomState>;

/// The most tool calls (ACP) or progress tokens (MCP) followed at once; past it, ended ones are
/// forgotten first, and new ones are not followed when all are still going.
pub const MAX_TRACKED: usize = 65_536;

/// ACP statuses after which a tool call takes no update.
const ACP_TERMINAL: &[&str] = &["completed", "failed"];
/// MCP task statuses after which a task's progress token is spent.
const MCP_TASK_TERMINAL: &[&str] = &["completed", "failed", "cancelled"];

/// What went wrong in a tool call's life. Values are shown as they are on the wire (a string
/// token with its quotes), lines are those of the transcript.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LifecycleProblem {
    /// ACP: a second `tool_call` with a `toolCallId` already announced in the same session.
    #[error("second `tool_call` for `{tool_call_id}` (announced at line {first_line})")]
    DuplicateToolCall {
        /// The `toolCallId`.
        tool_call_id: String,
        /// The line of the first `tool_call`.
        first_line: usize,
    },
    /// ACP: a `tool_call_update` for a `toolCallId` no `tool_call` announced in the session.
    #[error("`tool_call_update` for `{tool_call_id}`, which no `tool_call` announced")]
    UnannouncedUpdate {
        /// The `toolCallId`.
        tool_call_id: String,
    },
    /// ACP: a `tool_call_update` after the call reached `completed` or `failed`.
    #[error(
        "`tool_call_update` for `{tool_call_id}` after it ended `{status}` (line {ended_line})"
    )]
    UpdateAfterEnd {
        /// The `toolCallId`.
        tool_call_id: String,
        /// The terminal status it reached.
        status: String,
        /// The line that reported it.
        ended_line: usize,
    },
    /// MCP: a progress notification whose token no request (of the other side) carried.
    #[error("progress for token `{token}`, which no request in progress carries")]
    UnknownProgressToken {
        /// The `progressToken`, as JSON.
        token: String,
    },
    /// MCP: a progress notification after the response to the request that carried its token.
    #[error(
        "progress for token `{token}` after the response to its request (line {response_line})"
    )]
    ProgressAfterResponse {
        /// The `progressToken`, as JSON.
        token: String,
        /// The line of the response (or of the terminal task status).
        response_line: usize,
    },
    /// MCP: a progress notification after the request that carried its token was cancelled
    /// (`notifications/cancelled`).
    #[error("progress for token `{token}` after its request was cancelled (line {cancel_line})")]
    ProgressAfterCancel {
        /// The `progressToken`, as JSON.
        token: String,
        /// The line of `notifications/cancelled`.
        cancel_line: usize,
    },
    /// MCP: a progress value that is not larger than the previous one for the same token (the
    /// specification says it increases with each notification).
    #[error("progress for token `{token}` did not increase (`{progress}` after `{previous}`)")]
    ProgressNotIncreasing {
        /// The `progressToken`, as JSON.
        token: String,
        /// The previous `progress`, as JSON.
        previous: String,
        /// This `progress`, as JSON.
        progress: String,
    },
    /// MCP: a request carries a progress token that a request in progress (of the same side)
    /// already carries (tokens must be unique among active requests).
    #[error(
        "progress token `{token}` reused while the request of line {first_line} is in progress"
    )]
    ReusedProgressToken {
        /// The `progressToken`, as JSON.
        token: String,
        /// The line of the request that carries it.
        first_line: usize,
    },
    /// More than [`MAX_TRACKED`] tool calls or tokens in progress: later ones are not followed.
    #[error("more than `{limit}` tool calls or progress tokens in progress: later ones are not followed")]
    TrackingLimit {
        /// [`MAX_TRACKED`].
        limit: usize,
    },
}

impl LifecycleProblem {
    /// A short name of the problem for machine output: `duplicate-tool-call`,
    /// `unannounced-update`, `update-after-end`, `unknown-progress-token`,
    /// `progress-after-response`, `progress-after-cancel`, `progress-not-increasing`,
    /// `reused-progress-token` or `tracking-limit`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::DuplicateToolCall { .. } => "duplicate-tool-call",
            Self::UnannouncedUpdate { .. } => "unannounced-update",
            Self::UpdateAfterEnd { .. } => "update-after-end",
            Self::UnknownProgressToken { .. } => "unknown-progress-token",
            Self::ProgressAfterResponse { .. } => "progress-after-response",
            Self::ProgressAfterCancel { .. } => "progress-after-cancel",
            Self::ProgressNotIncreasing { .. } => "progress-not-increasing",
            Self::ReusedProgressToken { .. } => "reused-progress-token",
            Self::TrackingLimit { .. } => "tracking-limit",
        }
    }
}

/// A tool call first seen in an update after a gap in checking (bytes relayed but not checked,
/// [`super::Event::NotChecked`], or a message over the byte limit, which is not read): its
/// `tool_call` may have been in the gap, so it is not reported
/// as unannounced; it is followed from that update on. Said once per gap, at the first such call
/// (ACP), or progress token (MCP).
///
/// Displays as ``tool call `c9` first seen in an update after the bytes not checked at line 700
/// (its announcement may have been there): followed from here; other calls that gap hid are not
/// named``.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{what} `{id}` first seen in an update after the bytes not checked at line {gap_line} (its \
     announcement may have been there): followed from here; other {what}s that gap hid are not \
     named"
)]
pub struct HiddenByGap {
    /// `tool call` (ACP) or `progress token` (MCP).
    pub what: &'static str,
    /// The `toolCallId`, or the `progressToken` as JSON.
    pub id: String,
    /// The transcript line of the gap (its `not_checked_bytes` record, or the record of the
    /// message over the byte limit).
    pub gap_line: usize,
}

/// What following tool calls found in one message: a problem, or a note that a gap in checking
/// may have hidden a call's announcement. [`super::Lifecycle::follow_line`] gives both, as the
/// tap reports them live ([`super::Event::Lifecycle`], [`super::Event::HiddenByGap`]).
///
/// Displays as the tap and `toolcall validate --lifecycle` word it after a finding's place (the
/// tap's `line 12 (agent): `, validate's `FILE:12: `): ``tool call: `tool_call_update` for `c1`
/// after it ended `completed` (line 10)`` for a problem, ``note: tool call `c9` first seen in an
/// update after the bytes not checked at line 7 (its announcement may have been there): ...``
/// for a note.
///
/// ```
/// use toolcall_traffic::tap::{HiddenByGap, LifecycleFinding, LifecycleProblem};
///
/// let problem = LifecycleFinding::Problem(LifecycleProblem::UnannouncedUpdate {
///     tool_call_id: "c1".into(),
/// });
/// assert_eq!(
///     problem.to_string(),
///     "tool call: `tool_call_update` for `c1`, which no `tool_call` announced"
/// );
/// assert_eq!(problem.name(), "unannounced-update");
/// let note = LifecycleFinding::Hidden(HiddenByGap {
///     what: "tool call",
///     id: "c9".into(),
///     gap_line: 7,
/// });
/// assert!(note.to_string().starts_with("note: tool call `c9` first seen in an update after"));
/// assert_eq!(note.name(), "hidden-by-gap");
/// ```
///
/// Exhaustive on purpose: what counts as a problem is each reader's decision (a problem fails
/// `toolcall validate --lifecycle`, a note does not), so a new kind of finding must not pass
/// unnoticed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LifecycleFinding {
    /// A tool call's life went wrong: counted, and fails `toolcall validate --lifecycle`.
    Problem(LifecycleProblem),
    /// A tool call a gap in checking may have hidden the announcement of: a note, not a
    /// problem.
    Hidden(HiddenByGap),
}

impl LifecycleFinding {
    /// A short name for machine output: the problem's ([`LifecycleProblem::name`]), or
    /// `hidden-by-gap` (the event the tap's JSON report names so).
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Problem(problem) => problem.name(),
            Self::Hidden(_) => "hidden-by-gap",
        }
    }
}

impl std::fmt::Display for LifecycleFinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Problem(problem) => write!(f, "tool call: {problem}"),
            Self::Hidden(hidden) => write!(f, "note: {hidden}"),
        }
    }
}

#[cfg(test)]
impl LifecycleFinding {
    /// The problem, when it is one.
    pub(crate) fn problem(self) -> Option<LifecycleProblem> {
        match self {
            Self::Problem(problem) => Some(problem),
            Self::Hidden(_) => None,
        }
    }
}

/// The latest gap in checking of a session: its transcript line, and whether a call it hid was
/// told already.
#[derive(Debug, Clone, Copy)]
struct GapSeen {
    line: usize,
    told: bool,
}

impl GapSeen {
    /// The finding for `id`, first seen after this gap: told once per gap.
    fn hid(&mut self, what: &'static str, id: String) -> Option<LifecycleFinding> {
        let first = !std::mem::replace(&mut self.told, true);
        first.then_some(LifecycleFinding::Hidden(HiddenByGap {
            what,
            id,
            gap_line: self.line,
        }))
    }
}

/// One ACP tool call's state.
#[derive(Debug, Clone)]
struct AcpCall {
    announced_line: usize,
    /// `(status, line)` once it reached a terminal status (one of [`ACP_TERMINAL`]).
    ended: Option<(&'static str, usize)>,
}

/// The tool calls followed, by session and then by tool call id (looked up without building a
/// key), and how many there are.
#[derive(Debug, Default)]
struct Calls {
    by_session: Map<String, Map<String, AcpCall>>,
    len: usize,
}

impl Calls {
    fn get(&self, session: &str, id: &str) -> Option<&AcpCall> {
        self.by_session.get(session)?.get(id)
    }

    fn get_mut(&mut self, session: &str, id: &str) -> Option<&mut AcpCall> {
        self.by_session.get_mut(session)?.get_mut(id)
    }

    /// Follows `call`, unless a call of that id is followed already in `session`.
    fn insert_new(&mut self, session: &str, id: String, call: AcpCall) {
        let calls = match self.by_session.get_mut(session) {
            Some(calls) => calls,
            None => self.by_session.entry(session.to_owned()).or_default(),
        };
        if let std::collections::hash_map::Entry::Vacant(vacant) = calls.entry(id) {
            vacant.insert(call);
            self.len += 1;
        }
    }

    /// Stops following the calls of `session`; returns them.
    fn take_session(&mut self, session: &str) -> Map<String, AcpCall> {
        let calls = self.by_session.remove(session).unwrap_or_default();
        self.len -= calls.len();
        calls
    }

    /// Stops following the calls that ended.
    fn retain_open(&mut self) {
        for calls in self.by_session.values_mut() {
            calls.retain(|_, call| call.ended.is_none());
        }
        self.by_session.retain(|_, calls| !calls.is_empty());
        self.len = self.by_session.values().map(Map::len).sum();
    }
}

/// A `session/load` or `session/resume` waiting for its response: while it does, the agent
/// replays the session's history, old tool calls with their original ids.
#[derive(Debug, Default)]
struct Replay {
    /// The session's calls as they were before the request: a replayed call starts afresh, and
    /// those the replay does not mention are kept when the response comes.
    before: Map<String, AcpCall>,
}

/// A `session/update` notification with a tool call id, as the lifecycle reads it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ToolCallUpdate<'a> {
    pub(crate) session: &'a str,
    /// `sessionUpdate`: `tool_call` and `tool_call_update` are followed.
    pub(crate) kind: &'a str,
    pub(crate) tool_call_id: &'a str,
    pub(crate) status: Option<&'a str>,
}

/// ACP tool calls by `(sessionId, toolCallId)`, from `session/update` notifications.
///
/// A `session/load` (and a `session/resume`, for an agent that replays on it) makes the agent
/// replay the session's history as `session/update`s before it answers, with the original
/// tool-call ids (ACP, "Loading Sessions"): from the request to its response, the calls of that
/// session are followed afresh, so that a call the connection saw live and sees again in the
/// replay is not a second `tool_call` nor an update after its end.
#[derive(Debug, Default)]
pub(crate) struct AcpToolCalls {
    calls: Calls,
    /// Sessions being loaded, by session id.
    replays: Map<String, Replay>,
    /// The request id (as JSON) of each load or resume waiting for its response -> session id.
    loading: Map<String, String>,
    saturated: bool,
    /// The latest gap in checking.
    gap: Option<GapSeen>,
}

impl AcpToolCalls {
    /// Whether a load or resume waits for its response (which [`AcpToolCalls::loaded`] reads).
    pub(crate) fn awaits_response(&self) -> bool {
        !self.loading.is_empty()
    }

    /// A `session/load` or `session/resume` request (`message` is the whole JSON-RPC object):
    /// the replay of its session starts.
    pub(crate) fn load(&mut self, message: &Value) {
        let (Some(id), Some(session)) = (
            message.get("id").map(Value::to_string),
            message
                .get("params")
                .and_then(|params| params.get("sessionId"))
                .and_then(Value::as_str),
        ) else {
            return;
        };
        let replay = self.replays.entry(session.to_owned()).or_default();
        replay.before.extend(self.calls.take_session(session));
        self.loading.insert(id, session.to_owned());
    }

    /// A response: when it answers a load or resume, the replay is over; the calls it did not
    /// mention are followed as before it.
    pub(crate) fn loaded(&mut self, message: &Value) {
        let Some(id) = message.get("id").map(Value::to_string) else {
            return;
        };
        let Some(session) = self.loading.remove(&id) else {
            return;
        };
        if self.loading.values().any(|other| *other == session) {
            return;
        }
        let Some(replay) = self.replays.remove(&session) else {
            return;
        };
        for (id, call) in replay.before {
            self.calls.insert_new(&session, id, call);
        }
    }

    /// Bytes were relayed but not checked (transcript line `line`): a message announcing a tool
    /// call may have been among them.
    pub(crate) fn gap(&mut self, line: usize) {
        self.gap = Some(GapSeen { line, told: false });
    }

    /// Follows a `session/update` notification (`message` is the whole JSON-RPC object).
    pub(crate) fn observe(&mut self, line: usize, message: &Value) -> Option<LifecycleFinding> {
        let params = message.get("params")?;
        let update = params.get("update")?;
        self.observe_tool_call(
            line,
            ToolCallUpdate {
                session: params.get("sessionId")?.as_str()?,
                kind: update.get("sessionUpdate")?.as_str()?,
                tool_call_id: update.get("toolCallId")?.as_str()?,
                status: update.get("status").and_then(Value::as_str),
            },
        )
    }

    /// Follows a `session/update` notification with a tool call id, read into `call`.
    pub(crate) fn observe_tool_call(
        &mut self,
        line: usize,
        call: ToolCallUpdate<'_>,
    ) -> Option<LifecycleFinding> {
        let ToolCallUpdate {
            session,
            kind,
            tool_call_id: id,
            status,
        } = call;
        let terminal =
            status.and_then(|status| ACP_TERMINAL.iter().copied().find(|end| *end == status));
        if let Some(replay) = self.replays.get_mut(session) {
            // A call the replay updates before announcing it (its history may start past the
            // `tool_call`) continues from what the connection saw of it, its end replayed too.
            if kind == "tool_call_update" && self.calls.get(session, id).is_none() {
                if let Some(mut call) = replay.before.remove(id) {
                    call.ended = None;
                    self.calls.insert_new(session, id.to_owned(), call);
                }
            }
        }
        match kind {
            "tool_call" => {
                if let Some(first) = self.calls.get(session, id) {
                    return Some(LifecycleFinding::Problem(
                        LifecycleProblem::DuplicateToolCall {
                            tool_call_id: id.to_owned(),
                            first_line: first.announced_line,
                        },
                    ));
                }
                self.insert(
                    session,
                    id,
                    AcpCall {
                        announced_line: line,
                        ended: terminal.map(|status| (status, line)),
                    },
                )
                .map(LifecycleFinding::Problem)
            }
            "tool_call_update" => {
                let Some(call) = self.calls.get_mut(session, id) else {
                    if let Some(mut gap) = self.gap {
                        // Announced where checking had a gap, most likely: followed from here.
                        let hidden = gap.hid("tool call", id.to_owned());
                        self.gap = Some(gap);
                        let call = AcpCall {
                            announced_line: gap.line,
                            ended: terminal.map(|status| (status, line)),
                        };
                        return match self.insert(session, id, call) {
                            Some(problem) => Some(LifecycleFinding::Problem(problem)),
                            None => hidden,
                        };
                    }
                    return (!self.saturated).then(|| {
                        LifecycleFinding::Problem(LifecycleProblem::UnannouncedUpdate {
                            tool_call_id: id.to_owned(),
                        })
                    });
                };
                if let Some((status, ended_line)) = call.ended {
                    return Some(LifecycleFinding::Problem(
                        LifecycleProblem::UpdateAfterEnd {
                            tool_call_id: id.to_owned(),
                            status: status.to_owned(),
                            ended_line,
                        },
                    ));
                }
                call.ended = terminal.map(|status| (status, line));
                None
            }
            _ => None,
        }
    }

    fn insert(&mut self, session: &str, id: &str, call: AcpCall) -> Option<LifecycleProblem> {
        if self.calls.len >= MAX_TRACKED {
            self.calls.retain_open();
        }
        if self.calls.len >= MAX_TRACKED {
            let first = !self.saturated;
            self.saturated = true;
            return first.then_some(LifecycleProblem::TrackingLimit { limit: MAX_TRACKED });
        }
        self.calls.insert_new(session, id.to_owned(), call);
        None
    }
}

/// How a progress token stopped being valid.
#[derive(Debug, Clone, Copy)]
enum Spent {
    Responded(usize),
    Cancelled(usize),
}

/// One progress token in use.
#[derive(Debug, Clone)]
struct Token {
    request_line: usize,
    /// The last `progress` value, to check that it increases.
    last: Option<Value>,
}

/// MCP progress tokens: a request's `params._meta.progressToken` is valid for progress
/// notifications from the other side until the response (or, when the response created a task,
/// until the task's terminal status or its `tasks/result` response), or the request's
/// cancellation.
#[derive(Debug, Default)]
pub(crate) struct McpProgress {
    /// `(requesting side, token as JSON)` in use.
    active: Map<(Side, String), Token>,
    /// `(requesting side, request id as JSON)` -> token as JSON.
    by_request: Map<(Side, String), String>,
    /// Task id -> the token of the request that created it.
    by_task: Map<String, (Side, String)>,
    /// `(requesting side, request id as JSON)` of pending `tasks/result` requests -> task id.
    task_results: Map<(Side, String), String>,
    /// Spent tokens, oldest first, at most [`MAX_TRACKED`].
    spent: Map<(Side, String), Spent>,
    spent_order: VecDeque<(Side, String)>,
    saturated: bool,
    /// The latest gap in checking.
    gap: Option<GapSeen>,
}

impl McpProgress {
    /// Whether a request carrying a progress token, or a `tasks/result`, waits for its
    /// response (which [`McpProgress::response`] reads).
    pub(crate) fn awaits_response(&self) -> bool {
        !self.by_request.is_empty() || !self.task_results.is_empty()
    }

    /// Bytes were relayed but not checked (transcript line `line`): a request carrying a
    /// progress token may have been among them.
    pub(crate) fn gap(&mut self, line: usize) {
        self.gap = Some(GapSeen { line, told: false });
    }

    /// A request from `side`.
    pub(crate) fn request(
        &mut self,
        side: Side,
        line: usize,
        message: &Value,
    ) -> Option<LifecycleProblem> {
        let id = message.get("id")?.to_string();
        let params = message.get("params");
        if message.get("method").and_then(Value::as_str) == Some("tasks/result") {
            if let Some(task) = params.and_then(|p| p.get("taskId")).and_then(Value::as_str) {
                self.task_results
                    .insert((side, id.clone()), task.to_owned());
            }
        }
        let token = params?.get("_meta")?.get("progressToken")?.to_string();
        let key = (side, token.clone());
        if let Some(first) = self.active.get(&key) {
            return Some(LifecycleProblem::ReusedProgressToken {
                token,
                first_line: first.request_line,
            });
        }
        if self.active.len() >= MAX_TRACKED {
            let first = !self.saturated;
            self.saturated = true;
            return first.then_some(LifecycleProblem::TrackingLimit { limit: MAX_TRACKED });
        }
        self.spent.remove(&key);
        self.active.insert(
            key,
            Token {
                request_line: line,
                last: None,
            },
        );
        self.by_request.insert((side, id), token);
        None
    }

    /// A response from `side`, to a request of the other side.
    pub(crate) fn response(&mut self, side: Side, line: usize, message: &Value) {
        let Some(id) = message.get("id").map(Value::to_string) else {
            return;
        };
        let requester = side.other();
        if let Some(task) = self.task_results.remove(&(requester, id.clone())) {
            if let Some(key) = self.by_task.remove(&task) {
                self.spend(key, Spent::Responded(line));
            }
        }
        let Some(token) = self.by_request.remove(&(requester, id)) else {
            return;
        };
        let created_task = message
            .get("result")
            .and_then(|r| r.get("task"))
            .and_then(|t| t.get("taskId"))
            .and_then(Value::as_str);
        match created_task {
            // The token lives as long as the task.
            Some(task) => {
                self.by_task.insert(task.to_owned(), (requester, token));
            }
            None => self.spend((requester, token), Spent::Responded(line)),
        }
    }

    /// A notification from `side`.
    pub(crate) fn notification(
        &mut self,
        side: Side,
        line: usize,
        message: &Value,
    ) -> Option<LifecycleFinding> {
        let method = message.get("method")?.as_str()?;
        let params = message.get("params")?;
        match method {
            "notifications/cancelled" => {
                let id = params.get("requestId")?.to_string();
                let token = self.by_request.remove(&(side, id))?;
                self.spend((side, token), Spent::Cancelled(line));
                None
            }
            "notifications/tasks/status" => {
                let status = params.get("status")?.as_str()?;
                if MCP_TASK_TERMINAL.contains(&status) {
                    let task = params.get("taskId")?.as_str()?;
                    let key = self.by_task.remove(task)?;
                    self.spend(key, Spent::Responded(line));
                }
                None
            }
            "notifications/progress" => {
                let token = params.get("progressToken")?.to_string();
                let key = (side.other(), token.clone());
                if let Some(active) = self.active.get_mut(&key) {
                    let progress = params.get("progress")?;
                    let previous = active.last.replace(progress.clone());
                    return previous
                        .filter(|previous| !increases(previous, progress))
                        .map(|previous| {
                            LifecycleFinding::Problem(LifecycleProblem::ProgressNotIncreasing {
                                token,
                                previous: previous.to_string(),
                                progress: progress.to_string(),
                            })
                        });
                }
                Some(LifecycleFinding::Problem(match self.spent.get(&key) {
                    Some(Spent::Responded(response_line)) => {
                        LifecycleProblem::ProgressAfterResponse {
                            token,
                            response_line: *response_line,
                        }
                    }
                    Some(Spent::Cancelled(cancel_line)) => LifecycleProblem::ProgressAfterCancel {
                        token,
                        cancel_line: *cancel_line,
                    },
                    None if self.saturated => return None,
                    None => {
                        let Some(mut gap) = self.gap else {
                            return Some(LifecycleFinding::Problem(
                                LifecycleProblem::UnknownProgressToken { token },
                            ));
                        };
                        // Carried by a request where checking had a gap, most likely: followed
                        // from here.
                        let hidden = gap.hid("progress token", token.clone());
                        self.gap = Some(gap);
                        if self.active.len() < MAX_TRACKED {
                            self.active.insert(
                                key,
                                Token {
                                    request_line: gap.line,
                                    last: params.get("progress").cloned(),
                                },
                            );
                        }
                        return hidden;
                    }
                }))
            }
            _ => None,
        }
    }

    fn spend(&mut self, key: (Side, String), how: Spent) {
        self.active.remove(&key);
        if self.spent_order.len() >= MAX_TRACKED {
            if let Some(oldest) = self.spent_order.pop_front() {
                self.spent.remove(&oldest);
            }
        }
        self.spent_order.push_back(key.clone());
        self.spent.insert(key, how);
    }
}

/// Whether `progress` is larger than `previous` (both JSON numbers; anything else is let pass,
/// the schema check reports it).
fn increases(previous: &Value, progress: &Value) -> bool {
    match (previous.as_f64(), progress.as_f64()) {
        (Some(previous), Some(progress)) => progress > previous,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn observe(calls: &mut AcpToolCalls, line: usize, message: &Value) -> Option<LifecycleProblem> {
        calls
            .observe(line, message)
            .and_then(LifecycleFinding::problem)
    }

    fn notify(
        tokens: &mut McpProgress,
        side: Side,
        line: usize,
        message: &Value,
    ) -> Option<LifecycleProblem> {
        tokens
            .notification(side, line, message)
            .and_then(LifecycleFinding::problem)
    }

    fn update(kind: &str, id: &str, status: Option<&str>) -> Value {
        let mut update = json!({"sessionUpdate": kind, "toolCallId": id, "title": "t"});
        if let Some(status) = status {
            update["status"] = json!(status);
        }
        json!({"jsonrpc": "2.0", "method": "session/update",
               "params": {"sessionId": "s1", "update": update}})
    }

    #[test]
    fn acp_tool_calls_past_the_limit_drop_ended_ones_then_say_so_once() {
        let mut calls = AcpToolCalls::default();
        let call = |calls: &mut AcpToolCalls, session: &str, id: &str, status| {
            let update = ToolCallUpdate {
                session,
                kind: "tool_call",
                tool_call_id: id,
                status,
            };
            calls
                .observe_tool_call(1, update)
                .and_then(LifecycleFinding::problem)
        };
        // Half of them ended, in two sessions.
        for n in 0..MAX_TRACKED {
            let status = Some(if n % 2 == 0 { "completed" } else { "pending" });
            let session = if n % 3 == 0 { "s1" } else { "s2" };
            assert_eq!(call(&mut calls, session, &format!("c{n}"), status), None);
        }
        assert_eq!(calls.calls.len, MAX_TRACKED);
        // Full: the ended ones are dropped to make room.
        assert_eq!(call(&mut calls, "s1", "new", None), None);
        assert_eq!(calls.calls.len, MAX_TRACKED / 2 + 1);
        // A session loaded and answered keeps its calls, and the count.
        calls.load(&json!({"id": 7, "method": "session/load", "params": {"sessionId": "s1"}}));
        assert_eq!(calls.calls.get("s1", "new").map(|c| c.announced_line), None);
        calls.loaded(&json!({"id": 7, "result": {}}));
        assert_eq!(
            calls.calls.get("s1", "new").map(|c| c.announced_line),
            Some(1)
        );
        assert_eq!(calls.calls.len, MAX_TRACKED / 2 + 1);
        // Open calls up to the limit, then one more: said once.
        for n in 0..MAX_TRACKED / 2 - 1 {
            assert_eq!(call(&mut calls, "s3", &format!("c{n}"), None), None);
        }
        assert_eq!(calls.calls.len, MAX_TRACKED);
        assert_eq!(
            call(&mut calls, "s3", "over", None),
            Some(LifecycleProblem::TrackingLimit { limit: MAX_TRACKED })
        );
        assert_eq!(call(&mut calls, "s3", "over again", None), None);
    }

    #[test]
    fn acp_tool_calls_are_followed_per_session_and_id() {
        let mut calls = AcpToolCalls::default();
        assert_eq!(
            observe(&mut calls, 3, &update("tool_call", "c1", None)),
            None
        );
        assert_eq!(
            observe(
                &mut calls,
                4,
                &update("tool_call_update", "c1", Some("in_progress"))
            ),
            None
        );
        assert_eq!(
            observe(&mut calls, 5, &update("tool_call", "c1", Some("pending"))),
            Some(LifecycleProblem::DuplicateToolCall {
                tool_call_id: "c1".into(),
                first_line: 3
            })
        );
        assert_eq!(
            observe(&mut calls, 6, &update("tool_call_update", "c2", None)),
            Some(LifecycleProblem::UnannouncedUpdate {
                tool_call_id: "c2".into()
            })
        );
        assert_eq!(
            observe(
                &mut calls,
                7,
                &update("tool_call_update", "c1", Some("completed"))
            ),
            None
        );
        let after = observe(&mut calls, 8, &update("tool_call_update", "c1", None));
        assert_eq!(
            after.as_ref().map(ToString::to_string).as_deref(),
            Some("`tool_call_update` for `c1` after it ended `completed` (line 7)")
        );
        // Announced already failed: no update after it.
        assert_eq!(
            observe(&mut calls, 9, &update("tool_call", "c3", Some("failed"))),
            None
        );
        assert!(matches!(
            observe(
                &mut calls,
                10,
                &update("tool_call_update", "c3", Some("failed"))
            ),
            Some(LifecycleProblem::UpdateAfterEnd { ended_line: 9, .. })
        ));
        // The same id in another session is another call.
        let mut other = update("tool_call", "c1", None);
        other["params"]["sessionId"] = json!("s2");
        assert_eq!(observe(&mut calls, 11, &other), None);
        // Other updates are not tool calls.
        let chunk = json!({"method": "session/update", "params": {"sessionId": "s1",
            "update": {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "x"}}}});
        assert_eq!(observe(&mut calls, 12, &chunk), None);
    }

    fn progress(token: Value, value: f64) -> Value {
        json!({"jsonrpc": "2.0", "method": "notifications/progress",
               "params": {"progressToken": token, "progress": value, "total": 5}})
    }

    #[test]
    fn progress_for_a_token_a_gap_may_have_carried_is_followed_and_told_once() {
        let mut tokens = McpProgress::default();
        tokens.gap(4);
        let told = tokens.notification(Side::Child, 5, &progress(json!("t"), 1.0));
        assert_eq!(
            told,
            Some(LifecycleFinding::Hidden(HiddenByGap {
                what: "progress token",
                id: "\"t\"".into(),
                gap_line: 4
            }))
        );
        assert_eq!(
            told.map(|finding| match finding {
                LifecycleFinding::Hidden(hidden) => hidden.to_string(),
                LifecycleFinding::Problem(problem) => problem.to_string(),
            })
            .as_deref(),
            Some(
                "progress token `\"t\"` first seen in an update after the bytes not checked at \
                 line 4 (its announcement may have been there): followed from here; other \
                 progress tokens that gap hid are not named"
            )
        );
        // Once per gap; the token is followed from there.
        assert_eq!(
            tokens.notification(Side::Child, 6, &progress(json!("u"), 1.0)),
            None
        );
        assert!(matches!(
            notify(&mut tokens, Side::Child, 7, &progress(json!("t"), 0.5)),
            Some(LifecycleProblem::ProgressNotIncreasing { .. })
        ));
    }

    #[test]
    fn mcp_progress_is_valid_from_request_to_response() {
        let mut tokens = McpProgress::default();
        let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "slow", "_meta": {"progressToken": 7}}});
        assert_eq!(tokens.request(Side::Client, 1, &call), None);
        assert_eq!(
            notify(&mut tokens, Side::Child, 2, &progress(json!(7), 1.0)),
            None
        );
        assert_eq!(
            notify(&mut tokens, Side::Child, 3, &progress(json!(7), 1.0)),
            Some(LifecycleProblem::ProgressNotIncreasing {
                token: "7".into(),
                previous: "1.0".into(),
                progress: "1.0".into()
            })
        );
        // A string token "7" is another token; so is 7 from the client's side.
        assert_eq!(
            notify(&mut tokens, Side::Child, 4, &progress(json!("7"), 1.0)),
            Some(LifecycleProblem::UnknownProgressToken {
                token: "\"7\"".into()
            })
        );
        assert!(tokens
            .notification(Side::Client, 4, &progress(json!(7), 2.0))
            .is_some());
        tokens.response(
            Side::Child,
            5,
            &json!({"jsonrpc": "2.0", "id": 7, "result": {"content": []}}),
        );
        assert_eq!(
            notify(&mut tokens, Side::Child, 6, &progress(json!(7), 3.0))
                .map(|p| p.to_string())
                .as_deref(),
            Some("progress for token `7` after the response to its request (line 5)")
        );
    }

    #[test]
    fn mcp_progress_after_cancellation_and_task_lifetime() {
        let mut tokens = McpProgress::default();
        let call = |id: u64| {
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                   "params": {"name": "slow", "_meta": {"progressToken": format!("t{id}")}}})
        };
        tokens.request(Side::Client, 1, &call(1));
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                            "params": {"requestId": 1, "reason": "user"}});
        assert_eq!(notify(&mut tokens, Side::Client, 2, &cancel), None);
        assert_eq!(
            notify(&mut tokens, Side::Child, 3, &progress(json!("t1"), 2.0)),
            Some(LifecycleProblem::ProgressAfterCancel {
                token: "\"t1\"".into(),
                cancel_line: 2
            })
        );
        // A task: the token outlives the response that created the task.
        tokens.request(Side::Client, 4, &call(2));
        assert_eq!(
            tokens.request(Side::Client, 5, &call(2)),
            Some(LifecycleProblem::ReusedProgressToken {
                token: "\"t2\"".into(),
                first_line: 4
            })
        );
        tokens.response(
            Side::Child,
            6,
            &json!({"jsonrpc": "2.0", "id": 2, "result": {"task": {"taskId": "k", "status": "working"}}}),
        );
        assert_eq!(
            notify(&mut tokens, Side::Child, 7, &progress(json!("t2"), 1.0)),
            None
        );
        let done = json!({"jsonrpc": "2.0", "method": "notifications/tasks/status",
                          "params": {"taskId": "k", "status": "completed"}});
        assert_eq!(notify(&mut tokens, Side::Child, 8, &done), None);
        assert!(matches!(
            notify(&mut tokens, Side::Child, 9, &progress(json!("t2"), 2.0)),
            Some(LifecycleProblem::ProgressAfterResponse {
                response_line: 8,
                ..
            })
        ));
    }

    #[test]
    fn problems_name_themselves() {
        let all = [
            LifecycleProblem::DuplicateToolCall {
                tool_call_id: "c".into(),
                first_line: 1,
            },
            LifecycleProblem::TrackingLimit { limit: MAX_TRACKED },
        ];
        assert_eq!(all[0].name(), "duplicate-tool-call");
        assert_eq!(
            all[1].to_string(),
            "more than `65536` tool calls or progress tokens in progress: later ones are not followed"
        );
    }
}
