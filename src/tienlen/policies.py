"""Game flow as small frozen policy values a rule set carries (RULES §1.5, §2–§6, §12).

`GameState` asks three policies at named points instead of asking which variant it
plays: a `TurnPolicy` (who acts after a play or a pass, who leads a new trick, when
the game ends, RULES §1.5, §3.4, §4.4, §12.8, §12.10), a `DealPolicy` (the spare card
and instant wins, RULES §4.1, §5.4, §6.7) and a `tienlen.scoring.Scorer` (stakes or
Poker points, RULES §2.5, §6.6, §12.7, §12.11). `tienlen.BaseRules` builds them from
its settings (``BaseRules.turn_policy``, ``deal_policy``, ``scorer``),
so presets and records stay data; a table with a rule of its own passes a policy value
instead (``custom_turn_policy=``, ``custom_deal_policy=``, ``custom_scorer=``), without
subclassing the rule set.

Example:
    >>> from tienlen import CLASSIC, JUSTUS_PANG
    >>> CLASSIC.turn_policy.pass_locks_out, JUSTUS_PANG.turn_policy.continuation
    (True, True)
    >>> type(CLASSIC.scorer).__name__, CLASSIC.scorer.each_pays_winner
    ('StakeScorer', False)
"""

from __future__ import annotations

import enum
import functools
import inspect
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar, cast

import attrs

from tienlen.cards import Rank
from tienlen.combos import ComboKind
from tienlen.errors import InvalidArgumentError, InvalidRulesError
from tienlen.scoring import Finish, PokerScorer, Scorer, StakeScorer

if TYPE_CHECKING:
    from tienlen.cards import Hand
    from tienlen.combos import Combo
    from tienlen.rules import RuleSet
    from tienlen.rules.base import InstantWinHand

__all__ = [
    "PLAY_FACTS",
    "AfterPass",
    "AfterPlay",
    "DealPolicy",
    "Finish",
    "LeaderAfterGoingOut",
    "PokerScorer",
    "Scorer",
    "Seating",
    "StakeScorer",
    "TurnPolicy",
]


class LeaderAfterGoingOut(enum.Enum):
    """Who leads when a trick ends on the play of a player who went out (RULES §12.10).

    A player whose last cards are left unbeaten cannot lead the next trick; these are
    the readings tables play. Each applies only then: otherwise the player who made the
    last play leads (RULES §1.5.4).

    Example:
        >>> from tienlen import CLASSIC
        >>> CLASSIC.leader_after_going_out
        <LeaderAfterGoingOut.NEXT_WITH_CARDS: 'next-with-cards'>
        >>> LeaderAfterGoingOut("beaten-player").name
        'BEATEN_PLAYER'
    """

    NEXT_WITH_CARDS = "next-with-cards"
    """The first player in play direction after the one who went out who still has
    cards, even one who passed in that trick (D-1, RULES §1.5.5)."""
    AFTER_LAST_TO_ACT = "after-last-to-act"
    """The first player with cards in play direction after the player whose action
    ended the trick (the last to pass, or the one who went out if nobody could act)."""
    BEATEN_PLAYER = "beaten-player"
    """The player whose play the one who went out beat (who made the play before it in
    the trick), if they still have cards; otherwise, or if the last cards were a lead,
    as `NEXT_WITH_CARDS`."""


def _seats_after(step: int, players: int) -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple((seat + step * i) % players for i in range(1, players + 1))
        for seat in range(players)
    )


def _first_to_act(seats: tuple[int, ...], last: int | None, skip: int) -> int | None:
    """The first of *seats* not in *skip*, or ``None`` when the turn reaches *last*."""
    for seat in seats:
        if seat == last:
            return None
        if not skip >> seat & 1:
            return seat
    return None


