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
    /// A number of the document is past the range of a 64-bit float, which the pipeline reads
    /// a schema's numbers as (the document is JSON; the limit is the pipeline's).
    #[error("`{path}`: the number ending at line {line}, column {column} is past the range of a 64-bit float (about 1.8e308), which a schema's numbers are read as")]
    NumberOutOfRange {
        /// The file.
        path: PathBuf,
        /// 1-based line of the number.
        line: usize,
        /// 1-based column of its last character.
        column: usize,
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
/// [`LoadError::NumberOutOfRange`] for a number past a 64-bit float, [`LoadError::NotASchema`]
/// when its root is neither an object nor a boolean.
pub fn load(path: &Path) -> Result<SchemaFile, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Read {
        path: path.to_owned(),
        source,
    })?;
    parse(path, text)
}

/// Why the text of `path` did not parse as a schema document's JSON: a number past the range
/// the pipeline reads numbers in ([`LoadError::NumberOutOfRange`]), or not JSON at all.
pub(crate) fn not_json(path: &Path, source: serde_json::Error) -> LoadError {
    if source.to_string().starts_with("number out of range") {
        LoadError::NumberOutOfRange {
            path: path.to_owned(),
            line: source.line(),
            column: source.column(),
        }
    } else {
        LoadError::Parse {
            path: path.to_owned(),
            source,
        }
    }
}

/// [`load`] of a file's text already read.
///
/// # Errors
/// As [`load`], but for reading.
pub fn parse(path: &Path, text: String) -> Result<SchemaFile, LoadError> {
    let value: Value = serde_json::from_str(&text).map_err(|source| not_json(path, source))?;
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

#[cfg(test)]
mod tests {
    use super::{parse, LoadError};
    use std::path::Path;

    #[test]
    fn a_number_past_a_float_is_named_as_the_pipelines_limit_not_as_bad_json() {
        let text = "{\n  \"maximum\": 1e400\n}".to_owned();
        let error = parse(Path::new("big.json"), text).unwrap_err();
        assert!(
            matches!(error, LoadError::NumberOutOfRange { line: 2, .. }),
            "{error:?}"
        );
        assert_eq!(
            error.to_string(),
            "`big.json`: the number ending at line 2, column 18 is past the range of a 64-bit float (about 1.8e308), which a schema's numbers are read as"
        );
        let error = parse(Path::new("bad.json"), "{".to_owned()).unwrap_err();
        assert!(matches!(error, LoadError::Parse { .. }), "{error:?}");
    }
}
