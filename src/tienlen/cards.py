"""Cards, ranks, suits and hands (RULES §1.1).

Ranks run ``3 4 5 6 7 8 9 10 J Q K A 2`` and suits ``♠ < ♣ < ♦ < ♥``; rank comes
before suit, so every card has one place in a total order from 3♠ to 2♥.

Text forms: ``str(card)`` is the canonical two-character ASCII form (``"Th"``),
`Card.unicode` the form players read (``"10♥"``). Parsing is lenient: ``10h``, ``Th``,
``TH``, ``10♥`` and ``t♡`` are the same card. It reads ASCII rank and suit letters in
either case and the suit symbols ``♠♣♦♥`` and ``♤♧♢♡``, nothing that only looks like
them (no KELVIN SIGN for ``K``, no full-width digits), and it separates cards by
commas and ASCII whitespace (space, tab, line feed, carriage return, form feed,
vertical tab) or nothing; no other space character.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Final, Self, TypeVar

import attrs

from tienlen.engine import bits as _bits
from tienlen.errors import InvalidCardError

__all__ = [
    "DECK",
    "MAX_CARDS",
    "MAX_TEXT_LENGTH",
    "Card",
    "Hand",
    "Rank",
    "Suit",
    "parse_cards",
]

MAX_TEXT_LENGTH: Final = 1_000
"""The longest card text `parse_cards` reads, in characters."""
MAX_CARDS: Final = 2 * _bits.CARDS
"""The most cards `parse_cards` reads: two decks."""


class _OrderedEnum(enum.Enum):
    """An enum ordered by value, comparable only with members of its own class."""

    def __lt__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _OrderedEnum)
        return bool(self.value < other.value)

    def __le__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _OrderedEnum)
        return bool(self.value <= other.value)

    def __gt__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _OrderedEnum)
        return bool(self.value > other.value)

    def __ge__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _OrderedEnum)
        return bool(self.value >= other.value)


class Rank(_OrderedEnum):
    """A card rank, ordered as in Tiến Lên: 3 is lowest, 2 highest (RULES §1.1).

    Example:
        >>> Rank.ACE < Rank.TWO
        True
        >>> Rank.TEN.letter, Rank.TEN.symbol
        ('T', '10')
    """

    THREE = 0
    FOUR = 1
    FIVE = 2
    SIX = 3
    SEVEN = 4
    EIGHT = 5
    NINE = 6
    TEN = 7
    JACK = 8
    QUEEN = 9
    KING = 10
    ACE = 11
    TWO = 12

    @property
    def letter(self) -> str:
        """The one-character ASCII form, one of ``3``…``9``, ``T``, ``J``, ``Q``, ``K``, ``A``, ``2``.

        Example:
            >>> Rank.TEN.letter, Rank.TWO.letter
            ('T', '2')
        """
        return _RANK_LETTERS[self.value]

    @property
    def symbol(self) -> str:
        """The form players write, as `letter` except ``10`` for the ten.

        Example:
            >>> Rank.TEN.symbol, Rank.ACE.symbol
            ('10', 'A')
        """
        return "10" if self is Rank.TEN else self.letter


class Suit(_OrderedEnum):
    """A card suit, ordered ♠ < ♣ < ♦ < ♥ (RULES §1.1).

    Example:
        >>> Suit.SPADES < Suit.HEARTS
        True
        >>> Suit.HEARTS.letter, Suit.HEARTS.symbol
        ('h', '♥')
    """

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        """The lowercase ASCII letter, ``s``, ``c``, ``d`` or ``h``.

        Example:
            >>> Suit.CLUBS.letter
            'c'
        """
        return "scdh"[self.value]

    @property
    def symbol(self) -> str:
        """The suit symbol, ``♠``, ``♣``, ``♦`` or ``♥``.

        Example:
            >>> Suit.DIAMONDS.symbol
            '♦'
        """
        return "♠♣♦♥"[self.value]

    @property
    def is_red(self) -> bool:
        """Whether the suit is red (diamonds and hearts).

        Example:
            >>> Suit.HEARTS.is_red, Suit.SPADES.is_red
            (True, False)
        """
        return self.value >= Suit.DIAMONDS.value


_RANK_LETTERS: Final = "3456789TJQKA2"
_RANKS: Final = tuple(Rank)
_SUITS: Final = tuple(Suit)


def _must_be(
    cls: type[_Member],
) -> Callable[[object, attrs.Attribute[_Member], _Member], None]:
    """An attrs validator: the value is a member of *cls* (a `TypeError` otherwise)."""

    def check(_: object, attribute: attrs.Attribute[_Member], value: _Member) -> None:
        given: object = value  # anything may come in at run time
        if not isinstance(given, cls):
            shown = _clip(repr(given), 40)
            msg = f"a card's {attribute.name} must be a {cls.__name__}, got {type(given).__name__} {shown}"
            raise TypeError(msg)

    return check


_Member = TypeVar("_Member", bound=_OrderedEnum)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@attrs.frozen(eq=False)
class Card:
    """One playing card, totally ordered by rank, then suit (RULES §1.1).

    Cards compare, hash and sort by their ``index`` (3♠ = 0 … 2♥ = 51). Build them with
    `Card.parse` or ``Card(Rank.TEN, Suit.HEARTS)``; anything but a `Rank` and a `Suit`,
    in that order, is a ``TypeError``.

    Example:
        >>> card = Card.parse("10h")
        >>> card == Card.parse("Th") == Card.parse("10♥") == Card(Rank.TEN, Suit.HEARTS)
        True
        >>> str(card), card.unicode(), card.index
        ('Th', '10♥', 31)
        >>> Card.parse("8s") > Card.parse("7h")
        True
    """

    rank: Rank = attrs.field(validator=_must_be(Rank))
    """The card's rank."""
    suit: Suit = attrs.field(validator=_must_be(Suit))
    """The card's suit."""
    index: int = attrs.field(init=False, repr=False)
    """Position in the total order, ``rank * 4 + suit``, from 0 (3♠) to 51 (2♥)."""
    mask: int = attrs.field(init=False, repr=False)
    """The card as a one-card `Hand.mask` (``1 << index``)."""

    def __attrs_post_init__(self) -> None:
        index = self.rank.value * 4 + self.suit.value
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "mask", 1 << index)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card, leniently (``10h``, ``Th``, ``TH``, ``10♥``).

        Raises:
            InvalidCardError: *text* is not exactly one card.

        Example:
            >>> Card.parse("3♠")
            Card.parse('3s')
        """
        cards = parse_cards(text)
        if len(cards) != 1:
            msg = f"expected one card, got {len(cards)} in {text!r}"
            raise InvalidCardError(msg)
        return cards[0]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card at *index* (0 = 3♠ … 51 = 2♥) in the total order.

        Raises:
            InvalidCardError: *index* is outside 0…51.
            TypeError: *index* is not an int.

        Example:
            >>> Card.from_index(51)
            Card.parse('2h')
        """
        if isinstance(index, bool) or not isinstance(index, int):
            msg = f"expected a card index (an int), got {type(index).__name__}"
            raise TypeError(msg)
        if not 0 <= index < _bits.CARDS:
            msg = f"card index out of range: {index!r} (expected 0-51)"
            raise InvalidCardError(msg)
        return DECK[index]

    def unicode(self) -> str:
        """The card as players write it, with ``10`` and a suit symbol.

        Example:
            >>> Card.parse("Th").unicode()
            '10♥'
        """
        return self.rank.symbol + self.suit.symbol

    def _repr_svg_(self) -> str:
        """The card as an SVG picture, for Jupyter (see `tienlen.svg.card`)."""
        from tienlen import svg  # noqa: PLC0415  # svg imports this module

        return svg.card(self)

    def __str__(self) -> str:
        return self.rank.letter + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.index < other.index
        return NotImplemented

    def __le__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.index <= other.index
        return NotImplemented

    def __gt__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.index > other.index
        return NotImplemented

    def __ge__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.index >= other.index
        return NotImplemented


