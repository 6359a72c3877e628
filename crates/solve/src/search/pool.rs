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

/// When [`run_queue`] asks a cube to split: only at the tail, when a
/// worker has nothing left to take and a cube has run at least `budget`
/// (the longest-running such cube, one at a time) — so the other cores
/// get work while nothing is lost before that.
pub struct Splitting<'a, I> {
    /// The least time a cube runs before it may be asked to split.
    pub budget: Duration,
    /// Whether a cube has pieces to split into.
    pub can_split: &'a (dyn Fn(&I) -> bool + Sync),
}

/// A cube being worked on.
struct Running {
    /// Which worker's cube (its slot).
    slot: usize,
    started: Instant,
    /// The cube's own stop flag, a child of the workers'.
    stop: Interrupter,
    splittable: bool,
    asked: bool,
}

/// The queue the workers of [`run_queue`] share.
struct Queue<I> {
    cubes: std::collections::VecDeque<I>,
    /// Cubes being worked on.
    running: Vec<Running>,
    /// Cubes in all, so far (a split replaces one by its pieces).
    total: usize,
}

impl<I> Queue<I> {
    /// An idle worker's request: the longest-running splittable cube past
    /// `budget` is asked to split (its stop flag raised), unless a cube
    /// was asked already and has not answered.
    fn ask_to_split(&mut self, budget: Duration) {
        if self.running.iter().any(|r| r.asked) {
            return;
        }
        if let Some(r) = self
            .running
            .iter_mut()
            .filter(|r| r.splittable && r.started.elapsed() >= budget)
            .max_by_key(|r| r.started.elapsed())
        {
            r.asked = true;
            r.stop.interrupt();
        }
    }
}

/// Counts `cubes` on `threads` workers, `work(cube, stop)` counting one
/// under its own stop flag, which the first error raises for every
/// worker and, with `splitting`, the pool raises to ask the cube to split
/// (see [`Splitting`]); a cube that `work` splits is replaced by its
/// pieces, queued after the others. `progress` sees the weighted count so
/// far and the cubes done after each cube. Returns the count (without
/// placements) and what `work` kept of each cube counted to the end.
///
/// # Errors
///
/// The first error of any worker (the others stop at their next cube).
pub fn run_queue<I: Send, T: Send>(
    cubes: Vec<I>,
    threads: usize,
    stop: &Interrupter,
    progress: &(dyn Fn(u64, usize) + Sync),
    splitting: Option<Splitting<'_, I>>,
    work: impl Fn(&I, &CubeStop) -> Result<Step<I, T>, SolveError> + Sync,
) -> Result<(CubeCount, Vec<(I, T)>), SolveError> {
    let start = Instant::now();
    let queue = Mutex::new(Queue {
        total: cubes.len(),
        cubes: cubes.into(),
        running: Vec::new(),
    });
    let changed = std::sync::Condvar::new();
    let count = AtomicU64::new(0);
    let models = AtomicU64::new(0);
    let done = AtomicUsize::new(0);
    let failure: Mutex<Option<SolveError>> = Mutex::new(None);
    let kept: Mutex<Vec<(I, T)>> = Mutex::new(Vec::new());
    // Errors stop the other workers without touching the caller's flag.
    let workers = stop.child(None);
    let take = |slot: usize| -> Option<(I, CubeStop)> {
        let mut q = queue.lock().ok()?;
        loop {
            if workers.is_interrupted() {
                return None;
            }
            if let Some(cube) = q.cubes.pop_front() {
                let cube_stop = workers.child(None);
                q.running.push(Running {
                    slot,
                    started: Instant::now(),
                    stop: cube_stop.clone(),
                    splittable: splitting.as_ref().is_some_and(|s| (s.can_split)(&cube)),
                    asked: false,
                });
                let workers = workers.clone();
                return Some((
                    cube,
                    CubeStop {
                        cube: cube_stop,
                        workers,
                    },
                ));
            }
            if q.running.is_empty() {
                return None;
            }
            if let Some(s) = &splitting {
                q.ask_to_split(s.budget);
            }
            // Another worker may yet split its cube.
            q = changed.wait_timeout(q, Duration::from_millis(50)).ok()?.0;
        }
    };
    let finish = |slot: usize, pieces: Vec<I>| {
        if let Ok(mut q) = queue.lock() {
            q.running.retain(|r| r.slot != slot);
            // A split replaces its cube by its pieces.
            q.total += pieces.len().saturating_sub(1);
            q.cubes.extend(pieces);
        }
        changed.notify_all();
    };
    let fail = |slot: usize, e: SolveError| {
        if let Ok(mut found) = failure.lock() {
            found.get_or_insert(e);
        }
        workers.interrupt();
        finish(slot, Vec::new());
    };
    let worker = |slot: usize| {
        while let Some((cube, cube_stop)) = take(slot) {
            match work(&cube, &cube_stop) {
                Ok(Step::Split(pieces)) if !pieces.is_empty() => finish(slot, pieces),
                // Nothing to split into: a bug, never a lost cube.
                Ok(Step::Split(_)) => {
                    let e = SolveError::Unsupported("a cube was split into nothing".to_string());
                    return fail(slot, e);
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
                    finish(slot, Vec::new());
                    progress(sum, finished);
                }
                // Stopped by the caller (a signal, the time limit) while
                // this cube was being loaded: the cube is unfinished, the
                // count so far stands.
                Err(_) if stop.is_interrupted() => return finish(slot, Vec::new()),
                Err(e) => return fail(slot, e),
            }
        }
    };
    std::thread::scope(|scope| {
        for slot in 0..threads.max(1) {
            let worker = &worker;
            scope.spawn(move || worker(slot));
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

/// The stop flags of one cube of [`run_queue`].
#[derive(Clone, Debug)]
pub struct CubeStop {
    /// The cube's own: its solver obeys this one.
    pub cube: Interrupter,
    /// Every worker's (a child of the caller's): raising it stops the
    /// whole split, as a decision's first model does.
    pub workers: Interrupter,
}

impl CubeStop {
    /// Whether the pool asked the cube to split (its flag raised while the
    /// workers' is not).
    #[must_use]
    pub fn asked_to_split(&self) -> bool {
        self.cube.is_interrupted() && !self.workers.is_interrupted()
    }
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
        None,
        |&i, stops| {
            let (c, m, end, extra) = work(i, &stops.cube)?;
            Ok(Step::Done(c, m, end, extra))
        },
    )
}
