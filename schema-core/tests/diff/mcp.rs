//! `schema_diff` (what `toolcall schemas diff` prints) between the official MCP schemas of
//! consecutive protocol versions, `schema/mcp/<version>/schema.json`: three draft-07 documents
//! (`definitions`, `#/definitions/...` references) and two 2020-12 ones (`$defs`), so
//! 2025-06-18 → 2025-11-25 also crosses from one to the other.
//!
//! Asserted: the counts by class and by broken direction for each pair; facts computed here
//! from the documents themselves, independently of the diff (definitions added and removed,
//! an equal definition has no change and a different one has some, top-level properties added
//! and removed); and well-known changes of each version, line by line as the command prints
//! them.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::{Map, Value};
use toolcall_schema::diff::{diff_paths, Change, ChangeKind, Class, Summary};

/// The five versions, oldest first.
const VERSIONS: [&str; 5] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];

fn path(version: &str) -> PathBuf {
    toolcall_test_support::fixture("schema/mcp")
        .join(version)
        .join("schema.json")
}

fn read(version: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path(version)).unwrap()).unwrap()
}

fn changes(old: &str, new: &str) -> Vec<Change> {
    diff_paths(&path(old), &path(new)).unwrap()
}

/// The definitions of a document and the pointer they sit under (`/definitions` for
/// draft-07, `/$defs` for 2020-12).
fn definitions(document: &Value) -> (&Map<String, Value>, &'static str) {
    if let Some(defs) = document["$defs"].as_object() {
        (defs, "/$defs")
    } else {
        let defs = document["definitions"].as_object().expect("`definitions`");
        (defs, "/definitions")
    }
}

fn pointers(changes: &[Change], kind: ChangeKind) -> BTreeSet<String> {
    changes
        .iter()
        .filter(|c| c.kind == kind)
        .map(|c| c.pointer.clone())
        .collect()
}

/// Facts from the two documents, independently of the diff; the failures.
fn check_pair(old_doc: &Value, new_doc: &Value, changes: &[Change]) -> Vec<String> {
    let mut failures = Vec::new();
    let ((old_defs, old_at), (new_defs, new_at)) = (definitions(old_doc), definitions(new_doc));
    // Added definitions point into the new document, removed ones into the old.
    let added: BTreeSet<String> = new_defs
        .keys()
        .filter(|k| !old_defs.contains_key(*k))
        .map(|k| format!("{new_at}/{k}"))
        .collect();
    let removed: BTreeSet<String> = old_defs
        .keys()
        .filter(|k| !new_defs.contains_key(*k))
        .map(|k| format!("{old_at}/{k}"))
        .collect();
    if pointers(changes, ChangeKind::DefinitionAdded) != added {
        failures.push(format!("definitions added: expected {added:?}"));
    }
    if pointers(changes, ChangeKind::DefinitionRemoved) != removed {
        failures.push(format!("definitions removed: expected {removed:?}"));
    }
    let mut properties_added = BTreeSet::new();
    let mut properties_removed = BTreeSet::new();
    for (name, old) in old_defs {
        let Some(new) = new_defs.get(name) else {
            continue;
        };
        let (old_under, new_under) = (format!("{old_at}/{name}"), format!("{new_at}/{name}"));
        let touching = changes
            .iter()
            .filter(|c| {
                [&old_under, &new_under].iter().any(|under| {
                    c.pointer == **under || c.pointer.starts_with(&format!("{under}/"))
                })
            })
            .count();
        // References differ in spelling between the drafts (`#/definitions/X` against
        // `#/$defs/X`) and are compared by target name, union branches are matched whatever
        // their order: the same definition then.
        let same = normalized(old) == normalized(new);
        if same != (touching == 0) {
            failures.push(format!(
                "{new_under}: the same is {same}, but {touching} changes"
            ));
        }
        let empty = Map::new();
        let old_props = old["properties"].as_object().unwrap_or(&empty);
        let new_props = new["properties"].as_object().unwrap_or(&empty);
        for key in new_props.keys().filter(|k| !old_props.contains_key(*k)) {
            properties_added.insert(format!("{new_under}/properties/{key}"));
        }
        for key in old_props.keys().filter(|k| !new_props.contains_key(*k)) {
            properties_removed.insert(format!("{old_under}/properties/{key}"));
        }
    }
    let top_level = |kind: ChangeKind| -> BTreeSet<String> {
        pointers(changes, kind)
            .into_iter()
            .filter(|p| p.matches('/').count() == 4 && p.contains("/properties/"))
            .collect()
    };
    if top_level(ChangeKind::PropertyAdded) != properties_added {
        failures.push(format!("properties added: expected {properties_added:?}"));
    }
    if top_level(ChangeKind::PropertyRemoved) != properties_removed {
        failures.push(format!(
            "properties removed: expected {properties_removed:?}"
        ));
    }
    failures
}

