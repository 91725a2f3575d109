"""The exceptions `tienlen` raises.

Every exception raised on purpose derives from `TienLenError`. Errors caused by bad
input (card text, cards that are no combination, an illegal action, a corrupt record)
also derive from `ValueError`, so ``except ValueError`` keeps working. A failed
operation never changes anything.
"""

from __future__ import annotations

import enum

__all__ = [
    "IllegalPlayError",
    "IllegalReason",
    "InvalidCardError",
    "InvalidComboError",
    "InvalidRulesError",
    "InvalidStateError",
    "TienLenError",
    "UnknownVariantError",
]


class TienLenError(Exception):
    """The root of every error ``tienlen`` raises on purpose."""


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


class InvalidStateError(TienLenError, ValueError):
    """A game that cannot exist: a card in two hands, an empty hand, a wrong leader."""


class IllegalReason(enum.StrEnum):
    """Why an action is illegal now: `IllegalPlayError.reason`."""

    GAME_OVER = "game over"
    """The game has ended (RULES §2.5, §4.4, §5.4, §6.7)."""
    UNKNOWN_PLAYER = "no such player"
    """The player index is not at the table."""
    PLAYER_OUT = "player is out"
    """The player has no cards left (RULES §1.5.5)."""
    NOT_YOUR_TURN = "not your turn"
    """Another player is to act (RULES §1.5.2)."""
    LOCKED_OUT = "locked out"
    """The player passed earlier in this trick (RULES §1.5.3)."""
    CARDS_NOT_IN_HAND = "cards not in hand"
    """The player does not hold those cards."""
    NOT_A_COMBO = "not a combination"
    """The cards form no combination under the rules (RULES §1.2)."""
    CANNOT_LEAD = "cannot be led"
    """Consecutive quads are slams only (RULES §5.2, D-13)."""
    MUST_INCLUDE = "must include the first-lead card"
    """The first lead must contain 3♠ or the lowest dealt card (RULES §2.4, D-4)."""
    WRONG_SHAPE = "wrong shape"
    """Only the same shape, or a bomb the table allows, beats the top (RULES §1.3, §3.4)."""
    DOES_NOT_BEAT = "does not beat"
    """Same shape but not strictly higher (RULES §1.3)."""
    CANNOT_PASS = "cannot pass"  # noqa: S105
    """The leader must play (RULES §1.5.1)."""
    CANNOT_GO_OUT = "cannot go out with that"
    """The table forbids going out with a 2 or a bomb (RULES §12.12)."""


class IllegalPlayError(TienLenError, ValueError):
    """An action the rules do not allow now; the game state is unchanged.

    Attributes:
        reason: The machine-readable `IllegalReason`.
        player: The acting player's index (``None`` when nobody could act: the game
            is over).
        action: The action refused, as text (``"9s 9c 9d 9h"`` or ``"pass"``).
    """

    def __init__(
        self, reason: IllegalReason, player: int | None, action: str, detail: str
    ) -> None:
        self.reason = reason
        self.player = player
        self.action = action
        shown = "pass" if action == "pass" else f"play {action!r}"
        actor = "" if player is None else f" by player {player}"
        super().__init__(f"illegal {shown}{actor}: {reason.value}: {detail}")
