# mypy: disable-error-code="misc"
# A `GameState`'s fields are `Final` without a value in the class body (error code
# "misc"): they are set by the engine's transition, not by an ``__init__``.
"""The game: an immutable `GameState` that referees a whole game (RULES §1.5, §2–§6).

Players are numbered ``0 … n−1`` clockwise; play moves to ``i + 1`` clockwise and to
``i − 1`` counterclockwise (RULES §2.1, §6.1). A state never changes: `GameState.apply`
returns the next state. `GameState.check` says why an action is illegal,
`GameState.is_legal` whether it is, and `GameState.legal_actions` lists exactly the
actions `GameState.is_legal` accepts, including Poker jump-ins by players whose turn it
is not (RULES §6.4). `GameSetup` says how a game started.

The compiled build compiles this module: a state is a native object whose fields the
one transition (`after`, below the class) writes (docs/engine.md).
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import FunctionType
from typing import Any, Final, SupportsIndex, cast

from attrs.exceptions import FrozenInstanceError

from tienlen._action_text import read_action
from tienlen.actions import (
    TOKENS,
    Action,
    Actions,
    Listing,
    Play,
    checked_play,
    hand_of,
    lists,
    make_play,
)
from tienlen.cards import DECK, Card, Hand, as_hand
from tienlen.combos import Combo, Plays, make_combo
from tienlen.engine import answers
from tienlen.engine import bits as _bits
from tienlen.engine.bits import player_index
from tienlen.engine.kinds import KINDS
from tienlen.engine.movegen import Tables
from tienlen.engine.rulebook import Context, context_of
from tienlen.engine.shapes import SINGLE, STRUCTURES, shape_code, structural_key
from tienlen.engine.shuffle import shuffle
from tienlen.engine.turns import acting, turn_key, with_out
from tienlen.errors import (
    IllegalPlayError,
    IllegalReason,
    InvalidArgumentError,
    InvalidCardError,
    InvalidRulesError,
    InvalidStateError,
)
from tienlen.passes import PASSES, Pass
from tienlen.policies import Seating
from tienlen.rules import RuleSet, check_rules
from tienlen.rules.base import BaseRules
from tienlen.rules.reasons import explain_beats, why_not_combination
from tienlen.scoring import Catch, ChopChain, Finish, GameResult, ScoreItem
from tienlen.setups import GameSetup

__all__ = ["Action", "Actions", "GameSetup", "GameState", "Pass", "Play"]


_hand: Final = hand_of
_play: Final = make_play
Log = tuple[object, "Action | int"] | None
"""A game's actions as a linked list, latest first: ``(earlier actions, action)``,
the earlier actions being a `Log` again (typed `object`: mypyc cannot compile a
recursive type alias).

