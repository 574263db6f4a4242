//! The publishable schema bundle: every route, canonical and ACP schema file, ready for
//! consumers in any language (`toolcall schemas export DIR` writes it).
//!
//! # Layout
//!
//! ```text
//! DIR/index.json
//! DIR/route/tool-call-request.schema.json
//! DIR/canonical/{ids,limits,execution-class,tool-spec,tool-call,tool-result,lifecycle}.schema.json
//! DIR/acp/acp.schema.json
//! ```
//!
//! Every file declares `$schema` (JSON Schema 2020-12) and a unique absolute `$id`:
//! [`BASE_URI`] followed by its path in the bundle. Cross-file `$ref`s are relative
//! (`ids.schema.json#/$defs/ToolId`), so they resolve against the `$id`s to files of the bundle:
//! a consumer registers every file and fetches nothing. [`Bundle::build`] checks that every
//! `$ref` resolves inside the bundle, that every `pattern` means the same in Rust, ECMAScript
//! and Python ([`portable_pattern`]) and that every `format` is one all consumers check
//! ([`PORTABLE_FORMATS`]); it fails otherwise.
//!
//! `index.json` lists each file with its `$id`, version, `sha256` and what the bundle changed
//! from the source (`normalized`), the extension keywords a strict validator must be told
//! about, and the [`ROOT_TYPES`]:
//!
//! ```json
//! {"name": "toolcall-contracts", "version": "0.1.0",
//!  "base_uri": "https://toolcall-contracts.dev/schema/v1/",
//!  "dialect": "https://json-schema.org/draft/2020-12/schema",
//!  "formats": ["uri"], "extension_keywords": ["discriminator", "x-method", "..."],
//!  "files": [{"path": "acp/acp.schema.json", "$id": "https://.../acp/acp.schema.json",
//!             "family": "acp", "version": "1.20.0", "sha256": "...",
//!             "source": "schema/acp/acp.schema.json", "source_sha256": "...",
//!             "normalized": ["added `$id`", "..."]}],
//!  "root_types": [{"name": "acp.ToolCall", "file": "acp/acp.schema.json",
//!                  "pointer": "#/$defs/ToolCall", "$ref": "https://.../acp/acp.schema.json#/$defs/ToolCall"}]}
//! ```
//!
//! # What differs from the sources
//!
//! A file that needs no change is published byte for byte as its source (`sha256` equals
//! `source_sha256`): today every route and canonical file. A file that does, today only the ACP
//! file (exported from the official crate without an `$id`), is re-serialized (members in source
//! order, two-space indentation) with these changes, each neutral for a consumer that understood
//! the source:
//! - an `$id` ([`BASE_URI`]`acp/acp.schema.json`);
//! - the integer-width formats schemars writes (`int32`, `uint32`, `int64`, `uint64`,
//!   `uint16`) become the `minimum` and `maximum` of their range, and `double` is dropped: no
//!   consumer checked those formats (`jsonschema` checks formats on strings only, Python
//!   `jsonschema` does not know them, ajv in strict mode refuses the unsigned ones), all check
//!   `minimum`/`maximum`;
//! - `type: "object"` beside each `discriminator` whose `oneOf` branches are all objects (ajv's
//!   strict mode asks for it).
//!
//! # Reproducible
//!
//! The sources are embedded in the library (`include_str!`); the same sources give
//! byte-identical files whatever the features, platform or time (the index has no timestamps and
//! members keep their order without relying on `serde_json`'s `preserve_order`).
//!
//! ```
//! use toolcall_contracts::bundle::{Bundle, BASE_URI};
//!
//! let bundle = Bundle::build()?;
//! let route = bundle.file("route/tool-call-request.schema.json").unwrap();
//! assert_eq!(route.id, format!("{BASE_URI}route/tool-call-request.schema.json"));
//! assert_eq!(route.sha256, route.source_sha256); // published as its source
//!
//! let validator = bundle.validator("route.ToolCallRequest")?;
//! assert!(validator.is_valid(&serde_json::json!({"name": "search", "arguments": {}})));
//! assert!(!validator.is_valid(&serde_json::json!({"name": "search", "arguments": {}, "call_key": ""})));
//! # Ok::<(), toolcall_contracts::bundle::BundleError>(())
//! ```

