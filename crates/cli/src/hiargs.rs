//! From flags to library objects, once for every command: the problem with
//! its bound and encodings, the solver spec, and the job's stop flag (with
//! the `--time-limit` deadline, raised by Ctrl-C and SIGTERM).

use anyhow::Result;
use boardsat_encode::Request;
use boardsat_proof::prover::{Prover, Task};
use boardsat_solve::{
    backend::spec::SolverSpec,
    stop::{seconds, Interrupter},
    task::{Encodings, Instance},
};

use crate::flags::{ProblemArgs, SolverArgs};

/// The instance the problem flags describe, with its size checked unless
/// `--force`; without `--amo`, the library's choice for `solver` (none:
/// DIMACS).
pub fn instance(args: &ProblemArgs, solver: Option<&SolverSpec>) -> Result<Instance> {
    let request = Request {
        family: args.family,
        n: args.n,
        cols: args.cols,
        piece: args.piece,
        k: args.k,
        independent: args.independent,
    };
    let e = &args.encoding;
    let encodings = Encodings {
        amo: e.amo,
        card: e.card,
        formulation: e.formulation,
    };
    Ok(Instance::new(&request, encodings, solver, args.force)?)
}

/// The solver the flags ask for (checked: built in, a command for an
/// external solver, a seed only for CaDiCaL).
pub fn solver(args: &SolverArgs) -> Result<SolverSpec> {
    let command = args.solver_cmd.clone();
    Ok(SolverSpec::choose(args.solver, command, args.seed)?)
}

/// The prover of `--proof DIR` for `task`, ready before any work (a
/// directory that is not empty fails now, unless `--replace`; with
/// `--resume`, one whose run proved another task).
pub fn prover(
    args: &crate::flags::ProofArgs,
    stop: &Interrupter,
    task: &Task,
) -> Result<Option<Prover>> {
    let Some(dir) = &args.proof else {
        return Ok(None);
    };
    if !cfg!(feature = "cadical") {
        anyhow::bail!("--proof needs the embedded CaDiCaL (this build has none)");
    }
    let command = format!("boardsat {}", command_line());
    let mut prover = if args.resume {
        Prover::resume(dir, command, task, stop.clone())?
    } else {
        Prover::create(dir, args.replace, command, task, stop.clone())?
    };
    prover.set_proof_format(args.proof_format.of());
    prover.set_compression(args.proof_compression.of());
    Ok(Some(prover))
}

/// The job's stop flag: the `--time-limit` deadline, and the signals.
pub fn stop(args: &SolverArgs) -> Interrupter {
    let stop = Interrupter::with_deadline(args.time_limit.and_then(seconds));
    crate::signals::watch(&stop);
    stop
}

/// The library objects of a `solve`, `count` or `enumerate`: the
/// instance, the solver and the stop flag, every check done before any
/// work; the prover of `--proof DIR` follows ([`prover`], with the task
/// the command makes of the instance).
pub fn job(args: &crate::flags::JobArgs) -> Result<(Instance, SolverSpec, Interrupter)> {
    let solver = solver(&args.solver)?;
    let instance = instance(&args.problem, Some(&solver))?;
    let stop = stop(&args.solver);
    Ok((instance, solver, stop))
}

/// The arguments as typed, joined (after the program name, which is
/// written as `boardsat` so that provenance does not depend on the path).
pub fn command_line() -> String {
    std::env::args().skip(1).collect::<Vec<_>>().join(" ")
}
