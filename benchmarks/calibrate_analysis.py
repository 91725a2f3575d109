"""Calibrate the analysis's labels on self-play (issue 37): losses of Greedy and Random.

Run from the repository root (about 80 s of CPU at the defaults)::

    .venv/bin/python benchmarks/calibrate_analysis.py --games 12 --budget 32

Four-player classic games, Greedy in seats 0 and 2, Random in seats 1 and 3, each
game analysed by `tienlen.analysis.analyse`; it prints, per bot, how many decisions
lose at least each number of win-chance points, and how many of those have a loss
whose 95% interval is above zero, and each bot's accuracy. docs/analysis.md chose
the thresholds from these counts.
"""

from __future__ import annotations

import argparse
import random

from tienlen import CLASSIC, GameState, GreedyPlayer, Player, RandomPlayer, play_game
from tienlen.analysis import analyse

STEPS = (5, 10, 15, 20, 25, 30)
"""Win-chance losses (points) counted."""


def main() -> int:
    """Analyse the games and print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--budget", type=int, default=32)
    args = parser.parse_args()
    rows: dict[str, list[tuple[float, float, float]]] = {"greedy": [], "random": []}
    for number in range(args.games):
        bots: list[Player] = [
            GreedyPlayer(),
            RandomPlayer(),
            GreedyPlayer(),
            RandomPlayer(),
        ]
        deal = GameState.deal(CLASSIC, players=4, seed=1000 + number)
        game = play_game(deal, bots, random.Random(number))
        review = analyse(game, budget=args.budget, seed=number)
        for decision in review.decisions:
            bot = "greedy" if decision.seat % 2 == 0 else "random"
            rows[bot].append((decision.win_loss, decision.loss.low, decision.accuracy))
    for bot, found in rows.items():
        accuracy = sum(a for _, _, a in found) / len(found)
        print(f"{bot}: {len(found)} decisions, accuracy {accuracy:.1f}")
        for step in STEPS:
            over = [low for loss, low, _ in found if loss >= step]
            real = sum(low > 0 for low in over)
            print(
                f"  loss >= {step:2} points: {len(over):3} ({real} with the interval above 0)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
