//! Real peers on the official SDKs, through the built `toolcall tap`: each flow runs twice,
//! once with only a byte-for-byte recorder in the pipe (peers/lib/tee.mjs) and once through the
//! tap, and the tests assert that both peers finished the same way, that the tap's transcript
//! holds every message the recorder saw, and the tap's exact verdict counts.
//!
//! The peers are installed by `bash peers/install.sh` (npm and PyPI, pinned; `.ci/run` runs
//! it). Without them these tests fail, naming that script; `TOOLCALL_PEERS=skip` skips them
//! knowingly (each prints what it skipped).
//!
//! The verdict counts are what `toolcall validate` gives the same transcript: one
//! `traffic::Checker` follows the session (the version `initialize` or `server/discover`
//! negotiated, requests paired with responses by id and direction).

#![cfg(unix)]

mod http;
#[path = "../support/http_tap.rs"]
mod http_tap;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

use serde_json::{json, Value};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The flows wait on timers of their own (progress steps, polls): one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

use toolcall_test_support::root;

/// The installed peers, or `None` (after a notice) when `TOOLCALL_PEERS=skip`.
///
/// # Panics
/// When the peers are not installed and skipping was not asked for.
fn peers(test: &str) -> Option<PathBuf> {
    let peers = root().join("peers");
    let installed = peers.join("node_modules/@agentclientprotocol/sdk").is_dir()
        && peers
            .join("node_modules/@modelcontextprotocol/server-everything")
            .is_dir()
        && peers.join(".venv/bin/python").is_file();
    if installed {
        return Some(peers);
    }
    if std::env::var("TOOLCALL_PEERS").as_deref() == Ok("skip") {
        println!("notice: {test}: skipped (TOOLCALL_PEERS=skip and the peers are not installed)");
        return None;
    }
    panic!(
        "the real protocol peers are not installed: run `bash peers/install.sh` (needs Node 20+ \
         with npm, Python 3.11+ and the npm and PyPI registries), or set TOOLCALL_PEERS=skip \
         to skip {test} knowingly"
    );
}

fn scratch(name: &str) -> std::io::Result<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("tap_peers")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// What one run of a flow left.
struct Run {
    /// The summary the client printed.
    client: Value,
    /// The transcript lines.
    transcript: Vec<String>,
    /// The tap's JSON report (empty for the recorder).
    report: Vec<Value>,
}

/// Runs `client -- [recorder or tap] -- child`, in `dir`, with `label` naming the child in the
/// recorder's transcript.
fn run(
    dir: &Path,
    client: &[&str],
    label: &str,
    child: &[&str],
    tapped: bool,
) -> Result<Run, Box<dyn std::error::Error>> {
    let transcript = dir.join(if tapped {
        "tap.ndjson"
    } else {
        "reference.ndjson"
    });
    let report = dir.join("report.ndjson");
    let transcript_arg = transcript.to_str().ok_or("path")?;
    let report_arg = report.to_str().ok_or("path")?;
    let tee = root().join("peers/lib/tee.mjs");
    let tee_arg = tee.to_str().ok_or("path")?;
    let toolcall = env!("CARGO_BIN_EXE_toolcall");
    let middle: Vec<&str> = if tapped {
        vec![
            toolcall,
            "tap",
            "--transcript",
            transcript_arg,
            "--format",
            "json",
            "--report",
            report_arg,
            "--",
        ]
    } else {
        vec!["node", tee_arg, transcript_arg, label, "--"]
    };
    let (program, client_args) = client.split_first().ok_or("no client")?;
    let output = Command::new(program)
        .args(client_args)
        .arg("--")
        .args(&middle)
        .args(child)
        .current_dir(root())
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()?;
    let stdout = String::from_utf8(output.stdout)?;
    assert!(
        output.status.success(),
        "{} ({}): {}\n{stdout}",
        client.join(" "),
        if tapped {
            "through the tap"
        } else {
            "recorded"
        },
        output.status
    );
    let client: Value = serde_json::from_str(stdout.lines().last().ok_or("no summary")?)?;
    assert_eq!(client["finished"], true, "{client}");
    let transcript_path = transcript;
    let transcript: Vec<String> = std::fs::read_to_string(&transcript_path)?
        .lines()
        .map(str::to_owned)
        .collect();
    let report = if tapped {
        std::fs::read_to_string(&report)?
            .lines()
            .map(serde_json::from_str)
            .collect::<Result<_, _>>()?
    } else {
        Vec::new()
    };
    if tapped {
        assert_eq!(
            verdicts_of(&report, "event"),
            validated(toolcall, &transcript_path)?,
            "the tap's verdicts are what `toolcall validate` gives its transcript"
        );
    }
    Ok(Run {
        client,
        transcript,
        report,
    })
}

