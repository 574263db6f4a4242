//! ACP schema import: produce `schema/acp/acp.schema.json` and its `PROVENANCE.json`.
//!
//! Two sources ([`Source`]):
//!
//! - [`export`] exports the ACP v1 JSON Schema from a pinned version of the official crate
//!   `agent-client-protocol-schema` with schemars 1.x. It builds a scratch Cargo project under
//!   `target/acp-export/<version>/` (its own `[workspace]`, never in the source tree) around our
//!   exporter program `xtask/exporter/main.rs`, runs it with
//!   `cargo run --release --quiet --locked` and keeps its stdout.
//! - [`read_file`] takes a published `schema.json` as it is.
//!
//! Either way the schema file is written byte for byte as produced ([`Imported::write`]: pretty
//! JSON as the exporter prints it, or the published file's bytes) and `PROVENANCE.json` records
//! where it came from and its sha256. [`import`] (`toolcall-codegen acp import`) does the whole
//! step: write `schema/acp/`, regenerate `generated/` (restoring `schema/acp/` when the pipeline
//! fails), and add a `CHANGELOG.md` entry ([`crate::changelog`]).

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::changelog::{self, RustApi};
use toolcall_schema::diff as schema_diff;

/// The crate the ACP schema is exported from.
pub const ACP_CRATE: &str = "agent-client-protocol-schema";

/// The schema file, relative to the workspace root.
pub const SCHEMA_FILE: &str = "schema/acp/acp.schema.json";

/// The provenance record, relative to the workspace root.
pub const PROVENANCE_FILE: &str = "schema/acp/PROVENANCE.json";

/// The schemars settings of the exporter program, as recorded in `PROVENANCE.json`.
///
/// These are how upstream publishes `schema.json`. Each entry appears verbatim in
/// `xtask/exporter/main.rs` (a unit test checks it).
pub const SETTINGS: [&str; 4] = [
    "SchemaSettings::draft2020_12()",
    "untagged_enum_variant_titles = true",
    "RemoveRefSiblings::default()",
    "ReplaceBoolSchemas: skip_additional_properties = true",
];

/// The exporter program, copied into the scratch project as `src/main.rs`.
const EXPORTER_MAIN: &str = include_str!("../exporter/main.rs");

/// How many lines of a failed cargo's stderr an error keeps.
const STDERR_TAIL_LINES: usize = 30;

/// The errors of the ACP schema import.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The requested crate version is not `MAJOR.MINOR.PATCH` (with an optional pre-release).
    #[error("invalid crate version `{version}`, expected `MAJOR.MINOR.PATCH`")]
    InvalidVersion {
        /// The version as given.
        version: String,
    },
    /// Cargo could not be started.
    #[error("cannot start `{command}`: {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// Why it could not start.
        source: io::Error,
    },
    /// Cargo ran and failed.
    #[error("`{command}` failed ({status}), stderr ends with:\n{stderr_tail}")]
    Cargo {
        /// The command line.
        command: String,
        /// Its exit status.
        status: ExitStatus,
        /// The last lines of its stderr.
        stderr_tail: String,
    },
    /// Reading, writing or creating a file or directory failed.
    #[error("cannot {action} `{path}`: {source}")]
    Io {
        /// What was attempted: `read`, `write`, `remove`, `create directory`, `list directory`.
        action: &'static str,
        /// The path it was attempted on.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The exporter's output, `cargo metadata`'s output or an imported file is not JSON.
    #[error("invalid JSON from `{origin}`: {source}")]
    InvalidJson {
        /// The command or file the JSON came from.
        origin: String,
        /// The parse error.
        source: serde_json::Error,
    },
    /// The pipeline failed on the imported schema; `schema/acp/` was put back as it was.
    #[error("the imported schema does not generate, `schema/acp/` restored: {source}")]
    Pipeline {
        /// The pipeline's error.
        source: Box<toolcall_codegen::PipelineError>,
    },
    /// `generated/` could not be written.
    #[error("{source}")]
    Emit {
        /// The write error.
        source: toolcall_codegen::repo::EmitError,
    },
    /// A generated file is not Rust (read for the changelog's API diff).
    #[error("`{path}` is not a Rust file: {source}")]
    RustSyntax {
        /// The file.
        path: PathBuf,
        /// The parse error.
        source: syn::Error,
    },
    /// The scratch project did not resolve a package it needs.
    #[error("`{path}` has no `{package}` matching `{requirement}`")]
    MissingPackage {
        /// The package name.
        package: &'static str,
        /// The version it was looked up with.
        requirement: String,
        /// The `Cargo.lock` or metadata it was looked up in.
        path: PathBuf,
    },
}

