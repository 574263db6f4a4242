//! Tool-call wire contracts generated from JSON Schema.
//!
//! Three contract families, each generated from the schema files under `schema/<family>/`
//! into the reviewed, committed `generated/<family>.rs`:
//! - [`acp`]: the Agent Client Protocol v1 types (tool calls, session updates, permissions).
//! - [`route`]: the body of a tool-call request on a bound route ([`route::ToolCallRequest`]).
//! - `canonical`: the provider-neutral tool model (work in progress).

#![deny(missing_docs)]

pub mod acp;
pub mod canonical;
pub mod decode;
mod maybe;
pub mod policy;
pub mod route;
#[doc(hidden)]
pub mod runtime;
pub mod schema_diff;
pub mod traffic;

pub use maybe::MaybeUndefined;
pub use decode::{decode, DecodeError, Decoded, Leniency, LeniencyKind};
