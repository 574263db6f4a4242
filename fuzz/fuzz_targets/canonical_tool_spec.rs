//! `cargo fuzz run canonical_tool_spec`: the body (and the properties it checks) is
//! `targets/canonical_tool_spec.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolcall_contracts_fuzz::canonical_tool_spec::run(data));
