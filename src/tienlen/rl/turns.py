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
import sys
from collections.abc import Sequence
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from tienlen.cards import Hand
from tienlen.errors import InvalidArgumentError, TienLenError
from tienlen.game import Action, GameState, Pass, Play
from tienlen.rl._checks import as_index, as_rules, as_sequence
from tienlen.rl.observation import ObservationEncoder
from tienlen.rl.table import ACTIONS, ActionTable, card_value
from tienlen.rules import BaseRules
from tienlen.scoring import GameResult, PokerScorer, StakeScorer

__all__ = [
    "IllegalActionError",
    "Reward",
    "Turns",
    "deal_playable",
    "rewards",
    "split_by_seat",
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


def split_by_seat(
    state: GameState, masks: Sequence[int]
) -> tuple[Sequence[int], list[tuple[int, Sequence[int]]]]:
    """*state*'s legal actions as card masks, split by who may take them.

    *masks* are ``state.legal_actions().masks``: the player to act's plays, then its
    pass (0) if it may pass, then the other players' Poker jump-ins (RULES §6.4). The
    first part is returned as is; the jump-ins come as ``(seat, masks)`` in play
    direction. A play belongs to the seat holding its cards (`GameState.hand_masks`).

    Raises:
        TypeError: *state* is not a `tienlen.GameState`, or *masks* not a sequence of
            ints.
        tienlen.errors.InvalidArgumentError: a mask that no seat holds.

    Example:
        >>> from tienlen import POKER, GameState
        >>> hands = ["2s 9h", "3c Kd", "5s 5c 6s 6c 7s 7c 8s 8c", "4d Qh"]
        >>> start = GameState.from_hands(hands, POKER, first_game=False, leader=0)
        >>> state = start.play("2s")  # seat 3 to act; seat 2 may bomb the 2
        >>> own, jump_ins = split_by_seat(state, state.legal_actions().masks)
        >>> own, [(seat, len(plays)) for seat, plays in jump_ins]
        ((0,), [(2, 1)])
    """
    given: object = state  # checked at run time: callers may pass anything
    if type(given) is not GameState:
        msg = f"expected a GameState, not {type(given).__name__}"
        raise TypeError(msg)
    if type(masks) is not tuple and type(masks) is not list:
        masks = tuple(as_sequence(masks, "masks"))
    to_act = state.to_act
    if to_act is None or not masks:
        return masks, []
    hands = state.hand_masks
    own = hands[to_act]
    last = masks[-1]
    if last & own == last:  # the common case: no jump-in (a pass is 0)
        return masks, []
    end = 0
    while masks[end] & own == masks[end]:
        end += 1
    jump_ins: list[tuple[int, list[int]]] = []
    for mask in masks[end:]:
        seat = next(
            (seat for seat, hand in enumerate(hands) if mask & hand == mask), None
        )
        if seat is None or not mask:
            msg = f"no seat holds the cards of the mask {mask!r}"
            raise InvalidArgumentError(msg)
        if not jump_ins or jump_ins[-1][0] != seat:
            jump_ins.append((seat, []))
        jump_ins[-1][1].append(mask)
    return masks[:end], list(jump_ins)


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
        self._own: Sequence[int] = ()
        """The player to act's actions, as card masks (a pass: 0)."""
        self._poll: list[tuple[int, Sequence[int]]] = []
        """Seats still to be asked about a jump-in, and their jump-ins."""
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
        seat = self._seat
        if seat is None:
            return {}
        return {
            index: [
                Play(player=seat, cards=Hand(mask)) if mask else Pass(player=seat)
                for mask in masks
            ]
            for index, masks in self._groups.items()
        }

    def choices(self) -> dict[int, int]:
        """The decider's indices, ascending, each with the cards `step` plays (0: none).

        Example:
            >>> import random
            >>> from tienlen import CLASSIC, Hand
            >>> game = Turns.deal(CLASSIC, 4, random.Random(5))
            >>> [str(Hand(mask)) for mask in game.choices().values()]
            ['3s', '3s 4c 5s', '3s 4c 5s 6c']
        """
        return {index: _lowest(masks) for index, masks in sorted(self._groups.items())}

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

    def is_legal(self, index: int) -> bool:
        """Whether the decider may take action *index* now (``False`` once over).

        Example:
            >>> import random
            >>> from tienlen import CLASSIC
            >>> game = Turns.deal(CLASSIC, 4, random.Random(5))
            >>> game.is_legal(game.legal_indices()[0]), game.is_legal(ACTIONS.PASS)
            (True, False)
        """
        return index in self._groups

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

    def step(self, index: int) -> int:
        """The decider takes action *index*; returns the cards played as a mask (0: none).

        The class is filled with the decider's lowest suits; a polled seat's PASS
        declines its jump-in (RULES §6.4). No action object is built: the environments
        step here, on the engine's ints (`tienlen.GameState.apply_mask`).

        Raises:
            IllegalActionError: the decider may not take *index* now.
            TypeError: *index* is not an ``int`` (a numpy integer is one; ``bool``
                is not).

        Example:
            >>> import random
            >>> from tienlen import CLASSIC, Hand
            >>> game = Turns.deal(CLASSIC, 4, random.Random(5))
            >>> straight = game.legal_indices()[1]  # 3-card straight to 5s
            >>> str(Hand(game.step(straight))), game.decider
            ('3s 4c 5s', 3)
        """
        return self._step(index)[1]

    def _step(self, index: int) -> tuple[int, int]:
        """`step`, also returning the seat that took the action."""
        index = as_index(index)
        masks = self._groups.get(index)
        seat = self._seat
        if masks is None or seat is None:
            msg = f"action {index} is not legal for seat {seat} now"
            raise IllegalActionError(msg)
        mask = _lowest(masks)
        self._take(seat, mask)
        return seat, mask

    def act(self, index: int) -> Action:
        """`step`, the action taken returned as a `tienlen.Play` or `tienlen.Pass`.

        It raises what `step` raises.

        Example:
            >>> import random
            >>> from tienlen import CLASSIC
            >>> game = Turns.deal(CLASSIC, 4, random.Random(5))
            >>> action = game.act(game.legal_indices()[1])
            >>> str(action), action.player, game.decider
            ('3s 4c 5s', 2, 3)
        """
        seat, mask = self._step(index)
        return Play(player=seat, cards=Hand(mask)) if mask else Pass(player=seat)

    def apply(self, action: Action) -> None:
        """The decider takes *action*, one of `offered`.

        Raises:
            IllegalActionError: *action* is not the deciding seat's, or not offered.

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
        seat = self._seat
        if (type(action) is not Pass and type(action) is not Play) or (
            action.player != seat
        ):
            msg = f"{action!r} is not an action of the deciding seat {seat}"
            raise IllegalActionError(msg)
        mask = action.cards.mask if type(action) is Play else 0
        if not any(mask in masks for masks in self._groups.values()):
            msg = f"{action!r} is not offered to seat {seat} now"
            raise IllegalActionError(msg)
        self._take(action.player, mask)

    def _take(self, seat: int, mask: int) -> None:
        """*seat*, the decider, takes the offered action *mask*."""
        in_turn = seat == self.state.to_act
        if not mask and not in_turn:
            self._next_poll()  # declined to jump in
            return
        # The player to act is the default: naming it only costs a check.
        self.state = self.state.apply_mask(mask, None if in_turn else seat)
        self.encoder.record(seat, mask)
        self._begin_round()

    def _begin_round(self) -> None:
        plays, may_pass, jump_ins = self.state.legal_actions().by_seat()
        self._own = (*plays, 0) if may_pass else plays
        self._poll = list(jump_ins)  # in play direction (RULES §6.4)
        self._next_poll()

    def _next_poll(self) -> None:
        """Offer the next seat that could jump in its jump-ins, else the player to act."""
        table = self.table
        if self._poll:
            seat, plays = self._poll.pop(0)
            groups = table.group_masks(plays)
            groups[table.PASS] = [0]
            self._seat, self._groups = seat, groups
            return
        to_act = self.state.to_act
        if to_act is None:
            self._seat, self._groups = None, {}
            return
        self._seat, self._groups = to_act, table.group_masks(self._own)

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


def _lowest(masks: list[int]) -> int:
    """The member filled with the lowest suits: of least card value (`ActionTable.fill`)."""
    return min(masks, key=card_value) if len(masks) > 1 else masks[0]


_CARDS: Final = 52
