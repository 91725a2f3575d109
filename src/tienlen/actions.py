"""What a player does: `Play`, `Pass`, and a state's legal `Actions` (RULES §1.5).

A `Play` made by `GameState.legal_actions` carries a trust token: the state that
listed it applies it without checking it again. The token is a number no other state
of any process holds (a random per-process prefix and a counter); it is never pickled
or copied, so a play that travelled is always checked in full.
"""

from __future__ import annotations

import itertools
import operator
import secrets
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Final, SupportsIndex, overload

import attrs

from tienlen.cards import Card, Hand
from tienlen.rules.base import as_hand

if TYPE_CHECKING:
    from tienlen.game import GameState

__all__ = ["Action", "Actions", "Pass", "Play"]


def player_index(player: object) -> int:
    """*player* as a plain `int` seat number (private helper).

    Raises:
        TypeError: *player* is not an integer (``True``, ``1.0``, ``"1"``).
    """
    if isinstance(player, bool) or not isinstance(player, SupportsIndex):
        msg = f"a player is an int, got {player!r}"
        raise TypeError(msg)
    return operator.index(player)


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

    def __init__(self, *, player: int, cards: Hand | str | Iterable[Card]) -> None:
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
        return _untrusted_play, (self._player, self._mask)

    def __str__(self) -> str:
        return str(self.cards)

    def __repr__(self) -> str:
        return f"Play(player={self.player!r}, cards={self.cards!r})"


@attrs.frozen(kw_only=True)
class Pass:
    """A player passing (RULES §1.5.2); by default it locks them out of the trick (§1.5.3).

    Raises:
        TypeError: *player* is not an integer.

    Example:
        >>> str(Pass(player=1))
        'pass'
    """

    player: int = attrs.field(converter=player_index)
    """Who passes."""

    def __str__(self) -> str:
        return "pass"


Action = Play | Pass
"""What a player does on their turn (or, for a Poker jump-in, out of it)."""

_new: Final = object.__new__


_set_hand_mask: Final = Hand.__dict__["_mask"].__set__


def hand_of(mask: int) -> Hand:
    """A `Hand` of *mask*, built without attrs' init (private hot path)."""
    hand = _new(Hand)
    _set_hand_mask(hand, mask)
    return hand


def _untrusted_play(player: int, mask: int) -> Play:
    """A `Play` without trust token: how pickled and copied plays come back."""
    return make_play(player, mask, 0)


PASSES: Final = tuple(Pass(player=player) for player in range(8))
"""Every seat's pass, built once (private)."""


def make_play(player: int, mask: int, origin: int) -> Play:
    """A `Play` with trust token *origin* (private hot path)."""
    play = _new(Play)
    play._player = player
    play._mask = mask
    play._origin = origin
    return play


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
"""The process's trust-token source (private)."""


class Actions(Sequence[Action]):
    """The legal actions of a state: a lazy, immutable sequence.

    The acting player's plays come first, then their pass (when allowed), then Poker
    jump-ins by other players. ``len()`` is free, ``action in actions`` is
    `GameState.is_legal` (nothing is enumerated), and an action object is built only
    when you take it, so ``random.choice(state.legal_actions())`` is cheap.

    What `play_game` hands a bot is a copy detached from the state: only the seat's
    own actions, no reference to the `GameState` (which holds every hand); its ``in``
    answers from those actions alone.

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

    _state: GameState | None
    """The state the actions belong to (it answers membership); ``None`` in the
    detached copy a bot is handed (`_detached`), which answers from its own lists."""
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
        count = self._count
        if index < count:  # the index-th lowest card of the singles mask
            bits = self._singles
            while index:
                bits &= bits - 1
                index -= 1
            mask = bits & -bits
        elif index < self._plays:
            mask = self._masks[index - count]
        elif index == self._plays and self._pass:
            return PASSES[self._player]
        else:
            return self._lookup(index)
        play = _new(Play)  # `make_play`, inlined: the hot path
        play._player = self._player
        play._mask = mask
        play._origin = self._serial
        return play

    def __contains__(self, item: object) -> bool:
        """Whether *item* is legal in the state, as `GameState.is_legal` says.

        A play listed here is legal by construction; anything else is checked.
        """
        if type(item) is Play and item._origin == self._serial:
            return True
        if type(item) is not Play and type(item) is not Pass:
            return False
        state = self._state
        if state is not None:
            return state.is_legal(item)
        return self._lists(item)

    def _lists(self, item: Play | Pass) -> bool:
        """Whether *item* is one of the actions listed, read on the card masks."""
        player = item._player if type(item) is Play else item.player
        if type(player) is not int:
            return False  # a look-alike seat (``True``, ``1.0``) is never listed
        if type(item) is not Play:
            return self._pass and player == self._player
        mask = item._mask
        if player == self._player:
            if mask and not mask & (mask - 1) and mask & self._singles:
                return True
            return mask in self._masks
        return any(seat == player and mask in group for seat, group in self._others)

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
        found: list[int] = []
        bits = self._singles
        while bits:
            low = bits & -bits
            found.append(low)
            bits ^= low
        found.extend(self._masks)
        if self._pass:
            found.append(0)
        for _, group in self._others:
            found.extend(group)
        return tuple(found)

    def _detached(self) -> Actions:
        """The acting player's own actions, without the state: what a bot is handed.

        A copy that holds no reference to the `GameState` (every hand) nor to the
        other players' Poker jump-ins, its lists made tuples; membership is read on
        its own lists (issue 20 item 7).
        """
        copy = _new(Actions)
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
        player, serial = self._player, self._serial
        bits = self._singles
        while bits:
            low = bits & -bits
            play = _new(Play)  # `make_play`, inlined here and below: the hot path
            play._player = player
            play._mask = low
            play._origin = serial
            yield play
            bits ^= low
        for mask in self._masks:
            play = _new(Play)
            play._player = player
            play._mask = mask
            play._origin = serial
            yield play
        if self._pass:
            yield PASSES[player]
        for other, group in self._others:
            for mask in group:
                yield make_play(other, mask, serial)

    def __reduce__(self) -> tuple[object, tuple[tuple[Action, ...]]]:
        """Pickle and copy the actions as a plain tuple of untrusted actions."""
        return tuple, (tuple(self),)

    def __repr__(self) -> str:
        shown = ", ".join(f"{a.player}:{a}" for a in self[:6])
        more = ", ..." if len(self) > 6 else ""
        return f"<Actions ({len(self)}): [{shown}{more}]>"