class Seating:
    """Seat order and who acts next at a table, precomputed (RULES §1.5.4, §1.5.6, §2.1).

    Example:
        >>> from tienlen.policies import Seating
        >>> seating = Seating.of(step=1, players=4)
        >>> seating.seats_after(2), seating.next_to_act(0, None, skip=0b0010)
        ((3, 0, 1), 2)
    """

    __slots__ = ("_after", "_next", "_orders", "players")

    players: int
    """How many seats."""

    def __init__(self, step: int, players: int) -> None:
        """Precompute the seating of *players* (2 to 8) in direction *step* (1 or -1).

        Raises:
            TypeError: *step* or *players* is not an int.
            InvalidArgumentError: *step* is not 1 or -1, or *players* not 2 to 8.
        """
        for name, value in (("step", step), ("players", players)):
            if type(value) is not int:
                msg = f"{name} must be an int, got {value!r}"
                raise TypeError(msg)
        if step not in (1, -1):
            msg = f"step must be 1 (clockwise) or -1 (counter-clockwise), got {step}"
            raise InvalidArgumentError(msg)
        if not 2 <= players <= _MAX_SEATS:
            msg = f"a table seats 2 to {_MAX_SEATS} players, not {players}"
            raise InvalidArgumentError(msg)
        self.players = players
        self._after = _seats_after(step, players)
        self._orders = tuple(
            (seat, *after[:-1]) for seat, after in enumerate(self._after)
        )
        self._next = tuple(
            tuple(
                tuple(_first_to_act(seats, last, skip) for skip in range(1 << players))
                for last in (None, *range(players))
            )
            for seats in self._after
        )

    @staticmethod
    def of(step: int, players: int) -> Seating:
        """The seating for *players* in direction *step* (1 clockwise, -1 counter).

        Example:
            >>> Seating.of(-1, 4).order_from(0), Seating.of(1, 4) is Seating.of(1, 4)
            ((0, 3, 2, 1), True)
        """
        return _seating(step, players)

    def seats_after(self, seat: int) -> tuple[int, ...]:
        """The other seats in play direction after *seat*.

        Example:
            >>> Seating.of(1, 3).seats_after(1)
            (2, 0)
        """
        return self._after[seat][:-1]

    def order_from(self, seat: int) -> tuple[int, ...]:
        """Every seat in play direction, *seat* first.

        Example:
            >>> Seating.of(1, 3).order_from(1)
            (1, 2, 0)
        """
        return self._orders[seat]

    def next_to_act(self, actor: int, last: int | None, skip: int) -> int | None:
        """The first seat after *actor* not in the mask *skip* (passed or out).

        ``None`` when the turn would reach *last*, who made the last play: everyone
        else still in the game has passed, so the trick is over (RULES §1.5.4).

        Example:
            >>> seating = Seating.of(1, 4)
            >>> seating.next_to_act(0, 0, skip=0b0010), seating.next_to_act(3, 0, skip=0b0110)
            (2, None)
        """
        return self._next[actor][0 if last is None else last + 1][skip]


_MAX_SEATS = 8
"""The most seats at a table (RULES §2.1: two decks, five to eight players)."""


@functools.cache
def _seating(step: int, players: int) -> Seating:
    return Seating(step, players)


_BOMB: Final = frozenset({"bomb"})
"""`TurnPolicy.reads` when a bomb re-opens the trick (RULES §12.13)."""


PLAY_FACTS: Final = frozenset({"bomb", "chop", "kind", "size", "rank"})
"""The facts of a play a `TurnPolicy` may name in `TurnPolicy.reads` (`AfterPlay`)."""


def _natural(_event: object, field: attrs.Attribute[Any], value: object) -> None:
    """An event's seat or seat mask: an `int` (not a ``bool``), 0 or more."""
    if type(value) is not int:
        msg = f"{field.name} is an int, got {value!r}"
        raise TypeError(msg)
    if value < 0:
        msg = f"{field.name} must not be negative, got {value}"
        raise InvalidArgumentError(msg)


