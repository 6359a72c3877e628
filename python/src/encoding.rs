//! `boardsat.encode`: a problem's clauses for other SAT tools (PySAT,
//! cnfgen, model counters), the same clauses `boardsat dimacs` writes, and
//! the same problem for other kinds of solvers: OPB, WCNF and LP text as
//! `boardsat dimacs --format` writes it.

use boardsat_encode::{dimacs::Format, Stats};
use boardsat_report::EncodingReport;
use boardsat_solve::{
    error::SolveError,
    stop::Interrupter,
    task::{export::export, Instance},
};
use pyo3::prelude::*;
use rustsat::instances::Cnf;

use crate::{errors::solve_error, json, wait};

/// The clauses of a problem: with ``k`` its CNF, without ``k`` the hard
/// clauses of its optimum as a MaxSAT instance (no counter: the soft
/// clauses of :meth:`to_wcnf` count the pieces).
///
/// Variables are DIMACS numbers: square ``(r, c)`` is variable
/// ``r * cols + c + 1``, so the board variables ``1 .. rows * cols`` come
/// first and auxiliary variables follow. A model's placement is the set of
/// squares whose variable is true; projected on ``board_vars``, models and
/// placements correspond one to one.
///
/// >>> enc = boardsat.encode("queens", 8)
/// >>> from pysat.solvers import Solver
/// >>> with Solver(bootstrap_with=enc.clauses) as s:
/// ...     s.solve()
/// True
#[pyclass(module = "boardsat", name = "Encoding", frozen)]
pub struct PyEncoding {
    instance: Instance,
    cnf: Cnf,
    stats: Stats,
    report: EncodingReport,
    /// The arguments of the equivalent `boardsat dimacs` command.
    command_line: String,
}

impl PyEncoding {
    /// The clauses of `instance` (its CNF with k, its WCNF's hard clauses
    /// without), built as `boardsat dimacs` builds them; `command_line` is
    /// the equivalent command's arguments.
    ///
    /// # Errors
    ///
    /// The encoding's errors, as Python exceptions.
    pub fn new(py: Python<'_>, instance: Instance, command_line: String) -> PyResult<Self> {
        let format = match instance.k {
            Some(_) => Format::Cnf,
            None => Format::Wcnf,
        };
        let stop = Interrupter::new();
        let exported = wait::run(py, &stop, || export(&instance, format, &stop))?
            .map_err(|e| solve_error(&e))?;
        let Some((encoding, cnf)) = exported.into_clauses() else {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "cnf and wcnf are built from clauses",
            ));
        };
        Ok(PyEncoding {
            instance,
            cnf,
            stats: encoding.stats,
            report: EncodingReport::from(&encoding),
            command_line,
        })
    }

    /// The file `format` writes, as text (built again: the same clauses,
    /// or the linear model).
    fn text(&self, py: Python<'_>, format: Format) -> PyResult<String> {
        let command_line = match format {
            Format::Cnf => self.command_line.clone(),
            _ => format!("{} --format {format}", self.command_line),
        };
        let stop = Interrupter::new();
        let instance = self.instance;
        let bytes = wait::run(py, &stop, || -> Result<Vec<u8>, SolveError> {
            let mut out = Vec::new();
            export(&instance, format, &stop)?
                .write(&mut out, Some(&command_line))
                .map_err(|e| SolveError::Caller(Box::new(e)))?;
            Ok(out)
        })?
        .map_err(|e| solve_error(&e))?;
        String::from_utf8(bytes)
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))
    }
}

#[pymethods]
impl PyEncoding {
    /// The clauses as lists of DIMACS literals (a new list on each access:
    /// keep a reference rather than reading it in a loop).
    #[getter]
    fn clauses(&self) -> Vec<Vec<i32>> {
        self.cnf
            .iter()
            .map(|clause| clause.iter().map(|lit| lit.to_ipasir()).collect())
            .collect()
    }

    /// The number of variables, auxiliary ones included (the ``p cnf``
    /// header's count; an auxiliary variable no clause mentions still
    /// counts).
    #[getter]
    fn nvars(&self) -> u32 {
        self.stats.n_vars
    }

    /// The number of clauses.
    #[getter]
    fn nclauses(&self) -> usize {
        self.cnf.len()
    }

    /// The board variables ``1 .. rows * cols``: the projection that turns
    /// models into placements.
    #[getter]
    fn board_vars(&self) -> Vec<u32> {
        (1..=self.stats.n_board_vars).collect()
    }

    /// The bound: exactly ``k`` pieces (independence) or at most ``k``
    /// (domination); ``None`` for the optimum.
    #[getter]
    fn k(&self) -> Option<usize> {
        self.instance.k
    }

    /// The problem and the encoding's sizes and choices: the keys of
    /// ``boardsat dimacs --json`` (``problem``, ``rows``, ``cols``,
    /// ``piece``, ``amo``, ``card``, ``formulation``, ``vars``,
    /// ``aux_vars``, ``clauses``, ``lits``).
    #[getter]
    fn stats(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        json::to_python(py, &self.report)
    }

    /// The CNF as DIMACS text, as ``boardsat dimacs`` writes it: the
    /// provenance comments (generator, the equivalent command line, the
    /// encodings), the projection lines ``c p show`` and ``c ind`` on the
    /// board variables, the ``p cnf`` header and the clauses. Needs ``k``.
    fn to_dimacs(&self, py: Python<'_>) -> PyResult<String> {
        self.text(py, Format::Cnf)
    }

    /// The optimum as a MaxSAT instance in the WCNF format of the MaxSAT
    /// evaluations from 2022 on, as ``boardsat dimacs --format wcnf``
    /// writes it: these clauses as hard clauses (``h``), one soft unit
    /// clause per square (``¬x`` for domination, ``x`` for independence).
    /// Only without ``k``.
    fn to_wcnf(&self, py: Python<'_>) -> PyResult<String> {
        self.text(py, Format::Wcnf)
    }

    /// The problem as a pseudo-Boolean program in OPB, as ``boardsat
    /// dimacs --format opb`` writes it: the linear constraints over the
    /// board variables (no auxiliaries), with ``k`` the count, without it
    /// the objective ``min:``.
    fn to_opb(&self, py: Python<'_>) -> PyResult<String> {
        self.text(py, Format::Opb)
    }

    /// The problem as an integer program in CPLEX LP, as ``boardsat dimacs
    /// --format lp`` writes it: named rows over the binaries ``x1 .. xN``.
    fn to_lp(&self, py: Python<'_>) -> PyResult<String> {
        self.text(py, Format::Lp)
    }

    fn __len__(&self) -> usize {
        self.cnf.len()
    }

    fn __repr__(&self) -> String {
        let (s, r) = (self.stats, &self.report);
        let k = self
            .instance
            .k
            .map_or_else(|| "None".to_string(), |k| k.to_string());
        format!(
            "<boardsat.Encoding {} {} on {}x{}, k={k}: {} vars ({} board), {} clauses>",
            r.problem, r.piece, r.rows, r.cols, s.n_vars, s.n_board_vars, s.n_clauses
        )
    }
}
