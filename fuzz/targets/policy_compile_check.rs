//! Untrusted schemas under the default policy: `SchemaPolicy::default().compile(&schema)`, then
//! `compiled.check(&instance)`.
//!
//! Input: UTF-8, the schema as JSON on the first line, the instance as JSON on the rest (`null`
//! when there is no line break). Properties:
//!
//! 1. a refusal (`PolicyError`, `InstanceError`) has a non-empty message;
//! 2. the pin `compile` records is `SchemaPolicy::pin`'s and does not depend on the order of
//!    object members;
//! 3. `check` is deterministic and agrees with a validator built outside the policy with the
//!    same options (`jsonschema` for the draft the policy compiled, offline, formats as
//!    annotations, `regex` engine): valid exactly when it says valid, unless the policy refused
//!    the instance for its depth or work;
//! 4. the pointers of an `InstanceError::Invalid` resolve: the instance pointer in the instance,
//!    the schema pointer (the failing keyword, inside the `$ref` target when a reference led
//!    there) in the schema.

use serde_json::Value;
use toolcall_contracts::policy::{Dialect, InstanceError, SchemaPolicy};

/// Compiles the first line of `data` as a schema and checks the rest against it.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (schema, instance) = text.split_once('\n').unwrap_or((text, "null"));
    let (Ok(schema), Ok(instance)) = (
        serde_json::from_str::<Value>(schema),
        serde_json::from_str::<Value>(instance),
    ) else {
        return;
    };
    let policy = SchemaPolicy::default();
    let compiled = match policy.compile(&schema) {
        Ok(compiled) => compiled,
        Err(error) => {
            assert!(!error.to_string().is_empty(), "empty `PolicyError` message");
            return;
        }
    };
    let pin = policy.pin(&schema).expect("`compile` accepted the schema");
    assert_eq!(compiled.pin(), pin, "`compile` and `pin` disagree");
    assert_eq!(
        policy.pin(&reversed(&schema)).expect("same size and depth"),
        pin,
        "the pin depends on the order of object members"
    );

    let verdict = compiled.check(&instance);
    assert_eq!(
        compiled.check(&instance),
        verdict,
        "`check` is not deterministic"
    );
    let options = match compiled.dialect() {
        Dialect::Draft07 => jsonschema::draft7::options(),
        Dialect::Draft201909 => jsonschema::draft201909::options(),
        _ => jsonschema::draft202012::options(),
    };
    let reference = options
        .offline()
        .should_validate_formats(false)
        .with_pattern_options(
            jsonschema::PatternOptions::regex().size_limit(SchemaPolicy::DEFAULT_MAX_REGEX_BYTES),
        )
        .build(&schema)
        .expect("the policy compiled this schema with the same options");
    match &verdict {
        Ok(()) => assert!(
            reference.is_valid(&instance),
            "`check` accepts an instance the validator refuses"
        ),
        Err(InstanceError::Invalid {
            instance_pointer,
            keyword,
            schema_pointer,
        }) => {
            assert!(
                !reference.is_valid(&instance),
                "`check` refuses (`{keyword}` at `{schema_pointer}`) an instance the validator \
                 accepts"
            );
            assert!(
                instance.pointer(instance_pointer).is_some(),
                "instance pointer `{instance_pointer}` does not resolve in the instance"
            );
            assert!(
                super::roundtrip::is_pointer(schema_pointer),
                "schema pointer `{schema_pointer}` is not an RFC 6901 pointer"
            );
            assert!(
                schema.pointer(schema_pointer).is_some(),
                "schema pointer `{schema_pointer}` does not resolve in the schema"
            );
            assert!(!keyword.is_empty(), "empty keyword");
        }
        Err(error) => assert!(
            !error.to_string().is_empty(),
            "empty `InstanceError` message"
        ),
    }
}

/// `value` with the members of every object in reverse order (a no-op unless serde_json keeps
/// insertion order, which it does here: `toolcall-codegen` enables `preserve_order`).
fn reversed(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(reversed).collect()),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .rev()
                .map(|(name, member)| (name.clone(), reversed(member)))
                .collect(),
        ),
        scalar => scalar.clone(),
    }
}
