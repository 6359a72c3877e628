"""The same problem beyond CNF: ``Encoding.to_wcnf``, ``to_opb`` and
``to_lp`` read back by PySAT, by a small OPB reader and by HiGHS, solved by
RC2 (MaxSAT), Exact (pseudo-Boolean) and HiGHS (MIP) with the OEIS optima
(A075458 γ(Q_n), A075324 i(Q_n), A030978 knights), and every placement
checked twice: by ``boardsat.check`` and by ``boardsat check-solution`` on
the file and the solver's answer in the evaluations' output format."""

import json
import re
import subprocess

import exact
import highspy
import pytest
from pysat.examples.rc2 import RC2
from pysat.formula import WCNF

import boardsat
from binary import binary
from oeis import GAMMA, INDEPENDENT_GAMMA, KNIGHTS


def placement_of(values, cols, n_board):
    """The squares whose variable (1-based, in ``values`` 0-based) is true."""
    return [divmod(v, cols) for v in range(n_board) if values[v]]


def check_solution(tmp_path, name, model_text, answer_text):
    """``boardsat check-solution`` on the file and the solver's answer."""
    model = tmp_path / name
    model.write_text(model_text)
    answer = tmp_path / (name + ".answer")
    answer.write_text(answer_text)
    run = subprocess.run([binary(), "check-solution", str(model), str(answer), "--json"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr + run.stdout
    return json.loads(run.stdout)


@pytest.mark.parametrize("family,n,options", [
    ("domination", 6, {}),
    ("domination", 5, {"independent": True, "amo": "ladder"}),
    ("independence", 5, {"piece": "knight"}),
    ("independence", 6, {"piece": "king", "formulation": "cardinality"}),
])
def test_wcnf_round_trips_through_pysat(family, n, options):
    encoding = boardsat.encode(family, n, **options)
    assert encoding.k is None
    wcnf = WCNF(from_string=encoding.to_wcnf())
    assert wcnf.hard == encoding.clauses
    assert wcnf.nv <= encoding.nvars
    sign = -1 if family == "domination" else 1
    assert wcnf.soft == [[sign * v] for v in encoding.board_vars]
    assert wcnf.wght == [1] * len(encoding.board_vars)
    assert "c problem: " in encoding.to_wcnf()


def rc2(text):
    """RC2's optimum of a WCNF text: (cost, model as 0/1 values)."""
    with RC2(WCNF(from_string=text)) as solver:
        model = solver.compute()
        assert model is not None
        return solver.cost, [lit > 0 for lit in model]


@pytest.mark.parametrize("n", range(1, 9))
def test_rc2_finds_the_queens_domination_number(n, tmp_path):
    text = boardsat.encode("domination", n).to_wcnf()
    cost, values = rc2(text)
    assert cost == GAMMA[n - 1]
    placement = placement_of(values, n, n * n)
    assert len(placement) == GAMMA[n - 1]
    assert boardsat.check("domination", n, placement)
    bits = "".join("1" if v else "0" for v in values)
    report = check_solution(tmp_path, "d.wcnf", text, f"s OPTIMUM FOUND\no {cost}\nv {bits}\n")
    assert (report["status"], report["value"], report["optimal"]) == ("accepted", cost, "unverified")


@pytest.mark.parametrize("n", range(1, 7))
def test_rc2_finds_the_most_knights(n, tmp_path):
    text = boardsat.encode("independence", n, piece="knight").to_wcnf()
    cost, values = rc2(text)
    assert n * n - cost == KNIGHTS[n - 1]
    placement = placement_of(values, n, n * n)
    assert boardsat.check("independence", n, placement, piece="knight", k=KNIGHTS[n - 1])
    literals = " ".join(str(i + 1 if v else -(i + 1)) for i, v in enumerate(values))
    report = check_solution(tmp_path, "k.wcnf", text, f"s OPTIMUM FOUND\no {cost}\nv {literals} 0\n")
    assert (report["status"], report["value"]) == ("accepted", KNIGHTS[n - 1])


def read_opb(text):
    """The objective and the constraints of an OPB text: terms as (coefficient, name)."""
    objective, constraints = None, []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("*"):
            continue
        assert line.endswith(";"), line
        body = line[:-1]
        if body.startswith("min:"):
            words = body[4:].split()
            objective = [(int(words[i]), words[i + 1]) for i in range(0, len(words), 2)]
            continue
        match = re.fullmatch(r"(.*?)(>=|=)\s*(-?\d+)\s*", body)
        words = match.group(1).split()
        terms = [(int(words[i]), words[i + 1]) for i in range(0, len(words), 2)]
        constraints.append((terms, match.group(2), int(match.group(3))))
    return objective, constraints


def run_exact(text):
    """Exact on an OPB text: (its status, the values of x1..xN, the objective)."""
    objective, constraints = read_opb(text)
    names = sorted({name for terms, _, _ in constraints for _, name in terms}
                   | {name for _, name in objective or []}, key=lambda x: int(x[1:]))
    solver = exact.Exact()
    for name in names:
        solver.addVariable(name)
    for terms, relation, rhs in constraints:
        solver.addConstraint(terms, True, rhs, relation == "=", rhs)
    if objective:
        solver.setObjective(objective)
    status = solver.runFull(objective is not None, 0)
    assert solver.hasSolution(), status
    values = solver.getLastSolutionFor(names)
    # With an objective, Exact ends "UNSAT" once no better solution exists:
    # the last one is optimal.
    proven = objective is not None and status == "UNSAT"
    return proven, dict(zip(names, values)), solver.getBestSoFar() if objective else None


@pytest.mark.parametrize("n", range(1, 9))
def test_exact_finds_the_domination_numbers_on_the_opb_files(n, tmp_path):
    for options, known in (({}, GAMMA), ({"independent": True}, INDEPENDENT_GAMMA)):
        text = boardsat.encode("domination", n, **options).to_opb()
        proven, values, best = run_exact(text)
        assert proven and best == known[n - 1]
        on = [values[f"x{v}"] == 1 for v in range(1, n * n + 1)]
        assert boardsat.check("domination", n, placement_of(on, n, n * n), **options)
        line = " ".join(("" if v else "-") + f"x{i + 1}" for i, v in enumerate(on))
        report = check_solution(tmp_path, "d.opb", text, f"s OPTIMUM FOUND\no {best}\nv {line}\n")
        assert (report["status"], report["value"]) == ("accepted", known[n - 1])


def test_exact_places_eight_queens_from_the_opb_file(tmp_path):
    text = boardsat.encode("queens", 8).to_opb()
    _, values, _ = run_exact(text)
    on = [values[f"x{v}"] == 1 for v in range(1, 65)]
    assert boardsat.check("queens", 8, placement_of(on, 8, 64))
    line = " ".join(("" if v else "-") + f"x{i + 1}" for i, v in enumerate(on))
    report = check_solution(tmp_path, "q.opb", text, f"s SATISFIABLE\nv {line}\n")
    assert report["status"] == "accepted" and report["optimal"] is None


@pytest.mark.parametrize("n", [5, 8])
def test_highs_reads_the_lp_file_and_finds_gamma(n, tmp_path):
    encoding = boardsat.encode("domination", n)
    lp = tmp_path / "d.lp"
    lp.write_text(encoding.to_lp())
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(str(lp)) == highspy.HighsStatus.kOk
    assert h.getNumCol() == n * n and h.getNumRow() == n * n
    h.run()
    assert h.modelStatusToString(h.getModelStatus()) == "Optimal"
    solution = tmp_path / "d.sol"
    h.writeSolution(str(solution), 0)
    report = check_solution(tmp_path, "d2.lp", lp.read_text(), solution.read_text())
    assert (report["status"], report["value"], report["claim"]) == ("accepted", GAMMA[n - 1], "optimum")


def test_to_opb_and_to_lp_state_the_bound_with_k():
    opb = boardsat.encode("domination", 8, k=5).to_opb()
    assert "* bound: at most 5 pieces" in opb and "min:" not in opb
    assert "command line: boardsat dimacs domination 8 -k 5 --format opb" in opb
    lp = boardsat.encode("queens", 6).to_lp()
    assert "\\ bound: exactly 6 pieces" in lp and " row_0: " in lp
    assert boardsat.encode("queens", 6).to_dimacs().startswith("c generator: boardsat")
