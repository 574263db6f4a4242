//! Tool-call wire contracts generated from JSON Schema.
//!
//! Four contract families, each generated from the schema files under `schema/<family>/` into
//! the reviewed, committed `generated/<family>.rs`:
//! - [`acp`]: the Agent Client Protocol v1 types, every definition of the official schema (tool
//!   calls, session updates, permissions, the JSON-RPC envelopes).
//! - [`mcp`]: the Model Context Protocol types, one module per protocol version (each behind
//!   its feature).
//! - [`route`]: the body of a tool-call request on a bound route ([`route::ToolCallRequest`]).
//! - `canonical` (feature `canonical`): the provider-neutral tool model (`ToolSpec`, `ToolCall`,
//!   `CanonicalToolResult`, `ToolLifecycleEvent`).
//!
//! Around them: [`decode()`] with its leniency report, [`encode()`], [`MaybeUndefined`] for
//! members that are absent, `null` or a value, [`policy`] (decode limits; with feature `policy`,
//! safe compilation of untrusted JSON Schemas), and with feature `bundle` the contracts as a
//! bundle of standalone JSON Schema files for other languages.
//!
//! The tools built on the contracts are crates of their own: `toolcall-hops` (one tool call
//! converted across MCP, the route body, the canonical model and ACP), `toolcall-traffic`
//! (checking recorded or live ACP and MCP traffic), `toolcall` (the command-line tool),
//! `toolcall-codegen` (types from a schema of your own) and `toolcall-schema` (JSON Pointers and
//! the schema diff).
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
//! | `bundle` | `bundle`: the published schema bundle (`toolcall schemas export`) | `canonical` |
//! | `simd` | [`encode()`] written by sonic-rs (SIMD string escaping; the same bytes) | `sonic-rs` |
//! | `patterns` | `pattern` bounds in modules generated for your own schema | `jsonschema-regex`, `regex-automata` |
//! | `checks` | the assertions a type cannot carry (`not`, `if`, `patternProperties`, remote `$ref`s...) in modules generated for your own schema, checked when decoding | `patterns`, `jsonschema`, `fluent-uri` |
//! | `mcp-2024-11-05` ... `mcp-2026-07-28`, `mcp` | one module of [`mcp`] per version; `mcp` for all | nothing |
//! | `codegen-check` | `build.rs` fails when `generated/` is stale | `toolcall-codegen` (build) |
//!
//! A path is the same whichever features are on: `policy::SchemaPolicy` with `policy` alone or
//! with `canonical`.

#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[doc(hidden)]
pub mod __private;
pub mod acp;
#[cfg(feature = "bundle")]
#[cfg_attr(docsrs, doc(cfg(feature = "bundle")))]
pub mod bundle;
#[cfg(feature = "canonical")]
#[cfg_attr(docsrs, doc(cfg(feature = "canonical")))]
pub mod canonical;
pub mod decode;
pub mod encode;
mod maybe;
pub mod mcp;
mod number;
mod value;
pub use toolcall_schema::pointer;
pub mod policy;
mod report;
pub mod route;

pub use decode::{
    check, decode, decode_with, CheckError, DecodeError, Decoded, Leniency, LeniencyKind,
    DECODE_LIMITS,
};
pub use encode::{encode, encode_to_writer, Contract, EncodeError};
pub use maybe::MaybeUndefined;
pub use number::{JsonNumber, NotANumber};
pub use value::JsonValue;
