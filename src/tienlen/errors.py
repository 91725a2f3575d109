"""The exceptions `tienlen` raises.

Every exception raised on purpose derives from `TienLenError`. Errors caused by bad
input (card text, cards that are no combination, an illegal action, a corrupt record)
also derive from `ValueError`, so ``except ValueError`` keeps working. A failed
operation never changes anything.
"""

from __future__ import annotations

__all__ = [
    "InvalidCardError",
    "InvalidComboError",
    "InvalidRulesError",
    "TienLenError",
    "UnknownVariantError",
]


class TienLenError(Exception):
    """The root of every error `tienlen` raises on purpose."""


class InvalidCardError(TienLenError, ValueError):
    """Card text that cannot be parsed, or cards that cannot exist together.

    Example:
        >>> from tienlen import parse_cards
        >>> parse_cards("3s 1x 5h")
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidCardError: invalid card '1x' in '3s 1x 5h' (at 3): ...
    """


class InvalidComboError(TienLenError, ValueError):
    """Cards that do not form a combination under the rule set in play.

    Example:
        >>> from tienlen import beats
        >>> beats("3s 4h", "5d")
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidComboError: '3s 4h' is not a combination under classic
    """


class InvalidRulesError(TienLenError, ValueError):
    """A rule set whose settings contradict each other (RULES §11)."""


class UnknownVariantError(TienLenError, ValueError):
    """A variant name that no registered rule set answers to."""
