//! The records of a `toolcall tap` transcript that are not messages, read back as what they are.
//!
//! Beside `{"from": ..., "message": ...}` and `{"from": ..., "text": ...}` (see
//! [`super::Transcript`]), the tap writes:
//!
//! ```json
//! {"from": "client", "text": "<its first 1024 bytes>", "truncated": true, "bytes": 2000000}
//! {"from": "agent", "not_checked_bytes": 65536}
//! ```
//!
//! The first is a message over the tap's `--max-bytes` (only its start was kept): `over-limit`,
//! naming its size, its kind what its first bytes show (a request whose `id` and `method` come
//! first is recorded as the tap recorded it). The second is bytes the tap relayed but did not
//! check because checking fell behind: `unchecked`, kind `not checked by the tap`, naming the
//! bytes. Each record has exactly these members and a known `from`; anything else is not one.
//!
//! The HTTP tap, which follows several sessions at once, puts the session first in each of
//! these records, `{"session": 2, "from": "client", "message": ...}`: [`in_session`] takes it
//! out, and [`super::Checker::check_input`] follows each session on its own.

use std::collections::BTreeMap;

use serde_json::value::RawValue;
use serde_json::Value;

use super::fast::PARSER_DEPTH;
use super::transcript::Side;
use super::verdict::{Kind, Verdict};
use toolcall_contracts::policy::DecodeLimits;
use toolcall_hops::pairing::TapRecord;

/// One of the tap's records.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Record<'a> {
    /// Bytes relayed but not checked: its verdict.
    NotChecked(Verdict),
    /// A message over the tap's byte limit: who sent it, its first bytes, its size.
    Truncated {
        from: Side,
        text: &'a str,
        bytes: u64,
    },
}

impl Record<'_> {
    /// The message of the `over-limit` verdict on a truncated record.
    pub(super) fn truncated_message(bytes: u64) -> String {
        format!(
            "a message of `{bytes}` bytes, over the tap's `--max-bytes` (the transcript kept its \
             start only)"
        )
    }
}

/// Whether JSON `message` can be written as a transcript record `{"from": ..., "message":
/// <message>}` that serde_json reads back: the record adds a level, so the message may nest at
/// most one level less than serde_json parses ([`PARSER_DEPTH`]). The tap writes a deeper one
/// as text (`{"from": ..., "text": ...}`), as it does JSON no `Value` holds, and the checker and
/// the lifecycle read such a text record as the message it was.
///
/// Each level takes an opening and a closing bracket: a message of fewer than `2 *
/// PARSER_DEPTH` bytes, or with fewer than `PARSER_DEPTH` opening brackets (those in strings
/// counted too), is not that deep, and its depth is not measured.
pub(crate) fn nests_in_record(message: &[u8]) -> bool {
    message.len() < 2 * PARSER_DEPTH
        || opening_brackets(message) < PARSER_DEPTH
        || DecodeLimits::new(message.len(), PARSER_DEPTH - 1)
            .check(message)
            .is_ok()
}

/// The `[` and `{` in `bytes`, strings' too. Counted 128 bytes at a time into a byte, which the
/// compiler turns into vector compares and adds (`[` is `{` with bit 5 clear): a search
/// stopping at each bracket costs more than the check of the message on code-laden text.
fn opening_brackets(bytes: &[u8]) -> usize {
    bytes
        .chunks(128)
        .map(|chunk| {
            let count = chunk
                .iter()
                .fold(0_u8, |count, &byte| count + u8::from(byte | 0x20 == b'{'));
            usize::from(count)
        })
        .sum()
}

/// Whether the tap writes `text`, a message it followed, as `{"from": ..., "message": ...}`:
/// JSON a `Value` holds that [`nests_in_record`]. Any other text record it writes holds a line
/// that is not JSON (or not UTF-8, its text then lossy), or JSON it checked and followed as a
/// message.
pub(crate) fn message_record_holds(text: &str) -> bool {
    nests_in_record(text.as_bytes()) && serde_json::from_str::<Value>(text).is_ok()
}

/// `value` when it is one of the tap's records (see the module documentation).
pub(super) fn record(value: &Value) -> Option<Record<'_>> {
    Some(match toolcall_hops::pairing::tap_record(value)? {
        // The tap records a gap of at least one byte: this one is malformed.
        TapRecord::NotChecked { bytes: 0, .. } => return None,
        TapRecord::NotChecked { from, bytes } => Record::NotChecked(
            Verdict::unchecked(
                Kind::NotChecked,
                "",
                format!(
                    "`{bytes}` bytes from the {from} were relayed but not checked (the tap's \
                     checking fell behind): the messages they held are missing here"
                ),
            )
            .sent_by(Some(from)),
        ),
        TapRecord::Truncated { from, text, bytes } => Record::Truncated { from, text, bytes },
    })
}

