"""`VIETCONG`: the US "Viet Cong" variation (RULES §5)."""

from __future__ import annotations

from typing import Final

import attrs

from tienlen.combos import ComboKind
from tienlen.rules.base import FirstLead, InstantWin
from tienlen.rules.classic import (
    CLASSIC,
    FOUR_OF_A_KIND,
    PAIR,
    SINGLE,
    TRIPLE,
    on_twos,
    pairs,
    quads,
)
from tienlen.rules.registry import Preset

__all__ = ["PRESET", "VIETCONG"]

VIETCONG: Final = attrs.evolve(
    CLASSIC,
    name="vietcong",
    aliases=("viet-cong", "vc", "killer"),
    max_players=4,  # RULES §10
    kinds=CLASSIC.kinds
    | {ComboKind.CONSECUTIVE_QUADS},  # slams only (RULES §5.2, D-13)
    twos_in_straights=False,  # RULES §5.1
    twos_in_consecutive_pairs=True,  # D-12
    bombs=[  # slams (RULES §5.2)
        on_twos(pairs(3), SINGLE),
        on_twos(FOUR_OF_A_KIND, SINGLE),
        on_twos(pairs(5), PAIR),
        on_twos(quads(2), PAIR),
        on_twos(pairs(7), TRIPLE),
        on_twos(quads(3), TRIPLE),
    ],
    first_lead=FirstLead.EVERY_GAME,  # RULES §5.3
    instant_wins=[InstantWin.FOUR_TWOS],  # RULES §5.4, D-14
)
"""No 2s in straights, slams with consecutive quads, 3♠ leads every game (RULES §5)."""

PRESET: Final = Preset(VIETCONG, bomb_section="rules-5-2")
"""The preset, as `tienlen.rules` registers it (its bomb table: RULES §5.2)."""
