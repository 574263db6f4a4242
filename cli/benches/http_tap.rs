//! What `toolcall tap --listen` costs, measured against a direct connection in one run (see
//! BENCHMARKS.md, "HTTP tap"):
//!
//! - added latency per request: a keep-alive client posts a `tools/call` to an upstream on
//!   loopback, directly and through the tap, the two alternating request by request (the first
//!   of each pair swapped every round), wall-clock per request; the tap's CPU time beside it;
//! - server-sent events: the upstream timestamps each event as it writes it, the client notes
//!   when it reads it, directly and through the tap, alternating rounds;
//! - 100 sessions at once through the tap, each with its own invalid messages planted: every
//!   verdict the tap reports is compared with the one expected, and with `toolcall validate`'s
//!   on the transcript.
//!
//! `cargo bench -p toolcall --bench http_tap`; `ROUNDS=N` (default 20) rounds of `REQUESTS=N`
//! (default 200) requests per side; `CALLGRIND=1` also counts the tap's instructions per request
//! under valgrind (slow). The bench prints its figures; it fails only when something is wrong
//! (a wrong verdict, a broken exchange), never on a time.

use std::convert::Infallible;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};

type Error = Box<dyn std::error::Error + Send + Sync>;

/// When the bench started: event timestamps are nanoseconds since.
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

// ---------------------------------------------------------------------------------------------
// The upstream: a small MCP server on hyper.

type Body = http_body_util::combinators::BoxBody<Bytes, Infallible>;

/// A `tools/call` result of about 300 bytes, the size of a typical small tool answer.
fn result_for(id: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text",
        "text": "The sum of 2 and 3.5 is 5.5. This sentence pads the answer to a typical size \
                 of a short tool result, about three hundred bytes on the wire in all."}],
        "isError": false}})
}

async fn upstream(request: Request<Incoming>) -> Result<Response<Body>, Infallible> {
    let path = request.uri().path().to_owned();
    let query = request.uri().query().unwrap_or_default().to_owned();
    let body = request
        .into_body()
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    if path == "/events" {
        // `count=N&gap_us=M`: N notifications, M microseconds apart, each stamped as written.
        let mut count = 100;
        let mut gap = 2000;
        for pair in query.split('&') {
            match pair.split_once('=') {
                Some(("count", n)) => count = n.parse().unwrap_or(count),
                Some(("gap_us", n)) => gap = n.parse().unwrap_or(gap),
                _ => {}
            }
        }
        let (mut sender, body) = http_body_util::channel::Channel::<Bytes, Infallible>::new(4);
        tokio::spawn(async move {
            for _ in 0..count {
                tokio::time::sleep(Duration::from_micros(gap)).await;
                let stamp = epoch().elapsed().as_nanos();
                let event = format!(
                    "data: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{\"level\":\"info\",\"data\":\"{stamp}\"}}}}\n\n"
                );
                if sender.send_data(Bytes::from(event)).await.is_err() {
                    return;
                }
            }
        });
        let mut response = Response::new(body.boxed());
        response.headers_mut().insert(
            "content-type",
            hyper::header::HeaderValue::from_static("text/event-stream"),
        );
        return Ok(response);
    }
    let message: Value = serde_json::from_slice(&body).unwrap_or_default();
    let mut response = match message.get("id") {
        None => {
            let mut response = Response::new(Full::new(Bytes::new()).boxed());
            *response.status_mut() = hyper::StatusCode::ACCEPTED;
            response
        }
        Some(id) => {
            let answer = if message["method"] == "initialize" {
                json!({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": "2025-11-25",
                    "capabilities": {"tools": {}}, "serverInfo": {"name": "bench", "version": "1"}}})
            } else {
                result_for(id)
            };
            Response::new(Full::new(Bytes::from(answer.to_string())).boxed())
        }
    };
    response.headers_mut().insert(
        "content-type",
        hyper::header::HeaderValue::from_static("application/json"),
    );
    if message["method"] == "initialize" {
        let name = message["params"]["clientInfo"]["name"]
            .as_str()
            .unwrap_or("x")
            .to_owned();
        if let Ok(value) = hyper::header::HeaderValue::from_str(&format!("s-{name}")) {
            response.headers_mut().insert("mcp-session-id", value);
        }
    }
    Ok(response)
}

