//! `toolcall validate` on MCP traffic (issue 13): each message checked against the official
//! schema of its session's version, sessions told apart by `initialize` and `server/discover`,
//! responses paired by `id` and direction.
//!
//! Transcripts: `tests/fixtures/transcripts/mcp_<version>.ndjson`, one session per version
//! written from the schemas' shapes (see the README beside them), and the specification's own
//! 2026-07-28 examples from `../shared/mcp-schemas/` (skipped, with a notice, when absent).

use std::path::PathBuf;

use serde_json::{json, Value};
use toolcall_traffic::{
    Checked, Checker, Kind, Protocol, Side, Status, Transcript, Verdict, MCP_VERSIONS,
};

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn fixture(version: &str) -> String {
    let path = toolcall_test_support::root()
        .join(format!("tests/fixtures/transcripts/mcp_{version}.ndjson"));
    std::fs::read_to_string(path).expect("the fixture is in the repository")
}

fn mcp(version: &'static str) -> Option<Protocol> {
    Some(Protocol::Mcp { version })
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect()
}

fn bare(text: &str) -> String {
    lines(text)
        .iter()
        .map(|line| format!("{}\n", line["message"]))
        .collect()
}

fn kinds(checked: &[Checked]) -> Vec<String> {
    checked.iter().map(|c| c.verdict.kind.to_string()).collect()
}

#[test]
fn every_version_has_a_transcript_whose_every_message_is_ok_against_it() -> TestResult {
    let checker = Checker::new()?;
    for version in MCP_VERSIONS {
        let checked = checker.check_input(fixture(version).as_bytes());
        assert!(checked.len() >= 9, "{version}");
        for (index, Checked { verdict, .. }) in checked.iter().enumerate() {
            assert_eq!(
                verdict.status,
                Status::Ok,
                "{version}:{}: {verdict:?}",
                index + 1
            );
            assert!(verdict.from.is_some());
            // The 2025-06-18 session was negotiated down from the client's offer: the offer is
            // checked against the version it names, the rest against the negotiated one.
            let expected = if *version == "2025-06-18" && index == 0 {
                "2025-11-25"
            } else {
                version
            };
            assert_eq!(verdict.protocol, mcp(expected), "{version}:{}", index + 1);
        }
    }
    Ok(())
}

#[test]
fn several_sessions_in_one_file_each_use_their_version() -> TestResult {
    // Newest first, with an ACP session (`initialize` with an integer version) among them; ids
    // restart in each session.
    let acp = concat!(
        r#"{"from":"client","message":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}}"#,
        "\n",
        r#"{"from":"agent","message":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}}"#,
        "\n"
    );
    let mut input = String::new();
    let mut expected = Vec::new();
    for (index, version) in MCP_VERSIONS.iter().rev().enumerate() {
        if index == 2 {
            input.push_str(acp);
            expected.extend([Some(Protocol::Acp); 2]);
        }
        let text = fixture(version);
        expected.extend(text.lines().enumerate().map(|(line, _)| {
            if *version == "2025-06-18" && line == 0 {
                mcp("2025-11-25")
            } else {
                mcp(version)
            }
        }));
        input.push_str(&text);
    }
    let checked = Checker::new()?.check_input(input.as_bytes());
    assert_eq!(checked.len(), expected.len());
    for (Checked { line, verdict }, protocol) in checked.iter().zip(&expected) {
        assert_eq!(verdict.status, Status::Ok, "line {line}: {verdict:?}");
        assert_eq!(&verdict.protocol, protocol, "line {line}");
    }
    Ok(())
}

#[test]
fn overlapping_ids_pair_by_direction_and_bare_lines_say_when_they_cannot() -> TestResult {
    let checker = Checker::new()?;
    for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let text = fixture(version);
        let checked = checker.check_input(text.as_bytes());
        let kinds = kinds(&checked);
        // Line 10: the server's request 2 while the client's `tools/call` 2 is pending.
        assert_eq!(kinds[9], "sampling/createMessage", "{version}");
        assert_eq!(kinds[10], "response to sampling/createMessage", "{version}");
        assert_eq!(kinds[11], "response to tools/call", "{version}");

        let checked = checker.check_input(bare(&text).as_bytes());
        let verdict = &checked[10].verdict;
        assert_eq!(
            verdict.kind,
            Kind::AmbiguousResponse {
                methods: vec!["tools/call".into(), "sampling/createMessage".into()],
                error: false
            },
            "{version}"
        );
        let Status::Unchecked { message, .. } = &verdict.status else {
            panic!("{version}: {verdict:?}");
        };
        assert!(
            message.contains("valid as the answer to `sampling/createMessage`"),
            "{message}"
        );
        assert_eq!(
            verdict.protocol,
            mcp(if version == "2025-06-18" {
                "2025-06-18"
            } else {
                version
            })
        );
    }
    Ok(())
}

