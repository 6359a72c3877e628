#!/usr/bin/env python3
"""boardsat against its peers, on the same machine, interleaved.

Tasks (issue 5, issue 25):
  count    all N-queens solutions (A000170)
  first    one N-queens solution
  gamma    the queens domination number with its proof (A075458)
  mds      the number of minimum dominating sets of queens (A002564)
  rooks    all placements of n non-attacking rooks, n! (A000142): a huge count
           with few constraints, where a #SAT counter should win
  iqueens  the independent queens domination number with its proof (A075324)
  knights  the most non-attacking knights with its proof (A030978)

Tools:
  boardsat  the release binary (`count`, `solve` subcommands; wall time of the process)
  cpsat     OR-Tools CP-SAT (one worker; enumerate_all_solutions for counts)
  cp        OR-Tools' original CP solver (pywrapcp), AllDifferent (count, first)
  pysat     PySAT with CaDiCaL 1.9.5: blocking-clause enumeration, pysat.card
            encodings, an incremental totalizer for the domination number
  clasp     Debian's clasp on boardsat's DIMACS (count: `-n 0`, first: `-n 1`)
  ganak     Ganak (PyPI pyganak), the exact model counter of the model-counting
            competitions, on boardsat's own DIMACS file (`dimacs queens N`;
            `dimacs domination N -k GAMMA` with GAMMA from OEIS A075458), projected
            on the board variables (the file's `c p show` line, handed to
            pyganak's set_sampling_set) (count, mds)

Native solvers (issue 25), each on boardsat's own export of the problem
(`boardsat dimacs ... --format opb|wcnf|lp`, without -k for an optimum, so
the solver proves it; queens N for first), their answers written in a
standard format and checked by `boardsat check-solution` (the placement by
the independent checker, the value against OEIS; an optimum counts only
when the solver claims it):
  exact  the Exact pseudo-Boolean solver (PyPI exact) on the OPB file, read
         by this script's OPB reader (Exact's Python bindings take
         constraints, not files)
  rc2    RC2, the core-guided MaxSAT solver of PySAT (Glucose 4), on the
         WCNF file read by pysat.formula.WCNF (gamma, iqueens, knights: a
         WCNF states an optimum)
  highs  HiGHS (PyPI highspy, one thread) on the LP file, read by HiGHS
  cbc    Debian's CBC on the LP file (`cbc FILE sec LIMIT solve solu OUT`),
         timed as a whole process

boardsat variants (own columns, not peers in the ratio):
  published     boardsat with the published queen-domination encoding of
                Rostami and Bright 2025 ("Queen Domination by SAT Solving",
                arXiv:2508.11945), up to details: `--formulation cardinality
                --card mtotalizer` (closed-neighbourhood clauses, a modulo
                totalizer over Hilbert-ordered inputs, lex-leader symmetry
                breaking) (gamma, mds); the last column is default / published
  count-dimacs  `boardsat count-dimacs FILE` on the very file Ganak counts:
                one thread, plain blocking clauses, no symmetry breaking, no
                cubes (count, mds)

For every task and size, each repetition runs boardsat and then every peer,
each in its own process with a time limit; the reported time is the median
of the repetitions. Peers in Python are timed inside their worker process,
from building the model to the answer (interpreter start and imports are
not counted); boardsat and clasp are timed as whole processes, so the
comparison is conservative for boardsat. Every answer is checked against the
known value; a wrong one is flagged, never just timed.
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

# OEIS A000170, n = 0..: number of N-queens solutions.
A000170 = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
           2279184, 14772512]
# OEIS A075458, n = 0..: domination number of the queen graph (a(0) unused).
A075458 = [None, 1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8, 9, 9, 9, 9, 10, 11, 11,
           12, 12, 13, 13]
# OEIS A002564, n = 0..: number of minimum dominating sets of queens.
A002564 = [None, 1, 4, 1, 12, 186, 4, 86, 4860, 114, 8, 2, 8, 288, 4632, 205832,
           2968, 124, 16, 84]

# OEIS A075324, n = 0..: independent domination number of the queen graph.
A075324 = [None, 1, 1, 1, 3, 3, 4, 4, 5, 5, 5, 5, 7, 7, 8]

TASKS = ["count", "first", "gamma", "mds", "rooks", "iqueens", "knights"]
# The native solvers and the format each reads.
NATIVE = {"exact": "opb", "rc2": "wcnf", "highs": "lp", "cbc": "lp"}
PEERS = {
    "count": ["cpsat", "cp", "pysat", "clasp", "ganak"],
    "first": ["cpsat", "cp", "pysat", "clasp", "exact", "highs", "cbc"],
    "gamma": ["cpsat", "pysat", "exact", "rc2", "highs", "cbc"],
    "mds": ["cpsat", "pysat", "ganak"],
    "rooks": ["ganak"],
    "iqueens": ["exact", "rc2", "highs", "cbc"],
    "knights": ["exact", "rc2", "highs", "cbc"],
}
# boardsat itself run another way: own columns, never "the best peer".
VARIANTS = {
    "count": ["count-dimacs"],
    "first": [],
    "gamma": ["published"],
    "mds": ["published", "count-dimacs"],
    "rooks": ["count-dimacs"],
    "iqueens": [],
    "knights": [],
}
ALL_TOOLS = ["cpsat", "cp", "pysat", "clasp", "ganak", "published", "count-dimacs",
             "exact", "rc2", "highs", "cbc"]
# The published encoding's flags (see the docstring).
PUBLISHED = ["--formulation", "cardinality", "--card", "mtotalizer"]

TITLES = {
    "count": "count all N-queens solutions (A000170)",
    "first": "first N-queens solution",
    "gamma": "queens domination number with proof (A075458)",
    "mds": "number of minimum dominating sets of queens (A002564)",
    "rooks": "count all placements of n non-attacking rooks (n!, A000142)",
    "iqueens": "independent queens domination number with proof (A075324)",
    "knights": "most non-attacking knights with proof (A030978)",
}
# The problem of each task as `boardsat dimacs` arguments (after N).
EXPORT = {
    "first": ["queens"],
    "gamma": ["domination"],
    "iqueens": ["domination", "--independent"],
    "knights": ["independence", "--piece", "knight"],
}


def known(task, n):
    """The known answer, or None when no table value is at hand."""
    if task == "rooks":
        return math.factorial(n)
    if task == "knights":
        # A030978: n^2 for n <= 2 (no knight attacks), ceil(n^2 / 2) from 3 on.
        return n * n if n <= 2 else (n * n + 1) // 2
    table = {"count": A000170, "gamma": A075458, "mds": A002564, "iqueens": A075324}.get(task)
    if table is None:
        return None
    return table[n] if n < len(table) else None


# ---------------------------------------------------------------- workers


def queens_lines(n):
    """Rows, columns and both diagonal families as lists of square indices."""
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    diag, anti = {}, {}
    for r in range(n):
        for c in range(n):
            diag.setdefault(r - c, []).append(r * n + c)
            anti.setdefault(r + c, []).append(r * n + c)
    diagonals = [d for d in list(diag.values()) + list(anti.values()) if len(d) > 1]
    return rows, cols, diagonals


def closed_neighbourhoods(n):
    """For each square, the squares a queen there occupies or attacks."""
    out = []
    for r in range(n):
        for c in range(n):
            out.append([r2 * n + c2 for r2 in range(n) for c2 in range(n)
                        if r2 == r or c2 == c or abs(r2 - r) == abs(c2 - c)])
    return out


def worker_cpsat(task, n, limit):
    from ortools.sat.python import cp_model

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.count = 0

        def on_solution_callback(self):
            self.count += 1

    def solver():
        s = cp_model.CpSolver()
        s.parameters.max_time_in_seconds = limit
        s.parameters.num_workers = 1
        return s

    if task in ("count", "first"):
        m = cp_model.CpModel()
        q = [m.NewIntVar(0, n - 1, f"q{i}") for i in range(n)]
        m.AddAllDifferent(q)
        m.AddAllDifferent([q[i] + i for i in range(n)])
        m.AddAllDifferent([q[i] - i for i in range(n)])
        s = solver()
        if task == "first":
            st = s.Solve(m)
            if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return "sat"
            return None if st == cp_model.UNKNOWN else "unsat"
        s.parameters.enumerate_all_solutions = True
        cb = Counter()
        st = s.Solve(m, cb)
        return cb.count if st == cp_model.OPTIMAL else None

    hoods = closed_neighbourhoods(n)
    m = cp_model.CpModel()
    x = [m.NewBoolVar(f"x{i}") for i in range(n * n)]
    for hood in hoods:
        m.AddBoolOr([x[j] for j in hood])
    m.Minimize(sum(x))
    s = solver()
    st = s.Solve(m)
    if st != cp_model.OPTIMAL:
        return None
    gamma = int(round(s.ObjectiveValue()))
    if task == "gamma":
        return gamma
    m.ClearObjective()
    m.Add(sum(x) <= gamma)
    s2 = solver()
    s2.parameters.max_time_in_seconds = max(0.01, limit - s.WallTime())
    s2.parameters.enumerate_all_solutions = True
    cb = Counter()
    st = s2.Solve(m, cb)
    return cb.count if st == cp_model.OPTIMAL else None


def worker_cp(task, n, limit):
    from ortools.constraint_solver import pywrapcp

    s = pywrapcp.Solver("queens")
    q = [s.IntVar(0, n - 1, f"q{i}") for i in range(n)]
    s.Add(s.AllDifferent(q))
    s.Add(s.AllDifferent([q[i] + i for i in range(n)]))
    s.Add(s.AllDifferent([q[i] - i for i in range(n)]))
    if task == "count":
        db = s.Phase(q, s.CHOOSE_FIRST_UNBOUND, s.ASSIGN_MIN_VALUE)
    else:
        # First fail and centre values: the usual heuristic for one solution.
        db = s.Phase(q, s.CHOOSE_MIN_SIZE_LOWEST_MIN, s.ASSIGN_CENTER_VALUE)
    tl = s.TimeLimit(int(limit * 1000))
    s.NewSearch(db, [tl])
    count = 0
    while s.NextSolution():
        count += 1
        if task == "first":
            break
    s.EndSearch()
    timed_out = s.WallTime() >= limit * 1000
    if task == "first":
        return "sat" if count else (None if timed_out else "unsat")
    return None if timed_out else count


def pysat_solver():
    from pysat.solvers import Solver
    return Solver(name="cadical195")


def solve_limited(solver, limit, start, assumptions=()):
    """One call, or None when the task's deadline has passed. PySAT's CaDiCaL
    has no interruptible solve_limited, so a single call that runs past the
    limit is stopped by the driver killing this worker process."""
    if time.perf_counter() - start > limit:
        return None
    return solver.solve(assumptions=list(assumptions))


def worker_pysat(task, n, limit, start):
    from pysat.card import CardEnc, EncType, ITotalizer
    from pysat.formula import IDPool

    s = pysat_solver()
    board = [i + 1 for i in range(n * n)]
    if task in ("count", "first"):
        pool = IDPool(start_from=n * n + 1)
        rows, cols, diagonals = queens_lines(n)
        # Pairwise for small boards (no auxiliaries), the sequential counter
        # for large ones, where pairwise has ~n^3 clauses.
        enc = EncType.pairwise if n <= 64 else EncType.seqcounter
        for line in rows + cols:
            s.append_formula(CardEnc.equals([board[i] for i in line], 1, vpool=pool,
                                            encoding=enc).clauses)
        for line in diagonals:
            s.append_formula(CardEnc.atmost([board[i] for i in line], 1, vpool=pool,
                                            encoding=enc).clauses)
        count = 0
        while True:
            r = solve_limited(s, limit, start)
            if r is None:
                return None
            if not r:
                break
            model = s.get_model()
            if task == "first":
                return "sat"
            count += 1
            s.add_clause([-v for v in board if model[v - 1] > 0])
        return "unsat" if task == "first" else count

    for hood in closed_neighbourhoods(n):
        s.add_clause([board[j] for j in hood])
    # n queens on one row dominate the board: an upper bound to start from.
    tot = ITotalizer(lits=board, ubound=n, top_id=n * n)
    s.append_formula(tot.cnf.clauses)
    best = n
    gamma = None
    while best > 0:
        k = best - 1
        r = solve_limited(s, limit, start, [-tot.rhs[k]])
        if r is None:
            return None
        if not r:
            gamma = best
            break
        model = s.get_model()
        best = sum(1 for v in board if model[v - 1] > 0)
    if gamma is None:
        gamma = best
    if task == "gamma":
        return gamma
    s.add_clause([-tot.rhs[gamma]])
    count = 0
    while True:
        r = solve_limited(s, limit, start)
        if r is None:
            return None
        if not r:
            return count
        model = s.get_model()
        count += 1
        s.add_clause([-v for v in board if model[v - 1] > 0])


def read_dimacs(path):
    """(variables, clauses, projection) of a DIMACS file; the projection from
    `c p show ... 0` (or `c ind ... 0`) lines, None without one."""
    nvars, clauses, clause = 0, [], []
    show, ind = None, None
    with open(path) as f:
        for line in f:
            t = line.split()
            if not t:
                continue
            if t[0] == "c":
                if t[1:3] == ["p", "show"]:
                    show = (show or []) + [int(x) for x in t[3:] if x != "0"]
                elif t[1:2] == ["ind"]:
                    ind = (ind or []) + [int(x) for x in t[2:] if x != "0"]
                continue
            if t[0] == "p":
                nvars = int(t[2])
                continue
            for x in t:
                v = int(x)
                if v == 0:
                    clauses.append(clause)
                    clause = []
                else:
                    clause.append(v)
    return nvars, clauses, show if show is not None else ind


def worker_ganak(cnf):
    """The projected model count of `cnf` by Ganak. count() cannot be
    interrupted: the driver kills this process at the limit."""
    import pyganak

    nvars, clauses, projection = read_dimacs(cnf)
    if not projection:
        raise SystemExit(f"{cnf} has no projection line")
    counter = pyganak.Counter()
    counter.new_vars(nvars)
    counter.add_clauses(clauses)
    counter.set_sampling_set(projection)
    return int(counter.count())


def read_opb(path):
    """The objective and the constraints of an OPB file as boardsat writes it:
    terms as (coefficient, name), relations >= and =."""
    objective, constraints = None, []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("*"):
                continue
            body = line.rstrip(";").strip()
            if body.startswith("min:"):
                words = body[4:].split()
                objective = [(int(words[i]), words[i + 1]) for i in range(0, len(words), 2)]
                continue
            relation = "=" if ">=" not in body else ">="
            lhs, rhs = body.split(relation)
            words = lhs.split()
            constraints.append(([(int(words[i]), words[i + 1]) for i in range(0, len(words), 2)],
                                relation, int(rhs)))
    return objective, constraints


def worker_exact(path, limit, out):
    """Exact on an OPB file; writes its answer as PB-competition output.
    'solved' when it answered (an optimum only when proven), None otherwise."""
    import exact

    objective, constraints = read_opb(path)
    names = sorted({name for terms, _, _ in constraints for _, name in terms}
                   | {name for _, name in objective or []}, key=lambda x: int(x[1:]))
    solver = exact.Exact()
    for name in names:
        solver.addVariable(name)
    for terms, relation, rhs in constraints:
        solver.addConstraint(terms, True, rhs, relation == "=", rhs)
    if objective:
        solver.setObjective(objective)
    status = solver.runFull(objective is not None, limit)
    if not solver.hasSolution():
        return None
    # With an objective, Exact ends "UNSAT" when no better solution exists.
    proven = objective is None or status == "UNSAT"
    lines = ["s OPTIMUM FOUND" if objective and proven else "s SATISFIABLE"]
    if objective:
        lines.append(f"o {solver.getBestSoFar()}")
    values = solver.getLastSolutionFor(names)
    lines.append("v " + " ".join(("" if v else "-") + name for name, v in zip(names, values)))
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    return "solved" if proven else None


def worker_rc2(path, out):
    """RC2 (Glucose 4) on a WCNF file; MaxSAT-evaluation output. compute()
    cannot be interrupted: the driver kills this process at the limit."""
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    with RC2(WCNF(from_file=path), solver="g4") as rc2:
        model = rc2.compute()
        if model is None:
            text = "s UNSATISFIABLE\n"
        else:
            bits = "".join("1" if lit > 0 else "0" for lit in model)
            text = f"s OPTIMUM FOUND\no {rc2.cost}\nv {bits}\n"
    with open(out, "w") as f:
        f.write(text)
    return "solved"


def worker_highs(path, limit, out):
    """HiGHS on an LP file, one thread; its raw solution file."""
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.setOptionValue("time_limit", float(limit))
    h.readModel(path)
    h.run()
    h.writeSolution(out, 0)
    return "solved" if h.modelStatusToString(h.getModelStatus()) == "Optimal" else None


def worker(tool, task, n, limit, cnf=None):
    start = time.perf_counter()
    if tool in NATIVE:
        out = cnf + ".answer"
        answer = {"exact": lambda: worker_exact(cnf, limit, out),
                  "rc2": lambda: worker_rc2(cnf, out),
                  "highs": lambda: worker_highs(cnf, limit, out)}[tool]()
    elif tool == "ganak":
        answer = worker_ganak(cnf)
    elif tool == "cpsat":
        answer = worker_cpsat(task, n, limit)
    elif tool == "cp":
        answer = worker_cp(task, n, limit)
    elif tool == "pysat":
        answer = worker_pysat(task, n, limit, start)
    else:
        raise SystemExit(f"unknown tool {tool}")
    seconds = time.perf_counter() - start
    print(json.dumps({"answer": answer, "seconds": seconds}))


# ---------------------------------------------------------------- the driver

# Python workers get this much on top of the limit for interpreter start and
# imports before they are killed; their own clock is what is reported.
STARTUP_GRACE = 15.0


def run_process(cmd, limit, grace=2.0):
    """(stdout, wall seconds) or (None, None) on a kill at the limit."""
    start = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + grace)
    except subprocess.TimeoutExpired:
        return None, None, ""
    return p, time.perf_counter() - start, p.stderr


def run_boardsat(binary, task, n, limit, first_amo, extra=(), cnf=None):
    """boardsat's answer and wall time; with `cnf`, `count-dimacs` on it."""
    if cnf is not None:
        cmd = [binary, "count-dimacs", cnf]
    elif task == "count":
        cmd = [binary, "count", "queens", str(n)]
    elif task == "first":
        cmd = [binary, "solve", "queens", str(n)]
        if first_amo != "default":
            cmd += ["--amo", first_amo]
    elif task == "gamma":
        cmd = [binary, "solve", "domination", str(n)]
    elif task == "rooks":
        cmd = [binary, "count", "independence", str(n), "--piece", "rook", "-k", str(n)]
    elif task == "iqueens":
        cmd = [binary, "solve", "domination", str(n), "--independent"]
    elif task == "knights":
        cmd = [binary, "solve", "independence", str(n), "--piece", "knight"]
    else:
        cmd = [binary, "count", "domination", str(n)]
    cmd += list(extra) + ["--json", "--time-limit", str(limit)]
    p, wall, err = run_process(cmd, limit)
    if p is None or p.returncode == 3:
        return None, wall
    if p.returncode != 0:
        return ("error", err.strip().splitlines()[-1:] or ["exit %d" % p.returncode]), wall
    out = json.loads(p.stdout)
    if task in ("count", "mds", "rooks"):
        return (out["count"] if out.get("complete") else None), wall
    if task in ("gamma", "iqueens", "knights"):
        return (out["value"] if out.get("optimal") else None), wall
    return ("sat" if out["status"] == "sat" else out["status"]), wall


