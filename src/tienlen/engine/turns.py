"""The turn key and the turn table: who acts next, as one int and a memo of its answers.

A position's who-acts facts (who acts, who played the top, who passed, who is out,
who was beaten) are packed into one int, the *turn key*; its bit layout lives here
only (`turn_key`, `decode`, `acting`, `with_out`, `play_facts`). A `TurnTable`
remembers the turn policy's answer to each distinct key (issue 10), so a pass or a play
is a dictionary lookup instead of a policy call. A play's question also holds the facts
of the play the policy reads (`tienlen.policies.TurnPolicy.reads`), and only those, so
remembering stays exact. The policy stays the one place each rule of who acts lives
(`tienlen.policies.TurnPolicy`).
"""

from __future__ import annotations

import functools
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any, Final

from tienlen.cards import Rank
from tienlen.combos import ComboKind
from tienlen.engine.answers import (
    checked_leader,
    checked_turn,
    is_library_policy,
    optional_seat,
    policy_raised,
    question,
)
from tienlen.errors import InvalidArgumentError, InvalidStateError
from tienlen.policies import (
    PLAY_FACTS,
    AfterPass,
    AfterPlay,
    asked_play,
    undeclared_read,
)

if TYPE_CHECKING:
    from tienlen.policies import Seating, TurnPolicy

