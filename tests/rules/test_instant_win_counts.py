"""The instant wins read off packed per-rank counts match their plain definitions.

`BaseRules.instant_win` tests a dealt hand on `tienlen.engine.bits.rank_counts` (one count
per nibble) with bit tricks (issue 11 §1); each test here is the rule of RULES §6.7 and
§12.5 written over a list of counts, rank 3 first, for one deck or two.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tienlen import BaseRules, Hand, InstantWin
from tienlen.rules import base as _base

TWO = 12
"""The 2's rank index (ranks 3…A, 2)."""


def _run(counts: list[int], need: int, length: int) -> bool:
    """Whether *length* ranks in a row below the 2 hold *need* cards each."""
    run = 0
    for count in counts[:TWO]:
        run = run + 1 if count >= need else 0
        if run >= length:
            return True
    return False


PLAIN: dict[InstantWin, Callable[[list[int]], bool]] = {
    InstantWin.FOUR_TWOS: lambda c: c[TWO] >= 4,
    InstantWin.SIX_PAIRS: lambda c: sum(n // 2 for n in c) >= 6,
    InstantWin.FIVE_CONSECUTIVE_PAIRS: lambda c: _run(c, 2, 5),
    InstantWin.THIRTEEN_RANKS: all,
    InstantWin.THREE_CONSECUTIVE_TRIPLES: lambda c: _run(c, 3, 3),
    InstantWin.THREE_TRIPLES: lambda c: sum(n >= 3 for n in c) >= 3,
    InstantWin.DRAGON_WITHOUT_TWO: lambda c: all(c[:TWO]),
}
"""RULES §6.7 and §12.5, rank by rank."""

COUNTS = st.lists(
    st.sampled_from((0, 1, 2, 2, 3, 4, 5, 6, 7, 8)), min_size=13, max_size=13
)
"""Per-rank counts, runs and sets common; up to eight cards a rank (two decks)."""


def _packed(counts: list[int]) -> int:
    return sum(count << 4 * rank for rank, count in enumerate(counts))


@pytest.mark.parametrize("win", list(PLAIN))
@given(counts=COUNTS)
def test_each_count_test_is_its_rule(win: InstantWin, counts: list[int]) -> None:
    """Each packed test answers as its rule does (RULES §6.7, §12.5)."""
    assert _base._INSTANT_WIN_TESTS[win](_packed(counts)) is PLAIN[win](counts)


@given(counts=COUNTS)
def test_exact_pairs_count_only_pairs(counts: list[int]) -> None:
    """Without ``six_pairs_counts_sets``, six ranks of exactly two cards (D-21)."""
    rules = BaseRules(name="exact", six_pairs_counts_sets=False)
    hand = Hand(0)
    found = rules._qualifies(
        InstantWin.SIX_PAIRS, hand, _packed(counts), first_game=True
    )
    assert found is (counts.count(2) >= 6)


def test_the_table_covers_every_count_rule() -> None:
    """Every instant win read off counts alone has its plain rule here."""
    assert set(_base._INSTANT_WIN_TESTS) == set(PLAIN)
