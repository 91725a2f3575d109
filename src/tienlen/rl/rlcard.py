"""The RLCard adapter: ``register()`` then ``rlcard.make("tienlen", config)`` (issue 12 §2).

State ids are the action table's indices; ``state["legal_actions"]`` maps each legal
index to the `tienlen.rl.observation.action_feature` of the play it stands for (its
class filled with the lowest suits), so RLCard's DMC agent (DouZero's method) scores
every legal play, and ``env.action_shape`` gives the feature size it needs.

An agent's state holds only what its seat may see: ``raw_obs`` is the seat's
`tienlen.Observation` (its own hand and the public table), never the game state;
``get_perfect_information`` is the privileged view, for people and centralised critics.

Config keys, besides RLCard's ``seed`` and ``allow_step_back`` (not supported):
``game_rules`` (a preset's name or a `tienlen.BaseRules`, default classic),
``game_num_players`` (default 4), ``game_reward`` (``"score"``, ``"win"``, ``"place"``).

Seeding: the env deals from its own ``np_random`` (RLCard's ``config["seed"]``), but
RLCard's agents (``RandomAgent``, DMC) draw from numpy's *global* RNG: call
``rlcard.utils.set_seed(seed)`` as well to reproduce whole games.

Example:
    >>> import rlcard
    >>> from rlcard.agents import RandomAgent
    >>> from rlcard.utils import set_seed
    >>> from tienlen.rl import rlcard as tienlen_rlcard
    >>> tienlen_rlcard.register()
    >>> def play(seed):
    ...     set_seed(seed)  # numpy's global RNG, which the agents use
    ...     env = rlcard.make("tienlen", {"game_rules": "poker", "seed": seed})
    ...     env.set_agents([RandomAgent(env.num_actions) for _ in range(env.num_players)])
    ...     trajectories, payoffs = env.run()
    ...     return payoffs.tolist(), [len(t) for t in trajectories]
    >>> play(3) == play(3), len(play(3)[0])
    (True, 4)
"""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Any, Final

import numpy as np
import rlcard
from rlcard.envs import Env
from rlcard.envs.registration import DEFAULT_CONFIG as _RLCARD_DEFAULTS

from tienlen.cards import Hand
from tienlen.errors import InvalidArgumentError
from tienlen.players import Observation
from tienlen.rl._checks import as_rules
from tienlen.rl.observation import ACTION_FEATURES, action_feature, mask_feature
from tienlen.rl.table import ActionTable
from tienlen.rl.turns import Turns, check_reward, deal_playable
from tienlen.rules import CLASSIC, BaseRules

__all__ = ["ENV_ID", "TienLenRLCardEnv", "register"]

ENV_ID: Final = "tienlen"
"""The id ``register`` gives the environment."""


def register() -> None:
    """Register ``"tienlen"`` with RLCard (a second call does nothing).

    Example:
        >>> import rlcard
        >>> from tienlen.rl.rlcard import register
        >>> register()
        >>> register()  # already registered: nothing happens
        >>> env = rlcard.make("tienlen", {"game_num_players": 3, "seed": 0})
        >>> type(env).__name__, env.num_players
        ('TienLenRLCardEnv', 3)
    """
    from rlcard.envs.registration import registry  # noqa: PLC0415

    if ENV_ID not in registry.env_specs:
        rlcard.envs.register(ENV_ID, f"{__name__}:TienLenRLCardEnv")


class _Game:
    """The game object RLCard's `Env` drives (its ``game`` attribute)."""

    allow_step_back = False

    def __init__(self, rules: BaseRules, players: int) -> None:
        self.rules = rules
        self.players = players
        self.np_random = np.random.RandomState()
        self.table = ActionTable.for_rules(rules)
        self.turns = Turns(deal_playable(rules, players, random.Random(0)), self.table)

    def get_num_players(self) -> int:
        return self.players

    def get_num_actions(self) -> int:
        return self.turns.size

    def init_game(self) -> tuple[tuple[Turns, int], int]:
        rng = random.Random(int(self.np_random.randint(2**31)))
        self.turns = Turns.deal(self.rules, self.players, rng, self.table)
        return self._decision()

    def step(self, index: int) -> tuple[tuple[Turns, int], int]:
        self.turns.step(index)
        return self._decision()

    def _decision(self) -> tuple[tuple[Turns, int], int]:
        """RLCard's ``(raw state of the decider, decider)``."""
        seat = self.get_player_id()
        return (self.turns, seat), seat

    def step_back(self) -> bool:
        return False

    def is_over(self) -> bool:
        return self.turns.decider is None

    def get_player_id(self) -> int:
        decider = self.turns.decider
        return decider if decider is not None else 0

    def get_state(self, player: int) -> tuple[Turns, int]:
        return self.turns, player


