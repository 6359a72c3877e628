//! The jobs a user asks for — one placement or the optimum, a count, an
//! enumeration — each as one call that picks the machinery: a fixed bound
//! or the optimiser, cubes over threads for N-queens counts, "find the
//! optimum, then count the optimal placements". The command line, the
//! benchmark and the Python package all call these, so they do the same
//! thing.

use std::time::{Duration, Instant};

use boardsat_encode::{
    Amo, Bound, Card, Config, Encoding, Formulation, Placement, Problem, Request,
};
use rustsat::instances::Cnf;

use crate::{
    cubes::{count_queens, CubeOptions, Reduction},
    optimise_portfolio, optimise_split, optimise_with, Breaking, Count, End, Interrupter, Mode,
    Optimum, Progress, Search, Session, Solutions, SolveError, SolverSpec, Status, Strategy,
};

/// A problem with its bound and encodings: what a task runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The problem.
    pub problem: Problem,
    /// Exactly k pieces (independence) or at most k (domination); `None`
    /// asks for the optimum.
    pub k: Option<usize>,
    /// The encodings.
    pub config: Config,
}

impl Instance {
    /// The instance `request` describes with these encodings, its size
    /// checked ([`boardsat_encode::estimate::check_fits`]) unless `force`.
    /// An `amo` of `None` is boardsat's choice: [`crate::default_amo`] for
    /// the problem solved by `solver` ([`Amo::Lazy`] for N-queens with
    /// CaDiCaL), and [`Amo::Auto`] without a solver (the clauses alone, as
    /// DIMACS needs them).
    ///
    /// # Errors
    ///
    /// A request that contradicts itself; an encoding estimated too large;
    /// [`SolveError::NoPropagator`] for lines left to a propagator that
    /// `solver` does not have (before any work, not after the first
    /// encoding).
    pub fn new(
        request: &Request,
        amo: Option<Amo>,
        card: Card,
        formulation: Formulation,
        solver: Option<&SolverSpec>,
        force: bool,
    ) -> Result<Instance, SolveError> {
        let (problem, k) = request.problem()?;
        let amo = amo.unwrap_or_else(|| {
            solver.map_or(Amo::Auto, |s| {
                crate::default_amo(&problem, k, formulation, s.kind)
            })
        });
        let config = Config {
            amo,
            card,
            formulation,
        };
        let propagates = solver.is_none_or(|s| s.kind == crate::SolverKind::Cadical);
        let lazy = problem.lazy_lines(amo, formulation);
        if let (false, Some(s)) = (propagates || lazy.is_none_or(|l| l.is_empty()), solver) {
            return Err(SolveError::NoPropagator {
                backend: s.signature(),
            });
        }
        let (problem, k) = request.checked_problem(config, force)?;
        Ok(Instance { problem, k, config })
    }

    /// Whether this is N-queens: n queens on an n × n board, the problem
    /// the cube-and-conquer count splits.
    #[must_use]
    pub fn is_n_queens(&self) -> bool {
        let p = &self.problem;
        p.kind == boardsat_encode::Kind::Independence
            && p.piece == boardsat_encode::Piece::Queen
            && p.board.is_square()
            && self.k == Some(p.board.rows())
    }

    /// Whether a count of this instance (without a limit) is split into
    /// cubes over threads: N-queens ([`crate::cubes`]), and domination
    /// ([`crate::domination`]; not with a proof, which counts on one
    /// solver).
    #[must_use]
    pub fn splits(&self) -> bool {
        self.is_n_queens() || self.problem.kind.dominating()
    }
}

/// What [`solve`] found.
#[derive(Debug)]
pub struct Solved {
    /// [`Status::Sat`]: a placement (and, for an optimum, its proof);
    /// [`Status::Unsat`]: no placement with k pieces exists (proven);
    /// [`Status::Unknown`]: the solver stopped first — a placement may
    /// still be there (the best found), but nothing is proven.
    pub status: Status,
    /// The checked placement, if any.
    pub placement: Option<Placement>,
    /// The optimiser's account, when no k was given.
    pub optimum: Option<Optimum>,
    /// The encoding (sizes, the effective formulation).
    pub encoding: Encoding,
    /// Solver calls, those on fresh solvers included.
    pub calls: u64,
    /// With a portfolio: the two cardinality encodings that raced.
    pub portfolio: Option<[Card; 2]>,
    /// Wall time.
    pub elapsed: Duration,
}

