//! A message as deep as a `serde_json::Value` holds (127 levels) was written into the tap's
//! transcript as `{"from": ..., "message": <it>}`, one level deeper than serde_json reads: the
//! line no `Value` held. The tap writes it as a text record now, which `toolcall validate` and
//! `--lifecycle` read as the message it was.

use serde_json::Value;
use toolcall_test_support::SharedBuffer;
use toolcall_traffic::tap::{Event, Lifecycle, Monitor, Side};
use toolcall_traffic::{Checker, Verdict};

/// `levels` nested arrays.
fn nested(levels: usize) -> String {
    "[".repeat(levels) + &"]".repeat(levels)
}

/// An ACP tool call update of `kind` for `id`, nesting 3 levels plus those of `raw_input`.
fn update(kind: &str, id: &str, status: &str, raw_input: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{{"sessionUpdate":"{kind}","toolCallId":"{id}","title":"t","status":"{status}","rawInput":{raw_input}}}}}}}"#
    )
}

/// Whether a `Value` holds `json`.
fn held(json: &str) -> bool {
    serde_json::from_str::<Value>(json).is_ok()
}

#[test]
fn a_message_as_deep_as_a_value_holds_is_a_text_record_read_back_as_sent() {
    let deepest = |levels: usize| {
        format!(
            r#"{{"jsonrpc":"2.0","method":"_x/deep","params":{}}}"#,
            nested(levels)
        )
    };
    let messages = [
        // 127 levels: a `session/update` the checker's one pass decides, and messages it does
        // not (an extension notification; an update with a status it does not know, `lenient`).
        update("tool_call", "c1", "pending", &nested(124)),
        deepest(126),
        update("tool_call", "c2", "paused", &nested(124)),
        // 126 levels: the record holds it.
        deepest(125),
        update("tool_call_update", "c1", "completed", "null"),
        // Ended already: c1 was followed from its text record.
        update("tool_call_update", "c1", "completed", "null"),
        // Announced by the lenient message, followed all the same.
        update("tool_call_update", "c2", "completed", "null"),
    ];
    for message in &messages[..3] {
        assert!(
            held(message) && !held(&format!("[{message}]")),
            "127 levels: {message}"
        );
    }
    assert!(held(&format!("[{}]", messages[3])));

    let transcript = SharedBuffer::default();
    let mut monitor = Monitor::new(Checker::new().expect("schema"), Checker::DEFAULT_LIMITS)
        .with_transcript(Box::new(transcript.clone()));
    let mut verdicts: Vec<Verdict> = Vec::new();
    let mut problems = Vec::new();
    for message in &messages {
        for event in monitor.feed_message(Side::Child, message.as_bytes()) {
            match event {
                Event::Message { verdict, .. } => verdicts.push(verdict),
                Event::Lifecycle { line, problem, .. } => {
                    problems.push((line, problem.to_string()))
                }
                Event::HiddenByGap { line, hidden, .. } => {
                    problems.push((line, hidden.to_string()))
                }
                _ => {}
            }
        }
    }
    let shown: Vec<String> = verdicts
        .iter()
        .map(|verdict| format!("{} {}", verdict.status.name(), verdict.kind))
        .collect();
    assert_eq!(
        shown,
        [
            "ok session/update",
            "ok _x/deep",
            "lenient session/update",
            "ok _x/deep",
            "ok session/update",
            "ok session/update",
            "ok session/update"
        ]
    );
    assert_eq!(
        problems,
        [(
            6,
            "`tool_call_update` for `c1` after it ended `completed` (line 5)".to_owned()
        )]
    );

    // Every line is one a `Value` holds.
    let written = transcript.text();
    let text = |message: &str| serde_json::json!({"from": "agent", "text": message}).to_string();
    let record = |message: &str| format!(r#"{{"from":"agent","message":{message}}}"#);
    let expected: Vec<String> = messages
        .iter()
        .enumerate()
        .map(|(index, message)| {
            if index < 3 {
                text(message)
            } else {
                record(message)
            }
        })
        .collect();
    assert_eq!(written.lines().collect::<Vec<_>>(), expected);
    assert!(written.lines().all(held));

    // `toolcall validate` gives each line the tap's verdict, and `--lifecycle` its findings.
    let checked: Vec<Verdict> = Checker::new()
        .expect("schema")
        .check_input(written.as_bytes())
        .into_iter()
        .map(|checked| checked.verdict)
        .collect();
    assert_eq!(checked, verdicts);
    let mut lifecycle = Lifecycle::default();
    let mut followed = Vec::new();
    for (index, line) in written.lines().enumerate() {
        let (_, found) = lifecycle.observe_line(index + 1, line.as_bytes());
        followed.extend(
            found
                .into_iter()
                .map(|problem| (index + 1, problem.to_string())),
        );
    }
    assert_eq!(followed, problems);
}
