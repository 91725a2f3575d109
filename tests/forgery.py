"""Actions forged around their constructors, as unpickling or ``object.__new__`` can.

`Play` and `Pass` refuse non-integer players; an attacker (or a careless bot) can
still build one with a look-alike seat. The engine must refuse those everywhere
(issue 14 item 8).
"""

from __future__ import annotations

from typing import Final

from tienlen import Hand, Pass, Play


class AlwaysEqual(int):
    """An ``int`` that claims to equal everything (a forged seat number)."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


def forged_pass(player: object) -> Pass:
    """A `Pass` for *player* built around its constructor, which refuses non-ints."""
    action = object.__new__(Pass)
    object.__setattr__(action, "player", player)
    return action


def forged_play(player: object, cards: str) -> Play:
    """A `Play` for *player* built around its constructor, which refuses non-ints.

    Raises:
        UnforgeableError: this build cannot hold the forged seat (see
            `PLAYS_FORGEABLE`).
    """
    action = Play.__new__(Play)
    try:
        object.__setattr__(action, "_player", player)
    except TypeError as error:  # compiled: the field is typed `int`
        raise UnforgeableError(player) from error
    if type(getattr(action, "_player")) is not type(player):  # noqa: B009
        raise UnforgeableError(player)  # compiled: stored as its plain int value
    object.__setattr__(action, "_mask", Hand.parse(cards).mask)
    object.__setattr__(action, "_origin", 0)
    return action


class UnforgeableError(Exception):
    """This build's `Play` cannot hold a forged seat.

    Compiled, `Play` is a native class with typed fields: storing a non-``int`` seat
    raises `TypeError`, and an ``int`` subclass (``True``) is stored as its plain
    value. The forgery a pure build allows cannot be made, so there is nothing to
    refuse.
    """


def _plays_forgeable() -> bool:
    try:
        forged_play(True, "3s")
    except UnforgeableError:
        return False
    return True


PLAYS_FORGEABLE: Final = _plays_forgeable()
"""Whether `forged_play` can forge a seat in this build (the pure build: yes)."""

UNFORGEABLE_REASON: Final = "compiled, Play's typed fields cannot hold a forged seat"
