//! Unions and enumerations: `enum`/`const` values, `oneOf`/`anyOf` branches told apart by a
//! tag member (inline, or a `const` inside the `$ref`'d definitions) or by their shape, `type`
//! arrays, and branches that only narrow a type.

use serde_json::{json, Map, Value};

use super::build::{description, has_union, types, BuildError, Builder};
use super::names;
use super::objects::{is_structural, string_const};
use super::{Enum, EnumValue, Other, Payload, Select, Ty, Union, Variant};
use crate::check::is_annotation;
use crate::pointer;

/// The branches of a union schema, with the keyword they sit under.
fn branches(schema: &Value) -> Option<(&'static str, &Vec<Value>)> {
    if let Some(b) = schema.get("oneOf").and_then(Value::as_array) {
        return Some(("oneOf", b));
    }
    schema
        .get("anyOf")
        .and_then(Value::as_array)
        .map(|b| ("anyOf", b))
}

fn is_null_schema(schema: &Value) -> bool {
    schema.get("type") == Some(&json!("null"))
        || schema.get("const") == Some(&Value::Null)
        || schema
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|v| v == &[Value::Null])
}

/// `anyOf`/`oneOf` of one schema and `{type: null}` (nothing else structural beside them): the
/// schema, and its pointer.
pub(super) fn nullable_branch<'s>(schema: &'s Value, pointer: &str) -> Option<(&'s Value, String)> {
    let (keyword, list) = branches(schema)?;
    let object = schema.as_object()?;
    let alone = object.keys().all(|k| k == keyword || is_annotation(k));
    if !alone || list.len() != 2 {
        return None;
    }
    let (index, other) = match (is_null_schema(&list[0]), is_null_schema(&list[1])) {
        (true, false) => (1, &list[1]),
        (false, true) => (0, &list[0]),
        _ => return None,
    };
    Some((other, format!("{pointer}/{keyword}/{index}")))
}

/// A `const` branch of an enumeration: `{const: v}` with annotations and a matching `type`.
fn const_branch(branch: &Value) -> Option<&Value> {
    let object = branch.as_object()?;
    let c = object.get("const")?;
    let only = object
        .keys()
        .all(|k| k == "const" || k == "type" || is_annotation(k));
    (only && (c.is_string() || c.is_i64() || c.is_u64())).then_some(c)
}

/// The open branch of an enumeration: `{type: string}` or `{type: integer}` with annotations.
fn open_branch(branch: &Value) -> Option<&str> {
    let object = branch.as_object()?;
    let only = object.keys().all(|k| k == "type" || is_annotation(k));
    let t = object.get("type")?.as_str()?;
    (only && matches!(t, "string" | "integer")).then_some(t)
}

/// Whether `schema` is an enumeration of strings or integers.
pub(super) fn is_enumeration(schema: &Value) -> bool {
    enumeration_values(schema).is_some()
}

/// Whether `schema` is an enumeration of strings (and not `null`: one that lists `null` is a
/// union of the strings and `null`).
pub(crate) fn is_string_enum(schema: &Value) -> bool {
    let lists_null = schema
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|values| values.iter().any(Value::is_null));
    !lists_null
        && enumeration_values(schema)
            .is_some_and(|(values, _)| values.iter().all(|(v, _)| v.is_string()))
}

