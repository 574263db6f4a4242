//! `cargo xtask`: regenerate or check `generated/`, import the ACP and MCP schemas.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgGroup, Parser, Subcommand};
use xtask::acp_export::{self, Source};
use xtask::{changelog, mcp_import};

#[derive(Parser)]
#[command(
    name = "cargo xtask",
    about = "Maintenance commands of the toolcall-contracts repository"
)]
struct Cli {
    /// Workspace root (holds `schema/` and `generated/`); defaults to this crate's workspace.
    #[arg(long, global = true)]
    root: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate `generated/` from `schema/`.
    Generate,
    /// Exit non-zero, naming the regeneration command, when `generated/` is stale.
    Check,
    /// ACP schema import.
    Acp {
        #[command(subcommand)]
        command: AcpCommand,
    },
    /// MCP schema import.
    Mcp {
        #[command(subcommand)]
        command: McpCommand,
    },
    /// Real schemas with their instances through the pipeline, each verdict and re-encoding
    /// compared with the `jsonschema` crate's: prints refused (with the error naming the
    /// keyword), agree, disagree; exits 1 on a disagreement.
    ///
    /// DIR holds `schemas/NAME.json` and instances in `test/NAME/*.json` and
    /// `negative_test/NAME/*.json` (a schema catalogue's layout, SchemaStore's `src/`).
    SchemasEval {
        /// The catalogue folder.
        dir: PathBuf,
        /// The scratch crate's folder [default: target/schemas-eval].
        #[arg(long, value_name = "DIR")]
        work: Option<PathBuf>,
        /// URI prefix under which the catalogue's schemas refer to each other, served from
        /// DIR/schemas/ (repeatable).
        #[arg(long = "ref-prefix", value_name = "URI", default_values_t = [
            "https://json.schemastore.org/".to_owned(),
            "https://www.schemastore.org/".to_owned(),
            "http://json.schemastore.org/".to_owned(),
            "https://schemastore.azurewebsites.net/schemas/json/".to_owned(),
            "https://raw.githubusercontent.com/schemastore/schemastore/master/src/schemas/json/".to_owned(),
            "https://raw.githubusercontent.com/SchemaStore/schemastore/master/src/schemas/json/".to_owned(),
        ])]
        ref_prefixes: Vec<String>,
        /// Evaluate only the schema NAME (`DIR/schemas/NAME.json`; repeatable); the others
        /// still serve `$ref`s.
        #[arg(long, value_name = "NAME")]
        only: Vec<String>,
    },
}

#[derive(Subcommand)]
enum McpCommand {
    /// Copy an official MCP `schema.json` into `schema/mcp/<version>/` with its provenance.
    Import {
        /// The published `schema.json`, imported as it is.
        #[arg(long, value_name = "PATH")]
        file: PathBuf,
        /// The MCP protocol version it belongs to (`YYYY-MM-DD`).
        #[arg(long, value_name = "VERSION")]
        version: String,
    },
}

#[derive(Subcommand)]
enum AcpCommand {
    /// Import the ACP v1 schema into `schema/acp/`, regenerate `generated/`, add a
    /// `CHANGELOG.md` entry.
    ///
    /// The schema comes from a version of the official crate (`--crate-version`, exported with
    /// schemars) or from a published `schema.json` taken as it is (`--file`). When the pipeline
    /// fails on it, `schema/acp/` is put back as it was. `export` is an alias, the old name of
    /// this step.
    #[command(
        visible_alias = "export",
        group(ArgGroup::new("source").required(true).args(["crate_version", "file"]))
    )]
    Import {
        /// Version of `agent-client-protocol-schema` on crates.io to export the schema from.
        #[arg(long, value_name = "X.Y.Z")]
        crate_version: Option<String>,
        /// A published ACP `schema.json`, imported as it is.
        #[arg(long, value_name = "PATH")]
        file: Option<PathBuf>,
        /// The changelog entry's date, `YYYY-MM-DD` [default: today, UTC].
        #[arg(long, value_name = "DATE")]
        date: Option<String>,
    },
}

fn default_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = cli.root.unwrap_or_else(default_root);
    let result = match cli.command {
        Command::Generate => generate(&root),
        Command::Check => check(&root),
        Command::SchemasEval {
            dir,
            work,
            ref_prefixes,
            only,
        } => {
            let options = xtask::schemas_eval::Options {
                // Absolute: the scratch crate is built and run from its own folder.
                work: work.map_or_else(
                    || root.join("target/schemas-eval"),
                    |work| std::path::absolute(&work).unwrap_or(work),
                ),
                dir,
                root: root.clone(),
                ref_prefixes,
                only,
            };
            match xtask::schemas_eval::run_all(&options) {
                Ok(true) => Ok(()),
                Ok(false) => Err("some instances disagree (see above)".to_owned()),
                Err(error) => Err(error),
            }
        }
        Command::Acp {
            command:
                AcpCommand::Import {
                    crate_version,
                    file,
                    date,
                },
        } => {
            let source = match (crate_version, file) {
                (Some(version), _) => Source::Crate { version },
                (None, Some(path)) => Source::File { path },
                // clap's `source` group requires one of the two.
                (None, None) => unreachable!("clap requires --crate-version or --file"),
            };
            import(&root, &source, &date.unwrap_or_else(changelog::today_utc))
        }
        Command::Mcp {
            command: McpCommand::Import { file, version },
        } => mcp_import::import(&root, &file, &version)
            .map(|imported| {
                println!(
                    "wrote {} ({} definitions, {})",
                    imported.schema_path.display(),
                    imported.provenance.definitions,
                    imported.provenance.dialect
                );
            })
            .map_err(|e| e.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn generate(root: &std::path::Path) -> Result<(), String> {
    let outputs = toolcall_codegen::repo::generate_all(root).map_err(|e| e.to_string())?;
    toolcall_codegen::repo::write(root, &outputs).map_err(|e| e.to_string())?;
    for output in &outputs {
        println!("wrote {}", output.path.display());
    }
    Ok(())
}

fn import(root: &std::path::Path, source: &Source, date: &str) -> Result<(), String> {
    let report = acp_export::import(root, source, date).map_err(|e| e.to_string())?;
    println!(
        "wrote {} ({} definitions) and {}",
        report.exported.schema_path.display(),
        report.exported.def_count,
        report.exported.provenance_path.display()
    );
    for path in &report.generated {
        println!("wrote {}", path.display());
    }
    if report.entry.from.is_some() {
        let summary = toolcall_schema::diff::Summary::of(&report.entry.schema_changes);
        println!("schema diff: {summary}");
        println!("Rust API: {} changes", report.entry.api_changes().len());
    } else {
        println!("first import: no previous schema to compare with");
    }
    match &report.changelog {
        Some(path) => println!("added an entry to {}", path.display()),
        None => println!("schema and API unchanged; no changelog entry"),
    }
    Ok(())
}

fn check(root: &std::path::Path) -> Result<(), String> {
    let files = toolcall_codegen::repo::check(root)?;
    println!("generated/ is up to date ({files} files)");
    Ok(())
}