An action applied by its mask (`GameState.apply_mask`) is kept as the int
``mask << 4 | player`` and built when `GameState.history` is read."""


def unwound(log: Log) -> tuple[Action, ...]:
    """The actions of a state's log (newest last), first first.

    Example:
        >>> from tienlen import CLASSIC, Hand
        >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
        >>> unwound(state.apply_mask(Hand.parse("3s").mask)._log)
        (Play(player=0, cards=Hand.parse('3s')),)
    """
    actions: list[Action] = []
    while log is not None:
        earlier, action = log
        log = cast("Log", earlier)
        if type(action) is int:
            action = _play(action & 15, action >> 4, 0)
        actions.append(action)  # type: ignore[arg-type]  # an int is built above
    actions.reverse()
    return tuple(actions)


class GameState:
    """One moment of a game, immutable and hashable.

    Build the first state with `GameState.deal` or `GameState.from_hands`; move on with
    `apply` (or `play`, `pass_turn`), which return a new state and never change this
    one. States compare equal when the position is the same, whatever the history.
    There is no public constructor: the fields are the engine's. Setting or deleting
    a field raises ``AttributeError``.

    Example:
        >>> from tienlen import CLASSIC
        >>> state = GameState.from_hands(["3s 7h", "4d 9c", "5c Jd"], CLASSIC)
        >>> state.to_act, state.must_include
        (0, Card.parse('3s'))
        >>> state = state.play("3s").play("4d").pass_turn()
        >>> state.to_act, str(state.top), sorted(state.passed)
        (0, '4d', [2])
    """

    # A plain class, so that mypyc compiles it (the compiled build): its fields are
    # `Final`, read-only from Python, and written only by the engine's transition
    # (`after`, below). The annotations below are the field list: the
    # slots, `FIELDS` and the pure build's by-name fill (`_fill`) are derived from
    # them; the copy the move loop runs, the successor's `draft`, is written by hand
    # (and the compiled build's `_fill`): a test checks both. A method that
    # refuses a wrong type with `TypeError` takes that argument as `SupportsIndex`
    # (a player, the mask of `apply_mask`) and reads it with `player_index`:
    # compiled, a parameter typed `int` would take ``True`` as 1 before the method
    # could refuse it.
    rules: Final[RuleSet]
    """The variant being played."""
    _masks: Final[tuple[int, ...]]
    """Every player's cards as masks (`hands` holds them as `Hand` objects)."""
    dealt: Final[tuple[Hand, ...]]
    """Every player's cards at the start of the game."""
    to_act: Final[int | None]
    """Whose turn it is; ``None`` once the game is over."""
    _top: Final[int]
    """The key of the combination to beat (0 when leading; `top` builds it)."""
    _top_mask: Final[int]
    """Its cards (0 when leading)."""
    _top_combo: Combo | None
    """`top` once built (``None`` until then): the states of a trick share it. A
    cache, not part of equality, so not `Final`: `top` fills it in."""
    last_player: Final[int | None]
    """Who played `top`."""
    _beaten: Final[int | None]
    """Who played the combination `top` beat, when the turn policy needs it (§12.10)."""
    _turn: Final[int]
    """`to_act`, `last_player`, `locked`, `out` and ``_beaten`` as one int: the key of
    the game's `TurnTable` (`tienlen.engine.turns.turn_key`)."""
    locked: Final[int]
    """Bit ``i`` set when player ``i`` has passed in this trick (see `passed`)."""
    out: Final[int]
    """Bit ``i`` set when player ``i`` is out of the game (finished, frozen or rotted)."""
    finish_order: Final[tuple[int, ...]]
    """The players who have gone out, first out first."""
    frozen: Final[tuple[int, ...]]
    """Poker players frozen out when first place was taken (RULES §6.6.3)."""
    _bottom: Final[tuple[int, ...]]
    """Players given the lowest free place at once (frozen, rotted), lowest first."""
    required: Final[int]
    """Mask of the card the lead must include (RULES §2.4); 0 when there is none."""
    may_decline: Final[bool]
    """Whether the player to act may decline the first lead by passing (RULES §3.3)."""
    chop: Final[ChopChain | None]
    """The open Poker chop chain of this trick (RULES §6.6.2)."""
    items: Final[tuple[ScoreItem, ...]]
    """Score items already settled during play (Poker chops and frozen players)."""
    result: Final[GameResult | None]
    """How the game ended; ``None`` while it goes on."""
    is_over: Final[bool]
    """Whether the game has ended (`result` is set)."""
    _log: Final[Log]
    """The actions applied since the deal, latest first (`history` lists them)."""
    setup: Final[GameSetup]
    """How the game started, with its leader and dealer (not part of equality)."""
    _context: Final[Context]
    """What every state of the game shares."""
    _serial: Final[int]
    """The state's trust token (see `tienlen.actions`)."""
    _listed: Listing | None
    """What `legal_actions` lists, once its masks were read (`Actions.masks`; ``None``
    until then): `apply_mask` applies a listed mask without a check. A cache."""

    __slots__ = (*__annotations__, "__weakref__")  # the pure build; mypyc ignores it

    def _derive(self, changes: Mapping[str, object]) -> GameState:
        """A copy of this state with the fields *changes* names changed (for tests).

        The engine builds through `with_fields`.
        """
        return with_fields(self, changes)

    def _fill(self, fields: Mapping[str, object]) -> None:
        """Set every field from *fields*, by name (a blank state, being built).

        A field with a default (`DEFAULTS`) may be missing. The engine's door for a
        state built from its parts (`from_fields`) and for
        unpickling. Pure, a loop over `FIELDS`. Compiled, mypyc writes a `Final` field
        only from compiled code that names it, so the compiled build's fill is written
        out field by field (a test checks it against the annotations; it goes with
        the compiled build).
        """
        given: dict[str, object] = {**DEFAULTS, **fields}
        if not COMPILED:
            for name in FIELDS:
                object.__setattr__(self, name, given[name])
            return
        object.__setattr__(self, "rules", given["rules"])
        object.__setattr__(self, "_masks", given["_masks"])
        object.__setattr__(self, "dealt", given["dealt"])
        object.__setattr__(self, "to_act", given["to_act"])
        object.__setattr__(self, "_top", given["_top"])
        object.__setattr__(self, "_top_mask", given["_top_mask"])
        object.__setattr__(self, "_top_combo", given["_top_combo"])
        object.__setattr__(self, "last_player", given["last_player"])
        object.__setattr__(self, "_beaten", given["_beaten"])
        object.__setattr__(self, "_turn", given["_turn"])
        object.__setattr__(self, "locked", given["locked"])
        object.__setattr__(self, "out", given["out"])
        object.__setattr__(self, "finish_order", given["finish_order"])
        object.__setattr__(self, "frozen", given["frozen"])
        object.__setattr__(self, "_bottom", given["_bottom"])
        object.__setattr__(self, "required", given["required"])
        object.__setattr__(self, "may_decline", given["may_decline"])
        object.__setattr__(self, "chop", given["chop"])
        object.__setattr__(self, "items", given["items"])
        object.__setattr__(self, "result", given["result"])
        object.__setattr__(self, "is_over", given["is_over"])
        object.__setattr__(self, "_log", given["_log"])
        object.__setattr__(self, "setup", given["setup"])
        object.__setattr__(self, "_context", given["_context"])
        object.__setattr__(self, "_serial", given["_serial"])
        object.__setattr__(self, "_listed", given["_listed"])

    def _keep_listing(self, listing: Listing) -> None:
        """Keep what this state's `Actions.masks` listed: a cache `apply_mask` reads.

        Not a change of the state (equality and pickles ignore it). The write names
        its field, so the compiled build writes it directly.
        """
        object.__setattr__(self, "_listed", listing)

    def _key(self) -> tuple[object, ...]:
        """The fields equality and the hash compare: the position, not its history."""
        return (
            self.rules, self._masks, self.dealt, self.to_act, self._top,
            self._top_mask, self.last_player, self._beaten, self.locked, self.out,
            self.finish_order, self.frozen, self._bottom, self.required,
            self.may_decline, self.chop, self.items, self.result,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if type(other) is not GameState:
            return NotImplemented
        return self is other or self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

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
        check_rules(rules)
        decks, size = rules.deal_size(players)
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        deck = list(range(_bits.CARDS)) * decks  # card indices: the order of DECK
        shuffle(rng, deck)
        if dealer is None:
            dealer = rng.randrange(players)
        setup = GameSetup.checked(
            players, first_game, leader, after_instant_win, dealer
        )
        masks = [
            _bits.from_indices(deck[i * size : (i + 1) * size]) for i in range(players)
        ]
        spare = deck[players * size :]
        deal = context_of(rules, players).deal
        if answers.gives_spare_card(deal, players, len(spare)):
            starter = spare_starter(rules, masks, setup)
            masks[starter] |= 1 << spare[0]
            return start(rules, masks, leader=starter, required=0, setup=setup)
        return begin(rules, masks, setup)

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
        check_rules(rules)
        if isinstance(hands, str | Hand) or not isinstance(hands, Sequence):
            msg = f"expected one hand per player, got {hands!r}"
            raise TypeError(msg)
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
            dealer = Seating.of(rules.direction.value, players).order_from(0)[-1]
        setup = GameSetup.checked(
            players, first_game, leader, after_instant_win, dealer
        )
        masks = [hand.mask for hand in parsed]
        deal = context_of(rules, players).deal
        starter = answers.spare_holder(deal, [len(hand) for hand in parsed], size)
        if starter is not None:
            if leader is not None and leader != starter:
                msg = f"player {starter} holds the spare card and starts (RULES §4.1), not player {leader}"
                raise InvalidStateError(msg)
            return start(rules, masks, leader=starter, required=0, setup=setup)
        return begin(rules, masks, setup)

    @property
    def hands(self) -> tuple[Hand, ...]:
        """Every player's cards, by player index.

        Example:
            >>> from tienlen import CLASSIC
            >>> [str(hand) for hand in GameState.from_hands(["3s 7h", "4d"], CLASSIC).hands]
            ['3s 7h', '4d']
        """
        return tuple(map(_hand, self._masks))

    @property
    def hand_masks(self) -> tuple[int, ...]:
        """Every player's cards as card masks (`Hand.mask`), by player index: `hands` as ints.

        Example:
            >>> from tienlen import CLASSIC, Hand
            >>> state = GameState.from_hands(["3s 7h", "4d"], CLASSIC)
            >>> state.hand_masks == (Hand.parse("3s 7h").mask, Hand.parse("4d").mask)
            True
        """
        return self._masks

    @property
    def top_mask(self) -> int:
        """The card mask of the combination to beat (`top`), or 0 when nobody has played.

        Example:
            >>> from tienlen import CLASSIC, Hand
            >>> state = GameState.from_hands(["3s 7h", "4d"], CLASSIC)
            >>> state.top_mask, state.play("3s").top_mask == Hand.parse("3s").mask
            (0, True)
        """
        return self._top_mask

    def hand(self, player: SupportsIndex) -> Hand:
        """*player*'s cards (``hands[player]``, without building the others' hands).

        Raises:
            InvalidArgumentError: *player* is not at the table.
            TypeError: *player* is not an ``int``.

        Example:
            >>> from tienlen import CLASSIC
            >>> str(GameState.from_hands(["3s 7h", "4d 9c"], CLASSIC).hand(1))
            '4d 9c'
        """
        return _hand(self._masks[self._seat(player)])

    def _seat(self, player: SupportsIndex) -> int:
        """*player*, checked to be a seat at the table (for the public queries)."""
        player = player_index(player)
        if not 0 <= player < len(self._masks):
            msg = f"no player {player} at a {len(self._masks)}-player table"
            raise InvalidArgumentError(msg)
        return player

    @property
    def top(self) -> Combo | None:
        """The combination to beat; ``None`` when the player to act leads.

        Built once per play: the states of a trick that follow it share it.

        Example:
            >>> from tienlen import CLASSIC
            >>> state = GameState.from_hands(["3s 7h", "4d 9c"], CLASSIC)
            >>> state.top is None, str(state.play("3s").top)
            (True, '3s')
        """
        if not self._top:
            return None
        combo = self._top_combo
        if combo is None:  # a cache, not a change: equality ignores it
            combo = make_combo(self._top_mask, self._top)
            object.__setattr__(self, "_top_combo", combo)
        return combo

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied since the deal, in order (not part of equality).

        Example:
            >>> from tienlen import CLASSIC
            >>> state = GameState.from_hands(["3s 7h", "4d 9c"], CLASSIC)
            >>> state.play("3s").pass_turn().history
            (Play(player=0, cards=Hand.parse('3s')), Pass(player=1))
        """
        return unwound(self._log)

    @property
    def players(self) -> int:
        """How many players sit at the table.

        Example:
            >>> from tienlen import CLASSIC
            >>> GameState.deal(CLASSIC, 3, seed=1).players
            3
        """
        return len(self._masks)

    @property
    def passed(self) -> frozenset[int]:
        """The players locked out of the current trick (RULES §1.5.3).

        Example:
            >>> from tienlen import CLASSIC
            >>> state = GameState.from_hands(["3s 7h", "4d 9c", "5c Jd"], CLASSIC)
            >>> sorted(state.play("3s").pass_turn().passed)
            [1]
        """
        return frozenset(p for p in range(self.players) if self.locked >> p & 1)

    def final_result(self) -> GameResult:
        """How the game ended: `result`, for a game known to be over (never ``None``).

        For type checkers and readers alike, ``state.final_result().scores`` says
        "this game is over" where ``state.result`` would need a check for ``None``. It
        is a method, not a property: asking a game that goes on is an error.

        Raises:
            InvalidStateError: the game is not over.

        Example:
            >>> from tienlen import CLASSIC
            >>> state = GameState.from_hands(["3s", "5d 6d"], CLASSIC)
            >>> state.final_result()
            Traceback (most recent call last):
            ...
            tienlen.errors.InvalidStateError: the game is not over: player 0 is to act
            >>> state.play("3s").final_result().finish_order
            (0, 1)

        .. versionadded:: 0.2
        """
        result = self.result
        if result is None:
            msg = f"the game is not over: player {self.to_act} is to act"
            raise InvalidStateError(msg)
        return result

    @property
    def must_include(self) -> Card | None:
        """The card the current lead must include (3♠ or the lowest dealt card), if any.

        Example:
            >>> from tienlen import CLASSIC
            >>> state = GameState.from_hands(["4s 7h", "5d 9c"], CLASSIC)  # no 3♠ dealt
            >>> str(state.must_include), state.play("4s").must_include
            ('4s', None)
        """
        return DECK[self.required.bit_length() - 1] if self.required else None

    @property
    def is_continuing(self) -> bool:
        """Whether the player to act may continue or close their trick (RULES §3.4).

        Example:
            >>> from tienlen import JUSTUS_PANG
            >>> state = GameState.from_hands(["3s 7h", "4d 5c"], JUSTUS_PANG).play("3s")
            >>> state.pass_turn().is_continuing  # player 1 passed: player 0 goes on
            True
        """
        return self._top != 0 and self.to_act == self.last_player

    def in_game(self, player: SupportsIndex) -> bool:
        """Whether *player* is still playing (not finished, not frozen).

        Raises:
            InvalidArgumentError: *player* is not at the table.
            TypeError: *player* is not an ``int``.

        Example:
            >>> from tienlen import CLASSIC
            >>> state = GameState.from_hands(["3s", "4d 9c", "5c Jd"], CLASSIC).play("3s")
            >>> state.in_game(0), state.in_game(1)
            (False, True)
        """
        return not self.out >> self._seat(player) & 1

    def legal_actions(self) -> Actions:
        """Every legal action now: the acting player's plays and pass, then jump-ins.

        Example:
            >>> from tienlen import CLASSIC
            >>> state = GameState.from_hands(["3s 4s 9h", "5d 6d"], CLASSIC)
            >>> [str(action) for action in state.legal_actions()]
            ['3s']
        """
        actions = Actions()  # a blank one, filled in here (the hot path)
        actions._state = self
        actions._serial = self._serial
        actions._singles = actions._count = 0
        actions._others = ()
        player = self.to_act
        tables = self._context.plain_tables
        if tables is None or player is None:
            return self._every_action(actions)
        actions._player = player  # the compiled tables, no play refused (hot path)
        top = self._top
        masks: Sequence[int]
        if not top:
            actions._masks = masks = tables.leads(self._masks[player], self.required)
            actions._plays = plays = len(masks)
            actions._pass = decline = self.may_decline
            actions._len = plays + decline
            return actions
        count = 0
        if top >> 6 == _SINGLE_CODE:  # singles kept as one mask (the commonest case)
            hand = self._masks[player]
            actions._singles = singles = tables.beating_singles(hand, top)
            actions._count = count = singles.bit_count()
            masks = tables.bombs(hand, top) if top in tables.bombers else ()
        else:
            masks = tables.plays(self._masks[player], top)
        if player == self.last_player:  # continuation: same shape only (RULES §3.4)
            masks = [m for m in masks if structural_key(m) >> 6 == top >> 6]
        actions._masks = masks
        actions._plays = plays = count + len(masks)
        actions._pass = True
        size = plays + 1  # and the pass
        context = self._context
        # Jump-ins land on a chop target only (RULES §6.4): known by key.
        if context.jump_ins and context.is_chop_target(self._top_mask, top):
            actions._others = others = self._jump_ins(player)
            for _, group in others:
                size += len(group)
        actions._len = size
        return actions

    def _every_action(self, actions: Actions) -> Actions:
        """`legal_actions` on every path: the game over, any rule set, §12.12 limits.

        *actions* has its state, token and empty singles and jump-ins set.
        """
        player = self.to_act
        if player is None:  # the game is over: nobody acts
            actions._player = actions._plays = 0
            actions._masks = ()
            actions._pass = False
            actions._len = 0
            return actions
        top = self._top
        context = self._context
        tables = context.tables
        masks: Sequence[int]
        if tables is None:
            if context.trusted:  # the rule set's own generator (suited runs)
                masks = [
                    m
                    for m in self.rules.legal_plays(self.hand(player), self.top).masks
                    if not self.required or m & self.required
                ]
            else:
                masks = self._checked_plays(player, self.rules.legal_plays)
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
        if (
            context.limits_going_out
            and (tables is not None or context.trusted)
            and self._forbids_going_out(player)
        ):
            whole = self._masks[player]  # the one play that empties the hand
            if whole.bit_count() == 1:  # a single card: not the other singles
                actions._singles &= ~whole
                actions._count = actions._singles.bit_count()
            masks = [m for m in masks if m != whole]
        if not top:
            actions._masks = masks
            actions._plays = len(masks)
            actions._pass = self.may_decline
            actions._len = actions._plays + self.may_decline
            return actions
        if player == self.last_player:  # continuation: same shape only (RULES §3.4)
            masks = [m for m in masks if structural_key(m) >> 6 == top >> 6]
        actions._masks = masks
        actions._plays = actions._count + len(masks)
        actions._pass = True
        size = actions._plays + 1
        if context.jump_ins:
            actions._others = others = self._any_jump_ins(player)
            for _, group in others:
                size += len(group)
        actions._len = size
        return actions

    def _any_jump_ins(self, acting: int) -> list[tuple[int, list[int]]]:
        """`_jump_ins` on every path: by the rule set's own answers if it is not trusted."""
        context = self._context
        if context.tables is None and not context.trusted:
            return self._checked_jump_ins(acting)
        if context.is_chop_target(self._top_mask, self._top):
            return self._jump_ins(acting)
        return []

    def _jump_ins(self, acting: int) -> list[tuple[int, list[int]]]:
        """Poker jump-ins by players other than the one to act (RULES §6.4, D-15).

        The top is a chop target: the callers ask first.
        """
        context = self._context
        rules = self.rules
        groups: list[tuple[int, list[int]]] = []
        held, last = self._masks, self.last_player
        skipped = self.out | 1 << acting | (0 if last is None else 1 << last)
        for player in self._order_from(acting):
            if skipped >> player & 1 or not context.may_jump_in_with(held[player]):
                continue  # out, acting, or the top's (D-15), or no jump-in shape held
            top = self.top  # built only when a hand may jump in
            assert top is not None  # a chop target is on the pile
            masks = [
                p.mask
                for p in rules.legal_plays(_hand(held[player]), top)
                if rules.may_jump_in(p, top)
            ]
            if masks and self._forbids_going_out(player):
                masks = [m for m in masks if m != held[player]]
            if masks:
                groups.append((player, masks))
        return groups

    def _forbids_going_out(self, player: int) -> bool:
        """Whether the table forbids *player* to go out with their whole hand (§12.12)."""
        turns = self._context.turns
        if not turns.limits_going_out:
            return False
        whole = self._masks[player]
        key = structural_key(whole)
        return bool(key) and not answers.may_go_out_with(
            turns, self.rules, make_combo(whole, key)
        )

    def _checked_plays(
        self, player: int, listed: Callable[[Hand, Combo | None], Plays] | None
    ) -> list[int]:
        """*player*'s plays by the rule set's own answers, for any `RuleSet` (R24).

        The rule set's *listed* plays come first, in its order, then every other
        combination the hand holds; each is kept only when `is_legal` accepts it, so
        the legal actions are exactly what `check` allows whatever hook is overridden.
        """
        hand = self.hand(player)
        first = listed(hand, self.top).masks if listed is not None else ()
        kept: list[int] = []
        seen: set[int] = set()
        for mask in (*first, *_every_combination().leads(hand.mask)):
            if mask not in seen:
                seen.add(mask)
                if self.is_legal(_play(player, mask, 0)):
                    kept.append(mask)
        return kept

    def _checked_jump_ins(self, acting: int) -> list[tuple[int, list[int]]]:
        """`_jump_ins` by the rule set's own answers (see `_checked_plays`)."""
        groups: list[tuple[int, list[int]]] = []
        for player in self._order_from(acting):
            if player != acting and self.in_game(player):
                masks = self._checked_plays(player, None)
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
        """Whether *action* is legal now (`check` without the exception).

        Example:
            >>> from tienlen import CLASSIC
            >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
            >>> state.is_legal(Play(player=0, cards="3s")), state.is_legal(Pass(player=0))
            (True, False)
        """
        try:
            self._verdict(action)
        except IllegalPlayError:
            return False
        return True

    def apply(self, action: Action) -> GameState:
        """The state after *action*; this state is unchanged.

        Raises:
            IllegalPlayError: the action is illegal now (see `check`).

        Example:
            >>> from tienlen import CLASSIC
            >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
            >>> after = state.apply(Play(player=0, cards="3s"))
            >>> after.to_act, str(after.top), state.to_act, state.top
            (1, '3s', 0, None)
        """
        if type(action) is Play:
            if action._origin == self._serial:  # from legal_actions(): legal here
                return after(self, action._player, action._mask, action)
        elif type(action) is Pass:
            seat: object = cast(Any, action).player  # as given (see `_verdict`)
            if (
                type(seat) is int
                and seat == self.to_act
                and (self._top or self.may_decline)
            ):  # the whole rule for a pass (RULES §1.5.1-§1.5.2, §3.3)
                return after(self, seat, 0)
        checked = self._verdict(action)
        if checked is None:
            return after(self, action.player, 0)
        return after(self, action.player, checked._mask, action, checked._key)

    def apply_mask(
        self, mask: SupportsIndex, player: SupportsIndex | None = None
    ) -> GameState:
        """The state after *player* plays the cards of *mask* (0 passes): `apply` on ints.

        *mask* is a card mask as `Hand.mask` and `Actions.masks` give it; *player* is
        by default the player to act (name one for a Poker jump-in). A mask listed in
        the `Actions.masks` of this state is applied at once, without building any
        object; any other is checked exactly as `apply` checks a `Play` or `Pass`,
        with the same errors.

        Raises:
            IllegalPlayError: the action is illegal now.
            TypeError: *mask* or *player* is not an integer.

        Example:
            >>> from tienlen import CLASSIC, Hand
            >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
            >>> after = state.apply_mask(Hand.parse("3s").mask)
            >>> str(after.top), after.apply_mask(0).to_act
            ('3s', 0)
        """
        listed = self._listed
        if listed is not None and type(mask) is int:  # read from `Actions.masks`
            seat: object = listed[0] if player is None else player
            if lists(listed, seat, mask):  # legal by construction: no check
                return after(self, cast(int, seat), mask)
        if type(mask) is not int:
            mask = mask_index(mask)
        if not 0 <= mask < 1 << 2 * _bits.CARDS:
            msg = f"a card mask is a non-negative int below 2**104, got {mask!r}"
            raise InvalidCardError(msg)
        cards = hand_of(mask)
        seat = self._actor(None if player is None else player_index(player), cards)
        if not mask:
            return self.apply(
                PASSES[seat] if 0 <= seat < len(PASSES) else Pass(player=seat)
            )
        return self.apply(checked_play(seat, cards))

    def play(
        self, cards: Hand | str | Iterable[Card], player: SupportsIndex | None = None
    ) -> GameState:
        """Play *cards* for *player* (by default the player to act); see `apply`.

        Raises:
            IllegalPlayError: the play is illegal now.
            InvalidCardError: bad card text.

        Example:
            >>> from tienlen import CLASSIC
            >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC).play("3s")
            >>> str(state.play("6d", player=1).top)
            '6d'
        """
        return self.apply(checked_play(self._actor(player, cards), cards))

    def parse_action(self, text: str, player: SupportsIndex | None = None) -> Action:
        """The action *text* describes, for *player* (by default the player to act).

        *text* is a pass or card text in any notation `tienlen.parse_cards` reads
        (also ``7 cơ``, with a Vietnamese suit word), optionally after a seat and a
        colon (``"2: 3s 3c 4s 4c 5s 5c 6s 6c"``) for a Poker jump-in out of turn. A pass
        is ``pass`` or ``p``, or the Vietnamese *bỏ*, *bỏ lượt*, *bỏ qua* or *qua*, in
        any case. The cards may follow the verb ``play``, or the Vietnamese *đánh* or
        *đi* (``"đánh 3 bích"``). The text is read in Unicode normal form NFC (a
        decomposed *bỏ* is *bỏ*), and any Unicode space counts as a space. It is read
        (by ``tienlen._action_text``, where the words are), not judged: `check` or
        `apply` says whether the action is legal.

        Raises:
            InvalidCardError: the text is neither a pass nor cards.
            InvalidArgumentError: the seat written differs from *player*.
            IllegalPlayError: no seat is given and nobody is to act (the game is over).
            TypeError: *text* is not a string.

        Example:
            >>> from tienlen import CLASSIC
            >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC).play("3s")
            >>> state.parse_action("PASS"), state.parse_action("6d")
            (Pass(player=1), Play(player=1, cards=Hand.parse('6d')))
            >>> state.parse_action("1: 5♦")
            Play(player=1, cards=Hand.parse('5d'))
            >>> state.parse_action("Bỏ Lượt"), state.parse_action("đánh 6 rô")
            (Pass(player=1), Play(player=1, cards=Hand.parse('6d')))
        """
        player, cards = read_action(text, player)
        if cards is None:
            return Pass(player=self._actor(player, None))
        return checked_play(self._actor(player, cards), cards)

    def pass_turn(self, player: SupportsIndex | None = None) -> GameState:
        """Pass for *player* (by default the player to act); see `apply`.

        Raises:
            IllegalPlayError: passing is illegal now.

        Example:
            >>> from tienlen import CLASSIC
            >>> state = GameState.from_hands(["3s 4s", "5d 6d", "7c 8c"], CLASSIC)
            >>> state.play("3s").pass_turn().to_act
            2
        """
        return self.apply(Pass(player=self._actor(player, None)))

    def _actor(
        self, player: SupportsIndex | None, cards: Hand | str | Iterable[Card] | None
    ) -> int:
        """*player* (an int, or `TypeError`), or the player to act; nobody once the game is over."""
        if player is not None:
            return player_index(player)
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
        rule: str | None = None,
    ) -> IllegalPlayError:
        top = None if self.top is None else str(self.top)
        table = f"top {top!r}" if top is not None else "no top"
        context = f"{detail} ({table}, {self.rules.name})"
        return IllegalPlayError(
            reason, action.player, str(action), context,
            top=top, cards=cards, rule=rule, rules=self.rules.name,
        )  # fmt: skip

    def _verdict(self, action: Action) -> Combo | None:
        """Check *action*; return its combination for a legal play, ``None`` for a legal pass.

        The checks run in this order (the first failing one is the refusal): the game
        is on and the seat is in it (`_seat_of`), then a pass (`_check_pass`) or a
        play: its turn and cards (`_combination_of`), then what it must be as a lead
        (`_check_lead`) or as an answer to the top (`_check_answer`), then whether it
        may empty the hand (`_may_go_out`).
        """
        if not isinstance(action, Play | Pass):
            msg = f"expected a Play or Pass, got {action!r}"  # type: ignore[unreachable]
            raise TypeError(msg)
        player = self._seat_of(action)
        if type(action) is Pass:
            self._check_pass(action, player)
            return None
        assert isinstance(action, Play)
        combo = self._combination_of(action, player)
        top = self.top
        if player != self.to_act:  # a jump-in, whose rule `_combination_of` applied
            return self._may_go_out(action, combo)
        if top is None:
            self._check_lead(action, combo)
        else:
            self._check_answer(action, combo, top)
        return self._may_go_out(action, combo)

    def _seat_of(self, action: Action) -> int:
        """The seat of *action*, refused when the game is over or the seat is not in it."""
        # Read as given, untyped: compiled, ``action.player`` (an `int`) would read a
        # look-alike seat (``True``, an `int` subclass) as the int it stands for.
        player: object = cast(Any, action).player
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
        return player

    def _check_pass(self, action: Pass, player: int) -> None:
        """Refuse a pass out of turn, or by a leader who may not decline (RULES §1.5.2, §3.3)."""
        if player != self.to_act:
            raise self._not_your_turn(action)
        if not self._top and not self.may_decline:
            raise self._refuse(
                IllegalReason.CANNOT_PASS, action, "the leader must play"
            )

    def _combination_of(self, action: Play, player: int) -> Combo:
        """The combination *action* plays, refused when it is not *player*'s to play.

        Out of turn only a Poker jump-in may play (RULES §6.4); the cards must be held
        and form a combination of the rules (RULES §1.2).
        """
        top = self.top
        rules = self.rules
        jumping_in = player != self.to_act
        if jumping_in and (
            top is None
            or not self._context.turns.jump_ins
            or player == self.last_player
        ):
            raise self._not_your_turn(action)
        mask = action.cards.mask
        if not mask:
            raise self._refuse(IllegalReason.NOT_A_COMBO, action, "a play needs cards")
        if not _bits.is_submultiset(mask, self._masks[player]):
            raise self._not_held(action, player)
        combo = rules.classify(action.cards)
        if combo is None:
            why = why_not_combination(action.cards.cards, rules)
            detail = "no combination" if why is None else str(why)
            rule = None if why is None else why.rule
            raise self._refuse(IllegalReason.NOT_A_COMBO, action, detail, rule=rule)
        if jumping_in and not rules.may_jump_in(combo, cast(Combo, top)):
            raise self._not_your_turn(action, jumping_in=True)
        return combo

    def _check_lead(self, action: Play, combo: Combo) -> None:
        """Refuse a lead of a kind that may not lead, or a first lead without its card (§2.4)."""
        if not _may_lead(self.rules, combo):
            rule = _lead_rule(self.rules, combo)
            detail = (  # a bomb barred by its shape (D-25), or its whole kind
                f"{combo.shape} cannot be led: a bomb, and bombs_may_lead is off"
                if rule == "d-25"
                else f"{combo.kind.label} cannot be led"
            )
            raise self._refuse(IllegalReason.CANNOT_LEAD, action, detail, rule=rule)
        if self.required and not combo.mask & self.required:
            raise self._refuse(
                IllegalReason.MUST_INCLUDE,
                action,
                f"the first lead must include {self.must_include}",
                (str(self.must_include),),
                rule=self._first_lead_rule(),
            )

    def _check_answer(self, action: Play, combo: Combo, top: Combo) -> None:
        """Refuse a play that does not beat *top*, or a continuation of another shape (D-7)."""
        if action.player == self.last_player and combo.shape != top.shape:
            raise self._refuse(
                IllegalReason.WRONG_SHAPE,
                action,
                "a continuation must keep the shape",
                rule="d-7",
            )
        if not self.rules.beats(combo, top):
            same = combo.shape == top.shape
            reason = IllegalReason.DOES_NOT_BEAT if same else IllegalReason.WRONG_SHAPE
            detail = str(explain_beats(combo, top, self.rules)).removeprefix("no: ")
            deciding = (str(combo.top), str(top.top)) if same else ()
            raise self._refuse(reason, action, detail, deciding)

    def _may_go_out(self, action: Play, combo: Combo) -> Combo:
        """*combo*, unless it empties the hand in a way the table forbids (§12.12)."""
        turns = self._context.turns
        if (
            turns.limits_going_out
            and combo._mask == self._masks[action.player]
            and not answers.may_go_out_with(turns, self.rules, combo)
        ):
            raise self._refuse(
                IllegalReason.CANNOT_GO_OUT,
                action,
                "this table forbids going out with a 2 or a bomb",
            )
        return combo

    def _not_your_turn(
        self, action: Action, *, jumping_in: bool = False
    ) -> IllegalPlayError:
        # a combination the table may not jump in with: the jump-in rule refuses
        rule = "d-15" if jumping_in else None
        if self.locked >> action.player & 1:
            return self._refuse(
                IllegalReason.LOCKED_OUT,
                action,
                f"player {action.player} passed in this trick",
                rule=rule,
            )
        return self._refuse(
            IllegalReason.NOT_YOUR_TURN,
            action,
            f"player {self.to_act} is to act",
            rule=rule,
        )

    def _not_held(self, action: Play, player: int) -> IllegalPlayError:
        """The refusal of cards *player* does not hold, or names more often than held."""
        held = self.hands[player]
        missing = action.cards - held
        absent = Hand.from_cards(card for card in missing if card not in held)
        if absent:
            return self._refuse(
                IllegalReason.CARDS_NOT_IN_HAND,
                action,
                f"player {player} holds {held}",
                (str(absent),),
            )
        repeated = " ".join(str(card) for card in dict.fromkeys(missing))
        return self._refuse(
            IllegalReason.CARD_REPEATED,
            action,
            f"{repeated} is named more often than player {player} holds it",
            (repeated,),
        )

    def _first_lead_rule(self) -> str:
        """The section that fixes this first lead: §2.4, D-4, §5.3 (Vietcong) or D-16."""
        if str(self.must_include) != "3s":
            return "d-4"  # 3♠ was not dealt: the lowest card dealt
        setup = self.setup
        if setup.first_game:
            return "rules-2-4"
        if setup.after_instant_win:
            return "d-16"
        return "rules-5-3"  # every game, as Vietcong

    # -- transitions --------------------------------------------------------------

    def _order_from(self, player: int) -> tuple[int, ...]:
        """Every seat in play direction, starting with *player*."""
        return self._context.orders[player]

    def seats_after(self, player: SupportsIndex) -> tuple[int, ...]:
        """The other seats in play direction after *player* (RULES §2.1, §6.1).

        Example:
            >>> from tienlen import POKER
            >>> GameState.deal(POKER, 4, seed=1).seats_after(1)  # counterclockwise
            (0, 3, 2)

        Raises:
            InvalidArgumentError: *player* is not at the table.
            TypeError: *player* is not an ``int``.
        """
        return self._context.seating.seats_after(self._seat(player))

    @property
    def rotted(self) -> tuple[int, ...]:
        """The players who rotted (stuck leading with no play, RULES §12.12), in order.

        Example:
            >>> import attrs
            >>> from tienlen import CLASSIC
            >>> rules = attrs.evolve(CLASSIC, name="no-2-out", no_going_out_with_two=True)
            >>> state = GameState.from_hands(["3s 2h", "4d 5d", "6c 7c"], rules)
            >>> state = state.play("3s").pass_turn().pass_turn()  # 0 leads with only 2h
            >>> state.rotted, state.to_act
            ((0,), 1)
        """
        return tuple(p for p in self._bottom if p not in self.frozen)

    # -- text ---------------------------------------------------------------------

    def _repr_svg_(self) -> str:
        """The table as an SVG picture, for Jupyter (see `tienlen.svg.state`)."""
        from tienlen import svg  # noqa: PLC0415  # svg imports this module

        return svg.state(self)

    def notation(self) -> str:
        """This position as one line of text (`tienlen.notation`, docs/notation.md).

        `from_notation` reads it back to an equal state, which plays on the same.

        Raises:
            NotationError: the rule set holds code (a custom policy), not settings.

        Example:
            >>> from tienlen import CLASSIC
            >>> GameState.from_hands(["3s 7h", "4d"], CLASSIC).notation()
            'tienlen 1; rules classic; hands 3s 7h / 4d; to 0; first 3s'
        """
        from tienlen import notation  # noqa: PLC0415  # notation imports this module

        return notation.write(self)

    @classmethod
    def from_notation(cls, text: str) -> GameState:
        """The state a `GameState.notation` line describes (a puzzle, a bug report).

        Its history starts empty; its `setup` keeps the line (`tienlen.notation.PositionSetup`).

        Raises:
            NotationError: malformed text, or a position no game reaches; the error
                names the field and the character.
            TypeError: *text* is not a ``str``.

        Example:
            >>> state = GameState.from_notation("tienlen 1; rules classic; hands 7h / 4d; played 3s / -; to 1; top 3s by 0")
            >>> [str(action) for action in state.legal_actions()]
            ['4d', 'pass']
        """
        from tienlen import notation  # noqa: PLC0415  # notation imports this module

        return notation.read(text)

    def __getstate__(self) -> dict[str, object]:
        """Pickle the fields, the history as a flat tuple (no deep nesting to recurse)."""
        fields = fields_of(self)
        del fields["_serial"]
        fields["_top_combo"] = None  # built again on demand
        fields["_listed"] = None
        fields["_log"] = self.history
        return fields

    def __setstate__(self, fields: dict[str, object]) -> None:
        """Unpickle with a fresh trust token of this process (see `Play`)."""
        log: Log = None
        for action in fields["_log"]:  # type: ignore[attr-defined]  # a flat tuple
            log = (log, action)
        self._fill({**fields, "_log": log, "_serial": TOKENS.next(), "_listed": None})

    def __copy__(self) -> GameState:
        """The state itself: it is immutable."""
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> GameState:
        """The state itself: it is immutable (and its history may be long)."""
        return self

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


