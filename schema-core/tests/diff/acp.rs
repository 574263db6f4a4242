//! The diff on hand-made pairs, one per change kind, classified
//! in both directions; bundles; and the published ACP schema releases against facts computed
//! here from the files themselves.
//!
//! The published releases live in `../shared/acp-schemas/`; their tests print a notice and skip
//! when it is absent. `toolcall schemas diff` itself is tested with the binary, in
//! `cli/tests/cli/schemas.rs`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;
use toolcall_schema::diff::{diff, diff_paths, Change, ChangeKind, Class, Summary};

use Class::{Additive, Breaking, Cosmetic};

fn fixtures() -> PathBuf {
    toolcall_test_support::fixture("tests/fixtures/schema_diff")
}

fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One hand-made pair `<name>.old.json` → `<name>.new.json` and the one change it holds.
struct Case {
    name: &'static str,
    kind: ChangeKind,
    /// (old producer → new consumer, new producer → old consumer).
    classes: (Class, Class),
    /// The text line.
    line: &'static str,
}

const fn case(
    name: &'static str,
    kind: ChangeKind,
    classes: (Class, Class),
    line: &'static str,
) -> Case {
    Case {
        name,
        kind,
        classes,
        line,
    }
}

const CASES: &[Case] = &[
    case(
        "definition_added",
        ChangeKind::DefinitionAdded,
        (Additive, Additive),
        "additive /$defs/B: definition `B` added",
    ),
    case(
        "definition_removed",
        ChangeKind::DefinitionRemoved,
        (Breaking, Additive),
        "breaking /$defs/B: definition `B` removed (old producer → new consumer)",
    ),
    case(
        "property_added_optional",
        ChangeKind::PropertyAdded,
        (Additive, Additive),
        "additive /$defs/Plan/properties/title: property `title` added (optional)",
    ),
    case(
        "property_added_required",
        ChangeKind::PropertyAdded,
        (Breaking, Additive),
        "breaking /$defs/Plan/properties/title: property `title` added (required) \
         (old producer → new consumer)",
    ),
    case(
        "property_added_to_closed_object",
        ChangeKind::PropertyAdded,
        (Additive, Breaking),
        "breaking /$defs/Plan/properties/title: property `title` added (optional) \
         (new producer → old consumer)",
    ),
    case(
        "property_removed_optional",
        ChangeKind::PropertyRemoved,
        (Additive, Additive),
        "additive /$defs/Plan/properties/title: property `title` removed (was optional)",
    ),
    case(
        "property_removed_required",
        ChangeKind::PropertyRemoved,
        (Additive, Breaking),
        "breaking /$defs/Plan/properties/title: property `title` removed (was required) \
         (new producer → old consumer)",
    ),
    case(
        "became_required",
        ChangeKind::BecameRequired,
        (Breaking, Additive),
        "breaking /$defs/ToolCall/required: `kind` became required (old producer → new consumer)",
    ),
    case(
        "became_optional",
        ChangeKind::BecameOptional,
        (Additive, Breaking),
        "breaking /$defs/ToolCall/required: `kind` became optional (new producer → old consumer)",
    ),
    case(
        "became_nullable",
        ChangeKind::BecameNullable,
        (Additive, Breaking),
        "breaking /$defs/ToolCall/properties/title: became nullable (new producer → old consumer)",
    ),
    case(
        "became_non_nullable",
        ChangeKind::BecameNonNullable,
        (Breaking, Additive),
        "breaking /$defs/ToolCall/properties/kind: no longer nullable \
         (old producer → new consumer)",
    ),
    case(
        "enum_value_added",
        ChangeKind::EnumValueAdded,
        (Additive, Breaking),
        "breaking /$defs/Priority/enum: enum value `medium` added (new producer → old consumer)",
    ),
    case(
        "enum_value_removed",
        ChangeKind::EnumValueRemoved,
        (Breaking, Additive),
        "breaking /$defs/Priority/enum: enum value `medium` removed \
         (old producer → new consumer)",
    ),
    case(
        "const_branch_added",
        ChangeKind::EnumValueAdded,
        (Additive, Breaking),
        "breaking /$defs/ToolKind/oneOf/1: enum value `deploy` added \
         (new producer → old consumer)",
    ),
    case(
        "const_branch_added_beside_catch_all",
        ChangeKind::EnumValueAdded,
        (Additive, Additive),
        "additive /$defs/Category/anyOf/1: enum value `model` added",
    ),
    case(
        "union_variant_added",
        ChangeKind::VariantAdded,
        (Additive, Breaking),
        "breaking /$defs/SessionUpdate/oneOf/2: union variant `plan_update` added \
         (new producer → old consumer)",
    ),
    case(
        "union_variant_removed",
        ChangeKind::VariantRemoved,
        (Breaking, Additive),
        "breaking /$defs/SessionUpdate/oneOf/2: union variant `plan_update` removed \
         (old producer → new consumer)",
    ),
    case(
        "type_changed",
        ChangeKind::TypeChanged,
        (Breaking, Breaking),
        "breaking /$defs/Terminal/properties/exitCode/type: type changed from `string` to \
         `integer` (both directions)",
    ),
    case(
        "type_widened",
        ChangeKind::TypeChanged,
        (Additive, Breaking),
        "breaking /$defs/Usage/properties/tokens/type: type changed from `integer` to `number` \
         (new producer → old consumer)",
    ),
    case(
        "reference_target_changed",
        ChangeKind::TypeChanged,
        (Breaking, Breaking),
        "breaking /$defs/Holder/properties/x: type changed from `A` to `B` (both directions)",
    ),
    case(
        "inline_became_same_reference",
        ChangeKind::TypeChanged,
        (Cosmetic, Cosmetic),
        "cosmetic /$defs/Terminal/properties/terminalId: `string` replaced by `TerminalId`, \
         the same schema",
    ),
    case(
        "min_length_tightened",
        ChangeKind::ConstraintTightened,
        (Breaking, Additive),
        "breaking /$defs/Limits/properties/path/minLength: `minLength` tightened from `1` to \
         `3` (old producer → new consumer)",
    ),
    case(
        "max_length_loosened",
        ChangeKind::ConstraintLoosened,
        (Additive, Breaking),
        "breaking /$defs/Limits/properties/title/maxLength: `maxLength` loosened from `64` to \
         `256` (new producer → old consumer)",
    ),
    case(
        "minimum_added",
        ChangeKind::ConstraintTightened,
        (Breaking, Additive),
        "breaking /$defs/Limits/properties/line/minimum: `minimum` added (`0`) \
         (old producer → new consumer)",
    ),
    case(
        "maximum_removed",
        ChangeKind::ConstraintLoosened,
        (Additive, Breaking),
        "breaking /$defs/Limits/properties/percent/maximum: `maximum` removed (was `100`) \
         (new producer → old consumer)",
    ),
    case(
        "pattern_changed",
        ChangeKind::ConstraintChanged,
        (Breaking, Breaking),
        "breaking /$defs/Limits/properties/id/pattern: `pattern` changed from `^[a-z]+$` to \
         `^[A-Z]+$` (both directions)",
    ),
    case(
        "format_added",
        ChangeKind::ConstraintTightened,
        (Breaking, Additive),
        "breaking /$defs/Limits/properties/uri/format: `format` added (`uri`) \
         (old producer → new consumer)",
    ),
    case(
        "format_widened",
        ChangeKind::ConstraintLoosened,
        (Additive, Breaking),
        "breaking /$defs/Limits/properties/size/format: `format` loosened from `uint32` to \
         `uint64` (new producer → old consumer)",
    ),
    case(
        "min_items_tightened",
        ChangeKind::ConstraintTightened,
        (Breaking, Additive),
        "breaking /$defs/Limits/properties/entries/minItems: `minItems` tightened from `0` to \
         `1` (old producer → new consumer)",
    ),
    case(
        "max_items_loosened",
        ChangeKind::ConstraintLoosened,
        (Additive, Breaking),
        "breaking /$defs/Limits/properties/entries/maxItems: `maxItems` removed (was `8`) \
         (new producer → old consumer)",
    ),
    case(
        "additional_properties_closed",
        ChangeKind::ConstraintTightened,
        (Breaking, Additive),
        "breaking /$defs/Meta/additionalProperties: `additionalProperties: false` added \
         (old producer → new consumer)",
    ),
    case(
        "additional_properties_opened",
        ChangeKind::ConstraintLoosened,
        (Additive, Breaking),
        "breaking /$defs/Meta/additionalProperties: `additionalProperties: false` removed \
         (new producer → old consumer)",
    ),
    case(
        "leniency_added",
        ChangeKind::LeniencyAdded,
        (Additive, Cosmetic),
        "additive /$defs/ToolCall/properties/status/x-deserialize-default-on-error: leniency \
         `x-deserialize-default-on-error` added",
    ),
    case(
        "leniency_removed",
        ChangeKind::LeniencyRemoved,
        (Breaking, Cosmetic),
        "breaking /$defs/ToolCall/properties/content/x-deserialize-skip-invalid-items: leniency \
         `x-deserialize-skip-invalid-items` removed (old producer → new consumer)",
    ),
    case(
        "enum_written_as_const_union",
        ChangeKind::AnnotationChanged,
        (Cosmetic, Cosmetic),
        "cosmetic /$defs/Role: enum written as a union of `const`s instead of `enum`",
    ),
    // The dialect decides what every keyword means (draft-07 ignores `$ref` siblings, 2020-12
    // reads `items` differently): not an annotation.
    case(
        "dialect_changed",
        ChangeKind::KeywordChanged,
        (Breaking, Breaking),
        "breaking /$schema: $schema changed from `http://json-schema.org/draft-07/schema#` to \
         `https://json-schema.org/draft/2020-12/schema` (the dialect decides what every keyword \
         means: a document may validate differently) (both directions)",
    ),
    case(
        "description_changed",
        ChangeKind::DescriptionChanged,
        (Cosmetic, Cosmetic),
        "cosmetic /$defs/Plan/description: description changed",
    ),
    case(
        "title_changed",
        ChangeKind::TitleChanged,
        (Cosmetic, Cosmetic),
        "cosmetic /$defs/Plan/title: title changed from `Plan` to `Execution plan`",
    ),
];