/// The values of an enumeration (with their branch, for docs) and its open branch.
#[allow(clippy::type_complexity, reason = "a private helper's pair of lists")]
fn enumeration_values(schema: &Value) -> Option<(Vec<(Value, Option<&Value>)>, Option<&Value>)> {
    let scalar = |v: &Value| v.is_string() || v.is_i64() || v.is_u64();
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let values: Vec<(Value, Option<&Value>)> = values
            .iter()
            .filter(|v| !v.is_null())
            .map(|v| (v.clone(), None))
            .collect();
        let strings = values.iter().all(|(v, _)| v.is_string());
        // Integer enumerations are `i64` codes: a value past `i64::MAX` is refused, not wrapped.
        let integers = values.iter().all(|(v, _)| v.is_i64());
        if values.is_empty() || !(strings || integers) || has_union(schema) {
            return None;
        }
        if let Some(c) = schema.get("const") {
            return values
                .iter()
                .any(|(v, _)| v == c)
                .then(|| (vec![(c.clone(), None)], None));
        }
        return Some((values, None));
    }
    if let Some(c) = schema.get("const") {
        if scalar(c) && !has_union(schema) && schema.get("properties").is_none() {
            return Some((vec![(c.clone(), None)], None));
        }
        return None;
    }
    let (_, list) = branches(schema)?;
    if schema.get("properties").is_some() {
        return None;
    }
    let mut values = Vec::new();
    let mut open = None;
    for branch in list {
        if let Some(c) = const_branch(branch) {
            values.push((c.clone(), Some(branch)));
        } else if open.is_none() && open_branch(branch).is_some() {
            open = Some(branch);
        } else {
            return None;
        }
    }
    let strings = values.iter().all(|(v, _)| v.is_string());
    // Integer enumerations are `i64` codes: a value past `i64::MAX` is refused, not wrapped.
    let integers = values.iter().all(|(v, _)| v.is_i64());
    let open_matches = open
        .and_then(open_branch)
        .is_none_or(|t| (t == "string" && strings) || (t == "integer" && integers));
    (!values.is_empty() && (strings || integers) && open_matches).then_some((values, open))
}

/// The enumeration `schema` is, if it is one.
///
/// # Errors
/// None today; kept fallible for symmetry with the other builders.
pub(super) fn enumeration(
    builder: &Builder<'_>,
    schema: &Value,
    _pointer: &str,
) -> Result<Option<Enum>, BuildError> {
    let Some((values, open)) = enumeration_values(schema) else {
        return Ok(None);
    };
    let integer = values.iter().all(|(v, _)| !v.is_string());
    let raw_names: Vec<String> = values
        .iter()
        .map(|(v, branch)| {
            let title = branch.and_then(|b| b.get("title")).and_then(Value::as_str);
            match (v, title) {
                (Value::String(s), _) => s.clone(),
                (_, Some(title)) => title.to_owned(),
                (other, None) => {
                    let text = other.to_string();
                    text.strip_prefix('-')
                        .map_or_else(|| format!("V{text}"), |n| format!("Minus{n}"))
                }
            }
        })
        .collect();
    let mut names = names::unique_variant_names(&raw_names);
    let other = open.map(|branch| {
        let name = branch
            .get("title")
            .and_then(Value::as_str)
            .map_or_else(|| "Other".to_owned(), names::pascal);
        Other {
            name,
            docs: description(branch),
        }
    });
    if let Some(other) = &other {
        names.push(other.name.clone());
        names::dedupe(&mut names);
    }
    let mut other = other;
    if let (Some(o), Some(last)) = (other.as_mut(), names.last()) {
        o.name.clone_from(last);
    }
    let values: Vec<EnumValue> = values
        .into_iter()
        .zip(names)
        .map(|((wire, branch), name)| EnumValue {
            name,
            wire,
            docs: branch.and_then(|b| {
                description(b).or_else(|| b.get("title").and_then(Value::as_str).map(str::to_owned))
            }),
        })
        .collect();
    let unknown_as = (builder.options.unknown_enum_as_other && other.is_none() && !integer)
        .then(|| {
            values
                .iter()
                .find(|v: &&EnumValue| v.wire == "other")
                .map(|v| v.name.clone())
        })
        .flatten();
    Ok(Some(Enum {
        values,
        integer,
        other,
        unknown_as,
    }))
}