def checked_answer(binary, task, model):
    """The answer of a native solver, from `boardsat check-solution` on the
    model file and the solver's answer (`model.answer`): the placement
    checked by the independent checker, its value for an optimum (counted
    only when the solver claims the optimum), "sat" for a first placement."""
    p = subprocess.run([binary, "check-solution", model, model + ".answer", "--json"],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1, 3, 20):
        return ("error", p.stderr.strip().splitlines()[-1:])
    report = json.loads(p.stdout)
    if report["status"] == "rejected":
        return ("error", ["check-solution rejected it: " + report["reason"]])
    if report["status"] != "accepted":
        return None
    if task == "first":
        return "sat"
    return report["value"] if report["claim"] == "optimum" else None


def run_native(binary, tool, task, n, limit, model):
    """A native solver on boardsat's export `model`: its checked answer and
    time (CBC as a process, the others timed inside their worker)."""
    answer_file = model + ".answer"
    if os.path.exists(answer_file):
        os.remove(answer_file)
    if tool == "cbc":
        cmd = ["cbc", model, "sec", str(limit), "solve", "solu", answer_file]
        p, secs, _ = run_process(cmd, limit)
        if p is None or secs > limit:
            return None, secs
    else:
        answer, secs = run_python(tool, task, n, limit, model)
        if answer != "solved":
            return answer, secs
    return checked_answer(binary, task, model), secs


