"""Actions as players type them: a pass or cards, maybe after a seat.

`GameState.parse_action` reads its text here, then builds the action: this module
knows the words, the state knows whose turn it is. As card text is (`tienlen.parse_cards`
reads ``7 cơ``), the text is read in English and Vietnamese at once, whatever
language the table shows. It imports nothing above the cards.

Example:
    >>> from tienlen._action_text import read_action
    >>> read_action("Bỏ Lượt"), read_action("2: đánh 3 bích")
    ((None, None), (2, '3 bích'))
"""

from __future__ import annotations

import re
from typing import Final, SupportsIndex

from tienlen.cards import normal_text
from tienlen.errors import InvalidArgumentError, InvalidCardError

__all__ = ["read_action"]

_SEAT_PREFIX: Final = re.compile(r"\s*([0-9])\s*:", re.ASCII)
"""A seat before the action text, as in ``"2: 3s 3c 4s 4c 5s 5c 6s 6c"`` (seats 0-7)."""
_PASS_WORDS: Final = frozenset(
    {"pass", "p", "bỏ", "bỏ lượt", "bỏ qua", "qua", "bo", "bo luot", "bo qua"}
)
"""What reads as a pass, in English and Vietnamese (also without accents), any case."""
_PLAY_VERB: Final = re.compile(r"\s*(?:play|đánh|đi|danh|di)(?:\s+|$)", re.IGNORECASE)
"""The verb that may come before cards, in English and Vietnamese."""


def read_action(
    text: str, player: SupportsIndex | None = None
) -> tuple[SupportsIndex | None, str | None]:
    """The player of *text* (its seat, else *player*) and its cards, ``None`` for a pass.

    The text is read in Unicode normal form NFC (`tienlen.cards.normal_text`); the
    cards are returned as written, for the card parser.

    Raises:
        InvalidCardError: the text is neither a pass nor cards (``problem="empty"``).
        InvalidArgumentError: the seat written differs from *player*.
        TypeError: *text* is not a string.

    Example:
        >>> from tienlen._action_text import read_action
        >>> read_action("PASS", 1), read_action("play 6d")
        ((1, None), (None, '6d'))
    """
    if not isinstance(text, str):
        msg = f"expected action text, got {type(text).__name__}"  # type: ignore[unreachable]
        raise TypeError(msg)
    text = normal_text(text)
    written = _SEAT_PREFIX.match(text)
    body = text[written.end() :] if written else text
    if written is not None:
        seat = int(written[1])
        if player is not None and player != seat:
            msg = f"the text names seat {seat}, not player {player}"
            raise InvalidArgumentError(msg)
        player = seat
    if " ".join(body.casefold().split()) in _PASS_WORDS:
        return player, None
    verb = _PLAY_VERB.match(body)
    if verb is not None:
        body = body[verb.end() :]
    if not body.strip():
        wanted = "card text" if verb else "'pass' or card text"
        msg = f"expected {wanted}, got {text[:40]!r}"
        raise InvalidCardError(msg, problem="empty")
    return player, body
