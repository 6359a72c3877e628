#!/usr/bin/env python3
"""Where a certified count spent its CPU, cube by cube (issue 52, item 3).

    scripts/cube-costs.py DIR_OR_MANIFEST [...] [--rows N]

Reads the proof manifest of `boardsat count domination N --proof DIR` (the
directory or its MANIFEST.json; a run still going or stopped is read as far
as its proven cubes go) and prints, for the count's split: the cubes proven,
how many held no set and the CPU they took, the orbit representatives found
(a lex-leader count's `models`), representatives per CPU second over all
cubes and in the richest cube, and the N costliest cubes. The figure it
answers: on a loose board, is a count's time the cost of its sets, or of the
search that finds there are no more? Times are the solver's CPU time
(`cpu_millis`), else wall time (`millis`, marked). Exit 2 with one line on
bad input.

    scripts/cube-costs.py ROUTE2 --priced-by ROUTE1 --cubes SPLIT

prices what a count still running has left by what a finished count of
the same board, split less deep, spent (issue 52: A002564(20)'s second
route against its first). SPLIT is the MANIFEST of `boardsat cubes
domination N -k K --depth D --lex-leader -o DIR` at ROUTE2's depth, which
lists every cube ROUTE2 is to prove. Each of them lies in one of ROUTE1's
cubes (the same outer rings, fewer of them); where ROUTE2 has proven every
cube inside one of ROUTE1's, the two spent CPU side by side, and their
ratio prices the rest: ROUTE1's CPU on what is left (a cube partly done
counted by the share of its pieces left), times the ratio. A cube ROUTE2
split again (`--cube-budget`) counts as proven only once it is whole, so
the price errs high.
"""
import argparse
import os
import re
from collections import defaultdict

from results_io import fail, read_json, run, split_manifest


def load(path):
    """The proof manifest of `path`, a proof directory or its MANIFEST.json."""
    if os.path.isdir(path):
        path = os.path.join(path, "MANIFEST.json")
    return read_json(path, "a proof manifest")


def cubes_of(manifest, path):
    """The count split's proven cubes: (cube, models, seconds, wall?)."""
    try:
        split = next(s["name"] for s in manifest["splits"] if s["purpose"] == "count")
    except (KeyError, TypeError, StopIteration):
        fail(f"{path}: not the manifest of a count split into cubes")
    rows = []
    for claim in manifest.get("claims", []):
        s = claim.get("split")
        if not s or s.get("split") != split or claim.get("kind") != "complete":
            continue
        ms, wall = s.get("cpu_millis"), False
        if ms is None:
            ms, wall = s.get("millis", 0), True
        rows.append((s["cube"], int(s.get("models", 0)), ms / 1000, wall))
    return rows


def split_cubes(path):
    """The side, the depth and every cube of an exported domination split."""
    manifest = split_manifest(path, "domination")
    spec = manifest["spec"]
    if "n" not in spec or "depth" not in spec:
        fail(f"{path}: the split's spec names no side or depth")
    if not manifest["cubes"]:
        fail(f"{path}: lists no cube")
    return int(spec["n"]), int(spec["depth"]), manifest["cubes"]


def outer(cube, n, depth):
    """The cube of `depth` rings that `cube` (more rings, or as many) lies in:
    its literals on the lines of the outer `depth` rings."""
    keep = lambda i: i < depth or i >= n - depth
    return "".join(f"{k}{i}{s}" for k, i, s in re.findall(r"([rc])(\d+)([+-])", cube) if keep(int(i)))


