//! A fresh-user probe: `locations[0].line` of `4294967296` or `2.0` was `invalid`, "the schema
//! accepts this but decoding applied leniency `defaulted` (schema and types disagree)", while
//! `-1` in the same member was `lenient`. The member is `{"type": ["integer", "null"],
//! "format": "uint32", "minimum": 0, "x-deserialize-default-on-error": true}`: `-1` is under
//! its `minimum`, `4294967296` past what its `format` holds, `2.0` not a `uint32` either (the
//! official crate's `u32` refuses it). The validator does not check a number's `format` (an
//! annotation in JSON Schema); the decode does, and defaults the member as the schema declares.
//! All three are leniency the schema declares: `lenient`, with the value in the report.

use serde_json::json;
use toolcall_contracts::{Leniency, LeniencyKind};
use toolcall_traffic::{Checker, Status, Transcript};

#[test]
fn a_number_past_its_format_is_lenient_where_the_member_defaults(
) -> Result<(), Box<dyn std::error::Error>> {
    let checker = Checker::new()?;
    let located = |line: serde_json::Value| {
        json!({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s",
            "update": {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "t",
                "locations": [{"path": "/a", "line": line}]}}})
        .to_string()
    };
    for raw in ["4294967296", "2.0", "-1"] {
        let message = located(json!(null)).replace("null", raw);
        let verdict = checker.check(&mut Transcript::default(), message.as_bytes());
        assert_eq!(verdict.status, Status::Lenient, "{raw}: {verdict:?}");
        let raw_value: serde_json::Value = serde_json::from_str(raw)?;
        assert_eq!(
            verdict.report,
            [Leniency {
                pointer: "/params/update/locations/0/line".to_owned(),
                kind: LeniencyKind::Defaulted,
                raw: raw_value,
            }],
            "{raw}"
        );
    }
    // In range: as it is.
    let verdict = checker.check(
        &mut Transcript::default(),
        located(json!(4_294_967_295_u32)).as_bytes(),
    );
    assert_eq!(verdict.status, Status::Ok, "{verdict:?}");
    // A string there is no number past a format: the schema refuses it, and the member's
    // leniency covers that too.
    let verdict = checker.check(&mut Transcript::default(), located(json!("7")).as_bytes());
    assert_eq!(verdict.status, Status::Lenient, "{verdict:?}");
    Ok(())
}
