//! The checker per message against the generic alternative, side by side in one run.
//!
//! Variants, each a pass over one corpus with a fresh transcript:
//! - `checker`: [`Checker::check`] on every message (what `toolcall validate` and the tap run);
//! - `checker_full`: the same with the one-pass check off (every message parsed into a
//!   `serde_json::Value`, validated with the schema, its tool-call payloads decoded, repeated
//!   members looked for): what the checker did before it;
//! - `jsonschema`: the alternative: each message parsed into a `Value` and its `params` (or the
//!   `result` of the request it answers, paired by id) validated with `jsonschema` against the
//!   definition of its method, the same crate and version, validators compiled once;
//! - `tap`: what `toolcall tap`'s checking thread does per message (`Monitor::feed_message`,
//!   its transcript record written to a sink): the checker, protocol recognition and tool-call
//!   lifecycles. A transcript wrapper's message comes from the side it names (`sdk`), any other
//!   line from the agent (`updates`, all the agent's; on `real` the client's messages are taken
//!   as the agent's too, so its `tap` row is not what a tap sees).
//!
//! Corpora (`BENCHMARKS.md`): `real`, every JSON-RPC message of the ACP traffic at hand (the
//! shared real and third-party traffic, the ACP documentation's examples, the recording of
//! claude-agent-acp); `sdk`, when `CHECKER_BENCH_EXTRA` names files (colon-separated), their
//! messages, such as sessions between the official SDKs recorded with `peers/lib/tee.mjs`
//! (`node peers/acp/client.mjs -- node peers/lib/tee.mjs FILE agent -- node
//! peers/acp/agent.mjs`); `updates`, the wire
//! benchmark's 200 `session/update` notifications (tool calls with diffs, text content,
//! `rawInput` and `rawOutput`) in JSON-RPC envelopes.
//!
//! Before timing, the verdicts of the three variants are compared (valid or not, message by
//! message); the counts are printed (`CHECKER_BENCH_SHOW=1` prints the messages judged
//! differently). Timing: `ROUNDS` rounds (default 15), each running every
//! variant for about 100 ms in rotating order; a variant's figure is its best round (its median
//! is printed too). `CHECKER_BENCH_RUN=<corpus>/<variant>` with `CHECKER_BENCH_PASSES=N` runs
//! only that variant N times, for `valgrind --tool=callgrind --toggle-collect='checker::counted'`.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use jsonschema::Validator;
use serde_json::{json, Map, Value};
use toolcall_traffic::tap::{Event, Monitor, Side};
use toolcall_traffic::{split_messages, Checker, Status, Transcript};

#[path = "../../benches/wire/corpus.rs"]
#[allow(
    dead_code,
    unexpected_cfgs,
    reason = "the wire benchmark's corpus; only the notifications are used here"
)]
mod corpus;

/// One corpus: its messages (each a line), their bytes.
struct Corpus {
    name: &'static str,
    messages: Vec<Vec<u8>>,
    /// The messages as a tap relays them: a transcript wrapper's message from the side it names
    /// (`client`: the tap's stdin; `agent`: the child's stdout), anything else as the child's.
    relayed: Vec<(Side, Vec<u8>)>,
    bytes: usize,
}

impl Corpus {
    fn new(name: &'static str, ndjson: &[u8]) -> Self {
        let messages: Vec<Vec<u8>> = split_messages(ndjson)
            .into_iter()
            .map(|message| message.text.to_vec())
            .filter(|text| is_json_rpc(text))
            .collect();
        let relayed = messages.iter().map(|text| relayed(text)).collect();
        let bytes = messages.iter().map(Vec::len).sum();
        Self {
            name,
            messages,
            relayed,
            bytes,
        }
    }
}

/// A line as a tap relays it: see [`Corpus::relayed`].
fn relayed(line: &[u8]) -> (Side, Vec<u8>) {
    #[derive(serde::Deserialize)]
    struct Wrapper<'a> {
        from: &'a str,
        #[serde(borrow)]
        message: &'a serde_json::value::RawValue,
    }
    match serde_json::from_slice::<Wrapper<'_>>(line) {
        Ok(Wrapper {
            from: "client",
            message,
        }) => (Side::Client, message.get().as_bytes().to_vec()),
        Ok(Wrapper {
            from: "agent",
            message,
        }) => (Side::Child, message.get().as_bytes().to_vec()),
        _ => (Side::Child, line.to_vec()),
    }
}

