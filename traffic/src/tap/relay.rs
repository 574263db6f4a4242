//! [`Tap`]: the child process, the two relay threads, the signal forwarding, and the thread that
//! checks the side copy.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::thread;

use super::backlog::Backlog;
use super::gap::Gap;
use super::monitor::{Event, Monitor, TapSummary};
use super::report::Reporter;
use super::{Side, TapError};

/// Largest chunk read at once, in bytes.
pub const CHUNK_BYTES: usize = 64 * 1024;
/// How far, in bytes, the checking thread may fall behind the relay (both directions together)
/// before relayed chunks are left unchecked: 16 MiB.
pub const BACKLOG_BYTES: usize = 16 << 20;

/// How the child ended.
///
/// Displays as `exited with status 0` or `was killed by signal 15`; serializes as
/// `{"code": 0, "signal": null}` or `{"code": 143, "signal": 15}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChildExit {
    /// It exited with this status.
    Code(i32),
    /// A signal ended it (Unix).
    Signal(i32),
}

impl ChildExit {
    /// The exit status a shell would report: the status, or 128 + the signal.
    #[must_use]
    pub const fn code(self) -> i32 {
        match self {
            Self::Code(code) => code,
            Self::Signal(signal) => 128 + signal,
        }
    }

    fn of(status: ExitStatus) -> Self {
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            if let Some(signal) = status.signal() {
                return Self::Signal(signal);
            }
        }
        Self::Code(status.code().unwrap_or(1))
    }
}

impl fmt::Display for ChildExit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Code(code) => write!(f, "exited with status {code}"),
            Self::Signal(signal) => write!(f, "was killed by signal {signal}"),
        }
    }
}

impl serde::Serialize for ChildExit {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut state = serializer.serialize_struct("ChildExit", 2)?;
        state.serialize_field("code", &self.code())?;
        let signal = match self {
            Self::Code(_) => None,
            Self::Signal(signal) => Some(signal),
        };
        state.serialize_field("signal", &signal)?;
        state.end()
    }
}

/// What a tap run ends with.
#[derive(Debug)]
pub struct TapOutcome {
    /// How the child ended (its exit code is the tap's).
    pub exit: ChildExit,
    /// The tally of the run.
    pub summary: TapSummary,
    /// Why the report stopped, when it could not be written (the relay and the checking went
    /// on to the end regardless).
    pub report_failed: Option<io::Error>,
}

/// What the relay threads hand the checking thread.
enum Relayed {
    /// Bytes relayed from `side`, after `skipped` bytes that were relayed but dropped here.
    Chunk {
        side: Side,
        bytes: Vec<u8>,
        skipped: Gap,
    },
    /// `side` reached end of file, after `skipped` dropped bytes.
    End { side: Side, skipped: Gap },
    /// The child exited and its output was read to the end: wrap up.
    Finish,
}

/// Runs a command with its stdin and stdout in the tap's, checking the traffic on the side.
///
/// - Bytes are relayed unchanged both ways, each chunk written and flushed as soon as it is
///   read; the checking thread gets a copy through a queue of at most [`BACKLOG_BYTES`] and the
///   relay never waits for it: a copy that does not fit is dropped and reported as
///   [`Event::NotChecked`].
/// - The child's stderr is the tap's.
/// - End of file on the tap's stdin closes the child's stdin; when the child exits, its stdout
///   is read to the end and the tap returns (the caller exits with [`ChildExit::code`], closing
///   the client's side). SIGINT, SIGTERM and SIGHUP sent to the tap are forwarded to the child
///   (Unix), which decides how to end.
/// - When the client stops reading (a write to stdout fails), the child's output is still read
///   and dropped, so that the child never blocks on a full pipe; what is not relayed is not
///   checked.
pub struct Tap {
    command: OsString,
    args: Vec<OsString>,
    monitor: Monitor,
    reporter: Reporter,
}

impl fmt::Debug for Tap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tap")
            .field("command", &self.command)
            .field("args", &self.args)
            .finish_non_exhaustive()
    }
}