impl Solved {
    /// Whether the result rests on an UNSAT answer: no placement with k
    /// pieces, or the bound one step past a proven optimum.
    #[must_use]
    pub fn rests_on_unsat(&self) -> bool {
        self.status == Status::Unsat || self.optimum.as_ref().is_some_and(|o| o.proof().is_some())
    }
}

/// One placement with k pieces, or without k the optimum with the solver's
/// proof ([`Strategy::fastest`]); with `portfolio`, the optimum by two
/// cardinality encodings racing on two threads. A dominating problem with
/// k is decided by [`crate::domination::decide_race`] over every core.
///
/// # Errors
///
/// Backend and encoding errors; wrong placements.
pub fn solve(
    instance: &Instance,
    solver: &SolverSpec,
    portfolio: bool,
    stop: &Interrupter,
    observe: &(dyn Fn(Bound) + Sync),
) -> Result<Solved, SolveError> {
    let start = Instant::now();
    let Instance { problem, k, config } = *instance;
    if let Some(k) = k.filter(|_| problem.kind.dominating()) {
        // A bound of unknown status: cube-and-conquer raced against a
        // model search, as the optimiser's theorem start.
        let options =
            crate::domination::SplitOptions::decision(k, CubeOptions::default().threads, true);
        let (status, placement) =
            crate::domination::decide_race(&problem, config, options, solver, stop)?;
        let mut vars = problem.var_manager();
        let encoding = problem.encode(k, config, &mut Cnf::new(), &mut vars)?;
        return Ok(Solved {
            status,
            placement,
            optimum: None,
            calls: 1,
            encoding,
            portfolio: None,
            elapsed: start.elapsed(),
        });
    }
    if let Some(k) = k {
        let backend = solver.create(Mode::Decide, stop)?;
        let mut session = Session::fixed(&problem, k, config, backend)?;
        let (status, placement) = session.solve(Mode::Decide)?;
        return Ok(Solved {
            status,
            placement,
            optimum: None,
            calls: session.calls(),
            encoding: session.into_encoding(),
            portfolio: None,
            elapsed: start.elapsed(),
        });
    }
    let strategy = Strategy::fastest(&problem);
    let (optimum, encoding, raced) = if portfolio {
        let second = Config {
            card: if config.card == Card::SequentialCounter {
                Card::Totalizer
            } else {
                Card::SequentialCounter
            },
            ..config
        };
        let won = optimise_portfolio(&problem, &[config, second], solver, strategy, stop, observe)?;
        (won.optimum, won.encoding, Some([config.card, second.card]))
    } else {
        let threads = CubeOptions::default().threads;
        let (optimum, session) =
            optimise_split(&problem, config, solver, threads, strategy, stop, observe)?;
        (optimum, session.into_encoding(), None)
    };
    Ok(Solved {
        status: if optimum.proven {
            Status::Sat
        } else {
            Status::Unknown
        },
        placement: Some(optimum.witness.clone()),
        calls: optimum.calls.len() as u64,
        optimum: Some(optimum),
        encoding,
        portfolio: raced,
        elapsed: start.elapsed(),
    })
}

/// How [`count`] counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountOptions {
    /// Stop after this many models.
    pub limit: Option<u64>,
    /// How N-queens counts (without a limit) are split over threads.
    pub cubes: CubeOptions,
    /// Keep the placements counted ([`Counted::placements`]), for a proof
    /// that the count is complete.
    pub record: bool,
}

/// The N-queens count options as a user gives them (the command line's
/// `--unique`, `--depth`, `--threads`, `--no-symmetry`, `--halve`; the
/// Python keywords of the same names), before [`CubeFlags::options`]
/// checks that they apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CubeFlags {
    /// Report the fundamental solutions (needs symmetry breaking).
    pub unique: bool,
    /// Rows fixed per cube (default 2).
    pub depth: Option<usize>,
    /// Worker threads (default: every core).
    pub threads: Option<usize>,
    /// Count every placement, without lex-leader symmetry breaking.
    pub no_symmetry: bool,
    /// Mirror halving instead of symmetry breaking.
    pub halve: bool,
}

