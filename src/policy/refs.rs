//! Static checks over a schema's subschemas and its `$ref` graph, run before `jsonschema` sees
//! the schema: local references only, one allowed dialect, no embedded resources, no reference
//! cycles (unless allowed), regexes the linear-time engine accepts within a byte budget, and
//! the size of the schema with every reference expanded, counted over the graph with
//! memoization, never by expanding. The same walk prices each regex by where it applies
//! ([`RegexCharges`]).
//!
//! The walk reads the keywords of the schema's dialect as `jsonschema` 0.61 compiles them for
//! that draft ([`applicator`], [`references`], [`anchors`]): a subschema the validator applies
//! but the walk skipped would escape every bound.

use std::collections::HashMap;

use serde_json::Value;

use crate::pointer::join;

use super::cycles::{self, CycleCost, Reads};
use super::dialect::Dialect;
use super::regex::Regexes;
use super::schema::{PolicyError, SchemaPolicy};

/// How a keyword holds its subschemas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// One subschema (`not`, `additionalProperties`, ...).
    One,
    /// An array of subschemas (`allOf`, `prefixItems`, ...).
    Array,
    /// One subschema or an array of them: `items` (the array form is draft-07's and 2019-09's
    /// tuple; `jsonschema` applies it in every draft, the 2020-12 meta-schema refuses it).
    OneOrArray,
    /// An object whose values are subschemas (`properties`, `dependencies`, ...; a
    /// `dependencies` value may also be an array of member names, counted as plain values).
    Map,
}

/// Whether `keyword` holds subschemas in `dialect`, how, and which instance they apply to: the
/// applicators `jsonschema` 0.61 compiles for that draft (`keywords::get_for_draft`). A keyword
/// it applies in every draft is one here in every dialect, deprecated or not: `dependencies`
/// and `additionalItems` in 2020-12.
fn applicator(dialect: Dialect, keyword: &str) -> Option<(Holds, Applies)> {
    let since_2019_09 = dialect != Dialect::Draft07;
    Some(match keyword {
        "additionalItems" | "additionalProperties" | "contains" => (Holds::One, Applies::Member),
        "if" | "then" | "else" | "not" => (Holds::One, Applies::InPlace),
        "propertyNames" => (Holds::One, Applies::Name),
        "items" => (Holds::OneOrArray, Applies::Member),
        "allOf" | "anyOf" | "oneOf" => (Holds::Array, Applies::InPlace),
        "dependencies" => (Holds::Map, Applies::InPlace),
        "patternProperties" | "properties" => (Holds::Map, Applies::Member),
        "contentSchema" | "unevaluatedItems" | "unevaluatedProperties" if since_2019_09 => {
            (Holds::One, Applies::Member)
        }
        "dependentSchemas" if since_2019_09 => (Holds::Map, Applies::InPlace),
        "prefixItems" if dialect == Dialect::Draft202012 => (Holds::Array, Applies::Member),
        _ => return None,
    })
}

/// The reference keywords of `dialect`. A 2019-09 `$recursiveRef` always leads to the root: with
/// no embedded resource, the root is the only schema its dynamic scope can reach.
fn references(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        Dialect::Draft07 => &["$ref"],
        Dialect::Draft201909 => &["$ref", "$recursiveRef"],
        Dialect::Draft202012 => &["$ref", "$dynamicRef"],
    }
}

/// The keywords that name a schema for a `#name` fragment in `dialect` (draft-07 names schemas
/// with an `$id` fragment only, and an `$id` is refused below the root).
fn anchors(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        Dialect::Draft07 => &[],
        Dialect::Draft201909 => &["$anchor"],
        Dialect::Draft202012 => &["$anchor", "$dynamicAnchor"],
    }
}

/// Keywords whose value maps names to subschemas that apply only through a reference (both in
/// every dialect: a fragment pointer reaches either).
const DEFS: &[&str] = &["$defs", "definitions"];
/// Keywords that read a string's bytes about once each, wherever they apply.
const STRING_SCANS: &[&str] = &["format", "maxLength", "minLength", "uniqueItems"];
/// Extra values `uniqueItems` counts for: hashing and comparing each item costs about as much
/// as checking that many simple keywords (measured: see the module docs).
const UNIQUE_ITEMS_WEIGHT: u64 = 40;
/// Extra values a fractional `multipleOf` counts for: past what `f64` division settles, the
/// check divides exact fractions of up to about 2 100 bits (measured: see the module docs).
const FRACTIONAL_MULTIPLE_OF_WEIGHT: u64 = 1000;

