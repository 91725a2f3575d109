"""`BaseRules.beats` remembers its answers by key pair; the memo never changes one.

The rule of `beats` lives in one place (`engine.classification.judge`, RULES §1.3, the bomb
table, §12.2 for suited straights); the memo in front of it only saves the work.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.strategies import combos, house_rules
from tienlen import CLASSIC, CLASSIC_TWO_DECKS, BaseRules, InvalidCardError, classify
from tienlen.engine import classification


@given(data=st.data(), rules=house_rules())
def test_asking_twice_gives_the_first_answer(
    data: st.DataObject, rules: BaseRules
) -> None:
    """Any rule set, any pair: a fresh rule set and a remembering one agree."""
    fresh = attrs.evolve(rules)  # the same settings, an empty memo
    pairs = [(data.draw(combos(rules)), data.draw(combos(rules))) for _ in range(6)]
    first = [rules.beats(a, b) for a, b in pairs]
    assert [rules.beats(a, b) for a, b in pairs] == first
    assert [classification.judge(fresh, a, b) for a, b in pairs] == first


def test_suited_straights_are_judged_by_their_suits_every_time() -> None:
    """RULES §12.2: two straights with the same key differ by suits, never remembered."""
    suited = attrs.evolve(CLASSIC, name="suited", suited_straights=True)
    top = classify("3h 4h 5h", suited)
    assert top is not None
    one_suit = classify("4d 5d 6d", suited)
    mixed = classify("4s 5c 6d", suited)
    assert one_suit is not None
    assert mixed is not None
    assert one_suit.key == mixed.key
    assert suited.beats(one_suit, top)
    assert not suited.beats(mixed, top)
    assert suited.beats(one_suit, top)
    assert not suited.beats(mixed, top)


def test_a_card_held_twice_is_refused_after_its_key_was_remembered() -> None:
    """RULES §1.1: the memo is by key; one deck still refuses a pair of one card."""
    pair = classify("7s 7h")
    doubled = classify("7h 7h", CLASSIC_TWO_DECKS)
    assert pair is not None
    assert doubled is not None
    assert pair.key == doubled.key
    low = classify("6s 6h")
    assert low is not None
    assert CLASSIC.beats(pair, low)  # remembered now
    with pytest.raises(InvalidCardError, match="one deck"):
        CLASSIC.beats(doubled, low)
    with pytest.raises(InvalidCardError, match="one deck"):
        CLASSIC.beats(low, doubled)
    assert CLASSIC_TWO_DECKS.beats(doubled, low)


def test_the_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memo starts afresh when full: memory stays bounded, answers stay right."""
    monkeypatch.setattr(classification, "MAX_VERDICTS", 2)
    rules = attrs.evolve(CLASSIC)
    cards = ["3s", "4s", "5s", "6s"]
    singles = [classify(card) for card in cards]
    for a in singles:
        for b in singles:
            assert a is not None
            assert b is not None
            assert rules.beats(a, b) is (a.key > b.key)
            assert len(rules._verdicts) <= 2


def test_the_memo_pickles_empty() -> None:
    """A rule set sent to a worker does not carry its memo along (it is a cache)."""
    import pickle  # noqa: PLC0415

    rules = attrs.evolve(CLASSIC)
    low, high = classify("3s"), classify("4s")
    assert low is not None
    assert high is not None
    assert rules.beats(high, low)
    restored = pickle.loads(pickle.dumps(rules))  # noqa: S301 - our own bytes
    assert len(restored._verdicts) == 0
    assert restored.beats(high, low)
    assert not restored.beats(low, high)
