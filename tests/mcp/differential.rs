//! Differential test of the generated MCP 2026-07-28 types against the two other Rust
//! implementations on crates.io, on the 129 example instances the specification ships
//! (`../shared/mcp-schemas/2026-07-28/examples/<Definition>/*.json`):
//!
//! - `rmcp` 3.11.0, the official Rust SDK (its `model`; it speaks 2024-11-05 to 2026-07-28
//!   with one set of types);
//! - `rust-mcp-schema` 2.0.0 with feature `2026_07_28`, generated from the same schema.
//!
//! For each example: decode with ours (the type of its definition) and with theirs, re-encode
//! both and compare the JSON values. What this test asserts is the whole outcome, as explicit
//! lists, so that a change on either side shows:
//!
//! - ours accepts every example and re-encodes it to the identical value (also
//!   `tests/mcp/examples.rs`);
//! - the examples each crate refuses ([`RMCP_REFUSES`], [`RUST_MCP_SCHEMA_REFUSES`]), each
//!   with the reason read in its sources;
//! - the examples each crate accepts but re-encodes differently from the input (and so from
//!   ours), with the first JSON pointer that differs and the reason
//!   ([`RMCP_DIFFERS`], [`RUST_MCP_SCHEMA_DIFFERS`]);
//! - every other example is accepted by all three with equal re-encodings.
//!
//! Then every mutant of the examples (each member deleted, `null`, or of another type: 2,710),
//! against the schema's own verdict (`jsonschema`): ours agrees with the schema on each, and
//! what the other two accept or refuse against it is asserted cell by cell. And the real
//! traffic recorded in `tests/fixtures/mcp/` (136 messages of 2025-11-25 and 2026-07-28)
//! against `rmcp`.
//!
//! Which `rmcp` type an example is decoded as is in [`rmcp_decode`]: `rmcp` names and cuts its
//! types differently (JSON-RPC envelopes are `ClientJsonRpcMessage` / `ServerJsonRpcMessage`
//! over its method unions, content blocks carry their `type` only inside `ContentBlock`, the
//! error objects are all `ErrorData`). `rust-mcp-schema` has a type for every definition, of
//! the same name. Skips with a notice when `../shared` is absent.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Map, Value};
use toolcall_contracts::decode;
use toolcall_contracts::mcp::v2026_07_28 as ours;

use crate::support as mcp_support;
use mcp_support::examples;

/// Our decode (with an empty report) and re-encoding.
fn ours_as<T: DeserializeOwned + Serialize>(text: &str) -> Result<Value, String> {
    let decoded = decode::<T>(text.as_bytes()).map_err(|e| e.to_string())?;
    if !decoded.report.is_empty() {
        return Err(format!("leniency applied: {:?}", decoded.report));
    }
    serde_json::to_value(&decoded.value).map_err(|e| format!("re-encoding failed: {e}"))
}

/// Another crate's decode (plain serde) and re-encoding.
fn theirs_as<T: DeserializeOwned + Serialize>(text: &str) -> Result<Value, String> {
    let value: T = serde_json::from_str(text).map_err(|e| e.to_string())?;
    serde_json::to_value(&value).map_err(|e| format!("re-encoding failed: {e}"))
}

macro_rules! same_names {
    ($($name:ident,)*) => {
        fn decode_ours(definition: &str, text: &str) -> Result<Value, String> {
            match definition {
                $(stringify!($name) => ours_as::<ours::$name>(text),)*
                "ElicitRequestURLParams" => ours_as::<ours::ElicitRequestURLParams>(text),
                other => panic!("no type of ours is matched to examples of `{other}`: add it here"),
            }
        }
        fn decode_rust_mcp_schema(definition: &str, text: &str) -> Result<Value, String> {
            use rust_mcp_schema::mcp_2026_07_28 as theirs;
            match definition {
                $(stringify!($name) => theirs_as::<theirs::$name>(text),)*
                // The one name it spells otherwise.
                "ElicitRequestURLParams" => theirs_as::<theirs::ElicitRequestUrlParams>(text),
                other => panic!("no rust-mcp-schema type is matched to `{other}`: add it here"),
            }
        }
    };
}

mcp_support::with_example_definitions!(same_names!());

