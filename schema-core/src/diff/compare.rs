//! The walk: two schema documents side by side, one keyword family at a time.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::union;
use super::{escape, Change, ChangeKind, Class};

use Class::{Additive, Breaking, Cosmetic};

/// Classes of a change that makes the new schema accept more: (old producer → new consumer,
/// new producer → old consumer).
const WIDER: (Class, Class) = (Additive, Breaking);
/// Classes of a change that makes the new schema accept less.
const NARROWER: (Class, Class) = (Breaking, Additive);
/// Classes of a change that is neither wider nor narrower.
const DIFFERENT: (Class, Class) = (Breaking, Breaking);
/// Classes of an annotation change.
const COSMETIC: (Class, Class) = (Cosmetic, Cosmetic);

/// Keywords that hold definitions, compared by name in [`documents`], skipped elsewhere.
const CONTAINERS: &[&str] = &["$defs", "definitions"];

/// Lower bounds: a larger value accepts less.
const LOWER_BOUNDS: &[&str] = &[
    "minLength",
    "minItems",
    "minimum",
    "exclusiveMinimum",
    "minProperties",
    "minContains",
];

/// Upper bounds: a smaller value accepts less.
const UPPER_BOUNDS: &[&str] = &[
    "maxLength",
    "maxItems",
    "maximum",
    "exclusiveMaximum",
    "maxProperties",
    "maxContains",
];

/// Constraints without an order: added tightens, removed loosens, changed is different
/// (`format` compares integer widths).
const OTHER_CONSTRAINTS: &[&str] = &[
    "pattern",
    "format",
    "multipleOf",
    "uniqueItems",
    "contentEncoding",
    "contentMediaType",
];

/// Keywords [`Walk::unknown`] knows to assert only: added, they narrow a schema; removed, they
/// widen it. Not so a keyword that also yields annotations (`if`/`then`, `dependentSchemas`):
/// added, it may let `unevaluatedProperties` allow more.
const ASSERTIONS_ONLY: &[&str] = &["dependentRequired", "propertyNames"];

/// Keywords compared by the structural steps of [`Walk::structure`].
const STRUCTURAL: &[&str] = &[
    "type",
    "enum",
    "const",
    "$ref",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "properties",
    "required",
    "additionalProperties",
    "unevaluatedProperties",
    "items",
];

/// Keywords that change no document's validity. (`$schema` does: the dialect decides what every
/// keyword means, see [`Walk::annotations`].)
const ANNOTATIONS: &[&str] = &[
    "$id",
    "$comment",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "discriminator",
];

/// Extension keywords whose change changes the wire (a method name, the side that handles it).
const WIRE_EXTENSIONS: &[&str] = &["x-method", "x-side"];

/// The prefix of ACP's declared-leniency keywords.
const LENIENCY_PREFIX: &str = "x-deserialize-";

/// Lists the changes from `old` to `new`: the root schema, then the definitions by name.
pub(super) fn documents(old: &Value, new: &Value) -> Vec<Change> {
    let (old_key, old_defs) = definitions(old);
    let (new_key, new_defs) = definitions(new);
    let mut walk = Walk {
        changes: Vec::new(),
        old_defs: old_defs.clone(),
        new_defs: new_defs.clone(),
    };
    walk.schema(&At::root(), old, new);
    let names: BTreeSet<&str> = old_defs.keys().chain(new_defs.keys()).copied().collect();
    for name in names {
        let old_at = format!("/{old_key}/{}", escape(name));
        let new_at = format!("/{new_key}/{}", escape(name));
        match (old_defs.get(name), new_defs.get(name)) {
            (Some(old), Some(new)) => walk.schema(
                &At {
                    old: old_at,
                    new: new_at,
                },
                old,
                new,
            ),
            (None, Some(_)) => walk.push(
                ChangeKind::DefinitionAdded,
                new_at,
                format!("definition `{name}` added"),
                (Additive, Additive),
            ),
            (Some(_), None) => walk.push(
                ChangeKind::DefinitionRemoved,
                old_at,
                format!("definition `{name}` removed"),
                NARROWER,
            ),
            (None, None) => {}
        }
    }
    walk.changes
}

/// The definitions of a document and the keyword that holds them (`$defs` by default).
fn definitions(document: &Value) -> (&'static str, BTreeMap<&str, &Value>) {
    for key in CONTAINERS {
        if let Some(Value::Object(defs)) = document.get(key) {
            return (key, defs.iter().map(|(k, v)| (k.as_str(), v)).collect());
        }
    }
    ("$defs", BTreeMap::new())
}

/// Where the walk is, in each document.
#[derive(Debug, Clone)]
struct At {
    old: String,
    new: String,
}

impl At {
    fn root() -> Self {
        Self {
            old: String::new(),
            new: String::new(),
        }
    }

    fn child(&self, token: &str) -> Self {
        Self {
            old: join(&self.old, token),
            new: join(&self.new, token),
        }
    }

    fn new_child(&self, token: &str) -> String {
        join(&self.new, token)
    }

    fn old_child(&self, token: &str) -> String {
        join(&self.old, token)
    }
}

fn join(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", escape(token))
}

#[derive(Debug)]
struct Walk<'d> {
    changes: Vec<Change>,
    /// The old document's definitions, to compare a reference with an inline schema.
    old_defs: BTreeMap<&'d str, &'d Value>,
    /// The new document's definitions.
    new_defs: BTreeMap<&'d str, &'d Value>,
}

