//! Wire tests for the route body (`toolcall_contracts::route`): exact JSON in both directions,
//! the opaque-field rules with their exact errors and messages, `validate()`, and agreement of
//! the Rust checks with the published route schema.

use serde_json::{json, Value};
use toolcall_contracts::route::{
    validate_call_key, validate_schema_pin, CallKeyError, OpaqueFieldError, RouteError,
    ToolCallRequest, CALL_KEY_FIELD, CALL_KEY_MAX_LEN, OPAQUE_FIELD_MAX_LEN, SCHEMA_JSON,
    SCHEMA_PIN_FIELD, SCHEMA_PIN_MAX_LEN,
};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Decodes `body`, checks it encodes back to exactly `body`, and returns the decoded value.
fn round_trip(body: &Value) -> Result<ToolCallRequest, serde_json::Error> {
    let request: ToolCallRequest = serde_json::from_value(body.clone())?;
    assert_eq!(&serde_json::to_value(&request)?, body);
    Ok(request)
}

// ---------------------------------------------------------------------------------------------
// Wire shape
// ---------------------------------------------------------------------------------------------

#[test]
fn two_member_body_decodes_with_every_optional_none_and_encodes_back_exactly() -> TestResult {
    let body = json!({"name": "search", "arguments": {"query": "rust"}});
    let request = round_trip(&body)?;
    assert_eq!(
        request,
        ToolCallRequest {
            name: "search".to_owned(),
            arguments: json!({"query": "rust"}),
            tool_call_id: None,
            progress_token: None,
            call_key: None,
            schema_pin: None,
        }
    );
    Ok(())
}

#[test]
fn new_sets_every_optional_none_and_encodes_as_the_two_required_members() -> TestResult {
    let request = ToolCallRequest::new("search", json!({"query": "rust"}));
    assert_eq!(request.tool_call_id, None);
    assert_eq!(request.progress_token, None);
    assert_eq!(request.call_key, None);
    assert_eq!(request.schema_pin, None);
    assert_eq!(
        serde_json::to_value(&request)?,
        json!({"name": "search", "arguments": {"query": "rust"}})
    );
    // `name` takes `impl Into<String>`.
    assert_eq!(
        ToolCallRequest::new(String::from("search"), json!({})).name,
        "search"
    );
    Ok(())
}

#[test]
fn tool_call_id_alone_round_trips() -> TestResult {
    let request = round_trip(&json!({"name": "t", "arguments": {}, "tool_call_id": "call_01"}))?;
    assert_eq!(request.tool_call_id.as_deref(), Some("call_01"));
    Ok(())
}

#[test]
fn progress_token_string_alone_round_trips() -> TestResult {
    let request = round_trip(&json!({"name": "t", "arguments": {}, "progress_token": "p-1"}))?;
    assert_eq!(request.progress_token, Some(json!("p-1")));
    Ok(())
}

#[test]
fn progress_token_integer_alone_round_trips() -> TestResult {
    let request = round_trip(&json!({"name": "t", "arguments": {}, "progress_token": 7}))?;
    assert_eq!(request.progress_token, Some(json!(7)));
    let request = round_trip(&json!({"name": "t", "arguments": {}, "progress_token": -7}))?;
    assert_eq!(request.progress_token, Some(json!(-7)));
    let request = round_trip(&json!({"name": "t", "arguments": {}, "progress_token": u64::MAX}))?;
    assert_eq!(request.progress_token, Some(json!(u64::MAX)));
    Ok(())
}

#[test]
fn call_key_alone_round_trips() -> TestResult {
    let request = round_trip(&json!({"name": "t", "arguments": {}, "call_key": "order-42"}))?;
    assert_eq!(request.call_key.as_deref(), Some("order-42"));
    Ok(())
}

#[test]
fn schema_pin_alone_round_trips() -> TestResult {
    let request = round_trip(&json!({"name": "t", "arguments": {}, "schema_pin": "sha256:9f86"}))?;
    assert_eq!(request.schema_pin.as_deref(), Some("sha256:9f86"));
    Ok(())
}

#[test]
fn every_member_round_trips() -> TestResult {
    let body = json!({
        "name": "search",
        "arguments": {"query": "rust"},
        "tool_call_id": "call_01",
        "progress_token": 7,
        "call_key": "order-42",
        "schema_pin": "sha256:9f86",
    });
    let request = round_trip(&body)?;
    assert_eq!(
        request,
        ToolCallRequest {
            name: "search".to_owned(),
            arguments: json!({"query": "rust"}),
            tool_call_id: Some("call_01".to_owned()),
            progress_token: Some(json!(7)),
            call_key: Some("order-42".to_owned()),
            schema_pin: Some("sha256:9f86".to_owned()),
        }
    );
    Ok(())
}

