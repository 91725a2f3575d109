"""Combination kinds, shapes, `Combo` values and the `Plays` view (RULES §1.2–§1.3)."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.strategies import PRESETS, combos, valid_shapes
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    VIETCONG,
    BaseRules,
    Card,
    Combo,
    ComboKind,
    Hand,
    InvalidRulesError,
    Plays,
    Rank,
    Shape,
    classify,
    legal_plays,
    parse_cards,
)

PRESET_IDS = [rules.name for rules in PRESETS]
KIND_EXAMPLES = [
    pytest.param(ComboKind.SINGLE, "7h", 1, "single", id="single"),
    pytest.param(ComboKind.PAIR, "7h 7s", 2, "pair", id="pair"),
    pytest.param(ComboKind.TRIPLE, "7h 7s 7d", 3, "triple", id="triple"),
    pytest.param(
        ComboKind.FOUR_OF_A_KIND, "7h 7s 7d 7c", 4, "four of a kind", id="four"
    ),
    pytest.param(ComboKind.STRAIGHT, "5h 3s 4s", 3, "3-card straight", id="straight"),
    pytest.param(
        ComboKind.CONSECUTIVE_PAIRS,
        "5s 5c 6d 6h 7s 7h",
        6,
        "3 consecutive pairs",
        id="pairs",
    ),
    pytest.param(
        ComboKind.CONSECUTIVE_QUADS,
        "7s 7c 7d 7h 8s 8c 8d 8h",
        8,
        "2 consecutive quads",
        id="quads",
    ),
    pytest.param(
        ComboKind.CONSECUTIVE_TRIPLES,
        "9s 9c 9d Ts Tc Th Js Jd Jh",
        9,
        "3 consecutive triples",
        id="triples",
    ),
]
EVERY_KIND = attrs.evolve(VIETCONG, name="every-kind", kinds=frozenset(ComboKind))
"""Vietcong with consecutive triples too (RULES §12.4): every kind exists (five of a kind
is listed but never forms on one deck, RULES §12.14)."""


@pytest.mark.parametrize(("kind", "text", "size", "shape_text"), KIND_EXAMPLES)
def test_each_kind(kind: ComboKind, text: str, size: int, shape_text: str) -> None:
    """RULES §1.2: one example of every combination kind classifies as that kind."""
    combo = classify(text, rules=EVERY_KIND)
    assert combo is not None
    assert kind == combo.kind
    assert size == len(combo)
    assert Shape(kind, size) == combo.shape
    assert shape_text == str(combo.shape)
    assert max(parse_cards(text)) == combo.top
    assert combo.top.rank == combo.rank


@pytest.mark.parametrize(
    ("kind", "label", "per_rank", "is_sequence"),
    [
        (ComboKind.SINGLE, "single", 1, False),
        (ComboKind.PAIR, "pair", 2, False),
        (ComboKind.TRIPLE, "triple", 3, False),
        (ComboKind.FOUR_OF_A_KIND, "four of a kind", 4, False),
        (ComboKind.STRAIGHT, "straight", 1, True),
        (ComboKind.CONSECUTIVE_PAIRS, "consecutive pairs", 2, True),
        (ComboKind.CONSECUTIVE_QUADS, "consecutive quads", 4, True),
        (ComboKind.CONSECUTIVE_TRIPLES, "consecutive triples", 3, True),
        (ComboKind.FIVE_OF_A_KIND, "five of a kind", 5, False),
    ],
)
def test_kind_properties(
    kind: ComboKind, label: str, per_rank: int, is_sequence: bool
) -> None:
    """RULES §1.2: each kind's name, cards per rank, and whether it spans ranks."""
    assert label == kind.label
    assert per_rank == kind.per_rank
    assert is_sequence == kind.is_sequence


def test_no_other_kinds() -> None:
    """RULES §1.2, §12.4 and §12.14: exactly nine kinds; nothing else is a combination."""
    assert len(ComboKind) == 9


@pytest.mark.parametrize(
    "text",
    [
        "7s 7c 7d 8s 8c",  # full house
        "3h 5h 7h 9h Jh",  # flush
        "3s 3c 3d 4s 4c 4d 5s 5c 5d",  # triples run
        "7s 7s 7c 7d 7h",  # five of a kind (two decks)
        "7s 7s 7c 7c 7d 7d",  # six of a kind (two decks)
        "3s 4s",  # two-card run
        "3s 3c 4s 4c",  # two consecutive pairs
        "3s 4s 6s",  # gapped run
        "3s 3c 4s 5s",  # mixed run
        "3s 3s 4s 5s",  # two copies in a straight (two decks)
        "7s 8c",  # unrelated cards
    ],
)
def test_nothing_else_is_a_combination(text: str) -> None:
    """RULES §1.2: no full houses, flushes, triples-runs or five of a kind, even with two decks."""
    for rules in PRESETS:
        if rules.decks == 1 and len(set(parse_cards(text))) < len(parse_cards(text)):
            continue  # one-deck variants reject duplicates outright (tested elsewhere)
        assert classify(text, rules=rules) is None, rules.name


