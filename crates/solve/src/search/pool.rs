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

/// Which cubes of a split are solved or written: defined with the
/// reductions of a count ([`crate::search::count`]), below the rings that
/// split by it, and named here too, where the splits use it.
pub use crate::search::count::Cubes;

/// The rows (N-queens) or outer rings (domination) an exported split
/// fixes per cube unless told otherwise (`boardsat cubes`): two. Exported
/// cubes are jobs of their own, solved without lex-leader constraints
/// inside them, so a scheduler is given more and smaller cubes than an
/// in-process domination count takes
/// ([`crate::search::domination::DEFAULT_DEPTH`]).
pub const EXPORT_DEPTH: usize = 2;

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

    /// The encoding kept, if any, taken out.
    #[must_use]
    pub fn take(&self) -> Option<Encoding> {
        self.0.lock().ok().and_then(|mut slot| slot.take())
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

/// How far a split count has come, after a cube: the cubes counted to
/// the end, of the cubes known so far (a cube split again adds its
/// pieces, so `known` can grow until the last cube is taken).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CubesDone {
    /// Cubes counted to the end.
    pub done: usize,
    /// Cubes known: counted, running and queued.
    pub known: usize,
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
    progress: &(dyn Fn(u64, CubesDone) + Sync),
    splitting: Option<Splitting<'_, I>>,
    work: impl Fn(&I, &CubeStop) -> Result<Step<I, T>, SolveError> + Sync,
) -> Result<(CubeCount, Vec<(I, T)>), SolveError> {
    let start = Instant::now();
    let pool = Pool {
        queue: Mutex::new(Queue {
            total: cubes.len(),
            cubes: cubes.into(),
            running: Vec::new(),
        }),
        changed: std::sync::Condvar::new(),
        count: AtomicU64::new(0),
        models: AtomicU64::new(0),
        done: AtomicUsize::new(0),
        failure: Mutex::new(None),
        kept: Mutex::new(Vec::new()),
        // Errors stop the other workers without touching the caller's flag.
        workers: stop.child(None),
        stop,
        splitting,
    };
    std::thread::scope(|scope| {
        for slot in 0..threads.max(1) {
            let (pool, work) = (&pool, &work);
            scope.spawn(move || pool.worker(slot, work, progress));
        }
    });
    pool.into_result(start)
}

/// The state the workers of [`run_queue`] share.
struct Pool<'a, I, T> {
    queue: Mutex<Queue<I>>,
    /// Signalled when a cube finishes or is split.
    changed: std::sync::Condvar,
    count: AtomicU64,
    models: AtomicU64,
    done: AtomicUsize,
    failure: Mutex<Option<SolveError>>,
    kept: Mutex<Vec<(I, T)>>,
    /// Every worker's flag, a child of the caller's.
    workers: Interrupter,
    /// The caller's flag.
    stop: &'a Interrupter,
    splitting: Option<Splitting<'a, I>>,
}