mod check;
mod json;
mod normalize;
mod roots;
mod walk;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

pub use check::{portable_pattern, PORTABLE_FORMATS};
pub use roots::{root_type, RootType, ROOT_TYPES};

use json::Node;

/// The base URI of every published `$id`: a file's `$id` is this and its path in the bundle
/// (`route/...`, `canonical/...`, `acp/...`). The `v1` is the contract's major version.
pub const BASE_URI: &str = "https://toolcall-contracts.dev/schema/v1/";

/// The name of the index file at the bundle's root.
pub const INDEX_FILE: &str = "index.json";

/// The ACP schema's provenance record: the upstream crate and version it was exported from.
const ACP_PROVENANCE: &str = include_str!("../../schema/acp/PROVENANCE.json");

/// The contract family of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// `route/`: the route body ([`crate::route`]).
    Route,
    /// `canonical/`: the canonical tool model ([`crate::canonical`]).
    Canonical,
    /// `acp/`: the Agent Client Protocol v1 ([`crate::acp`]).
    Acp,
}

impl Family {
    /// The family's directory in the bundle and in `schema/`: `route`, `canonical` or `acp`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Family::Route => "route",
            Family::Canonical => "canonical",
            Family::Acp => "acp",
        }
    }
}

/// One published file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BundleFile {
    /// Path in the bundle, `/`-separated (`canonical/ids.schema.json`).
    pub path: String,
    /// The file's `$id`: [`BASE_URI`] and [`Self::path`].
    pub id: String,
    /// Its family.
    pub family: Family,
    /// Version of the contract the file belongs to: this crate's version for route and
    /// canonical files, the upstream crate's (`agent-client-protocol-schema`) for ACP.
    pub version: String,
    /// The published text (UTF-8, LF line endings, ending with a newline).
    pub contents: String,
    /// Lowercase hex SHA-256 of [`Self::contents`].
    pub sha256: String,
    /// The source file in this repository (`schema/acp/acp.schema.json`).
    pub source: String,
    /// Lowercase hex SHA-256 of the source file.
    pub source_sha256: String,
    /// What the bundle changed from the source, one sentence each (empty when published as
    /// the source).
    pub normalized: Vec<String>,
}

