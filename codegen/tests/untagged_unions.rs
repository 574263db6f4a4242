//! The unions of ACP and the five MCP versions that are left untagged, each with the reason the
//! schema gives no tag, read from the model: a branch that is not an object (a scalar, an array,
//! `null`) or is itself a union cannot carry a tag member, and object branches are told apart
//! by a tag only when one member is a `const` in every branch with a distinct value in each.
//! Every other union is tagged (issue 12: the `$ref`'d definitions' `const`s are found).

use std::collections::BTreeSet;
use std::path::Path;

use toolcall_codegen::model::{Kind, MemberValue, Model, Payload, Ty, Union};
use toolcall_codegen::Builder;

/// Why `union` has no tag.
fn reason(model: &Model, union: &Union) -> String {
    let mut consts: Option<BTreeSet<String>> = None;
    let mut values: Vec<(String, String)> = Vec::new();
    for variant in &union.variants {
        let name = match &variant.payload {
            Payload::Ty(ty) => match ty.unbounded() {
                Ty::Named(name) => name,
                Ty::Boxed(inner) => match inner.unbounded() {
                    Ty::Named(name) => name,
                    _ => return format!("branch `{}` is not an object", variant.name),
                },
                _ => return format!("branch `{}` is not an object", variant.name),
            },
            Payload::WithTag(name) => name,
            Payload::Unit => return format!("branch `{}` is `null`", variant.name),
            Payload::Raw => return "a catch-all branch".to_owned(),
        };
        let Some(Kind::Struct(s)) = model.item(name).map(|i| &i.kind) else {
            return format!("branch `{}` is not an object with members", variant.name);
        };
        let here: BTreeSet<String> = s
            .members
            .iter()
            .filter_map(|m| match &m.value {
                MemberValue::Const { value, .. } => {
                    values.push((m.wire.clone(), value.to_string()));
                    Some(m.wire.clone())
                }
                MemberValue::Field(_) => None,
            })
            .collect();
        consts = Some(match consts {
            None => here,
            Some(before) => before.intersection(&here).cloned().collect(),
        });
    }
    match consts.unwrap_or_default().into_iter().next() {
        None => "no member is a `const` in every branch".to_owned(),
        Some(member) => {
            let mut seen = BTreeSet::new();
            let repeated = values
                .iter()
                .filter(|(wire, _)| *wire == member)
                .find(|(_, value)| !seen.insert(value.clone()));
            match repeated {
                Some((_, value)) => format!("`{member}` is {value} in two branches"),
                None => format!("`{member}` is a `const` in every branch yet not taken as a tag"),
            }
        }
    }
}

#[test]
fn untagged_unions_of_acp_and_mcp_each_have_a_reason() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut counts = Vec::new();
    for name in Builder::preset_names().filter(|n| *n == "acp" || n.starts_with("mcp-")) {
        let model = Builder::preset(&workspace, name).unwrap().model().unwrap();
        let (mut tagged, mut untagged) = (0, 0);
        for item in &model.items {
            let Kind::Union(union) = &item.kind else {
                continue;
            };
            if union.tag.is_some() {
                tagged += 1;
                continue;
            }
            untagged += 1;
            let why = reason(&model, union);
            assert!(
                !why.contains("yet not taken"),
                "{}: {} ({}): {why}",
                name,
                item.name,
                item.pointer
            );
            println!("{} | {} | `{}` | {why}", name, item.name, item.pointer);
        }
        counts.push((name, tagged, untagged));
    }
    println!("(family, tagged, untagged): {counts:?}");
    assert_eq!(
        counts,
        [
            ("acp", 15, 15),
            ("mcp-2024-11-05", 9, 7),
            ("mcp-2025-03-26", 9, 11),
            ("mcp-2025-06-18", 8, 9),
            ("mcp-2025-11-25", 8, 15),
            ("mcp-2026-07-28", 7, 19),
        ]
    );
}
