//! Stopping work: one flag per job, raised by a signal, a caller or a
//! deadline, obeyed by every solver and every long loop of the job.

use std::{
    fmt,
    sync::atomic::{AtomicU8, Ordering},
    time::{Duration, Instant},
};

/// Why work was stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// [`Interrupter::interrupt`] was called: a signal (Ctrl-C, SIGTERM),
    /// or a caller that wanted the work to end.
    Interrupted,
    /// The deadline of an [`Interrupter::with_deadline`] passed.
    TimeLimit,
}

impl StopReason {
    /// How a partial result is marked: `interrupted` or `time limit`.
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            StopReason::Interrupted => "interrupted",
            StopReason::TimeLimit => "time limit",
        }
    }
}

impl StopReason {
    /// Why work without an answer stopped, in words: the reason, or `the
    /// solver gave up` when nothing stopped it from outside.
    #[must_use]
    pub fn words(stop: Option<StopReason>) -> &'static str {
        stop.map_or("the solver gave up", StopReason::word)
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// A cloneable, thread-safe stop flag with an optional deadline.
///
/// One interrupter is meant to stop a whole job: every solver of the job
/// obeys it (a backend's `Interrupt::use_interrupter`), and every long loop outside
/// the solvers (encoding, writing, reading, printing) polls
/// [`Interrupter::is_interrupted`]. A deadline needs no timer thread: the
/// flag reads as set once the deadline has passed. A *child*
/// ([`Interrupter::child`]) stops when its parent does or at its own
/// deadline, so a benchmark cell can have a time limit of its own while
/// Ctrl-C still stops everything, and the reason tells the two apart.
#[derive(Clone, Debug, Default)]
pub struct Interrupter(std::sync::Arc<Flag>);

#[derive(Debug, Default)]
struct Flag {
    /// 0: running; 1: interrupted; 2: time limit.
    state: AtomicU8,
    deadline: Option<Instant>,
    parent: Option<Interrupter>,
}

const RUNNING: u8 = 0;
const INTERRUPTED: u8 = 1;
const TIMED_OUT: u8 = 2;

impl Interrupter {
    /// A fresh, untriggered flag without a deadline.
    #[must_use]
    pub fn new() -> Self {
        Interrupter::default()
    }

    /// A flag that triggers by itself once `limit` has passed from now.
    #[must_use]
    pub fn with_deadline(limit: Option<Duration>) -> Self {
        Interrupter(std::sync::Arc::new(Flag {
            state: AtomicU8::new(RUNNING),
            deadline: limit.map(deadline_after),
            parent: None,
        }))
    }

    /// A flag that is triggered when `self` is, or when `limit` (if any)
    /// has passed from now; triggering the child leaves `self` alone.
    #[must_use]
    pub fn child(&self, limit: Option<Duration>) -> Self {
        Interrupter(std::sync::Arc::new(Flag {
            state: AtomicU8::new(RUNNING),
            deadline: limit.map(deadline_after),
            parent: Some(self.clone()),
        }))
    }

    /// Asks every solver and loop that obeys this flag to stop.
    pub fn interrupt(&self) {
        let _ =
            self.0
                .state
                .compare_exchange(RUNNING, INTERRUPTED, Ordering::SeqCst, Ordering::SeqCst);
    }

    /// Whether work should stop: interrupted, deadline passed, or the
    /// parent stopped.
    #[must_use]
    pub fn is_interrupted(&self) -> bool {
        self.reason().is_some()
    }

    /// Why work should stop, if it should.
    #[must_use]
    pub fn reason(&self) -> Option<StopReason> {
        match self.0.state.load(Ordering::SeqCst) {
            INTERRUPTED => return Some(StopReason::Interrupted),
            TIMED_OUT => return Some(StopReason::TimeLimit),
            _ => {}
        }
        if self.0.deadline.is_some_and(|d| Instant::now() >= d) {
            let _ = self.0.state.compare_exchange(
                RUNNING,
                TIMED_OUT,
                Ordering::SeqCst,
                Ordering::SeqCst,
            );
            return Some(StopReason::TimeLimit);
        }
        self.0.parent.as_ref().and_then(Interrupter::reason)
    }

    /// The time left before the deadline (this flag's or a parent's),
    /// `None` without one.
    #[must_use]
    pub fn remaining(&self) -> Option<Duration> {
        let own = self
            .0
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        let parent = self.0.parent.as_ref().and_then(Interrupter::remaining);
        match (own, parent) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Clears this flag (not its deadline, nor a parent's state).
    pub fn reset(&self) {
        self.0.state.store(RUNNING, Ordering::SeqCst);
    }
}

/// `limit` from now, saturating far in the future instead of overflowing
/// (`--time-limit 1e20` means "no limit in practice", not a panic).
fn deadline_after(limit: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(limit)
        .unwrap_or_else(|| now + Duration::from_secs(100 * 365 * 24 * 3600))
}

/// A time limit in seconds as a [`Duration`]: `None` for a value that is
/// not a positive finite number; values too large for a `Duration` are
/// clamped (a limit of 1e20 s means "no limit in practice", not a panic).
#[must_use]
pub fn seconds(value: f64) -> Option<Duration> {
    (value.is_finite() && value > 0.0)
        .then(|| Duration::try_from_secs_f64(value).unwrap_or(Duration::MAX))
}
