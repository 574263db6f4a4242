//! Shared helpers for the ACP corpus tests (`acp_roundtrip`, `acp_differential`): loading the
//! shared corpora, deciding which schema definition a message (or a part of it) must match, and
//! decoding a part into the generated type of that definition.
//!
//! Which definition a message is checked against:
//! - a JSON-RPC request or notification: its `params` against the definition whose `x-method`
//!   is the message's `method` (requests and notifications are told apart by which root
//!   definition, `AgentRequest`/`ClientRequest` or `AgentNotification`/`ClientNotification`/the
//!   protocol-level root, lists the definition); an `_`-prefixed method without a definition is
//!   an extension (`ExtRequest`/`ExtNotification`);
//! - a successful response: its `result` against the response definition of the method of the
//!   request it answers (`ExtResponse` for an extension method), paired by `id` *and* direction
//!   ([`Pending`]): both sides send requests and number them independently, so a response
//!   answers the latest pending request with its `id` that the *other* side sent. A line may say
//!   who sent it (`{"from": "client"|"agent", "message": ...}`, see [`unwrap_line`]); a bare
//!   request's sender is the side whose root (`ClientRequest`, `AgentRequest`) lists its method;
//!   a bare response whose `id` is pending in both directions is ambiguous and not checked
//!   (`valid` is an `Err` starting with `ambiguous pairing`). When there is no such request, the
//!   first response definition in schema order that accepts it and declares every member it
//!   has;
//! - an error response: its `error` against `Error`;
//! - a bare fragment (no `jsonrpc`): the first of [`FRAGMENT_CANDIDATES`] that accepts it and
//!   declares every top-level member it has (most definitions allow unknown members, so
//!   "accepts" alone would match `{"type":"text",...}` against `ClientCapabilities`).
//!
//! A JSON-RPC message is schema-valid when the root schema accepts it *and* the part accepts its
//! definition. The root check alone is vacuous for requests and notifications: their `params`
//! are an `anyOf` that includes `ExtRequest`/`ExtNotification`, which accept any value.

#![allow(
    dead_code,
    reason = "each test crate that includes this module uses a different subset of it"
)]

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};
use toolcall_contracts::{acp, decode, DecodeError, Leniency, LeniencyKind};
use toolcall_hops::pairing;

/// The official ACP documentation examples (one JSON value per line).
pub const DOCS: &str = "acp-examples/docs-v1.ndjson";
/// Real and third-party ACP v1 traffic (one JSON value per line).
pub const TRAFFIC: &str = "acp-traffic/messages.ndjson";
/// Per-line provenance of [`TRAFFIC`] (line N describes line N).
pub const TRAFFIC_PROVENANCE: &str = "acp-traffic/messages.provenance.ndjson";

/// Definitions a bare fragment is tried against, in order: the traffic checker's own list (what
/// `toolcall validate` tries), so that the corpus tests and the checker classify alike.
pub const FRAGMENT_CANDIDATES: &[&str] = toolcall_traffic::FRAGMENT_DEFINITIONS;

/// One line of a corpus.
pub struct Line {
    /// 1-based line number in the file.
    pub no: usize,
    /// The parsed JSON value.
    pub value: Value,
}

/// Reads an NDJSON corpus of `../shared/`; `None` (after printing a notice) when the file is
/// absent.
///
/// # Panics
/// When the file exists but a line is not JSON or cannot be read, and when it is absent under
/// CI (`toolcall_test_support::shared`).
pub fn load(relative: &str) -> Option<Vec<Line>> {
    let path = toolcall_test_support::shared(relative)?;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| Line {
            no: index + 1,
            value: serde_json::from_str(line)
                .unwrap_or_else(|error| panic!("{relative}:{}: not JSON: {error}", index + 1)),
        })
        .collect();
    Some(lines)
}

/// Which part of a message the target definition describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// `params` of a request or notification.
    Params,
    /// `result` of a successful response.
    Result,
    /// `error` of a failed response.
    Error,
    /// The whole value (a bare fragment).
    Whole,
}

impl Part {
    /// The RFC 6901 pointer of the part inside the message.
    pub fn pointer(self) -> &'static str {
        match self {
            Self::Params => "/params",
            Self::Result => "/result",
            Self::Error => "/error",
            Self::Whole => "",
        }
    }

    /// The part inside `message` (`null` for absent `params`, as JSON-RPC allows).
    pub fn of(self, message: &Value) -> Value {
        match self {
            Self::Whole => message.clone(),
            Self::Params => message.get("params").cloned().unwrap_or(Value::Null),
            Self::Result => message.get("result").cloned().unwrap_or(Value::Null),
            Self::Error => message.get("error").cloned().unwrap_or(Value::Null),
        }
    }
}

/// What a JSON-RPC message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Envelope {
    /// Has `method` and `id`.
    Request,
    /// Has `method`, no `id`.
    Notification,
    /// Has `result` or `error`.
    Response,
    /// No `jsonrpc` member.
    Fragment,
}

