"""Private: the native move generator, when it is built, and the one switch to it.

``_native`` (``_native.c`` beside this file, built by ``tools/build_native.py``) is
`movegen.Tables`' play generation in C. A `Tables` hands it its own data once
(`generator`): the rank sub-multisets, its families, its lead families and its bomb
table, as bytes and tuples of ints. No rule set is written in C: a variant is compiled
in Python, and the C walks the tables. The pure Python stays the reference.

`MODULE` is the extension, or ``None`` when it is absent or ``TIENLEN_PURE=1`` is in
the environment at import: then every `Tables` generates in Python.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Final, Protocol

from tienlen.errors import TienLenError

__all__ = ["MODULE", "FamilyData", "Generator", "TablesData", "generator"]


class FamilyData(Protocol):
    """What `generator` reads of a family of shapes (`movegen.Family`)."""

    @property
    def kind(self) -> int:
        """The kind code."""

    @property
    def per_rank(self) -> int:
        """Cards of each rank."""

    @property
    def sequence(self) -> bool:
        """Whether it is runs."""

    @property
    def min_length(self) -> int:
        """The fewest ranks."""

    @property
    def max_length(self) -> int:
        """The most ranks."""

    @property
    def max_rank(self) -> int:
        """The highest top rank."""


class TablesData(Protocol):
    """What `generator` reads of a rule set's tables (`movegen.Tables`).

    This module sits under `movegen` and imports none of it.
    """

    @property
    def families(self) -> Mapping[int, FamilyData]:
        """The families by kind."""

    @property
    def lead_families(self) -> Sequence[FamilyData]:
        """The families that lead, in listing order."""

    @property
    def all_sets(self) -> bool:
        """Whether every set of one deck leads."""

    @property
    def single_cards(self) -> int:
        """The cards that may be singles."""

    @property
    def bombers(self) -> Mapping[int, Sequence[int]]:
        """The bomb table: key to the shape codes that beat it."""


class Generator(Protocol):
    """What `Tables` asks of a native generator (``_native.MoveGen``, ``_native.pyi``)."""

    def plays(self, hand: int, top: int, /) -> list[int]:
        """`Tables.plays` for a *top* other than 0."""

    def bombs(self, hand: int, top: int, /) -> list[int]:
        """`Tables.bombs`."""

    def lead_sets(self, hand: int, card: int, /) -> list[int]:
        """The sets `Tables.leads` lists first (only those with *card*, if not 0)."""

    def lead_runs(self, hand: int, card: int, offset: int, /) -> list[int]:
        """The runs `Leads.listed` lists after *offset* sets; too many raise."""

    def keyed_runs(
        self, hand: int, card: int, offset: int, /
    ) -> tuple[list[int], list[int]]:
        """`lead_runs` and each run's key, as `Leads.keyed` gives them."""


def _load() -> ModuleType | None:
    """The extension, unless absent or turned off (``TIENLEN_PURE=1``)."""
    if os.environ.get("TIENLEN_PURE", "") == "1":
        return None
    try:
        from tienlen.engine import _native  # noqa: PLC0415  # optional, built apart
    except ImportError:
        return None
    return _native


MODULE: Final = _load()
"""The native extension in use, or ``None``: the switch (`tienlen.NATIVE`)."""

_SUBSETS: list[bytes] = []
"""The counts and pieces `generator` hands over, made once."""


def subset_bytes(
    subsets: Sequence[Sequence[Sequence[Sequence[int]]]],
) -> tuple[bytes, bytes]:
    """*subsets* (`movegen.SUBSETS`) of rank 0 as bytes, made once.

    ``counts[k * 256 + state]`` is how many pieces of *k* cards a state holds; the
    pieces follow in that order. A piece is a byte ``lo | hi << 4``: its suits, and its suits present twice.
    """
    if not _SUBSETS:
        counts = bytearray()
        pieces = bytearray()
        for k in range(9):
            for state in range(256):
                subs = subsets[0][state][k] if k < len(subsets[0][state]) else ()
                counts.append(len(subs))
                pieces += bytes(m & 15 | (m >> 52) << 4 for m in subs)
        _SUBSETS[:] = [bytes(counts), bytes(pieces)]
    return _SUBSETS[0], _SUBSETS[1]


def _row(family: FamilyData) -> tuple[int, int, int, int, int, int]:
    return (
        family.kind,
        family.per_rank,
        int(family.sequence),
        family.min_length,
        family.max_length,
        family.max_rank,
    )


def generator(
    tables: TablesData,
    subsets: Sequence[Sequence[Sequence[Sequence[int]]]],
    limit: int,
) -> Generator | None:
    """The native generator of *tables*, or ``None`` (no extension, or tables it refuses).

    *subsets* are the rank sub-multisets (`movegen.SUBSETS`) and *limit* the most plays
    listed at once (`movegen.MAX_LISTED_PLAYS`): `movegen.Tables` calls it.

    Example:
        >>> from tienlen import CLASSIC, NATIVE
        >>> from tienlen.engine.movegen import MAX_LISTED_PLAYS, SUBSETS
        >>> (generator(CLASSIC._tables, SUBSETS, MAX_LISTED_PLAYS) is not None) == NATIVE
        True
    """
    if MODULE is None:
        return None
    counts, pieces = subset_bytes(subsets)
    try:
        made: Generator = MODULE.MoveGen(
            counts,
            pieces,
            tuple(_row(family) for family in tables.families.values()),
            tuple(_row(family) for family in tables.lead_families),
            tables.all_sets,
            tables.single_cards,
            tuple((key, tuple(codes)) for key, codes in sorted(tables.bombers.items())),
            limit,
            TienLenError,
        )
    except ValueError:  # tables the C does not take (none of the library's): pure
        return None
    return made
