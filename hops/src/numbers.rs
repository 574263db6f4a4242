//! The numbers of a JSON text as written, where serde_json would write them otherwise.
//!
//! Without serde_json's `arbitrary_precision` (which this crate does not turn on: it would
//! change every user's `serde_json::Value`), a number is an `i64`, a `u64` or an `f64`, and is
//! written back from that: `1e2` as `100.0`, `-0` as `-0.0`, `12345678901234567890123` as
//! `1.2345678901234568e+22`, `0.1000000000000000055511151231257827` as `0.1`. [`changed`] finds
//! each such number with its JSON pointer and its text, so that a conversion writing JSON can
//! report the change, and so that an integer id is keyed by its exact digits.

use toolcall_contracts::pointer;

/// A number of the input whose text serde_json writes otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ChangedNumber {
    /// RFC 6901 pointer into the text's value.
    pub(crate) pointer: String,
    /// The number as written in the input.
    pub(crate) text: String,
    /// The number as serde_json writes it.
    pub(crate) written: String,
}

/// Every number of `json` (a JSON text serde_json parsed) whose text serde_json writes
/// otherwise, in document order. A text that is not JSON gives what was found before the
/// error.
pub(crate) fn changed(json: &[u8]) -> Vec<ChangedNumber> {
    let mut scanner = Scanner {
        json,
        offset: 0,
        found: Vec::new(),
    };
    let mut pointer = String::new();
    // A malformed text ends the scan early; the caller parsed it already.
    let _complete = scanner.value(&mut pointer, 0);
    scanner.found
}

/// Deepest nesting scanned (serde_json refuses a 128th level).
const MAX_DEPTH: usize = 256;

struct Scanner<'a> {
    json: &'a [u8],
    offset: usize,
    found: Vec<ChangedNumber>,
}

impl Scanner<'_> {
    fn peek(&mut self) -> Option<u8> {
        while let Some(&byte) = self.json.get(self.offset) {
            if matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
                self.offset += 1;
            } else {
                return Some(byte);
            }
        }
        None
    }

    fn value(&mut self, pointer: &mut String, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'{' => {
                self.offset += 1;
                if self.peek()? == b'}' {
                    self.offset += 1;
                    return Some(());
                }
                loop {
                    let name = self.string()?;
                    if self.peek()? != b':' {
                        return None;
                    }
                    self.offset += 1;
                    let length = pointer.len();
                    pointer::push(pointer, &name);
                    self.value(pointer, depth + 1)?;
                    pointer.truncate(length);
                    match self.peek()? {
                        b',' => {
                            self.offset += 1;
                            self.peek()?;
                        }
                        b'}' => {
                            self.offset += 1;
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                self.offset += 1;
                if self.peek()? == b']' {
                    self.offset += 1;
                    return Some(());
                }
                let mut index = 0usize;
                loop {
                    let length = pointer.len();
                    pointer::push(pointer, &index.to_string());
                    self.value(pointer, depth + 1)?;
                    pointer.truncate(length);
                    index += 1;
                    match self.peek()? {
                        b',' => self.offset += 1,
                        b']' => {
                            self.offset += 1;
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            b'"' => self.string().map(drop),
            b'-' | b'0'..=b'9' => {
                let start = self.offset;
                while self
                    .json
                    .get(self.offset)
                    .is_some_and(|b| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                {
                    self.offset += 1;
                }
                let text = std::str::from_utf8(&self.json[start..self.offset]).ok()?;
                let written = serde_json::from_str::<serde_json::Number>(text).ok()?;
                let written = written.to_string();
                if written != text {
                    self.found.push(ChangedNumber {
                        pointer: pointer.clone(),
                        text: text.to_owned(),
                        written,
                    });
                }
                Some(())
            }
            _ => {
                // `true`, `false`, `null`.
                while self
                    .json
                    .get(self.offset)
                    .is_some_and(u8::is_ascii_alphabetic)
                {
                    self.offset += 1;
                }
                Some(())
            }
        }
    }

    /// The string at the offset, unescaped.
    fn string(&mut self) -> Option<String> {
        if self.peek()? != b'"' {
            return None;
        }
        let start = self.offset;
        self.offset += 1;
        loop {
            match *self.json.get(self.offset)? {
                b'\\' => self.offset += 2,
                b'"' => {
                    self.offset += 1;
                    break;
                }
                _ => self.offset += 1,
            }
        }
        serde_json::from_slice(&self.json[start..self.offset]).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(json: &str) -> Vec<(String, String, String)> {
        changed(json.as_bytes())
            .into_iter()
            .map(|n| (n.pointer, n.text, n.written))
            .collect()
    }

    #[test]
    fn finds_each_number_serde_json_writes_otherwise_with_its_pointer() {
        let json = r#"{"a": 1.0, "b": 1e2, "c": [12345678901234567890123, 5, -0],
            "d~/e": {"f": 0.1000000000000000055511151231257827, "g": "1e2", "h": 1E-7},
            "i": 18446744073709551615, "j": -9223372036854775808, "k": 2.5, "l": true}"#;
        let triple = |p: &str, t: &str, w: &str| (p.to_owned(), t.to_owned(), w.to_owned());
        assert_eq!(
            found(json),
            [
                triple("/b", "1e2", "100.0"),
                triple("/c/0", "12345678901234567890123", "1.2345678901234568e+22"),
                triple("/c/2", "-0", "-0.0"),
                triple("/d~0~1e/f", "0.1000000000000000055511151231257827", "0.1"),
                triple("/d~0~1e/h", "1E-7", "1e-7"),
            ]
        );
        assert_eq!(found(r#"{"id": 18446744073709551616}"#)[0].0, "/id");
        assert!(found("[1, 2.5, \"x\\\"1e2\", null, false]").is_empty());
        // Not JSON: what was found before the error.
        assert_eq!(found("[1e2, ").len(), 1);
        assert!(found("").is_empty());
    }
}
