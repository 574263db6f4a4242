//! `toolcall_contracts::decode::<route::ToolCallRequest>` and then `.validate()`: the
//! properties of [`super::roundtrip::check`], and `validate` gives the same verdict on the
//! value decoded from the re-encoding (decoding is tolerant, validation the separate step).

use toolcall_contracts::route::ToolCallRequest;

/// Decodes `data` as a route body and validates it.
pub fn run(data: &[u8]) {
    let Some(request) = super::roundtrip::check::<ToolCallRequest>(data) else {
        return;
    };
    let verdict = request.validate();
    if let Err(error) = &verdict {
        assert!(!error.to_string().is_empty(), "empty `RouteError` message");
    }
    let encoded = serde_json::to_vec(&request).expect("checked by `roundtrip::check`");
    let again: ToolCallRequest =
        serde_json::from_slice(&encoded).expect("checked by `roundtrip::check`");
    assert_eq!(
        again.validate(),
        verdict,
        "`validate` changes its verdict across an encode/decode round trip"
    );
}
