"""The sections of the rules reference, by label: what a ``rule`` citation names.

Every refusal (`IllegalPlayError.rule`), explanation (`tienlen.explain`) and bomb
verdict carries a ``rule`` label such as ``"rules-1-3"`` (section 1.3), ``"d-13"``
(decision D-13) or ``"example-19"`` (row 19 of the worked examples). `rule_section`
turns a label into the section's number, title and address in the documentation, so a
server can show "§2.4 The first lead" with a link next to a refusal.

Example:
    >>> from tienlen import rule_section
    >>> section = rule_section("rules-2-4")
    >>> section.number, section.title
    ('2.4', 'The first lead')
    >>> section.anchor
    'reference/classic.html#rules-2-4'
    >>> str(section)
    '§2.4 The first lead'
"""

from __future__ import annotations

from typing import Final

import attrs

from tienlen.errors import InvalidArgumentError

__all__ = ["DOCS_URL", "RuleSection", "rule_section"]

DOCS_URL: Final = "https://tienlen.readthedocs.io/en/latest/"
"""The home of the built documentation; `RuleSection.url` is relative to it."""


@attrs.frozen
class RuleSection:
    """A section of the rules reference (`rule_section`).

    Example:
        >>> from tienlen import rule_section
        >>> section = rule_section("d-13")
        >>> section.number, section.title, section.page
        ('D-13', 'Consecutive quads are slams only: never a lead', 'vietcong')
        >>> section.url
        'https://tienlen.readthedocs.io/en/latest/reference/vietcong.html#d-13'
    """

    label: str
    """The label, such as ``"rules-2-4"``, ``"d-13"`` or ``"example-19"``."""
    number: str
    """The number players and docs cite, such as ``"2.4"``, ``"D-13"`` or ``"row 19"``."""
    title: str
    """The section's title (for a decision, its statement; for a row, its example)."""
    page: str
    """The page of the rules reference that holds it, such as ``"core"`` or ``"classic"``."""

    @property
    def anchor(self) -> str:
        """The section's address, relative to the documentation's root (`DOCS_URL`).

        Example:
            >>> from tienlen import rule_section
            >>> rule_section("rules-12-1").anchor
            'reference/house-rules.html#rules-12-1'
        """
        return f"reference/{self.page}.html#{self.label}"

    @property
    def url(self) -> str:
        """The section's address in the built documentation.

        Example:
            >>> from tienlen import rule_section
            >>> rule_section("example-19").url
            'https://tienlen.readthedocs.io/en/latest/reference/core.html#example-19'
        """
        return DOCS_URL + self.anchor

    def __str__(self) -> str:
        mark = "" if self.number[0] in "Dr" else "§"
        return f"{mark}{self.number} {self.title}"


def rule_section(label: str) -> RuleSection:
    """The section of the rules reference a ``rule`` label names.

    Raises:
        InvalidArgumentError: no section has that label.
        TypeError: *label* is not a string.

    Example:
        >>> from tienlen import CLASSIC, GameState, IllegalPlayError, rule_section
        >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
        >>> try:
        ...     state.play("4s")
        ... except IllegalPlayError as error:
        ...     print(error.message(), "|", rule_section(error.rule))
        The first play of the game must include 3♠. | §2.4 The first lead
        >>> rule_section("rules-12-1").title
        'Bombs that may not lead'
    """
    if not isinstance(label, str):
        msg = f"expected a rule label, got {type(label).__name__}"  # type: ignore[unreachable]
        raise TypeError(msg)
    row = _SECTIONS.get(label)
    if row is None:
        msg = f"no section of the rules reference is labelled {label[:40]!r}"
        raise InvalidArgumentError(msg)
    number, title, page = row
    return RuleSection(label, number, title, page)


