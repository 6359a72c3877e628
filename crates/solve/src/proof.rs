//! Certified answers: an LRAT proof for every UNSAT claim a result depends
//! on, and their independent verification.
//!
//! ## Writing ([`Prover`])
//! Each claim is a formula that must be unsatisfiable, built canonically
//! from what was found, never copied from a solver's state:
//!
//! | claim | formula |
//! |---|---|
//! | no placement with k pieces (`solve -k`, an optimum's bound) | the encoding `boardsat dimacs … -k k` writes, plus lex-leader constraints when they were used |
//! | a count is complete | that encoding, lex-leader constraints, a cube's queens as units, and one blocking clause per placement counted |
//! | a DIMACS file is unsatisfiable | the file's clauses |
//! | a projected count of a DIMACS file is complete | the file's clauses and one blocking clause per projected model |
//!
//! Board claims are always encoded eagerly: with the lazy AMO the search
//! ran on a line propagator whose reasons no LRAT proof can cite, so the
//! claim's formula uses `auto` clauses instead (see `board_formula`).
//!
//! The formula is written as `NAME.cnf` (provenance comments, then the
//! clauses in order), read back by a fresh CaDiCaL through its own DIMACS
//! parser (so that LRAT clause ids are the file's clause numbers) and
//! solved with an LRAT trace into `NAME.lrat`; `MANIFEST.json` lists the
//! claims with what each relies on. The cost is one more solver run per
//! claim, paid only when a proof is asked for.
//!
//! ## Checking ([`verify`], [`verify_files`])
//! The LRAT checker is `boardsat-lrat`, which shares no code with CaDiCaL
//! or the encoder. Beyond the proof, each board claim's formula is tied to
//! its problem: the encoding is re-derived from the provenance lines and
//! must be the formula's first clauses, exactly; lex-leader constraints and
//! a cube's units must follow, re-derived too; and every other clause must
//! block a distinct placement that the independent checker accepts, whose
//! (orbit-weighted) number is the claimed count. So a proof of another
//! formula, or of a weaker one, is rejected. For cube counts the claims'
//! cubes must be exactly the cubes of the split, and their weighted total
//! the claimed count. DIMACS claims are tied to their source file by its
//! digest and by its clauses.

use std::{
    fs,
    io::{self, BufReader},
    path::{Path, PathBuf},
};

use boardsat_encode::{
    check, dimacs::Header, symmetry, Board, Bound, Card, Config, Formulation, Kind, Piece,
    Placement, Problem, Square,
};
use rustsat::{
    instances::Cnf,
    types::{Lit, Var},
};
use serde::{Deserialize, Serialize};

use crate::{
    blocking_clause, cubes,
    dimacs::{self, Formula},
    files::{self, write_atomically, FileError},
    Interrupter, SolveError,
};

/// The manifest's name inside a proof directory.
pub const MANIFEST_JSON: &str = "MANIFEST.json";

/// What a proof directory holds: the claims and, for a cube count, the
/// split whose cubes they cover.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProofManifest {
    /// `boardsat <version>`.
    pub tool: String,
    /// The command that made the proofs.
    pub command: String,
    /// The claims, in the order they were proven.
    pub claims: Vec<ClaimEntry>,
    /// For a count split into cubes: what the cubes are and the total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover: Option<Cover>,
}

/// The cubes of an N-queens count: the claims' cubes must be exactly these.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cover {
    /// The board size.
    pub n: usize,
    /// Rows fixed per cube.
    pub depth: usize,
    /// Whether mirror halving chose the cubes (and their weights).
    pub halve: bool,
    /// The claimed total: Σ cube weight × cube count.
    pub count: u64,
}

/// What a claim says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClaimKind {
    /// No placement with the formula's bound exists.
    NoPlacement,
    /// The placements blocked in the formula are all there are.
    Complete,
    /// The source DIMACS file is unsatisfiable.
    Formula,
    /// The projected models blocked in the formula are all there are.
    ProjectedComplete,
}

/// One claim of a [`ProofManifest`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimEntry {
    /// `claim-0000`, …: the stem of its files.
    pub name: String,
    /// The claim in words.
    pub claim: String,
    /// What it is.
    pub kind: ClaimKind,
    /// The formula, relative to the directory.
    pub cnf: String,
    /// The proof, relative to the directory.
    pub proof: String,
    /// `lrat`.
    pub format: String,
    /// What the proof alone does not establish.
    pub relies_on: Vec<String>,
    /// For completeness claims: the count (weighted by orbit size under
    /// symmetry breaking).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// For a cube of a cube count: its queens' columns, and its weight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cube: Option<(Vec<usize>, u64)>,
    /// For DIMACS claims: the source file (absolute path) and its digest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<(String, String)>,
    /// For a DIMACS claim on one cube of an iCNF source: the cube's index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icnf_cube: Option<usize>,
    /// The size of the proof file in bytes.
    pub proof_bytes: u64,
}

