//! [`Builder`]: one schema in, one Rust module out, with every setting of the pipeline.
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
use crate::families::PRESETS;
use crate::model::Model;
use crate::{check, emit, load, model, normalize, output, PipelineError};

/// Generates Rust types for the root schema and every definition of a schema file: the one
/// settings type of the pipeline.
///
/// A builder from [`Builder::new`] is faithful: the types carry the shape, and every other
/// assertion of the schema is checked when a value is decoded. [`Builder::preset`] gives the
/// settings of the families this repository generates.
#[derive(Debug, Clone)]
pub struct Builder {
    /// `user`, or the preset's name (in errors).
    name: String,
    /// The schema files; paths relative to `root` when there is one.
    schemas: Vec<PathBuf>,
    /// The one schema's text, when it was given rather than read.
    text: Option<String>,
    root: Option<PathBuf>,
    roots: Option<Vec<String>>,
    generate_root: bool,
    replacements: Vec<(String, String)>,
    open_unions: Vec<String>,
    /// `(requests, results)` definitions.
    paired_results: Vec<(String, String)>,
    forward_compatible: bool,
    keep_unknown_members: bool,
    null_as_absent: bool,
    unknown_enum_as_other: bool,
    doc_site: Option<String>,
    check_assertions: bool,
    /// Remote `$ref`s served from local folders: `(URI prefix, folder)`.
    ref_dirs: Vec<(String, PathBuf)>,
    assert_formats: bool,
    runtime: Runtime,
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
        source: crate::BuildError,
    },
    /// [`Builder::check_assertions`] on a preset of several schema files: the checks are
    /// compiled from one document.
    #[error("preset `{name}` has {files} schema files: `check_assertions` needs one")]
    ChecksNeedOneFile {
        /// The preset.
        name: String,
        /// How many files it has.
        files: usize,
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
    /// A builder for the schema file `schema`, faithful to every assertion, with the defaults
    /// each setting names: plain structs, members the schema does not declare kept
    /// (`unknown_members`), the root schema generated beside the definitions.
    #[must_use]
    pub fn new(schema: impl AsRef<Path>) -> Self {
        Self {
            name: "user".to_owned(),
            schemas: vec![schema.as_ref().to_owned()],
            text: None,
            root: None,
            roots: None,
            generate_root: true,
            replacements: Vec::new(),
            open_unions: Vec::new(),
            paired_results: Vec::new(),
            forward_compatible: false,
            keep_unknown_members: true,
            null_as_absent: false,
            unknown_enum_as_other: false,
            doc_site: None,
            check_assertions: true,
            ref_dirs: Vec::new(),
            assert_formats: false,
            runtime: Runtime::External,
        }
    }

    /// The settings of one of the families this repository generates, its schema files under
    /// the checkout `root`: `acp`, `route`, `canonical`, `mcp-<version>` (see
    /// [`Builder::preset_names`]). `None` for another name. The module is for a user's crate;
    /// assertions beyond the types are not checked (the contracts crate checks them with named
    /// validators).
    #[must_use]
    pub fn preset(root: impl AsRef<Path>, name: &str) -> Option<Self> {
        PRESETS
            .iter()
            .find(|preset| preset.name == name)
            .map(|preset| preset.builder(root.as_ref()))
    }

    /// The names [`Builder::preset`] knows, in generation order.
    pub fn preset_names() -> impl Iterator<Item = &'static str> {
        PRESETS.iter().map(|preset| preset.name)
    }

    /// The same settings for another schema file, in place of the preset's files (a newer
    /// release of a preset's schema, say): `Builder::preset(root, "acp")` then `.schema(path)`.
    #[must_use]
    pub fn schema(mut self, schema: impl AsRef<Path>) -> Self {
        self.schemas = vec![schema.as_ref().to_owned()];
        self.text = None;
        self.root = None;
        self
    }

    /// A builder for a schema given as text (`include_str!`, a schema received at run time),
    /// named `name` in errors and in the module's header. Otherwise as [`Builder::new`].
    #[must_use]
    pub fn from_text(name: impl AsRef<Path>, text: impl Into<String>) -> Self {
        Self::new("").schema_text(name, text)
    }

    /// The same settings for a schema given as text, in place of the schema files.
    #[must_use]
    pub fn schema_text(mut self, name: impl AsRef<Path>, text: impl Into<String>) -> Self {
        self = self.schema(name);
        self.text = Some(text.into());
        self
    }

    /// A preset's builder over `schemas`, relative to `root`.
    pub(crate) fn files(name: &str, root: &Path, schemas: &[&str]) -> Self {
        Self {
            name: name.to_owned(),
            schemas: schemas.iter().map(PathBuf::from).collect(),
            root: Some(root.to_owned()),
            ..Self::new("")
        }
    }

    /// Where generated code finds its support code (only this repository's own families are
    /// generated into the contracts crate itself).
    pub(crate) const fn runtime(mut self, runtime: Runtime) -> Self {
        self.runtime = runtime;
        self
    }

    /// Whether every assertion the types cannot carry (bounds, patterns, `not`, ...) is checked
    /// when decoding (default), or only the shape, with a smaller keyword allow-list (the
    /// presets: their other rules are checked by hand-written validators).
    #[must_use]
    pub const fn check_assertions(mut self, yes: bool) -> Self {
        self.check_assertions = yes;
        self
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
    ///
    /// Not needed for the relative `$ref`s of a schema file without `$id` (`parts/name.json`,
    /// `../common/x.json`): they name files relative to the schema's own folder, which serves
    /// them (after the folders named here). Their checks embed the files' text, under URIs that
    /// keep only the folders between the files, so the module reads the same on every
    /// machine.
    #[must_use]
    pub fn ref_dir(mut self, prefix: impl Into<String>, dir: impl AsRef<Path>) -> Self {
        self.ref_dirs.push((prefix.into(), dir.as_ref().to_owned()));
        self
    }

    /// `#[non_exhaustive]` types built by `new(required...)` and setters (for a schema that adds
    /// members in minor versions). Default: off.
    #[must_use]
    pub const fn forward_compatible(mut self, yes: bool) -> Self {
        self.forward_compatible = yes;
        self
    }

    /// Whether structs keep the members the schema does not declare and write them back
    /// (default) or drop them.
    #[must_use]
    pub const fn keep_unknown_members(mut self, yes: bool) -> Self {
        self.keep_unknown_members = yes;
        self
    }

    /// Whether an optional member sent as `null` although its schema does not admit `null`
    /// decodes as absent, reported as `defaulted`, instead of failing (default: it fails).
    #[must_use]
    pub const fn null_as_absent(mut self, yes: bool) -> Self {
        self.null_as_absent = yes;
        self
    }

    /// Whether a string enumeration with the value `other` takes any value it does not know as
    /// `other`, reported as `unknown_value` (default: an unknown value fails).
    #[must_use]
    pub const fn unknown_enum_as_other(mut self, yes: bool) -> Self {
        self.unknown_enum_as_other = yes;
        self
    }

    /// Declares the tagged union `definition` open although the schema has no catch-all
    /// branch: an unknown tag decodes into `Unknown(raw)` and is reported. Repeatable.
    #[must_use]
    pub fn open_union(mut self, definition: impl Into<String>) -> Self {
        self.open_unions.push(definition.into());
        self
    }

    /// Pairs the result union `results` with the union `requests` of the requests it answers,
    /// told apart by a tag member (MCP: `paired_results("ClientRequest", "ServerResult")`, tag
    /// `method`). Generates:
    /// - `results::decode_for(tag_value, json)`, which decodes a result straight into the branch
    ///   that answers the request with that tag value, in one pass, and falls back to the
    ///   ordinary decode of the whole union when the tag value has no branch or the branch
    ///   refuses the value: it accepts exactly what `decode::<results>` accepts;
    /// - `requests::<tag>(&self)` (`method()`), the tag value of a request, when every branch
    ///   of the union has one.
    ///
    /// Which branch answers which request is read from the schema's names: the request type
    /// `XRequest` is answered by the branch of type `XResult` (no branch when `XResult` is a
    /// type but not a branch of `results`); a request with no `XResult` type by the branch of
    /// the type `EmptyResult` stands for (MCP's `ping`, `resources/subscribe`...), if the
    /// schema has one. Repeatable. Both must name definitions; `requests` must be a union told
    /// apart by a tag member, `results` a union.
    #[must_use]
    pub fn paired_results(
        mut self,
        requests: impl Into<String>,
        results: impl Into<String>,
    ) -> Self {
        self.paired_results.push((requests.into(), results.into()));
        self
    }

    /// Generates `definition` as the Rust type `rust_type` (`String`, `u64`, `Value`, a path)
    /// instead of a type of its own; what the type cannot carry is left to a validator of the
    /// user's. Repeatable. A `rust_type` that does not parse as a Rust type is
    /// [`PipelineError::NotARustType`] when generating.
    #[must_use]
    pub fn replace(mut self, definition: impl Into<String>, rust_type: impl Into<String>) -> Self {
        self.replacements
            .push((definition.into(), rust_type.into()));
        self
    }

    /// Generates only these definitions and what they refer to (default: every definition).
    #[must_use]
    pub fn roots<I, S>(mut self, definitions: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.roots = Some(definitions.into_iter().map(Into::into).collect());
        self
    }

    /// Whether a root schema with a shape of its own (`{"title": "Config", "type": "object",
    /// ...}`, not only `$defs` or a lone `$ref`) is generated, named after its `title`, else the
    /// file name (default), or left out.
    #[must_use]
    pub const fn generate_root(mut self, yes: bool) -> Self {
        self.generate_root = yes;
        self
    }

    /// The site the schema's site-relative documentation links (`[Meta](/specification/...)`)
    /// point into: they become absolute in the generated docs, where a relative link renders
    /// broken. Default: links are left as they are.
    #[must_use]
    pub fn doc_site(mut self, site: impl Into<String>) -> Self {
        self.doc_site = Some(site.into());
        self
    }

    /// The schema files, loaded; each named by its path as given (relative to the root for a
    /// preset).
    fn load(&self) -> Result<Vec<load::SchemaFile>, PipelineError> {
        if let (Some(text), [name]) = (&self.text, &self.schemas[..]) {
            return Ok(vec![load::parse(name, text.clone())?]);
        }
        self.schemas
            .iter()
            .map(|schema| {
                let file = match &self.root {
                    Some(root) => load::load(&root.join(schema))?,
                    None => load::load(schema)?,
                };
                Ok(load::SchemaFile {
                    path: schema.clone(),
                    ..file
                })
            })
            .collect()
    }

    /// The faithful checks' source: the one schema file, or `None` when assertions are not
    /// checked.
    fn checks_source(
        &self,
        files: &[load::SchemaFile],
    ) -> Result<Option<model::checks::Source>, BuilderError> {
        match (self.check_assertions, files) {
            (false, _) => Ok(None),
            (true, [file]) => Ok(Some(model::checks::Source {
                document: file.value.clone(),
                text: file.text.clone(),
                file_name: file.path.file_name().map_or_else(
                    || "schema.json".to_owned(),
                    |n| n.to_string_lossy().into_owned(),
                ),
                folder: self.folder_of(&file.path),
                ref_dirs: self.ref_dirs.clone(),
                assert_formats: self.assert_formats,
            })),
            (true, files) => Err(BuilderError::ChecksNeedOneFile {
                name: self.name.clone(),
                files: files.len(),
            }),
        }
    }

    /// The absolute folder of the schema file at `path` (as given: relative to the root for a
    /// preset), where the files its relative `$ref`s name are; `None` for a schema given as
    /// text.
    fn folder_of(&self, path: &Path) -> Option<PathBuf> {
        if self.text.is_some() {
            return None;
        }
        let file = match &self.root {
            Some(root) => root.join(path),
            None => path.to_owned(),
        };
        let folder = file.parent().unwrap_or(Path::new(""));
        std::path::absolute(if folder.as_os_str().is_empty() {
            Path::new(".")
        } else {
            folder
        })
        .ok()
    }

    /// Every stage but the emitter.
    fn run_model(
        &self,
        files: &[load::SchemaFile],
        source: Option<&model::checks::Source>,
    ) -> Result<Model, PipelineError> {
        let mut refused = Vec::new();
        for file in files {
            let checked = if source.is_some() {
                check::check_faithful(file)
            } else {
                check::check(file)
            };
            if let Err(e) = checked {
                refused.extend(e);
            }
        }
        if !refused.is_empty() {
            return Err(PipelineError::Check(refused));
        }
        let linked;
        let files = match &self.doc_site {
            Some(site) => {
                linked = normalize::links::absolute(files, site);
                &linked[..]
            }
            None => files,
        };
        let normalized = normalize::normalize_with(files, self.generate_root, source.is_some())?;
        let named = self
            .open_unions
            .iter()
            .map(|name| ("open_union", name))
            .chain(self.replacements.iter().map(|(name, _)| ("replace", name)))
            .chain(
                self.paired_results
                    .iter()
                    .flat_map(|(requests, results)| [requests, results])
                    .map(|name| ("paired_results", name)),
            );
        for (setting, name) in named {
            if !normalized.defs.contains_key(name) {
                return Err(PipelineError::UnknownDefinition {
                    family: self.name.clone(),
                    setting,
                    name: name.clone(),
                });
            }
        }
        for (definition, rust_type) in &self.replacements {
            // A type a field can have: not `_` or `impl Trait`, which parse but do not compile
            // there.
            let why = match syn::parse_str::<syn::Type>(rust_type) {
                Err(error) => Some(error.to_string()),
                Ok(syn::Type::Infer(_)) => Some("`_` is not a field's type".to_owned()),
                Ok(syn::Type::ImplTrait(_)) => {
                    Some("`impl Trait` is not a field's type".to_owned())
                }
                Ok(_) => None,
            };
            if let Some(why) = why {
                return Err(PipelineError::NotARustType {
                    family: self.name.clone(),
                    definition: definition.clone(),
                    rust_type: rust_type.clone(),
                    why,
                });
            }
        }
        let roots: Option<Vec<&str>> = self
            .roots
            .as_ref()
            .map(|r| r.iter().map(String::as_str).collect());
        let replacements: Vec<(&str, &str)> = self
            .replacements
            .iter()
            .map(|(d, t)| (d.as_str(), t.as_str()))
            .collect();
        let open_unions: Vec<&str> = self.open_unions.iter().map(String::as_str).collect();
        if normalized.defs.is_empty() {
            return Err(PipelineError::NothingToGenerate {
                family: self.name.clone(),
            });
        }
        let paired_results: Vec<(&str, &str)> = self
            .paired_results
            .iter()
            .map(|(requests, results)| (requests.as_str(), results.as_str()))
            .collect();
        let options = model::build::Options {
            roots: roots.as_deref(),
            replacements: &replacements,
            open_unions: &open_unions,
            keep_unknown_members: self.keep_unknown_members,
            null_as_absent: self.null_as_absent,
            unknown_enum_as_other: self.unknown_enum_as_other,
            checks: source,
            paired_results: &paired_results,
        };
        let model = model::build::build(&normalized.defs, &normalized.origins, &options).map_err(
            |source| PipelineError::Model {
                family: self.name.clone(),
                source,
            },
        )?;
        // `roots` naming none leaves nothing either.
        if model.items.is_empty() {
            return Err(PipelineError::NothingToGenerate {
                family: self.name.clone(),
            });
        }
        Ok(model)
    }

    /// The model of what [`Builder::generate`] writes: one item per generated type.
    ///
    /// # Errors
    /// [`BuilderError::Pipeline`] when the schema cannot be read or a keyword is refused,
    /// [`BuilderError::Refused`] when a construct is.
    pub fn model(&self) -> Result<Model, BuilderError> {
        let files = self.load()?;
        let source = self.checks_source(&files)?;
        self.run_model(&files, source.as_ref()).map_err(|error| {
            match (error, &self.root, &files[..]) {
                // A user's schema: the refusal names the file.
                (PipelineError::Model { source, .. }, None, [file]) => BuilderError::Refused {
                    path: file.path.clone(),
                    source,
                },
                (error, ..) => error.into(),
            }
        })
    }

    /// The generated module's source.
    ///
    /// # Errors
    /// As [`Builder::model`].
    pub fn generate(&self) -> Result<String, BuilderError> {
        Ok(self.render(&self.model()?, None))
    }

    /// The module as this repository commits it (`generated/<family>.rs`).
    pub(crate) fn generate_in_repo(&self) -> Result<String, PipelineError> {
        let files = self.load()?;
        let model = self.run_model(&files, None)?;
        let sources: Vec<String> = files
            .iter()
            .map(|f| format!("`{}`", f.path.display()))
            .collect();
        let header = format!(
            "by `{}` from {}.",
            output::GENERATE_COMMAND,
            sources.join(", ")
        );
        Ok(self.render(&model, Some(header)))
    }

    fn render(&self, model: &Model, header: Option<String>) -> String {
        let header = header.unwrap_or_else(|| {
            let sources: Vec<String> = self
                .schemas
                .iter()
                .map(|s| format!("`{}`", s.display()))
                .collect();
            format!(
                "by toolcall-codegen {} from {}.",
                env!("CARGO_PKG_VERSION"),
                sources.join(", ")
            )
        });
        emit::render(
            model,
            &emit::Options {
                runtime: self.runtime,
                forward_compatible: self.forward_compatible,
                header,
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
        Ok((self.render(&model, None), root))
    }

    /// Writes the module to `path`, and returns its warnings: what it refuses that the schema
    /// accepts, by a choice of the pipeline (also written at the top of the module).
    ///
    /// # Errors
    /// As [`Builder::generate`], and [`BuilderError::Write`].
    pub fn write_to(&self, path: impl AsRef<Path>) -> Result<Vec<String>, BuilderError> {
        let model = self.model()?;
        let text = self.render(&model, None);
        let path = path.as_ref();
        std::fs::write(path, text).map_err(|source| BuilderError::Write {
            path: path.to_owned(),
            source,
        })?;
        Ok(model.warnings)
    }

    /// From a build script: writes the module to `$OUT_DIR/<file_name>`, asks Cargo to run the
    /// script again when a schema file changes (the file, the files its relative `$ref`s reach,
    /// the [`Builder::ref_dir`] folders), and shows each warning as a Cargo warning.
    ///
    /// # Errors
    /// As [`Builder::write_to`], and [`BuilderError::NoOutDir`].
    pub fn write_to_out_dir(&self, file_name: &str) -> Result<Vec<String>, BuilderError> {
        let out = std::env::var_os("OUT_DIR").ok_or(BuilderError::NoOutDir)?;
        let schemas: Vec<PathBuf> = self
            .schemas
            .iter()
            .map(|s| self.root.as_ref().map_or_else(|| s.clone(), |r| r.join(s)))
            .collect();
        // A schema given as text has no file to watch: the build script's own inputs decide.
        if self.text.is_none() {
            for schema in &schemas {
                println!("cargo:rerun-if-changed={}", schema.display());
            }
        }
        // The files its relative `$ref`s reach, and the folders that serve remote ones.
        if let Ok(files) = self.load() {
            if let Ok(Some(source)) = self.checks_source(&files) {
                for file in model::checks::local_files(&source) {
                    println!("cargo:rerun-if-changed={}", file.display());
                }
            }
        }
        for (_, dir) in &self.ref_dirs {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
        let warnings = self.write_to(Path::new(&out).join(file_name))?;
        for warning in &warnings {
            println!(
                "cargo:warning=toolcall-codegen: {}: {warning}",
                schemas[0].display()
            );
        }
        Ok(warnings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    /// The body of a generated module: what follows its `// @generated` header.
    fn body(text: &str) -> &str {
        text.split_once('\n').map_or(text, |(_, rest)| rest)
    }

    #[test]
    fn a_preset_is_nothing_but_public_settings() {
        // The ACP and route presets rebuilt by hand from `Builder::new` and public setters give
        // the same module: every setting the in-repo families use is reachable.
        let root = workspace();
        let acp = Builder::new(root.join("schema/acp/acp.schema.json"))
            .check_assertions(false)
            .generate_root(false)
            .open_union("SessionUpdate")
            .forward_compatible(true)
            .null_as_absent(true)
            .unknown_enum_as_other(true);
        let route = Builder::new(root.join("schema/route/tool-call-request.schema.json"))
            .check_assertions(false)
            .replace("CallKey", "String")
            .replace("SchemaPin", "String")
            .replace("ProgressToken", "Value")
            .keep_unknown_members(false)
            .null_as_absent(true);
        for (name, by_hand) in [("acp", acp), ("route", route)] {
            let preset = Builder::preset(&root, name).unwrap().generate().unwrap();
            let by_hand = by_hand.generate().unwrap();
            assert!(body(&preset).len() > 1000, "{name}");
            assert!(
                body(&preset) == body(&by_hand),
                "{name}: the modules differ"
            );
        }
    }

    #[test]
    fn presets_by_name_and_their_errors() {
        let names: Vec<&str> = Builder::preset_names().collect();
        assert_eq!(names.len(), PRESETS.len());
        assert!(Builder::preset(workspace(), "acp2").is_none());
        let error = Builder::preset(workspace(), "canonical")
            .unwrap()
            .check_assertions(true)
            .model()
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "preset `canonical` has 7 schema files: `check_assertions` needs one"
        );
        let missing = Builder::preset("/nonexistent", "route").unwrap().model();
        assert!(
            missing
                .unwrap_err()
                .to_string()
                .contains("schema/route/tool-call-request.schema.json"),
            "the error names the file"
        );
    }

    #[test]
    fn roots_generate_only_their_closure() {
        let root = workspace();
        let all = Builder::preset(&root, "acp").unwrap().model().unwrap();
        let some = Builder::preset(&root, "acp")
            .unwrap()
            .roots(["ToolCallUpdate"])
            .model()
            .unwrap();
        assert!(some.items.iter().any(|i| i.name == "ToolCallUpdate"));
        assert!(!some.items.iter().any(|i| i.name == "InitializeRequest"));
        assert!(
            some.items.len() < all.items.len() / 4,
            "{}",
            some.items.len()
        );
    }

    #[test]
    fn a_schema_given_as_text_is_named_as_given() {
        let schema =
            r#"{"title": "Order", "type": "object", "properties": {"id": {"type": "string"}}}"#;
        let text = Builder::from_text("orders.schema.json", schema)
            .generate()
            .unwrap();
        assert!(
            text.starts_with("// @generated by toolcall-codegen "),
            "{text}"
        );
        assert!(text.contains("from `orders.schema.json`."), "{text}");
        assert!(text.contains("pub struct Order"), "{text}");
        let error = Builder::from_text("bad.json", "[1]")
            .generate()
            .unwrap_err();
        assert!(error.to_string().contains("bad.json"), "{error}");
    }

    #[test]
    fn a_setting_naming_no_definition_is_refused() {
        let schema = r#"{"title": "Order", "type": "object", "$defs": {"Kind": {"enum": ["a"]}}}"#;
        for (builder, message) in [
            (
                Builder::from_text("o.json", schema).open_union("Nope"),
                "family `user`: `open_union` names `Nope`, which is not a definition of the schema",
            ),
            (
                Builder::from_text("o.json", schema).replace("Money", "u64"),
                "family `user`: `replace` names `Money`, which is not a definition of the schema",
            ),
        ] {
            assert_eq!(builder.generate().unwrap_err().to_string(), message);
        }
        assert!(Builder::from_text("o.json", schema)
            .replace("Kind", "String")
            .generate()
            .is_ok());
    }

    #[test]
    fn a_schema_with_nothing_to_generate_says_so() {
        let error = Builder::from_text("o.json", r#"{"type": "string"}"#)
            .generate_root(false)
            .generate()
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "family `user`: nothing to generate (no definitions, `$defs` or `definitions`, the root not generated with `generate_root(false)`, or `roots` naming none): the module would be empty"
        );
        assert!(Builder::from_text("o.json", r#"{"type": "string"}"#)
            .generate()
            .is_ok());
        let error = Builder::from_text("o.json", r#"{"$defs": {"A": {"type": "string"}}}"#)
            .roots(Vec::<String>::new())
            .generate()
            .unwrap_err();
        assert!(
            error.to_string().contains("the module would be empty"),
            "{error}"
        );
    }

    /// File names with a space, `%` or `#` are URI path segments percent-encoded: the schema
    /// and the files its relative `$ref`s name (written encoded, as URI references are).
    #[test]
    fn file_names_that_uris_must_escape_are_served() {
        let dir = std::env::temp_dir().join(format!("codegen-names-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("my parts")).unwrap();
        std::fs::write(
            dir.join("my schema #1.json"),
            r#"{"type": "object", "properties": {"n": {"$ref": "my%20parts/100%25.json"}}}"#,
        )
        .unwrap();
        std::fs::write(
            dir.join("my parts").join("100%.json"),
            r#"{"type": "string", "not": {"const": ""}}"#,
        )
        .unwrap();
        let module = Builder::new(dir.join("my schema #1.json")).generate();
        std::fs::remove_dir_all(&dir).unwrap();
        let module = module.unwrap();
        assert!(
            module.contains(r#"base: "json-schema:///my%20schema%20%231.json""#),
            "{module}"
        );
        assert!(
            module.contains(r#""json-schema:///my%20parts/100%25.json""#),
            "{module}"
        );
    }

    /// Files that are each nothing but a `$ref` to the next, round to the first, never reach a
    /// value: refused, as the same cycle in one file is.
    #[test]
    fn a_cycle_of_refs_across_files_is_refused() {
        let dir = std::env::temp_dir().join(format!("codegen-cycle-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
        write("c1.json", r#"{"title": "C1", "$ref": "c2.json"}"#);
        write("c2.json", r#"{"description": "back", "$ref": "./c1.json"}"#);
        write(
            "a.json",
            r#"{"type": "object", "properties": {"x": {"$ref": "b.json"}}}"#,
        );
        write("b.json", r#"{"$ref": "c.json"}"#);
        write("c.json", r#"{"$ref": "b.json"}"#);
        write(
            "ok.json",
            r#"{"type": "object", "properties": {"x": {"$ref": "d.json"}}}"#,
        );
        write("d.json", r#"{"$ref": "e.json"}"#);
        write("e.json", r#"{"type": "string", "not": {"const": ""}}"#);
        let outcome = |name: &str| {
            Builder::new(dir.join(name))
                .generate()
                .map_err(|e| e.to_string())
        };
        let (root, member, fine) = (outcome("c1.json"), outcome("a.json"), outcome("ok.json"));
        std::fs::remove_dir_all(&dir).unwrap();
        for (what, outcome) in [("root", root), ("member", member)] {
            let error = outcome.unwrap_err();
            assert!(
                error.contains("a cycle of `$ref`s across files that never reaches a value"),
                "{what}: {error}"
            );
        }
        assert!(fine.is_ok(), "{fine:?}");
    }

    #[test]
    fn a_replacement_that_is_not_a_rust_type_is_refused() {
        let schema = r#"{"title": "Order", "type": "object", "$defs": {"Kind": {"enum": ["a"]}}}"#;
        let error = Builder::from_text("o.json", schema)
            .replace("Kind", "my kind!")
            .generate()
            .unwrap_err();
        assert!(
            matches!(&error, BuilderError::Pipeline(PipelineError::NotARustType { definition, rust_type, .. })
                if definition == "Kind" && rust_type == "my kind!"),
            "{error:?}"
        );
        assert!(
            error.to_string().starts_with(
                "family `user`: `replace` gives `Kind` the type `my kind!`, which is not a Rust type: "
            ),
            "{error}"
        );
        for bad in ["_", "impl std::fmt::Debug"] {
            let error = Builder::from_text("o.json", schema)
                .replace("Kind", bad)
                .generate()
                .unwrap_err();
            assert!(
                error.to_string().contains("is not a field's type"),
                "{error}"
            );
        }
        for fine in [
            "crate::kinds::Kind",
            "Vec<String>",
            "std::collections::BTreeMap<String, u8>",
        ] {
            assert!(
                Builder::from_text("o.json", schema)
                    .replace("Kind", fine)
                    .generate()
                    .is_ok(),
                "{fine}"
            );
        }
    }

    /// Requests told apart by `method` and results by shape, MCP's way.
    const PAIRED: &str = r##"{
        "$defs": {
            "PingRequest": {"type": "object", "required": ["method"],
                "properties": {"method": {"const": "ping"}}},
            "ListThingsRequest": {"type": "object", "required": ["method"],
                "properties": {"method": {"const": "things/list"}}},
            "GoneRequest": {"type": "object", "required": ["method"],
                "properties": {"method": {"const": "gone"}}},
            "Requests": {"anyOf": [{"$ref": "#/$defs/PingRequest"},
                {"$ref": "#/$defs/ListThingsRequest"}, {"$ref": "#/$defs/GoneRequest"}]},
            "Result": {"type": "object", "properties": {"_meta": {"type": "object"}}},
            "EmptyResult": {"$ref": "#/$defs/Result"},
            "ListThingsResult": {"type": "object", "required": ["things"],
                "properties": {"things": {"type": "array", "items": {"type": "string"}}}},
            "GoneResult": {"type": "object", "properties": {"at": {"type": "string"}}},
            "Results": {"anyOf": [{"$ref": "#/$defs/Result"},
                {"$ref": "#/$defs/ListThingsResult"}]}
        }
    }"##;

    #[test]
    fn paired_results_pair_each_method_with_its_branch() {
        let builder = Builder::from_text("p.json", PAIRED)
            .check_assertions(false)
            .paired_results("Requests", "Results");
        let model = builder.model().unwrap();
        let pair =
            |value: &str, request: &str, result: Option<&str>, empty: bool| crate::model::Pair {
                value: value.to_owned(),
                request: request.to_owned(),
                result: result.map(str::to_owned),
                empty,
            };
        assert_eq!(
            model.pairings,
            [crate::model::Pairing {
                requests: "Requests".to_owned(),
                results: "Results".to_owned(),
                tag: "method".to_owned(),
                pairs: vec![
                    // No `PingResult`: the branch of `EmptyResult`'s type.
                    pair("ping", "PingRequest", Some("Result"), true),
                    pair(
                        "things/list",
                        "ListThingsRequest",
                        Some("ListThingsResult"),
                        false
                    ),
                    // `GoneResult` is a type but no branch: left to the union.
                    pair("gone", "GoneRequest", None, false),
                ],
            }]
        );
        let text = builder.generate().unwrap();
        for expected in [
            "pub fn decode_for(\n        method: &str,\n        json: &[u8],\n    ) -> ::std::result::Result<rt::Decoded<Self>, rt::DecodeError> {",
            "\"ping\" => rt::decode_paired(json, limits, Self::Result),",
            "\"things/list\" => rt::decode_paired(json, limits, Self::ListThingsResult),",
            "_ => rt::decode_union(json, limits),",
            "Self::decode_for_with(method, json, &rt::DECODE_LIMITS)",
            "pub fn decode_for_with(\n        method: &str,\n        json: &[u8],\n        limits: &rt::DecodeLimits,\n    ) -> ::std::result::Result<rt::Decoded<Self>, rt::DecodeError> {",
            "with no branch of their own here (`gone`)",
            "pub fn method(&self) -> &'static str {",
            "Self::Gone(_) => \"gone\",",
        ] {
            assert!(text.contains(expected), "{expected}\n{text}");
        }
        // Without the setting, neither function.
        let plain = Builder::from_text("p.json", PAIRED)
            .check_assertions(false)
            .generate()
            .unwrap();
        assert!(!plain.contains("decode_for") && !plain.contains("fn method"));
    }

    /// [`PAIRED`] with result unions a branch decode would not agree with.
    const PAIRED_REFUSED: &str = r##"{
        "$defs": {
            "PingRequest": {"type": "object", "required": ["method"],
                "properties": {"method": {"const": "ping"}}},
            "ListThingsRequest": {"type": "object", "required": ["method"],
                "properties": {"method": {"const": "things/list"}}},
            "Requests": {"anyOf": [{"$ref": "#/$defs/PingRequest"},
                {"$ref": "#/$defs/ListThingsRequest"}]},
            "Result": {"type": "object", "properties": {"_meta": {"type": "object"}}},
            "ListThingsResult": {"type": "object", "required": ["things"],
                "properties": {"things": {"type": "array", "items": {"type": "string"}}}},
            "Results": {"anyOf": [{"$ref": "#/$defs/Result"},
                {"$ref": "#/$defs/ListThingsResult"}]},
            "OneResults": {"oneOf": [{"$ref": "#/$defs/Result"},
                {"$ref": "#/$defs/ListThingsResult"}]},
            "TaggedResults": {"anyOf": [{"$ref": "#/$defs/PingRequest"},
                {"$ref": "#/$defs/ListThingsRequest"}]},
            "CheckedResults": {"anyOf": [{"$ref": "#/$defs/Result"},
                {"$ref": "#/$defs/ListThingsResult"}], "maxProperties": 3}
        }
    }"##;

    #[test]
    fn paired_results_refuse_what_cannot_pair() {
        for (requests, results, message) in [
            (
                "Requests",
                "Nope",
                "family `user`: `paired_results` names `Nope`, which is not a definition of the schema",
            ),
            (
                "Results",
                "Results",
                "`p.json`: definition `Results`: `paired_results` needs a union told apart by a tag member for the requests at `/$defs/Results`",
            ),
            (
                "Requests",
                "Result",
                "`p.json`: definition `Result`: `paired_results` needs a union for the results at `/$defs/Result`",
            ),
            (
                "Requests",
                "OneResults",
                "`p.json`: definition `OneResults`: `paired_results` needs an `anyOf` for the results, not a `oneOf` (a value two branches accept is refused) at `/$defs/OneResults`",
            ),
            (
                "Requests",
                "TaggedResults",
                "`p.json`: definition `TaggedResults`: `paired_results` needs results told apart by shape, not by a tag member at `/$defs/TaggedResults`",
            ),
            (
                "Requests",
                "CheckedResults",
                "`p.json`: definition `CheckedResults`: `paired_results` needs a result union without checks of its own at `/$defs/CheckedResults`",
            ),
        ] {
            let error = Builder::from_text("p.json", PAIRED_REFUSED)
                .paired_results(requests, results)
                .generate()
                .unwrap_err();
            assert_eq!(error.to_string(), message);
        }
        // A union paired twice would get its functions twice.
        let error = Builder::from_text("p.json", PAIRED_REFUSED)
            .paired_results("Requests", "Results")
            .paired_results("Requests", "Results")
            .generate()
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "`p.json`: definition `Requests`: `paired_results` names it a second time (a union is paired once) at `/$defs/Requests`"
        );
        // Unions the roots leave out are named as such.
        let error = Builder::from_text("p.json", PAIRED_REFUSED)
            .roots(["ListThingsResult"])
            .paired_results("Requests", "Results")
            .generate()
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "`p.json`: definition `Requests`: `paired_results` names it, but the `roots` set do not reach it (add it to them) at `/$defs/Requests`"
        );
    }
}