/// The members of the tap's own records: `{"from", "text"}`, with `truncated` and `bytes` for
/// a message over the tap's byte limit, and `{"from", "not_checked_bytes"}`.
const TAP_RECORD_MEMBERS: &[&str] = &["from", "text", "truncated", "bytes", "not_checked_bytes"];

/// Whether `line`, a transcript line's top level, is meant as one of the transcript's records
/// (a message's, a text record, the tap's own): it has `from` and no `jsonrpc`.
pub(super) fn is_record(line: &serde_json::Map<String, Value>) -> bool {
    line.contains_key("from") && !line.contains_key("jsonrpc")
}

/// `line` parsed, when it is one of the tap's own records ([`TAP_RECORD_MEMBERS`]): read
/// whatever its length, since its text is checked against the limits as the message it was.
/// Its member names are read first, so a long line that is no such record is not parsed.
pub(super) fn record_line(line: &[u8]) -> Option<Value> {
    let members = super::envelope::members(line)?;
    let names = || members.iter().map(|member| member.name.as_str());
    let record = names().any(|name| name == "from")
        && names().any(|name| matches!(name, "text" | "not_checked_bytes"))
        && names().all(|name| TAP_RECORD_MEMBERS.contains(&name));
    record.then(|| serde_json::from_slice(line).ok()).flatten()
}

/// Why `line`, a transcript line meant as a record ([`is_record`]), is none of the
/// transcript's records (`{"from", "message"}`, `{"from", "text"}`, the tap's gap and truncated
/// records): the member at fault (a JSON pointer) and what is wrong with it; `None` when it is
/// one of them.
pub(super) fn malformed(line: &serde_json::Map<String, Value>) -> Option<(String, String)> {
    let at = |name: &str| format!("/{}", toolcall_schema::pointer::escape(name));
    let from = line.get("from")?;
    if from.as_str().and_then(Side::from_name).is_none() {
        return Some((
            at("from"),
            format!("a transcript record's `from` is {from}: `client`, `agent` or `server`"),
        ));
    }
    let (shape, members): (&str, &[&str]) = if line.contains_key("message") {
        ("a message's record", &["from", "message"])
    } else if line.contains_key("not_checked_bytes") {
        (
            "the tap's record of bytes not checked",
            &["from", "not_checked_bytes"],
        )
    } else if line.contains_key("truncated") || line.contains_key("bytes") {
        (
            "the tap's record of a message over its byte limit",
            &["from", "text", "truncated", "bytes"],
        )
    } else if line.contains_key("text") {
        ("a text record", &["from", "text"])
    } else {
        return Some((
            String::new(),
            "a transcript record (it has `from`) holds `message`, `text` or `not_checked_bytes`"
                .to_owned(),
        ));
    };
    let listed = members
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if let Some(extra) = line.keys().find(|name| !members.contains(&name.as_str())) {
        return Some((at(extra), format!("{shape} has only {listed}")));
    }
    if let Some(missing) = members.iter().find(|name| !line.contains_key(**name)) {
        return Some((
            String::new(),
            format!("{shape} has {listed}: `{missing}` is missing"),
        ));
    }
    let count = |name: &str| {
        line.get(name)
            .and_then(Value::as_u64)
            .filter(|&count| count > 0)
    };
    if line.contains_key("not_checked_bytes") && count("not_checked_bytes").is_none() {
        return Some((
            at("not_checked_bytes"),
            "the bytes not checked are a count of at least 1".to_owned(),
        ));
    }
    if line.contains_key("bytes") {
        if line.get("truncated") != Some(&Value::Bool(true)) {
            return Some((at("truncated"), "`truncated` is `true`".to_owned()));
        }
        if count("bytes").is_none() {
            return Some((
                at("bytes"),
                "the message's length is a count of bytes, at least 1".to_owned(),
            ));
        }
    }
    if line.get("text").is_some_and(|text| !text.is_string()) {
        return Some((at("text"), "`text` is the line as a string".to_owned()));
    }
    None
}

