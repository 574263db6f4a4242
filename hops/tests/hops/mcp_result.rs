//! Canonical result ↔ MCP `CallToolResult`.

use serde_json::{json, Value};
use toolcall_contracts::canonical::{
    CanonicalToolError, CanonicalToolOutput, CanonicalToolResult, CanonicalToolResultOutcome,
    ToolLifecycleEvent, ToolRuntimeErrorCode, MAX_ERROR_MESSAGE_BYTES,
};
use toolcall_contracts::mcp::v2025_11_25::CallToolResult;
use toolcall_hops::mcp_result::{
    from_event, from_outcome, from_result, from_runtime_failure, to_outcome, McpResultError,
};

use super::support::report;

fn mcp(value: Value) -> CallToolResult {
    serde_json::from_value(value).expect("an MCP 2025-11-25 result")
}

fn json_success(value: Value) -> CanonicalToolResultOutcome {
    CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Json(value))
}

pub fn result(outcome: Value) -> CanonicalToolResult {
    serde_json::from_value(json!({
        "transaction_id": "0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f",
        "session_key": {"channel_id": "cli", "session_id": "s1"},
        "exchange_id": "0190b6a4-8e3d-7000-8000-000000000001",
        "tool_action_id": "a1",
        "tool_id": "everything/get-structured-content@1",
        "provider_tool_call_id": "10",
        "request_ordinal": 0,
        "outcome": outcome
    }))
    .expect("a canonical result")
}

#[test]
fn a_json_success_is_structured_content_with_its_text_fallback_and_back() {
    let outcome = json_success(json!({"rain": 2.0}));
    let converted = from_outcome::<CallToolResult>(&outcome).unwrap();
    assert_eq!(
        serde_json::to_value(&converted.value).unwrap(),
        json!({
            "content": [{"type": "text", "text": "{\"rain\":2.0}"}],
            "structuredContent": {"rain": 2.0}
        })
    );
    assert!(converted.report.is_empty());
    let back = to_outcome(&converted.value).unwrap();
    assert_eq!(back.value, outcome);
    assert!(back.report.is_empty());
}

#[test]
fn a_json_success_that_is_not_an_object_is_text_only_in_2025_11_25() {
    let outcome = json_success(json!([1, 2]));
    let converted = from_outcome::<CallToolResult>(&outcome).unwrap();
    assert_eq!(
        serde_json::to_value(&converted.value).unwrap(),
        json!({"content": [{"type": "text", "text": "[1,2]"}]})
    );
    assert_eq!(
        report(&converted.report),
        json!([{"kind": "dropped", "from": "/output/value", "value": [1, 2],
                "reason": "MCP `structuredContent` must be an object in this version: the value is carried by the text block alone"}])
    );
}

#[cfg(feature = "mcp-2026-07-28")]
#[test]
fn mcp_2026_07_28_carries_any_structured_value_and_says_the_result_is_complete() {
    use toolcall_contracts::mcp::v2026_07_28::CallToolResult as Result0728;
    let outcome = json_success(json!([1, 2]));
    let converted = from_outcome::<Result0728>(&outcome).unwrap();
    assert_eq!(
        serde_json::to_value(&converted.value).unwrap(),
        json!({"content": [{"type": "text", "text": "[1,2]"}], "structuredContent": [1, 2],
               "resultType": "complete"})
    );
    assert!(converted.report.is_empty());
    let back = to_outcome(&converted.value).unwrap();
    assert_eq!(back.value, outcome);
    assert!(back.report.is_empty());
}

#[test]
fn a_text_success_is_one_text_block_and_back() {
    let outcome =
        CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Text("Echo: hi\n".into()));
    let converted = from_outcome::<CallToolResult>(&outcome).unwrap();
    assert_eq!(
        serde_json::to_value(&converted.value).unwrap(),
        json!({"content": [{"type": "text", "text": "Echo: hi\n"}]})
    );
    assert_eq!(
        to_outcome(&converted.value).unwrap(),
        toolcall_hops::Converted::exact(outcome)
    );
}

