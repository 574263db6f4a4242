//! Route [`ToolCallRequest`] ↔ canonical [`ToolCall`]: what a runtime dispatches for a body a
//! provider received, through the [`Registry`] of its tools.
//!
//! **Route → canonical** ([`to_tool_call`]; pointers into the route body and the canonical
//! call's wire form):
//!
//! | route body | canonical call | |
//! |---|---|---|
//! | `name` | `tool_name`, and `tool_id` | the registry's spec of that name: its route name ([`Registry::insert_with_route_name`], the canonical name then reported `derived`), else its canonical name (unknown: refused) |
//! | `arguments` | `arguments` | as is; checked with [`ToolSpec::validate_arguments_pinned`] first when [`CallOptions::validate_arguments`] (against `schema_pin` when the body has one) |
//! | `tool_call_id` | `provider_tool_call_id` | byte for byte; absent: the caller's [`CallOptions::fallback_tool_call_id`], reported `defaulted` (a synthesized id is recorded), else refused |
//! | — | `request_ordinal` | [`CallOptions::request_ordinal`] |
//! | `progress_token`, `call_key`, `schema_pin` | — | `dropped` (the canonical call has no member; keep the body for progress) |
//!
//! **Canonical → route** ([`from_tool_call_in`], through the registry): `tool_name` as `name`,
//! mapped back to the route name the registry holds for it ([`Registry::route_name`], reported
//! `derived`: `to_tool_call` reported the other way), `arguments`, `provider_tool_call_id` as
//! `tool_call_id`; `tool_id` and `request_ordinal` are `dropped`. [`from_tool_call`] does the
//! same without a registry, and so writes the canonical name: only for a runtime whose tools
//! have no route names.
//!
//! ```
//! use serde_json::json;
//! use toolcall_contracts::canonical::ToolSpec;
//! use toolcall_hops::runtime::{to_tool_call, CallOptions, Registry};
//! use toolcall_contracts::route::ToolCallRequest;
//!
//! let spec: ToolSpec = serde_json::from_value(json!({
//!     "id": "everything/echo@1", "name": "echo", "description": "Echoes",
//!     "input_schema": {"type": "object", "required": ["message"]},
//!     "output_contract": {"success": {"type": "text", "media_type": "text/plain"}},
//!     "limits": {"max_concurrent": 1, "max_input_bytes": 1024, "max_output_bytes": 1024,
//!                "execution_deadline_ms": 1000},
//!     "execution_class": {"type": "cooperative_in_process", "grace_ms": 100}
//! }))?;
//! let registry = Registry::new([spec])?;
//! let mut body = ToolCallRequest::new("echo", json!({"message": "hi"}));
//! body.tool_call_id = Some("call_01".to_owned());
//! let options = CallOptions { validate_arguments: true, ..CallOptions::default() };
//! let call = to_tool_call(&body, &registry, &options)?;
//! assert_eq!(serde_json::to_value(&call.value)?, json!({
//!     "tool_name": "echo", "tool_id": "everything/echo@1",
//!     "provider_tool_call_id": "call_01", "arguments": {"message": "hi"}, "request_ordinal": 0
//! }));
//! assert!(call.report.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;

use serde_json::json;

use super::report::{Change, Converted};
use toolcall_contracts::canonical::{
    ArgumentsError, ToolCall, ToolContractError, ToolName, ToolSpec,
};
use toolcall_contracts::route::ToolCallRequest;

/// The tools a runtime serves, by canonical name, and by the route name a provider calls each
/// by when it is not the canonical name.
///
/// A route body names a tool by the provider's bare name; MCP names may hold `/` (SEP-986),
/// which the canonical [`ToolName`] refuses. Such a tool is registered under a canonical name
/// (say `repo_search`, [`super::names::NameProjection::canonical`] projects one) with
/// [`Registry::insert_with_route_name`] for its bare name (`repo/search`): [`to_tool_call`]
/// then finds it by the name the route body carries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Registry {
    specs: BTreeMap<String, ToolSpec>,
    /// Route name → canonical name, for names that differ.
    route_names: BTreeMap<String, String>,
    /// Canonical name → route name, the same pairs the other way.
    canonical_routes: BTreeMap<String, String>,
}

impl Registry {
    /// A registry of `specs`, each found by its canonical name.
    ///
    /// # Errors
    /// [`RuntimeError::DuplicateName`] when two specs have one name.
    pub fn new(specs: impl IntoIterator<Item = ToolSpec>) -> Result<Self, RuntimeError> {
        let mut registry = Self::default();
        for spec in specs {
            registry.insert(spec)?;
        }
        Ok(registry)
    }