/// The definition a message part is checked against.
#[derive(Debug, Clone)]
pub struct Target {
    /// Name of the definition under `$defs`.
    pub def: String,
    /// Which part of the message it describes.
    pub part: Part,
    /// What kind of message it is.
    pub envelope: Envelope,
    /// The method (requests, notifications, and responses paired with a request).
    pub method: Option<String>,
    /// How the definition was chosen (for the printed counts).
    pub how: &'static str,
}

/// The verdict on one message.
#[derive(Debug, Clone)]
pub struct Classified {
    /// The definition to decode with, when one could be chosen.
    pub target: Option<Target>,
    /// `Ok` when schema-valid; else why not.
    pub valid: Result<(), String>,
}

/// Which side handles a method (`x-side`): `agent` methods are sent by the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The agent handles it (a client-to-agent message).
    Agent,
    /// The client handles it (an agent-to-client message).
    Client,
    /// Either side (protocol level, `$/...`).
    Protocol,
}

/// How a value stands against a definition ([`Schema::validity`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Validity {
    /// Valid, each member declared where it is (or declared nowhere in the schema).
    Exact,
    /// Valid only through an `anyOf` fallback that leaves members of other branches undeclared.
    Loose,
    /// Invalid.
    Invalid,
}

/// The ACP schema with its method tables and a cache of compiled per-definition validators.
pub struct Schema {
    defs: Map<String, Value>,
    root: jsonschema::Validator,
    requests: HashMap<String, String>,
    notifications: HashMap<String, String>,
    responses: HashMap<String, String>,
    /// Response definitions in schema order (fallback for unpaired responses).
    response_order: Vec<String>,
    sides: HashMap<String, Side>,
    validators: RefCell<HashMap<String, Rc<jsonschema::Validator>>>,
    property_names: BTreeSet<String>,
}

fn build(schema: &Value) -> jsonschema::Validator {
    jsonschema::draft202012::options()
        .offline()
        .build(schema)
        .unwrap_or_else(|error| panic!("the ACP schema compiles: {error}"))
}

