//! The relay (`toolcall convert --to acp`) on small transcripts: pairing by id and direction,
//! bare lines whose direction is open, ids, reused ids, MCP 2026-07-28 `input_required`,
//! numbers, and messages that answer nothing. Each case asserts the exact updates and the exact
//! notes.

use serde_json::{json, Value};
use toolcall_contracts::acp::SessionId;
use toolcall_hops::acp_updates::{session_update_message, ToolKinds};
use toolcall_hops::relay::Relay;

/// The `update` of each notification, and each note as `LINE: NOTE`.
fn relay_text(lines: &[&str]) -> (Vec<Value>, Vec<String>) {
    let mut relay = Relay::new(SessionId::from("s"), ToolKinds::new());
    let mut updates = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        for notification in relay.push(index + 1, line.as_bytes()) {
            let message = serde_json::to_value(session_update_message(&notification)).unwrap();
            updates.push(message["params"]["update"].clone());
        }
    }
    let notes = relay
        .finish()
        .iter()
        .map(|note| format!("{}: {}", note.line, note.change))
        .collect();
    (updates, notes)
}

fn relay(lines: &[Value]) -> (Vec<Value>, Vec<String>) {
    let texts: Vec<String> = lines.iter().map(Value::to_string).collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    relay_text(&texts)
}

fn from(side: &str, message: Value) -> Value {
    json!({"from": side, "message": message})
}

fn call(id: Value, name: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": {}}})
}

fn text_result(id: Value, text: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}})
}

fn announced(id: &str, name: &str) -> Value {
    json!({"sessionUpdate": "tool_call", "toolCallId": id, "title": name, "name": name,
           "kind": "other", "status": "in_progress", "rawInput": {}})
}

fn completed(id: &str, text: &str) -> Value {
    json!({"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed",
           "content": [{"type": "content", "content": {"type": "text", "text": text}}],
           "rawOutput": {"content": [{"type": "text", "text": text}]}})
}

#[test]
fn a_cancellation_cancels_a_request_of_its_own_sender() {
    // The server cancels its own `sampling/createMessage` 3; the client's `tools/call` 3 goes on.
    let (updates, notes) = relay(&[
        from("client", call(json!(3), "trigger-sampling-request")),
        from(
            "server",
            json!({"jsonrpc": "2.0", "id": 3, "method": "sampling/createMessage",
                   "params": {"messages": [], "maxTokens": 5}}),
        ),
        from(
            "server",
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                   "params": {"requestId": 3, "reason": "server gave up on sampling"}}),
        ),
        from("server", text_result(json!(3), "done without sampling")),
    ]);
    assert_eq!(
        updates,
        [
            announced("mcp-1-3", "trigger-sampling-request"),
            completed("mcp-1-3", "done without sampling")
        ]
    );
    assert_eq!(notes, Vec::<String>::new());
    // The client's cancellation of its request 3 ends the call.
    let (updates, notes) = relay(&[
        from("client", call(json!(3), "x")),
        from(
            "client",
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}}),
        ),
        from("server", text_result(json!(3), "late")),
    ]);
    assert_eq!(
        updates[1],
        json!({"sessionUpdate": "tool_call_update", "toolCallId": "mcp-1-3", "status": "failed",
               "content": [{"type": "content", "content": {"type": "text", "text": "cancelled"}}]})
    );
    assert_eq!(
        notes,
        ["3: dropped: a response for `mcp-1-3` after the call ended: not relayed (ACP updates end with `completed` or `failed`)"]
    );
}

#[test]
fn progress_reports_on_a_request_of_the_other_side() {
    // The client and the server both use token `t`; the client's progress is for the server's
    // sampling request, not for the tool call.
    let (updates, notes) = relay(&[
        from(
            "client",
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                   "params": {"name": "x", "arguments": {}, "_meta": {"progressToken": "t"}}}),
        ),
        from(
            "server",
            json!({"jsonrpc": "2.0", "id": 0, "method": "sampling/createMessage",
                   "params": {"messages": [], "maxTokens": 5, "_meta": {"progressToken": "t"}}}),
        ),
        from(
            "client",
            json!({"jsonrpc": "2.0", "method": "notifications/progress",
                   "params": {"progressToken": "t", "progress": 1, "message": "client-side sampling progress"}}),
        ),
        from(
            "server",
            json!({"jsonrpc": "2.0", "method": "notifications/progress",
                   "params": {"progressToken": "t", "progress": 2}}),
        ),
        from(
            "client",
            json!({"jsonrpc": "2.0", "id": 0, "result": {"role": "assistant",
                   "content": {"type": "text", "text": "x"}, "model": "m"}}),
        ),
        from("server", text_result(json!(3), "ok")),
    ]);
    assert_eq!(
        updates,
        [
            announced("mcp-1-3", "x"),
            json!({"sessionUpdate": "tool_call_update", "toolCallId": "mcp-1-3", "status": "in_progress",
                   "content": [{"type": "content", "content": {"type": "text", "text": "progress 2"}}]}),
            completed("mcp-1-3", "ok"),
        ]
    );
    assert_eq!(notes, Vec::<String>::new());
}

