//! The top-level members of a JSON object read without parsing its values: what the checker
//! needs of a message it does not parse (one over a limit, or only the first bytes of one) and
//! of a transcript wrapper whose message is over a limit while the wrapper is not.
//!
//! One pass over the bytes, no recursion and no allocation per nested value: strings are
//! skipped with `memchr`, brackets counted. A value cut off by the end of the input (a tap's
//! truncated record keeps the first 1024 bytes of a message) ends the scan; the members before
//! it are still read.

use std::ops::Range;

use serde_json::Value;

/// One top-level member: its name and the byte range of its value (whitespace trimmed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Member {
    pub(crate) name: String,
    pub(crate) value: Range<usize>,
}

/// The top-level members of `json` when it is an object (possibly cut short), in order; `None`
/// when it does not start with `{` or its member names cannot be read.
pub(crate) fn members(json: &[u8]) -> Option<Vec<Member>> {
    read_members(json).map(|read| read.members)
}

/// The names of the top-level members of `json` (one of [`members`]), with that of a member
/// whose value is cut off.
pub(crate) fn names(json: &[u8]) -> Option<Vec<String>> {
    let read = read_members(json)?;
    Some(
        read.members
            .into_iter()
            .chain(read.cut)
            .map(|member| member.name)
            .collect(),
    )
}

/// The value of the top-level member `name` of `json`, an object possibly cut short: its whole
/// text, or what the cut left of it (from its start to the end of `json`).
pub(crate) fn member_text<'a>(json: &'a [u8], name: &str) -> Option<&'a [u8]> {
    let read = read_members(json)?;
    read.members
        .into_iter()
        .chain(read.cut)
        .find(|member| member.name == name)
        .map(|member| &json[member.value])
}

/// The members of an object read by [`read_members`].
struct Read {
    /// Those whose value is whole.
    members: Vec<Member>,
    /// The one whose value the end of the input cut off, its value to that end.
    cut: Option<Member>,
}

/// [`members`], and the member whose value is cut off.
fn read_members(json: &[u8]) -> Option<Read> {
    let mut at = skip_space(json, 0);
    if json.get(at) != Some(&b'{') {
        return None;
    }
    at += 1;
    let mut members = Vec::new();
    loop {
        at = skip_space(json, at);
        match json.get(at) {
            Some(b'}') | None => return Some(Read { members, cut: None }),
            Some(b',') => {
                at += 1;
                continue;
            }
            Some(b'"') => {}
            Some(_) => return None,
        }
        let Some(name_end) = string_end(json, at) else {
            return Some(Read { members, cut: None });
        };
        let name: String = serde_json::from_slice(&json[at..name_end]).ok()?;
        at = skip_space(json, name_end);
        if json.get(at) != Some(&b':') {
            return (at >= json.len()).then_some(Read { members, cut: None });
        }
        at = skip_space(json, at + 1);
        let start = at;
        let Some(end) = value_end(json, at) else {
            // Cut off inside this value: the members before it are all there is.
            let cut = Member {
                name,
                value: start..json.len(),
            };
            return Some(Read {
                members,
                cut: Some(cut),
            });
        };
        members.push(Member {
            name,
            value: start..end,
        });
        at = end;
    }
}

/// The first member name of `members` (one of [`members`]) given twice (names compared
/// unescaped).
pub(crate) fn repeated(members: &[Member]) -> Option<&str> {
    let mut seen = std::collections::HashSet::with_capacity(members.len());
    members
        .iter()
        .map(|member| member.name.as_str())
        .find(|name| !seen.insert(*name))
}

/// The value of the member `name` of `json` (one of [`members`]), parsed, when it is there
/// whole and is valid JSON.
pub(crate) fn scalar(json: &[u8], members: &[Member], name: &str) -> Option<Value> {
    let member = members.iter().find(|member| member.name == name)?;
    serde_json::from_slice(&json[member.value.clone()]).ok()
}

