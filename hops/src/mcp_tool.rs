//! MCP `Tool` ↔ canonical [`ToolSpec`]: what a gateway registers for a tool an MCP server lists,
//! and what it lists for a tool it serves.
//!
//! **MCP → canonical** ([`to_tool_spec`]), member by member (pointers into the MCP tool):
//!
//! | MCP | canonical | |
//! |---|---|---|
//! | `name` | `name` | the registration's `name` instead when it sets one (reported `derived`); else a [`ToolName`] (`A-Z a-z 0-9 _ - .`, 1 to 128, the characters MCP 2025-11-25 allows): a name with `/` (SEP-986 as proposed) is refused; project it ([`super::names::NameProjection::canonical`]) into the registration's `name`, and register the spec under its MCP name with [`super::runtime::Registry::insert_with_route_name`] |
//! | `description` | `description` | absent: `""` (`defaulted`); each control character (line breaks included) replaced by a space (`derived`, with the text written); over 4096 bytes: refused |
//! | `inputSchema` | `input_schema` | as is; draft-07, 2019-09 or 2020-12 |
//! | `outputSchema` | `output_contract.success` | `{"type": "json", "schema": ...}`; absent: text of the registration's media type (`defaulted`) |
//! | — | `id`, `limits`, `execution_class`, `output_contract.error_data_schema` | from the [`ToolRegistration`] the caller passes, never invented |
//! | `title`, `annotations`, `icons`, `execution`, `_meta`, unknown members | — | `dropped`, each with its value |
//!
//! **Canonical → MCP** ([`from_tool_spec`]): `name`, `description` (an empty one is written
//! `""`), `input_schema` as `inputSchema` (it must be an object schema with `"type":
//! "object"`, as MCP requires), a JSON success schema as `outputSchema` (2025-06-18 and
//! 2025-11-25: an object schema with `"type": "object"`, any other is `dropped`; 2026-07-28:
//! any JSON Schema object, a boolean schema is `dropped`); `id`, `limits`, `execution_class`,
//! `error_data_schema` and a text success's `media_type` have no MCP member and are `dropped`.
//!
//! ```
//! use std::time::Duration;
//! use serde_json::json;
//! use toolcall_contracts::canonical::{ToolExecutionClass, ToolId, ToolLimits};
//! use toolcall_hops::mcp_tool::{to_tool_spec, ToolRegistration};
//! use toolcall_contracts::mcp::v2025_11_25::Tool;
//!
//! let tool: Tool = serde_json::from_value(json!({
//!     "name": "echo",
//!     "description": "Echoes back the input string",
//!     "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}},
//!     "outputSchema": {"type": "object"}
//! }))?;
//! let registration = ToolRegistration::new(
//!     ToolId::try_new("everything/echo@1")?,
//!     ToolLimits::default(),
//!     ToolExecutionClass::CooperativeInProcess { grace: Duration::from_millis(100) },
//! );
//! let spec = to_tool_spec(&tool, &registration)?;
//! assert!(spec.report.is_empty());
//! assert_eq!(serde_json::to_value(&spec.value)?["output_contract"], json!({
//!     "success": {"type": "json", "schema": {"type": "object"}}
//! }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde_json::{json, Map, Value};

use super::report::{by_name, Change, Converted};
use super::versions::{from_object, to_object, McpTool};
use toolcall_contracts::canonical::{
    JsonSchema, MediaType, ToolContractError, ToolExecutionClass, ToolId, ToolLimits, ToolName,
    ToolOutputContract, ToolSpec, ToolSuccessContract, MAX_DESCRIPTION_BYTES,
};
use toolcall_contracts::pointer;

/// What the canonical model requires and an MCP `Tool` does not carry: the caller's decision,
/// passed to [`to_tool_spec`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolRegistration {
    /// Registry id of the tool.
    pub id: ToolId,
    /// The canonical name, when it is not the MCP name (such as a projected name); `None`: the
    /// MCP name.
    pub name: Option<ToolName>,
    /// Limits of each call.
    pub limits: ToolLimits,
    /// How the tool runs.
    pub execution_class: ToolExecutionClass,
    /// Media type of the success output of a tool without `outputSchema` (its content blocks);
    /// `text/plain` from [`ToolRegistration::new`].
    pub text_media_type: MediaType,
    /// JSON Schema of the `data` of the tool's domain errors; `None` from
    /// [`ToolRegistration::new`].
    pub error_data_schema: Option<JsonSchema>,
}

