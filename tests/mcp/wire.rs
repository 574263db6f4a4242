//! Exact-JSON wire tests of the generated MCP types of 2025-11-25 and 2026-07-28, both
//! directions: a value built with `new` and setters encodes to exactly the JSON written here
//! (`serde_json::to_value(x) == json!({...})`), and that JSON decodes, with an empty report,
//! into exactly that value. Absent vs `null`, `_meta` and members the schema does not declare,
//! `2` vs `2.0`, a `RequestId` or `ProgressToken` string vs integer; bad input gets an error
//! naming the JSON pointer of what is wrong.
//!
//! Messages: `tools/call` request and result (text, image, resource link, embedded text and
//! blob resources, structured content, `isError`), `tools/list` with a cursor (request and
//! result with `nextCursor`), `notifications/progress` with a string and an integer token, an
//! elicitation request in each mode (form, url).

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Map, Number, Value};
use toolcall_contracts::{decode, DecodeError};

/// `value` encodes to `wire` exactly, and `wire` decodes (with an empty report) to `value`.
#[track_caller]
fn both_ways<T>(value: &T, wire: &Value)
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let encoded = serde_json::to_value(value).expect("encodes");
    assert_eq!(&encoded, wire, "encoding");
    let decoded = decode::<T>(wire.to_string().as_bytes()).expect("decodes");
    assert!(
        decoded.report.is_empty(),
        "nothing is lenient: {:?}",
        decoded.report
    );
    assert_eq!(&decoded.value, value, "decoding");
}

/// Decodes `wire` as `T`, which must fail; the error.
#[track_caller]
fn refused<T: DeserializeOwned + Debug>(wire: &Value) -> DecodeError {
    decode::<T>(wire.to_string().as_bytes()).expect_err("refused")
}

/// An object from a `json!` object literal.
fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// The float `f`, as `serde_json` keeps it (`2.0` is not `2`).
fn float(f: f64) -> Number {
    Number::from_f64(f).expect("finite")
}

mod v2025_11_25 {
    use super::*;
    use toolcall_contracts::mcp::v2025_11_25::{
        Annotations, BlobResourceContents, CallToolRequest, CallToolRequestParams,
        CallToolRequestParamsMeta, CallToolResult, ClientNotification, ClientRequest, ContentBlock,
        ElicitRequest, ElicitRequestFormParams, ElicitRequestFormParamsRequestedSchema,
        ElicitRequestParams, ElicitRequestURLParams, EmbeddedResource, EmbeddedResourceResource,
        ImageContent, JSONRPCMessage, JSONRPCResultResponse, ListToolsRequest, ListToolsResult,
        PaginatedRequestParams, PrimitiveSchemaDefinition, ProgressNotification,
        ProgressNotificationParams, ProgressToken, RequestId, ResourceLink, Result as McpResult,
        Role, ServerNotification, ServerRequest, ServerResult, StringSchema, TextContent,
        TextResourceContents, Tool, ToolInputSchema,
    };

    #[test]
    fn tools_call_request_with_integer_id_progress_token_and_unknown_members() {
        let mut meta = CallToolRequestParamsMeta::new()
            .progress_token(ProgressToken::String("call-1".to_owned()));
        meta.unknown_members
            .insert("com.example/trace".to_owned(), json!("abc"));
        let mut params = CallToolRequestParams::new("get_weather")
            .meta(meta)
            .arguments(object(
                json!({"city": "Paris", "days": 2, "threshold": 2.0}),
            ));
        params
            .unknown_members
            .insert("x-extra".to_owned(), json!({"kept": null}));
        let request = CallToolRequest::new(RequestId::Integer(1), params);
        let wire = json!({
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {
                "_meta": {"progressToken": "call-1", "com.example/trace": "abc"},
                "name": "get_weather",
                "arguments": {"city": "Paris", "days": 2, "threshold": 2.0},
                "x-extra": {"kept": null}
            }
        });
        both_ways(&request, &wire);
        // `2` and `2.0` are different values, and each keeps its form.
        let arguments = request.params.arguments.as_ref().unwrap();
        assert!(arguments["days"].is_u64());
        assert!(arguments["threshold"].is_f64());
        assert_eq!(
            serde_json::to_string(&request.params.arguments).unwrap(),
            r#"{"city":"Paris","days":2,"threshold":2.0}"#
        );
        // The same JSON through the client's request union, by `method`.
        both_ways(&ClientRequest::ToolsCall(request), &wire);
    }

