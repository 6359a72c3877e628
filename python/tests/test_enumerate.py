"""enumerate() is lazy: one solver call per placement asked for."""

import itertools
import time

import boardsat
from oeis import QUEENS


def test_three_of_fourteen_queens_come_at_once():
    # 14-queens has 365,596 placements (A000170); listing them all takes
    # minutes, three take one solver call each.
    start = time.monotonic()
    placements = boardsat.enumerate("queens", 14)
    first = list(itertools.islice(placements, 3))
    assert time.monotonic() - start < 10
    assert len(first) == 3 and len(set(map(tuple, first))) == 3
    assert all(boardsat.check("queens", 14, p) for p in first)
    assert placements.count == 3 and placements.complete is None
    placements.close()
    assert placements.complete is False
    assert next(placements, None) is None


def test_breaking_out_of_the_loop_stops_it():
    seen = []
    for placement in boardsat.enumerate("queens", 12):
        seen.append(placement)
        if len(seen) == 3:
            break
    assert len(seen) == 3


def test_nothing_is_solved_before_the_first_next():
    # Without k the optimum is found on the first next(), not here: a
    # domination problem whose proof takes long returns an iterator at once.
    start = time.monotonic()
    placements = boardsat.enumerate("domination", 15)
    assert time.monotonic() - start < 1
    assert placements.count == 0 and placements.complete is None
    placements.close()


def test_every_placement_once_then_complete():
    for n in range(1, 9):
        placements = boardsat.enumerate("queens", n)
        listed = list(placements)
        assert len(listed) == QUEENS[n - 1]
        assert len(set(map(tuple, listed))) == len(listed)
        assert all(boardsat.check("queens", n, p) for p in listed)
        assert placements.complete is True and placements.stopped is None
        assert next(placements, None) is None


def test_a_limit_ends_it_incomplete():
    placements = boardsat.enumerate("queens", 8, limit=5)
    assert len(list(placements)) == 5
    assert placements.complete is False and placements.limit_reached is True
    assert len(list(boardsat.enumerate("queens", 6, limit=100))) == 4


def test_with_block_and_iteration_protocol():
    with boardsat.enumerate("queens", 10, solver="varisat") as placements:
        assert iter(placements) is placements
        first = next(placements)
        assert boardsat.check("queens", 10, first)
    assert placements.complete is False
    assert "1 listed" in repr(placements)


def test_placements_are_lists_of_row_col_tuples():
    placement = next(boardsat.enumerate("independence", 3, cols=4, piece="rook", k=3))
    assert isinstance(placement, list) and len(placement) == 3
    assert all(isinstance(square, tuple) and len(square) == 2 for square in placement)
    assert sorted(placement) == placement
    assert boardsat.check("independence", 3, placement, cols=4, piece="rook", k=3)
