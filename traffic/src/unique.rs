//! The first member name repeated within one object of a message, at any depth, found in one
//! scan of its bytes (the full check's report of a repeat; the one-pass check finds repeats in
//! its own parse).
//!
//! `serde_json::Value` keeps the last of two equal member names without a word, so a message
//! checked as a `Value` would hide a repeat that the typed decoders refuse (`duplicate field`)
//! and that readers resolve differently (first or last wins). [`first_repeated`] reads the bytes
//! of a message that was parsed already (so it is JSON): strings are skipped with `memchr`,
//! brackets followed, and each member name is compared with the names before it in its object,
//! borrowed from the input (a name with an escape is unescaped first). Nothing is allocated per
//! member, and the pointer of a repeat is built only when one is found.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::envelope::string_end;

/// A member name that appears twice in one object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Repeated {
    /// RFC 6901 pointer to the second occurrence.
    pub(crate) pointer: String,
    /// The member name.
    pub(crate) name: String,
}

/// Objects with more members than this are checked with a hash set rather than by scanning the
/// names read so far.
const SCAN_MEMBERS: usize = 24;

/// The member names and open values the scan has room for before its stacks grow.
const NAMES_CAPACITY: usize = 32;
const OPEN_CAPACITY: usize = 8;

/// An object or array the scan is in.
struct Open<'a> {
    object: bool,
    /// Where this object's names start in the scan's list of names.
    start: usize,
    /// The index of the item being read (an array's).
    item: usize,
    /// The names of a large object, once it has more than [`SCAN_MEMBERS`].
    set: Option<HashSet<Cow<'a, [u8]>>>,
}

/// The first repeated member name of `json` (document order), or `None`. What is not JSON ends
/// the scan where it breaks the grammar (a repeat before it is reported; the caller reports the
/// rest).
pub(crate) fn first_repeated(json: &[u8]) -> Option<Repeated> {
    // The names of the open objects, outermost first: each object's current member is the last
    // of its names.
    let mut names: Vec<Cow<'_, [u8]>> = Vec::with_capacity(NAMES_CAPACITY);
    let mut open: Vec<Open<'_>> = Vec::with_capacity(OPEN_CAPACITY);
    // Whether the next string is a member name.
    let mut name_next = false;
    let mut at = 0;
    while let Some(&byte) = json.get(at) {
        match byte {
            b'"' => {
                let Some(end) = string_end(json, at) else {
                    break;
                };
                let quoted = &json[at..end];
                at = end;
                if !name_next {
                    continue;
                }
                name_next = false;
                let name = if quoted.contains(&b'\\') {
                    let Ok(unescaped) = serde_json::from_slice::<String>(quoted) else {
                        break;
                    };
                    Cow::Owned(unescaped.into_bytes())
                } else {
                    Cow::Borrowed(&quoted[1..quoted.len() - 1])
                };
                let Some(object) = open.last_mut() else {
                    break;
                };
                if !object.insert(&mut names, name.clone()) {
                    return Some(Repeated {
                        pointer: pointer(&open, &names, &name),
                        name: String::from_utf8_lossy(&name).into_owned(),
                    });
                }
                continue;
            }
            b'{' | b'[' => {
                open.push(Open {
                    object: byte == b'{',
                    start: names.len(),
                    item: 0,
                    set: None,
                });
                name_next = byte == b'{';
            }
            b'}' | b']' => {
                if let Some(closed) = open.pop() {
                    names.truncate(closed.start);
                }
                name_next = false;
            }
            b',' => {
                if let Some(value) = open.last_mut() {
                    value.item += 1;
                    name_next = value.object;
                }
            }
            _ => {}
        }
        at += 1;
    }
    None
}

impl<'a> Open<'a> {
    /// Records member name `name` of this object (whose names start at `self.start` in
    /// `names`); `false` when it is repeated.
    fn insert(&mut self, names: &mut Vec<Cow<'a, [u8]>>, name: Cow<'a, [u8]>) -> bool {
        let seen = &names[self.start..];
        let repeated = match &mut self.set {
            Some(set) => !set.insert(name.clone()),
            None => {
                let repeated = seen.contains(&name);
                if !repeated && seen.len() >= SCAN_MEMBERS {
                    let mut set: HashSet<Cow<'a, [u8]>> = seen.iter().cloned().collect();
                    set.insert(name.clone());
                    self.set = Some(set);
                }
                repeated
            }
        };
        if !repeated {
            names.push(name);
        }
        !repeated
    }
}