#[test]
fn a_domain_failure_is_is_error_with_its_message_and_data_and_back() {
    let error = CanonicalToolError::try_new(
        "not_found",
        "no repository `acme/x`",
        Some(json!(null)),
        MAX_ERROR_MESSAGE_BYTES,
    )
    .unwrap();
    let outcome = CanonicalToolResultOutcome::DomainFailed(error);
    let converted = from_outcome::<CallToolResult>(&outcome).unwrap();
    assert_eq!(
        serde_json::to_value(&converted.value).unwrap(),
        json!({
            "content": [{"type": "text", "text": "no repository `acme/x`"}],
            "isError": true,
            "structuredContent": {"code": "not_found", "message": "no repository `acme/x`", "data": null}
        })
    );
    let back = to_outcome(&converted.value).unwrap();
    assert_eq!(back.value, outcome);
    assert!(back.report.is_empty());
}

#[test]
fn a_runtime_failure_is_a_tool_execution_error_not_a_json_rpc_error() {
    let converted =
        from_runtime_failure::<CallToolResult>(ToolRuntimeErrorCode::DeadlineExceeded).unwrap();
    assert_eq!(
        serde_json::to_value(&converted.value).unwrap(),
        json!({
            "content": [{"type": "text", "text": "the runtime could not complete the call: `deadline_exceeded`"}],
            "isError": true,
            "structuredContent": {"code": "deadline_exceeded",
                                  "message": "the runtime could not complete the call: `deadline_exceeded`"}
        })
    );
    let event: ToolLifecycleEvent = serde_json::from_value(json!({
        "type": "runtime_failed", "tool_action_id": "a1", "tool_id": "t", "code": "panicked"
    }))
    .unwrap();
    let converted = from_event::<CallToolResult>(&event).unwrap();
    assert_eq!(converted.value.is_error, Some(true));
    let from: Vec<_> = converted
        .report
        .iter()
        .map(|c| c.from.clone().unwrap())
        .collect();
    assert_eq!(from, ["/tool_action_id", "/tool_id"]);
    let started: ToolLifecycleEvent =
        serde_json::from_value(json!({"type": "started", "tool_action_id": "a1", "tool_id": "t"}))
            .unwrap();
    assert_eq!(
        from_event::<CallToolResult>(&started).unwrap_err(),
        McpResultError::NotTerminal
    );
}

#[test]
fn a_whole_result_reports_its_correlation_members() {
    let result = result(json!({"type": "succeeded", "output": {"type": "text", "text": "ok"}}));
    let converted = from_result::<CallToolResult>(&result).unwrap();
    let from: Vec<_> = converted
        .report
        .iter()
        .map(|c| c.from.clone().unwrap())
        .collect();
    assert_eq!(
        from,
        [
            "/transaction_id",
            "/session_key",
            "/exchange_id",
            "/tool_action_id",
            "/tool_id",
            "/provider_tool_call_id",
            "/request_ordinal"
        ]
    );
    assert_eq!(
        converted.report[1].value,
        json!({"channel_id": "cli", "session_id": "s1"})
    );
}

#[test]
fn recorded_results_convert_with_what_the_canonical_model_cannot_hold_reported() {
    // server-everything's answers (tests/fixtures/mcp/server-everything/transcript.ndjson).
    let structured = mcp(json!({
        "content": [{"type": "text", "text": "{\"temperature\":36,\"conditions\":\"Light rain / drizzle\",\"humidity\":82}"}],
        "structuredContent": {"temperature": 36, "conditions": "Light rain / drizzle", "humidity": 82}
    }));
    let outcome = to_outcome(&structured).unwrap();
    assert_eq!(
        outcome.value,
        json_success(
            json!({"temperature": 36, "conditions": "Light rain / drizzle", "humidity": 82})
        )
    );
    assert!(outcome.report.is_empty());

    let invalid = mcp(json!({
        "content": [{"type": "text", "text": "MCP error -32602: Input validation error: Invalid arguments for tool get-sum: Invalid input: expected number, received string at a"}],
        "isError": true
    }));
    let outcome = to_outcome(&invalid).unwrap();
    assert_eq!(
        serde_json::to_value(&outcome.value).unwrap(),
        json!({"type": "domain_failed", "error": {
            "code": "tool_error",
            "message": "MCP error -32602: Input validation error: Invalid arguments for tool get-sum: Invalid input: expected number, received string at a"
        }})
    );
    assert_eq!(
        report(&outcome.report),
        json!([{"kind": "defaulted", "to": "/error/code", "value": "tool_error",
                "reason": "an MCP error result names no code"}])
    );

    let annotated = mcp(json!({"content": [
        {"type": "text", "text": "Error: Operation failed", "annotations": {"audience": ["user"], "priority": 1}},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
    ]}));
    let outcome = to_outcome(&annotated).unwrap();
    assert_eq!(
        outcome.value,
        CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Text(
            "Error: Operation failed".into()
        ))
    );
    assert_eq!(
        report(&outcome.report),
        json!([
            {"kind": "dropped", "from": "/content/0/annotations",
             "value": {"audience": ["user"], "priority": 1},
             "reason": "the canonical output is the text alone"},
            {"kind": "dropped", "from": "/content/1",
             "value": {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
             "reason": "the canonical output holds text or JSON, not this content block"}
        ])
    );
}