impl ToolRegistration {
    /// A registration with `id`, `limits` and `execution_class`, the MCP name, `text/plain`
    /// text output and no error data schema.
    #[must_use]
    pub fn new(id: ToolId, limits: ToolLimits, execution_class: ToolExecutionClass) -> Self {
        Self {
            id,
            name: None,
            limits,
            execution_class,
            text_media_type: MediaType::try_new("text/plain")
                .unwrap_or_else(|_| unreachable!("`text/plain` is a valid media type")),
            error_data_schema: None,
        }
    }
}

/// Why a tool could not be converted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum McpToolError {
    /// A member breaks the canonical rule for it.
    #[error("`{pointer}` is refused: {source}")]
    Canonical {
        /// Pointer into the input (`/name`, `/description`, `/inputSchema`...).
        pointer: &'static str,
        /// The canonical model's refusal.
        #[source]
        source: ToolContractError,
    },
    /// The registration's limits or execution class are out of range.
    #[error("the registration is refused: {source}")]
    Registration {
        /// The canonical model's refusal.
        #[source]
        source: ToolContractError,
    },
    /// The MCP tool has no string `name`, or `inputSchema` is missing.
    #[error("`{pointer}` is missing")]
    Missing {
        /// Pointer into the MCP tool.
        pointer: &'static str,
    },
    /// The canonical `input_schema` is not an object schema with `"type": "object"`, which
    /// MCP requires of `inputSchema`.
    #[error("`/input_schema` must be an object schema with `\"type\": \"object\"` for MCP, found `{found}`")]
    InputSchemaNotObject {
        /// The schema's `type` (or `boolean` for a boolean schema).
        found: String,
    },
    /// The MCP type of the requested version refused the JSON built for it.
    #[error("MCP {version} `Tool` refused the converted tool: {message}")]
    Mcp {
        /// The MCP version.
        version: &'static str,
        /// serde's message.
        message: String,
    },
}

/// Converts an MCP `Tool` (any served version) into a canonical [`ToolSpec`], with the caller's
/// `registration` for what MCP does not carry; see the [module docs](self) for each member.
///
/// # Errors
/// [`McpToolError::Registration`] when the registration's limits or execution class are out of
/// range; [`McpToolError::Missing`] without `name` or `inputSchema`; [`McpToolError::Canonical`]
/// naming `/name`, `/description`, `/inputSchema` or `/outputSchema` when the canonical model
/// refuses it (a name with `/`, a description over 4096 bytes, a schema invalid against its
/// dialect's meta-schema).
pub fn to_tool_spec<T: McpTool>(
    tool: &T,
    registration: &ToolRegistration,
) -> Result<Converted<ToolSpec>, McpToolError> {
    let mut tool = to_object(tool);
    let mut report = Vec::new();
    let name = match tool.remove("name") {
        Some(Value::String(name)) => name,
        _ => return Err(McpToolError::Missing { pointer: "/name" }),
    };
    let name = match &registration.name {
        Some(chosen) => {
            if chosen.as_str() != name {
                report.push(Change::derived(
                    "/name",
                    "/name",
                    json!(chosen.as_str()),
                    "the registration names the tool",
                ));
            }
            chosen.clone()
        }
        None => ToolName::try_new(name).map_err(|source| McpToolError::Canonical {
            pointer: "/name",
            source,
        })?,
    };
    let description = match tool.remove("description") {
        Some(Value::String(text)) => {
            let clean = replace_controls(&text);
            if clean != text {
                report.push(Change::derived(
                    "/description",
                    "/description",
                    json!(clean),
                    "control characters replaced by spaces (the canonical description is one line)",
                ));
            }
            if clean.len() > MAX_DESCRIPTION_BYTES {
                return Err(McpToolError::Canonical {
                    pointer: "/description",
                    source: ToolContractError::DescriptionTooLong {
                        length: clean.len(),
                        max: MAX_DESCRIPTION_BYTES,
                    },
                });
            }
            clean
        }
        Some(other) => {
            report.push(Change::dropped(
                "/description",
                other,
                "not a string; the canonical description is empty",
            ));
            String::new()
        }
        None => {
            report.push(Change::defaulted(
                "/description",
                json!(""),
                "MCP `description` is absent; the canonical description is required",
            ));
            String::new()
        }
    };
    let input_schema = tool.remove("inputSchema").ok_or(McpToolError::Missing {
        pointer: "/inputSchema",
    })?;
    let input_schema =
        JsonSchema::try_new(input_schema).map_err(|source| McpToolError::Canonical {
            pointer: "/inputSchema",
            source,
        })?;
    let success = match tool.remove("outputSchema") {
        Some(schema) => {
            ToolSuccessContract::json(JsonSchema::try_new(schema).map_err(|source| {
                McpToolError::Canonical {
                    pointer: "/outputSchema",
                    source,
                }
            })?)
        }
        None => {
            report.push(Change::defaulted(
                "/output_contract/success",
                json!({"type": "text", "media_type": registration.text_media_type.as_str()}),
                "MCP `outputSchema` is absent: the tool answers with content blocks, text of the registration's media type",
            ));
            ToolSuccessContract::Text {
                media_type: registration.text_media_type.clone(),
            }
        }
    };
    for (member, value) in by_name(tool) {
        let reason = match member.as_str() {
            "title" => "the canonical tool has no title",
            "annotations" => "the canonical tool has no annotations",
            "icons" => "the canonical tool has no icons",
            "execution" => "the canonical tool has no task support member",
            "_meta" => "the canonical tool has no `_meta`",
            _ => "not a member of the canonical tool",
        };
        report.push(Change::dropped(pointer::join("", &member), value, reason));
    }
    let spec = ToolSpec::try_new(
        registration.id.clone(),
        name,
        description,
        input_schema,
        ToolOutputContract {
            success,
            error_data_schema: registration.error_data_schema.clone(),
        },
        registration.limits,
        registration.execution_class,
    )
    .map_err(|source| McpToolError::Registration { source })?;
    Ok(Converted {
        value: spec,
        report,
    })
}

