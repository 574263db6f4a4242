//! The conversions of `toolcall-hops`, each direction asserted as exact JSON, with
//! its exact report; property tests that what a target can carry round-trips; and the recorded
//! server-everything transcript converted across every hop.

mod acp_updates;
mod gateway;
mod mcp_result;
mod mcp_tool;
mod names;
mod props;
mod relay;
mod runtime;
mod support;
mod transcript;
