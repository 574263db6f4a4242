//! Differential test of the generated ACP types against the official crate
//! `agent-client-protocol-schema` 1.20.0 (the crate the schema was exported from).
//!
//! Inputs: the documentation examples; the shared traffic corpus; every mutant of their
//! schema-valid messages (each member deleted, `null`, of another type; each array item of
//! another type); a `null` and an `{}` payload for every method definition; and a deterministic
//! proptest corpus (256 cases) of `session/update` notifications, `session/request_permission`
//! requests and bare `ToolCallUpdate`s built from the schema's shape (optional members absent,
//! `null`, valid or invalid; known and unknown enum values; every content kind; invalid items;
//! undeclared members; union tags first or last). For every input:
//!
//! - a message the official crate accepts is accepted here too (`by official only` must be 0
//!   but for [`KNOWN_BUGS`]);
//! - when both accept, the two re-encodings are equal under [`equal_modulo_defaults`], which
//!   lets one side lack a member only where the official crate is known to omit it
//!   ([`UNDECLARED`], [`OMISSION_RULES`]) or to write a schema default;
//! - when the official crate rejects it, this crate either rejects it too or accepts it with a
//!   non-empty leniency report (an unknown `sessionUpdate` variant kept as `Unknown`, a skipped
//!   invalid item, ...): never silently;
//! - for the mutants, probes and generated inputs also: an input that is exactly valid
//!   (`support::Validity::Exact`) decodes here with an empty report and re-encodes exactly
//!   (numbers compared by value), and a schema-invalid input that decodes here has a non-empty
//!   report.
//!
//! The definition of each message is chosen as in `tests/support/mod.rs`; the official side uses
//! the crate's own method dispatch (`ClientRequest::from_method_and_params`,
//! `AgentResponse::from_method_and_result`, ...) for JSON-RPC messages, so the two method tables
//! are compared too, and the type of the same name for fragments.

use crate::support;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use agent_client_protocol_schema::v1 as official;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Map, Value};
use support::{Envelope, Failures, KnownBug, Part, Schema, Side, Target, Validity};

/// The check over the corpora.
const CORPUS: &str = "differential";
/// The check (and the corpus name) of the generated inputs.
const GENERATED: &str = "generated";
/// The check over the mutants of the corpora.
const MUTANTS: &str = "mutants";
/// The check (and the corpus name) of the `null`/`{}` payload probes.
const PROBE: &str = "payload probe";

/// The official crate accepts `null` for the payloads it declares with its
/// `default_on_null!` macro (`serde_util.rs`: "a defaultable payload whose `Deserialize`
/// accepts null"); without unstable features: `LogoutRequest`, `ListSessionsRequest`,
/// `AuthenticateResponse`, `LogoutResponse`, `LoadSessionResponse`, `ResumeSessionResponse`,
/// `CloseSessionResponse`, `DeleteSessionResponse`, `SetSessionModeResponse`,
/// `WriteTextFileResponse`, `ReleaseTerminalResponse`, `KillTerminalResponse`,
/// `WaitForTerminalExitResponse`. The exported schema does not say so: each is
/// `"type": "object"` with no annotation, so ours rejects `null`. Minimal:
/// `{"jsonrpc":"2.0","id":4,"result":null}` answering `fs/write_text_file`.
const NULL_PAYLOAD: &str = "official accepts `null` for its `default_on_null!` payloads; \
    the schema says `type: object` and has no annotation for it";

/// Known failures (see [`support::KnownBug`]); each must still fail.
const KNOWN_BUGS: &[KnownBug] = &[
    KnownBug {
        check: CORPUS,
        corpus: support::DOCS,
        // `result: null` answering `fs/write_text_file` (28) and `session/load` (62).
        cases: &["28", "62"],
        reason: NULL_PAYLOAD,
    },
    KnownBug {
        check: PROBE,
        corpus: PROBE,
        cases: &[
            "null:LogoutRequest",
            "null:ListSessionsRequest",
            "null:AuthenticateResponse",
            "null:LogoutResponse",
            "null:LoadSessionResponse",
            "null:ResumeSessionResponse",
            "null:CloseSessionResponse",
            "null:DeleteSessionResponse",
            "null:SetSessionModeResponse",
            "null:WriteTextFileResponse",
            "null:ReleaseTerminalResponse",
            "null:KillTerminalResponse",
            "null:WaitForTerminalExitResponse",
        ],
        reason: NULL_PAYLOAD,
    },
];

/// A member the official crate leaves out of its encoding although the input had it.
///
/// Each rule names the values it covers and the official crate's reason; a rule applies only
/// where the official re-encoding lacks a member that ours has (never the other way round), so
/// the rules cannot hide a member the official crate writes.
struct OmissionRule {
    /// Short name, printed with its count.
    name: &'static str,
    /// Member names the rule applies to (`None`: any member).
    members: Option<&'static [&'static str]>,
    /// Whether the rule covers this value.
    covers: fn(&Value) -> bool,
}

/// The rule for members the schema does not declare where they are
/// ([`Schema::undeclared_members`] of our re-encoding): ours keeps them (`unknown_members`) and
/// writes them back; the official structs have no catch-all and serde ignores unknown fields.
const UNDECLARED: &str = "undeclared member (the official crate ignores unknown fields)";

