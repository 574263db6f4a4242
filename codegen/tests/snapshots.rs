//! Snapshot tests, one directory per construct: `tests/<case>/schema.json` goes through the
//! pipeline the way a user's schema does (`toolcall-codegen generate --schema`, that is
//! [`toolcall_codegen::Builder`]) and must give `tests/<case>/expected.rs` byte for byte, or,
//! for a construct the pipeline refuses, the error in `tests/<case>/expected.err`.
//!
//! Check by default: a stale snapshot fails the test, naming [`REFRESH`], the one command that
//! writes them. The root crate's `tests/codegen/main.rs` compiles every `expected.rs` with
//! warnings denied and round-trips the instances in `tests/<case>/instances.json`.

use std::path::{Path, PathBuf};

/// The command that rewrites every snapshot from what the pipeline generates now.
const REFRESH: &str =
    "TOOLCALL_CODEGEN_SNAPSHOTS=write cargo test -p toolcall-codegen --test snapshots";

/// Every case directory (one holding a `schema.json`), sorted by name.
fn cases() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut cases: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .filter_map(Result::ok)
        .filter(|entry| entry.path().join("schema.json").is_file())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    cases
}

/// What the pipeline makes of a case now: `(file name, text)`, `expected.rs` when it generates
/// and `expected.err` when it refuses.
fn generate(case: &str) -> (&'static str, String) {
    // Relative to this package (the tests' working directory), so that the `@generated` line
    // is the same on every machine.
    let schema = PathBuf::from("tests").join(case).join("schema.json");
    match toolcall_codegen::Builder::new(&schema).generate() {
        Ok(text) => ("expected.rs", text),
        Err(error) => ("expected.err", format!("{error}\n")),
    }
}

#[test]
fn every_case_matches_its_snapshot() {
    let write = std::env::var("TOOLCALL_CODEGEN_SNAPSHOTS").is_ok_and(|v| v == "write");
    let cases = cases();
    assert!(cases.len() >= 20, "only {} cases found", cases.len());
    let mut stale = Vec::new();
    for case in &cases {
        let dir = Path::new("tests").join(case);
        let (name, text) = generate(case);
        let other = if name == "expected.rs" {
            "expected.err"
        } else {
            "expected.rs"
        };
        let current = std::fs::read_to_string(dir.join(name)).ok();
        let fresh = current.as_deref() == Some(text.as_str()) && !dir.join(other).exists();
        if fresh {
            continue;
        }
        if write {
            std::fs::write(dir.join(name), &text).unwrap();
            let _ = std::fs::remove_file(dir.join(other));
            println!("wrote {}", dir.join(name).display());
        } else {
            stale.push(format!("{case}/{name}"));
        }
    }
    assert!(
        stale.is_empty(),
        "stale snapshots: {}; run `{REFRESH}` and review the diff",
        stale.join(", ")
    );
}

/// Refusal cases: the pipeline names the definition and the JSON pointer, and nothing else of
/// the case is generated.
#[test]
fn refusals_name_the_definition_and_the_pointer() {
    let mut refused = 0;
    for case in cases() {
        let (name, text) = generate(&case);
        if case.starts_with("refuse_") {
            assert_eq!(name, "expected.err", "{case} generates");
            assert!(
                text.contains("definition `") && text.contains(" at `/"),
                "{case}: {text}"
            );
            refused += 1;
        } else {
            assert_eq!(name, "expected.rs", "{case} is refused: {text}");
        }
    }
    assert!(refused >= 3, "only {refused} refusal cases");
}
