//! `$schema`: the dialects the policy compiles (draft-07, 2019-09, 2020-12, a schema without
//! `$schema` being 2020-12), each compiled and checked as itself; unknown dialects refused by
//! name (`jsonschema`'s `validator_for` would fetch an unknown meta-schema and `meta::is_valid`
//! panics on one); narrowing the allow-list; one dialect per schema.

use serde_json::{json, Value};
use toolcall_contracts::policy::{
    CompiledSchema, Dialect, InstanceError, PolicyError, SchemaPolicy, DIALECT_2019_09,
    DIALECT_2020_12, DIALECT_DRAFT_07,
};

use crate::{assert_fast, def_ref, defs, each_dialect, in_dialect, tuple};

fn compile(policy: &SchemaPolicy, schema: &Value) -> Result<CompiledSchema, PolicyError> {
    assert_fast("compile", || policy.compile(schema))
}

#[test]
fn unknown_dialects_are_refused_by_name() {
    let policy = SchemaPolicy::default();
    for dialect in [
        "http://json-schema.org/draft-04/schema#",
        "http://json-schema.org/draft-06/schema#",
        "https://json-schema.org/draft-07/schema#",
        "http://json-schema.org/draft/2019-09/schema",
        "http://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/schema",
        "https://example.com/my-dialect",
        "",
    ] {
        let schema = json!({"$schema": dialect, "type": "object"});
        assert_eq!(
            compile(&policy, &schema).unwrap_err(),
            PolicyError::DialectNotAllowed {
                dialect: dialect.into(),
                pointer: String::new(),
            }
        );
    }
    let refused = compile(&policy, &json!({"$schema": 5})).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "`$schema` `5` at `` is not in `allowed_dialects`"
    );
}

#[test]
fn each_dialect_by_its_uri_with_or_without_fragment() {
    let policy = SchemaPolicy::default();
    assert_eq!(policy.allowed_dialects, Dialect::ALL);
    for (dialect, uri) in [
        (Dialect::Draft07, DIALECT_DRAFT_07),
        (Dialect::Draft201909, DIALECT_2019_09),
        (Dialect::Draft202012, DIALECT_2020_12),
    ] {
        assert_eq!(dialect.uri(), uri);
        let bare = uri.trim_end_matches('#');
        for written in [bare.to_owned(), format!("{bare}#")] {
            let compiled = compile(&policy, &json!({"$schema": written})).unwrap();
            assert_eq!(compiled.dialect(), dialect, "{written}");
        }
    }
    let implied = compile(&policy, &json!({"type": "object"})).unwrap();
    assert_eq!(implied.dialect(), Dialect::Draft202012);
}

#[test]
fn the_allow_list_narrows() {
    let only_2020_12 = SchemaPolicy::default().with_allowed_dialects([Dialect::Draft202012]);
    assert!(compile(&only_2020_12, &json!({"type": "object"})).is_ok());
    assert!(compile(&only_2020_12, &json!({"$schema": DIALECT_2020_12})).is_ok());
    for uri in [
        DIALECT_DRAFT_07,
        "http://json-schema.org/draft-07/schema",
        DIALECT_2019_09,
    ] {
        assert_eq!(
            compile(&only_2020_12, &json!({"$schema": uri})).unwrap_err(),
            PolicyError::DialectNotAllowed {
                dialect: uri.into(),
                pointer: String::new(),
            }
        );
    }

    let only_draft_07 = SchemaPolicy::default().with_allowed_dialects([Dialect::Draft07]);
    assert!(compile(&only_draft_07, &json!({"$schema": DIALECT_DRAFT_07})).is_ok());
    let refused = compile(&only_draft_07, &json!({"type": "object"})).unwrap_err();
    assert_eq!(
        refused,
        PolicyError::DefaultDialectNotAllowed {
            dialect: DIALECT_2020_12
        }
    );
    assert_eq!(
        refused.to_string(),
        "schema has no `$schema`, so it is `https://json-schema.org/draft/2020-12/schema`, which \
         is not in `allowed_dialects`"
    );

    let none = SchemaPolicy::default().with_allowed_dialects([]);
    each_dialect(|dialect| {
        assert!(compile(&none, &json!({"$schema": dialect.uri()})).is_err());
    });
}

