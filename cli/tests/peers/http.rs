//! The HTTP tap (`toolcall tap --listen --upstream`) in front of server-everything in its
//! `streamableHttp` and `sse` modes, driven by the official TypeScript SDK's
//! `StreamableHTTPClientTransport` and `SSEClientTransport` (peers/mcp/everything-client.mjs)
//! and by the Python SDK's `Client` (peers/mcp/py_http_client.py). Each flow runs twice against
//! a fresh server, directly and through the tap; each client records every message its transport
//! sent and received. The tests assert that the flow ended the same way, that the tap's
//! transcript holds every message the client saw through it, that each verdict is `toolcall
//! validate`'s on the transcript, and the exact counts.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{peers, root, scratch, shapes, TestResult, ONE_AT_A_TIME};
use crate::http_tap::{events, verdicts, HttpTap, Stopped};

/// server-everything listening on a free loopback port, killed when dropped.
struct Everything {
    child: Child,
    port: u16,
}

impl Everything {
    fn start(peers: &Path, mode: &str) -> Result<Self, Box<dyn std::error::Error>> {
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let index =
            peers.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
        let child = Command::new("node")
            .arg(index)
            .arg(mode)
            // A fixed environment: `get-env` returns it.
            .env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .env("LANG", "C.UTF-8")
            .env("PORT", port.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "server-everything did not listen"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(Self { child, port })
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for Everything {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Which client.
#[derive(Clone, Copy)]
enum Client {
    TypeScript,
    Python,
}

/// Runs `client` against `url` over `transport` (`--streamable-http` or `--sse`), recording
/// its messages in `record`; returns the summary it printed.
fn client(
    peers: &Path,
    kind: Client,
    transport: &str,
    url: &str,
    record: &Path,
) -> Result<Value, Box<dyn std::error::Error>> {
    let mut command = match kind {
        Client::TypeScript => {
            let mut command = Command::new("node");
            command.arg(peers.join("mcp/everything-client.mjs"));
            command
        }
        Client::Python => {
            let mut command = Command::new(peers.join(".venv/bin/python"));
            command.arg(peers.join("mcp/py_http_client.py"));
            command
        }
    };
    let output = command
        .arg("--record")
        .arg(record)
        .args([transport, url])
        .current_dir(root())
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()?;
    let stdout = String::from_utf8(output.stdout)?;
    assert!(
        output.status.success(),
        "{transport} {url}: {}\n{stdout}",
        output.status
    );
    let summary: Value = serde_json::from_str(stdout.lines().last().ok_or("no summary")?)?;
    assert_eq!(summary["finished"], true, "{summary}");
    Ok(summary)
}

fn lines(path: &Path) -> std::io::Result<Vec<String>> {
    Ok(std::fs::read_to_string(path)?
        .lines()
        .map(str::to_owned)
        .collect())
}

/// The shapes of a transcript or client record, with the id of an error response left out:
/// the Python SDK hands its caller a server's `"id": null` error as the answer to the request
/// it was posted with, so its record shows the request's id where the wire had `null`.
fn shapes_without_error_ids(lines: &[String]) -> Result<Vec<String>, serde_json::Error> {
    Ok(shapes(lines)?
        .into_iter()
        .map(|shape| match shape.split_once(" error ") {
            Some((from, rest)) => {
                let code = rest.split(' ').next().unwrap_or_default();
                format!("{from} error {code}")
            }
            None => shape,
        })
        .collect())
}

/// One flow run directly and through the tap.
struct Flow {
    direct: Value,
    tapped: Value,
    direct_record: Vec<String>,
    tapped_record: Vec<String>,
    stopped: Stopped,
    transcript: PathBuf,
}

fn flow(
    peers: &Path,
    name: &str,
    mode: &str,
    kind: Client,
) -> Result<Flow, Box<dyn std::error::Error>> {
    let dir = scratch(name)?;
    let (transport, path) = match mode {
        "sse" => ("--sse", "/sse"),
        _ => ("--streamable-http", "/mcp"),
    };
    let direct_record = dir.join("direct.ndjson");
    let tapped_record = dir.join("client.ndjson");
    let direct = {
        let server = Everything::start(peers, mode)?;
        client(
            peers,
            kind,
            transport,
            &format!("{}{path}", server.url()),
            &direct_record,
        )?
    };
    let server = Everything::start(peers, mode)?;
    let tap = HttpTap::start(&dir, &server.url(), &[])?;
    let transcript = tap.transcript.clone();
    let tapped = client(peers, kind, transport, &tap.url(path), &tapped_record)?;
    let stopped = tap.stop()?;
    drop(server);
    let (tap_verdicts, validated) = verdicts(&stopped.report, &transcript)?;
    assert_eq!(
        tap_verdicts, validated,
        "the tap's verdicts are what `toolcall validate` gives its transcript"
    );
    Ok(Flow {
        direct,
        tapped,
        direct_record: lines(&direct_record)?,
        tapped_record: lines(&tapped_record)?,
        stopped,
        transcript,
    })
}

/// The summary record, without `event`.
fn summary(report: &[Value]) -> Value {
    let mut summary = report.last().cloned().unwrap_or_default();
    assert_eq!(summary["event"], "summary", "{summary}");
    summary.as_object_mut().map(|s| s.remove("event"));
    summary
}

/// What the TypeScript client's summary says, without what varies from run to run (progress
/// notifications its SDK hands to callbacks, errors it reports through `onerror`).
fn without_timing(summary: &Value) -> Value {
    let mut summary = summary.clone();
    if let Some(object) = summary.as_object_mut() {
        object.remove("progress");
        object.remove("sdkErrors");
    }
    summary
}

/// The invalid verdicts, as `(line, from, pointer, message)`.
fn invalid(report: &[Value]) -> Vec<(u64, String, String, String)> {
    events(report, "message")
        .into_iter()
        .filter(|r| r["verdict"] == "invalid")
        .map(|r| {
            (
                r["line"].as_u64().unwrap_or_default(),
                r["from"].as_str().unwrap_or_default().to_owned(),
                r["pointer"].as_str().unwrap_or_default().to_owned(),
                r["message"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// The checks every flow passes: it ended as without the tap, the transcript holds every
/// message the client saw (each record naming session `sessions`), one `message` record per
/// transcript line in order, no secret header in the report, and the tap exits 1 exactly when
/// a verdict is invalid.
fn common(flow: &Flow, kind: Client) -> Result<(), Box<dyn std::error::Error>> {
    match kind {
        Client::TypeScript => {
            assert_eq!(without_timing(&flow.tapped), without_timing(&flow.direct))
        }
        Client::Python => assert_eq!(flow.tapped, flow.direct),
    }
    // The same messages with and without the tap. Two things depend on timing, with or
    // without the tap: how many times a replayed message comes again (see the Streamable HTTP
    // test), and whether a `notifications/*/list_changed` the server sends on its `GET` stream
    // finds that stream open yet (the server drops it otherwise).
    let flow_messages = |record: &[String]| -> Result<Vec<String>, serde_json::Error> {
        Ok(unique(shapes_without_error_ids(record)?)
            .into_iter()
            .filter(|shape| !shape.contains("list_changed"))
            .collect())
    };
    assert_eq!(
        flow_messages(&flow.tapped_record)?,
        flow_messages(&flow.direct_record)?,
        "the client saw the same messages with and without the tap"
    );
    let transcript = &flow.stopped.transcript;
    assert_eq!(
        shapes_without_error_ids(transcript)?,
        shapes_without_error_ids(&flow.tapped_record)?,
        "the transcript holds every message the client sent and received"
    );
    for line in transcript {
        assert!(line.starts_with(r#"{"session":"#), "{line}");
    }
    let lines: Vec<u64> = events(&flow.stopped.report, "message")
        .iter()
        .filter_map(|r| r["line"].as_u64())
        .collect();
    assert_eq!(lines, (1..=transcript.len() as u64).collect::<Vec<_>>());
    let summary = summary(&flow.stopped.report);
    assert_eq!(
        flow.stopped.status.code(),
        Some(if summary["invalid"] == 0 { 0 } else { 1 })
    );
    let _ = &flow.transcript;
    Ok(())
}

/// How many `notifications/*/list_changed` a transcript holds.
fn list_changed(transcript: &[String]) -> usize {
    transcript
        .iter()
        .filter(|line| {
            line.contains(r#""method":"notifications/"#) && line.contains("list_changed")
        })
        .count()
}

fn unique(mut shapes: Vec<String>) -> Vec<String> {
    shapes.dedup();
    shapes
}

fn http_stats(summary: &Value) -> &Value {
    &summary["http"]
}

#[test]
fn typescript_sdk_streamable_http_through_the_tap() -> TestResult {
    let Some(peers) = peers("typescript_sdk_streamable_http_through_the_tap") else {
        return Ok(());
    };
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let flow = flow(
        &peers,
        "http-ts-streamable",
        "streamableHttp",
        Client::TypeScript,
    )?;
    common(&flow, Client::TypeScript)?;
    assert_eq!(
        flow.tapped["toolsCalled"].as_array().map(Vec::len),
        Some(20)
    );
    let report = &flow.stopped.report;
    let summary = summary(report);
    // The client resumes a stream with Last-Event-ID: its SDK does so after a POST stream that
    // ended with an error response (it counts only results as the answer), about 1 s later.
    // server-everything's event store then replays every stream's events after the one named,
    // which the specification forbids: messages the client had on other streams come again
    // (how many depends on timing). The tap reports it, and checks them as the client gets them:
    // a response a second time is invalid (its request was answered); a request a second time
    // is a new request, which the client answers again.
    let replays = events(report, "foreign-replay");
    assert_eq!(replays.len(), 1);
    assert!(http_stats(&summary)["foreign_replays"].as_u64() > Some(0));
    let transcript = shapes(&flow.stopped.transcript)?;
    // Distinct (sender, method or result, id): a replay only repeats some of them (leaving out
    // the `list_changed` notifications, which the server drops when no GET stream is open).
    let distinct: Vec<String> = unique(transcript.clone())
        .into_iter()
        .filter(|shape| !shape.contains("list_changed"))
        .collect();
    assert_eq!(distinct.len(), 92);
    assert!(
        transcript.len() > 122,
        "more than the 122 messages of a run without replays"
    );
    let again = |prefix: &str| {
        transcript
            .windows(2)
            .filter(|pair| pair[0] == pair[1] && pair[0].starts_with(prefix))
            .count()
    };
    let invalid = invalid(report);
    assert_eq!(
        invalid[0],
        (
            59,
            "client".to_owned(),
            "/result/content/number".to_owned(),
            "2.5 is not one of an array, a boolean, an integer, a string".to_owned()
        )
    );
    assert_eq!(invalid.len(), 1 + again(r#""server" result"#));
    for (_, from, pointer, message) in &invalid[1..] {
        assert_eq!((from.as_str(), pointer.as_str()), ("server", "/id"));
        assert!(message.contains("was answered already"), "{message}");
    }
    assert_eq!(summary["unchecked"], 0);
    assert_eq!(
        summary["protocol"],
        json!({"protocol": "mcp", "version": "2025-11-25"})
    );
    let http = http_stats(&summary);
    assert_eq!(http["sessions"], 1);
    assert_eq!(http["unanswered"], 0);
    assert_eq!(http["upstream_failures"], 0);
    // One session, opened by the response to `initialize` (its Mcp-Session-Id), ended by the
    // client's DELETE.
    let opened = events(report, "session-opened");
    assert_eq!(opened.len(), 1);
    assert_eq!(opened[0]["transport"], "streamable-http");
    let closed = events(report, "session-closed");
    assert_eq!(closed.len(), 1);
    assert_eq!(closed[0]["why"], "DELETE");
    // server-everything goes on reporting progress for the call the client cancelled.
    let after_cancel = events(report, "lifecycle")
        .into_iter()
        .filter(|problem| problem["problem"] == "progress-after-cancel")
        .count();
    assert_eq!(after_cancel, 4);
    Ok(())
}

#[test]
fn typescript_sdk_sse_through_the_tap() -> TestResult {
    let Some(peers) = peers("typescript_sdk_sse_through_the_tap") else {
        return Ok(());
    };
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let flow = flow(&peers, "http-ts-sse", "sse", Client::TypeScript)?;
    common(&flow, Client::TypeScript)?;
    let report = &flow.stopped.report;
    let summary = summary(report);
    // The same 121 messages as over stdio: one invalid (the schema's own contradiction on
    // numbers in an elicitation result), four progress notifications after a cancellation.
    assert_eq!(flow.stopped.transcript.len(), 121);
    assert_eq!(
        json!({"messages": summary["messages"], "from_client": summary["from_client"],
               "from_child": summary["from_child"], "ok": summary["ok"],
               "invalid": summary["invalid"], "lifecycle": summary["lifecycle"]}),
        json!({"messages": 121, "from_client": 47, "from_child": 74, "ok": 120, "invalid": 1,
               "lifecycle": 4})
    );
    let opened = events(report, "session-opened");
    assert_eq!(opened.len(), 1);
    assert_eq!(
        (
            &opened[0]["transport"],
            &opened[0]["path"],
            &opened[0]["endpoint"]
        ),
        (&json!("sse"), &json!("/sse"), &json!("/message"))
    );
    let closed = events(report, "session-closed");
    assert_eq!(closed[0]["why"], "the client closed its SSE stream");
    assert_eq!(http_stats(&summary)["sessions"], 1);
    assert_eq!(invalid(report).len(), 1);
    Ok(())
}

#[test]
fn python_sdk_streamable_http_through_the_tap() -> TestResult {
    let Some(peers) = peers("python_sdk_streamable_http_through_the_tap") else {
        return Ok(());
    };
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let flow = flow(
        &peers,
        "http-py-streamable",
        "streamableHttp",
        Client::Python,
    )?;
    common(&flow, Client::Python)?;
    assert_eq!(flow.tapped["protocolVersion"], "2025-11-25");
    let report = &flow.stopped.report;
    let summary = summary(report);
    // 34 messages, and a `notifications/tools/list_changed` for each change of its tools the
    // server announced while it found the GET stream open (0, 1 or 4 seen, by timing).
    let list_changed = list_changed(&flow.stopped.transcript);
    assert_eq!(flow.stopped.transcript.len(), 34 + list_changed);
    assert_eq!(
        json!({"messages": summary["messages"], "ok": summary["ok"], "invalid": summary["invalid"],
               "lifecycle": summary["lifecycle"]}),
        json!({"messages": 34 + list_changed, "ok": 33 + list_changed, "invalid": 1, "lifecycle": 0})
    );
    // The SDK first offers 2026-07-28 with `server/discover` (no session id yet);
    // server-everything refuses it with `400` and a JSON-RPC error whose `id` is `null`, which
    // the 2026-07-28 schema does not allow. That exchange has no session id: the tap follows it
    // as the session of traffic without one. Then `initialize` opens the real session.
    let opened = events(report, "session-opened");
    assert_eq!(opened.len(), 2);
    assert_eq!(opened[0]["mcp_session_id"], Value::Null);
    assert!(opened[1]["mcp_session_id"].is_string());
    assert_eq!(
        invalid(report),
        [(
            2,
            "server".to_owned(),
            "/id".to_owned(),
            r#"null is not of types "integer", "string""#.to_owned()
        )]
    );
    assert_eq!(events(report, "session-closed")[0]["why"], "DELETE");
    Ok(())
}

#[test]
fn python_sdk_sse_through_the_tap() -> TestResult {
    let Some(peers) = peers("python_sdk_sse_through_the_tap") else {
        return Ok(());
    };
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let flow = flow(&peers, "http-py-sse", "sse", Client::Python)?;
    common(&flow, Client::Python)?;
    let report = &flow.stopped.report;
    let summary = summary(report);
    assert_eq!(flow.stopped.transcript.len(), 36);
    assert_eq!(
        json!({"messages": summary["messages"], "ok": summary["ok"], "invalid": summary["invalid"],
               "lifecycle": summary["lifecycle"], "protocol": summary["protocol"]}),
        json!({"messages": 36, "ok": 36, "invalid": 0, "lifecycle": 0,
               "protocol": {"protocol": "mcp", "version": "2025-11-25"}})
    );
    assert_eq!(events(report, "session-opened")[0]["transport"], "sse");
    assert_eq!(flow.stopped.status.code(), Some(0));
    Ok(())
}
