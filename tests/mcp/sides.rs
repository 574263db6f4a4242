//! `ClientMessage` and `ServerMessage` (`toolcall_contracts::mcp::side`): whole messages decoded
//! by the side that sent them.
//!
//! - recorded traffic of every version (the reference server, FastMCP, the Python SDK, the
//!   hand-written transcripts, the 2025-03-26 batches): every message decodes as its sender's
//!   message, of the kind its members say; it encodes back to the same JSON; a response's result
//!   is what `decode_for` gives for its request's method, with the same report; a request or
//!   notification is what the version's own type gives for the message;
//! - exact JSON: absent and `null` members, unknown members, numbers, string and integer ids;
//! - errors: the pointer into the whole message and the line and column there, for a result,
//!   a request of a version without the envelope, the envelope itself; limits.

use std::collections::BTreeMap;

use serde_json::value::RawValue;
use serde_json::Value;
use toolcall_contracts::{decode, encode};

/// The messages of a transcript file: `(from the client, message text)`. Bare lines (no
/// `from`) are the 2025-03-26 batches file, whose senders are listed here.
fn messages(path: &str) -> Vec<(bool, String)> {
    let text = std::fs::read_to_string(toolcall_test_support::fixture(&format!(
        "tests/fixtures/{path}"
    )))
    .unwrap();
    // `mcp_2025-03-26_batches.ndjson`: initialize, its result, initialized, a batch of calls,
    // their results, a batch with an invalid call, a batch of a server ping and a result.
    let bare_senders = [true, false, true, true, false, true, false];
    text.lines()
        .enumerate()
        .map(|(index, line)| {
            if line.starts_with('{') && line.contains(r#""from":"#) {
                let line: BTreeMap<String, Box<RawValue>> = serde_json::from_str(line).unwrap();
                (
                    line["from"].get() == r#""client""#,
                    line["message"].get().to_owned(),
                )
            } else {
                (bare_senders[index], line.to_owned())
            }
        })
        .collect()
}