def run_clasp(cnf, task, limit):
    models = "0" if task == "count" else "1"
    cmd = ["clasp", "-n", models, "--quiet=2", f"--time-limit={int(limit) + 1}", cnf]
    p, wall, _ = run_process(cmd, limit)
    if p is None or wall > limit:
        return None, wall
    text = p.stdout
    if "INTERRUPTED" in text or "UNKNOWN" in text:
        return None, wall
    if task == "first":
        return ("sat" if "SATISFIABLE" in text and "UNSAT" not in text else "unsat"), wall
    for line in text.splitlines():
        line = line[2:] if line.startswith("c ") else line
        if line.startswith("Models"):
            value = line.split(":")[1].split()[0].rstrip("+")
            return int(value), wall
    return ("error", ["no Models line"]), wall


def run_python(tool, task, n, limit, cnf=None):
    cmd = [sys.executable, os.path.abspath(__file__), "worker", tool, task, str(n), str(limit)]
    if cnf is not None:
        cmd.append(cnf)
    p, wall, err = run_process(cmd, limit, grace=STARTUP_GRACE)
    if p is None:
        return None, None
    if p.returncode != 0:
        return ("error", err.strip().splitlines()[-1:]), wall
    out = json.loads(p.stdout.strip().splitlines()[-1])
    if out["answer"] is None or out["seconds"] > limit:
        return None, out["seconds"]
    return out["answer"], out["seconds"]


