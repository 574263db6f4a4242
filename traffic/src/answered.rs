//! The requests of a session already answered, so that a second response to one request is told
//! apart from a response to a request never seen.
//!
//! JSON-RPC ids are unique per sender while a request is pending: once its response came, the
//! sender may use the id again (for a new request, which is pending then and pairs as usual). A
//! response whose id matches no pending request but matches one answered before is a second
//! answer: the verdict names the request's line and the first response's. Only the latest
//! [`MAX_ANSWERED`] answered requests are kept (a long tap session stays bounded); a response for
//! one answered earlier is `response (request not seen)`.

use std::collections::VecDeque;

use serde_json::Value;

use super::transcript::{Request, Role};

/// How many answered requests a session remembers.
pub(crate) const MAX_ANSWERED: usize = 4096;

/// A request that was answered: the request (with its line and sender) and the response's line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Answered {
    /// The request's id.
    pub(crate) id: Value,
    /// The request.
    pub(crate) request: Request,
    /// The line of the response that answered it.
    pub(crate) response_line: usize,
}

/// The latest answered requests of a session, oldest first.
#[derive(Debug, Clone, Default)]
pub(crate) struct AnsweredRequests {
    entries: VecDeque<Answered>,
}

impl AnsweredRequests {
    /// Records that `request`, with `id`, was answered by the response on `response_line`.
    pub(crate) fn push(&mut self, id: &Value, request: Request, response_line: usize) {
        if self.entries.len() == MAX_ANSWERED {
            self.entries.pop_front();
        }
        self.entries.push_back(Answered {
            id: id.clone(),
            request,
            response_line,
        });
    }

    /// The latest answered request with `id` that a response from `responder` (`None`: either
    /// side) could answer: one sent by the other side, or by a side not known.
    pub(crate) fn find(&self, id: &Value, responder: Option<Role>) -> Option<&Answered> {
        self.entries.iter().rev().find(|answered| {
            answered.id == *id
                && match (responder, answered.request.from) {
                    (Some(responder), Some(sender)) => sender == responder.other(),
                    _ => true,
                }
        })
    }

    /// Forgets every answered request (a new session).
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::verdict::Protocol;

    fn request(from: Option<Role>, line: usize) -> Request {
        Request {
            method: "session/new".to_owned(),
            protocol: Protocol::Acp,
            task: false,
            from,
            line,
        }
    }

    #[test]
    fn finds_the_latest_answer_from_the_other_side_and_stays_bounded() {
        let mut answered = AnsweredRequests::default();
        answered.push(&json!(1), request(Some(Role::Client), 1), 2);
        answered.push(&json!(1), request(Some(Role::Client), 3), 4);
        let found = answered
            .find(&json!(1), Some(Role::Peer))
            .map(|a| a.response_line);
        assert_eq!(found, Some(4));
        // The client does not answer its own requests; `"1"` is another id.
        assert_eq!(answered.find(&json!(1), Some(Role::Client)), None);
        assert_eq!(answered.find(&json!("1"), None), None);
        for line in 0..MAX_ANSWERED {
            answered.push(&json!(2), request(None, line), line);
        }
        assert_eq!(answered.find(&json!(1), None), None);
        answered.clear();
        assert_eq!(answered.find(&json!(2), None), None);
    }
}
