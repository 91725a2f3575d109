"""A batched environment: N self-play games stepped together with numpy arrays (issue 12 §2).

Every seat of every game is played by the caller: `VectorEnv.step` takes one action
index per game, for the seat deciding there, and returns the next decisions of all
games as arrays. A finished game is dealt again at once (auto-redeal): its row then
holds the new game's first decision, and ``terminated`` and ``rewards`` report the
game that ended. Game *e* of environment *i* is dealt from the seed ``(seed, i, e)``.

Decisions are those of `tienlen.rl.turns.Turns`, game for game: Poker seats that could
jump in (RULES §6.4) are asked first, in play direction, PASS declining, and a class
index plays the class filled with the decider's lowest suits. The step is built for
speed: the games step on the engine's ints, together (`tienlen.rl.Batch`:
`tienlen.Actions.by_seat` in, `tienlen.GameState.apply_mask` out), observations live in an
`tienlen.rl.observation.ObservationBatch`, updated with the actions of all games in one
numpy pass, and masks come from the legal plays' card masks through the action table
(`tienlen.rl.table.ActionTable.index_halves`), with no action object built.

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

import itertools
import random
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from tienlen import GameState
from tienlen.batch import Batch
from tienlen.errors import InvalidArgumentError
from tienlen.rl._arrays import halves
from tienlen.rl._checks import as_rules, check_count
from tienlen.rl.observation import ObservationBatch, ObservationLayout, check_table
from tienlen.rl.table import ActionTable
from tienlen.rl.turns import IllegalActionError, check_reward, deal_playable, rewards
from tienlen.rules import CLASSIC, BaseRules

__all__ = ["VectorEnv"]

_Floats = npt.NDArray[np.float32]
_Ints = npt.NDArray[np.int64]
_Decisions = tuple[_Floats, npt.NDArray[np.int8], _Ints]
_Step = tuple[_Floats, npt.NDArray[np.int8], _Ints, _Floats, npt.NDArray[np.bool_]]
_MOST_ENVS: Final = 1 << 20
"""The most games one `VectorEnv` steps."""


class VectorEnv:
    """*num_envs* games of *rules* at *players* seats, stepped together.

    Args:
        num_envs: How many games.
        rules: The variant (any `tienlen.BaseRules`, or a preset's name).
        players: Seats at each table.
        seed: The root of every deal's seed ``(seed, env, episode)``.
        reward: ``"score"``, ``"win"`` or ``"place"`` (see `tienlen.rl.turns.rewards`).
        history: Past actions in each observation.
        copy: Return new observation and mask arrays from each call (the default);
            with ``False``, the environment's own arrays, which the next call rewrites.

    Example:
        >>> from tienlen import POKER
        >>> envs = VectorEnv(4, POKER, players=3, seed=7, reward="win")
        >>> observations, masks, deciders = envs.reset()
        >>> actions = masks.argmax(axis=1)  # the lowest legal index in every game
        >>> observations, masks, deciders, rewards, terminated = envs.step(actions)
        >>> observations.shape == (4, envs.layout.size), rewards.shape, bool(terminated.any())
        (True, (4, 3), False)
    """

    def __init__(
        self,
        num_envs: int,
        rules: BaseRules | str = CLASSIC,
        players: int = 4,
        *,
        seed: int = 0,
        reward: str = "score",
        history: int = 8,
        copy: bool = True,
    ) -> None:
        check_count(num_envs, "num_envs", 1, _MOST_ENVS)
        rules = as_rules(rules)
        if type(seed) is not int:
            msg = f"seed must be an int, not {type(seed).__name__}"
            raise TypeError(msg)
        rules.deal_size(players)
        self.num_envs: Final = num_envs
        self.rules: Final = rules
        self.players: Final = players
        self.seed: Final = seed
        self.reward: Final = check_reward(reward)
        self.copy: Final = bool(copy)
        self.table: Final = ActionTable.for_rules(rules)
        self.layout: Final = ObservationLayout(rules, players, history)
        self.num_actions: Final = self.table.actions_for(players)
        """The size of the action space."""
        self.episodes = np.zeros(num_envs, dtype=np.int64)
        """How many games each environment has finished."""
        self._observations = ObservationBatch(self.layout, num_envs)
        self._games: Batch | None = None
        """The games and each one's decision: its decider and what it is offered."""
        self._rows = np.arange(num_envs)
        self._masks = np.zeros((num_envs, self.num_actions), dtype=np.int8)
        # The plays offered, flattened over the games (`_decisions` builds them).
        self._flat: list[int] = []
        self._flat_rows = self._flat_index = self._flat_value = np.zeros(0, np.int64)

    def _deal(self, env: int) -> GameState:
        rng = random.Random(f"{self.seed}:{env}:{int(self.episodes[env])}")
        return deal_playable(self.rules, self.players, rng)

    def reset(self, states: Sequence[GameState] | None = None) -> _Decisions:
        """Deal every game afresh (episode counts back to 0), or start from *states*.

        Args:
            states: One position per game to start from (games of this table with a
                player to act), instead of the seeded deals; the games after them are
                dealt from the seeds as usual.

        Returns:
            The observations ``(N, size)``, masks ``(N, actions)`` and deciding seats.

        Raises:
            ValueError: *states* are not one game in progress per environment, of this
                rule set and table size.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> envs = VectorEnv(2, CLASSIC, players=4, seed=1)
            >>> observations, masks, deciders = envs.reset()
            >>> observations.shape, masks.sum(axis=1).tolist(), deciders.tolist()
            ((2, 874), [4, 3], [0, 2])
            >>> start = GameState.from_hands(["3s 4d", "5d 6d", "7c", "8h"], CLASSIC)
            >>> _, _, deciders = envs.reset([start, start])
            >>> deciders.tolist(), envs.states == (start, start)
            ([0, 0], True)
        """
        count = self.num_envs
        if states is None:
            self.episodes[:] = 0
            games = [self._deal(env) for env in range(count)]
        else:
            games = list(states)
            if len(games) != count or not all(
                type(state) is GameState and state.to_act is not None for state in games
            ):
                msg = f"expected {count} GameStates with a player to act"
                raise InvalidArgumentError(msg)
            for state in games:
                check_table(self.layout, state)
            self.episodes[:] = 0
        self._observations.load(range(count), games)
        self._games = Batch(games)
        return self._decisions()

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer]) -> _Step:
        """Each game's deciding seat takes its action; finished games are dealt again.

        Returns:
            Observations, masks and deciding seats of the next decisions, then the
            rewards ``(N, players)`` of games that ended (zeros elsewhere) and whether
            each game ended.

        Raises:
            tienlen.rl.turns.IllegalActionError: an action is not legal in its game
                (no game moves).
            TypeError: the actions are not integers (``bool`` is not).
            tienlen.rl.turns.IllegalActionError: `reset` was not called.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> envs = VectorEnv(1, CLASSIC, players=2, reward="place")
            >>> _ = envs.reset([GameState.from_hands(["3s", "4d 5d"], CLASSIC)])
            >>> envs.step([0])  # PASS: the first lead may not pass
            Traceback (most recent call last):
            ...
            tienlen.rl.turns.IllegalActionError: illegal actions: 0 for seat 0 of game 0
            >>> _, _, _, rewards, terminated = envs.step([1])  # seat 0 goes out: 3s
            >>> rewards.tolist(), terminated.tolist(), envs.episodes.tolist()
            ([[1.0, -1.0]], [True], [1])
            >>> len(envs.states[0].history)  # game 0 is dealt again
            0
        """
        games = self._games
        if games is None:
            msg = "call reset() before step()"
            raise IllegalActionError(msg)
        positions = self._checked(games, actions)
        rewards_out = np.zeros((self.num_envs, self.players), dtype=np.float32)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)
        flat = self._flat
        chosen = [flat[at] if at >= 0 else 0 for at in positions.tolist()]
        moved, seats, masks, over = games.step(chosen)
        self._observations.record(moved, seats, masks)
        if over:
            results = [state.result for state in games.states]
            for env in over:  # settle the game and deal the next
                result = results[env]
                assert result is not None
                rewards_out[env] = rewards(result, self.reward)
                terminated[env] = True
                self.episodes[env] += 1
                games.restart(env, self._deal(env))
            states = games.states
            self._observations.load(over, [states[env] for env in over])
        observations, masks_out, deciders = self._decisions()
        return observations, masks_out, deciders, rewards_out, terminated

    def _checked(
        self, games: Batch, actions: Sequence[int] | npt.NDArray[np.integer]
    ) -> _Ints:
        """Per game, the `_members` position of the play chosen (−1: a pass).

        Each action is refused unless legal in its game.

        Legality is read from what the environment offered, never from the mask
        array it handed out (with ``copy=False`` the caller may write to it): a class
        with a play among the offered plays (`_members`), or PASS where passing is
        offered.
        """
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            msg = f"expected {self.num_envs} actions, got an array of shape {chosen.shape}"
            raise InvalidArgumentError(msg)
        if chosen.dtype == np.bool_ or not np.issubdtype(chosen.dtype, np.integer):
            msg = f"actions must be integers, not {chosen.dtype}"
            raise TypeError(msg)
        chosen = chosen.astype(np.int64, copy=False)
        inside = (chosen >= 0) & (chosen < self.num_actions)
        index = np.where(inside, chosen, self.table.PASS)
        positions = self._members(np.where(inside, chosen, -1))
        passing = (index == self.table.PASS) & np.array(games.passes, dtype=np.bool_)
        legal = inside & ((positions >= 0) | passing)
        if not legal.all():
            bad = np.flatnonzero(~legal)[:5].tolist()
            shown = ", ".join(
                f"{chosen[env]} for seat {games.deciders[env]} of game {env}"
                for env in bad
            )
            msg = f"illegal actions: {shown}"
            raise IllegalActionError(msg)
        return positions

    def _members(self, chosen: _Ints) -> _Ints:
        """Per game, the position in `_flat` of the play to make, or −1.

        A class with several members is filled with the lowest suits: the member with
        the smallest card value (`tienlen.rl.table.card_value`; −1 means a pass).
        """
        positions = np.full(self.num_envs, -1, dtype=np.int64)
        candidates = np.flatnonzero(self._flat_index == chosen[self._flat_rows])
        if not candidates.size:
            return positions
        rows = self._flat_rows[candidates]
        order = np.lexsort((self._flat_value[candidates], rows))
        candidates, rows = candidates[order], rows[order]
        first = np.ones(len(rows), dtype=np.bool_)
        first[1:] = rows[1:] != rows[:-1]
        positions[rows[first]] = candidates[first]
        return positions

    def _decisions(self) -> _Decisions:
        """The observations, masks and deciders of every game's decision."""
        games = self._games
        assert games is not None
        plays = games.plays
        flat = list(itertools.chain.from_iterable(plays))
        lengths = np.fromiter(map(len, plays), np.int64, self.num_envs)
        masks = self._masks
        masks.fill(0)
        if flat:
            low, high = halves(flat)
            self._flat_index = self.table.index_halves(low, high)
            self._flat_rows = np.repeat(self._rows, lengths)
            value = low.astype(np.int64)
            self._flat_value = value if high is None else value + high.astype(np.int64)
            masks[self._flat_rows, self._flat_index] = 1
        else:
            self._flat_rows = self._flat_index = self._flat_value = np.zeros(
                0, np.int64
            )
        self._flat = flat
        masks[:, self.table.PASS] = games.passes
        deciders = np.array(games.deciders, dtype=np.int64)
        observations = self._observations.encode(games.states, games.deciders)
        if self.copy:
            return observations.copy(), masks.copy(), deciders
        return observations, masks, deciders

    @property
    def states(self) -> tuple[GameState, ...]:
        """Each game's `tienlen.GameState` now.

        Example:
            >>> from tienlen import CLASSIC
            >>> envs = VectorEnv(2, CLASSIC, players=4, seed=1)
            >>> _, _, deciders = envs.reset()
            >>> [state.to_act for state in envs.states] == deciders.tolist()
            True
        """
        return () if self._games is None else tuple(self._games.states)

    @property
    def polling(self) -> npt.NDArray[np.bool_]:
        """Per game, whether its decider is asked out of turn about a jump-in (RULES §6.4).

        Example:
            >>> from tienlen import POKER, GameState
            >>> hands = ["2s 9h", "3c Kd", "5s 5c 6s 6c 7s 7c 8s 8c", "4d Qh"]
            >>> start = GameState.from_hands(hands, POKER, first_game=False, leader=0)
            >>> start = start.play("2s")  # seat 3 to act; seat 2 may bomb the 2 first
            >>> envs = VectorEnv(2, POKER, players=4)
            >>> _, masks, deciders = envs.reset([start, start])
            >>> deciders.tolist(), envs.polling.tolist()
            ([2, 2], [True, True])
            >>> decline, bomb = masks[0].nonzero()[0].tolist()
            >>> _ = envs.step([decline, bomb])  # game 1: seat 2 jumps in
            >>> [str(state.history[-1]) for state in envs.states], envs.polling.tolist()
            (['2s', '5s 5c 6s 6c 7s 7c 8s 8c'], [False, False])
        """
        games = self._games
        if games is None:
            return np.zeros(0, dtype=np.bool_)
        return np.array(list(map(games.polling, range(self.num_envs))), dtype=np.bool_)
