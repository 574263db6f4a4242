//! What the end-to-end tests of the `toolcall` binary share.

use std::io::Write;

use std::process::{Command, Output, Stdio};
pub use toolcall_test_support::{root, shared};

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
