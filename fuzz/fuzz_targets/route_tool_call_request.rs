//! `cargo fuzz run route_tool_call_request`: the body (and the properties it checks) is
//! `targets/route_tool_call_request.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(
    |data: &[u8]| toolcall_contracts_fuzz::route_tool_call_request::run(data)
);
