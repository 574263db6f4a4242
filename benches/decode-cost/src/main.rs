//! Decode cost of the generated ACP and MCP types: every message of a corpus decoded with
//! `toolcall_contracts::decode` as the generated type that takes it (chosen before measuring,
//! with an empty leniency report).
//!
//! `RUN=acp|mcp PASSES=n toolcall-decode-cost` decodes the corpus n times in `measured`, which
//! callgrind counts alone (`--toggle-collect='toolcall_decode_cost::measured'`):
//! - `acp`: the 232 real ACP messages of `../shared/acp-traffic/messages.ndjson` as
//!   `AgentNotification`, `AgentRequest`, `ClientResponse`...;
//! - `mcp`: the server-everything transcript and the 2025-11-25 transcript of
//!   `tests/fixtures/` (135 messages), requests and notifications as `ClientRequest`,
//!   `ServerNotification`..., results as `ServerResult` or `ClientResult` (MCP 2025-11-25).
//!
//! - `checked` and `checked-jsonschema` (feature `checked`): a module for a user's schema whose
//!   types need run-time checks (`codegen/tests/checked_pattern_properties_closed`: `exports`
//!   with `patternProperties` and `additionalProperties`), its valid instances and the `exports`
//!   of a real package.json, 100 times each; decoded as the generated type, or (the
//!   alternative) parsed as a `serde_json::Value` and validated by the `jsonschema` crate alone
//!   against the same definition, its validator compiled before measuring.
//!
//! `SHARED` and `FIXTURES` name the folders (default: beside and inside this checkout).

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use toolcall_contracts::acp;
use toolcall_contracts::mcp::v2025_11_25 as mcp;

type Decoder = fn(&[u8]) -> bool;

fn decodes<T: DeserializeOwned>(bytes: &[u8]) -> bool {
    matches!(toolcall_contracts::decode::<T>(bytes), Ok(d) if d.report.is_empty())
}

fn pick(bytes: &[u8], candidates: &[Decoder]) -> Option<Decoder> {
    candidates.iter().copied().find(|d| d(bytes))
}

fn folder(var: &str, default: &str) -> PathBuf {
    std::env::var_os(var).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(default),
        PathBuf::from,
    )
}

fn lines(path: PathBuf) -> Vec<String> {
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

/// The module `toolcall-codegen generate --schema` writes for the snapshot case.
#[cfg(feature = "checked")]
mod checked {
    include!("../../../codegen/tests/checked_pattern_properties_closed/expected.rs");
}

#[cfg(feature = "checked")]
static SCHEMA: &str =
    include_str!("../../../codegen/tests/checked_pattern_properties_closed/schema.json");

#[cfg(feature = "checked")]
fn validator(definition: &str) -> jsonschema::Validator {
    let mut root: serde_json::Value = serde_json::from_str(SCHEMA).unwrap();
    root["$ref"] = serde_json::Value::from(format!("#/$defs/{definition}"));
    jsonschema::validator_for(&root).unwrap()
}

#[cfg(feature = "checked")]
fn jsonschema_exports(bytes: &[u8]) -> bool {
    static V: std::sync::OnceLock<jsonschema::Validator> = std::sync::OnceLock::new();
    let value: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    V.get_or_init(|| validator("Exports")).is_valid(&value)
}

#[cfg(feature = "checked")]
fn jsonschema_extensions(bytes: &[u8]) -> bool {
    static V: std::sync::OnceLock<jsonschema::Validator> = std::sync::OnceLock::new();
    let value: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    V.get_or_init(|| validator("Extensions")).is_valid(&value)
}

#[cfg(feature = "checked")]
fn checked_corpus(which: &str) -> Vec<(Vec<u8>, Decoder)> {
    let ours = which == "checked";
    let exports: Decoder = if ours {
        decodes::<checked::Exports>
    } else {
        jsonschema_exports
    };
    let extensions: Decoder = if ours {
        decodes::<checked::Extensions>
    } else {
        jsonschema_extensions
    };
    let instances: serde_json::Value = serde_json::from_str(include_str!(
        "../../../codegen/tests/checked_pattern_properties_closed/instances.json"
    ))
    .unwrap();
    let mut messages: Vec<(String, Decoder)> = instances["valid"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let decoder = if i["type"] == "Exports" {
                exports
            } else {
                extensions
            };
            (i["value"].to_string(), decoder)
        })
        .collect();
    // The `exports` of SchemaStore's `src/test/package/exports-test.json`.
    messages.push((
        r#"{".":"./lib/index.js","./lib":"./lib/index.js","./lib/index":"./lib/index.js","./lib/index.js":"./lib/index.js","./feature":"./feature/index.js","./feature/index.js":"./feature/index.js","./all/*":"./lib/*.js","./package.json":"./package.json"}"#
            .to_owned(),
        exports,
    ));
    let mut out = Vec::new();
    for _ in 0..100 {
        for (text, decoder) in &messages {
            assert!(decoder(text.as_bytes()), "{which}: {text} is refused");
            out.push((text.clone().into_bytes(), *decoder));
        }
    }
    out
}

