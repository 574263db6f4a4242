//! `toolcall tools project` and `toolcall convert --to acp`: the command-line face of
//! [`toolcall_contracts::hops`].

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use serde_json::{json, Value};
use toolcall_contracts::acp::{SessionId, ToolKind};
use toolcall_contracts::hops::acp_updates::{session_update_message, ToolKinds};
use toolcall_contracts::hops::names::{Alphabet, NameError, NameProjection, ToolRef};
use toolcall_contracts::hops::relay::Relay;
use toolcall_contracts::traffic::{read_input, split_messages};

/// `--alphabet` presets.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AlphabetArg {
    /// `a-z A-Z 0-9 _ -` (OpenAI, Anthropic and several MCP clients).
    Openai,
    /// `a-z A-Z 0-9 _ - .` (the canonical tool name).
    Canonical,
    /// `a-z A-Z 0-9 _ - . /` (MCP, SEP-986).
    Mcp,
}

/// `--format` of `tools project`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProjectFormat {
    /// `FROM -> TO (WHY; WHY)` lines, then a summary line.
    Text,
    /// One JSON array of `{"from", "to", "changes": [WHY...]}`.
    Json,
}

/// `--to` of `convert`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// ACP `session/update` notifications, one JSON-RPC notification per line.
    Acp,
}

/// One tool of `tools project --format json`.
#[derive(serde::Serialize)]
struct Row<'a> {
    from: &'a str,
    to: &'a str,
    changes: Vec<String>,
}

/// What `tools project` was asked.
pub struct Project<'a> {
    pub namespace: Option<&'a str>,
    pub max_len: usize,
    pub alphabet: AlphabetArg,
    pub chars: Option<&'a str>,
    pub format: ProjectFormat,
    pub file: &'a Path,
}

/// `toolcall tools project`. Exit status: 0, 1 when two tools cannot be told apart (a
/// collision the hash suffix does not resolve, a tool listed twice), 2 on a usage or I/O error.
pub fn project(args: &Project<'_>) -> io::Result<ExitCode> {
    let names = match read_tool_names(args.file) {
        Ok(names) => names,
        Err(message) => {
            eprintln!("toolcall: {message}");
            return Ok(ExitCode::from(2));
        }
    };
    let alphabet = match (args.chars, args.alphabet) {
        (Some(chars), _) => Alphabet::Custom(chars.chars().collect()),
        (None, AlphabetArg::Openai) => Alphabet::OpenAi,
        (None, AlphabetArg::Canonical) => Alphabet::Canonical,
        (None, AlphabetArg::Mcp) => Alphabet::Mcp,
    };
    let projection = NameProjection {
        alphabet,
        ..NameProjection::openai().with_max_len(args.max_len)
    };
    let tools: Vec<ToolRef> = names
        .iter()
        .map(|name| ToolRef {
            namespace: args.namespace.map(str::to_owned),
            name: name.clone(),
        })
        .collect();
    let map = match projection.project(&tools) {
        Ok(map) => map,
        Err(error) => {
            eprintln!("toolcall: {error}");
            let code = match error {
                NameError::Collision { .. } | NameError::DuplicateTool { .. } => 1,
                _ => 2,
            };
            return Ok(ExitCode::from(code));
        }
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    match args.format {
        ProjectFormat::Json => {
            let rows: Vec<Row<'_>> = map
                .entries()
                .iter()
                .map(|entry| Row {
                    from: &entry.tool.name,
                    to: &entry.exposed,
                    changes: entry.changes.iter().map(ToString::to_string).collect(),
                })
                .collect();
            writeln!(out, "{}", serde_json::to_string(&rows)?)?;
        }
        ProjectFormat::Text => {
            for entry in map.entries() {
                write!(out, "{} -> {}", entry.tool.name, entry.exposed)?;
                if !entry.changes.is_empty() {
                    let changes: Vec<String> =
                        entry.changes.iter().map(ToString::to_string).collect();
                    write!(out, " ({})", changes.join("; "))?;
                }
                writeln!(out)?;
            }
            writeln!(
                out,
                "{} tools, {} names changed",
                map.entries().len(),
                map.changed().count()
            )?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The tool names of a `tools/list` result, a `tools/list` response, or an array of tools.
fn read_tool_names(file: &Path) -> Result<Vec<String>, String> {
    let content = read_input(file).map_err(|error| error.to_string())?;
    let value: Value = serde_json::from_slice(&content)
        .map_err(|error| format!("{}: not JSON: {error}", file.display()))?;
    let tools = match &value {
        Value::Array(tools) => tools,
        Value::Object(object) => object
            .get("tools")
            .or_else(|| object.get("result").and_then(|result| result.get("tools")))
            .and_then(Value::as_array)
            .ok_or_else(|| {
                format!(
                    "{}: neither a `tools/list` result (`tools`) nor an array of tools",
                    file.display()
                )
            })?,
        _ => return Err(format!("{}: not an array of tools", file.display())),
    };
    tools
        .iter()
        .enumerate()
        .map(|(index, tool)| {
            tool.get("name")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| format!("{}: tool {index} has no string `name`", file.display()))
        })
        .collect()
}

/// Parses `--kind TOOL=KIND` (an ACP tool kind: `read`, `edit`, `delete`, `move`, `search`,
/// `execute`, `think`, `fetch`, `switch_mode`, `other`).
pub fn parse_kind(text: &str) -> Result<(String, ToolKind), String> {
    let (tool, kind) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not TOOL=KIND"))?;
    // Decoding maps an unknown kind to `other` (ACP's leniency): only a name that encodes back
    // to itself is a kind.
    let parsed: Option<ToolKind> = serde_json::from_value(json!(kind)).ok();
    match parsed {
        Some(parsed) if serde_json::to_value(parsed).ok() == Some(json!(kind)) => {
            Ok((tool.to_owned(), parsed))
        }
        _ => Err(format!("`{kind}` is not an ACP tool kind")),
    }
}

/// `toolcall convert --to acp`. Exit status: 0, 2 on an I/O error.
pub fn convert(
    _target: Target,
    session_id: &str,
    kinds: &[(String, ToolKind)],
    file: &Path,
) -> io::Result<ExitCode> {
    let content = match read_input(file) {
        Ok(content) => content,
        Err(error) => {
            eprintln!("toolcall: {error}");
            return Ok(ExitCode::from(2));
        }
    };
    let kinds = kinds.iter().fold(ToolKinds::new(), |kinds, (tool, kind)| {
        kinds.with(tool, *kind)
    });
    let mut relay = Relay::new(SessionId::from(session_id), kinds);
    let mut out = io::BufWriter::new(io::stdout().lock());
    let messages = split_messages(&content);
    let mut updates = 0;
    for message in &messages {
        for notification in relay.push(message.line, message.text) {
            writeln!(out, "{}", session_update_message(&notification))?;
            updates += 1;
        }
    }
    out.flush()?;
    let notes = relay.finish();
    let mut err = io::stderr().lock();
    for note in &notes {
        writeln!(err, "toolcall convert: line {}: {}", note.line, note.change)?;
    }
    writeln!(
        err,
        "toolcall convert: {} messages, {updates} ACP updates, {} notes",
        messages.len(),
        notes.len()
    )?;
    Ok(ExitCode::SUCCESS)
}
