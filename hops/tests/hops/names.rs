//! Tool-name projection: presets, replacement, truncation, collisions, the reverse map.

use std::collections::BTreeSet;

use toolcall_hops::names::{Alphabet, NameChange, NameError, NameProjection, ToolRef};

/// The hash suffix computed here, independently of the library: `_` and the first 8 hex digits
/// of SHA-256 over `namespace NUL name` (values from `sha256sum`).
const SEARCH_ISSUES_DOT: &str = "_3c9423c9"; // github\0search.issues
const A_DOT_B: &str = "_2e7336dc"; // a.b

/// Why a name changed, as the changes display.
fn why(changes: &[NameChange]) -> Vec<String> {
    changes.iter().map(ToString::to_string).collect()
}

#[test]
fn a_name_the_target_accepts_passes_unchanged() {
    let tools = [ToolRef::bare("get-sum"), ToolRef::bare("echo")];
    let map = NameProjection::openai().project(&tools).unwrap();
    assert_eq!(map.exposed(None, "get-sum"), Some("get-sum"));
    assert_eq!(map.entries()[1].changes, []);
    assert_eq!(map.changed().count(), 0);
    assert_eq!(map.resolve("echo"), Some(&tools[1]));
    assert_eq!(map.resolve("nope"), None);
}

#[test]
fn dots_and_slashes_are_replaced_for_openai_and_kept_for_mcp() {
    let tools = [ToolRef::bare("fs.read/file")];
    let openai = NameProjection::openai().project(&tools).unwrap();
    assert_eq!(openai.exposed(None, "fs.read/file"), Some("fs_read_file"));
    assert_eq!(
        openai.entries()[0].changes,
        [NameChange::Replaced {
            characters: vec!['.', '/'],
            replacement: '_'
        }]
    );
    assert_eq!(
        openai.entries()[0].changes[0].to_string(),
        "replaced `.`, `/` with `_`"
    );
    let mcp = NameProjection {
        alphabet: Alphabet::Mcp,
        ..NameProjection::openai()
    }
    .project(&tools)
    .unwrap();
    assert_eq!(mcp.exposed(None, "fs.read/file"), Some("fs.read/file"));
    let canonical = NameProjection::canonical().project(&tools).unwrap();
    assert_eq!(
        canonical.exposed(None, "fs.read/file"),
        Some("fs.read_file")
    );
}

#[test]
fn a_namespace_prefixes_the_name() {
    let tools = [ToolRef::new("everything", "echo")];
    let map = NameProjection::openai().project(&tools).unwrap();
    assert_eq!(
        map.exposed(Some("everything"), "echo"),
        Some("everything__echo")
    );
    assert_eq!(map.exposed(None, "echo"), None);
    assert_eq!(
        map.entries()[0].changes[0].to_string(),
        "prefixed with namespace `everything`"
    );
    assert_eq!(map.resolve("everything__echo"), Some(&tools[0]));
}

#[test]
fn a_replaced_name_colliding_with_an_intact_one_gets_the_hash_suffix() {
    let tools = [
        ToolRef::new("github", "search.issues"),
        ToolRef::new("github", "search_issues"),
    ];
    let map = NameProjection::openai().project(&tools).unwrap();
    let dotted = format!("github__search_issues{SEARCH_ISSUES_DOT}");
    assert_eq!(
        map.exposed(Some("github"), "search.issues"),
        Some(dotted.as_str())
    );
    assert_eq!(
        map.exposed(Some("github"), "search_issues"),
        Some("github__search_issues")
    );
    let why = why(&map.entries()[0].changes);
    assert_eq!(
        why,
        [
            "prefixed with namespace `github`".to_owned(),
            "replaced `.` with `_`".to_owned(),
            format!(
                "hash suffix `{SEARCH_ISSUES_DOT}`: collides with `search_issues` in namespace `github`"
            ),
        ]
    );
    assert_eq!(map.resolve(&dotted), Some(&tools[0]));
    assert_eq!(map.resolve("github__search_issues"), Some(&tools[1]));
    // The order of the list does not matter.
    let reversed = [tools[1].clone(), tools[0].clone()];
    let again = NameProjection::openai().project(&reversed).unwrap();
    assert_eq!(
        again.exposed(Some("github"), "search.issues"),
        Some(dotted.as_str())
    );
}

#[test]
fn two_replaced_names_colliding_both_get_their_own_suffix() {
    let tools = [ToolRef::bare("a.b"), ToolRef::bare("a/b")];
    let map = NameProjection::openai().project(&tools).unwrap();
    let first = map.exposed(None, "a.b").unwrap();
    let second = map.exposed(None, "a/b").unwrap();
    assert_eq!(first, format!("a_b{A_DOT_B}"));
    assert_ne!(first, second);
    assert!(second.starts_with("a_b_") && second.len() == 12, "{second}");
}

