//! The official MCP schemas as the checker uses them: one per protocol version, each compiled in
//! its own dialect (draft-07 with `definitions` up to 2025-06-18, 2020-12 with `$defs` after),
//! offline, with a method table read from the schema itself.
//!
//! # The method table
//!
//! Every definition whose `method` member is a `const` string and whose name ends in `Request`
//! or `Notification` names a method (the side unions `ClientRequest`, `ServerRequest`,
//! `ClientNotification` and `ServerNotification` are not methods, even where one is written as a
//! single request). A request or notification is checked as a whole against its definition
//! (up to 2025-06-18 the definition holds `method` and `params` only; from 2025-11-25 it is the
//! whole JSON-RPC message). The result of `XRequest` is checked against, by the schema's naming:
//! 1. `XResultResponse` when the schema has it (2026-07-28: the whole response, whose `result` is
//!    `XResult` or an `InputRequiredResult`);
//! 2. else `XResult` (`CallToolRequest` → `CallToolResult`);
//! 3. else `EmptyResult` (`ping`, `resources/subscribe`, `logging/setLevel`...).
//!
//! A task-augmented request (2025-11-25: its params declare a `task` member, "The request will
//! return a CreateTaskResult immediately", and the request carries one) is answered by a
//! `CreateTaskResult` instead.
//!
//! Who sends a method: the client when `ClientRequest`/`ClientNotification` lists it, the server
//! when `ServerRequest`/`ServerNotification` does, unknown when both or neither do (`ping`,
//! `notifications/progress`).

use std::collections::HashSet;
use std::sync::OnceLock;

use jsonschema::Validator;
use serde_json::{Map, Value};

use super::schema::ByName;
use super::transcript::Role;

/// The MCP protocol versions whose official schema the checker holds, oldest first
/// (`toolcall_contracts::mcp::VERSIONS`).
pub const MCP_VERSIONS: &[&str] = toolcall_contracts::mcp::VERSIONS;

/// `(version, schema text)` of every version of [`MCP_VERSIONS`].
const SCHEMAS: &[(&str, &str)] = toolcall_contracts::mcp::SCHEMAS;

/// The `_meta` member of a 2026-07-28 request that names its protocol version (one constant
/// with the tap's).
pub(crate) use super::tap::MCP_VERSION_META as META_PROTOCOL_VERSION;

/// The newest version the checker holds.
pub(crate) fn newest() -> &'static str {
    MCP_VERSIONS[MCP_VERSIONS.len() - 1]
}

/// The held version equal to `version`, as a `'static` string.
pub(crate) fn known(version: &str) -> Option<&'static str> {
    MCP_VERSIONS.iter().copied().find(|known| *known == version)
}

/// What the result of a request is checked against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ResultCheck {
    /// The whole response message against `XResultResponse`.
    Response(String),
    /// The `result` member against this definition.
    Result(String),
}

impl ResultCheck {
    /// The definition's name.
    #[cfg(test)]
    pub(crate) fn definition(&self) -> &str {
        match self {
            Self::Response(name) | Self::Result(name) => name,
        }
    }
}

/// One MCP method of one version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct McpMethod {
    /// The definition the request or notification is checked against.
    pub(crate) definition: String,
    /// `Some` for a request: what its result is checked against; `None` for a notification.
    pub(crate) result: Option<ResultCheck>,
    /// Who sends it, when one side only does.
    pub(crate) sender: Option<Role>,
    /// `CreateTaskResult`, when the request's params declare `task` (task augmentation): the
    /// result of a request that carries one.
    pub(crate) task_result: Option<String>,
}

type Built = Result<Validator, String>;

/// One version's schema, its dialect, method table and lazily built validators.
pub(crate) struct McpSchema {
    pub(crate) version: &'static str,
    /// `definitions` (draft-07) or `$defs` (2020-12).
    defs_key: &'static str,
    draft_07: bool,
    root: Value,
    methods: ByName<McpMethod>,
    validators: ByName<OnceLock<Built>>,
}