    #[test]
    fn tools_call_request_with_string_id_and_nothing_optional() {
        let request = CallToolRequest::new(
            RequestId::String("1".to_owned()),
            CallToolRequestParams::new("echo"),
        );
        let wire = json!({
            "jsonrpc": "2.0",
            "id": "1",
            "method": "tools/call",
            "params": {"name": "echo"}
        });
        both_ways(&request, &wire);
        // `"1"` and `1` are different ids.
        let integer = decode::<CallToolRequest>(
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}"#,
        )
        .unwrap()
        .value;
        assert_eq!(integer.id, RequestId::Integer(1));
        assert_ne!(integer, request);
        assert_eq!(serde_json::to_value(&integer.id).unwrap(), json!(1));
    }

    #[test]
    fn tools_call_request_refusals_name_the_pointer() {
        let error = refused::<CallToolRequest>(&json!({
            "jsonrpc": "2.0", "id": 1.5, "method": "tools/call", "params": {"name": "echo"}
        }));
        assert_eq!(error.pointer, "/id");
        assert_eq!(
            error.message,
            "a number that matches no variant of `RequestId`"
        );
        let error = refused::<CallToolRequest>(&json!({
            "jsonrpc": "2.0", "id": null, "method": "tools/call", "params": {"name": "echo"}
        }));
        assert_eq!(error.pointer, "/id");
        let error = refused::<CallToolRequest>(&json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"name": "echo"}
        }));
        assert_eq!(error.pointer, "/method");
        assert_eq!(
            error.message,
            "invalid value: string \"tools/list\", expected `tools/call`"
        );
        let error = refused::<CallToolRequest>(&json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "arguments": null}
        }));
        assert_eq!(error.pointer, "/params/arguments");
        let error = refused::<CallToolRequest>(&json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}
        }));
        assert_eq!(error.pointer, "/params");
        assert_eq!(error.message, "missing field `name`");
    }

    /// Every kind of content block a tool result carries.
    fn content() -> (Vec<ContentBlock>, Value) {
        let blocks = vec![
            ContentBlock::Text(
                TextContent::new("22.5 °C").annotations(
                    Annotations::new()
                        .audience(vec![Role::User, Role::Assistant])
                        .priority(float(0.5)),
                ),
            ),
            ContentBlock::Image(ImageContent::new("iVBORw0KGgo=", "image/png")),
            ContentBlock::ResourceLink(
                ResourceLink::new("forecast", "file:///forecast.json")
                    .mime_type("application/json")
                    .size(1024),
            ),
            ContentBlock::Resource(EmbeddedResource::new(
                EmbeddedResourceResource::TextResourceContents(
                    TextResourceContents::new("{\"t\":22.5}", "file:///now.json")
                        .mime_type("application/json"),
                ),
            )),
            ContentBlock::Resource(
                EmbeddedResource::new(EmbeddedResourceResource::BlobResourceContents(
                    BlobResourceContents::new("AAEC", "file:///raw.bin"),
                ))
                .meta(object(json!({"com.example/origin": "sensor-7"}))),
            ),
        ];
        let wire = json!([
            {
                "type": "text",
                "text": "22.5 °C",
                "annotations": {"audience": ["user", "assistant"], "priority": 0.5}
            },
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
            {
                "type": "resource_link",
                "name": "forecast",
                "uri": "file:///forecast.json",
                "mimeType": "application/json",
                "size": 1024
            },
            {
                "type": "resource",
                "resource": {
                    "uri": "file:///now.json",
                    "mimeType": "application/json",
                    "text": "{\"t\":22.5}"
                }
            },
            {
                "type": "resource",
                "_meta": {"com.example/origin": "sensor-7"},
                "resource": {"uri": "file:///raw.bin", "blob": "AAEC"}
            }
        ]);
        (blocks, wire)
    }

    #[test]
    fn tools_call_result_with_every_content_kind_and_structured_content() {
        let (blocks, blocks_wire) = content();
        let result = CallToolResult::new(blocks)
            .structured_content(object(
                json!({"temperature": 22.5, "unit": "celsius", "count": 2}),
            ))
            .is_error(false)
            .meta(object(json!({"com.example/elapsed_ms": 12})));
        let wire = json!({
            "_meta": {"com.example/elapsed_ms": 12},
            "content": blocks_wire,
            "structuredContent": {"temperature": 22.5, "unit": "celsius", "count": 2},
            "isError": false
        });
        both_ways(&result, &wire);
        // The server's result union picks `CallToolResult` by its shape.
        both_ways(&ServerResult::CallToolResult(result.clone()), &wire);
    }

    #[test]
    fn tools_call_result_is_error_absent_true_and_null() {
        let failed = CallToolResult::new(vec![ContentBlock::Text(TextContent::new(
            "city not found: Atlantis",
        ))])
        .is_error(true);
        both_ways(
            &failed,
            &json!({
                "content": [{"type": "text", "text": "city not found: Atlantis"}],
                "isError": true
            }),
        );
        // Absent stays absent (the schema says absent means `false`; it is not written).
        let plain = CallToolResult::new(Vec::new());
        both_ways(&plain, &json!({"content": []}));
        assert_eq!(plain.is_error, None);
        // `null` is not a boolean: refused, naming the member.
        let error = refused::<CallToolResult>(&json!({"content": [], "isError": null}));
        assert_eq!(error.pointer, "/isError");
    }

    #[test]
    fn tools_call_result_in_its_response_envelope() {
        // 2025-11-25 has no per-method response type: the envelope's `result` is `Result`,
        // which keeps the members of the method's result as members it does not declare.
        let mut result = McpResult::new();
        result.unknown_members.insert(
            "content".to_owned(),
            json!([{"type": "text", "text": "ok"}]),
        );
        let response = JSONRPCResultResponse::new(RequestId::String("c-9".to_owned()), result);
        let wire = json!({
            "jsonrpc": "2.0",
            "id": "c-9",
            "result": {"content": [{"type": "text", "text": "ok"}]}
        });
        both_ways(&response, &wire);
        both_ways(&JSONRPCMessage::JSONRPCResultResponse(response), &wire);
    }

    #[test]
    fn content_block_refusals_name_the_tag() {
        let error = refused::<ContentBlock>(&json!({"type": "video", "uri": "x"}));
        assert_eq!(
            error.to_string(),
            "unknown `type` value `video` for `ContentBlock`, expected one of `text`, `image`, \
             `audio`, `resource_link`, `resource` at `/type` (line 1, column 15)"
        );
        let error = refused::<ContentBlock>(&json!({"text": "no tag"}));
        assert_eq!(error.pointer, "/type");
        assert_eq!(
            error.message,
            "missing tag `type` for `ContentBlock`, expected one of `text`, `image`, `audio`, \
             `resource_link`, `resource`"
        );
        let error = refused::<ContentBlock>(&json!({"type": "image", "data": "AA=="}));
        assert_eq!(error.message, "missing field `mimeType`");
    }

    #[test]
    fn tools_list_request_with_cursor_and_without_params() {
        let request = ListToolsRequest::new(RequestId::Integer(2))
            .params(PaginatedRequestParams::new().cursor("page-2"));
        let wire = json!({
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/list",
            "params": {"cursor": "page-2"}
        });
        both_ways(&request, &wire);
        both_ways(&ClientRequest::ToolsList(request), &wire);
        // `params` is optional: absent stays absent.
        let first = ListToolsRequest::new(RequestId::Integer(1));
        both_ways(
            &first,
            &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        );
        assert_eq!(first.params, None);
        let error = refused::<ListToolsRequest>(&json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"cursor": null}
        }));
        assert_eq!(error.pointer, "/params/cursor");
    }

    #[test]
    fn tools_list_result_with_next_cursor() {
        let mut input_schema = ToolInputSchema::new()
            .schema("http://json-schema.org/draft-07/schema#")
            .required(vec!["city".to_owned()]);
        input_schema
            .unknown_members
            .insert("additionalProperties".to_owned(), json!(false));
        let mut tool = Tool::new(input_schema, "get_weather")
            .title("Weather")
            .description("Current weather for a city");
        tool.unknown_members
            .insert("x-vendor".to_owned(), json!({"rank": 2.0}));
        let result = ListToolsResult::new(vec![tool]).next_cursor("page-3");
        let wire = json!({
            "tools": [{
                "name": "get_weather",
                "title": "Weather",
                "description": "Current weather for a city",
                "inputSchema": {
                    "$schema": "http://json-schema.org/draft-07/schema#",
                    "type": "object",
                    "required": ["city"],
                    "additionalProperties": false
                },
                "x-vendor": {"rank": 2.0}
            }],
            "nextCursor": "page-3"
        });
        both_ways(&result, &wire);
        both_ways(&ServerResult::ListToolsResult(result), &wire);
        // The last page has no `nextCursor`.
        let last = ListToolsResult::new(Vec::new());
        both_ways(&last, &json!({"tools": []}));
        // `inputSchema` must say `"type": "object"`.
        let error = refused::<ListToolsResult>(&json!({
            "tools": [{"name": "t", "inputSchema": {"type": "string"}}]
        }));
        assert_eq!(error.pointer, "/tools/0/inputSchema/type");
    }

    #[test]
    fn progress_notification_with_string_and_integer_tokens() {
        let by_string = ProgressNotification::new(
            ProgressNotificationParams::new(
                Number::from(2),
                ProgressToken::String("call-1".to_owned()),
            )
            .total(float(10.0))
            .message("2 of 10"),
        );
        let wire = json!({
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": {"progressToken": "call-1", "progress": 2, "total": 10.0, "message": "2 of 10"}
        });
        both_ways(&by_string, &wire);
        assert_eq!(
            serde_json::to_string(&by_string.params.total).unwrap(),
            "10.0"
        );
        both_ways(
            &ServerNotification::NotificationsProgress(by_string.clone()),
            &wire,
        );
        both_ways(&ClientNotification::NotificationsProgress(by_string), &wire);

        let by_integer = ProgressNotification::new(ProgressNotificationParams::new(
            float(0.5),
            ProgressToken::Integer(7),
        ));
        let wire = json!({
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": {"progressToken": 7, "progress": 0.5}
        });
        both_ways(&by_integer, &wire);
        // `"7"` is another token than `7`.
        let string_seven: ProgressToken = decode::<ProgressToken>(br#""7""#).unwrap().value;
        assert_eq!(string_seven, ProgressToken::String("7".to_owned()));
        assert_ne!(string_seven, by_integer.params.progress_token);
        // A float token is neither.
        let error = refused::<ProgressNotification>(&json!({
            "jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": 7.0, "progress": 1}
        }));
        assert_eq!(error.pointer, "/params/progressToken");
        assert_eq!(
            error.message,
            "a number that matches no variant of `ProgressToken`"
        );
    }

    #[test]
    fn elicitation_request_form_mode() {
        let mut properties = std::collections::BTreeMap::new();
        properties.insert(
            "name".to_owned(),
            PrimitiveSchemaDefinition::StringSchema(
                StringSchema::new().title("Your name").min_length(1),
            ),
        );
        let requested = ElicitRequestFormParamsRequestedSchema::new(properties)
            .required(vec!["name".to_owned()]);
        let explicit = ElicitRequest::new(
            RequestId::Integer(5),
            ElicitRequestParams::Form(
                ElicitRequestFormParams::new("Who are you?", requested.clone()).mode(true),
            ),
        );
        let wire = json!({
            "jsonrpc": "2.0",
            "id": 5,
            "method": "elicitation/create",
            "params": {
                "mode": "form",
                "message": "Who are you?",
                "requestedSchema": {
                    "type": "object",
                    "properties": {"name": {"type": "string", "title": "Your name", "minLength": 1}},
                    "required": ["name"]
                }
            }
        });
        both_ways(&explicit, &wire);
        both_ways(&ServerRequest::ElicitationCreate(explicit), &wire);
        // `mode` is optional for a form (absent is a form) and stays absent.
        let implicit = ElicitRequest::new(
            RequestId::Integer(6),
            ElicitRequestParams::Form(ElicitRequestFormParams::new("Who are you?", requested)),
        );
        let mut wire = wire;
        wire["id"] = json!(6);
        wire["params"].as_object_mut().unwrap().remove("mode");
        both_ways(&implicit, &wire);
    }

    #[test]
    fn elicitation_request_url_mode() {
        let request = ElicitRequest::new(
            RequestId::String("el-1".to_owned()),
            ElicitRequestParams::Url(ElicitRequestURLParams::new(
                "auth-42",
                "Sign in to continue",
                "https://example.com/login?state=42",
            )),
        );
        let wire = json!({
            "jsonrpc": "2.0",
            "id": "el-1",
            "method": "elicitation/create",
            "params": {
                "mode": "url",
                "elicitationId": "auth-42",
                "message": "Sign in to continue",
                "url": "https://example.com/login?state=42"
            }
        });
        both_ways(&request, &wire);
        both_ways(&ServerRequest::ElicitationCreate(request), &wire);
        // An unknown mode is refused at the tag, naming the modes (the form branch takes an
        // absent `mode`, but a present one only as `"form"`).
        let error = refused::<ElicitRequest>(&json!({
            "jsonrpc": "2.0", "id": 1, "method": "elicitation/create",
            "params": {"mode": "voice", "message": "hi"}
        }));
        assert_eq!(error.pointer, "/params/mode");
        assert_eq!(
            error.message,
            "unknown `mode` value `voice` for `ElicitRequestParams`, expected one of `url`, `form`"
        );
        // Also when `mode` comes after the other members (the object is buffered).
        let error = refused::<ElicitRequest>(&json!({
            "jsonrpc": "2.0", "id": 1, "method": "elicitation/create",
            "params": {"message": "hi", "mode": "voice"}
        }));
        assert_eq!(error.pointer, "/params/mode");
        assert!(error.message.starts_with("unknown `mode` value `voice`"));
    }
}

