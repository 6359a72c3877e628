#!/usr/bin/env python3
"""Writes one docs/results/*.json from a finished, verified run (issue 33).

    scripts/result-json.py --sequence A075458 --run RUN.json --time RUN.time \
        --verify RUN.verify --proof DIR --commit COMMIT -o docs/results/A075458-21.json

or, for a count run as exported jobs (`boardsat cubes --proof -o DIR`, then
`boardsat jobs DIR --run ENGINE`, possibly over several sessions):

    scripts/result-json.py --sequence A002564 --split DIR \
        --verify DIR.verify --commit COMMIT -o docs/results/A002564-21.json

where DIR.verify is what `/usr/bin/time -v boardsat verify DIR` printed; the
placements are read from the jobs' witness files and the time is the sum of
the jobs' own (a run over several sessions has no one wall time).

RUN.json is the run's `--json` output (`solve` for an optimum, `count` for
a count), RUN.time what `/usr/bin/time -v` said of it (a count resumed
over sittings with `--resume`: one `--time` per sitting, their wall and
CPU seconds added, with RUN.json the last sitting's), RUN.verify what
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


class Expanded:
    """Placements expanded by the board's symmetries, with their orbits."""

    def __init__(self, n):
        self.n, self.found, self.orbits = n, set(), 0

    def add(self, squares):
        orbit = {frozenset(f(r, c) for r, c in squares) for f in symmetries(self.n)}
        if not orbit & self.found:
            self.orbits += 1
        self.found |= orbit

    def placements(self):
        return sorted(sorted(list(p) for p in s) for s in self.found)


