//! The recorded server-everything transcript (`tests/fixtures/mcp/server-everything/`, the
//! official TypeScript SDK client 1.32.2 against server-everything 2026.8.31, MCP 2025-11-25)
//! across every hop: each `tools/call` to a route body and a canonical call and back, each
//! result to a canonical outcome, and the whole transcript to ACP updates that validate against
//! the ACP schema and, applied, end each call in its final state.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use toolcall_contracts::acp::{SessionId, SessionUpdate, ToolCall as AcpToolCall};
use toolcall_contracts::mcp::v2025_11_25::{CallToolRequestParams, RequestId};
use toolcall_hops::acp_updates::{session_update_message, ToolKinds};
use toolcall_hops::gateway::{
    from_route_request, to_route_request, GatewayOptions, ToolCallIdSource,
};
use toolcall_hops::mcp_result::result_to_outcome;
use toolcall_hops::relay::Relay;
use toolcall_hops::runtime::{from_tool_call, to_tool_call, CallOptions, Registry, RuntimeError};

use super::support::{report, specs, TRANSCRIPT};

/// Every message of the transcript with its line and sender.
fn messages() -> Vec<(usize, String, Value)> {
    TRANSCRIPT
        .lines()
        .enumerate()
        .map(|(index, line)| {
            let wrapper: Value = serde_json::from_str(line).unwrap();
            (
                index + 1,
                wrapper["from"].as_str().unwrap().to_owned(),
                wrapper["message"].clone(),
            )
        })
        .collect()
}

/// The client's `tools/call` requests.
fn calls() -> Vec<(RequestId, Value)> {
    messages()
        .into_iter()
        .filter(|(_, from, message)| from == "client" && message["method"] == "tools/call")
        .map(|(_, _, message)| {
            (
                serde_json::from_value(message["id"].clone()).unwrap(),
                message["params"].clone(),
            )
        })
        .collect()
}

#[test]
fn every_tools_call_converts_to_a_route_body_and_a_canonical_call_and_back() {
    let registry = Registry::new(specs()).unwrap();
    let options = GatewayOptions {
        tool_call_id: ToolCallIdSource::RequestId,
    };
    let calls = calls();
    assert_eq!(calls.len(), 28);
    let mut converted = 0;
    for (id, wire) in &calls {
        let RequestId::Integer(number) = id else {
            panic!("the SDK numbers its requests")
        };
        let params: CallToolRequestParams = serde_json::from_value(wire.clone()).unwrap();
        let body = to_route_request(&params, Some(id), None, &options).unwrap();
        // The route body: the name, the arguments exactly, the token, the derived id.
        let mut expected = json!({
            "name": wire["name"], "arguments": wire["arguments"], "tool_call_id": number.to_string()
        });
        if let Some(token) = wire.pointer("/_meta/progressToken") {
            expected["progress_token"] = token.clone();
        }
        assert_eq!(
            serde_json::to_value(&body.value.request).unwrap(),
            expected,
            "call {number}"
        );
        let mut expected_report = vec![json!({
            "kind": "derived", "from": "/id", "to": "/tool_call_id", "value": number.to_string(),
            "reason": "synthesized from the JSON-RPC request id: not an id the MCP client gave the call"
        })];
        if let Some(task) = wire.get("task") {
            expected_report.push(json!({
                "kind": "dropped", "from": "/task", "value": task,
                "reason": "the route body cannot ask for a task-augmented call"
            }));
        }
        assert_eq!(
            report(&body.report),
            Value::Array(expected_report),
            "call {number}"
        );
        // Back to MCP: the params as sent, but the task (reported above).
        let back =
            from_route_request::<CallToolRequestParams>(&body.value.request, None, None).unwrap();
        let mut sent = wire.clone();
        sent.as_object_mut().unwrap().remove("task");
        assert_eq!(
            serde_json::to_value(&back.value).unwrap(),
            sent,
            "call {number}"
        );
        assert_eq!(
            back.report.len(),
            1,
            "the derived tool_call_id has no MCP member"
        );

        let checked = CallOptions {
            validate_arguments: true,
            ..CallOptions::default()
        };
        match (wire["name"].as_str().unwrap(), *number) {
            ("no-such-tool", 31) => {
                assert_eq!(
                    to_tool_call(&body.value.request, &registry, &checked).unwrap_err(),
                    RuntimeError::UnknownTool {
                        name: "no-such-tool".into()
                    }
                );
                continue;
            }
            ("get-sum", 30) => {
                let error = to_tool_call(&body.value.request, &registry, &checked).unwrap_err();
                assert_eq!(
                    error.to_string(),
                    "`/arguments` are refused: `arguments` are invalid: instance at `/a` fails `type` at schema `/properties/a/type`"
                );
                continue;
            }
            _ => {}
        }
        let call = to_tool_call(&body.value.request, &registry, &checked).unwrap();
        assert_eq!(call.value.provider_tool_call_id, number.to_string());
        assert_eq!(call.value.arguments, wire["arguments"]);
        assert_eq!(
            call.value.tool_id.as_str(),
            format!("everything/{}@1", wire["name"].as_str().unwrap())
        );
        let dropped: Vec<_> = call
            .report
            .iter()
            .map(|c| c.from.clone().unwrap())
            .collect();
        let token = body.value.request.progress_token.is_some();
        assert_eq!(
            dropped,
            if token {
                vec!["/progress_token"]
            } else {
                vec![]
            },
            "call {number}"
        );
        // Back to the route body: all but the progress token (reported above).
        let again = from_tool_call(&call.value);
        let mut without_token = body.value.request.clone();
        without_token.progress_token = None;
        assert_eq!(again.value, without_token, "call {number}");
        converted += 1;
    }
    assert_eq!(converted, 26);
}

