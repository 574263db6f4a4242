//! `cargo fuzz run decode_simd_differential`: the body (and the properties it checks) is
//! `targets/decode_simd_differential.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolcall_contracts_fuzz::decode_simd_differential::run(data));
