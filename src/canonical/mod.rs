//! The canonical tool model: what a runtime uses between dispatch and result, whatever the
//! provider. What a tool is ([`ToolSpec`]), one call to it ([`ToolCall`], with its in-process
//! [`ToolCallContext`]), its result ([`CanonicalToolResult`]) and its lifecycle
//! ([`ToolLifecycleEvent`]).
//!
//! # Source of truth
//!
//! The JSON Schema 2020-12 files in `schema/canonical/` ([`SCHEMA_FILES`], each with an
//! absolute `$id` under [`SCHEMA_BASE_URI`]) define the wire. The pipeline generates plain wire
//! types from them into `generated/canonical.rs` (a private module here); the public types in
//! this module convert from and to those wire types, so member names, tags and optionality
//! come from the schema, and the rules (lengths, alphabets, bounds, the meta-schema check) run
//! in hand-written code.
//!
//! # Parse, don't validate
//!
//! A constrained value is a type whose constructor checks it (`try_new`), and decoding runs the
//! same checks: JSON that a constructor would refuse fails to decode, with a
//! [`ToolContractError`] message naming the member. Encoding never writes JSON that would not
//! decode ([`ToolLimits`] and [`ToolExecutionClass`], whose fields are public, and a
//! [`ToolActionId`] built unchecked by [`ToolActionId::new`] refuse to encode invalid values).
//!
//! # Wire conventions
//!
//! Members are `snake_case`; unions are objects internally tagged by a `snake_case` `type`;
//! durations are integer milliseconds in members named `*_ms` (a [`std::time::Duration`] in
//! Rust, a whole number of milliseconds, 1 to [`MAX_WIRE_INTEGER`]); sizes are bytes; ids are
//! strings. Decoding ignores (and so drops) members it does not know, as the schemas allow
//! them; an optional member sent as `null` decodes as absent except `data` of a
//! [`CanonicalToolError`], where `null` is a value.
//!
//! ```
//! use std::time::Duration;
//! use serde_json::json;
//! use toolcall_contracts::canonical::{
//!     JsonSchema, ToolExecutionClass, ToolId, ToolLimits, ToolName, ToolOutputContract, ToolSpec,
//!     ToolSuccessContract,
//! };
//!
//! let spec = ToolSpec::try_new(
//!     ToolId::try_new("clock/now@1")?,
//!     ToolName::try_new("clock.now")?,
//!     "The current time.",
//!     JsonSchema::try_new(json!({"type": "object"}))?,
//!     ToolOutputContract {
//!         success: ToolSuccessContract::text("text/plain")?,
//!         error_data_schema: None,
//!     },
//!     ToolLimits::default(),
//!     ToolExecutionClass::CooperativeInProcess { grace: Duration::from_millis(100) },
//! )?;
//! assert_eq!(serde_json::to_value(&spec)?["execution_class"], json!({
//!     "type": "cooperative_in_process", "grace_ms": 100
//! }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod arguments;
mod call;
mod error;
mod ids;
mod lifecycle;
mod limits;
mod result;
mod schema;
mod spec;

#[allow(
    missing_docs,
    clippy::all,
    clippy::pedantic,
    // Schema prose, written for the protocol docs: `[text]` and `<name>` are not rustdoc links
    // or HTML.
    rustdoc::broken_intra_doc_links,
    rustdoc::invalid_html_tags,
    reason = "generated code; reviewed in generated/canonical.rs"
)]
mod wire {
    include!("../../generated/canonical.rs");
}

pub use arguments::{schema_cache, ArgumentsError};
pub use call::{ToolCall, ToolCallContext};
pub use error::{TextViolation, ToolContractError};
pub use ids::{
    ChannelId, ExchangeId, SessionId, SessionKey, ToolActionId, ToolId, ToolName, TransactionId,
    MAX_OPAQUE_ID_BYTES, MAX_TOOL_NAME_CHARS,
};
pub use lifecycle::{ToolCompletion, ToolLifecycleEvent, ToolRuntimeError, ToolStartError};
pub use limits::{ToolExecutionClass, ToolLimits, MAX_WIRE_INTEGER};
pub use result::{
    CanonicalToolError, CanonicalToolErrorFields, CanonicalToolOutput, CanonicalToolResult,
    CanonicalToolResultOutcome, MAX_ERROR_CODE_BYTES, MAX_ERROR_MESSAGE_BYTES,
};
pub use schema::{JsonSchema, MAX_SCHEMA_DEPTH};
pub use spec::{
    MediaType, ToolOutputContract, ToolSpec, ToolSpecFields, ToolSuccessContract,
    MAX_DESCRIPTION_BYTES, MAX_MEDIA_TYPE_BYTES,
};
/// What failed when the runtime could not complete a tool action: the `code` of a
/// [`ToolLifecycleEvent::RuntimeFailed`] (`$defs/ToolRuntimeErrorCode` in
/// `schema/canonical/lifecycle.schema.json`), a `snake_case` string on the wire.
pub use wire::ToolRuntimeErrorCode;

/// Base URI of the canonical schemas' `$id`s: a file's `$id` is this base and its file name.
pub const SCHEMA_BASE_URI: &str = "https://toolcall-contracts.dev/schema/v1/canonical/";

/// The published canonical schema files, as `(file name, JSON text)`, in generation order.
/// Cross-file `$ref`s are relative (`ids.schema.json#/$defs/ToolId`), resolved against each
/// file's `$id` ([`SCHEMA_BASE_URI`] and the file name): a validator needs all of them
/// registered, and fetches nothing.
pub const SCHEMA_FILES: &[(&str, &str)] = &[
    (
        "ids.schema.json",
        include_str!("../../schema/canonical/ids.schema.json"),
    ),
    (
        "limits.schema.json",
        include_str!("../../schema/canonical/limits.schema.json"),
    ),
    (
        "execution-class.schema.json",
        include_str!("../../schema/canonical/execution-class.schema.json"),
    ),
    (
        "tool-spec.schema.json",
        include_str!("../../schema/canonical/tool-spec.schema.json"),
    ),
    (
        "tool-call.schema.json",
        include_str!("../../schema/canonical/tool-call.schema.json"),
    ),
    (
        "tool-result.schema.json",
        include_str!("../../schema/canonical/tool-result.schema.json"),
    ),
    (
        "lifecycle.schema.json",
        include_str!("../../schema/canonical/lifecycle.schema.json"),
    ),
];

crate::encode::contracts!(ToolSpec, ToolCall, CanonicalToolResult, ToolLifecycleEvent);
