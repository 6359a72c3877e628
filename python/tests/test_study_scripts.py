"""Study scripts whose figures BENCHMARKS.md's studies quote (issue 52,
item 3): each is checked against boardsat on a small board, so a figure
they print comes from a way of counting that counts right."""

import re
import subprocess
import sys

from binary import REPO, binary
from oeis import MINIMUM_DOMINATING_ORBITS

SCRIPTS = REPO / "scripts"


def run(*args, timeout=600):
    return subprocess.run([*map(str, args)], capture_output=True, text=True, timeout=timeout)


def test_every_symmetry_reduction_of_lex_orders_counts_boardsat_s_orbits(tmp_path):
    """scripts/lex-orders.py: every lex-leader order and orbit blocking count,
    in each cube of 7×7's depth-1 split, the orbits under the cube's
    stabilizer that boardsat's own lex-leader cube holds (count-dimacs on
    the cube `--lex-leader` writes); summed over the cubes, one per orbit
    of cubes, they are the board's orbits, A002563(7) (an orbit of sets
    meets one orbit of cubes, and its sets in that orbit's cube are one
    orbit of the cube's stabilizer). With `--private` every way again
    with the private-neighbour constraints, which every minimum set
    meets (k = 4 = γ(Q_7))."""
    for name, extra in (("plain", []), ("lex", ["--lex-leader"])):
        made = run(binary(), "cubes", "domination", "7", "-k", "4", "--depth", "1", *extra, "-o", tmp_path / name)
        assert made.returncode == 0, made.stderr
    study = run(sys.executable, SCRIPTS / "lex-orders.py", tmp_path / "plain",
                "--order", "lines", "inter", "center", "ring", "--orbit-blocking", "--private")
    assert study.returncode == 0, study.stdout + study.stderr
    found = {}
    for line in study.stdout.splitlines():
        m = re.match(r"(cube-\d+)\.cnf \|stabilizer\| = \d+ (\S+): (\d+) orbits", line)
        if m:
            found.setdefault(m.group(1), {})[m.group(2)] = int(m.group(3))
    cubes = sorted(p.stem for p in (tmp_path / "lex").glob("cube-*.cnf"))
    assert cubes and sorted(found) == cubes
    for cube in cubes:
        counted = run(binary(), "count-dimacs", tmp_path / "lex" / f"{cube}.cnf")
        assert counted.returncode == 0, counted.stderr
        ours = int(counted.stdout.split()[0])
        ways = [w for way in ("lines", "inter", "center", "ring", "orbit-blocking") for w in (way, way + "+private")]
        assert found[cube] == dict.fromkeys(ways, ours), cube
    assert sum(ways["lines"] for ways in found.values()) == MINIMUM_DOMINATING_ORBITS[7 - 1]


def test_lex_orders_refuses_a_lex_leader_split_in_one_line(tmp_path):
    made = run(binary(), "cubes", "domination", "5", "-k", "3", "--depth", "1", "--lex-leader", "-o", tmp_path / "lex")
    assert made.returncode == 0, made.stderr
    study = run(sys.executable, SCRIPTS / "lex-orders.py", tmp_path / "lex")
    assert study.returncode != 0 and "Traceback" not in study.stderr
    assert study.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'lex' / 'cube-00000.cnf'}: the split carries lex-leader constraints (write it without --lex-leader)"]