#[test]
fn a_name_too_long_is_cut_and_hashed_to_exactly_max_len() {
    let long = "x".repeat(70);
    let tools = [ToolRef::new("mcp__server", long.clone())];
    let map = NameProjection::openai().project(&tools).unwrap();
    let exposed = map.exposed(Some("mcp__server"), &long).unwrap();
    assert_eq!(exposed.chars().count(), 64);
    assert!(exposed.starts_with("mcp__server__xxx"), "{exposed}");
    let why = why(&map.entries()[0].changes);
    assert_eq!(why[1], "truncated from 83 to 64 characters");
    assert!(why[2].starts_with("hash suffix `_") && why[2].ends_with("`: truncated"));
    // `{1,128}` holds it whole.
    let wide = NameProjection::openai_128().project(&tools).unwrap();
    assert_eq!(
        wide.exposed(Some("mcp__server"), &long),
        Some(format!("mcp__server__{long}").as_str())
    );
}

#[test]
fn a_collision_the_suffix_does_not_resolve_names_both_tools() {
    // `a.b` becomes `a_b` + its suffix, which a third tool already is.
    let tools = [
        ToolRef::bare("a.b"),
        ToolRef::bare("a_b"),
        ToolRef::bare(format!("a_b{A_DOT_B}")),
    ];
    let error = NameProjection::openai().project(&tools).unwrap_err();
    assert_eq!(
        error,
        NameError::Collision {
            first: tools[0].clone(),
            second: tools[2].clone(),
            exposed: format!("a_b{A_DOT_B}"),
        }
    );
    assert_eq!(
        error.to_string(),
        format!("tools `a.b` and `a_b{A_DOT_B}` both project to `a_b{A_DOT_B}`")
    );
}

#[test]
fn refusals_name_what_is_wrong() {
    let projection = NameProjection::openai();
    assert_eq!(
        projection
            .project(&[ToolRef::bare("")])
            .unwrap_err()
            .to_string(),
        "tool `` has an empty name"
    );
    assert_eq!(
        projection
            .project(&[ToolRef::new("s", "a"), ToolRef::new("s", "a")])
            .unwrap_err()
            .to_string(),
        "tool `a` in namespace `s` is listed twice, at `0` and `1`"
    );
    assert_eq!(
        NameProjection::openai()
            .with_max_len(9)
            .project(&[ToolRef::bare("0123456789")])
            .unwrap_err()
            .to_string(),
        "tool `0123456789` needs a hash suffix, which takes `max_len` of at least `10`, not `9`"
    );
    assert_eq!(
        NameProjection::openai()
            .with_max_len(0)
            .project(&[])
            .unwrap_err(),
        NameError::MaxLenZero
    );
    let letters = NameProjection {
        alphabet: Alphabet::Custom(
            "abcdefghijklmnopqrstuvwxyz_"
                .chars()
                .collect::<BTreeSet<_>>(),
        ),
        max_len: 12,
        ..NameProjection::openai()
    };
    assert_eq!(
        letters
            .project(&[ToolRef::bare("abcdefghijklmn")])
            .unwrap_err()
            .to_string(),
        "the hash suffix `0` is not in the target alphabet"
    );
    let no_underscore = NameProjection {
        alphabet: Alphabet::Custom("ab".chars().collect()),
        ..NameProjection::openai()
    };
    // Checked when a name needs it (a replacement, a namespace, a suffix), not before: names
    // that need none of them pass (the old check refused every list, the empty one included).
    assert_eq!(
        no_underscore
            .project(&[ToolRef::bare("a.b")])
            .unwrap_err()
            .to_string(),
        "the replacement `_` is not in the target alphabet"
    );
    let plain = no_underscore
        .project(&[ToolRef::bare("ab"), ToolRef::bare("ba")])
        .unwrap();
    assert_eq!(plain.changed().count(), 0);
    assert_eq!(
        no_underscore
            .project(&[ToolRef::new("a", "b")])
            .unwrap_err()
            .to_string(),
        "the separator `_` is not in the target alphabet"
    );
}

#[test]
fn a_collision_the_suffix_can_resolve_is_resolved_round_after_round() {
    // `q.q` meets `q_q` and gets `q_q_5eb5a66d`, which `q.q.5eb5a66d` also projects to: that
    // one gets its own suffix in turn (SHA-256("q.q") starts 5eb5a66d, of "q.q.5eb5a66d"
    // eed13199: sha256sum).
    let tools = [
        ToolRef::bare("q.q"),
        ToolRef::bare("q_q"),
        ToolRef::bare("q.q.5eb5a66d"),
    ];
    let map = NameProjection::openai().project(&tools).unwrap();
    let exposed: Vec<&str> = map.entries().iter().map(|e| e.exposed.as_str()).collect();
    assert_eq!(exposed, ["q_q_5eb5a66d", "q_q", "q_q_5eb5a66d_eed13199"]);
    assert_eq!(
        map.entries()[2].changes[1].to_string(),
        "hash suffix `_eed13199`: collides with `q.q`"
    );
    for (tool, name) in tools.iter().zip(exposed) {
        assert_eq!(map.resolve(name), Some(tool));
    }
    // A suffixed name equal to another tool's intact name has nothing left to change.
    let error = NameProjection::openai()
        .project(&[
            ToolRef::bare("a.b"),
            ToolRef::bare("a_b"),
            ToolRef::bare(format!("a_b{A_DOT_B}")),
        ])
        .unwrap_err();
    assert!(matches!(error, NameError::Collision { .. }));
}

