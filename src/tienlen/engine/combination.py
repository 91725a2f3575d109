"""A combination as the engine keeps it: `Combo`, its card mask and key (RULES §1.2).

A `Combo` holds two ints, its cards as a mask (`tienlen.Hand.mask`) and its key
(`tienlen.engine.shapes.structural_key`: shape code and top card); its cards, kind and
shape are read from them when asked. `make_combo` is how the engine builds the
combinations it lists, without checking them again. The public names are
`tienlen.Combo` and `tienlen.combos.Combo`.

The compiled build compiles this module, so the engine reads a combination's mask and
key as fields of a native object (`tienlen.beats`, `tienlen.classify`). As for
`tienlen.Play`: a native class's constructor always runs ``__init__`` and
``object.__new__`` refuses a native class, so `Combo` defines a ``__new__`` that
ignores its arguments, and the compiled engine builds a blank combination with
``Combo.__new__(Combo)`` (`make_combo`).
"""

from __future__ import annotations

from collections.abc import Iterator
from types import FunctionType
from typing import TYPE_CHECKING, Final, Never, NoReturn, Self

from tienlen.cards import DECK, Card, Rank, cards_of
from tienlen.engine.shapes import structural_key
from tienlen.errors import InvalidComboError
from tienlen.kinds import KIND_BY_CODE, SHAPE_BY_CODE

if TYPE_CHECKING:
    from tienlen.kinds import ComboKind, Shape

__all__ = ["COMPILED", "NO_ORDER", "Combo", "make_combo"]

NO_ORDER: Final = (
    "combinations have no order: use beats(a, b, rules) to ask whether a may be "
    "played on b (RULES §1.3)"
)
"""Why ``<`` refuses two combinations."""


def _checked(mask: object, key: object) -> tuple[int, int]:
    """*mask* and *key*, if they describe one combination of at most two decks."""
    for name, value in (("mask", mask), ("key", key)):
        if type(value) is not int:
            msg = f"a combination's {name} is an int, got {value!r}"
            raise TypeError(msg)
    assert isinstance(mask, int)
    assert isinstance(key, int)
    if mask < 0 or mask >> 104:
        msg = f"mask {mask:#x} holds no cards of two decks"
        raise InvalidComboError(msg)
    if not key or structural_key(mask) != key:
        msg = f"mask {mask:#x} and key {key:#x} do not describe one combination"
        raise InvalidComboError(msg)
    return mask, key


