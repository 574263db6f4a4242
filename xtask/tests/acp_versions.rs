//! The pipeline on every published ACP schema release, and the exporter against one of them.
//!
//! - Every `schema.json` under `../shared/acp-schemas/v*/` (JSON Schema releases, versioned
//!   apart from the crate) goes through `toolcall_codegen::generate` as it is, with the ACP
//!   family's settings; the results become the modules of one scratch crate under `target/`,
//!   built with `cargo build --offline` and `#![deny(warnings)]`.
//! - The exporter run on crate `agent-client-protocol-schema` 1.7.0 gives the `$defs` of the
//!   published schema release v1.21.0 (needs crates.io or a warm cargo cache, as the exporter
//!   always does).
//!
//! Both need `../shared/acp-schemas/`: without it they print a notice and skip, and fail under
//! CI (the `CI` environment variable set).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::Value;
use toolcall_codegen::emit::paths::Runtime;
use toolcall_codegen::{families, load};
use xtask::acp_export;
use xtask::changelog::{RustApi, TypeKind};

/// What the pipeline makes of each published release: (release, `$defs`, structs, enums).
const RELEASES: &[(&str, usize, usize, usize)] = &[
    ("1.13.7", 135, 119, 28),
    ("1.16.0", 137, 121, 28),
    ("1.19.0", 142, 128, 29),
    ("1.20.0", 142, 128, 29),
    ("1.21.0", 170, 153, 38),
];

/// The workspace root (the library's manifest, `Cargo.lock`, `schema/`).
fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is a folder of the workspace")
}

/// `../shared/acp-schemas/`, or `None` after a notice when it is absent.
///
/// # Panics
/// When it is absent under CI.
fn published_dir() -> Option<PathBuf> {
    let dir = workspace().join("../shared/acp-schemas");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "`{}` is absent: CI runs with `../shared` beside the checkout",
        dir.display()
    );
    println!("notice: `{}` is absent; skipped", dir.display());
    None
}

fn module_name(release: &str) -> String {
    format!("v{}", release.replace('.', "_"))
}

/// Writes `text` unless the file already holds it, so that cargo does not rebuild.
fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }
}