#[test]
fn bare_lines_leave_a_response_open_when_both_sides_have_the_id_pending() {
    // `ping` is a request either side sends: its answer `{}` may be the client's to the
    // server's ping as well as the server's to the tool call.
    let (updates, notes) = relay(&[
        call(json!(1), "slow"),
        json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
        json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
        text_result(json!(1), "real result"),
    ]);
    assert_eq!(updates, [announced("mcp-1-1", "slow")]);
    let open = "a response with id `1` of unknown direction: requests `tools/call`, `ping` with that id are pending in more than one direction, one of them the client's (`mcp-1-1`): not relayed (wrap the lines with `from`)";
    assert_eq!(
        notes,
        [
            "1: dropped: `mcp-1-1` never ended in the transcript: its ACP tool call stays in progress".to_owned(),
            format!("3: dropped: {open}"),
            format!("4: dropped: {open}"),
        ]
    );
    // Every request both sides send makes it so; the server-only ones too.
    for method in [
        "tasks/get",
        "tasks/list",
        "tasks/cancel",
        "sampling/createMessage",
        "roots/list",
        "elicitation/create",
    ] {
        let (updates, notes) = relay(&[
            call(json!(1), "slow"),
            json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": {}}),
            text_result(json!(1), "which?"),
        ]);
        assert_eq!(updates.len(), 1, "{method}");
        assert!(
            notes[1].contains(&format!("requests `tools/call`, `{method}` with that id")),
            "{method}: {notes:?}"
        );
    }
    // A server request with another id leaves the pairing exact.
    let (updates, notes) = relay(&[
        call(json!(1), "slow"),
        json!({"jsonrpc": "2.0", "id": 7, "method": "ping"}),
        json!({"jsonrpc": "2.0", "id": 7, "result": {}}),
        text_result(json!(1), "done"),
    ]);
    assert_eq!(updates[1], completed("mcp-1-1", "done"));
    assert!(notes.is_empty());
}

#[test]
fn bare_progress_and_cancellations_with_both_sides_pending_are_not_relayed() {
    let (updates, notes) = relay(&[
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
               "params": {"name": "x", "arguments": {}, "_meta": {"progressToken": "t"}}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "sampling/createMessage",
               "params": {"messages": [], "maxTokens": 5, "_meta": {"progressToken": "t"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/progress",
               "params": {"progressToken": "t", "progress": 1}}),
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}}),
    ]);
    assert_eq!(updates, [announced("mcp-1-3", "x")]);
    assert_eq!(
        notes[1..],
        [
            "3: dropped `/params/progressToken`: bare progress for token `\"t\"`, which both the client's `tools/call` (`mcp-1-3`) and a pending `sampling/createMessage` carry: not relayed (wrap the lines with `from`)",
            "4: dropped `/params/requestId`: a bare cancellation of request `3`, which may be the client's `tools/call` (`mcp-1-3`) or a pending `sampling/createMessage`: not relayed (wrap the lines with `from`)",
        ]
    );
}

