//! Stage 1: read the schema files of one contract family from disk.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// One schema file, parsed.
#[derive(Debug, Clone)]
pub struct SchemaFile {
    /// Path as given (used in every error message).
    pub path: PathBuf,
    /// The parsed JSON document.
    pub value: Value,
    /// The file's text (numbers with every digit, for the run-time checks).
    pub text: String,
}

/// Why a schema file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read `{path}`: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not JSON.
    #[error("`{path}` is not JSON: {source}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The parse error (line and column).
        source: serde_json::Error,
    },
    /// The document is not a JSON Schema: neither an object nor a boolean.
    #[error("`{path}` is not a JSON Schema: its root is neither an object nor a boolean")]
    NotASchema {
        /// The file.
        path: PathBuf,
    },
}

/// Reads and parses one schema file: its root is a schema (an object or a boolean), whose
/// `$defs` (or, in an older draft, `definitions`) are the definitions generated, and which is
/// generated itself where the family asks (see [`crate::normalize::root`]).
///
/// # Errors
/// [`LoadError::Read`] when the file cannot be read, [`LoadError::Parse`] when it is not JSON,
/// [`LoadError::NotASchema`] when its root is neither an object nor a boolean.
pub fn load(path: &Path) -> Result<SchemaFile, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Read {
        path: path.to_owned(),
        source,
    })?;
    parse(path, text)
}

/// [`load`] of a file's text already read.
///
/// # Errors
/// [`LoadError::Parse`] and [`LoadError::NotASchema`], as [`load`].
pub fn parse(path: &Path, text: String) -> Result<SchemaFile, LoadError> {
    let value: Value = serde_json::from_str(&text).map_err(|source| LoadError::Parse {
        path: path.to_owned(),
        source,
    })?;
    if !value.is_object() && !value.is_boolean() {
        return Err(LoadError::NotASchema {
            path: path.to_owned(),
        });
    }
    Ok(SchemaFile {
        path: path.to_owned(),
        value,
        text,
    })
}