impl Walk<'_> {
    /// An empty walk over the same documents, for a comparison whose changes are reworked.
    fn sub(&self) -> Self {
        Self {
            changes: Vec::new(),
            old_defs: self.old_defs.clone(),
            new_defs: self.new_defs.clone(),
        }
    }

    fn push(
        &mut self,
        kind: ChangeKind,
        pointer: String,
        what: String,
        (old_producer_new_consumer, new_producer_old_consumer): (Class, Class),
    ) {
        self.changes.push(Change::new(
            kind,
            pointer,
            what,
            old_producer_new_consumer,
            new_producer_old_consumer,
        ));
    }

    /// Compares two schemas: annotations, leniency, nullability, then structure.
    fn schema(&mut self, at: &At, old: &Value, new: &Value) {
        if old == new {
            return;
        }
        self.objects(at, &as_object(old), &as_object(new));
    }

    /// [`Walk::schema`] for two schema objects.
    fn objects(&mut self, at: &At, old: &Map<String, Value>, new: &Map<String, Value>) {
        self.annotations(at, old, new);
        let old_shape = Shape::of(old, &at.old);
        let new_shape = Shape::of(new, &at.new);
        match (old_shape.nullable, new_shape.nullable) {
            (false, true) => self.push(
                ChangeKind::BecameNullable,
                at.new.clone(),
                "became nullable".to_owned(),
                WIDER,
            ),
            (true, false) => self.push(
                ChangeKind::BecameNonNullable,
                at.new.clone(),
                "no longer nullable".to_owned(),
                NARROWER,
            ),
            _ => {}
        }
        let inner = At {
            old: old_shape.pointer.clone(),
            new: new_shape.pointer.clone(),
        };
        if old_shape.unwrapped && new_shape.unwrapped {
            self.annotations(&inner, old_shape.body, new_shape.body);
        }
        self.structure(&inner, old_shape.body, new_shape.body);
    }

    /// Annotations, leniency and extension keywords of one schema object.
    fn annotations(&mut self, at: &At, old: &Map<String, Value>, new: &Map<String, Value>) {
        for key in keys(old, new) {
            let (o, n) = (old.get(key), new.get(key));
            if o == n {
                continue;
            }
            if key == "description" {
                let what = match (o, n) {
                    (None, _) => "description added",
                    (_, None) => "description removed",
                    _ => "description changed",
                };
                self.push(
                    ChangeKind::DescriptionChanged,
                    pointer_of(at, key, n.is_none()),
                    what.to_owned(),
                    COSMETIC,
                );
            } else if key == "title" || key == "default" {
                let kind = if key == "title" {
                    ChangeKind::TitleChanged
                } else {
                    ChangeKind::DefaultChanged
                };
                self.push(
                    kind,
                    pointer_of(at, key, n.is_none()),
                    changed(key, o, n),
                    COSMETIC,
                );
            } else if key.starts_with(LENIENCY_PREFIX) {
                let (kind, what, classes) = match (truthy(o), truthy(n)) {
                    (false, true) => (
                        ChangeKind::LeniencyAdded,
                        format!("leniency `{key}` added"),
                        (Additive, Cosmetic),
                    ),
                    (true, false) => (
                        ChangeKind::LeniencyRemoved,
                        format!("leniency `{key}` removed"),
                        (Breaking, Cosmetic),
                    ),
                    // `false` and absent mean the same.
                    (false, false) => (ChangeKind::AnnotationChanged, changed(key, o, n), COSMETIC),
                    (true, true) => (
                        ChangeKind::KeywordChanged,
                        changed(key, o, n),
                        (Breaking, Cosmetic),
                    ),
                };
                self.push(kind, pointer_of(at, key, n.is_none()), what, classes);
            } else if key == "$schema" {
                // Another dialect reads the same keywords differently (draft-07 ignores the
                // siblings of `$ref`, 2020-12 reads `items` as `additionalItems` was): a
                // document may validate differently either way.
                self.push(
                    ChangeKind::KeywordChanged,
                    pointer_of(at, key, n.is_none()),
                    format!(
                        "{} (the dialect decides what every keyword means: a document may \
                         validate differently)",
                        changed(key, o, n)
                    ),
                    DIFFERENT,
                );
            } else if WIRE_EXTENSIONS.contains(&key) {
                self.push(
                    ChangeKind::KeywordChanged,
                    pointer_of(at, key, n.is_none()),
                    changed(key, o, n),
                    DIFFERENT,
                );
            } else if ANNOTATIONS.contains(&key) || key.starts_with("x-") {
                self.push(
                    ChangeKind::AnnotationChanged,
                    pointer_of(at, key, n.is_none()),
                    changed(key, o, n),
                    COSMETIC,
                );
            }
        }
    }

    /// Everything that decides validity, nullability aside.
    fn structure(&mut self, at: &At, old: &Map<String, Value>, new: &Map<String, Value>) {
        match (ref_target(old), ref_target(new)) {
            (Some(a), Some(b)) if a != b => {
                self.push(
                    ChangeKind::TypeChanged,
                    at.new.clone(),
                    format!("type changed from `{a}` to `{b}`"),
                    DIFFERENT,
                );
                return;
            }
            // The same reference, both times as a `$ref`: what its siblings assert besides
            // (2020-12 applies keywords beside a `$ref`: `{"$ref": ..., "maxLength": 3}`) is
            // compared as anywhere. (schemars' `allOf: [{"$ref"}]` has no such siblings.)
            (Some(_), Some(_)) if old.contains_key("$ref") && new.contains_key("$ref") => {}
            (Some(_), Some(_)) => return,
            (None, None) => {}
            (old_target, new_target) => {
                self.reference_and_inline(at, old, new, old_target, new_target);
                return;
            }
        }
        // A string enum written as `enum` on one side and as a `oneOf` of `const`s on the other.
        let value_sets = match (ValueSet::of(old), ValueSet::of(new)) {
            (Some(a), Some(b)) if a.union.is_some() != b.union.is_some() => Some((a, b)),
            _ => None,
        };
        self.types(at, old, new);
        self.values(at, old, new, value_sets.is_none());
        self.constraints(at, old, new);
        for key in ["additionalProperties", "unevaluatedProperties"] {
            self.extra(at, key, old, new);
        }
        self.object(at, old, new);
        self.items(at, old, new);
        match value_sets {
            Some((a, b)) => self.value_sets(at, &a, &b),
            None => self.unions(at, old, new),
        }
        self.all_of(at, old, new);
        self.negation(at, old, new);
        self.unknown(at, old, new);
    }

    /// One side is a reference, the other an inline schema: the referenced definition is
    /// compared with the inline schema, and one type change is reported, classified by what
    /// that comparison finds (cosmetic when the schemas are the same).
    fn reference_and_inline(
        &mut self,
        at: &At,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        old_target: Option<String>,
        new_target: Option<String>,
    ) {
        let old_name = old_target
            .as_ref()
            .map_or_else(|| describe(old), |t| format!("`{t}`"));
        let new_name = new_target
            .as_ref()
            .map_or_else(|| describe(new), |t| format!("`{t}`"));
        let old_body = match &old_target {
            Some(target) => self.old_defs.get(target.as_str()).map(|v| as_object(v)),
            None => Some(Cow::Borrowed(old)),
        };
        let new_body = match &new_target {
            Some(target) => self.new_defs.get(target.as_str()).map(|v| as_object(v)),
            None => Some(Cow::Borrowed(new)),
        };
        let classes = match (old_body, new_body) {
            (Some(a), Some(b)) => {
                let mut inner = self.sub();
                inner.objects(at, &a, &b);
                // Nullability was compared on the schemas around the reference already.
                let nullability = [ChangeKind::BecameNullable, ChangeKind::BecameNonNullable];
                inner
                    .changes
                    .iter()
                    .filter(|change| !nullability.contains(&change.kind))
                    .fold(COSMETIC, |(x, y), change| {
                        (
                            x.max(change.old_producer_new_consumer),
                            y.max(change.new_producer_old_consumer),
                        )
                    })
            }
            // A reference outside the document: nothing to compare with.
            _ => DIFFERENT,
        };
        let what = if classes == COSMETIC {
            format!("{old_name} replaced by {new_name}, the same schema")
        } else {
            format!("type changed from {old_name} to {new_name}")
        };
        self.push(ChangeKind::TypeChanged, at.new.clone(), what, classes);
    }

    fn types(&mut self, at: &At, old: &Map<String, Value>, new: &Map<String, Value>) {
        let pointer = at.new_child("type");
        match (type_set(old), type_set(new)) {
            (Some(a), Some(b)) if a != b => {
                let classes = if covers(&b, &a) {
                    WIDER
                } else if covers(&a, &b) {
                    NARROWER
                } else {
                    DIFFERENT
                };
                let what = format!(
                    "type changed from `{}` to `{}`",
                    join_types(&a),
                    join_types(&b)
                );
                self.push(ChangeKind::TypeChanged, pointer, what, classes);
            }
            (None, Some(b)) if accepts_anything(old) => {
                let what = format!("type restricted to `{}`", join_types(&b));
                self.push(ChangeKind::TypeChanged, pointer, what, NARROWER);
            }
            (Some(a), None) if accepts_anything(new) => {
                let what = format!("type restriction `{}` removed", join_types(&a));
                self.push(ChangeKind::TypeChanged, at.old_child("type"), what, WIDER);
            }
            _ => {}
        }
    }

    /// `const`, and `enum` when `enums` is set.
    fn values(&mut self, at: &At, old: &Map<String, Value>, new: &Map<String, Value>, enums: bool) {
        match (old.get("const"), new.get("const")) {
            (Some(a), Some(b)) if a != b => self.push(
                ChangeKind::ConstChanged,
                at.new_child("const"),
                format!("const changed from `{}` to `{}`", show(a), show(b)),
                DIFFERENT,
            ),
            (None, Some(b)) => self.push(
                ChangeKind::ConstraintTightened,
                at.new_child("const"),
                format!("`const` added (`{}`)", show(b)),
                NARROWER,
            ),
            (Some(a), None) => self.push(
                ChangeKind::ConstraintLoosened,
                at.old_child("const"),
                format!("`const` removed (was `{}`)", show(a)),
                WIDER,
            ),
            _ => {}
        }
        if !enums {
            return;
        }
        match (enum_values(old), enum_values(new)) {
            (Some(a), Some(b)) => {
                for value in b.iter().filter(|v| !a.contains(v)) {
                    self.push(
                        ChangeKind::EnumValueAdded,
                        at.new_child("enum"),
                        format!("enum value `{}` added", show(value)),
                        WIDER,
                    );
                }
                for value in a.iter().filter(|v| !b.contains(v)) {
                    self.push(
                        ChangeKind::EnumValueRemoved,
                        at.old_child("enum"),
                        format!("enum value `{}` removed", show(value)),
                        NARROWER,
                    );
                }
            }
            (None, Some(b)) => self.push(
                ChangeKind::ConstraintTightened,
                at.new_child("enum"),
                format!("`enum` added ({} values)", b.len()),
                NARROWER,
            ),
            (Some(_), None) => self.push(
                ChangeKind::ConstraintLoosened,
                at.old_child("enum"),
                "`enum` removed".to_owned(),
                WIDER,
            ),
            (None, None) => {}
        }
    }

    fn constraints(&mut self, at: &At, old: &Map<String, Value>, new: &Map<String, Value>) {
        for (keys, lower) in [(LOWER_BOUNDS, true), (UPPER_BOUNDS, false)] {
            for key in keys {
                self.bound(at, key, lower, old.get(*key), new.get(*key));
            }
        }
        for key in OTHER_CONSTRAINTS {
            let mut o = old.get(*key);
            let mut n = new.get(*key);
            if *key == "uniqueItems" {
                // `false` is the default.
                o = o.filter(|v| **v != Value::Bool(false));
                n = n.filter(|v| **v != Value::Bool(false));
            }
            match (o, n) {
                (Some(a), Some(b)) if a != b => {
                    let order = if *key == "format" {
                        integer_format_order(a, b)
                    } else {
                        None
                    };
                    let (kind, verb, classes) = match order {
                        Some(true) => (ChangeKind::ConstraintLoosened, "loosened", WIDER),
                        Some(false) => (ChangeKind::ConstraintTightened, "tightened", NARROWER),
                        None => (ChangeKind::ConstraintChanged, "changed", DIFFERENT),
                    };
                    let what = format!("`{key}` {verb} from `{}` to `{}`", show(a), show(b));
                    self.push(kind, at.new_child(key), what, classes);
                }
                (o, n) => self.presence(at, key, o, n),
            }
        }
    }

    /// A constraint added (tightened) or removed (loosened); nothing when both sides agree.
    fn presence(&mut self, at: &At, key: &str, old: Option<&Value>, new: Option<&Value>) {
        match (old, new) {
            (None, Some(b)) => self.push(
                ChangeKind::ConstraintTightened,
                at.new_child(key),
                format!("`{key}` added (`{}`)", show(b)),
                NARROWER,
            ),
            (Some(a), None) => self.push(
                ChangeKind::ConstraintLoosened,
                at.old_child(key),
                format!("`{key}` removed (was `{}`)", show(a)),
                WIDER,
            ),
            _ => {}
        }
    }

    fn bound(&mut self, at: &At, key: &str, lower: bool, old: Option<&Value>, new: Option<&Value>) {
        match (old, new) {
            (Some(a), Some(b)) if a != b => {
                let (kind, verb, classes) = match (a.as_f64(), b.as_f64()) {
                    // `1` and `1.0`.
                    (Some(x), Some(y)) if x == y => return,
                    (Some(x), Some(y)) if (y > x) == lower => {
                        (ChangeKind::ConstraintTightened, "tightened", NARROWER)
                    }
                    (Some(_), Some(_)) => (ChangeKind::ConstraintLoosened, "loosened", WIDER),
                    _ => (ChangeKind::ConstraintChanged, "changed", DIFFERENT),
                };
                let what = format!("`{key}` {verb} from `{}` to `{}`", show(a), show(b));
                self.push(kind, at.new_child(key), what, classes);
            }
            (o, n) => self.presence(at, key, o, n),
        }
    }

    /// `additionalProperties` or `unevaluatedProperties`.
    fn extra(&mut self, at: &At, key: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let (kind, what, classes) = match (Extra::of(old, key), Extra::of(new, key)) {
            (Extra::Open, Extra::Open) | (Extra::Closed, Extra::Closed) => return,
            (Extra::Schema(a), Extra::Schema(b)) => {
                self.schema(&at.child(key), a, b);
                return;
            }
            (Extra::Open, Extra::Closed) => (
                ChangeKind::ConstraintTightened,
                format!("`{key}: false` added"),
                NARROWER,
            ),
            (Extra::Open, Extra::Schema(_)) => (
                ChangeKind::ConstraintTightened,
                format!("`{key}` constrained by a schema"),
                NARROWER,
            ),
            (Extra::Schema(_), Extra::Closed) => (
                ChangeKind::ConstraintTightened,
                format!("`{key}` became `false`"),
                NARROWER,
            ),
            (Extra::Closed, Extra::Open) => (
                ChangeKind::ConstraintLoosened,
                format!("`{key}: false` removed"),
                WIDER,
            ),
            (Extra::Schema(_), Extra::Open) => (
                ChangeKind::ConstraintLoosened,
                format!("`{key}` no longer constrained"),
                WIDER,
            ),
            (Extra::Closed, Extra::Schema(_)) => (
                ChangeKind::ConstraintLoosened,
                format!("`{key}` became a schema (was `false`)"),
                WIDER,
            ),
        };
        self.push(kind, at.new_child(key), what, classes);
    }

    /// `properties` and `required`.
    fn object(&mut self, at: &At, old: &Map<String, Value>, new: &Map<String, Value>) {
        let old_properties = properties(old);
        let new_properties = properties(new);
        let old_required = required(old);
        let new_required = required(new);
        let (old_open, new_open) = (is_open(old), is_open(new));
        let names: BTreeSet<&str> = old_properties
            .keys()
            .chain(new_properties.keys())
            .copied()
            .collect();
        let properties = at.child("properties");
        for name in names {
            match (old_properties.get(name), new_properties.get(name)) {
                (Some(o), Some(n)) => self.schema(&properties.child(name), o, n),
                (None, Some(_)) => {
                    let is_required = new_required.contains(name);
                    let classes = (
                        if is_required { Breaking } else { Additive },
                        if old_open { Additive } else { Breaking },
                    );
                    let what = format!(
                        "property `{name}` added ({})",
                        if is_required { "required" } else { "optional" }
                    );
                    self.push(
                        ChangeKind::PropertyAdded,
                        properties.new_child(name),
                        what,
                        classes,
                    );
                }
                (Some(_), None) => {
                    let was_required = old_required.contains(name);
                    let classes = (
                        if new_open { Additive } else { Breaking },
                        if was_required { Breaking } else { Additive },
                    );
                    let what = format!(
                        "property `{name}` removed (was {})",
                        if was_required { "required" } else { "optional" }
                    );
                    self.push(
                        ChangeKind::PropertyRemoved,
                        properties.old_child(name),
                        what,
                        classes,
                    );
                }
                (None, None) => {}
            }
        }
        let required_names: BTreeSet<&str> = old_required.union(&new_required).copied().collect();
        for name in required_names {
            if old_properties.contains_key(name) != new_properties.contains_key(name) {
                // Reported as the property's addition or removal.
                continue;
            }
            match (old_required.contains(name), new_required.contains(name)) {
                (false, true) => self.push(
                    ChangeKind::BecameRequired,
                    at.new_child("required"),
                    format!("`{name}` became required"),
                    NARROWER,
                ),
                (true, false) => self.push(
                    ChangeKind::BecameOptional,
                    at.old_child("required"),
                    format!("`{name}` became optional"),
                    WIDER,
                ),
                _ => {}
            }
        }
    }

    fn items(&mut self, at: &At, old: &Map<String, Value>, new: &Map<String, Value>) {
        match (old.get("items"), new.get("items")) {
            (Some(a), Some(b)) => self.schema(&at.child("items"), a, b),
            (None, Some(b)) if !is_any(b) => self.push(
                ChangeKind::ConstraintTightened,
                at.new_child("items"),
                "`items` constrained".to_owned(),
                NARROWER,
            ),
            (Some(a), None) if !is_any(a) => self.push(
                ChangeKind::ConstraintLoosened,
                at.old_child("items"),
                "`items` no longer constrained".to_owned(),
                WIDER,
            ),
            _ => {}
        }
    }

    /// `oneOf`/`anyOf`, null branches aside, matched by [`union::match_branches`].
    fn unions(&mut self, at: &At, old: &Map<String, Value>, new: &Map<String, Value>) {
        let (old_keyword, old_branches, new_keyword, new_branches) =
            match (union_of(old), union_of(new)) {
                (Some((ok, ob)), Some((nk, nb))) => (ok, ob, nk, nb),
                (None, None) => return,
                (None, Some((keyword, branches))) => {
                    // A pure union replacing another schema is a new type; a union beside other
                    // keywords is one more constraint.
                    let (kind, what, classes) =
                        if has_structure_besides(new, keyword) || accepts_anything(old) {
                            (
                                ChangeKind::ConstraintTightened,
                                format!("`{keyword}` added ({} branches)", branches.len()),
                                NARROWER,
                            )
                        } else {
                            (
                                ChangeKind::TypeChanged,
                                format!("type changed from {} to a union", describe(old)),
                                DIFFERENT,
                            )
                        };
                    self.push(kind, at.new_child(keyword), what, classes);
                    return;
                }
                (Some((keyword, branches)), None) => {
                    let (kind, what, classes) =
                        if has_structure_besides(old, keyword) || accepts_anything(new) {
                            (
                                ChangeKind::ConstraintLoosened,
                                format!("`{keyword}` removed (was {} branches)", branches.len()),
                                WIDER,
                            )
                        } else {
                            (
                                ChangeKind::TypeChanged,
                                format!("type changed from a union to {}", describe(new)),
                                DIFFERENT,
                            )
                        };
                    self.push(kind, at.old_child(keyword), what, classes);
                    return;
                }
            };
        if old_keyword != new_keyword {
            let classes = if old_keyword == "oneOf" {
                WIDER
            } else {
                NARROWER
            };
            self.push(
                ChangeKind::KeywordChanged,
                at.new_child(new_keyword),
                format!("`{old_keyword}` became `{new_keyword}`"),
                classes,
            );
        }
        let old_values: Vec<&Value> = old_branches.iter().map(|(_, v)| *v).collect();
        let new_values: Vec<&Value> = new_branches.iter().map(|(_, v)| *v).collect();
        let matching = union::match_branches(
            &old_values,
            &new_values,
            discriminator(old),
            discriminator(new),
        );
        let old_at = join(&at.old, old_keyword);
        let new_at = join(&at.new, new_keyword);
        for step in &matching.steps {
            match *step {
                union::Step::Pair(i, j) => {
                    let pair = At {
                        old: format!("{old_at}/{}", old_branches[i].0),
                        new: format!("{new_at}/{}", new_branches[j].0),
                    };
                    self.schema(&pair, old_values[i], new_values[j]);
                }
                union::Step::Added(j) => {
                    let branch = new_values[j];
                    let accepted = union::catch_all_accepts(&old_values, branch);
                    let (kind, what) = variant(branch, &matching.new_names[j], "added");
                    self.push(
                        kind,
                        format!("{new_at}/{}", new_branches[j].0),
                        what,
                        (Additive, if accepted { Additive } else { Breaking }),
                    );
                }
                union::Step::Removed(i) => {
                    let branch = old_values[i];
                    let accepted = union::catch_all_accepts(&new_values, branch);
                    let (kind, what) = variant(branch, &matching.old_names[i], "removed");
                    self.push(
                        kind,
                        format!("{old_at}/{}", old_branches[i].0),
                        what,
                        (if accepted { Additive } else { Breaking }, Additive),
                    );
                }
            }
        }
    }

    /// Values of an enum written as `enum` on one side and as a union of `const`s on the other.
    fn value_sets(&mut self, at: &At, old: &ValueSet<'_>, new: &ValueSet<'_>) {
        let (from, to) = if old.union.is_some() {
            ("a union of `const`s", "`enum`")
        } else {
            ("`enum`", "a union of `const`s")
        };
        self.push(
            ChangeKind::AnnotationChanged,
            at.new.clone(),
            format!("enum written as {to} instead of {from}"),
            COSMETIC,
        );
        for (value, token) in &new.values {
            if old.values.iter().any(|(v, _)| v == value) {
                continue;
            }
            let accepted = old.accepts(value);
            self.push(
                ChangeKind::EnumValueAdded,
                at.new_child(token),
                format!("enum value `{}` added", show(value)),
                (Additive, if accepted { Additive } else { Breaking }),
            );
        }
        for (value, token) in &old.values {
            if new.values.iter().any(|(v, _)| v == value) {
                continue;
            }
            let accepted = new.accepts(value);
            self.push(
                ChangeKind::EnumValueRemoved,
                at.old_child(token),
                format!("enum value `{}` removed", show(value)),
                (if accepted { Additive } else { Breaking }, Additive),
            );
        }
    }

    /// `allOf` beside other keywords (a lone `allOf: [{$ref}]` is a reference).
    fn all_of(&mut self, at: &At, old: &Map<String, Value>, new: &Map<String, Value>) {
        let old_parts = parts(old);
        let new_parts = parts(new);
        if old_parts.is_empty() && new_parts.is_empty() {
            return;
        }
        let old_refs: BTreeMap<String, usize> = refs_of(&old_parts);
        let new_refs: BTreeMap<String, usize> = refs_of(&new_parts);
        for (name, index) in &new_refs {
            if !old_refs.contains_key(name) {
                self.push(
                    ChangeKind::ConstraintTightened,
                    format!("{}/{index}", at.new_child("allOf")),
                    format!("`allOf` adds `{name}`"),
                    NARROWER,
                );
            }
        }
        for (name, index) in &old_refs {
            if !new_refs.contains_key(name) {
                self.push(
                    ChangeKind::ConstraintLoosened,
                    format!("{}/{index}", at.old_child("allOf")),
                    format!("`allOf` no longer includes `{name}`"),
                    WIDER,
                );
            }
        }
        let old_inline: Vec<(usize, &Value)> = inline_parts(&old_parts);
        let new_inline: Vec<(usize, &Value)> = inline_parts(&new_parts);
        for (k, (i, o)) in old_inline.iter().enumerate() {
            match new_inline.get(k) {
                Some((j, n)) => {
                    let pair = At {
                        old: format!("{}/{i}", at.old_child("allOf")),
                        new: format!("{}/{j}", at.new_child("allOf")),
                    };
                    self.schema(&pair, o, n);
                }
                None => self.push(
                    ChangeKind::ConstraintLoosened,
                    format!("{}/{i}", at.old_child("allOf")),
                    "`allOf` no longer includes an inline schema".to_owned(),
                    WIDER,
                ),
            }
        }
        for (j, _) in new_inline.iter().skip(old_inline.len()) {
            self.push(
                ChangeKind::ConstraintTightened,
                format!("{}/{j}", at.new_child("allOf")),
                "`allOf` adds an inline schema".to_owned(),
                NARROWER,
            );
        }
    }

    /// `not`: compared recursively with the directions swapped.
    fn negation(&mut self, at: &At, old: &Map<String, Value>, new: &Map<String, Value>) {
        match (old.get("not"), new.get("not")) {
            (Some(a), Some(b)) => {
                let mut inner = self.sub();
                inner.schema(&at.child("not"), a, b);
                for change in inner.changes {
                    self.push(
                        change.kind,
                        change.pointer,
                        change.what,
                        (
                            change.new_producer_old_consumer,
                            change.old_producer_new_consumer,
                        ),
                    );
                }
            }
            (None, Some(_)) => self.push(
                ChangeKind::ConstraintTightened,
                at.new_child("not"),
                "`not` added".to_owned(),
                NARROWER,
            ),
            (Some(_), None) => self.push(
                ChangeKind::ConstraintLoosened,
                at.old_child("not"),
                "`not` removed".to_owned(),
                WIDER,
            ),
            (None, None) => {}
        }
    }

    /// Keywords none of the other steps knows: any change is breaking both ways, but the
    /// addition or removal of a keyword that only asserts ([`ASSERTIONS_ONLY`]: it yields no
    /// annotation another keyword reads), which narrows or widens the schema.
    fn unknown(&mut self, at: &At, old: &Map<String, Value>, new: &Map<String, Value>) {
        for key in keys(old, new) {
            if ASSERTIONS_ONLY.contains(&key) {
                match (old.get(key), new.get(key)) {
                    (None, Some(added)) => {
                        self.push(
                            ChangeKind::ConstraintTightened,
                            at.new_child(key),
                            changed(key, None, Some(added)),
                            NARROWER,
                        );
                        continue;
                    }
                    (Some(removed), None) => {
                        self.push(
                            ChangeKind::ConstraintLoosened,
                            at.old_child(key),
                            changed(key, Some(removed), None),
                            WIDER,
                        );
                        continue;
                    }
                    _ => {}
                }
            }
            let known = STRUCTURAL.contains(&key)
                || LOWER_BOUNDS.contains(&key)
                || UPPER_BOUNDS.contains(&key)
                || OTHER_CONSTRAINTS.contains(&key)
                || ANNOTATIONS.contains(&key)
                || CONTAINERS.contains(&key)
                || ["description", "title", "default", "$schema"].contains(&key)
                || key.starts_with("x-");
            let (o, n) = (old.get(key), new.get(key));
            if known || o == n {
                continue;
            }
            self.push(
                ChangeKind::KeywordChanged,
                pointer_of(at, key, n.is_none()),
                changed(key, o, n),
                DIFFERENT,
            );
        }
    }
}

