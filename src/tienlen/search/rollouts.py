"""What the search bots and the learned bot share: candidate pruning and rollouts.

`PIMCPlayer`, `ISMCTSPlayer` (`tienlen.search`) and the learned bot
(`tienlen.rl.pretrained`) search the same few candidates of a decision and score them
by playing worlds out to the end; this module is that common part.

Example:
    >>> from tienlen import CLASSIC, GameState, Observation
    >>> state = GameState.from_hands(["3s 4s 5s 6h 6d", "7c 8c 9c Td Jd"], CLASSIC)
    >>> seen = Observation.of(state, 0)
    >>> [str(a) for a in candidates(seen, state.legal_actions(), 3)]
    ['3s 4s 5s 6d', '3s', '3s 4s 5s']
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Final

import attrs

from tienlen._checks import check_count, check_type
from tienlen.engine import referee
from tienlen.errors import InvalidArgumentError
from tienlen.game import Action, GameState, Pass, Play
from tienlen.players import GreedyPlayer, Observation, Player
from tienlen.scoring import GameResult

__all__ = [
    "apply_searched",
    "candidates",
    "is_declined_jump_in",
    "play_out",
    "play_out_result",
]

_GREEDY: Final = GreedyPlayer()


def candidates(
    observation: Observation, actions: Sequence[Action], limit: int
) -> list[Action]:
    """At most *limit* of *actions* worth searching, the most promising first.

    Plays of the same class (kind, length and top card, as in `tienlen.rl`'s action
    table) differ only in the lower cards they use: one play per class is kept, the
    one using the lowest cards. The `GreedyPlayer` choice comes first, then a pass
    (when legal), then the classes taken in turn from each shape, lowest top first,
    so that every shape of play gets a candidate before any gets a second.

    Raises:
        TypeError: an argument has the wrong type (`check_decision`'s).
        InvalidArgumentError: *actions* is empty, holds a play that is no combination
            under the observation's rules, or *limit* is below 1.

    Example:
        >>> from tienlen import CLASSIC, GameState, Observation
        >>> state = GameState.from_hands(["3s 3c 9h", "5d 6d"], CLASSIC)
        >>> seen = Observation.of(state, 0)
        >>> [str(a) for a in candidates(seen, state.legal_actions(), 5)]
        ['3s 3c', '3s']
    """
    _check_actions(observation, actions)
    check_count("limit", limit, 1)
    rules = observation.rules
    greedy = _GREEDY.act(observation, actions, random.Random(0))
    chosen: list[Action] = [greedy]
    by_class: dict[tuple[object, int, int], tuple[int, Action]] = {}
    for action in actions:
        if isinstance(action, Pass):
            if action != greedy:
                chosen.append(action)
            continue
        combo = rules.classify(action.cards)
        if combo is None:
            msg = f"{action} is no combination under {rules.name}: it is not legal"
            raise InvalidArgumentError(msg)
        key = (combo.kind, len(combo), combo.top.index)
        weight = sum(card.index for card in action.cards)
        if key not in by_class or weight < by_class[key][0]:
            by_class[key] = weight, action
    shapes: dict[tuple[object, int], list[tuple[int, Action]]] = {}
    for (kind, length, top), (_, action) in by_class.items():
        shapes.setdefault((kind, length), []).append((top, action))
    ladders = [sorted(group, key=lambda item: item[0]) for group in shapes.values()]
    ladders.sort(key=lambda ladder: ladder[0][0])
    for step in range(max((len(ladder) for ladder in ladders), default=0)):
        chosen.extend(
            ladder[step][1]
            for ladder in ladders
            if step < len(ladder) and ladder[step][1] != greedy
        )
    return chosen[:limit]


@attrs.frozen
class _Declining:
    """A rollout player that declines the Poker jump-in being searched, then plays on.

    When the searched action is "do not jump in" (a `Pass` out of turn), the seat
    must not jump in at that same moment, whatever its rollout policy would do.
    """

    policy: Player
    seat: int
    moment: int
    """The history length of the decision being searched."""

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        if observation.jumping_in and len(observation.history) == self.moment:
            return Pass(player=self.seat)
        return self.policy.act(observation, actions, rng)


def is_declined_jump_in(world: GameState, action: Action) -> bool:
    """Whether *action* is "do not jump in": a `Pass` by a seat not to act.

    Raises:
        TypeError: *world* is not a `GameState` or *action* not a `Play` or `Pass`.

    Example:
        >>> from tienlen import CLASSIC, GameState, Pass
        >>> world = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC).play("3s")
        >>> is_declined_jump_in(world, Pass(player=0)), is_declined_jump_in(world, Pass(player=1))
        (True, False)
    """
    check_type("world", world, GameState)
    if type(action) not in (Play, Pass):
        msg = f"action must be a Play or a Pass, not {type(action).__name__}"
        raise TypeError(msg)
    return isinstance(action, Pass) and action.player != world.to_act


def apply_searched(world: GameState, action: Action) -> GameState:
    """*world* after *action*; declining a jump-in changes nothing.

    Raises:
        TypeError: *world* is not a `GameState` or *action* not a `Play` or `Pass`.
        tienlen.errors.IllegalPlayError: *action* is illegal in *world*.

    Example:
        >>> from tienlen import CLASSIC, GameState, Pass
        >>> world = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC).play("3s")
        >>> apply_searched(world, Pass(player=0)) is world, apply_searched(world, Pass(player=1)).to_act
        (True, 0)
    """
    return world if is_declined_jump_in(world, action) else world.apply(action)


def play_out(
    world: GameState,
    policy: Player,
    rng: random.Random,
    declining: int | None = None,
) -> tuple[int, ...]:
    """Every seat's score once *world* is played to the end, everyone following *policy*.

    The scores of `play_out_result`, which says how and why too.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, GreedyPlayer
        >>> world = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
        >>> play_out(world, GreedyPlayer(), random.Random(0))
        (-1, 1)
    """
    return play_out_result(world, policy, rng, declining).scores


def play_out_result(
    world: GameState,
    policy: Player,
    rng: random.Random,
    declining: int | None = None,
) -> GameResult:
    """How *world* ends when played to the end, everyone following *policy*.

    *declining* is a seat that has just declined a jump-in in *world*: it is not
    asked again at that moment. A policy that declares ``changes_nothing``
    (`tienlen.players.Player`; the library's own bots do) plays unchecked; any other
    policy's decisions are checked as in `play_game`.

    Raises:
        TypeError: *world* is not a `GameState`, *policy* has no ``act`` method, *rng*
            is not a ``random.Random`` or *declining* not an ``int`` or ``None``.
        InvalidArgumentError: *declining* is no seat of *world*.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, GreedyPlayer
        >>> world = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
        >>> play_out_result(world, GreedyPlayer(), random.Random(0)).finish_order
        (1, 0)
    """
    check_type("world", world, GameState)
    check_bot(policy, None)
    check_type("rng", rng, random.Random)
    if declining is not None:
        check_count("declining", declining, 0)
        if declining >= world.players:
            msg = f"declining must be a seat of the {world.players} players, not {declining}"
            raise InvalidArgumentError(msg)
    players: list[Player] = [policy] * world.players
    if declining is not None:
        players[declining] = _Declining(policy, declining, len(world.history))
    trusted = referee.trusts(policy)
    final = referee.play_out(world, players, rng, None, checked=not trusted)
    return final.final_result()


def own_actions(world: GameState) -> list[Action]:
    """The actions of the player to act (no Poker jump-ins by the others)."""
    to_act = world.to_act
    return [action for action in world.legal_actions() if action.player == to_act]


def deadline(seconds: float | None) -> float | None:
    """When a decision given *seconds* must end (a `time.perf_counter` value)."""
    return None if seconds is None else time.perf_counter() + seconds


def expired(deadline: float | None) -> bool:
    """Whether *deadline* has passed."""
    return deadline is not None and time.perf_counter() >= deadline


def check_decision(observation: object, actions: object, rng: object) -> None:
    """Refuse arguments of a search bot's ``act`` of the wrong type.

    Raises:
        TypeError: *observation* is not an `Observation`, *actions* not a sequence of
            actions, or *rng* not a ``random.Random``.
        InvalidArgumentError: *actions* is empty.
    """
    _check_actions(observation, actions)
    if not isinstance(rng, random.Random):
        msg = f"rng must be a random.Random, got {type(rng).__name__}"
        raise TypeError(msg)


def _check_actions(observation: object, actions: object) -> None:
    """`check_decision` but for the random source."""
    if not isinstance(observation, Observation):
        msg = f"observation must be an Observation, got {type(observation).__name__}"
        raise TypeError(msg)
    if not isinstance(actions, Sequence) or isinstance(actions, str | bytes):
        msg = f"actions must be a sequence of actions, got {type(actions).__name__}"
        raise TypeError(msg)
    if not all(type(action) in (Play, Pass) for action in actions):
        msg = "actions must hold only Play and Pass actions"
        raise TypeError(msg)
    if not actions:
        msg = "actions is empty: a player is asked only when it may act"
        raise InvalidArgumentError(msg)


def check_bot(rollout: object, first_game: object) -> None:
    """Refuse a rollout policy without an ``act`` method, or a non-bool *first_game*.

    Raises:
        TypeError: either has the wrong type.
    """
    if not callable(getattr(rollout, "act", None)):
        msg = f"rollout must be a Player (with an act method), got {rollout!r}"
        raise TypeError(msg)
    if first_game is not None and type(first_game) is not bool:
        msg = f"first_game must be a bool or None, got {first_game!r}"
        raise TypeError(msg)


def check_budget(name: str, steps: int, seconds: float | None, limit: int) -> None:
    """Refuse a budget that is not positive.

    Raises:
        TypeError: a count that is not an int, or seconds that are not a number.
        InvalidArgumentError: a count below 1 or non-positive seconds.
    """
    check_count(name, steps, 1)
    check_count("max_candidates", limit, 1)
    if seconds is not None:
        if type(seconds) not in (int, float):
            msg = f"seconds must be a number or None, got {seconds!r}"
            raise TypeError(msg)
        if not seconds > 0:
            msg = f"seconds must be positive, got {seconds!r}"
            raise InvalidArgumentError(msg)
