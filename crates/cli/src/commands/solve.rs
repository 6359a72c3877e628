//! `boardsat solve`: one placement, or without -k the optimum with the
//! solver's proof.

use anyhow::{bail, Result};
use boardsat_encode::{draw, Kind, Piece, Problem};
use boardsat_solve::{
    files::{check_writable, write_atomically},
    report::SolveReport,
    task::{self, Solved},
    StopReason,
};

use crate::{
    flags::SolveArgs,
    hiargs,
    outcome::Outcome,
    output::{note, stats_line, why_stopped, Stdout},
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
    let solved = task::solve(&instance, &solver, args.portfolio, &stop)?;
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
    // The result first: an output file that fails afterwards loses nothing.
    let mut out = Stdout::new();
    if args.json {
        out.json(&SolveReport::new(&solved, backend.clone(), reason))?;
    } else {
        print(
            &mut out,
            &instance.problem,
            instance.k,
            &solved,
            &backend,
            reason,
        )?;
    }
    out.flush()?;
    if let (Some(path), Some(placement)) = (&args.svg, &solved.placement) {
        let problem = &instance.problem;
        write_atomically(path, Some(&stop), |w| -> Result<()> {
            w.write_all(draw::svg(problem, placement).as_bytes())?;
            Ok(())
        })?;
    }
    Ok(match solved.status {
        boardsat_solve::Status::Sat => Outcome::Done,
        boardsat_solve::Status::Unsat => Outcome::Unsat,
        boardsat_solve::Status::Unknown => Outcome::Stopped(reason),
    })
}

/// The text result: every sentence follows from the result's status.
fn print(
    out: &mut Stdout,
    problem: &Problem,
    k: Option<usize>,
    solved: &Solved,
    backend: &str,
    reason: Option<StopReason>,
) -> Result<()> {
    let Some(placement) = &solved.placement else {
        let what = match problem.kind {
            Kind::Independence => format!("{} non-attacking {}s", k.unwrap_or(0), problem.piece),
            _ => format!("{} {}s", k.unwrap_or(0), problem.piece),
        };
        return match solved.status {
            boardsat_solve::Status::Unsat => out.line(format!(
                "no placement of {what} on the {} board exists",
                problem.board
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
                "optimal: {} is unsatisfiable ({backend}, {:.3} s)",
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
