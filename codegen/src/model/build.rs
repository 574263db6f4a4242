//! Builds the [`Model`] of one family from its normalized schema document (2020-12, every
//! definition under `$defs`, every `$ref` a `#/$defs/<name>`).
//!
//! Each definition becomes one item; schemas with structure found inside it (an inline object, an
//! inline union, an inline enum, a `prefixItems` array) are hoisted into items of their own,
//! named after where they are (`<Parent><Member>`) and emitted after their parent. A construct
//! the model cannot express faithfully is refused with [`BuildError`], naming the definition
//! and the JSON pointer: never a panic, never a silently wrong type.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::assertions::{residual, Construct};
use super::names;
use super::{CheckAt, Item, Kind, Model, Ty};
use crate::pointer;
use crate::typify_stage::{Scalars, TypifyError};

/// How one family is built.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options<'a> {
    /// Only the `$ref` closure of these definitions is generated; `None` generates every one.
    pub roots: Option<&'a [&'a str]>,
    /// Definitions replaced by a Rust type: `(definition, path)`.
    pub replacements: &'a [(&'a str, &'a str)],
    /// Tagged unions the family keeps open although the schema has no catch-all branch.
    pub open_unions: &'a [&'a str],
    /// Structs keep the members the schema does not declare (`unknown_members`).
    pub keep_unknown_members: bool,
    /// An optional member sent as `null` although its schema does not admit `null` decodes as
    /// absent (reported) instead of failing.
    pub null_as_absent: bool,
    /// A string enumeration with the value `other` takes any value it does not know as `other`
    /// (reported as `unknown_value`), as the official ACP crate does.
    pub unknown_enum_as_other: bool,
    /// Faithful to every assertion: what a type cannot carry is checked when decoding against
    /// this schema file (a user's schema). `None` (the in-repo families) keeps the types as
    /// they are and checks nothing beyond them.
    pub checks: Option<&'a super::checks::Source>,
    /// Result unions decoded by the tag of the request they answer: `(requests, results)`,
    /// definition names.
    pub paired_results: &'a [(&'a str, &'a str)],
}

/// A construct the pipeline refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// Something the model cannot express faithfully.
    #[error("definition `{definition}`: {what} at `{pointer}`")]
    Unsupported {
        /// The definition holding it.
        definition: String,
        /// RFC 6901 pointer of the construct.
        pointer: String,
        /// What it is and why it is refused.
        what: String,
    },
    /// Something no JSON Schema validator takes (a `multipleOf` of zero).
    #[error("definition `{definition}`: {what} at `{pointer}`")]
    Invalid {
        /// The definition holding it.
        definition: String,
        /// RFC 6901 pointer of the construct.
        pointer: String,
        /// What it is.
        what: String,
    },
    /// A `$ref` to no definition.
    #[error("definition `{definition}`: `$ref` to `{target}`, which is not a definition of this schema, at `{pointer}`")]
    MissingRef {
        /// The definition holding the reference.
        definition: String,
        /// The reference.
        target: String,
        /// RFC 6901 pointer of the reference.
        pointer: String,
    },
    /// A requested root is not a definition.
    #[error("root definition `{definition}` is not in the schema")]
    MissingRoot {
        /// The requested name.
        definition: String,
    },
    /// typify failed on a scalar.
    #[error("definition `{definition}`: {source}")]
    Typify {
        /// The definition.
        definition: String,
        /// typify's failure.
        source: TypifyError,
    },
}

/// Names the emitted impls use for themselves: the generic parameters `D: Deserializer`,
/// `S: Serializer`, `A: MapAccess` and the local `struct Visitor`. A definition with one of these
/// names gets the next free one (`A2`), or its impls would not compile.
pub const RESERVED: &[&str] = &["A", "D", "S", "Visitor"];