    /// Adds `spec`, found by its canonical name.
    ///
    /// # Errors
    /// [`RuntimeError::DuplicateName`] when a spec of that name is registered, or a route name
    /// is that name.
    pub fn insert(&mut self, spec: ToolSpec) -> Result<(), RuntimeError> {
        let name = spec.name().as_str().to_owned();
        if self.specs.contains_key(&name) || self.route_names.contains_key(&name) {
            return Err(RuntimeError::DuplicateName { name });
        }
        self.specs.insert(name, spec);
        Ok(())
    }

    /// Adds `spec`, found by its canonical name and by `route_name`, the name route bodies call
    /// it by (the provider's bare name, such as an MCP name with `/`).
    ///
    /// # Errors
    /// [`RuntimeError::DuplicateName`] when the canonical name or `route_name` is taken.
    pub fn insert_with_route_name(
        &mut self,
        route_name: impl Into<String>,
        spec: ToolSpec,
    ) -> Result<(), RuntimeError> {
        let route_name = route_name.into();
        let canonical = spec.name().as_str().to_owned();
        if route_name != canonical
            && (self.specs.contains_key(&route_name) || self.route_names.contains_key(&route_name))
        {
            return Err(RuntimeError::DuplicateName { name: route_name });
        }
        self.insert(spec)?;
        if route_name != canonical {
            self.canonical_routes
                .insert(canonical.clone(), route_name.clone());
            self.route_names.insert(route_name, canonical);
        }
        Ok(())
    }

    /// The route name registered for the spec of canonical name `canonical`
    /// ([`Registry::insert_with_route_name`]); `None` for a spec found by its canonical name
    /// alone, or no spec.
    #[must_use]
    pub fn route_name(&self, canonical: &str) -> Option<&str> {
        self.canonical_routes.get(canonical).map(String::as_str)
    }

    /// The spec named `name` (its canonical name).
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&ToolSpec> {
        self.specs.get(name)
    }

    /// The spec a route body's `name` calls: by its route name, else by its canonical name.
    #[must_use]
    pub fn resolve(&self, route_name: &str) -> Option<&ToolSpec> {
        match self.route_names.get(route_name) {
            Some(canonical) => self.specs.get(canonical),
            None => self.specs.get(route_name),
        }
    }

    /// Every spec, by name.
    pub fn iter(&self) -> impl Iterator<Item = &ToolSpec> {
        self.specs.values()
    }
}

/// What the runtime decides for a conversion.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallOptions {
    /// Position of the call among the calls of one model response (0 for a lone call).
    pub request_ordinal: u32,
    /// Check the arguments against the tool's input schema before converting.
    pub validate_arguments: bool,
    /// The `provider_tool_call_id` for a body without `tool_call_id`; `None`: such a body is
    /// refused ([`RuntimeError::MissingToolCallId`]).
    pub fallback_tool_call_id: Option<String>,
}

/// Why a route body could not be converted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RuntimeError {
    /// Two specs have one name.
    #[error("tool name `{name}` is registered twice")]
    DuplicateName {
        /// The name.
        name: String,
    },
    /// The body's `name` is no registered tool.
    #[error("`/name` `{name}` is not a registered tool")]
    UnknownTool {
        /// The name as sent.
        name: String,
    },
    /// The body's `name` breaks the canonical name rule.
    #[error("`/name` is refused: {source}")]
    Name {
        /// The canonical refusal.
        #[source]
        source: ToolContractError,
    },
    /// The body has no `tool_call_id` and the caller gave no fallback.
    #[error("`/tool_call_id` is absent and no fallback id was given")]
    MissingToolCallId,
    /// The arguments were checked and refused.
    #[error("`/arguments` are refused: {source}")]
    Arguments {
        /// Why.
        #[source]
        source: ArgumentsError,
    },
}