impl McpSchema {
    fn parse(version: &'static str, text: &str) -> Result<Self, String> {
        let root: Value = serde_json::from_str(text)
            .map_err(|error| format!("the MCP {version} schema is not JSON: {error}"))?;
        let dialect = root.get("$schema").and_then(Value::as_str).unwrap_or("");
        let (defs_key, draft_07) = match dialect {
            "http://json-schema.org/draft-07/schema#" => ("definitions", true),
            "https://json-schema.org/draft/2020-12/schema" => ("$defs", false),
            other => {
                return Err(format!(
                    "the MCP {version} schema has the unknown dialect `{other}`"
                ))
            }
        };
        let defs = root
            .get(defs_key)
            .and_then(Value::as_object)
            .ok_or_else(|| format!("the MCP {version} schema has no `{defs_key}`"))?;
        let methods = methods(defs, defs_key)?;
        let validators = defs
            .keys()
            .map(|name| (name.clone(), OnceLock::new()))
            .collect();
        Ok(Self {
            version,
            defs_key,
            draft_07,
            root,
            methods,
            validators,
        })
    }

    /// The method named `name`.
    pub(crate) fn method(&self, name: &str) -> Option<&McpMethod> {
        self.methods.get(name)
    }

    /// Every method, for tests.
    #[cfg(test)]
    pub(crate) fn methods(&self) -> &ByName<McpMethod> {
        &self.methods
    }

    /// Whether the schema defines `name`.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.validators.contains_key(name)
    }

    /// The validator of the definition `name`, in the schema's own dialect, never fetching.
    pub(crate) fn validator(&self, name: &str) -> Result<&Validator, String> {
        let version = self.version;
        let cell = self
            .validators
            .get(name)
            .ok_or_else(|| format!("the MCP {version} schema has no definition `{name}`"))?;
        cell.get_or_init(|| {
            let mut document = Map::new();
            if let Some(dialect) = self.root.get("$schema") {
                document.insert("$schema".to_owned(), dialect.clone());
            }
            document.insert(
                self.defs_key.to_owned(),
                self.root.get(self.defs_key).cloned().unwrap_or_default(),
            );
            // `allOf` rather than a root `$ref`: draft-07 ignores the siblings of `$ref`.
            document.insert(
                "allOf".to_owned(),
                serde_json::json!([{"$ref": format!("#/{}/{name}", self.defs_key)}]),
            );
            let document = Value::Object(document);
            let built = if self.draft_07 {
                jsonschema::draft7::options().offline().build(&document)
            } else {
                jsonschema::draft202012::options()
                    .offline()
                    .build(&document)
            };
            built.map_err(|error| error.to_string())
        })
        .as_ref()
        .map_err(|message| format!("cannot compile MCP {version} `{name}`: {message}"))
    }

    /// The definition of an error response: `JSONRPCErrorResponse` (2025-11-25 on) or
    /// `JSONRPCError`.
    pub(crate) fn error_response(&self) -> &'static str {
        if self.has("JSONRPCErrorResponse") {
            "JSONRPCErrorResponse"
        } else {
            "JSONRPCError"
        }
    }

    /// The definition of a successful response to any request: `JSONRPCResultResponse`
    /// (2025-11-25 on) or `JSONRPCResponse`.
    pub(crate) fn result_response(&self) -> &'static str {
        if self.has("JSONRPCResultResponse") {
            "JSONRPCResultResponse"
        } else {
            "JSONRPCResponse"
        }
    }
}

/// The five schemas, each parsed on first use.
#[derive(Default)]
pub(crate) struct McpSchemas {
    parsed: [OnceLock<Result<McpSchema, String>>; 5],
}

