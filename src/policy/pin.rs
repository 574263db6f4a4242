//! Schema pins: SHA-256 of a schema's canonical JSON.

use std::io::{self, Write};

use serde_json::Value;
use sha2::{Digest, Sha256};

/// Lowercase hex SHA-256 of the canonical JSON of `value`: compact, object members sorted by
/// the UTF-8 bytes of their names, strings and numbers as serde_json writes them. The caller
/// bounds the depth (the serializer recurses).
pub(crate) fn pin(value: &Value) -> String {
    let mut hasher = Sha256::new();
    write_canonical(&mut hasher, value).expect("hashing never fails");
    hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

fn write_canonical(out: &mut impl Write, value: &Value) -> io::Result<()> {
    match value {
        Value::Array(items) => {
            out.write_all(b"[")?;
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.write_all(b",")?;
                }
                write_canonical(out, item)?;
            }
            out.write_all(b"]")
        }
        Value::Object(members) => {
            let mut members: Vec<_> = members.iter().collect();
            members.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.write_all(b"{")?;
            for (index, (name, member)) in members.into_iter().enumerate() {
                if index > 0 {
                    out.write_all(b",")?;
                }
                serde_json::to_writer(&mut *out, name)?;
                out.write_all(b":")?;
                write_canonical(out, member)?;
            }
            out.write_all(b"}")
        }
        scalar => serde_json::to_writer(out, scalar).map_err(io::Error::from),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_form_sorts_members() {
        let mut out = Vec::new();
        write_canonical(&mut out, &json!({"b": [1, {"d": 1, "c": "x"}], "a": null})).unwrap();
        assert_eq!(out, br#"{"a":null,"b":[1,{"c":"x","d":1}]}"#);
    }

    #[test]
    fn pin_is_sha256_hex() {
        // sha256 of `{}`.
        assert_eq!(
            pin(&json!({})),
            "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
        );
    }
}