@functools.cache
def _every_combination() -> Tables:
    """Tables that list every combination a hand holds, of any shape and rank."""
    codes = dict.fromkeys(STRUCTURES.values(), _bits.RANKS - 1)
    return Tables(codes, codes, lambda _: {})


def _may_lead(rules: RuleSet, combo: Combo) -> bool:
    """Whether *combo* may be led: per shape for a `BaseRules` (`BaseRules.may_lead`).

    Per shape, because ``bombs_may_lead=False`` bars a kind's bomb lengths only (a
    run of three triples that is a bomb, not a run of four that is none: RULES
    §12.1, §12.14, D-25), as the compiled lead lists do. Another rule set answers
    per kind (`RuleSet.is_leadable`).
    """
    if isinstance(rules, BaseRules):
        return rules.may_lead(combo.shape)
    return rules.is_leadable(combo.kind)


def _lead_rule(rules: RuleSet, combo: Combo) -> str:
    """The section that forbids leading *combo*: D-13, §12.1, D-25 or §11.

    D-13 for slams (consecutive quads), §12.1 for a kind its setting bars
    (``bombs_may_lead`` for consecutive pairs, ``four_of_a_kind_may_lead``), D-25 for
    another bomb that ``bombs_may_lead=False`` bars (a five of a kind or a run of
    triples the table makes one, RULES §12.14), §11 for a custom rule set's own reason.
    """
    lead = KINDS[combo.kind.value].lead
    if not isinstance(rules, BaseRules):
        return "rules-11"
    if lead is False:
        return "d-13"  # consecutive quads are slams only
    if isinstance(lead, str) and not getattr(rules, lead):
        return "rules-12-1"  # bombs_may_lead or four_of_a_kind_may_lead is off
    if rules._barred_bomb(combo.shape):
        return "d-25"  # a bomb, and bombs_may_lead is off
    return "rules-12-1"  # a subclass's own `is_leadable`


