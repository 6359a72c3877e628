"""scripts/fixed-by.py (issue 52, γ(Q_26)'s symmetric cases): the placements
a symmetry keeps, counted through boardsat's DIMACS and `count-dimacs`, equal
those of a brute force that shares nothing with the encoder or the script."""
import itertools
import subprocess
import sys

import pytest

from binary import REPO, binary

SCRIPT = REPO / "scripts" / "fixed-by.py"
# γ(Q_n), A075458.
GAMMA = {4: 2, 5: 3, 6: 3, 7: 4}
MAPS = {
    "transpose": lambda n, r, c: (c, r),
    "antitranspose": lambda n, r, c: (n - 1 - c, n - 1 - r),
    "half-turn": lambda n, r, c: (n - 1 - r, n - 1 - c),
    "quarter-turn": lambda n, r, c: (c, n - 1 - r),
    "mirror-rows": lambda n, r, c: (n - 1 - r, c),
    "mirror-cols": lambda n, r, c: (r, n - 1 - c),
}


def dominates(n, queens):
    seen = set(queens)
    for r, c in queens:
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1)):
            i, j = r + dr, c + dc
            while 0 <= i < n and 0 <= j < n:
                seen.add((i, j))
                i, j = i + dr, j + dc
    return len(seen) == n * n


def brute(n, k, kind):
    g = MAPS[kind]
    squares = [(r, c) for r in range(n) for c in range(n)]
    return sum(
        1
        for q in itertools.combinations(squares, k)
        if {g(n, r, c) for r, c in q} == set(q) and dominates(n, q)
    )


def fixed_count(n, k, kind, tmp_path):
    cnf = subprocess.run([binary(), "dimacs", "domination", str(n), "-k", str(k)],
                         capture_output=True, text=True, check=True).stdout
    out = subprocess.run([sys.executable, str(SCRIPT), kind], input=cnf,
                         capture_output=True, text=True, check=True).stdout
    path = tmp_path / f"{kind}-{n}.cnf"
    path.write_text(out)
    run = subprocess.run([binary(), "count-dimacs", str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return int(run.stdout.split()[0])


@pytest.mark.parametrize("kind", sorted(MAPS))
@pytest.mark.parametrize("n", [4, 5, 6])
def test_the_placements_a_symmetry_keeps_match_a_brute_force(n, kind, tmp_path):
    k = GAMMA[n]
    assert fixed_count(n, k, kind, tmp_path) == brute(n, k, kind)


def test_seven_by_seven_transpose(tmp_path):
    # A larger board, where the brute force finds some and misses none.
    expected = brute(7, 4, "transpose")
    assert expected > 0
    assert fixed_count(7, 4, "transpose", tmp_path) == expected


@pytest.mark.parametrize("args,stdin,what", [
    (["twirl"], "p cnf 1 0\n", "usage"),
    (["transpose"], "p cnf 1 0\n", "no 'c board: NxN'"),
    (["transpose"], "c board: 3x4\np cnf 1 0\n", "no 'c board: NxN'"),
])
def test_bad_input_is_one_line(args, stdin, what):
    run = subprocess.run([sys.executable, str(SCRIPT), *args], input=stdin, capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and what in lines[0], run.stderr
