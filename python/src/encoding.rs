//! `boardsat.encode`: a problem's CNF for other SAT tools (PySAT, cnfgen,
//! model counters), the same clauses `boardsat dimacs` writes.

use boardsat_encode::{dimacs, Encoding as Built, Stats};
use boardsat_solve::report::EncodingReport;
use pyo3::prelude::*;
use rustsat::instances::Cnf;

use crate::json;

/// The CNF of a problem with a fixed number of pieces.
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
pub struct Encoding {
    cnf: Cnf,
    k: usize,
    stats: Stats,
    report: EncodingReport,
    // The provenance, made at once: the encoding itself (which may hold a
    // counter for later bounds) is not shared with Python.
    header: dimacs::Header,
}

impl Encoding {
    /// The clauses `cnf` of `encoding`, made by `command_line` (as
    /// `boardsat dimacs`).
    pub fn new(encoding: &Built, cnf: Cnf, k: usize, command_line: &str) -> Self {
        Encoding {
            cnf,
            k,
            stats: encoding.stats,
            report: EncodingReport::from(encoding),
            header: dimacs::Header::for_encoding(encoding, Some(command_line)),
        }
    }
}

#[pymethods]
impl Encoding {
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
    /// (domination).
    #[getter]
    fn k(&self) -> usize {
        self.k
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
    /// board variables, the ``p cnf`` header and the clauses.
    fn to_dimacs(&self, py: Python<'_>) -> PyResult<String> {
        let mut out = Vec::new();
        py.detach(|| dimacs::write(&mut out, &self.header, &self.cnf, self.stats.n_vars))
            .map_err(|e| pyo3::exceptions::PyOSError::new_err(e.to_string()))?;
        String::from_utf8(out).map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))
    }

    fn __len__(&self) -> usize {
        self.cnf.len()
    }

    fn __repr__(&self) -> String {
        let (s, r) = (self.stats, &self.report);
        format!(
            "<boardsat.Encoding {} {} on {}x{}, k={}: {} vars ({} board), {} clauses>",
            r.problem, r.piece, r.rows, r.cols, self.k, s.n_vars, s.n_board_vars, s.n_clauses
        )
    }
}