_SINGLE_CODE: Final = shape_code(SINGLE, 1)


def mask_index(mask: object) -> int:
    """*mask* as a plain int: any integer (`operator.index`) but a ``bool``, else `TypeError`.

    Example:
        >>> mask_index(5)
        5
        >>> mask_index(True)
        Traceback (most recent call last):
        ...
        TypeError: a card mask is an int, got True
    """
    if isinstance(mask, bool) or not isinstance(mask, SupportsIndex):
        msg = f"a card mask is an int, got {mask!r}"
        raise TypeError(msg)
    return operator.index(mask)


def _annotated_fields(cls: type) -> tuple[str, ...]:
    """The fields *cls* annotates in its body, in order.

    Pure, its ``__annotations__``; compiled, mypyc keeps no annotations but lays out
    an attribute for each (``__mypyc_attrs__``, in the same order).

    Example:
        >>> _annotated_fields(GameState)[:4]
        ('rules', '_masks', 'dealt', 'to_act')
    """
    names = tuple(getattr(cls, "__annotations__", {}))
    return names or tuple(getattr(cls, "__mypyc_attrs__", ()))


FIELDS: Final[tuple[str, ...]] = _annotated_fields(GameState)
"""Every field of a `GameState`, in the order of its annotations (derived from them)."""
DEFAULTS: Final[Mapping[str, object]] = {
    "_top": 0, "_top_mask": 0, "_top_combo": None, "last_player": None,
    "_beaten": None, "_turn": 0, "locked": 0, "out": 0, "finish_order": (),
    "frozen": (), "_bottom": (), "required": 0, "may_decline": False, "chop": None,
    "items": (), "result": None, "is_over": False, "_log": None, "_serial": 0,
    "_listed": None,
}  # fmt: skip
"""The fields of a fresh deal that have defaults: no trick, nobody out, no score."""