/// Whether a line is a JSON-RPC message (bare, or in a transcript wrapper): what both sides
/// check by method.
fn is_json_rpc(line: &[u8]) -> bool {
    let Ok(value) = serde_json::from_slice::<Value>(line) else {
        return false;
    };
    let message = unwrap(&value).0;
    message
        .as_object()
        .is_some_and(|object| object.contains_key("jsonrpc"))
}

/// The message of a transcript wrapper line, and its sender's name.
fn unwrap(value: &Value) -> (&Value, Option<&str>) {
    match value.as_object() {
        Some(object) if object.len() == 2 && object.contains_key("message") => (
            &object["message"],
            object.get("from").and_then(Value::as_str),
        ),
        _ => (value, None),
    }
}

fn corpora() -> Vec<Corpus> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let files: Vec<std::path::PathBuf> = [
        "../shared/acp-traffic/messages.ndjson",
        "../shared/acp-examples/docs-v1.ndjson",
        "tests/fixtures/acp/claude-agent-acp/session-load.ndjson",
    ]
    .iter()
    .map(|relative| root.join(relative))
    .collect();
    let mut corpora = vec![Corpus::new("real", &concatenated(&files))];
    if let Some(extra) = std::env::var_os("CHECKER_BENCH_EXTRA") {
        let files: Vec<std::path::PathBuf> = std::env::split_paths(&extra).collect();
        corpora.push(Corpus::new("sdk", &concatenated(&files)));
    }
    let updates = corpus::ndjson(&corpus::notifications(200, corpus::SEED));
    corpora.push(Corpus::new("updates", &updates));
    corpora
}

/// The lines of `files`, one after the other.
fn concatenated(files: &[std::path::PathBuf]) -> Vec<u8> {
    let mut out = Vec::new();
    for file in files {
        match std::fs::read(file) {
            Ok(content) => {
                out.extend_from_slice(&content);
                if !content.ends_with(b"\n") {
                    out.push(b'\n');
                }
            }
            Err(error) => eprintln!("note: {} not read: {error}", file.display()),
        }
    }
    out
}

/// The alternative: `jsonschema` by method, validators compiled once.
struct Alternative {
    defs: Value,
    validators: HashMap<String, Validator>,
    /// method -> (params definition, response definition)
    methods: HashMap<String, (String, Option<String>)>,
    root: Validator,
}

impl Alternative {
    fn new() -> Self {
        let schema: Value =
            serde_json::from_str(toolcall_contracts::acp::SCHEMA_JSON).expect("the ACP schema");
        let defs = schema["$defs"].clone();
        let mut methods = HashMap::new();
        for (name, definition) in defs.as_object().expect("$defs") {
            let Some(method) = definition.get("x-method").and_then(Value::as_str) else {
                continue;
            };
            if name.ends_with("Response") {
                continue;
            }
            let response = name
                .strip_suffix("Request")
                .map(|base| format!("{base}Response"))
                .filter(|response| defs.get(response).is_some());
            methods.insert(method.to_owned(), (name.clone(), response));
        }
        let root = jsonschema::draft202012::options()
            .offline()
            .build(&schema)
            .expect("compiles");
        let mut alternative = Self {
            defs,
            validators: HashMap::new(),
            methods,
            root,
        };
        let names: Vec<String> = alternative
            .methods
            .values()
            .flat_map(|(params, response)| [Some(params.clone()), response.clone()])
            .flatten()
            .chain(["Error".to_owned()])
            .collect();
        for name in names {
            alternative.compile(&name);
        }
        alternative
    }

    fn compile(&mut self, name: &str) {
        let mut document = Map::new();
        document.insert("$ref".to_owned(), json!(format!("#/$defs/{name}")));
        document.insert("$defs".to_owned(), self.defs.clone());
        let validator = jsonschema::draft202012::options()
            .offline()
            .build(&Value::Object(document))
            .expect("compiles");
        self.validators.insert(name.to_owned(), validator);
    }

