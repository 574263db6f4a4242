//! What the checker says about a message, and the tally of a run.

use std::fmt;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::transcript::Side;
use toolcall_contracts::decode::Leniency;

/// Whether a message holds to the contracts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Valid against the schema, and decoded (where a generated type exists) with no leniency.
    Ok,
    /// Accepted only by leniency the schema declares (`x-deserialize-*`): every schema error lies
    /// at or under a place the decoder reported in [`Verdict::report`]. A value the schema
    /// accepts as it is (a catch-all branch such as ACP's `NoticeSeverity` `other`, which takes
    /// `_vendor_debug`) and that decoding keeps is not leniency: such a message is [`Status::Ok`].
    Lenient,
    /// Could not be checked against the definition it answers: a response to a request whose
    /// method has no definition, or a response whose request cannot be told (its `id` is pending
    /// in both directions and the line does not say who sent it) and that is valid as the answer
    /// to some of them only.
    Unchecked {
        /// RFC 6901 pointer of the part that was not checked (`/result`).
        pointer: String,
        /// Why it was not checked.
        message: String,
    },
    /// Not accepted.
    Invalid {
        /// RFC 6901 pointer into the message (`""` for the message itself).
        pointer: String,
        /// What is wrong there.
        message: String,
    },
    /// Not checked: the message is over a limit of the checker's own
    /// ([`toolcall_contracts::policy::DecodeLimits`]: `--max-bytes`, `--max-depth`), not of the protocol. It
    /// was not parsed; a request among such messages is still recorded (its `id` and `method`
    /// read from its top level) so that its response is checked against its result.
    OverLimit {
        /// Which limit, and by how much (`input is `N` bytes, over `max_bytes` of `M` bytes`).
        message: String,
    },
}

impl Status {
    /// The wire name: `ok`, `lenient`, `unchecked`, `invalid` or `over-limit`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Lenient => "lenient",
            Self::Unchecked { .. } => "unchecked",
            Self::Invalid { .. } => "invalid",
            Self::OverLimit { .. } => "over-limit",
        }
    }
}