/// Builds the model of the definitions `defs` (in their order).
///
/// # Errors
/// See [`BuildError`].
pub fn build(
    defs: &Map<String, Value>,
    origins: &BTreeMap<String, String>,
    options: &Options<'_>,
) -> Result<Model, BuildError> {
    let keep = closure(defs, options.roots)?;
    let replaced: BTreeMap<String, String> = options
        .replacements
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let mut builder = Builder {
        defs,
        origins,
        options,
        replaced,
        type_names: BTreeMap::new(),
        taken: RESERVED.iter().map(|name| (*name).to_owned()).collect(),
        scalars: Scalars::new(),
        items: Vec::new(),
        definition: String::new(),
        string_enums: BTreeSet::new(),
        hoisting: Vec::new(),
        merge_lost: std::cell::RefCell::new(Vec::new()),
        dynamic_scope: options
            .checks
            .is_some_and(|source| uses_dynamic_refs(&source.document)),
    };
    // Every kept definition gets its name first, so that references resolve in any order; a
    // definition already spelt as its Rust name (`FooBar`) claims it before one that converts
    // to it (`foo_bar` is then `FooBar2`).
    let mut order: Vec<&String> = defs
        .keys()
        .filter(|name| keep.contains(*name) && !builder.replaced.contains_key(*name))
        .collect();
    order.sort_by_key(|name| names::type_name(name) != **name);
    for name in order {
        let rust = builder.claim(names::type_name(name));
        if super::unions::is_string_enum(&defs[name]) {
            builder.string_enums.insert(rust.clone());
        }
        builder.type_names.insert(name.clone(), rust);
    }
    for (name, schema) in defs {
        if !keep.contains(name) || builder.replaced.contains_key(name) {
            continue;
        }
        builder.definition.clone_from(name);
        let rust = builder.type_names[name].clone();
        let pointer = builder.origin(name);
        builder.item(rust, schema, &pointer)?;
    }
    let mut model = Model {
        items: builder.items,
        document: None,
        warnings: Vec::new(),
        json_values: options.checks.is_some(),
        pairings: Vec::new(),
    };
    if let Some(source) = options.checks {
        model.warnings.extend(dialect_warning(&source.document));
        model.warnings.extend(integer_warning(&model));
        let pointers = check_pointers(&model);
        if !pointers.is_empty() {
            let refs: Vec<&str> = pointers.iter().map(String::as_str).collect();
            let document = super::checks::document(source, &refs).map_err(|(at, what)| {
                BuildError::Unsupported {
                    definition: definition_of(&at),
                    pointer: at,
                    what,
                }
            })?;
            model.document = Some(document);
        }
    }
    if let Some(cycle) = super::recursion::same_value_cycle(&model) {
        let first = model
            .item(cycle[0])
            .map_or("", |item| item.pointer.as_str());
        return Err(BuildError::Unsupported {
            definition: pointer::tokens(first)
                .nth(1)
                .map(std::borrow::Cow::into_owned)
                .unwrap_or_default(),
            pointer: first.to_owned(),
            what: format!(
                "a cycle of `$ref`s and unions that never reaches a value ({})",
                cycle
                    .iter()
                    .map(|name| format!("`{name}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    super::recursion::newtype_recursive_aliases(&mut model);
    super::recursion::box_cycles(&mut model);
    for (index, (requests, results)) in options.paired_results.iter().enumerate() {
        // Each union gets its functions once (`decode_for`, `method`): a second pairing of
        // either would define them twice.
        let earlier = &options.paired_results[..index];
        if let Some(twice) = [requests, results]
            .into_iter()
            .find(|name| earlier.iter().any(|(a, b)| a == *name || b == *name))
        {
            return Err(BuildError::Unsupported {
                definition: (*twice).to_owned(),
                pointer: origin(origins, twice),
                what: "`paired_results` names it a second time (a union is paired once)".to_owned(),
            });
        }
        let name = |definition: &str| {
            builder
                .type_names
                .get(definition)
                .cloned()
                // A definition of the schema (the builder checked) with no type: the roots
                // leave it out.
                .ok_or_else(|| BuildError::Unsupported {
                    definition: definition.to_owned(),
                    pointer: origin(origins, definition),
                    what: "`paired_results` names it, but the `roots` set do not reach it (add \
                           it to them)"
                        .to_owned(),
                })
        };
        let empty = builder.type_names.get(super::pairing::EMPTY_RESULT);
        let pairing = super::pairing::pair(
            &model,
            &name(requests)?,
            &name(results)?,
            empty.map(String::as_str),
        )?;
        model.pairings.push(pairing);
    }
    Ok(model)
}

/// The pointer of definition `name`'s schema in its file, from `origins` ([`Builder::origin`]).
fn origin(origins: &BTreeMap<String, String>, name: &str) -> String {
    origins
        .get(name)
        .cloned()
        .unwrap_or_else(|| pointer::join("/$defs", name))
}

/// The definition a pointer in a file is inside (`<root>` outside `$defs`).
fn definition_of(at: &str) -> String {
    let mut tokens = pointer::tokens(at);
    match (tokens.next().as_deref(), tokens.next()) {
        (Some("$defs" | "definitions"), Some(name)) => name.into_owned(),
        _ => "<root>".to_owned(),
    }
}

/// Whether a `$dynamicRef` or `$recursiveRef` is anywhere in `value`.
fn uses_dynamic_refs(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.iter().any(|(k, v)| {
            matches!(k.as_str(), "$dynamicRef" | "$recursiveRef") || uses_dynamic_refs(v)
        }),
        Value::Array(items) => items.iter().any(uses_dynamic_refs),
        _ => false,
    }
}

/// `keywords`, then the `losses` not among them.
fn with_losses(mut keywords: Vec<String>, losses: Vec<String>) -> Vec<String> {
    for keyword in losses {
        if !keywords.contains(&keyword) {
            keywords.push(keyword);
        }
    }
    keywords
}

/// Whether a schema the model cannot build a type for is valid JSON Schema, so that a check can
/// take it (a `$ref` to a definition the document does not have, or a `multipleOf` of zero, is
/// not: refused as it is).
fn checkable(error: &BuildError) -> bool {
    match error {
        BuildError::MissingRef { target, .. } => ref_name(target).is_none(),
        BuildError::Invalid { .. } => false,
        _ => true,
    }
}

/// Why a schema the model cannot build a type for is a value checked when decoding.
fn fallback_reason(error: &BuildError) -> String {
    match error {
        BuildError::Unsupported { what, .. } => what.clone(),
        other => other.to_string(),
    }
}

/// The warning for a `$schema` that names no dialect the pipeline knows (a custom meta-schema,
/// which may turn vocabularies off or add some): the document is read as the draft
/// [`super::checks::Draft::of`] gives, every keyword of its vocabularies asserted.
fn dialect_warning(document: &Value) -> Option<String> {
    let declared = document.get("$schema")?.as_str()?;
    let bare = declared
        .trim_end_matches('#')
        .trim_start_matches("https://")
        .trim_start_matches("http://");
    let known = [
        "json-schema.org/draft-04/schema",
        "json-schema.org/draft-06/schema",
        "json-schema.org/draft-07/schema",
        "json-schema.org/draft/2019-09/schema",
        "json-schema.org/draft/2020-12/schema",
    ];
    if known.contains(&bare) {
        return None;
    }
    let draft = match super::checks::Draft::of(document) {
        super::checks::Draft::Draft4 => "draft-04",
        super::checks::Draft::Draft6 => "draft-06",
        super::checks::Draft::Draft7 => "draft-07",
        super::checks::Draft::Draft201909 => "2019-09",
        super::checks::Draft::Draft202012 => "2020-12",
    };
    Some(format!(
        "`$schema` is `{declared}`, a meta-schema the pipeline does not read: the document is read as draft {draft}, every keyword of its vocabularies asserted (a vocabulary the meta-schema turns off is still checked, and a keyword one it adds defines is an annotation)"
    ))
}

/// The warning for the Rust integers of `model`: `integer` is `i64` (or the width its
/// `format` and bounds give), which refuses what JSON Schema also calls an integer: one written
/// with a fraction (`1.0`), or one past the type's range.
fn integer_warning(model: &Model) -> Option<String> {
    fn has_int(ty: &Ty) -> bool {
        match ty {
            Ty::Int(_) => true,
            Ty::Boxed(inner)
            | Ty::Vec(inner)
            | Ty::Nullable(inner)
            | Ty::Map(inner)
            | Ty::Bounded(inner, _)
            | Ty::Checked(inner, _) => has_int(inner),
            _ => false,
        }
    }
    let names: Vec<String> = model
        .items
        .iter()
        .filter(|item| {
            let mut found = matches!(&item.kind, Kind::Enum(e) if e.integer);
            item.kind.each_ty(&mut |ty| found |= has_int(ty));
            found
        })
        .map(|item| format!("`{}`", item.name))
        .collect();
    (!names.is_empty()).then(|| {
        format!(
            "`integer` values are Rust integers (`i64`, or the width of their `format`) in {}: decoding refuses an integer written with a fraction (`1.0`) or past that width, which the schema accepts",
            names.join(", ")
        )
    })
}

/// Every pointer a check of `model` validates against, sorted, once each.
fn check_pointers(model: &Model) -> Vec<String> {
    fn walk(ty: &Ty, out: &mut BTreeSet<String>) {
        match ty {
            Ty::Checked(inner, at) => {
                out.insert(at.pointer.clone());
                walk(inner, out);
            }
            Ty::Boxed(inner)
            | Ty::Vec(inner)
            | Ty::Nullable(inner)
            | Ty::Map(inner)
            | Ty::Bounded(inner, _) => walk(inner, out),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    for item in &model.items {
        if let Some(at) = &item.check {
            out.insert(at.pointer.clone());
        }
        item.kind.each_ty(&mut |ty| walk(ty, &mut out));
    }
    out.into_iter().collect()
}

/// The definitions reachable from `roots` over `$ref` (every definition without roots).
fn closure(
    defs: &Map<String, Value>,
    roots: Option<&[&str]>,
) -> Result<BTreeSet<String>, BuildError> {
    let Some(roots) = roots else {
        return Ok(defs.keys().cloned().collect());
    };
    let mut seen = BTreeSet::new();
    let mut stack: Vec<String> = Vec::new();
    for root in roots {
        if !defs.contains_key(*root) {
            return Err(BuildError::MissingRoot {
                definition: (*root).to_owned(),
            });
        }
        stack.push((*root).to_owned());
    }
    while let Some(name) = stack.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        if let Some(schema) = defs.get(&name) {
            collect_refs(schema, &mut stack);
        }
    }
    Ok(seen)
}

fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, sub) in map {
                if key == "$ref" {
                    if let Some(target) = sub.as_str().and_then(ref_name) {
                        out.push(target);
                    }
                } else {
                    collect_refs(sub, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

/// The definition a normalized `$ref` names (`#/$defs/Name`, unescaped).
pub(crate) fn ref_name(reference: &str) -> Option<String> {
    let rest = reference.strip_prefix("#/$defs/")?;
    (!rest.contains('/')).then(|| pointer::unescape(rest).into_owned())
}

pub(super) struct Builder<'a> {
    pub(super) defs: &'a Map<String, Value>,
    /// Definition → pointer of its schema in its file (errors name what the user wrote).
    origins: &'a BTreeMap<String, String>,
    pub(super) options: &'a Options<'a>,
    replaced: BTreeMap<String, String>,
    /// Definition name → Rust type name.
    type_names: BTreeMap<String, String>,
    /// Rust type names in use.
    taken: BTreeSet<String>,
    scalars: Scalars,
    items: Vec<Item>,
    /// The definition being built (for errors).
    pub(super) definition: String,
    /// Rust names of string enumerations.
    pub(super) string_enums: BTreeSet<String>,
    /// The inline schemas being hoisted, outermost first (one that contains itself is refused).
    hoisting: Vec<(Value, String)>,
    /// What merging the schema being built left out (see [`Builder::note_merge_losses`]).
    merge_lost: std::cell::RefCell<Vec<String>>,
    /// The document uses `$dynamicRef` or `$recursiveRef` (faithful families): the root is
    /// checked as a whole, from where its dynamic scope starts.
    dynamic_scope: bool,
}

impl Builder<'_> {
    /// Reserves a Rust type name, suffixing `2`, `3`... when it is taken.
    pub(super) fn claim(&mut self, name: String) -> String {
        let mut candidate = name.clone();
        let mut n = 2;
        while self.taken.contains(&candidate) {
            candidate = format!("{name}{n}");
            n += 1;
        }
        self.taken.insert(candidate.clone());
        candidate
    }

    /// The pointer of definition `name`'s schema in its file: `/$defs/A`, `/definitions/A` in a
    /// draft-07 document, `""` for a root schema.
    pub(super) fn origin(&self, name: &str) -> String {
        origin(self.origins, name)
    }

    pub(super) fn unsupported(&self, pointer: &str, what: impl Into<String>) -> BuildError {
        BuildError::Unsupported {
            definition: self.definition.clone(),
            pointer: pointer.to_owned(),
            what: what.into(),
        }
    }

    /// The schema of the definition `reference` names.
    pub(super) fn resolve(&self, reference: &str, pointer: &str) -> Result<&Value, BuildError> {
        ref_name(reference)
            .and_then(|name| self.defs.get(&name))
            .ok_or_else(|| BuildError::MissingRef {
                definition: self.definition.clone(),
                target: reference.to_owned(),
                pointer: pointer.to_owned(),
            })
    }

    /// The type a `$ref` stands for: the definition's generated type or its replacement.
    pub(super) fn ref_type(&self, reference: &str, pointer: &str) -> Result<Ty, BuildError> {
        let missing = || BuildError::MissingRef {
            definition: self.definition.clone(),
            target: reference.to_owned(),
            pointer: pointer.to_owned(),
        };
        let name = ref_name(reference).ok_or_else(missing)?;
        if let Some(path) = self.replaced.get(&name) {
            return Ok(match path.as_str() {
                "String" => Ty::String,
                "Value" => Ty::Value,
                "bool" => Ty::Bool,
                "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" => {
                    Ty::Int(path.clone())
                }
                _ => Ty::Path(path.clone()),
            });
        }
        self.type_names
            .get(&name)
            .map(|rust| Ty::Named(rust.clone()))
            .ok_or_else(missing)
    }

    /// The Rust name of a definition (`None` for a replaced one).
    pub(super) fn type_name_of(&self, definition: &str) -> Option<&str> {
        self.type_names.get(definition).map(String::as_str)
    }

    /// Builds the item `name` from `schema` and pushes it (before the items it hoists).
    pub(super) fn item(
        &mut self,
        name: String,
        schema: &Value,
        pointer: &str,
    ) -> Result<(), BuildError> {
        let slot = self.items.len();
        self.items.push(Item {
            name: name.clone(),
            pointer: pointer.to_owned(),
            docs: description(schema),
            kind: Kind::Alias(Ty::Value),
            check: None,
        });
        let (kind, check) = self.kind(&name, schema, pointer)?;
        self.items[slot].kind = kind;
        self.items[slot].check = check;
        Ok(())
    }

    /// Pushes an item built elsewhere (a flattened union), after the items pushed so far.
    pub(super) fn push_item(&mut self, item: Item) {
        self.items.push(item);
    }

    /// Hoists `schema` into an item named after `hint` and returns its type.
    pub(super) fn hoist(
        &mut self,
        hint: &str,
        schema: &Value,
        pointer: &str,
    ) -> Result<Ty, BuildError> {
        if let Some((_, first)) = self.hoisting.iter().find(|(s, _)| s == schema) {
            // A `$ref` with siblings inside its own target (`"me": {"$ref": "#/$defs/A",
            // "required": ["v"]}` in `A`) merges into a new inline schema that holds itself
            // again: hoisting it would never end.
            return Err(self.unsupported(
                &first.clone(),
                "an inline schema that contains itself (a `$ref` with sibling keywords, or an `allOf`, inside the definition it refers to): give the merged schema a definition of its own",
            ));
        }
        let name = self.claim(names::pascal(hint));
        if super::unions::is_string_enum(schema) {
            self.string_enums.insert(name.clone());
        }
        self.hoisting.push((schema.clone(), pointer.to_owned()));
        let built = self.item(name.clone(), schema, pointer);
        self.hoisting.pop();
        built?;
        Ok(Ty::Named(name))
    }

    /// What kind of item a schema in definition position is, and the check of what its type
    /// does not carry (faithful families only: see [`Options::checks`]).
    fn kind(
        &mut self,
        name: &str,
        schema: &Value,
        pointer: &str,
    ) -> Result<(Kind, Option<CheckAt>), BuildError> {
        if self.options.checks.is_none() {
            return self
                .kind_shape(name, schema, pointer)
                .map(|(kind, _)| (kind, None));
        }
        let mark = self.items.len();
        let outer_losses = std::mem::take(&mut *self.merge_lost.borrow_mut());
        let shaped = if pointer.is_empty() && self.dynamic_scope {
            Err(self.unsupported(
                pointer,
                "a document with `$dynamicRef` (or `$recursiveRef`), whose dynamic scope starts at the root",
            ))
        } else if self.dynamic_scope && super::assertions::reaches_dynamic_ref(self, schema) {
            // Decoded as one value, checked from here: a part checked on its own would resolve
            // its `$dynamicRef` in another dynamic scope.
            Err(self.unsupported(
                pointer,
                "a schema that reaches a `$dynamicRef` (or `$recursiveRef`), which resolves in the dynamic scope it is decoded in",
            ))
        } else {
            self.kind_shape(name, schema, pointer)
        };
        let losses = std::mem::replace(&mut *self.merge_lost.borrow_mut(), outer_losses);
        let (kind, keywords) = match shaped {
            Ok((kind, Some((merged, construct)))) => {
                let keywords = residual(self, &merged, construct);
                // The union keyword, when the union does not enforce it as written: an untagged
                // `oneOf` decoded as an `anyOf`, or a tagged union whose branches assert more
                // than their structs carry.
                let unenforced = match &kind {
                    Kind::Union(u) if u.tag.is_none() && !u.exactly_one => {
                        merged.get("oneOf").map(|_| "oneOf")
                    }
                    Kind::Union(u)
                        if u.tag.is_some()
                            && super::assertions::tagged_branches_lossy(self, &merged) =>
                    {
                        ["oneOf", "anyOf"]
                            .into_iter()
                            .find(|k| merged.get(*k).is_some())
                    }
                    _ => None,
                };
                let mut keywords = keywords;
                if let Some(keyword) = unenforced {
                    if !keywords.iter().any(|k| k == keyword) {
                        keywords.push(keyword.to_owned());
                    }
                }
                (kind, keywords)
            }
            Ok((kind, None)) => (kind, Vec::new()),
            Err(error) if !checkable(&error) => return Err(error),
            Err(error) => {
                self.items.truncate(mark);
                (Kind::Newtype(Ty::Value), vec![fallback_reason(&error)])
            }
        };
        let keywords = with_losses(keywords, losses);
        if keywords.is_empty() {
            return Ok((kind, None));
        }
        let check = self.check_at(pointer, keywords)?;
        Ok(match kind {
            Kind::Newtype(ty) | Kind::Alias(ty) => {
                (Kind::Newtype(Ty::Checked(Box::new(ty), check)), None)
            }
            other => (other, Some(check)),
        })
    }

    /// A check of the schema at `pointer` (into the normalized document) for `keywords`.
    fn check_at(&self, pointer: &str, keywords: Vec<String>) -> Result<CheckAt, BuildError> {
        let source = self.options.checks.ok_or_else(|| {
            self.unsupported(pointer, "a run-time check in a family that has none")
        })?;
        let original = super::checks::original_pointer(&source.document, pointer)
            .ok_or_else(|| {
                self.unsupported(
                    pointer,
                    format!(
                        "{} here need a run-time check, but the pipeline cannot find this schema in the document as written",
                        keywords.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
                    ),
                )
            })?;
        Ok(CheckAt {
            pointer: original,
            keywords,
        })
    }

    /// Records what merging `original` into `merged` (an `allOf`, a `$ref` with siblings)
    /// left out, for the check of the schema being built (faithful families only).
    fn note_merge_losses(&self, original: &Value, merged: &Value) {
        if !self.faithful() || merged.get("$ref").is_some() || std::ptr::eq(original, merged) {
            return;
        }
        let losses = super::objects::merge_losses(self, original);
        let mut lost = self.merge_lost.borrow_mut();
        for keyword in losses {
            if !lost.contains(&keyword) {
                lost.push(keyword);
            }
        }
    }

    /// Whether `format` is asserted (else an annotation).
    pub(super) fn assert_formats(&self) -> bool {
        self.options.checks.is_some_and(|c| c.assert_formats)
    }

    /// Whether the family is faithful to every assertion (see [`Options::checks`]).
    pub(super) fn faithful(&self) -> bool {
        self.options.checks.is_some()
    }

    /// [`Builder::kind`] without checks: the kind, and (for a construct this level decides)
    /// the merged schema and the construct, for [`residual`].
    #[allow(clippy::type_complexity, reason = "a private helper's pair")]
    fn kind_shape(
        &mut self,
        name: &str,
        schema: &Value,
        pointer: &str,
    ) -> Result<(Kind, Option<(Value, Construct)>), BuildError> {
        let original = schema;
        let schema = self.merge_all_of(schema, pointer)?;
        let schema = schema.as_ref();
        self.note_merge_losses(original, schema);
        let mine = |construct| Some((schema.clone(), construct));
        if let Some(split) = enumeration_with_null(schema) {
            // `null` is a value of the definition: a union of the other values and `null`, as
            // `type: [string, null]` is.
            return self.kind_shape(name, &split, pointer);
        }
        if let Some(e) = super::unions::enumeration(self, schema, pointer)? {
            return Ok((Kind::Enum(e), mine(Construct::Enum)));
        }
        self.refuse_unknown_enum(schema, pointer)?;
        let types = types(schema);
        if has_union(schema) {
            if self.is_object(schema) && has_properties(schema) {
                return self.structure(name, schema, pointer).map(|s| {
                    // A flattened union or a presence rule carries the union keyword.
                    let flattened = s.flatten.is_some() || s.presence_rule.is_some();
                    (Kind::Struct(s), mine(Construct::Struct { flattened }))
                });
            }
            if let Some(narrowed) = super::unions::narrowed(self, schema, pointer)? {
                return self.kind_shape(name, &narrowed, pointer);
            }
            return super::unions::union(self, name, schema, pointer).map(|u| {
                // Distinct tag values make the branches exclusive, as `oneOf` wants.
                let exact = u.exactly_one || u.tag.is_some() || schema.get("oneOf").is_none();
                (Kind::Union(u), mine(Construct::Union { exact }))
            });
        }
        if types.non_null.len() >= 2 || (types.nullable && !types.non_null.is_empty()) {
            return super::unions::union(self, name, schema, pointer)
                .map(|u| (Kind::Union(u), None));
        }
        if self.is_object(schema) {
            if has_properties(schema) {
                return self.structure(name, schema, pointer).map(|s| {
                    (
                        Kind::Struct(s),
                        mine(Construct::Struct { flattened: false }),
                    )
                });
            }
            return self
                .object_value(name, schema, pointer)
                .map(|ty| (Kind::Newtype(ty), mine(Construct::ObjectMap)));
        }
        if types.non_null.first().map(String::as_str) == Some("array") {
            if schema.get("prefixItems").is_some() {
                return super::objects::tuple(self, name, schema, pointer)
                    .map(|t| (Kind::Tuple(t), mine(Construct::Tuple)));
            }
            // An array with bounds is a newtype that checks them; a plain one an alias.
            return self.value(schema, name, pointer).map(|(ty, _)| {
                let kind = if ty.checks_beyond_type() && self.faithful() {
                    Kind::Newtype(ty)
                } else {
                    match ty {
                        Ty::Bounded(..) | Ty::Checked(..) => Kind::Newtype(ty),
                        ty => Kind::Alias(ty),
                    }
                };
                (kind, None)
            });
        }
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            if self.faithful() && !self.is_local_ref(reference) {
                return Err(self.unsupported(pointer, format!("a remote `$ref` to `{reference}`")));
            }
            return self
                .ref_type(reference, pointer)
                .map(|ty| (Kind::Alias(ty), mine(Construct::Ref)));
        }
        if types.non_null.is_empty() {
            if self.faithful() {
                return self.value(schema, name, pointer).map(|(ty, _)| {
                    let kind = if ty == Ty::Value || ty.checks_beyond_type() {
                        Kind::Newtype(ty)
                    } else {
                        Kind::Alias(ty)
                    };
                    (kind, None)
                });
            }
            if schema.get("const").is_some() {
                return Err(
                    self.unsupported(pointer, "a `const` that is not a string or an integer")
                );
            }
            if types.nullable {
                return Err(self.unsupported(
                    pointer,
                    "`type: null` alone (a value that can only be `null`)",
                ));
            }
            return Ok((Kind::Newtype(Ty::Value), None));
        }
        self.value(schema, name, pointer)
            .map(|(ty, _)| (Kind::Newtype(ty), None))
    }

    /// Whether `reference` names a definition of the family.
    pub(super) fn is_local_ref(&self, reference: &str) -> bool {
        ref_name(reference).is_some_and(|name| self.defs.contains_key(&name))
    }

    /// Whether a schema describes objects: `type: object`; in a family that is not faithful
    /// (see [`Options::checks`]) also `properties` or `additionalProperties` without a `type`.
    pub(super) fn is_object(&self, schema: &Value) -> bool {
        if self.faithful() {
            let types = types(schema);
            types.non_null == ["object"]
        } else {
            is_object(schema)
        }
    }

    /// The type of a schema in value position (a member, an item, a branch), with whether it
    /// admits `null`. Structure inside it is hoisted into items named after `hint`.
    ///
    /// # Errors
    /// See [`BuildError`].
    pub(super) fn value(
        &mut self,
        schema: &Value,
        hint: &str,
        pointer: &str,
    ) -> Result<(Ty, bool), BuildError> {
        if self.options.checks.is_none() {
            return self
                .value_shape(schema, hint, pointer)
                .map(|(ty, nullable, _)| (ty, nullable));
        }
        let mark = self.items.len();
        let outer_losses = std::mem::take(&mut *self.merge_lost.borrow_mut());
        let shaped = self.value_shape(schema, hint, pointer);
        let losses = std::mem::replace(&mut *self.merge_lost.borrow_mut(), outer_losses);
        let (ty, nullable, keywords) = match shaped {
            Ok((ty, nullable, Some((merged, construct)))) => {
                let keywords = residual(self, &merged, construct);
                (ty, nullable, keywords)
            }
            Ok((ty, nullable, None)) => (ty, nullable, Vec::new()),
            Err(error) if !checkable(&error) => return Err(error),
            Err(error) => {
                self.items.truncate(mark);
                (Ty::Value, false, vec![fallback_reason(&error)])
            }
        };
        let keywords = with_losses(keywords, losses);
        if keywords.is_empty() {
            return Ok((ty, nullable));
        }
        let check = self.check_at(pointer, keywords)?;
        Ok((Ty::Checked(Box::new(ty), check), nullable))
    }

    /// [`Builder::value`] without checks: the type, whether it admits `null`, and (for a
    /// construct this level decides) the merged schema and the construct, for [`residual`].
    #[allow(clippy::type_complexity, reason = "a private helper's triple")]
    fn value_shape(
        &mut self,
        schema: &Value,
        hint: &str,
        pointer: &str,
    ) -> Result<(Ty, bool, Option<(Value, Construct)>), BuildError> {
        if let Some((inner, inner_pointer)) = super::unions::nullable_branch(schema, pointer) {
            let (ty, _) = self.value(inner, hint, &inner_pointer)?;
            return Ok((ty, true, None));
        }
        if schema == &Value::Bool(false) {
            return Err(self.unsupported(
                pointer,
                "the schema `false`, which no value matches (a member that must be absent has no Rust shape here)",
            ));
        }
        let original = schema;
        let merged = self.merge_all_of(schema, pointer)?;
        let schema = merged.as_ref();
        self.note_merge_losses(original, schema);
        let mine = |construct| Some((schema.clone(), construct));
        let types = types(schema);
        let nullable = types.nullable;
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            if self.faithful() && !self.is_local_ref(reference) {
                return Err(self.unsupported(pointer, format!("a remote `$ref` to `{reference}`")));
            }
            return Ok((
                self.ref_type(reference, pointer)?,
                nullable,
                mine(Construct::Ref),
            ));
        }
        if super::unions::is_enumeration(schema) {
            if schema
                .get("enum")
                .and_then(Value::as_array)
                .is_some_and(|v| v.iter().any(Value::is_null))
            {
                let mut without = schema.clone();
                if let Some(values) = without.get_mut("enum").and_then(Value::as_array_mut) {
                    values.retain(|v| !v.is_null());
                }
                return Ok((self.hoist(hint, &without, pointer)?, true, None));
            }
            return Ok((self.hoist(hint, schema, pointer)?, nullable, None));
        }
        self.refuse_unknown_enum(schema, pointer)?;
        if types.non_null.is_empty() && nullable && !has_union(schema) && !self.faithful() {
            return Err(self.unsupported(
                pointer,
                "`type: null` alone (a value that can only be `null`)",
            ));
        }
        if has_union(schema) {
            if self.is_object(schema) && has_properties(schema) {
                return Ok((self.hoist(hint, schema, pointer)?, nullable, None));
            }
            if let Some(narrowed) = super::unions::narrowed(self, schema, pointer)? {
                return self.value_shape(&narrowed, hint, pointer);
            }
            return Ok((self.hoist(hint, schema, pointer)?, nullable, None));
        }
        if types.non_null.len() >= 2 {
            let mut without_null = schema.clone();
            without_null["type"] = Value::from(types.non_null.clone());
            return Ok((self.hoist(hint, &without_null, pointer)?, nullable, None));
        }
        let first = types.non_null.first().map(String::as_str);
        if let (Some(other @ ("number" | "array" | "object")), Some(_)) =
            (first, schema.get("const"))
        {
            return Err(self.unsupported(
                &pointer::join(pointer, "const"),
                format!(
                    "a `const` on {} `{other}` (only string, integer and boolean `const`s are checked)",
                    if other == "number" { "a" } else { "an" }
                ),
            ));
        }
        let object = if self.faithful() {
            first == Some("object")
        } else {
            matches!(first, Some("object") | None) && is_object(schema)
        };
        let (ty, construct) = match first {
            _ if object => {
                if has_properties(schema) {
                    (self.hoist(hint, schema, pointer)?, Construct::Delegated)
                } else {
                    (
                        self.object_value(hint, schema, pointer)?,
                        Construct::ObjectMap,
                    )
                }
            }
            Some("array") => {
                if schema.get("prefixItems").is_some() {
                    // The tuple checks `minItems` and `maxItems` itself.
                    return Ok((self.hoist(hint, schema, pointer)?, nullable, None));
                }
                let item = match schema.get("items") {
                    None | Some(Value::Bool(true)) => Ty::Value,
                    Some(items) if items.as_object().is_some_and(Map::is_empty) => Ty::Value,
                    Some(Value::Bool(false)) if !self.faithful() => {
                        return Err(self.unsupported(
                            pointer,
                            "an array whose `items` is `false` (always empty)",
                        ));
                    }
                    Some(items) => {
                        let here = pointer::join(pointer, "items");
                        let (ty, item_nullable) =
                            self.value(items, &format!("{hint}Item"), &here)?;
                        Ty::nullable_if(ty, item_nullable)
                    }
                };
                (Ty::Vec(Box::new(item)), Construct::Array)
            }
            Some("string") => (self.scalar(schema, pointer)?, Construct::Scalar("string")),
            Some("boolean") => (self.scalar(schema, pointer)?, Construct::Scalar("boolean")),
            Some("integer") => (self.scalar(schema, pointer)?, Construct::Scalar("integer")),
            // A faithful family keeps every digit of any number (`JsonNumber`).
            Some("number") if self.faithful() => (Ty::JsonNumber, Construct::Scalar("number")),
            Some("number") => (Ty::Number, Construct::Scalar("number")),
            Some("null") | None => {
                if schema.get("const").is_some() && !self.faithful() {
                    return Err(self.unsupported(
                        pointer,
                        "a `const` without a `type`, or one that is not a string or an integer",
                    ));
                }
                (Ty::Value, Construct::Any)
            }
            Some(other) => {
                return Err(self.unsupported(pointer, format!("`type: {other}`")));
            }
        };
        let mut bounds = super::scalars::bounds(schema);
        if self.faithful() {
            super::scalars::keep_applicable(&mut bounds, &ty);
        }
        let ty = if bounds.is_empty() {
            ty
        } else {
            super::scalars::check_bounds(self, &ty, &bounds, pointer)?;
            Ty::Bounded(Box::new(ty), Box::new(bounds))
        };
        Ok((ty, nullable, mine(construct)))
    }

    /// Refuses an `enum` that is not an enumeration of strings or of integers (mixed values, or
    /// a `const` beside it that is none of them): no Rust type would check it.
    fn refuse_unknown_enum(&self, schema: &Value, pointer: &str) -> Result<(), BuildError> {
        if schema.get("enum").is_some() && !super::unions::is_enumeration(schema) {
            return Err(self.unsupported(
                &pointer::join(pointer, "enum"),
                "an `enum` whose values are not all strings or all integers within `i64` (or whose `const` is none of them)",
            ));
        }
        Ok(())
    }

    /// The type of an object schema without declared members: a map of typed values, or any
    /// object.
    fn object_value(
        &mut self,
        hint: &str,
        schema: &Value,
        pointer: &str,
    ) -> Result<Ty, BuildError> {
        match schema.get("additionalProperties") {
            None | Some(Value::Bool(true)) => Ok(Ty::Object),
            // Beside `patternProperties`, `additionalProperties` is about the members no
            // pattern matches: any object, both checked.
            Some(_) if self.faithful() && schema.get("patternProperties").is_some() => {
                Ok(Ty::Object)
            }
            Some(Value::Bool(false)) => Err(self.unsupported(pointer, "an object that admits no member at all (`additionalProperties: false` without `properties`)")),
            Some(values) if values.as_object().is_some_and(Map::is_empty) => Ok(Ty::Object),
            Some(values) => {
                let here = pointer::join(pointer, "additionalProperties");
                let (ty, nullable) = self.value(values, &format!("{hint}Value"), &here)?;
                if ty == Ty::Value {
                    return Ok(Ty::Object);
                }
                Ok(Ty::Map(Box::new(Ty::nullable_if(ty, nullable))))
            }
        }
    }

    fn scalar(&mut self, schema: &Value, pointer: &str) -> Result<Ty, BuildError> {
        use crate::typify_stage::Scalar;
        match self.scalars.map(schema, pointer) {
            Ok(Scalar::Bool) => Ok(Ty::Bool),
            Ok(Scalar::String) => Ok(Ty::String),
            Ok(Scalar::Int(width)) => Ok(Ty::Int(width)),
            Err(source) => Err(BuildError::Typify {
                definition: self.definition.clone(),
                source,
            }),
        }
    }

    /// The struct of an object schema.
    fn structure(
        &mut self,
        name: &str,
        schema: &Value,
        pointer: &str,
    ) -> Result<super::Struct, BuildError> {
        super::objects::structure(self, name, schema, pointer)
    }

    /// Merges `allOf` parts (and a `$ref` with sibling keywords) into one schema; see
    /// [`super::objects::merge_all_of`].
    pub(super) fn merge_all_of<'s>(
        &self,
        schema: &'s Value,
        pointer: &str,
    ) -> Result<std::borrow::Cow<'s, Value>, BuildError> {
        super::objects::merge_all_of(self, schema, pointer)
    }
}

/// An `enum` that lists `null` beside other values, as `anyOf: [{title: Value, enum: [the
/// others]}, {type: null}]`; `None` for any other schema.
fn enumeration_with_null(schema: &Value) -> Option<Value> {
    let values = schema.get("enum")?.as_array()?;
    if !values.iter().any(Value::is_null) || values.iter().all(Value::is_null) {
        return None;
    }
    let mut rest = schema.as_object()?.clone();
    let others = Value::Array(values.iter().filter(|v| !v.is_null()).cloned().collect());
    if !super::unions::is_enumeration(&serde_json::json!({ "enum": others })) {
        // Refused where it is written (`/enum`), not inside the rewrite.
        return None;
    }
    let docs: Map<String, Value> = ["description", "title"]
        .iter()
        .filter_map(|k| rest.remove(*k).map(|v| ((*k).to_owned(), v)))
        .collect();
    rest.insert(
        "enum".to_owned(),
        Value::Array(values.iter().filter(|v| !v.is_null()).cloned().collect()),
    );
    rest.insert("title".to_owned(), Value::from("Value"));
    let mut split = docs;
    split.remove("title");
    split.insert(
        "anyOf".to_owned(),
        Value::Array(vec![
            Value::Object(rest),
            serde_json::json!({"type": "null"}),
        ]),
    );
    Some(Value::Object(split))
}

/// The schema's `description`.
pub(crate) fn description(schema: &Value) -> Option<String> {
    schema
        .get("description")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// The `type`s a schema names, `null` apart.
#[derive(Debug, Default)]
pub(super) struct Types {
    pub(super) non_null: Vec<String>,
    pub(super) nullable: bool,
}

pub(super) fn types(schema: &Value) -> Types {
    let mut out = Types::default();
    let mut add = |t: &str| {
        if t == "null" {
            out.nullable = true;
        } else if !out.non_null.iter().any(|x| x == t) {
            out.non_null.push(t.to_owned());
        }
    };
    match schema.get("type") {
        Some(Value::String(t)) => add(t),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).for_each(add),
        _ => {}
    }
    out
}

pub(super) fn has_union(schema: &Value) -> bool {
    schema.get("oneOf").is_some() || schema.get("anyOf").is_some()
}

pub(super) fn has_properties(schema: &Value) -> bool {
    schema.get("properties").is_some()
}

/// Whether a schema describes objects (`type: object`, or `properties` without a `type`).
pub(super) fn is_object(schema: &Value) -> bool {
    let types = types(schema);
    if types.non_null.is_empty() {
        schema.get("properties").is_some() || schema.get("additionalProperties").is_some()
    } else {
        types.non_null == ["object"]
    }
}
