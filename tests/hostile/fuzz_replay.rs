//! Replays the committed fuzz corpus on stable Rust: every file under `fuzz/corpus/<target>/`
//! and `fuzz/artifacts-found/<target>/` through the target's body, the same code
//! `cargo fuzz run <target>` runs (`fuzz/targets/<target>.rs`, see `fuzz/README.md`).
//!
//! A body panics when a property fails; each file is replayed on its own and every failing file
//! is listed.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use crate::targets;

/// The files of `dir`, sorted by name (none when `dir` does not exist).
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

/// Runs `name`'s body over its corpus and found artifacts.
fn replay(name: &str) {
    let (_, run) = targets::TARGETS
        .iter()
        .find(|(target, _)| *target == name)
        .unwrap_or_else(|| panic!("no fuzz target `{name}`"));
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let corpus = files(&fuzz.join("corpus").join(name));
    assert!(
        !corpus.is_empty(),
        "no seed corpus in `fuzz/corpus/{name}/`"
    );
    let found = files(&fuzz.join("artifacts-found").join(name));
    let mut failures = Vec::new();
    for path in corpus.iter().chain(&found) {
        let data = std::fs::read(path).expect("readable corpus file");
        if panic::catch_unwind(AssertUnwindSafe(|| run(&data))).is_err() {
            failures.push(
                path.strip_prefix(&fuzz)
                    .unwrap_or(path)
                    .display()
                    .to_string(),
            );
        }
    }
    assert!(
        failures.is_empty(),
        "fuzz target `{name}` fails on {} of {} inputs (messages above):\n  fuzz/{}",
        failures.len(),
        corpus.len() + found.len(),
        failures.join("\n  fuzz/")
    );
}

#[test]
fn acp_session_notification() {
    replay("acp_session_notification");
}

#[test]
fn acp_tool_call_update() {
    replay("acp_tool_call_update");
}

#[test]
fn route_tool_call_request() {
    replay("route_tool_call_request");
}

#[test]
fn canonical_tool_spec() {
    replay("canonical_tool_spec");
}

#[test]
fn policy_compile_check() {
    replay("policy_compile_check");
}

#[test]
fn codegen_generate() {
    replay("codegen_generate");
}

#[test]
fn decode_simd_differential() {
    replay("decode_simd_differential");
}

#[test]
fn every_target_is_replayed() {
    let names: Vec<&str> = targets::TARGETS.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        names,
        [
            "acp_session_notification",
            "acp_tool_call_update",
            "route_tool_call_request",
            "canonical_tool_spec",
            "policy_compile_check",
            "codegen_generate",
            "decode_simd_differential",
        ]
    );
}
