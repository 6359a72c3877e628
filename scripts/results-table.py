#!/usr/bin/env python3
"""Prints README's table of certified results, one row per docs/results/*.json."""
import glob
import json
import os

NAMES = {"A075458": "γ(Q_{n})", "A002564": "A002564({n})"}
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
for path in sorted(glob.glob(os.path.join(root, "docs/results/*.json"))):
    r = json.load(open(path))
    name = NAMES.get(r["sequence"], r["sequence"] + "({n})").format(n=r["n"])
    # A resumed sitting's --resume is how it ran, not what it computed.
    words = r["command"].replace("--progress ", "").replace(" --json", "").replace(" --resume", "").split()
    how = "`" + " ".join("DIR" if i and words[i - 1] == "--proof" and not w.startswith("-") else w for i, w in enumerate(words)) + "`"
    mb = r["proof_bytes"] / 1e6
    if r.get("wall_seconds") is None:
        # Exported jobs over several sessions: no one wall time.
        took = f"{r['job_seconds']:.0f} s in {r['jobs']} jobs"
    else:
        took = f"{r['wall_seconds']:.0f} s / {r['cpu_seconds']:.0f} s"
        if r.get("sittings"):
            took += f" over {r['sittings']} sittings"
    print(f"| {name} | {r['value']} | {how} | {took} | "
          f"{r['proof_claims']} claims, {mb:.0f} MB, verified in {r.get('verify_wall_seconds', 0):.0f} s | "
          f"[{os.path.basename(path)}](docs/results/{os.path.basename(path)}) |")
