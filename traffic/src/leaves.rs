//! Turning `jsonschema` errors into leaf errors with pointers worth printing.
//!
//! A failed `oneOf`/`anyOf` is reported by the validator at the union itself (for a session
//! update, `/params/update`) with one error list per branch. Like Python `jsonschema`'s
//! `best_match`, [`collect`] descends into the branch that was meant:
//! - every branch is a scalar alternative (a `const`, an `enum` or a bare `type`, as in ACP's
//!   string enums and `anyOf [X, null]`): one error at the union, listing the alternatives;
//! - every branch rejects the same tag member by its `const` (a tagged union with an unknown or
//!   mistyped tag): one error at the tag, listing the known tags;
//! - otherwise the branches whose tag matched (or that have no tag) are candidates, and the one
//!   with the fewest errors at the union itself, then the fewest errors, wins (first on a tie).

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{JsonType, ValidationError};
use serde_json::Value;

/// Longest message of the validator kept, in bytes (they quote the instance); longer ones end
/// with `...`.
const MAX_MESSAGE: usize = 240;
/// Longest rendering of a value inside a synthesized message, in bytes.
const MAX_VALUE: usize = 80;

/// One schema error at a leaf of the instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SchemaError {
    /// RFC 6901 pointer into the message.
    pub(crate) pointer: String,
    /// What is wrong there.
    pub(crate) message: String,
}

impl SchemaError {
    pub(crate) fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

/// The leaf errors of `errors`, each pointer prefixed with `prefix`, in pointer order (then
/// message order), without duplicates: the same input always gives the same list.
pub(crate) fn collect<'a>(
    errors: impl Iterator<Item = ValidationError<'a>>,
    prefix: &str,
) -> Vec<SchemaError> {
    let mut out = Vec::new();
    for error in errors {
        leaves(&error, &mut out);
    }
    for error in &mut out {
        error.pointer.insert_str(0, prefix);
    }
    sort(&mut out);
    out
}

/// Sorts errors by pointer (segment by segment, array indices numerically), then message, and
/// drops duplicates.
pub(crate) fn sort(errors: &mut Vec<SchemaError>) {
    errors.sort_by(|a, b| {
        toolcall_contracts::pointer::compare(&a.pointer, &b.pointer)
            .then_with(|| a.message.cmp(&b.message))
    });
    errors.dedup();
}

/// Whether `pointer` is `base` or lies under it.
pub(crate) fn is_under(pointer: &str, base: &str) -> bool {
    pointer
        .strip_prefix(base)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

fn leaves(error: &ValidationError<'_>, out: &mut Vec<SchemaError>) {
    match error.kind() {
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            union_leaves(error, context, out);
        }
        _ => out.push(leaf(error)),
    }
}

fn leaf(error: &ValidationError<'_>) -> SchemaError {
    SchemaError::new(
        error.instance_path().as_str(),
        truncate(error.to_string(), MAX_MESSAGE),
    )
}

fn union_leaves(
    error: &ValidationError<'_>,
    branches: &[Vec<ValidationError<'static>>],
    out: &mut Vec<SchemaError>,
) {
    let here = error.instance_path().as_str();
    if branches.is_empty() || branches.iter().any(Vec::is_empty) {
        out.push(leaf(error));
        return;
    }
    if let Some(alternatives) = scalar_alternatives(here, branches) {
        out.push(not_one_of(here, error.instance(), &alternatives));
        return;
    }
    let tags: Vec<Option<&ValidationError<'static>>> = branches
        .iter()
        .map(|branch| tag_rejection(here, branch))
        .collect();
    if let Some(Some(first)) = tags.first() {
        let tag = first.instance_path().as_str();
        if tags
            .iter()
            .all(|t| t.is_some_and(|t| t.instance_path().as_str() == tag))
        {
            let mut expected = Vec::new();
            for t in tags.iter().flatten() {
                push_expected(t, &mut expected);
            }
            out.push(not_one_of(tag, first.instance(), &expected));
            return;
        }
    }
    let candidates: Vec<&Vec<ValidationError<'static>>> = branches
        .iter()
        .zip(&tags)
        .filter(|(_, tag)| tag.is_none())
        .map(|(branch, _)| branch)
        .collect();
    let pool: Vec<&Vec<ValidationError<'static>>> = if candidates.is_empty() {
        branches.iter().collect()
    } else {
        candidates
    };
    let best = pool.into_iter().min_by_key(|branch| {
        let shallow = branch
            .iter()
            .filter(|e| e.instance_path().as_str() == here)
            .count();
        (shallow, branch.len())
    });
    if let Some(branch) = best {
        for error in branch {
            leaves(error, out);
        }
    }
}

