//! Construct 9 of issue 12: in a family that keeps members the schema does not define (ACP, every
//! MCP version, and a user's schema by default), every generated struct keeps them. The test
//! walks every item of each model: a struct keeps them (`unknown_members`), declares them
//! (`additionalProperties` with a schema, or `false`), or hands them to the union flattened into
//! it, whose object variants keep them in turn; a tagged variant is never a bare tag that would
//! drop what its object holds.

use std::path::{Path, PathBuf};

use toolcall_codegen::model::{Kind, Model, Payload, Rest};
use toolcall_codegen::Builder;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// What in `model` can lose a member it does not declare, one line each.
fn losses(model: &Model) -> Vec<String> {
    let mut out = Vec::new();
    for item in &model.items {
        match &item.kind {
            Kind::Struct(s) => match (&s.rest, &s.flatten) {
                (Rest::Keep | Rest::Deny | Rest::Additional(_), _) => {}
                (Rest::Ignore, Some(flatten)) => {
                    if model.item(&flatten.ty).is_none() {
                        out.push(format!(
                            "{}: flattens `{}`, not generated",
                            item.name, flatten.ty
                        ));
                    }
                }
                (Rest::Ignore, None) => out.push(format!("{}: drops unknown members", item.name)),
            },
            Kind::Union(u) if u.tag.is_some() => {
                for variant in &u.variants {
                    if variant.payload == Payload::Unit {
                        out.push(format!("{}::{}: a bare tag", item.name, variant.name));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The number of structs in `model`.
fn structs(model: &Model) -> usize {
    model
        .items
        .iter()
        .filter(|i| matches!(i.kind, Kind::Struct(_)))
        .count()
}

#[test]
fn every_struct_of_a_keeping_family_keeps_unknown_members() {
    let mut checked = Vec::new();
    // The presets that keep them: ACP and every MCP version.
    for name in Builder::preset_names().filter(|n| *n == "acp" || n.starts_with("mcp-")) {
        let model = Builder::preset(workspace(), name).unwrap().model().unwrap();
        let losses = losses(&model);
        assert!(losses.is_empty(), "{name}:\n{}", losses.join("\n"));
        checked.push(format!("{name} ({} structs)", structs(&model)));
    }
    assert_eq!(checked.len(), 6, "ACP and five MCP versions: {checked:?}");
    println!("{}", checked.join(", "));
}

#[test]
fn every_struct_of_every_snapshot_case_keeps_unknown_members() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut cases = 0;
    for entry in std::fs::read_dir(&tests).unwrap().filter_map(Result::ok) {
        if !entry.path().join("expected.rs").is_file() {
            continue;
        }
        let model = Builder::new(entry.path().join("schema.json"))
            .model()
            .unwrap();
        let losses = losses(&model);
        assert!(
            losses.is_empty(),
            "{}:\n{}",
            entry.path().display(),
            losses.join("\n")
        );
        cases += 1;
    }
    assert!(cases >= 15, "{cases} cases");
}

#[test]
fn a_family_that_does_not_keep_them_says_so_per_struct() {
    // The route body tolerates and drops unknown members by contract: the walk sees it.
    let model = Builder::preset(workspace(), "route")
        .unwrap()
        .model()
        .unwrap();
    let losses = losses(&model);
    assert!(
        losses
            .iter()
            .any(|l| l.starts_with("ToolCallRequest: drops")),
        "{losses:?}"
    );
}
