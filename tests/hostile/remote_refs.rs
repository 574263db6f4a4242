//! References that leave the schema: remote (`http://`), relative to an `$id`, `file://`, and
//! embedded resources. All are refused before anything is resolved: a listener on localhost
//! sees no connection, and a file's contents never surface.

use std::io::ErrorKind;
use std::net::TcpListener;

use serde_json::{json, Value};
use toolcall_contracts::policy::{PolicyError, SchemaPolicy};

use crate::assert_fast;

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
    let schema = json!({"type": "object", "properties": {"a": {"$ref": url}}});
    assert_eq!(
        compile("remote $ref", &schema),
        Err(PolicyError::NonLocalRef {
            keyword: "$ref",
            reference: url.clone(),
            pointer: "/properties/a/$ref".into(),
        })
    );
    let schema = json!({"$dynamicRef": url});
    assert!(matches!(
        compile("remote $dynamicRef", &schema),
        Err(PolicyError::NonLocalRef {
            keyword: "$dynamicRef",
            ..
        })
    ));
    trap.assert_untouched();
}

#[test]
fn ref_relative_to_id() {
    let trap = Trap::new();
    let schema = json!({"$id": trap.url("root.json"), "$ref": "other.json"});
    let refused = compile("relative $ref", &schema).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "`$ref` `other.json` at `/$ref` is not a fragment reference (`#...`)"
    );
    // A fragment of the root's own `$id` stays in the schema.
    let schema = json!({
        "$id": trap.url("root.json"),
        "$defs": {"n": {"type": "integer"}},
        "$ref": "#/$defs/n",
    });
    let compiled = assert_fast("root $id", || SchemaPolicy::default().compile(&schema)).unwrap();
    assert!(compiled.check(&json!(3)).is_ok());
    assert!(compiled.check(&json!("3")).is_err());
    trap.assert_untouched();
}

#[test]
fn embedded_resource_with_its_own_base() {
    let trap = Trap::new();
    let schema = json!({
        "$defs": {"inner": {"$id": trap.url("inner/"), "$ref": "#/$defs/x", "$defs": {"x": {}}}},
        "$ref": "#/$defs/inner",
    });
    assert_eq!(
        compile("embedded $id", &schema),
        Err(PolicyError::EmbeddedResource {
            pointer: "/$defs/inner".into()
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

    let direct = json!({"properties": {"a": {"$ref": url}}});
    let base = format!("file://{}/", dir.display());
    let relative = json!({"$id": base, "properties": {"a": {"$ref": "secret.json"}}});
    let refusals = [
        compile("file:// $ref", &direct),
        compile("relative to a file:// $id", &relative),
    ];
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
    let schema = json!({"$ref": "https://json-schema.org/draft/2020-12/schema"});
    assert!(matches!(
        compile("meta-schema $ref", &schema),
        Err(PolicyError::NonLocalRef { .. })
    ));
}

#[test]
fn fragment_ref_to_nothing() {
    let schema = json!({"properties": {"a": {"$ref": "#/$defs/missing"}}});
    assert_eq!(
        compile("dangling fragment", &schema)
            .unwrap_err()
            .to_string(),
        "`$ref` `#/$defs/missing` at `/properties/a/$ref` resolves to nothing in the schema"
    );
    let schema = json!({"$ref": "#nowhere"});
    assert!(matches!(
        compile("dangling anchor", &schema),
        Err(PolicyError::UnresolvedRef { .. })
    ));
}
