//! MCP results (2025-11-25), decoded four ways on the same bytes, side by side in one
//! interleaved run: `decode::<ServerResult>` (the untagged union: every branch tried in schema
//! order), `ServerResult::decode_for(method, ..)` (the branch the request names, in one pass),
//! `rmcp` 3.11.0's `ServerResult` (serde `untagged`, what its client decodes a response into),
//! and rust-mcp-schema's (0.9.5, its release for 2025-11-25; serde `untagged` too). See
//! BENCHMARKS.md, section "MCP".
//!
//! Workloads: a `tools/list` result of 50 tools (the reference server's 19 real tools, from
//! `tests/fixtures/mcp/server-everything/tools-list.json`, repeated under new names) and
//! `tools/call` results of 1, 2, 4 and 8 KB (a text block cut from those tools' descriptions,
//! and the `structuredContent` of the reference server's `get-structured-content` tool); and
//! `live_everything`, every result the reference server sent in a recorded session with the
//! official TypeScript client (`tests/fixtures/mcp/server-everything/transcript.ndjson`), each
//! with the method of the request it answers, a pass decoding them all.
//!
//! And whole messages: `live_messages`, every message of that session, both directions, as its
//! sender's message type: ours `ClientMessage`/`ServerMessage::decode` with no method for the
//! responses (`union`: results decoded as the result union) and with the method of the request
//! each answers (`decode_for`), rmcp's `ClientJsonRpcMessage`/`ServerJsonRpcMessage`, and
//! rust-mcp-schema's `schema_utils::{ClientMessage, ServerMessage}` (all serde `untagged`).
//!
//! ```sh
//! cargo bench --bench mcp --features mcp-2025-11-25             # interleaved wall clock
//! MCP_RUN=tools_list/decode_for MCP_PASSES=11 valgrind --tool=callgrind \
//!     target/release/deps/mcp-<hash>                             # instructions of one variant
//! ```
//!
//! Then each workload's values (decoded once by each crate) encoded: ours with
//! `toolcall_contracts::encode`, theirs with `serde_json::to_vec` (variants `encode`,
//! `encode_rmcp`, `encode_rust_mcp_schema`).
//!
//! Instructions per pass: `Collected` with `MCP_PASSES=11` minus with `MCP_PASSES=1`, over 10
//! (`scripts/mcp-bench-instructions.sh` does it for every variant).

use std::hint::black_box;
use std::time::Duration;

use serde_json::{json, Value};
use toolcall_contracts::mcp::v2025_11_25::{ClientMessage, ServerMessage, ServerResult};
use toolcall_contracts::{decode, encode};

/// rust-mcp-schema's `ServerResult` of MCP 2025-11-25 (0.9.5, serde `untagged`).
type TheirResult = rust_mcp_schema_2025::mcp_2025_11_25::ServerResult;
/// rust-mcp-schema's messages by side (0.9.5, serde `untagged`).
use rust_mcp_schema_2025::mcp_2025_11_25::schema_utils::{
    ClientMessage as TheirClientMessage, ServerMessage as TheirServerMessage,
};

const TOOLS_LIST: &str = include_str!("../../tests/fixtures/mcp/server-everything/tools-list.json");
const LIVE: &str = include_str!("../../tests/fixtures/mcp/server-everything/transcript.ndjson");

/// Interleaved rounds; each round runs every variant for about [`SLICE`].
const ROUNDS: usize = 15;
const SLICE: Duration = Duration::from_millis(20);

/// One workload: its name and its results, each with the method of the request it answers, or
/// whole messages; a pass decodes every one once.
struct Workload {
    name: String,
    results: Vec<(String, Vec<u8>)>,
    messages: Vec<Message>,
}

/// A whole message of the live session: who sent it, its text, and for a response the method
/// of the request it answers.
struct Message {
    from_client: bool,
    json: Vec<u8>,
    answers: Option<String>,
}

impl Workload {
    fn one(name: String, method: &str, json: Vec<u8>) -> Self {
        Self {
            name,
            results: vec![(method.to_owned(), json)],
            messages: Vec::new(),
        }
    }

