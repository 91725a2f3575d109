"""Laws every rule set obeys (STYLE R53), for the five presets and for generated rule sets.

Each test draws its rule set from a strategy: `st.just(preset)` for each preset, and
`base_rules()` for random settings (kinds, 2s, pair limits, decks, bomb tables, chains),
and `house_rules()` for those with the combination house rules of RULES §12 on top.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tests.strategies import (
    PRESETS,
    base_rules,
    combo_specs,
    combos,
    hands,
    house_rules,
    same_shape_combos,
    spec_bombers,
    spec_max_top_rank,
    spec_same_shape_beats,
    tops,
)
from tienlen import (
    BaseRules,
    Card,
    Hand,
    InvalidComboError,
    beats,
    classify,
)

RULES = [pytest.param(st.just(rules), id=rules.name) for rules in PRESETS] + [
    pytest.param(base_rules(), id="generated"),
    pytest.param(house_rules(), id="house"),
]
rules_cases = pytest.mark.parametrize("rules_strategy", RULES)


# -- classify -------------------------------------------------------------------------------


@rules_cases
@given(data=st.data())
def test_classify_recognises_structural_combos(
    rules_strategy: st.SearchStrategy[BaseRules], data: st.DataObject
) -> None:
    """RULES §1.2–§1.4: cards built as a valid shape classify as exactly that shape and top."""
    rules = data.draw(rules_strategy)
    spec = data.draw(combo_specs(rules))
    combo = classify(spec.cards, rules=rules)
    assert combo is not None
    assert spec.shape == combo.shape
    assert spec.shape.kind == combo.kind
    assert spec.top == combo.top
    assert combo == classify(combo.cards, rules=rules)


@rules_cases
@given(data=st.data())
def test_classify_invariant_under_permutation(
    rules_strategy: st.SearchStrategy[BaseRules], data: st.DataObject
) -> None:
    """RULES §1.2: whether cards form a combination does not depend on their order."""
    rules = data.draw(rules_strategy)
    cards = list(data.draw(hands(1, 14, decks=rules.decks)))
    shuffled = data.draw(st.permutations(cards))
    assert classify(cards, rules=rules) == classify(shuffled, rules=rules)


@rules_cases
@given(data=st.data())
def test_classify_uses_exactly_the_input_cards(
    rules_strategy: st.SearchStrategy[BaseRules], data: st.DataObject
) -> None:
    """RULES §1.2: a combination is made of exactly the cards given, copies included."""
    rules = data.draw(rules_strategy)
    cards = data.draw(
        st.one_of(
            hands(1, 14, decks=rules.decks).map(list),
            combos(rules).map(lambda combo: list(combo.cards)),
        )
    )
    combo = classify(data.draw(st.permutations(cards)), rules=rules)
    if combo is not None:
        assert Counter(cards) == Counter(combo.cards)
        assert len(cards) == len(combo)
        assert Hand.from_cards(cards).mask == combo.mask


@rules_cases
@given(data=st.data())
def test_classify_accepts_only_valid_shapes(
    rules_strategy: st.SearchStrategy[BaseRules], data: st.DataObject
) -> None:
    """RULES §1.2, §1.4, §11: classify returns only shapes and top ranks the settings allow."""
    rules = data.draw(rules_strategy)
    cards = data.draw(hands(1, 14, decks=rules.decks))
    combo = classify(cards.cards, rules=rules)
    if combo is not None:
        highest = spec_max_top_rank(rules, combo.shape)
        assert highest is not None
        assert combo.rank <= highest


# -- beats ----------------------------------------------------------------------------------


@rules_cases
@given(data=st.data())
def test_beats_is_irreflexive(
    rules_strategy: st.SearchStrategy[BaseRules], data: st.DataObject
) -> None:
    """RULES §1.1, §1.3: no combination beats itself (nor, with two decks, its equal copy)."""
    rules = data.draw(rules_strategy)
    combo = data.draw(tops(rules))
    assert not beats(combo, combo, rules=rules)
    copy = classify(list(reversed(combo.cards)), rules=rules)
    assert copy is not None
    assert not beats(copy, combo, rules=rules)


@rules_cases
@given(data=st.data())
def test_beats_is_asymmetric(
    rules_strategy: st.SearchStrategy[BaseRules], data: st.DataObject
) -> None:
    """RULES §1.3: never both a beats b and b beats a."""
    rules = data.draw(rules_strategy)
    a = data.draw(tops(rules))
    b = data.draw(tops(rules))
    assert not (beats(a, b, rules=rules) and beats(b, a, rules=rules))


@rules_cases
@given(data=st.data())
def test_same_shape_is_ordered_by_top_card(
    rules_strategy: st.SearchStrategy[BaseRules], data: st.DataObject
) -> None:
    """RULES §1.3, §12.2: within a shape, a higher top card beats (suits permitting)."""
    rules = data.draw(rules_strategy)
    a, b = data.draw(same_shape_combos(rules, 2))
    assert spec_same_shape_beats(rules, a, b) == beats(a, b, rules=rules)
    assert spec_same_shape_beats(rules, b, a) == beats(b, a, rules=rules)


@rules_cases
@given(data=st.data())
def test_beats_is_transitive_within_a_shape(
    rules_strategy: st.SearchStrategy[BaseRules], data: st.DataObject
) -> None:
    """RULES §1.3: within a shape beating is transitive: a > b > c gives a > c."""
    rules = data.draw(rules_strategy)
    trio = data.draw(same_shape_combos(rules, 3))
    high, middle, low = sorted(trio, key=lambda combo: combo.top, reverse=True)
    assume(high.top > middle.top > low.top)
    assume(spec_same_shape_beats(rules, high, middle))
    assume(spec_same_shape_beats(rules, middle, low))
    assert beats(high, middle, rules=rules)
    assert beats(middle, low, rules=rules)
    assert beats(high, low, rules=rules)
    assert not beats(low, high, rules=rules)


@rules_cases
@given(data=st.data())
def test_other_shapes_beat_only_through_the_bomb_table(
    rules_strategy: st.SearchStrategy[BaseRules], data: st.DataObject
) -> None:
    """RULES §1.3, §2.3, §6.3: different shapes never beat each other except by the bomb table."""
    rules = data.draw(rules_strategy)
    top = data.draw(tops(rules))
    play = data.draw(st.one_of(tops(rules), combos(rules)))
    assume(play.shape != top.shape)
    assert spec_bombers(rules, top.shape, top.rank) == set(rules.bombs_against(top))
    assert (play.shape in rules.bombs_against(top)) == beats(play, top, rules=rules)


@rules_cases
@given(data=st.data())
def test_non_combinations_are_refused_by_beats(
    rules_strategy: st.SearchStrategy[BaseRules], data: st.DataObject
) -> None:
    """RULES §1.2: beats() compares combinations only; other cards raise InvalidComboError."""
    rules = data.draw(rules_strategy)
    cards = data.draw(hands(2, 10, decks=rules.decks))
    assume(classify(cards.cards, rules=rules) is None)
    other = data.draw(combos(rules))
    with pytest.raises(InvalidComboError):
        beats(cards.cards, other, rules=rules)
    with pytest.raises(InvalidComboError):
        beats(other, cards.cards, rules=rules)


# -- text and hashing -------------------------------------------------------------------------


@rules_cases
@given(data=st.data())
def test_combo_text_round_trip(
    rules_strategy: st.SearchStrategy[BaseRules], data: st.DataObject
) -> None:
    """RULES §1.1 (STYLE R53): a combo's ASCII and unicode text classify back to it."""
    rules = data.draw(rules_strategy)
    combo = data.draw(combos(rules))
    assert combo == classify(str(combo), rules=rules)
    assert combo == classify(combo.unicode(), rules=rules)
    assert combo == classify(Hand.parse(str(combo)).cards, rules=rules)


@rules_cases
@given(data=st.data())
def test_card_and_hand_text_round_trip(
    rules_strategy: st.SearchStrategy[BaseRules], data: st.DataObject
) -> None:
    """RULES §1.1 (STYLE R53): cards and hands of the variant's decks read back from their text."""
    rules = data.draw(rules_strategy)
    hand = data.draw(hands(0, 18, decks=rules.decks))
    assert hand == Hand.parse(str(hand))
    assert hand == Hand.parse(hand.unicode())
    for card in hand:
        assert card == Card.parse(str(card))
        assert card == Card.parse(card.unicode())


@rules_cases
@given(data=st.data())
def test_equal_combos_hash_alike(
    rules_strategy: st.SearchStrategy[BaseRules], data: st.DataObject
) -> None:
    """RULES §1.2: combos of the same cards are equal and hash alike, whatever the order."""
    rules = data.draw(rules_strategy)
    combo = data.draw(combos(rules))
    again = classify(data.draw(st.permutations(combo.cards)), rules=rules)
    assert again is not None
    assert combo == again
    assert hash(combo) == hash(again)
    assert len({combo, again}) == 1