/// A schema with its nullability taken out.
struct Shape<'a> {
    /// The schema that carries the structure: the object itself, or the one non-null branch of
    /// a nullable `anyOf`/`oneOf`.
    body: &'a Map<String, Value>,
    /// Where `body` is.
    pointer: String,
    /// Whether `null` is accepted (`type` array, `enum`, or a null branch).
    nullable: bool,
    /// Whether `body` is a branch of the object rather than the object.
    unwrapped: bool,
}

impl<'a> Shape<'a> {
    fn of(map: &'a Map<String, Value>, pointer: &str) -> Self {
        let mut nullable = type_has_null(map) || enum_has_null(map);
        for keyword in ["anyOf", "oneOf"] {
            let Some(Value::Array(branches)) = map.get(keyword) else {
                continue;
            };
            let non_null: Vec<(usize, &Value)> = branches
                .iter()
                .enumerate()
                .filter(|(_, branch)| !is_null_schema(branch))
                .collect();
            if non_null.len() == branches.len() {
                continue;
            }
            nullable = true;
            if let [(index, Value::Object(body))] = non_null.as_slice() {
                if !has_structure_besides(map, keyword) {
                    return Self {
                        body,
                        pointer: format!("{}/{index}", join(pointer, keyword)),
                        nullable,
                        unwrapped: true,
                    };
                }
            }
        }
        Self {
            body: map,
            pointer: pointer.to_owned(),
            nullable,
            unwrapped: false,
        }
    }
}

