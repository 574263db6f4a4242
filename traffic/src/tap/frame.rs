//! [`LineFramer`]: cuts one direction's byte stream into lines, holding at most one line of up
//! to the limit in memory.

use super::gap::Gap;

/// What [`LineFramer::push`] and [`LineFramer::finish`] hand out: one line, or the report of a
/// line too large to hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frame<'a> {
    /// A complete line, without its `\n` (nor a `\r` before it) and without surrounding
    /// whitespace; never empty.
    Line(&'a [u8]),
    /// A line over the limit: its length in bytes (without the `\n`, nor a `\r` before it) and
    /// its first bytes (at most [`LineFramer::PREFIX`]), so that a transcript can show what it
    /// was.
    TooLarge {
        /// The line's length in bytes.
        bytes: usize,
        /// Its first bytes.
        prefix: &'a [u8],
    },
}

/// Splits a byte stream into newline-terminated lines (NDJSON framing, as ACP and MCP use over
/// stdio), chunk by chunk, whatever the chunk boundaries.
///
/// Memory stays bounded: a line is held until its `\n` only while it is at most `max_bytes`
/// long; past that only its length and first [`LineFramer::PREFIX`] bytes are kept, and it is
/// handed out as [`Frame::TooLarge`]. Blank lines are skipped.
///
/// ```
/// use toolcall_traffic::tap::{Frame, LineFramer};
///
/// let mut framer = LineFramer::new(8);
/// let mut lines = Vec::new();
/// let mut collect = |frame: Frame<'_>| lines.push(format!("{frame:?}"));
/// framer.push(b"{\"a\":1}\n{\"b\"", &mut collect);
/// framer.push(b":2}\r\n\n0123456789\n", &mut collect);
/// assert_eq!(lines, [
///     r#"Line([123, 34, 97, 34, 58, 49, 125])"#,
///     r#"Line([123, 34, 98, 34, 58, 50, 125])"#,
///     r#"TooLarge { bytes: 10, prefix: [48, 49, 50, 51, 52, 53, 54, 55, 56, 57] }"#,
/// ]);
/// ```
#[derive(Debug)]
pub struct LineFramer {
    /// The line so far (at most `max_bytes`; after that, its first `PREFIX` bytes).
    pending: Vec<u8>,
    max_bytes: usize,
    /// `Some(length so far)` once the current line went over `max_bytes`.
    oversize: Option<usize>,
    /// Bytes of the current line were lost (see [`LineFramer::gap`]): drop it at its `\n`.
    broken: bool,
    /// `Some(length so far)` when bytes of the current line were lost but its length is known
    /// (see [`LineFramer::skip`]): `pending` holds its first bytes seen, if any.
    lost: Option<usize>,
    /// The last byte of the current line (a too-large line's length leaves out a final `\r`).
    last: Option<u8>,
}

impl LineFramer {
    /// How many leading bytes of a too-large line are kept.
    pub const PREFIX: usize = 1024;

    /// A framer holding lines of at most `max_bytes` bytes.
    #[must_use]
    pub fn new(max_bytes: usize) -> Self {
        Self {
            pending: Vec::new(),
            max_bytes,
            oversize: None,
            broken: false,
            lost: None,
            last: None,
        }
    }