#[test]
fn one_dialect_per_schema() {
    let policy = SchemaPolicy::default();
    // An unknown nested dialect.
    let schema = json!({
        "$schema": DIALECT_2020_12,
        "$defs": {"old": {"$schema": "http://json-schema.org/draft-04/schema#"}},
    });
    assert_eq!(
        compile(&policy, &schema).unwrap_err(),
        PolicyError::DialectNotAllowed {
            dialect: "http://json-schema.org/draft-04/schema#".into(),
            pointer: "/$defs/old".into(),
        }
    );
    // Another allowed dialect below the root: `jsonschema` would compile that subschema as the
    // other draft, whose keywords the policy's walk would not be reading.
    let schema = json!({
        "$schema": DIALECT_DRAFT_07,
        "properties": {"a": {"$schema": DIALECT_2020_12, "prefixItems": [{"type": "string"}]}},
    });
    let refused = compile(&policy, &schema).unwrap_err();
    assert_eq!(
        refused,
        PolicyError::MixedDialects {
            dialect: DIALECT_2020_12.into(),
            pointer: "/properties/a".into(),
            root: Dialect::Draft07,
        }
    );
    assert_eq!(
        refused.to_string(),
        "`$schema` `https://json-schema.org/draft/2020-12/schema` at `/properties/a` is not the \
         root's dialect `draft-07`"
    );
    let implied = json!({"items": {"$schema": DIALECT_2019_09}});
    assert!(matches!(
        compile(&policy, &implied),
        Err(PolicyError::MixedDialects {
            root: Dialect::Draft202012,
            ..
        })
    ));
    // Narrowed out below the root: not allowed at all.
    let only_draft_07 = SchemaPolicy::default().with_allowed_dialects([Dialect::Draft07]);
    assert!(matches!(
        compile(&only_draft_07, &schema),
        Err(PolicyError::DialectNotAllowed { pointer, .. }) if pointer == "/properties/a"
    ));
    // The root's own dialect below it, written either way, is fine.
    each_dialect(|dialect| {
        let bare = dialect.uri().trim_end_matches('#');
        let schema = in_dialect(
            dialect,
            json!({"properties": {"a": {"$schema": format!("{bare}#"), "type": "string"}}}),
        );
        let compiled = compile(&policy, &schema).unwrap();
        assert!(compiled.check(&json!({"a": 1})).is_err());
    });
}

