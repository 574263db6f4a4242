//! A recursive `anyOf` whose two branches both descend: `validate` on a failing instance
//! explores both branches at every level, so time and memory double with each level of
//! instance depth. Refused as a cycle by default, in each dialect and through each reference
//! keyword (`$ref`; 2020-12 `$dynamicRef`; 2019-09 `$recursiveRef`, which always leads to the
//! root), and so is a cycle that never descends (through `$ref` or `dependencies`); with cycles
//! allowed, bounded only by the instance depth limit. A cycle that applies each subschema once
//! per value (a list of itself, a tree model, through `items`, tuples or `additionalItems`)
//! costs linear time and is accepted by default (issue 22).

use serde_json::{json, Value};
use toolcall_contracts::policy::{
    CycleCost, DecodeLimits, Dialect, InstanceError, LimitError, PolicyError, SchemaPolicy,
    DIALECT_2019_09,
};

use crate::{
    assert_fast, def_pointer, def_ref, defs, drop_deep, each_dialect, in_dialect, nested_arrays,
};

fn two_branches(dialect: Dialect) -> Value {
    let node = def_ref(dialect, "n");
    in_dialect(
        dialect,
        json!({
            defs(dialect): {"n": {"anyOf": [
                {"type": "array", "items": {"$ref": node}},
                {"type": "array", "items": {"$ref": node}, "minItems": 1},
            ]}},
            "$ref": node,
        }),
    )
}

/// The same through 2019-09's `$recursiveRef`.
fn two_recursive_branches() -> Value {
    json!({
        "$schema": DIALECT_2019_09,
        "$recursiveAnchor": true,
        "anyOf": [
            {"type": "array", "items": {"$recursiveRef": "#"}},
            {"type": "array", "items": {"$recursiveRef": "#"}, "minItems": 1},
        ],
    })
}

#[test]
fn refused_as_a_cycle_by_default() {
    each_dialect(|dialect| {
        let refused = assert_fast("compile", || {
            SchemaPolicy::default().compile(&two_branches(dialect))
        });
        let refused = refused.unwrap_err();
        let node = def_pointer(dialect, "n");
        assert_eq!(
            refused,
            PolicyError::RefCycle {
                keyword: "$ref",
                pointer: format!("{node}/anyOf/0/items/$ref"),
                target: node.clone(),
                why: CycleCost::Exponential,
            }
        );
        assert_eq!(
            refused.to_string(),
            format!(
                "`$ref` at `{node}/anyOf/0/items/$ref` leads back to `{node}`, a cycle that can \
                 apply one subschema to one value along two paths (validation time can double \
                 with each level of the instance); `SchemaPolicy::with_ref_cycles(true)` allows \
                 it (validation then bounded by `max_instance_depth` and `max_check_work`)"
            )
        );
    });
}

#[test]
fn every_reference_keyword_cycles_too() {
    // A list of itself through `$dynamicRef` or `$recursiveRef`: linear, accepted.
    let schema = json!({"$dynamicAnchor": "node", "items": {"$dynamicRef": "#node"}});
    assert_fast("compile", || SchemaPolicy::default().compile(&schema)).unwrap();
    let schema = json!({"$schema": DIALECT_2019_09, "items": {"$recursiveRef": "#"}});
    assert_fast("compile", || SchemaPolicy::default().compile(&schema)).unwrap();
    // Two branches through each: refused.
    let schema = json!({"$dynamicAnchor": "node", "anyOf": [
        {"items": {"$dynamicRef": "#node"}},
        {"items": {"$dynamicRef": "#node"}, "minItems": 1},
    ]});
    assert!(matches!(
        assert_fast("compile", || SchemaPolicy::default().compile(&schema)),
        Err(PolicyError::RefCycle {
            keyword: "$dynamicRef",
            why: CycleCost::Exponential,
            ..
        })
    ));
    let refused = assert_fast("compile", || {
        SchemaPolicy::default().compile(&two_recursive_branches())
    });
    assert_eq!(
        refused.unwrap_err(),
        PolicyError::RefCycle {
            keyword: "$recursiveRef",
            pointer: "/anyOf/0/items/$recursiveRef".into(),
            target: String::new(),
            why: CycleCost::Exponential,
        }
    );
    // A reference to itself in place never descends.
    each_dialect(|dialect| {
        let schema = in_dialect(dialect, json!({"$ref": "#"}));
        assert!(matches!(
            assert_fast("compile", || SchemaPolicy::default().compile(&schema)),
            Err(PolicyError::RefCycle {
                why: CycleCost::NoDescent,
                ..
            })
        ));
    });
}

