//! Route body ↔ canonical `ToolCall`.

use serde_json::json;
use toolcall_contracts::canonical::ToolSpec;
use toolcall_contracts::route::ToolCallRequest;
use toolcall_hops::runtime::{
    from_tool_call, from_tool_call_in, to_tool_call, CallOptions, Registry, RuntimeError,
};

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

/// A tool registered under a route name (`repo/search`, which the canonical `ToolName`
/// refuses) and its canonical name (`repo_search`): the route name goes to the canonical one
/// and comes back through the registry, reported both ways.
#[test]
fn a_route_name_comes_back_through_the_registry_reported() {
    let spec: ToolSpec = serde_json::from_value(json!({
        "id": "gh/repo-search@1", "name": "repo_search", "description": "Searches",
        "input_schema": {"type": "object"},
        "output_contract": {"success": {"type": "text", "media_type": "text/plain"}},
        "limits": {"max_concurrent": 1, "max_input_bytes": 1024, "max_output_bytes": 1024,
                   "execution_deadline_ms": 1000},
        "execution_class": {"type": "cooperative_in_process", "grace_ms": 100}
    }))
    .unwrap();
    let mut registry = Registry::new([echo_spec()]).unwrap();
    registry
        .insert_with_route_name("repo/search", spec)
        .unwrap();
    assert_eq!(registry.route_name("repo_search"), Some("repo/search"));
    assert_eq!(registry.route_name("echo"), None);
    assert_eq!(registry.route_name("nope"), None);

    let mut request = ToolCallRequest::new("repo/search", json!({"q": "x"}));
    request.tool_call_id = Some("c1".into());
    let call = to_tool_call(&request, &registry, &CallOptions::default()).unwrap();
    assert_eq!(
        report(&call.report),
        json!([{"kind": "derived", "from": "/name", "to": "/tool_name", "value": "repo_search",
                "reason": "the canonical name the registry holds for the route name"}])
    );
    let back = from_tool_call_in(&call.value, &registry);
    assert_eq!(
        serde_json::to_value(&back.value).unwrap(),
        json!({"name": "repo/search", "arguments": {"q": "x"}, "tool_call_id": "c1"})
    );
    assert_eq!(back.value, request);
    assert_eq!(
        report(&back.report),
        json!([
            {"kind": "derived", "from": "/tool_name", "to": "/name", "value": "repo/search",
             "reason": "the route name the registry holds for the canonical name"},
            {"kind": "dropped", "from": "/tool_id", "value": "gh/repo-search@1",
             "reason": "the route body names the tool by its bare name only"},
            {"kind": "dropped", "from": "/request_ordinal", "value": 0,
             "reason": "the route body has no request ordinal"}
        ])
    );
    // A tool without a route name converts as without a registry.
    let echo = to_tool_call(&body(Some("c2")), &registry, &CallOptions::default()).unwrap();
    assert_eq!(
        from_tool_call_in(&echo.value, &registry),
        from_tool_call(&echo.value)
    );
}
