//! The newer rendered docs of subc_protocol's `tool_call` module
//! (`../shared/seeds/001_cae5bdc8148916ea.txt`) have no unit tests of their own; each statement
//! they make about the public items is asserted here against `toolcall_contracts::route`.

use serde_json::json;
use toolcall_contracts::route::{
    validate_call_key, validate_schema_pin, CallKeyError, OpaqueFieldError, ToolCallRequest,
    CALL_KEY_FIELD, CALL_KEY_MAX_LEN, OPAQUE_FIELD_MAX_LEN, SCHEMA_PIN_FIELD, SCHEMA_PIN_MAX_LEN,
};

/// "The wire name of `ToolCallRequest::call_key`" / "`ToolCallRequest::schema_pin`"; "the longest
/// opaque token field accepted, in bytes ... shared by `call_key` and `schema_pin`".
#[test]
fn constants_name_the_fields_and_share_one_bound() {
    assert_eq!(CALL_KEY_FIELD, "call_key");
    assert_eq!(SCHEMA_PIN_FIELD, "schema_pin");
    assert_eq!(OPAQUE_FIELD_MAX_LEN, 256);
    assert_eq!(CALL_KEY_MAX_LEN, OPAQUE_FIELD_MAX_LEN);
    assert_eq!(SCHEMA_PIN_MAX_LEN, OPAQUE_FIELD_MAX_LEN);
    let mut request = ToolCallRequest::new("grep", json!({}));
    request.call_key = Some("k".to_owned());
    request.schema_pin = Some("p".to_owned());
    let encoded = serde_json::to_value(&request).expect("encode");
    assert_eq!(encoded[CALL_KEY_FIELD], json!("k"));
    assert_eq!(encoded[SCHEMA_PIN_FIELD], json!("p"));
}

/// "Every variant names the request field it is about, so a provider can put it in its
/// `invalid_request` error without tracking which check ran."
#[test]
fn every_variant_names_its_field() {
    let too_long = "k".repeat(OPAQUE_FIELD_MAX_LEN + 1);
    for (value, expected) in [
        ("", "Empty"),
        (too_long.as_str(), "TooLong"),
        ("a b", "InvalidCharacter"),
    ] {
        let call_key = validate_call_key(value).expect_err(value);
        let schema_pin = validate_schema_pin(value).expect_err(value);
        assert_eq!(call_key.field(), CALL_KEY_FIELD, "{expected}");
        assert_eq!(schema_pin.field(), SCHEMA_PIN_FIELD, "{expected}");
        assert!(
            format!("{call_key:?}").starts_with(expected),
            "{call_key:?}"
        );
        // The shared rule: the same variant for both fields, only the field differs.
        let renamed = match schema_pin {
            OpaqueFieldError::Empty { .. } => OpaqueFieldError::Empty {
                field: CALL_KEY_FIELD,
            },
            OpaqueFieldError::TooLong { length, .. } => OpaqueFieldError::TooLong {
                field: CALL_KEY_FIELD,
                length,
            },
            OpaqueFieldError::InvalidCharacter { index, .. } => {
                OpaqueFieldError::InvalidCharacter {
                    field: CALL_KEY_FIELD,
                    index,
                }
            }
        };
        assert_eq!(renamed, call_key);
    }
    assert_eq!(validate_schema_pin(&"p".repeat(SCHEMA_PIN_MAX_LEN)), Ok(()));
}

/// "`CallKeyError`: the error `validate_call_key` returns. Kept as a name so code that only
/// formats the error or reads `OpaqueFieldError::field` keeps compiling."
#[test]
fn call_key_error_is_the_opaque_field_error() {
    let error: CallKeyError = validate_call_key("").expect_err("empty");
    let as_opaque: OpaqueFieldError = error;
    assert_eq!(as_opaque.field(), "call_key");
    assert!(error.to_string().contains("call_key"), "{error}");
}

/// The module docs: "Decoding is deliberately tolerant of unknown members ... Omitted optionals
/// decode as `None`; `None` optionals are omitted on the wire, so a body carrying neither
/// optional serializes exactly as the two-field shape."
#[test]
fn decoding_is_tolerant_and_absent_optionals_are_omitted() {
    let request: ToolCallRequest = serde_json::from_value(json!({
        "name": "grep", "arguments": {"q": "x"}, "from_the_future": [1]
    }))
    .expect("unknown members are tolerated");
    assert_eq!(request.schema_pin, None);
    assert_eq!(
        serde_json::to_value(&request).expect("encode"),
        json!({"name": "grep", "arguments": {"q": "x"}})
    );
    let pinned: ToolCallRequest = serde_json::from_value(json!({
        "name": "grep", "arguments": {}, "schema_pin": "sha256:9f86d081"
    }))
    .expect("decode");
    assert_eq!(pinned.schema_pin.as_deref(), Some("sha256:9f86d081"));
    assert_eq!(pinned.validate(), Ok(()));
}

/// The seed's struct derives `Default`.
#[test]
fn default_is_the_empty_request() {
    let request = ToolCallRequest {
        name: "grep".to_owned(),
        ..ToolCallRequest::default()
    };
    assert_eq!(request.arguments, serde_json::Value::Null);
    assert_eq!(
        serde_json::to_value(&request).expect("encode"),
        json!({"name": "grep", "arguments": null})
    );
}