/// Converts a route body into the canonical call the runtime dispatches; see the
/// [module docs](self) for each member.
///
/// # Errors
/// [`RuntimeError::Name`] (a name that is no route name and breaks the canonical rule),
/// [`RuntimeError::UnknownTool`], [`RuntimeError::MissingToolCallId`],
/// [`RuntimeError::Arguments`] (only with [`CallOptions::validate_arguments`]).
pub fn to_tool_call(
    request: &ToolCallRequest,
    registry: &Registry,
    options: &CallOptions,
) -> Result<Converted<ToolCall>, RuntimeError> {
    let mut report = Vec::new();
    let Some(spec) = registry.resolve(&request.name) else {
        ToolName::try_new(request.name.clone()).map_err(|source| RuntimeError::Name { source })?;
        return Err(RuntimeError::UnknownTool {
            name: request.name.clone(),
        });
    };
    let tool_name = spec.name().clone();
    if tool_name.as_str() != request.name {
        report.push(Change::derived(
            "/name",
            "/tool_name",
            json!(tool_name.as_str()),
            "the canonical name the registry holds for the route name",
        ));
    }
    if options.validate_arguments {
        spec.validate_arguments_pinned(&request.arguments, request.schema_pin.as_deref())
            .map_err(|source| RuntimeError::Arguments { source })?;
    }
    let provider_tool_call_id = match (&request.tool_call_id, &options.fallback_tool_call_id) {
        (Some(id), _) => id.clone(),
        (None, Some(fallback)) => {
            report.push(Change::defaulted(
                "/provider_tool_call_id",
                json!(fallback),
                "the route body has no `tool_call_id`: the caller's fallback id, not the producer's",
            ));
            fallback.clone()
        }
        (None, None) => return Err(RuntimeError::MissingToolCallId),
    };
    let dropped = [
        ("/progress_token", request.progress_token.clone(), "the canonical call has no progress token; progress is reported against the route body's"),
        ("/call_key", request.call_key.clone().map(|key| json!(key)), "the canonical call has no idempotency key"),
        ("/schema_pin", request.schema_pin.clone().map(|pin| json!(pin)), "the canonical call has no schema pin"),
    ];
    for (pointer, value, reason) in dropped {
        if let Some(value) = value {
            report.push(Change::dropped(pointer, value, reason));
        }
    }
    Ok(Converted {
        value: ToolCall {
            tool_name,
            tool_id: spec.id().clone(),
            provider_tool_call_id,
            arguments: request.arguments.clone(),
            request_ordinal: options.request_ordinal,
        },
        report,
    })
}

/// Converts a canonical call back into a route body, its `name` the route name `registry`
/// holds for the tool (reported `derived`), else its canonical name; see the
/// [module docs](self).
///
/// ```
/// use serde_json::json;
/// use toolcall_contracts::canonical::ToolSpec;
/// use toolcall_hops::runtime::{from_tool_call_in, to_tool_call, CallOptions, Registry};
/// use toolcall_contracts::route::ToolCallRequest;
///
/// let spec: ToolSpec = serde_json::from_value(json!({
///     "id": "gh/repo-search@1", "name": "repo_search", "description": "Searches",
///     "input_schema": {"type": "object"},
///     "output_contract": {"success": {"type": "text", "media_type": "text/plain"}},
///     "limits": {"max_concurrent": 1, "max_input_bytes": 1024, "max_output_bytes": 1024,
///                "execution_deadline_ms": 1000},
///     "execution_class": {"type": "cooperative_in_process", "grace_ms": 100}
/// }))?;
/// let mut registry = Registry::default();
/// registry.insert_with_route_name("repo/search", spec)?;
/// let mut body = ToolCallRequest::new("repo/search", json!({}));
/// body.tool_call_id = Some("c1".to_owned());
/// let call = to_tool_call(&body, &registry, &CallOptions::default())?;
/// assert_eq!(call.value.tool_name.as_str(), "repo_search");
/// let back = from_tool_call_in(&call.value, &registry);
/// assert_eq!(serde_json::to_value(&back.value)?, json!({
///     "name": "repo/search", "arguments": {}, "tool_call_id": "c1"
/// }));
/// assert_eq!(back.report[0].to.as_deref(), Some("/name"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn from_tool_call_in(call: &ToolCall, registry: &Registry) -> Converted<ToolCallRequest> {
    let mut converted = from_tool_call(call);
    if let Some(route_name) = registry.route_name(call.tool_name.as_str()) {
        converted.value.name = route_name.to_owned();
        converted.report.insert(
            0,
            Change::derived(
                "/tool_name",
                "/name",
                json!(route_name),
                "the route name the registry holds for the canonical name",
            ),
        );
    }
    converted
}

/// Converts a canonical call back into a route body without a registry: its `name` is the
/// canonical name, which is the route name only for a tool registered without one. A runtime
/// whose registry holds route names ([`Registry::insert_with_route_name`]) converts with
/// [`from_tool_call_in`], which restores them. See the [module docs](self).
#[must_use]
pub fn from_tool_call(call: &ToolCall) -> Converted<ToolCallRequest> {
    let mut request = ToolCallRequest::new(call.tool_name.as_str(), call.arguments.clone());
    request.tool_call_id = Some(call.provider_tool_call_id.clone());
    Converted {
        value: request,
        report: vec![
            Change::dropped(
                "/tool_id",
                json!(call.tool_id.as_str()),
                "the route body names the tool by its bare name only",
            ),
            Change::dropped(
                "/request_ordinal",
                json!(call.request_ordinal),
                "the route body has no request ordinal",
            ),
        ],
    }
}
