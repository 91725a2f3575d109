"""Cards, ranks, suits, parsing and hands (RULES §1.1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.strategies import cards, hands
from tienlen import DECK, Card, Hand, InvalidCardError, Rank, Suit, parse_cards

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
    ("text", "message"),
    [
        ("3s 1x 5h", "invalid card '1x' in '3s 1x 5h' (at 3): unknown rank '1'"),
        ("3x", "invalid card '3x' in '3x' (at 0): unknown suit 'x'"),
        ("3s 4", "invalid card '4' in '3s 4' (at 3): missing suit"),
        ("3s4", "invalid card '4' in '3s4' (at 2): missing suit"),
        ("10", "invalid card '10' in '10' (at 0): missing suit"),
        ("3s4x5h", "invalid card '4x5h' in '3s4x5h' (at 2): unknown suit 'x'"),
        ("3s, Zh", "invalid card 'Zh' in '3s, Zh' (at 4): unknown rank 'Z'"),
        ("1s", "invalid card '1s' in '1s' (at 0): unknown rank '1'"),
        ("11h", "invalid card '11h' in '11h' (at 0): unknown rank '1'"),
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
    assert message is None or repr(text) in message


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
