//! Stage 3: rewrite ACP idioms that typify mishandles into shapes it handles, and take out the
//! constructs it cannot express so that [`crate::postpass`] emits them instead.
//!
//! Every definition is classified:
//! - an enum of `const` strings or integers (`oneOf`/`anyOf` of `const` branches, optionally
//!   with one plain `{type: string|integer}` catch-all branch) becomes an [`EnumDef`];
//! - a `oneOf`/`anyOf` whose branches carry a `const` tag member (with or without
//!   `discriminator`, with or without a `not` catch-all branch and untagged fallback branches)
//!   becomes a tagged [`Union`]; without a tag it becomes an untagged [`Union`];
//! - members declared beside a union (`properties` next to `oneOf`) make a struct with the
//!   union flattened into it (`<Def>Kind`);
//! - anything else goes to typify as a struct or newtype, after `const` → one-value `enum`,
//!   removal of vendor keywords (recorded as [`PropertyFacts`]) and hoisting of inline unions
//!   into their own definitions (`<Def><Member>`).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::{json, Map, Value};

use crate::check::escape;

/// A value of an [`EnumDef`].
#[derive(Debug, Clone, PartialEq)]
pub struct EnumValue {
    /// The wire value: a string or an integer.
    pub wire: Value,
    /// The Rust variant name.
    pub name: String,
    /// The branch's `description`.
    pub description: Option<String>,
}

/// An enum of constant values.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumDef {
    /// The definition name.
    pub name: String,
    /// The definition's `description`.
    pub description: Option<String>,
    /// Known values, in schema order.
    pub values: Vec<EnumValue>,
    /// Integer values (`true`) or strings (`false`).
    pub integer: bool,
    /// The schema accepts any other value too (a plain `{type: string}` branch): decoded into
    /// `Other(raw)`, keeping it.
    pub open: bool,
}

/// How a [`UnionVariant`] is selected on decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VariantKind {
    /// The tag member equals this value.
    Tagged(String),
    /// The schema's catch-all branch (`not` of the known tags), or a union declared open by the
    /// family: any other tag value; the raw JSON is kept.
    CatchAll,
    /// A branch without the tag: taken when the tag is absent, `null` or unknown.
    Fallback,
    /// A branch of an untagged union: the first that decodes wins.
    Untagged,
}

/// The data a variant carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// Nothing beside the tag.
    Unit,
    /// A generated type (a definition, possibly synthetic).
    Def(String),
    /// A Rust type path (primitive branches of untagged unions).
    Rust(String),
    /// The raw JSON (`serde_json::Value`), for catch-all variants.
    Raw,
}

/// One variant of a [`Union`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnionVariant {
    /// The Rust variant name.
    pub name: String,
    /// How it is selected.
    pub kind: VariantKind,
    /// What it carries.
    pub payload: Payload,
    /// The branch's `description`.
    pub description: Option<String>,
}

/// A union: tagged by a member (`tag`) or untagged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Union {
    /// The definition name (`SessionUpdate`).
    pub name: String,
    /// The tag member (`sessionUpdate`); `None` for an untagged union.
    pub tag: Option<String>,
    /// The variants, in schema order.
    pub variants: Vec<UnionVariant>,
    /// The definition's `description`.
    pub description: Option<String>,
    /// JSON pointer of the definition, for messages.
    pub pointer: String,
}

/// What the schema says about one property that typify does not carry into Rust.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PropertyFacts {
    /// Listed in `required`.
    pub required: bool,
    /// Admits `null`.
    pub nullable: bool,
    /// `x-deserialize-default-on-error`: a malformed value decodes as absent (or empty).
    pub default_on_error: bool,
    /// `x-deserialize-default-on-null`: `null` decodes as absent (or empty).
    pub default_on_null: bool,
    /// `x-deserialize-skip-invalid-items`: an invalid array item is skipped.
    pub skip_invalid_items: bool,
    /// The property's schema is a string enum (for reporting unknown values).
    pub string_enum: bool,
}

/// What the post-pass needs to know about one struct definition.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StructFacts {
    /// Properties in schema order.
    pub properties: Vec<(String, PropertyFacts)>,
    /// A union flattened into the struct: `(member ident, union type)`.
    pub flatten: Option<(String, String)>,
}

/// The output of this stage.
#[derive(Debug, Clone, Default)]
pub struct Normalized {
    /// Definitions for typify, in schema order (synthetic ones after their parent).
    pub defs: Vec<(String, Value)>,
    /// Unions the post-pass emits.
    pub unions: Vec<Union>,
    /// Enums the post-pass emits.
    pub enums: Vec<EnumDef>,
    /// Facts per struct definition.
    pub structs: BTreeMap<String, StructFacts>,
}

