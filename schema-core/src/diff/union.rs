//! Union branches, matched by identity rather than position.
//!
//! A branch is identified, in this order, by its `const` tag (an object branch whose
//! discriminator or required property is a `const`, e.g. `"sessionUpdate": "plan_update"`), by
//! its `const` value (a string enum written as a `oneOf` of `const`s), by its `title`, or by its
//! `$ref` target. Each kind is tried in turn on the branches not matched yet, pairing labels that
//! are unique on both sides; branches with no label at all are paired by position.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::compare::{decides_validity, ref_target, show, type_set};

/// One step of walking two unions, in new-branch order, removed branches last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
    /// Old branch `.0` is new branch `.1`.
    Pair(usize, usize),
    /// New branch without an old one.
    Added(usize),
    /// Old branch without a new one.
    Removed(usize),
}

/// The result of [`match_branches`].
#[derive(Debug, Default)]
pub(super) struct Matching {
    pub(super) steps: Vec<Step>,
    /// The name of each old branch in messages.
    pub(super) old_names: Vec<String>,
    /// The name of each new branch in messages.
    pub(super) new_names: Vec<String>,
}

/// One label of a branch: what it is compared by, and how it is shown.
#[derive(Debug, Clone)]
struct Label {
    key: String,
    display: String,
}

/// What identifies a branch, by kind in matching order: tag, const, title, `$ref` target.
#[derive(Debug, Default)]
struct Labels([Option<Label>; 4]);

impl Labels {
    fn of(branch: &Value, discriminator: Option<&str>) -> Self {
        let Value::Object(map) = branch else {
            return Self::default();
        };
        Self([
            tag(map, discriminator).map(|(property, value)| Label {
                key: format!("{property}={value}"),
                display: show(value),
            }),
            constant(map).map(|value| Label {
                key: value.to_string(),
                display: show(value),
            }),
            map.get("title").and_then(Value::as_str).map(|title| Label {
                key: title.to_owned(),
                display: title.to_owned(),
            }),
            ref_target(map).map(|target| Label {
                key: target.clone(),
                display: target,
            }),
        ])
    }

    fn get(&self, kind: usize) -> Option<&str> {
        self.0[kind].as_ref().map(|label| label.key.as_str())
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(Option::is_none)
    }
}

/// Matches the branches of an old and a new union.
pub(super) fn match_branches(
    old: &[&Value],
    new: &[&Value],
    old_discriminator: Option<&str>,
    new_discriminator: Option<&str>,
) -> Matching {
    let old_labels: Vec<Labels> = old
        .iter()
        .map(|b| Labels::of(b, old_discriminator))
        .collect();
    let new_labels: Vec<Labels> = new
        .iter()
        .map(|b| Labels::of(b, new_discriminator))
        .collect();
    let mut old_match: Vec<Option<usize>> = vec![None; old.len()];
    let mut new_match: Vec<Option<usize>> = vec![None; new.len()];
    for kind in 0..4 {
        let old_keys = unique_labels(&old_labels, &old_match, kind);
        let new_keys = unique_labels(&new_labels, &new_match, kind);
        for (label, i) in old_keys {
            if let Some(&j) = new_keys.get(label) {
                old_match[i] = Some(j);
                new_match[j] = Some(i);
            }
        }
    }
    let rest_old: Vec<usize> = (0..old.len())
        .filter(|&i| old_match[i].is_none() && old_labels[i].is_empty())
        .collect();
    let rest_new: Vec<usize> = (0..new.len())
        .filter(|&j| new_match[j].is_none() && new_labels[j].is_empty())
        .collect();
    for (&i, &j) in rest_old.iter().zip(&rest_new) {
        old_match[i] = Some(j);
        new_match[j] = Some(i);
    }
    let mut steps: Vec<Step> = new_match
        .iter()
        .enumerate()
        .map(|(j, matched)| match matched {
            Some(i) => Step::Pair(*i, j),
            None => Step::Added(j),
        })
        .collect();
    steps.extend(
        old_match
            .iter()
            .enumerate()
            .filter(|(_, matched)| matched.is_none())
            .map(|(i, _)| Step::Removed(i)),
    );
    Matching {
        steps,
        old_names: names(&old_labels),
        new_names: names(&new_labels),
    }
}

/// The labels of one kind that exactly one unmatched branch carries.
fn unique_labels<'a>(
    labels: &'a [Labels],
    matched: &[Option<usize>],
    kind: usize,
) -> BTreeMap<&'a str, usize> {
    let mut seen: BTreeMap<&str, Option<usize>> = BTreeMap::new();
    for (index, label) in labels.iter().enumerate() {
        if matched[index].is_some() {
            continue;
        }
        if let Some(label) = label.get(kind) {
            seen.entry(label)
                .and_modify(|slot| *slot = None)
                .or_insert(Some(index));
        }
    }
    seen.into_iter()
        .filter_map(|(label, index)| Some((label, index?)))
        .collect()
}

/// The name of each branch: its first label (tag value, const, title, `$ref` target) that no
/// other branch of the union shares, else its first label, else `#index`.
fn names(labels: &[Labels]) -> Vec<String> {
    let no_match = vec![None; labels.len()];
    let unique: Vec<BTreeMap<&str, usize>> = (0..4)
        .map(|kind| unique_labels(labels, &no_match, kind))
        .collect();
    labels
        .iter()
        .enumerate()
        .map(|(index, branch)| {
            let distinct = (0..4).find_map(|kind| {
                let label = branch.0[kind].as_ref()?;
                unique[kind]
                    .contains_key(label.key.as_str())
                    .then_some(label)
            });
            distinct
                .or_else(|| branch.0.iter().flatten().next())
                .map_or_else(|| format!("#{index}"), |label| label.display.clone())
        })
        .collect()
}

