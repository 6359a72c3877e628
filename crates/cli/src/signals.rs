//! Ctrl-C and SIGTERM.
//!
//! One handler, installed once, raises the stop flag of the running job
//! ([`watch`]): solvers return UNKNOWN at their next poll, long loops end at
//! their next check, and the command prints what it has, marked
//! `interrupted`. A second signal means it: temporary files are removed and
//! the process exits with 130 at once. A signal within [`SAME_SIGNAL`] of
//! the first is the same one delivered twice, not a second: `timeout`
//! sends its signal to the command and again to its process group, and a
//! count stopped by `timeout -s INT` must still report how far it got.
//!
//! SIGUSR1 asks for less: split work finishes the cubes it is running,
//! starts no more, and then stops as an interrupt stops it
//! ([`Interrupter::drain`]) — a sitting of a long count ends without
//! losing the cubes in flight (at A002564(20) a cube is minutes of CPU),
//! and a scheduler's warning signal (`sbatch --signal=USR1@600`) ends a
//! job the same way. It is registered with `signal-hook`, whose handler
//! only sets the flag.

use std::{
    sync::{
        atomic::{AtomicU8, Ordering},
        Mutex,
    },
    time::{Duration, Instant},
};

use boardsat_solve::{files, stop::Interrupter};

static SIGNALS: AtomicU8 = AtomicU8::new(0);
static WATCHED: Mutex<Vec<Interrupter>> = Mutex::new(Vec::new());
static FIRST: Mutex<Option<Instant>> = Mutex::new(None);

/// How soon after the first a signal is taken as the same one.
pub const SAME_SIGNAL: Duration = Duration::from_secs(1);

/// Installs the handler (once per process).
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        let first = FIRST
            .lock()
            .map(|mut first| *first.get_or_insert_with(Instant::now));
        if first.is_ok_and(|at| SIGNALS.load(Ordering::SeqCst) >= 1 && at.elapsed() < SAME_SIGNAL) {
            return;
        }
        if SIGNALS.fetch_add(1, Ordering::SeqCst) >= 1 {
            files::remove_temporaries();
            std::process::exit(130);
        }
        if let Ok(list) = WATCHED.lock() {
            for stop in list.iter() {
                stop.interrupt();
            }
        }
    });
}

/// Makes signals raise `stop` (at once, if one already came), and
/// SIGUSR1 drain it.
pub fn watch(stop: &Interrupter) {
    if SIGNALS.load(Ordering::SeqCst) > 0 {
        stop.interrupt();
    }
    // Without the handler SIGUSR1 would end the process at once; a failure
    // to register leaves that default, as before this signal meant more.
    let _ = signal_hook::flag::register(signal_hook::consts::SIGUSR1, stop.drain_flag());
    if let Ok(mut list) = WATCHED.lock() {
        list.push(stop.clone());
    }
}

/// Whether a signal has come.
pub fn received() -> bool {
    SIGNALS.load(Ordering::SeqCst) > 0
}

/// A stop flag without a deadline, raised by signals: for commands with no
/// time limit.
pub fn job() -> Interrupter {
    let stop = Interrupter::new();
    watch(&stop);
    stop
}