/// The `rmcp` decode of an example of `definition`, by the type that stands for it there.
#[allow(
    deprecated,
    reason = "rmcp 3 deprecates its sampling types; the schema still has them"
)]
fn rmcp_decode(definition: &str, text: &str) -> Result<Value, String> {
    use rmcp::model as m;
    match definition {
        // JSON-RPC messages a client sends.
        "CallToolRequest"
        | "CancelledNotification"
        | "CompleteRequest"
        | "DiscoverRequest"
        | "GetPromptRequest"
        | "ListPromptsRequest"
        | "ListResourceTemplatesRequest"
        | "ListResourcesRequest"
        | "ListToolsRequest"
        | "ReadResourceRequest"
        | "SubscriptionsListenRequest" => theirs_as::<m::ClientJsonRpcMessage>(text),
        // JSON-RPC messages a server sends: responses, error responses, notifications.
        "CallToolResultResponse"
        | "CompleteResultResponse"
        | "DiscoverResultResponse"
        | "GetPromptResultResponse"
        | "ListPromptsResultResponse"
        | "ListResourceTemplatesResultResponse"
        | "ListResourcesResultResponse"
        | "ListToolsResultResponse"
        | "ReadResourceResultResponse"
        | "SubscriptionsListenResultResponse"
        | "HeaderMismatchError"
        | "MissingRequiredClientCapabilityError"
        | "UnsupportedProtocolVersionError"
        | "LoggingMessageNotification"
        | "ProgressNotification"
        | "PromptListChangedNotification"
        | "ResourceListChangedNotification"
        | "ResourceUpdatedNotification"
        | "SubscriptionsAcknowledgedNotification"
        | "ToolListChangedNotification" => theirs_as::<m::ServerJsonRpcMessage>(text),
        // The error objects of the error responses.
        "InternalError" | "InvalidParamsError" | "MethodNotFoundError" | "ParseError" => {
            theirs_as::<m::ErrorData>(text)
        }
        // Content blocks: `rmcp`'s structs have no `type`; `ContentBlock` writes it.
        "AudioContent" | "EmbeddedResource" | "ImageContent" | "ResourceLink" | "TextContent" => {
            theirs_as::<m::ContentBlock>(text)
        }
        // Sampling content: `type` is written by `SamplingMessageContentBlock`.
        "ToolResultContent" | "ToolUseContent" => theirs_as::<m::SamplingMessageContentBlock>(text),
        "BlobResourceContents" | "TextResourceContents" => theirs_as::<m::ResourceContents>(text),
        "ElicitRequestFormParams" | "ElicitRequestURLParams" => {
            theirs_as::<m::ElicitRequestParams>(text)
        }
        "CancelledNotificationParams" => theirs_as::<m::CancelledNotificationParam>(text),
        "LoggingMessageNotificationParams" => theirs_as::<m::LoggingMessageNotificationParam>(text),
        "ProgressNotificationParams" => theirs_as::<m::ProgressNotificationParam>(text),
        "ResourceUpdatedNotificationParams" => {
            theirs_as::<m::ResourceUpdatedNotificationParam>(text)
        }
        // The same name.
        "BooleanSchema" => theirs_as::<m::BooleanSchema>(text),
        "CallToolRequestParams" => theirs_as::<m::CallToolRequestParams>(text),
        "CallToolResult" => theirs_as::<m::CallToolResult>(text),
        "ClientCapabilities" => theirs_as::<m::ClientCapabilities>(text),
        "CompleteRequestParams" => theirs_as::<m::CompleteRequestParams>(text),
        "CompleteResult" => theirs_as::<m::CompleteResult>(text),
        "CreateMessageRequest" => theirs_as::<m::CreateMessageRequest>(text),
        "CreateMessageRequestParams" => theirs_as::<m::CreateMessageRequestParams>(text),
        "CreateMessageResult" => theirs_as::<m::CreateMessageResult>(text),
        "DiscoverResult" => theirs_as::<m::DiscoverResult>(text),
        "ElicitRequest" => theirs_as::<m::ElicitRequest>(text),
        "ElicitResult" => theirs_as::<m::ElicitResult>(text),
        "GetPromptRequestParams" => theirs_as::<m::GetPromptRequestParams>(text),
        "GetPromptResult" => theirs_as::<m::GetPromptResult>(text),
        "InputRequests" => theirs_as::<m::InputRequests>(text),
        "InputRequiredResult" => theirs_as::<m::InputRequiredResult>(text),
        "InputResponses" => theirs_as::<m::InputResponses>(text),
        "ListPromptsResult" => theirs_as::<m::ListPromptsResult>(text),
        "ListResourceTemplatesResult" => theirs_as::<m::ListResourceTemplatesResult>(text),
        "ListResourcesResult" => theirs_as::<m::ListResourcesResult>(text),
        "ListRootsRequest" => theirs_as::<m::ListRootsRequest>(text),
        "ListRootsResult" => theirs_as::<m::ListRootsResult>(text),
        "ListToolsResult" => theirs_as::<m::ListToolsResult>(text),
        "ModelPreferences" => theirs_as::<m::ModelPreferences>(text),
        "NumberSchema" => theirs_as::<m::NumberSchema>(text),
        "PaginatedRequestParams" => theirs_as::<m::PaginatedRequestParams>(text),
        "ReadResourceResult" => theirs_as::<m::ReadResourceResult>(text),
        "Resource" => theirs_as::<m::Resource>(text),
        "Root" => theirs_as::<m::Root>(text),
        "SamplingMessage" => theirs_as::<m::SamplingMessage>(text),
        "ServerCapabilities" => theirs_as::<m::ServerCapabilities>(text),
        "StringSchema" => theirs_as::<m::StringSchema>(text),
        "SubscriptionsListenResult" => theirs_as::<m::SubscriptionsListenResult>(text),
        "TitledMultiSelectEnumSchema" => theirs_as::<m::TitledMultiSelectEnumSchema>(text),
        "TitledSingleSelectEnumSchema" => theirs_as::<m::TitledSingleSelectEnumSchema>(text),
        "Tool" => theirs_as::<m::Tool>(text),
        "UntitledMultiSelectEnumSchema" => theirs_as::<m::UntitledMultiSelectEnumSchema>(text),
        "UntitledSingleSelectEnumSchema" => theirs_as::<m::UntitledSingleSelectEnumSchema>(text),
        other => panic!("no rmcp type is matched to `{other}`: add it here"),
    }
}

