"""Players (bots): what a player may see, the `Player` protocol, two bots and `play_game`.

A bot is any object with an ``act(observation, actions, rng)`` method (`Player`). It
sees an `Observation` (its own hand and everything public at the table, never another
player's cards) and the legal actions available to its seat, and returns one of them.
Randomness comes from the *rng* the caller passes, so bots stay stateless and
picklable and a game is reproducible from its seed (STYLE R33).

`play_game` referees a game between bots with the engine (`GameState.apply`), asking
Poker players about jump-ins out of turn (RULES §6.4, D-15). `RandomPlayer` and
`GreedyPlayer` are reference bots; `simulate` plays many games between them.

Example:
    >>> import random
    >>> from tienlen import CLASSIC, GameState
    >>> rng = random.Random(3)
    >>> state = GameState.deal(CLASSIC, players=4, seed=rng)
    >>> bots = [GreedyPlayer(), RandomPlayer(), RandomPlayer(), RandomPlayer()]
    >>> final = play_game(state, bots, rng)
    >>> final.is_over, sorted(final.result.finish_order)
    (True, [0, 1, 2, 3])

.. versionadded:: 0.1
"""

from __future__ import annotations

import math
import operator
import pickle
import random
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Final, Protocol

import attrs

from tienlen._checks import check_count
from tienlen.actions import PASSES, Actions, make_play
from tienlen.cards import Card, Hand, Rank
from tienlen.combos import Combo, ComboKind, Plays, Shape
from tienlen.engine import bits as _bits
from tienlen.engine.kinds import KINDS
from tienlen.engine.movegen import Leads
from tienlen.engine.rulebook import overrides_rule_hooks
from tienlen.engine.shapes import structural_key
from tienlen.errors import InvalidArgumentError, TienLenError
from tienlen.game import Action, GameState, Pass, Play, _Log, _unwound
from tienlen.rules import CLASSIC, RuleSet
from tienlen.rules.base import BaseRules, Direction

__all__ = [
    "GreedyPlayer",
    "Observation",
    "Player",
    "PlayerError",
    "RandomPlayer",
    "play_game",
    "poll_jump_ins",
]


