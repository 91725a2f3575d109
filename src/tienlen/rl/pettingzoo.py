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
from pettingzoo.utils.env_logger import EnvLogger

from tienlen.errors import InvalidArgumentError
from tienlen.game import GameState
from tienlen.rl._checks import as_index, as_rules, check_render_mode
from tienlen.rl.table import ActionTable
from tienlen.rl.turns import IllegalActionError, Turns, check_reward, deal_playable
from tienlen.rules import CLASSIC, BaseRules

__all__ = ["TienLenEnv", "env", "raw_env"]

_Obs = dict[str, np.ndarray[Any, Any]]


class TienLenEnv(AECEnv):  # type: ignore[misc]  # PettingZoo is untyped
    """Tiến Lên for PettingZoo: one agent per seat, turn by turn (AEC).

    Args:
        rules: The variant (any `tienlen.BaseRules`, presets and house rules, or a
            preset's name).
        players: Seats at the table.
        reward: ``"score"``, ``"win"`` or ``"place"`` (see `tienlen.rl.turns.rewards`).
        history: Past actions in each observation.
        render_mode: ``"ansi"`` (`render` returns the table as text), ``"human"``
            (`render` prints it) or ``None``.

    Raises:
        TypeError: *rules* is neither a rule set nor a preset's name, or a count is
            not an ``int``.
        tienlen.errors.InvalidArgumentError: a bad reward, render mode or history.
        tienlen.errors.InvalidRulesError: *rules* is not played by *players*.

    Example:
        >>> from tienlen import CLASSIC
        >>> from tienlen.rl.pettingzoo import TienLenEnv
        >>> game = TienLenEnv(CLASSIC, players=3, reward="win")
        >>> game.reset(seed=5)
        >>> game.agent_selection, game.final_state.to_act
        ('player_2', 2)

        Only the deciding agent's mask has legal entries:

        >>> masks = {agent: game.observe(agent)["action_mask"] for agent in game.agents}
        >>> [agent for agent, mask in masks.items() if mask.any()]
        ['player_2']
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "tienlen_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: BaseRules | str = CLASSIC,
        players: int = 4,
        reward: str = "score",
        history: int = 8,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        rules = as_rules(rules)
        rules.deal_size(players)  # the player count is checked here
        check_render_mode(render_mode)
        self.rules = rules
        self.reward = check_reward(reward)
        self.render_mode = render_mode
        self._history = history
        self._table = ActionTable.for_rules(rules)
        self._rng = random.Random()
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seats = {name: seat for seat, name in enumerate(self.possible_agents)}
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
        self.state_space = spaces.Box(
            0.0, layout.high, (layout.size + players * (52 + 1),), dtype=np.float32
        )
        """The space of `state`: the perfect-information vector."""
        self._turns = probe

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of *agent* (the same for every agent).

        Raises:
            tienlen.errors.InvalidArgumentError: no agent has that name.
        """
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of *agent*: `Discrete` over the action table.

        Raises:
            tienlen.errors.InvalidArgumentError: no agent has that name.
        """
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    def _seat(self, agent: object) -> int:
        """The seat of the agent called *agent*."""
        seat = self._seats.get(agent) if type(agent) is str else None
        if seat is not None:
            return seat
        msg = f"no agent is called {agent!r:.60} (agents: {', '.join(self.possible_agents)})"
        raise InvalidArgumentError(msg)

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
        """*agent*'s observation and action mask (zeros unless it decides now).

        Raises:
            tienlen.errors.InvalidArgumentError: no agent has that name.
        """
        seat = self._seat(agent)
        turns = self._turns
        if seat == turns.decider:
            mask = turns.mask()
        else:
            mask = np.zeros(turns.size, dtype=np.int8)
        return {"observation": turns.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The selected agent takes *action* (an index legal in its mask).

        A terminated agent steps with ``None`` (PettingZoo's dead step). After every
        agent is done, a step changes nothing and logs PettingZoo's warning, as its
        order-enforcing wrapper does.

        Raises:
            tienlen.rl.turns.IllegalActionError: the action is not legal now, or the
                environment was never reset.
            TypeError: *action* is not an ``int`` or a numpy integer (or ``None``
                for a terminated agent).
            ValueError: a terminated agent was given an action (PettingZoo's rule).
        """
        if not hasattr(self, "agent_selection"):
            msg = "call reset() before step()"
            raise IllegalActionError(msg)
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                msg = f"{agent} is done: its only action is None"
                raise InvalidArgumentError(msg)
            self._was_dead_step(action)
            return
        if action is None:
            msg = f"{agent} must act; None is only for terminated agents"
            raise InvalidArgumentError(msg)
        index = as_index(action)
        self._cumulative_rewards[agent] = 0.0
        turns = self._turns
        turns.step(index)
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
        """The `tienlen.GameState` of the current game (``state.result`` at the end).

        Example:
            >>> from tienlen import POKER
            >>> from tienlen.rl.pettingzoo import TienLenEnv
            >>> game = TienLenEnv(POKER, players=4)
            >>> game.reset(seed=1)
            >>> game.final_state.is_over
            False
            >>> while game.agents:
            ...     observation, reward, terminated, truncated, info = game.last()
            ...     mask = observation["action_mask"]
            ...     game.step(None if terminated else int(mask.nonzero()[0][-1]))
            >>> game.final_state.is_over, len(game.final_state.result.scores)
            (True, 4)
        """
        return self._turns.state

    def state(self) -> np.ndarray[Any, Any]:
        """The perfect-information view (centralised critics): every hand. Privileged.

        From a fixed viewpoint, seat 0, whoever decides: seat 0's observation, every
        seat's hand from seat 0 on, and the deciding seat, one-hot by seat number
        (all zero once the game is over). Its space is `state_space`. Never hand it to
        an acting agent: it shows the cards the others hold.

        Example:
            >>> from tienlen import CLASSIC
            >>> from tienlen.rl.pettingzoo import TienLenEnv
            >>> game = TienLenEnv(CLASSIC, players=4)
            >>> game.reset(seed=5)
            >>> view = game.state()
            >>> game.state_space.contains(view), int(view[-4:].argmax()) == game.final_state.to_act
            (True, True)
        """
        turns = self._turns
        decider = np.zeros(len(self.possible_agents), dtype=np.float32)
        if turns.decider is not None:
            decider[turns.decider] = 1.0
        return np.concatenate([turns.encoder.perfect(turns.state, 0), decider])

    def render(self) -> str | None:
        """The table as text: returned (``"ansi"``), printed to stdout (``"human"``).

        The text shows every hand: it is for people watching, not for agents.
        """
        return self._turns.render(self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


def raw_env(**kwargs: Any) -> TienLenEnv:
    """A `TienLenEnv` without PettingZoo's checking wrappers.

    Example:
        >>> from tienlen import POKER
        >>> from tienlen.rl.pettingzoo import TienLenEnv, raw_env
        >>> game = raw_env(rules=POKER, players=3)
        >>> isinstance(game, TienLenEnv), game.possible_agents
        (True, ['player_0', 'player_1', 'player_2'])
    """
    return TienLenEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """``tienlen_v0``: a `TienLenEnv` in PettingZoo's order-enforcing wrapper.

    Example:
        >>> from tienlen.rl.pettingzoo import TienLenEnv, env
        >>> game = env(players=4)
        >>> game.metadata["name"], isinstance(game.unwrapped, TienLenEnv)
        ('tienlen_v0', True)
        >>> game.step(0)  # the wrapper checks the order of calls
        Traceback (most recent call last):
        ...
        AssertionError: reset() needs to be called before step.
    """
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
