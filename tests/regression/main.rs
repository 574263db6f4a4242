//! One module per reported bug (found by the differential and round-trip tests, and by live
//! traffic between the official SDKs, issue 15; and by the SIMD parser probe and fuzz target,
//! issue 16; and by real agents and servers, issue 22).

// Shared with the ACP corpus tests: the tests' own pairing and leniency rule.
#[path = "../support/mod.rs"]
mod support;

mod auth_method_non_string_type;
mod duplicate_members;
mod envelope_params_best_fit;
mod null_tag_reaches_the_fallback;
#[cfg(feature = "policy")]
mod recursive_tool_schemas;
mod responses_pair_by_id_and_direction;
mod simd_parser_differences;
