//! Run-time choice of backend: which solver, and how to build one.

use crate::{
    backend::{external::External, varisat::Varisat, Backend, Mode},
    error::{Inapplicable, SolveError},
    stop::Interrupter,
};

boardsat_encode::name_table! {
    /// Which backend to run.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum SolverKind {
        /// varisat, pure Rust, always built.
        Varisat = "varisat",
        /// CaDiCaL, embedded (feature `cadical`).
        Cadical = "cadical",
        /// Any DIMACS solver binary, run through files.
        External = "external",
    }
    parse_error: UnknownSolver = |name: &str| UnknownSolver(name.to_string());
}

impl SolverKind {
    /// The embedded backends of this build.
    #[must_use]
    pub fn embedded() -> Vec<SolverKind> {
        let mut out = vec![SolverKind::Varisat];
        if cfg!(feature = "cadical") {
            out.push(SolverKind::Cadical);
        }
        out
    }

    /// The default: the fastest embedded backend of this build (CaDiCaL
    /// when built in; BENCHMARKS.md backs the choice).
    #[must_use]
    pub fn default_embedded() -> SolverKind {
        if cfg!(feature = "cadical") {
            SolverKind::Cadical
        } else {
            SolverKind::Varisat
        }
    }

    /// Whether this build has the backend.
    #[must_use]
    pub fn is_built(self) -> bool {
        self != SolverKind::Cadical || cfg!(feature = "cadical")
    }

    /// Whether solvers of this kind propagate the lines the lazy AMO
    /// leaves out of the clauses ([`crate::backend::propagator`]): the
    /// one answer, which every caller asks here (a backend built says the
    /// same through [`crate::backend::Backend::propagate_lines`]).
    #[must_use]
    pub const fn propagates_lines(self) -> bool {
        match self {
            SolverKind::Cadical => cfg!(feature = "cadical"),
            SolverKind::Varisat | SolverKind::External => false,
        }
    }

    /// A new solver of this kind with its defaults, tuned for deciding, with
    /// a stop flag of its own: shorthand for [`SolverSpec::create`].
    ///
    /// # Errors
    ///
    /// As [`SolverSpec::create`] (an external solver needs a command: use
    /// [`SolverSpec::external`]).
    pub fn create(self) -> Result<Box<dyn Backend>, SolveError> {
        SolverSpec::new(self).create(Mode::Decide, &Interrupter::new())
    }
}

/// Everything needed to build a solver, owned, so that one spec can build
/// the solvers of many threads (cube workers, a portfolio).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverSpec {
    /// The backend.
    pub kind: SolverKind,
    /// The command line of an external solver.
    pub command: Option<String>,
    /// A random seed (CaDiCaL's `seed` option).
    pub seed: Option<i32>,
}

impl Default for SolverSpec {
    fn default() -> Self {
        SolverSpec::new(SolverKind::default_embedded())
    }
}

impl SolverSpec {
    /// A spec for `kind` without command or seed.
    #[must_use]
    pub const fn new(kind: SolverKind) -> Self {
        SolverSpec {
            kind,
            command: None,
            seed: None,
        }
    }

    /// The spec users ask for: `kind` if named, else an external solver
    /// when a command is given, else the default embedded one; checked
    /// ([`SolverSpec::validate`]).
    ///
    /// # Errors
    ///
    /// As [`SolverSpec::validate`].
    pub fn choose(
        kind: Option<SolverKind>,
        command: Option<String>,
        seed: Option<i32>,
    ) -> Result<Self, SolveError> {
        let kind = match (kind, &command) {
            (Some(k), _) => k,
            (None, Some(_)) => SolverKind::External,
            (None, None) => SolverKind::default_embedded(),
        };
        let spec = SolverSpec {
            kind,
            command,
            seed,
        };
        spec.validate()?;
        Ok(spec)
    }

    /// An external solver run as `command`.
    #[must_use]
    pub fn external(command: &str) -> Self {
        SolverSpec {
            command: Some(command.to_string()),
            ..SolverSpec::new(SolverKind::External)
        }
    }

    /// Checks that the spec can build a solver: the backend is built in, an
    /// external solver has a command, and only CaDiCaL gets a seed.
    ///
    /// # Errors
    ///
    /// [`SolveError::Unavailable`], [`SolveError::MissingCommand`],
    /// [`SolveError::Inapplicable`].
    pub fn validate(&self) -> Result<(), SolveError> {
        match self.kind {
            SolverKind::Cadical if !cfg!(feature = "cadical") => {
                Err(SolveError::Unavailable("cadical"))
            }
            SolverKind::External if self.command.is_none() => Err(SolveError::MissingCommand),
            SolverKind::Varisat | SolverKind::External if self.seed.is_some() => Err(
                SolveError::Inapplicable(Inapplicable::Seed(self.kind.to_string())),
            ),
            _ if self.command.is_some() && self.kind != SolverKind::External => {
                Err(SolveError::Inapplicable(Inapplicable::SolverCommand))
            }
            _ => Ok(()),
        }
    }

    /// A new solver tuned for `mode` that obeys `stop` (its interrupts and
    /// its deadline).
    ///
    /// # Errors
    ///
    /// As [`SolverSpec::validate`]; an external solver's program not found.
    pub fn create(&self, mode: Mode, stop: &Interrupter) -> Result<Box<dyn Backend>, SolveError> {
        self.validate()?;
        let mut backend: Box<dyn Backend> = match self.kind {
            SolverKind::Varisat => Box::new(Varisat::new()),
            #[cfg(feature = "cadical")]
            SolverKind::Cadical => {
                let mut solver = crate::backend::cadical::Cadical::with_mode(mode);
                if let Some(seed) = self.seed {
                    solver.set_option("seed", seed)?;
                }
                Box::new(solver)
            }
            #[cfg(not(feature = "cadical"))]
            SolverKind::Cadical => return Err(SolveError::Unavailable("cadical")),
            SolverKind::External => {
                let command = self.command.as_deref().ok_or(SolveError::MissingCommand)?;
                Box::new(External::new(command)?)
            }
        };
        let _ = mode;
        obey(backend.as_mut(), stop);
        Ok(backend)
    }

    /// The signature of the solvers this spec builds (`CaDiCaL 3.0.1`,
    /// `external: minisat`), without building one.
    #[must_use]
    pub fn signature(&self) -> String {
        match self.kind {
            SolverKind::Varisat => crate::backend::varisat::signature(),
            #[cfg(feature = "cadical")]
            SolverKind::Cadical => crate::backend::cadical::signature(),
            #[cfg(not(feature = "cadical"))]
            SolverKind::Cadical => "cadical (not built in)".to_string(),
            SolverKind::External => {
                format!("external: {}", self.command.as_deref().unwrap_or("").trim())
            }
        }
    }
}

/// Makes `backend` obey `stop`: through its interrupt capability, or, for a
/// backend without one, through a per-call time limit of the time left.
pub(crate) fn obey(backend: &mut dyn Backend, stop: &Interrupter) {
    if let Some(i) = backend.interrupt() {
        i.use_interrupter(stop.clone());
    } else if let (Some(t), Some(left)) = (backend.time_limit(), stop.remaining()) {
        t.set_time_limit(Some(left));
    }
}

/// An unknown backend name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown solver '{0}' (expected one of: varisat, cadical, external)")]
pub struct UnknownSolver(pub String);
