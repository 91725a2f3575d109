"""Decisions per second of the RL environments, beside the bare engine and RLCard's Dou Dizhu.

Run from the repository root, with the rl extra installed::

    .venv/bin/python benchmarks/bench_rl.py            # about a minute
    .venv/bin/python benchmarks/bench_rl.py --quick    # a smoke run

Every row steps 256 decisions with uniformly random legal actions, continuing across
games (a new deal when one ends), and all rows run in the same interleaved rounds
(``benchlib`` from ``../shared/perf``), so the ratios compare like with like:

- **P bare loop**: the prototype P's random self-play (``reference_core.play_game`` to the
  last card, ``../shared/perf``), per decision: the target rows' baseline;
- **bare GameState loop**: ``state.apply(actions[random])`` (no observation);
- **bare apply_mask loop**: the same on ints, ``state.apply_mask(actions.masks[random])``:
  the engine's own cost under every environment (their floor);
- **observation only**: `ObservationEncoder.encode` of the deciding seat, per decision;
- **observation only, 256 at once**: `ObservationBatch.encode` of 256 games in one call
  (what `VectorEnv` pays per step for observations), per row;
- **PettingZoo AEC env**: ``last()`` (observation and mask) then ``step`` (classic, 4);
- **Gymnasium SoloEnv**: learner decisions only; the three `RandomPlayer` bots' moves
  are inside each step (counted as one decision, so this row is pessimistic);
- **VectorEnv, 256 games**: one ``step`` of 256 games is 256 decisions, each a
  uniformly random legal index (`random_legal`, one numpy pass over the masks);
- **RLCard doudizhu**: RLCard's own env, ``step`` with a random legal action id.

The AEC and VectorEnv rows also run on Poker (jump-ins polled, RULES §6.4).

Targets (issue 21): VectorEnv(256) ≥ 0.5× P's bare loop; PettingZoo AEC ≥ 3× RLCard's Dou
Dizhu, per decision (classic, and Poker within 15%). This is a measurement, never a
pass/fail test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

for parent in Path(__file__).resolve().parents[1:4]:  # ../shared/perf of a checkout
    perf = parent / "shared" / "perf"
    if perf.is_dir() and str(perf) not in sys.path:
        sys.path.insert(0, str(perf))

import benchlib  # type: ignore[import-not-found,unused-ignore]
import reference_core  # type: ignore[import-not-found,unused-ignore]
import rlcard

from tienlen import CLASSIC, POKER, GameState
from tienlen.rl.gymnasium import SoloEnv
from tienlen.rl.observation import ObservationBatch, ObservationEncoder
from tienlen.rl.pettingzoo import raw_env
from tienlen.rl.vector import VectorEnv
from tienlen.rules import BaseRules

CHUNK = 256
P_GAMES = 4
"""Games per timed call of P's loop (the same games each call: a fixed decision count)."""


def proto() -> tuple[Callable[[], None], int]:
    """P's bare random self-play, and the decisions one call makes."""
    play = reference_core.play_game

    def run() -> int:
        rng = random.Random(11)  # the same games every call
        return sum(play(rng, 4, full_ranking=True)[1] for _ in range(P_GAMES))

    return run, run()  # type: ignore[return-value]


def bare(*, on_ints: bool = False) -> Callable[[], None]:
    """The bare random loop: ``apply(actions[i])``, or on ints ``apply_mask(masks[i])``."""
    rng = random.Random(1)
    state = [GameState.deal(CLASSIC, 4, seed=rng)]

    def run() -> None:
        s = state[0]
        for _ in range(CHUNK):
            if s.is_over:
                s = GameState.deal(CLASSIC, 4, seed=rng)
            actions = s.legal_actions()
            if on_ints:
                masks = actions.masks
                s = s.apply_mask(masks[int(rng.random() * len(masks))])
            else:
                s = s.apply(actions[int(rng.random() * len(actions))])
        state[0] = s

    return run


def observation_only() -> Callable[[], None]:
    rng = random.Random(2)
    states: list[GameState] = []
    s = GameState.deal(CLASSIC, 4, seed=rng)
    while len(states) < CHUNK:
        if s.is_over:
            s = GameState.deal(CLASSIC, 4, seed=rng)
        states.append(s)
        actions = s.legal_actions()
        s = s.apply(actions[int(rng.random() * len(actions))])
    encoder = ObservationEncoder(CLASSIC, 4)
    encoder.reset(states[0])

    def run() -> None:
        for state in states:
            if state.to_act is not None:
                encoder.encode(state, state.to_act)

    return run


