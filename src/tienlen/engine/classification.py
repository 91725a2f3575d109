"""The rule set's hot answers on combinations: classify, beats, legal plays (RULES §1.2–§1.3).

`tienlen.rules.BaseRules` documents ``classify``, ``beats`` and ``legal_plays`` as
Python methods, each one call into the function of the same name here, and so do
`tienlen.classify`, `tienlen.beats` and `tienlen.legal_plays` for a `BaseRules`: the
work (the cards' mask, its key, the remembered verdicts, the move generator) runs
here, compiled in the compiled build. The functions read the masks and keys of
`tienlen.Combo` and `tienlen.Hand` objects directly, which only the engine may, and
what the rule set compiled for them from one `Classifier`. `tienlen.Plays`, what
``legal_plays`` returns, is `tienlen.combos`', compiled with them.
"""

from __future__ import annotations

import types
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from tienlen.cards import Card, Hand, as_cards, as_hand
from tienlen.combos import BY_MASK, Combo, Plays, make_combo
from tienlen.engine import bits as _bits
from tienlen.engine.kinds import KINDS, STRAIGHT
from tienlen.engine.movegen import Tables
from tienlen.engine.shapes import structural_key
from tienlen.errors import InvalidComboError

if TYPE_CHECKING:
    from tienlen.rules import RuleSet
    from tienlen.rules.base import BaseRules

__all__ = [
    "MAX_VERDICTS",
    "Classifier",
    "Plays",
    "answers",
    "as_combo",
    "beats",
    "beats_any",
    "classify",
    "judge",
    "legal_plays",
    "legal_plays_any",
    "not_cards",
    "not_combos",
    "suits_allow",
]

MAX_VERDICTS = 1 << 16  # not Final: mypyc would inline it, and tests lower it
"""The most `beats` answers a rule set remembers before it starts afresh."""
_LOW_HALF: Final = _bits.LOW_HALF
_ANY_MASK: Final = (1 << 2 * _bits.CARDS) - 1
"""Every card of two decks: no mask exceeds it."""
_HAND: Final = Hand
_COMBO: Final = Combo
_new: Final = object.__new__
_fields: Final[Any] = cast("Any", Combo).__dict__  # untyped: mypyc refuses it typed
_set_mask: Final = _fields["_mask"].__set__
"""Writes a blank `Combo`'s mask: the pure build's C-level construction."""
_set_key: Final = _fields["_key"].__set__
_SEQUENCE_KINDS: Final = sum(1 << code for code, row in KINDS.items() if row.sequence)
"""Bit *k* set when kind *k* is a sequence (a run: never interned)."""
_SETS: Final = BY_MASK
_combo_of_mask: Final = BY_MASK.__getitem__
"""The combination of a trusted play's mask: interned if a set, else built."""
_SINGLES: Final = tuple(BY_MASK[1 << card] for card in range(_bits.CARDS))
"""The interned single of each card of one deck, by the card's index."""


class Classifier:
    """What the hot answers of one rule set read, as ints: kept on the rule set.

    Example:
        >>> from tienlen import CLASSIC_TWO_DECKS
        >>> book = Classifier(CLASSIC_TWO_DECKS._compiled, one_deck=False, suited=False, verdicts={})
        >>> book.mask_limit.bit_length(), len(book.valid) == len(CLASSIC_TWO_DECKS._compiled.valid_keys)
        (104, True)
    """

    __slots__ = (
        "bombers",
        "mask_limit",
        "one_deck",
        "suited",
        "tables",
        "valid",
        "verdicts",
    )

    def __init__(
        self, tables: Tables, *, one_deck: bool, suited: bool, verdicts: dict[int, bool]
    ) -> None:
        self.tables = tables
        """The rule set's compiled move generator."""
        self.valid: frozenset[int] = tables.valid_keys
        """The keys of every combination under the rules."""
        self.bombers: dict[int, tuple[int, ...]] = tables.bombers
        """The bomb table: each key other shapes beat, to the codes of those shapes."""
        self.one_deck = one_deck
        """Whether one deck is in play: a card held twice is refused (RULES §1.1)."""
        self.mask_limit = _LOW_HALF if one_deck else _ANY_MASK
        """The largest mask a combination may have: a card held twice exceeds it with
        one deck, so one comparison refuses duplicates."""
        self.suited = suited
        """Whether suits decide between straights (RULES §12.2, `suits_allow`)."""
        self.verdicts = verdicts
        """`beats` answers by key pair (``a << 16 | b``), filled as they are asked."""


