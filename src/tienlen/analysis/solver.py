"""An exact solver for positions with every hand known (perfect information).

`solve` searches a `GameState` to the end of the game and returns every seat's final
score under best play, with the line that reaches it. Each seat maximises its own
final score (**max^n**, Luckhardt and Irani 1986): this is what a table of
self-interested players does, and it is exact for any number of players. Among
actions that give the mover the same score, the mover takes the one that gives the
others the least in total, then the lowest score vector (seat by seat): a fixed rule,
so the value does not depend on the order the actions are tried in.

Two players left under stake scoring (every preset but Poker) is a zero-sum duel:
whoever goes out first of the two decides every score. There the solver runs an
exact two-player minimax with alpha-beta cut-offs on a win-or-lose value (the first
winning action ends the search of a node), the actions that go out or shed the most
cards tried first. Everywhere else it searches every action. A transposition table
keyed by the position (`GameState` equality: the position, not its history) shares
the value of every position reached by more than one line.

Poker jump-ins (RULES §6.4) are decisions too: the seats that may jump in are asked
in play direction from the player to act, as `tienlen.players.poll_jump_ins` asks
them, and each decides between its jump-ins and declining before the player to act
moves.

Example:
    >>> from tienlen import CLASSIC, GameState
    >>> state = GameState.from_hands(["3s 4s 2h", "5d 6d"], CLASSIC)
    >>> solution = solve(state)
    >>> solution.scores, [str(action) for action in solution.line]
    ((1, -1), ['3s', '5d', '2h', 'pass', '4s'])

.. versionadded:: 0.3
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, Generic, TypeVar

import attrs

from tienlen._checks import check_count, check_type
from tienlen.errors import InvalidArgumentError, TienLenError
from tienlen.game import Action, GameState
from tienlen.players import Observation
from tienlen.scoring import StakeScorer

__all__ = ["DEFAULT_MAX_NODES", "Solution", "SolverLimitError", "solve"]

DEFAULT_MAX_NODES: Final = 2_000_000
"""Positions `solve` searches before it gives up (a few seconds to a minute of CPU)."""

_Scores = tuple[int, ...]


class SolverLimitError(TienLenError, ValueError):
    """The position needs more search than the node limit allows.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.deal(CLASSIC, players=4, seed=1)
        >>> solve(state, max_nodes=100)
        Traceback (most recent call last):
        ...
        tienlen.analysis.solver.SolverLimitError: the position needs more than 100 nodes of search (max_nodes=100): solve a smaller one, or raise the limit

    .. versionadded:: 0.3
    """


@attrs.frozen
class Solution:
    """What `solve` found: the final scores under best play and the line to them.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> solve(GameState.from_hands(["3s 9h", "5d 6d"], CLASSIC))
        Solution(scores=(1, -1), line=(Play(player=0, cards=Hand.parse('3s')), Play(player=1, cards=Hand.parse('5d')), Play(player=0, cards=Hand.parse('9h'))), nodes=5)

    .. versionadded:: 0.3
    """

    scores: tuple[int, ...]
    """Every seat's final score of the game with best play from the position."""
    line: tuple[Action, ...]
    """The principal line, the actions played from the position to the end of the
    game (a declined jump-in is no action and is not listed)."""
    nodes: int
    """How many positions were searched (each once; the table answers the rest)."""


def solve(state: GameState, *, max_nodes: int = DEFAULT_MAX_NODES) -> Solution:
    """The exact value of *state* with every seat playing its best (see the module).

    Args:
        state: A game going on; every hand is known in a `GameState`.
        max_nodes: Positions to search at most before giving up.

    Returns:
        The final scores and the principal line.

    Raises:
        TypeError: *state* is not a `GameState` (an `Observation` is refused with
            `InvalidArgumentError`: its hidden hands must be sampled first), or
            *max_nodes* is not an ``int``.
        InvalidArgumentError: the game is over, *max_nodes* is below 1, or *state*
            is an `Observation`.
        SolverLimitError: the search needs more than *max_nodes* positions.

    Example:
        >>> from tienlen import POKER, GameState
        >>> state = GameState.from_hands(["3s 4s", "5d 2h", "6c 7c"], POKER)
        >>> solve(state).scores  # Poker plays counterclockwise: 0, 2, 1
        (0, 4, 2)
        >>> solve(GameState.from_hands(["3s", "5d 6d"], POKER).play("3s"))
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidArgumentError: the game is over: there is nothing to solve
    """
    if isinstance(state, Observation):  # type: ignore[unreachable]
        msg = (  # type: ignore[unreachable]
            "solve needs every hand, and an Observation hides the others': "
            "sample a world (tienlen.sample_world) or use best_actions"
        )
        raise InvalidArgumentError(msg)
    check_type("state", state, GameState)
    check_count("max_nodes", max_nodes, 1)
    if state.is_over:
        msg = "the game is over: there is nothing to solve"
        raise InvalidArgumentError(msg)
    search = _Search(max_nodes, duels=type(state.rules.scorer) is StakeScorer)
    scores = search.value(state, 0)
    return Solution(scores, search.line(state), search.nodes)


def _decisions(state: GameState) -> list[tuple[int, list[Action]]]:
    """Who decides at *state*, in the order asked: jump-in seats, then the player to act.

    Each seat's jump-in offer is its jump-in plays; declining is not listed.
    """
    to_act = state.to_act
    own: list[Action] = []
    others: dict[int, list[Action]] = {}
    for action in state.legal_actions():
        if action.player == to_act:
            own.append(action)
        else:
            others.setdefault(action.player, []).append(action)
    assert to_act is not None  # the game goes on
    return [*others.items(), (to_act, own)]


