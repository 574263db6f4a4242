//! The schema → Rust pipeline of `toolcall-contracts`.
//!
//! Stages, one module each, in the order they run:
//! [`load`] → [`check`] → [`normalize`] → [`typify_stage`] → [`postpass`] → [`emit`].
//! [`families`] says which schema files feed which `generated/<family>.rs`;
//! [`acp_export`] produces `schema/acp/` from the official ACP crate.

pub mod acp_export;
pub mod changelog;
pub mod check;
pub mod emit;
pub mod families;
pub mod load;
pub mod mcp_import;
pub mod normalize;
pub mod postpass;
pub mod typify_stage;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use families::Family;

/// Why the pipeline produced no code for a family.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// Stage 1.
    #[error(transparent)]
    Load(#[from] load::LoadError),
    /// Stage 2: every refused keyword, one per line.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Check(Vec<check::UnsupportedKeyword>),
    /// Two files of one family define the same name.
    #[error(
        "`{path}`: definition `{definition}` is already defined by another file of the family"
    )]
    DuplicateDefinition {
        /// The second file.
        path: PathBuf,
        /// The name.
        definition: String,
    },
    /// Stage 3.
    #[error("`{path}`: {source}")]
    Normalize {
        /// The schema file.
        path: PathBuf,
        /// What could not be normalized.
        source: normalize::NormalizeError,
    },
    /// Stage 4.
    #[error("family `{family}`: {source}")]
    Typify {
        /// The family.
        family: String,
        /// typify's failure.
        source: typify_stage::TypifyError,
    },
    /// Stage 5.
    #[error("family `{family}`: {source}")]
    Postpass {
        /// The family.
        family: String,
        /// The post-pass failure.
        source: postpass::PostpassError,
    },
}

/// Runs every stage for one family over the schema files under `root`.
///
/// # Errors
/// The first stage that fails, as a [`PipelineError`].
pub fn generate_family(root: &Path, family: &Family) -> Result<emit::Output, PipelineError> {
    let mut files = Vec::new();
    for schema in family.schemas {
        let file = load::load(&root.join(schema))?;
        files.push(load::SchemaFile {
            path: PathBuf::from(schema),
            ..file
        });
    }
    let tree = generate(&files, family)?;
    let sources: Vec<String> = family.schemas.iter().map(|s| format!("`{s}`")).collect();
    Ok(emit::Output {
        path: PathBuf::from(family.output),
        text: emit::render(&tree, &sources),
    })
}

/// Runs stages 2 to 5 over loaded schema files that form one family (cross-file `$ref`s
/// between them allowed) and returns the finished syntax tree.
///
/// # Errors
/// The first stage that fails, as a [`PipelineError`].
pub fn generate(files: &[load::SchemaFile], family: &Family) -> Result<syn::File, PipelineError> {
    let siblings: Vec<String> = files
        .iter()
        .filter_map(|f| f.path.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    let mut errors = Vec::new();
    for file in files {
        if let Err(e) = check::check_with_siblings(file, &siblings) {
            errors.extend(e);
        }
    }
    if !errors.is_empty() {
        return Err(PipelineError::Check(errors));
    }
    let document = merge(files, &siblings)?;
    let options = normalize::Options {
        roots: family.roots,
        open_unions: family.open_unions,
    };
    let merged =
        normalize::normalize(&document, options).map_err(|source| PipelineError::Normalize {
            path: files.first().map(|f| f.path.clone()).unwrap_or_default(),
            source,
        })?;
    let mut replacements: BTreeMap<String, String> = family
        .replacements
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    for name in merged.emitted_names() {
        replacements.insert(name.to_owned(), name.to_owned());
    }
    // typify resolves a `$ref` to a replaced definition only if the definition is present.
    let mut defs = merged.defs.clone();
    for name in replacements.keys() {
        if !defs.iter().any(|(k, _)| k == name) {
            defs.push((name.clone(), serde_json::json!({})));
        }
    }
    let input = typify_stage::TypifyInput { defs, replacements };
    let tokens = typify_stage::run(&input).map_err(|source| PipelineError::Typify {
        family: family.name.to_owned(),
        source,
    })?;
    let options = postpass::Options {
        forward_compatible: family.forward_compatible,
        keep_unknown_members: family.keep_unknown_members,
    };
    postpass::run(tokens, &merged, options).map_err(|source| PipelineError::Postpass {
        family: family.name.to_owned(),
        source,
    })
}

/// One document holding every file's `$defs`, with cross-file `$ref`s made local.
fn merge(
    files: &[load::SchemaFile],
    siblings: &[String],
) -> Result<serde_json::Value, PipelineError> {
    let mut defs = serde_json::Map::new();
    for file in files {
        let mut value = file.value.clone();
        localize_refs(&mut value, siblings);
        for (name, schema) in value["$defs"].as_object().cloned().unwrap_or_default() {
            if defs.insert(name.clone(), schema).is_some() {
                return Err(PipelineError::DuplicateDefinition {
                    path: file.path.clone(),
                    definition: name,
                });
            }
        }
    }
    Ok(serde_json::json!({ "$defs": defs }))
}

fn localize_refs(value: &mut serde_json::Value, siblings: &[String]) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, sub) in map.iter_mut() {
                if key == "$ref" {
                    if let Some((file, fragment)) = sub.as_str().and_then(|r| r.split_once('#')) {
                        if siblings.iter().any(|s| s == file) {
                            *sub = serde_json::Value::from(format!("#{fragment}"));
                        }
                    }
                } else {
                    localize_refs(sub, siblings);
                }
            }
        }
        serde_json::Value::Array(items) => {
            items.iter_mut().for_each(|v| localize_refs(v, siblings))
        }
        _ => {}
    }
}

/// Runs the pipeline for every family.
///
/// # Errors
/// The first family that fails.
pub fn generate_all(root: &Path) -> Result<Vec<emit::Output>, PipelineError> {
    families::ALL
        .iter()
        .map(|family| generate_family(root, family))
        .collect()
}
