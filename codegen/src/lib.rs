//! Rust types, with their decode and encode, from a JSON Schema: the pipeline of
//! `toolcall-contracts`, for a user's own schema.
//!
//! [`Builder`] is the whole API: it takes a schema file, every setting of the pipeline, and
//! writes one module that compiles in a crate depending on `toolcall-contracts`, `serde` and
//! `serde_json` (from a `build.rs`, or with `toolcall-codegen generate --schema`). The families
//! this repository generates (ACP, MCP, the route body, the canonical model) are
//! [`Builder::preset`]s of the same settings.
//!
//! Inside, the stages run in this order, one private module each: load → check (keyword
//! allow-list) → normalize (one 2020-12 document) → [`model`](mod@model) (what is generated;
//! typify maps scalars) → emit (Rust source).

mod builder;
mod check;
mod emit;
mod families;
mod load;
pub mod model;
mod normalize;
mod output;
mod typify_stage;

/// JSON Pointers, one helper for the whole workspace.
pub(crate) use toolcall_schema::pointer;

pub use builder::{Builder, BuilderError};
pub use check::UnsupportedKeyword;
pub use load::LoadError;
pub use model::build::BuildError;
pub use normalize::NormalizeError;

/// Why the pipeline produced no code for a schema.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// A schema file could not be read or parsed.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// Keywords the pipeline refuses, one per line.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Check(Vec<UnsupportedKeyword>),
    /// The schema files could not be put into one document.
    #[error(transparent)]
    Normalize(#[from] NormalizeError),
    /// A setting names a definition the schema does not have (`open_union`, `replace`).
    #[error(
        "family `{family}`: `{setting}` names `{name}`, which is not a definition of the schema"
    )]
    UnknownDefinition {
        /// The family (the preset's name, `user` for a user's schema).
        family: String,
        /// The [`Builder`] setting.
        setting: &'static str,
        /// The name it was given.
        name: String,
    },
    /// Nothing to generate: no definitions and the root schema not generated
    /// ([`Builder::generate_root`] off), or [`Builder::roots`] naming none.
    #[error(
        "family `{family}`: nothing to generate (no definitions, `$defs` or `definitions`, the root not generated with `generate_root(false)`, or `roots` naming none): the module would be empty"
    )]
    NothingToGenerate {
        /// The family (the preset's name, `user` for a user's schema).
        family: String,
    },
    /// A [`Builder::replace`] type that is not a Rust type (the module would not compile).
    #[error(
        "family `{family}`: `replace` gives `{definition}` the type `{rust_type}`, which is not a Rust type: {why}"
    )]
    NotARustType {
        /// The family (the preset's name, `user` for a user's schema).
        family: String,
        /// The definition replaced.
        definition: String,
        /// The type given.
        rust_type: String,
        /// What the Rust parser says.
        why: String,
    },
    /// A construct the model cannot express.
    #[error("family `{family}`: {source}")]
    Model {
        /// The family (the preset's name, `user` for a user's schema).
        family: String,
        /// What was refused.
        source: BuildError,
    },
}

/// This repository's maintenance (`cargo xtask generate|check`, the contracts crate's
/// `codegen-check` build script): every preset into `generated/`. Not a user API: no semver
/// promise.
#[doc(hidden)]
pub mod repo {
    use std::path::Path;

    pub use crate::families::PRESETS;
    pub use crate::output::{stale, write, EmitError, Output, GENERATE_COMMAND};

    /// Every preset generated from the schema files under `root`, as the contracts crate holds
    /// them (support code at `crate::__private`).
    ///
    /// # Errors
    /// The first preset that fails.
    pub fn generate_all(root: &Path) -> Result<Vec<Output>, crate::PipelineError> {
        PRESETS
            .iter()
            .map(|preset| {
                Ok(Output {
                    path: preset.output.into(),
                    text: preset.in_repo(root).generate_in_repo()?,
                })
            })
            .collect()
    }

    /// Whether `generated/` under `root` is what the schema files under `root` give now: how
    /// many files it checked, or the message naming the stale ones and the command that
    /// regenerates them (`cargo xtask check`, `toolcall-codegen check`).
    ///
    /// # Errors
    /// That message, or the first preset that fails to generate.
    pub fn check(root: &Path) -> Result<usize, String> {
        let outputs = generate_all(root).map_err(|e| e.to_string())?;
        let stale = stale(root, &outputs);
        if stale.is_empty() {
            return Ok(outputs.len());
        }
        let names: Vec<String> = stale.iter().map(|p| format!("`{}`", p.display())).collect();
        Err(format!(
            "{} not up to date with schema/; run `{GENERATE_COMMAND}`",
            names.join(", ")
        ))
    }

    /// The generated file of the preset `name` (`generated/acp.rs`).
    #[must_use]
    pub fn output_of(name: &str) -> Option<&'static str> {
        PRESETS.iter().find(|p| p.name == name).map(|p| p.output)
    }
}
