//! `toolcall tap` under load, against the same agent with no tap between (see BENCHMARKS.md).
//!
//! The agent is this binary (run with `TAP_BENCH_AGENT=1`): it answers `initialize`,
//! `session/new` and each `session/prompt` on its stdin; a prompt whose text is `ping` is
//! answered at once, one whose text is `burst BYTES RATE` first sends BYTES of `session/update`
//! notifications (RATE MB/s, 0 for as fast as the pipe takes them), then the answer. The burst
//! is typical tool-call traffic: the wire benchmark's tool calls (diffs, text content,
//! `rawInput`, `rawOutput`), each announced by a `tool_call` and then updated, with message
//! chunks between them; every call id is unique, so clean traffic has no tool-call problem.
//!
//! Measured, with and without the tap, in alternating rounds (`ROUNDS`, default 5):
//! - latency: `PINGS` (default 2000) prompt round trips, one at a time; the median of each
//!   round, and the median added by the tap;
//! - throughput: a burst of `BURST_MB` (default 200) MB as fast as it goes, the time until the
//!   answer arrives;
//! - a burst of the same size paced at `RATE` (default 100) MB/s: the share of bytes the tap
//!   left unchecked;
//!
//! and, from the tap's JSON report of each run: messages checked, bytes not checked, tool-call
//! problems (0 expected on this clean traffic), calls followed after a gap.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

#[path = "../../benches/wire/corpus.rs"]
#[allow(
    dead_code,
    unexpected_cfgs,
    reason = "the wire benchmark's corpus; only the notifications are used here"
)]
mod corpus;