impl McpSchemas {
    /// The schema of `version` (one of [`MCP_VERSIONS`]).
    pub(crate) fn get(&self, version: &str) -> Result<&McpSchema, String> {
        let index = SCHEMAS
            .iter()
            .position(|(known, _)| *known == version)
            .ok_or_else(|| format!("no MCP schema for version `{version}`"))?;
        let (version, text) = SCHEMAS[index];
        self.parsed[index]
            .get_or_init(|| McpSchema::parse(version, text))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Whether some version defines the method `name` (newest first).
    pub(crate) fn knows_method(&self, name: &str) -> bool {
        MCP_VERSIONS.iter().rev().any(|version| {
            self.get(version)
                .is_ok_and(|schema| schema.method(name).is_some())
        })
    }
}

/// The definitions that a side's union lists (by `$ref`, or itself when the union is written as
/// one definition), and the method each method definition names.
fn methods(defs: &Map<String, Value>, defs_key: &str) -> Result<ByName<McpMethod>, String> {
    const SIDES: [&str; 4] = [
        "ClientRequest",
        "ClientNotification",
        "ServerRequest",
        "ServerNotification",
    ];
    let prefix = format!("#/{defs_key}/");
    // The methods a side's unions list: by the `method` const of each definition they refer to,
    // or of the union itself (2026-07-28 writes `ClientNotification` as one notification).
    let listed = |roots: [&str; 2]| {
        let mut names = HashSet::new();
        for root in roots {
            if let Some(node) = defs.get(root) {
                names.insert(root.to_owned());
                refs_in(node, &prefix, &mut names);
            }
        }
        names
            .iter()
            .filter_map(|name| {
                defs.get(name)?
                    .pointer("/properties/method/const")?
                    .as_str()
            })
            .map(str::to_owned)
            .collect::<HashSet<String>>()
    };
    let by_client = listed(["ClientRequest", "ClientNotification"]);
    let by_server = listed(["ServerRequest", "ServerNotification"]);
    let mut methods = ByName::default();
    for (name, definition) in defs {
        let is_request = name.ends_with("Request");
        if !(is_request || name.ends_with("Notification")) || SIDES.contains(&name.as_str()) {
            continue;
        }
        let Some(method) = definition
            .pointer("/properties/method/const")
            .and_then(Value::as_str)
        else {
            continue;
        };
        let result = is_request.then(|| {
            let base = &name[..name.len() - "Request".len()];
            let response = format!("{base}ResultResponse");
            let result = format!("{base}Result");
            if defs.contains_key(&response) {
                ResultCheck::Response(response)
            } else if defs.contains_key(&result) {
                ResultCheck::Result(result)
            } else {
                ResultCheck::Result("EmptyResult".to_owned())
            }
        });
        let sender = match (by_client.contains(method), by_server.contains(method)) {
            (true, false) => Some(Role::Client),
            (false, true) => Some(Role::Peer),
            _ => None,
        };
        let task_result = (is_request
            && defs.contains_key("CreateTaskResult")
            && declares_task(defs, &prefix, definition.pointer("/properties/params")))
        .then(|| "CreateTaskResult".to_owned());
        let entry = McpMethod {
            definition: name.clone(),
            result,
            sender,
            task_result,
        };
        if let Some(previous) = methods.insert(method.to_owned(), entry) {
            return Err(format!(
                "`{method}` is named by two definitions, `{}` and `{name}`",
                previous.definition
            ));
        }
    }
    Ok(methods)
}

/// Whether a params schema declares a `task` member: in its `properties`, through a `$ref`, or
/// in a branch of its `anyOf`/`oneOf`/`allOf` (`ElicitRequestParams` is a union of two params).
fn declares_task(defs: &Map<String, Value>, prefix: &str, schema: Option<&Value>) -> bool {
    fn walk(defs: &Map<String, Value>, prefix: &str, schema: &Value, depth: usize) -> bool {
        if depth > 8 {
            return false;
        }
        if schema.pointer("/properties/task").is_some() {
            return true;
        }
        if let Some(target) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix(prefix))
            .and_then(|name| defs.get(name))
        {
            if walk(defs, prefix, target, depth + 1) {
                return true;
            }
        }
        ["anyOf", "oneOf", "allOf"].iter().any(|keyword| {
            schema
                .get(keyword)
                .and_then(Value::as_array)
                .is_some_and(|branches| {
                    branches
                        .iter()
                        .any(|branch| walk(defs, prefix, branch, depth + 1))
                })
        })
    }
    schema.is_some_and(|schema| walk(defs, prefix, schema, 0))
}