/// The first place where `b` differs from `a`, as a JSON pointer and both values.
fn first_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, value) in x {
                let here = format!("{path}/{}", key.replace('~', "~0").replace('/', "~1"));
                match y.get(key) {
                    Some(other) => {
                        if let Some(d) = first_difference(value, other, &here) {
                            return Some(d);
                        }
                    }
                    None => return Some(format!("{here}: {value} dropped")),
                }
            }
            y.iter()
                .find(|(key, _)| !x.contains_key(*key))
                .map(|(key, value)| {
                    format!(
                        "{path}/{}: {value} added",
                        key.replace('~', "~0").replace('/', "~1")
                    )
                })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_difference(p, q, &format!("{path}/{i}"))),
        _ if a == b => None,
        _ => Some(format!("{path}: {a} became {b}")),
    }
}

/// Whether `a` and `b` are equal once numbers are compared by value (`50` and `50.0` are;
/// `0.8` and `0.800000011920929`, its `f32` rounding, are not): JSON Schema's equality, the one
/// `uniqueItems` checks with.
fn equal_by_value(a: &Value, b: &Value) -> bool {
    toolcall_contracts::__private::json_equal(a, b)
}

/// Why `rmcp` and `rust-mcp-schema` write a number as a float where the input has an integer.
const F64: &str = "a JSON Schema `number` is an `f64` there: an integral value comes back as \
    a float (`50` as `50.0`); ours keeps `serde_json::Number`";
/// Why `rmcp` changes a priority.
const F32: &str = "rmcp keeps priorities and the sampling `temperature` as `f32` \
    (`Annotations.priority`, `ModelPreferences.*Priority`, `temperature`): `0.8` comes back as \
    `0.800000011920929`, `1` as `1.0`";
/// Why `rmcp` adds an `elicitationId`.
const ELICITATION_ID: &str = "rmcp's `ElicitRequestParams::UrlElicitationParams` has \
    `elicitation_id: String` (2025-11-25's required member, gone in 2026-07-28), defaulted to \
    `\"\"` by its wire shim and written back";
/// Why `rmcp` adds `"mode": "form"`.
const FORM_MODE: &str = "rmcp's `ElicitRequestParams` is `#[serde(tag = \"mode\")]`: an \
    absent `mode` decodes as a form (its wire shim) and is written as `\"mode\": \"form\"`";
/// Why both drop the `id` of the `roots/list` example.
const UNDECLARED_ID: &str = "the example carries an `id` that 2026-07-28's `ListRootsRequest` \
    does not declare (input requests have none); their structs ignore unknown members, ours \
    keeps it in `unknown_members`";
/// Why `rust-mcp-schema` drops the payload of a result response.
const FIRST_UNTAGGED: &str = "rust-mcp-schema's `<Method>ResultResponseResult` is \
    `#[serde(untagged)]` over `InputRequiredResult | <Method>Result`: serde takes the first \
    branch that decodes, and `InputRequiredResult` (every member optional but `resultType`, \
    unknown members ignored) decodes every result, dropping its payload silently; ours picks \
    the branch that leaves no member undeclared";

/// An example another crate re-encodes differently from the input.
struct Differs {
    /// `<Definition>/<file>`.
    example: &'static str,
    /// The first difference (see [`first_difference`]).
    at: &'static str,
    /// Why, read in that crate's sources.
    reason: &'static str,
}

/// An example another crate refuses.
struct Refuses {
    /// `<Definition>/<file>`.
    example: &'static str,
    /// Why, read in that crate's sources.
    reason: &'static str,
}

/// `rmcp` accepts every example.
const RMCP_REFUSES: &[Refuses] = &[];

/// `rust-mcp-schema` accepts every example.
const RUST_MCP_SCHEMA_REFUSES: &[Refuses] = &[];