    fn bytes(&self) -> usize {
        self.results
            .iter()
            .map(|(_, json)| json.len())
            .sum::<usize>()
            + self.messages.iter().map(|m| m.json.len()).sum::<usize>()
    }
}

/// Every result the reference server sent in the recorded session
/// (`tests/fixtures/mcp/server-everything/transcript.ndjson`: the official TypeScript client
/// and server-everything over stdio), with the method of the client's request it answers.
fn live() -> Workload {
    type Members<'a> = std::collections::BTreeMap<&'a str, &'a serde_json::value::RawValue>;
    let results = live_messages()
        .messages
        .into_iter()
        .filter(|m| !m.from_client)
        .filter_map(|m| {
            let method = m.answers?;
            let members: Members<'_> = serde_json::from_slice(&m.json).unwrap();
            // The result's text as the server wrote it.
            let result = members.get("result")?.get().as_bytes().to_vec();
            Some((method, result))
        })
        .collect();
    Workload {
        name: "live_everything".into(),
        results,
        messages: Vec::new(),
    }
}

/// Every message of the same session, both directions, each response with the method of the
/// request it answers.
fn live_messages() -> Workload {
    use serde_json::value::RawValue;
    type Members<'a> = std::collections::BTreeMap<&'a str, &'a RawValue>;
    let mut pending = std::collections::HashMap::new();
    let mut messages = Vec::new();
    for line in LIVE.lines() {
        let record: Members<'_> = serde_json::from_str(line).unwrap();
        let from_client = record["from"].get() == r#""client""#;
        let text = record["message"].get();
        let message: Members<'_> = serde_json::from_str(text).unwrap();
        let mut answers = None;
        if let Some(id) = message.get("id").map(|id| id.get()) {
            if let Some(method) = message.get("method") {
                let method: String = serde_json::from_str(method.get()).unwrap();
                pending.insert((from_client, id), method);
            } else {
                answers = pending.remove(&(!from_client, id));
            }
        }
        messages.push(Message {
            from_client,
            json: text.as_bytes().to_vec(),
            answers,
        });
    }
    Workload {
        name: "live_messages".into(),
        results: Vec::new(),
        messages,
    }
}

fn workloads() -> Vec<Workload> {
    let listed: Value = serde_json::from_str(TOOLS_LIST).unwrap();
    let real = listed["tools"].as_array().unwrap();
    let tools: Vec<Value> = (0..50)
        .map(|i| {
            let mut tool = real[i % real.len()].clone();
            let name = format!("{}-{}", tool["name"].as_str().unwrap(), i / real.len());
            tool["name"] = json!(name);
            tool
        })
        .collect();
    let mut out = vec![Workload::one(
        "tools_list_50".into(),
        "tools/list",
        serde_json::to_vec(&json!({ "tools": tools })).unwrap(),
    )];
    let text: String = real
        .iter()
        .filter_map(|tool| tool["description"].as_str())
        .collect::<Vec<_>>()
        .join("\n");
    for kb in [1, 2, 4, 8] {
        let mut body = String::new();
        while body.len() < kb * 1024 {
            body.push_str(&text);
            body.push('\n');
        }
        let mut result = json!({
            "content": [{ "type": "text", "text": "" }],
            "structuredContent": {
                "temperature": 22.5, "conditions": "Partly cloudy", "humidity": 65
            },
        });
        let frame = serde_json::to_vec(&result).unwrap().len();
        let escaped = |s: &str| serde_json::to_string(s).unwrap().len() - 2;
        let mut cut = kb * 1024 - frame;
        while escaped(&body[..cut]) > kb * 1024 - frame || !body.is_char_boundary(cut) {
            cut -= 1;
        }
        result["content"][0]["text"] = json!(&body[..cut]);
        out.push(Workload::one(
            format!("tools_call_{kb}k"),
            "tools/call",
            serde_json::to_vec(&result).unwrap(),
        ));
    }
    out.push(live());
    out.push(live_messages());
    out
}