def _optional(kind: type) -> Callable[[object, attrs.Attribute[Any], object], None]:
    """A validator: ``None`` or exactly *kind* (a `bool` is no `int` here)."""

    def check(_event: object, field: attrs.Attribute[Any], value: object) -> None:
        if value is not None and type(value) is not kind:
            msg = f"{field.name} is a {kind.__name__} or None, got {value!r}"
            raise TypeError(msg)

    return check


def _natural_or_none(event: object, field: attrs.Attribute[Any], value: object) -> None:
    """An event's seat that may be missing: ``None`` or as `_natural`."""
    if value is not None:
        _natural(event, field, value)


@attrs.frozen(kw_only=True)
class AfterPlay:
    """What happened: *player* made a play (the question of `TurnPolicy.after_play`).

    The seats and masks are always given. The facts about the play itself (`bomb`,
    `chop`, `kind`, `size`, `rank`, named in `PLAY_FACTS`) are given when the policy
    names them in `TurnPolicy.reads`, and are ``None`` otherwise: the engine remembers
    each answer per distinct question, so a question holds only what its answer may
    depend on. New facts come as new fields, which policies that do not read them
    never see.

    Raises:
        TypeError: a field of the wrong type (a seat or mask that is not an ``int``, a
            fact that is neither ``None`` nor of its type).
        InvalidArgumentError: a negative seat or mask.

    Example:
        >>> from tienlen import CLASSIC
        >>> event = AfterPlay(player=0, locked=0b0010, out=0, previous=3, bomb=True)
        >>> CLASSIC.turn_policy.after_play(Seating.of(1, 4), event)  # 1 passed: 2 answers
        (2, 2)
        >>> event.kind is None  # not asked for
        True
    """

    player: int = attrs.field(validator=_natural)
    """Who played."""
    locked: int = attrs.field(validator=_natural)
    """The mask of players locked out of the trick before the play (RULES §1.5.3)."""
    out: int = attrs.field(validator=_natural)
    """The mask of players out of the game after the play (RULES §1.5.5)."""
    previous: int | None = attrs.field(default=None, validator=_natural_or_none)
    """Who made the play it beat, or ``None`` if it was a lead (RULES §1.5.1)."""
    bomb: bool | None = attrs.field(default=None, validator=_optional(bool))
    """Whether the play is a bomb under the rule set (`tienlen.RuleSet.is_bomb`)."""
    chop: bool | None = attrs.field(default=None, validator=_optional(bool))
    """Whether the play catches the top (*chặt*, `tienlen.RuleSet.is_catch`, §6.6.2)."""
    kind: ComboKind | None = attrs.field(default=None, validator=_optional(ComboKind))
    """The play's combination kind (RULES §1.2)."""
    size: int | None = attrs.field(default=None, validator=_optional(int))
    """How many cards the play holds."""
    rank: Rank | None = attrs.field(default=None, validator=_optional(Rank))
    """The rank of the play's highest card (RULES §1.3)."""


class _AskedPlay(AfterPlay):
    """An `AfterPlay` as the engine puts it to a table's own policy (`asked_play`).

    Reading a fact of the play that the policy's `TurnPolicy.reads` does not name
    raises `InvalidRulesError` (and is remembered, `undeclared_read`): the engine
    gives a policy only the facts it reads and remembers its answers by them, so a
    policy reading another would see ``None`` and silently never fire.
    """

    __slots__ = ("_event", "_policy", "_reads", "_refusal")

    def __getattribute__(self, name: str) -> Any:
        get = object.__getattribute__
        if name in PLAY_FACTS and name not in get(self, "_reads"):
            refusal = _undeclared(get(self, "_policy"), name, get(self, "_reads"))
            object.__setattr__(self, "_refusal", refusal)
            raise refusal
        return get(self, name)

    def __repr__(self) -> str:
        return repr(object.__getattribute__(self, "_event"))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _AskedPlay):
            other = object.__getattribute__(other, "_event")
        return bool(object.__getattribute__(self, "_event") == other)

    def __hash__(self) -> int:
        return hash(object.__getattribute__(self, "_event"))