/// A union whose branches only narrow the type beside them (`type: [string, integer, null]` with
/// `anyOf: [{type: string}, {type: integer}]`): the schema with `type` narrowed and the union
/// removed. `None` when a branch has structure of its own.
///
/// # Errors
/// When a branch constrains the value without a shape (bounds, `required` outside an object).
pub(super) fn narrowed(
    builder: &Builder<'_>,
    schema: &Value,
    pointer: &str,
) -> Result<Option<Value>, BuildError> {
    let Some((keyword, list)) = branches(schema) else {
        return Ok(None);
    };
    let parent = types(schema);
    if parent.non_null.is_empty() {
        return Ok(None);
    }
    let mut allowed: Vec<String> = Vec::new();
    let mut nullable = false;
    for (i, branch) in list.iter().enumerate() {
        let Some(object) = branch.as_object() else {
            return Ok(None);
        };
        let only_type = object.keys().all(|k| k == "type" || is_annotation(k));
        if !only_type {
            if object.keys().any(|k| {
                matches!(
                    k.as_str(),
                    "properties"
                        | "items"
                        | "$ref"
                        | "anyOf"
                        | "oneOf"
                        | "allOf"
                        | "enum"
                        | "const"
                        | "prefixItems"
                        | "additionalProperties"
                )
            }) {
                return Ok(None);
            }
            return Err(builder.unsupported(
                &format!("{pointer}/{keyword}/{i}"),
                format!(
                    "a branch of `{keyword}` that constrains the value without giving it a shape"
                ),
            ));
        }
        let branch_types = types(branch);
        nullable |= branch_types.nullable;
        for t in branch_types.non_null {
            if parent.non_null.contains(&t) && !allowed.contains(&t) {
                allowed.push(t);
            }
        }
    }
    let mut result = schema.clone();
    if let Some(map) = result.as_object_mut() {
        map.remove("anyOf");
        map.remove("oneOf");
        let mut list: Vec<Value> = allowed.into_iter().map(Value::from).collect();
        if nullable && parent.nullable {
            list.push(json!("null"));
        }
        map.insert(
            "type".to_owned(),
            if list.len() == 1 {
                list.remove(0)
            } else {
                Value::Array(list)
            },
        );
    }
    Ok(Some(result))
}

/// The branches of a union after flattening: nested pure unions are inlined, `type` arrays
/// become one branch per type; each with its pointer.
fn expanded(schema: &Value, pointer: &str) -> Vec<(Value, String)> {
    let mut out = Vec::new();
    match branches(schema) {
        Some((keyword, list)) => {
            for (i, branch) in list.iter().enumerate() {
                let here = format!("{pointer}/{keyword}/{i}");
                let pure = branch.as_object().is_some_and(|o| {
                    o.keys()
                        .all(|k| matches!(k.as_str(), "anyOf" | "oneOf" | "description" | "title"))
                        && branches(branch).is_some()
                });
                if pure {
                    out.extend(expanded(branch, &here));
                } else {
                    out.extend(split_types(branch, &here));
                }
            }
        }
        None => out.extend(split_types(schema, pointer)),
    }
    out
}

/// A branch with a `type` array and nothing else that depends on the type: one branch per type.
fn split_types(branch: &Value, pointer: &str) -> Vec<(Value, String)> {
    let types = types(branch);
    let list = types.non_null.len() + usize::from(types.nullable);
    if list < 2 || branch.get("type").is_some_and(Value::is_string) {
        return vec![(branch.clone(), pointer.to_owned())];
    }
    let mut out = Vec::new();
    let all: Vec<String> = types
        .non_null
        .iter()
        .cloned()
        .chain(types.nullable.then(|| "null".to_owned()))
        .collect();
    for t in all {
        let mut one = branch.clone();
        if let Some(map) = one.as_object_mut() {
            map.remove("anyOf");
            map.remove("oneOf");
            map.remove("title");
            map.insert("type".to_owned(), Value::from(t.clone()));
            // Keywords of other types do not apply to this one.
            if t != "object" {
                for k in ["properties", "required", "additionalProperties"] {
                    map.remove(k);
                }
            }
            if t != "array" {
                for k in [
                    "items",
                    "prefixItems",
                    "minItems",
                    "maxItems",
                    "uniqueItems",
                ] {
                    map.remove(k);
                }
            }
            if t != "string" {
                for k in ["minLength", "maxLength", "pattern", "format"] {
                    map.remove(k);
                }
            }
            if t != "number" && t != "integer" {
                for k in [
                    "minimum",
                    "maximum",
                    "exclusiveMinimum",
                    "exclusiveMaximum",
                    "multipleOf",
                ] {
                    map.remove(k);
                }
            }
            map.remove("description");
        }
        out.push((one, pointer.to_owned()));
    }
    out
}

