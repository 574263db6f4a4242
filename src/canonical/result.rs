//! [`CanonicalToolResult`]: the result of a call that ran to completion
//! (`schema/canonical/tool-result.schema.json`).

use serde_json::Value;

use super::error::{check_plain_text, ToolContractError};
use super::ids::{ExchangeId, SessionKey, ToolActionId, ToolId, TransactionId};
use super::wire;
use crate::MaybeUndefined;

/// Most bytes (UTF-8) a domain error code may hold: 64.
pub const MAX_ERROR_CODE_BYTES: usize = 64;

/// Most bytes (UTF-8) a domain error message may hold on the wire: 4096. A runtime passes its
/// own, lower or equal, limit to [`CanonicalToolError::try_new`]; decoding checks this one.
pub const MAX_ERROR_MESSAGE_BYTES: usize = 4096;

/// The output of a successful call: JSON or text.
///
/// On the wire, an object tagged by `type` (`$defs/CanonicalToolOutput` in
/// `schema/canonical/tool-result.schema.json`):
///
/// ```
/// use serde_json::json;
/// use toolcall_contracts::canonical::CanonicalToolOutput;
///
/// let json_output = CanonicalToolOutput::Json(json!({"count": 2}));
/// assert_eq!(serde_json::to_value(&json_output)?, json!({"type": "json", "value": {"count": 2}}));
/// let text_output = CanonicalToolOutput::Text("2 issues".to_owned());
/// assert_eq!(serde_json::to_value(&text_output)?, json!({"type": "text", "text": "2 issues"}));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(from = "wire::CanonicalToolOutput", into = "wire::CanonicalToolOutput")]
pub enum CanonicalToolOutput {
    /// JSON output: any JSON value (`"type": "json"`, the value in `value`).
    Json(Value),
    /// Text output (`"type": "text"`, the text in `text`).
    Text(String),
}

impl From<wire::CanonicalToolOutput> for CanonicalToolOutput {
    fn from(wire: wire::CanonicalToolOutput) -> Self {
        match wire {
            wire::CanonicalToolOutput::Json(w) => Self::Json(w.value),
            wire::CanonicalToolOutput::Text(w) => Self::Text(w.text),
        }
    }
}

impl From<CanonicalToolOutput> for wire::CanonicalToolOutput {
    fn from(output: CanonicalToolOutput) -> Self {
        match output {
            CanonicalToolOutput::Json(value) => Self::Json(wire::CanonicalToolOutputJson { value }),
            CanonicalToolOutput::Text(text) => Self::Text(wire::CanonicalToolOutputText { text }),
        }
    }
}

/// A failure of the tool's domain (not found, permission denied...), as the tool reported it:
/// an answer for the model, not a runtime failure.
///
/// On the wire (`$defs/CanonicalToolError` in `schema/canonical/tool-result.schema.json`),
/// `data` is absent when `None`, and `Some(Value::Null)` is `"data": null`: absent and `null`
/// differ.
///
/// ```
/// use serde_json::json;
/// use toolcall_contracts::canonical::{CanonicalToolError, MAX_ERROR_MESSAGE_BYTES};
///
/// let error = CanonicalToolError::try_new(
///     "not_found",
///     "no repository `acme/x`",
///     Some(json!({"repository": "acme/x"})),
///     MAX_ERROR_MESSAGE_BYTES,
/// )?;
/// assert_eq!(
///     serde_json::to_value(&error)?,
///     json!({"code": "not_found", "message": "no repository `acme/x`", "data": {"repository": "acme/x"}})
/// );
/// assert_eq!(
///     serde_json::from_value::<CanonicalToolError>(json!({"code": "", "message": "m"}))
///         .unwrap_err()
///         .to_string(),
///     "`code` is empty"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(
    try_from = "wire::CanonicalToolError",
    into = "wire::CanonicalToolError"
)]
pub struct CanonicalToolError {
    code: String,
    message: String,
    data: Option<Value>,
}

