//! `cargo xtask schemas-eval DIR`: real schemas with their instances through the pipeline, as a
//! user would run it, each verdict compared with the `jsonschema` crate's.
//!
//! `DIR` is laid out as a schema catalogue keeps it (SchemaStore's `src/`): `DIR/schemas/NAME.json`
//! the schemas, `DIR/test/NAME/*.json` and `DIR/negative_test/NAME/*.json` instances (either
//! folder may be missing; the catalogue's own expectation is not used: the reference is the
//! `jsonschema` crate on the same schema). Remote `$ref`s are served from `DIR/schemas/` under
//! the catalogue's URIs (`--ref-prefix`), with or without `.json` as the catalogue serves
//! them, never fetched.
//!
//! Every schema goes through `toolcall_codegen::Builder`; the modules that generate are compiled
//! into ONE scratch crate (`--work`, default `target/schemas-eval`); every instance is decoded as
//! the schema's root type with `toolcall_contracts::decode` and encoded back. An instance agrees
//! when the verdict is the reference's and, when accepted, the encoding is the same JSON with
//! every number as written. Prints one line per refused schema (with the pipeline's error,
//! which names the keyword), per schema without a root type or whose module did not compile,
//! and per disagreement; then the totals. Exits 1 on any disagreement.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::value::RawValue;
use serde_json::Value;

/// What the pipeline made of one schema.
enum Outcome {
    /// Refused, with the error.
    Refused(String),
    /// Generated without a root type (a document of definitions only).
    NoRoot,
    /// A module and its root type; `warned` when `generate` printed warnings.
    Module { root: String, warned: bool },
    /// The module did not compile: the compiler's first error.
    NotCompiled(String),
}

struct Schema {
    name: String,
    path: PathBuf,
    outcome: Outcome,
    /// `(file, text)` of each instance.
    instances: Vec<(String, String)>,
}

/// Options of a run.
pub struct Options {
    /// The catalogue folder.
    pub dir: PathBuf,
    /// The scratch crate's folder.
    pub work: PathBuf,
    /// The workspace root (the scratch crate depends on its `toolcall-contracts`).
    pub root: PathBuf,
    /// URI prefixes of the catalogue's own schemas, served from `DIR/schemas/`.
    pub ref_prefixes: Vec<String>,
    /// The names of the schemas to evaluate (all when empty); every schema serves `$ref`s.
    pub only: Vec<String>,
}

/// A JSON value with every number kept as its text, members in any order.
#[derive(Debug, PartialEq)]
enum Exact {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Exact>),
    Object(BTreeMap<String, Exact>),
}

