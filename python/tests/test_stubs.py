"""The type stubs (boardsat.pyi) agree with the module: mypy's stubtest
compares every name, signature and default with the compiled module."""

import os
import subprocess
import sys

import boardsat


def test_stubs_match_the_module(tmp_path):
    allowlist = os.path.join(os.path.dirname(__file__), "stubtest-allowlist.txt")
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "boardsat", "--allowlist", allowlist],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # mypy's cache goes there, not into the source tree
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_package_is_typed_and_documented():
    package = os.path.dirname(boardsat.__file__)
    assert os.path.exists(os.path.join(package, "py.typed"))
    assert os.path.exists(os.path.join(package, "__init__.pyi"))
    for name in boardsat.__all__:
        if callable(getattr(boardsat, name)):
            assert getattr(boardsat, name).__doc__, name
