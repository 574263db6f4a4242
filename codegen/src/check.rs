//! Stage 2: check every keyword of a schema against an allow-list.
//!
//! A keyword outside the list is refused by name with the file, the definition and the JSON
//! pointer, so an unsupported construct never reaches the model (which would otherwise have to
//! guess). Draft-07 documents may also use the draft-07 spellings that [`crate::normalize`]
//! rewrites (`definitions`, `additionalItems`). Where a `$ref` points is checked by the model,
//! after references are made local.

use std::path::PathBuf;

use serde_json::Value;

use crate::load::SchemaFile;
use crate::pointer;

/// Keywords that give a value its shape, in schema position; with [`BOUND_KEYWORDS`] and
/// [`ANNOTATIONS`], every keyword the pipeline understands (see [`is_allowed`]).
pub const ALLOWED_KEYWORDS: &[&str] = &[
    "$defs",
    "definitions",
    "$ref",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "additionalItems",
    "enum",
    "const",
    "oneOf",
    "anyOf",
    "allOf",
];

/// The bounds a value may carry (checked when decoding), in the order of the model's
/// `Bounds` fields.
pub const BOUND_KEYWORDS: [&str; 11] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
];

/// Whether `keyword` shapes or bounds a value ([`ALLOWED_KEYWORDS`], [`BOUND_KEYWORDS`]).
#[must_use]
pub fn is_allowed(keyword: &str) -> bool {
    ALLOWED_KEYWORDS.contains(&keyword) || BOUND_KEYWORDS.contains(&keyword)
}

/// Keywords that say nothing about the shape of a value: documentation, the content
/// annotations (a string's encoding and media type, which 2020-12 does not assert), and ACP's
/// vendor keywords (leniency declared on a property, documentation routing), which the model
/// reads where they apply. Any other `x-` vendor keyword is an annotation too (OpenAPI's
/// `x-go-name`...), except an unknown `x-deserialize-*`: that prefix is the leniency this
/// pipeline applies, so a misspelling is refused rather than ignored.
pub const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "default",
    "examples",
    "deprecated",
    "$comment",
    "readOnly",
    "writeOnly",
    "$schema",
    "$id",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "discriminator",
    "x-deserialize-default-on-error",
    "x-deserialize-skip-invalid-items",
    "x-deserialize-default-on-null",
    "x-side",
    "x-method",
    "x-docs-ignore",
];

/// Whether `keyword` is one of the [`ANNOTATIONS`].
#[must_use]
pub fn is_annotation(keyword: &str) -> bool {
    ANNOTATIONS.contains(&keyword)
        || (keyword.starts_with("x-") && !keyword.starts_with("x-deserialize-"))
}

/// Keywords allowed only directly in a branch of a union (`.../anyOf/N` or `.../oneOf/N`).
pub const CATCH_ALL_KEYWORDS: &[&str] = &["not", "unevaluatedProperties"];

fn is_union_branch(pointer: &str) -> bool {
    let mut parts = pointer.rsplit('/');
    let index = parts.next().is_some_and(|p| p.parse::<usize>().is_ok());
    index && matches!(parts.next(), Some("anyOf" | "oneOf"))
}

/// A keyword the pipeline refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{path}`: keyword `{keyword}` is not supported (definition `{definition}`, at `{pointer}`)"
)]
pub struct UnsupportedKeyword {
    /// The schema file.
    pub path: PathBuf,
    /// The `$defs` entry holding the keyword (`<root>` outside `$defs`).
    pub definition: String,
    /// RFC 6901 pointer of the keyword inside the file.
    pub pointer: String,
    /// The keyword itself.
    pub keyword: String,
}

/// Checks every keyword in `file` and returns all refusals, in document order.
///
/// # Errors
/// One [`UnsupportedKeyword`] per keyword outside [`is_allowed`] and [`ANNOTATIONS`], and
/// per boolean schema other than `additionalProperties: true` (boolean schemas elsewhere have no
/// Rust shape here).
pub fn check(file: &SchemaFile) -> Result<(), Vec<UnsupportedKeyword>> {
    let mut walker = Walker {
        file,
        definition: "<root>".to_owned(),
        errors: Vec::new(),
        faithful: false,
    };
    walker.schema(&file.value, "");
    if walker.errors.is_empty() {
        Ok(())
    } else {
        Err(walker.errors)
    }
}

/// [`check`] for a faithful family (a user's own schema): every keyword of a vocabulary is
/// taken (what a type cannot carry is checked when decoding), any other is an annotation;
/// only a misspelt `x-deserialize-*` leniency keyword and a value that is not a schema where
/// one is expected are refused.
///
/// # Errors
/// One [`UnsupportedKeyword`] per refusal.
pub fn check_faithful(file: &SchemaFile) -> Result<(), Vec<UnsupportedKeyword>> {
    let mut walker = Walker {
        file,
        definition: "<root>".to_owned(),
        errors: Vec::new(),
        faithful: true,
    };
    walker.schema(&file.value, "");
    if walker.errors.is_empty() {
        Ok(())
    } else {
        Err(walker.errors)
    }
}

