"""What a player does: `Play`, `Pass`, and a state's legal `Actions` (RULES §1.5).

A `Play` made by `GameState.legal_actions` carries a trust token: the state that
listed it applies it without checking it again. The token is a number no other state
of any process holds (a random per-process prefix and a counter); it is never pickled
or copied, so a play that travelled is always checked in full.
"""

from __future__ import annotations

import itertools
import operator
import os
import secrets
from collections.abc import Iterable
from typing import Final, SupportsIndex

import attrs

from tienlen.cards import Card, Hand
from tienlen.rules.base import as_hand

__all__ = ["Action", "Actions", "Pass", "Play"]


def player_index(player: object) -> int:
    """*player* as a plain `int` seat number (private helper).

    Raises:
        TypeError: *player* is not an integer (``True``, ``1.0``, ``"1"``).
    """
    if isinstance(player, bool) or not isinstance(player, SupportsIndex):
        msg = f"a player is an int, got {player!r}"
        raise TypeError(msg)
    return operator.index(player)


class Play:
    """A player playing cards (a combination, if it is legal). Immutable and hashable.

    Args:
        player: Who plays: an ``int`` (an ``int`` subclass is read as its plain value).
        cards: The cards played (card text and iterables of cards are accepted).

    Raises:
        InvalidCardError: bad card text.
        TypeError: *player* is not an integer.

    Example:
        >>> play = Play(player=2, cards="7h 7s")
        >>> str(play), play.player, play
        ('7s 7h', 2, Play(player=2, cards=Hand.parse('7s 7h')))
        >>> play == Play(player=2, cards="7s 7h")
        True
        >>> Play(player=1.0, cards="3s")
        Traceback (most recent call last):
        ...
        TypeError: a player is an int, got 1.0

    A plain slotted class with read-only properties rather than an attrs class: every
    legal action is built on demand (`Actions`), so its construction is a hot path.
    """

    __slots__ = ("_mask", "_origin", "_player")

    _player: int
    _mask: int
    _origin: int
    """The trust token of the state whose `GameState.legal_actions` made this play:
    that state applies it without checking it again (0 for plays made elsewhere)."""

    def __init__(self, *, player: int, cards: Hand | str | Iterable[Card]) -> None:
        self._player = player_index(player)
        self._mask = as_hand(cards)._mask
        self._origin = 0

    @property
    def player(self) -> int:
        """Who plays.

        Example:
            >>> Play(player=2, cards="3s 3c").player
            2
        """
        return self._player

    @property
    def mask(self) -> int:
        """The cards played as a card mask (`Hand.mask`), without building the `Hand`.

        Example:
            >>> from tienlen import Hand
            >>> Play(player=0, cards="4d 3s").mask == Hand.parse("3s 4d").mask
            True

        .. versionadded:: 0.3
        """
        return self._mask

    @property
    def cards(self) -> Hand:
        """The cards played, as a `Hand` (in card order, whatever the text's order).

        Example:
            >>> Play(player=0, cards="4d 3s").cards
            Hand.parse('3s 4d')
        """
        return hand_of(self._mask)

    def __eq__(self, other: object) -> bool:
        if type(other) is Play:
            return self._player == other._player and self._mask == other._mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._player, self._mask))

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        """Pickle and copy the play without its trust token (it is checked again)."""
        return _untrusted_play, (self._player, self._mask)

    def __str__(self) -> str:
        return str(self.cards)

    def __repr__(self) -> str:
        return f"Play(player={self.player!r}, cards={self.cards!r})"


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

_new: Final = object.__new__


_set_hand_mask: Final = Hand.__dict__["_mask"].__set__


def hand_of(mask: int) -> Hand:
    """A `Hand` of *mask*, built without attrs' init (private hot path)."""
    hand = _new(Hand)
    _set_hand_mask(hand, mask)
    return hand


def _untrusted_play(player: int, mask: int) -> Play:
    """A `Play` without trust token: how pickled and copied plays come back."""
    return make_play(player, mask, 0)


PASSES: Final = tuple(Pass(player=player) for player in range(8))
"""Every seat's pass, built once (engine-level: `tienlen.engine` hands them out)."""


def make_play(player: int, mask: int, origin: int) -> Play:
    """A `Play` with trust token *origin*, unchecked (engine-level hot path: `tienlen.engine`)."""
    play = _new(Play)
    play._player = player
    play._mask = mask
    play._origin = origin
    return play


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
