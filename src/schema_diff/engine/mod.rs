//! The diff itself, re-exported by `toolcall_contracts::schema_diff` (whose docs describe it).
//!
//! `toolcall-codegen` compiles this directory too, for `CHANGELOG.md` entries
//! (`codegen/src/changelog.rs`): codegen cannot depend on the library, whose `codegen-check`
//! feature makes codegen its build dependency. So this code names no crate, uses only serde,
//! serde_json and thiserror, and has no doctests (they would name the crate).

mod compare;
mod files;
mod union;

use std::fmt;

use serde::Serialize;
use serde_json::Value;

pub use files::{diff_paths, DiffError};

/// Lists the changes from the schema document `old` to `new`.
///
/// Both are whole documents (definitions under `$defs` or `definitions`, any root schema
/// beside them). Equal documents give no change; the result is deterministic whatever the
/// member order of the JSON objects.
#[must_use]
pub fn diff(old: &Value, new: &Value) -> Vec<Change> {
    compare::documents(old, new)
}

/// How much a change matters, for one direction or (worst of both) for the change.
///
/// Ordered: `Cosmetic < Additive < Breaking`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Annotations only; every document keeps its validity.
    Cosmetic,
    /// What is valid changed, but consumers in this direction still read what producers send.
    Additive,
    /// Some document a producer may send is rejected (or misread) by the consumer.
    Breaking,
}

impl Class {
    /// `breaking`, `additive` or `cosmetic`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Cosmetic => "cosmetic",
            Self::Additive => "additive",
            Self::Breaking => "breaking",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What changed, machine-readable; [`Change::what`] says it in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ChangeKind {
    /// A schema file of a bundle exists only in the new bundle.
    FileAdded,
    /// A schema file of a bundle exists only in the old bundle.
    FileRemoved,
    /// A definition exists only in the new document.
    DefinitionAdded,
    /// A definition exists only in the old document.
    DefinitionRemoved,
    /// A property exists only in the new schema.
    PropertyAdded,
    /// A property exists only in the old schema.
    PropertyRemoved,
    /// A property (or required name) is required in the new schema only.
    BecameRequired,
    /// A property (or required name) is required in the old schema only.
    BecameOptional,
    /// The new schema accepts `null`, the old one does not.
    BecameNullable,
    /// The old schema accepts `null`, the new one does not.
    BecameNonNullable,
    /// An `enum` value, or a `const` branch of a `oneOf`/`anyOf`, exists only in the new schema.
    EnumValueAdded,
    /// An `enum` value, or a `const` branch of a `oneOf`/`anyOf`, exists only in the old schema.
    EnumValueRemoved,
    /// A `oneOf`/`anyOf` branch exists only in the new schema.
    VariantAdded,
    /// A `oneOf`/`anyOf` branch exists only in the old schema.
    VariantRemoved,
    /// `type`, the `$ref` target, or the shape (object, union, reference) changed.
    TypeChanged,
    /// `const` changed value.
    ConstChanged,
    /// The new schema accepts less: a constraint added or made stricter.
    ConstraintTightened,
    /// The new schema accepts more: a constraint removed or relaxed.
    ConstraintLoosened,
    /// A constraint changed in a way that is neither stricter nor looser (a new `pattern`).
    ConstraintChanged,
    /// An `x-deserialize-*` leniency exists only in the new schema.
    LeniencyAdded,
    /// An `x-deserialize-*` leniency exists only in the old schema.
    LeniencyRemoved,
    /// `description` added, removed or changed.
    DescriptionChanged,
    /// `title` added, removed or changed.
    TitleChanged,
    /// `default` added, removed or changed.
    DefaultChanged,
    /// Another annotation (`examples`, `$comment`, `deprecated`, unknown `x-*`, ...) changed.
    AnnotationChanged,
    /// A keyword with meaning changed that none of the other kinds covers (`x-method`, a
    /// keyword this diff does not know, `oneOf` becoming `anyOf`, the `$schema` dialect).
    KeywordChanged,
}

/// One difference between the old and the new schema, classified for both directions.
///
/// Its `Display` is the text line of `toolcall schemas diff`:
/// `<classification> [<file>#]<pointer>: <what>[ (<direction that breaks>)]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Change {
    /// The worse of the two directions.
    pub classification: Class,
    /// The file of a bundle the change is in (`None` when two files were compared).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// JSON pointer into the new document, or into the old one for something removed.
    pub pointer: String,
    /// What changed.
    pub kind: ChangeKind,
    /// What changed, in words, with names and values in backticks.
    pub what: String,
    /// Can a consumer of the new schema read what a producer of the old one sends?
    pub old_producer_new_consumer: Class,
    /// Can a consumer of the old schema read what a producer of the new one sends?
    pub new_producer_old_consumer: Class,
}

impl Change {
    /// A change at `pointer`, classified per direction; the classification is the worse one.
    #[must_use]
    pub fn new(
        kind: ChangeKind,
        pointer: impl Into<String>,
        what: impl Into<String>,
        old_producer_new_consumer: Class,
        new_producer_old_consumer: Class,
    ) -> Self {
        Self {
            classification: old_producer_new_consumer.max(new_producer_old_consumer),
            file: None,
            pointer: pointer.into(),
            kind,
            what: what.into(),
            old_producer_new_consumer,
            new_producer_old_consumer,
        }
    }

