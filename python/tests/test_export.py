"""The same problem beyond CNF: ``Encoding.to_wcnf``, ``to_opb`` and
``to_lp`` read back by PySAT and by HiGHS, solved by RC2 (MaxSAT), Exact
(pseudo-Boolean) and HiGHS (MIP) through the drivers of the peer benchmark
(scripts/peers/compare.py) with the OEIS optima (A075458 γ(Q_n), A075324
i(Q_n), A030978 knights), and every placement checked twice: by ``boardsat
check-solution`` on the file and the solver's answer in its standard output
format, and by ``boardsat.check``."""

import json
import subprocess
import sys

import highspy
import pytest
from pysat.formula import WCNF

import boardsat
from binary import REPO, binary
from oeis import GAMMA, INDEPENDENT_GAMMA, KNIGHTS


# The peer benchmark, whose solver drivers these tests run.
PEERS = REPO / "scripts" / "peers" / "compare.py"


def solve_and_check(tmp_path, name, text, tool):
    """Writes ``text`` to a file, runs the benchmark's worker for ``tool``
    (exact, rc2, highs) on it in a process of its own, as the benchmark
    does (Exact's solver takes over SIGINT in the process that runs it),
    and returns ``boardsat check-solution``'s report on the file and the
    answer the worker wrote beside it."""
    model = tmp_path / name
    model.write_text(text)
    worker = subprocess.run([sys.executable, str(PEERS), "worker", tool, "test", "0", "60", str(model)],
                            capture_output=True, text=True, timeout=120)
    assert worker.returncode == 0, worker.stderr
    assert json.loads(worker.stdout.splitlines()[-1])["answer"] == "solved"
    answer = str(model) + ".answer"
    run = subprocess.run([binary(), "check-solution", str(model), answer, "--json"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr + run.stdout
    return json.loads(run.stdout)


@pytest.mark.parametrize("n", range(1, 9))
def test_rc2_finds_the_queens_domination_number(n, tmp_path):
    text = boardsat.encode("domination", n).to_wcnf()
    report = solve_and_check(tmp_path, "d.wcnf", text, "rc2")
    assert (report["status"], report["claim"], report["optimal"]) == ("accepted", "optimum", "unverified")
    assert report["value"] == GAMMA[n - 1]
    assert boardsat.check("domination", n, report["placement"], k=GAMMA[n - 1])


@pytest.mark.parametrize("n", range(1, 7))
def test_rc2_finds_the_most_knights(n, tmp_path):
    text = boardsat.encode("independence", n, piece="knight").to_wcnf()
    report = solve_and_check(tmp_path, "k.wcnf", text, "rc2")
    assert (report["status"], report["value"]) == ("accepted", KNIGHTS[n - 1])
    # The MaxSAT cost is the empty squares.
    assert report["objective"] == n * n - KNIGHTS[n - 1]
    assert boardsat.check("independence", n, report["placement"], piece="knight", k=KNIGHTS[n - 1])


@pytest.mark.parametrize("n", range(1, 9))
def test_exact_finds_the_domination_numbers_on_the_opb_files(n, tmp_path):
    for options, known in (({}, GAMMA), ({"independent": True}, INDEPENDENT_GAMMA)):
        text = boardsat.encode("domination", n, **options).to_opb()
        report = solve_and_check(tmp_path, "d.opb", text, "exact")
        assert (report["status"], report["claim"]) == ("accepted", "optimum")
        assert report["value"] == known[n - 1]
        assert boardsat.check("domination", n, report["placement"], **options)


def test_exact_places_eight_queens_from_the_opb_file(tmp_path):
    report = solve_and_check(tmp_path, "q.opb", boardsat.encode("queens", 8).to_opb(), "exact")
    assert report["status"] == "accepted" and report["optimal"] is None
    assert boardsat.check("queens", 8, report["placement"])


def test_exact_proves_the_most_knights_with_the_opb_objective(tmp_path):
    # The most pieces is `min: -1 x1 ...`: Exact's objective value is minus them.
    report = solve_and_check(tmp_path, "k.opb", boardsat.encode("independence", 5, piece="knight").to_opb(), "exact")
    assert (report["value"], report["objective"]) == (KNIGHTS[4], -KNIGHTS[4])


@pytest.mark.parametrize("n", [5, 8])
def test_highs_reads_the_lp_file_and_finds_gamma(n, tmp_path):
    text = boardsat.encode("domination", n).to_lp()
    model = tmp_path / "d.lp"
    model.write_text(text)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(str(model)) == highspy.HighsStatus.kOk
    assert h.getNumCol() == n * n and h.getNumRow() == n * n
    report = solve_and_check(tmp_path, "d2.lp", text, "highs")
    assert (report["status"], report["value"], report["claim"]) == ("accepted", GAMMA[n - 1], "optimum")


def test_to_opb_and_to_lp_state_the_bound_with_k():
    opb = boardsat.encode("domination", 8, k=5).to_opb()
    assert "* bound: at most 5 pieces" in opb and "min:" not in opb
    assert "command line: boardsat dimacs domination 8 -k 5 --format opb" in opb
    lp = boardsat.encode("queens", 6).to_lp()
    assert "\\ bound: exactly 6 pieces" in lp and " row_0: " in lp
    assert boardsat.encode("queens", 6).to_dimacs().startswith("c generator: boardsat")
