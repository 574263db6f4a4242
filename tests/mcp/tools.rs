//! The tools of the official MCP reference server as they are: what
//! `@modelcontextprotocol/server-everything` 2026.8.31 answered to `tools/list`
//! (`tests/fixtures/mcp/server-everything/tools-list.json`, see its `PROVENANCE.md`). Every
//! `inputSchema` and `outputSchema` is draft-07 (`"$schema":
//! "http://json-schema.org/draft-07/schema#"`, as zod writes it); each compiles under the
//! default policy, and for each tool a valid and an invalid argument object, written by reading
//! its schema, get the right verdicts through `ToolSpec::validate_arguments`.

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::{json, Value};
use toolcall_contracts::canonical::{
    ArgumentsError, JsonSchema, ToolExecutionClass, ToolId, ToolLimits, ToolName,
    ToolOutputContract, ToolSpec, ToolSuccessContract,
};
use toolcall_contracts::policy::{
    Dialect, InstanceError, PolicyError, SchemaPolicy, DIALECT_DRAFT_07,
};

const TOOLS_LIST: &str = include_str!("../fixtures/mcp/server-everything/tools-list.json");

fn tools() -> Vec<Value> {
    let listed: Value = serde_json::from_str(TOOLS_LIST).expect("the fixture is JSON");
    assert_eq!(listed.get("nextCursor"), None, "one page");
    listed["tools"]
        .as_array()
        .expect("`tools` is an array")
        .clone()
}

fn name(tool: &Value) -> &str {
    tool["name"].as_str().expect("every tool has a name")
}

/// The canonical spec a gateway builds from an MCP `Tool`: its name, description and
/// `inputSchema`; a JSON success contract from its `outputSchema` when it has one, text
/// otherwise (MCP content blocks).
fn spec(tool: &Value) -> ToolSpec {
    let success = match tool.get("outputSchema") {
        Some(output) => ToolSuccessContract::json(
            JsonSchema::try_new(output.clone()).expect("a valid draft-07 output schema"),
        ),
        None => ToolSuccessContract::text("text/plain").expect("a media type"),
    };
    ToolSpec::try_new(
        ToolId::try_new(format!("everything/{}", name(tool))).expect("a tool id"),
        ToolName::try_new(name(tool)).expect("an MCP tool name"),
        tool["description"].as_str().expect("a description"),
        JsonSchema::try_new(tool["inputSchema"].clone()).expect("a valid draft-07 input schema"),
        ToolOutputContract {
            success,
            error_data_schema: None,
        },
        ToolLimits::default(),
        ToolExecutionClass::CooperativeInProcess {
            grace: Duration::from_millis(100),
        },
    )
    .expect("a valid spec")
}

fn invalid(instance_pointer: &str, keyword: &str, schema_pointer: &str) -> ArgumentsError {
    ArgumentsError::Invalid {
        source: InstanceError::Invalid {
            instance_pointer: instance_pointer.into(),
            keyword: keyword.into(),
            schema_pointer: schema_pointer.into(),
        },
    }
}

#[test]
fn every_tool_schema_is_draft_07() {
    let tools = tools();
    assert_eq!(tools.len(), 19);
    let mut outputs = 0;
    for tool in &tools {
        assert_eq!(
            tool["inputSchema"]["$schema"],
            DIALECT_DRAFT_07,
            "{}",
            name(tool)
        );
        if let Some(output) = tool.get("outputSchema") {
            assert_eq!(output["$schema"], DIALECT_DRAFT_07, "{}", name(tool));
            outputs += 1;
        }
    }
    assert_eq!(outputs, 1);
}

#[test]
fn every_schema_compiles_under_the_default_policy() {
    let policy = SchemaPolicy::default();
    let only_2020_12 = SchemaPolicy::default().with_allowed_dialects([Dialect::Draft202012]);
    for tool in tools() {
        for member in ["inputSchema", "outputSchema"] {
            let Some(schema) = tool.get(member) else {
                continue;
            };
            let compiled = policy
                .compile(schema)
                .unwrap_or_else(|error| panic!("{} {member}: {error}", name(&tool)));
            assert_eq!(compiled.dialect(), Dialect::Draft07);
            assert_eq!(
                JsonSchema::try_new(schema.clone()).map(|schema| schema.dialect()),
                Ok(Dialect::Draft07)
            );
            // What a 2020-12-only policy (the default before) says of every one of them.
            assert_eq!(
                only_2020_12.compile(schema).unwrap_err(),
                PolicyError::DialectNotAllowed {
                    dialect: DIALECT_DRAFT_07.into(),
                    pointer: String::new(),
                }
            );
        }
    }
}

/// One case per tool, from reading its `inputSchema` in the fixture: arguments it accepts, and
/// arguments it refuses with the first violation the validator reports.
struct Case {
    tool: &'static str,
    valid: Value,
    invalid: Value,
    error: ArgumentsError,
}

