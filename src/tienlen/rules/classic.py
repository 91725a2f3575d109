"""`CLASSIC`: the main rules as published on Pagat (RULES §2)."""

from __future__ import annotations

from typing import Final

import attrs

from tienlen.cards import Rank
from tienlen.combos import ComboKind, Shape
from tienlen.rules.base import BaseRules, Bomb, two_decks
from tienlen.rules.registry import Preset

__all__ = ["CLASSIC", "CLASSIC_TWO_DECKS", "PRESET", "TWO_DECKS_PRESET"]

SINGLE: Final = Shape.of(ComboKind.SINGLE)
PAIR: Final = Shape.of(ComboKind.PAIR)
TRIPLE: Final = Shape.of(ComboKind.TRIPLE)
FOUR_OF_A_KIND: Final = Shape.of(ComboKind.FOUR_OF_A_KIND)


def pairs(count: int) -> Shape:
    """The shape of *count* consecutive pairs."""
    return Shape.of(ComboKind.CONSECUTIVE_PAIRS, count)


def quads(count: int) -> Shape:
    """The shape of *count* consecutive four-of-a-kinds."""
    return Shape.of(ComboKind.CONSECUTIVE_QUADS, count)


def on_twos(bomb: Shape, target: Shape) -> Bomb:
    """A bomb-table row against 2s: *bomb* beats *target* when its rank is 2."""
    return Bomb(bomb=bomb, target=target, target_rank=Rank.TWO)


CLASSIC: Final = BaseRules(
    name="classic",
    aliases=("pagat", "thirteen", "tien-len"),
    decks=1,  # two to four players (RULES §2.1); five or more: CLASSIC_TWO_DECKS
    kinds=[  # RULES §1.2; no consecutive quads (§5) or triples (§12.4)
        ComboKind.SINGLE,
        ComboKind.PAIR,
        ComboKind.TRIPLE,
        ComboKind.FOUR_OF_A_KIND,
        ComboKind.STRAIGHT,
        ComboKind.CONSECUTIVE_PAIRS,
    ],
    twos_in_straights=True,  # RULES §2.2
    twos_in_consecutive_pairs=True,  # D-2
    bombs=[  # exactly these four, exact sizes (RULES §2.3, D-3)
        on_twos(FOUR_OF_A_KIND, SINGLE),
        on_twos(pairs(3), SINGLE),
        on_twos(pairs(4), PAIR),
        on_twos(pairs(5), TRIPLE),
    ],
)
"""The classic rules (RULES §2), with 2s in sequences and four bombs against 2s.

Two to four players on one deck; for five to eight use `CLASSIC_TWO_DECKS`.
"""

CLASSIC_TWO_DECKS: Final = attrs.evolve(
    two_decks(CLASSIC), aliases=("two-decks", "classic-2-decks")
)
"""The classic rules for five to eight players on two decks, 13 cards each (RULES §2.1).

`CLASSIC` with ``decks=2``, ``min_players=5`` and ``max_players=8``: a card may be
held twice, and the two copies are equal (RULES §1.1).

Example:
    >>> from tienlen import GameState, classify
    >>> CLASSIC_TWO_DECKS.deal_size(6), classify("7h 7h", CLASSIC_TWO_DECKS)
    ((2, 13), <Combo PAIR '7h 7h'>)
    >>> len(GameState.deal(CLASSIC_TWO_DECKS, 6, seed=1).hands)
    6
"""

PRESET: Final = Preset(CLASSIC, bomb_section="rules-2-3")
"""The preset, as `tienlen.rules` registers it (its bomb table: RULES §2.3)."""

TWO_DECKS_PRESET: Final = Preset(CLASSIC_TWO_DECKS, listed=False)
"""`CLASSIC_TWO_DECKS` as a preset: `get_rules` knows it; it is not listed in `RULESETS`."""
