//! MCP `tools/call` ↔ route [`ToolCallRequest`]: what a gateway forwards to a provider on a
//! bound route for a call an MCP client made, and back.
//!
//! **MCP → route** ([`to_route_request`]; pointers into the request's `params`, and into the
//! route body):
//!
//! | MCP `params` | route body | |
//! |---|---|---|
//! | `name` | `name` | the exposed name mapped back to the provider's bare name through the gateway's [`NameMap`] (`derived` when it differs), and the tool it resolved to, with its namespace (the provider), returned beside the body ([`RoutedCall::tool`]); without a map, as is |
//! | `arguments` | `arguments` | exactly as sent; absent: `{}` (`defaulted`): the route contract requires `arguments`, and MCP treats absent arguments as none; present and not an object (`null` included: MCP's schema has `arguments` an object when present, and the typed params refuse `null`) refused ([`GatewayError::ArgumentsNotObject`]), so that every body written converts back |
//! | `_meta.progressToken` | `progress_token` | a string stays a string, an integer an integer |
//! | JSON-RPC `id` | `tool_call_id` | only with [`ToolCallIdSource::RequestId`], and then reported `derived` (the route contract: a synthesized id is recorded as such); a string id as is, an integer in decimal; any other id (`1.5`, `true`, `null`) refused |
//! | other `_meta` members, `task`, unknown members | — | `dropped` |
//!
//! **Route → MCP** ([`from_route_request`]): `name` through the map to the exposed name,
//! `arguments` (must be an object), `progress_token` as `_meta.progressToken` (an integer
//! within `i64`: the route contract also takes larger unsigned ones, which MCP's types do not
//! hold); `tool_call_id`,
//! `call_key` and `schema_pin` have no MCP member and are `dropped` (the JSON-RPC `id` is the
//! client's to choose).
//!
//! ```
//! use serde_json::json;
//! use toolcall_hops::gateway::{to_route_request, GatewayOptions, ToolCallIdSource};
//! use toolcall_contracts::mcp::v2025_11_25::{CallToolRequestParams, RequestId};
//!
//! let params: CallToolRequestParams = serde_json::from_value(json!({
//!     "name": "trigger-long-running-operation",
//!     "arguments": {"duration": 0.5, "steps": 5},
//!     "_meta": {"progressToken": 19}
//! }))?;
//! let options = GatewayOptions { tool_call_id: ToolCallIdSource::RequestId };
//! let body = to_route_request(&params, Some(&RequestId::Integer(19)), None, &options)?;
//! assert_eq!(body.value.tool.name, "trigger-long-running-operation");
//! assert_eq!(serde_json::to_value(&body.value.request)?, json!({
//!     "name": "trigger-long-running-operation",
//!     "arguments": {"duration": 0.5, "steps": 5},
//!     "tool_call_id": "19",
//!     "progress_token": 19
//! }));
//! assert_eq!(body.report[0].to.as_deref(), Some("/tool_call_id"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde_json::{json, Map, Value};

use super::names::{NameMap, ToolRef};
use super::report::{by_name, Change, Converted};
use super::request_id::Key;
use super::versions::{from_object, to_object, McpCallToolParams};
use toolcall_contracts::__private::json_type;
use toolcall_contracts::pointer;
use toolcall_contracts::route::{validate_progress_token, RouteError, ToolCallRequest};

/// Where the route body's `tool_call_id` comes from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum ToolCallIdSource {
    /// None: the MCP request carries no id of the call, so the body has none (the default).
    #[default]
    Absent,
    /// The JSON-RPC request id (a string as is, an integer in decimal), reported `derived`.
    /// Unique per MCP session only: a gateway serving several sessions prefixes it itself.
    RequestId,
}

/// A `tools/call` resolved at the gateway: the tool (its provider's namespace and bare name)
/// and the route body to forward to that provider.
#[derive(Debug, Clone, PartialEq)]
pub struct RoutedCall {
    /// The tool the exposed name resolved to through the name map: `namespace` names the
    /// provider to forward to (`None` for a tool listed without one); without a name map, the
    /// name as sent, without a namespace.
    pub tool: ToolRef,
    /// The route body; its `name` is the tool's bare name (`tool.name`).
    pub request: ToolCallRequest,
}

/// What the gateway decides for a conversion.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct GatewayOptions {
    /// Where the body's `tool_call_id` comes from.
    pub tool_call_id: ToolCallIdSource,
}

