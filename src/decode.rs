//! Decoding with a leniency report: [`decode`] returns the value and every place where the
//! decoder applied leniency the schema declares.

use std::fmt;

use serde::de::DeserializeOwned;

use crate::runtime;

/// What kind of leniency was applied (wire names in snake_case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeniencyKind {
    /// A malformed value at a property declaring `x-deserialize-default-on-error` decoded as
    /// absent.
    Defaulted,
    /// An invalid item of an array declaring `x-deserialize-skip-invalid-items` was skipped.
    SkippedItem,
    /// A union tag with no known variant decoded into the variant that keeps the raw JSON.
    UnknownVariant,
    /// A string-enum value with no known variant decoded as a catch-all (or as absent).
    UnknownValue,
}

impl fmt::Display for LeniencyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Defaulted => "defaulted",
            Self::SkippedItem => "skipped_item",
            Self::UnknownVariant => "unknown_variant",
            Self::UnknownValue => "unknown_value",
        })
    }
}

/// One place where the decoder applied declared leniency.
///
/// JSON shape: `{"pointer": "/params/update/status", "kind": "unknown_value", "raw": "paused"}`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Leniency {
    /// RFC 6901 pointer into the input, to the member or item concerned.
    pub pointer: String,
    /// What was done.
    pub kind: LeniencyKind,
    /// The JSON that was not used as given (the malformed value, skipped item or unknown tag).
    pub raw: serde_json::Value,
}

/// A decoded value and its leniency report (empty when the input matched the schema exactly).
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded<T> {
    /// The value.
    pub value: T,
    /// Every leniency applied, in decode order (input order, except that the members of a union
    /// object are visited in name order).
    pub report: Vec<Leniency>,
}

/// Why a decode failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} at `{pointer}`")]
pub struct DecodeError {
    /// RFC 6901 pointer into the input where decoding failed (`""` for the root).
    pub pointer: String,
    /// serde's message (with line and column when the input was not valid JSON).
    pub message: String,
}

/// Decodes `json` into `T` and reports every leniency applied.
///
/// `serde_json::from_slice::<T>` accepts and rejects exactly the same inputs and gives the same
/// value; it only discards the report.
///
/// # Errors
/// [`DecodeError`] with the pointer of the member that failed and serde's message.
pub fn decode<T: DeserializeOwned>(json: &[u8]) -> Result<Decoded<T>, DecodeError> {
    let session = runtime::Session::begin();
    let result = serde_json::from_slice::<T>(json);
    let (report, failed_at) = session.finish();
    match result {
        Ok(value) => Ok(Decoded { value, report }),
        Err(error) => Err(DecodeError {
            pointer: failed_at.unwrap_or_default(),
            message: error.to_string(),
        }),
    }
}
