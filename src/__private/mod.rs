//! Support code that generated types call: not a public API.
//!
//! Hidden from the docs and free to change in any release, as serde's own `__private` module is.
//! Generated modules (this crate's `generated/*.rs` and modules a user generates with
//! `toolcall-codegen generate --schema`) import it as `rt`. One file per job:
//! - `session`: the decode session of [`crate::decode()`] (member path, leniency report,
//!   optimistic and careful passes);
//! - `seeds`: how one member's value is decoded (leniency, arrays, maps, nullability);
//! - `members`: the members of a struct (duplicates, required members, kept unknown ones);
//! - `tagged`: unions told apart by a tag member;
//! - `untagged`: unions told apart by the shape of the value;
//! - `paired`: a result union decoded as the result of the request it answers (`decode_for`);
//! - `buffer`: what an untagged union buffers (a `serde_json::Value`, or the raw text);
//! - `flatten`: writing members of a nested value into the object being written;
//! - `bounds`: `minimum`, `maxLength`, `multipleOf` and the other bounds a schema declares, and
//!   JSON Schema's equality of values (`json_equal`, `1` equals `1.0`);
//! - `checks`: the assertions a type cannot carry, checked by the `jsonschema` crate (feature
//!   `checks`), and `require_feature!`, which names a feature a module needs when it is off;
//! - `contract`: the sealed marker of [`crate::Contract`] types;
//! - `repeats`: a member name as the input gives it (`Key`), and member names compared in the
//!   traffic checker's one-pass check, where a `serde_json::Value` would keep the last of two
//!   (`value`, what untagged unions buffer);
//! - `reference`: decoding through serde_json alone (what a build without `simd` runs), for
//!   differential tests.

#![allow(missing_docs, reason = "hidden support module for generated code")]

pub mod bounds;
pub mod buffer;
pub mod checks;
pub mod contract;
pub mod flatten;
pub mod members;
pub mod paired;
pub mod reference;
pub mod repeats;
mod runtime;
pub mod seeds;
pub mod session;
pub mod tagged;
pub mod untagged;

pub use crate::decode::{DecodeError, Decoded, DECODE_LIMITS};
pub use crate::policy::DecodeLimits;
pub use bounds::{bounded, json_equal, Bounded, Bounds, Check as Bound, Limit, Pattern};
pub use buffer::{raw, Buffer};
pub use checks::{
    checked, checked_item, require_feature, Check, Checked, Document, Draft, Unchecked,
};
pub use contract::Sealed;
pub use flatten::{entry, flatten_into, tag_only, tagged, unknown_variant, Present};
pub use members::{
    constant, deny_unknown, duplicate, keep_typed, keep_unknown, lift, member, member_of, missing,
    object, optional_constant, presence, required, required_constant, skip_unknown, string, take,
    take_constant, Const, Key, Members,
};
pub use paired::{decode_paired, decode_union};
pub use reference::{decode_serde_json, decode_simd};
pub use repeats::value;
pub use runtime::RUNTIME;
pub use seeds::{
    any, any_object, boxed, default_on_error, default_on_null, element, map_of, name, nullable,
    opt, plain, seq, skip_invalid, text, too_long, too_short, AnyObject, AnyValue, Boxed,
    DefaultOnError, DefaultOnNull, MapOf, Nullable, Opt, Plain, Seed, Seq, SkipInvalid, Text,
};
pub use session::{mark, rollback, unknown_value};
pub use tagged::{catch_all, drain, missing_tag, tagged_union, unknown_tag, Tagged, WithTag};
pub use untagged::{branch, null_branch, object_branch, untagged, untagged_one, Branch};

/// The JSON type of `value`: `"null"`, `"boolean"`, `"number"`, `"string"`, `"array"` or
/// `"object"` (what errors naming a type found say).
#[must_use]
pub fn json_type(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}
