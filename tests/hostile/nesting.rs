//! Nesting past the limits, in schemas (of each dialect) and in instances, as JSON text and as
//! values built in code (which serde_json's 128-level parse limit never saw). Every depth check
//! is iterative: a value 100 000 levels deep is refused without overflowing the stack.

use serde_json::{json, Value};
use toolcall_contracts::policy::{
    DecodeLimits, InstanceError, LimitError, PolicyError, SchemaPolicy,
};

use crate::{assert_fast, drop_deep, each_dialect, in_dialect, nested_arrays};

/// A schema `levels` `properties` deep (two JSON levels per schema level).
fn deep_schema(levels: usize) -> Value {
    let mut schema = json!({"type": "integer"});
    for _ in 0..levels {
        schema = json!({"type": "object", "properties": {"a": schema}});
    }
    schema
}

#[test]
fn schema_past_the_depth_limit() {
    let policy = SchemaPolicy::default();
    let limit = SchemaPolicy::DEFAULT_MAX_SCHEMA_DEPTH;
    each_dialect(|dialect| {
        // `levels` schema levels nest `2 * levels + 1` JSON containers.
        let fits = in_dialect(dialect, deep_schema((limit - 1) / 2));
        assert!(assert_fast("compile", || policy.compile(&fits)).is_ok());
        let over = in_dialect(dialect, deep_schema(limit / 2));
        let refused = assert_fast("compile", || policy.compile(&over)).unwrap_err();
        assert_eq!(
            refused,
            PolicyError::SchemaTooDeep {
                depth: limit + 1,
                limit
            }
        );
        assert_eq!(
            refused.to_string(),
            format!(
                "schema nesting depth reaches `{}`, over `max_schema_depth` of `{limit}`",
                limit + 1
            )
        );
    });
}

#[test]
fn schema_built_in_code_100_000_deep() {
    each_dialect(|dialect| {
        let mut schema = json!({});
        for _ in 0..100_000 {
            // Not `json!({"not": schema})`: `json!` serializes an interpolated value,
            // recursively.
            let mut wrapper = serde_json::Map::new();
            wrapper.insert("not".into(), schema);
            schema = Value::Object(wrapper);
        }
        let schema = in_dialect(dialect, schema);
        let refused = assert_fast("compile", || SchemaPolicy::default().compile(&schema));
        assert!(
            matches!(refused, Err(PolicyError::SchemaTooDeep { .. })),
            "{refused:?}"
        );
        drop_deep(schema);
    });
}

#[test]
fn schema_text_past_serde_json_limit() {
    // serde_json refuses to parse it at all (recursion limit 128).
    let text = format!("{}{}", r#"{"not":"#.repeat(200), "}".repeat(200));
    assert!(serde_json::from_str::<Value>(&text).is_err());
}

#[test]
fn instance_past_the_depth_limit() {
    each_dialect(|dialect| {
        let compiled = SchemaPolicy::default()
            .compile(&in_dialect(dialect, json!({})))
            .unwrap();
        let fits = nested_arrays(64, json!(1));
        assert_eq!(assert_fast("64 deep", || compiled.check(&fits)), Ok(()));
        for depth in [65, 1000, 100_000] {
            let deep = nested_arrays(depth, json!(1));
            assert_eq!(
                assert_fast("deep", || compiled.check(&deep)),
                Err(InstanceError::TooDeep {
                    depth: 65,
                    limit: 64
                })
            );
            drop_deep(deep);
        }
    });
}

#[test]
fn instance_text_past_the_depth_limit() {
    let limits = DecodeLimits::default();
    let fits = format!("{}{}", "[".repeat(64), "]".repeat(64));
    assert_eq!(limits.check(fits.as_bytes()), Ok(()));
    let objects = format!("{}1{}", r#"{"a":"#.repeat(65), "}".repeat(65));
    let refused = assert_fast("objects", || limits.check(objects.as_bytes())).unwrap_err();
    assert_eq!(
        refused,
        LimitError::TooDeep {
            depth: 65,
            limit: 64,
            offset: 64 * 5
        }
    );
    assert_eq!(
        refused.to_string(),
        "input nesting depth reaches `65` at byte `320`, over `max_depth` of `64`"
    );
    // Brackets inside strings, escaped quotes included, do not count.
    let strings = format!(r#"["{}\"{}"]"#, "[".repeat(1000), "{".repeat(1000));
    assert_eq!(limits.check(strings.as_bytes()), Ok(()));
}
