"""The results scripts (issue 53): scripts/result-json.py and
scripts/results-table.py answer bad input as the binary does — one line
starting with "error:", exit 2 (1 for a result that is not verified), never
a traceback — a result that is not verified is no row of the certified
table, and the command result-json.py publishes for an exported split runs
as written and makes the same split."""

import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from binary import REPO, binary

SCRIPTS = REPO / "scripts"


def script(name, *args):
    return subprocess.run(
        [sys.executable, str(SCRIPTS / name), *map(str, args)],
        capture_output=True, text=True, timeout=600,
    )


def refused(run, what, code=2):
    """`run` failed with exit `code` and one line `error: …` naming `what`."""
    assert "Traceback" not in run.stderr, run.stderr
    assert run.returncode == code, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and what in lines[0], run.stderr


def boardsat(*args, cwd=None):
    run = subprocess.run([binary(), *map(str, args)], capture_output=True, text=True, timeout=600, cwd=cwd)
    assert run.returncode == 0, run.stderr
    return run.stdout


# The options of each exported split: what its MANIFEST records, which the
# published command must give back.
SPLITS = {
    "lex": ["--lex-leader", "--job-budget", "0.001", "--max-depth", "2"],
    "binary": ["--proof-format", "binary", "--proof-compression", "zstd"],
    "card": ["--lex-leader", "--card", "seqcounter"],
}


@pytest.fixture(scope="module", params=sorted(SPLITS))
def split(request, tmp_path_factory):
    """A finished, verified exported split of domination 6 -k 3, and verify's output."""
    tmp = tmp_path_factory.mktemp(request.param)
    boardsat("cubes", "domination", "6", "-k", "3", "--depth", "1", "--proof",
             *SPLITS[request.param], "-o", tmp / "split")
    boardsat("jobs", tmp / "split", "--run", "local")
    (tmp / "split.verify").write_text(boardsat("verify", tmp / "split"))
    return tmp / "split", tmp / "split.verify"


def manifest_lines(split):
    """The MANIFEST lines a command decides: the spec, proofs, budget."""
    keep = ("# spec", "# proofs", "# proof-format", "# proof-compression", "# budget")
    return [l for l in (split / "MANIFEST").read_text().splitlines() if l.startswith(keep)]


def test_an_exported_split_s_command_runs_as_written(split, tmp_path):
    directory, verify = split
    out = tmp_path / "result.json"
    run = script("result-json.py", "--sequence", "A002564", "--split", directory,
                 "--verify", verify, "--commit", "abc1234", "-o", out)
    assert run.returncode == 0, run.stderr
    result = json.loads(out.read_text())
    assert result["verify"].startswith("verified: ")
    assert len(result["placements"]) == result["value"]
    cubes = result["command"].split(";")[0]
    assert "None" not in cubes, cubes
    words = shlex.split(cubes.replace("DIR", str(tmp_path / "again")))
    assert words[:2] == ["boardsat", "cubes"], cubes
    boardsat(*words[1:])
    assert manifest_lines(tmp_path / "again") == manifest_lines(directory), cubes


def test_result_json_refuses_bad_input_in_one_line(split, tmp_path):
    directory, verify = split
    copy = tmp_path / "split"
    shutil.copytree(directory, copy)
    out = tmp_path / "out.json"

    def split_json(*extra, split=copy, verify=verify, output=out):
        return script("result-json.py", "--sequence", "A002564", "--split", split,
                      "--verify", verify, "--commit", "c", "-o", output, *extra)

    # A job's lock and a killed job's temporary answer are no answers.
    (copy / "results" / "cube-00000.lock").write_text("123")
    (copy / "results" / "cube-00001.json.partial").write_text('{"count":')
    run = split_json()
    assert run.returncode == 0, run.stderr
    answer = sorted((copy / "results").glob("*.json"))[0]
    answer.write_text("not json")
    refused(split_json(), "is not JSON")
    refused(split_json(split=tmp_path), "not a split directory")
    refused(split_json(output=tmp_path / "missing" / "out.json"), "does not exist")
    unverified = tmp_path / "unverified"
    unverified.write_text("NOT verified: not proven: a claim is missing\n")
    refused(split_json(split=directory, verify=unverified), "not verified", code=1)
    refused(split_json(split=directory, verify=tmp_path / "none"), "cannot read")
    refused(split_json("--no-such-option"), "unrecognized arguments")
    # A run in one process: its --json output, times and proof.
    proof = tmp_path / "proof"
    (tmp_path / "run.json").write_text(boardsat("count", "domination", "6", "--proof", proof, "--json"))
    (tmp_path / "run.verify").write_text(boardsat("verify", proof))
    (tmp_path / "run.time").write_text(
        "\tUser time (seconds): 1.50\n\tSystem time (seconds): 0.25\n"
        "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:02.50\n"
        "\tMaximum resident set size (kbytes): 4096\n"
    )

    def run_json(run="run.json", time="run.time", proof=proof):
        return script("result-json.py", "--sequence", "A002564", "--run", tmp_path / run,
                      "--time", tmp_path / time, "--verify", tmp_path / "run.verify",
                      "--proof", proof, "--commit", "c", "-o", out)

    run = run_json()
    assert run.returncode == 0, run.stderr
    result = json.loads(out.read_text())
    assert (result["wall_seconds"], result["cpu_seconds"]) == (2.5, 1.8)
    assert result["command"].startswith("boardsat count domination 6 --proof ")
    (tmp_path / "bad.json").write_text("{")
    refused(run_json(run="bad.json"), "is not JSON")
    refused(run_json(time="missing.time"), "cannot read")
    (tmp_path / "bad.time").write_text("nothing timed here\n")
    refused(run_json(time="bad.time"), "(output of /usr/bin/time -v?)")
    refused(run_json(proof=tmp_path / "no-proof"), "not a proof directory")


