//! Every rule of `toolcall_contracts::canonical` at its boundary, through the constructor and
//! through `serde_json::from_value` (same verdict, exact error, message naming the member), and
//! the published schemas' verdict on each refused JSON: they refuse it wherever JSON Schema can
//! express the rule; [`rules_json_schema_cannot_express`] lists the others and why.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Debug;
use std::rc::Rc;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use toolcall_contracts::canonical::{
    CanonicalToolError, CanonicalToolResult, ChannelId, ExchangeId, JsonSchema, MediaType,
    SessionId, SessionKey, TextViolation, ToolActionId, ToolCall, ToolContractError,
    ToolExecutionClass, ToolId, ToolLifecycleEvent, ToolLimits, ToolName, ToolOutputContract,
    ToolRuntimeError, ToolRuntimeErrorCode, ToolSpec, ToolStartError, ToolSuccessContract,
    TransactionId, MAX_DESCRIPTION_BYTES, MAX_ERROR_CODE_BYTES, MAX_ERROR_MESSAGE_BYTES,
    MAX_MEDIA_TYPE_BYTES, MAX_SCHEMA_DEPTH, MAX_WIRE_INTEGER, SCHEMA_BASE_URI, SCHEMA_FILES,
};
use toolcall_contracts::policy::Dialect;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const TX: &str = "0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f";
const PRINTABLE: &str = "printable ASCII `!`..=`~`";
const NAME_ALPHABET: &str = "`A-Z`, `a-z`, `0-9`, `_`, `-`, `.`";
const UUID_V7: &str = "a lowercase hyphenated version 7 UUID";

// ---------------------------------------------------------------------------------------------
// Published schemas
// ---------------------------------------------------------------------------------------------

thread_local! {
    static VALIDATORS: RefCell<HashMap<String, Rc<jsonschema::Validator>>> = RefCell::new(HashMap::new());
}

/// The file that defines `def`.
fn file_of(def: &str) -> String {
    for (file, text) in SCHEMA_FILES {
        let schema: Value = serde_json::from_str(text).expect("schema files are JSON");
        if schema["$defs"].get(def).is_some() {
            return (*file).to_owned();
        }
    }
    panic!("no schema file defines `{def}`");
}

/// A validator for `$defs/<def>` of the published schemas, every file registered, nothing
/// fetched.
fn validator(def: &str) -> Rc<jsonschema::Validator> {
    VALIDATORS.with(|cache| {
        if let Some(v) = cache.borrow().get(def) {
            return Rc::clone(v);
        }
        let resources: Vec<(String, Value)> = SCHEMA_FILES
            .iter()
            .map(|(file, text)| {
                let value = serde_json::from_str(text).expect("schema files are JSON");
                (format!("{SCHEMA_BASE_URI}{file}"), value)
            })
            .collect();
        let registry = jsonschema::Registry::new()
            .extend(resources.iter().map(|(uri, value)| (uri.as_str(), value)))
            .expect("valid URIs")
            .prepare()
            .expect("registry");
        let root = json!({"$ref": format!("{SCHEMA_BASE_URI}{}#/$defs/{def}", file_of(def))});
        let built = jsonschema::draft202012::options()
            .with_registry(&registry)
            .build(&root)
            .unwrap_or_else(|e| panic!("validator for `{def}`: {e}"));
        let built = Rc::new(built);
        cache.borrow_mut().insert(def.to_owned(), Rc::clone(&built));
        built
    })
}

fn schema_accepts(def: &str, instance: &Value) -> bool {
    validator(def).is_valid(instance)
}

/// Whether the published schema can say no to this JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Schema {
    /// The schema refuses it too.
    Refuses,
    /// The schema accepts it: the rule is one JSON Schema cannot express (listed in
    /// `rules_json_schema_cannot_express`).
    CannotExpress,
}

/// `json` fails to decode as `T` with exactly `message`, and the schema for `def` gives the
/// verdict `schema`.
#[track_caller]
fn refused<T: DeserializeOwned + Debug>(def: &str, json: &Value, message: &str, schema: Schema) {
    match serde_json::from_value::<T>(json.clone()) {
        Ok(value) => panic!("decoded {json} as {value:?}, expected `{message}`"),
        Err(error) => assert_eq!(error.to_string(), message, "decoding {json}"),
    }
    let accepted = schema_accepts(def, json);
    match schema {
        Schema::Refuses => assert!(
            !accepted,
            "`{def}` accepts {json}, Rust refuses it: {message}"
        ),
        Schema::CannotExpress => assert!(accepted, "`{def}` refuses {json}: move it to `Refuses`"),
    }
}

/// `json` decodes as `T` and the schema for `def` accepts it.
#[track_caller]
fn accepted<T: DeserializeOwned + Debug>(def: &str, json: &Value) -> T {
    let value = serde_json::from_value::<T>(json.clone())
        .unwrap_or_else(|e| panic!("decoding {json}: {e}"));
    assert!(
        schema_accepts(def, json),
        "`{def}` refuses {json}, Rust accepts it"
    );
    value
}

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

fn spec_json() -> Value {
    json!({
        "id": "github/search@2",
        "name": "github.search",
        "description": "Search issues.",
        "input_schema": {"type": "object"},
        "output_contract": {"success": {"type": "text", "media_type": "text/plain"}},
        "limits": {
            "max_concurrent": 1,
            "max_input_bytes": 1,
            "max_output_bytes": 1,
            "execution_deadline_ms": 1
        },
        "execution_class": {"type": "process_isolated", "grace_ms": 1, "kill_deadline_ms": 1}
    })
}

/// `spec_json()` with `value` at `pointer` (which must exist).
fn spec_with(pointer: &str, value: Value) -> Value {
    let mut spec = spec_json();
    *spec.pointer_mut(pointer).expect("pointer into the fixture") = value;
    spec
}

fn result_json() -> Value {
    json!({
        "transaction_id": TX,
        "session_key": {"channel_id": "cli", "session_id": "s1"},
        "exchange_id": TX,
        "tool_action_id": format!("{TX}:0"),
        "tool_id": "t",
        "provider_tool_call_id": "call_1",
        "request_ordinal": 0,
        "outcome": {
            "type": "domain_failed",
            "error": {"code": "not_found", "message": "no such issue"}
        }
    })
}

fn result_with(pointer: &str, value: Value) -> Value {
    let mut result = result_json();
    *result
        .pointer_mut(pointer)
        .expect("pointer into the fixture") = value;
    result
}

fn spec_parts() -> (ToolId, ToolName, JsonSchema, ToolOutputContract) {
    (
        ToolId::try_new("t").expect("valid"),
        ToolName::try_new("t").expect("valid"),
        JsonSchema::try_new(json!({})).expect("valid"),
        ToolOutputContract {
            success: ToolSuccessContract::text("text/plain").expect("valid"),
            error_data_schema: None,
        },
    )
}

fn build_spec(
    description: &str,
    limits: ToolLimits,
    class: ToolExecutionClass,
) -> Result<ToolSpec, ToolContractError> {
    let (id, name, schema, contract) = spec_parts();
    ToolSpec::try_new(id, name, description, schema, contract, limits, class)
}

fn class() -> ToolExecutionClass {
    ToolExecutionClass::CooperativeInProcess {
        grace: Duration::from_millis(1),
    }
}

fn nested(depth: usize) -> Value {
    let mut value = json!({});
    for _ in 1..depth {
        value = json!({"not": value});
    }
    value
}

// ---------------------------------------------------------------------------------------------
// Opaque ids: ToolId, ChannelId, SessionId
// ---------------------------------------------------------------------------------------------

