//! Transcript lines and the pairing of JSON-RPC requests with what answers or refers to them, by
//! `id` *and* direction: what the MCP → ACP relay ([`crate::relay`]) and `toolcall validate`
//! (the crate `toolcall-traffic`) both read.
//!
//! In ACP (and MCP) both sides send requests, and each side numbers its own: the client's
//! `tools/call` `3` and the server's `sampling/createMessage` `3` can be pending at the same
//! time. A response with `"id": 3` answers the one the *other* side sent; a
//! `notifications/cancelled` with `"requestId": 3` cancels the one its *own* sender sent.
//!
//! A line of NDJSON is either a bare message or a wrapper that says who sent it:
//!
//! ```json
//! {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", ...}}
//! {"from": "server", "text": "a line that was not JSON"}
//! ```
//!
//! With wrappers the direction is exact. With bare lines the direction of a request is inferred
//! from its method where the schema says which side sends it, and otherwise unknown; a message
//! of unknown direction may refer to a request of either side, and when requests with its id are
//! pending in more than one direction, the pairing is ambiguous and the caller says so.

use serde_json::Value;

/// Who sent a message: the client, or the other side (an ACP agent, an MCP server).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The client (`"from": "client"`).
    Client,
    /// An ACP agent (`"from": "agent"`).
    Agent,
    /// An MCP server (`"from": "server"`).
    Server,
}

impl Side {
    /// The wire name: `client`, `agent` or `server`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Client => "client",
            Self::Agent => "agent",
            Self::Server => "server",
        }
    }

    /// The side named `name` on the wire.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "client" => Some(Self::Client),
            "agent" => Some(Self::Agent),
            "server" => Some(Self::Server),
            _ => None,
        }
    }

    /// The role in pairing: agent and server are the same (the side that is not the client).
    pub fn role(self) -> Role {
        match self {
            Self::Client => Role::Client,
            Self::Agent | Self::Server => Role::Peer,
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Side {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// A side as pairing sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The client.
    Client,
    /// The agent or server.
    Peer,
}

impl Role {
    /// The side that answers this side's requests.
    pub fn other(self) -> Self {
        match self {
            Self::Client => Self::Peer,
            Self::Peer => Self::Client,
        }
    }
}

/// A transcript line as read: who sent it (when the line says), and the message.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    /// A bare message, or a wrapper's `message` (parsed).
    Message {
        /// The wrapper's `from`; `None` for a bare message.
        from: Option<Side>,
        /// The message.
        value: Value,
    },
    /// A wrapper's `text`: a line that was not JSON.
    Text {
        /// The wrapper's `from`.
        from: Side,
        /// The line as it was.
        text: String,
    },
}

/// A record of a `toolcall tap` transcript that is not a message: each has exactly these
/// members and a known `from`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TapRecord<'a> {
    /// `{"from", "text", "truncated": true, "bytes"}`: a message over the tap's byte limit, of
    /// which the transcript kept the first bytes.
    Truncated {
        /// Who sent the message.
        from: Side,
        /// Its first bytes, as the transcript kept them.
        text: &'a str,
        /// Its length in bytes.
        bytes: u64,
    },
    /// `{"from", "not_checked_bytes"}`: bytes relayed but not checked (checking fell behind).
    NotChecked {
        /// Who sent the bytes.
        from: Side,
        /// How many.
        bytes: u64,
    },
}

/// `value` when it is one of the tap's records.
pub fn tap_record(value: &Value) -> Option<TapRecord<'_>> {
    let object = value.as_object()?;
    let from = Side::from_name(object.get("from")?.as_str()?)?;
    match object.len() {
        2 => Some(TapRecord::NotChecked {
            from,
            bytes: object.get("not_checked_bytes")?.as_u64()?,
        }),
        4 if object.get("truncated") == Some(&Value::Bool(true)) => Some(TapRecord::Truncated {
            from,
            text: object.get("text")?.as_str()?,
            bytes: object.get("bytes")?.as_u64()?,
        }),
        _ => None,
    }
}