fn main() {
    if std::env::var_os("TAP_BENCH_AGENT").is_some() {
        agent();
        return;
    }
    let rounds = env_number("ROUNDS", 5);
    let pings = env_number("PINGS", 2000);
    let burst = env_number("BURST_MB", 200) * 1_000_000;
    let rate = env_number("RATE", 100);
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tap_bench");
    std::fs::create_dir_all(&scratch).expect("scratch directory");
    let mut latency: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut throughput: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut paced = Vec::new();
    for round in 0..rounds {
        for tapped in [round % 2 == 1, round % 2 == 0] {
            let report = scratch.join(format!("report-{round}-{tapped}.ndjson"));
            let mut session = Session::start(tapped.then_some(&report));
            let rtt = session.pings(pings);
            let seconds = session.burst(burst, 0);
            session.end();
            let index = usize::from(tapped);
            latency[index].push(median(rtt));
            throughput[index].push(burst as f64 / seconds / 1e6);
            let label = if tapped { "tap   " } else { "direct" };
            print!(
                "round {round} {label}: round trip median {:6.1} µs, burst {:7.1} MB/s",
                latency[index].last().copied().unwrap_or_default(),
                throughput[index].last().copied().unwrap_or_default()
            );
            if tapped {
                let summary = Summary::read(&report, burst);
                println!("; {summary}");
            } else {
                println!();
            }
        }
        let report = scratch.join(format!("paced-{round}.ndjson"));
        let mut session = Session::start(Some(&report));
        let seconds = session.burst(burst, rate);
        session.end();
        let summary = Summary::read(&report, burst);
        println!(
            "round {round} tap paced at {rate} MB/s ({:.1} MB/s reached): {summary}",
            burst as f64 / seconds / 1e6
        );
        paced.push(summary);
    }
    let med = |values: &[f64]| median(values.to_vec());
    println!("\nmedians of {rounds} rounds:");
    println!(
        "  round trip: direct {:.1} µs, tap {:.1} µs: added {:.1} µs (per round: {})",
        med(&latency[0]),
        med(&latency[1]),
        med(&latency[1]) - med(&latency[0]),
        latency[1]
            .iter()
            .zip(&latency[0])
            .map(|(tap, direct)| format!("{:.1}", tap - direct))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "  burst: direct {:.1} MB/s, tap {:.1} MB/s: {:.2}x direct",
        med(&throughput[0]),
        med(&throughput[1]),
        med(&throughput[1]) / med(&throughput[0])
    );
    let shares: Vec<String> = paced
        .iter()
        .map(|summary| format!("{:.1} %", summary.unchecked_share() * 100.0))
        .collect();
    println!(
        "  paced at {rate} MB/s: unchecked {}; tool-call problems {}",
        shares.join(", "),
        paced
            .iter()
            .map(|summary| summary.lifecycle.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or_default()
}

/// The client's side of one connection to the agent, through the tap or not.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
    next_id: u64,
    line: String,
}

impl Session {
    fn start(report: Option<&PathBuf>) -> Self {
        let agent = std::env::current_exe().expect("this binary");
        let mut command = match report {
            Some(report) => {
                let mut command = Command::new(env!("CARGO_BIN_EXE_toolcall"));
                command
                    .args(["tap", "--format", "json", "--report"])
                    .arg(report)
                    .arg("--")
                    .arg(&agent);
                command
            }
            None => Command::new(&agent),
        };
        let mut child = command
            .env("TAP_BENCH_AGENT", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the agent starts");
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::with_capacity(1 << 20, child.stdout.take().expect("piped"));
        let mut session = Self {
            child,
            stdin,
            stdout,
            next_id: 0,
            line: String::new(),
        };
        session.call(
            "initialize",
            json!({"protocolVersion": 1, "clientCapabilities": {}}),
        );
        session.call("session/new", json!({"cwd": "/w", "mcpServers": []}));
        session
    }

    /// Sends a request and reads lines until its response; the bytes read.
    fn call(&mut self, method: &str, params: Value) -> usize {
        let id = self.next_id;
        self.next_id += 1;
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(self.stdin, "{request}").expect("the agent reads");
        self.stdin.flush().expect("the agent reads");
        let answer = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},");
        let mut bytes = 0;
        loop {
            self.line.clear();
            let read = self
                .stdout
                .read_line(&mut self.line)
                .expect("the agent writes");
            assert!(read > 0, "the agent ended early");
            bytes += read;
            if self.line.starts_with(&answer) {
                return bytes;
            }
        }
    }

    fn prompt(&mut self, text: &str) -> usize {
        self.call(
            "session/prompt",
            json!({"sessionId": "s", "prompt": [{"type": "text", "text": text}]}),
        )
    }

    /// Round trip times in µs.
    fn pings(&mut self, count: usize) -> Vec<f64> {
        (0..count)
            .map(|_| {
                let start = Instant::now();
                self.prompt("ping");
                start.elapsed().as_secs_f64() * 1e6
            })
            .collect()
    }

    /// Seconds until a burst of `bytes` at `rate` MB/s (0: unpaced) has arrived.
    fn burst(&mut self, bytes: usize, rate: usize) -> f64 {
        let start = Instant::now();
        let read = self.prompt(&format!("burst {bytes} {rate}"));
        assert!(read >= bytes, "{read} bytes read");
        start.elapsed().as_secs_f64()
    }

    fn end(mut self) {
        drop(self.stdin);
        let mut rest = Vec::new();
        let _ = self.stdout.read_to_end(&mut rest);
        let status = self.child.wait().expect("the agent ends");
        assert!(status.success(), "{status}");
    }
}

/// What the tap's JSON report says in its summary.
#[derive(Default)]
struct Summary {
    messages: u64,
    invalid: u64,
    lenient: u64,
    lifecycle: u64,
    not_checked_bytes: u64,
    hidden: u64,
    bytes: u64,
}

impl Summary {
    /// The summary of `report`, whose run carried a burst of `burst` bytes.
    fn read(report: &PathBuf, burst: usize) -> Self {
        let text = std::fs::read_to_string(report).expect("the tap's report");
        let mut summary = Self::default();
        for line in text.lines() {
            let Ok(event) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            match event["event"].as_str() {
                Some("hidden-by-gap") => summary.hidden += 1,
                Some("summary") => {
                    let number = |name: &str| event[name].as_u64().unwrap_or_default();
                    summary.messages = number("messages");
                    summary.invalid = number("invalid");
                    summary.lenient = number("lenient");
                    summary.lifecycle = number("lifecycle");
                    summary.not_checked_bytes = number("not_checked_bytes");
                }
                Some("lifecycle") => eprintln!("  {line}"),
                _ => {}
            }
        }
        summary.bytes = u64::try_from(burst).unwrap_or(u64::MAX);
        summary
    }

    fn unchecked_share(&self) -> f64 {
        if self.bytes == 0 {
            return 0.0;
        }
        self.not_checked_bytes as f64 / self.bytes as f64
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} messages checked, {} invalid, {} lenient, {} bytes not checked ({:.1} %), {} \
             tool-call problems, {} followed after a gap",
            self.messages,
            self.invalid,
            self.lenient,
            self.not_checked_bytes,
            self.unchecked_share() * 100.0,
            self.lifecycle,
            self.hidden
        )
    }
}

