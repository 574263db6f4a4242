//! Canonical lifecycle and MCP messages → ACP `session/update`; the stream applied with
//! `ToolCall::apply` ends in the call's final state.

use serde_json::{json, Value};
use toolcall_contracts::acp::{ToolCall as AcpToolCall, ToolCallId, ToolCallUpdate, ToolKind};
use toolcall_contracts::canonical::{ToolCall, ToolLifecycleEvent};
use toolcall_contracts::mcp::v2025_11_25::{CallToolResult, ProgressNotificationParams};
use toolcall_hops::acp_updates::{
    cancelled_update, completion_update, error_update, mcp_tool_call, notification,
    progress_update, result_update, session_update_message, tool_call, AcpUpdateError, ToolKinds,
};

use super::mcp_result::result;
use super::support::report;

fn call() -> ToolCall {
    serde_json::from_value(json!({
        "tool_name": "trigger-long-running-operation",
        "tool_id": "everything/trigger-long-running-operation@1",
        "provider_tool_call_id": "19",
        "arguments": {"duration": 0.5, "steps": 5},
        "request_ordinal": 0
    }))
    .unwrap()
}

fn started() -> ToolLifecycleEvent {
    serde_json::from_value(json!({
        "type": "started", "tool_action_id": "a1",
        "tool_id": "everything/trigger-long-running-operation@1"
    }))
    .unwrap()
}

fn progress(value: Value) -> ProgressNotificationParams {
    serde_json::from_value(value).unwrap()
}

/// Every update must be a valid ACP `session/update` notification.
fn assert_valid(updates: &[Value]) {
    super::support::assert_session_updates(updates);
}

#[test]
fn started_progress_completed_applied_end_in_the_final_state() {
    let kinds = ToolKinds::new().with(
        "everything/trigger-long-running-operation@1",
        ToolKind::Execute,
    );
    let first = tool_call(
        &call(),
        &started(),
        Some("Trigger Long Running Operation Tool"),
        &kinds,
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(&first.value).unwrap(),
        json!({
            "toolCallId": "a1",
            "title": "Trigger Long Running Operation Tool",
            "name": "trigger-long-running-operation",
            "kind": "execute",
            "status": "in_progress",
            "rawInput": {"duration": 0.5, "steps": 5}
        })
    );
    assert_eq!(
        report(&first.report),
        json!([
            {"kind": "dropped", "from": "/tool_id", "value": "everything/trigger-long-running-operation@1",
             "reason": "ACP's tool call has no member for it"},
            {"kind": "dropped", "from": "/provider_tool_call_id", "value": "19",
             "reason": "ACP's tool call has no member for it"},
            {"kind": "dropped", "from": "/request_ordinal", "value": 0,
             "reason": "ACP's tool call has no member for it"}
        ])
    );
    let id = ToolCallId::from("a1");
    let one = progress_update(
        &id,
        &progress(json!({"progress": 1, "total": 5, "progressToken": 19})),
    )
    .unwrap();
    let two = progress_update(
        &id,
        &progress(
            json!({"progress": 2.5, "message": "half", "progressToken": "t", "_meta": {"k": 1}}),
        ),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(&two.value).unwrap(),
        json!({"toolCallId": "a1", "status": "in_progress",
               "content": [{"type": "content", "content": {"type": "text", "text": "progress 2.5: half"}}]})
    );
    assert_eq!(
        report(&two.report),
        json!([{"kind": "dropped", "from": "/_meta", "value": {"k": 1},
                "reason": "ACP's tool call update has no member for it"}])
    );
    let completed = ToolLifecycleEvent::Completed {
        result: result(
            json!({"type": "succeeded", "output": {"type": "json", "value": {"done": true}}}),
        ),
    };
    let last = completion_update(&completed).unwrap();
    assert!(last.report.is_empty());
    let mut state = first.value.clone();
    for update in [&one.value, &two.value, &last.value] {
        state.apply(update);
    }
    let expected = json!({
        "toolCallId": "a1",
        "title": "Trigger Long Running Operation Tool",
        "name": "trigger-long-running-operation",
        "kind": "execute",
        "status": "completed",
        "rawInput": {"duration": 0.5, "steps": 5},
        "content": [{"type": "content", "content": {"type": "text", "text": "{\"done\":true}"}}],
        "rawOutput": {"done": true}
    });
    assert_eq!(serde_json::to_value(&state).unwrap(), expected);
    let session = "s-1".into();
    let messages: Vec<Value> = [
        toolcall_contracts::acp::SessionUpdate::ToolCall(first.value),
        toolcall_contracts::acp::SessionUpdate::ToolCallUpdate(one.value),
        toolcall_contracts::acp::SessionUpdate::ToolCallUpdate(two.value),
        toolcall_contracts::acp::SessionUpdate::ToolCallUpdate(last.value),
    ]
    .into_iter()
    .map(|update| {
        serde_json::to_value(session_update_message(&notification(&session, update))).unwrap()
    })
    .collect();
    assert_eq!(messages[3]["method"], "session/update");
    assert_eq!(messages[3]["params"]["sessionId"], "s-1");
    assert_valid(&messages);
}

