//! [`Gap`]: the bytes of one direction that were relayed but not checked, with where their
//! newlines were, so that a message over the byte limit is still reported as one when part of it
//! fell in the gap.

/// Bytes relayed but not checked (checking fell behind), and their layout: the relay looks for
/// the first and the last `\n` of each chunk it could not queue (it has the chunk in hand).
///
/// ```
/// use toolcall_traffic::tap::Gap;
///
/// let gap = Gap::default().then(b"xxxx").then(b"yy\r\n{}\nzz");
/// assert_eq!(gap.bytes(), 13);
/// // The line in progress went on for 6 bytes (the `\r` left out); the next one starts with 2.
/// assert_eq!(gap.across(), Some((6, 2)));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Gap {
    bytes: usize,
    layout: Layout,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Layout {
    /// Where the newlines were is not known.
    #[default]
    Unknown,
    /// No newline: the gap lies inside one line.
    Within,
    /// The line in progress ended `head` bytes into the gap (a `\r` before its `\n` left out);
    /// the gap's last `tail` bytes start the next line.
    Across { head: usize, tail: usize },
}

impl Gap {
    /// `bytes` not checked, their newlines unknown: the line they broke is dropped.
    #[must_use]
    pub const fn unknown(bytes: usize) -> Self {
        Self {
            bytes,
            layout: Layout::Unknown,
        }
    }

    /// The gap followed by `chunk`, also not checked.
    #[must_use]
    pub fn then(self, chunk: &[u8]) -> Self {
        let bytes = self.bytes + chunk.len();
        let layout = match (self.layout, memchr::memchr(b'\n', chunk)) {
            (Layout::Unknown, _) if self.bytes > 0 => Layout::Unknown,
            (Layout::Unknown | Layout::Within, None) => Layout::Within,
            (Layout::Unknown | Layout::Within, Some(first)) => Layout::Across {
                head: self.bytes + first - usize::from(first > 0 && chunk[first - 1] == b'\r'),
                tail: tail(chunk),
            },
            (Layout::Across { head, tail: before }, None) => Layout::Across {
                head,
                tail: before + chunk.len(),
            },
            (Layout::Across { head, .. }, Some(_)) => Layout::Across {
                head,
                tail: tail(chunk),
            },
        };
        Self { bytes, layout }
    }

    /// How many bytes were not checked.
    #[must_use]
    pub const fn bytes(&self) -> usize {
        self.bytes
    }

    /// `Some((head, tail))` when the gap holds a newline: the line in progress went on for `head`
    /// bytes of the gap, and the gap's last `tail` bytes start the next line.
    #[must_use]
    pub const fn across(&self) -> Option<(usize, usize)> {
        match self.layout {
            Layout::Across { head, tail } => Some((head, tail)),
            Layout::Unknown | Layout::Within => None,
        }
    }

    /// Whether the gap holds no newline (its bytes are all in the line in progress).
    #[must_use]
    pub const fn is_within_a_line(&self) -> bool {
        matches!(self.layout, Layout::Within)
    }
}

/// The bytes of `chunk` after its last `\n`.
fn tail(chunk: &[u8]) -> usize {
    memchr::memrchr(b'\n', chunk).map_or(chunk.len(), |last| chunk.len() - last - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_accumulate_over_chunks() {
        let within = Gap::default().then(b"abc").then(b"de");
        assert_eq!((within.bytes(), within.is_within_a_line()), (5, true));
        let across = Gap::default().then(b"ab\n").then(b"cd").then(b"\nef");
        assert_eq!(across.across(), Some((2, 2)));
        assert_eq!(Gap::default().then(b"\n").across(), Some((0, 0)));
        let unknown = Gap::unknown(4).then(b"a\nb");
        assert_eq!((unknown.bytes(), unknown.across()), (7, None));
        assert!(!unknown.is_within_a_line());
    }
}
