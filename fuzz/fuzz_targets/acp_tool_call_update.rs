//! `cargo fuzz run acp_tool_call_update`: the body (and the properties it checks) is
//! `targets/acp_tool_call_update.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolcall_contracts_fuzz::acp_tool_call_update::run(data));