/// The omission rules (see `~/.cargo/registry/src/*/agent-client-protocol-schema-1.20.0/src/v1`).
const OMISSION_RULES: &[OmissionRule] = &[
    // Every official struct is `#[skip_serializing_none]` and its optional members are
    // `Option<T>`: `null` decodes as `None` and is not written. Ours keeps `null` apart from
    // absent (`MaybeUndefined::Null`) and writes it back.
    OmissionRule {
        name: "null member",
        members: None,
        covers: Value::is_null,
    },
    // `#[serde(default, skip_serializing_if = "Vec::is_empty")]` on plain `Vec` members:
    // `ToolCall.content`, `ToolCall.locations`, `AuthMethodTerminal.args`,
    // `CreateTerminalRequest.args`/`env`, `{New,Load,Resume}SessionRequest.additionalDirectories`,
    // `ResumeSessionRequest.mcpServers`, and `configOptions` of the session requests.
    OmissionRule {
        name: "empty array the official crate skips",
        members: Some(&[
            "content",
            "locations",
            "args",
            "env",
            "additionalDirectories",
            "mcpServers",
            "configOptions",
        ]),
        covers: |value| value.as_array().is_some_and(Vec::is_empty),
    },
    // `#[serde(default, skip_serializing_if = "HashMap::is_empty")]` on
    // `AuthMethodTerminal.env`.
    OmissionRule {
        name: "empty object the official crate skips",
        members: Some(&["env"]),
        covers: |value| value.as_object().is_some_and(Map::is_empty),
    },
    // `ToolCall.kind` is `ToolKind` with `skip_serializing_if = "ToolKind::is_default"`
    // (default `other`, also what an unknown kind decodes to).
    OmissionRule {
        name: "`kind: other` (ToolKind default)",
        members: Some(&["kind"]),
        covers: |value| value == "other",
    },
    // `ToolCall.status` is `ToolCallStatus` with `skip_serializing_if = "is_default"`
    // (default `pending`).
    OmissionRule {
        name: "`status: pending` (ToolCallStatus default)",
        members: Some(&["status"]),
        covers: |value| value == "pending",
    },
];

/// Compares our re-encoding with the official one; returns the rules applied, or the first
/// difference.
///
/// - A member ours writes and the official crate omits must be undeclared by the schema at its
///   place ([`UNDECLARED`]) or covered by [`OMISSION_RULES`].
/// - A member the official crate writes and ours omits must carry the `default` the schema
///   declares for a property of that name (`defaults`, from [`Schema::declared_defaults`]): the
///   official capability types are `#[serde(default)]` structs and `bool`s that are always
///   written (`"loadSession": false`, `"promptCapabilities": {"image": false, ...}`), while ours
///   keeps an absent member absent.
/// - Numbers compare with [`support::same_number`] (both crates decode `number` as `f64`, so
///   `0` comes back as `0.0` on both sides).
fn equal_modulo_defaults(
    ours: &Value,
    theirs: &Value,
    defaults: &[(String, Value)],
    undeclared: &BTreeSet<String>,
    prefix: &str,
) -> Result<Vec<&'static str>, String> {
    fn walk(
        ours: &Value,
        theirs: &Value,
        defaults: &[(String, Value)],
        undeclared: &BTreeSet<String>,
        path: &mut String,
        hits: &mut Vec<&'static str>,
    ) -> Result<(), String> {
        match (ours, theirs) {
            (Value::Object(o), Value::Object(t)) => {
                for (key, value) in o {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&key.replace('~', "~0").replace('/', "~1"));
                    match t.get(key) {
                        Some(other) => walk(value, other, defaults, undeclared, path, hits)?,
                        None if undeclared.contains(path.as_str()) => hits.push(UNDECLARED),
                        None => {
                            let rule = OMISSION_RULES.iter().find(|rule| {
                                rule.members
                                    .is_none_or(|members| members.contains(&key.as_str()))
                                    && (rule.covers)(value)
                            });
                            match rule {
                                Some(rule) => hits.push(rule.name),
                                None => {
                                    return Err(format!(
                                        "`{path}`: ours {value}, official omits it"
                                    ));
                                }
                            }
                        }
                    }
                    path.truncate(len);
                }
                for (key, value) in t {
                    if o.contains_key(key) {
                        continue;
                    }
                    let declared = defaults.iter().any(|(name, default)| {
                        name == key && support::first_difference(default, value, "").is_none()
                    });
                    if !declared {
                        return Err(format!(
                            "`{path}/{key}`: official writes {value}, ours omits it"
                        ));
                    }
                    hits.push("schema default written by the official crate");
                }
                Ok(())
            }
            (Value::Array(o), Value::Array(t)) if o.len() == t.len() => {
                for (index, (a, b)) in o.iter().zip(t).enumerate() {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&index.to_string());
                    walk(a, b, defaults, undeclared, path, hits)?;
                    path.truncate(len);
                }
                Ok(())
            }
            (Value::Number(a), Value::Number(b)) if support::same_number(a, b) => {
                if a != b {
                    hits.push("number equal by value");
                }
                Ok(())
            }
            _ if ours == theirs => Ok(()),
            _ => Err(format!("`{path}`: ours {ours}, official {theirs}")),
        }
    }
    let mut hits = Vec::new();
    walk(
        ours,
        theirs,
        defaults,
        undeclared,
        &mut prefix.to_owned(),
        &mut hits,
    )?;
    Ok(hits)
}

