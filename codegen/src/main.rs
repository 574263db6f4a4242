//! `toolcall-codegen`: Rust types, with their decode and encode, from a JSON Schema of your own.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

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
    Generate(Generate),
    /// Check that this repository's `generated/` is what its `schema/` gives now (the
    /// `toolcall-contracts` checkout: `schema/`, `generated/`); exit 1 naming the stale files.
    Check {
        /// The repository's root.
        #[arg(long, value_name = "DIR", default_value = ".")]
        root: PathBuf,
    },
}

/// The arguments of `generate`.
#[derive(Args)]
struct Generate {
    /// The JSON Schema (draft-04 to 2020-12).
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
    /// Serve remote `$ref`s from local files, never the network: `URI-PREFIX=DIR` serves
    /// `URI-PREFIX<path>` from `DIR/<path>`; `DIR` alone serves its files at their
    /// `file://` URLs. Repeatable. Not needed for the relative `$ref`s of a schema without
    /// `$id` (`parts/name.json`, `../common/x.json`): its own folder serves them.
    #[arg(long = "ref-dir", value_name = "[URI-PREFIX=]DIR")]
    ref_dirs: Vec<String>,
    /// Assert `format` (`email`, `date-time`...) when decoding, rather than taking it as an
    /// annotation as JSON Schema 2020-12 does.
    #[arg(long)]
    assert_formats: bool,
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Generate(args) => generate(args),
        Command::Check { root } => check(&root),
    }
}

/// `generate`: one module from a JSON Schema.
fn generate(args: Generate) -> ExitCode {
    let Generate {
        schema,
        out,
        forward_compatible,
        drop_unknown_members,
        ref_dirs,
        assert_formats,
    } = args;
    let written = ref_dirs
        .iter()
        .map(|arg| ref_dir_arg(arg))
        .fold(
            toolcall_codegen::Builder::new(&schema),
            |builder, (prefix, dir)| builder.ref_dir(prefix, dir),
        )
        .forward_compatible(forward_compatible)
        .keep_unknown_members(!drop_unknown_members)
        .assert_formats(assert_formats)
        .write_to(&out);
    match written {
        Ok(warnings) => {
            for warning in warnings {
                eprintln!("warning: {}: {warning}", schema.display());
            }
            println!("wrote {}", out.display());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `check`: whether `root`'s `generated/` is fresh.
fn check(root: &std::path::Path) -> ExitCode {
    match toolcall_codegen::repo::check(root) {
        Ok(files) => {
            println!("generated/ is up to date ({files} files)");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// What a `--ref-dir` argument serves: `PREFIX=DIR`, or `DIR` alone at its `file://` URL.
fn ref_dir_arg(arg: &str) -> (String, PathBuf) {
    match arg.split_once('=') {
        Some((prefix, dir)) if prefix.contains(':') => (prefix.to_owned(), PathBuf::from(dir)),
        _ => {
            let dir = std::path::Path::new(arg);
            let absolute = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_owned());
            (format!("file://{}/", absolute.display()), dir.to_owned())
        }
    }
}
