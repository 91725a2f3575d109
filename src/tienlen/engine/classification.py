"""The rule set's hot answers on combinations: classify, beats, legal plays (RULES §1.2–§1.3).

`tienlen.rules.BaseRules` binds these functions as its methods ``classify``,
``beats`` and ``legal_plays``: they read the masks and keys of `tienlen.Combo` and
`tienlen.Hand` objects directly, which only the engine may, so the commonest calls
pay no property lookups. Everything else they need is the rule set's compiled
`tienlen.engine.movegen.Tables` and its remembered verdicts.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from tienlen.cards import Card, Hand
from tienlen.combos import Combo, Plays, answers
from tienlen.engine import bits as _bits
from tienlen.engine.kinds import STRAIGHT
from tienlen.engine.shapes import structural_key

if TYPE_CHECKING:
    from tienlen.rules.base import BaseRules

__all__ = [
    "MAX_VERDICTS",
    "beats",
    "classify",
    "judge",
    "legal_plays",
    "not_cards",
    "not_combos",
    "suits_allow",
]

_LOW_HALF: Final = _bits.LOW_HALF
MAX_VERDICTS: Final = 1 << 16
"""The most `beats` answers a rule set remembers before it starts afresh."""
_new_combo: Final = object.__new__
_set_mask: Final = Combo.__dict__["_mask"].__set__
_set_key: Final = Combo.__dict__["_key"].__set__


def classify(self: BaseRules, cards: str | Iterable[Card]) -> Combo | None:
    """The combination *cards* form under these rules, or ``None`` (RULES §1.2).

    Raises:
        InvalidCardError: bad card text, or a duplicate card where one deck is in play.

    Example:
        >>> from tienlen import VIETCONG
        >>> VIETCONG.classify("7s 7c 7d 7h 8s 8c 8d 8h")
        <Combo CONSECUTIVE_QUADS '7s 7c 7d 7h 8s 8c 8d 8h'>
    """
    kind = type(cards)
    if kind is tuple or kind is list:  # parsed cards: the hot path
        mask = 0
        try:
            for card in cards:
                mask |= card.mask  # type: ignore[union-attr]  # cards is a tuple or list
        except AttributeError:
            raise TypeError(not_cards(cards)) from None
        if mask.bit_count() != len(cards):  # type: ignore[arg-type]
            mask = self._multiset(tuple(cards), None)  # type: ignore[arg-type]
    elif kind is Hand or kind is Combo:  # already a mask
        mask = cards._mask  # type: ignore[union-attr]
        if mask > _LOW_HALF and self._one_deck:
            self._duplicate(mask, None)
    else:
        mask = self._mask_of_any(cards)
    key = structural_key(mask)
    if key not in self._valid:
        return None
    combo = _new_combo(Combo)  # `make_combo`, inlined on this hot path
    _set_mask(combo, mask)
    _set_key(combo, key)
    return combo


def beats(self: BaseRules, challenger: Combo, incumbent: Combo) -> bool:
    """Whether *challenger* may be played on *incumbent* (RULES §1.3 and bomb table).

    Raises:
        InvalidComboError: either is not a combination under these rules.

    Example:
        >>> from tienlen import CLASSIC, classify
        >>> CLASSIC.beats(classify("5s 5c 5d 5h"), classify("2h"))
        True
    """
    try:
        a = challenger._key
        b = incumbent._key
        masks = challenger._mask | incumbent._mask
    except AttributeError:
        raise TypeError(not_combos(challenger, incumbent)) from None
    verdict = self._verdicts.get(a << 16 | b)  # keys are below 2**16
    if verdict is None or masks > self._mask_limit:
        return judge(self, challenger, incumbent)
    return verdict


def judge(rules: BaseRules, challenger: Combo, incumbent: Combo) -> bool:
    """`beats` worked out from the keys, remembered when the suits cannot matter."""
    a, b = challenger._key, incumbent._key
    valid = rules._valid
    if (
        a not in valid
        or b not in valid
        or (challenger._mask | incumbent._mask) > rules._mask_limit
    ):
        rules._refuse(challenger, incumbent)
    if a >> 6 == b >> 6:  # the same shape: the higher top card (RULES §1.3)
        if (a & 63) <= (b & 63):
            verdict = False
        elif rules.suited_straights:  # RULES §12.2: the suits decide, not the keys
            return suits_allow(challenger._mask, incumbent._mask, b)
        else:
            verdict = True
    else:  # another shape: only through the bomb table
        shapes = rules._bombers.get(b)
        verdict = shapes is not None and a >> 6 in shapes
    verdicts = rules._verdicts
    if len(verdicts) >= MAX_VERDICTS:
        verdicts.clear()
    verdicts[a << 16 | b] = verdict
    return verdict


def legal_plays(self: BaseRules, hand: Hand, top: Combo | None = None) -> Plays:
    """Every distinct combination in *hand* that may be led, or that beats *top*.

    Raises:
        InvalidCardError: *hand* holds a duplicate card where one deck is in play.
        InvalidComboError: *top* is not a combination under these rules.

    Example:
        >>> from tienlen import CLASSIC, Hand, classify
        >>> [str(p) for p in CLASSIC.legal_plays(Hand.parse("4s 9d 2c"), classify("8h"))]
        ['9d', '2c']
    """
    if type(hand) is not Hand:
        raise TypeError(f"expected a Hand, got {hand!r}")
    mask = hand._mask
    if mask > self._mask_limit:
        self._duplicate(mask, None)
    if top is None:
        return Plays(self._compiled.leads(mask))
    if type(top) is not Combo:
        raise TypeError(f"expected a Combo or None, got {top!r}")
    key = top._key
    if key not in self._valid or top._mask > self._mask_limit:
        self._invalid(top)
    plays = self._compiled.plays(mask, key)
    if self.suited_straights:
        plays = [play for play in plays if suits_allow(play, top._mask, key)]
    return answers(plays, key, self._compiled)


def not_cards(cards: object) -> str:
    """The message refusing *cards* that are neither card text nor `Card` objects."""
    return f"expected card text or Card objects, got {cards!r}"


def not_combos(*values: object) -> str:
    """The message refusing *values* that are not two `Combo` objects."""
    shown = ", ".join(repr(value) for value in values)
    return f"expected two Combo objects (see tienlen.classify), got {shown}"


_SUIT_CARDS: Final = tuple(
    sum(1 << 4 * rank + suit for rank in range(_bits.RANKS))
    for suit in range(_bits.SUITS)
)
"""``_SUIT_CARDS[s]``: every card of suit *s* (one copy)."""


def _one_suit(mask: int) -> bool:
    """Whether every card of *mask* (one copy of each) has the suit of its top card."""
    return not mask & ~_SUIT_CARDS[(mask.bit_length() - 1) & 3]


def suits_allow(play: int, top: int, top_key: int) -> bool:
    """Whether suits let *play* beat *top* of the same shape: RULES §12.2 (*đồng chất*).

    A straight of one suit is beaten only by a straight of one suit; any other
    combination (and an unsuited straight) by whatever the same-shape rule allows.

    Example:
        >>> from tienlen import Hand, classify
        >>> top = classify("3s 4s 5s")
        >>> suits_allow(Hand.parse("4c 5c 6c").mask, top.mask, top.key)
        True
        >>> suits_allow(Hand.parse("4c 5d 6c").mask, top.mask, top.key)
        False
    """
    if top_key >> 12 != STRAIGHT or structural_key(play) >> 6 != top_key >> 6:
        return True
    return not _one_suit(top) or _one_suit(play)
