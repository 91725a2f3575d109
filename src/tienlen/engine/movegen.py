"""Private: classification, comparison and play generation on int masks.

`Tables` is a rule set compiled to plain ints: which shape codes are combinations and
how high their top rank may go (RULES §1.2, §1.4 and the variant's 2s settings), which
may be led, and, for every combination that can be bombed, the shapes that beat it
across shapes (the variant's bomb table). Everything here trusts its inputs; the rule
set validates at the boundary.
"""

from __future__ import annotations

import abc
import functools
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Final, overload

from tienlen.engine import bits as _bits
from tienlen.engine import native as _native
from tienlen.engine.kinds import KINDS, SINGLE
from tienlen.engine.shapes import shape_code
from tienlen.errors import TienLenError

if TYPE_CHECKING:
    from tienlen.engine.native import Generator

__all__ = ["MAX_LISTED_PLAYS", "Leads", "Tables"]

MAX_LISTED_PLAYS: Final = 1_000_000
"""The most plays listed at once (iterating leads, or plays against a top): above it
`TienLenError` is raised instead of exhausting memory. A dealt hand of 13–20 cards
holds at most a few thousand; counting (``len``) and ``in`` have no limit."""

_LOW: Final = _bits.LOW_HALF
_SINGLE_CODE: Final = shape_code(SINGLE, 1)
_CARDS: Final = _bits.CARDS


def _given(
    bombers: dict[int, tuple[int, ...]], _: frozenset[int]
) -> dict[int, tuple[int, ...]]:
    """The bomb table *bombers*, whatever the valid keys (`Tables.__reduce__`)."""
    return bombers


_MOST: Final = 2 * _bits.SUITS
"""The most cards of one rank: four suits, two decks."""


def _rank_subsets() -> list[list[tuple[tuple[int, ...], ...]]]:
    """``SUBSETS[r][state][k]``: every distinct *k*-card sub-multiset of rank *r*, k ≤ 8.

    ``state`` is ``lo | hi << 4``: the suits present at rank *r*, and the suits present
    twice. Masks are ascending by their low half (their cards without copies).
    """
    base: list[tuple[tuple[int, ...], ...]] = []
    for state in range(256):
        lo, hi = state & 15, state >> 4
        by_size: list[list[int]] = [[] for _ in range(_MOST + 1)]
        if hi & ~lo == 0:
            for counts in _count_vectors(
                [(lo >> s & 1) + (hi >> s & 1) for s in range(4)]
            ):
                size = sum(counts)
                if size:
                    sub_lo = sum(1 << s for s, c in enumerate(counts) if c)
                    sub_hi = sum(1 << s for s, c in enumerate(counts) if c == 2)
                    by_size[size].append(sub_lo | sub_hi << _CARDS)
        base.append(
            tuple(tuple(sorted(subs, key=lambda m: (m & 15, m))) for subs in by_size)
        )
    return [
        [
            tuple(tuple(m << 4 * rank for m in subs) for subs in by_size)
            for by_size in base
        ]
        for rank in range(_bits.RANKS)
    ]


def _count_vectors(limits: list[int]) -> list[list[int]]:
    vectors: list[list[int]] = [[]]
    for limit in limits:
        vectors = [[*v, c] for v in vectors for c in range(limit + 1)]
    return vectors


SUBSETS: Final = _rank_subsets()
SUBSETS_BY_SIZE: Final = tuple(
    tuple(tuple(by_size[k] for by_size in SUBSETS[rank]) for rank in range(_bits.RANKS))
    for k in range(_MOST + 1)
)
"""``SUBSETS_BY_SIZE[k][r][state]`` is ``SUBSETS[r][state][k]``."""
SUBSET_COUNTS: Final = tuple(
    tuple(len(SUBSETS[0][state][k]) for state in range(256)) for k in range(_MOST + 1)
)
"""``SUBSET_COUNTS[k][state]``: how many *k*-card sub-multisets a rank state holds."""
ALL_SETS: Final = tuple(
    tuple(sum(SUBSETS[rank][state][1:5], ()) for state in range(256))
    for rank in range(_bits.RANKS)
)
"""``ALL_SETS[r][state]``: every single, pair, triple and four of rank *r*, by size
(the sets one deck holds: the one-deck lead lists them at once, `Tables.all_sets`)."""


def _maximal_runs() -> dict[int, tuple[tuple[int, int], ...]]:
    """Map a rank set (bit ``4 * r``) to its maximal runs ``(start, end)`` of 2+ ranks."""
    table: dict[int, tuple[tuple[int, int], ...]] = {}
    for ranks in range(1 << _bits.RANKS):
        runs: list[tuple[int, int]] = []
        start = -1
        for rank in range(_bits.RANKS + 1):
            present = rank < _bits.RANKS and ranks >> rank & 1
            if present and start < 0:
                start = rank
            elif not present and start >= 0:
                if rank - start >= 2:
                    runs.append((start, rank - 1))
                start = -1
        spread = sum(1 << 4 * r for r in range(_bits.RANKS) if ranks >> r & 1)
        table[spread] = tuple(runs)
    return table


MAXIMAL_RUNS: Final = _maximal_runs()
_LONG_ENOUGH: dict[int, dict[int, tuple[tuple[int, int], ...]]] = {}
"""`maximal_runs_of` by fewest ranks: one table per length, shared by the rule sets."""


