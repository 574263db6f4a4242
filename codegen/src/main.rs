//! `toolcall-codegen`: Rust types, with their decode and encode, from a JSON Schema of your own.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "toolcall-codegen",
    version,
    about = "Rust types from a JSON Schema, for a crate that depends on toolcall-contracts"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate one module from a JSON Schema: its root schema (named after its `title`, else the
    /// file) and every definition, for a crate that depends on `toolcall-contracts`, `serde` and
    /// `serde_json`.
    Generate {
        /// The JSON Schema.
        #[arg(long, value_name = "FILE")]
        schema: PathBuf,
        /// Where the module is written.
        #[arg(long, value_name = "FILE.rs")]
        out: PathBuf,
        /// `#[non_exhaustive]` types built by `new` and setters.
        #[arg(long)]
        forward_compatible: bool,
        /// Drop members the schema does not declare instead of keeping them.
        #[arg(long)]
        drop_unknown_members: bool,
    },
}

fn main() -> ExitCode {
    let Command::Generate {
        schema,
        out,
        forward_compatible,
        drop_unknown_members,
    } = Cli::parse().command;
    let written = toolcall_codegen::Builder::new(&schema)
        .forward_compatible(forward_compatible)
        .keep_unknown_members(!drop_unknown_members)
        .write_to(&out);
    match written {
        Ok(()) => {
            println!("wrote {}", out.display());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