def _undeclared(policy: object, fact: str, reads: frozenset[str]) -> InvalidRulesError:
    """The error for *policy* reading the play's *fact*, which its *reads* leaves out."""
    name = type(policy).__name__
    named = ", ".join(sorted(reads)) or "nothing"
    wanted = ", ".join(repr(f) for f in sorted({*reads, fact}))
    return InvalidRulesError(
        f"turn policy {name}.after_play read the play's fact {fact!r}, which "
        f"{name}.reads does not name (it names {named}): declare it, as "
        f"reads = frozenset({{{wanted}}}); a policy is given only the facts it reads"
    )


def asked_play(
    event: AfterPlay, policy: TurnPolicy, reads: frozenset[str]
) -> AfterPlay:
    """*event* as the engine puts it to *policy*, which declared it *reads* those facts.

    The same event, except that reading a fact of the play (`PLAY_FACTS`) not in
    *reads* raises `InvalidRulesError` naming the policy and the fact; the engine
    also raises it once the policy answers (`undeclared_read`), in case the policy
    caught it.

    Example:
        >>> @attrs.frozen
        ... class BombsEndTricks(TurnPolicy):  # reads the bomb fact, declares nothing
        ...     def after_play(self, seating, event):
        ...         return (None, 0) if event.bomb else super().after_play(seating, event)
        >>> policy = BombsEndTricks()
        >>> event = asked_play(AfterPlay(player=0, locked=0, out=0), policy, policy.reads)
        >>> event.player, event
        (0, AfterPlay(player=0, locked=0, out=0, previous=None, bomb=None, chop=None, kind=None, size=None, rank=None))
        >>> policy.after_play(Seating.of(1, 4), event)
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidRulesError: turn policy BombsEndTricks.after_play read the play's fact 'bomb', which BombsEndTricks.reads does not name (it names nothing): ...
    """
    asked = object.__new__(_AskedPlay)
    for field in attrs.fields(AfterPlay):
        object.__setattr__(asked, field.name, getattr(event, field.name))
    object.__setattr__(asked, "_event", event)
    object.__setattr__(asked, "_policy", policy)
    object.__setattr__(asked, "_reads", reads)
    object.__setattr__(asked, "_refusal", None)
    return asked


def undeclared_read(event: AfterPlay) -> InvalidRulesError | None:
    """The error `asked_play`'s *event* raised for a fact its policy did not declare, if any.

    Example:
        >>> print(undeclared_read(AfterPlay(player=0, locked=0, out=0)))
        None
    """
    if type(event) is not _AskedPlay:
        return None
    refusal: InvalidRulesError | None = object.__getattribute__(event, "_refusal")
    return refusal


@attrs.frozen(kw_only=True)
class AfterPass:
    """What happened: *player* passed (the question of `TurnPolicy.after_pass`).

    Raises:
        TypeError: a seat or mask that is not an ``int`` (``last`` may be ``None``).
        InvalidArgumentError: a negative seat or mask.

    Example:
        >>> from tienlen import CLASSIC
        >>> CLASSIC.turn_policy.after_pass(Seating.of(1, 4), AfterPass(player=1, last=0, locked=0, out=0))
        (2, 2)
    """

    player: int = attrs.field(validator=_natural)
    """Who passed."""
    last: int | None = attrs.field(validator=_natural_or_none)
    """Who made the play on top, or ``None`` when a first lead is declined (D-6)."""
    locked: int = attrs.field(validator=_natural)
    """The mask of players locked out of the trick before the pass (RULES §1.5.3)."""
    out: int = attrs.field(validator=_natural)
    """The mask of players out of the game."""


