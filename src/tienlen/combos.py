"""Combinations: what a play is, independent of any variant (RULES §1.2–§1.3).

A `Combo` is a plain value: its cards, its `ComboKind` and its `Shape` (kind plus
number of cards). Whether a set of cards is a combination *under a variant*, and what
beats what, is the rule set's job (`tienlen.classify`, `tienlen.beats`). Combos have
no ``<``: beating is partial and variant-dependent.
"""

from __future__ import annotations

from tienlen.engine.combination import Combo
from tienlen.engine.listing import Plays
from tienlen.kinds import ComboKind, Shape

__all__ = ["Combo", "ComboKind", "Plays", "Shape"]
