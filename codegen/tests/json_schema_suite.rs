//! The official JSON Schema Test Suite (`../shared/json-schema-test-suite/`) through the
//! pipeline, as a user would run it: every test group's schema goes through
//! `toolcall_codegen::Builder` (remote `$ref`s served from the suite's `remotes/` folder, never
//! fetched), every generated module is compiled into ONE scratch crate (warnings allowed, built
//! once into a target directory shared with `user_crates.rs`), and every test's `data` is
//! decoded as the group's root type with `toolcall_contracts::decode` and encoded back.
//!
//! A test agrees when the verdict is the suite's and, for a valid instance, the encoding is the
//! same JSON with every number written as it was (`1.0` stays `1.0`, every digit kept). Every
//! disagreement, and every refused group, must be listed with its reason in
//! `tests/json_schema_suite/divergences.txt`; the test fails on any that is not, and on any
//! listed one that no longer happens. A disagreement must also be warned: `generate` printed a
//! warning for its group's schema (the rule: without such a warning, any disagreement
//! is a bug), or the test fails. It prints, per draft: groups, refused, tests, agree, listed,
//! warned.
//!
//! Drafts: 2020-12, 2019-09 and draft-07 (required tests, and the optional `bignum`,
//! `non-bmp-regex` and `ecmascript-regex`); `TOOLCALL_SUITE_DRAFTS=draft4,draft6` runs other
//! folders instead (figures only: their disagreements are printed, not checked against the
//! list). `TOOLCALL_SUITE=write` rewrites the list from what happens now, keeping the reasons of
//! the entries that still happen.
//!
//! Without `../shared` the test prints a notice and checks nothing, unless `CI` is set: then it
//! fails.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

/// The drafts checked against the list, with the `$schema` a group without one is given.
const DRAFTS: &[&str] = &["draft2020-12", "draft2019-09", "draft7"];

/// The optional files that apply to this pipeline (numbers past 64 bits, regular expressions).
const OPTIONAL: &[&str] = &["bignum.json", "non-bmp-regex.json", "ecmascript-regex.json"];

/// Where remote `$ref`s of the suite point; served from `remotes/`.
const REMOTE_BASE: &str = "http://localhost:1234/";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

fn suite_dir() -> PathBuf {
    workspace().join("../shared/json-schema-test-suite")
}

fn list_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/json_schema_suite/divergences.txt")
}

fn dialect(draft: &str) -> &'static str {
    match draft {
        "draft2020-12" => "https://json-schema.org/draft/2020-12/schema",
        "draft2019-09" => "https://json-schema.org/draft/2019-09/schema",
        "draft7" => "http://json-schema.org/draft-07/schema#",
        "draft6" => "http://json-schema.org/draft-06/schema#",
        "draft4" => "http://json-schema.org/draft-04/schema#",
        other => panic!("unknown draft folder `{other}`"),
    }
}

#[derive(Deserialize)]
struct GroupFile {
    description: String,
    schema: Box<RawValue>,
    tests: Vec<TestFile>,
}

#[derive(Deserialize)]
struct TestFile {
    description: String,
    data: Box<RawValue>,
    valid: bool,
}

/// One test group of the suite.
struct Group {
    /// `draft2020-12/optional/bignum.json#3`.
    id: String,
    draft: String,
    description: String,
    /// The schema's text as the suite writes it, with `$schema` added when absent.
    schema: String,
    tests: Vec<Test>,
    /// What the pipeline made of it.
    outcome: Generated,
}

struct Test {
    description: String,
    /// The instance, minified, every number as written.
    data: String,
    valid: bool,
}

enum Generated {
    /// The module's file and its root type; `warned` when `generate` printed a warning for it.
    Module { root: String, warned: bool },
    /// The pipeline refused the schema.
    Refused(String),
    /// It generated, without a type for the root schema.
    NoRoot,
    /// The module did not compile (the compiler's first error).
    NotCompiled(String),
}

