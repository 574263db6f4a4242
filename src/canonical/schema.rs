//! [`JsonSchema`]: an embedded JSON Schema (draft-07, 2019-09 or 2020-12), checked against its
//! dialect's bundled meta-schema.

use std::fmt;
use std::sync::OnceLock;

use serde_json::Value;

use super::error::ToolContractError;
use crate::policy::Dialect;

/// Deepest nesting of objects and arrays a [`JsonSchema`] may have: 128 levels, the root object
/// being level 1.
///
/// This is `serde_json`'s own parse limit, so a schema decoded from JSON text never reaches it;
/// it bounds a value built in code, whose meta-schema check would otherwise recurse without
/// limit (and overflow the stack, an abort nobody can catch).
pub const MAX_SCHEMA_DEPTH: usize = 128;

/// A JSON Schema with an object at its root, valid against the meta-schema of its dialect.
///
/// The dialect is the one the root's `$schema` names, draft-07, 2019-09 or 2020-12
/// ([`Dialect`]; a trailing `#` makes no difference), and 2020-12 without `$schema` (as MCP
/// 2025-11-25 says of a tool's `inputSchema`). Any other `$schema` is refused by name: there is
/// no meta-schema to check it against. The meta-schemas are the ones bundled in the
/// `jsonschema` crate, used through its per-draft entry points: checking never fetches
/// anything. The check is about the schema's form only: it does not resolve `$ref`s, and says
/// nothing about the cost of validating against the schema (see `crate::policy` for bounds on
/// untrusted schemas).
///
/// On the wire, the schema itself (`$defs/JsonSchema` in
/// `schema/canonical/tool-spec.schema.json`, which checks only the object root):
///
/// ```
/// use serde_json::json;
/// use toolcall_contracts::canonical::{JsonSchema, ToolContractError};
/// use toolcall_contracts::policy::Dialect;
///
/// let schema = JsonSchema::try_new(json!({"type": "object", "required": ["query"]}))?;
/// assert_eq!(schema.as_value()["required"], json!(["query"]));
/// assert_eq!(serde_json::to_value(&schema)?, json!({"type": "object", "required": ["query"]}));
///
/// assert!(matches!(JsonSchema::try_new(json!(true)), Err(ToolContractError::SchemaNotObject { .. })));
/// assert_eq!(
///     serde_json::from_value::<JsonSchema>(json!({"type": 12})).unwrap_err().to_string(),
///     "`schema` is not a valid JSON Schema 2020-12 at `/type`: value is not valid under any of \
///      the schemas listed in the 'anyOf' keyword"
/// );
///
/// // A draft-07 tuple is checked as draft-07; an unknown dialect is refused by name.
/// let draft_07 = json!({
///     "$schema": "http://json-schema.org/draft-07/schema#",
///     "items": [{"type": "string"}],
/// });
/// assert_eq!(JsonSchema::try_new(draft_07)?.dialect(), Dialect::Draft07);
/// assert_eq!(
///     JsonSchema::try_new(json!({"$schema": "http://json-schema.org/draft-04/schema#"}))
///         .unwrap_err()
///         .to_string(),
///     "`schema` has `$schema` `http://json-schema.org/draft-04/schema#`, not draft-07, 2019-09 \
///      or 2020-12"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, serde::Deserialize)]
#[serde(try_from = "Value")]
pub struct JsonSchema {
    value: Value,
    /// The schema's pin (`policy` SHA-256 of its canonical JSON), computed on first use: argument
    /// validation finds the compiled schema by it on every call.
    pin: OnceLock<String>,
}

impl PartialEq for JsonSchema {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl Eq for JsonSchema {}

impl fmt::Debug for JsonSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("JsonSchema").field(&self.value).finish()
    }
}

impl serde::Serialize for JsonSchema {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(serializer)
    }
}

