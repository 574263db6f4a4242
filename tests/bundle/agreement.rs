//! Agreement between the published schemas and the Rust types, on every golden vector
//! (`tests/vectors/<root type>/{valid,invalid}/*.json`, described in `tests/vectors/README.md`).
//!
//! Two Rust consumers give a verdict on each vector, and each must give the vector's expected
//! one unless `consumers/divergences.json` lists the difference (then it must give the listed
//! verdict, so a divergence that goes away fails the test until its entry is removed):
//! - `rust-jsonschema`: the `jsonschema` crate on the bundle ([`Bundle::validator`]), formats
//!   checked; its error instance paths, normalized as the README says, must equal the vector's
//!   `errors`;
//! - `rust-decode`: what a Rust program gets. Route: `decode` and then
//!   `ToolCallRequest::validate()`; canonical: `decode` (the constructors' checks run while
//!   decoding); ACP: `decode`. An error is `invalid`; a value with an empty leniency report is
//!   `valid`; a value with a non-empty report is `lenient` (the decoder accepted what the schema
//!   refuses, where the schema declares it may: its report points at or under the vector's
//!   `errors`, and each of those has a report entry at or under it).
//!   The expected `rust-decode` verdict is the vector's `decode` member when present, else the
//!   vector's verdict.
//!
//! The other consumers (ajv, Python `jsonschema`, `jsonschema-rs`, pydantic, TypeScript types)
//! run from `consumers/run.sh` on the same vectors and the same list.
//!
//! On top, a property test: for random strings, `validate_call_key` and the published
//! `call_key` rule agree.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use jsonschema::error::ValidationErrorKind;
use jsonschema::ValidationError;
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use serde_json::Value;
use toolcall_contracts::bundle::{Bundle, ROOT_TYPES};
use toolcall_contracts::{acp, canonical, decode, route};

const RUST_JSONSCHEMA: &str = "rust-jsonschema";
const RUST_DECODE: &str = "rust-decode";

/// Every consumer name `consumers/divergences.json` may use.
const CONSUMERS: &[&str] = &[
    RUST_JSONSCHEMA,
    RUST_DECODE,
    "ajv",
    "typescript",
    "python-jsonschema",
    "jsonschema-rs",
    "pydantic",
];

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

// ---------------------------------------------------------------------------------------------
// Vectors and divergences
// ---------------------------------------------------------------------------------------------

/// One golden vector file.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct VectorFile {
    description: String,
    instance: Box<RawValue>,
    #[serde(default)]
    errors: Option<Vec<String>>,
    #[serde(default)]
    decode: Option<String>,
}

struct Vector {
    /// `<root type>/<valid|invalid>/<name>.json`, as `divergences.json` names it.
    id: String,
    root: String,
    expected: &'static str,
    file: VectorFile,
}

fn load_vectors() -> Vec<Vector> {
    let base = manifest_dir().join("tests/vectors");
    let mut vectors = Vec::new();
    for root in sorted_dirs(&base) {
        let root_name = file_name(&root);
        assert!(
            ROOT_TYPES.iter().any(|r| r.name == root_name),
            "tests/vectors/{root_name} is not a root type (`toolcall schemas list`)"
        );
        for expected in ["valid", "invalid"] {
            let dir = root.join(expected);
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .map(|entry| entry.expect("directory entry").path())
                .collect();
            files.sort();
            assert!(
                !files.is_empty(),
                "tests/vectors/{root_name}/{expected} has no vector"
            );
            for path in files {
                assert_eq!(
                    path.extension().and_then(|e| e.to_str()),
                    Some("json"),
                    "{}",
                    path.display()
                );
                let text = std::fs::read_to_string(&path).expect("vector file");
                let file: VectorFile = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let id = format!("{root_name}/{expected}/{}", file_name(&path));
                assert!(!file.description.is_empty(), "{id}: empty description");
                match (expected, &file.errors) {
                    ("valid", None) => {}
                    ("invalid", Some(errors)) if !errors.is_empty() => {
                        let mut sorted = errors.clone();
                        sorted.sort();
                        sorted.dedup();
                        assert_eq!(&sorted, errors, "{id}: `errors` sorted, without repeats");
                    }
                    _ => panic!("{id}: `errors` is required (non-empty) in invalid/ only"),
                }
                if let Some(decode) = &file.decode {
                    assert!(
                        ["valid", "invalid", "lenient"].contains(&decode.as_str()),
                        "{id}: `decode` is valid, invalid or lenient"
                    );
                }
                vectors.push(Vector {
                    id,
                    root: root_name.clone(),
                    expected,
                    file,
                });
            }
        }
    }
    for root in ROOT_TYPES {
        assert!(
            vectors.iter().any(|v| v.root == root.name),
            "root type `{}` has no vectors",
            root.name
        );
    }
    vectors
}

