"""What the command line offers, Python offers on the same road: proof= on
solve and count writes the proofs that --proof writes, verify(dir) checks
them as `boardsat verify` does, and a placement draws itself."""

import json

import pytest

import boardsat


def test_a_solved_optimum_is_proven_and_verified(tmp_path):
    proof = tmp_path / "p"
    result = boardsat.solve("domination", 6, proof=str(proof))
    assert result["value"] == 3 and result["optimal"] is True
    assert result["proof"]["dir"] == str(proof) and result["proof"]["claims"] > 0
    checked = boardsat.verify(str(proof))
    assert checked["verified"] is True, checked
    assert "minimum" in checked["result"]["sentence"] or "3" in checked["result"]["sentence"]


def test_a_count_is_proven_and_verified(tmp_path):
    for family, n, count in [("queens", 6, 4), ("domination", 5, 186)]:
        proof = tmp_path / family
        result = boardsat.count(family, n, proof=proof)
        assert result["count"] == count and result["proof"]["claims"] > 0
        checked = boardsat.verify(proof)
        assert checked["verified"] is True, checked


def test_a_proof_directory_is_not_overwritten_unless_replaced(tmp_path):
    proof = tmp_path / "p"
    boardsat.solve("queens", 3, proof=proof)
    with pytest.raises(ValueError) as raised:
        boardsat.solve("queens", 3, proof=proof)
    assert "replace=True" in str(raised.value) and "--" not in str(raised.value)
    assert boardsat.solve("queens", 3, proof=proof, replace=True)["status"] == "unsat"
    assert boardsat.verify(proof)["verified"] is True
    with pytest.raises(ValueError):
        boardsat.solve("queens", 3, replace=True)


def test_verify_refuses_what_is_not_a_proof_directory(tmp_path):
    with pytest.raises(ValueError):
        boardsat.verify(tmp_path)
    (tmp_path / "MANIFEST.json").write_text("{}")
    with pytest.raises(ValueError):
        boardsat.verify(tmp_path)


def test_a_stopped_proof_run_does_not_verify(tmp_path):
    # Stopped by a condition, not by a clock: after its first cube.
    proof = tmp_path / "p"
    result = boardsat.count("queens", 12, proof=proof, threads=1, stop_after_cubes=1)
    assert not result["complete"] and result["stopped"] == "interrupted", result
    checked = boardsat.verify(proof)
    assert checked["verified"] is False and "not proven" in checked["result"]["reason"]


def test_a_placement_draws_itself():
    placement = next(boardsat.enumerate("queens", 6))
    assert isinstance(placement, boardsat.Placement) and isinstance(placement, list)
    assert placement._repr_svg_().startswith("<svg") and placement.svg() == placement._repr_svg_()
    assert len(placement.text().splitlines()) == 6
    solved = boardsat.solve("domination", 5)
    assert isinstance(solved["placement"], boardsat.Placement)
    # The same type of square wherever a placement comes from.
    assert all(isinstance(square, tuple) for square in solved["placement"])
    assert boardsat.solve("queens", 6)["placement"] in list(boardsat.enumerate("queens", 6))
    assert "<svg" in boardsat.draw("domination", 5, solved["placement"])
    text = boardsat.draw("queens", 4, [(0, 1), (1, 3), (2, 0), (3, 2)], format="text")
    assert len(text.splitlines()) == 4
    with pytest.raises(ValueError):
        boardsat.draw("queens", 4, [(0, 9)])
    with pytest.raises(ValueError):
        boardsat.draw("queens", 4, [(0, 1)], format="png")


def _stopped_half_way(full, cut):
    """A copy of the finished proof run in `full` as if it had stopped half
    way: every other cube claim of its count gone, its status interrupted."""
    import shutil

    shutil.copytree(full, cut, ignore=shutil.ignore_patterns(".boardsat-lock"))
    manifest = json.loads((cut / "MANIFEST.json").read_text())
    cubes = [c for c in manifest["claims"] if c["kind"] == "complete"]
    gone = cubes[1::2]
    for claim in gone:
        (cut / claim["cnf"]).unlink()
        (cut / claim["proof"]).unlink()
    manifest["claims"] = [c for c in manifest["claims"] if c not in gone]
    manifest["status"] = "interrupted"
    manifest.pop("result", None)
    (cut / "MANIFEST.json").write_text(json.dumps(manifest))
    return [c["name"] for c in cubes if c not in gone]


