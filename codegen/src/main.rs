//! `toolcall-codegen`: regenerate or check `generated/`, and import the ACP schema.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "toolcall-codegen", about = "Schema to Rust pipeline of toolcall-contracts")]
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
}

#[derive(Subcommand)]
enum AcpCommand {
    /// Export the ACP v1 schema from a version of the official crate into `schema/acp/`.
    Export {
        /// Version of `agent-client-protocol-schema` on crates.io.
        #[arg(long)]
        crate_version: String,
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
        Command::Acp {
            command: AcpCommand::Export { crate_version },
        } => toolcall_codegen::acp_export::run(&root, &crate_version)
            .map(|_| ())
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
    let outputs = toolcall_codegen::generate_all(root).map_err(|e| e.to_string())?;
    toolcall_codegen::emit::write(root, &outputs).map_err(|e| e.to_string())?;
    for output in &outputs {
        println!("wrote {}", output.path.display());
    }
    Ok(())
}

fn check(root: &std::path::Path) -> Result<(), String> {
    let outputs = toolcall_codegen::generate_all(root).map_err(|e| e.to_string())?;
    let stale = toolcall_codegen::emit::stale(root, &outputs);
    if stale.is_empty() {
        println!("generated/ is up to date ({} files)", outputs.len());
        return Ok(());
    }
    let names: Vec<String> = stale.iter().map(|p| format!("`{}`", p.display())).collect();
    Err(format!(
        "{} not up to date with schema/; run `{}`",
        names.join(", "),
        toolcall_codegen::emit::GENERATE_COMMAND
    ))
}
