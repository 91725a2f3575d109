"""What a player does: `Play`, `Pass`, and a state's legal `Actions` (RULES §1.5).

A `Play` holds two ints, the player and the card mask (`tienlen.Hand.mask`); its `Hand`
is built when `Play.cards` is read. `make_play` is how the engine builds the plays it
lists, without checking them again. A `Play` made by `GameState.legal_actions` carries
a trust token: the state that listed it applies it without checking it again. The
token is a number no other state of any process holds (a random per-process prefix and
a counter); it is never pickled or copied, so a play that travelled is always checked
in full.

`GameState.legal_actions` fills a blank `Actions` in (``Actions()``, no ``__init__``);
each action's card mask is kept (`Actions.masks`), and a `Play` object is built only
when taken.

The compiled build compiles this module, so a listed play is a native object. A
native class's constructor always runs ``__init__``, and ``object.__new__`` refuses a
native class: so `Play` defines a ``__new__`` that, like ``object.__new__``, ignores its
arguments, and the compiled engine builds a blank play with ``Play.__new__(Play)``
(`make_play`). The pure engine calls ``object.__new__`` itself, a C call where
``Play.__new__`` would be a Python frame per play. What a caller hands in (``item in
actions``) is read untyped, so a look-alike seat is refused as in the pure build.
"""

from __future__ import annotations

import itertools
import operator
import os
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import FunctionType
from typing import Any, Final, Protocol, Self, SupportsIndex, cast, overload

from tienlen.cards import Card, Hand, as_hand
from tienlen.engine.bits import player_index
from tienlen.engine.movegen import native_sequence
from tienlen.passes import PASSES, Pass

__all__ = ["Action", "Actions", "Pass", "Play"]


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


Action = Play | Pass
"""What a player does on their turn (or, for a Poker jump-in, out of it)."""

_untrusted_play: Final = untrusted_play
"""How plays pickled before 0.3 name their loader (a play pickles by `untrusted_play`)."""


class _TrustTokens:
    """Trust tokens: a random per-process prefix and a counter (see `Play`)."""

    __slots__ = ("count", "prefix")

    def __init__(self) -> None:
        self.prefix = [0]
        """The process's random prefix, in a cell the engine reads inline."""
        self.count = itertools.count(1)
        """The per-process counter."""
        self.reseed()

    def reseed(self) -> None:
        """Draw a new random prefix (at import and in a forked child)."""
        self.prefix[0] = (secrets.randbits(19) | 1) << 40  # small ints stay fast

    def next(self) -> int:
        """A token no other state of any process holds (0 is never one)."""
        return self.prefix[0] | next(self.count)


TOKENS: Final = _TrustTokens()
"""The process's trust-token source (engine-level: `tienlen.engine` reads it)."""
os.register_at_fork(after_in_child=TOKENS.reseed)


Listing = tuple[int, int, Sequence[int], bool, Sequence[tuple[int, Sequence[int]]]]
"""What a state's `Actions` list, as ints: the player to act, their singles as one
mask, their other plays, whether they may pass, and the Poker jump-ins (other
players and their plays). A state keeps it once its `Actions.masks` were read."""


def lists(listing: Listing, player: object, mask: int) -> bool:
    """Whether *listing* holds *player* playing *mask* (0: passing): no object built.

    Example:
        >>> from tienlen import Hand
        >>> listing = (0, Hand.parse("3s").mask, [Hand.parse("3s 4s").mask], False, ())
        >>> lists(listing, 0, Hand.parse("3s").mask), lists(listing, 0, 0), lists(listing, 1, 0)
        (True, False, False)
    """
    if type(player) is not int:
        return False  # a look-alike seat (``True``, ``1.0``) is never listed
    acting, singles, masks, may_pass, others = listing
    if player == acting:
        if not mask:
            return may_pass
        return bool(not mask & (mask - 1) and mask & singles) or mask in masks
    return any(seat == player and mask in group for seat, group in others)


class ListingKeeper(Protocol):
    """What `Actions` tells the state that listed it (a `tienlen.GameState`)."""

    def _keep_listing(self, listing: Listing) -> None:
        """Keep *listing*: a cache `GameState.apply_mask` reads."""


