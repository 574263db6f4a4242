//! Reading inputs and splitting them into messages.

use std::io::Read;
use std::path::Path;

use super::TrafficError;

/// One message of an input: its text and the 1-based line it starts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Message<'a> {
    /// 1-based line number of the message's first byte.
    pub line: usize,
    /// The message, without surrounding whitespace (not necessarily valid JSON).
    pub text: &'a [u8],
}

/// Reads the file at `path`, or standard input when `path` is `-`.
///
/// # Errors
/// [`TrafficError::Read`] when the file (or standard input) cannot be read.
pub fn read_input(path: &Path) -> Result<Vec<u8>, TrafficError> {
    let result = if path.as_os_str() == "-" {
        let mut content = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut content)
            .map(|_| content)
    } else {
        std::fs::read(path)
    };
    result.map_err(|source| TrafficError::Read {
        path: path.to_owned(),
        source,
    })
}

/// Splits `content` into messages: the whole content when it is one JSON document (possibly
/// pretty-printed over several lines), else one message per non-blank line (NDJSON).
///
/// ```
/// use toolcall_contracts::traffic::split_messages;
///
/// let ndjson = b"{\"a\":1}\n\n{\"b\":2}\r\n";
/// let lines: Vec<_> = split_messages(ndjson).iter().map(|m| (m.line, m.text)).collect();
/// assert_eq!(lines, [(1, &b"{\"a\":1}"[..]), (3, &b"{\"b\":2}"[..])]);
///
/// let pretty = b"\n{\n  \"a\": 1\n}\n";
/// let whole = split_messages(pretty);
/// assert_eq!((whole.len(), whole[0].line), (1, 2));
/// ```
#[must_use]
pub fn split_messages(content: &[u8]) -> Vec<Message<'_>> {
    let trimmed = content.trim_ascii();
    if trimmed.is_empty() {
        return Vec::new();
    }
    if serde_json::from_slice::<serde::de::IgnoredAny>(trimmed).is_ok() {
        let start = content.len() - content.trim_ascii_start().len();
        return vec![Message {
            line: line_of(content, start),
            text: trimmed,
        }];
    }
    content
        .split(|&byte| byte == b'\n')
        .enumerate()
        .filter_map(|(index, line)| {
            let text = line.trim_ascii();
            (!text.is_empty()).then_some(Message {
                line: index + 1,
                text,
            })
        })
        .collect()
}

/// The 1-based line of the byte at `offset`.
fn line_of(content: &[u8], offset: usize) -> usize {
    content[..offset]
        .iter()
        .filter(|&&byte| byte == b'\n')
        .count()
        + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_json_lines_stay_messages() {
        let messages = split_messages(b"{\"a\":1}\nnot json\n");
        assert_eq!(messages.len(), 2);
        assert_eq!(
            messages[1],
            Message {
                line: 2,
                text: b"not json"
            }
        );
    }

    #[test]
    fn empty_and_blank_inputs_have_no_messages() {
        assert!(split_messages(b"").is_empty());
        assert!(split_messages(b" \n\r\n\t").is_empty());
    }

    #[test]
    fn one_line_document_is_one_message() {
        assert_eq!(
            split_messages(b"{\"a\":1}"),
            [Message {
                line: 1,
                text: b"{\"a\":1}"
            }]
        );
    }
}
