//! A user's crate built from a schema, both ways the README shows: once with the module written
//! by `toolcall-codegen generate --schema ... --out ...`, once by a `build.rs` that runs
//! `toolcall_codegen::Builder` into `OUT_DIR`. The crates (`tests/user_crate/`) depend on
//! `toolcall-contracts`, `serde` and `serde_json` only (and the build script on
//! `toolcall-codegen`); each is copied under `target/tmp/`, built offline with warnings denied
//! into one shared target directory, and its program run: it decodes an order, encodes it back
//! to the same JSON value and prints where a wrong order is refused. The official MCP schema
//! (`../shared/mcp-schemas/2026-07-28/schema.json`) goes through the command as published and
//! builds in a crate of its own there too (skipped, with a notice, without `../shared`).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

/// What both programs print.
const OUTPUT: &str = r#"order o-1 paid by card 4242, 2 lines
encoded back: {"id":"o-1","status":"paid","lines":[{"sku":"tea","quantity":2,"price":4.5},{"sku":"mug","quantity":1,"price":12}],"payment":{"method":"card","last4":"4242"},"note":null,"tags":{"channel":"web"},"giftWrap":true}
refused at `/lines/0/quantity`: `0` is less than the minimum `1`
"#;

/// Copies `tests/user_crate/` to a scratch directory (once per run), with the crates' relative
/// paths to this workspace made absolute and the workspace's lock file beside each crate, so
/// that they resolve offline.
fn scratch() -> PathBuf {
    static SCRATCH: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    SCRATCH.get_or_init(copy_scratch).clone()
}

fn copy_scratch() -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/user_crate");
    let to = Path::new(env!("CARGO_TARGET_TMPDIR")).join("user-crates");
    let root = workspace();
    for file in [
        "orders.schema.json",
        "program.rs",
        "command/src/lib.rs",
        "build_script/build.rs",
        "build_script/src/lib.rs",
    ] {
        copy_if_changed(&from.join(file), &to.join(file), |text| text.to_owned());
    }
    for (krate, relative) in [("command", "../../../.."), ("build_script", "../../../..")] {
        copy_if_changed(
            &from.join(krate).join("Cargo.toml"),
            &to.join(krate).join("Cargo.toml"),
            |text| {
                text.replace(
                    &format!("path = \"{relative}\""),
                    &format!("path = {:?}", root.display().to_string()),
                )
                .replace(
                    "path = \"../../..\"",
                    &format!("path = {:?}", root.join("codegen").display().to_string()),
                )
            },
        );
        let lock = to.join(krate).join("Cargo.lock");
        if !lock.exists() {
            std::fs::copy(root.join("Cargo.lock"), lock).unwrap();
        }
    }
    to
}

/// Writes `text` to `to` unless it already holds it, so that cargo does not rebuild.
fn write_if_changed(to: &Path, text: &str) {
    if std::fs::read_to_string(to).ok().as_deref() != Some(text) {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, text).unwrap();
    }
}

/// Writes `edit(text of from)` to `to` unless it already holds it.
fn copy_if_changed(from: &Path, to: &Path, edit: impl Fn(&str) -> String) {
    let text =
        edit(&std::fs::read_to_string(from).unwrap_or_else(|e| panic!("{}: {e}", from.display())));
    write_if_changed(to, &text);
}