def expected(task, n):
    if task == "first":
        return "sat" if n not in (2, 3) else "unsat"
    return known(task, n)


def measure(args):
    results = []  # (task, n, tool, [seconds], status, answer)
    tmp = tempfile.mkdtemp(prefix="boardsat-peers-")
    sizes = {"count": args.count_sizes, "first": args.first_sizes,
             "gamma": args.gamma_sizes, "mds": args.mds_sizes, "rooks": args.rooks_sizes,
             "iqueens": args.iqueens_sizes, "knights": args.knights_sizes}
    for task in args.tasks:
        for n in sizes[task]:
            tools = columns(task, args.peers)
            cnf = None
            on_file = {"clasp", "ganak", "count-dimacs"}.intersection(tools)
            if on_file and task in ("count", "first"):
                amo = "pairwise" if task == "count" else args.clasp_amo
                cnf = os.path.join(tmp, f"queens-{n}-{amo}.cnf")
                subprocess.run([args.boardsat, "dimacs", "queens", str(n), "--amo", amo,
                                "-o", cnf], check=True, capture_output=True)
            elif on_file and task == "rooks":
                cnf = os.path.join(tmp, f"rooks-{n}.cnf")
                subprocess.run([args.boardsat, "dimacs", "independence", str(n), "--piece", "rook",
                                "-k", str(n), "-o", cnf], check=True, capture_output=True)
            elif on_file and known("gamma", n) is not None:
                # Every placement of at most GAMMA queens is a minimum one.
                cnf = os.path.join(tmp, f"domination-{n}.cnf")
                subprocess.run([args.boardsat, "dimacs", "domination", str(n),
                                "-k", str(known("gamma", n)), "-o", cnf],
                               check=True, capture_output=True)
            models = {}
            for fmt in sorted({NATIVE[t] for t in tools if t in NATIVE}):
                # Without -k the file states the optimum; queens fixes k = n.
                models[fmt] = os.path.join(tmp, f"{task}-{n}.{fmt}")
                subprocess.run([args.boardsat, "dimacs", EXPORT[task][0], str(n),
                                *EXPORT[task][1:], "--format", fmt, "-o", models[fmt]],
                               check=True, capture_output=True)
            times = {t: [] for t in tools}
            answers = {t: None for t in tools}
            status = {t: "ok" for t in tools}
            if cnf is None:
                for t in on_file:
                    status[t] = "no γ known"
            for rep in range(args.runs):
                for tool in tools:
                    if status[tool] != "ok":
                        continue  # a timeout or a wrong answer is not repeated
                    print(f"[{task} n={n} run {rep + 1}/{args.runs}] {tool} ...",
                          file=sys.stderr, flush=True)
                    if tool == "boardsat":
                        answer, secs = run_boardsat(args.boardsat, task, n, args.time_limit,
                                                    args.first_amo)
                    elif tool == "published":
                        answer, secs = run_boardsat(args.boardsat, task, n, args.time_limit,
                                                    args.first_amo, extra=PUBLISHED)
                    elif tool == "count-dimacs":
                        answer, secs = run_boardsat(args.boardsat, task, n, args.time_limit,
                                                    args.first_amo, cnf=cnf)
                    elif tool == "clasp":
                        answer, secs = run_clasp(cnf, task, args.time_limit)
                    elif tool == "ganak":
                        answer, secs = run_python(tool, task, n, args.time_limit, cnf)
                    elif tool in NATIVE:
                        answer, secs = run_native(args.boardsat, tool, task, n, args.time_limit,
                                                  models[NATIVE[tool]])
                    else:
                        answer, secs = run_python(tool, task, n, args.time_limit)
                    if answer is None:
                        status[tool] = "timeout"
                        continue
                    if isinstance(answer, tuple):
                        status[tool] = "error: " + " ".join(answer[1])
                        continue
                    want = expected(task, n)
                    if want is not None and answer != want:
                        status[tool] = f"WRONG: {answer}, expected {want}"
                        answers[tool] = answer
                        continue
                    if answers[tool] is not None and answers[tool] != answer:
                        status[tool] = f"WRONG: runs disagree ({answers[tool]}, {answer})"
                        continue
                    answers[tool] = answer
                    times[tool].append(secs)
            for tool in tools:
                results.append({"task": task, "n": n, "tool": tool, "times": times[tool],
                                "status": status[tool], "answer": answers[tool],
                                "expected": expected(task, n)})
            if cnf:
                os.remove(cnf)
            for model in models.values():
                for path in (model, model + ".answer"):
                    if os.path.exists(path):
                        os.remove(path)
    os.rmdir(tmp)
    return results


