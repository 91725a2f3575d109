"""Combinations: what a play is, independent of any variant (RULES §1.2–§1.3).

A `Combo` is a plain value: its cards, its `ComboKind` and its `Shape` (kind plus
number of cards). Whether a set of cards is a combination *under a variant*, and what
beats what, is the rule set's job (`tienlen.classify`, `tienlen.beats`). Combos have
no ``<``: beating is partial and variant-dependent. `Plays` is what
`tienlen.legal_plays` returns: the legal plays as a lazy sequence of combinations.

A `Combo` holds two ints, its cards as a mask (`tienlen.Hand.mask`) and its key
(`tienlen.engine.shapes.structural_key`: shape code and top card); its cards, kind and
shape are read from them when asked. `make_combo` is how the engine builds the
combinations it lists, without checking them again, and `BY_MASK` the combination of
a listed play's mask (interned if a set).

The compiled build compiles this module, so the engine reads a combination's mask and
key as fields of a native object, and iterating `Plays` builds native objects in a
native loop. As for `tienlen.Play`: a native class's constructor always runs
``__init__`` and ``object.__new__`` refuses a native class, so `Combo` defines a
``__new__`` that ignores its arguments, and the compiled engine builds a blank
combination with ``Combo.__new__(Combo)`` (`make_combo`).
"""

from __future__ import annotations

import types
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, repeat
from typing import Any, Final, Never, NoReturn, Self, cast, overload

from tienlen.cards import DECK, Card, Rank, cards_of
from tienlen.engine import bits as _bits
from tienlen.engine.interned import Interned
from tienlen.engine.movegen import Leads, native_sequence
from tienlen.engine.shapes import structural_key
from tienlen.errors import InvalidComboError
from tienlen.kinds import KIND_BY_CODE, SHAPE_BY_CODE, ComboKind, Shape

__all__ = ["Combo", "ComboKind", "Plays", "Shape"]

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
COMPILED: Final = not isinstance(make_combo, types.FunctionType)
"""Whether this module is compiled (mypyc builds no Python functions)."""


BY_MASK: Final[dict[int, Combo]] = Interned(make_combo)
"""``BY_MASK[mask]``: the combination of a play's mask, interned if a set, else built
(engine-level: the mask must be a combination's)."""
_LOW_HALF: Final = _bits.LOW_HALF
_COMBO: Final = Combo
_fields: Final[Any] = cast("Any", Combo).__dict__  # untyped: mypyc refuses it typed
_set_mask: Final = _fields["_mask"].__set__
"""Writes a blank `Combo`'s mask: the pure build's C-level construction."""
_set_key: Final = _fields["_key"].__set__
_combo_of_mask: Final = BY_MASK.__getitem__
"""The combination of a trusted play's mask: interned if a set, else built."""
_SINGLES: Final = tuple(BY_MASK[1 << card] for card in range(_bits.CARDS))
"""The interned single of each card of one deck, by the card's index."""


def run_combos(runs: list[int], keys: list[int]) -> list[Combo]:
    """The runs as `Combo`s with their *keys* known (`tienlen.Plays`' iteration).

    Compiled, a loop builds each as a native object; pure, three C-level maps do,
    faster than a Python loop would.

    Example:
        >>> from tienlen import classify
        >>> run = classify("3s 4s 5h")
        >>> run_combos([run.mask], [run.key]) == [run]
        True
    """
    if not COMPILED:
        built = list(map(_new, repeat(_COMBO, len(runs))))
        any(map(_set_mask, built, runs))
        any(map(_set_key, built, keys))
        return built
    combos: list[Combo] = []
    for index in range(len(runs)):
        combo = Combo.__new__(Combo)  # `make_combo`, inlined
        combo._mask = runs[index]
        combo._key = keys[index]
        combos.append(combo)
    return combos


_RUNS_AT_ONCE: Final = 64
"""How many runs `_built_in_steps` builds per step (and plays `Plays.__iter__`,
compiled)."""


def _interned(masks: Iterable[int]) -> list[Combo]:
    """The combinations of *masks* (`Plays.__iter__`, compiled): `_combo_of_mask` of each.

    A single is read from `_SINGLES` by its card, a native index; any other play from
    `BY_MASK` (interned if a set, else built).
    """
    combos: list[Combo] = []
    for mask in masks:
        if not mask & (mask - 1) and mask <= _LOW_HALF:  # one card, of the first deck
            combos.append(_SINGLES[mask.bit_length() - 1])
        else:
            combos.append(_combo_of_mask(mask))
    return combos


def _built_in_steps(runs: list[int], keys: list[int]) -> Iterator[list[Combo]]:
    """`run_combos`, `_RUNS_AT_ONCE` runs at a time (a hand may hold thousands)."""
    for start in range(0, len(runs), _RUNS_AT_ONCE):
        stop = start + _RUNS_AT_ONCE
        yield run_combos(runs[start:stop], keys[start:stop])