/// The `message` records of a JSON report (the tap's, or `toolcall validate`'s), without the
/// member that differs between the two (`drop`: the tap's `event`, validate's `file`).
fn verdicts_of(records: &[Value], drop: &str) -> Vec<Value> {
    records
        .iter()
        .filter(|record| record.get("verdict").is_some())
        .map(|record| {
            let mut record = record.clone();
            record.as_object_mut().map(|r| r.remove(drop));
            record
        })
        .collect()
}

/// `toolcall validate --format json` on a transcript: one record per message.
fn validated(toolcall: &str, transcript: &Path) -> Result<Vec<Value>, Box<dyn std::error::Error>> {
    let output = Command::new(toolcall)
        .args(["validate", "--format", "json"])
        .arg(transcript)
        .output()?;
    let records: Vec<Value> = String::from_utf8(output.stdout)?
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?;
    Ok(verdicts_of(&records, "file"))
}

/// The transcript as a sorted list of (sender, what, id): what each message was, without the
/// values that change from run to run (task ids, UUIDs, timestamps, random log levels).
fn shapes(transcript: &[String]) -> Result<Vec<String>, serde_json::Error> {
    let mut shapes = transcript
        .iter()
        .map(|line| {
            let record: Value = serde_json::from_str(line)?;
            let message = &record["message"];
            let what = match (
                message.get("method"),
                message.get("result"),
                message.get("error"),
            ) {
                (Some(method), _, _) => method.to_string(),
                (None, Some(_), _) => "result".to_owned(),
                (None, None, Some(error)) => format!("error {}", error["code"]),
                _ => "other".to_owned(),
            };
            Ok(format!("{} {what} {}", record["from"], message["id"]))
        })
        .collect::<Result<Vec<_>, _>>()?;
    shapes.sort();
    Ok(shapes)
}

fn sorted(mut lines: Vec<String>) -> Vec<String> {
    lines.sort();
    lines
}

/// The report's summary object, without its `event` member.
fn summary(report: &[Value]) -> Value {
    let mut summary = report.last().cloned().unwrap_or_default();
    assert_eq!(summary["event"], "summary");
    summary.as_object_mut().map(|s| s.remove("event"));
    summary
}

/// The report's `message` events: one per message of the transcript, in order.
fn message_lines(report: &[Value]) -> Vec<u64> {
    report
        .iter()
        .filter(|event| event["event"] == "message")
        .filter_map(|event| event["line"].as_u64())
        .collect()
}

#[test]
fn acp_typescript_sdk_client_and_agent() -> TestResult {
    let Some(peers) = peers("acp_typescript_sdk_client_and_agent") else {
        return Ok(());
    };
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = scratch("acp-typescript")?;
    let client = ["node", "peers/acp/client.mjs"];
    let agent = peers.join("acp/agent.mjs");
    let agent = ["node", agent.to_str().ok_or("path")?];
    let reference = run(&dir, &client, "agent", &agent, false)?;
    let tapped = run(&dir, &client, "agent", &agent, true)?;

    // The client's flow finished as it does without the tap.
    assert_eq!(tapped.client, reference.client);
    assert_eq!(
        tapped.client["stopReasons"],
        json!(["end_turn", "cancelled"])
    );
    assert_eq!(tapped.client["toolCalls"]["call-cancelled"], "failed");
    // The tap's transcript holds every message the recorder saw, byte for byte.
    assert_eq!(tapped.transcript.len(), 73);
    assert_eq!(
        sorted(tapped.transcript.clone()),
        sorted(reference.transcript)
    );
    let lines: Vec<u64> = (1..=73).collect();
    assert_eq!(message_lines(&tapped.report), lines);
    // Every message of the official SDK is valid ACP; no tool-call problem.
    assert_eq!(
        summary(&tapped.report),
        json!({"messages": 73, "from_client": 15, "from_child": 58, "ok": 73, "lenient": 0, "unchecked": 0,
               "invalid": 0, "over_limit": 0, "lifecycle": 0, "not_checked_bytes": 0,
               "protocol": {"protocol": "acp", "version": 1},
               "exit": {"code": 0, "signal": null}})
    );
    Ok(())
}