/// Why a call could not be converted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GatewayError {
    /// The params have no string `name`.
    #[error("`/name` is missing")]
    MissingName,
    /// The exposed name is not in the gateway's name map.
    #[error("`/name` `{name}` is not a tool of this gateway")]
    UnknownTool {
        /// The name as sent.
        name: String,
    },
    /// The bare name has no projected name in the map for the namespace.
    #[error("tool `{name}` has no exposed name in namespace `{namespace}`")]
    NotExposed {
        /// The namespace (`""` for none).
        namespace: String,
        /// The bare name.
        name: String,
    },
    /// `tool_call_id` was asked from the request id and there is none.
    #[error("`tool_call_id` is to be derived from the JSON-RPC request id, and none was given")]
    MissingRequestId,
    /// `tool_call_id` was asked from the request id, and it is not an MCP `RequestId` (a
    /// string or an integer: `1.5`, `true` and `null` are refused).
    #[error("the JSON-RPC request id must be a string or an integer: {found}")]
    RequestId {
        /// What was found (`found boolean`, ``\`1.5\` is a number but not an integer``).
        found: String,
    },
    /// `arguments` are present and not an object, which MCP requires: in the MCP params
    /// ([`call_to_route`]; `null` is refused, not read as absent) or in the route body
    /// ([`from_route_request`]).
    #[error("`/arguments` must be an object for MCP, found {found}")]
    ArgumentsNotObject {
        /// JSON type found.
        found: &'static str,
    },
    /// The route body's `progress_token` is neither a string nor an integer.
    #[error("`/progress_token` must be a string or an integer, found {found}")]
    ProgressToken {
        /// JSON type found.
        found: &'static str,
    },
    /// The route body's `progress_token` is an integer past `i64`: the route contract takes
    /// any 64-bit integer, signed or not, and the MCP types hold an integer progress token as
    /// an `i64`.
    #[error("`/progress_token` `{token}` is past the integers an MCP progress token holds (`-9223372036854775808` to `9223372036854775807`)")]
    ProgressTokenRange {
        /// The token, in decimal.
        token: String,
    },
    /// `_meta.progressToken` in the MCP params is neither a string nor an integer.
    #[error("`/_meta/progressToken` must be a string or an integer, found {found}")]
    McpProgressToken {
        /// JSON type found.
        found: &'static str,
    },
    /// The MCP type of the requested version refused the JSON built for it (2026-07-28
    /// requires `_meta` with the client's capabilities, which a route body does not carry).
    #[error("MCP {version} `CallToolRequestParams` refused the converted call: {message}")]
    Mcp {
        /// The MCP version.
        version: &'static str,
        /// serde's message.
        message: String,
    },
}

/// Converts the `params` of an MCP `tools/call` (any served version) into the route body a
/// gateway forwards; `request_id` is the JSON-RPC `id` (needed with
/// [`ToolCallIdSource::RequestId`]), `names` the gateway's name map (`None`: names pass as
/// they are). See the [module docs](self) for each member.
///
/// # Errors
/// [`GatewayError::MissingName`], [`GatewayError::UnknownTool`] (a name not in `names`),
/// [`GatewayError::ArgumentsNotObject`] (only from [`call_to_route`]: the typed params hold an
/// object or nothing), [`GatewayError::McpProgressToken`], [`GatewayError::MissingRequestId`],
/// [`GatewayError::RequestId`] (a request id that is neither a string nor an integer).
pub fn to_route_request<P: McpCallToolParams>(
    params: &P,
    request_id: Option<&P::RequestId>,
    names: Option<&NameMap>,
    options: &GatewayOptions,
) -> Result<Converted<RoutedCall>, GatewayError> {
    let request_id = request_id.map(|id| serde_json::to_value(id).unwrap_or(Value::Null));
    call_to_route(to_object(params), request_id.as_ref(), names, options)
}

/// [`to_route_request`] on the JSON of `params` (any MCP version), for a caller holding
/// JSON-RPC messages as JSON: `request_id` is the JSON-RPC `id`.
///
/// # Errors
/// As [`to_route_request`].
pub fn call_to_route(
    mut params: Map<String, Value>,
    request_id: Option<&Value>,
    names: Option<&NameMap>,
    options: &GatewayOptions,
) -> Result<Converted<RoutedCall>, GatewayError> {
    let mut report = Vec::new();
    let exposed = match params.remove("name") {
        Some(Value::String(name)) => name,
        _ => return Err(GatewayError::MissingName),
    };
    let tool = match names {
        Some(map) => {
            let tool = map
                .resolve(&exposed)
                .ok_or_else(|| GatewayError::UnknownTool {
                    name: exposed.clone(),
                })?;
            if tool.name != exposed {
                report.push(Change::derived(
                    "/name",
                    "/name",
                    json!(tool.name),
                    "the exposed name mapped back to the provider's bare name",
                ));
            }
            tool.clone()
        }
        None => ToolRef::bare(exposed),
    };
    let name = tool.name.clone();
    let arguments = match params.remove("arguments") {
        Some(arguments @ Value::Object(_)) => arguments,
        Some(other) => {
            return Err(GatewayError::ArgumentsNotObject {
                found: json_type(&other),
            })
        }
        None => {
            report.push(Change::defaulted(
                "/arguments",
                json!({}),
                "MCP `arguments` is absent; the route body requires `arguments`",
            ));
            json!({})
        }
    };
    let mut request = ToolCallRequest::new(name, arguments);
    match params.remove("_meta") {
        Some(Value::Object(meta)) => progress_from_meta(meta, &mut request, &mut report)?,
        Some(other) => report.push(Change::dropped("/_meta", other, "`_meta` is not an object")),
        None => {}
    }
    if options.tool_call_id == ToolCallIdSource::RequestId {
        let id = match request_id.map(|id| Key::read(id, None)) {
            Some(Ok(Key::String(id) | Key::Integer(id))) => id,
            Some(Err(error)) => {
                return Err(GatewayError::RequestId {
                    found: error.to_string(),
                })
            }
            None => return Err(GatewayError::MissingRequestId),
        };
        report.push(Change::derived(
            "/id",
            "/tool_call_id",
            json!(id),
            "synthesized from the JSON-RPC request id: not an id the MCP client gave the call",
        ));
        request.tool_call_id = Some(id);
    }
    for (member, value) in by_name(params) {
        let reason = match member.as_str() {
            "task" => "the route body cannot ask for a task-augmented call",
            _ => "not a member of the route body",
        };
        report.push(Change::dropped(pointer::join("", &member), value, reason));
    }
    Ok(Converted {
        value: RoutedCall { tool, request },
        report,
    })
}

