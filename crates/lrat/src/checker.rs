//! The checker: live clauses, one partial assignment with a trail, and
//! the step rules.

use std::fmt;
use std::io::Read;
use std::str::FromStr;

use crate::db::Db;
use crate::error::{Error, FormulaProblem, Location, StepProblem};
use crate::parse::{Input, Step, StepKind};

/// Bounds on what a formula or proof may make the checker allocate.
/// A proof that exceeds one is rejected with an error naming it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest variable a clause may use. The assignment array grows
    /// to the largest variable seen, one byte per variable.
    pub max_var: u32,
    /// The most literals, hints or deleted ids one step (or formula
    /// clause) may list.
    pub max_step_len: usize,
}

impl Default for Limits {
    /// 2²⁶ variables (64 MiB of assignment) and 2²⁴ numbers per step.
    fn default() -> Self {
        Limits {
            max_var: 1 << 26,
            max_step_len: 1 << 24,
        }
    }
}

/// The proof's encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// Text LRAT: `<id> <literals> 0 <hints> 0` and `<id> d <ids> 0`, one
    /// step per line, `c` comment lines.
    Text,
    /// Binary LRAT as CaDiCaL writes it (`a`/`d` steps of varints).
    Binary,
    /// Binary when the first byte is `a` or `d`, text otherwise.
    Detect,
}

impl Syntax {
    /// Every format, for tests and command lines.
    pub const ALL: [Syntax; 3] = [Syntax::Text, Syntax::Binary, Syntax::Detect];
}

impl fmt::Display for Syntax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Syntax::Text => "text",
            Syntax::Binary => "binary",
            Syntax::Detect => "detect",
        })
    }
}

/// An unknown format name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown LRAT format `{0}` (expected text, binary or detect)")]
pub struct UnknownFormat(pub String);

impl FromStr for Syntax {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Syntax::ALL
            .into_iter()
            .find(|f| f.to_string() == s)
            .ok_or_else(|| UnknownFormat(s.to_string()))
    }
}

/// Where the empty clause came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmptyClause {
    /// The formula itself holds the empty clause; no step was needed.
    InFormula {
        /// The clause's id.
        id: u64,
    },
    /// A proof step derived it.
    Derived {
        /// The step's clause id.
        id: u64,
        /// The step's number among all steps, from 1.
        step: u64,
        /// Where the step is in the proof.
        at: Location,
    },
}

/// What a successful check saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Clauses of the formula.
    pub n_formula_clauses: u64,
    /// Steps read (additions and deletion lines).
    pub n_steps: u64,
    /// Clauses added, each checked.
    pub n_additions: u64,
    /// Deletion steps.
    pub n_deletion_steps: u64,
    /// Clause ids deleted.
    pub n_deleted_clauses: u64,
    /// Hints followed.
    pub n_hints: u64,
    /// The most clauses live at once.
    pub max_live: u64,
    /// The first empty clause.
    pub empty_clause: EmptyClause,
}

/// An LRAT checker: load the formula with [`Checker::add_formula_clause`]
/// (clause i gets id i, from 1), then [`Checker::check`] the proof.
pub struct Checker {
    limits: Limits,
    db: Db,
    /// Value of each variable: 1 true, -1 false, 0 unassigned.
    vals: Vec<i8>,
    /// Variables assigned during the current step.
    trail: Vec<u32>,
    /// The current clause without duplicate literals.
    clause: Vec<i32>,
    n_formula: u64,
    /// The largest id so far; new ids must exceed it.
    last_id: u64,
    empty_clause: Option<EmptyClause>,
}

impl fmt::Debug for Checker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Checker")
            .field("limits", &self.limits)
            .field("n_formula", &self.n_formula)
            .field("n_live", &self.db.len())
            .finish_non_exhaustive()
    }
}

impl Default for Checker {
    fn default() -> Self {
        Checker::new(Limits::default())
    }
}

#[inline]
fn value(vals: &[i8], lit: i32) -> i8 {
    let v = vals[lit.unsigned_abs() as usize];
    if lit < 0 {
        -v
    } else {
        v
    }
}

#[inline]
fn assign(vals: &mut [i8], trail: &mut Vec<u32>, lit: i32) {
    let var = lit.unsigned_abs();
    vals[var as usize] = if lit < 0 { -1 } else { 1 };
    trail.push(var);
}

/// Why a clause could not be loaded into the assignment.
enum VarError {
    Zero,
    TooLarge,
}

