//! Property tests: what the target can carry round-trips, with an empty report.

use proptest::prelude::*;
use serde_json::{json, Map, Number, Value};
use toolcall_contracts::canonical::{
    CanonicalToolError, CanonicalToolOutput, CanonicalToolResultOutcome, MAX_ERROR_MESSAGE_BYTES,
};
use toolcall_contracts::mcp::v2025_11_25::{CallToolRequestParams, CallToolResult, Tool};
use toolcall_contracts::route::ToolCallRequest;
use toolcall_hops::gateway::{from_route_request, to_route_request, GatewayOptions};
use toolcall_hops::mcp_result::{from_outcome, to_outcome};
use toolcall_hops::mcp_tool::{from_tool_spec, to_tool_spec};
use toolcall_hops::names::{NameProjection, ToolRef};
use toolcall_hops::runtime::{from_tool_call, to_tool_call, CallOptions, Registry};

use super::support::{echo_spec, registration};

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter_map("finite", Number::from_f64)
            .prop_map(Value::Number),
        ".{0,12}".prop_map(Value::String),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(".{0,6}", inner, 0..4)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

fn object() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::btree_map(".{0,6}", value(), 0..5).prop_map(|map| map.into_iter().collect())
}

fn progress_token() -> impl Strategy<Value = Option<Value>> {
    prop_oneof![
        Just(None),
        any::<i64>().prop_map(|n| Some(json!(n))),
        ".{0,10}".prop_map(|s| Some(json!(s))),
    ]
}

/// Text without control characters (what a canonical message or description can be).
fn plain(max: usize) -> impl Strategy<Value = String> {
    proptest::string::string_regex(&format!("[^\\p{{Cc}}]{{1,{max}}}")).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn mcp_params_to_route_and_back(
        name in "[a-zA-Z0-9_./-]{1,40}",
        arguments in object(),
        token in progress_token(),
    ) {
        let mut wire = json!({"name": name, "arguments": arguments});
        if let Some(token) = &token {
            wire["_meta"] = json!({"progressToken": token});
        }
        let params: CallToolRequestParams = serde_json::from_value(wire.clone()).unwrap();
        let body = to_route_request(&params, None, None, &GatewayOptions::default()).unwrap();
        prop_assert!(body.report.is_empty());
        prop_assert_eq!(&body.value.request.arguments, &wire["arguments"]);
        prop_assert_eq!(&body.value.request.progress_token, &token);
        let back = from_route_request::<CallToolRequestParams>(&body.value.request, None, None).unwrap();
        prop_assert!(back.report.is_empty());
        prop_assert_eq!(serde_json::to_value(&back.value).unwrap(), wire);
    }

    #[test]
    fn route_to_canonical_and_back(arguments in value(), id in ".{0,20}") {
        let registry = Registry::new([echo_spec()]).unwrap();
        let mut body = ToolCallRequest::new("echo", arguments);
        body.tool_call_id = Some(id);
        let call = to_tool_call(&body, &registry, &CallOptions::default()).unwrap();
        prop_assert!(call.report.is_empty());
        let back = from_tool_call(&call.value);
        prop_assert_eq!(back.value, body);
        prop_assert_eq!(back.report.len(), 2);
    }

    #[test]
    fn json_outcomes_to_mcp_and_back(structured in object()) {
        let outcome = CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Json(Value::Object(structured)));
        let result = from_outcome::<CallToolResult>(&outcome).unwrap();
        prop_assert!(result.report.is_empty());
        let back = to_outcome(&result.value).unwrap();
        prop_assert!(back.report.is_empty(), "{:?}", back.report);
        prop_assert_eq!(back.value, outcome);
    }

    #[test]
    fn text_outcomes_to_mcp_and_back(text in ".{0,40}") {
        let outcome = CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Text(text));
        let result = from_outcome::<CallToolResult>(&outcome).unwrap();
        let back = to_outcome(&result.value).unwrap();
        prop_assert!(back.report.is_empty());
        prop_assert_eq!(back.value, outcome);
    }

    #[test]
    fn domain_failures_to_mcp_and_back(
        code in plain(64).prop_filter("at most 64 bytes", |c| c.len() <= 64),
        message in plain(200),
        data in proptest::option::of(value()),
    ) {
        let error = CanonicalToolError::try_new(code, message, data, MAX_ERROR_MESSAGE_BYTES).unwrap();
        let outcome = CanonicalToolResultOutcome::DomainFailed(error);
        let result = from_outcome::<CallToolResult>(&outcome).unwrap();
        prop_assert_eq!(result.value.is_error, Some(true));
        let back = to_outcome(&result.value).unwrap();
        prop_assert!(back.report.is_empty());
        prop_assert_eq!(back.value, outcome);
    }

    #[test]
    fn mcp_tools_to_specs_and_back(
        name in "[a-zA-Z0-9_.-]{1,40}",
        description in plain(100),
        properties in prop::collection::btree_map("[a-z]{1,8}", prop_oneof![
            Just(json!({"type": "string"})), Just(json!({"type": "number"})),
            Just(json!({"type": "array", "items": {"type": "integer"}})),
        ], 0..4),
        output in any::<bool>(),
    ) {
        let mut wire = json!({
            "name": name, "description": description,
            "inputSchema": {"type": "object", "properties": properties}
        });
        if output {
            wire["outputSchema"] = json!({"type": "object", "properties": {"n": {"type": "number"}}});
        }
        let tool: Tool = serde_json::from_value(wire.clone()).unwrap();
        let spec = to_tool_spec(&tool, &registration("t")).unwrap();
        // A tool without `outputSchema` reports its text success as defaulted, nothing else.
        prop_assert_eq!(spec.report.len(), usize::from(!output));
        let back = from_tool_spec::<Tool>(&spec.value).unwrap();
        prop_assert_eq!(serde_json::to_value(&back.value).unwrap(), wire);
    }

    #[test]
    fn projected_names_are_distinct_in_the_alphabet_and_reversible(
        names in prop::collection::btree_set("[a-zA-Z0-9_./é -]{1,90}", 1..12),
        namespace in proptest::option::of("[a-z.]{1,12}"),
    ) {
        let tools: Vec<ToolRef> = names
            .into_iter()
            .map(|name| ToolRef { namespace: namespace.clone(), name })
            .collect();
        let map = NameProjection::openai().project(&tools).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for tool in &tools {
            let exposed = map.exposed(tool.namespace.as_deref(), &tool.name).unwrap();
            prop_assert!(!exposed.is_empty() && exposed.chars().count() <= 64, "{}", exposed);
            prop_assert!(
                exposed.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
                "{}", exposed
            );
            prop_assert!(seen.insert(exposed.to_owned()), "{} twice", exposed);
            prop_assert_eq!(map.resolve(exposed), Some(tool));
        }
    }
}
