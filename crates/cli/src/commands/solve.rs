//! `boardsat solve`: one placement, or without -k the optimum with the
//! solver's proof.

use anyhow::{bail, Result};
use boardsat_encode::{draw, Kind, Piece, Problem};
use boardsat_solve::{
    files::{check_writable, write_atomically},
    proof,
    report::SolveReport,
    task::{self, Solved},
    SolverKind, StopReason,
};

use crate::{
    flags::SolveArgs,
    hiargs,
    outcome::Outcome,
    output::{backing, note, note_proofs, stats_line, why_stopped, ProgressLine, Stdout},
};

/// Runs `solve`.
pub fn run(args: &SolveArgs) -> Result<Outcome> {
    let instance = hiargs::instance(&args.problem)?;
    let solver = hiargs::solver(&args.solver)?;
    if args.portfolio && instance.k.is_some() {
        bail!("--portfolio races encodings for an optimum; it does not apply with -k");
    }
    // A path that cannot be written fails now, not after the search.
    if let Some(path) = &args.svg {
        check_writable(path)?;
    }
    let stop = hiargs::stop(&args.solver);
    let mut prover = hiargs::prover(&args.proof, args.problem.force, &stop)?;
    let progress = std::sync::Mutex::new(ProgressLine::new());
    let calls = std::sync::atomic::AtomicUsize::new(0);
    let solved = task::solve(&instance, &solver, args.portfolio, &stop, &|bound| {
        let call = calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if let Ok(mut line) = progress.lock() {
            line.show(|| format!("optimum: call {call}, {bound} pieces"));
        }
    })?;
    drop(progress);
    let reason = stop.reason();
    let backend = solver.signature();
    note(stats_line(&solved.encoding));
    note(format!(
        "solver {backend}, {} calls, {:.3} s",
        solved.calls,
        solved.elapsed.as_secs_f64()
    ));
    if let Some([first, second]) = solved.portfolio {
        note(format!(
            "portfolio: {first} and {second}; {} answered first",
            solved.encoding.config.card
        ));
    }
    // Proofs of the UNSAT answers; a failure here is reported after the
    // result, which it must not cost.
    let proven = prover
        .take()
        .map(|mut p| proof::prove_solved(&mut p, &instance, &solved).map(|()| p.finish()));
    let summary = proven.as_ref().and_then(|r| r.as_ref().ok()).cloned();
    let external = solver.kind == SolverKind::External && summary.is_none();
    // The result first: an output file that fails afterwards loses nothing.
    let mut out = Stdout::new();
    if args.json {
        let mut report = SolveReport::new(&solved, backend.clone(), reason);
        report.unverified = external && has_unsat(&solved);
        report.proof = summary.clone();
        out.json(&report)?;
    } else {
        let backed = backing(summary.as_ref(), external);
        print(
            &mut out,
            &instance.problem,
            instance.k,
            &solved,
            &backend,
            reason,
            &backed,
        )?;
    }
    out.flush()?;
    note_proofs(summary.as_ref());
    if let Some(Err(e)) = proven {
        return Err(e.into());
    }
    if let (Some(path), Some(placement)) = (&args.svg, &solved.placement) {
        let problem = &instance.problem;
        write_atomically(path, Some(&stop), |w| -> Result<()> {
            w.write_all(draw::svg(&problem.board, problem.piece, placement).as_bytes())?;
            Ok(())
        })?;
    }
    Ok(match solved.status {
        boardsat_solve::Status::Sat => Outcome::Done,
        boardsat_solve::Status::Unsat => Outcome::Unsat,
        boardsat_solve::Status::Unknown => Outcome::Stopped(reason),
    })
}

/// Whether the result rests on an UNSAT answer.
fn has_unsat(solved: &Solved) -> bool {
    solved.status == boardsat_solve::Status::Unsat
        || solved.optimum.as_ref().is_some_and(|o| o.proof().is_some())
}

/// The text result: every sentence follows from the result's status;
/// `backed` says how an UNSAT answer is backed (a proof, or not at all).
fn print(
    out: &mut Stdout,
    problem: &Problem,
    k: Option<usize>,
    solved: &Solved,
    backend: &str,
    reason: Option<StopReason>,
    backed: &str,
) -> Result<()> {
    let Some(placement) = &solved.placement else {
        let what = match problem.kind {
            Kind::Independence => format!("{} non-attacking {}s", k.unwrap_or(0), problem.piece),
            _ => format!("{} {}s", k.unwrap_or(0), problem.piece),
        };
        return match solved.status {
            boardsat_solve::Status::Unsat if backed.is_empty() => out.line(format!(
                "no placement of {what} on the {} board exists",
                problem.board
            )),
            boardsat_solve::Status::Unsat => out.line(format!(
                "no placement of {what} on the {} board exists ({})",
                problem.board,
                &backed[2..]
            )),
            _ => out.line(format!(
                "no placement of {what} on the {} board was found: the solver stopped ({}) before an answer, so nothing is proven",
                problem.board,
                why_stopped(reason)
            )),
        };
    };
    out.text(&draw::text(
        &problem.board,
        problem.piece,
        placement,
        problem.kind.dominating(),
    ))?;
    let is_queens = problem.kind == Kind::Independence
        && problem.piece == Piece::Queen
        && problem.board.is_square()
        && placement.len() == problem.board.rows();
    if is_queens {
        let cols: Vec<String> = placement
            .squares()
            .iter()
            .map(|s| s.col.to_string())
            .collect();
        out.line(format!("columns: {}", cols.join(" ")))?;
    } else {
        out.line(format!("placement: {placement}"))?;
    }
    let verb = match problem.kind {
        Kind::Independence => "independent",
        Kind::Domination => "dominating",
        Kind::IndependentDomination => "independent dominating",
    };
    out.line(format!(
        "{} {verb} {}s on the {} board",
        placement.len(),
        problem.piece,
        problem.board
    ))?;
    if let Some(o) = &solved.optimum {
        match o.proof() {
            Some(call) => out.line(format!(
                "optimal: {} is unsatisfiable ({backend}, {:.3} s{backed})",
                call.bound.k(),
                call.elapsed.as_secs_f64()
            ))?,
            None if o.proven => out.line("optimal: every square holds a piece")?,
            None => out.line(format!(
                "not proven optimal: the solver stopped ({})",
                why_stopped(reason)
            ))?,
        }
    }
    Ok(())
}