fn cases() -> Vec<Case> {
    let no_arguments = |tool, invalid_value: Value| Case {
        tool,
        valid: json!({}),
        invalid: invalid_value,
        error: invalid("", "type", "/type"),
    };
    vec![
        // `message`: string, required.
        Case {
            tool: "echo",
            valid: json!({"message": "hello"}),
            invalid: json!({"message": 42}),
            error: invalid("/message", "type", "/properties/message/type"),
        },
        // `messageType`: one of `error`, `success`, `debug`, required; `includeImage`: boolean.
        Case {
            tool: "get-annotated-message",
            valid: json!({"messageType": "success", "includeImage": true}),
            invalid: json!({"messageType": "warning"}),
            error: invalid("/messageType", "enum", "/properties/messageType/enum"),
        },
        no_arguments("get-env", json!([])),
        // `count`: number from 1 to 10.
        Case {
            tool: "get-resource-links",
            valid: json!({"count": 10}),
            invalid: json!({"count": 11}),
            error: invalid("/count", "maximum", "/properties/count/maximum"),
        },
        // `resourceType`: `Text` or `Blob`; `resourceId`: number.
        Case {
            tool: "get-resource-reference",
            valid: json!({"resourceType": "Blob", "resourceId": 2}),
            invalid: json!({"resourceType": "Blob", "resourceId": "2"}),
            error: invalid("/resourceId", "type", "/properties/resourceId/type"),
        },
        // `location`: one of three cities, required.
        Case {
            tool: "get-structured-content",
            valid: json!({"location": "Chicago"}),
            invalid: json!({"location": "Paris"}),
            error: invalid("/location", "enum", "/properties/location/enum"),
        },
        // `a` and `b`: numbers, both required (the Python SDK writes `2.0`, the TypeScript
        // client `1e+21`: numbers all the same).
        Case {
            tool: "get-sum",
            valid: json!({"a": 2.0, "b": 1e21}),
            invalid: json!({"a": 1}),
            error: invalid("", "required", "/required"),
        },
        no_arguments("get-tiny-image", json!("image")),
        // `name`: string; `data`: string (`format: uri`, an annotation); `outputType`:
        // `resourceLink` or `resource`.
        Case {
            tool: "gzip-file-as-resource",
            valid: json!({"name": "a.gz", "data": "data:text/plain;base64,aGk=", "outputType": "resource"}),
            invalid: json!({"name": "a.gz", "outputType": "file"}),
            error: invalid("/outputType", "enum", "/properties/outputType/enum"),
        },
        no_arguments("toggle-simulated-logging", json!(true)),
        no_arguments("toggle-subscriber-updates", json!(1)),
        // `duration` and `steps`: numbers.
        Case {
            tool: "trigger-long-running-operation",
            valid: json!({"duration": 0.5, "steps": 3}),
            invalid: json!({"duration": 0.5, "steps": "3"}),
            error: invalid("/steps", "type", "/properties/steps/type"),
        },
        no_arguments("get-roots-list", json!([1])),
        no_arguments("trigger-elicitation-request", json!("go")),
        // `url`: string (`format: uri`), required; `message`, `elicitationId`: strings;
        // `errorPath`: boolean.
        Case {
            tool: "trigger-url-elicitation",
            valid: json!({"url": "https://example.com/consent", "errorPath": true}),
            invalid: json!({"url": "https://example.com/consent", "errorPath": "yes"}),
            error: invalid("/errorPath", "type", "/properties/errorPath/type"),
        },
        // `prompt`: string, required; `maxTokens`: number.
        Case {
            tool: "trigger-sampling-request",
            valid: json!({"prompt": "Say hi", "maxTokens": 50}),
            invalid: json!({"maxTokens": 50}),
            error: invalid("", "required", "/required"),
        },
        // `topic`: string, required; `ambiguous`: boolean.
        Case {
            tool: "simulate-research-query",
            valid: json!({"topic": "JSON Schema dialects", "ambiguous": false}),
            invalid: json!({"topic": "JSON Schema dialects", "ambiguous": 1}),
            error: invalid("/ambiguous", "type", "/properties/ambiguous/type"),
        },
        // As `trigger-sampling-request`.
        Case {
            tool: "trigger-sampling-request-async",
            valid: json!({"prompt": "Say hi"}),
            invalid: json!({"prompt": 3}),
            error: invalid("/prompt", "type", "/properties/prompt/type"),
        },
        no_arguments("trigger-elicitation-request-async", Value::Null),
    ]
}

#[test]
fn each_tool_gets_the_right_verdicts() {
    let tools = tools();
    let cases = cases();
    let listed: BTreeSet<&str> = tools.iter().map(name).collect();
    let covered: BTreeSet<&str> = cases.iter().map(|case| case.tool).collect();
    assert_eq!(listed, covered, "one case per listed tool");
    assert_eq!(cases.len(), tools.len());
    for case in cases {
        let tool = tools
            .iter()
            .find(|tool| name(tool) == case.tool)
            .expect("listed");
        let spec = spec(tool);
        assert_eq!(spec.input_schema().dialect(), Dialect::Draft07);
        assert_eq!(
            spec.validate_arguments(&case.valid),
            Ok(()),
            "{}: {}",
            case.tool,
            case.valid
        );
        assert_eq!(
            spec.validate_arguments(&case.invalid),
            Err(case.error),
            "{}: {}",
            case.tool,
            case.invalid
        );
    }
}

#[test]
fn the_output_schema_checks_structured_content() {
    let tools = tools();
    let tool = tools
        .iter()
        .find(|tool| name(tool) == "get-structured-content")
        .expect("listed");
    let spec = spec(tool);
    let ToolSuccessContract::Json { schema } = &spec.output_contract().success else {
        panic!("a JSON success contract");
    };
    let compiled = SchemaPolicy::default()
        .compile(schema.as_value())
        .expect("compiles");
    let weather = json!({"temperature": 22.5, "conditions": "Sunny", "humidity": 65});
    assert_eq!(compiled.check(&weather), Ok(()));
    let mut windy = weather.clone();
    windy["wind"] = json!(3);
    assert_eq!(
        compiled.check(&windy),
        Err(InstanceError::Invalid {
            instance_pointer: String::new(),
            keyword: "additionalProperties".into(),
            schema_pointer: "/additionalProperties".into(),
        })
    );
    let mut no_humidity = weather;
    no_humidity
        .as_object_mut()
        .expect("an object")
        .remove("humidity");
    assert!(matches!(
        compiled.check(&no_humidity),
        Err(InstanceError::Invalid { keyword, .. }) if keyword == "required"
    ));
}
