"""The game engine: an immutable `GameState` that referees a whole game (RULES §1.5, §2–§6).

Players are numbered ``0 … n−1`` clockwise; play moves to ``i + 1`` clockwise and to
``i − 1`` counterclockwise (RULES §2.1, §6.1). A state never changes: `GameState.apply`
returns the next state. `GameState.check` says why an action is illegal,
`GameState.is_legal` whether it is, and `GameState.legal_actions` lists exactly the
actions `GameState.is_legal` accepts, including Poker jump-ins by players whose turn it
is not (RULES §6.4).
"""

from __future__ import annotations

import functools
import itertools
import operator
import os
import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Final, overload

import attrs

from tienlen import _bits
from tienlen._movegen import Tables
from tienlen._shapes import SINGLE, shape_code, structural_key
from tienlen.cards import DECK, Card, Hand
from tienlen.combos import Combo, make_combo
from tienlen.errors import (
    IllegalPlayError,
    IllegalReason,
    InvalidRulesError,
    InvalidStateError,
)
from tienlen.explain import explain_beats, why_not_combination
from tienlen.rules import RuleSet
from tienlen.rules._base import (
    BaseRules,
    Direction,
    GameEnd,
    InstantWin,
    Scoring,
    as_hand,
)
from tienlen.scoring import (
    ChopChain,
    GameResult,
    ScoreItem,
    ScoreKind,
    instant_win_result,
    settle,
)

__all__ = ["Action", "Actions", "GameSetup", "GameState", "Pass", "Play"]


class Play:
    """A player playing cards (a combination, if it is legal). Immutable and hashable.

    Args:
        player: Who plays.
        cards: The cards played (card text and iterables of cards are accepted).

    Raises:
        InvalidCardError: bad card text.

    Example:
        >>> play = Play(player=2, cards="7h 7s")
        >>> str(play), play.player, play
        ('7s 7h', 2, Play(player=2, cards=Hand.parse('7s 7h')))
        >>> play == Play(player=2, cards="7s 7h")
        True

    A plain slotted class with read-only properties rather than an attrs class: every
    legal action is built on demand (`Actions`), so its construction is a hot path.
    """

    __slots__ = ("_mask", "_origin", "_player")

    _player: int
    _mask: int
    _origin: int
    """The serial number of the state whose `GameState.legal_actions` made this play:
    that state applies it without checking it again (0 for plays made elsewhere)."""

    def __init__(self, *, player: int, cards: Hand | str | Iterable[Card]) -> None:
        self._player = player
        self._mask = as_hand(cards)._mask
        self._origin = 0

    @property
    def player(self) -> int:
        """Who plays."""
        return self._player

    @property
    def cards(self) -> Hand:
        """The cards played."""
        return _hand(self._mask)

    def __eq__(self, other: object) -> bool:
        if type(other) is Play:
            return self._player == other._player and self._mask == other._mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._player, self._mask))

    def __str__(self) -> str:
        return str(self.cards)

    def __repr__(self) -> str:
        return f"Play(player={self.player!r}, cards={self.cards!r})"


@attrs.frozen(kw_only=True)
class Pass:
    """A player passing: they are locked out of the rest of the trick (RULES §1.5.3).

    Example:
        >>> str(Pass(player=1))
        'pass'
    """

    player: int
    """Who passes."""

    def __str__(self) -> str:
        return "pass"


_new: Final = object.__new__
_set_hand_mask: Final = Hand.__dict__["_mask"].__set__


def _hand(mask: int) -> Hand:
    """A `Hand` of *mask*, built without attrs' init (private hot path)."""
    hand = _new(Hand)
    _set_hand_mask(hand, mask)
    return hand


_PASSES: Final = tuple(Pass(player=player) for player in range(8))
_Log = tuple["_Log", "Action"] | None
"""A game's actions as a linked list, latest first: ``(earlier actions, action)``."""

Action = Play | Pass
"""What a player does on their turn (or, for a Poker jump-in, out of it)."""


def _play(player: int, mask: int, origin: int) -> Play:
    """A `Play` of the legal actions of the state numbered *origin* (private hot path)."""
    play = _new(Play)
    play._player = player
    play._mask = mask
    play._origin = origin
    return play