DECK: Final[tuple[Card, ...]] = tuple(
    Card(rank, suit) for rank in _RANKS for suit in _SUITS
)
"""The 52 cards in ascending order; ``DECK[i].index == i``.

Example:
    >>> from tienlen import DECK
    >>> len(DECK), DECK[0].unicode(), DECK[-1].unicode()
    (52, '3♠', '2♥')
"""

_RANK_BY_TEXT: Final = {
    **{rank.letter.casefold(): rank for rank in _RANKS},
    "10": Rank.TEN,
}
_SUIT_BY_TEXT: Final = {
    **{suit.letter: suit for suit in _SUITS},
    **{suit.symbol: suit for suit in _SUITS},
    "♤": Suit.SPADES,
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
}
_SEPARATOR: Final = " \t\n\r\f\v,"
"""The characters between cards: ASCII whitespace and the comma."""
_RANK_TEXT: Final = "10|[2-9TtJjQqKkAa]"
_CARD_RE: Final = re.compile(f"({_RANK_TEXT})([SsCcDdHh♠♣♦♥♤♧♢♡])")
_SEPARATORS: Final = re.compile(f"[{_SEPARATOR}]*")
_TOKEN: Final = re.compile(f"[^{_SEPARATOR}]+")
_RANK_RE: Final = re.compile(_RANK_TEXT)
_PARSED: Final[dict[str, Card]] = {}


