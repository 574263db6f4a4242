//! Wire benchmarks (criterion): this crate's ACP types against the official crate
//! `agent-client-protocol-schema` 1.20.0, `serde_json::Value` and the `IgnoredAny` floor on the
//! same bytes, plus route bodies and (feature `canonical`) canonical tool specs. See
//! BENCHMARKS.md for how to run them and the latest figures.
//!
//! ```sh
//! cargo bench --bench wire --features canonical   # everything, about 1.5 minutes
//! cargo bench --bench wire                    # without the `canonical_tool_spec` group
//! cargo bench --bench wire -- session_update  # one group
//! WIRE_CORPUS_NDJSON=/tmp/corpus.ndjson WIRE_CORPUS_LEN=4000 cargo bench --bench wire
//!                                             # writes the corpus as NDJSON and exits
//! ```
//!
//! Before measuring, every corpus message is decoded by both crates (and must re-encode, from
//! this crate's types, to the same JSON value), so a variant never times an error path. After
//! measuring, the binary prints MB/s per variant and the ratios BENCHMARKS.md tracks.
//!
//! Note: the official crate turns on serde_json's `preserve_order` feature, and features are
//! unified within a build, so in this binary every `serde_json::Map` (ours, theirs, `Value`) is
//! an `IndexMap`. A consumer of this crate alone gets the `BTreeMap` one.

mod corpus;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use criterion::{Criterion, Throughput};
use serde::de::IgnoredAny;
use serde_json::Value;

use toolcall_contracts::acp::SessionNotification as Ours;
#[cfg(feature = "canonical")]
use toolcall_contracts::canonical::ToolSpec;
use toolcall_contracts::route::{validate_call_key, validate_schema_pin, ToolCallRequest};

use agent_client_protocol_schema::v1::SessionNotification as Official;

/// Messages in the measured corpus (about 0.5 MB with [`corpus::SEED`]).
const CORPUS_LEN: usize = 200;
/// Route bodies in the route corpus.
const ROUTE_LEN: usize = 200;
/// Canonical tool specs in the spec corpus.
#[cfg(feature = "canonical")]
const SPEC_LEN: usize = 100;

const SESSION_GROUP: &str = "session_update";
const ESCAPED_GROUP: &str = "escape_dense";
/// Messages in the escape-dense corpus.
const ESCAPED_LEN: usize = 200;
const ROUTE_GROUP: &str = "route_body";
const ROUTE_CORPUS_GROUP: &str = "route_corpus";
const SPEC_GROUP: &str = "canonical_tool_spec";
#[cfg(feature = "canonical")]
const ARGUMENTS_GROUP: &str = "validate_arguments";

fn main() {
    if let Some(path) = std::env::var_os("WIRE_CORPUS_NDJSON") {
        write_ndjson(Path::new(&path));
        return;
    }
    if let Ok(name) = std::env::var("WIRE_RUN") {
        run_one(&name);
        return;
    }
    let started = SystemTime::now();
    let output = criterion_dir();
    let mut c = Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1))
        .output_directory(&output)
        .configure_from_args();

    let messages = corpus::notifications(CORPUS_LEN, corpus::SEED);
    let bytes: usize = messages.iter().map(Vec::len).sum();
    check_corpus(&messages);
    let (ours, official, values) = decoded(&messages);
    let variants = variants(&messages, &ours, &official, &values);
    assert!(variants
        .iter()
        .map(|v| v.0)
        .eq(VARIANT_NAMES.iter().copied()));
    session_update(&mut c, &variants, bytes);

    let escaped = corpus::escape_dense(ESCAPED_LEN, corpus::SEED);
    let escaped_bytes: usize = escaped.iter().map(Vec::len).sum();
    check_escaped(&escaped);
    let (escaped_ours, escaped_official, _) = decoded(&escaped);
    let escaped_variants = escaped_variants(&escaped, &escaped_ours, &escaped_official);
    escape_dense(&mut c, &escaped_variants, escaped_bytes);

    let bodies = corpus::route_bodies(ROUTE_LEN, corpus::SEED);
    check_route_bodies(&bodies);
    let (key, pin) = typical_key_and_pin();
    let route_variants = route_variants(&key, &pin);
    assert!(route_variants
        .iter()
        .map(|v| v.0)
        .eq(ROUTE_NAMES.iter().copied()));
    route_body(&mut c, &route_variants);
    route_corpus(&mut c, &bodies);

    // The `canonical_tool_spec` group needs feature `canonical` (`--features canonical`).
    #[cfg(feature = "canonical")]
    let spec_bytes: usize = {
        let specs = corpus::tool_specs(SPEC_LEN, corpus::SEED);
        check_tool_specs(&specs);
        canonical_tool_spec(&mut c, &specs);
        validate_arguments(&mut c);
        specs.iter().map(Vec::len).sum()
    };
    #[cfg(not(feature = "canonical"))]
    let spec_bytes = 0;

    c.final_summary();
    let escaped_figures: Vec<(&str, f64)> = ESCAPED_NAMES
        .iter()
        .filter_map(|name| estimate_ns(&output, ESCAPED_GROUP, name, started).map(|ns| (*name, ns)))
        .collect();
    if summary(&output, started, bytes, spec_bytes) {
        report_escaped(&escaped_figures, escaped_bytes, "criterion");
        eprintln!("\ninterleaved: {PAIRED_ROUNDS} rounds, best round per variant ...");
        report_paired(&paired(&variants), bytes);
        report_escaped(&paired(&escaped_variants), escaped_bytes, "interleaved");
        report_paired_route(&paired(&route_variants));
    }
}

