//! Decoding with a leniency report: [`decode`] returns the value and every place where the
//! decoder applied leniency the schema declares.
//!
//! With the `simd` feature the first, optimistic pass parses with sonic-rs (SIMD string scanning
//! and UTF-8 checks) wherever it is known to agree with serde_json, and with serde_json
//! everywhere else; the careful pass, the errors and the report are always serde_json's. Every
//! input gets the same verdict, the same value and the same report with or without the feature
//! (the inputs on which the two parsers differ, and how each goes to serde_json, are listed in
//! `src/decode/simd.rs` and in `BENCHMARKS.md`).

use serde::de::DeserializeOwned;

use crate::__private::session::Session;

#[cfg(feature = "simd")]
mod guard;
#[cfg(feature = "simd")]
mod simd;
use crate::policy::{DecodeLimits, LimitError};
pub use crate::report::{Leniency, LeniencyKind};

/// A decoded value and its leniency report (empty when the input matched the schema exactly).
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded<T> {
    /// The value.
    pub value: T,
    /// Every leniency applied, ordered by pointer (segment by segment, array indices
    /// numerically).
    pub report: Vec<Leniency>,
}

/// Why a decode failed.
///
/// `Display`: ``<message> at `<pointer>` (line <line>, column <column>)``, without the
/// parenthesis when the position is unknown (a limit, or an error serde reports without one).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} at `{pointer}`{}", position(*.line, *.column))]
pub struct DecodeError {
    /// RFC 6901 pointer into the input of the member or item that failed (`""` for the root).
    /// For input that is not JSON at all, the pointer of the value being read when the syntax
    /// error was met.
    pub pointer: String,
    /// serde's message, without the position.
    pub message: String,
    /// 1-based line of the input where the failure was detected (0 when unknown).
    pub line: usize,
    /// 1-based column of the input where the failure was detected (0 when unknown).
    pub column: usize,
    /// Set when the input was refused by a [`DecodeLimits`] before decoding: which limit and
    /// the value (`message` is its text).
    pub limit: Option<LimitError>,
}

/// ` (line L, column C)`, or nothing when the line is unknown (0).
fn position(line: usize, column: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(" (line {line}, column {column})")
    }
}

impl DecodeError {
    pub(crate) fn from_serde(error: &serde_json::Error, pointer: String) -> Self {
        let text = error.to_string();
        let suffix = format!(" at line {} column {}", error.line(), error.column());
        let message = text.strip_suffix(&suffix).unwrap_or(&text).to_owned();
        Self {
            pointer,
            message,
            line: error.line(),
            column: error.column(),
            limit: None,
        }
    }

    pub(crate) fn from_limit(limit: LimitError) -> Self {
        Self {
            pointer: String::new(),
            message: limit.to_string(),
            line: 0,
            column: 0,
            limit: Some(limit),
        }
    }
}

/// Decodes `json` into `T` and reports every leniency applied, within the default limits
/// [`DECODE_LIMITS`] (1 MiB, 127 levels of nesting).
///
/// `serde_json::from_slice::<T>` accepts and rejects exactly the same inputs within the limits
/// and gives the same value; it only discards the report (and applies no limits but serde_json's
/// own 127 levels). `decode` is also the fast path: it decodes in one pass over the input, and
/// decodes a second time, carefully, only when something fails or leniency was applied; plain
/// `from_slice` always decodes carefully (it captures the text of members that declare
/// leniency, to recover from a malformed value). With the `simd` feature the optimistic pass
/// parses inputs of 1 KiB and more with sonic-rs where it agrees with serde_json (same verdict,
/// value and report).
///
/// # Errors
/// [`DecodeError`] with the pointer of the member that failed and serde's message; with
/// [`DecodeError::limit`] set when the input is over a limit.
pub fn decode<T: DeserializeOwned>(json: &[u8]) -> Result<Decoded<T>, DecodeError> {
    decode_with(json, &DECODE_LIMITS)
}

