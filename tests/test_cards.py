"""Cards, ranks, suits, parsing and hands (RULES §1.1)."""

from __future__ import annotations

import time
import unicodedata
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.strategies import cards, hands
from tienlen import DECK, Card, Hand, InvalidCardError, Rank, Suit, parse_cards
from tienlen.cards import MAX_CARDS, MAX_TEXT_LENGTH

WORDS = {"bích": "s", "chuồn": "c", "nhép": "c", "tép": "c", "rô": "d", "cơ": "h"}
"""The Vietnamese suit words card text accepts, and the letter each stands for."""


@pytest.mark.parametrize(("word", "letter"), sorted(WORDS.items()))
def test_vietnamese_suit_words(word: str, letter: str) -> None:
    """Issue 22 item 2: ``7 cơ`` is 7h, with or without a space, in any case, NFC or NFD."""
    expected = parse_cards(f"7{letter} 10{letter}")
    for text in (
        f"7 {word} 10 {word}",
        f"7{word},10{word}",
        f"7 {word.upper()} 10{word}",
    ):
        assert parse_cards(text) == expected, text
        assert parse_cards(unicodedata.normalize("NFD", text)) == expected, text


PLAIN_WORDS = {"bich": "s", "chuon": "c", "nhep": "c", "tep": "c", "ro": "d", "co": "h"}
"""The suit words typed without accents, and the letter each stands for."""


@pytest.mark.parametrize(("word", "letter"), sorted(PLAIN_WORDS.items()))
def test_vietnamese_suit_words_without_accents(word: str, letter: str) -> None:
    """``7 co`` is 7h as ``7 cơ`` is: with or without a space, in any case."""
    expected = parse_cards(f"7{letter} 10{letter}")
    for text in (f"7 {word} 10 {word}", f"7{word},10{word}", f"7 {word.upper()} Tc"):
        assert parse_cards(text)[0] == expected[0], text
    assert parse_cards(f"7 {word} 10 {word}") == expected


def test_words_without_accents_change_no_card_text() -> None:
    """``c`` stays clubs next to ``co``; a word alone or run into letters is no card."""
    assert parse_cards("7c 8 co 9c") == parse_cards("7c 8h 9c")
    assert parse_cards("Tc Kd") == parse_cards("10c Kd")
    for text in ("co", "7 cox", "7 bichx", "ro 7", "7 c o", "7 tepid"):
        with pytest.raises(InvalidCardError):
            parse_cards(text)


def test_suit_words_need_a_rank_and_end_as_words() -> None:
    """A suit word alone, or run into more letters, is no card."""
    for text in ("cơ", "7 cơm", "7 bíchx"):
        with pytest.raises(InvalidCardError):
            parse_cards(text)


@pytest.mark.parametrize("text", ["7 b\u0131ch", "7 B\u0130CH", "K\u212aco"])
def test_look_alikes_of_suit_words_are_refused(text: str) -> None:
    """Letters that only match a suit word ignoring case (a dotless i) are no card.

    They used to escape as a `KeyError` (found by the card fuzzer).
    """
    with pytest.raises(InvalidCardError):
        parse_cards(text)


@pytest.mark.parametrize(
    ("text", "en", "vi"),
    [
        (
            "11h",
            "11h is not a card: write J for the jack.",
            "11h không phải là lá bài: hãy gõ J cho lá bồi.",
        ),
        (
            "12s",
            "12s is not a card: write Q for the queen.",
            "12s không phải là lá bài: hãy gõ Q cho lá đầm.",
        ),
        (
            "13d",
            "13d is not a card: write K for the king.",
            "13d không phải là lá bài: hãy gõ K cho lá già.",
        ),
        (
            "1c",
            "1c is not a card: write A for the ace.",
            "1c không phải là lá bài: hãy gõ A cho lá xì.",
        ),
        (
            "3s 7",
            "7 has no suit: add s, c, d or h (spades, clubs, diamonds, hearts).",
            "7 thiếu chất: thêm s (bích), c (chuồn), d (rô) hoặc h (cơ).",
        ),
        (
            "7x",
            "7x is not a card: the suit is s, c, d or h (spades, clubs, diamonds, hearts).",
            "7x không phải là lá bài: chất là s (bích), c (chuồn), d (rô) hoặc h (cơ).",
        ),
        (
            "zz",
            "zz is not a card: write a rank (3 to 10, J, Q, K, A, 2) and a suit (s, c, d, h), such as 7h.",
            "zz không phải là lá bài: hãy gõ số (3 đến 10, J, Q, K, A, 2) rồi chất (s, c, d, h), ví dụ 7h.",
        ),
        ("3s " * 400, "That text is too long.", "Chuỗi này dài quá."),
        (
            "3s" * 105,
            "That is more cards than two decks hold.",
            "Số lá nhiều hơn cả hai bộ bài.",
        ),
    ],
    ids=[
        "jack",
        "queen",
        "king",
        "ace",
        "no-suit",
        "bad-suit",
        "bad-rank",
        "long",
        "many",
    ],
)
def test_invalid_card_error_speaks_to_the_player(text: str, en: str, vi: str) -> None:
    """Issue 22 item 2: `InvalidCardError.message` is a sentence in both languages."""
    with pytest.raises(InvalidCardError) as info:
        parse_cards(text)
    assert (info.value.message(), info.value.message("vi")) == (en, vi)


