"""`PIMCPlayer`: determinized (perfect-information) Monte Carlo search.

For each decision it samples a few worlds consistent with what it sees
(`sample_world`), plays every candidate action out in each world with a rollout
policy, and takes the candidate with the best mean score (Long et al., "Understanding
the success of perfect information Monte Carlo sampling in game tree search", 2010).
Every candidate is played out in the same worlds, so world luck cancels between them.

Example:
    >>> import random
    >>> from tienlen import CLASSIC, GameState, Observation
    >>> state = GameState.deal(CLASSIC, players=4, seed=3)
    >>> bot = PIMCPlayer(worlds=2, max_candidates=3)
    >>> seen, actions = Observation.of(state, state.to_act), state.legal_actions()
    >>> bot.act(seen, actions, random.Random(0)) in actions
    True

.. versionadded:: 0.2
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs

from tienlen.game import Action
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
    play_out,
)
from tienlen.search.sampling import Deal

__all__ = ["PIMCPlayer"]


@attrs.frozen(kw_only=True)
class PIMCPlayer:
    """Determinized Monte Carlo: sampled worlds, rollouts, the best mean score.

    Per decision it costs at most ``worlds * max_candidates`` rollouts (games played
    to the end by *rollout*), fewer when *seconds* run out first: it always finishes
    the first world, checks the time after every rollout, and leaves out a world the
    time ran out in, so every candidate is compared over the same worlds. A decision
    with one legal action costs nothing. Candidates are
    pruned to one play per class (kind, length, top card), the `GreedyPlayer` choice
    and a pass first, then the lowest plays of every shape in turn.

    It keeps no state between decisions and draws only from the *rng* it is given, so
    it is picklable and a game is reproducible from its seed (without *seconds*).

    Example:
        >>> from tienlen import POKER, GreedyPlayer, simulate
        >>> bot = PIMCPlayer(worlds=1, max_candidates=2)
        >>> stats = simulate(2, rules=POKER, players=[bot, GreedyPlayer()], seed=1)
        >>> stats.games
        2

    .. versionadded:: 0.2
    """

    worlds: int = 16
    """Worlds sampled per decision (by default the budget that meets issue 12's Poker
    target, about 70 ms of CPU per decision: docs/search.md)."""
    max_candidates: int = 10
    """Actions searched per decision, at most."""
    seconds: float | None = None
    """A time limit per decision (checked after each rollout), or ``None``."""
    rollout: Player = attrs.field(factory=GreedyPlayer)
    """The policy every player follows in a rollout."""
    first_game: bool | None = None
    """Whether the games it plays are first games of a match (see `sample_world`);
    ``None`` (the default) reads it from each observation (`Observation.first_game`)."""

    def __attrs_post_init__(self) -> None:
        check_budget("worlds", self.worlds, self.seconds, self.max_candidates)
        check_bot(self.rollout, self.first_game)

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The candidate with the best mean score over the sampled worlds.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.deal(CLASSIC, players=2, seed=22)
            >>> seen, actions = Observation.of(state, state.to_act), state.legal_actions()
            >>> str(GreedyPlayer().act(seen, actions, random.Random()))
            '3s 3d'
            >>> str(PIMCPlayer(worlds=4).act(seen, actions, random.Random(0)))
            '3s'
        """
        check_decision(observation, actions, rng)
        if len(actions) == 1:
            return actions[0]
        searched = candidates(observation, actions, self.max_candidates)
        if len(searched) == 1:
            return searched[0]
        seat = observation.seat
        totals = [0] * len(searched)
        end = deadline(self.seconds)
        deal = Deal.of(observation, first_game=self.first_game)
        for number in range(self.worlds):
            world = deal.sample(rng)
            scores = []
            for action in searched:
                declining = seat if is_declined_jump_in(world, action) else None
                after = apply_searched(world, action)
                scores.append(play_out(after, self.rollout, rng, declining)[seat])
                if number and expired(end):
                    break
            if len(scores) < len(searched):
                break  # the time ran out inside this world: it is left out
            totals = [
                total + score for total, score in zip(totals, scores, strict=True)
            ]
            if expired(end):
                break
        best = max(range(len(searched)), key=totals.__getitem__)  # first of equals
        return searched[best]