/// Which instance a subschema applies to, relative to the instance of its parent schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Applies {
    /// The same instance (`allOf`, `$ref`, `if`, ...).
    InPlace,
    /// A member or item (`items`, `additionalProperties`, ...).
    Member,
    /// The member names (`propertyNames`).
    Name,
}

/// Per-byte prices of the regexes of the expanded schema, by the strings they may apply to.
/// A regex's price is its NFA state count, once per place it appears in the expanded schema.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RegexCharges {
    /// Regexes that apply only to the value of a member of this name (through `properties`).
    pub(crate) by_member: HashMap<String, u64>,
    /// Regexes that may apply to any string value.
    pub(crate) any_value: u64,
    /// Regexes that apply to member names (`patternProperties`, `propertyNames`).
    pub(crate) names: u64,
}

/// What the analysis learnt about an accepted schema.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Analysis {
    /// Size of the schema with every reference expanded, in JSON values.
    pub(crate) expanded_size: u64,
    /// [`STRING_SCANS`] keywords in the expanded schema.
    pub(crate) string_scans: u64,
    /// Regex prices.
    pub(crate) regexes: RegexCharges,
}

/// Expansion totals of one subschema.
#[derive(Debug, Clone, Copy, Default)]
struct Totals {
    expanded_size: u64,
    string_scans: u64,
}

impl Totals {
    fn add(&mut self, other: Self) {
        self.expanded_size = self.expanded_size.saturating_add(other.expanded_size);
        self.string_scans = self.string_scans.saturating_add(other.string_scans);
    }
}

/// A subschema to visit, with its JSON pointer.
struct Node<'a> {
    value: &'a Value,
    pointer: String,
}

/// Where an edge of the expansion graph comes from.
enum Via {
    /// A subschema keyword (the JSON tree: never a cycle).
    Tree,
    /// A reference keyword at a pointer.
    Ref {
        keyword: &'static str,
        pointer: String,
    },
}

struct Edge<'a> {
    to: Node<'a>,
    via: Via,
    applies: Applies,
    /// The member name, for an edge out of `properties`.
    member: Option<&'a str>,
}

/// One schema being expanded by the depth-first walk.
struct Frame<'a> {
    value: &'a Value,
    edges: Vec<Edge<'a>>,
    next: usize,
    totals: Totals,
    weights: Weights,
}

/// Regex weights of one schema's own keywords.
#[derive(Debug, Clone, Copy, Default)]
struct Weights {
    /// `pattern`: applies to the schema's instance.
    pattern: u64,
    /// `patternProperties` keys: apply to the instance's member names.
    names: u64,
}

enum State {
    InProgress,
    Done(Totals),
}

/// A finished subschema, kept for pricing regexes once every subschema is done.
struct Done<'a> {
    value: *const Value,
    edges: Vec<(Applies, Option<&'a str>, *const Value)>,
    names_weight: u64,
}

/// Runs every static check of `policy` over `root` (whose depth was already checked), a
/// schema of `dialect`.
pub(crate) fn analyze(
    policy: &SchemaPolicy,
    dialect: Dialect,
    root: &Value,
) -> Result<Analysis, PolicyError> {
    let mut walker = Walker {
        policy,
        dialect,
        root,
        anchors: HashMap::new(),
        regexes: Regexes::new(policy.max_regex_bytes),
    };
    walker.scan()?;
    walker.expand()
}

struct Walker<'p, 'a> {
    policy: &'p SchemaPolicy,
    dialect: Dialect,
    root: &'a Value,
    anchors: HashMap<&'a str, Vec<Node<'a>>>,
    regexes: Regexes,
}

