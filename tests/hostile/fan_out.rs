//! Definitions that fan out: each level applies the one below twice, through `allOf` + `$ref`
//! pairs or any other applicator of the dialect (`items` tuples, `additionalItems`,
//! `dependencies`, `dependentSchemas`, `properties`, `if`/`then`...). 1.5 to 2.5 KB of schema
//! expands to 2^30 subschemas (`jsonschema` alone takes seconds per integer on fewer levels).
//! The expansion count is memoized over the reference graph, so the refusal is immediate; a
//! few levels compile, and their expanded size shows the walk counts what each applicator
//! applies.

use serde_json::{json, Map, Value};
use toolcall_contracts::policy::{Dialect, PolicyError, SchemaPolicy};

use crate::{def_ref, defs, each_dialect, in_dialect, tuple};

use crate::assert_fast;

/// `levels` definitions `d1..` each applying the one below twice through `twice(down)`, above
/// `d0 = bottom`, in `dialect`; the root refers to the top one.
fn fan_out(
    dialect: Dialect,
    levels: usize,
    reference: impl Fn(usize) -> String,
    twice: impl Fn(&str) -> Value,
    extra: impl Fn(usize) -> Value,
) -> Value {
    let mut definitions = Map::new();
    let mut bottom = json!({"type": "integer"});
    merge(&mut bottom, extra(0));
    definitions.insert("d0".into(), bottom);
    for level in 1..=levels {
        let mut def = twice(&reference(level - 1));
        merge(&mut def, extra(level));
        definitions.insert(format!("d{level}"), def);
    }
    in_dialect(
        dialect,
        json!({defs(dialect): definitions, "$ref": reference(levels)}),
    )
}

fn merge(into: &mut Value, extra: Value) {
    if let (Value::Object(into), Value::Object(extra)) = (into, extra) {
        into.extend(extra);
    }
}

fn all_of(down: &str) -> Value {
    json!({"allOf": [{"$ref": down}, {"$ref": down}]})
}

fn by_pointer(dialect: Dialect, levels: usize, twice: impl Fn(&str) -> Value) -> Value {
    fan_out(
        dialect,
        levels,
        |level| def_ref(dialect, &format!("d{level}")),
        twice,
        |_| json!({}),
    )
}

fn refused_as_too_large(schema: &Value) {
    assert!(serde_json::to_vec(schema).unwrap().len() < 4096);
    let refused = assert_fast("fan-out", || SchemaPolicy::default().compile(schema)).unwrap_err();
    let PolicyError::ExpandedTooLarge { size, limit } = refused else {
        panic!("{refused:?}");
    };
    assert_eq!(limit, SchemaPolicy::DEFAULT_MAX_EXPANDED_SIZE);
    assert!(size > limit);
}

#[test]
fn thirty_levels_by_pointer() {
    each_dialect(|dialect| {
        let schema = by_pointer(dialect, 30, all_of);
        assert!(serde_json::to_vec(&schema).unwrap().len() < 2560);
        refused_as_too_large(&schema);
    });
}

#[test]
fn thirty_levels_by_anchor() {
    each_dialect(|dialect| {
        let schema = fan_out(
            dialect,
            30,
            |level| format!("#d{level}"),
            all_of,
            |level| json!({"$anchor": format!("d{level}")}),
        );
        if dialect == Dialect::Draft07 {
            // No `$anchor` in draft-07: `#d30` names nothing.
            let refused = assert_fast("fan-out", || SchemaPolicy::default().compile(&schema));
            assert!(
                matches!(refused, Err(PolicyError::UnresolvedRef { .. })),
                "{refused:?}"
            );
        } else {
            refused_as_too_large(&schema);
        }
    });
}

#[test]
fn a_few_levels_compile_and_validate() {
    each_dialect(|dialect| {
        let schema = by_pointer(dialect, 8, all_of);
        let compiled = assert_fast("compile", || SchemaPolicy::default().compile(&schema)).unwrap();
        assert!(compiled.expanded_size() > 256);
        assert_eq!(assert_fast("check", || compiled.check(&json!(1))), Ok(()));
        assert!(assert_fast("check", || compiled.check(&json!("x"))).is_err());
    });
}

/// Builds one level of a fan-out in a dialect, given the reference to the level below.
type Twice = Box<dyn Fn(Dialect, &str) -> Value>;

/// Each applicator that can apply one definition twice, with the dialects that have it (as
/// `jsonschema` compiles them: `dependencies` and `additionalItems` in every draft).
fn doublers() -> Vec<(&'static str, Vec<Dialect>, Twice)> {
    let all = Dialect::ALL.to_vec();
    let before_2020_12 = vec![Dialect::Draft07, Dialect::Draft201909];
    let since_2019_09 = vec![Dialect::Draft201909, Dialect::Draft202012];
    vec![
        (
            "tuple",
            all.clone(),
            Box::new(|dialect, down| json!({tuple(dialect): [{"$ref": down}, {"$ref": down}]})),
        ),
        (
            "items tuple and additionalItems",
            before_2020_12,
            Box::new(
                |_, down| json!({"items": [{"$ref": down}], "additionalItems": {"$ref": down}}),
            ),
        ),
        (
            "dependencies",
            all.clone(),
            Box::new(|_, down| json!({"dependencies": {"a": {"$ref": down}, "b": {"$ref": down}}})),
        ),
        (
            "dependentSchemas",
            since_2019_09.clone(),
            Box::new(
                |_, down| json!({"dependentSchemas": {"a": {"$ref": down}, "b": {"$ref": down}}}),
            ),
        ),
        (
            "properties",
            all.clone(),
            Box::new(|_, down| json!({"properties": {"a": {"$ref": down}, "b": {"$ref": down}}})),
        ),
        (
            "if and then",
            all.clone(),
            Box::new(|_, down| json!({"if": {"$ref": down}, "then": {"$ref": down}})),
        ),
        (
            "items and contains",
            all.clone(),
            Box::new(|_, down| json!({"items": {"$ref": down}, "contains": {"$ref": down}})),
        ),
        (
            "additionalProperties and propertyNames",
            all,
            Box::new(
                |_, down| json!({"additionalProperties": {"$ref": down}, "propertyNames": {"$ref": down}}),
            ),
        ),
        (
            "unevaluatedProperties and unevaluatedItems",
            since_2019_09,
            Box::new(
                |_, down| json!({"unevaluatedProperties": {"$ref": down}, "unevaluatedItems": {"$ref": down}}),
            ),
        ),
    ]
}

#[test]
fn every_applicator_of_every_dialect_is_counted() {
    for (label, dialects, twice) in doublers() {
        for dialect in dialects {
            eprintln!("-- {label} in {dialect}");
            let make = |levels| by_pointer(dialect, levels, |down| twice(dialect, down));
            refused_as_too_large(&make(30));
            let compiled = assert_fast("compile", || SchemaPolicy::default().compile(&make(8)))
                .unwrap_or_else(|error| panic!("{label} in {dialect}: {error}"));
            assert!(
                compiled.expanded_size() > 256,
                "{label} in {dialect}: {}",
                compiled.expanded_size()
            );
        }
    }
}

/// `jsonschema` applies `dependencies` in 2020-12 too (the 2020-12 meta-schema keeps it,
/// deprecated): the walk must count it there, or a fan-out under it would escape the bound.
#[test]
fn jsonschema_applies_dependencies_in_2020_12() {
    let schema = json!({"dependencies": {"a": {"required": ["b"]}}});
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    assert!(!validator.is_valid(&json!({"a": 1})));
    assert!(validator.is_valid(&json!({"a": 1, "b": 2})));
}
