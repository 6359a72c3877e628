//! Certified domination splits: the prover as the [`Certify`] of the
//! split solvers. Each cube's solver traces its own LRAT proof; here each
//! proven cube becomes a claim — its formula and proof, its cube, its
//! stabilizer, its count — and the split an entry of `MANIFEST.json`,
//! written after every cube so that an interrupted split leaves a manifest
//! that says which cubes are proven. A refutation that met a placement
//! proves nothing: its claims and files are removed.

use std::{collections::BTreeMap, fs, sync::Mutex};

use boardsat_encode::dimacs::{CubeTag, Header};
use boardsat_solve::{
    backend::ProofSink,
    error::SolveError,
    search::{
        certify::{Certify, CubeProof, ProvenCube, Purpose, SplitEnd, SplitInfo, Ticket},
        count::Blocking,
        lex::LexOrder,
    },
};

use crate::{
    manifest::{
        bound_tag, symmetry_name, ClaimEntry, ClaimKind, SplitCube, SplitEntry, SplitPurpose,
        LINES_FIRST,
    },
    prover::{ProofError, Prover},
    sentences,
    trace::SharedTrace,
};

/// The prover of a certified split (see the module doc).
#[derive(Debug)]
pub struct SplitProver<'a> {
    state: Mutex<State<'a>>,
}

#[derive(Debug)]
struct State<'a> {
    prover: &'a mut Prover,
    splits: Vec<SplitInfo>,
    /// Each split's name in the manifest (`split-0`, …; a resumed count
    /// keeps its earlier name).
    names: Vec<String>,
    /// The traces the cubes' solvers feed, by ticket, until proven or
    /// forgotten.
    traces: BTreeMap<Ticket, SharedTrace>,
    next_ticket: u64,
}

impl<'a> SplitProver<'a> {
    /// Certifies splits into `prover`'s directory.
    pub fn new(prover: &'a mut Prover) -> Self {
        SplitProver {
            state: Mutex::new(State {
                prover,
                splits: Vec::new(),
                names: Vec::new(),
                traces: BTreeMap::new(),
                next_ticket: 0,
            }),
        }
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&mut State<'a>) -> Result<T, ProofError>,
    ) -> Result<T, SolveError> {
        let mut state = self
            .state
            .lock()
            .map_err(|_| SolveError::Internal("a prover thread panicked"))?;
        f(&mut state).map_err(failed)
    }
}

/// The prover's error, as a certifier's: kept whole, not flattened into
/// words.
fn failed(e: ProofError) -> SolveError {
    match e {
        ProofError::Solve(e) => e,
        e => SolveError::Certifier(Box::new(e)),
    }
}

fn purpose(info: &SplitInfo) -> SplitPurpose {
    match info.purpose {
        Purpose::Refute => SplitPurpose::Refute,
        Purpose::Count(_) => SplitPurpose::Count,
    }
}

