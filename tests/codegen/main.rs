//! Every snapshot of `codegen/tests/<case>/expected.rs` (what `toolcall-codegen generate
//! --schema` writes for `schema.json`, checked fresh by `codegen/tests/snapshots.rs`) compiled
//! here as a module of its own with warnings denied, the way a user's crate includes it, and
//! round-tripped on the instances stored beside it in `instances.json`:
//!
//! - each valid instance decodes with an empty report, and encodes back to the identical JSON
//!   value, every number as `instances.json` writes it (`2` stays `2`, `2.0` stays `2.0`,
//!   `1.50` stays `1.50`, every digit of a number past 64 bits kept);
//! - each invalid instance is refused with the JSON pointer the file names;
//! - `type` names the Rust type, `definition` (when the pipeline renamed it) the schema's;
//! - `serde_json::from_str` accepts and refuses the same instances, and the JSON Schema
//!   validator agrees with every verdict (an instance file that is wrong fails here too).

#![deny(warnings)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;
use toolcall_contracts::decode::DecodeError;

/// What decoding one instance gave: the value encoded again (its JSON text), the number of
/// leniencies reported, and what [`toolcall_contracts::check`] says of the decoded value; or
/// the error.
type Outcome = Result<(String, usize, Result<usize, String>), DecodeError>;

fn round_trip<T: DeserializeOwned + Serialize>(text: &str) -> (Outcome, bool) {
    let plain = serde_json::from_str::<T>(text).is_ok();
    let outcome = toolcall_contracts::decode::decode::<T>(text.as_bytes()).map(|decoded| {
        let encoded = serde_json::to_string(&decoded.value).expect("a decoded value encodes");
        let checked = toolcall_contracts::check(&decoded.value)
            .map(|report| report.len())
            .map_err(|e| e.to_string());
        (encoded, decoded.report.len(), checked)
    });
    (outcome, plain)
}

/// A JSON value with every number kept as its text, to compare encodings digit for digit
/// (members in any order).
#[derive(Debug, PartialEq)]
enum Exact {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Exact>),
    Object(BTreeMap<String, Exact>),
}

fn exact(text: &str) -> Exact {
    let text = text.trim();
    match text.as_bytes().first() {
        Some(b'{') => {
            let members: BTreeMap<String, Box<RawValue>> = serde_json::from_str(text).unwrap();
            Exact::Object(
                members
                    .into_iter()
                    .map(|(k, v)| (k, exact(v.get())))
                    .collect(),
            )
        }
        Some(b'[') => {
            let items: Vec<Box<RawValue>> = serde_json::from_str(text).unwrap();
            Exact::Array(items.iter().map(|v| exact(v.get())).collect())
        }
        Some(b'"') => Exact::String(serde_json::from_str(text).unwrap()),
        Some(b't') => Exact::Bool(true),
        Some(b'f') => Exact::Bool(false),
        Some(b'n') => Exact::Null,
        _ => Exact::Number(text.to_owned()),
    }
}

