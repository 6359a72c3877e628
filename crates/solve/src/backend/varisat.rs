//! varisat 0.2, the pure-Rust backend.
//!
//! varisat cannot be interrupted and its solver is not `Send`, so the solver
//! lives on a worker thread of its own from the start and this handle talks
//! to it over channels. Clauses are buffered here and shipped with the next
//! solve call. A time limit is a deadline on waiting for the worker's answer:
//! when it passes, the call returns [`Status::Unknown`] and the worker is
//! *abandoned* — it finishes its search in the background and exits, and
//! every later call on this handle is an error (build a new solver).

use std::{
    sync::mpsc::{self, Receiver, RecvTimeoutError, Sender},
    thread,
    time::{Duration, Instant},
};

use rustsat::types::{Lit, Var};
use varisat::ExtendFormula;

use crate::{
    backend::Backend, backend::Interrupt, backend::Status, backend::TimeLimit, error::SolveError,
    stop::Interrupter,
};

/// The version of varisat this crate is built against.
const VERSION: &str = "0.2.2";

/// How often a waiting call looks at the interrupt flag.
const POLL: Duration = Duration::from_millis(20);

enum Request {
    Solve {
        clauses: Vec<Vec<varisat::Lit>>,
        assumptions: Vec<varisat::Lit>,
    },
}

type Reply = Result<Option<Vec<bool>>, String>;

/// `varisat <version>`.
pub(crate) fn signature() -> String {
    format!("varisat {VERSION}")
}

/// varisat behind the [`Backend`] trait.
pub struct Varisat {
    requests: Option<Sender<Request>>,
    replies: Receiver<Reply>,
    pending: Vec<Vec<varisat::Lit>>,
    model: Option<Vec<bool>>,
    time_limit: Option<Duration>,
    interrupter: Interrupter,
    abandoned: bool,
}

impl std::fmt::Debug for Varisat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Varisat")
            .field("pending", &self.pending.len())
            .field("abandoned", &self.abandoned)
            .finish_non_exhaustive()
    }
}

impl Default for Varisat {
    fn default() -> Self {
        Varisat::new()
    }
}

impl Varisat {
    /// A new solver on a fresh worker thread.
    #[must_use]
    pub fn new() -> Self {
        let (requests, inbox) = mpsc::channel::<Request>();
        let (outbox, replies) = mpsc::channel::<Reply>();
        thread::spawn(move || worker(&inbox, &outbox));
        Varisat {
            requests: Some(requests),
            replies,
            pending: Vec::new(),
            model: None,
            time_limit: None,
            interrupter: Interrupter::new(),
            abandoned: false,
        }
    }

    fn abandoned_error(&self) -> SolveError {
        SolveError::Solver {
            backend: self.signature(),
            message: "this solver was abandoned after a time limit or interrupt; create a new one"
                .to_string(),
        }
    }
}

fn worker(inbox: &Receiver<Request>, outbox: &Sender<Reply>) {
    let mut solver = varisat::Solver::new();
    while let Ok(Request::Solve {
        clauses,
        assumptions,
    }) = inbox.recv()
    {
        for clause in &clauses {
            solver.add_clause(clause);
        }
        solver.assume(&assumptions);
        let reply = match solver.solve() {
            Ok(true) => {
                let model = solver.model().unwrap_or_default();
                let mut values = vec![false; model.len()];
                for lit in model {
                    if let Some(slot) = values.get_mut(lit.index()) {
                        *slot = lit.is_positive();
                    }
                }
                Ok(Some(values))
            }
            Ok(false) => Ok(None),
            Err(e) => Err(e.to_string()),
        };
        if outbox.send(reply).is_err() {
            return;
        }
    }
}

fn to_varisat(lit: Lit) -> varisat::Lit {
    varisat::Lit::from_index(lit.vidx(), lit.is_pos())
}

impl Backend for Varisat {
    fn add_clause(&mut self, clause: &[Lit]) -> Result<(), SolveError> {
        if self.abandoned {
            return Err(self.abandoned_error());
        }
        self.model = None;
        self.pending
            .push(clause.iter().copied().map(to_varisat).collect());
        Ok(())
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Status, SolveError> {
        if self.abandoned {
            return Err(self.abandoned_error());
        }
        self.model = None;
        // A call that finds the flag already set does not start: between
        // many short calls (enumeration) the flag is otherwise never seen.
        if self.interrupter.is_interrupted() {
            return Ok(Status::Unknown);
        }
        let request = Request::Solve {
            clauses: std::mem::take(&mut self.pending),
            assumptions: assumptions.iter().copied().map(to_varisat).collect(),
        };
        let sent = self.requests.as_ref().map(|tx| tx.send(request).is_ok());
        if sent != Some(true) {
            return Err(SolveError::Solver {
                backend: self.signature(),
                message: "the worker thread is gone".to_string(),
            });
        }
        let deadline = self.time_limit.map(|limit| Instant::now() + limit);
        loop {
            let wait = match deadline {
                Some(d) => d.saturating_duration_since(Instant::now()).min(POLL),
                None => POLL,
            };
            match self.replies.recv_timeout(wait) {
                Ok(Ok(Some(model))) => {
                    self.model = Some(model);
                    return Ok(Status::Sat);
                }
                Ok(Ok(None)) => return Ok(Status::Unsat),
                Ok(Err(message)) => {
                    return Err(SolveError::Solver {
                        backend: self.signature(),
                        message,
                    })
                }
                Err(RecvTimeoutError::Timeout) => {
                    let expired = deadline.is_some_and(|d| Instant::now() >= d);
                    if expired || self.interrupter.is_interrupted() {
                        // Dropping the sender lets the worker exit after its
                        // current search.
                        self.requests = None;
                        self.abandoned = true;
                        return Ok(Status::Unknown);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(SolveError::Solver {
                        backend: self.signature(),
                        message: "the worker thread panicked".to_string(),
                    })
                }
            }
        }
    }

    fn value(&mut self, var: Var) -> Result<bool, SolveError> {
        let model = self.model.as_ref().ok_or(SolveError::NoModel)?;
        Ok(model.get(var.idx()).copied().unwrap_or(false))
    }

    fn signature(&self) -> String {
        signature()
    }

    fn time_limit(&mut self) -> Option<&mut dyn TimeLimit> {
        Some(self)
    }

    fn interrupt(&mut self) -> Option<&mut dyn Interrupt> {
        Some(self)
    }

    fn fresh(&self, _mode: crate::backend::Mode) -> Option<Box<dyn Backend>> {
        let mut solver = Varisat::new();
        solver.time_limit = self.time_limit;
        solver.interrupter = self.interrupter.clone();
        Some(Box::new(solver))
    }
}

impl TimeLimit for Varisat {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }
}

impl Interrupt for Varisat {
    fn interrupter(&mut self) -> Interrupter {
        self.interrupter.clone()
    }

    fn use_interrupter(&mut self, interrupter: Interrupter) {
        self.interrupter = interrupter;
    }
}