impl Certify for SplitProver<'_> {
    fn begin(&self, split: &SplitInfo) -> Result<usize, SolveError> {
        self.with(|s| {
            let i = s.splits.len();
            let claim = sentences::split_running(&split.problem, split.k, purpose(split));
            let resumed = match split.purpose {
                Purpose::Count(_) => s.prover.take_resumed(),
                Purpose::Refute => s.prover.take_resumed_refute(split.k, &split_key(split)),
            };
            let name = if let Some(name) = resumed {
                let entry = resumed_entry(s.prover, &name)?;
                if entry.k != split.k {
                    return Err(ProofError::Solve(SolveError::NotResumable(format!(
                        "the earlier run counted placements of at most {} pieces, this one of at most {}",
                        entry.k, split.k
                    ))));
                }
                if entry.key.as_ref().is_some_and(|key| *key != split_key(split)) {
                    return Err(ProofError::Solve(SolveError::NotResumable(format!(
                        "the earlier run's split is another ({}), this one is {}",
                        entry.key.as_deref().unwrap_or_default(),
                        split_key(split)
                    ))));
                }
                same_split(s.prover, &name, split)?;
                let entry = resumed_entry(s.prover, &name)?;
                entry.status = "running".to_string();
                entry.claim = claim;
                entry.key = Some(split_key(split));
                name
            } else {
                let manifest = s.prover.manifest_mut();
                let taken = |n: &str| s.names.iter().chain(manifest.splits.iter().map(|e| &e.name)).any(|m| m == n);
                let name = (i..)
                    .map(|j| format!("split-{j}"))
                    .find(|n| !taken(n))
                    .unwrap_or_default();
                manifest.splits.push(SplitEntry {
                    name: name.clone(),
                    purpose: purpose(split),
                    k: split.k,
                    status: "running".to_string(),
                    claim,
                    count: None,
                    fundamental: None,
                    key: Some(split_key(split)),
                });
                name
            };
            if matches!(split.purpose, Purpose::Count(_)) {
                // The optimum is settled: an earlier run's refutations this
                // one did not take prove nothing it needs.
                for name in s.prover.untaken_refutes() {
                    s.prover.remove_split(&name)?;
                }
            }
            s.splits.push(split.clone());
            s.names.push(name);
            s.prover.save()?;
            Ok(i)
        })
    }

    fn proven_before(&self, split: usize) -> Vec<ProvenCube> {
        self.with(|s| {
            let name = &s.names[split];
            Ok(s.prover
                .manifest_mut()
                .claims
                .iter()
                .filter_map(|c| {
                    let sc = c.split.as_ref().filter(|sc| sc.split == *name)?;
                    Some(ProvenCube {
                        depth: sc.depth,
                        cube: sc.cube.clone(),
                        count: c.count.unwrap_or(0),
                        models: sc.models,
                    })
                })
                .collect())
        })
        .unwrap_or_default()
    }

    fn sink(&self) -> Result<(Ticket, Box<dyn ProofSink>), SolveError> {
        let trace = SharedTrace::new()?;
        let sink = trace.sink();
        self.with(|s| {
            let ticket = Ticket(s.next_ticket);
            s.next_ticket += 1;
            s.traces.insert(ticket, trace);
            Ok((ticket, sink))
        })
    }

    fn forget(&self, ticket: Ticket) {
        let _ = self.with(|s| {
            s.traces.remove(&ticket);
            Ok(())
        });
    }

    fn proven(&self, split: usize, proof: CubeProof) -> Result<(), SolveError> {
        self.with(|s| {
            let info = s.splits[split].clone();
            let (name, cnf, lrat) = s.prover.next_traced();
            let split_name = s.names[split].clone();
            let header = cube_header(&info, &split_name, &name, &proof);
            let dir = s.prover.dir().to_path_buf();
            let shared = s.traces.remove(&proof.trace).ok_or(SolveError::Internal(
                "a cube's proof came back with a ticket its certifier never gave",
            ))?;
            let trace = shared.take()?.finish(
                &dir.join(&cnf),
                &dir.join(&lrat),
                &header,
                0,
                s.prover.proof_format(),
                s.prover.compression(),
            )?;
            if !trace.refutes {
                return Err(ProofError::NoRefutation(format!("cube {}", proof.cube)));
            }
            let (kind, count) = match info.purpose {
                Purpose::Refute => (ClaimKind::NoPlacement, None),
                Purpose::Count(_) => (ClaimKind::Complete, Some(proof.count)),
            };
            let cube = proof.cube.to_string();
            let claim = sentences::split_cube(&info.problem, info.k, &cube, count);
            s.prover.add_claim(ClaimEntry {
                name,
                claim,
                kind,
                cnf,
                proof: lrat,
                format: s.prover.proof_format().name().to_string(),
                relies_on: Vec::new(),
                count,
                cube: None,
                source: None,
                icnf_cube: None,
                models: None,
                proof_bytes: trace.proof_bytes,
                split: Some(SplitCube {
                    split: split_name,
                    depth: proof.cube.depth,
                    cube,
                    orbit: proof.orbit,
                    stabilizer: proof.stabilizer.iter().map(|&s| symmetry_name(s)).collect(),
                    models: proof.placements.len() as u64,
                    millis: Some(u64::try_from(proof.elapsed.as_millis()).unwrap_or(u64::MAX)),
                    cpu_millis: proof
                        .cpu
                        .map(|cpu| u64::try_from(cpu.as_millis()).unwrap_or(u64::MAX)),
                }),
            })
        })
    }

    fn end(&self, split: usize, end: SplitEnd) -> Result<(), SolveError> {
        self.with(|s| {
            let info = s.splits[split].clone();
            let name = s.names[split].clone();
            if end == SplitEnd::Satisfiable {
                s.prover.remove_split(&name)?;
                return Ok(());
            }
            let manifest = s.prover.manifest_mut();
            let cubes: Vec<&ClaimEntry> = manifest
                .claims
                .iter()
                .filter(|c| c.split.as_ref().is_some_and(|sc| sc.split == name))
                .collect();
            let count: u64 = cubes.iter().filter_map(|c| c.count).sum();
            let fundamental: u64 = cubes
                .iter()
                .filter_map(|c| c.split.as_ref())
                .map(|c| c.models)
                .sum();
            let counted = matches!(info.purpose, Purpose::Count(_));
            let orbits = counted && info.symmetry.is_some();
            let proven = cubes.len();
            if let Some(entry) = manifest.splits.iter_mut().find(|e| e.name == name) {
                if end == SplitEnd::Complete {
                    entry.status = "complete".to_string();
                    entry.count = counted.then_some(count);
                    entry.fundamental = orbits.then_some(fundamental);
                    entry.claim = sentences::split(&info.problem, info.k, entry.count);
                } else {
                    // A stopped split proves only its cubes: no total.
                    entry.status = "stopped".to_string();
                    entry.claim = sentences::split_stopped(
                        &info.problem,
                        info.k,
                        proven,
                        counted.then_some(count),
                    );
                }
            }
            s.prover.save()
        })
    }
}

