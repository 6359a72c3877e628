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
from those files: nothing is typed by hand. An exported split's command is
rebuilt from its MANIFEST (spec, proofs, budget), so that it runs as
written.

What a referee needs to re-run and re-check it (issue 52), from files too:

    --env RUN.env [--env RUN.env.1 ...]   one per sitting, as scripts/sitting.sh
        writes NAME.env.K: the binary's `--version` line (its commit), rustc's,
        the CPU model and cores; each sitting's time and environment are kept
        in `per_sitting` beside the sums
    --verify-env VERIFY.env               the verifying binary's, the same format,
        of which only its version line is needed (`boardsat --version >
        VERIFY.env`; an optional "command: ..." line is the verify command as run)
    --verify-time VERIFY.time             /usr/bin/time of verify, when not in
        its output
    --verify-sitting DIR.verify.K [...]   an earlier check of the same
        directory that was stopped (scripts/sitting.sh keeps it as DIR.verify.K
        when it checks again): what /usr/bin/time -v said of it; its time is
        added to the check's, each kept in `verify_per_sitting`
    --second-route ROUTE2.json            the file this script wrote for the
        same term by another route: same value, orbits and placements; its
        provenance is kept under `second_route`

or, to add a second route to a file already published, whose first
route's proof need not be on disk any more (its MANIFEST's SHA-256 is in
the file):

    scripts/result-json.py --add-to docs/results/A002564-20.json \
        --second-route ROUTE2.json [--note NOTE] -o docs/results/A002564-20.json

A `/usr/bin/time` output is `-v`'s or scripts/sitting.sh's one line `-f "%e %U %S %M"`.
A sitting killed before /usr/bin/time wrote (its file empty) is given as
`--time unrecorded`: it is kept in `per_sitting` as `"recorded": false`, and
the sums are then `wall_seconds_recorded` / `cpu_seconds_recorded` with
`unrecorded_sittings`, never a `wall_seconds` / `cpu_seconds` that would
pass for the whole run's. `claims_cpu_seconds` is always the solver CPU
the proof's claims record (MANIFEST.json), whatever the sittings' times.
verify's output is its text or its `--json` report; the checkers recorded
are boardsat's (with the verifying binary's version line) and the external
checker verify names (`--checker`: its name, path, SHA-256 — the text
output names no SHA-256, so the file at that path is hashed — and the
proofs it accepted). The proof's MANIFEST.json (an exported split's
MANIFEST) is recorded by its SHA-256.

