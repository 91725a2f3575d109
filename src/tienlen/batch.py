"""Many games stepped together on ints, one decision each: `Batch` (RULES §1.5, §6.4).

A decision belongs to one seat: the player to act, or, before they choose, each other
seat that may jump in (Poker, RULES §6.4), asked in the order `tienlen.play_game` asks
bots (`Actions.by_seat`). A seat asked about a jump-in is offered its jump-ins and may
decline; the first to jump in plays. `Batch.step` takes one card mask per game (0:
pass, or decline) and moves every game on with `GameState.apply_mask`, without any
action object. `tienlen.rl.vector.VectorEnv` steps its games through one; it suits any
caller that plays many games at once on ints (batched search, a game server's bots).

Example:
    >>> import random
    >>> from tienlen import CLASSIC, GameState
    >>> games = Batch([GameState.deal(CLASSIC, 4, random.Random(seed)) for seed in (1, 2)])
    >>> [len(plays) for plays in games.plays], games.deciders
    ([4, 2], (2, 2))
    >>> moved, seats, masks, over = games.step([plays[0] for plays in games.plays])
    >>> moved, seats, over, [state.to_act for state in games.states]
    ([0, 1], [2, 2], [], [3, 3])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import SupportsIndex, cast

from tienlen.errors import InvalidArgumentError
from tienlen.game import GameState, mask_index

__all__ = ["Batch"]

JumpIns = list[tuple[int, tuple[int, ...]]]
"""Seats still to be asked about a jump-in, each with its jump-ins."""
_Fields = tuple[
    list[GameState],
    list[int],
    list[tuple[int, ...]],
    list[bool],
    list[tuple[int, ...]],
    list[bool],
    list[JumpIns],
]
"""What a pickled `Batch` holds: its lists, in slot order."""


class Batch:
    """Games in progress and the decision each awaits, as ints.

    Args:
        states: The games, each with a player to act.

    Raises:
        InvalidArgumentError: a state is over.
        TypeError: a state is not a `tienlen.GameState`.

    Example:
        >>> from tienlen import POKER, GameState
        >>> hands = ["2s 9h", "3c Kd", "5s 5c 6s 6c 7s 7c 8s 8c", "4d Qh"]
        >>> start = GameState.from_hands(hands, POKER, first_game=False, leader=0)
        >>> games = Batch([start.play("2s")])  # seat 3 to act; seat 2 may bomb the 2
        >>> games.deciders, games.passes, games.polling(0)
        ((2,), (True,), True)
        >>> _ = games.step([0])  # seat 2 declines: seat 3 decides
        >>> games.deciders, games.polling(0)
        ((3,), False)
    """

    __slots__ = (
        "_deciders",
        "_own",
        "_own_pass",
        "_passes",
        "_plays",
        "_polls",
        "_states",
    )

    _states: list[GameState]
    _deciders: list[int]
    _plays: list[tuple[int, ...]]
    _passes: list[bool]
    _own: list[tuple[int, ...]]
    """The player to act's plays, in a game whose other seats are asked first."""
    _own_pass: list[bool]
    """Whether that player may pass."""
    _polls: list[JumpIns]
    """Per game, the seats still to be asked about a jump-in."""

    def __init__(self, states: Sequence[GameState]) -> None:
        given: list[object] = list(states)  # read untyped: checked here, in both builds
        for state in given:
            _check_in_play(state)
        count = len(given)
        self._states = cast("list[GameState]", given)
        self._deciders = [0] * count
        self._plays = [()] * count
        self._passes = [False] * count
        self._own = [()] * count
        self._own_pass = [False] * count
        self._polls = [[] for _ in range(count)]
        for game in range(count):
            self._begin(game, self._states[game])

    @property
    def states(self) -> tuple[GameState, ...]:
        """Each game's state now.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> start = GameState.from_hands(["3s 9h", "4d"], CLASSIC)
            >>> Batch([start]).states == (start,)
            True
        """
        return tuple(self._states)

    @property
    def deciders(self) -> tuple[int, ...]:
        """Each game's deciding seat.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> Batch([GameState.from_hands(["4d", "3s 9h"], CLASSIC)]).deciders
            (1,)
        """
        return tuple(self._deciders)

    @property
    def plays(self) -> tuple[tuple[int, ...], ...]:
        """The plays each game's decider is offered, as card masks.

        Example:
            >>> from tienlen import CLASSIC, GameState, Hand
            >>> games = Batch([GameState.from_hands(["3s 9h", "4d"], CLASSIC)])
            >>> [str(Hand(mask)) for mask in games.plays[0]]
            ['3s']
        """
        return tuple(self._plays)

    @property
    def passes(self) -> tuple[bool, ...]:
        """Whether each game's decider may pass (for a seat asked about a jump-in, decline).

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> start = GameState.from_hands(["3s 9h", "4d 5c"], CLASSIC)
            >>> Batch([start]).passes, Batch([start.play("3s")]).passes
            ((False,), (True,))
        """
        return tuple(self._passes)

    def restart(self, game: int, state: GameState) -> None:
        """Put *state* in place of game *game* (a new deal, say) and ask its first decision.

        Raises:
            IndexError: no game *game*.
            InvalidArgumentError: *state* is over.
            TypeError: *state* is not a `tienlen.GameState`.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> games = Batch([GameState.from_hands(["3s", "4d 5d"], CLASSIC)])
            >>> _, _, _, over = games.step([games.plays[0][0]])  # seat 0 goes out
            >>> over, games.states[0].is_over
            ([0], True)
            >>> games.restart(0, GameState.from_hands(["4d 5d", "3s"], CLASSIC))
            >>> games.deciders
            (1,)
        """
        _check_in_play(state)
        self._states[game] = state
        self._polls[game] = []
        self._begin(game, state)

    def __reduce__(self) -> tuple[type[Batch], tuple[list[GameState]], _Fields]:
        """Pickle and copy the games and their decisions, a poll under way included."""
        fields: _Fields = (
            list(self._states),
            list(self._deciders),
            list(self._plays),
            list(self._passes),
            list(self._own),
            list(self._own_pass),
            [list(poll) for poll in self._polls],
        )
        return Batch, ([],), fields

    def __setstate__(self, fields: _Fields) -> None:
        """Restore what `__reduce__` saved (no game is asked its decision again)."""
        states, deciders, plays, passes, own, own_pass, polls = fields
        lists = (deciders, plays, passes, own, own_pass, polls)
        if any(len(values) != len(states) for values in lists):
            msg = "a pickled Batch holds one decision per game"
            raise InvalidArgumentError(msg)
        # read untyped: checked here, in both builds
        self._states = [_game_state(state) for state in cast("list[object]", states)]
        self._deciders = list(deciders)
        self._plays = list(plays)
        self._passes = list(passes)
        self._own = list(own)
        self._own_pass = list(own_pass)
        self._polls = list(polls)

    def polling(self, game: int) -> bool:
        """Whether game *game*'s decider is asked out of turn about a jump-in.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> Batch([GameState.from_hands(["3s 9h", "4d"], CLASSIC)]).polling(0)
            False
        """
        return self._deciders[game] != self._states[game].to_act

    def step(
        self, masks: Sequence[SupportsIndex]
    ) -> tuple[list[int], list[int], list[int], list[int]]:
        """Each game's decider plays ``masks[game]`` (0: pass, or decline a jump-in).

        Each mask must be one its decider is offered (`plays`), or 0 where passing is
        (`passes`); a game that ends is left over (`restart` it), the others are asked
        their next decision.

        Returns:
            The games that moved (a decline moves none), the seat and the mask each
            played, and the games now over.

        Raises:
            IllegalPlayError: a mask its decider may not play (from
                `GameState.apply_mask`); no game moves.
            InvalidArgumentError: not one mask per game, or a legal mask not
                offered; no game moves.
            TypeError: a mask is not an integer (``bool`` is not).

        Example:
            >>> from tienlen import CLASSIC, GameState, Hand
            >>> games = Batch([GameState.from_hands(["3s 9h", "4d 5c"], CLASSIC)])
            >>> moved, seats, masks, over = games.step([Hand.parse("3s").mask])
            >>> moved, seats, [str(Hand(mask)) for mask in masks], over, games.deciders
            ([0], [0], ['3s'], [], (1,))
        """
        chosen = self._checked(masks)
        states, deciders = self._states, self._deciders
        moved: list[int] = []
        seats: list[int] = []
        played: list[int] = []
        over: list[int] = []
        for game in range(len(states)):
            state = states[game]
            seat = deciders[game]
            mask = chosen[game]
            in_turn = seat == state.to_act
            if not mask and not in_turn:  # a seat asked about a jump-in declines
                self._decline(game, state)
                continue
            state = state.apply_mask(mask, None if in_turn else seat)
            states[game] = state
            moved.append(game)
            seats.append(seat)
            played.append(mask)
            if state.to_act is None:
                over.append(game)
            else:
                self._begin(game, state)
        return moved, seats, played, over

    def _checked(self, masks: Sequence[SupportsIndex]) -> list[int]:
        """*masks* as ints, each offered to its game's decider (else refused)."""
        if len(masks) != len(self._states):
            msg = f"expected {len(self._states)} masks, got {len(masks)}"
            raise InvalidArgumentError(msg)
        chosen = [mask if type(mask) is int else mask_index(mask) for mask in masks]
        plays, passes = self._plays, self._passes
        for game in range(len(chosen)):
            mask = chosen[game]
            if not (mask in plays[game] if mask else passes[game]):
                self._refuse(game, mask)
        return chosen

    def _refuse(self, game: int, mask: int) -> None:
        """Raise the error of *mask* not offered in game *game*: the rules' if illegal."""
        seat = self._deciders[game]
        self._states[game].apply_mask(mask, seat)  # raises if *seat* may not play it
        msg = f"seat {seat} is not offered the mask {mask:#x} now in game {game}"
        raise InvalidArgumentError(msg)

    def _begin(self, game: int, state: GameState) -> None:
        """Ask *state*'s first decision: seats that may jump in first (RULES §6.4)."""
        own, may_pass, jump_ins = state.legal_actions().by_seat()
        if jump_ins:
            self._own[game] = own
            self._own_pass[game] = may_pass
            seat, plays = jump_ins[0]
            self._polls[game] = list(jump_ins[1:])
            self._offer(game, seat, plays, passes=True)
        else:
            self._offer(game, state.to_act, own, passes=may_pass)  # type: ignore[arg-type]  # in play

    def _decline(self, game: int, state: GameState) -> None:
        """The seat asked about a jump-in declined: ask the next, or the player to act."""
        poll = self._polls[game]
        if poll:
            seat, plays = poll.pop(0)
            self._offer(game, seat, plays, passes=True)
        else:
            to_act: int = state.to_act  # type: ignore[assignment]  # in play
            self._offer(game, to_act, self._own[game], passes=self._own_pass[game])

    def _offer(
        self, game: int, seat: int, plays: tuple[int, ...], *, passes: bool
    ) -> None:
        self._deciders[game] = seat
        self._plays[game] = plays
        self._passes[game] = passes


def _game_state(value: object) -> GameState:
    """*value*, refused unless it is a `GameState`."""
    if type(value) is not GameState:
        msg = f"expected a GameState, not {type(value).__name__}"
        raise TypeError(msg)
    return value


def _check_in_play(state: object) -> None:
    """Refuse anything but a `GameState` with a player to act."""
    if _game_state(state).to_act is None:
        msg = "the game is over: nobody decides"
        raise InvalidArgumentError(msg)
