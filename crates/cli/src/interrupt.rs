//! Ctrl-C, SIGTERM and the overall time limit.
//!
//! One handler for SIGINT / SIGTERM sets a flag and triggers the
//! interrupters of every registered solver, so the running call returns
//! UNKNOWN and the command prints what it has, marked as interrupted. A
//! second signal exits at once. A `--time-limit` is a watchdog thread that
//! does the same when the time is up.

use std::{
    sync::{
        atomic::{AtomicBool, AtomicU8, Ordering},
        Mutex,
    },
    time::Duration,
};

use boardsat_solve::Interrupter;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static TIMED_OUT: AtomicBool = AtomicBool::new(false);
static SIGNALS: AtomicU8 = AtomicU8::new(0);
static REGISTERED: Mutex<Vec<Interrupter>> = Mutex::new(Vec::new());

fn stop_all() {
    if let Ok(list) = REGISTERED.lock() {
        for i in list.iter() {
            i.interrupt();
        }
    }
}

/// Installs the signal handler (once per process).
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        INTERRUPTED.store(true, Ordering::SeqCst);
        if SIGNALS.fetch_add(1, Ordering::SeqCst) >= 1 {
            // The second signal: the user means it.
            std::process::exit(130);
        }
        stop_all();
    });
}

/// Registers a solver's interrupter; signals and the watchdog trigger it.
pub fn register(interrupter: Interrupter) {
    if INTERRUPTED.load(Ordering::SeqCst) || TIMED_OUT.load(Ordering::SeqCst) {
        interrupter.interrupt();
    }
    if let Ok(mut list) = REGISTERED.lock() {
        list.push(interrupter);
    }
}

/// Starts the watchdog for an overall time limit.
pub fn watchdog(seconds: Option<f64>) {
    if let Some(s) = seconds {
        let limit = Duration::from_secs_f64(s);
        std::thread::spawn(move || {
            std::thread::sleep(limit);
            TIMED_OUT.store(true, Ordering::SeqCst);
            stop_all();
        });
    }
}

/// Why work stopped early, if it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// SIGINT or SIGTERM.
    Interrupted,
    /// The time limit.
    TimeLimit,
}

/// Whether a signal or the time limit has stopped the work.
pub fn stopped() -> Option<Stop> {
    if INTERRUPTED.load(Ordering::SeqCst) {
        Some(Stop::Interrupted)
    } else if TIMED_OUT.load(Ordering::SeqCst) {
        Some(Stop::TimeLimit)
    } else {
        None
    }
}

impl Stop {
    /// The exit code: 130 for a signal, 3 for the time limit.
    pub fn exit_code(self) -> u8 {
        match self {
            Stop::Interrupted => 130,
            Stop::TimeLimit => 3,
        }
    }

    /// How to mark partial results.
    pub fn word(self) -> &'static str {
        match self {
            Stop::Interrupted => "interrupted",
            Stop::TimeLimit => "time limit",
        }
    }
}
