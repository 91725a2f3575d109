"""The analysis's speed (issue 37) as ratios to P, timed in the same run.

Run from the repository root::

    .venv/bin/python benchmarks/bench_analysis.py            # about two minutes
    .venv/bin/python benchmarks/bench_analysis.py --quick    # a few seconds

Rows, each in process CPU time and as a number of P's random games
(``reference_core.play_game(rng, 4, full_ranking=True)``, timed in this run):

- **solve, two left**: `tienlen.analysis.solve` on the positions of 4-player classic
  games (Greedy self-play, one deck dealt out) once two players are left, the median
  and the slowest; positions over the node limit are counted, not timed;
- **analyse, a game**: `tienlen.analysis.analyse` of one whole 4-player classic game
  at the default budget, and its per-decision cost.

Issue 37's targets: a game analysed in no more than P's time for 300,000 games; a
two-player endgame solved in P's time for 5,000 games at the median, 50,000 at the
99th percentile. This is a measurement: it exits 0 whatever the ratios.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_targets import find_perf_dir

import tienlen
from tienlen import CLASSIC, GameState, GreedyPlayer, Observation, play_game
from tienlen.analysis import DEFAULT_BUDGET, SolverLimitError, analyse, solve


def p_seconds_per_game(games: int) -> float:
    """P's CPU seconds per random 4-player game."""
    perf = find_perf_dir()
    if perf is None:
        sys.exit("P (shared/perf/reference_core.py) not found: set TIENLEN_PERF_DIR")
    sys.path.insert(0, str(perf))
    import reference_core  # noqa: PLC0415 - found above

    rng = random.Random(1)
    start = time.process_time()
    for _ in range(games):
        reference_core.play_game(rng, 4, full_ranking=True)
    return (time.process_time() - start) / games


def two_left(seed: int) -> GameState | None:
    """A 4-player classic Greedy game at the moment two players are left."""
    state = GameState.deal(CLASSIC, players=4, seed=seed)
    bot, rng = GreedyPlayer(), random.Random(seed)
    while not state.is_over:
        if sum(state.in_game(seat) for seat in range(4)) == 2:
            return state
        seat = state.to_act
        assert seat is not None
        own = [a for a in state.legal_actions() if a.player == seat]
        state = state.apply(bot.act(Observation.of(state, seat), own, rng))
    return None


def commit() -> str:
    """The checkout's short commit."""
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],  # noqa: S607
        cwd=Path(__file__).parent,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() or "?"


def main() -> int:
    """Time the rows and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few positions only")
    parser.add_argument("--positions", type=int, default=40, help="endgames to solve")
    parser.add_argument("--max-nodes", type=int, default=200_000)
    args = parser.parse_args()
    positions = 5 if args.quick else args.positions
    p_game = p_seconds_per_game(200 if args.quick else 2000)
    print(
        f"commit {commit()}, compiled {tienlen.COMPILED}, P {p_game * 1e3:.3f} ms/game"
    )
    times, over, cards = [], 0, []
    for seed in range(positions):
        state = two_left(seed)
        if state is None:
            continue
        start = time.process_time()
        try:
            solve(state, max_nodes=args.max_nodes)
        except SolverLimitError:
            over += 1
            continue
        times.append(time.process_time() - start)
        cards.append(sum(len(hand) for hand in state.hands))
    if times:
        median, worst = statistics.median(times), max(times)
        print(
            f"solve, two left: {len(times)} solved ({min(cards)}-{max(cards)} cards), "
            f"{over} over {args.max_nodes} nodes; median {median * 1e3:.1f} ms "
            f"= {median / p_game:,.0f} P games, slowest {worst * 1e3:.1f} ms "
            f"= {worst / p_game:,.0f} P games"
        )
    deal = GameState.deal(CLASSIC, players=4, seed=37)
    game = play_game(deal, [GreedyPlayer()] * 4, random.Random(37))
    budget = 4 if args.quick else DEFAULT_BUDGET
    start = time.process_time()
    review = analyse(game, budget=budget)
    spent = time.process_time() - start
    widths = [d.loss.half_width for d in review.labelled()]
    print(
        f"analyse, a game: {len(review.decisions)} decisions at budget {budget}, "
        f"{spent:.1f} s = {spent / p_game:,.0f} P games "
        f"({spent / max(1, len(review.decisions)) * 1e3:.0f} ms per decision); "
        f"flagged {len(widths)}, widest loss CI half-width "
        f"{max(widths, default=0.0):.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