def maximal_runs_of(shortest: int) -> dict[int, tuple[tuple[int, int], ...]]:
    """`MAXIMAL_RUNS` keeping only the runs of at least *shortest* (2 or more) ranks."""
    table = _LONG_ENOUGH.get(shortest)
    if table is None:
        table = {
            spread: tuple(run for run in runs if run[1] - run[0] + 1 >= shortest)
            for spread, runs in MAXIMAL_RUNS.items()
        }
        _LONG_ENOUGH[shortest] = table
    return table


def key_row(kind: int, rank: int, state: int) -> tuple[tuple[int, ...], ...]:
    """The keys of the runs of *kind* ending at *rank* in *state*, by number of ranks.

    ``key_row(kind, rank, state)[n][i]`` is the key of an *n*-rank run whose top rank
    holds the piece ``SUBSETS_BY_SIZE[k][rank][state][i]`` (its top card is the
    piece's, as in `_shapes.structural_key`).
    """
    per_rank = KINDS[kind].per_rank
    tops = [(piece & _LOW).bit_length() - 1 for piece in SUBSETS[rank][state][per_rank]]
    return tuple(
        tuple(kind << 12 | per_rank * length << 6 | top for top in tops)
        for length in range(rank + 2)
    )


_PAIRED: dict[int, tuple[tuple[tuple[int, ...], ...], ...]] = {}
"""`paired_pieces` by cards per rank."""


