//! MCP `Tool` ↔ canonical `ToolSpec`.

use serde_json::json;
use toolcall_contracts::canonical::{ToolContractError, ToolName};
use toolcall_contracts::mcp::v2025_11_25::Tool;
use toolcall_hops::mcp_tool::{from_tool_spec, to_tool_spec, McpToolError};

use super::support::{echo_spec, registration, report, tools};

#[test]
fn a_recorded_tool_with_an_output_schema_converts_with_what_it_drops_reported() {
    let tool = tools()
        .into_iter()
        .find(|tool| tool.name == "get-structured-content")
        .unwrap();
    let wire = serde_json::to_value(&tool).unwrap();
    let spec = to_tool_spec(&tool, &registration("get-structured-content")).unwrap();
    assert_eq!(
        serde_json::to_value(&spec.value).unwrap(),
        json!({
            "id": "everything/get-structured-content@1",
            "name": "get-structured-content",
            "description": wire["description"],
            "input_schema": wire["inputSchema"],
            "output_contract": {"success": {"type": "json", "schema": wire["outputSchema"]}},
            "limits": {"max_concurrent": 1, "max_input_bytes": 1048576,
                       "max_output_bytes": 1048576, "execution_deadline_ms": 30000},
            "execution_class": {"type": "cooperative_in_process", "grace_ms": 100}
        })
    );
    assert_eq!(
        report(&spec.report),
        json!([
            {"kind": "dropped", "from": "/annotations", "value": wire["annotations"],
             "reason": "the canonical tool has no annotations"},
            {"kind": "dropped", "from": "/execution", "value": {"taskSupport": "forbidden"},
             "reason": "the canonical tool has no task support member"},
            {"kind": "dropped", "from": "/title", "value": "Get Structured Content Tool",
             "reason": "the canonical tool has no title"}
        ])
    );
}

#[test]
fn absent_and_multi_line_descriptions_and_absent_output_schemas_are_reported() {
    let tool: Tool = serde_json::from_value(json!({
        "name": "fs.read",
        "inputSchema": {"type": "object"}
    }))
    .unwrap();
    let spec = to_tool_spec(&tool, &registration("fs.read")).unwrap();
    assert_eq!(spec.value.description, "");
    assert_eq!(
        report(&spec.report),
        json!([
            {"kind": "defaulted", "to": "/description", "value": "",
             "reason": "MCP `description` is absent; the canonical description is required"},
            {"kind": "defaulted", "to": "/output_contract/success",
             "value": {"type": "text", "media_type": "text/plain"},
             "reason": "MCP `outputSchema` is absent: the tool answers with content blocks, text of the registration's media type"}
        ])
    );
    let tool: Tool = serde_json::from_value(json!({
        "name": "fs.read",
        "description": "Reads a file.\nSee the docs.",
        "inputSchema": {"type": "object"},
        "outputSchema": {"type": "object"}
    }))
    .unwrap();
    let spec = to_tool_spec(&tool, &registration("fs.read")).unwrap();
    assert_eq!(spec.value.description, "Reads a file. See the docs.");
    assert_eq!(
        report(&spec.report),
        json!([{"kind": "derived", "from": "/description", "to": "/description",
                "value": "Reads a file. See the docs.",
                "reason": "control characters replaced by spaces (the canonical description is one line)"}])
    );
}

#[test]
fn a_name_with_a_slash_is_refused_unless_the_registration_names_the_tool() {
    let tool: Tool = serde_json::from_value(json!({
        "name": "fs/read", "description": "d", "inputSchema": {"type": "object"}
    }))
    .unwrap();
    let error = to_tool_spec(&tool, &registration("fs")).unwrap_err();
    assert!(matches!(
        error,
        McpToolError::Canonical {
            pointer: "/name",
            source: ToolContractError::InvalidId { .. }
        }
    ));
    assert!(
        error.to_string().starts_with("`/name` is refused: "),
        "{error}"
    );
    let mut named = registration("fs");
    named.name = Some(ToolName::try_new("fs_read").unwrap());
    let spec = to_tool_spec(&tool, &named).unwrap();
    assert_eq!(spec.value.name.as_str(), "fs_read");
    assert_eq!(
        report(&spec.report)[0],
        json!({"kind": "derived", "from": "/name", "to": "/name", "value": "fs_read",
               "reason": "the registration names the tool"})
    );
}