#[test]
fn failures_end_failed_with_their_content_and_raw_output() {
    let domain = ToolLifecycleEvent::Completed {
        result: result(json!({"type": "domain_failed",
                              "error": {"code": "not_found", "message": "no such city", "data": {"city": "X"}}})),
    };
    assert_eq!(
        serde_json::to_value(completion_update(&domain).unwrap().value).unwrap(),
        json!({"toolCallId": "a1", "status": "failed",
               "content": [{"type": "content", "content": {"type": "text", "text": "no such city"}}],
               "rawOutput": {"code": "not_found", "message": "no such city", "data": {"city": "X"}}})
    );
    let runtime: ToolLifecycleEvent = serde_json::from_value(json!({
        "type": "runtime_failed", "tool_action_id": "a2", "tool_id": "t", "code": "deadline_exceeded"
    }))
    .unwrap();
    assert_eq!(
        serde_json::to_value(completion_update(&runtime).unwrap().value).unwrap(),
        json!({"toolCallId": "a2", "status": "failed",
               "content": [{"type": "content", "content": {"type": "text",
                            "text": "the runtime could not complete the call: `deadline_exceeded`"}}],
               "rawOutput": {"code": "deadline_exceeded"}})
    );
    let text = ToolLifecycleEvent::Completed {
        result: result(json!({"type": "succeeded", "output": {"type": "text", "text": "12:00"}})),
    };
    assert_eq!(
        serde_json::to_value(completion_update(&text).unwrap().value).unwrap()["rawOutput"],
        json!("12:00")
    );
    assert_eq!(
        completion_update(&started()).unwrap_err(),
        AcpUpdateError::WrongEvent { found: "started" }
    );
    let mut other = call();
    other.tool_id = "x".parse().unwrap();
    assert_eq!(
        tool_call(&other, &started(), None, &ToolKinds::new()).unwrap_err().to_string(),
        "the `started` event is for tool `everything/trigger-long-running-operation@1`, the call for `x`"
    );
}

#[test]
fn an_mcp_call_and_its_result_applied_end_in_the_final_state() {
    let id = ToolCallId::from("mcp-1-4");
    let params = json!({"name": "get-annotated-message",
                        "arguments": {"messageType": "error", "includeImage": true},
                        "_meta": {"progressToken": 4, "io.example/trace": "t"}});
    let first = mcp_tool_call(&id, params.as_object().unwrap(), None, &ToolKinds::new()).unwrap();
    assert_eq!(
        serde_json::to_value(&first.value).unwrap(),
        json!({"toolCallId": "mcp-1-4", "title": "get-annotated-message",
               "name": "get-annotated-message", "kind": "other", "status": "in_progress",
               "rawInput": {"messageType": "error", "includeImage": true}})
    );
    assert_eq!(
        report(&first.report),
        json!([{"kind": "dropped", "from": "/_meta/io.example~1trace", "value": "t",
                "reason": "ACP's tool call has no member for MCP request metadata"}])
    );
    let mcp_result = json!({"content": [
        {"type": "text", "text": "Error: Operation failed", "annotations": {"audience": ["user", "assistant"], "priority": 1}},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png", "annotations": {"priority": 0.5}}
    ], "isError": true});
    let result: CallToolResult = serde_json::from_value(mcp_result.clone()).unwrap();
    let last = result_update(&id, &result);
    assert!(last.report.is_empty(), "{:?}", last.report);
    let mut state: AcpToolCall = first.value;
    state.apply(&last.value);
    assert_eq!(
        serde_json::to_value(&state).unwrap(),
        json!({"toolCallId": "mcp-1-4", "title": "get-annotated-message",
               "name": "get-annotated-message", "kind": "other", "status": "failed",
               "rawInput": {"messageType": "error", "includeImage": true},
               "content": [
                   {"type": "content", "content": mcp_result["content"][0]},
                   {"type": "content", "content": mcp_result["content"][1]}
               ],
               "rawOutput": mcp_result})
    );
}

#[test]
fn json_rpc_errors_and_cancellations_end_failed() {
    let id = ToolCallId::from("mcp-1-22");
    let error =
        json!({"code": -32042, "message": "This request requires browser-based authorization."});
    let update: ToolCallUpdate = error_update(&id, &error).value;
    assert_eq!(
        serde_json::to_value(&update).unwrap(),
        json!({"toolCallId": "mcp-1-22", "status": "failed",
               "content": [{"type": "content", "content": {"type": "text",
                            "text": "This request requires browser-based authorization."}}],
               "rawOutput": error})
    );
    assert_eq!(
        serde_json::to_value(cancelled_update(&id, Some("the user cancelled")).value).unwrap(),
        json!({"toolCallId": "mcp-1-22", "status": "failed",
               "content": [{"type": "content", "content": {"type": "text",
                            "text": "cancelled: the user cancelled"}}]})
    );
}

#[test]
fn a_text_block_past_a_mebibyte_is_acp_content_too() {
    // ACP sets no byte limit on content: a 1.5 MiB text block is carried, with no note (it was
    // dropped once, "over `max_bytes` of `1048576`", by `decode`'s own default).
    let text = "x".repeat(1_572_864);
    let mcp: CallToolResult = serde_json::from_value(json!({
        "content": [{"type": "text", "text": text}]
    }))
    .unwrap();
    let converted = result_update(&"c1".parse::<ToolCallId>().unwrap(), &mcp);
    assert_eq!(converted.report, []);
    let update = serde_json::to_value(&converted.value).unwrap();
    assert_eq!(
        update["content"][0]["content"]["text"]
            .as_str()
            .map(str::len),
        Some(1_572_864)
    );
}
