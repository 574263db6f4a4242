//! References that leave the schema: remote (`http://`), relative to an `$id`, `file://`, and
//! embedded resources, in each dialect and through each reference keyword. All are refused
//! before anything is resolved: a listener on localhost sees no connection, and a file's
//! contents never surface.

use std::io::ErrorKind;
use std::net::TcpListener;

use serde_json::{json, Value};
use toolcall_contracts::policy::{Dialect, PolicyError, SchemaPolicy, DIALECT_2019_09};

use crate::{assert_fast, def_pointer, def_ref, defs, each_dialect, in_dialect};

fn compile(label: &str, schema: &Value) -> Result<(), PolicyError> {
    assert_fast(label, || SchemaPolicy::default().compile(schema)).map(drop)
}

/// A local listener that must never see a connection.
struct Trap(TcpListener);

impl Trap {
    fn new() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a local port");
        listener.set_nonblocking(true).expect("non-blocking");
        Self(listener)
    }
    fn url(&self, path: &str) -> String {
        format!("http://{}/{path}", self.0.local_addr().expect("bound"))
    }
    fn assert_untouched(&self) {
        match self.0.accept() {
            Err(error) if error.kind() == ErrorKind::WouldBlock => {}
            other => panic!("the schema reached the network: {other:?}"),
        }
    }
}

#[test]
fn remote_http_ref() {
    let trap = Trap::new();
    let url = trap.url("schema.json");
    each_dialect(|dialect| {
        let schema = in_dialect(
            dialect,
            json!({"type": "object", "properties": {"a": {"$ref": url}}}),
        );
        assert_eq!(
            compile("remote $ref", &schema),
            Err(PolicyError::NonLocalRef {
                keyword: "$ref",
                reference: url.clone(),
                pointer: "/properties/a/$ref".into(),
            })
        );
    });
    let schema = json!({"$dynamicRef": url});
    assert!(matches!(
        compile("remote $dynamicRef", &schema),
        Err(PolicyError::NonLocalRef {
            keyword: "$dynamicRef",
            ..
        })
    ));
    let schema = json!({"$schema": DIALECT_2019_09, "items": {"$recursiveRef": url}});
    assert_eq!(
        compile("remote $recursiveRef", &schema),
        Err(PolicyError::NonLocalRef {
            keyword: "$recursiveRef",
            reference: url.clone(),
            pointer: "/items/$recursiveRef".into(),
        })
    );
    trap.assert_untouched();
}

#[test]
fn the_dialect_uri_itself_is_never_fetched() {
    let trap = Trap::new();
    each_dialect(|dialect| {
        // Each allowed `$schema` compiles from the bundled meta-schema.
        let schema = json!({"$schema": dialect.uri(), "properties": {"a": {"type": "integer"}}});
        assert_eq!(compile("allowed $schema", &schema), Ok(()));
        // A `$schema` on the trap is refused by name.
        let meta = trap.url(&format!("{}.json", dialect.name()));
        let schema = in_dialect(dialect, json!({"properties": {"a": {"$schema": meta}}}));
        assert!(matches!(
            compile("$schema on the trap", &schema),
            Err(PolicyError::DialectNotAllowed { dialect, .. }) if dialect == meta
        ));
    });
    let schema = json!({"$schema": trap.url("meta.json")});
    assert!(matches!(
        compile("root $schema on the trap", &schema),
        Err(PolicyError::DialectNotAllowed { .. })
    ));
    trap.assert_untouched();
}