/// Unwraps `{"from": ..., "message": ...}` and `{"from": ..., "text": ...}`; any other value is a
/// bare message. A wrapper has exactly those two members and a known `from`.
pub fn read_line(value: Value) -> Line {
    let side = match &value {
        Value::Object(object) if object.len() == 2 => object
            .get("from")
            .and_then(Value::as_str)
            .and_then(Side::from_name),
        _ => None,
    };
    let Some(from) = side else {
        return Line::Message { from: None, value };
    };
    let Value::Object(mut object) = value else {
        unreachable!("matched an object above")
    };
    if let Some(message) = object.remove("message") {
        return Line::Message {
            from: Some(from),
            value: message,
        };
    }
    match object.remove("text") {
        Some(Value::String(text)) => Line::Text { from, text },
        other => {
            // `from` and something else: not a wrapper after all.
            if let Some(other) = other {
                object.insert("text".to_owned(), other);
            }
            object.insert("from".to_owned(), Value::from(from.name()));
            Line::Message {
                from: None,
                value: Value::Object(object),
            }
        }
    }
}

/// What a response (or a message referring to a request) finds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer<T> {
    /// This request.
    Paired(T),
    /// No pending request has the id (in the direction it could refer to).
    NotSeen,
    /// Requests with the id are pending in more than one direction and the message does not say
    /// which side sent it, in the order they were sent.
    Ambiguous(Vec<T>),
}

/// One request waiting for its response.
#[derive(Debug, Clone, PartialEq)]
struct Entry<K, T> {
    id: K,
    /// Who sent it, when known (a wrapper, or the method's schema).
    from: Option<Role>,
    request: T,
    /// Responses that may have answered it, received while the pairing was ambiguous.
    maybe_answered: usize,
}

/// The requests of one session still waiting for their response, oldest first, each with its
/// id (`K`: a JSON value, or an exact key), who sent it and what the caller keeps of it (`T`).
#[derive(Debug, Clone)]
pub struct Pending<K, T> {
    entries: Vec<Entry<K, T>>,
}

impl<K, T> Default for Pending<K, T> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
        }
    }
}

impl<K: PartialEq, T: Clone> Pending<K, T> {
    /// Records a request with `id` sent by `from` (`None` when unknown).
    pub fn request(&mut self, id: K, from: Option<Role>, request: T) {
        self.entries.push(Entry {
            id,
            from,
            request,
            maybe_answered: 0,
        });
    }

    /// Forgets every pending request (a new session).
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The pending requests: id, sender when known, and what the caller keeps.
    pub fn iter(&self) -> impl Iterator<Item = (&K, Option<Role>, &T)> {
        self.entries
            .iter()
            .map(|entry| (&entry.id, entry.from, &entry.request))
    }

    /// The latest pending request with `id` that `sender` sent (a request whose sender is not
    /// known is nobody's here): a second request with that id from `sender` reuses a pending id.
    pub fn pending_from(&self, id: &K, sender: Role) -> Option<&T> {
        self.entries
            .iter()
            .rev()
            .find(|entry| entry.id == *id && entry.from == Some(sender))
            .map(|entry| &entry.request)
    }

    /// Finds (and removes, once answered) the request a response with `id` answers; `from` is who
    /// sent the response, when known.
    ///
    /// The candidates are the latest pending request with `id` of each direction the response
    /// can answer: the other side's when `from` is known (and requests of unknown direction),
    /// every direction otherwise. One candidate is paired. Several are ambiguous; none is
    /// removed then, until as many ambiguous responses as candidates have come, which answered
    /// them all.
    pub fn answer(&mut self, id: &K, from: Option<Role>) -> Answer<T> {
        self.take(id, from.map(Role::other))
    }

    /// The request a response with `id` from `from` would be paired with by [`Pending::answer`]
    /// when there is exactly one candidate; `None` when there is none or the pairing would be
    /// ambiguous. Changes nothing.
    pub fn peek_answer(&self, id: &K, from: Option<Role>) -> Option<&T> {
        let sender = from.map(Role::other);
        let mut found: Option<&Entry<K, T>> = None;
        for pending in self.entries.iter().rev() {
            if pending.id != *id {
                continue;
            }
            let possible = match (sender, pending.from) {
                (Some(sender), Some(sent)) => sent == sender,
                _ => true,
            };
            if !possible {
                continue;
            }
            match found {
                None => found = Some(pending),
                // The latest of one direction is the candidate; an earlier one of the same
                // direction is not another.
                Some(first) if first.from == pending.from => {}
                Some(_) => return None,
            }
        }
        found.map(|entry| &entry.request)
    }

    /// Finds (and removes) the request with `id` that `sender` sent (`None`: either side), as a
    /// `notifications/cancelled` of `sender` refers to it; ambiguous as [`Pending::answer`].
    pub fn cancel(&mut self, id: &K, sender: Option<Role>) -> Answer<T> {
        self.take(id, sender)
    }

