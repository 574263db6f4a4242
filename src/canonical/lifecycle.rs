//! The life of a tool action: [`ToolLifecycleEvent`] on the wire
//! (`schema/canonical/lifecycle.schema.json`), and the in-process [`ToolStartError`],
//! [`ToolRuntimeError`] and [`ToolCompletion`].

use std::time::Duration;

use super::error::ToolContractError;
use super::ids::{ToolActionId, ToolId};
use super::result::{CanonicalToolError, CanonicalToolOutput, CanonicalToolResultOutcome};
use super::wire;
use super::{CanonicalToolResult, ToolRuntimeErrorCode};

/// An event in the life of one tool action: `Started`, then exactly one of `Completed` or
/// `RuntimeFailed`.
///
/// On the wire, an object tagged by `type` (`$defs/ToolLifecycleEvent` in
/// `schema/canonical/lifecycle.schema.json`):
///
/// ```
/// use serde_json::json;
/// use toolcall_contracts::canonical::{ToolActionId, ToolId, ToolLifecycleEvent, ToolRuntimeErrorCode};
///
/// let event = ToolLifecycleEvent::RuntimeFailed {
///     tool_action_id: ToolActionId::try_new("0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f:1")?,
///     tool_id: ToolId::try_new("clock/now@1")?,
///     code: ToolRuntimeErrorCode::DeadlineExceeded,
/// };
/// let wire = json!({
///     "type": "runtime_failed",
///     "tool_action_id": "0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f:1",
///     "tool_id": "clock/now@1",
///     "code": "deadline_exceeded"
/// });
/// assert_eq!(serde_json::to_value(&event)?, wire);
/// assert_eq!(serde_json::from_value::<ToolLifecycleEvent>(wire)?, event);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Encoding fails, rather than write JSON that would not decode, when a `tool_action_id` was
/// built by [`ToolActionId::new`] and breaks its rule.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(try_from = "wire::ToolLifecycleEvent")]
#[expect(
    clippy::large_enum_variant,
    reason = "an event is built once per tool action and moved on, not stored in bulk; \
              `Completed { result }` stays a plain value to build and match"
)]
pub enum ToolLifecycleEvent {
    /// The runtime started the tool action (`"type": "started"`).
    Started {
        /// The tool action (`tool_action_id`).
        tool_action_id: ToolActionId,
        /// Registry id of the tool (`tool_id`).
        tool_id: ToolId,
    },
    /// The tool action ran to completion: it succeeded or the tool reported a domain failure
    /// (`"type": "completed"`).
    Completed {
        /// The result (`result`).
        result: CanonicalToolResult,
    },
    /// The runtime could not complete the tool action; no result exists
    /// (`"type": "runtime_failed"`).
    RuntimeFailed {
        /// The tool action (`tool_action_id`).
        tool_action_id: ToolActionId,
        /// Registry id of the tool (`tool_id`).
        tool_id: ToolId,
        /// What failed (`code`).
        code: ToolRuntimeErrorCode,
    },
}

impl TryFrom<wire::ToolLifecycleEvent> for ToolLifecycleEvent {
    type Error = ToolContractError;
    fn try_from(wire: wire::ToolLifecycleEvent) -> Result<Self, ToolContractError> {
        Ok(match wire {
            wire::ToolLifecycleEvent::Started(w) => Self::Started {
                tool_action_id: ToolActionId::try_new(w.tool_action_id)?,
                tool_id: ToolId::try_new(w.tool_id)?,
            },
            wire::ToolLifecycleEvent::Completed(w) => Self::Completed {
                result: w.result.try_into()?,
            },
            wire::ToolLifecycleEvent::RuntimeFailed(w) => Self::RuntimeFailed {
                tool_action_id: ToolActionId::try_new(w.tool_action_id)?,
                tool_id: ToolId::try_new(w.tool_id)?,
                code: w.code,
            },
        })
    }
}

impl ToolLifecycleEvent {
    /// The wire form, when every tool action id is valid.
    fn to_wire(&self) -> Result<wire::ToolLifecycleEvent, ToolContractError> {
        Ok(match self {
            Self::Started {
                tool_action_id,
                tool_id,
            } => wire::ToolLifecycleEvent::Started(wire::ToolLifecycleEventStarted {
                tool_action_id: tool_action_id.to_wire()?,
                tool_id: tool_id.to_string(),
            }),
            Self::Completed { result } => {
                wire::ToolLifecycleEvent::Completed(wire::ToolLifecycleEventCompleted {
                    result: result.to_wire()?,
                })
            }
            Self::RuntimeFailed {
                tool_action_id,
                tool_id,
                code,
            } => wire::ToolLifecycleEvent::RuntimeFailed(wire::ToolLifecycleEventRuntimeFailed {
                tool_action_id: tool_action_id.to_wire()?,
                tool_id: tool_id.to_string(),
                code: *code,
            }),
        })
    }
}