impl Normalized {
    /// Names the post-pass emits instead of typify.
    pub fn emitted_names(&self) -> impl Iterator<Item = &str> {
        self.unions
            .iter()
            .map(|u| u.name.as_str())
            .chain(self.enums.iter().map(|e| e.name.as_str()))
    }
}

/// A construct this stage cannot express faithfully.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NormalizeError {
    /// A `$ref` names a definition that does not exist.
    #[error("definition `{definition}`: `$ref` to missing definition `{target}` at `{pointer}`")]
    MissingRef {
        /// The definition holding the reference.
        definition: String,
        /// The missing name.
        target: String,
        /// RFC 6901 pointer of the reference.
        pointer: String,
    },
    /// A requested root definition does not exist.
    #[error("root definition `{definition}` is not in the schema")]
    MissingRoot {
        /// The requested name.
        definition: String,
    },
    /// A union branch whose payload this stage cannot build.
    #[error(
        "definition `{definition}`: union branch at `{pointer}` cannot be expressed: {reason}"
    )]
    Branch {
        /// The union definition.
        definition: String,
        /// RFC 6901 pointer of the branch.
        pointer: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A definition name that is not a Rust identifier (`[A-Za-z_][A-Za-z0-9_]*`): the pipeline
    /// keeps definition names as type names.
    #[error("definition `{definition}` is not a Rust identifier (at `{pointer}`)")]
    NotAnIdentifier {
        /// The definition name.
        definition: String,
        /// RFC 6901 pointer of the definition.
        pointer: String,
    },
    /// Two definitions would get the same Rust name.
    #[error(
        "definition `{definition}`: synthetic name `{name}` is already taken (at `{pointer}`)"
    )]
    NameClash {
        /// The definition being split.
        definition: String,
        /// The clashing name.
        name: String,
        /// RFC 6901 pointer of the construct.
        pointer: String,
    },
}

/// Options of this stage, per family.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options<'a> {
    /// Only the `$ref` closure of these definitions is kept; `None` keeps every definition.
    pub roots: Option<&'a [&'a str]>,
    /// Tagged unions the family declares open although the schema has no catch-all branch.
    pub open_unions: &'a [&'a str],
}

/// Normalizes the `$defs` of one schema document.
///
/// # Errors
/// See [`NormalizeError`]: a missing root or `$ref` target, a union branch that cannot be split
/// into tag and payload, or a synthetic name that clashes.
pub fn normalize(document: &Value, options: Options<'_>) -> Result<Normalized, NormalizeError> {
    let all: Vec<(String, Value)> = document
        .get("$defs")
        .and_then(Value::as_object)
        .map(|defs| defs.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    let index: BTreeMap<&str, &Value> = all.iter().map(|(k, v)| (k.as_str(), v)).collect();
    for (name, _) in &all {
        if !is_identifier(name) {
            return Err(NormalizeError::NotAnIdentifier {
                definition: name.clone(),
                pointer: format!("/$defs/{}", escape(name)),
            });
        }
    }
    let keep: BTreeSet<String> = match options.roots {
        None => {
            let names: Vec<&str> = all.iter().map(|(k, _)| k.as_str()).collect();
            closure(&index, &names)?
        }
        Some(roots) => closure(&index, roots)?,
    };
    let mut run = Run {
        index: &index,
        taken: all.iter().map(|(k, _)| k.clone()).collect(),
        out: Normalized::default(),
        queue: VecDeque::new(),
        open_unions: options.open_unions,
    };
    for (name, schema) in &all {
        if keep.contains(name) {
            run.queue.push_back((
                name.clone(),
                schema.clone(),
                format!("/$defs/{}", escape(name)),
            ));
        }
    }
    while let Some((name, schema, pointer)) = run.queue.pop_front() {
        run.definition(&name, schema, &pointer)?;
    }
    Ok(run.out)
}

struct Run<'a> {
    index: &'a BTreeMap<&'a str, &'a Value>,
    taken: BTreeSet<String>,
    out: Normalized,
    queue: VecDeque<(String, Value, String)>,
    open_unions: &'a [&'a str],
}

fn branches(schema: &Value) -> Option<&Vec<Value>> {
    schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)
}

