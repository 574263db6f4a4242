//! Validation work near the default budget: adversarial schemas (each within every schema
//! limit, in each dialect that has their keywords) against instances scaled to just under
//! `max_check_work`. Each check must finish well inside the bound; run with
//! `--release -- --nocapture` to see the times the module docs quote.

use std::time::Instant;

use serde_json::{json, Map, Value};
use toolcall_contracts::policy::{CompiledSchema, Dialect, InstanceError, SchemaPolicy};

use crate::{assert_fast, in_dialect, tuple, BOUND};

/// [`at_budget_in`] in each dialect.
fn at_budget(label: &str, schema: &Value, make: impl Fn(usize) -> Value) {
    at_budget_in(&Dialect::ALL, label, |_| schema.clone(), &make);
}

/// [`at_budget_once`] for `schema(dialect)` in each of `dialects`.
fn at_budget_in(
    dialects: &[Dialect],
    label: &str,
    schema: impl Fn(Dialect) -> Value,
    make: impl Fn(usize) -> Value,
) {
    for &dialect in dialects {
        let schema = in_dialect(dialect, schema(dialect));
        at_budget_once(&format!("{label} ({dialect})"), &schema, &make);
    }
}

/// Compiles `schema`, builds the largest instance `make(n)` whose work stays under the budget,
/// checks it, and returns the elapsed time and work. Also checks that twice that instance is
/// refused as too much work, quickly.
fn at_budget_once(label: &str, schema: &Value, make: impl Fn(usize) -> Value) {
    let policy = SchemaPolicy::default();
    let compiled = policy
        .compile(schema)
        .expect("the schema is within the policy");
    let budget = policy.max_check_work;
    // Debug builds run up to 50 times slower per unit (`unevaluatedProperties` worst): check a
    // quarter of the budget there so that a loaded CI machine stays far inside the bound.
    let share = if cfg!(debug_assertions) { 4 } else { 1 };
    let probe = 64;
    let probe_work = work(&compiled, &make(probe));
    let n = u128::from(budget) * 9 / 10 / share * probe as u128 / u128::from(probe_work);
    let n = usize::try_from(n).expect("fits");
    let instance = make(n);
    let units = work(&compiled, &instance);
    assert!(units <= budget, "{label}: {units} over {budget}");
    let start = Instant::now();
    let verdict = compiled.check(&instance);
    let elapsed = start.elapsed();
    eprintln!(
        "{label}: n = {n}, {units} units, {elapsed:?} ({:.2} ns/unit), valid = {}",
        elapsed.as_nanos() as f64 / units as f64,
        verdict.is_ok()
    );
    assert!(elapsed < BOUND, "{label}: {elapsed:?}");
    let twice = make(2 * share as usize * n + probe);
    let refused = assert_fast(label, || compiled.check(&twice));
    assert!(
        matches!(refused, Err(InstanceError::TooMuchWork { limit, .. }) if limit == budget),
        "{label}: {refused:?}"
    );
}

fn work(compiled: &CompiledSchema, instance: &Value) -> u64 {
    compiled.work(instance).expect("shallow instance")
}

fn zeros(n: usize) -> Value {
    Value::Array(vec![json!(0); n])
}

/// A string of `n` pseudo-random `0`/`1` bytes ending in `0`s, so that no `1[01]{k}$` matches.
fn bits(n: usize) -> String {
    (0..n)
        .map(|i| {
            let mixed = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
            if mixed & 1 == 1 && i + 2100 < n {
                '1'
            } else {
                '0'
            }
        })
        .collect()
}

#[test]
fn many_applicators_per_item() {
    let subschemas: Vec<Value> = (0..1000).map(|_| json!({"minimum": 0})).collect();
    at_budget(
        "allOf of 1000 minimum",
        &json!({"items": {"allOf": subschemas}}),
        zeros,
    );
}

#[test]
fn any_of_scanned_to_the_last_branch() {
    let branches: Vec<Value> = (1..1000)
        .map(|i| json!({"const": i}))
        .chain([json!({"const": 0})])
        .collect();
    at_budget(
        "anyOf of 1000 const",
        &json!({"items": {"anyOf": branches}}),
        zeros,
    );
}

#[test]
fn negations() {
    let negations: Vec<Value> = (1..1000).map(|i| json!({"not": {"const": i}})).collect();
    at_budget(
        "allOf of 1000 not-const",
        &json!({"items": {"allOf": negations}}),
        zeros,
    );
}

#[test]
fn enum_of_objects() {
    let options: Vec<Value> = (1..1000)
        .map(|i| json!({"a": [i]}))
        .chain([json!({"a": [0]})])
        .collect();
    at_budget(
        "enum of 1000 objects",
        &json!({"items": {"enum": options}}),
        |n| Value::Array(vec![json!({"a": [0]}); n]),
    );
}

