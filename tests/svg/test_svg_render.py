"""SVG pictures of cards, rows, hands, combinations and game states (`tienlen.svg`)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given

from tests.strategies import hands
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    DECK,
    POKER,
    Card,
    Combo,
    GameState,
    Hand,
    classify,
    parse_cards,
    svg,
)

NS = {"svg": "http://www.w3.org/2000/svg"}
RED, BLACK = "#c0392b", "#1b1b1b"
RANK_WORDS = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
SUIT_WORDS = {"♠": "spades", "♣": "clubs", "♦": "diamonds", "♥": "hearts"}


def parse(picture: str) -> ET.Element:
    """Parse one SVG document and check its root is a sized, labelled ``<svg>``."""
    root = ET.fromstring(picture)  # noqa: S314 -- our own output, not untrusted input
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert {"viewBox", "width", "height", "aria-label"} <= root.attrib.keys()
    assert root.get("role") == "img"
    assert root.find("svg:title", NS) is not None
    return root


def card_groups(root: ET.Element) -> list[ET.Element]:
    """The ``<g class="card">`` groups of a picture, in drawing order."""
    return [
        g
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if g.get("class") == "card"
    ]


def texts(root: ET.Element) -> list[str]:
    """Every ``<text>`` content of a picture."""
    return [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]


def name(card: Card) -> str:
    """The expected title of *card*, worked out independently of the library."""
    rank = card.unicode()[:-1]
    return f"{RANK_WORDS.get(rank, rank)} of {SUIT_WORDS[card.unicode()[-1]]}"


def combo_of(text: str) -> Combo:
    """The classic combination of *text*, which must be one."""
    combo = classify(text, rules=CLASSIC)
    assert combo is not None
    return combo


def titles(root: ET.Element) -> list[str]:
    """The titles of the card groups of a picture."""
    return [g.findtext("svg:title", namespaces=NS) or "" for g in card_groups(root)]


@pytest.mark.parametrize("card", DECK, ids=str)
def test_every_card_draws_its_rank_suit_colour_and_title(card: Card) -> None:
    """Each of the 52 cards parses and shows its rank, suit, colour and name."""
    root = parse(svg.card(card))
    (group,) = card_groups(root)
    red = card.unicode()[-1] in "♦♥"
    assert group.get("fill") == (RED if red else BLACK)
    by_class = {
        t.get("class"): t.text for t in group.iter("{http://www.w3.org/2000/svg}text")
    }
    assert by_class == {
        "rank": card.unicode()[:-1],
        "suit": card.unicode()[-1],
        "pip": card.unicode()[-1],
    }
    assert group.findtext("svg:title", namespaces=NS) == name(card)
    assert root.findtext("svg:title", namespaces=NS) == name(card)
    assert root.get("aria-label") == name(card)


def test_ten_reads_10_and_face_cards_have_words() -> None:
    """The ten shows ``10`` (not ``T``) and titles spell out face cards."""
    assert ">10</text>" in svg.card(Card.parse("Th"))
    assert "<title>10 of hearts</title>" in svg.card(Card.parse("Th"))
    assert "<title>queen of spades</title>" in svg.card(Card.parse("Qs"))


def test_size_scales_width_and_height_but_not_the_view_box() -> None:
    """*size* changes the displayed size only; the drawing stays in card units."""
    small = parse(svg.card(Card.parse("3s"), size=0.5))
    large = parse(svg.card(Card.parse("3s"), size=2))
    assert small.get("viewBox") == large.get("viewBox") == "0 0 60 84"
    assert (small.get("width"), small.get("height")) == ("30", "42")
    assert (large.get("width"), large.get("height")) == ("120", "168")


@pytest.mark.parametrize(
    "text", ["", "3s", "3s 4s 5h", "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s"]
)
def test_rows_have_one_card_group_per_card(text: str) -> None:
    """A row has as many card groups as cards, in the order given."""
    row = parse_cards(text)
    root = parse(svg.cards(row))
    assert titles(root) == [name(card) for card in row]


def test_empty_row_is_a_valid_placeholder() -> None:
    """No cards give a valid picture with an empty slot and no card groups."""
    root = parse(svg.cards([]))
    assert card_groups(root) == []
    assert root.get("aria-label") == "no cards"
    assert any(
        r.get("class") == "empty" for r in root.iter("{http://www.w3.org/2000/svg}rect")
    )


def test_overlap_sets_the_row_width() -> None:
    """Two cards side by side are 120 wide; half-overlapping, 90."""
    two = parse_cards("3s 4s")
    assert parse(svg.cards(two, overlap=0)).get("viewBox") == "0 0 120 84"
    assert parse(svg.cards(two, overlap=0.5)).get("viewBox") == "0 0 90 84"


@pytest.mark.parametrize(
    ("size", "overlap"), [(0, 0.35), (-1, 0.35), (1, 1), (1, -0.1)]
)
def test_bad_size_or_overlap_is_refused(size: float, overlap: float) -> None:
    """A non-positive size or an overlap outside [0, 1) raises ValueError."""
    with pytest.raises(ValueError, match=r"size|overlap"):
        svg.cards(parse_cards("3s 4s"), size=size, overlap=overlap)


def test_hand_has_a_count_caption_and_sorted_cards() -> None:
    """A hand draws its cards in ascending order under a card count (or a given caption)."""
    hand = Hand.parse("2h 3s 10d")
    root = parse(svg.hand(hand))
    assert "3 cards" in texts(root)
    assert titles(root) == ["3 of spades", "10 of diamonds", "2 of hearts"]
    assert "Bob" in texts(parse(svg.hand(hand, caption="Bob")))
    assert "1 card" in texts(parse(svg.hand(Hand.parse("3s"))))


def test_combo_caption_is_its_shape() -> None:
    """A combination is captioned with its shape: ``pair``, ``3-card straight``."""
    pair = parse(svg.combo(combo_of("7h 7s")))
    assert "pair" in texts(pair)
    assert titles(pair) == ["7 of spades", "7 of hearts"]
    assert "3-card straight" in texts(parse(svg.combo(combo_of("3s 4s 5h"))))


def test_captions_are_escaped() -> None:
    """Markup in a caption is escaped, so the document stays well formed."""
    root = parse(svg.hand(Hand.parse("3s"), caption='<b>"A" & B</b>'))
    assert '<b>"A" & B</b>' in texts(root)


def test_two_deck_duplicates_are_drawn_twice() -> None:
    """With two decks, both copies of a card are drawn (hand, row and combination)."""
    hand = Hand.parse("3s 3s 4h")
    assert titles(parse(svg.hand(hand))) == [
        "3 of spades",
        "3 of spades",
        "4 of hearts",
    ]
    assert titles(parse(svg.cards(hand))).count("3 of spades") == 2
    pair = classify("3s 3s", rules=CLASSIC_TWO_DECKS)
    assert pair is not None
    assert titles(parse(svg.combo(pair))) == ["3 of spades", "3 of spades"]


def test_state_shows_every_hand_counts_marks_and_top() -> None:
    """The state view shows counts, marks and cards: players 0 and 1, the top, player 2."""
    game = GameState.from_hands(["3s 7h", "4d 9c Kh", "5c Jd"], CLASSIC)
    game = game.play("3s").play("4d").pass_turn()
    root = parse(svg.state(game))
    lines = texts(root)
    assert {"Player 0", "Player 1", "Player 2", "1 card", "2 cards"} <= set(lines)
    assert {"to act", "passed", "top", "single", "by player 1"} <= set(lines)
    assert titles(root) == [
        "7 of hearts",
        "9 of clubs",
        "king of hearts",
        "4 of diamonds",
        "5 of clubs",
        "jack of diamonds",
    ]
    assert "top: 4♦" in (root.get("aria-label") or "")


def test_state_before_the_first_play_names_the_leader() -> None:
    """With nothing on the table, the middle band says who leads."""
    game = GameState.from_hands(["4s 7h", "3s 9c"], CLASSIC)
    lines = texts(parse(svg.state(game)))
    assert {"no top", "player 1 leads", "to act"} <= set(lines)


def test_finished_state_has_a_result_line() -> None:
    """A finished game shows the finishing order and the scores."""
    game = GameState.from_hands(["3s", "4s 5s"], CLASSIC).play("3s")
    lines = texts(parse(svg.state(game, size=1)))
    assert "out #1" in lines
    assert "over: order 0, 1; scores +1, -1" in lines


def test_state_with_two_decks_parses() -> None:
    """A six-player, two-deck deal renders every hand, duplicates included."""
    game = GameState.deal(CLASSIC_TWO_DECKS, players=6, seed=3)
    root = parse(svg.state(game))
    assert len(card_groups(root)) == sum(len(hand) for hand in game.hands)
    assert {f"{len(hand)} cards" for hand in game.hands} <= set(texts(root))


def test_state_of_a_poker_game_parses() -> None:
    """A Poker deal renders (another variant name in the heading)."""
    root = parse(svg.state(GameState.deal(POKER, players=4, seed=1)))
    assert texts(root)[0] == "poker, 4 players"


@given(hands(decks=2, max_size=26))
def test_any_hand_renders_to_well_formed_xml(hand: Hand) -> None:
    """Any hand, duplicates included, is a well-formed picture with one group per card."""
    root = parse(svg.hand(hand))
    assert titles(root) == [name(card) for card in hand]