/// The limits of [`decode`]: [`DecodeLimits::DEFAULT_MAX_BYTES`] (1 MiB) and 127 levels, the
/// depth serde_json enforces while parsing (its recursion limit of 128 refuses the 128th level),
/// so no separate scan is needed.
///
/// serde_json counts the depth of what it decodes; a member the type ignores (the route body
/// ignores unknown members) is skipped without recursion and its depth is not counted, so it
/// cannot overflow the stack but is not refused either. The same holds for a member declared
/// lenient (`x-deserialize-default-on-error`) whose value is malformed: its text is captured
/// without recursion, then defaulted and reported (the report's `raw` is `null` when no `Value`
/// can hold that text: nested past 127 levels, `1e400`, a lone surrogate escape). A limit over the whole input is a
/// depth below 127 ([`DecodeLimits::default`]: 64), which costs one scan.
pub const DECODE_LIMITS: DecodeLimits = DecodeLimits::new(
    DecodeLimits::DEFAULT_MAX_BYTES,
    DecodeLimits::SERDE_JSON_MAX_DEPTH,
);

/// [`decode`] within the given limits (for example a byte limit from
/// `canonical::ToolLimits::max_input_bytes`, feature `canonical`).
///
/// The byte limit costs nothing; a depth limit below 127 costs one scan of the input (see
/// [`DecodeLimits::check`]); 127 and above are enforced by serde_json while parsing (a deeper
/// limit than 127 cannot be granted).
///
/// # Errors
/// As [`decode`].
pub fn decode_with<T: DeserializeOwned>(
    json: &[u8],
    limits: &DecodeLimits,
) -> Result<Decoded<T>, DecodeError> {
    decode_in(json, limits, Parser::Fastest)
}

/// The parser of the optimistic pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parser {
    /// sonic-rs where it agrees with serde_json, for inputs of 1 KiB and more (feature `simd`,
    /// `SIMD_MIN_BYTES`); else serde_json.
    Fastest,
    /// sonic-rs where it agrees with serde_json, at every size (feature `simd`; the
    /// differential tests); else serde_json.
    Simd,
    /// serde_json only: the path without the `simd` feature.
    SerdeJson,
}

/// [`decode_with`] with the optimistic pass on `parser`.
pub(crate) fn decode_in<T: DeserializeOwned>(
    json: &[u8],
    limits: &DecodeLimits,
    parser: Parser,
) -> Result<Decoded<T>, DecodeError> {
    if json.len() > limits.max_bytes || limits.max_depth < DecodeLimits::SERDE_JSON_MAX_DEPTH {
        limits.check(json).map_err(DecodeError::from_limit)?;
    }
    // A union of a module for your own schema buffers a value's text, which serde_json skips
    // without counting its depth and counts from 0 when the branches decode it: when that
    // happened, the depth of the whole input is checked here.
    crate::__private::buffer::take_redecoded();
    let within_depth = || {
        if crate::__private::buffer::take_redecoded() {
            DecodeLimits::new(json.len(), DecodeLimits::SERDE_JSON_MAX_DEPTH)
                .check(json)
                .map_err(DecodeError::from_limit)
        } else {
            Ok(())
        }
    };
    // First pass: optimistic, in one pass over the input with no buffering for leniency and no
    // path tracking. It gives exactly the careful result whenever nothing fails and no leniency
    // applies. Otherwise a careful second pass decides, and reports.
    let session = Session::begin_optimistic();
    if let Some(value) = optimistic::<T>(json, parser) {
        if !session.saw_event() {
            let (report, _) = session.finish();
            within_depth()?;
            return Ok(Decoded { value, report });
        }
    }
    let session = session.restart_careful();
    let result = serde_json::from_slice::<T>(json);
    let (report, failed_at) = session.finish();
    // Over the depth, whatever the branches of a union made of it.
    within_depth()?;
    match result {
        Ok(value) => Ok(Decoded { value, report }),
        Err(error) if error.to_string().starts_with("recursion limit exceeded") => {
            // serde_json's own depth guard: report it as the typed limit, with its offset.
            let limit = DecodeLimits::new(json.len(), DecodeLimits::SERDE_JSON_MAX_DEPTH);
            Err(DecodeError::from_limit(limit.check(json).err().unwrap_or(
                LimitError::TooDeep {
                    depth: DecodeLimits::SERDE_JSON_MAX_DEPTH + 1,
                    limit: DecodeLimits::SERDE_JSON_MAX_DEPTH,
                    offset: 0,
                },
            )))
        }
        Err(error) => Err(DecodeError::from_serde(
            &error,
            failed_at.unwrap_or_default(),
        )),
    }
}

