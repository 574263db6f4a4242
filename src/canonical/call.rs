//! [`ToolCall`] (`schema/canonical/tool-call.schema.json`) and its in-process companion
//! [`ToolCallContext`].

use std::time::Instant;

use serde_json::Value;

use super::error::ToolContractError;
use super::ids::{ExchangeId, SessionKey, ToolActionId, ToolId, ToolName, TransactionId};
use super::wire;

/// One call to a tool, as a provider adapter hands it to the runtime.
///
/// On the wire (`$defs/ToolCall` in `schema/canonical/tool-call.schema.json`):
///
/// ```
/// use serde_json::json;
/// use toolcall_contracts::canonical::ToolCall;
///
/// let wire = json!({
///     "tool_name": "github.search",
///     "tool_id": "github/search@2",
///     "provider_tool_call_id": "toolu_01A09q90qw90lq917835lq9",
///     "arguments": {"q": "is:open"},
///     "request_ordinal": 0
/// });
/// let call: ToolCall = serde_json::from_value(wire.clone())?;
/// assert_eq!(call.tool_name.as_str(), "github.search");
/// assert_eq!(serde_json::to_value(&call)?, wire);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "wire::ToolCall", into = "wire::ToolCall")]
pub struct ToolCall {
    /// Name of the tool as the model called it (`tool_name`).
    pub tool_name: ToolName,
    /// Registry id of the tool the name resolved to (`tool_id`).
    pub tool_id: ToolId,
    /// The provider's correlation id of the call, kept byte for byte: any string, never
    /// trimmed or normalized, echoed back in the result (`provider_tool_call_id`).
    pub provider_tool_call_id: String,
    /// Arguments of the call as the model produced them: any JSON value, checked against the
    /// tool's input schema by the runtime, not by this type (`arguments`).
    pub arguments: Value,
    /// Position of the call among the calls the model requested in one response, from 0
    /// (`request_ordinal`).
    pub request_ordinal: u32,
}

impl TryFrom<wire::ToolCall> for ToolCall {
    type Error = ToolContractError;
    fn try_from(wire: wire::ToolCall) -> Result<Self, ToolContractError> {
        Ok(Self {
            tool_name: ToolName::try_new(wire.tool_name)?,
            tool_id: ToolId::try_new(wire.tool_id)?,
            provider_tool_call_id: wire.provider_tool_call_id,
            arguments: wire.arguments,
            request_ordinal: wire.request_ordinal,
        })
    }
}

impl From<ToolCall> for wire::ToolCall {
    fn from(call: ToolCall) -> Self {
        Self {
            tool_name: call.tool_name.into(),
            tool_id: call.tool_id.into(),
            provider_tool_call_id: call.provider_tool_call_id,
            arguments: call.arguments,
            request_ordinal: call.request_ordinal,
        }
    }
}

/// Where and until when one call runs: what the runtime hands a tool with its arguments.
///
/// In-process only: it has no wire form (no `Serialize`, no schema), and it carries ids and a
/// deadline only, never prompts, messages or secrets, so it may be logged and passed to any
/// tool.
///
/// ```
/// use std::time::{Duration, Instant};
/// use toolcall_contracts::canonical::{
///     ChannelId, SessionId, SessionKey, ToolActionId, ToolCallContext, ToolId, TransactionId,
/// };
///
/// let transaction_id = TransactionId::generate();
/// let context = ToolCallContext {
///     tool_action_id: ToolActionId::for_call(&transaction_id, 0),
///     transaction_id,
///     session_key: SessionKey::new(ChannelId::try_new("cli")?, SessionId::try_new("s1")?),
///     exchange_id: None,
///     tool_id: ToolId::try_new("clock/now@1")?,
///     deadline: Instant::now() + Duration::from_secs(30),
/// };
/// assert!(context.remaining() <= Duration::from_secs(30));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCallContext {
    /// The transaction the call runs in.
    pub transaction_id: TransactionId,
    /// The session the transaction runs in.
    pub session_key: SessionKey,
    /// The model exchange that requested the call; `None` when no model exchange did.
    pub exchange_id: Option<ExchangeId>,
    /// The tool action this call is.
    pub tool_action_id: ToolActionId,
    /// Registry id of the tool.
    pub tool_id: ToolId,
    /// When the call must have completed (its start plus the tool's execution deadline).
    pub deadline: Instant,
}

impl ToolCallContext {
    /// Time left until [`ToolCallContext::deadline`]; zero once it has passed.
    #[must_use]
    pub fn remaining(&self) -> std::time::Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }
}
