//! `toolcall tap --listen --upstream` against a scripted upstream: what HTTP asks of a gateway
//! (bodies byte for byte, hop-by-hop headers, `Host`, `Via`), the security checks (loopback,
//! `Host`, `Origin`, redacted credentials), the faults (an upstream down, slow, breaking off, a
//! stream ending without the response, a client going away, an oversized body) and many
//! sessions at once. Both ends are plain TCP here, so that every byte is the test's.

#![cfg(unix)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{json, Value};

#[path = "../support/http_tap.rs"]
mod http_tap;

use http_tap::{events, verdicts, HttpTap};

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn scratch(name: &str) -> std::io::Result<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("tap_http")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// A request as the upstream received it.
#[derive(Debug, Clone)]
struct Received {
    head: String,
    body: Vec<u8>,
}

impl Received {
    /// The values of header `name` (lowercase), in order.
    fn header(&self, name: &str) -> Vec<String> {
        self.head
            .lines()
            .skip(1)
            .filter_map(|line| line.split_once(':'))
            .filter(|(n, _)| n.trim().eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim().to_owned())
            .collect()
    }

    fn path(&self) -> &str {
        self.head.split(' ').nth(1).unwrap_or_default()
    }
}

/// Reads one HTTP/1.1 request (a `Content-Length` body, or none).
fn read_request(reader: &mut BufReader<TcpStream>) -> std::io::Result<Option<Received>> {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let length = head
        .lines()
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.trim().parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(Some(Received { head, body }))
}

/// What the scripted upstream does with a request: write these parts, each after its pause
/// (then close the connection).
type Script = Box<dyn Fn(&Received, &mut TcpStream) -> std::io::Result<()> + Send + Sync>;

/// A scripted upstream on a free loopback port: each connection's requests answered by `script`.
struct Upstream {
    address: SocketAddr,
    received: Arc<Mutex<Vec<Received>>>,
}

impl Upstream {
    fn start(script: Script) -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let address = listener.local_addr()?;
        let received = Arc::new(Mutex::new(Vec::new()));
        let script = Arc::new(script);
        let seen = Arc::clone(&received);
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { break };
                // Each response goes out in several writes: no Nagle delay between them.
                let _ = stream.set_nodelay(true);
                let script = Arc::clone(&script);
                let seen = Arc::clone(&seen);
                thread::spawn(move || {
                    let Ok(clone) = stream.try_clone() else {
                        return;
                    };
                    let mut reader = BufReader::new(clone);
                    let mut writer = stream;
                    while let Ok(Some(request)) = read_request(&mut reader) {
                        seen.lock().expect("lock").push(request.clone());
                        if script(&request, &mut writer).is_err() {
                            break;
                        }
                    }
                });
            }
        });
        Ok(Self { address, received })
    }

    fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    fn received(&self) -> Vec<Received> {
        self.received.lock().expect("lock").clone()
    }
}

/// A JSON response (keep-alive).
fn json_response(
    out: &mut TcpStream,
    status: &str,
    extra: &str,
    body: &[u8],
) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n{extra}\r\n",
        body.len()
    )?;
    out.write_all(body)?;
    out.flush()
}

/// One chunk of a chunked body.
fn chunk(out: &mut TcpStream, data: &[u8]) -> std::io::Result<()> {
    write!(out, "{:x}\r\n", data.len())?;
    out.write_all(data)?;
    out.write_all(b"\r\n")?;
    out.flush()
}

fn sse_head(out: &mut TcpStream, extra: &str) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n{extra}\r\n"
    )?;
    out.flush()
}

/// A whole HTTP exchange over a new connection (`Connection: close`): the status line and
/// headers, and the body (de-chunked).
fn exchange(address: SocketAddr, request: &[u8]) -> std::io::Result<(String, Vec<u8>)> {
    let mut stream = TcpStream::connect(address)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    stream.write_all(request)?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(raw.len());
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut body = raw[(split + 4).min(raw.len())..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = dechunk(&body);
    }
    Ok((head, body))
}

fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = raw.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(std::str::from_utf8(&raw[..end]).unwrap_or("0"), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.extend_from_slice(&raw[end + 2..end + 2 + size]);
        raw = &raw[end + 4 + size..];
    }
    out
}

/// A `POST` of `body` to `path` on the tap at `address` with more header lines `extra`.
fn post(address: SocketAddr, path: &str, extra: &str, body: &[u8]) -> Vec<u8> {
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nhost: {address}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\ncontent-length: {}\r\nconnection: close\r\n{extra}\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body);
    request
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"scripted","version":"1"}}"#;

/// An upstream answering every `POST` with a JSON-RPC result for its id (`initialize` with the
/// `Mcp-Session-Id` `s-<clientInfo.name>`, `tools/list` with no tools), `202` to notifications.
fn mcp_upstream() -> std::io::Result<Upstream> {
    Upstream::start(Box::new(|request, out| {
        let message: Value = serde_json::from_slice(&request.body).unwrap_or_default();
        let Some(id) = message.get("id") else {
            return write!(out, "HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n");
        };
        let (result, extra) = match message["method"].as_str() {
            Some("initialize") => (
                serde_json::from_str(INITIALIZED).unwrap_or_default(),
                format!(
                    "mcp-session-id: s-{}\r\n",
                    message["params"]["clientInfo"]["name"]
                        .as_str()
                        .unwrap_or("x")
                ),
            ),
            Some("tools/list") => (json!({"tools": []}), String::new()),
            _ => (json!({}), String::new()),
        };
        let body = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
        json_response(out, "200 OK", &extra, body.as_bytes())
    }))
}

#[test]
fn bodies_and_end_to_end_headers_pass_unchanged_and_credentials_are_redacted() -> TestResult {
    let dir = scratch("headers")?;
    let upstream = mcp_upstream()?;
    let tap = HttpTap::start(&dir, &upstream.url(), &[])?;
    // Spaces and a number written `1.0` in the body: relayed byte for byte.
    let body = br#"{ "jsonrpc": "2.0", "id": 1.0e0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "a", "version": "1"}} }"#;
    let request = post(
        tap.address,
        "/mcp?key=secret-in-query",
        "authorization: Bearer secret-token-1\r\ncookie: sid=secret-cookie-2\r\nx-api-key: secret-key-3\r\n\
         connection: close, x-hop\r\nx-hop: dropped\r\nkeep-alive: timeout=5\r\nx-end-to-end: kept\r\n",
        body,
    );
    let (head, answer) = exchange(tap.address, &request)?;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.to_ascii_lowercase().contains("mcp-session-id: s-a"),
        "{head}"
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&answer)?["result"]["serverInfo"]["name"],
        "scripted"
    );
    let stopped = tap.stop()?;
    let received = upstream.received();
    assert_eq!(received.len(), 1);
    let got = &received[0];
    assert_eq!(got.body, body, "the body arrives byte for byte");
    assert_eq!(got.path(), "/mcp?key=secret-in-query");
    assert_eq!(got.header("host"), [upstream.address.to_string()]);
    assert_eq!(got.header("via"), ["1.1 toolcall-tap"]);
    assert_eq!(got.header("authorization"), ["Bearer secret-token-1"]);
    assert_eq!(got.header("cookie"), ["sid=secret-cookie-2"]);
    assert_eq!(got.header("x-api-key"), ["secret-key-3"]);
    assert_eq!(got.header("x-end-to-end"), ["kept"]);
    for hop in ["x-hop", "keep-alive"] {
        assert_eq!(got.header(hop), Vec::<String>::new(), "{hop}");
    }
    // Neither the report nor the transcript holds a credential; the report says they are redacted.
    let report = std::fs::read_to_string(tap_report(&dir))?;
    let transcript = stopped.transcript.join("\n");
    for secret in [
        "secret-token-1",
        "secret-cookie-2",
        "secret-key-3",
        "secret-in-query",
    ] {
        assert!(!report.contains(secret), "{secret} in the report");
        assert!(!transcript.contains(secret), "{secret} in the transcript");
    }
    let listening = &stopped.report[0];
    assert_eq!(listening["event"], "listening");
    let http = events(&stopped.report, "http");
    assert_eq!(http.len(), 1);
    assert_eq!(http[0]["path"], "/mcp");
    assert_eq!(http[0]["request_headers"]["authorization"], "<redacted>");
    assert_eq!(http[0]["request_headers"]["cookie"], "<redacted>");
    assert_eq!(http[0]["request_headers"]["x-api-key"], "<redacted>");
    // The transcript holds the message as sent, in its session.
    assert_eq!(
        stopped.transcript,
        [
            format!(
                r#"{{"session":1,"from":"client","message":{}}}"#,
                std::str::from_utf8(body)?
            ),
            format!(
                r#"{{"session":1,"from":"server","message":{}}}"#,
                std::str::from_utf8(&answer)?
            ),
        ]
    );
    let (tapped, validated) = verdicts(&stopped.report, &dir.join("transcript.ndjson"))?;
    assert_eq!(tapped, validated);
    assert_eq!(stopped.status.code(), Some(0));
    Ok(())
}

