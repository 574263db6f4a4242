//! The decode session of [`crate::decode()`]: which pass runs, the path of the member being
//! decoded, the leniency report and the pointer of the innermost failure.
//!
//! Generated `Deserialize` impls push the member or item they decode onto a thread-local path
//! (only in the careful pass), so a leniency event or a failure knows its RFC 6901 pointer into
//! the input without buffering anything.

use std::cell::{Cell, RefCell};
use std::fmt::Write as _;

use serde_json::Value;

use crate::pointer;
use crate::report::{Leniency, LeniencyKind};

/// One step of the path: a member name or an array index.
#[derive(Debug, Clone, Copy)]
pub enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

/// An owned step, kept on the thread-local path.
#[derive(Debug, Clone)]
enum Step {
    Key(&'static str),
    OwnedKey(Box<str>),
    Index(usize),
}

impl Step {
    fn of(segment: Segment<'_>, key_static: Option<&'static str>) -> Self {
        match (segment, key_static) {
            (_, Some(key)) => Self::Key(key),
            (Segment::Key(key), None) => Self::OwnedKey(key.into()),
            (Segment::Index(i), None) => Self::Index(i),
        }
    }
}

#[derive(Default)]
struct State {
    path: Vec<Step>,
    /// `Some` inside a [`Session`]: the report being collected.
    report: Option<Vec<Leniency>>,
    /// The pointer of the innermost failure, kept until the session ends.
    failed_at: Option<String>,
}

/// How the decode running on this thread is driven.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// No [`Session`]: plain serde (`serde_json::from_slice` and the like). Leniency is applied
    /// but nobody reads a report or a failure pointer, so no path is tracked.
    Plain,
    /// The first pass of [`crate::decode()`]: leniency seeds decode straight from the input
    /// without buffering, any failure fails the pass, and no path is tracked.
    Optimistic,
    /// The careful pass of a [`Session`]: the path is tracked, leniency is recorded.
    Careful,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
    static MODE: Cell<Mode> = const { Cell::new(Mode::Plain) };
    /// Set when the optimistic pass met a leniency event: the careful pass must then run to
    /// record it with its pointer.
    static EVENT_SEEN: Cell<bool> = const { Cell::new(false) };
    /// Set inside [`optimistic_check`]: what is read but not built.
    static UNBUILT: Cell<Option<Unbuilt>> = const { Cell::new(None) };
    /// Set inside [`optimistic_check`]: the member names it declines (besides repeated ones).
    static DECLINED: Cell<Option<&'static [&'static str]>> = const { Cell::new(None) };
    /// Set when a check met a repeated member name or a declined one.
    static NAME_FAILED: Cell<bool> = const { Cell::new(false) };
}

/// What [`optimistic_check`] reads without building it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unbuilt {
    /// Free-form values (`rt::any()`, `rt::any_object()`): `null` and `{}`.
    FreeForm,
    /// Free-form values and strings (`rt::text()`, `rt::name()`): strings decode empty.
    FreeFormAndStrings,
    /// Free-form values and strings but those of named string types (`rt::name()`: the
    /// identifiers such as `SessionId` and `ToolCallId`, which a caller may read of the value).
    FreeFormAndUnnamedStrings,
}

/// Sets [`UNBUILT`] until dropped, then puts back what it was.
struct SetUnbuilt(Option<Unbuilt>);

impl SetUnbuilt {
    fn set(unbuilt: Option<Unbuilt>) -> Self {
        Self(UNBUILT.with(|v| v.replace(unbuilt)))
    }
}

impl Drop for SetUnbuilt {
    fn drop(&mut self) {
        UNBUILT.with(|v| v.set(self.0));
    }
}

/// Whether free-form values (`rt::any()`, `rt::any_object()`) may be read without being built:
/// inside [`optimistic_check`], and not under a seed that looks at the value.
#[must_use]
pub fn values_unused() -> bool {
    UNBUILT.with(Cell::get).is_some()
}

/// Whether strings (`rt::text()`) may be read without being built: inside
/// [`optimistic_check`] with [`Unbuilt::FreeFormAndStrings`] or
/// [`Unbuilt::FreeFormAndUnnamedStrings`], and not under a seed that looks at the value.
#[must_use]
pub fn strings_unused() -> bool {
    matches!(
        UNBUILT.with(Cell::get),
        Some(Unbuilt::FreeFormAndStrings | Unbuilt::FreeFormAndUnnamedStrings)
    )
}

/// Whether the strings of named string types (`rt::name()`) may be read without being built:
/// inside [`optimistic_check`] with [`Unbuilt::FreeFormAndStrings`], and not under a seed that
/// looks at the value.
#[must_use]
pub fn named_strings_unused() -> bool {
    UNBUILT.with(Cell::get) == Some(Unbuilt::FreeFormAndStrings)
}

/// Runs `f` with every value built, inside [`optimistic_check`] too: for seeds that look at
/// the value their inner seed decoded (bounds).
pub fn keeping_values<T>(f: impl FnOnce() -> T) -> T {
    let _keep = SetUnbuilt::set(None);
    f()
}

