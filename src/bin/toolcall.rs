//! `toolcall`: check real tool-call traffic against the contracts.
//!
//! `toolcall validate [--format text|json] FILE...` (`-` reads standard input). Exit status: 0
//! when no message is invalid, 1 when one is, 2 on a usage or I/O error.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use toolcall_contracts::traffic::{read_input, Checker, Status, Summary, Verdict};

#[derive(Parser)]
#[command(
    name = "toolcall",
    version,
    about = "Check tool-call traffic against the contracts"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate JSON or NDJSON messages (ACP JSON-RPC, route bodies, ACP fragments).
    Validate {
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Files to read, one message per line or one JSON document each; `-` is standard input.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// `FILE:LINE: <verdict> ...` lines, then the summary line.
    Text,
    /// One JSON object per message, then the summary object.
    Json,
}

/// One message of `--format json`.
#[derive(serde::Serialize)]
struct Record<'a> {
    file: &'a str,
    line: usize,
    #[serde(flatten)]
    verdict: &'a Verdict,
}

fn main() -> ExitCode {
    let Command::Validate { format, files } = Cli::parse().command;
    match validate(format, &files) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("toolcall: cannot write the output: {error}");
            ExitCode::from(2)
        }
    }
}

fn validate(format: Format, files: &[PathBuf]) -> io::Result<ExitCode> {
    let checker = match Checker::new() {
        Ok(checker) => checker,
        Err(error) => {
            eprintln!("toolcall: {}", chain(&error));
            return Ok(ExitCode::from(2));
        }
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut summary = Summary::default();
    let mut unreadable = false;
    for path in files {
        let content = match read_input(path) {
            Ok(content) => content,
            Err(error) => {
                out.flush()?;
                eprintln!("toolcall: {}", chain(&error));
                unreadable = true;
                continue;
            }
        };
        let file = path.to_string_lossy();
        for checked in checker.check_input(&content) {
            summary.add(&checked.verdict);
            match format {
                Format::Text => print_text(&mut out, &file, checked.line, &checked.verdict)?,
                Format::Json => {
                    let record = Record {
                        file: &file,
                        line: checked.line,
                        verdict: &checked.verdict,
                    };
                    writeln!(out, "{}", serde_json::to_string(&record)?)?;
                }
            }
        }
    }
    match format {
        Format::Text => writeln!(out, "{summary}")?,
        Format::Json => writeln!(out, "{}", serde_json::to_string(&summary)?)?,
    }
    out.flush()?;
    Ok(if unreadable {
        ExitCode::from(2)
    } else if summary.invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn print_text(out: &mut impl Write, file: &str, line: usize, verdict: &Verdict) -> io::Result<()> {
    match &verdict.status {
        Status::Ok => writeln!(out, "{file}:{line}: ok {}", verdict.kind),
        Status::Lenient => {
            writeln!(out, "{file}:{line}: lenient {}", verdict.kind)?;
            for leniency in &verdict.report {
                writeln!(
                    out,
                    "  {} {}: {}",
                    leniency.kind,
                    leniency.pointer,
                    sorted_keys(&leniency.raw)
                )?;
            }
            Ok(())
        }
        Status::Invalid { pointer, message } => {
            writeln!(out, "{file}:{line}: invalid {pointer}: {message}")
        }
    }
}

/// `value` with object members in name order, so the output does not depend on whether
/// serde_json keeps input order (its `preserve_order` feature).
fn sorted_keys(value: &serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            serde_json::Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.clone(), sorted_keys(v)))
                    .collect(),
            )
        }
        serde_json::Value::Array(items) => {
            serde_json::Value::Array(items.iter().map(sorted_keys).collect())
        }
        other => other.clone(),
    }
}

/// `error` and its sources, joined with `: `.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