#[test]
fn opaque_ids_take_1_to_128_bytes_of_printable_ascii() -> TestResult {
    let max = "~".repeat(128);
    for ok in ["!", "a", "github/search@2", max.as_str()] {
        assert_eq!(ToolId::try_new(ok)?.as_str(), ok);
        assert_eq!(ChannelId::try_new(ok)?.as_str(), ok);
        assert_eq!(SessionId::try_new(ok)?.as_str(), ok);
        assert_eq!(ToolActionId::try_new(ok)?.as_str(), ok);
        accepted::<ToolId>("ToolId", &json!(ok));
        accepted::<ChannelId>("ChannelId", &json!(ok));
        accepted::<SessionId>("SessionId", &json!(ok));
        accepted::<ToolActionId>("ToolActionId", &json!(ok));
    }
    let long = "a".repeat(129);
    let cases = [
        ("", TextViolation::Empty),
        (
            long.as_str(),
            TextViolation::TooLong {
                length: 129,
                max: 128,
            },
        ),
        (
            "a b",
            TextViolation::InvalidCharacter {
                index: 1,
                allowed: PRINTABLE,
            },
        ),
        (
            "ab\u{7F}",
            TextViolation::InvalidCharacter {
                index: 2,
                allowed: PRINTABLE,
            },
        ),
        (
            "\u{E9}",
            TextViolation::InvalidCharacter {
                index: 0,
                allowed: PRINTABLE,
            },
        ),
        (
            "a\n",
            TextViolation::InvalidCharacter {
                index: 1,
                allowed: PRINTABLE,
            },
        ),
    ];
    for (value, violation) in cases {
        for (field, result) in [
            ("tool_id", ToolId::try_new(value).map(drop)),
            ("channel_id", ChannelId::try_new(value).map(drop)),
            ("session_id", SessionId::try_new(value).map(drop)),
            ("tool_action_id", ToolActionId::try_new(value).map(drop)),
            ("tool_action_id", ToolActionId::new(value).validate()),
        ] {
            assert_eq!(
                result,
                Err(ToolContractError::InvalidId { field, violation })
            );
        }
        let json = json!(value);
        refused::<ToolId>(
            "ToolId",
            &json,
            &format!("`tool_id` {violation}"),
            Schema::Refuses,
        );
        refused::<ChannelId>(
            "ChannelId",
            &json,
            &format!("`channel_id` {violation}"),
            Schema::Refuses,
        );
        refused::<SessionId>(
            "SessionId",
            &json,
            &format!("`session_id` {violation}"),
            Schema::Refuses,
        );
        refused::<ToolActionId>(
            "ToolActionId",
            &json,
            &format!("`tool_action_id` {violation}"),
            Schema::Refuses,
        );
        // Built unchecked by `new`, it is refused when encoded, with the same message.
        assert_eq!(
            serde_json::to_value(ToolActionId::new(value))
                .unwrap_err()
                .to_string(),
            format!("`tool_action_id` {violation}")
        );
    }
    Ok(())
}

#[test]
fn id_error_messages_are_exact() {
    assert_eq!(
        ToolId::try_new("").unwrap_err().to_string(),
        "`tool_id` is empty"
    );
    assert_eq!(
        ToolId::try_new("a".repeat(129)).unwrap_err().to_string(),
        "`tool_id` is 129 bytes, more than the limit of 128"
    );
    assert_eq!(
        ChannelId::try_new("a b").unwrap_err().to_string(),
        "`channel_id` has a character outside printable ASCII `!`..=`~` at byte 1"
    );
    assert_eq!(
        TransactionId::try_new("x").unwrap_err().to_string(),
        "`transaction_id` is not a lowercase hyphenated version 7 UUID"
    );
}

// ---------------------------------------------------------------------------------------------
// ToolName
// ---------------------------------------------------------------------------------------------

