//! `toolcall tap --listen` as the tests run it: started on a free loopback port, its address read
//! from the report's first record, stopped with SIGINT as a user stops it.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A running HTTP tap.
pub struct HttpTap {
    child: Option<Child>,
    /// Where clients reach it.
    pub address: SocketAddr,
    pub report: PathBuf,
    pub transcript: PathBuf,
}

/// What a stopped tap left.
pub struct Stopped {
    pub status: ExitStatus,
    pub report: Vec<Value>,
    pub transcript: Vec<String>,
}

impl HttpTap {
    /// Starts `toolcall tap --listen 127.0.0.1:0 --upstream UPSTREAM --format json` with its
    /// transcript and report in `dir`, and `extra` arguments.
    pub fn start(dir: &Path, upstream: &str, extra: &[&str]) -> std::io::Result<Self> {
        let report = dir.join("report.ndjson");
        let transcript = dir.join("transcript.ndjson");
        let _ = std::fs::remove_file(&report);
        let child = Command::new(env!("CARGO_BIN_EXE_toolcall"))
            .args(["tap", "--listen", "127.0.0.1:0", "--upstream", upstream])
            .arg("--transcript")
            .arg(&transcript)
            .arg("--report")
            .arg(&report)
            .args(["--format", "json"])
            .args(extra)
            .stdin(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()?;
        let mut tap = Self {
            child: Some(child),
            address: "127.0.0.1:0".parse().expect("an address"),
            report,
            transcript,
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let first = std::fs::read_to_string(&tap.report)
                .ok()
                .and_then(|text| text.lines().next().map(str::to_owned));
            if let Some(first) = first {
                let record: Value = serde_json::from_str(&first)?;
                assert_eq!(record["event"], "listening", "{record}");
                tap.address = record["address"]
                    .as_str()
                    .and_then(|address| address.parse().ok())
                    .expect("the listening record names the address");
                return Ok(tap);
            }
            if let Some(status) = tap.child.as_mut().and_then(|c| c.try_wait().ok()).flatten() {
                panic!("the tap exited before listening: {status}");
            }
            assert!(Instant::now() < deadline, "the tap did not start listening");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// `http://ADDRESS` + `path`.
    #[allow(
        dead_code,
        reason = "the peers' tests use it, the scripted ones do not"
    )]
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// Stops it with SIGINT and reads what it wrote.
    pub fn stop(mut self) -> Result<Stopped, Box<dyn std::error::Error>> {
        let mut child = self.child.take().expect("running");
        let interrupted = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status();
        if !interrupted
            .as_ref()
            .is_ok_and(std::process::ExitStatus::success)
        {
            let _ = child.kill();
        }
        let status = child.wait()?;
        assert!(interrupted?.success(), "`kill -INT` failed");
        let report = std::fs::read_to_string(&self.report)?
            .lines()
            .map(serde_json::from_str)
            .collect::<Result<_, _>>()?;
        let transcript = std::fs::read_to_string(&self.transcript)?
            .lines()
            .map(str::to_owned)
            .collect();
        Ok(Stopped {
            status,
            report,
            transcript,
        })
    }
}

impl Drop for HttpTap {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The report's records of one kind (`event`).
pub fn events<'a>(report: &'a [Value], event: &str) -> Vec<&'a Value> {
    report.iter().filter(|r| r["event"] == event).collect()
}

/// The tap's verdicts (its `message` records without `event` and `session`) and `toolcall
/// validate --format json`'s on the transcript (without `file`): they must be equal.
pub fn verdicts(
    report: &[Value],
    transcript: &Path,
) -> Result<(Vec<Value>, Vec<Value>), Box<dyn std::error::Error>> {
    let strip = |record: &Value, members: &[&str]| {
        let mut record = record.clone();
        if let Some(object) = record.as_object_mut() {
            for member in members {
                object.remove(*member);
            }
        }
        record
    };
    let tapped = events(report, "message")
        .into_iter()
        .map(|record| strip(record, &["event", "session"]))
        .collect();
    let output = Command::new(env!("CARGO_BIN_EXE_toolcall"))
        .args(["validate", "--format", "json"])
        .arg(transcript)
        .output()?;
    let validated = String::from_utf8(output.stdout)?
        .lines()
        .map(serde_json::from_str::<Value>)
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .filter(|record| record.get("verdict").is_some())
        .map(|record| strip(&record, &["file"]))
        .collect();
    Ok((tapped, validated))
}
