//! Issue 15, live traffic between the official SDKs: `toolcall validate` called a `notice` whose
//! `severity` is `_vendor_debug` `lenient`, and the round-trip test called it a failure. ACP's
//! `NoticeSeverity` has a catch-all branch for such values ("Values beginning with `_` are
//! reserved for implementation-specific extensions"): the message is valid as it is and the
//! generated type keeps the value, so it is `ok`. `lenient` means accepted only by leniency the
//! schema declares (`x-deserialize-*`), such as an unknown `ToolKind` decoded as `other`.

use serde_json::{json, Value};
use toolcall_contracts::acp::{NoticeSeverity, SessionNotification};
use toolcall_contracts::{decode, Leniency, LeniencyKind};
use toolcall_traffic::{Checker, Status, Transcript};

fn notice(severity: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": "session/update", "params": {
        "sessionId": "s",
        "update": {"sessionUpdate": "notice", "severity": severity, "title": "Cache warmed"}
    }})
}

#[test]
fn a_value_a_catch_all_branch_accepts_is_ok_and_kept() -> Result<(), Box<dyn std::error::Error>> {
    let checker = Checker::new()?;
    for severity in ["_vendor_debug", "warning", "future_severity"] {
        let message = notice(severity);
        let verdict = checker.check(&mut Transcript::default(), message.to_string().as_bytes());
        assert_eq!(verdict.status, Status::Ok, "{severity}: {verdict:?}");
        assert_eq!(verdict.kind.to_string(), "session/update");
        assert!(
            verdict.report.is_empty(),
            "{severity}: {:?}",
            verdict.report
        );
    }

    // Kept: decoding and encoding give the value back.
    let params = notice("_vendor_debug")["params"].clone();
    let decoded = decode::<SessionNotification>(params.to_string().as_bytes())?;
    assert_eq!(serde_json::to_value(&decoded.value)?, params);
    // The decode report agrees: nothing to report (`toolcall validate` and the corpus tests also
    // drop such an entry themselves, should a decoder report one).
    assert_eq!(decoded.report, []);
    let severity = decode::<NoticeSeverity>(br#""_vendor_debug""#)?.value;
    assert_eq!(severity, NoticeSeverity::Other("_vendor_debug".to_owned()));
    Ok(())
}

#[test]
fn a_value_decoding_replaces_is_still_lenient() -> Result<(), Box<dyn std::error::Error>> {
    // `ToolKind` has no catch-all: the schema refuses `teleport`, and the member's declared
    // `x-deserialize-default-on-error` decodes it as `other`, which is leniency.
    let message = json!({"jsonrpc": "2.0", "method": "session/update", "params": {
        "sessionId": "s",
        "update": {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "t", "kind": "teleport"}
    }});
    let verdict = Checker::new()?.check(&mut Transcript::default(), message.to_string().as_bytes());
    assert_eq!(verdict.status, Status::Lenient);
    assert_eq!(
        verdict.report,
        [Leniency {
            pointer: "/params/update/kind".to_owned(),
            kind: LeniencyKind::UnknownValue,
            raw: json!("teleport"),
        }]
    );
    Ok(())
}
