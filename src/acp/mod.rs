//! Agent Client Protocol v1 types, generated from `schema/acp/acp.schema.json`.
//!
//! The schema is the one the official crate `agent-client-protocol-schema` publishes (see
//! `schema/acp/PROVENANCE.json`); the Rust types come from the pipeline in `codegen/`.

#[allow(
    missing_docs,
    clippy::all,
    clippy::pedantic,
    // Schema prose, written for the protocol docs: `[text]` and `<name>` are not rustdoc links
    // or HTML.
    rustdoc::broken_intra_doc_links,
    rustdoc::invalid_html_tags,
    reason = "generated code; reviewed in generated/acp.rs"
)]
mod generated {
    include!("../../generated/acp.rs");
}

pub use generated::*;

/// The ACP v1 JSON Schema this module was generated from (`schema/acp/acp.schema.json`).
pub const SCHEMA_JSON: &str = include_str!("../../schema/acp/acp.schema.json");

mod merge;
