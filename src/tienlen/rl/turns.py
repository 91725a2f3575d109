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

import functools
import random
import sys
from collections.abc import Sequence
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from tienlen.actions import PASSES, make_play
from tienlen.cards import Hand
from tienlen.errors import InvalidArgumentError, TienLenError
from tienlen.game import Action, GameState, Pass, Play
from tienlen.rl._checks import as_index, as_rules
from tienlen.rl.observation import ObservationEncoder
from tienlen.rl.table import ACTIONS, ActionTable, class_key
from tienlen.rules import BaseRules
from tienlen.scoring import GameResult, PokerScorer, StakeScorer

__all__ = [
    "IllegalActionError",
    "Reward",
    "Turns",
    "deal_playable",
    "rewards",
    "worst_reward",
]

Reward = Literal["score", "win", "place"]
REWARDS: Final = ("score", "win", "place")


class IllegalActionError(TienLenError, ValueError):
    """An action index that the deciding seat may not choose now.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC
        >>> game = Turns.deal(CLASSIC, 4, random.Random(1))
        >>> game.act(0)  # PASS: the first lead may not pass
        Traceback (most recent call last):
        ...
        tienlen.rl.turns.IllegalActionError: action 0 is not legal for seat ... now
    """


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
    if type(result) is not GameResult:
        msg = f"expected a GameResult, not {type(result).__name__}"
        raise TypeError(msg)
    order = result.finish_order
    players = len(result.scores)
    if kind == "win":
        return [float(seat == order[0]) for seat in range(players)]
    if kind == "place":
        return [1 - 2 * order.index(seat) / (players - 1) for seat in range(players)]
    return [float(score) for score in result.scores]


def check_reward(reward: str) -> Reward:
    """*reward*, checked to be one of "score", "win", "place"."""
    if type(reward) is not str:
        msg = f"reward must be a str, not {type(reward).__name__}"
        raise TypeError(msg)
    if reward not in REWARDS:
        msg = f"reward must be one of {REWARDS}, not {reward!r}"
        raise InvalidArgumentError(msg)
    return reward  # type: ignore[return-value]


def worst_reward(rules: BaseRules | str, players: int, reward: str) -> float | None:
    """A bound no legal game's reward for a seat goes below; ``None`` if unknown.

    ``"win"``: 0; ``"place"``: −1; ``"score"``: for the stake scorings, the most one
    seat pays (the loser's stake to each other player, or an instant win's stake);
    for Poker points (RULES §6.6), the lowest place points, less every 2 and bomb of
    the deck twice (once as chops paid, a trick's caught plays being disjoint; once as
    a frozen or end penalty, frozen penalty and multiplier included). A rule set with
    its own scorer (``custom_scorer``) has no known bound. An illegal action in
    `tienlen.rl.gymnasium.SoloEnv` is scored strictly below this.

    Raises:
        TypeError: *rules* is not a rule set or a preset's name.
        tienlen.errors.InvalidRulesError: *rules* is not played by *players*.

    Example:
        >>> from tienlen import CLASSIC, POKER
        >>> worst_reward(CLASSIC, 4, "score"), worst_reward(CLASSIC, 4, "place")
        (-3.0, -1.0)
        >>> worst_reward(POKER, 4, "score")
        -168.0
    """
    rules = as_rules(rules)
    decks = rules.deal_size(players)[0]
    kind = check_reward(reward)
    if kind == "win":
        return 0.0
    if kind == "place":
        return -1.0
    if rules.custom_scorer is not None:
        return None
    scorer = rules.scorer
    if type(scorer) is StakeScorer:
        paid = 1 if scorer.each_pays_winner else players - 1
        return float(-max(paid, rules.instant_win_stake))
    if type(scorer) is PokerScorer:
        deck = (1 << _CARDS) - 1
        every = rules.hand_value(Hand(deck | deck << _CARDS if decks == 2 else deck))
        penalty = max(every, (rules.frozen_penalty + every) * scorer.frozen_multiplier)
        return float(min(0, *rules.place_points_for(players)) - every - penalty)
    return None  # pragma: no cover - every built-in scoring is one of the above