/// Where `acp.schema.json` came from: the content of `PROVENANCE.json`.
///
/// ```json
/// {
///   "source": "crate",
///   "crate": "agent-client-protocol-schema",
///   "crateVersion": "1.20.0",
///   "schemarsVersion": "1.2.3",
///   "settings": ["SchemaSettings::draft2020_12()", "..."],
///   "root": { "title": "Agent Client Protocol", "serde": "untagged", "...": "..." },
///   "schemaFile": "acp.schema.json",
///   "sha256": "<hex of the schema file's bytes>"
/// }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    tag = "source",
    rename_all = "lowercase",
    rename_all_fields = "camelCase"
)]
#[non_exhaustive]
pub enum Provenance {
    /// Exported from the official crate by [`run`].
    Crate {
        /// Always [`ACP_CRATE`].
        #[serde(rename = "crate")]
        crate_name: String,
        /// The exact crate version (`=X.Y.Z` in the scratch project).
        crate_version: String,
        /// The schemars version that the scratch project's `Cargo.lock` resolved.
        schemars_version: String,
        /// The schemars settings, [`SETTINGS`].
        settings: Vec<String>,
        /// The root type the schema was generated for.
        root: RootType,
        /// The schema file's name, beside `PROVENANCE.json`.
        schema_file: String,
        /// Lowercase hex sha256 of the schema file's bytes.
        sha256: String,
    },
    /// Copied as it is from a published `schema.json` by [`import_file`].
    File {
        /// The imported path, as given.
        file: String,
        /// The schema file's name, beside `PROVENANCE.json`.
        schema_file: String,
        /// Lowercase hex sha256 of the schema file's bytes (the same as the imported file's).
        sha256: String,
    },
}

/// The exporter's root type, as recorded in `PROVENANCE.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RootType {
    /// The Rust name of the root type in the exporter program.
    pub name: String,
    /// Its `#[schemars(title)]`, the schema's `title`.
    pub title: String,
    /// Its serde representation.
    pub serde: String,
    /// The module the ACP types were taken from.
    pub types_from: String,
    /// Its variants, with their payload types.
    pub variants: Vec<String>,
}

/// What the pinned crate version provides, detected from its source.
///
/// Each field is a feature of the scratch project that `xtask/exporter/main.rs` checks with
/// `#[cfg(feature = ...)]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct CrateLayout {
    /// The types live in the `v1` module (feature `v1_module`), else at the crate root.
    pub v1_module: bool,
    /// The crate has `ProtocolLevelNotification` (feature `protocol_level`).
    pub protocol_level: bool,
}

impl CrateLayout {
    /// Detects the layout from the crate's `src/lib.rs` and the text of all its source files.
    #[must_use]
    pub fn detect<'a>(lib_rs: &str, sources: impl IntoIterator<Item = &'a str>) -> Self {
        Self {
            v1_module: lib_rs.lines().any(|line| line.trim() == "pub mod v1;"),
            protocol_level: sources
                .into_iter()
                .any(|source| source.contains("pub enum ProtocolLevelNotification")),
        }
    }

    /// The scratch project's features to enable, comma separated (may be empty).
    #[must_use]
    pub fn features(self) -> String {
        let mut features = Vec::new();
        if self.v1_module {
            features.push("v1_module");
        }
        if self.protocol_level {
            features.push("protocol_level");
        }
        features.join(",")
    }

    /// The exporter's root type under this layout.
    #[must_use]
    pub fn root_type(self) -> RootType {
        let mut variants = vec![
            "Agent(JsonRpcMessage<AgentOutgoingMessage>)".to_owned(),
            "Client(JsonRpcMessage<ClientOutgoingMessage>)".to_owned(),
        ];
        if self.protocol_level {
            variants.push(
                "ProtocolLevel(JsonRpcMessage<Notification<ProtocolLevelNotification>>)".to_owned(),
            );
        }
        RootType {
            name: "AgentClientProtocol".to_owned(),
            title: "Agent Client Protocol".to_owned(),
            serde: "untagged".to_owned(),
            types_from: if self.v1_module {
                "agent_client_protocol_schema::v1".to_owned()
            } else {
                "agent_client_protocol_schema".to_owned()
            },
            variants,
        }
    }
}

/// The result of [`run`] or [`import_file`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Exported {
    /// The written schema file.
    pub schema_path: PathBuf,
    /// The written provenance file.
    pub provenance_path: PathBuf,
    /// What was written to it.
    pub provenance: Provenance,
    /// The number of entries in the schema's `$defs`.
    pub def_count: usize,
}

