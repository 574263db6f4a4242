//! Issue 15, live traffic between the official SDKs: in ACP both sides send requests and each
//! numbers its own, so ids repeat across the two directions; pairing a response with the latest
//! request of the same `id` pairs a client's answer to the agent's request `3` with the client's
//! own request `3` (five valid `session/prompt` results were called schema-invalid that way).
//! The corpus tests' support pairs by `id` and direction, as `toolcall validate` does (its own
//! regression test is in the `toolcall-traffic` package).
//!
//! `tests/fixtures/transcripts/acp_same_ids.ndjson` is a session where both sides' ids overlap
//! while requests are pending, in both orders (see the README beside it). Wrapped with their
//! sender, every line pairs exactly; bare, a response whose `id` is pending in both directions
//! is ambiguous.

use serde_json::Value;

use crate::support;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/transcripts/acp_same_ids.ndjson"
);

fn wrapped() -> Vec<Value> {
    std::fs::read_to_string(FIXTURE)
        .expect("the fixture is in the repository")
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect()
}

fn bare() -> Vec<Value> {
    wrapped()
        .iter()
        .map(|line| line["message"].clone())
        .collect()
}

#[test]
fn the_tests_support_pairs_by_id_and_direction_too() {
    let schema = support::Schema::load();
    let mut pending = support::Pending::default();
    let mut defs = Vec::new();
    for line in wrapped() {
        let (from, message) = support::unwrap_line(&line);
        assert!(from.is_some());
        let classified = schema.classify_from(&message, from, &mut pending);
        assert_eq!(classified.valid, Ok(()), "{message}");
        defs.push(classified.target.expect("a target").def);
    }
    assert_eq!(defs[11], "RequestPermissionResponse");
    assert_eq!(defs[12], "PromptResponse");
    assert_eq!(defs[17], "WriteTextFileResponse");
    assert_eq!(defs[18], "SetSessionModeResponse");
    assert_eq!(defs[20], "PromptResponse");

    let mut pending = support::Pending::default();
    let ambiguous: Vec<usize> = bare()
        .iter()
        .enumerate()
        .filter(|(_, message)| {
            schema
                .classify(message, &mut pending)
                .valid
                .is_err_and(|reason| reason.starts_with("ambiguous pairing"))
        })
        .map(|(index, _)| index)
        .collect();
    assert_eq!(ambiguous, [11, 12, 17, 18, 19, 20]);
}
