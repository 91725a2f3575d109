"""A game between people and bots, one decision at a time: `Referee` and `Decision`.

`tienlen.play_game` plays a game between bots to its end. A table where some seats
are people (a chat bot, a game server, a command line) needs the same game one
decision at a time: who must decide now and among which actions, a person's choice
checked and applied, and the library's bots playing their own turns until a person
must act. A `Referee` does that, in exactly the order `play_game` asks, Poker's
jump-in polls included (RULES §6.4, D-15): with every seat a bot it plays the very
game `play_game` plays from the same state and *rng*.

Example:
    >>> import random
    >>> from tienlen import CLASSIC, GameState, GreedyPlayer
    >>> state = GameState.from_hands(["3s 9h", "4d 5c", "6h Kd"], CLASSIC)
    >>> referee = Referee(state, [None, GreedyPlayer(), GreedyPlayer()], random.Random(1))
    >>> decision = referee.advance()  # seat 0 is a person: it leads with 3♠
    >>> decision.seat, [str(action) for action in decision.actions]
    (0, ['3s'])
    >>> referee.decide(decision.actions[0])
    >>> referee.advance().seat, [str(action) for action in referee.state.history]
    (0, ['3s', '4d', '6h'])

.. versionadded:: 0.3
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final, cast

import attrs

from tienlen._checks import check_time_limit, check_type, short_repr
from tienlen.actions import Action, Actions, Pass, Play
from tienlen.engine import referee as bots
from tienlen.engine.view import card_counts
from tienlen.errors import IllegalPlayError, IllegalReason, InvalidArgumentError
from tienlen.game import GameState
from tienlen.players import Observation, Player

__all__ = ["Decision", "Referee"]


def _actions(values: Iterable[Action]) -> tuple[Action, ...]:
    return tuple(values)


@attrs.frozen(kw_only=True)
class Decision:
    """What one seat must decide now: its seat, its actions, and whether out of turn.

    `Referee.pending` and `Referee.advance` give one. Show a person their
    `observation` (their own hand and the public table, never the others' cards) and
    their `actions`; hand the choice to `Referee.decide`.

    Example:
        >>> from tienlen import POKER, GameState
        >>> state = GameState.from_hands(
        ...     ["3s 2h", "4s 4c 5s 5c 6s 6c 7s 7c 9d", "8d Kd"], POKER, first_game=False, leader=0
        ... ).play("2h", 0)
        >>> decision = Referee(state, [None] * 3).pending  # seat 1 may jump in onto the 2
        >>> decision.seat, decision.jumping_in, [str(action) for action in decision.actions]
        (1, True, ['4s 4c 5s 5c 6s 6c 7s 7c', 'pass'])
        >>> str(decision.observation.hand), decision.observation.top
        ('4s 4c 5s 5c 6s 6c 7s 7c 9d', <Combo SINGLE '2h'>)

    .. versionadded:: 0.3
    """

    seat: int
    """Who decides."""
    actions: tuple[Action, ...] = attrs.field(converter=_actions)
    """The actions the seat may choose among, never empty.

    On its own turn, its legal actions; asked out of turn (`jumping_in`), its Poker
    jump-ins and then a `Pass` meaning "do not jump in".
    """
    jumping_in: bool
    """Whether the seat is asked out of turn, whether to jump in (RULES §6.4)."""
    observation: Observation
    """What the seat may see now, to show a person (`tienlen.Observation`)."""


_BOT_TURN: Final = "a bot plays seat {seat} ({bot}): call advance() to let it decide"


class Referee:
    """A game between people and bots, one decision at a time, in the rules' order.

    Seat the players by index: a `tienlen.Player` (a bot the referee asks itself) or
    ``None`` for a person, whose decisions you pass to `decide`. `pending` is the
    decision the rules ask for now; `advance` lets the bots decide until a person
    must, and returns that person's decision (``None`` once the game is over).

    Each turn is decided as `tienlen.play_game` decides it: first, under a rule set
    with jump-ins (Poker, RULES §6.4), every other seat that may jump in is asked in
    play direction from the player to act, whether person or bot, until one jumps
    in; then the player to act chooses among their own actions. Bots are asked and
    checked as `play_game` asks and checks them (a failing bot raises
    `tienlen.PlayerError`), with the one *rng*: a referee whose seats are all bots
    plays the game `play_game` plays from the same state and rng state.

    A referee changes as the game goes on (`state` is the game now), and a refused
    decision changes nothing. It pickles (its bots and rng with it), so a server may
    keep it between requests; a bot you run elsewhere (a slow search on a thread, a
    remote program) sits as a person: pass its choice to `decide`.

    Args:
        state: Where to start (a fresh deal, or any state).
        players: One per seat, by player index: a `tienlen.Player`, or ``None`` for a
            person.
        rng: Passed to every bot's ``act``: the bots' only randomness. ``None`` draws
            a fresh ``random.Random()``.
        time_limit: The most seconds one bot decision may take (see
            `tienlen.play_game`), or ``None`` for no limit.

    Raises:
        InvalidArgumentError: *players* does not have one entry per seat, or
            *time_limit* is not a positive number.
        TypeError: *state* is not a `GameState`, *rng* not a ``random.Random``, or a
            seat is neither ``None`` nor an object with an ``act`` method.

    Example:
        >>> import random
        >>> from tienlen import KENNETH_LO, GameState, RandomPlayer, play_game
        >>> state = GameState.deal(KENNETH_LO, players=3, seed=4)
        >>> bots = [RandomPlayer()] * 3
        >>> referee = Referee(state, bots, random.Random(4))
        >>> referee.advance() is None, referee.state == play_game(state, bots, random.Random(4))
        (True, True)

    .. versionadded:: 0.3
    """

    __slots__ = (
        "_asked",
        "_bots",
        "_offers",
        "_own",
        "_players",
        "_rng",
        "_state",
        "_time_limit",
    )

    def __init__(
        self,
        state: GameState,
        players: Sequence[Player | None],
        rng: random.Random | None = None,
        *,
        time_limit: float | None = None,
    ) -> None:
        check_type("state", state, GameState)
        if rng is None:
            rng = random.Random()
        check_type("rng", rng, random.Random)
        check_time_limit(time_limit)
        seats = _seats(players, state.players)
        self._players: tuple[Player | None, ...] = seats
        self._rng = rng
        self._time_limit = time_limit
        self._bots: bots.Referee | None = None
        self._enter(state)

    # -- the game now -------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The game now, with every decision applied so far (a declined jump-in is none).

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.from_hands(["3s 9h", "4d 5c"], CLASSIC)
            >>> Referee(state, [None, None]).state is state
            True
        """
        return self._state

    @property
    def players(self) -> tuple[Player | None, ...]:
        """The seats' players by player index, each a bot or ``None`` for a person.

        Example:
            >>> from tienlen import CLASSIC, GameState, GreedyPlayer
            >>> state = GameState.from_hands(["3s 9h", "4d 5c"], CLASSIC)
            >>> Referee(state, [None, GreedyPlayer()]).players
            (None, GreedyPlayer(danger=2))
        """
        return self._players

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (its `GameState.result` is then set).

        Example:
            >>> from tienlen import CLASSIC, GameState, GreedyPlayer
            >>> state = GameState.from_hands(["3s", "4d 5c"], CLASSIC)
            >>> referee = Referee(state, [GreedyPlayer(), None])
            >>> referee.is_over, referee.advance(), referee.is_over
            (False, None, True)
        """
        return self._state.to_act is None

    @property
    def pending(self) -> Decision | None:
        """The decision the rules ask for now, a bot's or a person's; ``None`` once over.

        Example:
            >>> from tienlen import CLASSIC, GameState, GreedyPlayer
            >>> state = GameState.from_hands(["3s 9h", "4d 5c"], CLASSIC)
            >>> referee = Referee(state, [GreedyPlayer(), None])
            >>> referee.pending.seat, referee.is_person(referee.pending.seat)
            (0, False)
        """
        seat = self._seat()
        if seat is None:
            return None
        jumping_in = self._asked < len(self._offers)
        actions = self._offers[self._asked][1] if jumping_in else self._own
        observation = Observation.of(self._state, seat)
        return Decision(
            seat=seat, actions=actions, jumping_in=jumping_in, observation=observation
        )

    def is_person(self, seat: int) -> bool:
        """Whether a person plays *seat* (its player is ``None``).

        Raises:
            InvalidArgumentError: *seat* is not at the table.

        Example:
            >>> from tienlen import CLASSIC, GameState, GreedyPlayer
            >>> state = GameState.from_hands(["3s 9h", "4d 5c"], CLASSIC)
            >>> Referee(state, [None, GreedyPlayer()]).is_person(1)
            False
        """
        if type(seat) is not int or not 0 <= seat < len(self._players):
            msg = f"no seat {seat!r} at a {len(self._players)}-player table"
            raise InvalidArgumentError(msg)
        return self._players[seat] is None

    # -- deciding -----------------------------------------------------------------

    def advance(self) -> Decision | None:
        """Let the bots decide until a person must; that person's decision, or ``None``.

        ``None`` means the game is over (`state` holds the result). When a person
        decides now, nothing is played and their decision is returned again.

        Raises:
            PlayerError: a bot failed (see `tienlen.play_game`). The decisions made
                before it stay made; the failing bot's decision is still pending.

        Example:
            >>> from tienlen import CLASSIC, GameState, GreedyPlayer
            >>> state = GameState.from_hands(["3s 9h", "4d 5c", "6h Kd"], CLASSIC)
            >>> referee = Referee(state, [GreedyPlayer(), None, GreedyPlayer()])
            >>> decision = referee.advance()
            >>> decision.seat, [str(action) for action in decision.actions]
            (1, ['4d', '5c', 'pass'])
        """
        while True:
            seat = self._seat()
            if seat is None:
                return None
            if self._players[seat] is None:
                return self.pending
            self._bot_decides(seat)

    def decide(self, action: Action) -> None:
        """Apply a person's decision: *action*, for the seat `pending` asks.

        On a jump-in poll (`Decision.jumping_in`), a `Pass` declines and the next seat
        is asked; a jump-in is played. On the seat's own turn, *action* is played.
        Call `advance` next to let the bots answer.

        Raises:
            IllegalPlayError: the rules refuse *action* now, as `GameState.apply`
                refuses it, or it is another seat's (`IllegalReason.NOT_YOUR_TURN`:
                the rules ask that seat later, or not at all). Nothing changes.
            InvalidArgumentError: *action* is for a seat a bot plays, or a bot must
                decide now (call `advance`). Nothing changes.
            TypeError: *action* is not a `Play` or `Pass`.

        Example:
            >>> from tienlen import CLASSIC, GameState, GreedyPlayer, Pass
            >>> state = GameState.from_hands(["3s 9h", "4d 5c"], CLASSIC)
            >>> referee = Referee(state, [None, GreedyPlayer()])
            >>> referee.decide(Pass(player=0))
            Traceback (most recent call last):
            ...
            tienlen.errors.IllegalPlayError: illegal pass by player 0: cannot pass: ...
            >>> referee.decide(state.parse_action("3s"))
            >>> referee.decide(Pass(player=1))
            Traceback (most recent call last):
            ...
            tienlen.errors.InvalidArgumentError: a bot plays seat 1 (GreedyPlayer): call advance() to let it decide
        """
        if type(action) is not Play and type(action) is not Pass:
            msg = f"expected a Play or Pass, got {short_repr(action)}"
            if isinstance(action, str):
                msg += ": read text with referee.state.parse_action(text, player=seat)"
            raise TypeError(msg)
        state = self._state
        seat = self._seat()
        if seat is None:  # the game is over: refused as the state refuses it
            state.check(action)
            raise self._not_asked(action, None)  # not reached: the state refuses
        player: object = action.player
        for named in (player, seat):
            if type(named) is int and 0 <= named < len(self._players):
                bot = self._players[named]
                if bot is not None:
                    msg = _BOT_TURN.format(seat=named, bot=type(bot).__name__)
                    raise InvalidArgumentError(msg)
        if player != seat:
            state.check(action)  # any refusal of the rules first, then the order
            raise self._not_asked(action, seat)
        jumping_in = self._asked < len(self._offers)
        if jumping_in and type(action) is Pass:
            self._decline()
            return
        self._enter(state.apply(action))

    # -- pickling and text ----------------------------------------------------------

    def __getstate__(self) -> dict[str, object]:
        """The game, the seats, the rng, the time limit and how far the poll went."""
        return {
            "state": self._state,
            "players": self._players,
            "rng": self._rng,
            "time_limit": self._time_limit,
            "asked": self._asked,
        }

    def __setstate__(self, saved: dict[str, object]) -> None:
        state = saved["state"]
        check_type("state", state, GameState)
        assert isinstance(state, GameState)
        self._players = saved["players"]  # type: ignore[assignment]
        self._rng = saved["rng"]  # type: ignore[assignment]
        self._time_limit = saved["time_limit"]  # type: ignore[assignment]
        self._bots = None
        self._enter(state)
        asked = saved["asked"]
        if type(asked) is not int or not 0 <= asked <= len(self._offers):
            msg = f"a pickled referee's poll position {asked!r} is not of its state"
            raise InvalidArgumentError(msg)
        self._asked = asked

    def __repr__(self) -> str:
        seat = self._seat()
        if seat is None:
            now = "game over"
        else:
            who = "a person" if self._players[seat] is None else "a bot"
            out = ", whether to jump in" if self._asked < len(self._offers) else ""
            now = f"seat {seat} ({who}) decides{out}"
        rules = self._state.rules.name
        return f"<Referee {rules}, {len(self._players)} players: {now}>"

    # -- the steps ----------------------------------------------------------------

    def _enter(self, state: GameState) -> None:
        """Move on to *state*: its turn's offers, nobody asked yet."""
        self._state = state
        self._asked = 0
        if state.to_act is None:
            self._own: Actions | tuple[Action, ...] = ()
            self._offers: tuple[tuple[int, tuple[Action, ...]], ...] = ()
            return
        self._own, self._offers = bots.turn_offers(state, state.legal_actions())

    def _seat(self) -> int | None:
        """The seat the rules ask now, ``None`` once the game is over."""
        if self._asked < len(self._offers):
            return self._offers[self._asked][0]
        return self._state.to_act

    def _decline(self) -> None:
        """The polled seat does not jump in: ask the next one."""
        self._asked += 1

    def _bot_decides(self, seat: int) -> None:
        """Ask *seat*'s bot the pending decision, as `tienlen.play_game` asks it."""
        referee = self._bots
        if referee is None:  # asks only bots: a person's seat is never asked
            players = cast("Sequence[Player]", self._players)
            referee = self._bots = bots.Referee(
                self._state, players, self._rng, self._time_limit
            )
        state = self._state
        counts = card_counts(state)
        if self._asked < len(self._offers):
            offer = self._offers[self._asked][1]
            choice = referee.ask(state, seat, offer, counts)
            if type(choice) is Play and choice in offer:
                self._enter(state.apply(choice))
            else:
                self._decline()
            return
        self._enter(state.apply(referee.ask(state, seat, self._own, counts)))

    def _not_asked(self, action: Action, seat: int | None) -> IllegalPlayError:
        """The refusal of *action*, legal now but not the decision the rules ask for.

        *seat* is the seat asked now (``None``: nobody, the game is over).
        """
        state = self._state
        top = state.top
        if seat is None:
            reason, detail, rule = IllegalReason.GAME_OVER, "the game is over", None
        else:
            asked = (
                "whether to jump in" if self._asked < len(self._offers) else "to act"
            )
            reason, rule = IllegalReason.NOT_YOUR_TURN, "rules-6-4"
            detail = f"the rules ask player {seat} {asked} now (RULES §6.4, D-15)"
        return IllegalPlayError(
            reason,
            action.player,
            "pass" if type(action) is Pass else str(action),
            detail,
            top=None if top is None else str(top),
            rule=rule,
            rules=state.rules.name,
        )


def _seats(players: object, count: int) -> tuple[Player | None, ...]:
    """*players* as a tuple of one bot or ``None`` per seat of a *count*-player game."""
    if not isinstance(players, Sequence) or isinstance(players, str | bytes):
        msg = f"players must be a sequence of players or None, not {type(players).__name__}"
        raise TypeError(msg)
    if len(players) != count:
        msg = f"{len(players)} players for a {count}-player game"
        raise InvalidArgumentError(msg)
    for seat, player in enumerate(players):
        if player is not None and not callable(getattr(player, "act", None)):
            msg = (
                f"seat {seat} is neither None (a person) nor a Player "
                f"(it has no act method): {short_repr(player)}"
            )
            raise TypeError(msg)
    return tuple(players)