fn sorted_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    dirs
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .and_then(|n| n.to_str())
        .expect("UTF-8 file name")
        .to_owned()
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Divergences {
    #[serde(rename = "$comment")]
    _comment: Option<String>,
    divergences: Vec<Divergence>,
}

/// A listed divergence: `consumer` gives `verdict` on `vector` (and, when `errors` is present,
/// those normalized instance paths) instead of what the vector expects; `reason` names a
/// section of `consumers/DIVERGENCES.md` (a heading of three `#`, then the reason in backticks).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Divergence {
    vector: String,
    consumer: String,
    verdict: String,
    #[serde(default)]
    errors: Option<Vec<String>>,
    reason: String,
}

fn load_divergences(vectors: &[Vector]) -> HashMap<(String, String), Divergence> {
    let path = manifest_dir().join("consumers/divergences.json");
    let text = std::fs::read_to_string(&path).expect("consumers/divergences.json");
    let list: Divergences = serde_json::from_str(&text).expect("divergences.json");
    let explained = std::fs::read_to_string(manifest_dir().join("consumers/DIVERGENCES.md"))
        .expect("consumers/DIVERGENCES.md");
    let mut map = HashMap::new();
    for entry in list.divergences {
        assert!(
            CONSUMERS.contains(&entry.consumer.as_str()),
            "divergences.json: unknown consumer `{}`",
            entry.consumer
        );
        assert!(
            vectors.iter().any(|v| v.id == entry.vector),
            "divergences.json: no vector `{}`",
            entry.vector
        );
        assert!(
            ["valid", "invalid", "lenient"].contains(&entry.verdict.as_str()),
            "divergences.json: verdict of `{}` for `{}`",
            entry.consumer,
            entry.vector
        );
        assert!(
            explained.contains(&format!("### `{}`", entry.reason)),
            "divergences.json: reason `{}` has no section in consumers/DIVERGENCES.md",
            entry.reason
        );
        let key = (entry.vector.clone(), entry.consumer.clone());
        assert!(
            map.insert(key, entry).is_none(),
            "divergences.json: an entry appears twice"
        );
    }
    map
}

// ---------------------------------------------------------------------------------------------
// rust-jsonschema: verdict and normalized instance paths
// ---------------------------------------------------------------------------------------------

/// The bundle's files as JSON, by `$id`, to find the schema that holds a failed union.
fn documents(bundle: &Bundle) -> HashMap<String, Value> {
    bundle
        .files()
        .iter()
        .map(|file| {
            let value = serde_json::from_str(&file.contents).expect("bundle files are JSON");
            (file.id.clone(), value)
        })
        .collect()
}

/// The normalized error paths of `errors` (see `tests/vectors/README.md`): a failed
/// `oneOf`/`anyOf` is one error at the union's instance location, except a `oneOf` beside a
/// `discriminator` whose tag names a branch: that branch's errors instead; then only the
/// shallowest paths (a path under another one is dropped).
fn normalized_paths<'a>(
    errors: impl Iterator<Item = ValidationError<'a>>,
    instance: &Value,
    documents: &HashMap<String, Value>,
) -> Vec<String> {
    let mut paths = BTreeSet::new();
    for error in errors {
        collect_paths(&error, instance, documents, &mut paths);
    }
    minimal(&paths)
}

fn collect_paths(
    error: &ValidationError<'_>,
    instance: &Value,
    documents: &HashMap<String, Value>,
    out: &mut BTreeSet<String>,
) {
    let path = error.instance_path().as_str().to_owned();
    if let ValidationErrorKind::OneOfNotValid { context } = error.kind() {
        if let Some(branch) = discriminated_branch(error, instance, documents) {
            for sub in &context[branch] {
                collect_paths(sub, instance, documents, out);
            }
            return;
        }
    }
    out.insert(path);
}