/// Exports the ACP v1 schema of `agent-client-protocol-schema` `=crate_version` into
/// `root/schema/acp/`.
///
/// Builds and runs the scratch project `root/target/acp-export/<crate_version>/` with the cargo
/// of the `CARGO` environment variable (else `cargo` on `PATH`); needs crates.io or a warm cargo
/// cache. The first run compiles the crate and its dependencies in release mode.
///
/// # Errors
///
/// - [`ExportError::InvalidVersion`] when `crate_version` is not `MAJOR.MINOR.PATCH`;
/// - [`ExportError::Spawn`] when cargo cannot be started;
/// - [`ExportError::Cargo`] when `cargo metadata` (resolution) or `cargo run` fails, for example
///   for a version that does not exist;
/// - [`ExportError::InvalidJson`] when the exporter or `cargo metadata` prints something else
///   than JSON;
/// - [`ExportError::MissingPackage`] when the resolved graph lacks the crate or schemars 1.x;
/// - [`ExportError::Io`] when a file cannot be read or written.
pub fn run(root: &Path, crate_version: &str) -> Result<Exported, ExportError> {
    export(root, crate_version)?.write(root)
}

/// Exports the ACP v1 schema of `agent-client-protocol-schema` `=crate_version` without writing
/// it: [`run`] without the last step.
///
/// The scratch project is `root/target/acp-export/<crate_version>/` as for [`run`].
///
/// # Errors
///
/// As [`run`].
pub fn export(root: &Path, crate_version: &str) -> Result<Imported, ExportError> {
    check_version(crate_version)?;
    let scratch = root.join("target").join("acp-export").join(crate_version);
    let src = scratch.join("src");
    create_dir(&src)?;
    write_if_changed(
        &scratch.join("Cargo.toml"),
        &render_cargo_toml(crate_version),
    )?;
    write_if_changed(&src.join("main.rs"), EXPORTER_MAIN)?;

    let crate_dir = resolve_crate_dir(&scratch, crate_version)?;
    let layout = detect_layout(&crate_dir)?;

    let mut args = vec!["run", "--release", "--quiet", "--locked"];
    let features = layout.features();
    if !features.is_empty() {
        args.extend(["--features", &features]);
    }
    let stdout = cargo(&scratch, &args)?;
    let command = format!("cargo {}", args.join(" "));
    let schema = parse_json(&stdout, &command)?;
    let text = String::from_utf8_lossy(&stdout);
    let text = format!("{}\n", text.trim_end());

    let lock_path = scratch.join("Cargo.lock");
    let lock = read_to_string(&lock_path)?;
    let schemars_version = locked_versions(&lock, "schemars")
        .into_iter()
        .find(|version| version.starts_with("1."))
        .ok_or_else(|| ExportError::MissingPackage {
            package: "schemars",
            requirement: "1".to_owned(),
            path: lock_path.clone(),
        })?;

    let provenance = Provenance::Crate {
        crate_name: ACP_CRATE.to_owned(),
        crate_version: crate_version.to_owned(),
        schemars_version,
        settings: SETTINGS.iter().map(|s| (*s).to_owned()).collect(),
        root: layout.root_type(),
        schema_file: schema_file_name(),
        sha256: sha256_hex(text.as_bytes()),
    };
    Ok(Imported {
        bytes: text.into_bytes(),
        schema,
        provenance,
    })
}

/// Imports a published ACP `schema.json` as it is into `root/schema/acp/`, with a provenance
/// record naming `path` as given and the file's sha256.
///
/// # Errors
///
/// - [`ExportError::Io`] when `path` cannot be read or an output cannot be written;
/// - [`ExportError::InvalidJson`] when `path` is not JSON.
pub fn import_file(root: &Path, path: &Path) -> Result<Exported, ExportError> {
    read_file(path)?.write(root)
}

/// Reads a published ACP `schema.json` as it is, with a provenance record naming `path` as
/// given: [`import_file`] without writing.
///
/// # Errors
///
/// - [`ExportError::Io`] when `path` cannot be read;
/// - [`ExportError::InvalidJson`] when `path` is not JSON.
pub fn read_file(path: &Path) -> Result<Imported, ExportError> {
    let bytes = std::fs::read(path).map_err(|source| ExportError::Io {
        action: "read",
        path: path.to_owned(),
        source,
    })?;
    let schema = parse_json(&bytes, &path.display().to_string())?;
    let provenance = Provenance::File {
        file: path.display().to_string(),
        schema_file: schema_file_name(),
        sha256: sha256_hex(&bytes),
    };
    Ok(Imported {
        bytes,
        schema,
        provenance,
    })
}

/// A schema ready for `schema/acp/`: the file's bytes, the parsed document, the provenance.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Imported {
    /// The schema file's bytes, as they will be written.
    pub bytes: Vec<u8>,
    /// The parsed schema.
    pub schema: serde_json::Value,
    /// Where it came from.
    pub provenance: Provenance,
}

impl Imported {
    /// Writes the schema file and `PROVENANCE.json` into `root/schema/acp/`.
    ///
    /// # Errors
    /// [`ExportError::Io`] when a directory cannot be created or a file cannot be written.
    pub fn write(&self, root: &Path) -> Result<Exported, ExportError> {
        write_outputs(
            root,
            &root.join(SCHEMA_FILE),
            &self.bytes,
            self.provenance.clone(),
            &self.schema,
        )
    }
}