/// Every `$ref` target name (`#/$defs/NAME`) reachable from `node` without entering `$defs`.
fn refs_in(node: &Value, out: &mut Vec<String>) {
    match node {
        Value::Object(map) => {
            for (key, value) in map {
                if key == "$ref" {
                    if let Some(name) = value.as_str().and_then(|r| r.strip_prefix("#/$defs/")) {
                        out.push(name.to_owned());
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

impl Schema {
    /// Parses [`acp::SCHEMA_JSON`] and builds the method tables from the `x-method` annotations.
    ///
    /// # Panics
    /// When the schema does not parse or compile, or when one method names two definitions.
    pub fn load() -> Self {
        let schema: Value = serde_json::from_str(acp::SCHEMA_JSON).expect("the schema is JSON");
        let defs = schema["$defs"]
            .as_object()
            .expect("the schema has $defs")
            .clone();
        let mut requests = HashMap::new();
        let mut notifications = HashMap::new();
        let mut responses = HashMap::new();
        let mut response_order = Vec::new();
        let mut sides = HashMap::new();
        let groups: [(&str, &Value); 7] = [
            ("request", &defs["AgentRequest"]),
            ("request", &defs["ClientRequest"]),
            ("response", &defs["AgentResponse"]),
            ("response", &defs["ClientResponse"]),
            ("notification", &defs["AgentNotification"]),
            ("notification", &defs["ClientNotification"]),
            // The protocol-level notifications are listed only by the root.
            ("notification", &schema["anyOf"]),
        ];
        for (group, node) in groups {
            let mut names = Vec::new();
            refs_in(node, &mut names);
            for name in names {
                let Some(method) = defs[&name].get("x-method").and_then(Value::as_str) else {
                    continue;
                };
                let side = match defs[&name].get("x-side").and_then(Value::as_str) {
                    Some("agent") => Side::Agent,
                    Some("client") => Side::Client,
                    _ => Side::Protocol,
                };
                sides.insert(method.to_owned(), side);
                let table = match group {
                    "request" => &mut requests,
                    "response" => &mut responses,
                    _ => &mut notifications,
                };
                if group == "response" && !response_order.contains(&name) {
                    response_order.push(name.clone());
                }
                if let Some(previous) = table.insert(method.to_owned(), name.clone()) {
                    assert_eq!(previous, name, "`{method}` names two {group} definitions");
                }
            }
        }
        assert!(!requests.is_empty() && !responses.is_empty() && !notifications.is_empty());
        let property_names = Self::collect_property_names(&defs);
        Self {
            root: build(&schema),
            defs,
            requests,
            notifications,
            responses,
            response_order,
            sides,
            validators: RefCell::new(HashMap::new()),
            property_names,
        }
    }

    /// Every definition named by an `x-method` annotation.
    pub fn method_defs(&self) -> BTreeSet<String> {
        self.requests
            .values()
            .chain(self.notifications.values())
            .chain(self.responses.values())
            .cloned()
            .collect()
    }

    /// Every `(kind, method, definition)` of the method tables, sorted; `kind` is
    /// [`Envelope::Request`] (params), [`Envelope::Response`] (result) or
    /// [`Envelope::Notification`] (params).
    pub fn methods(&self) -> Vec<(Envelope, String, String)> {
        let mut out: Vec<(Envelope, String, String)> = [
            (Envelope::Request, &self.requests),
            (Envelope::Response, &self.responses),
            (Envelope::Notification, &self.notifications),
        ]
        .into_iter()
        .flat_map(|(kind, table)| {
            table
                .iter()
                .map(move |(method, def)| (kind, method.clone(), def.clone()))
        })
        .collect();
        out.sort_by(|a, b| (&a.1, &a.2).cmp(&(&b.1, &b.2)));
        out
    }

    /// The side that handles `method`.
    pub fn side(&self, method: &str) -> Option<Side> {
        self.sides.get(method).copied()
    }

    /// Whether the root schema accepts `message`.
    pub fn root_valid(&self, message: &Value) -> bool {
        self.root.is_valid(message)
    }

    /// The validator of one definition (compiled once).
    fn validator(&self, def: &str) -> Rc<jsonschema::Validator> {
        if let Some(validator) = self.validators.borrow().get(def) {
            return Rc::clone(validator);
        }
        assert!(self.defs.contains_key(def), "no definition `{def}`");
        let schema = serde_json::json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": format!("#/$defs/{def}"),
            "$defs": self.defs,
        });
        let validator = Rc::new(build(&schema));
        self.validators
            .borrow_mut()
            .insert(def.to_owned(), Rc::clone(&validator));
        validator
    }

    /// Whether `value` is valid against the definition `def`.
    pub fn valid_against(&self, def: &str, value: &Value) -> bool {
        self.validator(def).is_valid(value)
    }

    /// The first validation error of `value` against `def` (for messages).
    pub fn first_error(&self, def: &str, value: &Value) -> String {
        match self.validator(def).validate(value) {
            Ok(()) => "valid".to_owned(),
            Err(error) => format!("{} at `{}`", error, error.instance_path()),
        }
    }

    /// Every `(member name, default)` pair the schema declares with a `default` keyword on a
    /// property.
    pub fn declared_defaults(&self) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        for definition in self.defs.values() {
            let properties = definition.get("properties").and_then(Value::as_object);
            for (name, property) in properties.into_iter().flatten() {
                if let Some(default) = property.get("default") {
                    out.push((name.clone(), default.clone()));
                }
            }
        }
        out
    }

    /// The member names a definition declares at its top level, through `$ref`, `allOf`,
    /// `anyOf` and `oneOf` (not into member schemas).
    pub fn declared_members(&self, def: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut seen = BTreeSet::new();
        self.collect_members(&self.defs[def], &mut seen, &mut out);
        out
    }

    fn collect_members(
        &self,
        node: &Value,
        seen: &mut BTreeSet<String>,
        out: &mut BTreeSet<String>,
    ) {
        let Some(map) = node.as_object() else { return };
        if let Some(properties) = map.get("properties").and_then(Value::as_object) {
            out.extend(properties.keys().cloned());
        }
        if let Some(name) = map
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/$defs/"))
        {
            if seen.insert(name.to_owned()) {
                self.collect_members(&self.defs[name], seen, out);
            }
        }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            for branch in map
                .get(keyword)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                self.collect_members(branch, seen, out);
            }
        }
    }

    /// Pointers (relative to `value`) of the object members that the schema does not declare
    /// where they are: walking `value` with the definition `def`, a member is undeclared when no
    /// applicable subschema of its object has it under `properties` or has an
    /// `additionalProperties` schema. Applicable subschemas: the node, its `$ref` target, every
    /// `allOf` branch, and the `anyOf`/`oneOf` branches that accept the value. Where that cannot
    /// be told (no branch accepts) or the object has no `properties` at all (free-form values
    /// such as `rawInput`), nothing below is listed.
    pub fn undeclared_members(&self, def: &str, value: &Value) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        self.walk_undeclared(&[&self.defs[def]], value, &mut String::new(), &mut out);
        out
    }

    fn walk_undeclared(
        &self,
        nodes: &[&Value],
        value: &Value,
        path: &mut String,
        out: &mut BTreeSet<String>,
    ) {
        let mut applicable = Vec::new();
        for node in nodes {
            if !self.applicable(node, value, &mut applicable) {
                return;
            }
        }
        match value {
            Value::Object(members) => {
                let with_properties: Vec<&Map<String, Value>> = applicable
                    .iter()
                    .filter_map(|node| node.get("properties").and_then(Value::as_object))
                    .collect();
                if with_properties.is_empty() {
                    return;
                }
                let additional: Vec<&Value> = applicable
                    .iter()
                    .filter_map(|node| node.get("additionalProperties"))
                    .filter(|schema| **schema != Value::Bool(false))
                    .collect();
                for (key, member) in members {
                    let declared: Vec<&Value> = with_properties
                        .iter()
                        .filter_map(|properties| properties.get(key))
                        .collect();
                    let len = path.len();
                    path.push('/');
                    path.push_str(&key.replace('~', "~0").replace('/', "~1"));
                    if !declared.is_empty() {
                        self.walk_undeclared(&declared, member, path, out);
                    } else if !additional.is_empty() {
                        self.walk_undeclared(&additional, member, path, out);
                    } else {
                        out.insert(path.clone());
                    }
                    path.truncate(len);
                }
            }
            Value::Array(items) => {
                let schemas: Vec<&Value> = applicable
                    .iter()
                    .filter_map(|node| node.get("items"))
                    .collect();
                if schemas.is_empty() {
                    return;
                }
                for (index, item) in items.iter().enumerate() {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&index.to_string());
                    self.walk_undeclared(&schemas, item, path, out);
                    path.truncate(len);
                }
            }
            _ => {}
        }
    }

    /// Adds `node` and the subschemas that apply to `value` with it; `false` when an
    /// `anyOf`/`oneOf` has no branch accepting `value`.
    fn applicable<'a>(&'a self, node: &'a Value, value: &Value, out: &mut Vec<&'a Value>) -> bool {
        let Some(map) = node.as_object() else {
            return true;
        };
        out.push(node);
        if let Some(name) = map
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/$defs/"))
        {
            if !self.applicable(&self.defs[name], value, out) {
                return false;
            }
        }
        for branch in map
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !self.applicable(branch, value, out) {
                return false;
            }
        }
        for keyword in ["anyOf", "oneOf"] {
            let Some(branches) = map.get(keyword).and_then(Value::as_array) else {
                continue;
            };
            let accepting: Vec<&Value> = branches
                .iter()
                .filter(|branch| self.subschema_valid(branch, value))
                .collect();
            if accepting.is_empty() {
                return false;
            }
            for branch in accepting {
                if !self.applicable(branch, value, out) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether `value` is valid against a subschema of the schema (compiled once per subschema).
    fn subschema_valid(&self, subschema: &Value, value: &Value) -> bool {
        let key = format!("subschema:{subschema}");
        let cached = self.validators.borrow().get(&key).cloned();
        let validator = cached.unwrap_or_else(|| {
            let mut schema = subschema.as_object().cloned().unwrap_or_default();
            schema.insert("$defs".to_owned(), Value::Object(self.defs.clone()));
            let validator = Rc::new(build(&Value::Object(schema)));
            self.validators
                .borrow_mut()
                .insert(key, Rc::clone(&validator));
            validator
        });
        validator.is_valid(value)
    }

    /// How `value` stands against `def`: [`Validity::Invalid`]; [`Validity::Loose`] when valid
    /// only with members that are undeclared where they are although the schema declares a
    /// property of that name elsewhere (an `anyOf` fallback took the value: `AuthMethod`'s `agent`
    /// branch accepts `{"type":"terminal","args":null,...}`, which the `terminal` branch rejects);
    /// else [`Validity::Exact`] (members the schema declares nowhere are allowed: every ACP
    /// object schema allows them).
    pub fn validity(&self, def: &str, value: &Value) -> Validity {
        if !self.valid_against(def, value) {
            return Validity::Invalid;
        }
        let names = &self.property_names;
        let loose = self.undeclared_members(def, value).iter().any(|pointer| {
            let name = pointer.rsplit('/').next().unwrap_or_default();
            names.contains(&name.replace("~1", "/").replace("~0", "~"))
        });
        if loose {
            Validity::Loose
        } else {
            Validity::Exact
        }
    }

    /// Every property name declared anywhere in `defs`.
    fn collect_property_names(defs: &Map<String, Value>) -> BTreeSet<String> {
        fn walk(node: &Value, out: &mut BTreeSet<String>) {
            match node {
                Value::Object(map) => {
                    if let Some(properties) = map.get("properties").and_then(Value::as_object) {
                        out.extend(properties.keys().cloned());
                    }
                    map.values().for_each(|value| walk(value, out));
                }
                Value::Array(items) => items.iter().for_each(|item| walk(item, out)),
                _ => {}
            }
        }
        let mut out = BTreeSet::new();
        defs.values().for_each(|def| walk(def, &mut out));
        out
    }

    /// Whether `value` matches `def` as a whole: valid, and (for an object) every member it has
    /// is declared.
    pub fn matches(&self, def: &str, value: &Value) -> bool {
        if !self.valid_against(def, value) {
            return false;
        }
        let Some(object) = value.as_object() else {
            return true;
        };
        let declared = self.declared_members(def);
        object.keys().all(|key| declared.contains(key))
    }

    /// Chooses the definition for a bare `message` and decides whether it is schema-valid;
    /// requests are recorded in `pending`.
    pub fn classify(&self, message: &Value, pending: &mut Pending) -> Classified {
        self.classify_from(message, None, pending)
    }

    /// The side that sends `method`: the one handling it is the other (`x-side`).
    pub fn sender_of(&self, method: &str) -> Option<Sender> {
        match self.side(method)? {
            Side::Agent => Some(Sender::Client),
            Side::Client => Some(Sender::Agent),
            Side::Protocol => None,
        }
    }

    /// As [`Schema::classify`], for a message `from` one side when the transcript says so.
    pub fn classify_from(
        &self,
        message: &Value,
        from: Option<Sender>,
        pending: &mut Pending,
    ) -> Classified {
        let Some(object) = message.as_object() else {
            return Classified {
                target: None,
                valid: Err("not an object".to_owned()),
            };
        };
        if !object.contains_key("jsonrpc") {
            return self.classify_fragment(message);
        }
        let root_valid = self.root_valid(message);
        let id = object.get("id").map(Value::to_string);
        let (target, part_valid) =
            if let Some(method) = object.get("method").and_then(Value::as_str) {
                let (envelope, table, ext) = match &id {
                    Some(id) => {
                        pending.add(id, method, from.or_else(|| self.sender_of(method)));
                        (Envelope::Request, &self.requests, "ExtRequest")
                    }
                    None => (
                        Envelope::Notification,
                        &self.notifications,
                        "ExtNotification",
                    ),
                };
                let (def, how) = match table.get(method) {
                    Some(def) => (def.clone(), "x-method"),
                    None if method.starts_with('_') => (ext.to_owned(), "extension method"),
                    None => {
                        return Classified {
                            target: None,
                            valid: Err(format!("unknown method `{method}`")),
                        }
                    }
                };
                let target = Target {
                    def,
                    part: Part::Params,
                    envelope,
                    method: Some(method.to_owned()),
                    how,
                };
                let params = Part::Params.of(message);
                let valid = if self.valid_against(&target.def, &params) {
                    Ok(())
                } else {
                    Err(format!(
                        "params invalid against `{}`: {}",
                        target.def,
                        self.first_error(&target.def, &params)
                    ))
                };
                (target, valid)
            } else if object.contains_key("error") {
                let target = Target {
                    def: "Error".to_owned(),
                    part: Part::Error,
                    envelope: Envelope::Response,
                    method: match id.as_ref().map(|id| pending.answer(id, from)) {
                        Some(Pairing::Paired(method)) => Some(method),
                        _ => None,
                    },
                    how: "error response",
                };
                let error = Part::Error.of(message);
                let valid = if self.valid_against("Error", &error) {
                    Ok(())
                } else {
                    Err(format!(
                        "error invalid: {}",
                        self.first_error("Error", &error)
                    ))
                };
                (target, valid)
            } else if object.contains_key("result") {
                let result = Part::Result.of(message);
                let method = match id.as_ref().map(|id| pending.answer(id, from)) {
                    Some(Pairing::Paired(method)) => Some(method),
                    Some(Pairing::Ambiguous(methods)) => {
                        return Classified {
                            target: None,
                            valid: Err(format!(
                                "ambiguous pairing: `id` {} is pending in both directions ({})",
                                id.unwrap_or_default(),
                                methods.join(", ")
                            )),
                        }
                    }
                    Some(Pairing::NotSeen) | None => None,
                };
                let paired =
                    method
                        .as_deref()
                        .and_then(|method| match self.responses.get(method) {
                            Some(def) => Some(def.clone()),
                            None if method.starts_with('_') => Some("ExtResponse".to_owned()),
                            None => None,
                        });
                let (def, how, method, valid) =
                    match paired {
                        Some(def) => {
                            let valid = if self.valid_against(&def, &result) {
                                Ok(())
                            } else {
                                Err(format!(
                                    "result invalid against `{def}` (paired by id): {}",
                                    self.first_error(&def, &result)
                                ))
                            };
                            (def, "paired by id", method, valid)
                        }
                        None => match self
                            .response_order
                            .iter()
                            .find(|def| self.matches(def, &result))
                        {
                            Some(def) => (
                                def.clone(),
                                "first matching response definition",
                                None,
                                Ok(()),
                            ),
                            None => return Classified {
                                target: None,
                                valid: Err(
                                    "unpaired response, no response definition matches the result"
                                        .to_owned(),
                                ),
                            },
                        },
                    };
                let target = Target {
                    def,
                    part: Part::Result,
                    envelope: Envelope::Response,
                    method,
                    how,
                };
                (target, valid)
            } else {
                return Classified {
                    target: None,
                    valid: Err("neither a request, a notification nor a response".to_owned()),
                };
            };
        let valid = match (root_valid, part_valid) {
            (true, valid) => valid,
            (false, _) => Err("rejected by the root schema".to_owned()),
        };
        Classified {
            target: Some(target),
            valid,
        }
    }

    fn classify_fragment(&self, value: &Value) -> Classified {
        match FRAGMENT_CANDIDATES
            .iter()
            .find(|def| self.matches(def, value))
        {
            Some(def) => Classified {
                target: Some(Target {
                    def: (*def).to_owned(),
                    part: Part::Whole,
                    envelope: Envelope::Fragment,
                    method: None,
                    how: "fragment",
                }),
                valid: Ok(()),
            },
            None => Classified {
                target: None,
                valid: Err("fragment matches no candidate definition".to_owned()),
            },
        }
    }
}

/// Who sent a message (a transcript line's `from`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sender {
    /// The client.
    Client,
    /// The agent.
    Agent,
}

