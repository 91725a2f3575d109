"""Values interned by a combination's mask: `Interned`, the table behind `tienlen.combos.BY_MASK`.

The engine turns a listed play's mask into its `tienlen.Combo` by one lookup: every
one-deck set is built when the table is made, a two-deck set when first asked, and a
run on every lookup. Pure in the compiled build too: mypyc compiles no subclass of
``dict``, and a dict subclass is what lets ``map(BY_MASK.__getitem__, masks)`` run at C
speed. The table is told how to build a value (``make(mask, key)``), so this module
knows no combination class and sits below `tienlen.combos`, which makes the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar

from tienlen.engine.bits import RANKS
from tienlen.engine.kinds import KINDS
from tienlen.engine.shapes import structural_key

__all__ = ["Interned"]

V = TypeVar("V")

_SEQUENCE_KINDS: Final = frozenset(code for code, row in KINDS.items() if row.sequence)


class Interned(dict[int, V]):
    """Values by a combination's mask: the sets (1–4 cards of one rank) interned.

    Every one-deck set (195) is built when the table is made; a two-deck set (both
    copies of a card) is built and kept when first looked up; a run is built on every
    lookup, and not kept (there are millions). *make* builds a value from a mask and
    its structural key.

    Example:
        >>> table = Interned(lambda mask, key: (mask, key))
        >>> len(table), table[0b11] == (0b11, structural_key(0b11))
        (195, True)
        >>> run = 1 | 1 << 4 | 1 << 8
        >>> table[run] == (run, structural_key(run)), run in table
        (True, False)
    """

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[int, int], V]) -> None:
        sets = (mask << 4 * rank for rank in range(RANKS) for mask in range(1, 16))
        super().__init__((mask, make(mask, structural_key(mask))) for mask in sets)
        self._make = make

    def __missing__(self, mask: int) -> V:
        key = structural_key(mask)
        value = self._make(mask, key)
        if key >> 12 not in _SEQUENCE_KINDS:
            self[mask] = value
        return value