impl CanonicalToolError {
    /// Checks `code` and `message` and builds the error.
    ///
    /// `max_message_bytes` is the caller's limit on `message`; a limit above
    /// [`MAX_ERROR_MESSAGE_BYTES`] counts as [`MAX_ERROR_MESSAGE_BYTES`], so that every error
    /// built here also decodes.
    ///
    /// # Errors
    /// The first failing check, in this order:
    /// - [`ToolContractError::InvalidErrorCode`] when `code` is empty, longer than
    ///   [`MAX_ERROR_CODE_BYTES`] (64) bytes, or has a control character;
    /// - [`ToolContractError::InvalidErrorMessage`] when `message` is empty, longer than the
    ///   limit, or has a control character (tab and line breaks included).
    pub fn try_new(
        code: impl Into<String>,
        message: impl Into<String>,
        data: Option<Value>,
        max_message_bytes: usize,
    ) -> Result<Self, ToolContractError> {
        let code = code.into();
        let message = message.into();
        check_plain_text(&code, MAX_ERROR_CODE_BYTES)
            .map_err(|violation| ToolContractError::InvalidErrorCode { violation })?;
        check_plain_text(&message, max_message_bytes.min(MAX_ERROR_MESSAGE_BYTES))
            .map_err(|violation| ToolContractError::InvalidErrorMessage { violation })?;
        Ok(Self {
            code,
            message,
            data,
        })
    }

    /// Machine-readable code of the failure (`code`).
    #[must_use]
    pub fn code(&self) -> &str {
        &self.code
    }

    /// What went wrong, for the model (`message`).
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Details of the failure; `None` when there are none, `Some(Value::Null)` for the data
    /// `null` (`data`).
    #[must_use]
    pub fn data(&self) -> Option<&Value> {
        self.data.as_ref()
    }
}

impl TryFrom<wire::CanonicalToolError> for CanonicalToolError {
    type Error = ToolContractError;
    fn try_from(wire: wire::CanonicalToolError) -> Result<Self, ToolContractError> {
        let data = match wire.data {
            MaybeUndefined::Undefined => None,
            MaybeUndefined::Null => Some(Value::Null),
            MaybeUndefined::Value(value) => Some(value),
        };
        Self::try_new(wire.code, wire.message, data, MAX_ERROR_MESSAGE_BYTES)
    }
}

impl From<CanonicalToolError> for wire::CanonicalToolError {
    fn from(error: CanonicalToolError) -> Self {
        Self {
            code: error.code,
            message: error.message,
            data: error
                .data
                .map_or(MaybeUndefined::Undefined, MaybeUndefined::Value),
        }
    }
}

/// What a completed call produced: its output, or a domain failure the tool reported.
///
/// On the wire, an object tagged by `type` (`$defs/CanonicalToolResultOutcome` in
/// `schema/canonical/tool-result.schema.json`):
///
/// ```
/// use serde_json::json;
/// use toolcall_contracts::canonical::{CanonicalToolOutput, CanonicalToolResultOutcome};
///
/// let outcome = CanonicalToolResultOutcome::Succeeded {
///     output: CanonicalToolOutput::Text("done".to_owned()),
/// };
/// assert_eq!(
///     serde_json::to_value(&outcome)?,
///     json!({"type": "succeeded", "output": {"type": "text", "text": "done"}})
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(
    try_from = "wire::CanonicalToolResultOutcome",
    into = "wire::CanonicalToolResultOutcome"
)]
pub enum CanonicalToolResultOutcome {
    /// The tool succeeded (`"type": "succeeded"`).
    Succeeded {
        /// The output (`output`).
        output: CanonicalToolOutput,
    },
    /// The tool reported a failure of its domain (`"type": "domain_failed"`).
    DomainFailed {
        /// The failure (`error`).
        error: CanonicalToolError,
    },
}

impl TryFrom<wire::CanonicalToolResultOutcome> for CanonicalToolResultOutcome {
    type Error = ToolContractError;
    fn try_from(wire: wire::CanonicalToolResultOutcome) -> Result<Self, ToolContractError> {
        Ok(match wire {
            wire::CanonicalToolResultOutcome::Succeeded(w) => Self::Succeeded {
                output: w.output.into(),
            },
            wire::CanonicalToolResultOutcome::DomainFailed(w) => Self::DomainFailed {
                error: w.error.try_into()?,
            },
        })
    }
}

