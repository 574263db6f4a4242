//! `toolcall tap` as a process: the relay loses and changes nothing, the child's exit status
//! and signals pass through, end of file on either side ends the run.
//!
//! The child in these tests is `tee FILE` (what it reads on stdin goes to FILE and back on its
//! stdout), so the bytes the client wrote can be compared with those the child received and
//! with those the client got back.

#![cfg(unix)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn tap(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_toolcall"));
    command.arg("tap").args(args);
    command
}

fn scratch(name: &str) -> std::io::Result<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("tap_relay")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// A small deterministic generator (xorshift64*), so that a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> usize {
        usize::try_from(self.next() % n).expect("small")
    }
}

/// About 7 MiB: ACP messages, text lines, lines with bytes that are not UTF-8, CRLF endings,
/// blank lines, a 3 MiB JSON line and a 1 MiB line without any structure (both over the
/// 1 MiB limit), and a last line without `\n`.
fn payload(rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    for i in 0..2400 {
        match i % 12 {
            0 => {
                let message = json!({"jsonrpc": "2.0", "method": "session/update", "params": {
                    "sessionId": "s", "update": {"sessionUpdate": "agent_message_chunk",
                    "content": {"type": "text", "text": format!("chunk {i} é ✓")}}}});
                out.extend_from_slice(message.to_string().as_bytes());
                out.push(b'\n');
            }
            1 => {
                out.extend_from_slice(b"\xff\xfe not utf-8 \xc3\x28\r\n");
            }
            2 => out.extend_from_slice(b"\n  \n"),
            _ => {
                let len = 200 + rng.below(3000);
                out.extend((0..len).map(|_| b' ' + u8::try_from(rng.below(94)).expect("small")));
                out.push(b'\n');
            }
        }
        if i == 1200 {
            let big = json!({"jsonrpc": "2.0", "method": "_x/blob", "params": {"data": "a".repeat(3 << 20)}});
            out.extend_from_slice(big.to_string().as_bytes());
            out.push(b'\n');
            out.extend(
                (0..(1 << 20) + (64 << 10))
                    .map(|_| u8::try_from(rng.below(256)).expect("byte"))
                    .filter(|&b| b != b'\n'),
            );
            out.push(b'\n');
        }
    }
    out.extend_from_slice(br#"{"jsonrpc":"2.0","method":"_x/last"}"#);
    out
}

/// The lines the tap frames (split at `\n`, trimmed, blank ones skipped), and how many are
/// over `limit` bytes.
fn lines_of(bytes: &[u8], limit: usize) -> (usize, usize) {
    let lines: Vec<&[u8]> = bytes
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .filter(|line| !line.is_empty())
        .collect();
    let over = lines.iter().filter(|line| line.len() > limit).count();
    (lines.len(), over)
}

fn wait_with_timeout(child: &mut Child, limit: Duration) -> std::io::Result<Option<ExitStatus>> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        thread::sleep(Duration::from_millis(20));
    }
    Ok(None)
}

