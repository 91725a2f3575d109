"""The object layer pays only for what the caller reads (issue 11 §1).

`Plays` builds each `Combo` with the key the generator knew, interns the sets and
the shapes, and answers ``in`` and `Plays.index` without listing the runs; the
combinations must be exactly those `structural_key` and `classify` describe
(RULES §1.2), in the same order as before.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.strategies import PRESETS, hands
from tienlen import (
    CLASSIC_TWO_DECKS,
    BaseRules,
    Combo,
    ComboKind,
    Hand,
    Shape,
    classify,
    legal_plays,
)
from tienlen.engine.movegen import Leads
from tienlen.engine.shapes import STRUCTURES, structural_key

PRESET_IDS = [rules.name for rules in PRESETS]


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
@given(hand=hands(max_size=18))
def test_iterated_combos_carry_their_structural_key(
    rules: BaseRules, hand: Hand
) -> None:
    """Every play iterated, indexed or sliced is the combination its mask makes.

    Its key is the structural key (RULES §1.2), and iteration, indexing and the
    masks agree in order.
    """
    plays = legal_plays(hand, None, rules)
    listed = list(plays)
    assert [combo.mask for combo in listed] == list(plays.masks)
    for index, combo in enumerate(listed):
        assert type(combo) is Combo
        assert combo.key == structural_key(combo.mask)
        assert plays[index].key == combo.key
        assert plays[index - len(plays)] == combo
        assert classify(combo.cards, rules) == combo


@given(hand=hands(min_size=10, max_size=20, decks=2))
def test_two_deck_runs_take_their_top_from_the_low_half(hand: Hand) -> None:
    """With two decks a run holding both copies of a card keeps the structural key.

    The top card is the highest card of the low half (RULES §1.3), whichever copy.
    """
    assert CLASSIC_TWO_DECKS.decks == 2  # five to eight players
    plays = legal_plays(hand, None, CLASSIC_TWO_DECKS)
    listed = list(plays)
    for index in range(len(plays)):
        assert listed[index].key == structural_key(listed[index].mask)
        assert plays[index].key == listed[index].key


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
@given(hand=hands(max_size=18), data=st.data())
def test_index_and_membership_never_list_and_agree(
    rules: BaseRules, hand: Hand, data: st.DataObject
) -> None:
    """`Plays.index` and ``in`` answer like a list of the plays, for plays and non-plays."""
    plays = legal_plays(hand, None, rules)
    masks = list(plays.masks)
    for position, mask in enumerate(masks):
        combo = plays[position]
        assert combo in plays
        assert plays.index(combo) == position
        assert plays._masks.index(mask) == position
    other = classify(
        data.draw(st.sampled_from(["3s 4s 5s", "2h", "9s 9h", "3s 3c 3d 3h"])), rules
    )
    if other is not None:
        assert (other in plays) == (other.mask in masks)
        if other.mask not in masks:
            with pytest.raises(ValueError, match="not one of the plays"):
                plays.index(other)


def test_index_honours_start_and_stop() -> None:
    """`Plays.index` searches only from *start* to *stop*, as `list.index` does."""
    plays = legal_plays("3s 4s 5s 6h 6d")
    run = classify("4s 5s 6h")
    position = plays.index(run)
    assert type(plays._masks) is Leads  # by type: see tests/test_play_iteration.py
    assert plays.index(run, position, position + 1) == position
    with pytest.raises(ValueError, match="not one of the plays"):
        plays.index(run, position + 1)
    with pytest.raises(ValueError, match="not one of the plays"):
        plays.index("4s 5s 6h")
    against = legal_plays("4s 5s 6d", "3h")
    assert against.index(classify("5s")) == 1
    with pytest.raises(ValueError, match="not one of the plays"):
        against.index(classify("5s"), 2)


def test_sets_and_shapes_are_interned() -> None:
    """A set (1–4 cards of one rank) is one shared `Combo`; every shape one `Shape`."""
    first = list(legal_plays("7s 7h 9d"))
    second = list(legal_plays("7s 7h Jd"))
    assert first[0] is second[0]
    assert first[2] is second[2]
    assert legal_plays("7s 7h 9d")[1] is first[1]
    for code in STRUCTURES.values():
        shape = Shape.from_code(code)
        assert shape is Shape.from_code(code)
        assert shape == Shape(shape.kind, shape.size)
    combo = classify("3s 4s 5s 6s")
    assert combo is not None
    assert combo.shape is combo.shape is Shape.from_code(combo.key >> 6)
    assert combo.shape == Shape.of(ComboKind.STRAIGHT, 4)


def test_shape_from_a_bad_code_is_still_refused() -> None:
    """`Shape.from_code` of a code no shape has raises as it did before interning."""
    with pytest.raises(Exception, match="no single has 2 cards"):
        Shape.from_code(1 << 6 | 2)


def test_lazy_runs_are_built_in_steps() -> None:
    """Iterating a hand with hundreds of runs yields every one, in listing order."""
    hand = Hand.parse("3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 8s 8h 9s 9h Ts Th Js Jh")
    plays = legal_plays(hand)
    combos = list(plays)
    assert len(combos) == len(plays) > 1000
    leads = plays._masks
    assert type(leads) is Leads  # by type: see tests/test_play_iteration.py
    assert [combo.mask for combo in combos] == leads.listed()
    rng = random.Random(7)
    for index in rng.sample(range(len(plays)), 50):
        assert plays[index] == combos[index]
        assert plays[index].key == combos[index].key


def test_a_run_of_doubled_cards_is_topped_by_its_highest_card() -> None:
    """Both copies of 7♦ in a run of pairs: the top is 7♦ (RULES §1.1, §1.3)."""
    hand = Hand.parse("5h 5h 6s 6s 7d 7d")
    runs = [
        combo
        for combo in legal_plays(hand, None, CLASSIC_TWO_DECKS)
        if combo.kind.is_sequence
    ]
    pairs = [combo for combo in runs if combo.kind is ComboKind.CONSECUTIVE_PAIRS]
    assert [str(combo.top) for combo in pairs] == ["7d"]
    assert all(combo.key == structural_key(combo.mask) for combo in runs)


def test_only_sets_are_kept() -> None:
    """Looking runs up builds them without keeping them: the table stays bounded."""
    from tienlen.combos import BY_MASK  # noqa: PLC0415 - engine-level

    combo_of = BY_MASK.__getitem__

    hand = Hand.parse("3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 8s 8h")
    before = len(BY_MASK)
    runs = [play.mask for play in legal_plays(hand) if play.kind.is_sequence]
    built = [combo_of(mask) for mask in runs]
    assert len(BY_MASK) == before
    assert [combo.key for combo in built] == [structural_key(mask) for mask in runs]
    assert combo_of(runs[0]) is not built[0]
