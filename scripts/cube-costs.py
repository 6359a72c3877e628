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
"""
import argparse
import os

from results_io import fail, read_json, run


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
    args = parser.parse_args()
    for path in args.manifests:
        manifest = load(path)
        rows = cubes_of(manifest, path)
        if not rows:
            fail(f"{path}: no cube of the count is proven yet")
        report(path, manifest.get("task", ""), rows, args.rows)


if __name__ == "__main__":
    run(main)