class TienLenRLCardEnv(Env):  # type: ignore[misc]
    """Tiến Lên as an RLCard environment (see the module docstring for the config).

    Example:
        >>> import rlcard
        >>> from tienlen.rl.rlcard import register
        >>> register()
        >>> env = rlcard.make("tienlen", {"game_rules": "poker", "seed": 1})
        >>> state, seat = env.reset()
        >>> seat == state["raw_obs"].to_act, state["obs"].shape == tuple(env.state_shape[seat])
        (True, True)
        >>> state["raw_obs"].seat == seat  # the seat's own view, not the game state
        True

        Each legal index comes with the feature of the play it stands for:

        >>> features = state["legal_actions"]
        >>> all(feature.shape == tuple(env.action_shape[seat]) for feature in features.values())
        True
        >>> state, seat = env.step(min(features))  # the next decider's state
        >>> len(state["raw_obs"].history)
        1
        >>> rlcard.make("tienlen", {"allow_step_back": True})
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidArgumentError: the tienlen RLCard env does not support step_back
    """

    def __init__(self, config: dict[str, Any]) -> None:
        if not isinstance(config, dict):
            msg = f"config must be a dict, not {type(config).__name__}"  # type: ignore[unreachable]
            raise TypeError(msg)
        config = {**_RLCARD_DEFAULTS, **config}  # what rlcard.make fills in
        rules = as_rules(config.get("game_rules", CLASSIC), "game_rules")
        if config.get("allow_step_back"):
            msg = "the tienlen RLCard env does not support step_back"
            raise InvalidArgumentError(msg)
        players = config.get("game_num_players", 4)
        rules.deal_size(players)
        self.reward = check_reward(config.get("game_reward", "score"))
        self.name = ENV_ID
        self.game = _Game(rules, players)
        super().__init__(config)
        size = self.game.turns.encoder.layout.size
        self.state_shape = [[size] for _ in range(players)]
        self.action_shape = [[ACTION_FEATURES] for _ in range(players)]

    def _extract_state(self, raw: tuple[Turns, int]) -> OrderedDict[str, Any]:
        turns, seat = raw
        legal: OrderedDict[int, Any] = OrderedDict()
        raw_legal: list[str] = []
        if seat == turns.decider:
            for index, mask in turns.choices().items():
                legal[index] = mask_feature(mask)
                raw_legal.append(str(Hand(mask)) if mask else "pass")
        return OrderedDict(
            obs=turns.observe(seat),
            legal_actions=legal,
            raw_obs=Observation.of(turns.state, seat),
            raw_legal_actions=raw_legal,
            action_record=self.action_recorder,
        )

    def _decode_action(self, action_id: int) -> int:
        return int(action_id)

    def _get_legal_actions(self) -> list[int]:
        return self.game.turns.legal_indices()

    def get_payoffs(self) -> np.ndarray[Any, Any]:
        """Every seat's reward for the finished game (zeros before the end)."""
        return np.array(self.game.turns.seat_rewards(self.reward))

    def get_perfect_information(self) -> dict[str, Any]:
        """Every hand, whose decision it is, and the perfect-information vector."""
        turns = self.game.turns
        state = turns.state
        return {
            "hands": [str(hand) for hand in state.hands],
            "current_player": turns.decider,
            "legal_actions": turns.legal_indices(),
            "vector": turns.encoder.perfect(state, turns.decider or 0),
        }

    def get_action_feature(self, action: int) -> np.ndarray[Any, Any]:
        """The feature of action *action* for the deciding seat."""
        turns = self.game.turns
        seat = self.game.get_player_id()
        return action_feature(
            self.game.table.fill(action, turns.state.hand(seat), seat)
        )
