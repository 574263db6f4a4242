//! Issue 15, live traffic between the official SDKs: in ACP both sides send requests and each
//! numbers its own, so ids repeat across the two directions; pairing a response with the latest
//! request of the same `id` pairs a client's answer to the agent's request `3` with the client's
//! own request `3` (five valid `session/prompt` results were called schema-invalid that way).
//! `toolcall validate` pairs by `id` and direction.
//!
//! `tests/fixtures/transcripts/acp_same_ids.ndjson` is a session where both sides' ids overlap
//! while requests are pending, in both orders (see the README beside it). Wrapped with their
//! sender, every line pairs exactly and is `ok`; bare, the checker infers each request's sender
//! from its method, and says so where a response's `id` is pending in both directions.

use serde_json::Value;
use toolcall_traffic::{Checker, Kind, Side, Status, Transcript, Verdict};

const FIXTURE: &str = "tests/fixtures/transcripts/acp_same_ids.ndjson";

fn wrapped() -> Vec<Value> {
    std::fs::read_to_string(toolcall_test_support::fixture(FIXTURE))
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

fn ndjson(lines: &[Value]) -> String {
    lines.iter().map(|line| format!("{line}\n")).collect()
}

fn kinds(verdicts: &[&Verdict]) -> Vec<String> {
    verdicts.iter().map(|v| v.kind.to_string()).collect()
}

#[test]
fn wrapped_lines_pair_exactly() -> Result<(), Box<dyn std::error::Error>> {
    let checker = Checker::new()?;
    let checked = checker.check_input(ndjson(&wrapped()).as_bytes());
    let verdicts: Vec<&Verdict> = checked.iter().map(|c| &c.verdict).collect();
    for (index, verdict) in verdicts.iter().enumerate() {
        assert_eq!(
            verdict.status,
            Status::Ok,
            "line {}: {verdict:?}",
            index + 1
        );
    }
    let kinds = kinds(&verdicts);
    // Lines 12, 13: the client answers the agent's request 2, then the agent the client's.
    assert_eq!(kinds[11], "response to session/request_permission");
    assert_eq!(kinds[12], "response to session/prompt");
    // Lines 18, 19: the client's `session/set_mode` 4 is the later request; its answer comes
    // second.
    assert_eq!(kinds[17], "response to fs/write_text_file");
    assert_eq!(kinds[18], "response to session/set_mode");
    assert_eq!(kinds[19], "response to session/request_permission");
    assert_eq!(kinds[20], "response to session/prompt");
    assert_eq!(verdicts[11].from, Some(Side::Client));
    assert_eq!(verdicts[12].from, Some(Side::Agent));

    // A caller that knows the direction (a tap) gets the same verdicts with `check_from`.
    let mut transcript = Transcript::default();
    for (line, expected) in wrapped().iter().zip(&verdicts) {
        let from = match line["from"].as_str() {
            Some("client") => Side::Client,
            _ => Side::Agent,
        };
        let verdict = checker.check_from(
            &mut transcript,
            from,
            line["message"].to_string().as_bytes(),
        );
        assert_eq!(&&verdict, expected);
    }
    Ok(())
}

#[test]
fn bare_lines_say_where_the_pairing_is_ambiguous() -> Result<(), Box<dyn std::error::Error>> {
    let checked = Checker::new()?.check_input(ndjson(&bare()).as_bytes());
    let verdicts: Vec<&Verdict> = checked.iter().map(|c| &c.verdict).collect();
    let ambiguous = [11, 12, 17, 18, 19, 20];
    for (index, verdict) in verdicts.iter().enumerate() {
        assert_eq!(verdict.from, None);
        if !ambiguous.contains(&index) {
            assert_eq!(
                verdict.status,
                Status::Ok,
                "line {}: {verdict:?}",
                index + 1
            );
        }
    }
    assert_eq!(
        verdicts[11].kind,
        Kind::AmbiguousResponse {
            methods: vec![
                "session/prompt".to_owned(),
                "session/request_permission".to_owned()
            ],
            error: false
        }
    );
    // Valid as the answer to one of the two only: unchecked, naming both.
    for index in [11, 12, 19, 20] {
        let Status::Unchecked { pointer, message } = &verdicts[index].status else {
            panic!("line {}: {:?}", index + 1, verdicts[index]);
        };
        assert_eq!(pointer, "/result");
        assert!(
            message.contains("pending in both directions")
                && message.contains("`session/prompt`")
                && message.contains("`session/request_permission`"),
            "{message}"
        );
    }
    // `{}` is a valid answer to either request: ok, and the kind still says it is not paired.
    for index in [17, 18] {
        assert_eq!(verdicts[index].status, Status::Ok);
        assert_eq!(
            verdicts[index].kind.to_string(),
            "response to fs/write_text_file or session/set_mode (direction unknown)"
        );
    }
    Ok(())
}