type Pass<'a> = Box<dyn Fn() + 'a>;

/// The variants of one workload, in order: union, decode_for, rmcp, rust-mcp-schema.
fn variants(w: &Workload) -> Vec<(&'static str, Pass<'_>)> {
    if !w.messages.is_empty() {
        return message_variants(w);
    }
    vec![
        (
            "union",
            Box::new(|| {
                for (_, json) in &w.results {
                    black_box(decode::<ServerResult>(black_box(json)).unwrap());
                }
            }),
        ),
        (
            "decode_for",
            Box::new(|| {
                for (method, json) in &w.results {
                    black_box(ServerResult::decode_for(method, black_box(json)).unwrap());
                }
            }),
        ),
        (
            "rmcp",
            Box::new(|| {
                for (_, json) in &w.results {
                    black_box(
                        serde_json::from_slice::<rmcp::model::ServerResult>(black_box(json))
                            .unwrap(),
                    );
                }
            }),
        ),
        (
            "rust_mcp_schema",
            Box::new(|| {
                for (_, json) in &w.results {
                    black_box(serde_json::from_slice::<TheirResult>(black_box(json)).unwrap());
                }
            }),
        ),
    ]
}

/// Ours by side (results by the union, then by their request's method), rmcp's and
/// rust-mcp-schema's message types.
fn message_variants(w: &Workload) -> Vec<(&'static str, Pass<'_>)> {
    let ours = |paired: bool| {
        move || {
            for m in &w.messages {
                let method = if paired { m.answers.as_deref() } else { None };
                if m.from_client {
                    black_box(ClientMessage::decode(black_box(&m.json), |_| method).unwrap());
                } else {
                    black_box(ServerMessage::decode(black_box(&m.json), |_| method).unwrap());
                }
            }
        }
    };
    vec![
        ("union", Box::new(ours(false))),
        ("decode_for", Box::new(ours(true))),
        (
            "rmcp",
            Box::new(|| {
                for m in &w.messages {
                    if m.from_client {
                        black_box(
                            serde_json::from_slice::<rmcp::model::ClientJsonRpcMessage>(black_box(
                                &m.json,
                            ))
                            .unwrap(),
                        );
                    } else {
                        black_box(
                            serde_json::from_slice::<rmcp::model::ServerJsonRpcMessage>(black_box(
                                &m.json,
                            ))
                            .unwrap(),
                        );
                    }
                }
            }),
        ),
        (
            "rust_mcp_schema",
            Box::new(|| {
                for m in &w.messages {
                    if m.from_client {
                        black_box(
                            serde_json::from_slice::<TheirClientMessage>(black_box(&m.json))
                                .unwrap(),
                        );
                    } else {
                        black_box(
                            serde_json::from_slice::<TheirServerMessage>(black_box(&m.json))
                                .unwrap(),
                        );
                    }
                }
            }),
        ),
    ]
}

