"""Frozen evaluation deal sets: fixed, citable deals that never change."""

from __future__ import annotations

import pickle
import random

import pytest

from tienlen import CLASSIC, POKER, GreedyPlayer, RandomPlayer, evaluate, play_game
from tienlen.errors import InvalidArgumentError
from tienlen.evaluation import FROZEN_DEALS, DealSet, frozen_deals
from tienlen.players import Player

PINNED = {"classic-150-v1": "296ccd876227f0a6", "poker-150-v1": "31bd5b5df750f52c"}
"""The deals' fingerprints when the sets were frozen: a change of them is a new version."""


@pytest.mark.parametrize("name", FROZEN_DEALS)
def test_frozen_deals_never_change(name: str) -> None:
    """Every frozen set still deals exactly the hands it was frozen with."""
    deal_set = frozen_deals(name)
    assert deal_set.name == name == deal_set.seed
    assert deal_set.fingerprint == PINNED[name]
    assert len(list(deal_set.states())) == deal_set.deals == 150


def test_frozen_deal_sets_cover_classic_and_poker() -> None:
    """The two ladder sets exist, for four players, under the presets named."""
    assert frozen_deals("classic-150-v1").rules == CLASSIC
    assert frozen_deals("poker-150-v1").rules == POKER
    assert {frozen_deals(name).players for name in FROZEN_DEALS} == {4}


def test_states_are_the_deals_evaluate_plays() -> None:
    """The listed deals are those evaluate plays: replaying them gives the same stats."""
    deal_set = DealSet(name="t", rules=CLASSIC, players=4, deals=30, seed="frozen-t")
    bots: list[Player] = [
        GreedyPlayer(),
        RandomPlayer(),
        GreedyPlayer(),
        RandomPlayer(),
    ]
    stats = deal_set.evaluate(bots)
    assert stats == evaluate(bots, 30, rules=CLASSIC, seed="frozen-t")
    scores = [0] * 4
    for deal, start in enumerate(deal_set.states()):
        batch, index = divmod(deal, 25)
        for rotation in range(4):
            seated = [bots[(seat + rotation) % 4] for seat in range(4)]
            rng = random.Random(f"tienlen-eval:frozen-t:{batch}:{index}:{rotation}")
            result = play_game(start, seated, rng).result
            assert result is not None
            for seat, score in enumerate(result.scores):
                scores[(seat + rotation) % 4] += score
    assert tuple(scores) == stats.score_sums


def test_unknown_names_and_wrong_tables_are_refused() -> None:
    """An unknown name, a non-string name and a wrong player count are refused."""
    with pytest.raises(InvalidArgumentError, match="no frozen deal set") as caught:
        frozen_deals("classic-151-v1")
    assert str(pickle.loads(pickle.dumps(caught.value))) == str(caught.value)  # noqa: S301
    with pytest.raises(TypeError):
        frozen_deals(150)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="seat 4 players"):
        frozen_deals("poker-150-v1").evaluate([GreedyPlayer()] * 3)
