//! Tool-call wire contracts generated from JSON Schema.
//!
//! Three contract families, each generated from the schema files under `schema/<family>/`
//! into the reviewed, committed `generated/<family>.rs`:
//! - [`acp`]: the Agent Client Protocol v1 types, every definition of the official schema (tool
//!   calls, session updates, permissions, the JSON-RPC envelopes).
//! - [`route`]: the body of a tool-call request on a bound route ([`route::ToolCallRequest`]).
//! - `canonical` (feature `canonical`): the provider-neutral tool model (`ToolSpec`, `ToolCall`,
//!   `CanonicalToolResult`, `ToolLifecycleEvent`).
//!
//! Around them: [`decode()`] with its leniency report, [`encode()`], [`MaybeUndefined`] for members that are
//! absent, `null` or a value, [`policy`] (decode limits; with feature `policy`, safe compilation
//! of untrusted JSON Schemas), and with feature `tools`: `traffic` (what `toolcall validate`
//! runs), `bundle` (the published schema bundle) and `schema_diff` (what changed between two
//! schema versions); with feature `tap`: `tap` (what `toolcall tap` runs); with feature `hops`:
//! `hops` (one tool call converted across MCP, the route body, the canonical model and ACP).
//!
//! # Features
//!
//! Every crate that depends on this one pays for its default build, so the default build holds
//! the wire types and their codec only: [`acp`] (with `ToolCall::apply`), [`route`] (with its
//! validators), [`decode()`], [`encode()`], [`MaybeUndefined`] and [`policy::DecodeLimits`], on
//! serde (without its derive: the generated impls are written out), serde_json, thiserror and
//! memchr. Schema compilation and what is built on it are opt-in: without `jsonschema` and its
//! regex crates, and without `serde_derive`, a consumer's cold build takes about a quarter of the
//! official ACP crate's (`BENCHMARKS.md`).
//!
//! | feature | adds | pulls in |
//! |---|---|---|
//! | `policy` | `SchemaPolicy`, `CompiledSchema`, `SchemaCache`, their errors, in [`policy`] | `jsonschema`, `jsonschema-regex`, `regex-automata`, `sha2` |
//! | `canonical` | `canonical` (its constructors check each schema against its dialect's meta-schema) | `policy`, `uuid` |
//! | `tools` | `traffic`, `bundle`, `schema_diff` | `canonical` |
//! | `tap` | `tap`: checking a live agent or MCP server in its stdio pipe (`toolcall tap`) | `tools`, `signal-hook`, `rustix` (Unix) |
//! | `hops` | `hops`: conversions MCP ↔ route ↔ canonical → MCP result, ACP updates; tool-name projection | `canonical`, `mcp-2025-11-25` |
//! | `simd` | [`encode()`] written by sonic-rs (SIMD string escaping; the same bytes) | `sonic-rs` |
//! | `codegen-check` | `build.rs` fails when `generated/` is stale | `toolcall-codegen` (build) |
//!
//! A path is the same whichever features are on: `policy::SchemaPolicy` with `policy` alone or
//! with `tools`. The `toolcall` command-line tool is its own package, `toolcall`.

#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[doc(hidden)]
pub mod __private;
pub mod acp;
#[cfg(feature = "tools")]
#[cfg_attr(docsrs, doc(cfg(feature = "tools")))]
pub mod bundle;
#[cfg(feature = "canonical")]
#[cfg_attr(docsrs, doc(cfg(feature = "canonical")))]
pub mod canonical;
pub mod decode;
pub mod encode;
#[cfg(feature = "hops")]
#[cfg_attr(docsrs, doc(cfg(feature = "hops")))]
pub mod hops;
mod maybe;
pub mod mcp;
#[cfg(any(feature = "tools", feature = "hops"))]
mod pairing;
pub use toolcall_schema::pointer;
pub mod policy;
mod report;
pub mod route;
#[cfg(feature = "tools")]
#[cfg_attr(docsrs, doc(cfg(feature = "tools")))]
pub mod schema_diff;
#[cfg(feature = "tap")]
#[cfg_attr(docsrs, doc(cfg(feature = "tap")))]
pub mod tap;
#[cfg(feature = "tools")]
#[cfg_attr(docsrs, doc(cfg(feature = "tools")))]
pub mod traffic;

pub use decode::{
    decode, decode_with, DecodeError, Decoded, Leniency, LeniencyKind, DECODE_LIMITS,
};
pub use encode::{encode, encode_to_writer, Contract, EncodeError};
pub use maybe::MaybeUndefined;