fn check_lines(checker: &Checker, messages: &[Value]) -> Vec<Verdict> {
    let mut transcript = Transcript::default();
    messages
        .iter()
        .map(|message| checker.check(&mut transcript, message.to_string().as_bytes()))
        .collect()
}

#[test]
fn an_unknown_method_is_invalid_and_its_result_unchecked() -> TestResult {
    let checker = Checker::new()?;
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {},
        "clientInfo": {"name": "c", "version": "1"}}});
    let verdicts = check_lines(
        &checker,
        &[
            init,
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/frobnicate", "params": {}}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "elicitation/create",
                   "params": {"message": "m", "requestedSchema": {"type": "object", "properties": {}}}}),
            json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "Method not found"}}),
        ],
    );
    assert_eq!(
        verdicts[1].status,
        Status::Invalid {
            pointer: "/method".into(),
            message: "unknown method `tools/frobnicate` (MCP 2025-03-26 does not define it)".into()
        }
    );
    assert!(matches!(verdicts[2].status, Status::Unchecked { .. }));
    assert_eq!(
        verdicts[2].kind.to_string(),
        "response to tools/frobnicate (unknown method: no result definition)"
    );
    // `elicitation/create` came in 2025-06-18: unknown in this session's version.
    assert!(
        matches!(&verdicts[3].status, Status::Invalid { message, .. } if message.contains("2025-03-26"))
    );
    assert_eq!(verdicts[4].status, Status::Ok);
    assert_eq!(
        verdicts[4].kind.to_string(),
        "error response to elicitation/create"
    );
    for verdict in &verdicts {
        assert_eq!(verdict.protocol, mcp("2025-03-26"));
    }
    Ok(())
}

#[test]
fn the_version_is_negotiated_else_the_request_meta_else_the_option_else_the_newest() -> TestResult {
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": "echo", "arguments": {}}});
    let meta_call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "echo", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                  "io.modelcontextprotocol/clientCapabilities": {}}}});
    // No initialize: the newest, or `--mcp-version`.
    let newest = check_lines(&Checker::new()?, std::slice::from_ref(&call));
    assert_eq!(newest[0].protocol, mcp("2026-07-28"));
    // 2026-07-28 requires `_meta`: this call is invalid there...
    assert!(matches!(&newest[0].status, Status::Invalid { pointer, .. } if pointer == "/params"));
    let chosen = Checker::new()?.with_mcp_version("2025-03-26")?;
    let verdicts = check_lines(&chosen, std::slice::from_ref(&call));
    assert_eq!(verdicts[0].protocol, mcp("2025-03-26"));
    // ...and fine in 2025-03-26.
    assert_eq!(verdicts[0].status, Status::Ok);
    // The version a request carries in `_meta` wins over the option, for the session.
    let verdicts = check_lines(&chosen, &[meta_call, call.clone()]);
    assert_eq!(verdicts[0].protocol, mcp("2026-07-28"));
    assert_eq!(verdicts[0].status, Status::Ok);
    assert_eq!(verdicts[1].protocol, mcp("2026-07-28"));
    // The negotiated version wins over both.
    let verdicts = check_lines(
        &chosen,
        &[
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "c", "version": "1"}}}),
            json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2024-11-05",
                   "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}}),
            call,
        ],
    );
    let versions: Vec<_> = verdicts.iter().map(|v| v.protocol).collect();
    assert_eq!(
        versions,
        [mcp("2025-11-25"), mcp("2024-11-05"), mcp("2024-11-05")]
    );
    assert!(Checker::new()?.with_mcp_version("2025-01-01").is_err());
    Ok(())
}

#[test]
fn acp_and_mcp_are_told_apart_by_the_session_not_per_message() -> TestResult {
    let checker = Checker::new()?;
    // An ACP session: `tools/list` is not an ACP method, and is not checked as MCP.
    let verdicts = check_lines(
        &checker,
        &[
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": 1}}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        ],
    );
    assert_eq!(verdicts[1].protocol, Some(Protocol::Acp));
    assert!(matches!(&verdicts[1].status, Status::Invalid { pointer, .. } if pointer == "/method"));
    // Without `initialize`, the first method only one protocol has decides for the session:
    // `elicitation/create` (in both) is then checked as MCP.
    let verdicts = check_lines(
        &checker,
        &[
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "elicitation/create",
                   "params": {"message": "m", "requestedSchema": {"type": "object", "properties": {}}}}),
        ],
    );
    assert_eq!(verdicts[0].protocol, mcp("2026-07-28"));
    assert_eq!(verdicts[1].protocol, mcp("2026-07-28"));
    // A server sending a client's method is invalid when the line says who sent it.
    let mut transcript = Transcript::default();
    let verdict = checker.check_from(
        &mut transcript,
        Side::Server,
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
    );
    assert_eq!(
        verdict.status,
        Status::Invalid {
            pointer: "/method".into(),
            message: "`tools/list` is sent by the client, not by the server".into()
        }
    );
    Ok(())
}

