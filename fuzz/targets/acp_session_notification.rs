//! `toolcall_contracts::decode::<acp::SessionNotification>`: the properties of
//! [`super::roundtrip::check`].

use toolcall_contracts::acp::SessionNotification;

/// Decodes `data` as a `session/update` notification's params.
pub fn run(data: &[u8]) {
    super::roundtrip::check::<SessionNotification>(data);
}
