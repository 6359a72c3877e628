//! The JSON report of `boardsat verify`, and its lines.

use serde::Serialize;

use crate::verify::verdict::{ExternalUse, RecordUse, Verification};

/// `verify`: one claim.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerdictReport {
    /// The claim (or the formula file).
    pub name: String,
    /// Whether it verified.
    pub verified: bool,
    /// What was checked, or why it failed.
    pub reason: String,
}

/// `verify`: the run's whole result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResultReport {
    /// Whether it follows from what was checked.
    pub verified: bool,
    /// Its sentence, derived by `verify` (when verified).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sentence: Option<String>,
    /// What is missing (when not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// `verify`: a checker that ran on every claim's proof besides
/// boardsat's own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckerReport {
    /// Its name (the file name).
    pub name: String,
    /// Its path.
    pub program: String,
    /// The SHA-256 of its executable: which build it was.
    pub sha256: String,
    /// The proofs it accepted.
    pub accepted: u64,
}

/// `verify --record`: the record of accepted proofs the verification took
/// proofs from and added to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecordReport {
    /// The record file.
    pub path: String,
    /// Proofs taken from it, not checked again.
    pub reused: u64,
    /// Proofs checked and added to it.
    pub added: u64,
}

/// `verify`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// `verify`.
    pub command: &'static str,
    /// Whether the whole result is proven: every claim verified, and the
    /// result derived from them.
    pub verified: bool,
    /// One verdict per claim (then the splits and the cover).
    pub claims: Vec<VerdictReport>,
    /// The whole result.
    pub result: ResultReport,
    /// The external checker run on every claim too, if one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_checker: Option<CheckerReport>,
    /// The record proofs were taken from and added to, if one was used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<RecordReport>,
    /// Why the check stopped before it had checked everything (`time
    /// limit` or `interrupted`), when it did: then nothing is verified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<&'static str>,
}

impl VerifyReport {
    /// The report of `verification`.
    #[must_use]
    pub fn new(verification: &Verification) -> Self {
        let (sentence, reason) = match &verification.result {
            Ok(sentence) => (Some(sentence.clone()), None),
            Err(why) => (None, Some(why.to_string())),
        };
        VerifyReport {
            command: "verify",
            verified: verification.verified(),
            claims: verification
                .verdicts
                .iter()
                .map(|v| VerdictReport {
                    name: v.name.clone(),
                    verified: v.outcome.verified(),
                    reason: v.outcome.to_string(),
                })
                .collect(),
            result: ResultReport {
                verified: verification.result.is_ok(),
                sentence,
                reason,
            },
            external_checker: verification.external.as_ref().map(
                |ExternalUse {
                     name,
                     program,
                     sha256,
                     accepted,
                 }| CheckerReport {
                    name: name.clone(),
                    program: program.clone(),
                    sha256: sha256.clone(),
                    accepted: *accepted,
                },
            ),
            record: verification.record.as_ref().map(
                |RecordUse {
                     path,
                     reused,
                     added,
                 }| RecordReport {
                    path: path.clone(),
                    reused: *reused,
                    added: *added,
                },
            ),
            stopped: None,
        }
    }

    /// The report of `verification` stopped (by a signal or the time
    /// limit, `why`) before it had checked everything: not verified, each
    /// verdict as it stood, and a result that says how far the check got
    /// and, with a record, what the next check takes from it — a check of
    /// hours that is stopped says what it did.
    #[must_use]
    pub fn stopped(verification: &Verification, why: &'static str) -> Self {
        let mut report = VerifyReport::new(verification);
        let passed = report.claims.iter().filter(|c| c.verified).count();
        let record = match &report.record {
            Some(r) => format!(
                "; the record {} holds the proofs accepted ({} taken from it, {} added), and the next `verify --record {}` checks only the others",
                r.path, r.reused, r.added, r.path
            ),
            None => String::new(),
        };
        report.verified = false;
        report.stopped = Some(why);
        report.result = ResultReport {
            verified: false,
            sentence: None,
            reason: Some(format!(
                "stopped ({why}) with {passed} of {} checks passed (claims, splits, cover){record}: nothing is proven",
                report.claims.len()
            )),
        };
        report
    }

    /// One line per claim (`NAME: verified (…)` or `NAME: NOT verified:
    /// …`), then the result: `verified: SENTENCE` (naming the external
    /// checker that accepted every proof too, when one ran), or `NOT
    /// verified: what is missing`.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .claims
            .iter()
            .map(|c| match c.verified {
                true => format!("{}: verified ({})", c.name, c.reason),
                false => format!("{}: NOT verified: {}", c.name, c.reason),
            })
            .collect();
        lines.push(match (&self.result.sentence, &self.result.reason) {
            (Some(sentence), _) if self.verified => {
                format!(
                    "verified: {sentence}{}{}",
                    self.checked_by(),
                    self.taken_from_record()
                )
            }
            (_, Some(why)) => format!("NOT verified: {why}"),
            _ => "NOT verified: a claim did not verify".to_string(),
        });
        lines
    }

    /// How many proofs were taken from a record, when some were.
    fn taken_from_record(&self) -> String {
        match &self.record {
            Some(r) if r.reused > 0 => format!(
                " ({} taken from the record {}: accepted by the same checkers in an earlier check, their files unchanged)",
                boardsat_encode::words::plural(r.reused, "proof", "proofs"),
                r.path
            ),
            _ => String::new(),
        }
    }

    /// Which checkers accepted every proof, when an external one ran.
    fn checked_by(&self) -> String {
        match &self.external_checker {
            None => String::new(),
            Some(c) if c.accepted == 0 => {
                format!(
                    " ({} ({}) ran too, with no proof to check)",
                    c.name, c.program
                )
            }
            Some(c) => format!(
                "; every proof accepted by boardsat's checker and by {} ({}): {}",
                c.name,
                c.program,
                boardsat_encode::words::plural(c.accepted, "proof", "proofs")
            ),
        }
    }
}
