//! Assertions a generated type cannot carry in its shape (`not`, `if`/`then`/`else`,
//! `patternProperties`, `unevaluatedProperties`, `contains`, remote `$ref`s...), checked when
//! decoding by the `jsonschema` crate on the raw JSON of the part that needs them (feature
//! `checks`).
//!
//! A generated module that needs them holds one [`Document`] (the schema as its author wrote
//! it, with the remote documents its `$ref`s reach) and one [`Check`] per part, a JSON pointer
//! into the document. Each check's validator is compiled on first use and kept (`OnceLock`).
//! The part is captured as raw text (every digit kept), validated, then decoded into its type
//! from that text.

use serde::de::{self, Deserializer};

use super::buffer::from_text;
use super::seeds::Seed;
use super::session;

/// The JSON Schema dialect of a [`Document`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Draft {
    Draft4,
    Draft6,
    Draft7,
    Draft201909,
    Draft202012,
}

/// The schema document of a generated module, as written, and the remote documents its `$ref`s
/// reach (served from the folders named when generating; nothing is fetched).
#[derive(Debug)]
pub struct Document {
    /// The document's base URI (its `$id`, or one of the generator's choosing).
    pub base: &'static str,
    pub draft: Draft,
    /// The document's text.
    pub text: &'static str,
    /// `(URI, text)` of every remote document.
    pub remotes: &'static [(&'static str, &'static str)],
    /// `format` asserted (else an annotation, as 2020-12 says).
    pub assert_formats: bool,
}

/// One part of a [`Document`] checked when decoding: the schema at `pointer`, which `reference`
/// names (its schema resource's URI and the pointer from there; `""` for the whole document).
pub struct Check {
    document: &'static Document,
    pointer: &'static str,
    reference: &'static str,
    #[cfg(feature = "checks")]
    validator: std::sync::OnceLock<Result<jsonschema::Validator, String>>,
}

impl std::fmt::Debug for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Check")
            .field("base", &self.document.base)
            .field("pointer", &self.pointer)
            .field("reference", &self.reference)
            .finish_non_exhaustive()
    }
}

impl Check {
    /// The schema at `pointer` (RFC 6901) in `document`, which `reference` names.
    #[must_use]
    pub const fn new(
        document: &'static Document,
        pointer: &'static str,
        reference: &'static str,
    ) -> Self {
        Self {
            document,
            pointer,
            reference,
            #[cfg(feature = "checks")]
            validator: std::sync::OnceLock::new(),
        }
    }
}

#[cfg(feature = "checks")]
mod engine {
    use jsonschema::{Retrieve, Uri};
    use serde_json::Value;

    use super::{Check, Document, Draft};