impl<'a> Walker<'_, 'a> {
    /// Checks every subschema reachable through subschema keywords (including `$defs` and
    /// `definitions`), weighs its regexes, and collects the names of the dialect's anchors.
    fn scan(&mut self) -> Result<(), PolicyError> {
        let mut stack = vec![Node {
            value: self.root,
            pointer: String::new(),
        }];
        while let Some(node) = stack.pop() {
            self.check_node(&node)?;
            let Value::Object(members) = node.value else {
                continue;
            };
            for &keyword in anchors(self.dialect) {
                if let Some(Value::String(name)) = members.get(keyword) {
                    self.anchors.entry(name).or_default().push(Node {
                        value: node.value,
                        pointer: node.pointer.clone(),
                    });
                }
            }
            for (keyword, value) in members {
                if DEFS.contains(&keyword.as_str()) {
                    if let Value::Object(defs) = value {
                        for (name, def) in defs {
                            stack.push(Node {
                                value: def,
                                pointer: join(&join(&node.pointer, keyword), name),
                            });
                        }
                    }
                }
            }
            stack.extend(
                tree_children(self.dialect, &node)
                    .into_iter()
                    .map(|edge| edge.to),
            );
        }
        Ok(())
    }

    /// The per-subschema checks: dialect, embedded resources, local references, and the
    /// weights of its regexes.
    fn check_node(&mut self, node: &Node<'_>) -> Result<Weights, PolicyError> {
        let mut weights = Weights::default();
        let Value::Object(members) = node.value else {
            return Ok(weights);
        };
        if members.contains_key("$schema") {
            // `jsonschema` compiles a subschema whose `$schema` names another draft as that
            // draft: one dialect per schema keeps the walk reading what the validator applies.
            match Dialect::of(node.value) {
                Ok(dialect) if dialect == self.dialect => {}
                Ok(dialect) if self.policy.allowed_dialects.contains(&dialect) => {
                    return Err(PolicyError::MixedDialects {
                        dialect: members["$schema"].as_str().unwrap_or_default().to_owned(),
                        pointer: node.pointer.clone(),
                        root: self.dialect,
                    });
                }
                Ok(_) => {
                    return Err(PolicyError::DialectNotAllowed {
                        dialect: members["$schema"].as_str().unwrap_or_default().to_owned(),
                        pointer: node.pointer.clone(),
                    });
                }
                Err(dialect) => {
                    return Err(PolicyError::DialectNotAllowed {
                        dialect,
                        pointer: node.pointer.clone(),
                    });
                }
            }
        }
        if members.contains_key("$id") && !std::ptr::eq(node.value, self.root) {
            return Err(PolicyError::EmbeddedResource {
                pointer: node.pointer.clone(),
            });
        }
        for &keyword in references(self.dialect) {
            if let Some(Value::String(reference)) = members.get(keyword) {
                if !reference.starts_with('#') {
                    return Err(PolicyError::NonLocalRef {
                        keyword,
                        reference: reference.clone(),
                        pointer: join(&node.pointer, keyword),
                    });
                }
                if keyword == "$recursiveRef" && reference != "#" {
                    return Err(PolicyError::RecursiveRefNotRoot {
                        reference: reference.clone(),
                        pointer: join(&node.pointer, keyword),
                    });
                }
            }
        }
        if let Some(Value::String(pattern)) = members.get("pattern") {
            let pointer = join(&node.pointer, "pattern");
            weights.pattern = self.regexes.weight(pattern, &pointer)?;
        }
        if let Some(Value::Object(patterns)) = members.get("patternProperties") {
            let at = join(&node.pointer, "patternProperties");
            for pattern in patterns.keys() {
                let weight = self.regexes.weight(pattern, &join(&at, pattern))?;
                weights.names = weights.names.saturating_add(weight);
            }
        }
        Ok(weights)
    }

    /// The expansion graph's edges out of `node`: its subschemas, then its reference targets.
    fn edges(&self, node: &Node<'a>) -> Result<Vec<Edge<'a>>, PolicyError> {
        let mut edges = tree_children(self.dialect, node);
        let Value::Object(members) = node.value else {
            return Ok(edges);
        };
        for &keyword in references(self.dialect) {
            let Some(Value::String(reference)) = members.get(keyword) else {
                continue;
            };
            let pointer = join(&node.pointer, keyword);
            if keyword == "$recursiveRef" {
                // `#` (checked by `check_node`): the root.
                edges.push(Edge {
                    to: Node {
                        value: self.root,
                        pointer: String::new(),
                    },
                    via: Via::Ref { keyword, pointer },
                    applies: Applies::InPlace,
                    member: None,
                });
                continue;
            }
            let unresolved = || PolicyError::UnresolvedRef {
                keyword,
                reference: reference.clone(),
                pointer: pointer.clone(),
            };
            let fragment = reference
                .strip_prefix('#')
                .and_then(crate::pointer::from_fragment)
                .ok_or_else(unresolved)?;
            let targets: Vec<Node<'a>> = if fragment.is_empty() || fragment.starts_with('/') {
                let value = self.root.pointer(&fragment).ok_or_else(unresolved)?;
                vec![Node {
                    value,
                    pointer: fragment,
                }]
            } else {
                // `$ref` reaches an `$anchor` or a `$dynamicAnchor`; `$dynamicRef` may reach
                // any schema of the same name in the dynamic scope: every one is an edge.
                self.anchors
                    .get(fragment.as_str())
                    .ok_or_else(unresolved)?
                    .iter()
                    .map(|anchor| Node {
                        value: anchor.value,
                        pointer: anchor.pointer.clone(),
                    })
                    .collect()
            };
            for to in targets {
                edges.push(Edge {
                    to,
                    via: Via::Ref {
                        keyword,
                        pointer: pointer.clone(),
                    },
                    applies: Applies::InPlace,
                    member: None,
                });
            }
        }
        Ok(edges)
    }

    /// Totals of the root with every reference expanded, by an iterative depth-first walk that
    /// computes each subschema's totals once. A reference back to a subschema still being
    /// expanded is a cycle: refused, or counted as one value when the policy allows cycles.
    fn expand(&mut self) -> Result<Analysis, PolicyError> {
        let limit = self.policy.max_expanded_size;
        let mut states: HashMap<*const Value, State> = HashMap::new();
        // Regex weight of each finished subschema and the subschemas it applies in place.
        let mut in_place: HashMap<*const Value, u64> = HashMap::new();
        let mut finished: Vec<Done<'a>> = Vec::new();
        let start = Node {
            value: self.root,
            pointer: String::new(),
        };
        states.insert(self.root, State::InProgress);
        // The first reference back to a schema being expanded: `(keyword, pointer, target)`.
        let mut first_cycle: Option<(&'static str, String, String)> = None;
        let mut stack = vec![self.frame(&start)?];
        let totals = loop {
            let Some(top) = stack.last_mut() else {
                unreachable!("the root frame breaks out before the stack empties");
            };
            if top.totals.expanded_size > limit {
                return Err(PolicyError::ExpandedTooLarge {
                    size: top.totals.expanded_size,
                    limit,
                });
            }
            let Some(edge) = top.edges.get(top.next) else {
                let done = stack.pop().expect("the stack is not empty");
                let value = std::ptr::from_ref(done.value);
                let weight = done
                    .edges
                    .iter()
                    .filter(|edge| edge.applies == Applies::InPlace)
                    .map(|edge| in_place.get(&std::ptr::from_ref(edge.to.value)).copied())
                    .fold(done.weights.pattern, |sum, weight| {
                        sum.saturating_add(weight.unwrap_or(0))
                    });
                in_place.insert(value, weight);
                states.insert(value, State::Done(done.totals));
                finished.push(Done {
                    value,
                    edges: done
                        .edges
                        .iter()
                        .map(|edge| (edge.applies, edge.member, std::ptr::from_ref(edge.to.value)))
                        .collect(),
                    names_weight: done.weights.names,
                });
                match stack.last_mut() {
                    Some(parent) => parent.totals.add(done.totals),
                    None => break done.totals,
                }
                continue;
            };
            top.next += 1;
            match states.get(&std::ptr::from_ref(edge.to.value)) {
                Some(State::Done(totals)) => top.totals.add(*totals),
                Some(State::InProgress) => {
                    if first_cycle.is_none() {
                        let (keyword, pointer) = match &edge.via {
                            Via::Ref { keyword, pointer } => (*keyword, pointer.clone()),
                            Via::Tree => ("$ref", edge.to.pointer.clone()),
                        };
                        first_cycle = Some((keyword, pointer, edge.to.pointer.clone()));
                    }
                    top.totals.expanded_size = top.totals.expanded_size.saturating_add(1);
                }
                None => {
                    let to = Node {
                        value: edge.to.value,
                        pointer: edge.to.pointer.clone(),
                    };
                    states.insert(to.value, State::InProgress);
                    let next = self.frame(&to)?;
                    stack.push(next);
                }
            }
        };
        if let Some((keyword, pointer, target)) = first_cycle {
            if !self.policy.allow_ref_cycles {
                if let Some(why) = unbounded_cycle(&finished) {
                    return Err(PolicyError::RefCycle {
                        keyword,
                        pointer,
                        target,
                        why,
                    });
                }
            }
        }
        Ok(Analysis {
            expanded_size: totals.expanded_size,
            string_scans: totals.string_scans,
            regexes: price(self.root, &finished, &in_place),
        })
    }

    fn frame(&mut self, node: &Node<'a>) -> Result<Frame<'a>, PolicyError> {
        // A reference may reach a value no subschema keyword leads to (inside `const`, say):
        // check it as the schema it becomes.
        let weights = self.check_node(node)?;
        Ok(Frame {
            value: node.value,
            edges: self.edges(node)?,
            next: 0,
            totals: own(self.dialect, node.value),
            weights,
        })
    }
}

/// Whether the cycles of the expanded graph (`finished`: every subschema with its edges) can
/// cost more than linear validation time, and how (see `cycles`).
fn unbounded_cycle(finished: &[Done<'_>]) -> Option<CycleCost> {
    let index: HashMap<*const Value, usize> = finished
        .iter()
        .enumerate()
        .map(|(index, done)| (done.value, index))
        .collect();
    let mut edges = Vec::new();
    for (from, done) in finished.iter().enumerate() {
        for &(applies, member, to) in &done.edges {
            let Some(&to) = index.get(&to) else {
                continue;
            };
            let reads = match (applies, member) {
                (Applies::InPlace, _) => Reads::Nothing,
                (Applies::Member, Some(name)) => Reads::Member(name),
                (Applies::Member | Applies::Name, _) => Reads::Any,
            };
            edges.push((from, reads, to));
        }
    }
    cycles::unbounded(finished.len(), &edges)
}

/// Prices every regex by where it applies. `finished` is in depth-first finishing order, so its
/// reverse visits a subschema before everything it leads to: the number of places a subschema
/// takes in the expanded schema is the sum over the edges into it of its parents' number.
fn price(
    root: &Value,
    finished: &[Done<'_>],
    in_place: &HashMap<*const Value, u64>,
) -> RegexCharges {
    let weight = |value: &*const Value| in_place.get(value).copied().unwrap_or(0);
    let mut charges = RegexCharges::default();
    let mut places: HashMap<*const Value, u64> = HashMap::new();
    let root = std::ptr::from_ref(root);
    places.insert(root, 1);
    charges.any_value = weight(&root);
    for done in finished.iter().rev() {
        let here = places.get(&done.value).copied().unwrap_or(0);
        charges.names = charges
            .names
            .saturating_add(here.saturating_mul(done.names_weight));
        for (applies, member, to) in &done.edges {
            let count = places.entry(*to).or_insert(0);
            *count = count.saturating_add(here);
            let charge = here.saturating_mul(weight(to));
            match (applies, member) {
                (Applies::InPlace, _) => {}
                (Applies::Member, Some(name)) => {
                    let slot = charges.by_member.entry((*name).to_owned()).or_insert(0);
                    *slot = slot.saturating_add(charge);
                }
                (Applies::Member, None) => {
                    charges.any_value = charges.any_value.saturating_add(charge);
                }
                (Applies::Name, _) => charges.names = charges.names.saturating_add(charge),
            }
        }
    }
    charges
}

/// The subschemas `node` applies directly in `dialect` (not `$defs`, not references).
fn tree_children<'a>(dialect: Dialect, node: &Node<'a>) -> Vec<Edge<'a>> {
    let mut edges = Vec::new();
    let Value::Object(members) = node.value else {
        return edges;
    };
    let mut push =
        |value: &'a Value, pointer: String, applies: Applies, member: Option<&'a str>| {
            edges.push(Edge {
                to: Node { value, pointer },
                via: Via::Tree,
                applies,
                member,
            });
        };
    for (keyword, value) in members {
        let Some((holds, applies)) = applicator(dialect, keyword) else {
            continue;
        };
        let at = join(&node.pointer, keyword);
        match (holds, value) {
            (Holds::Array | Holds::OneOrArray, Value::Array(items)) => {
                for (index, item) in items.iter().enumerate() {
                    push(item, join(&at, &index.to_string()), applies, None);
                }
            }
            (Holds::Map, Value::Object(map)) => {
                for (name, item) in map {
                    let member = (keyword == "properties").then_some(name.as_str());
                    push(item, join(&at, name), applies, member);
                }
            }
            (Holds::One | Holds::OneOrArray, value) => push(value, at, applies, None),
            // Not a subschema container: the meta-schema refuses it.
            (Holds::Array | Holds::Map, _) => {}
        }
    }
    edges
}

/// JSON values a schema holds itself: the object, and every value under keywords that are
/// neither subschemas, `$defs` nor references (`enum`, `const`, `required`, annotations, ...);
/// plus the containers of array and map subschema keywords and the reference strings, and
/// [`UNIQUE_ITEMS_WEIGHT`] for `uniqueItems` and [`FRACTIONAL_MULTIPLE_OF_WEIGHT`] for a
/// fractional `multipleOf`. Also counts its [`STRING_SCANS`] keywords.
fn own(dialect: Dialect, value: &Value) -> Totals {
    let Value::Object(members) = value else {
        return Totals {
            expanded_size: count_values(value),
            string_scans: 0,
        };
    };
    let mut totals = Totals {
        expanded_size: 1,
        string_scans: 0,
    };
    for (keyword, value) in members {
        let keyword = keyword.as_str();
        if STRING_SCANS.contains(&keyword) {
            totals.string_scans += 1;
        }
        if keyword == "uniqueItems" {
            totals.expanded_size += UNIQUE_ITEMS_WEIGHT;
        }
        if keyword == "multipleOf" && value.as_f64().is_some_and(|divisor| divisor.fract() != 0.0) {
            totals.expanded_size += FRACTIONAL_MULTIPLE_OF_WEIGHT;
        }
        if DEFS.contains(&keyword) {
            continue;
        }
        let size = match applicator(dialect, keyword) {
            // The subschema itself is an edge.
            Some((Holds::One, _)) => continue,
            Some((Holds::OneOrArray, _)) if !value.is_array() => continue,
            // The container; its subschemas are edges.
            Some(_) => 1,
            None if references(dialect).contains(&keyword) => 1,
            None => count_values(value),
        };
        totals.expanded_size = totals.expanded_size.saturating_add(size);
    }
    totals
}

/// Number of JSON values in `value` (itself included). Iterative.
fn count_values(value: &Value) -> u64 {
    let mut count = 0u64;
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        count += 1;
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(members) => stack.extend(members.values()),
            _ => {}
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn size(schema: &Value) -> Result<u64, PolicyError> {
        analyze(&SchemaPolicy::default(), Dialect::Draft202012, schema)
            .map(|analysis| analysis.expanded_size)
    }

    #[test]
    fn counts_each_reference_expanded() {
        // Root object, `$defs` skipped; `properties` map 1; `a` = {type} 2, `$ref` string 1
        // plus the target `{type: "string"}` 2.
        let schema = json!({
            "$defs": {"s": {"type": "string"}},
            "properties": {"a": {"type": "string"}, "b": {"$ref": "#/$defs/s"}},
        });
        assert_eq!(size(&schema), Ok(1 + 1 + 2 + (1 + 1 + 2)));
    }

    #[test]
    fn anchors_and_escapes_resolve() {
        let schema = json!({
            "$defs": {"a/b": {"$anchor": "ab", "type": "string"}},
            "anyOf": [{"$ref": "#ab"}, {"$ref": "#/$defs/a~1b"}, {"$ref": "#/%24defs/a~1b"}],
        });
        assert!(size(&schema).is_ok());
    }

    #[test]
    fn unresolved_reference() {
        let schema = json!({"$ref": "#/$defs/missing"});
        assert_eq!(
            size(&schema).unwrap_err().to_string(),
            "`$ref` `#/$defs/missing` at `/$ref` resolves to nothing in the schema"
        );
    }

    #[test]
    fn regexes_are_priced_where_they_apply() {
        let schema = json!({
            "$defs": {"name": {"type": "string", "pattern": "^[a-z]{1,8}$"}},
            "properties": {
                "id": {"$ref": "#/$defs/name"},
                "owner": {"allOf": [{"$ref": "#/$defs/name"}, {"$ref": "#/$defs/name"}]},
                "content": {"type": "string"},
                "tags": {"items": {"pattern": "^x"}},
            },
            "propertyNames": {"pattern": "^[a-z]+$"},
        });
        let analysis = analyze(&SchemaPolicy::default(), Dialect::Draft202012, &schema).unwrap();
        let mut regexes = Regexes::new(1 << 20);
        let name = regexes.weight("^[a-z]{1,8}$", "").unwrap();
        let x = regexes.weight("^x", "").unwrap();
        let names = regexes.weight("^[a-z]+$", "").unwrap();
        let charges = &analysis.regexes;
        assert_eq!(charges.by_member.get("id"), Some(&name));
        assert_eq!(charges.by_member.get("owner"), Some(&(2 * name)));
        assert_eq!(charges.by_member.get("content"), Some(&0));
        assert_eq!(charges.any_value, x);
        assert_eq!(charges.names, names);
    }
}
