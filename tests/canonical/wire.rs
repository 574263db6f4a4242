//! Wire tests for `toolcall_contracts::canonical`: the exact JSON of a tool spec, of a result of
//! each outcome and of a lifecycle event of each kind; a round trip of every wire type in both
//! directions; every JSON the Rust types emit here validated by the published schemas; and the
//! schema files themselves ( `$schema`, `$id`, portable patterns, tagged unions).

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Debug;
use std::rc::Rc;
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
use toolcall_contracts::canonical::{
    CanonicalToolError, CanonicalToolOutput, CanonicalToolResult, CanonicalToolResultOutcome,
    ChannelId, ExchangeId, JsonSchema, MediaType, SessionId, SessionKey, ToolActionId, ToolCall,
    ToolCallContext, ToolCompletion, ToolExecutionClass, ToolId, ToolLifecycleEvent, ToolLimits,
    ToolName, ToolOutputContract, ToolRuntimeError, ToolRuntimeErrorCode, ToolSpec,
    ToolSuccessContract, TransactionId, MAX_ERROR_MESSAGE_BYTES, SCHEMA_BASE_URI, SCHEMA_FILES,
};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const TX: &str = "0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f";
const EXCHANGE: &str = "0190b6a4-8e3d-7000-8000-000000000001";

// ---------------------------------------------------------------------------------------------
// Published schemas
// ---------------------------------------------------------------------------------------------

thread_local! {
    static VALIDATORS: RefCell<HashMap<String, Rc<jsonschema::Validator>>> = RefCell::new(HashMap::new());
}

fn files() -> Vec<(&'static str, Value)> {
    SCHEMA_FILES
        .iter()
        .map(|(file, text)| {
            (
                *file,
                serde_json::from_str(text).expect("schema files are JSON"),
            )
        })
        .collect()
}

/// A validator for `$defs/<def>` of the published schemas, every file registered, nothing
/// fetched.
fn validator(def: &str) -> Rc<jsonschema::Validator> {
    VALIDATORS.with(|cache| {
        if let Some(v) = cache.borrow().get(def) {
            return Rc::clone(v);
        }
        let files = files();
        let file = files
            .iter()
            .find(|(_, schema)| schema["$defs"].get(def).is_some())
            .map(|(file, _)| *file)
            .unwrap_or_else(|| panic!("no schema file defines `{def}`"));
        let registry = jsonschema::Registry::new()
            .extend(
                files
                    .iter()
                    .map(|(file, schema)| (format!("{SCHEMA_BASE_URI}{file}"), schema)),
            )
            .expect("valid URIs")
            .prepare()
            .expect("registry");
        let root = json!({"$ref": format!("{SCHEMA_BASE_URI}{file}#/$defs/{def}")});
        let built = jsonschema::draft202012::options()
            .with_registry(&registry)
            .build(&root)
            .unwrap_or_else(|e| panic!("validator for `{def}`: {e}"));
        let built = Rc::new(built);
        cache.borrow_mut().insert(def.to_owned(), Rc::clone(&built));
        built
    })
}

