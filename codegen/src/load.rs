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
    /// The document root is neither an object with `$defs` (or draft-07 `definitions`) nor a
    /// schema with a shape of its own.
    #[error("`{path}` has no `$defs` (or `definitions`) object at its root, and its root schema has no shape of its own (`type`, `properties`, `oneOf`...)")]
    NoDefs {
        /// The file.
        path: PathBuf,
    },
}

/// Reads and parses one schema file; its root must carry a `$defs` object (or, in a draft-07
/// document, `definitions`), or be a schema with a shape of its own (generated as a definition
/// where the family asks, see [`crate::normalize::root`]).
///
/// # Errors
/// [`LoadError::Read`] when the file cannot be read, [`LoadError::Parse`] when it is not JSON,
/// [`LoadError::NoDefs`] when its root has neither.
pub fn load(path: &Path) -> Result<SchemaFile, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Read {
        path: path.to_owned(),
        source,
    })?;
    let value: Value = serde_json::from_str(&text).map_err(|source| LoadError::Parse {
        path: path.to_owned(),
        source,
    })?;
    let defs = value.get("$defs").or_else(|| value.get("definitions"));
    if !defs.is_some_and(Value::is_object) && crate::normalize::root::schema(&value).is_none() {
        return Err(LoadError::NoDefs {
            path: path.to_owned(),
        });
    }
    Ok(SchemaFile {
        path: path.to_owned(),
        value,
    })
}
