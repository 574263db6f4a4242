//! [`Reporter`]: the tap's findings as text lines or JSON objects, written as they happen.

use std::io::{self, Write};

use serde::Serialize;

use super::lifecycle::LifecycleFinding;
use super::monitor::{Event, Peer, TapSummary};
use super::protocol::Protocol;
use super::ChildExit;
use crate::{write_report_line, Kind, Status, Verdict};

/// `writeln!` for a text report line: [`write_report_line`] (control characters from the
/// input escaped).
macro_rules! report_line {
    ($out:expr, $($arg:tt)*) => {
        write_report_line(&mut *$out, format_args!($($arg)*))
    };
}

/// How the report is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ReportFormat {
    /// One line per finding, each starting `toolcall tap: `: sessions, messages that are not
    /// `ok` (with the leniency report), tool-call problems; then the summary and the child's
    /// exit. `ok` messages are counted, not listed.
    #[default]
    Text,
    /// One JSON object per line: every message's verdict and every other finding, each with an
    /// `"event"` member; the last object is the summary.
    Json,
}

/// Writes [`Event`]s and the closing summary in a [`ReportFormat`], flushing after each.
///
/// Text lines:
///
/// ```text
/// toolcall tap: line 1 (client): ACP protocol version 1
/// toolcall tap: line 9 (agent): invalid session/update at /params/update/status: "paused" is not one of ...
/// toolcall tap: line 12 (agent): tool call: `tool_call_update` for `c1` after it ended `completed` (line 10)
/// toolcall tap: 12 messages (5 from the client, 7 from the agent): 11 ok, 0 lenient, 0 unchecked, 1 invalid; 1 tool-call problem
/// toolcall tap: the agent exited with status 0
/// ```
///
/// JSON objects (one per line):
///
/// ```text
/// {"event":"session","line":1,"from":"client","protocol":"acp","version":1}
/// {"event":"message","line":2,"verdict":"ok","kind":"response to initialize","protocol":"acp","version":null,"from":"agent","pointer":null,"message":null,"report":[]}
/// {"event":"lifecycle","line":12,"from":"agent","problem":"update-after-end","message":"`tool_call_update` for ..."}
/// {"event":"not-checked","line":9,"from":"client","bytes":65536}
/// {"event":"hidden-by-gap","line":812,"from":"agent","what":"tool call","id":"c9","gap_line":700,"message":"tool call `c9` first seen ..."}
/// {"event":"transcript-failed","error":"..."}
/// {"event":"summary","messages":12,"from_client":5,"from_child":7,"ok":11,"lenient":0,"unchecked":0,"invalid":1,"lifecycle":1,"not_checked_bytes":0,"protocol":{"protocol":"acp","version":1},"exit":{"code":0,"signal":null}}
/// ```
pub struct Reporter {
    format: ReportFormat,
    out: Box<dyn Write + Send>,
}

impl std::fmt::Debug for Reporter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reporter")
            .field("format", &self.format)
            .finish_non_exhaustive()
    }
}

#[derive(Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
enum Record<'a> {
    Session {
        line: usize,
        from: Peer,
        #[serde(flatten)]
        protocol: &'a Protocol,
    },
    /// The verdict says who sent the message (`from`), with the protocol it was checked as.
    Message {
        line: usize,
        #[serde(flatten)]
        verdict: Verdict,
    },
    Lifecycle {
        line: usize,
        from: Peer,
        problem: &'static str,
        message: String,
    },
    NotChecked {
        line: usize,
        from: Peer,
        bytes: usize,
    },
    HiddenByGap {
        line: usize,
        from: Peer,
        what: &'static str,
        id: &'a str,
        gap_line: usize,
        message: String,
    },
    TranscriptFailed {
        error: &'a str,
    },
    Summary {
        #[serde(flatten)]
        summary: &'a TapSummary,
        exit: &'a ChildExit,
    },
}

impl Reporter {
    /// A reporter writing `format` to `out`.
    #[must_use]
    pub fn new(format: ReportFormat, out: Box<dyn Write + Send>) -> Self {
        Self { format, out }
    }

    /// Writes one event (text: nothing for an `ok` message).
    ///
    /// # Errors
    /// The error of writing to the output.
    pub fn event(&mut self, event: &Event) -> io::Result<()> {
        match self.format {
            ReportFormat::Json => {
                writeln!(self.out, "{}", serde_json::to_string(&record(event))?)?;
            }
            ReportFormat::Text => text(&mut self.out, event)?,
        }
        self.out.flush()
    }