struct Walker<'a> {
    file: &'a SchemaFile,
    definition: String,
    errors: Vec<UnsupportedKeyword>,
    faithful: bool,
}

impl Walker<'_> {
    fn refuse(&mut self, pointer: String, keyword: &str) {
        self.errors.push(UnsupportedKeyword {
            path: self.file.path.clone(),
            definition: self.definition.clone(),
            pointer,
            keyword: keyword.to_owned(),
        });
    }

    fn schema(&mut self, schema: &Value, pointer: &str) {
        let Value::Object(map) = schema else {
            if !schema.is_boolean() {
                self.refuse(pointer.to_owned(), "<non-schema value>");
            }
            return;
        };
        for (keyword, value) in map {
            let here = format!("{pointer}/{}", pointer::escape(keyword));
            // ACP's catch-all union branch: `not: {anyOf: [known tags]}` with
            // `unevaluatedProperties: true`; normalize keeps such a branch as raw JSON.
            let catch_all =
                CATCH_ALL_KEYWORDS.contains(&keyword.as_str()) && is_union_branch(pointer);
            if catch_all {
                continue;
            }
            if self.faithful {
                let misspelt_leniency = keyword.starts_with("x-deserialize-")
                    && !ANNOTATIONS.contains(&keyword.as_str());
                if misspelt_leniency {
                    self.refuse(here.clone(), keyword);
                }
            } else if !is_allowed(keyword) && !is_annotation(keyword) {
                self.refuse(here, keyword);
                continue;
            }
            match keyword.as_str() {
                "$defs" | "definitions" => {
                    for (name, sub) in value.as_object().into_iter().flatten() {
                        let outer = std::mem::replace(&mut self.definition, name.clone());
                        if pointer.is_empty() || self.faithful {
                            self.schema(sub, &format!("{here}/{}", pointer::escape(name)));
                        } else {
                            // Definitions inside definitions are not definitions of the family.
                            self.refuse(here.clone(), "$defs (nested)");
                        }
                        self.definition = outer;
                    }
                }
                "properties" => {
                    for (name, sub) in value.as_object().into_iter().flatten() {
                        self.schema(sub, &format!("{here}/{}", pointer::escape(name)));
                    }
                }
                "oneOf" | "anyOf" | "allOf" | "prefixItems" => {
                    for (index, sub) in value.as_array().into_iter().flatten().enumerate() {
                        self.schema(sub, &format!("{here}/{index}"));
                    }
                }
                "items" | "additionalItems" if value.is_array() => {
                    for (index, sub) in value.as_array().into_iter().flatten().enumerate() {
                        self.schema(sub, &format!("{here}/{index}"));
                    }
                }
                "items" | "additionalItems" => self.schema(value, &here),
                "additionalProperties" if !value.is_boolean() => self.schema(value, &here),
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn file(value: Value) -> SchemaFile {
        SchemaFile {
            path: PathBuf::from("x.schema.json"),
            text: value.to_string(),
            value,
        }
    }

    #[test]
    fn refuses_unknown_keyword_with_definition_and_pointer() {
        let errors = check(&file(json!({
            "$defs": {"A": {"type": "object", "properties": {"q": {"not": {"type": "string"}}}}}
        })))
        .unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(
            errors[0].to_string(),
            "`x.schema.json`: keyword `not` is not supported (definition `A`, at `/$defs/A/properties/q/not`)"
        );
    }

    #[test]
    fn vendor_and_content_keywords_are_annotations_a_misspelt_leniency_is_not() {
        check(&file(
            json!({"$defs": {"A": {"type": "string", "x-go-name": "A",
            "contentEncoding": "base64", "contentMediaType": "image/png"}}}),
        ))
        .unwrap();
        let errors = check(&file(
            json!({"$defs": {"A": {"type": "object", "properties": {
            "q": {"type": "string", "x-deserialize-default-on-eror": true}}}}}),
        ))
        .unwrap_err();
        assert_eq!(errors[0].keyword, "x-deserialize-default-on-eror");
        assert_eq!(
            errors[0].pointer,
            "/$defs/A/properties/q/x-deserialize-default-on-eror"
        );
    }

    #[test]
    fn accepts_acp_idioms() {
        check(&file(json!({
            "$defs": {"U": {"oneOf": [{"type": "object", "properties": {"type": {"const": "a"}},
                "required": ["type"], "allOf": [{"$ref": "#/$defs/A"}]}],
                "discriminator": {"propertyName": "type"}},
                "A": {"type": "object", "additionalProperties": true,
                    "properties": {"x": {"type": ["string", "null"], "x-deserialize-default-on-error": true}}}}
        })))
        .unwrap();
    }
}
