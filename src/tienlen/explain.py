"""Plain-words explanations of the rule questions, for people at the table.

`why_not_combination` says why cards form no combination; `explain_beats` says why a
play does or does not beat the top. The decisions themselves stay with the rule set
(`tienlen.classify`, `tienlen.beats`); these functions only name the rule that
applied, with its section of RULES.md.

Example:
    >>> from tienlen.explain import explain_beats, why_not_combination
    >>> why_not_combination("As 2c 3d")
    'sequences never wrap around from 2 to 3 (RULES §1.4)'
    >>> explain_beats("5s 5c 5d 5h", "2h")
    'yes: the bomb table lets a four of a kind beat a single 2 (RULES §2.3)'
"""

from __future__ import annotations

from collections.abc import Iterable

from tienlen._kinds import KINDS
from tienlen._shapes import structural_key
from tienlen.cards import Card, Hand, Rank, as_cards
from tienlen.combos import Combo, ComboKind, Shape
from tienlen.rules import CLASSIC, BaseRules, RuleSet, as_combo

__all__ = ["explain_beats", "why_not_combination"]

_BOMB_SECTIONS = {
    "classic": "RULES §2.3",
    "justus-pang": "RULES §3.2",
    "kenneth-lo": "RULES §4.3",
    "vietcong": "RULES §5.2",
    "poker": "RULES §6.3",
}


def _section(rules: RuleSet) -> str:
    return _BOMB_SECTIONS.get(rules.name, "the rule set's bomb table")


def why_not_combination(
    cards: str | Iterable[Card], rules: RuleSet = CLASSIC
) -> str | None:
    """Why *cards* form no combination under *rules*, or ``None`` when they form one.

    Raises:
        InvalidCardError: bad card text, or a duplicate card where one deck is in play.

    Example:
        >>> from tienlen.explain import why_not_combination
        >>> why_not_combination("3s 4h") is not None, why_not_combination("3s 3h") is None
        (True, True)
    """
    parsed = as_cards(cards)
    if rules.classify(parsed) is not None:
        return None
    if not parsed:
        return "a play needs at least one card"
    counts = [0] * 13
    for card in parsed:
        counts[card.rank.value] += 1
    ranks = [rank for rank, count in enumerate(counts) if count]
    per_rank = {counts[rank] for rank in ranks}
    if len(ranks) == 1:
        if counts[ranks[0]] > 4:
            return "no combination has five or more cards of one rank (RULES §1.2)"
        return _not_in_rules(parsed, rules)
    if len(per_rank) > 1:
        return (
            "cards of several ranks must have the same number of each rank (RULES §1.2)"
        )
    consecutive = ranks[-1] - ranks[0] == len(ranks) - 1
    if not consecutive:
        wraps = Rank.TWO.value in ranks and Rank.THREE.value in ranks
        if wraps:
            return "sequences never wrap around from 2 to 3 (RULES §1.4)"
        return "the ranks are not consecutive (RULES §1.2)"
    count = per_rank.pop()
    triples = (
        isinstance(rules, BaseRules) and ComboKind.CONSECUTIVE_TRIPLES in rules.kinds
    )
    if count == 3 and not triples:
        return "runs of triples are not a combination (RULES §1.2)"
    if count == 1 and len(ranks) < 3:
        return "a straight needs at least three cards (RULES §1.2)"
    if count == 2 and len(ranks) < 3:
        return "consecutive pairs need at least three pairs (RULES §1.2)"
    return _not_in_rules(parsed, rules)


def _not_in_rules(cards: tuple[Card, ...], rules: RuleSet) -> str:
    """The shape exists in RULES §1.2 but the variant's settings exclude it."""
    if not isinstance(rules, BaseRules):
        return f"{rules.name} does not allow this combination"
    mask = Hand.from_cards(cards).mask
    key = structural_key(mask)
    shape = Shape.from_code(key >> 6)
    label = str(shape)
    if shape.kind not in rules.kinds:
        return f"{rules.name} has no {shape.kind.label} (RULES §10)"
    top = rules.max_top_rank(shape)
    if top is None:
        lengths = KINDS[shape.kind.value].lengths  # the settings bounding its length
        if lengths is not None:
            low, high = (getattr(rules, setting) for setting in lengths)
            return f"{rules.name} allows {low} to {high} {shape.kind.label}, not {shape.length} (RULES §10)"
        return f"{rules.name} does not allow {label} (RULES §10)"
    return f"{rules.name} does not allow a 2 at the top of a {shape.kind.label} (RULES §1.4, §10)"


def explain_beats(
    play: Combo | str | Iterable[Card],
    top: Combo | str | Iterable[Card],
    rules: RuleSet = CLASSIC,
) -> str:
    """Whether *play* beats *top*, as ``"yes: …"`` or ``"no: …"`` naming the rule.

    Raises:
        InvalidCardError: bad card text.
        InvalidComboError: either is not a combination under *rules*.

    Example:
        >>> from tienlen.explain import explain_beats
        >>> explain_beats("7h 7s", "7d 7c")
        'yes: the same shape, and 7♥ is higher than 7♦ (RULES §1.3)'
        >>> explain_beats("9c Tc Jc", "3s 4s 5s 6s")
        'no: a 3-card straight cannot beat a 4-card straight: different shapes, and no bomb applies (RULES §1.3)'
    """
    challenger = as_combo(play, rules)
    incumbent = as_combo(top, rules)
    verdict = rules.beats(challenger, incumbent)
    if challenger.shape == incumbent.shape:
        high, low = challenger.top.unicode(), incumbent.top.unicode()
        if verdict:
            return f"yes: the same shape, and {high} is higher than {low} (RULES §1.3)"
        return f"no: the same shape, but {high} is not higher than {low} (RULES §1.3)"
    target = _target_words(incumbent)
    if verdict:
        return f"yes: the bomb table lets {_shape_words(challenger.shape)} beat {target} ({_section(rules)})"
    shape = _shape_words(challenger.shape)
    return f"no: {shape} cannot beat {target}: different shapes, and no bomb applies (RULES §1.3)"


def _target_words(combo: Combo) -> str:
    """A combination in words: "a single 2", "a pair of 7s", "a 5-card straight"."""
    rank = combo.rank.symbol
    words = {
        ComboKind.SINGLE: f"a single {rank}",
        ComboKind.PAIR: f"a pair of {rank}s",
        ComboKind.TRIPLE: f"three {rank}s",
        ComboKind.FOUR_OF_A_KIND: f"four {rank}s",
    }.get(combo.kind)
    if words is not None:
        return words
    return _shape_words(combo.shape)


def _shape_words(shape: Shape) -> str:
    """A shape with its article: "a pair", "a 5-card straight", "3 consecutive pairs"."""
    if shape.kind.is_sequence and shape.kind is not ComboKind.STRAIGHT:
        return str(shape)
    return f"a {shape}"