#[test]
fn every_result_converts_to_a_canonical_outcome_with_what_it_cannot_hold_reported() {
    let messages = messages();
    let calls: BTreeMap<String, String> = messages
        .iter()
        .filter(|(_, _, message)| message["method"] == "tools/call")
        .map(|(_, _, message)| {
            (
                message["id"].to_string(),
                message["params"]["name"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let mut reports = BTreeMap::new();
    for (_, from, message) in &messages {
        let result = message.get("result").and_then(Value::as_object);
        let Some(name) = calls.get(&message["id"].to_string()) else {
            continue;
        };
        let (Some(result), "server") = (result, from.as_str()) else {
            continue;
        };
        if result.contains_key("task") {
            continue;
        }
        let outcome = result_to_outcome(result.clone()).unwrap();
        let from: Vec<String> = outcome.report.iter().map(|c| c.to_string()).collect();
        reports.insert(format!("{} {name}", message["id"]), from);
    }
    let carried: Vec<&String> = reports
        .iter()
        .filter(|(_, report)| report.is_empty())
        .map(|(call, _)| call)
        .collect();
    // One text block, or structured content with its text fallback: carried exactly.
    assert_eq!(
        carried,
        [
            "10 get-structured-content",
            "11 get-sum",
            "15 toggle-simulated-logging",
            "16 toggle-simulated-logging",
            "17 toggle-subscriber-updates",
            "18 toggle-subscriber-updates",
            "19 trigger-long-running-operation",
            "20 get-roots-list",
            "24 trigger-sampling-request",
            "25 trigger-sampling-request-async",
            "3 echo",
            "6 get-env",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .iter()
        .collect::<Vec<_>>()
    );
    assert_eq!(
        reports["5 get-annotated-message"],
        ["dropped `/content/0/annotations`: the canonical output is the text alone"]
    );
    assert_eq!(
        reports["13 gzip-file-as-resource"],
        [
            "dropped `/content/0`: the canonical output holds text or JSON, not this content block",
            "defaulted `/output/text`: the MCP result has no text block",
        ]
    );
    assert_eq!(
        reports["30 get-sum"],
        ["defaulted `/error/code`: an MCP error result names no code"]
    );
}

#[test]
fn the_transcript_relays_to_acp_updates_that_validate_and_end_every_call() {
    let mut relay = Relay::new(SessionId::from("editor-1"), ToolKinds::new());
    let mut notifications = Vec::new();
    for (index, line) in TRANSCRIPT.lines().enumerate() {
        notifications.extend(relay.push(index + 1, line.as_bytes()));
    }
    let notes: Vec<String> = relay
        .finish()
        .iter()
        .map(|note| format!("{}: {}", note.line, note.change))
        .collect();
    // The only thing not relayed: the progress server-everything sent after the client
    // cancelled call 32 (the ACP call had already ended `failed`).
    let late = "dropped: progress for `mcp-1-32` after the call ended: not relayed (ACP updates end with `completed` or `failed`)";
    assert_eq!(
        notes,
        [115, 116, 117, 118].map(|line| format!("{line}: {late}"))
    );
    assert_eq!(notifications.len(), 69);

    // Every notification validates against the ACP schema.
    let messages: Vec<Value> = notifications
        .iter()
        .map(|n| serde_json::to_value(session_update_message(n)).expect("an ACP message"))
        .collect();
    super::support::assert_session_updates(&messages);

    // Applied in order, the updates end every call in its final state.
    let mut calls: BTreeMap<String, AcpToolCall> = BTreeMap::new();
    for notification in &notifications {
        assert_eq!(notification.session_id.0, "editor-1");
        match &notification.update {
            SessionUpdate::ToolCall(call) => {
                assert!(calls
                    .insert(call.tool_call_id.0.clone(), call.clone())
                    .is_none());
            }
            SessionUpdate::ToolCallUpdate(update) => {
                calls
                    .get_mut(&update.tool_call_id.0)
                    .expect("announced first")
                    .apply(update);
            }
            other => panic!("unexpected update {other:?}"),
        }
    }
    assert_eq!(calls.len(), 28);
    let status = |id: &str| serde_json::to_value(calls[id].status).unwrap();
    let failed: Vec<&str> = calls
        .keys()
        .map(String::as_str)
        .filter(|id| status(id) == json!("failed"))
        .collect();
    assert_eq!(failed, ["mcp-1-22", "mcp-1-30", "mcp-1-31", "mcp-1-32"]);
    assert!(calls
        .keys()
        .all(|id| failed.contains(&id.as_str()) || status(id) == json!("completed")));
    let long = serde_json::to_value(&calls["mcp-1-19"]).unwrap();
    assert_eq!(
        long,
        json!({
            "toolCallId": "mcp-1-19",
            "title": "Trigger Long Running Operation Tool",
            "name": "trigger-long-running-operation",
            "kind": "other",
            "status": "completed",
            "rawInput": {"duration": 0.5, "steps": 5},
            "content": [{"type": "content", "content": {"type": "text",
                         "text": "Long running operation completed. Duration: 0.5 seconds, Steps: 5."}}],
            "rawOutput": {"content": [{"type": "text",
                          "text": "Long running operation completed. Duration: 0.5 seconds, Steps: 5."}]}
        })
    );
    // The task-augmented call ends with the result of the client's `tasks/result`.
    let research = serde_json::to_value(&calls["mcp-1-27"]).unwrap();
    assert!(research["content"][0]["content"]["text"]
        .as_str()
        .unwrap()
        .starts_with("# Research Report: python (programming)"));
    assert_eq!(calls["mcp-1-32"].content.as_ref().unwrap().len(), 1);
    assert_eq!(
        serde_json::to_value(&calls["mcp-1-32"].content).unwrap(),
        json!([{"type": "content", "content": {"type": "text", "text": "cancelled: the user cancelled"}}])
    );
}