/// The pair of a case.
fn pair(name: &str) -> (PathBuf, PathBuf) {
    let dir = fixtures();
    (
        dir.join(format!("{name}.old.json")),
        dir.join(format!("{name}.new.json")),
    )
}

#[test]
fn each_change_kind_is_classified_in_both_directions() {
    let mut failures = Vec::new();
    for case in CASES {
        let (old, new) = pair(case.name);
        let changes = diff(&read(&old), &read(&new));
        let lines: Vec<String> = changes.iter().map(ToString::to_string).collect();
        match changes.as_slice() {
            [change] => {
                let classes = (
                    change.old_producer_new_consumer,
                    change.new_producer_old_consumer,
                );
                if change.kind != case.kind || classes != case.classes || lines[0] != case.line {
                    failures.push(format!(
                        "{}: got {:?} {classes:?}\n  {}\nexpected {:?} {:?}\n  {}",
                        case.name, change.kind, lines[0], case.kind, case.classes, case.line
                    ));
                }
                assert_eq!(change.classification, classes.0.max(classes.1));
            }
            _ => failures.push(format!(
                "{}: expected one change, got {}:\n  {}",
                case.name,
                changes.len(),
                lines.join("\n  ")
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn swapping_old_and_new_swaps_the_directions() {
    // Removing what was added: the classes of the two directions trade places, except for
    // kinds that are not each other's mirror (definitions, leniency, cosmetic).
    for name in [
        "became_required",
        "became_nullable",
        "enum_value_added",
        "union_variant_added",
        "type_widened",
        "min_length_tightened",
        "additional_properties_closed",
    ] {
        let (old, new) = pair(name);
        let forward = diff(&read(&old), &read(&new));
        let backward = diff(&read(&new), &read(&old));
        assert_eq!(forward.len(), 1, "{name}");
        assert_eq!(backward.len(), 1, "{name}");
        assert_eq!(
            (
                forward[0].old_producer_new_consumer,
                forward[0].new_producer_old_consumer
            ),
            (
                backward[0].new_producer_old_consumer,
                backward[0].old_producer_new_consumer
            ),
            "{name}"
        );
    }
}

#[test]
fn reordering_changes_nothing() {
    let (old, new) = pair("reordered_no_change");
    assert_eq!(diff(&read(&old), &read(&new)), []);
}

#[test]
fn every_fixture_pair_is_in_the_table() {
    let mut names = BTreeSet::new();
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if let Some(case) = name
            .strip_suffix(".old.json")
            .or_else(|| name.strip_suffix(".new.json"))
        {
            names.insert(case.to_owned());
        }
    }
    let mut known: BTreeSet<String> = CASES.iter().map(|c| c.name.to_owned()).collect();
    known.insert("reordered_no_change".to_owned());
    assert_eq!(names, known);
}

#[test]
fn bundles_match_files_by_name() {
    let dir = fixtures().join("bundle");
    let changes = diff_paths(&dir.join("old"), &dir.join("new")).unwrap();
    let lines: Vec<String> = changes.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "breaking acp.schema.json#/$defs/ToolCall/required: `kind` became required \
             (old producer → new consumer)",
            "breaking legacy.json: schema file `legacy.json` removed (old producer → new consumer)",
            "additive route.schema.json: schema file `route.schema.json` added",
        ]
    );
    assert_eq!(changes[0].file.as_deref(), Some("acp.schema.json"));
    assert_eq!(changes[2].kind, ChangeKind::FileAdded);

    let error = diff_paths(&dir.join("old"), &dir.join("old/legacy.json")).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "`{}` and `{}` must both be files or both be directories",
            dir.join("old").display(),
            dir.join("old/legacy.json").display()
        )
    );
}