/// What a message was recognized as. [`fmt::Display`] gives the `kind` of the output, e.g.
/// `session/update`, `response to session/request_permission`, `route body` or
/// `fragment ContentBlock`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// A JSON-RPC request (it has an `id`): displayed as the method.
    Request {
        /// The `method` member.
        method: String,
    },
    /// A JSON-RPC notification (no `id`): displayed as the method.
    Notification {
        /// The `method` member.
        method: String,
    },
    /// A JSON-RPC response with a `result`: `response to <method>`, or
    /// `response (request not seen)` when no earlier request of the same input had its `id`.
    Response {
        /// The method of the request it answers, when that request was seen.
        method: Option<String>,
    },
    /// A JSON-RPC response with an `error`: `error response to <method>` or
    /// `error response (request not seen)`.
    ErrorResponse {
        /// The method of the request it answers, when that request was seen.
        method: Option<String>,
    },
    /// A JSON-RPC response with a `result` to a request whose method has no definition (not an
    /// extension method, not in the schema): `response to <method> (unknown method: no result
    /// definition)`.
    ResponseToUnknownMethod {
        /// The method of the request it answers.
        method: String,
    },
    /// A JSON-RPC response whose `id` is pending in more than one direction, on a line that does
    /// not say who sent it: `response to <a> or <b> (direction unknown)`, or `error response
    /// to ...`.
    AmbiguousResponse {
        /// The methods of the requests it may answer, in the order they were sent.
        methods: Vec<String>,
        /// Whether it has an `error` rather than a `result`.
        error: bool,
    },
    /// A JSON-RPC batch (an array of messages, MCP 2025-03-26): `batch (<kind>, <kind>...)`,
    /// or `batch` when its elements were not checked.
    Batch {
        /// What each element was recognized as, in order.
        kinds: Vec<Kind>,
    },
    /// A JSON-RPC message with neither `method` nor `result` nor `error`: `JSON-RPC message`.
    JsonRpc,
    /// A route body (`name` and `arguments`, no `jsonrpc`): `route body`.
    RouteBody,
    /// A document fragment that an ACP definition accepts: `fragment <Def>`.
    Fragment {
        /// The name of the definition under `$defs`.
        definition: String,
    },
    /// JSON that is none of the above: `unrecognized`.
    Unrecognized,
    /// Not JSON at all: `not JSON`.
    NotJson,
    /// A message over a decode limit ([`toolcall_contracts::policy::DecodeLimits`]: `--max-bytes`,
    /// `--max-depth`) whose top level does not say what it is (its verdict is
    /// [`Status::OverLimit`]; one that names its `method`, or answers a request, has that kind):
    /// `over a decode limit`.
    OverLimit,
    /// A tap record of bytes relayed but not checked (`{"from": ..., "not_checked_bytes": N}`):
    /// `not checked by the tap`.
    NotChecked,
    /// A transcript line with a top-level `from` (and no `jsonrpc`) that is none of the
    /// transcript's records (`{"from", "message"}`, `{"from", "text"}`, the tap's own):
    /// `transcript record`.
    TranscriptRecord,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let answered =
            |f: &mut fmt::Formatter<'_>, what: &str, method: &Option<String>| match method {
                Some(method) => write!(f, "{what} to {method}"),
                None => write!(f, "{what} (request not seen)"),
            };
        match self {
            Self::Request { method } | Self::Notification { method } => f.write_str(method),
            Self::Response { method } => answered(f, "response", method),
            Self::ErrorResponse { method } => answered(f, "error response", method),
            Self::ResponseToUnknownMethod { method } => write!(
                f,
                "response to {method} (unknown method: no result definition)"
            ),
            Self::AmbiguousResponse { methods, error } => write!(
                f,
                "{} to {} (direction unknown)",
                if *error { "error response" } else { "response" },
                methods.join(" or ")
            ),
            Self::Batch { kinds } if kinds.is_empty() => f.write_str("batch"),
            Self::Batch { kinds } => {
                f.write_str("batch (")?;
                for (index, kind) in kinds.iter().enumerate() {
                    if index > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{kind}")?;
                }
                f.write_str(")")
            }
            Self::JsonRpc => f.write_str("JSON-RPC message"),
            Self::RouteBody => f.write_str("route body"),
            Self::Fragment { definition } => write!(f, "fragment {definition}"),
            Self::Unrecognized => f.write_str("unrecognized"),
            Self::NotJson => f.write_str("not JSON"),
            Self::OverLimit => f.write_str("over a decode limit"),
            Self::NotChecked => f.write_str("not checked by the tap"),
            Self::TranscriptRecord => f.write_str("transcript record"),
        }
    }
}

/// The protocol a JSON-RPC message was checked as, and against which schema version.
/// [`fmt::Display`]: `ACP`, `MCP 2025-11-25`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Protocol {
    /// The Agent Client Protocol, against `schema/acp/acp.schema.json`.
    Acp,
    /// The Model Context Protocol, against the official schema of `version`
    /// (`schema/mcp/<version>/schema.json`, one of [`super::MCP_VERSIONS`]).
    Mcp {
        /// The protocol version, such as `2025-11-25`.
        version: &'static str,
    },
}

impl Protocol {
    /// The wire name: `acp` or `mcp`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Acp => "acp",
            Self::Mcp { .. } => "mcp",
        }
    }

    /// The MCP version, for MCP.
    #[must_use]
    pub const fn version(&self) -> Option<&'static str> {
        match self {
            Self::Acp => None,
            Self::Mcp { version } => Some(version),
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Acp => f.write_str("ACP"),
            Self::Mcp { version } => write!(f, "MCP {version}"),
        }
    }
}