/// The values of an enum, written as `enum` or as a union of `const` branches.
struct ValueSet<'a> {
    /// Each value, with the pointer tokens below the schema that hold it (`enum`, `oneOf/3`).
    values: Vec<(&'a Value, String)>,
    /// The union's branches (catch-alls included), `None` for `enum`.
    union: Option<Vec<&'a Value>>,
}

impl<'a> ValueSet<'a> {
    fn of(map: &'a Map<String, Value>) -> Option<Self> {
        let Some((keyword, branches)) = union_of(map) else {
            let values = enum_values(map)?;
            return Some(Self {
                values: values
                    .into_iter()
                    .map(|value| (value, "enum".to_owned()))
                    .collect(),
                union: None,
            });
        };
        let mut values = Vec::new();
        for (index, branch) in &branches {
            let Value::Object(branch_map) = branch else {
                return None;
            };
            if let Some(value) = union::constant_of(branch) {
                values.push((value, format!("{keyword}/{index}")));
            } else if branch_map
                .keys()
                .any(|key| key != "type" && key != "format" && decides_validity(key))
            {
                // Neither a value nor a catch-all.
                return None;
            }
        }
        if values.is_empty() {
            return None;
        }
        Some(Self {
            values,
            union: Some(branches.iter().map(|(_, branch)| *branch).collect()),
        })
    }

