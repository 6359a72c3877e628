//! Models blocked inside the search ([`RejectModels`]): a count's solver
//! rejects each model it finds from inside the search and goes on from
//! where it stood, instead of returning it and starting the next call from
//! the top.
//!
//! Through CaDiCaL's external-propagator interface: the propagator observes
//! the count's variables (the board's squares), does no propagation of its
//! own (it is lazy), and in `cb_check_found_model` keeps the model's values
//! and hands back the clause that blocks it — the very clause the counting
//! loop would have added, so a traced proof holds the same formula (CaDiCaL
//! traces a propagator's clause as an original one). A call rejects models
//! until its window has passed or its quota is full; the next model then
//! ends it as SAT and is read as usual. Every model is checked by the
//! caller, after the call, as a returned one would have been.
//!
//! Why: on boards where minimum dominating sets come in large families
//! (the loose boards, n = 15, 16), the next model is a few hundred
//! conflicts from the last, which a call that starts from the top does not
//! find (docs/bench/blocked-models.md, "Models blocked inside the search").

use std::time::Duration;

use rustsat::types::Var;

use crate::{backend::Blocking, error::SolveError};

/// Backends that block the models of a count inside the search.
pub trait RejectModels {
    /// Observes `vars` (the count's projection) from the next call on: a
    /// model is blocked by the clause of `blocking` over them, in their
    /// order. `false` when the backend cannot here (its one propagator slot
    /// is taken, e.g. by the line propagator): the caller then counts by
    /// calls.
    ///
    /// # Errors
    ///
    /// [`SolveError::Solver`] when a variable cannot be observed.
    fn observe(&mut self, vars: &[Var], blocking: Blocking) -> Result<bool, SolveError>;

    /// One call under `assumptions` that rejects up to `quota` models,
    /// each blocked as it is found, while `window` lasts: the next model
    /// then ends the call as SAT (its values read by
    /// [`crate::backend::Backend::value`] as usual). Returns the status and the
    /// rejected models' values on the observed variables, in the order
    /// they were blocked — also when the call was stopped.
    ///
    /// # Errors
    ///
    /// Backend errors.
    fn solve_rejecting(
        &mut self,
        assumptions: &[rustsat::types::Lit],
        quota: u64,
        window: Duration,
    ) -> Result<(crate::backend::Status, Vec<Vec<bool>>), SolveError>;
}

/// What the propagator and the backend share: the observed variables, the
/// call's quota and window, and what it rejected. Only CaDiCaL has the
/// interface, so the pure-Rust build leaves it out (its tests keep it).
#[cfg(any(feature = "cadical", test))]
#[derive(Debug)]
pub(crate) struct Rejections {
    /// Position of each variable (by index) among the observed ones.
    position: Vec<Option<u32>>,
    /// The observed variables as CaDiCaL literals, in order.
    observed: Vec<i32>,
    blocking: Blocking,
    quota: u64,
    window: Duration,
    started: std::time::Instant,
    rejected: Vec<Vec<bool>>,
    /// The blocking clause being handed over, last literal first.
    pending: Vec<i32>,
}

#[cfg(any(feature = "cadical", test))]
impl Rejections {
    /// Rejections over `vars`, blocked as `blocking` says.
    pub(crate) fn new(vars: &[Var], blocking: Blocking) -> Rejections {
        let size = vars.iter().map(|v| v.idx() + 1).max().unwrap_or(0);
        let mut position = vec![None; size];
        for (i, v) in vars.iter().enumerate() {
            position[v.idx()] = u32::try_from(i).ok();
        }
        Rejections {
            position,
            observed: vars.iter().map(|v| v.pos_lit().to_ipasir()).collect(),
            blocking,
            quota: 0,
            window: Duration::ZERO,
            started: std::time::Instant::now(),
            rejected: Vec::new(),
            pending: Vec::new(),
        }
    }

    /// The observed variables as CaDiCaL literals.
    #[cfg(feature = "cadical")]
    pub(crate) fn observed(&self) -> &[i32] {
        &self.observed
    }

    /// Readies the next call: at most `quota` models, `window` long.
    pub(crate) fn start(&mut self, quota: u64, window: Duration) {
        self.quota = quota;
        self.window = window;
        self.started = std::time::Instant::now();
        self.rejected.clear();
        self.pending.clear();
    }

    /// The models rejected by the last call, in order.
    pub(crate) fn take(&mut self) -> Vec<Vec<bool>> {
        std::mem::take(&mut self.rejected)
    }

