//! The tap's side copy without a process: recorded real traffic replayed through
//! [`Monitor`], direction by direction, and small exchanges whose every event and transcript
//! record is asserted.

use std::io::Write;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use toolcall_contracts::policy::DecodeLimits;
use toolcall_traffic::tap::{
    Event, Gap, HiddenByGap, Lifecycle, LifecycleFinding, LifecycleProblem, Monitor, Peer,
    Protocol, Side,
};
use toolcall_traffic::{Checker, Status};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// A `Write` whose bytes the test reads afterwards.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("lock").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn lines(&self) -> Vec<String> {
        String::from_utf8(self.0.lock().expect("lock").clone())
            .expect("utf-8")
            .lines()
            .map(str::to_owned)
            .collect()
    }
}

fn monitor() -> Result<(Monitor, Shared), Box<dyn std::error::Error>> {
    let transcript = Shared::default();
    let monitor = Monitor::new(Checker::new()?, DecodeLimits::default())
        .with_transcript(Box::new(transcript.clone()));
    Ok((monitor, transcript))
}

/// Replays a transcript recorded by peers/lib/tee.mjs (`{"from":...,"message":<raw>}` lines):
/// each message is fed as its sender wrote it, in a few pieces, with its newline.
fn replay(monitor: &mut Monitor, recorded: &str) -> Vec<Event> {
    let mut events = Vec::new();
    for line in recorded.lines() {
        let (side, raw) = if let Some(raw) = line.strip_prefix(r#"{"from":"client","message":"#) {
            (Side::Client, raw)
        } else if let Some(raw) = line
            .strip_prefix(r#"{"from":"server","message":"#)
            .or_else(|| line.strip_prefix(r#"{"from":"agent","message":"#))
        {
            (Side::Child, raw)
        } else {
            panic!("not a tee record: {line}");
        };
        let raw = raw
            .strip_suffix('}')
            .expect("record ends with }")
            .as_bytes();
        let (head, tail) = raw.split_at(raw.len() / 2);
        events.extend(monitor.feed(side, head));
        events.extend(monitor.feed(side, tail));
        events.extend(monitor.feed(side, b"\n"));
    }
    events
}

fn fixture(relative: &str) -> std::io::Result<String> {
    std::fs::read_to_string(
        toolcall_test_support::root()
            .join("tests/fixtures")
            .join(relative),
    )
}

fn problems(events: &[Event]) -> Vec<(usize, Peer, LifecycleProblem)> {
    events
        .iter()
        .filter_map(|event| match event {
            Event::Lifecycle {
                line,
                from,
                problem,
            } => Some((*line, *from, problem.clone())),
            _ => None,
        })
        .collect()
}

fn kind_at(events: &[Event], at: usize) -> String {
    events
        .iter()
        .find_map(|event| match event {
            Event::Message { line, verdict, .. } if *line == at => Some(verdict.kind.to_string()),
            _ => None,
        })
        .unwrap_or_default()
}

#[test]
fn server_everything_progress_after_cancellation_is_found_at_its_lines() -> TestResult {
    let recorded = fixture("mcp/server-everything/transcript.ndjson")?;
    let (mut monitor, transcript) = monitor()?;
    let events = replay(&mut monitor, &recorded);
    let summary = monitor.summary().clone();
    assert_eq!(summary.messages, recorded.lines().count());
    assert_eq!(
        summary.protocol,
        Some(Protocol::Mcp {
            version: "2025-11-25".into()
        })
    );
    assert!(matches!(
        &events[0],
        Event::Session { line: 1, from: Peer::Client, protocol } if protocol.to_string() == "MCP 2025-11-25"
    ));
    // The transcript the monitor wrote is the recorded one, record for record.
    assert_eq!(transcript.lines(), recorded.lines().collect::<Vec<_>>());

    // The cancelled call's progress: four notifications after `notifications/cancelled`.
    let records: Vec<Value> = recorded
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?;
    let cancel_line = 1 + records
        .iter()
        .position(|r| r["message"]["method"] == "notifications/cancelled")
        .ok_or("no cancellation")?;
    let token = records[cancel_line - 1]["message"]["params"]["requestId"].to_string();
    let after: Vec<usize> = records
        .iter()
        .enumerate()
        .skip(cancel_line)
        .filter(|(_, r)| r["message"]["method"] == "notifications/progress")
        .map(|(index, _)| index + 1)
        .collect();
    assert_eq!(after.len(), 4);
    let expected: Vec<_> = after
        .iter()
        .map(|&line| {
            (
                line,
                Peer::Server,
                LifecycleProblem::ProgressAfterCancel {
                    token: token.clone(),
                    cancel_line,
                },
            )
        })
        .collect();
    assert_eq!(problems(&events), expected);

    // Pairing by id and direction: the client's answer to the server's `roots/list` (id 0) is
    // not taken for the answer to its own `initialize` (id 0 too), and the other way round.
    let line_of = |from: &str, pick: &dyn Fn(&Value) -> bool| {
        1 + records
            .iter()
            .position(|r| r["from"] == from && pick(&r["message"]))
            .expect("present")
    };
    let roots_answer = line_of("client", &|m| m["id"] == 0 && m.get("result").is_some());
    let init_answer = line_of("server", &|m| m["id"] == 0 && m.get("result").is_some());
    assert_eq!(kind_at(&events, roots_answer), "response to roots/list");
    assert_eq!(kind_at(&events, init_answer), "response to initialize");
    Ok(())
}

#[test]
fn python_sdk_session_opens_with_discover() -> TestResult {
    let recorded = fixture("mcp/python-sdk/transcript.ndjson")?;
    let (mut monitor, _) = monitor()?;
    let events = replay(&mut monitor, &recorded);
    let sessions: Vec<_> = events
        .iter()
        .filter_map(|event| match event {
            Event::Session { line, protocol, .. } => Some((*line, protocol.to_string())),
            _ => None,
        })
        .collect();
    assert_eq!(sessions, [(1, "MCP 2026-07-28".to_owned())]);
    assert_eq!(problems(&events), []);
    assert_eq!(monitor.summary().messages, 15);
    assert_eq!(
        (monitor.summary().from_client, monitor.summary().from_child),
        (6, 9)
    );
    Ok(())
}

#[test]
fn acp_tool_call_lifecycle_problems_name_their_lines() -> TestResult {
    let (mut monitor, transcript) = monitor()?;
    let mut events = Vec::new();
    let mut send = |side: Side, message: Value| {
        events.extend(monitor.feed(side, format!("{message}\n").as_bytes()));
    };
    let update = |update: Value| {
        json!({"jsonrpc": "2.0", "method": "session/update",
               "params": {"sessionId": "s", "update": update}})
    };
    send(
        Side::Client,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
               "params": {"protocolVersion": 1, "clientCapabilities": {}}}),
    );
    send(
        Side::Child,
        json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": 1, "agentCapabilities": {}}}),
    );
    send(
        Side::Child,
        update(
            json!({"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "Read", "kind": "read"}),
        ),
    );
    send(
        Side::Child,
        update(
            json!({"sessionUpdate": "tool_call_update", "toolCallId": "c2", "status": "in_progress"}),
        ),
    );
    send(
        Side::Child,
        update(
            json!({"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "completed"}),
        ),
    );
    send(
        Side::Child,
        update(
            json!({"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "in_progress"}),
        ),
    );
    send(
        Side::Child,
        update(json!({"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "Again"})),
    );
    assert_eq!(
        problems(&events),
        [
            (
                4,
                Peer::Agent,
                LifecycleProblem::UnannouncedUpdate {
                    tool_call_id: "c2".into()
                }
            ),
            (
                6,
                Peer::Agent,
                LifecycleProblem::UpdateAfterEnd {
                    tool_call_id: "c1".into(),
                    status: "completed".into(),
                    ended_line: 5
                }
            ),
            (
                7,
                Peer::Agent,
                LifecycleProblem::DuplicateToolCall {
                    tool_call_id: "c1".into(),
                    first_line: 3
                }
            ),
        ]
    );
    // Every message is otherwise valid ACP.
    assert_eq!(monitor.summary().ok, 7);
    let records = transcript.lines();
    assert_eq!(records.len(), 7);
    let first: Value = serde_json::from_str(&records[0])?;
    assert_eq!(first["from"], "client");
    assert_eq!(first["message"]["method"], "initialize");
    assert!(records[0].starts_with(r#"{"from":"client","message":"#));
    assert!(records[2].starts_with(r#"{"from":"agent","message":"#));
    Ok(())
}

/// The calls a gap may have hidden: `(line, id, gap line)` of each [`Event::HiddenByGap`].
fn hidden(events: &[Event]) -> Vec<(usize, String, usize)> {
    events
        .iter()
        .filter_map(|event| match event {
            Event::HiddenByGap {
                line,
                hidden: HiddenByGap { id, gap_line, .. },
                ..
            } => Some((*line, id.clone(), *gap_line)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_tool_call_announced_in_a_gap_is_followed_not_reported() -> TestResult {
    let (mut plain, _) = monitor()?;
    let (mut monitor, transcript) = monitor()?;
    let mut events = Vec::new();
    let update = |update: Value| {
        json!({"jsonrpc": "2.0", "method": "session/update",
               "params": {"sessionId": "s", "update": update}})
    };
    let call_update = |id: &str, status: &str| {
        update(json!({"sessionUpdate": "tool_call_update", "toolCallId": id, "status": status}))
    };
    let messages = [
        update(json!({"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "Read"})),
        // Line 2: the gap (its record takes the line); c2's and c3's announcements were in it.
        call_update("c1", "in_progress"),
        call_update("c2", "in_progress"),
        call_update("c3", "in_progress"),
        call_update("c2", "completed"),
        // Followed from the first update on: an update after its end is still found.
        call_update("c2", "in_progress"),
        // Line 8: another gap, told again.
        call_update("c4", "completed"),
    ];
    for (index, message) in messages.iter().enumerate() {
        if index == 1 || index == 6 {
            // The gap ends inside a message; the rest of it, up to its newline, is dropped.
            events.extend(monitor.not_checked(Side::Child, 4096));
            events.extend(monitor.feed(Side::Child, b"}}\n"));
        }
        events.extend(monitor.feed(Side::Child, format!("{message}\n").as_bytes()));
    }
    assert_eq!(
        problems(&events),
        [(
            7,
            Peer::Agent,
            LifecycleProblem::UpdateAfterEnd {
                tool_call_id: "c2".into(),
                status: "completed".into(),
                ended_line: 6
            }
        )]
    );
    assert_eq!(
        hidden(&events),
        [(4, "c2".to_owned(), 2), (9, "c4".to_owned(), 8)]
    );
    let told = events
        .iter()
        .find_map(|event| match event {
            Event::HiddenByGap { hidden, .. } => Some(hidden.to_string()),
            _ => None,
        })
        .unwrap_or_default();
    assert_eq!(
        told,
        "tool call `c2` first seen in an update after the bytes not checked at line 2 (its \
         announcement may have been there): followed from here; other tool calls that gap hid \
         are not named"
    );
    // Without the gap, the same updates are unannounced.
    let mut plain_events = Vec::new();
    for message in &messages {
        plain_events.extend(plain.feed(Side::Child, format!("{message}\n").as_bytes()));
    }
    let unannounced = problems(&plain_events)
        .into_iter()
        .filter(|(_, _, problem)| matches!(problem, LifecycleProblem::UnannouncedUpdate { .. }))
        .count();
    assert_eq!(unannounced, 5, "c2 three times, c3, c4");
    // `toolcall validate --lifecycle` reads the gap from the transcript and agrees.
    let mut lifecycle = Lifecycle::default();
    let mut found = Vec::new();
    for (index, line) in transcript.lines().iter().enumerate() {
        let record: Value = serde_json::from_str(line)?;
        let (from, message) = match record.get("message") {
            Some(message) => (Some(Peer::Agent), message.clone()),
            None => (None, record.clone()),
        };
        found.extend(lifecycle.observe(from, index + 1, &message));
    }
    assert_eq!(
        found,
        [LifecycleProblem::UpdateAfterEnd {
            tool_call_id: "c2".into(),
            status: "completed".into(),
            ended_line: 6
        }]
    );
    // Line by line, with the notes: each of the tap's findings, at its line.
    let live: Vec<(usize, LifecycleFinding)> = events
        .iter()
        .filter_map(|event| match event {
            Event::Lifecycle { line, problem, .. } => {
                Some((*line, LifecycleFinding::Problem(problem.clone())))
            }
            Event::HiddenByGap { line, hidden, .. } => {
                Some((*line, LifecycleFinding::Hidden(hidden.clone())))
            }
            _ => None,
        })
        .collect();
    let mut lifecycle = Lifecycle::default();
    let mut followed = Vec::new();
    for (index, line) in transcript.lines().iter().enumerate() {
        let (_, found) = lifecycle.follow_line(index + 1, line.as_bytes());
        followed.extend(found.into_iter().map(|found| (index + 1, found)));
    }
    assert_eq!(followed, live);
    assert_eq!(live.len(), 3);
    Ok(())
}

#[test]
fn oversize_and_broken_lines_are_recorded_and_judged_as_validate_judges_them() -> TestResult {
    let limits = DecodeLimits::default().with_max_bytes(64);
    let transcript = Shared::default();
    let mut monitor =
        Monitor::new(Checker::new()?, limits).with_transcript(Box::new(transcript.clone()));
    let long = format!("{{\"text\":\"{}\"}}", "x".repeat(100));
    let mut events = monitor.feed(Side::Client, long.as_bytes());
    events.extend(monitor.feed(Side::Client, b"\r\nnot json \xff\n"));
    events.extend(monitor.feed(Side::Child, br#"{"type":"text","text":"hi"}"#));
    events.extend(monitor.end(Side::Child));
    let verdicts: Vec<_> = events
        .iter()
        .filter_map(|event| match event {
            Event::Message {
                line,
                from,
                verdict,
            } => Some((*line, *from, verdict.status.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            (
                1,
                Peer::Client,
                Status::OverLimit {
                    message: "input is `111` bytes, over `max_bytes` of `64` bytes".into()
                }
            ),
            (
                2,
                Peer::Client,
                Status::Invalid {
                    pointer: String::new(),
                    message: "expected ident at line 1 column 2".into()
                }
            ),
            (3, Peer::Agent, Status::Ok),
        ]
    );
    let records: Vec<Value> = transcript
        .lines()
        .iter()
        .map(|line| serde_json::from_str(line))
        .collect::<Result<_, _>>()?;
    assert_eq!(
        records,
        [
            json!({"from": "client", "text": long, "truncated": true, "bytes": 111}),
            json!({"from": "client", "text": "not json \u{fffd}"}),
            json!({"from": "agent", "message": {"type": "text", "text": "hi"}}),
        ]
    );
    Ok(())
}

#[test]
fn an_oversized_message_is_over_the_limit_and_a_gap_keeps_transcript_lines() -> TestResult {
    let limits = DecodeLimits::default().with_max_bytes(64);
    let transcript = Shared::default();
    let mut monitor =
        Monitor::new(Checker::new()?, limits).with_transcript(Box::new(transcript.clone()));
    let long = format!("{{\"text\":\"{}\"}}\n", "x".repeat(100));
    let mut events = monitor.feed(Side::Client, long.as_bytes());
    // Checking fell behind: 10 bytes relayed but not seen, then a message.
    events.extend(monitor.not_checked(Side::Client, 10));
    events.extend(monitor.feed(Side::Client, b"\n{\"type\":\"text\",\"text\":\"hi\"}\n"));
    let shown: Vec<String> = events
        .iter()
        .filter_map(|event| match event {
            Event::Message { line, verdict, .. } => Some(format!("{line}: {}", verdict.kind)),
            Event::NotChecked { bytes, .. } => Some(format!("gap of {bytes}")),
            _ => None,
        })
        .collect();
    assert_eq!(
        shown,
        [
            "1: over a decode limit",
            "gap of 10",
            "3: fragment ContentBlock"
        ]
    );
    // The transcript's line 3 is that message; `toolcall validate` reads the records back.
    let lines = transcript.lines();
    assert_eq!(lines[1], r#"{"from":"client","not_checked_bytes":10}"#);
    assert_eq!(
        lines[2],
        r#"{"from":"client","message":{"type":"text","text":"hi"}}"#
    );
    let checked = Checker::new()?.check_input(lines.join("\n").as_bytes());
    let kinds: Vec<String> = checked
        .iter()
        .map(|c| format!("{} {} {}", c.line, c.verdict.status.name(), c.verdict.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            "1 over-limit over a decode limit",
            "2 unchecked not checked by the tap",
            "3 ok fragment ContentBlock"
        ]
    );
    Ok(())
}

#[test]
fn an_oversized_message_partly_skipped_is_still_over_the_limit() -> TestResult {
    let limits = DecodeLimits::default().with_max_bytes(64);
    let mut monitor = Monitor::new(Checker::new()?, limits);
    let middle = vec![b'x'; 100];
    // Its middle skipped (checking fell behind), then its end: no message lost, no gap.
    let mut events = monitor.feed(Side::Client, b"{\"text\":\"");
    events.extend(monitor.skipped(Side::Client, Gap::default().then(&middle)));
    events.extend(monitor.feed(Side::Client, b"\"}\n"));
    // Its end skipped with the next (short) message: reported at the gap.
    events.extend(monitor.feed(Side::Client, b"{\"text\":\""));
    let tail = [&middle[..], b"\"}\n{}\n"].concat();
    events.extend(monitor.skipped(Side::Client, Gap::default().then(&tail)));
    events.extend(monitor.feed(Side::Client, b"{\"type\":\"text\",\"text\":\"hi\"}\n"));
    let shown: Vec<String> = events
        .iter()
        .filter_map(|event| match event {
            Event::Message { line, verdict, .. } => Some(match &verdict.status {
                Status::OverLimit { message } => format!("{line}: {}: {message}", verdict.kind),
                other => format!("{line}: {} {}", other.name(), verdict.kind),
            }),
            Event::NotChecked { bytes, .. } => Some(format!("gap of {bytes}")),
            _ => None,
        })
        .collect();
    assert_eq!(
        shown,
        [
            "1: over a decode limit: input is `111` bytes, over `max_bytes` of `64` bytes",
            "2: over a decode limit: input is `111` bytes, over `max_bytes` of `64` bytes",
            "gap of 106",
            "4: ok fragment ContentBlock",
        ]
    );
    assert_eq!(monitor.summary().not_checked_bytes, 106);
    Ok(())
}

#[test]
fn a_duplicate_tool_call_from_real_agent_output_is_found() -> TestResult {
    // claude-code-acp output pasted in agentclientprotocol/claude-agent-acp issue 122 (lines
    // 229 to 231 of the shared ACP traffic corpus): two `tool_call`s for one id, then an update.
    let Some(path) = toolcall_test_support::shared("acp-traffic/messages.ndjson") else {
        return Ok(());
    };
    let corpus = std::fs::read_to_string(path)?;
    let (mut monitor, _) = monitor()?;
    let mut events = Vec::new();
    for line in corpus.lines().skip(228).take(3) {
        events.extend(monitor.feed(Side::Child, format!("{line}\n").as_bytes()));
    }
    let found = problems(&events);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(matches!(
        &found[0],
        (
            2,
            Peer::Agent,
            LifecycleProblem::DuplicateToolCall { first_line: 1, .. }
        )
    ));
    Ok(())
}

#[test]
fn a_session_loaded_on_the_same_connection_replays_its_tool_calls_without_findings() -> TestResult {
    // claude-agent-acp 0.23.1 (tests/fixtures/acp/claude-agent-acp/PROVENANCE.md): three tool
    // calls live (lines 9 to 26), then `session/load` of the same session (line 31), whose
    // replay announces and completes the three again with their ids (lines 36 to 43), then a
    // new turn with a fourth call.
    let (mut monitor, _) = monitor()?;
    let events = replay(
        &mut monitor,
        &fixture("acp/claude-agent-acp/session-load.ndjson")?,
    );
    assert_eq!(problems(&events), []);
    assert_eq!(kind_at(&events, 31), "session/load");
    assert_eq!(kind_at(&events, 45), "response to session/load");
    // The agent's one real fault: `usage_update` with `"used": null` (the schema wants an
    // integer; the official TypeScript SDK client refuses these notifications too).
    let invalid: Vec<(usize, String)> = events
        .iter()
        .filter_map(|event| match event {
            Event::Message { line, verdict, .. } => match &verdict.status {
                Status::Invalid { pointer, .. } => Some((*line, pointer.clone())),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(
        invalid,
        [
            (29, "/params/update/used".to_owned()),
            (56, "/params/update/used".to_owned())
        ]
    );
    assert_eq!(monitor.summary().messages, 57);
    Ok(())
}

/// The verdicts of a monitor's events, as `(line, verdict name)`.
fn verdicts(events: &[Event]) -> Vec<(usize, String)> {
    events
        .iter()
        .filter_map(|event| match event {
            Event::Message { line, verdict, .. } => Some((*line, verdict.status.name().to_owned())),
            _ => None,
        })
        .collect()
}

#[test]
fn named_sessions_share_one_transcript_and_validate_pairs_each_apart() -> TestResult {
    let (first, transcript) = monitor()?;
    let mut second = first
        .another()
        .named(&json!(2))
        .with_transcript(Box::new(transcript.clone()));
    let mut first = first.named(&json!(1));
    let mut line = 0;
    let mut events = Vec::new();
    let mut feed = |monitor: &mut Monitor, side: Side, bytes: &[u8], events: &mut Vec<Event>| {
        monitor.at_line(line + 1);
        events.extend(monitor.feed_message(side, bytes));
        line = monitor.line();
    };
    // Both sessions number their requests from 0, interleaved; one body is pretty-printed.
    let init = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
    let result = b"{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 0,\r\n  \"result\": {\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}, \"serverInfo\": {\"name\": \"s\", \"version\": \"1\"}}\n}\n";
    feed(&mut first, Side::Client, init, &mut events);
    feed(&mut second, Side::Client, init, &mut events);
    feed(&mut second, Side::Child, result, &mut events);
    feed(&mut first, Side::Child, result, &mut events);
    // A second answer in session 2 only.
    feed(&mut second, Side::Child, result, &mut events);
    feed(&mut first, Side::Client, b"  \n ", &mut events);
    assert_eq!(
        verdicts(&events),
        [
            (1, "ok".to_owned()),
            (2, "ok".to_owned()),
            (3, "ok".to_owned()),
            (4, "ok".to_owned()),
            (5, "invalid".to_owned())
        ]
    );
    let lines = transcript.lines();
    assert_eq!(lines.len(), 5);
    assert!(lines[0].starts_with(r#"{"session":1,"from":"client","message":{"jsonrpc""#));
    assert!(lines[2].starts_with(
        r#"{"session":2,"from":"server","message":{   "jsonrpc": "2.0",   "id": 0,  "#
    ));
    // `toolcall validate` reads the sessions apart and gives the same verdicts.
    let checked = Checker::new()?.check_input(lines.join("\n").as_bytes());
    let validated: Vec<(usize, String)> = checked
        .iter()
        .map(|checked| (checked.line, checked.verdict.status.name().to_owned()))
        .collect();
    assert_eq!(validated, verdicts(&events));
    assert!(
        matches!(&checked[4].verdict.status, Status::Invalid { pointer, message }
        if pointer == "/id" && message.contains("the one of line 2 was answered already (line 3)"))
    );
    Ok(())
}

#[test]
fn a_replay_still_finds_what_goes_wrong_after_it() -> TestResult {
    let (mut monitor, _) = monitor()?;
    let update = |kind: &str, id: &str, status: &str| {
        format!(
            "{{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{{\"sessionId\":\"s\",\
             \"update\":{{\"sessionUpdate\":\"{kind}\",\"toolCallId\":\"{id}\",\"title\":\"t\",\
             \"status\":\"{status}\"}}}}}}\n"
        )
    };
    let mut events = Vec::new();
    let agent = |monitor: &mut Monitor, line: String| monitor.feed(Side::Child, line.as_bytes());
    events.extend(agent(&mut monitor, update("tool_call", "a", "in_progress")));
    events.extend(agent(&mut monitor, update("tool_call", "b", "pending")));
    events.extend(agent(
        &mut monitor,
        update("tool_call_update", "b", "completed"),
    ));
    events.extend(monitor.feed(
        Side::Client,
        b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"session/load\",\"params\":{\"sessionId\":\"s\",\"cwd\":\"/w\",\"mcpServers\":[]}}\n",
    ));
    // The replay: `b` again, twice announced within the replay itself (a real finding).
    events.extend(agent(&mut monitor, update("tool_call", "b", "pending")));
    events.extend(agent(&mut monitor, update("tool_call", "b", "pending")));
    events.extend(agent(
        &mut monitor,
        update("tool_call_update", "b", "completed"),
    ));
    events.extend(monitor.feed(
        Side::Child,
        b"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n",
    ));
    // After it: `a`, which the replay did not mention, goes on; `b` ended.
    events.extend(agent(
        &mut monitor,
        update("tool_call_update", "a", "completed"),
    ));
    events.extend(agent(
        &mut monitor,
        update("tool_call_update", "b", "failed"),
    ));
    let found: Vec<(usize, &str)> = problems(&events)
        .iter()
        .map(|(line, _, problem)| (*line, problem.name()))
        .collect();
    assert_eq!(
        found,
        [(6, "duplicate-tool-call"), (10, "update-after-end")]
    );
    Ok(())
}

#[test]
fn a_whole_message_over_the_limit_is_invalid_and_kept_short() -> TestResult {
    let transcript = Shared::default();
    let mut monitor = Monitor::new(Checker::new()?, DecodeLimits::default().with_max_bytes(16))
        .named(&json!("a"))
        .with_transcript(Box::new(transcript.clone()));
    let events = monitor.feed_message(Side::Client, &[b'x'; 40]);
    assert!(matches!(&events[0], Event::Message { line: 1, verdict, .. }
        if verdict.kind.to_string() == "over a decode limit"));
    let events = monitor.too_large(Side::Child, 5000, b"{\"jsonrpc\"");
    assert!(matches!(&events[0], Event::Message { line: 2, .. }));
    assert_eq!(
        transcript.lines(),
        [
            format!(
                r#"{{"session":"a","from":"client","text":"{}","truncated":true,"bytes":40}}"#,
                "x".repeat(40)
            ),
            r#"{"session":"a","from":"agent","text":"{\"jsonrpc\"","truncated":true,"bytes":5000}"#
                .to_owned(),
        ]
    );
    Ok(())
}
