"""Rule sets and the rule questions: `classify`, `beats`, `legal_plays` (RULES §1–§6).

A rule set is anything satisfying the `RuleSet` protocol. The five presets are
instances of `BaseRules`; look them up by name with `get_rules`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final, Protocol, runtime_checkable

from tienlen.cards import Card, Hand, as_hand
from tienlen.combos import Combo, ComboKind, Plays, Shape
from tienlen.engine.classification import as_combo as as_combo  # re-exported
from tienlen.engine.classification import beats_any as _beats_any
from tienlen.engine.classification import classify as _classify
from tienlen.engine.classification import legal_plays_any as _legal_plays_any
from tienlen.errors import UnknownVariantError
from tienlen.policies import DealPolicy, TurnPolicy
from tienlen.rules import classic, justus_pang, kenneth_lo, poker, vietcong
from tienlen.rules.base import (
    BaseRules,
    Bomb,
    CustomInstantWin,
    Direction,
    FirstLead,
    GameEnd,
    HandHolds,
    InstantWin,
    InstantWinHand,
    Scoring,
    two_decks,
)
from tienlen.rules.classic import CLASSIC, CLASSIC_TWO_DECKS
from tienlen.rules.justus_pang import JUSTUS_PANG
from tienlen.rules.kenneth_lo import KENNETH_LO
from tienlen.rules.poker import POKER
from tienlen.rules.registry import LISTED, find_preset, presets, register_preset
from tienlen.rules.vietcong import VIETCONG
from tienlen.scoring import Scorer

__all__ = [
    "CLASSIC",
    "CLASSIC_TWO_DECKS",
    "JUSTUS_PANG",
    "KENNETH_LO",
    "POKER",
    "RULESETS",
    "VIETCONG",
    "BaseRules",
    "Bomb",
    "CustomInstantWin",
    "Direction",
    "FirstLead",
    "GameEnd",
    "HandHolds",
    "InstantWin",
    "InstantWinHand",
    "RuleSet",
    "Scoring",
    "as_rules",
    "beats",
    "classify",
    "get_rules",
    "legal_plays",
    "two_decks",
]

CardsLike = str | Iterable[Card]
"""Card text or cards, as the convenience functions accept."""


@runtime_checkable
class RuleSet(Protocol):
    """What the library asks a variant. Implementations must be immutable and hashable.

    `BaseRules` implements it from settings; any object with these members works.

    Example:
        >>> import attrs
        >>> from tienlen import CLASSIC, GameState, RuleSet
        >>> @attrs.frozen
        ... class Renamed:  # answers as *base* does, under another name
        ...     base: RuleSet
        ...     name: str
        ...     def __getattr__(self, member):
        ...         return getattr(self.base, member)
        >>> table = Renamed(CLASSIC, "our-table")
        >>> state = GameState.from_hands(["3s 9h", "8d"], table).play("3s").play("8d")
        >>> state.rules.name, state.result.winner
        ('our-table', 1)
    """

    @property
    def name(self) -> str:
        """The canonical kebab-case name."""
        ...

    def classify(self, cards: str | Iterable[Card]) -> Combo | None:
        """The combination *cards* (card text or cards) form, or ``None``.

        Implementations accept card text too; `tienlen.parse_cards` reads it.
        """
        ...

    def beats(self, challenger: Combo, incumbent: Combo) -> bool:
        """Whether *challenger* may be played on *incumbent*."""
        ...

    def legal_plays(self, hand: Hand, top: Combo | None = None) -> Plays:
        """Every distinct combination in *hand* that may be led or that beats *top*."""
        ...

    def is_leadable(self, kind: ComboKind) -> bool:
        """Whether a combination of *kind* may be led."""
        ...

    # -- what the game engine asks (RULES §1.5, §2-§6) --

    @property
    def turn_policy(self) -> TurnPolicy:
        """Who acts and leads, and when the game ends (`tienlen.policies`)."""
        ...

    @property
    def deal_policy(self) -> DealPolicy:
        """The spare card and instant wins at the deal (`tienlen.policies`)."""
        ...

    @property
    def scorer(self) -> Scorer:
        """How a game is paid (`tienlen.scoring.Scorer`)."""
        ...

    @property
    def direction(self) -> Direction:
        """Play direction."""
        ...

    def deal_size(self, players: int) -> tuple[int, int]:
        """``(decks, cards per player)`` for *players*."""
        ...

    def lead_must_include(
        self, *, first_game: bool, after_instant_win: bool = False
    ) -> bool:
        """Whether the first lead must include 3♠ or the lowest dealt card."""
        ...

    @property
    def may_decline_first_lead(self) -> bool:
        """Whether that player may pass instead."""
        ...

    def is_bomb(self, shape: Shape) -> bool:
        """Whether *shape* is a bomb (it appears in the bomb table or chain)."""
        ...

    def is_chop_target(self, top: Combo) -> bool:
        """Whether *top* is a single 2, a pair of 2s or a bomb."""
        ...

    def may_jump_in(self, play: Combo, top: Combo) -> bool:
        """Whether *play* may be played out of turn onto *top*."""
        ...

    def instant_win(
        self, hand: Hand, *, first_game: bool = True
    ) -> InstantWinHand | None:
        """The instant win *hand* qualifies for at the deal (*first_game*: of a match)."""
        ...

    def is_catch(self, play: Combo, top: Combo) -> bool:
        """Whether playing *play* on *top* is a catch."""
        ...

    def chop_value(self, combo: Combo) -> int:
        """What catching *combo* is worth."""
        ...

    def hand_value(self, hand: Hand) -> int:
        """The value of the 2s and bombs in *hand*."""
        ...

    def place_points_for(self, players: int) -> tuple[int, ...]:
        """Place points for a table of *players*."""
        ...

    @property
    def frozen_penalty(self) -> int:
        """What a frozen player loses besides their 2s and bombs."""
        ...

    @property
    def instant_win_stake(self) -> int:
        """Stakes each other player pays an instant winner under stake scoring."""
        ...

    @property
    def instant_win_points(self) -> int:
        """Points an instant win scores under Poker points."""
        ...


for _preset in (  # the registry, one line a preset, in the rules reference's order
    classic.PRESET,
    justus_pang.PRESET,
    kenneth_lo.PRESET,
    vietcong.PRESET,
    poker.PRESET,
    classic.TWO_DECKS_PRESET,
):
    register_preset(_preset)

RULESETS: Final[Mapping[str, BaseRules]] = LISTED
"""The listed presets by canonical name, in the order of the rules reference (one deck
each), then any registered later (``tienlen.rules.registry``; a live view)."""


def get_rules(name: str) -> BaseRules:
    """The preset called *name* or one of its aliases, case-insensitively.

    Every registered preset answers (``tienlen.rules.registry``): the five of
    `RULESETS` and `CLASSIC_TWO_DECKS`.

    Raises:
        UnknownVariantError: no preset answers to *name*.

    Example:
        >>> get_rules("Justus Pang") is JUSTUS_PANG
        True
        >>> get_rules("vc").name
        'vietcong'
        >>> get_rules("two decks") is CLASSIC_TWO_DECKS
        True
    """
    if not isinstance(name, str):
        msg = f"expected a variant name, got {name!r}"  # type: ignore[unreachable]
        raise TypeError(msg)
    preset = find_preset(name)
    if preset is not None:
        return preset.rules
    known = ", ".join(preset.name for preset in presets(listed_only=False))
    msg = f"unknown variant: {name!r} (known: {known})"
    raise UnknownVariantError(msg)


def as_rules(rules: RuleSet | str, argument: str = "rules") -> RuleSet:
    """*rules*, or the preset a name gives (`get_rules`): how every API takes a rule set.

    Raises:
        TypeError: *rules* is neither a rule set nor a string.
        UnknownVariantError: no preset answers to the name.

    Example:
        >>> as_rules("Justus Pang") is JUSTUS_PANG, as_rules(CLASSIC) is CLASSIC
        (True, True)
        >>> as_rules(4)
        Traceback (most recent call last):
        ...
        TypeError: rules must be a rule set or a preset's name, not int
    """
    if isinstance(rules, str):
        return get_rules(rules)
    if isinstance(rules, BaseRules) or callable(getattr(rules, "deal_size", None)):
        return rules
    shown = type(rules).__name__
    msg = f"{argument} must be a rule set or a preset's name, not {shown}"
    raise TypeError(msg)


def classify(cards: CardsLike, rules: RuleSet = CLASSIC) -> Combo | None:
    """The combination *cards* form under *rules*, or ``None`` if they form none.

    Implements RULES §1.2–§1.4 and the variant's shapes (§2.2, §3.1, §5.1–§5.2, §6.2).

    Args:
        cards: Card text (``"3s 4s 5h"``) or cards, in any order.
        rules: The variant; `CLASSIC` by default.

    Raises:
        InvalidCardError: bad card text, or a duplicate card where one deck is in play.

    Example:
        >>> classify("7h 7s")
        <Combo PAIR '7s 7h'>
        >>> classify("As 2c 3d") is None  # sequences never wrap (RULES §1.4)
        True
        >>> classify("Jd Qh Kh Ac 2d", VIETCONG) is None  # no 2s in straights (§5.1)
        True
    """
    if type(rules) is BaseRules:  # its method is this call: made at once
        return _classify(rules, cards)
    check_rules(rules)
    return rules.classify(cards)


def check_rules(rules: object) -> None:
    """Refuse anything that is not a rule set with `TypeError` (private helper).

    Raises:
        TypeError: *rules* lacks the members of `RuleSet`.
    """
    if type(rules) is not BaseRules and not isinstance(rules, RuleSet):
        msg = f"expected a rule set (a RuleSet such as CLASSIC), got {rules!r}"
        raise TypeError(msg)


def beats(
    play: Combo | CardsLike, top: Combo | CardsLike, rules: RuleSet = CLASSIC
) -> bool:
    """Whether *play* may be played on *top* under *rules*.

    Same shapes compare by their highest card (RULES §1.3); different shapes only
    through the variant's bomb table (§2.3, §4.3, §5.2, §6.3). Equal cards never beat.

    Args:
        play: The combination played: a `Combo`, card text or cards.
        top: The combination on top of the pile.
        rules: The variant; `CLASSIC` by default.

    Raises:
        InvalidCardError: bad card text.
        InvalidComboError: *play* or *top* is not a combination under *rules*.

    Example:
        >>> beats("8s", "7h")  # rank before suit (RULES §9 row 1)
        True
        >>> beats("5s 5c 5d 5h", "2h")  # four of a kind on a single 2 (row 8)
        True
        >>> beats("5s 5c 5d 5h", "Ah")  # only against 2s (row 9)
        False
    """
    if type(rules) is BaseRules:  # its method, made at once (the cards classified)
        return _beats_any(rules, play, top)
    check_rules(rules)
    if type(play) is not Combo:
        play = as_combo(play, rules)
    if type(top) is not Combo:
        top = as_combo(top, rules)
    return rules.beats(play, top)


def legal_plays(
    hand: Hand | CardsLike,
    top: Combo | CardsLike | None = None,
    rules: RuleSet = CLASSIC,
) -> Plays:
    """Every distinct combination in *hand* that may be led, or that beats *top*.

    Leads (*top* ``None``) are every combination the variant lets a player lead;
    against a top they are the same-shape plays that beat it plus every bomb that
    does (RULES §1.3, §2.3). With two decks equal combinations are listed once.
    The order is deterministic but not part of the rules: leads come rank by rank
    (singles, pairs, triples, fours), then straights, then runs; against a top the
    same-shape plays come first, then the bombs.

    Args:
        hand: The player's cards.
        top: The combination to beat, or ``None`` to lead.
        rules: The variant; `CLASSIC` by default.

    Raises:
        InvalidCardError: bad card text, or a duplicate card where one deck is in play.
        InvalidComboError: *top* is not a combination under *rules*.

    Example:
        >>> [str(p) for p in legal_plays("3s 4s 5h 5d", "4h")]
        ['5d', '5h']
        >>> len(legal_plays("3s 4s 5h 5d"))  # 4 singles, 1 pair, 2 straights
        7
    """
    if type(rules) is BaseRules:  # its method, made at once (the cards read)
        return _legal_plays_any(rules, hand, top)
    check_rules(rules)
    checked_top = None if top is None else as_combo(top, rules)
    return rules.legal_plays(as_hand(hand), checked_top)