/// A transcript record naming its session (`{"session": S, "from": ..., ...}`, as the HTTP tap
/// writes them): the session, as its JSON text, and the record without it, every other member
/// as written (so that the message keeps its bytes). `None` for anything else, quickly when the
/// line does not hold `"session"`.
///
/// ```
/// let (session, record) =
///     toolcall_traffic::in_session(br#"{"session":2,"from":"client","message":{"id":1.0}}"#)
///         .unwrap();
/// assert_eq!(session, "2");
/// assert_eq!(record, br#"{"from":"client","message":{"id":1.0}}"#);
/// ```
#[must_use]
pub fn in_session(line: &[u8]) -> Option<(String, Vec<u8>)> {
    memchr::memmem::find(line, b"\"session\"")?;
    // A record with a member twice is not split: it is checked whole, and reported.
    if crate::envelope::members(line)
        .is_some_and(|members| crate::envelope::repeated(&members).is_some())
    {
        return None;
    }
    let members: BTreeMap<&str, &RawValue> = serde_json::from_slice(line).ok()?;
    let session = members.get("session")?;
    members.get("from")?;
    let mut record = Vec::with_capacity(line.len());
    record.push(b'{');
    for (name, value) in members.iter().filter(|(name, _)| **name != "session") {
        if record.len() > 1 {
            record.push(b',');
        }
        serde_json::to_writer(&mut record, name).ok()?;
        record.push(b':');
        record.extend_from_slice(value.get().as_bytes());
    }
    record.push(b'}');
    Some((session.get().to_owned(), record))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::Status;

    #[test]
    fn opening_brackets_are_counted_whatever_the_length() {
        // Only `[` and `{` count, of every byte value.
        for byte in 0..=u8::MAX {
            let expected = usize::from(matches!(byte, b'[' | b'{'));
            assert_eq!(opening_brackets(&[byte]), expected, "byte {byte:#04x}");
        }
        // Around the 128-byte chunks, with every byte a bracket and with one in three.
        for len in [0, 1, 127, 128, 129, 255, 256, 257, 1000] {
            let all = vec![b'{'; len];
            assert_eq!(opening_brackets(&all), len);
            let some: Vec<u8> = (0..len).map(|i| [b'[', b'a', b'"'][i % 3]).collect();
            assert_eq!(opening_brackets(&some), len.div_ceil(3));
        }
    }

    #[test]
    fn the_taps_records_are_read_back_and_nothing_else_is() {
        let gap = json!({"from": "agent", "not_checked_bytes": 10});
        let Some(Record::NotChecked(gap)) = record(&gap) else {
            panic!("a gap record");
        };
        assert_eq!(gap.kind.to_string(), "not checked by the tap");
        assert_eq!(gap.from, Some(Side::Agent));
        assert!(matches!(gap.status, Status::Unchecked { ref message, .. }
            if message.starts_with("`10` bytes from the agent were relayed but not checked")));
        let over = json!({"from": "client", "text": "{\"a\"", "truncated": true, "bytes": 2000});
        assert_eq!(
            record(&over),
            Some(Record::Truncated {
                from: Side::Client,
                text: "{\"a\"",
                bytes: 2000
            })
        );
        for value in [
            json!({"from": "proxy", "not_checked_bytes": 10}),
            json!({"session": 1, "from": "agent", "not_checked_bytes": 10}),
            json!({"from": "client", "not_checked_bytes": "10"}),
            json!({"from": "client", "text": "x", "truncated": false, "bytes": 1}),
            json!({"from": "client", "message": {}}),
        ] {
            assert_eq!(record(&value), None, "{value}");
        }
    }

    #[test]
    fn a_session_is_taken_out_of_the_record_and_the_message_keeps_its_bytes() {
        let line = br#"{"session":2,"from":"client","message":{"id":1.0,"b":[ 2 ]}}"#;
        let (session, record) = in_session(line).expect("session");
        assert_eq!(session, "2");
        assert_eq!(
            String::from_utf8(record).unwrap(),
            r#"{"from":"client","message":{"id":1.0,"b":[ 2 ]}}"#
        );
        let (session, record) =
            in_session(br#"{"from":"agent","not_checked_bytes":3,"session":"a"}"#).expect("gap");
        assert_eq!(session, r#""a""#);
        assert_eq!(
            String::from_utf8(record).unwrap(),
            r#"{"from":"agent","not_checked_bytes":3}"#
        );
        assert_eq!(in_session(br#"{"from":"client","message":{}}"#), None);
        assert_eq!(in_session(br#"{"session":1,"message":{}}"#), None);
        assert_eq!(in_session(br#"{"session":1,"from":"#), None);
    }
}
