//! Pins select schemas: unknown, malformed or hostile pins select nothing, a refused schema is
//! never cached, and concurrent inserts of one schema compile it once.

use std::sync::Arc;

use serde_json::json;
use toolcall_contracts::policy::{PolicyError, SchemaCache, SchemaPolicy};

use crate::{assert_fast, each_dialect, in_dialect};

#[test]
fn unknown_and_malformed_pins() {
    let cache = SchemaCache::default();
    let pin = cache.insert(&json!({"type": "string"})).unwrap();
    assert!(cache.get(&pin).is_some());
    for other in [
        "",
        "0",
        &pin.to_uppercase(),
        &"0".repeat(64),
        "../../etc/passwd",
        &"f".repeat(1 << 20),
    ] {
        assert!(
            assert_fast("get", || cache.get(other)).is_none(),
            "{other:.70}"
        );
    }
}

#[test]
fn refused_schemas_are_not_cached() {
    let cache = SchemaCache::default();
    each_dialect(|dialect| {
        let schema = in_dialect(dialect, json!({"$ref": "https://example.com/s.json"}));
        let refused = cache.insert(&schema);
        assert!(matches!(refused, Err(PolicyError::NonLocalRef { .. })));
    });
    let refused = cache.insert(&json!({"$schema": "http://json-schema.org/draft-04/schema#"}));
    assert!(matches!(
        refused,
        Err(PolicyError::DialectNotAllowed { .. })
    ));
    assert!(cache.is_empty());
}

#[test]
fn the_dialect_is_part_of_the_pin() {
    let cache = SchemaCache::default();
    let mut pins = Vec::new();
    each_dialect(|dialect| {
        let schema = json!({"$schema": dialect.uri(), "items": {"type": "string"}});
        let (pin, compiled) = cache.insert_compiled(&schema).unwrap();
        assert_eq!(compiled.dialect(), dialect);
        assert_eq!(cache.get(&pin).unwrap().dialect(), dialect);
        pins.push(pin);
    });
    pins.dedup();
    assert_eq!(pins.len(), 3);
    assert_eq!(cache.len(), 3);
}

#[test]
fn concurrent_inserts_compile_once() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<SchemaCache>();

    let cache = Arc::new(SchemaCache::new(SchemaPolicy::default()));
    let schema = json!({"type": "object", "properties": {"a": {"pattern": "^[a-z]+$"}}});
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let cache = Arc::clone(&cache);
            let schema = schema.clone();
            std::thread::spawn(move || cache.insert_compiled(&schema).unwrap())
        })
        .collect();
    let results: Vec<_> = handles
        .into_iter()
        .map(|handle| handle.join().unwrap())
        .collect();
    assert_eq!(cache.len(), 1);
    let (pin, first) = &results[0];
    for (other_pin, other) in &results {
        assert_eq!(other_pin, pin);
        assert!(Arc::ptr_eq(other, first));
    }
    assert_eq!(first.pin(), pin);
}
