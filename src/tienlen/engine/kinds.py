"""The one table of combination kinds (RULES §1.2, §5.2, §12.4, §12.14).

Each row is the structure of a kind, in ints, flags and setting names: how it is
built (cards per rank, the run lengths that exist as structures), which settings of a
rule set govern it (the `BaseRules` settings that bound its lengths, allow a 2 on top,
let it lead), how many decks it needs and the rules-reference section that defines it.
Its words are not here: they are entries of the message catalogue
(`tienlen.messages.CATALOGUE`: ``kind.<NAME>``, ``shape.<NAME>``, ``words.<NAME>``),
which checks that every row has them. Everything else reads the table:

- `tienlen.engine.shapes` builds the structures (per-rank counts → shape) from it;
- `tienlen.engine.movegen` generates each kind's plays from ``per_rank`` and ``sequence``
  (up to eight cards of a rank, two decks);
- `tienlen.combos` (`ComboKind.per_rank`, `Shape`), `tienlen.rules.base` (validity,
  leads, decks) and `tienlen.explain` (why no combination, citations).

Adding a kind is one row here, one `tienlen.ComboKind` member with the row's code
(an import-time check ties them) and its words in the catalogue; a rule set plays it once its ``kinds`` setting lists
it. What beats it across shapes is the rule set's bomb table (``bombs``), as for every
other kind. See ``docs/kinds.md``.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from tienlen.engine import bits as _bits

__all__ = [
    "CONSECUTIVE_PAIRS",
    "CONSECUTIVE_QUADS",
    "CONSECUTIVE_TRIPLES",
    "FIVE_OF_A_KIND",
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
FIVE_OF_A_KIND: Final = 9


class KindRow(NamedTuple):
    """One kind of combination: its structure, settings and rules section (no words)."""

    code: int
    """The `ComboKind` value."""
    name: str
    """The `ComboKind` member's name (``"FOUR_OF_A_KIND"``): the key of its words."""
    per_rank: int
    """Cards of each rank (1…8: two decks hold eight of a rank)."""
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
    decks: int
    """The fewest decks that hold it (2 for more than four cards of a rank)."""
    section: str
    """The label of the rules-reference section defining it (`tienlen.rule_section`)."""


def _set(
    code: int,
    name: str,
    per_rank: int,
    *,
    lead: bool | str = True,
    decks: int = 1,
    section: str = "rules-1-2",
) -> KindRow:
    """A row for *per_rank* cards of one rank."""
    return KindRow(
        code,
        name,
        per_rank,
        sequence=False,
        shortest=1,
        longest=1,
        lengths=None,
        most_played=1,
        twos=None,
        lead=lead,
        decks=decks,
        section=section,
    )


def _run(
    code: int,
    name: str,
    per_rank: int,
    *,
    shortest: int,
    lengths: tuple[str, str] | None = None,
    most_played: int = _bits.RANKS,
    twos: str,
    lead: bool | str = True,
    section: str = "rules-1-2",
) -> KindRow:
    """A row for runs of *per_rank* cards on each of consecutive ranks (3…2, no wrap)."""
    return KindRow(
        code,
        name,
        per_rank,
        sequence=True,
        shortest=shortest,
        longest=_bits.RANKS,
        lengths=lengths,
        most_played=most_played,
        twos=twos,
        lead=lead,
        decks=1,
        section=section,
    )


KINDS: Final = {
    row.code: row
    for row in (
        _set(
            SINGLE,
            "SINGLE",
            1,
        ),
        _set(
            PAIR,
            "PAIR",
            2,
        ),
        _set(
            TRIPLE,
            "TRIPLE",
            3,
        ),
        _set(
            FOUR_OF_A_KIND,
            "FOUR_OF_A_KIND",
            4,
            lead="four_of_a_kind_may_lead",
        ),
        _run(
            STRAIGHT,
            "STRAIGHT",
            1,
            shortest=3,
            twos="twos_in_straights",
        ),
        _run(
            CONSECUTIVE_PAIRS,
            "CONSECUTIVE_PAIRS",
            2,
            shortest=3,
            lengths=("min_consecutive_pairs", "max_consecutive_pairs"),
            twos="twos_in_consecutive_pairs",
            lead="bombs_may_lead",
        ),
        _run(  # slams only (RULES §5.2, D-13)
            CONSECUTIVE_QUADS,
            "CONSECUTIVE_QUADS",
            4,
            shortest=2,
            most_played=3,
            twos="twos_in_consecutive_quads",
            lead=False,
            section="rules-5-2",
        ),
        _run(
            CONSECUTIVE_TRIPLES,
            "CONSECUTIVE_TRIPLES",
            3,
            shortest=2,
            lengths=("min_consecutive_triples", "max_consecutive_triples"),
            twos="twos_in_consecutive_triples",
            section="rules-12-4",
        ),
        _set(  # two decks only, a house rule (RULES §12.14)
            FIVE_OF_A_KIND,
            "FIVE_OF_A_KIND",
            5,
            decks=2,
            section="rules-12-14",
        ),
    )
}
"""Every kind by code, in code order (RULES §1.2; §5.2, §12.4 and §12.14 for the rest)."""
