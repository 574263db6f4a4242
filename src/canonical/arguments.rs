//! Argument validation before dispatch: [`ToolSpec::validate_arguments`].

use std::io;
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::spec::ToolSpec;
use crate::policy::{CompiledSchema, InstanceError, PolicyError, SchemaCache, SchemaPolicy};

/// Why a call's `arguments` were refused before dispatch.
///
/// An MCP gateway reports every variant to the model as a tool execution error (a result with
/// `isError: true` carrying the message), not as a JSON-RPC protocol error: the request was
/// well-formed, the tool call failed (MCP 2025-11-25, *Tools*, error handling). `Schema` and
/// `UnknownPin` are the provider's or the client's fault rather than the model's, but are
/// reported the same way.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArgumentsError {
    /// The arguments, as compact JSON, are longer than the spec's `max_input_bytes`.
    #[error(
        "`arguments` are `{bytes}` bytes as compact JSON, over `max_input_bytes` of `{limit}`"
    )]
    TooLarge {
        /// Length of the arguments as compact JSON (UTF-8), in bytes (counting stops past the
        /// limit: at most `limit + 1`).
        bytes: u64,
        /// The spec's [`crate::canonical::ToolLimits::max_input_bytes`].
        limit: u64,
    },
    /// The spec's `input_schema` is refused by the [`SchemaPolicy`] (untrusted schemas are
    /// bounded before they are compiled).
    #[error("`input_schema` is refused: {source}")]
    Schema {
        /// The policy's refusal.
        #[source]
        source: PolicyError,
    },
    /// A `schema_pin` names no schema known here.
    #[error("`schema_pin` `{pin}` names no known schema")]
    UnknownPin {
        /// The pin as given.
        pin: String,
    },
    /// The arguments do not conform to the schema, or are too deep or costly to check. The
    /// error names the instance pointer, the keyword and the schema pointer.
    #[error("`arguments` are invalid: {source}")]
    Invalid {
        /// The first error found.
        #[source]
        source: InstanceError,
    },
}

/// The process-wide cache of compiled input schemas, under [`SchemaPolicy::default`].
pub fn schema_cache() -> &'static SchemaCache {
    static CACHE: OnceLock<SchemaCache> = OnceLock::new();
    CACHE.get_or_init(|| SchemaCache::new(SchemaPolicy::default()))
}

impl ToolSpec {
    /// Checks a call's `arguments` against this tool's `input_schema`, before dispatch.
    ///
    /// The schema is compiled once under [`SchemaPolicy::default`] and cached process-wide,
    /// keyed by its pin (SHA-256 of its canonical JSON, see [`SchemaCache`]); the pin is
    /// computed once per `ToolSpec`, so later calls only look the compiled schema up. The arguments are refused over [`crate::canonical::ToolLimits::max_input_bytes`]
    /// (as compact JSON) before any validation; nesting depth and validation work are bounded by
    /// the policy. Validation stops at the first error (`is_valid`, then one `validate`).
    ///
    /// ```
    /// use serde_json::json;
    /// # use toolcall_contracts::canonical::*;
    /// # let spec: ToolSpec = serde_json::from_value(json!({
    /// #   "id": "fs", "name": "fs.read", "description": "Read a file",
    /// #   "input_schema": {"type": "object", "required": ["path"],
    /// #                    "properties": {"path": {"type": "string"}}},
    /// #   "output_contract": {"success": {"type": "text", "media_type": "text/plain"}},
    /// #   "limits": {"max_concurrent": 4, "max_input_bytes": 1024, "max_output_bytes": 65536,
    /// #              "execution_deadline_ms": 5000},
    /// #   "execution_class": {"type": "cooperative_in_process", "grace_ms": 100}
    /// # })).unwrap();
    /// assert!(spec.validate_arguments(&json!({"path": "/tmp/a"})).is_ok());
    /// let error = spec.validate_arguments(&json!({"path": 7})).unwrap_err();
    /// assert_eq!(
    ///     error.to_string(),
    ///     "`arguments` are invalid: instance at `/path` fails `type` at schema `/properties/path/type`"
    /// );
    /// ```
    ///
    /// # Errors
    /// [`ArgumentsError::TooLarge`] over `max_input_bytes`; [`ArgumentsError::Schema`] when the
    /// policy refuses the input schema; [`ArgumentsError::Invalid`] with the first violation
    /// (or a depth or work bound).
    pub fn validate_arguments(&self, arguments: &Value) -> Result<(), ArgumentsError> {
        self.check_size(arguments)?;
        check(&self.compiled_input_schema()?, arguments)
    }

    /// As [`ToolSpec::validate_arguments`], against the schema a request pinned: `schema_pin`
    /// (a route body's `schema_pin`) selects a schema of this process's cache (this spec's own,
    /// or one inserted earlier with [`schema_cache`]); `None` uses this spec's schema.
    ///
    /// # Errors
    /// As [`ToolSpec::validate_arguments`], and [`ArgumentsError::UnknownPin`] when the pin is
    /// neither this spec's nor cached.
    pub fn validate_arguments_pinned(
        &self,
        arguments: &Value,
        schema_pin: Option<&str>,
    ) -> Result<(), ArgumentsError> {
        let Some(pin) = schema_pin else {
            return self.validate_arguments(arguments);
        };
        self.check_size(arguments)?;
        let compiled = if pin == self.input_schema().pin() {
            self.compiled_input_schema()?
        } else {
            schema_cache()
                .get(pin)
                .ok_or_else(|| ArgumentsError::UnknownPin {
                    pin: pin.to_owned(),
                })?
        };
        check(&compiled, arguments)
    }

    /// This spec's input schema, compiled: looked up by its pin (computed once per spec), and
    /// compiled and cached under the policy on first use.
    fn compiled_input_schema(&self) -> Result<Arc<CompiledSchema>, ArgumentsError> {
        let schema = self.input_schema();
        if let Some(compiled) = schema_cache().get(schema.pin()) {
            return Ok(compiled);
        }
        schema_cache()
            .insert_compiled(schema.as_value())
            .map(|(_, compiled)| compiled)
            .map_err(|source| ArgumentsError::Schema { source })
    }

    fn check_size(&self, arguments: &Value) -> Result<(), ArgumentsError> {
        let limit = self.limits().max_input_bytes;
        let mut counter = Counter { bytes: 0, limit };
        // The counter stops the serialization once past the limit.
        let _ = serde_json::to_writer(&mut counter, arguments);
        if counter.bytes > limit {
            return Err(ArgumentsError::TooLarge {
                bytes: counter.bytes,
                limit,
            });
        }
        Ok(())
    }
}

fn check(compiled: &Arc<CompiledSchema>, arguments: &Value) -> Result<(), ArgumentsError> {
    compiled
        .check(arguments)
        .map_err(|source| ArgumentsError::Invalid { source })
}

/// Counts bytes written, failing once past `limit`.
struct Counter {
    bytes: u64,
    limit: u64,
}

impl io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes += buf.len() as u64;
        if self.bytes > self.limit {
            return Err(io::Error::other("over the limit"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