/// Why proofs could not be written or checked.
#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    /// The directory is not empty (and `--force` was not given), or not a
    /// directory.
    #[error("{0}")]
    Dir(String),
    /// A file could not be written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The re-solve did not refute the formula: a SAT answer means the
    /// original UNSAT answer was wrong.
    #[error("the claim '{claim}' was not refuted when proven again ({status}): {}", if *status == crate::Status::Sat { "the original UNSAT answer was wrong" } else { "the proof run stopped" })]
    NotRefuted {
        /// The claim.
        claim: String,
        /// What the proof run answered.
        status: crate::Status,
    },
    /// Proofs need the embedded CaDiCaL.
    #[error("proofs need the embedded CaDiCaL (this build has no feature 'cadical')")]
    Unavailable,
    /// Encoding or solving failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

impl From<boardsat_encode::EncodeError> for ProofError {
    fn from(e: boardsat_encode::EncodeError) -> Self {
        ProofError::Solve(e.into())
    }
}

/// Writes claims with their proofs into a directory.
#[derive(Debug)]
pub struct Prover {
    dir: PathBuf,
    manifest: ProofManifest,
    stop: Interrupter,
    bytes: u64,
}

/// What a finished proof directory holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProofSummary {
    /// The directory.
    pub dir: String,
    /// Claims proven.
    pub claims: usize,
    /// Bytes of proof files.
    pub bytes: u64,
}