/// Why the bundle could not be built, written or used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BundleError {
    /// A source file is not JSON (or repeats a member name).
    #[error("`{file}` is not valid JSON")]
    Json {
        /// Path of the file in the bundle.
        file: String,
        /// The parser's error.
        source: serde_json::Error,
    },
    /// A source file's root is not an object.
    #[error("`{file}` is not a JSON object")]
    NotAnObject {
        /// Path of the file in the bundle.
        file: String,
    },
    /// A file declares a dialect other than 2020-12.
    #[error("`{file}` declares `$schema` `{found}`, expected `https://json-schema.org/draft/2020-12/schema`")]
    Dialect {
        /// Path of the file in the bundle.
        file: String,
        /// The `$schema` found, as JSON.
        found: String,
    },
    /// A file's `$id` is not the one its path gives.
    #[error("`{file}` has `$id` `{found}`, expected `{expected}`")]
    Id {
        /// Path of the file in the bundle.
        file: String,
        /// The `$id` found, as JSON.
        found: String,
        /// [`BASE_URI`] and the path.
        expected: String,
    },
    /// A keyword the bundle does not support where it is (`$id` or `$schema` below the root,
    /// `$anchor`, `$dynamicRef`...).
    #[error("`{file}` has the keyword `{keyword}` at `{pointer}`, which the bundle does not support there")]
    Keyword {
        /// Path of the file in the bundle.
        file: String,
        /// JSON pointer of the subschema.
        pointer: String,
        /// The keyword.
        keyword: String,
    },
    /// A `format` outside [`PORTABLE_FORMATS`].
    #[error("`{file}` uses the format `{format}` at `{pointer}`, which the bundle does not publish (allowed: uri)")]
    Format {
        /// Path of the file in the bundle.
        file: String,
        /// JSON pointer of the subschema.
        pointer: String,
        /// The format.
        format: String,
    },
    /// A `pattern` (or `patternProperties` name) that is not portable ([`portable_pattern`]).
    #[error("`{file}` has a pattern at `{pointer}` that is not portable ({reason}): `{pattern}`")]
    Pattern {
        /// Path of the file in the bundle.
        file: String,
        /// JSON pointer of the subschema.
        pointer: String,
        /// The pattern.
        pattern: String,
        /// Why it is not portable.
        reason: &'static str,
    },
    /// A `$ref` that does not resolve to a subschema of a bundle file.
    #[error("`{file}` has a `$ref` at `{pointer}` that does not resolve inside the bundle: `{reference}`")]
    Ref {
        /// Path of the file in the bundle.
        file: String,
        /// JSON pointer of the subschema with the `$ref`.
        pointer: String,
        /// The reference.
        reference: String,
    },
    /// An integer-width `format` beside a bound that is not an integer.
    #[error("`{file}` has a `{keyword}` that is not an integer beside an integer-width `format` at `{pointer}`")]
    IntegerBound {
        /// Path of the file in the bundle.
        file: String,
        /// JSON pointer of the subschema.
        pointer: String,
        /// `minimum` or `maximum`.
        keyword: &'static str,
    },
    /// A `discriminator` that ajv and the code generators cannot use.
    #[error("`{file}` has a `discriminator` at `{pointer}` that consumers cannot use: {reason}")]
    Discriminator {
        /// Path of the file in the bundle.
        file: String,
        /// JSON pointer of the subschema.
        pointer: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// `schema/acp/PROVENANCE.json` has no string `crateVersion`.
    #[error("`schema/acp/PROVENANCE.json` has no string `crateVersion`")]
    Provenance,
    /// No root type has this name.
    #[error("no root type `{name}` (`toolcall schemas list` prints them)")]
    UnknownRootType {
        /// The name asked for.
        name: String,
    },
    /// The validator of a root type did not compile.
    #[error("cannot compile the validator of `{name}`: {message}")]
    Validator {
        /// The root type.
        name: String,
        /// `jsonschema`'s message.
        message: String,
    },
    /// Writing the bundle failed.
    #[error("cannot write `{path}`")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// One embedded source: its family, file name and text.
struct Source {
    family: Family,
    name: &'static str,
    text: &'static str,
}

fn sources() -> Vec<Source> {
    let mut out = vec![Source {
        family: Family::Route,
        name: "tool-call-request.schema.json",
        text: crate::route::SCHEMA_JSON,
    }];
    out.extend(
        crate::canonical::SCHEMA_FILES
            .iter()
            .map(|&(name, text)| Source {
                family: Family::Canonical,
                name,
                text,
            }),
    );
    out.push(Source {
        family: Family::Acp,
        name: "acp.schema.json",
        text: crate::acp::SCHEMA_JSON,
    });
    out
}

/// The built bundle: its files and its index, in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bundle {
    files: Vec<BundleFile>,
    index: String,
}

impl Bundle {
    /// Builds the bundle from the schema files embedded in the library; reads nothing from
    /// disk.
    ///
    /// # Errors
    /// A [`BundleError`] naming the file and JSON pointer when a source breaks a rule of the
    /// bundle (dialect, `$id`, an unresolved `$ref`, a pattern or format that is not portable,
    /// an unusable `discriminator`); never for the sources this crate ships, which the tests
    /// build.
    pub fn build() -> Result<Self, BundleError> {
        let acp_version = acp_version()?;
        Self::from_sources(&sources(), &acp_version)
    }