mod conversions {
    use super::*;
    use toolcall_contracts::mcp::v2025_11_25::{
        CallToolResult, ContentBlock, ProgressToken, RequestId, TextContent,
    };

    /// Unions take their variants' payloads through `From`: ids and tokens keep string vs
    /// integer, a content block is its content type's variant.
    #[test]
    fn unions_are_built_from_their_payloads() {
        both_ways(&RequestId::from(7), &json!(7));
        both_ways(&RequestId::from("7"), &json!("7"));
        assert_eq!(
            RequestId::from("7".to_owned()),
            RequestId::String("7".to_owned())
        );
        both_ways(&ProgressToken::from(-1), &json!(-1));
        both_ways(&ProgressToken::from("p"), &json!("p"));
        let result = CallToolResult::new(vec![ContentBlock::from(TextContent::new("ok"))]);
        both_ways(
            &result,
            &json!({"content": [{"type": "text", "text": "ok"}]}),
        );
    }
}

mod v2026_07_28 {
    use super::*;
    use std::collections::BTreeMap;
    use toolcall_contracts::mcp::v2026_07_28::{
        BlobResourceContents, CallToolRequest, CallToolRequestParams, CallToolResult,
        CallToolResultResponse, CallToolResultResponseResult, ClientCapabilities,
        ClientNotification, ClientRequest, ContentBlock, ElicitRequest, ElicitRequestFormParams,
        ElicitRequestFormParamsRequestedSchema, ElicitRequestParams, ElicitRequestURLParams,
        EmbeddedResource, EmbeddedResourceResource, ImageContent, Implementation, InputRequest,
        InputRequests, InputRequiredResult, ListToolsRequest, ListToolsResult,
        ListToolsResultCacheScope, ListToolsResultResponse, NotificationMetaObject,
        PaginatedRequestParams, PrimitiveSchemaDefinition, ProgressNotification,
        ProgressNotificationParams, ProgressToken, RequestId, RequestMetaObject, ResourceLink,
        ResultMetaObject, ServerNotification, StringSchema, TextContent, TextResourceContents,
        Tool, ToolInputSchema,
    };
    use toolcall_contracts::MaybeUndefined;