def test_a_card_named_too_often_has_its_own_sentence() -> None:
    """A card held twice under one deck, or three times, is named in both languages."""
    from tienlen import CLASSIC  # noqa: PLC0415

    calls: list[tuple[Callable[[], object], str, str, str]] = [
        (
            lambda: CLASSIC.classify("10h 10h"),
            "duplicate",
            "You named 10♥ twice: one deck has only one.",
            "Bạn gõ 10♥ hai lần: một bộ bài chỉ có một lá này.",
        ),
        (
            lambda: Hand.parse("3s 3s 3s"),
            "too-many-copies",
            "You named 3♠ more than twice: two decks have only two.",
            "Bạn gõ 3♠ hơn hai lần: hai bộ bài chỉ có hai lá này.",
        ),
        (
            lambda: Hand.parse("4h 4h") + Hand.parse("4h"),
            "too-many-copies",
            "You named 4♥ more than twice: two decks have only two.",
            "Bạn gõ 4♥ hơn hai lần: hai bộ bài chỉ có hai lá này.",
        ),
    ]
    for call, problem, en, vi in calls:
        with pytest.raises(InvalidCardError) as info:
            call()
        error = info.value
        assert (error.problem, error.message(), error.message("vi")) == (
            problem,
            en,
            vi,
        )
    broken = InvalidCardError("x", problem="duplicate")  # no card: the general sentence
    assert broken.message() == "That is not card text: type cards such as 7h 7s."
    unreadable = InvalidCardError("x", problem="duplicate", token="7x")  # noqa: S106
    assert unreadable.message("vi") == "Đó không phải là các lá bài: hãy gõ như 7h 7s."


def test_an_invalid_card_error_from_elsewhere_has_a_general_sentence() -> None:
    """An error raised without a known problem still gives a sentence, and pickles."""
    import pickle  # noqa: PLC0415

    error = InvalidCardError("expected one card, got 2 in '3s 4s'")
    assert error.message() == "That is not card text: type cards such as 7h 7s."
    made = InvalidCardError("x", problem="missing-suit", token="7")  # noqa: S106
    copy = pickle.loads(pickle.dumps(made))  # noqa: S301
    assert (copy.problem, copy.token, copy.message("vi")) == (
        "missing-suit",
        "7",
        "7 thiếu chất: thêm s (bích), c (chuồn), d (rô) hoặc h (cơ).",
    )


TEN_OF_HEARTS = Card(Rank.TEN, Suit.HEARTS)
ALL_CARDS = [pytest.param(card, id=str(card)) for card in DECK]


# -- ranks, suits and the total order -------------------------------------------------


def test_rank_order() -> None:
    """RULES §1.1: ranks run 3 4 5 6 7 8 9 10 J Q K A 2, low to high."""
    assert [rank.symbol for rank in sorted(Rank)] == [
        "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2",
    ]  # fmt: skip
    assert "".join(rank.letter for rank in sorted(Rank)) == "3456789TJQKA2"


def test_suit_order() -> None:
    """RULES §1.1: suits run ♠ < ♣ < ♦ < ♥."""
    assert "".join(suit.symbol for suit in sorted(Suit)) == "♠♣♦♥"
    assert "".join(suit.letter for suit in sorted(Suit)) == "scdh"
    assert [suit.is_red for suit in sorted(Suit)] == [False, False, True, True]