fn corpus(which: &str) -> Vec<(Vec<u8>, Decoder)> {
    let mut out = Vec::new();
    let mut missed = 0;
    #[cfg(feature = "checked")]
    if which.starts_with("checked") {
        out = checked_corpus(which);
    }
    if which.starts_with("checked") {
        assert!(!out.is_empty(), "`{which}` needs the feature `checked`");
    } else if which == "acp" {
        let candidates: &[Decoder] = &[
            decodes::<acp::AgentNotification>,
            decodes::<acp::AgentRequest>,
            decodes::<acp::ClientResponse>,
            decodes::<acp::AgentResponse>,
            decodes::<acp::ClientRequest>,
            decodes::<acp::ClientNotification>,
        ];
        let shared = folder("SHARED", "../../../shared");
        for line in lines(shared.join("acp-traffic/messages.ndjson")) {
            match pick(line.as_bytes(), candidates) {
                Some(d) => out.push((line.into_bytes(), d)),
                None => missed += 1,
            }
        }
    } else {
        let fixtures = folder("FIXTURES", "../../tests/fixtures");
        let results: &[Decoder] = &[decodes::<mcp::ServerResult>, decodes::<mcp::ClientResult>];
        let messages: &[Decoder] = &[
            decodes::<mcp::ClientRequest>,
            decodes::<mcp::ServerRequest>,
            decodes::<mcp::ClientNotification>,
            decodes::<mcp::ServerNotification>,
            decodes::<mcp::JSONRPCMessage>,
        ];
        for file in [
            "mcp/server-everything/transcript.ndjson",
            "transcripts/mcp_2025-11-25.ndjson",
        ] {
            for line in lines(fixtures.join(file)) {
                let record: BTreeMap<String, Box<RawValue>> = serde_json::from_str(&line).unwrap();
                let message = record["message"].get();
                let members: BTreeMap<String, Box<RawValue>> =
                    serde_json::from_str(message).unwrap();
                let (bytes, candidates) = match members.get("result") {
                    Some(result) => (result.get().as_bytes().to_vec(), results),
                    None => (message.as_bytes().to_vec(), messages),
                };
                match pick(&bytes, candidates) {
                    Some(d) => out.push((bytes, d)),
                    None => missed += 1,
                }
            }
        }
    }
    let bytes: usize = out.iter().map(|(b, _)| b.len()).sum();
    eprintln!(
        "{which}: {} messages, {bytes} bytes, {missed} that no type takes (left out)",
        out.len()
    );
    out
}

#[inline(never)]
fn measured(corpus: &[(Vec<u8>, Decoder)]) -> usize {
    corpus
        .iter()
        .filter(|(bytes, d)| d(std::hint::black_box(bytes)))
        .count()
}

fn main() {
    let which = std::env::var("RUN").unwrap_or_else(|_| "acp".into());
    let passes: usize = std::env::var("PASSES")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(5);
    let corpus = corpus(&which);
    let mut decoded = 0;
    for _ in 0..passes {
        decoded += measured(&corpus);
    }
    assert_eq!(decoded, corpus.len() * passes, "a message stopped decoding");
}
