//! What the end-to-end tests of the `toolcall` binary share.

use std::io::Write;
use std::path::Path;

/// The workspace root, where `examples/`, `tests/fixtures/` and `README.md` are.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the `toolcall` package is a folder of the workspace")
}
use std::process::{Command, Output, Stdio};

/// Runs `toolcall` with `args` from the workspace root, feeding `stdin`.
pub fn toolcall(args: &[&str], stdin: &[u8]) -> std::io::Result<Output> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolcall"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let written = child.stdin.take().expect("stdin is piped").write_all(stdin);
    // A command that refuses its arguments exits without reading its input: the pipe is then
    // closed before everything is written, and what it printed is what the test checks.
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e),
        _ => {}
    }
    child.wait_with_output()
}

/// `../shared/NAME` beside the checkout, or `None` after a notice when it is absent. Under CI
/// (the `CI` environment variable set) its absence is a failure, never a silent pass.
///
/// # Panics
/// When the folder is absent and `CI` is set.
pub fn shared(name: &str) -> Option<std::path::PathBuf> {
    let dir = root().join("../shared").join(name);
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
