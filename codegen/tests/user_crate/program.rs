//! What a user's program does with the generated types: decode an order, read it, encode it back,
//! and see a wrong one refused at its JSON pointer. Shared by both crates beside it.

use orders_types::orders::{Order, Payment, Status};

/// An order as the shop sends it, with a member the schema does not declare (`giftWrap`).
const ORDER: &str = r#"{"id":"o-1","status":"paid","lines":[{"sku":"tea","quantity":2,"price":4.5},{"sku":"mug","quantity":1,"price":12}],"payment":{"method":"card","last4":"4242"},"note":null,"tags":{"channel":"web"},"giftWrap":true}"#;

/// A line with a quantity below the schema's `minimum`.
const WRONG: &str =
    r#"{"id":"o-2","status":"paid","lines":[{"sku":"tea","quantity":0,"price":1}]}"#;

fn main() {
    let decoded = toolcall_contracts::decode::<Order>(ORDER.as_bytes()).expect("the order decodes");
    assert!(decoded.report.is_empty(), "{:?}", decoded.report);
    let order = decoded.value;
    assert_eq!(order.status, Status::Paid);
    let Some(Payment::Card(card)) = &order.payment else {
        panic!("a card payment: {:?}", order.payment);
    };
    println!(
        "order {} paid by card {}, {} lines",
        order.id,
        card.last4,
        order.lines.len()
    );

    let encoded = toolcall_contracts::encode(&order).expect("the order encodes");
    let back: serde_json::Value = serde_json::from_slice(&encoded).expect("JSON");
    let sent: serde_json::Value = serde_json::from_str(ORDER).expect("JSON");
    assert_eq!(back, sent, "encoded back as another value");
    println!(
        "encoded back: {}",
        String::from_utf8(encoded).expect("UTF-8")
    );

    let error = toolcall_contracts::decode::<Order>(WRONG.as_bytes()).expect_err("refused");
    println!("refused at `{}`: {}", error.pointer, error.message);
}