#[test]
fn none_optionals_are_omitted_on_encode() -> TestResult {
    let mut request = ToolCallRequest::new("t", json!({}));
    request.call_key = Some("k".to_owned());
    assert_eq!(
        serde_json::to_value(&request)?,
        json!({"name": "t", "arguments": {}, "call_key": "k"})
    );
    Ok(())
}

#[test]
fn null_optionals_decode_as_none_and_re_encode_as_absent() -> TestResult {
    let body = json!({
        "name": "t",
        "arguments": {},
        "tool_call_id": null,
        "progress_token": null,
        "call_key": null,
        "schema_pin": null,
    });
    let request: ToolCallRequest = serde_json::from_value(body)?;
    assert_eq!(request, ToolCallRequest::new("t", json!({})));
    assert_eq!(
        serde_json::to_value(&request)?,
        json!({"name": "t", "arguments": {}})
    );
    Ok(())
}

#[test]
fn null_arguments_are_kept_as_null_unlike_absent_arguments() -> TestResult {
    // `arguments` is required but may be any JSON value, `null` included.
    let request = round_trip(&json!({"name": "t", "arguments": null}))?;
    assert_eq!(request.arguments, Value::Null);
    let missing = serde_json::from_value::<ToolCallRequest>(json!({"name": "t"}));
    assert_eq!(
        missing.map_err(|error| error.to_string()),
        Err("missing field `arguments`".to_owned())
    );
    let missing = serde_json::from_value::<ToolCallRequest>(json!({"arguments": {}}));
    assert_eq!(
        missing.map_err(|error| error.to_string()),
        Err("missing field `name`".to_owned())
    );
    Ok(())
}

#[test]
fn unknown_members_are_tolerated_on_decode_and_dropped_on_re_encode() -> TestResult {
    let body = json!({
        "name": "t",
        "arguments": {"a": 1},
        "call_key": "k",
        "future_member": {"nested": [1, 2]},
        "_meta": null,
        "callKey": "camel-case twin, also unknown",
    });
    let request: ToolCallRequest = serde_json::from_value(body)?;
    let mut expected = ToolCallRequest::new("t", json!({"a": 1}));
    expected.call_key = Some("k".to_owned());
    assert_eq!(request, expected);
    // The unknown members are not kept anywhere: re-encoding drops them.
    assert_eq!(
        serde_json::to_value(&request)?,
        json!({"name": "t", "arguments": {"a": 1}, "call_key": "k"})
    );
    Ok(())
}