    fn from_sources(sources: &[Source], acp_version: &str) -> Result<Self, BundleError> {
        struct Parsed<'a> {
            source: &'a Source,
            path: String,
            id: String,
            node: Node,
            changes: normalize::Changes,
        }
        let mut parsed = Vec::new();
        for source in sources {
            let path = format!("{}/{}", source.family.as_str(), source.name);
            let id = format!("{BASE_URI}{path}");
            let mut node = Node::parse(source.text).map_err(|error| BundleError::Json {
                file: path.clone(),
                source: error,
            })?;
            let mut changes = normalize::root(&path, &mut node, &id)?;
            normalize::subschemas(&path, &mut node, &mut changes)?;
            check::file(&path, &node)?;
            parsed.push(Parsed {
                source,
                path,
                id,
                node,
                changes,
            });
        }
        for file in &parsed {
            let lookup = |uri: &str| {
                parsed
                    .iter()
                    .find(|other| other.id == uri)
                    .map(|other| &other.node)
            };
            check::refs(&file.path, &file.id, &file.node, &lookup)?;
        }
        let mut files: Vec<BundleFile> = parsed
            .into_iter()
            .map(|file| {
                let source_text = file.source.text.replace("\r\n", "\n");
                let contents = if file.changes.any() {
                    file.node.to_pretty()
                } else {
                    source_text.clone()
                };
                BundleFile {
                    sha256: sha256_hex(contents.as_bytes()),
                    source: format!("schema/{}", file.path),
                    source_sha256: sha256_hex(source_text.as_bytes()),
                    normalized: file.changes.describe(),
                    version: match file.source.family {
                        Family::Acp => acp_version.to_owned(),
                        Family::Route | Family::Canonical => env!("CARGO_PKG_VERSION").to_owned(),
                    },
                    family: file.source.family,
                    path: file.path,
                    id: file.id,
                    contents,
                }
            })
            .collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let index = index_json(&files)?;
        Ok(Self { files, index })
    }

    /// The files, ordered by path.
    #[must_use]
    pub fn files(&self) -> &[BundleFile] {
        &self.files
    }

    /// The file at `path` in the bundle (`acp/acp.schema.json`).
    #[must_use]
    pub fn file(&self, path: &str) -> Option<&BundleFile> {
        self.files.iter().find(|file| file.path == path)
    }

    /// The text of `index.json`.
    #[must_use]
    pub fn index_json(&self) -> &str {
        &self.index
    }

    /// Lowercase hex SHA-256 of [`Self::index_json`].
    #[must_use]
    pub fn index_sha256(&self) -> String {
        sha256_hex(self.index.as_bytes())
    }

    /// Writes the bundle under `dir` (created when missing): `index.json` and one file per
    /// [`BundleFile::path`]. Files already there with the same names are replaced; other files
    /// are left alone.
    ///
    /// # Errors
    /// [`BundleError::Io`] naming the directory or file that could not be created or written.
    pub fn write_to(&self, dir: &Path) -> Result<(), BundleError> {
        let io = |path: PathBuf| move |source| BundleError::Io { path, source };
        for file in &self.files {
            let path = dir.join(&file.path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(io(parent.to_path_buf()))?;
            }
            std::fs::write(&path, &file.contents).map_err(io(path.clone()))?;
        }
        let index = dir.join(INDEX_FILE);
        std::fs::write(&index, &self.index).map_err(io(index.clone()))
    }

    /// A validator of the root type `name` over the bundle's files: JSON Schema 2020-12, every
    /// file registered under its `$id`, nothing fetched, formats checked (as a consumer of the
    /// bundle is told to).
    ///
    /// # Errors
    /// [`BundleError::UnknownRootType`] when `name` is not in [`ROOT_TYPES`];
    /// [`BundleError::Validator`] when the schema does not compile.
    pub fn validator(&self, name: &str) -> Result<jsonschema::Validator, BundleError> {
        let root = root_type(name).ok_or_else(|| BundleError::UnknownRootType {
            name: name.to_owned(),
        })?;
        let failed = |message: String| BundleError::Validator {
            name: name.to_owned(),
            message,
        };
        let resources = self
            .files
            .iter()
            .map(|file| {
                serde_json::from_str::<serde_json::Value>(&file.contents)
                    .map(|value| (file.id.clone(), value))
                    .map_err(|error| failed(error.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let registry = jsonschema::Registry::new()
            .extend(resources.iter().map(|(id, value)| (id.as_str(), value)))
            .and_then(jsonschema::RegistryBuilder::prepare)
            .map_err(|error| failed(error.to_string()))?;
        jsonschema::draft202012::options()
            .offline()
            .should_validate_formats(true)
            .with_registry(&registry)
            .build(&serde_json::json!({ "$ref": root.uri() }))
            .map_err(|error| failed(error.to_string()))
    }
}

/// Builds the bundle from the embedded sources and writes it under `dir`
/// ([`Bundle::build`], then [`Bundle::write_to`]).
///
/// # Errors
/// Those of [`Bundle::build`] and [`Bundle::write_to`].
pub fn export(dir: &Path) -> Result<Bundle, BundleError> {
    let bundle = Bundle::build()?;
    bundle.write_to(dir)?;
    Ok(bundle)
}

fn acp_version() -> Result<String, BundleError> {
    let provenance: serde_json::Value =
        serde_json::from_str(ACP_PROVENANCE).map_err(|_| BundleError::Provenance)?;
    provenance
        .get("crateVersion")
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned)
        .ok_or(BundleError::Provenance)
}

fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for byte in digest {
        write!(out, "{byte:02x}").expect("writing to a String cannot fail");
    }
    out
}

/// `index.json`. Structs with derived `Serialize` keep their field order in every build.
#[derive(serde::Serialize)]
struct Index<'a> {
    name: &'static str,
    version: &'static str,
    base_uri: &'static str,
    dialect: &'static str,
    formats: &'static [&'static str],
    extension_keywords: Vec<String>,
    files: Vec<IndexFile<'a>>,
    root_types: Vec<IndexRoot>,
}