/// `value` encodes as exactly `wire`, `wire` decodes as `value` and encodes back as `wire`, and
/// the published schema for `def` accepts `wire`.
#[track_caller]
fn wire<T: Serialize + DeserializeOwned + PartialEq + Debug>(def: &str, value: &T, wire: &Value) {
    let encoded = serde_json::to_value(value).unwrap_or_else(|e| panic!("encoding {value:?}: {e}"));
    assert_eq!(&encoded, wire, "encoding {value:?}");
    let decoded: T =
        serde_json::from_value(wire.clone()).unwrap_or_else(|e| panic!("decoding {wire}: {e}"));
    assert_eq!(&decoded, value, "decoding {wire}");
    assert_eq!(&serde_json::to_value(&decoded).expect("encodes"), wire);
    if let Err(error) = validator(def).validate(wire) {
        panic!(
            "`{def}` refuses what Rust emits, {wire}: {error} at {}",
            error.instance_path()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

fn ms(millis: u64) -> Duration {
    Duration::from_millis(millis)
}

fn session_key() -> SessionKey {
    SessionKey::new(
        ChannelId::try_new("slack:T024BE7LD").expect("valid"),
        SessionId::try_new("C0123/1712345678.000100").expect("valid"),
    )
}

fn spec() -> ToolSpec {
    ToolSpec::try_new(
        ToolId::try_new("github/search@2").expect("valid"),
        ToolName::try_new("github.search").expect("valid"),
        "Search issues by text. Returns at most 50.",
        JsonSchema::try_new(json!({
            "type": "object",
            "properties": {"q": {"type": "string", "minLength": 1}},
            "required": ["q"]
        }))
        .expect("valid"),
        ToolOutputContract {
            success: ToolSuccessContract::json(JsonSchema::try_new(json!({"type": "array"})).expect("valid")),
            error_data_schema: Some(
                JsonSchema::try_new(json!({"type": "object", "properties": {"retry_after_ms": {"type": "integer"}}}))
                    .expect("valid"),
            ),
        },
        ToolLimits {
            max_concurrent: 4,
            max_input_bytes: 65_536,
            max_output_bytes: 1_048_576,
            execution_deadline: Duration::from_secs(10),
        },
        ToolExecutionClass::ProcessIsolated {
            grace: ms(500),
            kill_deadline: Duration::from_secs(2),
        },
    )
    .expect("valid spec")
}

fn result(outcome: CanonicalToolResultOutcome) -> CanonicalToolResult {
    let transaction_id = TransactionId::try_new(TX).expect("valid");
    CanonicalToolResult {
        tool_action_id: ToolActionId::for_call(&transaction_id, 2),
        transaction_id,
        session_key: session_key(),
        exchange_id: ExchangeId::try_new(EXCHANGE).expect("valid"),
        tool_id: ToolId::try_new("github/search@2").expect("valid"),
        provider_tool_call_id: "toolu_01A09q90qw90lq917835lq9".to_owned(),
        request_ordinal: 2,
        outcome,
    }
}

fn result_identity_json() -> Value {
    json!({
        "transaction_id": TX,
        "session_key": {"channel_id": "slack:T024BE7LD", "session_id": "C0123/1712345678.000100"},
        "exchange_id": EXCHANGE,
        "tool_action_id": format!("{TX}:2"),
        "tool_id": "github/search@2",
        "provider_tool_call_id": "toolu_01A09q90qw90lq917835lq9",
        "request_ordinal": 2
    })
}

fn with(mut object: Value, members: Value) -> Value {
    for (key, value) in members.as_object().expect("members").clone() {
        object[key] = value;
    }
    object
}

// ---------------------------------------------------------------------------------------------
// Exact JSON
// ---------------------------------------------------------------------------------------------

#[test]
fn tool_spec_exact_json() {
    let expected = json!({
        "id": "github/search@2",
        "name": "github.search",
        "description": "Search issues by text. Returns at most 50.",
        "input_schema": {
            "type": "object",
            "properties": {"q": {"type": "string", "minLength": 1}},
            "required": ["q"]
        },
        "output_contract": {
            "success": {"type": "json", "schema": {"type": "array"}},
            "error_data_schema": {"type": "object", "properties": {"retry_after_ms": {"type": "integer"}}}
        },
        "limits": {
            "max_concurrent": 4,
            "max_input_bytes": 65536,
            "max_output_bytes": 1048576,
            "execution_deadline_ms": 10000
        },
        "execution_class": {"type": "process_isolated", "grace_ms": 500, "kill_deadline_ms": 2000}
    });
    assert_eq!(serde_json::to_value(spec()).expect("encodes"), expected);
    wire("ToolSpec", &spec(), &expected);
    // Member order on the wire follows the schema.
    let text = serde_json::to_string(&spec()).expect("encodes");
    let positions: Vec<usize> = [
        "\"id\"",
        "\"name\"",
        "\"description\"",
        "\"input_schema\"",
        "\"output_contract\"",
        "\"limits\"",
        "\"execution_class\"",
    ]
    .iter()
    .map(|member| text.find(member).expect("member written"))
    .collect();
    assert!(positions.windows(2).all(|pair| pair[0] < pair[1]), "{text}");
}

#[test]
fn succeeded_result_exact_json() -> TestResult {
    let value = result(CanonicalToolResultOutcome::Succeeded(
        CanonicalToolOutput::Json(json!([{"number": 12, "title": "Crash on start"}])),
    ));
    let expected = json!({
        "transaction_id": TX,
        "session_key": {"channel_id": "slack:T024BE7LD", "session_id": "C0123/1712345678.000100"},
        "exchange_id": EXCHANGE,
        "tool_action_id": format!("{TX}:2"),
        "tool_id": "github/search@2",
        "provider_tool_call_id": "toolu_01A09q90qw90lq917835lq9",
        "request_ordinal": 2,
        "outcome": {
            "type": "succeeded",
            "output": {"type": "json", "value": [{"number": 12, "title": "Crash on start"}]}
        }
    });
    assert_eq!(serde_json::to_value(&value)?, expected);
    wire("CanonicalToolResult", &value, &expected);
    Ok(())
}

#[test]
fn domain_failed_result_exact_json() -> TestResult {
    let error = CanonicalToolError::try_new(
        "rate_limited",
        "GitHub refused the search: rate limit",
        Some(json!({"retry_after_ms": 60000})),
        MAX_ERROR_MESSAGE_BYTES,
    )?;
    let value = result(CanonicalToolResultOutcome::DomainFailed(error));
    let expected = json!({
        "transaction_id": TX,
        "session_key": {"channel_id": "slack:T024BE7LD", "session_id": "C0123/1712345678.000100"},
        "exchange_id": EXCHANGE,
        "tool_action_id": format!("{TX}:2"),
        "tool_id": "github/search@2",
        "provider_tool_call_id": "toolu_01A09q90qw90lq917835lq9",
        "request_ordinal": 2,
        "outcome": {
            "type": "domain_failed",
            "error": {
                "code": "rate_limited",
                "message": "GitHub refused the search: rate limit",
                "data": {"retry_after_ms": 60000}
            }
        }
    });
    assert_eq!(serde_json::to_value(&value)?, expected);
    wire("CanonicalToolResult", &value, &expected);
    Ok(())
}

#[test]
fn lifecycle_events_exact_json() -> TestResult {
    let action = ToolActionId::try_new(format!("{TX}:2"))?;
    let tool_id = ToolId::try_new("github/search@2")?;

    let started = ToolLifecycleEvent::Started {
        tool_action_id: action.clone(),
        tool_id: tool_id.clone(),
    };
    let expected = json!({"type": "started", "tool_action_id": format!("{TX}:2"), "tool_id": "github/search@2"});
    assert_eq!(serde_json::to_value(&started)?, expected);
    wire("ToolLifecycleEvent", &started, &expected);

    let completed = ToolLifecycleEvent::Completed {
        result: result(CanonicalToolResultOutcome::Succeeded(
            CanonicalToolOutput::Text("2 issues".to_owned()),
        )),
    };
    let expected = json!({
        "type": "completed",
        "result": with(result_identity_json(), json!({
            "outcome": {"type": "succeeded", "output": {"type": "text", "text": "2 issues"}}
        }))
    });
    assert_eq!(serde_json::to_value(&completed)?, expected);
    wire("ToolLifecycleEvent", &completed, &expected);

    let failed = ToolLifecycleEvent::RuntimeFailed {
        tool_action_id: action,
        tool_id,
        code: ToolRuntimeErrorCode::TerminationFailed,
    };
    let expected = json!({
        "type": "runtime_failed",
        "tool_action_id": format!("{TX}:2"),
        "tool_id": "github/search@2",
        "code": "termination_failed"
    });
    assert_eq!(serde_json::to_value(&failed)?, expected);
    wire("ToolLifecycleEvent", &failed, &expected);
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Round trips of every wire type
// ---------------------------------------------------------------------------------------------

#[test]
fn ids_round_trip_as_strings() -> TestResult {
    wire(
        "ToolId",
        &ToolId::try_new("github/search@2")?,
        &json!("github/search@2"),
    );
    wire(
        "ToolName",
        &ToolName::try_new("github.search")?,
        &json!("github.search"),
    );
    wire(
        "ChannelId",
        &ChannelId::try_new("slack:T024BE7LD")?,
        &json!("slack:T024BE7LD"),
    );
    wire("SessionId", &SessionId::try_new("s-1")?, &json!("s-1"));
    wire("TransactionId", &TransactionId::try_new(TX)?, &json!(TX));
    wire(
        "ExchangeId",
        &ExchangeId::try_new(EXCHANGE)?,
        &json!(EXCHANGE),
    );
    let generated = TransactionId::generate();
    wire("TransactionId", &generated, &json!(generated.as_str()));
    let generated = ExchangeId::generate();
    wire("ExchangeId", &generated, &json!(generated.as_str()));
    let action = ToolActionId::for_call(&TransactionId::try_new(TX)?, u32::MAX);
    wire("ToolActionId", &action, &json!(format!("{TX}:4294967295")));
    wire(
        "SessionKey",
        &session_key(),
        &json!({"channel_id": "slack:T024BE7LD", "session_id": "C0123/1712345678.000100"}),
    );
    // Every conversion goes through the same check.
    assert_eq!(ToolId::try_from("t")?, ToolId::try_new("t")?);
    assert_eq!(ToolId::try_from(String::from("t"))?, "t".parse::<ToolId>()?);
    assert_eq!(String::from(ToolId::try_new("t")?), "t");
    assert_eq!(session_key().channel_id().as_str(), "slack:T024BE7LD");
    assert_eq!(
        session_key().session_id().as_str(),
        "C0123/1712345678.000100"
    );
    Ok(())
}

#[test]
fn limits_and_execution_classes_round_trip_with_durations_in_ms() {
    wire(
        "ToolLimits",
        &ToolLimits::default(),
        &json!({
            "max_concurrent": 1,
            "max_input_bytes": 1048576,
            "max_output_bytes": 1048576,
            "execution_deadline_ms": 30000
        }),
    );
    assert_eq!(
        ToolLimits::default().execution_deadline,
        Duration::from_secs(30)
    );
    wire(
        "ToolExecutionClass",
        &ToolExecutionClass::CooperativeInProcess { grace: ms(100) },
        &json!({"type": "cooperative_in_process", "grace_ms": 100}),
    );
    wire(
        "ToolExecutionClass",
        &ToolExecutionClass::AbortableAtYield { grace: ms(1) },
        &json!({"type": "abortable_at_yield", "grace_ms": 1}),
    );
    wire(
        "ToolExecutionClass",
        &ToolExecutionClass::ProcessIsolated {
            grace: ms(500),
            kill_deadline: ms(2000),
        },
        &json!({"type": "process_isolated", "grace_ms": 500, "kill_deadline_ms": 2000}),
    );
    assert_eq!(
        ToolExecutionClass::ProcessIsolated {
            grace: ms(5),
            kill_deadline: ms(9)
        }
        .grace(),
        ms(5)
    );
}

#[test]
fn schemas_contracts_and_specs_round_trip() -> TestResult {
    let schema = JsonSchema::try_new(json!({"type": "object", "properties": {"a": {"const": 1}}}))?;
    wire(
        "JsonSchema",
        &schema,
        &json!({"type": "object", "properties": {"a": {"const": 1}}}),
    );
    wire(
        "MediaType",
        &MediaType::try_new("text/markdown; charset=utf-8")?,
        &json!("text/markdown; charset=utf-8"),
    );
    let json_success = ToolSuccessContract::json(schema.clone());
    wire(
        "ToolSuccessContract",
        &json_success,
        &json!({"type": "json", "schema": {"type": "object", "properties": {"a": {"const": 1}}}}),
    );
    let text_success = ToolSuccessContract::text("text/plain")?;
    wire(
        "ToolSuccessContract",
        &text_success,
        &json!({"type": "text", "media_type": "text/plain"}),
    );
    wire(
        "ToolOutputContract",
        &ToolOutputContract {
            success: text_success.clone(),
            error_data_schema: None,
        },
        &json!({"success": {"type": "text", "media_type": "text/plain"}}),
    );
    wire(
        "ToolOutputContract",
        &ToolOutputContract {
            success: json_success,
            error_data_schema: Some(schema),
        },
        &json!({
            "success": {"type": "json", "schema": {"type": "object", "properties": {"a": {"const": 1}}}},
            "error_data_schema": {"type": "object", "properties": {"a": {"const": 1}}}
        }),
    );
    // A minimal spec: empty description, empty schema, defaults.
    let minimal = ToolSpec::try_new(
        ToolId::try_new("t")?,
        ToolName::try_new("t")?,
        "",
        JsonSchema::try_new(json!({}))?,
        ToolOutputContract {
            success: text_success,
            error_data_schema: None,
        },
        ToolLimits::default(),
        ToolExecutionClass::AbortableAtYield { grace: ms(250) },
    )?;
    wire(
        "ToolSpec",
        &minimal,
        &json!({
            "id": "t",
            "name": "t",
            "description": "",
            "input_schema": {},
            "output_contract": {"success": {"type": "text", "media_type": "text/plain"}},
            "limits": {
                "max_concurrent": 1,
                "max_input_bytes": 1048576,
                "max_output_bytes": 1048576,
                "execution_deadline_ms": 30000
            },
            "execution_class": {"type": "abortable_at_yield", "grace_ms": 250}
        }),
    );
    let spec = spec();
    assert_eq!(spec.id().as_str(), "github/search@2");
    assert_eq!(
        spec.description(),
        "Search issues by text. Returns at most 50."
    );
    assert_eq!(spec.input_schema().as_value()["required"], json!(["q"]));
    assert!(spec.output_contract().error_data_schema.is_some());
    assert_eq!(spec.limits().max_concurrent, 4);
    assert_eq!(spec.execution_class().grace(), ms(500));
    Ok(())
}

#[test]
fn tool_call_round_trips_and_keeps_the_provider_id_byte_for_byte() -> TestResult {
    for provider_id in [
        "call_01",
        "",
        " padded\t",
        "caf\u{E9}\u{301}",
        "toolu_01A09q90qw90lq917835lq9",
        "\u{FEFF}bom",
    ] {
        let call = ToolCall {
            tool_name: ToolName::try_new("github.search")?,
            tool_id: ToolId::try_new("github/search@2")?,
            provider_tool_call_id: provider_id.to_owned(),
            arguments: json!({"q": "is:open", "limit": 5}),
            request_ordinal: 3,
        };
        wire(
            "ToolCall",
            &call,
            &json!({
                "tool_name": "github.search",
                "tool_id": "github/search@2",
                "provider_tool_call_id": provider_id,
                "arguments": {"q": "is:open", "limit": 5},
                "request_ordinal": 3
            }),
        );
        let text = serde_json::to_string(&call)?;
        let decoded: ToolCall = serde_json::from_str(&text)?;
        assert_eq!(
            decoded.provider_tool_call_id.as_bytes(),
            provider_id.as_bytes()
        );
    }
    for arguments in [json!(null), json!([1, 2]), json!("text"), json!({})] {
        let call = ToolCall {
            tool_name: ToolName::try_new("t")?,
            tool_id: ToolId::try_new("t")?,
            provider_tool_call_id: "c".to_owned(),
            arguments: arguments.clone(),
            request_ordinal: u32::MAX,
        };
        wire(
            "ToolCall",
            &call,
            &json!({
                "tool_name": "t", "tool_id": "t", "provider_tool_call_id": "c",
                "arguments": arguments, "request_ordinal": 4294967295_u64
            }),
        );
    }
    Ok(())
}

#[test]
fn outputs_errors_and_outcomes_round_trip() -> TestResult {
    wire(
        "CanonicalToolOutput",
        &CanonicalToolOutput::Json(json!(null)),
        &json!({"type": "json", "value": null}),
    );
    wire(
        "CanonicalToolOutput",
        &CanonicalToolOutput::Json(json!({"a": [1]})),
        &json!({"type": "json", "value": {"a": [1]}}),
    );
    wire(
        "CanonicalToolOutput",
        &CanonicalToolOutput::Text(String::new()),
        &json!({"type": "text", "text": ""}),
    );
    wire(
        "CanonicalToolOutput",
        &CanonicalToolOutput::Text("two\nlines".to_owned()),
        &json!({"type": "text", "text": "two\nlines"}),
    );

    // `data`: absent, `null` and a value are three states.
    let absent = CanonicalToolError::try_new("c", "m", None, MAX_ERROR_MESSAGE_BYTES)?;
    wire(
        "CanonicalToolError",
        &absent,
        &json!({"code": "c", "message": "m"}),
    );
    assert_eq!(absent.data(), None);
    let null = CanonicalToolError::try_new("c", "m", Some(Value::Null), MAX_ERROR_MESSAGE_BYTES)?;
    wire(
        "CanonicalToolError",
        &null,
        &json!({"code": "c", "message": "m", "data": null}),
    );
    assert_eq!(null.data(), Some(&Value::Null));
    let value = CanonicalToolError::try_new("c", "m", Some(json!([1])), MAX_ERROR_MESSAGE_BYTES)?;
    wire(
        "CanonicalToolError",
        &value,
        &json!({"code": "c", "message": "m", "data": [1]}),
    );
    assert_ne!(absent, null);

    wire(
        "CanonicalToolResultOutcome",
        &CanonicalToolResultOutcome::Succeeded(CanonicalToolOutput::Text("ok".to_owned())),
        &json!({"type": "succeeded", "output": {"type": "text", "text": "ok"}}),
    );
    wire(
        "CanonicalToolResultOutcome",
        &CanonicalToolResultOutcome::DomainFailed(null),
        &json!({"type": "domain_failed", "error": {"code": "c", "message": "m", "data": null}}),
    );
    Ok(())
}

#[test]
fn runtime_error_codes_round_trip_as_snake_case_strings() -> TestResult {
    let codes = [
        (ToolRuntimeErrorCode::Panicked, "panicked"),
        (ToolRuntimeErrorCode::CompletionLost, "completion_lost"),
        (
            ToolRuntimeErrorCode::OutputContractViolated,
            "output_contract_violated",
        ),
        (
            ToolRuntimeErrorCode::TerminationFailed,
            "termination_failed",
        ),
        (ToolRuntimeErrorCode::DeadlineExceeded, "deadline_exceeded"),
    ];
    for (code, text) in codes {
        wire("ToolRuntimeErrorCode", &code, &json!(text));
        assert_eq!(code.as_str(), text);
        assert_eq!(code.to_string(), text);
    }
    let unknown = serde_json::from_value::<ToolRuntimeErrorCode>(json!("oom")).unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "unknown variant `oom`, expected one of `panicked`, `completion_lost`, \
         `output_contract_violated`, `termination_failed`, `deadline_exceeded`"
    );
    assert!(!validator("ToolRuntimeErrorCode").is_valid(&json!("oom")));
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Decoding details
// ---------------------------------------------------------------------------------------------

/// Unknown members are ignored on decode (the schemas allow them) and so dropped on encode.
#[test]
fn unknown_members_are_ignored_and_dropped() -> TestResult {
    let mut with_extra = serde_json::to_value(spec())?;
    with_extra["x_vendor"] = json!({"a": 1});
    with_extra["limits"]["max_cpu_ms"] = json!(5);
    assert!(validator("ToolSpec").is_valid(&with_extra));
    let decoded: ToolSpec = serde_json::from_value(with_extra)?;
    assert_eq!(decoded, spec());
    assert_eq!(
        serde_json::to_value(&decoded)?,
        serde_json::to_value(spec())?
    );
    Ok(())
}

#[test]
fn unknown_and_missing_tags_name_the_union() {
    let error =
        serde_json::from_value::<CanonicalToolOutput>(json!({"type": "binary", "bytes": "AA=="}))
            .unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown `type` value `binary` for `CanonicalToolOutput`, expected one of `json`, `text`"
    );
    let error = serde_json::from_value::<ToolLifecycleEvent>(json!({"tool_id": "t"})).unwrap_err();
    assert_eq!(
        error.to_string(),
        "missing tag `type` for `ToolLifecycleEvent`, expected one of `started`, `completed`, `runtime_failed`"
    );
    assert!(!validator("CanonicalToolOutput").is_valid(&json!({"type": "binary", "bytes": "AA=="})));
    assert!(!validator("ToolLifecycleEvent").is_valid(&json!({"tool_id": "t"})));
}

/// The tag may come anywhere in the object, as JSON objects are unordered.
#[test]
fn tags_decode_wherever_they_come_in_the_text() -> TestResult {
    let class = ToolExecutionClass::ProcessIsolated {
        grace: ms(1),
        kill_deadline: ms(2),
    };
    for text in [
        r#"{"type": "process_isolated", "grace_ms": 1, "kill_deadline_ms": 2}"#,
        r#"{"grace_ms": 1, "type": "process_isolated", "kill_deadline_ms": 2}"#,
        r#"{"grace_ms": 1, "kill_deadline_ms": 2, "type": "process_isolated"}"#,
    ] {
        assert_eq!(serde_json::from_str::<ToolExecutionClass>(text)?, class);
    }
    let event = format!(
        r#"{{"result": {{"outcome": {{"output": {{"text": "ok", "type": "text"}}, "type": "succeeded"}},
            "request_ordinal": 2, "provider_tool_call_id": "toolu_01A09q90qw90lq917835lq9",
            "tool_id": "github/search@2", "tool_action_id": "{TX}:2", "exchange_id": "{EXCHANGE}",
            "session_key": {{"session_id": "C0123/1712345678.000100", "channel_id": "slack:T024BE7LD"}},
            "transaction_id": "{TX}"}}, "type": "completed"}}"#
    );
    let decoded: ToolLifecycleEvent = serde_json::from_str(&event)?;
    let expected = ToolLifecycleEvent::Completed {
        result: result(CanonicalToolResultOutcome::Succeeded(
            CanonicalToolOutput::Text("ok".to_owned()),
        )),
    };
    assert_eq!(decoded, expected);
    // A rule broken inside a streamed union still names its member.
    let error = serde_json::from_str::<ToolExecutionClass>(
        r#"{"type": "abortable_at_yield", "grace_ms": 0}"#,
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "`grace_ms` must be a whole number of milliseconds from 1 to 9007199254740991"
    );
    Ok(())
}

