//! What a verification checks with and what it finds: the context every
//! claim is checked in ([`Checks`]), a verdict per claim ([`Verdict`],
//! [`Finding`]), why a claim does not verify ([`Rejection`]), and the
//! whole [`Verification`].

use boardsat_encode::setting::{LibraryWords, Names, Setting};
use boardsat_lrat::Location;
use boardsat_solve::stop::Interrupter;

use crate::{external::ExternalChecker, verify::record::Record};

/// What a verification checks with besides boardsat's own checks, and
/// what stops it: one context for every claim.
#[derive(Clone, Copy, Debug)]
pub struct Checks<'a> {
    /// Ends the verification early (a signal, a time limit).
    pub stop: Option<&'a Interrupter>,
    /// A checker boardsat did not write, run on every claim's formula and
    /// proof too ([`crate::external`]): it adds to the verdict, it never
    /// replaces boardsat's checks.
    pub external: Option<&'a ExternalChecker>,
    /// Claims checked at once (at least one).
    pub threads: usize,
    /// The record of proofs accepted before, taken instead of checking
    /// them again, and added to ([`crate::verify::record`]).
    pub record: Option<&'a Record>,
}

impl<'a> Checks<'a> {
    /// boardsat's own checks, stopped by `stop`.
    #[must_use]
    pub fn new(stop: Option<&'a Interrupter>) -> Self {
        Checks {
            stop,
            external: None,
            threads: std::thread::available_parallelism().map_or(1, usize::from),
            record: None,
        }
    }

    /// The same, checking `threads` claims at once (`None`: one per core).
    #[must_use]
    pub fn with_threads(self, threads: Option<usize>) -> Self {
        match threads {
            Some(threads) => Checks { threads, ..self },
            None => self,
        }
    }

    /// The same, with the checker `external` run on every claim too.
    #[must_use]
    pub fn with_external(self, external: Option<&'a ExternalChecker>) -> Self {
        Checks { external, ..self }
    }

    /// The same, with the proofs `record` holds taken from it and the
    /// ones checked added to it.
    #[must_use]
    pub fn with_record(self, record: Option<&'a Record>) -> Self {
        Checks { record, ..self }
    }
}

/// How a verification used its record ([`crate::verify::record`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordUse {
    /// The record file.
    pub path: String,
    /// Proofs taken from it (accepted by an earlier verification with the
    /// same checkers, their files unchanged), not checked again.
    pub reused: u64,
    /// Proofs checked and added to it.
    pub added: u64,
}

/// The external checker of a verification and how many proofs it accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalUse {
    /// Its name (the file name).
    pub name: String,
    /// Its path.
    pub program: String,
    /// The SHA-256 of its executable.
    pub sha256: String,
    /// The claims' proofs it accepted.
    pub accepted: u64,
}

/// The verdict on one claim (or on the cover of a split).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The claim's name (`cover` for the split; the file's for
    /// [`verify_files`](crate::verify::verify_files)).
    pub name: String,
    /// What the check found.
    pub outcome: Finding,
}

/// What checking a claim found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The LRAT proof derives the empty clause in `steps` steps (none for
    /// a cover) and the formula is what the claim says (`what`).
    Verified {
        /// Proof steps checked.
        steps: Option<u64>,
        /// What the formula was tied to, in words.
        what: String,
    },
    /// It did not verify, for this reason.
    Rejected(Rejection),
}

impl Finding {
    /// Whether the claim verified.
    #[must_use]
    pub fn verified(&self) -> bool {
        matches!(self, Finding::Verified { .. })
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Finding::Verified {
                steps: Some(steps),
                what,
            } => write!(
                f,
                "LRAT proof of {steps} steps derives the empty clause; {what}"
            ),
            Finding::Verified { steps: None, what } => f.write_str(what),
            Finding::Rejected(why) => write!(f, "{why}"),
        }
    }
}

impl From<Rejection> for Finding {
    fn from(why: Rejection) -> Self {
        Finding::Rejected(why)
    }
}

/// Why a claim, a split, a cover or a run's result does not verify: the
/// verifier's error, decided where the failure is found. Its message is
/// the reason in words; a [`Verdict`] pairs it with the claim.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// A file could not be read (or has an unknown format).
    #[error("{0}")]
    Unreadable(String),
    /// The LRAT checker rejected the proof, at this line (or byte) of the
    /// proof when the error is in a step.
    #[error("{message}")]
    ProofRejected {
        /// Where in the proof.
        at: Option<Location>,
        /// The checker's message.
        message: String,
    },
    /// The external checker did not accept the proof (boardsat's own
    /// checker did): its message names the checker and what it did.
    #[error("{message}")]
    ExternalRejected {
        /// The checker and what it did.
        message: String,
    },
    /// The formula is not what the claim says: its encoding, its
    /// constraints, its blocking clauses, its witnesses or its count.
    #[error("{0}")]
    FormulaMismatch(String),
    /// The claims do not cover the split, or their total is not the count.
    #[error("{0}")]
    CoverMismatch(String),
    /// The run's result does not follow from the verified claims: what is
    /// missing or does not agree.
    #[error("not proven: {0}")]
    NotProven(String),
}

impl Rejection {
    /// [`Rejection::Unreadable`].
    pub(crate) fn unreadable(why: impl Into<String>) -> Self {
        Rejection::Unreadable(why.into())
    }

    /// [`Rejection::FormulaMismatch`].
    pub(crate) fn mismatch(why: impl Into<String>) -> Self {
        Rejection::FormulaMismatch(why.into())
    }

