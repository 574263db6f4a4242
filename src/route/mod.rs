//! The route body: what a gateway sends a provider on a bound route.
//!
//! Schema: `schema/route/tool-call-request.schema.json` ([`SCHEMA_JSON`]); the type
//! [`ToolCallRequest`] is generated from it into `generated/route.rs`.
//!
//! JSON shape (only `name` and `arguments` are required):
//!
//! ```
//! use serde_json::json;
//! use toolcall_contracts::route::ToolCallRequest;
//!
//! let body = r#"{
//!     "name": "search",
//!     "arguments": {"query": "rust"},
//!     "tool_call_id": "call_01",
//!     "progress_token": 7,
//!     "call_key": "order-42/retry:1",
//!     "schema_pin": "sha256:9f86d081"
//! }"#;
//! let request: ToolCallRequest = serde_json::from_str(body)?;
//! assert_eq!(request.name, "search");
//! assert_eq!(request.arguments, json!({"query": "rust"}));
//! assert_eq!(request.tool_call_id.as_deref(), Some("call_01"));
//! assert_eq!(request.progress_token, Some(json!(7)));
//! assert_eq!(request.call_key.as_deref(), Some("order-42/retry:1"));
//! assert_eq!(request.schema_pin.as_deref(), Some("sha256:9f86d081"));
//! request.validate()?;
//!
//! // No optionals: exactly the two required members, both ways.
//! let minimal = ToolCallRequest::new("search", json!({}));
//! assert_eq!(serde_json::to_value(&minimal)?, json!({"name": "search", "arguments": {}}));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Decoding is tolerant, validation is a separate step
//!
//! Deserializing never fails on an unknown member (it is dropped, and so absent when the value
//! is encoded again) and an omitted optional member decodes as `None`. An optional member sent
//! as `null` also decodes as `None`; `None` is omitted when encoding, so absent and `null` mean
//! the same to the decoder and re-encode as absent (the schema, stricter, refuses `null` there).
//!
//! Decoding does not check the rules on `call_key`, `schema_pin` and `progress_token`:
//! [`ToolCallRequest::validate`] does, after decoding, and [`validate_call_key`] and
//! [`validate_schema_pin`] check one value.
//!
//! # `tool_call_id`
//!
//! `None` says the producer sent no id, never that the call has none. A reader that
//! synthesizes a fallback id for such a call must record that it did (for example in a log
//! field or a flag next to the id), so that the synthesized id is never mistaken for the
//! producer's.

mod opaque;

#[allow(
    missing_docs,
    clippy::all,
    clippy::pedantic,
    // Schema prose, written for the protocol docs: `[text]` and `<name>` are not rustdoc links
    // or HTML.
    rustdoc::broken_intra_doc_links,
    rustdoc::invalid_html_tags,
    reason = "generated code; reviewed in generated/route.rs"
)]
#[allow(
    dead_code,
    reason = "typify emits an `error::ConversionError` the route types never use"
)]
mod generated {
    include!("../../generated/route.rs");
}

pub use generated::ToolCallRequest;
pub use opaque::{
    validate_call_key, validate_schema_pin, CallKeyError, OpaqueFieldError, CALL_KEY_FIELD,
    CALL_KEY_MAX_LEN, OPAQUE_FIELD_MAX_LEN, SCHEMA_PIN_FIELD, SCHEMA_PIN_MAX_LEN,
};

/// The route JSON Schema (`schema/route/tool-call-request.schema.json`).
pub const SCHEMA_JSON: &str = include_str!("../../schema/route/tool-call-request.schema.json");