/// The schema text with `"$schema": dialect` added to an object without one.
fn with_dialect(schema: &str, dialect: &str) -> String {
    let trimmed = schema.trim();
    let Some(rest) = trimmed.strip_prefix('{') else {
        return trimmed.to_owned();
    };
    let value: Value = serde_json::from_str(trimmed).unwrap();
    if value.get("$schema").is_some() {
        return trimmed.to_owned();
    }
    let rest = rest.trim_start();
    if rest.starts_with('}') {
        format!("{{\"$schema\": {dialect:?}}}")
    } else {
        format!("{{\"$schema\": {dialect:?}, {rest}")
    }
}

/// A JSON value with every number kept as its text, to compare encodings digit for digit.
#[derive(Debug, PartialEq)]
enum Exact {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Exact>),
    Object(BTreeMap<String, Exact>),
}

fn exact(text: &str) -> Result<Exact, String> {
    let text = text.trim();
    Ok(match text.as_bytes().first() {
        Some(b'{') => {
            let members: BTreeMap<String, Box<RawValue>> =
                serde_json::from_str(text).map_err(|e| e.to_string())?;
            Exact::Object(
                members
                    .into_iter()
                    .map(|(k, v)| exact(v.get()).map(|v| (k, v)))
                    .collect::<Result<_, _>>()?,
            )
        }
        Some(b'[') => {
            let items: Vec<Box<RawValue>> =
                serde_json::from_str(text).map_err(|e| e.to_string())?;
            Exact::Array(
                items
                    .iter()
                    .map(|v| exact(v.get()))
                    .collect::<Result<_, _>>()?,
            )
        }
        Some(b'"') => Exact::String(serde_json::from_str(text).map_err(|e| e.to_string())?),
        Some(b't') => Exact::Bool(true),
        Some(b'f') => Exact::Bool(false),
        Some(b'n') => Exact::Null,
        _ => Exact::Number(text.to_owned()),
    })
}

/// Every group of the drafts asked for.
fn collect(suite: &Path, drafts: &[String]) -> Vec<Group> {
    let mut groups = Vec::new();
    for draft in drafts {
        let dir = suite.join("tests").join(draft);
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".json"))
            .collect();
        files.sort();
        files.extend(
            OPTIONAL
                .iter()
                .filter(|name| dir.join("optional").join(name).is_file())
                .map(|name| format!("optional/{name}")),
        );
        for file in files {
            let path = dir.join(&file);
            let text = std::fs::read_to_string(&path).unwrap();
            let parsed: Vec<GroupFile> =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            for (index, group) in parsed.into_iter().enumerate() {
                groups.push(Group {
                    id: format!("{draft}/{file}#{index}"),
                    draft: draft.clone(),
                    description: group.description,
                    schema: with_dialect(group.schema.get(), dialect(draft)),
                    tests: group
                        .tests
                        .into_iter()
                        .map(|t| Test {
                            description: t.description,
                            data: toolcall_test_support::minify(t.data.get()),
                            valid: t.valid,
                        })
                        .collect(),
                    outcome: Generated::NoRoot,
                });
            }
        }
    }
    groups
}

/// The scratch crate's module name of group `index`.
fn module(index: usize) -> String {
    format!("g{index:04}")
}

/// Runs the pipeline on every group; writes the modules that generate into `src`.
fn generate(groups: &mut [Group], dir: &Path, remotes: &Path) {
    let schemas = dir.join("schemas");
    std::fs::create_dir_all(&schemas).unwrap();
    for (index, group) in groups.iter_mut().enumerate() {
        let path = schemas.join(format!("{}.json", module(index)));
        write_if_changed(&path, &group.schema);
        let builder = toolcall_codegen::Builder::new(&path).ref_dir(REMOTE_BASE, remotes);
        group.outcome = match builder.generate_with_root() {
            Err(error) => Generated::Refused(error.to_string()),
            Ok((_, None)) => Generated::NoRoot,
            Ok((text, Some(root))) => {
                write_if_changed(
                    &dir.join("src").join(format!("{}.rs", module(index))),
                    &text,
                );
                let warned = text.lines().any(|line| line.starts_with("// warning: "));
                Generated::Module { root, warned }
            }
        };
    }
}