fn official_as<T: DeserializeOwned + Serialize>(json: &[u8]) -> Result<Value, String> {
    let value: T = serde_json::from_slice(json).map_err(|error| error.to_string())?;
    serde_json::to_value(&value).map_err(|error| format!("official re-encoding failed: {error}"))
}

fn encoded<T: Serialize, E: std::fmt::Display>(result: Result<T, E>) -> Result<Value, String> {
    let value = result.map_err(|error| error.to_string())?;
    serde_json::to_value(&value).map_err(|error| format!("official re-encoding failed: {error}"))
}

macro_rules! official_table {
    ($($name:ident),* $(,)?) => {
        /// Decodes `json` as the official type named `def`; `None` when `def` is not mapped.
        fn decode_official_by_name(def: &str, json: &[u8]) -> Option<Result<Value, String>> {
            match def {
                $(stringify!($name) => Some(official_as::<official::$name>(json)),)*
                _ => None,
            }
        }
    };
}
support::with_def_names!(official_table);

/// The official decode and re-encoding of a message part.
fn decode_official(schema: &Schema, target: &Target, part: &Value) -> Result<Value, String> {
    let side = target
        .method
        .as_deref()
        .and_then(|method| schema.side(method));
    match (target.envelope, target.method.as_deref(), side) {
        (Envelope::Request, Some(method), Some(Side::Client)) => {
            encoded(official::AgentRequest::from_method_and_params(method, part))
        }
        (Envelope::Request, Some(method), _) => encoded(
            official::ClientRequest::from_method_and_params(method, part),
        ),
        (Envelope::Notification, Some(method), Some(Side::Client)) => encoded(
            official::AgentNotification::from_method_and_params(method, part),
        ),
        (Envelope::Notification, Some(method), Some(Side::Protocol)) => encoded(
            official::ProtocolLevelNotification::from_method_and_params(method, part),
        ),
        (Envelope::Notification, Some(method), _) => encoded(
            official::ClientNotification::from_method_and_params(method, part),
        ),
        (Envelope::Response, Some(method), Some(Side::Client)) if target.part == Part::Result => {
            encoded(official::ClientResponse::from_method_and_result(
                method,
                part.clone(),
            ))
        }
        (Envelope::Response, Some(method), _) if target.part == Part::Result => encoded(
            official::AgentResponse::from_method_and_result(method, part.clone()),
        ),
        _ => {
            let json = serde_json::to_vec(part).expect("a value encodes");
            decode_official_by_name(&target.def, &json)
                .unwrap_or_else(|| panic!("no official type is mapped for `{}`", target.def))
        }
    }
}

/// Counts printed per corpus.
struct Counts {
    inputs: usize,
    no_target: usize,
    both: usize,
    ours_only: usize,
    official_only: usize,
    neither: usize,
    equal: usize,
    ours_only_reported: BTreeMap<String, usize>,
    rules: BTreeMap<&'static str, usize>,
    schema_valid: usize,
    schema_valid_exact: usize,
    loose: usize,
    failures: Failures,
}

impl Counts {
    fn new(check: &'static str, corpus: &'static str) -> Self {
        Self {
            inputs: 0,
            no_target: 0,
            both: 0,
            ours_only: 0,
            official_only: 0,
            neither: 0,
            equal: 0,
            ours_only_reported: BTreeMap::new(),
            rules: BTreeMap::new(),
            schema_valid: 0,
            schema_valid_exact: 0,
            loose: 0,
            failures: Failures::new(KNOWN_BUGS, check, corpus),
        }
    }

    fn print(&self, name: &str) {
        println!(
            "{name}: {} inputs ({} without a definition to check), accepted by both {}, by us only {}, \
             by official only {} ({} known bugs), by neither {}; equal re-encodings {} of {}",
            self.inputs,
            self.no_target,
            self.both,
            self.ours_only,
            self.official_only,
            self.failures.known.len(),
            self.neither,
            self.equal,
            self.both
        );
        if self.schema_valid > 0 {
            println!(
                "  schema-valid inputs {}, of which round-tripped exactly here {}; \
                 loosely valid (see `Schema::validity`) {}",
                self.schema_valid, self.schema_valid_exact, self.loose
            );
        }
        for (rule, count) in &self.rules {
            println!("  normalization `{rule}`: {count}");
        }
        for (kinds, count) in &self.ours_only_reported {
            println!("  accepted by us only, with report kinds [{kinds}]: {count}");
        }
        self.failures.print();
    }
}

/// Options for [`check`].
#[derive(Clone, Copy)]
struct Strict {
    /// Also require: schema-valid ⇒ exact round trip with an empty report; schema-invalid and
    /// decoded ⇒ a non-empty report.
    against_schema: bool,
}