impl CubeFlags {
    /// The cube options of a count of `instance` with `limit`: a flag that
    /// is given must apply, and the reductions must agree. `--unique` and
    /// `--no-symmetry` apply to every count without a limit (each keeps
    /// one placement per orbit of the board's symmetries unless told not
    /// to: every piece attacks alike from symmetric squares);
    /// `--depth`, `--threads` and `--halve` to the counts split into cubes
    /// ([`Instance::splits`]).
    ///
    /// # Errors
    ///
    /// [`SolveError::Unsupported`], naming the flag.
    pub fn options(
        &self,
        instance: &Instance,
        limit: Option<u64>,
    ) -> Result<CubeOptions, SolveError> {
        self.options_for(instance, limit, false)
    }

    /// [`CubeFlags::options`] for a count that is `proven` (recorded for
    /// a proof): domination then counts on one solver, so `--depth` and
    /// `--threads` do not apply.
    ///
    /// # Errors
    ///
    /// [`SolveError::Unsupported`], naming the flag.
    pub fn options_for(
        &self,
        instance: &Instance,
        limit: Option<u64>,
        proven: bool,
    ) -> Result<CubeOptions, SolveError> {
        let cubes = instance.splits() && limit.is_none();
        if proven && !instance.is_n_queens() && (self.depth.is_some() || self.threads.is_some()) {
            return Err(SolveError::Unsupported(
                "with --proof, domination counts run on one solver (claims per cube are for 'count queens N'): drop --depth and --threads".to_string(),
            ));
        }
        let split = [
            ("--depth", self.depth.is_some()),
            ("--threads", self.threads.is_some()),
        ];
        if let Some((flag, _)) = split.iter().find(|(_, set)| *set).filter(|_| !cubes) {
            return Err(SolveError::Unsupported(format!(
                "{flag} applies to 'count queens N' and 'count domination N' without --limit"
            )));
        }
        if self.halve && !(instance.is_n_queens() && limit.is_none()) {
            return Err(SolveError::Unsupported(
                "--halve applies to 'count queens N' without --limit".to_string(),
            ));
        }
        let orbits = [
            ("--unique", self.unique),
            ("--no-symmetry", self.no_symmetry),
        ];
        if let Some((flag, _)) = orbits
            .iter()
            .find(|(_, set)| *set)
            .filter(|_| limit.is_some())
        {
            return Err(SolveError::Unsupported(format!(
                "{flag} applies to counts without --limit"
            )));
        }
        if self.unique && (self.no_symmetry || self.halve) {
            return Err(SolveError::Unsupported(
                "--unique counts orbits, which needs symmetry breaking: drop --no-symmetry and --halve"
                    .to_string(),
            ));
        }
        let reduction = match (self.no_symmetry, self.halve) {
            (true, _) => Reduction::None,
            (false, true) => Reduction::Halve,
            (false, false) => Reduction::Symmetry,
        };
        let depth = self.depth.unwrap_or(if instance.is_n_queens() {
            2
        } else {
            crate::domination::DEFAULT_DEPTH
        });
        Ok(CubeOptions::with(Some(depth), self.threads, reduction))
    }
}

/// The cubes of an N-queens count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeReport {
    /// How the count was split.
    pub options: CubeOptions,
    /// Cubes counted to the end.
    pub done: usize,
    /// Cubes in all.
    pub total: usize,
}

