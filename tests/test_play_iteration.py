"""Iterating plays as `Combo`s builds each with the key the generator knew (issue 11 §1).

Leads keep their maximal runs and expand them only when iterated; counting and
indexing split them into blocks instead. Against a run that no bomb beats, every play
has the top's shape and takes its key from it. Whichever path builds a play, its key
is the structural key of its cards (RULES §1.2), and the order is the order the
generator has always listed (the golden corpus replays it).
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tests.strategies import PRESETS, hands, house_rules, tops
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    DECK,
    BaseRules,
    ComboKind,
    Hand,
    TienLenError,
    classify,
    legal_plays,
)
from tienlen.combos import _RUNS_AT_ONCE, BY_MASK, _interned
from tienlen.engine.bits import rank_counts
from tienlen.engine.movegen import (
    _ALWAYS_LISTABLE,
    MAX_LISTED_PLAYS,
    SUBSETS_BY_SIZE,
    Leads,
    _of_shape,
    key_row,
    paired_pieces,
    run_row,
    run_rows,
)
from tienlen.engine.shapes import structural_key

PRESET_IDS = [rules.name for rules in PRESETS]
TRIPLES = attrs.evolve(
    CLASSIC,
    name="triples",
    kinds=CLASSIC.kinds | {ComboKind.CONSECUTIVE_TRIPLES},
    min_consecutive_triples=2,
)
"""Consecutive triples of two ranks (RULES §12.4): runs two ranks long."""
TRIPLES_TWO_DECKS = attrs.evolve(
    CLASSIC_TWO_DECKS,
    name="triples2",
    kinds=CLASSIC_TWO_DECKS.kinds | {ComboKind.CONSECUTIVE_TRIPLES},
    min_consecutive_triples=2,
)


def _fresh_leads(hand: Hand, rules: BaseRules) -> Leads | None:
    """The lead generator's answer for *hand*, not yet counted (``None``: no run).

    Compared by type: with the compiled core under pytest, ``isinstance([], Leads)``
    was seen to answer ``True`` (an ABC check on a mypyc class); the library compares
    by type too.
    """
    leads = rules._compiled.leads(hand.mask)
    return leads if type(leads) is Leads else None


def _agree(hand: Hand, rules: BaseRules) -> None:
    """Iterating uncounted leads equals decoding every index from the blocks."""
    iterated = [(combo.mask, combo.key) for combo in legal_plays(hand, None, rules)]
    leads = _fresh_leads(hand, rules)
    if leads is not None:
        sets, runs, keys = leads.keyed()
        assert leads._len == -1, "iterating a hand this small does not count it"
        assert [*sets, *runs] == [mask for mask, _ in iterated]
        decoded = [leads.keyed_play(index) for index in range(len(leads))]
        assert [mask for mask, _ in decoded] == [mask for mask, _ in iterated]
        assert [key for _, key in decoded[len(sets) :]] == keys
    for mask, key in iterated:
        assert key == structural_key(mask)


@pytest.mark.parametrize("rules", [*PRESETS, TRIPLES], ids=[*PRESET_IDS, "triples"])
@given(hand=hands(max_size=18))
def test_iterated_leads_match_the_blocks(rules: BaseRules, hand: Hand) -> None:
    """One-deck leads: expansion and block decoding list the same plays and keys."""
    _agree(hand, rules)


@given(hand=hands(min_size=6, max_size=18, decks=2))
def test_iterated_two_deck_leads_match_the_blocks(hand: Hand) -> None:
    """Two-deck rank states (a card twice) take the computed key rows, not the table."""
    _agree(hand, CLASSIC_TWO_DECKS)
    _agree(hand, TRIPLES_TWO_DECKS)


@given(rules=house_rules(), hand=hands(max_size=16))
def test_iterated_leads_match_the_blocks_under_house_rules(
    rules: BaseRules, hand: Hand
) -> None:
    """House rules (RULES §12: fours or bombs that may not lead, …) change nothing."""
    _agree(hand, rules)


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
@given(data=st.data())
def test_answers_carry_their_structural_key(
    rules: BaseRules, data: st.DataObject
) -> None:
    """Against any top, iterated, indexed and sliced answers have the structural key.

    When the top is a run no bomb beats (RULES §1.3), the plays share its shape.
    """
    top = data.draw(tops(rules))
    hand = data.draw(hands(max_size=13).filter(lambda h: not h.mask & top.mask))
    plays = legal_plays(hand, top, rules)
    iterated = list(plays)
    assert [combo.mask for combo in iterated] == list(plays.masks)
    for index, combo in enumerate(iterated):
        assert combo.key == structural_key(combo.mask)
        assert plays[index].key == combo.key
    assert [combo.key for combo in plays[1:]] == [combo.key for combo in iterated[1:]]
    shared = top.kind.is_sequence and top.key not in rules._compiled.bombers
    assert bool(plays._base) == shared
    if shared:
        assert {combo.shape for combo in iterated} <= {top.shape}


def test_straights_against_a_straight_share_its_key_base() -> None:
    """RULES §1.3: only higher straights of the same length answer a straight."""
    plays = legal_plays("4d 5h 6c 7c 8s", "3s 4s 5s")
    assert [str(play) for play in plays] == ["4d 5h 6c", "5h 6c 7c", "6c 7c 8s"]
    for play in plays:
        assert play == classify(str(play))
        assert play.key == structural_key(play.mask)


def test_big_hands_are_counted_before_listing() -> None:
    """Issue 14 item 5: listing a 52-card hand's leads refuses, counted or not."""
    hand = Hand(sum(1 << index for index in range(52)))
    with pytest.raises(TienLenError, match="too many to list"):
        for _ in legal_plays(hand):
            pass
    with pytest.raises(TienLenError, match="too many to list"):
        _ = legal_plays(hand).masks


