"""`KENNETH_LO`: Kenneth Lo's variation (RULES §4)."""

from __future__ import annotations

from typing import Final

import attrs

from tienlen.rules.base import GameEnd, Scoring
from tienlen.rules.classic import CLASSIC, FOUR_OF_A_KIND, PAIR, SINGLE, on_twos, pairs
from tienlen.rules.registry import Preset

__all__ = ["KENNETH_LO", "PRESET"]

KENNETH_LO: Final = attrs.evolve(
    CLASSIC,
    name="kenneth-lo",
    aliases=("kenneth", "kenneth-lu", "kl"),
    three_player_hand_size=17,  # RULES §4.1
    spare_card_to_starter=True,  # RULES §4.1, D-8
    twos_in_straights=True,  # D-9
    twos_in_consecutive_pairs=True,  # D-9
    bombs=[  # RULES §4.3, D-10
        on_twos(FOUR_OF_A_KIND, SINGLE),
        on_twos(FOUR_OF_A_KIND, PAIR),
        on_twos(pairs(3), SINGLE),
    ],
    game_end=GameEnd.FIRST_OUT,  # RULES §4.4, D-11
    scoring=Scoring.EACH_PAYS_WINNER,  # RULES §4.4
)
"""Classic where the first player out wins and four of a kind also beats a pair of 2s (RULES §4)."""

PRESET: Final = Preset(KENNETH_LO, bomb_section="rules-4-3")
"""The preset, as `tienlen.rules` registers it (its bomb table: RULES §4.3)."""