impl Sender {
    /// The side as the library's pairing sees it.
    fn role(self) -> pairing::Role {
        match self {
            Self::Client => pairing::Role::Client,
            Self::Agent => pairing::Role::Peer,
        }
    }
}

/// A transcript line: `{"from": "client"|"agent", "message": M}` is `(Some(side), M)`, any other
/// value is a bare message `(None, value)`.
pub fn unwrap_line(value: &Value) -> (Option<Sender>, Value) {
    if let Some(object) = value.as_object().filter(|object| object.len() == 2) {
        let from = match object.get("from").and_then(Value::as_str) {
            Some("client") => Some(Sender::Client),
            Some("agent") => Some(Sender::Agent),
            _ => None,
        };
        if let (Some(from), Some(message)) = (from, object.get("message")) {
            return (Some(from), message.clone());
        }
    }
    (None, value.clone())
}

/// What a response answers ([`Pending::answer`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pairing {
    /// The request of this method.
    Paired(String),
    /// No pending request with the id could be answered by the response.
    NotSeen,
    /// Requests with the id are pending in more than one direction: their methods.
    Ambiguous(Vec<String>),
}

/// The requests of one input still waiting for their response, with who sent them: the
/// library's pairing (`toolcall_hops::pairing`, what `toolcall validate` and the relay use),
/// keyed by the id's JSON text and keeping each request's method.
#[derive(Debug, Default)]
pub struct Pending(pairing::Pending<String, String>);