/// The ids of the requests one message holds (a batch: each item's), with their methods.
fn requests_in(message: &Value) -> Vec<(String, String)> {
    match message {
        Value::Array(items) => items.iter().flat_map(requests_in).collect(),
        Value::Object(members) => match (members.get("id"), members.get("method")) {
            (Some(id), Some(Value::String(method))) => vec![(id.to_string(), method.clone())],
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// What a message is by JSON-RPC's rule, read here on its own.
fn kind_of(message: &Value) -> &'static str {
    let has = |name| message.get(name).is_some();
    if has("method") {
        if has("id") {
            "Request"
        } else {
            "Notification"
        }
    } else if has("result") {
        "Response"
    } else {
        "Error"
    }
}

/// Every message of `files`, decoded by its sender's side; counts by kind.
macro_rules! sides {
    ($module:ident, $feature:literal, $files:expr) => {{
        #[cfg(feature = $feature)]
        {
            use toolcall_contracts::mcp::$module::{ClientMessage, ServerMessage, ServerResult};
            let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
            let mut paired_responses = 0;
            // How many times `decode` asked for a method and was given one.
            let methods_given = std::cell::Cell::new(0);
            let mut refused = Vec::new();
            for file in $files {
                // Pending requests by (asked by the client, id as JSON), with their methods.
                let mut pending: BTreeMap<(bool, String), String> = BTreeMap::new();
                for (from_client, text) in messages(file) {
                    let input: Value = serde_json::from_str(&text).unwrap();
                    let answering = !from_client;
                    let method_of = |id: &_| {
                        let id = serde_json::to_string(id).unwrap();
                        let method = pending.get(&(answering, id)).map(String::as_str);
                        methods_given.set(methods_given.get() + usize::from(method.is_some()));
                        method
                    };
                    let (decoded, shown, encoded) = if from_client {
                        match ClientMessage::decode(text.as_bytes(), method_of) {
                            Ok(d) => (Ok(d.report), format!("{:?}", d.value), encode(&d.value)),
                            Err(e) => (Err(e), String::new(), Ok(Vec::new())),
                        }
                    } else {
                        match ServerMessage::decode(text.as_bytes(), method_of) {
                            Ok(d) => {
                                // Decoded by the method of the request it answers.
                                if let (ServerMessage::Response(response), Some(method)) = (
                                    &d.value,
                                    input["id"]
                                        .to_string()
                                        .parse()
                                        .ok()
                                        .and_then(|id: String| pending.get(&(true, id))),
                                ) {
                                    let result = serde_json::to_vec(&input["result"]).unwrap();
                                    let paired = ServerResult::decode_for(method, &result).unwrap();
                                    assert_eq!(response.result, paired.value, "{file}: {method}");
                                    paired_responses += 1;
                                }
                                (Ok(d.report), format!("{:?}", d.value), encode(&d.value))
                            }
                            Err(e) => (Err(e), String::new(), Ok(Vec::new())),
                        }
                    };
                    match decoded {
                        Ok(report) => {
                            assert!(report.is_empty(), "{file}: {text}: {report:?}");
                            let kind = if input.is_array() {
                                "Batch"
                            } else {
                                kind_of(&input)
                            };
                            assert!(shown.starts_with(kind), "{file}: {text}: {shown}");
                            let output: Value = serde_json::from_slice(&encoded.unwrap()).unwrap();
                            assert_eq!(output, input, "{file}");
                            *counts.entry(kind).or_default() += 1;
                        }
                        Err(error) => refused.push(format!("{file}: {error}")),
                    }
                    for (id, method) in requests_in(&input) {
                        pending.insert((from_client, id), method);
                    }
                }
            }
            eprintln!(
                "{}: {counts:?}, {paired_responses} server responses paired, refused {refused:?}",
                stringify!($module)
            );
            counts.insert("paired", paired_responses);
            counts.insert("methods given", methods_given.get());
            Some((counts, refused))
        }
        #[cfg(not(feature = $feature))]
        {
            eprintln!(
                "{}: not built (feature `{}`)",
                stringify!($module),
                $feature
            );
            None::<(BTreeMap<&'static str, usize>, Vec<String>)>
        }
    }};
}

#[test]
fn every_recorded_message_decodes_as_its_senders_message() {
    let runs = [
        sides!(
            v2024_11_05,
            "mcp-2024-11-05",
            ["transcripts/mcp_2024-11-05.ndjson"]
        ),
        sides!(
            v2025_03_26,
            "mcp-2025-03-26",
            [
                "transcripts/mcp_2025-03-26.ndjson",
                "transcripts/mcp_2025-03-26_batches.ndjson"
            ]
        ),
        sides!(
            v2025_06_18,
            "mcp-2025-06-18",
            ["transcripts/mcp_2025-06-18.ndjson"]
        ),
        sides!(
            v2025_11_25,
            "mcp-2025-11-25",
            [
                "mcp/server-everything/transcript.ndjson",
                "mcp/fastmcp/tree.ndjson",
                "transcripts/mcp_2025-11-25.ndjson",
            ]
        ),
        sides!(
            v2026_07_28,
            "mcp-2026-07-28",
            [
                "mcp/python-sdk/transcript.ndjson",
                "transcripts/mcp_2026-07-28.ndjson"
            ]
        ),
    ];
    for (index, run) in runs.iter().enumerate() {
        let Some((counts, refused)) = run else {
            continue;
        };
        // Every kind is there in every version's traffic.
        for kind in ["Request", "Notification", "Response", "Error"] {
            assert!(
                counts.get(kind).copied().unwrap_or(0) > 0,
                "{index}: {counts:?}"
            );
        }
        if index == 1 {
            // The batch with an invalid `tools/call` (`"name": 7`), at its item's pointer, and
            // the one mixing a request with a response (the version has batches of either).
            assert_eq!(counts["Batch"], 2, "{counts:?}");
            assert_eq!(refused.len(), 2, "{refused:?}");
            assert!(refused[0].contains("at `/0/params/name`"), "{refused:?}");
            assert!(
                refused[1].contains(
                    "a batch mixing requests or notifications with responses or errors at `/1`"
                ),
                "{refused:?}"
            );
        } else {
            assert!(refused.is_empty(), "{index}: {refused:?}");
        }
    }
    // The two versions this test binary always builds, on real peers' traffic.
    let counts = &runs[3].as_ref().unwrap().0;
    let recorded: usize = ["Request", "Notification", "Response", "Error"]
        .iter()
        .map(|kind| counts[kind])
        .sum();
    assert!(recorded >= 140, "{counts:?}");
    assert!(counts["paired"] >= 40, "{counts:?}");
    // Every response whose request is in the transcript asked for its method, the client's too.
    assert_eq!(counts["methods given"], counts["Response"], "{counts:?}");
}

#[cfg(feature = "mcp-2025-11-25")]
mod v2025_11_25 {
    use super::*;
    use toolcall_contracts::mcp::v2025_11_25::{
        ClientMessage, ClientRequest, ListToolsResult, RequestId, ServerMessage, ServerResult,
    };

    fn tools_list(_: &RequestId) -> Option<&'static str> {
        Some("tools/list")
    }

    /// A result decoded by its request's method is `decode_for`'s value, and what `decode` of
    /// the version's result union gives when no method is known.
    #[test]
    fn a_response_is_decoded_by_its_request() {
        let text = r#"{"jsonrpc":"2.0","id":"a","result":{"nextCursor":"2.0","tools":[{"inputSchema":{"type":"object"},"name":"t"}]}}"#;
        let paired = ServerMessage::decode(text.as_bytes(), tools_list).unwrap();
        let ServerMessage::Response(response) = &paired.value else {
            panic!("{paired:?}");
        };
        assert_eq!(response.id, RequestId::String("a".into()));
        assert!(matches!(response.result, ServerResult::ListToolsResult(_)));
        let result = &text[text.find(r#"{"nextCursor""#).unwrap()..text.len() - 1];
        assert_eq!(
            response.result,
            ServerResult::decode_for("tools/list", result.as_bytes())
                .unwrap()
                .value
        );
        assert_eq!(encode(&paired.value).unwrap(), text.as_bytes());
        let union = ServerMessage::decode(text.as_bytes(), |_| None).unwrap();
        let ServerMessage::Response(response) = &union.value else {
            panic!("{union:?}");
        };
        assert_eq!(
            response.result,
            decode::<ServerResult>(result.as_bytes()).unwrap().value
        );
    }

    /// Absent is not `null`, members JSON-RPC does not define are kept, numbers keep their form.
    #[test]
    fn exact_json_both_ways() {
        for text in [
            r#"{"jsonrpc":"2.0","id":7,"result":{"tools":[]},"extra":null}"#,
            r#"{"jsonrpc":"2.0","id":7,"result":{"_meta":{"n":2.0,"m":2,"big":12345678901234567890},"tools":[]}}"#,
            r#"{"jsonrpc":"2.0","id":-1,"result":{"tools":[],"nextCursor":null}}"#,
        ] {
            let decoded = ServerMessage::decode(text.as_bytes(), tools_list);
            match decoded {
                Ok(decoded) => assert_eq!(
                    String::from_utf8(encode(&decoded.value).unwrap()).unwrap(),
                    text
                ),
                // `nextCursor` is a string when present: `null` is not absent.
                Err(error) => {
                    assert!(text.contains("null}}"), "{text}: {error}");
                    assert_eq!(error.pointer, "/result/nextCursor", "{error}");
                }
            }
        }
        let request = r#"{"id":"7","jsonrpc":"2.0","method":"tools/list","params":{"cursor":"c"},"x":[1.50]}"#;
        let decoded = ClientMessage::decode(request.as_bytes(), |_| None).unwrap();
        let ClientMessage::Request(ClientRequest::ToolsList(list)) = &decoded.value else {
            panic!("{decoded:?}");
        };
        assert_eq!(list.id, RequestId::String("7".into()));
        assert_eq!(
            String::from_utf8(encode(&decoded.value).unwrap()).unwrap(),
            request.replace("1.50", "1.5")
        );
    }

    /// An error inside the result is at its pointer in the whole message, and at its line and
    /// column there (the result's own position shifted by where the result starts).
    #[test]
    fn errors_name_the_pointer_and_position_in_the_message() {
        // A tool without its `inputSchema` would still be a result (the plain `Result` takes
        // any object); `_meta` that is no object is refused by every branch.
        let result = r#"{"tools":[],"_meta":5}"#;
        let alone = ServerResult::decode_for("tools/list", result.as_bytes()).unwrap_err();
        assert!(alone.line == 1 && alone.column > 0, "{alone}");
        for (text, line) in [
            (
                format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#),
                1,
            ),
            (
                format!("{{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {result}\n}}"),
                4,
            ),
        ] {
            let error = ServerMessage::decode(text.as_bytes(), tools_list).unwrap_err();
            assert_eq!(
                error.pointer,
                format!("/result{}", alone.pointer),
                "{error}"
            );
            assert_eq!(error.message, alone.message);
            // The result's first byte, and where its line starts.
            let start = text.find(result).unwrap();
            let line_start = text[..start].rfind('\n').map_or(0, |newline| newline + 1);
            assert_eq!(
                (error.line, error.column),
                (line, alone.column + start - line_start),
                "{text}"
            );
        }
    }

    #[test]
    fn what_is_no_message_of_the_side_is_refused_by_name() {
        for (text, pointer, words) in [
            (
                r#"{"jsonrpc":"2.0","id":1}"#,
                "",
                "none of `method`, `result` and `error`",
            ),
            ("[]", "", "this version has none"),
            ("5", "", "a number that is not a JSON-RPC message"),
            (r#"{"id":1,"result":{}}"#, "", "missing field `jsonrpc`"),
            (
                r#"{"jsonrpc":"1.0","id":1,"result":{}}"#,
                "/jsonrpc",
                "not \"2.0\"",
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"id":2,"result":{}}"#,
                "",
                "duplicate field `id`",
            ),
            (r#"{"jsonrpc":"2.0","id":true,"result":{}}"#, "/id", ""),
            // The client's request sent by the server.
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
                "/method",
                "tools/list",
            ),
        ] {
            let error = ServerMessage::decode(text.as_bytes(), |_| None).unwrap_err();
            assert_eq!(error.pointer, pointer, "{text}: {error}");
            assert!(error.message.contains(words), "{text}: {error}");
        }
        // Not JSON: serde_json's syntax error, whatever member would have failed first.
        for text in [
            r#"{"id":0,"jsonrpc":n2.0","result":{}}"#,
            "{\"id \":11,\"jsonrpc\":\"2.0\",\"result\":{\"con\ttent\":1}}",
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":1[]}}"#,
        ] {
            let error = ServerMessage::decode(text.as_bytes(), |_| None).unwrap_err();
            let syntax = serde_json::from_str::<serde::de::IgnoredAny>(text).unwrap_err();
            assert_eq!(
                (error.line, error.column),
                (syntax.line(), syntax.column()),
                "{text}: {error}"
            );
        }
        // `jsonrpc` written with an escape is `"2.0"`.
        let escaped = r#"{"jsonrpc":"\u0032.0","id":1,"result":{}}"#;
        assert!(ServerMessage::decode(escaped.as_bytes(), |_| None).is_ok());
        // A member JSON-RPC does not define, not JSON: at its pointer and its own position.
        let text = "{\"jsonrpc\":\"2.0\",\n \"id\":1,\n \"result\":{},\n \"zz\": [1,\n]}";
        let error = ServerMessage::decode(text.as_bytes(), |_| None).unwrap_err();
        let syntax = serde_json::from_str::<serde::de::IgnoredAny>(text).unwrap_err();
        assert_eq!(
            (error.line, error.column),
            (syntax.line(), syntax.column()),
            "{error}"
        );
        // `result` wins over `error`, as the version's response union decides (the error is a
        // member the result response does not declare).
        let both = r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#;
        let decoded = ServerMessage::decode(both.as_bytes(), |_| None).unwrap();
        assert!(matches!(decoded.value, ServerMessage::Response(_)));
    }

    /// The whole message's depth is limited, as a decode of the whole message would limit it
    /// (its result is decoded from depth 0).
    #[test]
    fn the_whole_message_is_held_to_the_limits() {
        let nested = |levels: usize| {
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[],"_meta":{{"x":{}0{}}}}}}}"#,
                "[".repeat(levels),
                "]".repeat(levels)
            )
        };
        // 3 levels of objects around the arrays.
        let within = nested(124);
        ServerMessage::decode(within.as_bytes(), tools_list).unwrap();
        let over = nested(125);
        let error = ServerMessage::decode(over.as_bytes(), tools_list).unwrap_err();
        assert!(error.limit.is_some(), "{error}");
        assert!(decode::<ListToolsResult>(&over.as_bytes()[33..over.len() - 1]).is_ok());
        // A limit deeper than serde_json's 127 levels grants no more (as for `decode`).
        let deep = toolcall_contracts::policy::DecodeLimits::new(1 << 20, 200);
        let error = ServerMessage::decode_with(over.as_bytes(), &deep, tools_list).unwrap_err();
        assert!(error.limit.is_some(), "{error}");
        let limits = toolcall_contracts::policy::DecodeLimits::new(20, 127);
        let error = ServerMessage::decode_with(within.as_bytes(), &limits, tools_list).unwrap_err();
        assert!(error.limit.is_some(), "{error}");
    }
}

