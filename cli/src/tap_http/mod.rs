//! `toolcall tap --listen ADDRESS --upstream URL`: the tap as a reverse proxy in front of a
//! remote MCP server, over Streamable HTTP (MCP 2025-03-26 and later) and HTTP+SSE (2024-11-05).
//!
//! Every request is relayed to the upstream with its body streamed unchanged, and every
//! response back the same way (server-sent events as they arrive); hop-by-hop headers are
//! dropped, `Host` names the upstream, `Via` is added. A copy of each body goes to one checking
//! thread, which never holds the relay up (a bounded queue: what does not fit is relayed and
//! reported not checked), and which checks every JSON-RPC message as the stdio tap does, one
//! session at a time ([`check`]).
//!
//! One module per concern: [`security`] (listen address, `Host` and `Origin`), [`headers`]
//! (hop-by-hop, redaction), [`relay`] (the proxy), [`tee`] (a relayed body's copy), [`sse`]
//! (server-sent events), [`check`] (sessions and messages).

mod check;
mod headers;
mod relay;
mod security;
mod sse;
mod tee;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use serde_json::json;
use toolcall_traffic::tap::{Backlog, Monitor, Reporter, BACKLOG_BYTES};

pub(crate) use check::Transport;

/// What `toolcall tap --listen` was asked to do.
pub(crate) struct Options {
    pub(crate) listen: SocketAddr,
    pub(crate) upstream: String,
    pub(crate) allow_remote: bool,
    pub(crate) allow_hosts: Vec<String>,
    pub(crate) allow_origins: Vec<String>,
    pub(crate) transport: Transport,
    /// How long the upstream has to start a response.
    pub(crate) upstream_timeout: Duration,
    pub(crate) transcript: Option<PathBuf>,
    pub(crate) json: bool,
    pub(crate) max_bytes: usize,
}

/// How long connections still open get to finish once the tap is told to stop.
const GRACE: Duration = Duration::from_secs(1);

/// Runs the proxy until SIGINT or SIGTERM; the exit status says whether every message was
/// `ok` or `lenient` (0) or one was `invalid`, `unchecked` or `over-limit` (1); 2 when it could
/// not start.
pub(crate) fn run(options: Options, monitor: Monitor, mut reporter: Reporter) -> ExitCode {
    let upstream = match relay::Upstream::parse(&options.upstream) {
        Ok(upstream) => upstream,
        Err(error) => {
            eprintln!("toolcall: {error}");
            return ExitCode::from(2);
        }
    };
    if let Err(error) = security::check_listen(options.listen, options.allow_remote) {
        eprintln!("toolcall: {error}");
        return ExitCode::from(2);
    }
    let transcript = match &options.transcript {
        Some(path) => match std::fs::File::create(path) {
            Ok(file) => {
                Some(Box::new(std::io::BufWriter::new(file)) as Box<dyn std::io::Write + Send>)
            }
            Err(error) => {
                eprintln!("toolcall: cannot create `{}`: {error}", path.display());
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("toolcall: cannot start the HTTP runtime: {error}");
            return ExitCode::from(2);
        }
    };
    let listener = match runtime.block_on(tokio::net::TcpListener::bind(options.listen)) {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("toolcall: cannot listen on `{}`: {error}", options.listen);
            return ExitCode::from(2);
        }
    };
    let local = listener.local_addr().unwrap_or(options.listen);
    let mut guard = security::Guard::new(local, &options.allow_hosts, &options.allow_origins);
    guard.set_port(local.port());
    let text = format!(
        "listening on http://{local}, relaying to {upstream}; Authorization, cookies and other \
         credentials are relayed and never written to the transcript or this report (redacted)"
    );
    let record = json!({"event": "listening", "address": local.to_string(),
                        "upstream": upstream.to_string(), "redacted": headers::REDACTED});
    if let Err(error) = reporter.finding(&text, &record) {
        eprintln!("toolcall: cannot write the report: {error}");
        return ExitCode::from(2);
    }
    let queue = Arc::new(Backlog::new(BACKLOG_BYTES));
    let checking = check::Checking::new(
        monitor,
        transcript,
        reporter,
        options.json,
        options.transport,
        options.max_bytes,
    );
    let taken = Arc::clone(&queue);
    let checker = match std::thread::Builder::new()
        .name("toolcall-tap-check".to_owned())
        .spawn(move || {
            toolcall_traffic::tap::lower_checking_priority();
            checking.run(&taken)
        }) {
        Ok(handle) => handle,
        Err(error) => {
            eprintln!("toolcall: cannot start the checking thread: {error}");
            return ExitCode::from(2);
        }
    };
    let relay = Arc::new(relay::Relay::new(
        upstream,
        guard,
        Arc::clone(&queue),
        options.upstream_timeout,
        Duration::from_secs(10),
    ));
    runtime.block_on(serve(listener, relay));
    // Every connection task has ended (their bodies reported how they ended): wrap up.
    drop(runtime);
    let _ = queue.offer(check::Traffic::Finish, 0);
    let Ok(outcome) = checker.join() else {
        eprintln!("toolcall: the checking thread panicked");
        return ExitCode::from(2);
    };
    let check::Outcome {
        summary,
        stats,
        mut reporter,
        reported,
    } = outcome;
    let mut members = serde_json::Map::new();
    members.insert(
        "http".to_owned(),
        serde_json::to_value(&stats).unwrap_or_default(),
    );
    let finished =
        reported.and_then(|()| reporter.finish_with(&summary, &stats.to_string(), &members));
    if let Err(error) = finished {
        eprintln!("toolcall: cannot write the report: {error}");
    }
    if summary.invalid > 0 || summary.unchecked > 0 || summary.over_limit > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Accepts connections until SIGINT or SIGTERM, then gives those still open [`GRACE`] to
/// finish and drops the rest.
async fn serve(listener: tokio::net::TcpListener, relay: Arc<relay::Relay>) {
    let queue = Arc::clone(&relay.queue);
    let mut connections = tokio::task::JoinSet::new();
    let stop = stop_signal();
    tokio::pin!(stop);
    loop {
        tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let _ = stream.set_nodelay(true);
                let relay = Arc::clone(&relay);
                connections.spawn(async move {
                    let service = service_fn(move |request| Arc::clone(&relay).handle(request));
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    let _ = queue.offer(check::Traffic::Stopping, 0);
    let _ = tokio::time::timeout(GRACE, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    connections.abort_all();
    while connections.join_next().await.is_some() {}
}

/// Completes on SIGINT or SIGTERM (SIGINT only off Unix).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let (Ok(mut interrupt), Ok(mut terminate)) = (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
        ) else {
            let _ = tokio::signal::ctrl_c().await;
            return;
        };
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