/// What [`count`] found.
#[derive(Debug)]
pub struct Counted {
    /// The count and how it ended (its `elapsed`: the counting alone);
    /// [`End::Stopped`] with no models when the optimum itself was not
    /// proven.
    pub count: Count,
    /// Without k: the optimum whose placements were counted.
    pub optimum: Option<Optimum>,
    /// The encoding.
    pub encoding: Encoding,
    /// Solver calls of the count (cube counts: none recorded).
    pub calls: u64,
    /// For N-queens counts: the cubes.
    pub cubes: Option<CubeReport>,
    /// Wall time of the whole task (the optimum included).
    pub elapsed: Duration,
    /// With [`CountOptions::record`]: the placements counted, one group
    /// per cube for cube counts (a single group, without a cube, otherwise).
    pub placements: Vec<(Option<crate::cubes::Cube>, Vec<Placement>)>,
    /// Whether the count blocked placements with the short clause.
    pub uniform: bool,
    /// Whether the count kept one placement per orbit (lex-leader
    /// constraints, orbit weights).
    pub symmetry: bool,
    /// With `symmetry`: the placements counted up to the board's
    /// symmetries (the orbits; `boardsat count --unique`, the JSON's
    /// `fundamental`).
    pub fundamental: Option<u64>,
}

/// Counts the placements with k pieces, or without k the optimal ones
/// (the optimum first, with its proof). N-queens without a limit is split
/// into cubes over threads ([`crate::cubes`]). Without a limit, and
/// without k always, the count runs one placement per orbit of the board's
/// symmetries with orbit weights, unless the reduction of
/// [`CountOptions::cubes`] is [`Reduction::None`]. `progress` sees the
/// count so far (and, for cubes, the cubes done).
///
/// # Errors
///
/// Backend and encoding errors; wrong placements.
pub fn count(
    instance: &Instance,
    solver: &SolverSpec,
    options: CountOptions,
    stop: &Interrupter,
    progress: &(dyn Fn(&Progress, Option<usize>) + Sync),
) -> Result<Counted, SolveError> {
    let start = Instant::now();
    let Instance { problem, k, config } = *instance;
    if instance.is_n_queens() && options.limit.is_none() {
        let n = problem.board.rows();
        let encoding =
            problem.encode_lazy(n, config, &mut Cnf::new(), &mut problem.var_manager())?;
        let cube_options = CubeOptions {
            record: options.record,
            ..options.cubes
        };
        let mut counted = count_queens(n, config, cube_options, solver, stop, &|total, done| {
            progress(
                &Progress {
                    count: total,
                    elapsed: start.elapsed(),
                },
                Some(done),
            );
        })?;
        return Ok(Counted {
            count: Count {
                count: counted.count,
                models: counted.models,
                end: counted.end,
                elapsed: counted.elapsed,
            },
            optimum: None,
            encoding,
            calls: 0,
            cubes: Some(CubeReport {
                options: options.cubes,
                done: counted.cubes_done,
                total: counted.cubes_total,
            }),
            elapsed: start.elapsed(),
            placements: std::mem::take(&mut counted.placements)
                .into_iter()
                .map(|(cube, list)| (Some(cube), list))
                .collect(),
            uniform: true,
            symmetry: options.cubes.reduction == Reduction::Symmetry,
            fundamental: (options.cubes.reduction == Reduction::Symmetry).then_some(counted.models),
        });
    }
    if problem.kind.dominating() && options.limit.is_none() && !options.record {
        return count_domination(instance, solver, options.cubes, stop, progress, start);
    }
    let backend = solver.create(Mode::Enumerate, stop)?;
    let report = |p: &Progress| progress(p, None);
    let orbits = options.cubes.reduction == Reduction::Symmetry;
    let (optimum, count, session) = match k {
        Some(k) => {
            let mut session = Session::fixed(&problem, k, config, backend)?;
            // A count to a limit counts placements, not orbits.
            if orbits && options.limit.is_none() {
                session.break_symmetry(Breaking::Hard)?;
            }
            if options.record {
                session.record_blocked();
            }
            let count = session.count(options.limit, Search::PerModel, report)?;
            (None, Some(count), session)
        }
        None => {
            let (optimum, count, session) = optimum_then_count_with(
                &problem,
                config,
                backend,
                (options.limit, options.record, orbits),
                report,
            )?;
            (Some(optimum), count, session)
        }
    };
    let placements = if options.record {
        vec![(None, session.blocked().to_vec())]
    } else {
        Vec::new()
    };
    let (uniform, symmetry) = (session.uniform(), session.symmetry_broken());
    let fundamental = count.as_ref().filter(|_| symmetry).map(|c| c.models);
    Ok(Counted {
        // An optimum that was not proven: its placements were not counted.
        count: count.unwrap_or(Count {
            count: 0,
            models: 0,
            end: End::Stopped,
            elapsed: Duration::ZERO,
        }),
        calls: session.calls() + optimum.as_ref().map_or(0, |o| o.calls.len() as u64),
        optimum,
        encoding: session.into_encoding(),
        cubes: None,
        elapsed: start.elapsed(),
        placements,
        uniform,
        symmetry,
        fundamental,
    })
}

