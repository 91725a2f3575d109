"""A custom player in twenty lines, simulated against three random players.

Run it from the repository root, optionally naming a variant and a number of games::

    .venv/bin/python examples/custom_bot.py            # classic, 400 games
    .venv/bin/python examples/custom_bot.py poker 1000

A player is any object with an ``act(observation, actions, rng)`` method (the
`tienlen.Player` protocol). It sees its own hand and the public table, never the other
hands, and returns one of the actions it is offered.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence

import attrs

from tienlen import (
    Action,
    Observation,
    Pass,
    Play,
    Player,
    RandomPlayer,
    Rank,
    get_rules,
    simulate,
)


@attrs.frozen
class Shedder:
    """Sheds as many cards as it can, lowest first; saves its 2s for the end."""

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The play with the most cards and the lowest top; a pass to keep a 2."""
        del rng  # this player is deterministic
        plays = [action for action in actions if isinstance(action, Play)]
        passes = [action for action in actions if isinstance(action, Pass)]
        if observation.jumping_in or not plays:
            return passes[0]  # never jump in; pass when nothing beats the top
        keep_twos = len(observation.hand) > 4
        cheap = [p for p in plays if not (keep_twos and max(p.cards).rank is Rank.TWO)]
        if not cheap:
            return passes[0] if passes else plays[0]
        return max(cheap, key=lambda play: (len(play.cards), -max(play.cards).index))


def main(argv: Sequence[str]) -> None:
    """Simulate Shedder in seat 0 against three random players and print the stats."""
    rules = get_rules(argv[0] if argv else "classic")
    games = int(argv[1]) if len(argv) > 1 else 400
    players: list[Player] = [Shedder(), RandomPlayer(), RandomPlayer(), RandomPlayer()]
    stats = simulate(games, rules=rules, players=players, seed=2024)
    print(f"{rules.name}: Shedder (seat 0) against three RandomPlayers")
    print(stats.summary())
    low, high = stats.confidence_interval(0)
    print(f"Shedder wins {stats.win_rates[0]:.0%} of games (a random seat: about 25%),")
    print(
        f"mean score {stats.mean_scores[0]:+.2f} per game (95% CI {low:+.2f} to {high:+.2f})"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
