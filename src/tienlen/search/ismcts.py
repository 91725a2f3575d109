"""`ISMCTSPlayer`: single-observer information-set Monte Carlo tree search.

One tree over the actions seen from the bot's seat, shared by every determinization
(Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", 2012).
Each iteration takes a sampled world (`sample_world`), walks down the tree choosing
among the moves legal in that world by UCB1 — counted against how often each move was
available, since opponents' moves differ between worlds — adds one node, plays the
world out with the rollout policy and backs up every player's reward, each node
scored for the player whose move it is.

At the root it spends its budget by *sequential halving* (Karnin, Koren and Somekh,
"Almost Optimal Exploration in Multi-Armed Bandits", 2013; at the root of a tree
search as in Pepels, Cazenave, Winands and Lanctot, "Minimizing Simple and Cumulative
Regret in Monte-Carlo Tree Search", 2014): in rounds, every surviving root move gets
one iteration in each world sampled (a *sweep*), and after each round the worse half
is dropped. The survivors are always compared in the same worlds, as `PIMCPlayer`
compares its candidates, and the best of them get most of the worlds. A reward is a
player's score *less the mean of the sweep's scores in the same world* (a control
variate: Veness, Lanctot and Bowling, "Variance Reduction in Monte-Carlo Tree Search",
2011): who was dealt the 2s moves a score far more than any one decision does.

``root="ucb"`` is plain ISMCTS at the root as well: UCB1 there, each world serving a
few iterations in a row (`iterations_per_world`), a reward measured against what the
rollout policy alone scores in that world (one more rollout per world).

Example:
    >>> import random
    >>> from tienlen import CLASSIC, GameState, Observation
    >>> state = GameState.deal(CLASSIC, players=4, seed=3)
    >>> bot = ISMCTSPlayer(iterations=8, max_candidates=3)
    >>> seen, actions = Observation.of(state, state.to_act), state.legal_actions()
    >>> bot.act(seen, actions, random.Random(0)) in actions
    True

.. versionadded:: 0.2
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Final, Literal

import attrs

from tienlen.errors import InvalidArgumentError
from tienlen.game import Action, GameState
from tienlen.players import GreedyPlayer, Observation, Player
from tienlen.search.rollouts import (
    apply_searched,
    candidates,
    check_bot,
    check_budget,
    check_decision,
    deadline,
    expired,
    is_declined_jump_in,
    own_actions,
    play_out,
)
from tienlen.search.sampling import Deal

__all__ = ["ISMCTSPlayer"]

_ROOTS: Final = ("halving", "ucb")
"""The ways `ISMCTSPlayer` searches its root."""


class _Node:
    """A tree node: the move that led here and its statistics (for the mover)."""

    __slots__ = ("available", "children", "mover", "moves", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        """Who made the move leading to this node."""
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.total = 0.0
        """The sum of the mover's rewards over the visits."""
        self.available = 0
        """How often the move was legal when its parent was visited."""
        self.moves: list[Action] | None = None
        """The searching seat's moves from here, when it is to act (the same in every world)."""


