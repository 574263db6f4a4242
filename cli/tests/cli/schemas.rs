//! `toolcall schemas`: `diff` (the lines and summary it prints, `--format json`, its exit status
//! on hand-made pairs, on consecutive MCP versions and on the published ACP releases, each
//! compared with what `toolcall_schema::diff` finds for the same files), `export` and
//! `list` (what `toolcall_contracts::bundle` builds).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};
use toolcall_contracts::bundle;
use toolcall_schema::diff::{diff_paths, Summary};

use crate::support::{root, shared};

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn pair(name: &str) -> (PathBuf, PathBuf) {
    let dir = root().join("tests/fixtures/schema_diff");
    (
        dir.join(format!("{name}.old.json")),
        dir.join(format!("{name}.new.json")),
    )
}

fn diff(args: &[&str], paths: &[&Path]) -> std::io::Result<Output> {
    Command::new(env!("CARGO_BIN_EXE_toolcall"))
        .args(["schemas", "diff"])
        .args(args)
        .args(paths)
        .output()
}

/// What the library finds for `old` → `new`, printed as the command prints it.
fn expected_text(old: &Path, new: &Path) -> Result<(String, i32), Box<dyn std::error::Error>> {
    let changes = diff_paths(old, new)?;
    let summary = Summary::of(&changes);
    let mut text: String = changes.iter().map(|c| format!("{c}\n")).collect();
    text.push_str(&format!("{summary}\n"));
    Ok((text, i32::from(summary.breaking > 0)))
}

#[test]
fn prints_lines_and_gates_on_breaking_changes() -> TestResult {
    let (old, new) = pair("became_required");
    let output = diff(&[], &[&old, &new])?;
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(output.stdout)?,
        "breaking /$defs/ToolCall/required: `kind` became required (old producer → new \
         consumer)\n1 change: 1 breaking, 0 additive, 0 cosmetic\n"
    );

    let (old, new) = pair("property_added_optional");
    assert_eq!(diff(&[], &[&old, &new])?.status.code(), Some(0));

    let (old, new) = pair("leniency_added");
    let output = diff(&["--format", "json"], &[&old, &new])?;
    assert_eq!(output.status.code(), Some(0));
    let lines = String::from_utf8(output.stdout)?
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<Vec<Value>, _>>()?;
    assert_eq!(
        lines,
        [
            json!({
                "classification": "additive",
                "pointer": "/$defs/ToolCall/properties/status/x-deserialize-default-on-error",
                "kind": "leniency_added",
                "what": "leniency `x-deserialize-default-on-error` added",
                "old_producer_new_consumer": "additive",
                "new_producer_old_consumer": "cosmetic",
            }),
            json!({
                "changes": 1,
                "breaking": 0,
                "additive": 1,
                "cosmetic": 0,
                "breaking_old_producer_new_consumer": 0,
                "breaking_new_producer_old_consumer": 0,
            }),
        ]
    );
    Ok(())
}

#[test]
fn usage_and_io_errors_exit_2() -> TestResult {
    let missing = root().join("tests/fixtures/schema_diff/missing.json");
    let (old, _) = pair("became_required");
    let output = diff(&[], &[&old, &missing])?;
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr)?;
    assert!(
        stderr.starts_with(&format!("toolcall: cannot read `{}`: ", missing.display())),
        "{stderr}"
    );
    assert_eq!(
        diff(&[], &[&old])?.status.code(),
        Some(2),
        "one path is a usage error"
    );
    let bundle = root().join("tests/fixtures/schema_diff/bundle/old");
    assert_eq!(diff(&[], &[&bundle, &old])?.status.code(), Some(2));
    Ok(())
}