/// The branch a `discriminator` beside the failed `oneOf` selects for the instance, if any.
fn discriminated_branch(
    error: &ValidationError<'_>,
    instance: &Value,
    documents: &HashMap<String, Value>,
) -> Option<usize> {
    let location = error.absolute_keyword_location()?.as_str().to_owned();
    let (resource, fragment) = location.split_once('#')?;
    let holder_pointer = fragment.strip_suffix("/oneOf")?;
    let holder = documents.get(resource)?.pointer(holder_pointer)?;
    let tag = holder.get("discriminator")?.get("propertyName")?.as_str()?;
    let value = instance.pointer(error.instance_path().as_str())?.get(tag)?;
    holder
        .get("oneOf")?
        .as_array()?
        .iter()
        .position(|branch| branch.pointer(&format!("/properties/{tag}/const")) == Some(value))
}

/// The paths of `paths` that lie under no other one.
fn minimal(paths: &BTreeSet<String>) -> Vec<String> {
    paths
        .iter()
        .filter(|path| {
            !paths
                .iter()
                .any(|other| other != *path && is_under(path, other))
        })
        .cloned()
        .collect()
}

fn is_under(path: &str, base: &str) -> bool {
    base.is_empty() && !path.is_empty()
        || path
            .strip_prefix(base)
            .is_some_and(|rest| rest.starts_with('/'))
}

// ---------------------------------------------------------------------------------------------
// rust-decode
// ---------------------------------------------------------------------------------------------

/// What `rust-decode` says: the verdict and, for `lenient`, the report's pointers.
struct DecodeVerdict {
    verdict: &'static str,
    detail: String,
    pointers: Vec<String>,
}

fn decode_as<T: DeserializeOwned>(
    json: &[u8],
    extra: impl Fn(&T) -> Result<(), String>,
) -> DecodeVerdict {
    match decode::<T>(json) {
        Err(error) => DecodeVerdict {
            verdict: "invalid",
            detail: error.to_string(),
            pointers: Vec::new(),
        },
        Ok(decoded) => match extra(&decoded.value) {
            Err(message) => DecodeVerdict {
                verdict: "invalid",
                detail: message,
                pointers: Vec::new(),
            },
            Ok(()) if decoded.report.is_empty() => DecodeVerdict {
                verdict: "valid",
                detail: String::new(),
                pointers: Vec::new(),
            },
            Ok(()) => DecodeVerdict {
                verdict: "lenient",
                detail: format!("{:?}", decoded.report),
                pointers: minimal(&decoded.report.iter().map(|l| l.pointer.clone()).collect()),
            },
        },
    }
}

fn rust_decode(root: &str, json: &[u8]) -> DecodeVerdict {
    match root {
        "route.ToolCallRequest" => decode_as::<route::ToolCallRequest>(json, |request| {
            request.validate().map_err(|error| error.to_string())
        }),
        "canonical.ToolSpec" => decode_as::<canonical::ToolSpec>(json, |_| Ok(())),
        "canonical.ToolCall" => decode_as::<canonical::ToolCall>(json, |_| Ok(())),
        "canonical.CanonicalToolResult" => {
            decode_as::<canonical::CanonicalToolResult>(json, |_| Ok(()))
        }
        "canonical.ToolLifecycleEvent" => {
            decode_as::<canonical::ToolLifecycleEvent>(json, |_| Ok(()))
        }
        "acp.SessionNotification" => decode_as::<acp::SessionNotification>(json, |_| Ok(())),
        "acp.ToolCall" => decode_as::<acp::ToolCall>(json, |_| Ok(())),
        "acp.ToolCallUpdate" => decode_as::<acp::ToolCallUpdate>(json, |_| Ok(())),
        "acp.RequestPermissionRequest" => {
            decode_as::<acp::RequestPermissionRequest>(json, |_| Ok(()))
        }
        "acp.RequestPermissionResponse" => {
            decode_as::<acp::RequestPermissionResponse>(json, |_| Ok(()))
        }
        "acp.CreateElicitationRequest" => {
            decode_as::<acp::CreateElicitationRequest>(json, |_| Ok(()))
        }
        other => panic!("no Rust type for root type `{other}`: add it here"),
    }
}

// ---------------------------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------------------------

#[derive(Default)]
struct Tally {
    passed: usize,
    failed: Vec<String>,
    divergent: usize,
}

