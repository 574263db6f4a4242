//! Fuzz target bodies, one module per target.
//!
//! Shared by the cargo-fuzz binaries (`fuzz/fuzz_targets/<name>.rs`, through this file as the
//! `toolcall-contracts-fuzz` library) and by `tests/hostile/fuzz_replay.rs` (through `#[path]`), which
//! replays `fuzz/corpus/<name>/` and `fuzz/artifacts-found/<name>/` on stable Rust. Each `run`
//! panics when a property fails and returns quietly otherwise; inputs that are not of the
//! expected form (not JSON, say) return early.

pub mod acp_session_notification;
pub mod acp_tool_call_update;
pub mod canonical_tool_spec;
pub mod codegen_generate;
pub mod decode_simd_differential;
pub mod policy_compile_check;
pub mod route_tool_call_request;

mod roundtrip;

/// A target's body: panics when a property fails.
pub type Body = fn(&[u8]);

/// Every target: its name (the directory under `fuzz/corpus/`) and its body.
pub const TARGETS: &[(&str, Body)] = &[
    ("acp_session_notification", acp_session_notification::run),
    ("acp_tool_call_update", acp_tool_call_update::run),
    ("route_tool_call_request", route_tool_call_request::run),
    ("canonical_tool_spec", canonical_tool_spec::run),
    ("policy_compile_check", policy_compile_check::run),
    ("codegen_generate", codegen_generate::run),
    ("decode_simd_differential", decode_simd_differential::run),
];
