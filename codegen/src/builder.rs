//! The pipeline on a user's own schema: the root schema and every definition of one 2020-12 (or
//! draft-07) document generated into one module that compiles in the user's crate with `toolcall-contracts`,
//! `serde` and `serde_json` as its only dependencies.
//!
//! From a build script, the way `prost-build` is used:
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     toolcall_codegen::Builder::new("schema/orders.schema.json")
//!         .forward_compatible(true)
//!         .write_to_out_dir("orders.rs")?;
//!     Ok(())
//! }
//! ```
//!
//! and in the crate: `mod orders { include!(concat!(env!("OUT_DIR"), "/orders.rs")); }`.

use std::path::{Path, PathBuf};

use crate::emit::paths::Runtime;
use crate::families::Family;
use crate::model::Model;
use crate::{load, PipelineError};

/// Generates Rust types for the root schema and every definition of one schema file.
#[derive(Debug, Clone)]
pub struct Builder {
    schema: PathBuf,
    forward_compatible: bool,
    keep_unknown_members: bool,
    /// Remote `$ref`s served from local folders: `(URI prefix, folder)`.
    ref_dirs: Vec<(String, PathBuf)>,
    assert_formats: bool,
}

/// Why a [`Builder`] wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum BuilderError {
    /// The schema could not be read, or a keyword is refused (the message names the file).
    #[error(transparent)]
    Pipeline(#[from] PipelineError),
    /// The model refused a construct: ``<file>: definition `<name>`: <what> at `<pointer>` ``.
    #[error("`{}`: {source}", .path.display())]
    Refused {
        /// The schema file.
        path: PathBuf,
        /// The definition, the JSON pointer and what is refused.
        source: crate::model::build::BuildError,
    },
    /// `OUT_DIR` is not set (not running in a build script).
    #[error("`OUT_DIR` is not set: `write_to_out_dir` runs in a build script")]
    NoOutDir,
    /// The output could not be written.
    #[error("cannot write `{}`: {source}", .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

impl Builder {
    /// A builder for the schema file `schema`: plain structs, members the schema does not
    /// declare kept (`unknown_members`).
    #[must_use]
    pub fn new(schema: impl AsRef<Path>) -> Self {
        Self {
            schema: schema.as_ref().to_owned(),
            forward_compatible: false,
            keep_unknown_members: true,
            ref_dirs: Vec::new(),
            assert_formats: false,
        }
    }

    /// Whether `format` is asserted when decoding (`email`, `date-time`...; checked by the
    /// `jsonschema` crate), rather than an annotation as JSON Schema 2020-12 says (default).
    #[must_use]
    pub const fn assert_formats(mut self, yes: bool) -> Self {
        self.assert_formats = yes;
        self
    }

    /// Serves remote `$ref`s under `prefix` (`https://example.com/schemas/`) from the files
    /// under `dir` (`<dir>/a/b.json` for `<prefix>a/b.json`). Nothing is ever fetched from the
    /// network: a remote `$ref` no folder serves is refused.
    #[must_use]
    pub fn ref_dir(mut self, prefix: impl Into<String>, dir: impl AsRef<Path>) -> Self {
        self.ref_dirs.push((prefix.into(), dir.as_ref().to_owned()));
        self
    }

    /// `#[non_exhaustive]` types built by `new(required...)` and setters (for a schema that adds
    /// members in minor versions).
    #[must_use]
    pub const fn forward_compatible(mut self, yes: bool) -> Self {
        self.forward_compatible = yes;
        self
    }

    /// Whether structs keep the members the schema does not declare (default) or drop them.
    #[must_use]
    pub const fn keep_unknown_members(mut self, yes: bool) -> Self {
        self.keep_unknown_members = yes;
        self
    }

    /// The model of what [`Builder::generate`] writes: one item per generated type.
    ///
    /// # Errors
    /// [`BuilderError::Pipeline`] when the schema cannot be read or a keyword is refused,
    /// [`BuilderError::Refused`] when a construct is.
    pub fn model(&self) -> Result<Model, BuilderError> {
        let file = load::load(&self.schema).map_err(PipelineError::from)?;
        let schemas: &'static [&'static str] = &[];
        let family = Family {
            name: "user",
            schemas,
            output: "",
            roots: None,
            generate_root: true,
            replacements: &[],
            open_unions: &[],
            forward_compatible: self.forward_compatible,
            keep_unknown_members: self.keep_unknown_members,
            null_as_absent: false,
            unknown_enum_as_other: false,
            doc_site: None,
            runtime: Runtime::External,
        };
        let source = crate::model::checks::Source {
            document: file.value.clone(),
            text: file.text.clone(),
            file_name: self.schema.file_name().map_or_else(
                || "schema.json".to_owned(),
                |n| n.to_string_lossy().into_owned(),
            ),
            ref_dirs: self.ref_dirs.clone(),
            assert_formats: self.assert_formats,
        };
        crate::model_with_checks(std::slice::from_ref(&file), &family, Some(&source)).map_err(
            |error| match error {
                PipelineError::Model { source, .. } => BuilderError::Refused {
                    path: self.schema.clone(),
                    source,
                },
                other => BuilderError::Pipeline(other),
            },
        )
    }

    /// The generated module's source.
    ///
    /// # Errors
    /// As [`Builder::model`].
    pub fn generate(&self) -> Result<String, BuilderError> {
        let model = self.model()?;
        Ok(self.render(&model))
    }

    fn render(&self, model: &Model) -> String {
        crate::emit::render(
            model,
            &crate::emit::Options {
                runtime: Runtime::External,
                forward_compatible: self.forward_compatible,
                header: format!(
                    "by toolcall-codegen {} from `{}`.",
                    env!("CARGO_PKG_VERSION"),
                    self.schema.display()
                ),
            },
        )
    }

    /// The generated module's source, and the Rust name of the root schema's type (`None` when
    /// the document has no root schema of its own).
    ///
    /// # Errors
    /// As [`Builder::model`].
    pub fn generate_with_root(&self) -> Result<(String, Option<String>), BuilderError> {
        let model = self.model()?;
        let root = model
            .items
            .iter()
            .find(|item| item.pointer.is_empty())
            .map(|item| item.name.clone());
        Ok((self.render(&model), root))
    }

    /// Writes the module to `path`, and returns its warnings: what it refuses that the schema
    /// accepts, by a choice of the pipeline (also written at the top of the module).
    ///
    /// # Errors
    /// As [`Builder::generate`], and [`BuilderError::Write`].
    pub fn write_to(&self, path: impl AsRef<Path>) -> Result<Vec<String>, BuilderError> {
        let model = self.model()?;
        let text = self.render(&model);
        let path = path.as_ref();
        std::fs::write(path, text).map_err(|source| BuilderError::Write {
            path: path.to_owned(),
            source,
        })?;
        Ok(model.warnings)
    }

    /// From a build script: writes the module to `$OUT_DIR/<file_name>`, asks Cargo to run the
    /// script again when the schema changes, and shows each warning as a Cargo warning.
    ///
    /// # Errors
    /// As [`Builder::write_to`], and [`BuilderError::NoOutDir`].
    pub fn write_to_out_dir(&self, file_name: &str) -> Result<Vec<String>, BuilderError> {
        let out = std::env::var_os("OUT_DIR").ok_or(BuilderError::NoOutDir)?;
        println!("cargo:rerun-if-changed={}", self.schema.display());
        let warnings = self.write_to(Path::new(&out).join(file_name))?;
        for warning in &warnings {
            println!(
                "cargo:warning=toolcall-codegen: {}: {warning}",
                self.schema.display()
            );
        }
        Ok(warnings)
    }
}
