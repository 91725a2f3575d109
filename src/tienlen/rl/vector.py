"""A batched environment: N self-play games stepped together with numpy arrays (issue 12 §2).

Every seat of every game is played by the caller: `VectorEnv.step` takes one action
index per game, for the seat deciding there, and returns the next decisions of all
games as arrays. A finished game is dealt again at once (auto-redeal): its row then
holds the new game's first decision, and ``terminated`` and ``rewards`` report the
game that ended. Game *e* of environment *i* is dealt from the seed ``(seed, i, e)``.

Example:
    >>> import numpy as np
    >>> from tienlen import CLASSIC
    >>> envs = VectorEnv(8, CLASSIC, players=4, seed=1)
    >>> observations, masks, deciders = envs.reset()
    >>> observations.shape[0], masks.shape, masks.dtype.name
    (8, (8, 616), 'int8')
    >>> rng = np.random.default_rng(0)
    >>> finished = 0
    >>> while finished < 8:
    ...     actions = [rng.choice(row.nonzero()[0]) for row in masks]
    ...     observations, masks, deciders, rewards, terminated = envs.step(actions)
    ...     finished += int(terminated.sum())
    >>> rewards.shape, envs.episodes.tolist() != [0] * 8
    ((8, 4), True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from tienlen.errors import InvalidArgumentError
from tienlen.rl.observation import BatchEncoder, ObservationLayout
from tienlen.rl.table import ActionTable
from tienlen.rl.turns import Turns, check_reward
from tienlen.rules import CLASSIC, BaseRules

__all__ = ["VectorEnv"]

_Floats = npt.NDArray[np.float32]
_Step = tuple[
    _Floats,
    npt.NDArray[np.int8],
    npt.NDArray[np.int64],
    _Floats,
    npt.NDArray[np.bool_],
]


class VectorEnv:
    """*num_envs* games of *rules* at *players* seats, stepped together.

    Args:
        num_envs: How many games.
        rules: The variant (any `tienlen.BaseRules`).
        players: Seats at each table.
        seed: The root of every deal's seed ``(seed, env, episode)``.
        reward: ``"score"``, ``"win"`` or ``"place"`` (see `tienlen.rl.turns.rewards`).
        history: Past actions in each observation.
    """

    def __init__(
        self,
        num_envs: int,
        rules: BaseRules = CLASSIC,
        players: int = 4,
        *,
        seed: int = 0,
        reward: str = "score",
        history: int = 8,
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            msg = f"num_envs must be a positive int, not {num_envs!r}"
            raise InvalidArgumentError(msg)
        rules.deal_size(players)
        self.num_envs: Final = num_envs
        self.rules: Final = rules
        self.players: Final = players
        self.seed: Final = seed
        self.reward: Final = check_reward(reward)
        self.table: Final = ActionTable.for_rules(rules)
        self.layout: Final = ObservationLayout(rules, players, history)
        self.num_actions: Final = self.table.actions_for(players)
        """The size of the action space."""
        self.episodes = np.zeros(num_envs, dtype=np.int64)
        """How many games each environment has finished."""
        self._encoder = BatchEncoder(self.layout)
        self._games: list[Turns] = []

    def _deal(self, env: int) -> Turns:
        rng = random.Random(f"{self.seed}:{env}:{int(self.episodes[env])}")
        return Turns.deal(
            self.rules, self.players, rng, self.table, self.layout.history
        )

    def reset(self) -> tuple[_Floats, npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """Deal every game afresh (episode counts back to 0).

        Returns:
            The observations ``(N, size)``, masks ``(N, actions)`` and deciding seats.
        """
        self.episodes[:] = 0
        self._games = [self._deal(env) for env in range(self.num_envs)]
        return self._decisions()

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer]) -> _Step:
        """Each game's deciding seat takes its action; finished games are dealt again.

        Returns:
            Observations, masks and deciding seats of the next decisions, then the
            rewards ``(N, players)`` of games that ended (zeros elsewhere) and whether
            each game ended.

        Raises:
            tienlen.rl.turns.IllegalActionError: an action is not legal in its game.
            RuntimeError: `reset` was not called.
        """
        if not self._games:
            msg = "call reset() before step()"
            raise RuntimeError(msg)
        if len(actions) != self.num_envs:
            msg = f"{len(actions)} actions for {self.num_envs} games"
            raise InvalidArgumentError(msg)
        rewards = np.zeros((self.num_envs, self.players), dtype=np.float32)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)
        for env, (game, action) in enumerate(zip(self._games, actions, strict=True)):
            game.act(int(action))
            if game.decider is None:
                rewards[env] = game.seat_rewards(self.reward)
                terminated[env] = True
                self.episodes[env] += 1
                self._games[env] = self._deal(env)
        observations, masks, deciders = self._decisions()
        return observations, masks, deciders, rewards, terminated

    @property
    def games(self) -> list[Turns]:
        """The games in progress (their ``state`` is each `tienlen.GameState`)."""
        return self._games

    def _decisions(self) -> tuple[_Floats, npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        games = self._games
        deciders = np.array([game.decider for game in games], dtype=np.int64)
        items = [
            (game.state, int(seat), game.encoder.recent)
            for game, seat in zip(games, deciders, strict=True)
        ]
        observations = self._encoder.encode(items)
        masks = np.zeros((self.num_envs, self.num_actions), dtype=np.int8)
        rows: list[int] = []
        columns: list[int] = []
        for env, game in enumerate(games):
            legal = game.offered()
            rows += [env] * len(legal)
            columns += legal
        masks[rows, columns] = 1
        return observations, masks, deciders