/// One module per case, and `decode(case, type, text)` for every type a case declares.
macro_rules! cases {
    ($($(#[$attr:meta])* $case:ident: [$($ty:ident),* $(,)?]),* $(,)?) => {
        $(
            $(#[$attr])*
            mod $case {
                include!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/codegen/tests/",
                    stringify!($case),
                    "/expected.rs"
                ));

                /// Decodes `text` as the type named `ty` (in full paths: a case may define
                /// `Option`).
                pub(super) fn __round_trip(
                    ty: &str,
                    text: &str,
                ) -> ::std::option::Option<(super::Outcome, bool)> {
                    match ty {
                        $(stringify!($ty) => ::std::option::Option::Some(super::round_trip::<$ty>(text)),)*
                        _ => ::std::option::Option::None,
                    }
                }
            }
        )*

        /// `(case, types)` of every case compiled here.
        const CASES: &[(&str, &[&str])] = &[
            $($(#[$attr])* (stringify!($case), &[$(stringify!($ty)),*]),)*
        ];

        /// Decodes `text` as the type `ty` of `case`; `None` for a type the case does not have.
        fn decode(case: &str, ty: &str, text: &str) -> Option<(Outcome, bool)> {
            $(
                $(#[$attr])*
                if case == stringify!($case) {
                    return $case::__round_trip(ty, text);
                }
            )*
            None
        }
    };
}

cases! {
    #[cfg(feature = "checks")]
    array_alias_items: [Commands, Words, Slugs, Plain, Script],
    #[cfg(feature = "checks")]
    checked_all_of_additional_properties: [Closed, Extended],
    #[cfg(feature = "checks")]
    checked_all_of_conflict: [T],
    #[cfg(feature = "checks")]
    checked_all_of_itself: [Node],
    #[cfg(feature = "checks")]
    checked_all_of_union: [A2, B],
    #[cfg(feature = "checks")]
    checked_branch_without_shape: [Code],
    #[cfg(feature = "checks")]
    checked_const_number: [Gauge],
    #[cfg(feature = "checks")]
    checked_const_object: [Fixed],
    #[cfg(feature = "checks")]
    checked_discriminator_mapping_mismatch: [Pet, Cat, BigDog],
    #[cfg(feature = "checks")]
    checked_discriminator_without_const: [Pet, Cat, Dog],
    #[cfg(feature = "checks")]
    checked_enum_const_outside: [Mode, Holder],
    #[cfg(feature = "checks")]
    checked_false_member: [Legacy],
    #[cfg(feature = "checks")]
    checked_items_false: [Empty],
    #[cfg(feature = "checks")]
    checked_mixed_enum: [Level],
    #[cfg(feature = "checks")]
    checked_nested_union_in_tagged_branch: [Msg],
    #[cfg(feature = "checks")]
    checked_not: [Name],
    #[cfg(feature = "checks")]
    checked_object_without_members: [Nothing],
    #[cfg(feature = "checks")]
    checked_pattern_lookahead: [Word],
    #[cfg(feature = "checks")]
    checked_pattern_properties: [Headers],
    #[cfg(feature = "checks")]
    checked_pattern_properties_closed: [Exports, Extensions],
    #[cfg(feature = "checks")]
    checked_sibling_files: [Person],
    #[cfg(feature = "checks")]
    checked_two_null_branches: [Maybe],
    #[cfg(feature = "checks")]
    checked_type_null: [Reply],
    #[cfg(feature = "checks")]
    untyped_values: [Short, Loose, Counts],
    #[cfg(feature = "checks")]
    checked_member_beside_union: [Msg, Pick],
    checked_type_array_object: [Opt, OptVariant0, Entry, EntryValue, EntryValueVariant0],
    untagged_number_digits: [Amount, Reading, ReadingVariant0],
    #[cfg(feature = "checks")]
    checked_tagged_branch_keywords: [Shape, ShapeCircle, ShapeSquare, ShapeDot],
    #[cfg(feature = "checks")]
    checked_dynamic_scope: [Leaf, Numbers],
    bounds_of_other_kinds: [Count],
    dialect_draft04: [Port, Service],
    draft07_ref_siblings_ignored: [Name, Person],
    unknown_keywords: [Config],
    all_of_ref_inline: [Base, Task],
    array_bounds: [Matrix, Batch],
    branches_add_required: [Contact, Target],
    branches_narrow_type: [Value, Setting],
    definition_name_collisions: [FooBar, FooBar2],
    discriminator_mapping_refs: [Pet, Cat, BigDog],
    enum_with_const: [Version, Header, HeaderMode],
    enum_with_null: [Level, LevelValue, Config, ConfigMode],
    integer_enum: [Priority, Job, JobRetries],
    hoisted_inline_objects: [Server, ServerCapabilities, ServerCapabilitiesTools, ServerLimitsItem],
    member_names: [Record],
    nullable_items: [Sheet, SheetPair],
    number_form: [Reading],
    only_aliases: [Tags, Matrix],
    one_of_exactly_one: [Amount, Either, Any, A2, B],
    numeric_bounds: [Limits],
    prefix_items: [Point, Range, Row, Segment],
    recursive: [Node, Expr, ExprNeg, Link, LinkVariant0, LinkVariant1, Term, TermAll],
    recursive_array: [Tree, Counts, Pair],
    ref_percent_escapes: [UnitPrice, Rate, AB, Line],
    ref_with_siblings: [Name, Tags, Item, Code, User, UserItem],
    root_name_taken: [CommandsRoot, Commands, Schema],
    root_schema: [Config, Port],
    ref_by_id: [Money, Order],
    reserved_names: [D2, S2, Visitor2, Result, Value, Option],
    static_name_collisions: [Codes, CodesItem],
    #[cfg(feature = "patterns")]
    string_bounds: [Name, Tag, Labels],
    string_enum_names: [Operator, Separator],
    tag_const_in_ref: [Shape, Circle, Square],
    tag_const_in_ref_discriminator: [Request, PingRequest, CallRequest, CallParams],
    type_array: [Id, Entry, EntryLabel],
    typed_map: [Env, Package, Dependency],
    unknown_members: [Event, EventState, Source, Update, UpdateStarted, UpdateStopped, Strict],
}

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("codegen/tests")
}

/// The type names `expected.rs` declares (`pub struct X`, `pub enum X`, `pub type X`).
fn declared_types(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|line| {
            ["pub struct ", "pub enum ", "pub type "]
                .iter()
                .find_map(|start| line.strip_prefix(start))
        })
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// A validator for the definition `name` of the case's schema (under `$defs`, or draft-07's
/// `definitions`).
/// Serves the files a case's relative `$ref`s name (`file://` URLs), as the pipeline serves
/// them from the schema's folder.
struct Files;

impl jsonschema::Retrieve for Files {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let path = uri
            .as_str()
            .strip_prefix("file://")
            .ok_or_else(|| format!("`{uri}` is not a file"))?
            // The cases' file names hold no escape but a space.
            .replace("%20", " ");
        Ok(serde_json::from_str(&std::fs::read_to_string(&path)?)?)
    }
}

/// The validator of definition `name` of `schema`, the `schema.json` of the case in `dir`.
fn validator(schema: &Value, name: &str, dir: &Path) -> jsonschema::Validator {
    let options = || {
        jsonschema::options()
            .with_retriever(Files)
            .with_base_uri(format!("file://{}/schema.json", dir.display()))
    };
    let Some(defs) = ["$defs", "definitions"]
        .into_iter()
        .find(|defs| schema[*defs].get(name).is_some())
    else {
        // The root schema, generated as a definition of its own (`root_schema`).
        return options()
            .build(schema)
            .unwrap_or_else(|e| panic!("schema for `{name}` (the root): {e}"));
    };
    // Only the document's definitions beside the `$ref`: a root with a shape of its own
    // (`root_schema`) would otherwise apply to every definition's instances too.
    let mut root = schema.clone();
    if let Some(map) = root.as_object_mut() {
        map.retain(|k, _| matches!(k.as_str(), "$schema" | "$id") || k == defs);
    }
    // A URI fragment: the pointer token, percent-encoded where the cases' names need it.
    let token = toolcall_contracts::pointer::escape(name)
        .replace('%', "%25")
        .replace(' ', "%20");
    root["$ref"] = Value::from(format!("#/{defs}/{token}"));
    options()
        .build(&root)
        .unwrap_or_else(|e| panic!("schema for `{name}`: {e}"))
}

/// The definition an instance is checked against: its `definition`, else the name of its type
/// (they differ where the pipeline renamed a definition, `D` is `D2`).
fn definition(instance: &Value) -> &str {
    instance["definition"]
        .as_str()
        .or_else(|| instance["type"].as_str())
        .expect("`type` names the type")
}

#[test]
fn every_generating_case_is_compiled_here_with_all_its_types() {
    let mut dirs: Vec<String> = std::fs::read_dir(cases_dir())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().join("expected.rs").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    let mut compiled: Vec<&str> = CASES.iter().map(|(case, _)| *case).collect();
    // A case needing a feature of `toolcall-contracts` (its module says which) is compiled when
    // the feature is on (`--all-features` compiles them all).
    dirs.retain(|d| {
        let source = std::fs::read_to_string(cases_dir().join(d).join("expected.rs")).unwrap();
        let needs = |feature: &str| source.contains(&format!("rt::require_feature!({feature});"));
        (cfg!(feature = "patterns") || !needs("patterns"))
            && (cfg!(feature = "checks") || !needs("checks"))
    });
    compiled.sort_unstable();
    assert_eq!(compiled, dirs, "cases compiled here vs. snapshots");
    for (case, types) in CASES {
        let source = std::fs::read_to_string(cases_dir().join(case).join("expected.rs")).unwrap();
        let mut declared = declared_types(&source);
        declared.sort();
        let mut listed: Vec<String> = types.iter().map(|t| (*t).to_owned()).collect();
        listed.sort();
        assert_eq!(listed, declared, "{case}: the types listed here");
    }
}

#[test]
fn instances_round_trip_or_are_refused_at_their_pointer() {
    let mut failures = Vec::new();
    let (mut valid, mut invalid) = (0, 0);
    for (case, _) in CASES {
        let dir = cases_dir().join(case);
        let read = |name: &str| -> Value {
            let path = dir.join(name);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        };
        let schema = read("schema.json");
        let instances = read("instances.json");
        // Each instance's value as written (a `Value` would round numbers to `f64`).
        let raw_text = std::fs::read_to_string(dir.join("instances.json")).unwrap();
        let raw: BTreeMap<String, Vec<BTreeMap<String, Box<RawValue>>>> =
            serde_json::from_str(&raw_text).unwrap();
        let written =
            |key: &str, index: usize| -> String { raw[key][index]["value"].get().to_owned() };
        let list = |key: &str| instances[key].as_array().cloned().unwrap_or_default();
        let (valid_list, invalid_list) = (list("valid"), list("invalid"));
        assert!(
            !valid_list.is_empty() && !invalid_list.is_empty(),
            "{case}: instances.json needs valid and invalid instances"
        );
        for (index, instance) in valid_list.iter().enumerate() {
            valid += 1;
            let ty = instance["type"].as_str().expect("`type` names the type");
            let value = &instance["value"];
            let what = format!("{case} valid/{index} ({ty})");
            let text = written("valid", index);
            if !validator(&schema, definition(instance), &dir).is_valid(value) {
                failures.push(format!("{what}: the JSON Schema validator refuses it"));
            }
            let Some((outcome, plain)) = decode(case, ty, &text) else {
                panic!("{what}: no type `{ty}` in the case");
            };
            match outcome {
                Ok((encoded, report, checked)) => {
                    // A value built in code is checked as the decoded one was.
                    if checked != Ok(report) {
                        failures.push(format!("{what}: `check` of the decoded value: {checked:?}"));
                    }
                    // Every number as written (and members in any order).
                    if exact(&encoded) != exact(&text) {
                        failures.push(format!("{what}: {text} encodes back as {encoded}"));
                    }
                    if report != 0 {
                        failures.push(format!("{what}: {report} leniencies reported"));
                    }
                    if !plain {
                        failures.push(format!("{what}: serde_json::from_str refuses it"));
                    }
                }
                Err(error) => failures.push(format!("{what}: {text} is refused: {error}")),
            }
        }
        for (index, instance) in invalid_list.iter().enumerate() {
            invalid += 1;
            let ty = instance["type"].as_str().expect("`type` names the type");
            let value = &instance["value"];
            let pointer = instance["pointer"]
                .as_str()
                .expect("`pointer` of the error");
            let what = format!("{case} invalid/{index} ({ty})");
            let text = written("invalid", index);
            if validator(&schema, definition(instance), &dir).is_valid(value) {
                failures.push(format!("{what}: the JSON Schema validator accepts it"));
            }
            let Some((outcome, plain)) = decode(case, ty, &text) else {
                panic!("{what}: no type `{ty}` in the case");
            };
            match outcome {
                Ok((encoded, ..)) => {
                    failures.push(format!("{what}: {text} is accepted as {encoded}"));
                }
                Err(error) if error.pointer != pointer => failures.push(format!(
                    "{what}: {text} is refused at `{}`, expected `{pointer}`: {error}",
                    error.pointer
                )),
                Err(_) => {}
            }
            if plain {
                failures.push(format!("{what}: serde_json::from_str accepts it"));
            }
        }
    }
    println!("{valid} valid and {invalid} invalid instances");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A value built in code breaks the schema the way a decoded one would: `check` refuses it at
/// the same pointer, with the same message, as `decode` refuses its JSON. (The string bounds it
/// breaks are generated with `patterns`.)
#[cfg(feature = "patterns")]
#[test]
fn a_value_built_in_code_is_checked_as_its_json_is_decoded() {
    use toolcall_contracts::{check, CheckError};

    fn refused_at<T: DeserializeOwned + Serialize + std::fmt::Debug>(
        value: &T,
    ) -> (String, String) {
        let json = serde_json::to_vec(value).unwrap();
        let decoded = toolcall_contracts::decode::<T>(&json).expect_err("decode refuses it");
        match check(value) {
            Err(CheckError::Invalid(error)) => {
                assert_eq!(error, decoded, "check and decode disagree");
                (error.pointer, error.message)
            }
            other => panic!("check accepts what decode refuses: {other:?}"),
        }
    }

    // Bounds the generated types check when decoding (`minLength`, `maxLength`, `pattern`).
    let labels = string_bounds::Labels {
        name: string_bounds::Name(String::new()),
        tag: None,
        code: Some("abcd".to_owned()),
        unknown_members: BTreeMap::new(),
    };
    let (pointer, message) = refused_at(&labels);
    assert_eq!(pointer, "/name");
    assert!(
        message.contains("shorter than the minimum length `1`"),
        "{message}"
    );
    let labels = string_bounds::Labels {
        name: string_bounds::Name("ok".to_owned()),
        tag: Some(string_bounds::Tag("Not-a-tag".to_owned())),
        ..labels
    };
    assert_eq!(refused_at(&labels).0, "/tag");
    let labels = string_bounds::Labels {
        tag: Some(string_bounds::Tag("a-tag".to_owned())),
        ..labels
    };
    assert_eq!(refused_at(&labels).0, "/code");

    #[cfg(feature = "checks")]
    {
        // An assertion only the run-time check carries (`not`).
        let name = checked_not::Name {
            first: Some(String::new()),
            unknown_members: BTreeMap::new(),
        };
        assert_eq!(refused_at(&name).0, "/first");
        let name = checked_not::Name {
            first: Some("a".to_owned()),
            ..name
        };
        assert_eq!(check(&name).unwrap(), vec![]);
        // `patternProperties`: a member matching `^x-` must be a string.
        let headers = checked_pattern_properties::Headers(BTreeMap::from([(
            "x-trace".to_owned(),
            serde_json::from_str("1").unwrap(),
        )]));
        assert_eq!(refused_at(&headers).0, "/x-trace");
    }

    let fine = string_bounds::Labels {
        name: string_bounds::Name("ok".to_owned()),
        tag: Some(string_bounds::Tag("a-1".to_owned())),
        code: Some("abc".to_owned()),
        unknown_members: BTreeMap::new(),
    };
    assert_eq!(check(&fine).unwrap(), vec![]);
}

/// A check failing in another file the schema's `$ref`s reach names that file.
#[cfg(feature = "checks")]
#[test]
fn a_check_failing_in_a_sibling_file_names_the_file() {
    let error = toolcall_contracts::decode::<checked_sibling_files::Person>(br#"{"name": "root"}"#)
        .unwrap_err();
    assert_eq!(error.pointer, "/name");
    assert!(
        error
            .message
            .contains("(schema `checked_sibling_files/parts/name.json#/not`)"),
        "{error}"
    );
    let error = toolcall_contracts::decode::<checked_sibling_files::Person>(
        br#"{"name": "ada", "nick": "too long"}"#,
    )
    .unwrap_err();
    assert!(
        error
            .message
            .contains("(schema `checked_sibling_files/parts/nick%20name.json#/maxLength`)"),
        "{error}"
    );
}

#[test]
fn an_unknown_integer_names_the_known_values() {
    let error = serde_json::from_str::<integer_enum::Job>(r#"{"priority": 5}"#).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid value: integer `5`, expected one of `-1`, `0`, `10` (`Priority`) at line 1 column 15"
    );
}

/// `type: number` is a `JsonNumber`: every digit and the form it was written in come back,
/// at any size (`serde_json::Number` would give `9.82492837492349e52` and `1.5`).
#[test]
fn a_number_keeps_every_digit_and_its_form() {
    for text in [
        r#"{"value":98249283749234923498293171823948729348710298301928331}"#,
        r#"{"value":1.50,"values":[1e400,-0.0,2E-7],"scale":null}"#,
        r#"{"value":-18446744073709551616,"scale":1.0000000000000000001}"#,
    ] {
        let decoded = toolcall_contracts::decode::<number_form::Reading>(text.as_bytes())
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(
            String::from_utf8(toolcall_contracts::encode(&decoded.value).unwrap()).unwrap(),
            text
        );
    }
    let error =
        toolcall_contracts::decode::<number_form::Reading>(br#"{"value":"1"}"#).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid type: string \"1\", expected a number at `/value` (line 1, column 13)"
    );
}

/// Runs `decode` on its own thread, failing the test when it has not returned within a minute
/// (a decode whose work grows exponentially with depth never returns: not a speed check).
fn within_a_minute<T: Send + 'static>(
    text: String,
    decode: impl FnOnce(String) -> T + Send + 'static,
) -> T {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || send.send(decode(text)));
    receive
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the decode did not return within a minute")
}

/// The same for a recursive `anyOf` whose objects carry members it does not declare, so that
/// each level keeps its branch aside while it tries the others: the members are kept, every
/// level's.
#[test]
fn an_any_of_holding_itself_decodes_each_level_once() {
    let levels = 60;
    let text = format!(
        "{}1{}",
        r#"{"op":"all","args":["#.repeat(levels),
        r#"],"note":true}"#.repeat(levels)
    );
    let decoded = within_a_minute(text.clone(), |text| {
        toolcall_contracts::decode::<recursive::Term>(text.as_bytes())
    })
    .unwrap_or_else(|e| panic!("{levels} levels: {e}"));
    assert!(decoded.report.is_empty(), "{:?}", decoded.report);
    assert_eq!(
        String::from_utf8(toolcall_contracts::encode(&decoded.value).unwrap()).unwrap(),
        text
    );
    let mut term = &decoded.value;
    let mut depth = 0;
    while let recursive::Term::All(all) = term {
        assert_eq!(all.unknown_members["note"].to_string(), "true");
        depth += 1;
        term = &all.args[0];
    }
    assert_eq!(depth, levels);
    assert!(matches!(term, recursive::Term::Integer(1)));
}

/// A `oneOf` of two structs that both hold the union (boxed), told apart by a required member:
/// each level tries only the branch whose required member is there, so the decode is linear in
/// the depth, valid or not (it doubled per level: 20 levels took 9 s in a debug build).
#[test]
fn boxed_branches_holding_their_union_are_told_apart_by_required_members() {
    let levels = 100;
    let nested = |leaf: &str| {
        format!(
            "{}{leaf}{}",
            r#"{"next":"#.repeat(levels),
            r#","b":1}"#.repeat(levels)
        )
    };
    let text = nested(r#"{"a":1}"#);
    let decoded = within_a_minute(text.clone(), |text| {
        toolcall_contracts::decode::<recursive::Link>(text.as_bytes())
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        String::from_utf8(toolcall_contracts::encode(&decoded.value).unwrap()).unwrap(),
        text
    );
    // The innermost link has neither `a` nor `b`.
    let error = within_a_minute(nested(r#"{"c":1}"#), |text| {
        toolcall_contracts::decode::<recursive::Link>(text.as_bytes())
    })
    .unwrap_err();
    assert!(
        error.message.contains("matches no variant of `Link`"),
        "{error}"
    );
}

/// A union that buffers its value's text (`Expr`, a recursive `oneOf`) holding itself: serde_json
/// counts the depth of each buffered text from 0 again, yet the input's depth is limited as
/// anywhere else (127 levels), and no depth makes the decode recurse without bound.
#[test]
fn a_union_holding_itself_keeps_to_the_depth_limit() {
    let nested = |levels: usize| {
        format!(
            "{}1{}",
            r#"{"op":"neg","arg":"#.repeat(levels),
            "}".repeat(levels)
        )
    };
    // Up to the limit: each level decodes its branches once (decoding the chosen one again
    // doubled the work per level: 2^126 decodes, which would never finish).
    for levels in [10, 126] {
        let text = nested(levels);
        let decoded = within_a_minute(text.clone(), |text| {
            toolcall_contracts::decode::<recursive::Expr>(text.as_bytes())
        })
        .unwrap_or_else(|e| panic!("{levels} levels: {e}"));
        assert_eq!(
            String::from_utf8(toolcall_contracts::encode(&decoded.value).unwrap()).unwrap(),
            text
        );
    }
    for levels in [128, 200, 1_000, 50_000] {
        let text = nested(levels);
        let error = toolcall_contracts::decode::<recursive::Expr>(text.as_bytes()).unwrap_err();
        assert!(
            matches!(
                error.limit,
                Some(toolcall_contracts::policy::LimitError::TooDeep { limit: 127, .. })
            ),
            "{levels} levels: {error}"
        );
        // Plain serde refuses it too, without running out of stack.
        assert!(serde_json::from_str::<recursive::Expr>(&text).is_err());
    }
}
