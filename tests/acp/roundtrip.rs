//! Round trip of the shared ACP corpora through the generated types: every schema-valid message
//! decodes into the generated type of its definition with an empty leniency report, and encodes
//! back to the same JSON value (member order aside; numbers compared by value, see
//! `support::same_number`).
//!
//! Corpora: `../shared/acp-examples/docs-v1.ndjson` (documentation examples) and
//! `../shared/acp-traffic/messages.ndjson` (232 real and third-party messages). How a message's
//! definition is chosen and what "schema-valid" means is documented in `tests/support/mod.rs`.
//! A second check decodes whole JSON-RPC messages with the generated envelope types
//! (`ClientRequest`, `AgentNotification`, `AgentResponse`, ...).
//!
//! Failures listed in [`KNOWN_BUGS`] are bugs in the generated types, reported to the owner of
//! `codegen/`; each listed case is asserted to still fail, so a fix shows up as a test failure
//! asking to remove the entry.

use crate::support;

use std::collections::BTreeMap;

use serde_json::{json, Value};
use support::{Classified, Envelope, Failures, Line, Schema, Side, Target};
use toolcall_contracts::{acp, decode};

/// Known failures of the checks `ROUND_TRIP` and `ENVELOPE` (see [`support::KnownBug`]).
///
/// Empty since commit b7e6def fixed the two bugs this test found: undeclared members were
/// dropped silently (docs:24/76, traffic:143), and the envelope `params`/`result` unions took the
/// first matching shape (`session/prompt` params decoded as `LogoutRequest`). Their minimal
/// inputs are kept in [`fixed_bugs_stay_fixed`].
const KNOWN_BUGS: &[support::KnownBug] = &[];

/// Decode of the part into its definition's type, then encode ([`round_trip`]).
const ROUND_TRIP: &str = "round trip";
/// Decode of the whole message into an envelope type, then encode ([`envelope`]).
const ENVELOPE: &str = "envelope";

/// Checks one schema-valid message: decode, empty report, re-encode equal to the input part.
fn round_trip(line: &Line, target: &Target) -> Result<(), String> {
    let part = target.part.of(&line.value);
    let json = serde_json::to_vec(&part).expect("a value encodes");
    let ours = support::decode_ours(&target.def, &json)
        .ok_or_else(|| format!("no generated type is mapped for `{}`", target.def))?
        .map_err(|error| format!("decode as `{}` failed: {error}", target.def))?;
    let leniency = ours.leniency_on_valid();
    if !leniency.is_empty() {
        return Err(format!(
            "schema-valid, yet decoding as `{}` reported leniency: {}",
            target.def,
            support::render_report(&ours.report, target.part.pointer())
        ));
    }
    match support::first_difference(&part, &ours.encoded, target.part.pointer()) {
        None => Ok(()),
        Some(difference) => Err(format!(
            "re-encoding as `{}` differs (input vs ours) at {difference}",
            target.def
        )),
    }
}

/// Counts printed per corpus.
struct Counts {
    lines: usize,
    checked: usize,
    round_tripped: usize,
    numbers_by_value: usize,
    skipped: BTreeMap<String, Vec<usize>>,
    by_how: BTreeMap<&'static str, usize>,
    failures: Failures,
}

impl Counts {
    fn print(&self, name: &str) {
        println!(
            "{name}: {} lines, {} schema-valid and checked, {} round-tripped ({} only with numbers \
             compared by value), {} failed ({} known bugs), {} skipped",
            self.lines,
            self.checked,
            self.round_tripped,
            self.numbers_by_value,
            self.failures.len(),
            self.failures.known.len(),
            self.skipped.values().map(Vec::len).sum::<usize>()
        );
        for (how, count) in &self.by_how {
            println!("  checked, definition chosen by {how}: {count}");
        }
        for (reason, lines) in &self.skipped {
            println!("  skipped, {reason}: {} (lines {lines:?})", lines.len());
        }
        self.failures.print();
    }
}

/// The head of a skip reason (before the details), to group skips.
fn reason_head(reason: &str) -> String {
    reason.split(':').next().unwrap_or(reason).to_owned()
}

