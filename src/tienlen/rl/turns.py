"""A game as a sequence of decisions, one seat at a time, for the environments.

Each decision belongs to one seat: the player to act, or, before they choose, each
other player who could jump in (Poker, RULES §6.4), asked in play direction from the
player to act exactly as `tienlen.play_game` asks bots. A polled seat is offered its
jump-ins and PASS, meaning "do not jump in"; the first to jump in plays, and a new
round of decisions starts from the new state.

Example:
    >>> import random
    >>> from tienlen import CLASSIC
    >>> game = Turns.deal(CLASSIC, 4, random.Random(5))
    >>> seat = game.decider
    >>> game.act(game.legal_indices()[0]).player == seat
    True
"""

from __future__ import annotations

import random
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from tienlen.errors import InvalidArgumentError, TienLenError
from tienlen.game import Action, GameState, Pass, Play
from tienlen.rl.observation import ObservationEncoder
from tienlen.rl.table import ACTIONS, ActionTable
from tienlen.rules import BaseRules
from tienlen.scoring import GameResult

__all__ = ["IllegalActionError", "Reward", "Turns", "deal_playable", "rewards"]

Reward = Literal["score", "win", "place"]
REWARDS: Final = ("score", "win", "place")


class IllegalActionError(TienLenError, ValueError):
    """An action index that the deciding seat may not choose now."""


def rewards(result: GameResult, reward: Reward) -> list[float]:
    """Each seat's reward for a finished game.

    ``"score"``: the game's score change (stakes or Poker points, RULES §2.5, §6.6);
    ``"win"``: 1 for the first out, 0 for the others; ``"place"``: from 1 for first
    to −1 for last, evenly spaced.

    Example:
        >>> from tienlen.scoring import GameResult
        >>> result = GameResult(finish_order=(2, 0, 1), scores=(0, -1, 1))
        >>> rewards(result, "score"), rewards(result, "win"), rewards(result, "place")
        ([0.0, -1.0, 1.0], [0.0, 0.0, 1.0], [0.0, -1.0, 1.0])
    """
    kind = check_reward(reward)
    order = result.finish_order
    players = len(result.scores)
    if kind == "win":
        return [float(seat == order[0]) for seat in range(players)]
    if kind == "place":
        return [1 - 2 * order.index(seat) / (players - 1) for seat in range(players)]
    return [float(score) for score in result.scores]


def check_reward(reward: str) -> Reward:
    """*reward*, checked to be one of "score", "win", "place"."""
    if reward not in REWARDS:
        msg = f"reward must be one of {REWARDS}, not {reward!r}"
        raise InvalidArgumentError(msg)
    return reward  # type: ignore[return-value]


def deal_playable(rules: BaseRules, players: int, rng: random.Random) -> GameState:
    """A deal from *rng* that needs a decision: instant wins (RULES §5.4, §6.7) are redealt."""
    while True:
        state = GameState.deal(rules, players, seed=rng)
        if not state.is_over:
            return state


class Turns:
    """One game, decision by decision, with its observation encoder kept up to date."""

    def __init__(
        self,
        state: GameState,
        table: ActionTable = ACTIONS,
        history: int = 8,
    ) -> None:
        rules = state.rules
        if not isinstance(rules, BaseRules):
            msg = f"the environments need a BaseRules rule set, not {type(rules).__name__}"
            raise TypeError(msg)
        self.table: Final = table
        self.size: Final = table.actions_for(state.players)
        """The number of action indices (the action space)."""
        self.encoder: Final = ObservationEncoder(rules, state.players, history)
        self.encoder.reset(state)
        self.state = state
        self._poll: list[int] = []
        self._groups: dict[int, list[Action]] = {}
        self._begin_round()

    @classmethod
    def deal(
        cls,
        rules: BaseRules,
        players: int,
        rng: random.Random,
        table: ActionTable = ACTIONS,
        history: int = 8,
    ) -> Turns:
        """A new game dealt from *rng* (see `deal_playable`)."""
        return cls(deal_playable(rules, players, rng), table, history)

    @property
    def decider(self) -> int | None:
        """The seat whose decision it is; ``None`` once the game is over."""
        if self.state.to_act is None:
            return None
        return self._poll[0] if self._poll else self.state.to_act

    @property
    def polling(self) -> bool:
        """Whether the decider is asked out of turn about a jump-in (RULES §6.4)."""
        return bool(self._poll)

    def offered(self) -> dict[int, list[Action]]:
        """The decider's actions by index (a polled seat's PASS declines to jump in)."""
        return self._groups

    def legal_indices(self) -> list[int]:
        """The indices the decider may choose, ascending."""
        return sorted(self._groups)

    def mask(self) -> npt.NDArray[np.int8]:
        """The decider's legal indices as an int8 array (all zero once over)."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[list(self._groups)] = 1
        return mask

    def observe(self, seat: int) -> npt.NDArray[np.float32]:
        """The flat observation for *seat* (see `ObservationEncoder`)."""
        return self.encoder.encode(self.state, seat)

    def act(self, index: int) -> Action:
        """The decider takes action *index* (the class filled with its lowest suits).

        Raises:
            IllegalActionError: the decider may not take *index* now.
        """
        group = self._groups.get(index)
        if group is None:
            msg = f"action {index} is not legal for seat {self.decider} now"
            raise IllegalActionError(msg)
        action = group[0]
        if len(group) > 1:
            wanted = self.table.fill(
                index, self.state.hand(action.player), action.player
            )
            assert isinstance(wanted, Play)
            action = next(
                a for a in group if type(a) is Play and a.cards == wanted.cards
            )
        self.apply(action)
        return action

    def apply(self, action: Action) -> None:
        """The decider takes *action*, one of `offered`."""
        if self._poll and type(action) is Pass:
            self._poll.pop(0)  # declined to jump in
            poll = self._poll
            self._groups = self._jump_groups(poll[0]) if poll else self._own_groups()
            return
        self.state = self.state.apply(action)
        self.encoder.update(action)
        self._begin_round()

    def _begin_round(self) -> None:
        state = self.state
        self._actions = state.legal_actions()
        self._poll = []
        to_act = state.to_act
        if to_act is None:
            self._groups = {}
            return
        jumpers = {a.player for a in self._actions if a.player != to_act}
        if jumpers:
            self._poll = [seat for seat in state.seats_after(to_act) if seat in jumpers]
            self._groups = self._jump_groups(self._poll[0])
        else:
            self._groups = self._own_groups()

    def _own_groups(self) -> dict[int, list[Action]]:
        to_act = self.state.to_act
        assert to_act is not None
        return self.table.group(self._actions, to_act)

    def _jump_groups(self, seat: int) -> dict[int, list[Action]]:
        groups = self.table.group(self._actions, seat)
        groups[self.table.PASS] = [Pass(player=seat)]
        return groups

    def seat_rewards(self, reward: Reward) -> list[float]:
        """Every seat's reward: the game's once it is over, else zeros."""
        result = self.state.result
        if result is None:
            return [0.0] * self.state.players
        return rewards(result, reward)