class Plays(Sequence[Combo]):
    """An immutable, lazy sequence of the combinations a hand may play.

    Returned by `tienlen.legal_plays`. ``len()`` costs nothing, nor do ``in`` and
    `Plays.index`, which never list the plays; a `Combo` is built only for the items you
    take, with the key the generator knew (sets are interned: one `Combo` each).

    Example:
        >>> from tienlen import legal_plays
        >>> plays = legal_plays("3s 3h 4d")
        >>> len(plays), [str(play) for play in plays]
        (4, ['3s', '3h', '3s 3h', '4d'])
    """

    __slots__ = ("_base", "_masks")

    _masks: Sequence[int]
    """The plays' masks: a list, a tuple or a `Leads` (runs decoded when taken)."""
    _base: int
    """The key base (shape code ``<< 6``) of every play when all are runs of one
    shape (`tienlen.engine.classification.answers`), else 0: a run's key is the base
    plus its top card."""

    def __init__(self, masks: Sequence[int]) -> None:
        self._masks = masks
        self._base = 0

    @property
    def masks(self) -> tuple[int, ...]:
        """The plays as int masks (see `tienlen.Hand.mask`), in the same order.

        Example:
            >>> from tienlen import Hand, legal_plays
            >>> plays = legal_plays("3s 3h")
            >>> [str(Hand(mask)) for mask in plays.masks]
            ['3s', '3h', '3s 3h']
        """
        masks = self._masks
        return tuple(masks.listed() if type(masks) is Leads else masks)

    def __len__(self) -> int:
        return len(self._masks)

    @overload
    def __getitem__(self, index: int) -> Combo: ...
    @overload
    def __getitem__(self, index: slice) -> Plays: ...
    def __getitem__(self, index: int | slice) -> Combo | Plays:
        if isinstance(index, slice):
            plays = Plays(self._masks[index])
            plays._base = self._base
            return plays
        masks = self._masks
        if type(masks) is Leads:
            mask, key = masks.keyed_play(index)
            return make_combo(mask, key) if key else _combo_of_mask(mask)
        if self._base:
            mask = masks[index]
            return make_combo(mask, self._base | (mask & _LOW_HALF).bit_length() - 1)
        return _combo_of_mask(masks[index])

    def __iter__(self) -> Iterator[Combo]:
        masks = self._masks
        if type(masks) is Leads:  # listed now: too many plays raise here
            sets, runs, keys = masks.keyed()
            # Compiled, a native loop; pure, a C-level `map` (faster than a Python loop).
            head = _interned(sets) if COMPILED else map(_combo_of_mask, sets)
            if len(runs) <= _RUNS_AT_ONCE:
                return chain(head, run_combos(runs, keys))
            return chain(head, chain.from_iterable(_built_in_steps(runs, keys)))
        if self._base and masks:  # runs of one shape: keys from their top cards
            base = self._base
            runs = list(masks)
            keys = [base | (run & _LOW_HALF).bit_length() - 1 for run in runs]
            if len(runs) <= _RUNS_AT_ONCE:
                return iter(run_combos(runs, keys))
            return chain.from_iterable(_built_in_steps(runs, keys))
        if not COMPILED:
            return map(_combo_of_mask, masks)  # C-level: faster than a Python loop
        if len(masks) <= _RUNS_AT_ONCE:
            return iter(_interned(masks))
        return chain.from_iterable(  # built as taken, a step at a time (runs: bombs)
            _interned(masks[start : start + _RUNS_AT_ONCE])
            for start in range(0, len(masks), _RUNS_AT_ONCE)
        )

    def __contains__(self, item: object) -> bool:
        return isinstance(item, Combo) and item.mask in self._masks

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        """The position of the combination *value*, found without listing the plays.

        Raises:
            ValueError: *value* is not one of the plays (from *start* to *stop*).

        Example:
            >>> from tienlen import classify, legal_plays
            >>> legal_plays("3s 4s 5s 6h").index(classify("4s 5s 6h"))
            6
        """
        masks = self._masks
        first, last, _ = slice(start, stop).indices(len(masks))
        if isinstance(value, Combo):
            mask = value.mask
            if type(masks) is Leads:
                found = masks.index(mask) if mask in masks else -1
            else:
                inside = mask in masks[first:last]
                found = masks.index(mask, first, last) if inside else -1
            if first <= found < last:
                return found
        msg = f"{value!r} is not one of the plays"
        raise ValueError(msg)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Plays):
            return self.masks == other.masks
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.masks)

    def __reduce__(self) -> tuple[type[Plays], tuple[tuple[int, ...]]]:
        """Pickle and copy the plays as their masks (not the generator's tables)."""
        return Plays, (self.masks,)

    def __repr__(self) -> str:
        shown = ", ".join(repr(str(play)) for play in self[:5])
        more = ", ..." if len(self) > 5 else ""
        return f"<Plays ({len(self)}): [{shown}{more}]>"


native_sequence(Plays)