/// The alternatives of a union whose every branch fails only at `here` by `const`, `enum`,
/// `type` or a nested union of the same sort; `None` for any other union.
fn scalar_alternatives(
    here: &str,
    branches: &[Vec<ValidationError<'static>>],
) -> Option<Vec<String>> {
    let mut alternatives = Vec::new();
    for branch in branches {
        if branch.iter().any(|e| e.instance_path().as_str() != here) {
            return None;
        }
        let mut values = Vec::new();
        let mut types = Vec::new();
        for error in branch {
            match error.kind() {
                ValidationErrorKind::Constant { .. } | ValidationErrorKind::Enum { .. } => {
                    push_expected(error, &mut values);
                }
                ValidationErrorKind::Type { kind } => match kind {
                    TypeKind::Single(t) => types.push(type_phrase(*t)),
                    TypeKind::Multiple(set) => types.extend(set.iter().map(type_phrase)),
                },
                ValidationErrorKind::AnyOf { context }
                | ValidationErrorKind::OneOfNotValid { context } => {
                    values.extend(scalar_alternatives(here, context)?);
                }
                _ => return None,
            }
        }
        // A `const` says more than the `type` beside it.
        let found = if values.is_empty() { types } else { values };
        for alternative in found {
            if !alternatives.contains(&alternative) {
                alternatives.push(alternative);
            }
        }
    }
    Some(alternatives)
}

/// The error by which `branch` rejects a tag: a `const`/`enum` failing on a direct member of
/// the object at `here`.
fn tag_rejection<'b>(
    here: &str,
    branch: &'b [ValidationError<'static>],
) -> Option<&'b ValidationError<'static>> {
    branch.iter().find(|error| {
        matches!(
            error.kind(),
            ValidationErrorKind::Constant { .. } | ValidationErrorKind::Enum { .. }
        ) && error
            .instance_path()
            .as_str()
            .strip_prefix(here)
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|member| !member.contains('/'))
    })
}

fn push_expected(error: &ValidationError<'_>, out: &mut Vec<String>) {
    let values: Vec<&Value> = match error.kind() {
        ValidationErrorKind::Constant { expected_value } => vec![expected_value.as_ref()],
        ValidationErrorKind::Enum { options } => match options.as_ref() {
            Value::Array(items) => items.iter().collect(),
            other => vec![other],
        },
        _ => Vec::new(),
    };
    for value in values {
        let rendered = render(value);
        if !out.contains(&rendered) {
            out.push(rendered);
        }
    }
}

/// `<instance> is not one of <alternatives>`: every alternative is kept (they come from the
/// schema, not the input); the instance is cut to [`MAX_VALUE`].
fn not_one_of(pointer: &str, instance: &Value, alternatives: &[String]) -> SchemaError {
    let message = format!(
        "{} is not one of {}",
        render(instance),
        alternatives.join(", ")
    );
    SchemaError::new(pointer, message)
}

fn type_phrase(t: JsonType) -> String {
    match t {
        JsonType::Null => "null".to_owned(),
        JsonType::Integer | JsonType::Array | JsonType::Object => format!("an {t}"),
        _ => format!("a {t}"),
    }
}

/// Compact JSON, cut to [`MAX_VALUE`] bytes.
pub(crate) fn render(value: &Value) -> String {
    truncate(value.to_string(), MAX_VALUE)
}