@pytest.mark.parametrize("enum_type", [Rank, Suit])
def test_rank_and_suit_compare_only_with_their_own_kind(
    enum_type: type[Rank | Suit],
) -> None:
    """RULES §1.1: ranks and suits have separate orders; mixing them is a TypeError."""
    member = next(iter(enum_type))
    with pytest.raises(TypeError):
        _ = member < 0
    with pytest.raises(TypeError):
        _ = Rank.TWO > Suit.SPADES
    assert sorted(enum_type, reverse=True) == sorted(enum_type, key=lambda m: -m.value)


def test_deck_is_the_52_cards_in_order() -> None:
    """RULES §1.1: index = rank * 4 + suit, 3♠ = 0 … 2♥ = 51, one total order."""
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert list(range(52)) == [card.index for card in DECK]
    assert sorted(DECK) == list(DECK)
    assert Card(Rank.THREE, Suit.SPADES) == DECK[0]
    assert Card(Rank.TWO, Suit.HEARTS) == DECK[51]
    for card in DECK:
        assert card.rank.value * 4 + card.suit.value == card.index
        assert 1 << card.index == card.mask


def test_rank_before_suit() -> None:
    """RULES §1.1: rank before suit, so 8♠ beats 7♥."""
    assert Card.parse("8s") > Card.parse("7h")
    assert Card.parse("7h") < Card.parse("8s")
    assert Card.parse("7h") > Card.parse("7d")
    assert Card.parse("As") < Card.parse("2s")


@given(cards(), cards())
def test_card_order_is_index_order(first: Card, second: Card) -> None:
    """RULES §1.1: comparing cards is comparing their places in the total order."""
    assert (first < second) == (first.index < second.index)
    assert (first <= second) == (first.index <= second.index)
    assert (first > second) == (first.index > second.index)
    assert (first >= second) == (first.index >= second.index)
    assert (first == second) == (first.index == second.index)
    assert ((first.rank, first.suit) < (second.rank, second.suit)) == (first < second)


def test_card_equality_and_hash() -> None:
    """RULES §1.1: cards built any way are equal and hash alike; they never equal text."""
    assert Card.parse("Th") == TEN_OF_HEARTS
    assert hash(TEN_OF_HEARTS) == hash(Card.parse("10♥"))
    assert len({Card.parse("Th"), Card.parse("10h"), TEN_OF_HEARTS}) == 1
    assert TEN_OF_HEARTS != "Th"
    with pytest.raises(TypeError):
        _ = TEN_OF_HEARTS < "Th"  # type: ignore[operator]


def test_card_from_index() -> None:
    """RULES §1.1: `Card.from_index` is the inverse of `Card.index`, only for 0…51."""
    assert [Card.from_index(i) for i in range(52)] == list(DECK)
    for bad in (-1, 52):
        with pytest.raises(
            InvalidCardError,
            match=rf"^card index out of range: {bad} \(expected 0-51\)$",
        ):
            Card.from_index(bad)


@pytest.mark.parametrize(
    "index", [True, 3.0, "3", None], ids=["bool", "float", "str", "none"]
)
def test_card_from_index_refuses_other_types(index: object) -> None:
    """STYLE R36: an index that is not an int is a TypeError (``True`` is no index)."""
    with pytest.raises(TypeError, match="expected a card index"):
        Card.from_index(index)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rank", "suit", "message"),
    [
        (Suit.HEARTS, Rank.TWO, "a card's rank must be a Rank, got Suit"),
        (Rank.TWO, Rank.TWO, "a card's suit must be a Suit, got Rank"),
        (1, 2, "a card's rank must be a Rank, got int 1"),
        (Rank.TWO, 3, "a card's suit must be a Suit, got int 3"),
        ("T", "h", "a card's rank must be a Rank, got str 'T'"),
        (Rank.TEN, None, "a card's suit must be a Suit, got NoneType None"),
    ],
)
def test_card_refuses_anything_but_a_rank_and_a_suit(
    rank: object, suit: object, message: str
) -> None:
    """Issue 14 items 4, 8: swapped or wrong arguments are a TypeError, not a wrong card."""
    with pytest.raises(TypeError) as info:
        Card(rank, suit)  # type: ignore[arg-type]
    assert str(info.value).startswith(message)
    assert not isinstance(info.value, InvalidCardError)