/// The manifest entry of the resumed split `name`.
fn resumed_entry<'p>(prover: &'p mut Prover, name: &str) -> Result<&'p mut SplitEntry, ProofError> {
    prover
        .manifest_mut()
        .splits
        .iter_mut()
        .find(|e| e.name == name)
        .ok_or(ProofError::Solve(SolveError::Internal(
            "a resumed split without its manifest entry",
        )))
}

/// What makes two runs' splits the same ([`SplitEntry::key`]): the
/// problem, the bound, the purpose and the lex-leader order.
fn split_key(split: &SplitInfo) -> String {
    let symmetry = match split.symmetry {
        Some(LexOrder::LinesFirst) => "lex-leader lines first",
        Some(LexOrder::Board) => "lex-leader board order",
        None => "no symmetry breaking",
    };
    let purpose = match split.purpose {
        Purpose::Refute => "refute".to_string(),
        Purpose::Count(Blocking::Short) => "count, short blocking clauses".to_string(),
        Purpose::Count(Blocking::Full) => "count, full blocking clauses".to_string(),
    };
    format!(
        "{} with at most {}: {purpose}, {symmetry}",
        split.problem, split.k
    )
}

/// The kept cubes of resumed split `name` are cubes of `split`: each
/// claim's sentence is the one this split would write for its cube and
/// count (the problem and the bound), and its formula's header names the
/// same lex-leader order and blocking clauses (none, for a refutation) —
/// for manifests written before splits recorded their key, and as a check
/// of the files.
fn same_split(prover: &mut Prover, name: &str, split: &SplitInfo) -> Result<(), ProofError> {
    let dir = prover.dir().to_path_buf();
    let lines_first = split.symmetry == Some(LexOrder::LinesFirst);
    let blocking = match split.purpose {
        Purpose::Count(Blocking::Short) => "short",
        Purpose::Count(Blocking::Full) => "full",
        Purpose::Refute => "",
    };
    let other = |why: String| ProofError::Solve(SolveError::NotResumable(why));
    for claim in &prover.manifest_mut().claims {
        let Some(cube) = claim.split.as_ref().filter(|sc| sc.split == name) else {
            continue;
        };
        let expected = sentences::split_cube(&split.problem, split.k, &cube.cube, claim.count);
        if claim.claim != expected {
            return Err(other(format!(
                "{} of the earlier run is of another count: {}",
                claim.name, claim.claim
            )));
        }
        let header =
            cnf_header(&dir.join(&claim.cnf)).map_err(|e| other(format!("{}: {e}", claim.cnf)))?;
        let symmetric = header
            .iter()
            .any(|l| l == &format!("c boardsat-symmetry {LINES_FIRST}"));
        let blocked = match split.purpose {
            Purpose::Count(_) => header
                .iter()
                .any(|l| l == &format!("c boardsat-blocking {blocking}")),
            Purpose::Refute => !header.iter().any(|l| l.starts_with("c boardsat-blocking")),
        };
        if symmetric != lines_first || !blocked {
            return Err(other(format!(
                "{} of the earlier run breaks symmetry or blocks placements otherwise than this count",
                claim.name
            )));
        }
    }
    Ok(())
}

