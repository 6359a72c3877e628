#!/usr/bin/env python3
"""Restricts a boardsat DIMACS file to the placements that a symmetry of the
board keeps (issue 52: the symmetric cases of γ(Q_26) = 13).

    boardsat dimacs domination 26 -k 13 | scripts/fixed-by.py transpose > t26.cnf
    boardsat solve-dimacs t26.cnf --proof DIR    # UNSAT: no 13 queens that
                                                 # the transpose keeps dominate

SYMMETRY is one of transpose, antitranspose, half-turn, quarter-turn,
mirror-rows (r -> n-1-r), mirror-cols (c -> n-1-c). For every square s the
file gains the clause (not s or g(s)): a placement holds s only with its
image, so the placements left are exactly those g maps onto themselves (for
a quarter turn, its orbits of four). The board's size and its square
variables are read from the file's own comments (`c board: NxN`, square
(r, c) is r*N + c + 1, as `boardsat dimacs` writes them); the clause count
in the `p cnf` line is raised, every other line kept. Written here because
this is four lines of arithmetic over boardsat's own numbering, not a
library's job.

Exit codes: 0 written; 2 bad input (an unknown symmetry, a file that is not
boardsat's square-board DIMACS), one line on stderr starting with "error:".
"""
import re
import sys

MAPS = {
    "transpose": lambda n, r, c: (c, r),
    "antitranspose": lambda n, r, c: (n - 1 - c, n - 1 - r),
    "half-turn": lambda n, r, c: (n - 1 - r, n - 1 - c),
    "quarter-turn": lambda n, r, c: (c, n - 1 - r),
    "mirror-rows": lambda n, r, c: (n - 1 - r, c),
    "mirror-cols": lambda n, r, c: (r, n - 1 - c),
}


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def restrict(lines, kind):
    """The lines of the restricted file."""
    size = next((re.match(r"c board: (\d+)x(\d+)$", l) for l in lines if l.startswith("c board:")), None)
    if not size or size.group(1) != size.group(2):
        fail("the input has no 'c board: NxN' line of a square board (is it boardsat dimacs output?)")
    if not any(re.search(r"square \(r, c\) is r\*\d+ \+ c \+ 1", l) for l in lines):
        fail("the input does not say how squares are numbered (is it boardsat dimacs output?)")
    n = int(size.group(1))
    g = MAPS[kind]
    extra = []
    for r in range(n):
        for c in range(n):
            r2, c2 = g(n, r, c)
            if (r2, c2) != (r, c):
                extra.append(f"-{r * n + c + 1} {r2 * n + c2 + 1} 0")
    out, header = [], False
    for line in lines:
        m = re.match(r"p cnf (\d+) (\d+)\s*$", line)
        if m:
            if header:
                fail("the input has two 'p cnf' lines")
            header = True
            line = f"p cnf {m.group(1)} {int(m.group(2)) + len(extra)}"
        out.append(line)
    if not header:
        fail("the input has no 'p cnf' line")
    out.insert(next(i for i, l in enumerate(out) if l.startswith("p cnf")) + 1,
               f"c fixed-by: {kind} (scripts/fixed-by.py: {len(extra)} clauses not-s-or-g(s) below)")
    return out + extra


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in MAPS:
        fail(f"usage: fixed-by.py SYMMETRY < IN.cnf > OUT.cnf, SYMMETRY one of {', '.join(MAPS)}")
    try:
        lines = sys.stdin.read().splitlines()
        sys.stdout.write("\n".join(restrict(lines, sys.argv[1])) + "\n")
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