#[test]
fn acp_typescript_sdk_client_and_python_sdk_agent() -> TestResult {
    let Some(peers) = peers("acp_typescript_sdk_client_and_python_sdk_agent") else {
        return Ok(());
    };
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = scratch("acp-python-agent")?;
    let client = ["node", "peers/acp/client.mjs"];
    let python = peers.join(".venv/bin/python");
    let agent = peers.join("acp/py_agent.py");
    let agent = [
        python.to_str().ok_or("path")?,
        agent.to_str().ok_or("path")?,
    ];
    let reference = run(&dir, &client, "agent", &agent, false)?;
    let tapped = run(&dir, &client, "agent", &agent, true)?;

    assert_eq!(tapped.client, reference.client);
    assert_eq!(tapped.client["agent"], "toolcall-contracts-peer-py-agent");
    assert_eq!(
        tapped.client["stopReasons"],
        json!(["end_turn", "cancelled"])
    );
    assert_eq!(tapped.transcript.len(), 73);
    assert_eq!(
        sorted(tapped.transcript.clone()),
        sorted(reference.transcript)
    );
    assert_eq!(
        message_lines(&tapped.report),
        (1..=73).collect::<Vec<u64>>()
    );
    // The Python SDK writes union tags (`sessionUpdate`, `type`) after the other members; the
    // checker and the generated types read them wherever they are.
    assert!(tapped
        .transcript
        .iter()
        .any(|line| line.contains(r#""sessionUpdate":"plan"}"#)));
    assert_eq!(
        summary(&tapped.report),
        json!({"messages": 73, "from_client": 15, "from_child": 58, "ok": 73, "lenient": 0, "unchecked": 0,
               "invalid": 0, "over_limit": 0, "lifecycle": 0, "not_checked_bytes": 0,
               "protocol": {"protocol": "acp", "version": 1},
               "exit": {"code": 0, "signal": null}})
    );
    Ok(())
}

#[test]
fn mcp_typescript_sdk_client_and_server_everything() -> TestResult {
    let Some(peers) = peers("mcp_typescript_sdk_client_and_server_everything") else {
        return Ok(());
    };
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = scratch("mcp-everything")?;
    let client = ["node", "peers/mcp/everything-client.mjs"];
    let server = peers.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    let server = ["node", server.to_str().ok_or("path")?, "stdio"];
    let reference = run(&dir, &client, "server", &server, false)?;
    let tapped = run(&dir, &client, "server", &server, true)?;

    // The flow finished as without the tap (leaving out how many progress notifications the
    // SDK handed to its callbacks: it loses one now and then, with or without the tap).
    let without_timing = |summary: &Value| {
        let mut summary = summary.clone();
        if let Some(object) = summary.as_object_mut() {
            object.remove("progress");
            object.remove("sdkErrors");
        }
        summary
    };
    assert_eq!(
        without_timing(&tapped.client),
        without_timing(&reference.client)
    );
    assert_eq!(
        tapped.client["toolsListed"].as_array().map(Vec::len),
        Some(19)
    );
    assert_eq!(
        tapped.client["toolsCalled"].as_array().map(Vec::len),
        Some(20)
    );
    // Every message the recorder saw, the tap saw.
    assert_eq!(tapped.transcript.len(), 121);
    assert_eq!(shapes(&tapped.transcript)?, shapes(&reference.transcript)?);
    let lines: Vec<u64> = (1..=121).collect();
    assert_eq!(message_lines(&tapped.report), lines);

    // The session, and server-everything's progress after the client cancelled the call.
    let sessions: Vec<&Value> = tapped
        .report
        .iter()
        .filter(|e| e["event"] == "session")
        .collect();
    assert_eq!(
        sessions,
        [
            &json!({"event": "session", "line": 1, "from": "client", "protocol": "mcp", "version": "2025-11-25"})
        ]
    );
    let problems: Vec<&Value> = tapped
        .report
        .iter()
        .filter(|e| e["event"] == "lifecycle")
        .collect();
    assert_eq!(problems.len(), 4);
    for problem in &problems {
        assert_eq!(problem["problem"], "progress-after-cancel");
        assert_eq!(problem["from"], "server");
    }
    // The client's SIGTERM (its SDK sends one 2 s after closing the server's stdin) went through
    // the tap to server-everything, which does not exit on end of file.
    assert_eq!(
        summary(&tapped.report),
        json!({"messages": 121, "from_client": 47, "from_child": 74, "ok": 120, "lenient": 0,
               "unchecked": 0, "invalid": 1, "over_limit": 0, "lifecycle": 4, "not_checked_bytes": 0,
               "protocol": {"protocol": "mcp", "version": "2025-11-25"},
               "exit": {"code": 143, "signal": 15}})
    );
    // The one message the official schema refuses, and whose fault it is: the TypeScript client
    // answers server-everything's form (which asks for a `"type": "number"` field) with 2.5,
    // while the 2025-11-25 schema types `ElicitResult.content` values as string, integer,
    // boolean or string array: the schema contradicts its own `NumberSchema`, the SDK follows
    // the form.
    let invalid: Vec<&Value> = tapped
        .report
        .iter()
        .filter(|e| e["event"] == "message" && e["verdict"] != "ok")
        .collect();
    assert_eq!(
        invalid,
        [
            &json!({"event": "message", "line": 66, "verdict": "invalid",
                 "kind": "response to elicitation/create", "protocol": "mcp",
                 "version": "2025-11-25", "from": "client",
                 "pointer": "/result/content/number",
                 "message": "2.5 is not one of an array, a boolean, an integer, a string",
                 "report": []})
        ]
    );
    // Every message was checked as MCP 2025-11-25, the version `initialize` negotiated.
    let versions: Vec<&Value> = tapped
        .report
        .iter()
        .filter(|e| e["event"] == "message" && e["version"] != "2025-11-25")
        .collect();
    assert_eq!(versions, Vec::<&Value>::new());
    Ok(())
}

#[test]
fn mcp_python_sdk_client_and_server_at_2026_07_28() -> TestResult {
    let Some(peers) = peers("mcp_python_sdk_client_and_server_at_2026_07_28") else {
        return Ok(());
    };
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = scratch("mcp-python")?;
    let python = peers.join(".venv/bin/python");
    let python = python.to_str().ok_or("path")?;
    let client = [python, "peers/mcp/py_client.py"];
    let server = peers.join("mcp/py_server.py");
    let server = [python, server.to_str().ok_or("path")?];
    let reference = run(&dir, &client, "server", &server, false)?;
    let tapped = run(&dir, &client, "server", &server, true)?;

    assert_eq!(tapped.client, reference.client);
    assert_eq!(tapped.client["protocolVersion"], "2026-07-28");
    assert_eq!(tapped.transcript.len(), 15);
    assert_eq!(shapes(&tapped.transcript)?, shapes(&reference.transcript)?);
    assert_eq!(
        message_lines(&tapped.report),
        (1..=15).collect::<Vec<u64>>()
    );
    assert_eq!(
        summary(&tapped.report),
        json!({"messages": 15, "from_client": 6, "from_child": 9, "ok": 15, "lenient": 0,
               "unchecked": 0, "invalid": 0, "over_limit": 0, "lifecycle": 0, "not_checked_bytes": 0,
               "protocol": {"protocol": "mcp", "version": "2026-07-28"},
               "exit": {"code": 0, "signal": null}})
    );
    Ok(())
}

/// A text file of about 0.6 MB with quotes and backslashes to escape, and 360 000 bytes the
/// server sends as an image (base64), in `dir`.
fn filesystem_files(dir: &Path) -> std::io::Result<()> {
    let mut text = String::new();
    let mut seed: u32 = 1;
    let mut next = || {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        seed >> 16
    };
    while text.len() < 600_000 {
        let line: String = (0..60)
            .map(|_| b"abcdefghij \"\\"[next() as usize % 13] as char)
            .collect();
        text.push_str(&format!("line {}: {line}\n", text.len()));
    }
    std::fs::write(dir.join("big.txt"), text)?;
    let image: Vec<u8> = (0..360_000).map(|_| next() as u8).collect();
    std::fs::write(dir.join("noise.png"), image)
}

#[test]
fn mcp_typescript_sdk_client_and_server_filesystem_large_answers() -> TestResult {
    let Some(peers) = peers("mcp_typescript_sdk_client_and_server_filesystem_large_answers") else {
        return Ok(());
    };
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = scratch("mcp-filesystem")?;
    let files = dir.join("files");
    std::fs::create_dir_all(&files)?;
    filesystem_files(&files)?;
    let files = files.canonicalize()?;
    let files_arg = files.to_str().ok_or("path")?;
    let fsroot = format!("FSROOT={files_arg}");
    let client = [
        "env",
        fsroot.as_str(),
        "node",
        "peers/mcp/filesystem-client.mjs",
    ];
    let server = peers.join("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
    let server = ["node", server.to_str().ok_or("path")?, files_arg];
    let reference = run(&dir, &client, "server", &server, false)?;
    let tapped = run(&dir, &client, "server", &server, true)?;

    assert_eq!(tapped.client, reference.client);
    assert_eq!(tapped.transcript.len(), 15);
    assert_eq!(shapes(&tapped.transcript)?, shapes(&reference.transcript)?);
    // The text read comes back at more than twice the file's size (its text twice, escaped),
    // the image at 2.7 times (base64, twice): both over the old 1 MiB default, both checked.
    let sizes: Vec<usize> = tapped
        .transcript
        .iter()
        .map(|line| line.len() - r#"{"from":"server","message":}"#.len())
        .collect();
    let largest = *sizes.iter().max().ok_or("no message")?;
    assert!(largest > 1_300_000, "{sizes:?}");
    assert_eq!(
        summary(&tapped.report),
        json!({"messages": 15, "from_client": 8, "from_child": 7, "ok": 15, "lenient": 0,
               "unchecked": 0, "invalid": 0, "over_limit": 0, "lifecycle": 0,
               "not_checked_bytes": 0,
               "protocol": {"protocol": "mcp", "version": "2025-11-25"},
               "exit": {"code": 0, "signal": null}})
    );

    // Under a lower limit the answer is over the checker's limit, not invalid; the limit is
    // the message's, not its transcript line's: a limit of exactly its size lets it through.
    let transcript = dir.join("tap.ndjson");
    let toolcall = env!("CARGO_BIN_EXE_toolcall");
    let validate = |max_bytes: usize| {
        Command::new(toolcall)
            .args(["validate", "--format", "json", "--max-bytes"])
            .arg(max_bytes.to_string())
            .arg(&transcript)
            .output()
    };
    let lower = validate(1_000_000)?;
    assert_eq!(lower.status.code(), Some(1));
    let records: Vec<Value> = String::from_utf8(lower.stdout)?
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?;
    let over: Vec<(&Value, &Value)> = records
        .iter()
        .filter(|record| record["verdict"] == "over-limit")
        .map(|record| (&record["kind"], &record["from"]))
        .collect();
    assert_eq!(over, [(&json!("response to tools/call"), &json!("server"))]);
    assert_eq!(records.last().ok_or("no summary")?["over_limit"], 1);
    let exact = validate(largest)?;
    assert_eq!(exact.status.code(), Some(0), "{exact:?}");
    Ok(())
}
