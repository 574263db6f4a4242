//! Objects: `allOf` merged into one object, structs with their members, `prefixItems` tuples.

use std::borrow::Cow;

use serde_json::{json, Map, Value};

use super::build::{description, has_union, BuildError, Builder};
use super::names;
use super::{
    Field, Flatten, Leniency, Member, MemberValue, Presence, PresenceRule, Rest, Struct, Tuple, Ty,
};
use crate::check::is_annotation;
use crate::pointer;

/// Whether `schema` has a keyword that says something about the shape of a value.
pub(super) fn is_structural(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.keys().any(|k| !is_annotation(k)),
        Value::Bool(_) => true,
        _ => false,
    }
}

/// `schema` without its annotations.
fn annotations_of(schema: &Value) -> Map<String, Value> {
    schema
        .as_object()
        .map(|map| {
            map.iter()
                .filter(|(k, _)| is_annotation(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default()
}

/// Merges `allOf` parts, and a `$ref` with sibling keywords, into one schema.
///
/// - One structural part (the others only annotations): that part, with the annotations of the
///   schema itself (`allOf: [{$ref: X}]` with a `description` stays a `$ref` to `X`).
/// - Several: every part must be an object (a `$ref` to an object definition, or an inline
///   object); the result declares every member of every part (the referenced definition's
///   first), requires what any part requires, and keeps the strictest `additionalProperties`.
///   A member declared by two parts with different schemas is refused.
pub(super) fn merge_all_of<'s>(
    builder: &Builder<'_>,
    schema: &'s Value,
    pointer: &str,
) -> Result<Cow<'s, Value>, BuildError> {
    merge_parts(builder, schema, pointer, &mut Vec::new())
}

/// [`merge_all_of`], with the `$ref`s being merged (an `allOf` that includes itself through
/// them is refused).
fn merge_parts<'s>(
    builder: &Builder<'_>,
    schema: &'s Value,
    pointer: &str,
    merging: &mut Vec<String>,
) -> Result<Cow<'s, Value>, BuildError> {
    let Some(object) = schema.as_object() else {
        return Ok(Cow::Borrowed(schema));
    };
    let all_of = object.get("allOf").and_then(Value::as_array);
    let reference = object
        .get("$ref")
        .filter(|_| object.keys().any(|k| k != "$ref" && !is_annotation(k)));
    if all_of.is_none() && reference.is_none() {
        return Ok(Cow::Borrowed(schema));
    }
    let mut own: Map<String, Value> = object.clone();
    own.remove("allOf");
    let mut parts: Vec<(Value, String)> = Vec::new();
    if let Some(reference) = own.remove("$ref") {
        parts.push((json!({"$ref": reference}), pointer::join(pointer, "$ref")));
    }
    for (i, part) in all_of.into_iter().flatten().enumerate() {
        parts.push((part.clone(), format!("{pointer}/allOf/{i}")));
    }
    let own_value = Value::Object(own.clone());
    let own_structural = is_structural(&own_value);
    if builder.faithful() {
        // `true` admits everything: no part at all; `false` admits nothing (a check says so).
        parts.retain(|(p, _)| p != &Value::Bool(true));
        if let Some((_, at)) = parts.iter().find(|(p, _)| p == &Value::Bool(false)) {
            return Err(builder.unsupported(at, "an `allOf` part `false`, which no value matches"));
        }
    }
    let structural: Vec<&(Value, String)> =
        parts.iter().filter(|(p, _)| is_structural(p)).collect();
    if !own_structural && structural.len() <= 1 {
        let mut result = structural
            .first()
            .and_then(|(p, _)| p.as_object().cloned())
            .unwrap_or_default();
        for (key, value) in annotations_of(&own_value) {
            result.insert(key, value);
        }
        return Ok(Cow::Owned(Value::Object(result)));
    }
    // Several structural parts: merge objects.
    let mut merged = Map::new();
    merged.insert("type".to_owned(), json!("object"));
    let mut properties = Map::new();
    let mut required: Vec<Value> = Vec::new();
    let mut additional: Option<Value> = None;
    let mut inputs: Vec<(Value, String)> = Vec::new();
    // Where each input's own keywords are written: a `$ref`'s target for a resolved part.
    let mut written: Vec<String> = Vec::new();
    for (part, here) in &parts {
        let resolved = match part.get("$ref").and_then(Value::as_str) {
            Some(r) if !is_structural(&without(part, "$ref")) => {
                if merging.iter().any(|m| m == r) {
                    return Err(builder.unsupported(
                        here,
                        format!("an `allOf` that includes itself through `$ref` `{r}`"),
                    ));
                }
                let target = builder.resolve(r, here)?;
                // What is refused inside the target is named where it is written.
                let at = super::build::ref_name(r)
                    .map_or_else(|| here.clone(), |name| builder.origin(&name));
                merging.push(r.to_owned());
                let merged = merge_parts(builder, target, &at, merging)?.into_owned();
                merging.pop();
                written.push(at);
                merged
            }
            _ => {
                written.push(here.clone());
                merge_parts(builder, part, here, merging)?.into_owned()
            }
        };
        inputs.push((resolved, here.clone()));
    }
    if own_structural {
        inputs.push((own_value.clone(), pointer.to_owned()));
        written.push(pointer.to_owned());
    }
    if let Some(merged) = merge_values(builder, &inputs, &own_value)? {
        return Ok(Cow::Owned(merged));
    }
    let typed_object = |part: &Value| super::build::types(part).non_null == ["object"];
    if builder.faithful() && !inputs.iter().any(|(part, _)| typed_object(part)) {
        // Without `type: object` in some part, values of other kinds pass every part.
        return Err(builder.unsupported(
            pointer,
            "an `allOf` (or a `$ref` with sibling keywords) of parts none of which says `type: object`",
        ));
    }
    refuse_scoped_additional(builder, &inputs, &written)?;
    for (part, here) in &inputs {
        if has_union(part) && part.get("properties").is_none() {
            return Err(builder.unsupported(
                here,
                "`allOf` of a union and other parts (the union's branches would each need the other parts' members)",
            ));
        }
        let kind_ok =
            part.get("type").is_none_or(|t| t == "object") || part.get("properties").is_some();
        if !kind_ok {
            return Err(builder.unsupported(
                here,
                "`allOf` part (or `$ref` with sibling keywords) that is not an object, merged with parts that are or that hold other keywords",
            ));
        }
        if let Some(props) = part.get("properties").and_then(Value::as_object) {
            for (name, sub) in props {
                match properties.get(name) {
                    None => {
                        properties.insert(name.clone(), sub.clone());
                    }
                    Some(existing) if existing == sub || refines(existing, sub) => {}
                    Some(existing) if refines(sub, existing) => {
                        let mut refined = sub.clone();
                        if let (Some(map), Some(d)) =
                            (refined.as_object_mut(), existing.get("description"))
                        {
                            map.entry("description").or_insert_with(|| d.clone());
                        }
                        properties.insert(name.clone(), refined);
                    }
                    Some(_) => {
                        return Err(builder.unsupported(
                            &pointer::join(&pointer::join(here, "properties"), name),
                            format!("member `{name}` declared by two `allOf` parts with different schemas"),
                        ));
                    }
                }
            }
        }
        for r in required_names(part).map(Value::from) {
            if !required.contains(&r) {
                required.push(r);
            }
        }
        match (part.get("additionalProperties"), &additional) {
            (Some(Value::Bool(false)), _) => additional = Some(Value::Bool(false)),
            (Some(other), None) => additional = Some(other.clone()),
            _ => {}
        }
        for keyword in ["anyOf", "oneOf", "discriminator"] {
            if let Some(v) = part.get(keyword) {
                merged.insert(keyword.to_owned(), v.clone());
            }
        }
    }
    merged.insert("properties".to_owned(), Value::Object(properties));
    if !required.is_empty() {
        merged.insert("required".to_owned(), Value::Array(required));
    }
    if let Some(additional) = additional {
        merged.insert("additionalProperties".to_owned(), additional);
    }
    for (key, value) in annotations_of(&own_value) {
        merged.insert(key, value);
    }
    Ok(Cow::Owned(Value::Object(merged)))
}

