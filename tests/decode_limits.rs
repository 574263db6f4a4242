//! Decode limits on `decode` and `decode_with`: typed refusals naming the limit and the value.

use toolcall_contracts::acp::ToolCallLocation;
use toolcall_contracts::policy::{DecodeLimits, LimitError};
use toolcall_contracts::{decode, decode_with, DECODE_LIMITS};

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
        (1024 * 1024, 128)
    );
    assert!(decode::<ToolCallLocation>(&nested(100)).is_ok());
    let error = decode::<ToolCallLocation>(&nested(200)).unwrap_err();
    assert!(
        matches!(
            error.limit,
            Some(LimitError::TooDeep {
                depth: 129,
                limit: 128,
                offset: 152
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