/// The string `const`s a branch fixes, by member: `(member, value, required)`, from its own
/// `properties`, from the definitions its `allOf` parts reference, and from the definition it
/// references directly.
fn branch_consts(builder: &Builder<'_>, branch: &Value) -> Vec<(String, String, bool)> {
    let mut out: Vec<(String, String, bool)> = Vec::new();
    let mut add = |schema: &Value| {
        let required: Vec<&str> = super::objects::required_names(schema).collect();
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            for (member, sub) in props {
                if let Some(value) = string_const(sub) {
                    if !out.iter().any(|(m, _, _)| m == member) {
                        out.push((
                            member.clone(),
                            value.to_owned(),
                            required.contains(&member.as_str()),
                        ));
                    }
                }
            }
        }
    };
    add(branch);
    let mut referenced: Vec<&str> = branch
        .get("$ref")
        .and_then(Value::as_str)
        .into_iter()
        .collect();
    for part in branch
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(r) = part.get("$ref").and_then(Value::as_str) {
            referenced.push(r);
        }
    }
    for r in referenced {
        if let Ok(target) = builder.resolve(r, "") {
            if let Ok(target) = builder.merge_all_of(target, "") {
                add(&target);
            }
        }
    }
    out
}

fn is_catch_all(branch: &Value) -> bool {
    branch.get("not").is_some()
}

/// The tag member of a union: a member every branch fixes to a distinct string (`const`),
/// except a catch-all branch (`not`) and at most one branch taken without the tag (it does not
/// fix the member, or fixes it but does not require it). `discriminator.propertyName` is tried
/// first.
fn detect_tag(builder: &Builder<'_>, schema: &Value, list: &[(Value, String)]) -> Option<String> {
    let consts: Vec<Vec<(String, String, bool)>> = list
        .iter()
        .map(|(b, _)| branch_consts(builder, b))
        .collect();
    let mut candidates: Vec<String> = Vec::new();
    if let Some(name) = schema
        .get("discriminator")
        .and_then(|d| d.get("propertyName"))
        .and_then(Value::as_str)
    {
        candidates.push(name.to_owned());
    }
    for branch in &consts {
        for (member, _, _) in branch {
            if !candidates.contains(member) {
                candidates.push(member.clone());
            }
        }
    }
    candidates.into_iter().find(|member| {
        let mut values: Vec<&str> = Vec::new();
        let mut untagged = 0;
        for ((branch, _), fixed) in list.iter().zip(&consts) {
            if is_catch_all(branch) {
                continue;
            }
            match fixed.iter().find(|(m, _, _)| m == member) {
                Some((_, value, required)) => {
                    if values.contains(&value.as_str()) {
                        return false;
                    }
                    values.push(value);
                    if !required {
                        untagged += 1;
                    }
                }
                None => {
                    if is_null_schema(branch) || !could_be_object(builder, branch) {
                        return false;
                    }
                    untagged += 1;
                }
            }
        }
        !values.is_empty() && untagged <= 1
    })
}

