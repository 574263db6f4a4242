//! Server-sent events as the checking side reads them (the WHATWG `text/event-stream` format):
//! lines ending in CRLF, LF or CR; `event`, `data` (joined with `\n`) and `id` fields; comments
//! (`:`) ignored; an event dispatched at a blank line. Memory stays bounded: an event's data past
//! the byte limit is counted, and only its first bytes are kept.

/// One event's data: whole, or only its length and first bytes when over the limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Data {
    /// The data.
    Whole(Vec<u8>),
    /// Data of `bytes` bytes, over the limit; `prefix` its first bytes.
    TooLarge { bytes: usize, prefix: Vec<u8> },
}

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Event {
    /// Its `event` field (`None` for the default, `message`).
    pub(super) name: Option<String>,
    /// Its `id` field.
    pub(super) id: Option<String>,
    pub(super) data: Data,
}

/// How many bytes of an oversized value are kept.
const PREFIX: usize = 1024;

/// An incremental parser.
#[derive(Debug)]
pub(super) struct Parser {
    max_bytes: usize,
    /// The line so far (at most `max_bytes` + a field name; after that, its first bytes).
    line: Vec<u8>,
    /// The line's length when it went over.
    line_over: Option<usize>,
    /// The last byte seen was a CR (a following LF belongs to the same line end).
    after_cr: bool,
    name: Option<String>,
    id: Option<String>,
    data: Vec<u8>,
    /// The data's length, once over the limit.
    data_over: Option<usize>,
    has_data: bool,
    /// No byte seen yet (a UTF-8 byte order mark may open the stream).
    start: bool,
}

impl Parser {
    pub(super) fn new(max_bytes: usize) -> Self {
        Self {
            max_bytes,
            line: Vec::new(),
            line_over: None,
            after_cr: false,
            name: None,
            id: None,
            data: Vec::new(),
            data_over: None,
            has_data: false,
            start: true,
        }
    }

    /// Takes the next bytes; hands out the events they complete.
    pub(super) fn push(&mut self, mut bytes: &[u8], emit: &mut impl FnMut(Event)) {
        if self.start && !bytes.is_empty() {
            self.start = false;
            bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        }
        while !bytes.is_empty() {
            if self.after_cr {
                self.after_cr = false;
                if bytes[0] == b'\n' {
                    bytes = &bytes[1..];
                    continue;
                }
            }
            match memchr::memchr2(b'\n', b'\r', bytes) {
                Some(end) => {
                    self.extend_line(&bytes[..end]);
                    self.after_cr = bytes[end] == b'\r';
                    bytes = &bytes[end + 1..];
                    self.end_line(emit);
                }
                None => {
                    self.extend_line(bytes);
                    bytes = &[];
                }
            }
        }
    }

    fn extend_line(&mut self, bytes: &[u8]) {
        let limit = self.max_bytes + 16;
        if let Some(length) = &mut self.line_over {
            *length += bytes.len();
            return;
        }
        if self.line.len() + bytes.len() > limit {
            self.line_over = Some(self.line.len() + bytes.len());
            // The field name and the first bytes of its value.
            let room = (PREFIX + 16).saturating_sub(self.line.len());
            self.line.extend_from_slice(&bytes[..room.min(bytes.len())]);
            self.line.truncate(PREFIX + 16);
            self.line.shrink_to(PREFIX + 16);
            return;
        }
        self.line.extend_from_slice(bytes);
    }

    fn end_line(&mut self, emit: &mut impl FnMut(Event)) {
        let line = std::mem::take(&mut self.line);
        let over = self.line_over.take();
        if line.is_empty() && over.is_none() {
            self.dispatch(emit);
            return;
        }
        if line.first() == Some(&b':') {
            return;
        }
        let (field, value) = match memchr::memchr(b':', &line) {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (&line[..], &[][..]),
        };
        // How long the value was, when the line went over the limit.
        let value_bytes = over.map(|length| length - (line.len() - value.len()));
        match field {
            b"data" => self.add_data(value, value_bytes),
            b"event" if value_bytes.is_none() => {
                self.name = Some(String::from_utf8_lossy(value).into_owned());
            }
            b"id" if value_bytes.is_none() && !value.contains(&0) => {
                self.id = Some(String::from_utf8_lossy(value).into_owned());
            }
            _ => {}
        }
    }