    fn valid(&self, definition: &str, value: &Value) -> bool {
        self.validators[definition].is_valid(value)
    }

    /// Whether `line` is valid: parsed into a `Value`, its params or result validated against
    /// its method's definition (`pending`: the method of each request by sender and id).
    fn check(&self, pending: &mut HashMap<(bool, String), String>, line: &[u8]) -> bool {
        let Ok(value) = serde_json::from_slice::<Value>(line) else {
            return false;
        };
        let (message, from) = unwrap(&value);
        let from_client = from == Some("client");
        let Some(object) = message.as_object() else {
            return false;
        };
        if object.get("jsonrpc") != Some(&json!("2.0")) {
            return false;
        }
        let id = object.get("id").map(Value::to_string);
        if let Some(method) = object.get("method").and_then(Value::as_str) {
            if method.starts_with('_') {
                return true;
            }
            let Some((params, _)) = self.methods.get(method) else {
                return false;
            };
            if let Some(id) = id {
                pending.insert((from_client, id), method.to_owned());
            }
            let empty = json!({});
            return self.valid(params, object.get("params").unwrap_or(&empty));
        }
        if let Some(error) = object.get("error") {
            return self.valid("Error", error);
        }
        let Some(result) = object.get("result") else {
            return false;
        };
        let method = id.and_then(|id| {
            pending
                .remove(&(!from_client, id.clone()))
                .or_else(|| pending.remove(&(from_client, id)))
        });
        match method {
            Some(method) if method.starts_with('_') => true,
            Some(method) => match self.methods.get(&method) {
                Some((_, Some(response))) => self.valid(response, result),
                _ => true,
            },
            None => self.root.is_valid(message),
        }
    }
}

#[inline(never)]
fn pass_checker(checker: &Checker, corpus: &Corpus) -> usize {
    let mut transcript = Transcript::default();
    corpus
        .messages
        .iter()
        .filter(|message| {
            let verdict = checker.check(&mut transcript, message);
            matches!(verdict.status, Status::Ok | Status::Lenient)
        })
        .count()
}

#[inline(never)]
fn pass_jsonschema(alternative: &Alternative, corpus: &Corpus) -> usize {
    let mut pending = HashMap::new();
    corpus
        .messages
        .iter()
        .filter(|message| alternative.check(&mut pending, message))
        .count()
}

/// `passes` passes of one variant: what callgrind counts (`--toggle-collect='checker::counted'`).
#[inline(never)]
fn counted(runner: &Runner, variant: Variant, corpus: &Corpus, passes: usize) -> usize {
    (0..passes).map(|_| runner.pass(variant, corpus)).sum()
}

