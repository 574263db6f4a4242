//! The MCP types the conversions take and give, in every version that has them.
//!
//! One implementation serves every version: each conversion works on the wire shape of the
//! members it maps (`name`, `inputSchema`, `arguments`, `_meta.progressToken`, `content`,
//! `structuredContent`, `isError`, ...), which MCP 2025-06-18, 2025-11-25 and 2026-07-28 define
//! alike, and the version's generated type is encoded to that shape and decoded from it at the
//! edge. The traits below are implemented (sealed) for each of those versions whose feature is
//! on; what differs between them is stated on the trait: 2026-07-28 requires `resultType` in a
//! result (written `"complete"`), lets `structuredContent` be any JSON value (older versions: an
//! object) and `outputSchema` any JSON Schema object (older versions: `"type": "object"` at its
//! root), and requires `_meta` in request params. MCP 2024-11-05 and 2025-03-26 have no
//! `structuredContent` and no `outputSchema`, and are not served.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::pairing::Role;

mod sealed {
    pub trait Sealed {}
}

/// What every MCP version's type here shares: its wire form and its version.
pub trait McpType: Serialize + DeserializeOwned + Clone + sealed::Sealed {
    /// The MCP protocol version of the type (`"2025-11-25"`).
    const PROTOCOL_VERSION: &'static str;
}

/// An MCP `Tool` (`tools/list`): [`super::mcp_tool`].
pub trait McpTool: McpType {
    /// Whether `outputSchema` may be any JSON Schema object (2026-07-28) rather than one with
    /// `"type": "object"` at its root (2025-06-18, 2025-11-25).
    const OUTPUT_SCHEMA_ANY: bool;
}

/// The `params` of an MCP `tools/call` request: [`super::gateway`].
pub trait McpCallToolParams: McpType {
    /// The version's JSON-RPC `RequestId` (a string or an integer).
    type RequestId: Serialize + DeserializeOwned + Clone;
}

/// An MCP `CallToolResult`: [`super::mcp_result`].
pub trait McpCallToolResult: McpType {
    /// Whether `structuredContent` may be any JSON value (2026-07-28) rather than an object.
    const STRUCTURED_CONTENT_ANY: bool;
    /// Adds the members this version requires beyond the common shape (2026-07-28:
    /// `"resultType": "complete"`).
    #[doc(hidden)]
    fn complete(result: &mut Map<String, Value>);
}

/// The `params` of an MCP `notifications/progress`: [`super::acp_updates`].
pub trait McpProgressParams: McpType {}

macro_rules! version {
    ($cfg:meta, $module:ident, $version:literal, any: $any:literal, complete: |$result:ident| $complete:block) => {
        #[cfg($cfg)]
        mod $module {
            use toolcall_contracts::mcp::$module as mcp;
            use serde_json::{Map, Value};

            impl super::sealed::Sealed for mcp::Tool {}
            impl super::McpType for mcp::Tool {
                const PROTOCOL_VERSION: &'static str = $version;
            }
            impl super::McpTool for mcp::Tool {
                const OUTPUT_SCHEMA_ANY: bool = $any;
            }

            impl super::sealed::Sealed for mcp::CallToolRequestParams {}
            impl super::McpType for mcp::CallToolRequestParams {
                const PROTOCOL_VERSION: &'static str = $version;
            }
            impl super::McpCallToolParams for mcp::CallToolRequestParams {
                type RequestId = mcp::RequestId;
            }

            impl super::sealed::Sealed for mcp::CallToolResult {}
            impl super::McpType for mcp::CallToolResult {
                const PROTOCOL_VERSION: &'static str = $version;
            }
            impl super::McpCallToolResult for mcp::CallToolResult {
                const STRUCTURED_CONTENT_ANY: bool = $any;
                fn complete($result: &mut Map<String, Value>) $complete
            }

            impl super::sealed::Sealed for mcp::ProgressNotificationParams {}
            impl super::McpType for mcp::ProgressNotificationParams {
                const PROTOCOL_VERSION: &'static str = $version;
            }
            impl super::McpProgressParams for mcp::ProgressNotificationParams {}
        }
    };
}

// 2025-11-25 is always on (`all()` holds); the others with their features.
version!(feature = "mcp-2025-06-18", v2025_06_18, "2025-06-18", any: false, complete: |_result| {});
version!(all(), v2025_11_25, "2025-11-25", any: false, complete: |_result| {});
version!(feature = "mcp-2026-07-28", v2026_07_28, "2026-07-28", any: true, complete: |result| {
    result
        .entry("resultType")
        .or_insert_with(|| Value::String("complete".to_owned()));
});

