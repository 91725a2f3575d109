"""Private: the set-up of a worker process, shared by the process pools.

`tienlen.simulation.process_pool` and the server's search-bot pool
(`tienlen.server.tables.process_workers`) start their workers with `start_worker`.
It changes the process's signal handlers and may end the process: it is for a
pool's initializer only, never for the caller's own process.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from os import _exit as exit_now
from typing import Final

__all__ = ["start_worker"]

_PR_SET_PDEATHSIG: Final = 1
"""Linux ``prctl`` option: the signal a process gets when its parent dies."""


def start_worker(parent: int, niceness: int = 0) -> None:
    """Set up a worker process of a pool (its ``initializer``).

    Ctrl-C is for the parent, which stops the workers itself; SIGTERM gets its
    default action back (a forked worker inherits the parent's handler); on Linux the
    worker is killed when its parent dies, even by SIGKILL. A positive *niceness*
    lowers the worker's CPU priority (the server's search bots think at +10).

    Args:
        parent: The process id of the parent, ``os.getpid()`` where the pool is made.
        niceness: How much lower than the parent the worker runs (``os.nice``).

    Example:
        >>> from concurrent.futures import ProcessPoolExecutor
        >>> with ProcessPoolExecutor(1, initializer=start_worker, initargs=(os.getpid(), 5)) as pool:
        ...     pool.submit(os.nice, 0).result() >= 5
        True
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform == "linux":
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the line above
        exit_now(1)
    if niceness:
        os.nice(niceness)