impl Pending {
    /// Records a request.
    pub fn add(&mut self, id: &str, method: &str, from: Option<Sender>) {
        self.0
            .request(id.to_owned(), from.map(Sender::role), method.to_owned());
    }

    /// The request a response with `id` (sent by `from`, when known) answers: the latest pending
    /// request with the id of each direction the response can answer; one is paired (and
    /// removed), several are ambiguous (removed once as many ambiguous responses came).
    pub fn answer(&mut self, id: &str, from: Option<Sender>) -> Pairing {
        match self.0.answer(&id.to_owned(), from.map(Sender::role)) {
            pairing::Answer::Paired(method) => Pairing::Paired(method),
            pairing::Answer::NotSeen => Pairing::NotSeen,
            pairing::Answer::Ambiguous(methods) => Pairing::Ambiguous(methods),
        }
    }
}

/// Our decode of one part: its re-encoding and the leniency report.
pub struct Ours {
    /// `serde_json::to_value` of the decoded value.
    pub encoded: Value,
    /// The leniency report (pointers relative to the decoded part).
    pub report: Vec<Leniency>,
}

impl Ours {
    /// The leniency applied to a part the schema accepts as it is: the report without the
    /// unknown enum values and union tags that decoding kept at their place (a value a catch-all
    /// branch accepts, such as `NoticeSeverity`'s `_vendor_debug`, is valid and kept: no
    /// leniency). The rule `toolcall validate` applies (README, `toolcall validate`).
    pub fn leniency_on_valid(&self) -> Vec<&Leniency> {
        self.report
            .iter()
            .filter(|leniency| {
                let kept = matches!(
                    leniency.kind,
                    LeniencyKind::UnknownValue | LeniencyKind::UnknownVariant
                ) && self.encoded.pointer(&leniency.pointer) == Some(&leniency.raw);
                !kept
            })
            .collect()
    }
}

