"""Private: card masks as numpy arrays, many at once (the batched hot path).

A card mask is one Python int (`tienlen.engine.bits`): bit ``c`` for a first copy of card
``c``, bit ``52 + c`` for a second (two decks). Here a batch of masks becomes two
``uint64`` arrays, the low half (first copies) and, with two decks, the high half, so
that card rows, card counts and combination keys are computed by numpy for a whole
batch at once instead of mask by mask in Python.

Example:
    >>> from tienlen import Hand
    >>> low, high = halves([Hand.parse("3s 3h").mask, Hand.parse("2h").mask])
    >>> card_rows(low, high).sum(axis=1).tolist(), high is None
    ([2, 1], True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from tienlen.engine import bits as _bits

__all__ = ["Halves", "card_rows", "class_keys", "halves", "popcount"]

Words = npt.NDArray[np.uint64]
Halves = tuple[Words, Words | None]
"""A batch of masks: the low halves, and the high halves (``None``: one deck)."""

_CARDS: Final = _bits.CARDS
_LOW_HALF: Final = _bits.LOW_HALF
_ONES: Final = np.uint64(_bits.ONES)


def halves(masks: Sequence[int]) -> Halves:
    """*masks* as ``uint64`` arrays: low halves, and high halves if any mask has one."""
    count = len(masks)
    if max(masks, default=0) >> _CARDS:
        low = np.fromiter((m & _LOW_HALF for m in masks), np.uint64, count)
        high = np.fromiter((m >> _CARDS for m in masks), np.uint64, count)
        return low, high
    return np.fromiter(masks, np.uint64, count), None


def card_rows(low: Words, high: Words | None = None) -> npt.NDArray[np.uint8]:
    """The 52 card counts of each mask, one uint8 row each (0-1, 0-2 with two decks)."""
    rows = _unpack(low)
    if high is not None:
        rows += _unpack(high)
    return rows


def _unpack(words: Words) -> npt.NDArray[np.uint8]:
    raw = words.astype("<u8", copy=False).view(np.uint8).reshape(len(words), 8)
    return np.unpackbits(raw, axis=1, count=_CARDS, bitorder="little")


def _swar_popcount(words: Words) -> npt.NDArray[np.int64]:
    """Bits set in each word, for numpy releases without ``bitwise_count`` (< 2.0)."""
    x = words - ((words >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + (
        (x >> np.uint64(2)) & np.uint64(0x3333333333333333)
    )
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    counts: npt.NDArray[np.int64] = (
        (x * np.uint64(0x0101010101010101)) >> np.uint64(56)
    ).astype(np.int64)
    return counts


def _native_popcount(words: Words) -> npt.NDArray[np.int64]:
    counts: npt.NDArray[np.int64] = np.bitwise_count(words).astype(np.int64)
    return counts


popcount: Final = _native_popcount if hasattr(np, "bitwise_count") else _swar_popcount
"""Bits set in each ``uint64`` word, as int64."""


def class_keys(
    low: Words, high: Words | None, shape_codes: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """The class key (shape code and top card) of each non-empty combination mask.

    The vectorised `tienlen.rl.table.class_key`: the ranks held, the cards per rank
    and the top card (the highest first copy) are read off the bits, and
    ``shape_codes[ranks, cards per rank]`` gives the shape code.
    """
    size = popcount(low)
    if high is not None:
        size += popcount(high)
    top = np.frexp(low.astype(np.float64))[1].astype(np.int64) - 1  # exact: < 2**52
    folded = low | low >> np.uint64(1)
    folded |= folded >> np.uint64(2)
    ranks = np.maximum(popcount(folded & _ONES), 1)
    codes = shape_codes[ranks, np.minimum(size // ranks, shape_codes.shape[1] - 1)]
    keys: npt.NDArray[np.int64] = codes << 6 | top
    return keys
