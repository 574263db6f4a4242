//! Hostile-input catalogue (WIP).
mod measure;
mod work_budget;

use std::time::{Duration, Instant};

/// Every hostile input must be handled within this time (measured, generous for debug builds
/// on a shared CI machine).
pub const BOUND: Duration = Duration::from_secs(2);

/// Runs `f`, asserts it took less than [`BOUND`], and returns its result.
pub fn assert_fast<T>(label: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let result = f();
    let elapsed = start.elapsed();
    assert!(elapsed < BOUND, "{label}: took {elapsed:?}");
    result
}
