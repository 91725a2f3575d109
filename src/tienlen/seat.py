"""A seat at the table: what a player sees (`Observation`), does (`Player`) and breaks (`PlayerError`).

The contract between the referee and a bot: `tienlen.players.play_game` (and the
engine's referee under it) builds an `Observation` for every decision, asks a
`Player` to act, and raises a `PlayerError` when the player fails. The names are
published in `tienlen` and `tienlen.players` too.

Example:
    >>> from tienlen import CLASSIC, GameState
    >>> from tienlen.seat import Observation
    >>> Observation.of(GameState.from_hands(["3s 7h", "4d"], CLASSIC), 1).card_counts
    (2, 1)

.. versionadded:: 0.3
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterable, Sequence
from typing import Final, Protocol

import attrs

from tienlen._checks import short_repr
from tienlen.cards import Card, Hand
from tienlen.combos import Combo
from tienlen.engine import view as seat_views
from tienlen.engine.view import (
    FIELDS,
    SeatView,
    card_counts,
    field_reader,
    game_view,
    seat_view,
)
from tienlen.errors import InvalidArgumentError, TienLenError
from tienlen.game import Action, GameState
from tienlen.rules import RuleSet
from tienlen.rules.base import Direction

__all__ = ["Observation", "Player", "PlayerError"]


def _ints(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


def _int_set(values: Iterable[int]) -> frozenset[int]:
    return frozenset(values)


def _actions(values: Iterable[Action]) -> tuple[Action, ...]:
    return tuple(values)


@attrs.frozen(kw_only=True, slots=False)
class Observation:
    """What one seat may see of a game: its own hand and everything played in public.

    It never holds another player's cards, nor the `GameState`: only card counts for
    the others. Build one with `Observation.of`; `play_game` builds one for every
    decision it asks of a `Player`. It is lazy: each field is computed when first
    read, then kept, from a snapshot of what the seat may see (its own hand's mask,
    the public table, the game's shared record of actions). A bot that reads little
    pays little; equality, hashing, ``repr`` and pickling read every field, so an
    observation compares and pickles as if it had been built whole.

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
    .. versionchanged:: 0.3
       Every field is computed when first read.
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

    def __getstate__(self) -> dict[str, object]:
        """Pickle and copy every field (computing those not read yet), not the snapshot."""
        return {field.name: getattr(self, field.name) for field in _FIELDS}

    def __setstate__(self, state: dict[str, object]) -> None:
        _set_fields(self, "__dict__", state)

    @classmethod
    def of(cls, state: GameState, player: int) -> Observation:
        """What *player* may see of *state*.

        A player other than the one to act is observing out of turn (`jumping_in`):
        the only actions it may take then are Poker jump-ins (RULES §6.4).

        Raises:
            TypeError: *state* is not a `GameState`.
            InvalidArgumentError: *player* is not at the table.

        Example:
            >>> from tienlen import POKER, GameState
            >>> state = GameState.from_hands(["4s 5s", "3s 9h"], POKER)
            >>> seen = Observation.of(state, 1)
            >>> seen.must_include, seen.card_counts, seen.direction.name
            (Card.parse('3s'), (2, 2), 'COUNTERCLOCKWISE')
        """
        if not isinstance(state, GameState):
            msg = f"expected a GameState, got {type(state).__name__}"  # type: ignore[unreachable]
            raise TypeError(msg)
        if type(player) is not int or not 0 <= player < state.players:
            msg = f"no player {player!r} at a {state.players}-player table"
            raise InvalidArgumentError(msg)
        return observe(seat_view(state, player, card_counts(state), game_view(state)))

    @property
    def hand_mask(self) -> int:
        """The seat's own cards as an int mask (`Hand.mask`), without building the hand.

        Example:
            >>> from tienlen import CLASSIC, GameState, Hand
            >>> state = GameState.from_hands(["3s 7h", "4d 9c"], CLASSIC)
            >>> Observation.of(state, 1).hand_mask == Hand.parse("4d 9c").mask
            True

        .. versionadded:: 0.3
        """
        return seat_views.hand_mask(self)

    @property
    def is_leading(self) -> bool:
        """Whether the seat leads, being to act with nothing to beat.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.from_hands(["3s 7h", "4d 9c"], CLASSIC)
            >>> Observation.of(state, 0).is_leading, Observation.of(state.play("3s"), 1).is_leading
            (True, False)
        """
        return seat_views.is_leading(self)

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
        return seat_views.fewest_opponent_cards(self)


_FIELDS: Final = attrs.fields(Observation)


for _name in FIELDS:
    setattr(Observation, _name, field_reader(_name))


def _read_directly(name: str) -> None:
    """Make the engine function the body of property *name* calls its getter.

    The same answer, in one call (compiled, without a Python frame); the docstring
    stays the documented one.
    """
    documented = vars(Observation)[name]
    setattr(
        Observation, name, property(getattr(seat_views, name), doc=documented.__doc__)
    )


for _name in ("hand_mask", "is_leading", "fewest_opponent_cards"):
    _read_directly(_name)
del _name


def observe(view: SeatView) -> Observation:
    """The lazy `Observation` of *view* (`tienlen.engine.view.seat_view`).

    Its fields are computed when first read; the referee builds one per decision.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> from tienlen.engine.view import game_view, seat_view
        >>> state = GameState.from_hands(["3s 7h", "4d 9c"], CLASSIC)
        >>> seen = observe(seat_view(state, 1, (2, 2), game_view(state)))
        >>> seen == Observation.of(state, 1), str(seen.hand)
        (True, '4d 9c')
    """
    observation = _new(Observation)
    observation.__dict__["_view"] = view
    return observation


_new: Final = object.__new__
_set_fields: Final = object.__setattr__


class Player(Protocol):
    """A bot: anything with this `act` method plays (a ``typing.Protocol``).

    Keep players stateless and picklable (frozen attrs classes work well): the same
    player object may be asked about several games at once, in other processes.

    `play_game` always calls ``act``. By default it guards each call: it snapshots
    the observation and fingerprints the actions before, and compares after, so a bot
    that changes what it was handed is caught. A bot class may declare
    ``changes_nothing: ClassVar[bool] = True``: a promise that ``act`` changes
    nothing it is handed. Without a time limit such a bot is asked without the
    snapshot and fingerprint (a cheaper path, the one `RandomPlayer` and
    `GreedyPlayer` take: they declare it like anyone may). Its choice is still
    checked to be one of the actions offered, on the cards, and a bot that raises
    still ends the game with a `PlayerError`; what is no longer detected is a change
    to the observation or the actions object that leaves the choice one of the
    offered actions (docs/bots.md, "Fast bots"). The declaration is read from the
    class, never from an instance, and subclasses inherit it.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, play_game
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
            >>> from tienlen import CLASSIC, GameState, RandomPlayer
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
        >>> from tienlen import CLASSIC, GameState, Pass, play_game
        >>> class Stubborn:
        ...     def act(self, observation, actions, rng):
        ...         return Pass(player=observation.seat)
        >>> state = GameState.from_hands(["3s 4s 5s", "5d 6d"], CLASSIC)
        >>> play_game(state, [Stubborn(), Stubborn()], random.Random(0))
        Traceback (most recent call last):
        ...
        tienlen.seat.PlayerError: player 0 (Stubborn) chose Pass(player=0), which is not one of its 2 legal actions: '3s', '3s 4s 5s'

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
                f"chose {short_repr(action)}, which is not one of its "
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


def _picklable(value: object) -> object:
    """*value* if it pickles, else its (short) repr."""
    try:
        pickle.dumps(value)
    except Exception:  # noqa: BLE001 - any failure to pickle means "send the repr"
        return short_repr(value)
    return value


def _picklable_cause(cause: BaseException | None) -> BaseException | None:
    """*cause* if it pickles and unpickles, else a `RuntimeError` carrying its repr."""
    if cause is None:
        return None
    try:
        pickle.loads(pickle.dumps(cause))  # noqa: S301 - our own bytes
    except Exception:  # noqa: BLE001 - any failure means "send the repr"
        return RuntimeError(short_repr(cause))
    return cause