def _card_from_match(rank: str, suit: str) -> Card:
    key = rank + suit
    card = _PARSED.get(key)
    if card is None:
        r = _RANK_BY_TEXT[rank.casefold()]  # ASCII only: the pattern matched it
        s = _SUIT_BY_TEXT[suit.casefold()]
        card = _PARSED[key] = DECK[r.value * 4 + s.value]
    return card


def _skip_separators(text: str, pos: int) -> int:
    match = _SEPARATORS.match(text, pos)
    assert match is not None  # the pattern matches the empty string
    return match.end()


def _quoted(text: str, pos: int = 0) -> str:
    """*text* quoted for a message; a long text is shown cut, from just before *pos*."""
    shown = repr(text)
    if len(shown) <= 60:
        return shown
    start = max(0, pos - 20)
    window = repr(text[start : start + 40])
    if len(window) > 60 or start + 40 < len(text):
        window = window[:59] + "…"
    return ("…" if start else "") + window


def _character(char: str) -> str:
    """*char* quoted, with its code point when it only looks like ASCII (``'K' (U+212A)``)."""
    if char.isascii() or char in _SUIT_BY_TEXT or not char.isprintable():
        return repr(char)  # a control or space character: repr shows its code
    return f"{char!r} (U+{ord(char):04X})"


_RANK_NUMBERS: Final = {"1": "A", "11": "J", "12": "Q", "13": "K", "14": "A"}
"""Ranks written as numbers, and the letter card text uses for them."""
_NUMBER_RE: Final = re.compile("[0-9]+")


def rank_letter_for_number(token: str) -> str | None:
    """The rank letter card text uses for a rank *token* starts with as a number, or ``None``.

    Players write an ace as 1 or 14 and a jack, queen, king as 11–13; card text
    spells them A, J, Q, K (`InvalidCardError` says so, problem ``"rank-number"``).

    Example:
        >>> rank_letter_for_number("11h"), rank_letter_for_number("1"), rank_letter_for_number("9s")
        ('J', 'A', None)
    """
    number = _NUMBER_RE.match(token)
    return None if number is None else _RANK_NUMBERS.get(number[0])