class Combo:
    """A combination of cards (RULES §1.2), as classified by a rule set.

    Get one from `tienlen.classify`. Combos are equal when they hold the same cards;
    they have no ``<`` — use `tienlen.beats`.

    Example:
        >>> from tienlen import classify
        >>> combo = classify("5h 3s 4s")
        >>> combo.kind, combo.top, len(combo)
        (<ComboKind.STRAIGHT: 5>, Card.parse('5h'), 3)
        >>> combo
        <Combo STRAIGHT '3s 4s 5h'>

    A plain slotted class with read-only properties rather than an attrs class: the
    engine builds and reads combinations on its hot paths (`tienlen.legal_plays`,
    `tienlen.beats`).
    """

    __slots__ = ("_key", "_mask")

    _mask: int
    _key: int

    def __new__(cls, mask: object = None, key: object = None) -> Self:  # noqa: ARG004
        """A blank combination, whatever the arguments: ``__init__`` checks them.

        It holds no card and has key 0, which no combination has. See the module's
        documentation.
        """
        blank = object.__new__(cls)
        blank._mask = 0
        blank._key = 0
        return blank

    def __init__(self, mask: object, key: object) -> None:
        # typed `object` and checked: compiled, a parameter typed `int` takes ``True``
        self._mask, self._key = _checked(mask, key)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards in ascending order.

        Example:
            >>> from tienlen import classify
            >>> classify("4d 4s").cards
            (Card.parse('4s'), Card.parse('4d'))
        """
        return cards_of(self._mask)

    @property
    def kind(self) -> ComboKind:
        """The kind of combination.

        Example:
            >>> from tienlen import classify
            >>> classify("9s 9h 9d").kind
            <ComboKind.TRIPLE: 3>
        """
        return KIND_BY_CODE[self._key >> 12]

    @property
    def shape(self) -> Shape:
        """The kind plus the number of cards (one shared `Shape` per shape).

        Example:
            >>> from tienlen import classify
            >>> str(classify("3s 3h 4s 4d 5c 5h").shape)
            '3 consecutive pairs'
        """
        return SHAPE_BY_CODE[self._key >> 6]

    @property
    def top(self) -> Card:
        """The highest card, which decides same-shape comparisons (RULES §1.3).

        Example:
            >>> from tienlen import classify
            >>> classify("7h 7c").top
            Card.parse('7h')
        """
        return DECK[self._key & 63]

    @property
    def rank(self) -> Rank:
        """The rank of the highest card (the rank of a pair, triple or four of a kind).

        Example:
            >>> from tienlen import classify
            >>> classify("Js Qs Kd").rank
            <Rank.KING: 10>
        """
        return DECK[self._key & 63].rank

    @property
    def key(self) -> int:
        """A small int encoding shape and top card; equal shapes compare by ``key & 63``.

        Example:
            >>> from tienlen import classify
            >>> low, high = classify("5s 5c"), classify("5d 5h")
            >>> low.key >> 6 == high.key >> 6, low.key & 63 < high.key & 63
            (True, True)
        """
        return self._key

    @property
    def mask(self) -> int:
        """The cards as an int mask (see `tienlen.Hand.mask`).

        Example:
            >>> from tienlen import Hand, classify
            >>> classify("3s 4s 5s").mask == Hand.parse("3s 4s 5s").mask
            True
        """
        return self._mask

    def unicode(self) -> str:
        """The cards as players write them: ``3♠ 4♠ 5♥``.

        Example:
            >>> from tienlen import classify
            >>> classify("5h 3s 4s").unicode()
            '3♠ 4♠ 5♥'
        """
        return " ".join(card.unicode() for card in self.cards)

    def _repr_svg_(self) -> str:
        """The combination as an SVG picture, for Jupyter (see `tienlen.svg.combo`)."""
        from tienlen import svg  # noqa: PLC0415  # svg imports this module

        return svg.combo(self)

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self._mask >> card.index & 1)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Combo):
            return self._mask == other._mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._mask)

    def __lt__(self, other: Never) -> NoReturn:
        """Refused: combinations have no order; `tienlen.beats` answers (RULES §1.3).

        Example:
            >>> from tienlen import classify
            >>> classify("3s") < classify("4s")
            Traceback (most recent call last):
            ...
            TypeError: combinations have no order: use beats(a, b, rules) to ask whether a may be played on b (RULES §1.3)
        """
        raise TypeError(NO_ORDER)

    def __le__(self, other: Never) -> NoReturn:
        raise TypeError(NO_ORDER)

    def __gt__(self, other: Never) -> NoReturn:
        raise TypeError(NO_ORDER)

    def __ge__(self, other: Never) -> NoReturn:
        raise TypeError(NO_ORDER)

    def __reduce__(self) -> tuple[type[Combo], tuple[int, int]]:
        """Pickle and copy the combination as its mask and key (checked on loading)."""
        return Combo, (self._mask, self._key)

    def __setstate__(self, state: object) -> None:
        """Load a combination pickled by tienlen 0.2 (an attrs class): its two fields.

        Checked as ``Combo(mask, key)`` is.
        """
        fields = state if isinstance(state, dict) else {}
        self._mask, self._key = _checked(fields.get("_mask"), fields.get("_key"))

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))

    def __repr__(self) -> str:
        return f"<Combo {self.kind.name} {str(self)!r}>"


def make_combo(mask: int, key: int) -> Combo:
    """A `Combo` of *mask* and its *key*, unchecked: how the engine builds its plays.

    Example:
        >>> make_combo(0b111, structural_key(0b111))
        <Combo TRIPLE '3s 3c 3d'>
    """
    combo = Combo.__new__(Combo) if COMPILED else _new(Combo)  # a blank combination
    combo._mask = mask
    combo._key = key
    return combo


_new: Final = object.__new__
COMPILED: Final = not isinstance(make_combo, FunctionType)
"""Whether this module is compiled (mypyc builds no Python functions)."""
