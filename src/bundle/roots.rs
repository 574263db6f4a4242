//! The root types: the definitions a consumer validates a whole document against.

/// A definition a consumer validates a whole document against: what a gateway sends, what a
/// runtime stores or emits, what an ACP peer puts in a message's `params` or `result`.
///
/// `toolcall schemas list` prints them; the golden vectors are grouped by them
/// (`tests/vectors/<name>/`). Definitions that only appear inside these (ids, limits, content
/// blocks...) are not root types, and neither is the ACP root `anyOf` of JSON-RPC messages (its
/// `params` admit any value through the extension methods; `toolcall validate` checks whole
/// messages by method).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct RootType {
    /// Unique name: the family, a dot and the definition name (`acp.ToolCall` and
    /// `canonical.ToolCall` are different types).
    pub name: &'static str,
    /// The bundle file that defines it, relative to the bundle root.
    pub file: &'static str,
    /// JSON pointer of the definition in that file, as a URI fragment (`#/$defs/...`).
    pub pointer: &'static str,
    /// The Rust type that decodes it.
    pub rust: &'static str,
}

impl RootType {
    /// The absolute URI of the definition (its file's `$id` and [`Self::pointer`]), the `$ref`
    /// a validator is built from.
    #[must_use]
    pub fn uri(&self) -> String {
        format!("{}{}{}", super::BASE_URI, self.file, self.pointer)
    }
}

const fn root(
    name: &'static str,
    file: &'static str,
    pointer: &'static str,
    rust: &'static str,
) -> RootType {
    RootType {
        name,
        file,
        pointer,
        rust,
    }
}

/// Every root type, route first, then canonical, then ACP.
pub const ROOT_TYPES: &[RootType] = &[
    root(
        "route.ToolCallRequest",
        "route/tool-call-request.schema.json",
        "#/$defs/ToolCallRequest",
        "toolcall_contracts::route::ToolCallRequest",
    ),
    root(
        "canonical.ToolSpec",
        "canonical/tool-spec.schema.json",
        "#/$defs/ToolSpec",
        "toolcall_contracts::canonical::ToolSpec",
    ),
    root(
        "canonical.ToolCall",
        "canonical/tool-call.schema.json",
        "#/$defs/ToolCall",
        "toolcall_contracts::canonical::ToolCall",
    ),
    root(
        "canonical.CanonicalToolResult",
        "canonical/tool-result.schema.json",
        "#/$defs/CanonicalToolResult",
        "toolcall_contracts::canonical::CanonicalToolResult",
    ),
    root(
        "canonical.ToolLifecycleEvent",
        "canonical/lifecycle.schema.json",
        "#/$defs/ToolLifecycleEvent",
        "toolcall_contracts::canonical::ToolLifecycleEvent",
    ),
    root(
        "acp.SessionNotification",
        "acp/acp.schema.json",
        "#/$defs/SessionNotification",
        "toolcall_contracts::acp::SessionNotification",
    ),
    root(
        "acp.ToolCall",
        "acp/acp.schema.json",
        "#/$defs/ToolCall",
        "toolcall_contracts::acp::ToolCall",
    ),
    root(
        "acp.ToolCallUpdate",
        "acp/acp.schema.json",
        "#/$defs/ToolCallUpdate",
        "toolcall_contracts::acp::ToolCallUpdate",
    ),
    root(
        "acp.RequestPermissionRequest",
        "acp/acp.schema.json",
        "#/$defs/RequestPermissionRequest",
        "toolcall_contracts::acp::RequestPermissionRequest",
    ),
    root(
        "acp.RequestPermissionResponse",
        "acp/acp.schema.json",
        "#/$defs/RequestPermissionResponse",
        "toolcall_contracts::acp::RequestPermissionResponse",
    ),
    root(
        "acp.CreateElicitationRequest",
        "acp/acp.schema.json",
        "#/$defs/CreateElicitationRequest",
        "toolcall_contracts::acp::CreateElicitationRequest",
    ),
];

/// The root type named `name` (such as `acp.SessionNotification`).
#[must_use]
pub fn root_type(name: &str) -> Option<&'static RootType> {
    ROOT_TYPES.iter().find(|root| root.name == name)
}