# -- text forms ---------------------------------------------------------------------


@pytest.mark.parametrize("card", ALL_CARDS)
def test_card_text_round_trip(card: Card) -> None:
    """RULES §1.1: str, unicode and repr of every card read back as the same card."""
    assert card == Card.parse(str(card))
    assert card == Card.parse(card.unicode())
    assert card == Card.parse(str(card).upper())
    assert f"Card.parse({str(card)!r})" == repr(card)
    assert len(str(card)) == 2
    assert card.rank.letter + card.suit.letter == str(card)
    assert card.rank.symbol + card.suit.symbol == card.unicode()


@pytest.mark.parametrize(
    "text",
    ["10h", "Th", "TH", "tH", "th", "10H", "10♥", "t♡", "T♥", "10♡"],
)
def test_every_accepted_form_of_a_card(text: str) -> None:
    """RULES §1.1: 10h, Th, TH, 10♥ and t♡ are all the ten of hearts."""
    assert parse_cards(text) == (TEN_OF_HEARTS,)
    assert Card.parse(text) == TEN_OF_HEARTS


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("3♠", Suit.SPADES),
        ("3♤", Suit.SPADES),
        ("3S", Suit.SPADES),
        ("3♣", Suit.CLUBS),
        ("3♧", Suit.CLUBS),
        ("3C", Suit.CLUBS),
        ("3♦", Suit.DIAMONDS),
        ("3♢", Suit.DIAMONDS),
        ("3D", Suit.DIAMONDS),
        ("3♥", Suit.HEARTS),
        ("3♡", Suit.HEARTS),
        ("3H", Suit.HEARTS),
    ],
)
def test_suit_symbols(text: str, suit: Suit) -> None:
    """RULES §1.1: suits are read from letters and from filled or outline symbols."""
    assert Card(Rank.THREE, suit) == Card.parse(text)


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("js", Rank.JACK),
        ("Js", Rank.JACK),
        ("qs", Rank.QUEEN),
        ("ks", Rank.KING),
        ("as", Rank.ACE),
        ("As", Rank.ACE),
        ("2s", Rank.TWO),
        ("9s", Rank.NINE),
    ],
)
def test_rank_letters_are_case_insensitive(text: str, rank: Rank) -> None:
    """RULES §1.1: rank letters may be upper or lower case."""
    assert Card(rank, Suit.SPADES) == Card.parse(text)


@pytest.mark.parametrize(
    "text",
    [
        "3s 4s 5h",
        "3s,4s,5h",
        "3s, 4s, 5h",
        "3s4s5h",
        "  3s\t4s\n5h  ",
        ",3s ,, 4s,5h,",
        "3♠4♠5♥",
        "3S 4S 5H",
    ],
)
def test_separators(text: str) -> None:
    """RULES §1.1: cards are separated by whitespace, commas or nothing, in order."""
    assert (Card.parse("3s"), Card.parse("4s"), Card.parse("5h")) == parse_cards(text)


def test_parse_keeps_order_and_duplicates() -> None:
    """RULES §1.1: parse_cards keeps the order given and both copies of a two-deck card."""
    assert [str(c) for c in parse_cards("5h 3s 5h 10h")] == ["5h", "3s", "5h", "Th"]
    assert parse_cards("") == ()
    assert parse_cards(" , ") == ()


@pytest.mark.parametrize(
    "text",
    ["3s\f4s\v5h", "3s\r\n4s\r5h", "\t3s,\n4s ,5h\f"],
    ids=["form-feed-and-vertical-tab", "carriage-returns", "mixed"],
)
def test_every_ascii_whitespace_separates(text: str) -> None:
    """RULES §1.1: the separators are ASCII whitespace (space, tab, LF, CR, FF, VT) and commas."""
    assert parse_cards(text) == parse_cards("3s 4s 5h")