/// Decodes with [`decode`] (the optimistic one-pass path, with a careful second pass only
/// when something fails or leniency applies) and, as a check of that fast path on every input
/// the tests feed, with plain `serde_json::from_slice` (no session: every lenient member
/// captured and decoded carefully): both must accept the same inputs and give the same value.
///
/// # Panics
/// When the two paths disagree.
fn ours_as<T: DeserializeOwned + Serialize>(json: &[u8]) -> Result<Ours, DecodeError> {
    let plain = serde_json::from_slice::<T>(json)
        .map(|value| serde_json::to_value(&value).expect("a decoded value encodes"));
    let decoded = match decode::<T>(json) {
        Ok(decoded) => decoded,
        Err(error) => {
            assert!(
                plain.is_err(),
                "decode failed ({error}) where plain serde_json::from_slice accepted: {}",
                String::from_utf8_lossy(json)
            );
            return Err(error);
        }
    };
    let encoded = serde_json::to_value(&decoded.value).expect("a decoded value encodes");
    match &plain {
        Ok(value) => assert!(
            *value == encoded,
            "decode and plain serde_json::from_slice give different values for {}",
            String::from_utf8_lossy(json)
        ),
        Err(error) => panic!(
            "plain serde_json::from_slice failed ({error}) where decode accepted: {}",
            String::from_utf8_lossy(json)
        ),
    }
    Ok(Ours {
        encoded,
        report: decoded.report,
    })
}