_Hook = TypeVar("_Hook", bound=Callable[..., Any])
_OLD_ARGUMENTS: Final = {
    "after_play": (AfterPlay, ("player", "locked", "out")),
    "after_pass": (AfterPass, ("player", "last", "locked", "out")),
}
"""Per hook taking an event, its event class and the arguments it took before 0.2."""
_ADAPTED: Final = "__tienlen_old_hook__"
"""Marks a subclass hook that `TurnPolicy.__init_subclass__` already adapted."""


def _accepts_old_calls(hook: _Hook) -> _Hook:
    """*hook*, also answering a call with the arguments it took before events (deprecated).

    ``after_play(seating, player, locked, out)`` becomes ``after_play(seating,
    AfterPlay(player=..., locked=..., out=...))``, with a `DeprecationWarning`.
    """
    event_type = _OLD_ARGUMENTS[hook.__name__][0]

    @functools.wraps(hook)
    def hook_or_old_call(
        self: TurnPolicy, seating: Seating, *args: Any, **kwargs: Any
    ) -> Any:
        if len(args) == 1 and not kwargs and isinstance(args[0], event_type):
            return hook(self, seating, args[0])
        if not args and kwargs.keys() == {"event"}:
            return hook(self, seating, kwargs["event"])
        return hook(self, seating, _old_call(hook.__name__, args, kwargs))

    return cast("_Hook", hook_or_old_call)