// ---- The published ACP schema releases ----

/// Consecutive published releases.
const RELEASES: &[&str] = &["1.13.7", "1.16.0", "1.19.0", "1.20.0", "1.21.0"];

fn schema_path(dir: &Path, release: &str) -> PathBuf {
    dir.join(format!("v{release}")).join("schema.json")
}

fn defs(document: &Value) -> &serde_json::Map<String, Value> {
    document["$defs"].as_object().expect("`$defs`")
}

/// The pointers of changes of `kind`.
fn pointers(changes: &[Change], kind: ChangeKind) -> BTreeSet<String> {
    changes
        .iter()
        .filter(|c| c.kind == kind)
        .map(|c| c.pointer.clone())
        .collect()
}

/// Facts computed here from the two documents, independently of the diff: definitions added
/// and removed, top-level properties added and removed, required changes, leniency added or
/// removed on top-level properties, and which definitions are equal.
fn check_release_pair(old_doc: &Value, new_doc: &Value, changes: &[Change]) -> Vec<String> {
    let mut failures = Vec::new();
    let (old_defs, new_defs) = (defs(old_doc), defs(new_doc));
    let pointer = |name: &str| format!("/$defs/{name}");
    let added: BTreeSet<String> = new_defs
        .keys()
        .filter(|k| !old_defs.contains_key(*k))
        .map(|k| pointer(k))
        .collect();
    let removed: BTreeSet<String> = old_defs
        .keys()
        .filter(|k| !new_defs.contains_key(*k))
        .map(|k| pointer(k))
        .collect();
    if pointers(changes, ChangeKind::DefinitionAdded) != added {
        failures.push(format!("definitions added: expected {added:?}"));
    }
    if pointers(changes, ChangeKind::DefinitionRemoved) != removed {
        failures.push(format!("definitions removed: expected {removed:?}"));
    }

    let mut properties_added = BTreeSet::new();
    let mut properties_removed = BTreeSet::new();
    let mut required_changes = BTreeSet::new();
    let mut leniency = BTreeSet::new();
    for (name, old) in old_defs {
        let Some(new) = new_defs.get(name) else {
            continue;
        };
        let under = pointer(name);
        let touching: Vec<&Change> = changes
            .iter()
            .filter(|c| c.pointer == under || c.pointer.starts_with(&format!("{under}/")))
            .collect();
        // No false positive: an equal definition has no change; no false negative: a
        // different one has at least one.
        if (old == new) != touching.is_empty() {
            failures.push(format!(
                "{under}: equal is {}, but {} changes",
                old == new,
                touching.len()
            ));
        }
        let empty = serde_json::Map::new();
        let old_props = old["properties"].as_object().unwrap_or(&empty);
        let new_props = new["properties"].as_object().unwrap_or(&empty);
        for key in new_props.keys().filter(|k| !old_props.contains_key(*k)) {
            properties_added.insert(format!("{under}/properties/{key}"));
        }
        for key in old_props.keys().filter(|k| !new_props.contains_key(*k)) {
            properties_removed.insert(format!("{under}/properties/{key}"));
        }
        let required = |schema: &Value| -> BTreeSet<String> {
            schema["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        };
        let (old_required, new_required) = (required(old), required(new));
        for key in old_required.symmetric_difference(&new_required) {
            if old_props.contains_key(key) && new_props.contains_key(key) {
                required_changes.insert(format!("{under}/required {key}"));
            }
        }
        for (key, old_prop) in old_props {
            let Some(new_prop) = new_props.get(key) else {
                continue;
            };
            let (Some(o), Some(n)) = (old_prop.as_object(), new_prop.as_object()) else {
                continue;
            };
            for flag in o.keys().chain(n.keys()) {
                if flag.starts_with("x-deserialize-") && o.get(flag) != n.get(flag) {
                    leniency.insert(format!("{under}/properties/{key}/{flag}"));
                }
            }
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
    let found_required: BTreeSet<String> = changes
        .iter()
        .filter(|c| {
            matches!(
                c.kind,
                ChangeKind::BecameRequired | ChangeKind::BecameOptional
            )
        })
        .filter(|c| c.pointer.matches('/').count() == 3)
        .map(|c| {
            let name = c.what.split('`').nth(1).unwrap_or_default();
            format!("{} {name}", c.pointer)
        })
        .collect();
    if found_required != required_changes {
        failures.push(format!("required changes: expected {required_changes:?}"));
    }
    let found_leniency: BTreeSet<String> = changes
        .iter()
        .filter(|c| {
            matches!(
                c.kind,
                ChangeKind::LeniencyAdded | ChangeKind::LeniencyRemoved
            )
        })
        .filter(|c| c.pointer.matches('/').count() == 5 && c.pointer.contains("/properties/"))
        .map(|c| c.pointer.clone())
        .collect();
    if found_leniency != leniency {
        failures.push(format!("leniency changes: expected {leniency:?}"));
    }
    failures
}

#[test]
fn published_releases_diff_as_their_files_say() {
    let Some(dir) = toolcall_test_support::shared("acp-schemas") else {
        return;
    };
    let mut failures = Vec::new();
    for window in RELEASES.windows(2) {
        let (old_path, new_path) = (schema_path(&dir, window[0]), schema_path(&dir, window[1]));
        let (old_doc, new_doc) = (read(&old_path), read(&new_path));
        let changes = diff_paths(&old_path, &new_path).unwrap();
        let summary = Summary::of(&changes);
        println!(
            "v{} -> v{}: {summary} ({} break old producer -> new consumer, {} new producer -> old \
             consumer)",
            window[0],
            window[1],
            summary.breaking_old_producer_new_consumer,
            summary.breaking_new_producer_old_consumer
        );
        for failure in check_release_pair(&old_doc, &new_doc, &changes) {
            failures.push(format!("v{} -> v{}: {failure}", window[0], window[1]));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn published_release_facts() {
    let Some(dir) = toolcall_test_support::shared("acp-schemas") else {
        return;
    };
    let changes = |old: &str, new: &str| {
        diff_paths(&schema_path(&dir, old), &schema_path(&dir, new)).unwrap()
    };
    let has = |changes: &[Change], kind: ChangeKind, pointer: &str, what: &str| {
        changes
            .iter()
            .any(|c| c.kind == kind && c.pointer == pointer && c.what == what)
    };

    // v1.19.0 and v1.20.0 are the same file.
    assert_eq!(changes("1.19.0", "1.20.0"), []);

    // v1.19.0 adds protocol-level messages (`$/cancel_request` in its meta.json) as a third
    // branch of the root union: a new variant old consumers cannot read.
    let meta = |release: &str| read(&dir.join(format!("v{release}")).join("meta.json"));
    assert!(meta("1.16.0").get("protocolMethods").is_none());
    assert!(meta("1.19.0").get("protocolMethods").is_some());
    let v1_19 = changes("1.16.0", "1.19.0");
    assert!(has(
        &v1_19,
        ChangeKind::VariantAdded,
        "/anyOf/2",
        "union variant `ProtocolLevel` added"
    ));
    // ... and the `-32800` error code, beside the `Other` catch-all: additive both ways.
    let cancelled = v1_19
        .iter()
        .find(|c| c.what == "enum value `-32800` added")
        .expect("error code -32800 added");
    assert_eq!(cancelled.classification, Additive);

    // v1.21.0 adds elicitation: `elicitation/create` and `elicitation/complete` in meta.json,
    // sent by the agent, so new variants of the agent's request and notification unions.
    let methods = |release: &str| -> BTreeSet<String> {
        meta(release)["clientMethods"]
            .as_object()
            .unwrap()
            .values()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect()
    };
    let new_methods: Vec<String> = methods("1.21.0")
        .difference(&methods("1.20.0"))
        .cloned()
        .collect();
    assert_eq!(new_methods, ["elicitation/complete", "elicitation/create"]);
    let v1_21 = changes("1.20.0", "1.21.0");
    for (pointer, what) in [
        (
            "/$defs/AgentRequest/properties/params/anyOf/0/anyOf/8",
            "union variant `CreateElicitationRequest` added",
        ),
        (
            "/$defs/AgentNotification/properties/params/anyOf/0/anyOf/1",
            "union variant `CompleteElicitationNotification` added",
        ),
        (
            "/$defs/ClientResponse/anyOf/0/properties/result/anyOf/8",
            "union variant `CreateElicitationResponse` added",
        ),
    ] {
        assert!(
            has(&v1_21, ChangeKind::VariantAdded, pointer, what),
            "{pointer}: {what}"
        );
    }
    // Every breaking change of v1.21.0 breaks new producers -> old consumers only: nothing an
    // old producer sends is rejected by a v1.21.0 consumer.
    assert!(v1_21
        .iter()
        .all(|c| c.old_producer_new_consumer != Breaking));
    assert_eq!(Summary::of(&v1_21).breaking, 4);
}

/// Exported bundles keep each family in a subdirectory: a bundle diff must look inside them.
#[test]
fn bundle_directories_are_compared_recursively() {
    let base = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("schema-diff-nested");
    let _ = std::fs::remove_dir_all(&base);
    for side in ["old", "new"] {
        std::fs::create_dir_all(base.join(side).join("acp")).unwrap();
        std::fs::write(base.join(side).join("index.json"), "{\"files\": []}").unwrap();
    }
    let old = serde_json::json!({"$defs": {"A": {"type": "object"}, "B": {"type": "string"}}});
    let new = serde_json::json!({"$defs": {"A": {"type": "object"}}});
    std::fs::write(base.join("old/acp/x.schema.json"), old.to_string()).unwrap();
    std::fs::write(base.join("new/acp/x.schema.json"), new.to_string()).unwrap();
    let changes = toolcall_schema::diff::diff_paths(&base.join("old"), &base.join("new")).unwrap();
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0].file.as_deref(), Some("acp/x.schema.json"));
}

#[test]
fn keywords_beside_a_reference_are_compared() {
    // 2020-12 applies the keywords beside a `$ref`: a bound added there narrows the schema, as
    // it would anywhere (found by a fresh-user probe: `0 changes`).
    let schema = |x: Value, z: Value| {
        serde_json::json!({"$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object", "properties": {"x": x, "z": z},
            "$defs": {"A": {"type": "string"}}})
    };
    let a = serde_json::json!({"$ref": "#/$defs/A"});
    let old = schema(a.clone(), a.clone());
    let new = schema(
        serde_json::json!({"$ref": "#/$defs/A", "maxLength": 3}),
        serde_json::json!({"$ref": "#/$defs/A", "enum": ["a"]}),
    );
    let shown: Vec<String> = diff(&old, &new).iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "breaking /properties/x/maxLength: `maxLength` added (`3`) (old producer → new consumer)",
            "breaking /properties/z/enum: `enum` added (1 values) (old producer → new consumer)",
        ]
    );
    // The same reference with the same siblings: nothing.
    assert_eq!(diff(&new, &new), []);
}

#[test]
fn a_keyword_that_only_asserts_narrows_when_added() {
    // Found by a fresh-user probe: `dependentRequired` or `propertyNames` added was breaking
    // both ways; it only narrows. `if`/`then` yield annotations (`unevaluatedProperties`
    // reads them), so their addition stays breaking both ways.
    let old = serde_json::json!({"type": "object"});
    let new = serde_json::json!({"type": "object", "dependentRequired": {"a": ["b"]},
        "propertyNames": {"maxLength": 3}, "if": {"required": ["a"]}});
    let classes = |changes: Vec<Change>| -> Vec<(String, Class, Class)> {
        changes
            .into_iter()
            .map(|c| {
                (
                    c.pointer,
                    c.old_producer_new_consumer,
                    c.new_producer_old_consumer,
                )
            })
            .collect()
    };
    assert_eq!(
        classes(diff(&old, &new)),
        [
            ("/dependentRequired".to_owned(), Breaking, Additive),
            ("/if".to_owned(), Breaking, Breaking),
            ("/propertyNames".to_owned(), Breaking, Additive),
        ]
    );
    assert_eq!(
        classes(diff(&new, &old)),
        [
            ("/dependentRequired".to_owned(), Additive, Breaking),
            ("/if".to_owned(), Breaking, Breaking),
            ("/propertyNames".to_owned(), Additive, Breaking),
        ]
    );
}