@attrs.frozen(kw_only=True)
class ISMCTSPlayer:
    """Information-set MCTS over determinizations: sequential halving at the root, UCB1 below.

    Per decision it runs at most *iterations* iterations (one rollout each), fewer when
    *seconds* run out first. By default (``root="halving"``) the budget is split evenly
    over ⌈log₂ n⌉ rounds for n root moves; in each round every surviving move gets one
    iteration per sampled world, and the better half (by total score over those same
    worlds) goes on to the next round. It returns the best survivor. The first world
    is always finished; a world the time runs out in is left out, as in `PIMCPlayer`.
    With ``root="ucb"`` the root is searched by UCB1 like every other node and it
    returns the root move with the best mean reward.

    Moves at every node are pruned as for `PIMCPlayer` (one play per class, at most
    *max_candidates*); in the tree the other players' Poker jump-ins are left to the
    rollouts. Rewards are scaled by the spread seen in the search, so *exploration* is
    the UCB1 constant for rewards in [0, 1].

    It keeps no state between decisions and draws only from the *rng* it is given, so
    it is picklable and a game is reproducible from its seed (without *seconds*).

    Example:
        >>> from tienlen import POKER, GreedyPlayer, simulate
        >>> bot = ISMCTSPlayer(iterations=4, max_candidates=2)
        >>> stats = simulate(2, rules=POKER, players=[bot, GreedyPlayer()], seed=1)
        >>> stats.games
        2

    .. versionadded:: 0.2
    """

    iterations: int = 64
    """Iterations per decision, one rollout each (a sweep of the root moves per sampled
    world with the halving; a world per ``iterations_per_world`` with UCB1)."""
    max_candidates: int = 8
    """Moves considered at a node, at most."""
    seconds: float | None = None
    """A time limit per decision (checked after each iteration), or ``None``."""
    opponent_candidates: int = 1
    """Moves considered for the other players, at most, Greedy's first (with 1 they play
    only Greedy's move in the tree: the stronger setting measured in docs/search.md)."""
    exploration: float = 0.15
    """The UCB1 exploration constant, for rewards scaled to [0, 1]."""
    root: Literal["halving", "ucb"] = "halving"
    """How the root's moves share the budget: ``"halving"`` (sequential halving over
    common worlds, the stronger setting measured in docs/search.md) or ``"ucb"``.

    .. versionadded:: 0.2
    """
    iterations_per_world: int = 4
    """With ``root="ucb"``: iterations run in each sampled world before the next is drawn."""
    baseline: bool = attrs.field(
        default=True, validator=attrs.validators.instance_of(bool)
    )
    """Whether a reward is the score less a baseline from the same world (``False``:
    the raw score, as in plain ISMCTS): the mean of the sweep's scores with
    ``root="halving"``, the rollout policy's own score with ``root="ucb"``."""
    rollout: Player = attrs.field(factory=GreedyPlayer)
    """The policy every player follows in a rollout."""
    first_game: bool | None = None
    """Whether the games it plays are first games of a match (see `sample_world`);
    ``None`` (the default) reads it from each observation (`Observation.first_game`)."""

    def __attrs_post_init__(self) -> None:
        check_budget("iterations", self.iterations, self.seconds, self.max_candidates)
        check_budget(
            "opponent_candidates", self.opponent_candidates, None, self.max_candidates
        )
        check_budget(
            "iterations_per_world", self.iterations_per_world, None, self.max_candidates
        )
        if type(self.exploration) not in (int, float):
            msg = f"exploration must be a number, got {self.exploration!r}"
            raise TypeError(msg)
        if not self.exploration >= 0:
            msg = f"exploration must be a non-negative number, got {self.exploration!r}"
            raise InvalidArgumentError(msg)
        if not isinstance(self.root, str):
            msg = f"root must be 'halving' or 'ucb', got {self.root!r}"  # type: ignore[unreachable]
            raise TypeError(msg)
        if self.root not in _ROOTS:
            msg = f"root must be 'halving' or 'ucb', got {self.root!r}"
            raise InvalidArgumentError(msg)
        check_bot(self.rollout, self.first_game)

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The best root move: the last survivor of the halving, or the best mean (UCB).

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.deal(CLASSIC, players=2, seed=22)
            >>> seen, actions = Observation.of(state, state.to_act), state.legal_actions()
            >>> str(GreedyPlayer().act(seen, actions, random.Random()))
            '3s 3d'
            >>> str(ISMCTSPlayer(iterations=16).act(seen, actions, random.Random(0)))
            '3s'
        """
        check_decision(observation, actions, rng)
        if len(actions) == 1:
            return actions[0]
        moves = candidates(observation, actions, self.max_candidates)
        if len(moves) == 1:
            return moves[0]
        deal = Deal.of(observation, first_game=self.first_game)
        if self.root == "halving":
            return self._halve(deal, observation.seat, moves, rng)
        return self._search_by_ucb(deal, observation.seat, moves, rng)

    def _halve(
        self, deal: Deal, seat: int, moves: list[Action], rng: random.Random
    ) -> Action:
        """Sequential halving of *moves* over sweeps of common worlds."""
        root, spread = _Node(seat), _Spread()
        totals = dict.fromkeys(moves, 0)  # the seat's score over every complete sweep
        survivors = moves
        rounds = math.ceil(math.log2(len(moves)))
        start = time.perf_counter()
        end = None if self.seconds is None else start + self.seconds
        spent = 0
        for number in range(rounds):
            share = (self.iterations - spent) // (rounds - number)
            round_end = (
                None
                if self.seconds is None
                else start + self.seconds * (number + 1) / rounds
            )
            used = 0
            while not used or (
                used + len(survivors) <= share and not expired(round_end)
            ):
                if spent + len(survivors) > self.iterations and spent:
                    return _best(survivors, totals)  # the count budget is spent
                world = deal.sample(rng)
                scores = self._sweep(
                    root, world, survivors, spread, rng, end if spent else None
                )
                if scores is None:
                    return _best(survivors, totals)  # the time ran out in this world
                for move, score in zip(survivors, scores, strict=True):
                    totals[move] += score
                used += len(survivors)
                spent += len(survivors)
            survivors = sorted(survivors, key=lambda move: -totals[move])
            survivors = survivors[: -(-len(survivors) // 2)]  # stable: ties keep order
        return _best(survivors, totals)

    def _sweep(
        self,
        root: _Node,
        world: GameState,
        moves: list[Action],
        spread: _Spread,
        rng: random.Random,
        end: float | None,
    ) -> list[int] | None:
        """One iteration per root move in *world*; the seat's scores, or ``None``.

        The rewards backed up are the scores less the sweep's mean score per player
        (every move played in the same world), or the raw scores without `baseline`.
        ``None``: *end* passed before the sweep was done, and nothing is backed up.
        """
        walks = []
        for move in moves:
            walks.append(self._walk(root, world, moves, spread, rng, move))
            if expired(end):
                return None
        players = world.players
        base = [0.0] * players
        if self.baseline:
            base = [sum(s[p] for _, s in walks) / len(walks) for p in range(players)]
        for path, scores in walks:
            self._back_up(
                path, [s - b for s, b in zip(scores, base, strict=True)], spread
            )
        return [scores[root.mover] for _, scores in walks]

    def _search_by_ucb(
        self, deal: Deal, seat: int, moves: list[Action], rng: random.Random
    ) -> Action:
        """Plain ISMCTS: UCB1 at the root too, worlds reused, the best mean returned."""
        root, spread = _Node(seat), _Spread()
        end = deadline(self.seconds)
        world = deal.sample(rng)
        base = self._baseline(world, rng)
        for iteration in range(self.iterations):
            if iteration and iteration % self.iterations_per_world == 0:
                world = deal.sample(rng)
                base = self._baseline(world, rng)
            self._iterate(root, world, moves, (spread, base), rng)
            if expired(end):
                break
        return max(moves, key=lambda move: _value(root, move))

    def _baseline(self, world: GameState, rng: random.Random) -> tuple[int, ...]:
        """What each player scores in *world* when the rollout policy plays every seat."""
        if not self.baseline:
            return (0,) * world.players
        return play_out(world, self.rollout, rng)

    def _iterate(
        self,
        root: _Node,
        world: GameState,
        moves: list[Action],
        rewards: tuple[_Spread, tuple[int, ...]],
        rng: random.Random,
    ) -> None:
        """One iteration in *world*: select, expand one node, roll out, back up.

        *rewards* holds the spread of the rewards so far and the world's baseline
        scores, which every score is measured against.
        """
        spread, base = rewards
        path, scores = self._walk(root, world, moves, spread, rng)
        self._back_up(path, [s - b for s, b in zip(scores, base, strict=True)], spread)

    def _walk(
        self,
        root: _Node,
        world: GameState,
        moves: list[Action],
        spread: _Spread,
        rng: random.Random,
        first: Action | None = None,
    ) -> tuple[list[_Node], tuple[int, ...]]:
        """Select down from *root* (taking *first* there, if given), expand, roll out.

        Returns the nodes visited and every player's score at the end of the rollout.
        """
        seat = root.mover
        node, mover, path = root, seat, []
        declining = None
        while True:
            for move in moves:
                child = node.children.get(move)
                if child is not None:
                    child.available += 1
            untried = [move for move in moves if move not in node.children]
            if first is not None:
                move, first = first, None
                expanding = move in untried
            elif untried:
                move = untried[0]  # the most promising first (`PIMCPlayer`'s order)
                expanding = True
            else:
                move = max(moves, key=lambda m: self._ucb(node.children[m], spread))
                expanding = False
            if expanding:
                child = node.children[move] = _Node(mover)
                child.available = 1
            else:
                child = node.children[move]
            if node is root and is_declined_jump_in(world, move):
                declining = seat
            world = apply_searched(world, move)
            path.append(child)
            node = child
            if expanding or world.to_act is None:
                break
            declining = None
            mover = world.to_act
            moves = self._moves(node, world, seat)
        return path, play_out(world, self.rollout, rng, declining)

    @staticmethod
    def _back_up(path: list[_Node], gains: Sequence[float], spread: _Spread) -> None:
        """Add every player's *gains* to the nodes of *path*, each for its mover."""
        spread.update(gains)
        for visited in path:
            visited.visits += 1
            visited.total += gains[visited.mover]

    def _moves(self, node: _Node, world: GameState, seat: int) -> list[Action]:
        """The moves searched at *node*: the seat's own are worked out once."""
        mover = world.to_act
        assert mover is not None
        if mover == seat and node.moves is not None:
            return node.moves
        limit = self.max_candidates if mover == seat else self.opponent_candidates
        moves = candidates(Observation.of(world, mover), own_actions(world), limit)
        if mover == seat:
            node.moves = moves
        return moves

    def _ucb(self, child: _Node, spread: _Spread) -> float:
        """UCB1 of *child*, counted against its availability."""
        mean = (child.total / child.visits - spread.low) / spread.width
        return mean + self.exploration * math.sqrt(
            math.log(child.available) / child.visits
        )


def _best(moves: list[Action], totals: dict[Action, int]) -> Action:
    """The move of *moves* with the highest total (the first of equals)."""
    return max(moves, key=totals.__getitem__)


def _value(root: _Node, move: Action) -> tuple[float, int]:
    """How good *move* looks at the root: its mean reward, then its visits."""
    child = root.children.get(move)
    if child is None or not child.visits:
        return -math.inf, 0
    return child.total / child.visits, child.visits


class _Spread:
    """The lowest and highest reward seen in a search, to scale rewards to [0, 1]."""

    __slots__ = ("high", "low")

    def __init__(self) -> None:
        self.low = math.inf
        self.high = -math.inf

    def update(self, scores: Sequence[float]) -> None:
        self.low = min(self.low, *scores)
        self.high = max(self.high, *scores)

    @property
    def width(self) -> float:
        return max(1.0, self.high - self.low)
