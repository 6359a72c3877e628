"""The encoding in PySAT: the projected model count of boardsat's clauses,
counted by PySAT with blocking clauses on the board variables, equals
boardsat's own count, and every model is a placement the checker accepts."""

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

import boardsat
from oeis import QUEENS

PROBLEMS = [
    ("queens", 6, {}),
    ("queens", 8, {"amo": "ladder"}),
    ("queens", 8, {"amo": "bimander", "formulation": "cardinality", "card": "seqcounter"}),
    ("independence", 5, {"piece": "knight", "k": 12}),
    ("independence", 4, {"cols": 6, "piece": "rook", "k": 4}),
    ("independence", 6, {"piece": "bishop", "k": 10, "card": "cardnetwork"}),
    ("domination", 5, {"k": 3}),
    ("domination", 5, {"k": 3, "card": "mtotalizer"}),
    ("domination", 6, {"k": 3, "card": "seqcounter", "independent": True}),
    ("domination", 4, {"piece": "king", "k": 4}),
]


def projected_models(encoding):
    """Every model of the clauses projected on the board variables, by
    blocking clauses: the placements, as sorted (row, col) lists."""
    cols = encoding.stats["cols"]
    found = []
    with Solver(bootstrap_with=encoding.clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            board = [model[v - 1] if v <= len(model) else -v for v in encoding.board_vars]
            found.append(sorted(divmod(lit - 1, cols) for lit in board if lit > 0))
            solver.add_clause([-lit for lit in board])
    return found


@pytest.mark.parametrize("family,n,options", PROBLEMS)
def test_pysat_projected_count_equals_count(family, n, options):
    encoding = boardsat.encode(family, n, **options)
    placements = projected_models(encoding)
    assert len(placements) == boardsat.count(family, n, **options)["count"]
    checker = {key: value for key, value in options.items() if key in ("cols", "piece", "k", "independent")}
    assert all(boardsat.check(family, n, p, **checker) for p in placements)
    assert len(set(map(tuple, placements))) == len(placements)


def test_pysat_counts_eight_queens_as_oeis():
    assert len(projected_models(boardsat.encode("queens", 8))) == QUEENS[7]


@pytest.mark.parametrize("family,n,options", PROBLEMS)
def test_the_encoding_is_described_truthfully(family, n, options):
    encoding = boardsat.encode(family, n, **options)
    clauses = encoding.clauses
    rows, cols = encoding.stats["rows"], encoding.stats["cols"]
    assert (rows, cols) == (n, options.get("cols", n))
    assert encoding.board_vars == list(range(1, rows * cols + 1))
    assert encoding.stats["vars"] == encoding.nvars
    assert encoding.stats["clauses"] == len(clauses) == encoding.nclauses == len(encoding)
    assert encoding.stats["lits"] == sum(map(len, clauses))
    assert max(abs(lit) for clause in clauses for lit in clause) <= encoding.nvars
    assert encoding.k == options.get("k", n)


@pytest.mark.parametrize("family,n,options", PROBLEMS)
def test_dimacs_text_reads_back_into_the_same_clauses(family, n, options):
    encoding = boardsat.encode(family, n, **options)
    text = encoding.to_dimacs()
    formula = CNF(from_string=text)
    assert formula.clauses == encoding.clauses
    assert formula.nv == encoding.nvars
    header = [line for line in text.splitlines() if line.startswith("p ")]
    assert header == [f"p cnf {encoding.nvars} {encoding.nclauses}"]
    shown = [int(v) for line in text.splitlines() if line.startswith("c p show") for v in line.split()[3:]]
    assert shown[-1] == 0 and shown[:-1] == encoding.board_vars
    assert "c generator: boardsat " in text
    assert f"c command line: boardsat dimacs {family} {n}" in text


def test_pysat_cnf_object_from_clauses():
    encoding = boardsat.encode("domination", 8, k=5)
    formula = CNF(from_clauses=encoding.clauses)
    with Solver(bootstrap_with=formula) as solver:
        assert solver.solve()
        model = set(lit for lit in solver.get_model() if lit > 0)
        placement = [divmod(v - 1, 8) for v in encoding.board_vars if v in model]
        assert boardsat.check("domination", 8, placement, k=5)
    with Solver(bootstrap_with=boardsat.encode("domination", 8, k=4).clauses) as solver:
        # gamma(Q_8) = 5 (A075458): four queens cannot dominate.
        assert not solver.solve()
