//! `toolcall`: check real tool-call traffic against the contracts.
//!
//! `toolcall validate [--format text|json] [--lifecycle] [--independent] FILE...` (`-` reads
//! standard input). Exit status: 0 when at least one message was checked and each is `ok` or
//! `lenient` (and, with `--lifecycle`, no tool call went wrong), 1 when one is `invalid`,
//! `unchecked` or `over-limit`, a tool call went wrong, or the input holds no message at all, 2
//! on a usage or I/O error.
//!
//! `toolcall schemas diff [--format text|json] OLD NEW` compares two schema files or bundles
//! ([`toolcall_schema::diff`]). Exit status: 0 when no change is breaking, 1 when one
//! is (in either direction), 2 on a usage or I/O error.
//!
//! `toolcall tap [--transcript FILE] [--format text|json] [--report FILE] -- COMMAND [ARGS...]`
//! runs an ACP agent or MCP server in its stdio pipe and checks the traffic live
//! ([`toolcall_traffic::tap`]). Exit status: the child's (128 + the signal when a signal ended
//! it), 127 when COMMAND cannot be started, 2 on a usage or I/O error before it starts.
//!
//! `toolcall tap --listen ADDRESS --upstream URL [--transcript FILE] [--format text|json]
//! [--report FILE]` is the same check as a reverse proxy in front of a remote MCP server, over
//! Streamable HTTP and HTTP+SSE (`tap_http`). Exit status: 0 when every message was `ok` or
//! `lenient`, 1 when one was `invalid`, `unchecked` or `over-limit`, 2 when it could not start.
//!
//! `toolcall tools project [--namespace NAME] [--max-len N] [--alphabet openai|canonical|mcp]
//! [--chars CHARS] [--format text|json] FILE` projects the tool names of a `tools/list` result
//! ([`toolcall_hops::names`]). Exit status: 0, 1 when two tools cannot be told apart,
//! 2 on a usage or I/O error.
//!
//! `toolcall convert --to acp [--session-id ID] [--kind TOOL=KIND]... FILE` prints the ACP
//! `session/update` notifications an agent relaying the tool calls of an MCP transcript would
//! send ([`toolcall_hops::relay`]). Exit status: 0; 1 when the input holds no
//! message or none gave an update; 2 on a usage or I/O error.
//!
//! `toolcall schemas export DIR` writes the publishable schema bundle
//! ([`toolcall_contracts::bundle`]); `toolcall schemas list` prints its root types. Exit status:
//! 0, or 2 on an I/O error.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use toolcall_contracts::policy::DecodeLimits;

use clap::{Parser, Subcommand, ValueEnum};
use toolcall_contracts::bundle;
use toolcall_schema::diff as schema_diff;
use toolcall_traffic::tap::{
    Lifecycle, LifecycleFinding, Monitor, ReportFormat, Reporter, Tap, TapError,
};
use toolcall_traffic::{
    in_session, read_input, split_messages, write_report_line, Checker, Kind, Protocol, Status,
    Summary, Transcript, Verdict, MCP_VERSIONS,
};

mod hops;
mod tap_http;

