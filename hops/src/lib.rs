//! Across the hops: one tool call converted from an MCP client through a gateway and a
//! provider to the editor, each conversion with a report of what it did not carry as it was.
//!
//! A tool call crosses several boundaries, each with its own contract: an MCP client calls a
//! gateway (`tools/call`), the gateway forwards a route body ([`toolcall_contracts::route::ToolCallRequest`])
//! to a provider, the runtime works with the canonical model ([`toolcall_contracts::canonical`]), and an agent
//! reports the call to the editor over ACP (`tool_call`, `tool_call_update`). One module per
//! conversion:
//!
//! | module | conversion |
//! |---|---|
//! | [`mcp_tool`] | MCP `Tool` ↔ canonical `ToolSpec` (what MCP does not carry from the caller's [`mcp_tool::ToolRegistration`]) |
//! | [`gateway`] | MCP `tools/call` ↔ route body (names through a [`names::NameMap`]) |
//! | [`runtime`] | route body ↔ canonical `ToolCall` (through a [`runtime::Registry`]) |
//! | [`mcp_result`] | canonical result ↔ MCP `CallToolResult` |
//! | [`acp_updates`] | canonical lifecycle, or MCP call, progress and result → ACP `session/update` |
//! | [`names`] | tool-name projection to a target alphabet and length, reversible |
//! | [`relay`] | an MCP transcript → ACP notifications (`toolcall convert --to acp`) |
//!
//! [`pairing`] reads transcript lines (`{"from": ..., "message": ...}`) and pairs JSON-RPC
//! requests with their responses by id and direction, for the relay and for the traffic checker
//! of `toolcall-traffic`.
//!
//! Every conversion returns [`Converted`]: the value and its report, one [`Change`] per member
//! `dropped`, `derived` or `defaulted`, with JSON pointers, the value and why. What the target
//! can carry is carried exactly (and round-trips), with an empty report; nothing is dropped
//! silently. Errors are typed, one enum per module, naming the member.
//!
//! # MCP versions
//!
//! The conversions take and give the generated MCP types of every version with
//! `structuredContent` whose feature is on: 2025-06-18, 2025-11-25 (always on in this
//! crate) and 2026-07-28. One implementation serves all of them: it works on the wire shape of the
//! members it maps, which the three versions define alike, and each version's type is encoded
//! to it and decoded from it at the edge ([`McpTool`], [`McpCallToolParams`],
//! [`McpCallToolResult`], [`McpProgressParams`]). A macro over the typed structs was the other
//! choice; the versions' Rust types differ where their schemas do (2026-07-28's `_meta`
//! objects, `resultType`, `structuredContent` of any type), so it would have needed a variant
//! per version anyway, while the wire shapes agree. The JSON entry points
//! ([`gateway::call_to_route`], [`mcp_result::result_to_outcome`],
//! [`acp_updates::result_to_update`], ...) take a message's members as JSON, for a caller (such
//! as [`relay`]) holding JSON-RPC messages of any version.
//!
//! ```
//! use serde_json::json;
//! use toolcall_contracts::acp::ToolCall;
//! use toolcall_hops::acp_updates::{mcp_tool_call, result_update, ToolKinds};
//! use toolcall_contracts::mcp::v2025_11_25::CallToolResult;
//!
//! // MCP in: a `tools/call` and its result, as server-everything answered it.
//! let params = json!({"name": "get-structured-content", "arguments": {"location": "Chicago"}});
//! let result: CallToolResult = serde_json::from_value(json!({
//!     "content": [{"type": "text", "text": "{\"temperature\":36}"}],
//!     "structuredContent": {"temperature": 36}
//! }))?;
//!
//! // ACP out: the `tool_call`, then the update that ends it.
//! let id = "mcp-1-10".into();
//! let mut call: ToolCall =
//!     mcp_tool_call(&id, params.as_object().unwrap(), Some("Get Structured Content Tool"), &ToolKinds::new())?.value;
//! let update = result_update(&id, &result);
//! assert!(update.report.is_empty());
//! call.apply(&update.value);
//! assert_eq!(serde_json::to_value(&call)?, json!({
//!     "toolCallId": "mcp-1-10",
//!     "title": "Get Structured Content Tool",
//!     "name": "get-structured-content",
//!     "kind": "other",
//!     "status": "completed",
//!     "rawInput": {"location": "Chicago"},
//!     "content": [{"type": "content", "content": {"type": "text", "text": "{\"temperature\":36}"}}],
//!     "rawOutput": {
//!         "content": [{"type": "text", "text": "{\"temperature\":36}"}],
//!         "structuredContent": {"temperature": 36}
//!     }
//! }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

pub mod acp_updates;
pub mod gateway;
pub mod mcp_result;
pub mod mcp_tool;
pub mod names;
mod numbers;
pub mod pairing;
pub mod relay;
mod report;
mod request_id;
pub mod runtime;
mod versions;

pub use report::{Change, ChangeKind, Converted};
pub use versions::{McpCallToolParams, McpCallToolResult, McpProgressParams, McpTool, McpType};