impl From<CanonicalToolResultOutcome> for wire::CanonicalToolResultOutcome {
    fn from(outcome: CanonicalToolResultOutcome) -> Self {
        match outcome {
            CanonicalToolResultOutcome::Succeeded { output } => {
                Self::Succeeded(wire::CanonicalToolResultOutcomeSucceeded {
                    output: output.into(),
                })
            }
            CanonicalToolResultOutcome::DomainFailed { error } => {
                Self::DomainFailed(wire::CanonicalToolResultOutcomeDomainFailed {
                    error: error.into(),
                })
            }
        }
    }
}

/// The result of one call that ran to completion: where it ran, which call it answers, and its
/// outcome. A call the runtime could not complete has no result (see
/// [`super::ToolLifecycleEvent::RuntimeFailed`]).
///
/// On the wire (`$defs/CanonicalToolResult` in `schema/canonical/tool-result.schema.json`),
/// `exchange_id` is absent when `None`:
///
/// ```
/// use serde_json::json;
/// use toolcall_contracts::canonical::{CanonicalToolOutput, CanonicalToolResult, CanonicalToolResultOutcome};
///
/// let wire = json!({
///     "transaction_id": "0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f",
///     "session_key": {"channel_id": "cli", "session_id": "s1"},
///     "tool_action_id": "0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f:0",
///     "tool_id": "clock/now@1",
///     "provider_tool_call_id": "call_01",
///     "request_ordinal": 0,
///     "outcome": {"type": "succeeded", "output": {"type": "text", "text": "12:00"}}
/// });
/// let result: CanonicalToolResult = serde_json::from_value(wire.clone())?;
/// assert_eq!(result.exchange_id, None);
/// assert_eq!(
///     result.outcome,
///     CanonicalToolResultOutcome::Succeeded { output: CanonicalToolOutput::Text("12:00".to_owned()) }
/// );
/// assert_eq!(serde_json::to_value(&result)?, wire);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(
    try_from = "wire::CanonicalToolResult",
    into = "wire::CanonicalToolResult"
)]
pub struct CanonicalToolResult {
    /// The transaction the call ran in (`transaction_id`).
    pub transaction_id: TransactionId,
    /// The session the transaction ran in (`session_key`).
    pub session_key: SessionKey,
    /// The model exchange that requested the call; `None` (absent on the wire) when no model
    /// exchange did (`exchange_id`).
    pub exchange_id: Option<ExchangeId>,
    /// The tool action this result ends (`tool_action_id`).
    pub tool_action_id: ToolActionId,
    /// Registry id of the tool that ran (`tool_id`).
    pub tool_id: ToolId,
    /// The provider's correlation id of the call, byte for byte as the [`super::ToolCall`]
    /// carried it (`provider_tool_call_id`).
    pub provider_tool_call_id: String,
    /// Position of the call among the calls the model requested in one response
    /// (`request_ordinal`).
    pub request_ordinal: u32,
    /// What the call produced (`outcome`).
    pub outcome: CanonicalToolResultOutcome,
}

impl TryFrom<wire::CanonicalToolResult> for CanonicalToolResult {
    type Error = ToolContractError;
    fn try_from(wire: wire::CanonicalToolResult) -> Result<Self, ToolContractError> {
        Ok(Self {
            transaction_id: TransactionId::try_new(wire.transaction_id)?,
            session_key: wire.session_key.try_into()?,
            exchange_id: wire.exchange_id.map(ExchangeId::try_new).transpose()?,
            tool_action_id: ToolActionId::try_new(wire.tool_action_id)?,
            tool_id: ToolId::try_new(wire.tool_id)?,
            provider_tool_call_id: wire.provider_tool_call_id,
            request_ordinal: wire.request_ordinal,
            outcome: wire.outcome.try_into()?,
        })
    }
}

impl From<CanonicalToolResult> for wire::CanonicalToolResult {
    fn from(result: CanonicalToolResult) -> Self {
        Self {
            transaction_id: result.transaction_id.into(),
            session_key: result.session_key.into(),
            exchange_id: result.exchange_id.map(String::from),
            tool_action_id: result.tool_action_id.into(),
            tool_id: result.tool_id.into(),
            provider_tool_call_id: result.provider_tool_call_id,
            request_ordinal: result.request_ordinal,
            outcome: result.outcome.into(),
        }
    }
}