    /// Whether a catch-all branch accepts `value`.
    fn accepts(&self, value: &Value) -> bool {
        let Some(branches) = &self.union else {
            return false;
        };
        let mut probe = Map::new();
        probe.insert("const".to_owned(), value.clone());
        union::catch_all_accepts(branches, &Value::Object(probe))
    }
}

/// `additionalProperties` or `unevaluatedProperties`.
enum Extra<'a> {
    /// Absent, `true` or `{}`.
    Open,
    /// `false`.
    Closed,
    /// Any other schema.
    Schema(&'a Value),
}

impl<'a> Extra<'a> {
    fn of(map: &'a Map<String, Value>, key: &str) -> Self {
        match map.get(key) {
            None | Some(Value::Bool(true)) => Self::Open,
            Some(Value::Object(schema)) if schema.is_empty() => Self::Open,
            Some(Value::Bool(false)) => Self::Closed,
            Some(schema) => Self::Schema(schema),
        }
    }
}

/// A schema as an object: `true` is `{}`, `false` is `{"not": {}}`.
fn as_object(schema: &Value) -> Cow<'_, Map<String, Value>> {
    match schema {
        Value::Object(map) => Cow::Borrowed(map),
        Value::Bool(false) => {
            let mut map = Map::new();
            map.insert("not".to_owned(), Value::Object(Map::new()));
            Cow::Owned(map)
        }
        _ => Cow::Owned(Map::new()),
    }
}