/// [`count`] of a domination problem without a limit or a record: the
/// optimum first when k is not given (on a solver of its own, with its
/// proof), then the placements over the line cubes of
/// [`crate::domination`].
fn count_domination(
    instance: &Instance,
    solver: &SolverSpec,
    cubes: CubeOptions,
    stop: &Interrupter,
    progress: &(dyn Fn(&Progress, Option<usize>) + Sync),
    start: Instant,
) -> Result<Counted, SolveError> {
    let Instance { problem, k, config } = *instance;
    let (optimum, k, calls) = match k {
        Some(k) => (None, k, 0),
        None => {
            let strategy = Strategy::fastest(&problem);
            let (optimum, _) = optimise_split(
                &problem,
                config,
                solver,
                cubes.threads,
                strategy,
                stop,
                &|_| {},
            )?;
            let (value, calls) = (optimum.value, optimum.calls.len() as u64);
            (Some(optimum), value, calls)
        }
    };
    let encoding = problem.encode(k, config, &mut Cnf::new(), &mut problem.var_manager())?;
    let symmetry = cubes.reduction == Reduction::Symmetry;
    let report = |counted: Option<crate::cubes::CubeCount>, encoding: Encoding| Counted {
        count: counted.as_ref().map_or(
            Count {
                count: 0,
                models: 0,
                end: End::Stopped,
                elapsed: Duration::ZERO,
            },
            |c| Count {
                count: c.count,
                models: c.models,
                end: c.end,
                elapsed: c.elapsed,
            },
        ),
        optimum: None,
        encoding,
        calls,
        cubes: counted.as_ref().map(|c| CubeReport {
            options: cubes,
            done: c.cubes_done,
            total: c.cubes_total,
        }),
        elapsed: start.elapsed(),
        placements: Vec::new(),
        uniform: instance.k.is_none(),
        symmetry,
        fundamental: counted.as_ref().filter(|_| symmetry).map(|c| c.models),
    };
    if optimum.as_ref().is_some_and(|o| !o.proven) {
        // An optimum that was not proven: its placements are not counted.
        return Ok(Counted {
            optimum,
            ..report(None, encoding)
        });
    }
    let options = crate::domination::SplitOptions {
        k,
        uniform: instance.k.is_none(),
        depth: cubes.depth,
        threads: cubes.threads,
        symmetry: symmetry.then_some(crate::domination::LexOrder::LinesFirst),
        cube_orbits: true,
    };
    let counted =
        crate::domination::count_split(&problem, config, options, solver, stop, &|total, done| {
            progress(
                &Progress {
                    count: total,
                    elapsed: start.elapsed(),
                },
                Some(done),
            );
        })?;
    Ok(Counted {
        optimum,
        elapsed: start.elapsed(),
        ..report(Some(counted), encoding)
    })
}

/// A session ready to list every placement (see [`enumerate`]).
#[derive(Debug)]
pub struct Enumeration {
    session: Session,
    optimum: Option<Optimum>,
}

impl Enumeration {
    /// Without k: the optimum whose placements are listed (when it is not
    /// proven, nothing is listed).
    #[must_use]
    pub fn optimum(&self) -> Option<&Optimum> {
        self.optimum.as_ref()
    }

    /// Whether the placements can be listed: with k always, without k when
    /// the optimum was proven.
    #[must_use]
    pub fn ready(&self) -> bool {
        self.optimum.as_ref().is_none_or(|o| o.proven)
    }

