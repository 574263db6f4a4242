//! Malformed JSON text: it passes the decode limits (which neither parse nor validate) and is
//! refused by the decoder with serde_json's message. Duplicate members are not malformed JSON
//! (RFC 8259 says names SHOULD be unique): a generated type refuses a duplicate known member
//! ("duplicate field"), and keeps the last of a duplicated unknown member, as a
//! `serde_json::Value` does.

use serde_json::Value;
use toolcall_contracts::acp::ToolCallLocation;
use toolcall_contracts::policy::DecodeLimits;
use toolcall_contracts::{decode, DecodeError};

use crate::assert_fast;

fn refused(text: &[u8]) -> DecodeError {
    assert_eq!(DecodeLimits::default().check(text), Ok(()));
    assert_fast("decode", || decode::<ToolCallLocation>(text)).unwrap_err()
}

#[test]
fn truncated() {
    for text in [
        &br#"{"path": "/a.rs", "line": 3"#[..],
        br#"{"path": "/a"#,
        b"{",
        b"",
    ] {
        let error = refused(text);
        assert!(error.message.contains("EOF while parsing"), "{error}");
    }
}

#[test]
fn trailing_garbage() {
    for text in [
        &br#"{"path": "/a.rs"} x"#[..],
        br#"{"path": "/a.rs"}{}"#,
        br#"{"path": "/a.rs"}]"#,
    ] {
        let error = refused(text);
        assert!(error.message.contains("trailing characters"), "{error}");
        assert_eq!(error.pointer, "");
    }
    // Trailing whitespace is fine.
    assert!(decode::<ToolCallLocation>(b"{\"path\": \"/a.rs\"} \n\t").is_ok());
}

#[test]
fn byte_order_mark() {
    let error = refused(b"\xEF\xBB\xBF{\"path\": \"/a.rs\"}");
    assert_eq!(
        (error.message.as_str(), error.line, error.column),
        ("expected value", 1, 1)
    );
}

#[test]
fn invalid_utf8() {
    let error = refused(b"{\"path\": \"/a\xFF.rs\"}");
    assert!(
        error.message.contains("invalid unicode code point"),
        "{error}"
    );
    let error = refused(b"{\"path\": \"/a.rs\"\xC3}");
    assert!(error.message.contains("expected"), "{error}");
    // A lone surrogate escape is not a Unicode scalar value either.
    let error = refused(br#"{"path": "\ud800"}"#);
    assert!(error.message.contains("escape"), "{error}");
    assert_eq!(error.pointer, "/path");
}

#[test]
fn duplicate_members() {
    let error = refused(br#"{"path": "/a.rs", "line": 1, "line": 2}"#);
    assert_eq!(error.message, "duplicate field `line`");
    // An unknown member's duplicate too (it used to keep the last one silently, like `Value`).
    let error = refused(br#"{"path": "/a.rs", "x": 1, "x": 2}"#);
    assert_eq!(error.message, "duplicate field `x`");
    // serde_json's `Value` (an untyped member such as `rawInput`) keeps the last duplicate.
    let value: Value = serde_json::from_slice(br#"{"a": 1, "a": 2}"#).unwrap();
    assert_eq!(value, serde_json::json!({"a": 2}));
}
