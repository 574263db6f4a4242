//! `cargo fuzz run codegen_generate`: the body (and the properties it checks) is
//! `targets/codegen_generate.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolcall_contracts_fuzz::codegen_generate::run(data));
