//! Stage 3: one 2020-12 document per family, every reference a `#/$defs/<name>`.
//!
//! - [`dialect`]: draft-07 and 2019-09 documents are rewritten as 2020-12 (`definitions` is
//!   `$defs`, an `items` array is `prefixItems`, `additionalItems` is `items`, `dependencies`
//!   is `dependentRequired`/`dependentSchemas`);
//! - [`refs`]: references to a sibling file of the family (`ids.schema.json#/$defs/ToolId`) and
//!   to a definition's `$id` become local (`#/$defs/ToolId`);
//! - the files' `$defs` are merged into one map, in file order.

pub mod dialect;
pub mod refs;

use std::path::PathBuf;

use serde_json::{Map, Value};

use crate::load::SchemaFile;

/// Why a family's documents could not be normalized.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NormalizeError {
    /// Two files of one family define the same name.
    #[error("`{}`: definition `{definition}` is already defined by another file of the family", .path.display())]
    DuplicateDefinition {
        /// The second file.
        path: PathBuf,
        /// The name.
        definition: String,
    },
    /// A dialect construct with no 2020-12 equivalent the pipeline takes.
    #[error("`{}`: {what} at `{pointer}`", .path.display())]
    Dialect {
        /// The file.
        path: PathBuf,
        /// RFC 6901 pointer in the file.
        pointer: String,
        /// What it is.
        what: String,
    },
    /// Two definitions declare the same `$id`.
    #[error("`{}`: `$id` `{id}` is declared by `{first}` and `{second}`", .path.display())]
    DuplicateId {
        /// The file.
        path: PathBuf,
        /// The `$id`.
        id: String,
        /// The first definition.
        first: String,
        /// The second definition.
        second: String,
    },
}

/// The family's definitions, merged and normalized.
///
/// # Errors
/// See [`NormalizeError`].
pub fn normalize(files: &[SchemaFile]) -> Result<Map<String, Value>, NormalizeError> {
    let siblings: Vec<String> = files
        .iter()
        .filter_map(|f| f.path.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    let mut defs = Map::new();
    for file in files {
        let mut value = file.value.clone();
        dialect::to_2020_12(&mut value).map_err(|(pointer, what)| NormalizeError::Dialect {
            path: file.path.clone(),
            pointer,
            what,
        })?;
        refs::localize(&mut value, &siblings).map_err(|(id, first, second)| {
            NormalizeError::DuplicateId {
                path: file.path.clone(),
                id,
                first,
                second,
            }
        })?;
        for (name, schema) in value
            .get("$defs")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default()
        {
            if defs.insert(name.clone(), schema).is_some() {
                return Err(NormalizeError::DuplicateDefinition {
                    path: file.path.clone(),
                    definition: name,
                });
            }
        }
    }
    Ok(defs)
}