/// Where `acp import` takes the schema from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source {
    /// Exported from this version of the official crate ([`export`]).
    Crate {
        /// `MAJOR.MINOR.PATCH`.
        version: String,
    },
    /// A published `schema.json`, as it is ([`read_file`]).
    File {
        /// The file.
        path: PathBuf,
    },
}

/// What [`import`] did.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ImportReport {
    /// The schema and provenance written.
    pub exported: Exported,
    /// The generated files written, relative to the root.
    pub generated: Vec<PathBuf>,
    /// The changelog entry (also when it was not written).
    pub entry: changelog::Entry,
    /// `CHANGELOG.md` when an entry was added; `None` when neither the schema nor the generated
    /// API changed.
    pub changelog: Option<PathBuf>,
}

/// Imports the ACP schema from `source` into `root/schema/acp/`, regenerates `generated/` and
/// adds a `CHANGELOG.md` entry dated `date` (`YYYY-MM-DD`).
///
/// The pipeline runs on the new schema before anything in `generated/` is written; when it
/// fails, `schema/acp/` is put back as it was. The entry compares the previous schema and
/// `generated/acp.rs` (none on a first import) with the new ones; it is not written when
/// neither changed.
///
/// # Errors
///
/// - what [`export`] or [`read_file`] return;
/// - [`ExportError::Pipeline`] when the pipeline fails on the new schema (restored);
/// - [`ExportError::Emit`] when `generated/` cannot be written;
/// - [`ExportError::RustSyntax`] when the old or new `generated/acp.rs` is not Rust;
/// - [`ExportError::InvalidJson`] when the previous schema file is not JSON;
/// - [`ExportError::Io`] when a file cannot be read or written.
pub fn import(root: &Path, source: &Source, date: &str) -> Result<ImportReport, ExportError> {
    let schema_path = root.join(SCHEMA_FILE);
    let provenance_path = root.join(PROVENANCE_FILE);
    let generated_path = root.join(acp_output());
    let old_schema_bytes = read_optional(&schema_path)?;
    let old_provenance_bytes = read_optional(&provenance_path)?;
    let old_schema = old_schema_bytes
        .as_deref()
        .map(|bytes| parse_json(bytes, &schema_path.display().to_string()))
        .transpose()?;
    let old_api = match read_optional(&generated_path)? {
        Some(bytes) => parse_api(&generated_path, &String::from_utf8_lossy(&bytes))?,
        None => RustApi::default(),
    };
    let from = old_schema.as_ref().map(|_| {
        old_provenance_bytes
            .as_deref()
            .and_then(|bytes| serde_json::from_slice(bytes).ok())
            .map_or_else(|| "the previous schema".to_owned(), |p| label_of(&p))
    });

    let imported = match source {
        Source::Crate { version } => export(root, version)?,
        Source::File { path } => read_file(path)?,
    };
    let exported = imported.write(root)?;
    let outputs = match toolcall_codegen::repo::generate_all(root) {
        Ok(outputs) => outputs,
        Err(error) => {
            restore(&schema_path, old_schema_bytes.as_deref())?;
            restore(&provenance_path, old_provenance_bytes.as_deref())?;
            return Err(ExportError::Pipeline {
                source: Box::new(error),
            });
        }
    };
    toolcall_codegen::repo::write(root, &outputs).map_err(|source| ExportError::Emit { source })?;
    let new_text = outputs
        .iter()
        .find(|output| output.path == Path::new(acp_output()))
        .map_or("", |output| output.text.as_str());
    let new_api = parse_api(&generated_path, new_text)?;

    let empty = serde_json::json!({ "$defs": {} });
    let old_document = old_schema.as_ref().unwrap_or(&empty);
    let entry = changelog::Entry {
        to: label_of(&serde_json::to_value(&imported.provenance).unwrap_or_default()),
        from,
        date: date.to_owned(),
        sha256: sha256_hex(&imported.bytes),
        definitions: (
            old_document["$defs"]
                .as_object()
                .map_or(0, serde_json::Map::len),
            exported.def_count,
        ),
        schema_changes: schema_diff::diff(old_document, &imported.schema),
        api: (old_api, new_api),
    };
    let changelog = if entry.from.is_some() && entry.is_empty() {
        None
    } else {
        let path = root.join(changelog::CHANGELOG_FILE);
        let current = read_optional(&path)?.unwrap_or_default();
        let text = changelog::insert_entry(&String::from_utf8_lossy(&current), &entry.render());
        write(&path, text.as_bytes())?;
        Some(path)
    };
    Ok(ImportReport {
        exported,
        generated: outputs.into_iter().map(|output| output.path).collect(),
        entry,
        changelog,
    })
}

