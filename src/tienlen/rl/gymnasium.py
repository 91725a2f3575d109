"""The Gymnasium environment ``tienlen/Solo-v0``: one seat against bots (issue 12 §2).

The learner plays one seat; the other seats are `tienlen.Player` bots
(`tienlen.RandomPlayer` by default), which move between the learner's decisions. The
observation is the flat vector of `tienlen.rl.observation` (a `Box`); the action an
index of the action table. The mask of legal indices is in ``info["action_mask"]``
and `SoloEnv.action_masks` (sb3-contrib's ``MaskablePPO`` reads it). An illegal action
ends the episode (pgx's convention; Gymnasium's checker samples actions without the
mask) with a reward strictly below every legal outcome (`SoloEnv.illegal_reward`), so
a learner is never paid to play illegally; or it raises with ``illegal="raise"``.

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

import math
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
from tienlen.rl._checks import as_index, as_rules, check_render_mode
from tienlen.rl.registration import preset_of, refuse_rules, register_gymnasium
from tienlen.rl.table import ActionTable
from tienlen.rl.turns import (
    IllegalActionError,
    Turns,
    check_reward,
    deal_playable,
    worst_reward,
)
from tienlen.rules import CLASSIC, RULESETS, BaseRules

__all__ = ["ENV_ID", "SoloEnv", "solo_env"]

ENV_ID: Final = "tienlen/Solo-v0"
"""The registered id."""
_Obs = npt.NDArray[np.float32]


class SoloEnv(gymnasium.Env[_Obs, np.int64]):
    """One learner seat against bots, as a single-agent Gymnasium environment.

    Args:
        rules: The variant (any `tienlen.BaseRules`, or a preset's name).
        players: Seats at the table.
        seat: The learner's seat.
        opponents: One bot per other seat, in seat order (default: `RandomPlayer`).
        reward: ``"score"``, ``"win"`` or ``"place"`` (see `tienlen.rl.turns.rewards`).
        illegal: ``"lose"`` (end the episode with *illegal_reward*) or ``"raise"``
            (`IllegalActionError`).
        illegal_reward: The reward of an illegal action. It must be strictly below
            every legal outcome (`tienlen.rl.turns.worst_reward`); the default is one
            below that bound: −1 for ``"win"``, −2 for ``"place"``, −4 for the
            score of classic with 4 players, −169 for Poker points. A rule set with
            its own scorer has no known bound: give it yourself.
        history: Past actions in each observation.
        render_mode: ``"ansi"`` (`render` returns the table as text), ``"human"``
            (`render` prints it) or ``None``.

    Raises:
        TypeError: an argument has the wrong type (*rules* neither a rule set nor a
            preset's name, an opponent without an ``act`` method).
        tienlen.errors.InvalidArgumentError: a bad value: a seat not at the table,
            the wrong number of opponents, an *illegal_reward* not below every legal
            outcome, a negative *history*.
        tienlen.errors.InvalidRulesError: *rules* is not played by *players*.

    Example:
        >>> from tienlen import CLASSIC
        >>> from tienlen.rl.gymnasium import SoloEnv
        >>> solo = SoloEnv(CLASSIC, players=4, seat=1, reward="win")
        >>> observation, info = solo.reset(seed=1)
        >>> solo.observation_space.contains(observation), solo.state.to_act
        (True, 1)

        An action outside the mask ends the episode, below every legal outcome (a
        "win" reward is 0 or 1):

        >>> illegal = int(info["action_mask"].argmin())
        >>> observation, reward, done, truncated, info = solo.step(illegal)
        >>> reward, done, info["illegal_action"]
        (-1.0, True, True)
    """

    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012  # Gymnasium's

    def __init__(
        self,
        rules: BaseRules | str = CLASSIC,
        players: int = 4,
        seat: int = 0,
        opponents: Sequence[Player] | None = None,
        reward: str = "score",
        illegal: str = "lose",
        history: int = 8,
        render_mode: str | None = None,
        illegal_reward: float | None = None,
    ) -> None:
        rules = as_rules(rules)
        rules.deal_size(players)
        if type(seat) is not int or not 0 <= seat < players:
            msg = f"seat {seat!r} is not at a {players}-player table"
            raise InvalidArgumentError(msg)
        if opponents is None:
            opponents = [RandomPlayer()] * (players - 1)
        given: object = opponents  # checked at run time: callers may pass anything
        if not isinstance(given, Sequence) or isinstance(given, str | bytes):
            msg = f"opponents must be a sequence of players, not {type(given).__name__}"
            raise TypeError(msg)
        if len(opponents) != players - 1:
            msg = f"{len(opponents)} opponents for {players - 1} other seats"
            raise InvalidArgumentError(msg)
        for bot in opponents:
            if not callable(getattr(bot, "act", None)):
                msg = f"an opponent must be a Player (with an act method), not {type(bot).__name__}"
                raise TypeError(msg)
        if illegal not in ("lose", "raise"):
            msg = f"illegal must be 'lose' or 'raise', not {illegal!r}"
            raise InvalidArgumentError(msg)
        check_render_mode(render_mode)
        self.reward_kind = check_reward(reward)
        self.illegal_reward: Final = _illegal_reward(
            illegal_reward, worst_reward(rules, players, reward)
        )
        """The reward of an illegal action (with ``illegal="lose"``)."""
        self.rules = rules
        self.players = players
        self.seat = seat
        self.illegal = illegal
        self.render_mode = render_mode
        self._bots: dict[int, Player] = dict(
            zip((s for s in range(players) if s != seat), opponents, strict=True)
        )
        self._table = ActionTable.for_rules(rules)
        self._history = history
        self._rng = random.Random()
        self._ended = True
        """Whether no episode is in progress: none begun, or it ended."""
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
        self._ended = False
        self._bots_play()
        self._ended = self._turns.decider is None
        return self._observation(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[_Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        """The learner takes *action*; the bots play up to its next decision or the end.

        An illegal index ends the episode with `illegal_reward` (``illegal="lose"``;
        the game does not move, and the next call must be `reset`) or raises.

        Raises:
            TypeError: *action* is not an ``int`` or a numpy integer (``0.7``,
                ``"0"`` and ``True`` are not).
            IllegalActionError: no episode is in progress (call `reset`: it was
                never called, or the episode ended), or the action is illegal and
                ``illegal="raise"``.
        """
        index = as_index(action)
        turns = self._turns
        if self._ended:
            msg = "no episode is in progress: call reset()"
            raise IllegalActionError(msg)
        if not turns.is_legal(index):
            if self.illegal == "raise":
                msg = f"action {index} is not legal for seat {self.seat} now"
                raise IllegalActionError(msg)
            self._ended = True
            info = {**self._info(), "illegal_action": True}
            return self._observation(), self.illegal_reward, True, False, info
        turns.step(index)
        self._bots_play()
        over = self._ended = turns.decider is None
        reward = turns.seat_rewards(self.reward_kind)[self.seat] if over else 0.0
        return self._observation(), reward, over, False, self._info()

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The learner's legal indices (int8; all zero once the episode is over).

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
        if self._ended:
            return np.zeros(self._turns.size, dtype=np.int8)
        return self._turns.mask()

    def render(self) -> str | None:
        """The table as text: returned (``"ansi"``), printed to stdout (``"human"``).

        The text shows every hand: it is for people watching, not for the learner.
        """
        return self._turns.render(self.render_mode)

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
        return {"action_mask": self.action_masks()}


def _illegal_reward(given: object, worst: float | None) -> float:
    """The reward of an illegal action: *given*, checked strictly below *worst*.

    Raises:
        TypeError: *given* is not a real number (``bool`` is not).
        tienlen.errors.InvalidArgumentError: it is not finite, or not below *worst*;
            or it is ``None`` and *worst* unknown (a rule set with its own scorer).
    """
    if given is None:
        if worst is None:
            msg = "a rule set with its own scorer needs an illegal_reward"
            raise InvalidArgumentError(msg)
        return worst - 1.0
    if isinstance(given, bool) or not isinstance(given, int | float | np.floating):
        msg = f"illegal_reward must be a number, not {type(given).__name__}"
        raise TypeError(msg)
    value = float(given)
    if not math.isfinite(value) or (worst is not None and value >= worst):
        msg = (
            f"illegal_reward must be finite and below every legal outcome "
            f"({worst}), not {given!r}"
        )
        raise InvalidArgumentError(msg)
    return value


def solo_env(env_id: str, **kwargs: Any) -> SoloEnv:
    """The `SoloEnv` of a versioned id: what ``gymnasium.make(env_id)`` calls.

    Raises:
        TypeError: a ``rules`` argument (the id fixes the rules).
        ValueError: *env_id* is no id of `tienlen.rl.registration.ENV_IDS`.

    Example:
        >>> solo_env("tienlen/vietcong-v1", players=2).rules.name
        'vietcong'
    """
    refuse_rules(env_id, kwargs)
    return SoloEnv(rules=RULESETS[preset_of(env_id)], **kwargs)


gymnasium.register(ENV_ID, entry_point=f"{__name__}:SoloEnv")
register_gymnasium()  # the versioned ids, tienlen/classic-v1 … (registration.py)
