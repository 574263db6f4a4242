//! Schema files and bundles (directories of schema files) on disk.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{diff, Change, ChangeKind, Class};

/// Why two schema files or bundles could not be compared.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DiffError {
    /// A file or directory could not be read.
    #[error("cannot read `{path}`: {source}")]
    Read {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// A file is not JSON.
    #[error("`{path}` is not JSON: {source}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The parse error (line and column).
        source: serde_json::Error,
    },
    /// A file is JSON but not a schema: its root is neither an object nor a boolean.
    #[error("`{path}` is not a JSON Schema: its root is neither an object nor a boolean")]
    NotASchema {
        /// The file.
        path: PathBuf,
    },
    /// One path is a directory and the other is not.
    #[error("`{old}` and `{new}` must both be files or both be directories")]
    Mismatch {
        /// The old path.
        old: PathBuf,
        /// The new path.
        new: PathBuf,
    },
    /// A bundle directory holds no `*.json` file.
    #[error("`{path}` holds no `*.json` schema file")]
    EmptyBundle {
        /// The directory.
        path: PathBuf,
    },
}

/// Compares two schema files, or two bundles: directories whose `*.json` files (recursively,
/// `index.json` at the top excepted) are matched by their path relative to the directory.
///
/// In a bundle, each [`Change`] names its [`Change::file`]; a file only in `new` is
/// [`ChangeKind::FileAdded`] (additive both ways), a file only in `old` is
/// [`ChangeKind::FileRemoved`] (breaking for old producers → new consumers).
///
/// # Errors
///
/// - [`DiffError::Read`] when a path cannot be read or listed;
/// - [`DiffError::Parse`] when a file is not JSON, [`DiffError::NotASchema`] when it is not a
///   schema;
/// - [`DiffError::Mismatch`] when one path is a directory and the other is not;
/// - [`DiffError::EmptyBundle`] when a directory holds no `*.json` file.
pub fn diff_paths(old: &Path, new: &Path) -> Result<Vec<Change>, DiffError> {
    match (is_dir(old)?, is_dir(new)?) {
        (false, false) => Ok(diff(&read_json(old)?, &read_json(new)?)),
        (true, true) => bundles(old, new),
        _ => Err(DiffError::Mismatch {
            old: old.to_owned(),
            new: new.to_owned(),
        }),
    }
}

fn bundles(old: &Path, new: &Path) -> Result<Vec<Change>, DiffError> {
    let old_files = schema_files(old)?;
    let new_files = schema_files(new)?;
    let mut names: Vec<&String> = old_files.keys().chain(new_files.keys()).collect();
    names.sort();
    names.dedup();
    let mut changes = Vec::new();
    for name in names {
        match (old_files.get(name), new_files.get(name)) {
            (Some(old_path), Some(new_path)) => {
                let found = diff(&read_json(old_path)?, &read_json(new_path)?);
                changes.extend(found.into_iter().map(|mut change| {
                    change.file = Some(name.clone());
                    change
                }));
            }
            (None, Some(_)) => changes.push(file_change(
                ChangeKind::FileAdded,
                name,
                "added",
                (Class::Additive, Class::Additive),
            )),
            (Some(_), None) => changes.push(file_change(
                ChangeKind::FileRemoved,
                name,
                "removed",
                (Class::Breaking, Class::Additive),
            )),
            (None, None) => {}
        }
    }
    Ok(changes)
}

fn file_change(kind: ChangeKind, name: &str, verb: &str, classes: (Class, Class)) -> Change {
    let mut change = Change::new(
        kind,
        "",
        format!("schema file `{name}` {verb}"),
        classes.0,
        classes.1,
    );
    change.file = Some(name.to_owned());
    change
}

fn is_dir(path: &Path) -> Result<bool, DiffError> {
    std::fs::metadata(path)
        .map(|metadata| metadata.is_dir())
        .map_err(|source| DiffError::Read {
            path: path.to_owned(),
            source,
        })
}

/// The `*.json` files of a directory by file name.
/// Every `*.json` file under `dir`, recursively (an exported bundle keeps each family in its
/// own subdirectory), keyed by its path relative to `dir` with `/` separators. `index.json` at
/// the top is the bundle's table of contents, not a schema, and is skipped.
fn schema_files(dir: &Path) -> Result<BTreeMap<String, PathBuf>, DiffError> {
    let mut files = BTreeMap::new();
    let mut pending = vec![(dir.to_owned(), String::new())];
    while let Some((current, prefix)) = pending.pop() {
        let read_error = |source| DiffError::Read {
            path: current.clone(),
            source,
        };
        for entry in std::fs::read_dir(&current).map_err(read_error)? {
            let path = entry.map_err(read_error)?.path();
            let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
                continue;
            };
            let relative = format!("{prefix}{name}");
            if path.is_dir() {
                pending.push((path.clone(), format!("{relative}/")));
            } else if name.ends_with(".json") && path.is_file() && relative != "index.json" {
                files.insert(relative, path.clone());
            }
        }
    }
    if files.is_empty() {
        return Err(DiffError::EmptyBundle {
            path: dir.to_owned(),
        });
    }
    Ok(files)
}

fn read_json(path: &Path) -> Result<Value, DiffError> {
    let text = std::fs::read_to_string(path).map_err(|source| DiffError::Read {
        path: path.to_owned(),
        source,
    })?;
    let value: Value = serde_json::from_str(&text).map_err(|source| DiffError::Parse {
        path: path.to_owned(),
        source,
    })?;
    if value.is_object() || value.is_boolean() {
        Ok(value)
    } else {
        Err(DiffError::NotASchema {
            path: path.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_messages() {
        let read = DiffError::Read {
            path: PathBuf::from("a.json"),
            source: io::Error::new(io::ErrorKind::NotFound, "not found"),
        };
        assert_eq!(read.to_string(), "cannot read `a.json`: not found");
        let parse = DiffError::Parse {
            path: PathBuf::from("a.json"),
            source: serde_json::from_str::<Value>("{").unwrap_err(),
        };
        assert_eq!(
            parse.to_string(),
            "`a.json` is not JSON: EOF while parsing an object at line 1 column 1"
        );
        let dir = std::env::temp_dir().join(format!("diff-not-a-schema-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (array, schema) = (dir.join("array.json"), dir.join("schema.json"));
        std::fs::write(&array, "[1, 2]").unwrap();
        std::fs::write(&schema, "true").unwrap();
        let refused = diff_paths(&array, &schema).unwrap_err();
        assert_eq!(
            refused.to_string(),
            format!(
                "`{}` is not a JSON Schema: its root is neither an object nor a boolean",
                array.display()
            )
        );
        assert!(diff_paths(&schema, &schema).unwrap().is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
        let mismatch = DiffError::Mismatch {
            old: PathBuf::from("old"),
            new: PathBuf::from("new.json"),
        };
        assert_eq!(
            mismatch.to_string(),
            "`old` and `new.json` must both be files or both be directories"
        );
        let empty = DiffError::EmptyBundle {
            path: PathBuf::from("dir"),
        };
        assert_eq!(empty.to_string(), "`dir` holds no `*.json` schema file");
    }
}