RESULT = REPO / "docs" / "results" / "A002564-16.json"


def table(*files):
    return script("results-table.py", *files)


def test_the_table_has_a_verified_row_per_published_result():
    run = table()
    assert run.returncode == 0, run.stderr
    rows = run.stdout.splitlines()
    assert len(rows) == len(list((REPO / "docs" / "results").glob("*.json")))
    assert all("verified in " in row for row in rows), rows


def test_the_table_refuses_what_is_not_a_certified_result(tmp_path):
    good = json.loads(RESULT.read_text())
    row = table(RESULT)
    assert row.returncode == 0, row.stderr

    def with_(name, change):
        path = tmp_path / f"{name}.json"
        r = dict(good)
        change(r)
        path.write_text(json.dumps(r))
        return table(path)

    # Fields the table does not read (provenance added later) change nothing.
    run = with_("extra", lambda r: r.update(rustc="1.95.0", checker={"lrat": "boardsat"}))
    assert run.returncode == 0 and run.stdout == row.stdout.replace("A002564-16.json", "extra.json"), run.stderr
    refused(with_("unverified", lambda r: r.update(verify="NOT verified: a claim is missing")), "not verified", code=1)
    run = with_("untimed", lambda r: r.pop("verify_wall_seconds"))
    assert run.returncode == 0, run.stderr
    assert "its time not recorded" in run.stdout and "verified in 0 s" not in run.stdout
    refused(with_("incomplete", lambda r: r.pop("value")), "no 'value'")
    refused(with_("wrong", lambda r: r.update(proof_bytes="many")), "'proof_bytes' is not")
    (tmp_path / "broken.json").write_text('{"sequence": ')
    refused(table(tmp_path / "broken.json"), "not JSON")
    refused(table(tmp_path), "not a regular file")
    refused(table(tmp_path / "missing.json"), "cannot read")
    # One bad file among good ones: no table at all.
    run = table(RESULT, tmp_path / "broken.json")
    assert run.stdout == ""


# Provenance (issue 52): what a referee needs to re-run and re-check a
# result, written from files only — each sitting's time and environment,
# the solver, the checkers that accepted every proof, the verify command,
# the verifying binary's commit and the SHA-256 of the proof's MANIFEST.

FAKE_CHECKER = "#!/bin/sh\necho 's VERIFIED'\nexit 0\n"


@pytest.fixture(scope="module")
def cake_lpr(tmp_path_factory):
    """cake_lpr, as the Rust tests find it (crates/cli/tests/common):
    $BOARDSAT_CAKE_LPR, else built with gcc from its published sources in
    ../shared/peers/cake_lpr beside the repository ($BOARDSAT_PEERS names
    another peers folder). Missing, it fails the test saying what to do,
    or, with BOARDSAT_SKIP_EXTERNAL=1, skips it saying so."""
    given = os.environ.get("BOARDSAT_CAKE_LPR")
    if given:
        return given
    source = Path(os.environ.get("BOARDSAT_PEERS") or REPO.parent / "shared" / "peers") / "cake_lpr"
    why = f"cake_lpr's sources are not in {source} (set BOARDSAT_PEERS or BOARDSAT_CAKE_LPR)"
    if (source / "cake_lpr.S").is_file():
        out = tmp_path_factory.mktemp("cake_lpr") / "cake_lpr"
        built = subprocess.run(["gcc", "-O2", "-std=c99", "-w", source / "basis_ffi.c", source / "cake_lpr.S",
                                "-o", out], capture_output=True, text=True)
        if built.returncode == 0:
            return str(out)
        why = f"gcc failed on cake_lpr: {built.stderr.strip()}"
    if os.environ.get("BOARDSAT_SKIP_EXTERNAL") == "1":
        pytest.skip(f"{why}, and BOARDSAT_SKIP_EXTERNAL=1")
    pytest.fail(why)


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def environment(path, start="2026-11-28T02:10:08Z"):
    """A sitting's environment as scripts/sitting.sh writes it, of the binary the tests run."""
    version = boardsat("--version").strip()
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip() or "rustc 1.95.0"
    path.write_text(
        f"binary: {binary()}\n{version}\n{rustc}\nmodel name\t: AMD EPYC\ncores: 2\n"
        f"Linux 6.18.44 x86_64\nstart: {start}\n"
    )
    return version, rustc