def classify(rules: BaseRules, cards: str | Iterable[Card]) -> Combo | None:
    """`BaseRules.classify`: the combination *cards* form under *rules*, or ``None``.

    Example:
        >>> from tienlen import CLASSIC
        >>> classify(CLASSIC, "7h 7s"), classify(CLASSIC, "7s 8h")
        (<Combo PAIR '7s 7h'>, None)
    """
    kind = type(cards)
    if kind is tuple or kind is list:  # parsed cards: the hot path
        listed: Sequence[Card] = cards  # type: ignore[assignment]  # (no `cast` call)
        mask = 0
        try:
            for card in listed:
                mask |= card.mask
        except AttributeError:
            raise TypeError(not_cards(cards)) from None
        if mask.bit_count() != len(listed):
            mask = rules._multiset(tuple(listed), None)
    elif kind is _HAND or kind is _COMBO:  # already a mask
        held: Hand | Combo = cards  # type: ignore[assignment]  # (no `cast` call)
        mask = held._mask
        if mask > _LOW_HALF and rules._one_deck:
            rules._duplicate(mask, None)
    else:
        mask = rules._mask_of_any(cards)
    key = structural_key(mask)
    try:
        valid = rules._classifier.valid
    except AttributeError:  # not compiled yet: compiled on first use
        valid = rules._rulebook().valid
    if key not in valid:
        return None
    if not _SEQUENCE_KINDS >> (key >> 12) & 1:  # a set: its interned combination
        return _SETS[mask]
    if _COMPILED:
        return make_combo(mask, key)
    combo = _new(_COMBO)  # `make_combo`, inlined on this hot path
    _set_mask(combo, mask)
    _set_key(combo, key)
    return combo


def beats(rules: BaseRules, challenger: Combo, incumbent: Combo) -> bool:
    """`BaseRules.beats`: whether *challenger* may be played on *incumbent* under *rules*.

    Example:
        >>> from tienlen import CLASSIC, classify
        >>> beats(CLASSIC, classify("5s 5c 5d 5h"), classify("2h"))
        True
    """
    try:
        a = challenger._key
        b = incumbent._key
        masks = challenger._mask | incumbent._mask
    except AttributeError:
        raise TypeError(not_combos(challenger, incumbent)) from None
    try:
        book: Classifier = rules._classifier
    except AttributeError:  # not compiled yet: compiled on first use
        book = rules._rulebook()
    verdict = book.verdicts.get(a << 16 | b)  # keys are below 2**16
    if verdict is None or masks > book.mask_limit:
        return judge(rules, challenger, incumbent)
    return verdict


def beats_any(
    rules: BaseRules,
    play: Combo | str | Iterable[Card],
    top: Combo | str | Iterable[Card],
) -> bool:
    """`tienlen.beats` under a `BaseRules`: *play* and *top* as combinations or cards.

    Example:
        >>> from tienlen import CLASSIC, classify
        >>> beats_any(CLASSIC, "5s 5c 5d 5h", classify("2h"))
        True
    """
    if type(play) is _COMBO and type(top) is _COMBO:  # `beats`, inlined
        try:
            book: Classifier = rules._classifier
        except AttributeError:  # not compiled yet: compiled on first use
            book = rules._rulebook()
        verdict = book.verdicts.get(play._key << 16 | top._key)
        if verdict is None or (play._mask | top._mask) > book.mask_limit:
            return judge(rules, play, top)
        return verdict
    challenger = play if type(play) is _COMBO else as_combo(play, rules)
    incumbent = top if type(top) is _COMBO else as_combo(top, rules)
    return beats(rules, challenger, incumbent)


def as_combo(cards: Combo | str | Iterable[Card], rules: RuleSet) -> Combo:
    """Classify *cards* strictly: a combination under *rules* or an error.

    Raises:
        InvalidComboError: the cards form no combination under *rules*.

    Example:
        >>> from tienlen import CLASSIC
        >>> as_combo("7h 7s", CLASSIC)
        <Combo PAIR '7s 7h'>
    """
    if isinstance(cards, Combo):
        return cards
    parsed = as_cards(cards)
    combo = rules.classify(parsed)
    if combo is None:
        shown = cards if isinstance(cards, str) else " ".join(map(str, parsed))
        msg = f"{shown!r} is not a combination under {rules.name}"
        raise InvalidComboError(msg)
    return combo


