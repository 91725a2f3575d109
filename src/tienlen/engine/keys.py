"""Plays as keys: the structural key of a card mask, and bomb answers by shape code.

A play's key (`tienlen.engine.shapes.structural_key`, what `tienlen.Combo.key` holds)
packs its shape code (``key >> 6``; its kind ``key >> 12``) and its top card
(``key & 63``, the rank ``(key & 63) >> 2``). `KEYS` looks keys up by mask, keeping
those of sets; `bomb_answers` says whether a shape code is a bomb under a rule set,
asking it once per code. `GreedyPlayer` and `tienlen.simulation` read plays this way.

Example:
    >>> from tienlen import CLASSIC, Hand
    >>> key = KEYS[Hand.parse("2s 2c 2d 2h").mask]
    >>> bomb_answers(CLASSIC)[key >> 6], (key & 63) >> 2
    (True, 12)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Final

from tienlen.cards import Rank
from tienlen.combos import ComboKind, Shape
from tienlen.engine.kinds import KINDS
from tienlen.engine.rulebook import overrides_rule_hooks
from tienlen.engine.shapes import structural_key
from tienlen.rules import CLASSIC, RuleSet
from tienlen.rules.base import BaseRules

__all__ = [
    "KEYS",
    "SEQUENCES",
    "BombAnswers",
    "Keys",
    "bomb_answers",
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