# -- shapes ---------------------------------------------------------------------------


def test_shape_of_counts_ranks_for_sequences() -> None:
    """RULES §1.3: a shape is a kind plus a number of cards; runs are sized by ranks."""
    assert Shape(ComboKind.CONSECUTIVE_PAIRS, 6) == Shape.of(
        ComboKind.CONSECUTIVE_PAIRS, 3
    )
    assert Shape(ComboKind.CONSECUTIVE_QUADS, 12) == Shape.of(
        ComboKind.CONSECUTIVE_QUADS, 3
    )
    assert Shape(ComboKind.STRAIGHT, 5) == Shape.of(ComboKind.STRAIGHT, 5)
    assert Shape(ComboKind.FOUR_OF_A_KIND, 4) == Shape.of(ComboKind.FOUR_OF_A_KIND)
    assert Shape.of(ComboKind.CONSECUTIVE_PAIRS, 3).length == 3
    assert Shape.of(ComboKind.TRIPLE).length == 1
    assert Shape.of(ComboKind.STRAIGHT, 4) != Shape.of(ComboKind.STRAIGHT, 3)
    assert Shape.of(ComboKind.CONSECUTIVE_PAIRS, 4) != Shape.of(
        ComboKind.CONSECUTIVE_PAIRS, 3
    )


@pytest.mark.parametrize(
    ("kind", "size"),
    [
        (ComboKind.SINGLE, 2),
        (ComboKind.PAIR, 3),
        (ComboKind.FOUR_OF_A_KIND, 5),
        (ComboKind.STRAIGHT, 2),
        (ComboKind.STRAIGHT, 14),
        (ComboKind.CONSECUTIVE_PAIRS, 4),
        (ComboKind.CONSECUTIVE_PAIRS, 7),
        (ComboKind.CONSECUTIVE_QUADS, 4),
        (ComboKind.CONSECUTIVE_QUADS, 10),
        (ComboKind.CONSECUTIVE_TRIPLES, 3),
        (ComboKind.CONSECUTIVE_TRIPLES, 7),
        (ComboKind.CONSECUTIVE_TRIPLES, 42),
    ],
)
def test_impossible_shapes_are_rejected(kind: ComboKind, size: int) -> None:
    """RULES §1.2: a shape must have a size some combination of its kind can have."""
    with pytest.raises(InvalidRulesError, match=rf"^no {kind.label} has {size} cards$"):
        Shape(kind, size)


def test_shape_text() -> None:
    """RULES §1.3: shapes read as the kind, with the length for runs."""
    assert str(Shape.of(ComboKind.SINGLE)) == "single"
    assert str(Shape.of(ComboKind.STRAIGHT, 5)) == "5-card straight"
    assert str(Shape.of(ComboKind.CONSECUTIVE_PAIRS, 4)) == "4 consecutive pairs"
    assert str(Shape.of(ComboKind.CONSECUTIVE_QUADS, 3)) == "3 consecutive quads"


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
def test_shape_code_round_trip(rules: BaseRules) -> None:
    """RULES §1.3: every shape of a variant survives its compact code and is hashable."""
    shapes = valid_shapes(rules)
    assert shapes
    for shape in shapes:
        assert shape == Shape.from_code(shape.code)
    assert len(shapes) == len({shape.code for shape in shapes}) == len(set(shapes))


# -- Combo values ---------------------------------------------------------------------


def test_combo_text_forms() -> None:
    """RULES §1.2: a combo shows its cards ascending, in ASCII, unicode and repr forms."""
    combo = classify("5h 3s 4s")
    assert combo is not None
    assert str(combo) == "3s 4s 5h"
    assert combo.unicode() == "3♠ 4♠ 5♥"
    assert repr(combo) == "<Combo STRAIGHT '3s 4s 5h'>"
    assert len(combo) == 3
    assert Card.parse("5h") == combo.top
    assert combo.rank == Rank.FIVE
    assert parse_cards("3s 4s 5h") == combo.cards
    assert list(parse_cards("3s 4s 5h")) == list(combo)
    assert Card.parse("4s") in combo
    assert Card.parse("4h") not in combo
    assert "4s" not in combo
    assert Hand.parse("3s 4s 5h").mask == combo.mask


def test_combo_top_is_highest_card() -> None:
    """RULES §1.3: the top card decides comparisons: 7♥7♠ tops at 7♥, 8♠9♠10♦ at 10♦."""
    pair = classify("7s 7h")
    straight = classify("8s 9s Td")
    assert pair is not None
    assert straight is not None
    assert Card.parse("7h") == pair.top
    assert Card.parse("Td") == straight.top


