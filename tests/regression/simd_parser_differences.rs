//! Inputs on which sonic-rs and serde_json differ (issue 16: a differential probe of the two
//! parsers, then the `decode_simd_differential` fuzz target). With the `simd` feature the
//! optimistic pass of `decode` parses with sonic-rs (inputs of 1 KiB and more); each of these
//! must still get serde_json's verdict, value and report. Every case runs through the `simd`
//! path at every size (`__private::decode_simd`) and through the serde_json path
//! (`__private::decode_serde_json`, what a build without `simd` runs), which must agree
//! exactly, and then against the expected result written out; `decode` must agree too. Without `simd` both are the
//! serde_json path and the expectations still hold.

use serde::de::DeserializeOwned;
use toolcall_contracts::__private::{decode_serde_json, decode_simd};
use toolcall_contracts::acp::{
    ReadTextFileRequest, SessionNotification, ToolCallLocation, ToolCallUpdate,
};
use toolcall_contracts::route::ToolCallRequest;
use toolcall_contracts::{decode, encode, Contract, DecodeError, Leniency, DECODE_LIMITS};

/// The re-encoding and the report, or the error, after checking that both paths agree.
fn agree<T: DeserializeOwned + Contract>(
    input: &[u8],
) -> Result<(String, Vec<Leniency>), DecodeError> {
    // sonic-rs at every size (`decode` leaves inputs under 1 KiB to serde_json).
    let fast = decode_simd::<T>(input, &DECODE_LIMITS);
    let reference = decode_serde_json::<T>(input, &DECODE_LIMITS);
    let show = String::from_utf8_lossy(input);
    assert_eq!(
        decode::<T>(input).map(|d| d.report),
        reference
            .as_ref()
            .map(|d| d.report.clone())
            .map_err(Clone::clone),
        "decode differs: {show}"
    );
    match (fast, reference) {
        (Ok(fast), Ok(reference)) => {
            let encoded = encode(&fast.value).expect("encodes");
            assert_eq!(
                encoded,
                encode(&reference.value).expect("encodes"),
                "values differ: {show}"
            );
            assert_eq!(fast.report, reference.report, "reports differ: {show}");
            Ok((String::from_utf8(encoded).expect("UTF-8"), fast.report))
        }
        (Err(fast), Err(reference)) => {
            assert_eq!(fast, reference, "errors differ: {show}");
            Err(fast)
        }
        (fast, reference) => panic!(
            "verdicts differ on {show}: decode {:?}, serde_json path {:?}",
            fast.map(|d| d.report),
            reference.map(|d| d.report)
        ),
    }
}

/// A `tool_call_update` notification whose `rawInput` is `raw` (any JSON text).
fn with_raw_input(raw: &str) -> Vec<u8> {
    format!(
        r#"{{"sessionId":"s","update":{{"sessionUpdate":"tool_call_update","toolCallId":"c","rawInput":{raw}}}}}"#
    )
    .into_bytes()
}