LOOK_ALIKES = [
    pytest.param("\u212ah", "unknown rank '\u212a' (U+212A)", id="kelvin-sign-as-K"),
    pytest.param("3\u017f", "unknown suit '\u017f' (U+017F)", id="long-s-as-s"),
    pytest.param("\uff13s", "unknown rank '\uff13' (U+FF13)", id="full-width-3"),
    pytest.param("3\uff53", "unknown suit '\uff53' (U+FF53)", id="full-width-s"),
    pytest.param("1\uff10h", "unknown rank '1'", id="full-width-0-in-10"),
    pytest.param("\u0399s", "unknown rank '\u0399' (U+0399)", id="greek-iota"),
    pytest.param("\uff21s", "unknown rank '\uff21' (U+FF21)", id="full-width-A"),
    pytest.param("3s\u001c4s", "unknown rank '\\x1c'", id="file-separator"),
    pytest.param("3s\u001f4s", "unknown rank '\\x1f'", id="unit-separator"),
    pytest.param("3s\u200b4s", "unknown rank '\\u200b'", id="zero-width-space"),
    pytest.param("3s\uff0c4s", "unknown rank '\uff0c' (U+FF0C)", id="full-width-comma"),
]


@pytest.mark.parametrize(("text", "reason"), LOOK_ALIKES)
def test_look_alikes_and_other_separators_are_refused(text: str, reason: str) -> None:
    """Issue 14 item 9: only ASCII letters, digits, whitespace, commas and suit symbols.

    Case folding maps nothing else onto them; the message names a look-alike's code.
    """
    with pytest.raises(InvalidCardError) as info:
        parse_cards(text)
    assert str(info.value).endswith(reason)


@pytest.mark.parametrize(
    "space",
    ["\u00a0", "\u2003", "\u3000", "\u2028", "\x85", "\u202f"],
    ids=["no-break", "em", "ideographic", "line-separator", "next-line", "narrow-nbsp"],
)
def test_unicode_spaces_separate_like_a_space(space: str) -> None:
    """Issue 20 finding 9: any Unicode space separates cards as an ASCII space does."""
    assert parse_cards(f"3s{space}4s {space}5h{space}") == parse_cards("3s 4s 5h")


def test_an_error_after_a_unicode_space_quotes_the_text_as_typed() -> None:
    """The offset and the quoted text are those of the input, spaces included."""
    with pytest.raises(InvalidCardError) as info:
        parse_cards("3s\u00a0zz")
    assert str(info.value) == (
        "invalid card 'zz' in '3s\\xa0zz' (at 3): unknown rank 'z'"
    )


@given(st.text(min_size=1, max_size=12))
def test_text_with_a_foreign_character_never_parses(text: str) -> None:
    """Issue 14 item 9: other characters are always refused.

    Allowed are ASCII, suit symbols, Unicode spaces and the Vietnamese suit words.
    """
    suits = "♠♣♦♥♤♧♢♡"
    words = "".join(WORDS)
    if all(
        char.isascii()
        or char in suits
        or char.isspace()
        or char in words
        or unicodedata.combining(char)
        for char in text
    ):
        return
    with pytest.raises(InvalidCardError):
        parse_cards(text)


def test_huge_text_is_refused_at_once() -> None:
    """Issue 14 item 9: more than `MAX_TEXT_LENGTH` characters are refused unread."""
    huge = "3s " * 5_000_000
    start = time.perf_counter()
    with pytest.raises(InvalidCardError) as info:
        parse_cards(huge)
    assert time.perf_counter() - start < 0.05
    assert str(info.value) == (
        "card text of 15,000,000 characters, more than the 1,000 allowed"
    )
    longest = " " * (MAX_TEXT_LENGTH - 2) + "3s"
    assert parse_cards(longest) == (Card.parse("3s"),)
    with pytest.raises(InvalidCardError):
        parse_cards(longest + " ")


def test_at_most_two_decks_of_cards_are_read() -> None:
    """RULES §2.1: text of more than `MAX_CARDS` (104) cards can be no hand or play."""
    two_decks = "".join(str(card) * 2 for card in DECK)
    assert len(parse_cards(two_decks)) == MAX_CARDS == 104
    with pytest.raises(InvalidCardError, match=r"105 cards in .*, more than the 104"):
        parse_cards(two_decks + "3s")


def test_errors_on_long_text_quote_only_the_place() -> None:
    """STYLE R39: a bad token in long text is quoted around its offset, cut short."""
    text = "3s " * 300 + "x" * 90
    with pytest.raises(InvalidCardError) as info:
        parse_cards(text)
    message = str(info.value)
    assert len(message) < 200
    assert "(at 900): unknown rank 'x'" in message
    assert "…" in message