/// Consecutive MCP versions: the command prints what the library finds, then the summary, and
/// exits 1 (each step breaks something).
#[test]
fn diffs_mcp_versions() -> TestResult {
    let path = |version: &str| root().join("schema/mcp").join(version).join("schema.json");
    let (old, new) = (path("2025-06-18"), path("2025-11-25"));
    let output = diff(&[], &[&old, &new])?;
    let (expected, code) = expected_text(&old, &new)?;
    assert_eq!(code, 1);
    assert_eq!(output.status.code(), Some(code));
    let stdout = String::from_utf8(output.stdout)?;
    assert_eq!(
        stdout.lines().last(),
        Some("234 changes: 90 breaking, 99 additive, 45 cosmetic")
    );
    assert_eq!(stdout, expected);
    Ok(())
}

/// The published ACP releases (`../shared/acp-schemas/`), each against the next, in text and
/// JSON.
#[test]
fn diffs_published_acp_releases() -> TestResult {
    let Some(dir) = shared("acp-schemas") else {
        return Ok(());
    };
    let releases = ["1.13.7", "1.16.0", "1.19.0", "1.20.0", "1.21.0"];
    for window in releases.windows(2) {
        let path = |release: &str| dir.join(format!("v{release}")).join("schema.json");
        let (old, new) = (path(window[0]), path(window[1]));
        let (expected, code) = expected_text(&old, &new)?;
        let text = diff(&[], &[&old, &new])?;
        assert_eq!(text.status.code(), Some(code), "v{}", window[1]);
        assert_eq!(String::from_utf8(text.stdout)?, expected);

        let json = diff(&["--format", "json"], &[&old, &new])?;
        assert_eq!(json.status.code(), Some(code), "v{}", window[1]);
        let changes = diff_paths(&old, &new)?;
        let stdout = String::from_utf8(json.stdout)?;
        assert_eq!(stdout.lines().count(), changes.len() + 1);
        for (line, change) in stdout.lines().zip(&changes) {
            assert_eq!(
                serde_json::from_str::<Value>(line)?,
                serde_json::to_value(change)?
            );
        }
    }
    Ok(())
}

/// Every file under `dir`, by its path relative to `dir` (with `/`), and its bytes.
fn read_tree(dir: &Path) -> std::io::Result<BTreeMap<String, Vec<u8>>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        for entry in std::fs::read_dir(&current)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(relative) = path.strip_prefix(dir) {
                let relative = relative.to_string_lossy().replace('\\', "/");
                out.insert(relative, std::fs::read(&path)?);
            }
        }
    }
    Ok(out)
}

/// `toolcall schemas export` writes what the library builds and prints each file's hash;
/// `toolcall schemas list` prints the root types.
#[test]
fn export_writes_the_library_bundle_and_list_the_root_types() -> TestResult {
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("schemas-export");
    let _ = std::fs::remove_dir_all(&scratch);
    let (cli, library) = (scratch.join("cli"), scratch.join("library"));
    let output = Command::new(env!("CARGO_BIN_EXE_toolcall"))
        .args(["schemas", "export"])
        .arg(&cli)
        .output()?;
    assert!(output.status.success(), "{output:?}");
    let bundle = bundle::export(&library)?;
    assert_eq!(read_tree(&cli)?, read_tree(&library)?);
    let printed = String::from_utf8(output.stdout)?;
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), bundle.files().len() + 1);
    for (line, file) in lines.iter().zip(bundle.files()) {
        assert_eq!(*line, format!("{}  {}", file.sha256, file.path));
    }
    assert!(lines[lines.len() - 1].ends_with("  index.json"));

    let output = Command::new(env!("CARGO_BIN_EXE_toolcall"))
        .args(["schemas", "list"])
        .output()?;
    assert!(output.status.success(), "{output:?}");
    let printed = String::from_utf8(output.stdout)?;
    let rows: Vec<Vec<&str>> = printed
        .lines()
        .map(|line| line.split_whitespace().collect())
        .collect();
    let expected: Vec<Vec<&str>> = bundle::ROOT_TYPES
        .iter()
        .map(|root| vec![root.name, root.file, root.pointer])
        .collect();
    assert_eq!(rows, expected);
    assert!(printed.starts_with(
        "route.ToolCallRequest          route/tool-call-request.schema.json  #/$defs/ToolCallRequest\n"
    ));
    Ok(())
}