def priced(route2, route1, split_path):
    """What `route2` has left, priced by `route1` (see the module's doc)."""
    n, depth, every = split_cubes(split_path)
    rows2, rows1 = cubes_of(load(route2), route2), cubes_of(load(route1), route1)
    if not rows1:
        fail(f"{route1}: no cube of the count is proven")
    depth1 = min(len(re.findall(r"r\d+", c)) for c, *_ in rows1) // 2
    if depth1 > depth:
        fail(f"{route1}: split {depth1} rings deep, deeper than the split of {split_path} ({depth})")
    proven = {c for c, *_ in rows2}
    missing = proven - set(every)
    cost1, cost2, inside = defaultdict(float), defaultdict(float), defaultdict(list)
    for c, _, t, _ in rows1:
        cost1[outer(c, n, depth1)] += t
    for c, _, t, _ in rows2:
        cost2[outer(c, n, depth1)] += t
    for c in every:
        inside[outer(c, n, depth1)].append(c)
    if any(p not in cost1 for p in inside):
        fail(f"{route1}: does not cover the cubes of {split_path} (another board, or not finished)")
    whole = [p for p, cs in inside.items() if all(c in proven for c in cs)]
    done = sum(1 for c in every if c in proven)
    print(f"{route2}: {done} of {len(every)} cubes proven"
          + (f" (and {len(missing)} pieces of cubes split again)" if missing else "")
          + f", {sum(t for _, _, t, _ in rows2):.0f} CPU s")
    if not whole:
        print(f"  no cube of {route1} has all its {depth}-ring cubes proven yet: nothing to price by")
        return
    spent1, spent2 = sum(cost1[p] for p in whole), sum(cost2[p] for p in whole)
    ratio = spent2 / spent1 if spent1 else float("nan")
    left1 = sum(cost1[p] * sum(c not in proven for c in cs) / len(cs) for p, cs in inside.items())
    print(f"  in the {len(whole)} of {len(inside)} cubes of {route1} whose pieces are all proven: "
          f"{spent2:.0f} CPU s against {spent1:.0f} ({ratio:.2f}x)")
    print(f"  left: {left1:.0f} CPU s at {route1}'s prices, about {left1 * ratio:.0f} at this ratio")


def rate(models, seconds):
    return f"{models / seconds:.3f}" if seconds > 0 else "-"


def report(path, task, rows, top):
    wall = any(w for *_, w in rows)
    unit = "wall s (no cpu_millis)" if wall else "CPU s"
    total = sum(t for _, _, t, _ in rows)
    models = sum(m for _, m, _, _ in rows)
    empty = [(c, m, t) for c, m, t, _ in rows if m == 0]
    empty_s = sum(t for *_, t in empty)
    print(f"{path}: {task}")
    print(f"  {len(rows)} cubes proven, {total:.0f} {unit}, {models} sets (orbit representatives)")
    share = 100 * empty_s / total if total else 0
    print(f"  {len(empty)} cubes held none: {empty_s:.0f} s ({share:.0f} % of the time)")
    print(f"  sets per second: {rate(models, total)} over all cubes", end="")
    if models:
        cube, m, t, _ = max(rows, key=lambda r: (r[1], -r[2]))
        print(f", {rate(m, t)} in the richest cube ({cube}: {m} in {t:.0f} s)")
    else:
        print()
    print("  | cube | sets | s | sets per s |")
    print("  |---|---:|---:|---:|")
    for cube, m, t, _ in sorted(rows, key=lambda r: -r[2])[:top]:
        print(f"  | {cube} | {m} | {t:.1f} | {rate(m, t)} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifests", nargs="+")
    parser.add_argument("--rows", type=int, default=10, help="costliest cubes listed (default 10)")
    parser.add_argument("--priced-by", metavar="ROUTE1", help="a finished count of the same board that prices what is left")
    parser.add_argument("--cubes", metavar="SPLIT", help="with --priced-by: the MANIFEST of the split listing every cube")
    args = parser.parse_args()
    if bool(args.priced_by) != bool(args.cubes):
        fail("--priced-by and --cubes go together")
    if args.priced_by:
        if len(args.manifests) != 1:
            fail("--priced-by prices one count")
        priced(args.manifests[0], args.priced_by, args.cubes)
        return
    for path in args.manifests:
        manifest = load(path)
        rows = cubes_of(manifest, path)
        if not rows:
            fail(f"{path}: no cube of the count is proven yet")
        report(path, manifest.get("task", ""), rows, args.rows)


if __name__ == "__main__":
    run(main)