    /// The request with `id` sent by `sender` (`None`: either side).
    fn take(&mut self, id: &K, sender: Option<Role>) -> Answer<T> {
        let mut candidates: Vec<usize> = Vec::new();
        for (index, pending) in self.entries.iter().enumerate().rev() {
            if pending.id != *id {
                continue;
            }
            let possible = match (sender, pending.from) {
                (Some(sender), Some(sent)) => sent == sender,
                _ => true,
            };
            let duplicate = candidates
                .iter()
                .any(|&seen| self.entries[seen].from == pending.from);
            if possible && !duplicate {
                candidates.push(index);
            }
        }
        candidates.sort_unstable();
        match candidates.as_slice() {
            [] => Answer::NotSeen,
            [only] => Answer::Paired(self.entries.remove(*only).request),
            several => {
                let requests = several
                    .iter()
                    .map(|&index| self.entries[index].request.clone())
                    .collect();
                let count = several.len();
                for &index in several {
                    self.entries[index].maybe_answered += 1;
                }
                if several
                    .iter()
                    .all(|&index| self.entries[index].maybe_answered >= count)
                {
                    for &index in several.iter().rev() {
                        self.entries.remove(index);
                    }
                }
                Answer::Ambiguous(requests)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn responses_answer_the_other_side_and_cancellations_their_own() {
        let mut pending: Pending<Value, &str> = Pending::default();
        pending.request(json!(3), Some(Role::Client), "tools/call");
        pending.request(json!(3), Some(Role::Peer), "sampling/createMessage");
        // The server cancels its own request 3, not the client's.
        assert_eq!(
            pending.cancel(&json!(3), Some(Role::Peer)),
            Answer::Paired("sampling/createMessage")
        );
        assert_eq!(pending.cancel(&json!(3), Some(Role::Peer)), Answer::NotSeen);
        // The server's response answers the client's request.
        assert_eq!(
            pending.answer(&json!(3), Some(Role::Peer)),
            Answer::Paired("tools/call")
        );
        assert_eq!(pending.peek_answer(&json!(3), Some(Role::Peer)), None);
        // Peeking finds what answering pairs, and changes nothing.
        pending.request(json!(5), Some(Role::Client), "tools/list");
        pending.request(json!(5), Some(Role::Client), "tools/call");
        assert_eq!(
            pending.peek_answer(&json!(5), Some(Role::Peer)),
            Some(&"tools/call")
        );
        assert_eq!(pending.peek_answer(&json!(5), Some(Role::Client)), None);
        assert_eq!(
            pending.answer(&json!(5), Some(Role::Peer)),
            Answer::Paired("tools/call")
        );
        assert_eq!(
            pending.answer(&json!(5), Some(Role::Peer)),
            Answer::Paired("tools/list")
        );
        // A request of unknown direction is a candidate for either side.
        pending.request(json!(1), Some(Role::Client), "tools/call");
        pending.request(json!(1), None, "ping");
        assert_eq!(pending.peek_answer(&json!(1), None), None);
        assert_eq!(
            pending.peek_answer(&json!(1), Some(Role::Peer)),
            None,
            "the client's request and the one of unknown sender"
        );
        assert_eq!(
            pending.answer(&json!(1), None),
            Answer::Ambiguous(vec!["tools/call", "ping"])
        );
        assert_eq!(pending.iter().count(), 2);
        assert_eq!(
            pending.answer(&json!(1), None),
            Answer::Ambiguous(vec!["tools/call", "ping"])
        );
        assert_eq!(pending.iter().count(), 0);
    }

    #[test]
    fn wrappers_carry_the_direction() {
        let line = read_line(json!({"from": "agent", "message": {"jsonrpc": "2.0", "id": 1}}));
        assert_eq!(
            line,
            Line::Message {
                from: Some(Side::Agent),
                value: json!({"jsonrpc": "2.0", "id": 1})
            }
        );
        assert_eq!(
            read_line(json!({"from": "server", "text": "oops"})),
            Line::Text {
                from: Side::Server,
                text: "oops".into()
            }
        );
        // Not wrappers: an unknown side, a third member, a `text` that is not a string.
        for value in [
            json!({"from": "proxy", "message": {}}),
            json!({"from": "client", "message": {}, "x": 1}),
            json!({"from": "client", "text": 1}),
        ] {
            assert_eq!(
                read_line(value.clone()),
                Line::Message { from: None, value }
            );
        }
        assert_eq!(Side::Server.role(), Role::Peer);
        assert_eq!(Side::Client.role().other(), Role::Peer);
    }
}
