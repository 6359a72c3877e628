//! The cube worker pool: independent cubes counted by fresh solvers on
//! every core, the first error stopping the others.

use std::{
    sync::{
        atomic::{AtomicU64, AtomicUsize, Ordering},
        Mutex,
    },
    time::{Duration, Instant},
};

use boardsat_encode::Encoding;

use crate::{error::SolveError, search::count::End, stop::Interrupter};

/// Which cubes of a split are solved or written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Cubes {
    /// Every cube.
    All,
    /// One cube per orbit of cubes under the board's symmetries, weighted
    /// by the orbit's size or solved under its stabilizer
    /// ([`crate::search::domination`]); for N-queens jobs, mirror halving.
    #[default]
    OnePerOrbit,
}

/// The worker threads of a split when none are asked for: every core.
#[must_use]
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// The encoding of the first cube loaded, kept for the report: every cube
/// of a split shares it but for the cube's own clauses, so no worker
/// encodes the problem again only to measure it.
#[derive(Debug, Default)]
pub struct FirstEncoding(Mutex<Option<Encoding>>);

impl FirstEncoding {
    /// Keeps `encoding`'s facts unless one is kept already.
    pub fn offer(&self, encoding: &Encoding) {
        if let Ok(mut slot) = self.0.lock() {
            slot.get_or_insert_with(|| encoding.facts());
        }
    }

    /// The encoding kept, if any cube was loaded.
    #[must_use]
    pub fn into_inner(self) -> Option<Encoding> {
        self.0.into_inner().ok().flatten()
    }
}

/// The result of a cube count.
#[derive(Clone, Debug, PartialEq)]
pub struct CubeCount {
    /// Placements, weighted (the answer).
    pub count: u64,
    /// Solver models (fundamental solutions under symmetry breaking).
    pub models: u64,
    /// Cubes counted to the end.
    pub cubes_done: usize,
    /// Cubes in all.
    pub cubes_total: usize,
    /// Whether every cube was exhausted, or how the count stopped.
    pub end: End,
    /// Wall time.
    pub elapsed: Duration,
}

/// What a worker did with one cube of [`run_queue`].
#[derive(Debug)]
pub enum Step<I, T> {
    /// Counted: the weighted count, the solver models, how it ended, and
    /// what the caller keeps of it.
    Done(u64, u64, End, T),
    /// Split again: these cubes replace it in the queue.
    Split(Vec<I>),
}

/// The queue the workers of [`run_queue`] share.
struct Queue<I> {
    cubes: std::collections::VecDeque<I>,
    /// Cubes being worked on.
    busy: usize,
    /// Cubes in all, so far (a split replaces one by its pieces).
    total: usize,
}