/// The checker's verdict on one message.
///
/// Serializes as
/// `{"verdict": "invalid", "kind": "session/update", "protocol": "acp", "version": null,
/// "from": null, "pointer": "/params/update/content/0/type", "message": "...", "report": []}`;
/// `protocol` is `acp` or `mcp` for a JSON-RPC message (`null` for a route body, a fragment or
/// what is not JSON), `version` the MCP version it was checked against (`null` for ACP); `from`
/// is the sender a wrapper line named (`client`, `agent`, `server`), else `null`; `pointer` and
/// `message` are `null` unless the verdict is `invalid` or `unchecked`, `report` lists the
/// leniency the decoder applied (empty when nothing was decoded). Pointers are into the message
/// (a wrapper's `message`), not into the wrapper. A `"note"` member follows only when the verdict
/// has a [`Verdict::note`].
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// Ok, lenient, unchecked or invalid (with where and why).
    pub status: Status,
    /// What the message was recognized as.
    pub kind: Kind,
    /// The decoder's leniency report, pointers into the message (`/params/...`, `/result/...`).
    pub report: Vec<Leniency>,
    /// Who sent the message, when the transcript line said so (`{"from": ..., "message": ...}`).
    pub from: Option<Side>,
    /// The protocol a JSON-RPC message was checked as (with the MCP version); `None` for a route
    /// body, a fragment, or what is not JSON-RPC.
    pub protocol: Option<Protocol>,
    /// How the message was checked, when the checker had to assume something: on the first
    /// message of an MCP session checked against a version nobody negotiated, which version and
    /// why (`no `initialize` negotiated an MCP version: checked as 2026-07-28, ...`).
    pub note: Option<String>,
}

impl Verdict {
    pub(crate) fn ok(kind: Kind) -> Self {
        Self {
            status: Status::Ok,
            kind,
            report: Vec::new(),
            from: None,
            protocol: None,
            note: None,
        }
    }

    /// A valid message: `ok`, or `lenient` when `report` holds what leniency was applied.
    pub(crate) fn valid(kind: Kind, report: Vec<Leniency>) -> Self {
        let status = if report.is_empty() {
            Status::Ok
        } else {
            Status::Lenient
        };
        Self {
            status,
            report,
            ..Self::ok(kind)
        }
    }

    /// The same verdict, saying who sent the message.
    pub(crate) fn sent_by(mut self, from: Option<Side>) -> Self {
        self.from = from;
        self
    }

    /// The same verdict, saying which protocol the message was checked as.
    pub(crate) fn checked_as(mut self, protocol: Protocol) -> Self {
        self.protocol = Some(protocol);
        self
    }

    pub(crate) fn unchecked(
        kind: Kind,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            status: Status::Unchecked {
                pointer: pointer.into(),
                message: message.into(),
            },
            kind,
            report: Vec::new(),
            from: None,
            protocol: None,
            note: None,
        }
    }

    pub(crate) fn over_limit(kind: Kind, message: impl Into<String>) -> Self {
        Self {
            status: Status::OverLimit {
                message: message.into(),
            },
            ..Self::ok(kind)
        }
    }

    pub(crate) fn invalid(
        kind: Kind,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            status: Status::Invalid {
                pointer: pointer.into(),
                message: message.into(),
            },
            kind,
            report: Vec::new(),
            from: None,
            protocol: None,
            note: None,
        }
    }
}

impl Serialize for Verdict {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (pointer, message) = match &self.status {
            Status::Invalid { pointer, message } | Status::Unchecked { pointer, message } => {
                (Some(pointer.as_str()), Some(message))
            }
            Status::OverLimit { message } => (None, Some(message)),
            Status::Ok | Status::Lenient => (None, None),
        };
        let mut state =
            serializer.serialize_struct("Verdict", 8 + usize::from(self.note.is_some()))?;
        state.serialize_field("verdict", self.status.name())?;
        state.serialize_field("kind", &self.kind.to_string())?;
        state.serialize_field("protocol", &self.protocol.map(|p| p.name()))?;
        state.serialize_field("version", &self.protocol.and_then(|p| p.version()))?;
        state.serialize_field("from", &self.from)?;
        state.serialize_field("pointer", &pointer)?;
        state.serialize_field("message", &message)?;
        state.serialize_field("report", &self.report)?;
        if let Some(note) = &self.note {
            state.serialize_field("note", note)?;
        }
        state.end()
    }
}

