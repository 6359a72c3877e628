//! Stopping work: one flag per job, raised by a signal, a caller or a
//! deadline, obeyed by every solver and every long loop of the job.

use std::{
    fmt,
    sync::{
        atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering},
        Arc,
    },
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
    /// A limit on the CPU time of the thread that polls the flag: the
    /// thread's CPU time at which it stops ([`Interrupter::child_cpu`]).
    cpu_deadline: Option<CpuDeadline>,
    parent: Option<Interrupter>,
    /// Set to finish the cubes running and start no more
    /// ([`Interrupter::drain`]); shared so that a signal handler can set
    /// it ([`Interrupter::drain_flag`]).
    draining: Arc<AtomicBool>,
}

/// A CPU-time deadline, read from the kernel at most every
/// [`CPU_POLL`] of wall time.
#[derive(Debug)]
struct CpuDeadline {
    at: Duration,
    since: Instant,
    /// Wall nanoseconds after `since` of the last reading.
    read: AtomicU64,
}

/// How often a CPU-time deadline reads the thread's CPU time: reading it
/// costs a file read, and a solver polls its flag far more often.
const CPU_POLL: Duration = Duration::from_millis(20);

/// The CPU time (user and system) the calling thread has used so far,
/// from the kernel's count (`/proc/thread-self/stat`, in ticks of 10 ms);
/// `None` where the kernel does not give it. A solver runs on its
/// caller's thread, so the difference over a call is the solver's CPU
/// time, whatever else the machine runs.
#[must_use]
pub fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces:
    // the fields after its closing parenthesis start at field 3.
    let after = stat.get(stat.rfind(')')? + 1..)?;
    let mut fields = after.split_whitespace();
    // utime and stime are fields 14 and 15: the 12th and 13th after it.
    let utime: u64 = fields.nth(11)?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    // Linux reports these in USER_HZ, which is 100 on every architecture.
    Some(Duration::from_millis((utime + stime) * 10))
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
            cpu_deadline: None,
            parent: None,
            draining: Arc::default(),
        }))
    }

    /// A flag that is triggered when `self` is, or when `limit` (if any)
    /// has passed from now; triggering the child leaves `self` alone.
    #[must_use]
    pub fn child(&self, limit: Option<Duration>) -> Self {
        Interrupter(std::sync::Arc::new(Flag {
            state: AtomicU8::new(RUNNING),
            deadline: limit.map(deadline_after),
            cpu_deadline: None,
            parent: Some(self.clone()),
            draining: Arc::default(),
        }))
    }

    /// A child ([`Self::child`]) whose limit is CPU time of the calling
    /// thread, not wall time: it triggers once the thread that polls it
    /// has used `limit` more CPU time than now ([`thread_cpu`]), so a
    /// solver on a loaded machine is stopped after the same work as on an
    /// idle one. Only the thread that made it may poll it (a solver it
    /// runs); where the kernel gives no thread CPU time, `limit` is wall
    /// time.
    #[must_use]
    pub fn child_cpu(&self, limit: Option<Duration>) -> Self {
        let Some((limit, now)) = limit.zip(thread_cpu()) else {
            return self.child(limit);
        };
        Interrupter(std::sync::Arc::new(Flag {
            state: AtomicU8::new(RUNNING),
            deadline: None,
            cpu_deadline: Some(CpuDeadline {
                at: now.saturating_add(limit),
                since: Instant::now(),
                read: AtomicU64::new(0),
            }),
            parent: Some(self.clone()),
            draining: Arc::default(),
        }))
    }

    /// Asks every solver and loop that obeys this flag to stop.
    pub fn interrupt(&self) {
        let _ =
            self.0
                .state
                .compare_exchange(RUNNING, INTERRUPTED, Ordering::SeqCst, Ordering::SeqCst);
    }

    /// Asks split work to finish the cubes it is running and take no
    /// more: nothing running is stopped, and once the last running cube is
    /// done the pool that ran them raises this flag as an interrupt
    /// ([`crate::search::pool::run_queue`]), so the work then ends as if
    /// interrupted — with every cube it started proven. Work that is not
    /// split into cubes runs on.
    pub fn drain(&self) {
        self.0.draining.store(true, Ordering::SeqCst);
    }

    /// The flag [`Self::drain`] sets, for a signal handler to set (a store
    /// to an atomic is all a handler may do).
    #[must_use]
    pub fn drain_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0.draining)
    }

    /// Whether this flag or a parent was asked to drain.
    #[must_use]
    pub fn is_draining(&self) -> bool {
        self.0.draining.load(Ordering::SeqCst)
            || self.0.parent.as_ref().is_some_and(Interrupter::is_draining)
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
        if self.0.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .0
                .cpu_deadline
                .as_ref()
                .is_some_and(CpuDeadline::passed)
        {
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

impl CpuDeadline {
    /// Whether the polling thread's CPU time has reached the deadline
    /// (read at most every [`CPU_POLL`]).
    fn passed(&self) -> bool {
        let now = u64::try_from(self.since.elapsed().as_nanos()).unwrap_or(u64::MAX);
        let last = self.read.load(Ordering::Relaxed);
        if now.saturating_sub(last) < CPU_POLL.as_nanos() as u64 {
            return false;
        }
        self.read.store(now, Ordering::Relaxed);
        thread_cpu().is_some_and(|cpu| cpu >= self.at)
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
/// clamped (a limit of 1e20 s means "no limit in practice", not a panic),
/// and so are values below a nanosecond, which a `Duration` would round to
/// zero (a positive limit stays positive: a budget of 4e-101 s once became
/// a MANIFEST's `# budget 0`, which no job could read).
#[must_use]
pub fn seconds(value: f64) -> Option<Duration> {
    (value.is_finite() && value > 0.0).then(|| {
        Duration::try_from_secs_f64(value)
            .unwrap_or(Duration::MAX)
            .max(Duration::from_nanos(1))
    })
}

/// How often [`unblocked`] looks at the flag while its work blocks.
const BLOCKED_POLL: Duration = Duration::from_millis(20);

/// Runs `work`, which may block in the kernel where no flag is polled
/// (opening a FIFO that no one writes, reading a pipe that stays silent),
/// on a thread of its own, and gives it up once `stop` is raised: its
/// result, or the stop's reason. Given up, the thread goes on until its
/// call returns (in a command, until the process exits), and its result
/// is dropped.
///
/// A `work` that panics panics here, as it would have without a thread.
///
/// # Errors
///
/// The [`StopReason`] of `stop`, raised before `work` ended.
pub fn unblocked<T: Send + 'static>(
    stop: &Interrupter,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, StopReason> {
    let (sender, receiver) = std::sync::mpsc::channel();
    let thread = std::thread::spawn(move || {
        let _ = sender.send(work());
    });
    loop {
        match receiver.recv_timeout(BLOCKED_POLL) {
            Ok(result) => return Ok(result),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if let Some(reason) = stop.reason() {
                    return Err(reason);
                }
            }
            // The sender is gone without a result: `work` panicked.
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => match thread.join() {
                Err(panic) => std::panic::resume_unwind(panic),
                // Not seen: a thread that ended sent its result first.
                Ok(()) => return Err(stop.reason().unwrap_or(StopReason::Interrupted)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Burns CPU on this thread until `until` holds (or a minute passes).
    fn burn(until: impl Fn() -> bool) -> bool {
        let start = Instant::now();
        let mut x = 0u64;
        while !until() {
            for i in 0..10_000u64 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(i);
            }
            std::hint::black_box(x);
            if start.elapsed() > Duration::from_secs(60) {
                return false;
            }
        }
        true
    }

    #[test]
    fn a_cpu_limit_counts_the_threads_work_not_the_clock() {
        let Some(before) = thread_cpu() else {
            // No per-thread CPU time here: the limit is wall time, as
            // `child` gives.
            let stop = Interrupter::new().child_cpu(Some(Duration::from_millis(1)));
            std::thread::sleep(Duration::from_millis(5));
            assert_eq!(stop.reason(), Some(StopReason::TimeLimit));
            return;
        };
        // Its CPU time grows while it works.
        assert!(burn(
            || thread_cpu().is_some_and(|t| t >= before + Duration::from_millis(50))
        ));
        // Asleep, it uses none: the limit does not pass with the clock.
        let stop = Interrupter::new().child_cpu(Some(Duration::from_millis(100)));
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(stop.reason(), None);
        // Working, it passes.
        assert!(
            burn(|| stop.is_interrupted()),
            "no stop after a minute of work"
        );
        assert_eq!(stop.reason(), Some(StopReason::TimeLimit));
        // A parent's interrupt still stops the child.
        let parent = Interrupter::new();
        let child = parent.child_cpu(Some(Duration::from_secs(3600)));
        parent.interrupt();
        assert_eq!(child.reason(), Some(StopReason::Interrupted));
    }
}