    fn add_data(&mut self, value: &[u8], value_bytes: Option<usize>) {
        let separator = usize::from(self.has_data);
        self.has_data = true;
        let bytes = value_bytes.unwrap_or(value.len());
        if let Some(length) = &mut self.data_over {
            *length += separator + bytes;
            return;
        }
        if value_bytes.is_some() || self.data.len() + separator + bytes > self.max_bytes {
            self.data_over = Some(self.data.len() + separator + bytes);
            if separator == 1 {
                self.data.push(b'\n');
            }
            self.data.extend_from_slice(value);
            self.data.truncate(PREFIX);
            self.data.shrink_to(PREFIX);
            return;
        }
        if separator == 1 {
            self.data.push(b'\n');
        }
        self.data.extend_from_slice(value);
    }

    fn dispatch(&mut self, emit: &mut impl FnMut(Event)) {
        let name = self.name.take();
        let data = std::mem::take(&mut self.data);
        let over = self.data_over.take();
        let has_data = std::mem::replace(&mut self.has_data, false);
        // The last event id persists across events (WHATWG); an event without one has none here.
        let id = self.id.take();
        if !has_data {
            return;
        }
        let data = match over {
            Some(bytes) => Data::TooLarge {
                bytes,
                prefix: data,
            },
            None => Data::Whole(data),
        };
        emit(Event { name, id, data });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(parser: &mut Parser, chunks: &[&[u8]]) -> Vec<Event> {
        let mut out = Vec::new();
        for chunk in chunks {
            parser.push(chunk, &mut |event| out.push(event));
        }
        out
    }

    fn whole(name: Option<&str>, id: Option<&str>, data: &str) -> Event {
        Event {
            name: name.map(str::to_owned),
            id: id.map(str::to_owned),
            data: Data::Whole(data.as_bytes().to_vec()),
        }
    }

    #[test]
    fn events_cross_chunks_with_every_line_ending() {
        let mut parser = Parser::new(1024);
        let out = events(
            &mut parser,
            &[
                b"\xEF\xBB\xBFevent: endpoint\r\ndata: /message?sessionId=1\r",
                b"\n\r\n: a comment\n",
                b"id: 7\ndata: {\"a\":\ndata:1}\n\nid:8\ndata\n\n",
                b"retry: 10\n\nevent: message\rdata: x\r\r",
                b"data: no end",
            ],
        );
        assert_eq!(
            out,
            [
                whole(Some("endpoint"), None, "/message?sessionId=1"),
                whole(None, Some("7"), "{\"a\":\n1}"),
                whole(None, Some("8"), ""),
                whole(Some("message"), None, "x"),
            ]
        );
    }

    #[test]
    fn data_over_the_limit_is_counted_not_held() {
        let mut parser = Parser::new(8);
        let big = vec![b'x'; 64 * 1024];
        let mut out = Vec::new();
        parser.push(b"data: ", &mut |event| out.push(event));
        for _ in 0..16 {
            parser.push(&big, &mut |event| out.push(event));
            assert!(parser.line.capacity() <= 64 * 1024 + 1024 + 16);
        }
        parser.push(b"\ndata: yy\n\ndata: ok\n\n", &mut |event| out.push(event));
        assert_eq!(out.len(), 2);
        match &out[0].data {
            Data::TooLarge { bytes, prefix } => {
                assert_eq!(*bytes, 16 * 64 * 1024 + 3);
                assert_eq!(prefix.len(), PREFIX);
            }
            Data::Whole(_) => panic!("not over"),
        }
        assert_eq!(out[1], whole(None, None, "ok"));
    }
}
