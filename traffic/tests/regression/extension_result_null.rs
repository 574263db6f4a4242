//! Issue 15, live traffic between the official SDKs: an agent answers an extension request it
//! does not handle with `"result": null` (the Python SDK's own example does). That is valid
//! JSON-RPC, and ACP's `ExtResponse` takes any value: `toolcall validate` reports it `ok`,
//! `response to <method>` (README, `toolcall validate`). A `null` result for a method whose
//! result definition is an object is `invalid` at `/result`.

use serde_json::json;
use toolcall_traffic::{Checker, Status};

#[test]
fn a_null_result_to_an_extension_request_is_ok() -> Result<(), Box<dyn std::error::Error>> {
    let checker = Checker::new()?;
    let transcript = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "_example.com/ping", "params": {"n": 1}}),
        json!({"jsonrpc": "2.0", "id": 1, "result": null}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "session/set_mode",
               "params": {"sessionId": "s", "modeId": "code"}}),
        json!({"jsonrpc": "2.0", "id": 2, "result": null}),
    ]
    .map(|message| message.to_string())
    .join("\n");
    let checked = checker.check_input(transcript.as_bytes());
    assert_eq!(checked[0].verdict.status, Status::Ok);
    assert_eq!(checked[1].verdict.status, Status::Ok);
    assert_eq!(
        checked[1].verdict.kind.to_string(),
        "response to _example.com/ping"
    );
    assert!(matches!(
        &checked[3].verdict.status,
        Status::Invalid { pointer, .. } if pointer == "/result"
    ));
    assert_eq!(
        checked[3].verdict.kind.to_string(),
        "response to session/set_mode"
    );
    Ok(())
}