#[test]
fn decode_does_not_check_the_field_rules() -> TestResult {
    // Tolerant decode: values that break the rules still decode; `validate()` refuses them.
    let request: ToolCallRequest = serde_json::from_value(json!({
        "name": "t",
        "arguments": {},
        "progress_token": 1.5,
        "call_key": "",
        "schema_pin": "has space",
    }))?;
    assert_eq!(request.call_key.as_deref(), Some(""));
    assert_eq!(
        request.validate(),
        Err(RouteError::ProgressToken { found: "number" })
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Opaque fields: `call_key` and `schema_pin`
// ---------------------------------------------------------------------------------------------

#[test]
fn limits_are_256_bytes() {
    assert_eq!(OPAQUE_FIELD_MAX_LEN, 256);
    assert_eq!(CALL_KEY_MAX_LEN, 256);
    assert_eq!(SCHEMA_PIN_MAX_LEN, 256);
    assert_eq!(CALL_KEY_FIELD, "call_key");
    assert_eq!(SCHEMA_PIN_FIELD, "schema_pin");
}

#[test]
fn call_key_bounds() {
    let ok = [
        "a".to_owned(),
        "a".repeat(256),
        "!".to_owned(),
        "~".to_owned(),
        "!~".to_owned(),
        (0x21u8..=0x7E).map(char::from).collect::<String>(),
    ];
    for value in &ok {
        assert_eq!(validate_call_key(value), Ok(()), "{value:?}");
    }
}

#[test]
fn call_key_empty() {
    let error = validate_call_key("");
    assert_eq!(error, Err(OpaqueFieldError::Empty { field: "call_key" }));
    assert_eq!(
        error.map_err(|e| e.to_string()),
        Err("`call_key` is empty (1 to 256 bytes of printable ASCII 0x21..=0x7E)".to_owned())
    );
}

#[test]
fn call_key_too_long() {
    let error = validate_call_key(&"a".repeat(257));
    assert_eq!(
        error,
        Err(OpaqueFieldError::TooLong {
            field: "call_key",
            length: 257
        })
    );
    assert_eq!(
        error.map_err(|e| e.to_string()),
        Err("`call_key` is 257 bytes, more than the limit of 256".to_owned())
    );
}

#[test]
fn call_key_length_is_counted_in_bytes_and_checked_before_the_bytes() {
    // 129 two-byte characters: 258 bytes, 129 characters.
    assert_eq!(
        validate_call_key(&"é".repeat(129)),
        Err(OpaqueFieldError::TooLong {
            field: "call_key",
            length: 258
        })
    );
    // 257 spaces: the length is reported, not the first bad byte.
    assert_eq!(
        validate_call_key(&" ".repeat(257)),
        Err(OpaqueFieldError::TooLong {
            field: "call_key",
            length: 257
        })
    );
}

#[test]
fn call_key_invalid_bytes_report_the_first_byte_index() {
    let cases: [(&str, usize); 8] = [
        ("ab\tc", 2),
        ("abc\u{7F}", 3),
        ("a b", 1),
        (" ", 0),
        ("aé", 1),
        ("\u{1F600}", 0),
        ("ok\n", 2),
        ("a\u{0}", 1),
    ];
    for (value, index) in cases {
        assert_eq!(
            validate_call_key(value),
            Err(OpaqueFieldError::InvalidCharacter {
                field: "call_key",
                index
            }),
            "{value:?}"
        );
    }
    assert_eq!(
        validate_call_key("abc\u{7F}").map_err(|e| e.to_string()),
        Err("`call_key` has a byte outside printable ASCII 0x21..=0x7E at index 3".to_owned())
    );
}

#[test]
fn schema_pin_errors_name_schema_pin() {
    let cases = [
        (
            String::new(),
            OpaqueFieldError::Empty {
                field: "schema_pin",
            },
            "`schema_pin` is empty (1 to 256 bytes of printable ASCII 0x21..=0x7E)",
        ),
        (
            "p".repeat(300),
            OpaqueFieldError::TooLong {
                field: "schema_pin",
                length: 300,
            },
            "`schema_pin` is 300 bytes, more than the limit of 256",
        ),
        (
            "sha256 x".to_owned(),
            OpaqueFieldError::InvalidCharacter {
                field: "schema_pin",
                index: 6,
            },
            "`schema_pin` has a byte outside printable ASCII 0x21..=0x7E at index 6",
        ),
    ];
    for (value, expected, message) in cases {
        let error = validate_schema_pin(&value);
        assert_eq!(error, Err(expected), "{value:?}");
        assert_eq!(expected.field(), SCHEMA_PIN_FIELD);
        assert_eq!(expected.to_string(), message);
    }
    assert_eq!(validate_schema_pin("p".repeat(256).as_str()), Ok(()));
    assert_eq!(validate_schema_pin("!"), Ok(()));
    assert_eq!(validate_schema_pin("~"), Ok(()));
}

#[test]
fn field_names_the_field_for_every_variant() {
    let call_key_errors: [CallKeyError; 3] = [
        OpaqueFieldError::Empty { field: "call_key" },
        OpaqueFieldError::TooLong {
            field: "call_key",
            length: 257,
        },
        OpaqueFieldError::InvalidCharacter {
            field: "call_key",
            index: 0,
        },
    ];
    for error in call_key_errors {
        assert_eq!(error.field(), CALL_KEY_FIELD);
    }
    assert_eq!(
        validate_call_key("").map_err(|e| e.field()),
        Err(CALL_KEY_FIELD)
    );
    assert_eq!(
        validate_schema_pin("").map_err(|e| e.field()),
        Err(SCHEMA_PIN_FIELD)
    );
}

// ---------------------------------------------------------------------------------------------
// `validate()`
// ---------------------------------------------------------------------------------------------

fn validate_body(body: Value) -> Result<Result<(), RouteError>, serde_json::Error> {
    Ok(serde_json::from_value::<ToolCallRequest>(body)?.validate())
}

#[test]
fn validate_accepts_bodies_that_follow_the_rules() -> TestResult {
    for body in [
        json!({"name": "t", "arguments": {}}),
        json!({"name": "t", "arguments": {}, "progress_token": "p"}),
        json!({"name": "t", "arguments": {}, "progress_token": ""}),
        json!({"name": "t", "arguments": {}, "progress_token": -1}),
        json!({"name": "t", "arguments": {}, "progress_token": i64::MIN}),
        json!({"name": "t", "arguments": {}, "progress_token": u64::MAX}),
        json!({"name": "t", "arguments": {}, "call_key": "k", "schema_pin": "p"}),
        json!({"name": "", "arguments": null, "tool_call_id": ""}),
    ] {
        assert_eq!(validate_body(body.clone())?, Ok(()), "{body}");
    }
    Ok(())
}

#[test]
fn validate_refuses_a_bad_call_key() -> TestResult {
    let error = validate_body(json!({"name": "t", "arguments": {}, "call_key": "a b"}))?;
    assert_eq!(
        error,
        Err(RouteError::CallKey {
            source: OpaqueFieldError::InvalidCharacter {
                field: "call_key",
                index: 1
            }
        })
    );
    assert_eq!(
        error.map_err(|e| e.to_string()),
        Err("`call_key` has a byte outside printable ASCII 0x21..=0x7E at index 1".to_owned())
    );
    Ok(())
}

#[test]
fn validate_refuses_a_bad_schema_pin() -> TestResult {
    let error = validate_body(json!({"name": "t", "arguments": {}, "schema_pin": ""}))?;
    assert_eq!(
        error,
        Err(RouteError::SchemaPin {
            source: OpaqueFieldError::Empty {
                field: "schema_pin"
            }
        })
    );
    assert_eq!(
        error.map_err(|e| e.to_string()),
        Err("`schema_pin` is empty (1 to 256 bytes of printable ASCII 0x21..=0x7E)".to_owned())
    );
    Ok(())
}

#[test]
fn validate_refuses_a_progress_token_that_is_not_a_string_or_an_integer() -> TestResult {
    for (token, found) in [
        (json!(true), "boolean"),
        (json!(1.5), "number"),
        (json!(1.0), "number"),
        (json!(1e3), "number"),
        (json!([1]), "array"),
        (json!({"id": 1}), "object"),
    ] {
        let body = json!({"name": "t", "arguments": {}, "progress_token": token});
        let error = validate_body(body)?;
        assert_eq!(error, Err(RouteError::ProgressToken { found }), "{token}");
        assert_eq!(
            error.map_err(|e| e.to_string()),
            Err(format!(
                "`progress_token` must be a string or an integer (i64 or u64), found {found}"
            ))
        );
    }
    // An integer above u64::MAX decodes as a float.
    let body: ToolCallRequest = serde_json::from_str(
        r#"{"name": "t", "arguments": {}, "progress_token": 18446744073709551616}"#,
    )?;
    assert_eq!(
        body.validate(),
        Err(RouteError::ProgressToken { found: "number" })
    );
    // `null` decodes as `None`; only a constructed `Some(Null)` reaches the check.
    let mut request = ToolCallRequest::new("t", json!({}));
    request.progress_token = Some(Value::Null);
    assert_eq!(
        request.validate(),
        Err(RouteError::ProgressToken { found: "null" })
    );
    Ok(())
}

#[test]
fn validate_reports_progress_token_then_call_key_then_schema_pin() -> TestResult {
    let all_bad = json!({
        "name": "t",
        "arguments": {},
        "progress_token": false,
        "call_key": "",
        "schema_pin": "",
    });
    assert_eq!(
        validate_body(all_bad)?,
        Err(RouteError::ProgressToken { found: "boolean" })
    );
    let keys_bad = json!({"name": "t", "arguments": {}, "call_key": "", "schema_pin": ""});
    assert_eq!(
        validate_body(keys_bad)?,
        Err(RouteError::CallKey {
            source: OpaqueFieldError::Empty { field: "call_key" }
        })
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Agreement with the published schema
// ---------------------------------------------------------------------------------------------

fn route_validator() -> Result<jsonschema::Validator, Box<dyn std::error::Error>> {
    let schema: Value = serde_json::from_str(SCHEMA_JSON)?;
    Ok(jsonschema::draft202012::options()
        .build(&schema)
        .map_err(|error| error.to_string())?)
}

/// The bounds of the opaque-field tests plus some others, including strings whose length in
/// characters and in bytes differ (`maxLength` counts characters).
fn opaque_samples() -> Vec<String> {
    let mut samples: Vec<String> = [
        "",
        "a",
        "!",
        "~",
        "!~",
        " ",
        "a b",
        "ab\tc",
        "abc\u{7F}",
        "aé",
        "é",
        "\u{1F600}",
        "ok\n",
        "\nok",
        "a\u{0}",
        "a\r",
        "order-42/retry:1",
        "sha256:9f86d081",
        "\"quoted\"",
        "back\\slash",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    samples.push((0x21u8..=0x7E).map(char::from).collect());
    samples.push("a".repeat(255));
    samples.push("a".repeat(256));
    samples.push("a".repeat(257));
    samples.push("~".repeat(1000));
    // 128 and 129 two-byte characters: within `maxLength` in characters; 256 and 258 bytes.
    samples.push("é".repeat(128));
    samples.push("é".repeat(129));
    samples.push(format!("{}é", "a".repeat(255)));
    samples
}

#[test]
fn call_key_verdicts_agree_with_the_schema() -> TestResult {
    let validator = route_validator()?;
    for sample in opaque_samples() {
        let body = json!({"name": "t", "arguments": {}, "call_key": sample});
        assert_eq!(
            validate_call_key(&sample).is_ok(),
            validator.is_valid(&body),
            "{sample:?}"
        );
    }
    Ok(())
}

#[test]
fn schema_pin_verdicts_agree_with_the_schema() -> TestResult {
    let validator = route_validator()?;
    for sample in opaque_samples() {
        let body = json!({"name": "t", "arguments": {}, "schema_pin": sample});
        assert_eq!(
            validate_schema_pin(&sample).is_ok(),
            validator.is_valid(&body),
            "{sample:?}"
        );
    }
    Ok(())
}

#[test]
fn progress_token_verdicts_agree_with_the_schema_except_integral_non_integers() -> TestResult {
    let validator = route_validator()?;
    let agreeing = [
        r#""p""#,
        r#""""#,
        "0",
        "7",
        "-7",
        "9223372036854775807",
        "-9223372036854775808",
        "18446744073709551615",
        "1.5",
        "-0.5",
        "true",
        "false",
        "[]",
        "[1]",
        "{}",
    ];
    for token in agreeing {
        let text = format!(r#"{{"name": "t", "arguments": {{}}, "progress_token": {token}}}"#);
        let body: Value = serde_json::from_str(&text)?;
        let request: ToolCallRequest = serde_json::from_str(&text)?;
        assert_eq!(
            request.validate().is_ok(),
            validator.is_valid(&body),
            "{token}"
        );
    }
    // Known divergence: JSON Schema's `integer` is any number with a zero fractional part, so
    // the schema accepts these; serde_json holds them as `f64`, and `validate()` accepts only
    // `i64`/`u64`. Stricter in Rust by decision of the contract.
    let diverging = ["1.0", "1e3", "18446744073709551616", "-9223372036854775809"];
    for token in diverging {
        let text = format!(r#"{{"name": "t", "arguments": {{}}, "progress_token": {token}}}"#);
        let body: Value = serde_json::from_str(&text)?;
        let request: ToolCallRequest = serde_json::from_str(&text)?;
        assert!(validator.is_valid(&body), "{token}");
        assert_eq!(
            request.validate(),
            Err(RouteError::ProgressToken { found: "number" }),
            "{token}"
        );
    }
    Ok(())
}

#[test]
fn required_members_agree_with_the_schema() -> TestResult {
    let validator = route_validator()?;
    for body in [
        json!({"name": "t", "arguments": {}}),
        json!({"name": "t", "arguments": null}),
        json!({"name": "t", "arguments": {}, "unknown": 1}),
        json!({"name": "t"}),
        json!({"arguments": {}}),
        json!({"name": 1, "arguments": {}}),
        json!({"name": "t", "arguments": {}, "tool_call_id": 1}),
        json!({"name": "t", "arguments": {}, "tool_call_id": "c"}),
    ] {
        let decoded = serde_json::from_value::<ToolCallRequest>(body.clone())
            .map_err(|error| error.to_string())
            .and_then(|request| request.validate().map_err(|error| error.to_string()));
        assert_eq!(decoded.is_ok(), validator.is_valid(&body), "{body}");
    }
    Ok(())
}

#[test]
fn null_optionals_are_accepted_by_decode_but_refused_by_the_schema() -> TestResult {
    // Known divergence, by the tolerant-decode contract: an optional member sent as `null`
    // decodes as `None` (and passes `validate()`, which cannot see it any more), while the
    // schema types each optional member without `null`.
    let validator = route_validator()?;
    for member in ["tool_call_id", "progress_token", "call_key", "schema_pin"] {
        let body = json!({"name": "t", "arguments": {}, member: null});
        let request: ToolCallRequest = serde_json::from_value(body.clone())?;
        assert_eq!(request.validate(), Ok(()), "{member}");
        assert!(!validator.is_valid(&body), "{member}");
    }
    Ok(())
}