/// Checks one input; records counts; returns the failure, if any.
fn check(
    schema: &Schema,
    defaults: &[(String, Value)],
    target: &Target,
    message: &Value,
    validity: Validity,
    strict: Strict,
    counts: &mut Counts,
) -> Result<(), String> {
    let part = target.part.of(message);
    let json = serde_json::to_vec(&part).expect("a value encodes");
    let ours = support::decode_ours(&target.def, &json)
        .unwrap_or_else(|| panic!("no generated type is mapped for `{}`", target.def));
    let theirs = decode_official(schema, target, &part);
    let prefix = target.part.pointer();
    if strict.against_schema && validity == Validity::Loose {
        counts.loose += 1;
    }
    if strict.against_schema && validity == Validity::Loose && ours.is_err() {
        println!(
            "  loosely valid (`{}`): ours {}, official {}; input {}",
            target.def,
            match &ours {
                Ok(ours) if ours.report.is_empty() => "accepts".to_owned(),
                Ok(ours) => format!(
                    "accepts with [{}]",
                    support::render_report(&ours.report, prefix)
                ),
                Err(error) => format!("rejects ({error})"),
            },
            if theirs.is_ok() { "accepts" } else { "rejects" },
            support::brief(message)
        );
    }
    if strict.against_schema && validity == Validity::Exact {
        counts.schema_valid += 1;
        match &ours {
            Ok(ours)
                if ours.leniency_on_valid().is_empty()
                    && support::first_difference(&part, &ours.encoded, "").is_none() =>
            {
                counts.schema_valid_exact += 1;
            }
            Ok(ours) if !ours.leniency_on_valid().is_empty() => {
                return Err(format!(
                    "schema-valid, yet reported [{}]",
                    support::render_report(&ours.report, prefix)
                ))
            }
            Ok(ours) => {
                return Err(format!(
                    "schema-valid, yet re-encoded differently (input vs ours) at {}",
                    support::first_difference(&part, &ours.encoded, prefix).unwrap_or_default()
                ))
            }
            Err(error) => return Err(format!("schema-valid, yet rejected here: {error}")),
        }
    }
    match (ours, theirs) {
        (Ok(ours), Ok(theirs)) => {
            counts.both += 1;
            if strict.against_schema && validity == Validity::Invalid && ours.report.is_empty() {
                return Err("schema-invalid, decoded here with an empty report".to_owned());
            }
            let undeclared: BTreeSet<String> = schema
                .undeclared_members(&target.def, &ours.encoded)
                .into_iter()
                .map(|pointer| format!("{prefix}{pointer}"))
                .collect();
            match equal_modulo_defaults(&ours.encoded, &theirs, defaults, &undeclared, prefix) {
                Ok(hits) => {
                    counts.equal += 1;
                    for hit in hits {
                        *counts.rules.entry(hit).or_default() += 1;
                    }
                    Ok(())
                }
                Err(difference) => Err(format!(
                    "re-encodings differ at {difference}\n    ours:     {}\n    official: {}",
                    support::brief(&ours.encoded),
                    support::brief(&theirs)
                )),
            }
        }
        (Ok(ours), Err(official_error)) => {
            counts.ours_only += 1;
            if ours.report.is_empty() {
                return Err(format!(
                    "the official crate rejects it ({official_error}); we accept it with an empty report"
                ));
            }
            let mut kinds: Vec<String> = ours.report.iter().map(|l| l.kind.to_string()).collect();
            kinds.sort();
            kinds.dedup();
            *counts
                .ours_only_reported
                .entry(kinds.join(", "))
                .or_default() += 1;
            Ok(())
        }
        (Err(error), Ok(_)) => {
            counts.official_only += 1;
            Err(format!(
                "the official crate accepts it; we reject it: {error}"
            ))
        }
        (Err(_), Err(_)) => {
            counts.neither += 1;
            Ok(())
        }
    }
}

/// Runs [`check`] over a corpus file; returns its counts.
fn run_corpus(name: &str, relative: &'static str) -> Option<Counts> {
    let lines = support::load(relative)?;
    let schema = Schema::load();
    let defaults = schema.declared_defaults();
    let mut counts = Counts::new(CORPUS, relative);
    counts.inputs = lines.len();
    let mut pending = support::Pending::default();
    for line in &lines {
        let verdict = schema.classify(&line.value, &mut pending);
        let Some(target) = &verdict.target else {
            counts.no_target += 1;
            continue;
        };
        let strict = Strict {
            against_schema: false,
        };
        let valid = if verdict.valid.is_ok() {
            Validity::Exact
        } else {
            Validity::Invalid
        };
        if let Err(why) = check(
            &schema,
            &defaults,
            target,
            &line.value,
            valid,
            strict,
            &mut counts,
        ) {
            let why = format!("(`{}`) {why}", target.def);
            counts.failures.record(line.no, &line.value, &why);
        }
    }
    counts.print(name);
    Some(counts)
}

/// No failure but the known bugs (which must still fail); so "by official only" counts known
/// bugs only.
fn assert_clean(counts: &Counts) {
    counts.failures.assert();
    assert!(counts.official_only <= counts.failures.known.len());
}

