//! End-to-end tests of `toolcall tools project` and `toolcall convert --to acp`: the built
//! binary on the recorded server-everything fixtures and on small inputs.

use serde_json::{json, Value};
use toolcall_traffic::{Checker, Status};

use crate::support::toolcall;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const TOOLS_LIST: &str = "tests/fixtures/mcp/server-everything/tools-list.json";
const TRANSCRIPT: &str = "tests/fixtures/mcp/server-everything/transcript.ndjson";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn project_prints_the_name_map_of_the_recorded_tools() -> TestResult {
    let output = toolcall(
        &["tools", "project", "--namespace", "everything", TOOLS_LIST],
        b"",
    )?;
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 20);
    assert_eq!(
        lines[0],
        "echo -> everything__echo (prefixed with namespace `everything`)"
    );
    assert_eq!(lines[19], "19 tools, 19 names changed");
    Ok(())
}

#[test]
fn project_json_is_one_array_of_from_to_changes() -> TestResult {
    let tools = json!({"tools": [
        {"name": "search.issues", "inputSchema": {"type": "object"}},
        {"name": "search_issues", "inputSchema": {"type": "object"}},
        {"name": "echo", "inputSchema": {"type": "object"}}
    ]});
    let output = toolcall(
        &["tools", "project", "--format", "json", "-"],
        tools.to_string().as_bytes(),
    )?;
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let rows: Value = serde_json::from_slice(&output.stdout)?;
    // `_` and the first 8 hex digits of SHA-256("search.issues") (sha256sum).
    assert_eq!(
        rows,
        json!([
            {"from": "search.issues", "to": "search_issues_b4d02c14", "changes": [
                "replaced `.` with `_`",
                "hash suffix `_b4d02c14`: collides with `search_issues`"
            ]},
            {"from": "search_issues", "to": "search_issues", "changes": []},
            {"from": "echo", "to": "echo", "changes": []}
        ])
    );
    // The JSON-RPC response and a bare array are read too; `--max-len` cuts and hashes.
    let response =
        json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "x".repeat(20)}]}});
    let output = toolcall(
        &[
            "tools",
            "project",
            "--format",
            "json",
            "--max-len",
            "12",
            "-",
        ],
        response.to_string().as_bytes(),
    )?;
    let rows: Value = serde_json::from_slice(&output.stdout)?;
    assert_eq!(rows[0]["to"].as_str().map(str::len), Some(12));
    assert_eq!(rows[0]["changes"][0], "truncated from 20 to 12 characters");
    let array = json!([{"name": "a.b"}]);
    let output = toolcall(
        &["tools", "project", "--alphabet", "canonical", "-"],
        array.to_string().as_bytes(),
    )?;
    assert_eq!(
        text(&output.stdout),
        "a.b -> a.b\n1 tools, 0 names changed\n"
    );
    Ok(())
}

#[test]
fn project_exits_1_on_a_collision_it_cannot_resolve_naming_both_tools() -> TestResult {
    // `a.b` gets `a_b` and its suffix (SHA-256("a.b") starts 2e7336dc), which a third tool is.
    let tools = json!([{"name": "a.b"}, {"name": "a_b"}, {"name": "a_b_2e7336dc"}]);
    let output = toolcall(&["tools", "project", "-"], tools.to_string().as_bytes())?;
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stderr),
        "toolcall: -: tools `a.b` and `a_b_2e7336dc` both project to `a_b_2e7336dc` (tools 0, 2)\n"
    );
    assert!(output.stdout.is_empty());
    let output = toolcall(&["tools", "project", "-"], b"{\"nope\": 1}")?;
    assert_eq!(output.status.code(), Some(2));
    Ok(())
}