#[test]
fn several_text_blocks_join_and_a_multi_line_error_message_becomes_one_line() {
    let two =
        mcp(json!({"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}));
    let outcome = to_outcome(&two).unwrap();
    assert_eq!(
        outcome.value,
        CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Text("a\nb".into()))
    );
    assert_eq!(outcome.report[0].to.as_deref(), Some("/output/text"));
    let failed =
        mcp(json!({"content": [{"type": "text", "text": "line 1\nline 2"}], "isError": true}));
    let outcome = to_outcome(&failed).unwrap();
    let CanonicalToolResultOutcome::DomainFailed(error) = &outcome.value else {
        panic!("a domain failure");
    };
    assert_eq!(error.message(), "line 1 line 2");
    assert_eq!(
        report(&outcome.report)[0],
        json!({"kind": "derived", "from": "/content", "to": "/error/message", "value": "line 1 line 2",
               "reason": "text blocks joined by a space, control characters replaced by spaces, at most 4096 bytes"})
    );
    let empty = mcp(json!({"content": [], "isError": true}));
    let outcome = to_outcome(&empty).unwrap();
    let CanonicalToolResultOutcome::DomainFailed(error) = &outcome.value else {
        panic!("a domain failure");
    };
    assert_eq!(error.message(), "the tool reported an error");
}

#[cfg(feature = "mcp-2025-06-18")]
#[test]
fn mcp_2025_06_18_results_convert_the_same_way() {
    use toolcall_contracts::mcp::v2025_06_18::CallToolResult as Result0618;
    let outcome = json_success(json!({"n": 1}));
    let converted = from_outcome::<Result0618>(&outcome).unwrap();
    assert_eq!(
        serde_json::to_value(&converted.value).unwrap(),
        json!({"content": [{"type": "text", "text": "{\"n\":1}"}], "structuredContent": {"n": 1}})
    );
    assert_eq!(to_outcome(&converted.value).unwrap().value, outcome);
}

fn outcome_of(result: Value) -> Result<(CanonicalToolResultOutcome, Value), McpResultError> {
    let converted =
        toolcall_hops::mcp_result::result_to_outcome(result.as_object().unwrap().clone())?;
    Ok((converted.value, report(&converted.report)))
}

#[test]
fn a_text_fallback_reports_what_the_json_does_not_carry() {
    // Annotations on the fallback, a number of its text written otherwise, a second fallback
    // block.
    let (outcome, changes) = outcome_of(json!({
        "content": [
            {"type": "text", "text": "{\"t\": 36.0}", "annotations": {"audience": ["user"]}},
            {"type": "text", "text": "{\"t\":36}"}
        ],
        "structuredContent": {"t": 36}
    }))
    .unwrap();
    assert_eq!(outcome, json_success(json!({"t": 36})));
    assert_eq!(
        changes,
        json!([
            {"kind": "dropped", "from": "/content/0/annotations", "value": {"audience": ["user"]},
             "reason": "the canonical output is the JSON alone, not the members of its text fallback"},
            {"kind": "dropped", "from": "/content/0/text", "value": "{\"t\": 36.0}",
             "reason": "the text fallback writes a number otherwise than the JSON of `structuredContent` is written (`2` for `2.0`, `1e2` for `100.0`): the canonical output keeps the JSON, whose text fallback is written from it"},
            {"kind": "dropped", "from": "/content/1", "value": {"type": "text", "text": "{\"t\":36}"},
             "reason": "the canonical output holds text or JSON, not this content block"}
        ])
    );
    // A domain failure's message block, twice: the second is reported.
    let (_, changes) = outcome_of(json!({
        "content": [{"type": "text", "text": "gone"}, {"type": "text", "text": "gone"}],
        "isError": true,
        "structuredContent": {"code": "not_found", "message": "gone"}
    }))
    .unwrap();
    assert_eq!(changes[0]["from"], "/content/1");
    assert_eq!(changes.as_array().map(Vec::len), Some(1));
}

/// server-everything's `get-structured-content` result: its text fallback has the members in
/// the server's order. Read with `structuredContent` as serde_json holds it without
/// `preserve_order` (members in name order) or with it (the server's order), the fallback is
/// the same JSON and nothing is reported: the fallback is told by value, not by its text.
#[test]
fn the_text_fallback_is_told_by_value_whatever_order_serde_json_keeps_members_in() {
    let text = "{\"temperature\":36,\"conditions\":\"Light rain / drizzle\",\"humidity\":82}";
    let served = json!({"temperature": 36, "conditions": "Light rain / drizzle", "humidity": 82});
    // The members in name order, as a build without `preserve_order` holds them.
    let mut by_name = serde_json::Map::new();
    for (member, value) in [
        ("conditions", json!("Light rain / drizzle")),
        ("humidity", json!(82)),
        ("temperature", json!(36)),
    ] {
        by_name.insert(member.to_owned(), value);
    }
    for structured in [served.clone(), Value::Object(by_name)] {
        let (outcome, changes) = outcome_of(json!({
            "content": [{"type": "text", "text": text}],
            "structuredContent": structured
        }))
        .unwrap();
        assert_eq!(outcome, json_success(served.clone()));
        assert_eq!(changes, json!([]));
    }
    // Whitespace is not meaning either.
    let (_, changes) = outcome_of(json!({
        "content": [{"type": "text", "text": "{ \"humidity\": 82,\n  \"temperature\": 36 }"}],
        "structuredContent": {"temperature": 36, "humidity": 82}
    }))
    .unwrap();
    assert_eq!(changes, json!([]));
    // Equal as JSON Schema compares numbers (`2` is `2.0`), written otherwise: the block is the
    // fallback, its text reported; so is a number serde_json writes otherwise (`1e2`).
    let reason = "the text fallback writes a number otherwise than the JSON of `structuredContent` is written (`2` for `2.0`, `1e2` for `100.0`): the canonical output keeps the JSON, whose text fallback is written from it";
    for (text, structured) in [
        ("{\"a\":2}", json!({"a": 2.0})),
        ("{\"a\":1e2}", json!({"a": 100.0})),
    ] {
        let (outcome, changes) = outcome_of(json!({
            "content": [{"type": "text", "text": text}],
            "structuredContent": structured
        }))
        .unwrap();
        assert_eq!(outcome, json_success(structured));
        assert_eq!(
            changes,
            json!([{"kind": "dropped", "from": "/content/0/text", "value": text, "reason": reason}])
        );
    }
}

#[test]
fn is_error_false_null_and_structured_null_are_reported_and_a_string_is_refused() {
    let text = json!([{"type": "text", "text": "ok"}]);
    let (outcome, changes) = outcome_of(json!({"content": text, "isError": false})).unwrap();
    assert_eq!(
        outcome,
        CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Text("ok".into()))
    );
    assert_eq!(
        changes,
        json!([{"kind": "dropped", "from": "/isError", "value": false,
                "reason": "`false` is MCP's default: the canonical success has no member for it"}])
    );
    let (_, changes) = outcome_of(json!({"content": text, "isError": null})).unwrap();
    assert_eq!(
        changes,
        json!([{"kind": "dropped", "from": "/isError", "value": null,
                "reason": "`null` is read as absent: the call succeeded"}])
    );
    let error = outcome_of(json!({"content": text, "isError": "true"})).unwrap_err();
    assert_eq!(error, McpResultError::IsError { found: "string" });
    assert_eq!(
        error.to_string(),
        "`/isError` must be a boolean, found string"
    );
    // `structuredContent: null` is the JSON `null` (MCP 2026-07-28 allows any value there).
    let (outcome, changes) = outcome_of(json!({
        "content": [{"type": "text", "text": "null"}], "structuredContent": null
    }))
    .unwrap();
    assert_eq!(outcome, json_success(Value::Null));
    assert_eq!(changes, json!([]));
    let error =
        outcome_of(json!({"resultType": "input_required", "requestState": "s"})).unwrap_err();
    assert_eq!(
        error.to_string(),
        "`/resultType` is `input_required`: the result does not end the call"
    );
}

#[test]
fn a_third_party_code_and_message_the_canonical_error_refuses_is_kept_as_data() {
    let structured = json!({"code": "E42", "message": "line 1\nline 2"});
    let (outcome, changes) = outcome_of(json!({
        "content": [{"type": "text", "text": "failed"}], "isError": true,
        "structuredContent": structured
    }))
    .unwrap();
    let CanonicalToolResultOutcome::DomainFailed(error) = &outcome else {
        panic!("a domain failure")
    };
    assert_eq!(error.code(), "tool_error");
    assert_eq!(error.message(), "failed");
    assert_eq!(error.data(), Some(&structured));
    assert_eq!(changes[0]["from"], "/structuredContent/message");
    assert_eq!(changes[0]["to"], "/error/data/message");
    assert_eq!(
        changes[0]["reason"],
        "not a canonical error `message` (`message` has a control character at byte 6): the structured content is read as the error's data"
    );
    assert_eq!(changes.as_array().map(Vec::len), Some(3));
    // A refused code names `/structuredContent/code`.
    let (_, changes) = outcome_of(json!({
        "content": [{"type": "text", "text": "failed"}], "isError": true,
        "structuredContent": {"code": "", "message": "m"}
    }))
    .unwrap();
    assert_eq!(changes[0]["from"], "/structuredContent/code");
}

#[cfg(feature = "mcp-2026-07-28")]
#[test]
fn mcp_2026_07_28_carries_a_null_json_success_both_ways() {
    use toolcall_contracts::mcp::v2026_07_28::CallToolResult as Result0728;
    let outcome = json_success(Value::Null);
    let converted = from_outcome::<Result0728>(&outcome).unwrap();
    assert_eq!(
        serde_json::to_value(&converted.value).unwrap(),
        json!({"content": [{"type": "text", "text": "null"}], "structuredContent": null,
               "resultType": "complete"})
    );
    assert!(converted.report.is_empty());
    let back = to_outcome(&converted.value).unwrap();
    assert_eq!(back.value, outcome);
    assert!(back.report.is_empty());
}

/// MCP's wire has no member telling a runtime failure from a domain failure: the result written
/// for a runtime failure reads back as a domain failure of its code, and the report says so,
/// naming `/isError`.
#[test]
fn a_runtime_failure_read_back_is_a_domain_failure_reported_as_such() {
    for code in [
        ToolRuntimeErrorCode::Panicked,
        ToolRuntimeErrorCode::DeadlineExceeded,
    ] {
        let written = from_runtime_failure::<CallToolResult>(code).unwrap();
        let back = to_outcome(&written.value).unwrap();
        let message = format!("the runtime could not complete the call: `{code}`");
        assert_eq!(
            serde_json::to_value(&back.value).unwrap(),
            json!({"type": "domain_failed", "error": {"code": code.as_str(), "message": message}})
        );
        assert_eq!(
            report(&back.report),
            json!([{"kind": "derived", "from": "/isError", "to": "/type", "value": "domain_failed",
                    "reason": format!("MCP's `isError` does not tell a runtime failure from a domain failure: this is the result written for the runtime failure `{code}`, read as a domain failure of that code")}])
        );
    }
    // A domain failure of another code, or with data, or another message, is not that result.
    for structured in [
        json!({"code": "not_found", "message": "the runtime could not complete the call: `panicked`"}),
        json!({"code": "panicked", "message": "the tool panicked"}),
        json!({"code": "panicked", "message": "the runtime could not complete the call: `panicked`", "data": 1}),
    ] {
        let text = structured["message"].clone();
        let (_, changes) = outcome_of(json!({
            "content": [{"type": "text", "text": text}],
            "isError": true,
            "structuredContent": structured
        }))
        .unwrap();
        assert_eq!(changes, json!([]));
    }
}