#[test]
fn docs_examples_agree_with_the_official_crate() {
    if let Some(counts) = run_corpus("docs-v1", support::DOCS) {
        assert!(counts.both > 0);
        assert_clean(&counts);
    }
}

#[test]
fn traffic_agrees_with_the_official_crate() {
    if let Some(counts) = run_corpus("traffic", support::TRAFFIC) {
        assert!(counts.both > 0);
        assert_clean(&counts);
    }
}

/// Every method definition with a `null` and an `{}` payload (`params`, or `result`), decoded by
/// both crates: the official crate must not accept one that ours rejects, and where both accept
/// the re-encodings must agree.
#[test]
fn payload_probes_agree_with_the_official_crate() {
    let schema = Schema::load();
    let defaults = schema.declared_defaults();
    let mut counts = Counts::new(PROBE, PROBE);
    for (kind, method, def) in schema.methods() {
        for payload in [Value::Null, json!({})] {
            let (part, message) = match kind {
                Envelope::Request => (
                    Part::Params,
                    json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": payload}),
                ),
                Envelope::Notification => (
                    Part::Params,
                    json!({"jsonrpc": "2.0", "method": method, "params": payload}),
                ),
                _ => (
                    Part::Result,
                    json!({"jsonrpc": "2.0", "id": 1, "result": payload}),
                ),
            };
            let target = Target {
                def: def.clone(),
                part,
                envelope: kind,
                method: Some(method.clone()),
                how: "probe",
            };
            counts.inputs += 1;
            let valid = schema.validity(&def, &payload);
            let strict = Strict {
                against_schema: true,
            };
            if let Err(why) = check(
                &schema,
                &defaults,
                &target,
                &message,
                valid,
                strict,
                &mut counts,
            ) {
                let case = format!("{}:{def}", if payload.is_null() { "null" } else { "{}" });
                counts.failures.record(case, &message, &why);
            }
        }
    }
    counts.print(PROBE);
    assert_clean(&counts);
}