impl Prover {
    /// A prover writing into `dir`, which must be empty or new (`force`
    /// clears a previous proof directory's files there). `command` is
    /// recorded in the manifest; `stop` stops the proof runs.
    ///
    /// # Errors
    ///
    /// [`ProofError::Dir`] for a directory that is not empty or cannot be
    /// made.
    pub fn create(
        dir: &Path,
        force: bool,
        command: String,
        stop: Interrupter,
    ) -> Result<Self, ProofError> {
        let problem = |e: io::Error| {
            ProofError::Dir(format!(
                "cannot use {}: {}",
                dir.display(),
                files::describe(&e)
            ))
        };
        match fs::read_dir(dir) {
            Ok(list) => {
                let names: Vec<String> = list
                    .filter_map(Result::ok)
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect();
                if !names.is_empty() && !force {
                    return Err(ProofError::Dir(format!(
                        "{} is not empty; choose a new directory for the proofs, or --force to replace a previous proof directory's files",
                        dir.display()
                    )));
                }
                for name in names.iter().filter(|n| {
                    n.as_str() == MANIFEST_JSON
                        || (n.starts_with("claim-")
                            && (n.ends_with(".cnf") || n.ends_with(".lrat")))
                }) {
                    fs::remove_file(dir.join(name)).map_err(problem)?;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                fs::create_dir_all(dir).map_err(problem)?;
            }
            Err(e) => return Err(problem(e)),
        }
        Ok(Prover {
            dir: dir.to_path_buf(),
            manifest: ProofManifest {
                tool: format!("boardsat {}", env!("CARGO_PKG_VERSION")),
                command,
                claims: Vec::new(),
                cover: None,
            },
            stop,
            bytes: 0,
        })
    }

    /// The directory.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Proves that no placement of `problem` with `k` pieces exists (the
    /// bound of [`Kind::bound`]); with `symmetry`, under lex-leader
    /// constraints (a smallest orbit member of a placement would survive
    /// them, so the claim is the same).
    ///
    /// # Errors
    ///
    /// [`ProofError`].
    pub fn no_placement(
        &mut self,
        problem: &Problem,
        k: usize,
        config: Config,
        symmetry: bool,
        claim: String,
        relies_on: Vec<String>,
    ) -> Result<&ClaimEntry, ProofError> {
        let built = board_formula(problem, k, config, symmetry, &[], &[], false)?;
        let i = self.prove(built, ClaimKind::NoPlacement, claim, relies_on, None, None)?;
        Ok(&self.manifest.claims[i])
    }

    /// Proves that `placements` are all the placements of `problem` with
    /// `k` pieces (under lex-leader constraints with `symmetry`, within a
    /// cube's queens with `cube`), blocked as a count blocks them (the
    /// short clause with `uniform`). `count` is the claimed count.
    ///
    /// # Errors
    ///
    /// [`ProofError`].
    #[allow(clippy::too_many_arguments)]
    pub fn complete(
        &mut self,
        problem: &Problem,
        k: usize,
        config: Config,
        symmetry: bool,
        uniform: bool,
        placements: &[Placement],
        count: u64,
        cube: Option<&cubes::Cube>,
        claim: String,
        relies_on: Vec<String>,
    ) -> Result<&ClaimEntry, ProofError> {
        let squares = cube.map(cubes::Cube::squares).unwrap_or_default();
        let built = board_formula(problem, k, config, symmetry, &squares, placements, uniform)?;
        let cube = cube.map(|c| (c.columns.clone(), c.weight));
        let i = self.prove(
            built,
            ClaimKind::Complete,
            claim,
            relies_on,
            Some(count),
            cube,
        )?;
        Ok(&self.manifest.claims[i])
    }

    /// Proves that `formula`, read from `source` with `digest`, is
    /// unsatisfiable; with `blocked`, that those projected models are all
    /// there are (`count` of them).
    ///
    /// # Errors
    ///
    /// [`ProofError`].
    pub fn formula(
        &mut self,
        formula: &Formula,
        source: &Path,
        digest: &str,
        icnf_cube: Option<usize>,
        blocked: Option<(&[Vec<Lit>], u64)>,
    ) -> Result<&ClaimEntry, ProofError> {
        let mut cnf = Cnf::new();
        for clause in formula
            .clauses
            .iter()
            .chain(blocked.into_iter().flat_map(|b| b.0))
        {
            cnf.add_clause(clause.iter().copied().collect());
        }
        let mut header = Header::new();
        let shown = source.display();
        let (kind, claim, count) = match blocked {
            None => (
                ClaimKind::Formula,
                format!("{shown} is unsatisfiable"),
                None,
            ),
            Some((_, count)) => (
                ClaimKind::ProjectedComplete,
                format!("{shown} has exactly {count} projected models"),
                Some(count),
            ),
        };
        header.comments.push(format!("claim: {claim}"));
        header.comments.push(format!("source digest: {digest}"));
        let built = Built {
            header,
            cnf,
            n_vars: formula.n_vars,
        };
        let absolute = fs::canonicalize(source).unwrap_or_else(|_| source.to_path_buf());
        let relies_on = match kind {
            ClaimKind::ProjectedComplete => vec![
                "each blocked projected assignment is a model boardsat found and checked against every clause".to_string(),
            ],
            _ => Vec::new(),
        };
        let i = self.prove(built, kind, claim, relies_on, count, None)?;
        self.manifest.claims[i].source = Some((absolute.display().to_string(), digest.to_string()));
        self.manifest.claims[i].icnf_cube = icnf_cube;
        self.save()?;
        Ok(&self.manifest.claims[i])
    }

    /// Records the split a cube count's claims cover.
    ///
    /// # Errors
    ///
    /// The manifest cannot be written.
    pub fn set_cover(&mut self, cover: Cover) -> Result<(), ProofError> {
        self.manifest.cover = Some(cover);
        self.save()
    }

    /// Ends the proofs: the manifest as written, and the totals.
    #[must_use]
    pub fn finish(self) -> ProofSummary {
        ProofSummary {
            dir: self.dir.display().to_string(),
            claims: self.manifest.claims.len(),
            bytes: self.bytes,
        }
    }

    fn save(&self) -> Result<(), ProofError> {
        let path = self.dir.join(MANIFEST_JSON);
        let text = serde_json::to_string_pretty(&self.manifest).unwrap_or_default();
        write_atomically(&path, None, |w| {
            w.write_all(text.as_bytes())
                .and_then(|()| w.write_all(b"\n"))
                .map_err(|e| FileError::io(&path, e))
        })?;
        Ok(())
    }

    fn prove(
        &mut self,
        built: Built,
        kind: ClaimKind,
        claim: String,
        relies_on: Vec<String>,
        count: Option<u64>,
        cube: Option<(Vec<usize>, u64)>,
    ) -> Result<usize, ProofError> {
        let name = format!("claim-{:04}", self.manifest.claims.len());
        let cnf = format!("{name}.cnf");
        let proof = format!("{name}.lrat");
        let mut header = built.header;
        header
            .comments
            .insert(1, format!("claim: {claim} ({name}, {})", kind_word(kind)));
        let cnf_path = self.dir.join(&cnf);
        write_atomically(&cnf_path, Some(&self.stop), |w| {
            boardsat_encode::dimacs::write(w, &header, &built.cnf, built.n_vars)
                .map_err(|e| FileError::io(&cnf_path, e))
        })?;
        let proof_path = self.dir.join(&proof);
        refute(&cnf_path, &proof_path, &self.stop, &claim)?;
        let proof_bytes = fs::metadata(&proof_path).map_or(0, |m| m.len());
        self.bytes += proof_bytes;
        self.manifest.claims.push(ClaimEntry {
            name,
            claim,
            kind,
            cnf,
            proof,
            format: "lrat".to_string(),
            relies_on,
            count,
            cube,
            source: None,
            icnf_cube: None,
            proof_bytes,
        });
        self.save()?;
        Ok(self.manifest.claims.len() - 1)
    }
}

fn kind_word(kind: ClaimKind) -> &'static str {
    match kind {
        ClaimKind::NoPlacement => "no-placement",
        ClaimKind::Complete => "complete",
        ClaimKind::Formula => "formula",
        ClaimKind::ProjectedComplete => "projected-complete",
    }
}

/// A claim's formula before it is written.
struct Built {
    header: Header,
    cnf: Cnf,
    n_vars: u32,
}