impl Tally {
    /// Records `consumer`'s `actual` verdict (and `paths`, when it has them) on `vector`.
    #[allow(
        clippy::too_many_arguments,
        reason = "one call site per consumer, all named"
    )]
    fn check(
        &mut self,
        vector: &Vector,
        consumer: &str,
        expected_verdict: &str,
        expected_paths: Option<&[String]>,
        actual: &str,
        paths: Option<&[String]>,
        detail: &str,
        divergences: &HashMap<(String, String), Divergence>,
        used: &mut BTreeSet<(String, String)>,
    ) {
        let key = (vector.id.clone(), consumer.to_owned());
        let (want_verdict, want_paths) = match divergences.get(&key) {
            Some(entry) => {
                used.insert(key);
                self.divergent += 1;
                (
                    entry.verdict.as_str(),
                    entry.errors.as_deref().or(expected_paths),
                )
            }
            None => (expected_verdict, expected_paths),
        };
        let mut problems = Vec::new();
        if actual != want_verdict {
            problems.push(format!("verdict `{actual}`, expected `{want_verdict}`"));
        } else if let (Some(want), Some(got)) = (want_paths, paths) {
            let agree = if actual == "lenient" {
                covers(want, got)
            } else {
                want == got
            };
            if !agree {
                problems.push(format!("error paths {got:?}, expected {want:?}"));
            }
        }
        if problems.is_empty() {
            self.passed += 1;
        } else {
            self.failed.push(format!(
                "{consumer} on {}: {} ({detail})",
                vector.id,
                problems.join(", ")
            ));
        }
    }
}

/// Whether a leniency report (its `pointers`) is where the schema errors (`errors`) are: every
/// pointer at or under an error path, every error path with a pointer at or under it (a
/// leniency report points at the member it tolerated, such as the unknown tag of a union whose
/// schema error is at the union).
fn covers(errors: &[String], pointers: &[String]) -> bool {
    let within = |pointer: &String, error: &String| pointer == error || is_under(pointer, error);
    pointers.iter().all(|p| errors.iter().any(|e| within(p, e)))
        && errors.iter().all(|e| pointers.iter().any(|p| within(p, e)))
}

#[test]
fn every_vector_gets_the_same_verdict_from_schema_and_rust() {
    let vectors = load_vectors();
    let divergences = load_divergences(&vectors);
    let bundle = Bundle::build().expect("the bundle builds");
    let documents = documents(&bundle);
    let validators: BTreeMap<&str, jsonschema::Validator> = ROOT_TYPES
        .iter()
        .map(|root| {
            let validator = bundle
                .validator(root.name)
                .unwrap_or_else(|e| panic!("{e}"));
            (root.name, validator)
        })
        .collect();

    let mut schema = Tally::default();
    let mut rust = Tally::default();
    let mut used = BTreeSet::new();
    for vector in &vectors {
        let instance: Value =
            serde_json::from_str(vector.file.instance.get()).expect("the instance is JSON");
        let expected_paths = vector.file.errors.as_deref();

        let validator = &validators[vector.root.as_str()];
        let verdict = if validator.is_valid(&instance) {
            "valid"
        } else {
            "invalid"
        };
        let paths = normalized_paths(validator.iter_errors(&instance), &instance, &documents);
        let detail = validator
            .iter_errors(&instance)
            .map(|e| format!("{} at `{}`", e, e.instance_path().as_str()))
            .collect::<Vec<_>>()
            .join("; ");
        schema.check(
            vector,
            RUST_JSONSCHEMA,
            vector.expected,
            expected_paths,
            verdict,
            (verdict == "invalid").then_some(paths.as_slice()),
            &detail,
            &divergences,
            &mut used,
        );

        let decoded = rust_decode(&vector.root, vector.file.instance.get().as_bytes());
        let expected_decode = vector.file.decode.as_deref().unwrap_or(vector.expected);
        rust.check(
            vector,
            RUST_DECODE,
            expected_decode,
            expected_paths,
            decoded.verdict,
            (decoded.verdict == "lenient").then_some(decoded.pointers.as_slice()),
            &decoded.detail,
            &divergences,
            &mut used,
        );
    }

    println!(
        "{RUST_JSONSCHEMA}: {} passed, {} failed ({} as listed divergences)",
        schema.passed,
        schema.failed.len(),
        schema.divergent
    );
    println!(
        "{RUST_DECODE}: {} passed, {} failed ({} as listed divergences)",
        rust.passed,
        rust.failed.len(),
        rust.divergent
    );
    let unused: Vec<String> = divergences
        .keys()
        .filter(|key| [RUST_JSONSCHEMA, RUST_DECODE].contains(&key.1.as_str()))
        .filter(|key| !used.contains(*key))
        .map(|(vector, consumer)| format!("{consumer} on {vector}"))
        .collect();
    let failures: Vec<&String> = schema.failed.iter().chain(&rust.failed).collect();
    assert!(
        failures.is_empty(),
        "{} disagreement(s):\n{}",
        failures.len(),
        failures
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(unused.is_empty(), "listed but never checked: {unused:?}");
}

// ---------------------------------------------------------------------------------------------
// The bundle is reproducible
// ---------------------------------------------------------------------------------------------

/// A fresh, empty directory under `target/` (removed first if a previous run left it).
fn scratch_dir(name: &str) -> PathBuf {
    let dir = manifest_dir().join("target/agreement-scratch").join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("remove the old scratch directory");
    }
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    dir
}

