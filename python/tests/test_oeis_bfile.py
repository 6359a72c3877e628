"""The OEIS b-files (issue 52): scripts/oeis-bfile.py writes b002564.txt and
b002563.txt from the OEIS data and docs/results, equal to OEIS where OEIS
is right, never past a missing term, and never choosing silently where a
certified result and OEIS disagree — as they do at A002563(16), whose
orbits are recomputed here from the published placements with code of
this file's own."""

import json
import shutil
import subprocess
import sys

import pytest

from binary import REPO

SCRIPT = REPO / "scripts" / "oeis-bfile.py"
RESULTS = REPO / "docs" / "results"
OEIS = RESULTS / "oeis"

# The OEIS data lines as of 2026, n = 1.. (typed here from the OEIS pages,
# apart from the script's own data file).
A002564 = [1, 4, 1, 12, 186, 4, 86, 4860, 114, 8, 2, 8, 288, 4632, 205832, 2968, 124, 16, 84]
A002563 = [1, 1, 1, 3, 37, 1, 13, 638, 21, 1, 1, 1, 41, 588, 25872, 43, 22, 2]
# A075458, gamma(Q_n), n = 1..16: the size of a minimum dominating set.
GAMMA = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8, 9, 9]


def bfile(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)],
                          capture_output=True, text=True, timeout=600)


def terms(path):
    """A b-file's (n, a(n)) lines, its comments apart."""
    lines = [l for l in path.read_text().splitlines() if l and not l.startswith("#")]
    out = [tuple(map(int, l.split())) for l in lines]
    assert all(len(t) == 2 for t in out), lines
    return out


def written(tmp_path, *args):
    run = bfile("-o", tmp_path, *args)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    return run.stdout, terms(tmp_path / "b002564.txt"), terms(tmp_path / "b002563.txt")


def refused(run, what, code=2):
    assert "Traceback" not in run.stderr, run.stderr
    assert run.returncode == code, (run.returncode, run.stderr)
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and what in lines[0], run.stderr


def certified_ns():
    """The n of every A002564 results file."""
    return sorted(json.loads(p.read_text())["n"] for p in RESULTS.glob("*.json")
                  if json.loads(p.read_text())["sequence"] == "A002564")


def value(n):
    """A002564(n) as the A002564-n results file gives it."""
    return json.loads((RESULTS / f"A002564-{n}.json").read_text())["value"]


def orbits(n):
    """A002563(n) as the A002564-n results file gives it."""
    return json.loads((RESULTS / f"A002564-{n}.json").read_text())["orbits"]


def test_b002564_is_the_oeis_data_and_stops_at_the_gap(tmp_path):
    report, b64, _ = written(tmp_path)
    assert b64[:19] == list(enumerate(A002564, start=1))
    # Consecutive from 1, up to the first n with neither an OEIS term nor a results file.
    last = len(b64)
    assert [n for n, _ in b64] == list(range(1, last + 1))
    assert last + 1 not in certified_ns()
    assert f"A002564: ends at n = {last}: a({last + 1}) is missing" in report
    # Every certified term past the gap is held back, each missing n named.
    later = [n for n in certified_ns() if n > last]
    if later:
        held = next(l for l in report.splitlines() if l.startswith("A002564: held back"))
        assert all(f"a({n}) = " in held for n in later), held
        gaps = [n for n in range(last + 1, later[-1]) if n not in certified_ns()]
        assert held.endswith("missing: " + ", ".join(f"a({n})" for n in gaps)), held
    # Today: a(21) = 160 and a(23) = 8 are certified, a(20) and a(22) missing.
    if 20 not in certified_ns():
        assert "a(21) = 160" in report and "missing: a(20), a(22)" in report


def test_the_committed_b_files_are_the_script_s(tmp_path):
    written(tmp_path)
    for name in ("b002564.txt", "b002563.txt"):
        assert (OEIS / name).read_text() == (tmp_path / name).read_text(), name


def written_from_16(tmp_path, known64, known63, without, *args):
    """The b-files written from A002564-16.json alone as the results, OEIS's
    first `known64` and `known63` terms, and `without` as the terms
    certified without a results file."""
    results = tmp_path / "results"
    results.mkdir()
    shutil.copy(RESULTS / "A002564-16.json", results)
    data = json.loads((OEIS / "published.json").read_text())
    data["A002564"]["terms"] = A002564[:known64]
    data["A002563"]["terms"] = A002563[:known63]
    data["certified_without_file"] = {"source": "a test", **without}
    published = tmp_path / "published.json"
    published.write_text(json.dumps(data))
    out = tmp_path / "out"
    out.mkdir()
    return written(out, "--results", results, "--published", published, *args)


def test_a_gap_holds_back_every_term_after_it(tmp_path):
    """OEIS knows 1..14 only, boardsat certified 16: the file ends at 14
    and names 15 as missing; 16 is not written."""
    report, b64, b63 = written_from_16(tmp_path, 14, 14, {"A002564": {}, "A002563": {}})
    assert b64 == list(enumerate(A002564[:14], start=1))
    assert b63 == list(enumerate(A002563[:14], start=1))
    assert "A002564: ends at n = 14: a(15) is missing" in report
    assert "a(16) = 2968" in report and "missing: a(15)" in report


def symmetries(n):
    return [
        lambda r, c: (r, c), lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - r, n - 1 - c), lambda r, c: (n - 1 - c, r),
        lambda r, c: (r, n - 1 - c), lambda r, c: (n - 1 - r, c),
        lambda r, c: (c, r), lambda r, c: (n - 1 - c, n - 1 - r),
    ]