V_TIME = ("\tUser time (seconds): 1.50\n\tSystem time (seconds): 0.25\n"
          "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:02.50\n"
          "\tMaximum resident set size (kbytes): 4096\n\tExit status: 0\n")
# scripts/sitting.sh's `/usr/bin/time -f "%e %U %S %M"` of a sitting stopped by its limit.
SHORT_TIME = "Command exited with non-zero status 130\n10.50 7.50 0.50 8192\n"


@pytest.fixture(scope="module")
def counted(tmp_path_factory):
    """A count of domination 6 with its proof, its --json output and
    verify's, text and JSON, without and with an external checker."""
    tmp = tmp_path_factory.mktemp("provenance")
    proof = tmp / "proof"
    (tmp / "run.json").write_text(boardsat("count", "domination", "6", "--proof", proof, "--json"))
    (tmp / "verify.txt").write_text(boardsat("verify", proof))
    (tmp / "verify.json").write_text(boardsat("verify", proof, "--json"))
    fake = tmp / "fake-checker"
    fake.write_text(FAKE_CHECKER)
    fake.chmod(0o755)
    (tmp / "run.time.0").write_text(SHORT_TIME)
    (tmp / "run.time.1").write_text(V_TIME)
    environment(tmp / "run.env.0")
    environment(tmp / "run.env.1", start="2026-11-28T03:47:13Z")
    environment(tmp / "verify.env")
    return tmp


def checked_by(counted, which, request):
    """verify's text and JSON output with the external checker `which`."""
    program = str(counted / "fake-checker") if which == "fake" else request.getfixturevalue("cake_lpr")
    text = counted / f"verify-{which}.txt"
    report = counted / f"verify-{which}.json"
    text.write_text(boardsat("verify", counted / "proof", "--checker", program))
    report.write_text(boardsat("verify", counted / "proof", "--checker", program, "--json"))
    return program, text, report


def commit_of(env):
    """The commit the version line of an environment file names (an older
    binary's: its name, boardsat-HASH, as scripts/sitting.sh names the binaries it copies)."""
    binary_line, version = env.read_text().splitlines()[:2]
    found = re.search(r"\(commit ([0-9a-f]+(?:-dirty)?)", version) or re.search(r"boardsat-([0-9a-f]{7,40})$", binary_line)
    assert found, f"{env}: no commit in the version line or the binary's name"
    return found.group(1)


def result_json(counted, out, verify, *extra, times=("run.time.0", "run.time.1"), envs=("run.env.0", "run.env.1"),
                commit=None, run="run.json", proof=None):
    args = ["--sequence", "A002564", "--run", counted / run, "--verify", verify,
            "--proof", proof or counted / "proof", "--commit", commit or commit_of(counted / "run.env.0"), "-o", out]
    for t in times:
        args += ["--time", t if t == "unrecorded" else counted / t]
    for e in envs:
        args += ["--env", counted / e]
    return script("result-json.py", *args, *extra)


