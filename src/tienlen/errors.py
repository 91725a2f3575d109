"""The exceptions `tienlen` raises.

Every exception raised on purpose derives from `TienLenError`. Errors caused by bad
input (card text, cards that are no combination, an illegal action, a corrupt record)
also derive from `ValueError`, so ``except ValueError`` keeps working. A failed
operation never changes anything.

An error carries what went wrong as data (`IllegalPlayError.reason`,
`InvalidCardError.problem`, the cards); ``str(error)`` is the developer's English.
The sentence for the player, `IllegalPlayError.message` in any language of the
catalogue, is worded by `tienlen.messages`: this module imports nothing of
`tienlen` but the hook that asks it (``tienlen._wording``).
"""

from __future__ import annotations

import enum

from tienlen._wording import words

__all__ = [
    "IllegalPlayError",
    "IllegalReason",
    "InvalidArgumentError",
    "InvalidCardError",
    "InvalidComboError",
    "InvalidRulesError",
    "InvalidStateError",
    "SettingTypeError",
    "TienLenError",
    "UnknownLanguageError",
    "UnknownMessageError",
    "UnknownVariantError",
]


class TienLenError(Exception):
    """The root of every error ``tienlen`` raises on purpose.

    Every error pickles to an equal error (same type, message and attributes), so
    it crosses a process pool intact.

    Example:
        >>> import pickle
        >>> from tienlen.errors import IllegalPlayError, IllegalReason
        >>> error = IllegalPlayError(IllegalReason.CANNOT_PASS, 0, "pass", "the leader must play")
        >>> copy = pickle.loads(pickle.dumps(error))
        >>> (type(copy), str(copy), copy.reason) == (type(error), str(error), error.reason)
        True
    """

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt from its arguments and attributes, never by calling ``__init__``
        # again: subclasses may take other arguments than the message they store.
        return (_rebuild, (type(self), self.args, dict(self.__dict__)))


def _rebuild(
    cls: type[TienLenError], args: tuple[object, ...], state: dict[str, object]
) -> TienLenError:
    """Unpickle a `TienLenError`: its class, its ``args`` and its attributes."""
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class InvalidCardError(TienLenError, ValueError):
    """Card text that cannot be parsed, or cards that cannot exist together.

    Example:
        >>> from tienlen import parse_cards
        >>> parse_cards("3s 1x 5h")
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidCardError: invalid card '1x' in '3s 1x 5h' (at 3): ...

    ``str(error)`` is the developer's message; `InvalidCardError.message` is the
    sentence to show the player, in every language of the catalogue.

    Attributes:
        problem: What is wrong, when the parser knows: ``"rank-number"`` (a rank
            written as a number, ``11h``), ``"unknown-rank"``, ``"missing-suit"``,
            ``"unknown-suit"``, ``"too-long"``, ``"too-many"``, ``"empty"``,
            ``"duplicate"`` (a card named twice where one deck is in play),
            ``"too-many-copies"`` (a card named three or more times); or ``None``.
        token: The card text that could not be read (at most 20 characters), the
            card named too often (``"7h"``), or ``None``.
    """

    def __init__(
        self, *args: object, problem: str | None = None, token: str | None = None
    ) -> None:
        super().__init__(*args)
        self.problem = problem
        self.token = token

    def message(self, lang: str = "en") -> str:
        """The error as a sentence for the player, in a language of the catalogue.

        Raises:
            ValueError: *lang* is not one of `tienlen.messages.LANGUAGES` (an
                `UnknownLanguageError`).

        Example:
            >>> from tienlen import InvalidCardError, parse_cards
            >>> try:
            ...     parse_cards("9h 10h 11h")
            ... except InvalidCardError as error:
            ...     print(error.message())
            ...     print(error.message("vi"))
            11h is not a card: write J for the jack.
            11h không phải là lá bài: hãy gõ J cho lá bồi.
        """
        return words(self, lang)  # worded by `tienlen.messages.card_error`


class InvalidComboError(TienLenError, ValueError):
    """Cards that do not form a combination under the rule set in play.

    Example:
        >>> from tienlen import beats
        >>> beats("3s 4h", "5d")
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidComboError: '3s 4h' is not a combination under classic
    """


class InvalidArgumentError(TienLenError, ValueError):
    """An argument with the right type but a value no call accepts (``n_games=-1``).

    Example:
        >>> from tienlen import RandomPlayer, VIETCONG, simulate
        >>> simulate(-1, rules=VIETCONG, players=[RandomPlayer()] * 4, seed=1)
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidArgumentError: ...

    .. versionadded:: 0.2
    """