/// `crate 1.20.0` or ``file `path` `` from a `PROVENANCE.json` document.
/// The ACP family's generated file (`generated/acp.rs`).
fn acp_output() -> &'static str {
    toolcall_codegen::repo::output_of("acp").expect("the ACP preset exists")
}

fn label_of(provenance: &serde_json::Value) -> String {
    match (
        provenance["source"].as_str(),
        provenance["crateVersion"].as_str(),
        provenance["file"].as_str(),
    ) {
        (Some("crate"), Some(version), _) => format!("crate {version}"),
        (Some("file"), _, Some(file)) => format!("file `{file}`"),
        _ => "the previous schema".to_owned(),
    }
}

fn parse_api(path: &Path, text: &str) -> Result<RustApi, ExportError> {
    RustApi::parse(text).map_err(|source| ExportError::RustSyntax {
        path: path.to_owned(),
        source,
    })
}

/// The bytes of `path`, `None` when it does not exist.
fn read_optional(path: &Path) -> Result<Option<Vec<u8>>, ExportError> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ExportError::Io {
            action: "read",
            path: path.to_owned(),
            source,
        }),
    }
}

/// Puts a file back as it was: its old bytes, or no file.
fn restore(path: &Path, bytes: Option<&[u8]>) -> Result<(), ExportError> {
    match bytes {
        Some(bytes) => write(path, bytes),
        None => std::fs::remove_file(path).map_err(|source| ExportError::Io {
            action: "remove",
            path: path.to_owned(),
            source,
        }),
    }
}

/// The scratch project's `Cargo.toml` for `crate_version`.
///
/// It is its own workspace, so that a scratch directory under the workspace's `target/` is not
/// taken for a member.
#[must_use]
pub fn render_cargo_toml(crate_version: &str) -> String {
    format!(
        r#"# Scratch project of `cargo xtask acp import --crate-version {crate_version}`.
# Not part of the toolcall-contracts workspace; src/main.rs is xtask/exporter/main.rs.
[package]
name = "acp-schema-exporter"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[features]
v1_module = []
protocol_level = []

[dependencies]
{ACP_CRATE} = "={crate_version}"
schemars = "1"
serde_json = "1"
"#
    )
}

/// Renders a provenance record as written: pretty JSON, 2-space indent, trailing newline.
///
/// # Panics
///
/// Never: a [`Provenance`] has only string keys and string or list values.
#[must_use]
pub fn render_provenance(provenance: &Provenance) -> String {
    let mut text = serde_json::to_string_pretty(provenance)
        .expect("a provenance record has only string keys and values");
    text.push('\n');
    text
}

/// The versions of package `name` in a `Cargo.lock`, in file order.
#[must_use]
pub fn locked_versions(lock: &str, name: &str) -> Vec<String> {
    let name_line = format!("name = \"{name}\"");
    let mut lines = lock.lines().map(str::trim);
    let mut versions = Vec::new();
    while let Some(line) = lines.next() {
        if line != name_line {
            continue;
        }
        let version = lines
            .next()
            .and_then(|line| line.strip_prefix("version = \""))
            .and_then(|rest| rest.strip_suffix('"'));
        if let Some(version) = version {
            versions.push(version.to_owned());
        }
    }
    versions
}

/// Accepts `MAJOR.MINOR.PATCH` with an optional `-pre` of ASCII alphanumerics, `.` and `-`.
fn check_version(version: &str) -> Result<(), ExportError> {
    let (core, pre) = match version.split_once('-') {
        Some((core, pre)) => (core, Some(pre)),
        None => (version, None),
    };
    let core_ok = {
        let parts: Vec<&str> = core.split('.').collect();
        parts.len() == 3
            && parts
                .iter()
                .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
    };
    let pre_ok = pre.is_none_or(|pre| {
        !pre.is_empty()
            && pre
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
    });
    if core_ok && pre_ok {
        Ok(())
    } else {
        Err(ExportError::InvalidVersion {
            version: version.to_owned(),
        })
    }
}

/// Resolves the scratch project (writing its `Cargo.lock`) and returns the source directory of
/// the pinned crate.
fn resolve_crate_dir(scratch: &Path, crate_version: &str) -> Result<PathBuf, ExportError> {
    let args = ["metadata", "--format-version", "1"];
    let stdout = cargo(scratch, &args)?;
    let metadata = parse_json(&stdout, &format!("cargo {}", args.join(" ")))?;
    let manifest = metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|package| package["name"] == ACP_CRATE && package["version"] == crate_version)
        .and_then(|package| package["manifest_path"].as_str());
    match manifest.and_then(|manifest| Path::new(manifest).parent()) {
        Some(dir) => Ok(dir.to_owned()),
        None => Err(ExportError::MissingPackage {
            package: ACP_CRATE,
            requirement: format!("={crate_version}"),
            path: scratch.join("Cargo.toml"),
        }),
    }
}