    /// A model found: `false` (rejected, its blocking clause pending) or
    /// `true` (it ends the call).
    pub(crate) fn check_found_model(&mut self, model: &[i32]) -> bool {
        let last = u64::try_from(self.rejected.len()).unwrap_or(u64::MAX) + 1 >= self.quota;
        if last || self.started.elapsed() >= self.window {
            return true;
        }
        let mut values = vec![false; self.observed.len()];
        for &lit in model {
            let var = lit.unsigned_abs() as usize - 1;
            if let Some(Some(i)) = self.position.get(var) {
                values[*i as usize] = lit > 0;
            }
        }
        // The clause, in the observed order, handed over from its end.
        self.pending.clear();
        for (&lit, &value) in self.observed.iter().zip(&values).rev() {
            match (self.blocking, value) {
                (_, true) => self.pending.push(-lit),
                (Blocking::Full, false) => self.pending.push(lit),
                (Blocking::Short, false) => {}
            }
        }
        self.rejected.push(values);
        // An empty clause (a short blocking of the empty placement) cannot
        // be handed over as a clause: end the call with this model instead.
        if self.pending.is_empty() {
            self.rejected.pop();
            return true;
        }
        false
    }

    /// Whether a blocking clause is pending.
    pub(crate) fn has_clause(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The pending clause's next literal, 0 at its end.
    pub(crate) fn next_lit(&mut self) -> i32 {
        self.pending.pop().unwrap_or(0)
    }
}

#[cfg(feature = "cadical")]
pub(crate) use cadical::Rejecter;

#[cfg(feature = "cadical")]
mod cadical {
    use std::{cell::RefCell, rc::Rc};

    use cadical_sys::ExternalPropagator;

    use super::Rejections;

    /// [`Rejections`] behind CaDiCaL's external-propagator interface.
    pub(crate) struct Rejecter(pub(crate) Rc<RefCell<Rejections>>);

    impl ExternalPropagator for Rejecter {
        fn is_lazy(&mut self) -> bool {
            // No propagation: models are only checked.
            true
        }

        fn are_reasons_forgettable(&mut self) -> bool {
            false
        }

        fn notify_assignment(&mut self, _lits: &[i32]) {}

        fn notify_new_decision_level(&mut self) {}

        fn notify_backtrack(&mut self, _new_level: usize) {}

        fn cb_check_found_model(&mut self, model: &[i32]) -> bool {
            self.0.borrow_mut().check_found_model(model)
        }

        fn cb_has_external_clause(&mut self, is_forgettable: &mut bool) -> bool {
            // A blocking clause is part of the count's formula for good.
            *is_forgettable = false;
            self.0.borrow().has_clause()
        }

        fn cb_add_external_clause_lit(&mut self) -> i32 {
            self.0.borrow_mut().next_lit()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(n: u32) -> Vec<Var> {
        (0..n).map(Var::new).collect()
    }

    #[test]
    fn a_rejected_model_is_kept_and_blocked_by_the_counts_clause() {
        let mut r = Rejections::new(&vars(3), Blocking::Short);
        r.start(u64::MAX, Duration::from_secs(60));
        // CaDiCaL may list the observed literals in any order.
        assert!(!r.check_found_model(&[3, -2, 1]));
        let clause: Vec<i32> =
            std::iter::from_fn(|| Some(r.next_lit()).filter(|&l| l != 0)).collect();
        assert_eq!(clause, vec![-1, -3]);
        assert!(!r.has_clause());
        let mut full = Rejections::new(&vars(3), Blocking::Full);
        full.start(u64::MAX, Duration::from_secs(60));
        assert!(!full.check_found_model(&[-1, 2, -3]));
        let clause: Vec<i32> =
            std::iter::from_fn(|| Some(full.next_lit()).filter(|&l| l != 0)).collect();
        assert_eq!(clause, vec![1, -2, 3]);
        assert_eq!(full.take(), vec![vec![false, true, false]]);
        assert_eq!(r.take(), vec![vec![true, false, true]]);
    }

    #[test]
    fn the_quota_and_the_window_end_a_call_with_a_model() {
        let mut r = Rejections::new(&vars(2), Blocking::Short);
        r.start(2, Duration::from_secs(60));
        assert!(!r.check_found_model(&[1, -2]));
        while r.next_lit() != 0 {}
        // The second model fills the quota of two: it ends the call.
        assert!(r.check_found_model(&[-1, 2]));
        assert_eq!(r.take().len(), 1);
        r.start(u64::MAX, Duration::ZERO);
        assert!(r.check_found_model(&[1, 2]));
        // The empty placement has no short clause: it ends the call too.
        r.start(u64::MAX, Duration::from_secs(60));
        assert!(r.check_found_model(&[-1, -2]));
        assert!(r.take().is_empty());
    }
}