_SUIT_WORDS: Final = {
    "bích": "s",
    "chuồn": "c",
    "nhép": "c",
    "tép": "c",
    "rô": "d",
    "cơ": "h",
    "bich": "s",
    "chuon": "c",
    "nhep": "c",
    "tep": "c",
    "ro": "d",
    "co": "h",
}
"""The Vietnamese names of the suits, as card text may write them (``7 cơ``), also
without their accents (``7 co``). No card text without a word can hold one after a
rank (``7co`` is no card: ``7c`` then ``o``), so reading words changes no card text
that parsed before."""
_SUIT_WORD_RE: Final = re.compile(
    f"({_RANK_TEXT})\\s*({'|'.join(_SUIT_WORDS)})(?![^\\W\\d_])", re.IGNORECASE
)
_ASCII_WORD_LETTER: Final = re.compile("[eEiIoO]")
"""A letter of every suit word without accents and of no card: words to read."""


def normal_text(text: str) -> str:
    """Typed text made plain (private helper): decomposed letters recomposed, spaces spaced.

    Text holding combining marks (a decomposed *ỏ*) is put in Unicode normal form
    NFC; every non-ASCII space (a no-break space, an em space, an ideographic space)
    becomes an ASCII space, one for one, so offsets in the text stay right. Other
    characters, look-alikes included (the Kelvin sign), are left for the parser to
    refuse.

    Example:
        >>> from tienlen.cards import normal_text
        >>> normal_text("bo\N{COMBINING HOOK ABOVE}\N{NO-BREAK SPACE}qua")
        'bỏ qua'
    """
    if text.isascii():
        return text
    if any(unicodedata.combining(char) for char in text):
        text = unicodedata.normalize("NFC", text)
    return "".join(
        " " if char.isspace() and not char.isascii() else char for char in text
    )


def _plain(text: str) -> str:
    """Card text made plain: `normal_text`, then suit words as letters.

    Example:
        >>> _plain("7\N{NO-BREAK SPACE}Cơ, 10 bích")
        '7h, 10s'
    """
    return _SUIT_WORD_RE.sub(_suit_letter, normal_text(text))


def _suit_letter(match: re.Match[str]) -> str:
    """A rank and its suit word as a rank and suit letter; anything else as it was.

    The pattern ignores case the Unicode way, so it also matches look-alikes that no
    word is (U+0131, a dotless i): those are left for the parser to refuse.
    """
    letter = _SUIT_WORDS.get(match[2].lower())
    return match[0] if letter is None else match[1] + letter


def _typed_offset(typed: str, pos: int) -> int:
    """The offset in *typed* of offset *pos* of ``_plain(typed)`` (private helper).

    *typed* is in normal form (`normal_text`); each suit word read as a letter moves
    the offsets after it. The letter stands where its word starts.

    Example:
        >>> _plain("ba bích 7h"), _typed_offset("ba bích 7h", 3), _typed_offset("ba bích 7h", 4)
        ('bas 7h', 7, 8)
    """
    shift = 0  # offset in typed minus offset in plain, after the words read so far
    for match in _SUIT_WORD_RE.finditer(typed):
        if _SUIT_WORDS.get(match[2].lower()) is None:  # left as it was
            continue
        letter = match.start() - shift + len(match[1])  # the suit letter, in plain
        if pos < letter:
            break
        if pos == letter:
            return match.start(2)
        shift += len(match[0]) - len(match[1]) - 1
    return pos + shift


