#!/usr/bin/env python3
"""Which symmetry reduction inside a cube finds a dense board's sets fastest
(issue 52, item 3).

    boardsat cubes domination 13 -k 7 --depth 1 -o SPLIT      # no --lex-leader
    scripts/lex-orders.py SPLIT --order lines inter center ring --orbit-blocking

Reads an exported domination split of a square board written without
`--lex-leader` (each cube file holds the cube's placements, all of them)
and, cube by cube, counts the orbits of its placements under the cube's
stabilizer in one PySAT CaDiCaL per cube and way:

* `--order O`: adds lex-leader constraints under the stabilizer in the
  order O and blocks each model: `lines` (occupancy of the rows, then of
  the columns, then the squares row-major: what boardsat's count uses),
  `inter` (rows and columns interleaved, r0 c0 r1 c1 …), `center` (the
  lines from the middle outwards), `ring` (the squares alone, outer ring
  first);
* `--orbit-blocking`: no lex-leader constraints; each model is blocked
  with all its images under the board's symmetries (those outside the
  cube are excluded by its units anyway).

`--private` also times each way with the private-neighbour constraints
added: in a minimum dominating set every queen q has a square s of its
closed neighbourhood N[q] that no other queen dominates (else the set
without q would dominate with fewer), so x_q → ∨_s p_{q,s} and
p_{q,s} → x_q ∧ ¬x_t for every other t of N[s]. They hold only at the
optimum k (the split's -k must be the proven minimum).

Each way counts each orbit once, so every way must give each cube the
same number; a row where they differ says so and the script exits 1.
Prints one line per cube and way (models, CPU s, conflicts) and the total
CPU per way. The constraints are written here, from the cube's line
pattern, and share nothing with boardsat's (scripts/… are studies; what
the count runs is crates/solve/src/search/lex.rs).
"""
import argparse
import re
import sys
import time
from pathlib import Path

try:
    from pysat.formula import CNF
    from pysat.solvers import Solver
except ImportError:
    sys.exit("error: lex-orders.py needs PySAT (pip install python-sat)")

ORDERS = ("lines", "inter", "center", "ring")


def symmetries(n):
    """The 8 symmetries of the n×n board, identity first, as maps of (r, c)."""
    m = n - 1
    return [
        lambda r, c: (r, c), lambda r, c: (c, m - r), lambda r, c: (m - r, m - c),
        lambda r, c: (m - c, r), lambda r, c: (r, m - c), lambda r, c: (m - r, c),
        lambda r, c: (c, r), lambda r, c: (m - c, m - r),
    ]


def line_image(g, line):
    """The image of line 'r3' or 'c5' under g (a row may become a column)."""
    kind, i = line[0], int(line[1:])
    a, b = (g(i, 0), g(i, 1)) if kind == "r" else (g(0, i), g(1, i))
    if kind == "r":
        return f"r{a[0]}" if a[0] == b[0] else f"c{a[1]}"
    return f"c{a[1]}" if a[1] == b[1] else f"r{a[0]}"


class Cube:
    """One cube file: its clauses, board size and fixed lines."""

    def __init__(self, path):
        text = path.read_text()
        board = re.search(r"^c board: (\d+)x(\d+)$", text, re.M)
        fixed = re.search(r"fixed literals: (\S+)\)", text)
        if not board or board.group(1) != board.group(2) or not fixed:
            raise ValueError(f"{path}: not a cube of a square domination board")
        if "lex-leader" in text:
            raise ValueError(f"{path}: the split carries lex-leader constraints (write it without --lex-leader)")
        self.path = path
        self.n = int(board.group(1))
        self.cnf = CNF(from_string=text)
        self.fixed = {m.group(1): m.group(2) == "+" for m in re.finditer(r"([rc]\d+)([+-])", fixed.group(1))}
        syms = symmetries(self.n)
        self.stabilizer = [g for g in syms[1:]
                           if all(self.fixed.get(line_image(g, line)) == on for line, on in self.fixed.items())]

    def square(self, r, c):
        return r * self.n + c + 1


def items_of(order, n):
    rows = [f"r{i}" for i in range(n)]
    cols = [f"c{i}" for i in range(n)]
    squares = [(r, c) for r in range(n) for c in range(n)]
    if order == "lines":
        return rows + cols + squares
    if order == "inter":
        return [x for i in range(n) for x in (rows[i], cols[i])] + squares
    if order == "center":
        mid = sorted(range(n), key=lambda i: (abs(2 * i - (n - 1)), i))
        return [f"r{i}" for i in mid] + [f"c{i}" for i in mid] + squares
    return sorted(squares, key=lambda s: (min(s[0], s[1], n - 1 - s[0], n - 1 - s[1]), s))


