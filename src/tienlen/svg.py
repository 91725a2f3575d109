"""Pictures of cards, hands, combinations and game states as SVG documents.

Every function returns one complete, standalone SVG 1.1 document as a string, ready
for a web page, a file or a notebook; only the standard library is used. Pictures
are laid out in card units (a card is 60 × 84) and *size* scales the whole picture
through its ``width`` and ``height``, so it stays sharp at any size. No element has
an ``id``, so many pictures can sit inline in one HTML page without clashing.

Example:
    >>> from tienlen import Hand, svg
    >>> picture = svg.hand(Hand.parse("3s 10h Ad"))
    >>> picture.startswith("<svg"), "<title>10 of hearts</title>" in picture
    (True, True)

.. versionadded:: 0.1
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from tienlen._checks import check_type
from tienlen.cards import Card, Hand, Rank
from tienlen.combos import Combo
from tienlen.errors import InvalidArgumentError
from tienlen.game import GameState

__all__ = ["card", "cards", "combo", "hand", "state"]

_CARD_W: Final = 60.0
_CARD_H: Final = 84.0
_GAP: Final = 8.0
"""Space around rows and between a caption and its cards."""
_CAPTION: Final = 16.0
"""Font size of captions and labels."""
_TITLE: Final = 20.0
"""Font size of the heading of `state`."""
_OVERLAP: Final = 0.35
"""The default part of a card's width that the next card in a row covers."""
_LABEL_W: Final = 190.0
"""Width of the player column in `state`."""
_RED: Final = "#c0392b"
_BLACK: Final = "#1b1b1b"
_INK: Final = "#333"
_FELT: Final = "#2d6a4f"
_MARK: Final = "#ffd166"
_FONT: Final = "DejaVu Sans, Arial, Helvetica, sans-serif"
_RANK_WORDS: Final = {
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
    Rank.ACE: "ace",
}


def _num(value: float) -> str:
    """A coordinate without needless decimals (``39`` rather than ``39.0``)."""
    return f"{round(value, 2):g}"


def _text_width(text: str, font_size: float) -> float:
    """A rough width for *text*: enough to size a picture around a caption."""
    return len(text) * font_size * 0.62


def _name(card: Card) -> str:
    """The card in words, for titles and screen readers: ``"10 of hearts"``."""
    rank = _RANK_WORDS.get(card.rank, card.rank.symbol)
    return f"{rank} of {card.suit.name.lower()}"


def _count(number: int) -> str:
    """``"1 card"``, ``"13 cards"``."""
    return f"{number} card" if number == 1 else f"{number} cards"


def _text(x: float, y: float, text: str, size: float, extra: str = "") -> str:
    """One ``<text>`` element; *extra* holds further attributes."""
    return f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}"{extra}>{escape(text)}</text>'


def _card_group(card: Card, x: float, y: float) -> str:
    """One card with its top-left corner at (*x*, *y*), as a ``<g class="card">``."""
    colour = _RED if card.suit.is_red else _BLACK
    rank, suit = card.rank.symbol, card.suit.symbol
    middle = ' text-anchor="middle"'
    return (
        f'<g class="card" transform="translate({_num(x)} {_num(y)})" fill="{colour}">'
        f"<title>{_name(card)}</title>"
        f'<rect x="0.5" y="0.5" width="{_num(_CARD_W - 1)}" height="{_num(_CARD_H - 1)}"'
        ' rx="6" fill="#fff" stroke="#8a8a8a"/>'
        + _text(14, 20, rank, 17, f'{middle} class="rank" font-weight="bold"')
        + _text(14, 37, suit, 16, f'{middle} class="suit"')
        + _text(_CARD_W / 2, 66, suit, 40, f'{middle} class="pip"')
        + "</g>"
    )


def _row(row: Sequence[Card], x: float, y: float, overlap: float) -> tuple[str, float]:
    """Overlapping cards from (*x*, *y*), or a dashed empty slot; returns body and width."""
    if not row:
        slot = (
            f'<rect class="empty" x="{_num(x + 0.5)}" y="{_num(y + 0.5)}" width="{_num(_CARD_W - 1)}"'
            f' height="{_num(_CARD_H - 1)}" rx="6" fill="none" stroke="#999" stroke-dasharray="4 3"/>'
        )
        return slot, _CARD_W
    step = _CARD_W * (1 - overlap)
    body = "".join(_card_group(c, x + i * step, y) for i, c in enumerate(row))
    return body, _row_width(len(row), overlap)


