//! `toolcall-codegen check`: whether this repository's `generated/` is what its `schema/` gives
//! now (what `cargo xtask check` and the contracts' `codegen-check` build run too).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn check(root: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolcall-codegen"))
        .args(["check", "--root"])
        .arg(root)
        .output()
        .expect("toolcall-codegen starts")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn check_passes_on_this_repository_and_names_a_stale_file() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let fresh = check(&workspace);
    assert!(
        fresh.status.success(),
        "{}",
        String::from_utf8_lossy(&fresh.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&fresh.stdout),
        "generated/ is up to date (8 files)\n"
    );
    // A copy whose `generated/route.rs` was edited by hand.
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("check-command");
    let _ = std::fs::remove_dir_all(&root);
    copy_dir(&workspace.join("schema"), &root.join("schema"));
    copy_dir(&workspace.join("generated"), &root.join("generated"));
    let route = root.join("generated/route.rs");
    let edited = std::fs::read_to_string(&route).unwrap() + "// edited by hand\n";
    std::fs::write(&route, edited).unwrap();
    let stale = check(&root);
    assert_eq!(stale.status.code(), Some(1));
    let said = String::from_utf8_lossy(&stale.stderr);
    assert!(
        said.starts_with("error: `generated/route.rs` not up to date with schema/; run `"),
        "{said}"
    );
}
