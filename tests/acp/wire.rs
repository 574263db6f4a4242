//! Exact-JSON wire tests of the generated ACP types: both directions, absent vs `null`, unknown
//! values and tags, declared leniency and its report.

use serde_json::{json, Value};
use toolcall_contracts::acp::{
    SessionNotification, SessionUpdate, ToolCall, ToolCallContent, ToolCallLocation,
    ToolCallStatus, ToolCallUpdate, ToolKind,
};
use toolcall_contracts::{decode, Leniency, LeniencyKind, MaybeUndefined};

fn roundtrip<T: serde::de::DeserializeOwned + serde::Serialize>(
    input: &Value,
) -> (T, Vec<Leniency>) {
    let decoded = decode::<T>(input.to_string().as_bytes()).expect("decodes");
    (decoded.value, decoded.report)
}

fn leniency(pointer: &str, kind: LeniencyKind, raw: Value) -> Leniency {
    Leniency {
        pointer: pointer.to_owned(),
        kind,
        raw,
    }
}

#[test]
fn tool_kind_wire_values() {
    let all = [
        (ToolKind::Read, "read"),
        (ToolKind::Edit, "edit"),
        (ToolKind::Delete, "delete"),
        (ToolKind::Move, "move"),
        (ToolKind::Search, "search"),
        (ToolKind::Execute, "execute"),
        (ToolKind::Think, "think"),
        (ToolKind::Fetch, "fetch"),
        (ToolKind::SwitchMode, "switch_mode"),
        (ToolKind::Other, "other"),
    ];
    for (kind, wire) in all {
        assert_eq!(serde_json::to_value(kind).unwrap(), json!(wire));
        let decoded = decode::<ToolKind>(json!(wire).to_string().as_bytes()).unwrap();
        assert_eq!(decoded.value, kind);
        assert!(decoded.report.is_empty());
    }
}

#[test]
fn tool_call_status_wire_values() {
    let all = [
        (ToolCallStatus::Pending, "pending"),
        (ToolCallStatus::InProgress, "in_progress"),
        (ToolCallStatus::Completed, "completed"),
        (ToolCallStatus::Failed, "failed"),
    ];
    for (status, wire) in all {
        assert_eq!(serde_json::to_value(status).unwrap(), json!(wire));
        assert_eq!(
            serde_json::from_value::<ToolCallStatus>(json!(wire)).unwrap(),
            status
        );
    }
}