/// Keywords [`merge_all_of`] carries into the merged schema: an object merge its members and
/// unions, a merge of values their `type`, `items` and bounds (the others of these are about
/// values of another kind than the merged one, so they assert nothing there).
const MERGED: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "items",
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

/// The assertions of `schema`'s `allOf` parts (and of a `$ref` beside sibling keywords, and of
/// the schema itself) that [`merge_all_of`] does not carry into the merged schema, at any depth
/// of the merge: a check of the schema as written enforces them.
pub(super) fn merge_losses(builder: &Builder<'_>, schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = Vec::new();
    losses(builder, schema, true, &mut seen, &mut out);
    out
}

fn losses(
    builder: &Builder<'_>,
    schema: &Value,
    top: bool,
    seen: &mut Vec<String>,
    out: &mut Vec<String>,
) {
    let Some(map) = schema.as_object() else {
        return;
    };
    let merges = map.contains_key("allOf")
        || (map.contains_key("$ref") && map.keys().any(|k| k != "$ref" && !is_annotation(k)));
    if top && !merges {
        return;
    }
    if !top {
        for key in map.keys() {
            if super::assertions::is_assertion(key, builder.assert_formats())
                && !MERGED.contains(&key.as_str())
                && !out.contains(key)
            {
                out.push(key.clone());
            }
        }
    }
    if top {
        for key in map.keys() {
            let carried = MERGED.contains(&key.as_str());
            if !carried
                && super::assertions::is_assertion(key, builder.assert_formats())
                && !out.contains(key)
            {
                out.push(key.clone());
            }
        }
    }
    for part in map
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        losses(builder, part, false, seen, out);
    }
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        if (merges || !top) && !seen.iter().any(|s| s == reference) {
            seen.push(reference.to_owned());
            if let Ok(target) = builder.resolve(reference, "") {
                losses(builder, target, false, seen, out);
            }
        }
    }
}

