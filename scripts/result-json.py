#!/usr/bin/env python3
"""Writes one docs/results/*.json from a finished, verified run (issue 33).

    scripts/result-json.py --sequence A075458 --run RUN.json --time RUN.time \
        --verify RUN.verify --proof DIR --commit COMMIT -o docs/results/A075458-21.json

RUN.json is the run's `--json` output (`solve` for an optimum, `count` for
a count), RUN.time what `/usr/bin/time -v` said of it, RUN.verify what
`boardsat verify DIR` printed (its last line must start with "verified:").
For a count, every placement is read from the proof's claims (the blocked
placements, decoded from the blocking clauses) and expanded by the board's
symmetries; their number must equal the count. Everything written comes
from those files: nothing is typed by hand.
"""
import argparse
import json
import os
import platform
import re
import sys


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def timed(path):
    text = open(path).read()
    def field(name):
        m = re.search(rf"{re.escape(name)}: (.*)", text)
        if not m:
            fail(f"{path}: no '{name}' line (output of /usr/bin/time -v?)")
        return m.group(1).strip()
    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    seconds = 0.0
    for part in wall.split(":"):
        seconds = seconds * 60 + float(part)
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    return round(seconds, 1), round(cpu, 1), int(field("Maximum resident set size (kbytes)"))


def symmetries(n):
    return [
        lambda r, c: (r, c), lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - r, n - 1 - c), lambda r, c: (n - 1 - c, r),
        lambda r, c: (r, n - 1 - c), lambda r, c: (n - 1 - r, c),
        lambda r, c: (c, r), lambda r, c: (n - 1 - c, n - 1 - r),
    ]


def counted_placements(proof, n):
    """Every placement a count's claims blocked, expanded by symmetry."""
    manifest = json.load(open(os.path.join(proof, "MANIFEST.json")))
    found = set()
    orbits = 0
    for claim in manifest["claims"]:
        split = claim.get("split") or {}
        models = split.get("models", 0)
        if not models:
            continue
        lines = open(os.path.join(proof, claim["cnf"])).read().splitlines()
        clauses = [l for l in lines if l and (l[0] == "-" or l[0].isdigit())]
        for clause in clauses[-models:]:
            lits = [int(x) for x in clause.split()[:-1]]
            if not all(x < 0 and -x <= n * n for x in lits):
                fail(f"{claim['cnf']}: '{clause}' is not a blocked placement")
            squares = [((-x - 1) // n, (-x - 1) % n) for x in lits]
            orbit = {frozenset(f(r, c) for r, c in squares) for f in symmetries(n)}
            if not orbit & found:
                orbits += 1
            found |= orbit
    return sorted(sorted(list(p) for p in s) for s in found), orbits


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sequence", required=True)
    ap.add_argument("--run", required=True)
    ap.add_argument("--time", required=True)
    ap.add_argument("--verify", required=True)
    ap.add_argument("--proof", required=True)
    ap.add_argument("--commit", required=True)
    ap.add_argument("--note", default=None)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    run = json.load(open(a.run))
    verify_lines = [l for l in open(a.verify).read().splitlines() if l.startswith(("verified:", "NOT verified:"))]
    if not verify_lines or not verify_lines[-1].startswith("verified:"):
        fail(f"{a.verify}: the proof was not verified")
    n = run["rows"]
    if run["cols"] != n:
        fail("square boards only")
    wall, cpu, rss = timed(a.time)
    proof_bytes = sum(
        os.path.getsize(os.path.join(a.proof, f))
        for f in os.listdir(a.proof)
        if os.path.isfile(os.path.join(a.proof, f))
    )
    if run["command"] == "solve":
        if run.get("status") != "sat" or not run.get("optimal"):
            fail(f"{a.run}: not an optimum")
        value, placements, orbits = run["value"], [run["placement"]], None
    elif run["command"] == "count":
        if run.get("status") != "complete":
            fail(f"{a.run}: the count is not complete")
        value = run["count"]
        placements, orbits = counted_placements(a.proof, n)
        if len(placements) != value:
            fail(f"{len(placements)} placements in the claims, the count says {value}")
    else:
        fail(f"{a.run}: neither solve nor count")
    result = {
        "sequence": a.sequence,
        "n": n,
        "value": value,
        "orbits": orbits if orbits is not None else run.get("fundamental"),
        "piece": run["piece"],
        "problem": run["problem"],
        "placements": placements,
        "command": json.load(open(os.path.join(a.proof, "MANIFEST.json")))["command"],
        "commit": a.commit,
        "machine": f"{os.cpu_count()} cores, {platform.machine()}, Linux {platform.release()}",
        "wall_seconds": wall,
        "cpu_seconds": cpu,
        "max_rss_kb": rss,
        "proof_bytes": proof_bytes,
        "proof_claims": len(json.load(open(os.path.join(a.proof, "MANIFEST.json")))["claims"]),
        "verify": verify_lines[-1],
    }
    if a.note:
        result["note"] = a.note
    if "Elapsed (wall clock)" in open(a.verify).read():
        result["verify_wall_seconds"], result["verify_cpu_seconds"], _ = timed(a.verify)
    # One placement per line: the file stays readable at thousands of sets.
    body = json.dumps({**result, "placements": None}, indent=1).splitlines()
    rows = ",\n".join("  " + json.dumps(p) for p in placements)
    text = "\n".join(
        f' "placements": [\n{rows}\n ],' if line.startswith(' "placements"') else line
        for line in body
    )
    with open(a.output, "w") as f:
        f.write(text + "\n")
    json.loads(text)


if __name__ == "__main__":
    main()
