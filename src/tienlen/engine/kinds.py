"""Private: the one table of combination kinds (RULES §1.2, §5.2, §12.4).

Each row says how a kind is built and which settings of a rule set govern it:
cards per rank, the run lengths that exist as structures, the `BaseRules` settings
that bound its lengths and allow a 2 on top, and whether it may be led. The codes are
`tienlen.ComboKind` values. `_shapes` (structures), `combos` (`ComboKind`, `Shape`),
`_movegen` (generators), `rules._base` (validity, leads) and `explain` read this table;
adding a kind is one row here, one `ComboKind` member, and its membership in the
presets that play it (each preset lists its kinds).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from tienlen.engine import bits as _bits

__all__ = [
    "CONSECUTIVE_PAIRS",
    "CONSECUTIVE_QUADS",
    "CONSECUTIVE_TRIPLES",
    "FOUR_OF_A_KIND",
    "KINDS",
    "PAIR",
    "SINGLE",
    "STRAIGHT",
    "TRIPLE",
    "KindRow",
]

SINGLE: Final = 1
PAIR: Final = 2
TRIPLE: Final = 3
FOUR_OF_A_KIND: Final = 4
STRAIGHT: Final = 5
CONSECUTIVE_PAIRS: Final = 6
CONSECUTIVE_QUADS: Final = 7
CONSECUTIVE_TRIPLES: Final = 8


class KindRow(NamedTuple):
    """One kind of combination: its structure and the settings that govern it."""

    code: int
    """The `ComboKind` value."""
    per_rank: int
    """Cards of each rank."""
    sequence: bool
    """Whether it spans consecutive ranks (a run) rather than one rank (a set)."""
    shortest: int
    """The fewest ranks of the structure (1 for sets)."""
    longest: int
    """The most ranks of the structure (13 for runs: 3…2)."""
    lengths: tuple[str, str] | None
    """The rule set's settings bounding its ranks (fewest, most), or ``None``."""
    most_played: int
    """Without length settings, the most ranks a rule set allows."""
    twos: str | None
    """The rule set's setting allowing a 2 on top, or ``None`` when a 2 always may."""
    lead: bool | str
    """Whether it may be led: always, never (bomb only), or as a setting says."""


KINDS: Final = {
    row.code: row
    for row in (
        KindRow(
            SINGLE,
            1,
            sequence=False,
            shortest=1,
            longest=1,
            lengths=None,
            most_played=1,
            twos=None,
            lead=True,
        ),
        KindRow(
            PAIR,
            2,
            sequence=False,
            shortest=1,
            longest=1,
            lengths=None,
            most_played=1,
            twos=None,
            lead=True,
        ),
        KindRow(
            TRIPLE,
            3,
            sequence=False,
            shortest=1,
            longest=1,
            lengths=None,
            most_played=1,
            twos=None,
            lead=True,
        ),
        KindRow(
            FOUR_OF_A_KIND,
            4,
            sequence=False,
            shortest=1,
            longest=1,
            lengths=None,
            most_played=1,
            twos=None,
            lead="four_of_a_kind_may_lead",
        ),
        KindRow(
            STRAIGHT,
            1,
            sequence=True,
            shortest=3,
            longest=_bits.RANKS,
            lengths=None,
            most_played=_bits.RANKS,
            twos="twos_in_straights",
            lead=True,
        ),
        KindRow(
            CONSECUTIVE_PAIRS,
            2,
            sequence=True,
            shortest=3,
            longest=_bits.RANKS,
            lengths=("min_consecutive_pairs", "max_consecutive_pairs"),
            most_played=_bits.RANKS,
            twos="twos_in_consecutive_pairs",
            lead="bombs_may_lead",
        ),
        KindRow(
            CONSECUTIVE_QUADS,
            4,
            sequence=True,
            shortest=2,
            longest=_bits.RANKS,
            lengths=None,
            most_played=3,
            twos="twos_in_consecutive_quads",
            lead=False,
        ),  # slams only (RULES §5.2, D-13)
        KindRow(
            CONSECUTIVE_TRIPLES,
            3,
            sequence=True,
            shortest=2,
            longest=_bits.RANKS,
            lengths=("min_consecutive_triples", "max_consecutive_triples"),
            most_played=_bits.RANKS,
            twos="twos_in_consecutive_triples",
            lead=True,
        ),
    )
}
"""Every kind by code, in code order (RULES §1.2; consecutive triples §12.4)."""
