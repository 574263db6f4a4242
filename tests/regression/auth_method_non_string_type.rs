//! `AuthMethod` is `anyOf [terminal (tag "terminal"), agent (no tag constraint)]`: the schema
//! accepts `{"id":"a","name":"A","type":42}` through the `agent` branch. It used to fail with
//! "tag `type` of `AuthMethod` must be a string, found 42".

use serde_json::json;
use toolcall_contracts::acp::AuthMethod;
use toolcall_contracts::decode;

#[test]
fn non_string_tag_selects_the_fallback_branch() {
    for input in [
        json!({"id": "a", "name": "A", "type": 42}),
        json!({"type": 42, "id": "a", "name": "A"}),
    ] {
        let decoded = decode::<AuthMethod>(input.to_string().as_bytes()).unwrap();
        assert!(
            matches!(decoded.value, AuthMethod::Agent(_)),
            "{:?}",
            decoded.value
        );
        assert!(decoded.report.is_empty());
        assert_eq!(serde_json::to_value(&decoded.value).unwrap(), input);
    }
}