impl Checker {
    /// An empty checker with `limits`.
    #[must_use]
    pub fn new(limits: Limits) -> Self {
        Checker {
            limits,
            db: Db::new(),
            vals: vec![0; 1],
            trail: Vec::new(),
            clause: Vec::new(),
            n_formula: 0,
            last_id: 0,
            empty_clause: None,
        }
    }

    /// Grows the assignment to hold `lit`'s variable.
    fn make_room(&mut self, lit: i32) -> Result<(), VarError> {
        if lit == 0 || lit == i32::MIN {
            return Err(VarError::Zero);
        }
        let var = lit.unsigned_abs();
        if var > self.limits.max_var {
            return Err(VarError::TooLarge);
        }
        let var = var as usize;
        if var >= self.vals.len() {
            let cap = self.limits.max_var as usize + 1;
            let len = (var + 1).max(self.vals.len() * 2).min(cap);
            self.vals.resize(len, 0);
        }
        Ok(())
    }

    /// Assigns the negation of each literal of `lits`, collecting them
    /// without duplicates into `self.clause`; true when `lits` is a
    /// tautology. The caller undoes the trail.
    fn negate_into_clause(&mut self, lits: &[i32]) -> bool {
        self.clause.clear();
        let mut tautology = false;
        for &lit in lits {
            match value(&self.vals, lit) {
                0 => {
                    assign(&mut self.vals, &mut self.trail, -lit);
                    self.clause.push(lit);
                }
                // A repeated literal.
                v if v < 0 => {}
                // Its negation came before.
                _ => {
                    tautology = true;
                    if !self.clause.contains(&lit) {
                        self.clause.push(lit);
                    }
                }
            }
        }
        tautology
    }

    fn undo(&mut self) {
        for &var in &self.trail {
            self.vals[var as usize] = 0;
        }
        self.trail.clear();
    }

    /// Adds the next clause of the formula and returns its id (1, 2, …).
    /// Duplicate literals are dropped; tautologies are kept as they are.
    ///
    /// # Errors
    ///
    /// [`Error::Formula`] for a literal 0 or `i32::MIN`, a variable beyond
    /// [`Limits::max_var`] or a clause longer than
    /// [`Limits::max_step_len`].
    pub fn add_formula_clause(&mut self, lits: &[i32]) -> Result<u64, Error> {
        let id = self.n_formula + 1;
        let problem = |problem| Error::Formula { id, problem };
        if lits.len() > self.limits.max_step_len {
            return Err(problem(FormulaProblem::TooLong {
                max: self.limits.max_step_len,
            }));
        }
        for &lit in lits {
            match self.make_room(lit) {
                Ok(()) => {}
                Err(VarError::Zero) => {
                    return Err(problem(FormulaProblem::BadLiteral { literal: lit }))
                }
                Err(VarError::TooLarge) => {
                    return Err(problem(FormulaProblem::VariableTooLarge {
                        var: u64::from(lit.unsigned_abs()),
                        max: self.limits.max_var,
                    }))
                }
            }
        }
        self.negate_into_clause(lits);
        self.undo();
        self.db.insert(id, &self.clause);
        if lits.is_empty() && self.empty_clause.is_none() {
            self.empty_clause = Some(EmptyClause::InFormula { id });
        }
        self.n_formula = id;
        self.last_id = id;
        Ok(id)
    }

    /// Checks `proof` against the formula loaded so far. The proof is read
    /// step by step and never held; every step is checked, including any
    /// after the empty clause.
    ///
    /// # Errors
    ///
    /// The first problem, with its line (text) or byte offset (binary):
    /// a malformed or truncated step, a step that does not check, an id
    /// reused, a hint or deletion naming no live clause, a RAT step, a
    /// read error; or [`Error::NoEmptyClause`] when every step checks but
    /// the empty clause is never derived.
    pub fn check<R: Read>(mut self, proof: R, format: Syntax) -> Result<Summary, Error> {
        let mut input = Input::new(proof);
        let binary = match format {
            Syntax::Text => false,
            Syntax::Binary => true,
            Syntax::Detect => input.looks_binary()?,
        };
        let mut step = Step::new();
        let mut summary = Summary {
            n_formula_clauses: self.n_formula,
            n_steps: 0,
            n_additions: 0,
            n_deletion_steps: 0,
            n_deleted_clauses: 0,
            n_hints: 0,
            max_live: self.db.len() as u64,
            empty_clause: EmptyClause::InFormula { id: 0 },
        };
        let max_len = self.limits.max_step_len;
        loop {
            let more = if binary {
                input.binary_step(&mut step, max_len)?
            } else {
                input.text_step(&mut step, max_len)?
            };
            if !more {
                break;
            }
            summary.n_steps += 1;
            let at = step.at;
            let result = match step.kind {
                StepKind::Add(id) => {
                    summary.n_additions += 1;
                    summary.n_hints += step.ids.len() as u64;
                    let result = self.add_lemma(id, &step.lits, &step.ids);
                    if result.is_ok() {
                        summary.max_live = summary.max_live.max(self.db.len() as u64);
                        if step.lits.is_empty() && self.empty_clause.is_none() {
                            self.empty_clause = Some(EmptyClause::Derived {
                                id,
                                step: summary.n_steps,
                                at,
                            });
                        }
                    }
                    result
                }
                StepKind::Delete => {
                    summary.n_deletion_steps += 1;
                    summary.n_deleted_clauses += step.ids.len() as u64;
                    self.delete(&step.ids)
                }
            };
            result.map_err(|problem| Error::Step { at, problem })?;
        }
        match self.empty_clause {
            Some(empty_clause) => Ok(Summary {
                empty_clause,
                ..summary
            }),
            None => Err(Error::NoEmptyClause {
                steps: summary.n_steps,
            }),
        }
    }