/// Runs the variant `name` (`session_update/...` or `route_body/...`)
/// `WIRE_PASSES` times (default 10) and nothing else, for a profiler or an instruction count:
///
/// ```sh
/// WIRE_RUN=session_update/decode/ours WIRE_PASSES=10 valgrind --tool=callgrind \
///     --toggle-collect='wire::*variants::{{closure}}*' target/release/deps/wire-<hash>
/// ```
///
/// (`Collected` divided by the passes is the instruction count of one pass.)
fn run_one(name: &str) {
    let passes = std::env::var("WIRE_PASSES")
        .ok()
        .map(|v| v.parse::<u64>().expect("WIRE_PASSES is a number"))
        .unwrap_or(10);
    let messages = corpus::notifications(CORPUS_LEN, corpus::SEED);
    let (ours, official, values) = decoded(&messages);
    let (key, pin) = typical_key_and_pin();
    let session = variants(&messages, &ours, &official, &values);
    let route = route_variants(&key, &pin);
    // The escape-dense corpus only when asked for (so that the other counts run on the heap
    // they always ran on).
    let escaped = if name.starts_with(ESCAPED_GROUP) {
        corpus::escape_dense(ESCAPED_LEN, corpus::SEED)
    } else {
        Vec::new()
    };
    let (escaped_ours, escaped_official, _) = decoded(&escaped);
    let escaped_group = escaped_variants(&escaped, &escaped_ours, &escaped_official);
    let all = session
        .iter()
        .map(|v| (SESSION_GROUP, v))
        .chain(escaped_group.iter().map(|v| (ESCAPED_GROUP, v)))
        .chain(route.iter().map(|v| (ROUTE_GROUP, v)));
    let Some((_, (_, run))) = all
        .into_iter()
        .find(|(group, v)| format!("{group}/{}", v.0) == name)
    else {
        panic!(
            "WIRE_RUN: no variant `{name}`: `{SESSION_GROUP}/` + one of {VARIANT_NAMES:?}, \
             `{ESCAPED_GROUP}/` + one of {ESCAPED_NAMES:?}, or `{ROUTE_GROUP}/` + one of \
             {ROUTE_NAMES:?}"
        );
    };
    for _ in 0..passes {
        run();
    }
    eprintln!("ran {name} {passes} times");
}

/// Writes the corpus (`WIRE_CORPUS_LEN` messages, default [`CORPUS_LEN`]) as JSON-RPC NDJSON.
fn write_ndjson(path: &Path) {
    let len = std::env::var("WIRE_CORPUS_LEN")
        .ok()
        .map(|v| v.parse::<usize>().expect("WIRE_CORPUS_LEN is a number"))
        .unwrap_or(CORPUS_LEN);
    let messages = corpus::notifications(len, corpus::SEED);
    check_corpus(&messages);
    let ndjson = corpus::ndjson(&messages);
    std::fs::write(path, &ndjson).expect("cannot write WIRE_CORPUS_NDJSON");
    eprintln!(
        "wrote {} messages, {} bytes, to {}",
        messages.len(),
        ndjson.len(),
        path.display()
    );
}

/// `<target>/criterion`, where `cargo bench` keeps criterion's results.
fn criterion_dir() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().unwrap_or(tmp).join("criterion")
}