/// Calls `$callback! { Name, ... }` with every definition the tests decode by name: all
/// `x-method` definitions, the extension payloads, `Error` and the fragment candidates.
macro_rules! with_def_names {
    ($callback:ident) => {
        $callback! {
            // Client-to-agent requests and their responses.
            InitializeRequest, InitializeResponse, AuthenticateRequest, AuthenticateResponse,
            LogoutRequest, LogoutResponse, NewSessionRequest, NewSessionResponse,
            LoadSessionRequest, LoadSessionResponse, ListSessionsRequest, ListSessionsResponse,
            DeleteSessionRequest, DeleteSessionResponse, ResumeSessionRequest,
            ResumeSessionResponse, CloseSessionRequest, CloseSessionResponse,
            SetSessionModeRequest, SetSessionModeResponse, SetSessionConfigOptionRequest,
            SetSessionConfigOptionResponse, PromptRequest, PromptResponse,
            // Agent-to-client requests and their responses.
            WriteTextFileRequest, WriteTextFileResponse, ReadTextFileRequest,
            ReadTextFileResponse, RequestPermissionRequest, RequestPermissionResponse,
            CreateTerminalRequest, CreateTerminalResponse, TerminalOutputRequest,
            TerminalOutputResponse, ReleaseTerminalRequest, ReleaseTerminalResponse,
            WaitForTerminalExitRequest, WaitForTerminalExitResponse, KillTerminalRequest,
            KillTerminalResponse, CreateElicitationRequest, CreateElicitationResponse,
            // Notifications.
            SessionNotification, CompleteElicitationNotification, CancelNotification,
            CancelRequestNotification,
            // Extensions and errors.
            ExtRequest, ExtResponse, ExtNotification, Error,
            // Fragment candidates.
            ContentBlock, ToolCallContent, SessionUpdate, ToolCall, ToolCallUpdate,
            ToolCallLocation, PermissionOption, PlanEntry, AuthMethod, McpServer,
            SessionConfigOption, SessionMode, AvailableCommand, ClientCapabilities,
            AgentCapabilities,
        }
    };
}
#[allow(
    unused_imports,
    reason = "used by `acp_differential`, not by `acp_roundtrip`"
)]
pub(crate) use with_def_names;

macro_rules! ours_table {
    ($($name:ident),* $(,)?) => {
        /// Every definition name [`decode_ours`] knows.
        pub const DEF_NAMES: &[&str] = &[$(stringify!($name)),*];

        /// Decodes `json` as the generated type of `def`; `None` when `def` is not in the table.
        pub fn decode_ours(def: &str, json: &[u8]) -> Option<Result<Ours, DecodeError>> {
            match def {
                $(stringify!($name) => Some(ours_as::<acp::$name>(json)),)*
                _ => None,
            }
        }
    };
}
with_def_names!(ours_table);

/// Whether two JSON numbers are the same number: exactly for two integers, by `f64` value when
/// either has a fraction or exponent (`0` and `0.0` are one JSON number; a `number` member decodes
/// as `f64` and re-encodes `0` as `0.0`).
pub fn same_number(left: &serde_json::Number, right: &serde_json::Number) -> bool {
    if left.is_f64() || right.is_f64() {
        left.as_f64() == right.as_f64()
    } else {
        left == right
    }
}