def _document(
    width: float, height: float, body: str, *, label: str, size: float
) -> str:
    """Wrap *body*, laid out in a *width* × *height* box, in an ``<svg>`` root."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" version="1.1"'
        f' viewBox="0 0 {_num(width)} {_num(height)}"'
        f' width="{_num(width * size)}" height="{_num(height * size)}"'
        f' role="img" aria-label={quoteattr(label)} font-family={quoteattr(_FONT)}>'
        f"<title>{escape(label)}</title>{body}</svg>"
    )


def _check(size: float, overlap: float) -> None:
    """Refuse a picture scale or a row overlap that would draw nothing sensible.

    Raises:
        TypeError: either is not a number (``bool`` is not).
        InvalidArgumentError: *size* is not positive and finite (``inf``, ``nan``),
            or *overlap* is outside 0 ≤ overlap < 1.
    """
    for name, value in (("size", size), ("overlap", overlap)):
        if isinstance(value, bool) or not isinstance(value, int | float):
            msg = f"{name} must be a number, not {type(value).__name__}"
            raise TypeError(msg)
    if not 0 < size < math.inf:
        msg = f"size must be positive and finite, got {size!r}"
        raise InvalidArgumentError(msg)
    if not 0 <= overlap < 1:
        msg = f"overlap must be at least 0 and below 1, got {overlap!r}"
        raise InvalidArgumentError(msg)


_NOT_XML: Final = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""A character XML 1.0 cannot hold, even escaped (control characters, U+FFFE...)."""


def _card_row(cards: object) -> tuple[Card, ...]:
    """*cards* as a tuple, refused unless it is an iterable of `Card` (not text).

    Raises:
        TypeError: *cards* is text, not iterable, or holds something else.
    """
    if isinstance(cards, str) or not isinstance(cards, Iterable):
        msg = f"cards must be an iterable of Card, not {type(cards).__name__}"
        raise TypeError(msg)
    row = tuple(cards)
    for item in row:
        check_type("every card", item, Card)
    return row


def _check_caption(caption: object) -> str:
    r"""*caption*, refused unless it is text an XML document can hold.

    Raises:
        TypeError: *caption* is not a ``str``.
        InvalidArgumentError: it holds a character XML 1.0 forbids.

    Example:
        >>> _check_caption("bell\a")
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidArgumentError: caption holds '\x07' (at 4), which an SVG document cannot hold
    """
    if not isinstance(caption, str):
        msg = f"caption must be a str, not {type(caption).__name__}"
        raise TypeError(msg)
    bad = _NOT_XML.search(caption)
    if bad is not None:
        msg = (
            f"caption holds {bad.group()!r} (at {bad.start()}), which an SVG "
            "document cannot hold"
        )
        raise InvalidArgumentError(msg)
    return caption


def _captioned(
    row: Sequence[Card], caption: str, *, size: float, overlap: float
) -> str:
    """A caption above a row of cards."""
    _check(size, overlap)
    caption = _check_caption(caption)
    top = _GAP + _CAPTION + _GAP
    body, width = _row(row, _GAP, top, overlap)
    width = max(width, _text_width(caption, _CAPTION)) + 2 * _GAP
    text = _text(_GAP, _GAP + _CAPTION * 0.85, caption, _CAPTION, f' fill="{_INK}"')
    label = f"{caption}: {', '.join(map(_name, row)) or 'no cards'}"
    return _document(width, top + _CARD_H + _GAP, text + body, label=label, size=size)


def card(card: Card, *, size: float = 1.0) -> str:
    """One playing card: rank and suit in the corner, a large suit symbol in the middle.

    Diamonds and hearts are red, spades and clubs black. The picture is 60 × 84 pixels
    at *size* 1 and has a ``<title>`` such as ``10 of hearts`` for screen readers.

    Args:
        card: The card to draw.
        size: The scale of the picture; 1 is 60 pixels wide.

    Returns:
        A standalone SVG document.

    Raises:
        InvalidArgumentError: *size* is not positive and finite.

    Example:
        >>> from tienlen import Card, svg
        >>> picture = svg.card(Card.parse("Th"))
        >>> picture.startswith("<svg"), "<title>10 of hearts</title>" in picture
        (True, True)
        >>> 'width="30"' in svg.card(Card.parse("Qs"), size=0.5)
        True

    .. versionadded:: 0.1
    """
    check_type("card", card, Card)
    _check(size, 0)
    return _document(
        _CARD_W, _CARD_H, _card_group(card, 0, 0), label=_name(card), size=size
    )