/// Starts the upstream on a thread of its own (one tokio worker); returns its address.
fn start_upstream() -> Result<SocketAddr, Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))?;
    let address = listener.local_addr()?;
    std::thread::spawn(move || {
        runtime.block_on(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let _ = stream.set_nodelay(true);
                tokio::spawn(async move {
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service_fn(upstream))
                        .await;
                });
            }
        });
    });
    Ok(address)
}

// ---------------------------------------------------------------------------------------------
// The tap, as a process.

struct Tap {
    child: Child,
    address: SocketAddr,
    report: PathBuf,
    transcript: PathBuf,
}

impl Tap {
    fn start(dir: &Path, upstream: SocketAddr, callgrind: Option<&Path>) -> Result<Self, Error> {
        let report = dir.join("report.ndjson");
        let transcript = dir.join("transcript.ndjson");
        let _ = std::fs::remove_file(&report);
        let toolcall = env!("CARGO_BIN_EXE_toolcall");
        let mut command = match callgrind {
            Some(out) => {
                let mut command = Command::new("valgrind");
                command
                    .arg("--tool=callgrind")
                    .arg(format!("--callgrind-out-file={}", out.display()))
                    .arg("--quiet")
                    .arg(toolcall);
                command
            }
            None => Command::new(toolcall),
        };
        let child = command
            .args(["tap", "--listen", "127.0.0.1:0", "--upstream"])
            .arg(format!("http://{upstream}"))
            .arg("--transcript")
            .arg(&transcript)
            .arg("--report")
            .arg(&report)
            .args(["--format", "json"])
            .stdin(Stdio::null())
            .spawn()?;
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            if let Some(first) = std::fs::read_to_string(&report)
                .ok()
                .and_then(|t| t.lines().next().map(str::to_owned))
            {
                let record: Value = serde_json::from_str(&first)?;
                let address = record["address"].as_str().ok_or("no address")?.parse()?;
                return Ok(Self {
                    child,
                    address,
                    report,
                    transcript,
                });
            }
            if Instant::now() > deadline {
                return Err("the tap did not start".into());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// CPU seconds the tap process used so far (user + system), from /proc.
    fn cpu_seconds(&self) -> Option<f64> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).ok()?;
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        let ticks: f64 =
            fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
        Some(ticks / 100.0)
    }

    /// Stops it (SIGINT) and returns its report.
    fn stop(mut self) -> Result<Vec<Value>, Error> {
        Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()?;
        self.child.wait()?;
        Ok(std::fs::read_to_string(&self.report)?
            .lines()
            .map(serde_json::from_str)
            .collect::<Result<_, _>>()?)
    }
}

// ---------------------------------------------------------------------------------------------
// A keep-alive HTTP/1.1 client on a blocking socket (the same code for both paths).

struct Connection {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    host: String,
    session: Option<String>,
}

