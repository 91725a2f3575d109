"""Plays as keys: the structural key of a card mask, and bomb answers by shape code.

A play's key (`tienlen.engine.shapes.structural_key`, what `tienlen.Combo.key` holds)
packs its shape code (``key >> 6``; its kind ``key >> 12``) and its top card
(``key & 63``, the rank ``(key & 63) >> 2``). `KEYS` looks keys up by mask, keeping
those of sets; `bomb_answers` says whether a shape code is a bomb under a rule set,
asking it once per code; `BombTally` counts a game's bombs and catches on keys.
`GreedyPlayer` and `tienlen.simulation` read plays this way.

Example:
    >>> from tienlen import CLASSIC, Hand
    >>> key = KEYS[Hand.parse("2s 2c 2d 2h").mask]
    >>> bomb_answers(CLASSIC)[key >> 6], (key & 63) >> 2
    (True, 12)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar, Final

from tienlen.cards import Rank
from tienlen.combos import ComboKind, Shape
from tienlen.engine.kinds import KINDS
from tienlen.engine.rulebook import overrides_rule_hooks
from tienlen.engine.shapes import structural_key
from tienlen.rules import CLASSIC, RuleSet
from tienlen.rules.base import BaseRules

if TYPE_CHECKING:
    from tienlen.actions import Play
    from tienlen.game import GameState

__all__ = [
    "KEYS",
    "SEQUENCES",
    "BombAnswers",
    "BombTally",
    "Keys",
    "bomb_answers",
    "is_chop_key",
    "keys_of",
    "least_bomb_share",
]

SEQUENCES: Final = frozenset(kind.value for kind in ComboKind if kind.is_sequence)
"""The kind codes (``key >> 12``) of the sequences: straights and consecutive pairs."""


class Keys(dict[int, int]):
    """The key of a legal play's mask (`tienlen.engine.shapes.structural_key`).

    Every key is kept once looked up; as runs are millions, the whole cache is
    dropped when it holds `LIMIT` keys. A dict subclass, so that mapping its
    ``__getitem__`` over masks runs at C speed.

    Example:
        >>> from tienlen import Hand
        >>> key = KEYS[Hand.parse("3s").mask]
        >>> key & 63, key == KEYS[1]
        (0, True)
    """

    LIMIT: ClassVar[int] = 1 << 18
    """The most keys kept."""

    def __missing__(self, mask: int) -> int:
        key = structural_key(mask)
        if len(self) >= self.LIMIT:
            self.clear()
        self[mask] = key
        return key


KEYS: Final = Keys()
"""The process's key lookup (thread-safe: it only ever holds correct entries)."""


def keys_of(masks: Iterable[int]) -> list[int]:
    """The key of each legal play of *masks*, in order.

    Example:
        >>> from tienlen import Hand
        >>> [(key & 63) >> 2 for key in keys_of([Hand.parse("4s").mask, Hand.parse("5s 5c").mask])]
        [1, 2]
    """
    return list(map(KEYS.__getitem__, masks))


class BombAnswers(dict[int, bool]):
    """Whether each shape code is a bomb under one rule set, asked once per code.

    Example:
        >>> from tienlen import POKER, Hand
        >>> answers = BombAnswers(POKER)
        >>> answers[KEYS[Hand.parse("9s 9c 9d 9h").mask] >> 6], answers.least_share
        (True, 2)
    """

    __slots__ = ("least_share", "rules")

    def __init__(self, rules: RuleSet) -> None:
        super().__init__()
        self.rules = rules
        self.least_share = least_bomb_share(rules)
        """The fewest cards of one rank any bomb takes (0: no bomb; ``None``: unknown)."""

    def __missing__(self, code: int) -> bool:
        bomb = self[code] = self.rules.is_bomb(Shape.from_code(code))
        return bomb


def least_bomb_share(rules: RuleSet) -> int | None:
    """`BombAnswers.least_share`, for a `BaseRules` answering its rule questions itself.

    ``None`` (no quick answer) for any other rule set, and where a sequence may run up
    to the 2: such a play holds a 2, so its other cards are precious too.

    Example:
        >>> from tienlen import CLASSIC, POKER
        >>> least_bomb_share(POKER), least_bomb_share(CLASSIC)  # None: no quick answer
        (2, None)
    """
    if not isinstance(rules, BaseRules) or overrides_rule_hooks(type(rules)):  # type: ignore[arg-type]  # classes hash
        return None
    for kind in rules.kinds:
        if kind.is_sequence and any(
            rules.max_top_rank(Shape.of(kind, length)) is Rank.TWO
            for length in range(
                KINDS[kind.value].shortest, KINDS[kind.value].longest + 1
            )
        ):
            return None
    return min((shape.kind.per_rank for shape in rules._bomb_shapes), default=0)