/// The `rawInput` member as re-encoded.
fn raw_input_of(encoded: &str) -> &str {
    let start = encoded.find(r#""rawInput":"#).expect("rawInput kept") + 11;
    &encoded[start..encoded.len() - 2]
}

#[test]
fn negative_zero_keeps_its_sign() {
    // sonic-rs decodes `-0` and `-0.0` as `0.0`; serde_json as `-0.0`.
    for raw in ["-0", "-0.0", "[-0]", r#"{"a":-0e0}"#] {
        let (encoded, report) = agree::<SessionNotification>(&with_raw_input(raw)).unwrap();
        assert!(report.is_empty());
        assert!(raw_input_of(&encoded).contains("-0.0"), "{raw}: {encoded}");
    }
}

#[test]
fn numbers_at_the_edges() {
    for (raw, expected) in [
        ("1e2", "100.0"),
        ("0.1", "0.1"),
        ("1e-400", "0.0"),
        ("18446744073709551615", "18446744073709551615"),
        ("18446744073709551616", "1.8446744073709552e+19"),
        ("-9223372036854775808", "-9223372036854775808"),
        ("-9223372036854775809", "-9.223372036854776e+18"),
        ("12345678901234567890123", "1.2345678901234568e+22"),
        // Long mantissas, where serde_json's default float parsing and a correctly rounded one
        // can part (serde_json's `float_roundtrip` feature): decoded by serde_json either way.
        ("2.2250738585072011e-308", "2.225073858507201e-308"),
        ("9007199254740993.0", "9007199254740992.0"),
    ] {
        let (encoded, _) = agree::<SessionNotification>(&with_raw_input(raw)).unwrap();
        assert_eq!(raw_input_of(&encoded), expected, "{raw}");
    }
    let error = agree::<SessionNotification>(&with_raw_input("1e400")).unwrap_err();
    assert_eq!(error.message, "number out of range");
    // `1.0` into an integer member: refused, or defaulted (reported) where the schema says so.
    let error =
        agree::<ReadTextFileRequest>(br#"{"sessionId":"s","path":"/a","line":1.0}"#).unwrap_err();
    assert_eq!(
        (error.message.as_str(), error.pointer.as_str()),
        ("invalid type: floating point `1.0`, expected u32", "/line")
    );
    let (encoded, report) = agree::<ToolCallLocation>(br#"{"path":"/a","line":1.0}"#).unwrap();
    assert_eq!(encoded, r#"{"path":"/a"}"#);
    assert_eq!(
        (
            report.len(),
            report[0].pointer.as_str(),
            report[0].raw.to_string()
        ),
        (1, "/line", "1.0".to_owned())
    );
}

#[test]
fn surrogate_escapes() {
    let (encoded, _) = agree::<SessionNotification>(&with_raw_input(r#""\ud83d\ude00""#)).unwrap();
    assert_eq!(raw_input_of(&encoded), "\"\u{1f600}\"");
    for lone in [r#""\ud800""#, r#""\udc00""#, r#""\ud83d\u0041""#] {
        assert!(
            agree::<SessionNotification>(&with_raw_input(lone)).is_err(),
            "{lone}"
        );
    }
    // In a member the route body skips, serde_json does not check the escape: accepted.
    let (encoded, _) =
        agree::<ToolCallRequest>(br#"{"name":"search","arguments":{},"extra":"\ud800"}"#).unwrap();
    assert_eq!(encoded, r#"{"name":"search","arguments":{}}"#);
}

#[test]
fn invalid_utf8_and_control_characters() {
    // A skipped member is not checked by serde_json (sonic-rs refuses the whole input: the
    // serde_json path then decides).
    let (encoded, _) =
        agree::<ToolCallRequest>(b"{\"name\":\"a\",\"arguments\":{},\"x\":\"\xff\"}").unwrap();
    assert_eq!(encoded, r#"{"name":"a","arguments":{}}"#);
    let error = agree::<ToolCallRequest>(b"{\"name\":\"\xff\",\"arguments\":{}}").unwrap_err();
    assert_eq!(error.message, "invalid unicode code point");
    let error = agree::<SessionNotification>(&with_raw_input("\"a\u{1}b\"")).unwrap_err();
    assert_eq!(
        error.message,
        "control character (\\u0000-\\u001F) found while parsing a string"
    );
}

#[test]
fn nesting() {
    let nested = |n: usize| with_raw_input(&format!("{}{}", "[".repeat(n), "]".repeat(n)));
    // 100 levels: sonic-rs would need about 2 MiB of stack in a debug build.
    assert!(agree::<SessionNotification>(&nested(100)).is_ok());
    let error = agree::<SessionNotification>(&nested(200)).unwrap_err();
    assert!(error.limit.is_some(), "{error:?}");
    // Inside a member the route body skips, serde_json does not count the depth (its skipping
    // is not recursive): accepted at 200 and 300 levels. sonic-rs's own skipping recurses on
    // the stack (200 levels overflowed a 2 MiB thread in a debug build).
    for n in [200, 300] {
        let deep = format!(
            r#"{{"name":"a","arguments":{{}},"x":{}{}}}"#,
            "[".repeat(n),
            "]".repeat(n)
        );
        let (encoded, _) = agree::<ToolCallRequest>(deep.as_bytes()).unwrap();
        assert_eq!(encoded, r#"{"name":"a","arguments":{}}"#);
    }
}

#[test]
fn not_json_around_the_value() {
    let body = r#"{"name":"a","arguments":{}}"#;
    for (input, message) in [
        (format!("{body} x"), "trailing characters"),
        (format!("{body}\0"), "trailing characters"),
        (format!("\u{feff}{body}"), "expected value"),
        (format!("\u{c}{body}"), "expected value"),
        (format!("{body}\u{a0}"), "trailing characters"),
        (
            r#"{"name":"a","arguments":{},}"#.to_owned(),
            "trailing comma",
        ),
    ] {
        let error = agree::<ToolCallRequest>(input.as_bytes()).unwrap_err();
        assert_eq!(error.message, message, "{input:?}");
    }
    let (encoded, _) = agree::<ToolCallRequest>(format!("\r\n\t {body} \n").as_bytes()).unwrap();
    assert_eq!(encoded, body);
}

#[test]
fn duplicate_members() {
    let error = agree::<ToolCallRequest>(br#"{"name":"a","name":"b","arguments":{}}"#).unwrap_err();
    assert_eq!(
        (error.message.as_str(), error.pointer.as_str()),
        ("duplicate field `name`", "/name")
    );
    // Inside a `Value`, the last wins with either parser.
    let (encoded, _) = agree::<SessionNotification>(&with_raw_input(r#"{"a":1,"a":2}"#)).unwrap();
    assert_eq!(raw_input_of(&encoded), r#"{"a":2}"#);
}

#[test]
fn invalid_json_in_a_skipped_member() {
    // The route body skips members it does not define (`IgnoredAny`): sonic-rs skips them with
    // its own validation, serde_json with its own; they must refuse the same.
    for skipped in [
        "[01]",
        "[1.]",
        "[-]",
        "[1e]",
        "tru",
        "nul",
        "[1,]",
        "{\"a\":1,}",
        "{\"a\" 1}",
        "{1:2}",
        "\"\\x\"",
        "\"\\u12\"",
        "\"a\u{1}b\"",
        "[1 2]",
        "\"\\ud800\"",
        "[\"a\"\"b\"]",
        "-01",
        "[.5]",
        "[+1]",
        "[NaN]",
        "1e400",
        "{\"a\":}",
        "[",
        "{\"a\":1",
    ] {
        let input = format!(r#"{{"name":"a","arguments":{{}},"x":{skipped}}}"#);
        let verdict = agree::<ToolCallRequest>(input.as_bytes());
        let expected_ok = matches!(skipped, "\"\\ud800\"" | "1e400");
        assert_eq!(verdict.is_ok(), expected_ok, "{input}: {verdict:?}");
    }
}

#[test]
fn deep_container_of_the_wrong_kind() {
    // Found by the replay of `decode_simd_differential`'s corpus in a debug build: an array
    // nested hundreds of levels where an object or a string is expected overflowed the stack.
    // sonic-rs's typed methods skip a value of the wrong kind to name it in their error, with a
    // recursive skip and no depth limit; the SIMD pass now reads every value with
    // `deserialize_any` and lets the visitor refuse it. A megabyte of `[` (the default byte
    // limit), at the top and inside a member, on a test thread's 2 MiB stack.
    let deep = "[".repeat(DECODE_LIMITS.max_bytes - 64);
    for input in [
        deep.clone(),
        format!(r#"{{"sessionId":{deep}"#),
        format!(r#"{{"name":"a","arguments":{{}},"call_key":{deep}"#),
    ] {
        let error = agree::<SessionNotification>(input.as_bytes()).unwrap_err();
        assert!(error.limit.is_some() || !error.message.is_empty());
        agree::<ToolCallRequest>(input.as_bytes()).unwrap_err();
        agree::<ToolCallUpdate>(input.as_bytes()).unwrap_err();
    }
}