class InvalidRulesError(TienLenError, ValueError):
    """A rule set whose settings contradict each other (RULES §11).

    Example:
        >>> import attrs
        >>> from tienlen import CLASSIC
        >>> attrs.evolve(CLASSIC, min_players=5, max_players=3)
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidRulesError: invalid rule set 'classic': ...
    """


class SettingTypeError(InvalidRulesError, TypeError):
    """A rule-set setting of the wrong type: an `InvalidRulesError` and a ``TypeError``.

    Example:
        >>> import attrs
        >>> from tienlen import CLASSIC
        >>> attrs.evolve(CLASSIC, decks="2")
        Traceback (most recent call last):
        ...
        tienlen.errors.SettingTypeError: invalid rule set 'classic': decks must be an int, got '2'

    .. versionadded:: 0.2
    """


class UnknownVariantError(TienLenError, ValueError):
    """A variant name that no registered rule set answers to.

    Example:
        >>> from tienlen import get_rules
        >>> get_rules("bridge")
        Traceback (most recent call last):
        ...
        tienlen.errors.UnknownVariantError: unknown variant: 'bridge' ...
    """


class InvalidStateError(TienLenError, ValueError):
    """A game that cannot exist: a card in two hands, an empty hand, a wrong leader.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> GameState.from_hands(["3s 4s", "3s 5d"], CLASSIC)
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidStateError: card '3s' is dealt more often ...
    """


class IllegalReason(enum.StrEnum):
    """Why an action is illegal now: `IllegalPlayError.reason`.

    Example:
        >>> from tienlen.errors import IllegalReason
        >>> IllegalReason.DOES_NOT_BEAT.rule
        'rules-1-3'
    """

    GAME_OVER = "game over"
    """The game has ended (RULES §2.5, §4.4, §5.4, §6.7)."""
    UNKNOWN_PLAYER = "no such player"
    """The player index is not at the table (RULES §1.5)."""
    PLAYER_OUT = "player is out"
    """The player has no cards left (RULES §1.5.5)."""
    NOT_YOUR_TURN = "not your turn"
    """Another player is to act (RULES §1.5.2)."""
    LOCKED_OUT = "locked out"
    """The player passed earlier in this trick (RULES §1.5.3)."""
    CARDS_NOT_IN_HAND = "cards not in hand"
    """The player does not hold those cards (RULES §1.5.2)."""
    CARD_REPEATED = "card named twice"
    """The play names a card more often than the player holds it, as ``3s 3s`` with
    one 3♠ (RULES §1.5.2).

    .. versionadded:: 0.2
    """
    NOT_A_COMBO = "not a combination"
    """The cards form no combination under the rules (RULES §1.2)."""
    CANNOT_LEAD = "cannot be led"
    """Consecutive quads are slams only (RULES §5.2, D-13), or the table forbids
    leading bombs (RULES §12.1): `IllegalPlayError.rule` says which."""
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

    @property
    def rule(self) -> str:
        """The label of the section of the rules reference that decides this refusal.

        Labels name the numbered sections of the documentation's rules reference:
        ``"rules-1-3"`` is §1.3, ``"d-4"`` is decision D-4.

        Example:
            >>> from tienlen.errors import IllegalReason
            >>> IllegalReason.NOT_YOUR_TURN.rule, IllegalReason.CANNOT_LEAD.rule
            ('rules-1-5-2', 'd-13')
        """
        return _REASON_RULES[self]


_REASON_RULES: dict[IllegalReason, str] = {
    IllegalReason.GAME_OVER: "rules-1-5",
    IllegalReason.UNKNOWN_PLAYER: "rules-1-5",
    IllegalReason.PLAYER_OUT: "rules-1-5-5",
    IllegalReason.NOT_YOUR_TURN: "rules-1-5-2",
    IllegalReason.LOCKED_OUT: "rules-1-5-3",
    IllegalReason.CARDS_NOT_IN_HAND: "rules-1-5-2",
    IllegalReason.CARD_REPEATED: "rules-1-5-2",
    IllegalReason.NOT_A_COMBO: "rules-1-2",
    IllegalReason.CANNOT_LEAD: "d-13",
    IllegalReason.MUST_INCLUDE: "rules-2-4",
    IllegalReason.WRONG_SHAPE: "rules-1-3",
    IllegalReason.DOES_NOT_BEAT: "rules-1-3",
    IllegalReason.CANNOT_PASS: "rules-1-5-1",
    IllegalReason.CANNOT_GO_OUT: "rules-12-12",
}