/// Before measuring: every decoder accepts every result, ours re-encode it to the same JSON, and
/// each takes a synthetic workload's result as the branch its method names.
fn check(w: &Workload) {
    for m in &w.messages {
        let input: Value = serde_json::from_slice(&m.json).unwrap();
        let method = m.answers.as_deref();
        let (ours, rmcp, theirs) = if m.from_client {
            (
                ClientMessage::decode(&m.json, |_| method).map(|d| encode(&d.value).unwrap()),
                serde_json::from_slice::<rmcp::model::ClientJsonRpcMessage>(&m.json).map(|_| ()),
                serde_json::from_slice::<TheirClientMessage>(&m.json).map(|_| ()),
            )
        } else {
            (
                ServerMessage::decode(&m.json, |_| method).map(|d| encode(&d.value).unwrap()),
                serde_json::from_slice::<rmcp::model::ServerJsonRpcMessage>(&m.json).map(|_| ()),
                serde_json::from_slice::<TheirServerMessage>(&m.json).map(|_| ()),
            )
        };
        let output: Value = serde_json::from_slice(&ours.unwrap()).unwrap();
        assert_eq!(output, input, "{}", w.name);
        rmcp.unwrap_or_else(|e| panic!("rmcp refuses {input}: {e}"));
        theirs.unwrap_or_else(|e| panic!("rust-mcp-schema refuses {input}: {e}"));
    }
    for (method, json) in &w.results {
        let input: Value = serde_json::from_slice(json).unwrap();
        let union = decode::<ServerResult>(json).unwrap().value;
        let paired = ServerResult::decode_for(method, json).unwrap().value;
        let rmcp = serde_json::from_slice::<rmcp::model::ServerResult>(json)
            .unwrap_or_else(|e| panic!("{}, {method}: rmcp refuses: {e}", w.name));
        let theirs = serde_json::from_slice::<TheirResult>(json)
            .unwrap_or_else(|e| panic!("{}, {method}: rust-mcp-schema refuses: {e}", w.name));
        for value in [&union, &paired] {
            let output: Value = serde_json::from_slice(&encode(value).unwrap()).unwrap();
            assert_eq!(output, input, "{}, {method}", w.name);
        }
        let expected = match method.as_str() {
            // Not for the live session's results: a task-augmented `tools/call` there is
            // answered with a `CreateTaskResult`, its other methods' branches are named
            // differently by each crate.
            _ if w.results.len() > 1 => continue,
            "tools/list" => "ListToolsResult",
            _ => "CallToolResult",
        };
        for shown in [
            format!("{union:?}"),
            format!("{paired:?}"),
            format!("{rmcp:?}"),
            format!("{theirs:?}"),
        ] {
            assert!(shown.starts_with(expected), "{}: {shown}", w.name);
        }
    }
}

fn main() {
    let workloads = workloads();
    for w in &workloads {
        check(w);
    }
    if let Ok(name) = std::env::var("MCP_RUN") {
        let passes: usize = std::env::var("MCP_PASSES")
            .ok()
            .and_then(|p| p.parse().ok())
            .unwrap_or(10);
        let (workload, variant) = name.split_once('/').expect("MCP_RUN=<workload>/<variant>");
        let w = workloads
            .iter()
            .find(|w| w.name == workload)
            .expect("a workload");
        let mut variants = variants(w);
        variants.extend(encode_variants(w));
        let (_, pass) = variants
            .iter()
            .find(|(n, _)| *n == variant)
            .expect("a variant");
        for _ in 0..passes {
            pass();
        }
        return;
    }
    // `cargo bench` passes `--bench`; any other argument filters workloads by name.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    println!("interleaved: {ROUNDS} rounds, best round per variant (ns per result)");
    println!(
        "{:<16} {:>7} {:>10} {:>10} {:>10} {:>10} {:>12} {:>12}",
        "workload",
        "bytes",
        "union",
        "decode_for",
        "rmcp",
        "rust-mcp",
        "union/faster",
        "for/faster"
    );
    for w in &workloads {
        if !filter.is_empty() && !filter.iter().any(|f| w.name.contains(f.as_str())) {
            continue;
        }
        let variants = variants(w);
        let best = interleaved(&variants);
        // Speed ratios: ours over the faster of rmcp and rust-mcp-schema (its time over ours).
        let faster = best[2].min(best[3]);
        println!(
            "{:<16} {:>7} {:>10.0} {:>10.0} {:>10.0} {:>10.0} {:>11.2}x {:>11.2}x",
            w.name,
            w.bytes(),
            best[0],
            best[1],
            best[2],
            best[3],
            faster / best[0],
            faster / best[1]
        );
    }
    println!("\nencode, interleaved: {ROUNDS} rounds, best round per variant (ns per pass)");
    println!(
        "{:<16} {:>10} {:>10} {:>10} {:>12}",
        "workload", "ours", "rmcp", "rust-mcp", "ours/faster"
    );
    for w in &workloads {
        if !filter.is_empty() && !filter.iter().any(|f| w.name.contains(f.as_str())) {
            continue;
        }
        let best = interleaved(&encode_variants(w));
        println!(
            "{:<16} {:>10.0} {:>10.0} {:>10.0} {:>11.2}x",
            w.name,
            best[0],
            best[1],
            best[2],
            best[1].min(best[2]) / best[0]
        );
    }
}

