"""Whether the analysis's 95% intervals cover at their stated rate, by simulation (issue 37).

Run from the repository root (about a minute of CPU at the defaults)::

    .venv/bin/python benchmarks/coverage_analysis.py --positions 6 --runs 200 --budget 32

Positions: four-player classic deals played by Greedy until *cards* cards are left in
all hands together (three or four players in the game, the others' hands hidden from
the seat). For each, the Greedy candidate's true expectation (score, chance of going
out first) is estimated by one run of *truth* worlds; then `value_actions` is run
*runs* times at *budget* worlds with independent seeds, and the script prints how
often the 95% interval (`Estimate.of_scores`, the normal interval; `Estimate.of_chance`,
Wilson's) holds the true value, with the binomial tolerance of *runs* trials
(± 2 standard errors of a 95% rate). The truth's own error (its standard error is
√(budget/truth) of a run's) lowers the expected coverage a little: printed too.
"""

from __future__ import annotations

import argparse
import math
import random

from tienlen import CLASSIC, GameState, GreedyPlayer, Observation
from tienlen.analysis.values import ActionValue, value_actions


def position(seed: int, cards: int) -> GameState:
    """A classic deal played by Greedy until at most *cards* cards are in hand."""
    state = GameState.deal(CLASSIC, players=4, seed=seed)
    rng = random.Random(seed)
    bot = GreedyPlayer()
    while sum(len(hand) for hand in state.hands) > cards:
        seat = state.to_act
        assert seat is not None
        own = [a for a in state.legal_actions() if a.player == seat]
        state = state.apply(bot.act(Observation.of(state, seat), own, rng))
    return state


def main() -> int:
    """Simulate the intervals and print their coverage."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--budget", type=int, default=32)
    parser.add_argument("--truth", type=int, default=8000)
    parser.add_argument("--cards", type=int, default=16)
    args = parser.parse_args()
    tolerance = 2 * math.sqrt(0.95 * 0.05 / args.runs)
    expected = math.erf(1.959964 / math.sqrt(2 * (1 + args.budget / args.truth)))
    print(
        f"budget {args.budget}, {args.runs} runs a position, truth from {args.truth} "
        f"worlds: coverage expected {expected:.3f} ± {tolerance:.3f}"
    )
    totals = [0, 0, 0]
    for number in range(args.positions):
        state = position(100 + number, args.cards)
        seat = state.to_act
        assert seat is not None

        def greedy(
            budget: int, seed: int, s: GameState = state, t: int = seat
        ) -> ActionValue:
            return value_actions(s, t, budget=budget, max_candidates=1, seed=seed)[0]

        truth = greedy(args.truth, 10**6)
        covered = [0, 0]
        zero_width = 0
        for run in range(args.runs):
            value = greedy(args.budget, run)
            covered[0] += value.score.low <= truth.score.mean <= value.score.high
            covered[1] += value.first.low <= truth.first.mean <= value.first.high
            zero_width += value.score.low == value.score.high
        left = sum(state.in_game(s) for s in range(4))
        if left < 3:  # a known-hands ending: nothing is sampled
            continue
        print(
            f"position {number}: {left} players left, true score {truth.score.mean:+.3f}, "
            f"first {truth.first.mean:.3f}; score covered {covered[0] / args.runs:.3f}, "
            f"first covered {covered[1] / args.runs:.3f}, "
            f"zero-width intervals {zero_width / args.runs:.3f}"
        )
        totals[0] += covered[0]
        totals[1] += covered[1]
        totals[2] += args.runs
    print(
        f"all: score covered {totals[0] / totals[2]:.3f}, "
        f"first covered {totals[1] / totals[2]:.3f} of {totals[2]} intervals"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
