//! The ACP schema as the checker uses it: the method table built from `x-method`, one validator
//! per definition (built on first use, then cached), and the members a definition declares.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::OnceLock;

/// Methods and definitions by name. Looked up for every message checked, with names the
/// schema gives (the input only chooses which), so hashed with `ahash` (already behind
/// `jsonschema`) rather than SipHash.
pub(crate) type ByName<V> = HashMap<String, V, ahash::RandomState>;

use jsonschema::Validator;
use serde_json::{json, Map, Value};

use super::TrafficError;
use toolcall_contracts::acp;

/// What a method is, by the name of its params definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Role {
    /// `XRequest`: answered by a response; `response` is `XResponse` when the schema has it.
    Request { response: Option<String> },
    /// `XNotification`: never answered.
    Notification,
}

/// One ACP method: its params definition, its role, and who sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Method {
    pub(crate) params: String,
    pub(crate) role: Role,
    /// The side that sends it: the client when `ClientRequest`/`ClientNotification` lists its
    /// params, the agent when `AgentRequest`/`AgentNotification` does; `None` when neither or
    /// both do (`$/cancel_request`, sent by either side).
    pub(crate) sender: Option<Sender>,
}

/// Who sends a method, in pairing terms.
pub(crate) type Sender = super::transcript::Role;

type Built = Result<Validator, String>;

/// The parsed ACP schema with its lazily built validators.
pub(crate) struct AcpSchema {
    root: Value,
    methods: ByName<Method>,
    definitions: ByName<OnceLock<Built>>,
    root_validator: OnceLock<Built>,
}

impl AcpSchema {
    /// Parses [`acp::SCHEMA_JSON`] and indexes its methods.
    pub(crate) fn new() -> Result<Self, TrafficError> {
        Self::from_json(acp::SCHEMA_JSON)
    }

    pub(crate) fn from_json(text: &str) -> Result<Self, TrafficError> {
        let root: Value =
            serde_json::from_str(text).map_err(|source| TrafficError::SchemaJson { source })?;
        let defs =
            root.get("$defs")
                .and_then(Value::as_object)
                .ok_or(TrafficError::SchemaShape {
                    missing: "$defs".to_owned(),
                })?;
        let methods = methods(defs);
        let definitions = defs
            .keys()
            .map(|name| (name.clone(), OnceLock::new()))
            .collect();
        Ok(Self {
            root,
            methods,
            definitions,
            root_validator: OnceLock::new(),
        })
    }

    fn defs(&self) -> &Map<String, Value> {
        self.root
            .get("$defs")
            .and_then(Value::as_object)
            .expect("checked in `from_json`")
    }

    /// The method named `name` (`None` for extension and unknown methods).
    pub(crate) fn method(&self, name: &str) -> Option<&Method> {
        self.methods.get(name)
    }

    /// Whether the schema defines `name` under `$defs`.
    #[cfg(test)]
    pub(crate) fn has_definition(&self, name: &str) -> bool {
        self.definitions.contains_key(name)
    }

    /// The validator of `#/$defs/<name>`, built over the whole schema on first use.
    ///
    /// # Errors
    /// The compile error, as text, when the definition does not exist or does not compile.
    pub(crate) fn validator(&self, name: &str) -> Result<&Validator, String> {
        let cell = self
            .definitions
            .get(name)
            .ok_or_else(|| format!("the ACP schema has no definition `{name}`"))?;
        cell.get_or_init(|| {
            let mut document = Map::new();
            document.insert("$ref".to_owned(), json!(format!("#/$defs/{name}")));
            document.insert("$defs".to_owned(), Value::Object(self.defs().clone()));
            build(&Value::Object(document))
        })
        .as_ref()
        .map_err(|message| format!("cannot compile `#/$defs/{name}`: {message}"))
    }

    /// The validator of the whole schema (the root `anyOf` of every message).
    ///
    /// # Errors
    /// The compile error, as text.
    pub(crate) fn root_validator(&self) -> Result<&Validator, String> {
        self.root_validator
            .get_or_init(|| build(&self.root))
            .as_ref()
            .map_err(|message| format!("cannot compile the ACP schema: {message}"))
    }

    /// Whether every member of `object` is one `name` declares (in `properties`, through `$ref`,
    /// `allOf`, `anyOf` and `oneOf`), or the definition admits any member by a schema in
    /// `additionalProperties` or `patternProperties`.
    pub(crate) fn declares_members(&self, name: &str, object: &Map<String, Value>) -> bool {
        let Some(definition) = self.defs().get(name) else {
            return false;
        };
        let mut declared = BTreeSet::new();
        let mut seen = HashSet::from([name.to_owned()]);
        if self.collect_members(definition, &mut seen, &mut declared) {
            return true;
        }
        object.keys().all(|key| declared.contains(key.as_str()))
    }

    /// Adds the members `schema` declares to `declared`; `true` when it admits any member.
    fn collect_members<'s>(
        &'s self,
        schema: &'s Value,
        seen: &mut HashSet<String>,
        declared: &mut BTreeSet<&'s str>,
    ) -> bool {
        let Some(schema) = schema.as_object() else {
            return false;
        };
        if schema.contains_key("patternProperties")
            || schema
                .get("additionalProperties")
                .is_some_and(Value::is_object)
        {
            return true;
        }
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            declared.extend(properties.keys().map(String::as_str));
        }
        if let Some(target) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/$defs/"))
        {
            if seen.insert(target.to_owned()) {
                if let Some(definition) = self.defs().get(target) {
                    if self.collect_members(definition, seen, declared) {
                        return true;
                    }
                }
            }
        }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            for branch in schema
                .get(keyword)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if self.collect_members(branch, seen, declared) {
                    return true;
                }
            }
        }
        false
    }
}

