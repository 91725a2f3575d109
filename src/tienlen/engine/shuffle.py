"""The shuffle of every deal: `random.Random.shuffle`'s permutation, without its frames.

`GameState.deal` and the hidden-hand samplers shuffle a deck at every game. Python's
``Random.shuffle`` asks ``Random._randbelow`` for each position, a Python frame per
card; `shuffle` does the same draws inline, so the same seed gives the same deal
(and leaves the generator in the same state) at a third of the cost, and compiled at
a quarter. A subclass of ``random.Random`` may draw its numbers its own way: it is
asked to shuffle, as before.
"""

from __future__ import annotations

import random
from typing import TypeVar

__all__ = ["shuffle"]

_T = TypeVar("_T")


def shuffle(rng: random.Random, items: list[_T]) -> None:
    """Shuffle *items* in place exactly as ``rng.shuffle(items)`` does.

    For a plain ``random.Random`` the draws are ``Random.shuffle``'s own (a
    Fisher-Yates shuffle from the last item down, each index drawn by rejection from
    ``getrandbits``), so the items end in the same order and *rng* in the same state.
    Any other generator shuffles with its own ``shuffle``.

    Example:
        >>> import random
        >>> deck, twin = list(range(52)), list(range(52))
        >>> first, second = random.Random(7), random.Random(7)
        >>> shuffle(first, deck)
        >>> second.shuffle(twin)
        >>> deck == twin and first.getstate() == second.getstate()
        True
    """
    if type(rng) is not random.Random:  # a subclass may draw another way
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for last in range(len(items) - 1, 0, -1):
        size = last + 1  # `Random._randbelow(size)`, inlined
        width = size.bit_length()
        pick = getrandbits(width)
        while pick >= size:
            pick = getrandbits(width)
        items[last], items[pick] = items[pick], items[last]