#[derive(serde::Serialize)]
struct IndexFile<'a> {
    path: &'a str,
    #[serde(rename = "$id")]
    id: &'a str,
    family: &'static str,
    version: &'a str,
    sha256: &'a str,
    source: &'a str,
    source_sha256: &'a str,
    normalized: &'a [String],
}

#[derive(serde::Serialize)]
struct IndexRoot {
    name: &'static str,
    file: &'static str,
    pointer: &'static str,
    #[serde(rename = "$ref")]
    reference: String,
}

fn index_json(files: &[BundleFile]) -> Result<String, BundleError> {
    let mut extension_keywords = std::collections::BTreeSet::new();
    for file in files {
        let node = Node::parse(&file.contents).map_err(|error| BundleError::Json {
            file: file.path.clone(),
            source: error,
        })?;
        walk::each::<()>(&node, "", &mut |_, schema| {
            if let Node::Object(members) = schema {
                for (keyword, _) in members {
                    if keyword.starts_with("x-") || keyword == "discriminator" {
                        extension_keywords.insert(keyword.clone());
                    }
                }
            }
            Ok(())
        })
        .expect("the visitor never fails");
    }
    let index = Index {
        name: env!("CARGO_PKG_NAME"),
        version: env!("CARGO_PKG_VERSION"),
        base_uri: BASE_URI,
        dialect: normalize::DIALECT,
        formats: PORTABLE_FORMATS,
        extension_keywords: extension_keywords.into_iter().collect(),
        files: files
            .iter()
            .map(|file| IndexFile {
                path: &file.path,
                id: &file.id,
                family: file.family.as_str(),
                version: &file.version,
                sha256: &file.sha256,
                source: &file.source,
                source_sha256: &file.source_sha256,
                normalized: &file.normalized,
            })
            .collect(),
        root_types: ROOT_TYPES
            .iter()
            .map(|root| IndexRoot {
                name: root.name,
                file: root.file,
                pointer: root.pointer,
                reference: root.uri(),
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&index).expect("the index always serializes");
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_the_shipped_sources() {
        let bundle = Bundle::build().unwrap();
        let paths: Vec<&str> = bundle.files().iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "acp/acp.schema.json",
                "canonical/execution-class.schema.json",
                "canonical/ids.schema.json",
                "canonical/lifecycle.schema.json",
                "canonical/limits.schema.json",
                "canonical/tool-call.schema.json",
                "canonical/tool-result.schema.json",
                "canonical/tool-spec.schema.json",
                "route/tool-call-request.schema.json",
            ]
        );
        let acp = bundle.file("acp/acp.schema.json").unwrap();
        assert_eq!(acp.version, "1.20.0");
        assert_ne!(acp.sha256, acp.source_sha256);
        assert!(acp.contents.starts_with(
            "{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n  \"$id\": \"https://toolcall-contracts.dev/schema/v1/acp/acp.schema.json\",\n"
        ));
        for file in bundle.files().iter().filter(|f| f.family != Family::Acp) {
            assert_eq!(file.sha256, file.source_sha256, "{}", file.path);
            assert!(file.normalized.is_empty());
        }
    }

    #[test]
    fn the_acp_source_hash_is_the_provenance_hash() {
        let provenance: serde_json::Value = serde_json::from_str(ACP_PROVENANCE).unwrap();
        let bundle = Bundle::build().unwrap();
        assert_eq!(
            bundle.file("acp/acp.schema.json").unwrap().source_sha256,
            provenance["sha256"].as_str().unwrap()
        );
    }

    #[test]
    fn a_source_with_a_foreign_ref_is_refused() {
        let sources = [Source {
            family: Family::Route,
            name: "r.schema.json",
            text: r#"{"$ref": "https://example.test/elsewhere.json"}"#,
        }];
        let error = Bundle::from_sources(&sources, "1").unwrap_err();
        assert_eq!(
            error.to_string(),
            "`route/r.schema.json` has a `$ref` at `` that does not resolve inside the bundle: `https://example.test/elsewhere.json`"
        );
    }

    #[test]
    fn source_errors_name_the_file_and_place() {
        let one = |text: &'static str| {
            let sources = [Source {
                family: Family::Canonical,
                name: "x.schema.json",
                text,
            }];
            Bundle::from_sources(&sources, "1").unwrap_err().to_string()
        };
        assert_eq!(one("{"), "`canonical/x.schema.json` is not valid JSON");
        assert_eq!(one("[]"), "`canonical/x.schema.json` is not a JSON object");
        assert_eq!(
            one(r#"{"$defs": {"D": {"type": "string", "pattern": "^\\d+$"}}}"#),
            "`canonical/x.schema.json` has a pattern at `/$defs/D` that is not portable \
             (`\\d`, `\\w`, `\\s` and `\\b` differ between engines): `^\\d+$`"
        );
        assert_eq!(
            BundleError::Provenance.to_string(),
            "`schema/acp/PROVENANCE.json` has no string `crateVersion`"
        );
    }

    #[test]
    fn write_errors_name_the_path() {
        let blocker =
            std::env::temp_dir().join(format!("toolcall-bundle-blocker-{}", std::process::id()));
        std::fs::write(&blocker, b"a file, not a directory").unwrap();
        let error = Bundle::build().unwrap().write_to(&blocker).unwrap_err();
        let _ = std::fs::remove_file(&blocker);
        assert_eq!(
            error.to_string(),
            format!("cannot write `{}`", blocker.join("acp").display())
        );
    }

    #[test]
    fn unknown_root_type_is_named() {
        let error = Bundle::build().unwrap().validator("Nope").unwrap_err();
        assert_eq!(
            error.to_string(),
            "no root type `Nope` (`toolcall schemas list` prints them)"
        );
    }
}