fn mode() -> Mode {
    MODE.with(Cell::get)
}

fn set_mode(mode: Mode) {
    MODE.with(|m| m.set(mode));
}

/// Whether the optimistic pass is running (leniency then fails fast instead of capturing).
#[must_use]
pub fn optimistic() -> bool {
    mode() == Mode::Optimistic
}

fn pointer_of(path: &[Step], last: Option<Segment<'_>>) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(key) => pointer::push(&mut out, key),
            Step::OwnedKey(key) => pointer::push(&mut out, key),
            Step::Index(i) => {
                let _ = write!(out, "/{i}");
            }
        }
    }
    match last {
        Some(Segment::Key(key)) => pointer::push(&mut out, key),
        Some(Segment::Index(i)) => {
            let _ = write!(out, "/{i}");
        }
        None => {}
    }
    out
}

/// A decode with a report; ends with `Session::finish`.
pub struct Session(());

impl Session {
    /// Begins a session whose first pass is optimistic (see [`Session::restart_careful`]).
    pub(crate) fn begin_optimistic() -> Self {
        let session = Self::begin();
        set_mode(Mode::Optimistic);
        EVENT_SEEN.with(|e| e.set(false));
        session
    }

    /// Whether the optimistic pass met a leniency event (its report must come from a careful
    /// pass).
    pub(crate) fn saw_event(&self) -> bool {
        EVENT_SEEN.with(Cell::get)
    }

    /// Ends the optimistic pass: clears what it recorded and continues carefully.
    pub(crate) fn restart_careful(self) -> Self {
        drop(self);
        Self::begin()
    }

    pub(crate) fn begin() -> Self {
        set_mode(Mode::Careful);
        STATE.with(|s| {
            let mut s = s.borrow_mut();
            s.path.clear();
            s.report = Some(Vec::new());
            s.failed_at = None;
        });
        Self(())
    }

    /// The report, ordered by pointer, and the pointer of the innermost failure.
    pub(crate) fn finish(self) -> (Vec<Leniency>, Option<String>) {
        let (mut report, failed_at) = STATE.with(|s| {
            let mut s = s.borrow_mut();
            s.path.clear();
            (s.report.take().unwrap_or_default(), s.failed_at.take())
        });
        // Decode order depends on how serde_json orders a buffered object's members (its
        // `preserve_order` feature); document order of the pointers does not.
        report.sort_by(|a, b| pointer::compare(&a.pointer, &b.pointer));
        (report, failed_at)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        set_mode(Mode::Plain);
        STATE.with(|s| {
            let mut s = s.borrow_mut();
            s.report = None;
            s.failed_at = None;
            s.path.clear();
        });
    }
}

/// Runs `f` as the optimistic pass of a decode session: leniency makes no report and fails
/// nothing, but is noticed. `Some` with `f`'s value when it succeeded and no leniency applied
/// (a careful pass would then give the same value with an empty report); `None` otherwise.
///
/// For callers that decode generated types through their own deserializer (the traffic
/// checker's one-pass check of a whole message) and need to know only whether the input is
/// exactly what the schema describes.
pub fn optimistic_only<T, E>(f: impl FnOnce() -> Result<T, E>) -> Option<T> {
    let session = Session::begin_optimistic();
    let result = f();
    let clean = !session.saw_event();
    drop(session);
    result.ok().filter(|_| clean)
}

/// [`optimistic_only`] for a caller that keeps only whether the value decoded, not all of the
/// value: what `unbuilt` names is read through the deserializer as a decode reads it (every
/// byte parsed and checked: escapes, number ranges, UTF-8) but not built. Free-form members
/// (`serde_json::Value` and free-form objects) decode as `null` and `{}`, strings (with
/// [`Unbuilt::FreeFormAndStrings`], or but for named string types with
/// [`Unbuilt::FreeFormAndUnnamedStrings`]) as `""`. Every other member decodes as in
/// [`optimistic_only`], values under bounds are built, and the verdict is the same.
///
/// For the traffic checker's one-pass check, which decodes a message to learn whether the schema
/// accepts it as it is.
///
/// Member names are compared too: `None` when an object of the input has a member name twice,
/// or a member named in `declined` (the generated types refuse a repeat of the members they
/// declare; in free-form values and buffered unions, where a `serde_json::Value` would keep the
/// last of two, the names are compared as they are read: [`super::repeats`]). A repeat fails the
/// check even where leniency or an untagged union's next branch would take the value.
pub fn optimistic_check<T, E>(
    unbuilt: Unbuilt,
    declined: &'static [&'static str],
    f: impl FnOnce() -> Result<T, E>,
) -> Option<T> {
    let _unbuilt = SetUnbuilt::set(Some(unbuilt));
    let outer = DECLINED.with(|d| d.replace(Some(declined)));
    let failed_before = NAME_FAILED.with(|f| f.replace(false));
    let value = optimistic_only(f);
    let failed = NAME_FAILED.with(|f| f.replace(failed_before));
    DECLINED.with(|d| d.set(outer));
    value.filter(|_| !failed)
}

