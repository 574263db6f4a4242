//! The schema → Rust pipeline of `toolcall-contracts`.
//!
//! Stages, one module each, in the order they run:
//! [`load`] → [`check`] (keyword allow-list) → [`normalize`] (one 2020-12 document per family)
//! → [`model`](mod@model) (what is generated; [`typify_stage`] maps scalars) → [`emit`] (Rust source) →
//! [`output`] (write, or compare with what is committed).
//! [`families`] says which schema files feed which `generated/<family>.rs`; [`Builder`] runs the
//! same pipeline on a user's own schema (from a `build.rs` or `toolcall-codegen generate
//! --schema`). This repository's maintenance commands (`cargo xtask generate`, `check`, the ACP
//! and MCP imports) run the same pipeline on the in-repo families.

mod builder;
pub mod check;
pub mod emit;
pub mod families;
pub mod load;
pub mod model;
pub mod normalize;
pub mod output;
pub mod typify_stage;

/// JSON Pointers, one helper for the whole workspace.
pub(crate) use toolcall_schema::pointer;

use std::path::{Path, PathBuf};

pub use builder::{Builder, BuilderError};
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
    #[error(transparent)]
    Normalize(#[from] normalize::NormalizeError),
    /// Stage 4: a construct the model cannot express.
    #[error("family `{family}`: {source}")]
    Model {
        /// The family.
        family: String,
        /// What was refused.
        source: model::build::BuildError,
    },
}

/// Runs every stage for one family over the schema files under `root`.
///
/// # Errors
/// The first stage that fails, as a [`PipelineError`].
pub fn generate_family(root: &Path, family: &Family) -> Result<output::Output, PipelineError> {
    let mut files = Vec::new();
    for schema in family.schemas {
        let file = load::load(&root.join(schema))?;
        files.push(load::SchemaFile {
            path: PathBuf::from(schema),
            ..file
        });
    }
    Ok(output::Output {
        path: PathBuf::from(family.output),
        text: generate(&files, family)?,
    })
}

/// The model of loaded schema files that form one family (cross-file `$ref`s between them
/// allowed).
///
/// # Errors
/// The first stage that fails, as a [`PipelineError`].
pub fn model(files: &[load::SchemaFile], family: &Family) -> Result<model::Model, PipelineError> {
    model_with_checks(files, family, None)
}

/// [`model()`], faithful to every assertion of the schema when `checks` is given (a user's own
/// schema, one file): what a type cannot carry is checked when decoding against it.
///
/// # Errors
/// The first stage that fails, as a [`PipelineError`].
pub fn model_with_checks(
    files: &[load::SchemaFile],
    family: &Family,
    checks: Option<&model::checks::Source>,
) -> Result<model::Model, PipelineError> {
    let mut errors = Vec::new();
    for file in files {
        let checked = if checks.is_some() {
            check::check_faithful(file)
        } else {
            check::check(file)
        };
        if let Err(e) = checked {
            errors.extend(e);
        }
    }
    if !errors.is_empty() {
        return Err(PipelineError::Check(errors));
    }
    let linked;
    let files = match family.doc_site {
        Some(site) => {
            linked = normalize::links::absolute(files, site);
            &linked[..]
        }
        None => files,
    };
    let normalized = normalize::normalize_with(files, family.generate_root, checks.is_some())?;
    let options = model::build::Options {
        roots: family.roots,
        replacements: family.replacements,
        open_unions: family.open_unions,
        keep_unknown_members: family.keep_unknown_members,
        null_as_absent: family.null_as_absent,
        unknown_enum_as_other: family.unknown_enum_as_other,
        checks,
    };
    model::build::build(&normalized.defs, &normalized.origins, &options).map_err(|source| {
        PipelineError::Model {
            family: family.name.to_owned(),
            source,
        }
    })
}

/// Runs stages 2 to 5 over loaded schema files that form one family and returns the source of
/// the generated module.
///
/// # Errors
/// The first stage that fails, as a [`PipelineError`].
pub fn generate(files: &[load::SchemaFile], family: &Family) -> Result<String, PipelineError> {
    let model = model(files, family)?;
    let sources: Vec<String> = files
        .iter()
        .map(|f| format!("`{}`", f.path.display()))
        .collect();
    Ok(emit::render(
        &model,
        &emit::Options {
            runtime: family.runtime,
            forward_compatible: family.forward_compatible,
            header: format!(
                "by `{}` from {}.",
                output::GENERATE_COMMAND,
                sources.join(", ")
            ),
        },
    ))
}

/// Runs the pipeline for every family.
///
/// # Errors
/// The first family that fails.
pub fn generate_all(root: &Path) -> Result<Vec<output::Output>, PipelineError> {
    families::ALL
        .iter()
        .map(|family| generate_family(root, family))
        .collect()
}
