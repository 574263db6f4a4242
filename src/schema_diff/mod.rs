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
//!   `{"description": ..., "allOf": [{"$ref": ...}]}` counts as a `$ref`. Only where a `$ref`
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
//! use toolcall_contracts::schema_diff::{diff, ChangeKind, Class};
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

mod engine;

pub use engine::{diff, diff_paths, Change, ChangeKind, Class, DiffError, Summary};