def cards(cards: Iterable[Card], *, size: float = 1.0, overlap: float = 0.35) -> str:
    """A row of cards in the order given, overlapping like a fanned hand.

    No cards give a dashed outline of one empty card.

    Args:
        cards: The cards to draw; duplicates (two decks) are drawn twice.
        size: The scale of the picture; 1 is 60 pixels per card.
        overlap: The part of each card's width that the next card covers, from 0
            (side by side) up to, not including, 1.

    Returns:
        A standalone SVG document.

    Raises:
        InvalidArgumentError: *size* is not positive and finite, or *overlap* is
            outside 0 ≤ overlap < 1.

    Example:
        >>> from tienlen import parse_cards, svg
        >>> picture = svg.cards(parse_cards("3s 3s 2h"))
        >>> picture.count('class="card"'), "<title>2 of hearts</title>" in picture
        (3, True)

    .. versionadded:: 0.1
    """
    _check(size, overlap)
    row = _card_row(cards)
    body, width = _row(row, 0, 0, overlap)
    label = ", ".join(map(_name, row)) or "no cards"
    return _document(width, _CARD_H, body, label=label, size=size)


def hand(
    hand: Hand,
    *,
    size: float = 1.0,
    overlap: float = 0.35,
    caption: str | None = None,
) -> str:
    """A hand in ascending order under a caption (by default its number of cards).

    Args:
        hand: The hand to draw.
        size: The scale of the picture; 1 is 60 pixels per card.
        overlap: The part of each card's width that the next card covers (0 to 1).
        caption: The text above the cards; ``"13 cards"`` style by default.

    Returns:
        A standalone SVG document.

    Raises:
        InvalidArgumentError: *size* is not positive and finite, *overlap* is
            outside 0 ≤ overlap < 1, or *caption* holds a control character.
        TypeError: *caption* is not text.

    Example:
        >>> from tienlen import Hand, svg
        >>> picture = svg.hand(Hand.parse("3s 4s 5h"))
        >>> ">3 cards</text>" in picture, picture.count('class="card"')
        (True, 3)

    .. versionadded:: 0.1
    """
    check_type("hand", hand, Hand)
    row = hand.cards
    text = _count(len(row)) if caption is None else caption
    return _captioned(row, text, size=size, overlap=overlap)


def combo(
    combo: Combo,
    *,
    size: float = 1.0,
    overlap: float = 0.35,
    caption: str | None = None,
) -> str:
    """A combination under a caption (by default its shape: ``pair``, ``4-card straight``).

    Args:
        combo: The combination to draw.
        size: The scale of the picture; 1 is 60 pixels per card.
        overlap: The part of each card's width that the next card covers (0 to 1).
        caption: The text above the cards; the combination's shape by default.

    Returns:
        A standalone SVG document.

    Raises:
        InvalidArgumentError: *size* is not positive and finite, *overlap* is
            outside 0 ≤ overlap < 1, or *caption* holds a control character.
        TypeError: *caption* is not text.

    Example:
        >>> from tienlen import classify, svg
        >>> picture = svg.combo(classify("7h 7s"))
        >>> ">pair</text>" in picture, "<title>7 of spades</title>" in picture
        (True, True)

    .. versionadded:: 0.1
    """
    check_type("combo", combo, Combo)
    text = str(combo.shape) if caption is None else caption
    return _captioned(combo.cards, text, size=size, overlap=overlap)


def _marks(game: GameState, player: int) -> str:
    """The player's marks, as in ``str(state)``: to act, passed, out #k, frozen."""
    marks = []
    if player == game.to_act:
        marks.append("to act")
    if player in game.passed:
        marks.append("passed")
    if player in game.finish_order:
        marks.append(f"out #{game.finish_order.index(player) + 1}")
    if player in game.frozen:
        marks.append("frozen")
    return ", ".join(marks)


def _row_width(count: int, overlap: float) -> float:
    """The width of a row of *count* cards (an empty row shows one empty slot)."""
    return _CARD_W * (1 + (1 - overlap) * max(count - 1, 0))