/// The first place where `left` and `right` differ, as `` `pointer`: left vs right `` with
/// `prefix` before the pointer; numbers compare with [`same_number`], object members in any
/// order.
pub fn first_difference(left: &Value, right: &Value, prefix: &str) -> Option<String> {
    fn walk(left: &Value, right: &Value, path: &mut String) -> Option<String> {
        match (left, right) {
            (Value::Object(l), Value::Object(r)) => {
                let keys: BTreeSet<&String> = l.keys().chain(r.keys()).collect();
                for key in keys {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&key.replace('~', "~0").replace('/', "~1"));
                    let found = match (l.get(key), r.get(key)) {
                        (Some(a), Some(b)) => walk(a, b, path),
                        (a, b) => Some(format!("`{path}`: {} vs {}", show(a), show(b))),
                    };
                    if found.is_some() {
                        return found;
                    }
                    path.truncate(len);
                }
                None
            }
            (Value::Array(l), Value::Array(r)) if l.len() == r.len() => {
                for (index, (a, b)) in l.iter().zip(r).enumerate() {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&index.to_string());
                    if let Some(found) = walk(a, b, path) {
                        return Some(found);
                    }
                    path.truncate(len);
                }
                None
            }
            (Value::Number(a), Value::Number(b)) if same_number(a, b) => None,
            _ if left == right => None,
            _ => Some(format!("`{path}`: {left} vs {right}")),
        }
    }
    fn show(value: Option<&Value>) -> String {
        value.map_or_else(|| "(absent)".to_owned(), Value::to_string)
    }
    walk(left, right, &mut prefix.to_owned())
}

/// A short rendering of a report: `kind@pointer` items.
pub fn render_report(report: &[Leniency], prefix: &str) -> String {
    report
        .iter()
        .map(|leniency| format!("{}@{prefix}{}", leniency.kind, leniency.pointer))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Shortens a JSON text for messages.
pub fn brief(value: &Value) -> String {
    let text = value.to_string();
    if text.len() <= 160 {
        text
    } else {
        let mut end = 157;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &text[..end])
    }
}

/// A known failure: a bug in the generated types (or a divergence the schema cannot express),
/// reported to the owner of `codegen/`. Listed cases must still fail, so that a fix shows up as a
/// test failure asking to remove the entry.
pub struct KnownBug {
    /// The check that fails (a test-specific name).
    pub check: &'static str,
    /// The corpus ([`DOCS`], [`TRAFFIC`], or a test's own name for its inputs).
    pub corpus: &'static str,
    /// The failing cases: 1-based line numbers of a corpus, or the test's names for its inputs.
    pub cases: &'static [&'static str],
    /// Why it fails, with the minimal input.
    pub reason: &'static str,
}

/// The failures of one check over one corpus, split into known and unexpected.
pub struct Failures {
    known_bugs: &'static [KnownBug],
    check: &'static str,
    corpus: &'static str,
    /// Failures not listed as known bugs.
    pub unexpected: Vec<String>,
    /// `(case, reason)` of the failures listed as known bugs.
    pub known: Vec<(String, &'static str)>,
}

impl Failures {
    /// No failures yet of `check` over `corpus`.
    pub fn new(known_bugs: &'static [KnownBug], check: &'static str, corpus: &'static str) -> Self {
        Self {
            known_bugs,
            check,
            corpus,
            unexpected: Vec::new(),
            known: Vec::new(),
        }
    }

    /// Records the failure of `case` (a line number or a name; `value` is shown for unexpected
    /// ones).
    pub fn record(&mut self, case: impl ToString, value: &Value, why: &str) {
        let case = case.to_string();
        let bug = self.known_bugs.iter().find(|bug| {
            bug.check == self.check
                && bug.corpus == self.corpus
                && bug.cases.contains(&case.as_str())
        });
        match bug {
            Some(bug) => self.known.push((case, bug.reason)),
            None => self.unexpected.push(format!(
                "{}:{case}: {why}\n    input: {}",
                self.corpus,
                brief(value)
            )),
        }
    }

    /// How many failed in all.
    pub fn len(&self) -> usize {
        self.known.len() + self.unexpected.len()
    }

    /// Prints the known and the unexpected failures.
    pub fn print(&self) {
        for (case, reason) in &self.known {
            println!("  known bug at {}:{case}: {reason}", self.corpus);
        }
        for failure in &self.unexpected {
            println!("  FAILED {failure}");
        }
    }

    /// Asserts no unexpected failure, and that every listed known bug still failed.
    ///
    /// # Panics
    /// On an unexpected failure or a known bug that passed.
    pub fn assert(&self) {
        assert!(
            self.unexpected.is_empty(),
            "{} unexpected failures of `{}` over {}:\n{}",
            self.unexpected.len(),
            self.check,
            self.corpus,
            self.unexpected.join("\n")
        );
        let failed: BTreeSet<&str> = self.known.iter().map(|(case, _)| case.as_str()).collect();
        let fixed: Vec<String> = self
            .known_bugs
            .iter()
            .filter(|bug| bug.check == self.check && bug.corpus == self.corpus)
            .flat_map(|bug| bug.cases.iter().map(move |case| (*case, bug.reason)))
            .filter(|(case, _)| !failed.contains(case))
            .map(|(case, reason)| format!("{}:{case} ({reason})", self.corpus))
            .collect();
        assert!(
            fixed.is_empty(),
            "known bugs no longer fail `{}`; remove them from KNOWN_BUGS: {fixed:?}",
            self.check
        );
    }
}