def test_errors_on_control_characters_stay_short() -> None:
    """STYLE R39: text whose repr is four times longer (control characters) is cut too.

    Found by fuzz/fuzz_cards.py: 40 characters of U+0005 made a 303-character message.
    """
    with pytest.raises(InvalidCardError) as info:
        parse_cards("\x05" * 40 + "z")
    assert len(str(info.value)) < 200


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3s 1x 5h", "invalid card '1x' in '3s 1x 5h' (at 3): unknown rank '1'"),
        ("3x", "invalid card '3x' in '3x' (at 0): unknown suit 'x'"),
        ("3s 4", "invalid card '4' in '3s 4' (at 3): missing suit"),
        ("3s4", "invalid card '4' in '3s4' (at 2): missing suit"),
        ("10", "invalid card '10' in '10' (at 0): missing suit"),
        ("3s4x5h", "invalid card '4x5h' in '3s4x5h' (at 2): unknown suit 'x'"),
        ("3s, Zh", "invalid card 'Zh' in '3s, Zh' (at 4): unknown rank 'Z'"),
        ("1s", "invalid card '1s' in '1s' (at 0): unknown rank '1': write A"),
        ("11h", "invalid card '11h' in '11h' (at 0): unknown rank '11': write J"),
        ("3s♥", "invalid card '♥' in '3s♥' (at 2): unknown rank '♥'"),
    ],
)
def test_parse_error_messages(text: str, message: str) -> None:
    """RULES §1.1 (STYLE R39): a bad token is reported with the input, token and offset."""
    with pytest.raises(InvalidCardError) as info:
        parse_cards(text)
    assert message == str(info.value)


def test_card_parse_wants_exactly_one_card() -> None:
    """RULES §1.1: Card.parse reads one card and says how many it got otherwise."""
    with pytest.raises(InvalidCardError) as info:
        Card.parse("3s 4s")
    assert str(info.value) == "expected one card, got 2 in '3s 4s'"
    with pytest.raises(InvalidCardError) as info:
        Card.parse("")
    assert str(info.value) == "expected one card, got 0 in ''"


def test_parse_rejects_non_text() -> None:
    """STYLE R36: wrong types are a plain TypeError, not a card error."""
    with pytest.raises(TypeError) as info:
        parse_cards(3)  # type: ignore[arg-type]
    assert not isinstance(info.value, InvalidCardError)


@given(st.text())
def test_parse_cards_returns_or_raises_invalid_card_error(text: str) -> None:
    """RULES §1.1 (STYLE R53): any text either parses or raises InvalidCardError."""
    message = None
    try:
        parsed = parse_cards(text)
    except InvalidCardError as error:
        message = str(error)
    else:
        assert all(isinstance(card, Card) for card in parsed)
    assert message is None or repr(text) in message or len(repr(text)) > 60
    assert message is None or len(message) < 300


@given(st.lists(cards()), st.lists(st.sampled_from(["", " ", ",", ", ", "\t", "\n"])))
def test_parse_cards_reads_generated_text(
    chosen: list[Card], separators: list[str]
) -> None:
    """RULES §1.1: any cards written in any accepted form, any separators, parse back."""
    forms: list[Callable[[Card], str]] = [
        str,
        Card.unicode,
        lambda c: str(c).upper(),
        lambda c: c.rank.symbol + c.suit.letter,
    ]
    text = "".join(
        forms[i % len(forms)](card)
        + (separators[i % len(separators)] if separators else " ")
        for i, card in enumerate(chosen)
    )
    assert tuple(chosen) == parse_cards(text)


# -- hands ----------------------------------------------------------------------------