def _band(y: float, row: Sequence[Card], lines: Sequence[str]) -> str:
    """One band of the table: up to three label lines, then the cards."""
    body, _ = _row(row, _GAP + _LABEL_W, y + _GAP, _OVERLAP)
    styles = (' font-weight="bold"', "", f' fill="{_MARK}" font-style="italic"')
    for i, (line, style) in enumerate(zip(lines, styles, strict=False)):
        baseline = y + _GAP + (i + 1) * (_CAPTION + 8)
        body += _text(_GAP * 2, baseline, line, _CAPTION, style)
    return body


def _result_line(game: GameState) -> str:
    """How a finished game ended (finishing order, scores); empty while it goes on."""
    result = game.result
    if result is None:
        return ""
    order = ", ".join(map(str, result.finish_order))
    scores = ", ".join(f"{score:+d}" if score else "0" for score in result.scores)
    text = f"over: order {order}; scores {scores}"
    if result.instant_win is not None:
        text += f" (instant win: {result.instant_win.value})"
    return text


def state(state: GameState, *, size: float = 0.6) -> str:
    """A referee's view of the table: every player's hand face up, the top in the middle.

    This shows **every hand**, so it is for debugging, refereeing and replays, not for a
    player's screen. Each player gets a band with their number, card count, marks (to
    act, passed, out #k, frozen) and cards; the player to act is outlined. The
    combination to beat sits in a darker band between the first and the second half of
    the players, and a finished game ends with a result line (finishing order, scores).

    Args:
        state: The game state to draw.
        size: The scale of the picture; 1 is 60 pixels per card.

    Returns:
        A standalone SVG document.

    Raises:
        InvalidArgumentError: *size* is not positive and finite.

    Example:
        >>> from tienlen import CLASSIC, GameState, svg
        >>> game = GameState.from_hands(["3s 7h", "4d 9c", "5c Jd"], CLASSIC).play("3s")
        >>> picture = svg.state(game)
        >>> ">1 card</text>" in picture, ">by player 0</text>" in picture
        (True, True)

    .. versionadded:: 0.1
    """
    check_type("state", state, GameState)
    _check(size, 0)
    header = f"{state.rules.name}, {state.players} players"
    result = _result_line(state)
    top = () if state.top is None else state.top.cards
    longest = max(len(top), *(len(held) for held in state.hands))
    width = 2 * _GAP + max(
        _LABEL_W + _row_width(longest, _OVERLAP),
        _text_width(header, _TITLE) + _GAP,
        _text_width(result, _CAPTION) + _GAP,
    )
    band_h = _CARD_H + 2 * _GAP
    body = _text(_GAP * 2, _GAP + _TITLE, header, _TITLE, ' font-weight="bold"')
    y = 2 * _GAP + _TITLE
    for player, held in enumerate(state.hands):
        if player == (state.players + 1) // 2:
            if state.top is None:
                leads = "" if state.to_act is None else f"player {state.to_act} leads"
                lines = ["no top", leads]
            else:
                lines = ["top", str(state.top.shape), f"by player {state.last_player}"]
            body += (
                f'<rect x="0" y="{_num(y)}" width="{_num(width)}" height="{_num(band_h)}"'
                ' fill="#000" fill-opacity="0.2"/>' + _band(y, top, lines)
            )
            y += band_h
        if player == state.to_act:
            body += (
                f'<rect x="{_num(_GAP / 2)}" y="{_num(y + 2)}" width="{_num(width - _GAP)}"'
                f' height="{_num(band_h - 4)}" rx="8" fill="none" stroke="{_MARK}" stroke-width="2"/>'
            )
        lines = [f"Player {player}", _count(len(held)), _marks(state, player)]
        body += _band(y, held.cards, lines)
        y += band_h
    if result:
        body += _text(_GAP * 2, y + _CAPTION, result, _CAPTION, ' font-weight="bold"')
        y += _CAPTION + _GAP
    felt = f'<rect width="{_num(width)}" height="{_num(y + _GAP)}" rx="10" fill="{_FELT}"/>'
    top_text = state.top.unicode() if state.top is not None else "none"
    return _document(
        width,
        y + _GAP,
        f'{felt}<g fill="#fff">{body}</g>',
        label=f"{header}; top: {top_text}",
        size=size,
    )