#[test]
fn missing_required_members_are_named() {
    let error = serde_json::from_value::<ToolCall>(
        json!({"tool_name": "t", "tool_id": "t", "arguments": {}, "request_ordinal": 0}),
    )
    .unwrap_err();
    assert_eq!(error.to_string(), "missing field `provider_tool_call_id`");
    // `arguments` is required even though any value, `null` included, is allowed.
    let error = serde_json::from_value::<ToolCall>(json!({"tool_name": "t", "tool_id": "t", "provider_tool_call_id": "c", "request_ordinal": 0}))
        .unwrap_err();
    assert_eq!(error.to_string(), "missing field `arguments`");
    assert!(!validator("ToolCall").is_valid(&json!({"tool_name": "t", "tool_id": "t", "provider_tool_call_id": "c", "request_ordinal": 0})));
}

// ---------------------------------------------------------------------------------------------
// In-process types
// ---------------------------------------------------------------------------------------------

#[test]
fn completion_becomes_an_outcome_or_a_runtime_failure() -> TestResult {
    let output = CanonicalToolOutput::Text("ok".to_owned());
    assert_eq!(
        ToolCompletion::Succeeded(output.clone()).into_outcome(),
        Ok(CanonicalToolResultOutcome::Succeeded(output))
    );
    let error = CanonicalToolError::try_new("c", "m", None, MAX_ERROR_MESSAGE_BYTES)?;
    assert_eq!(
        ToolCompletion::DomainFailed(error.clone()).into_outcome(),
        Ok(CanonicalToolResultOutcome::DomainFailed(error))
    );
    let failure = ToolRuntimeError::CompletionLost {
        tool_id: ToolId::try_new("t")?,
    };
    assert_eq!(
        ToolCompletion::RuntimeFailed(failure.clone()).into_outcome(),
        Err(failure)
    );
    Ok(())
}