/// Every definition name `node` refers to with `$ref` (`<prefix>NAME`), not entering
/// definitions.
fn refs_in(node: &Value, prefix: &str, out: &mut HashSet<String>) {
    match node {
        Value::Object(map) => {
            for (key, value) in map {
                if key == "$ref" {
                    if let Some(name) = value.as_str().and_then(|r| r.strip_prefix(prefix)) {
                        out.insert(name.to_owned());
                    }
                } else if key != "$defs" && key != "definitions" {
                    refs_in(value, prefix, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| refs_in(item, prefix, out)),
        _ => {}
    }
}

/// The `protocolVersion` a 2026-07-28 request carries in `params._meta`, when it is a string.
pub(crate) fn meta_version(message: &Map<String, Value>) -> Option<&str> {
    message
        .get("params")?
        .get("_meta")?
        .get(META_PROTOCOL_VERSION)?
        .as_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schemas() -> McpSchemas {
        McpSchemas::default()
    }

    /// The result rule covers every request of every version: its definition exists, and where
    /// the schema says which side answers (a side's `XResult` union), that union lists it
    /// (`EmptyResult` is `Result`; an `XResultResponse`'s `result` branches each).
    #[test]
    fn every_request_of_every_version_has_a_result_definition_the_answering_side_lists() {
        let schemas = schemas();
        let mut requests = Vec::new();
        for version in MCP_VERSIONS {
            let mut count = 0;
            let schema = schemas.get(version).expect("parses");
            let defs = schema.root[schema.defs_key].as_object().expect("defs");
            let prefix = format!("#/{}/", schema.defs_key);
            let union = |name: &str| {
                let mut names = HashSet::new();
                if let Some(node) = defs.get(name) {
                    names.insert(name.to_owned());
                    refs_in(node, &prefix, &mut names);
                }
                names
            };
            let (server_results, client_results) = (union("ServerResult"), union("ClientResult"));
            for (method, known) in schema.methods() {
                schema.validator(&known.definition).expect("compiles");
                let Some(result) = &known.result else {
                    continue;
                };
                count += 1;
                assert!(schema.has(result.definition()), "{version} {method}");
                schema.validator(result.definition()).expect("compiles");
                let branches: Vec<String> = match result {
                    ResultCheck::Result(name) if name == "EmptyResult" => vec!["Result".to_owned()],
                    ResultCheck::Result(name) => vec![name.clone()],
                    ResultCheck::Response(name) => {
                        let mut names = HashSet::new();
                        refs_in(&defs[name]["properties"]["result"], &prefix, &mut names);
                        names.into_iter().collect()
                    }
                };
                let answering = match known.sender {
                    Some(Role::Client) => Some(&server_results),
                    Some(Role::Peer) => Some(&client_results),
                    None => None,
                };
                if let Some(answering) = answering {
                    for branch in &branches {
                        assert!(
                            answering.contains(branch),
                            "{version} `{method}`: `{branch}` is not in the answering side's results"
                        );
                    }
                }
            }
            requests.push(count);
        }
        // Every request definition of every version went through the rule.
        assert_eq!(requests, [15, 15, 16, 20, 13]);
    }

    #[test]
    fn methods_come_from_the_method_const_in_each_dialect() {
        let schemas = schemas();
        let old = schemas.get("2024-11-05").expect("parses");
        assert!(old.draft_07);
        let call = old.method("tools/call").expect("tools/call");
        assert_eq!(call.definition, "CallToolRequest");
        assert_eq!(
            call.result,
            Some(ResultCheck::Result("CallToolResult".into()))
        );
        assert_eq!(call.sender, Some(Role::Client));
        assert_eq!(
            old.method("ping").map(|m| (&m.result, m.sender)),
            Some((&Some(ResultCheck::Result("EmptyResult".into())), None))
        );
        assert_eq!(
            old.method("sampling/createMessage").and_then(|m| m.sender),
            Some(Role::Peer)
        );
        assert_eq!(
            old.method("notifications/initialized").map(|m| &m.result),
            Some(&None)
        );
        let new = schemas.get("2026-07-28").expect("parses");
        assert!(!new.draft_07);
        assert_eq!(
            new.method("tools/call").and_then(|m| m.result.clone()),
            Some(ResultCheck::Response("CallToolResultResponse".into()))
        );
        assert_eq!(
            new.method("server/discover").map(|m| m.sender),
            Some(Some(Role::Client))
        );
        // The 2026-07-28 `ClientNotification` is written as one notification: not a method of its
        // own, and `notifications/cancelled` is `CancelledNotification`'s, sent by either side.
        assert_eq!(
            new.method("notifications/cancelled")
                .map(|m| (m.definition.as_str(), m.sender)),
            Some(("CancelledNotification", None))
        );
        // Task augmentation (2025-11-25 only): the requests whose params declare `task`.
        let tasks = schemas.get("2025-11-25").expect("parses");
        let mut augmented: Vec<&str> = tasks
            .methods()
            .iter()
            .filter(|(_, known)| known.task_result.is_some())
            .map(|(method, _)| method.as_str())
            .collect();
        augmented.sort_unstable();
        assert_eq!(
            augmented,
            ["elicitation/create", "sampling/createMessage", "tools/call"]
        );
        assert!(MCP_VERSIONS.iter().all(|version| *version == "2025-11-25"
            || schemas
                .get(version)
                .expect("parses")
                .methods()
                .values()
                .all(|known| known.task_result.is_none())));
        assert!(schemas.knows_method("logging/setLevel"));
        assert!(!schemas.knows_method("session/prompt"));
        assert_eq!(known("2025-06-18"), Some("2025-06-18"));
        assert_eq!(known("2025-06-19"), None);
        assert_eq!(newest(), "2026-07-28");
    }
}
