"""boardsat.jobs and the command line take one road: a split written both
ways has the same MANIFEST and cube files (jobs.txt differs only in the
program its lines call: the binary's path, or the `boardsat` on the PATH
for Python), a job run both ways writes the same answer (but for its
timing and backend), rounds run in Python merge to the known count, and
bad input raises the command's one-line error."""

import json
import re
import subprocess
from pathlib import Path

import pytest

from boardsat import jobs
from binary import binary
from oeis import MINIMUM_DOMINATING_ORBITS, MINIMUM_DOMINATING_SETS

# Fields of an answer that say how long, or on what, it ran, and those
# that name the split and its cube file's digest: new at every write.
TIMING = ("elapsed", "backend", "split", "digest")


def cli(*args, cwd=None, ok=(0,)):
    run = subprocess.run([binary(), *args], capture_output=True, text=True, timeout=300, cwd=cwd)
    assert run.returncode in ok, run.stderr
    return run


def split_id(dir):
    """The split's name, different for every write (MANIFEST's "# split")."""
    return next(l.split()[2] for l in (Path(dir) / "MANIFEST").read_text().splitlines() if l.startswith("# split "))


def files(dir):
    """Every file of a split but jobs.txt, by name: its text, with the
    split's name (new at every write, so two writes never share it) and
    the cube files' digests in MANIFEST (which cover that name) put aside;
    the cube files themselves are compared whole."""
    name = split_id(dir)
    out = {}
    for p in Path(dir).rglob("*"):
        if p.is_file() and p.name != "jobs.txt":
            text = p.read_text().replace(name, "SPLIT")
            if p.name == "MANIFEST":
                text = re.sub(r"\b[0-9a-f]{64}\b", "DIGEST", text)
            out[p.relative_to(dir).as_posix()] = text
    return out


def answer(path):
    data = json.loads(Path(path).read_text())
    return {k: v for k, v in data.items() if k not in TIMING}


@pytest.mark.parametrize("card", [None, "seqcounter"])
def test_a_split_written_both_ways_is_the_same(tmp_path, card):
    report = jobs.write_split("domination", 7, tmp_path / "py", k=4, card=card)
    extra = ["--card", card] if card else []
    cli("cubes", "domination", "7", "-k", "4", *extra, "-o", str(tmp_path / "cli"))
    spec = next(l for l in (tmp_path / "py" / "MANIFEST").read_text().splitlines() if l.startswith("# spec "))
    assert ("card=seqcounter" in spec) == bool(card), spec
    assert report["cubes"] > 1
    assert files(tmp_path / "py") == files(tmp_path / "cli")
    py_lines = (tmp_path / "py" / "jobs.txt").read_text().splitlines()
    cli_lines = (tmp_path / "cli" / "jobs.txt").read_text().splitlines()
    # Only the program differs: each line ends "job . <id>" alike.
    assert [l.split(" job ")[1] for l in py_lines] == [l.split(" job ")[1] for l in cli_lines]


def test_a_job_run_both_ways_writes_the_same_answer(tmp_path):
    for d in ("py", "cli"):
        cli("cubes", "domination", "7", "-k", "4", "-o", str(tmp_path / d))
    first = (tmp_path / "py" / "jobs.txt").read_text().split()[-1]
    got = jobs.run_job(tmp_path / "py", first)
    printed = json.loads(cli("job", str(tmp_path / "cli"), first, "--json").stdout)
    strip = lambda d: {k: v for k, v in d.items() if k not in TIMING}
    assert strip(got) == strip(printed)
    name = next((tmp_path / "py" / "results").iterdir()).name
    assert answer(tmp_path / "py" / "results" / name) == answer(tmp_path / "cli" / "results" / name)


@pytest.mark.parametrize("lex_leader,card", [(False, None), (True, None), (True, "seqcounter")])
def test_rounds_run_in_python_merge_to_the_count(tmp_path, lex_leader, card):
    d = tmp_path / "split"
    jobs.write_split(
        "domination", 7, d, k=4, depth=0, job_budget=0.001, max_depth=2, proof=True, lex_leader=lex_leader, card=card
    )
    ran = jobs.run_rounds(d, workers=2)
    assert ran["finished"], ran
    assert len(ran["driven"]) > 1, "the budget splits jobs into rounds"
    merged = jobs.merge(d, verify=True)
    assert merged["verified"] and merged["count"] == MINIMUM_DOMINATING_SETS[6]
    counted = json.loads(cli("count", "domination", "7", "-k", "4", "--json").stdout)
    assert merged["count"] == counted["count"]
    # Orbits only where the jobs counted one representative per orbit.
    assert merged.get("orbits") == (MINIMUM_DOMINATING_ORBITS[6] if lex_leader else None)
    printed = json.loads(cli("merge", str(d), "--verify", "--json").stdout)
    assert printed == merged


def error_words(*args):
    run = cli(*args, ok=(1, 2))
    line = run.stderr.strip().splitlines()[-1]
    assert line.startswith("error: ")
    return line[len("error: "):]


def test_a_cardinality_encoding_for_n_queens_is_refused_alike(tmp_path):
    words = error_words("cubes", "queens", "6", "--card", "seqcounter", "-o", str(tmp_path / "cli"))
    assert "N-queens has no bound" in words
    with pytest.raises(ValueError) as raised:
        jobs.write_split("queens", 6, tmp_path / "py", card="seqcounter")
    assert "N-queens has no bound" in str(raised.value)
    assert not (tmp_path / "cli").exists() and not (tmp_path / "py").exists()
    with pytest.raises(ValueError):
        jobs.write_split("domination", 6, tmp_path / "py", k=3, card="ladder")


def test_a_directory_that_is_no_split(tmp_path):
    words = error_words("job", str(tmp_path), "cube-00000")
    with pytest.raises(ValueError) as raised:
        jobs.run_job(tmp_path, "cube-00000")
    # The command is named in each caller's terms.
    assert str(raised.value) == words.replace("'boardsat cubes'", "boardsat.jobs.write_split()")
    with pytest.raises(ValueError):
        jobs.merge(tmp_path)
    with pytest.raises(ValueError):
        jobs.run_rounds(tmp_path)


def test_a_finished_cube_keeps_its_answer(tmp_path):
    jobs.write_split("queens", 6, tmp_path / "s", depth=1)
    first = (tmp_path / "s" / "jobs.txt").read_text().split()[-1]
    once = jobs.run_job(tmp_path / "s", first)
    again = jobs.run_job(tmp_path / "s", first)
    assert once == again
    assert cli("job", str(tmp_path / "s"), first).returncode == 0


def test_an_unknown_job(tmp_path):
    jobs.write_split("queens", 6, tmp_path / "s", depth=1)
    words = error_words("job", str(tmp_path / "s"), "no-such-cube")
    with pytest.raises(ValueError, match="no cube 'no-such-cube'") as raised:
        jobs.run_job(tmp_path / "s", "no-such-cube")
    assert str(raised.value) == words


def test_a_locked_cube(tmp_path):
    """A job another process runs (its lock held) is refused both ways,
    in the same words: BlockingIOError in Python."""
    import fcntl

    d = tmp_path / "s"
    jobs.write_split("queens", 6, d, depth=1)
    first = (d / "jobs.txt").read_text().split()[-1]
    with open(d / "results" / f"{first}.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        words = error_words("job", str(d), first)
        with pytest.raises(BlockingIOError) as raised:
            jobs.run_job(d, first)
        assert str(raised.value) == words
    assert not (d / "results" / f"{first}.json").exists()
    # Let go, the job runs.
    assert jobs.run_job(d, first)["count"] >= 0