#[test]
fn distinct_request_ids_give_distinct_tool_call_ids() {
    let lines = [
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":"1","method":"tools/call","params":{"name":"b","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":"null","method":"tools/call","params":{"name":"c","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":"a\"b","method":"tools/call","params":{"name":"d","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"tools/call","params":{"name":"e","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":18446744073709551617,"method":"tools/call","params":{"name":"f","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"g","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"h","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":[1],"method":"tools/call","params":{"name":"i","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":{"n":1},"method":"tools/call","params":{"name":"j","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":18446744073709551617,"result":{"content":[{"type":"text","text":"F"}]}}"#,
        r#"{"jsonrpc":"2.0","id":"1","result":{"content":[{"type":"text","text":"B"}]}}"#,
    ];
    let (updates, notes) = relay_text(&lines);
    let ids: Vec<&str> = updates
        .iter()
        .map(|update| update["toolCallId"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "mcp-1-1",
            "mcp-1-\"1\"",
            "mcp-1-\"null\"",
            "mcp-1-\"a\"b\"",
            "mcp-1-18446744073709551616",
            "mcp-1-18446744073709551617",
            "mcp-1-18446744073709551617",
            "mcp-1-\"1\"",
        ]
    );
    assert_eq!(updates[6], completed("mcp-1-18446744073709551617", "F"));
    assert_eq!(updates[7], completed("mcp-1-\"1\"", "B"));
    let refused: Vec<&String> = notes.iter().filter(|note| note.contains("`/id`")).collect();
    assert_eq!(
        refused,
        [
            "7: dropped `/id`: not an MCP request id (a string or an integer): found null; the `tools/call` is not relayed",
            "8: dropped `/id`: not an MCP request id (a string or an integer): `1.5` is a number but not an integer; the `tools/call` is not relayed",
            "9: dropped `/id`: not an MCP request id (a string or an integer): found array; the `tools/call` is not relayed",
            "10: dropped `/id`: not an MCP request id (a string or an integer): found object; the `tools/call` is not relayed",
        ]
    );
}

#[test]
fn a_reused_request_id_keeps_the_first_call_and_is_noted() {
    let (updates, notes) = relay(&[
        call(json!(5), "a"),
        call(json!(5), "b"),
        text_result(json!(5), "one"),
        call(json!(5), "c"),
    ]);
    assert_eq!(
        updates,
        [announced("mcp-1-5", "a"), completed("mcp-1-5", "one")]
    );
    let reused = "dropped `/id`: request id `5` is the client's `tools/call` of line 1 (`mcp-1-5`) in this MCP session, which MCP forbids reusing: this call is not relayed; responses with the id go to `mcp-1-5`";
    assert_eq!(notes, [format!("2: {reused}"), format!("4: {reused}")]);
    // A new MCP session may use the id again.
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}});
    let (updates, _) = relay(&[call(json!(5), "a"), initialize, call(json!(5), "b")]);
    assert_eq!(updates[1]["toolCallId"], "mcp-2-5");
}

