//! MCP `tools/call` ↔ route body.

use serde_json::json;
use toolcall_contracts::mcp::v2025_11_25::{CallToolRequestParams, RequestId};
use toolcall_contracts::route::ToolCallRequest;
use toolcall_hops::gateway::{
    from_route_request, to_route_request, GatewayError, GatewayOptions, ToolCallIdSource,
};
use toolcall_hops::names::{NameProjection, ToolRef};

use super::support::report;

fn params(value: serde_json::Value) -> CallToolRequestParams {
    serde_json::from_value(value).expect("MCP params")
}

const DERIVE: GatewayOptions = GatewayOptions {
    tool_call_id: ToolCallIdSource::RequestId,
};

#[test]
fn arguments_pass_exactly_and_an_integer_progress_token_stays_an_integer() {
    let call = params(json!({
        "name": "get-sum", "arguments": {"a": 2, "b": 3.5, "c": 2.0}, "_meta": {"progressToken": 7}
    }));
    let body = to_route_request(&call, None, None, &GatewayOptions::default()).unwrap();
    assert_eq!(
        serde_json::to_value(&body.value.request).unwrap(),
        json!({"name": "get-sum", "arguments": {"a": 2, "b": 3.5, "c": 2.0}, "progress_token": 7})
    );
    assert_eq!(body.value.request.arguments["c"].to_string(), "2.0");
    assert!(body.report.is_empty());
    body.value.request.validate().unwrap();
    let back =
        from_route_request::<CallToolRequestParams>(&body.value.request, None, None).unwrap();
    assert_eq!(back.value, call);
    assert!(back.report.is_empty());
}

#[test]
fn a_string_progress_token_stays_a_string() {
    let call = params(json!({"name": "count", "arguments": {}, "_meta": {"progressToken": "p-1"}}));
    let body = to_route_request(&call, None, None, &GatewayOptions::default()).unwrap();
    assert_eq!(body.value.request.progress_token, Some(json!("p-1")));
    let back =
        from_route_request::<CallToolRequestParams>(&body.value.request, None, None).unwrap();
    assert_eq!(
        serde_json::to_value(&back.value).unwrap(),
        json!({"name": "count", "arguments": {}, "_meta": {"progressToken": "p-1"}})
    );
}

#[test]
fn absent_arguments_become_an_empty_object_reported() {
    let body = to_route_request(
        &params(json!({"name": "get-env"})),
        None,
        None,
        &GatewayOptions::default(),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(&body.value.request).unwrap(),
        json!({"name": "get-env", "arguments": {}})
    );
    assert_eq!(
        report(&body.report),
        json!([{"kind": "defaulted", "to": "/arguments", "value": {},
                "reason": "MCP `arguments` is absent; the route body requires `arguments`"}])
    );
}

#[test]
fn the_request_id_becomes_tool_call_id_only_when_asked_and_is_recorded_as_derived() {
    let call = params(json!({"name": "echo", "arguments": {"message": "hi"}}));
    let plain = to_route_request(
        &call,
        Some(&RequestId::Integer(3)),
        None,
        &GatewayOptions::default(),
    )
    .unwrap();
    assert_eq!(plain.value.request.tool_call_id, None);
    let integer = to_route_request(&call, Some(&RequestId::Integer(3)), None, &DERIVE).unwrap();
    assert_eq!(integer.value.request.tool_call_id.as_deref(), Some("3"));
    assert_eq!(
        report(&integer.report),
        json!([{"kind": "derived", "from": "/id", "to": "/tool_call_id", "value": "3",
                "reason": "synthesized from the JSON-RPC request id: not an id the MCP client gave the call"}])
    );
    let string = to_route_request(
        &call,
        Some(&RequestId::String("req-9".into())),
        None,
        &DERIVE,
    )
    .unwrap();
    assert_eq!(string.value.request.tool_call_id.as_deref(), Some("req-9"));
    assert_eq!(
        to_route_request(&call, None, None, &DERIVE).unwrap_err(),
        GatewayError::MissingRequestId
    );
}

#[test]
fn other_meta_members_and_a_task_are_dropped_with_their_values() {
    let call = params(json!({
        "name": "simulate-research-query",
        "arguments": {"topic": "python"},
        "task": {"ttl": 60000},
        "_meta": {"progressToken": 4, "io.example/trace": "t-1"}
    }));
    let body = to_route_request(&call, None, None, &GatewayOptions::default()).unwrap();
    assert_eq!(
        serde_json::to_value(&body.value.request).unwrap(),
        json!({"name": "simulate-research-query", "arguments": {"topic": "python"}, "progress_token": 4})
    );
    assert_eq!(
        report(&body.report),
        json!([
            {"kind": "dropped", "from": "/_meta/io.example~1trace", "value": "t-1",
             "reason": "the route body has no `_meta`"},
            {"kind": "dropped", "from": "/task", "value": {"ttl": 60000},
             "reason": "the route body cannot ask for a task-augmented call"}
        ])
    );
}