/// Refuses a `discriminator` the branches do not back. JSON Schema reads no `discriminator`
/// (it is OpenAPI's annotation), so a union is told apart by what its branches fix: a
/// `discriminator` is taken only where every branch fixes its `propertyName` to a distinct
/// string `const` (the detected tag), and OpenAPI's `mapping` only where each entry names the
/// branch that fixes the tag to that value. Otherwise generating would either disagree with
/// the schema's validators or drop the `mapping` silently.
fn check_discriminator(
    builder: &Builder<'_>,
    schema: &Value,
    pointer: &str,
    list: &[(Value, String)],
    tag: Option<&str>,
) -> Result<(), BuildError> {
    let Some(discriminator) = schema.get("discriminator") else {
        return Ok(());
    };
    let here = pointer::join(pointer, "discriminator");
    let Some(property) = discriminator.get("propertyName").and_then(Value::as_str) else {
        return Err(builder.unsupported(&here, "a `discriminator` without a string `propertyName`"));
    };
    if tag != Some(property) {
        return Err(builder.unsupported(
            &here,
            format!(
                "`discriminator` on `{property}`, but the branches do not each fix `{property}` to a distinct string `const` \
                 (JSON Schema reads no `discriminator`, OpenAPI's `mapping` included, so its validators tell the branches apart by shape only); \
                 give each branch `\"{property}\": {{\"const\": ...}}`"
            ),
        ));
    }
    let Some(mapping) = discriminator.get("mapping").and_then(Value::as_object) else {
        return Ok(());
    };
    for (value, target) in mapping {
        let target = target.as_str().unwrap_or_default();
        let local = format!("#/$defs/{}", pointer::escape(target));
        let fixed = list
            .iter()
            .find(|(branch, _)| {
                branch
                    .get("$ref")
                    .and_then(Value::as_str)
                    .is_some_and(|r| r == target || r == local)
            })
            .and_then(|(branch, _)| {
                branch_consts(builder, branch)
                    .into_iter()
                    .find(|(member, _, _)| member == property)
            });
        if fixed.is_none_or(|(_, fixed, _)| fixed != *value) {
            // Named by definition: the reference itself is normalized by now (draft-07's
            // `definitions`, percent-encoding), no longer as the file writes it.
            let named = target.strip_prefix("#/$defs/").map_or_else(
                || target.to_owned(),
                |name| pointer::unescape(name).into_owned(),
            );
            return Err(builder.unsupported(
                &pointer::join(&pointer::join(&here, "mapping"), value),
                format!(
                    "`mapping` `{value}` names `{named}`, which is not a branch whose `{property}` is `const` `{value}`"
                ),
            ));
        }
    }
    Ok(())
}

/// Whether a branch may describe an object (a branch of scalars cannot hold a tag).
fn could_be_object(builder: &Builder<'_>, branch: &Value) -> bool {
    if let Some(r) = branch.get("$ref").and_then(Value::as_str) {
        return builder
            .resolve(r, "")
            .is_ok_and(|target| super::build::is_object(target) || branch.get("allOf").is_some());
    }
    let t = types(branch);
    t.non_null.is_empty() || t.non_null.iter().any(|x| x == "object")
}

/// The tag of the union beside a struct's members, if it has one.
///
/// # Errors
/// None today.
pub(super) fn flattened_tag(
    builder: &Builder<'_>,
    schema: &Value,
    pointer: &str,
) -> Result<Option<String>, BuildError> {
    let list = expanded(&without_members(schema), pointer);
    Ok(detect_tag(builder, schema, &list))
}

fn without_members(schema: &Value) -> Value {
    let mut copy = schema.clone();
    if let Some(map) = copy.as_object_mut() {
        for k in ["properties", "required", "type", "additionalProperties"] {
            map.remove(k);
        }
    }
    copy
}

/// The union a definition (or a hoisted schema) is.
///
/// # Errors
/// See [`BuildError`].
pub(super) fn union(
    builder: &mut Builder<'_>,
    name: &str,
    schema: &Value,
    pointer: &str,
) -> Result<Union, BuildError> {
    union_with_parent(builder, name, schema, pointer, &[])
}

