"""The Gymnasium environment ``tienlen/Solo-v0``: one seat against bots (issue 12 §2).

The learner plays one seat; the other seats are `tienlen.Player` bots
(`tienlen.RandomPlayer` by default), which move between the learner's decisions. The
observation is the flat vector of `tienlen.rl.observation` (a `Box`); the action an
index of the action table. The mask of legal indices is in ``info["action_mask"]``
and `SoloEnv.action_masks` (sb3-contrib's ``MaskablePPO`` reads it). An illegal action
ends the episode with reward −1 (pgx's convention; Gymnasium's checker samples actions
without the mask), or raises with ``illegal="raise"``.

Importing this module registers ``tienlen/Solo-v0``; ``gymnasium.make`` can also
import it for you: ``gymnasium.make("tienlen.rl.gymnasium:tienlen/Solo-v0")``.

Example:
    >>> import gymnasium
    >>> from tienlen import POKER
    >>> solo = gymnasium.make("tienlen/Solo-v0", rules=POKER, players=3)
    >>> observation, info = solo.reset(seed=7)
    >>> done = False
    >>> while not done:
    ...     action = int(info["action_mask"].nonzero()[0][-1])
    ...     observation, reward, done, truncated, info = solo.step(action)
    >>> solo.unwrapped.state.is_over, reward == solo.unwrapped.state.result.scores[0]
    (True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from tienlen.errors import InvalidArgumentError
from tienlen.game import Action, GameState
from tienlen.players import Observation, Player, RandomPlayer
from tienlen.rl.registration import register_gymnasium
from tienlen.rl.table import ActionTable
from tienlen.rl.turns import IllegalActionError, Turns, check_reward, deal_playable
from tienlen.rules import CLASSIC, BaseRules

__all__ = ["ENV_ID", "SoloEnv"]

ENV_ID: Final = "tienlen/Solo-v0"
"""The registered id."""
_Obs = npt.NDArray[np.float32]


class SoloEnv(gymnasium.Env[_Obs, np.int64]):
    """One learner seat against bots, as a single-agent Gymnasium environment.

    Args:
        rules: The variant (any `tienlen.BaseRules`).
        players: Seats at the table.
        seat: The learner's seat.
        opponents: One bot per other seat, in seat order (default: `RandomPlayer`).
        reward: ``"score"``, ``"win"`` or ``"place"`` (see `tienlen.rl.turns.rewards`).
        illegal: ``"lose"`` (end with −1) or ``"raise"`` (`IllegalActionError`).
        history: Past actions in each observation.
        render_mode: ``"ansi"`` or ``None``.

    Example:
        >>> from tienlen import CLASSIC
        >>> from tienlen.rl.gymnasium import SoloEnv
        >>> solo = SoloEnv(CLASSIC, players=4, seat=1, reward="win")
        >>> observation, info = solo.reset(seed=1)
        >>> solo.observation_space.contains(observation), solo.state.to_act
        (True, 1)

        An action outside the mask ends the episode with reward −1:

        >>> illegal = int(info["action_mask"].argmin())
        >>> observation, reward, done, truncated, info = solo.step(illegal)
        >>> reward, done, info["illegal_action"]
        (-1.0, True, True)
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  # Gymnasium's attribute

    def __init__(
        self,
        rules: BaseRules = CLASSIC,
        players: int = 4,
        seat: int = 0,
        opponents: Sequence[Player] | None = None,
        reward: str = "score",
        illegal: str = "lose",
        history: int = 8,
        render_mode: str | None = None,
    ) -> None:
        rules.deal_size(players)
        if type(seat) is not int or not 0 <= seat < players:
            msg = f"seat {seat!r} is not at a {players}-player table"
            raise InvalidArgumentError(msg)
        if opponents is None:
            opponents = [RandomPlayer()] * (players - 1)
        if len(opponents) != players - 1:
            msg = f"{len(opponents)} opponents for {players - 1} other seats"
            raise InvalidArgumentError(msg)
        if illegal not in ("lose", "raise"):
            msg = f"illegal must be 'lose' or 'raise', not {illegal!r}"
            raise InvalidArgumentError(msg)
        if render_mode not in (None, "ansi"):
            msg = f"render_mode must be 'ansi' or None, not {render_mode!r}"
            raise InvalidArgumentError(msg)
        self.rules = rules
        self.players = players
        self.seat = seat
        self.reward_kind = check_reward(reward)
        self.illegal = illegal
        self.render_mode = render_mode
        self._bots: dict[int, Player] = dict(
            zip((s for s in range(players) if s != seat), opponents, strict=True)
        )
        self._table = ActionTable.for_rules(rules)
        self._history = history
        self._rng = random.Random()
        self._turns = Turns(
            deal_playable(rules, players, random.Random(0)), self._table, history
        )
        layout = self._turns.encoder.layout
        self.observation_space = spaces.Box(
            0.0, layout.high, (layout.size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self._turns.size)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[_Obs, dict[str, Any]]:
        """Deal a new game and let the bots play up to the learner's first decision."""
        super().reset(seed=seed)
        del options
        if seed is not None:
            self._rng = random.Random(seed)
        self._turns = Turns.deal(
            self.rules, self.players, self._rng, self._table, self._history
        )
        self._bots_play()
        return self._observation(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[_Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        """The learner takes *action*; the bots play up to its next decision or the end."""
        turns = self._turns
        if turns.decider is None:
            msg = "the game is over: call reset()"
            raise IllegalActionError(msg)
        index = int(action)
        if index not in turns.offered():
            if self.illegal == "raise":
                msg = f"action {index} is not legal for seat {self.seat} now"
                raise IllegalActionError(msg)
            info = {**self._info(), "illegal_action": True}
            return self._observation(), -1.0, True, False, info
        turns.act(index)
        self._bots_play()
        over = turns.decider is None
        reward = turns.seat_rewards(self.reward_kind)[self.seat] if over else 0.0
        return self._observation(), reward, over, False, self._info()

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The learner's legal indices (int8; all zero once the game is over).

        Example:
            >>> from tienlen import CLASSIC
            >>> from tienlen.rl.gymnasium import SoloEnv
            >>> from tienlen.rl.table import ActionTable
            >>> solo = SoloEnv(CLASSIC, players=4)
            >>> observation, info = solo.reset(seed=1)
            >>> mask = solo.action_masks()
            >>> mask.dtype.name, bool((mask == info["action_mask"]).all())
            ('int8', True)

            Each legal engine action sets the entry of its class in the table:

            >>> table = ActionTable.for_rules(CLASSIC)
            >>> legal = {table.index(action) for action in solo.state.legal_actions()}
            >>> sorted(mask.nonzero()[0].tolist()) == sorted(legal)
            True
        """
        return self._turns.mask()

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``)."""
        return str(self._turns.state) if self.render_mode == "ansi" else None

    @property
    def state(self) -> GameState:
        """The current `tienlen.GameState`.

        Example:
            >>> from tienlen import CLASSIC
            >>> from tienlen.rl.gymnasium import SoloEnv
            >>> solo = SoloEnv(CLASSIC, players=4, seat=2)
            >>> observation, info = solo.reset(seed=3)
            >>> solo.state.to_act, len(solo.state.hand(2))
            (2, 13)
        """
        return self._turns.state

    def _bots_play(self) -> None:
        turns = self._turns
        while (decider := turns.decider) is not None and decider != self.seat:
            offered: list[Action] = [
                a for group in turns.offered().values() for a in group
            ]
            seen = Observation.of(turns.state, decider)
            choice = self._bots[decider].act(seen, offered, self._rng)
            if choice not in offered:
                msg = (
                    f"bot of seat {decider} chose {choice!r}, which it was not offered"
                )
                raise IllegalActionError(msg)
            turns.apply(next(a for a in offered if a == choice))

    def _observation(self) -> _Obs:
        return self._turns.observe(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._turns.mask()}


gymnasium.register(ENV_ID, entry_point=f"{__name__}:SoloEnv")
register_gymnasium()  # the versioned ids, tienlen/classic-v1 … (registration.py)