fn description(schema: &Value) -> Option<String> {
    schema
        .get("description")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

fn ref_target(schema: &Value) -> Option<&str> {
    schema
        .get("$ref")
        .or_else(|| {
            schema
                .get("allOf")
                .and_then(Value::as_array)
                .filter(|a| a.len() == 1)
                .and_then(|a| a[0].get("$ref"))
        })
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"))
}

fn is_null_schema(schema: &Value) -> bool {
    schema.get("type") == Some(&Value::from("null"))
}

impl Run<'_> {
    fn claim(
        &mut self,
        definition: &str,
        name: String,
        pointer: &str,
    ) -> Result<String, NormalizeError> {
        if !self.taken.insert(name.clone()) {
            return Err(NormalizeError::NameClash {
                definition: definition.to_owned(),
                name,
                pointer: pointer.to_owned(),
            });
        }
        Ok(name)
    }

    fn definition(
        &mut self,
        name: &str,
        schema: Value,
        pointer: &str,
    ) -> Result<(), NormalizeError> {
        if let Some(branches) = branches(&schema).cloned() {
            if let Some(e) = enum_def(name, &schema, &branches) {
                self.out.enums.push(e);
                return Ok(());
            }
            let has_members = schema
                .get("properties")
                .is_some_and(|p| p.as_object().is_some_and(|p| !p.is_empty()));
            if has_members {
                return self.struct_with_union(name, schema, &branches, pointer);
            }
            let union = self.union(name, &schema, &branches, pointer, &[])?;
            self.out.unions.push(union);
            return Ok(());
        }
        self.structure(name, schema, pointer, None)
    }

    /// A struct whose members sit beside a union: the union becomes `<name>Kind`, flattened.
    fn struct_with_union(
        &mut self,
        name: &str,
        schema: Value,
        branches: &[Value],
        pointer: &str,
    ) -> Result<(), NormalizeError> {
        let union_name = self.claim(name, format!("{name}Kind"), pointer)?;
        let tag = union_tag(branches);
        let mut parent = schema.clone();
        let object = parent.as_object_mut().expect("branches() saw an object");
        object.remove("oneOf");
        object.remove("anyOf");
        object.remove("discriminator");
        // The tag belongs to the union, not to the parent's members.
        if let Some(tag) = &tag {
            if let Some(p) = object.get_mut("properties").and_then(Value::as_object_mut) {
                p.remove(tag);
            }
            if let Some(r) = object.get_mut("required").and_then(Value::as_array_mut) {
                r.retain(|x| x.as_str() != Some(tag));
            }
        }
        let parent_members: Vec<String> = object
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        let member = if parent_members.iter().any(|m| m == "kind") {
            "variant"
        } else {
            "kind"
        };
        let union = self.union(&union_name, &schema, branches, pointer, &parent_members)?;
        self.out.unions.push(union);
        self.structure(name, parent, pointer, Some((member.to_owned(), union_name)))
    }

    fn union(
        &mut self,
        name: &str,
        schema: &Value,
        branches: &[Value],
        pointer: &str,
        parent_members: &[String],
    ) -> Result<Union, NormalizeError> {
        let keyword = if schema.get("oneOf").is_some() {
            "oneOf"
        } else {
            "anyOf"
        };
        // A branch that is itself only a union (`{description, anyOf: [...]}`) contributes its
        // branches: `anyOf` of `anyOf` accepts the same values.
        let flattened: Vec<Value> = branches
            .iter()
            .flat_map(|b| match (branches_of_pure_union(b), b) {
                (Some(inner), _) => inner.clone(),
                (None, b) => vec![b.clone()],
            })
            .collect();
        let branches = flattened.as_slice();
        let tag = union_tag(branches);
        let mut variants: Vec<UnionVariant> = Vec::new();
        for (i, branch) in branches.iter().enumerate() {
            let here = format!("{pointer}/{keyword}/{i}");
            let variant = match &tag {
                Some(tag) => self.tagged_branch(name, tag, branch, &here, parent_members)?,
                None => self.untagged_branch(name, branch, i, &here)?,
            };
            let mut variant = variant;
            // Variant names must be unique.
            let base = variant.name.clone();
            let mut n = 2;
            while variants.iter().any(|v| v.name == variant.name) {
                variant.name = format!("{base}{n}");
                n += 1;
            }
            variants.push(variant);
        }
        let declared_open = self.open_unions.contains(&name);
        if tag.is_some()
            && declared_open
            && !variants.iter().any(|v| v.kind == VariantKind::CatchAll)
        {
            variants.push(UnionVariant {
                name: "Unknown".to_owned(),
                kind: VariantKind::CatchAll,
                payload: Payload::Raw,
                description: Some(
                    "A variant this version does not know, kept as the raw JSON object it arrived as."
                        .to_owned(),
                ),
            });
        }
        Ok(Union {
            name: name.to_owned(),
            tag,
            variants,
            description: description(schema),
            pointer: pointer.to_owned(),
        })
    }

    fn tagged_branch(
        &mut self,
        union: &str,
        tag: &str,
        branch: &Value,
        pointer: &str,
        parent_members: &[String],
    ) -> Result<UnionVariant, NormalizeError> {
        let description = description(branch);
        if branch.get("not").is_some() {
            return Ok(UnionVariant {
                name: "Unknown".to_owned(),
                kind: VariantKind::CatchAll,
                payload: Payload::Raw,
                description,
            });
        }
        let tag_schema = &branch["properties"][tag];
        let (kind, name) = match tag_schema.get("const").and_then(Value::as_str) {
            Some(value) => (VariantKind::Tagged(value.to_owned()), pascal(value)),
            None => {
                let name = branch
                    .get("title")
                    .and_then(Value::as_str)
                    .map(pascal)
                    .or_else(|| ref_target(branch).map(str::to_owned))
                    .unwrap_or_else(|| "Fallback".to_owned());
                (VariantKind::Fallback, name)
            }
        };
        let payload =
            self.branch_payload(union, &name, branch, pointer, Some(tag), parent_members)?;
        Ok(UnionVariant {
            name,
            kind,
            payload,
            description,
        })
    }

    fn untagged_branch(
        &mut self,
        union: &str,
        branch: &Value,
        index: usize,
        pointer: &str,
    ) -> Result<UnionVariant, NormalizeError> {
        let description = description(branch);
        let title = branch.get("title").and_then(Value::as_str).map(pascal);
        if is_null_schema(branch) {
            return Ok(UnionVariant {
                name: title.unwrap_or_else(|| "Null".to_owned()),
                kind: VariantKind::Untagged,
                payload: Payload::Unit,
                description,
            });
        }
        if let Some(target) = ref_target(branch) {
            if branch.get("properties").is_none() {
                return Ok(UnionVariant {
                    name: title.unwrap_or_else(|| target.to_owned()),
                    kind: VariantKind::Untagged,
                    payload: Payload::Def(target.to_owned()),
                    description,
                });
            }
        }
        if let Some(rust) = primitive(branch) {
            let name = title.unwrap_or_else(|| {
                pascal(
                    branch
                        .get("type")
                        .and_then(Value::as_str)
                        .unwrap_or("value"),
                )
            });
            return Ok(UnionVariant {
                name,
                kind: VariantKind::Untagged,
                payload: Payload::Rust(rust),
                description,
            });
        }
        let name = title.unwrap_or_else(|| format!("Variant{index}"));
        let payload = self.branch_payload(union, &name, branch, pointer, None, &[])?;
        Ok(UnionVariant {
            name,
            kind: VariantKind::Untagged,
            payload,
            description,
        })
    }

    /// The payload of a branch: nothing, the referenced definition, or a synthetic definition
    /// holding the branch's own members (merged with the referenced definition's, if any).
    fn branch_payload(
        &mut self,
        union: &str,
        variant: &str,
        branch: &Value,
        pointer: &str,
        tag: Option<&str>,
        parent_members: &[String],
    ) -> Result<Payload, NormalizeError> {
        let own: Map<String, Value> = branch
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| {
                p.iter()
                    .filter(|(k, _)| Some(k.as_str()) != tag && !parent_members.contains(k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let target = ref_target(branch);
        let has_other_combinators = branch.get("anyOf").is_some() || branch.get("oneOf").is_some();
        if has_other_combinators {
            return Err(NormalizeError::Branch {
                definition: union.to_owned(),
                pointer: pointer.to_owned(),
                reason: "a nested `anyOf`/`oneOf` in a tagged branch".to_owned(),
            });
        }
        match (target, own.is_empty()) {
            (None, true) => Ok(Payload::Unit),
            (Some(target), true) => Ok(Payload::Def(target.to_owned())),
            (target, false) => {
                let mut properties = Map::new();
                let mut required: Vec<Value> = Vec::new();
                if let Some(target) = target {
                    let referenced = self.index.get(target).copied().ok_or_else(|| {
                        NormalizeError::MissingRef {
                            definition: union.to_owned(),
                            target: target.to_owned(),
                            pointer: pointer.to_owned(),
                        }
                    })?;
                    if branches(referenced).is_some() || referenced.get("properties").is_none() {
                        return Err(NormalizeError::Branch {
                            definition: union.to_owned(),
                            pointer: pointer.to_owned(),
                            reason: format!("members beside a `$ref` to `{target}`, which is not a plain object"),
                        });
                    }
                    if let Some(p) = referenced.get("properties").and_then(Value::as_object) {
                        properties.extend(p.clone());
                    }
                    if let Some(r) = referenced.get("required").and_then(Value::as_array) {
                        required.extend(r.iter().cloned());
                    }
                }
                properties.extend(own);
                if let Some(r) = branch.get("required").and_then(Value::as_array) {
                    required.extend(r.iter().filter(|x| x.as_str() != tag).cloned());
                }
                required.dedup();
                let name = self.claim(union, format!("{union}{variant}"), pointer)?;
                let mut object =
                    json!({"type": "object", "properties": properties, "required": required});
                if let Some(d) = branch.get("description") {
                    object["description"] = d.clone();
                }
                self.queue
                    .push_back((name.clone(), object, pointer.to_owned()));
                Ok(Payload::Def(name))
            }
        }
    }

    /// A struct (or newtype) for typify: records member facts, hoists inline unions.
    fn structure(
        &mut self,
        name: &str,
        mut schema: Value,
        pointer: &str,
        flatten: Option<(String, String)>,
    ) -> Result<(), NormalizeError> {
        let required: BTreeSet<String> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let mut facts = StructFacts {
            flatten,
            ..StructFacts::default()
        };
        if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
            for (member, sub) in properties.iter_mut() {
                let here = format!("{pointer}/properties/{}", escape(member));
                self.hoist(name, member, sub, &here)?;
                facts.properties.push((
                    member.clone(),
                    PropertyFacts {
                        required: required.contains(member),
                        nullable: admits_null(sub),
                        default_on_error: sub["x-deserialize-default-on-error"]
                            == Value::Bool(true),
                        default_on_null: sub["x-deserialize-default-on-null"] == Value::Bool(true),
                        skip_invalid_items: sub["x-deserialize-skip-invalid-items"]
                            == Value::Bool(true),
                        string_enum: self.is_string_enum(sub),
                    },
                ));
            }
        }
        rewrite(&mut schema);
        if schema.get("properties").is_some() || schema.get("type") == Some(&Value::from("object"))
        {
            self.out.structs.insert(name.to_owned(), facts);
        }
        self.out.defs.push((name.to_owned(), schema));
        Ok(())
    }

    fn is_string_enum(&self, schema: &Value) -> bool {
        let target = ref_target(schema).or_else(|| {
            schema
                .get("anyOf")
                .and_then(Value::as_array)
                .and_then(|b| b.iter().find_map(ref_target))
        });
        target
            .and_then(|t| self.index.get(t))
            .and_then(|s| branches(s).map(|b| (s, b)))
            .and_then(|(s, b)| enum_def("x", s, b))
            .is_some_and(|e| !e.integer)
    }

    /// Moves an inline union (not the nullable pair `[X, {type: null}]`) in a member's schema
    /// (or its `items`) into a synthetic definition `<Def><Member>`.
    fn hoist(
        &mut self,
        definition: &str,
        member: &str,
        sub: &mut Value,
        pointer: &str,
    ) -> Result<(), NormalizeError> {
        if let Some(items) = sub.get_mut("items") {
            if items.is_object() {
                return self.hoist(definition, member, items, &format!("{pointer}/items"));
            }
        }
        let Some(list) = branches(sub).cloned() else {
            return Ok(());
        };
        let non_null: Vec<Value> = list
            .iter()
            .filter(|b| !is_null_schema(b))
            .cloned()
            .collect();
        let had_null = non_null.len() != list.len();
        if non_null.len() == 1
            && (ref_target(&non_null[0]).is_some() || primitive(&non_null[0]).is_some())
        {
            return Ok(());
        }
        let name = self.claim(
            definition,
            format!("{definition}{}", pascal(member)),
            pointer,
        )?;
        let keyword = if sub.get("oneOf").is_some() {
            "oneOf"
        } else {
            "anyOf"
        };
        let mut hoisted = json!({ keyword: non_null });
        if let Some(d) = sub.get("description") {
            hoisted["description"] = d.clone();
        }
        self.queue
            .push_back((name.clone(), hoisted, pointer.to_owned()));
        let object = sub.as_object_mut().expect("branches() saw an object");
        object.remove("oneOf");
        object.remove("anyOf");
        let reference = json!({"$ref": format!("#/$defs/{name}")});
        if had_null {
            object.insert("anyOf".into(), json!([reference, {"type": "null"}]));
        } else {
            object.insert("allOf".into(), json!([reference]));
        }
        Ok(())
    }
}

/// The branches of a schema that is nothing but a union (plus annotations).
fn branches_of_pure_union(schema: &Value) -> Option<&Vec<Value>> {
    let object = schema.as_object()?;
    let only_union = object
        .keys()
        .all(|k| matches!(k.as_str(), "anyOf" | "oneOf" | "description" | "title"));
    if only_union {
        branches(schema)
    } else {
        None
    }
}

/// The Rust type of a primitive untagged branch.
fn primitive(branch: &Value) -> Option<String> {
    if branch.get("properties").is_some()
        || branch.get("enum").is_some()
        || branch.get("const").is_some()
    {
        return None;
    }
    match branch.get("type").and_then(Value::as_str)? {
        "string" => Some("::std::string::String".to_owned()),
        "integer" => Some("i64".to_owned()),
        "number" => Some("f64".to_owned()),
        "boolean" => Some("bool".to_owned()),
        "array" => {
            let items = branch.get("items")?;
            let inner = ref_target(items)
                .map(str::to_owned)
                .or_else(|| primitive(items))?;
            Some(format!("::std::vec::Vec<{inner}>"))
        }
        _ => None,
    }
}

/// An enum of `const` values, with at most one plain catch-all branch of the same type.
fn enum_def(name: &str, schema: &Value, branches: &[Value]) -> Option<EnumDef> {
    let mut values = Vec::new();
    let mut open = false;
    let mut integer = None;
    for branch in branches {
        if let Some(c) = branch.get("const") {
            let is_int = c.is_i64() || c.is_u64();
            if !(c.is_string() || is_int) || *integer.get_or_insert(is_int) != is_int {
                return None;
            }
            let name = match c {
                Value::String(s) => pascal(s),
                other => branch
                    .get("title")
                    .and_then(Value::as_str)
                    .map(pascal)
                    .unwrap_or_else(|| format!("V{}", other.to_string().replace('-', "Minus"))),
            };
            values.push(EnumValue {
                wire: c.clone(),
                name,
                description: description(branch),
            });
        } else if !open
            && branch.get("properties").is_none()
            && matches!(
                branch.get("type").and_then(Value::as_str),
                Some("string" | "integer")
            )
        {
            open = true;
        } else {
            return None;
        }
    }
    if values.is_empty() {
        return None;
    }
    Some(EnumDef {
        name: name.to_owned(),
        description: description(schema),
        values,
        integer: integer.unwrap_or(false),
        open,
    })
}

/// The tag member of a union: a property that every branch either fixes with a string `const`
/// or leaves to a catch-all (`not`) or fallback branch, fixed by at least one branch.
fn union_tag(branches: &[Value]) -> Option<String> {
    let mut candidates: Vec<String> = Vec::new();
    for branch in branches {
        if let Some(p) = branch.get("properties").and_then(Value::as_object) {
            for (member, schema) in p {
                if schema.get("const").is_some_and(Value::is_string) && !candidates.contains(member)
                {
                    candidates.push(member.clone());
                }
            }
        }
    }
    candidates.into_iter().find(|member| {
        branches.iter().all(|b| {
            let fixed = b["properties"][member]["const"].is_string()
                && b.get("required")
                    .and_then(Value::as_array)
                    .is_some_and(|r| r.iter().any(|x| x.as_str() == Some(member)));
            let catch_all = b.get("not").is_some();
            let without = b["properties"][member].get("const").is_none();
            fixed || catch_all || without
        })
    })
}

/// Whether `name` can be a Rust type name as is.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "_"
}

/// The names reachable from `roots` over `$ref`, roots included.
fn closure(
    index: &BTreeMap<&str, &Value>,
    roots: &[&str],
) -> Result<BTreeSet<String>, NormalizeError> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<String> = Vec::new();
    for root in roots {
        if !index.contains_key(root) {
            return Err(NormalizeError::MissingRoot {
                definition: (*root).to_owned(),
            });
        }
        stack.push((*root).to_owned());
    }
    while let Some(name) = stack.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let mut refs = Vec::new();
        collect_refs(
            index[name.as_str()],
            &format!("/$defs/{}", escape(&name)),
            &mut refs,
        );
        for (target, pointer) in refs {
            if !index.contains_key(target.as_str()) {
                return Err(NormalizeError::MissingRef {
                    definition: name,
                    target,
                    pointer,
                });
            }
            stack.push(target);
        }
    }
    Ok(seen)
}

