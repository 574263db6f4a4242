//! Pairs a result union with the tagged union of the requests it answers
//! ([`Builder::paired_results`](crate::Builder::paired_results)): the request type `XRequest`
//! is answered by the result branch of type `XResult` (none when `XResult` is a type but no
//! branch); a request with no result type of its own by the branch of type [`EMPTY_RESULT`]
//! (through aliases: MCP's `EmptyResult` is `Result`).

use super::build::BuildError;
use super::{Item, Kind, Model, Pair, Pairing, Payload, Select, Ty};

/// The definition whose type answers a request with no result type of its own (MCP's
/// `EmptyResult`, "a response that indicates success but carries no data").
pub const EMPTY_RESULT: &str = "EmptyResult";

/// The pairing of the request union `requests` and the result union `results` (Rust names).
///
/// # Errors
/// [`BuildError::Unsupported`] when `requests` is not a union told apart by a tag member, or
/// `results` is not an untagged `anyOf` union without checks of its own (decoding one branch
/// of any other union could accept what the union refuses).
pub fn pair(
    model: &Model,
    requests: &str,
    results: &str,
    empty: Option<&str>,
) -> Result<Pairing, BuildError> {
    let refuse = |item: Option<&Item>, name: &str, what: &str| BuildError::Unsupported {
        definition: name.to_owned(),
        pointer: item.map(|i| i.pointer.clone()).unwrap_or_default(),
        what: format!("`paired_results` needs {what}"),
    };
    let request_item = model.item(requests);
    let (tag, request_union) = match request_item.map(|i| &i.kind) {
        Some(Kind::Union(u)) if u.tag.is_some() => (u.tag.clone().unwrap_or_default(), u),
        _ => {
            return Err(refuse(
                request_item,
                requests,
                "a union told apart by a tag member for the requests",
            ))
        }
    };
    let result_item = model.item(results);
    let Some(Kind::Union(result_union)) = result_item.map(|i| &i.kind) else {
        return Err(refuse(result_item, results, "a union for the results"));
    };
    // Decoding straight into one branch agrees with the union's verdict only when the union
    // accepts a value that any branch accepts: not when a tag chooses the branch, when a value
    // two branches accept is refused (`oneOf`), or when the union has checks of its own.
    let why_not = if result_union.tag.is_some() {
        Some("results told apart by shape, not by a tag member")
    } else if result_union.exactly_one {
        Some("an `anyOf` for the results, not a `oneOf` (a value two branches accept is refused)")
    } else if result_item.is_some_and(|i| i.check.is_some()) {
        Some("a result union without checks of its own")
    } else {
        None
    };
    if let Some(what) = why_not {
        return Err(refuse(result_item, results, what));
    }
    // The result branches by the type they hold, through aliases.
    let branches: Vec<(String, String)> = result_union
        .variants
        .iter()
        .filter_map(|v| Some((target(model, payload_name(&v.payload)?), v.name.clone())))
        .collect();
    let branch_of = |ty: &str| {
        let ty = target(model, ty);
        branches
            .iter()
            .find(|(branch, _)| *branch == ty)
            .map(|(_, variant)| variant.clone())
    };
    let pairs = request_union
        .variants
        .iter()
        .filter_map(|variant| {
            let Select::Tag { value, .. } = &variant.select else {
                return None;
            };
            let request = payload_name(&variant.payload)?;
            let own = request
                .strip_suffix("Request")
                .map(|stem| format!("{stem}Result"));
            // A result type of its own that is no branch of the union: left to the union.
            let (result, empty) = match own {
                Some(own) if model.item(&own).is_some() => (branch_of(&own), false),
                _ => (empty.and_then(branch_of), true),
            };
            Some(Pair {
                value: value.clone(),
                request: request.to_owned(),
                result,
                empty,
            })
        })
        .collect();
    Ok(Pairing {
        requests: requests.to_owned(),
        results: results.to_owned(),
        tag,
        pairs,
    })
}

/// The generated type a variant holds, if it is one.
fn payload_name(payload: &Payload) -> Option<&str> {
    match payload {
        Payload::WithTag(name) => Some(name),
        Payload::Ty(ty) => match ty.unbounded() {
            Ty::Named(name) => Some(name),
            Ty::Boxed(inner) => match inner.unbounded() {
                Ty::Named(name) => Some(name),
                _ => None,
            },
            _ => None,
        },
        Payload::Unit | Payload::Raw => None,
    }
}

/// The type `name` stands for, through aliases (`EmptyResult` is `Result`).
fn target(model: &Model, name: &str) -> String {
    let mut name = name.to_owned();
    for _ in 0..model.items.len() {
        match model.item(&name).map(|item| &item.kind) {
            Some(Kind::Alias(Ty::Named(next))) => name.clone_from(next),
            _ => break,
        }
    }
    name
}
