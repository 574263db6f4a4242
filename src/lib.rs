//! Tool-call wire contracts generated from JSON Schema.
//!
//! Three contract families, each generated from the schema files under `schema/<family>/`
//! into the reviewed, committed `generated/<family>.rs`:
//! - [`acp`]: the Agent Client Protocol v1 types, every definition of the official schema (tool
//!   calls, session updates, permissions, the JSON-RPC envelopes).
//! - [`route`]: the body of a tool-call request on a bound route ([`route::ToolCallRequest`]).
//! - [`canonical`]: the provider-neutral tool model ([`canonical::ToolSpec`],
//!   [`canonical::ToolCall`], [`canonical::CanonicalToolResult`],
//!   [`canonical::ToolLifecycleEvent`]).
//!
//! Around them: [`decode()`] with its leniency report, [`MaybeUndefined`] for members that are
//! absent, `null` or a value, [`traffic`] (what `toolcall validate` runs), [`policy`] (safe
//! compilation of untrusted JSON Schemas, decode limits) and [`schema_diff`] (what changed
//! between two schema versions).

#![deny(missing_docs)]

pub mod acp;
pub mod bundle;
pub mod canonical;
pub mod decode;
pub mod encode;
mod maybe;
pub mod policy;
pub mod route;
#[doc(hidden)]
pub mod runtime;
pub mod schema_diff;
pub mod traffic;

pub use decode::{
    decode, decode_with, DecodeError, Decoded, Leniency, LeniencyKind, DECODE_LIMITS,
};
pub use encode::{encode, encode_to_writer, EncodeError};
pub use maybe::MaybeUndefined;