def deal_playable(
    rules: BaseRules | str, players: int, rng: random.Random
) -> GameState:
    """A deal from *rng* that needs a decision: instant wins (RULES §5.4, §6.7) are redealt.

    Raises:
        TypeError: *rules* is not a rule set or a preset's name, or *rng* is not a
            `random.Random`.
        tienlen.errors.InvalidRulesError: *rules* is not played by *players*.

    Example:
        >>> import random
        >>> from tienlen import POKER
        >>> deal_playable(POKER, 4, random.Random(2)).is_over
        False
    """
    rules = as_rules(rules)
    rules.deal_size(players)
    given: object = rng  # checked at run time: callers may pass anything
    if not isinstance(given, random.Random):
        msg = f"rng must be a random.Random, not {type(given).__name__}"
        raise TypeError(msg)
    while True:
        state = GameState.deal(rules, players, seed=rng)
        if not state.is_over:
            return state


class Turns:
    """One game, decision by decision, with its observation encoder kept up to date.

    The decider is the player to act, or before them each seat that could jump in
    (Poker, RULES §6.4); `legal_indices` and `mask` give its choices, `act` takes one.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC
        >>> game = Turns.deal(CLASSIC, 4, random.Random(3))
        >>> while game.decider is not None:
        ...     seat = game.decider
        ...     observation = game.observe(seat)
        ...     action = game.act(game.legal_indices()[-1])
        >>> game.state.is_over, observation.shape == (game.encoder.layout.size,)
        (True, True)
    """

    def __init__(
        self,
        state: GameState,
        table: ActionTable = ACTIONS,
        history: int = 8,
    ) -> None:
        given: tuple[object, object] = (state, table)  # callers may pass anything
        if type(given[0]) is not GameState:
            msg = f"expected a GameState, not {type(given[0]).__name__}"
            raise TypeError(msg)
        if not isinstance(given[1], ActionTable):
            msg = f"table must be an ActionTable, not {type(given[1]).__name__}"
            raise TypeError(msg)
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
        self._keys = table._index
        self._single = _single_indices(table)
        self._poll: list[tuple[int, Sequence[int]]] = []
        self._seat: int | None = None
        self._groups: dict[int, list[int]] = {}
        """The decider's choices: each index's plays as card masks (PASS: ``[0]``)."""
        self._begin_round()

    @classmethod
    def deal(
        cls,
        rules: BaseRules | str,
        players: int,
        rng: random.Random,
        table: ActionTable = ACTIONS,
        history: int = 8,
    ) -> Turns:
        """A new game dealt from *rng* (see `deal_playable`).

        Example:
            >>> import random
            >>> from tienlen import CLASSIC
            >>> game = Turns.deal(CLASSIC, 4, random.Random(5))
            >>> game.state.is_over, game.size, game.decider == game.state.to_act
            (False, 616, True)
        """
        return cls(deal_playable(rules, players, rng), table, history)

    @property
    def decider(self) -> int | None:
        """The seat whose decision it is; ``None`` once the game is over.

        Example:
            >>> from tienlen import POKER, GameState
            >>> hands = ["2s 9h", "3c Kd", "5s 5c 6s 6c 7s 7c 8s 8c", "4d Qh"]
            >>> start = GameState.from_hands(hands, POKER, first_game=False, leader=0)
            >>> game = Turns(start.play("2s"))  # seat 2 may bomb the 2 out of turn
            >>> game.decider, game.state.to_act
            (2, 3)
            >>> _ = game.act(ACTIONS.PASS)  # seat 2 declines; seat 3 is to act
            >>> game.decider
            3
        """
        return self._seat

    @property
    def polling(self) -> bool:
        """Whether the decider is asked out of turn about a jump-in (RULES §6.4).

        Example:
            >>> from tienlen import POKER, GameState
            >>> hands = ["2s 9h", "3c Kd", "5s 5c 6s 6c 7s 7c 8s 8c", "4d Qh"]
            >>> start = GameState.from_hands(hands, POKER, first_game=False, leader=0)
            >>> game = Turns(start.play("2s"))  # seat 2 may bomb the 2 out of turn
            >>> game.polling
            True
            >>> _ = game.act(ACTIONS.PASS)
            >>> game.polling
            False
        """
        return self._seat is not None and self._seat != self.state.to_act

    def offered(self) -> dict[int, list[Action]]:
        """The decider's actions by index (a polled seat's PASS declines to jump in).

        Example:
            >>> from tienlen import POKER, GameState
            >>> hands = ["2s 9h", "3c Kd", "5s 5c 6s 6c 7s 7c 8s 8c", "4d Qh"]
            >>> start = GameState.from_hands(hands, POKER, first_game=False, leader=0)
            >>> game = Turns(start.play("2s"))  # seat 2 may bomb the 2 out of turn
            >>> {i: [str(a) for a in actions] for i, actions in game.offered().items()}
            {434: ['5s 5c 6s 6c 7s 7c 8s 8c'], 0: ['pass']}
        """
        seat, serial = self._seat, self.state._serial
        if seat is None:
            return {}
        return {
            index: [
                make_play(seat, mask, serial) if mask else PASSES[seat]
                for mask in masks
            ]
            for index, masks in self._groups.items()
        }

    def legal_indices(self) -> list[int]:
        """The indices the decider may choose, ascending.

        Example:
            >>> import random
            >>> from tienlen import CLASSIC
            >>> game = Turns.deal(CLASSIC, 4, random.Random(5))
            >>> [str(game.table[i]) for i in game.legal_indices()]
            ['single to 3s', '3-card straight to 5s', '4-card straight to 6c']
        """
        return sorted(self._groups)

    def mask(self) -> npt.NDArray[np.int8]:
        """The decider's legal indices as an int8 array (all zero once over).

        Example:
            >>> import random
            >>> from tienlen import CLASSIC
            >>> game = Turns.deal(CLASSIC, 4, random.Random(5))
            >>> mask = game.mask()
            >>> mask.shape, mask.nonzero()[0].tolist() == game.legal_indices()
            ((616,), True)
        """
        mask = np.zeros(self.size, dtype=np.int8)
        mask[list(self._groups)] = 1
        return mask

    def observe(self, seat: int) -> npt.NDArray[np.float32]:
        """The flat observation for *seat* (see `ObservationEncoder`).

        Example:
            >>> import random
            >>> from tienlen import CLASSIC
            >>> game = Turns.deal(CLASSIC, 4, random.Random(5))
            >>> hand = game.observe(0)[game.encoder.layout.slices["hand"]]
            >>> hand.nonzero()[0].tolist() == [card.index for card in game.state.hand(0)]
            True
        """
        return self.encoder.encode(self.state, seat)

    def act(self, index: int) -> Action:
        """The decider takes action *index* (the class filled with its lowest suits).

        Raises:
            IllegalActionError: the decider may not take *index* now.
            TypeError: *index* is not an ``int`` (a numpy integer is one; ``bool``
                is not).

        Example:
            >>> import random
            >>> from tienlen import CLASSIC
            >>> game = Turns.deal(CLASSIC, 4, random.Random(5))
            >>> straight = game.legal_indices()[1]  # 3-card straight to 5s
            >>> str(game.act(straight)), game.decider
            ('3s 4c 5s', 3)
        """
        index = as_index(index)
        masks = self._groups.get(index)
        seat = self._seat
        if masks is None or seat is None:
            msg = f"action {index} is not legal for seat {seat} now"
            raise IllegalActionError(msg)
        # The lowest suits are the member of least card value (`ActionTable.fill`).
        mask = min(masks, key=_card_value) if len(masks) > 1 else masks[0]
        action = make_play(seat, mask, self.state._serial) if mask else PASSES[seat]
        self.apply(action)
        return action

    def apply(self, action: Action) -> None:
        """The decider takes *action*, one of `offered`.

        Raises:
            IllegalActionError: *action* is not the deciding seat's, or not legal.

        Example:
            >>> from tienlen import POKER, GameState
            >>> hands = ["2s 9h", "3c Kd", "5s 5c 6s 6c 7s 7c 8s 8c", "4d Qh"]
            >>> start = GameState.from_hands(hands, POKER, first_game=False, leader=0)
            >>> game = Turns(start.play("2s"))  # seat 2 may bomb the 2 out of turn
            >>> bomb = game.offered()[434][0]
            >>> game.apply(bomb)  # seat 2 jumps in, and play goes on from the bomb
            >>> game.state.history[-1] == bomb, game.polling
            (True, False)
        """
        if (type(action) is not Pass and type(action) is not Play) or (
            action.player != self._seat
        ):
            msg = f"{action!r} is not an action of the deciding seat {self._seat}"
            raise IllegalActionError(msg)
        if type(action) is Pass and self.polling:
            self._next_poll()  # declined to jump in
            return
        self.state = self.state.apply(action)
        self.encoder.update(action)
        self._begin_round()

    def _begin_round(self) -> None:
        actions = self.state.legal_actions()
        self._actions = actions
        self._poll = list(actions._others)  # in play direction (RULES §6.4)
        self._next_poll()

    def _next_poll(self) -> None:
        """Offer the next seat that could jump in its jump-ins, else the player to act."""
        if self._poll:
            seat, plays = self._poll.pop(0)
            self._offer(seat, 0, plays, passes=True)
            return
        to_act = self.state.to_act
        if to_act is None:
            self._seat, self._groups = None, {}
            return
        actions = self._actions
        self._offer(to_act, actions._singles, actions._masks, passes=actions._pass)

    def _offer(
        self, seat: int, singles: int, plays: Sequence[int], *, passes: bool
    ) -> None:
        groups: dict[int, list[int]] = {}  # in the order of `tienlen.Actions`
        single, keys = self._single, self._keys
        while singles:
            low = singles & -singles
            groups[single[low.bit_length() - 1]] = [low]
            singles ^= low
        for mask in plays:
            groups.setdefault(keys[class_key(mask)], []).append(mask)
        if passes:
            groups[self.table.PASS] = [0]
        self._seat, self._groups = seat, groups

    def seat_rewards(self, reward: Reward) -> list[float]:
        """Every seat's reward: the game's once it is over, else zeros.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> game = Turns(GameState.from_hands(["3s", "4d 5d"], CLASSIC))
            >>> game.seat_rewards("place")
            [0.0, 0.0]
            >>> _ = game.act(game.legal_indices()[0])  # seat 0 goes out with the 3s
            >>> game.decider, game.seat_rewards("place"), game.seat_rewards("win")
            (None, [1.0, -1.0], [1.0, 0.0])
        """
        result = self.state.result
        if result is None:
            return [0.0] * self.state.players
        return rewards(result, reward)

    def render(self, mode: str | None) -> str | None:
        """The table as text for an environment's ``render``, in render *mode*.

        ``"ansi"`` returns the text, ``"human"`` prints it to stdout and returns
        ``None``, and no mode (``None``) does nothing. The text shows every hand: it is
        for people watching, not for the learner.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> game = Turns(GameState.from_hands(["3s", "4d 5d"], CLASSIC))
            >>> game.render("ansi") == str(game.state)
            True
            >>> game.render("human")
            classic, 2 players
              0: 3s  (to act)
              1: 4d 5d
              top: -
            >>> game.render(None) is None
            True
        """
        if mode is None:
            return None
        text = str(self.state)
        if mode == "human":
            print(text, file=sys.stdout)  # noqa: T201 - the "human" render mode
            return None
        return text


def _card_value(mask: int) -> int:
    """The sum of ``2 ** card`` over a play's cards: least for the lowest suits."""
    return (mask & _LOW_HALF) + (mask >> _CARDS)


@functools.cache
def _single_indices(table: ActionTable) -> list[int]:
    """The index of the single of each card in *table*."""
    indices: list[int] = table.indices([1 << card for card in range(_CARDS)]).tolist()
    return indices


_CARDS: Final = 52
_LOW_HALF: Final = (1 << _CARDS) - 1
