//! Recursive types: a type that holds itself by value (directly or through other types, with
//! no `Vec` or map in between) would have infinite size; such references are boxed.

use std::collections::BTreeMap;

use super::{Kind, MemberValue, Model, Payload, Ty};

/// The types `ty` holds by value.
fn by_value<'a>(ty: &'a Ty, out: &mut Vec<&'a str>) {
    match ty {
        Ty::Named(name) => out.push(name),
        Ty::Bounded(inner, _) | Ty::Checked(inner, _) | Ty::Nullable(inner) => by_value(inner, out),
        _ => {}
    }
}

fn edges(kind: &Kind) -> Vec<&str> {
    let mut out = Vec::new();
    match kind {
        Kind::Struct(s) => {
            for member in &s.members {
                if let MemberValue::Field(field) = &member.value {
                    by_value(&field.ty, &mut out);
                }
            }
            if let Some(flatten) = &s.flatten {
                out.push(&flatten.ty);
            }
        }
        Kind::Union(u) => {
            for variant in &u.variants {
                match &variant.payload {
                    Payload::Ty(ty) => by_value(ty, &mut out),
                    Payload::WithTag(name) => out.push(name),
                    Payload::Unit | Payload::Raw => {}
                }
            }
        }
        Kind::Newtype(ty) | Kind::Alias(ty) => by_value(ty, &mut out),
        Kind::Tuple(t) => t.items.iter().for_each(|ty| by_value(ty, &mut out)),
        Kind::Enum(_) => {}
    }
    out
}

/// Strongly connected components (Tarjan), as a component number per node.
fn components(graph: &[Vec<usize>]) -> Vec<usize> {
    struct State<'g> {
        graph: &'g [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        component: Vec<usize>,
        components: usize,
    }
    fn visit(s: &mut State<'_>, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &s.graph[v] {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(i) if s.on_stack[w] => s.low[v] = s.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                s.component[w] = s.components;
                if w == v {
                    break;
                }
            }
            s.components += 1;
        }
    }
    let n = graph.len();
    let mut state = State {
        graph,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        component: vec![0; n],
        components: 0,
    };
    for v in 0..n {
        if state.index[v].is_none() {
            visit(&mut state, v);
        }
    }
    state.component
}

/// The types `kind` decodes as without reading into the value first (an untagged union tries
/// its variants on the value itself; an alias or a newtype is its target).
fn same_value_edges(kind: &Kind) -> Vec<&str> {
    fn direct<'a>(ty: &'a Ty, out: &mut Vec<&'a str>) {
        match ty {
            Ty::Named(name) => out.push(name),
            Ty::Boxed(inner)
            | Ty::Bounded(inner, _)
            | Ty::Checked(inner, _)
            | Ty::Nullable(inner) => direct(inner, out),
            _ => {}
        }
    }
    let mut out = Vec::new();
    match kind {
        Kind::Union(u) if u.tag.is_none() => {
            for variant in &u.variants {
                if let Payload::Ty(ty) = &variant.payload {
                    direct(ty, &mut out);
                }
            }
        }
        Kind::Alias(ty) | Kind::Newtype(ty) => direct(ty, &mut out),
        _ => {}
    }
    out
}

/// A cycle of types that decode the same value without reading into it (`A: {$ref: B}`,
/// `B: {$ref: A}`; a union with itself as a branch): no Rust type can stand for it, and decoding
/// would recurse without end. The names of the first such cycle, in model order.
pub(super) fn same_value_cycle(model: &Model) -> Option<Vec<&str>> {
    let index: BTreeMap<&str, usize> = model
        .items
        .iter()
        .enumerate()
        .map(|(i, item)| (item.name.as_str(), i))
        .collect();
    let graph: Vec<Vec<usize>> = model
        .items
        .iter()
        .map(|item| {
            same_value_edges(&item.kind)
                .into_iter()
                .filter_map(|name| index.get(name).copied())
                .collect()
        })
        .collect();
    let component = components(&graph);
    (0..graph.len()).find_map(|i| {
        let members: Vec<&str> = (0..graph.len())
            .filter(|&j| component[j] == component[i])
            .map(|j| model.items[j].name.as_str())
            .collect();
        (members.len() > 1 || graph[i].contains(&i)).then_some(members)
    })
}

