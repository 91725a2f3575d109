"""One agent's game against library bots: its seat, its decisions, and the bots' turns.

An `AgentGame` deals a game, seats library bots at every other seat and plays their
turns until the agent must decide (its turn, or a Poker jump-in it is offered) or the
game ends: a `tienlen.Referee` referees it, the agent's seat its one person, so the
bots are asked and checked as `tienlen.play_game` asks and checks them. The agent
then names an action by its notation or by its index in `AgentGame.legal`; an
illegal action raises the engine's `IllegalPlayError` and changes nothing. Nothing
here reads another seat's cards except the bots themselves, each through its own
`Observation`.

Example:
    >>> from tienlen import get_rules
    >>> game = AgentGame(get_rules("classic"), seat=0, opponents=["greedy"] * 3, seed=7)
    >>> game.waiting, game.state.to_act
    (True, 0)
    >>> moves = game.act(0)
    >>> moves[0].action.player, game.waiting or game.state.is_over
    (0, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Final

import attrs

from tienlen.errors import TienLenError
from tienlen.game import Action, GameState, Pass, Play
from tienlen.players import GreedyPlayer, Observation, Player, RandomPlayer
from tienlen.referee import Decision, Referee
from tienlen.rules import (
    BaseRules,
    RuleSet,
    get_rules,
)
from tienlen.rules.registry import presets

__all__ = ["BOT_KINDS", "AgentError", "AgentGame", "Move", "rules_named"]


def _pimc() -> Player:
    from tienlen.search import PIMCPlayer  # noqa: PLC0415  # only when asked for

    return PIMCPlayer(worlds=8, seconds=0.5)


def _ismcts() -> Player:
    from tienlen.search import ISMCTSPlayer  # noqa: PLC0415  # only when asked for

    return ISMCTSPlayer(iterations=64, seconds=0.5)


BOT_KINDS: Final[Mapping[str, Callable[[], Player]]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "pimc": _pimc,
    "ismcts": _ismcts,
}
"""The library bots an opponent's seat may be played by, by kind (as ``tienlen serve``)."""