Exit codes, as the binary's: 0 the file is written; 1 the result is not
verified (verify's last line is not "verified: …"); 2 bad input (a file
missing, unreadable, not JSON or not what it should be; a directory that
is no split; an output directory that does not exist; an --env per sitting
missing or naming another commit than --commit; a second route that
differs), one line on stderr starting with "error:" and nothing written.
"""
import argparse
import hashlib
import json
import os
import platform
import re

from results_io import fail, field, read_json, read_text, run, split_manifest


def number(text, where):
    try:
        return float(text)
    except ValueError:
        fail(f"{where}: '{text}' is not a number")


def clock(text, where):
    """Seconds from `h:mm:ss`, `m:ss` or `s`."""
    seconds = 0.0
    for part in text.split(":"):
        seconds = seconds * 60 + number(part, where)
    return seconds


UNRECORDED = "unrecorded"


def timed(path):
    """One sitting's wall and CPU seconds, peak RSS and, when not 0, its
    exit status, from what /usr/bin/time said of it: `-v`'s lines, or the
    one line of `-f "%e %U %S %M"` (scripts/sitting.sh's DIR.time.K), maybe after
    "Command exited with non-zero status N". `unrecorded` (UNRECORDED) is a
    sitting whose time was never written: `{"recorded": False}`."""
    if path == UNRECORDED:
        return {"recorded": False}
    text = read_text(path, "the output of /usr/bin/time")
    status = re.search(r"Command (?:exited with non-zero status|terminated by signal) (\d+)", text)
    if "Elapsed (wall clock) time" in text:
        def line(name):
            m = re.search(rf"{re.escape(name)}: (.*)", text)
            if not m:
                fail(f"{path}: no '{name}' line (output of /usr/bin/time -v?)")
            return m.group(1).strip()
        wall = clock(line("Elapsed (wall clock) time (h:mm:ss or m:ss)"), path)
        cpu = number(line("User time (seconds)"), path) + number(line("System time (seconds)"), path)
        rss = number(line("Maximum resident set size (kbytes)"), path)
        exit_status = re.search(r"Exit status: (\d+)", text)
        exit_status = int(exit_status.group(1)) if exit_status else None
    else:
        lines = [l for l in text.splitlines() if l.strip() and not l.startswith("Command ")]
        words = lines[-1].split() if lines else []
        if len(words) != 4:
            fail(f"{path}: no 'Elapsed (wall clock)' line and no line '%e %U %S %M' (output of /usr/bin/time -v?)")
        wall, user, system, rss = (number(w, path) for w in words)
        cpu = user + system
        exit_status = int(status.group(1)) if status else None
    sitting = {"wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1), "max_rss_kb": int(rss)}
    if exit_status:
        sitting["exit_status"] = exit_status
    return sitting


def portable(command):
    """The command as anyone reruns it: the proof directory named DIR (not
    the directory of the machine that ran it), without the `--resume` of a
    later sitting (the file's `resume` says how the sittings went on)."""
    words = command.split()
    out = []
    for i, w in enumerate(words):
        if w == "--resume":
            continue
        out.append("DIR" if i and words[i - 1] in ("--proof", "-o") and not w.startswith("-") else w)
    return " ".join(out)


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


def counted_placements(proof, manifest, n):
    """Every placement a count's claims blocked, expanded by symmetry."""
    expanded = Expanded(n)
    for claim in field(manifest, "claims", f"{proof}/MANIFEST.json", list):
        if not isinstance(claim, dict):
            fail(f"{proof}/MANIFEST.json: a claim that is not an object")
        split = claim.get("split") or {}
        models = split.get("models", 0) if isinstance(split, dict) else 0
        if not models:
            continue
        cnf = os.path.join(proof, str(field(claim, "cnf", f"{proof}/MANIFEST.json", str)))
        lines = read_text(cnf, "a claim's formula").splitlines()
        clauses = [l for l in lines if l and (l[0] == "-" or l[0].isdigit())]
        for clause in clauses[-models:]:
            try:
                lits = [int(x) for x in clause.split()[:-1]]
            except ValueError:
                fail(f"{cnf}: '{clause}' is not a clause")
            if not all(x < 0 and -x <= n * n for x in lits):
                fail(f"{cnf}: '{clause}' is not a blocked placement")
            expanded.add([((-x - 1) // n, (-x - 1) % n) for x in lits])
    return expanded.placements(), expanded.orbits


def answers(split):
    """The jobs' answers of an exported split: results/<id>.json, each a
    JSON object (a job's lock and temporary answer are no answers)."""
    results = os.path.join(split, "results")
    if not os.path.isdir(results):
        fail(f"{split}: no results/ directory (no job has run)")
    names = sorted(n for n in os.listdir(results) if n.endswith(".json"))
    return [read_json(os.path.join(results, name), "a job's answer") for name in names]


def split_placements(split, n):
    """Every placement the jobs of an exported split found (their witness
    files: one model per line, the true variables; the board's squares are
    variables 1..n*n), expanded by symmetry, the jobs' seconds, the number
    of jobs answered and the number whose proof is complete (one claim
    each)."""
    expanded = Expanded(n)
    proven = 0
    seconds = 0.0
    jobs = answers(split)
    for answer in jobs:
        elapsed = answer.get("elapsed", 0.0)
        if not isinstance(elapsed, (int, float)) or isinstance(elapsed, bool):
            fail(f"{split}/results: an answer whose 'elapsed' is not a number: {elapsed!r}")
        seconds += elapsed
    proofs = os.path.join(split, "proofs")
    if not os.path.isdir(proofs):
        fail(f"{split}: no proofs/ directory (a split written without --proof)")
    for job in sorted(os.listdir(proofs)):
        folder = os.path.join(proofs, job)
        if not os.path.isdir(folder):
            continue
        where = os.path.join(folder, "MANIFEST.json")
        manifest = read_json(where, "a job's proof manifest")
        if manifest.get("status") != "complete":
            continue
        proven += 1
        for claim in field(manifest, "claims", where, list):
            if not isinstance(claim, dict) or not claim.get("models"):
                continue
            models = os.path.join(folder, str(claim["models"]))
            for line in read_text(models, "a claim's witnesses").splitlines():
                if not line.strip() or line.startswith("c"):
                    continue
                try:
                    true = [int(x) for x in line.split()[:-1]]
                except ValueError:
                    fail(f"{models}: '{line}' is not a model")
                expanded.add([((v - 1) // n, (v - 1) % n) for v in true if 0 < v <= n * n])
    return expanded.placements(), expanded.orbits, round(seconds, 1), len(jobs), proven


def split_command(manifest):
    """The commands that make, run and verify an exported split like the
    one whose MANIFEST is `manifest`, as the user types them: `cubes`
    with every option its MANIFEST records (each as `cubes` takes it, so
    that the command runs as written), then the rounds and `verify`."""
    spec = manifest["spec"]
    for key in ("family", "n", "depth"):
        if key not in spec:
            fail(f"the split's spec has no '{key}'")
    words = ["boardsat", "cubes", spec["family"], spec["n"]]
    if spec.get("k", "-") != "-":
        words += ["-k", spec["k"]]
    words += ["--depth", spec["depth"]]
    if spec.get("cubes") == "all":
        words.append("--no-halve")
    if spec.get("lex") == "lines-first":
        words.append("--lex-leader")
    if spec.get("amo", "auto") != "auto":
        words += ["--amo", spec["amo"]]
    # Written only when not the totalizer (a second route's encoding).
    if "card" in spec:
        words += ["--card", spec["card"]]
    if spec.get("format", "cnf") != "cnf":
        words += ["--format", spec["format"]]
    if manifest["proofs"]:
        words.append("--proof")
        # The MANIFEST's names (lrat, lrat-binary) are not cubes' choices.
        form = {"lrat": "text", "lrat-binary": "binary"}
        if manifest["format"] not in (None, "lrat"):
            if manifest["format"] not in form:
                fail(f"the split's proof format '{manifest['format']}' is none of {sorted(form)}")
            words += ["--proof-format", form[manifest["format"]]]
        if manifest["compression"] not in (None, "none"):
            words += ["--proof-compression", manifest["compression"]]
    if manifest["budget"] is not None:
        words += ["--job-budget", manifest["budget"]]
        if manifest["max_depth"] is not None:
            words += ["--max-depth", manifest["max_depth"]]
    words += ["-o", "DIR"]
    return (
        " ".join(words)
        + "; boardsat jobs DIR --run local (until every job has its answer); boardsat verify DIR"
    )


def sha256_of(path, what):
    """The SHA-256 of the file `path` (`what` names it)."""
    if not os.path.isfile(path):
        fail(f"{path}: cannot hash {what}: not a file")
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError as e:
        fail(f"{path}: cannot read {what}: {(e.strerror or str(e)).lower()}")
    return digest.hexdigest()


def checked_by(external):
    """The end of verify's last line naming the external checker, as
    `boardsat verify` prints it (crates/proof/src/report.rs)."""
    if external is None:
        return ""
    if external["accepted"] == 0:
        return f" ({external['name']} ({external['program']}) ran too, with no proof to check)"
    proofs = "proof" if external["accepted"] == 1 else "proofs"
    return (f"; every proof accepted by boardsat's checker and by {external['name']} "
            f"({external['program']}): {external['accepted']} {proofs}")


# The end of verify's last line when proofs came from a record (`verify
# --record`, crates/proof/src/verify/json.rs).
FROM_RECORD = re.compile(r" \((\d+) proofs? taken from the record (.+): accepted by the same checkers "
                         r"in an earlier check, their files unchanged\)$")


def from_record(record):
    """The end of verify's last line for `record` (None: nothing)."""
    if not record:
        return ""
    proofs = "proof" if record["reused"] == 1 else "proofs"
    return (f" ({record['reused']} {proofs} taken from the record {record['path']}: accepted by the same "
            f"checkers in an earlier check, their files unchanged)")


def verification_json(path, text):
    """What `boardsat verify --json` reported (see `verification`)."""
    try:
        report, _ = json.JSONDecoder().raw_decode(text.lstrip())
    except json.JSONDecodeError as e:
        fail(f"{path}: verify's --json output is not JSON ({e.msg}, line {e.lineno})")
    if not isinstance(report, dict) or report.get("command") != "verify":
        fail(f"{path}: not the --json output of 'boardsat verify'")
    result = field(report, "result", path, dict)
    external = report.get("external_checker")
    if external is not None:
        if not isinstance(external, dict):
            fail(f"{path}: 'external_checker' is not an object")
        external = {
            "name": field(external, "name", path, str),
            "program": field(external, "program", path, str),
            "sha256": field(external, "sha256", path, str),
            "sha256_from": "boardsat verify --json",
            "accepted": field(external, "accepted", path, int),
        }
        if not re.fullmatch(r"[0-9a-f]{64}", external["sha256"]):
            fail(f"{path}: the external checker's 'sha256' is not a SHA-256: {external['sha256']!r}")
    if not (field(report, "verified", path, bool) and result.get("verified") is True
            and isinstance(result.get("sentence"), str)):
        why = result.get("reason") or "a claim did not verify"
        fail(f"{path}: the result is not verified: NOT verified: {why}", 1)
    record = report.get("record")
    if record is not None:
        if not isinstance(record, dict):
            fail(f"{path}: 'record' is not an object")
        record = {"path": field(record, "path", path, str), "reused": field(record, "reused", path, int)}
        record = record if record["reused"] > 0 else None
    return {"line": f"verified: {result['sentence']}{checked_by(external)}{from_record(record)}",
            "external": external, "json": True, "record": record}


def verification(path):
    """What `boardsat verify` said, from its text output or its `--json`
    report (either maybe followed by what /usr/bin/time -v said of it): its
    last line as the text prints it, which must say "verified: …" (exit 1
    when it says anything else); the external checker that accepted every
    proof too (`--checker`), if one ran: its name, path, SHA-256 (the text
    names none: the file at that path is hashed) and the proofs it
    accepted; and whether the output was the JSON."""
    text = read_text(path, "verify's output")
    if text.lstrip().startswith("{"):
        return verification_json(path, text)
    lines = [l for l in text.splitlines() if l.startswith(("verified:", "NOT verified:"))]
    if not lines:
        fail(f"{path}: no 'verified:' line (the output of 'boardsat verify'?)")
    last = lines[-1]
    if not last.startswith("verified:"):
        fail(f"{path}: the result is not verified: {last}", 1)
    external, record = None, None
    core = last
    taken = FROM_RECORD.search(last)
    if taken:
        record = {"path": taken.group(2), "reused": int(taken.group(1))}
        core = last[:taken.start()]
    every = re.search(r"; every proof accepted by boardsat's checker and by (.+?) \((.+)\): (\d+) proofs?$", core)
    none = re.search(r" \((.+?) \((.+)\) ran too, with no proof to check\)$", core)
    if every or none:
        m = every or none
        external = {
            "name": m.group(1),
            "program": m.group(2),
            "sha256": sha256_of(m.group(2), "the external checker verify names (its text output names no "
                                "SHA-256: give its --json output to record the one that ran)"),
            "sha256_from": "the file at its path when this result was written (verify's text names none)",
            "accepted": int(every.group(3)) if every else 0,
        }
    return {"line": last, "external": external, "json": False, "record": record}


def verify_times(path, result):
    """verify's wall and CPU seconds, when /usr/bin/time -v timed it."""
    if "Elapsed (wall clock)" in read_text(path, "verify's output"):
        sitting = timed(path)
        result["verify_wall_seconds"], result["verify_cpu_seconds"] = sitting["wall_seconds"], sitting["cpu_seconds"]


def checked_directory(path):
    """The directory a `boardsat verify` timed by /usr/bin/time -v checked
    (its "Command being timed" line), or None when the output has no such line."""
    m = re.search(r'Command being timed: "(.*)"', read_text(path, "verify's output"))
    if not m:
        return None
    words = m.group(1).split()
    for i, w in enumerate(words[:-1]):
        if w == "verify":
            return words[i + 1]
    fail(f"{path}: the command it timed is not a 'boardsat verify': {m.group(1)}")


def earlier_checks(a, result):
    """`--verify-sitting`: the checks of the same directory stopped before
    the last one, their times added to its (`verify_per_sitting` keeps each,
    the last one last)."""
    if "verify_cpu_seconds" not in result:
        fail("--verify-sitting needs the last check's own time (verify's output timed by /usr/bin/time -v, "
             "or --verify-time)")
    directory = checked_directory(a.verify)
    if directory is None:
        fail(f"{a.verify}: no 'Command being timed' line, so the earlier checks cannot be matched to its directory")
    sittings = []
    for path in a.verify_sitting:
        if checked_directory(path) != directory:
            fail(f"{path}: not a check of {directory} timed by /usr/bin/time -v")
        sittings.append({key: value for key, value in timed(path).items() if key != "max_rss_kb"})
    sittings.append({"wall_seconds": result["verify_wall_seconds"], "cpu_seconds": result["verify_cpu_seconds"]})
    result["verify_per_sitting"] = sittings
    result["verify_wall_seconds"] = round(sum(t["wall_seconds"] for t in sittings), 1)
    result["verify_cpu_seconds"] = round(sum(t["cpu_seconds"] for t in sittings), 1)


def environment(path, needs=(("version", "boardsat --version"), ("rustc", "rustc --version"),
                               ("cpu_model", "model name"), ("cores", "cores: N"))):
    """A sitting's environment, as scripts/sitting.sh writes DIR.env.K: the lines
    "binary: PATH", the binary's `--version` line ("boardsat …"), rustc's
    (`rustc --version`), /proc/cpuinfo's "model name", "cores: N", `uname
    -srm`, "start: TIME" and, optionally, "command: …" (the command as
    run). The binary's commit is read from its version line ("(commit
    HASH, …)"), or else from the binary's name (boardsat-HASH), or is
    unknown (None)."""
    text = read_text(path, "a sitting's environment (scripts/sitting.sh's DIR.env.K)")
    env = {}
    for line in text.splitlines():
        key = line.split(":", 1)[0].strip()
        value = line.split(":", 1)[1].strip() if ":" in line else ""
        if key in ("binary", "cores", "start", "command") and key not in env:
            env[key] = value
        elif key == "model name" and "cpu_model" not in env:
            env["cpu_model"] = value
        elif line.startswith("boardsat ") and "version" not in env:
            env["version"] = line.strip()
        elif line.startswith("rustc ") and "rustc" not in env:
            env["rustc"] = line.strip()
        elif line.startswith(("Linux ", "Darwin ")) and "kernel" not in env:
            env["kernel"] = line.strip()
    for key, line in needs:
        if key not in env:
            fail(f"{path}: no '{line}' line (an environment as scripts/sitting.sh writes it?)")
    if "cores" in env:
        if not env["cores"].isdigit():
            fail(f"{path}: 'cores: {env['cores']}' is not a number of cores")
        env["cores"] = int(env["cores"])
    if "start" in env:
        env["start"] = env["start"].split()[0]
    version = re.search(r"\(commit ([0-9a-f]+(?:-dirty)?)", env["version"])
    named = re.fullmatch(r"boardsat-([0-9a-f]{7,40})", os.path.basename(env.get("binary", "")))
    env["commit"] = version.group(1) if version else named.group(1) if named else None
    solver = re.search(r"\(commit [^,]*, (.+) embedded\)", env["version"])
    if solver:
        env["solver"] = solver.group(1)
    return env


def same(values):
    """One value when every sitting agrees, else the list of them all."""
    return values[0] if all(v == values[0] for v in values) else values


def portable_verify(command):
    """A verify command as anyone reruns it: its proof directory named DIR."""
    words = command.split()
    out, seen = [], False
    for i, w in enumerate(words):
        if not seen and i and words[i - 1] == "verify" and not w.startswith("-"):
            w, seen = "DIR", True
        out.append(w)
    return " ".join(out)


def provenance(a, result, verified, manifest_path, sittings, solver):
    """Adds what a referee needs to re-run and re-check `result`, all from
    files: each sitting's time (`--time`) and environment (`--env`: the
    binary's version and commit, rustc, the CPU model and cores), the
    solver, the checkers that accepted every proof (boardsat's, with the
    verifying binary's version line from `--verify-env`, and the external
    one verify names), the verify command, the commit of the verifying
    binary, and the SHA-256 of the proof's MANIFEST."""
    envs = [environment(e) for e in a.env or []]
    if sittings and envs and len(envs) != len(sittings):
        fail(f"{len(envs)} --env for {len(sittings)} --time: one environment per sitting, in the same order")
    commits = [e["commit"] for e in envs]
    if commits and all(commits) and not any(c.startswith(a.commit) or a.commit.startswith(c) for c in commits):
        fail(f"--commit {a.commit} is the commit of no sitting's binary ({', '.join(commits)})")
    keep = ("start", "version", "commit", "rustc", "cpu_model", "cores", "kernel")
    if sittings:
        result["per_sitting"] = [
            {**t, **({k: e[k] for k in keep if k in e} if envs else {})}
            for t, e in zip(sittings, envs or [{}] * len(sittings))
        ]
    elif envs:
        result["sessions"] = [{k: e[k] for k in keep if k in e} for e in envs]
    if envs:
        for key in ("version", "rustc", "cpu_model", "cores"):
            result["binary_version" if key == "version" else key] = same([e[key] for e in envs])
        first = envs[0]
        result["machine"] = f"{first['cores']} cores, {first['cpu_model']}, {first.get('kernel', 'kernel unknown')}"
    solver = solver or (same([e["solver"] for e in envs]) if envs and all("solver" in e for e in envs) else None)
    if solver is not None:
        result["solver"] = solver
    boardsat = {"name": "boardsat", "what": "boardsat's LRAT checker (crates/lrat)"}
    # The verifier's environment needs only its version line (`boardsat --version > VERIFY.env`).
    verifier = environment(a.verify_env, (("version", "boardsat --version"),)) if a.verify_env else None
    if verifier:
        boardsat["version"] = verifier["version"]
        if verifier["commit"] is None:
            fail(f"{a.verify_env}: names no commit of the verifying binary (neither its version line nor its name)")
        result["verify_commit"] = verifier["commit"]
    result["checkers"] = [boardsat] + ([verified["external"]] if verified["external"] else [])
    if verified["record"]:
        # Proofs an earlier `verify --record` accepted were taken, not checked again: said.
        result["verify_record"] = {
            **verified["record"],
            "what": "proofs accepted by the same checkers (the same boardsat binary and external checker) in an "
                    "earlier verify --record of the same files, taken from the record instead of being checked again",
        }
    if verifier and "command" in verifier:
        result["verify_command"] = portable_verify(verifier["command"])
    else:
        words = ["boardsat", "verify", "DIR"]
        if verified["external"]:
            words += ["--checker", verified["external"]["program"]]
        if verified["json"]:
            words.append("--json")
        result["verify_command"] = " ".join(words)
    if a.verify_time:
        sitting = timed(a.verify_time)
        result["verify_wall_seconds"], result["verify_cpu_seconds"] = sitting["wall_seconds"], sitting["cpu_seconds"]
        result["verify_max_rss_kb"] = sitting["max_rss_kb"]
    else:
        verify_times(a.verify, result)
    if a.verify_sitting:
        earlier_checks(a, result)
    result["manifest_sha256"] = sha256_of(manifest_path, "the proof's MANIFEST")


def split_result(a):
    """The result of an exported split, from its directory and verify's output."""
    manifest = split_manifest(a.split)
    verified = verification(a.verify)
    last = verified["line"]
    m = re.search(r"on (\d+)x(\d+) has exactly (\d+) placements", last)
    if not m or m.group(1) != m.group(2):
        fail(f"{a.verify}: its last line is not the count of a square board")
    n, value = int(m.group(1)), int(m.group(3))
    spec = manifest["spec"]
    if spec.get("family") != "domination" or spec.get("n") != str(n):
        fail(f"{a.split}: not a domination split of {n}x{n}")
    placements, orbits, seconds, jobs, proven = split_placements(a.split, n)
    if len(placements) != value:
        fail(f"{len(placements)} placements in the witnesses, verify says {value}")
    proof_bytes = 0
    for root, _, files in os.walk(os.path.join(a.split, "proofs")):
        proof_bytes += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    result = {
        "sequence": a.sequence,
        "n": n,
        "value": value,
        "orbits": orbits,
        "piece": "queen",
        "problem": "domination",
        "placements": placements,
        "command": split_command(manifest),
        "commit": a.commit,
        "machine": f"{os.cpu_count()} cores, {platform.machine()}, Linux {platform.release()}",
        "wall_seconds": None,
        "cpu_seconds": None,
        "job_seconds": seconds,
        "jobs": jobs,
        "proof_bytes": proof_bytes,
        "proof_claims": proven,
        "verify": last,
    }
    # The jobs' answers name no solver: the binary's version line does.
    provenance(a, result, verified, os.path.join(a.split, "MANIFEST"), [], None)
    return result, placements


def write(path, result, placements):
    # One placement per line: the file stays readable at thousands of sets.
    body = json.dumps({**result, "placements": None}, indent=1).splitlines()
    rows = ",\n".join("  " + json.dumps(p) for p in placements)
    text = "\n".join(
        f' "placements": [\n{rows}\n ],' if line.startswith(' "placements"') else line
        for line in body
    )
    json.loads(text)
    try:
        with open(path, "w") as f:
            f.write(text + "\n")
    except OSError as e:
        fail(f"{path}: cannot write: {(e.strerror or str(e)).lower()}")


class Parser(argparse.ArgumentParser):
    """Command-line errors as one line, exit 2, as the binary's."""

    def error(self, message):
        fail(message)


def claims_cpu(claims):
    """`claims_cpu_seconds`: the solver CPU the proof's claims record (each
    cube's `cpu_millis`), when they record it: the work behind the proof,
    without what interrupted sittings lost or proved again."""
    millis = [c["split"].get("cpu_millis") for c in claims if isinstance(c, dict) and isinstance(c.get("split"), dict)]
    if not millis or not all(isinstance(m, (int, float)) for m in millis):
        return {}
    return {"claims_cpu_seconds": round(sum(millis) / 1000, 1)}


def run_result(a):
    """The result of a run in one process, from its JSON, times, proof and verify's output."""
    if not (a.run and a.time and a.proof):
        fail("--run, --time and --proof (or --split)")
    run = read_json(a.run, "the run's --json output")
    verified = verification(a.verify)
    last = verified["line"]
    n = field(run, "rows", a.run, int)
    if field(run, "cols", a.run, int) != n:
        fail("square boards only")
    sittings = [timed(t) for t in a.time]
    timed_ones = [t for t in sittings if t.get("recorded", True)]
    if not timed_ones:
        fail("every --time is 'unrecorded': at least one sitting's time is needed")
    wall = round(sum(t["wall_seconds"] for t in timed_ones), 1)
    cpu = round(sum(t["cpu_seconds"] for t in timed_ones), 1)
    rss = max(t["max_rss_kb"] for t in timed_ones)
    # Only what was timed is summed, under names that say so.
    untimed = len(sittings) - len(timed_ones)
    times = ({"wall_seconds": wall, "cpu_seconds": cpu} if not untimed else
             {"wall_seconds_recorded": wall, "cpu_seconds_recorded": cpu, "unrecorded_sittings": untimed})
    if not os.path.isdir(a.proof):
        fail(f"{a.proof}: not a proof directory")
    manifest_path = os.path.join(a.proof, "MANIFEST.json")
    manifest = read_json(manifest_path, "the proof manifest")
    proof_bytes = sum(
        os.path.getsize(os.path.join(a.proof, f))
        for f in os.listdir(a.proof)
        if os.path.isfile(os.path.join(a.proof, f))
    )
    claims = field(manifest, "claims", manifest_path, list)
    command = field(run, "command", a.run, str)
    if command == "solve":
        if run.get("status") != "sat" or not run.get("optimal"):
            fail(f"{a.run}: not an optimum")
        value, placements, orbits = field(run, "value", a.run, int), [field(run, "placement", a.run, list)], None
    elif command == "count":
        if run.get("status") != "complete":
            fail(f"{a.run}: the count is not complete")
        value = field(run, "count", a.run, int)
        placements, orbits = counted_placements(a.proof, manifest, n)
        if len(placements) != value:
            fail(f"{len(placements)} placements in the claims, the count says {value}")
    else:
        fail(f"{a.run}: neither solve nor count")
    result = {
        "sequence": a.sequence,
        "n": n,
        "value": value,
        "orbits": orbits if orbits is not None else run.get("fundamental"),
        "piece": field(run, "piece", a.run, str),
        "problem": field(run, "problem", a.run, str),
        "placements": placements,
        "command": portable(field(manifest, "command", manifest_path, str)),
        "commit": a.commit,
        "machine": f"{os.cpu_count()} cores, {platform.machine()}, Linux {platform.release()}",
        **times,
        **claims_cpu(claims),
        "max_rss_kb": rss,
        **({"sittings": len(sittings),
            "resume": "each sitting after the first: the same command with --resume"}
           if len(sittings) > 1 else {}),
        "proof_bytes": proof_bytes,
        "proof_claims": len(claims),
        "verify": last,
    }
    if a.note:
        result["note"] = a.note
    backend = run.get("backend")
    provenance(a, result, verified, manifest_path, sittings, backend if isinstance(backend, str) else None)
    return result, placements


# What a second route's file contributes: how it ran and what checked it
# (its value, orbits and placements must be the first route's).
ROUTE = ("command", "commit", "machine", "wall_seconds", "cpu_seconds", "wall_seconds_recorded",
         "cpu_seconds_recorded", "unrecorded_sittings", "claims_cpu_seconds", "max_rss_kb", "job_seconds",
         "jobs", "sittings", "resume", "per_sitting", "sessions", "binary_version", "rustc", "cpu_model",
         "cores", "solver", "proof_bytes", "proof_claims", "verify", "verify_command", "verify_commit",
         "checkers", "verify_wall_seconds", "verify_cpu_seconds", "verify_max_rss_kb", "manifest_sha256")


def second_route(path, result):
    """The second route's provenance, from the result file this script
    wrote for it: the same term, the same placements, verified."""
    other = read_json(path, "the second route's result file")
    for key in ("sequence", "n", "value", "orbits"):
        if field(other, key, path) != result[key]:
            fail(f"{path}: the second route's {key} is {other[key]!r}, this route's {result[key]!r}")
    if not field(other, "verify", path, str).startswith("verified: "):
        fail(f"{path}: the second route is not verified: {other['verify']}", 1)
    mine = {tuple(sorted(map(tuple, p))) for p in result["placements"]}
    theirs = field(other, "placements", path, list)
    if {tuple(sorted(map(tuple, p))) for p in theirs} != mine or len(theirs) != len(mine):
        fail(f"{path}: the second route's placements are not this route's")
    if "manifest_sha256" not in other:
        fail(f"{path}: no 'manifest_sha256' (a second route's file is written by this script, with its provenance)")
    return {key: other[key] for key in ROUTE if key in other}


def add_second_route(a):
    """`--add-to`: a published file with `--second-route` added (and
    `--note`, if given, replacing its note); nothing else of it changes.
    The options that describe a run do not apply."""
    run_options = ("sequence", "run", "time", "verify", "proof", "split", "commit", "env",
                   "verify_env", "verify_time", "verify_sitting")
    given = [name for name in run_options if getattr(a, name) is not None]
    if given:
        fail(f"--add-to takes --second-route and --note only, not --{given[0].replace('_', '-')}")
    if not a.second_route:
        fail("--add-to needs --second-route")
    result = read_json(a.add_to, "the published result file")
    if "second_route" in result:
        fail(f"{a.add_to}: it has a second route already")
    if not field(result, "verify", a.add_to, str).startswith("verified: "):
        fail(f"{a.add_to}: not verified: {result['verify']}", 1)
    placements = field(result, "placements", a.add_to, list)
    result["second_route"] = second_route(a.second_route, result)
    if a.note:
        result["note"] = a.note
    write(a.output, result, placements)


def main():
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--sequence")
    ap.add_argument("--run")
    ap.add_argument("--time", action="append",
                    help="repeated for a run resumed over sittings: the times add up ('unrecorded': a sitting never timed)")
    ap.add_argument("--verify")
    ap.add_argument("--add-to", help="a published result file to add --second-route to, instead of a run")
    ap.add_argument("--proof")
    ap.add_argument("--split", help="an exported split's directory, instead of --run, --time, --proof")
    ap.add_argument("--commit", help="the commit of the binary that ran (default: the one the first --env names)")
    ap.add_argument("--env", action="append",
                    help="a sitting's environment (scripts/sitting.sh's DIR.env.K), one per --time, in the same order")
    ap.add_argument("--verify-env", help="the verifying binary's environment, as --env (its version line names its commit)")
    ap.add_argument("--verify-time", help="what /usr/bin/time said of verify, when not in its output")
    ap.add_argument("--verify-sitting", action="append",
                    help="an earlier, stopped check of the same directory (DIR.verify.K): its time is added")
    ap.add_argument("--second-route", help="the result file this script wrote for the same term by another route")
    ap.add_argument("--note", default=None)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    # Checked before the work, as the binary checks its outputs.
    folder = os.path.dirname(os.path.abspath(a.output))
    if not os.path.isdir(folder):
        fail(f"{a.output}: the directory {folder} does not exist")
    if a.add_to:
        add_second_route(a)
        return
    for required in ("sequence", "verify"):
        if getattr(a, required) is None:
            fail(f"the following arguments are required: --{required} (or --add-to)")
    if not a.commit:
        if not a.env:
            fail("the following arguments are required: --commit (or --env, whose binary names it)")
        a.commit = environment(a.env[0])["commit"]
        if a.commit is None:
            fail(f"{a.env[0]}: names no commit of the binary (neither its version line nor its name): give --commit")
    if a.split:
        result, placements = split_result(a)
        if a.note:
            result["note"] = a.note
    else:
        result, placements = run_result(a)
    if a.second_route:
        result["second_route"] = second_route(a.second_route, result)
    write(a.output, result, placements)


if __name__ == "__main__":
    run(main)
