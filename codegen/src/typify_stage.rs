//! Stage 4: typify 0.8 over the normalized definitions, under `catch_unwind`.
//!
//! typify has about 90 `panic!`/`todo!` sites reachable from schema shapes; a panic here becomes
//! [`TypifyError::Panicked`] naming the definition whose `$ref` closure reproduces it.

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{self, AssertUnwindSafe};

use proc_macro2::TokenStream;
use serde_json::Value;
use typify::{TypeSpace, TypeSpaceSettings};

/// How one family is fed to typify.
#[derive(Debug, Clone, Default)]
pub struct TypifyInput {
    /// Definitions in order.
    pub defs: Vec<(String, Value)>,
    /// Definitions typify must not generate, with the Rust path used instead.
    pub replacements: BTreeMap<String, String>,
}

/// Why typify produced no code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TypifyError {
    /// A definition is not a schema schemars 0.8 can read.
    #[error("definition `{definition}` is not a JSON Schema typify can read: {message}")]
    Schema {
        /// The definition.
        definition: String,
        /// schemars' message.
        message: String,
    },
    /// typify returned an error.
    #[error("typify refused definition `{definition}`: {message}")]
    Refused {
        /// The definition (or `<all>` when typify did not say).
        definition: String,
        /// typify's message.
        message: String,
    },
    /// typify panicked.
    #[error("typify panicked on definition `{definition}`: {message}")]
    Panicked {
        /// The smallest definition whose `$ref` closure reproduces the panic.
        definition: String,
        /// The panic message.
        message: String,
    },
}

/// Runs typify and returns its token stream.
///
/// # Errors
/// See [`TypifyError`].
pub fn run(input: &TypifyInput) -> Result<TokenStream, TypifyError> {
    let defs = to_schemars(&input.defs)?;
    match attempt(&defs, &input.replacements) {
        Ok(result) => result,
        Err(message) => Err(TypifyError::Panicked {
            definition: culprit(&input.defs, &defs, &input.replacements)
                .unwrap_or_else(|| "<unknown>".to_owned()),
            message,
        }),
    }
}

fn settings(replacements: &BTreeMap<String, String>) -> TypeSpaceSettings {
    let mut settings = TypeSpaceSettings::default();
    settings.with_derive("PartialEq".to_owned());
    for (name, path) in replacements {
        settings.with_replacement(name, path, std::iter::empty());
    }
    settings
}

type Defs = Vec<(String, schemars::schema::Schema)>;

fn to_schemars(defs: &[(String, Value)]) -> Result<Defs, TypifyError> {
    defs.iter()
        .map(|(name, value)| {
            serde_json::from_value(value.clone())
                .map(|schema| (name.clone(), schema))
                .map_err(|e| TypifyError::Schema {
                    definition: name.clone(),
                    message: e.to_string(),
                })
        })
        .collect()
}

/// Runs typify once; `Err` carries a panic message.
fn attempt(
    defs: &Defs,
    replacements: &BTreeMap<String, String>,
) -> Result<Result<TokenStream, TypifyError>, String> {
    quiet_panics();
    QUIET.with(|q| q.set(true));
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        let mut space = TypeSpace::new(&settings(replacements));
        space
            .add_ref_types(defs.iter().cloned())
            .map_err(|e| TypifyError::Refused {
                definition: "<all>".to_owned(),
                message: e.to_string(),
            })?;
        Ok(space.to_stream())
    }));
    QUIET.with(|q| q.set(false));
    outcome.map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic without a message".to_owned())
    })
}

thread_local! {
    /// Set while this thread runs typify: its panics become errors, so their messages are noise.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Installs, once per process, a panic hook that stays silent for threads running typify and
/// defers to the previous hook for every other thread (the global hook is never swapped back
/// and forth, which would race with other threads).
fn quiet_panics() {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
}

/// The definition with the smallest `$ref` closure that panics on its own.
fn culprit(
    raw: &[(String, Value)],
    defs: &Defs,
    replacements: &BTreeMap<String, String>,
) -> Option<String> {
    let by_name: BTreeMap<&str, &Value> = raw.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let mut candidates: Vec<(usize, &str, BTreeSet<String>)> = raw
        .iter()
        .map(|(name, _)| {
            let closure = ref_closure(&by_name, name);
            (closure.len(), name.as_str(), closure)
        })
        .collect();
    candidates.sort();
    candidates.into_iter().find_map(|(_, name, closure)| {
        let subset: Defs = defs
            .iter()
            .filter(|(k, _)| closure.contains(k))
            .cloned()
            .collect();
        attempt(&subset, replacements)
            .is_err()
            .then(|| name.to_owned())
    })
}

fn ref_closure(by_name: &BTreeMap<&str, &Value>, root: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![root.to_owned()];
    while let Some(name) = stack.pop() {
        let Some(schema) = by_name.get(name.as_str()) else {
            continue;
        };
        if !seen.insert(name) {
            continue;
        }
        let text = schema.to_string();
        for piece in text.split("\"#/$defs/").skip(1) {
            if let Some(end) = piece.find('"') {
                stack.push(piece[..end].to_owned());
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_typify_panic_becomes_an_error_naming_the_definition() {
        // typify 0.8 panics on `if`/`then`/`else` (the check stage refuses them; this calls the
        // stage directly).
        let input = TypifyInput {
            defs: vec![
                (
                    "Fine".to_owned(),
                    json!({"type": "object", "properties": {"a": {"type": "string"}}}),
                ),
                (
                    "Cond".to_owned(),
                    json!({"if": {"type": "string"}, "then": {"minLength": 1}}),
                ),
            ],
            replacements: BTreeMap::new(),
        };
        match run(&input) {
            Err(TypifyError::Panicked { definition, .. }) => assert_eq!(definition, "Cond"),
            other => panic!("expected a named panic, got {other:?}"),
        }
    }
}