fn collect_refs(value: &Value, pointer: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            for (key, sub) in map {
                let here = format!("{pointer}/{}", escape(key));
                if key == "$ref" {
                    if let Some(target) = sub.as_str().and_then(|r| r.strip_prefix("#/$defs/")) {
                        out.push((target.to_owned(), here));
                    }
                } else if !matches!(
                    key.as_str(),
                    "enum" | "const" | "default" | "examples" | "not"
                ) {
                    collect_refs(sub, &here, out);
                }
            }
        }
        Value::Array(items) => {
            for (i, sub) in items.iter().enumerate() {
                collect_refs(sub, &format!("{pointer}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Whether a property schema admits `null`: `type` naming `null`, an `anyOf`/`oneOf` branch
/// that does, or no constraint at all (`{}` admits every value).
pub fn admits_null(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => return t == "null",
        Some(Value::Array(types)) => return types.iter().any(|t| t == "null"),
        _ => {}
    }
    for keyword in ["anyOf", "oneOf"] {
        if let Some(branches) = schema.get(keyword).and_then(Value::as_array) {
            return branches.iter().any(admits_null);
        }
    }
    if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
        // A `$ref` wrapped in `allOf` admits null only if the target does; we do not follow
        // refs here (ACP never makes a referenced definition nullable).
        return all
            .iter()
            .all(|s| s.get("$ref").is_none() && admits_null(s));
    }
    if schema.get("$ref").is_some() || schema.get("enum").is_some() || schema.get("const").is_some()
    {
        return false;
    }
    true
}

/// The typify-facing rewrites, in schema positions only (member names in `properties` are
/// data): `const` to a one-value `enum`, vendor keywords removed.
fn rewrite(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    map.retain(|k, _| !k.starts_with("x-"));
    if let Some(constant) = map.remove("const") {
        map.insert("enum".into(), Value::Array(vec![constant]));
    }
    for (key, sub) in map.iter_mut() {
        match key.as_str() {
            "properties" | "$defs" => {
                if let Value::Object(members) = sub {
                    members.values_mut().for_each(rewrite);
                }
            }
            "allOf" | "anyOf" | "oneOf" => {
                if let Value::Array(items) = sub {
                    items.iter_mut().for_each(rewrite);
                }
            }
            "items" | "additionalProperties" | "not" => rewrite(sub),
            _ => {}
        }
    }
}

/// `user_message_chunk` → `UserMessageChunk`; `date-time` → `DateTime`.
pub fn pascal(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut upper = true;
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() {
            if upper {
                out.push(c.to_ascii_uppercase());
            } else {
                out.push(c);
            }
            upper = false;
        } else {
            upper = true;
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) || out.is_empty() {
        out.insert(0, 'V');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(doc: &Value) -> Normalized {
        normalize(doc, Options::default()).unwrap()
    }

    #[test]
    fn tagged_union_over_refs_inline_branch_and_catch_all() {
        let doc = json!({"$defs": {
            "Outcome": {"oneOf": [
                {"properties": {"outcome": {"type": "string", "const": "cancelled"}}, "required": ["outcome"]},
                {"properties": {"outcome": {"type": "string", "const": "selected"}}, "required": ["outcome"],
                 "allOf": [{"$ref": "#/$defs/Selected"}]},
                {"properties": {"outcome": {"const": "later"}, "at": {"type": "integer"}}, "required": ["outcome", "at"]},
                {"title": "other", "properties": {"outcome": {"type": "string"}}, "required": ["outcome"],
                 "not": {"anyOf": []}}
            ], "discriminator": {"propertyName": "outcome"}},
            "Selected": {"type": "object", "properties": {"optionId": {"type": "string"}}}
        }});
        let n = run(&doc);
        let u = &n.unions[0];
        assert_eq!(u.tag.as_deref(), Some("outcome"));
        let v: Vec<_> = u
            .variants
            .iter()
            .map(|v| (v.name.as_str(), &v.kind, &v.payload))
            .collect();
        assert_eq!(
            v,
            [
                (
                    "Cancelled",
                    &VariantKind::Tagged("cancelled".into()),
                    &Payload::Unit
                ),
                (
                    "Selected",
                    &VariantKind::Tagged("selected".into()),
                    &Payload::Def("Selected".into())
                ),
                (
                    "Later",
                    &VariantKind::Tagged("later".into()),
                    &Payload::Def("OutcomeLater".into())
                ),
                ("Unknown", &VariantKind::CatchAll, &Payload::Raw),
            ]
        );
        let names: Vec<_> = n.defs.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["Selected", "OutcomeLater"]);
        assert_eq!(n.defs[1].1["required"], json!(["at"]));
    }

    #[test]
    fn members_beside_a_union_become_a_struct_with_a_flattened_kind() {
        let doc = json!({"$defs": {
            "Opt": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"],
                "oneOf": [{"properties": {"type": {"const": "a"}}, "required": ["type"]},
                          {"properties": {"type": {"const": "b"}}, "required": ["type"]}]}
        }});
        let n = run(&doc);
        assert_eq!(n.unions[0].name, "OptKind");
        assert_eq!(
            n.structs["Opt"].flatten,
            Some(("kind".into(), "OptKind".into()))
        );
        assert_eq!(n.defs[0].1["properties"], json!({"id": {"type": "string"}}));
    }

    #[test]
    fn enums_closed_open_and_integer() {
        let doc = json!({"$defs": {
            "Kind": {"oneOf": [{"type": "string", "const": "read"}, {"type": "string", "const": "other"}]},
            "Cat": {"anyOf": [{"const": "mode"}, {"type": "string", "title": "other"}]},
            "Code": {"anyOf": [{"title": "Parse error", "type": "integer", "const": -32700}, {"type": "integer"}]}
        }});
        let n = run(&doc);
        let summary: Vec<_> = n
            .enums
            .iter()
            .map(|e| (e.name.as_str(), e.integer, e.open, e.values.len()))
            .collect();
        assert_eq!(
            summary,
            [
                ("Kind", false, false, 2),
                ("Cat", false, true, 1),
                ("Code", true, true, 1)
            ]
        );
        assert_eq!(n.enums[2].values[0].name, "ParseError");
    }

    #[test]
    fn untagged_union_and_hoisting() {
        let doc = json!({"$defs": {
            "Id": {"anyOf": [{"title": "Null", "type": "null"}, {"type": "integer"}, {"type": "string"}]},
            "Msg": {"type": "object", "properties": {"params": {"anyOf": [
                {"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}, {"type": "null"}]}}},
            "A": {"type": "object"}, "B": {"type": "object"}
        }});
        let n = run(&doc);
        let id = n.unions.iter().find(|u| u.name == "Id").unwrap();
        let v: Vec<_> = id
            .variants
            .iter()
            .map(|v| (v.name.as_str(), &v.payload))
            .collect();
        assert_eq!(
            v,
            [
                ("Null", &Payload::Unit),
                ("Integer", &Payload::Rust("i64".into())),
                ("String", &Payload::Rust("::std::string::String".into()))
            ]
        );
        let msg = n.defs.iter().find(|(k, _)| k == "Msg").unwrap();
        assert_eq!(
            msg.1["properties"]["params"],
            json!({"anyOf": [{"$ref": "#/$defs/MsgParams"}, {"type": "null"}]})
        );
        assert!(n
            .unions
            .iter()
            .any(|u| u.name == "MsgParams" && u.tag.is_none()));
        assert!(n.structs["Msg"].properties[0].1.nullable);
    }

    #[test]
    fn vendor_keywords_are_recorded() {
        let doc = json!({"$defs": {"A": {"type": "object", "required": ["k"], "properties": {
            "k": {"type": "string", "const": "x"},
            "t": {"type": ["string", "null"], "x-deserialize-default-on-error": true},
            "r": {"description": "any"},
            "const": {"type": "string"}
        }}}});
        let n = run(&doc);
        assert_eq!(
            n.defs[0].1["properties"]["const"],
            json!({"type": "string"})
        );
        assert_eq!(
            n.defs[0].1["properties"]["k"],
            json!({"type": "string", "enum": ["x"]})
        );
        assert_eq!(
            n.defs[0].1["properties"]["t"],
            json!({"type": ["string", "null"]})
        );
        let facts: Vec<_> = n.structs["A"]
            .properties
            .iter()
            .map(|(k, f)| (k.as_str(), f.required, f.nullable, f.default_on_error))
            .collect();
        assert_eq!(
            facts,
            [
                ("k", true, false, false),
                ("t", false, true, true),
                ("r", false, true, false),
                ("const", false, false, false)
            ]
        );
    }

    #[test]
    fn missing_ref_is_named() {
        let doc = json!({"$defs": {"A": {"properties": {"b": {"$ref": "#/$defs/B"}}}}});
        let e = normalize(
            &doc,
            Options {
                roots: Some(&["A"]),
                open_unions: &[],
            },
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "definition `A`: `$ref` to missing definition `B` at `/$defs/A/properties/b/$ref`"
        );
    }

    #[test]
    fn names_that_are_not_identifiers_and_dangling_refs_are_refused() {
        let doc = json!({"$defs": {"a-b": {"type": "object"}}});
        assert_eq!(
            normalize(&doc, Options::default()).unwrap_err().to_string(),
            "definition `a-b` is not a Rust identifier (at `/$defs/a-b`)"
        );
        let doc = json!({"$defs": {"U": {"oneOf": [{"properties": {"t": {"const": "a"}}, "required": ["t"],
            "allOf": [{"$ref": "#/$defs/Missing"}]}]}}});
        assert_eq!(
            normalize(&doc, Options::default()).unwrap_err().to_string(),
            "definition `U`: `$ref` to missing definition `Missing` at `/$defs/U/oneOf/0/allOf/0/$ref`"
        );
    }

    #[test]
    fn pascal_names() {
        assert_eq!(pascal("user_message_chunk"), "UserMessageChunk");
        assert_eq!(pascal("date-time"), "DateTime");
        assert_eq!(pascal("2.0"), "V20");
    }
}