#[test]
fn exposed_names_map_back_to_bare_names_and_forward_again() {
    let tools = [
        ToolRef::new("github", "search.issues"),
        ToolRef::new("github", "search_issues"),
    ];
    let map = NameProjection::openai().project(&tools).unwrap();
    let exposed = map
        .exposed(Some("github"), "search.issues")
        .unwrap()
        .to_owned();
    let call = params(json!({"name": exposed, "arguments": {"q": "x"}}));
    let body = to_route_request(&call, None, Some(&map), &GatewayOptions::default()).unwrap();
    assert_eq!(body.value.request.name, "search.issues");
    assert_eq!(
        report(&body.report),
        json!([{"kind": "derived", "from": "/name", "to": "/name", "value": "search.issues",
                "reason": "the exposed name mapped back to the provider's bare name"}])
    );
    let back = from_route_request::<CallToolRequestParams>(
        &body.value.request,
        Some("github"),
        Some(&map),
    )
    .unwrap();
    assert_eq!(back.value, call);
    let unknown = params(json!({"name": "github__nope", "arguments": {}}));
    let error =
        to_route_request(&unknown, None, Some(&map), &GatewayOptions::default()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "`/name` `github__nope` is not a tool of this gateway"
    );
    let mut stray = ToolCallRequest::new("nope", json!({}));
    stray.tool_call_id = None;
    assert_eq!(
        from_route_request::<CallToolRequestParams>(&stray, Some("github"), Some(&map))
            .unwrap_err()
            .to_string(),
        "tool `nope` has no exposed name in namespace `github`"
    );
}

#[test]
fn route_members_mcp_cannot_carry_are_reported_and_bad_ones_refused() {
    let mut body = ToolCallRequest::new("echo", json!({"message": "hi"}));
    body.tool_call_id = Some("call_01".into());
    body.call_key = Some("k-1".into());
    body.schema_pin = Some("sha256:ab".into());
    let back = from_route_request::<CallToolRequestParams>(&body, None, None).unwrap();
    assert_eq!(
        serde_json::to_value(&back.value).unwrap(),
        json!({"name": "echo", "arguments": {"message": "hi"}})
    );
    let from: Vec<_> = back
        .report
        .iter()
        .map(|c| c.from.clone().unwrap())
        .collect();
    assert_eq!(from, ["/tool_call_id", "/call_key", "/schema_pin"]);
    let array = ToolCallRequest::new("echo", json!([1]));
    assert_eq!(
        from_route_request::<CallToolRequestParams>(&array, None, None)
            .unwrap_err()
            .to_string(),
        "`/arguments` must be an object for MCP, found array"
    );
    let mut fraction = ToolCallRequest::new("echo", json!({}));
    fraction.progress_token = Some(json!(1.5));
    assert_eq!(
        from_route_request::<CallToolRequestParams>(&fraction, None, None).unwrap_err(),
        GatewayError::ProgressToken { found: "number" }
    );
}

#[cfg(feature = "mcp-2025-06-18")]
#[test]
fn mcp_2025_06_18_calls_convert_the_same_way() {
    use toolcall_contracts::mcp::v2025_06_18::{
        CallToolRequestParams as Params0618, RequestId as Id0618,
    };
    let wire =
        json!({"name": "echo", "arguments": {"message": "hi"}, "_meta": {"progressToken": "p"}});
    let params: Params0618 = serde_json::from_value(wire.clone()).unwrap();
    let body =
        to_route_request(&params, Some(&Id0618::String("r1".into())), None, &DERIVE).unwrap();
    assert_eq!(
        serde_json::to_value(&body.value.request).unwrap(),
        json!({"name": "echo", "arguments": {"message": "hi"}, "tool_call_id": "r1", "progress_token": "p"})
    );
    let back = from_route_request::<Params0618>(&body.value.request, None, None).unwrap();
    assert_eq!(serde_json::to_value(&back.value).unwrap(), wire);
}

#[cfg(feature = "mcp-2026-07-28")]
#[test]
fn mcp_2026_07_28_needs_request_metadata_a_route_body_does_not_carry() {
    use toolcall_contracts::mcp::v2026_07_28::CallToolRequestParams as Params0728;
    let body = ToolCallRequest::new("echo", json!({}));
    let error = from_route_request::<Params0728>(&body, None, None).unwrap_err();
    assert!(
        matches!(&error, GatewayError::Mcp { version: "2026-07-28", message } if message.contains("_meta")),
        "{error}"
    );
}