/// The mutants of one message part: for every object member (at any depth) the part without
/// it, with `null`, and with a value of another type; for every array item, the item replaced
/// by a value of another type. Each comes with a case id `pointer:mutation`.
fn mutants(part: &Value) -> Vec<(String, Value)> {
    fn other_type(value: &Value) -> Value {
        if value.is_number() {
            json!("not a number")
        } else {
            json!(42)
        }
    }
    fn mutated(root: &Value, change: impl FnOnce(&mut Value)) -> Value {
        let mut mutant = root.clone();
        change(&mut mutant);
        mutant
    }
    fn replace(root: &Value, at: &str, replacement: Value) -> Value {
        mutated(root, |mutant| {
            if let Some(slot) = mutant.pointer_mut(at) {
                *slot = replacement;
            }
        })
    }
    fn walk(root: &Value, node: &Value, pointer: &mut String, out: &mut Vec<(String, Value)>) {
        match node {
            Value::Object(members) => {
                for (key, member) in members {
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                    let deleted = mutated(root, |mutant| {
                        if let Some(Value::Object(object)) = mutant.pointer_mut(&pointer[..len]) {
                            object.remove(key);
                        }
                    });
                    out.push((format!("{pointer}:deleted"), deleted));
                    out.push((
                        format!("{pointer}:null"),
                        replace(root, pointer, Value::Null),
                    ));
                    out.push((
                        format!("{pointer}:other type"),
                        replace(root, pointer, other_type(member)),
                    ));
                    walk(root, member, pointer, out);
                    pointer.truncate(len);
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&index.to_string());
                    out.push((
                        format!("{pointer}:other type"),
                        replace(root, pointer, other_type(item)),
                    ));
                    walk(root, item, pointer, out);
                    pointer.truncate(len);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(part, part, &mut String::new(), &mut out);
    out
}

/// Every mutant (see [`mutants`]) of every schema-valid message of the docs and traffic corpora,
/// checked like the generated corpus: official accepts ⇒ we accept, re-encodings agree,
/// schema-valid ⇒ exact round trip with an empty report, schema-invalid and decoded ⇒ a
/// non-empty report.
#[test]
fn corpus_mutants_agree_with_the_official_crate() {
    let schema = Schema::load();
    let defaults = schema.declared_defaults();
    for corpus in [support::DOCS, support::TRAFFIC] {
        let Some(lines) = support::load(corpus) else {
            continue;
        };
        let mut counts = Counts::new(MUTANTS, corpus);
        let mut pending = support::Pending::default();
        for line in &lines {
            let verdict = schema.classify(&line.value, &mut pending);
            let (Some(target), Ok(())) = (&verdict.target, &verdict.valid) else {
                continue;
            };
            let part = target.part.of(&line.value);
            for (case, mutant) in mutants(&part) {
                counts.inputs += 1;
                let mut message = mutant.clone();
                if target.part != Part::Whole {
                    message = line.value.clone();
                    message[&target.part.pointer()[1..]] = mutant.clone();
                }
                let valid = schema.validity(&target.def, &mutant);
                let strict = Strict {
                    against_schema: true,
                };
                if let Err(why) = check(
                    &schema,
                    &defaults,
                    target,
                    &message,
                    valid,
                    strict,
                    &mut counts,
                ) {
                    let why = format!("(`{}`) {why}", target.def);
                    counts.failures.record(
                        format!("{}{}{case}", line.no, target.part.pointer()),
                        &message,
                        &why,
                    );
                }
            }
        }
        counts.print(&format!("mutants of {corpus}"));
        assert_clean(&counts);
    }
}

// ---------------------------------------------------------------------------------------------
// The generated corpus.

/// A member: absent (`None`), `null`, a valid value or an invalid one.
fn member(
    valid: BoxedStrategy<Value>,
    invalid: BoxedStrategy<Value>,
) -> BoxedStrategy<Option<Value>> {
    prop_oneof![
        3 => Just(None),
        1 => Just(Some(Value::Null)),
        5 => valid.prop_map(Some),
        1 => invalid.prop_map(Some),
    ]
    .boxed()
}

/// A required member: nearly always valid.
fn required(
    valid: BoxedStrategy<Value>,
    invalid: BoxedStrategy<Value>,
) -> BoxedStrategy<Option<Value>> {
    prop_oneof![30 => valid.prop_map(Some), 1 => invalid.prop_map(Some), 1 => Just(None)].boxed()
}

/// A constant member.
fn constant(value: Value) -> BoxedStrategy<Option<Value>> {
    Just(Some(value)).boxed()
}

/// An object of the given members (absent ones left out).
fn object(members: Vec<(&'static str, BoxedStrategy<Option<Value>>)>) -> BoxedStrategy<Value> {
    let (keys, strategies): (Vec<_>, Vec<_>) = members.into_iter().unzip();
    // 1 in 4: the first member (a union's tag, where there is one) is written last instead, so
    // that decoders cannot rely on the tag coming first. 1 in 8: an undeclared member is added.
    let shapes = (prop::bool::weighted(0.25), prop::bool::weighted(0.125));
    (strategies, shapes)
        .prop_map(move |(values, (first_last, undeclared))| {
            let mut members: Vec<(String, Value)> = keys
                .iter()
                .zip(values)
                .filter_map(|(key, value)| value.map(|value| ((*key).to_owned(), value)))
                .collect();
            if first_last && !members.is_empty() {
                members.rotate_left(1);
            }
            if undeclared {
                members.push(("x-undeclared".to_owned(), json!({"kept": [1, null]})));
            }
            Value::Object(members.into_iter().collect())
        })
        .boxed()
}

fn one_of(values: &[Value]) -> BoxedStrategy<Value> {
    prop::sample::select(values.to_vec()).boxed()
}

fn text() -> BoxedStrategy<Value> {
    one_of(&[
        json!(""),
        json!("Read file"),
        json!("ls -la"),
        json!("é ✓ \u{1F600}"),
    ])
}

fn id() -> BoxedStrategy<Value> {
    one_of(&[json!("call_1"), json!("toolu_01ABC"), json!("tc-003")])
}

fn not_a_string() -> BoxedStrategy<Value> {
    one_of(&[json!(42), json!(true), json!({}), json!([])])
}

fn meta() -> BoxedStrategy<Option<Value>> {
    member(
        one_of(&[json!({}), json!({"trace": "abc", "n": 1})]),
        one_of(&[json!("meta"), json!(1)]),
    )
}

fn tool_kind() -> BoxedStrategy<Option<Value>> {
    member(
        one_of(&[
            json!("read"),
            json!("edit"),
            json!("delete"),
            json!("move"),
            json!("search"),
            json!("execute"),
            json!("think"),
            json!("fetch"),
            json!("switch_mode"),
            json!("other"),
        ]),
        one_of(&[json!("tool"), json!("write"), json!(7)]),
    )
}

fn tool_status() -> BoxedStrategy<Option<Value>> {
    member(
        one_of(&[
            json!("pending"),
            json!("in_progress"),
            json!("completed"),
            json!("failed"),
        ]),
        one_of(&[json!("paused"), json!("cancelled"), json!(false)]),
    )
}

fn annotations() -> BoxedStrategy<Value> {
    object(vec![
        (
            "audience",
            member(
                prop::collection::vec(
                    one_of(&[json!("user"), json!("assistant"), json!("robot")]),
                    0..3,
                )
                .prop_map(Value::Array)
                .boxed(),
                not_a_string(),
            ),
        ),
        (
            "priority",
            member(
                one_of(&[json!(0.5), json!(1), json!(0)]),
                one_of(&[json!("high")]),
            ),
        ),
        (
            "lastModified",
            member(one_of(&[json!("2025-01-01T00:00:00Z")]), not_a_string()),
        ),
    ])
}

fn content_block() -> BoxedStrategy<Value> {
    let annotated = || member(annotations(), one_of(&[json!("loud"), json!(3)]));
    prop_oneof![
        object(vec![
            ("type", constant(json!("text"))),
            ("text", required(text(), not_a_string())),
            ("annotations", annotated()),
            ("_meta", meta()),
        ]),
        object(vec![
            ("type", constant(json!("image"))),
            (
                "data",
                required(one_of(&[json!("iVBORw0KGgo=")]), not_a_string())
            ),
            (
                "mimeType",
                required(one_of(&[json!("image/png")]), not_a_string())
            ),
            (
                "uri",
                member(one_of(&[json!("file:///a.png")]), not_a_string())
            ),
            ("annotations", annotated()),
        ]),
        object(vec![
            ("type", constant(json!("audio"))),
            (
                "data",
                required(one_of(&[json!("UklGRg==")]), not_a_string())
            ),
            (
                "mimeType",
                required(one_of(&[json!("audio/wav")]), not_a_string())
            ),
        ]),
        object(vec![
            ("type", constant(json!("resource_link"))),
            (
                "uri",
                required(one_of(&[json!("file:///doc.pdf")]), not_a_string())
            ),
            (
                "name",
                required(one_of(&[json!("doc.pdf")]), not_a_string())
            ),
            (
                "mimeType",
                member(one_of(&[json!("application/pdf")]), not_a_string())
            ),
            (
                "size",
                member(
                    one_of(&[json!(0), json!(1_024_000)]),
                    one_of(&[json!("big"), json!(1.5)])
                )
            ),
            ("title", member(text(), not_a_string())),
            ("description", member(text(), not_a_string())),
        ]),
        object(vec![
            ("type", constant(json!("resource"))),
            (
                "resource",
                required(
                    prop_oneof![
                        object(vec![
                            ("uri", constant(json!("file:///a.py"))),
                            ("text", required(text(), not_a_string())),
                            (
                                "mimeType",
                                member(one_of(&[json!("text/x-python")]), not_a_string())
                            ),
                        ]),
                        object(vec![
                            ("uri", constant(json!("file:///a.bin"))),
                            ("blob", required(one_of(&[json!("AAEC")]), not_a_string())),
                            (
                                "mimeType",
                                member(
                                    one_of(&[json!("application/octet-stream")]),
                                    not_a_string()
                                )
                            ),
                        ]),
                    ]
                    .boxed(),
                    one_of(&[json!({"uri": "file:///x"}), json!("x")]),
                ),
            ),
        ]),
    ]
    .boxed()
}

/// A `ToolCallContent` item, valid or (1 in 6) invalid.
fn tool_call_content() -> BoxedStrategy<Value> {
    prop_oneof![
        2 => object(vec![("type", constant(json!("content"))), ("content", required(content_block(), one_of(&[json!({"text": "no type"})])))]),
        2 => object(vec![
            ("type", constant(json!("diff"))),
            ("path", required(one_of(&[json!("/home/user/a.rs")]), not_a_string())),
            ("oldText", member(text(), not_a_string())),
            ("newText", required(text(), not_a_string())),
        ]),
        1 => object(vec![("type", constant(json!("terminal"))), ("terminalId", required(one_of(&[json!("term_1")]), not_a_string()))]),
        1 => object(vec![("type", constant(json!("session"))), ("sessionId", required(one_of(&[json!("sess_child")]), not_a_string()))]),
        1 => one_of(&[
            json!({"type": "text", "text": "a bare content block"}),
            json!({"type": "image_diff"}),
            json!({"path": "/no/type"}),
            json!("a string"),
            json!(null),
        ]),
    ]
    .boxed()
}

fn location() -> BoxedStrategy<Value> {
    prop_oneof![
        4 => object(vec![
            ("path", required(one_of(&[json!("/home/user/a.rs"), json!("src/lib.rs")]), not_a_string())),
            ("line", member(one_of(&[json!(0), json!(42)]), one_of(&[json!(-1), json!("7"), json!(1.5)]))),
            ("_meta", meta()),
        ]),
        1 => one_of(&[json!({"line": 3}), json!(5)]),
    ]
    .boxed()
}

fn any_json() -> BoxedStrategy<Value> {
    one_of(&[
        json!({}),
        json!({"command": "ls", "args": ["-la"]}),
        json!("plain output"),
        json!([1, "two", null]),
        json!(0),
    ])
}

fn items(item: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    prop::collection::vec(item, 0..4)
        .prop_map(Value::Array)
        .boxed()
}

/// `ToolCall` (with `"sessionUpdate": "tool_call"` when `tag`) members.
fn tool_call_members(update: bool) -> Vec<(&'static str, BoxedStrategy<Option<Value>>)> {
    vec![
        ("toolCallId", required(id(), not_a_string())),
        (
            "title",
            if update {
                member(text(), not_a_string())
            } else {
                required(text(), not_a_string())
            },
        ),
        (
            "name",
            member(one_of(&[json!("Bash"), json!("read_file")]), not_a_string()),
        ),
        ("kind", tool_kind()),
        ("status", tool_status()),
        (
            "content",
            member(items(tool_call_content()), one_of(&[json!("x"), json!({})])),
        ),
        (
            "locations",
            member(items(location()), one_of(&[json!("x"), json!(1)])),
        ),
        ("rawInput", member(any_json(), Just(json!(null)).boxed())),
        ("rawOutput", member(any_json(), Just(json!(null)).boxed())),
        ("_meta", meta()),
    ]
}

fn tool_call_update() -> BoxedStrategy<Value> {
    object(tool_call_members(true))
}

fn session_update() -> BoxedStrategy<Value> {
    let tagged = |tag: &'static str,
                  mut members: Vec<(&'static str, BoxedStrategy<Option<Value>>)>| {
        members.insert(0, ("sessionUpdate", constant(json!(tag))));
        object(members)
    };
    let chunk = || {
        vec![
            (
                "content",
                required(
                    content_block(),
                    one_of(&[json!({"text": "no type"}), json!("x")]),
                ),
            ),
            (
                "messageId",
                member(one_of(&[json!("msg_1")]), not_a_string()),
            ),
            ("_meta", meta()),
        ]
    };
    prop_oneof![
        4 => tagged("tool_call", tool_call_members(false)),
        4 => tagged("tool_call_update", tool_call_members(true)),
        1 => tagged("agent_message_chunk", chunk()),
        1 => tagged("user_message_chunk", chunk()),
        1 => tagged("agent_thought_chunk", chunk()),
        1 => one_of(&[
            json!({"sessionUpdate": "future_update", "someField": 1}),
            json!({"sessionUpdate": "tool_call_content_chunk", "toolCallId": "call_1", "content": {"type": "text", "text": "x"}}),
        ]),
    ]
    .boxed()
}

/// One generated input: the definition to check it against and the JSON.
#[derive(Debug, Clone)]
enum Generated {
    /// A JSON-RPC message (classified like the corpora).
    Message(Value),
    /// A bare `ToolCallUpdate`.
    ToolCallUpdate(Value),
}

fn generated() -> BoxedStrategy<Generated> {
    let notification = object(vec![
        (
            "sessionId",
            required(one_of(&[json!("sess_abc123")]), not_a_string()),
        ),
        ("update", constant(Value::Null)),
        ("_meta", meta()),
    ]);
    let notification = (notification, session_update())
        .prop_map(|(mut params, update)| {
            params["update"] = update;
            json!({"jsonrpc": "2.0", "method": "session/update", "params": params})
        })
        .boxed();
    let option = object(vec![
        (
            "optionId",
            required(
                one_of(&[json!("allow-once"), json!("reject")]),
                not_a_string(),
            ),
        ),
        (
            "name",
            required(one_of(&[json!("Allow once")]), not_a_string()),
        ),
        (
            "kind",
            required(
                one_of(&[
                    json!("allow_once"),
                    json!("allow_always"),
                    json!("reject_once"),
                    json!("reject_always"),
                ]),
                one_of(&[json!("maybe")]),
            ),
        ),
        ("_meta", meta()),
    ]);
    let permission = object(vec![
        ("sessionId", required(one_of(&[json!("sess_abc123")]), not_a_string())),
        ("toolCall", required(tool_call_update(), one_of(&[json!({"title": "no id"})]))),
        ("options", required(items(option), one_of(&[json!({})]))),
        ("_meta", meta()),
    ])
    .prop_map(|params| json!({"jsonrpc": "2.0", "id": 7, "method": "session/request_permission", "params": params}))
    .boxed();
    prop_oneof![
        5 => notification.prop_map(Generated::Message),
        3 => permission.prop_map(Generated::Message),
        2 => tool_call_update().prop_map(Generated::ToolCallUpdate),
    ]
    .boxed()
}

#[test]
fn generated_corpus_agrees_with_the_official_crate() {
    let schema = Schema::load();
    let defaults = schema.declared_defaults();
    let counts = RefCell::new(Counts::new(GENERATED, GENERATED));
    let config = Config {
        cases: 256,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::ChaCha,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let result = runner.run(&generated(), |input| {
        let mut counts = counts.borrow_mut();
        counts.inputs += 1;
        let (target, message, valid) = match &input {
            Generated::Message(message) => {
                let verdict = schema.classify(message, &mut support::Pending::default());
                let target = verdict
                    .target
                    .expect("a generated message has a definition");
                let validity = match verdict.valid {
                    Ok(()) => schema.validity(&target.def, &target.part.of(message)),
                    Err(_) => Validity::Invalid,
                };
                (target, message, validity)
            }
            Generated::ToolCallUpdate(value) => {
                let target = Target {
                    def: "ToolCallUpdate".to_owned(),
                    part: Part::Whole,
                    envelope: Envelope::Fragment,
                    method: None,
                    how: "generated",
                };
                (target, value, schema.validity("ToolCallUpdate", value))
            }
        };
        let strict = Strict {
            against_schema: true,
        };
        check(
            &schema,
            &defaults,
            &target,
            message,
            valid,
            strict,
            &mut counts,
        )
        .map_err(|why| {
            TestCaseError::fail(format!("`{}`: {why}\n    input: {message}", target.def))
        })
    });
    counts.borrow().print("generated");
    match result {
        Ok(()) => {}
        Err(TestError::Fail(why, input)) => panic!("minimal failing input {input:?}:\n{why}"),
        Err(TestError::Abort(why)) => panic!("aborted: {why}"),
    }
    let counts = counts.into_inner();
    assert_eq!(counts.official_only, 0);
    assert!(counts.both > 0 && counts.ours_only > 0 && counts.schema_valid > 0);
}