#[cfg(feature = "mcp-2024-11-05")]
mod v2024_11_05 {
    use super::*;
    use toolcall_contracts::mcp::side::Request;
    use toolcall_contracts::mcp::v2024_11_05::{
        CallToolRequest, CallToolRequestParams, ClientMessage, ClientNotification, ClientRequest,
        RequestId,
    };

    /// Before 2025-11-25 a request type has no `id` or `jsonrpc`: the message holds the id
    /// beside it and writes the envelope back; the request's own members are the request's.
    #[test]
    fn a_request_without_the_envelope() {
        let text =
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo"},"x":1}"#;
        let decoded = ClientMessage::decode(text.as_bytes(), |_| None).unwrap();
        let ClientMessage::Request(request) = &decoded.value else {
            panic!("{decoded:?}");
        };
        assert_eq!(request.id, RequestId::Integer(3));
        let ClientRequest::ToolsCall(call) = &request.request else {
            panic!("{request:?}");
        };
        assert_eq!(call.params.name, "echo");
        assert_eq!(
            call.unknown_members.keys().collect::<Vec<_>>(),
            ["x"],
            "the envelope is not the request's"
        );
        assert_eq!(
            String::from_utf8(encode(&decoded.value).unwrap()).unwrap(),
            text
        );
        // Built in code.
        let built = ClientMessage::Request(Request::new(
            RequestId::String("r".into()),
            ClientRequest::ToolsCall(CallToolRequest::new(CallToolRequestParams::new("echo"))),
        ));
        assert_eq!(
            String::from_utf8(encode(&built).unwrap()).unwrap(),
            r#"{"jsonrpc":"2.0","id":"r","method":"tools/call","params":{"name":"echo"}}"#
        );
        let notification = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        let decoded = ClientMessage::decode(notification.as_bytes(), |_| None).unwrap();
        assert!(matches!(
            decoded.value,
            ClientMessage::Notification(ClientNotification::NotificationsInitialized(_))
        ));
        assert_eq!(encode(&decoded.value).unwrap(), notification.as_bytes());
    }