def _ints(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


def _int_set(values: Iterable[int]) -> frozenset[int]:
    return frozenset(values)


def _actions(values: Iterable[Action]) -> tuple[Action, ...]:
    return tuple(values)


class _Public:
    """The public record an observation reads lazily: the actions, as the state keeps them.

    Every observation of a game shares its state's log (nothing is copied per action);
    `Observation.history` and `Observation.played` are computed from it when first read
    and kept here, one record per observation (built without ``__init__``, only
    ``_log`` set: `_observation`).
    """

    __slots__ = ("_history", "_log", "_played")

    _log: _Log
    _history: tuple[Action, ...]
    """Unset until first read."""
    _played: Hand
    """Unset until first read."""

    def history(self) -> tuple[Action, ...]:
        """Every action, first first."""
        try:
            return self._history
        except AttributeError:
            self._history = history = _unwound(self._log)
            return history

    def played(self) -> Hand:
        """Every card played: the cards of every `Play` of the history."""
        try:
            return self._played
        except AttributeError:
            mask = 0
            for action in self.history():
                if type(action) is Play:
                    mask |= action.cards.mask
            self._played = played = Hand(mask)
            return played


_LAZY: Final = {"history": _Public.history, "played": _Public.played}
"""The fields an observation computes from its `_Public` record when first read."""


@attrs.frozen(kw_only=True, slots=False)
class Observation:
    """What one seat may see of a game: its own hand and everything played in public.

    It never holds another player's cards, nor the `GameState`: only card counts for
    the others. Build one with `Observation.of`; `play_game` builds one for every
    decision it asks of a `Player`, cheaply: `history` and `played` are computed from
    the game's shared record of actions only when first read.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.from_hands(["3s 7h", "4d 9c", "5c Jd"], CLASSIC).play("3s")
        >>> seen = Observation.of(state, 1)
        >>> str(seen.hand), str(seen.top), seen.card_counts, str(seen.played)
        ('4d 9c', '3s', (1, 2, 2), '3s')
        >>> seen.to_act, seen.jumping_in, seen.fewest_opponent_cards
        (1, False, 1)

    .. versionadded:: 0.1
    .. versionchanged:: 0.2
       The `first_game` and `after_instant_win` fields.
    """

    seat: int
    """The observing player's index."""
    hand: Hand
    """The observing player's own cards."""
    rules: RuleSet
    """The variant being played."""
    players: int
    """How many players sit at the table."""
    direction: Direction
    """Play direction (RULES §2.1, §6.1)."""
    to_act: int | None
    """Whose turn it is; ``None`` once the game is over."""
    jumping_in: bool
    """Whether the seat is asked out of turn, about a Poker jump-in (RULES §6.4)."""
    top: Combo | None
    """The combination to beat; ``None`` when the player to act leads."""
    last_player: int | None
    """Who played `top`."""
    passed: frozenset[int] = attrs.field(converter=_int_set)
    """The players locked out of the current trick (RULES §1.5.3)."""
    out: frozenset[int] = attrs.field(converter=_int_set)
    """The players out of the game, finished or frozen (RULES §1.5.5, §6.6.3)."""
    finish_order: tuple[int, ...] = attrs.field(converter=_ints)
    """The players who have gone out, first out first."""
    frozen: tuple[int, ...] = attrs.field(converter=_ints)
    """Poker players frozen out when first place was taken (RULES §6.6.3)."""
    card_counts: tuple[int, ...] = attrs.field(converter=_ints)
    """How many cards each player holds, by player index (the seat's own included)."""
    played: Hand
    """Every card played so far in this game."""
    history: tuple[Action, ...] = attrs.field(converter=_actions)
    """Every action of the game so far, in order (as in `GameState.history`)."""
    must_include: Card | None
    """The card the seat's lead must include (3♠ or the lowest dealt card), if any."""
    may_decline: bool
    """Whether the seat may decline the first lead by passing (RULES §3.3, D-6)."""
    may_continue: bool
    """Whether the seat may continue its own trick or close it by passing (RULES §3.4)."""
    first_game: bool = True
    """Whether the game is the first of a match (RULES §2.4; `GameState.setup`).

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.deal(CLASSIC, players=4, seed=2, first_game=False)
        >>> Observation.of(state, 0).first_game
        False
    """
    after_instant_win: bool = False
    """Whether the previous game ended by an instant win (D-16; `GameState.setup`).

    Example:
        >>> from tienlen import POKER, GameState
        >>> state = GameState.deal(POKER, players=4, seed=2, first_game=False, after_instant_win=True)
        >>> seen = Observation.of(state, 0)
        >>> seen.first_game, seen.after_instant_win
        (False, True)
    """

    if not TYPE_CHECKING:  # hidden from type checkers: a typo stays a typing error

        def __getattr__(self, name: str) -> object:
            """`history` and `played`, computed from the record when first read."""
            lazy = _LAZY.get(name)
            public = self.__dict__.get("_public")
            if lazy is None or public is None:
                msg = f"{type(self).__name__!r} object has no attribute {name!r}"
                raise AttributeError(msg)
            return lazy(public)

    def __getstate__(self) -> dict[str, object]:
        """Pickle and copy every field, `history` as a flat tuple (not the shared record)."""
        return {field.name: getattr(self, field.name) for field in _FIELDS}

    def __setstate__(self, state: dict[str, object]) -> None:
        _set_fields(self, "__dict__", state)

    @classmethod
    def of(cls, state: GameState, player: int) -> Observation:
        """What *player* may see of *state*.

        A player other than the one to act is observing out of turn (`jumping_in`):
        the only actions it may take then are Poker jump-ins (RULES §6.4).

        Raises:
            InvalidArgumentError: *player* is not at the table.

        Example:
            >>> from tienlen import POKER, GameState
            >>> state = GameState.from_hands(["4s 5s", "3s 9h"], POKER)
            >>> seen = Observation.of(state, 1)
            >>> seen.must_include, seen.card_counts, seen.direction.name
            (Card.parse('3s'), (2, 2), 'COUNTERCLOCKWISE')
        """
        if type(player) is not int or not 0 <= player < state.players:
            msg = f"no player {player!r} at a {state.players}-player table"
            raise InvalidArgumentError(msg)
        return _observe(state, player, _counts(state))

    @property
    def is_leading(self) -> bool:
        """Whether the seat leads, being to act with nothing to beat.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.from_hands(["3s 7h", "4d 9c"], CLASSIC)
            >>> Observation.of(state, 0).is_leading, Observation.of(state.play("3s"), 1).is_leading
            (True, False)
        """
        return self.top is None and self.seat == self.to_act

    @property
    def opponents(self) -> tuple[int, ...]:
        """The other players still in the game, in play direction from the seat.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.from_hands(["3s", "4d 9c", "5c Jd", "6h"], CLASSIC)
            >>> Observation.of(state.play("3s"), 2).opponents  # seat 0 went out
            (3, 1)
        """
        step = self.direction.value
        seats = ((self.seat + step * i) % self.players for i in range(1, self.players))
        return tuple(seat for seat in seats if seat not in self.out)

    @property
    def fewest_opponent_cards(self) -> int | None:
        """The smallest hand among the opponents still in the game (``None``: no one).

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.from_hands(["3s 4s", "4d 9c 2h", "5c"], CLASSIC)
            >>> Observation.of(state, 0).fewest_opponent_cards
            1
        """
        counts = [self.card_counts[seat] for seat in self.opponents]
        return min(counts) if counts else None


_FIELDS: Final = attrs.fields(Observation)


def _observe(state: GameState, player: int, counts: tuple[int, ...]) -> Observation:
    """`Observation.of` with the card counts known."""
    return _observation(_game_fields(state), state, player, counts)


def _game_fields(state: GameState) -> dict[str, object]:
    """The fields of every observation of *state*'s game, those fixed for the game set.

    A test checks these keys, and the lazy fields (`_LAZY`), are exactly the attrs
    fields.
    """
    rules = state.rules
    setup = state.setup
    fields = dict.fromkeys(_EAGER)
    fields["rules"] = rules
    fields["players"] = len(state._masks)
    fields["direction"] = rules.direction
    fields["first_game"] = setup.first_game
    fields["after_instant_win"] = setup.after_instant_win
    return fields


def _observation(
    game: dict[str, object], state: GameState, player: int, counts: tuple[int, ...]
) -> Observation:
    """What *player* sees of *state*, from its *game*'s fixed fields (`_game_fields`).

    Built without attrs' init, from a copy of *game*: `play_game` makes one for
    every decision (hot path).
    """
    fields = game.copy()
    to_act = state.to_act
    acting = player == to_act
    fields["seat"] = player
    fields["hand"] = hand = _new(Hand)  # `actions.hand_of`, inlined
    _set_hand_mask(hand, state._masks[player])
    fields["to_act"] = to_act
    fields["jumping_in"] = to_act is not None and not acting
    fields["top"] = state.top
    fields["last_player"] = state.last_player
    fields["passed"] = _SEAT_SETS[state.locked]
    fields["out"] = _SEAT_SETS[state.out]
    fields["finish_order"] = state.finish_order
    fields["frozen"] = state.frozen
    fields["card_counts"] = counts
    fields["must_include"] = state.must_include if acting and state.required else None
    fields["may_decline"] = acting and state.may_decline
    fields["may_continue"] = (
        acting and player == state.last_player and state.is_continuing
    )
    fields["_public"] = public = _new(_Public)  # a record with nothing read yet
    public._log = state._log
    new = _new(Observation)
    _set_fields(new, "__dict__", fields)
    return new


_EAGER: Final = (*(f.name for f in _FIELDS if f.name not in _LAZY), "_public")
"""The keys of an observation's ``__dict__``: the eager fields and the lazy record."""
_new: Final = object.__new__
_set_fields: Final = object.__setattr__
_set_hand_mask: Final = Hand.__dict__["_mask"].__set__
_SEAT_SETS: Final = tuple(
    frozenset(seat for seat in range(8) if mask >> seat & 1) for mask in range(256)
)
"""``_SEAT_SETS[mask]``: the seats whose bits are set in *mask* (at most 8 players)."""


class Player(Protocol):
    """A bot: anything with this `act` method plays (a ``typing.Protocol``).

    Keep players stateless and picklable (frozen attrs classes work well): the same
    player object may be asked about several games at once, in other processes.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState
        >>> class Lowest:
        ...     def act(self, observation, actions, rng):
        ...         return actions[0]  # the lowest single, or a pass
        >>> state = GameState.from_hands(["3s 9h", "4d 5c"], CLASSIC)
        >>> [str(action) for action in play_game(state, [Lowest(), Lowest()], random.Random(0)).history]
        ['3s', '4d', '9h']

    .. versionadded:: 0.1
    """

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Choose one of *actions*.

        Args:
            observation: What the seat may see now.
            actions: The legal actions of this seat, never empty. When the seat is
                asked out of turn (``observation.jumping_in``), they are its Poker
                jump-ins plus a `Pass` meaning "do not jump in".
            rng: The only source of randomness a player may use.

        Returns:
            One of *actions* (an equal `Play` or `Pass` is accepted too).

        Example:
            >>> import random
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
            >>> player: Player = RandomPlayer()
            >>> str(player.act(Observation.of(state, 0), state.legal_actions(), random.Random(2)))
            '3s'
        """
        ...


class PlayerError(TienLenError, ValueError):
    """A player failed a decision: it chose an action it was not offered, or it broke.

    `play_game` and `simulate` raise it when a bot raises, returns anything but one of
    the actions it was offered (an illegal action, a non-action, a forged look-alike),
    changes the observation or the actions it was handed, or takes longer than the
    decision's time limit. The bot's own exception, if any, is the ``__cause__``.

    Attributes:
        seat: The seat of the player at fault.
        player: The player object (its ``repr`` once pickled, if it does not pickle).
        action: What it returned (``None`` when it raised; its ``repr`` once pickled,
            if it does not pickle).
        problem: What went wrong, in words.
        batch: The `simulate` batch of the game, ``None`` outside `simulate`.
        game: The game's index within its batch, ``None`` outside `simulate`.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, Pass
        >>> class Stubborn:
        ...     def act(self, observation, actions, rng):
        ...         return Pass(player=observation.seat)
        >>> state = GameState.from_hands(["3s 4s 5s", "5d 6d"], CLASSIC)
        >>> play_game(state, [Stubborn(), Stubborn()], random.Random(0))
        Traceback (most recent call last):
        ...
        tienlen.players.PlayerError: player 0 (Stubborn) chose Pass(player=0), which is not one of its 2 legal actions: '3s', '3s 4s 5s'

    .. versionadded:: 0.1
    .. versionchanged:: 0.2
       Also raised for a bot that raises, mutates its inputs or exceeds the time
       limit; the ``problem``, ``batch`` and ``game`` attributes.
    """

    def __init__(
        self,
        seat: int,
        player: object,
        action: object,
        offered: Sequence[Action] = (),
        *,
        problem: str | None = None,
        batch: int | None = None,
        game: int | None = None,
    ) -> None:
        self.seat = seat
        self.player = player
        self.action = action
        if problem is None:
            shown = ", ".join(repr(str(a)) for a in offered[:8])
            more = ", ..." if len(offered) > 8 else ""
            problem = (
                f"chose {_short_repr(action)}, which is not one of its "
                f"{len(offered)} legal actions: {shown}{more}"
            )
        self.problem = problem
        self.batch = batch
        self.game = game
        where = "" if batch is None else f"batch {batch}, game {game}: "
        super().__init__(f"{where}player {seat} ({type(player).__name__}) {problem}")

    def in_game(self, batch: int, game: int) -> PlayerError:
        """This error, naming the `simulate` *batch* and *game* where it happened.

        Example:
            >>> error = PlayerError(1, None, None, problem="raised KeyError()")
            >>> str(error.in_game(3, 17))
            'batch 3, game 17: player 1 (NoneType) raised KeyError()'
        """
        located = PlayerError(
            self.seat,
            self.player,
            self.action,
            problem=self.problem,
            batch=batch,
            game=game,
        )
        located.__cause__ = self.__cause__
        return located

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Picklable, so that the error travels back from a worker process; a player,
        # an action or a cause that does not pickle travels as its repr.
        return _restore_player_error, (
            self.seat,
            _picklable(self.player),
            _picklable(self.action),
            self.problem,
            self.batch,
            self.game,
            str(self),
            _picklable_cause(self.__cause__),
        )


def _restore_player_error(
    seat: int,
    player: object,
    action: object,
    problem: str,
    batch: int | None,
    game: int | None,
    message: str,
    cause: BaseException | None,
) -> PlayerError:
    """A `PlayerError` rebuilt from its pickled fields."""
    error = PlayerError.__new__(PlayerError)
    Exception.__init__(error, message)
    error.seat = seat
    error.player = player
    error.action = action
    error.problem = problem
    error.batch = batch
    error.game = game
    error.__cause__ = cause
    return error


def _short_repr(value: object, limit: int = 200) -> str:
    """``repr(value)``, cut to *limit* characters; never raises."""
    try:
        text = repr(value)
    except Exception as error:  # noqa: BLE001 - a hostile __repr__ must not escape
        text = f"<{type(value).__name__} whose repr raised {type(error).__name__}>"
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def _picklable(value: object) -> object:
    """*value* if it pickles, else its (short) repr."""
    try:
        pickle.dumps(value)
    except Exception:  # noqa: BLE001 - any failure to pickle means "send the repr"
        return _short_repr(value)
    return value


def _picklable_cause(cause: BaseException | None) -> BaseException | None:
    """*cause* if it pickles and unpickles, else a `RuntimeError` carrying its repr."""
    if cause is None:
        return None
    try:
        pickle.loads(pickle.dumps(cause))  # noqa: S301 - our own bytes
    except Exception:  # noqa: BLE001 - any failure means "send the repr"
        return RuntimeError(_short_repr(cause))
    return cause


class _Referee:
    """What `play_game` keeps for one game: the players, the rng, the time limit.

    It asks a player for each decision and checks the answer (issue 14 §4): a player
    that raises, changes what it was handed, exceeds the time limit or chooses an
    action it was not offered ends the game with a `PlayerError`. What it hands is
    cheap to check by construction: the observation's fields are immutable values in
    one dict, and the actions hold tuples (`Actions._detached`), so comparing before
    and after is a dict compare and a tuple compare of identities.

    Nothing a bot's code is handed reaches another seat's cards (issue 20 item 7): the
    observation holds the seat's own hand and the public record, and the actions
    are a copy detached from the state, holding only the seat's own actions. The
    referee alone keeps the `GameState`.

    The library's own bots (`RandomPlayer`, `GreedyPlayer`, exactly those types) are
    trusted when there is no time limit: they change nothing and choose among the
    actions offered, so they are asked without a snapshot; `RandomPlayer`, which never
    reads its observation, gets none, and `GreedyPlayer` on its own turn a `_Glance` of
    the fields it reads. A bot that raises still ends the game with a `PlayerError`, and
    `GameState.apply` checks whatever it is given.
    """

    __slots__ = ("_blind", "_game", "_limit", "_players", "_rng", "_trusted")

    def __init__(
        self,
        state: GameState,
        players: Sequence[Player],
        rng: random.Random,
        time_limit: float | None,
        *,
        checked: bool = True,
    ) -> None:
        self._players = players
        self._rng = rng
        self._limit = time_limit
        self._game = _game_fields(state)
        self._trusted = tuple(
            not checked or (time_limit is None and type(player) in _LIBRARY_BOTS)
            for player in players
        )
        """Per seat: whether its decisions go unchecked (`_play`'s *checked*)."""
        self._blind = tuple(type(player) is RandomPlayer for player in players)
        """Per seat: whether its player never reads the observation."""

    def turn(self, state: GameState, counts: tuple[int, ...]) -> Action:
        """The action of *state*'s turn: a Poker jump-in, else the player to act's."""
        actions = state.legal_actions()
        seat = state.to_act
        assert seat is not None
        if actions._others:  # somebody may jump in (Poker, RULES §6.4)
            return self._poll(state, actions, counts)
        return self.ask(state, seat, actions, counts)

    def _poll(
        self, state: GameState, actions: Actions, counts: tuple[int, ...]
    ) -> Action:
        """`turn` when other seats may jump in: ask them first (`poll_jump_ins`)."""

        def ask(seat: int, offer: tuple[Action, ...]) -> Action:
            return self.ask(state, seat, offer, counts)

        own, jump_in = _poll(state, actions, ask)
        if jump_in is not None:
            return jump_in
        seat = state.to_act
        assert seat is not None
        return self.ask(state, seat, own, counts)

    def ask(
        self,
        state: GameState,
        seat: int,
        offered: Actions | tuple[Action, ...],
        counts: tuple[int, ...],
    ) -> Action:
        """*seat*'s choice among *offered* in *state*: checked (`decide`), or trusted.

        A trusted bot is handed what it reads: `RandomPlayer` nothing, `GreedyPlayer`
        on its own turn a `_Glance`, any other an `Observation`.
        """
        if not self._trusted[seat]:
            seen = _observation(self._game, state, seat, counts)
            if type(offered) is Actions:
                offered = offered._detached()
            return self.decide(seat, seen, offered, state)
        if self._blind[seat]:
            return _uniform(offered, self._rng)
        player = self._players[seat]
        try:
            if type(player) is GreedyPlayer and seat == state.to_act:
                return player._answer(_Glance(state, seat, counts), offered)
            seen = _observation(self._game, state, seat, counts)
            if type(offered) is Actions:  # a bot's own code runs: no state for it
                offered = offered._detached()
            return player.act(seen, offered, self._rng)
        except Exception as error:
            raise _raised(seat, player, error) from error

    def decide(
        self,
        seat: int,
        seen: Observation,
        offered: Actions | tuple[Action, ...],
        state: GameState,
    ) -> Action:
        """Ask *seat*'s player to choose among *offered*, and check its choice.

        *offered* holds no reference to *state* (`Actions._detached`): the referee
        keeps the state, the player gets only its own view.

        Raises:
            PlayerError: the player raised, changed *seen* or *offered*, took longer
                than the time limit, or chose an action it was not offered.
        """
        player = self._players[seat]
        fields = seen.__dict__.copy()  # immutable values: a shallow copy is a snapshot
        printed = _fingerprint(offered)
        limit = self._limit
        start = elapsed = 0.0
        if limit is not None:
            start = time.perf_counter()
        try:
            choice = player.act(seen, offered, self._rng)
        except Exception as error:
            raise _raised(seat, player, error) from error
        if limit is not None:
            elapsed = time.perf_counter() - start
        if _changed(seen, fields, offered, printed):
            problem = "changed the observation or the actions it was handed"
            raise PlayerError(seat, player, choice, problem=problem)
        if limit is not None and elapsed > limit:
            problem = (
                f"took {elapsed:.3f} s to decide, over the time limit of {limit:g} s"
            )
            raise PlayerError(seat, player, choice, problem=problem)
        if type(choice) is Play:
            if (
                choice._origin == state._serial  # made by the state's legal actions
                and type(choice._player) is int
                and choice._player == seat
                and _listed(choice, offered)  # and not changed since
            ):
                return choice
        elif choice is PASSES[seat] and type(offered) is Actions and offered._pass:
            return choice
        return _resolve(seat, player, choice, offered, state)


def _raised(seat: int, player: Player, error: Exception) -> PlayerError:
    """The `PlayerError` of *seat*'s *player* raising *error* while deciding."""
    return PlayerError(seat, player, None, problem=f"raised {_short_repr(error)}")


def _fingerprint(offered: Actions | tuple[Action, ...]) -> object:
    """What *offered* holds, to compare before and after a player's decision.

    `Actions` are their attributes, and a lazy `Leads` of the move generator the
    lists it holds (counted, as every `Actions` has it: its blocks exist); a tuple (a Poker jump-in offer) is the seat and cards of each of
    its actions.
    """
    if type(offered) is not Actions:
        return tuple(
            (a._player, a._mask) if type(a) is Play else (a, a.player) for a in offered
        )
    printed = _ACTION_FIELDS(offered)
    masks = offered._masks
    if type(masks) is Leads:
        blocks = masks._blocks
        return (
            printed,
            tuple(masks._head),
            masks._hand,
            tuple(masks._found),  # the maximal runs iterating expands
            tuple(blocks),
            masks._len,
            *[tuple(block[1]) for block in blocks],  # each block's rank states
        )
    return printed


_ACTION_FIELDS: Final = operator.attrgetter(*Actions.__slots__)


def _changed(
    seen: Observation,
    fields: dict[str, object],
    offered: Actions | tuple[Action, ...],
    printed: object,
) -> bool:
    """Whether *seen* no longer holds *fields*, or *offered* its fingerprint *printed*.

    Something a player put in their place that cannot even be compared (its
    ``__eq__`` raises) counts as a change.
    """
    try:
        return seen.__dict__ != fields or _fingerprint(offered) != printed
    except Exception:  # noqa: BLE001 - a hostile __eq__ planted by the player
        return True


def _listed(play: Play, offered: Actions | tuple[Action, ...]) -> bool:
    """Whether *play*'s cards are among the plays *offered* lists (for its seat).

    The trust token says a play was made by the state's legal actions, not that the
    player left it as it was: this is what makes a trusted play safe to apply.
    Computed on masks, without building the actions (a lazy `Leads` finds a run by
    its suit digits).
    """
    if type(offered) is not Actions:
        return play in offered  # the offer's plays are fingerprinted unchanged
    mask = play._mask
    if not mask & (mask - 1) and mask & offered._singles:
        return True
    return mask in offered._masks


def _resolve(
    seat: int,
    player: Player,
    choice: object,
    offered: Actions | tuple[Action, ...],
    state: GameState,
) -> Action:
    """*choice*, checked to be one of the offered actions (or equal to one).

    Only a real `Play` or `Pass` for a real ``int`` seat qualifies: a subclass, or a
    look-alike player number (``True``, ``1.0``, an ``int`` subclass) never does. A
    play is checked on its cards, whatever trust token it carries.

    Raises:
        PlayerError: *choice* is not one of the offered actions.
    """
    if (
        (type(choice) is Play or type(choice) is Pass)
        and type(choice.player) is int
        and choice.player == seat
        and _offers(offered, choice, state)
    ):
        return choice
    raise PlayerError(seat, player, choice, offered)


def _offers(
    offered: Actions | tuple[Action, ...], choice: Play | Pass, state: GameState
) -> bool:
    """Whether *choice* (a real action for the right seat) is one of *offered*."""
    if type(offered) is Actions:  # on its cards, whatever token it carries
        return state.is_legal(choice)
    return choice in offered


class _Tally(Protocol):
    """What `tienlen.simulation` counts while a game is played (private)."""

    def count(self, state: GameState, play: Play) -> None:
        """Note *play*, about to be applied to *state* (passes are not told)."""
        ...


def play_game(
    state: GameState,
    players: Sequence[Player],
    rng: random.Random,
    *,
    time_limit: float | None = None,
) -> GameState:
    """Play *state* to the end, asking each seat's `Player` for its actions.

    Each turn, before the player to act chooses, every other player who has Poker
    jump-ins (RULES §6.4) is asked, in play direction from the player to act, whether
    to jump in: its `Player.act` gets an `Observation` with ``jumping_in`` set and its
    jump-in plays plus a `Pass` meaning "do not jump in". The first to choose a play
    jumps in, and the turn goes on from the new state. Then the player to act chooses
    among its own legal actions. A player only ever gets its own cards, the public
    table and its own actions.

    Args:
        state: Where to start (a fresh deal, or any state).
        players: One player per seat, by player index.
        rng: Passed to every `Player.act`: the game's only randomness.
        time_limit: The most seconds one `Player.act` call may take (wall clock,
            ``time.perf_counter``), or ``None`` for no limit. It is checked when the
            call returns: a player that never returns is not interrupted (run
            untrusted bots on `simulation.process_pool` with a timeout for that).

    Returns:
        The final state, whose ``result`` holds the finishing order and scores.

    Raises:
        InvalidArgumentError: *players* does not have one player per seat, or
            *time_limit* is not a positive number.
        TypeError: *state* is not a `GameState`, or a player has no ``act`` method.
        PlayerError: a player raised, returned anything but one of the actions it
            was offered, changed what it was handed, or exceeded *time_limit*
            (docs/reliability.md).

    Example:
        >>> import random
        >>> from tienlen import KENNETH_LO, GameState
        >>> state = GameState.deal(KENNETH_LO, players=3, seed=11)
        >>> final = play_game(state, [RandomPlayer()] * 3, random.Random(11))
        >>> final.result.winner == final.finish_order[0]
        True
    """
    _check_players(players)
    _check_time_limit(time_limit)
    _check_type("state", state, GameState)
    _check_type("rng", rng, random.Random)
    return _play(state, players, rng, None, time_limit)


def _check_type(name: str, value: object, kind: type) -> None:
    """Refuse *value* unless it is a *kind*.

    Raises:
        TypeError: it is not.

    Example:
        >>> _check_type("rng", 3, random.Random)
        Traceback (most recent call last):
        ...
        TypeError: rng must be a Random, not int
    """
    if not isinstance(value, kind):
        msg = f"{name} must be a {kind.__name__}, not {type(value).__name__}"
        raise TypeError(msg)


def _check_players(players: object) -> None:
    """Refuse *players* unless it is a sequence of objects with an ``act`` method.

    Raises:
        TypeError: *players* is not a sequence (text is not), or a player has no
            callable ``act``.

    Example:
        >>> _check_players([RandomPlayer(), None])
        Traceback (most recent call last):
        ...
        TypeError: player 1 is not a Player (it has no act method): None
    """
    if not isinstance(players, Sequence) or isinstance(players, str | bytes):
        msg = f"players must be a sequence of players, not {type(players).__name__}"
        raise TypeError(msg)
    for seat, player in enumerate(players):
        if not callable(getattr(player, "act", None)):
            msg = (
                f"player {seat} is not a Player (it has no act method): "
                f"{_short_repr(player)}"
            )
            raise TypeError(msg)


def _check_time_limit(time_limit: object, name: str = "time_limit") -> None:
    """Refuse a *time_limit* that is not ``None`` or a positive, finite number of seconds.

    Raises:
        TypeError: *time_limit* is not a number (``bool`` is not).
        InvalidArgumentError: it is not positive and finite.

    Example:
        >>> _check_time_limit(0.5)
        >>> _check_time_limit(0)
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidArgumentError: time_limit must be a positive, finite number of seconds, got 0
    """
    if time_limit is None:
        return
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
        msg = f"{name} must be a number of seconds, not {type(time_limit).__name__}"
        raise TypeError(msg)
    if not 0 < time_limit < math.inf:
        msg = f"{name} must be a positive, finite number of seconds, got {time_limit!r}"
        raise InvalidArgumentError(msg)


def _play(
    state: GameState,
    players: Sequence[Player],
    rng: random.Random,
    tally: _Tally | None,
    time_limit: float | None = None,
    *,
    checked: bool = True,
) -> GameState:
    """`play_game`, telling *tally* about every play before it is applied.

    With *checked* false, every seat is trusted as the library's own bots are (no
    snapshot, no time limit; one that raises is still a `PlayerError`): only for bots
    whose choices are offered actions (the search's rollouts). `GameState.apply`
    still checks any action that does not carry the state's trust token, and a Poker
    jump-in is taken only if it is one of the offered plays.
    """
    if len(players) != state.players:
        msg = f"{len(players)} players for a {state.players}-player game"
        raise InvalidArgumentError(msg)
    referee = _Referee(state, players, rng, time_limit, checked=checked)
    left = [mask.bit_count() for mask in state._masks]  # cards held, by seat
    counts = tuple(left)
    while state.to_act is not None:
        chosen = referee.turn(state, counts)
        if type(chosen) is not Play:
            state = state.apply(chosen)
            continue
        if tally is not None:
            tally.count(state, chosen)
        state = state.apply(chosen)
        left[chosen._player] -= chosen._mask.bit_count()
        counts = tuple(left)
    return state


def _counts(state: GameState) -> tuple[int, ...]:
    """How many cards each player holds."""
    return tuple(mask.bit_count() for mask in state._masks)


def poll_jump_ins(
    state: GameState, ask: Callable[[int, tuple[Action, ...]], Action]
) -> tuple[Sequence[Action], Play | None]:
    """Ask every seat with Poker jump-ins now whether to jump in (RULES §6.4, D-15).

    The one poller of the library (`play_game` and the CLI use it). Seats are asked
    in play direction from the player to act, each with its jump-in plays plus a `Pass`
    meaning "do not jump in", as an immutable tuple: ``ask(seat, offer)`` returns the
    choice. The first seat to choose one of its offered plays jumps in.

    Args:
        state: The state, with a player to act.
        ask: Called once per seat with jump-ins, until one jumps in.

    Returns:
        The player to act's own legal actions, and the jump-in chosen (``None`` if
        nobody jumped in; the player to act then chooses among their own actions).

    Example:
        >>> from tienlen import POKER, GameState
        >>> from tienlen.players import poll_jump_ins
        >>> state = GameState.from_hands(
        ...     ["3s 2h", "4s 4c 5s 5c 6s 6c 7s 7c 9d", "8d Kd"], POKER, first_game=False, leader=0
        ... ).play("2h", 0)
        >>> own, chosen = poll_jump_ins(state, lambda seat, offer: offer[0])
        >>> chosen, [str(action) for action in own]
        (Play(player=1, cards=Hand.parse('4s 4c 5s 5c 6s 6c 7s 7c')), ['pass'])

    Raises:
        TypeError: *state* is not a `GameState`.
    """
    if type(state) is not GameState:
        msg = f"expected a GameState, got {type(state).__name__}"
        raise TypeError(msg)
    return _poll(state, state.legal_actions(), ask)


def _poll(
    state: GameState,
    actions: Actions,
    ask: Callable[[int, tuple[Action, ...]], Action],
) -> tuple[Actions | tuple[Action, ...], Play | None]:
    """`poll_jump_ins` with the state's legal *actions* known."""
    if not actions._others:  # the common case: nobody may jump in
        return actions, None
    to_act = state.to_act
    own = tuple(action for action in actions if action.player == to_act)
    for seat, group in actions._others:
        plays = tuple(make_play(seat, mask, actions._serial) for mask in group)
        offer: tuple[Action, ...] = (*plays, Pass(player=seat))
        choice = ask(seat, offer)
        if type(choice) is Play and choice in plays:
            return own, choice
    return own, None


# -- the reference bots --------------------------------------------------------------


@attrs.frozen
class RandomPlayer:
    """Chooses uniformly among the actions offered (passes and jump-ins included).

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
        >>> actions = list(state.legal_actions())
        >>> RandomPlayer().act(Observation.of(state, 0), actions, random.Random(1)) in actions
        True

    .. versionadded:: 0.1
    """

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """One of *actions*, uniformly at random from *rng*.

        Example:
            >>> import random
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC, first_game=False, leader=0)
            >>> actions = state.legal_actions()
            >>> picks = {str(RandomPlayer().act(Observation.of(state, 0), actions, random.Random(seed))) for seed in range(20)}
            >>> sorted(picks)
            ['3s', '4s']
        """
        del observation
        return _uniform(actions, rng)


def _uniform(actions: Sequence[Action], rng: random.Random) -> Action:
    """One of *actions*, uniformly at random from *rng* (`RandomPlayer`'s choice)."""
    return actions[int(rng.random() * len(actions))]


_TWO: Final = Rank.TWO.value


@attrs.frozen(kw_only=True)
class GreedyPlayer:
    """A simple heuristic bot: shed low cards, keep 2s and bombs for when they matter.

    A *precious* play holds a 2 or is a bomb. In order:

    1. A play that empties the hand is always taken.
    2. **Jump-in** (Poker, out of turn): jump in with the lowest jump-in only to stop an
       opponent holding at most `danger` cards; otherwise do not.
    3. **Lead**: never a precious play while another exists. Dump the longest straight
       or run of pairs first (lowest top card among equals); without one, lead the
       lowest rank, with as many cards of it as form a play (a pair over a single).
       Never decline the first lead.
    4. **Continuation** (Justus Pang): continue with the lowest non-precious play,
       else close by passing.
    5. **Follow**: play the lowest non-precious play that beats the top (more cards
       first among equals). Play a precious one (a 2 before a bomb, lowest first) only
       when an opponent holds at most `danger` cards, or when the play leaves this
       seat at most `danger` cards, or when the hand holds nothing but precious
       cards; otherwise pass.

    It never uses *rng*, so its choices depend only on what it sees.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.from_hands(["3s 4s 9h Td Ks", "5d 6d 8h Jc 2h", "7c 8c Qs Qd As"], CLASSIC)
        >>> state = state.play("3s").play("5d").play("7c")
        >>> bot, rng = GreedyPlayer(), random.Random()
        >>> str(bot.act(Observation.of(state, 0), state.legal_actions(), rng))  # lowest
        '9h'
        >>> state = state.play("Ks")
        >>> str(bot.act(Observation.of(state, 1), state.legal_actions(), rng))  # keeps the 2
        'pass'

    .. versionadded:: 0.1
    """

    danger: int = attrs.field(default=2)
    """An opponent with at most this many cards is about to go out (0 or more)."""

    @danger.validator
    def _check_danger(self, _: object, danger: object) -> None:
        check_count("danger", danger, 0)

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The heuristic's choice among *actions* (see the class description).

        Example:
            >>> import random
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.from_hands(["3s 4d 5h 9c 2s", "6d 9h"], CLASSIC)
            >>> str(GreedyPlayer().act(Observation.of(state, 0), state.legal_actions(), random.Random()))
            '3s 4d 5h'
        """
        del rng
        return self._answer(observation, actions)

    def _answer(
        self, observation: Observation | _Glance, actions: Sequence[Action]
    ) -> Action:
        """`act`, from an observation or a `_Glance` of the seat's own turn."""
        masks, keys, pass_action, chosen = _offer(actions)
        index = self._choose(observation, masks, keys, may_pass=pass_action is not None)
        if index < 0:
            assert pass_action is not None
            return pass_action
        return chosen(index)

    def _choose(
        self,
        observation: Observation | _Glance,
        masks: Sequence[int],
        keys: Sequence[int],
        *,
        may_pass: bool,
    ) -> int:
        """The index of the play to make among *masks* (of *keys*); -1 to pass."""
        hand_size = len(observation.hand)
        sizes = [mask.bit_count() for mask in masks]
        if hand_size in sizes:
            return sizes.index(hand_size)  # going out: the first such play
        if not masks:
            return -1
        rules = observation.rules
        bombs = _bombs(rules)
        normal = [  # the plays that are not precious: no 2, no bomb
            index
            for index, key in enumerate(keys)
            if (key & 63) >> 2 != _TWO and not bombs[key >> 6]
        ]
        every = range(len(masks))
        if observation.jumping_in:
            if not may_pass or self._threatened(observation):
                return _lowest(every, keys, sizes)
            return -1
        if observation.is_leading:
            return _lead(normal or every, keys, sizes)
        if normal:
            return _lowest(normal, keys, sizes)
        order = [((key & 63) >> 2 != _TWO) << 6 | key & 63 for key in keys]
        index = min(every, key=order.__getitem__)  # 2s before bombs, lowest first
        if not may_pass:  # pragma: no cover - following may always pass
            return index
        if observation.may_continue:
            return -1
        if (
            self._threatened(observation)
            or hand_size - sizes[index] <= self.danger
            or _only_precious(observation.hand, rules, bombs)
        ):
            return index
        return -1

    def _threatened(self, observation: Observation | _Glance) -> bool:
        """Whether an opponent holds at most `danger` cards."""
        fewest = observation.fewest_opponent_cards
        return fewest is not None and fewest <= self.danger


class _Glance:
    """What `GreedyPlayer` reads of its own turn, taken from the state by `_Referee`.

    The fields it reads of an `Observation`, under the same names, without the rest.
    """

    __slots__ = (
        "_counts",
        "_out",
        "hand",
        "is_leading",
        "jumping_in",
        "may_continue",
        "rules",
        "seat",
    )

    def __init__(self, state: GameState, seat: int, counts: tuple[int, ...]) -> None:
        self.seat = seat
        self.rules = state.rules
        self.hand = hand = _new(Hand)  # `actions.hand_of`, inlined
        _set_hand_mask(hand, state._masks[seat])
        self.jumping_in = False
        self.is_leading = not state._top  # its own turn; the top is never built
        self.may_continue = seat == state.last_player and state.is_continuing
        self._counts = counts
        self._out = state.out

    @property
    def fewest_opponent_cards(self) -> int | None:
        """`Observation.fewest_opponent_cards`."""
        seat, out = self.seat, self._out
        counts = [
            n
            for other, n in enumerate(self._counts)
            if other != seat and not out >> other & 1
        ]
        return min(counts) if counts else None


_LIBRARY_BOTS: Final = frozenset({RandomPlayer, GreedyPlayer})
"""The bots `play_game` trusts without a time limit (see `_Referee`)."""


def _offer(
    actions: Sequence[Action],
) -> tuple[list[int], list[int], Action | None, Callable[[int], Action]]:
    """The plays of *actions* as masks and keys, in order; their pass; a builder.

    ``chosen(i)`` is the action of the *i*-th play. `Actions` are read in place, on
    the int core's masks and keys (only the chosen play is built); any other
    sequence is walked.
    """
    if type(actions) is Actions and not actions._others:
        player, serial = actions._player, actions._serial
        singles = actions._singles
        masks: list[int] = []
        while singles:  # lowest first, as `Actions` lists them
            low = singles & -singles
            masks.append(low)
            singles ^= low
        keys = [_SINGLE_KEY | mask.bit_length() - 1 for mask in masks]
        _add_keyed(actions._masks, masks, keys)
        pass_action = PASSES[player] if actions._pass else None
        return masks, keys, pass_action, lambda i: make_play(player, masks[i], serial)
    plays: list[Play] = []
    pass_action = None
    for action in actions:
        if isinstance(action, Pass):
            pass_action = action
        else:
            plays.append(action)
    masks = [play._mask for play in plays]
    return masks, list(map(_KEYS.__getitem__, masks)), pass_action, plays.__getitem__


def _add_keyed(listed: Sequence[int], masks: list[int], keys: list[int]) -> None:
    """Add the plays *listed* (by the move generator) to *masks*, their keys to *keys*.

    A lazy `Leads` gives its runs' keys as it expands them.
    """
    if type(listed) is Leads:
        sets, runs, run_keys = listed.keyed()
        masks += sets
        masks += runs
        keys += map(_KEYS.__getitem__, sets)
        keys += run_keys
    else:
        masks += listed
        keys += map(_KEYS.__getitem__, listed)


class _Keys(dict[int, int]):
    """The key (`tienlen.engine.shapes.structural_key`) of a trusted play's mask.

    The sets (one rank, at most 8 cards) are kept once looked up; runs, which are
    millions, are computed each time. A dict subclass, so that mapping its
    ``__getitem__`` over masks runs at C speed for the sets.
    """

    def __missing__(self, mask: int) -> int:
        key = structural_key(mask)
        if key >> 12 not in _SEQUENCES:
            self[mask] = key
        return key


class _Bombs(dict[int, bool]):
    """Whether each shape code is a bomb under one rule set, asked once per code."""

    __slots__ = ("least_share", "rules")

    def __init__(self, rules: RuleSet) -> None:
        super().__init__()
        self.rules = rules
        self.least_share = _least_bomb_share(rules)
        """The fewest cards of one rank any bomb takes (0: no bomb; ``None``: unknown)."""

    def __missing__(self, code: int) -> bool:
        bomb = self[code] = self.rules.is_bomb(Shape.from_code(code))
        return bomb


def _least_bomb_share(rules: RuleSet) -> int | None:
    """`_Bombs.least_share`, for a `BaseRules` answering its rule questions itself.

    ``None`` (no quick answer) for any other rule set, and where a sequence may run up
    to the 2: such a play holds a 2, so its other cards are precious too.
    """
    if not isinstance(rules, BaseRules) or overrides_rule_hooks(type(rules)):  # type: ignore[arg-type]  # classes hash
        return None
    for kind in rules.kinds:
        if kind.is_sequence and any(
            rules.max_top_rank(Shape.of(kind, length)) is Rank.TWO
            for length in range(
                KINDS[kind.value].shortest, KINDS[kind.value].longest + 1
            )
        ):
            return None
    return min((shape.kind.per_rank for shape in rules._bomb_shapes), default=0)


def _bombs(rules: RuleSet) -> _Bombs:
    """The bomb answers of *rules*, remembered for the last rule set asked.

    Read and replaced as one reference, so threads sharing it never mix two rule
    sets' answers.
    """
    bombs = _LAST_BOMBS[0]
    if bombs.rules is not rules:
        bombs = _LAST_BOMBS[0] = _Bombs(rules)
    return bombs


_KEYS: Final = _Keys()
_LAST_BOMBS: Final = [_Bombs(CLASSIC)]
_SEQUENCES: Final = frozenset(kind.value for kind in ComboKind if kind.is_sequence)
_SINGLE_KEY: Final = structural_key(1) & ~63
_ANY_TWO: Final = _bits.RANK_CARDS[_TWO]
"""The four 2s of either deck."""


def _lowest(indices: Iterable[int], keys: Sequence[int], sizes: Sequence[int]) -> int:
    """The play with the lowest top card; more cards first among equals, then the first."""
    best = min(
        ((keys[index] & 63) << 7 | 127 - sizes[index]) << 32 | index
        for index in indices
    )
    return best & _INDEX


_INDEX: Final = (1 << 32) - 1
"""The low bits of `_lowest`'s packed order: the play's index."""


def _lead(indices: Sequence[int], keys: Sequence[int], sizes: Sequence[int]) -> int:
    """The longest sequence (lowest top among equals), else the lowest rank, fullest."""
    sequences = [index for index in indices if keys[index] >> 12 in _SEQUENCES]
    if not sequences:
        lowest = min((keys[index] & 63) >> 2 for index in indices)
        sequences = [index for index in indices if (keys[index] & 63) >> 2 == lowest]
    order = {index: (127 - sizes[index]) << 6 | keys[index] & 63 for index in sequences}
    return min(order, key=order.__getitem__)


def _only_precious(hand: Hand, rules: RuleSet, bombs: _Bombs) -> bool:
    """Whether every card of *hand* is a 2 or part of a bomb it holds."""
    share = bombs.least_share
    if share is not None:
        others = _bits.rank_counts(hand.mask & ~_ANY_TWO)  # per rank, 2s left out
        if not share:  # no bomb at all: only 2s are precious
            return not others
        held = (others + _bits.at_least_offset(1)) >> 3 & _bits.ONES
        if held & ~((others + _bits.at_least_offset(share)) >> 3):
            return False  # a rank holds fewer cards than any bomb takes of one
    plays = rules.legal_plays(hand)
    masks: list[int] = []
    keys: list[int] = []
    if type(plays) is Plays:  # on the int core's masks and keys
        _add_keyed(plays._masks, masks, keys)
    else:
        for combo in plays:
            masks.append(combo.mask)
            keys.append(combo.key)
    covered = 0
    for mask, key in zip(masks, keys, strict=True):
        if (key & 63) >> 2 == _TWO or bombs[key >> 6]:
            covered |= mask
    return hand.mask & ~covered == 0
