//! Pins select schemas: unknown, malformed or hostile pins select nothing, a refused schema is
//! never cached, and concurrent inserts of one schema compile it once.

use std::sync::Arc;

use serde_json::json;
use toolcall_contracts::policy::{PolicyError, SchemaCache, SchemaPolicy};

use crate::assert_fast;

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
    let refused = cache.insert(&json!({"$ref": "https://example.com/s.json"}));
    assert!(matches!(refused, Err(PolicyError::NonLocalRef { .. })));
    assert!(cache.is_empty());
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
