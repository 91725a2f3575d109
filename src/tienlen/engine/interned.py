"""The combinations of trusted plays, interned by mask: `BY_MASK` (engine-level).

The engine turns a listed play's mask into its `tienlen.Combo` by one lookup:
every one-deck set is built at import, a two-deck set when first asked, and a run on
every lookup. Pure in the compiled build too: mypyc compiles no subclass of ``dict``,
and a dict subclass is what lets ``map(BY_MASK.__getitem__, masks)`` run at C speed.
"""

from __future__ import annotations

from typing import Final

from tienlen.engine.bits import RANKS
from tienlen.engine.combination import COMPILED, Combo, make_combo
from tienlen.engine.kinds import KINDS
from tienlen.engine.shapes import structural_key

__all__ = ["BY_MASK"]


_new: Final = object.__new__
_set_mask: Final = Combo.__dict__["_mask"].__set__
_set_key: Final = Combo.__dict__["_key"].__set__


class _Combos(dict[int, Combo]):
    """The combinations of trusted plays, by mask: the sets (1–4 cards of one rank) interned.

    Every one-deck set (195) is built at import; a two-deck set (both copies of a card)
    is built and kept when first looked up; a run is built on every lookup, and not
    kept (there are millions). A dict subclass, so that ``map(getitem, masks)`` runs at
    C speed for the sets.
    """

    def __missing__(self, mask: int) -> Combo:
        key = structural_key(mask)
        if COMPILED:
            combo = make_combo(mask, key)
        else:  # `make_combo`, inlined: every run against a top
            combo = _new(Combo)
            _set_mask(combo, mask)
            _set_key(combo, key)
        if key >> 12 not in _SEQUENCE_KINDS:
            self[mask] = combo
        return combo


_SEQUENCE_KINDS: Final = frozenset(code for code, row in KINDS.items() if row.sequence)


_COMBOS: Final = _Combos(
    (mask << 4 * rank, make_combo(mask << 4 * rank, structural_key(mask << 4 * rank)))
    for rank in range(RANKS)
    for mask in range(1, 16)
)
BY_MASK: dict[int, Combo] = _COMBOS
"""``BY_MASK[mask]``: the combination of a play's mask, interned if a set, else built
(engine-level: the mask must be a combination's)."""
