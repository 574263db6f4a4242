//! The schema → Rust pipeline of `toolcall-contracts`.
//!
//! Stages, one module each, in the order they run:
//! [`load`] → [`check`] → [`normalize`] → [`typify_stage`] → [`postpass`] → [`emit`].
//! [`families`] says which schema files feed which `generated/<family>.rs`;
//! [`acp_export`] produces `schema/acp/` from the official ACP crate.

pub mod acp_export;
pub mod check;
pub mod emit;
pub mod families;
pub mod load;
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
    let mut merged = normalize::Normalized::default();
    for schema in family.schemas {
        let file = load::load(&root.join(schema))?;
        let file = load::SchemaFile {
            path: PathBuf::from(schema),
            ..file
        };
        check::check(&file).map_err(PipelineError::Check)?;
        let options = normalize::Options {
            roots: family.roots,
            open_unions: family.open_unions,
        };
        let normalized = normalize::normalize(&file.value, options).map_err(|source| {
            PipelineError::Normalize {
                path: file.path.clone(),
                source,
            }
        })?;
        merged.defs.extend(normalized.defs);
        merged.unions.extend(normalized.unions);
        merged.enums.extend(normalized.enums);
        merged.structs.extend(normalized.structs);
    }
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
    let input = typify_stage::TypifyInput {
        defs,
        replacements,
    };
    let tokens = typify_stage::run(&input).map_err(|source| PipelineError::Typify {
        family: family.name.to_owned(),
        source,
    })?;
    let options = postpass::Options {
        forward_compatible: family.forward_compatible,
    };
    let file = postpass::run(tokens, &merged, options).map_err(|source| PipelineError::Postpass {
        family: family.name.to_owned(),
        source,
    })?;
    let sources: Vec<String> = family.schemas.iter().map(|s| format!("`{s}`")).collect();
    Ok(emit::Output {
        path: PathBuf::from(family.output),
        text: emit::render(&file, &sources),
    })
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