/// The union of `schema`'s branches; `parent_members` are declared by the struct the union sits
/// in (a branch restating them does not carry them).
///
/// # Errors
/// See [`BuildError`].
pub(super) fn union_with_parent(
    builder: &mut Builder<'_>,
    name: &str,
    schema: &Value,
    pointer: &str,
    parent_members: &[String],
) -> Result<Union, BuildError> {
    // A faithful family's `type` array keeps its members: each type's branch takes its own
    // keywords (see `split_types`).
    let type_array = builder.faithful() && !has_union(schema);
    let source = if parent_members.is_empty() && (schema.get("properties").is_none() || type_array)
    {
        schema.clone()
    } else {
        without_members(schema)
    };
    let list = expanded(&source, pointer);
    let tag = detect_tag(builder, schema, &list);
    check_discriminator(builder, schema, pointer, &list, tag.as_deref())?;
    let mut variants = Vec::new();
    match &tag {
        Some(tag) => {
            let values: Vec<String> = list
                .iter()
                .map(|(b, _)| {
                    branch_consts(builder, b)
                        .into_iter()
                        .find(|(m, _, _)| m == tag)
                        .map(|(_, v, _)| v)
                        .unwrap_or_default()
                })
                .collect();
            let tag_names = names::unique_variant_names(&values);
            for (((branch, here), value), tag_name) in list.iter().zip(&values).zip(tag_names) {
                variants.push(tagged_variant(
                    builder,
                    name,
                    tag,
                    branch,
                    here,
                    value,
                    tag_name,
                    parent_members,
                )?);
            }
            if builder.options.open_unions.contains(&name)
                && !variants
                    .iter()
                    .any(|v| matches!(v.select, Select::CatchAll { .. }))
            {
                variants.push(Variant {
                    name: "Unknown".to_owned(),
                    docs: Some(
                        "A variant this version does not know, kept as the raw JSON object it arrived as.".to_owned(),
                    ),
                    select: Select::CatchAll { reported: true },
                    payload: Payload::Raw,
                });
            }
        }
        None => {
            for (i, (branch, here)) in list.iter().enumerate() {
                variants.extend(untagged_variant(
                    builder,
                    name,
                    branch,
                    here,
                    i,
                    parent_members,
                )?);
            }
        }
    }
    let mut variant_names: Vec<String> = variants.iter().map(|v| v.name.clone()).collect();
    names::dedupe(&mut variant_names);
    for (variant, n) in variants.iter_mut().zip(variant_names) {
        variant.name = n;
    }
    if tag.is_none()
        && variants
            .iter()
            .filter(|v| v.payload == Payload::Unit)
            .count()
            > 1
    {
        return Err(builder.unsupported(pointer, "an untagged union with two `null` branches"));
    }
    // `oneOf` exactly as written: one variant per branch (no nested union or `type` array was
    // expanded into several, which could overlap, `integer` and `number`).
    let exactly_one = tag.is_none()
        && schema.get("anyOf").is_none()
        && schema
            .get("oneOf")
            .and_then(Value::as_array)
            .is_some_and(|branches| branches.len() == list.len() && list.len() == variants.len());
    Ok(Union {
        tag,
        variants,
        exactly_one,
    })
}

#[allow(clippy::too_many_arguments, reason = "one branch's context, private")]
fn tagged_variant(
    builder: &mut Builder<'_>,
    union: &str,
    tag: &str,
    branch: &Value,
    pointer: &str,
    value: &str,
    tag_name: String,
    parent_members: &[String],
) -> Result<Variant, BuildError> {
    let docs = description(branch);
    if is_catch_all(branch) {
        let name = branch
            .get("title")
            .and_then(Value::as_str)
            .map_or_else(|| "Unknown".to_owned(), names::pascal);
        return Ok(Variant {
            name,
            docs,
            select: Select::CatchAll { reported: false },
            payload: Payload::Raw,
        });
    }
    let fixed = branch_consts(builder, branch)
        .into_iter()
        .find(|(m, _, _)| m == tag);
    let (select, name) = match &fixed {
        Some((_, v, required)) => (
            Select::Tag {
                value: v.clone(),
                when_absent: !required,
            },
            tag_name,
        ),
        None => (
            Select::Fallback,
            branch
                .get("title")
                .and_then(Value::as_str)
                .map(names::pascal)
                .or_else(|| {
                    branch
                        .get("$ref")
                        .and_then(Value::as_str)
                        .and_then(super::build::ref_name)
                        .and_then(|d| builder.type_name_of(&d).map(str::to_owned))
                })
                .unwrap_or_else(|| "Fallback".to_owned()),
        ),
    };
    debug_assert!(fixed.is_none() || !value.is_empty());
    let payload = tagged_payload(builder, union, &name, tag, branch, pointer, parent_members)?;
    Ok(Variant {
        name,
        docs,
        select,
        payload,
    })
}