#[inline(never)]
fn pass_tap(tap: &Monitor, corpus: &Corpus) -> usize {
    let mut monitor = tap.another().with_transcript(Box::new(std::io::sink()));
    corpus
        .relayed
        .iter()
        .flat_map(|(side, message)| monitor.feed_message(*side, message))
        .filter(|event| {
            matches!(event, Event::Message { verdict, .. }
                if matches!(verdict.status, Status::Ok | Status::Lenient))
        })
        .count()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Variant {
    Checker,
    CheckerFull,
    Jsonschema,
    Tap,
}

const VARIANTS: [(Variant, &str); 4] = [
    (Variant::Checker, "checker"),
    (Variant::CheckerFull, "checker_full"),
    (Variant::Jsonschema, "jsonschema"),
    (Variant::Tap, "tap"),
];

struct Runner {
    checker: Checker,
    full: Checker,
    alternative: Alternative,
    tap: Monitor,
}

impl Runner {
    fn pass(&self, variant: Variant, corpus: &Corpus) -> usize {
        match variant {
            Variant::Checker => pass_checker(&self.checker, corpus),
            Variant::CheckerFull => pass_checker(&self.full, corpus),
            Variant::Jsonschema => pass_jsonschema(&self.alternative, corpus),
            Variant::Tap => pass_tap(&self.tap, corpus),
        }
    }
}

fn main() {
    let runner = Runner {
        checker: Checker::new().expect("schema"),
        full: Checker::new().expect("schema").with_one_pass(false),
        alternative: Alternative::new(),
        tap: Monitor::new(Checker::new().expect("schema"), Checker::DEFAULT_LIMITS),
    };
    let corpora = corpora();
    if let Ok(run) = std::env::var("CHECKER_BENCH_RUN") {
        let passes: usize = std::env::var("CHECKER_BENCH_PASSES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(10);
        let (corpus, variant) = run.split_once('/').expect("CORPUS/VARIANT");
        let corpus = corpora.iter().find(|c| c.name == corpus).expect("a corpus");
        let variant = VARIANTS
            .iter()
            .find(|(_, name)| *name == variant)
            .expect("a variant")
            .0;
        // Validators and schemas built before the counted passes.
        runner.pass(variant, corpus);
        let valid = counted(&runner, variant, corpus, passes);
        println!("{run}: {passes} passes, {valid} valid verdicts");
        return;
    }
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(15);
    for corpus in &corpora {
        compare_verdicts(&runner, corpus);
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); VARIANTS.len()];
        for round in 0..rounds {
            for k in 0..VARIANTS.len() {
                let index = (round + k) % VARIANTS.len();
                let variant = VARIANTS[index].0;
                let start = Instant::now();
                let mut passes = 0;
                while start.elapsed() < Duration::from_millis(100) {
                    std::hint::black_box(runner.pass(variant, corpus));
                    passes += 1;
                }
                times[index].push(start.elapsed().as_secs_f64() / f64::from(passes));
            }
        }
        let messages = corpus.messages.len() as f64;
        println!(
            "\n{}: {} messages, {} bytes; best (median) of {rounds} interleaved rounds",
            corpus.name,
            corpus.messages.len(),
            corpus.bytes
        );
        let mut best = Vec::new();
        for (index, (_, name)) in VARIANTS.iter().enumerate() {
            let mut sorted = times[index].clone();
            sorted.sort_by(f64::total_cmp);
            let (min, median) = (sorted[0], sorted[sorted.len() / 2]);
            best.push(min);
            println!(
                "  {name:<13} {:>9.2} µs/message ({:>9.2})  {:>7.1} MB/s",
                min / messages * 1e6,
                median / messages * 1e6,
                corpus.bytes as f64 / min / 1e6
            );
        }
        println!(
            "  checker / jsonschema: {:.2}x (checker_full / jsonschema: {:.2}x; checker / checker_full: {:.2}x)",
            best[2] / best[0],
            best[2] / best[1],
            best[1] / best[0]
        );
    }
}

/// Prints the verdict counts of each variant and how many messages they disagree on.
fn compare_verdicts(runner: &Runner, corpus: &Corpus) {
    let mut transcript = Transcript::default();
    let mut full_transcript = Transcript::default();
    let mut pending = HashMap::new();
    let (mut checker, mut full, mut alternative, mut disagree) = (0, 0, 0, 0);
    for message in &corpus.messages {
        let one = matches!(
            runner.checker.check(&mut transcript, message).status,
            Status::Ok | Status::Lenient
        );
        let two = matches!(
            runner.full.check(&mut full_transcript, message).status,
            Status::Ok | Status::Lenient
        );
        let three = runner.alternative.check(&mut pending, message);
        checker += usize::from(one);
        full += usize::from(two);
        alternative += usize::from(three);
        if one != three || one != two {
            disagree += 1;
            if std::env::var_os("CHECKER_BENCH_SHOW").is_some() {
                println!(
                    "  judged differently (checker {one}, checker_full {two}, jsonschema {three}): {}",
                    String::from_utf8_lossy(message)
                );
            }
        }
    }
    let total = corpus.messages.len();
    println!(
        "{}: valid / not valid: checker {checker} / {}, checker_full {full} / {}, jsonschema \
         {alternative} / {}; {disagree} messages judged differently",
        corpus.name,
        total - checker,
        total - full,
        total - alternative
    );
}