@pytest.mark.parametrize("which", ["fake", "cake_lpr"])
def test_a_result_records_its_provenance_from_files(counted, tmp_path, which, request):
    program, text, report = checked_by(counted, which, request)
    version = (counted / "run.env.0").read_text().splitlines()[1]
    assert version.startswith("boardsat "), version
    commit = commit_of(counted / "run.env.0")
    run_json = json.loads((counted / "run.json").read_text())
    claims = len(json.loads((counted / "proof" / "MANIFEST.json").read_text())["claims"])
    written = {}
    for kind, verify in (("text", text), ("json", report)):
        out = tmp_path / f"{kind}.json"
        run = result_json(counted, out, verify, "--verify-env", counted / "verify.env",
                          "--verify-time", counted / "run.time.1")
        assert run.returncode == 0, run.stderr
        r = written[kind] = json.loads(out.read_text())
        # Each sitting, and the sums.
        assert [(s["wall_seconds"], s["cpu_seconds"], s["max_rss_kb"]) for s in r["per_sitting"]] == [
            (10.5, 8.0, 8192), (2.5, 1.8, 4096)]
        assert r["per_sitting"][0]["exit_status"] == 130 and "exit_status" not in r["per_sitting"][1]
        assert [s["start"] for s in r["per_sitting"]] == ["2026-11-28T02:10:08Z", "2026-11-28T03:47:13Z"]
        assert (r["wall_seconds"], r["cpu_seconds"], r["sittings"], r["max_rss_kb"]) == (13.0, 9.8, 2, 8192)
        # The machine, the binary, the compiler and the solver.
        assert r["binary_version"] == version and r["per_sitting"][1]["version"] == version
        assert r["rustc"].startswith("rustc ") and (r["cpu_model"], r["cores"]) == ("AMD EPYC", 2)
        assert r["machine"] == "2 cores, AMD EPYC, Linux 6.18.44 x86_64"
        assert r["solver"] == run_json["backend"]
        # The checkers that accepted every proof, the verify command and the verifying binary.
        name = "fake-checker" if which == "fake" else "cake_lpr"
        assert r["checkers"][0] == {"name": "boardsat", "what": "boardsat's LRAT checker (crates/lrat)",
                                    "version": version}
        external = r["checkers"][1]
        assert (external["name"], external["program"], external["accepted"]) == (name, program, claims)
        assert external["sha256"] == sha256(Path(program))
        assert r["verify_command"] == f"boardsat verify DIR --checker {program}" + (" --json" if kind == "json" else "")
        assert r["verify_commit"] == commit
        assert r["verify"].endswith(f"every proof accepted by boardsat's checker and by {name} ({program}): "
                                    f"{claims} proofs")
        assert (r["verify_wall_seconds"], r["verify_cpu_seconds"], r["verify_max_rss_kb"]) == (2.5, 1.8, 4096)
        assert r["manifest_sha256"] == sha256(counted / "proof" / "MANIFEST.json")
    # verify's text and its JSON give the same record, but for how it was read.
    text_r, json_r = written["text"], written["json"]
    assert text_r["verify"] == json_r["verify"]
    assert text_r["checkers"][1]["sha256"] == json_r["checkers"][1]["sha256"]
    assert json_r["checkers"][1]["sha256_from"] == "boardsat verify --json"
    # The table's checkers column names both.
    row = table(tmp_path / "json.json")
    assert row.returncode == 0, row.stderr
    assert f"| boardsat + {name} |" in row.stdout, row.stdout


def test_a_result_without_an_external_checker_names_boardsat_s_alone(counted, tmp_path):
    for verify in ("verify.txt", "verify.json"):
        out = tmp_path / f"{verify}.result"
        run = result_json(counted, out, counted / verify, times=("run.time.1",), envs=())
        assert run.returncode == 0, run.stderr
        r = json.loads(out.read_text())
        assert r["checkers"] == [{"name": "boardsat", "what": "boardsat's LRAT checker (crates/lrat)"}]
        assert r["verify"] == (counted / "verify.txt").read_text().splitlines()[-1]
        assert "per_sitting" in r and "binary_version" not in r and "verify_commit" not in r
        row = table(out)
        assert row.returncode == 0 and "| boardsat |" in row.stdout, row.stdout + row.stderr
    # Old files, written before these fields, still make rows, their checkers read from verify's line.
    run = table()
    assert run.returncode == 0, run.stderr
    assert all("| boardsat |" in r or "| boardsat + " in r for r in run.stdout.splitlines())


def test_provenance_that_does_not_fit_is_refused(counted, tmp_path):
    out = tmp_path / "out.json"
    verify = counted / "verify.json"
    refused(result_json(counted, out, verify, envs=("run.env.0",)), "1 --env for 2 --time")
    refused(result_json(counted, out, verify, commit="0000000"), "is the commit of no sitting's binary")
    bare = tmp_path / "bare.env"
    bare.write_text("binary: /bin/boardsat\ncores: 2\n")
    refused(result_json(counted, out, verify, "--verify-env", bare), "no 'boardsat --version' line")
    old = tmp_path / "old.env"
    old.write_text("binary: /usr/bin/boardsat\nboardsat 0.1.0\nrustc 1.95.0\nmodel name\t: X\ncores: 2\n")
    refused(result_json(counted, out, verify, "--verify-env", old), "names no commit of the verifying binary")
    # An older binary without a commit in its version line: its name says it (scripts/sitting.sh's boardsat-HASH).
    named = tmp_path / "named.env"
    named.write_text(old.read_text().replace("/usr/bin/boardsat", "/work/runs/bin/boardsat-8948ea7"))
    run = result_json(counted, out, verify, "--verify-env", named)
    assert run.returncode == 0, run.stderr
    assert json.loads(out.read_text())["verify_commit"] == "8948ea7"
    # Without --commit, the commit is the first sitting's binary's.
    args = ["--sequence", "A002564", "--run", counted / "run.json", "--verify", verify, "--proof", counted / "proof",
            "--time", counted / "run.time.1", "-o", out]
    run = script("result-json.py", *args, "--env", counted / "run.env.1")
    assert run.returncode == 0, run.stderr
    assert json.loads(out.read_text())["commit"] == commit_of(counted / "run.env.1")
    refused(script("result-json.py", *args), "--commit (or --env")
    refused(script("result-json.py", *args, "--env", old), "names no commit of the binary")
    # verify's JSON that says "not verified", or is no verify report.
    report = json.loads(verify.read_text())
    report.update(verified=False, result={"verified": False, "reason": "a claim is missing"})
    (tmp_path / "no.json").write_text(json.dumps(report))
    refused(result_json(counted, out, tmp_path / "no.json"), "NOT verified: a claim is missing", code=1)
    (tmp_path / "other.json").write_text('{"command": "count"}')
    refused(result_json(counted, out, tmp_path / "other.json"), "not the --json output of 'boardsat verify'")
    # A text verdict naming an external checker no longer there to hash.
    line = (counted / "verify.txt").read_text().rstrip("\n")
    (tmp_path / "gone.txt").write_text(
        line + "; every proof accepted by boardsat's checker and by gone (/nonexistent/gone): 3 proofs\n")
    refused(result_json(counted, out, tmp_path / "gone.txt"), "cannot hash the external checker")
    (tmp_path / "bad.time").write_text("Command exited with non-zero status 130\n1.0 2.0\n")
    refused(result_json(counted, out, verify, times=(tmp_path / "bad.time",), envs=()), "'%e %U %S %M'")


