//! A user's crate built from a schema, both ways the README shows: once with the module written
//! by `toolcall-codegen generate --schema ... --out ...`, once by a `build.rs` that runs
//! `toolcall_codegen::Builder` into `OUT_DIR`. The crates (`tests/user_crate/`) depend on
//! `toolcall-contracts`, `serde` and `serde_json` only (and the build script on
//! `toolcall-codegen`); each is copied under `target/tmp/`, built offline with warnings denied
//! into one shared target directory, and its program run: it decodes an order, encodes it back
//! to the same JSON value and prints where a wrong order is refused.

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

/// Writes `edit(text of from)` to `to` unless it already holds it, so that cargo does not
/// rebuild.
fn copy_if_changed(from: &Path, to: &Path, edit: impl Fn(&str) -> String) {
    let text =
        edit(&std::fs::read_to_string(from).unwrap_or_else(|e| panic!("{}: {e}", from.display())));
    if std::fs::read_to_string(to).ok().as_deref() != Some(text.as_str()) {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, text).unwrap();
    }
}

/// Builds the crate in `dir` offline into the shared target directory and runs its program.
fn build_and_run(dir: &Path) -> String {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("user-crates-target");
    let started = Instant::now();
    let output = Command::new(cargo)
        .args(["run", "--offline", "--quiet", "--bin", "orders"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo starts");
    println!(
        "cargo run in {}: {:.1} s",
        dir.display(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        output.status.success(),
        "cargo run failed in {}:\n{}",
        dir.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn a_crate_with_the_module_the_command_writes_builds_and_round_trips() {
    let scratch = scratch();
    // Written beside the crate, then copied in when it differs, so that cargo does not rebuild.
    let out = scratch.join("orders.generated.rs");
    let status = Command::new(env!("CARGO_BIN_EXE_toolcall-codegen"))
        .args(["generate", "--schema", "orders.schema.json", "--out"])
        .arg(&out)
        .current_dir(&scratch)
        .output()
        .expect("toolcall-codegen starts");
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
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
