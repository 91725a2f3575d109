"""Simulate on Ray or Dask, whichever is installed: the same stats as a serial run.

Run it from the repository root::

    .venv/bin/python examples/simulate_ray_dask.py

`tienlen` depends on neither. `tienlen.simulate` accepts any executor with an
order-keeping ``map(fn, iterable)``: Ray's ``ray.util.multiprocessing.Pool`` and a
Dask client's ``get_executor()`` both have one. Each runs here on two local worker
processes; pointed at a cluster, the same call scales out. Without Ray or Dask the
script says so and exits 0. They are imported with `importlib`, so type checking needs
neither them nor their stubs.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import time
from collections.abc import Callable

from tienlen import (
    CLASSIC,
    GreedyPlayer,
    MapExecutor,
    Player,
    RandomPlayer,
    SimulationStats,
    simulate,
)

PLAYERS: list[Player] = [GreedyPlayer(), RandomPlayer(), RandomPlayer(), RandomPlayer()]
GAMES = 500
SEED = 7
WORKERS = 2


def run(executor: MapExecutor | None) -> SimulationStats:
    """The example's simulation on *executor* (``None``: serially, here)."""
    return simulate(GAMES, rules=CLASSIC, players=PLAYERS, seed=SEED, executor=executor)


def with_ray() -> SimulationStats:
    """Run the batches on a local Ray pool (``ray.util.multiprocessing.Pool``)."""
    ray = importlib.import_module("ray")
    ray.init(num_cpus=WORKERS, include_dashboard=False, log_to_driver=False)
    try:
        pool_module = importlib.import_module("ray.util.multiprocessing")
        pool = pool_module.Pool(processes=WORKERS)
        try:
            executor: MapExecutor = pool
            return run(executor)
        finally:
            pool.terminate()
    finally:
        ray.shutdown()


def with_dask() -> SimulationStats:
    """Run the batches on a local Dask cluster, through the client's executor."""
    distributed = importlib.import_module("dask.distributed")
    with distributed.Client(
        n_workers=WORKERS, threads_per_worker=1, dashboard_address=None
    ) as client:
        executor: MapExecutor = client.get_executor()
        return run(executor)


BACKENDS: dict[str, tuple[str, Callable[[], SimulationStats]]] = {
    "Ray": ("ray", with_ray),
    "Dask": ("distributed", with_dask),
}
"""Each backend: the module that must be importable, and how to run on it."""


def main() -> int:
    """Run on every installed backend; 0 unless a backend's stats differ."""
    installed = {
        name: runner
        for name, (module, runner) in BACKENDS.items()
        if importlib.util.find_spec(module) is not None
    }
    for name in BACKENDS:
        if name not in installed:
            print(f"{name} is not installed: skipped")
    if not installed:
        print("neither Ray nor Dask is installed; nothing to run (exit 0)")
        return 0
    start = time.perf_counter()
    serial = run(None)
    print(f"serial: {GAMES} games in {time.perf_counter() - start:.2f} s")
    status = 0
    for name, runner in installed.items():
        start = time.perf_counter()
        stats = runner()
        elapsed = time.perf_counter() - start
        same = stats == serial
        print(f"{name}: {GAMES} games in {elapsed:.2f} s (cluster start-up included)")
        print(
            f"{name}: stats {'identical to' if same else 'DIFFER from'} the serial run"
        )
        status |= not same
    print(serial.summary())
    return status


if __name__ == "__main__":
    sys.exit(main())
