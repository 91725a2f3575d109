"""What each action of a decision is worth to the seat, over the worlds it cannot tell apart.

`best_actions` is the analysis's ``multipv``: for one seat of a position it values
every candidate action (``tienlen.search.rollouts.candidates``, the search bots'
pruning, plus any action asked for) by its expected final score and its chance of
going out first, over worlds drawn from what that seat has seen
(`tienlen.sample_world`). Every candidate is played out in the same worlds with the
same rollout randomness (common random numbers), so the luck of the deal cancels
between them. With *endgame_nodes*, a play-out that reaches a **known-hands
ending** — two players left on a dealt-out deck, each knowing the other's hand —
takes the solver's value there (best play by both, `solve`, within *endgame_nodes*
positions) instead of playing on by the rollout policy: where every hand is known the
values are then the solver's exact ones. Beside each value is the *perfect-information* value of the action in
the true position, every hand shown: exact (`solve`) when the search is small enough,
else a rollout of the true position.

The worlds are drawn by `sample_world`, so the position must be one a deal leads to
(`GameState.deal`, a record's game), not one built from chosen hands.

Example:
    >>> from tienlen import CLASSIC, GameState
    >>> state = GameState.deal(CLASSIC, players=2, seed=22)
    >>> best = best_actions(state, state.to_act, k=2, budget=8)
    >>> [str(value.action) for value in best]
    ['3s 3d', '3s']
    >>> best[0].score
    Estimate(mean=0.5, low=-0.141549, high=1.141549)
    >>> best[0].first.mean, best[0].perfect, best[0].perfect_exact
    (0.75, -1.0, False)

.. versionadded:: 0.3
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

import attrs

from tienlen._checks import check_count, check_type
from tienlen.analysis.solver import SolverLimitError, solve
from tienlen.engine import referee
from tienlen.errors import InvalidArgumentError
from tienlen.game import Action, GameState, Pass, Play
from tienlen.players import GreedyPlayer, Observation, Player
from tienlen.search.rollouts import (
    apply_searched,
    candidates,
    is_declined_jump_in,
    play_out,
    play_out_result,
)
from tienlen.search.sampling import sample_world

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_CANDIDATES",
    "ENDGAME_NODES",
    "ActionValue",
    "Estimate",
    "best_actions",
    "value_actions",
]

DEFAULT_BUDGET: Final = 64
"""Worlds sampled per decision by default: with 10 candidates, 640 rollouts (about a
quarter of a second of CPU for a 4-player classic decision, docs/analysis.md)."""
DEFAULT_CANDIDATES: Final = 10
"""Actions valued per decision by default (the search bots' pruning)."""
ENDGAME_NODES: Final = 2_000
"""A node limit for the known-hands endings of the play-outs (`value_actions`'s
*endgame_nodes*; about 50 ms of CPU a solve at most). Not the default: 0, the
play-outs are the rollout policy's to the end (docs/analysis.md says why)."""
PERFECT_NODES: Final = 5_000
"""The solver's node limit for the perfect-information column; past it, a rollout."""
PERFECT_CARDS: Final = 10
"""The solver is tried for the perfect column only with at most this many cards in hand."""
_Z95: Final = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


@attrs.frozen
class Estimate:
    """A sampled mean with its 95% confidence interval.

    Example:
        >>> Estimate.of_scores([1, -1, 1, 1])
        Estimate(mean=0.5, low=-0.479982, high=1.479982)
    """

    mean: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        """Half the interval's width, the ± of the estimate.

        Example:
            >>> Estimate(0.5, 0.25, 0.75).half_width
            0.25
        """
        return (self.high - self.low) / 2

    @classmethod
    def of_scores(cls, scores: Sequence[float]) -> Estimate:
        """The mean of *scores*, ± 1.96 standard errors (the normal interval).

        Example:
            >>> Estimate.of_scores([3, 3, 3])
            Estimate(mean=3.0, low=3.0, high=3.0)
        """
        n = len(scores)
        mean = sum(scores) / n
        if n < 2:
            return cls(mean, mean, mean)
        variance = sum((s - mean) ** 2 for s in scores) / (n - 1)
        half = _Z95 * math.sqrt(variance / n)
        return cls(round(mean, 6), round(mean - half, 6), round(mean + half, 6))

    @classmethod
    def of_chance(cls, hits: int, n: int) -> Estimate:
        """The chance *hits* in *n*, with its Wilson score interval.

        Example:
            >>> Estimate.of_chance(0, 16)
            Estimate(mean=0.0, low=0.0, high=0.193608)
        """
        p = hits / n
        z2 = _Z95 * _Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = _Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return cls(
            round(p, 6),
            round(max(0.0, centre - half), 6),
            round(min(1.0, centre + half), 6),
        )


@attrs.frozen
class ActionValue:
    """One action's value to the seat: sampled over its information, and with all hands shown.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.deal(CLASSIC, players=2, seed=22)
        >>> value = best_actions(state, state.to_act, k=1, budget=4)[0]
        >>> str(value.action), value.samples, value.perfect_exact
        ('3s', (1, 1, 1, 1), False)
    """

    action: Action
    """The action (a `Pass` by a seat not to act declines a jump-in)."""
    score: Estimate
    """The expected final score over the sampled worlds."""
    first: Estimate
    """The chance of going out first over the sampled worlds."""
    perfect: float | None
    """The final score in the true position with every hand shown, the solver's,
    else a rollout's (`perfect_exact` says which); ``None`` when not computed."""
    perfect_exact: bool
    """Whether `perfect` is the solver's exact value."""
    samples: tuple[int, ...] = attrs.field(eq=False, repr=False)
    """The score in each sampled world, in the order drawn (the same worlds for every
    action of the decision: differences between actions are paired)."""


def seat_actions(state: GameState, seat: int) -> list[Action]:
    """What *seat* may do now: its own actions, or its jump-ins and declining them.

    Raises:
        InvalidArgumentError: *seat* has no decision now.
    """
    actions = [a for a in state.legal_actions() if a.player == seat]
    if actions and seat != state.to_act:
        actions.append(Pass(player=seat))  # "do not jump in"
    if not actions:
        msg = f"player {seat} has no decision to make now (player {state.to_act} is to act)"
        raise InvalidArgumentError(msg)
    return actions


def value_actions(
    state: GameState,
    seat: int,
    *,
    budget: int = DEFAULT_BUDGET,
    max_candidates: int = DEFAULT_CANDIDATES,
    include: Sequence[Action] = (),
    seed: int = 0,
    rollout: Player | None = None,
    endgame_nodes: int = 0,
) -> list[ActionValue]:
    """Every candidate action of *seat* valued (best first), without the perfect column.

    The candidates are the first *max_candidates* of the search bots'
    (``tienlen.search.rollouts.candidates``), and the actions of *include* (e.g.
    the one played). See `best_actions` for the arguments.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.deal(CLASSIC, players=2, seed=22)
        >>> values = value_actions(state, state.to_act, budget=4, max_candidates=1)
        >>> [str(value.action) for value in values], values[0].perfect
        (['3s 3d'], None)
    """
    check_type("state", state, GameState)
    check_count("budget", budget, 1)
    check_count("max_candidates", max_candidates, 1)
    check_count("seed", seed, 0)
    check_count("endgame_nodes", endgame_nodes, 0)
    if state.is_over:
        msg = "the game is over: there is no decision to value"
        raise InvalidArgumentError(msg)
    check_count("seat", seat, 0)
    if seat >= state.players:
        msg = f"no player {seat} at a {state.players}-player table"
        raise InvalidArgumentError(msg)
    policy = GreedyPlayer() if rollout is None else rollout
    actions = seat_actions(state, seat)
    observation = Observation.of(state, seat)
    searched = candidates(observation, actions, max_candidates)
    for action in include:
        if action not in actions:
            msg = f"{action} is not an action of player {seat} now"
            raise InvalidArgumentError(msg)
        if action not in searched:
            searched.append(action)
    rng = random.Random(seed)
    endings = _Endings(endgame_nodes) if _dealt_out(state) and endgame_nodes else None
    scores: list[list[int]] = [[] for _ in searched]
    firsts = [0] * len(searched)
    for _ in range(budget):
        world = sample_world(observation, rng)
        rollout_seed = rng.getrandbits(64)
        for index, action in enumerate(searched):
            declining = seat if is_declined_jump_in(world, action) else None
            after = apply_searched(world, action)
            final = _final(
                after, policy, random.Random(rollout_seed), declining, endings
            )
            scores[index].append(final[0][seat])
            firsts[index] += final[1] == seat
    values = [
        ActionValue(
            action,
            Estimate.of_scores(scores[i]),
            Estimate.of_chance(firsts[i], budget),
            None,
            perfect_exact=False,
            samples=tuple(scores[i]),
        )
        for i, action in enumerate(searched)
    ]
    values.sort(
        key=lambda value: -value.score.mean
    )  # stable: candidates' order in ties
    return values


def _final(
    world: GameState,
    policy: Player,
    rng: random.Random,
    declining: int | None,
    endings: _Endings | None,
) -> tuple[tuple[int, ...], int]:
    """The scores of *world* played out by *policy*, and who went out first.

    With *endings*, a known-hands ending reached on the way (or *world* itself) is
    valued by the solver, when it fits the node limit.
    """
    if world.result is not None:
        result = world.final_result()
        return result.scores, result.finish_order[0]
    if endings is None or declining is not None:
        result = play_out_result(world, policy, rng, declining)
        return result.scores, result.finish_order[0]
    solved = endings.value(world)
    if solved is not None:
        return solved
    watch = _Watch(endings)
    players = [policy] * world.players
    end = referee.play_out(
        world, players, rng, watch, checked=not referee.trusts(policy)
    )
    if watch.ending is not None:
        solved = endings.value(watch.ending)
        if solved is not None:
            return solved
    result = end.final_result()
    return result.scores, result.finish_order[0]


def _dealt_out(state: GameState) -> bool:
    """Whether every card of the deck was dealt (the unseen cards are the others')."""
    decks = state.rules.deal_size(state.players)[0]
    return sum(len(hand) for hand in state.dealt) == 52 * decks


def _players_left(state: GameState) -> int:
    """How many players are still in the game (`GameState.in_game`, from its mask)."""
    return state.players - state.out.bit_count()


class _Endings:
    """The solver's values of the known-hands endings of one decision's play-outs.

    A known-hands ending is a position of a dealt-out deck with two players left:
    each knows the other's hand (the cards neither holds nor saw played), so their
    best play is the solver's. Values are cached by position; an ending past the
    node limit is remembered as such and played out by the rollout policy.
    """

    def __init__(self, max_nodes: int) -> None:
        self.max_nodes = max_nodes
        self.cache: dict[GameState, tuple[tuple[int, ...], int] | None] = {}

    def value(self, state: GameState) -> tuple[tuple[int, ...], int] | None:
        """The solver's scores of *state* and who goes out first, if it is a known ending."""
        if _players_left(state) != 2:
            return None
        if state in self.cache:
            return self.cache[state]
        answer: tuple[tuple[int, ...], int] | None
        try:
            solution = solve(state, max_nodes=self.max_nodes)
        except SolverLimitError:
            answer = None
        else:
            answer = solution.scores, _first_out(state, solution.line)
        self.cache[state] = answer
        return answer


def _first_out(state: GameState, line: Sequence[Action]) -> int:
    """Who goes out first when *line* is played from *state* to the end."""
    if state.finish_order:
        return state.finish_order[0]
    for action in line:
        state = state.apply(action)
    return state.final_result().finish_order[0]


class _Watch:
    """A play-out's tally (`referee.Tally`) that notes where a known-hands ending starts."""

    def __init__(self, endings: _Endings) -> None:
        self.endings = endings
        self.ending: GameState | None = None

    def count(self, state: GameState, play: Play, mask: int) -> None:
        """Note the position after *play* if it takes the third-last player out."""
        if self.ending is not None or mask != state.hand_masks[play.player]:
            return
        after = state.apply(play)
        if after.result is None and _players_left(after) == 2:
            self.ending = after


def perfect_value(
    state: GameState, seat: int, action: Action, *, max_nodes: int = PERFECT_NODES
) -> tuple[float, bool]:
    """*action*'s value to *seat* in the true *state*, every hand shown.

    The solver's exact value when it needs at most *max_nodes* positions, else the
    score of a `GreedyPlayer` rollout of the true position (also when more than
    `PERFECT_CARDS` cards are in hand, and for a declined jump-in, which the solver
    would offer again); and whether it is exact.
    """
    after = apply_searched(state, action)
    if after.result is not None:
        return float(after.result.scores[seat]), True
    declining = seat if is_declined_jump_in(state, action) else None
    small = sum(len(hand) for hand in after.hands) <= PERFECT_CARDS
    if small and declining is None:  # the solver would offer the jump-in again
        try:
            return float(solve(after, max_nodes=max_nodes).scores[seat]), True
        except SolverLimitError:
            pass
    scores = play_out(after, GreedyPlayer(), random.Random(0), declining)
    return float(scores[seat]), False


def best_actions(
    state: GameState,
    seat: int,
    k: int = 3,
    *,
    budget: int = DEFAULT_BUDGET,
    max_candidates: int = DEFAULT_CANDIDATES,
    seed: int = 0,
    perfect: bool = True,
    rollout: Player | None = None,
    endgame_nodes: int = 0,
) -> tuple[ActionValue, ...]:
    """The *k* best actions of *seat* by expected score over what *seat* has seen.

    Each candidate is played out in *budget* worlds drawn from *seat*'s information
    (`sample_world`), everyone following *rollout* (a `GreedyPlayer` by default)
    (with *endgame_nodes*, until a known-hands ending, which the solver values);
    the same worlds and rollout randomness serve every candidate. Deterministic for
    a given *seed*. It costs *budget* × (candidates) rollouts, and with *perfect* a
    solver call (at most `PERFECT_NODES` positions) or a rollout per action returned.

    Args:
        state: The true position (its other hands are used only for the perfect
            column; the sampled values see only what *seat* has seen).
        seat: The seat deciding: the player to act, or a Poker seat that may jump in
            (its `Pass` then means "do not jump in").
        k: How many actions to return, best first.
        budget: Worlds sampled.
        max_candidates: Actions valued at most (``tienlen.search.rollouts.candidates``).
        seed: The seed of the worlds and the rollouts.
        perfect: Whether to add the perfect-information value.
        rollout: The policy of the play-outs.
        endgame_nodes: The solver's node limit for a known-hands ending (two
            players left on a dealt-out deck) reached by a play-out: within it the
            play-out's value is the solver's (best play by both), past it the
            ending is played out by *rollout*; 0 (the default) plays every
            ending out by *rollout*. A declined Poker jump-in is always played
            out by *rollout*. `ENDGAME_NODES` suits it.

    Raises:
        TypeError: an argument of the wrong type.
        InvalidArgumentError: the game is over, *seat* has no decision now, or a
            count is below 1.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.deal(CLASSIC, players=4, seed=3)
        >>> best = best_actions(state, state.to_act, k=3, budget=4)
        >>> len(best), best[0].score.mean >= best[1].score.mean >= best[2].score.mean
        (3, True)
        >>> best == best_actions(state, state.to_act, k=3, budget=4)
        True
    """
    check_count("k", k, 1)
    values = value_actions(
        state,
        seat,
        budget=budget,
        max_candidates=max_candidates,
        seed=seed,
        rollout=rollout,
        endgame_nodes=endgame_nodes,
    )[:k]
    if perfect:
        values = [with_perfect(state, seat, value) for value in values]
    return tuple(values)


def with_perfect(state: GameState, seat: int, value: ActionValue) -> ActionValue:
    """*value* with its perfect-information column filled in (`perfect_value`)."""
    score, exact = perfect_value(state, seat, value.action)
    return attrs.evolve(value, perfect=score, perfect_exact=exact)
