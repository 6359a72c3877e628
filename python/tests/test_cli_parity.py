"""Python and the command line take one road: with the same arguments and
their defaults, ``boardsat.solve``/``count`` and ``boardsat solve``/``count
--json`` report the same effective encodings and the same answers."""

import json
import subprocess

import pytest

import boardsat
from binary import binary

def cli(*args):
    run = subprocess.run([binary(), *args, "--json"], capture_output=True, text=True, timeout=120)
    assert run.returncode in (0, 20), run.stderr
    return json.loads(run.stdout)


def flags(family, n, cols=None, piece=None, k=None, independent=False):
    out = [family, str(n)]
    if cols is not None:
        out += ["--cols", str(cols)]
    if piece is not None:
        out += ["--piece", piece]
    if k is not None:
        out += ["-k", str(k)]
    if independent:
        out.append("--independent")
    return out


# What both must report alike: the problem, the effective encodings and
# their sizes, and the answer.
ENCODING = ("problem", "rows", "cols", "piece", "amo", "card", "formulation", "vars", "aux_vars", "clauses", "lits")
SOLVED = ENCODING + ("status", "value", "optimal")
COUNTED = ENCODING + ("count", "complete", "fundamental", "optimum")

CASES = [
    dict(family="queens", n=6),
    dict(family="queens", n=8),
    dict(family="independence", n=5, k=5, piece="rook"),
    dict(family="independence", n=4, cols=6, k=4, piece="rook"),
] + [
    dict(family="independence", n=n, cols=cols, piece=piece)
    for piece in boardsat.PIECES
    for (n, cols) in [(5, None), (4, 6)]
] + [
    dict(family="domination", n=n, cols=cols, piece=piece, independent=independent)
    for piece in boardsat.PIECES
    for (n, cols) in [(5, None), (4, 6)]
    for independent in (False, True)
] + [
    dict(family="domination", n=6, k=3),
    dict(family="domination", n=6, k=2),
]


def name(case):
    return " ".join(flags(**case))


@pytest.mark.parametrize("case", CASES, ids=name)
def test_solve_takes_the_command_line_road(case):
    py = boardsat.solve(**case)
    sh = cli("solve", *flags(**case))
    assert {key: py.get(key) for key in SOLVED} == {key: sh.get(key) for key in SOLVED}


@pytest.mark.parametrize("case", CASES, ids=name)
def test_count_takes_the_command_line_road(case):
    py = boardsat.count(**case)
    sh = cli("count", *flags(**case))
    assert {key: py.get(key) for key in COUNTED} == {key: sh.get(key) for key in COUNTED}


def test_queens_default_to_the_lazy_lines_with_cadical_as_the_command_line_does():
    # The defect this guards against: Python once kept eager clauses
    # (amo="auto") where the command line used the line propagator.
    assert boardsat.solve("queens", 50)["amo"] == cli("solve", "queens", "50")["amo"] == "lazy"
    assert boardsat.solve("queens", 50, solver="varisat")["amo"] == "auto"