def test_small_hands_cannot_hold_too_many_plays() -> None:
    """A hand of fewer than `_ALWAYS_LISTABLE` cards has fewer sub-multisets than the limit."""
    assert 2 ** (_ALWAYS_LISTABLE - 1) < 2**_ALWAYS_LISTABLE <= MAX_LISTED_PLAYS
    hand = Hand.parse("3s 3c 3d 3h 4s 4c 4d 4h 5s 5c 5d 5h 6s 6c 6d 6h 7s 7c")
    assert hand.mask.bit_count() == _ALWAYS_LISTABLE - 1
    plays = legal_plays(hand)
    assert len(list(iter(plays))) == len(plays) < MAX_LISTED_PLAYS


def test_key_rows_and_paired_pieces_describe_the_subset_tables() -> None:
    """The tables the expansion reads agree with the per-rank subsets they summarise."""
    straight = ComboKind.STRAIGHT.value
    for state in (0b0101, 0b1111, 0b0011 | 0b0001 << 4):
        pieces = SUBSETS_BY_SIZE[1][5][state]
        row = key_row(straight, 5, state)
        run_pieces, by_first = run_row(straight, 5, state)
        assert run_pieces == pieces
        for length in range(3, 7):
            run_below = sum(1 << 4 * rank for rank in range(6 - length, 5))
            assert row[length] == tuple(
                structural_key(run_below | piece) for piece in pieces
            )
            assert by_first[6 - length] == row[length]
        if state < 16:
            assert run_rows(straight)[5][state] == (run_pieces, by_first)
    for bits in range(256):
        assert paired_pieces(2)[4][bits] == tuple(
            low | high
            for low in SUBSETS_BY_SIZE[2][4][bits & 15]
            for high in SUBSETS_BY_SIZE[2][5][bits >> 4]
        )


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
@given(data=st.data())
def test_sets_above_a_set_come_in_rank_order(
    rules: BaseRules, data: st.DataObject
) -> None:
    """Pairs found a byte at a time are the pairs `_sets` finds rank by rank (RULES §1.3)."""
    size = data.draw(st.integers(1, 4))
    rank = data.draw(st.integers(0, 12))
    suits = data.draw(st.permutations(range(4)))[:size]
    top = classify([DECK[4 * rank + suit] for suit in suits], rules)
    assume(top is not None)
    assert top is not None
    hand = data.draw(hands(max_size=13).filter(lambda h: not h.mask & top.mask))
    tables = rules._compiled
    family = tables.families[top.kind.value]
    expected: list[int] = []
    _of_shape(
        hand.mask, rank_counts(hand.mask), family, top.key >> 6, top.key & 63, expected
    )
    answers = list(tables.plays(hand.mask, top.key))
    assert answers[: len(expected)] == expected
    assert all(structural_key(play) >> 6 == top.key >> 6 for play in expected)


def test_interned_combinations_are_those_of_by_mask() -> None:
    """`Plays`' compiled iteration reads singles by card and the rest from `BY_MASK`."""
    masks = [
        *(1 << card for card in range(52)),  # every one-deck single
        1 << 52 + 7,  # the second copy of a card (two decks)
        Hand.parse("9s 9h").mask,
        Hand.parse("3s 3c 4s 4c 5s 5c").mask,  # a run: built, not interned
    ]
    combos = _interned(masks)
    assert combos == [BY_MASK[mask] for mask in masks]
    assert all(combo is BY_MASK[1 << card] for card, combo in enumerate(combos[:52]))
    assert [combo.key for combo in combos] == [structural_key(mask) for mask in masks]


def test_many_answers_iterate_as_they_index() -> None:
    """More answers than one step (`_RUNS_AT_ONCE`): iterated as indexed, in order."""
    hand = Hand(sum(1 << card for card in range(4, 52)))  # every card but the 3s
    plays = legal_plays(hand, "3s 3c")
    assert len(plays) > _RUNS_AT_ONCE
    assert list(plays) == [plays[index] for index in range(len(plays))]
    assert all(combo.key == structural_key(combo.mask) for combo in plays)
