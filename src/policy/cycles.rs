//! Which reference cycles cost linear validation time and which can cost exponential time.
//!
//! A recursive schema (a tree model: `Node` with `children: {"items": {"$ref": "#/$defs/Node"}}`)
//! applies each subschema of the cycle once to each value of the instance: validation time is
//! linear in the instance. A cycle goes wrong in two ways:
//! - it does not descend into the instance (`{"$ref": "#"}`, an `allOf` back to itself): it
//!   never ends;
//! - it can apply one subschema to one value along two different paths (an `anyOf` whose two
//!   branches both hold `items` back to the cycle): the number of paths, and the time, can
//!   double with each level of the instance.
//!
//! The subschemas and their applicator edges form an automaton over the instance's path:
//! in-place edges (`allOf`, `$ref`, `if`...) read nothing, member edges read a member name
//! (`properties`) or any member or item (`items`, `additionalProperties`...). The second case is
//! the automaton being exponentially ambiguous, which holds exactly when some state reaches
//! itself by two different paths reading the same instance path (Weber and Seidl's EDA
//! criterion): in the product of the automaton with itself, a strongly connected component
//! holding a pair `(q, q)` also holds a pair `(p, r)` with `p != r`, or a transition of the
//! automaton inside a component is there twice. A member read by `items` and a name read by
//! `properties` are taken to overlap (an approximation that can only refuse, never accept).

use std::collections::HashMap;

/// What an edge reads of the instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reads<'a> {
    /// Nothing: the subschema applies to the same value.
    Nothing,
    /// The member of this name.
    Member(&'a str),
    /// Some member or item (`items`, `additionalProperties`, `patternProperties`, a tuple...).
    Any,
}

impl Reads<'_> {
    fn overlaps(self, other: Self) -> bool {
        match (self, other) {
            (Reads::Member(a), Reads::Member(b)) => a == b,
            (Reads::Nothing, _) | (_, Reads::Nothing) => false,
            _ => true,
        }
    }
}

/// The most subschemas of one cycle the product is built for; a larger cycle is taken to be
/// exponential (refused), so that the analysis stays cheap on any schema.
const MAX_ANALYZED: usize = 256;

/// Why a reference cycle is refused ([`super::PolicyError::RefCycle`]): what makes its
/// validation time more than linear in the instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CycleCost {
    /// A cycle of in-place applicators and references (`{"$ref": "#"}`): it applies itself to
    /// the same value again and again.
    #[error("never descends into the instance")]
    NoDescent,
    /// One subschema can apply to one value along two paths of the cycle (an `anyOf` whose
    /// branches both lead back to it through `items`): the paths, and the time, can double with
    /// each level of the instance.
    #[error("can apply one subschema to one value along two paths (validation time can double with each level of the instance)")]
    Exponential,
}