/// The comment lines of a DIMACS file, up to its `p` line.
fn cnf_header(path: &std::path::Path) -> std::io::Result<Vec<String>> {
    use std::io::BufRead;
    let mut lines = Vec::new();
    for line in std::io::BufReader::new(fs::File::open(path)?).lines() {
        let line = line?;
        if !line.starts_with('c') {
            break;
        }
        lines.push(line);
    }
    Ok(lines)
}

/// The `c` lines of cube `proof`'s formula, claim `name` of split
/// `split`: the encoding's provenance, the bound, the split, the cube, its
/// stabilizer, the lex-leader order and the blocking style — what
/// `verify` re-derives the formula from.
fn cube_header(info: &SplitInfo, split: &str, name: &str, proof: &CubeProof) -> Vec<String> {
    let mut header = Header::for_encoding(&proof.encoding, None).comments;
    header.insert(
        1,
        format!("claim: the claim {name} of {split} in MANIFEST.json"),
    );
    header.push(format!(
        "boardsat-bound {}",
        bound_tag(info.problem.kind.bound(info.k))
    ));
    header.push(format!("boardsat-split {split}"));
    let cube = CubeTag::Rings {
        depth: proof.cube.depth,
        cube: proof.cube.to_string(),
    };
    header.push(cube.line());
    let names: Vec<String> = proof.stabilizer.iter().map(|&s| symmetry_name(s)).collect();
    header.push(format!("boardsat-stabilizer {}", names.join(",")));
    if info.symmetry == Some(LexOrder::LinesFirst) {
        header.push(format!("boardsat-symmetry {LINES_FIRST}"));
    }
    if let Purpose::Count(blocking) = info.purpose {
        let style = match blocking {
            Blocking::Short => "short",
            Blocking::Full => "full",
        };
        header.push(format!("boardsat-blocking {style}"));
    }
    header
}

impl Prover {
    /// Removes the claims of split `name`, their files, and its entry.
    fn remove_split(&mut self, name: &str) -> Result<(), crate::prover::ProofError> {
        let dir = self.dir().to_path_buf();
        let manifest = self.manifest_mut();
        let (gone, kept): (Vec<ClaimEntry>, Vec<ClaimEntry>) = std::mem::take(&mut manifest.claims)
            .into_iter()
            .partition(|c| c.split.as_ref().is_some_and(|s| s.split == name));
        manifest.claims = kept;
        manifest.splits.retain(|s| s.name != name);
        for claim in gone {
            let _ = fs::remove_file(dir.join(&claim.cnf));
            let _ = fs::remove_file(dir.join(&claim.proof));
        }
        self.save()
    }
}