#[test]
fn conditionals() {
    let conditionals: Vec<Value> = (0..300)
        .map(|i| json!({"if": {"minimum": i}, "then": {"maximum": 100_000}, "else": {"type": "integer"}}))
        .collect();
    at_budget(
        "allOf of 300 if/then/else",
        &json!({"items": {"allOf": conditionals}}),
        zeros,
    );
}

#[test]
fn large_regexes_on_one_long_string() {
    let patterns: Vec<Value> = (0..8)
        .map(|i| json!({"pattern": format!("^[01]*1[01]{{{}}}$", 300 + i)}))
        .collect();
    at_budget(
        "8 regexes [01]*1[01]{300}",
        &json!({"properties": {"bits": {"allOf": patterns}}}),
        |n| json!({"bits": bits(n)}),
    );
}

#[test]
fn regexes_on_many_member_names() {
    let patterns: serde_json::Map<String, Value> = (0..20)
        .map(|i| (format!("^[0-9]*{i}[0-9]{{4}}$"), json!({"type": "integer"})))
        .collect();
    at_budget(
        "20 patternProperties",
        &json!({"patternProperties": patterns}),
        |n| Value::Object((0..n).map(|i| (format!("{i:010}"), json!(0))).collect()),
    );
}

#[test]
fn unique_strings() {
    at_budget("uniqueItems", &json!({"uniqueItems": true}), |n| {
        Value::Array((0..n).map(|i| json!(format!("{i:08}"))).collect())
    });
}

#[test]
fn multiple_of_with_extreme_floats() {
    for divisor in [
        json!(1e-300),
        json!(0.1),
        json!(3.3e-7),
        json!(7),
        json!(1e300),
    ] {
        at_budget(
            &format!("multipleOf {divisor}"),
            &json!({"items": {"multipleOf": divisor}}),
            |n| {
                Value::Array(
                    (0..n)
                        .map(|i| json!(1.797_693_134_862_315_7e308 / (i as f64 + 1.0)))
                        .collect(),
                )
            },
        );
    }
}

#[test]
fn unevaluated_properties_over_many_branches() {
    // `unevaluated*` arrived in 2019-09.
    let since_2019_09 = [Dialect::Draft201909, Dialect::Draft202012];
    let branches: Vec<Value> = (0..200)
        .map(|i| json!({"properties": {format!("p{i}"): {"type": "integer"}}}))
        .collect();
    at_budget_in(
        &since_2019_09,
        "unevaluatedProperties over anyOf of 200",
        |_| json!({"anyOf": branches, "unevaluatedProperties": {"type": "integer"}}),
        |n| Value::Object((0..n).map(|i| (format!("p{i}"), json!(i))).collect()),
    );
    at_budget_in(
        &since_2019_09,
        "unevaluatedProperties over allOf of 200, nested",
        |_| json!({"items": {"allOf": branches, "unevaluatedProperties": false}}),
        |n| {
            Value::Array(
                (0..n)
                    .map(|_| Value::Object((0..200).map(|i| (format!("p{i}"), json!(i))).collect()))
                    .collect(),
            )
        },
    );
    at_budget_in(
        &since_2019_09,
        "unevaluatedItems over oneOf of 100",
        |dialect| {
            let branches: Vec<Value> = (0..100)
                .map(|i| json!({tuple(dialect): vec![json!({}); i + 1]}))
                .collect();
            json!({"anyOf": branches, "unevaluatedItems": false})
        },
        |n| Value::Array(vec![json!(0); n]),
    );
}

#[test]
fn tuple_and_the_rest_of_the_items() {
    at_budget_in(
        &Dialect::ALL,
        "tuple of 500 and 500 const for the rest",
        |dialect| {
            let rest = if dialect == Dialect::Draft202012 {
                "items"
            } else {
                "additionalItems"
            };
            let tuple_items: Vec<Value> = (0..500).map(|i| json!({"const": i})).collect();
            let others: Vec<Value> = (1..500).map(|i| json!({"const": -i})).collect();
            json!({tuple(dialect): tuple_items, rest: {"not": {"anyOf": others}}})
        },
        |n| Value::Array((0..n).map(|i| json!(i)).collect()),
    );
}

#[test]
fn dependencies_over_a_wide_object() {
    // Member names of one length, so that the work grows linearly with the member count.
    let dependencies: Map<String, Value> = (0..200)
        .map(|i| {
            (
                format!("p{i:06}"),
                json!({"propertyNames": {"maxLength": 12}}),
            )
        })
        .collect();
    at_budget(
        "dependencies of 200 propertyNames",
        &json!({"dependencies": dependencies}),
        |n| Value::Object((0..n).map(|i| (format!("p{i:06}"), json!(i))).collect()),
    );
}

#[test]
fn first_error_after_many_branches() {
    let branches: Vec<Value> = (1..1000).map(|i| json!({"const": i})).collect();
    at_budget(
        "anyOf of 1000 const, invalid last item",
        &json!({"items": {"anyOf": branches}}),
        |n| {
            let mut items = vec![json!(1); n];
            if let Some(last) = items.last_mut() {
                *last = json!(0);
            }
            Value::Array(items)
        },
    );
}