    /// Writes one event of the session named `session` (a tap with several sessions, such as
    /// the HTTP tap): each text line reads `toolcall tap: session 2: line 5 (client): ...`,
    /// each JSON object starts with `"session": 2`.
    ///
    /// # Errors
    /// The error of writing to the output.
    pub fn session_event(&mut self, session: &serde_json::Value, event: &Event) -> io::Result<()> {
        match self.format {
            ReportFormat::Json => {
                #[derive(Serialize)]
                struct InSession<'a> {
                    session: &'a serde_json::Value,
                    #[serde(flatten)]
                    record: Record<'a>,
                }
                let record = InSession {
                    session,
                    record: record(event),
                };
                writeln!(self.out, "{}", serde_json::to_string(&record)?)?;
            }
            ReportFormat::Text => {
                let mut lines = Vec::new();
                text(&mut lines, event)?;
                let lines = String::from_utf8_lossy(&lines);
                for line in lines.lines() {
                    let rest = line.strip_prefix("toolcall tap: ").unwrap_or(line);
                    report_line!(self.out, "toolcall tap: session {session}: {rest}")?;
                }
            }
        }
        self.out.flush()
    }

    /// Writes a finding of the tap's own, outside the messages (an HTTP tap's: an upstream that
    /// does not answer, a client that went away): `text` as one `toolcall tap: ` line, or `json`
    /// (an object with an `"event"` member) as one line.
    ///
    /// # Errors
    /// The error of writing to the output.
    pub fn finding(&mut self, text: &str, json: &serde_json::Value) -> io::Result<()> {
        match self.format {
            ReportFormat::Json => writeln!(self.out, "{json}")?,
            ReportFormat::Text => report_line!(self.out, "toolcall tap: {text}")?,
        }
        self.out.flush()
    }

    /// Writes the summary when no child ran (the HTTP tap): text `toolcall tap: <summary>`, then
    /// `toolcall tap: <ending>`; JSON the summary object with `ending`'s members after the
    /// summary's.
    ///
    /// # Errors
    /// The error of writing to the output.
    pub fn finish_with(
        &mut self,
        summary: &TapSummary,
        ending: &str,
        members: &serde_json::Map<String, serde_json::Value>,
    ) -> io::Result<()> {
        match self.format {
            ReportFormat::Json => {
                #[derive(Serialize)]
                struct Ending<'a> {
                    event: &'static str,
                    #[serde(flatten)]
                    summary: &'a TapSummary,
                    #[serde(flatten)]
                    members: &'a serde_json::Map<String, serde_json::Value>,
                }
                let record = Ending {
                    event: "summary",
                    summary,
                    members,
                };
                writeln!(self.out, "{}", serde_json::to_string(&record)?)?;
            }
            ReportFormat::Text => {
                report_line!(self.out, "toolcall tap: {summary}")?;
                report_line!(self.out, "toolcall tap: {ending}")?;
            }
        }
        self.out.flush()
    }

    /// Writes the summary and how the child ended.
    ///
    /// # Errors
    /// The error of writing to the output.
    pub fn finish(&mut self, summary: &TapSummary, exit: &ChildExit) -> io::Result<()> {
        match self.format {
            ReportFormat::Json => {
                let record = Record::Summary { summary, exit };
                writeln!(self.out, "{}", serde_json::to_string(&record)?)?;
            }
            ReportFormat::Text => {
                let child = summary
                    .protocol
                    .as_ref()
                    .map_or("child", Protocol::child_role);
                report_line!(self.out, "toolcall tap: {summary}")?;
                report_line!(self.out, "toolcall tap: the {child} {exit}")?;
            }
        }
        self.out.flush()
    }
}

/// The JSON record of one event.
fn record(event: &Event) -> Record<'_> {
    match event {
        Event::Session {
            line,
            from,
            protocol,
        } => Record::Session {
            line: *line,
            from: *from,
            protocol,
        },
        Event::Message {
            line,
            from,
            verdict,
        } => Record::Message {
            line: *line,
            verdict: verdict.clone().sent_by(Some(*from)),
        },
        Event::Lifecycle {
            line,
            from,
            problem,
        } => Record::Lifecycle {
            line: *line,
            from: *from,
            problem: problem.name(),
            message: problem.to_string(),
        },
        Event::NotChecked { line, from, bytes } => Record::NotChecked {
            line: *line,
            from: *from,
            bytes: *bytes,
        },
        Event::HiddenByGap { line, from, hidden } => Record::HiddenByGap {
            line: *line,
            from: *from,
            what: hidden.what,
            id: &hidden.id,
            gap_line: hidden.gap_line,
            message: hidden.to_string(),
        },
        Event::TranscriptFailed { error } => Record::TranscriptFailed { error },
    }
}

fn text(out: &mut dyn Write, event: &Event) -> io::Result<()> {
    verdict_text(out, event)?;
    match event {
        Event::Message {
            line,
            from,
            verdict: Verdict {
                note: Some(note), ..
            },
        } => report_line!(out, "toolcall tap: line {line} ({from}): note: {note}"),
        _ => Ok(()),
    }
}

