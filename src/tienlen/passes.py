"""A player passing: `Pass` (RULES §1.5.2), and every seat's pass built once.

A plain attrs value. It is defined apart from `tienlen.actions` (which re-exports it)
so that it stays a Python class in the compiled build: the compiled engine then reads
an action it is handed untyped, and refuses anything but a `Play` or a `Pass` with the
same error in both builds (`GameState.check`).
"""

from __future__ import annotations

from typing import Final

import attrs

from tienlen.engine.bits import player_index

__all__ = ["Pass"]


@attrs.frozen(kw_only=True)
class Pass:
    """A player passing (RULES §1.5.2); by default it locks them out of the trick (§1.5.3).

    Raises:
        TypeError: *player* is not an integer.

    Example:
        >>> str(Pass(player=1))
        'pass'
    """

    player: int = attrs.field(converter=player_index)
    """Who passes."""

    def __str__(self) -> str:
        return "pass"


PASSES: Final = tuple(Pass(player=player) for player in range(8))
"""Every seat's pass, built once (engine-level: `tienlen.engine` hands them out)."""