    fn delete(&mut self, ids: &[i64]) -> Result<(), StepProblem> {
        for &id in ids {
            let id = id.unsigned_abs();
            if !self.db.remove(id) {
                return Err(StepProblem::DeleteUnknown { id });
            }
        }
        Ok(())
    }

    /// Checks and adds one lemma.
    fn add_lemma(&mut self, id: u64, lits: &[i32], hints: &[i64]) -> Result<(), StepProblem> {
        if self.db.contains(id) {
            return Err(StepProblem::IdReused { id });
        }
        if id <= self.last_id {
            return Err(StepProblem::IdNotIncreasing {
                id,
                previous: self.last_id,
            });
        }
        for &lit in lits {
            if self.make_room(lit).is_err() {
                return Err(StepProblem::VariableTooLarge {
                    literal: i64::from(lit),
                    max: self.limits.max_var,
                });
            }
        }
        let tautology = self.negate_into_clause(lits);
        let result = if tautology {
            // Implied by anything; the hints must still name live clauses.
            hints.iter().try_for_each(|&hint| {
                if hint < 0 {
                    Err(StepProblem::Rat { hint })
                } else if self.db.contains(hint.unsigned_abs()) {
                    Ok(())
                } else {
                    Err(StepProblem::UnknownHint {
                        hint: hint.unsigned_abs(),
                    })
                }
            })
        } else {
            self.propagate(hints)
        };
        self.undo();
        result?;
        self.db.insert(id, &self.clause);
        self.last_id = id;
        Ok(())
    }

    /// Unit propagation along the hints, as CaDiCaL's own LRAT checker,
    /// `lrat-check` and cake_lpr read them: under the lemma's negation and
    /// the units so far, each hint must have at most one literal that is
    /// not false — its unit, assigned (a unit already true is assigned
    /// already) — until one has none, the conflict; hints after the
    /// conflict are not needed and not read.
    fn propagate(&mut self, hints: &[i64]) -> Result<(), StepProblem> {
        let Checker {
            db, vals, trail, ..
        } = self;
        for &hint in hints {
            if hint < 0 {
                return Err(StepProblem::Rat { hint });
            }
            let hint = hint.unsigned_abs();
            let Some(clause) = db.get(hint) else {
                return Err(StepProblem::UnknownHint { hint });
            };
            let mut unit = 0;
            for &lit in clause {
                if value(vals, lit) < 0 {
                    continue;
                }
                if unit != 0 && unit != lit {
                    return Err(StepProblem::NotUnit { hint });
                }
                unit = lit;
            }
            if unit == 0 {
                return Ok(());
            }
            if value(vals, unit) == 0 {
                assign(vals, trail, unit);
            }
        }
        Err(StepProblem::NoConflict {
            last: hints
                .last()
                .map_or_else(|| "none".to_string(), ToString::to_string),
        })
    }
}

/// Checks `proof` against `formula` (clause i, from 0, has id i + 1) with
/// default [`Limits`].
///
/// # Errors
///
/// As [`Checker::add_formula_clause`] and [`Checker::check`].
pub fn check<C, R>(
    formula: impl IntoIterator<Item = C>,
    proof: R,
    format: Syntax,
) -> Result<Summary, Error>
where
    C: AsRef<[i32]>,
    R: Read,
{
    let mut checker = Checker::default();
    for clause in formula {
        checker.add_formula_clause(clause.as_ref())?;
    }
    checker.check(proof, format)
}