def _preference(mover: int, scores: _Scores) -> tuple[int, int, tuple[int, ...]]:
    """How *mover* ranks a final score vector: its own score, then the least to the rest."""
    return scores[mover], -sum(scores), tuple(-score for score in scores)


_V = TypeVar("_V")


class _Table(Generic[_V]):
    """A transposition table: values by position, equal positions sharing one.

    A `GameState` hashes its rule set on every lookup, the same for every position of a
    search; the table hashes the fields that change in play instead and confirms a
    hit with ``==`` (the whole position), so a shared key never mixes positions up.
    """

    def __init__(self) -> None:
        self.entries: dict[tuple[object, ...], list[tuple[GameState, _V]]] = {}

    @staticmethod
    def key(state: GameState, poll: int) -> tuple[object, ...]:
        """The fields of *state* that play changes, and the decision *poll*."""
        return (
            state.hand_masks, state.to_act, state.top_mask, state.last_player,
            state.locked, state.out, state.finish_order, state.chop, state.items, poll,
        )  # fmt: skip

    def get(self, state: GameState, poll: int = 0) -> _V | None:
        """The value stored for *state* at *poll*, if any."""
        for stored, value in self.entries.get(self.key(state, poll), ()):
            if stored == state:
                return value
        return None

    def put(self, state: GameState, value: _V, poll: int = 0) -> None:
        """Store *value* for *state* at *poll*."""
        self.entries.setdefault(self.key(state, poll), []).append((state, value))


class _Search:
    """One search: its transposition tables, node count and limit."""

    def __init__(self, max_nodes: int, *, duels: bool) -> None:
        self.max_nodes = max_nodes
        self.duels = duels
        self.nodes = 0
        self.table: _Table[_Scores] = _Table()
        self.duel_table: _Table[tuple[_Scores, int]] = _Table()

    def count(self) -> None:
        """Count a node; refuse to go past the limit."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            msg = (
                f"the position needs more than {self.max_nodes} nodes of search "
                f"(max_nodes={self.max_nodes}): solve a smaller one, or raise the limit"
            )
            raise SolverLimitError(msg)

    def is_duel(self, state: GameState) -> bool:
        """Whether *state* is a zero-sum duel: stakes, two players left."""
        if not self.duels:
            return False
        return state.players - state.out.bit_count() == 2  # `in_game`, from its mask

    def value(self, state: GameState, poll: int) -> _Scores:
        """The scores of *state* (at its *poll*-th decision) under best play."""
        result = state.result
        if result is not None:
            return result.scores
        if poll == 0 and self.is_duel(state):
            return self.duel(state)[0]
        known = self.table.get(state, poll)
        if known is not None:
            return known
        self.count()
        best: _Scores | None = None
        best_rank: tuple[int, int, tuple[int, ...]] | None = None
        mover = -1
        for mover, child, next_poll in self.children(state, poll):
            scores = self.value(child, next_poll)
            rank = _preference(mover, scores)
            if best_rank is None or rank > best_rank:
                best, best_rank = scores, rank
        assert best is not None  # a game going on offers an action
        self.table.put(state, best, poll)
        return best

    def children(self, state: GameState, poll: int) -> list[tuple[int, GameState, int]]:
        """The mover at *poll* and the positions after each of its choices."""
        decisions = _decisions(state)
        seat, actions = decisions[poll]
        after = [(seat, state.apply(action), 0) for action in actions]
        if poll < len(decisions) - 1:  # a jump-in seat may decline
            after.append((seat, state, poll + 1))
        return after

    def duel(self, state: GameState) -> tuple[_Scores, int]:
        """The scores of a duel and who of the two goes out first, under best play."""
        known = self.duel_table.get(state)
        if known is not None:
            return known
        self.count()
        mover = state.to_act
        answer: tuple[_Scores, int] | None = None
        for child in _duel_children(state):
            answer = self.outcome(child, state)
            if answer[1] == mover:
                break  # a win: nothing is better (the alpha-beta cut-off)
        assert answer is not None
        self.duel_table.put(state, answer)
        return answer

    def outcome(self, child: GameState, state: GameState) -> tuple[_Scores, int]:
        """The duel's value after a move from *state* to *child*."""
        result = child.result
        if result is None:
            return self.duel(child)
        return result.scores, _first_of_two(result.finish_order, state)

    def line(self, state: GameState) -> tuple[Action, ...]:
        """The principal line from *state*, read back from the tables."""
        line: list[Action] = []
        poll = 0
        while not state.is_over:
            if poll == 0 and self.is_duel(state):
                state = self.duel_step(state)
                line.append(state.history[-1])
                continue
            target = self.value(state, poll)
            decisions = _decisions(state)
            actions = decisions[poll][1]
            for action in actions:
                child = state.apply(action)
                if self.value(child, 0) == target:
                    line.append(action)
                    state, poll = child, 0
                    break
            else:
                poll += 1  # declining the jump-in keeps the value
        return tuple(line)

    def duel_step(self, state: GameState) -> GameState:
        """The position after the duel's best action at *state*."""
        target = self.duel(state)
        for child in _duel_children(state):
            if self.outcome(child, state) == target:
                return child
        raise AssertionError  # pragma: no cover - the table holds a child's value


def _duel_children(state: GameState) -> Iterator[GameState]:
    """The positions after each action of a duel, the most cards shed first, a pass last.

    Actions are applied as card masks (`GameState.apply_mask`): no action object is
    built in the search's hot loop.
    """
    masks = sorted(state.legal_actions().masks, key=int.bit_count, reverse=True)
    for mask in masks:
        yield state.apply_mask(mask)


def _first_of_two(order: tuple[int, ...], state: GameState) -> int:
    """Who of the two players left in *state* is first in *order*."""
    pair = [seat for seat in range(state.players) if not state.out >> seat & 1]
    return min(pair, key=order.index)
