"""How a game started: `GameSetup` (RULES §2.4, D-16).

A value of `GameState.setup`: whether it is a match's first game, the leader passed
in, whether the previous game ended by an instant win, and the dealer. An attrs
class, so this module stays Python in the compiled build (mypyc keeps no docstring of
an attrs class's methods); `tienlen.game` builds the setups of its deals here.
"""

from __future__ import annotations

import attrs

from tienlen.errors import InvalidStateError

__all__ = ["GameSetup"]


@attrs.frozen(kw_only=True)
class GameSetup:
    """How a game started, as passed to `GameState.deal` or `GameState.from_hands`.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> setup = GameState.from_hands(["3s 7h", "4d 9c"], CLASSIC).setup
        >>> setup.first_game, setup.leader, setup.dealer
        (True, None, 1)
    """

    first_game: bool
    """Whether it is the first game of a match (RULES §2.4)."""
    leader: int | None
    """The leader passed in (a later game's previous winner), or ``None``."""
    after_instant_win: bool
    """Whether the previous game ended by an instant win (D-16)."""
    dealer: int
    """The dealer, after whom the first 3♠ holder leads when two decks hold two."""

    @classmethod
    def checked(
        cls,
        players: int,
        first_game: bool,  # noqa: FBT001
        leader: int | None,
        after_instant_win: bool,  # noqa: FBT001
        dealer: int,
    ) -> GameSetup:
        """A setup for *players*, refusing seats that are not at the table.

        Raises:
            InvalidStateError: *leader* or *dealer* is not a seat.

        Example:
            >>> GameSetup.checked(4, True, None, False, 3).dealer
            3
            >>> GameSetup.checked(4, False, 4, False, 0)
            Traceback (most recent call last):
            ...
            tienlen.errors.InvalidStateError: leader 4 is not a player (0-3)
        """
        key: tuple[object, ...] = (
            cls, players, first_game, leader, after_instant_win, dealer
        )  # fmt: skip
        kinds = (type(first_game), type(leader), type(after_instant_win), type(dealer))
        try:
            known = _MADE.get(key)
        except TypeError:  # an unhashable argument: checked below, never remembered
            known, key = None, ()
        if known is not None and known[0] == kinds:  # the same values, the same types
            return known[1]
        for name, seat in (("leader", leader), ("dealer", dealer)):
            if seat is not None and (type(seat) is not int or not 0 <= seat < players):
                msg = f"{name} {seat!r} is not a player (0-{players - 1})"
                raise InvalidStateError(msg)
        setup = cls(
            first_game=first_game,
            leader=leader,
            after_instant_win=after_instant_win,
            dealer=dealer,
        )
        if key:
            if len(_MADE) >= _MADE_LIMIT:
                _MADE.clear()
            _MADE[key] = (kinds, setup)
        return setup


_MADE: dict[tuple[object, ...], tuple[tuple[type, ...], GameSetup]] = {}
"""The setups `GameSetup.checked` made, by its arguments: a setup is an immutable
value, so the games that start alike (every deal of a table) share one. The
arguments' types are kept beside it: ``1`` and ``True`` are equal keys."""
_MADE_LIMIT = 1 << 12
"""The most setups `_MADE` keeps: it is emptied when full."""
