"""A rule set that is not a `BaseRules` must work everywhere (STYLE R24).

`Delegate` implements the `RuleSet` protocol member by member, forwarding to a preset,
and nothing else. If the engine, the players or the simulator read a setting that the
protocol does not declare, these tests fail with an AttributeError.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import attrs
import pytest

from tienlen import (
    RULESETS,
    BaseRules,
    Card,
    Combo,
    ComboKind,
    Direction,
    GameState,
    Hand,
    InstantWinHand,
    Plays,
    RandomPlayer,
    RuleSet,
    Shape,
    classify,
    legal_plays,
    play_game,
    simulate,
)
from tienlen.policies import DealPolicy, Scorer, TurnPolicy


@attrs.frozen
class Delegate:
    """Every `RuleSet` member, forwarded to *rules*; nothing more."""

    rules: BaseRules

    @property
    def name(self) -> str:
        """The preset's name."""
        return self.rules.name

    def classify(self, cards: str | Iterable[Card]) -> Combo | None:
        """Forwarded."""
        return self.rules.classify(cards)

    def beats(self, challenger: Combo, incumbent: Combo) -> bool:
        """Forwarded."""
        return self.rules.beats(challenger, incumbent)

    def legal_plays(self, hand: Hand, top: Combo | None = None) -> Plays:
        """Forwarded."""
        return self.rules.legal_plays(hand, top)

    def is_leadable(self, kind: ComboKind) -> bool:
        """Forwarded."""
        return self.rules.is_leadable(kind)

    @property
    def turn_policy(self) -> TurnPolicy:
        """Forwarded."""
        return self.rules.turn_policy

    @property
    def deal_policy(self) -> DealPolicy:
        """Forwarded."""
        return self.rules.deal_policy

    @property
    def scorer(self) -> Scorer:
        """Forwarded."""
        return self.rules.scorer

    @property
    def direction(self) -> Direction:
        """Forwarded."""
        return self.rules.direction

    def deal_size(self, players: int) -> tuple[int, int]:
        """Forwarded."""
        return self.rules.deal_size(players)

    def lead_must_include(
        self, *, first_game: bool, after_instant_win: bool = False
    ) -> bool:
        """Forwarded."""
        return self.rules.lead_must_include(
            first_game=first_game, after_instant_win=after_instant_win
        )

    @property
    def may_decline_first_lead(self) -> bool:
        """Forwarded."""
        return self.rules.may_decline_first_lead

    def is_bomb(self, shape: Shape) -> bool:
        """Forwarded."""
        return self.rules.is_bomb(shape)

    def is_chop_target(self, top: Combo) -> bool:
        """Forwarded."""
        return self.rules.is_chop_target(top)

    def may_jump_in(self, play: Combo, top: Combo) -> bool:
        """Forwarded."""
        return self.rules.may_jump_in(play, top)

    def instant_win(
        self, hand: Hand, *, first_game: bool = True
    ) -> InstantWinHand | None:
        """Forwarded."""
        return self.rules.instant_win(hand, first_game=first_game)

    def is_catch(self, play: Combo, top: Combo) -> bool:
        """Forwarded."""
        return self.rules.is_catch(play, top)

    def chop_value(self, combo: Combo) -> int:
        """Forwarded."""
        return self.rules.chop_value(combo)

    def hand_value(self, hand: Hand) -> int:
        """Forwarded."""
        return self.rules.hand_value(hand)

    def place_points_for(self, players: int) -> tuple[int, ...]:
        """Forwarded."""
        return self.rules.place_points_for(players)

    @property
    def frozen_penalty(self) -> int:
        """Forwarded."""
        return self.rules.frozen_penalty

    @property
    def instant_win_stake(self) -> int:
        """Forwarded."""
        return self.rules.instant_win_stake

    @property
    def instant_win_points(self) -> int:
        """Forwarded."""
        return self.rules.instant_win_points


_checked: RuleSet = Delegate(RULESETS["classic"])  # mypy checks the protocol is met


@pytest.mark.parametrize("preset", list(RULESETS.values()), ids=list(RULESETS))
def test_games_under_a_protocol_rule_set_equal_the_preset(preset: BaseRules) -> None:
    """The engine asks only RuleSet members: a delegate plays the same games (STYLE R24)."""
    rules: RuleSet = Delegate(preset)
    for seed in range(20):
        players = [RandomPlayer()] * 4
        ours = play_game(GameState.deal(rules, 4, seed), players, random.Random(seed))
        theirs = play_game(
            GameState.deal(preset, 4, seed), players, random.Random(seed)
        )
        assert ours.history == theirs.history
        assert ours.result == theirs.result


@pytest.mark.parametrize("preset", list(RULESETS.values()), ids=list(RULESETS))
def test_rule_questions_and_simulation_take_a_protocol_rule_set(
    preset: BaseRules,
) -> None:
    """classify, legal_plays and simulate work with any RuleSet (RULES §1–§6)."""
    rules: RuleSet = Delegate(preset)
    assert classify("3s 4s 5h", rules) == classify("3s 4s 5h", preset)
    assert legal_plays("3s 4s 5h 2h", "Kd", rules) == legal_plays(
        "3s 4s 5h 2h", "Kd", preset
    )
    players = [RandomPlayer()] * 4
    assert simulate(30, rules=rules, players=players, seed=1).games == 30