#[test]
fn tool_name_takes_1_to_128_characters_of_the_mcp_alphabet() -> TestResult {
    let max = "a".repeat(128);
    for ok in ["a", "A.z-0_9", "github.search_issues", "-", max.as_str()] {
        assert_eq!(ToolName::try_new(ok)?.as_str(), ok);
        accepted::<ToolName>("ToolName", &json!(ok));
    }
    let invalid = |index| TextViolation::InvalidCharacter {
        index,
        allowed: NAME_ALPHABET,
    };
    let long = "a".repeat(129);
    let cases = [
        ("", TextViolation::Empty),
        (
            long.as_str(),
            TextViolation::TooLong {
                length: 129,
                max: 128,
            },
        ),
        ("a b", invalid(1)),
        ("a/b", invalid(1)),
        ("a:b", invalid(1)),
        ("\u{E9}t\u{E9}", invalid(0)),
        ("tool\n", invalid(4)),
    ];
    for (value, violation) in cases {
        assert_eq!(
            ToolName::try_new(value),
            Err(ToolContractError::InvalidId {
                field: "tool_name",
                violation
            })
        );
        refused::<ToolName>(
            "ToolName",
            &json!(value),
            &format!("`tool_name` {violation}"),
            Schema::Refuses,
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// TransactionId, ExchangeId, ToolActionId
// ---------------------------------------------------------------------------------------------

#[test]
fn transaction_and_exchange_ids_are_lowercase_hyphenated_v7_uuids() -> TestResult {
    for ok in [
        TX,
        "00000000-0000-7000-8000-000000000000",
        "ffffffff-ffff-7fff-bfff-ffffffffffff",
    ] {
        assert_eq!(TransactionId::try_new(ok)?.as_str(), ok);
        assert_eq!(ExchangeId::try_new(ok)?.as_str(), ok);
        accepted::<TransactionId>("TransactionId", &json!(ok));
        accepted::<ExchangeId>("ExchangeId", &json!(ok));
    }
    let refused_values = [
        "",
        "0190B6A4-8E3C-7C1A-9F00-3B1E2D4C5A6F",
        "0190b6a4-8e3c-4c1a-9f00-3b1e2d4c5a6f",
        "0190b6a4-8e3c-7c1a-cf00-3b1e2d4c5a6f",
        "0190b6a48e3c7c1a9f003b1e2d4c5a6f",
        "{0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f}",
        "0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6",
        "0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6f0",
        "0190b6a4_8e3c-7c1a-9f00-3b1e2d4c5a6f",
        "0190b6a4-8e3c-7c1a-9f00-3b1e2d4c5a6g",
    ];
    let violation = TextViolation::Malformed { expected: UUID_V7 };
    for value in refused_values {
        assert_eq!(
            TransactionId::try_new(value),
            Err(ToolContractError::InvalidId {
                field: "transaction_id",
                violation
            })
        );
        assert_eq!(
            ExchangeId::try_new(value),
            Err(ToolContractError::InvalidId {
                field: "exchange_id",
                violation
            })
        );
        let json = json!(value);
        refused::<TransactionId>(
            "TransactionId",
            &json,
            &format!("`transaction_id` is not {UUID_V7}"),
            Schema::Refuses,
        );
        refused::<ExchangeId>(
            "ExchangeId",
            &json,
            &format!("`exchange_id` is not {UUID_V7}"),
            Schema::Refuses,
        );
    }
    Ok(())
}

#[test]
fn generated_ids_are_valid_and_time_ordered() -> TestResult {
    let transactions: Vec<TransactionId> = (0..64).map(|_| TransactionId::generate()).collect();
    let exchanges: Vec<ExchangeId> = (0..64).map(|_| ExchangeId::generate()).collect();
    for pair in transactions.windows(2) {
        assert!(pair[0] < pair[1], "{} then {}", pair[0], pair[1]);
        assert!(pair[0].as_str() < pair[1].as_str());
    }
    for pair in exchanges.windows(2) {
        assert!(pair[0] < pair[1], "{} then {}", pair[0], pair[1]);
    }
    for id in &transactions {
        assert_eq!(&TransactionId::try_new(id.as_str())?, id);
        accepted::<TransactionId>("TransactionId", &json!(id.as_str()));
    }
    for id in &exchanges {
        assert_eq!(&ExchangeId::try_new(id.as_str())?, id);
    }
    Ok(())
}

#[test]
fn tool_action_id_is_any_opaque_id_and_for_call_derives_one() -> TestResult {
    // The seed builds action ids from its own strings.
    let seed = ToolActionId::new("a1");
    assert_eq!(seed.validate(), Ok(()));
    assert_eq!(ToolActionId::try_new("a1")?, seed);
    assert_eq!(serde_json::to_value(&seed)?, json!("a1"));
    accepted::<ToolActionId>("ToolActionId", &json!("a1"));
    // The derived form: `<transaction id>:<ordinal>`, valid for every ordinal.
    let transaction = TransactionId::try_new(TX)?;
    for ordinal in [0, 1, 10, u32::MAX] {
        let id = ToolActionId::for_call(&transaction, ordinal);
        assert_eq!(id.as_str(), format!("{TX}:{ordinal}"));
        assert_eq!(ToolActionId::try_new(id.as_str())?, id);
        accepted::<ToolActionId>("ToolActionId", &json!(id.as_str()));
    }
    // What the derived form used to require is no rule of the wire: any printable id is one.
    for value in [
        format!("{TX}:4294967296"),
        format!("{TX}:01"),
        TX.to_owned(),
    ] {
        accepted::<ToolActionId>("ToolActionId", &json!(value));
    }
    Ok(())
}

/// The Rust check and the schema give the same verdict on every character, alone and inside a
/// name.
#[test]
fn id_verdicts_agree_with_the_schema_character_by_character() {
    let mut samples: Vec<String> = (0_u32..=0x80)
        .chain([0x9F, 0xA0, 0xE9, 0x2028, 0xFEFF, 0x1F600])
        .filter_map(char::from_u32)
        .flat_map(|c| [c.to_string(), format!("a{c}b"), format!("ab{c}")])
        .collect();
    samples.extend(["".to_owned(), "a".repeat(128), "a".repeat(129)]);
    for sample in &samples {
        let json = json!(sample);
        let checks: [(&str, bool); 5] = [
            ("ToolId", ToolId::try_new(sample.as_str()).is_ok()),
            ("ToolName", ToolName::try_new(sample.as_str()).is_ok()),
            ("ChannelId", ChannelId::try_new(sample.as_str()).is_ok()),
            ("SessionId", SessionId::try_new(sample.as_str()).is_ok()),
            (
                "ToolActionId",
                ToolActionId::try_new(sample.as_str()).is_ok(),
            ),
        ];
        for (def, rust) in checks {
            assert_eq!(schema_accepts(def, &json), rust, "`{def}` on {json}");
        }
    }
}

#[test]
fn ids_decoded_inside_a_type_name_their_member() {
    refused::<ToolSpec>(
        "ToolSpec",
        &spec_with("/id", json!("")),
        "`id` is empty",
        Schema::Refuses,
    );
    refused::<ToolSpec>(
        "ToolSpec",
        &spec_with("/name", json!("a b")),
        &format!("`name` has a character outside {NAME_ALPHABET} at byte 1"),
        Schema::Refuses,
    );
    let call = json!({
        "tool_name": "a b", "tool_id": "t", "provider_tool_call_id": "c", "arguments": {},
        "request_ordinal": 0
    });
    refused::<ToolCall>(
        "ToolCall",
        &call,
        &format!("`tool_name` has a character outside {NAME_ALPHABET} at byte 1"),
        Schema::Refuses,
    );
    refused::<SessionKey>(
        "SessionKey",
        &json!({"channel_id": "cli", "session_id": ""}),
        "`session_id` is empty",
        Schema::Refuses,
    );
    refused::<CanonicalToolResult>(
        "CanonicalToolResult",
        &result_with("/exchange_id", json!("x")),
        &format!("`exchange_id` is not {UUID_V7}"),
        Schema::Refuses,
    );
    refused::<CanonicalToolResult>(
        "CanonicalToolResult",
        &result_with("/session_key/channel_id", json!("")),
        "`channel_id` is empty",
        Schema::Refuses,
    );
    refused::<ToolLifecycleEvent>(
        "ToolLifecycleEvent",
        &json!({"type": "started", "tool_action_id": "a 1", "tool_id": "t"}),
        &format!("`tool_action_id` has a character outside {PRINTABLE} at byte 1"),
        Schema::Refuses,
    );
    refused::<ToolLifecycleEvent>(
        "ToolLifecycleEvent",
        &json!({"type": "completed", "result": result_with("/tool_id", json!(" "))}),
        &format!("`tool_id` has a character outside {PRINTABLE} at byte 0"),
        Schema::Refuses,
    );
}

// ---------------------------------------------------------------------------------------------
// JsonSchema
// ---------------------------------------------------------------------------------------------

#[test]
fn json_schema_must_have_an_object_root() -> TestResult {
    for (value, found) in [
        (json!(true), "a boolean"),
        (json!(false), "a boolean"),
        (json!([]), "an array"),
        (json!("object"), "a string"),
        (json!(1), "a number"),
        (Value::Null, "null"),
    ] {
        assert_eq!(
            JsonSchema::try_new(value.clone()),
            Err(ToolContractError::SchemaNotObject {
                field: "schema",
                found
            })
        );
        refused::<JsonSchema>(
            "JsonSchema",
            &value,
            &format!("`schema` must be a JSON object, found {found}"),
            Schema::Refuses,
        );
        refused::<ToolSpec>(
            "ToolSpec",
            &spec_with("/input_schema", value.clone()),
            &format!("`input_schema` must be a JSON object, found {found}"),
            Schema::Refuses,
        );
    }
    assert_eq!(JsonSchema::try_new(json!({}))?.as_value(), &json!({}));
    accepted::<JsonSchema>("JsonSchema", &json!({}));
    Ok(())
}

#[test]
fn json_schema_must_be_valid_against_its_dialect_meta_schema() -> TestResult {
    let type_12 =
        "`schema` is not a valid JSON Schema 2020-12 at `/type`: value is not valid under \
                   any of the schemas listed in the 'anyOf' keyword";
    assert_eq!(
        JsonSchema::try_new(json!({"type": 12}))
            .unwrap_err()
            .to_string(),
        type_12
    );
    assert_eq!(
        JsonSchema::try_new(json!({"type": 12})),
        Err(ToolContractError::InvalidSchema {
            field: "schema",
            dialect: Dialect::Draft202012,
            pointer: "/type".to_owned(),
            reason: "value is not valid under any of the schemas listed in the 'anyOf' keyword"
                .to_owned(),
        })
    );
    // The embedded schema's validity is a rule JSON Schema cannot express (see below).
    refused::<JsonSchema>(
        "JsonSchema",
        &json!({"type": 12}),
        type_12,
        Schema::CannotExpress,
    );
    refused::<ToolSpec>(
        "ToolSpec",
        &spec_with("/input_schema", json!({"type": 12})),
        "`input_schema` is not a valid JSON Schema 2020-12 at `/type`: value is not valid under \
         any of the schemas listed in the 'anyOf' keyword",
        Schema::CannotExpress,
    );
    refused::<ToolSpec>(
        "ToolSpec",
        &spec_with(
            "/output_contract",
            json!({"success": {"type": "json", "schema": {"minLength": -1}}}),
        ),
        "`schema` is not a valid JSON Schema 2020-12 at `/minLength`: value is less than the minimum of 0",
        Schema::CannotExpress,
    );
    refused::<ToolSpec>(
        "ToolSpec",
        &spec_with(
            "/output_contract",
            json!({
                "success": {"type": "text", "media_type": "text/plain"},
                "error_data_schema": {"properties": {"a": 1}}
            }),
        ),
        "`error_data_schema` is not a valid JSON Schema 2020-12 at `/properties/a`: value is not \
         of types \"boolean\", \"object\"",
        Schema::CannotExpress,
    );
    for ok in [
        json!({"type": "object", "properties": {"q": {"type": "string", "pattern": "^[a-z]+$"}}}),
        json!({"$defs": {"a": true}, "$ref": "#/$defs/a"}),
        json!({"x-vendor": {"anything": [1, 2]}}),
    ] {
        assert_eq!(JsonSchema::try_new(ok.clone())?.into_value(), ok);
        accepted::<JsonSchema>("JsonSchema", &ok);
    }
    Ok(())
}

/// Each dialect's own meta-schema: a form one dialect allows and another refuses is judged by
/// the `$schema` the schema declares.
#[test]
fn json_schema_is_checked_against_the_meta_schema_its_schema_names() -> TestResult {
    const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";
    const DRAFT_2019_09: &str = "https://json-schema.org/draft/2019-09/schema";
    const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";
    // `items` as an array of schemas: draft-07 and 2019-09 tuples, not 2020-12.
    for (dialect, uri) in [
        (Dialect::Draft07, DRAFT_07),
        (Dialect::Draft07, "http://json-schema.org/draft-07/schema"),
        (Dialect::Draft201909, DRAFT_2019_09),
        (
            Dialect::Draft201909,
            "https://json-schema.org/draft/2019-09/schema#",
        ),
    ] {
        let tuple =
            json!({"$schema": uri, "items": [{"type": "string"}], "additionalItems": false});
        let schema = JsonSchema::try_new(tuple.clone())?;
        assert_eq!(schema.dialect(), dialect);
        assert_eq!(schema.as_value(), &tuple);
        accepted::<JsonSchema>("JsonSchema", &tuple);
    }
    for tuple in [
        json!({"$schema": DRAFT_2020_12, "items": [{"type": "string"}]}),
        json!({"items": [{"type": "string"}]}),
    ] {
        assert_eq!(
            JsonSchema::try_new(tuple.clone()),
            Err(ToolContractError::InvalidSchema {
                field: "schema",
                dialect: Dialect::Draft202012,
                pointer: "/items".to_owned(),
                reason: "value is not of types \"boolean\", \"object\"".to_owned(),
            })
        );
    }
    // The same mistake named in each dialect.
    for (uri, name) in [
        (DRAFT_07, "draft-07"),
        (DRAFT_2019_09, "2019-09"),
        (DRAFT_2020_12, "2020-12"),
    ] {
        let message = format!(
            "`input_schema` is not a valid JSON Schema {name} at `/minLength`: value is less \
             than the minimum of 0"
        );
        refused::<ToolSpec>(
            "ToolSpec",
            &spec_with("/input_schema", json!({"$schema": uri, "minLength": -1})),
            &message,
            Schema::CannotExpress,
        );
    }
    // `$recursiveAnchor`: a boolean in 2019-09, a (deprecated) anchor name in 2020-12,
    // nothing in draft-07.
    let recursive = |uri: &str| json!({"$schema": uri, "$recursiveAnchor": true});
    assert!(JsonSchema::try_new(recursive(DRAFT_2019_09)).is_ok());
    assert!(JsonSchema::try_new(recursive(DRAFT_07)).is_ok());
    assert!(matches!(
        JsonSchema::try_new(recursive(DRAFT_2020_12)),
        Err(ToolContractError::InvalidSchema { dialect: Dialect::Draft202012, ref pointer, .. })
            if pointer == "/$recursiveAnchor"
    ));
    Ok(())
}

/// A local listener that must never see a connection.
struct Trap(std::net::TcpListener);

impl Trap {
    fn new() -> Self {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a local port");
        listener.set_nonblocking(true).expect("non-blocking");
        Self(listener)
    }
    fn url(&self, path: &str) -> String {
        format!("http://{}/{path}", self.0.local_addr().expect("bound"))
    }
    fn assert_untouched(&self) {
        match self.0.accept() {
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {}
            other => panic!("the check reached the network: {other:?}"),
        }
    }
}

#[test]
fn json_schema_check_never_fetches_and_refuses_an_unknown_dialect_by_name() -> TestResult {
    let trap = Trap::new();
    // The crate's own `jsonschema` build has no HTTP retriever: even its default options, which
    // would fetch an unknown `$schema` or a remote `$ref` with one, never connect.
    let remote_meta = json!({"$schema": trap.url("meta.json"), "type": "object"});
    assert!(jsonschema::options().build(&remote_meta).is_err());
    let remote_ref = json!({"$ref": trap.url("schema.json")});
    assert!(jsonschema::options().build(&remote_ref).is_err());
    trap.assert_untouched();

    // Each dialect is checked against its bundled meta-schema: nothing to fetch.
    for uri in [
        "http://json-schema.org/draft-07/schema#",
        "https://json-schema.org/draft/2019-09/schema",
        "https://json-schema.org/draft/2020-12/schema",
    ] {
        let schema =
            json!({"$schema": uri, "type": "object", "properties": {"a": {"type": "string"}}});
        assert_eq!(JsonSchema::try_new(schema.clone())?.as_value(), &schema);
    }
    // Unknown dialects, a meta-schema on the trap among them, are refused by name.
    for unknown in [
        trap.url("meta.json"),
        "https://example.invalid/unknown-meta-schema".to_owned(),
        "http://json-schema.org/draft-04/schema#".to_owned(),
        "http://json-schema.org/draft/2020-12/schema".to_owned(),
        String::new(),
    ] {
        let schema = json!({"$schema": unknown, "type": "object"});
        assert_eq!(
            JsonSchema::try_new(schema.clone()),
            Err(ToolContractError::UnknownDialect {
                field: "schema",
                dialect: unknown.clone(),
            })
        );
        refused::<ToolSpec>(
            "ToolSpec",
            &spec_with("/input_schema", schema),
            &format!("`input_schema` has `$schema` `{unknown}`, not draft-07, 2019-09 or 2020-12"),
            Schema::CannotExpress,
        );
    }
    assert_eq!(
        JsonSchema::try_new(json!({"$schema": 12}))
            .unwrap_err()
            .to_string(),
        "`schema` has `$schema` `12`, not draft-07, 2019-09 or 2020-12"
    );
    // References are not resolved (the policy refuses the non-local ones when compiling).
    for ok in [
        json!({"$ref": trap.url("never-fetched.json")}),
        json!({"$ref": "file:///etc/passwd"}),
        json!({"$id": trap.url(""), "$ref": "x.json"}),
    ] {
        assert_eq!(JsonSchema::try_new(ok.clone())?.as_value(), &ok);
    }
    trap.assert_untouched();
    Ok(())
}

#[test]
fn json_schema_nesting_is_bounded() -> TestResult {
    let deepest = nested(MAX_SCHEMA_DEPTH);
    assert_eq!(JsonSchema::try_new(deepest.clone())?.as_value(), &deepest);
    serde_json::from_value::<JsonSchema>(deepest)?;
    let too_deep = nested(MAX_SCHEMA_DEPTH + 1);
    assert_eq!(
        JsonSchema::try_new(too_deep.clone()),
        Err(ToolContractError::SchemaTooDeep {
            field: "schema",
            max: 128
        })
    );
    refused::<JsonSchema>(
        "JsonSchema",
        &too_deep,
        "`schema` nests objects and arrays more than 128 levels deep",
        Schema::CannotExpress,
    );
    // Arrays count as levels too.
    let mut arrays = json!({});
    for _ in 1..=MAX_SCHEMA_DEPTH {
        arrays = json!({"allOf": [arrays]});
    }
    assert!(matches!(
        JsonSchema::try_new(arrays),
        Err(ToolContractError::SchemaTooDeep { .. })
    ));
    // Deep JSON text never gets that far: serde_json's own limit refuses it first.
    let text = format!("{}{}", "[".repeat(200), "]".repeat(200));
    assert!(serde_json::from_str::<JsonSchema>(&text).is_err());
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// ToolSpec: description
// ---------------------------------------------------------------------------------------------

#[test]
fn description_takes_at_most_4096_bytes() -> TestResult {
    assert_eq!(MAX_DESCRIPTION_BYTES, 4096);
    let at_limit = "a".repeat(4096);
    assert_eq!(
        build_spec(&at_limit, ToolLimits::default(), class())?.description(),
        at_limit
    );
    accepted::<ToolSpec>("ToolSpec", &spec_with("/description", json!(at_limit)));
    assert_eq!(
        build_spec("", ToolLimits::default(), class())?.description(),
        ""
    );
    accepted::<ToolSpec>("ToolSpec", &spec_with("/description", json!("")));
    let multibyte_at_limit = "\u{E9}".repeat(2048);
    assert_eq!(multibyte_at_limit.len(), 4096);
    build_spec(&multibyte_at_limit, ToolLimits::default(), class())?;

    let over = "a".repeat(4097);
    assert_eq!(
        build_spec(&over, ToolLimits::default(), class()),
        Err(ToolContractError::DescriptionTooLong {
            length: 4097,
            max: 4096
        })
    );
    refused::<ToolSpec>(
        "ToolSpec",
        &spec_with("/description", json!(over)),
        "`description` is 4097 bytes, more than the limit of 4096",
        Schema::Refuses,
    );
    // 4097 bytes in 2049 characters: `maxLength` counts characters, so the schema accepts it.
    let multibyte_over = format!("{multibyte_at_limit}a");
    assert_eq!(
        build_spec(&multibyte_over, ToolLimits::default(), class()),
        Err(ToolContractError::DescriptionTooLong {
            length: 4097,
            max: 4096
        })
    );
    refused::<ToolSpec>(
        "ToolSpec",
        &spec_with("/description", json!(multibyte_over)),
        "`description` is 4097 bytes, more than the limit of 4096",
        Schema::CannotExpress,
    );
    Ok(())
}

#[test]
fn description_has_no_control_character() -> TestResult {
    for (text, index) in [
        ("line one\nline two", 8),
        ("\ttab", 0),
        ("nul\u{0}", 3),
        ("del\u{7F}", 3),
        ("\u{E9}\u{85}", 2),
        ("esc\u{1B}[31m", 3),
        ("cr\r", 2),
    ] {
        assert_eq!(
            build_spec(text, ToolLimits::default(), class()),
            Err(ToolContractError::ControlCharacter {
                field: "description",
                index
            })
        );
        refused::<ToolSpec>(
            "ToolSpec",
            &spec_with("/description", json!(text)),
            &format!("`description` has a control character at byte {index}"),
            Schema::Refuses,
        );
    }
    // Not category `Cc`: accepted by both.
    for text in ["line\u{2028}separator", "zero\u{200B}width", "\u{A0}nbsp"] {
        build_spec(text, ToolLimits::default(), class())?;
        accepted::<ToolSpec>("ToolSpec", &spec_with("/description", json!(text)));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// ToolLimits
// ---------------------------------------------------------------------------------------------

#[test]
fn limits_refuse_zero_and_accept_one() -> TestResult {
    let one = ToolLimits {
        max_concurrent: 1,
        max_input_bytes: 1,
        max_output_bytes: 1,
        execution_deadline: Duration::from_millis(1),
    };
    one.validate()?;
    build_spec("", one, class())?;
    accepted::<ToolSpec>("ToolSpec", &spec_json());
    accepted::<ToolLimits>("ToolLimits", &spec_json()["limits"]);

    let zeroed = [
        (
            "max_concurrent",
            ToolLimits {
                max_concurrent: 0,
                ..one
            },
            u64::from(u32::MAX),
        ),
        (
            "max_input_bytes",
            ToolLimits {
                max_input_bytes: 0,
                ..one
            },
            MAX_WIRE_INTEGER,
        ),
        (
            "max_output_bytes",
            ToolLimits {
                max_output_bytes: 0,
                ..one
            },
            MAX_WIRE_INTEGER,
        ),
        (
            "execution_deadline_ms",
            ToolLimits {
                execution_deadline: Duration::ZERO,
                ..one
            },
            MAX_WIRE_INTEGER,
        ),
    ];
    for (field, limits, max) in zeroed {
        let error = ToolContractError::InvalidLimits { field, max };
        assert_eq!(limits.validate(), Err(error.clone()));
        assert_eq!(build_spec("", limits, class()), Err(error.clone()));
        let message = format!("`{field}` must be a whole number from 1 to {max}");
        assert_eq!(error.to_string(), message);
        refused::<ToolSpec>(
            "ToolSpec",
            &spec_with(&format!("/limits/{field}"), json!(0)),
            &message,
            Schema::Refuses,
        );
        refused::<ToolLimits>(
            "ToolLimits",
            &spec_with(&format!("/limits/{field}"), json!(0))["limits"],
            &message,
            Schema::Refuses,
        );
        // Encoding refuses too: no JSON that would not decode is written.
        assert_eq!(
            serde_json::to_value(limits).unwrap_err().to_string(),
            message
        );
    }
    Ok(())
}

#[test]
fn limits_stay_within_what_every_json_consumer_holds_exactly() -> TestResult {
    let largest = ToolLimits {
        max_concurrent: u32::MAX,
        max_input_bytes: MAX_WIRE_INTEGER,
        max_output_bytes: MAX_WIRE_INTEGER,
        execution_deadline: Duration::from_millis(MAX_WIRE_INTEGER),
    };
    build_spec("", largest, class())?;
    let json = serde_json::to_value(largest)?;
    assert_eq!(
        json,
        json!({
            "max_concurrent": 4294967295_u64,
            "max_input_bytes": 9007199254740991_u64,
            "max_output_bytes": 9007199254740991_u64,
            "execution_deadline_ms": 9007199254740991_u64
        })
    );
    assert_eq!(accepted::<ToolLimits>("ToolLimits", &json), largest);

    for field in [
        "max_input_bytes",
        "max_output_bytes",
        "execution_deadline_ms",
    ] {
        let mut over = json.clone();
        over[field] = json!(MAX_WIRE_INTEGER + 1);
        refused::<ToolLimits>(
            "ToolLimits",
            &over,
            &format!("`{field}` must be a whole number from 1 to 9007199254740991"),
            Schema::Refuses,
        );
    }
    assert_eq!(
        build_spec(
            "",
            ToolLimits {
                max_input_bytes: MAX_WIRE_INTEGER + 1,
                ..largest
            },
            class()
        ),
        Err(ToolContractError::InvalidLimits {
            field: "max_input_bytes",
            max: MAX_WIRE_INTEGER
        })
    );
    assert_eq!(
        build_spec(
            "",
            ToolLimits {
                execution_deadline: Duration::MAX,
                ..largest
            },
            class()
        ),
        Err(ToolContractError::InvalidLimits {
            field: "execution_deadline_ms",
            max: MAX_WIRE_INTEGER
        })
    );
    // A `u32` holds no more concurrent calls: the wire type refuses 2^32 (serde's own message).
    let mut over = json.clone();
    over["max_concurrent"] = json!(4294967296_u64);
    assert!(serde_json::from_value::<ToolLimits>(over.clone()).is_err());
    assert!(!schema_accepts("ToolLimits", &over));
    Ok(())
}

#[test]
fn execution_deadline_is_a_whole_number_of_milliseconds() {
    // No JSON form: the wire holds integers only. A constructor-only rule.
    for deadline in [
        Duration::from_micros(1500),
        Duration::from_nanos(1),
        Duration::from_micros(999),
    ] {
        let limits = ToolLimits {
            execution_deadline: deadline,
            ..ToolLimits::default()
        };
        let error = ToolContractError::InvalidLimits {
            field: "execution_deadline_ms",
            max: MAX_WIRE_INTEGER,
        };
        assert_eq!(limits.validate(), Err(error.clone()));
        assert_eq!(build_spec("", limits, class()), Err(error));
    }
    let fractional = json!({
        "max_concurrent": 1, "max_input_bytes": 1, "max_output_bytes": 1, "execution_deadline_ms": 1.5
    });
    assert!(serde_json::from_value::<ToolLimits>(fractional.clone()).is_err());
    assert!(!schema_accepts("ToolLimits", &fractional));
}

// ---------------------------------------------------------------------------------------------
// ToolExecutionClass
// ---------------------------------------------------------------------------------------------

#[test]
fn cancellation_grace_and_kill_deadline_refuse_zero_and_accept_one() -> TestResult {
    let ms = Duration::from_millis;
    let ok = [
        ToolExecutionClass::CooperativeInProcess { grace: ms(1) },
        ToolExecutionClass::AbortableAtYield { grace: ms(1) },
        ToolExecutionClass::ProcessIsolated {
            grace: ms(1),
            kill_deadline: ms(1),
        },
    ];
    for class in ok {
        class.validate()?;
        build_spec("", ToolLimits::default(), class)?;
        let json = serde_json::to_value(class)?;
        assert_eq!(
            accepted::<ToolExecutionClass>("ToolExecutionClass", &json),
            class
        );
    }
    let refused_classes = [
        (
            ToolExecutionClass::CooperativeInProcess {
                grace: Duration::ZERO,
            },
            "grace_ms",
            json!({"type": "cooperative_in_process", "grace_ms": 0}),
        ),
        (
            ToolExecutionClass::AbortableAtYield {
                grace: Duration::ZERO,
            },
            "grace_ms",
            json!({"type": "abortable_at_yield", "grace_ms": 0}),
        ),
        (
            ToolExecutionClass::ProcessIsolated {
                grace: Duration::ZERO,
                kill_deadline: ms(1),
            },
            "grace_ms",
            json!({"type": "process_isolated", "grace_ms": 0, "kill_deadline_ms": 1}),
        ),
        (
            ToolExecutionClass::ProcessIsolated {
                grace: ms(1),
                kill_deadline: Duration::ZERO,
            },
            "kill_deadline_ms",
            json!({"type": "process_isolated", "grace_ms": 1, "kill_deadline_ms": 0}),
        ),
        (
            ToolExecutionClass::ProcessIsolated {
                grace: ms(1),
                kill_deadline: ms(MAX_WIRE_INTEGER + 1),
            },
            "kill_deadline_ms",
            json!({"type": "process_isolated", "grace_ms": 1, "kill_deadline_ms": MAX_WIRE_INTEGER + 1}),
        ),
    ];
    for (class, field, json) in refused_classes {
        let error = ToolContractError::InvalidCancellationGrace {
            field,
            max: MAX_WIRE_INTEGER,
        };
        let message =
            format!("`{field}` must be a whole number of milliseconds from 1 to 9007199254740991");
        assert_eq!(error.to_string(), message);
        assert_eq!(class.validate(), Err(error.clone()));
        assert_eq!(build_spec("", ToolLimits::default(), class), Err(error));
        assert_eq!(
            serde_json::to_value(class).unwrap_err().to_string(),
            message
        );
        refused::<ToolExecutionClass>("ToolExecutionClass", &json, &message, Schema::Refuses);
        refused::<ToolSpec>(
            "ToolSpec",
            &spec_with("/execution_class", json),
            &message,
            Schema::Refuses,
        );
    }
    let sub_ms = ToolExecutionClass::AbortableAtYield {
        grace: Duration::from_micros(10),
    };
    assert_eq!(
        sub_ms.validate(),
        Err(ToolContractError::InvalidCancellationGrace {
            field: "grace_ms",
            max: MAX_WIRE_INTEGER
        })
    );
    Ok(())
}

#[test]
fn execution_class_tag_is_checked() {
    refused::<ToolExecutionClass>(
        "ToolExecutionClass",
        &json!({"type": "threaded", "grace_ms": 1}),
        "unknown `type` value `threaded` for `ToolExecutionClass`, expected one of \
         `cooperative_in_process`, `abortable_at_yield`, `process_isolated`",
        Schema::Refuses,
    );
    refused::<ToolExecutionClass>(
        "ToolExecutionClass",
        &json!({"type": "process_isolated", "grace_ms": 1}),
        "missing field `kill_deadline_ms`",
        Schema::Refuses,
    );
}

// ---------------------------------------------------------------------------------------------
// MediaType, ToolSuccessContract
// ---------------------------------------------------------------------------------------------

#[test]
fn media_type_takes_1_to_128_bytes_without_control_characters() -> TestResult {
    assert_eq!(MAX_MEDIA_TYPE_BYTES, 128);
    let at_limit = "t".repeat(128);
    for ok in [
        "text/plain",
        "text/markdown; charset=utf-8",
        "x",
        at_limit.as_str(),
    ] {
        assert_eq!(MediaType::try_new(ok)?.as_str(), ok);
        assert_eq!(
            ToolSuccessContract::text(ok)?,
            ToolSuccessContract::Text {
                media_type: MediaType::try_new(ok)?
            }
        );
        accepted::<MediaType>("MediaType", &json!(ok));
    }
    assert_eq!(
        "text/plain".parse::<MediaType>()?,
        MediaType::try_new("text/plain")?
    );
    assert_eq!(MediaType::try_from("text/plain")?.to_string(), "text/plain");
    assert_eq!(
        String::from(MediaType::try_new("text/plain")?),
        "text/plain"
    );
    let over = "t".repeat(129);
    let multibyte_over = format!("{}t", "\u{E9}".repeat(64));
    let cases = [
        ("", TextViolation::Empty, Schema::Refuses),
        (
            over.as_str(),
            TextViolation::TooLong {
                length: 129,
                max: 128,
            },
            Schema::Refuses,
        ),
        (
            "text/plain\n",
            TextViolation::ControlCharacter { index: 10 },
            Schema::Refuses,
        ),
        (
            "text/\u{0}",
            TextViolation::ControlCharacter { index: 5 },
            Schema::Refuses,
        ),
        (
            multibyte_over.as_str(),
            TextViolation::TooLong {
                length: 129,
                max: 128,
            },
            Schema::CannotExpress,
        ),
    ];
    for (value, violation, schema) in cases {
        let error = ToolContractError::InvalidMediaType { violation };
        assert_eq!(MediaType::try_new(value), Err(error.clone()));
        assert_eq!(value.parse::<MediaType>(), Err(error.clone()));
        assert_eq!(ToolSuccessContract::text(value), Err(error.clone()));
        let message = format!("`media_type` {violation}");
        assert_eq!(error.to_string(), message);
        refused::<MediaType>("MediaType", &json!(value), &message, schema);
        refused::<ToolSuccessContract>(
            "ToolSuccessContract",
            &json!({"type": "text", "media_type": value}),
            &message,
            schema,
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// CanonicalToolError
// ---------------------------------------------------------------------------------------------

#[test]
fn error_code_takes_1_to_64_bytes_without_control_characters() -> TestResult {
    assert_eq!(MAX_ERROR_CODE_BYTES, 64);
    let at_limit = "c".repeat(64);
    for ok in ["x", "not_found", "E.404 / retry later", at_limit.as_str()] {
        let error = CanonicalToolError::try_new(ok, "m", None, MAX_ERROR_MESSAGE_BYTES)?;
        assert_eq!(error.code(), ok);
        accepted::<CanonicalToolError>("CanonicalToolError", &json!({"code": ok, "message": "m"}));
    }
    let over = "c".repeat(65);
    let multibyte_over = format!("{}c", "\u{E9}".repeat(32));
    let cases = [
        ("", TextViolation::Empty, Schema::Refuses),
        (
            over.as_str(),
            TextViolation::TooLong {
                length: 65,
                max: 64,
            },
            Schema::Refuses,
        ),
        (
            "not\tfound",
            TextViolation::ControlCharacter { index: 3 },
            Schema::Refuses,
        ),
        (
            multibyte_over.as_str(),
            TextViolation::TooLong {
                length: 65,
                max: 64,
            },
            Schema::CannotExpress,
        ),
    ];
    for (code, violation, schema) in cases {
        let error = ToolContractError::InvalidErrorCode { violation };
        assert_eq!(
            CanonicalToolError::try_new(code, "m", None, MAX_ERROR_MESSAGE_BYTES),
            Err(error.clone())
        );
        let message = format!("`code` {violation}");
        assert_eq!(error.to_string(), message);
        let json = json!({"code": code, "message": "m"});
        refused::<CanonicalToolError>("CanonicalToolError", &json, &message, schema);
        refused::<CanonicalToolResult>(
            "CanonicalToolResult",
            &result_with("/outcome/error", json),
            &message,
            schema,
        );
    }
    assert_eq!(
        CanonicalToolError::try_new("c".repeat(65), "m", None, 10)
            .unwrap_err()
            .to_string(),
        "`code` is 65 bytes, more than the limit of 64"
    );
    Ok(())
}

#[test]
fn error_message_takes_1_to_the_limit_bytes_without_control_characters() -> TestResult {
    assert_eq!(MAX_ERROR_MESSAGE_BYTES, 4096);
    let at_limit = "m".repeat(4096);
    for ok in ["m", "no issue `#12` in `acme/x`", at_limit.as_str()] {
        let error = CanonicalToolError::try_new("c", ok, None, MAX_ERROR_MESSAGE_BYTES)?;
        assert_eq!(error.message(), ok);
        accepted::<CanonicalToolError>("CanonicalToolError", &json!({"code": "c", "message": ok}));
    }
    let over = "m".repeat(4097);
    let multibyte_over = format!("{}m", "\u{E9}".repeat(2048));
    let cases = [
        ("", TextViolation::Empty, Schema::Refuses),
        (
            over.as_str(),
            TextViolation::TooLong {
                length: 4097,
                max: 4096,
            },
            Schema::Refuses,
        ),
        (
            "\u{0}",
            TextViolation::ControlCharacter { index: 0 },
            Schema::Refuses,
        ),
        (
            "two\nlines",
            TextViolation::ControlCharacter { index: 3 },
            Schema::Refuses,
        ),
        (
            multibyte_over.as_str(),
            TextViolation::TooLong {
                length: 4097,
                max: 4096,
            },
            Schema::CannotExpress,
        ),
    ];
    for (text, violation, schema) in cases {
        let error = ToolContractError::InvalidErrorMessage { violation };
        assert_eq!(
            CanonicalToolError::try_new("c", text, None, MAX_ERROR_MESSAGE_BYTES),
            Err(error.clone())
        );
        let message = format!("`message` {violation}");
        assert_eq!(error.to_string(), message);
        refused::<CanonicalToolError>(
            "CanonicalToolError",
            &json!({"code": "c", "message": text}),
            &message,
            schema,
        );
    }
    Ok(())
}

#[test]
fn error_message_limit_is_the_callers_up_to_the_wire_limit() -> TestResult {
    CanonicalToolError::try_new("c", "m".repeat(10), None, 10)?;
    assert_eq!(
        CanonicalToolError::try_new("c", "m".repeat(11), None, 10),
        Err(ToolContractError::InvalidErrorMessage {
            violation: TextViolation::TooLong {
                length: 11,
                max: 10
            }
        })
    );
    // Above the wire limit counts as the wire limit: every error built also decodes.
    CanonicalToolError::try_new("c", "m".repeat(4096), None, usize::MAX)?;
    assert_eq!(
        CanonicalToolError::try_new("c", "m".repeat(4097), None, usize::MAX),
        Err(ToolContractError::InvalidErrorMessage {
            violation: TextViolation::TooLong {
                length: 4097,
                max: 4096
            }
        })
    );
    assert_eq!(
        CanonicalToolError::try_new("c", "m", None, 0),
        Err(ToolContractError::InvalidErrorMessage {
            violation: TextViolation::TooLong { length: 1, max: 0 }
        })
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Error types of the runtime
// ---------------------------------------------------------------------------------------------

#[test]
fn runtime_and_start_error_messages_are_exact() -> TestResult {
    let tool_id = ToolId::try_new("clock/now@1")?;
    let cases: [(ToolRuntimeError, ToolRuntimeErrorCode, &str); 5] = [
        (
            ToolRuntimeError::Panicked {
                tool_id: tool_id.clone(),
            },
            ToolRuntimeErrorCode::Panicked,
            "tool `clock/now@1` panicked",
        ),
        (
            ToolRuntimeError::CompletionLost {
                tool_id: tool_id.clone(),
            },
            ToolRuntimeErrorCode::CompletionLost,
            "tool `clock/now@1` ended without reporting a completion",
        ),
        (
            ToolRuntimeError::OutputContractViolated {
                tool_id: tool_id.clone(),
                reason: "output is 2048 bytes, more than the limit of 1024".to_owned(),
            },
            ToolRuntimeErrorCode::OutputContractViolated,
            "output of tool `clock/now@1` breaks its output contract: output is 2048 bytes, more \
             than the limit of 1024",
        ),
        (
            ToolRuntimeError::TerminationFailed {
                tool_id: tool_id.clone(),
                kill_deadline: Duration::from_secs(2),
            },
            ToolRuntimeErrorCode::TerminationFailed,
            "tool `clock/now@1` was not terminated within its kill deadline of 2000 ms",
        ),
        (
            ToolRuntimeError::DeadlineExceeded {
                tool_id: tool_id.clone(),
                deadline: Duration::from_millis(30_000),
            },
            ToolRuntimeErrorCode::DeadlineExceeded,
            "tool `clock/now@1` ran past its execution deadline of 30000 ms",
        ),
    ];
    for (error, code, message) in cases {
        assert_eq!(error.to_string(), message);
        assert_eq!(error.code(), code);
    }
    assert_eq!(
        ToolStartError::CapacityExceeded {
            tool_id: tool_id.clone(),
            max_concurrent: 4
        }
        .to_string(),
        "tool `clock/now@1` already runs its limit of 4 concurrent calls"
    );
    assert_eq!(
        ToolStartError::Rejected {
            tool_id,
            reason: "arguments are 70000 bytes, more than the limit of 65536".to_owned()
        }
        .to_string(),
        "tool `clock/now@1` rejected the call: arguments are 70000 bytes, more than the limit of 65536"
    );
    Ok(())
}

#[test]
fn contract_error_messages_are_exact() {
    let cases: [(ToolContractError, &str); 14] = [
        (
            ToolContractError::MissingMember {
                field: "exchange_id",
            },
            "`exchange_id` is missing",
        ),
        (
            ToolContractError::InvalidId {
                field: "tool_id",
                violation: TextViolation::Empty,
            },
            "`tool_id` is empty",
        ),
        (
            ToolContractError::SchemaNotObject {
                field: "input_schema",
                found: "an array",
            },
            "`input_schema` must be a JSON object, found an array",
        ),
        (
            ToolContractError::InvalidSchema {
                field: "schema",
                dialect: Dialect::Draft202012,
                pointer: String::new(),
                reason: "r".to_owned(),
            },
            "`schema` is not a valid JSON Schema 2020-12 at ``: r",
        ),
        (
            ToolContractError::InvalidSchema {
                field: "input_schema",
                dialect: Dialect::Draft07,
                pointer: "/type".to_owned(),
                reason: "r".to_owned(),
            },
            "`input_schema` is not a valid JSON Schema draft-07 at `/type`: r",
        ),
        (
            ToolContractError::UnknownDialect {
                field: "input_schema",
                dialect: "urn:x".to_owned(),
            },
            "`input_schema` has `$schema` `urn:x`, not draft-07, 2019-09 or 2020-12",
        ),
        (
            ToolContractError::SchemaTooDeep {
                field: "schema",
                max: 128,
            },
            "`schema` nests objects and arrays more than 128 levels deep",
        ),
        (
            ToolContractError::DescriptionTooLong {
                length: 4097,
                max: 4096,
            },
            "`description` is 4097 bytes, more than the limit of 4096",
        ),
        (
            ToolContractError::ControlCharacter {
                field: "description",
                index: 0,
            },
            "`description` has a control character at byte 0",
        ),
        (
            ToolContractError::InvalidLimits {
                field: "max_concurrent",
                max: 4_294_967_295,
            },
            "`max_concurrent` must be a whole number from 1 to 4294967295",
        ),
        (
            ToolContractError::InvalidCancellationGrace {
                field: "grace_ms",
                max: 9,
            },
            "`grace_ms` must be a whole number of milliseconds from 1 to 9",
        ),
        (
            ToolContractError::InvalidMediaType {
                violation: TextViolation::Empty,
            },
            "`media_type` is empty",
        ),
        (
            ToolContractError::InvalidErrorCode {
                violation: TextViolation::TooLong {
                    length: 65,
                    max: 64,
                },
            },
            "`code` is 65 bytes, more than the limit of 64",
        ),
        (
            ToolContractError::InvalidErrorMessage {
                violation: TextViolation::ControlCharacter { index: 3 },
            },
            "`message` has a control character at byte 3",
        ),
    ];
    for (error, message) in cases {
        assert_eq!(error.to_string(), message);
    }
    assert_eq!(
        TextViolation::InvalidCharacter {
            index: 2,
            allowed: "`a`"
        }
        .to_string(),
        "has a character outside `a` at byte 2"
    );
    assert_eq!(
        TextViolation::Malformed {
            expected: "a thing"
        }
        .to_string(),
        "is not a thing"
    );
}

// ---------------------------------------------------------------------------------------------
// What the published schemas cannot say
// ---------------------------------------------------------------------------------------------

/// The rules the Rust types check that the published schemas do not, each with why and with a
/// JSON the schema accepts and Rust refuses (the other tests mark these `CannotExpress`).
///
/// 1. Byte lengths of non-ASCII text (`description`, `media_type`, `code`, `message`):
///    `maxLength` counts characters (code points), and no keyword counts UTF-8 bytes. The
///    schemas give the same number as a character bound, which every valid value meets (a
///    character is at least one byte), so they accept everything Rust accepts and more.
///    Ids have no such gap: their alphabets are ASCII, where bytes and characters agree.
/// 2. Validity of an embedded schema (`input_schema`, `schema`, `error_data_schema`) against the
///    2020-12 meta-schema. JSON Schema could say it with
///    `"$ref": "https://json-schema.org/draft/2020-12/schema"`, resolved from the copy every
///    2020-12 validator bundles (ajv, Python `jsonschema`, `jsonschema-rs` do; nothing would be
///    fetched). The pipeline's check stage refuses that reference (only `#/$defs/...` refs
///    reach typify): "keyword `$ref (not a `#/$defs/...` reference)` is not supported". So the
///    schemas say `"type": "object"` and describe the rest.
/// 3. Nesting depth of an embedded schema (at most 128 levels): no keyword bounds depth.
/// 4. A caller's own bound on an error message (`max_message_bytes` below 4096): a parameter
///    of the constructor, not a property of the JSON. The wire bound (4096) is expressed.
/// 5. Sub-millisecond durations: a constructor-only rule; the wire has integer milliseconds,
///    and a fraction (`1.5`) is refused by both.
///
/// Consumer caveat (expressed, but read differently by one engine): Python's `re` lets `$`
/// match before a final `\n`, so Python `jsonschema` accepts an id, media type, code or message
/// that ends in one line feed; ajv and `jsonschema-rs` (Rust's regex) refuse it, as Rust does.
/// Fixing it needs `\z` (not ECMAScript) or `not` + `pattern` (refused by the pipeline's check
/// outside union branches).
#[test]
fn rules_json_schema_cannot_express() -> TestResult {
    let non_ascii = |chars: usize| "\u{E9}".repeat(chars);
    // 1. Byte lengths.
    let description = non_ascii(2049);
    assert!(build_spec(&description, ToolLimits::default(), class()).is_err());
    assert!(schema_accepts(
        "ToolSpec",
        &spec_with("/description", json!(description))
    ));
    assert!(MediaType::try_new(non_ascii(65)).is_err());
    assert!(schema_accepts("MediaType", &json!(non_ascii(65))));
    assert!(
        CanonicalToolError::try_new(non_ascii(33), "m", None, MAX_ERROR_MESSAGE_BYTES).is_err()
    );
    assert!(schema_accepts(
        "CanonicalToolError",
        &json!({"code": non_ascii(33), "message": "m"})
    ));
    assert!(
        CanonicalToolError::try_new("c", non_ascii(2049), None, MAX_ERROR_MESSAGE_BYTES).is_err()
    );
    assert!(schema_accepts(
        "CanonicalToolError",
        &json!({"code": "c", "message": non_ascii(2049)})
    ));
    // 2. Meta-schema validity, and a dialect with a meta-schema to check against.
    assert!(JsonSchema::try_new(json!({"type": 12})).is_err());
    assert!(schema_accepts("JsonSchema", &json!({"type": 12})));
    let draft_04 = json!({"$schema": "http://json-schema.org/draft-04/schema#"});
    assert!(JsonSchema::try_new(draft_04.clone()).is_err());
    assert!(schema_accepts("JsonSchema", &draft_04));
    // 3. Depth.
    assert!(JsonSchema::try_new(nested(129)).is_err());
    assert!(schema_accepts("JsonSchema", &nested(129)));
    // 4. The caller's message bound.
    assert!(CanonicalToolError::try_new("c", "m".repeat(11), None, 10).is_err());
    assert!(schema_accepts(
        "CanonicalToolError",
        &json!({"code": "c", "message": "m".repeat(11)})
    ));
    Ok(())
}

/// The one rule the schema could express and does not yet: a result always has its
/// `exchange_id` (the seed's `CanonicalToolResult`), and the published schema still marks it
/// optional. Making it required changes the generated wire type, which the codegen pipeline
/// owns; until then the Rust type is the stricter, as `consumers/divergences.json` lists
/// (`exchange-required`). `null`, which decodes as absent, is refused the same way.
#[test]
fn exchange_id_is_required_though_the_schema_says_optional() {
    let mut absent = result_json();
    absent
        .as_object_mut()
        .expect("object")
        .remove("exchange_id");
    for json in [absent, result_with("/exchange_id", Value::Null)] {
        match serde_json::from_value::<CanonicalToolResult>(json.clone()) {
            Ok(value) => panic!("decoded {json} as {value:?}"),
            Err(error) => assert_eq!(error.to_string(), "`exchange_id` is missing"),
        }
    }
    let mut absent = result_json();
    absent
        .as_object_mut()
        .expect("object")
        .remove("exchange_id");
    assert!(schema_accepts("CanonicalToolResult", &absent));
    assert!(!schema_accepts(
        "CanonicalToolResult",
        &result_with("/exchange_id", Value::Null)
    ));
}

/// The schemas are stricter than decoding in one place, on purpose: an optional member sent as
/// `null` decodes as absent (the pipeline's tolerance for optional members), while the schema
/// allows no `null` there. Encoding writes absent, so what Rust emits always validates.
#[test]
fn null_optional_members_decode_as_absent_but_break_the_schema() -> TestResult {
    let null_error_schema =
        json!({"success": {"type": "text", "media_type": "m"}, "error_data_schema": null});
    let contract: ToolOutputContract = serde_json::from_value(null_error_schema.clone())?;
    assert_eq!(contract.error_data_schema, None);
    assert!(!schema_accepts("ToolOutputContract", &null_error_schema));
    Ok(())
}
