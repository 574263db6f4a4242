//! `toolcall_contracts::encode` writes exactly the bytes of `serde_json::to_vec`, whichever
//! writer the build uses (sonic-rs with the `simd` feature, serde_json without): on the
//! benchmark corpus, on every ACP documentation example and recorded message (as the generated
//! envelope types), and on generated strings and numbers of every class JSON escapes or formats
//! specially.

use crate::corpus;
use crate::support;

use proptest::prelude::*;
use serde_json::json;
use toolcall_contracts::{acp, Contract};

/// Asserts that `encode` and `serde_json::to_vec` give the same bytes for `value`.
fn same_bytes<T: Contract + ?Sized>(what: &str, value: &T) {
    let ours = toolcall_contracts::encode(value).expect("encodes");
    let reference = serde_json::to_vec(value).expect("encodes");
    assert!(
        ours == reference,
        "{what}: encode differs from serde_json\n  encode:     {}\n  serde_json: {}",
        String::from_utf8_lossy(&ours),
        String::from_utf8_lossy(&reference)
    );
    let mut written = Vec::new();
    toolcall_contracts::encode_to_writer(&mut written, value).expect("encodes");
    assert_eq!(written, reference, "{what}: encode_to_writer differs");
}

#[test]
fn benchmark_corpus_encodes_to_the_same_bytes() {
    let messages = corpus::notifications(200, corpus::SEED);
    for (index, message) in messages.iter().enumerate() {
        let typed: acp::SessionNotification =
            serde_json::from_slice(message).expect("corpus messages decode");
        same_bytes(&format!("corpus message {index}"), &typed);
    }
    for (index, body) in corpus::route_bodies(200, corpus::SEED).iter().enumerate() {
        let typed: toolcall_contracts::route::ToolCallRequest =
            serde_json::from_slice(body).expect("route bodies decode");
        same_bytes(&format!("route body {index}"), &typed);
    }
}

/// Every line of the shared corpora, as each envelope type that accepts it.
#[test]
fn shared_corpora_encode_to_the_same_bytes() {
    let mut typed = 0;
    let mut lines = 0;
    for file in ["acp-examples/docs-v1.ndjson", "acp-traffic/messages.ndjson"] {
        let Some(corpus) = support::load(file) else {
            continue;
        };
        for line in &corpus {
            lines += 1;
            let what = format!("{file}:{}", line.no);
            let json = serde_json::to_vec(&line.value).expect("a value encodes");
            macro_rules! as_type {
                ($($ty:ty),*) => {$(
                    if let Ok(value) = serde_json::from_slice::<$ty>(&json) {
                        typed += 1;
                        same_bytes(&format!("{what} as {}", stringify!($ty)), &value);
                    }
                )*};
            }
            as_type!(
                acp::AgentNotification,
                acp::ClientNotification,
                acp::AgentRequest,
                acp::ClientRequest,
                acp::AgentResponse,
                acp::ClientResponse
            );
        }
    }
    println!("{lines} lines, {typed} typed encodings compared");
}

#[test]
fn numbers_encode_to_the_same_bytes() {
    let numbers = json!([
        0,
        -0.0,
        0.0,
        1,
        -1,
        0.1,
        1.5e-7,
        1e21,
        1e-7,
        123_456_789.125,
        1e300,
        -1e-300,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        9_007_199_254_740_993_u64,
        u64::MAX,
        i64::MIN,
        2.5,
        100.0,
        1e15,
        1e16,
        1e17,
        0.000_001,
        0.000_000_1
    ]);
    same_bytes(
        "numbers",
        &acp::ToolCall::new("call_1", "numbers").raw_input(numbers),
    );
}

fn any_char() -> impl Strategy<Value = char> {
    prop_oneof![
        // Everything JSON escapes, and the printable neighbours of each escape.
        (0_u32..0x30).prop_map(|c| char::from_u32(c).expect("ASCII")),
        Just('\\'),
        Just('"'),
        Just('/'),
        Just('\u{7f}'),
        // Non-ASCII: two, three and four bytes of UTF-8, line and paragraph separators.
        (0x80_u32..0x800).prop_map(|c| char::from_u32(c).expect("not a surrogate")),
        Just('\u{2028}'),
        Just('\u{2029}'),
        Just('\u{feff}'),
        any::<char>(),
        (0x20_u32..0x7f).prop_map(|c| char::from_u32(c).expect("ASCII")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Strings of every class, short and long (the SIMD paths work on 16 and 32 byte blocks),
    /// in a typed member, in `rawInput` and as an object key.
    #[test]
    fn strings_encode_to_the_same_bytes(
        text in proptest::collection::vec(any_char(), 0..200).prop_map(String::from_iter),
        repeat in 1_usize..4,
        number in any::<f64>().prop_filter("JSON numbers are finite", |n| n.is_finite()),
    ) {
        let text = text.repeat(repeat);
        let call = acp::ToolCall::new("call_1", text.clone())
            .raw_input(json!({ text.clone(): [text.clone(), number] }));
        same_bytes("ToolCall", &call);
    }
}
