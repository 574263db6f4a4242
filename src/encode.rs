//! Encoding to compact JSON: [`encode`] and [`encode_to_writer`].
//!
//! The bytes are exactly those of `serde_json::to_vec` (members in the order the generated
//! `Serialize` impls write them, no whitespace, strings escaped as serde_json escapes them).
//! With the `simd` feature they are written by `sonic-rs`, whose string escaping scans 16 or 32
//! bytes at a time; the output stays byte for byte the same (tested on the benchmark corpus,
//! the ACP documentation examples, the recorded traffic and generated strings of every
//! character class), only faster. Without the feature a writer of this crate writes them,
//! scanning strings eight bytes at a time and leaving numbers to serde_json (and anything it
//! does not write as serde_json would: the whole value is then serde_json's).

use std::fmt;
use std::io;

mod writer;

/// A contract type: every generated type of [`crate::acp`] and [`crate::route`], the canonical
/// tool model's types (feature `canonical`), and the types a user generates for a schema of
/// their own with `toolcall-codegen`. [`encode`] takes only these.
///
/// Sealed: the `simd` writer is only known to give serde_json's bytes for what these types hold
/// (it does not know serde_json's private `RawValue` token, for instance), so `encode` is not
/// offered for other types; encode those with serde_json.
pub trait Contract: serde::Serialize + crate::__private::Sealed {}

/// Marks hand-written types as [`Contract`]s (generated code marks its own).
#[cfg_attr(
    not(feature = "canonical"),
    allow(unused_macros, reason = "used by `canonical`")
)]
macro_rules! contracts {
    ($($name:ident),* $(,)?) => {
        $(
            impl crate::__private::Sealed for $name {}
            impl crate::encode::Contract for $name {}
        )*
    };
}
#[cfg_attr(
    not(feature = "canonical"),
    allow(unused_imports, reason = "used by `canonical`")
)]
pub(crate) use contracts;

/// Why [`encode`] or [`encode_to_writer`] failed.
///
/// Generated types always encode; a failure comes from the writer (I/O) or from a value that
/// cannot be JSON (a map with non-string keys, a flattened member that is not an object).
#[derive(Debug)]
pub struct EncodeError(Inner);

#[derive(Debug)]
enum Inner {
    Json(serde_json::Error),
    #[cfg(feature = "simd")]
    Simd(sonic_rs::Error),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Inner::Json(error) => error.fmt(f),
            #[cfg(feature = "simd")]
            Inner::Simd(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for EncodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0 {
            Inner::Json(error) => Some(error),
            #[cfg(feature = "simd")]
            Inner::Simd(error) => Some(error),
        }
    }
}

/// Encodes `value` as compact JSON (the bytes `serde_json::to_vec` writes).
///
/// # Errors
/// [`EncodeError`] when the value cannot be JSON (never for the generated types).
///
/// # Example
/// ```
/// use toolcall_contracts::acp::{ToolCallStatus, ToolCallUpdate};
///
/// let update = ToolCallUpdate::new("call_1").status(ToolCallStatus::Completed);
/// assert_eq!(
///     toolcall_contracts::encode(&update).unwrap(),
///     br#"{"toolCallId":"call_1","status":"completed"}"#
/// );
/// ```
pub fn encode<T: Contract + ?Sized>(value: &T) -> Result<Vec<u8>, EncodeError> {
    #[cfg(feature = "simd")]
    if simd_writes_serde_json_bytes() {
        return sonic(value);
    }
    match writer::to_vec(value) {
        Some(bytes) => Ok(bytes),
        None => serde_json::to_vec(value).map_err(|e| EncodeError(Inner::Json(e))),
    }
}

/// `value` written by sonic-rs, a [`crate::JsonNumber`] through sonic-rs's raw number.
#[cfg(feature = "simd")]
fn sonic<T: Contract + ?Sized>(value: &T) -> Result<Vec<u8>, EncodeError> {
    crate::number::SONIC_WRITER.with(|w| w.set(true));
    let written = sonic_rs::to_vec(value);
    crate::number::SONIC_WRITER.with(|w| w.set(false));
    written.map_err(|e| EncodeError(Inner::Simd(e)))
}

/// Whether sonic-rs writes what serde_json writes for the `serde_json::Value`s the contract
/// types hold. Not when serde_json's `arbitrary_precision` feature is on anywhere in the build
/// (features unify): a `Number` then serializes as a private struct that only serde_json's own
/// writer turns back into a number, and `encode` falls back to serde_json. Checked once.
#[cfg(feature = "simd")]
fn simd_writes_serde_json_bytes() -> bool {
    static SAME: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SAME.get_or_init(|| {
        let probe = serde_json::json!({"n": 1.5, "i": -7, "s": "\u{1}\""});
        matches!(
            (sonic_rs::to_vec(&probe), serde_json::to_vec(&probe)),
            (Ok(simd), Ok(reference)) if simd == reference
        )
    })
}

/// Encodes `value` as compact JSON into `writer`: the JSON is built in memory first (as
/// [`encode`] builds it) and written with one `write_all`.
///
/// # Errors
/// [`EncodeError`] when writing fails or the value cannot be JSON.
pub fn encode_to_writer<W: io::Write, T: Contract + ?Sized>(
    writer: W,
    value: &T,
) -> Result<(), EncodeError> {
    let mut writer = writer;
    let bytes = encode(value)?;
    writer
        .write_all(&bytes)
        .map_err(|e| EncodeError(Inner::Json(serde_json::Error::io(e))))
}