/// Writes `text` to `to` unless it already holds it, so that cargo does not rebuild.
fn write_if_changed(to: &Path, text: &str) {
    if std::fs::read_to_string(to).ok().as_deref() != Some(text) {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, text).unwrap();
    }
}

/// The scratch crate: a library of every module that generated, and a program that decodes
/// `group\tjson` lines from its input as the group's root type.
fn write_crate(groups: &[Group], dir: &Path) {
    write_if_changed(
        &dir.join("Cargo.toml"),
        &toolcall_test_support::decode_crate_manifest(&crate_name(dir), &workspace()),
    );
    if !dir.join("Cargo.lock").exists() {
        std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    }
    let modules: Vec<(usize, String, String)> = groups
        .iter()
        .enumerate()
        .filter_map(|(index, group)| match &group.outcome {
            Generated::Module { root, .. } => Some((index, module(index), root.clone())),
            _ => None,
        })
        .collect();
    let main = toolcall_test_support::decode_crate_main("the JSON Schema Test Suite", &modules);
    write_if_changed(&dir.join("src/main.rs"), &main);
}

/// Runs cargo in the scratch crate; `Err` with its error output when it fails.
fn cargo(dir: &Path, args: &[&str]) -> Result<(), String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("user-crates-target");
    let output = Command::new(cargo)
        .args(args)
        .args(["--offline", "--quiet", "--message-format=short"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", &target)
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo starts");
    if output.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

/// The scratch crate's name: its folder's (`json-schema-suite-checked`, `-other`), so that the
/// two crates, built into one target directory, do not overwrite each other's program.
fn crate_name(dir: &Path) -> String {
    dir.file_name()
        .expect("the scratch crate's folder has a name")
        .to_string_lossy()
        .into_owned()
}

fn binary(dir: &Path) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("user-crates-target/debug")
        .join(crate_name(dir))
}

/// Builds the crate; a module that does not compile is taken out (its group counted as not
/// compiling, with the compiler's first error) and the crate built again.
fn build(groups: &mut [Group], dir: &Path) {
    for _ in 0..20 {
        write_crate(groups, dir);
        let Err(errors) = cargo(dir, &["build"]) else {
            return;
        };
        let mut failing: BTreeMap<usize, String> = BTreeMap::new();
        for line in errors.lines() {
            let Some(at) = line.find("src/g") else {
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
        assert!(
            !failing.is_empty(),
            "the suite's crate does not build:\n{errors}"
        );
        for (index, error) in failing {
            groups[index].outcome = Generated::NotCompiled(error);
        }
    }
    panic!("the suite's crate still does not build after taking modules out");
}

/// What one test gave: `ok\t<encoded>`, `err\t<message>`, ...
fn run(groups: &[Group], dir: &Path) -> Vec<Vec<String>> {
    let mut child = Command::new(binary(dir))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the suite's program starts");
    let mut input = String::new();
    for (index, group) in groups.iter().enumerate() {
        if matches!(group.outcome, Generated::Module { .. }) {
            for test in &group.tests {
                writeln!(input, "{index}\t{}", test.data).unwrap();
            }
        }
    }
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(output.status.success(), "the suite's program failed");
    let text = String::from_utf8(output.stdout).unwrap();
    let mut lines = text.lines();
    groups
        .iter()
        .map(|group| match group.outcome {
            Generated::Module { .. } => group
                .tests
                .iter()
                .map(|_| lines.next().expect("one line per test").to_owned())
                .collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// A disagreement (or a refusal), by the id of its group or test.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Divergence {
    id: String,
    what: String,
}

/// The kinds of disagreement, as the list names them.
fn judge(test: &Test, line: &str) -> Option<(&'static str, String)> {
    let (verdict, rest) = line.split_once('\t').unwrap_or((line, ""));
    match (verdict, test.valid) {
        ("ok", true) => match (exact(rest), exact(&test.data)) {
            (Ok(a), Ok(b)) if a == b => None,
            _ => Some(("re-encodes", format!("as {rest}"))),
        },
        ("ok", false) => Some(("accepts-invalid", String::new())),
        ("err", true) => Some(("refuses-valid", rest.to_owned())),
        ("err", false) => None,
        (other, _) => Some((
            match other {
                "lenient" => "lenient",
                "check" => "check-disagrees",
                _ => "panics",
            },
            rest.to_owned(),
        )),
    }
}

#[derive(Default)]
struct Counts {
    groups: usize,
    refused: usize,
    no_root: usize,
    not_compiled: usize,
    tests: usize,
    agree: usize,
    accepts_invalid: usize,
    refuses_valid: usize,
    re_encodes: usize,
    other: usize,
    listed: usize,
    warned: usize,
}

/// The row of the table a group counts in: its draft, apart for the optional files.
fn table_row(group: &Group) -> String {
    if group.id.contains("/optional/") {
        format!("{} optional", group.draft)
    } else {
        group.draft.clone()
    }
}

/// The list: `id<TAB>what<TAB>reason` lines; `#` comments.
fn read_list() -> BTreeMap<Divergence, String> {
    let text = std::fs::read_to_string(list_path()).unwrap_or_default();
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut parts = line.splitn(3, '\t');
            let id = parts.next().unwrap().to_owned();
            let what = parts.next().unwrap_or_default().to_owned();
            let reason = parts.next().unwrap_or_default().to_owned();
            (Divergence { id, what }, reason)
        })
        .collect()
}

fn write_list(found: &BTreeMap<Divergence, String>, old: &BTreeMap<Divergence, String>) {
    let mut text = String::from(
        "# Where the pipeline and the JSON Schema Test Suite disagree, and why: one line per\n\
         # refused group or disagreeing test, `id<TAB>what<TAB>reason`. Checked by\n\
         # `cargo test -p toolcall-codegen --test json_schema_suite`; `TOOLCALL_SUITE=write` rewrites\n\
         # it from what happens now (reasons of entries that still happen are kept).\n",
    );
    for (divergence, detail) in found {
        let reason = old.get(divergence).cloned().unwrap_or_else(|| {
            format!(
                "open (issue 21): {}",
                detail.chars().take(160).collect::<String>()
            )
        });
        writeln!(text, "{}\t{}\t{reason}", divergence.id, divergence.what).unwrap();
    }
    std::fs::write(list_path(), text).unwrap();
}

#[test]
fn the_json_schema_test_suite_agrees_or_each_divergence_is_listed() {
    let suite = suite_dir();
    if !suite.join("tests").is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{} is missing: CI must run the JSON Schema Test Suite",
            suite.display()
        );
        println!("{} is absent: nothing checked", suite.display());
        return;
    }
    let (drafts, checked): (Vec<String>, bool) = match std::env::var("TOOLCALL_SUITE_DRAFTS") {
        Ok(list) => (list.split(',').map(str::to_owned).collect(), false),
        Err(_) => (DRAFTS.iter().map(|d| (*d).to_owned()).collect(), true),
    };
    let started = Instant::now();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "json-schema-suite-{}",
        if checked { "checked" } else { "other" }
    ));
    let mut groups = collect(&suite, &drafts);
    generate(&mut groups, &dir, &suite.join("remotes"));
    let generated = started.elapsed();
    build(&mut groups, &dir);
    let built = started.elapsed();
    let results = run(&groups, &dir);
    println!(
        "generated {:.1} s, built {:.1} s, ran {:.1} s",
        generated.as_secs_f64(),
        (built - generated).as_secs_f64(),
        (started.elapsed() - built).as_secs_f64()
    );

    let mut found: BTreeMap<Divergence, String> = BTreeMap::new();
    // Disagreements of a module `generate` printed no warning for.
    let mut silent: Vec<String> = Vec::new();
    let mut counts: BTreeMap<String, Counts> = BTreeMap::new();
    for (group, lines) in groups.iter().zip(&results) {
        let c = counts.entry(table_row(group)).or_default();
        c.groups += 1;
        let mut group_divergence = |what: &str, detail: &str| {
            found.insert(
                Divergence {
                    id: group.id.clone(),
                    what: what.to_owned(),
                },
                format!("{}: {detail}", group.description),
            );
        };
        let warned = matches!(group.outcome, Generated::Module { warned: true, .. });
        match &group.outcome {
            Generated::Refused(error) => {
                c.refused += 1;
                group_divergence("refused", error);
                continue;
            }
            Generated::NoRoot => {
                c.no_root += 1;
                group_divergence("no-root-type", "");
                continue;
            }
            Generated::NotCompiled(error) => {
                c.not_compiled += 1;
                group_divergence("does-not-compile", error);
                continue;
            }
            Generated::Module { .. } => {}
        }
        for (index, (test, line)) in group.tests.iter().zip(lines).enumerate() {
            c.tests += 1;
            match judge(test, line) {
                None => c.agree += 1,
                Some((what, detail)) => {
                    if warned {
                        c.warned += 1;
                    } else {
                        silent.push(format!("{}/{index}\t{what}", group.id));
                    }
                    match what {
                        "accepts-invalid" => c.accepts_invalid += 1,
                        "refuses-valid" => c.refuses_valid += 1,
                        "re-encodes" => c.re_encodes += 1,
                        _ => c.other += 1,
                    }
                    found.insert(
                        Divergence {
                            id: format!("{}/{index}", group.id),
                            what: what.to_owned(),
                        },
                        format!("{} / {}: {detail}", group.description, test.description),
                    );
                }
            }
        }
    }
    let list = if checked {
        read_list()
    } else {
        BTreeMap::new()
    };
    for divergence in found.keys() {
        if list.contains_key(divergence) {
            let group = divergence.id.split_once('#').map_or("", |(file, _)| file);
            let row = if group.contains("/optional/") {
                format!("{} optional", group.split('/').next().unwrap())
            } else {
                group.split('/').next().unwrap().to_owned()
            };
            counts.get_mut(&row).unwrap().listed += 1;
        }
    }
    println!("| | groups | refused | no root type | not compiled | tests | agree | accepts invalid | refuses valid | re-encodes | other | listed | warned |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (draft, c) in &counts {
        println!(
            "| {draft} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            c.groups,
            c.refused,
            c.no_root,
            c.not_compiled,
            c.tests,
            c.agree,
            c.accepts_invalid,
            c.refuses_valid,
            c.re_encodes,
            c.other,
            c.listed,
            c.warned
        );
    }
    if !checked {
        for (divergence, detail) in &found {
            println!("{}\t{}\t{detail}", divergence.id, divergence.what);
        }
        return;
    }
    if std::env::var("TOOLCALL_SUITE").is_ok_and(|v| v == "write") {
        write_list(&found, &list);
        println!("wrote {}", list_path().display());
        return;
    }
    let unlisted: Vec<String> = found
        .iter()
        .filter(|(d, _)| !list.contains_key(d))
        .map(|(d, detail)| format!("{}\t{}\t{detail}", d.id, d.what))
        .collect();
    let gone: Vec<String> = list
        .keys()
        .filter(|d| !found.contains_key(d))
        .map(|d| format!("{}\t{}", d.id, d.what))
        .collect();
    assert!(
        silent.is_empty(),
        "{} disagreements of modules `generate` printed no warning for (a silent disagreement \
         is a bug, listed or not):\n{}",
        silent.len(),
        silent.join("\n")
    );
    let seen: BTreeSet<&str> = groups.iter().map(|g| g.id.as_str()).collect();
    assert!(seen.len() == groups.len(), "group ids are unique");
    assert!(
        unlisted.is_empty() && gone.is_empty(),
        "{} disagreements not in {}:\n{}\n{} listed that no longer happen:\n{}\n\
         (`TOOLCALL_SUITE=write` rewrites the list; give each new entry its reason)",
        unlisted.len(),
        list_path().display(),
        unlisted.join("\n"),
        gone.len(),
        gone.join("\n")
    );
}