impl Tap {
    /// A tap that will run `command` with `args`, checking with `monitor` and reporting to
    /// `reporter`.
    #[must_use]
    pub fn new(
        command: impl Into<OsString>,
        args: Vec<OsString>,
        monitor: Monitor,
        reporter: Reporter,
    ) -> Self {
        Self {
            command: command.into(),
            args,
            monitor,
            reporter,
        }
    }

    /// Starts the child and relays until it exits (see the type docs).
    ///
    /// # Errors
    /// [`TapError::Spawn`] when the command cannot be started, [`TapError::Signals`] when the
    /// signal handlers cannot be installed, [`TapError::Wait`] when waiting for the child fails,
    /// [`TapError::Thread`] when a thread of the tap cannot be started or panicked. A report
    /// that cannot be written is no error: see [`TapOutcome::report_failed`].
    pub fn run(self) -> Result<TapOutcome, TapError> {
        let Self {
            command,
            args,
            monitor,
            reporter,
        } = self;
        let mut child = Command::new(&command)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|source| TapError::Spawn {
                command: command.clone(),
                source,
            })?;
        let (to_child, from_child) = match (child.stdin.take(), child.stdout.take()) {
            (Some(stdin), Some(stdout)) => (stdin, stdout),
            _ => unreachable!("both were piped"),
        };
        let backlog = Arc::new(Backlog::new(BACKLOG_BYTES));
        let queue = Arc::clone(&backlog);
        let checking = spawn("toolcall-tap-check", move || {
            lower_checking_priority();
            check(monitor, reporter, &queue)
        })?;
        #[cfg(unix)]
        let signals = signals::forward(&child)?;
        // Not joined: it may stay blocked reading the tap's stdin after the child is gone.
        let queue = Arc::clone(&backlog);
        spawn("toolcall-tap-client", move || {
            relay(io::stdin().lock(), to_child, Side::Client, &queue);
        })?;
        let queue = Arc::clone(&backlog);
        let output = spawn("toolcall-tap-child", move || {
            relay(from_child, io::stdout().lock(), Side::Child, &queue);
        })?;
        let status = wait(&mut child);
        #[cfg(unix)]
        signals.stop();
        let status = status?;
        output.join().map_err(|_| TapError::Thread {
            name: "toolcall-tap-child",
        })?;
        // The checking thread still drains what is queued before this.
        let _ = backlog.offer(Relayed::Finish, 0);
        let (summary, mut reporter, reported) = checking.join().map_err(|_| TapError::Thread {
            name: "toolcall-tap-check",
        })?;
        let exit = ChildExit::of(status);
        let report_failed = reported
            .and_then(|()| reporter.finish(&summary, &exit))
            .err();
        Ok(TapOutcome {
            exit,
            summary,
            report_failed,
        })
    }
}

/// The nice value [`lower_checking_priority`] gives the checking thread.
pub const CHECKING_NICE: i32 = 10;

/// Lowers the calling thread, a tap's checking thread, to nice [`CHECKING_NICE`] (Linux; a
/// thread id names the thread alone there, where elsewhere `setpriority` would lower the whole
/// process): on a busy machine (two cores shared by the client, the child and the tap) the relay
/// threads then run first whenever both are ready, so the relay never waits behind checking;
/// what checking cannot keep up with is left unchecked and said so ([`Event::NotChecked`]).
/// Best effort: nothing happens where it is not possible.
///
/// Nice 10, not 19: at 19 the checking thread got so little of a loaded machine that a tap
/// whose relay had nothing to do still left bytes unchecked (`cli/tests/cli/tap_relay.rs`,
/// run beside the other tests); at 10 the relay still comes first (BENCHMARKS.md).
pub fn lower_checking_priority() {
    #[cfg(target_os = "linux")]
    {
        let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), CHECKING_NICE);
    }
}

fn spawn<T: Send + 'static>(
    name: &'static str,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<thread::JoinHandle<T>, TapError> {
    thread::Builder::new()
        .name(name.to_owned())
        .spawn(job)
        .map_err(|_| TapError::Thread { name })
}

fn wait(child: &mut Child) -> Result<ExitStatus, TapError> {
    child.wait().map_err(|source| TapError::Wait { source })
}