/// The specification's own 2026-07-28 examples of JSON-RPC messages: each request, notification
/// and response is `ok` as MCP 2026-07-28, each response paired with its request.
#[test]
fn the_official_2026_07_28_examples_are_ok() -> TestResult {
    let Some(root) = toolcall_test_support::shared("mcp-schemas/2026-07-28/examples") else {
        return Ok(());
    };
    let read_dir = |name: &str| -> Vec<Value> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(name))
            .map(|dir| dir.filter_map(|entry| Some(entry.ok()?.path())).collect())
            .unwrap_or_default();
        files.sort();
        files
            .iter()
            .map(|file| {
                serde_json::from_str(&std::fs::read_to_string(file).expect("read")).expect("JSON")
            })
            .collect()
    };
    let checker = Checker::new()?.with_mcp_version("2026-07-28")?;
    let mut checked = 0;
    let mut names: Vec<String> = std::fs::read_dir(&root)?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    for name in &names {
        let json_rpc = |value: &Value| value.get("jsonrpc").is_some();
        if let Some(base) = name.strip_suffix("Request") {
            let results: Vec<Value> = [format!("{base}ResultResponse")]
                .iter()
                .flat_map(|dir| read_dir(dir))
                .collect();
            for request in read_dir(name).into_iter().filter(json_rpc) {
                let mut responses: Vec<Value> = results
                    .iter()
                    .map(|response| {
                        let mut response = response.clone();
                        response["id"] = request["id"].clone();
                        response
                    })
                    .collect();
                if name == "CallToolRequest" {
                    responses.extend(read_dir("InputRequiredResult").into_iter().map(
                        |result| json!({"jsonrpc": "2.0", "id": request["id"], "result": result}),
                    ));
                }
                let method = request["method"].as_str().unwrap_or_default();
                let verdicts = check_lines(&checker, std::slice::from_ref(&request));
                assert_eq!(verdicts[0].status, Status::Ok, "{name}: {request}");
                checked += 1;
                for response in responses {
                    let verdicts = check_lines(&checker, &[request.clone(), response.clone()]);
                    assert_eq!(verdicts[1].status, Status::Ok, "{name}: {response}");
                    assert_eq!(verdicts[1].protocol, mcp("2026-07-28"));
                    assert_eq!(
                        verdicts[1].kind.to_string(),
                        format!("response to {method}")
                    );
                    checked += 1;
                }
            }
        } else if name.ends_with("Notification") {
            for notification in read_dir(name).into_iter().filter(json_rpc) {
                let verdicts = check_lines(&checker, std::slice::from_ref(&notification));
                assert_eq!(verdicts[0].status, Status::Ok, "{name}: {notification}");
                assert_eq!(verdicts[0].protocol, mcp("2026-07-28"));
                checked += 1;
            }
        }
    }
    println!("{checked} official 2026-07-28 examples checked");
    assert!(checked >= 30, "{checked} official examples checked");
    Ok(())
}

/// 2025-11-25 task augmentation, as the official TypeScript SDK and server-everything use it: a
/// request whose params carry `task` is answered by a `CreateTaskResult` ("The request will
/// return a CreateTaskResult immediately"), not by the method's own result.
#[test]
fn a_task_augmented_request_is_answered_by_a_create_task_result() -> TestResult {
    let checker = Checker::new()?;
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "c", "version": "1"}}});
    let task = json!({"taskId": "t-1", "status": "working", "ttl": 60000,
                      "createdAt": "2026-12-01T16:06:55.507Z",
                      "lastUpdatedAt": "2026-12-01T16:06:55.507Z"});
    let verdicts = check_lines(
        &checker,
        &[
            init,
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                   "params": {"name": "research", "arguments": {}, "task": {"ttl": 60000}}}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {"task": task}}),
            // Without `task`, the same answer is not a `CallToolResult`.
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                   "params": {"name": "research", "arguments": {}}}),
            json!({"jsonrpc": "2.0", "id": 2, "result": {"task": task}}),
        ],
    );
    assert_eq!(verdicts[2].status, Status::Ok, "{:?}", verdicts[2]);
    assert_eq!(verdicts[2].kind.to_string(), "response to tools/call");
    assert_eq!(
        verdicts[4].status,
        Status::Invalid {
            pointer: "/result".into(),
            message: "\"content\" is a required property".into()
        }
    );
    Ok(())
}
