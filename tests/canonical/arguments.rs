//! `ToolSpec::validate_arguments`: size limit, schema policy, first violation, pinned schemas.

use serde_json::{json, Value};
use toolcall_contracts::canonical::{schema_cache, ArgumentsError, ToolSpec};
use toolcall_contracts::policy::{InstanceError, PolicyError};

fn spec(input_schema: Value, max_input_bytes: u64) -> ToolSpec {
    serde_json::from_value(json!({
        "id": "fs", "name": "fs.read", "description": "Read a file",
        "input_schema": input_schema,
        "output_contract": {"success": {"type": "text", "media_type": "text/plain"}},
        "limits": {"max_concurrent": 4, "max_input_bytes": max_input_bytes,
                   "max_output_bytes": 65536, "execution_deadline_ms": 5000},
        "execution_class": {"type": "cooperative_in_process", "grace_ms": 100}
    }))
    .unwrap()
}

fn path_schema() -> Value {
    json!({"type": "object", "required": ["path"], "properties": {"path": {"type": "string", "maxLength": 8}}})
}

#[test]
fn valid_arguments_pass_and_the_first_violation_is_named() {
    let spec = spec(path_schema(), 1024);
    assert_eq!(spec.validate_arguments(&json!({"path": "/tmp/a"})), Ok(()));
    assert_eq!(
        spec.validate_arguments(&json!({"path": "/tmp/too/long"})),
        Err(ArgumentsError::Invalid {
            source: InstanceError::Invalid {
                instance_pointer: "/path".into(),
                keyword: "maxLength".into(),
                schema_pointer: "/properties/path/maxLength".into(),
            }
        })
    );
    assert_eq!(
        spec.validate_arguments(&json!({})).unwrap_err().to_string(),
        "`arguments` are invalid: instance at `` fails `required` at schema `/required`"
    );
}

#[test]
fn size_limit_is_checked_on_compact_json_at_its_boundary() {
    let arguments = json!({"path": "/tmp/a"});
    let bytes = serde_json::to_vec(&arguments).unwrap().len() as u64;
    assert_eq!(
        spec(path_schema(), bytes).validate_arguments(&arguments),
        Ok(())
    );
    let error = spec(path_schema(), bytes - 1)
        .validate_arguments(&arguments)
        .unwrap_err();
    assert_eq!(
        error,
        ArgumentsError::TooLarge {
            bytes,
            limit: bytes - 1
        }
    );
    assert_eq!(
        error.to_string(),
        format!(
            "`arguments` are `{bytes}` bytes as compact JSON, over `max_input_bytes` of `{}`",
            bytes - 1
        )
    );
}

#[test]
fn a_schema_the_policy_refuses_is_named() {
    let remote = spec(
        json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}),
        1024,
    );
    let error = remote.validate_arguments(&json!({"a": 1})).unwrap_err();
    assert!(
        matches!(
            error,
            ArgumentsError::Schema {
                source: PolicyError::NonLocalRef { .. }
            }
        ),
        "{error:?}"
    );
}

#[test]
fn a_pin_selects_the_pinned_schema() {
    let spec = spec(path_schema(), 1024);
    let own = schema_cache()
        .insert(spec.input_schema().as_value())
        .unwrap();
    let older = schema_cache()
        .insert(&json!({"type": "object", "required": ["file"]}))
        .unwrap();
    let arguments = json!({"path": "/tmp/a"});
    assert_eq!(
        spec.validate_arguments_pinned(&arguments, Some(&own)),
        Ok(())
    );
    assert!(matches!(
        spec.validate_arguments_pinned(&arguments, Some(&older)),
        Err(ArgumentsError::Invalid { .. })
    ));
    assert_eq!(
        spec.validate_arguments_pinned(&arguments, Some("00ff")),
        Err(ArgumentsError::UnknownPin { pin: "00ff".into() })
    );
    assert_eq!(spec.validate_arguments_pinned(&arguments, None), Ok(()));
}