#[test]
fn the_relay_loses_and_changes_nothing_in_a_large_fragmented_exchange() -> TestResult {
    let dir = scratch("exchange")?;
    let received = dir.join("received.bin");
    let transcript = dir.join("transcript.ndjson");
    let report = dir.join("report.ndjson");
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let sent = payload(&mut rng);
    assert!(sent.len() > 6 << 20, "{} bytes", sent.len());

    // A limit of 1 MiB, so that the payload's large messages are over it.
    let mut child = tap(&[
        "--max-bytes",
        "1048576",
        "--transcript",
        transcript.to_str().ok_or("path")?,
        "--format",
        "json",
        "--report",
        report.to_str().ok_or("path")?,
        "--",
        "tee",
        received.to_str().ok_or("path")?,
    ])
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::inherit())
    .spawn()?;
    let mut stdin = child.stdin.take().ok_or("stdin")?;
    let mut stdout = child.stdout.take().ok_or("stdout")?;
    let reader = thread::spawn(move || {
        let mut back = Vec::new();
        stdout.read_to_end(&mut back).map(|_| back)
    });
    // Pieces of 1 byte to 128 KiB, cut anywhere (inside UTF-8 sequences, between `\r` and
    // `\n`), each flushed, with short pauses now and then.
    let mut offset = 0;
    while offset < sent.len() {
        let size = match rng.below(4) {
            0 => 1 + rng.below(16),
            1 => 1 + rng.below(4096),
            _ => 1 + rng.below(128 * 1024),
        };
        let end = (offset + size).min(sent.len());
        stdin.write_all(&sent[offset..end])?;
        stdin.flush()?;
        if rng.below(8) == 0 {
            thread::sleep(Duration::from_millis(1));
        }
        offset = end;
    }
    drop(stdin);
    let back = reader.join().map_err(|_| "reader panicked")??;
    let status =
        wait_with_timeout(&mut child, Duration::from_secs(60))?.ok_or("tap did not exit")?;
    assert_eq!(status.code(), Some(0));

    let to_child = std::fs::read(&received)?;
    assert_eq!(to_child.len(), sent.len(), "bytes the child received");
    assert!(to_child == sent, "the child received other bytes");
    assert_eq!(back.len(), sent.len(), "bytes the client got back");
    assert!(back == sent, "the client got other bytes back");

    // Checked on the side: every line of both directions is in the transcript and the report.
    let (lines, over) = lines_of(&sent, 1 << 20);
    assert_eq!(over, 2);
    let records = std::fs::read_to_string(&transcript)?;
    let records: Vec<Value> = records
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?;
    assert_eq!(records.len(), 2 * lines);
    assert_eq!(
        records.iter().filter(|r| r["from"] == "client").count(),
        lines
    );
    assert_eq!(
        records
            .iter()
            .filter(|r| r.get("truncated").is_some())
            .count(),
        2 * over
    );
    assert!(records.iter().all(|r| r.get("not_checked_bytes").is_none()));
    let report = std::fs::read_to_string(&report)?;
    let summary: Value = serde_json::from_str(report.lines().last().ok_or("empty report")?)?;
    assert_eq!(summary["event"], "summary");
    assert_eq!(summary["messages"], 2 * lines);
    assert_eq!(summary["not_checked_bytes"], 0);
    assert_eq!(summary["exit"], json!({"code": 0, "signal": null}));
    let too_large = report
        .lines()
        .filter(|line| line.contains("over `max_bytes` of `1048576` bytes"))
        .count();
    assert_eq!(too_large, 2 * over);
    Ok(())
}

#[test]
fn the_childs_exit_status_is_the_taps() -> TestResult {
    let output = tap(&["--", "sh", "-c", "exit 3"])
        .stdin(Stdio::null())
        .output()?;
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.ends_with("toolcall tap: the child exited with status 3\n"),
        "{stderr}"
    );
    Ok(())
}

#[test]
fn the_childs_stderr_passes_through() -> TestResult {
    let output = tap(&[
        "--report",
        "/dev/null",
        "--",
        "sh",
        "-c",
        "echo to-stderr >&2; echo to-stdout",
    ])
    .stdin(Stdio::null())
    .output()?;
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(output.stdout, b"to-stdout\n");
    assert_eq!(output.stderr, b"to-stderr\n");
    Ok(())
}

#[test]
fn a_command_that_cannot_start_exits_127() -> TestResult {
    let output = tap(&["--", "/nonexistent/agent"])
        .stdin(Stdio::null())
        .output()?;
    assert_eq!(output.status.code(), Some(127));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("toolcall: cannot start `/nonexistent/agent`: "),
        "{stderr}"
    );
    Ok(())
}

