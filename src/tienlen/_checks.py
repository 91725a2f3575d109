"""Private: argument checks shared by the core modules.

Counts are plain ``int`` (``bool`` is not one, nor an `int` subclass such as an enum
member), so a wrong type is a `TypeError` and a value out of range an
`tienlen.errors.InvalidArgumentError`, with one wording everywhere.
"""

from __future__ import annotations

from tienlen.errors import InvalidArgumentError

__all__ = ["check_count"]


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