class IllegalPlayError(TienLenError, ValueError):
    """An action the rules do not allow now; the game state is unchanged.

    ``str(error)`` is the developer's message (seats, rule set, reason);
    `message` is the sentence to show the player, in every language of the catalogue.

    Attributes:
        reason: The machine-readable `IllegalReason`.
        player: The acting player's index (``None`` when nobody could act: the game
            is over).
        action: The action refused, as card text (``"9s 9c 9d 9h"``) or ``"pass"``.
        detail: The developer's explanation, such as ``"player 2 is to act"``.
        top: The combination on the table, as card text, or ``None`` when there is
            none (a lead).
        cards: The cards that decide, as card text: for `IllegalReason.DOES_NOT_BEAT`
            the play's highest card and the top's (``("3d", "2d")``), for
            `IllegalReason.MUST_INCLUDE` the card the lead must contain, for
            `IllegalReason.CARDS_NOT_IN_HAND` the cards the player lacks, for
            `IllegalReason.CARD_REPEATED` the cards named too often; otherwise
            empty.
        rule: The label of the rules-reference section that decided this refusal:
            `IllegalReason.rule`, or a more precise one (``"rules-12-1"`` when a
            table's house rule forbids leading a bomb, ``"d-13"`` for Vietcong's
            slams). `tienlen.rule_section` turns it into a number, title and link.
        rules: The name of the rule set in play, or ``None``.

    Example:
        >>> from tienlen.errors import IllegalPlayError, IllegalReason
        >>> error = IllegalPlayError(
        ...     IllegalReason.DOES_NOT_BEAT, 1, "3d", "3♦ is not higher than 2♦",
        ...     top="2d", cards=("3d", "2d"),
        ... )
        >>> str(error)
        "illegal play '3d' by player 1: does not beat: 3♦ is not higher than 2♦"
        >>> error.message()
        '3♦ does not beat 2♦.'
        >>> error.message(lang="vi")
        '3♦ không chặn được 2♦.'
        >>> error.rule
        'rules-1-3'
    """

    def __init__(
        self,
        reason: IllegalReason,
        player: int | None,
        action: str,
        detail: str,
        *,
        top: str | None = None,
        cards: tuple[str, ...] = (),
        rule: str | None = None,
        rules: str | None = None,
    ) -> None:
        self.reason = reason
        self.player = player
        self.action = action
        self.detail = detail
        self.top = top
        self.cards = cards
        self.rule = reason.rule if rule is None else rule
        self.rules = rules
        shown = "pass" if action == "pass" else f"play {action!r}"
        actor = "" if player is None else f" by player {player}"
        super().__init__(f"illegal {shown}{actor}: {reason.value}: {detail}")

    def message(self, lang: str = "en") -> str:
        """The refusal as a sentence for the player: no seat numbers, no citations.

        Raises:
            ValueError: *lang* is not one of `tienlen.messages.LANGUAGES` (an
                `UnknownLanguageError`).

        Example:
            >>> from tienlen import CLASSIC, GameState, IllegalPlayError
            >>> state = GameState.from_hands(["3s 4h", "5d"], CLASSIC)
            >>> try:
            ...     state.pass_turn()
            ... except IllegalPlayError as error:
            ...     print(error.message())
            ...     print(error.message("vi"))
            You open this trick: you must play.
            Bạn đang mở vòng nên phải đánh, không được bỏ lượt.
        """
        return words(self, lang)  # worded by `tienlen.messages.refusal`


class UnknownMessageError(TienLenError, ValueError):
    """A key the message catalogue (`tienlen.messages`) has no entry for.

    Example:
        >>> from tienlen.messages import text
        >>> text("word.nothing")
        Traceback (most recent call last):
        ...
        tienlen.errors.UnknownMessageError: no message is called 'word.nothing'
    """


class UnknownLanguageError(TienLenError, ValueError):
    """A language the message catalogue does not have (``"en"`` and ``"vi"`` do).

    Example:
        >>> from tienlen.messages import text
        >>> text("word.pass", "fr")
        Traceback (most recent call last):
        ...
        tienlen.errors.UnknownLanguageError: unknown language 'fr' (known: en, vi)
    """