/// Every message: both crates decode it, our decode reports no leniency, and our types
/// re-encode it to the same JSON value. Prints the corpus shape once.
fn check_corpus(messages: &[Vec<u8>]) {
    let mut official_differs = 0;
    let (mut ours_bytes, mut official_bytes) = (0, 0);
    for (n, message) in messages.iter().enumerate() {
        let value: Value = serde_json::from_slice(message).expect("corpus is JSON");
        let ours = match toolcall_contracts::decode::<Ours>(message) {
            Ok(decoded) => decoded,
            Err(error) => panic!("message {n}: this crate refuses it: {error}"),
        };
        assert!(
            ours.report.is_empty(),
            "message {n}: leniency applied: {:?}",
            ours.report
        );
        assert_eq!(
            serde_json::to_value(&ours.value).expect("encodes"),
            value,
            "message {n}: this crate does not round-trip it"
        );
        let official: Official = match serde_json::from_slice(message) {
            Ok(official) => official,
            Err(error) => panic!("message {n}: the official crate refuses it: {error}"),
        };
        // The official crate omits `status: "pending"` and `kind: "other"` (its defaults) when
        // encoding; count, do not fail.
        if serde_json::to_value(&official).expect("encodes") != value {
            official_differs += 1;
        }
        ours_bytes += serde_json::to_vec(&ours.value).expect("encodes").len();
        official_bytes += serde_json::to_vec(&official).expect("encodes").len();
    }
    let bytes: usize = messages.iter().map(Vec::len).sum();
    let largest = messages.iter().map(Vec::len).max().unwrap_or(0);
    eprintln!(
        "corpus: {} session/update params, {bytes} bytes (largest {largest}), accepted by both \
         crates; encoded again: {ours_bytes} bytes by this crate, {official_bytes} by the \
         official crate (which re-encodes {official_differs} of them differently)",
        messages.len()
    );
}

/// Every route body decodes and passes `validate`. Prints the corpus shape once.
fn check_route_bodies(bodies: &[Vec<u8>]) {
    for body in bodies
        .iter()
        .map(Vec::as_slice)
        .chain([corpus::TYPICAL_ROUTE_BODY])
    {
        let request: ToolCallRequest = serde_json::from_slice(body).expect("route body decodes");
        request.validate().expect("route body is valid");
    }
    let bytes: usize = bodies.iter().map(Vec::len).sum();
    let smallest = bodies.iter().map(Vec::len).min().unwrap_or(0);
    let largest = bodies.iter().map(Vec::len).max().unwrap_or(0);
    eprintln!(
        "route corpus: {} bodies, {bytes} bytes ({smallest} to {largest}); typical body {} bytes",
        bodies.len(),
        corpus::TYPICAL_ROUTE_BODY.len()
    );
}

/// A measured variant: its name in its group and one pass (over the corpus, or over one body).
type Variant<'a> = (&'static str, Box<dyn Fn() + 'a>);

/// The variants of the `session_update` group, each one pass over the same corpus.
fn variants<'a>(
    messages: &'a [Vec<u8>],
    ours: &'a [Ours],
    official: &'a [Official],
    values: &'a [Value],
) -> Vec<Variant<'a>> {
    vec![
        (
            "decode/ours",
            Box::new(move || {
                for m in messages {
                    black_box(toolcall_contracts::decode::<Ours>(black_box(m)).expect("checked"));
                }
            }),
        ),
        #[cfg(feature = "simd")]
        (
            "decode/ours_without_simd",
            Box::new(move || {
                for m in messages {
                    black_box(
                        toolcall_contracts::__private::decode_serde_json::<Ours>(
                            black_box(m),
                            &toolcall_contracts::DECODE_LIMITS,
                        )
                        .expect("checked"),
                    );
                }
            }),
        ),
        (
            "decode/ours_from_slice",
            Box::new(move || {
                for m in messages {
                    black_box(serde_json::from_slice::<Ours>(black_box(m)).expect("checked"));
                }
            }),
        ),
        (
            "decode/official",
            Box::new(move || {
                for m in messages {
                    black_box(serde_json::from_slice::<Official>(black_box(m)).expect("checked"));
                }
            }),
        ),
        (
            "decode/value",
            Box::new(move || {
                for m in messages {
                    black_box(serde_json::from_slice::<Value>(black_box(m)).expect("checked"));
                }
            }),
        ),
        (
            "decode/ignored_any",
            Box::new(move || {
                for m in messages {
                    black_box(serde_json::from_slice::<IgnoredAny>(black_box(m)).expect("checked"));
                }
            }),
        ),
        #[cfg(feature = "simd")]
        (
            "decode/ignored_any_simd",
            Box::new(move || {
                for m in messages {
                    black_box(sonic_rs::from_slice::<IgnoredAny>(black_box(m)).expect("checked"));
                }
            }),
        ),
        (
            "encode/ours",
            Box::new(move || {
                for v in ours {
                    black_box(toolcall_contracts::encode(black_box(v)).expect("encodes"));
                }
            }),
        ),
        (
            "encode/ours_serde_json",
            Box::new(move || {
                for v in ours {
                    black_box(serde_json::to_vec(black_box(v)).expect("encodes"));
                }
            }),
        ),
        (
            "encode/official",
            Box::new(move || {
                for v in official {
                    black_box(serde_json::to_vec(black_box(v)).expect("encodes"));
                }
            }),
        ),
        (
            "encode/value",
            Box::new(move || {
                for v in values {
                    black_box(serde_json::to_vec(black_box(v)).expect("encodes"));
                }
            }),
        ),
    ]
}