def _old_call(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The event of a call of hook *name* with its old arguments (deprecated)."""
    event_type, names = _OLD_ARGUMENTS[name]
    if len(args) > len(names) or not {*names[: len(args)]}.isdisjoint(kwargs):
        msg = f"{name}() takes (seating, event), got {len(args)} more arguments"
        raise TypeError(msg)
    warnings.warn(
        f"TurnPolicy.{name}(seating, {', '.join(names)}) is deprecated: pass "
        f"(seating, {event_type.__name__}(...)) instead; the old form goes in 0.3",
        DeprecationWarning,
        stacklevel=3,
    )
    return event_type(**dict(zip(names, args, strict=False)), **kwargs)


def _takes_old_arguments(hook: Callable[..., Any], name: str) -> bool:
    """Whether a subclass's *hook* has the signature it had before events (deprecated)."""
    try:
        parameters = inspect.signature(hook).parameters.values()
    except (TypeError, ValueError):  # pragma: no cover - a builtin: assume the new form
        return False
    positional = [
        p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    spread = any(p.kind is p.VAR_POSITIONAL for p in parameters)
    return not spread and len(positional) == 2 + len(_OLD_ARGUMENTS[name][1])


def _adapt_old_hook(
    cls: type, name: str, hook: Callable[..., Any]
) -> Callable[..., Any]:
    """*hook* of the old form, answering an event as before (deprecated)."""
    names = _OLD_ARGUMENTS[name][1]
    warnings.warn(
        f"{cls.__qualname__}.{name} takes (seating, {', '.join(names)}): since 0.2 "
        f"it takes (seating, event); the old form is adapted until 0.3",
        DeprecationWarning,
        stacklevel=3,
    )

    @functools.wraps(hook)
    def adapted(self: TurnPolicy, seating: Seating, *args: Any, **kwargs: Any) -> Any:
        if (
            len(args) == 1
            and not kwargs
            and isinstance(args[0], (AfterPlay, AfterPass))
        ):
            event = args[0]
            return hook(self, seating, *(getattr(event, field) for field in names))
        return hook(self, seating, *args, **kwargs)

    setattr(adapted, _ADAPTED, True)
    return adapted


@attrs.frozen(kw_only=True)
class TurnPolicy:
    """Who acts next, who leads, when the game ends (RULES §1.5, §3.4, §4.4, §6.4, §12).

    ``locked`` is a mask of players who may not act again until the trick ends (or,
    without lock-out, until the next play); ``out`` a mask of players out of the game.

    ``after_play`` and ``after_pass`` are told what happened as an event value
    (`AfterPlay`, `AfterPass`). A policy is a frozen value: its answers depend only on
    the event, and on the play's facts only as far as `reads` names them. The engine
    asks each distinct question once per policy and seating and remembers the answer,
    so a pass or a play is a table lookup; a table's own policy (a subclass given as
    ``custom_turn_policy``) is remembered the same way.

    Example:
        >>> from tienlen import CLASSIC, JUSTUS_PANG
        >>> seating, event = Seating.of(1, 4), AfterPass(player=3, last=2, locked=0b0011, out=0)
        >>> CLASSIC.turn_policy.after_pass(seating, event)  # all passed
        (None, 11)
        >>> JUSTUS_PANG.turn_policy.after_pass(seating, event)  # continue
        (2, 11)
    """

    continuation: bool = False
    """When everyone else passed, the last player may continue or close (Justus
    Pang, RULES §3.4, D-7)."""
    pass_locks_out: bool = True
    """A pass locks the player out of the trick (RULES §1.5.3). When False (§12.8), a
    pass only skips the player until the next play; the trick still ends when the turn
    would come back to the last player with everyone else having passed since it."""
    leader_after_going_out: LeaderAfterGoingOut = LeaderAfterGoingOut.NEXT_WITH_CARDS
    """Who leads after a player goes out unbeaten (RULES §12.10, D-1)."""
    ends_at_first_out: bool = False
    """The game ends when the first player goes out (Kenneth Lo, RULES §4.4, D-11)."""
    jump_ins: bool = False
    """Whether players other than the one to act may play (Poker, RULES §6.4); which
    plays may is the rule set's `tienlen.RuleSet.may_jump_in`."""
    no_going_out_with_two: bool = False
    """A play that empties the hand may not hold a 2 (RULES §12.12)."""
    no_going_out_with_bomb: bool = False
    """A play that empties the hand may not be a bomb (RULES §12.12)."""
    bomb_reopens_trick: bool = False
    """A bomb played onto a play unlocks the players who passed (RULES §12.13), a
    continuer's bomb onto their own play included (D-24)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Adapt a hook of the form before events (deprecated: it goes in 0.3).

        A subclass whose ``after_play`` takes ``(seating, player, locked, out)`` (or
        ``after_pass`` ``(seating, player, last, locked, out)``) is found once, when the
        class is made, with a `DeprecationWarning`; the engine's events reach it as
        those arguments.
        """
        super().__init_subclass__(**kwargs)
        for name in _OLD_ARGUMENTS:
            hook = cls.__dict__.get(name)
            if (
                callable(hook)
                and not hasattr(hook, _ADAPTED)
                and _takes_old_arguments(hook, name)
            ):
                setattr(cls, name, _adapt_old_hook(cls, name, hook))

    @property
    def reads(self) -> frozenset[str]:
        """The facts of a play (`PLAY_FACTS`) the answers of `after_play` depend on.

        Only these reach `after_play` in its `AfterPlay`; the others are ``None``. A
        table's own policy names what it reads as a class attribute: ``reads =
        frozenset({"bomb"})``.

        Example:
            >>> TurnPolicy().reads, TurnPolicy(bomb_reopens_trick=True).reads
            (frozenset(), frozenset({'bomb'}))
        """
        return _BOMB if self.bomb_reopens_trick else frozenset()

    @property
    def limits_going_out(self) -> bool:
        """Whether some plays may not empty a hand, so a leader may be stuck (§12.12).

        Example:
            >>> TurnPolicy().limits_going_out, TurnPolicy(no_going_out_with_two=True).limits_going_out
            (False, True)
        """
        return self.no_going_out_with_two or self.no_going_out_with_bomb

    def may_go_out_with(self, rules: RuleSet, combo: Combo) -> bool:
        """Whether a player may go out by playing *combo* (RULES §12.12).

        Example:
            >>> from tienlen import CLASSIC, classify
            >>> policy = TurnPolicy(no_going_out_with_two=True)
            >>> policy.may_go_out_with(CLASSIC, classify("2h")), policy.may_go_out_with(CLASSIC, classify("Ah"))
            (False, True)
        """
        if self.no_going_out_with_two and any(
            card.rank is Rank.TWO for card in combo.cards
        ):
            return False
        return not (self.no_going_out_with_bomb and rules.is_bomb(combo.shape))

    @_accepts_old_calls
    def after_play(self, seating: Seating, event: AfterPlay) -> tuple[int | None, int]:
        """After a play: who acts (``None``: the trick ends) and the lock-outs.

        Example:
            >>> seating = Seating.of(1, 4)
            >>> TurnPolicy().after_play(seating, AfterPlay(player=0, locked=0b0010, out=0))
            (2, 2)
            >>> TurnPolicy(pass_locks_out=False).after_play(seating, AfterPlay(player=0, locked=0b0010, out=0))
            (1, 0)
            >>> reopens = TurnPolicy(bomb_reopens_trick=True)
            >>> reopens.after_play(seating, AfterPlay(player=0, locked=0b0110, out=0, previous=3, bomb=True))
            (1, 0)
        """
        player, locked, out = event.player, event.locked, event.out
        if not self.pass_locks_out or (
            self.bomb_reopens_trick and event.bomb and event.previous is not None
        ):
            # RULES §12.8; a bomb onto a play re-opens the trick (§12.13), also a
            # Justus Pang continuer's bomb onto their own play (D-24)
            locked = 0
        nxt = seating.next_to_act(player, player, locked | out)
        if nxt is None and self.continuation and not out >> player & 1:
            nxt = player  # all others passed: continue or close (RULES §3.4)
        return nxt, locked

    @_accepts_old_calls
    def after_pass(self, seating: Seating, event: AfterPass) -> tuple[int | None, int]:
        """After a pass on *event.last*'s play (``None``: a declined first lead).

        Example:
            >>> TurnPolicy().after_pass(Seating.of(1, 4), AfterPass(player=1, last=0, locked=0, out=0))
            (2, 2)
        """
        player, last, out = event.player, event.last, event.out
        if player == last:  # closing a continuation (RULES §3.4, D-7)
            return None, event.locked
        locked = event.locked | 1 << player
        nxt = seating.next_to_act(player, last, locked | out)
        if (
            nxt is None
            and self.continuation
            and last is not None
            and not out >> last & 1
        ):
            nxt = last
        return nxt, locked

    def beaten(self, previous: int | None) -> int | None:
        """What a play remembers of the player it beat (only what `trick_leader` uses).

        Example:
            >>> reading = LeaderAfterGoingOut.BEATEN_PLAYER
            >>> TurnPolicy().beaten(2), TurnPolicy(leader_after_going_out=reading).beaten(2)
            (None, 2)
        """
        if self.leader_after_going_out is LeaderAfterGoingOut.BEATEN_PLAYER:
            return previous
        return None

    def trick_leader(
        self,
        seating: Seating,
        *,
        last: int,
        out: int,
        last_to_act: int,
        beaten: int | None,
    ) -> int:
        """Who leads the next trick, which ended on *last*'s play (RULES §1.5.4-§1.5.5).

        Example:
            >>> seating = Seating.of(1, 4)
            >>> TurnPolicy().trick_leader(seating, last=1, out=0, last_to_act=0, beaten=None)
            1
            >>> TurnPolicy().trick_leader(seating, last=1, out=0b0110, last_to_act=0, beaten=None)
            3
        """
        if not out >> last & 1:
            return last
        start = last
        reading = self.leader_after_going_out
        if reading is LeaderAfterGoingOut.AFTER_LAST_TO_ACT:
            start = last_to_act
        elif (
            reading is LeaderAfterGoingOut.BEATEN_PLAYER
            and beaten is not None
            and not out >> beaten & 1
        ):
            return beaten
        leader = seating.next_to_act(start, None, out)
        if leader is None:  # pragma: no cover - the game is over before
            msg = "no player left to lead"
            raise AssertionError(msg)
        return leader

    def is_over(self, players: int, out: int, finished: int) -> bool:
        """Whether the game ends (RULES §2.5, §4.4).

        *out* is the mask of players out of the game, *finished* how many of them
        went out by playing their cards.

        Example:
            >>> TurnPolicy().is_over(4, out=0b0111, finished=3), TurnPolicy().is_over(4, 0b0001, 1)
            (True, False)
            >>> TurnPolicy(ends_at_first_out=True).is_over(4, out=0b0001, finished=1)
            True
        """
        return (
            self.ends_at_first_out and finished > 0
        ) or players - out.bit_count() <= 1

    def places(
        self,
        finish_order: Sequence[int],
        remaining: Sequence[int],
        hands: Sequence[Hand],
        bottom: Sequence[int],
    ) -> tuple[int, ...]:
        """Every player's place, first first: those out, those left, then *bottom*.

        *remaining* are the players still holding cards, in play order from the last
        one out; under `ends_at_first_out` they rank by fewest cards left, play order
        breaking ties (RULES §4.4). *bottom* (frozen players) take the last places.

        Example:
            >>> from tienlen import Hand
            >>> hands = [Hand.parse(text) for text in ("", "3s 4s", "5d", "6c 7c 8c")]
            >>> TurnPolicy(ends_at_first_out=True).places([0], [1, 2, 3], hands, [])
            (0, 2, 1, 3)
        """
        left = list(remaining)
        if self.ends_at_first_out:
            left.sort(key=lambda p: len(hands[p]))  # stable: play order breaks ties
        return (*finish_order, *left, *bottom)


@attrs.frozen(kw_only=True)
class DealPolicy:
    """The spare card and instant wins at the deal (RULES §4.1, §5.4, §6.7, D-8).

    Example:
        >>> from tienlen import CLASSIC, KENNETH_LO
        >>> KENNETH_LO.deal_policy.spare_card_to_starter, CLASSIC.deal_policy
        (True, DealPolicy(spare_card_to_starter=False))
    """

    spare_card_to_starter: bool = False
    """With three players of 17 cards, the 52nd card goes to the starter (D-8)."""

    def gives_spare_card(self, players: int, spare: int) -> bool:
        """Whether the *spare* undealt cards of a *players* deal go to the starter.

        Example:
            >>> policy = DealPolicy(spare_card_to_starter=True)
            >>> policy.gives_spare_card(3, spare=1), policy.gives_spare_card(4, spare=0)
            (True, False)
        """
        return self.spare_card_to_starter and players == 3 and spare == 1

    def spare_holder(self, sizes: Sequence[int], size: int) -> int | None:
        """Of given hands' *sizes*, the starter holding the spare card, if any (§4.1).

        Example:
            >>> DealPolicy(spare_card_to_starter=True).spare_holder([17, 18, 17], 17)
            1
        """
        if not self.gives_spare_card(len(sizes), 1):
            return None
        if sorted(sizes) != [size, size, size + 1]:
            return None
        return list(sizes).index(size + 1)

    def instant_win(
        self, rules: RuleSet, hand: Hand, *, first_game: bool
    ) -> InstantWinHand | None:
        """The instant win *hand* holds at the deal of a game, as the rule set says.

        *first_game*: whether the game is a match's first (RULES §5.4, §6.7, §12.5).

        Example:
            >>> from tienlen import POKER, Hand
            >>> hand = Hand.parse("3s 3c 5d 5h 7s 7c 9d 9h Js Jc Kd Kh 2s")
            >>> POKER.deal_policy.instant_win(POKER, hand, first_game=True)
            <InstantWin.SIX_PAIRS: 'six-pairs'>
        """
        return rules.instant_win(hand, first_game=first_game)