def test_a_sitting_never_timed_is_no_part_of_a_total(counted, tmp_path):
    """A sitting killed before /usr/bin/time wrote is `--time unrecorded`:
    kept as a sitting, its time in no sum that would pass for the run's,
    and the table says the timed part is a floor."""
    out = tmp_path / "out.json"
    run = result_json(counted, out, counted / "verify.json", times=("unrecorded", "run.time.1"))
    assert run.returncode == 0, run.stderr
    r = json.loads(out.read_text())
    assert "wall_seconds" not in r and "cpu_seconds" not in r
    assert (r["wall_seconds_recorded"], r["cpu_seconds_recorded"], r["unrecorded_sittings"], r["sittings"]) == (
        2.5, 1.8, 1, 2)
    assert r["per_sitting"][0]["recorded"] is False and "wall_seconds" not in r["per_sitting"][0]
    assert r["per_sitting"][0]["start"] == "2026-11-28T02:10:08Z"
    # The claims' own CPU: what the proof's MANIFEST records, cube by cube.
    claims = json.loads((counted / "proof" / "MANIFEST.json").read_text())["claims"]
    millis = [c["split"]["cpu_millis"] for c in claims if "split" in c]
    assert millis and r["claims_cpu_seconds"] == round(sum(millis) / 1000, 1)
    row = table(out)
    assert row.returncode == 0, row.stderr
    assert "| ≥ 2 s / " in row.stdout and "over 2 sittings (1 untimed)" in row.stdout, row.stdout
    # A timed run has the plain sums, and the claims' CPU beside them.
    run = result_json(counted, out, counted / "verify.json")
    assert run.returncode == 0, run.stderr
    r = json.loads(out.read_text())
    assert (r["wall_seconds"], r["cpu_seconds"]) == (13.0, 9.8) and "unrecorded_sittings" not in r
    assert "claims_cpu_seconds" in r
    refused(result_json(counted, out, counted / "verify.json", times=("unrecorded",), envs=("run.env.0",)),
            "at least one sitting's time is needed")