/// The agent: answers on stdout what arrives on stdin (see the module docs).
fn agent() {
    let unit = Unit::new();
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut repetition = 0_u32;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(request) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let id = request["id"].clone();
        let result = match request["method"].as_str() {
            Some("initialize") => {
                json!({"protocolVersion": 1, "agentCapabilities": {}, "authMethods": []})
            }
            Some("session/new") => json!({"sessionId": "s"}),
            Some("session/prompt") => {
                let text = request["params"]["prompt"][0]["text"]
                    .as_str()
                    .unwrap_or_default();
                if let Some(burst) = text.strip_prefix("burst ") {
                    let mut numbers = burst.split(' ').map(|n| n.parse::<usize>().unwrap_or(0));
                    let bytes = numbers.next().unwrap_or(0);
                    let rate = numbers.next().unwrap_or(0);
                    unit.send(&mut out, bytes, rate, &mut repetition);
                }
                json!({"stopReason": "end_turn"})
            }
            _ => continue,
        };
        let response = json!({"jsonrpc": "2.0", "id": id, "result": result});
        if writeln!(out, "{response}")
            .and_then(|()| out.flush())
            .is_err()
        {
            break;
        }
    }
}

/// About a megabyte of typical `session/update` traffic, written again and again with fresh
/// call ids.
struct Unit {
    /// The lines, each ending in `\n`; call ids start with `call_` (5 bytes, rewritten to
    /// `rNNNN` per repetition, the same length: [`rename`]).
    lines: Vec<Vec<u8>>,
}

impl Unit {
    fn new() -> Self {
        let notifications = corpus::notifications(200, corpus::SEED);
        let mut lines = Vec::new();
        // The calls announced and not ended yet: (session, call id).
        let mut open: Vec<(Value, String)> = Vec::new();
        let mut chunk = 0;
        for params in notifications {
            let mut params: Value = serde_json::from_slice(&params).expect("the corpus is JSON");
            let update = &mut params["update"];
            let kind = update["sessionUpdate"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            if kind == "tool_call" {
                let id = update["toolCallId"].as_str().unwrap_or_default().to_owned();
                open.push((params["sessionId"].clone(), id));
            } else {
                // An update of a call announced before, in its session (the corpus's ids are
                // all fresh, its sessions many).
                let Some((session, id)) = open.first().cloned() else {
                    continue;
                };
                let status = update["status"].as_str().unwrap_or_default();
                if matches!(status, "completed" | "failed") {
                    open.remove(0);
                }
                update["toolCallId"] = Value::String(id);
                params["sessionId"] = session;
            }
            lines.push(notification(&params));
            // Message chunks between tool calls, as agents stream their answer.
            for _ in 0..3 {
                chunk += 1;
                let text = format!("Looking at the next file ({chunk}): the \"tests\" pass.\n");
                lines.push(notification(&json!({"sessionId": params["sessionId"],
                    "update": {"sessionUpdate": "agent_message_chunk",
                               "content": {"type": "text", "text": text}}})));
            }
        }
        // The calls left open end, so that a repetition starts afresh.
        for (session, id) in open {
            lines.push(notification(&json!({"sessionId": session, "update": {
                "sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed"}})));
        }
        Self { lines }
    }

    /// Writes `bytes` (rounded up to a whole line) at `rate` MB/s (0: as fast as it goes).
    fn send(&self, out: &mut impl Write, bytes: usize, rate: usize, repetition: &mut u32) {
        let start = Instant::now();
        let mut sent = 0;
        while sent < bytes {
            *repetition += 1;
            let prefix = format!("r{:04}", *repetition % 10_000);
            for line in &self.lines {
                let mut line = line.clone();
                rename(&mut line, prefix.as_bytes());
                if out.write_all(&line).is_err() {
                    return;
                }
                sent += line.len();
                if rate > 0 {
                    let due = Duration::from_secs_f64(sent as f64 / (rate as f64 * 1e6));
                    if let Some(wait) = due.checked_sub(start.elapsed()) {
                        let _ = out.flush();
                        std::thread::sleep(wait);
                    }
                }
                if sent >= bytes {
                    break;
                }
            }
        }
        let _ = out.flush();
    }
}

fn notification(params: &Value) -> Vec<u8> {
    let mut line = json!({"jsonrpc": "2.0", "method": "session/update", "params": params})
        .to_string()
        .into_bytes();
    line.push(b'\n');
    line
}

/// Rewrites the `call_` that starts each call id of `line` (`"toolCallId":"call_...`) to
/// `prefix` (5 bytes); any other `call_`, such as the one in `"tool_call_update"`, stays.
fn rename(line: &mut [u8], prefix: &[u8]) {
    const ID: &[u8] = b"\"toolCallId\":\"call_";
    let mut at = 0;
    while let Some(found) = line[at..].windows(ID.len()).position(|window| window == ID) {
        let start = at + found + ID.len() - 5;
        line[start..start + 5].copy_from_slice(prefix);
        at = start + 5;
    }
}
