"""RULES D-25: with ``bombs_may_lead=False`` a five of a kind that is a bomb may not lead.

§12.14 with §12.1: the setting bars every bomb from leading, five of a kind included
when the rule set makes it a bomb (by its bomb table or chain); a five of a kind that
is no bomb leads as before, and a four of a kind follows its own setting
(``four_of_a_kind_may_lead``). No preset plays five of a kind (it forms on two decks
only), so every preset is checked as a two-deck house table built from it.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.game.helpers import all_candidate_actions
from tests.strategies import PRESETS
from tienlen import (
    CLASSIC_TWO_DECKS,
    POKER,
    BaseRules,
    Bomb,
    ComboKind,
    GameState,
    Hand,
    IllegalPlayError,
    IllegalReason,
    Play,
    Shape,
    legal_plays,
    rule_section,
)

FIVE = Shape.of(ComboKind.FIVE_OF_A_KIND)
FOUR = Shape.of(ComboKind.FOUR_OF_A_KIND)
FIVE_SEVENS = "7s 7s 7c 7d 7h"


def two_decks(preset: BaseRules, **changes: Any) -> BaseRules:
    """*preset* on two decks for five players, with five of a kind, and *changes*."""
    seats: dict[str, Any] = {"decks": 2, "min_players": 5, "max_players": 5}
    if preset.place_points and len(preset.place_points) != 5:  # Poker pays each place
        seats["place_points"] = (4, 2, 1, 0, 0)
    return attrs.evolve(
        preset,
        name=f"{preset.name}-five",
        aliases=(),
        kinds=preset.kinds | {ComboKind.FIVE_OF_A_KIND},
        **seats,
        **changes,
    )


def as_bomb(rules: BaseRules) -> frozenset[Bomb]:
    """Bomb rows making five of a kind a bomb above a four (docs/house-rules.md §12.14)."""
    return (
        rules.bombs
        | {Bomb(bomb=FIVE, target=FOUR)}
        | {
            Bomb(bomb=FIVE, target=row.target, target_rank=row.target_rank)
            for row in rules.bombs
            if row.bomb == FOUR
        }
    )


def tables(preset: BaseRules) -> dict[str, BaseRules]:
    """The two-deck tables of *preset*: five of a kind a bomb or not, bombs lead or not."""
    plain = two_decks(preset)
    bomb = attrs.evolve(plain, bombs=as_bomb(plain))
    return {
        "plain": plain,
        "plain-no-lead": attrs.evolve(plain, bombs_may_lead=False),
        "bomb": bomb,
        "bomb-no-lead": attrs.evolve(bomb, bombs_may_lead=False),
    }


ALL_PRESETS = [
    pytest.param(preset, id=preset.name) for preset in (*PRESETS, CLASSIC_TWO_DECKS)
]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_bomb_five_may_not_lead_when_bombs_may_not(preset: BaseRules) -> None:
    """D-25 for a table built from every preset: only the bomb five is barred."""
    made = tables(preset)
    leads = {
        name: rules.is_leadable(ComboKind.FIVE_OF_A_KIND)
        for name, rules in made.items()
    }
    assert leads == {
        "plain": True,
        "plain-no-lead": True,  # no bomb here: it leads
        "bomb": True,
        "bomb-no-lead": False,  # D-25
    }
    for name, rules in made.items():
        listed = [str(play) for play in legal_plays(f"{FIVE_SEVENS} 3c", rules=rules)]
        assert (FIVE_SEVENS in listed) is leads[name], name


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_four_of_a_kind_keeps_its_own_setting(preset: BaseRules) -> None:
    """D-25: ``bombs_may_lead`` leaves a four of a kind to ``four_of_a_kind_may_lead``."""
    bomb = tables(preset)["bomb-no-lead"]
    assert bomb.is_leadable(ComboKind.FOUR_OF_A_KIND)
    assert not attrs.evolve(bomb, four_of_a_kind_may_lead=False).is_leadable(
        ComboKind.FOUR_OF_A_KIND
    )
    four_only = attrs.evolve(
        tables(preset)["bomb"], four_of_a_kind_may_lead=False
    )  # bombs_may_lead on: the five still leads
    assert four_only.is_leadable(ComboKind.FIVE_OF_A_KIND)


def test_a_five_in_the_bomb_chain_is_a_bomb_too() -> None:
    """Poker's chain (RULES §6.3) may hold five of a kind: it is a bomb, so it may not lead."""
    chained = two_decks(
        POKER, bomb_chain=(*POKER.bomb_chain, FIVE), bombs_may_lead=False
    )
    assert chained.is_bomb(FIVE)
    assert not chained.is_leadable(ComboKind.FIVE_OF_A_KIND)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_is_leadable_agrees_with_is_bomb(preset: BaseRules) -> None:
    """The rule reads the bomb table and chain exactly as `is_bomb` does."""
    for rules in tables(preset).values():
        barred = not rules.bombs_may_lead and rules.is_bomb(FIVE)
        assert rules.is_leadable(ComboKind.FIVE_OF_A_KIND) is not barred


HANDS = ["7s 7s 7c 7d 7h 3c", "8s 8s 8c 8d 8h 4c", "9s 9c 9d 9h 5c", "Ts Tc", "Js Jc"]


def test_a_game_refuses_the_lead_and_cites_d25() -> None:
    """In a game the lead is refused (`IllegalReason.CANNOT_LEAD`, rule D-25) ..."""
    rules = tables(CLASSIC_TWO_DECKS)["bomb-no-lead"]
    state = GameState.from_hands(HANDS, rules, first_game=False, leader=0)
    five = Play(player=0, cards=Hand.parse(FIVE_SEVENS))
    assert five not in state.legal_actions()
    with pytest.raises(IllegalPlayError) as caught:
        state.apply(five)
    assert caught.value.reason is IllegalReason.CANNOT_LEAD
    assert caught.value.rule == "d-25"
    assert rule_section("d-25").number == "D-25"


def test_the_bomb_five_still_beats_what_it_beats() -> None:
    """... but the five is still played onto a four of a kind, which it beats."""
    rules = tables(CLASSIC_TWO_DECKS)["bomb-no-lead"]
    hands = ["9s 9c 9d 9h 5c", "7s 7s 7c 7d 7h 3c", "Ts Tc", "Js Jc", "Qs Qc"]
    state = GameState.from_hands(hands, rules, first_game=False, leader=0)
    state = state.play("9s 9c 9d 9h")
    assert Play(player=1, cards=Hand.parse(FIVE_SEVENS)) in state.legal_actions()


@pytest.mark.parametrize("name", ["bomb-no-lead", "plain-no-lead"])
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_legal_actions_are_what_is_legal_accepts(name: str, seed: int) -> None:
    """Whole games under D-25: the listed actions are exactly those `is_legal` takes."""
    rules = tables(CLASSIC_TWO_DECKS)[name]
    rng = random.Random(seed)
    state = GameState.from_hands(
        HANDS, rules, first_game=False, leader=rng.randrange(len(HANDS))
    )
    while not state.is_over:
        listed = list(state.legal_actions())
        accepted = {a for a in all_candidate_actions(state) if state.is_legal(a)}
        assert set(listed) == accepted
        state = state.apply(listed[rng.randrange(len(listed))])