impl serde::Serialize for ToolLifecycleEvent {
    /// # Errors
    /// The serializer's error carrying [`ToolActionId::validate`]'s message when a
    /// `tool_action_id` breaks its rule.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let wire = self.to_wire().map_err(serde::ser::Error::custom)?;
        serde::Serialize::serialize(&wire, serializer)
    }
}

/// Why the runtime did not start a call. In-process only.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolStartError {
    /// The tool already runs as many calls as its `max_concurrent` limit allows.
    #[error("tool `{tool_id}` already runs its limit of {max_concurrent} concurrent calls")]
    CapacityExceeded {
        /// The tool.
        tool_id: ToolId,
        /// Its limit ([`super::ToolLimits::max_concurrent`]).
        max_concurrent: u32,
    },
    /// The runtime refused the call before starting it (arguments over `max_input_bytes`,
    /// arguments that break the input schema, a tool being shut down...).
    #[error("tool `{tool_id}` rejected the call: {reason}")]
    Rejected {
        /// The tool.
        tool_id: ToolId,
        /// Why, for a log (lowercase, no trailing period).
        reason: String,
    },
}

/// Why the runtime could not complete a call it started. In-process only; on the wire it is the
/// [`ToolRuntimeErrorCode`] of a [`ToolLifecycleEvent::RuntimeFailed`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolRuntimeError {
    /// The tool panicked.
    #[error("tool `{tool_id}` panicked")]
    Panicked {
        /// The tool.
        tool_id: ToolId,
    },
    /// The tool's task ended without reporting a completion (dropped, or its channel closed).
    #[error("tool `{tool_id}` ended without reporting a completion")]
    CompletionLost {
        /// The tool.
        tool_id: ToolId,
    },
    /// The tool's output breaks its output contract (schema, media type or size).
    #[error("output of tool `{tool_id}` breaks its output contract: {reason}")]
    OutputContractViolated {
        /// The tool.
        tool_id: ToolId,
        /// What the output breaks, for a log.
        reason: String,
    },
    /// A cancelled call could not be stopped: its child process did not exit and was not reaped
    /// within the kill deadline.
    #[error("tool `{tool_id}` was not terminated within its kill deadline of {} ms", .kill_deadline.as_millis())]
    TerminationFailed {
        /// The tool.
        tool_id: ToolId,
        /// The kill deadline that passed.
        kill_deadline: Duration,
    },
    /// The call ran past its execution deadline and was stopped.
    #[error("tool `{tool_id}` ran past its execution deadline of {} ms", .deadline.as_millis())]
    DeadlineExceeded {
        /// The tool.
        tool_id: ToolId,
        /// The execution deadline that passed ([`super::ToolLimits::execution_deadline`]).
        deadline: Duration,
    },
}

impl ToolRuntimeError {
    /// The code of this failure on the wire.
    #[must_use]
    pub fn code(&self) -> ToolRuntimeErrorCode {
        match self {
            Self::Panicked { .. } => ToolRuntimeErrorCode::Panicked,
            Self::CompletionLost { .. } => ToolRuntimeErrorCode::CompletionLost,
            Self::OutputContractViolated { .. } => ToolRuntimeErrorCode::OutputContractViolated,
            Self::TerminationFailed { .. } => ToolRuntimeErrorCode::TerminationFailed,
            Self::DeadlineExceeded { .. } => ToolRuntimeErrorCode::DeadlineExceeded,
        }
    }
}

/// How a started call ended. In-process only: a completed call becomes a
/// [`CanonicalToolResult`], a runtime failure a [`ToolLifecycleEvent::RuntimeFailed`].
///
/// ```
/// use toolcall_contracts::canonical::{CanonicalToolOutput, CanonicalToolResultOutcome, ToolCompletion};
///
/// let completion = ToolCompletion::Succeeded(CanonicalToolOutput::Text("done".to_owned()));
/// assert_eq!(
///     completion.into_outcome(),
///     Ok(CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Text("done".to_owned())))
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolCompletion {
    /// The tool succeeded, with its output.
    Succeeded(CanonicalToolOutput),
    /// The tool reported a failure of its domain.
    DomainFailed(CanonicalToolError),
    /// The runtime could not complete the call.
    RuntimeFailed(ToolRuntimeError),
}

impl ToolCompletion {
    /// The outcome of a completed call, or the runtime failure.
    ///
    /// # Errors
    /// The [`ToolRuntimeError`] of [`ToolCompletion::RuntimeFailed`].
    pub fn into_outcome(self) -> Result<CanonicalToolResultOutcome, ToolRuntimeError> {
        match self {
            Self::Succeeded(output) => Ok(CanonicalToolResultOutcome::Succeeded(output)),
            Self::DomainFailed(error) => Ok(CanonicalToolResultOutcome::DomainFailed(error)),
            Self::RuntimeFailed(error) => Err(error),
        }
    }
}