#[test]
fn a_spec_converts_to_an_mcp_tool_with_its_runtime_details_reported() {
    let tool = from_tool_spec::<Tool>(&echo_spec()).unwrap();
    assert_eq!(
        serde_json::to_value(&tool.value).unwrap(),
        json!({
            "name": "echo",
            "description": "Echoes back the input string",
            "inputSchema": {
                "type": "object",
                "properties": {"message": {"type": "string"}},
                "required": ["message"]
            }
        })
    );
    assert_eq!(
        report(&tool.report),
        json!([
            {"kind": "dropped", "from": "/output_contract/success/media_type", "value": "text/plain",
             "reason": "MCP has no member for the media type of a tool's text output"},
            {"kind": "dropped", "from": "/id", "value": "everything/echo@1",
             "reason": "runtime detail of the canonical tool; MCP has no member for it"},
            {"kind": "dropped", "from": "/limits",
             "value": {"max_concurrent": 1, "max_input_bytes": 1048576,
                       "max_output_bytes": 1048576, "execution_deadline_ms": 30000},
             "reason": "runtime detail of the canonical tool; MCP has no member for it"},
            {"kind": "dropped", "from": "/execution_class",
             "value": {"type": "cooperative_in_process", "grace_ms": 100},
             "reason": "runtime detail of the canonical tool; MCP has no member for it"}
        ])
    );
}

#[test]
fn every_recorded_tool_converts_and_back_keeping_name_description_and_schemas() {
    for tool in tools() {
        let wire = serde_json::to_value(&tool).unwrap();
        let spec = to_tool_spec(&tool, &registration(&tool.name)).unwrap();
        let back = from_tool_spec::<Tool>(&spec.value).unwrap();
        let back = serde_json::to_value(&back.value).unwrap();
        for member in ["name", "description", "inputSchema", "outputSchema"] {
            assert_eq!(back.get(member), wire.get(member), "{} {member}", tool.name);
        }
    }
}

#[test]
fn a_non_object_input_schema_has_no_mcp_form() {
    let mut wire = serde_json::to_value(echo_spec()).unwrap();
    wire["input_schema"] = json!({"type": "array"});
    let spec = serde_json::from_value(wire).unwrap();
    let error = from_tool_spec::<Tool>(&spec).unwrap_err();
    assert_eq!(
        error.to_string(),
        "`/input_schema` must be an object schema with `\"type\": \"object\"` for MCP, found `\"array\"`"
    );
}

#[cfg(feature = "mcp-2025-06-18")]
#[test]
fn mcp_2025_06_18_tools_convert_the_same_way() {
    use toolcall_contracts::mcp::v2025_06_18::Tool as Tool0618;
    let tool: Tool0618 = serde_json::from_value(json!({
        "name": "echo", "description": "Echoes back the input string",
        "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}},
                        "required": ["message"]},
        "annotations": {"readOnlyHint": true}
    }))
    .unwrap();
    let spec = to_tool_spec(&tool, &registration("echo")).unwrap();
    assert_eq!(spec.value, echo_spec());
    assert_eq!(spec.report.len(), 2, "{:?}", spec.report);
    let back = from_tool_spec::<Tool0618>(&spec.value).unwrap();
    assert_eq!(back.value.name, "echo");
}

#[cfg(feature = "mcp-2026-07-28")]
#[test]
fn mcp_2026_07_28_tools_convert_the_same_way() {
    use toolcall_contracts::mcp::v2026_07_28::Tool as Tool0728;
    let tool: Tool0728 = serde_json::from_value(json!({
        "name": "echo", "description": "Echoes back the input string",
        "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}},
                        "required": ["message"]}
    }))
    .unwrap();
    let spec = to_tool_spec(&tool, &registration("echo")).unwrap();
    assert_eq!(spec.value, echo_spec());
    let back = from_tool_spec::<Tool0728>(&spec.value).unwrap();
    assert_eq!(
        serde_json::to_value(&back.value).unwrap(),
        serde_json::to_value(&tool).unwrap()
    );
}

#[cfg(feature = "mcp-2026-07-28")]
#[test]
fn mcp_2026_07_28_takes_any_output_schema_object_and_older_versions_an_object_type() {
    use toolcall_contracts::mcp::v2026_07_28::Tool as Tool0728;
    let mut wire = serde_json::to_value(echo_spec()).unwrap();
    wire["output_contract"] = json!({"success": {"type": "json", "schema": {"type": "array", "items": {"type": "integer"}}}});
    let spec = serde_json::from_value(wire).unwrap();
    let tool = from_tool_spec::<Tool0728>(&spec).unwrap();
    assert_eq!(
        serde_json::to_value(&tool.value).unwrap()["outputSchema"],
        json!({"type": "array", "items": {"type": "integer"}})
    );
    assert!(tool
        .report
        .iter()
        .all(|change| change.from.as_deref() != Some("/output_contract/success/schema")));
    let older = from_tool_spec::<Tool>(&spec).unwrap();
    assert_eq!(
        serde_json::to_value(&older.report[0]).unwrap(),
        json!({"kind": "dropped", "from": "/output_contract/success/schema",
               "value": {"type": "array", "items": {"type": "integer"}},
               "reason": "MCP `outputSchema` must be an object schema with `\"type\": \"object\"` in this version"})
    );
}
