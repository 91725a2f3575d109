"""Actions forged around their constructors, as unpickling or ``object.__new__`` can.

`Play` and `Pass` refuse non-integer players; an attacker (or a careless bot) can
still build one with a look-alike seat. The engine must refuse those everywhere
(issue 14 item 8).
"""

from __future__ import annotations

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
    """A `Play` for *player* built around its constructor, which refuses non-ints."""
    action = object.__new__(Play)
    object.__setattr__(action, "_player", player)
    object.__setattr__(action, "_mask", Hand.parse(cards).mask)
    object.__setattr__(action, "_origin", 0)
    return action