class Actions(Sequence[Action]):
    """The legal actions of a state: a lazy, immutable sequence.

    The acting player's plays come first, then their pass (when allowed), then Poker
    jump-ins by other players. ``len()`` and ``in`` are free and an action object is
    built only when you take it, so ``random.choice(state.legal_actions())`` is cheap.

    Example:
        >>> from tienlen import CLASSIC
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
        "_serial",
        "_singles",
    )

    _serial: int
    """The serial number of the state the actions belong to."""
    _player: int
    """The player to act."""
    _singles: int
    """Their single-card plays, as one mask (listed first, lowest first)."""
    _count: int
    """How many single-card plays `_singles` holds."""
    _masks: Sequence[int]
    """Their other plays."""
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
        else:
            masks = self._masks
            index -= count
            if index >= len(masks):
                if index == len(masks) and self._pass:
                    return _PASSES[self._player]
                return self._lookup(index + count)
            mask = masks[index]
        play = _new(Play)  # `_play`, inlined: the hot path
        play._player = self._player
        play._mask = mask
        play._origin = self._serial
        return play

    def __contains__(self, item: object) -> bool:
        """Whether *item* is one of these actions, without building any of them."""
        if type(item) is Pass:
            return self._pass and item.player == self._player
        if type(item) is not Play:
            return False
        player, mask = item._player, item._mask
        if player == self._player:
            if not mask & (mask - 1) and mask & self._singles:
                return True
            return mask in self._masks
        return any(player == other and mask in group for other, group in self._others)

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
        own = self._count + len(self._masks) + self._pass
        if index < own:
            return self[index]
        index -= own
        for player, group in self._others:
            if index < len(group):
                return _play(player, group[index], self._serial)
            index -= len(group)
        raise AssertionError  # pragma: no cover - guarded by the range check

    def __iter__(self) -> Iterator[Action]:
        player, serial = self._player, self._serial
        bits = self._singles
        while bits:
            low = bits & -bits
            yield _play(player, low, serial)
            bits ^= low
        for mask in self._masks:
            yield _play(player, mask, serial)
        if self._pass:
            yield _PASSES[player]
        for other, group in self._others:
            for mask in group:
                yield _play(other, mask, serial)

    def __repr__(self) -> str:
        shown = ", ".join(f"{a.player}:{a}" for a in self[:6])
        more = ", ..." if len(self) > 6 else ""
        return f"<Actions ({len(self)}): [{shown}{more}]>"


def _hands(values: Iterable[Hand]) -> tuple[Hand, ...]:
    return tuple(values)


def _ints(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


@attrs.frozen(kw_only=True)
class GameSetup:
    """How a game started, as passed to `GameState.deal` or `GameState.from_hands`."""

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


@attrs.frozen(kw_only=True, slots=False)
class GameState:
    """One moment of a game, immutable and hashable.

    Build the first state with `GameState.deal` or `GameState.from_hands`; move on with
    `apply` (or `play`, `pass_turn`), which return a new state and never change this
    one. States compare equal when the position is the same, whatever the history.

    Example:
        >>> from tienlen import CLASSIC
        >>> state = GameState.from_hands(["3s 7h", "4d 9c", "5c Jd"], CLASSIC)
        >>> state.to_act, state.must_include
        (0, Card.parse('3s'))
        >>> state = state.play("3s").play("4d").pass_turn()
        >>> state.to_act, str(state.top), sorted(state.passed)
        (0, '4d', [2])
    """

    rules: RuleSet
    """The variant being played."""
    _masks: tuple[int, ...] = attrs.field(converter=_ints, repr=False)
    """Every player's cards as masks (`hands` holds them as `Hand` objects)."""
    dealt: tuple[Hand, ...] = attrs.field(converter=_hands)
    """Every player's cards at the start of the game."""
    to_act: int | None
    """Whose turn it is; ``None`` once the game is over."""
    _top: int = attrs.field(repr=False)
    """The key of the combination to beat (0 when leading; `top` builds it)."""
    _top_mask: int = attrs.field(repr=False)
    """Its cards (0 when leading)."""
    last_player: int | None
    """Who played `top`."""
    locked: int
    """Bit ``i`` set when player ``i`` has passed in this trick (see `passed`)."""
    out: int
    """Bit ``i`` set when player ``i`` is out of the game (finished or frozen)."""
    finish_order: tuple[int, ...] = attrs.field(converter=_ints)
    """The players who have gone out, first out first."""
    frozen: tuple[int, ...] = attrs.field(converter=_ints)
    """Poker players frozen out when first place was taken (RULES §6.6.3)."""
    required: int
    """Mask of the card the lead must include (RULES §2.4); 0 when there is none."""
    may_decline: bool
    """Whether the player to act may decline the first lead by passing (RULES §3.3)."""
    chop: ChopChain | None
    """The open Poker chop chain of this trick (RULES §6.6.2)."""
    items: tuple[ScoreItem, ...]
    """Score items already settled during play (Poker chops and frozen players)."""
    result: GameResult | None
    """How the game ended; ``None`` while it goes on."""
    is_over: bool = attrs.field(init=False, eq=False)
    """Whether the game has ended (`result` is set)."""
    _log: _Log = attrs.field(eq=False, repr=False)
    """The actions applied since the deal, latest first (`history` lists them)."""
    setup: GameSetup = attrs.field(eq=False, repr=False)
    """How the game started, with its leader and dealer (not part of equality)."""
    _context: _Context = attrs.field(init=False, eq=False, repr=False)
    """What every state of the game shares."""
    _serial: int = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_context", _Context(self.rules, len(self._masks)))
        object.__setattr__(self, "_serial", _new_serial())
        object.__setattr__(self, "is_over", self.result is not None)

    # -- construction -------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: RuleSet,
        players: int = 4,
        seed: int | random.Random | None = None,
        *,
        first_game: bool = True,
        leader: int | None = None,
        after_instant_win: bool = False,
        dealer: int | None = None,
    ) -> GameState:
        """Shuffle and deal a new game (RULES §2.1, §4.1).

        The same *seed* gives the same game on every machine. Cards per player and decks
        follow ``rules.deal_size(players)``; Kenneth Lo's three-player spare card goes
        to the starter (RULES §4.1, D-8). The first dealer is random (drawn from *seed*)
        unless given; it only matters when two decks hold two 3♠ (RULES §2.4).

        Args:
            rules: The variant.
            players: How many players.
            seed: An int, a ``random.Random``, or ``None`` for an unseeded deal.
            first_game: Whether this is the first game of a match (RULES §2.4).
            leader: Who leads a later game (the previous winner); ignored, and checked,
                when the lead is fixed by 3♠.
            after_instant_win: Whether the previous game ended by an instant win (D-16).
            dealer: The dealer's index.

        Raises:
            InvalidRulesError: the rules do not allow that many players.
            InvalidStateError: a later game without a leader, or a wrong leader.

        Example:
            >>> from tienlen import CLASSIC
            >>> state = GameState.deal(CLASSIC, players=4, seed=7)
            >>> [len(hand) for hand in state.hands], state.to_act == GameState.deal(CLASSIC, 4, 7).to_act
            ([13, 13, 13, 13], True)
        """
        decks, size = rules.deal_size(players)
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        deck = list(range(_bits.CARDS)) * decks  # card indices: the order of DECK
        rng.shuffle(deck)
        if dealer is None:
            dealer = rng.randrange(players)
        setup = GameSetup.checked(
            players, first_game, leader, after_instant_win, dealer
        )
        masks = [
            _bits.from_indices(deck[i * size : (i + 1) * size]) for i in range(players)
        ]
        spare = deck[players * size :]
        if rules.spare_card_to_starter and players == 3 and len(spare) == 1:
            starter = _spare_starter(rules, masks, setup)
            masks[starter] |= 1 << spare[0]
            return cls._start(rules, masks, leader=starter, required=0, setup=setup)
        return cls._begin(rules, masks, setup)

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[Hand | str | Iterable[Card]],
        rules: RuleSet,
        *,
        first_game: bool = True,
        leader: int | None = None,
        after_instant_win: bool = False,
        dealer: int | None = None,
    ) -> GameState:
        """Start a game from given hands, one per player (any sizes, for scenarios and tests).

        The first lead follows the variant as for `deal`. Under Kenneth Lo with three
        players, a player holding 18 cards against two of 17 is the starter holding the
        spare card and leads freely (RULES §4.1). With no dealer given, the player before
        player 0 in play direction deals, so player 0 is first from the dealer.

        Raises:
            InvalidCardError: bad card text.
            InvalidStateError: a number of players the rules do not allow, an empty
                hand, a card held more often than the decks allow, a later game
                without a leader, or a wrong leader.

        Example:
            >>> from tienlen import POKER
            >>> state = GameState.from_hands(["4s 5s", "3s 9h"], POKER)
            >>> state.to_act, str(state.must_include)
            (1, '3s')
        """
        parsed = [as_hand(hand) for hand in hands]
        players = len(parsed)
        try:
            decks, size = rules.deal_size(players)
        except InvalidRulesError as error:
            raise InvalidStateError(str(error)) from None
        for player, hand in enumerate(parsed):
            if not hand:
                msg = f"player {player} has no cards"
                raise InvalidStateError(msg)
        total = 0
        for player, hand in enumerate(parsed):
            clash = _bits.overflowing_sum(total, hand.mask) | (
                total & hand.mask if decks == 1 else 0
            )
            if clash or (decks == 1 and hand.mask >> _bits.CARDS):
                card = DECK[_bits.top_card(clash or hand.mask >> _bits.CARDS)]
                msg = f"card {str(card)!r} is dealt more often than {decks} deck(s) allow (player {player})"
                raise InvalidStateError(msg)
            total = _bits.multiset_sum(total, hand.mask)
        if dealer is None:
            dealer = _SEATS_AFTER[rules.direction][players][0][-2]  # the seat before 0
        setup = GameSetup.checked(
            players, first_game, leader, after_instant_win, dealer
        )
        masks = [hand.mask for hand in parsed]
        sizes = sorted(len(hand) for hand in parsed)
        if (
            rules.spare_card_to_starter
            and players == 3
            and sizes == [size, size, size + 1]
        ):
            starter = next(p for p, hand in enumerate(parsed) if len(hand) == size + 1)
            if leader is not None and leader != starter:
                msg = f"player {starter} holds the spare card and starts (RULES §4.1), not player {leader}"
                raise InvalidStateError(msg)
            return cls._start(rules, masks, leader=starter, required=0, setup=setup)
        return cls._begin(rules, masks, setup)

    @classmethod
    def _begin(cls, rules: RuleSet, masks: list[int], setup: GameSetup) -> GameState:
        """Fix the leader and the card the lead must include (RULES §2.4, §5.3, §6.5, D-4)."""
        leader = setup.leader
        if not rules.lead_must_include(
            first_game=setup.first_game, after_instant_win=setup.after_instant_win
        ):
            if leader is None:
                msg = "a later game needs its leader (the previous winner, RULES §2.4)"
                raise InvalidStateError(msg)
            return cls._start(rules, masks, leader=leader, required=0, setup=setup)
        card, holder = _lowest_holder(rules, masks, setup.dealer)
        if leader is not None and leader != holder:
            msg = f"player {holder} holds {DECK[card]} and must lead (RULES §2.4), not player {leader}"
            raise InvalidStateError(msg)
        return cls._start(rules, masks, leader=holder, required=1 << card, setup=setup)

    @classmethod
    def _start(
        cls,
        rules: RuleSet,
        masks: list[int],
        *,
        leader: int,
        required: int,
        setup: GameSetup,
    ) -> GameState:
        """The first state: check instant wins at the deal (RULES §5.4, §6.7), then play."""
        hands = tuple(map(_hand, masks))
        state = _state(
            {  # every field, as attrs' __init__ would set them (a hot path for `deal`)
                "rules": rules,
                "_masks": tuple(masks),
                "dealt": hands,
                "to_act": leader,
                "_top": 0,
                "_top_mask": 0,
                "last_player": None,
                "locked": 0,
                "out": 0,
                "finish_order": (),
                "frozen": (),
                "required": required,
                "may_decline": required == _THREE_OF_SPADES
                and rules.may_decline_first_lead,
                "chop": None,
                "items": (),
                "result": None,
                "is_over": False,
                "_log": None,
                "setup": setup,
                "_context": _Context(rules, len(masks)),
            }
        )
        for player in state._order_from(leader):
            win = rules.instant_win(hands[player])
            if win is not None:
                return state._instant_win(player, win)
        return state

    # -- queries ------------------------------------------------------------------

    @property
    def hands(self) -> tuple[Hand, ...]:
        """Every player's cards, by player index."""
        return tuple(map(_hand, self._masks))

    def hand(self, player: int) -> Hand:
        """*player*'s cards (``hands[player]``, without building the others' hands).

        Raises:
            IndexError: *player* is not at the table.

        Example:
            >>> from tienlen import CLASSIC
            >>> str(GameState.from_hands(["3s 7h", "4d 9c"], CLASSIC).hand(1))
            '4d 9c'
        """
        return _hand(self._masks[player])

    @property
    def top(self) -> Combo | None:
        """The combination to beat; ``None`` when the player to act leads."""
        return make_combo(self._top_mask, self._top) if self._top else None

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied since the deal, in order (not part of equality)."""
        actions: list[Action] = []
        log = self._log
        while log is not None:
            log, action = log
            actions.append(action)
        actions.reverse()
        return tuple(actions)

    @property
    def players(self) -> int:
        """How many players sit at the table."""
        return len(self._masks)

    @property
    def passed(self) -> frozenset[int]:
        """The players locked out of the current trick (RULES §1.5.3)."""
        return frozenset(p for p in range(self.players) if self.locked >> p & 1)

    @property
    def must_include(self) -> Card | None:
        """The card the current lead must include (3♠ or the lowest dealt card), if any."""
        return DECK[self.required.bit_length() - 1] if self.required else None

    @property
    def is_continuing(self) -> bool:
        """Whether the player to act may continue or close their trick (RULES §3.4)."""
        return self._top != 0 and self.to_act == self.last_player

    def in_game(self, player: int) -> bool:
        """Whether *player* is still playing (not finished, not frozen)."""
        return not self.out >> player & 1

    def legal_actions(self) -> Actions:
        """Every legal action now: the acting player's plays and pass, then jump-ins.

        Example:
            >>> from tienlen import CLASSIC
            >>> state = GameState.from_hands(["3s 4s 9h", "5d 6d"], CLASSIC)
            >>> [str(action) for action in state.legal_actions()]
            ['3s']
        """
        actions = _new(Actions)  # built here, without an __init__ call (hot path)
        actions._serial = self._serial
        actions._singles = actions._count = 0
        actions._others = ()
        player = self.to_act
        if player is None:  # the game is over: nobody acts
            actions._player = 0
            actions._masks = ()
            actions._pass = False
            actions._len = 0
            return actions
        top = self._top
        tables = self._context.tables
        masks: Sequence[int]
        if tables is None:
            masks = self.rules.legal_plays(self.hands[player], self.top).masks
            if self.required:
                masks = tuple(m for m in masks if m & self.required)
        elif not top:
            masks = tables.leads(self._masks[player], self.required)
        elif top >> 6 == _SINGLE_CODE:  # singles kept as one mask (the commonest case)
            hand = self._masks[player]
            actions._singles = singles = tables.beating_singles(hand, top)
            actions._count = singles.bit_count()
            masks = tables.bombs(hand, top) if top in tables.bombers else ()
        else:
            masks = tables.plays(self._masks[player], top)
        actions._player = player
        if not top:
            actions._masks = masks
            actions._pass = self.may_decline
            actions._len = len(masks) + self.may_decline
            return actions
        if player == self.last_player:  # continuation: same shape only (RULES §3.4)
            masks = [m for m in masks if structural_key(m) >> 6 == top >> 6]
        actions._masks = masks
        actions._pass = True
        size = actions._count + len(masks) + 1
        if self.rules.jump_in:
            actions._others = others = self._jump_ins(player)
            for _, group in others:
                size += len(group)
        actions._len = size
        return actions

    def _jump_ins(self, acting: int) -> list[tuple[int, list[int]]]:
        """Poker jump-ins by players other than the one to act (RULES §6.4, D-15)."""
        top = self.top
        rules = self.rules
        if top is None or not rules.jump_in or not rules.is_chop_target(top):
            return []
        groups: list[tuple[int, list[int]]] = []
        for player in self._order_from(acting):
            if player in (acting, self.last_player) or not self.in_game(player):
                continue
            masks = [
                p.mask
                for p in rules.legal_plays(self.hands[player], top)
                if rules.may_jump_in(p, top)
            ]
            if masks:
                groups.append((player, masks))
        return groups

    # -- check / is_legal / apply ---------------------------------------------------

    def check(self, action: Action) -> None:
        """Raise `IllegalPlayError` (with a `IllegalReason`) if *action* is illegal now.

        Example:
            >>> from tienlen import CLASSIC
            >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
            >>> state.check(Play(player=0, cards="4s"))
            Traceback (most recent call last):
            ...
            tienlen.errors.IllegalPlayError: illegal play '4s' by player 0: must include the first-lead card: ...
        """
        self._verdict(action)

    def is_legal(self, action: Action) -> bool:
        """Whether *action* is legal now (`check` without the exception)."""
        try:
            self._verdict(action)
        except IllegalPlayError:
            return False
        return True

    def apply(self, action: Action) -> GameState:
        """The state after *action*; this state is unchanged.

        Raises:
            IllegalPlayError: the action is illegal now (see `check`).
        """
        if type(action) is Play:
            if action._origin == self._serial:  # from legal_actions(): legal here
                mask = action._mask
                return self._after_play(
                    action._player, mask, structural_key(mask), action
                )
        elif (
            type(action) is Pass
            and self.to_act is not None
            and action.player == self.to_act
            and (self._top or self.may_decline)
        ):  # the whole rule for a pass (RULES §1.5.1-§1.5.2, §3.3)
            return self._after_pass(action.player)
        checked = self._verdict(action)
        if checked is None:
            return self._after_pass(action.player)
        return self._after_play(action.player, checked._mask, checked._key, action)

    def play(
        self, cards: Hand | str | Iterable[Card], player: int | None = None
    ) -> GameState:
        """Play *cards* for *player* (by default the player to act); see `apply`.

        Raises:
            IllegalPlayError: the play is illegal now.
            InvalidCardError: bad card text.
        """
        return self.apply(Play(player=self._actor(player, cards), cards=cards))

    def pass_turn(self, player: int | None = None) -> GameState:
        """Pass for *player* (by default the player to act); see `apply`.

        Raises:
            IllegalPlayError: passing is illegal now.
        """
        return self.apply(Pass(player=self._actor(player, None)))

    def _actor(
        self, player: int | None, cards: Hand | str | Iterable[Card] | None
    ) -> int:
        """*player*, or the player to act; nobody once the game is over."""
        if player is not None:
            return player
        if self.to_act is None:
            shown = "pass" if cards is None else str(as_hand(cards))
            raise IllegalPlayError(
                IllegalReason.GAME_OVER, None, shown, "the game is over"
            )
        return self.to_act

    def _refuse(
        self,
        reason: IllegalReason,
        action: Action,
        detail: str,
        cards: tuple[str, ...] = (),
    ) -> IllegalPlayError:
        top = None if self.top is None else str(self.top)
        table = f"top {top!r}" if top is not None else "no top"
        context = f"{detail} ({table}, {self.rules.name})"
        return IllegalPlayError(
            reason, action.player, str(action), context,
            top=top, cards=cards, rules=self.rules.name,
        )  # fmt: skip

    def _verdict(self, action: Action) -> Combo | None:
        """Check *action*; return its combination for a legal play, ``None`` for a legal pass."""
        if not isinstance(action, Play | Pass):
            msg = f"expected a Play or Pass, got {action!r}"  # type: ignore[unreachable]
            raise TypeError(msg)
        player = action.player
        if self.result is not None:
            raise self._refuse(IllegalReason.GAME_OVER, action, "the game is over")
        if type(player) is not int or not 0 <= player < len(self._masks):
            raise self._refuse(
                IllegalReason.UNKNOWN_PLAYER,
                action,
                f"players are 0-{len(self._masks) - 1}",
            )
        if self.out >> player & 1:
            raise self._refuse(
                IllegalReason.PLAYER_OUT, action, f"player {player} is out of the game"
            )
        to_act = self.to_act
        if type(action) is Pass:
            if player != to_act:
                raise self._not_your_turn(action)
            if not self._top and not self.may_decline:
                raise self._refuse(
                    IllegalReason.CANNOT_PASS, action, "the leader must play"
                )
            return None
        assert isinstance(action, Play)
        top = self.top
        rules = self.rules
        if player != to_act and (
            top is None or not rules.jump_in or player == self.last_player
        ):
            raise self._not_your_turn(action)
        mask = action.cards.mask
        if not mask:
            raise self._refuse(IllegalReason.NOT_A_COMBO, action, "a play needs cards")
        if not _bits.is_submultiset(mask, self._masks[player]):
            raise self._refuse(
                IllegalReason.CARDS_NOT_IN_HAND,
                action,
                f"player {player} holds {self.hands[player]}",
                (str(action.cards - self.hands[player]),),
            )
        combo = rules.classify(action.cards)
        if combo is None:
            why = why_not_combination(action.cards.cards, rules)
            detail = "no combination" if why is None else str(why)
            raise self._refuse(IllegalReason.NOT_A_COMBO, action, detail)
        if player != to_act:
            assert top is not None
            if not rules.may_jump_in(combo, top):
                raise self._not_your_turn(action)
            return combo
        if top is None:
            if not rules.is_leadable(combo.kind):
                raise self._refuse(
                    IllegalReason.CANNOT_LEAD,
                    action,
                    f"{combo.kind.label} cannot be led",
                )
            if self.required and not mask & self.required:
                raise self._refuse(
                    IllegalReason.MUST_INCLUDE,
                    action,
                    f"the first lead must include {self.must_include}",
                    (str(self.must_include),),
                )
            return combo
        if player == self.last_player and combo.shape != top.shape:
            raise self._refuse(
                IllegalReason.WRONG_SHAPE, action, "a continuation must keep the shape"
            )
        if not rules.beats(combo, top):
            same = combo.shape == top.shape
            reason = IllegalReason.DOES_NOT_BEAT if same else IllegalReason.WRONG_SHAPE
            detail = str(explain_beats(combo, top, rules)).removeprefix("no: ")
            deciding = (str(combo.top), str(top.top)) if same else ()
            raise self._refuse(reason, action, detail, deciding)
        return combo

    def _not_your_turn(self, action: Action) -> IllegalPlayError:
        if self.locked >> action.player & 1:
            return self._refuse(
                IllegalReason.LOCKED_OUT,
                action,
                f"player {action.player} passed in this trick",
            )
        return self._refuse(
            IllegalReason.NOT_YOUR_TURN, action, f"player {self.to_act} is to act"
        )

    # -- transitions --------------------------------------------------------------

    def _order_from(self, player: int) -> list[int]:
        """Every seat in play direction, starting with *player*."""
        return [player, *self._context.seats[player][:-1]]

    def seats_after(self, player: int) -> tuple[int, ...]:
        """The other seats in play direction after *player* (RULES §2.1, §6.1).

        Example:
            >>> from tienlen import POKER
            >>> GameState.deal(POKER, 4, seed=1).seats_after(1)  # counterclockwise
            (0, 3, 2)
        """
        return self._context.seats[player][:-1]

    def _after_pass(self, player: int) -> GameState:
        fields = self.__dict__.copy()
        fields["_log"] = (self._log, _PASSES[player])
        locked = self.locked | 1 << player
        out = self.out
        last = self.last_player
        if last is None:  # the first lead declined (RULES §3.3, D-6)
            fields["to_act"] = self._scan(player, None, locked, out)
            fields["locked"] = locked
            fields["required"] = 0
            fields["may_decline"] = False
        elif player == last:  # closing a continuation (RULES §3.4, D-7)
            _clear_trick(fields, player)
        else:
            nxt = self._context.next[player][last + 1][locked | out]  # `_scan`
            if nxt is None and self.rules.continuation and not out >> last & 1:
                nxt = last  # the others all passed: continue or close (RULES §3.4)
            if nxt is None:
                _clear_trick(fields, self._next_leader(last, out))
            else:
                fields["to_act"] = nxt
                fields["locked"] = locked
        return _state(fields)

    def _after_play(
        self, player: int, mask: int, key: int, action: Action
    ) -> GameState:
        rules = self.rules
        fields = self.__dict__.copy()
        masks = list(self._masks)
        held = masks[player]
        left = held ^ mask if held <= _bits.LOW_HALF else _bits.difference(held, mask)
        masks[player] = left
        fields["_masks"] = tuple(masks)
        fields["_top"] = key
        fields["_top_mask"] = mask
        fields["last_player"] = player
        fields["_log"] = (self._log, action)
        if self.required:  # the first lead is made (RULES §2.4)
            fields["required"] = 0
            fields["may_decline"] = False
        if self._top and rules.scoring is _POKER_POINTS:
            top = make_combo(self._top_mask, self._top)
            if rules.is_catch(make_combo(mask, key), top):
                fields["chop"] = self._catch(player, top)
        if not left:
            return self._going_out(fields, player)
        nxt = self._context.next[player][player + 1][self.locked | self.out]  # `_scan`
        if nxt is None and rules.continuation:  # all others passed (RULES §3.4, D-7)
            nxt = player
        if nxt is None:
            _clear_trick(fields, player)
        else:
            fields["to_act"] = nxt
        return _state(fields)

    def _going_out(self, fields: dict[str, object], player: int) -> GameState:
        """The player played their last card (RULES §1.5.5): finish, freeze, or end."""
        rules = self.rules
        out = self.out | 1 << player
        finish_order = (*self.finish_order, player)
        items = self.items
        chop = fields["chop"]
        if chop is not None and chop is not self.chop:  # paid at once (RULES §6.6.2)
            assert isinstance(chop, ChopChain)
            if chop.points:
                items = (*items, chop.item())
            fields["chop"] = None
        if rules.scoring is Scoring.POKER_POINTS and len(finish_order) == 1:
            masks = fields["_masks"]
            assert isinstance(masks, tuple)
            frozen, frozen_items = self._freeze(player, masks)
            items = (*items, *frozen_items)
            for victim in frozen:
                out |= 1 << victim
            fields["frozen"] = frozen
        fields["out"] = out
        fields["finish_order"] = finish_order
        fields["items"] = items
        if (
            rules.game_end is GameEnd.FIRST_OUT
            or len(self._masks) - out.bit_count() <= 1
        ):
            state = _state(fields)
            return state._with_result(settle(state))
        nxt = self._scan(player, player, self.locked, out)
        if nxt is None:
            _clear_trick(fields, self._next_leader(player, out))
        else:
            fields["to_act"] = nxt
        return _state(fields)

    def _next_leader(self, last: int, out: int) -> int:
        """Who leads when the others all passed (RULES §1.5.4-§1.5.5, D-1).

        The last player, or if they went out the next player in play direction still in
        the game, even one who passed.
        """
        if not out >> last & 1:
            return last
        leader = self._scan(last, None, 0, out)
        assert leader is not None
        return leader

    def _catch(self, player: int, top: Combo) -> ChopChain:
        """Add a catch to the trick's chop chain (RULES §6.6.2, D-18)."""
        victim = self.last_player
        assert victim is not None
        value = 0 if not self._masks[victim] else self.rules.chop_value(top)
        chain = self.chop
        points = value + (chain.points if chain is not None else 0)
        caught = (*chain.caught, top) if chain is not None else (top,)
        return ChopChain(points=points, victim=victim, catcher=player, caught=caught)

    def _freeze(
        self, winner: int, masks: tuple[int, ...]
    ) -> tuple[tuple[int, ...], list[ScoreItem]]:
        """Freeze every player still holding all 13 cards (*cóng*, RULES §6.6.3).

        That is all the cards of a full deal for the table: players of a shorter
        hand (a scenario from `from_hands`) are never frozen.
        """
        frozen: list[int] = []
        items: list[ScoreItem] = []
        full = self.rules.deal_size(len(masks))[1]
        for player in self._order_from(winner):
            if (
                player != winner
                and not self.out >> player & 1
                and len(self.dealt[player]) == full
                and masks[player] == self.dealt[player]._mask
            ):
                frozen.append(player)
                points = self.rules.frozen_penalty + self.rules.hand_value(
                    _hand(masks[player])
                )
                items.append(
                    ScoreItem(
                        kind=ScoreKind.FROZEN,
                        player=winner,
                        payer=player,
                        points=points,
                    )
                )
        return tuple(frozen), items

    def _scan(self, actor: int, last: int | None, locked: int, out: int) -> int | None:
        """The next player to act after *actor*, or ``None`` (see `_next_to_act`)."""
        return self._context.next[actor][0 if last is None else last + 1][locked | out]

    def _instant_win(self, winner: int, win: InstantWin) -> GameState:
        """A hand won at the deal (RULES §5.4, §6.7, D-14, D-21)."""
        order = self._order_from(winner)
        return self._with_result(instant_win_result(self.rules, order, win))

    def _with_result(self, result: GameResult) -> GameState:
        """This state, ended with *result*: nobody acts any more."""
        fields = self.__dict__.copy()
        fields["to_act"] = None
        fields["result"] = result
        fields["is_over"] = True
        fields["chop"] = None
        fields["may_decline"] = False
        fields["required"] = 0
        return _state(fields)

    # -- text ---------------------------------------------------------------------

    def _repr_svg_(self) -> str:
        """The table as an SVG picture, for Jupyter (see `tienlen.svg.state`)."""
        from tienlen import svg  # noqa: PLC0415  # svg imports this module

        return svg.state(self)

    def __setstate__(self, fields: dict[str, object]) -> None:
        """Unpickle with a serial number of this process (see `Play`'s origin)."""
        _set_fields(self, "__dict__", {**fields, "_serial": _new_serial()})

    def __repr__(self) -> str:
        hands = ", ".join(repr(str(hand)) for hand in self.hands)
        top = str(self.top) if self.top is not None else None
        return (
            f"<GameState {self.rules.name}: hands=[{hands}], to_act={self.to_act}, "
            f"top={top!r}{', over' if self.is_over else ''}>"
        )

    def __str__(self) -> str:
        lines = [f"{self.rules.name}, {self.players} players"]
        for player, hand in enumerate(self.hands):
            marks = []
            if player == self.to_act:
                marks.append("to act")
            if self.locked >> player & 1:
                marks.append("passed")
            if player in self.finish_order:
                marks.append(f"out #{self.finish_order.index(player) + 1}")
            if player in self.frozen:
                marks.append("frozen")
            note = f"  ({', '.join(marks)})" if marks else ""
            lines.append(f"  {player}: {hand}{note}")
        lines.append(f"  top: {self.top if self.top is not None else '-'}")
        if self.result is not None:
            lines.append(
                f"  over: order {list(self.result.finish_order)}, scores {list(self.result.scores)}"
            )
        return "\n".join(lines)


