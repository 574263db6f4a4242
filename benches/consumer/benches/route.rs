//! Route body decode plus `validate_call_key` and `validate_schema_pin`, per body, in the
//! configuration a gateway builds (toolcall-contracts alone, serde_json without
//! `preserve_order`), beside `IgnoredAny` over the same bytes. The body is the wire bench's
//! `TYPICAL_ROUTE_BODY` (293 bytes: a search call with every optional member).

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use serde::de::IgnoredAny;
use toolcall_contracts::route::{validate_call_key, validate_schema_pin, ToolCallRequest};

#[path = "../../wire/corpus.rs"]
#[allow(dead_code, reason = "only the typical route body is used here")]
mod corpus;

fn main() {
    let body = corpus::TYPICAL_ROUTE_BODY;
    let request: ToolCallRequest = serde_json::from_slice(body).expect("the typical body decodes");
    assert_eq!(request.validate(), Ok(()));
    let mut c = Criterion::default()
        .sample_size(30)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1))
        .configure_from_args();
    let mut group = c.benchmark_group("route_body_consumer");
    group.bench_function("decode+validate_call_key+validate_schema_pin", |b| {
        b.iter(|| {
            let request: ToolCallRequest =
                serde_json::from_slice(black_box(body)).expect("checked");
            validate_call_key(request.call_key.as_deref().expect("present")).expect("valid");
            validate_schema_pin(request.schema_pin.as_deref().expect("present")).expect("valid");
            black_box(request)
        });
    });
    group.bench_function("decode", |b| {
        b.iter(|| black_box(serde_json::from_slice::<ToolCallRequest>(black_box(body)).expect("checked")));
    });
    group.bench_function("decode/ignored_any", |b| {
        b.iter(|| black_box(serde_json::from_slice::<IgnoredAny>(black_box(body)).expect("checked")));
    });
    group.finish();
    c.final_summary();
}