/// The tally of a run. Displays as `N messages: A ok, B lenient, C unchecked, D invalid`, then
/// `, E over a limit` when E is not 0; serializes as `{"messages": N, "ok": A, "lenient": B,
/// "unchecked": C, "invalid": D, "over_limit": E}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Messages checked.
    pub messages: usize,
    /// Messages found ok.
    pub ok: usize,
    /// Messages found lenient.
    pub lenient: usize,
    /// Messages that could not be checked.
    pub unchecked: usize,
    /// Messages found invalid.
    pub invalid: usize,
    /// Messages over a limit of the checker's, not checked ([`Status::OverLimit`]).
    pub over_limit: usize,
}

impl Summary {
    /// Counts `verdict`.
    pub fn add(&mut self, verdict: &Verdict) {
        self.messages += 1;
        match verdict.status {
            Status::Ok => self.ok += 1,
            Status::Lenient => self.lenient += 1,
            Status::Unchecked { .. } => self.unchecked += 1,
            Status::Invalid { .. } => self.invalid += 1,
            Status::OverLimit { .. } => self.over_limit += 1,
        }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} messages: {} ok, {} lenient, {} unchecked, {} invalid",
            self.messages, self.ok, self.lenient, self.unchecked, self.invalid
        )?;
        if self.over_limit > 0 {
            write!(f, ", {} over a limit", self.over_limit)?;
        }
        Ok(())
    }
}

impl Verdict {
    /// This verdict made `invalid` for a member given twice (`message` says which, at
    /// `pointer`): what the message is, its sender, protocol and note are kept.
    pub(crate) fn repeated(self, pointer: &str, message: String) -> Self {
        Self {
            protocol: self.protocol,
            note: self.note,
            ..Self::invalid(self.kind, pointer, message).sent_by(self.from)
        }
    }
}

