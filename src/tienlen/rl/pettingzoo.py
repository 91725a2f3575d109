"""The PettingZoo AEC environment ``tienlen_v0`` (issue 12 §2).

Every seat is an agent (``player_0`` …). The observation is a dict: ``observation``,
the flat `tienlen.rl.observation` vector of the observing seat, and ``action_mask``,
int8 over the action table, all zeros for an agent that is not deciding (PettingZoo's
convention). Decisions follow `tienlen.rl.turns.Turns`: Poker jump-ins (RULES §6.4)
are out-of-turn decisions of the seats that could jump in, PASS declining. Rewards come
only at the end, when every agent terminates together.

Example:
    >>> from tienlen import POKER
    >>> from tienlen.rl.pettingzoo import env
    >>> game = env(rules=POKER, players=4)
    >>> game.reset(seed=42)
    >>> while game.agents:
    ...     observation, reward, terminated, truncated, info = game.last()
    ...     mask = observation["action_mask"]
    ...     game.step(None if terminated else int(mask.nonzero()[0][0]))
    >>> game.final_state.is_over
    True
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tienlen.errors import InvalidArgumentError
from tienlen.game import GameState
from tienlen.rl.table import ActionTable
from tienlen.rl.turns import Turns, check_reward, deal_playable
from tienlen.rules import CLASSIC, BaseRules

__all__ = ["TienLenEnv", "env", "raw_env"]

_Obs = dict[str, np.ndarray[Any, Any]]


class TienLenEnv(AECEnv):  # type: ignore[misc]  # PettingZoo is untyped
    """Tiến Lên for PettingZoo: one agent per seat, turn by turn (AEC).

    Args:
        rules: The variant (any `tienlen.BaseRules`, presets and house rules).
        players: Seats at the table.
        reward: ``"score"``, ``"win"`` or ``"place"`` (see `tienlen.rl.turns.rewards`).
        history: Past actions in each observation.
        render_mode: ``"ansi"`` (the table as text) or ``None``.

    Example:
        >>> game = TienLenEnv(players=3, reward="win")
        >>> game.reset(seed=1)
        >>> agent = game.agent_selection
        >>> mask = game.observe(agent)["action_mask"]
        >>> int(game.action_space(agent).n) == len(mask), int(mask.sum()) > 0
        (True, True)
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "tienlen_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: BaseRules = CLASSIC,
        players: int = 4,
        reward: str = "score",
        history: int = 8,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        rules.deal_size(players)  # the player count is checked here
        if render_mode not in (None, "ansi"):
            msg = f"render_mode must be 'ansi' or None, not {render_mode!r}"
            raise InvalidArgumentError(msg)
        self.rules = rules
        self.reward = check_reward(reward)
        self.render_mode = render_mode
        self._history = history
        self._table = ActionTable.for_rules(rules)
        self._rng = random.Random()
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents: list[str] = []
        probe = Turns(
            deal_playable(rules, players, random.Random(0)), self._table, history
        )
        layout = probe.encoder.layout
        space = spaces.Dict(
            {
                "observation": spaces.Box(
                    0.0, layout.high, (layout.size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, (probe.size,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {
            agent: spaces.Discrete(probe.size) for agent in self.possible_agents
        }
        self._turns = probe

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of *agent* (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of *agent*: `Discrete` over the action table."""
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> None:
        """Deal a new game; the same *seed* deals the same game (see `Turns.deal`)."""
        del options
        if seed is not None:
            self._rng = random.Random(seed)
        self._turns = Turns.deal(
            self.rules, len(self.possible_agents), self._rng, self._table, self._history
        )
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def observe(self, agent: str) -> _Obs:
        """*agent*'s observation and action mask (zeros unless it decides now)."""
        seat = self.possible_agents.index(agent)
        turns = self._turns
        if seat == turns.decider:
            mask = turns.mask()
        else:
            mask = np.zeros(turns.size, dtype=np.int8)
        return {"observation": turns.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The selected agent takes *action* (an index legal in its mask).

        Raises:
            tienlen.rl.turns.IllegalActionError: the action is not legal now.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            msg = f"{agent} must act; None is only for terminated agents"
            raise InvalidArgumentError(msg)
        self._cumulative_rewards[agent] = 0.0
        turns = self._turns
        turns.act(int(action))
        if turns.decider is None:
            for agent_name, value in zip(
                self.agents, turns.seat_rewards(self.reward), strict=True
            ):
                self.rewards[agent_name] = value
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        self._select()

    def _select(self) -> None:
        decider = self._turns.decider
        if decider is None:
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[decider]

    @property
    def final_state(self) -> GameState:
        """The `tienlen.GameState` of the current game (``state.result`` at the end)."""
        return self._turns.state

    def state(self) -> np.ndarray[Any, Any]:
        """The perfect-information view from the deciding seat (centralised critics)."""
        turns = self._turns
        return turns.encoder.perfect(turns.state, turns.decider or 0)

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        return str(self._turns.state)

    def close(self) -> None:
        """Nothing to release."""


def raw_env(**kwargs: Any) -> TienLenEnv:
    """A `TienLenEnv` without PettingZoo's checking wrappers.

    Example:
        >>> from tienlen import POKER
        >>> raw_env(rules=POKER, players=4).metadata["name"]
        'tienlen_v0'
    """
    return TienLenEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """``tienlen_v0``: a `TienLenEnv` in PettingZoo's order-enforcing wrapper.

    Example:
        >>> game = env(players=2)
        >>> game.reset(seed=0)
        >>> game.agents
        ['player_0', 'player_1']
    """
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