/// Runs `toolcall-codegen generate <args>` in `dir`.
fn generate_in(dir: &Path, args: &[&OsStr]) {
    let output = Command::new(env!("CARGO_BIN_EXE_toolcall-codegen"))
        .arg("generate")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("toolcall-codegen starts");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Runs `cargo <args> --offline --quiet` in `dir`, into the target directory every crate here
/// shares, and returns what it printed.
fn cargo_in(dir: &Path, args: &[&str]) -> String {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("user-crates-target");
    let started = Instant::now();
    let output = Command::new(cargo)
        .args(args)
        .args(["--offline", "--quiet"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", &target)
        // A scratch build: no debuginfo and no incremental state, to keep the disk it takes small.
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo starts");
    println!(
        "cargo {} in {}: {:.1} s",
        args.join(" "),
        dir.display(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        output.status.success(),
        "cargo {} failed in {}:\n{}",
        args.join(" "),
        dir.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Builds the crate in `dir` and runs its program.
fn build_and_run(dir: &Path) -> String {
    cargo_in(dir, &["run", "--bin", "orders"])
}

#[test]
fn a_crate_with_the_module_the_command_writes_builds_and_round_trips() {
    let scratch = scratch();
    // Written beside the crate, then copied in when it differs, so that cargo does not rebuild.
    let out = scratch.join("orders.generated.rs");
    generate_in(
        &scratch,
        &[
            "--schema".as_ref(),
            "orders.schema.json".as_ref(),
            "--out".as_ref(),
            out.as_os_str(),
        ],
    );
    let module = std::fs::read_to_string(&out).unwrap();
    assert!(
        module.starts_with("// @generated by toolcall-codegen ")
            && module.contains("from `orders.schema.json`"),
        "{}",
        module.lines().next().unwrap_or_default()
    );
    copy_if_changed(&out, &scratch.join("command/src/orders.rs"), str::to_owned);
    assert_eq!(build_and_run(&scratch.join("command")), OUTPUT);
}

#[test]
fn a_crate_whose_build_script_runs_the_builder_builds_and_round_trips() {
    let scratch = scratch();
    assert_eq!(build_and_run(&scratch.join("build_script")), OUTPUT);
}

/// The official MCP schema (`../shared/mcp-schemas/2026-07-28/schema.json`, 155 definitions),
/// as it is published, through the command into a user's crate that builds with warnings denied.
#[test]
fn the_official_mcp_schema_generates_whole_and_builds_in_a_user_crate() {
    let schema = workspace().join("../shared/mcp-schemas/2026-07-28/schema.json");
    if !schema.is_file() {
        println!("{} is absent: skipped", schema.display());
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("user-crates/mcp");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("mcp.generated.rs");
    generate_in(
        &dir,
        &[
            "--forward-compatible".as_ref(),
            "--schema".as_ref(),
            schema.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ],
    );
    copy_if_changed(&out, &dir.join("src/mcp.rs"), str::to_owned);
    write_if_changed(
        &dir.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"mcp-by-command\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
             publish = false\n\n[workspace]\n\n[dependencies]\n\
             toolcall-contracts = {{ path = {:?} }}\nserde = \"1\"\nserde_json = \"1\"\n",
            workspace().display().to_string()
        ),
    );
    write_if_changed(
        &dir.join("src/lib.rs"),
        "//! The official MCP 2026-07-28 schema's types.\n#![deny(warnings)]\n\npub mod mcp;\n",
    );
    if !dir.join("Cargo.lock").exists() {
        std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    }
    cargo_in(&dir, &["build"]);
}

/// A crate `name` holding the module `toolcall-codegen generate` writes for `schema` (after
/// `edit`), on `toolcall-contracts` without features; builds it and returns whether it built
/// and the error lines of its own module (`--message-format=short`), with the whole stderr.
fn build_module_crate(
    name: &str,
    schema: &str,
    edit: impl Fn(&str) -> String,
) -> (bool, Vec<String>, String) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("user-crates")
        .join(name);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    write_if_changed(&dir.join("schema.json"), schema);
    generate_in(
        &dir,
        &[
            "--schema".as_ref(),
            "schema.json".as_ref(),
            "--out".as_ref(),
            dir.join("module.rs").as_os_str(),
        ],
    );
    copy_if_changed(&dir.join("module.rs"), &dir.join("src/module.rs"), edit);
    write_if_changed(
        &dir.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
             publish = false\n\n[workspace]\n\n[dependencies]\n\
             toolcall-contracts = {{ path = {:?} }}\nserde = \"1\"\nserde_json = \"1\"\n",
            workspace().display().to_string()
        ),
    );
    write_if_changed(&dir.join("src/lib.rs"), "pub mod module;\n");
    if !dir.join("Cargo.lock").exists() {
        std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["build", "--offline", "--quiet", "--message-format=short"])
        .current_dir(&dir)
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("user-crates-target"),
        )
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo starts");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let own = stderr
        .lines()
        .filter(|l| l.contains("src/module.rs") && l.contains("error"))
        .map(str::to_owned)
        .collect();
    (output.status.success(), own, stderr)
}

/// A module that needs a feature of `toolcall-contracts` the user's crate does not turn on
/// fails to compile with one message per feature naming it (issue 22, item 12: it failed with
/// ``cannot find `Pattern` in `rt` ``), nothing from inside `rt`.
#[test]
fn a_module_needing_a_feature_that_is_off_names_the_feature() {
    let (built, errors, stderr) = build_module_crate(
        "features-off",
        r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
            "Code": {"type": "string", "pattern": "^[a-z]+$"},
            "Name": {"type": "string", "not": {"const": ""}}}}"#,
        str::to_owned,
    );
    assert!(!built, "builds without the features");
    let features = ["patterns", "checks"];
    for feature in features {
        let named = format!("turn on the feature `{feature}` of toolcall-contracts");
        assert!(
            errors.iter().any(|l| l.contains(&named)),
            "no error names `{feature}`:\n{stderr}"
        );
    }
    assert_eq!(
        errors.len(),
        features.len(),
        "one error per feature:\n{stderr}"
    );
}

/// A committed module generated for another version of the support code it calls (here: a
/// module from a future toolcall-codegen, for runtime 2) fails to compile with one message
/// naming both versions and what to do, not with errors deep inside `rt::` calls; its only
/// other error is the unresolved `rt` the message leaves behind on purpose.
#[test]
fn a_module_generated_for_another_runtime_names_both_versions() {
    let schema = r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
        "Order": {"type": "object", "properties": {"id": {"type": "string", "minLength": 1},
                  "lines": {"type": "array", "items": {"type": "integer", "minimum": 1}}},
                  "required": ["id"]}}}"#;
    let generated_for = format!("__toolcall_runtime!(1, \"{}\",", env!("CARGO_PKG_VERSION"));
    let (built, errors, stderr) = build_module_crate("runtime-same", schema, str::to_owned);
    assert!(
        built,
        "the module builds against its own runtime:\n{stderr}"
    );
    assert!(
        std::fs::read_to_string(
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("user-crates/runtime-same/module.rs")
        )
        .unwrap()
        .contains(&generated_for),
        "the module names the runtime it was generated for"
    );
    assert_eq!(errors, Vec::<String>::new());

    let (built, errors, stderr) = build_module_crate("runtime-other", schema, |module| {
        module.replace(&generated_for, "__toolcall_runtime!(2, \"0.2.0\",")
    });
    assert!(!built, "a module for runtime 2 builds against runtime 1");
    let message = "this module was generated by toolcall-codegen 0.2.0 for runtime 2 of \
                   toolcall-contracts, but toolcall-contracts 0.1.0 provides runtime 1";
    assert!(
        errors.iter().any(|l| l.contains(message)),
        "no error names both versions:\n{stderr}"
    );
    assert_eq!(
        errors.len(),
        2,
        "the message and the unresolved `rt` only:\n{stderr}"
    );
}
