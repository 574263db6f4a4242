//! Issue 22, item 6: an `initialize` offering MCP 2026-07-28 (which opens with
//! `server/discover` and has no `initialize`) is a negotiation, not a session at that version:
//! server-filesystem counter-offers 2025-11-25
//! (`tests/fixtures/mcp/server-filesystem/PROVENANCE.md`).

use toolcall_traffic::{Checker, Status};

#[test]
fn an_initialize_offering_2026_07_28_is_checked_as_a_handshake_offer() {
    let recorded = std::fs::read_to_string(toolcall_test_support::fixture(
        "tests/fixtures/mcp/server-filesystem/offer-2026-07-28.ndjson",
    ))
    .expect("fixture");
    let checked = Checker::new()
        .expect("schema")
        .check_input(recorded.as_bytes());
    let shown: Vec<String> = checked
        .iter()
        .map(|c| {
            format!(
                "{} {} {}",
                c.verdict.status.name(),
                c.verdict
                    .protocol
                    .map(|p| p.to_string())
                    .unwrap_or_default(),
                c.verdict.kind
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            "ok MCP 2025-11-25 initialize",
            "ok MCP 2025-11-25 response to initialize",
            "ok MCP 2025-11-25 notifications/initialized",
            "ok MCP 2025-11-25 tools/list",
            "ok MCP 2025-11-25 response to tools/list",
        ]
    );
    assert!(checked.iter().all(|c| c.verdict.status == Status::Ok));
    let note = checked[0].verdict.note.as_deref().unwrap_or_default();
    assert!(
        note.starts_with("`initialize` offers MCP `2026-07-28`, which has no `initialize`"),
        "{note}"
    );
    assert!(checked[1..].iter().all(|c| c.verdict.note.is_none()));
}
