//! Definitions that fan out through `allOf` + `$ref` pairs: about 1.5 KB of schema that
//! expands to 2^30 subschemas (`jsonschema` alone takes seconds per integer on fewer levels).
//! The expansion count is memoized over the reference graph, so the refusal is immediate.

use serde_json::{json, Map, Value};
use toolcall_contracts::policy::{PolicyError, SchemaPolicy};

use crate::assert_fast;

fn fan_out(
    levels: usize,
    reference: impl Fn(usize) -> String,
    defs: impl Fn(usize) -> Value,
) -> Value {
    let mut definitions = Map::new();
    definitions.insert("d0".into(), defs(0));
    for level in 1..=levels {
        let down = reference(level - 1);
        let mut def = json!({"allOf": [{"$ref": down}, {"$ref": down}]});
        if let (Value::Object(def), Value::Object(extra)) = (&mut def, defs(level)) {
            def.extend(extra);
        }
        definitions.insert(format!("d{level}"), def);
    }
    json!({"$defs": definitions, "$ref": reference(levels)})
}

#[test]
fn thirty_levels_by_pointer() {
    let schema = fan_out(
        30,
        |level| format!("#/$defs/d{level}"),
        |level| {
            if level == 0 {
                json!({"type": "integer"})
            } else {
                json!({})
            }
        },
    );
    assert!(serde_json::to_vec(&schema).unwrap().len() < 2048);
    let refused = assert_fast("fan-out", || SchemaPolicy::default().compile(&schema)).unwrap_err();
    let PolicyError::ExpandedTooLarge { size, limit } = refused else {
        panic!("{refused:?}");
    };
    assert_eq!(limit, SchemaPolicy::DEFAULT_MAX_EXPANDED_SIZE);
    assert!(size > limit);
}

#[test]
fn thirty_levels_by_anchor() {
    let schema = fan_out(
        30,
        |level| format!("#d{level}"),
        |level| json!({"$anchor": format!("d{level}")}),
    );
    let refused = assert_fast("fan-out", || SchemaPolicy::default().compile(&schema)).unwrap_err();
    assert!(
        matches!(refused, PolicyError::ExpandedTooLarge { .. }),
        "{refused:?}"
    );
}

#[test]
fn a_few_levels_compile_and_validate() {
    let schema = fan_out(
        8,
        |level| format!("#/$defs/d{level}"),
        |level| {
            if level == 0 {
                json!({"type": "integer"})
            } else {
                json!({})
            }
        },
    );
    let compiled = assert_fast("compile", || SchemaPolicy::default().compile(&schema)).unwrap();
    assert!(compiled.expanded_size() > 256);
    assert_eq!(assert_fast("check", || compiled.check(&json!(1))), Ok(()));
    assert!(assert_fast("check", || compiled.check(&json!("x"))).is_err());
}
