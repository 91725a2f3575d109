"""The greedy heuristic on masks and keys: `tienlen.GreedyPlayer`'s choice.

`choice` picks a play among a seat's legal plays, given as card masks and their keys
(`tienlen.engine.keys`), from what the seat's `tienlen.Observation` shows; the rules
of the heuristic are `GreedyPlayer`'s (its class description). A *precious* play
holds a 2 or is a bomb (RULES §2.3). The compiled build compiles this module, so the
bot's own work runs at C speed; it reads only what any bot may read.

Example:
    >>> from tienlen import CLASSIC, GameState, Hand, Observation
    >>> state = GameState.from_hands(["3s 4s 2h", "5d 6d"], CLASSIC, first_game=False, leader=0)
    >>> masks = [Hand.parse(text).mask for text in ("3s", "4s", "2h")]
    >>> choice(Observation.of(state, 0), masks, keys_of(masks), 2, may_pass=False)
    0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

from tienlen.actions import Action, Actions, Play
from tienlen.cards import Hand, Rank
from tienlen.combos import Plays
from tienlen.engine import bits as _bits
from tienlen.engine.keys import SEQUENCES, BombAnswers, bomb_answers, keys_of

if TYPE_CHECKING:
    from tienlen.rules import RuleSet
    from tienlen.seat import Observation

__all__ = ["act", "choice", "lead", "lowest", "only_precious"]

_TWO: Final = Rank.TWO.value
_ANY_TWO: Final = _bits.RANK_CARDS[_TWO]
"""The four 2s of either deck."""
_INDEX: Final = (1 << 32) - 1
"""The low bits of `lowest`'s packed order: the play's index."""


def act(observation: Observation, actions: Sequence[Action], danger: int) -> Action:
    """`GreedyPlayer.act`: the heuristic's action among *actions*, read as masks.

    *actions* is a seat's actions: an `Actions` (read as `Actions.masks`), or any
    sequence of plays and passes. The pass, if offered, is set apart; `choice` picks
    among the plays.

    Example:
        >>> from tienlen import CLASSIC, GameState, Observation
        >>> state = GameState.from_hands(["3s 4d 5h 9c 2s", "6d 9h"], CLASSIC)
        >>> str(act(Observation.of(state, 0), state.legal_actions(), 2))
        '3s 4d 5h'
    """
    masks = (
        actions.masks
        if isinstance(actions, Actions)
        else tuple(a.cards.mask if isinstance(a, Play) else 0 for a in actions)
    )
    try:
        passing = masks.index(0)  # the pass, if offered: every play holds cards
    except ValueError:
        passing = -1
        plays = masks
    else:
        plays = masks[:passing] + masks[passing + 1 :]
    index = choice(observation, plays, keys_of(plays), danger, may_pass=passing >= 0)
    if index < 0:
        return actions[passing]
    return actions[index if passing < 0 or index < passing else index + 1]


def choice(
    observation: Observation,
    masks: Sequence[int],
    keys: Sequence[int],
    danger: int,
    *,
    may_pass: bool,
) -> int:
    """The index of the play to make among *masks* (of *keys*); -1 to pass.

    *danger*: an opponent with at most this many cards is about to go out; *may_pass*:
    whether a pass is among the seat's actions.
    """
    hand = observation.hand_mask
    hand_size = hand.bit_count()
    sizes = [mask.bit_count() for mask in masks]
    if hand_size in sizes:
        return sizes.index(hand_size)  # going out: the first such play
    if not masks:
        return -1
    rules = observation.rules
    bombs = bomb_answers(rules)
    normal = [  # the plays that are not precious: no 2, no bomb
        index
        for index, key in enumerate(keys)
        if (key & 63) >> 2 != _TWO and not bombs[key >> 6]
    ]
    every = range(len(masks))
    if observation.jumping_in:
        if not may_pass or _threatened(observation, danger):
            return lowest(every, keys, sizes)
        return -1
    if observation.is_leading:
        return lead(normal or every, keys, sizes)
    if normal:
        return lowest(normal, keys, sizes)
    order = [((key & 63) >> 2 != _TWO) << 6 | key & 63 for key in keys]
    index = min(every, key=order.__getitem__)  # 2s before bombs, lowest first
    if not may_pass:  # pragma: no cover - following may always pass
        return index
    if observation.may_continue:
        return -1
    if (
        _threatened(observation, danger)
        or hand_size - sizes[index] <= danger
        or only_precious(hand, rules, bombs)
    ):
        return index
    return -1


def _threatened(observation: Observation, danger: int) -> bool:
    """Whether an opponent holds at most *danger* cards."""
    fewest = observation.fewest_opponent_cards
    return fewest is not None and fewest <= danger


def lowest(indices: Iterable[int], keys: Sequence[int], sizes: Sequence[int]) -> int:
    """The play with the lowest top card; more cards first among equals, then the first.

    Example:
        >>> lowest([0, 1], [5, 5], [1, 2])  # the same top card: the pair
        1
    """
    best = min(
        ((keys[index] & 63) << 7 | 127 - sizes[index]) << 32 | index
        for index in indices
    )
    return best & _INDEX


def lead(indices: Sequence[int], keys: Sequence[int], sizes: Sequence[int]) -> int:
    """The longest sequence (lowest top among equals), else the lowest rank, fullest.

    Example:
        >>> from tienlen import Hand
        >>> masks = [Hand.parse(text).mask for text in ("3s", "3s 3c", "4d")]
        >>> lead([0, 1, 2], keys_of(masks), [1, 2, 1])  # the pair of 3s
        1
    """
    sequences = [index for index in indices if keys[index] >> 12 in SEQUENCES]
    if not sequences:
        least = min((keys[index] & 63) >> 2 for index in indices)
        sequences = [index for index in indices if (keys[index] & 63) >> 2 == least]
    order = {index: (127 - sizes[index]) << 6 | keys[index] & 63 for index in sequences}
    return min(order, key=order.__getitem__)


def only_precious(hand: int, rules: RuleSet, bombs: BombAnswers) -> bool:
    """Whether every card of the mask *hand* is a 2 or part of a bomb it holds.

    Example:
        >>> from tienlen import CLASSIC, Hand
        >>> answers = bomb_answers(CLASSIC)
        >>> only_precious(Hand.parse("2s 2h").mask, CLASSIC, answers), only_precious(Hand.parse("2s 3h").mask, CLASSIC, answers)
        (True, False)
    """
    share = bombs.least_share
    if share is not None:
        others = _bits.rank_counts(hand & ~_ANY_TWO)  # per rank, 2s left out
        if not share:  # no bomb at all: only 2s are precious
            return not others
        held = (others + _bits.at_least_offset(1)) >> 3 & _bits.ONES
        if held & ~((others + _bits.at_least_offset(share)) >> 3):
            return False  # a rank holds fewer cards than any bomb takes of one
    plays = rules.legal_plays(Hand(hand))
    masks: Sequence[int]
    if type(plays) is Plays:  # on the int core's masks and keys
        masks = plays.masks
        keys = keys_of(masks)
    else:
        masks = [combo.mask for combo in plays]
        keys = [combo.key for combo in plays]
    covered = 0
    for mask, key in zip(masks, keys, strict=True):
        if (key & 63) >> 2 == _TWO or bombs[key >> 6]:
            covered |= mask
    return hand & ~covered == 0