/// The escape-dense corpus: both crates decode each message and ours re-encodes it to the same
/// bytes. Prints its shape and density once.
fn check_escaped(messages: &[Vec<u8>]) {
    for (n, message) in messages.iter().enumerate() {
        let ours = toolcall_contracts::decode::<Ours>(message)
            .unwrap_or_else(|e| panic!("escape-dense message {n}: refused: {e}"));
        assert!(ours.report.is_empty(), "escape-dense message {n}: leniency");
        assert_eq!(
            &toolcall_contracts::encode(&ours.value).expect("encodes"),
            message,
            "escape-dense message {n}: not the same bytes"
        );
        serde_json::from_slice::<Official>(message)
            .unwrap_or_else(|e| panic!("escape-dense message {n}: the official crate: {e}"));
    }
    let bytes: usize = messages.iter().map(Vec::len).sum();
    let escapes: usize = messages
        .iter()
        .map(|m| {
            m.windows(2)
                .filter(|w| w == br#"\""# || w == br"\n")
                .count()
        })
        .sum();
    eprintln!(
        "escape-dense corpus: {} messages, {bytes} bytes, {escapes} escaped quotes and newlines \
         (one per {:.1} bytes)",
        messages.len(),
        bytes as f64 / escapes as f64
    );
}

/// The variants of the `escape_dense` group: encode and decode, ours and the official crate's.
fn escaped_variants<'a>(
    messages: &'a [Vec<u8>],
    ours: &'a [Ours],
    official: &'a [Official],
) -> Vec<Variant<'a>> {
    vec![
        (
            "encode/ours",
            Box::new(move || {
                for v in ours {
                    black_box(toolcall_contracts::encode(black_box(v)).expect("encodes"));
                }
            }),
        ),
        (
            "encode/ours_serde_json",
            Box::new(move || {
                for v in ours {
                    black_box(serde_json::to_vec(black_box(v)).expect("encodes"));
                }
            }),
        ),
        (
            "encode/official",
            Box::new(move || {
                for v in official {
                    black_box(serde_json::to_vec(black_box(v)).expect("encodes"));
                }
            }),
        ),
        (
            "decode/ours",
            Box::new(move || {
                for m in messages {
                    black_box(toolcall_contracts::decode::<Ours>(black_box(m)).expect("checked"));
                }
            }),
        ),
        (
            "decode/official",
            Box::new(move || {
                for m in messages {
                    black_box(serde_json::from_slice::<Official>(black_box(m)).expect("checked"));
                }
            }),
        ),
    ]
}

/// The names of [`escaped_variants`], in order.
const ESCAPED_NAMES: &[&str] = &[
    "encode/ours",
    "encode/ours_serde_json",
    "encode/official",
    "decode/ours",
    "decode/official",
];

