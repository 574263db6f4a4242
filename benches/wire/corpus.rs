//! A deterministic benchmark corpus: ACP `session/update` notification params
//! (`SessionNotification` JSON) and route bodies (`ToolCallRequest` JSON).
//!
//! Everything comes from one seeded xorshift64* generator, so a seed gives the same bytes on
//! every machine and every run (no dependency beyond `serde_json`). Messages are compact JSON,
//! as an agent sends them on the wire.
//!
//! The mix follows what an editor sees during a coding turn:
//! - `tool_call` edits carrying a `diff` (old and new text of 1 to 6 KB), `locations` and the
//!   edit tool's `rawInput`;
//! - `tool_call` reads, searches and commands carrying `text` content (0.5 to 4 KB);
//! - `tool_call_update` status changes alone (small, the most frequent message of a stream);
//! - `tool_call_update` completions and failures carrying `text` content and `rawOutput`;
//! - `_meta` on about one message in five, at the notification or the tool call.

use serde_json::{json, Map, Value};

/// The seed of the corpus the benchmarks and BENCHMARKS.md use.
pub const SEED: u64 = 0x7001_ca11_c0de_2026;

/// xorshift64* (Vigna): small, fast, and good enough to vary a corpus.
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (a zero seed, which xorshift cannot leave, is replaced).
    pub fn new(seed: u64) -> Self {
        Self(if seed == 0 {
            0x9e37_79b9_7f4a_7c15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        // The top bits are the best of xorshift64*; the modulo bias is irrelevant here.
        ((self.next_u64() >> 16) % n as u64) as usize
    }

    /// A number in `low..=high`.
    pub fn between(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high - low + 1)
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One element of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// `len` lowercase hex digits.
    pub fn hex(&mut self, len: usize) -> String {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        (0..len)
            .map(|_| char::from(DIGITS[self.below(16)]))
            .collect()
    }
}

const IDENTS: &[&str] = &[
    "config",
    "request",
    "response",
    "session",
    "tool_call",
    "handler",
    "buffer",
    "index",
    "result",
    "error",
    "path",
    "options",
    "value",
    "len",
    "items",
    "state",
    "decoder",
    "schema",
    "pointer",
    "report",
];

const TYPES: &[&str] = &[
    "String",
    "Vec<u8>",
    "Option<&str>",
    "HashMap<String, Value>",
    "Result<(), Error>",
    "usize",
    "PathBuf",
    "Arc<Mutex<State>>",
];

const WORDS: &[&str] = &[
    "the",
    "file",
    "was",
    "updated",
    "with",
    "new",
    "settings",
    "for",
    "debug",
    "logging",
    "and",
    "tests",
    "passed",
    "in",
    "module",
    "error",
    "warning",
    "unused",
    "variable",
    "compiling",
    "finished",
    "target",
    "release",
    "profile",
    "running",
    "build",
    "cache",
    "naïve",
    "façade",
    "→",
    "✓",
    "日本語",
    "ok",
];

const DIRS: &[&str] = &[
    "src",
    "src/acp",
    "src/route",
    "tests",
    "codegen/src",
    "crates/core/src",
    "docs",
];

const FILES: &[&str] = &[
    "lib.rs",
    "main.rs",
    "decode.rs",
    "config.json",
    "mod.rs",
    "handler.ts",
    "README.md",
    "schema.json",
];

fn path(rng: &mut Rng) -> String {
    format!("/home/user/project/{}/{}", rng.pick(DIRS), rng.pick(FILES))
}

/// One line of Rust-like source, with the quotes, backslashes and tabs that JSON must escape.
fn source_line(rng: &mut Rng, out: &mut String) {
    let indent = rng.below(4) * 4;
    out.extend(std::iter::repeat_n(' ', indent));
    let a = rng.pick(IDENTS);
    let b = rng.pick(IDENTS);
    match rng.below(8) {
        0 => out.push_str(&format!("let {a}: {} = {b}.clone();", rng.pick(TYPES))),
        1 => out.push_str(&format!("if {a}.is_empty() {{ return Err(Error::{b}); }}")),
        2 => out.push_str(&format!("// {} {} {}", rng.pick(WORDS), rng.pick(WORDS), a)),
        3 => out.push_str(&format!(
            "log::debug!(\"{a} = {{:?}}\\t{}\", {b});",
            rng.pick(WORDS)
        )),
        4 => out.push_str(&format!(
            "fn {a}_{b}(&self, {b}: {}) -> usize {{",
            rng.pick(TYPES)
        )),
        5 => out.push('}'),
        6 => out.push_str(&format!("{a}.push_str(\"{}\\n\");", rng.pick(WORDS))),
        _ => out.push_str(&format!(
            "let {a} = {b}.get({}).unwrap_or_default();",
            rng.below(100)
        )),
    }
    out.push('\n');
}

/// Source text of `low` to `high` bytes (about; whole lines).
fn source_text(rng: &mut Rng, low: usize, high: usize) -> String {
    let bytes = rng.between(low, high);
    let mut out = String::with_capacity(bytes + 80);
    while out.len() < bytes {
        source_line(rng, &mut out);
    }
    out
}

/// Tool output (compiler or command output, search hits) of `low` to `high` bytes (about).
fn output_text(rng: &mut Rng, low: usize, high: usize) -> String {
    let bytes = rng.between(low, high);
    let mut out = String::with_capacity(bytes + 80);
    while out.len() < bytes {
        match rng.below(3) {
            0 => out.push_str(&format!(
                "{}:{}:{}: ",
                path(rng),
                rng.between(1, 900),
                rng.between(1, 80)
            )),
            1 => out.push_str("   Compiling "),
            _ => {}
        }
        for _ in 0..rng.between(4, 14) {
            let word: &&str = rng.pick(WORDS);
            out.push_str(word);
            out.push(' ');
        }
        out.push('\n');
    }
    out
}

/// `old` with a few lines replaced and inserted, as an edit tool would produce.
fn edited(rng: &mut Rng, old: &str) -> String {
    let mut out = String::with_capacity(old.len() + 256);
    for line in old.lines() {
        match rng.below(20) {
            0 => source_line(rng, &mut out),
            1 => {
                out.push_str(line);
                out.push('\n');
                source_line(rng, &mut out);
            }
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

fn meta(rng: &mut Rng) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert(
        "zed.dev/trace".to_owned(),
        json!({"traceId": rng.hex(32), "spanId": rng.hex(16)}),
    );
    if rng.chance(50) {
        map.insert(
            "example.com/cost".to_owned(),
            json!({"inputTokens": rng.below(20_000), "outputTokens": rng.below(4_000), "cached": rng.chance(50)}),
        );
    }
    map
}

fn text_content(text: String) -> Value {
    json!({"type": "content", "content": {"type": "text", "text": text}})
}

fn location(rng: &mut Rng) -> Value {
    if rng.chance(70) {
        json!({"path": path(rng), "line": rng.between(1, 2_000)})
    } else {
        json!({"path": path(rng)})
    }
}

/// A `tool_call` that edits a file: one or two diffs, their locations and the edit tool's input.
fn edit_call(rng: &mut Rng, id: &str) -> Map<String, Value> {
    let mut content = Vec::new();
    let mut locations = Vec::new();
    let file = path(rng);
    let old = source_text(rng, 1_000, 6_000);
    let new = edited(rng, &old);
    let snippet_at = rng.below(old.len() / 2);
    let snippet_at = (snippet_at..old.len())
        .find(|&i| old.is_char_boundary(i))
        .unwrap_or(0);
    let snippet_end = (snippet_at + 200).min(old.len());
    let snippet_end = (snippet_end..=old.len())
        .find(|&i| old.is_char_boundary(i))
        .unwrap_or(old.len());
    let raw_input = json!({
        "file_path": file,
        "old_string": &old[snippet_at..snippet_end],
        "new_string": source_text(rng, 150, 250),
        "replace_all": false,
    });
    if rng.chance(15) {
        // A new file: no `oldText`.
        content.push(json!({"type": "diff", "path": file, "newText": new}));
    } else {
        content.push(json!({"type": "diff", "path": file, "oldText": old, "newText": new}));
    }
    locations.push(json!({"path": file, "line": rng.between(1, 400)}));
    if rng.chance(25) {
        let second = path(rng);
        let old = source_text(rng, 500, 2_000);
        let new = edited(rng, &old);
        content.push(json!({"type": "diff", "path": second, "oldText": old, "newText": new}));
        locations.push(json!({"path": second}));
    }
    let mut call = Map::new();
    call.insert("sessionUpdate".into(), json!("tool_call"));
    call.insert("toolCallId".into(), json!(id));
    call.insert("title".into(), json!(format!("Edit {file}")));
    if rng.chance(60) {
        call.insert("name".into(), json!("edit_file"));
    }
    call.insert("kind".into(), json!("edit"));
    call.insert(
        "status".into(),
        json!(*rng.pick(&["pending", "in_progress"])),
    );
    call.insert("content".into(), Value::Array(content));
    call.insert("locations".into(), Value::Array(locations));
    call.insert("rawInput".into(), raw_input);
    call
}

/// A `tool_call` that reads, searches, runs or fetches, with its first output as text.
fn text_call(rng: &mut Rng, id: &str) -> Map<String, Value> {
    let (kind, name, title, raw_input) = match rng.below(4) {
        0 => {
            let file = path(rng);
            (
                "read",
                "read_file",
                format!("Read {file}"),
                json!({"path": file, "offset": rng.below(500), "limit": 200}),
            )
        }
        1 => {
            let pattern = format!("fn {}", rng.pick(IDENTS));
            (
                "search",
                "grep",
                format!("Search `{pattern}`"),
                json!({"pattern": pattern, "path": "/home/user/project", "glob": "*.rs", "-n": true}),
            )
        }
        2 => {
            let command = format!(
                "cargo test --locked -p {} -- {}",
                rng.pick(IDENTS),
                rng.pick(IDENTS)
            );
            (
                "execute",
                "terminal",
                format!("Run `{command}`"),
                json!({"command": command, "cwd": "/home/user/project", "timeout_ms": 120_000, "env": {"RUST_BACKTRACE": "1"}}),
            )
        }
        _ => (
            "fetch",
            "fetch",
            "Fetch https://docs.rs/serde_json".to_owned(),
            json!({"url": "https://docs.rs/serde_json/latest/serde_json/", "max_length": 5_000}),
        ),
    };
    let mut call = Map::new();
    call.insert("sessionUpdate".into(), json!("tool_call"));
    call.insert("toolCallId".into(), json!(id));
    call.insert("title".into(), json!(title));
    call.insert("name".into(), json!(name));
    call.insert("kind".into(), json!(kind));
    call.insert("status".into(), json!("in_progress"));
    let text = if kind == "read" {
        source_text(rng, 500, 4_000)
    } else {
        output_text(rng, 500, 4_000)
    };
    call.insert("content".into(), json!([text_content(text)]));
    if kind != "fetch" {
        let locations: Vec<Value> = (0..rng.between(1, 3)).map(|_| location(rng)).collect();
        call.insert("locations".into(), Value::Array(locations));
    }
    call.insert("rawInput".into(), raw_input);
    call
}

/// A `tool_call_update` that changes the status and nothing else.
fn status_update(rng: &mut Rng, id: &str) -> Map<String, Value> {
    let mut update = Map::new();
    update.insert("sessionUpdate".into(), json!("tool_call_update"));
    update.insert("toolCallId".into(), json!(id));
    update.insert(
        "status".into(),
        json!(*rng.pick(&["in_progress", "in_progress", "completed"])),
    );
    update
}

/// A `tool_call_update` that completes or fails a call, with its output.
fn result_update(rng: &mut Rng, id: &str) -> Map<String, Value> {
    let failed = rng.chance(25);
    let mut update = Map::new();
    update.insert("sessionUpdate".into(), json!("tool_call_update"));
    update.insert("toolCallId".into(), json!(id));
    update.insert(
        "status".into(),
        json!(if failed { "failed" } else { "completed" }),
    );
    if rng.chance(30) {
        update.insert("title".into(), json!(format!("Ran {}", rng.pick(IDENTS))));
    }
    let text = if failed {
        format!(
            "error[E0308]: mismatched types\n --> {}:{}:{}\n{}",
            path(rng),
            rng.between(1, 900),
            rng.between(1, 80),
            output_text(rng, 200, 1_500)
        )
    } else {
        output_text(rng, 500, 4_000)
    };
    update.insert("content".into(), json!([text_content(text)]));
    if rng.chance(40) {
        update.insert("locations".into(), json!([location(rng)]));
    }
    if rng.chance(50) {
        update.insert(
            "rawOutput".into(),
            json!({"exit_code": if failed { 101 } else { 0 }, "duration_ms": rng.below(60_000), "truncated": false}),
        );
    }
    update
}

/// `count` `session/update` notification params (`SessionNotification` JSON), compact.
pub fn notifications(count: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    let session = format!("sess_{}", rng.hex(12));
    let mut out = Vec::with_capacity(count);
    for n in 0..count {
        let id = format!("call_{n:05}_{}", rng.hex(6));
        let mut update = match rng.below(20) {
            0..=5 => edit_call(&mut rng, &id),
            6..=8 => text_call(&mut rng, &id),
            9..=12 => status_update(&mut rng, &id),
            _ => result_update(&mut rng, &id),
        };
        if rng.chance(10) {
            update.insert("_meta".into(), Value::Object(meta(&mut rng)));
        }
        let mut params = Map::new();
        params.insert("sessionId".into(), json!(session));
        params.insert("update".into(), Value::Object(update));
        if rng.chance(10) {
            params.insert("_meta".into(), Value::Object(meta(&mut rng)));
        }
        out.push(serde_json::to_vec(&params).expect("a Value always encodes"));
    }
    out
}

/// The corpus wrapped in JSON-RPC `session/update` notifications, one per line (NDJSON), as
/// `toolcall validate` reads it.
pub fn ndjson(params: &[Vec<u8>]) -> Vec<u8> {
    let total: usize = params.iter().map(|p| p.len() + 64).sum();
    let mut out = Vec::with_capacity(total);
    for p in params {
        out.extend_from_slice(br#"{"jsonrpc":"2.0","method":"session/update","params":"#);
        out.extend_from_slice(p);
        out.extend_from_slice(b"}\n");
    }
    out
}

const TOOL_NAMES: &[&str] = &[
    "search",
    "read_file",
    "create_issue",
    "send_email",
    "query_db",
    "get_weather",
];

/// One route body: a tool name, arguments of a few members, and every optional member.
fn route_body(rng: &mut Rng, n: usize) -> Value {
    let name = *rng.pick(TOOL_NAMES);
    let mut arguments = Map::new();
    for _ in 0..rng.between(1, 6) {
        let key = (*rng.pick(IDENTS)).to_owned();
        let value = match rng.below(4) {
            0 => json!(rng.below(10_000)),
            1 => json!(rng.chance(50)),
            2 => json!([rng.pick(WORDS), rng.pick(WORDS)]),
            _ => {
                let words: Vec<&str> = (0..rng.between(1, 12)).map(|_| *rng.pick(WORDS)).collect();
                json!(words.join(" "))
            }
        };
        arguments.insert(key, value);
    }
    json!({
        "name": name,
        "arguments": arguments,
        "tool_call_id": format!("call_{n:05}_{}", rng.hex(8)),
        "progress_token": if rng.chance(50) { json!(n) } else { json!(format!("tok-{}", rng.hex(8))) },
        "call_key": format!("order-{}/retry:{}", rng.below(100_000), rng.below(4)),
        "schema_pin": format!("sha256:{}", rng.hex(64)),
    })
}

/// `count` route bodies (`ToolCallRequest` JSON), compact.
pub fn route_bodies(count: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed ^ 0x0f0f_0f0f);
    (0..count)
        .map(|n| serde_json::to_vec(&route_body(&mut rng, n)).expect("a Value always encodes"))
        .collect()
}

/// The canonical `ToolSpec` of the tool [`TYPICAL_ROUTE_BODY`] calls: its input schema accepts
/// that body's `arguments` (the `validate_arguments` timing).
pub const SEARCH_TOOL_SPEC: &[u8] = br#"{"id":"web/search@1","name":"web.search","description":"Search the web index","input_schema":{"type":"object","required":["query"],"additionalProperties":false,"properties":{"query":{"type":"string","minLength":1,"maxLength":512,"description":"What to search for"},"limit":{"type":"integer","minimum":1,"maximum":100,"description":"Results to return"},"filters":{"type":"object","additionalProperties":false,"properties":{"language":{"type":"string","pattern":"^[a-z]{2}$"},"since":{"type":"string","format":"date"}}}}},"output_contract":{"success":{"type":"json","schema":{"type":"object","properties":{"items":{"type":"array"},"total":{"type":"integer"}}}}},"limits":{"max_concurrent":4,"max_input_bytes":4096,"max_output_bytes":1048576,"execution_deadline_ms":10000},"execution_class":{"type":"cooperative_in_process","grace_ms":100}}"#;

/// The route body the per-body timing uses: what a gateway sends for a search call.
pub const TYPICAL_ROUTE_BODY: &[u8] = br#"{"name":"search","arguments":{"query":"rust json schema codegen","limit":20,"filters":{"language":"en","since":"2025-01-01"}},"tool_call_id":"call_01J9Z3K7","progress_token":7,"call_key":"order-42/retry:1","schema_pin":"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}"#;

/// A JSON Schema for a tool's input: an object of 2 to 8 typed, described properties.
#[cfg(feature = "canonical")]
fn input_schema(rng: &mut Rng) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for _ in 0..rng.between(2, 8) {
        let name = (*rng.pick(IDENTS)).to_owned();
        if properties.contains_key(&name) {
            continue;
        }
        let description: Vec<&str> = (0..rng.between(4, 16)).map(|_| *rng.pick(WORDS)).collect();
        let description = description.join(" ");
        let property = match rng.below(5) {
            0 => json!({"type": "string", "description": description, "minLength": 1}),
            1 => {
                json!({"type": "integer", "description": description, "minimum": 0, "maximum": rng.between(10, 10_000)})
            }
            2 => json!({"type": "boolean", "description": description, "default": false}),
            3 => {
                json!({"type": "string", "description": description, "enum": ["asc", "desc", "relevance"]})
            }
            _ => {
                json!({"type": "array", "description": description, "items": {"type": "string"}, "maxItems": rng.between(1, 50)})
            }
        };
        if rng.chance(50) {
            required.push(json!(name));
        }
        properties.insert(name, property);
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// `count` canonical tool specs (`toolcall_contracts::canonical::ToolSpec` JSON), compact.
#[cfg(feature = "canonical")]
pub fn tool_specs(count: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed ^ 0x5bec_5bec);
    (0..count)
        .map(|n| {
            let provider = *rng.pick(&["github", "linear", "fs", "web", "db"]);
            let tool = *rng.pick(TOOL_NAMES);
            let description: Vec<&str> = (0..rng.between(8, 60)).map(|_| *rng.pick(WORDS)).collect();
            let success = if rng.chance(60) {
                json!({"type": "json", "schema": {"type": "object", "properties": {"items": {"type": "array"}, "total": {"type": "integer"}}}})
            } else {
                json!({"type": "text", "media_type": *rng.pick(&["text/plain", "text/markdown; charset=utf-8"])})
            };
            let mut output_contract = Map::new();
            output_contract.insert("success".into(), success);
            if rng.chance(40) {
                output_contract.insert(
                    "error_data_schema".into(),
                    json!({"type": "object", "properties": {"retry_after_ms": {"type": "integer"}}}),
                );
            }
            let execution_class = match rng.below(3) {
                0 => json!({"type": "cooperative_in_process", "grace_ms": rng.between(10, 1_000)}),
                1 => json!({"type": "abortable_at_yield", "grace_ms": rng.between(10, 1_000)}),
                _ => json!({"type": "process_isolated", "grace_ms": rng.between(100, 1_000), "kill_deadline_ms": rng.between(1_000, 5_000)}),
            };
            let spec = json!({
                "id": format!("{provider}/{tool}@{}", n % 7 + 1),
                "name": format!("{provider}.{tool}"),
                "description": description.join(" "),
                "input_schema": input_schema(&mut rng),
                "output_contract": output_contract,
                "limits": {
                    "max_concurrent": rng.between(1, 16),
                    "max_input_bytes": 65_536,
                    "max_output_bytes": 1_048_576,
                    "execution_deadline_ms": rng.between(1_000, 60_000),
                },
                "execution_class": execution_class,
            });
            serde_json::to_vec(&spec).expect("a Value always encodes")
        })
        .collect()
}

/// Text with a quote or a newline every 12 bytes or so of text (between 5 and 18), as in
/// generated code or minified JSON carried inside a string: the escape-dense encode input
/// (about one escape every 15 bytes of the JSON, member names included).
fn escape_dense_text(rng: &mut Rng, low: usize, high: usize) -> String {
    let bytes = rng.between(low, high);
    let mut out = String::with_capacity(bytes + 40);
    let mut since = 0;
    let mut gap = rng.between(5, 18);
    while out.len() < bytes {
        let word: &&str = rng.pick(WORDS);
        for c in word.chars().chain([' ']) {
            out.push(c);
            since += 1;
            if since >= gap {
                out.push(*rng.pick(&['"', '"', '\n']));
                since = 0;
                gap = rng.between(5, 18);
            }
        }
    }
    out
}

/// `count` `tool_call_update` notifications whose `text` content (1 to 4 KB) is escape-dense
/// ([`escape_dense_text`]), compact.
pub fn escape_dense(count: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed ^ 0x00e5_ca9e);
    let session = format!("sess_{}", rng.hex(12));
    (0..count)
        .map(|n| {
            let text = escape_dense_text(&mut rng, 1_000, 4_000);
            let params = json!({
                "sessionId": session,
                "update": {
                    "sessionUpdate": "tool_call_update",
                    "toolCallId": format!("call_{n:05}_{}", rng.hex(6)),
                    "status": "completed",
                    "content": [text_content(text)],
                },
            });
            serde_json::to_vec(&params).expect("a Value always encodes")
        })
        .collect()
}
