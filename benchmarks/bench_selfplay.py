"""Time whole games: random self-play against the prototype P, bots, and `simulate` scaling.

Run from the repository root::

    .venv/bin/python benchmarks/bench_selfplay.py            # full run, about a minute
    .venv/bin/python benchmarks/bench_selfplay.py --quick    # smoke run, a few seconds

Rows (PERFORMANCE.md §5-§6):

- **public API self-play**: a fresh classic 4-player deal (`GameState.deal`), then each
  turn ``actions[int(rng.random() * len(actions))]`` from `GameState.legal_actions`,
  applied with `GameState.apply`, to the end of the game. Compared with P's
  ``play_game(rng, 4, full_ranking=True)`` (same policy: every play and the pass
  equally likely; P also plays to the last card) in *interleaved rounds* with
  ``benchlib`` from ``../shared/perf`` (or an identical built-in loop). The ratio is
  our games/s over P's, per round, then medianed. Target: ≥ 0.5.
- **play_game, 4 RandomPlayers** and **play_game, 4 GreedyPlayers**: the same games
  through the player layer (`play_game`, an `Observation` per decision).
- **simulate, 2 workers**: `simulate` of RandomPlayers serially and on a
  ``multiprocessing.Pool(2)`` (created before timing), alternating, batches of 250.
  Target: ≥ 1.8× the serial speed. A pure-Python busy loop is timed the same way in
  the same rounds: on a shared machine it shows how much of two cores was free.

This is a measurement, never a pass/fail test: it exits 0 whether or not a target is met.
"""

from __future__ import annotations

import argparse
import importlib
import multiprocessing
import os
import random
import statistics
import sys
import time
import timeit
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from tienlen import (
    CLASSIC,
    GameState,
    GreedyPlayer,
    Player,
    RandomPlayer,
    play_game,
    simulate,
)

PERF_DIR = Path(
    os.environ.get(
        "TIENLEN_PERF_DIR", Path(__file__).resolve().parents[2] / "shared" / "perf"
    )
)
"""Where P (``reference_core.py``) and ``benchlib.py`` live: ``../shared/perf``, or
``$TIENLEN_PERF_DIR`` (a worktree has no ``shared/`` beside it)."""

SEED = 20_240_613
GAMES_PER_CALL = 10
"""Games per timed call of the self-play rows."""


def optional_module(name: str) -> ModuleType | None:
    """Import *name* from ``../shared/perf`` if it is there."""
    if PERF_DIR.is_dir() and str(PERF_DIR) not in sys.path:
        sys.path.insert(0, str(PERF_DIR))
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


benchlib = optional_module("benchlib")
proto = optional_module("reference_core")


@dataclass
class Case:
    """One timed callable; each call plays `games` games."""

    name: str
    fn: Callable[[], object]
    games: int
    samples: list[float] = field(default_factory=list)
    """Seconds per game, one per round."""

    @property
    def games_per_s(self) -> float:
        """Games per second from the median round."""
        return 1 / statistics.median(self.samples)


def public_selfplay(rng: random.Random) -> Callable[[], object]:
    """Random self-play through the public `GameState` API, *GAMES_PER_CALL* games a call."""

    def run() -> None:
        for _ in range(GAMES_PER_CALL):
            state = GameState.deal(CLASSIC, 4, rng)
            while not state.is_over:
                actions = state.legal_actions()
                state = state.apply(actions[int(rng.random() * len(actions))])

    return run


def bots_selfplay(
    rng: random.Random, players: Sequence[Player]
) -> Callable[[], object]:
    """Games between *players* through `play_game`, *GAMES_PER_CALL* games a call."""

    def run() -> None:
        for _ in range(GAMES_PER_CALL):
            play_game(GameState.deal(CLASSIC, 4, rng), players, rng)

    return run


def proto_selfplay(module: ModuleType, rng: random.Random) -> Callable[[], object]:
    """P's random self-play to the last card, *GAMES_PER_CALL* games a call."""
    play = module.play_game

    def run() -> None:
        for _ in range(GAMES_PER_CALL):
            play(rng, 4, full_ranking=True)

    return run


def calibrate(timer: timeit.Timer, target: float) -> int:
    """Loop count giving about *target* seconds (benchlib's rule)."""
    n = 1
    while True:
        dt = timer.timeit(n)
        if dt >= target / 5 or n >= 10**8:
            break
        n *= 10 if dt < target / 50 else 2
    return max(1, int(n * target / max(dt, 1e-9)))


def run_rounds(cases: Sequence[Case], rounds: int, target: float) -> str:
    """Fill every case's samples in interleaved rounds; return the harness used."""
    if benchlib is not None:
        benches = [benchlib.Bench(c.name, c.fn, ops_per_call=c.games) for c in cases]
        benchlib.run_suite(benches, rounds=rounds, target=target, quiet=True)
        for case, bench in zip(cases, benches, strict=True):
            case.samples = [float(s) for s in bench.samples]
        return "benchlib.run_suite (GC on)"
    timers = [timeit.Timer(case.fn, "import gc; gc.enable()") for case in cases]
    numbers = [calibrate(timer, target) for timer in timers]
    for _ in range(rounds):
        for case, timer, number in zip(cases, timers, numbers, strict=True):
            case.samples.append(timer.timeit(number) / number / case.games)
    return "built-in interleaved loop (benchlib.py not found)"