impl JsonSchema {
    /// Checks `value` and wraps it.
    ///
    /// # Errors
    /// Each names the member `schema`; the first failing check, in this order:
    /// - [`ToolContractError::SchemaNotObject`] when `value` is not a JSON object (`true` and
    ///   `false` are schemas, but not object-rooted ones);
    /// - [`ToolContractError::SchemaTooDeep`] when objects and arrays nest more than
    ///   [`MAX_SCHEMA_DEPTH`] levels;
    /// - [`ToolContractError::UnknownDialect`] when the root's `$schema` names no
    ///   [`Dialect`] (draft-04, a custom meta-schema, `http://` for 2020-12's `https://`, a
    ///   number...);
    /// - [`ToolContractError::InvalidSchema`] when `value` breaks its dialect's meta-schema (such
    ///   as `{"type": 12}`), with the pointer of the first offending value.
    pub fn try_new(value: Value) -> Result<Self, ToolContractError> {
        check(&value)?;
        Ok(Self {
            value,
            pin: OnceLock::new(),
        })
    }

    /// The schema.
    #[must_use]
    pub fn as_value(&self) -> &Value {
        &self.value
    }

    /// The schema's dialect: the one its `$schema` names, 2020-12 without one.
    #[must_use]
    pub fn dialect(&self) -> Dialect {
        // `try_new` checked that it names one.
        Dialect::of(&self.value).unwrap_or(Dialect::DEFAULT)
    }

    /// The schema's pin: lowercase hex SHA-256 of its canonical JSON (the key of
    /// [`crate::policy::SchemaCache`]), computed once.
    pub(crate) fn pin(&self) -> &str {
        self.pin
            .get_or_init(|| crate::policy::schema_pin(&self.value))
    }

    /// The schema.
    #[must_use]
    pub fn into_value(self) -> Value {
        self.value
    }

    /// Checks a value decoded from the member `field`.
    pub(crate) fn from_member(
        value: Value,
        field: &'static str,
    ) -> Result<Self, ToolContractError> {
        Self::try_new(value).map_err(|e| e.at(field))
    }
}

impl TryFrom<Value> for JsonSchema {
    type Error = ToolContractError;
    fn try_from(value: Value) -> Result<Self, ToolContractError> {
        Self::try_new(value)
    }
}

impl From<JsonSchema> for Value {
    fn from(schema: JsonSchema) -> Value {
        schema.value
    }
}

const FIELD: &str = "schema";

fn check(value: &Value) -> Result<(), ToolContractError> {
    let found = match value {
        Value::Object(_) => None,
        Value::Array(_) => Some("an array"),
        Value::String(_) => Some("a string"),
        Value::Number(_) => Some("a number"),
        Value::Bool(_) => Some("a boolean"),
        Value::Null => Some("null"),
    };
    if let Some(found) = found {
        return Err(ToolContractError::SchemaNotObject {
            field: FIELD,
            found,
        });
    }
    if deeper_than(value, MAX_SCHEMA_DEPTH) {
        return Err(ToolContractError::SchemaTooDeep {
            field: FIELD,
            max: MAX_SCHEMA_DEPTH,
        });
    }
    let dialect = Dialect::of(value).map_err(|dialect| ToolContractError::UnknownDialect {
        field: FIELD,
        dialect,
    })?;
    // The per-draft meta-schema validators check against the bundled meta-schema whatever
    // `$schema` says: they never resolve a meta-schema, so they never fetch and never panic
    // (unlike `jsonschema::meta::{is_valid, validate}` on an unknown `$schema`).
    dialect
        .check_meta_schema(value)
        .map_err(|error| ToolContractError::InvalidSchema {
            field: FIELD,
            dialect,
            pointer: error.instance_path().to_string(),
            reason: error.masked_with("value").to_string(),
        })
}

/// Whether objects and arrays nest more than `max` levels (the root container is level 1),
/// without recursion.
fn deeper_than(root: &Value, max: usize) -> bool {
    let mut stack = vec![(root, 1_usize)];
    while let Some((value, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Object(map) => Box::new(map.values()),
            Value::Array(items) => Box::new(items.iter()),
            _ => continue,
        };
        if depth > max {
            return true;
        }
        stack.extend(children.map(|child| (child, depth + 1)));
    }
    false
}