def bomb_answers(rules: RuleSet) -> BombAnswers:
    """The bomb answers of *rules*, remembered for the last rule set asked.

    Read and replaced as one reference, so threads sharing it never mix two rule
    sets' answers.

    Example:
        >>> from tienlen import CLASSIC
        >>> bomb_answers(CLASSIC) is bomb_answers(CLASSIC)
        True
    """
    answers = _LAST[0]
    if answers.rules is not rules:
        answers = _LAST[0] = BombAnswers(rules)
    return answers


_LAST: Final = [BombAnswers(CLASSIC)]


class BombTally:
    """Counts each seat's bombs and catches as a game is played (RULES §6.2, §6.6.2).

    A `tienlen.engine.referee.Tally`: `play_out` tells it every play before applying
    it, and `tienlen.simulate` reports its counts. Under a `BaseRules` that answers its
    rule questions itself (the presets, any table built from settings, a subclass
    that overrides none of them) it reads each play's key and asks the rule set about
    each shape once (`BombAnswers`); any other rule set is asked about every play
    (`count_any`).

    Example:
        >>> import random
        >>> from tienlen import POKER, GameState, GreedyPlayer
        >>> from tienlen.engine.referee import play_out
        >>> tally = BombTally(4)
        >>> state = GameState.deal(POKER, 4, seed=3)
        >>> final = play_out(state, [GreedyPlayer()] * 4, random.Random(3), tally)
        >>> len(tally.bombs), sum(tally.chops) <= sum(tally.bombs)
        (4, True)
    """

    __slots__ = ("_answers", "bombs", "chops")

    def __init__(self, seats: int) -> None:
        self.bombs = [0] * seats
        """Bombs played, by seat."""
        self.chops = [0] * seats
        """Catches made (a bomb, or a Poker chop, on a chop target), by seat."""
        self._answers: BombAnswers | None = None
        """Whether each shape code is a bomb under the rule set being played."""

    def count(self, state: GameState, play: Play, mask: int) -> None:
        """Count *play* (its cards *mask*), about to be played in *state*."""
        rules = state.rules
        answers = self._answers
        if answers is None or answers.rules is not rules:
            if not isinstance(rules, BaseRules) or overrides_rule_hooks(type(rules)):  # type: ignore[arg-type]  # classes hash
                self.count_any(
                    rules, state, play
                )  # its answers may depend on the cards
                return
            answers = self._answers = BombAnswers(rules)
        if not answers[KEYS[mask] >> 6]:
            return  # a catch is a bomb (RULES §6.6.2)
        player = play.player
        self.bombs[player] += 1
        top = state.top_mask
        if top and is_chop_key(answers, KEYS[top]):
            self.chops[player] += 1

    def count_any(self, rules: RuleSet, state: GameState, play: Play) -> None:
        """`count` under any rule set, through its public methods."""
        combo = rules.classify(play.cards)
        assert combo is not None  # a legal play is a combination
        if rules.is_bomb(combo.shape):
            self.bombs[play.player] += 1
        top = state.top
        if top is not None and rules.is_catch(combo, top):
            self.chops[play.player] += 1


def is_chop_key(answers: BombAnswers, key: int) -> bool:
    """`BaseRules.is_chop_target` on a key: a single or pair of 2s, or a bomb.

    Example:
        >>> from tienlen import CLASSIC, Hand
        >>> answers = BombAnswers(CLASSIC)
        >>> is_chop_key(answers, KEYS[Hand.parse("2h").mask]), is_chop_key(answers, KEYS[Hand.parse("Ah").mask])
        (True, False)
    """
    if key >> 12 in _SINGLE_OR_PAIR:
        return (key & 63) >> 2 == Rank.TWO.value
    return answers[key >> 6]


_SINGLE_OR_PAIR: Final = frozenset({ComboKind.SINGLE.value, ComboKind.PAIR.value})
