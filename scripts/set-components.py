#!/usr/bin/env python3
"""How minimum dominating sets cluster under queen moves (issue 52, item 3).

    scripts/set-components.py docs/results/A002564-16.json [--moves 1|2]

Reads a published count's placements (every set, not orbits) and joins two
sets when they differ by moving at most MOVES queens; prints the number of
sets, of components, the largest and the singletons. A harvest that seeds a
search over such moves from each model the solver finds needs at least one
solver model per component, so sets / components bounds what it can save.
Independent of boardsat: plain Python over the JSON's placements.
"""
import argparse
import itertools
import json
import sys
from collections import defaultdict


def components(sets, moves):
    """Sizes of the classes of `sets` joined by moves of at most `moves` queens."""
    parent = list(range(len(sets)))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    # Two sets of the same size differ by at most m queen moves exactly when
    # they share a subset of size k - m: index every set by those subsets.
    by_core = defaultdict(list)
    for i, s in enumerate(sets):
        for gone in itertools.combinations(sorted(s), moves):
            by_core[s - frozenset(gone)].append(i)
    for members in by_core.values():
        for j in members[1:]:
            parent[find(j)] = find(members[0])
    sizes = defaultdict(int)
    for i in range(len(sets)):
        sizes[find(i)] += 1
    return sorted(sizes.values(), reverse=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("result", help="a docs/results/A002564-N.json file")
    ap.add_argument("--moves", type=int, default=1, choices=[1, 2])
    a = ap.parse_args()
    try:
        with open(a.result, encoding="utf-8") as f:
            placements = json.load(f)["placements"]
        sets = [frozenset(tuple(q) for q in p) for p in placements]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"error: {a.result}: not a results file with placements ({e})", file=sys.stderr)
        return 2
    sizes = components(sets, a.moves)
    print(
        f"{len(sets)} sets, {len(sizes)} components under moves of at most {a.moves} "
        f"queen(s), largest {sizes[:5]}, {sizes.count(1)} alone"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