def _compiled() -> bool:
    """Whether this module runs compiled (mypyc): its functions are not Python's."""
    return not isinstance(_compiled, FunctionType)


COMPILED: Final = _compiled()
"""Whether `GameState` is a compiled class (the compiled build)."""


def _frozen(_state: object, _name: str, _value: object = None) -> None:
    """Setting or deleting a field of a state: refused (the pure build's guard)."""
    raise FrozenInstanceError


if not COMPILED:  # compiled, its `Final` fields are read-only from Python already
    setattr(GameState, "__setattr__", _frozen)  # noqa: B010  # mypyc: no class writes
    setattr(GameState, "__delattr__", _frozen)  # noqa: B010


# --- The one transition -------------------------------------------------------
# The engine's one transition: the state after an action (RULES §1.5, §2–§6).
#
# Every way to act (`GameState.apply`, `GameState.apply_mask`, ``play``, ``pass_turn``,
# notation and record replays, search rollouts and the RL environments, which call
# those) ends in `after`: *player* plays the cards of *mask*, a pass being mask 0. It
# trusts its input: `GameState.apply` checks what it is handed (the legality check is
# the one door for unchecked input) unless the state itself listed it.
#
# A successor is a copy of its state with what the action changed. `draft` copies a
# state into a writable draft (the field list written out, checked against the
# annotations of `GameState` by a test); `seal` makes the draft a finished `GameState`
# with a fresh trust token. `from_fields` is the door for code outside the
# transitions (`tienlen.notation`) that builds a state from its fields by name.

