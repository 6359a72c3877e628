"""boardsat's answers against OEIS, through the Python API."""

import pytest

import boardsat
from oeis import FUNDAMENTAL, GAMMA, MINIMUM_DOMINATING_SETS, QUEENS


@pytest.mark.parametrize("n", range(1, 11))
def test_queens_counts_are_a000170_and_a002562(n):
    result = boardsat.count("queens", n)
    assert result["complete"] is True
    assert result["count"] == QUEENS[n - 1]
    # Symmetry breaking counts one placement per orbit: the fundamental solutions.
    assert result["symmetry"] is True
    assert result["fundamental"] == FUNDAMENTAL[n - 1]


@pytest.mark.parametrize("reduction", [{}, {"no_symmetry": True}, {"halve": True}, {"depth": 0}, {"threads": 1}])
def test_every_cube_split_counts_nine_queens(reduction):
    assert boardsat.count("queens", 9, **reduction)["count"] == QUEENS[8]


@pytest.mark.parametrize("n", range(4, 9))
def test_a_limit_or_varisat_counts_by_blocking_clauses(n):
    by_limit = boardsat.count("queens", n, limit=10**6)
    assert (by_limit["count"], by_limit["complete"], by_limit["limit_reached"]) == (QUEENS[n - 1], True, False)
    assert "cubes" not in by_limit
    assert boardsat.count("queens", n, solver="varisat")["count"] == QUEENS[n - 1]


@pytest.mark.parametrize("n", range(1, 9))
def test_queen_domination_number_is_a075458_with_a_proof(n):
    result = boardsat.solve("domination", n)
    assert result["status"] == "sat"
    assert result["optimal"] is True
    assert result["value"] == GAMMA[n - 1]
    assert boardsat.check("domination", n, result["placement"], k=GAMMA[n - 1])
    # The proof: one fewer is unsatisfiable.
    if GAMMA[n - 1] > 1:
        assert boardsat.solve("domination", n, k=GAMMA[n - 1] - 1)["status"] == "unsat"


@pytest.mark.parametrize("n", range(1, 9))
def test_minimum_dominating_sets_are_a002564(n):
    result = boardsat.count("domination", n)
    assert result["optimum"] == GAMMA[n - 1]
    assert result["complete"] is True
    assert result["count"] == MINIMUM_DOMINATING_SETS[n - 1]


def test_the_optimal_placements_enumerated_are_a002564():
    placements = boardsat.enumerate("domination", 6)
    listed = list(placements)
    assert len(listed) == MINIMUM_DOMINATING_SETS[5]
    assert len(set(map(tuple, listed))) == len(listed)
    assert placements.complete is True
    assert placements.optimum == GAMMA[5]
    assert all(boardsat.check("domination", 6, p, k=GAMMA[5]) for p in listed)


def test_solve_reports_the_keys_of_the_command_lines_json():
    result = boardsat.solve("queens", 8)
    expected = {
        "command", "status", "value", "optimal", "placement", "backend", "elapsed",
        "problem", "rows", "cols", "piece", "amo", "card", "formulation",
        "vars", "aux_vars", "clauses", "lits",
    }
    assert set(result) == expected
    assert (result["command"], result["status"], result["value"], result["optimal"]) == ("solve", "sat", 8, None)
    assert boardsat.check("queens", 8, result["placement"])
    assert result["vars"] == 64 and result["aux_vars"] == 0


def test_other_pieces_and_boards():
    # 8 non-attacking rooks on 8x8 are the 8! permutations.
    assert boardsat.count("independence", 8, piece="rook", k=8)["count"] == 40320
    # The maximum number of non-attacking knights on 8x8 is 32 (two ways: one colour).
    knights = boardsat.count("independence", 8, piece="knight")
    assert (knights["optimum"], knights["count"]) == (32, 2)
    # On a 3x5 board, at most min(3, 5) = 3 non-attacking rooks: 5*4*3 ways.
    assert boardsat.count("independence", 3, cols=5, piece="rook", k=3)["count"] == 60
    # Nine kings dominate 8x8 and no fewer (ceil(8/3)^2).
    kings = boardsat.solve("domination", 8, piece="king")
    assert (kings["value"], kings["optimal"]) == (9, True)
    # Independent domination of Q_8 also needs 5 queens.
    independent = boardsat.solve("domination", 8, independent=True)
    assert independent["value"] == 5
    assert boardsat.check("domination", 8, independent["placement"], independent=True)
