//! Schemas that fill a limit without passing it: the slowest to compile. Run with
//! `--release -- --nocapture` to see the times the module docs quote.

use std::time::Instant;

use serde_json::{json, Map, Value};
use toolcall_contracts::policy::SchemaPolicy;

use crate::BOUND;

/// Grows `make(n)` while it stays within the byte limit, then compiles the largest.
fn largest_accepted(label: &str, make: impl Fn(usize) -> Value) {
    let policy = SchemaPolicy::default();
    let fits = |n| {
        let schema = make(n);
        serde_json::to_vec(&schema).unwrap().len() <= policy.max_schema_bytes
            && policy.compile(&schema).is_ok()
    };
    let (mut low, mut high) = (1usize, 2usize);
    while fits(high) {
        (low, high) = (high, high * 2);
    }
    while high - low > 1 {
        let middle = (low + high) / 2;
        if fits(middle) {
            low = middle
        } else {
            high = middle
        }
    }
    let schema = make(low);
    let start = Instant::now();
    let compiled = policy.compile(&schema).expect("fits");
    let elapsed = start.elapsed();
    eprintln!(
        "{label}: n = {low}, {} bytes, expanded size {}, compiled in {elapsed:?}",
        serde_json::to_vec(&schema).unwrap().len(),
        compiled.expanded_size()
    );
    assert!(elapsed < BOUND, "{label}: {elapsed:?}");
}

#[test]
fn long_reference_chain() {
    largest_accepted("$ref chain", |n| {
        let mut defs = Map::new();
        for i in 0..n {
            defs.insert(
                format!("{i}"),
                json!({"$ref": format!("#/$defs/{}", i + 1)}),
            );
        }
        defs.insert(format!("{n}"), json!({"type": "integer"}));
        json!({"$defs": defs, "$ref": "#/$defs/0"})
    });
}

#[test]
fn many_properties() {
    largest_accepted("properties", |n| {
        let properties: Map<String, Value> = (0..n)
            .map(|i| (format!("p{i}"), json!({"type": "integer", "minimum": i})))
            .collect();
        json!({"type": "object", "properties": properties, "required": ["p0"]})
    });
}

#[test]
fn regex_budget_filled() {
    largest_accepted("regexes", |n| {
        let properties: Map<String, Value> = (0..n)
            .map(|i| {
                (
                    format!("p{i}"),
                    json!({"pattern": format!("^(?:[a-z]|[0-9]){{{}}}$", 50 + i)}),
                )
            })
            .collect();
        json!({"properties": properties})
    });
}

#[test]
fn diamond_under_the_expanded_limit() {
    largest_accepted("diamond", |levels| {
        let mut defs = Map::new();
        defs.insert("d0".into(), json!({"type": "integer", "minimum": 0}));
        for level in 1..=levels.min(40) {
            let down = format!("#/$defs/d{}", level - 1);
            defs.insert(
                format!("d{level}"),
                json!({"allOf": [{"$ref": down}, {"$ref": down}]}),
            );
        }
        json!({"$defs": defs, "$ref": format!("#/$defs/d{}", levels.min(40))})
    });
}

#[test]
fn large_enum() {
    largest_accepted(
        "enum",
        |n| json!({"enum": (0..n).map(|i| json!({"k": i})).collect::<Vec<_>>()}),
    );
}
