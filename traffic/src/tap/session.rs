//! [`Session`]: what the traffic has said so far about the protocol and the tool calls in flight.

use serde_json::Value;

use super::lifecycle::{AcpToolCalls, LifecycleProblem, McpProgress};
use super::protocol::{negotiated, opening, Opening, Protocol};
use super::Side;

/// What [`Session::observe`] found in one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Observed {
    /// The session's protocol, first recognized or changed by this message.
    Recognized(Protocol),
    /// A tool call's life went wrong.
    Problem(LifecycleProblem),
}

/// Protocol recognition and tool-call lifecycles across one stdio connection. Each `initialize`
/// or `server/discover` request starts a new session: the tool calls and tokens followed so far
/// are forgotten.
#[derive(Debug, Default)]
pub(crate) struct Session {
    protocol: Option<Protocol>,
    /// The opening request still waiting for its response: its side, its id (as JSON) and what
    /// it offered.
    opening: Option<(Side, String, Opening)>,
    acp: AcpToolCalls,
    mcp: McpProgress,
}

impl Session {
    /// The protocol recognized so far.
    pub(crate) const fn protocol(&self) -> Option<&Protocol> {
        self.protocol.as_ref()
    }

    /// Follows one JSON message from `side` on transcript line `line`.
    pub(crate) fn observe(&mut self, side: Side, line: usize, message: &Value) -> Vec<Observed> {
        if let Value::Array(elements) = message {
            // A JSON-RPC batch (MCP 2025-03-26): its messages in order.
            return elements
                .iter()
                .filter(|element| element.is_object())
                .flat_map(|element| self.observe(side, line, element))
                .collect();
        }
        let mut found = Vec::new();
        let Some(object) = message.as_object() else {
            return found;
        };
        let has_id = object.contains_key("id");
        if object.contains_key("method") {
            if has_id {
                if side == Side::Client {
                    self.recognize(side, message, &mut found);
                }
                found.extend(self.mcp.request(side, line, message).map(Observed::Problem));
            } else {
                if object.get("method").and_then(Value::as_str) == Some("session/update") {
                    found.extend(self.acp.observe(line, message).map(Observed::Problem));
                }
                found.extend(
                    self.mcp
                        .notification(side, line, message)
                        .map(Observed::Problem),
                );
            }
        } else if has_id {
            self.settle(side, message, &mut found);
            self.mcp.response(side, line, message);
        }
        found
    }

    /// A request that opens a session, or names its MCP version.
    fn recognize(&mut self, side: Side, request: &Value, found: &mut Vec<Observed>) {
        let Some(opened) = opening(request) else {
            return;
        };
        let protocol = match &opened {
            Opening::Initialize(protocol) | Opening::Discover(protocol) => {
                *self = Self::default();
                let id = request.get("id").map(Value::to_string).unwrap_or_default();
                self.opening = Some((side, id, opened.clone()));
                protocol.clone()
            }
            Opening::Meta(protocol) if self.protocol.is_none() => protocol.clone(),
            Opening::Meta(_) => return,
        };
        self.protocol = Some(protocol.clone());
        found.push(Observed::Recognized(protocol));
    }

    /// The response to the opening request: the version it settled on.
    fn settle(&mut self, side: Side, response: &Value, found: &mut Vec<Observed>) {
        let Some((requester, id, _)) = &self.opening else {
            return;
        };
        let answers = *requester == side.other()
            && response.get("id").map(Value::to_string).as_deref() == Some(id.as_str());
        if !answers {
            return;
        }
        let Some((_, _, offered)) = self.opening.take() else {
            return;
        };
        let Some(result) = response.get("result") else {
            return;
        };
        if let Some(protocol) = negotiated(&offered, result) {
            if self.protocol.as_ref() != Some(&protocol) {
                self.protocol = Some(protocol.clone());
                found.push(Observed::Recognized(protocol));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_mcp_server_may_answer_with_an_older_version() {
        let mut session = Session::default();
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                          "params": {"protocolVersion": "2025-11-25"}});
        assert_eq!(
            session.observe(Side::Client, 1, &init),
            [Observed::Recognized(Protocol::Mcp {
                version: "2025-11-25".into()
            })]
        );
        // A response with the same id from the client side answers nothing.
        let echo = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2024-11-05"}});
        assert_eq!(session.observe(Side::Client, 2, &echo), []);
        assert_eq!(
            session.observe(Side::Child, 3, &echo),
            [Observed::Recognized(Protocol::Mcp {
                version: "2024-11-05".into()
            })]
        );
        assert_eq!(session.protocol().map(Protocol::child_role), Some("server"));
    }

    #[test]
    fn a_new_initialize_starts_a_new_session() {
        let mut session = Session::default();
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                          "params": {"protocolVersion": 1}});
        let call = json!({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s",
            "update": {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "t"}}});
        session.observe(Side::Client, 1, &init);
        assert_eq!(session.observe(Side::Child, 2, &call), []);
        assert_eq!(session.observe(Side::Child, 3, &call).len(), 1);
        session.observe(Side::Client, 4, &init);
        assert_eq!(session.observe(Side::Child, 5, &call), []);
    }
}
