//! JSON-RPC batches: an array of messages on one line. MCP 2025-03-26 defines them
//! (`JSONRPCBatchRequest`: requests and notifications; `JSONRPCBatchResponse`: responses);
//! 2025-06-18 removed them, and ACP never had them.
//!
//! A batch is an array whose elements include an object with `jsonrpc` or `method`. In an MCP
//! session whose version's schema defines `JSONRPCBatchRequest`, each element is checked as a
//! message of its own, in order (a request is recorded for pairing, a response paired by id as
//! usual), and the verdict is the batch's: the first element's `invalid` (pointer into the
//! batch, `/1/params/name`), else its first `unchecked`, else `lenient` when one is, else `ok`,
//! with every element's leniency report (pointers into the batch). A batch that mixes calls with
//! responses, and an element that is not a JSON-RPC message, are `invalid`. In any other session
//! a batch is `invalid` at `""`, saying which version has batches. (An empty array is not
//! recognized as a batch: it is checked as any other value.)

use serde_json::Value;

use super::transcript::{Side, Transcript};
use super::verdict::{Kind, Protocol, Status, Verdict};
use super::Checker;
use toolcall_contracts::decode::Leniency;

/// The MCP definition whose presence in a version's schema means the version has batches.
const BATCH_DEFINITION: &str = "JSONRPCBatchRequest";

/// Whether `value` is a JSON-RPC batch: an array with an element that is a JSON-RPC object.
pub(super) fn is_batch(value: &Value) -> bool {
    value.as_array().is_some_and(|elements| {
        elements.iter().any(|element| {
            element.as_object().is_some_and(|object| {
                object.contains_key("jsonrpc") || object.contains_key("method")
            })
        })
    })
}

impl Checker {
    /// A JSON-RPC batch (see the module documentation).
    pub(super) fn check_batch(
        &self,
        transcript: &mut Transcript,
        from: Option<Side>,
        elements: &[Value],
    ) -> Verdict {
        if transcript.family().is_none() {
            let shown = elements.iter().find_map(|element| {
                let object = element.as_object()?;
                self.family_of(object.get("method")?.as_str()?, object)
            });
            if let Some(family) = shown {
                transcript.set_family(family);
            }
        }
        let protocol = self.protocol_in(transcript, &serde_json::Map::new());
        let has_batches = match protocol {
            Protocol::Mcp { version } => self
                .mcp
                .get(version)
                .is_ok_and(|schema| schema.has(BATCH_DEFINITION)),
            Protocol::Acp => false,
        };
        if !has_batches {
            let message = match protocol {
                Protocol::Mcp { version } => format!(
                    "a JSON-RPC batch: only MCP 2025-03-26 has batches (2025-06-18 removed \
                     them), this session is MCP {version}"
                ),
                Protocol::Acp => "a JSON-RPC batch: ACP has no batches (only MCP 2025-03-26 \
                                  does)"
                    .to_owned(),
            };
            return Verdict::invalid(Kind::Batch { kinds: Vec::new() }, "", message)
                .checked_as(protocol);
        }
        let verdicts: Vec<Verdict> = elements
            .iter()
            .map(|element| match element.as_object() {
                Some(object) if object.contains_key("jsonrpc") || object.contains_key("method") => {
                    self.check_json_rpc(transcript, from, element, object)
                }
                _ => Verdict::invalid(
                    Kind::Unrecognized,
                    "",
                    "not a JSON-RPC message (each element of a batch is one)",
                ),
            })
            .collect();
        combine(verdicts, elements).checked_as(protocol)
    }
}

/// The batch's verdict from its elements' (see the module documentation).
fn combine(verdicts: Vec<Verdict>, elements: &[Value]) -> Verdict {
    let is_call = |element: &Value| element.get("method").is_some();
    let mixed = elements
        .iter()
        .position(|element| is_call(element) != is_call(&elements[0]));
    let kinds = verdicts
        .iter()
        .map(|verdict| verdict.kind.clone())
        .collect();
    let kind = Kind::Batch { kinds };
    if let Some(index) = mixed {
        return Verdict::invalid(
            kind,
            format!("/{index}"),
            "a batch holds requests and notifications, or responses, not both",
        );
    }
    let at = |index: usize, pointer: &str| format!("/{index}{pointer}");
    // The first invalid element, else the first unchecked one, decides.
    let first = |invalid: bool| {
        verdicts
            .iter()
            .enumerate()
            .find_map(|(index, verdict)| match (&verdict.status, invalid) {
                (Status::Invalid { pointer, message }, true)
                | (Status::Unchecked { pointer, message }, false) => {
                    Some((at(index, pointer), message.clone()))
                }
                _ => None,
            })
    };
    if let Some((pointer, message)) = first(true) {
        return Verdict::invalid(kind, pointer, message);
    }
    if let Some((pointer, message)) = first(false) {
        return Verdict::unchecked(kind, pointer, message);
    }
    let report: Vec<Leniency> = verdicts
        .into_iter()
        .enumerate()
        .flat_map(|(index, verdict)| {
            verdict.report.into_iter().map(move |leniency| Leniency {
                pointer: at(index, &leniency.pointer),
                ..leniency
            })
        })
        .collect();
    Verdict::valid(kind, report)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_batch_is_an_array_with_a_json_rpc_element() {
        assert!(is_batch(
            &json!([{"jsonrpc": "2.0", "method": "ping", "id": 1}])
        ));
        assert!(is_batch(&json!([1, {"method": "ping"}])));
        assert!(!is_batch(&json!([])));
        assert!(!is_batch(&json!([{"type": "text", "text": "hi"}])));
        assert!(!is_batch(&json!({"jsonrpc": "2.0"})));
    }

    #[test]
    fn the_verdict_is_the_first_invalid_element_at_its_place_in_the_batch() {
        let ok = || {
            Verdict::ok(Kind::Request {
                method: "ping".into(),
            })
        };
        let elements = [json!({"method": "ping"}), json!({"method": "ping"})];
        let bad = Verdict::invalid(Kind::JsonRpc, "/params/name", "bad");
        let verdict = combine(vec![ok(), bad], &elements);
        assert_eq!(
            verdict.status,
            Status::Invalid {
                pointer: "/1/params/name".into(),
                message: "bad".into()
            }
        );
        assert_eq!(combine(vec![ok(), ok()], &elements).status, Status::Ok);
        assert_eq!(
            combine(vec![ok(), ok()], &elements).kind.to_string(),
            "batch (ping, ping)"
        );
        let mixed = [json!({"method": "ping"}), json!({"result": {}})];
        assert!(matches!(
            combine(vec![ok(), ok()], &mixed).status,
            Status::Invalid { ref pointer, .. } if pointer == "/1"
        ));
    }
}