#[test]
fn ref_relative_to_id() {
    let trap = Trap::new();
    each_dialect(|dialect| {
        let schema = in_dialect(
            dialect,
            json!({"$id": trap.url("root.json"), "$ref": "other.json"}),
        );
        let refused = compile("relative $ref", &schema).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "`$ref` `other.json` at `/$ref` is not a fragment reference (`#...`)"
        );
        // A fragment of the root's own `$id` stays in the schema.
        let schema = in_dialect(
            dialect,
            json!({
                "$id": trap.url("root.json"),
                defs(dialect): {"n": {"type": "integer"}},
                "$ref": def_ref(dialect, "n"),
            }),
        );
        let compiled =
            assert_fast("root $id", || SchemaPolicy::default().compile(&schema)).unwrap();
        assert!(compiled.check(&json!(3)).is_ok());
        assert!(compiled.check(&json!("3")).is_err());
    });
    trap.assert_untouched();
}

#[test]
fn embedded_resource_with_its_own_base() {
    let trap = Trap::new();
    each_dialect(|dialect| {
        let inner = def_ref(dialect, "inner");
        let schema = in_dialect(
            dialect,
            json!({
                defs(dialect): {"inner": {
                    "$id": trap.url("inner/"),
                    "$ref": def_ref(dialect, "x"),
                    defs(dialect): {"x": {}},
                }},
                "$ref": inner,
            }),
        );
        assert_eq!(
            compile("embedded $id", &schema),
            Err(PolicyError::EmbeddedResource {
                pointer: def_pointer(dialect, "inner"),
            })
        );
    });
    // Draft-07 names a schema with a fragment `$id`: below the root, refused the same way.
    let schema = json!({
        "$schema": Dialect::Draft07.uri(),
        "definitions": {"a": {"$id": "#a", "type": "integer"}},
        "$ref": "#a",
    });
    assert_eq!(
        compile("draft-07 $id anchor", &schema),
        Err(PolicyError::EmbeddedResource {
            pointer: "/definitions/a".into()
        })
    );
    trap.assert_untouched();
}

#[test]
fn file_ref_reads_nothing() {
    let secret = "hostile-catalogue-secret-7f3a9c";
    let dir = std::env::temp_dir().join(format!("toolcall-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create a temporary directory");
    let path = dir.join("secret.json");
    std::fs::write(&path, format!(r#"{{"const": "{secret}"}}"#)).expect("write the secret");
    let url = format!("file://{}", path.display());
    let base = format!("file://{}/", dir.display());

    let mut refusals = Vec::new();
    for dialect in Dialect::ALL {
        let direct = in_dialect(dialect, json!({"properties": {"a": {"$ref": url}}}));
        let relative = in_dialect(
            dialect,
            json!({"$id": base, "properties": {"a": {"$ref": "secret.json"}}}),
        );
        refusals.push(compile("file:// $ref", &direct));
        refusals.push(compile("relative to a file:// $id", &relative));
    }
    std::fs::remove_dir_all(&dir).expect("clean up");
    for refused in refusals {
        let refused = refused.unwrap_err();
        assert!(
            matches!(refused, PolicyError::NonLocalRef { .. }),
            "{refused:?}"
        );
        assert!(!refused.to_string().contains(secret), "{refused}");
        assert!(!format!("{refused:?}").contains(secret), "{refused:?}");
    }
}

#[test]
fn ref_to_the_meta_schema_is_remote_too() {
    each_dialect(|dialect| {
        let schema = in_dialect(dialect, json!({"$ref": dialect.uri()}));
        assert!(matches!(
            compile("meta-schema $ref", &schema),
            Err(PolicyError::NonLocalRef { .. })
        ));
    });
}

#[test]
fn fragment_ref_to_nothing() {
    each_dialect(|dialect| {
        let missing = def_ref(dialect, "missing");
        let schema = in_dialect(dialect, json!({"properties": {"a": {"$ref": missing}}}));
        assert_eq!(
            compile("dangling fragment", &schema)
                .unwrap_err()
                .to_string(),
            format!("`$ref` `{missing}` at `/properties/a/$ref` resolves to nothing in the schema")
        );
        let schema = in_dialect(dialect, json!({"$ref": "#nowhere"}));
        assert!(matches!(
            compile("dangling anchor", &schema),
            Err(PolicyError::UnresolvedRef { .. })
        ));
    });
}
