//! `cargo xtask mcp import`: copies one official MCP `schema.json` into
//! `schema/mcp/<version>/` with a `PROVENANCE.json` beside it, as `acp import --file` does for ACP.
//!
//! The file is taken as it is (its bytes are not rewritten): draft-07 versions keep their
//! `definitions`; the pipeline's normalize stage reads them.

use std::path::{Path, PathBuf};

use crate::acp_export::{create_dir, parse_json, sha256_hex, write, ExportError};

/// The MCP protocol versions the crates know, oldest first (`toolcall_schema::versions::MCP`).
pub const VERSIONS: &[&str] = toolcall_schema::versions::MCP;

/// `schema/mcp/<version>/schema.json`, relative to the workspace root.
#[must_use]
pub fn schema_path(version: &str) -> PathBuf {
    PathBuf::from("schema/mcp")
        .join(version)
        .join("schema.json")
}

/// Where an imported MCP schema came from: `schema/mcp/<version>/PROVENANCE.json`.
///
/// JSON shape: `{"source": "file", "file": "...", "version": "2025-11-25", "dialect": "...",
/// "definitions": 145, "schemaFile": "schema.json", "sha256": "..."}`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct McpProvenance {
    /// Always `file`: the schema is copied from a published file.
    pub source: &'static str,
    /// The imported path, as given.
    pub file: String,
    /// The MCP protocol version (`YYYY-MM-DD`).
    pub version: String,
    /// The document's `$schema` (the JSON Schema dialect), empty when it declares none.
    pub dialect: String,
    /// Number of definitions (`$defs`, or draft-07 `definitions`).
    pub definitions: usize,
    /// The schema file's name, beside `PROVENANCE.json`.
    pub schema_file: &'static str,
    /// Lowercase hex sha256 of the schema file's bytes.
    pub sha256: String,
}

/// What [`import`] wrote.
#[derive(Debug, Clone)]
pub struct McpImported {
    /// The schema file written.
    pub schema_path: PathBuf,
    /// Its provenance record.
    pub provenance: McpProvenance,
}

/// Why an MCP import failed.
#[derive(Debug, thiserror::Error)]
pub enum McpImportError {
    /// The version is not one of [`VERSIONS`].
    #[error("unknown MCP version `{version}`, expected one of {}", VERSIONS.join(", "))]
    UnknownVersion {
        /// The version as given.
        version: String,
    },
    /// The document has neither `$defs` nor `definitions`.
    #[error("`{}` has no `$defs` or `definitions`: not an MCP schema", .path.display())]
    NoDefinitions {
        /// The file.
        path: PathBuf,
    },
    /// Reading, parsing or writing failed.
    #[error(transparent)]
    Io(#[from] ExportError),
}

/// Copies `file` into `root/schema/mcp/<version>/` and writes its provenance.
///
/// # Errors
/// See [`McpImportError`].
pub fn import(root: &Path, file: &Path, version: &str) -> Result<McpImported, McpImportError> {
    if !VERSIONS.contains(&version) {
        return Err(McpImportError::UnknownVersion {
            version: version.to_owned(),
        });
    }
    let bytes = std::fs::read(file).map_err(|source| ExportError::Io {
        action: "read",
        path: file.to_owned(),
        source,
    })?;
    let schema = parse_json(&bytes, &file.display().to_string())?;
    let definitions = schema
        .get("$defs")
        .or_else(|| schema.get("definitions"))
        .and_then(serde_json::Value::as_object)
        .ok_or_else(|| McpImportError::NoDefinitions {
            path: file.to_owned(),
        })?
        .len();
    let provenance = McpProvenance {
        source: "file",
        file: file.display().to_string(),
        version: version.to_owned(),
        dialect: schema
            .get("$schema")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        definitions,
        schema_file: "schema.json",
        sha256: sha256_hex(&bytes),
    };
    let schema_path = root.join(schema_path(version));
    if let Some(dir) = schema_path.parent() {
        create_dir(dir)?;
    }
    write(&schema_path, &bytes)?;
    let mut record = serde_json::to_string_pretty(&provenance).unwrap_or_default();
    record.push('\n');
    write(
        &schema_path.with_file_name("PROVENANCE.json"),
        record.as_bytes(),
    )?;
    Ok(McpImported {
        schema_path,
        provenance,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_version_is_refused_by_name() {
        let error = import(Path::new("."), Path::new("x.json"), "2030-01-01").unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown MCP version `2030-01-01`, expected one of 2024-11-05, 2025-03-26, \
             2025-06-18, 2025-11-25, 2026-07-28"
        );
    }
}