/// The examples `rmcp` re-encodes differently.
const RMCP_DIFFERS: &[Differs] = &[
    Differs {
        example: "CreateMessageRequest/sampling-request.json",
        at: "/params/modelPreferences/intelligencePriority: 0.8 became 0.800000011920929",
        reason: F32,
    },
    Differs {
        example: "CreateMessageRequestParams/basic-request.json",
        at: "/modelPreferences/intelligencePriority: 0.8 became 0.800000011920929",
        reason: F32,
    },
    Differs {
        example: "ElicitRequestFormParams/elicit-multiple-fields.json",
        at: "/requestedSchema/properties/age/minimum: 18 became 18.0",
        reason: F64,
    },
    Differs {
        example: "ElicitRequestURLParams/elicit-sensitive-data.json",
        at: "/elicitationId: \"\" added",
        reason: ELICITATION_ID,
    },
    Differs {
        example: "EmbeddedResource/embedded-file-resource-with-annotations.json",
        at: "/annotations/priority: 0.7 became 0.699999988079071",
        reason: F32,
    },
    Differs {
        example: "ImageContent/image-png-content-with-annotations.json",
        at: "/annotations/priority: 0.9 became 0.8999999761581421",
        reason: F32,
    },
    Differs {
        example: "InputRequiredResult/input-required-result-with-elicitation-and-sampling-and-request-state.json",
        at: "/inputRequests/github_login/params/mode: \"form\" added",
        reason: FORM_MODE,
    },
    Differs {
        example: "ListRootsRequest/list-roots-request.json",
        at: "/id: \"list-roots-example\" dropped",
        reason: UNDECLARED_ID,
    },
    Differs {
        example: "ModelPreferences/with-hints-and-priorities.json",
        at: "/costPriority: 0.3 became 0.30000001192092896",
        reason: F32,
    },
    Differs {
        example: "NumberSchema/number-input-schema.json",
        at: "/minimum: 0 became 0.0",
        reason: F64,
    },
    Differs {
        example: "ProgressNotification/progress-message.json",
        at: "/params/progress: 50 became 50.0",
        reason: F64,
    },
    Differs {
        example: "ProgressNotificationParams/progress-message.json",
        at: "/progress: 50 became 50.0",
        reason: F64,
    },
    Differs {
        example: "Resource/file-resource-with-annotations.json",
        at: "/annotations/priority: 0.8 became 0.800000011920929",
        reason: F32,
    },
];

/// The examples `rust-mcp-schema` re-encodes differently.
const RUST_MCP_SCHEMA_DIFFERS: &[Differs] = &[
    Differs {
        example: "CallToolResultResponse/call-tool-result-response.json",
        at: "/result/content: [{\"type\":\"text\",\"text\":\"Current weather in New York:\\nTemperature: 72°F\\nConditions: Partly cloudy\"}] dropped",
        reason: FIRST_UNTAGGED,
    },
    Differs {
        example: "ElicitRequestFormParams/elicit-multiple-fields.json",
        at: "/requestedSchema/properties/age/minimum: 18 became 18.0",
        reason: F64,
    },
    Differs {
        example: "GetPromptResultResponse/get-prompt-result-response.json",
        at: "/result/description: \"Code review prompt\" dropped",
        reason: FIRST_UNTAGGED,
    },
    Differs {
        example: "ListRootsRequest/list-roots-request.json",
        at: "/id: \"list-roots-example\" dropped",
        reason: UNDECLARED_ID,
    },
    Differs {
        example: "NumberSchema/number-input-schema.json",
        at: "/minimum: 0 became 0.0",
        reason: F64,
    },
    Differs {
        example: "ProgressNotification/progress-message.json",
        at: "/params/progress: 50 became 50.0",
        reason: F64,
    },
    Differs {
        example: "ProgressNotificationParams/progress-message.json",
        at: "/progress: 50 became 50.0",
        reason: F64,
    },
    Differs {
        example: "ReadResourceResultResponse/read-resource-result-response-with-ttl.json",
        at: "/result/contents: [{\"uri\":\"file:///project/src/main.rs\",\"mimeType\":\"text/x-rust\",\"text\":\"fn main() {\\n    println!(\\\"Hello world!\\\");\\n}\"}] dropped",
        reason: FIRST_UNTAGGED,
    },
    Differs {
        example: "ReadResourceResultResponse/read-resource-result-response.json",
        at: "/result/contents: [{\"uri\":\"file:///project/src/main.rs\",\"mimeType\":\"text/x-rust\",\"text\":\"fn main() {\\n    println!(\\\"Hello world!\\\");\\n}\"}] dropped",
        reason: FIRST_UNTAGGED,
    },
];

/// What one crate did with the examples.
#[derive(Default)]
struct Tally {
    accepted: usize,
    equal: usize,
    equal_by_value: usize,
    refused: Vec<(String, String)>,
    differs: Vec<(String, String)>,
}

impl Tally {
    fn add(&mut self, example: &str, input: &Value, theirs: Result<Value, String>) {
        match theirs {
            Err(error) => self.refused.push((example.to_owned(), error)),
            Ok(value) => {
                self.accepted += 1;
                match first_difference(input, &value, "") {
                    None => self.equal += 1,
                    Some(difference) => {
                        if equal_by_value(input, &value) {
                            self.equal_by_value += 1;
                        }
                        self.differs.push((example.to_owned(), difference));
                    }
                }
            }
        }
    }

