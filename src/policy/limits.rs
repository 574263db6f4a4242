//! Byte and nesting limits checked on raw JSON before it is parsed ([`DecodeLimits`]), and the
//! iterative nesting-depth measure shared with schema and instance checks.

#[cfg(feature = "policy")]
use serde_json::Value;

/// Limits on a JSON text, checked in one pass over its bytes before it is parsed.
///
/// The default is [`DecodeLimits::DEFAULT_MAX_BYTES`] (1 MiB) and
/// [`DecodeLimits::DEFAULT_MAX_DEPTH`] (64 nested arrays or objects). Depth counts open
/// containers: a scalar is depth 0, `[]` and `{}` are depth 1, `{"a": [1]}` is depth 2.
///
/// serde_json refuses input nested 128 levels deep on its own
/// ([`DecodeLimits::SERDE_JSON_MAX_DEPTH`]); these limits are lower so that
/// validation (`CompiledSchema::check`, feature `policy`) and any code that recurses over the
/// decoded value stay well inside a 2 MiB thread stack, and so that a large input is refused
/// without allocating a tree for it.
///
/// ```
/// use toolcall_contracts::policy::{DecodeLimits, LimitError};
///
/// let limits = DecodeLimits::default();
/// assert!(limits.check(br#"{"path": "/tmp/a.rs", "line": 3}"#).is_ok());
///
/// let tight = DecodeLimits::default().with_max_depth(2);
/// assert_eq!(
///     tight.check(br#"{"a": [[1]]}"#),
///     Err(LimitError::TooDeep { depth: 3, limit: 2, offset: 7 }),
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecodeLimits {
    /// Most bytes accepted (the length of the input as given, in bytes).
    pub max_bytes: usize,
    /// Deepest nesting of arrays and objects accepted (see the type docs for how it counts).
    pub max_depth: usize,
}

impl DecodeLimits {
    /// Default [`DecodeLimits::max_bytes`]: 1 MiB (1 048 576 bytes).
    pub const DEFAULT_MAX_BYTES: usize = 1024 * 1024;
    /// Default [`DecodeLimits::max_depth`]: 64.
    pub const DEFAULT_MAX_DEPTH: usize = 64;
    /// The deepest nesting serde_json parses on its own, 127: its recursion limit (128) is
    /// reached by the 128th open array or object. A limit at least this deep is enforced by the
    /// parse itself; a `serde_json::Value` holds no deeper value.
    pub const SERDE_JSON_MAX_DEPTH: usize = 127;

    /// Limits of `max_bytes` bytes and `max_depth` levels.
    #[must_use]
    pub const fn new(max_bytes: usize, max_depth: usize) -> Self {
        Self {
            max_bytes,
            max_depth,
        }
    }

