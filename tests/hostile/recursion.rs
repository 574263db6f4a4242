//! A recursive `anyOf` whose two branches both descend: `validate` on a failing instance
//! explores both branches at every level, so time and memory double with each level of
//! instance depth. Refused as a cycle by default, in each dialect and through each reference
//! keyword (`$ref`; 2020-12 `$dynamicRef`; 2019-09 `$recursiveRef`, which always leads to the
//! root) and each applicator (draft-07 tuples, `additionalItems`, `dependencies`); with cycles
//! allowed, bounded only by the instance depth limit.

use serde_json::{json, Value};
use toolcall_contracts::policy::{
    DecodeLimits, Dialect, InstanceError, LimitError, PolicyError, SchemaPolicy, DIALECT_2019_09,
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
            }
        );
        assert_eq!(
            refused.to_string(),
            format!(
                "`$ref` at `{node}/anyOf/0/items/$ref` leads back to `{node}`, a cycle, and \
                 `allow_ref_cycles` is off"
            )
        );
    });
}

#[test]
fn every_reference_keyword_cycles_too() {
    let schema = json!({"$dynamicAnchor": "node", "items": {"$dynamicRef": "#node"}});
    assert!(matches!(
        assert_fast("compile", || SchemaPolicy::default().compile(&schema)),
        Err(PolicyError::RefCycle {
            keyword: "$dynamicRef",
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
        }
    );
    // Without `$recursiveAnchor` it still leads to the root.
    let schema = json!({"$schema": DIALECT_2019_09, "items": {"$recursiveRef": "#"}});
    assert!(matches!(
        assert_fast("compile", || SchemaPolicy::default().compile(&schema)),
        Err(PolicyError::RefCycle {
            keyword: "$recursiveRef",
            ..
        })
    ));
    each_dialect(|dialect| {
        let schema = in_dialect(dialect, json!({"$ref": "#"}));
        assert!(matches!(
            assert_fast("compile", || SchemaPolicy::default().compile(&schema)),
            Err(PolicyError::RefCycle { .. })
        ));
    });
}

#[test]
fn every_applicator_cycles_too() {
    each_dialect(|dialect| {
        let node = def_ref(dialect, "n");
        let mut through = vec![
            (
                "dependencies",
                json!({"dependencies": {"a": {"$ref": node}}}),
            ),
            ("tuple", json!({crate::tuple(dialect): [{"$ref": node}]})),
        ];
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
            let refused = assert_fast(label, || SchemaPolicy::default().compile(&schema));
            assert!(
                matches!(&refused, Err(PolicyError::RefCycle { target, .. }) if *target == def_pointer(dialect, "n")),
                "{label}: {refused:?}"
            );
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