def judge(rules: BaseRules, challenger: Combo, incumbent: Combo) -> bool:
    """`beats` worked out from the keys, remembered when the suits cannot matter.

    Example:
        >>> from tienlen import CLASSIC, classify
        >>> judge(CLASSIC, classify("3s 3h"), classify("4s 4h"))
        False
    """
    a, b = challenger._key, incumbent._key
    try:
        book: Classifier = rules._classifier
    except AttributeError:  # not compiled yet: compiled on first use
        book = rules._rulebook()
    valid = book.valid
    if (
        a not in valid
        or b not in valid
        or (challenger._mask | incumbent._mask) > book.mask_limit
    ):
        rules._refuse(challenger, incumbent)
    if a >> 6 == b >> 6:  # the same shape: the higher top card (RULES §1.3)
        if (a & 63) <= (b & 63):
            verdict = False
        elif book.suited:  # RULES §12.2: the suits decide, not the keys
            return suits_allow(challenger._mask, incumbent._mask, b)
        else:
            verdict = True
    else:  # another shape: only through the bomb table
        shapes = book.bombers.get(b)
        verdict = shapes is not None and a >> 6 in shapes
    verdicts = book.verdicts
    if len(verdicts) >= MAX_VERDICTS:
        verdicts.clear()
    verdicts[a << 16 | b] = verdict
    return verdict


def legal_plays(rules: BaseRules, hand: Hand, top: Combo | None = None) -> Plays:
    """`BaseRules.legal_plays`: the combinations of *hand* that may be led, or beat *top*.

    Example:
        >>> from tienlen import CLASSIC, Hand, classify
        >>> [str(p) for p in legal_plays(CLASSIC, Hand.parse("4s 9d 2c"), classify("8h"))]
        ['9d', '2c']
    """
    if type(hand) is not _HAND:
        raise TypeError(f"expected a Hand, got {hand!r}")
    mask = hand._mask
    try:
        book: Classifier = rules._classifier
    except AttributeError:  # not compiled yet: compiled on first use
        book = rules._rulebook()
    if mask > book.mask_limit:
        rules._duplicate(mask, None)
    if top is None:
        return _plays(book.tables.leads(mask), 0)
    if type(top) is not _COMBO:
        raise TypeError(f"expected a Combo or None, got {top!r}")
    key = top._key
    if key not in book.valid or top._mask > book.mask_limit:
        rules._invalid(top)
    masks = book.tables.plays(mask, key)
    if book.suited:
        masks = [play for play in masks if suits_allow(play, top._mask, key)]
    return answers(masks, key, book.tables)


def legal_plays_any(
    rules: BaseRules,
    hand: Hand | str | Iterable[Card],
    top: Combo | str | Iterable[Card] | None,
) -> Plays:
    """`tienlen.legal_plays` under a `BaseRules`: *hand* and *top* as objects or cards.

    Example:
        >>> from tienlen import CLASSIC
        >>> [str(play) for play in legal_plays_any(CLASSIC, "4s 9d 2c", "8h")]
        ['9d', '2c']
    """
    if type(hand) is _HAND and (top is None or type(top) is _COMBO):
        return legal_plays(rules, hand, top)
    against = None if top is None else as_combo(top, rules)
    return legal_plays(rules, as_hand(hand), against)


def answers(masks: Sequence[int], top: int, tables: Tables) -> Plays:
    """The plays *masks* that beat the combination keyed *top* under *tables*.

    When *top* is a run that no bomb beats (RULES §1.3), every play has its shape, and
    each play's key is the shape's plus the play's top card: none is recomputed.

    Example:
        >>> from tienlen import CLASSIC, Hand, classify
        >>> top = classify("3s 4s 5s")
        >>> hand = Hand.parse("4d 5h 6c 7c")
        >>> plays = answers(CLASSIC._compiled.plays(hand.mask, top.key), top.key, CLASSIC._compiled)
        >>> [(str(play), play.key == classify(str(play)).key) for play in plays]
        [('4d 5h 6c', True), ('5h 6c 7c', True)]
    """
    if _SEQUENCE_KINDS >> (top >> 12) & 1 and top not in tables.bombers:
        return _plays(masks, top >> 6 << 6)
    return _plays(masks, 0)


def _plays(masks: Sequence[int], base: int) -> Plays:
    """``Plays(masks)`` with its key *base* set."""
    if _COMPILED:
        plays = Plays(masks)  # the native constructor: no Python frame
    else:
        plays = _new(Plays)  # `Plays(masks)` without its `__init__` frame
        plays._masks = masks
    plays._base = base
    return plays


def not_cards(cards: object) -> str:
    """The message refusing *cards* that are neither card text nor `Card` objects.

    Example:
        >>> not_cards(3)
        'expected card text or Card objects, got 3'
    """
    return f"expected card text or Card objects, got {cards!r}"


def not_combos(*values: object) -> str:
    """The message refusing *values* that are not two `Combo` objects.

    Example:
        >>> not_combos(1, 2)
        'expected two Combo objects (see tienlen.classify), got 1, 2'
    """
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


_COMPILED: Final = not isinstance(_one_suit, types.FunctionType)
"""Whether this module runs compiled (mypyc): `run_combos` then loops."""
