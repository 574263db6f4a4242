//! Route body decode plus `validate_call_key` and `validate_schema_pin`, per body, in the
//! configuration a gateway builds (toolcall-contracts alone, serde_json without
//! `preserve_order`), beside `IgnoredAny` over the same bytes. The body is the wire bench's
//! `TYPICAL_ROUTE_BODY` (293 bytes: a search call with every optional member).
//!
//! `decode` is `toolcall_contracts::decode` (sonic-rs for its first pass with this package's
//! `simd` feature), `from_slice` plain `serde_json::from_slice`. `ROUTE_RUN=<name>` runs only
//! that variant `ROUTE_PASSES` times (default 1000), for an instruction count:
//!
//! ```sh
//! ROUTE_RUN=decode+validate_call_key+validate_schema_pin valgrind --tool=callgrind \
//!   --toggle-collect='route::variants::{{closure}}*' --callgrind-out-file=/dev/null \
//!   target/release/deps/route-<hash>
//! ```

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use serde::de::IgnoredAny;
use toolcall_contracts::route::{validate_call_key, validate_schema_pin, ToolCallRequest};

#[path = "../../wire/corpus.rs"]
#[allow(dead_code, reason = "only the typical route body is used here")]
mod corpus;

type Variant = (&'static str, Box<dyn Fn()>);

fn validated(request: ToolCallRequest) -> ToolCallRequest {
    validate_call_key(request.call_key.as_deref().expect("present")).expect("valid");
    validate_schema_pin(request.schema_pin.as_deref().expect("present")).expect("valid");
    request
}

fn variants(body: &'static [u8]) -> Vec<Variant> {
    vec![
        (
            "decode+validate_call_key+validate_schema_pin",
            Box::new(move || {
                let request = toolcall_contracts::decode::<ToolCallRequest>(black_box(body))
                    .expect("checked")
                    .value;
                black_box(validated(request));
            }),
        ),
        (
            "from_slice+validate_call_key+validate_schema_pin",
            Box::new(move || {
                let request: ToolCallRequest =
                    serde_json::from_slice(black_box(body)).expect("checked");
                black_box(validated(request));
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
            "from_slice",
            Box::new(move || {
                black_box(
                    serde_json::from_slice::<ToolCallRequest>(black_box(body)).expect("checked"),
                );
            }),
        ),
        (
            "decode/ignored_any",
            Box::new(move || {
                black_box(serde_json::from_slice::<IgnoredAny>(black_box(body)).expect("checked"));
            }),
        ),
    ]
}

fn main() {
    let body = corpus::TYPICAL_ROUTE_BODY;
    let request: ToolCallRequest = serde_json::from_slice(body).expect("the typical body decodes");
    assert_eq!(request.validate(), Ok(()));
    let variants = variants(body);
    if let Ok(name) = std::env::var("ROUTE_RUN") {
        let passes: u64 =
            std::env::var("ROUTE_PASSES").map_or(1000, |p| p.parse().expect("a number"));
        let (_, run) = variants
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("ROUTE_RUN: no variant `{name}`"));
        for _ in 0..passes {
            run();
        }
        eprintln!("ran {name} {passes} times");
        return;
    }
    let mut c = Criterion::default()
        .sample_size(30)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1))
        .configure_from_args();
    let mut group = c.benchmark_group("route_body_consumer");
    for (name, run) in &variants {
        group.bench_function(*name, |b| b.iter(run));
    }
    group.finish();
    c.final_summary();
}