/// Reads the crate's `src/` and detects its [`CrateLayout`].
fn detect_layout(crate_dir: &Path) -> Result<CrateLayout, ExportError> {
    let src = crate_dir.join("src");
    let lib_rs = read_to_string(&src.join("lib.rs"))?;
    let mut files = Vec::new();
    collect_rs_files(&src, &mut files)?;
    let sources = files
        .iter()
        .map(|file| read_to_string(file))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(CrateLayout::detect(
        &lib_rs,
        sources.iter().map(String::as_str),
    ))
}

fn collect_rs_files(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), ExportError> {
    let list_error = |source| ExportError::Io {
        action: "list directory",
        path: dir.to_owned(),
        source,
    };
    for entry in std::fs::read_dir(dir).map_err(list_error)? {
        let path = entry.map_err(list_error)?.path();
        if path.is_dir() {
            collect_rs_files(&path, files)?;
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    Ok(())
}

/// Runs cargo with `args` in `dir` and returns its stdout; the scratch project builds into its
/// own `target/` whatever `CARGO_TARGET_DIR` says.
fn cargo(dir: &Path, args: &[&str]) -> Result<Vec<u8>, ExportError> {
    let program = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let command = format!("cargo {}", args.join(" "));
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .output()
        .map_err(|source| ExportError::Spawn {
            command: command.clone(),
            source,
        })?;
    if output.status.success() {
        Ok(output.stdout)
    } else {
        Err(ExportError::Cargo {
            command,
            status: output.status,
            stderr_tail: tail(&String::from_utf8_lossy(&output.stderr), STDERR_TAIL_LINES),
        })
    }
}

/// The last `n` lines of `text`.
fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

pub(crate) fn parse_json(bytes: &[u8], origin: &str) -> Result<serde_json::Value, ExportError> {
    serde_json::from_slice(bytes).map_err(|source| ExportError::InvalidJson {
        origin: origin.to_owned(),
        source,
    })
}

fn schema_file_name() -> String {
    Path::new(SCHEMA_FILE)
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .fold(String::with_capacity(64), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        })
}

fn write_outputs(
    root: &Path,
    schema_path: &Path,
    schema_bytes: &[u8],
    provenance: Provenance,
    schema: &serde_json::Value,
) -> Result<Exported, ExportError> {
    if let Some(dir) = schema_path.parent() {
        create_dir(dir)?;
    }
    write(schema_path, schema_bytes)?;
    let provenance_path = root.join(PROVENANCE_FILE);
    write(&provenance_path, render_provenance(&provenance).as_bytes())?;
    Ok(Exported {
        schema_path: schema_path.to_owned(),
        provenance_path,
        provenance,
        def_count: schema["$defs"].as_object().map_or(0, serde_json::Map::len),
    })
}

pub(crate) fn create_dir(dir: &Path) -> Result<(), ExportError> {
    std::fs::create_dir_all(dir).map_err(|source| ExportError::Io {
        action: "create directory",
        path: dir.to_owned(),
        source,
    })
}

fn read_to_string(path: &Path) -> Result<String, ExportError> {
    std::fs::read_to_string(path).map_err(|source| ExportError::Io {
        action: "read",
        path: path.to_owned(),
        source,
    })
}

pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    std::fs::write(path, bytes).map_err(|source| ExportError::Io {
        action: "write",
        path: path.to_owned(),
        source,
    })
}

