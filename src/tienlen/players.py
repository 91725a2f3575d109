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

import random
from collections.abc import Callable, Sequence
from typing import ClassVar

import attrs

from tienlen._checks import (
    check_count,
    check_players,
    check_time_limit,
    check_type,
)
from tienlen.engine.greedy import act as greedy_act
from tienlen.engine.referee import play_out, poll
from tienlen.game import Action, GameState, Play
from tienlen.seat import Observation, Player, PlayerError

__all__ = [
    "GreedyPlayer",
    "Observation",
    "Player",
    "PlayerError",
    "RandomPlayer",
    "play_game",
    "poll_jump_ins",
]


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
    """A `PlayerError` pickled by 0.2 (whose pickles name this module) rebuilt."""
    error = PlayerError(seat, player, action, problem=problem, batch=batch, game=game)
    error.args = (message,)
    error.__cause__ = cause
    return error


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
    check_players(players)
    check_time_limit(time_limit)
    check_type("state", state, GameState)
    check_type("rng", rng, random.Random)

    return play_out(state, players, rng, None, time_limit)


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

    return poll(state, state.legal_actions(), ask)


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
    .. versionchanged:: 0.3
       Declares ``changes_nothing``, as any bot may.
    """

    changes_nothing: ClassVar[bool] = True
    """It changes nothing it is handed (see `Player`)."""

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
        return actions[int(rng.random() * len(actions))]


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
    .. versionchanged:: 0.3
       Declares ``changes_nothing``, as any bot may; reads its actions as ints
       (`Actions.masks`), which any bot may too. Its heuristic is
       ``tienlen.engine.greedy.act``, compiled in the compiled build.
    """

    changes_nothing: ClassVar[bool] = True
    """It changes nothing it is handed (see `Player`)."""

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
        return greedy_act(observation, actions, self.danger)
