//! Shared fixtures of the hops tests.

use std::time::Duration;

use serde_json::{json, Value};
use toolcall_contracts::canonical::{ToolExecutionClass, ToolId, ToolLimits, ToolSpec};
use toolcall_contracts::mcp::v2025_11_25::Tool;
use toolcall_hops::mcp_tool::{to_tool_spec, ToolRegistration};
use toolcall_hops::Change;

pub const TOOLS_LIST: &str =
    include_str!("../../../tests/fixtures/mcp/server-everything/tools-list.json");
pub const TRANSCRIPT: &str =
    include_str!("../../../tests/fixtures/mcp/server-everything/transcript.ndjson");

/// The 19 tools of server-everything, typed.
pub fn tools() -> Vec<Tool> {
    let listed: Value = serde_json::from_str(TOOLS_LIST).expect("the fixture is JSON");
    serde_json::from_value(listed["tools"].clone()).expect("MCP 2025-11-25 tools")
}

/// The registration a gateway gives every server-everything tool.
pub fn registration(name: &str) -> ToolRegistration {
    ToolRegistration::new(
        ToolId::try_new(format!("everything/{name}@1")).expect("a tool id"),
        ToolLimits::default(),
        ToolExecutionClass::CooperativeInProcess {
            grace: Duration::from_millis(100),
        },
    )
}

/// A small spec: `echo`, one required string argument.
pub fn echo_spec() -> ToolSpec {
    serde_json::from_value(json!({
        "id": "everything/echo@1",
        "name": "echo",
        "description": "Echoes back the input string",
        "input_schema": {
            "type": "object",
            "properties": {"message": {"type": "string"}},
            "required": ["message"]
        },
        "output_contract": {"success": {"type": "text", "media_type": "text/plain"}},
        "limits": {"max_concurrent": 1, "max_input_bytes": 1048576, "max_output_bytes": 1048576,
                   "execution_deadline_ms": 30000},
        "execution_class": {"type": "cooperative_in_process", "grace_ms": 100}
    }))
    .expect("a valid spec")
}

/// Every spec of server-everything.
pub fn specs() -> Vec<ToolSpec> {
    tools()
        .iter()
        .map(|tool| {
            to_tool_spec(tool, &registration(&tool.name))
                .expect("every server-everything tool converts")
                .value
        })
        .collect()
}

/// The report as JSON, for exact comparison.
pub fn report(changes: &[Change]) -> Value {
    serde_json::to_value(changes).expect("a report encodes")
}

/// Asserts that each message is a valid ACP `session/update` notification, as the official ACP
/// schema (`toolcall_contracts::acp::SCHEMA_JSON`) defines it: checked by the `jsonschema` crate,
/// independently of the conversions under test.
pub fn assert_session_updates(messages: &[Value]) {
    let acp: Value =
        serde_json::from_str(toolcall_contracts::acp::SCHEMA_JSON).expect("the ACP schema is JSON");
    let schema = json!({"$ref": "#/$defs/SessionNotification", "$defs": acp["$defs"]});
    let validator = jsonschema::draft202012::options()
        .build(&schema)
        .expect("the ACP schema compiles");
    for (index, message) in messages.iter().enumerate() {
        assert_eq!(message["jsonrpc"], "2.0", "message {index}: {message}");
        assert_eq!(
            message["method"], "session/update",
            "message {index}: {message}"
        );
        assert!(
            message.get("id").is_none(),
            "message {index} is a notification"
        );
        if let Err(error) = validator.validate(&message["params"]) {
            panic!(
                "message {index}: {error} at {}: {message}",
                error.instance_path()
            );
        }
    }
}
