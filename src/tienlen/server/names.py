"""Seat names: what a player may be called at a table, checked and normalised.

A seat's name is shown in every browser at the table, beside the labels the page
writes itself (``Bot 2 · greedy``, ``seat 2``, ``you``). `seat_name` normalises a
name (Unicode NFKC, so full-width letters are the letters; runs of spaces as one) and
refuses what could mislead: markup, control and format characters, characters that
show as nothing (U+3164 HANGUL FILLER, U+2800 BRAILLE PATTERN BLANK, a lone variation
selector), a name with nothing visible, and the page's own labels.

Example:
    >>> seat_name(" Nguyễn   Văn \uff21", ["greedy"])  # a full-width A
    'Nguyễn Văn A'
    >>> seat_name("BOT 2 - greedy", ["greedy"])
    Traceback (most recent call last):
    tienlen.server.names.NameRefusedError: the name reads as the page's label 'bot 2 · greedy'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Final

from tienlen.errors import TienLenError

__all__ = ["MARKUP", "MAX_NAME", "NameRefusedError", "page_labels", "seat_name"]

MAX_NAME: Final = 40
"""The most characters a seat's name holds, once normalised."""
MARKUP: Final = frozenset("<>&\"'`")
"""Characters a name may not hold: it is shown in every browser at the table."""
_BLANK: Final = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers: letters that show as nothing
    "\u2800"  # braille pattern blank
    "\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f"  # invisible marks
)
"""Characters Python calls printable that show as nothing (Unicode default ignorables)."""
_MAX_MARKS: Final = 2
"""The most combining marks on one character (Vietnamese needs two; more pile up)."""
_HOUSE: Final = ("bot", "máy")
"""What the page calls a house seat, in English and Vietnamese (static/app.js), as in
``Bot 2 · greedy`` and ``Máy 2 · greedy``."""
_SEAT: Final = ("seat", "ghế")
_YOU: Final = ("you", "bạn")
_OPEN: Final = ("open seat", "ghế trống")
"""What the page calls a seat kept for a person, as in ``Open seat 2``."""
_MOST_SEATS: Final = 8


class NameRefusedError(TienLenError, ValueError):
    """A seat's name refused: the sentence says why.

    Example:
        >>> import pickle
        >>> error = NameRefusedError("a name needs a visible character")
        >>> str(pickle.loads(pickle.dumps(error)))
        'a name needs a visible character'
    """


def _is_variation_selector(char: str) -> bool:
    return "\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef"


def _visible(char: str) -> bool:
    """Whether *char* shows on its own: a letter, digit, punctuation or symbol."""
    return char not in _BLANK and unicodedata.category(char)[0] in "LNPS"


def _label_key(text: str) -> str:
    """What a name reads as: case, spaces and punctuation aside."""
    return "".join(char for char in text.casefold() if char.isalnum())


def page_labels(bots: Iterable[str]) -> dict[str, str]:
    """The labels the page writes for seats, by `_label_key`: no name may read as one.

    Example:
        >>> labels = page_labels(["random"])
        >>> labels["bot2random"], labels["máy2random"], labels["máy2"], labels["seat3"]
        ('bot 2 · random', 'máy 2 · random', 'máy 2', 'seat 3')
        >>> labels["ghếtrống1"]
        'ghế trống 1'
    """
    labels = [*_HOUSE, *_YOU, *_OPEN]
    for seat in range(_MOST_SEATS):
        labels += [f"{word} {seat}" for word in (*_SEAT, *_HOUSE, *_OPEN)]
        for bot in bots:
            labels += [f"{house} {seat} · {bot}" for house in _HOUSE]
    return {_label_key(label): label for label in labels}


def _problem(text: str, name: str) -> str | None:
    """Why *text*, normalised as *name*, is refused, or ``None``."""
    blank = next((char for char in text + name if char in _BLANK), None)
    if blank is not None:
        return f"a name may not hold U+{ord(blank):04X}, which shows as nothing"
    if not name.isprintable() or not MARKUP.isdisjoint(name):
        return "a name holds printable characters, none of < > & \" ' `"
    marks, before = 0, " "
    for char in name:
        if _is_variation_selector(char) and unicodedata.category(before) != "So":
            return "a variation selector only follows a symbol (an emoji)"
        marks = marks + 1 if unicodedata.category(char)[0] == "M" else 0
        if marks > _MAX_MARKS:
            return f"at most {_MAX_MARKS} combining marks on one character"
        before = char
    if name and not any(_visible(char) for char in name):
        return "a name needs a visible character"
    if len(" ".join(name.split())) > MAX_NAME:
        return f"a name holds at most {MAX_NAME} characters"
    return None


def seat_name(text: str, bots: Iterable[str]) -> str:
    """*text* as a seat's name: NFKC-normalised, spaces collapsed; or refused.

    ``""`` is no name (the page shows ``seat N``). *bots* are the house bots' names,
    whose labels (``Bot 2 · greedy``, ``Máy 2 · greedy``) no name may read as.

    Raises:
        NameRefusedError: markup, a control, format or invisible character, nothing
            visible, more than `MAX_NAME` characters, or a label of the page.

    Example:
        >>> seat_name(" Ann ", []), seat_name("", []), seat_name("❤\ufe0f", [])
        ('Ann', '', '❤️')
        >>> seat_name("\uff33eat \uff13", [])  # full-width S and 3
        Traceback (most recent call last):
        tienlen.server.names.NameRefusedError: the name reads as the page's label 'seat 3'
        >>> seat_name("\u3164", [])
        Traceback (most recent call last):
        tienlen.server.names.NameRefusedError: a name may not hold U+3164, which shows as nothing
    """
    name = unicodedata.normalize("NFKC", text)
    problem = _problem(
        text, name
    )  # before spaces collapse: a tab or newline is refused
    if problem is not None:
        raise NameRefusedError(problem)
    name = " ".join(name.split())
    label = page_labels(bots).get(_label_key(name))
    if label is not None:
        msg = f"the name reads as the page's label {label!r}"
        raise NameRefusedError(msg)
    return name