def columns(task, chosen):
    """boardsat, its variants, then the peers: the tools run for `task`."""
    return (["boardsat"] + [t for t in VARIANTS[task] if t in chosen]
            + [t for t in PEERS[task] if t in chosen])


def cell_text(r, limit):
    if r["status"] == "timeout":
        return f"> {limit:g} s"
    if r["status"] != "ok":
        return r["status"]
    return f"{statistics.median(r['times']):.3f}"


def ratio_text(b, others, who):
    """boardsat's median over the best of `others` (rows), in words when
    one side has no time."""
    medians = [statistics.median(r["times"]) for r in others if r["status"] == "ok"]
    if b["status"] == "ok" and medians:
        return f"{statistics.median(b['times']) / min(medians):.2f}"
    if b["status"] == "ok":
        return f"every {who} > limit" if others else "-"
    if medians:
        return "boardsat > limit"
    return "-"


def markdown(results, args, meta):
    out = []
    out.append(f"`{meta['command']}`\n")
    out.append(f"- boardsat commit {meta['commit']}; {meta['rustc']}")
    out.append(f"- {meta['cpu']}, {meta['cores']} cores, {meta['memory']}; {meta['date']}")
    out.append(f"- {meta['versions']}")
    out.append(f"- seconds, median of {args.runs} runs; time limit {args.time_limit:g} s per "
               "tool and task; ratio = boardsat / best peer (< 1: boardsat is faster)\n")
    for task in args.tasks:
        rows = [r for r in results if r["task"] == task]
        if not rows:
            continue
        tools = columns(task, args.peers)
        peers = [t for t in tools if t in PEERS[task]]
        published = "published" in tools
        out.append(f"### {TITLES[task]}\n")
        header = "| n | answer | " + " | ".join(tools)
        if peers:
            header += " | boardsat / best peer"
        if published:
            header += " | default / published"
        out.append(header + " |")
        out.append("|---:|---:|" + "---:|" * (len(tools) + bool(peers) + published))
        for n in sorted({r["n"] for r in rows}):
            by_tool = {r["tool"]: r for r in rows if r["n"] == n}
            cells = [cell_text(by_tool[t], args.time_limit) for t in tools]
            b = by_tool["boardsat"]
            if peers:
                cells.append(ratio_text(b, [by_tool[t] for t in peers], "peer"))
            if published:
                cells.append(ratio_text(b, [by_tool["published"]], "published"))
            want = by_tool["boardsat"]["expected"]
            out.append(f"| {n} | {want if want is not None else '-'} | " + " | ".join(cells)
                       + " |")
        out.append("")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- the chart