fn exact(text: &str) -> Option<Exact> {
    let text = text.trim();
    Some(match text.as_bytes().first()? {
        b'{' => {
            let members: BTreeMap<String, Box<RawValue>> = serde_json::from_str(text).ok()?;
            Exact::Object(
                members
                    .into_iter()
                    .map(|(k, v)| exact(v.get()).map(|v| (k, v)))
                    .collect::<Option<_>>()?,
            )
        }
        b'[' => {
            let items: Vec<Box<RawValue>> = serde_json::from_str(text).ok()?;
            Exact::Array(
                items
                    .iter()
                    .map(|v| exact(v.get()))
                    .collect::<Option<_>>()?,
            )
        }
        b'"' => Exact::String(serde_json::from_str(text).ok()?),
        b't' => Exact::Bool(true),
        b'f' => Exact::Bool(false),
        b'n' => Exact::Null,
        _ => Exact::Number(text.to_owned()),
    })
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Every schema of the catalogue with its instances.
fn collect(dir: &Path, only: &[String]) -> Result<Vec<Schema>, String> {
    let schemas = dir.join("schemas");
    let mut files = json_files(&schemas);
    if !only.is_empty() {
        files.retain(|path| {
            path.file_stem()
                .is_some_and(|stem| only.iter().any(|name| stem.to_string_lossy() == *name))
        });
    }
    if files.is_empty() {
        return Err(format!("no schema in {}", schemas.display()));
    }
    let mut out = Vec::new();
    for path in files {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut instances = Vec::new();
        for folder in ["test", "negative_test"] {
            for file in json_files(&dir.join(folder).join(&name)) {
                let Ok(text) = std::fs::read_to_string(&file) else {
                    continue;
                };
                // Instances that are not JSON (JSONC with comments, say) are left out.
                if serde_json::from_str::<&RawValue>(&text).is_ok() {
                    let label = format!(
                        "{folder}/{name}/{}",
                        file.file_name().unwrap_or_default().to_string_lossy()
                    );
                    instances.push((label, toolcall_test_support::minify(&text)));
                }
            }
        }
        out.push(Schema {
            name,
            path,
            outcome: Outcome::NoRoot,
            instances,
        });
    }
    Ok(out)
}

fn module(index: usize) -> String {
    format!("m{index:04}")
}

fn write_if_changed(to: &Path, text: &str) -> Result<(), String> {
    if std::fs::read_to_string(to).ok().as_deref() != Some(text) {
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::write(to, text).map_err(|e| format!("{}: {e}", to.display()))?;
    }
    Ok(())
}

/// The folder remote `$ref`s are served from: every schema of `DIR/schemas/` under its file
/// name and under its name without `.json`, as the catalogue serves it
/// (`https://json.schemastore.org/tsconfig` and `.../tsconfig.json` are one document).
fn served(options: &Options) -> PathBuf {
    options.work.join("served")
}

fn write_served(options: &Options) -> Result<(), String> {
    let to = served(options);
    std::fs::create_dir_all(&to).map_err(|e| format!("{}: {e}", to.display()))?;
    for path in json_files(&options.dir.join("schemas")) {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path.file_name().unwrap_or_default();
        write_if_changed(&to.join(name), &text)?;
        if let Some(stem) = path.file_stem() {
            write_if_changed(&to.join(stem), &text)?;
        }
    }
    Ok(())
}

fn generate(schemas: &mut [Schema], options: &Options) -> Result<(), String> {
    write_served(options)?;
    let served = served(options);
    for (index, schema) in schemas.iter_mut().enumerate() {
        let mut builder = toolcall_codegen::Builder::new(&schema.path);
        for prefix in &options.ref_prefixes {
            builder = builder.ref_dir(prefix.clone(), &served);
        }
        // A panic in the pipeline is a refusal too, named as such.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            builder.generate_with_root()
        }));
        schema.outcome = match result {
            Err(_) => Outcome::Refused("the pipeline panicked".to_owned()),
            Ok(Err(error)) => Outcome::Refused(error.to_string()),
            Ok(Ok((_, None))) => Outcome::NoRoot,
            Ok(Ok((text, Some(root)))) => {
                write_if_changed(
                    &options
                        .work
                        .join("src")
                        .join(format!("{}.rs", module(index))),
                    &text,
                )?;
                let warned = text.lines().any(|line| line.starts_with("// warning: "));
                Outcome::Module { root, warned }
            }
        };
    }
    Ok(())
}

fn write_crate(schemas: &[Schema], options: &Options) -> Result<(), String> {
    write_if_changed(
        &options.work.join("Cargo.toml"),
        &toolcall_test_support::decode_crate_manifest("schemas-eval", &options.root),
    )?;
    let lock = options.work.join("Cargo.lock");
    if !lock.exists() {
        std::fs::copy(options.root.join("Cargo.lock"), &lock).map_err(|e| e.to_string())?;
    }
    let modules: Vec<(usize, String, String)> = schemas
        .iter()
        .enumerate()
        .filter_map(|(index, schema)| match &schema.outcome {
            Outcome::Module { root, .. } => Some((index, module(index), root.clone())),
            _ => None,
        })
        .collect();
    let main = toolcall_test_support::decode_crate_main("the schemas under evaluation", &modules);
    write_if_changed(&options.work.join("src/main.rs"), &main)
}