    /// Sets [`DecodeLimits::max_bytes`] (bytes).
    #[must_use]
    pub fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// Sets [`DecodeLimits::max_depth`].
    #[must_use]
    pub fn with_max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth;
        self
    }

    /// Checks the length and nesting depth of `json` in one pass over its bytes.
    ///
    /// The input is not parsed and need not be valid JSON or UTF-8: brackets inside strings
    /// (including after escaped quotes, `"\"["`) do not count, and everything else is left to
    /// the decoder. Time is linear in the input length and memory is constant.
    ///
    /// # Errors
    /// - [`LimitError::TooLarge`] when `json` is longer than [`DecodeLimits::max_bytes`] (checked
    ///   first, before any byte is read).
    /// - [`LimitError::TooDeep`] at the first `[` or `{` that opens a container deeper than
    ///   [`DecodeLimits::max_depth`].
    pub fn check(&self, json: &[u8]) -> Result<(), LimitError> {
        if json.len() > self.max_bytes {
            return Err(LimitError::TooLarge {
                bytes: json.len(),
                limit: self.max_bytes,
            });
        }
        let mut depth = 0usize;
        let mut offset = 0usize;
        while offset < json.len() {
            match json[offset] {
                b'"' => {
                    let Some(end) = string_end(json, offset) else {
                        return Ok(());
                    };
                    // At the closing quote (stepped over below).
                    offset = end - 1;
                }
                b'[' | b'{' => {
                    depth += 1;
                    if depth > self.max_depth {
                        return Err(LimitError::TooDeep {
                            depth,
                            limit: self.max_depth,
                            offset,
                        });
                    }
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            offset += 1;
        }
        Ok(())
    }
}

/// The offset just past the JSON string whose opening quote is at `at`, or `None` when the
/// input ends inside it: the next quote or backslash found with `memchr`, an escaped byte
/// stepped over. The string's content is not checked.
pub(crate) fn string_end(json: &[u8], at: usize) -> Option<usize> {
    let mut offset = at + 1;
    loop {
        offset += memchr::memchr2(b'"', b'\\', json.get(offset..)?)?;
        if json[offset] == b'"' {
            return Some(offset + 1);
        }
        offset += 2;
    }
}

impl Default for DecodeLimits {
    /// 1 MiB and 64 levels.
    fn default() -> Self {
        Self {
            max_bytes: Self::DEFAULT_MAX_BYTES,
            max_depth: Self::DEFAULT_MAX_DEPTH,
        }
    }
}

/// Why [`DecodeLimits::check`] refused a JSON text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LimitError {
    /// The input is longer than [`DecodeLimits::max_bytes`].
    #[error("input is `{bytes}` bytes, over `max_bytes` of `{limit}` bytes")]
    TooLarge {
        /// Length of the input, in bytes.
        bytes: usize,
        /// [`DecodeLimits::max_bytes`].
        limit: usize,
    },
    /// The input nests arrays and objects deeper than [`DecodeLimits::max_depth`].
    #[error(
        "input nesting depth reaches `{depth}` at byte `{offset}`, over `max_depth` of `{limit}`"
    )]
    TooDeep {
        /// The depth reached (`limit + 1`: the scan stops there).
        depth: usize,
        /// [`DecodeLimits::max_depth`].
        limit: usize,
        /// Offset of the `[` or `{` that went past the limit, in bytes from the start.
        offset: usize,
    },
}

/// The first depth past `limit` found in `value`, or `None` when `value` nests no deeper than
/// `limit` (counted as in [`DecodeLimits`]). Iterative: safe on values of any depth.
#[cfg(feature = "policy")]
pub(crate) fn depth_past(value: &Value, limit: usize) -> Option<usize> {
    let mut stack: Vec<(&Value, usize)> = vec![(value, 0)];
    while let Some((value, parent)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(members) => Box::new(members.values()),
            _ => continue,
        };
        let depth = parent + 1;
        if depth > limit {
            return Some(depth);
        }
        stack.extend(children.map(|child| (child, depth)));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_counts_containers() {
        let limits = DecodeLimits::default().with_max_depth(1);
        assert_eq!(limits.check(b"3"), Ok(()));
        assert_eq!(limits.check(b"[]"), Ok(()));
        assert_eq!(limits.check(br#"{"a": "[[[{{"}"#), Ok(()));
        assert_eq!(
            limits
                .check(br#"["\"[", "\\", []]"#)
                .unwrap_err()
                .to_string(),
            "input nesting depth reaches `2` at byte `14`, over `max_depth` of `1`"
        );
    }

    #[test]
    fn too_large_message() {
        let limits = DecodeLimits::default().with_max_bytes(2);
        assert_eq!(
            limits.check(b"123").unwrap_err().to_string(),
            "input is `3` bytes, over `max_bytes` of `2` bytes"
        );
    }

    #[test]
    #[cfg(feature = "policy")]
    fn value_depth() {
        use serde_json::json;
        assert_eq!(depth_past(&json!(1), 0), None);
        assert_eq!(depth_past(&json!([]), 0), Some(1));
        assert_eq!(depth_past(&json!({"a": [1]}), 2), None);
        assert_eq!(depth_past(&json!({"a": [1]}), 1), Some(2));
    }
}

#[cfg(test)]
mod scan_tests {
    use super::*;

    #[test]
    fn strings_are_skipped_including_escapes_and_unterminated_ends() {
        let limits = DecodeLimits::default().with_max_depth(1);
        assert!(limits.check(br#"["[[[", "\"[[", "\\"]"#).is_ok());
        for truncated in [&br#"["abc"#[..], br#"["ab\"#, br#"["\"#, br#"""#] {
            assert!(limits.check(truncated).is_ok(), "{truncated:?}");
        }
        assert!(matches!(
            limits.check(br#"["\\", []]"#),
            Err(LimitError::TooDeep { depth: 2, .. })
        ));
    }
}
