//! `ClientRequest.params` is an untagged union of every request's params. A `session/prompt`
//! used to decode as the first variant that accepted it (`LogoutRequest`, all optional) and
//! re-encode as `params: {}`.

use serde_json::json;
use toolcall_contracts::acp::ClientRequest;

#[test]
fn params_decode_as_the_variant_that_keeps_every_member() {
    let input =
        json!({"id": 1, "method": "session/prompt", "params": {"sessionId": "s", "prompt": []}});
    let request: ClientRequest = serde_json::from_value(input.clone()).unwrap();
    assert_eq!(serde_json::to_value(&request).unwrap(), input);
}