/// The canonical formula of a board claim: the fixed encoding, lex-leader
/// constraints, a cube's units, then one blocking clause per placement.
///
/// The encoding is always eager: a result found with the lazy AMO (lines
/// propagated inside CaDiCaL) is proven on the same problem with
/// [`boardsat_encode::Amo::in_clauses`] (`auto`), since an LRAT proof can
/// only cite clauses of its formula, and the propagator's reasons are not
/// in it. The claim is about the problem, not the encoding the search
/// used, so the proof stands; its provenance names `amo: auto`.
fn board_formula(
    problem: &Problem,
    k: usize,
    config: Config,
    symmetry: bool,
    cube: &[Square],
    placements: &[Placement],
    uniform: bool,
) -> Result<Built, ProofError> {
    let config = Config {
        amo: config.amo.in_clauses(),
        ..config
    };
    let mut vars = problem.var_manager();
    let mut cnf = Cnf::new();
    let encoding = problem.encode(k, config, &mut cnf, &mut vars)?;
    let mut header = Header::for_encoding(&encoding, None);
    if symmetry {
        symmetry::lex_leader(&problem.board, &mut cnf, &mut vars)?;
        header
            .comments
            .push("boardsat-symmetry lex-leader".to_string());
    }
    if !cube.is_empty() {
        let cols: Vec<String> = cube.iter().map(|s| s.col.to_string()).collect();
        header
            .comments
            .push(format!("boardsat-cube {}", cols.join(",")));
        for &sq in cube {
            cnf.add_unit(problem.board.lit(sq));
        }
    }
    if !placements.is_empty() {
        header.comments.push(format!(
            "boardsat-blocking {}",
            if uniform { "short" } else { "full" }
        ));
    }
    for placement in placements {
        cnf.add_clause(
            blocking_clause(&problem.board, placement, uniform)
                .into_iter()
                .collect(),
        );
    }
    Ok(Built {
        header,
        cnf,
        n_vars: rustsat::instances::ManageVars::n_used(&vars),
    })
}

/// Solves the formula of `cnf` on a fresh CaDiCaL that reads it with its
/// own parser, tracing an LRAT proof into `proof`; it must answer UNSAT.
#[cfg(feature = "cadical")]
fn refute(cnf: &Path, proof: &Path, stop: &Interrupter, claim: &str) -> Result<(), ProofError> {
    use crate::{Backend, Interrupt};
    let mut solver = crate::Cadical::new();
    solver.use_interrupter(stop.clone());
    solver.trace_proof(proof)?;
    solver.read_dimacs(cnf)?;
    let status = solver.solve(&[])?;
    solver.close_proof()?;
    if status != crate::Status::Unsat {
        let _ = fs::remove_file(proof);
        return Err(ProofError::NotRefuted {
            claim: claim.to_string(),
            status,
        });
    }
    Ok(())
}

#[cfg(not(feature = "cadical"))]
fn refute(_: &Path, _: &Path, _: &Interrupter, _: &str) -> Result<(), ProofError> {
    Err(ProofError::Unavailable)
}

// ------------------------------------------------------------------ claims of tasks

/// "n queens", "5 rooks": `k` pieces in words.
fn pieces(problem: &Problem, k: usize) -> String {
    format!("{k} {}{}", problem.piece, if k == 1 { "" } else { "s" })
}

/// The claim that no placement with `k` pieces exists, in words.
fn no_placement_words(problem: &Problem, k: usize) -> String {
    let board = problem.board;
    match problem.kind {
        Kind::Domination => format!("{} cannot dominate the {board} board", pieces(problem, k)),
        Kind::IndependentDomination => format!(
            "{} that do not attack each other cannot dominate the {board} board",
            pieces(problem, k)
        ),
        Kind::Independence => format!(
            "{} cannot stand on the {board} board without attacking each other",
            pieces(problem, k)
        ),
    }
}

const SYMMETRY: &str = "lex-leader symmetry breaking: every placement has an image under the board's symmetries that the lex-leader constraints keep, with as many pieces";
const ORBITS: &str = "orbit weights: each placement kept by the lex-leader constraints stands for the placements of its orbit (their number is its orbit size)";
const HEREDITARY: &str = "independence is hereditary: without a placement of exactly k non-attacking pieces there is none of more";

/// Proves what [`crate::task::solve`] found: that no placement with k
/// pieces exists, or the bound one step past the optimum. Nothing to prove
/// when a placement was found with k fixed, or the optimum needs no proof.
///
/// # Errors
///
/// [`ProofError`].
pub fn prove_solved(
    prover: &mut Prover,
    instance: &crate::task::Instance,
    solved: &crate::task::Solved,
) -> Result<(), ProofError> {
    let problem = &instance.problem;
    match (instance.k, &solved.optimum) {
        (Some(k), _) if solved.status == crate::Status::Unsat => {
            prover.no_placement(
                problem,
                k,
                instance.config,
                false,
                no_placement_words(problem, k),
                Vec::new(),
            )?;
        }
        (None, Some(optimum)) if optimum.proven => prove_optimum(prover, instance, optimum)?,
        _ => {}
    }
    Ok(())
}