fn cargo_build(options: &Options) -> Result<(), String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["build", "--offline", "--message-format=short"])
        .current_dir(&options.work)
        .env("CARGO_TARGET_DIR", options.work.join("target"))
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("RUSTFLAGS")
        .output()
        .map_err(|e| format!("cargo: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

/// Builds the crate, taking out each module that does not compile.
fn build(schemas: &mut [Schema], options: &Options) -> Result<(), String> {
    for _ in 0..50 {
        write_crate(schemas, options)?;
        let Err(errors) = cargo_build(options) else {
            return Ok(());
        };
        let mut failing: BTreeMap<usize, String> = BTreeMap::new();
        for line in errors.lines() {
            let Some(at) = line.find("src/m") else {
                continue;
            };
            let number: String = line[at + 5..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if let Ok(index) = number.parse::<usize>() {
                failing.entry(index).or_insert_with(|| line.to_owned());
            }
        }
        if failing.is_empty() {
            return Err(format!("the scratch crate does not build:\n{errors}"));
        }
        for (index, error) in failing {
            schemas[index].outcome = Outcome::NotCompiled(error);
        }
    }
    Err("the scratch crate still does not build after taking modules out".to_owned())
}

/// One line per instance of every schema that generated: `ok\t<encoded>`, `err\t<message>`...
fn run(schemas: &[Schema], options: &Options) -> Result<Vec<Vec<String>>, String> {
    let binary = options.work.join("target/debug/schemas-eval");
    let mut child = Command::new(&binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", binary.display()))?;
    let mut input = String::new();
    for (index, schema) in schemas.iter().enumerate() {
        if matches!(schema.outcome, Outcome::Module { .. }) {
            for (_, text) in &schema.instances {
                writeln!(input, "{index}\t{text}").map_err(|e| e.to_string())?;
            }
        }
    }
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let mut lines = text.lines();
    Ok(schemas
        .iter()
        .map(|schema| match schema.outcome {
            Outcome::Module { .. } => schema
                .instances
                .iter()
                .map(|_| lines.next().unwrap_or("missing\t").to_owned())
                .collect(),
            _ => Vec::new(),
        })
        .collect())
}

/// Serves the catalogue's own schemas under its URIs, nothing else.
struct Local {
    dir: PathBuf,
    prefixes: Vec<String>,
}

impl jsonschema::Retrieve for Local {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let wanted = uri.as_str().trim_end_matches('#');
        for prefix in &self.prefixes {
            if let Some(rest) = wanted.strip_prefix(prefix.as_str()) {
                let text = std::fs::read_to_string(self.dir.join(rest))?;
                return Ok(serde_json::from_str(&text)?);
            }
        }
        Err(format!("`{wanted}` is not served (nothing is fetched)").into())
    }
}

/// The reference verdicts of a schema's instances (`None` where the `jsonschema` crate cannot
/// compile the schema). `format` is an annotation, as in the pipeline's default.
fn reference(schema: &Schema, options: &Options) -> Option<Vec<bool>> {
    let text = std::fs::read_to_string(&schema.path).ok()?;
    let document: Value = serde_json::from_str(&text).ok()?;
    let validator = jsonschema::options()
        .with_retriever(Local {
            dir: served(options),
            prefixes: options.ref_prefixes.clone(),
        })
        .should_validate_formats(false)
        .build(&document)
        .ok()?;
    Some(
        schema
            .instances
            .iter()
            .map(|(_, text)| {
                serde_json::from_str::<Value>(text).is_ok_and(|value| validator.is_valid(&value))
            })
            .collect(),
    )
}

/// Runs the evaluation; `Ok(true)` when every instance agrees.
///
/// # Errors
/// The catalogue is empty, or the scratch crate cannot be written, built or run.
pub fn run_all(options: &Options) -> Result<bool, String> {
    let mut schemas = collect(&options.dir, &options.only)?;
    generate(&mut schemas, options)?;
    build(&mut schemas, options)?;
    let results = run(&schemas, options)?;
    let (mut refused, mut no_root, mut not_compiled, mut generated) = (0, 0, 0, 0);
    let (mut instances, mut agree, mut disagree, mut unchecked) = (0, 0, 0, 0);
    let mut warned_schemas = 0;
    for (schema, lines) in schemas.iter().zip(&results) {
        match &schema.outcome {
            Outcome::Refused(error) => {
                refused += 1;
                println!("refused\t{}\t{error}", schema.name);
                continue;
            }
            Outcome::NoRoot => {
                no_root += 1;
                println!("no-root-type\t{}", schema.name);
                continue;
            }
            Outcome::NotCompiled(error) => {
                not_compiled += 1;
                println!("does-not-compile\t{}\t{error}", schema.name);
                continue;
            }
            Outcome::Module { warned, .. } => {
                generated += 1;
                warned_schemas += usize::from(*warned);
            }
        }
        let Some(verdicts) = reference(schema, options) else {
            unchecked += schema.instances.len();
            println!(
                "no-reference\t{}\tthe `jsonschema` crate does not compile it",
                schema.name
            );
            continue;
        };
        for (((label, text), line), valid) in schema.instances.iter().zip(lines).zip(verdicts) {
            instances += 1;
            let (verdict, rest) = line.split_once('\t').unwrap_or((line.as_str(), ""));
            let what = match (verdict, valid) {
                ("ok", true) if exact(rest).is_some() && exact(rest) == exact(text) => None,
                ("ok", true) => Some(format!("re-encodes as {rest}")),
                ("ok", false) => Some("accepts an instance the schema refuses".to_owned()),
                ("err", true) => Some(format!("refuses an instance the schema accepts: {rest}")),
                ("err", false) => None,
                (other, _) => Some(format!("{other}: {rest}")),
            };
            match what {
                None => agree += 1,
                Some(what) => {
                    disagree += 1;
                    let detail: String = what.chars().take(300).collect();
                    println!("disagree\t{label}\t{detail}");
                }
            }
        }
    }
    let total = schemas.len();
    let percent = |n: usize| 100.0 * n as f64 / total.max(1) as f64;
    println!(
        "schemas {total}: generated {generated} ({warned_schemas} with warnings), refused {refused} ({:.1} %), no root type {no_root}, not compiled {not_compiled}",
        percent(refused)
    );
    println!(
        "instances {instances}: agree {agree}, disagree {disagree}; {unchecked} without a reference verdict"
    );
    Ok(disagree == 0 && not_compiled == 0)
}