    /// An error in the request is where the whole message has it: the envelope's members are
    /// blanked out, not cut, so lines and columns stay.
    #[test]
    fn a_request_error_is_at_its_place_in_the_message() {
        let text = "{\"jsonrpc\":\"2.0\",\n \"id\":3,\"method\":\"tools/call\",\n \"params\":{\"name\":5}}";
        let error = ClientMessage::decode(text.as_bytes(), |_| None).unwrap_err();
        // The version's request union on the same text (the envelope then counts as members
        // it does not declare) fails at the same place.
        let alone = decode::<ClientRequest>(text.as_bytes()).unwrap_err();
        assert_eq!(
            (&error.pointer, &error.message, error.line),
            (&alone.pointer, &alone.message, alone.line)
        );
        assert_eq!(error.pointer, "/params/name");
        // At the `5` (the union's own decode of the whole text, which buffers it, says the
        // end of `params`).
        assert_eq!((error.line, error.column), (3, 19));
        // The version's envelope holds too: `params._meta` is an object there.
        let meta = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":[]}}}"#;
        let error = ClientMessage::decode(meta.as_bytes(), |_| None).unwrap_err();
        assert!(error.pointer.starts_with("/params/_meta"), "{error}");
        let meta = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"_meta":"x"}}"#;
        let error = ClientMessage::decode(meta.as_bytes(), |_| None).unwrap_err();
        assert!(error.pointer.starts_with("/params/_meta"), "{error}");
        for (text, pointer) in [
            (r#"{"id":3,"method":"ping"}"#, ""),
            (r#"{"jsonrpc":2,"id":3,"method":"ping"}"#, "/jsonrpc"),
            (r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, "/id"),
            (r#"{"method":"notifications/initialized"}"#, ""),
        ] {
            let error = ClientMessage::decode(text.as_bytes(), |_| None).unwrap_err();
            assert_eq!(error.pointer, pointer, "{text}: {error}");
        }
    }
}
