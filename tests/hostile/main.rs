//! Hostile-input catalogue: one file per kind of hostile schema or input. Each test asserts the
//! typed refusal (or the correct verdict) and a time bound, measured with `Instant::now()`.
//! Nothing here may panic, open a connection or read a file the test did not create.
//!
//! Every hostile schema is tried in each dialect the default policy compiles ([`each_dialect`],
//! [`in_dialect`]): draft-07, 2019-09 and 2020-12, written with that dialect's keywords
//! ([`defs`], [`tuple`]). Constructs of one dialect only (`$recursiveRef`, `$dynamicRef`,
//! `$anchor`, `items` tuples with `additionalItems`, `dependencies`) have their own cases.

mod compile_time;
mod dialects;
mod fan_out;
mod fuzz_replay;
mod integers;
mod malformed_json;
mod nesting;
mod patterns;
mod pins;
mod recursion;
mod remote_refs;
mod sizes;
mod work_budget;

// The fuzz targets' bodies, replayed on the committed corpus by `fuzz_replay`.
#[path = "../../fuzz/targets/mod.rs"]
mod targets;

use std::time::{Duration, Instant};

use serde_json::Value;
use toolcall_contracts::policy::Dialect;

/// Every hostile input must be handled within this time: generous for debug builds on a
/// shared CI machine, but measured, never slept.
pub const BOUND: Duration = Duration::from_secs(2);

/// Runs `f`, asserts it took less than [`BOUND`], and returns its result.
pub fn assert_fast<T>(label: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let result = f();
    let elapsed = start.elapsed();
    assert!(elapsed < BOUND, "{label}: took {elapsed:?}");
    result
}

/// `depth` nested arrays around `leaf`, built without recursion.
pub fn nested_arrays(depth: usize, leaf: Value) -> Value {
    let mut value = leaf;
    for _ in 0..depth {
        value = Value::Array(vec![value]);
    }
    value
}

/// Drops a deeply nested value one level at a time: `Value`'s own drop recurses and would
/// overflow the stack past some ten thousand levels.
pub fn drop_deep(mut value: Value) {
    loop {
        value = match value {
            Value::Array(mut items) => match items.pop() {
                Some(inner) => inner,
                None => return,
            },
            Value::Object(members) => match members.into_iter().next() {
                Some((_, inner)) => inner,
                None => return,
            },
            _ => return,
        };
    }
}

/// Runs `test` in each dialect, oldest first, naming the dialect on stderr (which the test
/// harness shows when the test fails).
pub fn each_dialect(mut test: impl FnMut(Dialect)) {
    for dialect in Dialect::ALL {
        eprintln!("-- in {dialect}");
        test(dialect);
    }
}

/// `schema` written in `dialect`: its root names the dialect with `$schema`, except 2020-12,
/// left implied (a schema without `$schema` is 2020-12: what most tools send).
pub fn in_dialect(dialect: Dialect, mut schema: Value) -> Value {
    if dialect != Dialect::Draft202012 {
        if let Value::Object(members) = &mut schema {
            members.insert("$schema".into(), dialect.uri().into());
        }
    }
    schema
}

/// The keyword of definitions: `definitions` in draft-07, `$defs` after.
pub fn defs(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Draft07 => "definitions",
        _ => "$defs",
    }
}

/// The JSON pointer of the definition `name`.
pub fn def_pointer(dialect: Dialect, name: &str) -> String {
    format!("/{}/{name}", defs(dialect))
}

/// A fragment reference to the definition `name`.
pub fn def_ref(dialect: Dialect, name: &str) -> String {
    format!("#{}", def_pointer(dialect, name))
}

/// The keyword of an array of schemas for the first items: `items` before 2020-12,
/// `prefixItems` in 2020-12.
pub fn tuple(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Draft202012 => "prefixItems",
        _ => "items",
    }
}