/// Boxes every by-value reference from a type to a type of its own cycle.
pub(super) fn box_cycles(model: &mut Model) {
    let index: BTreeMap<String, usize> = model
        .items
        .iter()
        .enumerate()
        .map(|(i, item)| (item.name.clone(), i))
        .collect();
    let graph: Vec<Vec<usize>> = model
        .items
        .iter()
        .map(|item| {
            edges(&item.kind)
                .into_iter()
                .filter_map(|name| index.get(name).copied())
                .collect()
        })
        .collect();
    let component = components(&graph);
    let cyclic = |from: usize, to: &str| {
        index
            .get(to)
            .is_some_and(|&to| component[to] == component[from])
    };
    for (i, item) in model.items.iter_mut().enumerate() {
        let wrap = |ty: &mut Ty| box_in(ty, &|name| cyclic(i, name));
        match &mut item.kind {
            Kind::Struct(s) => {
                for member in &mut s.members {
                    if let MemberValue::Field(field) = &mut member.value {
                        wrap(&mut field.ty);
                    }
                }
            }
            Kind::Union(u) => {
                for variant in &mut u.variants {
                    if let Payload::Ty(ty) = &mut variant.payload {
                        wrap(ty);
                    }
                }
            }
            Kind::Newtype(ty) => wrap(ty),
            Kind::Tuple(t) => t.items.iter_mut().for_each(wrap),
            Kind::Alias(_) | Kind::Enum(_) => {}
        }
    }
}

fn box_in(ty: &mut Ty, cyclic: &dyn Fn(&str) -> bool) {
    match ty {
        Ty::Named(name) if cyclic(name) => {
            let inner = std::mem::replace(ty, Ty::Value);
            *ty = Ty::Boxed(Box::new(inner));
        }
        Ty::Bounded(inner, _) | Ty::Checked(inner, _) | Ty::Nullable(inner) => {
            box_in(inner, cyclic);
        }
        _ => {}
    }
}

/// Every generated type `ty` names, at any depth (through `Vec`, maps, `Option`, bounds).
fn named<'a>(ty: &'a Ty, out: &mut Vec<&'a str>) {
    match ty {
        Ty::Named(name) => out.push(name),
        Ty::Boxed(inner)
        | Ty::Vec(inner)
        | Ty::Nullable(inner)
        | Ty::Map(inner)
        | Ty::Bounded(inner, _)
        | Ty::Checked(inner, _) => named(inner, out),
        _ => {}
    }
}

/// Aliases that reach themselves through aliases only (`type Tree = Vec<Tree>;`, a root array
/// whose items are `{"$ref": "#"}`) are not Rust: such an alias becomes a newtype
/// (`struct Tree(pub Vec<Tree>)`), which may hold itself inside a `Vec` or a map.
pub(super) fn newtype_recursive_aliases(model: &mut Model) {
    let aliases: BTreeMap<String, Ty> = model
        .items
        .iter()
        .filter_map(|item| match &item.kind {
            Kind::Alias(ty) => Some((item.name.clone(), ty.clone())),
            _ => None,
        })
        .collect();
    let reaches_itself = |start: &str| {
        let mut stack: Vec<&str> = vec![start];
        let mut seen: Vec<&str> = Vec::new();
        while let Some(name) = stack.pop() {
            let Some(ty) = aliases.get(name) else {
                continue;
            };
            let mut next = Vec::new();
            named(ty, &mut next);
            for n in next {
                if n == start {
                    return true;
                }
                if !seen.contains(&n) {
                    seen.push(n);
                    stack.push(n);
                }
            }
        }
        false
    };
    let recursive: Vec<String> = aliases
        .keys()
        .filter(|name| reaches_itself(name))
        .cloned()
        .collect();
    for item in &mut model.items {
        if recursive.contains(&item.name) {
            if let Kind::Alias(ty) = &item.kind {
                item.kind = Kind::Newtype(ty.clone());
            }
        }
    }
}