#[derive(Parser)]
#[command(
    name = "toolcall",
    version,
    about = "Check tool-call traffic against the contracts"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate JSON or NDJSON messages (ACP and MCP JSON-RPC, route bodies, ACP fragments).
    Validate {
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// MCP version of a session whose transcript does not say which (no `initialize`
        /// exchange, no `protocolVersion` in a request's `_meta`); default: the newest.
        #[arg(long, value_name = "VERSION", value_parser = clap::builder::PossibleValuesParser::new(MCP_VERSIONS))]
        mcp_version: Option<String>,
        /// Largest message checked, in bytes; a larger one is `over-limit` (not checked).
        #[arg(long, value_name = "BYTES", default_value_t = Checker::DEFAULT_LIMITS.max_bytes)]
        max_bytes: usize,
        /// Deepest nesting of arrays and objects checked in a message (1 to 127: serde_json
        /// refuses deeper input on its own); a deeper one is `over-limit` (not checked).
        #[arg(
            long,
            value_name = "LEVELS",
            default_value_t = Checker::DEFAULT_LIMITS.max_depth,
            value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u16).range(1..=127), usize::from)
        )]
        max_depth: usize,
        /// Also follow tool calls through their life, as `toolcall tap` does, and report what
        /// goes wrong (`FILE:LINE: tool call: ...`), and the tap's notes on calls its gaps may
        /// have hidden (`FILE:LINE: note: ...`).
        #[arg(long)]
        lifecycle: bool,
        /// Check each message on its own (a file of independent examples): no session, no
        /// pairing of responses with requests, ids never compared.
        #[arg(long, conflicts_with = "lifecycle")]
        independent: bool,
        /// Files to read, one message per line or one JSON document each; `-` is standard input.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Run an ACP agent or MCP server in its stdio pipe and check its traffic live.
    #[command(long_about = TAP_LONG_ABOUT)]
    Tap {
        /// Write every message of both directions to FILE (NDJSON, `{"from": ..., "message": ...}`).
        #[arg(long, value_name = "FILE")]
        transcript: Option<PathBuf>,
        /// Report format.
        #[arg(long, value_enum, default_value_t = TapFormat::Text)]
        format: TapFormat,
        /// Write the report to FILE instead of standard error.
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
        /// Largest message checked, in bytes; a larger one is `over-limit` (not checked), still
        /// relayed.
        #[arg(long, value_name = "BYTES", default_value_t = Checker::DEFAULT_LIMITS.max_bytes)]
        max_bytes: usize,
        /// Deepest nesting of arrays and objects checked in a message (1 to 127); a deeper one
        /// is `over-limit` (not checked).
        #[arg(
            long,
            value_name = "LEVELS",
            default_value_t = Checker::DEFAULT_LIMITS.max_depth,
            value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u16).range(1..=127), usize::from)
        )]
        max_depth: usize,
        /// Relay HTTP instead of running a command: listen on ADDRESS (loopback unless
        /// --allow-remote) as a reverse proxy in front of --upstream, a remote MCP server.
        #[arg(
            long,
            value_name = "ADDRESS",
            requires = "upstream",
            conflicts_with = "command"
        )]
        listen: Option<std::net::SocketAddr>,
        /// The MCP server's base URL (`http://host:port`); the client uses the same paths on
        /// --listen.
        #[arg(long, value_name = "URL", requires = "listen")]
        upstream: Option<String>,
        /// With --listen: the transport, recognized from the traffic by default (a `GET` stream
        /// announcing an `endpoint` is HTTP+SSE, the rest Streamable HTTP).
        #[arg(long, value_enum, default_value_t = HttpTransport::Auto, requires = "listen")]
        transport: HttpTransport,
        /// With --listen: allow an ADDRESS that is not loopback (other machines can then use the
        /// upstream through the tap).
        #[arg(long, requires = "listen")]
        allow_remote: bool,
        /// With --listen: a host name accepted in `Host` besides this tap's address (any port).
        #[arg(long = "allow-host", value_name = "NAME", requires = "listen")]
        allow_hosts: Vec<String>,
        /// With --listen: an `Origin` accepted besides local ones (`https://app.example`).
        #[arg(long = "allow-origin", value_name = "ORIGIN", requires = "listen")]
        allow_origins: Vec<String>,
        /// With --listen: seconds the upstream has to start a response (then the client gets
        /// `504 Gateway Timeout`).
        #[arg(
            long,
            value_name = "SECONDS",
            default_value_t = 120.0,
            requires = "listen"
        )]
        upstream_timeout: f64,
        /// The agent or server to run, and its arguments (after `--`).
        #[arg(
            last = true,
            required_unless_present = "listen",
            value_name = "COMMAND"
        )]
        command: Vec<OsString>,
    },
    /// Work with MCP tool lists.
    Tools {
        #[command(subcommand)]
        command: ToolsCommand,
    },
    /// Convert an MCP transcript into the ACP updates an agent relaying its tool calls sends.
    #[command(long_about = CONVERT_LONG_ABOUT)]
    Convert {
        /// What to convert to.
        #[arg(long, value_enum)]
        to: hops::Target,
        /// The ACP `sessionId` of every notification written.
        #[arg(long, value_name = "ID", default_value = "mcp-relay")]
        session_id: String,
        /// The ACP tool kind of an MCP tool (`read`, `edit`, `delete`, `move`, `search`,
        /// `execute`, `think`, `fetch`, `switch_mode`, `other`); a tool not named is `other`.
        /// Each tool at most once, and one the transcript calls or lists.
        #[arg(long = "kind", value_name = "TOOL=KIND", value_parser = hops::parse_kind)]
        kinds: Vec<(String, toolcall_contracts::acp::ToolKind)>,
        /// The MCP transcript: NDJSON, bare messages or `{"from": ..., "message": ...}` lines;
        /// `-` is standard input.
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// Work with JSON Schema files and bundles.
    Schemas {
        #[command(subcommand)]
        command: SchemasCommand,
    },
}

