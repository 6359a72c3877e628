"""Stopping: Ctrl-C (KeyboardInterrupt) stops the solver promptly, and a
time limit gives a result that claims nothing it did not prove."""

import _thread
import os
import signal
import threading
import time

import pytest

import boardsat


LINUX = os.path.isdir("/proc/self/task")
needs_proc = pytest.mark.skipif(not LINUX, reason="reads the solver threads in Linux's /proc")
TICK = os.sysconf("SC_CLK_TCK") if LINUX else 100


def solver_threads():
    """The CPU seconds of each of boardsat's solver threads (they are named
    boardsat*, and the threads they start inherit the name)."""
    seconds = []
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/comm") as f:
                if not f.read().startswith("boardsat"):
                    continue
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):  # the thread ended meanwhile
            continue
        seconds.append((int(fields[11]) + int(fields[12])) / TICK)
    return seconds


def no_solver_threads_left(seconds=10):
    deadline = time.monotonic() + seconds
    while solver_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    return not solver_threads()


def interrupt_once_solving(cpu_seconds=0.2):
    """Starts a thread that sends Ctrl-C to the main thread once the solver
    threads have run for `cpu_seconds`, so the solve is certainly under way;
    returns the thread and a list that gets the time it fired."""
    fired = []

    def watch():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if sum(solver_threads()) >= cpu_seconds:
                fired.append(time.monotonic())
                _thread.interrupt_main()
                return
            time.sleep(0.01)
        # No solver thread seen: stop the call anyway, so that the test
        # fails (nothing in `fired`) rather than hangs.
        _thread.interrupt_main()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread, fired


def send_sigint():
    """A real SIGINT to this process, as a terminal's Ctrl-C sends."""
    os.kill(os.getpid(), signal.SIGINT)


@needs_proc
@pytest.mark.parametrize(
    "options,interrupt",
    [
        ({"threads": 2}, _thread.interrupt_main),
        ({"threads": 2}, send_sigint),
        ({"limit": 10**9}, _thread.interrupt_main),
        ({"limit": 10**9, "solver": "varisat"}, send_sigint),
    ],
)
def test_ctrl_c_during_a_count_raises_keyboard_interrupt_promptly(options, interrupt):
    # 16-queens has 14,772,512 placements: minutes of counting. The
    # interrupt comes once the count is under way (its first progress call),
    # as Ctrl-C would: the signal handler runs on the main thread.
    interrupted = []

    def progress(count, seconds):
        if not interrupted:
            interrupted.append(time.monotonic())
            interrupt()

    with pytest.raises(KeyboardInterrupt):
        # The time limit only bounds a failing test; the interrupt comes first.
        boardsat.count("queens", 16, progress=progress, time_limit=120, **options)
    assert interrupted, "the count never reported progress"
    assert time.monotonic() - interrupted[0] < 5
    # The solver threads have ended: nothing runs on in the background.
    assert no_solver_threads_left()


@needs_proc
def test_ctrl_c_during_a_long_solve():
    # The proof that 7 queens cannot dominate Q_14 takes far longer than
    # the test waits.
    watcher, fired = interrupt_once_solving()
    with pytest.raises(KeyboardInterrupt):
        boardsat.solve("domination", 14, k=7, time_limit=120)
    stopped = time.monotonic()
    watcher.join()
    assert stopped - fired[0] < 5
    assert no_solver_threads_left()


@needs_proc
def test_ctrl_c_during_next_stops_the_enumeration():
    # The optimum is proven on next(); the time limit only bounds a failure.
    placements = boardsat.enumerate("domination", 14, time_limit=120)
    watcher, fired = interrupt_once_solving()
    with pytest.raises(KeyboardInterrupt):
        next(placements)
    assert time.monotonic() - fired[0] < 5
    watcher.join()
    assert placements.complete is False and placements.stopped == "interrupted"
    assert next(placements, None) is None
    del placements
    assert no_solver_threads_left()


def test_an_exception_in_progress_stops_the_count_and_is_raised():
    calls = []

    def progress(count, seconds):
        calls.append(count)
        raise ValueError("enough")

    start = time.monotonic()
    with pytest.raises(ValueError, match="enough"):
        boardsat.count("queens", 16, threads=1, progress=progress, time_limit=120)
    assert len(calls) == 1
    assert time.monotonic() - start < 30


def test_progress_sees_the_count_grow():
    seen = []
    result = boardsat.count("queens", 10, limit=10**6, progress=lambda c, s: seen.append((c, s)))
    assert result["count"] == 724
    assert seen and seen[0][0] >= 1
    assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in zip(seen, seen[1:]))


def test_time_limit_on_a_solve_claims_nothing():
    start = time.monotonic()
    result = boardsat.solve("domination", 14, k=7, time_limit=0.3)
    assert time.monotonic() - start < 5
    assert result["status"] == "unknown"
    assert result["stopped"] == "time limit"
    assert result["placement"] is None and result["value"] is None


def test_a_time_limit_before_any_solver_ran_returns_the_same_keys():
    # A limit that passes while the board is still encoded (1 us here; a
    # short one on a loaded machine) returns an unknown result with the
    # keys a result stopped in the search has, instead of raising.
    solved = boardsat.solve("domination", 14, k=7, time_limit=1e-6)
    assert (solved["status"], solved["stopped"]) == ("unknown", "time limit")
    assert solved["placement"] is None and solved["value"] is None and solved["optimal"] is None
    optimum = boardsat.solve("domination", 14, time_limit=1e-6)
    assert optimum["optimal"] is False and optimum["placement"] is None
    counted = boardsat.count("domination", 14, time_limit=1e-6)
    assert (counted["status"], counted["stopped"], counted["complete"]) == ("unknown", "time limit", False)
    assert counted["count"] == 0 and counted["optimum"] is None


def test_time_limit_on_an_optimum_claims_no_optimality():
    result = boardsat.solve("domination", 14, time_limit=0.5)
    assert result["status"] == "unknown"
    assert result["optimal"] is False
    assert result["stopped"] == "time limit"
    # The best placement found is still a real one.
    if result["placement"] is not None:
        assert boardsat.check("domination", 14, result["placement"], k=result["value"])


def test_time_limit_on_a_count_gives_a_lower_bound():
    result = boardsat.count("queens", 16, threads=1, time_limit=0.5)
    assert result["complete"] is False
    assert result["stopped"] == "time limit"
    assert 0 <= result["count"] < 14772512  # A000170(16)
    result = boardsat.count("queens", 16, limit=10**9, time_limit=0.5)
    assert (result["complete"], result["limit_reached"], result["stopped"]) == (False, False, "time limit")


def test_time_limit_before_the_optimum_counts_nothing():
    result = boardsat.count("domination", 14, time_limit=0.3)
    assert result["complete"] is False
    assert result["optimum"] is None
    assert result["count"] == 0
    assert result["stopped"] == "time limit"


def test_time_limit_ends_an_enumeration_quietly_and_says_so():
    placements = boardsat.enumerate("queens", 16, time_limit=0.3)
    start = time.monotonic()
    listed = sum(1 for _ in placements)
    assert time.monotonic() - start < 5
    assert listed < 14772512
    assert placements.complete is False
    assert placements.stopped == "time limit"