fn escape_dense(c: &mut Criterion, variants: &[Variant<'_>], bytes: usize) {
    let mut group = c.benchmark_group(ESCAPED_GROUP);
    group.throughput(Throughput::Bytes(bytes as u64));
    for (name, pass) in variants {
        group.bench_function(*name, |b| b.iter(pass));
    }
    group.finish();
}

/// Prints MB/s per `escape_dense` variant and the ours/official ratios.
fn report_escaped(figures: &[(&str, f64)], bytes: usize, how: &str) {
    if figures.is_empty() {
        return;
    }
    println!("\n{ESCAPED_GROUP}, {how} ({bytes} bytes per pass)");
    let mbps = |n: &str| {
        figures
            .iter()
            .find(|(name, _)| *name == n)
            .map(|(_, ns)| bytes as f64 / ns * 1e3)
    };
    for (name, _) in figures {
        if let Some(figure) = mbps(name) {
            println!("  {ESCAPED_GROUP}/{name:<24} {figure:>9.1} MB/s");
        }
    }
    for (label, a, b, target) in [
        (
            "encode ours / official",
            "encode/ours",
            "encode/official",
            ">= 1.5x",
        ),
        (
            "encode ours_serde_json / official",
            "encode/ours_serde_json",
            "encode/official",
            "-",
        ),
        (
            "decode ours / official",
            "decode/ours",
            "decode/official",
            "-",
        ),
    ] {
        if let (Some(a), Some(b)) = (mbps(a), mbps(b)) {
            println!("  {label:<36} {:>6.2}x  (target {target})", a / b);
        }
    }
}

/// The decoded corpus, as each crate and `Value` hold it (the input of the encode variants).
fn decoded(messages: &[Vec<u8>]) -> (Vec<Ours>, Vec<Official>, Vec<Value>) {
    let ours = messages
        .iter()
        .map(|m| serde_json::from_slice(m).expect("checked"))
        .collect();
    let official = messages
        .iter()
        .map(|m| serde_json::from_slice(m).expect("checked"))
        .collect();
    let values = messages
        .iter()
        .map(|m| serde_json::from_slice(m).expect("checked"))
        .collect();
    (ours, official, values)
}

fn session_update(c: &mut Criterion, variants: &[Variant<'_>], bytes: usize) {
    let mut group = c.benchmark_group(SESSION_GROUP);
    group.throughput(Throughput::Bytes(bytes as u64));
    for (name, pass) in variants {
        group.bench_function(*name, |b| b.iter(pass));
    }
    group.finish();
}

/// Rounds of the interleaved measurement.
const PAIRED_ROUNDS: usize = 15;
/// Time each variant runs per round.
const PAIRED_SLICE: Duration = Duration::from_millis(100);

/// The same variants, interleaved: each round runs every variant for [`PAIRED_SLICE`] (the
/// starting variant rotates), and a variant's figure is its best round. On a shared, loaded
/// machine this keeps a burst of load from landing on one variant only, so the ratios hold
/// better than those of criterion's runs, which measure one variant after another. Returns
/// the best time of one pass, in ns, per variant.
fn paired(variants: &[Variant<'_>]) -> Vec<(&'static str, f64)> {
    let passes: Vec<&dyn Fn()> = variants
        .iter()
        .map(|(_, pass)| &**pass as &dyn Fn())
        .collect();
    let best = toolcall_test_support::interleaved_best(&passes, PAIRED_ROUNDS, PAIRED_SLICE);
    variants.iter().map(|(name, _)| *name).zip(best).collect()
}

/// The variants of the `route_body` group, each one operation on one typical body
/// ([`corpus::TYPICAL_ROUTE_BODY`]) or its `call_key` and `schema_pin`.
fn route_variants<'a>(key: &'a str, pin: &'a str) -> Vec<Variant<'a>> {
    let body = corpus::TYPICAL_ROUTE_BODY;
    vec![
        (
            "decode+validate_call_key+validate_schema_pin",
            Box::new(move || {
                let request = toolcall_contracts::decode::<ToolCallRequest>(black_box(body))
                    .expect("checked")
                    .value;
                validate_call_key(request.call_key.as_deref().expect("present")).expect("valid");
                validate_schema_pin(request.schema_pin.as_deref().expect("present"))
                    .expect("valid");
                black_box(request);
            }),
        ),
        (
            "from_slice+validate_call_key+validate_schema_pin",
            Box::new(move || {
                let request: ToolCallRequest =
                    serde_json::from_slice(black_box(body)).expect("checked");
                validate_call_key(request.call_key.as_deref().expect("present")).expect("valid");
                validate_schema_pin(request.schema_pin.as_deref().expect("present"))
                    .expect("valid");
                black_box(request);
            }),
        ),
        (
            "decode",
            Box::new(move || {
                black_box(
                    toolcall_contracts::decode::<ToolCallRequest>(black_box(body))
                        .expect("checked"),
                );
            }),
        ),
        (
            "decode/ignored_any",
            Box::new(move || {
                black_box(serde_json::from_slice::<IgnoredAny>(black_box(body)).expect("checked"));
            }),
        ),
        #[cfg(feature = "simd")]
        (
            "decode/ignored_any_simd",
            Box::new(move || {
                black_box(sonic_rs::from_slice::<IgnoredAny>(black_box(body)).expect("checked"));
            }),
        ),
        (
            "validate_call_key",
            Box::new(move || {
                black_box(validate_call_key(black_box(key))).expect("valid");
            }),
        ),
        (
            "validate_schema_pin",
            Box::new(move || {
                black_box(validate_schema_pin(black_box(pin))).expect("valid");
            }),
        ),
    ]
}

/// The `call_key` and `schema_pin` of the typical route body.
fn typical_key_and_pin() -> (String, String) {
    let request: ToolCallRequest =
        serde_json::from_slice(corpus::TYPICAL_ROUTE_BODY).expect("checked");
    (
        request.call_key.expect("present"),
        request.schema_pin.expect("present"),
    )
}

fn route_body(c: &mut Criterion, variants: &[Variant<'_>]) {
    let mut group = c.benchmark_group(ROUTE_GROUP);
    group.throughput(Throughput::Elements(1));
    for (name, run) in variants {
        group.bench_function(*name, |b| b.iter(run));
    }
    group.finish();
}

/// The route corpus as a stream of bodies (MB/s).
fn route_corpus(c: &mut Criterion, bodies: &[Vec<u8>]) {
    let bytes: usize = bodies.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group(ROUTE_CORPUS_GROUP);
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("decode+validate/ours", |b| {
        b.iter(|| {
            for body in bodies {
                let request: ToolCallRequest =
                    serde_json::from_slice(black_box(body)).expect("checked");
                black_box(request.validate()).expect("valid");
            }
        });
    });
    group.bench_function("decode/value", |b| {
        b.iter(|| {
            for body in bodies {
                black_box(serde_json::from_slice::<Value>(black_box(body)).expect("checked"));
            }
        });
    });
    group.bench_function("decode/ignored_any", |b| {
        b.iter(|| {
            for body in bodies {
                black_box(serde_json::from_slice::<IgnoredAny>(black_box(body)).expect("checked"));
            }
        });
    });
    group.finish();
}

/// Every spec decodes (which runs the meta-schema check on its schemas) and re-encodes to the
/// same JSON value.
#[cfg(feature = "canonical")]
fn check_tool_specs(specs: &[Vec<u8>]) {
    for (n, spec) in specs.iter().enumerate() {
        let decoded: ToolSpec = match serde_json::from_slice(spec) {
            Ok(decoded) => decoded,
            Err(error) => panic!("tool spec {n}: refused: {error}"),
        };
        assert_eq!(
            serde_json::to_value(&decoded).expect("encodes"),
            serde_json::from_slice::<Value>(spec).expect("JSON"),
            "tool spec {n}: does not round-trip"
        );
    }
}

/// Canonical tool specs (no official counterpart): decode, encode, `Value`, `IgnoredAny`.
#[cfg(feature = "canonical")]
fn canonical_tool_spec(c: &mut Criterion, specs: &[Vec<u8>]) {
    let bytes: usize = specs.iter().map(Vec::len).sum();
    let decoded: Vec<ToolSpec> = specs
        .iter()
        .map(|s| serde_json::from_slice(s).expect("checked"))
        .collect();
    let mut group = c.benchmark_group(SPEC_GROUP);
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("decode/ours", |b| {
        b.iter(|| {
            for spec in specs {
                black_box(serde_json::from_slice::<ToolSpec>(black_box(spec)).expect("checked"));
            }
        });
    });
    group.bench_function("decode/value", |b| {
        b.iter(|| {
            for spec in specs {
                black_box(serde_json::from_slice::<Value>(black_box(spec)).expect("checked"));
            }
        });
    });
    group.bench_function("decode/ignored_any", |b| {
        b.iter(|| {
            for spec in specs {
                black_box(serde_json::from_slice::<IgnoredAny>(black_box(spec)).expect("checked"));
            }
        });
    });
    group.bench_function("encode/ours", |b| {
        b.iter(|| {
            for spec in &decoded {
                black_box(serde_json::to_vec(black_box(spec)).expect("encodes"));
            }
        });
    });
    group.finish();
}

/// `ToolSpec::validate_arguments` on a cached validator: the typical route body's `arguments`
/// against the input schema of its `search` tool (`corpus::SEARCH_TOOL_SPEC`), compiled once
/// before measuring. `validate_arguments` finds the compiled schema by hashing the spec's
/// schema on every call; `validate_arguments_pinned` with the route body's pin only looks it
/// up; `compiled/check` is the compiled validator alone; `policy/compile` compiles that input
/// schema under `SchemaPolicy::default()` (every policy check, the meta-schema, the build),
/// `policy/compile_draft_07` the same schema declaring draft-07.
#[cfg(feature = "canonical")]
fn validate_arguments(c: &mut Criterion) {
    let spec: ToolSpec =
        serde_json::from_slice(corpus::SEARCH_TOOL_SPEC).expect("the search tool spec decodes");
    let request: ToolCallRequest =
        serde_json::from_slice(corpus::TYPICAL_ROUTE_BODY).expect("the typical body decodes");
    let arguments = request.arguments;
    spec.validate_arguments(&arguments)
        .expect("the typical arguments are valid");
    let (pin, compiled) = toolcall_contracts::canonical::schema_cache()
        .insert_compiled(spec.input_schema().as_value())
        .expect("the schema compiles");
    let mut group = c.benchmark_group(ARGUMENTS_GROUP);
    group.bench_function("validate_arguments", |b| {
        b.iter(|| black_box(spec.validate_arguments(black_box(&arguments))).expect("valid"));
    });
    group.bench_function("validate_arguments_pinned", |b| {
        b.iter(|| {
            black_box(spec.validate_arguments_pinned(black_box(&arguments), Some(&pin)))
                .expect("valid")
        });
    });
    group.bench_function("compiled/check", |b| {
        b.iter(|| black_box(compiled.check(black_box(&arguments))).expect("valid"));
    });
    let policy = toolcall_contracts::policy::SchemaPolicy::default();
    let schema = spec.input_schema().as_value();
    group.bench_function("policy/compile", |b| {
        b.iter(|| black_box(policy.compile(black_box(schema))).expect("compiles"));
    });
    let mut draft_07 = schema.clone();
    draft_07["$schema"] = toolcall_contracts::policy::DIALECT_DRAFT_07.into();
    group.bench_function("policy/compile_draft_07", |b| {
        b.iter(|| black_box(policy.compile(black_box(&draft_07))).expect("compiles"));
    });
    group.finish();
}

/// Reads criterion's estimate (ns per iteration) of `group/function`, when this run wrote it.
fn estimate_ns(output: &Path, group: &str, function: &str, since: SystemTime) -> Option<f64> {
    // Criterion keeps `a/b` as the directory `a_b`.
    let path = output
        .join(group)
        .join(function.replace('/', "_"))
        .join("new")
        .join("estimates.json");
    let modified = std::fs::metadata(&path).ok()?.modified().ok()?;
    if modified < since {
        return None;
    }
    let estimates: Value = serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
    // Criterion's headline figure: the slope when it has one, else the mean.
    estimates["slope"]["point_estimate"]
        .as_f64()
        .or_else(|| estimates["mean"]["point_estimate"].as_f64())
}

/// Prints MB/s per variant of the `session_update` group, from criterion's estimates, the
/// tracked ratios and the route timings, for whatever this run measured. Returns whether it
/// measured every `session_update` variant (then the interleaved measurement follows).
fn summary(output: &Path, since: SystemTime, bytes: usize, spec_bytes: usize) -> bool {
    let figures: Vec<(&str, f64)> = VARIANT_NAMES
        .iter()
        .filter_map(|name| estimate_ns(output, SESSION_GROUP, name, since).map(|ns| (*name, ns)))
        .collect();
    let route: Vec<(&str, f64)> = ROUTE_NAMES
        .iter()
        .copied()
        .filter_map(|name| estimate_ns(output, ROUTE_GROUP, name, since).map(|ns| (name, ns)))
        .collect();
    let specs: Vec<(&str, f64)> = [
        "decode/ours",
        "decode/value",
        "decode/ignored_any",
        "encode/ours",
    ]
    .into_iter()
    .filter_map(|name| estimate_ns(output, SPEC_GROUP, name, since).map(|ns| (name, ns)))
    .collect();
    if figures.is_empty() && route.is_empty() && specs.is_empty() {
        return false;
    }
    let spec_note = if specs.is_empty() {
        String::new()
    } else {
        format!(", {spec_bytes} {SPEC_GROUP} bytes")
    };
    println!(
        "\nsummary, criterion ({bytes} session_update bytes{spec_note} per pass; MB = 10^6 bytes)"
    );
    print_figures(&figures, bytes);
    for (name, ns) in &route {
        println!("  {ROUTE_GROUP}/{name:<46} {ns:>8.1} ns per body");
    }
    for (name, ns) in &specs {
        let figure = spec_bytes as f64 / ns * 1e3;
        println!("  {SPEC_GROUP}/{name:<19} {figure:>9.1} MB/s");
    }
    #[cfg(feature = "canonical")]
    for name in [
        "validate_arguments",
        "validate_arguments_pinned",
        "compiled/check",
        "policy/compile",
        "policy/compile_draft_07",
    ] {
        if let Some(ns) = estimate_ns(output, ARGUMENTS_GROUP, name, since) {
            println!("  {ARGUMENTS_GROUP}/{name:<37} {ns:>8.1} ns per call");
        }
    }
    figures.len() == VARIANT_NAMES.len()
}

/// Prints the interleaved figures.
fn report_paired(figures: &[(&'static str, f64)], bytes: usize) {
    println!("\nsummary, interleaved (best of {PAIRED_ROUNDS} rounds; MB = 10^6 bytes)");
    print_figures(figures, bytes);
}

/// The names of [`route_variants`], in order (`decode` is `toolcall_contracts::decode`,
/// `from_slice` plain `serde_json::from_slice`; `decode/ignored_any_simd` with `simd` only).
const ROUTE_NAMES: &[&str] = &[
    "decode+validate_call_key+validate_schema_pin",
    "from_slice+validate_call_key+validate_schema_pin",
    "decode",
    "decode/ignored_any",
    #[cfg(feature = "simd")]
    "decode/ignored_any_simd",
    "validate_call_key",
    "validate_schema_pin",
];

/// Prints the interleaved route figures.
fn report_paired_route(figures: &[(&'static str, f64)]) {
    for (name, ns) in figures {
        println!("  {ROUTE_GROUP}/{name:<46} {ns:>8.1} ns per body");
    }
}

/// The names of [`variants`], in order.
///
/// `decode/ours` is `toolcall_contracts::decode` (with the leniency report), `decode/ours_from_slice`
/// plain `serde_json::from_slice`; `encode/ours` is `toolcall_contracts::encode` (sonic-rs with
/// the `simd` feature, serde_json without), `encode/ours_serde_json` plain `serde_json::to_vec`.
const VARIANT_NAMES: &[&str] = &[
    "decode/ours",
    #[cfg(feature = "simd")]
    "decode/ours_without_simd",
    "decode/ours_from_slice",
    "decode/official",
    "decode/value",
    "decode/ignored_any",
    #[cfg(feature = "simd")]
    "decode/ignored_any_simd",
    "encode/ours",
    "encode/ours_serde_json",
    "encode/official",
    "encode/value",
];

/// MB/s per variant (from ns per pass over `bytes`) and the ratios BENCHMARKS.md tracks.
fn print_figures(figures: &[(&str, f64)], bytes: usize) {
    let mbps = |n: &str| {
        figures
            .iter()
            .find(|(name, _)| *name == n)
            .map(|(_, ns)| bytes as f64 / ns * 1e3)
    };
    for (name, _) in figures {
        if let Some(figure) = mbps(name) {
            println!("  {SESSION_GROUP}/{name:<24} {figure:>9.1} MB/s");
        }
    }
    for (label, a, b, target) in [
        (
            "decode ours / official",
            "decode/ours",
            "decode/official",
            ">= 2.0x",
        ),
        (
            "decode ours / ignored_any_simd",
            "decode/ours",
            "decode/ignored_any_simd",
            ">= 0.5x",
        ),
        (
            "decode ours / ignored_any",
            "decode/ours",
            "decode/ignored_any",
            "-",
        ),
        (
            "encode ours / official",
            "encode/ours",
            "encode/official",
            ">= 1.5x",
        ),
        (
            "decode ours_from_slice / official",
            "decode/ours_from_slice",
            "decode/official",
            "-",
        ),
        (
            "encode ours_serde_json / official",
            "encode/ours_serde_json",
            "encode/official",
            "-",
        ),
        ("decode ours / value", "decode/ours", "decode/value", "-"),
        (
            "decode ours_without_simd / official",
            "decode/ours_without_simd",
            "decode/official",
            "-",
        ),
        ("encode ours / value", "encode/ours", "encode/value", "-"),
    ] {
        if let (Some(a), Some(b)) = (mbps(a), mbps(b)) {
            println!("  {label:<36} {:>6.2}x  (target {target})", a / b);
        }
    }
}