/// The value of a branch that is a single value (`const`, or a one-value `enum`, and no
/// `properties`).
pub(super) fn constant_of(branch: &Value) -> Option<&Value> {
    let map = branch.as_object()?;
    if map.contains_key("properties") {
        return None;
    }
    constant(map)
}

/// Whether a branch is a single value (`const`, or a one-value `enum`) rather than an object
/// variant.
pub(super) fn is_const_branch(branch: &Value) -> bool {
    branch
        .as_object()
        .is_some_and(|map| constant(map).is_some() && !map.contains_key("properties"))
}

/// Whether some branch of `branches` other than a `const` one accepts the value of the `const`
/// branch `branch`: a catch-all such as ACP's `{"title": "other", "type": "string"}`.
pub(super) fn catch_all_accepts(branches: &[&Value], branch: &Value) -> bool {
    let Some(value) = branch
        .as_object()
        .filter(|_| is_const_branch(branch))
        .and_then(constant)
    else {
        return false;
    };
    let value_type = match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let Some(branch) = branch.as_object() else {
        return false;
    };
    branches.iter().any(|candidate| {
        let Value::Object(map) = candidate else {
            return **candidate == Value::Bool(true);
        };
        // Any other keyword of the catch-all (`format`) must be the `const` branch's too.
        let others_shared = map
            .iter()
            .filter(|(key, _)| *key != "type" && decides_validity(key))
            .all(|(key, value)| branch.get(key) == Some(value));
        if !others_shared || constant(map).is_some() {
            return false;
        }
        type_set(map).is_none_or(|types| {
            types.contains(value_type) || (value_type == "integer" && types.contains("number"))
        })
    })
}

/// The tag of an object branch: the discriminator property, else the first required property
/// whose schema is a `const` (or a one-value `enum`).
fn tag<'a>(
    map: &'a Map<String, Value>,
    discriminator: Option<&str>,
) -> Option<(&'a str, &'a Value)> {
    let Value::Object(properties) = map.get("properties")? else {
        return None;
    };
    let required: Vec<&str> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    discriminator.into_iter().chain(required).find_map(|name| {
        let (key, schema) = properties.get_key_value(name)?;
        Some((key.as_str(), constant(schema.as_object()?)?))
    })
}

/// `const`, or the value of a one-value `enum`.
fn constant(map: &Map<String, Value>) -> Option<&Value> {
    if let Some(value) = map.get("const") {
        return Some(value);
    }
    match map.get("enum") {
        Some(Value::Array(values)) if values.len() == 1 => values.first(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn steps(old: &Value, new: &Value) -> Vec<Step> {
        let old: Vec<&Value> = old.as_array().unwrap().iter().collect();
        let new: Vec<&Value> = new.as_array().unwrap().iter().collect();
        match_branches(&old, &new, None, None).steps
    }

    #[test]
    fn branches_match_by_tag_then_title_then_position() {
        let tagged = |tag: &str| json!({"type": "object", "properties": {"kind": {"const": tag}}, "required": ["kind"]});
        let old = json!([tagged("a"), tagged("b"), {"title": "T"}, {"type": "string"}]);
        let new = json!([{"type": "integer"}, tagged("c"), {"title": "T"}, tagged("a")]);
        assert_eq!(
            steps(&old, &new),
            [
                Step::Pair(3, 0),
                Step::Added(1),
                Step::Pair(2, 2),
                Step::Pair(0, 3),
                Step::Removed(1),
            ]
        );
    }

    #[test]
    fn duplicate_labels_fall_through_to_the_next_kind() {
        let old = json!([
            {"title": "X", "allOf": [{"$ref": "#/$defs/A"}]},
            {"title": "X", "allOf": [{"$ref": "#/$defs/B"}]},
        ]);
        let new = json!([
            {"title": "X", "allOf": [{"$ref": "#/$defs/B"}]},
            {"title": "X", "allOf": [{"$ref": "#/$defs/A"}]},
        ]);
        assert_eq!(steps(&old, &new), [Step::Pair(1, 0), Step::Pair(0, 1)]);
    }

    #[test]
    fn names_and_catch_alls() {
        let branch = json!({"properties": {"t": {"const": "x"}}, "required": ["t"]});
        let union = json!([
            branch,
            {"const": 3},
            {"$ref": "#/$defs/A"},
            {"type": "object"},
            {"title": "Agent", "properties": {"v": {"const": "2.0"}}, "required": ["v"]},
            {"title": "Client", "properties": {"v": {"const": "2.0"}}, "required": ["v"]},
        ]);
        let branches: Vec<&Value> = union.as_array().unwrap().iter().collect();
        let matching = match_branches(&branches, &branches, None, None);
        assert_eq!(matching.new_names, ["x", "3", "A", "#3", "Agent", "Client"]);

        let other = json!({"title": "other", "type": "string"});
        let read = json!({"const": "read", "type": "string"});
        assert!(catch_all_accepts(&[&other], &json!({"const": "new"})));
        assert!(!catch_all_accepts(&[&read], &json!({"const": "new"})));
        assert!(!catch_all_accepts(&[&other], &json!({"const": 1})));
        assert!(!catch_all_accepts(&[&other], &branch));
    }
}
