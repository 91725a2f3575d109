"""Play a ten-game Poker match among random players and print the scores, itemised.

Run it from the repository root, optionally with a seed (default 2024)::

    .venv/bin/python examples/poker_match.py
    .venv/bin/python examples/poker_match.py 7

The match deals every game from its seed (`tienlen.Match`), and the players choose
uniformly among the legal actions with a `random.Random` seeded from the same number,
so the whole output is reproducible. Each game's score is listed item by item: place
points, chop chains (*chặt*), frozen players (*cóng*), end penalties (*thối*) and
instant wins (*tới trắng*), as RULES §6.6-§6.7 define them. The score table closes
the output.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence

from tienlen import POKER, Action, Actions, GameState, Match

GAMES = 10
DEFAULT_SEED = 2024

Chooser = Callable[[GameState, Actions], Action]
"""A player policy, as `Match.play` takes it."""


def random_player(seed: int) -> Chooser:
    """A policy choosing uniformly among the legal actions, reproducible from *seed*."""
    rng = random.Random(seed)

    def choose(state: GameState, actions: Actions) -> Action:
        del state
        return actions[rng.randrange(len(actions))]

    return choose


def main(argv: Sequence[str]) -> int:
    """Play the match and print every game's items, then the score table."""
    seed = int(argv[0]) if argv else DEFAULT_SEED
    match = Match.start(POKER, players=4, seed=seed)
    choose = random_player(seed)
    print(f"Tien Len Poker, {match.players} players, {GAMES} games, seed {seed}")
    for _ in range(GAMES):
        number = match.game_count + 1
        dealer, leader = match.next_dealer, match.next_leader
        match = match.play(choose)
        result = match.games[-1]
        opener = "the 3♠ holder" if leader is None else f"player {leader}"
        print(f"\nGame {number}: player {dealer} deals, {opener} leads")
        if result.instant_win is not None:
            print(
                f"  instant win ({result.instant_win.value}) for player {result.winner}"
            )
        else:
            print(f"  finishing order: {' '.join(map(str, result.finish_order))}")
        if result.frozen:
            print(f"  frozen: {' '.join(map(str, result.frozen))}")
        for item in result.items:
            print(f"  {item}")
        scores = "  ".join(
            f"p{p} {points:+d}" if points else f"p{p} 0"
            for p, points in enumerate(result.scores)
        )
        print(f"  scores: {scores}")
    print()
    print(match.table())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
