"""Why the rules decide as they do, as values: no words.

`why_not_combination` says why cards form no combination; `explain_beats` says why a
play does or does not beat the top. The decisions themselves stay with the rule set
(`tienlen.classify`, `tienlen.beats`); these functions name the rule that applied:
the reason as an enum, the cards that decide, the ``rule`` (a label of the rules
reference, such as ``"rules-1-3"``). The game state raises its refusals with them.

The words are not here: ``message(lang)``, ``clause(lang)`` and ``str()`` ask the
text floor (`tienlen.explain`, which publishes these names) through
``tienlen._wording``.

Example:
    >>> from tienlen.rules.reasons import why_not_combination
    >>> why_not_combination("As 2c 3d").reason
    <NoComboReason.WRAPS: 'wraps'>
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Final

import attrs

from tienlen._wording import words
from tienlen.cards import Card, Hand, Rank, as_cards
from tienlen.combos import Combo, ComboKind, Shape
from tienlen.engine.bits import SUITS
from tienlen.engine.kinds import KINDS
from tienlen.engine.shapes import structural_key
from tienlen.kinds import KIND_BY_CODE
from tienlen.rules import CLASSIC, BaseRules, RuleSet, as_combo, check_rules
from tienlen.rules.registry import preset_named

__all__ = [
    "BeatsExplanation",
    "BeatsReason",
    "NoComboReason",
    "NotACombination",
    "explain_beats",
    "why_not_combination",
]


def _bomb_section(rules: RuleSet) -> str:
    """The rules-reference label of *rules*' bomb table: its preset's, else RULES §11."""
    preset = preset_named(rules.name)
    if preset is None or preset.bomb_section is None:
        return "rules-11"  # a custom table
    return preset.bomb_section


class NoComboReason(enum.Enum):
    """Why cards form no combination: `NotACombination.reason` (RULES §1.2, §1.4, §10).

    Example:
        >>> from tienlen.explain import NoComboReason, why_not_combination
        >>> why_not_combination("7h 8s Td").reason
        <NoComboReason.NOT_CONSECUTIVE: 'not consecutive'>
        >>> NoComboReason("wraps") is why_not_combination("As 2c 3d").reason
        True
    """

    EMPTY = "empty"
    """No cards at all."""
    TOO_MANY_OF_A_RANK = "too many of a rank"
    """Five or more cards of one rank (two decks)."""
    UNEVEN = "uneven"
    """Several ranks with different numbers of cards (a full house)."""
    WRAPS = "wraps"
    """A sequence that wraps from 2 to 3."""
    NOT_CONSECUTIVE = "not consecutive"
    """Ranks with a gap."""
    TRIPLE_RUN = "triple run"
    """Consecutive triples, where the rule set has no such kind."""
    SHORT_STRAIGHT = "short straight"
    """A straight of two cards."""
    SHORT_PAIRS = "short pairs"
    """Two consecutive pairs."""
    KIND_EXCLUDED = "kind excluded"
    """A kind the rule set does not have (consecutive quads outside Vietcong)."""
    PAIRS_COUNT = "pairs count"
    """More or fewer consecutive pairs than the rule set allows."""
    RUN_LENGTH = "run length"
    """A run of another kind (consecutive triples) longer or shorter than allowed."""
    SHAPE_EXCLUDED = "shape excluded"
    """A shape the rule set does not allow."""
    TWO_ON_TOP = "two on top"
    """A 2 at the top of a sequence, where the rule set forbids it."""
    NOT_ALLOWED = "not allowed"
    """A combination a custom rule set refuses, for its own reasons."""

    @property
    def rule(self) -> str:
        """The label of the rules-reference section that applies (``"rules-1-2"``).

        Example:
            >>> from tienlen.explain import NoComboReason
            >>> NoComboReason.UNEVEN.rule, NoComboReason.WRAPS.rule, NoComboReason.PAIRS_COUNT.rule
            ('rules-1-2', 'rules-1-4', 'rules-10')
        """
        return _NO_COMBO_RULES.get(self, "rules-1-2")


_NO_COMBO_RULES = {
    NoComboReason.WRAPS: "rules-1-4",
    NoComboReason.TWO_ON_TOP: "rules-1-4",
    NoComboReason.KIND_EXCLUDED: "rules-10",
    NoComboReason.PAIRS_COUNT: "rules-10",
    NoComboReason.RUN_LENGTH: "rules-10",
    NoComboReason.SHAPE_EXCLUDED: "rules-10",
    NoComboReason.NOT_ALLOWED: "rules-11",
}


@attrs.frozen
class NotACombination:
    """Why cards form no combination under a rule set (`why_not_combination`).

    Example:
        >>> from tienlen.explain import why_not_combination
        >>> why = why_not_combination("3s 3h 4d")
        >>> why.reason, why.rule
        (<NoComboReason.UNEVEN: 'uneven'>, 'rules-1-2')
        >>> why.message("vi")
        'Các lá khác nhau phải có số lượng bằng nhau.'
    """

    reason: NoComboReason
    """Why, as a value."""
    cards: tuple[Card, ...]
    """The cards examined."""
    rules: str
    """The name of the rule set."""
    fields: tuple[tuple[str, str], ...] = ()
    """The values the sentence names (the kind, the shape, the pair counts)."""

    @property
    def rule(self) -> str:
        """The label of the rules-reference section that applies.

        Example:
            >>> from tienlen import VIETCONG
            >>> from tienlen.explain import why_not_combination
            >>> why_not_combination("Jd Qh Kh Ac 2d", VIETCONG).rule
            'rules-1-4'
        """
        return self.reason.rule

    def message(self, lang: str = "en") -> str:
        """The reason as a sentence for the player, without citation.

        Example:
            >>> from tienlen import VIETCONG
            >>> from tienlen.explain import why_not_combination
            >>> why = why_not_combination("Jd Qh Kh Ac 2d", VIETCONG)
            >>> why.message()
            'Vietcong does not allow a 2 at the top of a straight.'
            >>> why.message("vi")
            'Luật vietcong không cho sảnh kết thúc bằng heo.'
        """
        return words(self, lang, "message")  # worded by `tienlen.explain`

    def clause(self, lang: str = "en") -> str:
        """The reason as a clause to build into a longer line.

        It is `NotACombination.message` without the capital and the full stop.

        Raises:
            ValueError: *lang* is not one of `tienlen.messages.LANGUAGES` (an
                `UnknownLanguageError`).

        Example:
            >>> from tienlen.explain import why_not_combination
            >>> why = why_not_combination("3s 4h")
            >>> why.clause()
            'a straight needs at least three cards'
            >>> why.clause("vi")
            'sảnh phải có ít nhất ba lá'
        """
        return words(self, lang)  # worded by `tienlen.explain`

    def __str__(self) -> str:
        return words(self, "en", "str")  # the clause and its citation


def why_not_combination(
    cards: str | Iterable[Card], rules: RuleSet = CLASSIC
) -> NotACombination | None:
    """Why *cards* form no combination under *rules*, or ``None`` when they form one.

    Raises:
        InvalidCardError: bad card text, or a duplicate card where one deck is in play.

    Example:
        >>> from tienlen.explain import why_not_combination
        >>> why_not_combination("3s 4h") is not None, why_not_combination("3s 3h") is None
        (True, True)
        >>> str(why_not_combination("3s 4h"))
        'a straight needs at least three cards (RULES §1.2)'
    """
    check_rules(rules)
    parsed = as_cards(cards)
    if rules.classify(parsed) is not None:
        return None
    reason, fields = _why_not(parsed, rules)
    return NotACombination(reason, parsed, rules.name, tuple(fields.items()))


def _why_not(
    parsed: tuple[Card, ...], rules: RuleSet
) -> tuple[NoComboReason, dict[str, str]]:
    if not parsed:
        return NoComboReason.EMPTY, {}
    counts = [0] * 13
    for card in parsed:
        counts[card.rank.value] += 1
    ranks = [rank for rank, count in enumerate(counts) if count]
    per_rank = {counts[rank] for rank in ranks}
    if len(ranks) == 1:
        most = _most_of_a_rank(rules)
        if counts[ranks[0]] > most:
            return NoComboReason.TOO_MANY_OF_A_RANK, (
                {} if most == _ONE_DECK_MOST else {"most": str(most)}
            )
        return _not_in_rules(parsed, rules)
    if len(per_rank) > 1:
        return NoComboReason.UNEVEN, {}
    consecutive = ranks[-1] - ranks[0] == len(ranks) - 1
    if not consecutive:
        if Rank.TWO.value in ranks and Rank.THREE.value in ranks:
            return NoComboReason.WRAPS, {}
        return NoComboReason.NOT_CONSECUTIVE, {}
    count = per_rank.pop()
    triples = (
        isinstance(rules, BaseRules) and ComboKind.CONSECUTIVE_TRIPLES in rules.kinds
    )
    if count == 3 and not triples:
        return NoComboReason.TRIPLE_RUN, {}
    if count == 1 and len(ranks) < 3:
        return NoComboReason.SHORT_STRAIGHT, {}
    if count == 2 and len(ranks) < 3:
        return NoComboReason.SHORT_PAIRS, {}
    return _not_in_rules(parsed, rules)


_ONE_DECK_MOST: Final = SUITS
"""Four of a kind: the most cards of one rank in the kinds one deck holds (RULES §1.2)."""


def _most_of_a_rank(rules: RuleSet) -> int:
    """The most cards of one rank any set kind holds: four, or a played house kind's."""
    played = rules.kinds if isinstance(rules, BaseRules) else frozenset()
    return max(
        row.per_rank
        for row in KINDS.values()
        if not row.sequence
        and (row.per_rank <= _ONE_DECK_MOST or KIND_BY_CODE[row.code] in played)
    )


