"""What a hand's per-rank counts hold: the instant-win tests (RULES §6.7, §12.5).

A hand's counts are `bits.rank_counts` of its mask, one nibble per rank (rank 3
first, at most 8 cards a rank with two decks). Each test reads them with a few
integer operations; `tienlen.rules.base` names them per `InstantWin`, and the rule
book (`tienlen.engine.rulebook`) runs them at every deal. They live in the engine so
that the compiled build compiles them with the deal that calls them.

Example:
    >>> from tienlen import Hand
    >>> from tienlen.engine.bits import rank_counts
    >>> counts = rank_counts(Hand.parse("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 9d Jh 2s").mask)
    >>> five_consecutive_pairs(counts), six_pairs(counts), thirteen_ranks(counts)
    (True, False, False)
"""

from __future__ import annotations

from typing import Final

from tienlen.engine.bits import AT_LEAST_OFFSETS, CARDS, LOW_HALF, ONES, RANKS, SHIFTS

__all__ = [
    "BELOW_TWO",
    "dragon_without_two",
    "five_consecutive_pairs",
    "four_twos",
    "has_run",
    "holds_run",
    "one_colour",
    "ranks_with",
    "six_exact_pairs",
    "six_pairs",
    "thirteen_ranks",
    "three_consecutive_triples",
    "three_triples",
]

TWO: Final = RANKS - 1
"""The rank of the 2, the highest (RULES §1.1)."""
BELOW_TWO: Final = ONES & ~(15 << SHIFTS[TWO])
"""Bit ``4 * r`` of every rank below the 2."""
_BIT_1: Final = ONES << 1
_BIT_2: Final = ONES << 2
_BIT_3: Final = ONES << 3
"""Bits 1, 2 and 3 of every rank's count (`six_pairs`)."""
_BLACK: Final = int("3" * RANKS, 16)
"""♠ and ♣ of every rank in one half of a hand mask (`one_colour`)."""
_RED: Final = _BLACK << 2
"""♦ and ♥ of every rank in one half of a hand mask."""
_ONE_COLOUR_CARDS: Final = 13
"""How many cards of one colour `one_colour` needs (RULES §12.5)."""


def ranks_with(counts: int, k: int) -> int:
    """Bit ``4 * r`` for every rank ``r`` with at least *k* (1…8) cards in *counts*.

    >>> ranks_with(0x201, 1) == 1 | 1 << 8, ranks_with(0x201, 2) == 1 << 8
    (True, True)
    """
    return (counts + AT_LEAST_OFFSETS[k]) >> 3 & ONES


def has_run(ranks: int, length: int) -> bool:
    """Whether *length* ranks in a row below the 2 are in *ranks* (RULES §6.7).

    >>> has_run(0b1_0001_0001, 3), has_run(0b1_0001_0001, 4)
    (True, False)
    """
    ranks &= BELOW_TWO
    for _ in range(length - 1):
        ranks &= ranks >> 4
    return bool(ranks)


def holds_run(counts: int, per_rank: int, length: int, top: int) -> bool:
    """Whether *counts* have room for a bomb of *length* ranks of *per_rank* cards.

    That is *per_rank* cards at each of *length* ranks in a row, the highest of them
    rank *top* or lower.

    >>> holds_run(0x222, 2, 3, 2), holds_run(0x222, 2, 3, 1), holds_run(0x222, 3, 1, 12)
    (True, False, False)
    """
    ranks = ranks_with(counts, per_rank) & (1 << 4 * top + 1) - 1
    for _ in range(length - 1):
        ranks &= ranks >> 4
    return bool(ranks)


def four_twos(counts: int) -> bool:
    """Four 2s (`InstantWin.FOUR_TWOS`)."""
    return counts >> SHIFTS[TWO] & 15 >= 4


def six_pairs(counts: int) -> bool:
    """Six pairs, a rank of *c* cards holding ``c // 2`` of them (`InstantWin.SIX_PAIRS`).

    A triple counts once, a four of a kind twice: the pairs of a rank are its count's
    bits 1-3 (at most 8 cards a rank).
    """
    pairs = (
        (counts & _BIT_1).bit_count()
        + 2 * (counts & _BIT_2).bit_count()
        + 4 * (counts & _BIT_3).bit_count()
    )
    return pairs >= 6


def six_exact_pairs(counts: int) -> bool:
    """Six ranks holding exactly two cards: `six_pairs_counts_sets` off (D-21)."""
    exact = ranks_with(counts, 2) & ~ranks_with(counts, 3)
    return exact.bit_count() >= 6


def five_consecutive_pairs(counts: int) -> bool:
    """Pairs of five ranks in a row, without the 2 (`InstantWin.FIVE_CONSECUTIVE_PAIRS`)."""
    return has_run(ranks_with(counts, 2), 5)


def thirteen_ranks(counts: int) -> bool:
    """A card of every rank, the dragon (`InstantWin.THIRTEEN_RANKS`)."""
    return ranks_with(counts, 1) == ONES


def three_consecutive_triples(counts: int) -> bool:
    """Triples of three ranks in a row, without the 2 (`InstantWin.THREE_CONSECUTIVE_TRIPLES`)."""
    return has_run(ranks_with(counts, 3), 3)


def three_triples(counts: int) -> bool:
    """Three triples (`InstantWin.THREE_TRIPLES`)."""
    return ranks_with(counts, 3).bit_count() >= 3


def dragon_without_two(counts: int) -> bool:
    """A card of every rank from 3 to A (`InstantWin.DRAGON_WITHOUT_TWO`)."""
    return ranks_with(counts, 1) & BELOW_TWO == BELOW_TWO


def one_colour(mask: int) -> bool:
    """Whether the hand *mask* holds 13 cards of one colour (`InstantWin.ONE_COLOUR`).

    Read off the cards, not the counts: colour is a suit's.
    """
    low, high = mask & LOW_HALF, mask >> CARDS
    black = (low & _BLACK).bit_count() + (high & _BLACK).bit_count()
    red = (low & _RED).bit_count() + (high & _RED).bit_count()
    return max(black, red) >= _ONE_COLOUR_CARDS
