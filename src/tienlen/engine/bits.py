"""Private bit-level encoding shared by the card, combination and move-generation code.

A card is a small int ``rank * 4 + suit`` (RULES §1.1: 3♠ = 0 … 2♥ = 51), so card
order is int order. A multiset of cards (a hand, a play) is one int: bit ``c`` is set
when card ``c`` is present at least once, bit ``52 + c`` when it is present twice (two
decks, RULES §2.1). With one deck the upper half is empty and the mask is the plain
52-bit set. Rank ``r`` occupies the nibble ``(mask >> 4 * r) & 15`` of each half.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Final, SupportsIndex

CARDS: Final = 52
RANKS: Final = 13
SUITS: Final = 4
"""Cards of one rank in one deck; two decks hold ``2 * SUITS`` (a nibble counts to 8)."""
LOW_HALF: Final = (1 << CARDS) - 1
# Typed explicitly: mypyc cannot infer a Final that other modules import in a cycle.
M5: Final[int] = int("5" * RANKS, 16)
M3: Final[int] = int("3" * RANKS, 16)
ONES: Final = int("1" * RANKS, 16)
"""Bit ``4 * r`` for every rank ``r``."""
SHIFTS: Final = tuple(4 * r for r in range(RANKS))
RANK_CARDS: Final = tuple((15 << 4 * r) * (1 + (1 << CARDS)) for r in range(RANKS))
"""``RANK_CARDS[r]``: every card of rank ``r``, both copies."""
AT_LEAST_OFFSETS: Final = tuple((8 - k) * ONES for k in range(9))
"""``AT_LEAST_OFFSETS[k]``: `at_least_offset` of *k* (0…8), multiplied once. Compiled, a
product with a factor of 2**30 or more is Python's long multiplication, which runs
pending signal handlers (Ctrl-C); mypyc takes its failure for out of memory and aborts
the process. So no engine loop multiplies a mask."""


def rank_counts(mask: int) -> int:
    """Per-rank card counts of *mask*, one count per nibble (at most 8 with two decks)."""
    lo = mask & LOW_HALF
    x = lo - ((lo >> 1) & M5)
    x = (x & M3) + ((x >> 2) & M3)
    hi = mask >> CARDS
    if hi:
        y = hi - ((hi >> 1) & M5)
        x += (y & M3) + ((y >> 2) & M3)
    return x


def at_least_offset(k: int) -> int:
    """``8 - k`` in every rank's nibble: with it, one addition finds the ranks with *k* cards.

    ``(counts + at_least_offset(k)) >> 3 & ONES`` has bit ``4 * r`` set for every rank
    holding at least *k* (1…8) cards in *counts* (`rank_counts`): a count is at most 8,
    so adding ``8 - k`` never overflows its nibble and sets the nibble's top bit exactly
    when the count is at least *k*.

    >>> at_least_offset(2) == 6 * ONES
    True
    """
    return AT_LEAST_OFFSETS[k]


def top_card(mask: int) -> int:
    """Index of the highest card in a non-empty *mask*."""
    return (mask & LOW_HALF).bit_length() - 1


def add_card(mask: int, index: int) -> int:
    """Add one copy of card *index*; return -1 when it would be a third copy."""
    bit = 1 << index
    if not mask & bit:
        return mask | bit
    if mask >> CARDS & bit:
        return -1
    return mask | bit << CARDS


def indices(mask: int) -> list[int]:
    """Card indices of *mask* in ascending order, each copy listed."""
    out: list[int] = []
    lo = mask & LOW_HALF
    hi = mask >> CARDS
    while lo:
        low = lo & -lo
        index = low.bit_length() - 1
        out.append(index)
        if hi & low:
            out.append(index)
        lo ^= low
    return out


def from_indices(indices: Sequence[int]) -> int:
    """The multiset mask of card *indices*, each listed at most twice (the caller checks)."""
    mask = 0
    for index in indices:
        bit = 1 << index
        if mask & bit:  # a card twice (two decks): its second copy goes high
            mask = 0
            for again in indices:
                mask = add_card(mask, again)
            return mask
        mask |= bit
    return mask


def difference(a: int, b: int) -> int:
    """Multiset difference *a* − *b*, never below zero copies."""
    lo_a, hi_a = a & LOW_HALF, a >> CARDS
    lo_b, hi_b = b & LOW_HALF, b >> CARDS
    lo = (lo_a & ~lo_b) | (hi_a & lo_b & ~hi_b)
    hi = hi_a & ~lo_b
    return lo | hi << CARDS


def overflowing_sum(a: int, b: int) -> int:
    """Cards that would have three or more copies in the multiset sum *a* + *b*."""
    lo_a, hi_a = a & LOW_HALF, a >> CARDS
    lo_b, hi_b = b & LOW_HALF, b >> CARDS
    return (hi_a & lo_b) | (lo_a & hi_b)


def multiset_sum(a: int, b: int) -> int:
    """Multiset sum *a* + *b*; the caller has checked `overflowing_sum` is empty."""
    lo_a, hi_a = a & LOW_HALF, a >> CARDS
    lo_b, hi_b = b & LOW_HALF, b >> CARDS
    return (lo_a | lo_b) | (hi_a | hi_b | (lo_a & lo_b)) << CARDS


def is_submultiset(a: int, b: int) -> bool:
    """Whether every card of *a* is in *b* at least as many times."""
    return a & ~b == 0


def player_index(player: object) -> int:
    """*player* as a plain `int` seat number.

    Raises:
        TypeError: *player* is not an integer (``True``, ``1.0``, ``"1"``).

    Example:
        >>> player_index(2)
        2
        >>> player_index(True)
        Traceback (most recent call last):
        ...
        TypeError: a player is an int, got True
    """
    if isinstance(player, bool) or not isinstance(player, SupportsIndex):
        msg = f"a player is an int, got {player!r}"
        raise TypeError(msg)
    return operator.index(player)
