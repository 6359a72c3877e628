//! Run-time choice of backend.

use std::{fmt, str::FromStr};

use crate::{Backend, External, SolveError, Varisat};

/// Which backend to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolverKind {
    /// varisat, pure Rust, always built.
    Varisat,
    /// CaDiCaL, embedded (feature `cadical`).
    Cadical,
    /// Any DIMACS solver binary, run through files.
    External,
}

impl SolverKind {
    /// Every kind, built in or not.
    pub const ALL: [SolverKind; 3] = [
        SolverKind::Varisat,
        SolverKind::Cadical,
        SolverKind::External,
    ];

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
    /// when built in; the benchmarks in BENCHMARKS.md back the choice).
    #[must_use]
    pub fn default_embedded() -> SolverKind {
        if cfg!(feature = "cadical") {
            SolverKind::Cadical
        } else {
            SolverKind::Varisat
        }
    }

    /// Lower-case name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            SolverKind::Varisat => "varisat",
            SolverKind::Cadical => "cadical",
            SolverKind::External => "external",
        }
    }

    /// A new solver of this kind; `command` is the solver command line for
    /// [`SolverKind::External`] (ignored otherwise).
    ///
    /// # Errors
    ///
    /// [`SolveError::Unavailable`] for a backend this build lacks,
    /// [`SolveError::MissingCommand`] for an external solver without command.
    pub fn create(self, command: Option<&str>) -> Result<Box<dyn Backend>, SolveError> {
        self.create_with(&Options {
            command,
            ..Options::default()
        })
    }

    /// A new solver of this kind with `options`.
    ///
    /// # Errors
    ///
    /// As [`SolverKind::create`].
    pub fn create_with(self, options: &Options<'_>) -> Result<Box<dyn Backend>, SolveError> {
        match self {
            SolverKind::Varisat => Ok(Box::new(Varisat::new())),
            #[cfg(feature = "cadical")]
            SolverKind::Cadical => {
                let mut solver = match options.profile {
                    Profile::Single => crate::Cadical::new(),
                    Profile::Enumerate => crate::Cadical::for_enumeration(),
                };
                if let Some(seed) = options.seed {
                    solver.set_option("seed", seed);
                }
                Ok(Box::new(solver))
            }
            #[cfg(not(feature = "cadical"))]
            SolverKind::Cadical => Err(SolveError::Unavailable("cadical")),
            SolverKind::External => {
                let command = options.command.ok_or(SolveError::MissingCommand)?;
                Ok(Box::new(External::new(command)?))
            }
        }
    }
}

/// What a solver will mostly be asked to do; backends with options tune
/// themselves for it (only CaDiCaL has any here).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Profile {
    /// A few hard calls: one solution, an optimum and its proof.
    #[default]
    Single,
    /// Many short incremental calls: enumeration by blocking clauses.
    Enumerate,
}

/// How to build a backend.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options<'a> {
    /// The command line of an external solver.
    pub command: Option<&'a str>,
    /// A random seed, for the backends that take one (CaDiCaL's `seed`
    /// option; varisat and external solvers ignore it).
    pub seed: Option<i32>,
    /// The workload to tune for.
    pub profile: Profile,
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown backend name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown solver '{0}' (expected one of: varisat, cadical, external)")]
pub struct UnknownSolver(pub String);

impl FromStr for SolverKind {
    type Err = UnknownSolver;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SolverKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownSolver(s.to_string()))
    }
}