/// The keys of both objects, sorted, once each.
fn keys<'a>(old: &'a Map<String, Value>, new: &'a Map<String, Value>) -> BTreeSet<&'a str> {
    old.keys().chain(new.keys()).map(String::as_str).collect()
}

/// The pointer of `key` in the new schema, or in the old one when it was removed.
fn pointer_of(at: &At, key: &str, removed: bool) -> String {
    if removed {
        at.old_child(key)
    } else {
        at.new_child(key)
    }
}

/// "`key` changed from `a` to `b`", "`key` `b` added", "`key` `a` removed".
fn changed(key: &str, old: Option<&Value>, new: Option<&Value>) -> String {
    match (old, new) {
        (Some(a), Some(b)) => format!("{key} changed from `{}` to `{}`", show(a), show(b)),
        (None, Some(b)) => format!("{key} `{}` added", show(b)),
        (Some(a), None) => format!("{key} `{}` removed", show(a)),
        (None, None) => format!("{key} unchanged"),
    }
}

/// A value for a message: a string as it is, anything else as compact JSON; at most 60
/// characters.
pub(super) fn show(value: &Value) -> String {
    const MAX: usize = 60;
    let text = match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    if text.chars().count() <= MAX {
        text
    } else {
        let mut short: String = text.chars().take(MAX - 1).collect();
        short.push('…');
        short
    }
}