/// What the top-level member `name` (`params` or `result`) says of the protocol, read without
/// building the rest of it (which may hold what no `Value` holds): `{"protocolVersion": ...,
/// "_meta": {"io.modelcontextprotocol/protocolVersion": ...}}` with those it has; `None` when it
/// has neither, or is not an object whose members read.
pub(crate) fn protocol_said(json: &[u8], members: &[Member], name: &str) -> Option<Value> {
    use crate::pruned::Keep;
    const SAID: Keep = Keep::Members(&[
        ("protocolVersion", Keep::All),
        (
            "_meta",
            Keep::Members(&[(crate::mcp::META_PROTOCOL_VERSION, Keep::All)]),
        ),
    ]);
    let member = members.iter().find(|member| member.name == name)?;
    let said = crate::pruned::read_slice(&json[member.value.clone()], SAID)?;
    said.as_object()
        .is_some_and(|said| !said.is_empty())
        .then_some(said)
}

/// The offset after the string that starts at `at` (a `"`), or `None` when it is cut off.
pub(crate) fn string_end(json: &[u8], at: usize) -> Option<usize> {
    let mut offset = at + 1;
    loop {
        let found = memchr::memchr2(b'"', b'\\', json.get(offset..)?)?;
        offset += found;
        if json[offset] == b'"' {
            return Some(offset + 1);
        }
        offset += 2;
    }
}

/// The offset after the value that starts at `at`, or `None` when it is cut off.
fn value_end(json: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut offset = at;
    loop {
        match *json.get(offset)? {
            b'"' => {
                offset = string_end(json, offset)?;
                if depth == 0 {
                    return Some(offset);
                }
                continue;
            }
            b'[' | b'{' => depth += 1,
            b']' | b'}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    return Some(offset + 1);
                }
            }
            b',' | b'}' | b']' if depth == 0 => return Some(trim_end(json, at, offset)),
            byte if depth == 0 && byte.is_ascii_whitespace() => return Some(offset),
            _ => {}
        }
        offset += 1;
    }
}

/// `end` moved back over whitespace, not before `start`.
fn trim_end(json: &[u8], start: usize, mut end: usize) -> usize {
    while end > start && json[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    end
}

fn skip_space(json: &[u8], mut at: usize) -> usize {
    while json.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn names_and_values(json: &[u8]) -> Option<Vec<(String, String)>> {
        Some(
            members(json)?
                .into_iter()
                .map(|member| {
                    let text = String::from_utf8_lossy(&json[member.value]).into_owned();
                    (member.name, text)
                })
                .collect(),
        )
    }

    #[test]
    fn top_level_members_are_read_without_their_values() {
        let json = br#" { "jsonrpc" : "2.0", "id":7 ,"params":{"a":[1,{"b":"}\"]"}]},"method":"tools/call" } "#;
        assert_eq!(
            names_and_values(json).expect("object"),
            [
                ("jsonrpc".to_owned(), r#""2.0""#.to_owned()),
                ("id".to_owned(), "7".to_owned()),
                ("params".to_owned(), r#"{"a":[1,{"b":"}\"]"}]}"#.to_owned()),
                ("method".to_owned(), r#""tools/call""#.to_owned()),
            ]
        );
        let read = members(json).expect("object");
        assert_eq!(scalar(json, &read, "id"), Some(json!(7)));
        assert_eq!(scalar(json, &read, "method"), Some(json!("tools/call")));
        assert_eq!(scalar(json, &read, "result"), None);
    }

    #[test]
    fn a_value_cut_off_ends_the_scan_with_the_members_before_it() {
        let json =
            br#"{"jsonrpc":"2.0","id":"a\"b","result":{"content":[{"type":"text","text":"abc"#;
        let read = members(json).expect("object");
        assert_eq!(
            read.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(),
            ["jsonrpc", "id"]
        );
        assert_eq!(scalar(json, &read, "id"), Some(json!("a\"b")));
        // Cut inside a number at the end: not a whole value.
        let cut = br#"{"id":12"#;
        assert_eq!(names_and_values(cut), Some(vec![]));
        // Cut inside a name.
        assert_eq!(members(br#"{"id":1,"met"#).map(|m| m.len()), Some(1));
    }

    #[test]
    fn what_is_not_an_object_has_no_members() {
        assert_eq!(members(b"[1,2]"), None);
        assert_eq!(members(b"not json"), None);
        assert_eq!(members(b"{1:2}"), None);
        assert_eq!(members(b"{}"), Some(vec![]));
    }
}
