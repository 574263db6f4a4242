//! Schemas that fill a limit without passing it: the slowest to compile, in each dialect. Run
//! with `--release -- --nocapture` to see the times the module docs quote.

use std::time::Instant;

use serde_json::{json, Map, Value};
use toolcall_contracts::policy::{Dialect, SchemaPolicy};

use crate::{def_ref, defs, each_dialect, in_dialect, BOUND};

/// In each dialect, grows `make(dialect, n)` while it stays within the byte limit, then
/// compiles the largest.
fn largest_accepted(label: &str, make: impl Fn(Dialect, usize) -> Value) {
    each_dialect(|dialect| {
        largest_accepted_in(&format!("{label} ({dialect})"), |n| {
            in_dialect(dialect, make(dialect, n))
        });
    });
}

/// Grows `make(n)` while it stays within the byte limit, then compiles the largest.
fn largest_accepted_in(label: &str, make: impl Fn(usize) -> Value) {
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
    largest_accepted("$ref chain", |dialect, n| {
        let mut definitions = Map::new();
        for i in 0..n {
            definitions.insert(
                format!("{i}"),
                json!({"$ref": def_ref(dialect, &(i + 1).to_string())}),
            );
        }
        definitions.insert(format!("{n}"), json!({"type": "integer"}));
        json!({defs(dialect): definitions, "$ref": def_ref(dialect, "0")})
    });
}

#[test]
fn many_properties() {
    largest_accepted("properties", |_, n| {
        let properties: Map<String, Value> = (0..n)
            .map(|i| (format!("p{i}"), json!({"type": "integer", "minimum": i})))
            .collect();
        json!({"type": "object", "properties": properties, "required": ["p0"]})
    });
}

#[test]
fn regex_budget_filled() {
    largest_accepted("regexes", |_, n| {
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
    largest_accepted("diamond", |dialect, levels| {
        let mut definitions = Map::new();
        definitions.insert("d0".into(), json!({"type": "integer", "minimum": 0}));
        for level in 1..=levels.min(40) {
            let down = def_ref(dialect, &format!("d{}", level - 1));
            definitions.insert(
                format!("d{level}"),
                json!({"allOf": [{"$ref": down}, {"$ref": down}]}),
            );
        }
        let top = def_ref(dialect, &format!("d{}", levels.min(40)));
        json!({defs(dialect): definitions, "$ref": top})
    });
}

#[test]
fn large_enum() {
    largest_accepted(
        "enum",
        |_, n| json!({"enum": (0..n).map(|i| json!({"k": i})).collect::<Vec<_>>()}),
    );
}

#[test]
fn long_tuple() {
    largest_accepted("tuple", |dialect, n| {
        let items: Vec<Value> = (0..n)
            .map(|i| json!({"type": "integer", "minimum": i}))
            .collect();
        json!({crate::tuple(dialect): items})
    });
}

#[test]
fn many_dependencies() {
    largest_accepted("dependencies", |_, n| {
        let dependencies: Map<String, Value> = (0..n)
            .map(|i| (format!("p{i}"), json!({"required": [format!("q{i}")]})))
            .collect();
        json!({"dependencies": dependencies})
    });
}
