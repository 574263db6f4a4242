//! `toolcall tools project` and `toolcall convert --to acp`: the command-line face of
//! [`toolcall_hops`].

use std::collections::BTreeSet;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use serde_json::{json, Value};
use toolcall_contracts::acp::{SessionId, ToolKind};
use toolcall_hops::acp_updates::{session_update_message, ToolKinds};
use toolcall_hops::names::{Alphabet, NameError, NameProjection, ToolRef};
use toolcall_hops::relay::Relay;
use toolcall_traffic::{read_input, split_messages, Checker, Message};

/// `--alphabet` presets.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AlphabetArg {
    /// `a-z A-Z 0-9 _ -` (OpenAI, Anthropic and several MCP clients).
    Openai,
    /// `a-z A-Z 0-9 _ - .` (the canonical tool name; MCP 2025-11-25's tool-name characters).
    Canonical,
    /// `a-z A-Z 0-9 _ - . /` (SEP-986 as proposed, with `/`).
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
    if args.namespace == Some("") {
        eprintln!("toolcall: `--namespace` must not be empty (leave it out for no namespace)");
        return Ok(ExitCode::from(2));
    }
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
            eprintln!("toolcall: {}", name_error(args.file, &tools, &error));
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
                write!(
                    out,
                    "{} -> {}",
                    text_name(&entry.tool.name),
                    text_name(&entry.exposed)
                )?;
                if !entry.changes.is_empty() {
                    let changes: Vec<String> =
                        entry.changes.iter().map(ToString::to_string).collect();
                    write!(out, " ({})", escape_controls(&changes.join("; ")))?;
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

/// A name in the text output: as is, or as a JSON string (quoted, escaped) when it could be
/// misread there: empty, a control character (a line break), ` -> `, ` (`, or a space or `"`
/// at either end.
fn text_name(name: &str) -> String {
    let misread = name.is_empty()
        || name.chars().any(char::is_control)
        || name.contains(" -> ")
        || name.contains(" (")
        || name.starts_with([' ', '"'])
        || name.ends_with([' ', '"']);
    if misread {
        Value::String(name.to_owned()).to_string()
    } else {
        name.to_owned()
    }
}

/// `text` with each control character (a line break, a character replaced in a name, a
/// namespace holding one) escaped as JSON escapes it, so that a tool's line stays one line.
fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return text.into();
    }
    text.chars()
        .map(|character| {
            if character.is_control() {
                let quoted = Value::String(character.to_string()).to_string();
                quoted[1..quoted.len() - 1].to_owned()
            } else {
                character.to_string()
            }
        })
        .collect::<String>()
        .into()
}

/// `FILE: ERROR`, with the index of each tool the error names in the list.
fn name_error(file: &Path, tools: &[ToolRef], error: &NameError) -> String {
    let at = |tool: &ToolRef| {
        tools
            .iter()
            .position(|other| other == tool)
            .map_or_else(String::new, |index| format!(" (tool {index})"))
    };
    let detail = match error {
        NameError::EmptyName { tool } | NameError::MaxLenTooShort { tool, .. } => {
            format!("{error}{}", at(tool))
        }
        NameError::Collision { first, second, .. } => {
            let second_index = tools
                .iter()
                .rposition(|other| other == second)
                .map_or_else(String::new, |index| format!(", {index}"));
            let first_index = tools
                .iter()
                .position(|other| other == first)
                .map_or_else(String::new, |index| index.to_string());
            format!("{error} (tools {first_index}{second_index})")
        }
        other => other.to_string(),
    };
    format!("{}: {detail}", file.display())
}

/// The tool names of a `tools/list` result, a `tools/list` response, or an array of tools.
fn read_tool_names(file: &Path) -> Result<Vec<String>, String> {
    let content = read_input(file).map_err(|error| crate::chain(&error))?;
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

/// `toolcall convert --to acp`. Exit status: 0; 1 when the input holds no message or none
/// gave an ACP update; 2 on a usage or I/O error (a `--kind` naming a tool twice, or a tool the
/// transcript never names).
pub fn convert(
    _target: Target,
    session_id: &str,
    kinds: &[(String, ToolKind)],
    file: &Path,
) -> io::Result<ExitCode> {
    let content = match read_input(file) {
        Ok(content) => content,
        Err(error) => {
            eprintln!("toolcall: {}", crate::chain(&error));
            return Ok(ExitCode::from(2));
        }
    };
    let messages = split_messages(&content);
    let named = tool_names(&messages);
    let mut seen = BTreeSet::new();
    for (tool, _) in kinds {
        if !seen.insert(tool.as_str()) {
            eprintln!("toolcall: `--kind` names tool `{tool}` twice");
            return Ok(ExitCode::from(2));
        }
        if !named.contains(tool.as_str()) {
            eprintln!(
                "toolcall: `--kind` names tool `{tool}`, which {} never calls or lists",
                file.display()
            );
            return Ok(ExitCode::from(2));
        }
    }
    let kinds = kinds.iter().fold(ToolKinds::new(), |kinds, (tool, kind)| {
        kinds.with(tool, *kind)
    });
    let mut relay = Relay::new(SessionId::from(session_id), kinds);
    let mut out = io::BufWriter::new(io::stdout().lock());
    let limits = Checker::DEFAULT_LIMITS;
    let mut limit_notes = Vec::new();
    let mut updates = 0;
    for message in &messages {
        for notification in relay.push(message.line, message.text) {
            let text = session_update_message(&notification).to_string();
            if let Err(error) = limits.check(text.as_bytes()) {
                limit_notes.push((
                    message.line,
                    format!(
                        "the ACP notification written is over `toolcall validate`'s default limits: {error}"
                    ),
                ));
            }
            writeln!(out, "{text}")?;
            updates += 1;
        }
    }
    out.flush()?;
    let mut notes: Vec<(usize, String)> = relay
        .finish()
        .into_iter()
        .map(|note| (note.line, note.change.to_string()))
        .collect();
    notes.extend(limit_notes);
    notes.sort_by_key(|(line, _)| *line);
    let mut err = io::stderr().lock();
    for (line, note) in &notes {
        writeln!(err, "toolcall convert: line {line}: {}", one_line(note))?;
    }
    writeln!(
        err,
        "toolcall convert: {} messages, {updates} ACP updates, {} notes",
        messages.len(),
        notes.len()
    )?;
    if messages.is_empty() {
        // Nothing converted is not a pass, as in `toolcall validate`.
        writeln!(
            err,
            "toolcall: {}: no message (the file is empty or blank)",
            file.display()
        )?;
        return Ok(ExitCode::from(1));
    }
    if updates == 0 {
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// `text` with each control character escaped (`\n`), so that a note stays on its line.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The tool names a transcript calls (`tools/call` params) or lists (`tools/list` results),
/// wrapped or bare.
fn tool_names(messages: &[Message<'_>]) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for message in messages {
        let Ok(value) = serde_json::from_slice::<Value>(message.text) else {
            continue;
        };
        let message = value.get("message").unwrap_or(&value);
        if let Some(name) = message.pointer("/params/name").and_then(Value::as_str) {
            if message.get("method").and_then(Value::as_str) == Some("tools/call") {
                names.insert(name.to_owned());
            }
        }
        let listed = message.pointer("/result/tools").and_then(Value::as_array);
        for tool in listed.into_iter().flatten() {
            if let Some(name) = tool.get("name").and_then(Value::as_str) {
                names.insert(name.to_owned());
            }
        }
    }
    names
}
