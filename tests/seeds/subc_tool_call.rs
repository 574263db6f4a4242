//! The unit tests of subc_protocol's `tool_call.rs` (`../shared/seeds/000_6f49d85983389109.txt`),
//! run against `toolcall_contracts::route`.
//!
//! Copied verbatim except, as the seed README allows:
//! - the `use` lines (the seed's `use super::*` is the route module);
//! - the `schema_pin` member its newer docs add (`../shared/seeds/001_cae5bdc8148916ea.txt`), in
//!   the struct literals (`schema_pin: None,`);
//! - the error variants those docs define, which name their field: `CallKeyError::Empty` is
//!   `CallKeyError::Empty { field: "call_key" }`, and `field: "call_key",` is added to
//!   `TooLong` and `InvalidCharacter`.

#[cfg(test)]
mod tests {
    use serde_json::json;
    use toolcall_contracts::route::{validate_call_key, CallKeyError, ToolCallRequest};

    #[test]
    fn omitted_optionals_decode_as_none() {
        let request: ToolCallRequest =
            serde_json::from_value(json!({ "name": "grep", "arguments": { "q": "x" } }))
                .expect("two-field body decodes");
        assert_eq!(request.tool_call_id, None);
        assert_eq!(request.progress_token, None);
        assert_eq!(request.call_key, None);
    }

    #[test]
    fn call_key_round_trips_as_a_top_level_member() {
        let request = ToolCallRequest {
            name: "grep".to_string(),
            arguments: json!({ "q": "x" }),
            tool_call_id: None,
            progress_token: None,
            call_key: Some("run-7:call-3".to_string()),
            schema_pin: None,
        };
        let encoded = serde_json::to_value(&request).expect("encode");
        assert_eq!(
            encoded,
            json!({ "name": "grep", "arguments": { "q": "x" }, "call_key": "run-7:call-3" })
        );
        let decoded: ToolCallRequest = serde_json::from_value(encoded).expect("decode");
        assert_eq!(decoded, request);
    }

    #[test]
    fn a_request_without_a_call_key_omits_the_member_and_round_trips() {
        let request = ToolCallRequest::new("grep", json!({}));
        let encoded = serde_json::to_value(&request).expect("encode");
        assert!(encoded.get("call_key").is_none(), "{encoded}");
        let decoded: ToolCallRequest = serde_json::from_value(encoded).expect("decode");
        assert_eq!(decoded.call_key, None);
        assert_eq!(decoded, request);
    }

    #[test]
    fn call_key_bounds_are_one_to_256_printable_non_space_ascii() {
        assert_eq!(
            validate_call_key(""),
            Err(CallKeyError::Empty { field: "call_key" })
        );
        assert_eq!(validate_call_key("k"), Ok(()));
        assert_eq!(validate_call_key(&"k".repeat(256)), Ok(()));
        assert_eq!(
            validate_call_key(&"k".repeat(257)),
            Err(CallKeyError::TooLong {
                field: "call_key",
                length: 257
            })
        );
        assert_eq!(validate_call_key("!~"), Ok(()), "both ends of 0x21..=0x7E");
        assert_eq!(
            validate_call_key("ké"),
            Err(CallKeyError::InvalidCharacter {
                field: "call_key",
                index: 1
            })
        );
        assert_eq!(
            validate_call_key("a\tb"),
            Err(CallKeyError::InvalidCharacter {
                field: "call_key",
                index: 1
            })
        );
        assert_eq!(
            validate_call_key("a\u{7f}"),
            Err(CallKeyError::InvalidCharacter {
                field: "call_key",
                index: 1
            })
        );
        assert_eq!(
            validate_call_key("a b"),
            Err(CallKeyError::InvalidCharacter {
                field: "call_key",
                index: 1
            })
        );
        assert_eq!(
            CallKeyError::Empty { field: "call_key" }.field(),
            "call_key"
        );
    }

    #[test]
    fn none_optionals_are_omitted_so_the_wire_matches_the_two_field_shape() {
        let request = ToolCallRequest::new("grep", json!({ "q": "x" }));
        let encoded = serde_json::to_value(&request).expect("encode");
        assert_eq!(
            encoded,
            json!({ "name": "grep", "arguments": { "q": "x" } })
        );
    }

    #[test]
    fn tool_call_id_round_trips() {
        let request = ToolCallRequest {
            name: "grep".to_string(),
            arguments: json!({ "q": "x" }),
            tool_call_id: Some("wal-intent-42".to_string()),
            progress_token: None,
            call_key: None,
            schema_pin: None,
        };
        let encoded = serde_json::to_value(&request).expect("encode");
        assert_eq!(encoded["tool_call_id"], json!("wal-intent-42"));
        let decoded: ToolCallRequest = serde_json::from_value(encoded).expect("decode");
        assert_eq!(decoded, request);
    }

    #[test]
    fn unknown_members_do_not_fail_a_provider_decode() {
        // A newer consumer added a key this provider has never heard of; the
        // call must still decode rather than refuse.
        let request: ToolCallRequest = serde_json::from_value(json!({
            "name": "grep",
            "arguments": {},
            "some_future_key": { "nested": true }
        }))
        .expect("unknown members are tolerated");
        assert_eq!(request.name, "grep");
    }
}
