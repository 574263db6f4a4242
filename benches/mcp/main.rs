//! MCP results (2025-11-25), decoded three ways on the same bytes, side by side in one
//! interleaved run: `decode::<ServerResult>` (the untagged union: every branch tried in schema
//! order), `ServerResult::decode_for(method, ..)` (the branch the request names, in one pass),
//! and `rmcp` 3.11.0's `ServerResult` (serde `untagged`, what its client decodes a response
//! into). See BENCHMARKS.md, section "MCP".
//!
//! Workloads: a `tools/list` result of 50 tools (the reference server's 19 real tools, from
//! `tests/fixtures/mcp/server-everything/tools-list.json`, repeated under new names) and
//! `tools/call` results of 1, 2, 4 and 8 KB (a text block cut from those tools' descriptions,
//! and the `structuredContent` of the reference server's `get-structured-content` tool).
//!
//! ```sh
//! cargo bench --bench mcp --features mcp-2025-11-25             # interleaved wall clock
//! MCP_RUN=tools_list/decode_for MCP_PASSES=11 valgrind --tool=callgrind \
//!     target/release/deps/mcp-<hash>                             # instructions of one variant
//! ```
//!
//! Instructions per pass: `Collected` with `MCP_PASSES=11` minus with `MCP_PASSES=1`, over 10
//! (`scripts/mcp-bench-instructions.sh` does it for every variant).

use std::hint::black_box;
use std::time::Duration;

use serde_json::{json, Value};
use toolcall_contracts::decode;
use toolcall_contracts::mcp::v2025_11_25::ServerResult;

const TOOLS_LIST: &str = include_str!("../../tests/fixtures/mcp/server-everything/tools-list.json");

/// Interleaved rounds; each round runs every variant for about [`SLICE`].
const ROUNDS: usize = 15;
const SLICE: Duration = Duration::from_millis(20);

/// One workload: its name, the request's method and the result's bytes.
struct Workload {
    name: String,
    method: &'static str,
    json: Vec<u8>,
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
    let mut out = vec![Workload {
        name: "tools_list_50".into(),
        method: "tools/list",
        json: serde_json::to_vec(&json!({ "tools": tools })).unwrap(),
    }];
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
        out.push(Workload {
            name: format!("tools_call_{kb}k"),
            method: "tools/call",
            json: serde_json::to_vec(&result).unwrap(),
        });
    }
    out
}

type Pass<'a> = Box<dyn Fn() + 'a>;

/// The variants of one workload, in order: union, decode_for, rmcp.
fn variants(w: &Workload) -> Vec<(&'static str, Pass<'_>)> {
    vec![
        (
            "union",
            Box::new(|| {
                black_box(decode::<ServerResult>(black_box(&w.json)).unwrap());
            }),
        ),
        (
            "decode_for",
            Box::new(|| {
                black_box(ServerResult::decode_for(w.method, black_box(&w.json)).unwrap());
            }),
        ),
        (
            "rmcp",
            Box::new(|| {
                black_box(
                    serde_json::from_slice::<rmcp::model::ServerResult>(black_box(&w.json))
                        .unwrap(),
                );
            }),
        ),
    ]
}

/// Before measuring: each decoder takes each workload as the branch the method names, and ours
/// re-encodes to the same JSON.
fn check(w: &Workload) {
    let input: Value = serde_json::from_slice(&w.json).unwrap();
    let union = decode::<ServerResult>(&w.json).unwrap().value;
    let paired = ServerResult::decode_for(w.method, &w.json).unwrap().value;
    let (expected, theirs) = match w.method {
        "tools/list" => ("ListToolsResult", "ListToolsResult"),
        _ => ("CallToolResult", "CallToolResult"),
    };
    for value in [&union, &paired] {
        assert!(format!("{value:?}").starts_with(expected), "{}", w.name);
        let output: Value =
            serde_json::from_slice(&toolcall_contracts::encode(value).unwrap()).unwrap();
        assert_eq!(output, input, "{}", w.name);
    }
    let rmcp = serde_json::from_slice::<rmcp::model::ServerResult>(&w.json).unwrap();
    assert!(
        format!("{rmcp:?}").starts_with(theirs),
        "{}: {rmcp:?}",
        w.name
    );
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
        let variants = variants(w);
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
        "{:<16} {:>7} {:>11} {:>11} {:>11} {:>14} {:>14}",
        "workload", "bytes", "union", "decode_for", "rmcp", "union/rmcp", "decode_for/rmcp"
    );
    for w in &workloads {
        if !filter.is_empty() && !filter.iter().any(|f| w.name.contains(f.as_str())) {
            continue;
        }
        let variants = variants(w);
        let best = interleaved(&variants);
        // Speed ratios: ours over rmcp in results per second (rmcp's time over ours).
        println!(
            "{:<16} {:>7} {:>11.0} {:>11.0} {:>11.0} {:>13.2}x {:>13.2}x",
            w.name,
            w.json.len(),
            best[0],
            best[1],
            best[2],
            best[2] / best[0],
            best[2] / best[1]
        );
    }
}

/// Best ns per pass of each variant over [`ROUNDS`] interleaved rounds, the order rotating.
fn interleaved(variants: &[(&'static str, Pass<'_>)]) -> Vec<f64> {
    let passes: Vec<&dyn Fn()> = variants
        .iter()
        .map(|(_, pass)| &**pass as &dyn Fn())
        .collect();
    toolcall_test_support::interleaved_best(&passes, ROUNDS, SLICE)
}
