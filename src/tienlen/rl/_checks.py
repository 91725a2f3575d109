"""Argument checks shared by the environments (private).

Every entry point of `tienlen.rl` that takes a rule set takes a preset's name too, as
the CLI does (`tienlen.get_rules`); counts are plain ``int`` (``bool`` is not one).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from tienlen.combos import ComboKind, Shape
from tienlen.errors import InvalidArgumentError
from tienlen.rules import BaseRules, get_rules

__all__ = [
    "OBSERVED_KINDS",
    "as_index",
    "as_rules",
    "as_sequence",
    "check_count",
    "check_render_mode",
]

OBSERVED_KINDS: Final = frozenset(ComboKind) - {ComboKind.FIVE_OF_A_KIND}
"""The kinds the observations encode (their layout is fixed): a rule set playing
another (five of a kind on two decks, RULES §12.14) is refused. One that lists a kind
its decks cannot form (five of a kind on one deck) plays as without it, and is taken."""


def as_rules(rules: object, name: str = "rules") -> BaseRules:
    """*rules* as a rule set: a `tienlen.BaseRules`, or a preset's name.

    Raises:
        TypeError: *rules* is neither.
        tienlen.errors.UnknownVariantError: no preset has that name.
        tienlen.errors.InvalidArgumentError: the rule set forms a kind the
            observations do not encode (`OBSERVED_KINDS`).

    Example:
        >>> from tienlen import POKER
        >>> as_rules("poker") is POKER, as_rules(POKER) is POKER
        (True, True)
        >>> as_rules(4)
        Traceback (most recent call last):
        ...
        TypeError: rules must be a preset name or a BaseRules, not int
    """
    if isinstance(rules, str):
        return get_rules(rules)
    if not isinstance(rules, BaseRules):
        msg = f"{name} must be a preset name or a BaseRules, not {type(rules).__name__}"
        raise TypeError(msg)
    unobserved = [  # the kinds that form here: `BaseRules.max_top_rank` knows
        kind
        for kind in rules.kinds - OBSERVED_KINDS
        if rules.max_top_rank(Shape.of(kind)) is not None
    ]
    if unobserved:
        shown = ", ".join(sorted(kind.label for kind in unobserved))
        msg = f"{name} plays {shown}, which the observations do not encode"
        raise InvalidArgumentError(msg)
    return rules


def check_count(value: object, name: str, least: int = 0, most: int = 2**31) -> int:
    """*value*, checked to be an ``int`` from *least* to *most*, as a plain ``int``.

    A numpy integer is one; ``bool`` is not.

    Raises:
        TypeError: *value* is not an ``int``.
        tienlen.errors.InvalidArgumentError: it is below *least* or above *most*.

    Example:
        >>> check_count(-1, "history")
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidArgumentError: history must be at least 0, not -1
    """
    if isinstance(value, np.integer):
        value = int(value)
    if type(value) is not int:
        msg = f"{name} must be an int, not {type(value).__name__}"
        raise TypeError(msg)
    if value < least:
        msg = f"{name} must be at least {least}, not {value}"
        raise InvalidArgumentError(msg)
    if value > most:
        msg = f"{name} must be at most {most}, not {value}"
        raise InvalidArgumentError(msg)
    return value


def as_index(action: object) -> int:
    """An action index: an ``int`` or a numpy integer (``bool`` and floats are not).

    Raises:
        TypeError: *action* is not one.

    Example:
        >>> import numpy as np
        >>> as_index(np.int64(3)), as_index(3)
        (3, 3)
        >>> as_index(0.7)
        Traceback (most recent call last):
        ...
        TypeError: an action is an int index, not float
    """
    if type(action) is int or isinstance(action, np.integer):
        return int(action)
    msg = f"an action is an int index, not {type(action).__name__}"
    raise TypeError(msg)


def as_sequence(value: object, name: str) -> Sequence[Any]:
    """*value*, checked to be a sequence (a list, a tuple, a numpy array; not text).

    Raises:
        TypeError: it is not one.

    Example:
        >>> as_sequence((1, 2), "seats")
        (1, 2)
        >>> as_sequence("01", "seats")
        Traceback (most recent call last):
        ...
        TypeError: seats must be a sequence, not str
    """
    if isinstance(value, str | bytes) or not isinstance(value, Sequence | np.ndarray):
        msg = f"{name} must be a sequence, not {type(value).__name__}"
        raise TypeError(msg)
    return value  # type: ignore[return-value]  # an ndarray indexes like a sequence


def check_render_mode(mode: object) -> str | None:
    """*mode* if it is an environment's render mode: ``"ansi"``, ``"human"`` or ``None``.

    Raises:
        tienlen.errors.InvalidArgumentError: any other value.

    Example:
        >>> check_render_mode("ansi"), check_render_mode(None)
        ('ansi', None)
        >>> check_render_mode("rgb_array")
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidArgumentError: render_mode must be 'ansi', 'human' or None, not 'rgb_array'
    """
    if mode is None or (isinstance(mode, str) and mode in ("ansi", "human")):
        return mode
    msg = f"render_mode must be 'ansi', 'human' or None, not {mode!r}"
    raise InvalidArgumentError(msg)