class AgentError(TienLenError, ValueError):
    """A request the agent's tools refuse: *code* says which, the message says why.

    Codes: ``no-game``, ``bad-argument``, ``game-over``, ``too-many-games``; for a
    seat at a server's table (`AgentTools.join_table <tienlen.mcp.tools.AgentTools.join_table>`) also ``unreachable``,
    ``refused``, ``unavailable``, ``timeout``, ``disconnected``, ``remote-game``.

    Example:
        >>> error = AgentError("no-game", "no open game 'g9'")
        >>> error.code, str(error)
        ('no-game', "no open game 'g9'")
        >>> import pickle
        >>> pickle.loads(pickle.dumps(error)).code
        'no-game'
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@attrs.frozen
class Move:
    """An action taken at the table, and whether it was a jump-in out of turn.

    Example:
        >>> Move(Pass(player=2), jumped_in=False).action
        Pass(player=2)
    """

    action: Action
    """The action, by the seat that took it (its ``player``)."""
    jumped_in: bool = attrs.field(kw_only=True)
    """Whether it was a Poker jump-in out of turn (RULES §6.4), or the agent's
    `Pass` declining one."""
    went_out: tuple[int, ...] = attrs.field(default=(), kw_only=True)
    """The players who went out with it."""
    won_trick: int | None = attrs.field(default=None, kw_only=True)
    """The player who won the trick it closed, if it closed one."""


class AgentGame:
    """A game with the agent at *seat* and library bots of *opponents*' kinds elsewhere.

    *opponents* names one `BOT_KINDS` kind per other seat, in seat order; the table
    has ``len(opponents) + 1`` players. *seed* makes the deal and the bots'
    randomness reproducible: the game takes its randomness from one
    ``random.Random(seed)``, as `tienlen.play_game` does: every seat of one seed is
    dealt the same hands, and the same choices give `play_game`'s game. *start*, if
    given, is played from instead of a deal (*rules* are then its rules), and *deal*
    names it.

    Raises:
        AgentError: an unknown bot kind, a seat not at the table, or a table size
            the rules do not seat (``bad-argument``).

    Example:
        >>> game = AgentGame(get_rules("poker"), seat=2, opponents=["random"] * 3, seed=1)
        >>> game.seat, game.state.players, sorted(game.kinds)
        (2, 4, [0, 1, 3])
    """

    def __init__(
        self,
        rules: RuleSet,
        *,
        seat: int,
        opponents: Sequence[str],
        seed: int,
        start: GameState | None = None,
        deal: str | None = None,
    ) -> None:
        players = len(opponents) + 1 if start is None else start.players
        if type(seat) is not int or not 0 <= seat < players:
            msg = f"seat {seat!r} is not at a {players}-player table (seats 0-{players - 1})"
            raise AgentError("bad-argument", msg)
        if len(opponents) != players - 1:
            msg = f"{len(opponents)} opponents named for a {players}-player table"
            raise AgentError("bad-argument", msg)
        unknown = [kind for kind in opponents if kind not in BOT_KINDS]
        if unknown:
            msg = f"unknown bot kind {unknown[0]!r:.40} (known: {', '.join(BOT_KINDS)})"
            raise AgentError("bad-argument", msg)
        others = [other for other in range(players) if other != seat]
        self.seat: Final = seat
        """The agent's seat."""
        self.kinds: Final = dict(zip(others, opponents, strict=True))
        """Each other seat's bot kind."""
        self.seed: Final = seed
        """The seed of the deal and of the bots' randomness."""
        if deal is None:
            deal = f"seed {seed}" if start is None else "a given start"
        self.deal: Final = deal
        """The name of the deal; games of one name were dealt the same hands
        (see `tienlen.mcp.duplicate`)."""
        rng = random.Random(seed)
        if start is None:
            try:
                start = GameState.deal(rules, players, rng)
            except TienLenError as error:  # a table size the rules do not seat
                raise AgentError("bad-argument", str(error)) from None
        bots = [
            None if s == seat else BOT_KINDS[self.kinds[s]]() for s in range(players)
        ]
        self._referee = Referee(start, bots, rng)
        self._recorded = start  # the state `moves` records up to
        self._decision: Decision | None = None  # the agent's, while it must decide
        self.moves: list[Move] = []
        """Every action of the game so far, in order."""
        self.last_decision = 0
        """How many of `moves` there were when the agent last acted."""
        self._play_bots()

    @property
    def state(self) -> GameState:
        """The game now.

        Example:
            >>> game = AgentGame(get_rules("classic"), seat=1, opponents=["greedy"], seed=3)
            >>> game.state.players, len(game.state.history) == len(game.moves)
            (2, True)
        """
        return self._referee.state

    @property
    def jumping_in(self) -> bool:
        """Whether the agent's decision is a Poker jump-in offer out of turn.

        Example:
            >>> AgentGame(get_rules("poker"), seat=1, opponents=["greedy"] * 3, seed=3).jumping_in
            False
        """
        return self._decision is not None and self._decision.jumping_in

    @property
    def waiting(self) -> bool:
        """Whether the agent must decide now (the game is not over).

        Example:
            >>> AgentGame(get_rules("classic"), seat=1, opponents=["greedy"], seed=3).waiting
            True
        """
        return not self.state.is_over

    def legal(self) -> tuple[Action, ...]:
        """The agent's legal actions now, in the engine's order (empty once over).

        Offered a jump-in, they are its jump-in plays and a `Pass` meaning "do not
        jump in", as `tienlen.Decision.actions` lists them.

        Example:
            >>> game = AgentGame(get_rules("classic"), seat=0, opponents=["greedy"], seed=3)
            >>> all(action.player == 0 for action in game.legal())
            True
        """
        return () if self._decision is None else self._decision.actions

    def observation(self) -> Observation:
        """What the agent's seat may see now (`Observation.of`).

        Example:
            >>> game = AgentGame(get_rules("classic"), seat=1, opponents=["greedy"], seed=3)
            >>> game.observation().seat
            1
        """
        return Observation.of(self.state, self.seat)

    def resolve(self, choice: str | int) -> Action:
        """The agent's action *choice* names: an index in `legal`, or notation.

        Raises:
            AgentError: the game is over (``game-over``), or an index out of range
                (``bad-argument``).
            IllegalPlayError: the action is not legal now (nothing changes).
            InvalidCardError: the text names no action.

        Example:
            >>> game = AgentGame(get_rules("classic"), seat=0, opponents=["greedy"], seed=3)
            >>> game.resolve(0) == game.legal()[0]
            True
        """
        if self.state.is_over:
            raise AgentError("game-over", "the game is over: no action is taken")
        legal = self.legal()
        if type(choice) is int:
            if not 0 <= choice < len(legal):
                msg = f"no action {choice} among the {len(legal)} legal actions (0-{len(legal) - 1})"
                raise AgentError("bad-argument", msg)
            return legal[choice]
        if not isinstance(choice, str):
            msg = f"an action is notation or an index, not {type(choice).__name__}"
            raise AgentError("bad-argument", msg)
        action = self.state.parse_action(choice[:200], player=self.seat)
        if action in legal:
            return action
        self.state.check(action)  # raises the engine's refusal, with its reason
        msg = f"{str(action)!r} is not one of the seat's legal actions now"
        raise AgentError("bad-argument", msg)

    def act(self, choice: str | int) -> list[Move]:
        """Take the agent's action *choice*; the bots then play until it must decide again.

        Returns:
            The moves made, the agent's first.

        Raises:
            AgentError, IllegalPlayError, InvalidCardError: as `resolve`; the game
                is unchanged.
            PlayerError: a bot failed (as `tienlen.Referee.advance`); the moves
                made before it are recorded.

        Example:
            >>> game = AgentGame(get_rules("classic"), seat=0, opponents=["greedy"], seed=3)
            >>> moves = game.act(0)
            >>> moves[0].action.player, [m.action for m in game.moves] == list(game.state.history)
            (0, True)
        """
        action = self.resolve(choice)
        before = len(self.moves)
        declined = self.jumping_in and type(action) is Pass
        self._referee.decide(action)
        if declined:  # "do not jump in": the poll goes on, nothing is played
            self.moves.append(Move(action, jumped_in=True))
        self.last_decision = before
        self._play_bots()
        return self.moves[before:]

    def _play_bots(self) -> None:
        """Let the bots play until the agent must decide (`tienlen.Referee.advance`).

        The referee asks in `tienlen.play_game`'s order (Poker's jump-in polls
        first, RULES §6.4); the moves made are recorded, a failing bot's included.
        """
        self._decision = None
        try:
            self._decision = self._referee.advance()
        finally:
            self._record()

    def _record(self) -> None:
        """Add a `Move` for each action played since the last record."""
        state = self._recorded
        now = self._referee.state
        for action in now.history[len(state.history) :]:
            after = state.apply(action)
            self.moves.append(_move(state, action, after))
            state = after
        self._recorded = now


def _move(before: GameState, action: Action, after: GameState) -> Move:
    """The `Move` of *action*, played in *before* to give *after*."""
    won = None
    if before.top is not None and after.top is None and not after.is_over:
        won = action.player if type(action) is Play else before.last_player
    went_out = after.finish_order[len(before.finish_order) :]
    jumped_in = action.player != before.to_act
    return Move(action, jumped_in=jumped_in, went_out=went_out, won_trick=won)


def rules_named(name: str) -> BaseRules:
    """The preset *name* (`tienlen.get_rules`), refused as an `AgentError`.

    Example:
        >>> rules_named("poker").name
        'poker'
    """
    try:
        return get_rules(name)
    except TienLenError:
        known = ", ".join(p.name for p in presets(listed_only=False))
        msg = f"unknown rules {name!r:.60} (known: {known})"
        raise AgentError("bad-argument", msg) from None
