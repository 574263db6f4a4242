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
///
/// Its members are read as fields (`error.code`, through [`CanonicalToolErrorFields`]) or with
/// the accessors; they cannot be assigned, so an error is always one [`Self::try_new`] checked.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(
    try_from = "wire::CanonicalToolError",
    into = "wire::CanonicalToolError"
)]
pub struct CanonicalToolError {
    fields: CanonicalToolErrorFields,
}

/// The members of a [`CanonicalToolError`], which dereferences to them: read
/// `error.code`, `error.message` and `error.data` as fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CanonicalToolErrorFields {
    /// Machine-readable code of the failure: 1 to [`MAX_ERROR_CODE_BYTES`] bytes, no control
    /// character (`code`).
    pub code: String,
    /// What went wrong, for the model: 1 to [`MAX_ERROR_MESSAGE_BYTES`] bytes, no control
    /// character (`message`).
    pub message: String,
    /// Details of the failure; `None` when there are none (absent on the wire),
    /// `Some(Value::Null)` for the data `null` (`data`).
    pub data: Option<Value>,
}

impl std::ops::Deref for CanonicalToolError {
    type Target = CanonicalToolErrorFields;
    fn deref(&self) -> &CanonicalToolErrorFields {
        &self.fields
    }
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
            fields: CanonicalToolErrorFields {
                code,
                message,
                data,
            },
        })
    }

    /// Machine-readable code of the failure (`code`).
    #[must_use]
    pub fn code(&self) -> &str {
        &self.fields.code
    }

    /// What went wrong, for the model (`message`).
    #[must_use]
    pub fn message(&self) -> &str {
        &self.fields.message
    }

    /// Details of the failure; `None` when there are none, `Some(Value::Null)` for the data
    /// `null` (`data`).
    #[must_use]
    pub fn data(&self) -> Option<&Value> {
        self.fields.data.as_ref()
    }

    /// The members, by value.
    #[must_use]
    pub fn into_fields(self) -> CanonicalToolErrorFields {
        self.fields
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
        let CanonicalToolErrorFields {
            code,
            message,
            data,
        } = error.fields;
        Self {
            code,
            message,
            data: data.map_or(MaybeUndefined::Undefined, MaybeUndefined::Value),
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
/// let outcome = CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Text("done".to_owned()));
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
    /// The tool succeeded (`"type": "succeeded"`, the output in `output`).
    Succeeded(CanonicalToolOutput),
    /// The tool reported a failure of its domain (`"type": "domain_failed"`, the failure in
    /// `error`).
    DomainFailed(CanonicalToolError),
}

impl TryFrom<wire::CanonicalToolResultOutcome> for CanonicalToolResultOutcome {
    type Error = ToolContractError;
    fn try_from(wire: wire::CanonicalToolResultOutcome) -> Result<Self, ToolContractError> {
        Ok(match wire {
            wire::CanonicalToolResultOutcome::Succeeded(w) => Self::Succeeded(w.output.into()),
            wire::CanonicalToolResultOutcome::DomainFailed(w) => {
                Self::DomainFailed(w.error.try_into()?)
            }
        })
    }
}

impl From<CanonicalToolResultOutcome> for wire::CanonicalToolResultOutcome {
    fn from(outcome: CanonicalToolResultOutcome) -> Self {
        match outcome {
            CanonicalToolResultOutcome::Succeeded(output) => {
                Self::Succeeded(wire::CanonicalToolResultOutcomeSucceeded {
                    output: output.into(),
                })
            }
            CanonicalToolResultOutcome::DomainFailed(error) => {
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
/// On the wire (`$defs/CanonicalToolResult` in `schema/canonical/tool-result.schema.json`):
///
/// ```
/// use serde_json::json;
/// use toolcall_contracts::canonical::{CanonicalToolOutput, CanonicalToolResult, CanonicalToolResultOutcome};
///
/// let wire = json!({
///     "transaction_id": "0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f",
///     "session_key": {"channel_id": "cli", "session_id": "s1"},
///     "exchange_id": "0190b6a4-8e3d-7000-8000-000000000001",
///     "tool_action_id": "0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f:0",
///     "tool_id": "clock/now@1",
///     "provider_tool_call_id": "call_01",
///     "request_ordinal": 0,
///     "outcome": {"type": "succeeded", "output": {"type": "text", "text": "12:00"}}
/// });
/// let result: CanonicalToolResult = serde_json::from_value(wire.clone())?;
/// assert_eq!(result.exchange_id.as_str(), "0190b6a4-8e3d-7000-8000-000000000001");
/// assert_eq!(
///     result.outcome,
///     CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Text("12:00".to_owned()))
/// );
/// assert_eq!(serde_json::to_value(&result)?, wire);
///
/// // Every result has an exchange (a call no model exchange requested has no result here).
/// let mut no_exchange = wire.clone();
/// no_exchange.as_object_mut().unwrap().remove("exchange_id");
/// assert_eq!(
///     serde_json::from_value::<CanonicalToolResult>(no_exchange).unwrap_err().to_string(),
///     "`exchange_id` is missing"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Encoding fails, rather than write JSON that would not decode, when `tool_action_id` was
/// built by [`ToolActionId::new`] and breaks its rule.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(try_from = "wire::CanonicalToolResult")]
pub struct CanonicalToolResult {
    /// The transaction the call ran in (`transaction_id`).
    pub transaction_id: TransactionId,
    /// The session the transaction ran in (`session_key`).
    pub session_key: SessionKey,
    /// The model exchange that requested the call (`exchange_id`). Required: the published
    /// schema still marks the member optional, and a result without it does not decode
    /// ([`ToolContractError::MissingMember`]).
    pub exchange_id: ExchangeId,
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
        let exchange_id = wire.exchange_id.ok_or(ToolContractError::MissingMember {
            field: "exchange_id",
        })?;
        Ok(Self {
            transaction_id: TransactionId::try_new(wire.transaction_id)?,
            session_key: wire.session_key.try_into()?,
            exchange_id: ExchangeId::try_new(exchange_id)?,
            tool_action_id: ToolActionId::try_new(wire.tool_action_id)?,
            tool_id: ToolId::try_new(wire.tool_id)?,
            provider_tool_call_id: wire.provider_tool_call_id,
            request_ordinal: wire.request_ordinal,
            outcome: wire.outcome.try_into()?,
        })
    }
}

impl CanonicalToolResult {
    /// The wire form, when the tool action id is valid.
    pub(crate) fn to_wire(&self) -> Result<wire::CanonicalToolResult, ToolContractError> {
        Ok(wire::CanonicalToolResult {
            transaction_id: self.transaction_id.to_string(),
            session_key: self.session_key.clone().into(),
            exchange_id: Some(self.exchange_id.to_string()),
            tool_action_id: self.tool_action_id.to_wire()?,
            tool_id: self.tool_id.to_string(),
            provider_tool_call_id: self.provider_tool_call_id.clone(),
            request_ordinal: self.request_ordinal,
            outcome: self.outcome.clone().into(),
        })
    }
}

impl serde::Serialize for CanonicalToolResult {
    /// # Errors
    /// The serializer's error carrying [`ToolActionId::validate`]'s message when
    /// `tool_action_id` breaks its rule.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let wire = self.to_wire().map_err(serde::ser::Error::custom)?;
        serde::Serialize::serialize(&wire, serializer)
    }
}