def _not_in_rules(
    cards: tuple[Card, ...], rules: RuleSet
) -> tuple[NoComboReason, dict[str, str]]:
    """The shape exists in RULES §1.2 but the variant's settings exclude it."""
    if not isinstance(rules, BaseRules):
        return NoComboReason.NOT_ALLOWED, {}
    mask = Hand.from_cards(cards).mask
    shape = Shape.from_code(structural_key(mask) >> 6)
    if shape.kind not in rules.kinds:
        return NoComboReason.KIND_EXCLUDED, {"kind": shape.kind.name}
    if rules.max_top_rank(shape) is not None:
        return NoComboReason.TWO_ON_TOP, {"kind": shape.kind.name}
    lengths = KINDS[shape.kind.value].lengths  # the settings bounding its length
    if lengths is not None:
        low, high = (getattr(rules, setting) for setting in lengths)
        reason = (
            NoComboReason.PAIRS_COUNT
            if shape.kind is ComboKind.CONSECUTIVE_PAIRS
            else NoComboReason.RUN_LENGTH
        )
        return reason, {
            "kind": shape.kind.name,
            "low": str(low),
            "high": str(high),
            "count": str(shape.length),
        }
    return NoComboReason.SHAPE_EXCLUDED, {"shape": f"{shape.kind.name}:{shape.size}"}


