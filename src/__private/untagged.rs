//! Unions told apart by the shape of the value (no tag member). An `anyOf`: the first branch
//! that decodes without leaving members it does not declare wins; when every branch that decodes
//! leaves some, the one leaving the fewest (the first among equals) wins. A `oneOf`: exactly one
//! branch must decode the value.

use serde_json::Value;

use crate::report::Leniency;

use super::buffer::Buffer;
use super::members::Members;
use super::seeds::Seed;
use super::session::{self, mark, rollback};

/// One branch of an untagged union: decodes the buffered value (a `Value`, or its raw text:
/// see [`Buffer`]), giving the variant and the number of members of the value the branch does
/// not declare.
pub type Branch<U, B = Value> = fn(&B) -> Result<(usize, U), serde_json::Error>;

/// Decodes an untagged union from its buffered value.
///
/// # Errors
/// ``<kind> that matches no variant of `<name>` ``, at the union's pointer, when no branch
/// decodes the value.
pub fn untagged<U, B: Buffer + ?Sized>(
    raw: &B,
    name: &'static str,
    branches: &[Branch<U, B>],
) -> Result<U, serde_json::Error> {
    let start = mark();
    // The branch leaving the fewest members so far: its value and the events it recorded, kept
    // aside while later branches are tried (decoding it again would double the work at every
    // level of a union holding itself).
    let mut best: Option<(usize, U, Vec<Leniency>)> = None;
    for branch in branches {
        let before = mark();
        match branch(raw) {
            Ok((0, value)) => return Ok(value),
            Ok((misses, value)) => {
                if best.as_ref().is_none_or(|(fewest, ..)| misses < *fewest) {
                    best = Some((misses, value, session::take_since(before)));
                } else {
                    rollback(before);
                }
            }
            Err(_) => rollback(before),
        }
    }
    rollback(start);
    match best {
        Some((_, value, events)) => {
            session::restore(events);
            Ok(value)
        }
        None => Err(no_variant(name, raw)),
    }
}

/// Decodes an untagged `oneOf` from its buffered value: the one branch that decodes it.
///
/// # Errors
/// ``<kind> that matches no variant of `<name>` `` when no branch decodes the value, and
/// ``<kind> that matches `oneOf` branches <i> and <j> of `<name>` `` when two do, at the
/// union's pointer.
pub fn untagged_one<U, B: Buffer + ?Sized>(
    raw: &B,
    name: &'static str,
    branches: &[Branch<U, B>],
) -> Result<U, serde_json::Error> {
    let start = mark();
    // The branch that decoded the value, with its value and the events it recorded (kept, not
    // decoded again: that would double the work at every level of a union holding itself).
    let mut found: Option<(usize, U)> = None;
    for (index, branch) in branches.iter().enumerate() {
        let before = mark();
        let Ok((_, value)) = branch(raw) else {
            rollback(before);
            continue;
        };
        if let Some((first, _)) = found {
            rollback(start);
            session::fail_here(None);
            return Err(serde::de::Error::custom(format_args!(
                "{} that matches `oneOf` branches {first} and {index} of `{name}`",
                raw.kind()
            )));
        }
        found = Some((index, value));
    }
    match found {
        Some((_, value)) => Ok(value),
        None => {
            rollback(start);
            Err(no_variant(name, raw))
        }
    }
}

/// A branch whose value is one of the generated structs: the members the struct does not
/// declare are counted. A value without a member the struct requires is refused before it is
/// decoded (the decode would refuse it too, after copying every other member).
///
/// # Errors
/// The struct's decode error.
pub fn object_branch<T, U, B: Buffer + ?Sized>(
    raw: &B,
    wrap: fn(T) -> U,
) -> Result<(usize, U), serde_json::Error>
where
    T: serde::de::DeserializeOwned + Members,
{
    if !raw.has_members(T::REQUIRED) {
        return Err(serde::de::Error::custom("a required member is missing"));
    }
    let value = raw.decode::<T>()?;
    Ok((raw.unknown_members(T::MEMBERS), wrap(value)))
}

/// A branch of any other type, decoded with `seed`.
///
/// # Errors
/// The seed's error.
pub fn branch<S: Seed, U, B: Buffer + ?Sized>(
    raw: &B,
    seed: S,
    wrap: fn(S::Value) -> U,
) -> Result<(usize, U), serde_json::Error> {
    raw.run(seed).map(|value| (0, wrap(value)))
}

/// The `null` branch.
///
/// # Errors
/// When the value is not `null`.
pub fn null_branch<U, B: Buffer + ?Sized>(
    raw: &B,
    unit: fn() -> U,
) -> Result<(usize, U), serde_json::Error> {
    if raw.kind() == "null" {
        Ok((0, unit()))
    } else {
        Err(serde::de::Error::custom("not null"))
    }
}

/// The error when no branch of an untagged union accepts the value.
pub fn no_variant<B: Buffer + ?Sized>(union: &'static str, raw: &B) -> serde_json::Error {
    session::fail_here(None);
    serde::de::Error::custom(format_args!(
        "{} that matches no variant of `{union}`",
        raw.kind()
    ))
}
