"""The hot rows of two or more checkouts side by side: did a change make the package slower?

A ratio to P taken in separate runs carries the noise of both runs; this script instead
times the same loops of several checkouts (git worktrees) in *alternating child
processes* on the same inputs, and prints each checkout's time over the first one's.
Each child imports ``tienlen`` and the benchmark loops from its own checkout, runs
every row a few times and keeps the fastest batch (process CPU time). The driver
reverses the order of the checkouts every other round, takes each round's ratio to the
first checkout and prints the median of those ratios.

Run from the repository root, with a worktree of the older commit beside it::

    git worktree add --detach /tmp/before 44c6aa1
    .venv/bin/python benchmarks/bench_commits.py /tmp/before .          # 6 rounds, ~2 min
    .venv/bin/python benchmarks/bench_commits.py --rounds 20 --only VectorEnv /tmp/before .
    .venv/bin/python benchmarks/bench_commits.py --installed /tmp/old/bin/python /tmp/new/bin/python

With ``--installed`` the arguments are interpreters: each child runs one and times the
build installed for it (a compiled wheel in a venv), with this checkout's loops.

Every row is a time (lower is better), so a ratio below 1 means the checkout is faster
than the first one. The loops are ``bench_core``'s classify and beats, ``bench_realuse``'s
self-play and iteration rows, and ``bench_rl.vector`` (skipped without the ``rl``
extra). Like every script here, it measures and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent

BATCHES = 5
"""Batches per row in a child; the fastest is kept."""


def rows() -> list[tuple[str, Callable[[], object], int]]:
    """(name, loop, calls per batch) of every row, built from the checkout on ``sys.path``."""
    # The checkout's own code: imported in the child, from the path the driver gave it.
    import bench_core  # noqa: PLC0415
    import bench_realuse  # noqa: PLC0415

    from tienlen import CLASSIC, POKER, beats, classify  # noqa: PLC0415
    from tienlen.rules import BaseRules  # noqa: PLC0415

    def classify_loop(rules: BaseRules) -> Callable[[], object]:
        inputs = bench_core.Inputs(rules, random.Random(bench_core.SEED))
        inputs.build()
        pool = inputs.combo_cards
        return lambda: [classify(cards, rules) for cards in pool]

    inputs = bench_core.Inputs(CLASSIC, random.Random(bench_core.SEED))
    inputs.build()
    pairs = inputs.beat_pairs()
    pools = {
        pool.label: pool for pool in bench_realuse.build_pools(random.Random(3), 200)
    }

    def iterate(label: str) -> Callable[[], object]:
        case = bench_realuse.iterate_ours(pools[label], CLASSIC)
        assert case is not None
        return case.fn

    table = [
        ("classify, classic", classify_loop(CLASSIC), 100),
        ("classify, poker", classify_loop(POKER), 100),
        ("beats, classic", lambda: [beats(a, b, CLASSIC) for a, b in pairs], 200),
        ("iterate a 13-card lead", iterate("lead, random 13"), 10),
        ("iterate against a single", iterate("vs single 3…A"), 10),
        (
            "self-play listed, classic",
            bench_realuse.selfplay_listed(CLASSIC, random.Random(5)),
            15,
        ),
        (
            "self-play lazy, classic",
            bench_realuse.selfplay_lazy(CLASSIC, random.Random(5)),
            30,
        ),
        (
            "self-play listed, poker",
            bench_realuse.selfplay_listed(POKER, random.Random(5)),
            15,
        ),
    ]
    try:
        import bench_rl  # noqa: PLC0415
    except ImportError:  # no rl extra
        return table
    return [*table, ("VectorEnv(256) step", bench_rl.vector(CLASSIC), 20)]


def time_rows(only: str) -> dict[str, float]:
    """Seconds per call of every row whose name holds *only*: the fastest of `BATCHES` batches."""
    timings: dict[str, float] = {}
    for name, loop, calls in rows():
        if only not in name:
            continue
        loop()  # warm up
        batches = []
        for _ in range(BATCHES):
            start = time.process_time()
            for _ in range(calls):
                loop()
            batches.append((time.process_time() - start) / calls)
        timings[name] = min(batches)
    return timings


@dataclass(frozen=True)
class Side:
    """One side of the comparison: the interpreter a child runs and where it imports from."""

    label: str
    python: str
    path: tuple[str, ...]
    """``PYTHONPATH``: a checkout's ``src`` and ``benchmarks``, or only this checkout's
    ``benchmarks`` for an installed build."""


def checkout_side(checkout: Path) -> Side:
    """*checkout*'s sources, run by this interpreter."""
    path = (str(checkout / "src"), str(checkout / "benchmarks"))
    return Side(checkout.name, sys.executable, path)


def installed_side(python: Path) -> Side:
    """The build installed for the interpreter *python* (a compiled wheel in a venv)."""
    return Side(str(python), str(python), (str(HERE),))


def run_child(side: Side, only: str) -> dict[str, float]:
    """`time_rows` in a fresh process of *side*."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(side.path)
    env.setdefault("TIENLEN_PERF_DIR", str(HERE.parents[1] / "shared" / "perf"))
    done = subprocess.run(  # noqa: S603  # an interpreter the user named, this script
        [side.python, __file__, "--child", "--only", only],
        check=False,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        sys.exit(f"{side.label}: {done.stderr}")
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "checkouts", nargs="*", type=Path, help="the first is the baseline"
    )
    parser.add_argument(
        "--installed",
        action="store_true",
        help="the arguments are interpreters, each timing the build installed for it",
    )
    parser.add_argument(
        "--rounds", type=int, default=6, help="alternating rounds (default 6)"
    )
    parser.add_argument(
        "--only", default="", help="time only the rows whose name holds this"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(time_rows(args.only)))
        return 0
    if len(args.checkouts) < 2:
        parser.error("give at least two checkouts (or interpreters)")
    make = installed_side if args.installed else checkout_side
    sides = [make(path.absolute()) for path in args.checkouts]  # a venv's link kept
    samples: dict[Side, list[dict[str, float]]] = {side: [] for side in sides}
    for round_ in range(args.rounds):
        for side in sides if round_ % 2 == 0 else sides[::-1]:
            samples[side].append(run_child(side, args.only))
    base = sides[0]
    print("row | " + " | ".join(side.label for side in sides))
    for row in samples[base][0]:
        base_time = statistics.median(sample[row] for sample in samples[base])
        ratios = [  # each round's ratio, then their median: slow drift cancels
            statistics.median(
                mine[row] / theirs[row]
                for mine, theirs in zip(samples[side], samples[base], strict=True)
            )
            for side in sides
        ]
        cells = " | ".join(f"{ratio:.3f}" for ratio in ratios)
        print(f"{row} ({base_time * 1e6:,.0f} µs) | {cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