def test_a_stopped_count_resumes_as_the_command_line_does(tmp_path):

    full, cut = tmp_path / "full", tmp_path / "cut"
    assert boardsat.count("domination", 8, proof=full, cube_budget=0.001)["count"] == 4860
    kept = _stopped_half_way(full, cut)
    before = {name: (cut / f"{name}.lrat").read_bytes() for name in kept}
    result = boardsat.count("domination", 8, proof=cut, cube_budget=0.001, resume=True)
    assert result["count"] == 4860 and result["complete"] is True
    assert boardsat.verify(cut)["verified"] is True
    names = [c["name"] for c in json.loads((cut / "MANIFEST.json").read_text())["claims"]]
    for name, proof in before.items():
        assert name in names and (cut / f"{name}.lrat").read_bytes() == proof
    with pytest.raises(ValueError) as raised:
        boardsat.count("domination", 8, proof=full, resume=True)
    assert "complete" in str(raised.value)
    with pytest.raises(ValueError):
        boardsat.count("domination", 8, resume=True)
    with pytest.raises(ValueError):
        boardsat.count("domination", 8, proof=cut, resume=True, replace=True)


def test_binary_compressed_proofs_are_written_and_verified_as_the_command_line_does(tmp_path):
    plain, packed = tmp_path / "plain", tmp_path / "packed"
    assert boardsat.count("domination", 7, proof=plain)["count"] == 86
    result = boardsat.count(
        "domination", 7, proof=packed, proof_format="binary", proof_compression="zstd"
    )
    assert result["count"] == 86
    assert boardsat.verify(packed)["verified"] is True
    claims = json.loads((packed / "MANIFEST.json").read_text())["claims"]
    traced = [c for c in claims if c["format"] == "lrat-binary"]
    assert traced and all(c["proof"].endswith(".lrat.zst") for c in traced)
    size = lambda d: sum(c["proof_bytes"] for c in json.loads((d / "MANIFEST.json").read_text())["claims"])
    assert size(packed) < size(plain)
    for bad in ({"proof_format": "xml"}, {"proof_compression": "xz"}):
        with pytest.raises(ValueError):
            boardsat.count("domination", 7, proof=tmp_path / "bad", **bad)
    with pytest.raises(ValueError) as raised:
        boardsat.solve("domination", 7, proof_compression="zstd")
    assert "proof=" in str(raised.value)



def test_verify_runs_an_external_checker_on_every_claim(tmp_path):
    # A checker boardsat did not write adds to the verdict: one that
    # rejects makes a sound directory not verified, one that cannot run
    # accepts nothing, and the report names the checker.
    proof = tmp_path / "p"
    boardsat.count("domination", 5, proof=proof, proof_format="binary")
    accepts = tmp_path / "accepts"
    accepts.write_text("#!/bin/sh\necho 's VERIFIED UNSAT'\n")
    accepts.chmod(0o755)
    rejects = tmp_path / "rejects"
    rejects.write_text("#!/bin/sh\nexit 1\n")
    rejects.chmod(0o755)
    checked = boardsat.verify(proof, checker=accepts)
    assert checked["verified"] is True, checked
    assert checked["external_checker"]["name"] == "accepts"
    assert checked["external_checker"]["accepted"] > 0
    refused = boardsat.verify(proof, checker=rejects)
    assert refused["verified"] is False
    assert "rejects (" in refused["result"]["reason"]
    missing = boardsat.verify(proof, checker=tmp_path / "missing")
    assert missing["verified"] is False
    assert "does not exist" in missing["result"]["reason"]
    with pytest.raises(ValueError):
        boardsat.verify(proof, checker=accepts, checker_timeout=-1)


def test_verify_with_a_record_checks_each_proof_once(tmp_path):
    # verify(record=) is the CLI's --record: the first check adds every
    # proof it accepts, the next takes them all from the record and still
    # verifies; a proof cut short since is checked again (and refused), and
    # a record that is not a regular file is a ValueError.
    proof = tmp_path / "p"
    boardsat.count("domination", 5, proof=proof, proof_format="binary")
    record = tmp_path / "record"
    first = boardsat.verify(proof, record=record)
    assert first["verified"] is True, first
    added = first["record"]["added"]
    assert added > 0 and first["record"]["reused"] == 0
    assert record.read_text().splitlines()[0] == "c boardsat verify record 1"
    again = boardsat.verify(proof, record=record)
    assert again["verified"] is True
    assert (again["record"]["reused"], again["record"]["added"]) == (added, 0)
    claims = json.loads((proof / "MANIFEST.json").read_text())["claims"]
    traced = next(c for c in claims if c.get("proof"))
    path = proof / traced["proof"]
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    forged = boardsat.verify(proof, record=record)
    assert forged["verified"] is False
    assert forged["record"]["reused"] == added - 1
    with pytest.raises(ValueError) as raised:
        boardsat.verify(proof, record=tmp_path)
    assert "not a regular file" in str(raised.value)