impl Connection {
    fn open(address: SocketAddr) -> Result<Self, Error> {
        let stream = TcpStream::connect(address)?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(Duration::from_secs(30)))?;
        Ok(Self {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
            host: address.to_string(),
            session: None,
        })
    }

    /// Sends `body` and reads the whole response: its status, `Mcp-Session-Id` and body.
    fn post(&mut self, body: &str) -> Result<(u16, Vec<u8>), Error> {
        let session = self
            .session
            .as_ref()
            .map(|s| format!("mcp-session-id: {s}\r\nmcp-protocol-version: 2025-11-25\r\n"))
            .unwrap_or_default();
        let request = format!(
            "POST /mcp HTTP/1.1\r\nhost: {}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n{session}content-length: {}\r\n\r\n{body}",
            self.host,
            body.len()
        );
        self.writer.write_all(request.as_bytes())?;
        let (status, headers) = self.head()?;
        if let Some(id) = headers.get("mcp-session-id") {
            self.session = Some(id.clone());
        }
        let length: usize = headers
            .get("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let mut answer = vec![0; length];
        self.reader.read_exact(&mut answer)?;
        Ok((status, answer))
    }

    fn head(&mut self) -> Result<(u16, std::collections::HashMap<String, String>), Error> {
        let mut line = String::new();
        self.reader.read_line(&mut line)?;
        let status = line.split(' ').nth(1).ok_or("no status")?.parse()?;
        let mut headers = std::collections::HashMap::new();
        loop {
            line.clear();
            self.reader.read_line(&mut line)?;
            if line == "\r\n" || line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_owned());
            }
        }
        Ok((status, headers))
    }

    /// Opens the event stream of `count` events and returns how long after its stamp each was
    /// read, in nanoseconds.
    fn events(&mut self, count: usize, gap_us: u64) -> Result<Vec<u64>, Error> {
        let request = format!(
            "GET /events?count={count}&gap_us={gap_us} HTTP/1.1\r\nhost: {}\r\naccept: text/event-stream\r\n{}\r\n",
            self.host,
            self.session
                .as_ref()
                .map(|s| format!("mcp-session-id: {s}\r\n"))
                .unwrap_or_default()
        );
        self.writer.write_all(request.as_bytes())?;
        let (status, _) = self.head()?;
        if status != 200 {
            return Err(format!("events: status {status}").into());
        }
        let mut delays = Vec::with_capacity(count);
        let mut line = String::new();
        while delays.len() < count {
            line.clear();
            if self.reader.read_line(&mut line)? == 0 {
                return Err("the event stream ended early".into());
            }
            // Chunked framing: the size lines are skipped; a `data:` line holds the stamp.
            if let Some(at) = line.find("\"data\":\"") {
                let now = epoch().elapsed().as_nanos();
                let rest = &line[at + 8..];
                let stamp: u128 = rest[..rest.find('"').ok_or("no stamp end")?].parse()?;
                delays.push(u64::try_from(now.saturating_sub(stamp))?);
            }
        }
        // Read the stream's end (the terminating chunk) so that the connection can be reused.
        loop {
            line.clear();
            if self.reader.read_line(&mut line)? == 0 || line == "0\r\n" {
                break;
            }
        }
        line.clear();
        self.reader.read_line(&mut line)?;
        Ok(delays)
    }
}

fn transcript_lines(path: &Path) -> usize {
    std::fs::read(path).map_or(0, |bytes| bytes.iter().filter(|b| **b == b'\n').count())
}

fn initialize(name: &str) -> String {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25",
        "capabilities": {}, "clientInfo": {"name": name, "version": "1"}}})
    .to_string()
}

fn call(id: usize) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "get-sum", "arguments": {"a": 2, "b": 3.5}}})
    .to_string()
}

// ---------------------------------------------------------------------------------------------
// Figures.

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

fn ms(nanos: u64) -> f64 {
    nanos as f64 / 1e6
}

struct Stats {
    median: u64,
    p99: u64,
}

fn stats(mut samples: Vec<u64>) -> Stats {
    samples.sort_unstable();
    Stats {
        median: percentile(&samples, 50.0),
        p99: percentile(&samples, 99.0),
    }
}