/// Compiles `schema` as 2020-12, never fetching anything.
fn build(schema: &Value) -> Built {
    jsonschema::draft202012::options()
        .offline()
        .build(schema)
        .map_err(|error| error.to_string())
}

/// Every `#/$defs/NAME` reachable from `node` by `$ref` without entering `$defs`.
fn refs_in<'v>(node: &'v Value, out: &mut HashSet<&'v str>) {
    match node {
        Value::Object(map) => {
            for (key, value) in map {
                if key == "$ref" {
                    if let Some(name) = value.as_str().and_then(|r| r.strip_prefix("#/$defs/")) {
                        out.insert(name);
                    }
                } else if key != "$defs" {
                    refs_in(value, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| refs_in(item, out)),
        _ => {}
    }
}

/// The definitions the message roots of each side list: `(client's, agent's)`.
fn listed_by_side(defs: &Map<String, Value>) -> (HashSet<&str>, HashSet<&str>) {
    let listed = |roots: [&str; 2]| {
        let mut names = HashSet::new();
        for root in roots {
            if let Some(node) = defs.get(root) {
                refs_in(node, &mut names);
            }
        }
        names
    };
    (
        listed(["ClientRequest", "ClientNotification"]),
        listed(["AgentRequest", "AgentNotification"]),
    )
}

/// The method table: every definition with `x-method` names a method's params (`XRequest`,
/// `XNotification`) or its result (`XResponse`, looked up from the request by name).
fn methods(defs: &Map<String, Value>) -> ByName<Method> {
    let (by_client, by_agent) = listed_by_side(defs);
    let sender_of = |definition: &str| match (
        by_client.contains(definition),
        by_agent.contains(definition),
    ) {
        (true, false) => Some(Sender::Client),
        (false, true) => Some(Sender::Peer),
        _ => None,
    };
    let mut methods = ByName::default();
    for (name, definition) in defs {
        let Some(method) = definition.get("x-method").and_then(Value::as_str) else {
            continue;
        };
        if name.ends_with("Response") {
            continue;
        }
        let role = if name.ends_with("Notification") {
            Role::Notification
        } else {
            let response = name
                .strip_suffix("Request")
                .map(|base| format!("{base}Response"))
                .filter(|response| defs.contains_key(response));
            Role::Request { response }
        };
        methods.entry(method.to_owned()).or_insert_with(|| Method {
            params: name.clone(),
            role,
            sender: sender_of(name),
        });
    }
    methods
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> AcpSchema {
        AcpSchema::new().expect("the ACP schema parses")
    }

    #[test]
    fn methods_come_from_x_method() {
        let schema = schema();
        assert_eq!(
            schema.method("session/update"),
            Some(&Method {
                params: "SessionNotification".to_owned(),
                role: Role::Notification,
                sender: Some(Sender::Peer),
            })
        );
        assert_eq!(
            schema.method("session/request_permission"),
            Some(&Method {
                params: "RequestPermissionRequest".to_owned(),
                role: Role::Request {
                    response: Some("RequestPermissionResponse".to_owned())
                },
                sender: Some(Sender::Peer),
            })
        );
        let sender = |method: &str| schema.method(method).and_then(|m| m.sender);
        assert_eq!(sender("session/prompt"), Some(Sender::Client));
        assert_eq!(sender("initialize"), Some(Sender::Client));
        assert_eq!(sender("session/cancel"), Some(Sender::Client));
        assert_eq!(sender("fs/read_text_file"), Some(Sender::Peer));
        assert_eq!(sender("$/cancel_request"), None);
        assert_eq!(
            schema.method("$/cancel_request").map(|m| m.params.as_str()),
            Some("CancelRequestNotification")
        );
        assert_eq!(schema.method("_zed.dev/anything"), None);
    }

    #[test]
    fn every_request_has_its_response_and_every_method_compiles() {
        let schema = schema();
        let mut names: Vec<&String> = schema.methods.keys().collect();
        names.sort();
        for name in names {
            let method = &schema.methods[name];
            schema.validator(&method.params).expect("params compile");
            if let Role::Request { response } = &method.role {
                let response = response.as_deref().expect("every request has a response");
                schema.validator(response).expect("response compiles");
            }
        }
        schema.root_validator().expect("root compiles");
    }

    #[test]
    fn validators_are_cached() {
        let schema = schema();
        let first: *const Validator = schema.validator("ContentBlock").expect("compiles");
        let second: *const Validator = schema.validator("ContentBlock").expect("compiles");
        assert_eq!(first, second);
        assert!(schema.validator("NoSuchDefinition").is_err());
    }

    #[test]
    fn declared_members_follow_refs_and_branches() {
        let schema = schema();
        let object = |value: Value| value.as_object().cloned().expect("object");
        assert!(schema.declares_members(
            "ContentBlock",
            &object(json!({"type": "text", "text": "hi"}))
        ));
        assert!(schema.declares_members(
            "ToolCallLocation",
            &object(json!({"path": "/x", "line": 1}))
        ));
        assert!(!schema.declares_members(
            "ClientCapabilities",
            &object(json!({"path": "/x", "line": 1}))
        ));
    }
}