/// Counts `cubes` on `threads` workers, `work(cube, stop)` counting one
/// under a stop flag that the first error raises for every worker; a cube
/// that `work` splits again is replaced by its pieces, queued after the
/// others. `progress` sees the weighted count so far and the cubes done
/// after each cube. Returns the count (without placements) and what `work`
/// kept of each cube counted to the end.
///
/// # Errors
///
/// The first error of any worker (the others stop at their next cube).
pub fn run_queue<I: Send, T: Send>(
    cubes: Vec<I>,
    threads: usize,
    stop: &Interrupter,
    progress: &(dyn Fn(u64, usize) + Sync),
    work: impl Fn(&I, &Interrupter) -> Result<Step<I, T>, SolveError> + Sync,
) -> Result<(CubeCount, Vec<(I, T)>), SolveError> {
    let start = Instant::now();
    let queue = Mutex::new(Queue {
        total: cubes.len(),
        cubes: cubes.into(),
        busy: 0,
    });
    let changed = std::sync::Condvar::new();
    let count = AtomicU64::new(0);
    let models = AtomicU64::new(0);
    let done = AtomicUsize::new(0);
    let failure: Mutex<Option<SolveError>> = Mutex::new(None);
    let kept: Mutex<Vec<(I, T)>> = Mutex::new(Vec::new());
    // Errors stop the other workers without touching the caller's flag.
    let workers = stop.child(None);
    let take = || -> Option<I> {
        let mut q = queue.lock().ok()?;
        loop {
            if workers.is_interrupted() {
                return None;
            }
            if let Some(cube) = q.cubes.pop_front() {
                q.busy += 1;
                return Some(cube);
            }
            if q.busy == 0 {
                return None;
            }
            // Another worker may yet split its cube.
            q = changed.wait_timeout(q, Duration::from_millis(50)).ok()?.0;
        }
    };
    let finish = |pieces: Vec<I>| {
        if let Ok(mut q) = queue.lock() {
            q.busy -= 1;
            // A split replaces its cube by its pieces.
            q.total += pieces.len().saturating_sub(1);
            q.cubes.extend(pieces);
        }
        changed.notify_all();
    };
    let worker = || {
        while let Some(cube) = take() {
            match work(&cube, &workers) {
                Ok(Step::Split(pieces)) if !pieces.is_empty() => finish(pieces),
                Ok(Step::Split(_)) => {
                    // Nothing to split into: a bug, never a lost cube.
                    if let Ok(mut slot) = failure.lock() {
                        slot.get_or_insert(SolveError::Unsupported(
                            "a cube was split into nothing".to_string(),
                        ));
                    }
                    workers.interrupt();
                    finish(Vec::new());
                    return;
                }
                Ok(Step::Done(c, m, end, extra)) => {
                    let sum = count.fetch_add(c, Ordering::SeqCst).saturating_add(c);
                    models.fetch_add(m, Ordering::SeqCst);
                    let finished = if end == End::Exhausted {
                        if let Ok(mut list) = kept.lock() {
                            list.push((cube, extra));
                        }
                        done.fetch_add(1, Ordering::SeqCst) + 1
                    } else {
                        done.load(Ordering::SeqCst)
                    };
                    finish(Vec::new());
                    progress(sum, finished);
                }
                // Stopped by the caller (a signal, the time limit) while
                // this cube was being loaded: the cube is unfinished, the
                // count so far stands.
                Err(_) if stop.is_interrupted() => {
                    finish(Vec::new());
                    return;
                }
                Err(e) => {
                    if let Ok(mut slot) = failure.lock() {
                        slot.get_or_insert(e);
                    }
                    workers.interrupt();
                    finish(Vec::new());
                    return;
                }
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(worker);
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let cubes_done = done.load(Ordering::SeqCst);
    let total = queue.into_inner().map_or(cubes_done, |q| q.total);
    let counted = CubeCount {
        count: count.load(Ordering::SeqCst),
        models: models.load(Ordering::SeqCst),
        cubes_done,
        cubes_total: total,
        end: if cubes_done == total {
            End::Exhausted
        } else {
            End::Stopped
        },
        elapsed: start.elapsed(),
    };
    Ok((counted, kept.into_inner().unwrap_or_default()))
}

/// [`run_queue`] over cubes `0..total` that are never split again:
/// `work(i, stop)` counts cube `i`. Returns what `work` kept of each cube
/// counted to the end, with its index.
///
/// # Errors
///
/// The first error of any worker (the others stop at their next cube).
pub fn run_cubes<T: Send>(
    total: usize,
    threads: usize,
    stop: &Interrupter,
    progress: &(dyn Fn(u64, usize) + Sync),
    work: impl Fn(usize, &Interrupter) -> Result<(u64, u64, End, T), SolveError> + Sync,
) -> Result<(CubeCount, Vec<(usize, T)>), SolveError> {
    run_queue(
        (0..total).collect(),
        threads,
        stop,
        progress,
        |&i, workers| {
            let (c, m, end, extra) = work(i, workers)?;
            Ok(Step::Done(c, m, end, extra))
        },
    )
}