/// Takes `progressToken` out of the params' `_meta` into the body, reporting the other members.
fn progress_from_meta(
    mut meta: Map<String, Value>,
    request: &mut ToolCallRequest,
    report: &mut Vec<Change>,
) -> Result<(), GatewayError> {
    if let Some(token) = meta.remove("progressToken") {
        if let Err(RouteError::ProgressToken { found }) = validate_progress_token(&token) {
            return Err(GatewayError::McpProgressToken { found });
        }
        request.progress_token = Some(token);
    }
    for (member, value) in by_name(meta) {
        report.push(Change::dropped(
            pointer::join("/_meta", &member),
            value,
            "the route body has no `_meta`",
        ));
    }
    Ok(())
}

/// Converts a route body back into the `params` of an MCP `tools/call` of the version `P`:
/// `namespace` is the provider's namespace in `names` (the gateway's map; `None`: the name
/// passes as is). Pointers in the report are into the route body.
///
/// # Errors
/// [`GatewayError::NotExposed`], [`GatewayError::ArgumentsNotObject`],
/// [`GatewayError::ProgressToken`] (neither a string nor an integer),
/// [`GatewayError::ProgressTokenRange`] (an integer past `i64`, such as
/// `18446744073709551615`, which the route contract accepts), [`GatewayError::Mcp`] (the
/// version's type refuses the params for another reason: 2026-07-28 without `_meta`).
pub fn from_route_request<P: McpCallToolParams>(
    request: &ToolCallRequest,
    namespace: Option<&str>,
    names: Option<&NameMap>,
) -> Result<Converted<P>, GatewayError> {
    let mut report = Vec::new();
    let mut params = Map::new();
    let name = match names {
        Some(map) => map
            .exposed(namespace, &request.name)
            .ok_or_else(|| GatewayError::NotExposed {
                namespace: namespace.unwrap_or_default().to_owned(),
                name: request.name.clone(),
            })?
            .to_owned(),
        None => request.name.clone(),
    };
    if name != request.name {
        report.push(Change::derived(
            "/name",
            "/name",
            json!(name),
            "the provider's bare name mapped to the gateway's exposed name",
        ));
    }
    params.insert("name".to_owned(), json!(name));
    match &request.arguments {
        Value::Object(_) => {
            params.insert("arguments".to_owned(), request.arguments.clone());
        }
        other => {
            return Err(GatewayError::ArgumentsNotObject {
                found: json_type(other),
            })
        }
    }
    if let Some(token) = &request.progress_token {
        if let Err(RouteError::ProgressToken { found }) = validate_progress_token(token) {
            return Err(GatewayError::ProgressToken { found });
        }
        if token.is_number() && !token.is_i64() {
            return Err(GatewayError::ProgressTokenRange {
                token: token.to_string(),
            });
        }
        params.insert("_meta".to_owned(), json!({"progressToken": token}));
    }
    let dropped = [
        (
            "tool_call_id",
            request.tool_call_id.as_ref(),
            "MCP has no member for the caller's call id; the JSON-RPC id is the client's",
        ),
        (
            "call_key",
            request.call_key.as_ref(),
            "MCP has no idempotency key",
        ),
        (
            "schema_pin",
            request.schema_pin.as_ref(),
            "MCP has no schema pin",
        ),
    ];
    for (member, value, reason) in dropped {
        if let Some(value) = value {
            report.push(Change::dropped(
                pointer::join("", member),
                json!(value),
                reason,
            ));
        }
    }
    let params = from_object(params).map_err(|message| GatewayError::Mcp {
        version: P::PROTOCOL_VERSION,
        message,
    })?;
    Ok(Converted {
        value: params,
        report,
    })
}