_new: Final = object.__new__
_SINGLE_KEY: Final = shape_code(SINGLE, 1) << 6
_LOW_HALF: Final = _bits.LOW_HALF
_THREE_OF_SPADES: Final = 1
"""The mask of 3♠, card 0: only its first lead may be declined (RULES §3.3)."""
_TOKEN_PREFIX: Final = TOKENS.prefix
_TOKEN_COUNT: Final = TOKENS.count
_FIELD_NAMES: Final = frozenset(FIELDS)


# -- the one transition -------------------------------------------------------------


def after(
    state: GameState,
    player: int,
    mask: int,
    action: Action | None = None,
    key: int = 0,
) -> GameState:
    """The state after *player* plays *mask* (0: passes), an action known to be legal.

    Catches, going out, then who acts, looked up in the game's `TurnTable`
    (`tienlen.engine.turns`): RULES §1.5, §3.3, §6.6. *action* is what the history
    records (``None``: the action is recorded by its mask and built when
    `GameState.history` is read); *key* is the combination's `structural_key` when
    the caller has it (0: computed here).

    Example:
        >>> from tienlen import CLASSIC, GameState, Hand
        >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
        >>> nxt = after(state, 0, Hand.parse("3s").mask)
        >>> str(nxt.top), nxt.to_act, after(nxt, 1, 0).to_act, nxt.history
        ('3s', 1, 0, (Play(player=0, cards=Hand.parse('3s')),))
    """
    if not mask:
        return _after_pass(state, player, action)
    context = state._context
    if not key:
        key = (  # `structural_key`, inlined for a single card
            _SINGLE_KEY | mask.bit_length() - 1
            if not mask & (mask - 1)
            else structural_key(mask)
        )
    masks = list(state._masks)
    held = masks[player]
    left = held ^ mask if held <= _LOW_HALF else _bits.difference(held, mask)
    masks[player] = left
    new = draft(state)
    new._masks = tuple(masks)
    new._top = key
    new._top_mask = mask
    new._top_combo = None
    new.last_player = player
    new._log = (state._log, mask << 4 | player if action is None else action)
    if state.required:  # the first lead is made (RULES §2.4)
        new.required = 0
        new.may_decline = False
    if context.remembers_beaten:  # RULES §12.10
        new._beaten = state.last_player
    if (
        state._top
        and context.scores_catches
        and context.is_catch(mask, key, state._top_mask, state._top)
    ):
        new.chop, new.items = _scored_catch(state, player, goes_out=not left)
    question = acting(state._turn, player)
    if context.reads:  # the facts of the play the turn policy reads (§12.13)
        question |= context.play_facts(mask, key, state._top_mask, state._top)
    if not left:
        out = _going_out(state, player, masks, new)
        question = with_out(question, out)
        if answers.is_over(context.turns, len(masks), out, len(new.finish_order)):
            new.locked = context.turn_table.locks_after_play(question)
            return _finished(build(new), player)
    nxt, locked, ends, turn = context.turn_table.plays[question]
    if ends:
        return _new_trick(state, nxt, turn, new.chop, new.items, new)
    new.to_act = nxt
    new.locked = locked
    new._turn = turn
    return seal(new)