#[test]
fn input_required_keeps_the_call_in_progress_and_the_retry_continues_it() {
    let meta = json!({"io.modelcontextprotocol/clientCapabilities": {}});
    let (updates, notes) = relay(&[
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "book", "arguments": {"city": "Paris"}, "_meta": meta}}),
        json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required",
               "inputRequests": {"confirm": {"method": "elicitation/create",
                                 "params": {"mode": "form", "message": "Confirm?",
                                            "requestedSchema": {"type": "object"}}}},
               "requestState": "abc"}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": "book", "arguments": {"city": "Paris"}, "_meta": meta,
                          "inputResponses": {"confirm": {"action": "accept", "content": {"ok": true}}},
                          "requestState": "abc"}}),
        json!({"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete",
               "content": [{"type": "text", "text": "booked"}]}}),
    ]);
    assert_eq!(
        updates,
        [
            json!({"sessionUpdate": "tool_call", "toolCallId": "mcp-1-1", "title": "book", "name": "book",
                   "kind": "other", "status": "in_progress", "rawInput": {"city": "Paris"}}),
            json!({"sessionUpdate": "tool_call_update", "toolCallId": "mcp-1-1", "status": "in_progress",
                   "content": [{"type": "content", "content": {"type": "text", "text": "input required: `confirm`"}}],
                   "rawOutput": {"resultType": "input_required",
                                 "inputRequests": {"confirm": {"method": "elicitation/create",
                                                   "params": {"mode": "form", "message": "Confirm?",
                                                              "requestedSchema": {"type": "object"}}}},
                                 "requestState": "abc"}}),
            json!({"sessionUpdate": "tool_call_update", "toolCallId": "mcp-1-1", "status": "in_progress",
                   "content": [{"type": "content", "content": {"type": "text", "text": "input provided: `confirm`"}}],
                   "rawInput": {"city": "Paris"}}),
            json!({"sessionUpdate": "tool_call_update", "toolCallId": "mcp-1-1", "status": "completed",
                   "content": [{"type": "content", "content": {"type": "text", "text": "booked"}}],
                   "rawOutput": {"resultType": "complete", "content": [{"type": "text", "text": "booked"}]}}),
        ]
    );
    // The request envelope (`io.modelcontextprotocol/clientCapabilities`...) is the protocol's,
    // not the call's: not reported.
    assert_eq!(
        notes,
        [
            "3: dropped `/params/inputResponses`: ACP's tool call has no member for it".to_owned(),
            "3: dropped `/params/requestState`: ACP's tool call has no member for it".to_owned(),
        ]
    );
    // Without `requestState`, the `inputResponses` keys tell the call; two calls waiting for
    // the same keys cannot be told apart, and a retry with no call waiting is a new call.
    let waiting = |id: u64| {
        json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "input_required",
               "inputRequests": {"confirm": {"method": "roots/list"}}}})
    };
    let retry = |id: u64| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": "book", "inputResponses": {"confirm": {"roots": []}}}})
    };
    let (updates, notes) = relay(&[call(json!(1), "book"), waiting(1), retry(2)]);
    assert_eq!(updates[2]["toolCallId"], "mcp-1-1");
    assert_eq!(
        notes,
        [
            "1: dropped: `mcp-1-1` never ended in the transcript: its ACP tool call stays in progress",
            "3: dropped `/params/inputResponses`: ACP's tool call has no member for it",
        ]
    );
    let (updates, notes) = relay(&[
        call(json!(1), "book"),
        call(json!(2), "book"),
        waiting(1),
        waiting(2),
        retry(3),
    ]);
    assert_eq!(updates[4]["toolCallId"], "mcp-1-3");
    assert_eq!(updates[4]["sessionUpdate"], "tool_call");
    assert!(notes.contains(&"5: dropped `/params`: a retry of `book` that may continue any of `mcp-1-1`, `mcp-1-2`: relayed as a new call".to_owned()));
    let (updates, notes) = relay(&[retry(3)]);
    assert_eq!(updates[0]["sessionUpdate"], "tool_call");
    assert_eq!(
        notes[0],
        "1: dropped `/params`: a retry of `book` (`requestState` or `inputResponses`) with no call of it waiting for input in the transcript: relayed as a new call"
    );
}

#[test]
fn numbers_written_otherwise_are_noted_with_both_pointers() {
    let lines = [
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":1.0,"b":1e2,"c":12345678901234567890123,"e":-0}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}],"structuredContent":{"big":98765432109876543210}}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"ping","params":{"n":1e2}}"#,
    ];
    let (updates, notes) = relay_text(&lines);
    assert_eq!(
        updates[0]["rawInput"],
        json!({"a": 1.0, "b": 100.0, "c": 1.2345678901234568e22, "e": -0.0})
    );
    let reason = |text: &str, written: &str| {
        format!("the number `{text}` is written `{written}` (numbers are carried as 64-bit integers or floats)")
    };
    assert_eq!(
        notes,
        [
            format!("1: derived `/params/arguments/b` -> `/params/update/rawInput/b`: {}", reason("1e2", "100.0")),
            format!("1: derived `/params/arguments/c` -> `/params/update/rawInput/c`: {}", reason("12345678901234567890123", "1.2345678901234568e+22")),
            format!("1: derived `/params/arguments/e` -> `/params/update/rawInput/e`: {}", reason("-0", "-0.0")),
            format!("2: derived `/result/structuredContent/big` -> `/params/update/rawOutput/structuredContent/big`: {}", reason("98765432109876543210", "9.876543210987654e+19")),
        ]
    );
}

#[test]
fn the_output_is_the_same_text_in_every_build() {
    // Members in the ACP schema's order, and the transcript's objects in name order, whatever
    // serde_json's `preserve_order` (which `--all-features` test builds may turn on).
    let mut relay = Relay::new(SessionId::from("s"), ToolKinds::new());
    let line = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"z":1,"a":{"y":2,"b":3}}}}"#;
    let notification = relay.push(1, line.as_bytes()).remove(0);
    assert_eq!(
        session_update_message(&notification).to_string(),
        r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"mcp-1-1","title":"x","name":"x","kind":"other","status":"in_progress","rawInput":{"a":{"b":3,"y":2},"z":1}}}}"#
    );
}