fn read_tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        for entry in std::fs::read_dir(&current).expect("read the bundle directory") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path
                    .strip_prefix(dir)
                    .expect("under the root")
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(relative, std::fs::read(&path).expect("read a bundle file"));
            }
        }
    }
    out
}

#[test]
fn the_bundle_is_byte_identical_from_the_same_sources() {
    let first = scratch_dir("first");
    let second = scratch_dir("second");
    toolcall_contracts::bundle::export(&first).expect("export");
    toolcall_contracts::bundle::export(&second).expect("export");
    let a = read_tree(&first);
    let b = read_tree(&second);
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (path, bytes) in &a {
        assert!(bytes == &b[path], "`{path}` differs between two exports");
    }
    let mut expected: Vec<String> = Bundle::build()
        .expect("bundle")
        .files()
        .iter()
        .map(|f| f.path.clone())
        .collect();
    expected.push("index.json".to_owned());
    expected.sort();
    assert_eq!(a.keys().cloned().collect::<Vec<_>>(), expected);
}

#[test]
fn the_index_lists_every_file_with_its_hash() {
    let bundle = Bundle::build().expect("bundle");
    let index: Value = serde_json::from_str(bundle.index_json()).expect("index.json is JSON");
    let files = index["files"].as_array().expect("files");
    assert_eq!(files.len(), bundle.files().len());
    let mut ids = BTreeSet::new();
    for (entry, file) in files.iter().zip(bundle.files()) {
        assert_eq!(entry["path"], file.path.as_str());
        assert_eq!(entry["$id"], file.id.as_str());
        assert_eq!(entry["sha256"], file.sha256.as_str());
        assert_eq!(entry["version"], file.version.as_str());
        assert!(ids.insert(file.id.clone()), "`$id` {} twice", file.id);
        let document: Value = serde_json::from_str(&file.contents).expect("JSON");
        assert_eq!(document["$id"], file.id.as_str());
        assert_eq!(
            document["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        assert!(file.id.starts_with(toolcall_contracts::bundle::BASE_URI));
    }
    let roots = index["root_types"].as_array().expect("root_types");
    assert_eq!(roots.len(), ROOT_TYPES.len());
}

// ---------------------------------------------------------------------------------------------
// Property: `validate_call_key` and the published `call_key` rule agree
// ---------------------------------------------------------------------------------------------

thread_local! {
    static ROUTE: jsonschema::Validator = Bundle::build()
        .expect("bundle")
        .validator("route.ToolCallRequest")
        .expect("route validator");
}

fn schema_accepts_call_key(key: &str) -> bool {
    let body = serde_json::json!({"name": "n", "arguments": {}, "call_key": key});
    ROUTE.with(|validator| validator.is_valid(&body))
}

/// Strings near the rule's edges: printable ASCII, then space, control bytes (tab, line feed,
/// DEL, NUL), Latin-1 and other non-ASCII characters, at lengths around 256 bytes.
fn call_keys() -> impl Strategy<Value = String> {
    let edge_char = prop_oneof![
        8 => proptest::char::range('!', '~'),
        1 => Just(' '),
        1 => proptest::char::range('\u{0}', '\u{1f}'),
        1 => Just('\u{7f}'),
        1 => proptest::char::range('\u{80}', '\u{ff}'),
        1 => any::<char>(),
    ];
    let text = |chars: Vec<char>| chars.into_iter().collect::<String>();
    prop_oneof![
        proptest::collection::vec(edge_char.clone(), 0..8).prop_map(text),
        proptest::collection::vec(edge_char, 250..262).prop_map(text),
        proptest::collection::vec(proptest::char::range('!', '~'), 254..259).prop_map(text),
        any::<String>(),
    ]
    .prop_flat_map(|text| prop_oneof![Just(text.clone()), Just(format!("{text}\n"))])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn validate_call_key_agrees_with_the_published_rule(key in call_keys()) {
        let rust = route::validate_call_key(&key).is_ok();
        prop_assert_eq!(rust, schema_accepts_call_key(&key), "call_key {:?}", key);
    }
}