#[test]
fn convert_writes_acp_updates_that_validate_for_the_recorded_transcript() -> TestResult {
    let output = toolcall(&["convert", "--to", "acp", TRANSCRIPT], b"")?;
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let lines: Vec<Value> = stdout
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?;
    assert_eq!(lines.len(), 69);
    assert_eq!(
        lines[0],
        json!({"jsonrpc": "2.0", "method": "session/update", "params": {
            "sessionId": "mcp-relay",
            "update": {"sessionUpdate": "tool_call", "toolCallId": "mcp-1-3", "title": "Echo Tool",
                       "name": "echo", "kind": "other", "status": "in_progress",
                       "rawInput": {"message": "hello from the peer"}}
        }})
    );
    let checked = Checker::new()?.check_input(stdout.as_bytes());
    assert_eq!(checked.len(), 69);
    assert!(checked.iter().all(|c| c.verdict.status == Status::Ok));
    let stderr = text(&output.stderr);
    let notes: Vec<&str> = stderr.lines().collect();
    assert_eq!(notes.len(), 5);
    assert_eq!(
        notes[0],
        "toolcall convert: line 115: dropped: progress for `mcp-1-32` after the call ended: not relayed (ACP updates end with `completed` or `failed`)"
    );
    assert_eq!(
        notes[4],
        "toolcall convert: 121 messages, 69 ACP updates, 4 notes"
    );
    Ok(())
}

#[test]
fn convert_takes_bare_lines_sessions_a_session_id_and_kinds() -> TestResult {
    // Two MCP sessions, bare lines; a string request id; a JSON-RPC error; a call that never ends.
    let transcript = [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": {"name": "read", "arguments": {"path": "/x"}}}),
        json!({"jsonrpc": "2.0", "id": "a", "error": {"code": -32603, "message": "boom"}}),
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": {"name": "read", "arguments": {}}}),
    ]
    .iter()
    .map(Value::to_string)
    .collect::<Vec<_>>()
    .join("\n");
    let output = toolcall(
        &[
            "convert",
            "--to",
            "acp",
            "--session-id",
            "s-9",
            "--kind",
            "read=read",
            "-",
        ],
        transcript.as_bytes(),
    )?;
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let lines: Vec<Value> = text(&output.stdout)
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?;
    let ids: Vec<&Value> = lines
        .iter()
        .map(|l| &l["params"]["update"]["toolCallId"])
        .collect();
    assert_eq!(
        ids,
        // A string id in double quotes, so that `"1"` and `1` never share a tool call id.
        [
            &json!("mcp-1-\"a\""),
            &json!("mcp-1-\"a\""),
            &json!("mcp-2-\"a\"")
        ]
    );
    assert!(lines.iter().all(|l| l["params"]["sessionId"] == "s-9"));
    assert_eq!(lines[0]["params"]["update"]["kind"], "read");
    assert_eq!(
        lines[1]["params"]["update"],
        json!({"sessionUpdate": "tool_call_update", "toolCallId": "mcp-1-\"a\"", "status": "failed",
               "content": [{"type": "content", "content": {"type": "text", "text": "boom"}}],
               "rawOutput": {"code": -32603, "message": "boom"}})
    );
    assert_eq!(
        text(&output.stderr),
        "toolcall convert: line 5: dropped: `mcp-2-\"a\"` never ended in the transcript: its ACP tool call stays in progress\n\
         toolcall convert: 5 messages, 3 ACP updates, 1 notes\n"
    );
    let output = toolcall(
        &["convert", "--to", "acp", "--kind", "read=reading", "-"],
        b"",
    )?;
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("`reading` is not an ACP tool kind"));
    Ok(())
}

#[test]
fn project_resolves_what_the_suffix_can_and_escapes_names_the_text_would_misread() -> TestResult {
    let tools = json!([{"name": "q.q"}, {"name": "q_q"}, {"name": "q.q.5eb5a66d"}]);
    let output = toolcall(&["tools", "project", "-"], tools.to_string().as_bytes())?;
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        "q.q -> q_q_5eb5a66d (replaced `.` with `_`; hash suffix `_5eb5a66d`: collides with `q_q`)\n\
         q_q -> q_q\n\
         q.q.5eb5a66d -> q_q_5eb5a66d_eed13199 (replaced `.` with `_`; hash suffix `_eed13199`: collides with `q.q`)\n\
         3 tools, 2 names changed\n"
    );
    let tools = json!([{"name": "a -> b"}, {"name": "c\nd"}, {"name": "ok"}]);
    let output = toolcall(&["tools", "project", "-"], tools.to_string().as_bytes())?;
    assert_eq!(
        text(&output.stdout),
        "\"a -> b\" -> a_-__b (replaced ` `, `>` with `_`)\n\
         \"c\\nd\" -> c_d (replaced `\\n` with `_`)\n\
         ok -> ok\n\
         3 tools, 2 names changed\n"
    );
    // A namespace holding a line break keeps each tool on its line.
    let output = toolcall(
        &["tools", "project", "--namespace", "x\ny", "-"],
        json!([{"name": "ok"}]).to_string().as_bytes(),
    )?;
    assert_eq!(
        text(&output.stdout),
        "ok -> x_y__ok (prefixed with namespace `x\\ny`; replaced `\\n` with `_`)\n\
         1 tools, 1 names changed\n"
    );
    // `--chars` without `_` is fine while nothing needs replacing.
    let tools = json!([{"name": "ab"}, {"name": "ba"}]);
    let output = toolcall(
        &["tools", "project", "--chars", "ab", "-"],
        tools.to_string().as_bytes(),
    )?;
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        "ab -> ab\nba -> ba\n2 tools, 0 names changed\n"
    );
    Ok(())
}