    /// The placements, at most `limit` of them, each checked; nothing when
    /// not [`Enumeration::ready`].
    pub fn solutions(&mut self, limit: Option<u64>) -> Solutions<'_> {
        let limit = if self.ready() { limit } else { Some(0) };
        self.session.solutions(limit)
    }

    /// The session (sizes, calls, the placements blocked when recorded).
    #[must_use]
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Lists the placements, at most `limit`, each to `each` as soon as it
    /// is found (an error of `each`, such as a closed output, ends the
    /// listing with that error). Returns how the listing ended and how many
    /// were listed; a solver that stops ends it as [`End::Stopped`], and
    /// nothing is listed without a proven optimum.
    ///
    /// # Errors
    ///
    /// Solver errors (unless the solver was being stopped, which ends the
    /// listing as stopped); `each`'s errors.
    pub fn list<E: From<SolveError>>(
        &mut self,
        limit: Option<u64>,
        stop: &Interrupter,
        mut each: impl FnMut(Placement) -> Result<(), E>,
    ) -> Result<(End, u64), E> {
        let ready = self.ready();
        let mut found = 0;
        let mut solutions = self.solutions(limit);
        for result in solutions.by_ref() {
            match result {
                Ok(placement) => {
                    found += 1;
                    each(placement)?;
                }
                Err(SolveError::Stopped { .. }) => break,
                Err(_) if stop.is_interrupted() => break,
                Err(e) => return Err(e.into()),
            }
        }
        let end = solutions.end().filter(|_| ready).unwrap_or(End::Stopped);
        Ok((end, found))
    }

    /// Keeps every placement listed from now on, for a proof that the
    /// listing is complete ([`crate::proof::prove_listed`]).
    pub fn record(&mut self) {
        self.session.record_blocked();
    }
}

/// Prepares the listing of every placement with k pieces, or without k of
/// every optimal one (after the optimum and its proof, without symmetry
/// breaking, so that every placement is seen).
///
/// # Errors
///
/// Backend and encoding errors; wrong placements.
pub fn enumerate(
    instance: &Instance,
    solver: &SolverSpec,
    stop: &Interrupter,
) -> Result<Enumeration, SolveError> {
    let Instance { problem, k, config } = *instance;
    let backend = solver.create(Mode::Enumerate, stop)?;
    Ok(match k {
        Some(k) => Enumeration {
            session: Session::fixed(&problem, k, config, backend)?,
            optimum: None,
        },
        None => {
            let (optimum, session) = optimise_with(&problem, config, backend, Strategy::default())?;
            Enumeration {
                session,
                optimum: Some(optimum),
            }
        }
    })
}

/// The optimum ([`Strategy::fastest`], with its proof), then — when it is
/// proven — the count of the optimal placements on the same session, one
/// placement per orbit with orbit weights: what `boardsat count` does
/// without k, and what the benchmark's count cells time. `backend` should
/// be tuned for enumeration; with `record` the session keeps the
/// placements counted.
///
/// # Errors
///
/// As [`optimise_with`] and [`Session::count`].
pub fn optimum_then_count(
    problem: &Problem,
    config: Config,
    backend: Box<dyn crate::Backend>,
    limit: Option<u64>,
    record: bool,
    progress: impl FnMut(&Progress),
) -> Result<(Optimum, Option<Count>, Session), SolveError> {
    optimum_then_count_with(problem, config, backend, (limit, record, true), progress)
}

/// [`optimum_then_count`] with (limit, record, orbits): without `orbits`
/// the count sees every placement (no symmetry breaking).
fn optimum_then_count_with(
    problem: &Problem,
    config: Config,
    backend: Box<dyn crate::Backend>,
    (limit, record, orbits): (Option<u64>, bool, bool),
    progress: impl FnMut(&Progress),
) -> Result<(Optimum, Option<Count>, Session), SolveError> {
    let (optimum, mut session) =
        optimise_with(problem, config, backend, Strategy::fastest(problem))?;
    if !orbits {
        session.set_symmetry(false);
    }
    if record {
        session.record_blocked();
    }
    let counted = if optimum.proven {
        Some(session.count(limit, Search::PerModel, progress)?)
    } else {
        None
    };
    Ok((optimum, counted, session))
}
