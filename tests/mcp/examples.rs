//! The 129 example instances the MCP specification ships for 2026-07-28
//! (`../shared/mcp-schemas/2026-07-28/examples/<Definition>/*.json`): each decodes into the
//! generated type of its definition with an empty report and re-encodes to the identical JSON
//! value (members, `null`s, numbers and their form). Skips with a notice when `../shared` is
//! absent.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use toolcall_contracts::decode;
use toolcall_contracts::mcp::v2026_07_28 as mcp;

use crate::support as mcp_support;
use mcp_support::examples;

/// Decodes `text` as `T`, then re-encodes it: `Err` says what differs.
fn round_trip<T: DeserializeOwned + Serialize>(text: &str) -> Result<(), String> {
    let input: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let decoded = decode::<T>(text.as_bytes()).map_err(|e| format!("refused: {e}"))?;
    if !decoded.report.is_empty() {
        return Err(format!("leniency applied: {:?}", decoded.report));
    }
    let output = serde_json::to_value(&decoded.value).map_err(|e| format!("encode: {e}"))?;
    if output != input {
        return Err(format!(
            "re-encodes differently:\n  in:  {input}\n  out: {output}"
        ));
    }
    // Numbers keep their form: the re-encoded text holds the same number literals.
    let text_out = serde_json::to_string(&decoded.value).map_err(|e| e.to_string())?;
    let (mut before, mut after) = (
        numbers(&input),
        numbers(&serde_json::from_str(&text_out).unwrap_or(Value::Null)),
    );
    // Member order may differ (serde_json's `preserve_order`); the multiset of literals may not.
    before.sort();
    after.sort();
    if before != after {
        return Err("a number changed its form".to_owned());
    }
    Ok(())
}

/// Every number of a value as written (`2` and `2.0` differ).
fn numbers(value: &Value) -> Vec<String> {
    match value {
        Value::Number(n) => vec![n.to_string()],
        Value::Array(items) => items.iter().flat_map(numbers).collect(),
        Value::Object(map) => map.values().flat_map(numbers).collect(),
        _ => Vec::new(),
    }
}

macro_rules! dispatch {
    ($definition:expr, $text:expr, $($name:ident,)*) => {
        match $definition {
            $(stringify!($name) => round_trip::<mcp::$name>($text),)*
            "ElicitRequestURLParams" => round_trip::<mcp::ElicitRequestURLParams>($text),
            other => Err(format!("no generated type is matched to examples of `{other}`: add it here")),
        }
    };
}

fn check(definition: &str, text: &str) -> Result<(), String> {
    mcp_support::with_example_definitions!(dispatch!(definition, text,))
}

#[test]
fn every_official_example_round_trips_exactly() {
    let Some(examples) = examples() else {
        return;
    };
    let failures: Vec<String> = examples
        .iter()
        .filter_map(|example| {
            check(&example.definition, &example.text)
                .err()
                .map(|why| format!("{}: {why}", example.name))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} examples fail:\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n")
    );
    assert_eq!(examples.len(), 129, "the specification ships 129 examples");
}