def paired_pieces(k: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``paired_pieces(k)[r][bits]``: the *k*-card pieces of ranks *r* and *r* + 1 combined.

    *bits* is ``hand >> 4 * r & 255`` for a one-deck hand; the pieces of rank *r* + 1
    vary fastest, as a run a rank longer lists them.
    """
    table = _PAIRED.get(k)
    if table is None:
        table = tuple(
            tuple(
                tuple(
                    p | q
                    for p in SUBSETS_BY_SIZE[k][rank][bits & 15]
                    for q in SUBSETS_BY_SIZE[k][rank + 1][bits >> 4]
                )
                for bits in range(256)
            )
            for rank in range(_bits.RANKS - 1)
        )
        _PAIRED[k] = table
    return table


RunRow = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]
"""A rank's pieces for a run family, and the keys of the runs each piece tops, by the
runs' first rank (`run_row`)."""
_RUN_ROWS: dict[int, tuple[tuple[RunRow, ...], ...]] = {}
"""`run_rows` by kind: built when a family of the kind is first compiled."""


def run_row(kind: int, rank: int, state: int) -> RunRow:
    """The pieces a run of *kind* takes from *rank* in *state*, and the keys they top.

    ``run_row(kind, rank, state)[1][first][i]`` is the key of the run from *first* to
    *rank* topped by piece *i*: ``key_row(kind, rank, state)[rank - first + 1][i]``.
    The two are read together where runs are expanded (`_expand_runs`).
    """
    keys = key_row(kind, rank, state)
    pieces = SUBSETS_BY_SIZE[KINDS[kind].per_rank][rank][state]
    return pieces, tuple(keys[rank - first + 1] for first in range(rank + 1))


def run_rows(kind: int) -> tuple[tuple[RunRow, ...], ...]:
    """``run_rows(kind)[rank][state]`` is `run_row` for the one-deck states (0–15)."""
    rows = _RUN_ROWS.get(kind)
    if rows is None:
        rows = tuple(
            tuple(run_row(kind, rank, state) for state in range(16))
            for rank in range(_bits.RANKS)
        )
        _RUN_ROWS[kind] = rows
    return rows


_BYTE_SETS: Final = tuple(
    tuple(
        ALL_SETS[2 * byte][bits & 15]
        + (ALL_SETS[2 * byte + 1][bits >> 4] if 2 * byte + 1 < _bits.RANKS else ())
        for bits in range(256)
    )
    for byte in range(7)
)
"""``_BYTE_SETS[i][mask >> 8 * i & 255]`` lists every single, pair, triple and four of
ranks ``2i`` and ``2i + 1`` (byte ``i`` of a one-deck mask), in `ALL_SETS` order."""
_BYTE_SETS_OF: Final = tuple(
    tuple(
        tuple(
            SUBSETS_BY_SIZE[k][2 * byte][bits & 15]
            + (SUBSETS_BY_SIZE[k][2 * byte + 1][bits >> 4] if byte < 6 else ())
            for bits in range(256)
        )
        for byte in range(7)
    )
    for k in range(_bits.SUITS + 1)
)
"""``_BYTE_SETS_OF[k][i][mask >> 8 * i & 255]`` lists the *k*-card sets of ranks ``2i``
and ``2i + 1`` (byte ``i`` of a one-deck mask), rank by rank (singles: card by card)."""


class Family:
    """The valid shapes of one kind: lengths ``min_length…max_length``, top rank ≤ ``max_rank``."""

    __slots__ = (
        "at_least",
        "cards",
        "kind",
        "max_length",
        "max_rank",
        "maximal",
        "min_length",
        "paired",
        "per_rank",
        "ranks",
        "run_rows",
        "sequence",
        "spans",
    )

    def __init__(self, kind: int, lengths: Iterable[int], max_rank: int) -> None:
        lengths = sorted(lengths)
        row = KINDS[kind]
        self.kind = kind
        self.per_rank = per_rank = row.per_rank
        self.sequence = row.sequence
        """Whether the family is runs (`_runs`) rather than sets of one rank (`_sets`)."""
        self.min_length = lengths[0]
        self.max_length = lengths[-1]
        self.max_rank = max_rank
        self.ranks = _bits.ONES & (1 << 4 * max_rank + 1) - 1
        """Bits ``4 * r`` of every rank the family may use (up to ``max_rank``)."""
        self.cards = self.ranks * 15
        """Every card of those ranks. Computed once: compiled, a product above 2**30
        takes Python's long multiplication, which runs signal handlers (Ctrl-C), and
        mypyc treats its failure as out of memory and aborts."""
        self.at_least = _bits.at_least_offset(per_rank)
        """``(counts + at_least) >> 3 & ranks``: the usable ranks holding enough cards."""
        self.maximal = maximal_runs_of(max(self.min_length, 2)) if row.sequence else {}
        """The maximal runs of those ranks (by their bits) long enough for the family."""
        self.run_rows = run_rows(kind) if row.sequence else ()
        """`run_rows` of the family's kind (its runs' pieces and keys, one deck)."""
        self.paired = (
            paired_pieces(per_rank) if row.sequence and self.min_length > 2 else ()
        )
        """`paired_pieces` for the family's runs, when none is two ranks long."""
        self.spans = tuple(
            tuple(
                tuple(
                    (first, last)
                    for first in range(start, end + 1)
                    for last in range(first, end + 1)
                    if self.min_length <= last - first + 1 <= self.max_length
                )
                for end in range(_bits.RANKS)
            )
            for start in range(_bits.RANKS)
        )
        """``spans[start][end]``: the first and last rank of every run of the family's
        lengths within ranks *start*…*end*, by first rank, then length."""
        assert lengths == list(range(self.min_length, self.max_length + 1))


class Tables:
    """A rule set compiled to ints: classify, beat and generate plays on masks."""

    __slots__ = (
        "all_sets",
        "bombers",
        "families",
        "lead_families",
        "lead_runs",
        "max_rank",
        "native",
        "single_cards",
        "valid_keys",
    )

    def __init__(
        self,
        max_rank: dict[int, int],
        leadable: Iterable[int],
        bombers: Callable[[frozenset[int]], dict[int, tuple[int, ...]]],
        valid: frozenset[int] | None = None,
    ) -> None:
        """Compile: *max_rank* maps each valid shape code to its highest allowed top rank.

        *leadable* are the shape codes that may be led (RULES §1.5.1, §12.1, D-25);
        *bombers* maps the valid keys to the bomb table: each key whose combinations
        other shapes beat, to the codes of those shapes. *valid* are the valid keys
        when the caller has them already (`valid_keys` of *max_rank*).
        """
        self.max_rank = max_rank
        self.valid_keys = valid_keys(max_rank) if valid is None else valid
        self.bombers = bombers(self.valid_keys)
        families: dict[int, Family] = {}
        for kind in sorted({code >> 6 for code in max_rank}):
            codes = [code for code in max_rank if code >> 6 == kind]
            per_rank = KINDS[kind].per_rank
            ranks = {max_rank[code] for code in codes}
            assert len(ranks) == 1
            families[kind] = Family(
                kind, [(code & 63) // per_rank for code in codes], ranks.pop()
            )
        self.families = families
        self.lead_families = _lead_families(families, frozenset(leadable))
        set_families = [
            f
            for f in self.lead_families
            if not f.sequence
            and f.per_rank <= _bits.SUITS
            and f.max_rank == _bits.RANKS - 1
        ]
        self.all_sets = len(set_families) == len(_ONE_DECK_SET_KINDS)
        """Whether every set one deck holds may be led: a one-deck hand's sets come
        from `_BYTE_SETS` at once (its ranks hold at most four cards, so no family of
        more cards per rank finds any)."""
        self.lead_runs = tuple(f for f in self.lead_families if f.sequence)
        singles = families.get(1)
        self.single_cards = (1 << 4 * singles.max_rank + 4) - 1 if singles else 0
        """The cards that may be played as singles (their ranks may top a single)."""
        self.native = _native.generator(self, SUBSETS, MAX_LISTED_PLAYS)
        """The native generator of these tables (`tienlen.engine.native`), or ``None``:
        then `plays`, `bombs` and `leads` generate in Python, the reference."""

    def __reduce__(
        self,
    ) -> tuple[
        type[Tables],
        tuple[
            dict[int, int],
            tuple[int, ...],
            Callable[[frozenset[int]], dict[int, tuple[int, ...]]],
        ],
    ]:
        """Pickle as the arguments that compile the same tables.

        Needed when this module is compiled (mypyc classes do not pickle their slots).

        Example:
            >>> import pickle
            >>> tables = Tables({1 << 6 | 1: 12}, [1 << 6 | 1], lambda valid: {})
            >>> pickle.loads(pickle.dumps(tables)).valid_keys == tables.valid_keys
            True
        """
        leadable = tuple(
            code for family in self.lead_families for code in _codes(family)
        )
        return Tables, (
            self.max_rank,
            leadable,
            functools.partial(_given, self.bombers),
        )

    def plays(self, hand: int, top: int) -> Sequence[int]:
        """Every distinct play in *hand* that may be led (*top* 0) or that beats *top*."""
        if not top:
            return self.leads(hand)
        native = self.native
        if native is not None:
            return native.plays(hand, top)
        code = top >> 6
        if code == _SINGLE_CODE:  # the commonest case: `beating_singles`, inlined
            above = (top & 63) + 1
            higher = (hand & self.single_cards) >> above << above
            c0, c1, c2, c3, c4, c5, c6 = _BYTE_SETS_OF[1]
            out = [
                *c0[higher & 255],
                *c1[higher >> 8 & 255],
                *c2[higher >> 16 & 255],
                *c3[higher >> 24 & 255],
                *c4[higher >> 32 & 255],
                *c5[higher >> 40 & 255],
                *c6[higher >> 48],
            ]
        else:
            out = []
            family = self.families[code >> 6]
            if hand <= _LOW and family.per_rank == 2 and not family.sequence:
                _higher_sets(hand, family, top & 63, out)  # pairs: two ranks at once
            else:
                counts = _bits.rank_counts(hand)
                _of_shape(hand, counts, family, code, top & 63, out)
        if top in self.bombers:
            out += self.bombs(hand, top)
        return out

    def beating_singles(self, hand: int, top: int) -> int:
        """The cards of *hand* that beat the single *top*, as a mask (each card once).

        A higher card beats a single (RULES §1.3), up to the rank singles may reach.
        """
        above = (top & 63) + 1
        return (hand & self.single_cards) >> above << above

    def bombs(self, hand: int, top: int) -> list[int]:
        """The plays of other shapes than *top*'s that beat it: the bomb table.

        RULES §2.3, §3.2, §4.3, §5.2 and §6.3, compiled into ``bombers``.
        """
        native = self.native
        if native is not None:
            return native.bombs(hand, top)
        out: list[int] = []
        counts = _bits.rank_counts(hand)
        families = self.families
        for bomb in self.bombers.get(top, ()):
            _of_shape(hand, counts, families[bomb >> 6], bomb, -1, out)
        return out

    def leads(self, hand: int, card: int = 0) -> Sequence[int]:
        """Every distinct play in *hand* that may be led, runs built when taken.

        Any leadable combination (RULES §1.2, §1.5.1); with *card* (a one-card mask),
        only the plays that include it (RULES §2.4).
        A list when the hand holds no run, else `Leads`.
        """
        sets = hand
        through = (card.bit_length() - 1) >> 2
        if card:  # only sets of the card's rank, only runs through it
            sets = hand & _bits.RANK_CARDS[through]
        head: list[int]
        native = self.native
        if native is not None:
            head = native.lead_sets(hand, card)
        elif (
            self.all_sets and sets <= _LOW
        ):  # every set, two ranks (one byte) at a time
            b0, b1, b2, b3, b4, b5, b6 = _BYTE_SETS
            head = [
                *b0[sets & 255],
                *b1[sets >> 8 & 255],
                *b2[sets >> 16 & 255],
                *b3[sets >> 24 & 255],
                *b4[sets >> 32 & 255],
                *b5[sets >> 40 & 255],
                *b6[sets >> 48],
            ]
        else:
            head = []
            for family in self.lead_families:
                if not family.sequence:
                    _sets(sets, _available(sets, family), family.per_rank, -1, head)
        counts = _bits.rank_counts(hand)
        found: list[_Found] = []
        for family in self.lead_runs:
            runs = family.maximal[(counts + family.at_least) >> 3 & family.ranks]
            if card:
                runs = tuple(run for run in runs if run[0] <= through <= run[1])
            if runs:
                found.append((family, runs))
        leads = Leads.__new__(Leads)  # no __init__ (compiled, object.__new__ refuses)
        leads._head = head
        leads._hand = hand
        leads._native = native
        leads._card = card
        if card:  # counted and narrowed now (a first lead: rare)
            if native is None:
                head = [play for play in head if play & card]
            blocks, size = _through(_blocks_of(hand, found), card)
            if not blocks:
                return head
            leads._head = head
            leads._found = []
            leads._blocks = blocks
            leads._len = len(head) + size
            return leads
        if not found:
            return head
        leads._found = found
        leads._blocks = []
        leads._len = -1  # counted when asked (`Leads.__len__`)
        return leads


def valid_keys(max_rank: dict[int, int]) -> frozenset[int]:
    """The keys (shape code and top card) of every combination *max_rank* allows.

    *max_rank* maps each valid shape code to its highest allowed top rank.

    Example:
        >>> len(valid_keys({1 << 6 | 1: 12}))  # singles, 3 to 2: every card
        52
    """
    return frozenset(
        code << 6 | card
        for code, top_rank in max_rank.items()
        for card in range(_CARDS)
        if card >> 2 <= top_rank and structural_key_fits(code, card)
    )


def _codes(family: Family) -> list[int]:
    """The shape codes of *family*, shortest first (`shape_code` of each length)."""
    kind, per_rank = family.kind << 6, family.per_rank
    return [
        kind | per_rank * length
        for length in range(family.min_length, family.max_length + 1)
    ]


def _lead_families(
    families: dict[int, Family], leadable: frozenset[int]
) -> tuple[Family, ...]:
    """The families that may lead: the shapes of *families* whose codes are *leadable*.

    A family whose every length leads is itself (every preset: lead lists cost
    nothing more); one whose lengths lead only in part (a bomb barred from leading,
    RULES §12.1, §12.14, D-25) becomes a family per unbroken range of leading lengths,
    by kind, then length.

    Example:
        >>> runs = Family(8, range(2, 6), 12)  # consecutive triples, 2 to 5 long
        >>> leads = frozenset({8 << 6 | 6, 8 << 6 | 12, 8 << 6 | 15})  # not 3 long
        >>> [(f.min_length, f.max_length) for f in _lead_families({8: runs}, leads)]
        [(2, 2), (4, 5)]
    """
    found: list[Family] = []
    for _, family in sorted(families.items()):
        codes = _codes(family)
        leads = [code in leadable for code in codes]
        if all(leads):
            found.append(family)
            continue
        first = -1  # the shortest length of the range being read, -1 outside one
        for index, lead in enumerate([*leads, False]):
            if lead and first < 0:
                first = index
            elif not lead and first >= 0:
                lengths = range(family.min_length + first, family.min_length + index)
                found.append(Family(family.kind, lengths, family.max_rank))
                first = -1
    return tuple(found)


def _of_shape(
    hand: int, counts: int, family: Family, code: int, above: int, out: list[int]
) -> None:
    """Add the plays of shape *code* (of *family*) with top card above *above* (-1: any).

    *counts* are the hand's per-rank counts (`_bits.rank_counts`).
    """
    avail = (counts + family.at_least) >> 3 & family.ranks
    if not avail:
        return
    if not family.sequence:
        _sets(hand, avail, family.per_rank, above, out)
    else:
        length = (code & 63) // family.per_rank
        _runs(hand, avail, family.per_rank, length, above, out)


_ONE_DECK_SET_KINDS: Final = tuple(
    code
    for code, row in KINDS.items()
    if not row.sequence and row.per_rank <= _bits.SUITS
)
"""The set kinds one deck holds (singles to fours), all in `_BYTE_SETS`."""


def structural_key_fits(code: int, card: int) -> bool:
    """Whether a combination of shape *code* can have *card* on top (runs need room below)."""
    row = KINDS[code >> 6]
    return not row.sequence or (card >> 2) >= (code & 63) // row.per_rank - 1


def _available(hand: int, family: Family) -> int:
    """Ranks (bit ``4 * r``) holding at least ``per_rank`` cards, up to the family's top rank."""
    return (_bits.rank_counts(hand) + family.at_least) >> 3 & family.ranks


_RankChoices = Sequence[Sequence[tuple[int, ...]] | Mapping[int, tuple[int, ...]]]
"""``choices[rank][state]``: the run pieces a rank in *state* offers (`SUBSETS_BY_SIZE`)."""
_Block = tuple[_RankChoices, list[int], int, int, int, int]
"""A block of runs: (rank choices, rank states, first rank, last rank, count, key base).

The block holds every run of ``k`` cards per rank from its first to its last rank:
the product of each rank's choices, the last rank varying fastest. Its runs share one
shape: a run's key is the key base (the shape code ``<< 6``) plus its top card.
"""


_Found = tuple[Family, tuple[tuple[int, int], ...]]
"""A family with runs in a hand: the maximal runs of its ranks (`Family.maximal`)."""


def _blocks_of(hand: int, found: list[_Found]) -> list[_Block]:
    """The blocks (`_Block`) of every run of *found* in *hand*, in listing order."""
    blocks: list[_Block] = []
    states = [0] * _bits.RANKS
    for family, runs in found:
        _run_blocks(runs, hand, states, family, blocks)
    return blocks


def _run_blocks(
    runs: tuple[tuple[int, int], ...],
    hand: int,
    states: list[int],
    family: Family,
    blocks: list[_Block],
) -> int:
    """Add a block for every run of the family's lengths; return how many runs they hold.

    *runs* are the maximal runs of ranks holding enough cards (`MAXIMAL_RUNS`). Blocks
    come by first rank, then length, within each maximal run. *states* gets the rank
    states (``lo | hi << 4``) of the ranks in the runs; the blocks share it.
    """
    subsets = SUBSETS_BY_SIZE[family.per_rank]
    sizes = SUBSET_COUNTS[family.per_rank]
    copies = hand >> _CARDS
    per_rank = family.per_rank
    kind_base = family.kind << 12  # `shape_code(kind, cards) << 6`, inlined (hot)
    total = 0
    for start, end in runs:
        product = 1
        products = [1]  # products[i]: the choices of ranks start…start + i - 1
        for rank in range(start, end + 1):
            shift = 4 * rank
            state = hand >> shift & 15 | (copies >> shift & 15) << 4
            states[rank] = state
            product *= sizes[state]
            products.append(product)
        for first, last in family.spans[start][end]:
            size = products[last - start + 1] // products[first - start]
            base = kind_base | per_rank * (last - first + 1) << 6
            blocks.append((subsets, states, first, last, size, base))
            total += size
    return total


def _through(blocks: list[_Block], card: int) -> tuple[list[_Block], int]:
    """The runs of *blocks* that include *card* (a one-card mask), and how many there are.

    A block keeps its runs through the card's rank, with only the choices holding the
    card at that rank: its ``SUBSETS_BY_SIZE[k]`` becomes a copy with that rank's
    entry for the hand's state replaced.
    """
    rank = (card.bit_length() - 1) >> 2
    kept: list[_Block] = []
    narrowed: dict[int, _RankChoices] = {}
    total = 0
    for subsets, states, first, last, size, base in blocks:
        if not first <= rank <= last:
            continue
        choices = subsets[rank][states[rank]]
        table = narrowed.get(id(subsets))
        if table is None:
            only = tuple(play for play in choices if play & card)
            table = (*subsets[:rank], {states[rank]: only}, *subsets[rank + 1 :])
            narrowed[id(subsets)] = table
        count = size // len(choices) * len(table[rank][states[rank]])
        if count:
            kept.append((table, states, first, last, count, base))
            total += count
    return kept, total


def native_sequence(cls: type) -> None:
    """Give a `Sequence` subclass what mypyc skips when it compiles one.

    - Its own ABC registry and caches: mypyc builds the class without ABCMeta's own
      set-up, so it would answer ``isinstance`` from `Sequence`'s caches
      (``isinstance([], cls)`` true once a list was checked against `Sequence`).
    - ``len()`` on the compiled ``__len__``: CPython reads the sequence slot first,
      which the class inherits from `Sized` as a call through a method lookup;
      assigning ``__len__`` again points that slot at the compiled function.

    Harmless in the pure build, where ABCMeta and CPython did both already.

    Example:
        >>> native_sequence(Leads)
        >>> isinstance([], Leads)
        False
    """
    abc_init = getattr(abc, "_abc_init", None)
    if abc_init is not None:
        abc_init(cls)
    setattr(cls, "__len__", vars(cls)["__len__"])  # noqa: B010


class Leads(Sequence[int]):
    """The plays a hand may lead, as masks: each run built when taken.

    Sets (one rank) are listed in full. Runs, which multiply with suit choices, are
    kept as the maximal runs of ranks each family may use: iterating expands them
    rank by rank, sharing the runs of a shorter run with the same first rank. Counting,
    indexing and ``in`` split them into blocks (`_Block`) first, and decode one run.
    """

    __slots__ = ("_blocks", "_card", "_found", "_hand", "_head", "_len", "_native")

    _head: list[int]
    """The sets, listed."""
    _hand: int
    """The hand the plays come from."""
    _found: list[_Found]
    """The runs, by family (empty when the runs are narrowed to a card: `_through`)."""
    _blocks: list[_Block]
    """The runs, in blocks (made from `_found` when first counted)."""
    _len: int
    """How many plays: the sets and the runs of every block (-1 until counted)."""
    _native: Generator | None
    """The native generator that lists the runs (`Tables.native`), or ``None``."""
    _card: int
    """The card every play includes (a one-card mask), or 0."""

    def __len__(self) -> int:
        if self._len < 0:
            self._count()
        return self._len

    def _count(self) -> None:
        """Split the runs into blocks, and count the plays."""
        blocks = _blocks_of(self._hand, self._found)
        self._blocks = blocks
        self._len = len(self._head) + sum(block[4] for block in blocks)

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> list[int]: ...
    def __getitem__(self, index: int | slice) -> int | list[int]:
        if type(index) is int:
            head = self._head
            if 0 <= index < len(head):  # a set: listed (the commonest lead)
                return head[index]
            return self.keyed_play(index)[0]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return self.keyed_play(index)[0]

    def keyed_play(self, index: int) -> tuple[int, int]:
        """The play at *index* and its key, or 0 for a set (one run decoded).

        Raises:
            IndexError: no play has that index.
        """
        count = len(self)
        if index < 0:
            index += count
        head = self._head
        if 0 <= index < len(head):
            return head[index], 0
        if not 0 <= index < count:
            msg = "play index out of range"
            raise IndexError(msg)
        index -= len(head)
        for subsets, states, first, last, size, base in self._blocks:
            if index < size:
                mask = 0
                for rank in range(last, first - 1, -1):
                    choices = subsets[rank][states[rank]]
                    digit = index % len(choices)  # not `divmod`: compiled, a boxed call
                    index //= len(choices)
                    mask |= choices[digit]
                return mask, base | (mask & _LOW).bit_length() - 1
            index -= size
        raise AssertionError  # pragma: no cover - guarded by the range check

    def __iter__(self) -> Iterator[int]:
        return iter(self.listed())

    def __contains__(self, mask: object) -> bool:
        """Whether *mask* is one of the plays, computed without listing the runs."""
        return type(mask) is int and self._find(mask) >= 0

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        """The position of the play *value*, computed without listing the runs.

        Raises:
            ValueError: *value* is not one of the plays (from *start* to *stop*).
        """
        found = self._find(value) if type(value) is int else -1
        first, last, _ = slice(start, stop).indices(len(self))
        if not first <= found < last:
            msg = f"{value!r} is not one of the plays"
            raise ValueError(msg)
        return found

    def _find(self, mask: int) -> int:
        """The position of *mask* among the plays, or -1: a run's by its suit digits."""
        head = self._head
        if mask in head:
            return head.index(mask)
        if self._len < 0:
            self._count()
        offset = len(head)
        for subsets, states, first, last, size, _ in self._blocks:
            if not mask & ~_SPAN_CARDS[first][last]:  # no card outside the ranks
                position = 0
                for rank in range(first, last + 1):
                    choices = subsets[rank][states[rank]]
                    piece = mask & _bits.RANK_CARDS[rank]
                    if piece not in choices:
                        break
                    position = position * len(choices) + choices.index(piece)
                else:
                    return offset + position
            offset += size
        return -1

    def __reduce__(self) -> tuple[type[list[int]], tuple[list[int]]]:
        """Pickle as the list of every play: the blocks point into shared tables."""
        return list, (self.listed(),)

    def listed(self) -> list[int]:
        """Every play, in order: the sets, then the runs."""
        native = self._native
        if native is not None:
            head = self._head
            return head + native.lead_runs(self._hand, self._card, len(head))
        self._check_size()
        out = self._head.copy()
        if self._found:
            _expand_runs(self._hand, self._found, out, None)
        else:
            _expand_blocks(self._blocks, out)
        return out

    def keyed(self) -> tuple[list[int], list[int], list[int]]:
        """The sets, the runs, and each run's key (shape code and top card), in order.

        A run's key is its shape's plus the top card of its highest rank's piece (the
        highest bit of its low half, as in `_shapes.structural_key`).
        """
        native = self._native
        if native is not None:
            return (
                self._head,
                *native.keyed_runs(self._hand, self._card, len(self._head)),
            )
        if self._len >= 0 or self._hand.bit_count() >= _ALWAYS_LISTABLE:
            _check_size(len(self))  # `_check_size`, inlined (every lead iterated)
        runs: list[int] = []
        if self._found:
            keys: list[int] = []
            _expand_runs(self._hand, self._found, runs, keys)
            return self._head, runs, keys
        _expand_blocks(self._blocks, runs)
        bases: list[int] = []
        for block in self._blocks:
            bases += [block[5] - 1] * block[4]
        tops = map(_bit_length, map(_LOW.__and__, runs))
        return self._head, runs, list(map(_add, bases, tops))

    def _check_size(self) -> None:
        """Refuse to list too many plays (`MAX_LISTED_PLAYS`), counting only if need be.

        A hand of n cards has at most 2**n distinct sub-multisets, so a hand of fewer
        than `_ALWAYS_LISTABLE` cards lists without counting.
        """
        if self._len >= 0 or self._hand.bit_count() >= _ALWAYS_LISTABLE:
            _check_size(len(self))


native_sequence(Leads)
_ALWAYS_LISTABLE: Final = MAX_LISTED_PLAYS.bit_length() - 1
"""Fewer cards than this hold fewer than ``2 ** 19`` < `MAX_LISTED_PLAYS` plays."""


def _expand_runs(
    hand: int, found: list[_Found], runs: list[int], keys: list[int] | None
) -> None:
    """Add every run of *found* in *hand* to *runs* (and their keys to *keys*), in order.

    Within each maximal run: by first rank, then length, the last rank varying
    fastest. Each run extends the one a rank shorter with the same first rank by its
    last rank's pieces, whose keys (`run_row`), repeated, are the runs' keys. A rank's
    pieces and keys are one lookup (`run_rows`), by the rank's nibble of *nibbles*.
    """
    copies = hand >> _CARDS
    nibbles = 0 if copies else hand  # two decks: `_two_deck_rows`, nibble 0
    for family, maximal in found:
        rows = _two_deck_rows(hand, family, maximal) if copies else family.run_rows
        shortest = family.min_length - 1  # in ranks after the first
        longest = family.max_length - 1
        paired = () if copies else family.paired
        for start, end in maximal:
            for first in range(start, end - shortest + 1):
                last = first + longest if first + longest < end else end  # noqa: FURB136  # no call (hot)
                partial: Sequence[int]
                if paired:  # the first two ranks at once
                    partial = paired[first][hand >> 4 * first & 255]
                    second = first + 2
                else:
                    partial = rows[first][nibbles >> 4 * first & 15][0]
                    second = first + 1
                for rank in range(second, first + shortest):  # too short to play
                    partial = _extended(
                        partial, rows[rank][nibbles >> 4 * rank & 15][0]
                    )
                for rank in range(first + shortest, last + 1):
                    choices, tops = rows[rank][nibbles >> 4 * rank & 15]
                    if keys is not None:
                        unit = tops[first]
                        keys += unit if len(partial) == 1 else unit * len(partial)
                    if len(choices) > 1:  # `_extended`, inlined (hot)
                        partial = [p | q for p in partial for q in choices]
                    elif len(partial) == 1:  # the commonest steps: no comprehension
                        partial = [partial[0] | choices[0]]
                    elif len(partial) == 2:
                        only = choices[0]
                        partial = [partial[0] | only, partial[1] | only]
                    else:
                        only = choices[0]
                        partial = [p | only for p in partial]
                    runs += partial


def _two_deck_rows(
    hand: int, family: Family, maximal: tuple[tuple[int, int], ...]
) -> list[tuple[RunRow]]:
    """`Family.run_rows` for the ranks of *maximal* in the two-deck *hand*, at nibble 0.

    A rank holding no second copy reads the family's table; one that does has its row
    worked out (`run_row`).
    """
    copies = hand >> _CARDS
    table = family.run_rows
    no_row: tuple[RunRow] = (((), ()),)  # a rank no run of *maximal* reaches
    rows = [no_row] * _bits.RANKS
    for start, end in maximal:
        for rank in range(start, end + 1):
            state = hand >> 4 * rank & 15 | (copies >> 4 * rank & 15) << 4
            row = (
                table[rank][state] if state < 16 else run_row(family.kind, rank, state)
            )
            rows[rank] = (row,)
    return rows


def _extended(partial: Sequence[int], choices: tuple[int, ...]) -> Sequence[int]:
    """Every run of *partial* extended by one of *choices* (the new rank varies fastest)."""
    if len(choices) == 1:
        only = choices[0]
        return [p | only for p in partial]
    return [p | q for p in partial for q in choices]


def _expand_blocks(blocks: list[_Block], out: list[int]) -> None:
    """Add every run of *blocks* to *out*, block by block.

    Each block is expanded from the runs of the block before it when that one is
    one rank shorter with the same first rank.
    """
    partial: Sequence[int] = ()
    after: tuple[object, int, int] = (None, -1, -1)  # what extends `partial`
    for subsets, states, first, last, _, _ in blocks:
        if after[0] is subsets and after[1] == first and after[2] == last:
            start = last  # extend the block before by its last rank
        else:
            partial = subsets[first][states[first]]
            start = first + 1
        for rank in range(start, last + 1):  # the runs times the pieces (hot)
            choices = subsets[rank][states[rank]]
            if len(choices) == 1:
                only = choices[0]
                partial = [p | only for p in partial]
            else:
                partial = [p | q for p in partial for q in choices]
        after = (subsets, first, last + 1)
        out += partial


_bit_length: Final = int.bit_length
_add: Final = operator.add


_SPAN_CARDS: Final = tuple(
    tuple(sum(_bits.RANK_CARDS[first : last + 1]) for last in range(_bits.RANKS))
    for first in range(_bits.RANKS)
)
"""``_SPAN_CARDS[first][last]``: every card of ranks *first*…*last*, both copies."""


def _check_size(count: int) -> None:
    """Refuse to list more than `MAX_LISTED_PLAYS` plays (issue 14: bounded work)."""
    if count > MAX_LISTED_PLAYS:
        msg = (
            f"{count} plays are too many to list (at most {MAX_LISTED_PLAYS}); "
            "len() and 'in' still answer"
        )
        raise TienLenError(msg)


def _sets(hand: int, avail: int, k: int, above: int, out: list[int]) -> None:
    """Every *k*-of-a-kind with top card above *above* (-1: any), rank by rank.

    *avail* has bit ``4 * r`` for each rank holding *k* cards that the family allows.
    """
    subsets = SUBSETS_BY_SIZE[k]
    copies = hand >> _CARDS
    first = above & ~3  # the bit of above's rank
    if above >= 0:
        avail = avail >> first << first
    while avail:
        low = avail & -avail
        avail ^= low
        shift = low.bit_length() - 1
        sets = subsets[shift >> 2][hand >> shift & 15 | (copies >> shift & 15) << 4]
        if shift == first and above >= 0:  # the top's own rank: only higher cards
            limit = (2 << above) - 1
            out += [s for s in sets if s & _LOW > limit]
        else:
            out += sets


def _higher_sets(hand: int, family: Family, above: int, out: list[int]) -> None:
    """`_sets` for a one-deck *hand*: the family's sets with top card above *above*.

    *above* is the top card of a set of the family, so its rank is one the family
    allows. The higher ranks come a byte (two ranks) at a time from `_BYTE_SETS_OF`:
    faster than finding the ranks that hold enough cards when most do (pairs in a
    13-card hand; triples and fours are rarer, and `_sets` finds them sooner).
    """
    k = family.per_rank
    shift = above & ~3
    own = SUBSETS_BY_SIZE[k][shift >> 2][hand >> shift & 15]
    if own:  # the top's own rank: only higher cards
        limit = (2 << above) - 1
        out += [piece for piece in own if piece > limit]
    shift += 4
    rest = (hand & family.cards) >> shift << shift
    b0, b1, b2, b3, b4, b5, b6 = _BYTE_SETS_OF[k]
    out += [
        *b0[rest & 255],
        *b1[rest >> 8 & 255],
        *b2[rest >> 16 & 255],
        *b3[rest >> 24 & 255],
        *b4[rest >> 32 & 255],
        *b5[rest >> 40 & 255],
        *b6[rest >> 48],
    ]


def _runs(
    hand: int, avail: int, k: int, length: int, above: int, out: list[int]
) -> None:
    """Every run of exactly *length* ranks, *k* cards each, with top card above *above*.

    Runs come by first rank; within one, the top rank's piece varies slowest.
    """
    starts = avail
    for i in range(1, length):
        starts &= avail >> (4 * i)
        if not starts:
            return
    lowest_start = (above >> 2) - length + 1 if above >= 0 else 0
    if lowest_start > 0:
        starts = starts >> 4 * lowest_start << 4 * lowest_start
    subsets = SUBSETS_BY_SIZE[k]
    copies = hand >> _CARDS
    counted = hand.bit_count() >= _ALWAYS_LISTABLE  # else too few cards to overflow
    while starts:
        low = starts & -starts
        starts ^= low
        start = (low.bit_length() - 1) >> 2
        end = start + length - 1
        if counted:
            count = 1
            for rank in range(start, end + 1):
                shift = 4 * rank
                count *= SUBSET_COUNTS[k][
                    hand >> shift & 15 | (copies >> shift & 15) << 4
                ]
            _check_size(len(out) + count)
        shift = 4 * end
        partial: Sequence[int] = subsets[end][
            hand >> shift & 15 | (copies >> shift & 15) << 4
        ]
        if start == lowest_start and above >= 0:
            limit = (2 << above) - 1
            partial = [top for top in partial if top & _LOW > limit]
            if not partial:
                continue
        for rank in range(end - 1, start - 1, -1):
            shift = 4 * rank
            choices = subsets[rank][hand >> shift & 15 | (copies >> shift & 15) << 4]
            if len(choices) > 1:  # the runs times the pieces (hot)
                partial = [p | q for p in partial for q in choices]
            elif len(partial) > 1:
                only = choices[0]
                partial = [p | only for p in partial]
            else:  # one choice each: no comprehension
                partial = [partial[0] | choices[0]]
        out += partial
