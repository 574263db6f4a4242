//! This repository's maintenance commands, `cargo xtask ...` (an alias for `cargo run -p
//! xtask --`):
//!
//! - `generate` / `check`: regenerate `generated/` from `schema/` with the in-repo families
//!   (`toolcall_codegen::Builder::preset`), or fail naming the command when it is stale;
//! - `acp import`: bring a release of the official ACP schema into `schema/acp/` ([`acp_export`]),
//!   regenerate, and add the schema diff and the Rust API change to `CHANGELOG.md`
//!   ([`changelog`]);
//! - `mcp import`: bring an official MCP `schema.json` into `schema/mcp/<version>/`
//!   ([`mcp_import`]);
//! - `schemas-eval DIR`: a catalogue of real schemas and their instances through the pipeline,
//!   each verdict compared with the `jsonschema` crate's ([`schemas_eval`]).
//!
//! Not published: a user generating types from a schema of their own uses `toolcall-codegen`.

pub mod acp_export;
pub mod changelog;
pub mod mcp_import;
pub mod schemas_eval;