    /// Feeds the next chunk; calls `emit` for each line it completes, in order.
    pub fn push(&mut self, mut chunk: &[u8], emit: &mut impl FnMut(Frame<'_>)) {
        while let Some(newline) = memchr::memchr(b'\n', chunk) {
            let (head, rest) = (&chunk[..newline], &chunk[newline + 1..]);
            if self.pending.is_empty()
                && self.oversize.is_none()
                && !self.broken
                && self.lost.is_none()
            {
                // The whole line is in this chunk: no copy.
                emit_line(head, self.max_bytes, emit);
            } else {
                self.extend(head);
                self.end_line(emit);
            }
            chunk = rest;
        }
        self.extend(chunk);
    }

    /// Bytes of this direction were relayed but not seen here: the line in progress is
    /// incomplete, so it is dropped at its end rather than handed out.
    pub fn gap(&mut self) {
        self.pending.clear();
        self.oversize = None;
        self.lost = None;
        self.broken = true;
    }

    /// Bytes of this direction were relayed but not seen here, laid out as `gap` says. A line
    /// whose known length is over the limit is still handed out as [`Frame::TooLarge`], with
    /// the first bytes seen of it (none when its start was in the gap); any other line the gap
    /// broke is dropped at its end, and lines wholly inside the gap are lost. A gap whose
    /// layout is unknown is [`LineFramer::gap`].
    ///
    /// Returns whether the gap lay wholly inside a line it leaves over the limit: that line is
    /// handed out as too large at its end, with its whole length, as it would have been had the
    /// gap been seen, and no other line was lost.
    pub fn skip(&mut self, gap: &Gap, emit: &mut impl FnMut(Frame<'_>)) -> bool {
        if self.broken {
            return false;
        }
        let so_far = self
            .lost
            .take()
            .or_else(|| self.oversize.take())
            .unwrap_or(self.pending.len());
        self.pending.truncate(Self::PREFIX);
        if gap.is_within_a_line() {
            let length = so_far + gap.bytes();
            self.lost = Some(length);
            // Over by more than a `\r` the line's end may take off.
            return length > self.max_bytes.saturating_add(1);
        }
        let Some((head, tail)) = gap.across() else {
            self.gap();
            return false;
        };
        if so_far + head > self.max_bytes {
            emit(Frame::TooLarge {
                bytes: so_far + head,
                prefix: &self.pending,
            });
        }
        self.pending.clear();
        self.last = None;
        self.lost = (tail > 0).then_some(tail);
        false
    }

    /// The stream ended: hands out a last line that had no `\n`.
    pub fn finish(&mut self, emit: &mut impl FnMut(Frame<'_>)) {
        self.end_line(emit);
        self.broken = false;
    }

    fn extend(&mut self, bytes: &[u8]) {
        if self.broken || bytes.is_empty() {
            return;
        }
        self.last = bytes.last().copied();
        if let Some(length) = &mut self.lost {
            *length += bytes.len();
            return;
        }
        if let Some(length) = &mut self.oversize {
            *length += bytes.len();
            let room = Self::PREFIX.saturating_sub(self.pending.len());
            self.pending
                .extend_from_slice(&bytes[..room.min(bytes.len())]);
            return;
        }
        if self.pending.len() + bytes.len() > self.max_bytes {
            self.oversize = Some(self.pending.len() + bytes.len());
            let room = Self::PREFIX.saturating_sub(self.pending.len());
            self.pending
                .extend_from_slice(&bytes[..room.min(bytes.len())]);
            self.pending.truncate(Self::PREFIX);
            self.pending.shrink_to(Self::PREFIX);
            return;
        }
        self.pending.extend_from_slice(bytes);
    }

    fn end_line(&mut self, emit: &mut impl FnMut(Frame<'_>)) {
        if self.broken {
            self.broken = false;
        } else if let Some(bytes) = self.lost.take() {
            let bytes = bytes - usize::from(self.last == Some(b'\r'));
            if bytes > self.max_bytes {
                emit(Frame::TooLarge {
                    bytes,
                    prefix: &self.pending,
                });
            }
        } else if let Some(bytes) = self.oversize.take() {
            let bytes = bytes - usize::from(self.last == Some(b'\r'));
            self.pending.truncate(bytes);
            emit(Frame::TooLarge {
                bytes,
                prefix: &self.pending,
            });
        } else {
            emit_line(&self.pending, self.max_bytes, emit);
        }
        self.pending.clear();
        self.last = None;
    }
}

/// Hands out `line` without its `\r` and surrounding whitespace, unless blank.
fn emit_line(line: &[u8], max_bytes: usize, emit: &mut impl FnMut(Frame<'_>)) {
    let line = line.trim_ascii();
    if line.is_empty() {
        return;
    }
    if line.len() > max_bytes {
        emit(Frame::TooLarge {
            bytes: line.len(),
            prefix: &line[..LineFramer::PREFIX.min(line.len())],
        });
    } else {
        emit(Frame::Line(line));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame as the tests compare it: the line, or `too large N: prefix`.
    fn describe(frame: &Frame<'_>) -> String {
        match frame {
            Frame::Line(line) => String::from_utf8_lossy(line).into_owned(),
            Frame::TooLarge { bytes, prefix } => {
                format!("too large {bytes}: {}", String::from_utf8_lossy(prefix))
            }
        }
    }

    fn frames(framer: &mut LineFramer, chunks: &[&[u8]], finish: bool) -> Vec<String> {
        let mut out = Vec::new();
        let mut emit = |frame: Frame<'_>| {
            out.push(describe(&frame));
        };
        for chunk in chunks {
            framer.push(chunk, &mut emit);
        }
        if finish {
            framer.finish(&mut emit);
        }
        out
    }

    #[test]
    fn lines_cross_chunks_and_blank_lines_are_skipped() {
        let mut framer = LineFramer::new(64);
        assert_eq!(
            frames(
                &mut framer,
                &[b"ab", b"c\n\n  \r\nde", b"f\r", b"\nlast"],
                true
            ),
            ["abc", "def", "last"]
        );
    }

    #[test]
    fn a_line_over_the_limit_is_reported_with_its_length_and_the_next_line_is_intact() {
        let mut framer = LineFramer::new(4);
        assert_eq!(
            frames(&mut framer, &[b"012", b"345", b"67\nok\n"], false),
            ["too large 8: 01234567", "ok"]
        );
        // In one chunk, and exactly at the limit.
        assert_eq!(
            frames(&mut framer, &[b"0123456789\n0123\n"], false),
            ["too large 10: 0123456789", "0123"]
        );
    }

    #[test]
    fn memory_stays_bounded_on_a_huge_line() {
        let mut framer = LineFramer::new(16);
        let chunk = vec![b'x'; 64 * 1024];
        let mut seen = Vec::new();
        for _ in 0..64 {
            framer.push(&chunk, &mut |_| unreachable!("no newline yet"));
            assert!(framer.pending.capacity() <= 64 * 1024 + LineFramer::PREFIX);
            assert!(framer.pending.len() <= LineFramer::PREFIX);
        }
        framer.push(b"\n", &mut |frame| {
            if let Frame::TooLarge { bytes, prefix } = frame {
                seen.push((bytes, prefix.len()));
            }
        });
        assert_eq!(seen, [(64 * 64 * 1024, LineFramer::PREFIX)]);
    }

    #[test]
    fn a_line_over_the_limit_is_still_too_large_when_part_of_it_was_skipped() {
        let mut framer = LineFramer::new(8);
        let mut out = Vec::new();
        let mut emit = |frame: Frame<'_>| {
            out.push(describe(&frame));
        };
        // Its middle skipped: the line goes on, over the limit with what the gap held.
        framer.push(b"ok\n{\"a\":", &mut emit);
        assert!(framer.skip(&Gap::default().then(b"xxxxxxxxxx"), &mut emit));
        framer.push(b"1}\n", &mut emit);
        // Its end skipped, and the start of the next line: reported at the gap; the next
        // line, short, is dropped; a long one is too large with no prefix.
        framer.push(b"{\"b\":", &mut emit);
        assert!(!framer.skip(&Gap::default().then(b"yyyyyy\n{}\nzz"), &mut emit));
        framer.push(b"}\n{\"c\":", &mut emit);
        framer.skip(&Gap::default().then(b"\nwwwwwwwww"), &mut emit);
        framer.push(b"w\r\nlast\n", &mut emit);
        // A gap inside a short line drops it, as before.
        framer.push(b"{", &mut emit);
        assert!(!framer.skip(&Gap::default().then(b"1"), &mut emit));
        framer.push(b"}\nend\n", &mut emit);
        assert_eq!(
            out,
            [
                "ok",
                "too large 17: {\"a\":",
                "too large 11: {\"b\":",
                "too large 10: ",
                "last",
                "end"
            ]
        );
    }

    #[test]
    fn a_gap_drops_the_line_it_broke() {
        let mut framer = LineFramer::new(64);
        let mut out = frames(&mut framer, &[b"whole\nbrok"], false);
        framer.gap();
        out.extend(frames(&mut framer, &[b"en tail\nnext\n"], false));
        assert_eq!(out, ["whole", "next"]);
    }
}