def test_hand_basics() -> None:
    """RULES §1.1: a hand is a multiset of cards iterated in ascending order."""
    hand = Hand.parse("5h 3s Th 4s")
    assert [str(card) for card in hand] == ["3s", "4s", "5h", "Th"]
    assert str(hand) == "3s 4s 5h Th"
    assert hand.unicode() == "3♠ 4♠ 5♥ 10♥"
    assert repr(hand) == "Hand.parse('3s 4s 5h Th')"
    assert len(hand) == 4
    assert Card.parse("Th") in hand
    assert Card.parse("Td") not in hand
    assert "Th" not in hand
    assert hand.count(Card.parse("4s")) == 1
    assert hand.count(Card.parse("4c")) == 0
    assert hand
    assert not Hand.parse("")
    assert len(Hand.parse("")) == 0
    assert hand == Hand.from_cards(parse_cards("Th 4s 5h 3s"))
    assert hand == Hand.from_cards(reversed(hand.cards))
    assert hash(hand) == hash(Hand.parse("3s 4s 5h 10h"))


def test_two_deck_hand() -> None:
    """RULES §1.1, §2.1: with two decks a hand may hold two copies of a card, never three."""
    hand = Hand.parse("7h 3s 7h")
    assert [str(card) for card in hand] == ["3s", "7h", "7h"]
    assert len(hand) == 3
    assert hand.count(Card.parse("7h")) == 2
    assert str(hand) == "3s 7h 7h"
    with pytest.raises(InvalidCardError) as info:
        Hand.parse("3s 3s 3s")
    assert str(info.value) == "more than two copies of '3s' in '3s 3s 3s'"
    with pytest.raises(InvalidCardError, match="more than two copies of '3s'"):
        Hand.from_cards([Card.parse("3s")] * 3)


def test_hand_operators() -> None:
    """RULES §1.1: hand union, intersection, difference, sum and inclusion are multiset ops."""
    a = Hand.parse("3s 3s 4h 5d")
    b = Hand.parse("3s 4h 4h 6c")
    assert Hand.parse("3s 3s 4h 4h 5d 6c") == a | b
    assert Hand.parse("3s 4h") == a & b
    assert Hand.parse("3s 5d") == a - b
    assert Hand.parse("4h 6c") == b - a
    assert Hand.parse("5d") == a - b - b  # never below zero copies
    assert Hand.parse("") == Hand.parse("3s") - Hand.parse("3s 3s")
    assert Hand.parse("3s 3s 4h 5d 6c") == a + Hand.parse("6c 4c") - Hand.parse("4c")
    assert Hand.parse("3s 4h") <= a
    assert a >= Hand.parse("3s 3s")
    assert not Hand.parse("3s 3s") <= b
    assert a <= Hand.parse(str(a))
    with pytest.raises(
        InvalidCardError, match=r"^more than two copies of '(3s|4h)' in "
    ):
        _ = a + b


def test_hand_operators_reject_other_types() -> None:
    """STYLE R36: hands combine only with hands; anything else is a TypeError."""
    hand = Hand.parse("3s")
    with pytest.raises(TypeError):
        _ = hand | {Card.parse("3s")}  # type: ignore[operator]
    with pytest.raises(TypeError):
        _ = hand + "4s"  # type: ignore[operator]


@given(hands(0, 20, decks=2), hands(0, 20, decks=2))
def test_hand_operators_match_counters(a: Hand, b: Hand) -> None:
    """RULES §1.1: hand operators agree with multiset (Counter) arithmetic."""
    ca, cb = Counter(a), Counter(b)
    assert ca | cb == Counter(a | b)
    assert ca & cb == Counter(a & b)
    assert ca - cb == Counter(a - b)
    assert (a <= b) == all(cb[card] >= n for card, n in ca.items())
    assert (a >= b) == (b <= a)
    total = ca + cb
    if max(total.values(), default=0) <= 2:
        assert total == Counter(a + b)
    else:
        with pytest.raises(InvalidCardError):
            _ = a + b
    assert sorted(a) == list(a)
    assert len(list(a)) == len(a)
    assert all(card in a and a.count(card) == n for card, n in ca.items())


@given(hands(0, 26, decks=2))
def test_hand_text_round_trip(hand: Hand) -> None:
    """RULES §1.1 (STYLE R53): Hand.parse(str(h)) == h, also for the unicode form."""
    assert hand == Hand.parse(str(hand))
    assert hand == Hand.parse(hand.unicode())
    assert hand == Hand.from_cards(hand.cards)
    assert f"Hand.parse({str(hand)!r})" == repr(hand)