fn tap_report(dir: &Path) -> PathBuf {
    dir.join("report.ndjson")
}

#[test]
fn a_listen_address_that_is_not_loopback_needs_the_flag() -> TestResult {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_toolcall"))
        .args([
            "tap",
            "--listen",
            "0.0.0.0:0",
            "--upstream",
            "http://127.0.0.1:9",
        ])
        .output()?;
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr)?;
    assert!(
        stderr.starts_with(
            "toolcall: refusing to listen on `0.0.0.0:0`, which is not a loopback address"
        ),
        "{stderr}"
    );
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_toolcall"))
        .args([
            "tap",
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            "http://127.0.0.1:9/mcp",
        ])
        .output()?;
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8(output.stderr)?.contains("has a path: give the server's base URL"));
    Ok(())
}

#[test]
fn foreign_origins_and_hosts_are_refused_and_never_reach_the_upstream() -> TestResult {
    let dir = scratch("rebinding")?;
    let upstream = mcp_upstream()?;
    let tap = HttpTap::start(&dir, &upstream.url(), &[])?;
    let body = INITIALIZE.as_bytes();
    let (head, answer) = exchange(
        tap.address,
        &post(tap.address, "/mcp", "origin: http://evil.example\r\n", body),
    )?;
    assert!(head.starts_with("HTTP/1.1 403"), "{head}");
    assert_eq!(
        serde_json::from_slice::<Value>(&answer)?,
        json!({"jsonrpc": "2.0", "error": {"code": -32000, "message":
            "Forbidden: `Origin` `http://evil.example` is not local (DNS rebinding protection; --allow-origin adds one)"}})
    );
    // A page on a rebound name: its `Host` is that name.
    let rebound = String::from_utf8(post(tap.address, "/mcp", "", body))?.replacen(
        &format!("host: {}", tap.address),
        &format!("host: rebound.example:{}", tap.address.port()),
        1,
    );
    let (head, _) = exchange(tap.address, rebound.as_bytes())?;
    assert!(head.starts_with("HTTP/1.1 403"), "{head}");
    // A local origin passes.
    let (head, _) = exchange(
        tap.address,
        &post(
            tap.address,
            "/mcp",
            "origin: http://localhost:6274\r\n",
            body,
        ),
    )?;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let stopped = tap.stop()?;
    assert_eq!(upstream.received().len(), 1);
    let refused = events(&stopped.report, "refused");
    assert_eq!(refused.len(), 2);
    assert_eq!(refused[1]["message"], format!("`Host` `rebound.example:{}` is not this tap's address (DNS rebinding protection; --allow-host adds a name)", stopped_port(&stopped.report)));
    assert_eq!(
        stopped.report.last().map(|s| s["http"]["refused"].clone()),
        Some(json!(2))
    );
    Ok(())
}

