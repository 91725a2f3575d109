"""Signals to a simulation on `process_pool` leave no process behind (issue 14 item 7).

A subprocess runs a long simulation on `tienlen.simulation.process_pool`; once its
workers run, it gets a real SIGINT (Ctrl-C), SIGTERM or SIGKILL. It must exit
promptly, and every process it started must be gone, checked in the process table
(``/proc``, so these tests run on Linux only). Leaving the pool, normally or by
an exception, also leaves none of its threads running.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tienlen import CLASSIC, RandomPlayer, simulate
from tienlen.simulation import process_pool

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc"
)

SCRIPT = """
import signal

# Ctrl-C raises KeyboardInterrupt, as in a terminal, even when the tests run in a
# background job, whose children inherit SIGINT ignored (POSIX, without job control).
signal.signal(signal.SIGINT, signal.default_int_handler)

from tienlen import CLASSIC, RandomPlayer, simulate
from tienlen.simulation import process_pool

with process_pool(2) as pool:
    simulate(10**5, rules=CLASSIC, players=[RandomPlayer()] * 4, seed=1,
             batch_size=25, executor=pool)
"""


def children(pid: int) -> set[int]:
    """The processes whose parent is *pid*, from the process table."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found.update(map(int, (task / "children").read_text().split()))
        except OSError:  # the task ended meanwhile
            continue
    return found


def alive(pid: int) -> bool:
    """Whether *pid* is a running process (a zombie has finished)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def wait_for(condition: object, seconds: float) -> bool:
    """Poll *condition* (a callable) until it is true or *seconds* have passed."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize(
    ("signum", "status"),
    [
        (signal.SIGINT, -signal.SIGINT),
        (signal.SIGTERM, 143),
        (signal.SIGKILL, -signal.SIGKILL),
    ],
    ids=["SIGINT", "SIGTERM", "SIGKILL"],
)
def test_a_signal_leaves_no_worker_behind(signum: int, status: int) -> None:
    """Ctrl-C, SIGTERM and even SIGKILL of the parent stop every worker process."""
    parent = subprocess.Popen(  # noqa: S603 - our own interpreter and script
        [sys.executable, "-c", SCRIPT],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        assert wait_for(lambda: len(children(parent.pid)) >= 2, 60), "no workers"
        time.sleep(0.3)  # the workers are playing games now
        workers = children(parent.pid)
        parent.send_signal(signum)
        parent.wait(timeout=30)
    finally:
        if parent.poll() is None:  # pragma: no cover - only when the test fails
            parent.kill()
            parent.wait()
    assert parent.stderr is not None
    stderr = parent.stderr.read().decode()
    parent.stderr.close()
    assert parent.returncode == status, stderr
    assert wait_for(lambda: not any(map(alive, workers)), 10), [
        pid for pid in workers if alive(pid)
    ]


@pytest.mark.parametrize("leave", ["normally", "by an exception"])
def test_leaving_the_pool_leaves_none_of_its_threads_running(leave: str) -> None:
    """The pool's own threads are gone when the ``with`` block is left.

    A thread still closing the pool's pipes when the program exits races Python's
    exit hook for those pipes (``OSError: [Errno 9] Bad file descriptor`` printed
    after Ctrl-C's one line).
    """
    before = set(threading.enumerate())
    with contextlib.suppress(KeyboardInterrupt), process_pool(2) as pool:
        simulate(
            40,
            rules=CLASSIC,
            players=[RandomPlayer()] * 4,
            seed=1,
            batch_size=10,
            executor=pool,
        )
        if leave == "by an exception":
            raise KeyboardInterrupt
    assert set(threading.enumerate()) <= before
