"""Random games for the RL tests: every table the environments serve, walked decision by decision."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tienlen import CLASSIC_TWO_DECKS, RULESETS, BaseRules

pytest.importorskip("numpy")  # doctest collection imports this module too

from tienlen.rl.turns import Turns

TABLES: list[tuple[BaseRules, int]] = [
    *((rules, players) for rules in RULESETS.values() for players in (2, 3, 4)),
    *((CLASSIC_TWO_DECKS, players) for players in (5, 6, 7, 8)),
]
"""Every preset with 2-4 players, and `CLASSIC_TWO_DECKS` with 5-8 (RULES §2.1)."""

ONE_DECK: list[tuple[BaseRules, int]] = [t for t in TABLES if t[1] <= 4]


def table_id(table: tuple[BaseRules, int]) -> str:
    """A readable pytest id such as ``poker-4``."""
    return f"{table[0].name}-{table[1]}"


def decider(turns: Turns) -> int:
    """The deciding seat of a game in progress."""
    seat = turns.decider
    assert seat is not None
    return seat


def walk(rules: BaseRules, players: int, seed: int, games: int) -> Iterator[Turns]:
    """Every decision of *games* random games (jump-in polls included), seeded."""
    rng = random.Random(seed)
    for _ in range(games):
        turns = Turns.deal(rules, players, rng)
        while turns.decider is not None:
            yield turns
            indices = turns.legal_indices()
            turns.act(indices[int(rng.random() * len(indices))])