/// The same keywords mean what each dialect says (as `jsonschema` compiles each draft), so the
/// verdicts differ.
#[test]
fn each_schema_compiles_as_its_own_dialect() {
    let policy = SchemaPolicy::default();
    let invalid_at = |compiled: &CompiledSchema, instance: Value, keyword: &str| match compiled
        .check(&instance)
    {
        Err(InstanceError::Invalid { keyword: found, .. }) => assert_eq!(found, keyword),
        other => panic!("{instance}: {other:?}"),
    };

    // Tuples: `items` + `additionalItems` before 2020-12, `prefixItems` + `items` in 2020-12.
    each_dialect(|dialect| {
        let (rest, refusal) = if dialect == Dialect::Draft202012 {
            ("items", "falseSchema")
        } else {
            ("additionalItems", "additionalItems")
        };
        let schema = in_dialect(
            dialect,
            json!({tuple(dialect): [{"type": "integer"}], rest: false}),
        );
        let compiled = compile(&policy, &schema).unwrap();
        assert_eq!(compiled.check(&json!([1])), Ok(()));
        invalid_at(&compiled, json!(["x"]), "type");
        invalid_at(&compiled, json!([1, 2]), refusal);
    });
    // The draft-07 tuple is no 2020-12 schema, and `prefixItems` no draft-07 keyword.
    assert!(matches!(
        compile(&policy, &json!({"items": [{"type": "integer"}]})),
        Err(PolicyError::Invalid { pointer, .. }) if pointer == "/items"
    ));
    let draft_07 = json!({"$schema": DIALECT_DRAFT_07, "prefixItems": [{"type": "integer"}]});
    assert_eq!(
        compile(&policy, &draft_07).unwrap().check(&json!(["x"])),
        Ok(())
    );

    // `$ref` replaces its siblings in draft-07, and sits beside them after.
    each_dialect(|dialect| {
        let schema = in_dialect(
            dialect,
            json!({
                defs(dialect): {"s": {"type": "string"}},
                "properties": {"a": {"$ref": def_ref(dialect, "s"), "maxLength": 2}},
            }),
        );
        let verdict = compile(&policy, &schema)
            .unwrap()
            .check(&json!({"a": "long"}));
        assert_eq!(verdict.is_ok(), dialect == Dialect::Draft07, "{verdict:?}");
    });

    // `unevaluatedProperties` arrived in 2019-09.
    each_dialect(|dialect| {
        let schema = in_dialect(dialect, json!({"unevaluatedProperties": false}));
        let verdict = compile(&policy, &schema).unwrap().check(&json!({"x": 1}));
        assert_eq!(verdict.is_ok(), dialect == Dialect::Draft07, "{verdict:?}");
    });

    // `dependencies` (draft-07's, deprecated later) applies in every dialect, as `jsonschema`
    // compiles it; `dependentRequired` from 2019-09 on.
    each_dialect(|dialect| {
        let schema = in_dialect(
            dialect,
            json!({"dependencies": {"a": ["b"], "c": {"required": ["d"]}}}),
        );
        let compiled = compile(&policy, &schema).unwrap();
        assert_eq!(compiled.check(&json!({"a": 1, "b": 2})), Ok(()));
        invalid_at(&compiled, json!({"a": 1}), "required");
        invalid_at(&compiled, json!({"c": 1}), "required");
        let schema = in_dialect(dialect, json!({"dependentRequired": {"a": ["b"]}}));
        let verdict = compile(&policy, &schema).unwrap().check(&json!({"a": 1}));
        assert_eq!(verdict.is_ok(), dialect == Dialect::Draft07, "{verdict:?}");
    });

    // Formats are annotations in every dialect (draft-07 validators may assert them).
    each_dialect(|dialect| {
        let schema = in_dialect(
            dialect,
            json!({"properties": {"a": {"format": "email"}, "b": {"format": "uri"}}}),
        );
        let compiled = compile(&policy, &schema).unwrap();
        assert_eq!(
            compiled.check(&json!({"a": "not an address", "b": "not a uri"})),
            Ok(())
        );
    });

    // 2019-09's `$recursiveRef` recurses to the root (cycles allowed here).
    let schema = json!({
        "$schema": DIALECT_2019_09,
        "$recursiveAnchor": true,
        "type": "array",
        "items": {"$recursiveRef": "#"},
    });
    let compiled = compile(&SchemaPolicy::default().with_ref_cycles(true), &schema).unwrap();
    assert_eq!(compiled.check(&json!([[], [[]]])), Ok(()));
    invalid_at(&compiled, json!([[1]]), "type");
}

/// A reference keyword of one dialect is an unknown keyword in another: `jsonschema` does not
/// follow it there, and neither does the policy.
#[test]
fn a_reference_keyword_of_another_dialect_is_no_reference() {
    let policy = SchemaPolicy::default();
    let remote = "https://example.com/schema.json";
    each_dialect(|dialect| {
        let dynamic = in_dialect(dialect, json!({"items": {"$dynamicRef": remote}}));
        let recursive = in_dialect(dialect, json!({"items": {"$recursiveRef": remote}}));
        let (dynamic, recursive) = (compile(&policy, &dynamic), compile(&policy, &recursive));
        match dialect {
            Dialect::Draft07 => {
                assert_eq!(dynamic.unwrap().check(&json!([1])), Ok(()));
                assert_eq!(recursive.unwrap().check(&json!([1])), Ok(()));
            }
            Dialect::Draft201909 => {
                assert_eq!(dynamic.unwrap().check(&json!([1])), Ok(()));
                assert!(matches!(
                    recursive,
                    Err(PolicyError::NonLocalRef {
                        keyword: "$recursiveRef",
                        ..
                    })
                ));
            }
            _ => {
                assert!(matches!(
                    dynamic,
                    Err(PolicyError::NonLocalRef {
                        keyword: "$dynamicRef",
                        ..
                    })
                ));
                assert_eq!(recursive.unwrap().check(&json!([1])), Ok(()));
            }
        }
    });
}
