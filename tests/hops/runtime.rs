//! Route body ↔ canonical `ToolCall`.

use serde_json::json;
use toolcall_contracts::hops::runtime::{
    from_tool_call, to_tool_call, CallOptions, Registry, RuntimeError,
};
use toolcall_contracts::route::ToolCallRequest;

use super::support::{echo_spec, report};

fn body(tool_call_id: Option<&str>) -> ToolCallRequest {
    let mut body = ToolCallRequest::new("echo", json!({"message": "hi"}));
    body.tool_call_id = tool_call_id.map(str::to_owned);
    body
}

#[test]
fn a_body_becomes_the_call_with_its_id_byte_for_byte_and_back() {
    let registry = Registry::new([echo_spec()]).unwrap();
    let options = CallOptions {
        request_ordinal: 2,
        ..CallOptions::default()
    };
    let call = to_tool_call(&body(Some(" toolu_01 ")), &registry, &options).unwrap();
    assert_eq!(
        serde_json::to_value(&call.value).unwrap(),
        json!({"tool_name": "echo", "tool_id": "everything/echo@1",
               "provider_tool_call_id": " toolu_01 ", "arguments": {"message": "hi"},
               "request_ordinal": 2})
    );
    assert!(call.report.is_empty());
    let back = from_tool_call(&call.value);
    assert_eq!(back.value, body(Some(" toolu_01 ")));
    assert_eq!(
        report(&back.report),
        json!([
            {"kind": "dropped", "from": "/tool_id", "value": "everything/echo@1",
             "reason": "the route body names the tool by its bare name only"},
            {"kind": "dropped", "from": "/request_ordinal", "value": 2,
             "reason": "the route body has no request ordinal"}
        ])
    );
}

#[test]
fn a_missing_id_takes_the_callers_fallback_recorded_or_is_refused() {
    let registry = Registry::new([echo_spec()]).unwrap();
    assert_eq!(
        to_tool_call(&body(None), &registry, &CallOptions::default()).unwrap_err(),
        RuntimeError::MissingToolCallId
    );
    let options = CallOptions {
        fallback_tool_call_id: Some("wal-7".into()),
        ..CallOptions::default()
    };
    let call = to_tool_call(&body(None), &registry, &options).unwrap();
    assert_eq!(call.value.provider_tool_call_id, "wal-7");
    assert_eq!(
        report(&call.report),
        json!([{"kind": "defaulted", "to": "/provider_tool_call_id", "value": "wal-7",
                "reason": "the route body has no `tool_call_id`: the caller's fallback id, not the producer's"}])
    );
}

#[test]
fn route_members_the_call_cannot_carry_are_reported() {
    let registry = Registry::new([echo_spec()]).unwrap();
    let mut request = body(Some("c1"));
    request.progress_token = Some(json!("p"));
    request.call_key = Some("k".into());
    let call = to_tool_call(&request, &registry, &CallOptions::default()).unwrap();
    let from: Vec<_> = call
        .report
        .iter()
        .map(|c| c.from.clone().unwrap())
        .collect();
    assert_eq!(from, ["/progress_token", "/call_key"]);
}

#[test]
fn arguments_are_checked_when_asked_and_unknown_tools_refused() {
    let registry = Registry::new([echo_spec()]).unwrap();
    let mut bad = body(Some("c1"));
    bad.arguments = json!({"message": 7});
    assert!(to_tool_call(&bad, &registry, &CallOptions::default()).is_ok());
    let checked = CallOptions {
        validate_arguments: true,
        ..CallOptions::default()
    };
    let error = to_tool_call(&bad, &registry, &checked).unwrap_err();
    assert_eq!(
        error.to_string(),
        "`/arguments` are refused: `arguments` are invalid: instance at `/message` fails `type` at schema `/properties/message/type`"
    );
    let mut other = body(Some("c1"));
    other.name = "nope".into();
    assert_eq!(
        to_tool_call(&other, &registry, &checked).unwrap_err(),
        RuntimeError::UnknownTool {
            name: "nope".into()
        }
    );
    assert_eq!(
        Registry::new([echo_spec(), echo_spec()])
            .unwrap_err()
            .to_string(),
        "tool name `echo` is registered twice"
    );
}