_SECTIONS: Final[dict[str, tuple[str, str, str]]] = {
    "rules-1": ("1", "The common core", "core"),
    "rules-1-1": ("1.1", "Cards and their order", "core"),
    "rules-1-2": ("1.2", "Combinations", "core"),
    "rules-1-3": ("1.3", "Shape, and beating the same shape", "core"),
    "rules-1-4": ("1.4", "No wrapping", "core"),
    "rules-1-5": ("1.5", "Tricks", "core"),
    "rules-1-5-1": ("1.5.1", "The lead", "core"),
    "rules-1-5-2": ("1.5.2", "Following", "core"),
    "rules-1-5-3": ("1.5.3", "Lock-out", "core"),
    "rules-1-5-4": ("1.5.4", "The end of a trick", "core"),
    "rules-1-5-5": ("1.5.5", "Going out", "core"),
    "rules-1-5-6": ("1.5.6", "Empty hands", "core"),
    "rules-2": ("2", "Classic", "classic"),
    "rules-2-1": ("2.1", "Players and the deal", "classic"),
    "rules-2-2": ("2.2", "Sequences", "classic"),
    "rules-2-3": ("2.3", "Bombs", "classic"),
    "rules-2-4": ("2.4", "The first lead", "classic"),
    "rules-2-5": ("2.5", "The end and the payment", "classic"),
    "rules-2-6": ("2.6", "No instant wins", "classic"),
    "rules-3": ("3", "Justus Pang", "justus-pang"),
    "rules-3-1": ("3.1", "No 2s in straights", "justus-pang"),
    "rules-3-2": ("3.2", "Bombs", "justus-pang"),
    "rules-3-3": ("3.3", "Declining the first lead", "justus-pang"),
    "rules-3-4": ("3.4", "Continuation", "justus-pang"),
    "rules-4": ("4", "Kenneth Lo", "kenneth-lo"),
    "rules-4-1": ("4.1", "Three players use every card", "kenneth-lo"),
    "rules-4-2": ("4.2", "Sequences", "kenneth-lo"),
    "rules-4-3": ("4.3", "Bombs", "kenneth-lo"),
    "rules-4-4": ("4.4", "The end and the payment", "kenneth-lo"),
    "rules-5": ("5", "Vietcong", "vietcong"),
    "rules-5-1": ("5.1", "Sequences", "vietcong"),
    "rules-5-2": ("5.2", "Slams", "vietcong"),
    "rules-5-3": ("5.3", "The lead", "vietcong"),
    "rules-5-4": ("5.4", "The instant win", "vietcong"),
    "rules-6": ("6", "Poker", "poker"),
    "rules-6-1": ("6.1", "Setup", "poker"),
    "rules-6-2": ("6.2", "Combinations", "poker"),
    "rules-6-3": ("6.3", "Chopping across kinds", "poker"),
    "rules-6-4": ("6.4", "Jumping in", "poker"),
    "rules-6-5": ("6.5", "Leads", "poker"),
    "rules-6-6": ("6.6", "Points", "poker"),
    "rules-6-6-1": ("6.6.1", "Places", "poker"),
    "rules-6-6-2": ("6.6.2", "Chops", "poker"),
    "rules-6-6-3": ("6.6.3", "Frozen (cóng)", "poker"),
    "rules-6-6-4": ("6.6.4", "End penalty (thối)", "poker"),
    "rules-6-7": ("6.7", "Instant wins", "poker"),
    "rules-7": ("7", "Decisions", "core"),
    "rules-8": ("8", "Misprints in the sources", "core"),
    "rules-9": ("9", "Worked examples", "core"),
    "rules-10": ("10", "How the variants differ", "core"),
    "rules-11": ("11", "Settings", "core"),
    "rules-12": ("12", "House rules", "house-rules"),
    "rules-12-1": ("12.1", "Bombs that may not lead", "house-rules"),
    "rules-12-2": ("12.2", "Suited runs (đồng chất)", "house-rules"),
    "rules-12-3": ("12.3", "A general bomb for 2s", "house-rules"),
    "rules-12-4": ("12.4", "Runs of triples (sám cô liên tiếp)", "house-rules"),
    "rules-12-5": ("12.5", "More instant wins (tới trắng)", "house-rules"),
    "rules-12-6": ("12.6", "Longer runs of pairs", "house-rules"),
    "rules-12-7": ("12.7", "Other chop money", "house-rules"),
    "rules-12-8": ("12.8", "Passing without locking out", "house-rules"),
    "rules-12-9": ("12.9", "A four of a kind on any single or pair", "house-rules"),
    "rules-12-10": ("12.10", "Who leads after a player goes out", "house-rules"),
    "rules-12-11": ("12.11", "The other readings of three decisions", "house-rules"),
    "rules-12-12": ("12.12", "No going out on a 2 or a bomb (thối)", "house-rules"),
    "rules-12-13": ("12.13", "A bomb re-opens the trick", "house-rules"),
    "rules-12-14": ("12.14", "Five of a kind on two decks (ngũ quý)", "house-rules"),
    "d-1": (
        "D-1",
        "After a player goes out unbeaten, the next player in play direction with cards leads, whether or not they passed",
        "core",
    ),
    "d-2": ("D-2", "Classic lets 2-2 end consecutive pairs", "classic"),
    "d-3": (
        "D-3",
        "Classic bomb sizes are exact: four consecutive pairs do not beat a single 2",
        "classic",
    ),
    "d-4": (
        "D-4",
        "When 3♠ was not dealt, the holder of the lowest dealt card leads and must include it",
        "classic",
    ),
    "d-5": (
        "D-5",
        "Justus Pang bans 2s in straights only, not in consecutive pairs",
        "justus-pang",
    ),
    "d-6": ("D-6", "A declined first lead is a pass, with its lock-out", "justus-pang"),
    "d-7": (
        "D-7",
        "Continuation is optional and repeatable, keeps the shape and must be strictly higher; closing is a pass by that player",
        "justus-pang",
    ),
    "d-8": (
        "D-8",
        "With three players the starter is decided on the 51 dealt cards, then takes the spare",
        "kenneth-lo",
    ),
    "d-9": ("D-9", "Kenneth Lo keeps classic's 2s in sequences", "kenneth-lo"),
    "d-10": (
        "D-10",
        "A four of a kind beats a single 2 or a pair of 2s and nothing else",
        "kenneth-lo",
    ),
    "d-11": ("D-11", "The game ends when the first player goes out", "kenneth-lo"),
    "d-12": ("D-12", "Vietcong lets 2-2 end consecutive pairs", "vietcong"),
    "d-13": ("D-13", "Consecutive quads are slams only: never a lead", "vietcong"),
    "d-14": (
        "D-14",
        "After the four-2s instant win, each other player pays one stake",
        "vietcong",
    ),
    "d-15": (
        "D-15",
        "Only 4 consecutive pairs jump in, out of turn, onto a 2, a pair of 2s or a bomb",
        "poker",
    ),
    "d-16": ("D-16", "After an instant win, the 3♠ holder leads with 3♠", "poker"),
    "d-17": ("D-17", "With two or three players the last place scores 0", "poker"),
    "d-18": (
        "D-18",
        "Chop values accumulate along a trick; the last victim pays the last catcher; a victim's final play is worth 0",
        "poker",
    ),
    "d-19": (
        "D-19",
        "Frozen players take the bottom places, score no place points and pay no end penalty",
        "poker",
    ),
    "d-20": (
        "D-20",
        "The 2s and bombs in a hand are valued by the best disjoint choice",
        "poker",
    ),
    "d-21": (
        "D-21",
        "An instant win pays 12 to the winner only; ties go by play order from the leader; six pairs counts ⌊n/2⌋ pairs per rank",
        "poker",
    ),
    "d-22": (
        "D-22",
        "When frozen players hold the bottom places, the last player still holding cards pays the end penalty to the player just above (the other reading: nobody pays)",
        "poker",
    ),
    "d-23": (
        "D-23",
        "\"Caught cards in a player's last move are not scored\" means the victim's last move (D-18); the other reading, a catch made with the catcher's last cards is not scored, is the other value",
        "poker",
    ),
    "d-24": (
        "D-24",
        "A Justus Pang continuation with a bomb onto the continuer's own play is a bomb onto a play: it re-opens the trick",
        "house-rules",
    ),
    "d-25": (
        "D-25",
        "With bombs_may_lead=False no bomb leads but a four of a kind, which follows its own setting: a five of a kind that is a bomb may not lead either, nor a run of triples of a length that is one",
        "house-rules",
    ),
    "example-1": ("row 1", "(all variants): 8S beats 7H — rank before suit", "core"),
    "example-2": ("row 2", "(all): 7H 7S beats 7D 7C — 7H is above 7D", "core"),
    "example-3": ("row 3", "(all): 5D 5H does not beat 6S 6C — no lower pairs", "core"),
    "example-4": (
        "row 4",
        "(all): 9C TC JC does not beat 3S 4S 5S 6S — different shapes",
        "core",
    ),
    "example-5": (
        "row 5",
        "(classic, Kenneth Lo): JD QH KH AC 2D beats TS JS QD KC AH — a 2 may end a straight",
        "core",
    ),
    "example-6": (
        "row 6",
        "(Justus Pang, Vietcong, Poker): JD QH KH AC 2D is no combination — no 2s in straights",
        "core",
    ),
    "example-7": ("row 7", "(all): AS 2C 3D is no combination — no wrapping", "core"),
    "example-8": (
        "row 8",
        "(all): 5S 5C 5D 5H beats 2H — a four of a kind on a single 2",
        "core",
    ),
    "example-9": (
        "row 9",
        "(all): 5S 5C 5D 5H does not beat AH — bombs act against 2s only",
        "core",
    ),
    "example-10": (
        "row 10",
        "(classic, Justus Pang, Kenneth Lo): 9S 9C 9D 9H does not beat three consecutive pairs that beat a 2 — no bomb beats another bomb kind",
        "core",
    ),
    "example-11": (
        "row 11",
        "(Poker): 9S 9C 9D 9H beats 3-3-4-4-5-5 — the chain",
        "core",
    ),
    "example-12": (
        "row 12",
        "(classic): 5-5-6-6-7-7-8-8 beats 2S 2H — four pairs on a pair of 2s",
        "core",
    ),
    "example-13": (
        "row 13",
        "(classic, Justus Pang): 5-5-6-6-7-7-8-8 does not beat 2S — bomb sizes are exact",
        "core",
    ),
    "example-14": (
        "row 14",
        "(Kenneth Lo, Poker): 9S 9C 9D 9H beats 2S 2H — a four of a kind on a pair of 2s",
        "core",
    ),
    "example-15": (
        "row 15",
        "(Vietcong): 7777 8888 beats 2D 2H — a consecutive-quads slam",
        "core",
    ),
    "example-16": (
        "row 16",
        "(Vietcong): 7777 8888 does not beat 2H — quads slam only a pair or three 2s",
        "core",
    ),
    "example-17": (
        "row 17",
        "(Poker): with 2H on top, a player who passed earlier may play 3-3-4-4-5-5-6-6 — a jump-in",
        "core",
    ),
    "example-18": (
        "row 18",
        "(Poker): the same player may not play 9S 9C 9D 9H — only four pairs jump in",
        "core",
    ),
    "example-19": (
        "row 19",
        "(Justus Pang): A led 5C and everyone passed; A may play 9H — a continuation, the others stay locked out",
        "core",
    ),
    "example-20": (
        "row 20",
        "(two-deck classic): 7H does not beat 7H — an equal card does not beat",
        "core",
    ),
}
"""Label → (number, title, page), as the reference pages state them (a test keeps
them in step with ``docs/reference``)."""