def counted_placements(proof, n):
    """Every placement a count's claims blocked, expanded by symmetry."""
    manifest = json.load(open(os.path.join(proof, "MANIFEST.json")))
    expanded = Expanded(n)
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
            expanded.add([((-x - 1) // n, (-x - 1) % n) for x in lits])
    return expanded.placements(), expanded.orbits


def split_placements(split, n):
    """Every placement the jobs of an exported split found (their witness
    files: one model per line, the true variables; the board's squares are
    variables 1..n*n), expanded by symmetry, the jobs' seconds and the
    number of jobs whose proof is complete (one claim each)."""
    expanded = Expanded(n)
    proven = 0
    seconds = 0.0
    results = os.path.join(split, "results")
    for name in sorted(os.listdir(results)):
        seconds += json.load(open(os.path.join(results, name))).get("elapsed", 0.0)
    proofs = os.path.join(split, "proofs")
    for job in sorted(os.listdir(proofs)):
        manifest = json.load(open(os.path.join(proofs, job, "MANIFEST.json")))
        if manifest.get("status") != "complete":
            continue
        proven += 1
        for claim in manifest["claims"]:
            if not claim.get("models"):
                continue
            for line in open(os.path.join(proofs, job, claim["models"])):
                if not line.strip() or line.startswith("c"):
                    continue
                true = [int(x) for x in line.split()[:-1]]
                expanded.add([((v - 1) // n, (v - 1) % n) for v in true if 0 < v <= n * n])
    return expanded.placements(), expanded.orbits, round(seconds, 1), proven


def split_spec(split):
    """The exported split's spec line and budget, from its MANIFEST."""
    spec, budget, fmt = {}, None, None
    for line in open(os.path.join(split, "MANIFEST")):
        if line.startswith("# spec "):
            spec = dict(kv.split("=", 1) for kv in line.split()[2:])
        elif line.startswith("# budget "):
            budget = line.split()[2]
        elif line.startswith("# proof-format "):
            fmt = line.split()[2]
    return spec, budget, fmt


def split_result(a):
    """The result of an exported split, from its directory and verify's output."""
    verify_lines = [l for l in open(a.verify).read().splitlines() if l.startswith(("verified:", "NOT verified:"))]
    if not verify_lines or not verify_lines[-1].startswith("verified:"):
        fail(f"{a.verify}: the split was not verified")
    m = re.search(r"on (\d+)x(\d+) has exactly (\d+) placements", verify_lines[-1])
    if not m or m.group(1) != m.group(2):
        fail(f"{a.verify}: its last line is not the count of a square board")
    n, value = int(m.group(1)), int(m.group(3))
    spec, budget, fmt = split_spec(a.split)
    if spec.get("family") != "domination" or int(spec.get("n", 0)) != n:
        fail(f"{a.split}: not a domination split of {n}x{n}")
    placements, orbits, seconds, proven = split_placements(a.split, n)
    if len(placements) != value:
        fail(f"{len(placements)} placements in the witnesses, verify says {value}")
    proof_bytes = 0
    for root, _, files in os.walk(os.path.join(a.split, "proofs")):
        proof_bytes += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    jobs = len(os.listdir(os.path.join(a.split, "results")))
    form = {"lrat-binary": "binary", "lrat": "text"}.get(fmt, fmt)
    command = (
        f"boardsat cubes domination {n} -k {spec['k']} --depth {spec['depth']} --proof"
        f" --proof-format {form}{f' --job-budget {budget}' if budget else ''} -o DIR;"
        " boardsat jobs DIR --run local (until every job has its answer); boardsat verify DIR"
    )
    result = {
        "sequence": a.sequence,
        "n": n,
        "value": value,
        "orbits": orbits,
        "piece": "queen",
        "problem": "domination",
        "placements": placements,
        "command": command,
        "commit": a.commit,
        "machine": f"{os.cpu_count()} cores, {platform.machine()}, Linux {platform.release()}",
        "wall_seconds": None,
        "cpu_seconds": None,
        "job_seconds": seconds,
        "jobs": jobs,
        "proof_bytes": proof_bytes,
        "proof_claims": proven,
        "verify": verify_lines[-1],
    }
    if "Elapsed (wall clock)" in open(a.verify).read():
        result["verify_wall_seconds"], result["verify_cpu_seconds"], _ = timed(a.verify)
    return result, placements


def write(path, result, placements):
    # One placement per line: the file stays readable at thousands of sets.
    body = json.dumps({**result, "placements": None}, indent=1).splitlines()
    rows = ",\n".join("  " + json.dumps(p) for p in placements)
    text = "\n".join(
        f' "placements": [\n{rows}\n ],' if line.startswith(' "placements"') else line
        for line in body
    )
    with open(path, "w") as f:
        f.write(text + "\n")
    json.loads(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sequence", required=True)
    ap.add_argument("--run")
    ap.add_argument("--time", action="append", help="repeated for a run resumed over sittings: the times add up")
    ap.add_argument("--verify", required=True)
    ap.add_argument("--proof")
    ap.add_argument("--split", help="an exported split's directory, instead of --run, --time, --proof")
    ap.add_argument("--commit", required=True)
    ap.add_argument("--note", default=None)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    if a.split:
        result, placements = split_result(a)
        if a.note:
            result["note"] = a.note
        return write(a.output, result, placements)
    if not (a.run and a.time and a.proof):
        fail("--run, --time and --proof (or --split)")
    run = json.load(open(a.run))
    verify_lines = [l for l in open(a.verify).read().splitlines() if l.startswith(("verified:", "NOT verified:"))]
    if not verify_lines or not verify_lines[-1].startswith("verified:"):
        fail(f"{a.verify}: the proof was not verified")
    n = run["rows"]
    if run["cols"] != n:
        fail("square boards only")
    sittings = [timed(t) for t in a.time]
    wall = round(sum(t[0] for t in sittings), 1)
    cpu = round(sum(t[1] for t in sittings), 1)
    rss = max(t[2] for t in sittings)
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
        **({"sittings": len(sittings)} if len(sittings) > 1 else {}),
        "proof_bytes": proof_bytes,
        "proof_claims": len(json.load(open(os.path.join(a.proof, "MANIFEST.json")))["claims"]),
        "verify": verify_lines[-1],
    }
    if a.note:
        result["note"] = a.note
    if "Elapsed (wall clock)" in open(a.verify).read():
        result["verify_wall_seconds"], result["verify_cpu_seconds"], _ = timed(a.verify)
    write(a.output, result, placements)


if __name__ == "__main__":
    main()