def test_two_routes_record_each_route_s_manifest(counted, tmp_path):
    """A second route (another split, another cardinality encoding): its
    file is written first, then the first route's names it."""
    second = tmp_path / "second"
    (tmp_path / "run2.json").write_text(
        boardsat("count", "domination", "6", "--depth", "2", "--card", "sequential-counter",
                 "--proof", second, "--json"))
    (tmp_path / "verify2.json").write_text(boardsat("verify", second, "--json"))
    route2 = tmp_path / "route2.json"
    run = script("result-json.py", "--sequence", "A002564", "--run", tmp_path / "run2.json",
                 "--time", counted / "run.time.1", "--env", counted / "run.env.1",
                 "--verify", tmp_path / "verify2.json", "--proof", second,
                 "--commit", commit_of(counted / "run.env.1"), "-o", route2)
    assert run.returncode == 0, run.stderr
    out = tmp_path / "both.json"
    run = result_json(counted, out, counted / "verify.json", "--second-route", route2)
    assert run.returncode == 0, run.stderr
    r = json.loads(out.read_text())
    assert r["manifest_sha256"] == sha256(counted / "proof" / "MANIFEST.json")
    assert r["second_route"]["manifest_sha256"] == sha256(second / "MANIFEST.json")
    assert r["second_route"]["manifest_sha256"] != r["manifest_sha256"]
    assert "--card sequential-counter" in r["second_route"]["command"]
    assert "placements" not in r["second_route"]
    assert table(out).returncode == 0
    # A second route that counted other placements is no second route of this term.
    other = json.loads(route2.read_text())
    other["placements"][0] = other["placements"][1]
    (tmp_path / "other.json").write_text(json.dumps(other))
    refused(result_json(counted, out, counted / "verify.json", "--second-route", tmp_path / "other.json"),
            "the second route's placements are not this route's")
    other = json.loads(route2.read_text())
    other["value"] += 1
    (tmp_path / "more.json").write_text(json.dumps(other))
    refused(result_json(counted, out, counted / "verify.json", "--second-route", tmp_path / "more.json"),
            "the second route's value is")
    # Added to a file already published, the same file, with no need of
    # the first route's proof (long deleted, for a large one).
    first = tmp_path / "first.json"
    assert result_json(counted, first, counted / "verify.json").returncode == 0
    added = tmp_path / "added.json"
    run = script("result-json.py", "--add-to", first, "--second-route", route2, "-o", added)
    assert run.returncode == 0, run.stderr
    assert added.read_text() == out.read_text()
    refused(script("result-json.py", "--add-to", added, "--second-route", route2, "-o", tmp_path / "x.json"),
            "it has a second route already")
    refused(script("result-json.py", "--add-to", first, "--second-route", tmp_path / "other.json",
                   "-o", tmp_path / "x.json"), "the second route's placements are not this route's")
    refused(script("result-json.py", "--add-to", first, "--second-route", route2, "--proof", second,
                   "-o", tmp_path / "x.json"), "--add-to takes --second-route and --note only, not --proof")
    refused(script("result-json.py", "--add-to", first, "-o", tmp_path / "x.json"), "--add-to needs --second-route")
    assert not (tmp_path / "x.json").exists()


def sitting(directory, *args, checker):
    """scripts/sitting.sh DIR ARGS with the tests' binary and `checker`."""
    env = {**os.environ, "BOARDSAT": binary(), "CHECKER": str(checker)}
    return subprocess.run(["bash", str(SCRIPTS / "sitting.sh"), str(directory), *map(str, args)],
                          capture_output=True, text=True, timeout=600, env=env)


def test_a_sitting_writes_what_result_json_reads(tmp_path, cake_lpr):
    """The files scripts/sitting.sh writes for each sitting of a long run
    (environment, time, --json, progress; verify and its environment when
    the run ends) are the ones result-json.py reads, numbered on from the
    sittings already there: a first sitting stopped by its time limit, a
    second that resumes it to the verified count."""
    proof = tmp_path / "d6"
    first = sitting(proof, "count", "domination", "6", "--time-limit", "0.001", checker=cake_lpr)
    assert first.returncode == 3, first.stderr
    assert not (tmp_path / "d6.verify").exists(), "a sitting that stopped at its limit was verified"
    assert "non-zero status 3" in (tmp_path / "d6.time.1").read_text()
    second = sitting(proof, "count", "domination", "6", "--resume", checker=cake_lpr)
    assert second.returncode == 0, second.stderr
    for name in ("env.1", "time.1", "json.1", "progress.1", "env.2", "time.2", "json.2", "verify", "verify.env"):
        assert (tmp_path / f"d6.{name}").is_file(), name
    assert not (tmp_path / "d6.env.3").exists()
    verdict = [l for l in (tmp_path / "d6.verify").read_text().splitlines() if l.startswith("verified")]
    assert len(verdict) == 1 and "cake_lpr" in verdict[0], (tmp_path / "d6.verify").read_text()
    env = tmp_path / "d6.env.1"
    assert "command: boardsat --progress count domination 6 --time-limit 0.001 --proof" in env.read_text()
    assert "command: boardsat --progress count domination 6 --resume --proof" in (tmp_path / "d6.env.2").read_text()
    out = tmp_path / "result.json"
    args = ["--sequence", "A002564", "--run", tmp_path / "d6.json.2", "--verify", tmp_path / "d6.verify",
            "--verify-env", tmp_path / "d6.verify.env", "--proof", proof, "--commit", commit_of(env), "-o", out]
    for k in (1, 2):
        args += ["--time", tmp_path / f"d6.time.{k}", "--env", tmp_path / f"d6.env.{k}"]
    run = script("result-json.py", *args)
    assert run.returncode == 0, run.stderr
    r = json.loads(out.read_text())
    assert r["value"] == 4 and r["sittings"] == 2 and len(r["per_sitting"]) == 2
    assert [c["name"] for c in r["checkers"]] == ["boardsat", "cake_lpr"]
    assert all(s["cores"] == len(os.sched_getaffinity(0)) for s in r["per_sitting"])


def test_a_sitting_refuses_a_missing_checker_in_one_line(tmp_path):
    run = sitting(tmp_path / "d6", "count", "domination", "6", checker=tmp_path / "nothing")
    assert run.returncode == 2 and run.stderr.strip().splitlines()[-1].startswith("error: "), run.stderr
    assert not list(tmp_path.iterdir())