/// Refuses parts whose `additionalProperties` would refuse what another part declares: in JSON
/// Schema it applies to the members of its own part only (`allOf: [{properties: {a},
/// additionalProperties: false}, {properties: {b}}]` admits no `b` at all), which one merged
/// struct cannot say.
fn refuse_scoped_additional(
    builder: &Builder<'_>,
    inputs: &[(Value, String)],
    written: &[String],
) -> Result<(), BuildError> {
    let declared = |part: &Value| -> Vec<String> {
        part.get("properties")
            .and_then(Value::as_object)
            .map(|props| props.keys().cloned().collect())
            .unwrap_or_default()
    };
    for (i, ((part, _), here)) in inputs.iter().zip(written).enumerate() {
        match part.get("additionalProperties") {
            // `true` and `{}` admit any member.
            None | Some(Value::Bool(true)) => continue,
            Some(schema)
                if schema
                    .as_object()
                    .is_some_and(|m| m.keys().all(|k| is_annotation(k))) =>
            {
                continue
            }
            Some(_) => {}
        }
        let own = declared(part);
        for (j, (other, _)) in inputs.iter().enumerate() {
            if i == j {
                continue;
            }
            if let Some(name) = declared(other).into_iter().find(|n| !own.contains(n)) {
                return Err(builder.unsupported(
                    &pointer::join(here, "additionalProperties"),
                    format!(
                        "`additionalProperties` of one part of an `allOf` (or of a `$ref` and its siblings) beside another part declaring `{name}`: it applies to its own part's members only, so it also constrains `{name}`, which one struct cannot say; declare `{name}` in this part too, or move `additionalProperties` to the schema that merges them"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Of two values of the same bound, the one that admits less (both apply, so it decides):
/// the smaller `maximum`, `maxLength`..., the larger `minimum`, `minLength`..., `uniqueItems` if
/// either says so. `None` for other keywords (a second `pattern`, `multipleOf`, `type`...).
fn stricter(key: &str, a: &Value, b: &Value) -> Option<Value> {
    if key == "uniqueItems" {
        return Some(Value::Bool(
            a == &Value::Bool(true) || b == &Value::Bool(true),
        ));
    }
    let (x, y) = (a.as_f64()?, b.as_f64()?);
    match key {
        "maximum" | "exclusiveMaximum" | "maxLength" | "maxItems" => {
            Some(if y < x { b.clone() } else { a.clone() })
        }
        "minimum" | "exclusiveMinimum" | "minLength" | "minItems" => {
            Some(if y > x { b.clone() } else { a.clone() })
        }
        _ => None,
    }
}

/// Whether a part of a non-object `allOf` may hold `keyword`: what constrains a string, a number
/// or an array (its `type`, `format`, `items` and bounds), which together mean the same as one
/// schema declaring them all.
fn is_value_keyword(keyword: &str) -> bool {
    matches!(keyword, "type" | "format" | "items")
        || crate::check::BOUND_KEYWORDS.contains(&keyword)
}

/// Parts of an `allOf` (or a `$ref` and its sibling keywords) that all describe one string,
/// number or array (`{"$ref": "#/$defs/Name", "maxLength": 3}` with `Name` a string), merged
/// into one schema; `None` when a part describes an object or holds other keywords (the object
/// merge decides). A keyword two parts set differently is refused.
fn merge_values(
    builder: &Builder<'_>,
    inputs: &[(Value, String)],
    own: &Value,
) -> Result<Option<Value>, BuildError> {
    let value_only = |part: &Value| {
        part.as_object().is_some_and(|map| {
            map.iter().all(|(k, v)| {
                is_annotation(k) || (is_value_keyword(k) && !(k == "type" && v == "object"))
            })
        })
    };
    if inputs.len() < 2 || !inputs.iter().all(|(part, _)| value_only(part)) {
        return Ok(None);
    }
    let mut merged = Map::new();
    for (part, here) in inputs {
        for (key, value) in part.as_object().into_iter().flatten() {
            if is_annotation(key) {
                continue;
            }
            if let Some(stricter) = merged
                .get(key)
                .and_then(|existing| stricter(key, existing, value))
            {
                merged.insert(key.clone(), stricter);
                continue;
            }
            match merged.get(key) {
                Some(existing) if existing != value => {
                    return Err(builder.unsupported(
                        &pointer::join(here, key),
                        format!("`{key}` set to {value} here and to {existing} by another part of the same `allOf` (or `$ref` and its siblings)"),
                    ));
                }
                _ => {
                    merged.insert(key.clone(), value.clone());
                }
            }
        }
    }
    for (key, value) in annotations_of(own) {
        merged.insert(key, value);
    }
    Ok(Some(Value::Object(merged)))
}

/// Whether `narrow` says everything `wide` says (each structural keyword of `wide` is in
/// `narrow` with the same value), so that both together mean `narrow`.
fn refines(narrow: &Value, wide: &Value) -> bool {
    let Some(wide) = wide.as_object() else {
        return false;
    };
    wide.iter()
        .filter(|(k, _)| !is_annotation(k))
        .all(|(k, v)| narrow.get(k) == Some(v))
}

fn without(schema: &Value, key: &str) -> Value {
    let mut copy = schema.clone();
    if let Some(map) = copy.as_object_mut() {
        map.remove(key);
    }
    copy
}

/// The string a member's schema fixes (`const`, or an `enum` of one string, or both agreeing).
/// The member names a schema lists in `required`, in order.
pub(super) fn required_names(schema: &Value) -> impl Iterator<Item = &str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

pub(super) fn string_const(schema: &Value) -> Option<&str> {
    scalar_const(schema).and_then(Value::as_str)
}

/// The string, integer or boolean a member's schema fixes (`const`, or an `enum` of one value,
/// or both agreeing), when nothing else in the schema constrains it (beside a `type`): a
/// `const` next to a `$ref` or bounds must also satisfy them, which the model decides.
pub(super) fn scalar_const(schema: &Value) -> Option<&Value> {
    let alone = schema.as_object().is_some_and(|map| {
        map.keys()
            .all(|k| matches!(k.as_str(), "const" | "enum" | "type") || is_annotation(k))
    });
    if !alone {
        return None;
    }
    let scalar = |v: &&Value| v.is_string() || v.is_i64() || v.is_u64() || v.is_boolean();
    let constant = schema.get("const").filter(scalar);
    let single = schema
        .get("enum")
        .and_then(Value::as_array)
        .filter(|values| values.len() == 1)
        .map(|values| &values[0])
        .filter(scalar);
    match (constant, single, schema.get("enum")) {
        (Some(c), None, None) => Some(c),
        (Some(c), Some(e), _) if c == e => Some(c),
        (None, Some(e), _) if schema.get("const").is_none() => Some(e),
        _ => None,
    }
}

/// The struct of an object schema.
pub(super) fn structure(
    builder: &mut Builder<'_>,
    name: &str,
    schema: &Value,
    pointer: &str,
) -> Result<Struct, BuildError> {
    let mut properties: Map<String, Value> = schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut required: Vec<String> = required_names(schema).map(str::to_owned).collect();
    for r in &required {
        if !properties.contains_key(r) {
            // A required member without a schema: any value.
            properties.insert(r.clone(), json!({}));
        }
    }
    let mut flatten = None;
    let mut presence_rule = None;
    if has_union(schema) {
        let tag = if presence_only(schema).is_some() {
            None
        } else {
            super::unions::flattened_tag(builder, schema, pointer)?
        };
        let beside: Vec<String> = properties
            .keys()
            .filter(|k| Some(*k) != tag.as_ref())
            .cloned()
            .collect();
        if let Some(rule) = presence_only(schema) {
            presence_rule = Some(rule);
        } else if builder.faithful()
            && super::assertions::union_reaches_members(builder, schema, &beside)
        {
            // The union is checked as a whole (its keyword is not carried: see
            // `Builder::kind`); its branches' own members are the struct's unknown ones.
        } else {
            if let Some(tag) = &tag {
                properties.remove(tag);
                required.retain(|r| r != tag);
            }
            let parent_members: Vec<String> = properties.keys().cloned().collect();
            let union_name = builder.claim(format!("{name}Kind"));
            let union = super::unions::union_with_parent(
                builder,
                &union_name,
                schema,
                pointer,
                &parent_members,
            )?;
            builder.push_item(super::Item {
                name: union_name.clone(),
                pointer: pointer.to_owned(),
                docs: Some(format!(
                    "The part of [`{name}`] that depends on its variant."
                )),
                kind: super::Kind::Union(union),
                check: None,
            });
            let field = if properties.contains_key("kind") {
                "variant"
            } else {
                "kind"
            };
            flatten = Some(Flatten {
                field: field.to_owned(),
                ty: union_name,
            });
        }
    }
    let mut members = Vec::new();
    for (wire, sub) in &properties {
        let here = pointer::join(&pointer::join(pointer, "properties"), wire);
        let is_required = required.contains(wire);
        let docs = description(sub);
        if let Some(value) = scalar_const(sub) {
            members.push(Member {
                wire: wire.clone(),
                field: names::field_name(wire),
                docs,
                value: MemberValue::Const {
                    value: value.clone(),
                    required: is_required,
                },
            });
            continue;
        }
        let hint = format!("{name}{}", names::pascal(wire));
        let (ty, nullable) = builder.value(sub, &hint, &here)?;
        // An optional member of any value: `null` is one of its values, kept apart from absent.
        let nullable = nullable || (!is_required && ty == Ty::Value && admits_null(builder, sub));
        let presence = match (is_required, nullable) {
            (true, false) => Presence::Required,
            (true, true) => Presence::RequiredNullable,
            (false, false) => Presence::Optional,
            (false, true) => Presence::OptionalNullable,
        };
        let leniency = Leniency {
            default_on_error: sub["x-deserialize-default-on-error"] == Value::Bool(true),
            default_on_null: sub["x-deserialize-default-on-null"] == Value::Bool(true),
            skip_invalid_items: sub["x-deserialize-skip-invalid-items"] == Value::Bool(true),
            null_as_absent: builder.options.null_as_absent
                && presence == Presence::Optional
                && !admits_null(builder, sub),
        };
        if presence == Presence::Required
            && (leniency.default_on_error || leniency.default_on_null)
            && !ty.has_empty_value()
        {
            return Err(builder.unsupported(
                &here,
                "declared leniency (`x-deserialize-default-on-*`) on a required member whose type has no empty value to default to",
            ));
        }
        if leniency.skip_invalid_items && !matches!(ty.unbounded(), Ty::Vec(_)) {
            return Err(builder.unsupported(
                &here,
                "`x-deserialize-skip-invalid-items` on a member that is not an array",
            ));
        }
        let string_enum =
            matches!(ty.unbounded(), Ty::Named(n) if builder.string_enums.contains(n));
        members.push(Member {
            wire: wire.clone(),
            field: names::field_name(wire),
            docs,
            value: MemberValue::Field(Field {
                ty,
                presence,
                leniency,
                string_enum,
            }),
        });
    }
    let rest = match schema.get("additionalProperties") {
        // The flattened union's variants keep what neither they nor the struct declare.
        _ if flatten.is_some() => Rest::Ignore,
        // Beside `patternProperties`, `additionalProperties` is about the members no pattern
        // matches: the check decides both, the struct keeps the members as they are.
        Some(_) if builder.faithful() && schema.get("patternProperties").is_some() => {
            if builder.options.keep_unknown_members {
                Rest::Keep
            } else {
                Rest::Ignore
            }
        }
        Some(Value::Bool(false)) => Rest::Deny,
        Some(Value::Bool(true)) => Rest::Keep,
        Some(values) if values.as_object().is_some_and(Map::is_empty) => Rest::Keep,
        Some(values) => {
            let here = pointer::join(pointer, "additionalProperties");
            let (ty, nullable) = builder.value(values, &format!("{name}Value"), &here)?;
            if ty == Ty::Value {
                Rest::Keep
            } else {
                Rest::Additional(Ty::nullable_if(ty, nullable))
            }
        }
        None if builder.options.keep_unknown_members => Rest::Keep,
        None => Rest::Ignore,
    };
    let mut fields: Vec<String> = members.iter().map(|m| m.field.clone()).collect();
    names::dedupe_fields(&mut fields);
    for (member, field) in members.iter_mut().zip(fields) {
        member.field = field;
    }
    Ok(Struct {
        members,
        flatten,
        rest,
        presence_rule,
    })
}

/// `anyOf`/`oneOf` whose branches only list `required` members (and annotations).
fn presence_only(schema: &Value) -> Option<PresenceRule> {
    let (keyword, branches) = schema
        .get("oneOf")
        .map(|b| ("oneOf", b))
        .or_else(|| schema.get("anyOf").map(|b| ("anyOf", b)))?;
    let branches = branches.as_array()?;
    let mut sets = Vec::new();
    for branch in branches {
        let object = branch.as_object()?;
        let only_required = object
            .keys()
            .all(|k| k == "required" || is_annotation(k) || (k == "type" && object[k] == "object"));
        if !only_required {
            return None;
        }
        sets.push(required_names(branch).map(str::to_owned).collect());
    }
    Some(PresenceRule {
        exactly_one: keyword == "oneOf",
        sets,
    })
}

/// A `prefixItems` array.
pub(super) fn tuple(
    builder: &mut Builder<'_>,
    name: &str,
    schema: &Value,
    pointer: &str,
) -> Result<Tuple, BuildError> {
    let prefix = schema
        .get("prefixItems")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut items = Vec::new();
    for (i, item) in prefix.iter().enumerate() {
        let here = format!("{pointer}/prefixItems/{i}");
        let (ty, nullable) = builder.value(item, &format!("{name}Item{i}"), &here)?;
        items.push(Ty::nullable_if(ty, nullable));
    }
    let min = schema
        .get("minItems")
        .and_then(Value::as_u64)
        .map_or(0, |m| usize::try_from(m).unwrap_or(usize::MAX))
        .min(items.len());
    let rest = match schema.get("items") {
        Some(Value::Bool(false)) => None,
        None | Some(Value::Bool(true)) => Some(Ty::Value),
        Some(other) if other.as_object().is_some_and(Map::is_empty) => Some(Ty::Value),
        Some(other) => {
            let here = pointer::join(pointer, "items");
            let (ty, nullable) = builder.value(other, &format!("{name}Rest"), &here)?;
            Some(Ty::nullable_if(ty, nullable))
        }
    };
    let max = schema.get("maxItems").and_then(Value::as_u64);
    let rest = match (rest, max) {
        (Some(_), Some(max)) if max <= items.len() as u64 => None,
        (rest, _) => rest,
    };
    Ok(Tuple {
        items,
        required: min,
        rest,
    })
}

/// Whether a member's schema admits `null` among its values (`{}` does; a `$ref` does when its
/// definition does).
fn admits_null(builder: &Builder<'_>, schema: &Value) -> bool {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        return builder
            .resolve(reference, "")
            .is_ok_and(|target| admits_null(builder, target));
    }
    if super::build::types(schema).nullable {
        return true;
    }
    let any = !is_structural(schema)
        || schema
            .as_object()
            .is_some_and(|o| o.keys().all(|k| k.starts_with("x-") || is_annotation(k)));
    any
}
