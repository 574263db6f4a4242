//! Issue 15, live traffic between the official SDKs: a response to a request whose method has no
//! definition (an unknown `session/fork`) was reported `ok`, as if its result had been checked.
//! It cannot be checked against a result definition: the verdict is `unchecked` and the kind says
//! why. The request itself is `invalid` (a method outside the schema must start with `_`).

use serde_json::json;
use toolcall_traffic::{Checker, Kind, Status};

#[test]
fn a_result_for_an_unknown_method_is_unchecked() -> Result<(), Box<dyn std::error::Error>> {
    let checker = Checker::new()?;
    let transcript = [
        json!({"jsonrpc": "2.0", "id": 7, "method": "session/fork", "params": {"sessionId": "s"}}),
        json!({"jsonrpc": "2.0", "id": 7, "result": {"sessionId": "s2"}}),
        json!({"jsonrpc": "2.0", "id": 8, "method": "session/fork", "params": {"sessionId": "s"}}),
        json!({"jsonrpc": "2.0", "id": 8, "error": {"code": -32601, "message": "Method not found"}}),
    ]
    .map(|message| message.to_string())
    .join("\n");
    let checked = checker.check_input(transcript.as_bytes());
    let verdicts: Vec<_> = checked.iter().map(|checked| &checked.verdict).collect();
    assert_eq!(
        verdicts[0].status,
        Status::Invalid {
            pointer: "/method".to_owned(),
            message: "unknown method `session/fork` (extension methods start with `_`)".to_owned()
        }
    );
    assert_eq!(
        verdicts[1].status,
        Status::Unchecked {
            pointer: "/result".to_owned(),
            message: "`session/fork` has no definition in the schema: the result cannot be \
                      checked against a result definition"
                .to_owned()
        }
    );
    assert_eq!(
        verdicts[1].kind,
        Kind::ResponseToUnknownMethod {
            method: "session/fork".to_owned()
        }
    );
    assert_eq!(
        verdicts[1].kind.to_string(),
        "response to session/fork (unknown method: no result definition)"
    );
    // An error response is checked against `Error` whatever the method.
    assert_eq!(verdicts[3].status, Status::Ok);
    assert_eq!(
        verdicts[3].kind.to_string(),
        "error response to session/fork"
    );
    // A malformed envelope is still invalid, not merely unchecked.
    let broken = format!(
        "{}\n{}",
        json!({"jsonrpc": "2.0", "id": 9, "method": "session/fork"}),
        json!({"jsonrpc": "1.0", "id": 9, "result": {}})
    );
    let checked = checker.check_input(broken.as_bytes());
    assert!(matches!(
        &checked[1].verdict.status,
        Status::Invalid { pointer, .. } if pointer == "/jsonrpc"
    ));
    Ok(())
}