def test_combo_equality_and_hash() -> None:
    """RULES §1.2: combos are equal when they hold the same cards, whatever the order."""
    a = classify("7h 7s")
    b = classify([Card.parse("7s"), Card.parse("7h")])
    c = classify("7d 7s")
    assert a is not None
    assert b is not None
    assert c is not None
    assert a == b
    assert hash(a) == hash(b)
    assert a != c
    assert len({a, b, c}) == 2
    assert a != "7s 7h"
    assert a == classify("7s 7h", rules=VIETCONG)  # the same cards under any variant


def test_classify_accepts_text_and_any_iterable_of_cards() -> None:
    """RULES §1.2: classify takes card text or cards in any container, in any order."""
    expected = classify("3s 4s 5h")
    cards = parse_cards("5h 4s 3s")
    assert expected is not None
    assert expected == classify(cards)
    assert expected == classify(list(cards))
    assert expected == classify(iter(cards))
    assert expected == classify(Hand.from_cards(cards))
    assert expected == classify(card for card in cards)
    assert classify("") is None
    assert classify([]) is None


def test_classify_rejects_non_cards() -> None:
    """STYLE R36: anything but card text or Card objects is a TypeError."""
    with pytest.raises(TypeError, match="expected card text or Card objects"):
        classify([1, 2])  # type: ignore[list-item]


def test_combo_has_no_order() -> None:
    """RULES §1.3: Combo objects have no `<`; only beats() compares them."""
    a = classify("7h")
    b = classify("8h")
    assert a is not None
    assert b is not None
    with pytest.raises(TypeError):
        _ = a < b  # type: ignore[operator]


def test_two_deck_combo() -> None:
    """RULES §1.1, §2.1: with two decks a combo may hold both copies of a card."""
    combo = classify("7h 7h", CLASSIC_TWO_DECKS)
    assert combo is not None
    assert combo.kind == ComboKind.PAIR
    assert str(combo) == "7h 7h"
    assert len(combo) == 2
    assert Card.parse("7h") == combo.top
    assert combo != classify("7h")


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
@given(data=st.data())
def test_combo_views_agree(rules: BaseRules, data: st.DataObject) -> None:
    """RULES §1.2–§1.3: len, iteration, cards, top, rank and shape describe the same cards."""
    combo = data.draw(combos(rules))
    assert list(combo.cards) == list(combo)
    assert sorted(combo.cards) == list(combo.cards)
    assert len(combo.cards) == len(combo) == combo.shape.size
    assert combo.shape.kind == combo.kind
    assert max(combo.cards) == combo.top
    assert combo.top.rank == combo.rank
    assert all(card in combo for card in combo)
    assert Hand.from_cards(combo.cards).mask == combo.mask
    assert " ".join(map(str, combo.cards)) == str(combo)
    assert f"<Combo {combo.kind.name} {str(combo)!r}>" == repr(combo)


# -- Plays ----------------------------------------------------------------------------


def _plays() -> Plays:
    return legal_plays("3s 3h 4d 5c 5d")


def test_plays_sequence_protocol() -> None:
    """RULES §1.2: legal plays are a read-only sequence of combos, indexable and sliceable."""
    plays = _plays()
    listed = list(plays)
    assert len(plays) == 11  # 5 singles, 2 pairs, 4 straights 3-4-5
    assert listed == [plays[i] for i in range(len(plays))]
    assert plays[-1] == listed[-1]
    assert all(isinstance(play, Combo) for play in plays)
    window = plays[1:4]
    assert isinstance(window, Plays)
    assert listed[1:4] == list(window)
    assert listed[::-1] == list(plays[::-1])
    assert tuple(play.mask for play in plays) == plays.masks
    for outside in (11, -12):
        with pytest.raises(IndexError):
            _ = plays[outside]
    assert listed.index(listed[3]) == plays.index(listed[3])
    assert plays.count(listed[0]) == 1


def test_plays_contains() -> None:
    """RULES §1.2: a Plays view contains exactly its combos, and nothing that is not a combo."""
    plays = _plays()
    assert classify("3s 3h") in plays
    assert classify("3s 4d 5c") in plays
    assert classify("5c 5d") in plays
    assert classify("3s 3d") not in plays  # a pair the hand does not hold
    assert classify("6s") not in plays
    assert "3s" not in plays
    assert Card.parse("3s") not in plays


def test_plays_equality_and_repr() -> None:
    """RULES §1.2: equal plays views compare and hash equal; repr shows the first five."""
    assert _plays() == _plays()
    assert _plays() == _plays()[:]  # a lazy lead list equals its listed slice
    assert hash(_plays()) == hash(_plays()[:])
    assert hash(_plays()) == hash(_plays())
    assert _plays() != legal_plays("3s 3h")
    assert _plays() != list(_plays())
    first_five = ", ".join(repr(str(play)) for play in list(_plays())[:5])
    assert repr(_plays()) == f"<Plays (11): [{first_five}, ...]>"
    assert repr(legal_plays("3s")) == "<Plays (1): ['3s']>"
    assert repr(legal_plays("", rules=CLASSIC)) == "<Plays (0): []>"
