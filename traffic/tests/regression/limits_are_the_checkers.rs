//! Issue 22, items 2 to 4: the checker's own limits are not protocol violations, fit real
//! traffic, apply to the message rather than its transcript wrapper, and a request over one is
//! still recorded, so that its response is checked against its result.

use toolcall_contracts::policy::DecodeLimits;
use toolcall_traffic::{Checked, Checker, Side, Status, Transcript};

fn fixture(relative: &str) -> std::io::Result<String> {
    std::fs::read_to_string(toolcall_test_support::fixture("tests/fixtures").join(relative))
}

fn shown(checked: &[Checked]) -> Vec<String> {
    checked
        .iter()
        .map(|c| format!("{} {} {}", c.line, c.verdict.status.name(), c.verdict.kind))
        .collect()
}

#[test]
fn a_deep_tree_argument_of_a_real_server_is_checked_under_the_defaults() {
    // fastmcp 4.1.6 (tests/fixtures/mcp/fastmcp/PROVENANCE.md): line 6 nests 75 levels.
    let recorded = fixture("mcp/fastmcp/tree.ndjson").expect("fixture");
    let checked = Checker::new()
        .expect("schema")
        .check_input(recorded.as_bytes());
    assert!(
        checked.iter().all(|c| c.verdict.status == Status::Ok),
        "{:?}",
        shown(&checked)
    );
    assert_eq!(checked.len(), 11);
}

#[test]
fn a_request_over_a_limit_is_over_the_limit_and_its_response_still_checked() {
    let recorded = fixture("mcp/fastmcp/tree.ndjson").expect("fixture");
    let checker = Checker::new()
        .expect("schema")
        .with_limits(DecodeLimits::new(1 << 20, 64));
    let checked = checker.check_input(recorded.as_bytes());
    let at = |line: usize| &checked[line - 1].verdict;
    assert_eq!(
        at(6).status,
        Status::OverLimit {
            message: "input nesting depth reaches `65` at byte `889`, over `max_depth` of `64`"
                .into()
        }
    );
    assert_eq!(at(6).kind.to_string(), "tools/call");
    assert_eq!(at(6).from, Some(Side::Client));
    // Its response answers it (it was `response (request not seen)`).
    assert_eq!(at(7).kind.to_string(), "response to tools/call");
    assert_eq!(at(7).status, Status::Ok);
}

#[test]
fn a_wrong_result_to_a_request_over_a_limit_is_invalid() {
    let checker = Checker::new()
        .expect("schema")
        .with_limits(DecodeLimits::new(400, 64));
    let big = "x".repeat(500);
    let lines = [
        r#"{"from":"client","message":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}"#.to_owned(),
        r#"{"from":"server","message":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}}"#.to_owned(),
        format!(r#"{{"from":"client","message":{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"write","arguments":{{"text":"{big}"}}}}}}}}"#),
        // `content` is required in a `CallToolResult`.
        r#"{"from":"server","message":{"jsonrpc":"2.0","id":1,"result":{}}}"#.to_owned(),
    ];
    let checked = checker.check_input(lines.join("\n").as_bytes());
    assert_eq!(
        shown(&checked),
        [
            "1 ok initialize",
            "2 ok response to initialize",
            "3 over-limit tools/call",
            "4 invalid response to tools/call"
        ]
    );
    assert!(matches!(&checked[3].verdict.status,
        Status::Invalid { pointer, message } if pointer == "/result" && message.contains("content")));
}

#[test]
fn the_limits_apply_to_the_message_not_to_its_transcript_wrapper() {
    let message = r#"{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}"#;
    let line = format!(r#"{{"from":"client","message":{message}}}"#);
    let check = |limits: DecodeLimits| {
        let checker = Checker::new().expect("schema").with_limits(limits);
        let verdict = checker.check(&mut Transcript::default(), line.as_bytes());
        (
            verdict.status.name(),
            verdict.from,
            verdict.kind.to_string(),
        )
    };
    // Exactly the message's size and depth: checked, though the line is longer and deeper.
    let exact = DecodeLimits::new(message.len(), 2);
    assert_eq!(
        check(exact),
        ("ok", Some(Side::Client), "session/cancel".into())
    );
    // One byte less: over the limit, still saying who sent it and what it is.
    assert_eq!(
        check(DecodeLimits::new(message.len() - 1, 2)),
        ("over-limit", Some(Side::Client), "session/cancel".into())
    );
    assert_eq!(check(DecodeLimits::new(message.len(), 1)).0, "over-limit");
}

#[test]
fn the_deepest_message_the_defaults_take_is_checked_on_a_two_mib_stack() {
    // 127 levels (the default): a tool call's `rawInput` in an ACP `session/update`, decoded
    // into the generated types too, and an MCP `tools/call`'s arguments, on a thread with the
    // default 2 MiB stack (the tap's checking thread).
    let deep = |levels: usize| "[".repeat(levels) + &"]".repeat(levels);
    let acp = format!(
        r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{{"sessionUpdate":"tool_call","toolCallId":"c","title":"t","rawInput":{}}}}}}}"#,
        deep(127 - 4)
    );
    let mcp = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{"a":{}}}}}}}"#,
        deep(127 - 3)
    );
    let verdicts = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let checker = Checker::new().expect("schema");
            let mut transcript = Transcript::default();
            let acp = checker.check_from(&mut transcript, Side::Agent, acp.as_bytes());
            let checker = checker.with_mcp_version("2025-11-25").expect("held");
            let mut transcript = Transcript::default();
            let mcp = checker.check_from(&mut transcript, Side::Client, mcp.as_bytes());
            [acp.status.name(), mcp.status.name()]
        })
        .expect("thread")
        .join()
        .expect("no stack overflow");
    assert_eq!(verdicts, ["ok", "ok"]);
}