/// The values of a workload decoded once by each crate, then encoded per pass: ours with
/// `toolcall_contracts::encode`, rmcp's and rust-mcp-schema's with `serde_json::to_vec`.
/// Variants `encode`, `encode_rmcp`, `encode_rust_mcp_schema`.
fn encode_variants(w: &Workload) -> Vec<(&'static str, Pass<'static>)> {
    fn each<T: 'static>(values: Vec<T>, write: fn(&T) -> Vec<u8>) -> Pass<'static> {
        Box::new(move || {
            for value in &values {
                black_box(write(black_box(value)));
            }
        })
    }
    if !w.messages.is_empty() {
        let (mut ours_client, mut ours_server) = (Vec::new(), Vec::new());
        let (mut rmcp_client, mut rmcp_server) = (Vec::new(), Vec::new());
        let (mut their_client, mut their_server) = (Vec::new(), Vec::new());
        for m in &w.messages {
            let method = m.answers.as_deref();
            if m.from_client {
                ours_client.push(ClientMessage::decode(&m.json, |_| method).unwrap().value);
                rmcp_client.push(
                    serde_json::from_slice::<rmcp::model::ClientJsonRpcMessage>(&m.json).unwrap(),
                );
                their_client.push(serde_json::from_slice::<TheirClientMessage>(&m.json).unwrap());
            } else {
                ours_server.push(ServerMessage::decode(&m.json, |_| method).unwrap().value);
                rmcp_server.push(
                    serde_json::from_slice::<rmcp::model::ServerJsonRpcMessage>(&m.json).unwrap(),
                );
                their_server.push(serde_json::from_slice::<TheirServerMessage>(&m.json).unwrap());
            }
        }
        return vec![
            (
                "encode",
                Box::new(move || {
                    for v in &ours_client {
                        black_box(encode(black_box(v)).unwrap());
                    }
                    for v in &ours_server {
                        black_box(encode(black_box(v)).unwrap());
                    }
                }),
            ),
            (
                "encode_rmcp",
                Box::new(move || {
                    for v in &rmcp_client {
                        black_box(serde_json::to_vec(black_box(v)).unwrap());
                    }
                    for v in &rmcp_server {
                        black_box(serde_json::to_vec(black_box(v)).unwrap());
                    }
                }),
            ),
            (
                "encode_rust_mcp_schema",
                Box::new(move || {
                    for v in &their_client {
                        black_box(serde_json::to_vec(black_box(v)).unwrap());
                    }
                    for v in &their_server {
                        black_box(serde_json::to_vec(black_box(v)).unwrap());
                    }
                }),
            ),
        ];
    }
    let ours = w
        .results
        .iter()
        .map(|(method, json)| ServerResult::decode_for(method, json).unwrap().value)
        .collect();
    let rmcp = w
        .results
        .iter()
        .map(|(_, json)| serde_json::from_slice::<rmcp::model::ServerResult>(json).unwrap())
        .collect();
    let theirs = w
        .results
        .iter()
        .map(|(_, json)| serde_json::from_slice::<TheirResult>(json).unwrap())
        .collect();
    vec![
        ("encode", each(ours, |v| encode(v).unwrap())),
        (
            "encode_rmcp",
            each(rmcp, |v| serde_json::to_vec(v).unwrap()),
        ),
        (
            "encode_rust_mcp_schema",
            each(theirs, |v| serde_json::to_vec(v).unwrap()),
        ),
    ]
}

/// Best ns per pass of each variant over [`ROUNDS`] interleaved rounds, the order rotating.
fn interleaved(variants: &[(&'static str, Pass<'_>)]) -> Vec<f64> {
    let passes: Vec<&dyn Fn()> = variants
        .iter()
        .map(|(_, pass)| &**pass as &dyn Fn())
        .collect();
    toolcall_test_support::interleaved_best(&passes, ROUNDS, SLICE)
}
