//! [`crate::decode_with`] with the optimistic pass on one parser, whatever the input's size:
//! serde_json (the path a build without `simd` takes) or sonic-rs (the `simd` path, which
//! `decode` takes for inputs of 1 KiB and more), for the differential tests and fuzz target
//! that compare the two parsers in one binary.

use serde::de::DeserializeOwned;

use crate::decode::{decode_in, DecodeError, Decoded, Parser};
use crate::policy::DecodeLimits;

/// [`crate::decode_with`] as it runs without the `simd` feature.
///
/// # Errors
/// As [`crate::decode_with`].
pub fn decode_serde_json<T: DeserializeOwned>(
    json: &[u8],
    limits: &DecodeLimits,
) -> Result<Decoded<T>, DecodeError> {
    decode_in(json, limits, Parser::SerdeJson)
}

/// [`crate::decode_with`] with its optimistic pass on sonic-rs at every input size (feature
/// `simd`; `decode` reads inputs under 1 KiB with serde_json). Without the feature, as
/// [`decode_serde_json`].
///
/// # Errors
/// As [`crate::decode_with`].
pub fn decode_simd<T: DeserializeOwned>(
    json: &[u8],
    limits: &DecodeLimits,
) -> Result<Decoded<T>, DecodeError> {
    decode_in(json, limits, Parser::Simd)
}