#[test]
fn messages_that_answer_or_report_on_nothing_are_noted() {
    let (updates, notes) = relay(&[
        text_result(json!(9), "orphan"),
        json!({"jsonrpc": "2.0", "id": 10, "error": {"code": -1, "message": "x"}}),
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "parse error"}}),
        json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "zz", "progress": 1}}),
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 4}}),
        from("server", call(json!(3), "x")),
        from("client", text_result(json!(3), "forged")),
        json!({"from": "client"}),
        json!([1, 2]),
    ]);
    assert!(updates.is_empty());
    assert_eq!(
        notes,
        [
            "1: dropped: a response with id `9` answers no pending request of the other side in this MCP session: not relayed",
            "2: dropped: a JSON-RPC error with id `10` answers no pending request of the other side in this MCP session: not relayed",
            "3: dropped `/id`: a JSON-RPC error whose `id` is not an MCP request id (found null) answers no request: not relayed",
            "4: dropped `/params/progressToken`: progress for token `\"zz\"`, which no pending request of this MCP session carries: not relayed",
            "5: dropped `/params/requestId`: cancellation of request `4`, which no pending request of its sender in this MCP session has: not relayed",
            "6: dropped: a `tools/call` the server sent: the relay follows the client's calls to the server; not relayed",
            "8: dropped: not a JSON-RPC message: neither `method` nor `id`",
            "9: dropped: not a JSON-RPC message",
        ]
    );
    // The client's answer to the server's `tools/call` pairs with it: no note for line 7.
}

#[test]
fn an_is_error_that_is_not_a_boolean_is_noted() {
    let (updates, notes) = relay(&[
        call(json!(4), "x"),
        json!({"jsonrpc": "2.0", "id": 4, "result": {"content": [{"type": "text", "text": "x"}], "isError": "true"}}),
    ]);
    assert_eq!(updates[1]["status"], "completed");
    assert_eq!(
        notes,
        ["2: dropped `/result/isError`: not a boolean: read as absent, the call `completed` (it stays in `rawOutput`)"]
    );
}

/// The relay does not go through the gateway's `call_to_route` (which refuses `arguments` that
/// are present and not an object): ACP's `rawInput` takes any JSON value, so a `tools/call`
/// with `"arguments": null` or `[1]` is announced with those exact arguments, without a note;
/// the server's answer (its refusal) ends the call.
#[test]
fn non_object_arguments_are_relayed_as_the_raw_input_they_are() {
    for arguments in [json!(null), json!([1])] {
        let (updates, notes) = relay(&[
            from(
                "client",
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": "t", "arguments": arguments}}),
            ),
            from("server", text_result(json!(1), "refused")),
        ]);
        let mut announced = announced("mcp-1-1", "t");
        announced["rawInput"] = arguments;
        assert_eq!(updates, [announced, completed("mcp-1-1", "refused")]);
        assert!(notes.is_empty(), "{notes:?}");
    }
}

#[test]
fn a_task_cancelled_with_tasks_cancel_ends_its_call() {
    let task = |status: &str| {
        json!({"taskId": "t1", "status": status, "createdAt": "2026-01-01T00:00:00Z",
               "lastUpdatedAt": "2026-01-01T00:00:00Z", "ttl": 60000})
    };
    let lines = [
        from(
            "client",
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                   "params": {"name": "slow", "arguments": {}, "task": {"ttl": 60000}}}),
        ),
        from(
            "server",
            json!({"jsonrpc": "2.0", "id": 1, "result": {"task": task("working")}}),
        ),
        from(
            "client",
            json!({"jsonrpc": "2.0", "id": 2, "method": "tasks/cancel", "params": {"taskId": "t1"}}),
        ),
        from(
            "server",
            json!({"jsonrpc": "2.0", "id": 2, "result": task("cancelled")}),
        ),
    ];
    let (updates, notes) = relay(&lines);
    let statuses: Vec<&Value> = updates.iter().map(|update| &update["status"]).collect();
    assert_eq!(statuses.last(), Some(&&json!("failed")), "{updates:#?}");
    assert_eq!(
        updates.last().map(|update| &update["rawOutput"]),
        Some(&task("cancelled"))
    );
    // It ended: no "never ended" note. A `tasks/cancel` refused (an error) leaves a call going.
    assert_eq!(notes, Vec::<String>::new());
    let mut refused = lines[..3].to_vec();
    refused.push(from(
        "server",
        json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32602, "message": "task is done"}}),
    ));
    let (updates, notes) = relay(&refused);
    assert_ne!(updates.last().map(|u| &u["status"]), Some(&json!("failed")));
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("never ended"), "{notes:?}");
}
