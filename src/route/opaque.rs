//! The opaque text fields of the route body, `call_key` and `schema_pin`: 1 to 256 bytes, each
//! printable ASCII 0x21..=0x7E (no space, no control byte, no byte of a non-ASCII character).
//!
//! The schema states the same rule as `minLength: 1`, `maxLength: 256` and `pattern: ^[!-~]+$`
//! (`$defs/CallKey` and `$defs/SchemaPin` in `schema/route/tool-call-request.schema.json`).
//! `maxLength` counts characters and these validators count bytes; since the pattern admits ASCII
//! only, where one byte is one character, the two verdicts agree on every string.

/// Wire name of the idempotency-key field, as [`OpaqueFieldError::field`] returns it.
pub const CALL_KEY_FIELD: &str = "call_key";

/// Wire name of the input-schema-pin field, as [`OpaqueFieldError::field`] returns it.
pub const SCHEMA_PIN_FIELD: &str = "schema_pin";

/// Most bytes an opaque route field (`call_key`, `schema_pin`) may hold: 256.
pub const OPAQUE_FIELD_MAX_LEN: usize = 256;

/// Most bytes a `call_key` may hold: 256.
pub const CALL_KEY_MAX_LEN: usize = OPAQUE_FIELD_MAX_LEN;

/// Most bytes a `schema_pin` may hold: 256.
pub const SCHEMA_PIN_MAX_LEN: usize = OPAQUE_FIELD_MAX_LEN;

/// Why a `call_key` or `schema_pin` value was refused. Every variant names its field.
///
/// The rule is complete (length, then bytes), so the enum is exhaustive: a consumer may match
/// every variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum OpaqueFieldError {
    /// The value has no bytes.
    #[error(
        "`{field}` is empty (1 to {max} bytes of printable ASCII 0x21..=0x7E)",
        max = OPAQUE_FIELD_MAX_LEN
    )]
    Empty {
        /// Wire name of the field ([`CALL_KEY_FIELD`] or [`SCHEMA_PIN_FIELD`]).
        field: &'static str,
    },
    /// The value is longer than [`OPAQUE_FIELD_MAX_LEN`] bytes.
    #[error(
        "`{field}` is {length} bytes, more than the limit of {max}",
        max = OPAQUE_FIELD_MAX_LEN
    )]
    TooLong {
        /// Wire name of the field ([`CALL_KEY_FIELD`] or [`SCHEMA_PIN_FIELD`]).
        field: &'static str,
        /// Length of the value, in bytes (UTF-8), not characters.
        length: usize,
    },
    /// A byte is outside printable ASCII 0x21..=0x7E: a space, a control byte such as a tab or
    /// 0x7F, or any byte of a non-ASCII character.
    #[error("`{field}` has a byte outside printable ASCII 0x21..=0x7E at index {index}")]
    InvalidCharacter {
        /// Wire name of the field ([`CALL_KEY_FIELD`] or [`SCHEMA_PIN_FIELD`]).
        field: &'static str,
        /// Byte offset (not character offset) of the first offending byte.
        index: usize,
    },
}

impl OpaqueFieldError {
    /// Wire name of the field the value was refused for: [`CALL_KEY_FIELD`] or
    /// [`SCHEMA_PIN_FIELD`].
    #[must_use]
    pub const fn field(&self) -> &'static str {
        match *self {
            Self::Empty { field }
            | Self::TooLong { field, .. }
            | Self::InvalidCharacter { field, .. } => field,
        }
    }
}

/// [`OpaqueFieldError`] under the name call sites that check only a `call_key` use; the
/// error still names its field.
pub type CallKeyError = OpaqueFieldError;

/// Checks a `call_key` (the idempotency key of a call): 1 to [`CALL_KEY_MAX_LEN`] (256) bytes,
/// each printable ASCII 0x21..=0x7E. Allocates nothing.
///
/// ```
/// use toolcall_contracts::route::{validate_call_key, OpaqueFieldError};
///
/// assert_eq!(validate_call_key("order-42/retry:1"), Ok(()));
/// assert_eq!(
///     validate_call_key("a b"),
///     Err(OpaqueFieldError::InvalidCharacter { field: "call_key", index: 1 }),
/// );
/// ```
///
/// # Errors
/// Checked in this order, so at most one applies:
/// - [`OpaqueFieldError::Empty`] when `value` is `""`;
/// - [`OpaqueFieldError::TooLong`] when `value` is more than 256 bytes long (`length` in bytes);
/// - [`OpaqueFieldError::InvalidCharacter`] at the first byte outside 0x21..=0x7E (`index` in
///   bytes).
///
/// Every error names the field [`CALL_KEY_FIELD`].
pub fn validate_call_key(value: &str) -> Result<(), OpaqueFieldError> {
    validate_opaque(CALL_KEY_FIELD, value)
}

/// Checks a `schema_pin` (the pin of the input schema the arguments were built against): 1 to
/// [`SCHEMA_PIN_MAX_LEN`] (256) bytes, each printable ASCII 0x21..=0x7E. Allocates nothing.
///
/// ```
/// use toolcall_contracts::route::{validate_schema_pin, OpaqueFieldError};
///
/// assert_eq!(validate_schema_pin("sha256:9f86d081"), Ok(()));
/// assert_eq!(validate_schema_pin(""), Err(OpaqueFieldError::Empty { field: "schema_pin" }));
/// ```
///
/// # Errors
/// Checked in this order, so at most one applies:
/// - [`OpaqueFieldError::Empty`] when `value` is `""`;
/// - [`OpaqueFieldError::TooLong`] when `value` is more than 256 bytes long (`length` in bytes);
/// - [`OpaqueFieldError::InvalidCharacter`] at the first byte outside 0x21..=0x7E (`index` in
///   bytes).
///
/// Every error names the field [`SCHEMA_PIN_FIELD`].
pub fn validate_schema_pin(value: &str) -> Result<(), OpaqueFieldError> {
    validate_opaque(SCHEMA_PIN_FIELD, value)
}

/// The shared rule: length in bytes first, then every byte in 0x21..=0x7E.
fn validate_opaque(field: &'static str, value: &str) -> Result<(), OpaqueFieldError> {
    let bytes = value.as_bytes();
    if bytes.is_empty() {
        return Err(OpaqueFieldError::Empty { field });
    }
    if bytes.len() > OPAQUE_FIELD_MAX_LEN {
        return Err(OpaqueFieldError::TooLong {
            field,
            length: bytes.len(),
        });
    }
    // A check without an early exit, which the compiler turns into SIMD; the first offending
    // byte is looked for only when there is one.
    let all_printable = bytes
        .iter()
        .fold(true, |ok, &byte| ok & (byte.wrapping_sub(0x21) < 0x5E));
    if all_printable {
        return Ok(());
    }
    let index = bytes
        .iter()
        .position(|byte| !matches!(byte, 0x21..=0x7E))
        .unwrap_or(0);
    Err(OpaqueFieldError::InvalidCharacter { field, index })
}
