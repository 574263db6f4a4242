//! Writing generated files, or comparing them with what is committed.

use std::path::{Path, PathBuf};

/// The command that regenerates `generated/`.
pub const GENERATE_COMMAND: &str = "cargo xtask generate";

/// A generated file and where it belongs.
#[derive(Debug, Clone)]
pub struct Output {
    /// Path relative to the workspace root (`generated/acp.rs`).
    pub path: PathBuf,
    /// The file's text.
    pub text: String,
}

/// Why writing or checking failed.
#[derive(Debug, thiserror::Error)]
pub enum EmitError {
    /// A file could not be written.
    #[error("cannot write `{path}`: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// Writes every output under `root`.
///
/// # Errors
/// [`EmitError::Write`] when a file cannot be written.
pub fn write(root: &Path, outputs: &[Output]) -> Result<(), EmitError> {
    for output in outputs {
        let path = root.join(&output.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|source| EmitError::Write {
                path: parent.to_owned(),
                source,
            })?;
        }
        std::fs::write(&path, &output.text).map_err(|source| EmitError::Write { path, source })?;
    }
    Ok(())
}

/// The outputs whose committed file under `root` is missing or differs.
pub fn stale(root: &Path, outputs: &[Output]) -> Vec<PathBuf> {
    outputs
        .iter()
        .filter(|o| {
            std::fs::read_to_string(root.join(&o.path)).ok().as_deref() != Some(o.text.as_str())
        })
        .map(|o| o.path.clone())
        .collect()
}
