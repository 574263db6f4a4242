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

use serde_json::Value;

use super::transcript::Side;
use super::verdict::{Kind, Verdict};
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

/// `value` when it is one of the tap's records (see the module documentation).
pub(super) fn record(value: &Value) -> Option<Record<'_>> {
    Some(match toolcall_hops::pairing::tap_record(value)? {
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::Status;

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
            json!({"from": "client", "not_checked_bytes": "10"}),
            json!({"from": "client", "text": "x", "truncated": false, "bytes": 1}),
            json!({"from": "client", "message": {}}),
        ] {
            assert_eq!(record(&value), None, "{value}");
        }
    }
}
