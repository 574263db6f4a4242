//! The reference systems' own unit tests (`../shared/seeds/`), one module per seed, run against
//! this crate's types.

mod monoloop_tool;
mod protocol_droid_tool_call;
mod subc_tool_call;
mod subc_tool_call_docs;