# One colour per tool in every panel; boardsat black.
COLOURS = dict(zip(["boardsat", "exact", "rc2", "highs", "cbc", "cpsat", "cp", "pysat", "clasp",
                    "ganak", "published", "count-dimacs"],
                   ["#000000", "#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
                    "#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#393b79"]))


def svg_chart(results, args, meta):
    """One panel per task: x = n, y = median seconds on a log scale, a line
    per tool (boardsat in black, thick). A run without an answer in time is a
    cross on the dashed time-limit line, never a point of the line; a wrong
    or failed answer is a red ring there."""
    tasks = [t for t in args.tasks if any(r["task"] == t for r in results)]
    width, height, cols = 520, 330, 2
    rows_of = (len(tasks) + cols - 1) // cols
    total_h = 60 + rows_of * height
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{cols * width}" height="{total_h}" '
           'font-family="sans-serif" font-size="12">',
           f'<rect width="100%" height="100%" fill="white"/>',
           f'<text x="10" y="20" font-size="15">boardsat (best CNF encoding, default '
           f'choices) against native solvers on its own exports; seconds, median of {args.runs}</text>',
           f'<text x="10" y="40" fill="#555">commit {meta["commit"][:12]}; {meta["cpu"]}, '
           f'{meta["cores"]} cores; {meta["date"]}; time limit {args.time_limit:g} s</text>']
    lo, hi = 1e-3, args.time_limit
    for i, task in enumerate(tasks):
        x0, y0 = (i % cols) * width, 60 + (i // cols) * height
        rows = [r for r in results if r["task"] == task and r["tool"] not in
                [v for vs in VARIANTS.values() for v in vs]]
        ns = sorted({r["n"] for r in rows})
        left, right, top, bottom = x0 + 60, x0 + width - 120, y0 + 30, y0 + height - 40

        def x_of(n):
            return left + (right - left) * (ns.index(n) + 0.5) / len(ns)

        def y_of(t):
            t = min(max(t, lo), hi)
            return bottom - (bottom - top) * (math.log10(t) - math.log10(lo)) / (
                math.log10(hi) - math.log10(lo))

        out.append(f'<text x="{left}" y="{y0 + 18}" font-size="13">{TITLES[task]}</text>')
        out.append(f'<rect x="{left}" y="{top}" width="{right - left}" height="{bottom - top}" '
                   'fill="none" stroke="#999"/>')
        decade = lo
        while decade <= hi * 1.0001:
            y = y_of(decade)
            out.append(f'<line x1="{left}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eee"/>')
            out.append(f'<text x="{left - 5}" y="{y + 4:.1f}" text-anchor="end">{decade:g}</text>')
            decade *= 10
        y = y_of(hi)
        out.append(f'<line x1="{left}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}" stroke="#999" '
                   'stroke-dasharray="4 3"/>')
        for n in ns:
            out.append(f'<text x="{x_of(n):.1f}" y="{bottom + 16}" text-anchor="middle">{n}</text>')
        out.append(f'<text x="{(left + right) / 2}" y="{bottom + 32}" text-anchor="middle">n</text>')
        tools = [t for t in ["boardsat"] + PEERS[task] if any(r["tool"] == t for r in rows)]
        for k, tool in enumerate(tools):
            colour = COLOURS[tool]
            # Crosses of tools that stopped at the same n stand side by side.
            dx = (k - (len(tools) - 1) / 2) * 5
            stroke = 3 if tool == "boardsat" else 1.5
            points = []
            for r in sorted((r for r in rows if r["tool"] == tool), key=lambda r: r["n"]):
                x = x_of(r["n"])
                if r["status"] == "ok" and r["times"]:
                    points.append(f'{x:.1f},{y_of(statistics.median(r["times"])):.1f}')
                    continue
                if points:
                    out.append(f'<polyline points="{" ".join(points)}" fill="none" '
                               f'stroke="{colour}" stroke-width="{stroke}"/>')
                    out.extend(f'<circle cx="{p.split(",")[0]}" cy="{p.split(",")[1]}" r="2.5" '
                               f'fill="{colour}"/>' for p in points)
                points = []
                y, x = y_of(hi), x + dx
                if r["status"] == "timeout":
                    out.append(f'<path d="M{x - 4:.1f},{y - 4:.1f} l8,8 m0,-8 l-8,8" '
                               f'stroke="{colour}" stroke-width="1.5"/>')
                else:
                    out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="none" '
                               'stroke="red" stroke-width="2"/>')
            if points:
                out.append(f'<polyline points="{" ".join(points)}" fill="none" '
                           f'stroke="{colour}" stroke-width="{stroke}"/>')
                out.extend(f'<circle cx="{p.split(",")[0]}" cy="{p.split(",")[1]}" r="2.5" '
                           f'fill="{colour}"/>' for p in points)
            ly = top + 10 + 16 * k
            out.append(f'<line x1="{right + 10}" x2="{right + 30}" y1="{ly}" y2="{ly}" '
                       f'stroke="{colour}" stroke-width="{stroke}"/>')
            out.append(f'<text x="{right + 35}" y="{ly + 4}">{tool}</text>')
        ly = top + 10 + 16 * len(tools) + 6
        out.append(f'<text x="{right + 10}" y="{ly + 4}" fill="#555">× no answer</text>')
        out.append(f'<text x="{right + 10}" y="{ly + 20}" fill="#555">in time</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def metadata(args):
    def sh(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return "unknown"
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    memory = "unknown"
    try:
        with open("/proc/meminfo") as f:
            kib = next(int(l.split()[1]) for l in f if l.startswith("MemTotal"))
            memory = f"{kib / 1024 / 1024:.1f} GiB memory"
    except (OSError, StopIteration):
        pass
    commit = sh(["git", "rev-parse", "HEAD"])
    if commit != "unknown" and sh(["git", "status", "--porcelain", "--untracked-files=no"]):
        commit += "-dirty"
    versions = []
    try:
        import ortools
        versions.append(f"OR-Tools {ortools.__version__}")
    except ImportError:
        pass
    try:
        import pysat
        versions.append(f"python-sat {pysat.__version__} (CaDiCaL 1.9.5)")
    except ImportError:
        pass
    try:
        import pyganak
        versions.append(f"pyganak {pyganak.__version__}")
    except ImportError:
        pass
    versions.append(sh(["clasp", "--version"]).splitlines()[0] if sh(["clasp", "--version"])
                    != "unknown" else "clasp missing")
    from importlib import metadata
    for package, name in (("exact", "Exact"), ("highspy", "highspy")):
        try:
            versions.append(f"{name} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            pass
    cbc = [l for l in sh(["cbc", "-quit"]).splitlines() if l.startswith("Version:")]
    versions.append(f"CBC {cbc[0].split()[1]}" if cbc else "cbc missing")
    versions.append(f"Python {sys.version.split()[0]}")
    return {
        "command": "scripts/bench-peers.sh " + " ".join(sys.argv[1:]),
        "commit": commit,
        "rustc": sh(["rustc", "--version"]),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": memory,
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "versions": ", ".join(versions),
    }


def sizes(text):
    """'8..14' or '8,50,100' (or both, comma-separated)."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if ".." in part:
            lo, hi = part.split("..")
            out.extend(range(int(lo), int(hi) + 1))
        elif part:
            out.append(int(part))
    return out


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "worker":
        tool, task, n, limit = sys.argv[2:6]
        worker(tool, task, int(n), float(limit), *sys.argv[6:7])
        return
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boardsat", default="target/release/boardsat", help="the boardsat binary")
    ap.add_argument("--tasks", default=",".join(TASKS), help="comma-separated: " + ",".join(TASKS))
    ap.add_argument("--peers", default=",".join(ALL_TOOLS),
                    help="comma-separated peers and boardsat variants: " + ",".join(ALL_TOOLS))
    ap.add_argument("--count-sizes", type=sizes, default=sizes("8..14"))
    ap.add_argument("--first-sizes", type=sizes, default=sizes("8,50,100,200,500,1000"))
    ap.add_argument("--gamma-sizes", type=sizes, default=sizes("4..13"))
    ap.add_argument("--mds-sizes", type=sizes, default=sizes("4..10"))
    ap.add_argument("--rooks-sizes", type=sizes, default=sizes("6..12"))
    ap.add_argument("--iqueens-sizes", type=sizes, default=sizes("4..13"))
    ap.add_argument("--knights-sizes", type=sizes, default=sizes("4..12"))
    ap.add_argument("--runs", type=int, default=3, help="repetitions (median reported)")
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per tool and task")
    ap.add_argument("--first-amo", default="default",
                    help="boardsat's AMO for first solutions: 'default' (boardsat's own "
                         "choice, lazy with CaDiCaL) or an --amo value")
    ap.add_argument("--clasp-amo", default="product",
                    help="the AMO of clasp's DIMACS for first solutions (an eager one: lazy "
                         "has no DIMACS form; pairwise has ~n^3 clauses, too many for "
                         "n = 500, 1000)")
    ap.add_argument("--quick", action="store_true",
                    help="small sizes, one run: a smoke test of the whole pipeline")
    ap.add_argument("--json", metavar="FILE", help="also write the raw results as JSON")
    ap.add_argument("--from-json", metavar="FILE",
                    help="measure nothing: print the table (and --plot the chart) of a run "
                         "saved with --json")
    ap.add_argument("--plot", metavar="FILE.svg",
                    help="also draw the results as an SVG chart: a panel per task, x = n, "
                         "seconds on a log scale, a line per tool")
    args = ap.parse_args()
    args.tasks = [t for t in args.tasks.split(",") if t]
    args.peers = [p for p in args.peers.split(",") if p]
    for p in args.peers:
        if p not in ALL_TOOLS:
            ap.error(f"unknown peer {p}")
    for t in args.tasks:
        if t not in TASKS:
            ap.error(f"unknown task {t}")
    if args.quick:
        args.count_sizes, args.first_sizes = [6, 8], [8, 50]
        args.gamma_sizes, args.mds_sizes, args.rooks_sizes = [4, 6], [4, 5], [5, 6]
        args.iqueens_sizes, args.knights_sizes = [4, 6], [4, 6]
        args.runs = 1
    if args.from_json:
        # Redraw a saved run: its own metadata, results and settings.
        with open(args.from_json) as f:
            saved = json.load(f)
        meta, results = saved["meta"], saved["results"]
        for key in ("runs", "time_limit", "tasks", "peers"):
            setattr(args, key, saved.get("settings", {}).get(key, getattr(args, key)))
        sys.stdout.write(markdown(results, args, meta))
        if args.plot:
            with open(args.plot, "w") as f:
                f.write(svg_chart(results, args, meta))
        return
    meta = metadata(args)
    results = measure(args)
    sys.stdout.write(markdown(results, args, meta))
    if args.json:
        with open(args.json, "w") as f:
            settings = {key: getattr(args, key) for key in ("runs", "time_limit", "tasks", "peers")}
            json.dump({"meta": meta, "settings": settings, "results": results}, f, indent=1)
    if args.plot:
        with open(args.plot, "w") as f:
            f.write(svg_chart(results, args, meta))
    wrong = [r for r in results if r["status"].startswith(("WRONG", "error"))]
    for r in wrong:
        print(f"{r['tool']} {r['task']} n={r['n']}: {r['status']}", file=sys.stderr)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
