"""The kinds of combination and their shapes: `ComboKind` and `Shape` (RULES §1.2–§1.3).

A `Shape` is a kind plus a number of cards: only combinations of one shape compare.
Both are values with no rules in them; `tienlen.combos` publishes them beside
`tienlen.Combo`, and the engine reads one shared `Shape` per shape code
(`SHAPE_BY_CODE`).

Example:
    >>> from tienlen.kinds import ComboKind, Shape
    >>> str(Shape(ComboKind.STRAIGHT, 5))
    '5-card straight'

.. versionadded:: 0.3
   The module; the names are `tienlen.combos`' since 0.1.
"""

from __future__ import annotations

import enum
from typing import Final

import attrs

from tienlen.engine.kinds import KINDS
from tienlen.engine.shapes import STRUCTURES
from tienlen.errors import InvalidRulesError

__all__ = ["KIND_BY_CODE", "SHAPE_BY_CODE", "ComboKind", "Shape"]


class ComboKind(enum.Enum):
    """The kinds of combination (RULES §1.2).

    Example:
        >>> ComboKind.CONSECUTIVE_PAIRS.label
        'consecutive pairs'
    """

    SINGLE = 1
    """One card."""
    PAIR = 2
    """Two cards of one rank."""
    TRIPLE = 3
    """Three cards of one rank."""
    FOUR_OF_A_KIND = 4
    """Four cards of one rank (*tứ quý*)."""
    STRAIGHT = 5
    """Three or more cards of consecutive ranks, one per rank (*sảnh*)."""
    CONSECUTIVE_PAIRS = 6
    """Three or more pairs of consecutive ranks (*đôi thông*)."""
    CONSECUTIVE_QUADS = 7
    """Two or three four-of-a-kinds of consecutive ranks (Vietcong slams, RULES §5.2)."""
    CONSECUTIVE_TRIPLES = 8
    """Triples of consecutive ranks (*sảnh ba*, a house rule: RULES §12.4; no preset)."""
    FIVE_OF_A_KIND = 9
    """Five cards of one rank (*ngũ quý*), two decks only (a house rule: RULES §12.14; no preset)."""

    @property
    def label(self) -> str:
        """The kind in plain words, such as ``"four of a kind"``.

        Example:
            >>> ComboKind.FOUR_OF_A_KIND.label
            'four of a kind'
        """
        return self.name.lower().replace("_", " ")

    @property
    def per_rank(self) -> int:
        """Cards of each rank, from 1 (singles, straights) to 5 (five of a kind).

        Example:
            >>> ComboKind.STRAIGHT.per_rank, ComboKind.CONSECUTIVE_PAIRS.per_rank
            (1, 2)
        """
        return KINDS[self.value].per_rank

    @property
    def is_sequence(self) -> bool:
        """Whether the kind spans consecutive ranks (straights, runs of pairs, triples, quads).

        Example:
            >>> ComboKind.STRAIGHT.is_sequence, ComboKind.TRIPLE.is_sequence
            (True, False)
        """
        return KINDS[self.value].sequence


KIND_BY_CODE: Final = {kind.value: kind for kind in ComboKind}
assert {code: kind.name for code, kind in KIND_BY_CODE.items()} == {
    code: row.name for code, row in KINDS.items()
}, "every kind has one row in the kind table, under its member's name and value"


def _check_kind(_: Shape, __: attrs.Attribute[ComboKind], kind: object) -> None:
    if not isinstance(kind, ComboKind):
        msg = f"a shape's kind must be a ComboKind, got {kind!r}"
        raise TypeError(msg)


def _check_size(shape: Shape, _: attrs.Attribute[int], size: object) -> None:
    if not isinstance(size, int) or isinstance(size, bool):
        msg = f"a shape's size must be an int, got {size!r}"
        raise TypeError(msg)
    row = KINDS[shape.kind.value]
    length, extra = divmod(size, row.per_rank)
    if extra or not row.shortest <= length <= row.longest:
        msg = f"no {shape.kind.label} has {size!r} cards"
        raise InvalidRulesError(msg)


@attrs.frozen
class Shape:
    """A kind plus a number of cards: only combinations of one shape compare (RULES §1.3).

    Example:
        >>> str(Shape(ComboKind.CONSECUTIVE_PAIRS, 6))
        '3 consecutive pairs'
        >>> Shape.of(ComboKind.STRAIGHT, 5) == Shape(ComboKind.STRAIGHT, 5)
        True
    """

    kind: ComboKind = attrs.field(validator=_check_kind)
    """The combination kind."""
    size: int = attrs.field(validator=_check_size)
    """The number of cards."""

    @classmethod
    def of(cls, kind: ComboKind, length: int = 1) -> Shape:
        """The shape of a *kind*; *length* counts ranks for sequences (3 pairs → 6 cards).

        Example:
            >>> Shape.of(ComboKind.CONSECUTIVE_QUADS, 2).size
            8
        """
        if not isinstance(kind, ComboKind):
            msg = f"a shape's kind must be a ComboKind, got {kind!r}"  # type: ignore[unreachable]
            raise TypeError(msg)
        if type(length) is not int:
            msg = f"a run length must be an int, got {length!r}"
            raise TypeError(msg)
        size = kind.per_rank * length if kind.is_sequence else kind.per_rank
        return cls(kind, size)

    @property
    def length(self) -> int:
        """The number of ranks the shape spans (1 for singles, pairs, triples, fours).

        Example:
            >>> Shape(ComboKind.CONSECUTIVE_PAIRS, 8).length, Shape(ComboKind.TRIPLE, 3).length
            (4, 1)
        """
        return self.size // self.kind.per_rank if self.kind.is_sequence else 1

    @property
    def code(self) -> int:
        """A small int naming the shape (private encoding shared with the rules core).

        Example:
            >>> Shape.from_code(Shape(ComboKind.STRAIGHT, 5).code)
            Shape(kind=<ComboKind.STRAIGHT: 5>, size=5)
        """
        return self.kind.value << 6 | self.size

    @classmethod
    def from_code(cls, code: int) -> Shape:
        """The shape named by `code`: one shared `Shape` per code (they are interned).

        Example:
            >>> code = Shape(ComboKind.PAIR, 2).code
            >>> Shape.from_code(code) is Shape.from_code(code)
            True
        """
        shape = SHAPE_BY_CODE.get(code) if cls is Shape and type(code) is int else None
        if shape is None:  # not a valid code (or a subclass): the validators answer
            return cls(KIND_BY_CODE[code >> 6], code & 63)
        return shape

    def __str__(self) -> str:
        if not self.kind.is_sequence:
            return self.kind.label
        noun = {ComboKind.STRAIGHT: "-card straight"}.get(self.kind)
        if noun is not None:
            return f"{self.size}{noun}"
        return f"{self.length} {self.kind.label}"


def _shapes() -> dict[int, Shape]:
    """Every valid shape, by code (`Shape.code`): the interned shapes."""
    shapes: dict[int, Shape] = {}
    for code in STRUCTURES.values():
        shape = Shape(KIND_BY_CODE[code >> 6], code & 63)
        shapes[shape.code] = shape
    return shapes


SHAPE_BY_CODE: Final = _shapes()
"""One `Shape` per valid shape code, built once (`Combo.shape`, `Shape.from_code`):
engine-level, as `KIND_BY_CODE` is."""
