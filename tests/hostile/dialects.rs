//! `$schema` values outside the allow-list. `jsonschema`'s `validator_for` would fetch an
//! unknown meta-schema and `meta::is_valid` panics on one; the policy refuses them first and
//! always compiles as 2020-12.

use serde_json::{json, Value};
use toolcall_contracts::policy::{PolicyError, SchemaPolicy, DIALECT_2020_12};

use crate::assert_fast;

fn compile(policy: &SchemaPolicy, schema: &Value) -> Result<(), PolicyError> {
    assert_fast("compile", || policy.compile(schema)).map(drop)
}

#[test]
fn unknown_dialects() {
    let policy = SchemaPolicy::default();
    for dialect in [
        "http://json-schema.org/draft-07/schema#",
        "https://json-schema.org/draft/2019-09/schema",
        "https://example.com/my-dialect",
        "http://json-schema.org/draft/2020-12/schema",
        "",
    ] {
        let schema = json!({"$schema": dialect, "type": "object"});
        assert_eq!(
            compile(&policy, &schema),
            Err(PolicyError::DialectNotAllowed {
                dialect: dialect.into(),
                pointer: String::new(),
            })
        );
    }
    let refused = compile(&policy, &json!({"$schema": 5})).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "`$schema` `5` at `` is not in `allowed_dialects`"
    );
}

#[test]
fn nested_dialect() {
    let schema = json!({
        "$schema": DIALECT_2020_12,
        "$defs": {"old": {"$schema": "http://json-schema.org/draft-04/schema#"}},
    });
    assert_eq!(
        compile(&SchemaPolicy::default(), &schema),
        Err(PolicyError::DialectNotAllowed {
            dialect: "http://json-schema.org/draft-04/schema#".into(),
            pointer: "/$defs/old".into(),
        })
    );
}

#[test]
fn the_2020_12_uri_with_or_without_fragment() {
    let policy = SchemaPolicy::default();
    for dialect in [DIALECT_2020_12.to_owned(), format!("{DIALECT_2020_12}#")] {
        assert_eq!(compile(&policy, &json!({"$schema": dialect})), Ok(()));
    }
}

#[test]
fn an_allowed_older_dialect_still_compiles_as_2020_12() {
    let draft7 = "http://json-schema.org/draft-07/schema#";
    let mut policy = SchemaPolicy::default();
    policy.allowed_dialects.push(draft7.to_owned());
    // The draft-07 tuple form of `items` is not a 2020-12 schema.
    let schema = json!({"$schema": draft7, "items": [{"type": "integer"}]});
    assert!(matches!(
        compile(&policy, &schema),
        Err(PolicyError::Invalid { pointer, .. }) if pointer == "/items"
    ));
    // 2020-12 keywords apply.
    let schema = json!({"$schema": draft7, "prefixItems": [{"type": "integer"}]});
    let compiled = policy.compile(&schema).unwrap();
    assert!(compiled.check(&json!(["x"])).is_err());
}
