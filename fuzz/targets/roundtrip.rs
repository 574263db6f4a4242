//! The properties every root decoder target checks, through `toolcall_contracts::decode`.

use std::cmp::Ordering;
use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use toolcall_contracts::{decode, decode_with, DecodeError, Decoded, DECODE_LIMITS};

/// Decodes `data` as `T` and checks, returning the value when it decodes:
///
/// 1. `serde_json::from_slice::<T>` agrees with `decode::<T>` on accept/reject, and on the value
///    when both accept (within the decode limits: over a limit, only `decode` refuses);
/// 2. a refusal has an RFC 6901 pointer and a non-empty message;
/// 3. every leniency pointer is an RFC 6901 pointer that resolves in the input, and the report
///    is ordered by pointer (segment by segment, array indices numerically);
/// 4. the value re-encodes with serde_json, the re-encoding decodes again to an equal value, and
///    that value re-encodes to the same bytes.
pub fn check<T>(data: &[u8]) -> Option<T>
where
    T: DeserializeOwned + Serialize + PartialEq + Debug,
{
    let decoded = decode::<T>(data);
    let plain = serde_json::from_slice::<T>(data);
    let Decoded { value, report } = match (decoded, plain) {
        (Err(error), _) if error.limit.is_some() => {
            check_error(&error);
            return None;
        }
        (Err(error), Err(_)) => {
            check_error(&error);
            return None;
        }
        (Err(error), Ok(value)) => {
            panic!("`decode` refuses ({error}) what `serde_json::from_slice` accepts: {value:?}")
        }
        (Ok(decoded), Err(error)) => panic!(
            "`decode` accepts what `serde_json::from_slice` refuses ({error}): {:?}",
            decoded.value
        ),
        (Ok(decoded), Ok(value)) => {
            assert_eq!(
                decoded.value, value,
                "`decode` and `serde_json::from_slice` disagree on the value"
            );
            decoded
        }
    };

    if !report.is_empty() {
        let input: Value = serde_json::from_slice(data).expect("`T` decoded, so this is JSON");
        for leniency in &report {
            assert!(
                is_pointer(&leniency.pointer),
                "leniency pointer `{}` is not an RFC 6901 pointer",
                leniency.pointer
            );
            assert!(
                input.pointer(&leniency.pointer).is_some(),
                "leniency pointer `{}` does not resolve in the input ({:?})",
                leniency.pointer,
                leniency.kind
            );
        }
        for pair in report.windows(2) {
            assert_ne!(
                compare_pointers(&input, &pair[0].pointer, &pair[1].pointer),
                Ordering::Greater,
                "leniency report out of order: `{}` before `{}`",
                pair[0].pointer,
                pair[1].pointer
            );
        }
    }

    let encoded = serde_json::to_vec(&value)
        .unwrap_or_else(|error| panic!("a decoded value does not re-encode: {error}: {value:?}"));
    // `decode`'s limits with the byte limit lifted: an encoding is no deeper than what it came
    // from, but it may be longer (`1e9` re-encodes as `1000000000.0`).
    let limits = DECODE_LIMITS.with_max_bytes(usize::MAX);
    let again = decode_with::<T>(&encoded, &limits).unwrap_or_else(|error| {
        panic!(
            "the re-encoding of a decoded value does not decode ({error}): {}",
            String::from_utf8_lossy(&encoded)
        )
    });
    assert_eq!(
        again.value,
        value,
        "the re-encoding decodes to a different value: {}",
        String::from_utf8_lossy(&encoded)
    );
    let reencoded = serde_json::to_vec(&again.value).expect("an equal value re-encoded above");
    assert_eq!(
        String::from_utf8_lossy(&reencoded),
        String::from_utf8_lossy(&encoded),
        "encoding is not stable across a decode"
    );
    Some(value)
}

fn check_error(error: &DecodeError) {
    assert!(
        is_pointer(&error.pointer),
        "`DecodeError::pointer` `{}` is not an RFC 6901 pointer",
        error.pointer
    );
    assert!(!error.message.is_empty(), "empty `DecodeError::message`");
    let _ = error.to_string();
}

/// `""` or `/`-separated segments in which every `~` is followed by `0` or `1`.
pub(crate) fn is_pointer(pointer: &str) -> bool {
    if pointer.is_empty() {
        return true;
    }
    pointer.starts_with('/') && {
        let bytes = pointer.as_bytes();
        bytes
            .iter()
            .enumerate()
            .all(|(i, &b)| b != b'~' || matches!(bytes.get(i + 1), Some(b'0' | b'1')))
    }
}

/// Orders two pointers that resolve in `input` segment by segment: at the first segment that
/// differs, array indices compare as numbers and member names by their unescaped bytes; a
/// pointer comes before the pointers it is a prefix of.
fn compare_pointers(input: &Value, a: &str, b: &str) -> Ordering {
    let segments = |p: &str| -> Vec<String> {
        p.split('/')
            .skip(1)
            .map(|s| s.replace("~1", "/").replace("~0", "~"))
            .collect()
    };
    let (a, b) = (segments(a), segments(b));
    let mut container = input;
    for (x, y) in a.iter().zip(&b) {
        if x != y {
            return match container {
                Value::Array(_) => {
                    let index = |s: &str| s.parse::<usize>().expect("the pointer resolves");
                    index(x).cmp(&index(y))
                }
                _ => x.as_bytes().cmp(y.as_bytes()),
            };
        }
        container = match container {
            Value::Array(items) => &items[x.parse::<usize>().expect("the pointer resolves")],
            Value::Object(members) => &members[x.as_str()],
            _ => unreachable!("the pointer resolves"),
        };
    }
    a.len().cmp(&b.len())
}
