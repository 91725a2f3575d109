"""Coverage-guided fuzz target: `tienlen.parse_cards` and `Hand.parse` on any text (issue 14, 5).

Run (the first directory receives new inputs, the second is the seed corpus)::

    .venv/bin/pip install -e ".[fuzz]"
    .venv/bin/python fuzz/fuzz_cards.py -max_total_time=30 -timeout=5 NEW fuzz/corpus/cards

An input fails if parsing raises anything but `InvalidCardError`, if the message is
longer than 300 characters, if text with a character other than ASCII, spaces, the suit
symbols and the Vietnamese suit words parses, if the canonical text of the cards does
not parse back to them, or if `Hand.parse` disagrees with `parse_cards` (a hand holds
each card at most twice).
"""

# ruff: noqa: INP001  (a script directory, not a package)

from __future__ import annotations

import re
import sys
import unicodedata
from collections import Counter

import atheris

with atheris.instrument_imports():
    from tienlen import Hand, InvalidCardError, parse_cards

MESSAGE_LIMIT = 300
SUITS = "♠♣♦♥♤♧♢♡"
VIETNAMESE_SUIT_WORDS = re.compile("bích|chuồn|nhép|tép|rô|cơ", re.IGNORECASE)
"""The suit words card text may use (docs/game.md); every other letter is ASCII."""


def test_one_input(data: bytes) -> None:
    """Parse the text *data* encodes; check the contract."""
    provider = atheris.FuzzedDataProvider(data)
    text = provider.ConsumeUnicode(provider.remaining_bytes())
    try:
        cards = parse_cards(text)
    except InvalidCardError as error:
        if len(str(error)) > MESSAGE_LIMIT:
            raise AssertionError(str(error)[:MESSAGE_LIMIT]) from None
        return
    words = VIETNAMESE_SUIT_WORDS.sub("", unicodedata.normalize("NFC", text))
    if not all(char.isascii() or char in SUITS or char.isspace() for char in words):
        raise AssertionError(f"look-alike text parsed: {text[:80]!r}")
    if parse_cards(" ".join(map(str, cards))) != cards:
        raise AssertionError(f"canonical text does not parse back: {text[:80]!r}")
    try:
        hand = Hand.parse(text)
    except InvalidCardError:
        if max(Counter(cards).values()) <= 2:
            raise
        return
    if list(hand) != sorted(cards) or Hand(hand.mask) != hand:
        raise AssertionError(f"Hand.parse disagrees with parse_cards: {text[:80]!r}")


def main() -> None:
    """Hand the target to libFuzzer with the command-line arguments."""
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
