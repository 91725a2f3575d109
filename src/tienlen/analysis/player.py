"""`AnalysisPlayer`: a bot that plays the analysis's choice.

At each decision it does what a review of the game would call best:

- **exactly**, when the seat can know every hand — one deck dealt out among the
  players, one opponent left: the unseen cards are that opponent's — by solving every
  action (`tienlen.analysis.solve`, within `AnalysisPlayer.max_nodes` positions) and
  playing the one that scores most (the first of them, in the order the actions came);
- otherwise, and when the exact search is too large, by the analysis's values
  (`tienlen.analysis.values.value_actions`): *budget* worlds drawn from what the seat
  has seen, every candidate played out by Greedy in each, the best mean score.

Example:
    >>> from tienlen import CLASSIC, GreedyPlayer, simulate
    >>> stats = simulate(2, rules=CLASSIC, players=[AnalysisPlayer(budget=2), GreedyPlayer()], seed=1)
    >>> stats.games
    2

.. versionadded:: 0.3
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Final

import attrs

from tienlen._checks import check_count
from tienlen.analysis.solver import SolverLimitError, solve
from tienlen.analysis.values import DEFAULT_BUDGET, DEFAULT_CANDIDATES, value_actions
from tienlen.game import Action, GameState
from tienlen.search.rollouts import check_decision
from tienlen.search.sampling import SamplingError, sample_world
from tienlen.seat import Observation

__all__ = ["DEFAULT_PLAYER_NODES", "AnalysisPlayer"]

DEFAULT_PLAYER_NODES: Final = 20_000
"""Positions `AnalysisPlayer` searches at most to solve a decision exactly (about a
second of CPU); a larger search falls back to the sampled values."""

_DECK: Final = 52


@attrs.frozen
class AnalysisPlayer:
    """A bot that plays the analysis's choice: exact where it can be, sampled elsewhere.

    It keeps no state between decisions and draws only from the *rng* it is given, so
    a game is reproducible from its seed. A decision with one legal action costs
    nothing; a sampled one costs *budget* × candidates Greedy play-outs (about 0.3 s
    of CPU at the default budget in a 4-player classic game).

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.deal(CLASSIC, players=2, seed=22)
        >>> seen, actions = Observation.of(state, state.to_act), state.legal_actions()
        >>> str(AnalysisPlayer(budget=8).act(seen, actions, random.Random(0)))
        '3s 3d'

    .. versionadded:: 0.3
    """

    changes_nothing: ClassVar[bool] = True
    """It changes nothing it is handed (see `tienlen.Player`)."""

    budget: int = DEFAULT_BUDGET
    """Worlds sampled per decision that is not solved exactly."""
    max_candidates: int = DEFAULT_CANDIDATES
    """Actions valued at most per sampled decision."""
    max_nodes: int = DEFAULT_PLAYER_NODES
    """Positions searched at most to solve a decision exactly."""

    def __attrs_post_init__(self) -> None:
        check_count("budget", self.budget, 1)
        check_count("max_candidates", self.max_candidates, 1)
        check_count("max_nodes", self.max_nodes, 1)

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The action the analysis rates best (see the class description).

        Raises:
            TypeError: an argument of the wrong type.
            InvalidArgumentError: *actions* is empty.
            SamplingError: the observation is of a game that did not start from a deal
                (a position from the notation) and cannot be solved exactly.

        Example:
            >>> import random
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.deal(CLASSIC, players=2, seed=22)
            >>> bot, seen = AnalysisPlayer(budget=4), Observation.of(state, state.to_act)
            >>> first = bot.act(seen, state.legal_actions(), random.Random(5))
            >>> first == bot.act(seen, state.legal_actions(), random.Random(5))  # the same seed
            True
        """
        check_decision(observation, actions, rng)
        if len(actions) == 1:
            return actions[0]
        world = _known_world(observation, rng)
        if world is not None:
            exact = self._solved(world, observation.seat, actions)
            if exact is not None:
                return exact
        else:
            world = sample_world(observation, rng)
        values = value_actions(
            world,
            observation.seat,
            budget=self.budget,
            max_candidates=self.max_candidates,
            seed=rng.getrandbits(32),
        )
        best = values[0].action
        return next(action for action in actions if action == best)

    def _solved(
        self, world: GameState, seat: int, actions: Sequence[Action]
    ) -> Action | None:
        """The action of *actions* that scores most in *world*, or ``None`` past the limit."""
        left = self.max_nodes
        best: tuple[int, Action] | None = None
        for action in actions:
            after = world.apply(action)
            if after.result is not None:
                score = after.result.scores[seat]
            else:
                if left < 1:
                    return None
                try:
                    solution = solve(after, max_nodes=left)
                except SolverLimitError:
                    return None
                left -= solution.nodes
                score = solution.scores[seat]
            if best is None or score > best[0]:
                best = (score, action)
        assert best is not None  # actions is not empty
        return best[1]


def _known_world(observation: Observation, rng: random.Random) -> GameState | None:
    """The true position, when *observation* shows it; else ``None``.

    It does when one deck is dealt out, no jump-in is asked and one opponent is
    left: the cards neither held nor played are that opponent's (`sample_world` then
    has one world to draw). ``None`` too for a game `sample_world` cannot replay.
    """
    if observation.jumping_in or getattr(observation.rules, "decks", 1) != 1:
        return None
    counts = observation.card_counts
    others = [s for s, n in enumerate(counts) if n and s != observation.seat]
    unseen = _DECK - len(observation.hand) - len(observation.played)
    if len(others) != 1 or counts[others[0]] != unseen:
        return None
    try:
        return sample_world(observation, rng)  # the only world there is
    except SamplingError:
        return None