def _invalid_token(text: str, pos: int, typed: str) -> InvalidCardError:
    """The error for the token at *pos* of `_plain` *text*, read from *typed*.

    The message and the error's ``token`` quote the player's own words (``ba bích``,
    not the ``bas`` its suit word was read as), with offsets into *typed*; text that
    Unicode normal form changed (a decomposed letter) is quoted recomposed.
    """
    token_match = _TOKEN.match(text, pos)
    assert token_match is not None
    token = token_match.group()
    normal = normal_text(typed)
    shown = typed if len(typed) == len(normal) else normal  # spaces change one for one
    at, end = pos, token_match.end()
    if normal != text:  # suit words were read as letters: find the words again
        at, end = _typed_offset(normal, pos), _typed_offset(normal, end)
    words = shown[at:end]
    rank_match = _RANK_RE.match(token)
    number = _NUMBER_RE.match(token)
    problem = "unknown-rank"
    suit = "" if number is None else token[number.end() : number.end() + 1]
    if (
        rank_match is None
        and number is not None
        and number[0] in _RANK_NUMBERS
        and (suit == "" or suit.casefold() in _SUIT_BY_TEXT)
    ):
        reason = f"unknown rank {number[0]!r}: write {_RANK_NUMBERS[number[0]]}"
        problem = "rank-number"
    elif rank_match is None:
        reason = f"unknown rank {_character(token[0])}"
    elif rank_match.end() == len(token):
        reason = "missing suit"
        problem = "missing-suit"
    else:
        reason = f"unknown suit {_character(token[rank_match.end()])}"
        problem = "unknown-suit"
    return InvalidCardError(
        f"invalid card {_quoted(words)} in {_quoted(shown, at)} (at {at}): {reason}",
        problem=problem,
        token=words[:20],
    )


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by whitespace, commas or nothing, in the order given.

    A card is a rank (``3``-``10`` or ``T``, ``J``, ``Q``, ``K``, ``A``, ``2``) and a
    suit: a letter (``s``, ``c``, ``d``, ``h``; the letters stay English in every
    language, ``c`` is clubs), a symbol (``♠ ♣ ♦ ♥``) or a Vietnamese suit word, after
    a space or not (``7 bích``, ``7 chuồn``, also ``nhép`` or ``tép``, ``7 rô``,
    ``7 cơ``), with or without accents (``7 co``, ``7 bich``). Text is read in Unicode normal form NFC, and any Unicode space (a
    no-break space, an ideographic space) separates cards as an ASCII space does.
    The result is eager; duplicates are kept (two decks hold two copies of a card).
    Safe on untrusted text: it refuses more than `tienlen.cards.MAX_TEXT_LENGTH` characters or
    `tienlen.cards.MAX_CARDS` cards before doing any work proportional to them.

    Raises:
        InvalidCardError: a token is not a card; the message quotes the input, the
            token and its offset (a long input only around the offset). Also text
            longer than `tienlen.cards.MAX_TEXT_LENGTH` or holding more than `tienlen.cards.MAX_CARDS` cards.
        TypeError: *text* is not a ``str``.

    Example:
        >>> parse_cards("3s, 4s 5♥")
        (Card.parse('3s'), Card.parse('4s'), Card.parse('5h'))
        >>> parse_cards("10hJh")
        (Card.parse('Th'), Card.parse('Jh'))
        >>> parse_cards("7 cơ, 7 rô, 7 bích")
        (Card.parse('7h'), Card.parse('7d'), Card.parse('7s'))
        >>> parse_cards("7 co 8 chuon")
        (Card.parse('7h'), Card.parse('8c'))
    """
    if not isinstance(text, str):
        msg = f"expected card text, got {type(text).__name__}"  # type: ignore[unreachable]
        raise TypeError(msg)
    end = len(text)
    if end > MAX_TEXT_LENGTH:
        msg = f"card text of {end:,} characters, more than the {MAX_TEXT_LENGTH:,} allowed"
        raise InvalidCardError(msg, problem="too-long")
    typed = text
    if not text.isascii() or _ASCII_WORD_LETTER.search(text):
        text = _plain(text)
        end = len(text)
    cards: list[Card] = []
    pos = _skip_separators(text, 0)
    while pos < end:
        match = _CARD_RE.match(text, pos)
        if match is None:  # quoted as typed: the player's words, not the letters read
            raise _invalid_token(text, pos, typed)
        cards.append(_card_from_match(match.group(1), match.group(2)))
        pos = _skip_separators(text, match.end())
    if len(cards) > MAX_CARDS:
        msg = f"{len(cards)} cards in {_quoted(typed)}, more than the {MAX_CARDS} of two decks"
        raise InvalidCardError(msg, problem="too-many")
    return tuple(cards)


def as_cards(cards: str | Card | Iterable[Card]) -> tuple[Card, ...]:
    """Normalise card text, one card or an iterable of cards to a tuple (private helper).

    Example:
        >>> from tienlen import Card
        >>> from tienlen.cards import as_cards
        >>> as_cards("3s 10h") == as_cards([Card.parse("3s"), Card.parse("Th")])
        True
        >>> as_cards(Card.parse("2h"))
        (Card.parse('2h'),)
    """
    if isinstance(cards, str):
        return parse_cards(cards)
    if isinstance(cards, Card):
        return (cards,)
    result = tuple(cards)
    for card in result:
        if not isinstance(card, Card):
            msg = f"expected Card objects, got {type(card).__name__}: {card!r}"  # type: ignore[unreachable]
            raise TypeError(msg)
    return result


def mask_of(cards: Collection[Card], text: object = None) -> int:
    """The multiset mask of *cards* (private helper; at most two copies of a card).

    Raises:
        InvalidCardError: a card appears three or more times.

    Example:
        >>> from tienlen import parse_cards
        >>> from tienlen.cards import mask_of
        >>> mask_of(parse_cards("3s 4s"))  # bits 0 and 4
        17
    """
    mask = 0
    add = _bits.add_card
    for card in cards:
        mask = add(mask, card.index)
        if mask < 0:
            shown = text if text is not None else " ".join(map(str, cards))
            msg = f"more than two copies of {str(card)!r} in {shown!r}"
            raise InvalidCardError(msg, problem="too-many-copies", token=str(card))
    return mask


def _hand_mask(mask: int) -> int:
    """*mask* if it is a multiset of at most two decks (the converter of `Hand`).

    Raises:
        TypeError: *mask* is not an int.
        InvalidCardError: *mask* is negative, has bits beyond two decks, or a second
            copy of a card without the first.
    """
    if isinstance(mask, bool) or not isinstance(mask, int):
        msg = f"expected a hand mask (an int), got {type(mask).__name__}"
        raise TypeError(msg)
    mask = int.__index__(mask)  # a plain int, whatever int subclass came in
    problem = None
    if mask < 0:
        problem = "it is negative"
    elif mask >> 2 * _bits.CARDS:
        problem = f"it has {mask.bit_length()} bits, two decks need 104"
    elif second := mask >> _bits.CARDS & ~mask:
        card = DECK[(second & -second).bit_length() - 1]
        problem = f"it holds a second copy of {str(card)!r} without the first"
    if problem is not None:
        msg = f"not a hand mask: {problem}"
        raise InvalidCardError(msg)
    return mask


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a multiset mask in ascending order (private helper).

    Example:
        >>> from tienlen.cards import cards_of
        >>> cards_of(17)
        (Card.parse('3s'), Card.parse('4s'))
    """
    deck = DECK
    return tuple(deck[i] for i in _bits.indices(mask))