def dominates(n, queens):
    """Every square of the n x n board is occupied or attacked."""
    return all(
        any(r == q or c == p or r - c == q - p or r + c == q + p for q, p in queens)
        for r in range(n) for c in range(n)
    )


def test_a002563_16_is_371_not_43():
    """The published placements of A002564(16): 2968 distinct minimum
    dominating sets, hence at least 2968/8 = 371 orbits, and exactly 371
    classes under the 8 symmetries; OEIS's 43 cannot be."""
    result = json.loads((RESULTS / "A002564-16.json").read_text())
    n = result["n"]
    sets = {frozenset(map(tuple, p)) for p in result["placements"]}
    assert len(sets) == len(result["placements"]) == A002564[n - 1] == 2968
    assert all(len(s) == GAMMA[n - 1] and dominates(n, s) for s in sets)
    classes = {min(tuple(sorted(f(r, c) for r, c in s)) for f in symmetries(n)) for s in sets}
    assert len(classes) == 371
    assert -(-len(sets) // 8) == 371 > A002563[n - 1] == 43


def test_the_disagreement_at_a002563_16_is_flagged_never_chosen(tmp_path):
    report, _, b63 = written(tmp_path)
    # By default the file stops before the disagreement, and says why.
    assert b63 == list(enumerate(A002563[:15], start=1))
    assert "A002563: ends at n = 15: a(16) stops it: OEIS and the certified result disagree" in report
    flagged = next(l for l in report.splitlines() if l.startswith("disagreement: A002563(16)"))
    assert "OEIS has 43, boardsat certified 371" in flagged, flagged
    assert "2968 distinct minimum dominating sets" in flagged and "ceil(2968/8) = 371 > 43" in flagged, flagged
    # Asked, it writes the certified value, flagged as a correction.
    out = tmp_path / "certified"
    out.mkdir()
    report, b64, b63 = written(out, "--prefer", "certified")
    assert b64[:len(A002564)] == list(enumerate(A002564, start=1))
    # Past OEIS's last term, each line is a results file's value, consecutively.
    assert b64[len(A002564):] == [(n, value(n)) for n in range(len(A002564) + 1, len(b64) + 1)]
    assert len(b64) + 1 not in certified_ns()
    oeis = [(n, 371 if n == 16 else v) for n, v in enumerate(A002563, start=1)]
    assert b63[:len(oeis)] == oeis
    # Past OEIS's last term, each line is a results file's orbits, consecutively.
    assert b63[len(oeis):] == [(n, orbits(n)) for n in range(len(oeis) + 1, len(b63) + 1)]
    assert len(b63) + 1 not in certified_ns()
    assert any(l.startswith("correction: A002563(16) = 371 written, not OEIS's 43") for l in report.splitlines())
    assert "a(16) = 371 corrects OEIS's 43" in (out / "b002563.txt").read_text().splitlines()[0]


def test_a_term_without_a_results_file_is_named_never_written(tmp_path):
    """A term certified by a run whose results file was never written
    (published.json's `certified_without_file`) is reported as needing one
    and is not written: the file still ends before it."""
    without = {"A002564": {"17": 124}, "A002563": {"17": 22}}
    report, b64, b63 = written_from_16(tmp_path, 16, 15, without, "--prefer", "certified")
    assert b64 == list(enumerate(A002564[:16], start=1))
    assert b63 == [(n, 371 if n == 16 else v) for n, v in enumerate(A002563[:16], start=1)]
    assert "A002564: ends at n = 16: a(17) is missing (certified by an earlier run: it needs a results file)" in report
    assert "needs a results file: A002564(17) = 124, certified by an earlier run without one" in report
    assert "needs a results file: A002563(17) = 22" in report


def test_every_disagreement_is_reported(tmp_path):
    """A certified A002564 term that OEIS has otherwise stops the file there."""
    data = json.loads((OEIS / "published.json").read_text())
    data["A002564"]["terms"][15] = 2969
    published = tmp_path / "published.json"
    published.write_text(json.dumps(data))
    report, b64, _ = written(tmp_path, "--published", published)
    assert b64 == list(enumerate(A002564[:15], start=1))
    assert "disagreement: A002564(16): OEIS has 2969, boardsat certified 2968" in report


@pytest.fixture()
def results(tmp_path):
    folder = tmp_path / "results"
    folder.mkdir()
    shutil.copy(RESULTS / "A002564-23.json", folder)
    return folder


def test_bad_input_is_one_line(tmp_path, results):
    out = tmp_path / "out"
    out.mkdir()
    path = results / "A002564-23.json"
    good = json.loads(path.read_text())

    def with_(change):
        r = json.loads(json.dumps(good))
        change(r)
        path.write_text(json.dumps(r))
        return bfile("-o", out, "--results", results)

    refused(with_(lambda r: r.update(orbits=3)), "2 classes under the 8 symmetries, its orbits say 3")
    refused(with_(lambda r: r.update(value=9)), "its value says 9")
    refused(with_(lambda r: r["placements"].append(r["placements"][0])), "distinct placements")
    refused(with_(lambda r: r.update(verify="NOT verified: a claim is missing")), "not verified", code=1)
    refused(with_(lambda r: r.pop("orbits")), "no 'orbits'")
    path.write_text("{")
    refused(bfile("-o", out, "--results", results), "not JSON")
    assert not list(out.iterdir()), "nothing is written on bad input"
    refused(bfile("-o", tmp_path / "missing"), "does not exist")
    refused(bfile("-o", out, "--published", tmp_path / "none.json"), "cannot read")
    refused(bfile("-o", out, "--prefer", "oeis"), "invalid choice")
