"""Plain-words explanations of the rule questions, for people at the table.

`why_not_combination` says why cards form no combination; `explain_beats` says why a
play does or does not beat the top. The decisions themselves stay with the rule set
(`tienlen.classify`, `tienlen.beats`); these functions only name the rule that
applied. Both return values, not text: the reason as an enum, the cards that
decide, the ``rule`` (a label of the rules reference, such as ``"rules-1-3"``), and
``message(lang)`` for the player. ``str()`` of each is the developer's sentence,
with its section of the rules (the strings these functions returned in 0.1).

The values and the decisions live below the game state, in ``tienlen.rules.reasons``
(the state raises its refusals with them); this module holds their words, which
importing it teaches them.

Example:
    >>> from tienlen.explain import explain_beats, why_not_combination
    >>> str(why_not_combination("As 2c 3d"))
    'sequences never wrap around from 2 to 3 (RULES §1.4)'
    >>> verdict = explain_beats("5s 5c 5d 5h", "2h")
    >>> verdict.beats, verdict.because, verdict.rule
    (True, <BeatsReason.BOMB: 'bomb'>, 'rules-2-3')
    >>> str(verdict)
    'yes: the bomb table lets a four of a kind beat a single 2 (RULES §2.3)'
    >>> verdict.message("vi")
    'Được: tứ quý chặt được một con heo.'
"""

from __future__ import annotations

from tienlen import messages
from tienlen._wording import words
from tienlen.cards import Rank
from tienlen.combos import Combo, ComboKind, Shape
from tienlen.rules.reasons import (
    BeatsExplanation,
    BeatsReason,
    NoComboReason,
    NotACombination,
    explain_beats,
    why_not_combination,
)

__all__ = [
    "BeatsExplanation",
    "BeatsReason",
    "NoComboReason",
    "NotACombination",
    "explain_beats",
    "why_not_combination",
]


def _citation(rule: str) -> str:
    """The developer's citation of a reference label: ``rules-1-3`` → ``RULES §1.3``."""
    return "RULES §" + rule.removeprefix("rules-").replace("-", ".")


def _sentence(clause: str) -> str:
    """A clause as a player-facing sentence: capitalised, with a full stop."""
    return clause[:1].upper() + clause[1:] + "."


def _no_combo_words(why: NotACombination, lang: str = "en", part: str = "") -> str:
    """`NotACombination.clause`; with *part* ``"message"`` or ``"str"``, those."""
    if part == "message":
        return _sentence(_no_combo_clause(why, lang))
    if part != "str":
        return _no_combo_clause(why, lang)
    if why.reason is NoComboReason.NOT_ALLOWED:  # a custom rule set's own reason
        return _no_combo_clause(why, "en")
    citation = _citation(why.rule)
    if why.reason is NoComboReason.TWO_ON_TOP:
        citation += ", §10"
    return f"{_no_combo_clause(why, 'en')} ({citation})"


def _no_combo_clause(why: NotACombination, lang: str = "en") -> str:
    """`NotACombination.clause`: the reason as a clause, in *lang*."""
    fields = dict(why.fields)
    if "kind" in fields:
        fields["kind"] = messages.kind_name(ComboKind[fields["kind"]], lang)
    if "shape" in fields:
        kind, size = fields["shape"].split(":")
        fields["shape"] = messages.shape_name(Shape(ComboKind[kind], int(size)), lang)
    key = f"nocombo.{why.reason.name}"
    if "most" in fields:  # a house kind of more cards of a rank is played
        key += ".most"
    return messages.text(key, lang, rules=why.rules, **fields)


def _beats_words(why: BeatsExplanation, lang: str = "en", part: str = "") -> str:
    """`BeatsExplanation.clause`; with *part* ``"reason"``, ``"message"`` or ``"str"``, those."""
    if part == "reason":
        return _beats_reason(why, lang)
    if part == "message":
        return _sentence(_beats_words(why, lang))
    if part == "str":
        return f"{_beats_words(why, 'en')} ({_citation(why.rule)})"
    verdict = messages.text("beats.yes" if why.beats else "beats.no", lang)
    return messages.text(
        "beats.verdict", lang, verdict=verdict, reason=_beats_reason(why, lang)
    )


def _beats_reason(why: BeatsExplanation, lang: str = "en") -> str:
    """`BeatsExplanation.reason`: why, as a clause, in *lang*."""
    key = f"beats.{why.because.name}"
    if (
        why.because is BeatsReason.DIFFERENT_SHAPES and why.play.kind is why.top.kind
    ):  # two straights of different lengths: one kind, not one size
        key = "beats.DIFFERENT_SIZES"
    if why.cards:
        high, low = (card.unicode() for card in why.cards)
        return messages.text(key, lang, high=high, low=low)
    play = _shape_words(why.play.shape, lang)
    return messages.text(key, lang, play=play, top=_target_words(why.top, lang))


def _target_words(combo: Combo, lang: str = "en") -> str:
    """A combination in words: "a single 2", "a pair of 7s", "a 5-card straight"."""
    name = combo.kind.name
    if not combo.kind.is_sequence:
        if combo.rank is Rank.TWO and f"words.heo.{name}" in messages.CATALOGUE:
            return messages.text(f"words.heo.{name}", lang)
        return messages.text(f"words.{name}", lang, rank=combo.rank.symbol)
    return _shape_words(combo.shape, lang)


def _shape_words(shape: Shape, lang: str = "en") -> str:
    """A shape with its article: "a pair", "a 5-card straight", "3 consecutive pairs"."""
    name = messages.shape_name(shape, lang)
    if shape.kind.is_sequence and shape.kind is not ComboKind.STRAIGHT:
        return messages.text("words.run", lang, shape=name)
    return messages.text("words.shape", lang, shape=name)


words.register(NotACombination, _no_combo_words)
words.register(BeatsExplanation, _beats_words)