/// The pointer of member `last` of the innermost of `open` (with `names` their names so far).
fn pointer(open: &[Open<'_>], names: &[Cow<'_, [u8]>], last: &[u8]) -> String {
    let mut out = String::new();
    for (value, inner) in open.iter().zip(&open[1..]) {
        if value.object {
            // The current member of an object is its last name before the inner value opened.
            let member = inner.start.checked_sub(1).and_then(|at| names.get(at));
            let member = member.map(|name| String::from_utf8_lossy(name));
            toolcall_contracts::pointer::push(&mut out, member.as_deref().unwrap_or_default());
        } else {
            out.push('/');
            out.push_str(&value.item.to_string());
        }
    }
    toolcall_contracts::pointer::push(&mut out, &String::from_utf8_lossy(last));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_repeat_at_any_depth() {
        assert_eq!(
            first_repeated(br#"{"a":1,"b":[{"c":1}],"d":{"e":2}}"#),
            None
        );
        assert_eq!(
            first_repeated(br#"{"params":{"sessionId":"s","sessionId":"t"}}"#),
            Some(Repeated {
                pointer: "/params/sessionId".into(),
                name: "sessionId".into()
            })
        );
        assert_eq!(
            first_repeated(br#"[0,{"a/b":1,"a/b":2}]"#),
            Some(Repeated {
                pointer: "/1/a~1b".into(),
                name: "a/b".into()
            })
        );
        // Names are compared after unescaping: "\u0061" is "a".
        assert_eq!(
            first_repeated(br#"{"a":1,"\u0061":2}"#).map(|r| r.name),
            Some("a".into())
        );
        assert_eq!(first_repeated(b"not json"), None);
        // The same name in sibling and nested objects is no repeat.
        assert_eq!(
            first_repeated(br#"{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}],"c":{"a":1}}"#),
            None
        );
        // After a nested object, its names are forgotten and the outer ones remembered.
        assert_eq!(
            first_repeated(br#"{"x":{"y":1,"z":2},"y":3,"x":4}"#),
            Some(Repeated {
                pointer: "/x".into(),
                name: "x".into()
            })
        );
        assert_eq!(
            first_repeated(br#"{"a":[[{}],{"b":[1,{"c":{"~":1,"~":2}}]}]}"#).map(|r| r.pointer),
            Some("/a/1/b/1/c/~0".into())
        );
    }

    #[test]
    fn large_objects_are_checked_too() {
        let members = |n: usize| (0..n).map(|i| format!("\"m{i}\":{i}")).collect::<Vec<_>>();
        let mut names = members(100);
        let clean = format!("{{{}}}", names.join(","));
        assert_eq!(first_repeated(clean.as_bytes()), None);
        names.push("\"m7\":0".to_owned());
        names.push("\"m100\":0".to_owned());
        let repeated = format!("{{\"o\":{{{}}}}}", names.join(","));
        assert_eq!(
            first_repeated(repeated.as_bytes()).map(|r| r.pointer),
            Some("/o/m7".into())
        );
    }

    #[test]
    fn strings_are_not_names_and_escaped_names_are_unescaped() {
        // Brackets, commas, quotes and names inside string values are text.
        assert_eq!(
            first_repeated(br#"{"a":"{\"a\":1,\"a\":2}","b":["}",",","\"",{"c":"]"}],"c":"[{"}"#),
            None
        );
        // An escaped name is the same name as its plain spelling, wherever it comes.
        assert_eq!(
            first_repeated(br#"{"\u0061b":1,"ab":2}"#).map(|r| r.pointer),
            Some("/ab".into())
        );
        assert_eq!(
            first_repeated(br#"{"a\"b":1,"a\u0022b":2}"#).map(|r| r.name),
            Some("a\"b".into())
        );
        assert_eq!(first_repeated(br#"{"a\\":1,"a":2,"a\/":3}"#), None);
        // Whitespace anywhere, and names after empty values.
        assert_eq!(
            first_repeated(b" [ { } , [ ] , { \"a\" : { } , \"b\" : [ ] , \"a\" : 1 } ] ")
                .map(|r| r.pointer),
            Some("/2/a".into())
        );
        // The item of an array is counted at its own depth.
        assert_eq!(
            first_repeated(br#"{"x":[[1,2],{"y":[3,4]},{"z":1,"z":2}]}"#).map(|r| r.pointer),
            Some("/x/2/z".into())
        );
    }

    #[test]
    fn what_is_not_json_ends_the_scan_without_a_panic() {
        for json in [
            &b"{\"a\":1,\"a"[..],
            b"}}]]{",
            b"{\"a\\",
            b"{\"\\ud800\":1,\"\\ud800\":2}",
            b"\"",
            b"{\"\xff\":1,\"\xff\":2}",
            b"",
        ] {
            let _ = first_repeated(json);
        }
        assert_eq!(first_repeated(b"{\"a\":1,\"a"), None);
        assert_eq!(
            first_repeated(b"}{\"a\":1,\"a\":1"),
            Some(Repeated {
                pointer: "/a".into(),
                name: "a".into()
            })
        );
    }
}