/// Runs the round trip over every schema-valid line; returns the counts and each line's verdict.
fn run(corpus: &'static str, schema: &Schema, lines: &[Line]) -> (Counts, Vec<Classified>) {
    let mut counts = Counts {
        lines: lines.len(),
        checked: 0,
        round_tripped: 0,
        numbers_by_value: 0,
        skipped: BTreeMap::new(),
        by_how: BTreeMap::new(),
        failures: Failures::new(KNOWN_BUGS, ROUND_TRIP, corpus),
    };
    let mut pending = support::Pending::default();
    let mut verdicts = Vec::new();
    for line in lines {
        let classified = schema.classify(&line.value, &mut pending);
        match (&classified.target, &classified.valid) {
            (Some(target), Ok(())) => {
                counts.checked += 1;
                *counts.by_how.entry(target.how).or_default() += 1;
                match round_trip(line, target) {
                    Ok(()) => {
                        counts.round_tripped += 1;
                        let part = target.part.of(&line.value);
                        let json = serde_json::to_vec(&part).expect("a value encodes");
                        let encoded = support::decode_ours(&target.def, &json)
                            .and_then(Result::ok)
                            .map(|ours| ours.encoded);
                        if encoded.as_ref() != Some(&part) {
                            counts.numbers_by_value += 1;
                        }
                    }
                    Err(why) => counts.failures.record(line.no, &line.value, &why),
                }
            }
            (_, Err(reason)) if reason.starts_with("ambiguous pairing") => counts
                .skipped
                .entry("not paired (its `id` is pending in both directions)".to_owned())
                .or_default()
                .push(line.no),
            (_, Err(reason)) => counts
                .skipped
                .entry(format!("not schema-valid ({})", reason_head(reason)))
                .or_default()
                .push(line.no),
            (None, Ok(())) => unreachable!("a valid message always has a target"),
        }
        verdicts.push(classified);
    }
    (counts, verdicts)
}

#[test]
fn every_method_definition_has_a_generated_type_in_the_table() {
    let schema = Schema::load();
    let missing: Vec<_> = schema
        .method_defs()
        .into_iter()
        .filter(|def| !support::DEF_NAMES.contains(&def.as_str()))
        .collect();
    assert!(missing.is_empty(), "add to `with_def_names!`: {missing:?}");
}

#[test]
fn docs_examples_round_trip() {
    let Some(lines) = support::load(support::DOCS) else {
        return;
    };
    let schema = Schema::load();
    let (counts, _) = run(support::DOCS, &schema, &lines);
    counts.print("docs-v1");
    assert!(counts.checked > 0, "nothing was checked");
    counts.failures.assert();
}

#[test]
fn traffic_round_trips() {
    let Some(lines) = support::load(support::TRAFFIC) else {
        return;
    };
    let schema = Schema::load();
    let (counts, verdicts) = run(support::TRAFFIC, &schema, &lines);
    counts.print("traffic");

    // The provenance's `schema_valid` was computed against the stable schema of the docs
    // repository at an older commit; ours is the 1.20.0 export. Every message it calls valid
    // must be valid here too; the ones only the newer schema accepts are printed.
    let mut provenance_disagrees = Vec::new();
    if let Some(provenance) = support::load(support::TRAFFIC_PROVENANCE) {
        assert_eq!(
            provenance.len(),
            lines.len(),
            "one provenance line per message"
        );
        let mut newer_only = Vec::new();
        for ((line, verdict), record) in lines.iter().zip(&verdicts).zip(&provenance) {
            let theirs = record.value["schema_valid"]
                .as_bool()
                .expect("schema_valid is a bool");
            match (theirs, verdict.valid.is_ok()) {
                (true, false) => provenance_disagrees.push(format!(
                    "traffic:{}: provenance says schema-valid; here: {:?}",
                    line.no, verdict.valid
                )),
                (false, true) => newer_only.push(line.no),
                _ => {}
            }
        }
        println!(
            "  valid against the 1.20.0 schema but not the provenance's older one: {} (lines {newer_only:?})",
            newer_only.len()
        );
    }

    // The schema-invalid rest: decoded with the method's definition anyway, to see the leniency
    // applied. None may decode silently.
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let (mut with_report, mut rejected, mut silent) = (0, 0, Vec::new());
    for (line, verdict) in lines.iter().zip(&verdicts) {
        let (Some(target), Err(reason)) = (&verdict.target, &verdict.valid) else {
            continue;
        };
        let part = target.part.of(&line.value);
        let json = serde_json::to_vec(&part).expect("a value encodes");
        match support::decode_ours(&target.def, &json).expect("the target type is mapped") {
            Ok(ours) if !ours.report.is_empty() => {
                with_report += 1;
                for leniency in &ours.report {
                    *kinds.entry(leniency.kind.to_string()).or_default() += 1;
                }
                println!(
                    "  traffic:{}: schema-invalid, decoded as `{}` with report [{}]",
                    line.no,
                    target.def,
                    support::render_report(&ours.report, target.part.pointer())
                );
            }
            Ok(_) => silent.push(format!(
                "traffic:{}: schema-invalid ({reason}) yet decoded as `{}` with an empty report",
                line.no, target.def
            )),
            Err(error) => {
                rejected += 1;
                println!(
                    "  traffic:{}: schema-invalid, rejected as `{}`: {error}",
                    line.no, target.def
                );
            }
        }
    }
    println!(
        "traffic, schema-invalid: {with_report} decoded with a report (leniency kinds {kinds:?}), \
         {rejected} rejected, {} decoded silently",
        silent.len()
    );

    assert!(counts.checked > 0, "nothing was checked");
    counts.failures.assert();
    assert!(
        provenance_disagrees.is_empty(),
        "{}",
        provenance_disagrees.join("\n")
    );
    assert!(
        silent.is_empty(),
        "a schema-invalid message must fail to decode or be reported:\n{}",
        silent.join("\n")
    );
}

