//! The proxy itself: each request checked against the [`Guard`], forwarded to the upstream with
//! its body streamed through a [`Tee`], the response streamed back the same way; an upstream
//! that cannot be reached or does not answer in time gets the client a `502 Bad Gateway` or a
//! `504 Gateway Timeout`, and the checking thread hears of everything.

use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::{Request, Response, StatusCode, Uri};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use toolcall_traffic::tap::{Backlog, Side};

use crate::chain;

use super::check::{Failure, Traffic};
use super::headers;
use super::security::Guard;
use super::tee::{full, relayed, ProxyBody, Tee};

/// The server's base URL: `http://host:port` (its path is `/`).
#[derive(Debug, Clone)]
pub(super) struct Upstream {
    /// `http`.
    scheme: hyper::http::uri::Scheme,
    authority: hyper::http::uri::Authority,
    /// The authority as a `Host` value.
    host: HeaderValue,
}

impl Upstream {
    /// Parses `--upstream`: an `http` URL with no path beyond `/`, no query.
    pub(super) fn parse(url: &str) -> Result<Self, String> {
        let uri: Uri = url
            .parse()
            .map_err(|error| format!("--upstream `{url}` is not a URL: {error}"))?;
        let scheme = uri
            .scheme()
            .cloned()
            .ok_or_else(|| format!("--upstream `{url}` has no scheme (`http://host:port`)"))?;
        if scheme != hyper::http::uri::Scheme::HTTP {
            return Err(format!(
                "--upstream `{url}`: only `http` upstreams are relayed (no TLS in this build)"
            ));
        }
        let authority = uri
            .authority()
            .cloned()
            .ok_or_else(|| format!("--upstream `{url}` has no host"))?;
        if authority.as_str().contains('@') {
            return Err(format!(
                "--upstream `{url}`: credentials in the URL are not relayed (send them in a header)"
            ));
        }
        let path = uri.path_and_query().map_or("/", |pq| pq.as_str());
        if path != "/" {
            return Err(format!(
                "--upstream `{url}` has a path: give the server's base URL (`{scheme}://{authority}`), \
                 and the client uses the same paths on --listen (`{path}`)"
            ));
        }
        let host = HeaderValue::from_str(authority.as_str())
            .map_err(|_| format!("--upstream `{url}`: the host is not a header value"))?;
        Ok(Self {
            scheme,
            authority,
            host,
        })
    }

    /// The upstream URI of a request for `uri` on the tap (same path and query).
    fn uri(&self, uri: &Uri) -> Result<Uri, hyper::http::Error> {
        let path = uri.path_and_query().map_or("/", |pq| pq.as_str());
        Uri::builder()
            .scheme(self.scheme.clone())
            .authority(self.authority.clone())
            .path_and_query(path)
            .build()
    }
}

impl std::fmt::Display for Upstream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}://{}", self.scheme, self.authority)
    }
}

/// What every request handler shares.
pub(super) struct Relay {
    pub(super) upstream: Upstream,
    pub(super) client: Client<HttpConnector, Tee>,
    pub(super) guard: Guard,
    pub(super) queue: Arc<Backlog<Traffic>>,
    /// How long the upstream has to start its response.
    pub(super) timeout: Duration,
    exchanges: AtomicU64,
}

impl Relay {
    pub(super) fn new(
        upstream: Upstream,
        guard: Guard,
        queue: Arc<Backlog<Traffic>>,
        timeout: Duration,
        connect_timeout: Duration,
    ) -> Self {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        connector.set_connect_timeout(Some(connect_timeout));
        let client = Client::builder(hyper_util::rt::TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(30))
            .build(connector);
        Self {
            upstream,
            client,
            guard,
            queue,
            timeout,
            exchanges: AtomicU64::new(0),
        }
    }

    /// Relays one request.
    pub(super) async fn handle(
        self: Arc<Self>,
        request: Request<Incoming>,
    ) -> Result<Response<ProxyBody>, Infallible> {
        let exchange = self.exchanges.fetch_add(1, Ordering::Relaxed) + 1;
        let (mut parts, body) = request.into_parts();
        let seen = super::check::RequestSeen::of(exchange, &parts);
        if let Err(refusal) = self.guard.check(&parts.headers) {
            let reason = refusal.to_string();
            let _ = self
                .queue
                .offer(Traffic::Refused(Box::new((seen, reason.clone()))), 0);
            let body = serde_json::json!({
                "jsonrpc": "2.0",
                "error": {"code": -32000, "message": format!("Forbidden: {reason}")}
            });
            return Ok(plain(
                StatusCode::FORBIDDEN,
                "application/json",
                body.to_string(),
            ));
        }
        let _ = self.queue.offer(Traffic::Request(Box::new(seen)), 0);
        // Told to the checking thread if this future is dropped before a response (the client
        // went away while the upstream was still to answer).
        let mut waiting = Waiting {
            queue: &self.queue,
            exchange,
            answered: false,
        };
        parts.uri = match self.upstream.uri(&parts.uri) {
            Ok(uri) => uri,
            Err(error) => return Ok(self.failed(exchange, Failure::Request(error.to_string()))),
        };
        headers::for_upstream(&mut parts.headers, &self.upstream.host);
        let body = Tee::new(body, exchange, Side::Client, Arc::clone(&self.queue));
        let forwarded = self.client.request(Request::from_parts(parts, body));
        let response = tokio::time::timeout(self.timeout, forwarded).await;
        waiting.answered = true;
        let response = match response {
            Ok(Ok(response)) => response,
            Ok(Err(error)) => {
                return Ok(self.failed(exchange, Failure::Unreachable(chain(&error))));
            }
            Err(_) => return Ok(self.failed(exchange, Failure::Timeout(self.timeout))),
        };
        let (mut parts, body) = response.into_parts();
        let _ = self.queue.offer(
            Traffic::Response(Box::new(super::check::ResponseSeen::of(exchange, &parts))),
            0,
        );
        headers::drop_hop_by_hop(&mut parts.headers);
        let body = Tee::new(body, exchange, Side::Child, Arc::clone(&self.queue));
        Ok(Response::from_parts(parts, relayed(body)))
    }

    /// The response to the client when the upstream gave none, and the report of it.
    fn failed(&self, exchange: u64, failure: Failure) -> Response<ProxyBody> {
        let status = failure.status();
        let text = format!(
            "toolcall tap: the upstream {} {}\n",
            self.upstream,
            failure.describe()
        );
        let _ = self.queue.offer(Traffic::Failed { exchange, failure }, 0);
        plain(status, "text/plain; charset=utf-8", text)
    }
}

/// An exchange waiting for the upstream's response; dropped before it came, it tells the
/// checking thread ([`Traffic::Abandoned`]).
struct Waiting<'a> {
    queue: &'a Backlog<Traffic>,
    exchange: u64,
    answered: bool,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if !self.answered {
            let _ = self.queue.offer(
                Traffic::Abandoned {
                    exchange: self.exchange,
                },
                0,
            );
        }
    }
}

fn plain(status: StatusCode, content_type: &'static str, body: String) -> Response<ProxyBody> {
    let mut response = Response::new(full(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}
