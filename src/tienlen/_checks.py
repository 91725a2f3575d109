"""Private: argument checks shared by the core modules.

Counts are plain ``int`` (``bool`` is not one, nor an `int` subclass such as an enum
member), so a wrong type is a `TypeError` and a value out of range an
`tienlen.errors.InvalidArgumentError`, with one wording everywhere.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tienlen.errors import InvalidArgumentError

__all__ = [
    "check_count",
    "check_players",
    "check_time_limit",
    "check_type",
    "short_repr",
]


def check_count(name: str, value: object, least: int) -> int:
    """*value*, checked to be an ``int`` of at least *least*; *name* is its name.

    Raises:
        TypeError: *value* is not an ``int`` (``True`` is not).
        tienlen.errors.InvalidArgumentError: *value* is below *least*.

    Example:
        >>> check_count("games", 3, 0)
        3
        >>> check_count("games", True, 0)
        Traceback (most recent call last):
        ...
        TypeError: games must be an int, got True
        >>> check_count("worlds", 0, 1)
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidArgumentError: worlds must be at least 1, got 0
    """
    if type(value) is not int:
        msg = f"{name} must be an int, got {value!r}"
        raise TypeError(msg)
    if value < least:
        msg = f"{name} must be at least {least}, got {value!r}"
        raise InvalidArgumentError(msg)
    return value


def check_type(name: str, value: object, kind: type) -> None:
    """Refuse *value* unless it is a *kind*.

    Raises:
        TypeError: it is not.

    Example:
        >>> import random
        >>> check_type("rng", 3, random.Random)
        Traceback (most recent call last):
        ...
        TypeError: rng must be a Random, not int
    """
    if not isinstance(value, kind):
        msg = f"{name} must be a {kind.__name__}, not {type(value).__name__}"
        raise TypeError(msg)


def check_players(players: object) -> None:
    """Refuse *players* unless it is a sequence of objects with an ``act`` method.

    Raises:
        TypeError: *players* is not a sequence (text is not), or a player has no
            callable ``act``.

    Example:
        >>> from tienlen import RandomPlayer
        >>> check_players([RandomPlayer(), None])
        Traceback (most recent call last):
        ...
        TypeError: player 1 is not a Player (it has no act method): None
    """
    if not isinstance(players, Sequence) or isinstance(players, str | bytes):
        msg = f"players must be a sequence of players, not {type(players).__name__}"
        raise TypeError(msg)
    for seat, player in enumerate(players):
        if not callable(getattr(player, "act", None)):
            msg = (
                f"player {seat} is not a Player (it has no act method): "
                f"{short_repr(player)}"
            )
            raise TypeError(msg)


def check_time_limit(time_limit: object, name: str = "time_limit") -> None:
    """Refuse a *time_limit* that is not ``None`` or a positive, finite number of seconds.

    Raises:
        TypeError: *time_limit* is not a number (``bool`` is not).
        InvalidArgumentError: it is not positive and finite.

    Example:
        >>> check_time_limit(0.5)
        >>> check_time_limit(0)
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidArgumentError: time_limit must be a positive, finite number of seconds, got 0
    """
    if time_limit is None:
        return
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
        msg = f"{name} must be a number of seconds, not {type(time_limit).__name__}"
        raise TypeError(msg)
    if not 0 < time_limit < math.inf:
        msg = f"{name} must be a positive, finite number of seconds, got {time_limit!r}"
        raise InvalidArgumentError(msg)


def short_repr(value: object, limit: int = 200) -> str:
    """``repr(value)``, cut to *limit* characters; never raises.

    Example:
        >>> short_repr("x" * 300, 10)
        "'xxxxxx..."
    """
    try:
        text = repr(value)
    except Exception as error:  # noqa: BLE001 - a hostile __repr__ must not escape
        text = f"<{type(value).__name__} whose repr raised {type(error).__name__}>"
    return text if len(text) <= limit else f"{text[: limit - 3]}..."
