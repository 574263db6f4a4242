//! Which protocol a session speaks, recognized from its opening exchange.

use std::fmt;

use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::Value;

/// The `_meta` key that carries the protocol version on every MCP 2026-07-28 request.
pub const MCP_VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";

/// The protocol of a session and its version, as the opening exchange says.
///
/// - ACP: `initialize` whose `params.protocolVersion` is an integer (`1`);
/// - MCP up to 2025-11-25: `initialize` whose `params.protocolVersion` is a date string
///   (`"2025-11-25"`); the version is the one the response chose;
/// - MCP 2026-07-28 and later: `server/discover` (no `initialize`), or any request whose
///   `params._meta` carries [`MCP_VERSION_META`].
///
/// Displays as `ACP protocol version 1` or `MCP 2025-11-25`; serializes as
/// `{"protocol": "acp", "version": 1}` or `{"protocol": "mcp", "version": "2025-11-25"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Protocol {
    /// The Agent Client Protocol.
    Acp {
        /// `protocolVersion` (an integer on the wire).
        version: u64,
    },
    /// The Model Context Protocol.
    Mcp {
        /// `protocolVersion` (a date on the wire), e.g. `2025-11-25`.
        version: String,
    },
}

impl Protocol {
    /// What the tap calls the child in this protocol: `agent` (ACP) or `server` (MCP).
    #[must_use]
    pub const fn child_role(&self) -> &'static str {
        match self {
            Self::Acp { .. } => "agent",
            Self::Mcp { .. } => "server",
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Acp { version } => write!(f, "ACP protocol version {version}"),
            Self::Mcp { version } => write!(f, "MCP {version}"),
        }
    }
}

impl Serialize for Protocol {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut state = serializer.serialize_struct("Protocol", 2)?;
        match self {
            Self::Acp { version } => {
                state.serialize_field("protocol", "acp")?;
                state.serialize_field("version", version)?;
            }
            Self::Mcp { version } => {
                state.serialize_field("protocol", "mcp")?;
                state.serialize_field("version", version)?;
            }
        }
        state.end()
    }
}

/// How a request opens (or joins) a session, when it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Opening {
    /// `initialize` (ACP, or MCP before 2026-07-28): a new session; its response names the
    /// version.
    Initialize(Protocol),
    /// `server/discover` (MCP 2026-07-28): a new session; its response lists the versions.
    Discover(Protocol),
    /// Another request carrying an MCP version in `_meta`: the session's protocol when none was
    /// recognized yet.
    Meta(Protocol),
}

/// What `request` (a JSON-RPC request object) says about the session's protocol.
pub(crate) fn opening(request: &Value) -> Option<Opening> {
    let method = request.get("method")?.as_str()?;
    let params = request.get("params");
    let meta_version = params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(MCP_VERSION_META))
        .and_then(Value::as_str);
    match method {
        "initialize" => match params?.get("protocolVersion")? {
            Value::Number(n) => n
                .as_u64()
                .map(|version| Opening::Initialize(Protocol::Acp { version })),
            Value::String(version) => Some(Opening::Initialize(Protocol::Mcp {
                version: version.clone(),
            })),
            _ => None,
        },
        "server/discover" => Some(Opening::Discover(Protocol::Mcp {
            version: meta_version
                .unwrap_or(toolcall_schema::versions::newest_mcp())
                .to_owned(),
        })),
        _ => meta_version.map(|version| {
            Opening::Meta(Protocol::Mcp {
                version: version.to_owned(),
            })
        }),
    }
}

/// The version a successful response to the opening request settled on, when it names one
/// other than what was offered: `result.protocolVersion` for `initialize`; for
/// `server/discover`, the offered version if `result.supportedVersions` lists it, else the
/// first listed.
pub(crate) fn negotiated(offered: &Opening, result: &Value) -> Option<Protocol> {
    match offered {
        Opening::Initialize(_) => match result.get("protocolVersion")? {
            Value::Number(n) => n.as_u64().map(|version| Protocol::Acp { version }),
            Value::String(version) => Some(Protocol::Mcp {
                version: version.clone(),
            }),
            _ => None,
        },
        Opening::Discover(Protocol::Mcp { version }) => {
            let supported = result.get("supportedVersions")?.as_array()?;
            if supported.iter().any(|v| v.as_str() == Some(version)) {
                return Some(Protocol::Mcp {
                    version: version.clone(),
                });
            }
            let first = supported.first()?.as_str()?;
            Some(Protocol::Mcp {
                version: first.to_owned(),
            })
        }
        Opening::Discover(Protocol::Acp { .. }) | Opening::Meta(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn initialize_tells_acp_from_mcp_by_the_type_of_protocol_version() {
        let acp = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                         "params": {"protocolVersion": 1, "clientCapabilities": {}}});
        assert_eq!(
            opening(&acp),
            Some(Opening::Initialize(Protocol::Acp { version: 1 }))
        );
        let mcp = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                         "params": {"protocolVersion": "2025-06-18", "capabilities": {}}});
        let offered = opening(&mcp).expect("mcp");
        assert_eq!(
            offered,
            Opening::Initialize(Protocol::Mcp {
                version: "2025-06-18".into()
            })
        );
        assert_eq!(
            negotiated(&offered, &json!({"protocolVersion": "2025-03-26"})),
            Some(Protocol::Mcp {
                version: "2025-03-26".into()
            })
        );
        assert_eq!(
            opening(&json!({"method": "initialize", "params": {"protocolVersion": 1.5}})),
            None
        );
    }

    #[test]
    fn mcp_2026_opens_with_discover_or_names_its_version_in_meta() {
        let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
            "params": {"_meta": {MCP_VERSION_META: "2026-07-28"}}});
        let offered = opening(&discover).expect("discover");
        assert_eq!(
            negotiated(&offered, &json!({"supportedVersions": ["2026-07-28"]})),
            Some(Protocol::Mcp {
                version: "2026-07-28".into()
            })
        );
        let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "add", "_meta": {MCP_VERSION_META: "2026-07-28"}}});
        assert_eq!(
            opening(&call),
            Some(Opening::Meta(Protocol::Mcp {
                version: "2026-07-28".into()
            }))
        );
        assert_eq!(
            opening(&json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"})),
            None
        );
    }

    #[test]
    fn protocols_display_and_serialize() {
        let acp = Protocol::Acp { version: 1 };
        let mcp = Protocol::Mcp {
            version: "2025-11-25".into(),
        };
        assert_eq!(acp.to_string(), "ACP protocol version 1");
        assert_eq!(mcp.to_string(), "MCP 2025-11-25");
        assert_eq!(
            serde_json::to_value(&acp).unwrap(),
            json!({"protocol": "acp", "version": 1})
        );
        assert_eq!(
            serde_json::to_value(&mcp).unwrap(),
            json!({"protocol": "mcp", "version": "2025-11-25"})
        );
        assert_eq!((acp.child_role(), mcp.child_role()), ("agent", "server"));
    }
}