/// The line of one event (a message's verdict: nothing when it is `ok`).
fn verdict_text(out: &mut dyn Write, event: &Event) -> io::Result<()> {
    match event {
        Event::Session {
            line,
            from,
            protocol,
        } => report_line!(out, "toolcall tap: line {line} ({from}): {protocol}"),
        Event::Message {
            line,
            from,
            verdict,
        } => match &verdict.status {
            Status::Ok => Ok(()),
            Status::Lenient => {
                report_line!(
                    out,
                    "toolcall tap: line {line} ({from}): lenient {}",
                    verdict.kind
                )?;
                for leniency in &verdict.report {
                    report_line!(
                        out,
                        "  {} {}: {}",
                        leniency.kind, leniency.pointer, leniency.raw
                    )?;
                }
                Ok(())
            }
            Status::Unchecked { pointer, message } => report_line!(
                out,
                "toolcall tap: line {line} ({from}): unchecked {} at {pointer}: {message}",
                verdict.kind
            ),
            Status::OverLimit { message } if verdict.kind == Kind::OverLimit => report_line!(
                out,
                "toolcall tap: line {line} ({from}): over-limit: {message}"
            ),
            Status::OverLimit { message } => report_line!(
                out,
                "toolcall tap: line {line} ({from}): over-limit {}: {message}",
                verdict.kind
            ),
            Status::Invalid { pointer, message } if pointer.is_empty() => report_line!(
                out,
                "toolcall tap: line {line} ({from}): invalid {}: {message}",
                verdict.kind
            ),
            Status::Invalid { pointer, message } => report_line!(
                out,
                "toolcall tap: line {line} ({from}): invalid {} at {pointer}: {message}",
                verdict.kind
            ),
        },
        Event::Lifecycle {
            line,
            from,
            problem,
        } => {
            let finding = LifecycleFinding::Problem(problem.clone());
            report_line!(out, "toolcall tap: line {line} ({from}): {finding}")
        }
        Event::NotChecked { line, from, bytes } => report_line!(
            out,
            "toolcall tap: line {line}: {bytes} bytes from the {from} relayed but not checked (checking fell behind)"
        ),
        Event::HiddenByGap { line, from, hidden } => {
            let finding = LifecycleFinding::Hidden(hidden.clone());
            report_line!(out, "toolcall tap: line {line} ({from}): {finding}")
        }
        Event::TranscriptFailed { error } => report_line!(
            out,
            "toolcall tap: cannot write the transcript ({error}); it stops here"
        ),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::tap::LifecycleProblem;
    use toolcall_test_support::SharedBuffer;

    fn events() -> Vec<Event> {
        vec![
            Event::Session {
                line: 1,
                from: Peer::Client,
                protocol: Protocol::Acp { version: 1 },
            },
            Event::Message {
                line: 2,
                from: Peer::Agent,
                verdict: Verdict::ok(Kind::Response {
                    method: Some("initialize".into()),
                }),
            },
            Event::Message {
                line: 3,
                from: Peer::Agent,
                verdict: Verdict::invalid(
                    Kind::Notification {
                        method: "session/update".into(),
                    },
                    "/params/update",
                    "bad",
                ),
            },
            Event::Lifecycle {
                line: 3,
                from: Peer::Agent,
                problem: LifecycleProblem::UnannouncedUpdate {
                    tool_call_id: "c9".into(),
                },
            },
            Event::NotChecked {
                line: 4,
                from: Peer::Client,
                bytes: 10,
            },
        ]
    }

    fn summary() -> TapSummary {
        TapSummary {
            messages: 3,
            from_client: 1,
            from_child: 2,
            ok: 2,
            invalid: 1,
            lifecycle: 1,
            not_checked_bytes: 10,
            protocol: Some(Protocol::Acp { version: 1 }),
            ..TapSummary::default()
        }
    }

    #[test]
    fn text_lists_what_is_not_ok() {
        let out = SharedBuffer::default();
        let mut reporter = Reporter::new(ReportFormat::Text, Box::new(out.clone()));
        for event in events() {
            reporter.event(&event).unwrap();
        }
        reporter.finish(&summary(), &ChildExit::Code(3)).unwrap();
        let text = out.text();
        assert_eq!(
            text,
            "toolcall tap: line 1 (client): ACP protocol version 1\n\
             toolcall tap: line 3 (agent): invalid session/update at /params/update: bad\n\
             toolcall tap: line 3 (agent): tool call: `tool_call_update` for `c9`, which no `tool_call` announced\n\
             toolcall tap: line 4: 10 bytes from the client relayed but not checked (checking fell behind)\n\
             toolcall tap: 3 messages (1 from the client, 2 from the agent): 2 ok, 0 lenient, 0 unchecked, 1 invalid; 1 tool-call problem; 10 bytes not checked\n\
             toolcall tap: the agent exited with status 3\n"
        );
    }

    #[test]
    fn a_note_follows_its_message_even_when_it_is_ok() {
        let out = SharedBuffer::default();
        let mut reporter = Reporter::new(ReportFormat::Text, Box::new(out.clone()));
        let verdict = Verdict {
            note: Some("checked as 2026-07-28".into()),
            ..Verdict::ok(Kind::Request {
                method: "ping".into(),
            })
        };
        reporter
            .event(&Event::Message {
                line: 1,
                from: Peer::Client,
                verdict,
            })
            .unwrap();
        let text = out.text();
        assert_eq!(
            text,
            "toolcall tap: line 1 (client): note: checked as 2026-07-28\n"
        );
    }

    #[test]
    fn json_lists_every_event_then_the_summary() {
        let out = SharedBuffer::default();
        let mut reporter = Reporter::new(ReportFormat::Json, Box::new(out.clone()));
        for event in events() {
            reporter.event(&event).unwrap();
        }
        reporter.finish(&summary(), &ChildExit::Signal(15)).unwrap();
        let text = out.text();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(
            lines,
            [
                json!({"event": "session", "line": 1, "from": "client", "protocol": "acp", "version": 1}),
                json!({"event": "message", "line": 2, "from": "agent", "verdict": "ok",
                       "kind": "response to initialize", "protocol": null, "version": null,
                       "pointer": null, "message": null, "report": []}),
                json!({"event": "message", "line": 3, "from": "agent", "verdict": "invalid",
                       "kind": "session/update", "protocol": null, "version": null,
                       "pointer": "/params/update", "message": "bad", "report": []}),
                json!({"event": "lifecycle", "line": 3, "from": "agent", "problem": "unannounced-update",
                       "message": "`tool_call_update` for `c9`, which no `tool_call` announced"}),
                json!({"event": "not-checked", "line": 4, "from": "client", "bytes": 10}),
                json!({"event": "summary", "messages": 3, "from_client": 1, "from_child": 2, "ok": 2,
                       "lenient": 0, "unchecked": 0, "invalid": 1, "over_limit": 0, "lifecycle": 1, "not_checked_bytes": 10,
                       "protocol": {"protocol": "acp", "version": 1},
                       "exit": {"code": 143, "signal": 15}}),
            ]
        );
    }

    #[test]
    fn a_session_names_itself_in_each_line_and_object() {
        let text = SharedBuffer::default();
        let mut reporter = Reporter::new(ReportFormat::Text, Box::new(text.clone()));
        let json = SharedBuffer::default();
        let mut json_reporter = Reporter::new(ReportFormat::Json, Box::new(json.clone()));
        for event in events().iter().skip(2).take(2) {
            reporter.session_event(&json!(3), event).unwrap();
            json_reporter.session_event(&json!(3), event).unwrap();
        }
        reporter
            .finding("POST /mcp: refused", &json!({"event": "refused"}))
            .unwrap();
        json_reporter
            .finding("POST /mcp: refused", &json!({"event": "refused"}))
            .unwrap();
        let mut members = serde_json::Map::new();
        members.insert("http".into(), json!({"sessions": 1}));
        reporter
            .finish_with(&summary(), "1 session", &members)
            .unwrap();
        json_reporter
            .finish_with(&summary(), "1 session", &members)
            .unwrap();
        assert_eq!(
            text.text(),
            "toolcall tap: session 3: line 3 (agent): invalid session/update at /params/update: bad\n\
             toolcall tap: session 3: line 3 (agent): tool call: `tool_call_update` for `c9`, which no `tool_call` announced\n\
             toolcall tap: POST /mcp: refused\n\
             toolcall tap: 3 messages (1 from the client, 2 from the agent): 2 ok, 0 lenient, 0 unchecked, 1 invalid; 1 tool-call problem; 10 bytes not checked\n\
             toolcall tap: 1 session\n"
        );
        let lines: Vec<String> = json.text().lines().map(str::to_owned).collect();
        assert!(lines[0].starts_with(r#"{"session":3,"event":"message","line":3,"#));
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&lines[1]).unwrap(),
            json!({"session": 3, "event": "lifecycle", "line": 3, "from": "agent",
                   "problem": "unannounced-update",
                   "message": "`tool_call_update` for `c9`, which no `tool_call` announced"})
        );
        assert_eq!(lines[2], r#"{"event":"refused"}"#);
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&lines[3]).unwrap(),
            json!({"event": "summary", "messages": 3, "from_client": 1, "from_child": 2, "ok": 2,
                   "lenient": 0, "unchecked": 0, "invalid": 1, "over_limit": 0, "lifecycle": 1,
                   "not_checked_bytes": 10, "protocol": {"protocol": "acp", "version": 1},
                   "http": {"sessions": 1}})
        );
    }
}