/// `text` cut to at most `max` bytes (on a character boundary), ending with `...` when cut.
pub(crate) fn truncate(mut text: String, max: usize) -> String {
    if text.len() > max {
        let mut end = max.saturating_sub(3);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push_str("...");
    }
    text
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn errors_of(schema: &Value, instance: &Value) -> Vec<SchemaError> {
        let validator = jsonschema::draft202012::options()
            .offline()
            .build(schema)
            .expect("test schema compiles");
        collect(validator.iter_errors(instance), "/params")
    }

    fn tagged() -> Value {
        json!({
            "$defs": {
                "Block": {"oneOf": [
                    {"type": "object", "properties": {"type": {"type": "string", "const": "text"}},
                     "required": ["type"], "allOf": [{"$ref": "#/$defs/Text"}]},
                    {"type": "object", "properties": {"type": {"type": "string", "const": "image"}},
                     "required": ["type"], "allOf": [{"$ref": "#/$defs/Image"}]},
                    {"type": "object", "properties": {"type": {"type": "string", "const": "audio"}},
                     "required": ["type"], "allOf": [{"$ref": "#/$defs/Image"}]}
                ]},
                "Text": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
                "Image": {"type": "object", "properties": {"data": {"type": "string"}}, "required": ["data"]},
                "Status": {"oneOf": [
                    {"type": "string", "const": "pending"},
                    {"type": "string", "const": "completed"}
                ]}
            },
            "type": "object",
            "properties": {
                "content": {"type": "array", "items": {"$ref": "#/$defs/Block"}},
                "status": {"anyOf": [{"$ref": "#/$defs/Status"}, {"type": "null"}]}
            }
        })
    }

    #[test]
    fn unknown_tag_is_reported_at_the_tag() {
        let errors = errors_of(
            &tagged(),
            &json!({"content": [{"type": "txt", "text": "hi"}]}),
        );
        assert_eq!(
            errors,
            vec![SchemaError::new(
                "/params/content/0/type",
                r#""txt" is not one of "text", "image", "audio""#
            )]
        );
    }

    #[test]
    fn mistyped_tag_is_reported_at_the_tag() {
        let errors = errors_of(&tagged(), &json!({"content": [{"type": 5}]}));
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].pointer, "/params/content/0/type");
        assert!(
            errors[0].message.starts_with("5 is not one of \"text\""),
            "{errors:?}"
        );
    }

    #[test]
    fn known_tag_descends_into_its_branch() {
        let errors = errors_of(
            &tagged(),
            &json!({"content": [{"type": "text", "text": 1}]}),
        );
        assert_eq!(
            errors,
            vec![SchemaError::new(
                "/params/content/0/text",
                r#"1 is not of type "string""#
            )]
        );
    }

    #[test]
    fn string_enum_or_null_lists_the_alternatives() {
        let errors = errors_of(&tagged(), &json!({"status": "paused"}));
        assert_eq!(
            errors,
            vec![SchemaError::new(
                "/params/status",
                r#""paused" is not one of "pending", "completed", null"#
            )]
        );
    }

    #[test]
    fn pointers_sort_as_documents() {
        let mut pointers = ["/a/10", "/a/2", "/a", "/b", "", "/a/2/x"];
        pointers.sort_by(|a, b| toolcall_contracts::pointer::compare(a, b));
        assert_eq!(pointers, ["", "/a", "/a/2", "/a/2/x", "/a/10", "/b"]);
    }

    #[test]
    fn under_means_equal_or_below() {
        assert!(is_under("/params/update/status", "/params/update/status"));
        assert!(is_under("/params/update/status/0", "/params/update/status"));
        assert!(!is_under("/params/update/statusx", "/params/update/status"));
        assert!(is_under("/params", ""));
    }

    #[test]
    fn truncate_cuts_on_a_character_boundary() {
        assert_eq!(truncate("abcdef".to_owned(), 10), "abcdef");
        assert_eq!(truncate("abcdefghij".to_owned(), 6), "abc...");
        assert_eq!(truncate("ééééé".to_owned(), 6), "é...");
    }
}
