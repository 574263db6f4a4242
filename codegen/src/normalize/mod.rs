//! Stage 3: one 2020-12 document per family, every reference a `#/$defs/<name>`.
//!
//! - [`dialect`]: draft-07 and 2019-09 documents are rewritten as 2020-12 (`definitions` is
//!   `$defs`, an `items` array is `prefixItems`, `additionalItems` is `items`, `dependencies`
//!   is `dependentRequired`/`dependentSchemas`);
//! - [`refs`]: references to a sibling file of the family (`ids.schema.json#/$defs/ToolId`) and
//!   to a definition's `$id` become local (`#/$defs/ToolId`);
//! - [`links`]: site-relative documentation links made absolute (the MCP families);
//! - [`root`]: a root schema with a shape of its own becomes a definition (when the family asks);
//! - the files' `$defs` are merged into one map, in file order.

pub mod dialect;
pub mod links;
pub mod refs;
pub mod root;

use std::collections::BTreeMap;
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
    #[error("`{}`: definition `{definition}`: {what} at `{pointer}`", .path.display())]
    Dialect {
        /// The file.
        path: PathBuf,
        /// The definition holding it (`<root>` outside `$defs`).
        definition: String,
        /// RFC 6901 pointer in the file.
        pointer: String,
        /// What it is.
        what: String,
    },
    /// A root schema with a shape of its own whose names (its `title`, the file name) are all
    /// taken by definitions.
    #[error("`{}`: the root schema cannot be named: {tried} already name definitions; give it a `title` no definition has", .path.display())]
    RootName {
        /// The file.
        path: PathBuf,
        /// The names tried, quoted.
        tried: String,
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

/// The definition a pointer in a file is inside (`/$defs/A/...` or `/definitions/A/...`), else
/// `<root>`.
fn definition_at(at: &str) -> String {
    let mut tokens = crate::pointer::tokens(at);
    match (tokens.next().as_deref(), tokens.next()) {
        (Some("$defs" | "definitions"), Some(name)) => name.into_owned(),
        _ => "<root>".to_owned(),
    }
}

/// The family's definitions, merged and normalized, with where each one is in its file.
#[derive(Debug, Clone, Default)]
pub struct Normalized {
    /// Every definition, in file order (a file's root schema first).
    pub defs: Map<String, Value>,
    /// Definition → RFC 6901 pointer of its schema in its file: `/$defs/A`, `/definitions/A` in
    /// a draft-07 document, `""` for a root schema.
    pub origins: BTreeMap<String, String>,
}

/// The family's definitions, merged and normalized; with `generate_root`, a file's root schema
/// that has a shape of its own is a definition too (see [`root`]). `faithful` for a user's schema (see [`crate::model::build::Options::checks`]):
/// what older drafts ignore is dropped rather than refused (the siblings of a draft-07
/// `$ref`), and the root schema is always generated unless the document only holds
/// definitions ([`root::schema_faithful`]).
///
/// # Errors
/// See [`NormalizeError`].
pub fn normalize_with(
    files: &[SchemaFile],
    generate_root: bool,
    faithful: bool,
) -> Result<Normalized, NormalizeError> {
    let siblings: Vec<String> = files
        .iter()
        .filter_map(|f| f.path.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    let mut out = Normalized::default();
    for file in files {
        let mut value = file.value.clone();
        let defs_key =
            if dialect::of(&value) == dialect::Dialect::Draft2020 || value.get("$defs").is_some() {
                "$defs"
            } else {
                "definitions"
            };
        dialect::to_2020_12_with(&mut value, faithful).map_err(|(pointer, what)| {
            NormalizeError::Dialect {
                path: file.path.clone(),
                definition: definition_at(&pointer),
                pointer,
                what,
            }
        })?;
        if faithful {
            refs::scope_nested_fragments(&mut value);
        }
        refs::localize(&mut value, &siblings, faithful).map_err(|(id, first, second)| {
            NormalizeError::DuplicateId {
                path: file.path.clone(),
                id,
                first,
                second,
            }
        })?;
        let mut defs = value
            .get("$defs")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        if generate_root {
            let own = if faithful {
                root::schema_faithful(&value)
            } else {
                root::schema(&value)
            };
            if let Some(schema) = own {
                let mut names = root::candidate_names(&value, &file.path);
                if faithful {
                    // A user's root takes `<name> root` (`CommandsRoot`) when its title and
                    // file name are taken by definitions, then `<name> root 2`...
                    let first = names.first().cloned().unwrap_or_else(|| "root".to_owned());
                    names.push(format!("{first} root"));
                    names.extend((2..100).map(|n| format!("{first} root {n}")));
                }
                let Some(name) = names
                    .iter()
                    .find(|n| !defs.contains_key(*n) && !out.defs.contains_key(*n))
                else {
                    return Err(NormalizeError::RootName {
                        path: file.path.clone(),
                        tried: names
                            .iter()
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                            .join(", "),
                    });
                };
                let mut all = Map::new();
                all.insert(name.clone(), schema);
                all.extend(defs);
                for schema in all.values_mut() {
                    root::point_refs_at(schema, name);
                }
                if faithful {
                    // The root's own `$defs` stay beside it (pointers into them name them).
                    if let Some(Value::Object(root)) = all.get_mut(name.as_str()) {
                        root.remove("$defs");
                        root.remove("definitions");
                    }
                }
                defs = all;
                out.origins.insert(name.clone(), String::new());
            }
        }
        for (name, schema) in defs {
            out.origins
                .entry(name.clone())
                .or_insert_with(|| crate::pointer::join(&format!("/{defs_key}"), &name));
            if out.defs.insert(name.clone(), schema).is_some() {
                return Err(NormalizeError::DuplicateDefinition {
                    path: file.path.clone(),
                    definition: name,
                });
            }
        }
    }
    Ok(out)
}