fn stopped_port(report: &[Value]) -> u16 {
    report[0]["address"]
        .as_str()
        .and_then(|a| a.parse::<SocketAddr>().ok())
        .map_or(0, |a| a.port())
}

#[test]
fn an_upstream_that_is_down_or_slow_gets_the_client_a_gateway_error() -> TestResult {
    let dir = scratch("down")?;
    // A port nobody listens on.
    let closed = TcpListener::bind("127.0.0.1:0")?.local_addr()?;
    let tap = HttpTap::start(&dir, &format!("http://{closed}"), &[])?;
    let (head, body) = exchange(
        tap.address,
        &post(tap.address, "/mcp", "", INITIALIZE.as_bytes()),
    )?;
    assert!(head.starts_with("HTTP/1.1 502"), "{head}");
    assert!(String::from_utf8(body)?.starts_with(&format!(
        "toolcall tap: the upstream http://{closed} could not be reached"
    )));
    let stopped = tap.stop()?;
    let failed = events(&stopped.report, "upstream-failed");
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["status"], 502);
    // Its body was never read (the upstream could not take it): nothing crossed the tap.
    assert_eq!(stopped.transcript.len(), 0);

    let dir = scratch("slow")?;
    let upstream = Upstream::start(Box::new(|_, _| {
        thread::sleep(Duration::from_secs(5));
        Err(std::io::Error::other("never answers"))
    }))?;
    let tap = HttpTap::start(&dir, &upstream.url(), &["--upstream-timeout", "0.5"])?;
    let (head, _) = exchange(
        tap.address,
        &post(tap.address, "/mcp", "", INITIALIZE.as_bytes()),
    )?;
    assert!(head.starts_with("HTTP/1.1 504"), "{head}");
    let stopped = tap.stop()?;
    let failed = events(&stopped.report, "upstream-failed");
    assert_eq!(failed[0]["status"], 504);
    assert_eq!(
        failed[0]["message"],
        "did not start its response within 0.5 s"
    );

    // A client that gives up first: its request reached the upstream, and is checked.
    let dir = scratch("gave-up")?;
    let tap = HttpTap::start(&dir, &upstream.url(), &[])?;
    let mut stream = TcpStream::connect(tap.address)?;
    stream.write_all(&post(tap.address, "/mcp", "", INITIALIZE.as_bytes()))?;
    thread::sleep(Duration::from_millis(500));
    drop(stream);
    thread::sleep(Duration::from_millis(300));
    let stopped = tap.stop()?;
    let gone = events(&stopped.report, "client-disconnected");
    assert_eq!(gone.len(), 1);
    assert_eq!(gone[0]["before_response"], true);
    assert_eq!(stopped.transcript.len(), 1);
    assert!(stopped.transcript[0].contains(r#""method":"initialize""#));
    Ok(())
}

#[test]
fn server_sent_events_reach_the_client_as_they_leave_the_server() -> TestResult {
    let dir = scratch("events")?;
    let (go, wait) = mpsc::channel::<()>();
    let wait = Mutex::new(wait);
    let upstream = Upstream::start(Box::new(move |_, out| {
        sse_head(out, "mcp-session-id: s1\r\n")?;
        chunk(out, b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"first\"}}\n\n")?;
        // The second event leaves only once the client has the first: a tap that buffered
        // the stream would never deliver it.
        wait.lock()
            .expect("lock")
            .recv_timeout(Duration::from_secs(20))
            .map_err(std::io::Error::other)?;
        chunk(out, INITIALIZED_EVENT.as_bytes())?;
        out.write_all(b"0\r\n\r\n")?;
        out.flush()
    }))?;
    let tap = HttpTap::start(&dir, &upstream.url(), &[])?;
    let mut stream = TcpStream::connect(tap.address)?;
    stream.set_read_timeout(Some(Duration::from_secs(20)))?;
    stream.write_all(&post(tap.address, "/mcp", "", INITIALIZE.as_bytes()))?;
    let mut seen = Vec::new();
    let mut buffer = [0_u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("first") {
        let read = stream.read(&mut buffer)?;
        assert!(read > 0, "the stream ended before the first event");
        seen.extend_from_slice(&buffer[..read]);
    }
    go.send(())?;
    stream.read_to_end(&mut seen)?;
    assert!(String::from_utf8_lossy(&seen).contains("\"id\":0"));
    let stopped = tap.stop()?;
    assert_eq!(stopped.transcript.len(), 3);
    let summary = stopped.report.last().cloned().unwrap_or_default();
    assert_eq!(
        (summary["messages"].clone(), summary["ok"].clone()),
        (json!(3), json!(3))
    );
    Ok(())
}

const INITIALIZED_EVENT: &str = "id: e2\ndata: {\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"serverInfo\":{\"name\":\"scripted\",\"version\":\"1\"}}}\n\n";

#[test]
fn a_stream_that_ends_without_the_response_or_breaks_off_is_reported() -> TestResult {
    let dir = scratch("unanswered")?;
    let upstream = Upstream::start(Box::new(|request, out| {
        sse_head(out, "mcp-session-id: s1\r\n")?;
        chunk(out, b"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"working\"}}\n\n")?;
        if request.path() == "/broken" {
            // Half a chunk, then the connection is gone.
            out.write_all(b"40\r\ndata: {\"jsonrpc\"")?;
            out.flush()?;
            out.shutdown(Shutdown::Both)?;
            return Err(std::io::Error::other("broke off"));
        }
        out.write_all(b"0\r\n\r\n")?;
        out.flush()
    }))?;
    let tap = HttpTap::start(&dir, &upstream.url(), &[])?;
    let (head, _) = exchange(
        tap.address,
        &post(tap.address, "/mcp", "", INITIALIZE.as_bytes()),
    )?;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let call = br#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#;
    let _ = exchange(
        tap.address,
        &post(tap.address, "/broken", "mcp-session-id: s1\r\n", call),
    );
    let stopped = tap.stop()?;
    let unanswered = events(&stopped.report, "stream-ended-unanswered");
    assert_eq!(unanswered.len(), 2);
    assert_eq!(unanswered[0]["ids"], json!(["0"]));
    assert_eq!(unanswered[1]["ids"], json!(["7"]));
    let broke = events(&stopped.report, "upstream-broke-off");
    assert_eq!(broke.len(), 1);
    assert_eq!(broke[0]["path"], "/broken");
    assert_eq!(broke[0]["messages"], 1);
    // Every message that crossed is in the transcript and checked as validate checks it.
    assert_eq!(stopped.transcript.len(), 4);
    let (tapped, validated) = verdicts(&stopped.report, &dir.join("transcript.ndjson"))?;
    assert_eq!(tapped, validated);
    Ok(())
}

#[test]
fn a_client_that_goes_away_mid_stream_is_reported_and_the_upstream_released() -> TestResult {
    let dir = scratch("gone")?;
    let (closed, upstream_saw) = mpsc::channel::<bool>();
    let closed = Mutex::new(closed);
    let upstream = Upstream::start(Box::new(move |_, out| {
        sse_head(out, "mcp-session-id: s1\r\n")?;
        chunk(out, b"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"first\"}}\n\n")?;
        // Keep writing until the tap closes the connection (the client is gone).
        let mut released = false;
        for _ in 0..200 {
            thread::sleep(Duration::from_millis(50));
            if chunk(out, b": keep-alive\n\n").is_err() {
                released = true;
                break;
            }
        }
        let _ = closed.lock().expect("lock").send(released);
        Err(std::io::Error::other("done"))
    }))?;
    let tap = HttpTap::start(&dir, &upstream.url(), &[])?;
    let mut stream = TcpStream::connect(tap.address)?;
    stream.set_read_timeout(Some(Duration::from_secs(20)))?;
    stream.write_all(&post(tap.address, "/mcp", "", INITIALIZE.as_bytes()))?;
    let mut seen = Vec::new();
    let mut buffer = [0_u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("first") {
        let read = stream.read(&mut buffer)?;
        assert!(read > 0);
        seen.extend_from_slice(&buffer[..read]);
    }
    drop(stream);
    assert!(
        upstream_saw.recv_timeout(Duration::from_secs(20))?,
        "the upstream connection was closed"
    );
    let stopped = tap.stop()?;
    let gone = events(&stopped.report, "client-disconnected");
    assert_eq!(gone.len(), 1);
    assert_eq!(gone[0]["messages"], 1);
    assert_eq!(
        stopped
            .report
            .last()
            .map(|s| s["http"]["client_disconnects"].clone()),
        Some(json!(1))
    );
    Ok(())
}

#[test]
fn an_oversized_body_is_relayed_whole_and_reported() -> TestResult {
    let dir = scratch("oversized")?;
    let upstream = Upstream::start(Box::new(|request, out| {
        // Echoes the length and the body back as a JSON-RPC result.
        let text: String = String::from_utf8_lossy(&request.body).into_owned();
        let body = json!({"jsonrpc": "2.0", "id": 1, "result": {"length": request.body.len(), "echo": text}}).to_string();
        json_response(out, "200 OK", "mcp-session-id: s1\r\n", body.as_bytes())
    }))?;
    let tap = HttpTap::start(&dir, &upstream.url(), &["--max-bytes", "4096"])?;
    let big = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                     "params": {"name": "echo", "arguments": {"text": "x".repeat(100_000)}}})
    .to_string();
    let (head, answer) = exchange(tap.address, &post(tap.address, "/mcp", "", big.as_bytes()))?;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let answer: Value = serde_json::from_slice(&answer)?;
    assert_eq!(answer["result"]["length"], big.len());
    assert_eq!(upstream.received()[0].body, big.as_bytes());
    let stopped = tap.stop()?;
    let over: Vec<&Value> = events(&stopped.report, "message")
        .into_iter()
        .filter(|r| r["verdict"] == "over-limit")
        .collect();
    assert_eq!(over.len(), 2, "the request and the response: {over:?}");
    assert_eq!(over[0]["from"], "client");
    // The request names its method in the bytes the tap keeps; the response is known by its size.
    assert_eq!(over[0]["kind"], "tools/call");
    assert_eq!(over[1]["from"], "server");
    assert_eq!(over[1]["kind"], "over a decode limit");
    let record: Value = serde_json::from_str(&stopped.transcript[0])?;
    assert_eq!(record["truncated"], true);
    assert_eq!(record["bytes"], big.len());
    assert_eq!(record["text"].as_str().map(str::len), Some(1024));
    // `toolcall validate` reads the truncated records as over the limit too (in its own words:
    // it knows the size from the record only).
    let (tapped, validated) = verdicts(&stopped.report, &dir.join("transcript.ndjson"))?;
    let without_message = |records: Vec<Value>| -> Vec<Value> {
        records
            .into_iter()
            .map(|mut r| {
                r.as_object_mut().map(|o| o.remove("message"));
                r
            })
            .collect()
    };
    assert_eq!(without_message(tapped), without_message(validated));
    Ok(())
}

#[test]
fn many_sessions_at_once_are_each_checked_apart() -> TestResult {
    let dir = scratch("sessions")?;
    let upstream = mcp_upstream()?;
    let tap = HttpTap::start(&dir, &upstream.url(), &[])?;
    let address = tap.address;
    let sessions = 100;
    let workers: Vec<_> = (0..sessions)
        .map(|n| {
            thread::spawn(move || -> Result<(), String> {
                let name = format!("c{n}");
                let init = INITIALIZE.replace("\"test\"", &format!("\"{name}\""));
                let (head, _) = exchange(address, &post(address, "/mcp", "", init.as_bytes()))
                    .map_err(|e| e.to_string())?;
                if !head
                    .to_ascii_lowercase()
                    .contains(&format!("mcp-session-id: s-{name}"))
                {
                    return Err(head);
                }
                let session =
                    format!("mcp-session-id: s-{name}\r\nmcp-protocol-version: 2025-11-25\r\n");
                let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
                exchange(
                    address,
                    &post(address, "/mcp", &session, initialized.as_bytes()),
                )
                .map_err(|e| e.to_string())?;
                // Every session numbers its requests the same way; every third sends one
                // invalid `tools/list` (params not an object).
                let list = if n % 3 == 0 {
                    r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":7}"#
                } else {
                    r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#
                };
                exchange(address, &post(address, "/mcp", &session, list.as_bytes()))
                    .map_err(|e| e.to_string())?;
                Ok(())
            })
        })
        .collect();
    for worker in workers {
        worker.join().map_err(|_| "a worker panicked")??;
    }
    let stopped = tap.stop()?;
    assert_eq!(events(&stopped.report, "session-opened").len(), sessions);
    assert_eq!(stopped.transcript.len(), sessions * 5);
    let summary = stopped.report.last().cloned().unwrap_or_default();
    let invalid = (0..sessions).filter(|n| n % 3 == 0).count();
    assert_eq!(summary["messages"], sessions * 5);
    assert_eq!(summary["invalid"], invalid);
    assert_eq!(summary["ok"], sessions * 5 - invalid);
    // Each invalid verdict is on a `tools/list` request of a session numbered as it opened.
    let mut by_session: HashMap<u64, Vec<String>> = HashMap::new();
    for record in events(&stopped.report, "message") {
        by_session
            .entry(record["session"].as_u64().unwrap_or_default())
            .or_default()
            .push(format!("{} {}", record["verdict"], record["kind"]));
    }
    assert_eq!(by_session.len(), sessions);
    for verdicts in by_session.values() {
        assert_eq!(verdicts.len(), 5);
        assert!(
            verdicts[..2].iter().all(|v| v.starts_with("\"ok\"")),
            "{verdicts:?}"
        );
    }
    let (tapped, validated) = verdicts(&stopped.report, &dir.join("transcript.ndjson"))?;
    assert_eq!(tapped, validated);
    assert_eq!(stopped.status.code(), Some(1));
    Ok(())
}

#[test]
fn past_1024_sessions_the_one_idle_longest_is_forgotten_and_said_so() -> TestResult {
    let dir = scratch("forgotten")?;
    let upstream = mcp_upstream()?;
    let tap = HttpTap::start(&dir, &upstream.url(), &[])?;
    let sessions = 1030;
    for n in 0..sessions {
        let init = INITIALIZE.replace("\"test\"", &format!("\"c{n}\""));
        let (head, _) = exchange(tap.address, &post(tap.address, "/mcp", "", init.as_bytes()))?;
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    }
    let stopped = tap.stop()?;
    let forgotten: Vec<u64> = events(&stopped.report, "session-closed")
        .into_iter()
        .filter(|closed| {
            closed["why"]
                .as_str()
                .is_some_and(|why| why.starts_with("forgotten"))
        })
        .filter_map(|closed| closed["session"].as_u64())
        .collect();
    assert_eq!(forgotten, [1, 2, 3, 4, 5, 6]);
    // Nothing is lost from the tally: the sessions forgotten count in it.
    let summary = stopped.report.last().cloned().unwrap_or_default();
    assert_eq!(summary["messages"], 2 * sessions);
    assert_eq!(summary["ok"], 2 * sessions);
    assert_eq!(summary["http"]["sessions"], sessions);
    Ok(())
}

#[test]
fn a_request_without_the_negotiated_protocol_version_header_is_reported() -> TestResult {
    let dir = scratch("version-header")?;
    let upstream = mcp_upstream()?;
    let tap = HttpTap::start(&dir, &upstream.url(), &[])?;
    exchange(
        tap.address,
        &post(tap.address, "/mcp", "", INITIALIZE.as_bytes()),
    )?;
    let list = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    // With the header, without it, and with another version.
    for extra in [
        "mcp-protocol-version: 2025-11-25\r\n",
        "",
        "mcp-protocol-version: 2025-06-18\r\n",
    ] {
        let session = format!("mcp-session-id: s-test\r\n{extra}");
        exchange(tap.address, &post(tap.address, "/mcp", &session, list))?;
    }
    let stopped = tap.stop()?;
    let found = events(&stopped.report, "protocol-version-header");
    assert_eq!(found.len(), 2);
    assert_eq!(
        found[0]["message"],
        "no `MCP-Protocol-Version` header (the negotiated version is `2025-11-25`)"
    );
    assert_eq!(
        found[1]["message"],
        "`MCP-Protocol-Version: 2025-06-18`, not the negotiated `2025-11-25`"
    );
    Ok(())
}

#[test]
fn the_transport_flag_overrides_what_the_traffic_shows() -> TestResult {
    // An HTTP+SSE server: `GET /sse` announces `/message?sessionId=a`; posts answer `202`.
    let upstream = || {
        Upstream::start(Box::new(|request, out| {
            if request.path() == "/sse" {
                sse_head(out, "")?;
                chunk(out, b"event: endpoint\ndata: /message?sessionId=a\n\n")?;
                // Open until the client goes (a comment every 50 ms finds out).
                for _ in 0..200 {
                    thread::sleep(Duration::from_millis(50));
                    chunk(out, b": ping\n\n")?;
                }
                out.write_all(b"0\r\n\r\n")?;
                return out.flush();
            }
            write!(
                out,
                "HTTP/1.1 202 Accepted\r\ncontent-length: 8\r\n\r\nAccepted"
            )?;
            out.flush()
        }))
    };
    let get = |address: SocketAddr| {
        format!("GET /sse HTTP/1.1\r\nhost: {address}\r\naccept: text/event-stream\r\nconnection: close\r\n\r\n")
    };
    for (transport, opened) in [("auto", 1), ("sse", 1), ("streamable-http", 0)] {
        let dir = scratch(&format!("transport-{transport}"))?;
        let server = upstream()?;
        let tap = HttpTap::start(&dir, &server.url(), &["--transport", transport])?;
        let mut stream = TcpStream::connect(tap.address)?;
        stream.set_read_timeout(Some(Duration::from_secs(20)))?;
        stream.write_all(get(tap.address).as_bytes())?;
        let mut seen = Vec::new();
        let mut buffer = [0_u8; 1024];
        while !String::from_utf8_lossy(&seen).contains("sessionId=a") {
            let read = stream.read(&mut buffer)?;
            assert!(read > 0, "the stream ended before its endpoint");
            seen.extend_from_slice(&buffer[..read]);
        }
        exchange(
            tap.address,
            &post(
                tap.address,
                "/message?sessionId=a",
                "",
                INITIALIZE.as_bytes(),
            ),
        )?;
        exchange(
            tap.address,
            &post(tap.address, "/elsewhere", "", INITIALIZE.as_bytes()),
        )?;
        drop(stream);
        let stopped = tap.stop()?;
        let sse: Vec<&Value> = events(&stopped.report, "session-opened")
            .into_iter()
            .filter(|opened| opened["transport"] == "sse")
            .collect();
        assert_eq!(sse.len(), opened, "--transport {transport}");
        let unknown = events(&stopped.report, "unknown-endpoint");
        assert_eq!(
            unknown.len(),
            usize::from(transport == "sse"),
            "--transport {transport}"
        );
        if transport == "sse" {
            assert_eq!(unknown[0]["path"], "/elsewhere");
        }
    }
    Ok(())
}