def speed_ratio(ours: Case, reference: Case) -> float:
    """Median over rounds of our games/s over the reference's games/s."""
    return statistics.median(
        ref / own for own, ref in zip(ours.samples, reference.samples, strict=True)
    )


def busy_loop(n: int) -> int:
    """Pure-Python work with no data to send: what two workers can do at best."""
    total = 0
    for i in range(n):
        total += i
    return total


@dataclass
class Scaling:
    """Serial and 2-worker timings of `simulate`, with the machine's own headroom."""

    serial_gps: float
    """Serial games per second (median round)."""
    pool_gps: float
    """Games per second on two workers (median round)."""
    speedup: float
    """Median per-round ratio of serial time to pool time."""
    capacity: float
    """The same ratio for `busy_loop`, in the same rounds: the most the machine gave."""


def time_simulate(games: int, rounds: int) -> Scaling:
    """Serial and 2-worker `simulate` of RandomPlayers, alternating, ``rounds`` times.

    Each round also times `busy_loop` serially and on the pool, so a speedup below 2
    can be read against what the (shared) machine allowed at that moment.
    """
    players: list[Player] = [RandomPlayer()] * 4
    serial_times: list[float] = []
    pool_times: list[float] = []
    capacity: list[float] = []
    loop = 2_000_000
    with multiprocessing.Pool(2) as pool:
        simulate(8, rules=CLASSIC, players=players, seed=0, batch_size=4, executor=pool)
        for round_ in range(rounds):
            start = time.perf_counter()
            serial = simulate(games, rules=CLASSIC, players=players, seed=round_)
            serial_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            pooled = simulate(
                games, rules=CLASSIC, players=players, seed=round_, executor=pool
            )
            pool_times.append(time.perf_counter() - start)
            assert serial == pooled
            start = time.perf_counter()
            for _ in range(4):
                busy_loop(loop)
            busy_serial = time.perf_counter() - start
            start = time.perf_counter()
            pool.map(busy_loop, [loop] * 4, chunksize=1)
            capacity.append(busy_serial / (time.perf_counter() - start))
    return Scaling(
        serial_gps=games / statistics.median(serial_times),
        pool_gps=games / statistics.median(pool_times),
        speedup=statistics.median(
            s / p for s, p in zip(serial_times, pool_times, strict=True)
        ),
        capacity=statistics.median(capacity),
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, time every row and print the results."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short smoke run")
    parser.add_argument("--rounds", type=int, help="interleaved rounds (default 9)")
    args = parser.parse_args(argv)
    rounds = args.rounds or (3 if args.quick else 9)
    target = 0.05 if args.quick else 0.5
    sim_games = 500 if args.quick else 4_000
    sim_rounds = 1 if args.quick else 5

    rng = random.Random(SEED)
    cases = [
        Case("public API self-play", public_selfplay(rng), GAMES_PER_CALL),
        Case(
            "play_game, 4 RandomPlayers",
            bots_selfplay(rng, [RandomPlayer()] * 4),
            GAMES_PER_CALL,
        ),
        Case(
            "play_game, 4 GreedyPlayers",
            bots_selfplay(rng, [GreedyPlayer()] * 4),
            GAMES_PER_CALL,
        ),
    ]
    reference = None
    if proto is not None:
        reference = Case(
            "P play_game(full_ranking=True)",
            proto_selfplay(proto, random.Random(SEED)),
            GAMES_PER_CALL,
        )
        cases.insert(0, reference)

    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load {load}")
    harness = run_rounds(cases, rounds, target)
    print(f"{rounds} interleaved rounds, {harness}; classic, 4 players, fresh deals")
    print()
    print(f"{'row':34s} {'games/s':>9s} {'vs P':>7s}")
    for case in cases:
        ratio = (
            f"{speed_ratio(case, reference):6.2f}x"
            if reference is not None and case is not reference
            else "      -"
        )
        print(f"{case.name:34s} {case.games_per_s:9.0f} {ratio}")
    if reference is None:
        print("(../shared/perf/reference_core.py not found: no comparison with P)")
    else:
        print("target: public API self-play >= 0.5x P")
    print()
    scaling = time_simulate(sim_games, sim_rounds)
    print(f"simulate, {sim_games} games of 4 RandomPlayers, batches of 250:")
    print(f"  serial    {scaling.serial_gps:7.0f} games/s")
    print(
        f"  2 workers {scaling.pool_gps:7.0f} games/s   speedup "
        f"{scaling.speedup:.2f}x (target >= 1.8x)"
    )
    print(
        f"  a pure-Python busy loop on the same pool: {scaling.capacity:.2f}x "
        "(what the machine allowed; 2.0x when idle)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
