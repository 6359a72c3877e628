#!/usr/bin/env python3
"""Prints README's table of certified results, one row per docs/results/*.json.

    scripts/results-table.py [FILE...]

(the files given, instead of every docs/results/*.json). Only a verified
result is a row: its "verify" line must be verify's "verified: …".

The columns: result | value | how | wall / CPU | proof | checkers | commit | file
(the checkers that accepted every proof: "boardsat", or "boardsat + cake_lpr"
when verify ran an external checker too).

Exit codes, as the binary's: 0 the table is printed; 1 a file's result is
not verified; 2 bad input (a file missing, unreadable, not JSON, or
without a field a row needs, or with one of the wrong type), one line on
stderr starting with "error:" and no table. Fields the table does not use
are ignored.
"""
import glob
import os
import re
import sys

from results_io import fail, field, read_json, run

NAMES = {"A075458": "γ(Q_{n})", "A002564": "A002564({n})"}


NUMBER = (int, float)


def checkers(r, path, where=""):
    """The checkers that accepted every proof of a route: its `checkers`
    (written since issue 52), else what its verify line says (boardsat's
    checker alone, or with the external one it names)."""
    listed = r.get("checkers")
    if listed is not None:
        if not isinstance(listed, list) or not all(isinstance(c, dict) and isinstance(c.get("name"), str) for c in listed):
            fail(f"{path}: '{where}checkers' is not a list of checkers with names")
        return " + ".join(c["name"] for c in listed)
    m = re.search(r"; every proof accepted by boardsat's checker and by (.+?) \(", field(r, "verify", path, str))
    return f"boardsat + {m.group(1)}" if m else "boardsat"


def row(path):
    """The table's row of the result in `path`."""
    r = read_json(path, "a results file")
    verify = field(r, "verify", path, str)
    if not verify.startswith("verified: "):
        fail(f"{path}: the result is not verified: {verify}", 1)
    sequence = field(r, "sequence", path, str)
    n = field(r, "n", path, int)
    name = NAMES.get(sequence, sequence + "({n})").format(n=n)
    value = field(r, "value", path, int)
    # A resumed sitting's --resume is how it ran, not what it computed.
    command = field(r, "command", path, str)
    words = command.replace("--progress ", "").replace(" --json", "").replace(" --resume", "").split()
    how = "`" + " ".join("DIR" if i and words[i - 1] == "--proof" and not w.startswith("-") else w for i, w in enumerate(words)) + "`"
    mb = field(r, "proof_bytes", path, *NUMBER) / 1e6
    claims = field(r, "proof_claims", path, int)
    if r.get("unrecorded_sittings") is not None:
        # A sitting never timed: what was timed is a floor, the claims' own CPU the work behind the proof.
        took = (f"≥ {field(r, 'wall_seconds_recorded', path, *NUMBER):.0f} s / "
                f"{field(r, 'claims_cpu_seconds', path, *NUMBER):.0f} s in the claims over "
                f"{field(r, 'sittings', path, int)} sittings ({field(r, 'unrecorded_sittings', path, int)} untimed)")
    elif r.get("wall_seconds") is None:
        # Exported jobs over several sessions: no one wall time.
        took = f"{field(r, 'job_seconds', path, *NUMBER):.0f} s in {field(r, 'jobs', path, int)} jobs"
    else:
        took = f"{field(r, 'wall_seconds', path, *NUMBER):.0f} s / {field(r, 'cpu_seconds', path, *NUMBER):.0f} s"
        if r.get("sittings"):
            took += f" over {field(r, 'sittings', path, int)} sittings"
    if r.get("verify_wall_seconds") is None:
        checked = "verified (its time not recorded)"
    else:
        checked = f"verified in {field(r, 'verify_wall_seconds', path, *NUMBER):.0f} s"
    base = os.path.basename(path)
    # The figures are the run's at its commit; later commits are faster.
    commit = field(r, "commit", path, str)[:7]
    by = checkers(r, path)
    second = r.get("second_route")
    if second is not None:
        if not isinstance(second, dict):
            fail(f"{path}: 'second_route' is not an object")
        other = checkers(second, path, "second_route.") if ("checkers" in second or "verify" in second) else "?"
        by = by if other == by else f"route 1: {by}; route 2: {other}"
    return f"| {name} | {value} | {how} | {took} | {claims} claims, {mb:.0f} MB, {checked} | {by} | {commit} | [{base}](docs/results/{base}) |"


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    paths = sys.argv[1:] or sorted(glob.glob(os.path.join(root, "docs/results/*.json")))
    if any(p.startswith("-") for p in paths):
        fail(f"unexpected option {next(p for p in paths if p.startswith('-'))} (usage: results-table.py [FILE...])")
    # Every row first: a bad file prints no table at all.
    rows = [row(path) for path in paths]
    for line in rows:
        print(line)


if __name__ == "__main__":
    run(main)