fn truthy(value: Option<&Value>) -> bool {
    !matches!(value, None | Some(Value::Bool(false) | Value::Null))
}

/// The target of a schema that is only a reference: `$ref`, or a lone `allOf: [{"$ref"}]`
/// (schemars' way of giving a reference a description).
pub(super) fn ref_target(map: &Map<String, Value>) -> Option<String> {
    if let Some(Value::String(reference)) = map.get("$ref") {
        return Some(ref_name(reference));
    }
    let Some(Value::Array(parts)) = map.get("allOf") else {
        return None;
    };
    let [Value::Object(part)] = parts.as_slice() else {
        return None;
    };
    if has_structure_besides(map, "allOf") || has_structure_besides(part, "$ref") {
        return None;
    }
    match part.get("$ref") {
        Some(Value::String(reference)) => Some(ref_name(reference)),
        _ => None,
    }
}

/// `Name` for `#/$defs/Name` or `#/definitions/Name`, else the reference as written.
fn ref_name(reference: &str) -> String {
    ["#/$defs/", "#/definitions/"]
        .iter()
        .find_map(|prefix| reference.strip_prefix(prefix))
        .map_or_else(
            || reference.to_owned(),
            |name| crate::pointer::unescape(name).into_owned(),
        )
}

/// Whether a keyword decides validity (as opposed to an annotation).
pub(super) fn decides_validity(key: &str) -> bool {
    STRUCTURAL.contains(&key)
        || LOWER_BOUNDS.contains(&key)
        || UPPER_BOUNDS.contains(&key)
        || OTHER_CONSTRAINTS.contains(&key)
}

/// Whether a schema has a keyword that decides validity other than `keyword`.
fn has_structure_besides(map: &Map<String, Value>, keyword: &str) -> bool {
    map.keys()
        .any(|key| key != keyword && decides_validity(key))
}

/// A schema without any keyword that decides validity.
fn accepts_anything(map: &Map<String, Value>) -> bool {
    !has_structure_besides(map, "")
}

fn is_any(schema: &Value) -> bool {
    match schema {
        Value::Bool(true) => true,
        Value::Object(map) => accepts_anything(map),
        _ => false,
    }
}

/// `{"type": "null"}` or `{"const": null}`, with annotations at most.
fn is_null_schema(schema: &Value) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    match (map.get("type"), map.get("const")) {
        (Some(Value::String(t)), _) if t == "null" => !has_structure_besides(map, "type"),
        (Some(Value::Array(types)), _) if types.len() == 1 && types[0] == "null" => {
            !has_structure_besides(map, "type")
        }
        (None, Some(Value::Null)) => !has_structure_besides(map, "const"),
        _ => false,
    }
}

