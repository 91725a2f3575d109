"""The legal plays as a lazy sequence: `Plays` (published as `tienlen.Plays`).

What `tienlen.legal_plays` returns: the plays' masks, a `Combo` built only for the
items taken, with the key the move generator knew (sets interned: one `Combo` each).
Compiled with the engine in the compiled build, so that iterating builds native
objects in a native loop.
"""

from __future__ import annotations

import types
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, repeat
from typing import Any, Final, cast, overload

from tienlen.engine import bits as _bits
from tienlen.engine.combination import Combo, make_combo
from tienlen.engine.interned import BY_MASK
from tienlen.engine.movegen import Leads, native_sequence

__all__ = ["Plays", "run_combos"]

_LOW_HALF: Final = _bits.LOW_HALF
_COMBO: Final = Combo
_new: Final = object.__new__
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
    if not _COMPILED:
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
            head = _interned(sets) if _COMPILED else map(_combo_of_mask, sets)
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
        if not _COMPILED:
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


def _built() -> None:
    """A function of this module: a Python function unless the module is compiled."""


_COMPILED: Final = not isinstance(_built, types.FunctionType)
"""Whether this module runs compiled (mypyc): `run_combos` then loops."""
