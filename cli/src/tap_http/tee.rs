//! [`Tee`]: a body relayed frame by frame, unchanged, with a copy of each data frame queued for
//! the checking thread (never waiting for it), and its end (complete, failed, or abandoned by
//! the side reading it) reported.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::body::{Body, Frame, Incoming, SizeHint};
use toolcall_traffic::tap::{Backlog, Side};

use super::check::{BodyEnd, Traffic};

/// A body relayed from `side` in exchange `exchange`, copied to the checking thread.
pub(super) struct Tee {
    inner: Incoming,
    exchange: u64,
    side: Side,
    queue: Arc<Backlog<Traffic>>,
    /// Bytes relayed but not queued since the last chunk queued (checking fell behind).
    skipped: usize,
    ended: bool,
}

impl Tee {
    pub(super) fn new(
        inner: Incoming,
        exchange: u64,
        side: Side,
        queue: Arc<Backlog<Traffic>>,
    ) -> Self {
        Self {
            inner,
            exchange,
            side,
            queue,
            skipped: 0,
            ended: false,
        }
    }

    fn end(&mut self, how: BodyEnd) {
        if self.ended {
            return;
        }
        self.ended = true;
        let _ = self.queue.offer(
            Traffic::End {
                exchange: self.exchange,
                side: self.side,
                skipped: self.skipped,
                how,
            },
            0,
        );
    }
}

impl Body for Tee {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let this = &mut *self;
        match ready!(Pin::new(&mut this.inner).poll_frame(cx)) {
            Some(Ok(frame)) => {
                if let Some(data) = frame.data_ref() {
                    if !data.is_empty() {
                        let chunk = Traffic::Chunk {
                            exchange: this.exchange,
                            side: this.side,
                            bytes: data.clone(),
                            skipped: this.skipped,
                        };
                        this.skipped = match this.queue.offer(chunk, data.len()) {
                            Ok(()) => 0,
                            Err(_) => this.skipped + data.len(),
                        };
                    }
                }
                if this.inner.is_end_stream() {
                    this.end(BodyEnd::Complete);
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Some(Err(error)) => {
                this.end(BodyEnd::Broken(error.to_string()));
                Poll::Ready(Some(Err(error)))
            }
            None => {
                this.end(BodyEnd::Complete);
                Poll::Ready(None)
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for Tee {
    fn drop(&mut self) {
        if self.inner.is_end_stream() {
            self.end(BodyEnd::Complete);
        } else {
            self.end(BodyEnd::Abandoned);
        }
    }
}

/// The body of a response the tap writes itself (a refusal, an upstream error) or relays.
pub(super) type ProxyBody = http_body_util::combinators::UnsyncBoxBody<Bytes, hyper::Error>;

/// A body of `text` the tap writes itself.
pub(super) fn full(text: impl Into<Bytes>) -> ProxyBody {
    http_body_util::Full::new(text.into())
        .map_err(|never| match never {})
        .boxed_unsync()
}

/// A relayed body.
pub(super) fn relayed(tee: Tee) -> ProxyBody {
    tee.boxed_unsync()
}