#[test]
fn unknown_tool_kind_becomes_other_and_is_reported() {
    let decoded = decode::<ToolKind>(br#""browse""#).unwrap();
    assert_eq!(decoded.value, ToolKind::Other);
    assert_eq!(
        decoded.report,
        [leniency("", LeniencyKind::UnknownValue, json!("browse"))]
    );
}

#[test]
fn unknown_tool_call_status_alone_is_an_error_naming_the_values() {
    let error = decode::<ToolCallStatus>(br#""paused""#).unwrap_err();
    assert_eq!(
        error.message,
        "unknown variant `paused`, expected one of `pending`, `in_progress`, `completed`, `failed`"
    );
}

#[test]
fn tool_call_with_location_line() {
    let wire = json!({
        "toolCallId": "call_1",
        "title": "Reading configuration",
        "kind": "read",
        "status": "pending",
        "locations": [{"path": "/home/user/project/config.json", "line": 42}]
    });
    let (call, report): (ToolCall, _) = roundtrip(&wire);
    assert!(report.is_empty());
    assert_eq!(call.tool_call_id.as_str(), "call_1");
    assert_eq!(call.kind, Some(ToolKind::Read));
    assert_eq!(call.status, Some(ToolCallStatus::Pending));
    let locations = call.locations.as_ref().unwrap();
    assert_eq!(locations[0].line, MaybeUndefined::Value(42));
    assert_eq!(serde_json::to_value(&call).unwrap(), wire);

    let built = ToolCall::new("call_1", "Reading configuration")
        .kind(ToolKind::Read)
        .status(ToolCallStatus::Pending)
        .locations(vec![ToolCallLocation::new(
            "/home/user/project/config.json",
        )
        .line(42u32)]);
    assert_eq!(serde_json::to_value(&built).unwrap(), wire);
}

#[test]
fn tool_call_update_keeps_explicit_nulls() {
    let wire = json!({
        "toolCallId": "c",
        "title": null,
        "kind": null,
        "status": null,
        "content": null,
        "locations": null,
        "rawInput": null,
        "rawOutput": null
    });
    let (update, report): (ToolCallUpdate, _) = roundtrip(&wire);
    assert!(report.is_empty());
    assert_eq!(update.title, MaybeUndefined::Null);
    assert_eq!(update.raw_input, MaybeUndefined::Null);
    assert_eq!(serde_json::to_value(&update).unwrap(), wire);
}

#[test]
fn tool_call_update_with_absent_members() {
    let wire = json!({"toolCallId": "c"});
    let (update, report): (ToolCallUpdate, _) = roundtrip(&wire);
    assert!(report.is_empty());
    assert_eq!(update.title, MaybeUndefined::Undefined);
    assert_eq!(update.raw_input, MaybeUndefined::Undefined);
    assert_eq!(serde_json::to_value(&update).unwrap(), wire);
    assert_eq!(
        serde_json::to_value(ToolCallUpdate::new("c")).unwrap(),
        wire
    );
}

#[test]
fn title_null_and_absent_differ() {
    let with_null: ToolCallUpdate =
        serde_json::from_value(json!({"toolCallId": "c", "title": null})).unwrap();
    let without: ToolCallUpdate = serde_json::from_value(json!({"toolCallId": "c"})).unwrap();
    assert_ne!(with_null, without);
    assert_eq!(
        serde_json::to_value(&with_null).unwrap(),
        json!({"toolCallId": "c", "title": null})
    );
    assert_eq!(
        serde_json::to_value(&without).unwrap(),
        json!({"toolCallId": "c"})
    );
}

#[test]
fn raw_input_null_differs_from_absent_on_tool_call() {
    let with_null: ToolCall =
        serde_json::from_value(json!({"toolCallId": "c", "title": "t", "rawInput": null})).unwrap();
    assert_eq!(with_null.raw_input, MaybeUndefined::Null);
    assert_eq!(
        serde_json::to_value(&with_null).unwrap(),
        json!({"toolCallId": "c", "title": "t", "rawInput": null})
    );
    let with_value: ToolCall = serde_json::from_value(
        json!({"toolCallId": "c", "title": "t", "rawInput": {"path": "/a"}}),
    )
    .unwrap();
    assert_eq!(
        with_value.raw_input,
        MaybeUndefined::Value(json!({"path": "/a"}))
    );
}

#[test]
fn tool_call_content_kinds() {
    let cases = [
        json!({"type": "diff", "path": "/a.rs", "oldText": "x", "newText": "y"}),
        json!({"type": "diff", "path": "/new.rs", "oldText": null, "newText": "y"}),
        json!({"type": "terminal", "terminalId": "term_1"}),
        json!({"type": "content", "content": {"type": "text", "text": "hello"}}),
    ];
    for wire in cases {
        let (content, report): (ToolCallContent, _) = roundtrip(&wire);
        assert!(report.is_empty(), "{report:?}");
        assert_eq!(serde_json::to_value(&content).unwrap(), wire);
    }
    let diff: ToolCallContent =
        serde_json::from_value(json!({"type": "diff", "path": "/a", "newText": "y"})).unwrap();
    assert!(matches!(diff, ToolCallContent::Diff(_)));
    let terminal: ToolCallContent =
        serde_json::from_value(json!({"type": "terminal", "terminalId": "t"})).unwrap();
    assert!(matches!(terminal, ToolCallContent::Terminal(_)));
}

#[test]
fn wrong_and_missing_tags_name_the_tag_and_the_values() {
    let wrong = decode::<ToolCallContent>(br#"{"type":"video"}"#).unwrap_err();
    assert_eq!(wrong.pointer, "/type");
    assert_eq!(
        wrong.message,
        "unknown `type` value `video` for `ToolCallContent`, expected one of `content`, `diff`, `terminal`, `session`"
    );
    let missing = decode::<ToolCallContent>(br#"{"path":"/a"}"#).unwrap_err();
    assert_eq!(missing.pointer, "/type");
    assert_eq!(
        missing.message,
        "missing tag `type` for `ToolCallContent`, expected one of `content`, `diff`, `terminal`, `session`"
    );
}

#[test]
fn unknown_session_update_is_kept_with_its_session_id() {
    let wire = json!({
        "sessionId": "sess_1",
        "update": {"sessionUpdate": "hologram_update", "frames": [1, 2]}
    });
    let (notification, report): (SessionNotification, _) = roundtrip(&wire);
    assert_eq!(notification.session_id.as_str(), "sess_1");
    assert_eq!(
        notification.update,
        SessionUpdate::Unknown(json!({"sessionUpdate": "hologram_update", "frames": [1, 2]}))
    );
    assert_eq!(
        report,
        [leniency(
            "/update/sessionUpdate",
            LeniencyKind::UnknownVariant,
            json!("hologram_update")
        )]
    );
    assert_eq!(serde_json::to_value(&notification).unwrap(), wire);
}

#[test]
fn unknown_status_decodes_as_absent_and_is_reported() {
    let input = json!({"sessionId": "s", "update": {"sessionUpdate": "tool_call_update", "toolCallId": "c", "status": "paused"}});
    let (notification, report): (SessionNotification, _) = roundtrip(&input);
    let SessionUpdate::ToolCallUpdate(update) = &notification.update else {
        panic!("expected a tool_call_update, got {notification:?}");
    };
    assert_eq!(update.status, MaybeUndefined::Undefined);
    assert_eq!(
        report,
        [leniency(
            "/update/status",
            LeniencyKind::UnknownValue,
            json!("paused")
        )]
    );
    assert_eq!(
        serde_json::to_value(&notification).unwrap(),
        json!({"sessionId": "s", "update": {"sessionUpdate": "tool_call_update", "toolCallId": "c"}})
    );
}

#[test]
fn invalid_content_item_is_skipped_and_reported() {
    let input = json!({
        "toolCallId": "c",
        "content": [
            {"type": "content", "content": {"type": "text", "text": "ok"}},
            {"type": "diff", "path": 7},
            {"type": "terminal", "terminalId": "t"}
        ]
    });
    let (update, report): (ToolCallUpdate, _) = roundtrip(&input);
    assert_eq!(
        report,
        [leniency(
            "/content/1",
            LeniencyKind::SkippedItem,
            json!({"type": "diff", "path": 7})
        )]
    );
    assert_eq!(
        serde_json::to_value(&update).unwrap(),
        json!({
            "toolCallId": "c",
            "content": [
                {"type": "content", "content": {"type": "text", "text": "ok"}},
                {"type": "terminal", "terminalId": "t"}
            ]
        })
    );
}

#[test]
fn malformed_line_is_defaulted_and_reported() {
    let input = json!({"toolCallId": "c", "title": "t", "locations": [{"path": "/a", "line": "ten"}, {"path": "/b", "line": -1}]});
    let (call, report): (ToolCall, _) = roundtrip(&input);
    assert_eq!(
        report,
        [
            leniency("/locations/0/line", LeniencyKind::Defaulted, json!("ten")),
            leniency("/locations/1/line", LeniencyKind::Defaulted, json!(-1)),
        ]
    );
    assert_eq!(
        serde_json::to_value(&call).unwrap(),
        json!({"toolCallId": "c", "title": "t", "locations": [{"path": "/a"}, {"path": "/b"}]})
    );
}

#[test]
fn plain_serde_gives_the_same_value_without_the_report() {
    let input = json!({"toolCallId": "c", "status": "paused", "content": [{"type": "bogus"}]});
    let plain: ToolCallUpdate = serde_json::from_slice(input.to_string().as_bytes()).unwrap();
    let reported = decode::<ToolCallUpdate>(input.to_string().as_bytes()).unwrap();
    assert_eq!(plain, reported.value);
    assert_eq!(reported.report.len(), 2);
}

#[test]
fn decode_error_names_the_pointer_of_the_failure() {
    let error = decode::<SessionNotification>(
        br#"{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","title":5}}"#,
    )
    .unwrap_err();
    assert_eq!(error.pointer, "/update/title");
    assert_eq!(
        error.message,
        "invalid type: integer `5`, expected a string"
    );
    assert_eq!((error.line, error.column), (1, 81));
    assert_eq!(
        error.to_string(),
        "invalid type: integer `5`, expected a string at `/update/title` (line 1, column 81)"
    );
}

#[test]
fn apply_follows_acp_v1_merge_semantics() {
    let mut call: ToolCall = serde_json::from_value(json!({
        "toolCallId": "c", "title": "Edit", "kind": "edit", "status": "pending",
        "content": [{"type": "terminal", "terminalId": "a"}],
        "locations": [{"path": "/a"}, {"path": "/b"}],
        "rawInput": {"x": 1}
    }))
    .unwrap();
    // Some agents send `null` for every unchanged member.
    let update: ToolCallUpdate = serde_json::from_value(json!({
        "toolCallId": "c", "title": null, "kind": null, "status": "completed",
        "content": [{"type": "terminal", "terminalId": "b"}],
        "locations": null, "rawInput": null, "rawOutput": {"ok": true}
    }))
    .unwrap();
    call.apply(&update);
    assert_eq!(
        serde_json::to_value(&call).unwrap(),
        json!({
            "toolCallId": "c", "title": "Edit", "kind": "edit", "status": "completed",
            "content": [{"type": "terminal", "terminalId": "b"}],
            "locations": [{"path": "/a"}, {"path": "/b"}],
            "rawInput": {"x": 1}, "rawOutput": {"ok": true}
        })
    );
    // Absent members leave everything unchanged.
    let before = call.clone();
    call.apply(&ToolCallUpdate::new("c"));
    assert_eq!(call, before);
}

#[test]
fn unknown_members_are_kept_and_written_back() {
    let wire = json!({
        "sessionId": "s",
        "update": {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "Run", "command": "ls", "x-vendor": {"a": 1}},
        "extra": true
    });
    let (notification, report): (SessionNotification, _) = roundtrip(&wire);
    assert!(report.is_empty());
    assert_eq!(
        notification.unknown_members.get("extra"),
        Some(&json!(true))
    );
    let SessionUpdate::ToolCall(call) = &notification.update else {
        panic!("expected a tool_call");
    };
    assert_eq!(call.unknown_members.get("command"), Some(&json!("ls")));
    assert_eq!(serde_json::to_value(&notification).unwrap(), wire);
}

#[test]
fn tag_not_first_is_decoded_the_same() {
    let first = json!({"sessionId": "s", "update": {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "t"}});
    let last =
        br#"{"sessionId":"s","update":{"toolCallId":"c","title":"t","sessionUpdate":"tool_call"}}"#;
    let a: SessionNotification = serde_json::from_value(first.clone()).unwrap();
    let b: SessionNotification = serde_json::from_slice(last).unwrap();
    assert_eq!(a, b);
    assert_eq!(serde_json::to_value(&b).unwrap(), first);
    let SessionUpdate::ToolCall(call) = &b.update else {
        panic!("expected a tool_call");
    };
    assert!(
        call.unknown_members.is_empty(),
        "the tag is not an unknown member"
    );
}

#[test]
fn a_null_given_to_an_untyped_setter_round_trips() {
    // `raw_input(Value::Null)` is the `null` state, as decoding makes it, so the value decodes
    // back equal (it used to be `Value(Null)`, which encodes the same but decodes as `Null`).
    let call = ToolCall::new("c", "t").raw_input(Value::Null);
    assert_eq!(call.raw_input, MaybeUndefined::Null);
    let json = serde_json::to_value(&call).unwrap();
    assert_eq!(
        json,
        json!({"toolCallId": "c", "title": "t", "rawInput": null})
    );
    let back: ToolCall = serde_json::from_value(json).unwrap();
    assert_eq!(back, call);
    let set = ToolCall::new("c", "t").raw_input(json!({"path": "/a"}));
    assert_eq!(set.raw_input, MaybeUndefined::Value(json!({"path": "/a"})));
}

#[test]
fn an_unknown_update_must_hold_an_object_with_its_tag() {
    let fine = SessionUpdate::Unknown(json!({"sessionUpdate": "future_kind", "x": 1}));
    assert_eq!(
        serde_json::to_value(&fine).unwrap(),
        json!({"sessionUpdate": "future_kind", "x": 1})
    );
    for raw in [json!(42), json!({"x": 1}), json!({"sessionUpdate": 7})] {
        let error = serde_json::to_string(&SessionUpdate::Unknown(raw.clone())).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the raw JSON of an unknown `SessionUpdate` must be an object with a string \
             `sessionUpdate`",
            "{raw}"
        );
    }
}

/// A session update is built from its variant's payload (`SessionUpdate::from(ToolCall)`), and
/// written with its `sessionUpdate` tag.
#[test]
fn session_update_from_its_payload_writes_the_tag() {
    let update = SessionUpdate::from(ToolCall::new("c", "Read").kind(ToolKind::Read));
    assert_eq!(
        serde_json::to_value(&update).unwrap(),
        json!({"sessionUpdate": "tool_call", "toolCallId": "c", "title": "Read", "kind": "read"})
    );
    let content = ToolCallContent::from(toolcall_contracts::acp::Content::new(
        toolcall_contracts::acp::ContentBlock::from(toolcall_contracts::acp::TextContent::new("x")),
    ));
    assert_eq!(
        serde_json::to_value(&content).unwrap(),
        json!({"type": "content", "content": {"type": "text", "text": "x"}})
    );
}
