"""The turn key and the turn table: who acts next, as one int and a memo of its answers.

A position's who-acts facts (who acts, who played the top, who passed, who is out,
who was beaten) are packed into one int, the *turn key*; its bit layout lives here
only (`turn_key`, `decode`, `acting`, `with_out`). A `TurnTable` remembers the turn
policy's answer to each distinct key (issue 10), so a pass or a play is a dictionary
lookup instead of a policy call. The policy stays the one place each rule of who acts
lives (`tienlen.policies.TurnPolicy`).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from tienlen.errors import InvalidStateError

if TYPE_CHECKING:
    from tienlen.policies import Seating, TurnPolicy

__all__ = [
    "Turn",
    "TurnTable",
    "acting",
    "decode",
    "turn_key",
    "turn_table",
    "with_out",
]

Turn = tuple[int, int, bool, int]
"""A turn decision: who acts, the lock-out mask, whether a new trick begins (then the
first is its leader and the mask 0), and the `turn_key` of the position it leads to."""

MEMO_LIMIT: int = 1 << 15  # not Final: mypyc would inline it, and tests lower it
"""Answers a `TurnTable` remembers before it starts afresh (eight players can reach
hundreds of thousands of distinct questions over many games)."""


def turn_key(
    to_act: int | None, last: int | None, locked: int, out: int, beaten: int | None
) -> int:
    """Who acts, who played the top, who passed, who is out and who was beaten, as one int.

    Four bits each for the seats (``None`` as 0, seat *i* as ``i + 1`` for *last* and
    *beaten*), eight for each mask: the key of a `TurnTable` question.

    Example:
        >>> hex(turn_key(2, 0, 0b0010, 0b1000, None))
        '0x80212'
    """
    return (
        (to_act or 0)
        | (0 if last is None else last + 1) << 4
        | locked << 8
        | out << 16
        | (0 if beaten is None else beaten + 1) << 24
    )


def _seat(code: int) -> int | None:
    """A seat of a `turn_key`, decoded (0 is ``None``)."""
    return None if not code else code - 1


def decode(key: int) -> tuple[int, int | None, int, int, int | None]:
    """The arguments of `turn_key` from the key."""
    last, beaten = _seat(key >> 4 & 15), _seat(key >> 24 & 15)
    return key & 15, last, key >> 8 & 255, key >> 16 & 255, beaten


def acting(key: int, player: int) -> int:
    """*key* with *player* to act (the question a play by *player* asks).

    Example:
        >>> hex(acting(turn_key(2, 0, 0b0010, 0, None), 3))
        '0x213'
    """
    return key & ~15 | player


def with_out(key: int, out: int) -> int:
    """*key* with *out* as the mask of players who are out.

    Example:
        >>> hex(with_out(turn_key(2, 0, 0, 0, None), 0b0100))
        '0x40012'
    """
    return key & ~(255 << 16) | out << 16


class _Answers(dict[int, Turn]):
    """A policy's answers by `turn_key`, each asked the first time (`__missing__`)."""

    __slots__ = ("_policy", "_seating")

    def __init__(self, policy: TurnPolicy, seating: Seating) -> None:
        super().__init__()
        self._policy = policy
        self._seating = seating

    def _remember(self, key: int, answer: Turn) -> Turn:
        if len(self) >= MEMO_LIMIT:
            self.clear()
        self[key] = answer
        return answer

    def _new_trick(
        self, last: int, out: int, last_to_act: int, beaten: int | None
    ) -> Turn:
        """The trick ended on *last*'s play: the policy's leader leads it."""
        leader = self._policy.trick_leader(
            self._seating, last=last, out=out, last_to_act=last_to_act, beaten=beaten
        )
        return leader, 0, True, turn_key(leader, None, 0, out, None)