def test_an_exported_split_records_its_sessions_and_manifest(split, tmp_path):
    """An exported split has no one sitting: its --env files are its
    sessions, and its MANIFEST is the one hashed."""
    directory, _ = split
    verify = tmp_path / "verify.json"
    verify.write_text(boardsat("verify", directory, "--json"))
    environment(tmp_path / "session.env")
    out = tmp_path / "result.json"
    run = script("result-json.py", "--sequence", "A002564", "--split", directory, "--verify", verify,
                 "--env", tmp_path / "session.env", "--verify-env", tmp_path / "session.env", "-o", out)
    assert run.returncode == 0, run.stderr
    r = json.loads(out.read_text())
    assert r["commit"] == r["verify_commit"] == commit_of(tmp_path / "session.env")
    assert [s["start"] for s in r["sessions"]] == ["2026-11-28T02:10:08Z"] and "per_sitting" not in r
    # The jobs' answers name no solver: the binary's version line does (a binary without one names none).
    embedded = re.search(r", (.+) embedded\)", r["binary_version"])
    assert r.get("solver") == (embedded.group(1) if embedded else None), r["binary_version"]
    assert r["manifest_sha256"] == sha256(directory / "MANIFEST")
    assert [c["name"] for c in r["checkers"]] == ["boardsat"]
    assert r["verify_command"] == "boardsat verify DIR --json"


def test_cube_costs_prices_a_second_route_by_the_first(tmp_path):
    """`cube-costs.py ROUTE2 --priced-by ROUTE1 --cubes SPLIT`: a second
    route stopped after some cubes is priced by a finished first route of
    the same board, split less deep: every cube of the split is counted,
    and what is left at the first route's prices is no more than what the
    cubes priced did not spend."""
    boardsat("count", "domination", "8", "--depth", "1", "--proof", tmp_path / "one")
    stopped = subprocess.run(
        [binary(), "count", "domination", "8", "--depth", "2", "--card", "seqcounter",
         "--stop-after-cubes", "20", "--threads", "1", "--proof", str(tmp_path / "two")],
        capture_output=True, text=True, timeout=300)
    assert stopped.returncode == 130, stopped.stderr
    boardsat("cubes", "domination", "8", "-k", "5", "--depth", "2", "--lex-leader", "-o", tmp_path / "split")
    every = [l for l in (tmp_path / "split" / "MANIFEST").read_text().splitlines() if l and not l.startswith("#")]
    run = script("cube-costs.py", tmp_path / "two", "--priced-by", tmp_path / "one", "--cubes", tmp_path / "split")
    assert run.returncode == 0, run.stderr
    head = re.search(r"(\d+) of (\d+) cubes proven", run.stdout)
    assert head and int(head.group(2)) == len(every), run.stdout
    assert 20 <= int(head.group(1)) < len(every), run.stdout
    priced = re.search(r"pieces are all proven: [\d.]+ CPU s against (\d+)", run.stdout)
    left = re.search(r"left: (\d+) CPU s at", run.stdout)
    if priced:
        total = sum(c["split"]["cpu_millis"] for c in json.loads((tmp_path / "one" / "MANIFEST.json").read_text())["claims"]
                    if c.get("kind") == "complete" and c["split"]["split"] == "split-1") / 1000
        # What is left is what the priced cubes did not spend, less the
        # proven share of the cubes partly done.
        assert left and 0 < int(left.group(1)) <= total - int(priced.group(1)) + 1, run.stdout
    else:
        assert "nothing to price by" in run.stdout, run.stdout
    refused(script("cube-costs.py", tmp_path / "two", "--priced-by", tmp_path / "one"), "--priced-by and --cubes go together")
    refused(script("cube-costs.py", tmp_path / "two", "--priced-by", tmp_path / "one", "--cubes", tmp_path / "one" / "MANIFEST.json"),
            "not the MANIFEST of an exported domination split")