/// The claim behind a proven optimum: no placement one step better.
fn prove_optimum(
    prover: &mut Prover,
    instance: &crate::task::Instance,
    optimum: &crate::Optimum,
) -> Result<(), ProofError> {
    let problem = &instance.problem;
    let Some(call) = optimum.proof() else {
        return Ok(());
    };
    let k = call.bound.k();
    let mut relies_on = vec![SYMMETRY.to_string()];
    if !problem.kind.dominating() {
        relies_on.push(HEREDITARY.to_string());
    }
    prover.no_placement(
        problem,
        k,
        instance.config,
        true,
        no_placement_words(problem, k),
        relies_on,
    )?;
    Ok(())
}

/// Proves what [`crate::task::count`] found (counted with
/// [`crate::task::CountOptions::record`]): without k the optimum first,
/// then that the placements counted are all there are — one claim per cube
/// for a cube count, with the split the cubes cover.
///
/// # Errors
///
/// [`ProofError`]; a count that is not complete has nothing to prove.
pub fn prove_counted(
    prover: &mut Prover,
    instance: &crate::task::Instance,
    counted: &crate::task::Counted,
) -> Result<(), ProofError> {
    if counted.count.end != crate::End::Exhausted {
        return Ok(());
    }
    let problem = &instance.problem;
    let k = match (instance.k, &counted.optimum) {
        (Some(k), _) => k,
        (None, Some(optimum)) => {
            prove_optimum(prover, instance, optimum)?;
            optimum.value
        }
        (None, None) => return Ok(()),
    };
    let mut relies_on = Vec::new();
    if counted.symmetry {
        relies_on.push(ORBITS.to_string());
    }
    if instance.k.is_none() && problem.kind.dominating() {
        relies_on.push(format!(
            "the optimum claim before this one: no placement has fewer than {k} pieces, so every solution has exactly {k} and the short blocking clauses miss none"
        ));
    }
    let weight = |list: &[Placement]| -> u64 {
        list.iter()
            .map(|p| {
                if counted.symmetry {
                    symmetry::orbit_size(&problem.board, p)
                } else {
                    1
                }
            })
            .sum()
    };
    for (cube, list) in &counted.placements {
        let count = weight(list);
        let claim = match cube {
            Some(c) => format!(
                "{count} placements of {} on the {} board have queens in columns {:?} of the first rows",
                pieces(problem, k),
                problem.board,
                c.columns
            ),
            None => format!(
                "{} has exactly {count} placements with {}",
                problem,
                pieces(problem, k)
            ),
        };
        let mut relies = relies_on.clone();
        if cube.is_some() {
            relies.push(
                "the cubes cover every placement (checked by 'boardsat verify' against the split)"
                    .to_string(),
            );
        }
        prover.complete(
            problem,
            k,
            instance.config,
            counted.symmetry,
            counted.uniform,
            list,
            count,
            cube.as_ref(),
            claim,
            relies,
        )?;
    }
    if let Some(cubes) = &counted.cubes {
        prover.set_cover(Cover {
            n: problem.board.rows(),
            depth: cubes.options.depth,
            halve: cubes.options.reduction == cubes::Reduction::Halve,
            count: counted.count.count,
        })?;
    }
    Ok(())
}

/// Proves that the placements listed by an enumeration (recorded with
/// [`crate::Session::record_blocked`]) are all there are; without k, the
/// optimum first.
///
/// # Errors
///
/// [`ProofError`].
pub fn prove_listed(
    prover: &mut Prover,
    instance: &crate::task::Instance,
    enumeration: &crate::task::Enumeration,
) -> Result<(), ProofError> {
    let session = enumeration.session();
    let problem = &instance.problem;
    let k = match (instance.k, enumeration.optimum()) {
        (Some(k), _) => k,
        (None, Some(optimum)) if optimum.proven => {
            prove_optimum(prover, instance, optimum)?;
            optimum.value
        }
        _ => return Ok(()),
    };
    let list = session.blocked();
    let count = list.len() as u64;
    let mut relies_on = Vec::new();
    if instance.k.is_none() && problem.kind.dominating() {
        relies_on.push(format!(
            "the optimum claim before this one: every solution has exactly {k} pieces"
        ));
    }
    prover.complete(
        problem,
        k,
        instance.config,
        false,
        session.uniform(),
        list,
        count,
        None,
        format!(
            "{problem} has exactly {count} placements with {}",
            pieces(problem, k)
        ),
        relies_on,
    )?;
    Ok(())
}

// ------------------------------------------------------------------ verify

/// The verdict on one claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The claim's name (or the file's, for [`verify_files`]).
    pub name: String,
    /// `Ok` with what was checked, or the reason it fails.
    pub result: Result<String, String>,
}

/// Why a proof directory could not be verified at all.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The directory has no readable manifest.
    #[error("{0}")]
    Manifest(String),
}