/// Why [`ToolCallRequest::validate`] refused a decoded route body.
///
/// Exhaustive: the checks are the route contract, so a new check is a breaking change of the
/// contract and of this enum alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum RouteError {
    /// `call_key` is present and breaks its rule; the message is the source's, which names
    /// `call_key`.
    #[error(transparent)]
    CallKey {
        /// What is wrong with the value (its field is [`CALL_KEY_FIELD`]).
        source: OpaqueFieldError,
    },
    /// `schema_pin` is present and breaks its rule; the message is the source's, which names
    /// `schema_pin`.
    #[error(transparent)]
    SchemaPin {
        /// What is wrong with the value (its field is [`SCHEMA_PIN_FIELD`]).
        source: OpaqueFieldError,
    },
    /// `progress_token` is present but neither a string nor an integer that fits `i64` or `u64`.
    #[error("`progress_token` must be a string or an integer (i64 or u64), found {found}")]
    ProgressToken {
        /// JSON type of the value found: `"boolean"`, `"array"`, `"object"`, `"number"` for a
        /// number that is neither an `i64` nor a `u64` (a fraction, an exponent such as `1e3`,
        /// `1.0`, or an integer out of range), or `"null"` for a constructed `Some(Value::Null)`
        /// (a decoded `null` is `None`).
        found: &'static str,
    },
}

impl ToolCallRequest {
    /// A request to call the tool `name` with `arguments`, every optional member `None` (so it
    /// encodes as exactly `{"name": ..., "arguments": ...}`).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolcall_contracts::route::ToolCallRequest;
    ///
    /// let mut request = ToolCallRequest::new("search", json!({"query": "rust"}));
    /// request.call_key = Some("order-42".to_owned());
    /// assert_eq!(request.validate(), Ok(()));
    /// ```
    #[must_use]
    pub fn new(name: impl Into<String>, arguments: serde_json::Value) -> Self {
        Self {
            name: name.into(),
            arguments,
            tool_call_id: None,
            progress_token: None,
            call_key: None,
            schema_pin: None,
        }
    }

    /// Checks the rules that tolerant decoding does not: the separate, named validation step
    /// after `serde_json::from_*`. `None` members pass; `name`, `arguments` and `tool_call_id`
    /// have no rule beyond their type.
    ///
    /// ```
    /// use toolcall_contracts::route::{RouteError, ToolCallRequest};
    ///
    /// let body = r#"{"name": "search", "arguments": {}, "progress_token": true}"#;
    /// let request: ToolCallRequest = serde_json::from_str(body)?;
    /// assert_eq!(request.validate(), Err(RouteError::ProgressToken { found: "boolean" }));
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    ///
    /// # Errors
    /// The first failing check, in this order:
    /// - [`RouteError::ProgressToken`] when `progress_token` is neither a string nor an integer
    ///   that fits `i64` or `u64`;
    /// - [`RouteError::CallKey`] when `call_key` fails [`validate_call_key`] (empty, more than
    ///   256 bytes, or a byte outside printable ASCII 0x21..=0x7E);
    /// - [`RouteError::SchemaPin`] when `schema_pin` fails [`validate_schema_pin`] (same rule).
    pub fn validate(&self) -> Result<(), RouteError> {
        if let Some(token) = &self.progress_token {
            validate_progress_token(token)?;
        }
        if let Some(call_key) = &self.call_key {
            validate_call_key(call_key).map_err(|source| RouteError::CallKey { source })?;
        }
        if let Some(schema_pin) = &self.schema_pin {
            validate_schema_pin(schema_pin).map_err(|source| RouteError::SchemaPin { source })?;
        }
        Ok(())
    }
}

impl Default for ToolCallRequest {
    /// An empty `name`, `arguments` `null` and every optional member `None`, as the seed's
    /// derived `Default`; fill `name` and `arguments` before sending it.
    fn default() -> Self {
        Self::new(String::new(), serde_json::Value::Null)
    }
}

/// Checks a `progress_token` value as [`ToolCallRequest::validate`] does: a string, or an
/// integer that `serde_json` holds as `i64` or `u64`.
///
/// # Errors
/// [`RouteError::ProgressToken`] naming the JSON type found (`2.5` is a `number` that is not an
/// integer).
pub fn validate_progress_token(token: &serde_json::Value) -> Result<(), RouteError> {
    use serde_json::Value;
    match token {
        Value::String(_) => Ok(()),
        Value::Number(number) if number.is_i64() || number.is_u64() => Ok(()),
        other => Err(RouteError::ProgressToken {
            found: crate::__private::json_type(other),
        }),
    }
}