fn type_has_null(map: &Map<String, Value>) -> bool {
    match map.get("type") {
        Some(Value::Array(types)) => types.len() > 1 && types.iter().any(|t| t == "null"),
        _ => false,
    }
}

fn enum_has_null(map: &Map<String, Value>) -> bool {
    match map.get("enum") {
        Some(Value::Array(values)) => values.len() > 1 && values.contains(&Value::Null),
        _ => false,
    }
}

/// The `type` names, `null` left out when there are others.
pub(super) fn type_set(map: &Map<String, Value>) -> Option<BTreeSet<String>> {
    let mut types: BTreeSet<String> = match map.get("type")? {
        Value::String(t) => [t.clone()].into(),
        Value::Array(types) => types
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => return None,
    };
    if types.len() > 1 {
        types.remove("null");
    }
    Some(types)
}

/// Whether every type of `small` is accepted by `big` (`number` accepts `integer`).
fn covers(big: &BTreeSet<String>, small: &BTreeSet<String>) -> bool {
    small
        .iter()
        .all(|t| big.contains(t) || (t == "integer" && big.contains("number")))
}

fn join_types(types: &BTreeSet<String>) -> String {
    types
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The `enum` values, `null` left out when there are others.
fn enum_values(map: &Map<String, Value>) -> Option<Vec<&Value>> {
    let Value::Array(values) = map.get("enum")? else {
        return None;
    };
    let keep_null = values.len() == 1;
    Some(
        values
            .iter()
            .filter(|value| keep_null || !value.is_null())
            .collect(),
    )
}

/// For `format` changes between integer widths: `Some(true)` when `new` accepts more,
/// `Some(false)` when it accepts less, `None` when neither or not both integer formats.
fn integer_format_order(old: &Value, new: &Value) -> Option<bool> {
    let (a_min, a_max) = integer_range(old.as_str()?)?;
    let (b_min, b_max) = integer_range(new.as_str()?)?;
    if b_min <= a_min && b_max >= a_max {
        Some(true)
    } else if b_min >= a_min && b_max <= a_max {
        Some(false)
    } else {
        None
    }
}

fn integer_range(format: &str) -> Option<(i128, i128)> {
    Some(match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" => (i64::MIN.into(), i64::MAX.into()),
        "uint8" => (0, u8::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "uint64" | "uint" => (0, u64::MAX.into()),
        _ => return None,
    })
}

fn properties(map: &Map<String, Value>) -> BTreeMap<&str, &Value> {
    match map.get("properties") {
        Some(Value::Object(properties)) => properties
            .iter()
            .map(|(name, schema)| (name.as_str(), schema))
            .collect(),
        _ => BTreeMap::new(),
    }
}

fn required(map: &Map<String, Value>) -> BTreeSet<&str> {
    match map.get("required") {
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
        _ => BTreeSet::new(),
    }
}

/// Whether an object accepts properties it does not declare.
fn is_open(map: &Map<String, Value>) -> bool {
    matches!(Extra::of(map, "additionalProperties"), Extra::Open)
        && matches!(Extra::of(map, "unevaluatedProperties"), Extra::Open)
}

/// The union keyword and its non-null branches with their indexes.
fn union_of(map: &Map<String, Value>) -> Option<(&'static str, Vec<(usize, &Value)>)> {
    ["oneOf", "anyOf"].into_iter().find_map(|keyword| {
        let Some(Value::Array(branches)) = map.get(keyword) else {
            return None;
        };
        Some((
            keyword,
            branches
                .iter()
                .enumerate()
                .filter(|(_, branch)| !is_null_schema(branch))
                .collect(),
        ))
    })
}

fn discriminator(map: &Map<String, Value>) -> Option<&str> {
    map.get("discriminator")?.get("propertyName")?.as_str()
}

/// The kind and words of a union branch added or removed.
fn variant(branch: &Value, name: &str, verb: &str) -> (ChangeKind, String) {
    if union::is_const_branch(branch) {
        let kind = if verb == "added" {
            ChangeKind::EnumValueAdded
        } else {
            ChangeKind::EnumValueRemoved
        };
        (kind, format!("enum value `{name}` {verb}"))
    } else {
        let kind = if verb == "added" {
            ChangeKind::VariantAdded
        } else {
            ChangeKind::VariantRemoved
        };
        (kind, format!("union variant `{name}` {verb}"))
    }
}

fn parts(map: &Map<String, Value>) -> Vec<&Value> {
    match map.get("allOf") {
        Some(Value::Array(parts)) => parts.iter().collect(),
        _ => Vec::new(),
    }
}

/// The `allOf` parts that are references, by target name, with their index.
fn refs_of(parts: &[&Value]) -> BTreeMap<String, usize> {
    parts
        .iter()
        .enumerate()
        .filter_map(|(index, part)| {
            let target = ref_target(part.as_object()?)?;
            Some((target, index))
        })
        .collect()
}

fn inline_parts<'a>(parts: &[&'a Value]) -> Vec<(usize, &'a Value)> {
    parts
        .iter()
        .enumerate()
        .filter(|(_, part)| part.as_object().and_then(ref_target).is_none())
        .map(|(index, part)| (index, *part))
        .collect()
}

/// A schema for a message: "`Name`", "`string`", "a union", "an inline object", "any value".
fn describe(map: &Map<String, Value>) -> String {
    if let Some(target) = ref_target(map) {
        format!("`{target}`")
    } else if let Some(types) = type_set(map) {
        format!("`{}`", join_types(&types))
    } else if union_of(map).is_some() {
        "a union".to_owned()
    } else if map.contains_key("properties") {
        "an inline object".to_owned()
    } else if let Some(value) = map.get("const") {
        format!("`const {}`", show(value))
    } else {
        "any value".to_owned()
    }
}