class BeatsReason(enum.Enum):
    """What decides whether a play beats the top: `BeatsExplanation.because`.

    Example:
        >>> from tienlen.explain import BeatsReason, explain_beats
        >>> explain_beats("5s 5c 5d 5h", "2h").because
        <BeatsReason.BOMB: 'bomb'>
        >>> explain_beats("9c Tc Jc", "3s 4s 5s 6s").because is BeatsReason.DIFFERENT_SHAPES
        True
    """

    HIGHER = "higher"
    """The same shape, and the play's highest card is higher (RULES §1.3)."""
    NOT_HIGHER = "not higher"
    """The same shape, but the play's highest card is not higher (RULES §1.3)."""
    BOMB = "bomb"
    """A different shape that the rule set's bomb table lets beat the top."""
    DIFFERENT_SHAPES = "different shapes"
    """A different shape, and no bomb applies (RULES §1.3)."""


@attrs.frozen
class BeatsExplanation:
    """Whether a play beats the top, and why (`explain_beats`).

    Example:
        >>> from tienlen.explain import explain_beats
        >>> why = explain_beats("3d", "2d")
        >>> why.beats, why.because, [card.unicode() for card in why.cards]
        (False, <BeatsReason.NOT_HIGHER: 'not higher'>, ['3♦', '2♦'])
        >>> why.message(), why.message("vi")
        ('No: the same shape, but 3♦ is not higher than 2♦.', 'Không: cùng loại, nhưng 3♦ không lớn hơn 2♦.')
    """

    beats: bool
    """Whether the play may be played on the top (the verdict)."""
    because: BeatsReason
    """What decides."""
    play: Combo
    """The combination played."""
    top: Combo
    """The combination on the table."""
    rule: str
    """The label of the rules-reference section that decides (``"rules-1-3"``)."""

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards that decide, the play's highest card and the top's (one shape only).

        Example:
            >>> from tienlen.explain import explain_beats
            >>> explain_beats("7h 7s", "7d 7c").cards
            (Card.parse('7h'), Card.parse('7d'))
            >>> explain_beats("5s 5c 5d 5h", "2h").cards  # a bomb: no card decides
            ()
        """
        if self.because in (BeatsReason.HIGHER, BeatsReason.NOT_HIGHER):
            return (self.play.top, self.top.top)
        return ()

    def message(self, lang: str = "en") -> str:
        """The verdict as a sentence for the player, without citation.

        Example:
            >>> from tienlen.explain import explain_beats
            >>> why = explain_beats("7h", "7d")
            >>> why.message()
            'Yes: the same shape, and 7♥ is higher than 7♦.'
            >>> why.message("vi")
            'Được: cùng loại và 7♥ lớn hơn 7♦.'
        """
        return words(self, lang, "message")  # worded by `tienlen.explain`

    def clause(self, lang: str = "en") -> str:
        """The verdict and its reason as a clause to build into a longer line.

        It is `BeatsExplanation.message` without the capital and the full stop.

        Raises:
            ValueError: *lang* is not one of `tienlen.messages.LANGUAGES` (an
                `UnknownLanguageError`).

        Example:
            >>> from tienlen.explain import explain_beats
            >>> why = explain_beats("7h", "7d")
            >>> why.clause()
            'yes: the same shape, and 7♥ is higher than 7♦'
            >>> why.clause("vi")
            'được: cùng loại và 7♥ lớn hơn 7♦'
        """
        return words(self, lang)  # worded by `tienlen.explain`

    def reason(self, lang: str = "en") -> str:
        """Why, as a clause: `BeatsExplanation.clause` without "yes: " or "no: ".

        Raises:
            ValueError: *lang* is not one of `tienlen.messages.LANGUAGES` (an
                `UnknownLanguageError`).

        Example:
            >>> from tienlen.explain import explain_beats
            >>> why = explain_beats("9c Tc Jc", "3s 4s 5s 6s")
            >>> why.reason()
            'a 3-card straight cannot beat a 4-card straight: the same kind, but not the same number of cards'
            >>> explain_beats("3d", "2d").reason("vi")
            'cùng loại, nhưng 3♦ không lớn hơn 2♦'
        """
        return words(self, lang, "reason")  # worded by `tienlen.explain`

    def __str__(self) -> str:
        return words(self, "en", "str")  # the clause and its citation


def explain_beats(
    play: Combo | str | Iterable[Card],
    top: Combo | str | Iterable[Card],
    rules: RuleSet = CLASSIC,
) -> BeatsExplanation:
    """Whether *play* beats *top*, and the rule that decides.

    ``str()`` of the answer is ``"yes: …"`` or ``"no: …"`` with the rule's section.

    Raises:
        InvalidCardError: bad card text.
        InvalidComboError: either is not a combination under *rules*.

    Example:
        >>> from tienlen.explain import explain_beats
        >>> str(explain_beats("7h 7s", "7d 7c"))
        'yes: the same shape, and 7♥ is higher than 7♦ (RULES §1.3)'
        >>> print(explain_beats("9c Tc Jc", "3s 4s 5s 6s"))
        no: a 3-card straight cannot beat a 4-card straight: the same kind, but not the same number of cards (RULES §1.3)
        >>> print(explain_beats("5s 5c 5d 5h", "Ah"))
        no: a four of a kind cannot beat a single A: different shapes, and no bomb applies (RULES §1.3)
    """
    check_rules(rules)
    challenger = as_combo(play, rules)
    incumbent = as_combo(top, rules)
    verdict = rules.beats(challenger, incumbent)
    if challenger.shape == incumbent.shape:
        because = BeatsReason.HIGHER if verdict else BeatsReason.NOT_HIGHER
        rule = "rules-1-3"
    elif verdict:
        because = BeatsReason.BOMB
        rule = _bomb_section(rules)
    else:
        because = BeatsReason.DIFFERENT_SHAPES
        rule = "rules-1-3"
    return BeatsExplanation(verdict, because, challenger, incumbent, rule)
