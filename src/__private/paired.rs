//! A result union decoded as the result of the request it answers (the `decode_for` functions
//! that `toolcall_codegen::Builder::paired_results` generates): the branch the request's tag
//! names is decoded straight from the input, and the ordinary union decode runs only when that
//! branch refuses the value.

use serde::de::DeserializeOwned;

use crate::decode::{decode_with, DecodeError, Decoded};
use crate::policy::DecodeLimits;

/// Decodes `json` within `limits` as the branch `T` of the union `U`, wrapped by `wrap`; when
/// `T` refuses it, decodes it as `U` (every branch, as [`decode_with`] does). Accepts exactly
/// what `decode_with::<U>` accepts whenever `T` refuses no value `U`'s branch `T` takes.
///
/// # Errors
/// An input over a limit: the limit error (also when only the union's decode meets it). Refused
/// by both `T` and `U`: `T`'s error, which names the member that failed (the union's names only
/// the union).
pub fn decode_paired<U, T>(
    json: &[u8],
    limits: &DecodeLimits,
    wrap: fn(T) -> U,
) -> Result<Decoded<U>, DecodeError>
where
    U: DeserializeOwned,
    T: DeserializeOwned,
{
    match decode_with::<T>(json, limits) {
        Ok(Decoded { value, report }) => Ok(Decoded {
            value: wrap(value),
            report,
        }),
        // The same limits apply to the union.
        Err(error) if error.limit.is_some() => Err(error),
        Err(error) => decode_with::<U>(json, limits).map_err(|union| {
            // serde_json's depth guard, met while buffering the union.
            if union.limit.is_some() {
                union
            } else {
                error
            }
        }),
    }
}

/// Decodes `json` within `limits` as the union `U`: what `decode_for_with` does for a tag with
/// no branch of its own.
///
/// # Errors
/// As [`decode_with`].
pub fn decode_union<U: DeserializeOwned>(
    json: &[u8],
    limits: &DecodeLimits,
) -> Result<Decoded<U>, DecodeError> {
    decode_with::<U>(json, limits)
}