#[test]
fn call_context_carries_ids_and_a_deadline() -> TestResult {
    let transaction_id = TransactionId::generate();
    let deadline = Instant::now() + Duration::from_secs(60);
    let context = ToolCallContext {
        tool_action_id: ToolActionId::for_call(&transaction_id, 1),
        transaction_id: transaction_id.clone(),
        session_key: session_key(),
        exchange_id: Some(ExchangeId::generate()),
        tool_id: ToolId::try_new("t")?,
        deadline,
    };
    assert!(context.remaining() > Duration::from_secs(50));
    assert!(context
        .tool_action_id
        .as_str()
        .starts_with(transaction_id.as_str()));
    let expired = ToolCallContext {
        deadline: Instant::now(),
        ..context.clone()
    };
    std::thread::sleep(Duration::from_millis(2));
    assert_eq!(expired.remaining(), Duration::ZERO);
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The schema files
// ---------------------------------------------------------------------------------------------

#[test]
fn schema_files_are_2020_12_with_absolute_ids_and_unique_definitions() {
    let mut names = BTreeSet::new();
    for (file, schema) in files() {
        assert_eq!(
            schema["$schema"],
            json!("https://json-schema.org/draft/2020-12/schema"),
            "{file}"
        );
        assert_eq!(
            schema["$id"],
            json!(format!("{SCHEMA_BASE_URI}{file}")),
            "{file}"
        );
        assert!(
            jsonschema::draft202012::meta::is_valid(&schema),
            "{file} breaks the 2020-12 meta-schema"
        );
        for name in schema["$defs"].as_object().expect("$defs").keys() {
            assert!(names.insert(name.clone()), "`{name}` defined twice");
        }
        let text = std::fs::read_to_string(format!(
            "{}/schema/canonical/{file}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("schema file");
        assert!(
            text.ends_with('\n') && !text.contains('\r'),
            "{file}: LF line endings"
        );
    }
}

fn walk<'a>(value: &'a Value, pointer: String, out: &mut Vec<(String, &'a Value)>) {
    match value {
        Value::Object(map) => {
            out.push((pointer.clone(), value));
            for (key, sub) in map {
                walk(sub, format!("{pointer}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (i, sub) in items.iter().enumerate() {
                walk(sub, format!("{pointer}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Patterns mean the same in Rust, ECMAScript and Python: ASCII classes, anchored, no `\d`,
/// `\w`, `\s`, `\p{..}` or lookaround; unions are internally tagged by a `const` `type` with
/// `discriminator` and `type: object` beside them (for ajv's and pydantic's discriminated
/// unions); members are snake_case; refs are local or to a sibling file.
#[test]
fn schema_files_use_portable_constructs() {
    let siblings: Vec<&str> = SCHEMA_FILES.iter().map(|(file, _)| *file).collect();
    for (file, schema) in files() {
        let mut nodes = Vec::new();
        walk(&schema, String::new(), &mut nodes);
        for (pointer, node) in nodes {
            if let Some(pattern) = node.get("pattern").and_then(Value::as_str) {
                for forbidden in ["\\d", "\\w", "\\s", "\\p", "\\D", "\\W", "(?"] {
                    assert!(
                        !pattern.contains(forbidden),
                        "{file}{pointer}: `{forbidden}` in {pattern}"
                    );
                }
                assert!(
                    pattern.starts_with('^') && pattern.ends_with('$'),
                    "{file}{pointer}: unanchored"
                );
            }
            if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
                let (target, fragment) = reference.split_once('#').expect("a fragment");
                assert!(
                    target.is_empty() || siblings.contains(&target),
                    "{file}{pointer}: {reference}"
                );
                assert!(
                    fragment.starts_with("/$defs/"),
                    "{file}{pointer}: {reference}"
                );
            }
            if let Some(properties) = node.get("properties").and_then(Value::as_object) {
                for member in properties.keys() {
                    assert!(
                        member
                            .bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                        "{file}{pointer}: `{member}` is not snake_case"
                    );
                }
            }
            if let Some(branches) = node.get("oneOf").and_then(Value::as_array) {
                let tagged = branches.iter().any(|b| b.get("properties").is_some());
                if tagged {
                    assert_eq!(node["type"], json!("object"), "{file}{pointer}");
                    assert_eq!(
                        node["discriminator"],
                        json!({"propertyName": "type"}),
                        "{file}{pointer}"
                    );
                    for branch in branches {
                        let tag = branch["properties"]["type"]["const"]
                            .as_str()
                            .expect("a const tag");
                        assert!(
                            tag.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                            "{tag}"
                        );
                        assert!(branch["required"]
                            .as_array()
                            .expect("required")
                            .contains(&json!("type")));
                    }
                }
            }
        }
    }
}