#[test]
fn every_published_release_generates_and_compiles() {
    let Some(published) = published_dir() else {
        return;
    };
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("acp-versions");
    let src = scratch.join("src");
    std::fs::create_dir_all(&src).unwrap();
    // Modules of another crate: the support code is `::toolcall_contracts::__private`.
    let family = families::Family {
        runtime: Runtime::External,
        ..families::ACP.clone()
    };

    let mut failures = Vec::new();
    let mut modules = Vec::new();
    for &(release, defs, structs, enums) in RELEASES {
        let path = published.join(format!("v{release}")).join("schema.json");
        let file = load::load(&path).unwrap_or_else(|e| panic!("v{release}: {e}"));
        assert_eq!(
            file.value["$defs"].as_object().map(serde_json::Map::len),
            Some(defs),
            "v{release}: `$defs`"
        );
        let text = match toolcall_codegen::generate(std::slice::from_ref(&file), &family) {
            Ok(text) => text,
            Err(error) => {
                failures.push(format!("v{release}: {error}"));
                continue;
            }
        };
        let api = RustApi::parse(&text).unwrap_or_else(|e| panic!("v{release}: {e}"));
        println!("v{release}: {defs} definitions -> {}", api.describe());
        let counts = (api.count(TypeKind::Struct), api.count(TypeKind::Enum));
        if counts != (structs, enums) {
            failures.push(format!(
                "v{release}: (structs, enums) is {counts:?}, expected {:?}",
                (structs, enums)
            ));
        }
        let missing: Vec<&String> = file.value["$defs"]
            .as_object()
            .into_iter()
            .flat_map(serde_json::Map::keys)
            .filter(|name| !api.types.contains_key(*name))
            .collect();
        if !missing.is_empty() {
            failures.push(format!(
                "v{release}: definitions without a type: {missing:?}"
            ));
        }
        // Facts of every release: the tool-call types and the session update union.
        for (name, kind) in [
            ("ToolCall", TypeKind::Struct),
            ("ToolCallUpdate", TypeKind::Struct),
            ("SessionNotification", TypeKind::Struct),
            ("SessionUpdate", TypeKind::Enum),
            ("ToolKind", TypeKind::Enum),
        ] {
            let found = api.types.get(name).map(|t| t.kind);
            assert_eq!(found, Some(kind), "v{release}: `{name}`");
        }
        let module = module_name(release);
        write_if_changed(&src.join(format!("{module}.rs")), &text);
        modules.push(module);
    }
    write_if_changed(
        &scratch.join("Cargo.toml"),
        &format!(
            r#"# Scratch crate of toolcall-contracts' `xtask/tests/acp_versions.rs`: one module per published
# ACP schema release, generated by the pipeline.
[package]
name = "acp-versions-scratch"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
toolcall-contracts = {{ path = {:?} }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"
"#,
            workspace().display().to_string()
        ),
    );
    let mut lib = String::from(
        "//! One module per published ACP schema release (`xtask/tests/acp_versions.rs`).\n\
         #![deny(warnings)]\n",
    );
    for module in &modules {
        lib.push_str(&format!(
            "\npub mod {module} {{\n    include!(\"{module}.rs\");\n}}\n"
        ));
    }
    write_if_changed(&src.join("lib.rs"), &lib);
    // The workspace's lock file: the same dependency versions, resolvable offline.
    let lock = scratch.join("Cargo.lock");
    if !lock.exists() {
        std::fs::copy(workspace().join("Cargo.lock"), &lock).unwrap();
    }

    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("acp-versions-target");
    let started = Instant::now();
    let output = Command::new(cargo)
        .args(["build", "--offline", "--quiet"])
        .current_dir(&scratch)
        .env("CARGO_TARGET_DIR", &target)
        // A scratch build: no debuginfo and no incremental state, to keep the disk it takes small.
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env("CARGO_INCREMENTAL", "0")
        .output()
        .expect("cargo starts");
    let elapsed = started.elapsed();
    println!(
        "cargo build of {} modules: {:.1} s ({})",
        modules.len(),
        elapsed.as_secs_f64(),
        scratch.display()
    );
    assert!(
        output.status.success(),
        "cargo build failed in {}:\n{}",
        scratch.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn crate_1_7_0_exports_the_published_v1_21_0_schema() {
    let Some(published) = published_dir() else {
        return;
    };
    let path = published.join("v1.21.0").join("schema.json");
    let published: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();

    let started = Instant::now();
    let exported = acp_export::export(workspace(), "1.7.0")
        .unwrap_or_else(|e| panic!("export of crate 1.7.0 failed: {e}"));
    println!(
        "exported crate 1.7.0 in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    let (Some(ours), Some(theirs)) = (
        exported.schema["$defs"].as_object(),
        published["$defs"].as_object(),
    ) else {
        panic!("both documents have `$defs`");
    };
    let differing: Vec<&String> = ours
        .keys()
        .chain(theirs.keys())
        .filter(|name| ours.get(*name) != theirs.get(*name))
        .collect();
    assert!(
        differing.is_empty(),
        "`$defs` differ from v1.21.0: {differing:?}"
    );
    assert_eq!(ours.len(), 170);
    // The whole document is the same JSON value too; only its formatting differs (the
    // published file is pretty-printed with short arrays on one line).
    assert_eq!(exported.schema, published);
    println!(
        "crate 1.7.0: {} definitions, equal to schema release v1.21.0 as JSON; bytes {}",
        ours.len(),
        if exported.bytes == std::fs::read(&path).unwrap() {
            "equal"
        } else {
            "differ (formatting)"
        }
    );
}
