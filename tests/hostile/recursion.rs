//! A recursive `anyOf` whose two branches both descend: `validate` on a failing instance
//! explores both branches at every level, so time and memory double with each level of
//! instance depth. Refused as a cycle by default; with cycles allowed, bounded only by the
//! instance depth limit.

use serde_json::{json, Value};
use toolcall_contracts::policy::{
    DecodeLimits, InstanceError, LimitError, PolicyError, SchemaPolicy,
};

use crate::{assert_fast, drop_deep, nested_arrays};

fn two_branches() -> Value {
    json!({
        "$defs": {"n": {"anyOf": [
            {"type": "array", "items": {"$ref": "#/$defs/n"}},
            {"type": "array", "items": {"$ref": "#/$defs/n"}, "minItems": 1},
        ]}},
        "$ref": "#/$defs/n",
    })
}

#[test]
fn refused_as_a_cycle_by_default() {
    let refused = assert_fast("compile", || {
        SchemaPolicy::default().compile(&two_branches())
    });
    let refused = refused.unwrap_err();
    assert_eq!(
        refused,
        PolicyError::RefCycle {
            keyword: "$ref",
            pointer: "/$defs/n/anyOf/0/items/$ref".into(),
            target: "/$defs/n".into(),
        }
    );
    assert_eq!(
        refused.to_string(),
        "`$ref` at `/$defs/n/anyOf/0/items/$ref` leads back to `/$defs/n`, a cycle, and `allow_ref_cycles` is off"
    );
}

#[test]
fn dynamic_ref_cycles_too() {
    let schema = json!({"$dynamicAnchor": "node", "items": {"$dynamicRef": "#node"}});
    assert!(matches!(
        assert_fast("compile", || SchemaPolicy::default().compile(&schema)),
        Err(PolicyError::RefCycle {
            keyword: "$dynamicRef",
            ..
        })
    ));
    let schema = json!({"$ref": "#"});
    assert!(matches!(
        assert_fast("compile", || SchemaPolicy::default().compile(&schema)),
        Err(PolicyError::RefCycle { .. })
    ));
}

#[test]
fn with_cycles_allowed_the_instance_depth_bounds_it() {
    let policy = SchemaPolicy::default()
        .with_ref_cycles(true)
        .with_max_instance_depth(10);
    let compiled = assert_fast("compile", || policy.compile(&two_branches())).unwrap();

    // Within the depth limit: a failing leaf makes both branches descend at every level.
    let shallow = nested_arrays(10, json!("leaf"));
    let start = std::time::Instant::now();
    let verdict = assert_fast("depth 10", || compiled.check(&shallow));
    eprintln!(
        "recursive anyOf, cycles allowed, depth 10: {:?}",
        start.elapsed()
    );
    assert!(
        matches!(verdict, Err(InstanceError::Invalid { ref keyword, .. }) if keyword == "anyOf"),
        "{verdict:?}"
    );

    // Past it: refused before validation starts, however deep (no stack overflow either).
    for depth in [11, 64, 100_000] {
        let deep = nested_arrays(depth, json!("leaf"));
        assert_eq!(
            assert_fast("deep", || compiled.check(&deep)),
            Err(InstanceError::TooDeep {
                depth: 11,
                limit: 10
            })
        );
        drop_deep(deep);
    }

    // The same instance as JSON text is refused before it is parsed.
    let text = format!("{}\"leaf\"{}", "[".repeat(100_000), "]".repeat(100_000));
    let limits = DecodeLimits::default();
    assert_eq!(
        assert_fast("decode limits", || limits.check(text.as_bytes())),
        Err(LimitError::TooDeep {
            depth: 65,
            limit: 64,
            offset: 64
        })
    );
}
