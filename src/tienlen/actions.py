"""What a player does: `Play`, `Pass`, and a state's legal `Actions` (RULES §1.5).

A `Play` made by `GameState.legal_actions` carries a trust token: the state that
listed it applies it without checking it again. The token is a number no other state
of any process holds (a random per-process prefix and a counter); it is never pickled
or copied, so a play that travelled is always checked in full.
"""

from __future__ import annotations

import itertools
import os
import secrets
from typing import Final

import attrs

from tienlen.engine.plays import Play, player_index, untrusted_play

__all__ = ["Action", "Actions", "Pass", "Play"]


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


Action = Play | Pass
"""What a player does on their turn (or, for a Poker jump-in, out of it)."""

_untrusted_play: Final = untrusted_play
"""How plays pickled before 0.3 name their loader (a play pickles by `untrusted_play`)."""


PASSES: Final = tuple(Pass(player=player) for player in range(8))
"""Every seat's pass, built once (engine-level: `tienlen.engine` hands them out)."""


class _TrustTokens:
    """Trust tokens: a random per-process prefix and a counter (see `Play`)."""

    __slots__ = ("count", "prefix")

    def __init__(self) -> None:
        self.prefix = [0]
        """The process's random prefix, in a cell the engine reads inline."""
        self.count = itertools.count(1)
        """The per-process counter."""
        self.reseed()

    def reseed(self) -> None:
        """Draw a new random prefix (at import and in a forked child)."""
        self.prefix[0] = (secrets.randbits(19) | 1) << 40  # small ints stay fast

    def next(self) -> int:
        """A token no other state of any process holds (0 is never one)."""
        return self.prefix[0] | next(self.count)


TOKENS: Final = _TrustTokens()
"""The process's trust-token source (engine-level: `tienlen.engine` reads it)."""
os.register_at_fork(after_in_child=TOKENS.reseed)

from tienlen.engine.actions import Actions  # noqa: E402  # it lists Plays and Passes