#[test]
fn project_errors_name_the_file_the_tools_indexes_and_the_reason() -> TestResult {
    let output = toolcall(
        &["tools", "project", "-"],
        br#"[{"name": "x"}, {"name": "y"}, {"name": "x"}]"#,
    )?;
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stderr),
        "toolcall: -: tool `x` is listed twice, at `0` and `2`\n"
    );
    let output = toolcall(
        &["tools", "project", "-"],
        br#"[{"name": "a.b"}, {"name": "a_b"}, {"name": "a_b_2e7336dc"}]"#,
    )?;
    assert_eq!(
        text(&output.stderr),
        "toolcall: -: tools `a.b` and `a_b_2e7336dc` both project to `a_b_2e7336dc` (tools 0, 2)\n"
    );
    let output = toolcall(&["tools", "project", "--namespace", "", "-"], b"[]")?;
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        "toolcall: `--namespace` must not be empty (leave it out for no namespace)\n"
    );
    let output = toolcall(&["tools", "project", "tests/no-such-file.json"], b"")?;
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        "toolcall: cannot read `tests/no-such-file.json`: No such file or directory (os error 2)\n"
    );
    Ok(())
}

#[test]
fn convert_refuses_a_kind_for_an_unknown_or_repeated_tool_and_exits_1_when_nothing_relays(
) -> TestResult {
    let transcript = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                            "params": {"name": "read", "arguments": {}}})
    .to_string();
    let output = toolcall(
        &["convert", "--to", "acp", "--kind", "write=edit", "-"],
        transcript.as_bytes(),
    )?;
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        "toolcall: `--kind` names tool `write`, which - never calls or lists\n"
    );
    assert!(output.stdout.is_empty());
    let output = toolcall(
        &[
            "convert",
            "--to",
            "acp",
            "--kind",
            "read=read",
            "--kind",
            "read=edit",
            "-",
        ],
        transcript.as_bytes(),
    )?;
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        "toolcall: `--kind` names tool `read` twice\n"
    );
    // Messages, and not one update: exit 1 (no message at all too, as `toolcall validate`).
    let orphan = json!({"jsonrpc": "2.0", "id": 9, "result": {"content": []}}).to_string();
    let output = toolcall(&["convert", "--to", "acp", "-"], orphan.as_bytes())?;
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stderr),
        "toolcall convert: line 1: dropped: a response with id `9` answers no pending request of the other side in this MCP session: not relayed\n\
         toolcall convert: 1 messages, 0 ACP updates, 1 notes\n"
    );
    let output = toolcall(&["convert", "--to", "acp", "-"], b"")?;
    assert_eq!(output.status.code(), Some(1));
    let output = toolcall(
        &["convert", "--to", "acp", "tests/no-such-file.ndjson"],
        b"",
    )?;
    assert_eq!(
        text(&output.stderr),
        "toolcall: cannot read `tests/no-such-file.ndjson`: No such file or directory (os error 2)\n"
    );
    Ok(())
}

