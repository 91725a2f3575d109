"""A play as the engine keeps it: `Play`, its player and card mask (RULES §1.5).

A `Play` holds two ints, the player and the card mask (`Hand.mask`); its `Hand` is
built when `Play.cards` is read. `make_play` is how the engine builds the plays it
lists, without checking them again. Plays so built carry the trust token of the state
that listed them (see `tienlen.actions`). The public names are `tienlen.Play` and
`tienlen.actions.Play`.

The compiled build compiles this module, so a listed play is a native object. A
native class's constructor always runs ``__init__``, and ``object.__new__`` refuses
a native class: so `Play` defines a ``__new__`` that, like ``object.__new__``,
ignores its arguments, and the compiled engine builds a blank play with
``Play.__new__(Play)`` (`make_play`). The pure engine calls ``object.__new__``
itself, a C call where ``Play.__new__`` would be a Python frame per play.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from types import FunctionType
from typing import Any, Final, Self, SupportsIndex, cast

from tienlen.cards import Card, Hand, as_hand

__all__ = [
    "COMPILED",
    "Play",
    "checked_play",
    "hand_of",
    "make_play",
    "player_index",
    "untrusted_play",
]


def player_index(player: object) -> int:
    """*player* as a plain `int` seat number.

    Raises:
        TypeError: *player* is not an integer (``True``, ``1.0``, ``"1"``).

    Example:
        >>> player_index(2)
        2
        >>> player_index(True)
        Traceback (most recent call last):
        ...
        TypeError: a player is an int, got True
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

    def __new__(cls, *, player: object = None, cards: object = None) -> Self:  # noqa: ARG004
        """A blank play, whatever the arguments: ``__init__`` reads and checks them.

        Its seat is -1 and it holds no card, so that a play never completed (a bot's
        ``Play.__new__(Play)``) is refused as one of no seat, never read half-built.
        See the module's documentation.
        """
        blank = object.__new__(cls)
        blank._player = -1
        blank._mask = 0
        blank._origin = 0
        return blank

    def __init__(
        self, *, player: SupportsIndex, cards: Hand | str | Iterable[Card]
    ) -> None:
        # *player* is `SupportsIndex`, read by `player_index`: compiled, a parameter
        # typed `int` would take ``True`` as 1 before it could be refused
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
        return untrusted_play, (self._player, self._mask)

    def __str__(self) -> str:
        return str(self.cards)

    def __repr__(self) -> str:
        return f"Play(player={self.player!r}, cards={self.cards!r})"


_PLAY: Final[Callable[..., Play]] = cast(Any, Play)
"""`Play`, called as any Python object is (see `checked_play`)."""


def checked_play(player: object, cards: object) -> Play:
    """``Play(player=player, cards=cards)``, checked: how compiled code builds one.

    Compiled code calls `Play` through this function, never directly: mypyc's
    native constructor of a class that defines ``__new__`` drops an error its
    ``__init__`` raises (mypy 2.4), so a refused play would come back half-built.
    Called as a Python object, the class runs ``__new__`` then ``__init__`` as in
    Python, and the error propagates.

    Example:
        >>> checked_play(1, "3s")
        Play(player=1, cards=Hand.parse('3s'))
        >>> checked_play(True, "3s")
        Traceback (most recent call last):
        ...
        TypeError: a player is an int, got True
    """
    return _PLAY(player=player, cards=cards)


def make_play(player: int, mask: int, origin: int) -> Play:
    """A `Play` with trust token *origin*, unchecked: how the engine builds its plays.

    Example:
        >>> make_play(1, Hand.parse("3s").mask, 0)
        Play(player=1, cards=Hand.parse('3s'))
    """
    play = Play.__new__(Play) if COMPILED else _new(Play)  # a blank play
    play._player = player
    play._mask = mask
    play._origin = origin
    return play


def untrusted_play(player: int, mask: int) -> Play:
    """A `Play` without trust token: how pickled and copied plays come back.

    Example:
        >>> untrusted_play(1, Hand.parse("3s").mask)._origin
        0
    """
    return make_play(player, mask, 0)


_new: Final = object.__new__
_set_hand_mask: Final = Hand.__dict__["_mask"].__set__


def hand_of(mask: int) -> Hand:
    """A `Hand` of *mask*, built without attrs' init (the mask is the engine's own).

    Example:
        >>> hand_of(Hand.parse("3s 4d").mask)
        Hand.parse('3s 4d')
    """
    hand = _new(Hand)
    _set_hand_mask(hand, mask)
    return hand


COMPILED: Final = not isinstance(hand_of, FunctionType)
"""Whether this module is compiled (mypyc builds no Python functions)."""
