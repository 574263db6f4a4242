//! Decode limits on `decode` and `decode_with`: typed refusals naming the limit and the value.

use toolcall_contracts::acp::ToolCallLocation;
use toolcall_contracts::policy::{DecodeLimits, LimitError};
use toolcall_contracts::{decode, decode_with, DECODE_LIMITS};

fn nest(depth: usize) -> Vec<u8> {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth)).into_bytes()
}

fn nested(depth: usize) -> Vec<u8> {
    let mut text = String::from(r#"{"path":"/a","_meta":{"x":"#);
    text.push_str(&"[".repeat(depth));
    text.push_str(&"]".repeat(depth));
    text.push_str("}}");
    text.into_bytes()
}

#[test]
fn default_depth_is_serde_json_guard_reported_as_the_typed_limit() {
    assert_eq!(
        (DECODE_LIMITS.max_bytes, DECODE_LIMITS.max_depth),
        (1024 * 1024, 127)
    );
    // serde_json's recursion limit (128) refuses the 128th level: 127 is the deepest decoded,
    // and the error names the first byte at depth 128.
    assert!(decode::<serde_json::Value>(&nest(127)).is_ok());
    let error = decode::<serde_json::Value>(&nest(128)).unwrap_err();
    assert_eq!(
        error.limit,
        Some(LimitError::TooDeep {
            depth: 128,
            limit: 127,
            offset: 127
        })
    );
    assert_eq!(
        error.to_string(),
        "input nesting depth reaches `128` at byte `127`, over `max_depth` of `127` at ``"
    );
    assert!(decode::<ToolCallLocation>(&nested(100)).is_ok());
    let error = decode::<ToolCallLocation>(&nested(200)).unwrap_err();
    assert!(
        matches!(
            error.limit,
            Some(LimitError::TooDeep {
                depth: 128,
                limit: 127,
                offset: 151
            })
        ),
        "{error:?}"
    );
    assert_eq!(error.pointer, "");
}

#[test]
fn lower_depth_and_byte_limits_refuse_before_decoding() {
    let limits = DecodeLimits::default().with_max_depth(3);
    let error = decode_with::<ToolCallLocation>(&nested(2), &limits).unwrap_err();
    assert_eq!(
        error.limit,
        Some(LimitError::TooDeep {
            depth: 4,
            limit: 3,
            offset: 27
        })
    );
    assert_eq!(
        error.message,
        "input nesting depth reaches `4` at byte `27`, over `max_depth` of `3`"
    );
    let small = DecodeLimits::default().with_max_bytes(10);
    let error = decode_with::<ToolCallLocation>(br#"{"path":"/abc"}"#, &small).unwrap_err();
    assert_eq!(
        error.limit,
        Some(LimitError::TooLarge {
            bytes: 15,
            limit: 10
        })
    );
}

/// A route body with an unknown member (which the route contract ignores) nested `depth` deep.
fn route_body_with_skipped_member(depth: usize) -> Vec<u8> {
    let mut text = String::from(r#"{"name":"t","arguments":{},"x":"#);
    text.push_str(&"[".repeat(depth));
    text.push_str(&"]".repeat(depth));
    text.push('}');
    text.into_bytes()
}

#[test]
fn default_depth_counts_what_is_decoded_not_members_skipped() {
    use toolcall_contracts::route::ToolCallRequest;
    // serde_json skips an ignored member without recursion and without counting its depth, so
    // `decode` (with or without `simd`) accepts it at 300 levels: no stack is at risk.
    let json = route_body_with_skipped_member(300);
    let decoded = decode::<ToolCallRequest>(&json).unwrap();
    assert_eq!(decoded.value.name, "t");
    // The `simd` path at every size (`decode` reads inputs under 1 KiB with serde_json).
    let simd = toolcall_contracts::__private::decode_simd::<ToolCallRequest>(
        &json,
        &toolcall_contracts::DECODE_LIMITS,
    )
    .unwrap();
    assert_eq!(simd.value, decoded.value);
    assert_eq!(
        serde_json::from_slice::<ToolCallRequest>(&json).unwrap(),
        decoded.value
    );
    // A limit over the whole input is a depth below 127: it scans before decoding. The first `[`
    // is byte 31 at depth 2, so depth 65 is reached at byte 31 + 63.
    let limits = DecodeLimits::default();
    assert_eq!(limits.max_depth, 64);
    let error = decode_with::<ToolCallRequest>(&json, &limits).unwrap_err();
    assert_eq!(
        error.limit,
        Some(LimitError::TooDeep {
            depth: 65,
            limit: 64,
            offset: 94
        })
    );
}