/// Whether member names are compared ([`optimistic_check`]).
pub(crate) fn comparing_names() -> bool {
    DECLINED.with(Cell::get).is_some()
}

/// Notes that a member name failed the running check, repeated or declined: the check gives
/// `None` whatever else decoded. Outside a check it changes nothing.
pub(crate) fn name_failed() {
    NAME_FAILED.with(|f| f.set(true));
}

/// Whether `name` is one the running check declines (noted: [`name_failed`]).
pub(crate) fn declined(name: &str) -> bool {
    let declined = DECLINED
        .with(Cell::get)
        .is_some_and(|names| names.contains(&name));
    if declined {
        name_failed();
    }
    declined
}

/// Runs `f` with `segment` on the path; on failure records where (the innermost failure wins).
pub fn within<T, E>(segment: Segment<'_>, f: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
    within_step(segment, None, f)
}

/// [`within`] for a member name known at compile time (no allocation).
pub fn within_key<T, E>(key: &'static str, f: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
    within_step(Segment::Key(key), Some(key), f)
}

fn within_step<T, E>(
    segment: Segment<'_>,
    key_static: Option<&'static str>,
    f: impl FnOnce() -> Result<T, E>,
) -> Result<T, E> {
    // Only the careful pass tracks the path: in the optimistic pass any failure or leniency
    // event sends decoding to the careful pass, and plain serde has nobody to tell.
    if mode() != Mode::Careful {
        return f();
    }
    STATE.with(|s| s.borrow_mut().path.push(Step::of(segment, key_static)));
    let result = f();
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if result.is_err() && s.report.is_some() && s.failed_at.is_none() {
            s.failed_at = Some(pointer_of(&s.path, None));
        }
        s.path.pop();
    });
    result
}

/// Records that the value at the current path (plus `last`) failed, unless a deeper failure was
/// recorded already.
pub fn fail_here(last: Option<Segment<'_>>) {
    if mode() != Mode::Careful {
        return;
    }
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if s.report.is_some() && s.failed_at.is_none() {
            s.failed_at = Some(pointer_of(&s.path, last));
        }
    });
}

/// Records that the value at the current path failed at `inner` (an RFC 6901 pointer inside
/// it, `""` for the value itself), unless a deeper failure was recorded already.
pub fn fail_at(inner: &str) {
    if mode() != Mode::Careful {
        return;
    }
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if s.report.is_some() && s.failed_at.is_none() {
            let mut at = pointer_of(&s.path, None);
            at.push_str(inner);
            s.failed_at = Some(at);
        }
    });
}

/// Records a leniency event at the current path (plus `last`), inside a session only.
pub fn record(kind: LeniencyKind, last: Option<Segment<'_>>, raw: impl FnOnce() -> Value) {
    match mode() {
        Mode::Plain => return,
        Mode::Optimistic => {
            EVENT_SEEN.with(|e| e.set(true));
            return;
        }
        Mode::Careful => {}
    }
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if s.report.is_some() {
            let pointer = pointer_of(&s.path, last);
            let raw = raw();
            if let Some(report) = s.report.as_mut() {
                report.push(Leniency { pointer, kind, raw });
            }
        }
    });
}

/// A report position, to roll back what an attempt that failed recorded.
#[must_use]
pub fn mark() -> (usize, bool) {
    STATE.with(|s| {
        let s = s.borrow();
        (s.report.as_ref().map_or(0, Vec::len), s.failed_at.is_some())
    })
}

/// Drops the events recorded since `mark`, and a failure recorded since then.
pub fn rollback(mark: (usize, bool)) {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if let Some(report) = s.report.as_mut() {
            report.truncate(mark.0);
        }
        if !mark.1 {
            s.failed_at = None;
        }
    });
}

/// The events recorded since `mark`, taken out of the report (a failure recorded since then is
/// dropped, as by [`rollback`]): an attempt whose value is kept while others are tried, put back
/// with [`restore`].
#[must_use]
pub fn take_since(mark: (usize, bool)) -> Vec<Leniency> {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if !mark.1 {
            s.failed_at = None;
        }
        s.report.as_mut().map_or_else(Vec::new, |report| {
            report.split_off(mark.0.min(report.len()))
        })
    })
}

/// Puts back events taken by [`take_since`].
pub fn restore(events: Vec<Leniency>) {
    if events.is_empty() {
        return;
    }
    STATE.with(|s| {
        if let Some(report) = s.borrow_mut().report.as_mut() {
            report.extend(events);
        }
    });
}

/// Reports a value of a string enumeration that the enumeration does not know, decoded as its
/// `other` value (leniency of the family, not of the schema).
pub fn unknown_value(raw: &str) {
    record(LeniencyKind::UnknownValue, None, || Value::from(raw));
}