/// Verifies every claim of the proof directory `dir` (see the module doc),
/// and for a cube count that the claims cover the split.
///
/// # Errors
///
/// [`VerifyError`] when the manifest cannot be read; each claim's failure
/// is its [`Verdict`].
pub fn verify(dir: &Path, stop: Option<&Interrupter>) -> Result<Vec<Verdict>, VerifyError> {
    let path = dir.join(MANIFEST_JSON);
    let text = fs::read_to_string(&path).map_err(|e| {
        VerifyError::Manifest(format!(
            "cannot read {}: {}",
            path.display(),
            files::describe(&e)
        ))
    })?;
    let manifest: ProofManifest = serde_json::from_str(&text).map_err(|e| {
        VerifyError::Manifest(format!("{}: not a proof manifest ({e})", path.display()))
    })?;
    if manifest.claims.is_empty() {
        return Err(VerifyError::Manifest(format!(
            "{}: no claims",
            path.display()
        )));
    }
    let mut verdicts = Vec::new();
    for entry in &manifest.claims {
        let result = verify_claim(dir, entry, stop);
        verdicts.push(Verdict {
            name: entry.name.clone(),
            result,
        });
    }
    if let Some(cover) = &manifest.cover {
        verdicts.push(Verdict {
            name: "cover".to_string(),
            result: verify_cover(cover, &manifest.claims),
        });
    }
    Ok(verdicts)
}

/// Verifies `proof` against `cnf` (and, when the formula carries a board
/// claim's provenance, re-derives it as [`verify`] does).
#[must_use]
pub fn verify_files(cnf: &Path, proof: &Path, stop: Option<&Interrupter>) -> Verdict {
    let formula = match read_formula(cnf, stop) {
        Ok(f) => f,
        Err(e) => {
            return Verdict {
                name: cnf.display().to_string(),
                result: Err(e),
            }
        }
    };
    let result = check_lrat(&formula, proof).and_then(|steps| {
        if formula.provenance("problem").is_some() {
            check_board(&formula, None).map(|what| format!("{steps}; {what}"))
        } else {
            Ok(steps)
        }
    });
    Verdict {
        name: cnf.display().to_string(),
        result,
    }
}

fn read_formula(path: &Path, stop: Option<&Interrupter>) -> Result<Formula, String> {
    let file = fs::File::open(path)
        .map_err(|e| format!("cannot read {}: {}", path.display(), files::describe(&e)))?;
    dimacs::read(BufReader::new(file), None, stop).map_err(|e| format!("{}: {e}", path.display()))
}

fn verify_claim(
    dir: &Path,
    entry: &ClaimEntry,
    stop: Option<&Interrupter>,
) -> Result<String, String> {
    if entry.format != "lrat" {
        return Err(format!("unknown proof format '{}'", entry.format));
    }
    let formula = read_formula(&dir.join(&entry.cnf), stop)?;
    let steps = check_lrat(&formula, &dir.join(&entry.proof))?;
    let tied = match entry.kind {
        ClaimKind::NoPlacement | ClaimKind::Complete => {
            let what = check_board(&formula, Some(entry))?;
            match (entry.kind, formula.tag("blocking")) {
                (ClaimKind::NoPlacement, Some(_)) => {
                    return Err("a no-placement claim whose formula blocks placements".to_string())
                }
                _ => what,
            }
        }
        ClaimKind::Formula | ClaimKind::ProjectedComplete => check_source(&formula, entry)?,
    };
    Ok(format!("{steps}; {tied}"))
}

/// The LRAT check of `proof` against `formula`.
fn check_lrat(formula: &Formula, proof: &Path) -> Result<String, String> {
    let file = fs::File::open(proof)
        .map_err(|e| format!("cannot read {}: {}", proof.display(), files::describe(&e)))?;
    let clauses = formula
        .clauses
        .iter()
        .map(|c| c.iter().map(|l| l.to_ipasir()).collect::<Vec<i32>>());
    let summary = boardsat_lrat::check(clauses, file, boardsat_lrat::Format::Text)
        .map_err(|e| format!("{}: {e}", proof.display()))?;
    Ok(format!(
        "LRAT proof of {} steps derives the empty clause",
        summary.n_steps
    ))
}

/// The problem, bound and encodings a board claim's provenance names.
fn provenance(formula: &Formula) -> Result<(Problem, usize, Bound, Config), String> {
    let line = |key: &str| {
        formula
            .provenance(key)
            .ok_or_else(|| format!("the formula has no '{key}:' provenance line"))
    };
    let name = |key: &str| -> Result<String, String> { Ok(line(key)?.to_string()) };
    let kind = Kind::from_name(&name("problem")?).ok_or("unknown problem kind")?;
    let piece = Piece::from_name(&name("piece")?).ok_or("unknown piece")?;
    let board = name("board")?;
    let (rows, cols) = board
        .split_once('x')
        .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)))
        .ok_or_else(|| format!("bad board '{board}'"))?;
    let board = Board::new(rows, cols).map_err(|e| e.to_string())?;
    let bound = name("bound")?;
    let words: Vec<&str> = bound.split_whitespace().collect();
    let (bound, k) = match words.as_slice() {
        ["at", "most", k, "pieces"] => k.parse().map(|k| (Bound::AtMost(k), k)),
        ["at", "least", k, "pieces"] => k.parse().map(|k| (Bound::AtLeast(k), k)),
        ["exactly", k, "pieces"] => k.parse().map(|k| (Bound::Exactly(k), k)),
        _ => return Err(format!("the bound '{bound}' is not a fixed bound")),
    }
    .map_err(|_| format!("bad bound '{bound}'"))?;
    let config = Config {
        amo: name("amo")?.parse().map_err(|e| format!("{e}"))?,
        card: name("card")?.parse::<Card>().map_err(|e| format!("{e}"))?,
        formulation: name("formulation")?
            .parse::<Formulation>()
            .map_err(|e| format!("{e}"))?,
    };
    let problem = Problem::new(board, piece, kind);
    if kind.bound(k) != bound {
        return Err(format!("the bound '{bound}' is not the bound of {problem}"));
    }
    Ok((problem, k, bound, config))
}

