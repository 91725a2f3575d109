"""A table's own policy that reads a fact of the play it did not declare is refused (issue 35).

The engine gives a turn policy only the facts its `TurnPolicy.reads` names and
remembers its answers by them. A policy that reads another fact used to see ``None``
and silently never fire; now the first read is an `InvalidRulesError` naming the
policy and the fact, and the game it was asked in is left as it was.
"""

from __future__ import annotations

import pickle

import attrs
import pytest

from tienlen import CLASSIC, POKER, GameState, InvalidRulesError
from tienlen.policies import AfterPlay, Seating, TurnPolicy

HANDS = ["3s 2h 5d", "4s 9s 9c 9d 9h Kd", "6c 7c 8c"]
"""Seat 0 leads 3s; its 2h is bombed by seat 1's four nines (a bomb under classic)."""


@attrs.frozen
class BombsEndTricks(TurnPolicy):
    """A house rule: a bomb ends the trick at once. It reads ``bomb``, declares nothing."""

    def after_play(self, seating: Seating, event: AfterPlay) -> tuple[int | None, int]:
        """A bomb ends the trick; anything else as the library's policy."""
        if event.bomb:
            return None, event.locked
        return super().after_play(seating, event)


@attrs.frozen
class DeclaredBombsEndTricks(BombsEndTricks):
    """The same rule, declaring what it reads."""

    reads = frozenset({"bomb"})


@attrs.frozen
class SwallowingPolicy(BombsEndTricks):
    """Reads ``bomb`` undeclared and hides the error it gets."""

    def after_play(self, seating: Seating, event: AfterPlay) -> tuple[int | None, int]:
        """The bomb rule, falling back to the library's when it is refused."""
        try:
            return super().after_play(seating, event)
        except InvalidRulesError:
            return TurnPolicy.after_play(self, seating, event)


def _game(policy: TurnPolicy) -> GameState:
    rules = attrs.evolve(CLASSIC, name="house", custom_turn_policy=policy)
    return GameState.from_hands(HANDS, rules)


@pytest.mark.parametrize("policy", [BombsEndTricks(), SwallowingPolicy()], ids=repr)
def test_an_undeclared_read_is_refused_at_the_first_play(policy: TurnPolicy) -> None:
    """The first play asks the policy; reading ``bomb`` undeclared raises, naming both."""
    state = _game(policy)
    before = str(state)
    with pytest.raises(InvalidRulesError) as refused:
        state.play("3s")
    message = str(refused.value)
    assert type(policy).__name__ in message
    assert "'bomb'" in message
    assert "reads" in message
    assert str(state) == before  # the refused play changed nothing


def test_a_declared_read_fires() -> None:
    """Declared, the fact reaches the policy: the bomb ends the trick, its player leads."""
    state = _game(DeclaredBombsEndTricks())
    for cards in ("3s", "4s", "6c", "2h", "9s 9c 9d 9h"):
        state = state.play(cards)
    assert state.to_act == 1
    assert state.top is None
    plain = GameState.from_hands(HANDS, CLASSIC)
    for cards in ("3s", "4s", "6c", "2h", "9s 9c 9d 9h"):
        plain = plain.play(cards)
    assert plain.to_act == 2  # without the house rule, the others may answer


def test_the_refusal_pickles() -> None:
    """Like every error of the library, the refusal pickles."""
    with pytest.raises(InvalidRulesError) as refused:
        _game(BombsEndTricks()).play("3s")
    loaded = pickle.loads(pickle.dumps(refused.value))  # noqa: S301 - our own bytes
    assert str(loaded) == str(refused.value)


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=repr)
def test_the_library_policies_play_as_before(rules: object) -> None:
    """The presets' own policies read what they declare: whole games play."""
    state = GameState.deal(rules, 4, seed=7)  # type: ignore[arg-type]
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    assert state.result is not None
