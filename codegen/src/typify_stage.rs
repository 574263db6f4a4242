//! typify as the scalar type mapper, read through its typed API (`TypeSpace::add_type`, then
//! `get_type(..).details()`), never through its token output.
//!
//! The model decides every type with structure (structs, unions, enums, arrays, maps, tuples);
//! typify decides the Rust type of each scalar leaf: `integer` with its `format`, `minimum` and
//! `maximum` (`uint32` is `u32`, `minimum: 0` is `u64`), `boolean`, `string`. Where typify's
//! answer would lose data the model overrides it, and says so here:
//! - `number` is `serde_json::Number`, not typify's `f64`, so that `2` re-encodes as `2` and
//!   `2.0` as `2.0` (pydantic in strict mode refuses `50.0` for an integer);
//! - a `NonZero*` typify picks for `minimum: 1` is the plain integer, the bound checked when
//!   decoding (an error naming the member, not `invalid value: integer 0`);
//! - `string` `format`s are annotations (JSON Schema 2020-12 does not assert them): `String`,
//!   never `chrono`, `uuid` or `IpAddr`, which would refuse values the schema accepts.
//!
//! typify runs under `catch_unwind`: its panics become [`TypifyError::Panicked`] naming the
//! schema.

use std::panic::{self, AssertUnwindSafe};

use schemars::schema::Schema;
use serde_json::{json, Value};
use typify::{TypeDetails, TypeSpace, TypeSpaceSettings};

/// A scalar type typify mapped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scalar {
    /// `bool`.
    Bool,
    /// `String`.
    String,
    /// An integer type: `i8` ... `u64`.
    Int(String),
}

/// Why typify gave no scalar type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TypifyError {
    /// typify refused the schema.
    #[error("typify refused the scalar schema at `{pointer}`: {message}")]
    Refused {
        /// Where the schema is.
        pointer: String,
        /// typify's message.
        message: String,
    },
    /// typify panicked.
    #[error("typify panicked on the scalar schema at `{pointer}`: {message}")]
    Panicked {
        /// Where the schema is.
        pointer: String,
        /// The panic message.
        message: String,
    },
    /// typify answered with a type that is not a scalar the pipeline knows.
    #[error("typify mapped the scalar schema at `{pointer}` to `{found}`, which the pipeline does not model")]
    Unexpected {
        /// Where the schema is.
        pointer: String,
        /// What typify answered.
        found: String,
    },
}

/// Maps scalar schemas, one `TypeSpace` for a whole family.
pub struct Scalars {
    space: TypeSpace,
}

impl Default for Scalars {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Scalars {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scalars").finish_non_exhaustive()
    }
}

impl Scalars {
    /// An empty type space.
    #[must_use]
    pub fn new() -> Self {
        Self {
            space: TypeSpace::new(&TypeSpaceSettings::default()),
        }
    }

    /// The Rust type of the scalar schema `schema` (its one non-`null` `type` is `integer`,
    /// `boolean` or `string`); only that `type`, and for integers `format`, `minimum`,
    /// `maximum`, `exclusiveMinimum` and `exclusiveMaximum`, are passed to typify.
    ///
    /// # Errors
    /// See [`TypifyError`].
    pub fn map(&mut self, schema: &Value, pointer: &str) -> Result<Scalar, TypifyError> {
        let mut leaf = serde_json::Map::new();
        // One type: `null` beside it is the model's business (presence), not a scalar's.
        let ty = match schema.get("type") {
            Some(Value::Array(types)) => types.iter().find(|t| *t != "null").cloned(),
            other => other.cloned(),
        };
        if let Some(ty) = ty {
            leaf.insert("type".to_owned(), ty);
        }
        for key in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
            if let Some(value) = schema.get(key) {
                leaf.insert(key.to_owned(), value.clone());
            }
        }
        if leaf.get("type") == Some(&json!("integer")) {
            if let Some(format) = schema.get("format") {
                leaf.insert("format".to_owned(), format.clone());
            }
        }
        let leaf: Schema =
            serde_json::from_value(Value::Object(leaf)).map_err(|e| TypifyError::Refused {
                pointer: pointer.to_owned(),
                message: e.to_string(),
            })?;
        let space = &mut self.space;
        let outcome = catch_panic(|| {
            let id = space.add_type(&leaf).map_err(|e| e.to_string())?;
            let ty = space.get_type(&id).map_err(|e| e.to_string())?;
            let found = match ty.details() {
                TypeDetails::Builtin("bool") => Ok(Scalar::Bool),
                TypeDetails::String => Ok(Scalar::String),
                TypeDetails::Builtin(name) => integer(name)
                    .map(|width| Scalar::Int(width.to_owned()))
                    .ok_or_else(|| name.to_owned()),
                TypeDetails::Newtype(newtype) => {
                    // A bounded integer typify wraps: its inner type is the width.
                    let inner = space
                        .get_type(&newtype.inner())
                        .map_err(|e| e.to_string())?;
                    let width = match inner.details() {
                        TypeDetails::Builtin(name) => integer(name)
                            .map(|width| Scalar::Int(width.to_owned()))
                            .ok_or_else(|| name.to_owned()),
                        _ => Err(inner.name()),
                    };
                    width
                }
                _ => Err(ty.name()),
            };
            Ok::<_, String>(found)
        });
        match outcome {
            Err(message) => Err(TypifyError::Panicked {
                pointer: pointer.to_owned(),
                message,
            }),
            Ok(Err(message)) => Err(TypifyError::Refused {
                pointer: pointer.to_owned(),
                message,
            }),
            Ok(Ok(Err(found))) => Err(TypifyError::Unexpected {
                pointer: pointer.to_owned(),
                found,
            }),
            Ok(Ok(Ok(scalar))) => Ok(scalar),
        }
    }
}

/// The plain integer type of a typify builtin (`NonZeroU64` is `u64`).
fn integer(name: &str) -> Option<&'static str> {
    let base = name.rsplit("::").next().unwrap_or(name);
    Some(match base {
        "i8" => "i8",
        "i16" => "i16",
        "i32" => "i32",
        "i64" => "i64",
        "u8" | "NonZeroU8" => "u8",
        "u16" | "NonZeroU16" => "u16",
        "u32" | "NonZeroU32" => "u32",
        "u64" | "NonZeroU64" => "u64",
        _ => return None,
    })
}

/// Runs `f`, turning a panic into `Err(message)`. No panic hook is installed (the library runs
/// inside users' build scripts): Rust's own hook prints typify's message, and the error names
/// the schema it panicked on.
fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic without a message".to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_take_their_width_from_format_and_bounds() {
        let mut scalars = Scalars::new();
        let cases = [
            (json!({"type": "integer", "format": "uint32"}), "u32"),
            (json!({"type": "integer", "format": "int64"}), "i64"),
            (json!({"type": "integer", "minimum": 0}), "u64"),
            (json!({"type": "integer", "minimum": 1}), "u64"),
            (json!({"type": "integer"}), "i64"),
            (json!({"type": "integer", "format": "uint16"}), "u16"),
        ];
        for (schema, width) in cases {
            assert_eq!(
                scalars.map(&schema, "/x").unwrap(),
                Scalar::Int(width.to_owned()),
                "{schema}"
            );
        }
        assert_eq!(
            scalars
                .map(&json!({"type": "string", "format": "date-time"}), "/s")
                .unwrap(),
            Scalar::String
        );
        assert_eq!(
            scalars.map(&json!({"type": "boolean"}), "/b").unwrap(),
            Scalar::Bool
        );
    }
}