/// Encodes `value` to its JSON object (every MCP type here is an object on the wire).
pub(crate) fn to_object<T: Serialize>(value: &T) -> Map<String, Value> {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => map,
        // The generated MCP types encode to objects and their encoders do not fail.
        _ => Map::new(),
    }
}

/// Decodes an MCP type from its JSON object, the serde message on failure.
pub(crate) fn from_object<T: DeserializeOwned>(object: Map<String, Value>) -> Result<T, String> {
    serde_json::from_value(Value::Object(object)).map_err(|error| error.to_string())
}

/// The methods of each side's requests and notifications, as the generated unions of every
/// served version whose feature is on list them (`ClientRequest`, `ServerRequest`,
/// `ClientNotification`, `ServerNotification`; 2026-07-28 has no server requests).
struct Methods {
    client_requests: Vec<&'static [&'static str]>,
    server_requests: Vec<&'static [&'static str]>,
    client_notifications: Vec<&'static [&'static str]>,
    server_notifications: Vec<&'static [&'static str]>,
}

fn methods() -> Methods {
    use toolcall_contracts::__private::tagged::Tagged;
    let mut methods = Methods {
        client_requests: Vec::new(),
        server_requests: Vec::new(),
        client_notifications: Vec::new(),
        server_notifications: Vec::new(),
    };
    macro_rules! add {
        ($cfg:meta, $module:ident, requests: [$($request:ident),*], notifications: [$($notification:ident),*]) => {
            #[cfg($cfg)]
            {
                use toolcall_contracts::mcp::$module as mcp;
                methods.client_requests.push(<mcp::ClientRequest as Tagged>::VALUES);
                $(methods.server_requests.push(<mcp::$request as Tagged>::VALUES);)*
                $(methods.client_notifications.push(<mcp::$notification as Tagged>::VALUES);)*
                methods.server_notifications.push(<mcp::ServerNotification as Tagged>::VALUES);
            }
        };
    }
    add!(feature = "mcp-2025-06-18", v2025_06_18, requests: [ServerRequest], notifications: [ClientNotification]);
    add!(all(), v2025_11_25, requests: [ServerRequest], notifications: [ClientNotification]);
    // 2026-07-28: servers send no requests, and `ClientNotification` is one notification
    // (`notifications/cancelled`), not a union.
    add!(feature = "mcp-2026-07-28", v2026_07_28, requests: [], notifications: []);
    methods
}

/// Who sends a request or notification of `method`, when only one side does in every served
/// version: [`Role::Client`] for `tools/call`, [`Role::Peer`] (the server) for
/// `sampling/createMessage`; `None` for a method both sides send (`ping`, `tasks/get`,
/// `notifications/progress`, `notifications/cancelled`) or neither.
pub(crate) fn sender(method: &str, request: bool) -> Option<Role> {
    static METHODS: std::sync::OnceLock<Methods> = std::sync::OnceLock::new();
    let methods = METHODS.get_or_init(methods);
    let (client, server) = if request {
        (&methods.client_requests, &methods.server_requests)
    } else {
        (&methods.client_notifications, &methods.server_notifications)
    };
    let lists =
        |lists: &Vec<&'static [&'static str]>| lists.iter().any(|list| list.contains(&method));
    match (lists(client), lists(server)) {
        (true, false) => Some(Role::Client),
        (false, true) => Some(Role::Peer),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sender_of_a_method_comes_from_the_generated_unions() {
        assert_eq!(sender("tools/call", true), Some(Role::Client));
        assert_eq!(sender("initialize", true), Some(Role::Client));
        assert_eq!(sender("sampling/createMessage", true), Some(Role::Peer));
        assert_eq!(sender("elicitation/create", true), Some(Role::Peer));
        assert_eq!(sender("roots/list", true), Some(Role::Peer));
        for either in [
            "ping",
            "tasks/get",
            "tasks/list",
            "tasks/cancel",
            "tasks/result",
        ] {
            assert_eq!(sender(either, true), None, "{either}");
        }
        assert_eq!(sender("x/unknown", true), None);
        assert_eq!(sender("notifications/progress", false), None);
        assert_eq!(sender("notifications/cancelled", false), None);
        assert_eq!(
            sender("notifications/initialized", false),
            Some(Role::Client)
        );
        assert_eq!(sender("notifications/message", false), Some(Role::Peer));
    }
}