/// Ties a board claim's formula to its problem (see the module doc); the
/// count of a completeness claim must be `entry`'s.
fn check_board(formula: &Formula, entry: Option<&ClaimEntry>) -> Result<String, String> {
    let (problem, k, bound, config) = provenance(formula)?;
    let board = problem.board;
    let mut vars = problem.var_manager();
    let mut expected = Cnf::new();
    problem
        .encode(k, config, &mut expected, &mut vars)
        .map_err(|e| e.to_string())?;
    let n_base = expected.len();
    let symmetric = formula.tag("symmetry") == Some("lex-leader");
    if symmetric {
        symmetry::lex_leader(&board, &mut expected, &mut vars).map_err(|e| e.to_string())?;
    }
    let mut cube_squares = Vec::new();
    if let Some(cols) = formula.tag("cube") {
        for (row, col) in cols.split(',').enumerate() {
            let col: usize = col.parse().map_err(|_| format!("bad cube '{cols}'"))?;
            let sq = Square::new(row, col);
            if !board.contains(sq) {
                return Err(format!("the cube '{cols}' is off the board"));
            }
            cube_squares.push(sq);
            expected.add_unit(board.lit(sq));
        }
    }
    if let Some(entry) = entry {
        let claimed: Option<&Vec<usize>> = entry.cube.as_ref().map(|(c, _)| c);
        let found: Vec<usize> = cube_squares.iter().map(|s| s.col).collect();
        if claimed.map_or(!found.is_empty(), |c| *c != found) {
            return Err("the formula's cube is not the manifest's".to_string());
        }
    }
    let n_fixed = expected.len();
    if formula.clauses.len() < n_fixed {
        return Err(format!(
            "the formula has {} clauses, fewer than the {n_fixed} of {problem} with {bound} pieces",
            formula.clauses.len()
        ));
    }
    for (i, (got, want)) in formula.clauses.iter().zip(expected.iter()).enumerate() {
        let want: Vec<Lit> = want.iter().copied().collect();
        if *got != want {
            let part = if i < n_base {
                "the encoding of the problem"
            } else {
                "the lex-leader constraints or the cube"
            };
            return Err(format!(
                "clause {} is not {part} as re-derived from the provenance lines",
                i + 1
            ));
        }
    }
    let rest = &formula.clauses[n_fixed..];
    let uniform = match formula.tag("blocking") {
        Some("short") => true,
        Some("full") | None => false,
        Some(other) => return Err(format!("unknown blocking style '{other}'")),
    };
    let mut seen = std::collections::HashSet::new();
    let mut count = 0u64;
    for (i, clause) in rest.iter().enumerate() {
        let placement = blocked_placement(&board, clause, uniform).ok_or_else(|| {
            format!(
                "clause {} is neither part of the problem nor a blocking clause",
                n_fixed + i + 1
            )
        })?;
        check(&problem, Some(bound), &placement).map_err(|v| {
            format!(
                "clause {} blocks a placement that is not a solution ({v})",
                n_fixed + i + 1
            )
        })?;
        if !cube_squares
            .iter()
            .all(|sq| placement.squares().contains(sq))
        {
            return Err(format!(
                "clause {} blocks a placement outside the cube",
                n_fixed + i + 1
            ));
        }
        if symmetric && !symmetry::is_lex_leader(&board, &placement) {
            return Err(format!(
                "clause {} blocks a placement that is not the leader of its orbit",
                n_fixed + i + 1
            ));
        }
        if !seen.insert(placement.clone()) {
            return Err(format!(
                "clause {} blocks a placement twice",
                n_fixed + i + 1
            ));
        }
        count += if symmetric {
            symmetry::orbit_size(&board, &placement)
        } else {
            1
        };
    }
    let what = format!(
        "the formula is the encoding of {problem} with {bound}{}{}",
        if symmetric {
            ", lex-leader constraints"
        } else {
            ""
        },
        if cube_squares.is_empty() {
            ""
        } else {
            ", a cube"
        }
    );
    match entry.and_then(|e| e.count) {
        Some(claimed) if claimed != count => Err(format!(
            "the formula blocks {count} placements (orbit-weighted), the manifest claims {claimed}"
        )),
        Some(_) => Ok(format!(
            "{what} and {} blocked placements: {count} in all",
            rest.len()
        )),
        None if !rest.is_empty() && entry.is_some() => {
            Err("blocking clauses in a claim without a count".to_string())
        }
        None => Ok(what),
    }
}