def observation_batch() -> Callable[[], None]:
    """`ObservationBatch.encode` of 256 games in progress, one row per decision."""
    envs = VectorEnv(CHUNK, CLASSIC, players=4, seed=7)
    _, masks, deciders = envs.reset()
    rng = np.random.default_rng(7)
    for _ in range(20):  # into the games: tops, passes and history to encode
        _, masks, deciders, _, _ = envs.step(random_legal(masks, rng))
    batch = ObservationBatch(envs.layout, CHUNK)
    states = list(envs.states)
    batch.load(range(CHUNK), states)
    seats = deciders.tolist()

    def run() -> None:
        batch.encode(states, seats)

    return run


def aec(rules: BaseRules = CLASSIC) -> Callable[[], None]:
    env = raw_env(rules=rules, players=4)
    env.reset(seed=3)
    rng = np.random.default_rng(3)

    def run() -> None:
        for _ in range(CHUNK):
            if not env.agents:
                env.reset()
            observation, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            env.step(int(legal[int(rng.random() * len(legal))]))

    return run


def solo() -> Callable[[], None]:
    env = SoloEnv(rules=CLASSIC, players=4)
    _, info = env.reset(seed=4)
    rng = np.random.default_rng(4)

    def run() -> None:
        nonlocal info
        for _ in range(CHUNK):
            legal = info["action_mask"].nonzero()[0]
            _, _, done, _, info = env.step(int(legal[int(rng.random() * len(legal))]))
            if done:
                _, info = env.reset()

    return run


def random_legal(
    masks: np.ndarray[Any, np.dtype[np.int8]], rng: np.random.Generator
) -> np.ndarray[Any, np.dtype[np.int64]]:
    """A uniformly random legal index per row of *masks* (one pass over the masks)."""
    legal = np.flatnonzero(masks.view(np.bool_))  # row-major: row by row, in order
    counts = np.bincount(legal // masks.shape[1], minlength=len(masks))
    starts = np.cumsum(counts) - counts
    chosen = legal[starts + (rng.random(len(masks)) * counts).astype(np.int64)]
    columns: np.ndarray[Any, np.dtype[np.int64]] = chosen % masks.shape[1]
    return columns


def vector(rules: BaseRules = CLASSIC) -> Callable[[], None]:
    envs = VectorEnv(CHUNK, rules, players=4, seed=5)
    masks = [envs.reset()[1]]
    rng = np.random.default_rng(5)

    def run() -> None:
        masks[0] = envs.step(random_legal(masks[0], rng))[1]

    return run


def doudizhu() -> Callable[[], None]:
    env = rlcard.make("doudizhu", {"seed": 6})
    state = [env.reset()[0]]
    rng = random.Random(6)

    def run() -> None:
        s = state[0]
        for _ in range(CHUNK):
            if env.is_over():
                s, _ = env.reset()
            legal = list(s["legal_actions"])
            s, _ = env.step(legal[int(rng.random() * len(legal))])
        state[0] = s

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    args = parser.parse_args()
    p_run, p_decisions = proto()
    rows = {
        "bare GameState loop": bare(),
        "bare apply_mask loop (env floor)": bare(on_ints=True),
        "observation only (encode)": observation_only(),
        "observation only, 256 at once (ObservationBatch)": observation_batch(),
        "PettingZoo AEC env": aec(),
        "PettingZoo AEC env, poker": aec(POKER),
        "Gymnasium SoloEnv (learner decisions)": solo(),
        "VectorEnv, 256 games": vector(),
        "VectorEnv, 256 games, poker": vector(POKER),
        "RLCard doudizhu, random legal": doudizhu(),
    }
    benches = [
        benchlib.Bench(name, run, ops_per_call=CHUNK, unit="decision")
        for name, run in rows.items()
    ]
    benches.append(
        benchlib.Bench("P bare loop", p_run, ops_per_call=p_decisions, unit="decision")
    )
    results = benchlib.run_suite(
        benches,
        rounds=3 if args.quick else 9,
        target=0.05 if args.quick else 0.3,
        baseline="bare GameState loop",
        quiet=True,
    )

    def faster(name: str, than: str) -> float:
        """How many times faster row *name* is than row *than*: the median round's ratio."""
        return float(
            statistics.median(
                b / a
                for a, b in zip(
                    results[name]["samples_ns"],
                    results[than]["samples_ns"],
                    strict=True,
                )
            )
        )

    print(
        f"{'row':50s} {'decisions/s':>12s} {'x bare':>8s} {'x P':>6s} {'x doudizhu':>10s}"
    )
    for name, row in results.items():
        print(
            f"{name:50s} {row['ops_per_s']:12,.0f}"
            f" {faster(name, 'bare GameState loop'):8.2f} {faster(name, 'P bare loop'):6.2f}"
            f" {faster(name, 'RLCard doudizhu, random legal'):10.2f}"
        )
    print("targets: VectorEnv(256) >= 0.5x P; PettingZoo AEC >= 3x doudizhu")


if __name__ == "__main__":
    main()
