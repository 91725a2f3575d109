"""A `BaseRules` subclass that overrides a rule question plays consistent games (R24).

The engine takes its compiled fast path only when no rule hook is overridden; otherwise
`legal_actions()` is built from the rule set's own answers, so it lists exactly what
`is_legal` accepts (issue 10 §2).
"""

from __future__ import annotations

import random

import attrs
import pytest

from tests.game.helpers import assert_legal_actions_exact
from tienlen import CLASSIC, POKER, BaseRules, Combo, ComboKind, GameState, Play, Rank


@attrs.frozen(kw_only=True)
class LowSpadeBeatsTwos(BaseRules):
    """A house rule by subclass: the 3♠ beats a single 2 (only `beats` is overridden)."""

    def beats(self, challenger: Combo, incumbent: Combo) -> bool:
        """3♠ on a single 2, else the preset's answer."""
        if (
            str(challenger) == "3s"
            and incumbent.kind is ComboKind.SINGLE
            and incumbent.rank is Rank.TWO
        ):
            return True
        return super().beats(challenger, incumbent)


@attrs.frozen(kw_only=True)
class NoPairLeads(BaseRules):
    """A house rule by subclass: pairs may not be led (only `is_leadable` is overridden)."""

    def is_leadable(self, kind: ComboKind) -> bool:
        """Everything the preset leads except pairs."""
        return kind is not ComboKind.PAIR and super().is_leadable(kind)


def _like(cls: type[BaseRules], preset: BaseRules) -> BaseRules:
    return cls(
        **{f.name: getattr(preset, f.name) for f in attrs.fields(BaseRules) if f.init}
    )


def test_an_overridden_beats_is_offered_by_legal_actions() -> None:
    """The review's case: 3♠ beats a 2 by `beats`; `legal_actions` offers it."""
    rules = _like(LowSpadeBeatsTwos, CLASSIC)
    state = GameState.from_hands(["4d 2h", "3s 9c"], rules, first_game=False, leader=0)
    state = state.play("2h")
    assert state.is_legal(Play(player=1, cards="3s"))
    assert Play(player=1, cards="3s") in list(state.legal_actions())
    assert_legal_actions_exact(state)


@pytest.mark.parametrize(
    ("cls", "preset"),
    [(LowSpadeBeatsTwos, CLASSIC), (NoPairLeads, CLASSIC), (NoPairLeads, POKER)],
)
def test_subclass_games_list_exactly_the_legal_actions(
    cls: type[BaseRules], preset: BaseRules
) -> None:
    """Whole random games: every step's actions are exactly what `is_legal` accepts."""
    rules = _like(cls, preset)
    rng = random.Random(7)
    for _ in range(3):
        state = GameState.deal(rules, 2, seed=rng.randrange(1 << 30))
        while not state.is_over:
            actions = state.legal_actions()
            if sum(len(h) for h in state.hands) <= 12:
                assert_legal_actions_exact(state)
            else:
                assert all(state.is_legal(a) for a in actions)
            state = state.apply(rng.choice(actions))