/// Copies `from` to `to` chunk by chunk, flushing each, and queues a copy of each relayed chunk
/// for checking without ever waiting for the checker. When `to` fails, keeps reading `from`
/// (dropping it) until its end.
fn relay(mut from: impl Read, mut to: impl Write, side: Side, checker: &Backlog<Relayed>) {
    let mut buffer = vec![0_u8; CHUNK_BYTES];
    let mut writing = true;
    let mut skipped = Gap::default();
    loop {
        let read = match from.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if !writing {
            continue;
        }
        let chunk = &buffer[..read];
        // Queued before it is written: whatever the other side answers to it is queued after
        // it, so the checker sees the two directions in an order that respects cause and effect.
        let relayed = Relayed::Chunk {
            side,
            bytes: chunk.to_vec(),
            skipped,
        };
        skipped = match checker.offer(relayed, read) {
            Ok(()) => Gap::default(),
            // Where its newlines were, so that an oversized message is still told.
            Err(_) => skipped.then(chunk),
        };
        if to.write_all(chunk).and_then(|()| to.flush()).is_err() {
            // The reader is gone: nothing more is relayed, so nothing more is checked.
            writing = false;
        }
    }
    drop(to);
    let _ = checker.offer(Relayed::End { side, skipped }, 0);
}

/// The checking thread: feeds the monitor, reports as it goes. A report that cannot be written
/// stops the reporting, never the checking or the relay.
fn check(
    mut monitor: Monitor,
    mut reporter: Reporter,
    queue: &Backlog<Relayed>,
) -> (TapSummary, Reporter, io::Result<()>) {
    let mut reported = Ok(());
    let mut report = |events: Vec<Event>, reporter: &mut Reporter| {
        for event in &events {
            if reported.is_ok() {
                reported = reporter.event(event);
            }
        }
    };
    let mut ended = [false, false];
    loop {
        match queue.take() {
            Relayed::Chunk {
                side,
                bytes,
                skipped,
            } => {
                if skipped.bytes() > 0 {
                    report(monitor.skipped(side, skipped), &mut reporter);
                }
                report(monitor.feed(side, &bytes), &mut reporter);
            }
            Relayed::End { side, skipped } => {
                if skipped.bytes() > 0 {
                    report(monitor.skipped(side, skipped), &mut reporter);
                }
                ended[side.index()] = true;
                report(monitor.end(side), &mut reporter);
            }
            Relayed::Finish => break,
        }
    }
    // A client still connected may have sent a last line without `\n`.
    for side in [Side::Client, Side::Child] {
        if !ended[side.index()] {
            report(monitor.end(side), &mut reporter);
        }
    }
    (monitor.summary().clone(), reporter, reported)
}

#[cfg(unix)]
mod signals {
    //! Forwarding SIGINT, SIGTERM and SIGHUP to the child.

    use std::process::Child;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::thread;

    use rustix::process::{kill_process, Pid, Signal};
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::{Handle, Signals};

    use super::super::TapError;

    /// The forwarding thread; [`Forwarding::stop`] ends it once the child is reaped.
    pub(super) struct Forwarding {
        handle: Handle,
        reaped: Arc<AtomicBool>,
        thread: thread::JoinHandle<()>,
    }

    impl Forwarding {
        pub(super) fn stop(self) {
            self.reaped.store(true, Ordering::SeqCst);
            self.handle.close();
            let _ = self.thread.join();
        }
    }

    pub(super) fn forward(child: &Child) -> Result<Forwarding, TapError> {
        let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])
            .map_err(|source| TapError::Signals { source })?;
        let handle = signals.handle();
        let pid = Pid::from_child(child);
        let reaped = Arc::new(AtomicBool::new(false));
        let seen = Arc::clone(&reaped);
        let thread = thread::Builder::new()
            .name("toolcall-tap-signals".to_owned())
            .spawn(move || {
                for raw in signals.forever() {
                    let signal = match raw {
                        SIGINT => Signal::INT,
                        SIGTERM => Signal::TERM,
                        _ => Signal::HUP,
                    };
                    // Never signal a pid that may have been reused.
                    if !seen.load(Ordering::SeqCst) {
                        let _ = kill_process(pid, signal);
                    }
                }
            })
            .map_err(|_| TapError::Thread {
                name: "toolcall-tap-signals",
            })?;
        Ok(Forwarding {
            handle,
            reaped,
            thread,
        })
    }
}