def _after_pass(state: GameState, player: int, action: Action | None) -> GameState:
    """`after` for a pass by *player* (RULES §1.5.2-§1.5.4): who acts, from the table."""
    context = state._context
    nxt, locked, ends, turn = context.turn_table.passes[state._turn]
    new = draft(state)
    new._log = (state._log, PASSES[player] if action is None else action)
    if ends:
        return _new_trick(state, nxt, turn, state.chop, state.items, new)
    new.to_act = nxt
    new.locked = locked
    new._turn = turn
    if state.last_player is None:  # the first lead declined (RULES §3.3, D-6)
        new.required = 0
        new.may_decline = False
        if context.limits_going_out:  # the new leader may be stuck (§12.12)
            return _rot_if_stuck(seal(new))
    return seal(new)


def _going_out(state: GameState, player: int, masks: list[int], new: GameState) -> int:
    """*player* played their last card (RULES §1.5.5): record it in *new*.

    On first place the scorer may freeze players (RULES §6.6.3). Returns the new
    mask of players out of the game.
    """
    out = state.out | 1 << player
    finish_order = (*state.finish_order, player)
    new.finish_order = finish_order
    if len(finish_order) == 1 and state._context.freezes:
        frozen, paid = _first_out(state, player, masks, out)
        new.items = (*new.items, *paid)
        new.frozen = frozen
        new._bottom = (*state._bottom, *reversed(frozen))
        for victim in frozen:
            out |= 1 << victim
    new.out = out
    return out


def _scored_catch(
    state: GameState, player: int, *, goes_out: bool
) -> tuple[ChopChain | None, tuple[ScoreItem, ...]]:
    """The chain and items after *player* catches the top (RULES §6.6.2)."""
    top = state.top
    victim = state.last_player
    if top is None or victim is None:  # pragma: no cover - a catch lands on a top
        raise InvalidStateError("a catch needs a combination to catch")
    catch = Catch(
        catcher=player,
        victim=victim,
        caught=top,
        victim_went_out=not state._masks[victim],
        catcher_goes_out=goes_out,
    )
    context = state._context
    chop, paid = answers.on_catch(
        context.scorer, state.rules, catch, state.chop, state.players
    )
    return chop, (*state.items, *paid)


def _first_out(
    state: GameState, winner: int, masks: list[int], out: int
) -> tuple[tuple[int, ...], tuple[ScoreItem, ...]]:
    """The scorer's frozen players and their items when *winner* takes first place."""
    order = [p for p in state._order_from(winner) if p == winner or not out >> p & 1]
    hands = tuple(map(hand_of, masks))
    scorer = state._context.scorer
    return answers.on_first_out(scorer, state.rules, order, hands, state.dealt)


def _new_trick(
    state: GameState,
    leader: int,
    turn: int,
    chop: ChopChain | None,
    items: tuple[ScoreItem, ...],
    new: GameState,
) -> GameState:
    """The successor *new* (a copy of every field) with the trick ended.

    The pile is cleared, its chain settled, and *leader* leads (RULES §1.5.4, §6.6.2);
    *turn* is the new position's `turn_key`.
    """
    if chop is not None:
        scorer = state._context.scorer
        items = (*items, *answers.on_trick_end(scorer, chop, state.players))
    new.to_act = leader
    new._top = 0
    new._top_mask = 0
    new._top_combo = None
    new.last_player = None
    new._beaten = None
    new.locked = 0
    new._turn = turn
    new.chop = None
    new.items = items
    done = seal(new)
    return _rot_if_stuck(done) if state._context.limits_going_out else done


def _rot_if_stuck(state: GameState) -> GameState:
    """A leader with no play that may be played rots (RULES §12.12).

    They take the lowest place still free at once and the next player in play
    direction with cards leads (freely: a first-lead card is no longer required).
    Only tables that forbid some ways of going out can leave a leader stuck.
    """
    player = state.to_act
    if player is None or state._top or state.legal_actions():
        return state
    new = draft(state)
    new.out = out = state.out | 1 << player
    new._bottom = (*state._bottom, player)
    turns = state._context.turns
    if answers.is_over(turns, state.players, out, len(state.finish_order)):
        return _finished(build(new), player)
    new.to_act = state._context.seating.next_to_act(player, None, out)
    new.locked = new.required = 0
    new.may_decline = False
    return _rot_if_stuck(build(new))


def _finished(state: GameState, last_out: int) -> GameState:
    """The game is over: the scorer settles it (RULES §2.5, §4.4, §6.6)."""
    context = state._context
    hands = state.hands
    out = state.out
    remaining = [p for p in state._order_from(last_out) if not out >> p & 1]
    order = answers.places(
        context.turns, state.finish_order, remaining, hands, state._bottom[::-1]
    )
    finish = Finish(
        order=order,
        hands=hands,
        frozen=state.frozen,
        items=state.items,
        chop=state.chop,
    )
    return _with_result(state, answers.settle(context.scorer, state.rules, finish))


def _with_result(state: GameState, result: GameResult) -> GameState:
    """*state*, ended with *result*: nobody acts any more."""
    new = draft(state)
    new.to_act = new.chop = None
    new.result = result
    new.is_over = True
    new.may_decline = False
    new.required = 0
    return build(new)


# -- the first state ------------------------------------------------------------------


def begin(rules: RuleSet, masks: list[int], setup: GameSetup) -> GameState:
    """The first state: fix the leader and the card the lead must include.

    RULES §2.4, §5.3, §6.5, D-4.

    Raises:
        InvalidStateError: a later game without a leader, or a wrong leader.

    Example:
        >>> from tienlen import CLASSIC, Hand
        >>> setup = GameSetup.checked(2, True, None, False, 1)
        >>> masks = [Hand.parse("4s 9h").mask, Hand.parse("3s 8c").mask]
        >>> state = begin(CLASSIC, masks, setup)
        >>> state.to_act, str(state.must_include)
        (1, '3s')
    """
    leader = setup.leader
    if not rules.lead_must_include(
        first_game=setup.first_game, after_instant_win=setup.after_instant_win
    ):
        if leader is None:
            msg = "a later game needs its leader (the previous winner, RULES §2.4)"
            raise InvalidStateError(msg)
        return start(rules, masks, leader=leader, required=0, setup=setup)
    card, holder = lowest_holder(rules, masks, setup.dealer)
    if leader is not None and leader != holder:
        msg = f"player {holder} holds {DECK[card]} and must lead (RULES §2.4), not player {leader}"
        raise InvalidStateError(msg)
    return start(rules, masks, leader=holder, required=1 << card, setup=setup)


