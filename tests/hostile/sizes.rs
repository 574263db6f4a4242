//! Size limits: schemas over `max_schema_bytes`, a 50 MB string against the decode limit, and
//! a long string that would be cheap to decode but costly to match (schemas in each dialect).

use serde_json::{json, Value};
use toolcall_contracts::policy::{
    DecodeLimits, InstanceError, LimitError, PolicyError, SchemaPolicy,
};

use crate::{assert_fast, each_dialect, in_dialect};

#[test]
fn schema_over_the_byte_limit() {
    each_dialect(|dialect| {
        let limit = SchemaPolicy::DEFAULT_MAX_SCHEMA_BYTES;
        let schema = in_dialect(dialect, json!({"description": "x".repeat(limit)}));
        let bytes = serde_json::to_vec(&schema).unwrap().len();
        let refused =
            assert_fast("compile", || SchemaPolicy::default().compile(&schema)).unwrap_err();
        assert_eq!(refused, PolicyError::SchemaTooLarge { bytes, limit });
        assert_eq!(
            refused.to_string(),
            format!("schema is `{bytes}` bytes, over `max_schema_bytes` of `{limit}` bytes")
        );
    });
}

#[test]
fn fifty_megabyte_string() {
    let mut text = Vec::with_capacity(50_000_002);
    text.push(b'"');
    text.resize(50_000_001, b'a');
    text.push(b'"');
    let refused =
        assert_fast("decode limits", || DecodeLimits::default().check(&text)).unwrap_err();
    assert_eq!(
        refused,
        LimitError::TooLarge {
            bytes: 50_000_002,
            limit: DecodeLimits::DEFAULT_MAX_BYTES
        }
    );
    assert_eq!(
        refused.to_string(),
        "input is `50000002` bytes, over `max_bytes` of `1048576` bytes"
    );
}

#[test]
fn long_string_against_an_expensive_pattern() {
    let instance = json!({"bits": "01".repeat(500_000)});
    let other = json!({"content": "01".repeat(500_000)});
    each_dialect(|dialect| {
        let schema = json!({"properties": {"bits": {"pattern": "^[01]*1[01]{200}$"}}});
        let compiled = SchemaPolicy::default()
            .compile(&in_dialect(dialect, schema))
            .unwrap();
        let refused = assert_fast("check", || compiled.check(&instance));
        assert!(
            matches!(refused, Err(InstanceError::TooMuchWork { .. })),
            "{refused:?}"
        );
        // The same string under another member name does not pay for the pattern.
        assert_eq!(assert_fast("check", || compiled.check(&other)), Ok(()));
    });
}

#[test]
fn many_values_against_a_large_schema() {
    let instance = Value::Array(vec![json!(1999); 100_000]);
    each_dialect(|dialect| {
        let branches: Vec<Value> = (0..2000).map(|i| json!({"const": i})).collect();
        let compiled = SchemaPolicy::default()
            .compile(&in_dialect(dialect, json!({"items": {"anyOf": branches}})))
            .unwrap();
        let refused = assert_fast("check", || compiled.check(&instance)).unwrap_err();
        let InstanceError::TooMuchWork { work, limit } = refused else {
            panic!("{refused:?}");
        };
        assert_eq!(limit, SchemaPolicy::DEFAULT_MAX_CHECK_WORK);
        assert_eq!(Some(work), compiled.work(&instance));
    });
}