#[test]
fn json_params_of_any_shape_report_what_the_body_cannot_carry() {
    use toolcall_hops::gateway::call_to_route;
    let params = json!({"name": "echo", "arguments": {}, "_meta": "odd", "extra": 1});
    let body = call_to_route(
        params.as_object().unwrap().clone(),
        Some(&json!("r-1")),
        None,
        &DERIVE,
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(&body.value.request).unwrap(),
        json!({"name": "echo", "arguments": {}, "tool_call_id": "r-1"})
    );
    assert_eq!(
        report(&body.report),
        json!([
            {"kind": "dropped", "from": "/_meta", "value": "odd", "reason": "`_meta` is not an object"},
            {"kind": "derived", "from": "/id", "to": "/tool_call_id", "value": "r-1",
             "reason": "synthesized from the JSON-RPC request id: not an id the MCP client gave the call"},
            {"kind": "dropped", "from": "/extra", "value": 1, "reason": "not a member of the route body"}
        ])
    );
    let bad = json!({"name": "echo", "_meta": {"progressToken": true}});
    assert_eq!(
        call_to_route(
            bad.as_object().unwrap().clone(),
            None,
            None,
            &GatewayOptions::default()
        )
        .unwrap_err()
        .to_string(),
        "`/_meta/progressToken` must be a string or an integer, found boolean"
    );
}

#[test]
fn a_request_id_of_the_wrong_type_or_a_float_is_refused_saying_so() {
    use toolcall_hops::gateway::call_to_route;
    let params = json!({"name": "echo", "arguments": {}});
    let route = |id: serde_json::Value| {
        call_to_route(
            params.as_object().unwrap().clone(),
            Some(&id),
            None,
            &DERIVE,
        )
        .map(|body| body.value.request.tool_call_id)
        .map_err(|error| error.to_string())
    };
    assert_eq!(route(json!(7)), Ok(Some("7".to_owned())));
    assert_eq!(route(json!("7")), Ok(Some("7".to_owned())));
    assert_eq!(
        route(json!(1.5)),
        Err("the JSON-RPC request id must be a string or an integer: `1.5` is a number but not an integer".to_owned())
    );
    assert_eq!(
        route(json!(true)),
        Err("the JSON-RPC request id must be a string or an integer: found boolean".to_owned())
    );
    assert_eq!(
        route(json!(null)),
        Err("the JSON-RPC request id must be a string or an integer: found null".to_owned())
    );
}

/// An MCP tool name with `/` (SEP-986), exposed with a namespace to a model, registered under a
/// canonical name: the exposed name resolves to the provider and its bare name, and the
/// registry finds the canonical tool by that bare name.
#[test]
fn a_slashed_name_goes_from_the_exposed_name_to_the_canonical_tool() {
    use std::time::Duration;
    use toolcall_contracts::canonical::{ToolExecutionClass, ToolId, ToolLimits, ToolName};
    use toolcall_contracts::mcp::v2025_11_25::Tool;
    use toolcall_hops::gateway::call_to_route;
    use toolcall_hops::mcp_tool::{to_tool_spec, ToolRegistration};
    use toolcall_hops::runtime::{to_tool_call, CallOptions, Registry};

    let tool: Tool =
        serde_json::from_value(json!({"name": "repo/search", "inputSchema": {"type": "object"}}))
            .unwrap();
    let exposed = NameProjection::openai()
        .project(&[ToolRef::new("gh", "repo/search")])
        .unwrap();
    let canonical = NameProjection::canonical()
        .project(&[ToolRef::bare("repo/search")])
        .unwrap();
    let canonical_name = canonical.exposed(None, "repo/search").unwrap();
    assert_eq!(canonical_name, "repo_search");
    let mut registration = ToolRegistration::new(
        ToolId::try_new("gh/repo-search@1").unwrap(),
        ToolLimits::default(),
        ToolExecutionClass::CooperativeInProcess {
            grace: Duration::from_millis(10),
        },
    );
    registration.name = Some(ToolName::try_new(canonical_name).unwrap());
    let spec = to_tool_spec(&tool, &registration).unwrap().value;
    let mut registry = Registry::default();
    registry
        .insert_with_route_name("repo/search", spec)
        .unwrap();

    let name = exposed.exposed(Some("gh"), "repo/search").unwrap();
    assert_eq!(name, "gh__repo_search");
    let params = json!({"name": name, "arguments": {}});
    let body = call_to_route(
        params.as_object().unwrap().clone(),
        Some(&json!(4)),
        Some(&exposed),
        &DERIVE,
    )
    .unwrap();
    assert_eq!(body.value.tool, ToolRef::new("gh", "repo/search"));
    assert_eq!(
        serde_json::to_value(&body.value.request).unwrap(),
        json!({"name": "repo/search", "arguments": {}, "tool_call_id": "4"})
    );
    let call = to_tool_call(&body.value.request, &registry, &CallOptions::default()).unwrap();
    assert_eq!(
        serde_json::to_value(&call.value).unwrap(),
        json!({"tool_name": "repo_search", "tool_id": "gh/repo-search@1",
               "provider_tool_call_id": "4", "arguments": {}, "request_ordinal": 0})
    );
    assert_eq!(
        report(&call.report),
        json!([{"kind": "derived", "from": "/name", "to": "/tool_name", "value": "repo_search",
                "reason": "the canonical name the registry holds for the route name"}])
    );
    // Not registered under its route name: refused by the canonical rule, as before.
    let bare = Registry::default();
    assert!(
        to_tool_call(&body.value.request, &bare, &CallOptions::default())
            .unwrap_err()
            .to_string()
            .starts_with("`/name` is refused")
    );
}