#[test]
fn convert_notes_notifications_over_the_validate_limits_and_keeps_notes_on_one_line() -> TestResult
{
    // 124 levels of arguments: the notification nests them 3 levels deeper (params, update,
    // rawInput), past `toolcall validate`'s default depth of 127.
    let mut arguments = json!({});
    for _ in 0..124 {
        arguments = json!({"x": arguments});
    }
    let transcript = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "x", "arguments": arguments}}),
        json!({"jsonrpc": "2.0", "id": "a\nb", "method": "tools/call",
               "params": {"name": "x", "arguments": {}}}),
    ]
    .iter()
    .map(Value::to_string)
    .collect::<Vec<_>>()
    .join("\n");
    let output = toolcall(&["convert", "--to", "acp", "-"], transcript.as_bytes())?;
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stderr = text(&output.stderr);
    let notes: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        notes,
        [
            "toolcall convert: line 1: dropped: `mcp-1-1` never ended in the transcript: its ACP tool call stays in progress",
            "toolcall convert: line 1: the ACP notification written is over `toolcall validate`'s default limits: input nesting depth reaches `128` at byte `830`, over `max_depth` of `127`",
            "toolcall convert: line 2: dropped: `mcp-1-\"a\\nb\"` never ended in the transcript: its ACP tool call stays in progress",
            "toolcall convert: 2 messages, 2 ACP updates, 3 notes",
        ]
    );
    Ok(())
}

/// The worked example of README's "Across the hops": the command's output, exactly as the
/// README shows it.
#[test]
fn the_readme_example_is_what_convert_prints() -> TestResult {
    let readme = std::fs::read_to_string(crate::support::root().join("README.md"))?;
    let command = "$ sed -n 55,61p tests/fixtures/mcp/server-everything/transcript.ndjson \\\n    | cargo run --locked -p toolcall -- convert --to acp -\n";
    let start = readme.find(command).ok_or("the README has the example")? + command.len();
    let shown = &readme[start..start + readme[start..].find("```").ok_or("a closed block")?];
    let transcript = std::fs::read_to_string(crate::support::root().join(TRANSCRIPT))?;
    let lines: Vec<&str> = transcript.lines().skip(54).take(7).collect();
    let output = toolcall(
        &["convert", "--to", "acp", "-"],
        format!("{}\n", lines.join("\n")).as_bytes(),
    )?;
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        format!("{}{}", text(&output.stdout), text(&output.stderr)),
        shown
    );
    Ok(())
}

#[test]
fn convert_exits_1_on_an_empty_input_as_validate_does() -> TestResult {
    for input in [&b""[..], b" \n\n"] {
        let output = toolcall(&["convert", "--to", "acp", "-"], input)?;
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(
            text(&output.stderr),
            "toolcall convert: 0 messages, 0 ACP updates, 0 notes\n\
             toolcall: -: no message (the file is empty or blank)\n"
        );
        let validated = toolcall(&["validate", "-"], input)?;
        assert_eq!(validated.status.code(), Some(1));
    }
    Ok(())
}

#[test]
fn convert_on_2026_07_28_traffic_does_not_report_the_request_envelope() -> TestResult {
    // The official Python SDK at 2026-07-28: every request carries the protocol version, the
    // client's capabilities and identity in `_meta` (3 notes per call before).
    let output = toolcall(
        &[
            "convert",
            "--to",
            "acp",
            "tests/fixtures/mcp/python-sdk/transcript.ndjson",
        ],
        b"",
    )?;
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        text(&output.stderr),
        "toolcall convert: 15 messages, 11 ACP updates, 0 notes\n"
    );
    Ok(())
}

#[test]
fn convert_reads_the_taps_records_as_what_they_are() -> TestResult {
    let records = b"{\"from\":\"client\",\"text\":\"{\\\"jsonrpc\\\"\",\"truncated\":true,\"bytes\":2000000}\n\
        {\"from\":\"server\",\"not_checked_bytes\":100}\n";
    let output = toolcall(&["convert", "--to", "acp", "-"], records)?;
    assert_eq!(
        text(&output.stderr),
        "toolcall convert: line 1: dropped: a message of `2000000` bytes from the client that \
         `toolcall tap` did not keep (over its `--max-bytes`): not relayed\n\
         toolcall convert: line 2: dropped: `100` bytes from the server that `toolcall tap` \
         relayed but did not record (its checking fell behind): the messages they held are \
         missing here\n\
         toolcall convert: 2 messages, 0 ACP updates, 2 notes\n"
    );
    Ok(())
}
