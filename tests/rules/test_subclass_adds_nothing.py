"""A subclass of `BaseRules` that adds nothing behaves as its base (issue 35 §4).

Records, notation and the bomb tally ask the rule set (`BaseRules.answers_from_settings`,
`BaseRules.as_settings`, the engine's check of overridden rule hooks) instead of
dispatching on its exact class; a subclass that changes a rule is still refused where
only settings can be written.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import attrs
import pytest

from tienlen import (
    CLASSIC,
    POKER,
    BaseRules,
    GameState,
    GreedyPlayer,
    InvalidRulesError,
    Shape,
    notation,
)
from tienlen.engine.keys import BombTally
from tienlen.engine.referee import play_out
from tienlen.notation import NotationError
from tienlen.records import RecordError, rules_to_json


@attrs.frozen
class Renamed(BaseRules):
    """A house's own class for its rule sets, adding nothing."""


@attrs.frozen
class NoLeadingTwos(BaseRules):
    """A subclass that answers a rule question itself (here, as the base does)."""

    def may_lead(self, shape: Shape) -> bool:
        """Asked of every shape: overriding a rule question makes the class code."""
        return super().may_lead(shape)


def _as(cls: type[BaseRules], rules: BaseRules) -> BaseRules:
    settings: dict[str, Any] = rules.__getstate__()
    return cls(**settings)


@pytest.mark.parametrize("preset", [CLASSIC, POKER], ids=repr)
def test_records_and_notation_write_it_as_its_base(preset: BaseRules) -> None:
    """The same JSON and the same notation as the base class with those settings."""
    renamed = _as(Renamed, preset)
    assert renamed.answers_from_settings
    assert rules_to_json(renamed) == rules_to_json(preset)
    state, base = GameState.deal(renamed, 4, seed=5), GameState.deal(preset, 4, seed=5)
    assert notation.write(state) == notation.write(base)
    assert renamed.as_settings() == preset


def test_the_bomb_tally_reads_keys_under_it() -> None:
    """The tally takes its per-shape path (`BombAnswers`), and counts as under the base."""
    counts = []
    for rules in (POKER, _as(Renamed, POKER)):
        tally = BombTally(4)
        play_out(
            GameState.deal(rules, 4, seed=3),
            [GreedyPlayer()] * 4,
            random.Random(3),
            tally,
        )
        assert tally._answers is not None
        counts.append((tally.bombs, tally.chops))
    assert counts[0] == counts[1]


def test_a_subclass_that_changes_a_rule_is_still_code() -> None:
    """Overriding a rule question: records, notation and `as_settings` refuse it."""
    changed = _as(NoLeadingTwos, CLASSIC)
    assert not changed.answers_from_settings
    with pytest.raises(RecordError, match="NoLeadingTwos"):
        rules_to_json(changed)
    with pytest.raises(NotationError, match="NoLeadingTwos"):
        notation.write(GameState.deal(changed, 4, seed=1))
    with pytest.raises(InvalidRulesError, match="may_lead"):
        changed.as_settings()
    tally = BombTally(4)
    play_out(
        GameState.deal(changed, 4, seed=3),
        [GreedyPlayer()] * 4,
        random.Random(3),
        tally,
    )
    assert tally._answers is None  # asked about every play through its methods


def test_a_subclass_adding_a_setting_is_code() -> None:
    """A setting records do not know makes the settings say less than the rule set."""

    @attrs.frozen
    class Stakes(BaseRules):
        stake: int = 1

    assert not _as(Stakes, CLASSIC).answers_from_settings


def test_an_attrs_subclass_pickles_before_and_after_compiling() -> None:
    """Its generated ``__getstate__`` reads only fields: the lazily made parts are none."""
    renamed = _as(Renamed, CLASSIC)
    cold = pickle.loads(pickle.dumps(renamed))  # noqa: S301 - our own bytes
    renamed.classify("3s 4s 5s")
    warm = pickle.loads(pickle.dumps(renamed))  # noqa: S301 - our own bytes
    assert cold == warm == renamed
    assert warm.classify("7s 7h") == CLASSIC.classify("7s 7h")
