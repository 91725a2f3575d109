"""Instant wins at the deal under house rules, through the engine (RULES §12.5)."""

from __future__ import annotations

import random

import attrs
import pytest

from tienlen import (
    CLASSIC,
    POKER,
    RULESETS,
    BaseRules,
    CustomInstantWin,
    GameState,
    Hand,
    InstantWin,
)
from tienlen.engine.rulebook import context_of
from tienlen.policies import DealPolicy
from tienlen.rules import RuleSet
from tienlen.rules.base import InstantWinHand

FOUR_THREES = attrs.evolve(
    CLASSIC, name="four-threes", instant_wins={InstantWin.FOUR_THREES}
)
HANDS = ["3s 3c 3d 3h 9s", "4s 5c 6d 7h 8s", "Ts Jc Qd Kh As"]


def _rich_hand(rng: random.Random) -> list[int]:
    """Thirteen cards drawn from few ranks: pairs, triples, fours and runs are common."""
    ranks = rng.sample(range(13), rng.randint(4, 9))
    pool = [4 * rank + suit for rank in ranks for suit in range(4)]
    return rng.sample(pool, min(13, len(pool)))


def hand_mask(cards: list[int]) -> int:
    """The mask of *cards* (card indices, 0 the 3♠)."""
    return sum(1 << card for card in cards)


def test_four_threes_win_the_first_game_at_the_deal() -> None:
    """RULES §12.5: four 3s in the first game win at once; the game is over."""
    state = GameState.from_hands(HANDS, FOUR_THREES)
    assert state.result is not None
    assert state.result.instant_win is InstantWin.FOUR_THREES
    assert state.result.winner == 0


def test_four_threes_do_not_win_a_later_game() -> None:
    """RULES §12.5: four 3s count only in the first game of a match."""
    state = GameState.from_hands(HANDS, FOUR_THREES, first_game=False, leader=1)
    assert state.result is None
    assert state.to_act == 1


WINS_AS_DATA = [
    *RULESETS.values(),
    attrs.evolve(POKER, name="exact-pairs", six_pairs_counts_sets=False),
    attrs.evolve(CLASSIC, name="every-win", instant_wins=set(InstantWin)),
    FOUR_THREES,
    attrs.evolve(
        CLASSIC,
        name="spade",
        instant_wins={
            InstantWin.SIX_PAIRS,
            CustomInstantWin(name="three-of-spades", test=lambda hand: "3s" in hand),
        },
    ),
]
"""Rule sets whose instant wins are read off the counts, or need the cards."""


@pytest.mark.parametrize("rules", WINS_AS_DATA, ids=lambda rules: rules.name)
@pytest.mark.parametrize("first_game", [True, False])
def test_the_rule_book_finds_the_wins_the_deal_policy_finds(
    rules: BaseRules, first_game: bool
) -> None:
    """The rule book's instant wins at the deal are `DealPolicy.instant_win`'s."""
    context = context_of(rules, 4)
    rng = random.Random(rules.name)
    cards = list(range(52))
    for deal in range(3000):
        mask = hand_mask(cards[:13] if deal % 3 else _rich_hand(rng))
        expected = rules.deal_policy.instant_win(
            rules, Hand(mask), first_game=first_game
        )
        assert context.instant_win(mask, first_game=first_game) is expected
        rng.shuffle(cards)


def test_a_table_that_answers_instant_wins_itself_is_asked() -> None:
    """A deal policy or a rule set of its own decides the instant wins, not the book."""

    @attrs.frozen(kw_only=True)
    class NoInstantWins(DealPolicy):
        def instant_win(
            self, rules: RuleSet, hand: Hand, *, first_game: bool
        ) -> InstantWinHand | None:
            del rules, hand, first_game
            return None

    class EveryHandWins(BaseRules):
        def instant_win(
            self, hand: Hand, *, first_game: bool = True
        ) -> InstantWinHand | None:
            del hand, first_game
            return InstantWin.FOUR_TWOS

    pairs = Hand.parse("3s 3c 5d 5h 7s 7c 9d 9h Js Jc Kd Kh 2s").mask
    quiet = attrs.evolve(POKER, name="quiet", custom_deal_policy=NoInstantWins())
    assert context_of(quiet, 4).instant_win(pairs, first_game=True) is None
    lucky = EveryHandWins(name="lucky")
    assert context_of(lucky, 4).instant_win(1, first_game=True) is InstantWin.FOUR_TWOS