    /// Prints the outcome and checks it against the expected lists.
    fn check(&self, name: &str, total: usize, refuses: &[Refuses], differs: &[Differs]) {
        println!(
            "{name}: of {total} examples accepted by both {} (by ours only {}, by {name} only 0); \
             equal re-encodings {} of {}, {} more equal with numbers compared by value",
            self.accepted,
            self.refused.len(),
            self.equal,
            self.accepted,
            self.equal_by_value,
        );
        for (example, error) in &self.refused {
            let reason = refuses
                .iter()
                .find(|r| r.example == example)
                .map_or("NOT EXPECTED", |r| r.reason);
            println!("  refused {example}: {error}\n    because {reason}");
        }
        for (example, at) in &self.differs {
            let reason = differs
                .iter()
                .find(|d| d.example == example && d.at == at)
                .map_or("NOT EXPECTED", |d| d.reason);
            println!("  differs {example} at {at}\n    because {reason}");
        }
        let refused: Vec<&str> = self.refused.iter().map(|(e, _)| e.as_str()).collect();
        let expected: Vec<&str> = refuses.iter().map(|r| r.example).collect();
        assert_eq!(refused, expected, "{name}: the examples it refuses");
        let found: Vec<(&str, &str)> = self
            .differs
            .iter()
            .map(|(e, at)| (e.as_str(), at.as_str()))
            .collect();
        let expected: Vec<(&str, &str)> = differs.iter().map(|d| (d.example, d.at)).collect();
        assert_eq!(
            found, expected,
            "{name}: the examples it re-encodes differently"
        );
    }
}

#[test]
fn differential_against_rmcp_and_rust_mcp_schema() {
    let Some(examples) = examples() else {
        return;
    };
    assert_eq!(examples.len(), 129, "the specification ships 129 examples");
    let (mut rmcp, mut rust_mcp_schema) = (Tally::default(), Tally::default());
    for example in &examples {
        let input: Value = serde_json::from_str(&example.text).unwrap();
        let ours = decode_ours(&example.definition, &example.text)
            .unwrap_or_else(|e| panic!("{}: ours refuses: {e}", example.name));
        assert_eq!(ours, input, "{}: ours re-encodes exactly", example.name);
        rmcp.add(
            &example.name,
            &input,
            rmcp_decode(&example.definition, &example.text),
        );
        rust_mcp_schema.add(
            &example.name,
            &input,
            decode_rust_mcp_schema(&example.definition, &example.text),
        );
    }
    println!(
        "ours: accepts all {} and re-encodes each exactly",
        examples.len()
    );
    rmcp.check("rmcp 3.11.0", examples.len(), RMCP_REFUSES, RMCP_DIFFERS);
    rust_mcp_schema.check(
        "rust-mcp-schema 2.0.0",
        examples.len(),
        RUST_MCP_SCHEMA_REFUSES,
        RUST_MCP_SCHEMA_DIFFERS,
    );
    // The totals the closing note quotes.
    assert_eq!((rmcp.equal, rmcp.equal_by_value), (116, 4));
    assert_eq!(
        (rust_mcp_schema.equal, rust_mcp_schema.equal_by_value),
        (120, 4)
    );
}

/// How an example was changed into a mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Mutation {
    /// A member deleted.
    Deleted,
    /// A member's value replaced by `null`.
    Null,
    /// A scalar replaced by one of another JSON type (a string by `42`, anything else by
    /// `"x"`).
    OtherType,
}

