//! `cargo fuzz run policy_compile_check`: the body (and the properties it checks) is
//! `targets/policy_compile_check.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolcall_contracts_fuzz::policy_compile_check::run(data));
