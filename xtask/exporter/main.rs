//! Prints the ACP v1 JSON Schema of `agent-client-protocol-schema` to stdout.
//!
//! `toolcall-codegen acp export` copies this file into a scratch Cargo project (under
//! `target/acp-export/<version>/`), never into the workspace, and runs it with
//! `cargo run --release --quiet --locked`. Features say what the pinned crate version has:
//!
//! - `v1_module`: the types live in `agent_client_protocol_schema::v1` (else at the crate root);
//! - `protocol_level`: the crate has `ProtocolLevelNotification` (`$/cancel_request`).
//!
//! The settings match how upstream publishes `schema.json`; `acp_export::SETTINGS` lists them
//! and its tests check that each one appears here.

#[cfg(not(feature = "v1_module"))]
use agent_client_protocol_schema as acp;
#[cfg(feature = "v1_module")]
use agent_client_protocol_schema::v1 as acp;

use acp::{
    AgentNotification, AgentRequest, AgentResponse, ClientNotification, ClientRequest,
    ClientResponse, JsonRpcMessage, Notification, Request, Response,
};
use schemars::generate::SchemaSettings;
use schemars::transform::{RemoveRefSiblings, ReplaceBoolSchemas};
use schemars::JsonSchema;

// Any message the agent sends. No doc comments on these types: schemars would turn them into
// `description`s that upstream's schema does not have.
#[derive(JsonSchema)]
#[serde(untagged)]
#[schemars(inline)]
#[expect(dead_code, reason = "only the schema of this type is used")]
enum AgentOutgoingMessage {
    Request(Request<AgentRequest>),
    Response(Response<AgentResponse>),
    Notification(Notification<AgentNotification>),
}

// Any message the client sends.
#[derive(JsonSchema)]
#[serde(untagged)]
#[schemars(inline)]
#[expect(dead_code, reason = "only the schema of this type is used")]
enum ClientOutgoingMessage {
    Request(Request<ClientRequest>),
    Response(Response<ClientResponse>),
    Notification(Notification<ClientNotification>),
}

// The root; its `title` is upstream's.
#[derive(JsonSchema)]
#[serde(untagged)]
#[schemars(title = "Agent Client Protocol")]
#[expect(dead_code, reason = "only the schema of this type is used")]
enum AgentClientProtocol {
    Agent(JsonRpcMessage<AgentOutgoingMessage>),
    Client(JsonRpcMessage<ClientOutgoingMessage>),
    #[cfg(feature = "protocol_level")]
    ProtocolLevel(JsonRpcMessage<Notification<acp::ProtocolLevelNotification>>),
}

fn main() {
    let mut settings = SchemaSettings::draft2020_12();
    settings.untagged_enum_variant_titles = true;
    let mut replace_bool_schemas = ReplaceBoolSchemas::default();
    replace_bool_schemas.skip_additional_properties = true;
    let generator = settings
        .with_transform(RemoveRefSiblings::default())
        .with_transform(replace_bool_schemas)
        .into_generator();
    let schema = generator.into_root_schema_for::<AgentClientProtocol>();
    let json = serde_json::to_string_pretty(&schema).expect("a schema always serializes");
    println!("{json}");
}