#[test]
fn every_applicator_cycles_too() {
    each_dialect(|dialect| {
        let node = def_ref(dialect, "n");
        // In place (`dependencies` applies to the same object): never descends, refused.
        let schema = in_dialect(
            dialect,
            json!({defs(dialect): {"n": {"dependencies": {"a": {"$ref": node}}}}, "$ref": node}),
        );
        let refused = assert_fast("dependencies", || SchemaPolicy::default().compile(&schema));
        assert!(
            matches!(&refused, Err(PolicyError::RefCycle { target, why: CycleCost::NoDescent, .. }) if *target == def_pointer(dialect, "n")),
            "dependencies: {refused:?}"
        );
        // Into items (a tuple, `additionalItems`): one path per value, accepted.
        let mut through = vec![("tuple", json!({crate::tuple(dialect): [{"$ref": node}]}))];
        if dialect != Dialect::Draft202012 {
            through.push((
                "additionalItems",
                json!({"items": [{}], "additionalItems": {"$ref": node}}),
            ));
        }
        for (label, applicator) in through {
            let schema = in_dialect(
                dialect,
                json!({defs(dialect): {"n": applicator}, "$ref": node}),
            );
            let compiled = assert_fast(label, || SchemaPolicy::default().compile(&schema));
            assert!(compiled.is_ok(), "{label}: {compiled:?}");
        }
    });
}

#[test]
fn recursive_ref_is_only_the_root() {
    let schema = json!({"$schema": DIALECT_2019_09, "items": {"$recursiveRef": "#/items"}});
    let refused = assert_fast("compile", || {
        SchemaPolicy::default()
            .with_ref_cycles(true)
            .compile(&schema)
    })
    .unwrap_err();
    assert_eq!(
        refused,
        PolicyError::RecursiveRefNotRoot {
            reference: "#/items".into(),
            pointer: "/items/$recursiveRef".into(),
        }
    );
    assert_eq!(
        refused.to_string(),
        "`$recursiveRef` `#/items` at `/items/$recursiveRef` is not `#`"
    );
}

#[test]
fn with_cycles_allowed_the_instance_depth_bounds_it() {
    let policy = SchemaPolicy::default()
        .with_ref_cycles(true)
        .with_max_instance_depth(10);
    let schemas = Dialect::ALL
        .into_iter()
        .map(|dialect| (dialect.name(), two_branches(dialect)))
        .chain([("2019-09 $recursiveRef", two_recursive_branches())]);
    for (label, schema) in schemas {
        let compiled = assert_fast("compile", || policy.compile(&schema)).unwrap();

        // Within the depth limit: a failing leaf makes both branches descend at every level.
        let shallow = nested_arrays(10, json!("leaf"));
        let start = std::time::Instant::now();
        let verdict = assert_fast("depth 10", || compiled.check(&shallow));
        eprintln!(
            "recursive anyOf ({label}), cycles allowed, depth 10: {:?}",
            start.elapsed()
        );
        assert!(
            matches!(verdict, Err(InstanceError::Invalid { ref keyword, .. }) if keyword == "anyOf"),
            "{label}: {verdict:?}"
        );

        // Past it: refused before validation starts, however deep (no stack overflow either).
        for depth in [11, 64, 100_000] {
            let deep = nested_arrays(depth, json!("leaf"));
            assert_eq!(
                assert_fast("deep", || compiled.check(&deep)),
                Err(InstanceError::TooDeep {
                    depth: 11,
                    limit: 10
                }),
                "{label}"
            );
            drop_deep(deep);
        }
    }

    // The same instance as JSON text is refused before it is parsed.
    let text = format!("{}\"leaf\"{}", "[".repeat(100_000), "]".repeat(100_000));
    let limits = DecodeLimits::default();
    assert_eq!(
        assert_fast("decode limits", || limits.check(text.as_bytes())),
        Err(LimitError::TooDeep {
            depth: 65,
            limit: 64,
            offset: 64
        })
    );
}
