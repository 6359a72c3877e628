#!/usr/bin/env python3
"""An in-process estimate against the real run it projects, cube by cube
(issue 52's calibration of the estimator).

    scripts/estimate-vs-real.py ESTIMATE.json MANIFEST.json

ESTIMATE.json is the `--json` output of `boardsat cubes domination N -k K
--estimate S --refute --in-process ...` (or of a count's estimate without
--refute); MANIFEST.json is the proof manifest of the certified run that
refuted (or counted) the same bound: `solve domination N --proof DIR`
refutes γ(Q_N) - 1 by a split of depth 2, as the estimate splits. A real
cube that the run re-split at its tail counts with all its pieces. Times
are each cube's solver CPU time (`cpu_millis`) where the manifest records
it, else its wall time (`millis`, marked). Prints one row per sampled cube
and the projected and real totals; exit 2 with one line on bad input.
"""
import json
import re
import sys


def fail(why):
    print(f"error: {why}", file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")


def parent(description, n, depth):
    """The cube of `depth` rings that a cube or piece lies in."""
    keep = set(range(depth)) | set(range(n - depth, n))
    parts = re.findall(r"([rc])(\d+)([+-])", description)
    return "".join(f"{a}{i}{s}" for a, i, s in parts if int(i) in keep)


def main():
    if len(sys.argv) != 3:
        fail("usage: estimate-vs-real.py ESTIMATE.json MANIFEST.json")
    estimate, manifest = load(sys.argv[1]), load(sys.argv[2])
    try:
        sampled = estimate["sampled"]
        splits = {s["name"]: s for s in manifest["splits"]}
        claims = [c for c in manifest["claims"] if c.get("split")]
    except (KeyError, TypeError) as e:
        fail(f"not an estimate and a proof manifest ({e})")
    # The split the estimate projects: the refutation when there is one.
    purpose = "refute" if any(s["purpose"] == "refute" for s in splits.values()) else "count"
    split = next(s for s in splits.values() if s["purpose"] == purpose)
    cubes = [c["split"] for c in claims if c["split"]["split"] == split["name"]]
    depth = min(c["depth"] for c in cubes)
    n = int(re.search(r"(\d+)x\d+", split["claim"] + " " + split.get("key", "")).group(1))
    real, wall = {}, False
    for c in cubes:
        ms = c.get("cpu_millis")
        if ms is None:
            ms, wall = c.get("millis", 0), True
        key = parent(c["cube"], n, depth)
        real[key] = real.get(key, 0) + ms / 1000
    unit = "wall s (no cpu_millis)" if wall else "CPU s"
    print(f"{n}x{n}, {split['claim']}: {len(real)} cubes of depth {depth}, real times in {unit}")
    print("| cube | projected s | pieces | real s | projected / real |")
    print("|---|---:|---:|---:|---:|")
    total_p = total_r = 0.0
    for s in sampled:
        key = parent(s["piece"], n, depth)
        r = real.get(key)
        total_p += s["seconds"]
        total_r += r or 0
        ratio = f"{s['seconds'] / r:.2f}" if r else "-"
        print(f"| {s['id']} {key} | {s['seconds']:.1f} | {s['pieces']} | {r if r is not None else 'missing'} | {ratio} |")
    print(f"sampled cubes: projected {total_p:.1f} s, real {total_r:.1f} s")
    print(
        f"whole split: projected {estimate['projected_seconds']:.0f} s, "
        f"real {sum(real.values()):.0f} s, ratio {estimate['projected_seconds'] / max(sum(real.values()), 1e-9):.2f}"
    )


main()
