//! `toolcall_contracts::decode::<canonical::ToolSpec>`: the properties of
//! [`super::roundtrip::check`] (decoding goes through `ToolSpec`'s checked constructor, so a
//! re-decode also re-runs every rule on what was encoded).

use toolcall_contracts::canonical::ToolSpec;

/// Decodes `data` as a canonical tool spec.
pub fn run(data: &[u8]) {
    super::roundtrip::check::<ToolSpec>(data);
}
