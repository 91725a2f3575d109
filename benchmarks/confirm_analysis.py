"""Label stability (issue 37): do blunders at a budget stay blunders at 4 times that budget?

Run from the repository root (about a minute of CPU at the defaults)::

    .venv/bin/python benchmarks/confirm_analysis.py --games 4 --budget 16

Four-player classic games (Greedy in seats 0 and 2, Random in 1 and 3) are analysed
at *budget* and at four times *budget* with another seed; it prints how many of the
decisions labelled blunder (and mistake or worse) at the first budget are labelled
mistake or worse, and blunder, at the second.
"""

from __future__ import annotations

import argparse
import random

from tienlen import CLASSIC, GameState, GreedyPlayer, Player, RandomPlayer, play_game
from tienlen.analysis import Label, analyse


def main() -> int:
    """Analyse the games twice and print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--budget", type=int, default=16)
    args = parser.parse_args()
    blunders = kept = still_blunders = 0
    for number in range(args.games):
        bots: list[Player] = [
            GreedyPlayer(),
            RandomPlayer(),
            GreedyPlayer(),
            RandomPlayer(),
        ]
        deal = GameState.deal(CLASSIC, players=4, seed=2000 + number)
        game = play_game(deal, bots, random.Random(number))
        first = analyse(game, budget=args.budget, seed=number)
        deeper = analyse(game, budget=4 * args.budget, seed=10_000 + number)
        again = {d.index: d.label for d in deeper.decisions}
        for decision in first.labelled():
            if decision.label is not Label.BLUNDER:
                continue
            blunders += 1
            kept += again[decision.index] in (Label.MISTAKE, Label.BLUNDER)
            still_blunders += again[decision.index] is Label.BLUNDER
    print(
        f"{blunders} blunders at budget {args.budget}; at {4 * args.budget}: "
        f"{still_blunders} still blunders, {kept} mistakes or worse"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
