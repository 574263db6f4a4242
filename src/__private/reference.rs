//! [`crate::decode_with`] with the optimistic pass on serde_json whatever the features: the
//! path a build without `simd` takes, for the differential tests and fuzz target that compare
//! the two parsers in one binary.

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