@attrs.frozen
class Hand:
    """An immutable multiset of cards: a player's hand.

    Iteration is in ascending card order. With one deck a hand is a set; two-deck
    games (RULES §2.1) may hold two copies of a card, never three. ``Hand(mask)``
    accepts only a valid `mask` (`InvalidCardError` otherwise).

    ``a | b`` is the union, ``a & b`` the intersection, ``a - b`` removes cards (never
    below zero copies), ``a + b`` adds them, ``a <= b`` tests inclusion.

    Example:
        >>> hand = Hand.parse("5h 3s 4s")
        >>> str(hand), len(hand), Card.parse("4s") in hand
        ('3s 4s 5h', 3, True)
        >>> hand - Hand.parse("4s")
        Hand.parse('3s 5h')
        >>> Hand.parse("3s") <= hand
        True
    """

    _mask: int = attrs.field(repr=False, converter=_hand_mask)

    @classmethod
    def parse(cls, text: str) -> Self:
        """Parse card text (see `parse_cards`) into a hand.

        Raises:
            InvalidCardError: the text holds a non-card or a third copy of a card.

        Example:
            >>> Hand.parse("2h,3s")
            Hand.parse('3s 2h')
        """
        return cls(mask_of(parse_cards(text), text))

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> Self:
        """Build a hand from cards in any order.

        Raises:
            InvalidCardError: a card appears three or more times.

        Example:
            >>> Hand.from_cards([Card.parse("Ah"), Card.parse("3c")])
            Hand.parse('3c Ah')
        """
        return cls(mask_of(as_cards(cards)))

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards in ascending order.

        Example:
            >>> [str(card) for card in Hand.parse("Ah 3s").cards]
            ['3s', 'Ah']
        """
        return cards_of(self._mask)

    @property
    def mask(self) -> int:
        """The hand as an int, with bit ``i`` for card ``i`` and bit ``52 + i`` for its second copy.

        Example:
            >>> from tienlen import Hand
            >>> Hand.parse("3s 4s").mask, Hand.parse("3c").mask
            (17, 2)
            >>> Hand(17) == Hand.parse("3s 4s")
            True
        """
        return self._mask

    def count(self, card: Card) -> int:
        """How many copies of *card* the hand holds (0, 1 or 2).

        Raises:
            TypeError: *card* is not a `Card`.

        Example:
            >>> Hand.parse("7h 7h 8s").count(Card.parse("7h"))
            2
        """
        if not isinstance(card, Card):
            msg = f"expected a Card, got {type(card).__name__}"  # type: ignore[unreachable]
            raise TypeError(msg)
        return (self._mask >> card.index & 1) + (
            self._mask >> (_bits.CARDS + card.index) & 1
        )

    def unicode(self) -> str:
        """The hand as players write it, with ``10`` and suit symbols.

        Example:
            >>> Hand.parse("3s 4s Th").unicode()
            '3♠ 4♠ 10♥'
        """
        return " ".join(card.unicode() for card in self)

    def _repr_svg_(self) -> str:
        """The hand as an SVG picture, for Jupyter (see `tienlen.svg.hand`)."""
        from tienlen import svg  # noqa: PLC0415  # svg imports this module

        return svg.hand(self)

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __bool__(self) -> bool:
        return self._mask != 0

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self._mask >> card.index & 1)

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"

    def __or__(self, other: Hand) -> Hand:
        if not isinstance(other, Hand):
            return NotImplemented
        return Hand(self._mask | other._mask)  # multiset union: the larger count

    def __and__(self, other: Hand) -> Hand:
        if not isinstance(other, Hand):
            return NotImplemented
        return Hand(self._mask & other._mask)  # multiset intersection: the smaller

    def __sub__(self, other: Hand) -> Hand:
        if not isinstance(other, Hand):
            return NotImplemented
        return Hand(_bits.difference(self._mask, other._mask))

    def __add__(self, other: Hand) -> Hand:
        if not isinstance(other, Hand):
            return NotImplemented
        overflow = _bits.overflowing_sum(self._mask, other._mask)
        if overflow:
            card = DECK[_bits.top_card(overflow)]
            msg = f"more than two copies of {str(card)!r} in {self} + {other}"
            raise InvalidCardError(msg, problem="too-many-copies", token=str(card))
        return Hand(_bits.multiset_sum(self._mask, other._mask))

    def __le__(self, other: Hand) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return _bits.is_submultiset(self._mask, other._mask)

    def __ge__(self, other: Hand) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return _bits.is_submultiset(other._mask, self._mask)


def as_hand(hand: Hand | str | Iterable[Card]) -> Hand:
    """*hand* as a `Hand`: a hand itself, or its cards as text or as `Card` values.

    Raises:
        InvalidCardError: *hand* is text that names no cards (`parse_cards`), or
            holds more than two copies of a card.

    Example:
        >>> as_hand("3s 4h") == as_hand([Card.parse("3s"), Card.parse("4h")]) == Hand.parse("3s 4h")
        True
    """
    if isinstance(hand, Hand):
        return hand
    text = hand if isinstance(hand, str) else None
    return Hand(mask_of(as_cards(hand), text))