def _next_to_act(seats: tuple[int, ...], last: int | None, skip: int) -> int | None:
    """The first of *seats* (those after the actor, in play order) to act next.

    That is the first seat not in *skip* (passed or out), or ``None`` when the trick
    is over: the turn would come back to *last*, the player who made the last play, as
    everyone else still in the game has passed (RULES §1.5.4, §1.5.6).
    """
    for seat in seats:
        if seat == last:
            return None
        if not skip >> seat & 1:
            return seat
    return None


_NextTable = tuple[tuple[tuple[int | None, ...], ...], ...]


@functools.cache
def _next_table(direction: Direction, players: int) -> _NextTable:
    """``table[actor][last + 1][skip]`` (``last`` ``None`` at 0): `_next_to_act`, precomputed."""
    seats_after = _SEATS_AFTER[direction][players]
    return tuple(
        tuple(
            tuple(_next_to_act(seats, last, skip) for skip in range(1 << players))
            for last in (None, *range(players))
        )
        for seats in seats_after
    )


class _Context:
    """What every state of a game shares: seat order, turn table and play generator."""

    __slots__ = ("next", "seats", "tables")

    def __init__(self, rules: RuleSet, players: int) -> None:
        self.seats = _SEATS_AFTER[rules.direction][players]
        """``seats[seat]``: the seats after *seat* in play order, itself last."""
        self.next = _next_table(rules.direction, players)
        """`_next_to_act` for every seat, last player and skipped seats."""
        self.tables: Tables | None = None
        """The rule set's compiled play generator, when its `legal_plays` is
        `BaseRules`' own: legal actions then skip its argument checks."""
        if (
            isinstance(rules, BaseRules)
            and type(rules).legal_plays is BaseRules.legal_plays
        ):
            self.tables = rules._tables


