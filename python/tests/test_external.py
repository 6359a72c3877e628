"""External DIMACS solvers (Debian's minisat and cadical; scripts/test.sh
installs them): the same answers, and Ctrl-C stops them too."""

import _thread
import os
import shutil
import time

import pytest

import boardsat
from oeis import GAMMA, QUEENS

needs = {name: pytest.mark.skipif(shutil.which(name) is None, reason=f"{name} is not installed") for name in ("minisat", "cadical")}


@needs["minisat"]
def test_minisat_counts_and_optimises():
    result = boardsat.count("queens", 8, limit=1000, solver_cmd="minisat")
    assert (result["count"], result["complete"]) == (QUEENS[7], True)
    assert result["backend"] == "external: minisat"
    solved = boardsat.solve("domination", 6, solver_cmd="minisat")
    assert (solved["value"], solved["optimal"]) == (GAMMA[5], True)


@needs["cadical"]
def test_cadical_binary_enumerates():
    listed = list(boardsat.enumerate("queens", 6, solver="external", solver_cmd="cadical -q"))
    assert len(listed) == QUEENS[5]


@needs["minisat"]
def test_ctrl_c_stops_an_external_solver():
    interrupted = []

    def progress(count, seconds):
        if not interrupted:
            interrupted.append(time.monotonic())
            _thread.interrupt_main()

    with pytest.raises(KeyboardInterrupt):
        boardsat.count("queens", 16, limit=10**9, solver_cmd="minisat", progress=progress, time_limit=120)
    assert interrupted and time.monotonic() - interrupted[0] < 5
    # The solver process was stopped and waited for: this process has no
    # child left, running or unreaped.
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)