/// `value` with every `#/definitions/` reference spelled `#/$defs/` and the branches of each
/// `anyOf` and `oneOf` in one order.
fn normalized(value: &Value) -> Value {
    match value {
        Value::String(s) if s.starts_with("#/definitions/") => {
            Value::String(s.replacen("#/definitions/", "#/$defs/", 1))
        }
        Value::Array(items) => Value::Array(items.iter().map(normalized).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let mut v = normalized(v);
                    if let (true, Value::Array(branches)) = (k == "anyOf" || k == "oneOf", &mut v) {
                        branches.sort_by_key(ToString::to_string);
                    }
                    (k.clone(), v)
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The printed lines of `changes` (as `toolcall schemas diff` writes them).
fn lines(changes: &[Change]) -> BTreeSet<String> {
    changes.iter().map(ToString::to_string).collect()
}

/// Asserts that `changes` holds each of `expected`, as printed.
#[track_caller]
fn assert_lines(changes: &[Change], expected: &[&str]) {
    let lines = lines(changes);
    let missing: Vec<&&str> = expected
        .iter()
        .filter(|line| !lines.contains(**line))
        .collect();
    assert!(missing.is_empty(), "not reported: {missing:#?}");
}

#[test]
fn consecutive_versions_diff_as_their_documents_say() {
    // (old, new): changes, breaking, additive, cosmetic, breaking old producer → new
    // consumer, breaking new producer → old consumer.
    let expected: [(usize, usize, usize, usize, usize, usize); 4] = [
        (27, 7, 8, 12, 1, 6),
        (83, 11, 35, 37, 6, 5),
        (234, 90, 99, 45, 52, 43),
        (317, 119, 83, 115, 103, 18),
    ];
    let mut failures = Vec::new();
    for (window, expected) in VERSIONS.windows(2).zip(expected) {
        let (old, new) = (window[0], window[1]);
        let found = changes(old, new);
        let s = Summary::of(&found);
        println!(
            "{old} -> {new}: {s} ({} break old producer -> new consumer, {} new producer -> old \
             consumer)",
            s.breaking_old_producer_new_consumer, s.breaking_new_producer_old_consumer
        );
        let counts = (
            s.changes,
            s.breaking,
            s.additive,
            s.cosmetic,
            s.breaking_old_producer_new_consumer,
            s.breaking_new_producer_old_consumer,
        );
        if counts != expected {
            failures.push(format!("{old} -> {new}: counts {counts:?}"));
        }
        for failure in check_pair(&read(old), &read(new), &found) {
            failures.push(format!("{old} -> {new}: {failure}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// 2024-11-05 → 2025-03-26: audio content, tool annotations, JSON-RPC batches.
#[test]
fn mcp_2025_03_26_adds_audio_tool_annotations_and_batches() {
    let found = changes("2024-11-05", "2025-03-26");
    assert_lines(
        &found,
        &[
            "additive /definitions/AudioContent: definition `AudioContent` added",
            "breaking /definitions/CallToolResult/properties/content/items/anyOf/2: union \
             variant `AudioContent` added (new producer → old consumer)",
            "additive /definitions/ToolAnnotations: definition `ToolAnnotations` added",
            "additive /definitions/Tool/properties/annotations: property `annotations` added \
             (optional)",
            "additive /definitions/JSONRPCBatchRequest: definition `JSONRPCBatchRequest` added",
            "additive /definitions/ProgressNotification/properties/params/properties/message: \
             property `message` added (optional)",
        ],
    );
}

/// 2025-03-26 → 2025-06-18: elicitation, structured tool output, resource links; batches go.
#[test]
fn mcp_2025_06_18_adds_elicitation_and_structured_output_and_drops_batches() {
    let found = changes("2025-03-26", "2025-06-18");
    assert_lines(
        &found,
        &[
            "additive /definitions/ElicitRequest: definition `ElicitRequest` added",
            "breaking /definitions/ServerRequest/anyOf/3: union variant `ElicitRequest` added \
             (new producer → old consumer)",
            "additive /definitions/CallToolResult/properties/structuredContent: property \
             `structuredContent` added (optional)",
            "additive /definitions/Tool/properties/outputSchema: property `outputSchema` added \
             (optional)",
            "additive /definitions/ResourceLink: definition `ResourceLink` added",
            "breaking /definitions/JSONRPCBatchRequest: definition `JSONRPCBatchRequest` \
             removed (old producer → new consumer)",
            // A definition renamed (`ResourceReference` to `ResourceTemplateReference`, the
            // same schema) shows as a branch removed and one added: union branches referring
            // to definitions are matched by target name, never by content.
            "breaking /definitions/CompleteRequest/properties/params/properties/ref/anyOf/1: \
             union variant `ResourceTemplateReference` added (new producer → old consumer)",
            "breaking /definitions/CompleteRequest/properties/params/properties/ref/anyOf/1: \
             union variant `ResourceReference` removed (old producer → new consumer)",
        ],
    );
}

/// 2025-06-18 → 2025-11-25: the draft-07 document becomes a 2020-12 one (`definitions` →
/// `$defs`); tasks, URL elicitation, icons; each request inlines its JSON-RPC envelope.
#[test]
fn mcp_2025_11_25_moves_to_2020_12_and_adds_tasks() {
    let found = changes("2025-06-18", "2025-11-25");
    assert_lines(
        &found,
        &[
            // The dialect decides what every keyword means: not an annotation.
            "breaking /$schema: $schema changed from `http://json-schema.org/draft-07/schema#` \
             to `https://json-schema.org/draft/2020-12/schema` (the dialect decides what every \
             keyword means: a document may validate differently) (both directions)",
            // Tasks.
            "additive /$defs/Task: definition `Task` added",
            "additive /$defs/TaskStatus: definition `TaskStatus` added",
            "additive /$defs/CreateTaskResult: definition `CreateTaskResult` added",
            "additive /$defs/ServerCapabilities/properties/tasks: property `tasks` added \
             (optional)",
            "breaking /$defs/ClientRequest/anyOf/11: union variant `GetTaskRequest` added (new \
             producer → old consumer)",
            "breaking /$defs/ServerNotification/anyOf/6: union variant `TaskStatusNotification` \
             added (new producer → old consumer)",
            "additive /$defs/Tool/properties/execution: property `execution` added (optional)",
            // Elicitation by URL; icons; tool schemas may name their dialect.
            "additive /$defs/ElicitRequestURLParams: definition `ElicitRequestURLParams` added",
            "additive /$defs/Tool/properties/icons: property `icons` added (optional)",
            "additive /$defs/Tool/properties/inputSchema/properties/$schema: property `$schema` \
             added (optional)",
            // Requests carry `jsonrpc` and `id` themselves (they were the envelope's).
            "breaking /$defs/CallToolRequest/properties/id: property `id` added (required) (old \
             producer → new consumer)",
            "additive /$defs/CallToolRequest/properties/params: type changed from `object` to \
             `CallToolRequestParams`",
            // Removed definitions point into the old (draft-07) document.
            "breaking /definitions/JSONRPCError: definition `JSONRPCError` removed (old \
             producer → new consumer)",
            "additive /$defs/JSONRPCErrorResponse: definition `JSONRPCErrorResponse` added",
        ],
    );
    // Every definition removed or added is named once, in its own document's spelling.
    assert!(found
        .iter()
        .filter(|c| c.kind == ChangeKind::DefinitionAdded)
        .all(|c| c.pointer.starts_with("/$defs/")));
    assert!(found
        .iter()
        .filter(|c| c.kind == ChangeKind::DefinitionRemoved)
        .all(|c| c.pointer.starts_with("/definitions/")));
}

/// 2025-11-25 → 2026-07-28: no `initialize` (`server/discover`), every request carries its
/// protocol version and capabilities in `_meta`, results say their `resultType` and cache
/// hints, server-to-client requests become input requests inside results, tasks go.
#[test]
fn mcp_2026_07_28_drops_initialize_and_tasks_and_requires_request_meta() {
    let found = changes("2025-11-25", "2026-07-28");
    assert_lines(
        &found,
        &[
            "breaking /$defs/InitializeRequest: definition `InitializeRequest` removed (old \
             producer → new consumer)",
            "additive /$defs/DiscoverRequest: definition `DiscoverRequest` added",
            "breaking /$defs/ClientRequest/anyOf/0: union variant `DiscoverRequest` added (new \
             producer → old consumer)",
            "breaking /$defs/ClientRequest/anyOf/0: union variant `InitializeRequest` removed \
             (old producer → new consumer)",
            "breaking /$defs/CallToolRequestParams/required: `_meta` became required (old \
             producer → new consumer)",
            "breaking /$defs/CallToolRequestParams/properties/_meta: type changed from `object` \
             to `RequestMetaObject` (old producer → new consumer)",
            "breaking /$defs/CallToolResult/properties/resultType: property `resultType` added \
             (required) (old producer → new consumer)",
            // `structuredContent` may be any JSON value now: old consumers expect an object.
            "breaking /$defs/CallToolResult/properties/structuredContent/type: type \
             restriction `object` removed (new producer → old consumer)",
            "breaking /$defs/ListToolsResult/properties/ttlMs: property `ttlMs` added \
             (required) (old producer → new consumer)",
            "breaking /$defs/ListToolsResult/properties/cacheScope: property `cacheScope` added \
             (required) (old producer → new consumer)",
            // Server-to-client requests travel inside results, without `jsonrpc` and `id`.
            "breaking /$defs/ServerRequest: definition `ServerRequest` removed (old producer → \
             new consumer)",
            "breaking /$defs/ElicitRequest/properties/id: property `id` removed (was required) \
             (new producer → old consumer)",
            "additive /$defs/InputRequiredResult: definition `InputRequiredResult` added",
            "breaking /$defs/ElicitRequestURLParams/properties/elicitationId: property \
             `elicitationId` removed (was required) (new producer → old consumer)",
            "breaking /$defs/Task: definition `Task` removed (old producer → new consumer)",
            // `JSONObject`'s values are `JSONValue`, which admits neither `null` nor a
            // non-integral number: capability objects that were any object are narrower.
            "breaking /$defs/ClientCapabilities/properties/experimental/additionalProperties: \
             type changed from `object` to `JSONObject` (old producer → new consumer)",
        ],
    );
    // Union branches reordered (`ElicitRequestParams`: url, form → form, url) are no change.
    assert!(!found
        .iter()
        .any(|c| c.pointer.starts_with("/$defs/ElicitRequestParams")));
    // Most of what breaks, breaks old producers (2025-11-25 peers) → new consumers.
    let s = Summary::of(&found);
    assert!(s.breaking_old_producer_new_consumer > s.breaking_new_producer_old_consumer);
    assert!(found.iter().any(|c| c.classification == Class::Cosmetic));
}
