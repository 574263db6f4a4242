//! Checking a live ACP agent or MCP server from inside its stdio pipe (what `toolcall tap`
//! runs).
//!
//! [`Tap`] starts the child with its stdin and stdout piped and relays bytes unchanged, chunk
//! by chunk, between them and its own stdin and stdout, where the client is. A copy of the
//! traffic goes to a [`Monitor`] on another thread, which never holds the relay up:
//! - messages are newline-delimited JSON (ACP and MCP over stdio), framed per direction by a
//!   [`LineFramer`] that holds at most one message of up to the byte limit;
//! - each message gets the verdict [`crate::Checker`] gives it (what `toolcall
//!   validate` says), requests paired with responses by id and direction;
//! - the protocol is recognized from the opening exchange ([`Protocol`]);
//! - tool calls are followed through their life ([`LifecycleProblem`]): an ACP
//!   `tool_call_update` for a call never announced, a second `tool_call` with the same id, an
//!   update after `completed` or `failed`; an MCP progress notification for a token no request
//!   in progress carries, after the response or the cancellation of its request, or whose
//!   progress does not increase;
//! - every message goes to the transcript (see [`Monitor`] for its records), and every finding
//!   to a [`Reporter`] as it happens.
//!
//! Source: ACP `schema/acp/acp.schema.json` (tool calls: `ToolCall`, `ToolCallUpdate`,
//! `ToolCallStatus`); MCP basic utilities (progress: tokens unique among active requests, valid
//! until the response, increasing progress; cancellation), tasks (a task-augmented request's
//! token lives as long as its task).

mod backlog;
mod frame;
mod gap;
mod lifecycle;
mod monitor;
mod protocol;
mod relay;
mod report;
pub(crate) mod session;

use std::ffi::OsString;

pub use backlog::Backlog;
pub use frame::{Frame, LineFramer};
pub use gap::Gap;
pub use lifecycle::{HiddenByGap, LifecycleFinding, LifecycleProblem, MAX_TRACKED};
pub use monitor::{Event, Monitor, Peer, TapSummary};
pub use protocol::{Protocol, MCP_VERSION_META};
pub use relay::{
    lower_checking_priority, ChildExit, Tap, TapOutcome, BACKLOG_BYTES, CHECKING_NICE, CHUNK_BYTES,
};
pub use report::{ReportFormat, Reporter};
pub use session::Lifecycle;

/// One end of the tap: the client on its stdin and stdout, or the child it started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// What arrives on the tap's stdin and goes to the child's.
    Client,
    /// What the child writes on its stdout and goes to the tap's.
    Child,
}

impl Side {
    /// The other side.
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Self::Client => Self::Child,
            Self::Child => Self::Client,
        }
    }

    const fn index(self) -> usize {
        match self {
            Self::Client => 0,
            Self::Child => 1,
        }
    }
}

/// Why a tap run could not go on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TapError {
    /// The command could not be started.
    #[error("cannot start `{}`", .command.to_string_lossy())]
    Spawn {
        /// The command as given.
        command: OsString,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Waiting for the child failed.
    #[error("cannot wait for the child")]
    Wait {
        /// The I/O error.
        source: std::io::Error,
    },
    /// The signal handlers could not be installed (Unix).
    #[error("cannot install the signal handlers")]
    Signals {
        /// The I/O error.
        source: std::io::Error,
    },
    /// A thread of the tap could not be started, or panicked.
    #[error("thread `{name}` could not start or panicked")]
    Thread {
        /// Its name.
        name: &'static str,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_display_lowercase_with_values_in_backticks() {
        let spawn = TapError::Spawn {
            command: "no-such-agent".into(),
            source: std::io::Error::from(std::io::ErrorKind::NotFound),
        };
        assert_eq!(spawn.to_string(), "cannot start `no-such-agent`");
        assert_eq!(
            TapError::Thread {
                name: "toolcall-tap-check"
            }
            .to_string(),
            "thread `toolcall-tap-check` could not start or panicked"
        );
    }

    #[test]
    fn sides_are_each_others_other() {
        assert_eq!(Side::Client.other(), Side::Child);
        assert_eq!(Side::Child.other().other(), Side::Child);
    }
}