fn main() -> Result<(), Error> {
    // `cargo bench` passes `--bench`; nothing else is taken from the command line.
    let rounds = env_usize("ROUNDS", 20);
    let requests = env_usize("REQUESTS", 200);
    let callgrind = std::env::var_os("CALLGRIND").is_some();
    let _ = epoch();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("http_tap_bench");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let upstream = start_upstream()?;
    let tap = Tap::start(&dir, upstream, None)?;
    println!(
        "http_tap: upstream {upstream}, tap {} (pid {})",
        tap.address,
        tap.child.id()
    );

    // 1. Added latency per request.
    let mut direct = Connection::open(upstream)?;
    let mut tapped = Connection::open(tap.address)?;
    direct.post(&initialize("direct"))?;
    tapped.post(&initialize("tapped"))?;
    for id in 1..=100 {
        direct.post(&call(id))?;
        tapped.post(&call(id))?;
    }
    let mut direct_samples = Vec::with_capacity(rounds * requests);
    let mut tapped_samples = Vec::with_capacity(rounds * requests);
    let mut paired = Vec::with_capacity(rounds * requests);
    let cpu_before = tap.cpu_seconds();
    let mut id = 1000;
    for round in 0..rounds {
        for _ in 0..requests {
            id += 1;
            let body = call(id);
            let time = |connection: &mut Connection| -> Result<u64, Error> {
                let start = Instant::now();
                let (status, _) = connection.post(&body)?;
                let elapsed = u64::try_from(start.elapsed().as_nanos())?;
                if status != 200 {
                    return Err(format!("status {status}").into());
                }
                Ok(elapsed)
            };
            let (d, t) = if round % 2 == 0 {
                let d = time(&mut direct)?;
                (d, time(&mut tapped)?)
            } else {
                let t = time(&mut tapped)?;
                (time(&mut direct)?, t)
            };
            direct_samples.push(d);
            tapped_samples.push(t);
            paired.push(i64::try_from(t)? - i64::try_from(d)?);
        }
    }
    // The checking thread may be behind the relay: its CPU time counts once it has written
    // every message of the phase to the transcript.
    let messages = 2 * (1 + 100 + rounds * requests);
    let caught_up = Instant::now();
    while transcript_lines(&tap.transcript) < messages {
        if caught_up.elapsed() > Duration::from_secs(120) {
            return Err("checking did not catch up".into());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let behind = caught_up.elapsed();
    let cpu = tap
        .cpu_seconds()
        .zip(cpu_before)
        .map(|(after, before)| (after - before) / (rounds * requests) as f64);
    let d = stats(direct_samples);
    let t = stats(tapped_samples);
    paired.sort_unstable();
    let paired_median = paired[paired.len() / 2];
    println!(
        "latency: {} requests per side, {rounds} interleaved rounds",
        rounds * requests
    );
    println!(
        "  direct  median {:.3} ms  p99 {:.3} ms",
        ms(d.median),
        ms(d.p99)
    );
    println!(
        "  tap     median {:.3} ms  p99 {:.3} ms",
        ms(t.median),
        ms(t.p99)
    );
    println!(
        "  added   median {:.3} ms  p99 {:.3} ms  (median of paired differences {:.3} ms); ratio of medians {:.2}",
        ms(t.median.saturating_sub(d.median)),
        ms(t.p99.saturating_sub(d.p99)),
        paired_median as f64 / 1e6,
        t.median as f64 / d.median as f64
    );
    if let Some(cpu) = cpu {
        println!(
            "  tap CPU {:.1} us per request, relay and checking (user + system, /proc); checking \
             finished {:.0} ms after the last response",
            cpu * 1e6,
            behind.as_secs_f64() * 1e3
        );
    }

    // 2. Server-sent events: from the upstream's write to the client's read.
    let events = env_usize("EVENTS", 100);
    let mut direct_delays = Vec::new();
    let mut tapped_delays = Vec::new();
    for round in 0..rounds {
        if round % 2 == 0 {
            direct_delays.extend(direct.events(events, 2000)?);
            tapped_delays.extend(tapped.events(events, 2000)?);
        } else {
            tapped_delays.extend(tapped.events(events, 2000)?);
            direct_delays.extend(direct.events(events, 2000)?);
        }
    }
    let d = stats(direct_delays);
    let t = stats(tapped_delays);
    println!(
        "events: {} per side, 2 ms apart, {rounds} interleaved rounds",
        rounds * events
    );
    println!(
        "  direct  median {:.3} ms  p99 {:.3} ms",
        ms(d.median),
        ms(d.p99)
    );
    println!(
        "  tap     median {:.3} ms  p99 {:.3} ms",
        ms(t.median),
        ms(t.p99)
    );
    println!(
        "  added   median {:.3} ms  p99 {:.3} ms",
        ms(t.median.saturating_sub(d.median)),
        ms(t.p99.saturating_sub(d.p99))
    );
    drop(direct);
    drop(tapped);
    let report = tap.stop()?;
    let summary = report.last().ok_or("no summary")?;
    println!(
        "  the tap checked {} messages: {} ok, {} invalid, {} bytes not checked",
        summary["messages"], summary["ok"], summary["invalid"], summary["not_checked_bytes"]
    );
    if summary["invalid"] != 0 || summary["not_checked_bytes"] != 0 {
        return Err(format!("unexpected verdicts: {summary}").into());
    }

    // 3. 100 sessions at once, every verdict checked.
    sessions(&dir.join("sessions"), upstream, 100, 20)?;

    if callgrind {
        instructions(&dir.join("callgrind"), upstream, 2000)?;
    }
    Ok(())
}

/// `sessions` clients at once, each `calls` calls; every 7th call of a session (shifted by the
/// session's number) is invalid (`params` a number). Compares every verdict with the expected
/// one and with `toolcall validate`'s.
fn sessions(dir: &Path, upstream: SocketAddr, sessions: usize, calls: usize) -> Result<(), Error> {
    std::fs::create_dir_all(dir)?;
    let tap = Tap::start(dir, upstream, None)?;
    let address = tap.address;
    let start = Instant::now();
    let workers: Vec<_> = (0..sessions)
        .map(|n| {
            std::thread::spawn(move || -> Result<(), String> {
                let mut connection = Connection::open(address).map_err(|e| e.to_string())?;
                connection
                    .post(&initialize(&format!("c{n}")))
                    .map_err(|e| e.to_string())?;
                connection
                    .post(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
                    .map_err(|e| e.to_string())?;
                for id in 1..=calls {
                    let body = if (id + n) % 7 == 0 {
                        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": 7})
                            .to_string()
                    } else {
                        call(id)
                    };
                    connection.post(&body).map_err(|e| e.to_string())?;
                }
                Ok(())
            })
        })
        .collect();
    for worker in workers {
        worker.join().map_err(|_| "a session panicked")??;
    }
    let elapsed = start.elapsed();
    let transcript = tap.transcript.clone();
    let report = tap.stop()?;
    let lines: Vec<Value> = std::fs::read_to_string(&transcript)?
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?;
    let mut wrong = 0;
    let mut checked = 0;
    let mut session_numbers = std::collections::HashSet::new();
    for record in report.iter().filter(|r| r["event"] == "message") {
        let line = record["line"].as_u64().ok_or("no line")? as usize;
        let message = &lines[line - 1]["message"];
        session_numbers.insert(record["session"].to_string());
        let planted = message["params"] == json!(7);
        let expected = if planted { "invalid" } else { "ok" };
        checked += 1;
        if record["verdict"] != expected {
            wrong += 1;
            println!("  wrong verdict at line {line}: {record}");
        }
    }
    let validate = Command::new(env!("CARGO_BIN_EXE_toolcall"))
        .args(["validate", "--format", "json"])
        .arg(&transcript)
        .output()?;
    let validated: Vec<Value> = String::from_utf8(validate.stdout)?
        .lines()
        .map(serde_json::from_str::<Value>)
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .filter(|r| r.get("verdict").is_some())
        .collect();
    let disagreements = report
        .iter()
        .filter(|r| r["event"] == "message")
        .zip(&validated)
        .filter(|(tap, validate)| {
            tap["verdict"] != validate["verdict"] || tap["line"] != validate["line"]
        })
        .count();
    let expected_messages = sessions * (calls * 2 + 3);
    println!(
        "sessions: {sessions} at once, {checked} messages in {:.2} s; {} sessions followed; wrong verdicts {wrong}; \
         disagreements with validate {disagreements} of {}",
        elapsed.as_secs_f64(),
        session_numbers.len(),
        validated.len()
    );
    if wrong > 0
        || disagreements > 0
        || checked != expected_messages
        || session_numbers.len() != sessions
    {
        return Err(format!(
            "{wrong} wrong verdicts, {disagreements} disagreements, {checked} of {expected_messages} messages, {} sessions",
            session_numbers.len()
        )
        .into());
    }
    Ok(())
}

/// The tap's instructions per request under callgrind (`requests` through one connection, less
/// the same run with none: start-up and shutdown).
fn instructions(dir: &Path, upstream: SocketAddr, requests: usize) -> Result<(), Error> {
    std::fs::create_dir_all(dir)?;
    let mut totals = Vec::new();
    for count in [0, requests] {
        let out = dir.join(format!("callgrind.{count}"));
        let tap = Tap::start(dir, upstream, Some(&out))?;
        let mut connection = Connection::open(tap.address)?;
        connection.post(&initialize("callgrind"))?;
        for id in 1..=count {
            connection.post(&call(id))?;
        }
        drop(connection);
        let _ = tap.stop()?;
        let text = std::fs::read_to_string(&out)?;
        let total: u64 = text
            .lines()
            .find_map(|l| {
                l.strip_prefix("totals: ")
                    .or_else(|| l.strip_prefix("summary: "))
            })
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .ok_or("no totals in the callgrind output")?;
        totals.push(total);
    }
    println!(
        "instructions: {} per request through the tap (callgrind; {requests} requests, start-up subtracted)",
        (totals[1] - totals[0]) / requests as u64
    );
    Ok(())
}