/// Every mutant of `value`: each member, at any depth, deleted, `null`, and (for scalars) of
/// another type; with the pointer of the member.
fn mutants(value: &Value) -> Vec<(Mutation, String, Value)> {
    fn walk(
        root: &Value,
        at: &Value,
        path: &mut Vec<String>,
        out: &mut Vec<(Mutation, String, Value)>,
    ) {
        match at {
            Value::Object(map) => {
                for (key, member) in map {
                    path.push(key.clone());
                    let pointer: String = path
                        .iter()
                        .map(|s| format!("/{}", s.replace('~', "~0").replace('/', "~1")))
                        .collect();
                    let edit = |f: &dyn Fn(&mut Map<String, Value>, &str)| {
                        let mut copy = root.clone();
                        let (parent, _) = pointer.rsplit_once('/').unwrap();
                        let object = copy.pointer_mut(parent).unwrap().as_object_mut().unwrap();
                        f(object, key);
                        copy
                    };
                    out.push((
                        Mutation::Deleted,
                        pointer.clone(),
                        edit(&|o, k| {
                            o.remove(k);
                        }),
                    ));
                    if !member.is_null() {
                        out.push((
                            Mutation::Null,
                            pointer.clone(),
                            edit(&|o, k| {
                                o.insert(k.to_owned(), Value::Null);
                            }),
                        ));
                    }
                    if !member.is_object() && !member.is_array() {
                        let other = if member.is_string() {
                            json!(42)
                        } else {
                            json!("x")
                        };
                        out.push((
                            Mutation::OtherType,
                            pointer.clone(),
                            edit(&|o, k| {
                                o.insert(k.to_owned(), other.clone());
                            }),
                        ));
                    }
                    walk(root, member, path, out);
                    path.pop();
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    path.push(index.to_string());
                    walk(root, item, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(value, value, &mut Vec::new(), &mut out);
    out
}

/// The schema's validator for `$defs/<definition>` (the whole document, nothing fetched).
fn validator(definition: &str) -> jsonschema::Validator {
    let mut document: Value = serde_json::from_str(ours::SCHEMA_JSON).unwrap();
    document["$ref"] = Value::String(format!("#/$defs/{definition}"));
    jsonschema::draft202012::options()
        .build(&document)
        .unwrap_or_else(|e| panic!("validator for `{definition}`: {e}"))
}

/// The mutants each other crate refuses although the schema accepts them (and so does ours).
const REFUSED_BUT_VALID: &[(&str, &str, Mutation, &str, &str)] = &[(
    "rmcp",
    "InputRequiredResult/input-required-result-with-request-state-only.json",
    Mutation::Deleted,
    "/requestState",
    "rmcp's `InputRequiredResult` requires one of `inputRequests` and `requestState` (its \
     own `Deserialize`: \"requires at least one of inputRequests or requestState\"); the \
     schema requires `resultType` only",
)];

/// Whether the schema, ours, `rmcp` and `rust-mcp-schema` accept a mutant.
type Cell = (bool, bool, bool, bool);

/// How many mutants fall in each cell: (schema, ours, rmcp, rust-mcp-schema accept), the
/// mutation, the count. Ours agrees with the schema in every cell (asserted apart).
///
/// Why the other crates accept what the schema refuses:
/// - `null` for an optional member: both decode optional members as `Option<T>`, `null` as
///   `None` (and write it back as absent); the schema has no `null` there;
/// - `rmcp` also: `_meta` is a free JSON object (`MetaObject`), so what 2026-07-28 declares in
///   it (`io.modelcontextprotocol/protocolVersion`, `clientCapabilities`, `clientInfo` and its
///   `name`...) is not checked; its JSON-RPC message is an untagged enum over method unions
///   with catch-alls (`CustomRequest`, `CustomNotification`), so a request without `id`
///   decodes as a notification and one with broken `params` as a custom request; required
///   members with serde defaults (`content`, `resultType`...).
const TABLE: &[(Cell, Mutation, usize)] = &[
    ((false, false, false, false), Mutation::Deleted, 380),
    ((false, false, false, false), Mutation::Null, 392),
    ((false, false, false, false), Mutation::OtherType, 415),
    ((false, false, false, true), Mutation::Null, 1),
    ((false, false, true, false), Mutation::Deleted, 217),
    ((false, false, true, false), Mutation::Null, 262),
    ((false, false, true, false), Mutation::OtherType, 145),
    ((false, false, true, true), Mutation::Null, 236),
    ((true, true, false, true), Mutation::Deleted, 1),
    ((true, true, true, true), Mutation::Deleted, 420),
    ((true, true, true, true), Mutation::Null, 127),
    ((true, true, true, true), Mutation::OtherType, 114),
];

/// Every mutant of every example (each member deleted, `null`, of another type; 2,710): ours
/// agrees with the schema on each (a valid mutant decodes and re-encodes exactly, an invalid
/// one is refused); what each other crate accepts against the schema's verdict is asserted as
/// [`TABLE`], the valid mutants they refuse as [`REFUSED_BUT_VALID`], and a few cells by
/// example.
#[test]
fn mutants_against_the_schema_and_the_other_crates() {
    let Some(examples) = examples() else {
        return;
    };
    let mut validators = std::collections::BTreeMap::new();
    let mut disagreements = Vec::new();
    let mut table: std::collections::BTreeMap<(Cell, Mutation), usize> = Default::default();
    let mut refused_but_valid = Vec::new();
    let mut all = std::collections::BTreeMap::new();
    for example in &examples {
        let input: Value = serde_json::from_str(&example.text).unwrap();
        let validator = validators
            .entry(example.definition.clone())
            .or_insert_with(|| validator(&example.definition));
        assert!(
            validator.is_valid(&input),
            "{}: the example is valid",
            example.name
        );
        for (mutation, pointer, mutant) in mutants(&input) {
            let text = mutant.to_string();
            let schema = validator.is_valid(&mutant);
            let ours = decode_ours(&example.definition, &text);
            let ours_ok = match (&ours, schema) {
                (Ok(value), true) if *value == mutant => true,
                (Err(_), false) => false,
                (outcome, _) => {
                    disagreements.push(format!(
                        "{} {mutation:?} {pointer}: schema valid {schema}, ours {outcome:?}",
                        example.name
                    ));
                    outcome.is_ok()
                }
            };
            let rmcp = rmcp_decode(&example.definition, &text).is_ok();
            let rust_mcp_schema = decode_rust_mcp_schema(&example.definition, &text).is_ok();
            for (name, accepted) in [("rmcp", rmcp), ("rust-mcp-schema", rust_mcp_schema)] {
                if schema && !accepted {
                    refused_but_valid.push((name, example.name.clone(), mutation, pointer.clone()));
                }
            }
            let cell = (schema, ours_ok, rmcp, rust_mcp_schema);
            *table.entry((cell, mutation)).or_default() += 1;
            all.insert((example.name.clone(), mutation, pointer), cell);
        }
    }
    println!("{} mutants of {} examples", all.len(), examples.len());
    for ((cell, mutation), count) in &table {
        println!("  (schema, ours, rmcp, rust-mcp-schema) accept {cell:?} {mutation:?}: {count}");
    }
    assert!(
        disagreements.is_empty(),
        "ours disagrees with the schema on {} mutants:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    let found: Vec<_> = table.into_iter().map(|((c, m), n)| (c, m, n)).collect();
    assert_eq!(found, TABLE, "the table of verdicts");
    let expected: Vec<_> = REFUSED_BUT_VALID
        .iter()
        .map(|(name, example, mutation, pointer, _)| {
            (
                *name,
                (*example).to_owned(),
                *mutation,
                (*pointer).to_owned(),
            )
        })
        .collect();
    assert_eq!(
        refused_but_valid, expected,
        "valid mutants another crate refuses"
    );
    // A few cells, by example: (schema, ours, rmcp, rust-mcp-schema).
    let cell = |example: &str, mutation: Mutation, pointer: &str| {
        all[&(example.to_owned(), mutation, pointer.to_owned())]
    };
    // `isError: null`: both others read it as absent.
    assert_eq!(
        cell(
            "CallToolResult/result-with-unstructured-text.json",
            Mutation::Null,
            "/isError"
        ),
        (false, false, true, true)
    );
    // A `tools/call` request without `id`: rmcp reads a notification.
    assert_eq!(
        cell(
            "CallToolRequest/call-tool-request.json",
            Mutation::Deleted,
            "/id"
        ),
        (false, false, true, false)
    );
    // The request `_meta` without its protocol version: rmcp does not look inside `_meta`.
    assert_eq!(
        cell(
            "CallToolRequest/call-tool-request.json",
            Mutation::Deleted,
            "/params/_meta/io.modelcontextprotocol~1protocolVersion"
        ),
        (false, false, true, false)
    );
    // `mode: null` on a form elicitation (ours dropped it until the fix in
    // tests/regression/null_tag_reaches_the_fallback.rs).
    assert_eq!(
        cell(
            "ElicitRequestFormParams/elicit-single-field.json",
            Mutation::Null,
            "/mode"
        ),
        (false, false, true, true)
    );
    // A deleted optional member is valid everywhere.
    assert_eq!(
        cell(
            "CallToolResult/invalid-tool-input-error.json",
            Mutation::Deleted,
            "/isError"
        ),
        (true, true, true, true)
    );
}

/// One message of a recorded transcript (`tests/fixtures/mcp/*/transcript.ndjson`): who sent
/// it and the message.
fn transcript(path: &str) -> Vec<(String, Value)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            let entry: Value = serde_json::from_str(line).unwrap();
            (
                entry["from"].as_str().unwrap().to_owned(),
                entry["message"].clone(),
            )
        })
        .collect()
}

/// Our decode of a whole message of `version`: requests and notifications by their side's
/// method union, a result by its side's result union (by shape: the request it answers is not
/// looked up), an error by the error envelope.
fn ours_message(version: &str, from: &str, message: &Value) -> Result<Value, String> {
    macro_rules! by_kind {
        ($m:ident, $server_request:ident, $client_result:ident) => {{
            use toolcall_contracts::mcp::$m as v;
            let text = message.to_string();
            let client = from == "client";
            if message.get("method").is_some() && message.get("id").is_some() {
                if client {
                    ours_as::<v::ClientRequest>(&text)
                } else {
                    ours_as::<v::$server_request>(&text)
                }
            } else if message.get("method").is_some() {
                if client {
                    ours_as::<v::ClientNotification>(&text)
                } else {
                    ours_as::<v::ServerNotification>(&text)
                }
            } else if let Some(result) = message.get("result") {
                let result = result.to_string();
                let decoded = if client {
                    ours_as::<v::$client_result>(&result)
                } else {
                    ours_as::<v::ServerResult>(&result)
                }?;
                let mut whole = message.clone();
                whole["result"] = decoded;
                ours_as::<v::JSONRPCResultResponse>(&text)?;
                Ok(whole)
            } else {
                ours_as::<v::JSONRPCErrorResponse>(&text)
            }
        }};
    }
    match version {
        "2025-11-25" => by_kind!(v2025_11_25, ServerRequest, ClientResult),
        // No server-to-client requests, and a client sends no results, in 2026-07-28.
        "2026-07-28" => by_kind!(v2026_07_28, JSONRPCRequest, Result),
        other => panic!("no transcript of {other}"),
    }
}

/// Why `rmcp` drops what 2025-11-25 says about tasks.
const TASKS: &str = "rmcp 3.11 carries tasks as 2026-07-28's `io.modelcontextprotocol/tasks` \
    extension: 2025-11-25's `tasks` capabilities, `Tool.execution`, the `task` request \
    parameter and the task result's `ttl` and `pollInterval` (its `GetTaskResult` has \
    `ttlMs`, `pollIntervalMs`) have no field there and are dropped (serde ignores unknown \
    members)";
/// Why `rmcp` adds `params` to `tools/list`.
const EMPTY_PARAMS: &str = "rmcp writes `\"params\": {}` back for a `tools/list` request sent \
    without `params`";

/// The messages of the recorded transcripts `rmcp` re-encodes differently: (transcript,
/// line, first difference, reason). It refuses none.
const RMCP_TRAFFIC_DIFFERS: &[(&str, usize, &str, &str)] = &[
    ("server-everything", 1, "/params/capabilities/tasks: {\"requests\":{\"sampling\":{\"createMessage\":{}},\"elicitation\":{\"create\":{}}}} dropped", TASKS),
    ("server-everything", 2, "/result/capabilities/tasks: {\"list\":{},\"cancel\":{},\"requests\":{\"tools\":{\"call\":{}}}} dropped", TASKS),
    ("server-everything", 12, "/params: {} added", EMPTY_PARAMS),
    ("server-everything", 14, "/result/tools/0/execution: {\"taskSupport\":\"forbidden\"} dropped", TASKS),
    ("server-everything", 22, "/result/content/0/annotations/priority: 1 became 1.0", F32),
    ("server-everything", 24, "/result/content/0/annotations/priority: 0.7 became 0.699999988079071", F32),
    ("server-everything", 56, "/params/progress: 1 became 1.0", F64),
    ("server-everything", 57, "/params/progress: 2 became 2.0", F64),
    ("server-everything", 58, "/params/progress: 3 became 3.0", F64),
    ("server-everything", 59, "/params/progress: 4 became 4.0", F64),
    ("server-everything", 60, "/params/progress: 5 became 5.0", F64),
    ("server-everything", 65, "/params/requestedSchema/properties/number/minimum: 0 became 0.0", F64),
    ("server-everything", 75, "/params/temperature: 0.7 became 0.699999988079071", F32),
    ("server-everything", 79, "/params/task: {\"ttl\":300000} dropped", TASKS),
    ("server-everything", 86, "/params/task: {\"ttl\":600000} dropped", TASKS),
    ("server-everything", 92, "/params/task: {\"ttl\":60000} dropped", TASKS),
    ("server-everything", 96, "/result/ttl: 300000 dropped", TASKS),
    ("server-everything", 102, "/params/mode: \"form\" added", FORM_MODE),
    ("server-everything", 113, "/params/progress: 1 became 1.0", F64),
    ("server-everything", 115, "/params/progress: 2 became 2.0", F64),
    ("server-everything", 116, "/params/progress: 3 became 3.0", F64),
    ("server-everything", 117, "/params/progress: 4 became 4.0", F64),
    ("server-everything", 118, "/params/progress: 5 became 5.0", F64),
    ("python-sdk", 8, "/params/progress: 1 became 1.0", F64),
    ("python-sdk", 9, "/params/progress: 2 became 2.0", F64),
    ("python-sdk", 10, "/params/progress: 3 became 3.0", F64),
];

/// The real traffic of `tests/fixtures/mcp/` (see its `PROVENANCE.md`):
/// `@modelcontextprotocol/server-everything` with the official TypeScript client, 121 messages
/// of 2025-11-25 (tasks, sampling, elicitation, progress, cancellation), and the official
/// Python SDK on both sides, 15 messages of 2026-07-28. Each message is decoded whole: ours
/// by its side's method union (requests, notifications), result union (by shape; the request
/// it answers is not looked up) or error envelope; `rmcp` as its `ClientJsonRpcMessage` or
/// `ServerJsonRpcMessage`. Ours re-encodes all 136 exactly; `rmcp`'s differences are
/// [`RMCP_TRAFFIC_DIFFERS`].
#[test]
fn recorded_traffic_against_rmcp() {
    let mut differs = Vec::new();
    let mut count = 0;
    for (name, version) in [
        ("server-everything", "2025-11-25"),
        ("python-sdk", "2026-07-28"),
    ] {
        let file = format!(
            "{}/tests/fixtures/mcp/{name}/transcript.ndjson",
            env!("CARGO_MANIFEST_DIR")
        );
        for (index, (from, message)) in transcript(&file).iter().enumerate() {
            count += 1;
            let line = index + 1;
            let ours = ours_message(version, from, message)
                .unwrap_or_else(|e| panic!("{name}:{line}: ours refuses: {e}"));
            assert_eq!(&ours, message, "{name}:{line}: ours re-encodes exactly");
            let text = message.to_string();
            let rmcp = if from == "client" {
                theirs_as::<rmcp::model::ClientJsonRpcMessage>(&text)
            } else {
                theirs_as::<rmcp::model::ServerJsonRpcMessage>(&text)
            }
            .unwrap_or_else(|e| panic!("{name}:{line}: rmcp refuses: {e}"));
            if let Some(difference) = first_difference(message, &rmcp, "") {
                differs.push((name, line, difference));
            }
        }
    }
    println!(
        "recorded traffic: {count} messages; ours re-encodes all exactly, rmcp accepts all and \
         re-encodes {} exactly",
        count - differs.len()
    );
    for (name, line, difference) in &differs {
        let reason = RMCP_TRAFFIC_DIFFERS
            .iter()
            .find(|(n, l, d, _)| n == name && l == line && *d == difference)
            .map_or("NOT EXPECTED", |(.., reason)| reason);
        println!("  rmcp {name}:{line} {difference}\n    because {reason}");
    }
    assert_eq!(count, 136);
    let found: Vec<(&str, usize, &str)> = differs
        .iter()
        .map(|(n, l, d)| (*n, *l, d.as_str()))
        .collect();
    let expected: Vec<(&str, usize, &str)> = RMCP_TRAFFIC_DIFFERS
        .iter()
        .map(|(n, l, d, _)| (*n, *l, *d))
        .collect();
    assert_eq!(found, expected, "the messages rmcp re-encodes differently");
}