    /// Serves the document and its remote documents from their text.
    struct Embedded(&'static Document);

    impl Retrieve for Embedded {
        fn retrieve(
            &self,
            uri: &Uri<String>,
        ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
            let wanted = uri.as_str().trim_end_matches('#');
            let text = if wanted == self.0.base.trim_end_matches('#') {
                Some(self.0.text)
            } else {
                self.0
                    .remotes
                    .iter()
                    .find(|(id, _)| id.trim_end_matches('#') == wanted)
                    .map(|(_, text)| *text)
            };
            match text {
                Some(text) => Ok(serde_json::from_str(text)?),
                None => Err(format!("`{wanted}` was not embedded when generating").into()),
            }
        }
    }

    pub(super) fn build(check: &Check) -> Result<jsonschema::Validator, String> {
        let document = check.document;
        let options = match document.draft {
            Draft::Draft4 => jsonschema::draft4::options(),
            Draft::Draft6 => jsonschema::draft6::options(),
            Draft::Draft7 => jsonschema::draft7::options(),
            Draft::Draft201909 => jsonschema::draft201909::options(),
            Draft::Draft202012 => jsonschema::draft202012::options(),
        }
        .with_retriever(Embedded(document))
        .should_validate_formats(document.assert_formats);
        let schema: Value = serde_json::from_str(document.text).map_err(|e| e.to_string())?;
        // The whole document under its base URI; a part through a `$ref` to it, the document's
        // schema resources known by their URIs.
        if check.reference.is_empty() {
            return options
                .with_base_uri(document.base.trim_end_matches('#'))
                .build(&schema)
                .map_err(|e| e.to_string());
        }
        let draft = match document.draft {
            Draft::Draft4 => jsonschema::Draft::Draft4,
            Draft::Draft6 => jsonschema::Draft::Draft6,
            Draft::Draft7 => jsonschema::Draft::Draft7,
            Draft::Draft201909 => jsonschema::Draft::Draft201909,
            Draft::Draft202012 => jsonschema::Draft::Draft202012,
        };
        let registry = jsonschema::Registry::new()
            .retriever(Embedded(document))
            .draft(draft)
            .add(document.base.trim_end_matches('#'), &schema)
            .and_then(jsonschema::RegistryBuilder::prepare)
            .map_err(|e| e.to_string())?;
        let wrapper = serde_json::json!({ "$ref": check.reference });
        options
            .with_registry(&registry)
            .build(&wrapper)
            .map_err(|e| e.to_string())
    }
}

impl Check {
    /// Why `text` (one JSON value) breaks the schema, as `(pointer inside the value, message)`.
    #[cfg(feature = "checks")]
    fn violation(&self, text: &str) -> Option<(String, String)> {
        let validator = match self.validator.get_or_init(|| engine::build(self)) {
            Ok(validator) => validator,
            Err(error) => {
                return Some((
                    String::new(),
                    format!("the schema at `{}` does not compile: {error}", self.pointer),
                ))
            }
        };
        let value: serde_json::Value = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(error) => return Some((String::new(), error.to_string())),
        };
        if validator.is_valid(&value) {
            return None;
        }
        let error = validator.validate(&value).err()?;
        Some((
            error.instance_path().as_str().to_owned(),
            format!(
                "{} (schema `{}`)",
                error.masked(),
                self.schema_place(&error)
            ),
        ))
    }

    /// Where in the schema the failing keyword is: its pointer in the module's document, or
    /// `<file>#<pointer>` in another document its `$ref`s reach (`parts/item.json#/pattern`),
    /// found by following the error's evaluation path through the `$ref`s.
    #[cfg(feature = "checks")]
    fn schema_place(&self, error: &jsonschema::ValidationError<'_>) -> String {
        match self.follow(error.evaluation_path().as_str()) {
            Some((resource, at)) if resource != self.document.base.trim_end_matches('#') => {
                let shown = resource
                    .strip_prefix("json-schema:///")
                    .unwrap_or(&resource);
                format!("{shown}#{at}")
            }
            _ => Self::schema_pointer(error),
        }
    }

    /// The document (its URI) and the pointer in it that `path`, an evaluation path from this
    /// check's schema, ends at; `None` where it cannot tell (a `$dynamicRef`, a document not
    /// embedded).
    #[cfg(feature = "checks")]
    fn follow(&self, path: &str) -> Option<(String, String)> {
        let base = self.document.base.trim_end_matches('#');
        let mut tokens = crate::pointer::tokens(path);
        let (mut resource, mut at) = if self.reference.is_empty() {
            (base.to_owned(), String::new())
        } else {
            // The wrapper's own `$ref` to the part.
            if tokens.next()?.as_ref() != "$ref" {
                return None;
            }
            let (resource, fragment) = self
                .reference
                .split_once('#')
                .unwrap_or((self.reference, ""));
            (
                resource.to_owned(),
                crate::pointer::from_fragment(fragment)?,
            )
        };
        for token in tokens {
            match token.as_ref() {
                "$ref" => {
                    let text = if resource == base {
                        self.document.text
                    } else {
                        self.document
                            .remotes
                            .iter()
                            .find(|(uri, _)| uri.trim_end_matches('#') == resource)?
                            .1
                    };
                    let document: serde_json::Value = serde_json::from_str(text).ok()?;
                    let reference = document.pointer(&at)?.get("$ref")?.as_str()?;
                    let from = jsonschema::uri::from_str(&resource).ok()?;
                    let resolved =
                        jsonschema::uri::resolve_against(&from.borrow(), reference).ok()?;
                    let text = resolved.as_str();
                    let (next, fragment) = text.split_once('#').unwrap_or((text, ""));
                    resource = next.to_owned();
                    at = crate::pointer::from_fragment(fragment)?;
                }
                "$dynamicRef" | "$recursiveRef" => return None,
                other => crate::pointer::push(&mut at, other),
            }
        }
        Some((resource, at))
    }

