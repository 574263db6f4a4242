//! A `null` tag of a union with a fallback branch (a branch taken without the tag) was read as
//! an absent tag and dropped: ACP's `McpServer` (`http`, `sse`, or the stdio branch, which does
//! not constrain `type`) decoded `{"type": null, ...}` as stdio and wrote it back without
//! `"type": null`; MCP's `ElicitRequestParams` (`url`, or the form branch, whose `mode` is
//! `"form"` or absent) accepted `"mode": null`, which the schema refuses, and dropped it. Found
//! by the mutants of `tests/mcp/differential.rs`. The fallback branch now gets the member and
//! decides: the stdio branch keeps it, the form branch refuses it.

use serde_json::json;
use toolcall_contracts::acp::McpServer;
use toolcall_contracts::decode;

#[test]
fn a_null_tag_is_kept_by_a_fallback_that_does_not_declare_it() {
    for input in [
        json!({"type": null, "name": "fs", "command": "/bin/fs", "args": [], "env": []}),
        json!({"name": "fs", "command": "/bin/fs", "args": [], "env": [], "type": null}),
    ] {
        let decoded = decode::<McpServer>(input.to_string().as_bytes()).unwrap();
        assert!(
            matches!(decoded.value, McpServer::Stdio(_)),
            "{:?}",
            decoded.value
        );
        assert!(decoded.report.is_empty());
        assert_eq!(serde_json::to_value(&decoded.value).unwrap(), input);
    }
}

#[cfg(feature = "mcp-2025-11-25")]
#[test]
fn a_null_tag_is_refused_by_a_fallback_that_fixes_it() {
    use toolcall_contracts::mcp::v2025_11_25::ElicitRequestParams;
    let form = json!({"type": "object", "properties": {}});
    for input in [
        json!({"mode": null, "message": "hi", "requestedSchema": form}),
        json!({"message": "hi", "requestedSchema": form, "mode": null}),
    ] {
        let error = decode::<ElicitRequestParams>(input.to_string().as_bytes()).unwrap_err();
        assert_eq!(error.pointer, "/mode", "{input}");
        assert_eq!(error.message, "invalid value: null, expected `form`");
    }
    // Absent is still a form.
    let absent = json!({"message": "hi", "requestedSchema": form});
    let decoded = decode::<ElicitRequestParams>(absent.to_string().as_bytes()).unwrap();
    assert!(matches!(decoded.value, ElicitRequestParams::Form(_)));
    assert_eq!(serde_json::to_value(&decoded.value).unwrap(), absent);
}