/// MCP's schema has `arguments` an object when present, the typed params refuse `null`, and
/// `from_route_request` refuses a body whose `arguments` are not an object: the JSON entry point
/// refuses them too (`null` is not read as absent), so every body it writes converts back.
#[test]
fn json_params_with_null_or_non_object_arguments_are_refused_naming_arguments() {
    use toolcall_hops::gateway::call_to_route;
    let route = |params: serde_json::Value| {
        call_to_route(
            params.as_object().unwrap().clone(),
            Some(&json!(1)),
            None,
            &DERIVE,
        )
    };
    for (arguments, found) in [
        (json!(null), "null"),
        (json!([1]), "array"),
        (json!("x"), "string"),
    ] {
        let error = route(json!({"name": "t", "arguments": arguments})).unwrap_err();
        assert_eq!(error, GatewayError::ArgumentsNotObject { found });
        assert_eq!(
            error.to_string(),
            format!("`/arguments` must be an object for MCP, found {found}")
        );
    }
    // The typed params refuse `null` already.
    assert!(serde_json::from_value::<CallToolRequestParams>(
        json!({"name": "t", "arguments": null})
    )
    .is_err());
    // An object, and an absent member, still convert, and convert back.
    let body = route(json!({"name": "t", "arguments": {"a": 1}})).unwrap();
    assert_eq!(
        serde_json::to_value(&body.value.request).unwrap(),
        json!({"name": "t", "arguments": {"a": 1}, "tool_call_id": "1"})
    );
    let back =
        from_route_request::<CallToolRequestParams>(&body.value.request, None, None).unwrap();
    assert_eq!(
        serde_json::to_value(&back.value).unwrap(),
        json!({"name": "t", "arguments": {"a": 1}})
    );
    let absent = route(json!({"name": "t"})).unwrap();
    assert_eq!(
        serde_json::to_value(&absent.value.request).unwrap(),
        json!({"name": "t", "arguments": {}, "tool_call_id": "1"})
    );
}

/// The route contract takes any 64-bit integer as `progress_token`, `u64` included; the MCP
/// types hold an `i64`: the refusal names the member, not serde's "matches no variant".
#[test]
fn a_progress_token_past_i64_is_refused_naming_progress_token() {
    let mut body = ToolCallRequest::new("t", json!({}));
    body.progress_token = Some(json!(u64::MAX));
    body.validate().unwrap();
    let error = from_route_request::<CallToolRequestParams>(&body, None, None).unwrap_err();
    assert_eq!(
        error,
        GatewayError::ProgressTokenRange {
            token: "18446744073709551615".into()
        }
    );
    assert_eq!(
        error.to_string(),
        "`/progress_token` `18446744073709551615` is past the integers an MCP progress token holds (`-9223372036854775808` to `9223372036854775807`)"
    );
    // The bounds of `i64` pass, as integers.
    for token in [json!(i64::MAX), json!(i64::MIN)] {
        body.progress_token = Some(token.clone());
        let back = from_route_request::<CallToolRequestParams>(&body, None, None).unwrap();
        assert_eq!(
            serde_json::to_value(&back.value).unwrap(),
            json!({"name": "t", "arguments": {}, "_meta": {"progressToken": token}})
        );
    }
}