#[test]
fn the_tap_ends_when_the_child_does_while_the_client_keeps_stdin_open() -> TestResult {
    let mut child = tap(&["--", "sh", "-c", "echo bye"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let _client_keeps_writing_end = child.stdin.take();
    let status = wait_with_timeout(&mut child, Duration::from_secs(20))?;
    if status.is_none() {
        child.kill()?;
    }
    assert_eq!(status.and_then(|s| s.code()), Some(0));
    let mut out = String::new();
    child
        .stdout
        .take()
        .ok_or("stdout")?
        .read_to_string(&mut out)?;
    assert_eq!(out, "bye\n");
    Ok(())
}

#[test]
fn end_of_file_from_the_client_closes_the_childs_stdin() -> TestResult {
    // `cat` ends only when its stdin does.
    let mut child = tap(&["--", "cat"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    child
        .stdin
        .take()
        .ok_or("stdin")?
        .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"_x\"}\n")?;
    let status = wait_with_timeout(&mut child, Duration::from_secs(20))?;
    if status.is_none() {
        child.kill()?;
    }
    assert_eq!(status.and_then(|s| s.code()), Some(0));
    Ok(())
}

#[test]
fn a_signal_to_the_tap_is_forwarded_to_the_child() -> TestResult {
    let mut child = tap(&[
        "--",
        "sh",
        "-c",
        "trap 'echo got-term; exit 9' TERM; echo ready; while :; do sleep 0.05; done",
    ])
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()?;
    let mut stdout = child.stdout.take().ok_or("stdout")?;
    let mut ready = [0_u8; 6];
    stdout.read_exact(&mut ready)?;
    assert_eq!(&ready, b"ready\n");
    let killed = Command::new("kill")
        .arg("-TERM")
        .arg(child.id().to_string())
        .status()?;
    assert!(killed.success());
    let status = wait_with_timeout(&mut child, Duration::from_secs(20))?;
    if status.is_none() {
        child.kill()?;
    }
    // The shell's trap ran (the child got the signal) and its status became the tap's.
    assert_eq!(status.and_then(|s| s.code()), Some(9));
    let mut rest = String::new();
    stdout.read_to_string(&mut rest)?;
    assert_eq!(rest, "got-term\n");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .ok_or("stderr")?
        .read_to_string(&mut stderr)?;
    assert!(
        stderr.ends_with("toolcall tap: the child exited with status 9\n"),
        "{stderr}"
    );
    Ok(())
}

#[test]
fn a_child_killed_by_a_signal_gives_128_plus_the_signal() -> TestResult {
    let output = tap(&["--", "sh", "-c", "kill -KILL $$"])
        .stdin(Stdio::null())
        .output()?;
    assert_eq!(output.status.code(), Some(128 + 9));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.ends_with("toolcall tap: the child was killed by signal 9\n"),
        "{stderr}"
    );
    Ok(())
}

/// Peak resident memory of a running process, in KiB (`VmHWM` in `/proc/PID/status`).
#[cfg(target_os = "linux")]
fn peak_rss_kib(pid: u32) -> Result<u64, Box<dyn std::error::Error>> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let line = status
        .lines()
        .find(|line| line.starts_with("VmHWM:"))
        .ok_or("no VmHWM")?;
    Ok(line.split_whitespace().nth(1).ok_or("no value")?.parse()?)
}

#[cfg(target_os = "linux")]
#[test]
fn memory_stays_bounded_with_a_message_far_over_the_limit() -> TestResult {
    let dir = scratch("memory")?;
    let report = dir.join("report.ndjson");
    let mut child = tap(&[
        "--max-bytes",
        "1048576",
        "--format",
        "json",
        "--report",
        report.to_str().ok_or("path")?,
        "--",
        "sh",
        "-c",
        "cat >/dev/null",
    ])
    .stdin(Stdio::piped())
    .stdout(Stdio::null())
    .stderr(Stdio::inherit())
    .spawn()?;
    let mut stdin = child.stdin.take().ok_or("stdin")?;
    // One 96 MiB message, written in 1 MiB pieces with a pause after each, so that the
    // checking thread keeps up on an idle machine (what is measured is what a message costs,
    // not the backlog, which is bounded anyway).
    let piece = vec![b'x'; 1 << 20];
    let (head, tail) = (
        &br#"{"jsonrpc":"2.0","method":"_x","params":""#[..],
        &br#""}"#[..],
    );
    stdin.write_all(head)?;
    for _ in 0..96 {
        stdin.write_all(&piece)?;
        thread::sleep(Duration::from_millis(5));
    }
    stdin.write_all(tail)?;
    stdin.write_all(b"\n")?;
    stdin.flush()?;
    thread::sleep(Duration::from_millis(300));
    let peak = peak_rss_kib(child.id())?;
    drop(stdin);
    let status =
        wait_with_timeout(&mut child, Duration::from_secs(60))?.ok_or("tap did not exit")?;
    assert_eq!(status.code(), Some(0));
    println!("peak resident memory of the tap: {peak} KiB");
    // Bounded by the backlog, not by the message: about 20 MiB when checking keeps up, and
    // up to `BACKLOG_BYTES` (16 MiB) more when its thread, below the relay, falls behind on a
    // busy machine; a tap that held the message would need 96 MiB.
    let bound = 20 * 1024 + toolcall_traffic::tap::BACKLOG_BYTES / 1024 + 8 * 1024;
    assert!(
        peak < u64::try_from(bound)?,
        "peak resident memory {peak} KiB for a 96 MiB message"
    );
    let report = std::fs::read_to_string(&report)?;
    let summary: Value = serde_json::from_str(report.lines().last().ok_or("empty report")?)?;
    assert_eq!(summary["messages"], 1);
    assert_eq!(summary["over_limit"], 1);
    // Not asserted: that checking kept up. Its thread runs below the relay
    // (`lower_checking_priority`), so on a busy machine (this test beside the others) some of
    // the message may be relayed unchecked; the gap's newlines are known, so the message is
    // still one, over the limit, with its whole size.
    assert!(summary["not_checked_bytes"].as_u64() < Some(96 << 20));
    assert!(
        report.contains(&format!(
            "input is `{}` bytes, over `max_bytes` of `1048576` bytes",
            (96 << 20) + head.len() + tail.len()
        )),
        "{report}"
    );
    Ok(())
}
