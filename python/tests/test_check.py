"""The independent checker, on placements worked out by hand."""

import pytest

import boardsat

FOUR_QUEENS = [(0, 1), (1, 3), (2, 0), (3, 2)]


def test_a_four_queens_solution():
    assert boardsat.check("queens", 4, FOUR_QUEENS)
    assert boardsat.check("queens", 4, [list(s) for s in FOUR_QUEENS])
    assert boardsat.check("independence", 4, FOUR_QUEENS, k=4)
    assert boardsat.check("independence", 4, FOUR_QUEENS)


@pytest.mark.parametrize(
    "placement",
    [
        [(0, 1), (1, 3), (2, 0), (3, 1)],  # (0, 1) and (3, 1) share a column
        [(0, 0), (1, 2), (2, 1), (3, 3)],  # diagonals
        [(0, 1), (1, 3), (2, 0)],  # three queens, queens needs four
        [(0, 1), (1, 3), (2, 0), (3, 2), (3, 2)],  # a square twice
        [(0, 1), (1, 3), (2, 0), (4, 2)],  # off the board
        [(0, 1), (1, 3), (2, 0), (-1, 2)],  # off the board, negative
    ],
)
def test_wrong_queens(placement):
    assert not boardsat.check("queens", 4, placement)


def test_domination():
    # The centre queen covers 3x3.
    assert boardsat.check("domination", 3, [(1, 1)])
    assert boardsat.check("domination", 3, [(1, 1)], k=1)
    assert not boardsat.check("domination", 3, [(0, 0)])  # (1, 2) is not covered
    assert not boardsat.check("domination", 3, [(1, 1), (0, 0)], k=1)  # two pieces, at most one
    # Two attacking queens dominate 4x4, but not independently.
    pair = [(1, 1), (1, 2)]
    assert boardsat.check("domination", 4, pair)
    assert not boardsat.check("domination", 4, pair, independent=True)
    # Kings: four on 4x4 at (1, 1), (1, 2), (2, 1), (2, 2).
    kings = [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert boardsat.check("domination", 4, kings, piece="king")
    assert not boardsat.check("domination", 4, kings[:3], piece="king")


def test_rectangular_boards_and_pieces():
    assert boardsat.check("independence", 2, [(0, 0), (1, 2)], cols=3, piece="rook")
    assert not boardsat.check("independence", 2, [(0, 0), (1, 2)], cols=2, piece="rook")
    assert boardsat.check("independence", 3, [(0, 0), (0, 1), (0, 2)], piece="knight")
    assert not boardsat.check("independence", 3, [(0, 0), (1, 2)], piece="knight")
    assert boardsat.check("independence", 3, [(0, 0), (0, 2)], piece="bishop")
    assert not boardsat.check("independence", 3, [(0, 0), (2, 2)], piece="bishop")


def test_every_placement_solve_returns_is_accepted():
    for family, n, options in [
        ("queens", 10, {}),
        ("independence", 6, {"piece": "knight"}),
        ("independence", 5, {"cols": 7, "piece": "bishop", "k": 8}),
        ("domination", 7, {}),
        ("domination", 6, {"piece": "rook", "independent": True}),
    ]:
        result = boardsat.solve(family, n, **options)
        assert result["status"] == "sat"
        checker = {key: value for key, value in options.items() if key in ("cols", "piece", "k", "independent")}
        assert boardsat.check(family, n, result["placement"], **checker)
        assert boardsat.check(family, n, result["placement"], k=result["value"], **{k: v for k, v in checker.items() if k != "k"})