/// Inputs shorter than this are read by serde_json even with `simd`: sonic-rs's cost per input
/// (the UTF-8 check, its parser's setup) is not repaid on them (a 293-byte route body: 13.2 k
/// instructions through sonic-rs, 11.7 k through serde_json).
#[cfg(feature = "simd")]
const SIMD_MIN_BYTES: usize = 1024;

/// The optimistic pass: the value, or `None` when it failed (the careful pass then decides).
fn optimistic<T: DeserializeOwned>(json: &[u8], parser: Parser) -> Option<T> {
    #[cfg(feature = "simd")]
    if parser == Parser::Simd || (parser == Parser::Fastest && json.len() >= SIMD_MIN_BYTES) {
        if let simd::Pass::Ran(value) = simd::optimistic::<T>(json) {
            return value;
        }
    }
    #[cfg(not(feature = "simd"))]
    let _ = parser;
    // Text that is UTF-8 as a whole is parsed as `str`: serde_json then checks no string's UTF-8
    // again (one check of the whole input costs less than one per string). Other input goes to
    // the careful pass, which parses its bytes and names what is wrong.
    let text = std::str::from_utf8(json).ok()?;
    serde_json::from_str::<T>(text).ok()
}

/// Why [`check`] found a value wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    /// The value breaks its schema: what [`decode`] says of the value's JSON (the pointer of
    /// the member or item, the keyword in the message). [`DecodeError::limit`] is set when the
    /// value is nested deeper than serde_json decodes (127 levels): a limit, not a verdict.
    #[error("{0}")]
    Invalid(DecodeError),
    /// The value cannot be JSON at all (a map with keys that are not strings): serde_json's
    /// message. A float that is not finite is not this: serde_json writes it as `null`, which
    /// the type then refuses as [`CheckError::Invalid`] at its pointer (or accepts, where
    /// `null` is allowed).
    #[error("the value cannot be written as JSON: {0}")]
    Unencodable(serde_json::Error),
}

/// Checks a value built in code the way [`decode`] checks one read from the wire: the value is
/// written as JSON and that JSON decoded again as `T`, so every assertion the type checks when
/// decoding (the `pattern`s, bounds and `not`/`if`/`patternProperties` checks of a module
/// generated for your own schema, the checked constructors' rules of the contract types) is
/// checked on it, with the same errors.
///
/// Returns what decoding reported: the leniencies the schema declares that the value relies on
/// (an unknown enum value kept as `Other`, for example), empty when it matches the schema
/// exactly. No size limit applies (the value is yours); the depth is serde_json's 127 levels.
///
/// # Errors
/// [`CheckError::Invalid`] naming the pointer of the first member or item that breaks the
/// schema, [`CheckError::Unencodable`] when the value is not JSON.
///
/// # Example
/// ```
/// use toolcall_contracts::acp::{ToolCallStatus, ToolCallUpdate};
///
/// let update = ToolCallUpdate::new("call_1").status(ToolCallStatus::Completed);
/// assert_eq!(toolcall_contracts::check(&update).unwrap(), vec![]);
/// ```
///
/// A module generated for a schema with `"not": {"const": ""}` on `first` refuses
/// `Name { first: Some(String::new()), .. }` here as its decode refuses `{"first": ""}`:
/// `CheckError::Invalid` at `/first`.
pub fn check<T: serde::Serialize + DeserializeOwned>(
    value: &T,
) -> Result<Vec<Leniency>, CheckError> {
    let json = serde_json::to_vec(value).map_err(CheckError::Unencodable)?;
    let limits = DecodeLimits::new(usize::MAX, DecodeLimits::SERDE_JSON_MAX_DEPTH);
    decode_in::<T>(&json, &limits, Parser::Fastest)
        .map(|decoded| decoded.report)
        .map_err(CheckError::Invalid)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    struct Point {
        x: f64,
    }

    /// What `CheckError::Unencodable` says it is, and what it is not.
    #[test]
    fn a_value_json_cannot_hold_and_a_float_it_writes_as_null() {
        let keys: BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into_iter().collect();
        assert!(matches!(check(&keys), Err(CheckError::Unencodable(_))));
        let Err(CheckError::Invalid(error)) = check(&Point { x: f64::NAN }) else {
            panic!("NaN is written as null, which `x` refuses")
        };
        assert_eq!(error.message, "invalid type: null, expected f64");
        assert_eq!(check(&Point { x: 2.5 }).unwrap(), vec![]);
    }
}
