//! Issue 22, item 5: a tool schema with a recursive model (every pydantic/fastmcp tool taking a
//! tree) was refused by the default policy as a `$ref` cycle, though it costs linear time.
//! Recorded from fastmcp 4.1.6 (`tests/fixtures/mcp/fastmcp/PROVENANCE.md`).

use serde_json::{json, Value};
use toolcall_contracts::policy::{CycleCost, PolicyError, SchemaPolicy};

fn measure_tool_schema() -> Value {
    let recorded = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/mcp/fastmcp/tree.ndjson"
    ))
    .expect("fixture");
    let line: Value = serde_json::from_str(recorded.lines().nth(4).expect("line 5")).expect("json");
    line.pointer("/message/result/tools/0/inputSchema")
        .cloned()
        .expect("the `measure` tool's input schema")
}

fn tree(depth: usize) -> Value {
    let mut node = json!({"name": format!("n{depth}"), "children": []});
    for level in (1..depth).rev() {
        node = json!({"name": format!("n{level}"), "children": [node]});
    }
    node
}

#[test]
fn a_real_tree_model_compiles_under_the_default_policy_and_validates() {
    let schema = measure_tool_schema();
    assert_eq!(
        schema.pointer("/$defs/Node/properties/children/items/$ref"),
        Some(&json!("#/$defs/Node"))
    );
    let compiled = SchemaPolicy::default()
        .compile(&schema)
        .expect("linear cycle");
    compiled
        .check(&json!({"tree": tree(30)}))
        .expect("a 30-level tree is valid");
    let wrong = json!({"tree": {"name": "a", "children": [{"children": []}]}});
    assert!(compiled.check(&wrong).is_err());
}

#[test]
fn a_cycle_that_can_double_is_still_refused_saying_how_to_allow_it() {
    let mut schema = measure_tool_schema();
    // The same model with `children` items as an `anyOf` of two branches back to `Node`.
    schema["$defs"]["Node"]["properties"]["children"]["items"] = json!({"anyOf": [
        {"$ref": "#/$defs/Node"},
        {"$ref": "#/$defs/Node", "required": ["name"]},
    ]});
    let refused = SchemaPolicy::default().compile(&schema).unwrap_err();
    assert!(matches!(
        refused,
        PolicyError::RefCycle {
            why: CycleCost::Exponential,
            ..
        }
    ));
    assert!(refused
        .to_string()
        .ends_with("`SchemaPolicy::with_ref_cycles(true)` allows it (validation then bounded by `max_instance_depth` and `max_check_work`)"));
    assert!(SchemaPolicy::default()
        .with_ref_cycles(true)
        .compile(&schema)
        .is_ok());
}