    /// Which direction breaks, as printed at the end of a text line: `old producer → new
    /// consumer`, `new producer → old consumer`, `both directions`, or `None`.
    #[must_use]
    pub fn breaking_direction(&self) -> Option<&'static str> {
        match (
            self.old_producer_new_consumer == Class::Breaking,
            self.new_producer_old_consumer == Class::Breaking,
        ) {
            (true, true) => Some("both directions"),
            (true, false) => Some("old producer → new consumer"),
            (false, true) => Some("new producer → old consumer"),
            (false, false) => None,
        }
    }

    /// `file#pointer` for a change in a bundle (`file` for a whole file), else the pointer.
    #[must_use]
    pub fn location(&self) -> String {
        match &self.file {
            Some(file) if self.pointer.is_empty() => file.clone(),
            Some(file) => format!("{file}#{}", self.pointer),
            None => self.pointer.clone(),
        }
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.classification,
            self.location(),
            self.what
        )?;
        if let Some(direction) = self.breaking_direction() {
            write!(f, " ({direction})")?;
        }
        Ok(())
    }
}

/// Counts of a list of changes.
///
/// `Display`: `N changes: B breaking, A additive, C cosmetic`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Summary {
    /// All changes.
    pub changes: usize,
    /// Changes whose classification is breaking.
    pub breaking: usize,
    /// Changes whose classification is additive.
    pub additive: usize,
    /// Changes whose classification is cosmetic.
    pub cosmetic: usize,
    /// Changes that break old producers → new consumers.
    pub breaking_old_producer_new_consumer: usize,
    /// Changes that break new producers → old consumers.
    pub breaking_new_producer_old_consumer: usize,
}

impl Summary {
    /// Counts `changes`.
    #[must_use]
    pub fn of(changes: &[Change]) -> Self {
        let mut summary = Self {
            changes: changes.len(),
            ..Self::default()
        };
        for change in changes {
            match change.classification {
                Class::Breaking => summary.breaking += 1,
                Class::Additive => summary.additive += 1,
                Class::Cosmetic => summary.cosmetic += 1,
            }
            if change.old_producer_new_consumer == Class::Breaking {
                summary.breaking_old_producer_new_consumer += 1;
            }
            if change.new_producer_old_consumer == Class::Breaking {
                summary.breaking_new_producer_old_consumer += 1;
            }
        }
        summary
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} change{}: {} breaking, {} additive, {} cosmetic",
            self.changes,
            if self.changes == 1 { "" } else { "s" },
            self.breaking,
            self.additive,
            self.cosmetic
        )
    }
}

/// Escapes one JSON pointer reference token (`~` → `~0`, `/` → `~1`).
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_breaking_direction() {
        let change = Change::new(
            ChangeKind::BecameRequired,
            "/$defs/ToolCall/required",
            "`kind` became required",
            Class::Breaking,
            Class::Additive,
        );
        assert_eq!(
            change.to_string(),
            "breaking /$defs/ToolCall/required: `kind` became required (old producer → new consumer)"
        );
        let both = Change::new(
            ChangeKind::TypeChanged,
            "/$defs/A",
            "type changed from `string` to `integer`",
            Class::Breaking,
            Class::Breaking,
        );
        assert_eq!(
            both.to_string(),
            "breaking /$defs/A: type changed from `string` to `integer` (both directions)"
        );
        let mut cosmetic = Change::new(
            ChangeKind::DescriptionChanged,
            "/$defs/A/description",
            "description changed",
            Class::Cosmetic,
            Class::Cosmetic,
        );
        cosmetic.file = Some("a.schema.json".to_owned());
        assert_eq!(
            cosmetic.to_string(),
            "cosmetic a.schema.json#/$defs/A/description: description changed"
        );
    }

    #[test]
    fn summary_counts_and_displays() {
        let changes = [
            Change::new(
                ChangeKind::VariantAdded,
                "/a",
                "x",
                Class::Additive,
                Class::Breaking,
            ),
            Change::new(
                ChangeKind::TitleChanged,
                "/b",
                "y",
                Class::Cosmetic,
                Class::Cosmetic,
            ),
        ];
        let summary = Summary::of(&changes);
        assert_eq!(
            summary.to_string(),
            "2 changes: 1 breaking, 0 additive, 1 cosmetic"
        );
        assert_eq!(summary.breaking_new_producer_old_consumer, 1);
        assert_eq!(summary.breaking_old_producer_new_consumer, 0);
        assert_eq!(
            Summary::of(&changes[..1]).to_string(),
            "1 change: 1 breaking, 0 additive, 0 cosmetic"
        );
    }

    #[test]
    fn json_shape() {
        let change = Change::new(
            ChangeKind::PropertyAdded,
            "/$defs/A/properties/b",
            "property `b` added (optional)",
            Class::Additive,
            Class::Additive,
        );
        assert_eq!(
            serde_json::to_value(&change).unwrap(),
            serde_json::json!({
                "classification": "additive",
                "pointer": "/$defs/A/properties/b",
                "kind": "property_added",
                "what": "property `b` added (optional)",
                "old_producer_new_consumer": "additive",
                "new_producer_old_consumer": "additive",
            })
        );
    }

    #[test]
    fn pointer_tokens_are_escaped() {
        assert_eq!(escape("a/b~c"), "a~1b~0c");
    }
}
