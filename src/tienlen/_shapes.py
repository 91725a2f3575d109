"""Private: the structure of a multiset of cards, before any variant is consulted.

RULES §1.2 defines every combination by its per-rank card counts: one rank holding
1–4 cards, or a run of consecutive ranks holding 1 (straight), 2 (consecutive pairs)
or 4 (consecutive quads) cards each. Runs are found on the rank line 3…2 and never
wrap (RULES §1.4). Whether a structure is a combination under a variant, and with
which lengths and 2s, is decided by the rule set.

A *shape code* is ``kind << 6 | cards`` and a *key* is ``code << 6 | top card``.
"""

from __future__ import annotations

from typing import Final

from tienlen import _bits

SINGLE, PAIR, TRIPLE, FOUR_OF_A_KIND, STRAIGHT, CONSECUTIVE_PAIRS, CONSECUTIVE_QUADS = (
    range(1, 8)
)
SEQUENCE_PER_RANK: Final = {STRAIGHT: 1, CONSECUTIVE_PAIRS: 2, CONSECUTIVE_QUADS: 4}


def shape_code(kind: int, cards: int) -> int:
    """The code of the shape with *kind* (a `ComboKind` value) and *cards* cards."""
    return kind << 6 | cards


def _structures() -> dict[int, int]:
    """Map normalised per-rank counts (lowest rank in nibble 0) to shape codes."""
    table = {count: shape_code(count, count) for count in (1, 2, 3, 4)}
    for kind, per_rank in SEQUENCE_PER_RANK.items():
        shortest = 2 if kind == CONSECUTIVE_QUADS else 3
        for length in range(shortest, _bits.RANKS + 1):
            table[int(str(per_rank) * length, 16)] = shape_code(kind, per_rank * length)
    return table


STRUCTURES: Final = _structures()


def structural_key(mask: int) -> int:
    """The key (shape code and top card) of the cards in *mask*, or 0 if no structure fits."""
    if not mask & (mask - 1):  # one card, or none
        return _SINGLE_KEY | mask.bit_length() - 1 if mask else 0
    if mask >> 52:  # two copies of some card (two decks)
        counts = _bits.rank_counts(mask)
        top = (mask & _LOW_HALF).bit_length() - 1
    else:
        top = mask.bit_length() - 1
        if mask >> (top & ~3) << (top & ~3) == mask:  # one rank: 2-4 of a kind
            size = mask.bit_count()
            return (size << 6 | size) << 6 | top
        counts = mask - ((mask >> 1) & _M5)
        counts = (counts & _M3) + ((counts >> 2) & _M3)
    code = _structure(counts >> (((counts & -counts).bit_length() - 1) & ~3))
    return code << 6 | top if code else 0


_SINGLE_KEY: Final = shape_code(SINGLE, 1) << 6
_M5: Final = _bits.M5
_M3: Final = _bits.M3
_LOW_HALF: Final = _bits.LOW_HALF
_structure: Final = STRUCTURES.get
