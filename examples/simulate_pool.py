"""Simulate on a process pool: the same stats as a serial run, in less time.

Run it from the repository root, optionally naming a number of games and workers::

    .venv/bin/python examples/simulate_pool.py            # 1,000 games, 2 workers
    .venv/bin/python examples/simulate_pool.py 20000 4

`tienlen.simulate` splits the games into batches of 250 and seeds batch ``i`` from
``(seed, i)``, so the pool's result is identical to the serial one. The pool is
`tienlen.simulation.process_pool`: a dead worker raises instead of hanging, and Ctrl-C
or SIGTERM stops every worker. It must be created under ``if __name__ == "__main__":``
(worker processes import this module).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

from tienlen import CLASSIC, GreedyPlayer, Player, RandomPlayer, simulate
from tienlen.simulation import process_pool

PLAYERS: list[Player] = [GreedyPlayer(), RandomPlayer(), RandomPlayer(), RandomPlayer()]
SEED = 7


def main(argv: Sequence[str]) -> int:
    """Time a serial and a pooled simulation; 0 when their stats are identical."""
    games = int(argv[0]) if argv else 1_000
    workers = int(argv[1]) if len(argv) > 1 else 2
    start = time.perf_counter()
    serial = simulate(games, rules=CLASSIC, players=PLAYERS, seed=SEED)
    serial_time = time.perf_counter() - start
    with process_pool(workers) as pool:
        start = time.perf_counter()
        pooled = simulate(
            games, rules=CLASSIC, players=PLAYERS, seed=SEED, executor=pool
        )
        pool_time = time.perf_counter() - start
    print(pooled.summary())
    print(f"serial:    {serial_time:6.2f} s  {games / serial_time:7.0f} games/s")
    print(f"{workers} workers: {pool_time:6.2f} s  {games / pool_time:7.0f} games/s")
    print(f"speedup:   {serial_time / pool_time:.2f}x (pool start-up not counted)")
    same = serial == pooled
    print("serial and pooled stats are identical" if same else "stats DIFFER")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
