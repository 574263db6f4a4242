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

/// Splits `content` into messages. A leading UTF-8 byte-order mark is skipped. Then:
/// - one JSON document (possibly pretty-printed over several lines): one message;
/// - a stream of JSON documents (NDJSON, or several pretty-printed documents, or two on one
///   line): one message per document;
/// - otherwise, when the first non-blank line is a lone `{` or `[` (the opening of a
///   pretty-printed document): the whole content as one message, so that its parse error points
///   into the document;
/// - otherwise: one message per non-blank line, JSON or not (NDJSON with broken lines, or a
///   server's log lines between its messages): each line not JSON is reported on its own.
///
/// A pretty-printed document after lines that are not JSON is therefore split into its lines
/// (each reported not JSON): mix log lines with NDJSON only.
///
/// ```
/// use toolcall_traffic::split_messages;
///
/// let ndjson = b"{\"a\":1}\n\n{\"b\":2}\r\n";
/// let lines: Vec<_> = split_messages(ndjson).iter().map(|m| (m.line, m.text)).collect();
/// assert_eq!(lines, [(1, &b"{\"a\":1}"[..]), (3, &b"{\"b\":2}"[..])]);
///
/// let pretty = b"\n{\n  \"a\": 1\n}\n";
/// let whole = split_messages(pretty);
/// assert_eq!((whole.len(), whole[0].line), (1, 2));
///
/// let two_pretty = b"{\n \"a\": 1\n}\n{\n \"b\": 2\n}\n";
/// let docs: Vec<_> = split_messages(two_pretty).iter().map(|m| m.line).collect();
/// assert_eq!(docs, [1, 4]);
///
/// let logged = b"Starting server...\nDEBUG: 3 tools\n{\"a\":1}\n";
/// let lines: Vec<_> = split_messages(logged).iter().map(|m| m.line).collect();
/// assert_eq!(lines, [1, 2, 3]);
/// ```
#[must_use]
pub fn split_messages(content: &[u8]) -> Vec<Message<'_>> {
    let bom = if content.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let body = &content[bom..];
    let trimmed = body.trim_ascii();
    if trimmed.is_empty() {
        return Vec::new();
    }
    let start_of = |text: &[u8]| bom + (text.as_ptr() as usize - body.as_ptr() as usize);
    if serde_json::from_slice::<serde::de::IgnoredAny>(trimmed).is_ok() {
        return vec![Message {
            line: line_of(content, start_of(trimmed)),
            text: trimmed,
        }];
    }
    if let Some(documents) = documents(body) {
        // Lines are counted from the previous document on (the ranges are in order), so the
        // whole input is scanned once, not once per document.
        let mut lines = LineCounter::default();
        return documents
            .into_iter()
            .map(|(from, to)| Message {
                line: lines.line_of(content, bom + from),
                text: &body[from..to],
            })
            .collect();
    }
    // Not a stream of documents: one broken pretty-printed document, or lines (NDJSON with
    // broken lines, log lines between messages).
    let first_line = trimmed
        .split(|&byte| byte == b'\n')
        .next()
        .map_or(&b""[..], <[u8]>::trim_ascii);
    if first_line == b"{" || first_line == b"[" {
        return vec![Message {
            line: line_of(content, start_of(trimmed)),
            text: trimmed,
        }];
    }
    body.split(|&byte| byte == b'\n')
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

/// The byte ranges of the JSON documents of `body`, when all of it is a stream of documents.
fn documents(body: &[u8]) -> Option<Vec<(usize, usize)>> {
    let mut stream =
        serde_json::Deserializer::from_slice(body).into_iter::<serde::de::IgnoredAny>();
    let mut ranges = Vec::new();
    loop {
        let from = stream.byte_offset();
        match stream.next() {
            None => return Some(ranges),
            Some(Err(_)) => return None,
            Some(Ok(_)) => {
                let to = stream.byte_offset();
                let skipped = body[from..to].len() - body[from..to].trim_ascii_start().len();
                ranges.push((from + skipped, to));
            }
        }
    }
}

/// Line numbers of increasing offsets, each counted from the previous one.
#[derive(Default)]
struct LineCounter {
    /// The offset counted up to.
    offset: usize,
    /// Newlines before `offset`.
    newlines: usize,
}

impl LineCounter {
    /// The 1-based line of the byte at `offset` (at or after the previous offset asked).
    fn line_of(&mut self, content: &[u8], offset: usize) -> usize {
        self.newlines += memchr::memchr_iter(b'\n', &content[self.offset..offset]).count();
        self.offset = offset;
        self.newlines + 1
    }
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
    fn lines_of_a_long_document_stream_match_a_count_from_the_start() {
        // Compact and pretty documents, blank lines between some: the incremental count must
        // give each document the line a count from the start of the input gives.
        let mut content = b"\xEF\xBB\xBF".to_vec();
        for i in 0..200 {
            match i % 3 {
                0 => content.extend_from_slice(format!("{{\"id\":{i}}}\n").as_bytes()),
                1 => content.extend_from_slice(format!("{{\n  \"id\": {i}\n}}\n\n").as_bytes()),
                _ => content.extend_from_slice(format!("  [{i},\n{i}]  \n").as_bytes()),
            }
        }
        let messages = split_messages(&content);
        assert_eq!(messages.len(), 200);
        for message in &messages {
            let offset = message.text.as_ptr() as usize - content.as_ptr() as usize;
            assert_eq!(message.line, line_of(&content, offset));
        }
        let first_three: Vec<_> = messages[..3].iter().map(|m| m.line).collect();
        assert_eq!(first_three, [1, 2, 6]);
    }

    #[test]
    fn ndjson_with_a_broken_first_line_is_still_lines() {
        let content = b"# a comment header\n{\"a\":1}\n{\"b\":\n{\"c\":3}\n";
        let lines: Vec<_> = split_messages(content).iter().map(|m| m.line).collect();
        assert_eq!(lines, [1, 2, 3, 4]);
        // A broken pretty-printed document stays one message.
        let pretty = b"{\n  \"a\": [\n    1,\n    {\"b\": 2}\n  ],\n  \"c\": \n}\n";
        assert_eq!(split_messages(pretty).len(), 1);
    }

    #[test]
    fn log_lines_between_messages_are_each_a_message() {
        // Mostly not JSON (a server logging to stdout): still one message per line.
        let content = b"Starting server...\nListening on stdio\nDEBUG: loaded 3 tools\n\
                        {\"id\":1}\n{\"id\":2}\n";
        let lines: Vec<_> = split_messages(content).iter().map(|m| m.line).collect();
        assert_eq!(lines, [1, 2, 3, 4, 5]);
        // A broken pretty-printed document after a blank line stays one message.
        let pretty = b"\n[\n  1,\n  \"b\": 2\n]\n";
        assert_eq!(
            split_messages(pretty)
                .iter()
                .map(|m| m.line)
                .collect::<Vec<_>>(),
            [2]
        );
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