class _PassAnswers(_Answers):
    """`TurnPolicy.after_pass` (and `trick_leader` when the trick ends), remembered.

    Keyed by the position's `turn_key`: the player to act passes.
    """

    __slots__ = ()

    def __missing__(self, key: int) -> Turn:
        player, last, locked, out, beaten = decode(key)
        return self._remember(key, self._ask(player, last, locked, out, beaten))

    def _ask(
        self, player: int, last: int | None, locked: int, out: int, beaten: int | None
    ) -> Turn:
        nxt, locked = self._policy.after_pass(self._seating, player, last, locked, out)
        if nxt is None and last is not None:  # everyone passed: the trick is over
            return self._new_trick(last, out, player, beaten)
        if nxt is None:  # a declined first lead passes the turn on, unless forged
            msg = f"nobody is left to lead after seat {player} declines the first lead"
            raise InvalidStateError(msg)
        return nxt, locked, False, turn_key(nxt, last, locked, out, beaten)


class _PlayAnswers(_Answers):
    """`TurnPolicy.after_play` (and `trick_leader` when the trick ends), remembered.

    Keyed by the `turn_key` of the position with the player who plays in place of the
    player to act, and *out* after the play. Asked only while the game goes on
    (`TurnPolicy.is_over` is asked first).
    """

    __slots__ = ()

    def __missing__(self, key: int) -> Turn:
        player, last, locked, out, _ = decode(key)
        return self._remember(key, self._ask(player, last, locked, out))

    def _ask(self, player: int, last: int | None, locked: int, out: int) -> Turn:
        beaten = self._policy.beaten(last)  # the previous play's player
        nxt, locked = self._policy.after_play(self._seating, player, locked, out)
        if nxt is None:  # nobody may answer: the trick is over
            return self._new_trick(player, out, player, beaten)
        return nxt, locked, False, turn_key(nxt, player, locked, out, beaten)


class TurnTable:
    """A turn policy's answers at one seating, remembered per distinct question.

    ``passes[key]`` and ``plays[key]`` are `Turn` decisions, for positions given by
    their `turn_key` (for a play, with the player who plays as the one to act); a
    question asked for the first time is put to the policy. A policy's answers depend
    only on its arguments (it is a frozen value), which makes remembering them exact.

    Example:
        >>> from tienlen import CLASSIC
        >>> from tienlen.policies import Seating
        >>> table = turn_table(CLASSIC.turn_policy, Seating.of(1, 4))
        >>> table.passes[turn_key(1, 0, 0b0000, 0, None)][:3]  # 1 passes on 0's play
        (2, 2, False)
        >>> table.plays[turn_key(3, 2, 0b0110, 0, None)][:3]  # 3 plays, 1 and 2 passed
        (0, 6, False)
        >>> table.passes[turn_key(0, 3, 0b0110, 0, None)][:3]  # the trick ends: 3 leads
        (3, 0, True)
    """

    __slots__ = ("passes", "plays")

    def __init__(self, policy: TurnPolicy, seating: Seating) -> None:
        self.passes: dict[int, Turn] = _PassAnswers(policy, seating)
        """Who acts after a pass (RULES §1.5.2-§1.5.4, §3.3, §3.4, §12.8, §12.10)."""
        self.plays: dict[int, Turn] = _PlayAnswers(policy, seating)
        """Who acts after a play (RULES §1.5.4-§1.5.6, §3.4, §12.10)."""


@functools.lru_cache(maxsize=64)
def _shared_turn_table(policy: TurnPolicy, seating: Seating) -> TurnTable:
    return TurnTable(policy, seating)


def turn_table(policy: TurnPolicy, seating: Seating) -> TurnTable:
    """The `TurnTable` of *policy* at *seating*, shared by every game that plays it.

    An unhashable policy (a table's own class with mutable parts) gets a table of its
    own.
    """
    try:
        return _shared_turn_table(policy, seating)
    except TypeError:  # unhashable: nothing to share it by
        return TurnTable(policy, seating)
