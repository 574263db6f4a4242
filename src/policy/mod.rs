//! Safe handling of untrusted JSON Schemas (a tool provider's `input_schema`) and of the inputs
//! checked against them: one documented policy, typed refusals, measured time bounds.
//!
//! The pipeline for one tool call:
//!
//! 1. [`DecodeLimits::check`] on the raw bytes: length and nesting depth, in one pass, before
//!    anything is parsed.
//! 2. Decode (`serde_json`, or [`crate::decode()`]).
//! 3. [`CompiledSchema::check`] against the schema the request pins: instance depth and the
//!    validation work budget first, then `is_valid`, then `validate` for one error only.
//!
//! Schemas go through [`SchemaPolicy::compile`] once, usually via a [`SchemaCache`] keyed by
//! the schema's pin (SHA-256 of its canonical JSON).
//!
//! ```
//! use serde_json::json;
//! use toolcall_contracts::policy::{DecodeLimits, InstanceError, SchemaCache};
//!
//! let cache = SchemaCache::default();
//! let pin = cache.insert(&json!({
//!     "type": "object",
//!     "properties": {"path": {"type": "string"}, "line": {"type": "integer", "minimum": 1}},
//!     "required": ["path"],
//! }))?;
//!
//! let arguments = br#"{"path": "/tmp/a.rs", "line": 0}"#;
//! DecodeLimits::default().check(arguments).expect("small and shallow");
//! let instance: serde_json::Value = serde_json::from_slice(arguments).expect("valid JSON");
//! let schema = cache.get(&pin).expect("inserted above");
//! assert_eq!(
//!     schema.check(&instance).unwrap_err().to_string(),
//!     "instance at `/line` fails `minimum` at schema `/properties/line/minimum`",
//! );
//! # Ok::<(), toolcall_contracts::policy::PolicyError>(())
//! ```
//!
//! # How schemas are compiled
//!
//! `jsonschema` 0.61 is built with default features off: no HTTP client, no file retriever, no
//! TLS stack is compiled in. [`SchemaPolicy::compile`] uses the `draft202012` entry points
//! (`$schema` never selects the draft), `.offline()` (no retriever at all), and the linear-time
//! `regex` engine (`PatternOptions::regex()`, which rejects lookaround and backreferences
//! instead of backtracking). It validates the schema against the 2020-12 meta-schema with
//! `draft202012::meta`. Formats are annotations, as 2020-12 specifies by default.
//!
//! # Bounds and defaults
//!
//! Before `jsonschema` sees a schema, [`SchemaPolicy::compile`] refuses it with a
//! [`PolicyError`] when:
//!
//! | Check | Limit | Default |
//! |---|---|---|
//! | nesting depth of the schema document | [`SchemaPolicy::max_schema_depth`] | 32 |
//! | bytes of its compact serialization | [`SchemaPolicy::max_schema_bytes`] | 64 KiB |
//! | `$schema` anywhere | [`SchemaPolicy::allowed_dialects`] | 2020-12 only (`#` optional) |
//! | `$id` below the root | always refused | |
//! | `$ref`/`$dynamicRef` not starting with `#` | always refused | |
//! | fragment reference to nothing | always refused | |
//! | reference cycle | [`SchemaPolicy::allow_ref_cycles`] | refused |
//! | JSON values with every reference expanded | [`SchemaPolicy::max_expanded_size`] | 20 000 |
//! | lookaround, backreference in a regex | always refused | |
//! | compiled bytes of all distinct regexes | [`SchemaPolicy::max_regex_bytes`] | 256 KiB |
//!
//! The expanded size is counted over the reference graph with memoization (each subschema's
//! expanded size is computed once, in an iterative walk), never by expanding: a 1.5 KB schema
//! that expands to 2^30 subschemas is refused in microseconds. Every walk over untrusted
//! values is iterative or bounded by the depth limit, so a value built in code 100 000 levels
//! deep is refused without overflowing the stack.
//!
//! [`CompiledSchema::check`] refuses an instance with an [`InstanceError`] when it nests deeper
//! than [`SchemaPolicy::max_instance_depth`] (64) or when validating it would cost more than
//! [`SchemaPolicy::max_check_work`] (10 000 000) work units. The work units over-approximate
//! what `jsonschema` does:
//!
//! - (the schema's expanded size + 8) × the instance's JSON values (a `uniqueItems` counts as
//!   40 extra values, a fractional `multipleOf` as 1 000);
//! - plus the `format`, `minLength`, `maxLength` and `uniqueItems` keywords of the expanded
//!   schema × the instance's string bytes (member names included);
//! - plus, for each string, its bytes × the NFA states of every regex that may apply to it: a
//!   `pattern` under `properties/<name>` charges only the values of members named `<name>`,
//!   `patternProperties` and `propertyNames` regexes charge member names, any other `pattern`
//!   charges every string.
//!
//! [`DecodeLimits`] defaults to 1 MiB and depth 64.
//!
//! # Measured time bound
//!
//! With the default policy, every hostile schema and instance we constructed compiled in at
//! most 15 ms and checked in at most 50 ms (about 5 ns per work unit at worst), release build,
//! on the development machine (2 cores shared with other builds). How: `tests/hostile/`
//! builds, for each construction, the largest schema within every schema limit
//! (`compile_time.rs`: a 2 183-step `$ref` chain was the slowest) and the largest instance
//! within the work budget (`work_budget.rs`: 1 000 `not`-`const` branches per array item was
//! the slowest per unit), and times one `compile` or `check` with `Instant`; run
//! `cargo test --release --test hostile -- --nocapture --test-threads 1` to see the numbers.
//! The time scales with [`SchemaPolicy::max_check_work`]. It is a measurement over those
//! constructions, not a proof over every schema; the catalogue asserts 2 s per case so that a
//! debug build on a loaded CI machine never flakes.
//!
//! Not bounded:
//! - With [`SchemaPolicy::allow_ref_cycles`], validation time can double with each level of
//!   instance depth: a recursive `anyOf` whose two branches both descend took 3 s at depth 18
//!   and 18 s at depth 20 (release). Allow cycles only with a small
//!   [`SchemaPolicy::max_instance_depth`] (at depth 10 the same schema checks in about 4 ms).
//! - Memory of a [`SchemaCache`], which never evicts.

mod cache;
mod compiled;
mod limits;
mod pin;
mod refs;
mod regex;
mod schema;

pub use cache::SchemaCache;
pub use compiled::{CompiledSchema, InstanceError};
pub use limits::{DecodeLimits, LimitError};
pub use schema::{PolicyError, SchemaPolicy, DIALECT_2020_12};
