//! `toolcall_contracts::decode::<acp::ToolCallUpdate>`: the properties of
//! [`super::roundtrip::check`].

use toolcall_contracts::acp::ToolCallUpdate;

/// Decodes `data` as an ACP tool call update.
pub fn run(data: &[u8]) {
    super::roundtrip::check::<ToolCallUpdate>(data);
}