class Actions(Sequence[Action]):
    """The legal actions of a state: a lazy, immutable sequence.

    The acting player's plays come first, then their pass (when allowed), then Poker
    jump-ins by other players. ``len()`` is free, ``action in actions`` is
    `GameState.is_legal` (nothing is enumerated), and an action object is built only
    when you take it, so ``random.choice(state.legal_actions())`` is cheap.

    The list is exact, so ``in`` answers from the listed masks. What `play_game`
    hands a bot is a copy with only the seat's own actions and no reference to the
    `GameState` (which holds every hand).

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> actions = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC).legal_actions()
        >>> len(actions), Play(player=0, cards="3s") in actions, actions[0]
        (1, True, Play(player=0, cards=Hand.parse('3s')))
    """

    __slots__ = (
        "_count",
        "_len",
        "_masks",
        "_others",
        "_pass",
        "_player",
        "_plays",
        "_serial",
        "_singles",
        "_state",
    )

    _state: ListingKeeper | None
    """The state that listed the actions (``None`` in a bot's detached copy): reading
    `masks` tells it what it lists, so `GameState.apply_mask` needs no check."""
    _serial: int
    """Its trust token, given to every play built here."""
    _player: int
    """The player to act."""
    _singles: int
    """Their single-card plays, as one mask (listed first, lowest first)."""
    _count: int
    """How many single-card plays `_singles` holds."""
    _masks: Sequence[int]
    """Their other plays."""
    _plays: int
    """How many plays they have: `_count` and the length of `_masks`."""
    _pass: bool
    """Whether they may pass."""
    _others: Sequence[tuple[int, Sequence[int]]]
    """Poker jump-ins: other players and their plays."""
    _len: int

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if type(index) is not int or index < 0:
            return self._lookup(index)
        position: int = index  # typed `int`: compiled, a native int, not a boxed one
        count = self._count
        if position < count:  # the position-th lowest card of the singles mask
            bits = self._singles
            while position:
                bits &= bits - 1
                position -= 1
            mask = bits & -bits
        elif position < self._plays:
            mask = self._masks[position - count]
        elif position == self._plays and self._pass:
            return PASSES[self._player]
        else:
            return self._lookup(index)
        play = Play.__new__(Play) if COMPILED else _new(Play)  # `make_play`, inlined
        play._player = self._player
        play._mask = mask
        play._origin = self._serial
        return play

    def __contains__(self, item: object) -> bool:
        """Whether *item* is legal in the state, as `GameState.is_legal` says.

        The actions list exactly what is legal, so this reads the listed masks: a
        play listed here by its token, anything else by its player and cards.
        """
        given = cast(Any, item)  # read untyped: a forged seat stays what it is
        if type(item) is Play:
            mask = given._mask  # 0 is a pass in the listing: a play of no cards is none
            return bool(mask) and (
                given._origin == self._serial
                or lists(self._listing(), given._player, mask)
            )
        if type(item) is Pass:
            player: object = given.player
            return type(player) is int and self._pass and player == self._player
        return False

    @property
    def masks(self) -> tuple[int, ...]:
        """The card mask of each action, in order, a pass as 0 (the actions as ints).

        ``actions.masks[i]`` is ``actions[i].cards.mask`` without building the play;
        give a mask back with `GameState.apply_mask` or take ``actions[i]``. Built
        afresh on each read (O(len)); keep it if you read it more than once.

        Example:
            >>> from tienlen import CLASSIC, GameState, Hand
            >>> actions = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC).legal_actions()
            >>> actions.masks == (Hand.parse("3s").mask,)
            True
        """
        own = self._own()
        others = self._others
        if not others:
            return (*own, 0) if self._pass else own
        found = [*own, 0] if self._pass else list(own)
        for _, group in others:
            found.extend(group)
        return tuple(found)

    def by_seat(
        self,
    ) -> tuple[tuple[int, ...], bool, tuple[tuple[int, tuple[int, ...]], ...]]:
        """The actions as ints, by seat: the player to act's, then the Poker jump-ins.

        Returns the player to act's plays as card masks (`masks` without the pass),
        whether they may pass, and each other seat that may jump in (RULES §6.4) with
        its plays, in the order `tienlen.play_game` asks them. As with `masks`, the
        state then applies any of these masks (`GameState.apply_mask`) without a check.

        Example:
            >>> from tienlen import CLASSIC, GameState, Hand
            >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC).play("3s")
            >>> plays, may_pass, jump_ins = state.legal_actions().by_seat()
            >>> plays == (Hand.parse("5d").mask, Hand.parse("6d").mask), may_pass, jump_ins
            (True, True, ())
        """
        others = tuple((seat, tuple(group)) for seat, group in self._others)
        return self._own(), self._pass, others

    def _own(self) -> tuple[int, ...]:
        """The player to act's plays as masks, kept by the state (`apply_mask` reads them)."""
        found: list[int] = []
        bits = self._singles
        while bits:
            found.append(bits & -bits)
            bits &= bits - 1
        found.extend(self._masks)
        own = tuple(found)  # its plays, one tuple: ``in`` is one C loop
        state = self._state
        if state is not None:  # a cache, not a change: `apply_mask` reads it
            state._keep_listing((self._player, 0, own, self._pass, self._others))
        return own

    def _listing(self) -> Listing:
        """What the actions list, as ints (`lists` reads it)."""
        return self._player, self._singles, self._masks, self._pass, self._others

    def _detached(self) -> Actions:
        """The acting player's own actions, without the state: what a bot is handed.

        A copy that holds no reference to the `GameState` (every hand) nor to the
        other players' Poker jump-ins, its lists made tuples; membership is read on
        its own lists (issue 20 item 7).
        """
        copy = Actions()
        copy._state = None
        copy._serial = self._serial
        copy._player = self._player
        copy._singles = self._singles
        copy._count = self._count
        masks = self._masks
        copy._masks = tuple(masks) if type(masks) is list else masks
        copy._plays = self._plays
        copy._pass = self._pass
        copy._others = ()
        copy._len = self._plays + self._pass
        return copy

    def _lookup(self, index: int | slice) -> Action | Sequence[Action]:
        """`__getitem__` for slices, negative indices and Poker jump-ins."""
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        index = operator.index(index)
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            msg = "action index out of range"
            raise IndexError(msg)
        own = self._plays + self._pass
        if index < own:
            return self[index]
        index -= own
        for player, group in self._others:
            if index < len(group):
                return make_play(player, group[index], self._serial)
            index -= len(group)
        raise AssertionError  # pragma: no cover - guarded by the range check

    def __iter__(self) -> Iterator[Action]:
        return iter(self._built())

    def _built(self) -> list[Action]:
        """Every action, built: what iterating takes (faster than a generator)."""
        player, serial = self._player, self._serial
        built: list[Action] = []
        bits = self._singles
        while bits:  # `make_play`, inlined, here and below
            play = Play.__new__(Play) if COMPILED else _new(Play)
            play._player = player
            play._mask = bits & -bits
            play._origin = serial
            built.append(play)
            bits &= bits - 1
        for mask in self._masks:
            play = Play.__new__(Play) if COMPILED else _new(Play)
            play._player = player
            play._mask = mask
            play._origin = serial
            built.append(play)
        if self._pass:
            built.append(PASSES[player])
        for other, group in self._others:
            built.extend([make_play(other, mask, serial) for mask in group])
        return built

    def __reduce__(self) -> tuple[object, tuple[tuple[Action, ...]]]:
        """Pickle and copy the actions as a plain tuple of untrusted actions."""
        return tuple, (tuple(self),)

    def __repr__(self) -> str:
        shown = ", ".join(f"{a.player}:{a}" for a in self[:6])
        more = ", ..." if len(self) > 6 else ""
        return f"<Actions ({len(self)}): [{shown}{more}]>"


FIELDS: Final = (
    "_count", "_len", "_masks", "_others", "_pass", "_player", "_plays", "_serial",
    "_singles", "_state",
)  # fmt: skip
"""The fields of an `Actions`: its slots (a compiled class has no ``__slots__``)."""

native_sequence(Actions)