_POKER_POINTS: Final = Scoring.POKER_POINTS
_SINGLE_CODE: Final = shape_code(SINGLE, 1)
_SEATS_AFTER: Final = {
    direction: {
        n: tuple(
            tuple((seat + direction.value * i) % n for i in range(1, n + 1))
            for seat in range(n)
        )
        for n in range(1, 9)
    }
    for direction in Direction
}
"""``_SEATS_AFTER[direction][players][seat]``: the seats after *seat* in play, itself last."""


_set_fields: Final = object.__setattr__


def _state(fields: dict[str, object]) -> GameState:
    """A `GameState` with these field values, built without attrs' checks (hot path)."""
    fields["_serial"] = _process[0] | next(_serials)
    state = _new(GameState)
    _set_fields(state, "__dict__", fields)
    return state


_serials: Final = itertools.count(1)
_process = [os.getpid() << 40]


def _forked() -> None:
    _process[0] = os.getpid() << 40


os.register_at_fork(after_in_child=_forked)


def _new_serial() -> int:
    """A number no other live state of any process has (pid and a per-process count)."""
    return _process[0] | next(_serials)


def _clear_trick(fields: dict[str, object], leader: int) -> None:
    """End the trick in *fields*: clear the pile, settle the chop chain (RULES §1.5.4, §6.6.2).

    A trick ends after a play, so the first-lead fields are already cleared.
    """
    chop = fields["chop"]
    if chop is not None:
        assert isinstance(chop, ChopChain)
        items = fields["items"]
        assert isinstance(items, tuple)
        if chop.points:
            fields["items"] = (*items, chop.item())
        fields["chop"] = None
    fields["to_act"] = leader
    fields["_top"] = 0
    fields["_top_mask"] = 0
    fields["last_player"] = None
    fields["locked"] = 0