/// Decodes a whole message (less `jsonrpc`) as envelope type `T`, requires an empty report and
/// returns the re-encoding.
fn envelope<T: serde::de::DeserializeOwned + serde::Serialize>(
    json: &[u8],
) -> Result<Value, String> {
    let decoded = decode::<T>(json).map_err(|error| format!("decode failed: {error}"))?;
    if !decoded.report.is_empty() {
        return Err(format!(
            "schema-valid, yet reported leniency: {}",
            support::render_report(&decoded.report, "")
        ));
    }
    Ok(serde_json::to_value(&decoded.value).expect("a decoded value encodes"))
}

/// The JSON-RPC envelope types round-trip a whole schema-valid message (less `jsonrpc`, which
/// they do not model). The type is chosen by the method's `x-side`: a method the agent handles
/// arrives in a `ClientRequest`/`ClientNotification` and is answered by an `AgentResponse`.
#[test]
fn envelope_types_round_trip() {
    let schema = Schema::load();
    for corpus in [support::DOCS, support::TRAFFIC] {
        let Some(lines) = support::load(corpus) else {
            continue;
        };
        let (mut checked, mut passed) = (0, 0);
        let mut failures = Failures::new(KNOWN_BUGS, ENVELOPE, corpus);
        let mut pending = support::Pending::default();
        for line in &lines {
            let verdict = schema.classify(&line.value, &mut pending);
            let (Some(target), Ok(())) = (&verdict.target, &verdict.valid) else {
                continue;
            };
            let mut message = line.value.clone();
            let Some(object) = message.as_object_mut() else {
                continue;
            };
            if object.remove("jsonrpc").is_none() {
                continue;
            }
            let side = target
                .method
                .as_deref()
                .and_then(|method| schema.side(method));
            let json = serde_json::to_vec(&message).expect("a value encodes");
            let encoded = match (target.envelope, side) {
                (Envelope::Request, Some(Side::Agent)) => envelope::<acp::ClientRequest>(&json),
                (Envelope::Request, Some(Side::Client)) => envelope::<acp::AgentRequest>(&json),
                (Envelope::Notification, Some(Side::Agent)) => {
                    envelope::<acp::ClientNotification>(&json)
                }
                (Envelope::Notification, Some(Side::Client)) => {
                    envelope::<acp::AgentNotification>(&json)
                }
                (Envelope::Response, Some(Side::Agent)) => envelope::<acp::AgentResponse>(&json),
                (Envelope::Response, Some(Side::Client)) => envelope::<acp::ClientResponse>(&json),
                // Extension methods, unpaired responses and protocol-level notifications have
                // no side to choose an envelope type by.
                _ => continue,
            };
            checked += 1;
            let outcome = encoded.and_then(|encoded| {
                support::first_difference(&message, &encoded, "").map_or(Ok(()), |difference| {
                    Err(format!(
                        "re-encoding differs (input vs ours) at {difference}"
                    ))
                })
            });
            match outcome {
                Ok(()) => passed += 1,
                Err(why) => failures.record(line.no, &line.value, &why),
            }
        }
        println!(
            "envelope types over {corpus}: {checked} messages checked, {passed} round-tripped, \
             {} known bugs, {} unexpected failures",
            failures.known.len(),
            failures.unexpected.len()
        );
        failures.print();
        failures.assert();
    }
}

/// The minimal inputs of the bugs this test found, fixed in b7e6def.
#[test]
fn fixed_bugs_stay_fixed() {
    // Undeclared members were dropped with an empty report; the schema allows them.
    let input = json!({"toolCallId": "c", "title": "t", "extra": 1});
    let schema = Schema::load();
    assert!(schema.valid_against("ToolCall", &input));
    let decoded = decode::<acp::ToolCall>(input.to_string().as_bytes()).expect("decodes");
    assert!(decoded.report.is_empty());
    assert_eq!(
        serde_json::to_value(&decoded.value).expect("encodes"),
        input
    );

    // `session/prompt` params decoded as `LogoutRequest` (the first variant whose shape matched),
    // losing `sessionId` and `prompt`.
    let input =
        json!({"id": 1, "method": "session/prompt", "params": {"sessionId": "s", "prompt": []}});
    let decoded = decode::<acp::ClientRequest>(input.to_string().as_bytes()).expect("decodes");
    assert!(decoded.report.is_empty());
    assert!(matches!(
        decoded.value.params,
        toolcall_contracts::MaybeUndefined::Value(acp::ClientRequestParams::PromptRequest(_))
    ));
    assert_eq!(
        serde_json::to_value(&decoded.value).expect("encodes"),
        input
    );

    // A `session/prompt` result decoded as an all-optional response type, losing `stopReason`.
    let input = json!({"id": 1, "result": {"stopReason": "end_turn"}});
    let decoded = decode::<acp::AgentResponse>(input.to_string().as_bytes()).expect("decodes");
    assert!(decoded.report.is_empty());
    assert_eq!(
        serde_json::to_value(&decoded.value).expect("encodes"),
        input
    );
}