    #[cfg(feature = "checks")]
    fn schema_pointer(error: &jsonschema::ValidationError<'_>) -> String {
        let keyword = error.schema_path().as_str();
        // The wrapper's own `$ref` is not in the document.
        keyword.strip_prefix("/$ref").unwrap_or(keyword).to_owned()
    }

    /// Without the feature no generated module compiles (`require_checks!` says why).
    #[cfg(not(feature = "checks"))]
    #[allow(clippy::unused_self, reason = "the same signature as with the feature")]
    fn violation(&self, _text: &str) -> Option<(String, String)> {
        Some((
            String::new(),
            "the feature `checks` of toolcall-contracts is off".to_owned(),
        ))
    }

    /// Checks the raw JSON `text` of a value at the current path.
    fn run<E: de::Error>(&self, text: &str) -> Result<(), E> {
        match self.violation(text) {
            None => Ok(()),
            Some((inner, message)) => {
                session::fail_at(&inner);
                Err(E::custom(message))
            }
        }
    }
}

/// Decodes with the inner seed what the check accepts.
#[derive(Clone, Copy)]
pub struct Checked<S> {
    seed: S,
    check: &'static Check,
}

/// `seed`, for a value that must also pass `check`.
#[must_use]
pub const fn checked<S>(seed: S, check: &'static Check) -> Checked<S> {
    Checked { seed, check }
}

impl<S: Seed> Seed for Checked<S> {
    type Value = S::Value;
    fn run<'de, D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        let raw = super::buffer::raw(d)?;
        self.check.run::<D::Error>(raw.get())?;
        from_text(raw.get(), |de| self.seed.run(de))
    }
}

/// A generated type whose own schema needs a [`Check`]: its decode without the check, which
/// its `Deserialize` runs after the check.
pub trait Unchecked: Sized {
    /// Decodes the value's shape only.
    ///
    /// # Errors
    /// The deserializer's, or the value's own.
    fn deserialize_unchecked<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;
}

/// `T`'s `Deserialize`: the value's raw text checked, then decoded as `T`'s shape.
///
/// # Errors
/// The check's, the deserializer's, or the value's own.
pub fn checked_item<'de, D: Deserializer<'de>, T: Unchecked>(
    deserializer: D,
    check: &'static Check,
) -> Result<T, D::Error> {
    let raw = super::buffer::raw(deserializer)?;
    check.run::<D::Error>(raw.get())?;
    from_text(raw.get(), |de| T::deserialize_unchecked(de))
}

/// What a module needs from this crate, by feature: `require_feature!(checks)` or
/// `require_feature!(patterns)` fails to compile, naming the feature to turn on, when it is off.
#[doc(hidden)]
#[macro_export]
macro_rules! __toolcall_require_feature {
    (checks) => {
        $crate::__toolcall_require_checks!();
    };
    (patterns) => {
        $crate::__toolcall_require_patterns!();
    };
}

#[cfg(feature = "checks")]
#[doc(hidden)]
#[macro_export]
macro_rules! __toolcall_require_checks {
    () => {};
}

#[cfg(not(feature = "checks"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __toolcall_require_checks {
    () => {
        ::core::compile_error!(
            "this generated module checks assertions its types cannot carry (`not`, `if`, `patternProperties`...) with the `jsonschema` crate: turn on the feature `checks` of toolcall-contracts (toolcall-contracts = { version = \"...\", features = [\"checks\"] })"
        );
    };
}

#[cfg(feature = "patterns")]
#[doc(hidden)]
#[macro_export]
macro_rules! __toolcall_require_patterns {
    () => {};
}

#[cfg(not(feature = "patterns"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __toolcall_require_patterns {
    () => {
        ::core::compile_error!(
            "this generated module matches `pattern`s: turn on the feature `patterns` of toolcall-contracts (toolcall-contracts = { version = \"...\", features = [\"patterns\"] })"
        );
    };
}

pub use crate::__toolcall_require_feature as require_feature;
