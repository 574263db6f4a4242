//! A result union decoded as the result of the request it answers (the `decode_for` functions
//! that `toolcall_codegen::Builder::paired_results` generates): the branch the request's tag
//! names is decoded straight from the input, and the ordinary union decode runs only when that
//! branch refuses the value.

use serde::de::DeserializeOwned;

use crate::decode::{decode, DecodeError, Decoded};

/// Decodes `json` as the branch `T` of the union `U`, wrapped by `wrap`; when `T` refuses it,
/// decodes it as `U` (every branch, as [`decode`] does). Accepts exactly what `decode::<U>`
/// accepts whenever `T` refuses no value `U`'s branch `T` takes.
///
/// # Errors
/// An input over a limit: the limit error (also when only the union's decode meets it). Refused
/// by both `T` and `U`: `T`'s error, which names the member that failed (the union's names only
/// the union).
pub fn decode_paired<U, T>(json: &[u8], wrap: fn(T) -> U) -> Result<Decoded<U>, DecodeError>
where
    U: DeserializeOwned,
    T: DeserializeOwned,
{
    match decode::<T>(json) {
        Ok(Decoded { value, report }) => Ok(Decoded {
            value: wrap(value),
            report,
        }),
        // The same limits apply to the union.
        Err(error) if error.limit.is_some() => Err(error),
        Err(error) => decode::<U>(json).map_err(|union| {
            // serde_json's depth guard, met while buffering the union.
            if union.limit.is_some() {
                union
            } else {
                error
            }
        }),
    }
}

/// Decodes `json` as the union `U`: what `decode_for` does for a tag with no branch of its own.
///
/// # Errors
/// As [`decode`].
pub fn decode_union<U: DeserializeOwned>(json: &[u8]) -> Result<Decoded<U>, DecodeError> {
    decode::<U>(json)
}
