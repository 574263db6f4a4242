//! Compatibility diff of two JSON Schema documents, or of two bundles of them.
//!
//! [`diff`] walks two schema documents side by side and lists every [`Change`]: definitions
//! added or removed, properties added or removed, a property becoming required or optional,
//! nullable or not, an enum value or union variant added or removed, a type changing, a
//! constraint tightening or loosening (`minLength`, `maxLength`, `minimum`, `maximum`,
//! `pattern`, `format`, `minItems`, `maxItems`, `additionalProperties`, ...), `x-deserialize-*`
//! leniency added or removed, and annotation changes (`description`, `title`, `default`).
//! [`diff_paths`] does the same for two files, or for two directories (bundles: every `*.json`
//! file, `*.schema.json` included, matched by file name). `toolcall schemas diff OLD NEW` prints
//! the result.
//!
//! # Two directions
//!
//! A schema change can break readers in either of two directions, and each [`Change`] is
//! classified for both:
//!
//! - **old producer → new consumer** ([`Change::old_producer_new_consumer`]): can a consumer built
//!   for the new schema still read what producers built for the old one send? Making a property
//!   required breaks this direction.
//! - **new producer → old consumer** ([`Change::new_producer_old_consumer`]): can a consumer built
//!   for the old schema read what producers built for the new one send? Adding an enum value or
//!   a union variant breaks this direction (unless the old union has a catch-all branch that
//!   accepts the new value, like ACP's `other` string branches).
//!
//! Per direction a change is [`Class::Breaking`] (some document a producer may send is rejected
//! by the consumer), [`Class::Additive`] (what is valid changed, but this direction keeps
//! working) or [`Class::Cosmetic`] (annotations only: `description`, `title`, `default`,
//! `examples`, `x-docs-ignore`, unknown `x-*` extensions; no document changes validity).
//! A change's [`Change::classification`] is the worse of its two directions, and its text line
//! names the direction that breaks:
//!
//! ```text
//! breaking /$defs/ToolCall/required: `kind` became required (old producer → new consumer)
//! breaking /$defs/ToolKind/oneOf/9: enum value `deploy` added (new producer → old consumer)
//! additive /$defs/Plan/properties/title: property `title` added (optional)
//! cosmetic /$defs/Plan/description: description changed
//! ```
//!
//! `(both directions)` ends a line that breaks both ways.
//!
//! # What is compared, and how
//!
//! - Definitions (`$defs`, or draft-07 `definitions`) are compared by name. A `$ref` to a
//!   definition is compared by its target name and never expanded: `{"$ref": "#/$defs/A"}`
//!   against `{"$ref": "#/$defs/B"}` is a type change from `A` to `B`, whatever `A` and `B`
//!   contain (their own changes are listed under their definitions). The schemars idiom
//!   `{"description": ..., "allOf": [{"$ref": ...}]}` counts as a `$ref`. What the keywords
//!   beside a `$ref` assert (2020-12 applies them: `{"$ref": ..., "maxLength": 3}`) is compared
//!   as anywhere when both sides refer to the same definition. Only where a `$ref`
//!   meets an inline schema is the target expanded, once, to classify that one type change:
//!   `{"type": "string"}` becoming `{"$ref": "#/$defs/TerminalId"}` with `TerminalId` a plain
//!   string is a cosmetic "replaced by `TerminalId`, the same schema".
//! - Nullability is taken out before comparing: `"type": ["string", "null"]`, an `enum` with
//!   `null`, and `anyOf`/`oneOf` with a `{"type": "null"}` branch all make a schema nullable,
//!   so `{"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}` against `{"$ref": "#/$defs/A"}`
//!   is exactly one change, "no longer nullable".
//! - Union branches (`oneOf`/`anyOf`) are matched by identity, not position: first by their
//!   `const` tag (an object branch whose required property has a `const`, e.g.
//!   `"sessionUpdate": "plan_update"`), then by a `const` value (string enums written as
//!   `oneOf` of `const`s), then by `title`, then by `$ref` target; only branches with none of
//!   these are paired by position. An unmatched branch is a variant added or removed; a
//!   `const` branch added beside a catch-all branch that accepts it (ACP's `{"title": "other",
//!   "type": "string"}`) breaks no one. A string enum rewritten from `enum` to a `oneOf` of
//!   `const`s (or back) is compared value by value.
//! - Adding a property is breaking for new producers → old consumers only when the old object
//!   is closed (`additionalProperties: false` or `unevaluatedProperties: false`); removing one is
//!   breaking for old producers → new consumers only when the new object is closed, and for new
//!   producers → old consumers when the old schema required it.
//! - `x-deserialize-*` keywords declare consumer leniency (a malformed value decodes as absent
//!   instead of failing). Adding one is additive for old producers → new consumers; removing
//!   one is breaking in that direction (the new consumer rejects what the old one tolerated).
//!   Neither changes what a producer sends, so the other direction is cosmetic.
//! - `not` is compared recursively with the directions swapped (a wider `not` accepts less).
//! - A keyword the diff does not know, changed, is reported as breaking both ways (unknown
//!   `x-*` extensions as cosmetic), so that a gate errs on the safe side.
//!
//! Changes come in document order: root first, then definitions by name; within a schema,
//! annotations, leniency, nullability, then structure. Pointers are JSON pointers into the new
//! document, or into the old one for something removed.
//!
//! # Example
//!
//! ```
//! use serde_json::json;
//! use toolcall_schema::diff::{diff, ChangeKind, Class};
//!
//! let old = json!({"$defs": {"ToolCall": {
//!     "type": "object",
//!     "properties": {"kind": {"type": "string"}},
//! }}});
//! let new = json!({"$defs": {"ToolCall": {
//!     "type": "object",
//!     "properties": {"kind": {"type": "string"}},
//!     "required": ["kind"],
//! }}});
//! let changes = diff(&old, &new);
//! assert_eq!(changes.len(), 1);
//! assert_eq!(changes[0].kind, ChangeKind::BecameRequired);
//! assert_eq!(changes[0].old_producer_new_consumer, Class::Breaking);
//! assert_eq!(changes[0].new_producer_old_consumer, Class::Additive);
//! assert_eq!(
//!     changes[0].to_string(),
//!     "breaking /$defs/ToolCall/required: `kind` became required (old producer → new consumer)"
//! );
//! ```

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
    crate::pointer::escape(token).into_owned()
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
