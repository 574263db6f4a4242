//! Integers past `u32` for `uint32` fields. ACP's `ToolCallLocation.line` declares
//! `x-deserialize-default-on-error`: the value decodes as absent and the report says
//! `defaulted` at `/line`. `ReadTextFileRequest.line` declares nothing: the same value is an
//! error at `/line`.

use serde_json::json;
use toolcall_contracts::acp::{ReadTextFileRequest, ToolCallLocation};
use toolcall_contracts::{decode, LeniencyKind, MaybeUndefined};

use crate::assert_fast;

const PAST_U32: [&str; 7] = [
    "4294967296",
    "18446744073709551616",
    "-1",
    "1.5",
    "1e10",
    "4294967295.0",
    "123456789012345678901234567890123456789012345678901234567890",
];

#[test]
fn lenient_uint32_defaults() {
    for number in PAST_U32 {
        let text = format!(r#"{{"path": "/a.rs", "line": {number}}}"#);
        let decoded = assert_fast(number, || decode::<ToolCallLocation>(text.as_bytes()))
            .unwrap_or_else(|error| panic!("{number}: {error}"));
        assert_eq!(decoded.value.line, MaybeUndefined::Undefined, "{number}");
        assert_eq!(decoded.report.len(), 1, "{number}");
        let leniency = &decoded.report[0];
        assert_eq!(leniency.pointer, "/line");
        assert_eq!(leniency.kind, LeniencyKind::Defaulted);
        assert_eq!(leniency.kind.to_string(), "defaulted");
        assert_eq!(
            leniency.raw,
            serde_json::from_str::<serde_json::Value>(number).unwrap()
        );
    }
    let decoded = decode::<ToolCallLocation>(br#"{"path": "/a.rs", "line": 4294967295}"#).unwrap();
    assert_eq!(decoded.value.line, MaybeUndefined::Value(u32::MAX));
    assert!(decoded.report.is_empty());
}

#[test]
fn strict_uint32_errors() {
    for number in PAST_U32 {
        let text = format!(r#"{{"sessionId": "s", "path": "/a.rs", "line": {number}}}"#);
        let error = assert_fast(number, || decode::<ReadTextFileRequest>(text.as_bytes()))
            .expect_err(number);
        assert_eq!(error.pointer, "/line", "{number}: {error}");
        assert!(error.message.contains("invalid"), "{number}: {error}");
    }
    let ok = decode::<ReadTextFileRequest>(
        json!({"sessionId": "s", "path": "/a.rs", "line": 7})
            .to_string()
            .as_bytes(),
    )
    .unwrap();
    assert_eq!(ok.value.line, MaybeUndefined::Value(7));
}
