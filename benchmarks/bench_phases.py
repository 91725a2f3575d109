"""Where a self-play game's time goes, phase by phase: tienlen against the issue-21 design.

Run from the repository root, on either build::

    .venv/bin/python benchmarks/bench_phases.py
    .venv/bin/python benchmarks/bench_phases.py --rules poker   # tienlen's side only

Issue 21's self-play targets come from a lean design played on P's games: on the pure
build, ``../shared/perf/designs/designs.py``'s ``lean`` (a `NamedTuple` state whose
actions are ints, over P's own generator); on the compiled build, ``cstep.py``
compiled with P's generator (built as `bench_prototype` builds it). This script plays
300 random games with each, records every decision, and then times each phase of a
game on the recorded decisions alone, in µs a game:

- the **deal** (``GameState.deal`` / the design's ``deal_state``);
- **listing** the actions (``legal_actions()`` of every recorded state);
- **taking one** (``actions[i]``: a `Play` for tienlen, an int for the design);
- **taking every one** (``list(actions)``: the `list()` self-play row's listing);
- **applying** it (``apply``, the scoring of the last one included);
- the **whole game** loop, and P's own game, for scale.

The difference between the whole game and the sum of its phases is the caller's own
loop. The `list()` row's game is the whole game with every action taken instead of
one: the whole game, less taking one, plus taking every one; it is printed as a speed
against P with the cost of each action listed. This is a measurement: it exits 0
whatever it finds.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_prototype import build_prototype
from bench_targets import find_perf_dir

import tienlen
from tienlen import GameState, get_rules

GAMES = 300
"""Games recorded and replayed per phase."""


def best_time(run: Callable[[], object], rounds: int = 9) -> float:
    """The fastest of *rounds* calls of *run*, in µs a game."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times) / GAMES * 1e6


def phases(deal: Callable[[random.Random], Any]) -> dict[str, float]:
    """µs a game of each phase of random self-play from *deal* (states with actions)."""
    rng = random.Random(1)
    steps = []
    for _ in range(GAMES):
        state = deal(rng)
        while not state.is_over:
            actions = state.legal_actions()
            index = int(rng.random() * len(actions))
            steps.append((state, actions, index))
            state = state.apply(actions[index])
    picks = [(state, actions[index]) for state, actions, index in steps]

    def dealing() -> None:
        rng = random.Random(2)
        for _ in range(GAMES):
            deal(rng)

    def listing() -> None:
        for state, _, _ in steps:
            state.legal_actions()

    def taking() -> None:
        for _, actions, index in steps:
            actions[index]

    def taking_all() -> None:
        for _, actions, _ in steps:
            list(actions)

    def applying() -> None:
        for state, action in picks:
            state.apply(action)

    def games() -> None:
        rng = random.Random(1)
        for _ in range(GAMES):
            state = deal(rng)
            while not state.is_over:
                actions = state.legal_actions()
                state = state.apply(actions[int(rng.random() * len(actions))])

    return {
        "decisions": len(steps) / GAMES,
        "deal": best_time(dealing),
        "list the actions": best_time(listing),
        "take one (actions[i])": best_time(taking),
        "take every one (list)": best_time(taking_all),
        "actions listed": sum(len(actions) for _, actions, _ in steps) / GAMES,
        "apply": best_time(applying),
        "whole game": best_time(games),
    }


def main() -> None:
    """Time tienlen's phases and the design's, print them side by side.

    ``--rules`` names the rule set tienlen plays (default classic); the design and P
    play their own game, classic, whatever it is.
    """
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rules", default="classic", help="tienlen's rule set")
    rules = get_rules(parser.parse_args().rules)
    perf = find_perf_dir()
    if perf is None:
        sys.exit("P's folder (../shared/perf) is not beside the checkout")
    with tempfile.TemporaryDirectory() as where:
        if tienlen.COMPILED:
            build_prototype(perf, Path(where))
            sys.path[:0] = [where, str(perf)]
            design, name = importlib.import_module("cstep").deal_cstate, "cstep"
        else:
            sys.path[:0] = [str(perf / "designs"), str(perf)]
            design, name = importlib.import_module("designs").deal_state, "lean"
        reference = importlib.import_module("reference_core")
        ours = phases(lambda rng: GameState.deal(rules, 4, rng))
        theirs = phases(design)

        def p_games() -> None:
            rng = random.Random(1)
            for _ in range(GAMES):
                reference.play_game(rng, 4, full_ranking=True)

        p_game = best_time(p_games)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"tienlen.COMPILED={tienlen.COMPILED}, {rules.name}, {GAMES} games, {stamp}")
    print(f"{'phase (µs a game)':24s} {'tienlen':>9s} {name:>9s}")
    for phase in ours:
        print(f"{phase:24s} {ours[phase]:9.1f} {theirs[phase]:9.1f}")
    print(f"{'P whole game':24s} {p_game:9.1f}")
    for label, timing in (("tienlen", ours), (name, theirs)):
        loop = timing["whole game"] - sum(
            timing[phase]
            for phase in ("deal", "list the actions", "take one (actions[i])", "apply")
        )
        speed = p_game / timing["whole game"]
        print(f"{label}: {speed:.2f}x P; the caller's loop {loop:.1f} µs a game")
        every = timing["take every one (list)"]
        listed = timing["whole game"] - timing["take one (actions[i])"] + every
        each = every / timing["actions listed"] * 1000
        print(
            f"{label}, list() row: {listed:.1f} µs a game, {p_game / listed:.2f}x P;"
            f" {each:.0f} ns an action listed"
        )


if __name__ == "__main__":
    main()
