"""How a game started: `GameSetup` (RULES §2.4, D-16).

An attrs class of the object layer, kept out of `tienlen.engine.state` so that module
compiles (mypyc compiles no attrs class). `tienlen.GameSetup` is its public name.
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
        for name, seat in (("leader", leader), ("dealer", dealer)):
            if seat is not None and (type(seat) is not int or not 0 <= seat < players):
                msg = f"{name} {seat!r} is not a player (0-{players - 1})"
                raise InvalidStateError(msg)
        return cls(
            first_game=first_game,
            leader=leader,
            after_instant_win=after_instant_win,
            dealer=dealer,
        )
