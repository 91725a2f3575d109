"""`POKER`: Tien Len Poker, Southern rules with points (RULES §6)."""

from __future__ import annotations

from typing import Final

from tienlen.combos import ComboKind
from tienlen.rules.base import BaseRules, Direction, FirstLead, InstantWin, Scoring
from tienlen.rules.classic import FOUR_OF_A_KIND, PAIR, SINGLE, on_twos, pairs
from tienlen.rules.registry import Preset

__all__ = ["POKER", "PRESET"]

POKER: Final = BaseRules(
    name="poker",
    aliases=("tien-len-poker", "southern", "mien-nam", "pk"),
    direction=Direction.COUNTERCLOCKWISE,  # RULES §6.1
    max_players=4,  # RULES §6.1
    kinds=[  # RULES §6.2
        ComboKind.SINGLE,
        ComboKind.PAIR,
        ComboKind.TRIPLE,
        ComboKind.FOUR_OF_A_KIND,
        ComboKind.STRAIGHT,
        ComboKind.CONSECUTIVE_PAIRS,
    ],
    twos_in_straights=False,  # RULES §6.2
    twos_in_consecutive_pairs=False,  # RULES §6.2
    max_consecutive_pairs=4,  # RULES §6.2
    bombs=[  # RULES §6.3
        on_twos(pairs(3), SINGLE),
        on_twos(FOUR_OF_A_KIND, SINGLE),
        on_twos(pairs(4), SINGLE),
        on_twos(FOUR_OF_A_KIND, PAIR),
        on_twos(pairs(4), PAIR),
    ],
    bomb_chain=(pairs(3), FOUR_OF_A_KIND, pairs(4)),  # RULES §6.3
    jump_in=[pairs(4)],  # RULES §6.4, D-15
    first_lead=FirstLead.FIRST_GAME_AND_AFTER_INSTANT_WIN,  # RULES §6.5, D-16
    scoring=Scoring.POKER_POINTS,  # RULES §6.6
    bomb_values=[(pairs(3), 4), (FOUR_OF_A_KIND, 6), (pairs(4), 8)],  # RULES §6.6.2
    instant_wins=[  # RULES §6.7
        InstantWin.FOUR_TWOS,
        InstantWin.SIX_PAIRS,
        InstantWin.FIVE_CONSECUTIVE_PAIRS,
        InstantWin.THIRTEEN_RANKS,
    ],
)
"""Counterclockwise, bomb chains, jump-ins, points and instant wins (RULES §6)."""

PRESET: Final = Preset(POKER, bomb_section="rules-6-3")
"""The preset, as `tienlen.rules` registers it (its bomb table: RULES §6.3)."""