/// Whether the graph of `edges` (`(from, reads, to)` over nodes `0..nodes`) has a cycle that
/// is not linear, and which kind.
pub(crate) fn unbounded(nodes: usize, edges: &[(usize, Reads<'_>, usize)]) -> Option<CycleCost> {
    let component = components(nodes, edges);
    let mut size = vec![0usize; nodes];
    for &c in &component {
        size[c] += 1;
    }
    // In-place edges inside a component must not close a cycle.
    let inside = |&&(from, _, to): &&(usize, Reads<'_>, usize)| component[from] == component[to];
    let in_place: Vec<(usize, Reads<'_>, usize)> = edges
        .iter()
        .filter(inside)
        .filter(|(_, reads, _)| *reads == Reads::Nothing)
        .copied()
        .collect();
    let in_place_component = components(nodes, &in_place);
    let mut in_place_size = vec![0usize; nodes];
    for &c in &in_place_component {
        in_place_size[c] += 1;
    }
    if in_place.iter().any(|&(from, _, to)| from == to) || in_place_size.iter().any(|&n| n > 1) {
        return Some(CycleCost::NoDescent);
    }
    // One step: in-place paths (a DAG inside the component, counted up to 2) then a member
    // edge, per component.
    let mut steps: HashMap<(usize, usize), Vec<Reads<'_>>> = HashMap::new();
    for start in 0..nodes {
        if size[component[start]] > MAX_ANALYZED {
            return Some(CycleCost::Exponential);
        }
        // In-place paths from `start` inside its component, counted up to 2 in topological
        // order (Kahn's algorithm over what `start` reaches: the in-place subgraph is a DAG).
        let mut reached = vec![start];
        let mut index = 0;
        let mut is_reached = HashMap::from([(start, ())]);
        while index < reached.len() {
            let node = reached[index];
            index += 1;
            for &(from, _, to) in &in_place {
                if from == node && is_reached.insert(to, ()).is_none() {
                    reached.push(to);
                }
            }
        }
        let mut indegree: HashMap<usize, usize> = HashMap::new();
        for &(from, _, to) in &in_place {
            if is_reached.contains_key(&from) {
                *indegree.entry(to).or_insert(0) += 1;
            }
        }
        let mut paths: HashMap<usize, u8> = HashMap::from([(start, 1)]);
        let mut ready = vec![start];
        while let Some(node) = ready.pop() {
            let count = paths.get(&node).copied().unwrap_or(0);
            for &(from, _, to) in &in_place {
                if from == node {
                    let entry = paths.entry(to).or_insert(0);
                    *entry = entry.saturating_add(count).min(2);
                    let left = indegree.entry(to).or_insert(1);
                    *left -= 1;
                    if *left == 0 {
                        ready.push(to);
                    }
                }
            }
        }
        for (&via, &count) in &paths {
            for &(from, reads, to) in edges {
                if from == via && reads != Reads::Nothing && component[to] == component[start] {
                    let entry = steps.entry((start, to)).or_default();
                    for _ in 0..count {
                        entry.push(reads);
                    }
                }
            }
        }
    }
    // A step twice between two nodes of one component: two paths back to the start.
    for list in steps.values() {
        for (i, a) in list.iter().enumerate() {
            if list[i + 1..].iter().any(|b| a.overlaps(*b)) {
                return Some(CycleCost::Exponential);
            }
        }
    }
    // The product automaton over pairs of one component.
    let mut pairs: HashMap<(usize, usize), usize> = HashMap::new();
    let mut pair_edges = Vec::new();
    let by_start: HashMap<usize, Vec<(usize, Reads<'_>)>> =
        steps
            .iter()
            .fold(HashMap::new(), |mut map, (&(from, to), list)| {
                map.entry(from)
                    .or_default()
                    .extend(list.iter().map(|&reads| (to, reads)));
                map
            });
    let id = |pair: (usize, usize), pairs: &mut HashMap<(usize, usize), usize>| {
        let next = pairs.len();
        *pairs.entry(pair).or_insert(next)
    };
    for (&p, p_steps) in &by_start {
        for (&q, q_steps) in &by_start {
            if component[p] != component[q] {
                continue;
            }
            let from = id((p, q), &mut pairs);
            for &(p2, a) in p_steps {
                for &(q2, b) in q_steps {
                    if a.overlaps(b) {
                        let to = id((p2, q2), &mut pairs);
                        pair_edges.push((from, Reads::Nothing, to));
                    }
                }
            }
        }
    }
    let pair_component = components(pairs.len(), &pair_edges);
    let mut diagonal = HashMap::new();
    let mut off_diagonal = HashMap::new();
    for (&(p, q), &index) in &pairs {
        let c = pair_component[index];
        if p == q {
            diagonal.insert(c, ());
        } else {
            off_diagonal.insert(c, ());
        }
    }
    let cyclic = |c: usize| {
        pair_edges
            .iter()
            .any(|&(f, _, t)| pair_component[f] == c && pair_component[t] == c)
    };
    diagonal
        .keys()
        .any(|c| off_diagonal.contains_key(c) && cyclic(*c))
        .then_some(CycleCost::Exponential)
}

/// The strongly connected component of each node (Kosaraju, iterative).
fn components(nodes: usize, edges: &[(usize, Reads<'_>, usize)]) -> Vec<usize> {
    let mut forward = vec![Vec::new(); nodes];
    let mut backward = vec![Vec::new(); nodes];
    for &(from, _, to) in edges {
        forward[from].push(to);
        backward[to].push(from);
    }
    let mut seen = vec![false; nodes];
    let mut finished = Vec::with_capacity(nodes);
    for start in 0..nodes {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![(start, 0usize)];
        while let Some((node, next)) = stack.pop() {
            if let Some(&to) = forward[node].get(next) {
                stack.push((node, next + 1));
                if !seen[to] {
                    seen[to] = true;
                    stack.push((to, 0));
                }
            } else {
                finished.push(node);
            }
        }
    }
    let mut component = vec![usize::MAX; nodes];
    let mut count = 0;
    for &start in finished.iter().rev() {
        if component[start] != usize::MAX {
            continue;
        }
        let mut stack = vec![start];
        component[start] = count;
        while let Some(node) = stack.pop() {
            for &from in &backward[node] {
                if component[from] == usize::MAX {
                    component[from] = count;
                    stack.push(from);
                }
            }
        }
        count += 1;
    }
    component
}

#[cfg(test)]
mod tests {
    use super::*;

    use Reads::{Any, Member, Nothing};

    #[test]
    fn a_tree_model_is_linear() {
        // Node -properties/children-> array -items-> Node.
        let edges = [
            (0, Member("children"), 1),
            (1, Any, 0),
            (0, Member("name"), 2),
        ];
        assert_eq!(unbounded(3, &edges), None);
        // Through a `$ref` and an `anyOf` with `null`: still one path.
        let edges = [
            (0, Nothing, 1),
            (1, Member("left"), 2),
            (1, Member("right"), 2),
            (2, Nothing, 3),
            (2, Nothing, 4),
            (3, Nothing, 0),
        ];
        assert_eq!(unbounded(5, &edges), None);
    }

    #[test]
    fn two_branches_descending_alike_are_ambiguous() {
        // n -anyOf-> a -items-> n ; n -anyOf-> b -items-> n.
        let edges = [(0, Nothing, 1), (0, Nothing, 2), (1, Any, 0), (2, Any, 0)];
        assert_eq!(unbounded(3, &edges), Some(CycleCost::Exponential));
        // Through two different nodes that meet again one level later.
        let edges = [
            (0, Member("a"), 1),
            (0, Member("a"), 2),
            (1, Member("b"), 0),
            (2, Member("b"), 0),
        ];
        assert_eq!(unbounded(3, &edges), Some(CycleCost::Exponential));
        // Different names are different places: linear.
        let edges = [(0, Member("a"), 0), (0, Member("b"), 0)];
        assert_eq!(unbounded(1, &edges), None);
    }

    #[test]
    fn a_cycle_that_does_not_descend_never_ends() {
        assert_eq!(unbounded(1, &[(0, Nothing, 0)]), Some(CycleCost::NoDescent));
        let edges = [(0, Nothing, 1), (1, Nothing, 0), (1, Any, 0)];
        assert_eq!(unbounded(2, &edges), Some(CycleCost::NoDescent));
    }
}
