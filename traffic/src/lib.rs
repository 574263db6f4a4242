//! Checking real ACP and MCP traffic against the contracts: a recorded transcript message by
//! message (what `toolcall validate` runs, [`Checker`]), or a live agent or server in its stdio
//! pipe (what `toolcall tap` runs, [`tap`]).
//!
//! [`Checker::check`] takes one message (a line of NDJSON, or a whole JSON document) and returns
//! a [`Verdict`]: `ok`, `lenient`, `unchecked` or `invalid` with a JSON pointer and a message. A
//! line may be a transcript wrapper naming its sender (`{"from": "client", "message": ...}`, see
//! [`Transcript`]), or one of the records `toolcall tap` writes for a message over its byte limit
//! and for bytes it did not check (see the `tap_records` module); [`Checker::check_from`] takes the sender from a caller that knows it.
//!
//! # What is checked
//! - A JSON-RPC message (an object with `jsonrpc` or `method`): the envelope (`jsonrpc` is
//!   `"2.0"`, `id` is a `RequestId`, `error` is an `Error`), then the `params` of a request or
//!   notification against the definition whose `x-method` names the method
//!   (`#/$defs/SessionNotification` for `session/update`), and the `result` of a response
//!   against `XResponse` for the `XRequest` it answers: the pending request with the same `id`
//!   sent by the other side ([`Transcript`]). A response to a request not seen is checked against
//!   the whole ACP schema; a result to a request whose method the schema does not define is
//!   `unchecked`. Methods starting with `_` are extension methods and take any params and result
//!   (ACP extensibility, `null` included); any other method the schema does not name is
//!   `invalid`.
//! - An MCP JSON-RPC message (in a session the transcript shows to be MCP): the official MCP
//!   schema of the session's version ([`MCP_VERSIONS`]), schema-based; see the `rpc` and `mcp`
//!   modules for how sessions, protocols and versions are told and how each method maps to its
//!   definitions. The verdict says which ([`Verdict::protocol`]).
//! - A JSON-RPC batch (an array of messages): MCP 2025-03-26 only; see the `batch` module.
//! - A route body (an object with `name` and `arguments` and no `jsonrpc`): the route schema,
//!   tolerant decoding into [`toolcall_contracts::route::ToolCallRequest`], then its `validate()`.
//! - Anything else: the ACP definitions of [`FRAGMENT_DEFINITIONS`], in order; the first that
//!   accepts the value and declares each of its members names it (`fragment ContentBlock`).
//!
//! Values with a generated type (`session/update` params, `session/request_permission` params and
//! result, `ToolCall` and `ToolCallUpdate` fragments) are also decoded with
//! [`toolcall_contracts::decode()`], and the two verdicts are combined: see [`Status`].
//!
//! # Pointers
//! A failed `oneOf`/`anyOf` is reported where the message went wrong rather than at the union:
//! at the tag of a tagged union whose tag no branch knows
//! (`/params/update/content/0/type: "txt" is not one of "content", "diff", ...`), inside the
//! branch the tag selects otherwise, and at the value for a string enum.
//!
//! Schemas: `schema/acp/acp.schema.json` ([`toolcall_contracts::acp::SCHEMA_JSON`]),
//! `schema/mcp/<version>/schema.json` and `schema/route/tool-call-request.schema.json`
//! ([`toolcall_contracts::route::SCHEMA_JSON`]).

#![deny(missing_docs)]

mod answered;
mod batch;
mod checker;
mod envelope;
mod fast;
mod input;
mod leaves;
mod mcp;
mod mcp_rpc;
mod pruned;
mod rpc;
mod schema;
pub mod tap;
mod tap_records;
mod transcript;
mod unique;
mod verdict;

use std::path::PathBuf;

pub use checker::{Checked, Checker, FRAGMENT_DEFINITIONS};
pub use input::{read_input, split_messages, Message};
pub use mcp::MCP_VERSIONS;
pub use tap_records::in_session;
pub use transcript::{Side, Transcript};
pub use verdict::{write_report_line, Kind, Protocol, Status, Summary, Verdict};

/// Why the traffic checker could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TrafficError {
    /// The input file (or standard input, for `-`) could not be read.
    #[error("cannot read `{}`", .path.display())]
    Read {
        /// The path as given (`-` for standard input).
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The built-in ACP schema is not JSON (a broken build).
    #[error("the built-in ACP schema is not JSON")]
    SchemaJson {
        /// The parse error.
        source: serde_json::Error,
    },
    /// The built-in ACP schema lacks a member the checker needs (a broken build).
    #[error("the built-in ACP schema has no `{missing}`")]
    SchemaShape {
        /// The missing member, e.g. `$defs`.
        missing: String,
    },
    /// An MCP version asked for ([`Checker::with_mcp_version`]) is not one the checker holds.
    #[error("no MCP schema for version `{version}` (known: {})", MCP_VERSIONS.join(", "))]
    UnknownMcpVersion {
        /// The version asked for.
        version: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_display_lowercase_with_values_in_backticks() {
        let read = TrafficError::Read {
            path: PathBuf::from("missing.ndjson"),
            source: std::io::Error::from(std::io::ErrorKind::NotFound),
        };
        assert_eq!(read.to_string(), "cannot read `missing.ndjson`");
        let shape = TrafficError::SchemaShape {
            missing: "$defs".to_owned(),
        };
        assert_eq!(shape.to_string(), "the built-in ACP schema has no `$defs`");
        let version = TrafficError::UnknownMcpVersion {
            version: "2025-01-01".to_owned(),
        };
        assert_eq!(
            version.to_string(),
            "no MCP schema for version `2025-01-01` (known: 2024-11-05, 2025-03-26, 2025-06-18, \
             2025-11-25, 2026-07-28)"
        );
    }
}