__all__ = [
    "Turn",
    "TurnTable",
    "acting",
    "decode",
    "facts_read",
    "play_event",
    "play_facts",
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


_FACTS: Final = {
    "bomb": (28, 1),
    "chop": (29, 1),
    "kind": (30, 4),
    "size": (34, 6),
    "rank": (40, 4),
}
"""Where each fact of a play (`tienlen.policies.PLAY_FACTS`) sits in a play's question:
its shift and width, above the `turn_key` bits."""


def facts_read(policy: TurnPolicy) -> frozenset[str]:
    """The facts of a play *policy* reads (its ``reads``), checked.

    Raises:
        TypeError: ``reads`` is not a set of strings.
        InvalidArgumentError: it names a fact no play has.

    Example:
        >>> from tienlen.policies import TurnPolicy
        >>> facts_read(TurnPolicy(bomb_reopens_trick=True))
        frozenset({'bomb'})
    """
    reads: object = policy.reads  # a table's own class may set anything
    if not isinstance(reads, AbstractSet) or not all(isinstance(f, str) for f in reads):
        msg = f"{type(policy).__name__}.reads must be a frozenset of fact names, got {reads!r}"
        raise TypeError(msg)
    unknown = sorted(set(reads) - PLAY_FACTS)
    if unknown:
        known = ", ".join(sorted(PLAY_FACTS))
        msg = f"{type(policy).__name__}.reads names no fact of a play: {', '.join(unknown)} (known: {known})"
        raise InvalidArgumentError(msg)
    return frozenset(reads)


def play_facts(
    reads: frozenset[str],
    *,
    bomb: bool,
    chop: bool,
    kind: ComboKind,
    size: int,
    rank: Rank,
) -> int:
    """The facts of a play named in *reads*, as the bits a play's question adds.

    Example:
        >>> from tienlen.cards import Rank
        >>> from tienlen.combos import ComboKind
        >>> hex(play_facts(frozenset({"bomb"}), bomb=True, chop=False, kind=ComboKind.FOUR_OF_A_KIND, size=4, rank=Rank.NINE))
        '0x10000000'
    """
    values = {
        "bomb": int(bomb),
        "chop": int(chop),
        "kind": kind.value,
        "size": size,
        "rank": rank.value,
    }
    bits = 0
    for name in reads:
        shift, width = _FACTS[name]
        bits |= min(values[name], (1 << width) - 1) << shift
    return bits


def _fact_values(key: int, reads: frozenset[str]) -> dict[str, object]:
    """The facts *reads* names, read back from a play's question *key*."""
    found: dict[str, object] = {}
    for name in reads:
        shift, width = _FACTS[name]
        raw = key >> shift & (1 << width) - 1
        if name in ("bomb", "chop"):
            found[name] = bool(raw)
        elif name == "kind":
            found[name] = ComboKind(raw)
        elif name == "rank":
            found[name] = Rank(raw)
        else:
            found[name] = raw
    return found


def play_event(key: int, reads: frozenset[str]) -> AfterPlay:
    """The `AfterPlay` of a play's question *key* (with the facts *reads* names).

    Example:
        >>> play_event(acting(turn_key(2, 0, 0b0010, 0, None), 3), frozenset())
        AfterPlay(player=3, locked=2, out=0, previous=0, bomb=None, chop=None, kind=None, size=None, rank=None)
    """
    player, last, locked, out, _ = decode(key)
    return AfterPlay(
        player=player,
        locked=locked,
        out=out,
        previous=last,
        **_fact_values(key, reads),  # type: ignore[arg-type]  # each by its name
    )


class _Answers(dict[int, Turn]):
    """A policy's answers by `turn_key`, each asked the first time (`__missing__`).

    Each answer is checked when asked (`tienlen.engine.answers`), before it is
    remembered: a wrong one raises and is never kept.
    """

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
        policy = self._policy
        asked = f"last={last}, out={out}, last_to_act={last_to_act}, beaten={beaten}"
        try:
            untyped: Any = policy  # called untyped (`tienlen.engine.answers`)
            answer: object = untyped.trick_leader(
                self._seating,
                last=last,
                out=out,
                last_to_act=last_to_act,
                beaten=beaten,
            )
        except Exception as error:
            raise policy_raised(policy, "trick_leader", asked, error) from error
        leader = checked_leader(policy, asked, answer, self._seating.players, out)
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
        event = AfterPass(player=player, last=last, locked=locked, out=out)
        policy = self._policy
        try:
            untyped: Any = policy  # called untyped (`tienlen.engine.answers`)
            answer: object = untyped.after_pass(self._seating, event)
        except Exception as error:
            raise policy_raised(policy, "after_pass", question(event), error) from error
        players = self._seating.players
        asked = question(event)
        nxt, locked = checked_turn(policy, "after_pass", asked, answer, players, out)
        if nxt is None and last is not None:  # everyone passed: the trick is over
            return self._new_trick(last, out, player, beaten)
        if nxt is None:  # a declined first lead passes the turn on, unless forged
            msg = f"nobody is left to lead after seat {player} declines the first lead"
            raise InvalidStateError(msg)
        return nxt, locked, False, turn_key(nxt, last, locked, out, beaten)


class _PlayAnswers(_Answers):
    """`TurnPolicy.after_play` (and `trick_leader` when the trick ends), remembered.

    Keyed by the `turn_key` of the position with the player who plays in place of the
    player to act, *out* after the play and the `play_facts` the policy reads. Asked
    only while the game goes on (`TurnPolicy.is_over` is asked first).
    """

    __slots__ = ("reads",)

    def __init__(self, policy: TurnPolicy, seating: Seating) -> None:
        super().__init__(policy, seating)
        self.reads = facts_read(policy)
        """The facts of a play the policy reads (`TurnPolicy.reads`)."""

    def __missing__(self, key: int) -> Turn:
        return self._remember(key, self._ask(play_event(key, self.reads)))

    def _ask(self, event: AfterPlay) -> Turn:
        player, out = event.player, event.out
        policy = self._policy
        players = self._seating.players
        beaten = _beaten(policy, event.previous, players)  # the previous play's player
        nxt, locked = _after_play(policy, self._seating, event, self.reads)
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

    __slots__ = ("_end_locks", "_policy", "_seating", "passes", "plays", "reads")

    def __init__(self, policy: TurnPolicy, seating: Seating) -> None:
        self._policy = policy
        self._seating = seating
        self._end_locks: dict[int, int] = {}
        """`locks_after_play`'s answers, remembered as `plays` remembers its own."""
        self.passes: dict[int, Turn] = _PassAnswers(policy, seating)
        """Who acts after a pass (RULES §1.5.2-§1.5.4, §3.3, §3.4, §12.8, §12.10)."""
        plays = _PlayAnswers(policy, seating)
        self.plays: dict[int, Turn] = plays
        """Who acts after a play (RULES §1.5.4-§1.5.6, §3.4, §12.10, §12.13); a play's
        question is its position's `acting` key with the `play_facts` in `reads`."""
        self.reads = plays.reads
        """The facts of a play the policy reads (`TurnPolicy.reads`)."""

    def locks_after_play(self, key: int) -> int:
        """The lock-outs after the play of question *key* that ends the game.

        Example:
            >>> from tienlen import CLASSIC
            >>> from tienlen.policies import Seating
            >>> table = turn_table(CLASSIC.turn_policy, Seating.of(1, 4))
            >>> table.locks_after_play(with_out(acting(turn_key(2, 0, 0b0010, 0, None), 3), 0b0111))
            2
        """
        locks = self._end_locks.get(key)
        if locks is None:
            if len(self._end_locks) >= MEMO_LIMIT:
                self._end_locks.clear()
            event = play_event(key, self.reads)
            locks = self._end_locks[key] = _after_play(
                self._policy, self._seating, event, self.reads
            )[1]
        return locks


def _after_play(
    policy: TurnPolicy, seating: Seating, event: AfterPlay, reads: frozenset[str]
) -> tuple[int | None, int]:
    """``policy.after_play(seating, event)``, checked (`tienlen.engine.answers`).

    A table's own policy is given the event as `asked_play` makes it: reading a fact
    it does not declare in *reads* is an `InvalidRulesError` (issue 35), raised
    whether or not the policy caught it.
    """
    told = event if is_library_policy(policy) else asked_play(event, policy, reads)
    try:
        untyped: Any = policy  # called untyped (`tienlen.engine.answers`)
        answer: object = untyped.after_play(seating, told)
    except Exception as error:
        undeclared = undeclared_read(told)
        if undeclared is not None:
            raise undeclared from None
        raise policy_raised(policy, "after_play", question(event), error) from error
    undeclared = undeclared_read(told)
    if undeclared is not None:
        raise undeclared
    asked = question(event)
    return checked_turn(policy, "after_play", asked, answer, seating.players, event.out)


def _beaten(policy: TurnPolicy, previous: int | None, players: int) -> int | None:
    """``policy.beaten(previous)``, checked: ``None`` or a seat."""
    try:
        untyped: Any = policy  # called untyped (`tienlen.engine.answers`)
        answer: object = untyped.beaten(previous)
    except Exception as error:
        raise policy_raised(policy, "beaten", repr(previous), error) from error
    return optional_seat(policy, "beaten", repr(previous), answer, players)


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