def test_cube_costs_reads_a_count_s_cubes(tmp_path):
    """scripts/cube-costs.py (item 3): the cubes of a certified count of
    domination 8 hold A002563(8)'s orbit representatives, and a manifest
    with no count split is refused in one line."""
    from oeis import MINIMUM_DOMINATING_ORBITS

    boardsat("count", "domination", "8", "--depth", "1", "--proof", tmp_path / "count")
    run = script("cube-costs.py", tmp_path / "count", "--rows", "2")
    assert run.returncode == 0, run.stderr
    summary = re.search(r"(\d+) cubes proven, \d+ CPU s, (\d+) sets", run.stdout)
    assert summary, run.stdout
    assert int(summary.group(2)) == MINIMUM_DOMINATING_ORBITS[8 - 1]
    rows = [l for l in run.stdout.splitlines() if l.strip().startswith("| r")]
    assert len(rows) == 2, run.stdout
    boardsat("solve", "domination", "6", "--proof", tmp_path / "solve")
    refused(script("cube-costs.py", tmp_path / "solve"), "not the manifest of a count split into cubes")
    refused(script("cube-costs.py", tmp_path / "missing"), "missing")
    # A reader that leaves (`| head`): exit 141 as a shell's, nothing on stderr.
    read, write = os.pipe()
    os.close(read)
    try:
        closed = subprocess.run(
            [sys.executable, str(SCRIPTS / "cube-costs.py"), str(tmp_path / "count")],
            stdout=write, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    assert closed.returncode == 141 and closed.stderr == "", closed.stderr



def test_a_check_of_its_own_is_what_result_json_reads(cake_lpr, tmp_path):
    """`scripts/sitting.sh --verify DIR` checks a finished run alone, as its
    last sitting would have (for a check that needs a session of its own):
    the same verify and environment files, no new sitting, and
    result-json.py takes them. Both checks keep DIR.record, so the second
    takes every proof from it, and the result says so. The first check's
    output is kept as DIR.verify.1, whose time --verify-sitting adds."""
    proof = tmp_path / "d6"
    done = sitting(proof, "count", "domination", "6", checker=cake_lpr)
    assert done.returncode == 0, done.stderr
    first = {name: (tmp_path / f"d6.{name}").read_text() for name in ("verify", "verify.env")}
    again = sitting("--verify", proof, checker=cake_lpr)
    assert again.returncode == 0, again.stderr
    assert not (tmp_path / "d6.env.2").exists()
    assert {name: (tmp_path / f"d6.{name}.1").read_text() for name in first} == first
    assert f"kept as {tmp_path / 'd6.verify.1'}" in again.stderr, again.stderr
    verdict = [l for l in (tmp_path / "d6.verify").read_text().splitlines() if l.startswith("verified")]
    assert len(verdict) == 1 and "and by cake_lpr" in verdict[0], (tmp_path / "d6.verify").read_text()
    assert "command: boardsat verify DIR --checker " in (tmp_path / "d6.verify.env").read_text()
    claims = len(json.loads((proof / "MANIFEST.json").read_text())["claims"])
    assert f"({claims} proofs taken from the record {tmp_path / 'd6.record'}: " in verdict[0], verdict[0]
    out = tmp_path / "result.json"

    def result_of(*extra, output=out):
        return script("result-json.py", "--sequence", "A002564", "--run", tmp_path / "d6.json.1",
                      "--time", tmp_path / "d6.time.1", "--env", tmp_path / "d6.env.1",
                      "--verify", tmp_path / "d6.verify", "--verify-env", tmp_path / "d6.verify.env",
                      "--proof", proof, "--commit", commit_of(tmp_path / "d6.env.1"), "-o", output, *extra)

    made = result_of()
    assert made.returncode == 0, made.stderr
    r = json.loads(out.read_text())
    assert r["value"] == 4
    assert r["verify_command"] == f"boardsat verify DIR --checker {Path(cake_lpr).name} --record DIR.record"
    assert [c["name"] for c in r["checkers"]] == ["boardsat", "cake_lpr"]
    assert r["verify_record"]["reused"] == claims and r["verify_record"]["path"] == str(tmp_path / "d6.record")
    assert "verify_per_sitting" not in r
    # The first check's time added: each kept, the sums theirs.
    summed = result_of("--verify-sitting", tmp_path / "d6.verify.1")
    assert summed.returncode == 0, summed.stderr
    s = json.loads(out.read_text())
    per = s["verify_per_sitting"]
    assert len(per) == 2 and per[1] == {"wall_seconds": r["verify_wall_seconds"], "cpu_seconds": r["verify_cpu_seconds"]}
    assert s["verify_cpu_seconds"] == round(per[0]["cpu_seconds"] + per[1]["cpu_seconds"], 1)
    assert s["verify_wall_seconds"] == round(per[0]["wall_seconds"] + per[1]["wall_seconds"], 1)
    # A check of another directory is not one of this check's sittings.
    other = tmp_path / "other.verify"
    other.write_text(first["verify"].replace(str(proof), str(tmp_path / "d7")))
    refused(result_of("--verify-sitting", other, output=tmp_path / "no.json"), f"not a check of {proof}")
    assert not (tmp_path / "no.json").exists()


def test_a_check_of_no_proof_directory_is_refused_in_one_line(cake_lpr, tmp_path):
    (tmp_path / "empty").mkdir()
    for args, what in (((), "has no MANIFEST.json"), (("count",), "usage")):
        refused(sitting("--verify", tmp_path / "empty", *args, checker=cake_lpr), what)
    assert list(tmp_path.iterdir()) == [tmp_path / "empty"]
