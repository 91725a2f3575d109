"""`simulate`'s bomb and catch tally (`BombTally`) works on keys (issue 11 §1) and counts as the rules say.

Under a `BaseRules` the counter reads each play's key and asks `is_bomb` once per
shape; it must count exactly what `RuleSet.is_bomb` and `RuleSet.is_catch` say about
every play (RULES §6.2, §6.6.2), which the generic path asks directly.
"""

from __future__ import annotations

import random

import pytest

from tests.strategies import PRESETS
from tienlen import BaseRules, GameState, GreedyPlayer, Play
from tienlen.engine.keys import BombTally
from tienlen.engine.referee import play_out

PRESET_IDS = [rules.name for rules in PRESETS]


class _Both:
    """Feeds every play to a key tally and to one asking the rule set (`count_any`)."""

    def __init__(self, seats: int) -> None:
        self.fast, self.generic = BombTally(seats), BombTally(seats)

    def count(self, state: GameState, play: Play, mask: int) -> None:
        self.fast.count(state, play, mask)
        self.generic.count_any(state.rules, state, play)


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
def test_key_tally_equals_the_rule_sets_answers(rules: BaseRules) -> None:
    """Over greedy games (which bomb and chop), both tallies agree, and some bombs occur."""
    rng = random.Random(11)
    both = _Both(4)
    for _ in range(40):
        state = GameState.deal(rules, players=4, seed=rng)
        play_out(state, [GreedyPlayer(danger=13)] * 4, rng, both)
    assert both.fast.bombs == both.generic.bombs
    assert both.fast.chops == both.generic.chops
    assert sum(both.fast.bombs) > 0