#[test]
fn an_empty_namespace_and_a_duplicate_are_refused_naming_the_tool() {
    assert_eq!(
        NameProjection::openai()
            .project(&[ToolRef::new("", "x")])
            .unwrap_err()
            .to_string(),
        "tool `x` in namespace `` has an empty namespace"
    );
    assert_eq!(
        NameProjection::openai()
            .project(&[ToolRef::bare("x"), ToolRef::bare("y"), ToolRef::bare("x")])
            .unwrap_err(),
        NameError::DuplicateTool {
            tool: ToolRef::bare("x"),
            first: 0,
            second: 2
        }
    );
}

/// A collision's hash suffix can make a name longer than `max_len`: the name is cut to make
/// room, and the changes say so (the `NameMap` says why each name changed).
#[test]
fn a_collision_suffix_that_forces_a_cut_reports_the_truncation() {
    let dotted = format!("x.{}", "a".repeat(59));
    let intact = format!("x_{}", "a".repeat(59));
    let tools = [ToolRef::bare(&dotted), ToolRef::bare(&intact)];
    let map = NameProjection::openai().project(&tools).unwrap();
    let exposed = format!("x_{}_b9b649ea", "a".repeat(53)); // sha256sum of `x.aaa...`
    assert_eq!(map.exposed(None, &dotted), Some(exposed.as_str()));
    assert_eq!(exposed.chars().count(), 64);
    assert_eq!(
        map.entries()[0].changes,
        [
            NameChange::Replaced {
                characters: vec!['.'],
                replacement: '_'
            },
            NameChange::Truncated {
                length: 61,
                max_len: 64
            },
            NameChange::HashSuffix {
                suffix: "_b9b649ea".to_owned(),
                collided_with: Some(tools[1].clone())
            },
        ]
    );
    assert_eq!(
        map.entries()[0].changes[1].to_string(),
        "truncated from 61 characters to fit the hash suffix within 64"
    );
    assert_eq!(map.entries()[1].changes, []);
    // `a.b` becomes `a_b`, which `a_b` keeps: with 10 characters, one is left before the suffix.
    let short = NameProjection::openai()
        .with_max_len(10)
        .project(&[ToolRef::bare("a.b"), ToolRef::bare("a_b")])
        .unwrap();
    assert_eq!(
        short.exposed(None, "a.b"),
        Some(format!("a{A_DOT_B}").as_str())
    );
    let why = why(&short.entries()[0].changes);
    assert_eq!(
        why,
        [
            "replaced `.` with `_`".to_owned(),
            "truncated from 3 characters to fit the hash suffix within 10".to_owned(),
            format!("hash suffix `{A_DOT_B}`: collides with `a_b`"),
        ]
    );
    // A suffix that fits cuts nothing.
    let fits = NameProjection::openai()
        .with_max_len(12)
        .project(&[ToolRef::bare("a.b"), ToolRef::bare("a_b")])
        .unwrap();
    assert_eq!(fits.entries()[0].changes.len(), 2);
}

/// `collided_with` names the tool that kept the name, else the least other tool: the same
/// whatever the order of the list.
#[test]
fn the_tool_a_name_collided_with_does_not_depend_on_the_order_of_the_list() {
    let collided = |tools: &[ToolRef]| -> Vec<(ToolRef, Option<ToolRef>)> {
        let map = NameProjection::openai().project(tools).unwrap();
        let mut pairs: Vec<_> = map
            .entries()
            .iter()
            .map(|entry| {
                let other = entry.changes.iter().find_map(|change| match change {
                    NameChange::HashSuffix { collided_with, .. } => collided_with.clone(),
                    _ => None,
                });
                (entry.tool.clone(), other)
            })
            .collect();
        pairs.sort();
        pairs
    };
    let tools = [
        ToolRef::bare("a.b"),
        ToolRef::bare("a/b"),
        ToolRef::bare("a_b"),
        ToolRef::bare("a b"),
    ];
    let mut reversed = tools.clone();
    reversed.reverse();
    let keeper = Some(ToolRef::bare("a_b"));
    let expected = vec![
        (ToolRef::bare("a b"), keeper.clone()),
        (ToolRef::bare("a.b"), keeper.clone()),
        (ToolRef::bare("a/b"), keeper),
        (ToolRef::bare("a_b"), None),
    ];
    assert_eq!(collided(&tools), expected);
    assert_eq!(collided(&reversed), expected);
    // No name kept: the least other tool (` ` < `.` < `/`).
    let changed = [
        ToolRef::bare("a/b"),
        ToolRef::bare("a.b"),
        ToolRef::bare("a b"),
    ];
    let expected = vec![
        (ToolRef::bare("a b"), Some(ToolRef::bare("a.b"))),
        (ToolRef::bare("a.b"), Some(ToolRef::bare("a b"))),
        (ToolRef::bare("a/b"), Some(ToolRef::bare("a b"))),
    ];
    assert_eq!(collided(&changed), expected);
    let mut reversed = changed.clone();
    reversed.reverse();
    assert_eq!(collided(&reversed), expected);
}
