"""`JUSTUS_PANG`: Justus Pang's variation (RULES §3)."""

from __future__ import annotations

from typing import Final

import attrs

from tienlen.rules.classic import CLASSIC
from tienlen.rules.registry import Preset

__all__ = ["JUSTUS_PANG", "PRESET"]

JUSTUS_PANG: Final = attrs.evolve(
    CLASSIC,
    name="justus-pang",
    aliases=("justus", "jp"),
    twos_in_straights=False,  # RULES §3.1
    twos_in_consecutive_pairs=True,  # D-5
    may_decline_first_lead=True,  # RULES §3.3, D-6
    continuation=True,  # RULES §3.4, D-7
)
"""Classic without 2s in straights, with a declinable first lead and continuation (RULES §3)."""

PRESET: Final = Preset(JUSTUS_PANG, bomb_section="rules-3-2")
"""The preset, as `tienlen.rules` registers it (its bomb table: RULES §3.2)."""
