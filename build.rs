//! Build script. By default it only declares what it reads. With the `codegen-check` feature it
//! runs the pipeline into `OUT_DIR` and fails the build when the committed `generated/` is stale.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    #[cfg(feature = "codegen-check")]
    codegen_check();
}

#[cfg(feature = "codegen-check")]
fn codegen_check() {
    use std::path::PathBuf;
    println!("cargo::rerun-if-changed=schema");
    println!("cargo::rerun-if-changed=generated");
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    let outputs = match toolcall_codegen::repo::generate_all(&root) {
        Ok(outputs) => outputs,
        Err(error) => panic!("codegen pipeline failed: {error}"),
    };
    if let Err(error) = toolcall_codegen::repo::write(&out, &outputs) {
        panic!("cannot write into OUT_DIR: {error}");
    }
    let stale = toolcall_codegen::repo::stale(&root, &outputs);
    assert!(
        stale.is_empty(),
        "{stale:?} not up to date, run `{}`",
        toolcall_codegen::repo::GENERATE_COMMAND
    );
}