@pytest.mark.parametrize(
    ("mask", "message"),
    [
        (-1, "not a hand mask: it is negative"),
        (1 << 104, "not a hand mask: it has 105 bits, two decks need 104"),
        (1 << 200, "not a hand mask: it has 201 bits, two decks need 104"),
        (1 << 52, "not a hand mask: it holds a second copy of '3s' without the first"),
        (
            (1 << 51) | 1 << 103 | 1 << 60,
            "not a hand mask: it holds a second copy of '5s' without the first",
        ),
    ],
    ids=["negative", "bit-104", "bit-200", "second-copy-only", "second-copy-of-5s"],
)
def test_hand_refuses_a_mask_no_multiset_has(mask: int, message: str) -> None:
    """Issue 14 item 4: ``Hand(mask)`` takes only masks of at most two decks."""
    with pytest.raises(InvalidCardError) as info:
        Hand(mask)
    assert str(info.value) == message


@pytest.mark.parametrize("mask", [True, 1.0, "3s", None, [1]])
def test_hand_refuses_a_mask_that_is_no_int(mask: object) -> None:
    """STYLE R36: a mask that is not an int is a TypeError (``True`` is no mask)."""
    with pytest.raises(TypeError, match="expected a hand mask"):
        Hand(mask)  # type: ignore[arg-type]


def test_hand_keeps_a_plain_int() -> None:
    """A mask given as an int subclass is stored as the plain int it equals."""

    class Sneaky(int):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = int.__hash__

    hand = Hand(Sneaky(3))
    assert type(hand.mask) is int
    assert hand == Hand.parse("3s 3c")
    assert hand != Hand.parse("3s")


@given(st.integers(-(2**8), 2**110))
def test_hand_mask_is_valid_exactly_when_cards_make_it(mask: int) -> None:
    """Issue 14 item 4: a mask is accepted iff it is the mask of a multiset of cards."""
    try:
        hand = Hand(mask)
    except InvalidCardError:
        valid = mask >= 0 and mask < 1 << 104 and not (mask >> 52) & ~mask
        assert not valid
    else:
        assert Hand.from_cards(hand.cards).mask == mask


@given(hands(0, 26, decks=2))
def test_every_hand_mask_is_accepted(hand: Hand) -> None:
    """Every hand's mask builds the same hand again."""
    assert Hand(hand.mask) == hand


def test_hand_count_refuses_other_types() -> None:
    """STYLE R36: `Hand.count` of something that is not a card is a TypeError."""
    with pytest.raises(TypeError, match="expected a Card"):
        Hand.parse("3s").count("3s")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ba bích", "invalid card 'ba bích' in 'ba bích' (at 0): unknown rank 'b'"),
        ("7 cơ, 8 bíchx", "invalid card '8' in '7 cơ, 8 bíchx' (at 6): missing suit"),
        ("3 bích xx", "invalid card 'xx' in '3 bích xx' (at 7): unknown rank 'x'"),
        (
            "14 bích",
            "invalid card '14 bích' in '14 bích' (at 0): unknown rank '14': write A",
        ),
        ("7 co 9x", "invalid card '9x' in '7 co 9x' (at 5): unknown suit 'x'"),
    ],
)
def test_an_error_after_suit_words_quotes_the_words_typed(
    text: str, message: str
) -> None:
    """Issue 34 item 17: the token, text and offset are the player's, not the letters read.

    ``ba bích`` was refused as ``'bas'``: its ``a`` and ``bích`` read as the ace of
    spades before the parse.
    """
    with pytest.raises(InvalidCardError) as info:
        parse_cards(text)
    assert str(info.value) == message


@given(
    st.lists(
        st.sampled_from(
            ["ba", "a", "7", "10", "1", "x", "s", "bích", "cơ", "co", "ro", "tép", "ỏ"]
        ),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from([" ", "", ", ", "\u00a0"]),
)
def test_a_refused_token_is_the_text_typed_at_its_offset(
    words: list[str], space: str
) -> None:
    """Issue 34 item 17: every refusal quotes a token of the text as typed, where it stands."""
    text = space.join(words)
    try:
        parse_cards(text)
    except InvalidCardError as caught:
        error = caught
    else:
        return
    message = str(error)
    assert error.token is not None
    at = int(message.rpartition(" (at ")[2].partition(")")[0])
    assert text[at:].startswith(error.token)
    assert message.startswith(f"invalid card {error.token!r} in {text!r} (at {at})")
