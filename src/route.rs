//! The route body: what a gateway sends a provider on a bound route.
//!
//! Schema: `schema/route/tool-call-request.schema.json`.

#[allow(
    missing_docs,
    clippy::all,
    clippy::pedantic,
    reason = "generated code; reviewed in generated/route.rs"
)]
mod generated {
    include!("../generated/route.rs");
}

pub use generated::ToolCallRequest;

/// The route JSON Schema (`schema/route/tool-call-request.schema.json`).
pub const SCHEMA_JSON: &str = include_str!("../schema/route/tool-call-request.schema.json");