/// `toolcall tools ...`; one variant per subcommand.
#[derive(Subcommand)]
enum ToolsCommand {
    /// Project tool names onto a target alphabet and length (deterministic, reversible): the
    /// name map and why each name changed.
    #[command(long_about = PROJECT_LONG_ABOUT)]
    Project {
        /// Namespace put before every name, with `__` (`NAME__tool`); not empty (leave it out
        /// for no namespace).
        #[arg(long, value_name = "NAME")]
        namespace: Option<String>,
        /// Most characters of a projected name.
        #[arg(long, value_name = "N", default_value_t = 64)]
        max_len: usize,
        /// The characters a projected name may hold.
        #[arg(long, value_enum, default_value_t = hops::AlphabetArg::Openai)]
        alphabet: hops::AlphabetArg,
        /// Exactly these characters instead of `--alphabet` (they must include `_` and the hex
        /// digits `0-9a-f` when a name is replaced, prefixed or hashed).
        #[arg(long, value_name = "CHARS")]
        chars: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = hops::ProjectFormat::Text)]
        format: hops::ProjectFormat,
        /// A `tools/list` result (`{"tools": [...]}`), its JSON-RPC response, or an array of
        /// MCP tools; `-` is standard input.
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
}

const PROJECT_LONG_ABOUT: &str = "\
Project tool names onto a target alphabet and length: the namespace and `__` before each name, \
every character outside the alphabet replaced by `_`, a name longer than --max-len cut and \
given a hash suffix (`_` and 8 hex digits of the SHA-256 of the namespace and the name), and \
the same suffix on each of several tools that would get one name (a tool whose name needed no \
replacement keeps its own). The same tools always give the same names.

