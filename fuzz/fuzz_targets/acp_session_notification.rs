//! `cargo fuzz run acp_session_notification`: the body (and the properties it checks) is
//! `targets/acp_session_notification.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(
    |data: &[u8]| toolcall_contracts_fuzz::acp_session_notification::run(data)
);