def start(
    rules: RuleSet,
    masks: list[int],
    *,
    leader: int,
    required: int,
    setup: GameSetup,
) -> GameState:
    """The first state, *leader* to lead: instant wins at the deal (RULES §5.4, §6.7), then play.

    Example:
        >>> from tienlen import CLASSIC, Hand
        >>> setup = GameSetup.checked(2, False, 0, False, 1)
        >>> masks = [Hand.parse("4s 9h").mask, Hand.parse("3s 8c").mask]
        >>> start(CLASSIC, masks, leader=0, required=0, setup=setup).to_act
        0
    """
    context = context_of(rules, len(masks))
    hands = tuple(map(hand_of, masks))
    fields = {
        "rules": rules,
        "_masks": tuple(masks),
        "dealt": hands,
        "to_act": leader,
        "required": required,
        "may_decline": required == _THREE_OF_SPADES and rules.may_decline_first_lead,
        "setup": setup,
        "_context": context,
    }
    state = from_fields(fields)
    for player in context.seating.order_from(leader):
        win = context.instant_win(masks[player], first_game=setup.first_game)
        if win is not None:
            order = state._order_from(player)
            paid = answers.instant_win_result(context.scorer, rules, order, win)
            return _with_result(state, paid)
    return _rot_if_stuck(state) if context.limits_going_out else state


def lowest_holder(rules: RuleSet, masks: list[int], dealer: int) -> tuple[int, int]:
    """The first-lead card (3♠, else the lowest dealt, D-4) and who leads with it.

    With two decks and two holders, the first in play direction from the dealer leads.

    Example:
        >>> from tienlen import CLASSIC, Hand
        >>> lowest_holder(CLASSIC, [Hand.parse("5s").mask, Hand.parse("4d").mask], 0)
        (6, 1)
    """
    union = 0
    for mask in masks:
        union |= mask
    card = ((union & _LOW_HALF) & -(union & _LOW_HALF)).bit_length() - 1
    seating = Seating.of(rules.direction.value, len(masks))
    for player in (*seating.seats_after(dealer), dealer):
        if masks[player] >> card & 1:
            return card, player
    msg = "nobody holds a card"
    raise InvalidStateError(msg)


def spare_starter(rules: RuleSet, masks: list[int], setup: GameSetup) -> int:
    """Kenneth Lo's three-player starter, decided on the 51 dealt cards (RULES §4.1, D-8).

    The first game: the holder of 3♠, or of the lowest dealt card; later: the leader.

    Raises:
        InvalidStateError: a later game without a leader, or a wrong leader.

    Example:
        >>> from tienlen import KENNETH_LO, Hand
        >>> setup = GameSetup.checked(3, True, None, False, 0)
        >>> masks = [Hand.parse(text).mask for text in ("5s", "4d", "3s")]
        >>> spare_starter(KENNETH_LO, masks, setup)
        2
    """
    if not setup.first_game:
        if setup.leader is None:
            msg = "a later game needs its leader (the previous winner, RULES §4.1)"
            raise InvalidStateError(msg)
        return setup.leader
    card, holder = lowest_holder(rules, masks, setup.dealer)
    if setup.leader is not None and setup.leader != holder:
        msg = f"player {holder} holds {DECK[card]} and starts (RULES §4.1), not player {setup.leader}"
        raise InvalidStateError(msg)
    return holder


# -- drafts: the field copy -------------------------------------------------------------


def _blank_class() -> type[GameState]:
    """What a draft is made of: a `GameState` the engine may write.

    Compiled, a `GameState`'s `Final` fields are read-only from Python only: the
    compiled engine writes them directly, so a draft is a blank `GameState`. Pure, a
    state refuses every write, so a draft is a `Draft`: a subclass that adds no slot
    and writes at C speed (``object.__setattr__``), made a `GameState` again by a
    class swap in `seal`. Copying a state into a draft, changing what an action
    changes and sealing it is about three times cheaper than writing a frozen
    class's fields one ``object.__setattr__`` call at a time (measured in issue 21).
    """
    if COMPILED:
        return GameState
    writable = {"__setattr__": object.__setattr__, "__delattr__": object.__delattr__}
    return type("Draft", (GameState,), {"__slots__": (), **writable})


Draft: Final = _blank_class()
"""The class of a state being built (`GameState` itself in the compiled build)."""
_DRAFTS_SWAP: Final = Draft is not GameState
"""Whether `seal` swaps a draft's class (the pure build)."""


def draft(state: GameState) -> GameState:
    """A draft holding every field of *state* but its token and caches.

    Every field the annotations of `GameState` list is written here by name, in
    their order: copied, but the token (`seal` gives a fresh one) and the listing
    cache (emptied). The field list written out, because the move loop runs it on
    every action; a test checks it against the annotations.
    """
    new = GameState() if COMPILED else Draft()  # compiled: the native constructor
    new.rules = state.rules
    new._masks = state._masks
    new.dealt = state.dealt
    new.to_act = state.to_act
    new._top = state._top
    new._top_mask = state._top_mask
    new._top_combo = state._top_combo
    new.last_player = state.last_player
    new._beaten = state._beaten
    new._turn = state._turn
    new.locked = state.locked
    new.out = state.out
    new.finish_order = state.finish_order
    new.frozen = state.frozen
    new._bottom = state._bottom
    new.required = state.required
    new.may_decline = state.may_decline
    new.chop = state.chop
    new.items = state.items
    new.result = state.result
    new.is_over = state.is_over
    new._log = state._log
    new.setup = state.setup
    new._context = state._context
    new._listed = None
    return new


def seal(new: GameState) -> GameState:
    """*new*, a draft, made a `GameState` with a fresh trust token (`TOKENS.next`, inlined).

    Its `turn_key` must be right already (`build` derives it).
    """
    for count in _TOKEN_COUNT:  # `next(_TOKEN_COUNT)`: one C call when compiled
        new._serial = _TOKEN_PREFIX[0] | count
        break
    if _DRAFTS_SWAP:
        setattr(new, "__class__", GameState)  # noqa: B010  # the draft is done
    return new


def build(new: GameState) -> GameState:
    """*new*, whose fields were set one by one, sealed with its `turn_key` derived."""
    new._turn = turn_key(new.to_act, new.last_player, new.locked, new.out, new._beaten)
    return seal(new)


def from_fields(fields: Mapping[str, object]) -> GameState:
    """A `GameState` holding *fields* (every field of a state by name), without checks.

    The engine's door for building a state from its parts (`tienlen.notation` reads a
    position into fields, `tienlen.engine.positions` checks it). A field with a
    default may be missing. The `turn_key` is derived and a fresh trust token given;
    neither the trust token nor the listing cache (``_listed``) is taken from *fields*.

    Raises:
        InvalidStateError: *fields* names a field a state does not have.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.from_hands(["3s 7h", "4d"], CLASSIC)
        >>> from_fields(fields_of(state)) == state
        True
    """
    if not fields.keys() <= _FIELD_NAMES:
        msg = f"a GameState has no field {min(fields.keys() - _FIELD_NAMES)!r}"
        raise InvalidStateError(msg)
    new = GameState() if COMPILED else Draft()
    new._fill(fields)
    new._listed = None  # nor the token: `build` gives a fresh one
    return build(new)


def fields_of(state: GameState) -> dict[str, object]:
    """Every field of *state* by name (what `from_fields` takes back).

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> fields = fields_of(GameState.from_hands(["3s 7h", "4d"], CLASSIC))
        >>> fields["to_act"], fields["required"]
        (0, 1)
    """
    return {name: getattr(state, name) for name in FIELDS}


def with_fields(state: GameState, changes: Mapping[str, object]) -> GameState:
    """A copy of *state* with the fields *changes* names changed (no checks).

    Raises:
        InvalidStateError: *changes* names a field a state does not have.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.from_hands(["3s 7h", "4d"], CLASSIC)
        >>> with_fields(state, {}) == state, with_fields(state, {"to_act": 1}).to_act
        (True, 1)
    """
    return from_fields({**fields_of(state), **changes})