_THREE_OF_SPADES: Final = 1
"""The mask of 3♠, card 0: only its first lead may be declined (RULES §3.3)."""


def _lowest_holder(rules: RuleSet, masks: list[int], dealer: int) -> tuple[int, int]:
    """The first-lead card (3♠, else the lowest dealt, D-4) and who leads with it.

    With two decks and two holders, the first in play direction from the dealer leads.
    """
    union = 0
    for mask in masks:
        union |= mask
    card = ((union & _bits.LOW_HALF) & -(union & _bits.LOW_HALF)).bit_length() - 1
    for player in _SEATS_AFTER[rules.direction][len(masks)][dealer]:
        if masks[player] >> card & 1:
            return card, player
    raise AssertionError  # pragma: no cover - some player holds the lowest card


def _spare_starter(rules: RuleSet, masks: list[int], setup: GameSetup) -> int:
    """Kenneth Lo's three-player starter, decided on the 51 dealt cards (RULES §4.1, D-8).

    The first game: the holder of 3♠, or of the lowest dealt card; later: the leader.
    """
    if not setup.first_game:
        if setup.leader is None:
            msg = "a later game needs its leader (the previous winner, RULES §4.1)"
            raise InvalidStateError(msg)
        return setup.leader
    card, holder = _lowest_holder(rules, masks, setup.dealer)
    if setup.leader is not None and setup.leader != holder:
        msg = f"player {holder} holds {DECK[card]} and starts (RULES §4.1), not player {setup.leader}"
        raise InvalidStateError(msg)
    return holder