/// Whether the definition `reference` names declares `member` (its tag) itself.
fn declares(builder: &Builder<'_>, reference: &str, member: &str) -> bool {
    builder
        .resolve(reference, "")
        .ok()
        .and_then(|t| builder.merge_all_of(t, "").ok())
        .is_some_and(|t| t.get("properties").and_then(|p| p.get(member)).is_some())
}

fn tagged_payload(
    builder: &mut Builder<'_>,
    union: &str,
    variant: &str,
    tag: &str,
    branch: &Value,
    pointer: &str,
    parent_members: &[String],
) -> Result<Payload, BuildError> {
    // A direct `$ref`: the definition is the payload.
    if let Some(r) = branch.get("$ref").and_then(Value::as_str) {
        if !is_structural(&without_key(branch, "$ref")) {
            let ty = builder.ref_type(r, pointer)?;
            return Ok(match ty {
                Ty::Named(n) if declares(builder, r, tag) => Payload::WithTag(n),
                ty => Payload::Ty(ty),
            });
        }
    }
    let own: Map<String, Value> = branch
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| {
            p.iter()
                .filter(|(k, _)| k.as_str() != tag && !parent_members.contains(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default();
    let parts: Vec<&Value> = branch
        .get("allOf")
        .and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let single_ref = match parts.as_slice() {
        [part] => part
            .get("$ref")
            .and_then(Value::as_str)
            .filter(|_| !is_structural(&without_key(part, "$ref"))),
        _ => None,
    };
    if has_union(branch) {
        return Err(builder.unsupported(pointer, "a nested `anyOf`/`oneOf` in a tagged branch"));
    }
    if own.is_empty() && parts.is_empty() {
        // The tag alone: in a family that keeps unknown members, a struct keeps them.
        if builder.options.keep_unknown_members
            && branch.get("additionalProperties") != Some(&Value::Bool(false))
        {
            let schema = json!({"type": "object", "properties": {}});
            return builder
                .hoist(&format!("{union}{variant}"), &schema, pointer)
                .map(Payload::Ty);
        }
        return Ok(Payload::Unit);
    }
    if own.is_empty() {
        if let Some(r) = single_ref {
            let ty = builder.ref_type(r, pointer)?;
            return Ok(match ty {
                Ty::Named(n) if declares(builder, r, tag) => Payload::WithTag(n),
                ty => Payload::Ty(ty),
            });
        }
    }
    // Members of the branch's own beside the referenced definition's: one struct with both.
    let mut merged = Map::new();
    merged.insert("type".to_owned(), json!("object"));
    let mut properties = Map::new();
    let mut required: Vec<Value> = Vec::new();
    for part in &parts {
        let resolved = match part.get("$ref").and_then(Value::as_str) {
            Some(r) => builder
                .merge_all_of(builder.resolve(r, pointer)?, pointer)?
                .into_owned(),
            None => (*part).clone(),
        };
        if has_union(&resolved) || resolved.get("properties").is_none() {
            return Err(builder.unsupported(
                pointer,
                "members beside an `allOf` part that is not a plain object",
            ));
        }
        if let Some(p) = resolved.get("properties").and_then(Value::as_object) {
            for (k, v) in p {
                if k != tag {
                    properties.insert(k.clone(), v.clone());
                }
            }
        }
        for r in super::objects::required_names(&resolved) {
            let r = Value::from(r);
            if r.as_str() != Some(tag) && !required.contains(&r) {
                required.push(r);
            }
        }
        if let Some(a) = resolved.get("additionalProperties") {
            merged.insert("additionalProperties".to_owned(), a.clone());
        }
    }
    properties.extend(own);
    for name in super::objects::required_names(branch) {
        let r = Value::from(name);
        if name != tag && !required.contains(&r) && !parent_members.iter().any(|m| m == name) {
            required.push(r);
        }
    }
    merged.insert("properties".to_owned(), Value::Object(properties));
    merged.insert("required".to_owned(), Value::Array(required));
    if let Some(d) = branch.get("description") {
        merged.insert("description".to_owned(), d.clone());
    }
    builder
        .hoist(
            &format!("{union}{variant}"),
            &Value::Object(merged),
            pointer,
        )
        .map(Payload::Ty)
}

fn without_key(schema: &Value, key: &str) -> Value {
    let mut copy = schema.clone();
    if let Some(map) = copy.as_object_mut() {
        map.remove(key);
    }
    copy
}

/// The value of the first string `const` member an inline object branch declares.
fn const_label(branch: &Value) -> Option<&str> {
    branch
        .get("properties")?
        .as_object()?
        .values()
        .find_map(|member| member.get("const").and_then(Value::as_str))
}

/// The variant(s) of an untagged branch (a branch that admits `null` beside a value gives two).
fn untagged_variant(
    builder: &mut Builder<'_>,
    union: &str,
    branch: &Value,
    pointer: &str,
    index: usize,
    parent_members: &[String],
) -> Result<Vec<Variant>, BuildError> {
    let docs = description(branch);
    // A branch is named by its `title`, else by the value of a string `const` member it
    // declares (`{"op": {"const": "neg"}}` is `Neg`), else by its type.
    let title = branch
        .get("title")
        .and_then(Value::as_str)
        .or_else(|| const_label(branch))
        .map(names::pascal);
    if is_null_schema(branch) {
        return Ok(vec![Variant {
            name: title.unwrap_or_else(|| "Null".to_owned()),
            docs,
            select: Select::Shape,
            payload: Payload::Unit,
        }]);
    }
    // Members the struct around the union declares are taken out before the union decodes.
    let branch = &if parent_members.is_empty() {
        branch.clone()
    } else {
        let mut copy = branch.clone();
        if let Some(props) = copy.get_mut("properties").and_then(Value::as_object_mut) {
            props.retain(|k, _| !parent_members.contains(k));
        }
        if let Some(required) = copy.get_mut("required").and_then(Value::as_array_mut) {
            required.retain(|r| {
                !r.as_str()
                    .is_some_and(|r| parent_members.iter().any(|m| m == r))
            });
        }
        copy
    };
    let kind_word = match types(branch).non_null.as_slice() {
        [t] => Some(match t.as_str() {
            "string" => "String",
            "integer" => "Integer",
            "number" => "Number",
            "boolean" => "Boolean",
            "array" => "Array",
            "object" => "Object",
            _ => "Value",
        }),
        _ => None,
    };
    let hint = format!(
        "{union}{}",
        title.clone().unwrap_or_else(|| format!("Variant{index}"))
    );
    let (ty, nullable) = builder.value(branch, &hint, pointer)?;
    let name = title.unwrap_or_else(|| match ty.unbounded() {
        Ty::Named(n) => n.clone(),
        Ty::Path(p) => p.rsplit("::").next().unwrap_or(p).to_owned(),
        _ => kind_word.unwrap_or("Value").to_owned(),
    });
    let mut out = vec![Variant {
        name,
        docs,
        select: Select::Shape,
        payload: Payload::Ty(ty),
    }];
    if nullable {
        out.push(Variant {
            name: "Null".to_owned(),
            docs: None,
            select: Select::Shape,
            payload: Payload::Unit,
        });
    }
    Ok(out)
}