/// Writes `args` as one line of a text report, then a newline. A control character in it (only
/// text taken from the input carries one: a member name, a method, a pointer) is written
/// escaped (`\n`, `\u{0}`), so that input can neither end a report line nor start a false one.
///
/// # Errors
/// `out`'s.
pub fn write_report_line(
    out: &mut dyn std::io::Write,
    args: std::fmt::Arguments<'_>,
) -> std::io::Result<()> {
    struct Escaped(String);
    impl std::fmt::Write for Escaped {
        fn write_str(&mut self, text: &str) -> std::fmt::Result {
            for c in text.chars() {
                if c.is_control() {
                    self.0.extend(c.escape_default());
                } else {
                    self.0.push(c);
                }
            }
            Ok(())
        }
    }
    let mut line = Escaped(String::new());
    std::fmt::write(&mut line, args).map_err(|_| std::io::Error::other("a report line"))?;
    line.0.push('\n');
    out.write_all(line.0.as_bytes())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn kinds_display_as_the_output_names_them() {
        let shown = [
            Kind::Notification {
                method: "session/update".into(),
            },
            Kind::Response {
                method: Some("session/request_permission".into()),
            },
            Kind::Response { method: None },
            Kind::ErrorResponse {
                method: Some("session/prompt".into()),
            },
            Kind::ResponseToUnknownMethod {
                method: "session/fork".into(),
            },
            Kind::AmbiguousResponse {
                methods: vec!["session/prompt".into(), "fs/read_text_file".into()],
                error: false,
            },
            Kind::AmbiguousResponse {
                methods: vec!["a".into(), "b".into()],
                error: true,
            },
            Kind::RouteBody,
            Kind::Fragment {
                definition: "ContentBlock".into(),
            },
            Kind::NotJson,
            Kind::OverLimit,
            Kind::NotChecked,
        ]
        .map(|kind| kind.to_string());
        assert_eq!(
            shown,
            [
                "session/update",
                "response to session/request_permission",
                "response (request not seen)",
                "error response to session/prompt",
                "response to session/fork (unknown method: no result definition)",
                "response to session/prompt or fs/read_text_file (direction unknown)",
                "error response to a or b (direction unknown)",
                "route body",
                "fragment ContentBlock",
                "not JSON",
                "over a decode limit",
                "not checked by the tap",
            ]
        );
    }

    #[test]
    fn verdicts_serialize_with_every_field() {
        let ok = Verdict::ok(Kind::RouteBody);
        assert_eq!(
            serde_json::to_value(&ok).unwrap(),
            json!({"verdict": "ok", "kind": "route body", "protocol": null, "version": null,
                   "from": null, "pointer": null, "message": null, "report": []})
        );
        let invalid = Verdict::invalid(Kind::NotJson, "", "expected value at line 1 column 1");
        assert_eq!(
            serde_json::to_value(&invalid).unwrap(),
            json!({"verdict": "invalid", "kind": "not JSON", "protocol": null, "version": null,
                   "from": null, "pointer": "",
                   "message": "expected value at line 1 column 1", "report": []})
        );
        let unchecked = Verdict {
            from: Some(Side::Agent),
            protocol: Some(Protocol::Mcp {
                version: "2025-11-25",
            }),
            ..Verdict::unchecked(
                Kind::ResponseToUnknownMethod {
                    method: "session/fork".into(),
                },
                "/result",
                "not checked",
            )
        };
        assert_eq!(
            serde_json::to_value(&unchecked).unwrap(),
            json!({"verdict": "unchecked",
                   "kind": "response to session/fork (unknown method: no result definition)",
                   "protocol": "mcp", "version": "2025-11-25", "from": "agent", "pointer": "/result", "message": "not checked", "report": []})
        );
    }

    #[test]
    fn summary_counts_and_displays() {
        let mut summary = Summary::default();
        summary.add(&Verdict::ok(Kind::RouteBody));
        summary.add(&Verdict::invalid(Kind::NotJson, "", "x"));
        summary.add(&Verdict::unchecked(Kind::JsonRpc, "", "x"));
        assert_eq!(
            summary.to_string(),
            "3 messages: 1 ok, 0 lenient, 1 unchecked, 1 invalid"
        );
        assert_eq!(
            serde_json::to_value(summary).unwrap(),
            json!({"messages": 3, "ok": 1, "lenient": 0, "unchecked": 1, "invalid": 1,
                   "over_limit": 0})
        );
        // A limit of the checker's is counted apart, named only when it was hit.
        let over = Verdict::over_limit(
            Kind::Request {
                method: "tools/call".into(),
            },
            "input is `9` bytes, over `max_bytes` of `8` bytes",
        );
        assert_eq!(
            serde_json::to_value(&over).unwrap(),
            json!({"verdict": "over-limit", "kind": "tools/call", "protocol": null, "version": null,
                   "from": null, "pointer": null,
                   "message": "input is `9` bytes, over `max_bytes` of `8` bytes", "report": []})
        );
        summary.add(&over);
        assert_eq!(
            summary.to_string(),
            "4 messages: 1 ok, 0 lenient, 1 unchecked, 1 invalid, 1 over a limit"
        );
        assert_eq!(summary.over_limit, 1);
    }

    #[test]
    fn a_report_line_escapes_what_the_input_put_in_it() {
        let mut out = Vec::new();
        let name = "a\nb\r\u{0}\u{7f}\tc é";
        write_report_line(&mut out, format_args!("x `{name}` y")).expect("written");
        assert_eq!(
            String::from_utf8(out).expect("UTF-8"),
            "x `a\\nb\\r\\u{0}\\u{7f}\\tc é` y\n"
        );
    }
}