impl<I, T> Pool<'_, I, T> {
    /// One worker: cubes taken until none is left, each counted by `work`.
    fn worker(
        &self,
        slot: usize,
        work: &(impl Fn(&I, &CubeStop) -> Result<Step<I, T>, SolveError> + Sync),
        progress: &(dyn Fn(u64, CubesDone) + Sync),
    ) {
        while let Some((cube, cube_stop)) = self.take(slot) {
            match work(&cube, &cube_stop) {
                Ok(Step::Split(pieces)) if !pieces.is_empty() => {
                    self.finish(slot, pieces);
                }
                // Nothing to split into: a bug, never a lost cube.
                Ok(Step::Split(_)) => {
                    let e = SolveError::Internal("a cube was split into nothing");
                    return self.fail(slot, e);
                }
                Ok(Step::Done(c, m, end, extra)) => {
                    let (sum, done) = self.counted(cube, c, m, end, extra);
                    let known = self.finish(slot, Vec::new());
                    progress(sum, CubesDone { done, known });
                }
                // Stopped by the caller (a signal, the time limit) while
                // this cube was being loaded: the cube is unfinished, the
                // count so far stands.
                Err(_) if self.stop.is_interrupted() => {
                    self.finish(slot, Vec::new());
                    return;
                }
                Err(e) => return self.fail(slot, e),
            }
        }
    }

    /// The next cube for worker `slot`, with its stop flags; `None` when
    /// the work is over or stopped. While the queue is empty but cubes
    /// run, the worker waits for one to be split (and asks for it).
    fn take(&self, slot: usize) -> Option<(I, CubeStop)> {
        let mut q = self.queue.lock().ok()?;
        loop {
            if self.workers.is_interrupted() {
                return None;
            }
            if self.stop.is_draining() {
                // No cube is started; the last one running to finish,
                // with cubes left, stops the work as an interrupt does.
                if q.running.is_empty() && !q.cubes.is_empty() {
                    self.stop.interrupt();
                }
                return None;
            }
            if let Some(cube) = q.cubes.pop_front() {
                let cube_stop = self.workers.child(None);
                q.running.push(Running {
                    slot,
                    started: Instant::now(),
                    stop: cube_stop.clone(),
                    splittable: self
                        .splitting
                        .as_ref()
                        .is_some_and(|s| (s.can_split)(&cube)),
                    asked: false,
                });
                let stops = CubeStop {
                    cube: cube_stop,
                    workers: self.workers.clone(),
                };
                return Some((cube, stops));
            }
            if q.running.is_empty() {
                return None;
            }
            if let Some(s) = &self.splitting {
                q.ask_to_split(s.budget);
            }
            // Another worker may yet split its cube.
            q = self
                .changed
                .wait_timeout(q, Duration::from_millis(50))
                .ok()?
                .0;
        }
    }

    /// Adds a cube's answer: the weighted count so far and the cubes done.
    fn counted(&self, cube: I, count: u64, models: u64, end: End, extra: T) -> (u64, usize) {
        let sum = self
            .count
            .fetch_add(count, Ordering::SeqCst)
            .saturating_add(count);
        self.models.fetch_add(models, Ordering::SeqCst);
        let finished = if end == End::Exhausted {
            if let Ok(mut list) = self.kept.lock() {
                list.push((cube, extra));
            }
            self.done.fetch_add(1, Ordering::SeqCst) + 1
        } else {
            self.done.load(Ordering::SeqCst)
        };
        (sum, finished)
    }

    /// Worker `slot`'s cube is over; a split replaces it by its `pieces`.
    /// Returns the cubes known after it (0 if the queue's lock was lost).
    fn finish(&self, slot: usize, pieces: Vec<I>) -> usize {
        let mut known = 0;
        if let Ok(mut q) = self.queue.lock() {
            q.running.retain(|r| r.slot != slot);
            q.total += pieces.len().saturating_sub(1);
            q.cubes.extend(pieces);
            known = q.total;
        }
        self.changed.notify_all();
        known
    }

    /// Worker `slot` failed with `e`: the first error stops every worker.
    fn fail(&self, slot: usize, e: SolveError) {
        if let Ok(mut found) = self.failure.lock() {
            found.get_or_insert(e);
        }
        self.workers.interrupt();
        self.finish(slot, Vec::new());
    }

    /// The count, or the first error.
    fn into_result(self, start: Instant) -> Result<(CubeCount, Vec<(I, T)>), SolveError> {
        if let Some(e) = self.failure.into_inner().ok().flatten() {
            return Err(e);
        }
        let cubes_done = self.done.load(Ordering::SeqCst);
        let total = self.queue.into_inner().map_or(cubes_done, |q| q.total);
        let counted = CubeCount {
            count: self.count.load(Ordering::SeqCst),
            models: self.models.load(Ordering::SeqCst),
            cubes_done,
            cubes_total: total,
            end: if cubes_done == total {
                End::Exhausted
            } else {
                End::Stopped
            },
            elapsed: start.elapsed(),
        };
        Ok((counted, self.kept.into_inner().unwrap_or_default()))
    }
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
    progress: &(dyn Fn(u64, CubesDone) + Sync),
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
