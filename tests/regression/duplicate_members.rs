//! A member that appears twice in an object. Found by a fresh-clone review: a union tag repeated
//! after a leading tag reached the variant as an unknown member (empty report) and was written
//! back beside the tag, so a reader keeping the last key saw another variant; a repeated tag
//! after other members kept the last value silently; repeated unknown members kept the last.
//! Now each is `duplicate field` (as for a repeated defined member, and as the official crate
//! says for a repeated tag), from `decode` and from plain serde alike, with the pointer of the
//! repeated member.

use toolcall_contracts::acp::{SessionNotification, ToolCall, ToolCallContent};
use toolcall_contracts::decode;

/// Decodes `input` as `T` with `decode` and with plain serde; both must fail with `message`.
fn both_refuse<T: serde::de::DeserializeOwned + std::fmt::Debug>(
    input: &str,
    message: &str,
    pointer: &str,
) {
    let error = decode::<T>(input.as_bytes()).unwrap_err();
    assert_eq!(error.message, message, "{input}");
    assert_eq!(error.pointer, pointer, "{input}");
    let plain = serde_json::from_str::<T>(input).unwrap_err().to_string();
    assert!(plain.starts_with(message), "{input}: {plain}");
}

#[test]
fn a_repeated_leading_tag_is_refused() {
    both_refuse::<SessionNotification>(
        r#"{"sessionId":"s","update":{"sessionUpdate":"tool_call","sessionUpdate":"tool_call_update","toolCallId":"c","title":"t"}}"#,
        "duplicate field `sessionUpdate`",
        "/update/sessionUpdate",
    );
    both_refuse::<ToolCallContent>(
        r#"{"type":"diff","type":"terminal","path":"/a","newText":"x","terminalId":"t"}"#,
        "duplicate field `type`",
        "/type",
    );
}

#[test]
fn a_repeated_tag_after_other_members_is_refused() {
    both_refuse::<SessionNotification>(
        r#"{"sessionId":"s","update":{"toolCallId":"c","title":"t","sessionUpdate":"tool_call","sessionUpdate":"tool_call_update"}}"#,
        "duplicate field `sessionUpdate`",
        "/update/sessionUpdate",
    );
}

#[test]
fn a_repeated_unknown_member_is_refused() {
    both_refuse::<ToolCall>(
        r#"{"toolCallId":"c","title":"t","x-vendor":1,"x-vendor":2}"#,
        "duplicate field `x-vendor`",
        "/x-vendor",
    );
}

#[test]
fn a_single_tag_anywhere_still_decodes() {
    for input in [
        r#"{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","title":"t"}}"#,
        r#"{"sessionId":"s","update":{"toolCallId":"c","title":"t","sessionUpdate":"tool_call"}}"#,
    ] {
        let decoded = decode::<SessionNotification>(input.as_bytes()).unwrap();
        assert!(decoded.report.is_empty());
        assert_eq!(
            serde_json::to_value(&decoded.value).unwrap(),
            serde_json::from_str::<serde_json::Value>(input).unwrap()
        );
    }
}