Text output: one `FROM -> TO (WHY; WHY)` line per tool, then `N tools, M names changed`; a name \
that could be misread there (with a line break or another control character, ` -> ` or ` (`, a \
space or `\"` at either end) is written as a JSON string, and a control character in a WHY is \
escaped as JSON escapes it. A tool with an empty name is refused. --format json: one array of \
{\"from\", \"to\", \"changes\": [WHY...]}, one per tool.

Exit status: 0; 1 when two tools still get one name, or a tool is listed twice (the error names \
both, with their indexes in the list); 2 on a usage or I/O error.";

const CONVERT_LONG_ABOUT: &str = "\
Read an MCP transcript (NDJSON: bare JSON-RPC messages, or {\"from\": \"client\"|\"server\", \
\"message\": ...} lines as `toolcall validate` reads and `toolcall tap` writes them; one or more \
sessions, each starting with `initialize`) and print, one per line, the ACP `session/update` \
JSON-RPC notifications an agent relaying its tool calls would send: a `tool_call` for each \
`tools/call` (in progress), a `tool_call_update` for each of its progress notifications (and \
task status notifications), and its end, `completed` or `failed` (an error result, a JSON-RPC \
error, a cancellation).

Every notification has the --session-id (default `mcp-relay`): one ACP session relaying all the \
MCP sessions. Tool call ids are `mcp-<session>-<id>`: the MCP session's number in the \
transcript (from 1) and the request's JSON-RPC id, an integer in its digits (`mcp-1-7`), a \
string in double quotes as is (`mcp-1-\"7\"`), so that distinct requests never share one. \
Responses, cancellations and progress are paired with their request by id and direction; in a \
bare transcript, one that may belong to the client's call or to a request of the server is \
not relayed (wrap the lines with `from`).

What is not relayed as it was goes to standard error as `toolcall convert: line N: ...`: progress \
after a call ended, a call that never ends, a content block ACP refuses (it stays in \
`rawOutput`), request metadata ACP has no member for (not the 2026-07-28 per-request envelope, \
`io.modelcontextprotocol/protocolVersion` and the like: the protocol's, as `jsonrpc` is), a number written otherwise (`1e2` as \
`100.0`), a response or progress that belongs to no request, a notification over `toolcall \
validate`'s default limits (32 MiB, depth 127). The last line of standard error counts \
messages, updates and notes.

Exit status: 0; 1 when the input holds no message (an empty or blank file, named on standard \
error) or none gave an update; 2 on a usage or I/O \
error (a --kind naming a tool twice, or a tool the transcript never calls or lists).";

/// `toolcall schemas ...`; one variant per subcommand.
#[derive(Subcommand)]
enum SchemasCommand {
    /// Compare two schema files (or bundles) and classify each change for both directions.
    #[command(long_about = DIFF_LONG_ABOUT)]
    Diff {
        /// Output format.
        #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
        format: DiffFormat,
        /// The old schema file, or a directory of `*.json` schema files.
        #[arg(value_name = "OLD")]
        old: PathBuf,
        /// The new schema file, or a directory of `*.json` schema files.
        #[arg(value_name = "NEW")]
        new: PathBuf,
    },
    /// Write the publishable schema bundle (every schema file and an `index.json`) to DIR.
    #[command(long_about = EXPORT_LONG_ABOUT)]
    Export {
        /// Directory to write to (created when missing).
        #[arg(value_name = "DIR")]
        dir: PathBuf,
    },
    /// Print the root types, one per line: name, bundle file, JSON pointer.
    #[command(long_about = LIST_LONG_ABOUT)]
    List,
}

/// `toolcall tap --help`.
const TAP_LONG_ABOUT: &str = "\
Start COMMAND (an ACP agent or an MCP server speaking over stdio) with its stdin and stdout \
piped, and relay bytes unchanged and unbuffered between them and this process's stdin and \
stdout, where the client is: put `toolcall tap --` in front of the agent's or server's command \
in the client's configuration. COMMAND's stderr is this process's.

On the side, never delaying the relay, every newline-delimited message of both directions is \
checked: the verdict `toolcall validate` gives it (requests paired with responses by id and \
direction), the protocol recognized from `initialize` (ACP: an integer protocolVersion; MCP: a \
date) or MCP's `server/discover`, and the tool calls followed through their life: an ACP \
`tool_call_update` for a call never announced, a second `tool_call` with the same id, an update \
after `completed` or `failed`; an MCP progress notification for an unknown token, after the \
response or the cancellation of its request, or whose progress does not increase. Each finding \
names the message's line in the transcript.

The report goes to standard error (or --report FILE) as it happens: --format text lists \
sessions, messages that are not ok and tool-call problems, then a summary line; --format json \
writes one object per message and finding, then the summary object. --transcript FILE writes \
every message as {\"from\": \"client\"|\"agent\"|\"server\", \"message\": <as sent>} \
(a line that is not JSON: {\"from\": ..., \"text\": ...}), the form `toolcall validate` reads.

A message over --max-bytes (or --max-depth) is reported `over-limit`, not checked, and relayed \
whole, without being held in memory. \
End of file on stdin closes COMMAND's stdin; when COMMAND exits, the tap exits with its status \
(128 + the signal when a signal ended it); SIGINT, SIGTERM and SIGHUP are forwarded to it.

Exit status: COMMAND's; 127 when COMMAND cannot be started; 2 on a usage or I/O error before it \
starts.

With --listen ADDRESS --upstream URL instead of COMMAND, the tap is a reverse proxy in front of a \
remote MCP server (URL is its base, `http://host:port`; clients use the same paths on ADDRESS), \
over Streamable HTTP and HTTP+SSE (recognized from the traffic, or --transport). Bodies are \
relayed byte for byte and server-sent events as they arrive; hop-by-hop headers are dropped, \
`Host` names the upstream, `Via` is added. Every JSON-RPC message is checked as above, one \
session per Mcp-Session-Id or SSE stream; transcript records and report lines name their \
session ({\"session\": 1, \"from\": ..., \"message\": ...}, which `toolcall validate` reads). \
ADDRESS must be loopback unless --allow-remote; a request whose Host is not the tap's address \
or whose Origin is not local gets 403 (--allow-host, --allow-origin); Authorization, cookies and \
API keys are relayed and redacted in the report. An upstream that cannot be reached gets the \
client 502, one that does not answer within --upstream-timeout 504; the report says so, and \
when a stream breaks off, ends without its response, or loses its client. Runs until SIGINT or \
SIGTERM; exit status 0 when every message was ok or lenient, 1 when one was invalid, \
unchecked or over-limit, 2 when it could not start.";

/// `toolcall schemas export --help`.
const EXPORT_LONG_ABOUT: &str = "\
Write the publishable schema bundle to DIR: every route, canonical and ACP schema file \
(DIR/route/..., DIR/canonical/..., DIR/acp/acp.schema.json), each with `$schema` (2020-12) and an \
absolute `$id` under https://toolcall-contracts.dev/schema/v1/, cross-file `$ref`s relative to \
it, and DIR/index.json listing each file with its `$id`, version and sha256, and the root types. \
Nothing in the bundle needs the network to resolve. The same sources always give byte-identical \
files. Files already in DIR with the same names are replaced, others are left alone.

Prints one line per written file, `SHA256  PATH` (as sha256sum does), index.json last.

Exit status: 0, or 2 when a file cannot be written.";

/// `toolcall schemas list --help`.
const LIST_LONG_ABOUT: &str = "\
Print the root types, the definitions a consumer validates a whole document against, one per \
line: the name (family.Definition), the bundle file, and the JSON pointer of the definition in \
it, separated by spaces:

  route.ToolCallRequest  route/tool-call-request.schema.json  #/$defs/ToolCallRequest

The golden vectors are grouped by these names (tests/vectors/<name>/).";

/// `toolcall schemas diff --help`.
const DIFF_LONG_ABOUT: &str = "\
Compare two JSON Schema files, or two bundles (directories whose *.json files are matched by \
file name), and print one line per change, then a summary line:

  <breaking|additive|cosmetic> [FILE#]POINTER: WHAT[ (DIRECTION)]

Each change is classified for two directions:
  old producer → new consumer: can consumers of NEW read what producers of OLD send?
  new producer → old consumer: can consumers of OLD read what producers of NEW send?
Per direction: breaking (some document a producer may send is rejected), additive (what is \
valid changed, this direction keeps working), cosmetic (annotations only: description, title, \
default; a `$schema` dialect change is breaking both ways, since the dialect decides what every \
keyword means). A line's classification is the worse of the two; a breaking line ends with the \
direction that breaks, or \"(both directions)\". Example:

  breaking /$defs/ToolCall/required: `kind` became required (old producer → new consumer)

Definitions are compared by name, `$ref`s by target name; union branches are matched by their \
const tag, const value, title or $ref target.

--format json prints one object per change, {\"classification\", \"file\" (bundles only), \
\"pointer\", \"kind\", \"what\", \"old_producer_new_consumer\", \
\"new_producer_old_consumer\"}, then the summary object.

Exit status: 0 when no change is breaking, 1 when one is (in either direction), 2 on a usage \
or I/O error.";

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DiffFormat {
    /// `<classification> POINTER: WHAT` lines, then the summary line.
    Text,
    /// One JSON object per change, then the summary object.
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// `FILE:LINE: <verdict> ...` lines, then the summary line.
    Text,
    /// One JSON object per message, then the summary object.
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum HttpTransport {
    /// Recognized from the traffic.
    Auto,
    /// Streamable HTTP (MCP 2025-03-26 and later).
    StreamableHttp,
    /// HTTP+SSE (MCP 2024-11-05).
    Sse,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TapFormat {
    /// `toolcall tap: line N (FROM): ...` lines for what is not ok, then the summary line.
    Text,
    /// One JSON object per message and finding, then the summary object.
    Json,
}

/// A file `--format json` could not read (also reported on standard error).
#[derive(serde::Serialize)]
struct Unreadable<'a> {
    file: &'a str,
    error: &'a str,
}

/// One message of `--format json`.
#[derive(serde::Serialize)]
struct Record<'a> {
    file: &'a str,
    line: usize,
    #[serde(flatten)]
    verdict: &'a Verdict,
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Validate {
            format,
            mcp_version,
            max_bytes,
            max_depth,
            lifecycle,
            independent,
            files,
        } => {
            let limits = Checker::DEFAULT_LIMITS
                .with_max_bytes(max_bytes)
                .with_max_depth(max_depth);
            let reading = Reading {
                lifecycle,
                independent,
            };
            validate(format, limits, mcp_version.as_deref(), reading, &files)
        }
        Command::Tap {
            transcript,
            format,
            report,
            max_bytes,
            max_depth,
            listen,
            upstream,
            transport,
            allow_remote,
            allow_hosts,
            allow_origins,
            upstream_timeout,
            command,
        } => {
            let limits = Checker::DEFAULT_LIMITS
                .with_max_bytes(max_bytes)
                .with_max_depth(max_depth);
            let json = format == TapFormat::Json;
            let format = match format {
                TapFormat::Text => ReportFormat::Text,
                TapFormat::Json => ReportFormat::Json,
            };
            if let (Some(listen), Some(upstream)) = (listen, upstream) {
                let options = tap_http::Options {
                    listen,
                    upstream,
                    allow_remote,
                    allow_hosts,
                    allow_origins,
                    transport: match transport {
                        HttpTransport::Auto => tap_http::Transport::Auto,
                        HttpTransport::StreamableHttp => tap_http::Transport::StreamableHttp,
                        HttpTransport::Sse => tap_http::Transport::Sse,
                    },
                    upstream_timeout: std::time::Duration::from_secs_f64(
                        upstream_timeout.clamp(0.001, 86_400.0),
                    ),
                    transcript,
                    json,
                    max_bytes,
                };
                return tap_http_main(options, format, report.as_deref(), limits);
            }
            Ok(tap(
                transcript.as_deref(),
                format,
                report.as_deref(),
                limits,
                command,
            ))
        }
        Command::Tools {
            command:
                ToolsCommand::Project {
                    namespace,
                    max_len,
                    alphabet,
                    chars,
                    format,
                    file,
                },
        } => hops::project(&hops::Project {
            namespace: namespace.as_deref(),
            max_len,
            alphabet,
            chars: chars.as_deref(),
            format,
            file: &file,
        }),
        Command::Convert {
            to,
            session_id,
            kinds,
            file,
        } => hops::convert(to, &session_id, &kinds, &file),
        Command::Schemas {
            command: SchemasCommand::Diff { format, old, new },
        } => schemas_diff(format, &old, &new),
        Command::Schemas {
            command: SchemasCommand::Export { dir },
        } => schemas_export(&dir),
        Command::Schemas {
            command: SchemasCommand::List,
        } => schemas_list(),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("toolcall: cannot write the output: {error}");
            ExitCode::from(2)
        }
    }
}

/// How `toolcall validate` reads its files beyond the verdicts.
#[derive(Clone, Copy)]
struct Reading {
    /// `--lifecycle`: the tap's tool-call lifecycle checks too.
    lifecycle: bool,
    /// `--independent`: each message on its own.
    independent: bool,
}

/// One finding of `--lifecycle` in `--format json`.
#[derive(serde::Serialize)]
struct LifecycleRecord<'a> {
    file: &'a str,
    line: usize,
    from: Option<toolcall_traffic::Side>,
    problem: &'static str,
    message: String,
}

/// A note of `--lifecycle` in `--format json`: a tool call first seen after a gap of the tap's
/// (its members those of the tap's `hidden-by-gap` event).
#[derive(serde::Serialize)]
struct NoteRecord<'a> {
    file: &'a str,
    line: usize,
    from: Option<toolcall_traffic::Side>,
    note: &'static str,
    what: &'static str,
    id: &'a str,
    gap_line: usize,
    message: String,
}

fn validate(
    format: Format,
    limits: DecodeLimits,
    mcp_version: Option<&str>,
    reading: Reading,
    files: &[PathBuf],
) -> io::Result<ExitCode> {
    let checker = Checker::new().and_then(|checker| match mcp_version {
        Some(version) => checker.with_limits(limits).with_mcp_version(version),
        None => Ok(checker.with_limits(limits)),
    });
    let checker = match checker {
        Ok(checker) => checker,
        Err(error) => {
            eprintln!("toolcall: {}", chain(&error));
            return Ok(ExitCode::from(2));
        }
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut summary = Summary::default();
    let mut problems = 0usize;
    let mut unreadable = false;
    for path in files {
        let content = match read_input(path) {
            Ok(content) => content,
            Err(error) => {
                let message = chain(&error);
                if format == Format::Json {
                    let record = Unreadable {
                        file: &path.to_string_lossy(),
                        error: &message,
                    };
                    writeln!(out, "{}", serde_json::to_string(&record)?)?;
                }
                out.flush()?;
                eprintln!("toolcall: {message}");
                unreadable = true;
                continue;
            }
        };
        let file = path.to_string_lossy();
        let checked_before = summary.messages;
        let messages = split_messages(&content);
        // One session per file, or per session named in the records (the HTTP tap's).
        let mut sessions: HashMap<Option<String>, (Transcript, Lifecycle)> = HashMap::new();
        for message in &messages {
            let (session, text) = match in_session(message.text) {
                Some((session, record)) => (Some(session), Cow::Owned(record)),
                None => (None, Cow::Borrowed(message.text)),
            };
            let (transcript, followed) = sessions.entry(session).or_default();
            if reading.independent {
                *transcript = Transcript::default();
            }
            transcript.at_line(message.line);
            let verdict = checker.check(transcript, &text);
            summary.add(&verdict);
            match format {
                Format::Text => print_text(&mut out, &file, message.line, &verdict)?,
                Format::Json => {
                    let record = Record {
                        file: &file,
                        line: message.line,
                        verdict: &verdict,
                    };
                    writeln!(out, "{}", serde_json::to_string(&record)?)?;
                }
            }
            if !reading.lifecycle {
                continue;
            }
            let (from, found) = followed.follow_line(message.line, &text);
            for finding in found {
                if let LifecycleFinding::Problem(_) = finding {
                    problems += 1;
                }
                match format {
                    Format::Text => {
                        let from = from
                            .map(|side| format!(" (from {side})"))
                            .unwrap_or_default();
                        writeln!(out, "{file}:{}: {finding}{from}", message.line)?;
                    }
                    Format::Json => {
                        let line = message.line;
                        let record = match &finding {
                            LifecycleFinding::Problem(problem) => {
                                serde_json::to_string(&LifecycleRecord {
                                    file: &file,
                                    line,
                                    from,
                                    problem: finding.name(),
                                    message: problem.to_string(),
                                })?
                            }
                            LifecycleFinding::Hidden(hidden) => {
                                serde_json::to_string(&NoteRecord {
                                    file: &file,
                                    line,
                                    from,
                                    note: finding.name(),
                                    what: hidden.what,
                                    id: &hidden.id,
                                    gap_line: hidden.gap_line,
                                    message: hidden.to_string(),
                                })?
                            }
                        };
                        writeln!(out, "{record}")?;
                    }
                }
            }
        }
        if summary.messages == checked_before {
            out.flush()?;
            eprintln!("toolcall: {file}: no message (the file is empty or blank)");
        }
    }
    match (format, reading.lifecycle) {
        (Format::Text, false) => writeln!(out, "{summary}")?,
        (Format::Text, true) => writeln!(
            out,
            "{summary}; {problems} tool-call problem{}",
            if problems == 1 { "" } else { "s" }
        )?,
        (Format::Json, false) => writeln!(out, "{}", serde_json::to_string(&summary)?)?,
        (Format::Json, true) => {
            let mut record = serde_json::to_value(summary)?;
            record["lifecycle"] = problems.into();
            writeln!(out, "{record}")?;
        }
    }
    out.flush()?;
    Ok(if unreadable {
        ExitCode::from(2)
    } else if summary.invalid > 0
        || summary.unchecked > 0
        || summary.over_limit > 0
        || summary.messages == 0
        || problems > 0
    {
        // Nothing checked is not a pass: a wrong path, an empty capture or a message that could
        // not be checked should not look green.
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn tap(
    transcript: Option<&Path>,
    format: ReportFormat,
    report: Option<&Path>,
    limits: DecodeLimits,
    mut command: Vec<OsString>,
) -> ExitCode {
    let create = |path: &Path| {
        File::create(path).map_err(|error| {
            eprintln!("toolcall: cannot create `{}`: {error}", path.display());
        })
    };
    let checker = match Checker::new() {
        Ok(checker) => checker,
        Err(error) => {
            eprintln!("toolcall: {}", chain(&error));
            return ExitCode::from(2);
        }
    };
    let mut monitor = Monitor::new(checker, limits);
    if let Some(path) = transcript {
        let Ok(file) = create(path) else {
            return ExitCode::from(2);
        };
        monitor = monitor.with_transcript(Box::new(io::BufWriter::new(file)));
    }
    let out: Box<dyn Write + Send> = match report {
        Some(path) => match create(path) {
            Ok(file) => Box::new(io::BufWriter::new(file)),
            Err(()) => return ExitCode::from(2),
        },
        None => Box::new(io::stderr()),
    };
    let program = command.remove(0);
    match Tap::new(program, command, monitor, Reporter::new(format, out)).run() {
        Ok(outcome) => {
            if let Some(error) = &outcome.report_failed {
                eprintln!("toolcall: cannot write the report: {error}");
            }
            ExitCode::from(u8::try_from(outcome.exit.code()).unwrap_or(1))
        }
        Err(error @ TapError::Spawn { .. }) => {
            eprintln!("toolcall: {}", chain(&error));
            ExitCode::from(127)
        }
        Err(error) => {
            eprintln!("toolcall: {}", chain(&error));
            ExitCode::from(2)
        }
    }
}

/// `toolcall tap --listen ... --upstream ...`.
fn tap_http_main(
    options: tap_http::Options,
    format: ReportFormat,
    report: Option<&Path>,
    limits: DecodeLimits,
) -> ExitCode {
    let checker = match Checker::new() {
        Ok(checker) => checker,
        Err(error) => {
            eprintln!("toolcall: {}", chain(&error));
            return ExitCode::from(2);
        }
    };
    let out: Box<dyn Write + Send> = match report {
        Some(path) => match File::create(path) {
            Ok(file) => Box::new(io::BufWriter::new(file)),
            Err(error) => {
                eprintln!("toolcall: cannot create `{}`: {error}", path.display());
                return ExitCode::from(2);
            }
        },
        None => Box::new(io::stderr()),
    };
    tap_http::run(
        options,
        Monitor::new(checker, limits).mcp_server(),
        Reporter::new(format, out),
    )
}

fn schemas_diff(format: DiffFormat, old: &Path, new: &Path) -> io::Result<ExitCode> {
    let changes = match schema_diff::diff_paths(old, new) {
        Ok(changes) => changes,
        Err(error) => {
            // The error's message already names its source.
            eprintln!("toolcall: {error}");
            return Ok(ExitCode::from(2));
        }
    };
    let summary = schema_diff::Summary::of(&changes);
    let mut out = io::BufWriter::new(io::stdout().lock());
    match format {
        DiffFormat::Text => {
            for change in &changes {
                writeln!(out, "{change}")?;
            }
            writeln!(out, "{summary}")?;
        }
        DiffFormat::Json => {
            for change in &changes {
                writeln!(out, "{}", serde_json::to_string(change)?)?;
            }
            writeln!(out, "{}", serde_json::to_string(&summary)?)?;
        }
    }
    out.flush()?;
    Ok(if summary.breaking > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn schemas_export(dir: &Path) -> io::Result<ExitCode> {
    let bundle = match bundle::export(dir) {
        Ok(bundle) => bundle,
        Err(error) => {
            eprintln!("toolcall: {}", chain(&error));
            return Ok(ExitCode::from(2));
        }
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    for file in bundle.files() {
        writeln!(out, "{}  {}", file.sha256, file.path)?;
    }
    writeln!(out, "{}  {}", bundle.index_sha256(), bundle::INDEX_FILE)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn schemas_list() -> io::Result<ExitCode> {
    let roots = bundle::ROOT_TYPES;
    let name_width = roots.iter().map(|r| r.name.len()).max().unwrap_or(0);
    let file_width = roots.iter().map(|r| r.file.len()).max().unwrap_or(0);
    let mut out = io::BufWriter::new(io::stdout().lock());
    for root in roots {
        writeln!(
            out,
            "{:name_width$}  {:file_width$}  {}",
            root.name, root.file, root.pointer
        )?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn print_text(out: &mut impl Write, file: &str, line: usize, verdict: &Verdict) -> io::Result<()> {
    let from = verdict
        .from
        .map(|side| format!(" (from {side})"))
        .unwrap_or_default();
    // An MCP message says which schema it was checked against (`ok MCP 2025-11-25 tools/call`);
    // ACP is the default.
    let mcp = match verdict.protocol {
        Some(protocol @ Protocol::Mcp { .. }) => format!("{protocol} "),
        _ => String::new(),
    };
    print_status(out, file, line, verdict, &mcp, &from)?;
    match &verdict.note {
        Some(note) => write_report_line(&mut *out, format_args!("  note: {note}")),
        None => Ok(()),
    }
}

/// The verdict line (and a lenient verdict's report) of [`print_text`].
fn print_status(
    out: &mut impl Write,
    file: &str,
    line: usize,
    verdict: &Verdict,
    mcp: &str,
    from: &str,
) -> io::Result<()> {
    match &verdict.status {
        Status::Ok => write_report_line(
            &mut *out,
            format_args!("{file}:{line}: ok {mcp}{}{from}", verdict.kind),
        ),
        Status::Lenient => {
            write_report_line(
                &mut *out,
                format_args!("{file}:{line}: lenient {mcp}{}{from}", verdict.kind),
            )?;
            for leniency in &verdict.report {
                write_report_line(
                    &mut *out,
                    format_args!(
                        "  {} {}: {}",
                        leniency.kind,
                        leniency.pointer,
                        sorted_keys(&leniency.raw)
                    ),
                )?;
            }
            Ok(())
        }
        Status::Unchecked { message, .. } => write_report_line(
            &mut *out,
            format_args!(
                "{file}:{line}: unchecked {mcp}{}{from}: {message}",
                verdict.kind
            ),
        ),
        Status::Invalid { pointer, message } if pointer.is_empty() => write_report_line(
            &mut *out,
            format_args!(
                "{file}:{line}: invalid {mcp}{}: {message}{from}",
                verdict.kind
            ),
        ),
        Status::Invalid { pointer, message } => write_report_line(
            &mut *out,
            format_args!(
                "{file}:{line}: invalid {mcp}{} at {pointer}: {message}{from}",
                verdict.kind
            ),
        ),
        Status::OverLimit { message } if verdict.kind == Kind::OverLimit => write_report_line(
            &mut *out,
            format_args!("{file}:{line}: over-limit {mcp}{message}{from}"),
        ),
        Status::OverLimit { message } => write_report_line(
            &mut *out,
            format_args!(
                "{file}:{line}: over-limit {mcp}{}{from}: {message}",
                verdict.kind
            ),
        ),
    }
}

/// `value` with object members in name order, so the output does not depend on whether
/// serde_json keeps input order (its `preserve_order` feature).
fn sorted_keys(value: &serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            serde_json::Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.clone(), sorted_keys(v)))
                    .collect(),
            )
        }
        serde_json::Value::Array(items) => {
            serde_json::Value::Array(items.iter().map(sorted_keys).collect())
        }
        other => other.clone(),
    }
}

/// `error` and its sources, joined with `: `.
pub(crate) fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
