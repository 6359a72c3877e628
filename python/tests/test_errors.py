"""Bad arguments raise ValueError with the library's one-line message,
solver failures raise SolverError (a RuntimeError)."""

import os
import stat

import pytest

import boardsat


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: boardsat.solve("castles", 8), "unknown family 'castles' (expected one of: queens, independence, domination)"),
        (lambda: boardsat.solve("independence", 8, piece="pawn"), "pawn"),
        (lambda: boardsat.solve("queens", 0), "the board must have at least one row and one column (got 0x0)"),
        (lambda: boardsat.solve("queens", -3), "the board size must be a positive integer"),
        (lambda: boardsat.solve("independence", 4, k=-1), "the number of pieces must be a non-negative integer"),
        (lambda: boardsat.solve("independence", 3, k=10), "k = 10 is more pieces than the 3x3 board has squares (9)"),
        (lambda: boardsat.solve("queens", 8, piece="rook"), "queens places queens; use independence with piece='rook' for other pieces"),
        (lambda: boardsat.solve("queens", 8, k=7), "queens places exactly n queens"),
        (lambda: boardsat.solve("independence", 8, independent=True), "independent=True applies to domination only"),
        (lambda: boardsat.solve("queens", 8, amo="totalizer"), "'totalizer' is a cardinality encoding, not an at-most-one encoding"),
        (lambda: boardsat.solve("domination", 8, card="ladder"), "'ladder' is an at-most-one encoding; a cardinality encoding is needed"),
        (lambda: boardsat.solve("queens", 8, formulation="rows"), "unknown encoding 'rows'"),
        (lambda: boardsat.solve("queens", 8, solver="glucose"), "unknown solver 'glucose' (expected one of: varisat, cadical, external)"),
        (lambda: boardsat.solve("queens", 8, solver="external"), "the external backend needs a solver command"),
        (lambda: boardsat.solve("queens", 8, solver="varisat", seed=3), "seed=… applies to cadical only (varisat has no seed option)"),
        (lambda: boardsat.solve("queens", 8, solver="varisat", solver_cmd="minisat"), "solver_cmd=… needs solver='external' (or no solver=…)"),
        (lambda: boardsat.solve("queens", 8, solver_cmd="minisat 'unterminated"), "solver command"),
        (lambda: boardsat.solve("queens", 8, time_limit=-1), "'-1' is not a positive number of seconds"),
        (lambda: boardsat.solve("queens", 8, time_limit=float("nan")), "is not a positive number of seconds"),
        (lambda: boardsat.solve("queens", 8, portfolio=True), "portfolio=True races encodings for an optimum; it does not apply with k=…"),
        (lambda: boardsat.count("independence", 5, k=3, depth=2), "depth=… applies to N-queens and domination counts without limit=…"),
        (lambda: boardsat.count("queens", 8, limit=5, threads=2), "threads=… applies to N-queens and domination counts without limit=…"),
        (lambda: boardsat.count("queens", 8, limit=-5), "the limit must be a non-negative integer"),
        (lambda: boardsat.solve("queens", 6, card="seqcounter"), "card=… applies where pieces are counted"),
        (lambda: boardsat.count("domination", 5, amo="ladder"), "amo=… applies where pieces may not attack each other"),
        (lambda: boardsat.encode("domination", 8).to_dimacs(), "a cnf file states a decision and needs k=… to fix the bound"),
        (lambda: boardsat.encode("domination", 8, k=5).to_wcnf(), "wcnf states an optimum"),
        (lambda: boardsat.encode("queens", 8).to_wcnf(), "not a fixed number of pieces (8 here)"),
        (lambda: boardsat.encode("queens", 3000), "or force=True to go on"),
        (lambda: boardsat.enumerate("queens", 8, card="pairwise"), "'pairwise' is an at-most-one encoding"),
        (lambda: boardsat.check("queens", 0, []), "the board must have at least one row and one column"),
    ],
)
def test_bad_arguments_raise_value_error_with_the_library_message(call, message):
    with pytest.raises(ValueError) as raised:
        call()
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_messages_name_keywords_not_flags():
    # The library's messages name the choices in this package's terms.
    for call in [
        lambda: boardsat.solve("independence", 8, independent=True),
        lambda: boardsat.count("queens", 8, limit=5, halve=True),
        lambda: boardsat.count("queens", 8, halve=True, no_symmetry=True),
        lambda: boardsat.solve("queens", 8, solver="varisat", seed=3),
        lambda: boardsat.encode("queens", 3000),
    ]:
        with pytest.raises(ValueError) as raised:
            call()
        assert "--" not in str(raised.value), str(raised.value)


def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError):
        boardsat.solve("queens", "eight")
    with pytest.raises(TypeError):
        boardsat.solve("queens", 8, colour="white")
    with pytest.raises(TypeError):
        boardsat.solve("queens", 8, None)  # keywords only
    with pytest.raises(TypeError):
        boardsat.check("queens", 4, [(0, 1, 2)])
    with pytest.raises(TypeError):
        boardsat.count("queens", 6, progress=42)


def test_a_missing_solver_program_is_a_solver_error():
    with pytest.raises(boardsat.SolverError) as raised:
        boardsat.solve("queens", 8, solver_cmd="no-such-solver-boardsat-test")
    assert isinstance(raised.value, RuntimeError)
    assert "program 'no-such-solver-boardsat-test' not found" in str(raised.value)


def test_a_crashing_solver_is_a_runtime_error(tmp_path):
    # A "solver" that prints nonsense and dies.
    script = tmp_path / "crash.sh"
    script.write_text("#!/bin/sh\necho 'garbage'\nexit 3\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    with pytest.raises(RuntimeError):
        boardsat.solve("queens", 6, solver_cmd=str(script))
    with pytest.raises(RuntimeError):
        boardsat.count("queens", 6, limit=3, solver_cmd=str(script))
    with pytest.raises(RuntimeError):
        next(boardsat.enumerate("queens", 6, solver_cmd=str(script)))


def test_a_lying_solver_is_caught(tmp_path):
    # Claims SAT with the all-false model: the model check rejects it.
    script = tmp_path / "liar.sh"
    script.write_text("#!/bin/sh\necho 's SATISFIABLE'\necho 'v 0'\nexit 10\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    with pytest.raises(boardsat.SolverError):
        boardsat.solve("queens", 6, solver_cmd=str(script))


def test_names_are_listed():
    assert boardsat.FAMILIES == ("queens", "independence", "domination")
    assert set(boardsat.PIECES) == {"queen", "rook", "bishop", "knight", "king"}
    assert "totalizer" in boardsat.CARD_ENCODINGS and "ladder" in boardsat.AMO_ENCODINGS
    assert "cadical" in boardsat.SOLVERS and "varisat" in boardsat.SOLVERS
    for amo in boardsat.AMO_ENCODINGS:
        assert boardsat.count("queens", 6, amo=amo)["count"] == 4
    for card in boardsat.CARD_ENCODINGS:
        assert boardsat.solve("domination", 5, card=card)["value"] == 3
    for formulation in boardsat.FORMULATIONS:
        assert boardsat.count("queens", 6, formulation=formulation, limit=100)["count"] == 4