/// The placement a blocking clause excludes: the short clause (every
/// literal a negated board variable) or the full one (every board
/// variable once).
fn blocked_placement(board: &Board, clause: &[Lit], uniform: bool) -> Option<Placement> {
    let n = board.n_squares();
    if clause.iter().any(|l| l.vidx() >= n) {
        return None;
    }
    let squares: Vec<Square> = if uniform {
        if clause.iter().any(|l| l.is_pos()) {
            return None;
        }
        clause
            .iter()
            .filter_map(|l| board.square_of(l.var()))
            .collect()
    } else {
        if clause.len() != n {
            return None;
        }
        let mut vars: Vec<usize> = clause.iter().map(|l| l.vidx()).collect();
        vars.sort_unstable();
        vars.dedup();
        if vars.len() != n {
            return None;
        }
        clause
            .iter()
            .filter(|l| l.is_neg())
            .filter_map(|l| board.square_of(l.var()))
            .collect()
    };
    Some(Placement::new(squares))
}

/// Ties a DIMACS claim to its source file: its digest, and its clauses as
/// the formula's first ones; the rest must block distinct projected
/// assignments, as many as claimed.
fn check_source(formula: &Formula, entry: &ClaimEntry) -> Result<String, String> {
    let Some((path, digest)) = &entry.source else {
        return Err("the claim names no source file".to_string());
    };
    let file = fs::File::open(path)
        .map_err(|e| format!("cannot read the source {path}: {}", files::describe(&e)))?;
    let (source, found) = dimacs::read_with_digest(file, None, None)
        .map_err(|e| format!("the source {path}: {e}"))?;
    if found != *digest {
        return Err(format!(
            "the source {path} has changed (its digest is not the claim's)"
        ));
    }
    let source = match entry.icnf_cube {
        Some(i) => source
            .with_cube(i)
            .map_err(|e| format!("the source {path}: {e}"))?,
        None => source,
    };
    let n = source.clauses.len();
    if formula.clauses.len() < n || formula.clauses[..n] != source.clauses[..] {
        return Err(format!(
            "the formula does not start with the clauses of {path}"
        ));
    }
    let rest = &formula.clauses[n..];
    match entry.kind {
        ClaimKind::Formula if rest.is_empty() => Ok(format!("the formula is {path}")),
        ClaimKind::Formula => Err("the formula has clauses its source does not".to_string()),
        _ => {
            let projection = source.projection_or_all();
            let mut seen = std::collections::HashSet::new();
            for (i, clause) in rest.iter().enumerate() {
                let vars: Vec<Var> = clause.iter().map(|l| l.var()).collect();
                if vars != projection || !seen.insert(clause.clone()) {
                    return Err(format!(
                        "clause {} is not a new blocking clause over the projection",
                        n + i + 1
                    ));
                }
            }
            let count = rest.len() as u64;
            match entry.count {
                Some(c) if c == count => Ok(format!("{path} and {count} blocked projected models")),
                Some(c) => Err(format!(
                    "the formula blocks {count} projected models, the manifest claims {c}"
                )),
                None => Err("a projected count without a count".to_string()),
            }
        }
    }
}

/// The claims of a cube count must be exactly the split's cubes, each with
/// its weight, and their weighted total the claimed count.
fn verify_cover(cover: &Cover, claims: &[ClaimEntry]) -> Result<String, String> {
    let expected = cubes::queen_cubes(cover.n, cover.depth, cover.halve);
    let mut found: Vec<(Vec<usize>, u64, u64)> = claims
        .iter()
        .filter(|c| c.kind == ClaimKind::Complete)
        .filter_map(|c| {
            c.cube
                .as_ref()
                .map(|(cols, w)| (cols.clone(), *w, c.count.unwrap_or(0)))
        })
        .collect();
    found.sort();
    let mut want: Vec<(Vec<usize>, u64)> = expected
        .iter()
        .map(|c| (c.columns.clone(), c.weight))
        .collect();
    want.sort();
    let got: Vec<(Vec<usize>, u64)> = found.iter().map(|(c, w, _)| (c.clone(), *w)).collect();
    if got != want {
        return Err(format!(
            "the claims cover {} cubes, the split has {} (or their weights differ)",
            got.len(),
            want.len()
        ));
    }
    let total = found
        .iter()
        .try_fold(0u64, |t, (_, w, c)| {
            c.checked_mul(*w).and_then(|x| t.checked_add(x))
        })
        .ok_or("the total overflows")?;
    if total != cover.count {
        return Err(format!(
            "the cubes' weighted total is {total}, the manifest claims {}",
            cover.count
        ));
    }
    Ok(format!(
        "the {} cubes of depth {} cover every placement; weighted total {total}",
        want.len(),
        cover.depth
    ))
}