    /// [`Rejection::CoverMismatch`].
    pub(crate) fn cover(why: impl Into<String>) -> Self {
        Rejection::CoverMismatch(why.into())
    }

    /// [`Rejection::NotProven`] (its message says "not proven: " first).
    pub(crate) fn not_proven(why: impl Into<String>) -> Self {
        Rejection::NotProven(why.into())
    }

    /// The same reason, its message naming `what` it is about first.
    #[must_use]
    pub fn about(self, what: &str) -> Self {
        // A reason that already names its subject is not named twice.
        let named = |why: String| match why.starts_with(&format!("{what}: ")) {
            true => why,
            false => format!("{what}: {why}"),
        };
        match self {
            Rejection::Unreadable(why) => Rejection::Unreadable(named(why)),
            Rejection::ProofRejected { at, message } => Rejection::ProofRejected {
                at,
                message: named(message),
            },
            Rejection::ExternalRejected { message } => Rejection::ExternalRejected {
                message: named(message),
            },
            Rejection::FormulaMismatch(why) => Rejection::FormulaMismatch(named(why)),
            Rejection::CoverMismatch(why) => Rejection::CoverMismatch(named(why)),
            Rejection::NotProven(why) => Rejection::NotProven(named(why)),
        }
    }
}

impl From<crate::external::CheckerError> for Rejection {
    /// A checker that cannot run accepts nothing.
    fn from(e: crate::external::CheckerError) -> Self {
        Rejection::ExternalRejected {
            message: e.to_string(),
        }
    }
}

/// Why a proof directory could not be verified at all (bad input).
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The directory has no readable manifest.
    #[error("{0}")]
    Manifest(String),
    /// A split directory written without proofs: its jobs prove nothing.
    #[error("{}", self.message(&LibraryWords))]
    WithoutProofs(std::path::PathBuf),
}

impl VerifyError {
    /// The message, with the settings it names worded by `names` (its
    /// `Display` is the library's words).
    #[must_use]
    pub fn message(&self, names: &dyn Names) -> String {
        match self {
            VerifyError::Manifest(why) => why.clone(),
            VerifyError::WithoutProofs(dir) => format!(
                "{}: the split was written without {}: its jobs prove nothing",
                dir.display(),
                names.name(Setting::Proof, None)
            ),
        }
    }
}

/// What `verify` found: a verdict per claim (and per split or cover), and
/// the run's whole result — its sentence, derived from what was checked,
/// or why it is not proven.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    /// One verdict per claim, then the splits and the cover.
    pub verdicts: Vec<Verdict>,
    /// The result's sentence, or what is missing.
    pub result: Result<String, Rejection>,
    /// The external checker run on every claim too, if one was.
    pub external: Option<ExternalUse>,
    /// The record the proof checks were taken from and added to, if one
    /// was used.
    pub record: Option<RecordUse>,
}

impl Verification {
    /// Whether the whole result is proven (every verdict verified too).
    #[must_use]
    pub fn verified(&self) -> bool {
        self.result.is_ok() && self.verdicts.iter().all(|v| v.outcome.verified())
    }

    /// Nothing checked: the reason alone.
    #[must_use]
    pub fn failed(why: Rejection) -> Self {
        Verification {
            verdicts: Vec::new(),
            result: Err(why),
            external: None,
            record: None,
        }
    }

    /// Records the external checker of `checks` (and what it accepted).
    /// When it rejected a claim, the result says so first, naming the
    /// claim and the checker's reason (the verdicts list the rest).
    #[must_use]
    pub(crate) fn checked_by(self, checks: Checks<'_>) -> Self {
        let rejected: Vec<(&str, &Rejection)> = self
            .verdicts
            .iter()
            .filter_map(|v| match &v.outcome {
                Finding::Rejected(why @ Rejection::ExternalRejected { .. }) => {
                    Some((v.name.as_str(), why))
                }
                _ => None,
            })
            .collect();
        let result = match rejected.first() {
            Some((name, why)) => {
                let more = match rejected.len() {
                    1 => String::new(),
                    n => format!(" ({n} claims in all)"),
                };
                Err(Rejection::ExternalRejected {
                    message: format!("{name}: {why}{more}"),
                })
            }
            None => self.result,
        };
        Verification {
            result,
            external: checks.external.map(|c| ExternalUse {
                name: c.name().to_string(),
                program: c.program().display().to_string(),
                sha256: c.sha256().to_string(),
                // The record holds only proofs this checker accepted.
                accepted: c.accepted() + checks.record.map_or(0, Record::reused),
            }),
            record: checks.record.map(|r| RecordUse {
                path: r.path().display().to_string(),
                reused: r.reused(),
                added: r.added(),
            }),
            ..self
        }
    }
}

/// `check` applied to every item on `threads` workers (at least one), the
/// results in the items' order.
pub(crate) fn in_parallel<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    check: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<R>>> =
        items.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, items.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(item) = items.get(i) else {
                    return;
                };
                let result = check(item);
                if let Ok(mut slot) = results[i].lock() {
                    *slot = Some(result);
                }
            });
        }
    });
    results
        .into_iter()
        .filter_map(|slot| slot.into_inner().ok().flatten())
        .collect()
}

/// At most five names, then how many in all.
pub(crate) fn summary<S: AsRef<str>>(names: &[S]) -> String {
    let shown: Vec<&str> = names.iter().take(5).map(AsRef::as_ref).collect();
    match names.len() {
        0..=5 => shown.join(", "),
        n => format!("{}, … ({n} in all)", shown.join(", ")),
    }
}
