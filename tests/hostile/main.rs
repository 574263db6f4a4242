//! Hostile-input catalogue: one file per kind of hostile schema or input. Each test asserts the
//! typed refusal (or the correct verdict) and a time bound, measured with `Instant::now()`.
//! Nothing here may panic, open a connection or read a file the test did not create.

mod compile_time;
mod dialects;
mod fan_out;
mod integers;
mod malformed_json;
mod nesting;
mod patterns;
mod pins;
mod recursion;
mod remote_refs;
mod sizes;
mod work_budget;

use std::time::{Duration, Instant};

use serde_json::Value;

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