/// Writes only when the content differs, so that cargo does not rebuild an unchanged project.
fn write_if_changed(path: &Path, text: &str) -> Result<(), ExportError> {
    match std::fs::read_to_string(path) {
        Ok(current) if current == text => Ok(()),
        _ => write(path, text.as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cargo_toml_pins_the_crate_and_is_its_own_workspace() {
        let toml = render_cargo_toml("1.20.0");
        assert!(toml.contains("\nagent-client-protocol-schema = \"=1.20.0\"\n"));
        assert!(toml.contains("\nschemars = \"1\"\n"));
        assert!(toml.contains("\n[workspace]\n"));
        assert!(toml.contains("\nv1_module = []\nprotocol_level = []\n"));
    }

    #[test]
    fn exporter_uses_every_recorded_setting() {
        for needle in [
            "SchemaSettings::draft2020_12()",
            "untagged_enum_variant_titles = true",
            "RemoveRefSiblings::default()",
            "ReplaceBoolSchemas::default()",
            "skip_additional_properties = true",
        ] {
            assert!(EXPORTER_MAIN.contains(needle), "{needle}");
        }
        for setting in &SETTINGS[..3] {
            assert!(EXPORTER_MAIN.contains(setting), "{setting}");
        }
        assert!(EXPORTER_MAIN.contains("#[schemars(title = \"Agent Client Protocol\")]"));
        assert!(EXPORTER_MAIN.contains("#[cfg(feature = \"v1_module\")]"));
        assert!(EXPORTER_MAIN.contains("#[cfg(feature = \"protocol_level\")]"));
    }

    #[test]
    fn layout_is_detected_from_source() {
        let lib_v1 = "mod dispatch;\npub mod rpc;\npub mod v1;\n";
        let level = "/// x\npub enum ProtocolLevelNotification {\n";
        let layout = CrateLayout::detect(lib_v1, [lib_v1, level]);
        assert_eq!(
            layout,
            CrateLayout {
                v1_module: true,
                protocol_level: true
            }
        );
        assert_eq!(layout.features(), "v1_module,protocol_level");

        let old = CrateLayout::detect(
            "pub mod rpc;\n// pub mod v1;\n",
            ["pub enum AgentRequest {"],
        );
        assert_eq!(old, CrateLayout::default());
        assert_eq!(old.features(), "");
        assert_eq!(old.root_type().variants.len(), 2);
        assert_eq!(old.root_type().types_from, "agent_client_protocol_schema");
    }

    #[test]
    fn locked_versions_reads_cargo_lock_entries() {
        let lock = r#"version = 4

[[package]]
name = "schemars"
version = "0.8.22"

[[package]]
name = "schemars"
version = "1.2.3"
dependencies = [
 "dyn-clone",
]

[[package]]
name = "schemars_derive"
version = "1.2.3"
"#;
        assert_eq!(locked_versions(lock, "schemars"), ["0.8.22", "1.2.3"]);
        assert!(locked_versions(lock, "serde").is_empty());
    }

    #[test]
    fn provenance_renders_as_camel_case_pretty_json() {
        let layout = CrateLayout {
            v1_module: true,
            protocol_level: true,
        };
        let provenance = Provenance::Crate {
            crate_name: ACP_CRATE.to_owned(),
            crate_version: "1.20.0".to_owned(),
            schemars_version: "1.2.3".to_owned(),
            settings: vec!["SchemaSettings::draft2020_12()".to_owned()],
            root: layout.root_type(),
            schema_file: schema_file_name(),
            sha256: sha256_hex(b""),
        };
        let expected = r#"{
  "source": "crate",
  "crate": "agent-client-protocol-schema",
  "crateVersion": "1.20.0",
  "schemarsVersion": "1.2.3",
  "settings": [
    "SchemaSettings::draft2020_12()"
  ],
  "root": {
    "name": "AgentClientProtocol",
    "title": "Agent Client Protocol",
    "serde": "untagged",
    "typesFrom": "agent_client_protocol_schema::v1",
    "variants": [
      "Agent(JsonRpcMessage<AgentOutgoingMessage>)",
      "Client(JsonRpcMessage<ClientOutgoingMessage>)",
      "ProtocolLevel(JsonRpcMessage<Notification<ProtocolLevelNotification>>)"
    ]
  },
  "schemaFile": "acp.schema.json",
  "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
}
"#;
        assert_eq!(render_provenance(&provenance), expected);

        let file = Provenance::File {
            file: "schema.json".to_owned(),
            schema_file: schema_file_name(),
            sha256: "00".to_owned(),
        };
        assert_eq!(
            render_provenance(&file),
            "{\n  \"source\": \"file\",\n  \"file\": \"schema.json\",\n  \
             \"schemaFile\": \"acp.schema.json\",\n  \"sha256\": \"00\"\n}\n"
        );
    }

    #[test]
    fn versions_are_checked() {
        for good in ["1.20.0", "0.1.0", "1.0.0-alpha.1", "2.0.0-rc-1"] {
            assert!(check_version(good).is_ok(), "{good}");
        }
        for bad in [
            "", "1.20", "1.20.0.1", "1.x.0", "=1.20.0", "1.20.0-", "1.0.0\"x",
        ] {
            assert!(check_version(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn error_messages() {
        let invalid = check_version("1.2").unwrap_err();
        assert_eq!(
            invalid.to_string(),
            "invalid crate version `1.2`, expected `MAJOR.MINOR.PATCH`"
        );
        let io = ExportError::Io {
            action: "read",
            path: PathBuf::from("schema/acp/x.json"),
            source: io::Error::new(io::ErrorKind::NotFound, "not found"),
        };
        assert_eq!(io.to_string(), "cannot read `schema/acp/x.json`: not found");
        let json = parse_json(b"{", "cargo run").unwrap_err();
        assert_eq!(
            json.to_string(),
            "invalid JSON from `cargo run`: EOF while parsing an object at line 1 column 1"
        );
        let missing = ExportError::MissingPackage {
            package: "schemars",
            requirement: "1".to_owned(),
            path: PathBuf::from("Cargo.lock"),
        };
        assert_eq!(
            missing.to_string(),
            "`Cargo.lock` has no `schemars` matching `1`"
        );
        let pipeline = ExportError::Pipeline {
            source: Box::new(toolcall_codegen::PipelineError::Normalize(
                toolcall_codegen::NormalizeError::DuplicateDefinition {
                    path: PathBuf::from("b.json"),
                    definition: "A".to_owned(),
                },
            )),
        };
        assert_eq!(
            pipeline.to_string(),
            "the imported schema does not generate, `schema/acp/` restored: `b.json`: \
             definition `A` is already defined by another file of the family"
        );
        let emit = ExportError::Emit {
            source: toolcall_codegen::repo::EmitError::Write {
                path: PathBuf::from("generated/acp.rs"),
                source: io::Error::new(io::ErrorKind::PermissionDenied, "denied"),
            },
        };
        assert_eq!(emit.to_string(), "cannot write `generated/acp.rs`: denied");
        let syntax = ExportError::RustSyntax {
            path: PathBuf::from("generated/acp.rs"),
            source: syn::Error::new(proc_macro2::Span::call_site(), "expected item"),
        };
        assert_eq!(
            syntax.to_string(),
            "`generated/acp.rs` is not a Rust file: expected item"
        );
    }

    #[test]
    fn import_regenerates_adds_an_entry_and_restores_on_failure() {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let root = std::env::temp_dir().join(format!("acp-import-flow-{}", std::process::id()));
        for family in toolcall_codegen::repo::PRESETS
            .iter()
            .filter(|f| f.name != "acp")
        {
            for schema in family.schemas {
                let target = root.join(schema);
                create_dir(target.parent().unwrap()).unwrap();
                std::fs::copy(workspace.join(schema), target).unwrap();
            }
        }
        let source = Source::File {
            path: workspace.join(SCHEMA_FILE),
        };

        let first = import(&root, &source, "2026-01-02").unwrap();
        assert!(first.entry.from.is_none());
        assert_eq!(first.changelog, Some(root.join("CHANGELOG.md")));
        let changelog = std::fs::read_to_string(root.join("CHANGELOG.md")).unwrap();
        assert!(changelog.starts_with(changelog::HEADER));
        assert!(changelog.contains(&format!(
            "\n#### Initial import of file `{}` (2026-01-02)\n",
            workspace.join(SCHEMA_FILE).display()
        )));
        let generated = std::fs::read_to_string(root.join("generated/acp.rs")).unwrap();
        assert!(RustApi::parse(&generated)
            .unwrap()
            .types
            .contains_key("ToolCall"));

        let again = import(&root, &source, "2026-01-03").unwrap();
        assert_eq!(
            again.entry.from.as_deref(),
            Some(&*format!(
                "file `{}`",
                workspace.join(SCHEMA_FILE).display()
            ))
        );
        assert!(again.entry.is_empty());
        assert_eq!(again.changelog, None);

        let schema_before = std::fs::read(root.join(SCHEMA_FILE)).unwrap();
        let provenance_before = std::fs::read(root.join(PROVENANCE_FILE)).unwrap();
        let refused = root.join("refused.json");
        write(
            &refused,
            br#"{"$defs": {"A": {"type": "string", "if": {}}}}"#,
        )
        .unwrap();
        let error = import(&root, &Source::File { path: refused }, "2026-01-04").unwrap_err();
        assert!(matches!(error, ExportError::Pipeline { .. }), "{error}");
        assert_eq!(
            std::fs::read(root.join(SCHEMA_FILE)).unwrap(),
            schema_before
        );
        assert_eq!(
            std::fs::read(root.join(PROVENANCE_FILE)).unwrap(),
            provenance_before
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn provenance_labels() {
        let crate_provenance = serde_json::json!({"source": "crate", "crateVersion": "1.20.0"});
        assert_eq!(label_of(&crate_provenance), "crate 1.20.0");
        let file = serde_json::json!({"source": "file", "file": "a/schema.json"});
        assert_eq!(label_of(&file), "file `a/schema.json`");
        assert_eq!(label_of(&serde_json::json!({})), "the previous schema");
    }

    #[test]
    fn import_file_copies_bytes_and_records_sha256() {
        let root = std::env::temp_dir().join(format!("acp-import-test-{}", std::process::id()));
        let source = root.join("published.json");
        create_dir(&root).unwrap();
        let bytes = b"{\n  \"$defs\": {\n    \"A\": {}\n  }\n}\n";
        write(&source, bytes).unwrap();

        let exported = import_file(&root, &source).unwrap();
        assert_eq!(std::fs::read(&exported.schema_path).unwrap(), bytes);
        assert_eq!(exported.def_count, 1);
        let Provenance::File { sha256, .. } = &exported.provenance else {
            panic!("expected a file provenance");
        };
        assert_eq!(*sha256, sha256_hex(bytes));
        assert_eq!(
            std::fs::read_to_string(&exported.provenance_path).unwrap(),
            render_provenance(&exported.provenance)
        );

        write(&source, b"not json").unwrap();
        assert!(matches!(
            import_file(&root, &source),
            Err(ExportError::InvalidJson { .. })
        ));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
