"""Private: the structure of a multiset of cards, before any variant is consulted.

RULES §1.2 defines every combination by its per-rank card counts: one rank holding
1–4 cards (five with two decks, RULES §12.14), or a run of consecutive ranks holding
the same number of cards each, as the kind table (`tienlen.engine.kinds`) lists them. Runs are found on the rank line 3…2 and
never wrap (RULES §1.4). Whether a structure is a combination under a variant, and
with which lengths and 2s, is decided by the rule set.

A *shape code* is ``kind << 6 | cards`` and a *key* is ``code << 6 | top card``.
"""

from __future__ import annotations

from typing import Final

from tienlen.engine import bits as _bits
from tienlen.engine.kinds import KINDS, SINGLE

__all__ = ["KEYS", "SINGLE", "STRUCTURES", "shape_code", "structural_key"]

KEYS: Final = 1 << 16
"""Every key is below it: a kind code below 16, at most 63 cards, a top card below 64.
A table indexed by key (`tienlen.engine.rulebook.Context.is_chop_target`) has this
many entries."""
assert max(KINDS) < 16, "a kind code above 15 would make keys reach KEYS"


def shape_code(kind: int, cards: int) -> int:
    """The code of the shape with *kind* (a `ComboKind` value) and *cards* cards."""
    return kind << 6 | cards


def _structures() -> dict[int, int]:
    """Map normalised per-rank counts (lowest rank in nibble 0) to shape codes."""
    table: dict[int, int] = {}
    for row in KINDS.values():
        for length in range(row.shortest, row.longest + 1):
            counts = int(str(row.per_rank) * length, 16)
            table[counts] = shape_code(row.code, row.per_rank * length)
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
            return _SET_KEYS[size] | top
        counts = mask - ((mask >> 1) & _M5)
        counts = (counts & _M3) + ((counts >> 2) & _M3)
    code = _structure(counts >> (((counts & -counts).bit_length() - 1) & ~3))
    return code << 6 | top if code else 0


_SINGLE_KEY: Final = shape_code(SINGLE, 1) << 6
_SET_KEYS: Final = tuple(
    next(
        (
            shape_code(row.code, size) << 6
            for row in KINDS.values()
            if not row.sequence and row.per_rank == size
        ),
        0,
    )
    for size in range(5)
)
"""``_SET_KEYS[n] | top``: the key of *n* ≤ 4 cards of one rank (a set kind of the table).

One deck holds at most four of a rank; more (two decks) take the counting path."""
_M5: Final = _bits.M5
_M3: Final = _bits.M3
_LOW_HALF: Final = _bits.LOW_HALF
_structure: Final = STRUCTURES.get