/// Converts a canonical [`ToolSpec`] into an MCP `Tool` of the version `T`; see the
/// [module docs](self) for each member. Pointers in the report are into the canonical spec's
/// wire form.
///
/// # Errors
/// [`McpToolError::InputSchemaNotObject`] when `input_schema` is not an object schema with
/// `"type": "object"`; [`McpToolError::Mcp`] when the version's type refuses the result.
pub fn from_tool_spec<T: McpTool>(spec: &ToolSpec) -> Result<Converted<T>, McpToolError> {
    let mut report = Vec::new();
    let input = spec.input_schema().as_value();
    if !is_object_schema(input) {
        let found = match input {
            Value::Bool(_) => "boolean".to_owned(),
            other => other
                .get("type")
                .map_or_else(|| "no type".to_owned(), Value::to_string),
        };
        return Err(McpToolError::InputSchemaNotObject { found });
    }
    let mut tool = Map::new();
    tool.insert("name".to_owned(), json!(spec.name().as_str()));
    tool.insert("description".to_owned(), json!(spec.description()));
    tool.insert("inputSchema".to_owned(), input.clone());
    match &spec.output_contract().success {
        ToolSuccessContract::Json { schema }
            if is_object_schema(schema.as_value())
                || (T::OUTPUT_SCHEMA_ANY && schema.as_value().is_object()) =>
        {
            tool.insert("outputSchema".to_owned(), schema.as_value().clone());
        }
        ToolSuccessContract::Json { schema } => report.push(Change::dropped(
            "/output_contract/success/schema",
            schema.as_value().clone(),
            if T::OUTPUT_SCHEMA_ANY {
                "MCP `outputSchema` must be a JSON Schema object, not a boolean schema"
            } else {
                "MCP `outputSchema` must be an object schema with `\"type\": \"object\"` in this version"
            },
        )),
        ToolSuccessContract::Text { media_type } => report.push(Change::dropped(
            "/output_contract/success/media_type",
            json!(media_type.as_str()),
            "MCP has no member for the media type of a tool's text output",
        )),
    }
    if let Some(schema) = &spec.output_contract().error_data_schema {
        report.push(Change::dropped(
            "/output_contract/error_data_schema",
            schema.as_value().clone(),
            "MCP has no member for the schema of a tool's error data",
        ));
    }
    let wire = serde_json::to_value(spec).unwrap_or(Value::Null);
    for member in ["id", "limits", "execution_class"] {
        report.push(Change::dropped(
            pointer::join("", member),
            wire.get(member).cloned().unwrap_or(Value::Null),
            "runtime detail of the canonical tool; MCP has no member for it",
        ));
    }
    let tool = from_object(tool).map_err(|message| McpToolError::Mcp {
        version: T::PROTOCOL_VERSION,
        message,
    })?;
    Ok(Converted {
        value: tool,
        report,
    })
}

/// Whether `schema` is an object schema whose `type` is `"object"`.
fn is_object_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// `text` with each control character (Unicode `Cc`) replaced by a space.
pub(crate) fn replace_controls(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