    /// The `_meta` every 2026-07-28 request carries, and its JSON.
    fn request_meta() -> (RequestMetaObject, Value) {
        let meta = RequestMetaObject::new(ClientCapabilities::new(), "2026-07-28")
            .io_modelcontextprotocol_client_info(Implementation::new("ExampleClient", "1.0.0"));
        let wire = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "ExampleClient", "version": "1.0.0"},
            "io.modelcontextprotocol/clientCapabilities": {}
        });
        (meta, wire)
    }

    #[test]
    fn tools_call_request_with_request_meta_and_progress_token() {
        let (meta, mut meta_wire) = request_meta();
        let mut meta = meta.progress_token(ProgressToken::Integer(42));
        meta.unknown_members
            .insert("com.example/trace".to_owned(), json!([1, 1.0]));
        meta_wire["progressToken"] = json!(42);
        meta_wire["com.example/trace"] = json!([1, 1.0]);
        let request = CallToolRequest::new(
            RequestId::String("call-tool-example".to_owned()),
            CallToolRequestParams::new(meta, "get_weather")
                .arguments(object(json!({"location": "New York", "days": 2.0}))),
        );
        let wire = json!({
            "jsonrpc": "2.0",
            "id": "call-tool-example",
            "method": "tools/call",
            "params": {
                "_meta": meta_wire,
                "name": "get_weather",
                "arguments": {"location": "New York", "days": 2.0}
            }
        });
        both_ways(&request, &wire);
        both_ways(&ClientRequest::ToolsCall(request), &wire);
        // 2026-07-28 requires the request `_meta` (protocol version and client capabilities).
        let error = refused::<CallToolRequest>(&json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo"}
        }));
        assert_eq!(error.pointer, "/params");
        assert_eq!(error.message, "missing field `_meta`");
        let error = refused::<CallToolRequest>(&json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "echo", "_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}
        }));
        assert_eq!(error.pointer, "/params/_meta");
        assert_eq!(
            error.message,
            "missing field `io.modelcontextprotocol/protocolVersion`"
        );
    }

    #[test]
    fn tools_call_result_with_every_content_kind() {
        let blocks = vec![
            ContentBlock::Text(TextContent::new("72°F, partly cloudy")),
            ContentBlock::Image(ImageContent::new("R0lGODlh", "image/gif")),
            ContentBlock::ResourceLink(
                ResourceLink::new("forecast", "https://example.com/forecast").title("Forecast"),
            ),
            ContentBlock::Resource(EmbeddedResource::new(
                EmbeddedResourceResource::TextResourceContents(TextResourceContents::new(
                    "# Weather",
                    "file:///weather.md",
                )),
            )),
            ContentBlock::Resource(EmbeddedResource::new(
                EmbeddedResourceResource::BlobResourceContents(
                    BlobResourceContents::new("AAEC", "file:///radar.bin")
                        .mime_type("application/octet-stream"),
                ),
            )),
        ];
        let result = CallToolResult::new(blocks, "complete")
            .structured_content(json!({"temperature": 72, "ratio": 0.25}))
            .is_error(false)
            .meta(
                ResultMetaObject::new()
                    .io_modelcontextprotocol_server_info(Implementation::new("weather", "2.0.0")),
            );
        let wire = json!({
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "weather", "version": "2.0.0"}},
            "resultType": "complete",
            "content": [
                {"type": "text", "text": "72°F, partly cloudy"},
                {"type": "image", "data": "R0lGODlh", "mimeType": "image/gif"},
                {
                    "type": "resource_link",
                    "name": "forecast",
                    "title": "Forecast",
                    "uri": "https://example.com/forecast"
                },
                {"type": "resource", "resource": {"uri": "file:///weather.md", "text": "# Weather"}},
                {
                    "type": "resource",
                    "resource": {
                        "uri": "file:///radar.bin",
                        "mimeType": "application/octet-stream",
                        "blob": "AAEC"
                    }
                }
            ],
            "structuredContent": {"temperature": 72, "ratio": 0.25},
            "isError": false
        });
        both_ways(&result, &wire);
        let response = CallToolResultResponse::new(
            RequestId::String("call-tool-example".to_owned()),
            CallToolResultResponseResult::CallToolResult(result),
        );
        both_ways(
            &response,
            &json!({"jsonrpc": "2.0", "id": "call-tool-example", "result": wire}),
        );
    }

    #[test]
    fn tools_call_result_structured_content_absent_null_and_not_an_object() {
        // 2026-07-28 lets `structuredContent` be any JSON value: absent, `null` and a value
        // stay apart.
        let absent = CallToolResult::new(Vec::new(), "complete");
        assert_eq!(absent.structured_content, MaybeUndefined::Undefined);
        both_ways(&absent, &json!({"resultType": "complete", "content": []}));
        let mut null = absent.clone();
        null.structured_content = MaybeUndefined::Null;
        both_ways(
            &null,
            &json!({"resultType": "complete", "content": [], "structuredContent": null}),
        );
        let list = CallToolResult::new(Vec::new(), "complete")
            .structured_content(json!([1, 2.0, "three"]))
            .is_error(true);
        both_ways(
            &list,
            &json!({
                "resultType": "complete",
                "content": [],
                "structuredContent": [1, 2.0, "three"],
                "isError": true
            }),
        );
        assert_ne!(null, absent);
        let error = refused::<CallToolResult>(&json!({"content": []}));
        assert_eq!(error.message, "missing field `resultType`");
    }

    #[test]
    fn tools_list_request_with_cursor() {
        let (meta, meta_wire) = request_meta();
        let request = ListToolsRequest::new(
            RequestId::Integer(2),
            PaginatedRequestParams::new(meta).cursor("page-2"),
        );
        let wire = json!({
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/list",
            "params": {"_meta": meta_wire, "cursor": "page-2"}
        });
        both_ways(&request, &wire);
        both_ways(&ClientRequest::ToolsList(request), &wire);
    }

    #[test]
    fn tools_list_result_with_next_cursor_and_cache_hints() {
        let mut input_schema = ToolInputSchema::new();
        input_schema.unknown_members.insert(
            "properties".to_owned(),
            json!({"location": {"type": "string", "x-mcp-header": "X-Location"}}),
        );
        input_schema
            .unknown_members
            .insert("required".to_owned(), json!(["location"]));
        let tool = Tool::new(input_schema, "get_weather").description("Weather now");
        let result = ListToolsResult::new(
            ListToolsResultCacheScope::Public,
            "complete",
            vec![tool],
            60_000_u64,
        )
        .next_cursor("page-3");
        let wire = json!({
            "resultType": "complete",
            "cacheScope": "public",
            "ttlMs": 60000,
            "tools": [{
                "name": "get_weather",
                "description": "Weather now",
                "inputSchema": {
                    "type": "object",
                    "properties": {"location": {"type": "string", "x-mcp-header": "X-Location"}},
                    "required": ["location"]
                }
            }],
            "nextCursor": "page-3"
        });
        both_ways(&result, &wire);
        both_ways(
            &ListToolsResultResponse::new(RequestId::Integer(2), result),
            &json!({"jsonrpc": "2.0", "id": 2, "result": wire}),
        );
        // `ttlMs` is a non-negative integer: `60000.0` and `-1` are refused.
        let mut float_ttl = wire.clone();
        float_ttl["ttlMs"] = json!(60000.0);
        assert_eq!(refused::<ListToolsResult>(&float_ttl).pointer, "/ttlMs");
        let mut negative = wire.clone();
        negative["ttlMs"] = json!(-1);
        assert_eq!(refused::<ListToolsResult>(&negative).pointer, "/ttlMs");
        let mut scope = wire;
        scope["cacheScope"] = json!("shared");
        let error = refused::<ListToolsResult>(&scope);
        assert_eq!(error.pointer, "/cacheScope");
    }

    #[test]
    fn progress_notification_with_string_and_integer_tokens() {
        let mut meta = NotificationMetaObject::new();
        meta.unknown_members
            .insert("com.example/step".to_owned(), json!("fetch"));
        let by_string = ProgressNotification::new(
            ProgressNotificationParams::new(float(50.0), ProgressToken::String("abc".to_owned()))
                .total(Number::from(100))
                .meta(meta),
        );
        let wire = json!({
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": {
                "_meta": {"com.example/step": "fetch"},
                "progressToken": "abc",
                "progress": 50.0,
                "total": 100
            }
        });
        both_ways(&by_string, &wire);
        // Only servers send progress in 2026-07-28 (its `ClientNotification` is
        // `notifications/cancelled` alone).
        both_ways(&ServerNotification::NotificationsProgress(by_string), &wire);
        assert!(refused::<ClientNotification>(&wire)
            .pointer
            .starts_with("/method"));
        let by_integer = ProgressNotification::new(ProgressNotificationParams::new(
            Number::from(1),
            ProgressToken::Integer(-3),
        ));
        both_ways(
            &by_integer,
            &json!({
                "jsonrpc": "2.0",
                "method": "notifications/progress",
                "params": {"progressToken": -3, "progress": 1}
            }),
        );
        // `total` is absent, not `null`; `null` is refused.
        assert_eq!(by_integer.params.total, None);
        let error = refused::<ProgressNotification>(&json!({
            "jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": 1, "progress": 1, "total": null}
        }));
        assert_eq!(error.pointer, "/params/total");
    }

    /// 2026-07-28 has no server-to-client requests: an elicitation travels in an
    /// `InputRequiredResult` answering the client's request, keyed by the server's name for it.
    #[test]
    fn elicitation_requests_of_each_mode_in_an_input_required_result() {
        let mut properties = BTreeMap::new();
        properties.insert(
            "name".to_owned(),
            PrimitiveSchemaDefinition::StringSchema(StringSchema::new()),
        );
        let form = ElicitRequest::new(ElicitRequestParams::Form(ElicitRequestFormParams::new(
            "Please provide your GitHub username",
            ElicitRequestFormParamsRequestedSchema::new(properties)
                .required(vec!["name".to_owned()]),
        )));
        let url = ElicitRequest::new(ElicitRequestParams::Url(ElicitRequestURLParams::new(
            "Please provide your API key to continue.",
            "https://example.com/connect?elicitationId=api-key",
        )));
        let mut requests = BTreeMap::new();
        requests.insert(
            "github_login".to_owned(),
            InputRequest::ElicitationCreate(form.clone()),
        );
        requests.insert(
            "api_key".to_owned(),
            InputRequest::ElicitationCreate(url.clone()),
        );
        let result = InputRequiredResult::new("input_required")
            .input_requests(InputRequests(requests))
            .request_state("eyJzdGVwIjoxfQ");
        let form_wire = json!({
            "method": "elicitation/create",
            "params": {
                "message": "Please provide your GitHub username",
                "requestedSchema": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}},
                    "required": ["name"]
                }
            }
        });
        let url_wire = json!({
            "method": "elicitation/create",
            "params": {
                "mode": "url",
                "message": "Please provide your API key to continue.",
                "url": "https://example.com/connect?elicitationId=api-key"
            }
        });
        both_ways(&form, &form_wire);
        both_ways(&url, &url_wire);
        let wire = json!({
            "resultType": "input_required",
            "inputRequests": {"github_login": form_wire, "api_key": url_wire},
            "requestState": "eyJzdGVwIjoxfQ"
        });
        both_ways(&result, &wire);
        // The response to `tools/call` picks `InputRequiredResult` by its shape.
        both_ways(
            &CallToolResultResponse::new(
                RequestId::Integer(9),
                CallToolResultResponseResult::InputRequiredResult(result),
            ),
            &json!({"jsonrpc": "2.0", "id": 9, "result": wire}),
        );
        // An explicit `"mode": "form"` is kept.
        let explicit = match form.params {
            ElicitRequestParams::Form(params) => {
                ElicitRequest::new(ElicitRequestParams::Form(params.mode(true)))
            }
            other => panic!("not a form: {other:?}"),
        };
        let mut explicit_wire = form_wire;
        explicit_wire["params"]["mode"] = json!("form");
        both_ways(&explicit, &explicit_wire);
        // A URL elicitation needs its `mode`.
        let mut no_mode = url_wire;
        no_mode["params"].as_object_mut().unwrap().remove("mode");
        let error = refused::<ElicitRequest>(&no_mode);
        assert_eq!(error.pointer, "/params");
        assert_eq!(error.message, "missing field `requestedSchema`");
    }
}