def lex_clauses(cube, order):
    """The cube's clauses plus x ≤lex g(x) for every g of its stabilizer."""
    n, clauses, top = cube.n, list(cube.cnf.clauses), cube.cnf.nv
    lines = {}

    def fresh():
        nonlocal top
        top += 1
        return top

    def lit(item):
        if isinstance(item, tuple):
            return cube.square(*item)
        if item not in lines:
            w = fresh()
            i = int(item[1:])
            squares = [cube.square(i, c) if item[0] == "r" else cube.square(c, i) for c in range(n)]
            clauses.append([-w] + squares)
            clauses.extend([-s, w] for s in squares)
            lines[item] = w
        return lines[item]

    def image(g, item):
        return g(*item) if isinstance(item, tuple) else line_image(g, item)

    items = items_of(order, n)
    for g in cube.stabilizer:
        equal = None
        for item in items:
            other = image(g, item)
            if other == item:
                continue
            x, y = lit(item), lit(other)
            guard = [] if equal is None else [-equal]
            nxt = fresh()
            clauses += [guard + [-x, y], guard + [-x, -y, nxt], guard + [x, y, nxt]]
            equal = nxt
    return clauses


def attacks(n, a, b):
    """Whether a queen on square a dominates square b (a == b included)."""
    (r, c), (s, t) = a, b
    return r == s or c == t or abs(r - s) == abs(c - t)


def private_clauses(cube, top):
    """The private-neighbour constraints of the cube's board, over fresh
    variables after top."""
    n = cube.n
    squares = [(r, c) for r in range(n) for c in range(n)]
    near = {s: [t for t in squares if attacks(n, s, t)] for s in squares}
    clauses = []
    for q in squares:
        options = []
        for s in near[q]:
            top += 1
            options.append(top)
            clauses.append([-top, cube.square(*q)])
            clauses.extend([-top, -cube.square(*t)] for t in near[s] if t != q)
        clauses.append([-cube.square(*q)] + options)
    return clauses


def count(cube, way):
    """(models, CPU s, conflicts) of counting the cube's orbits one way."""
    n = cube.n
    base, private = way.split("+")[0], way.endswith("+private")
    clauses = list(cube.cnf.clauses) if base == "orbit-blocking" else lex_clauses(cube, base)
    if private:
        top = max(abs(lit) for clause in clauses for lit in clause)
        clauses += private_clauses(cube, top)
    syms = symmetries(n)
    start = time.process_time()
    models = 0
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            placed = [divmod(v - 1, n) for v in range(1, n * n + 1) if model[v - 1] > 0]
            images = {frozenset(placed)} if base != "orbit-blocking" else \
                {frozenset(g(r, c) for r, c in placed) for g in syms}
            for image in images:
                solver.add_clause(sorted(-cube.square(r, c) for r, c in image))
            models += 1
        conflicts = solver.accum_stats().get("conflicts", 0)
    return models, time.process_time() - start, conflicts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("split", type=Path, help="a split written by `boardsat cubes domination N -k K` without --lex-leader")
    parser.add_argument("--order", nargs="+", choices=ORDERS, default=["lines"], help="lex-leader orders to time")
    parser.add_argument("--orbit-blocking", action="store_true", help="also time blocking each model's images instead")
    parser.add_argument("--private", action="store_true", help="also time each way with the private-neighbour constraints (only at the optimum)")
    args = parser.parse_args()
    files = sorted(args.split.glob("cube-*.cnf"))
    if not files:
        sys.exit(f"error: {args.split}: no cube files (cube-*.cnf)")
    try:
        cubes = [Cube(path) for path in files]
    except (OSError, ValueError) as err:
        sys.exit(f"error: {err}")
    ways = list(args.order) + (["orbit-blocking"] if args.orbit_blocking else [])
    if args.private:
        ways = [w for way in ways for w in (way, way + "+private")]
    totals = dict.fromkeys(ways, 0.0)
    agree = True
    for cube in cubes:
        counts = set()
        for way in ways:
            models, cpu, conflicts = count(cube, way)
            totals[way] += cpu
            counts.add(models)
            print(f"{cube.path.name} |stabilizer| = {len(cube.stabilizer) + 1} {way}: "
                  f"{models} orbits, {cpu:.2f} CPU s, {conflicts} conflicts", flush=True)
        if len(counts) > 1:
            agree = False
            print(f"{cube.path.name}: the ways DISAGREE: {sorted(counts)}", flush=True)
    for way in ways:
        print(f"total {way}: {totals[way]:.2f} CPU s")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
