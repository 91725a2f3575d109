"""`BaseRules`: one frozen, keyword-only settings class for every variant (RULES §11).

Each preset is an instance; a house rule is ``attrs.evolve(CLASSIC, …)``. The methods
answer the rule questions from the settings alone, so every rule traces to one field
and one section of the rules reference. Contradictory settings raise `InvalidRulesError` when
the rule set is built.
"""

from __future__ import annotations

import enum
import functools
import inspect
import itertools
import operator
import threading
import types
import unicodedata
from collections.abc import Callable, Collection, Iterable, Iterator
from types import MappingProxyType
from typing import (
    Any,
    Final,
    NoReturn,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

import attrs

from tienlen._checks import short_repr
from tienlen.cards import DECK, Card, Hand, Rank, as_hand, mask_of, parse_cards
from tienlen.combos import Combo, ComboKind, Plays, Shape
from tienlen.engine import bits as _bits
from tienlen.engine.classification import Classifier, not_cards
from tienlen.engine.classification import beats as _beats
from tienlen.engine.classification import classify as _classify
from tienlen.engine.classification import legal_plays as _legal_plays
from tienlen.engine.counts import (
    dragon_without_two,
    five_consecutive_pairs,
    four_twos,
    has_run,
    holds_run,
    one_colour,
    ranks_with,
    six_exact_pairs,
    six_pairs,
    thirteen_ranks,
    three_consecutive_triples,
    three_triples,
)
from tienlen.engine.kinds import KINDS
from tienlen.engine.movegen import Tables, structural_key_fits, valid_keys
from tienlen.engine.shapes import STRUCTURES
from tienlen.engine.turns import facts_read
from tienlen.errors import (
    InvalidArgumentError,
    InvalidCardError,
    InvalidComboError,
    InvalidRulesError,
    SettingTypeError,
)
from tienlen.policies import DealPolicy, LeaderAfterGoingOut, TurnPolicy
from tienlen.scoring import PokerScorer, Scorer, StakeScorer

__all__ = [
    "WRITTEN_WHEN_SET",
    "BaseRules",
    "Bomb",
    "CustomInstantWin",
    "Direction",
    "Feed",
    "FirstLead",
    "GameEnd",
    "HandHolds",
    "InstantWin",
    "Scoring",
    "policy_settings",
    "two_decks",
]

WRITTEN_WHEN_SET: Final = MappingProxyType({"written_when_set": True})
"""Marks a setting added after format 2 (field metadata). Records write such a setting
only when it is not its default, so the rule sets that leave it off write the JSON they
always wrote."""


class Direction(enum.Enum):
    """Play direction (RULES §2.1, §6.1). Players are numbered clockwise.

    Example:
        >>> from tienlen import CLASSIC, POKER, Direction
        >>> CLASSIC.direction, POKER.direction
        (<Direction.CLOCKWISE: 1>, <Direction.COUNTERCLOCKWISE: -1>)
    """

    CLOCKWISE = 1
    """From player ``i`` to ``i + 1``."""
    COUNTERCLOCKWISE = -1
    """From player ``i`` to ``i - 1`` (Poker)."""


class FirstLead(enum.Enum):
    """When the lead must include 3♠, or the lowest dealt card (RULES §2.4, §5.3, §6.5).

    Example:
        >>> from tienlen import CLASSIC, VIETCONG, FirstLead
        >>> CLASSIC.first_lead, VIETCONG.first_lead
        (<FirstLead.FIRST_GAME: 'first-game'>, <FirstLead.EVERY_GAME: 'every-game'>)
    """

    FIRST_GAME = "first-game"
    """Only in the first game of a match; later the previous winner leads anything."""
    EVERY_GAME = "every-game"
    """In every game (Vietcong)."""
    FIRST_GAME_AND_AFTER_INSTANT_WIN = "first-game-and-after-instant-win"
    """In the first game and after a game ended by an instant win (Poker, D-16)."""


class GameEnd(enum.Enum):
    """When a game ends (RULES §2.5, §4.4).

    Example:
        >>> from tienlen import CLASSIC, KENNETH_LO, GameEnd
        >>> CLASSIC.game_end, KENNETH_LO.game_end
        (<GameEnd.LAST_HOLDER: 'last-holder'>, <GameEnd.FIRST_OUT: 'first-out'>)
    """

    LAST_HOLDER = "last-holder"
    """When only one player holds cards, the loser."""
    FIRST_OUT = "first-out"
    """As soon as one player goes out, the winner (Kenneth Lo, D-11)."""


class Scoring(enum.Enum):
    """How a game is paid (RULES §2.5, §4.4, §6.6).

    Example:
        >>> from tienlen import CLASSIC, KENNETH_LO, POKER, Scoring
        >>> [rules.scoring.value for rules in (CLASSIC, KENNETH_LO, POKER)]
        ['loser-pays-each', 'each-pays-winner', 'poker-points']
        >>> Scoring("poker-points") is POKER.scoring
        True
    """

    LOSER_PAYS_EACH = "loser-pays-each"
    """The loser pays one stake to every other player."""
    EACH_PAYS_WINNER = "each-pays-winner"
    """Every other player pays the winner one stake."""
    POKER_POINTS = "poker-points"
    """Place points, chop bonuses, frozen and end penalties (RULES §6.6)."""


class InstantWin(enum.Enum):
    """Hands that win at the deal (*tới trắng*, RULES §5.4, §6.7, §12.5).

    When a hand qualifies for several, the first member in this order is the one
    reported.

    Example:
        >>> from tienlen import VIETCONG, Hand, InstantWin
        >>> InstantWin("six-pairs")
        <InstantWin.SIX_PAIRS: 'six-pairs'>
        >>> VIETCONG.instant_win(Hand.parse("2s 2c 2d 2h 3s 5c 7d 9h Jc Ks 4h 6d 8s"))
        <InstantWin.FOUR_TWOS: 'four-twos'>
    """

    FOUR_TWOS = "four-twos"
    """All four 2s."""
    SIX_PAIRS = "six-pairs"
    """Six pairs, counting ⌊n/2⌋ pairs per rank."""
    FIVE_CONSECUTIVE_PAIRS = "five-consecutive-pairs"
    """Five consecutive pairs without 2s."""
    THIRTEEN_RANKS = "thirteen-ranks"
    """One card of every rank, 3…A plus a 2 (the dragon)."""
    THREE_CONSECUTIVE_TRIPLES = "three-consecutive-triples"
    """Three or more cards at each of three consecutive ranks, without 2s (RULES §12.5)."""
    TWO_BOMBS = "two-bombs"
    """Two disjoint combinations of the rule set's bomb shapes (RULES §12.5)."""
    ONE_COLOUR = "one-colour"
    """Thirteen or more cards of one colour, red (♦♥) or black (♠♣) (RULES §12.5).

    A 13-card hand is all red or all black; a smaller hand never qualifies, a
    larger one (17 cards for three) when 13 of its cards share a colour.
    """
    FOUR_THREES = "four-threes"
    """All four 3s, in the first game of a match only (RULES §12.5)."""
    THREE_TRIPLES = "three-triples"
    """Three or more cards at each of three ranks (RULES §12.5)."""
    DRAGON_WITHOUT_TWO = "dragon-without-two"
    """One card of every rank 3…A, no 2 needed (RULES §12.5)."""


def _check_hand_holds(holds: HandHolds, _: object, __: object) -> None:
    """The checks of `HandHolds` that relate its fields (RULES §12.5)."""
    if not 1 <= holds.per_rank <= _MOST_OF_A_RANK:
        msg = f"per_rank must be 1-{_MOST_OF_A_RANK}, got {holds.per_rank}"
        raise InvalidArgumentError(msg)
    most = _RANKS_BELOW_TWO if holds.consecutive else _bits.RANKS
    if not 1 <= holds.ranks <= most:
        msg = f"ranks must be 1-{most}{' when consecutive' * holds.consecutive}, got {holds.ranks}"
        raise InvalidArgumentError(msg)
    if holds.rank is not None and (holds.ranks != 1 or holds.consecutive):
        msg = f"a hand holding cards of one rank ({holds.rank.name.lower()}) counts ranks=1, not consecutive"
        raise InvalidArgumentError(msg)


def _exact_int(_: object, attribute: attrs.Attribute[int], value: object) -> None:
    if type(value) is not int:
        msg = f"{attribute.name} must be an int, got {value!r}"
        raise TypeError(msg)


@attrs.frozen(kw_only=True)
class HandHolds:
    """An instant-win test as data: the dealt hand holds `per_rank` cards at `ranks` ranks.

    Give it as the `CustomInstantWin.test` of a table's own hand: unlike a function, it
    is data, so rule sets holding it are written to records and notation and read back
    (RULES §12.5). The common hands of §12.5 are one value each.

    Raises:
        TypeError: a field has the wrong type.
        InvalidArgumentError: *per_rank* is not 1-8, *ranks* not 1-13 (1-12 when
            *consecutive*), or *rank* is given with *ranks* other than 1 or *consecutive*.

    Example:
        >>> from tienlen import Hand, Rank
        >>> three_threes = HandHolds(per_rank=3, rank=Rank.THREE)  # three 3s
        >>> three_threes(Hand.parse("3s 3c 3d 9h")), three_threes(Hand.parse("3s 3c 9h"))
        (True, False)
        >>> HandHolds(per_rank=2, ranks=5, consecutive=True)(Hand.parse("4s 4c 5s 5c 6d 6h 7s 7c 8d 8h"))
        True
    """

    per_rank: int = attrs.field(validator=_exact_int)
    """Cards the hand holds at least, at each rank counted (1-8)."""
    ranks: int = attrs.field(default=1, validator=_exact_int)
    """How many ranks must hold them (1-13)."""
    rank: Rank | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(attrs.validators.instance_of(Rank)),
    )
    """The one rank that must hold them (``None``: any ranks)."""
    consecutive: bool = attrs.field(
        default=False,
        validator=[attrs.validators.instance_of(bool), _check_hand_holds],
    )
    """Whether the ranks must follow each other, below the 2 (as five consecutive pairs)."""

    def __call__(self, hand: Hand | str | Iterable[Card]) -> bool:
        """Whether *hand* (a `Hand`, card text or cards) holds the cards this value asks for.

        Raises:
            TypeError: *hand* is not hand-like.
            tienlen.errors.InvalidCardError: its text or cards are not cards.

        Example:
            >>> from tienlen import Hand
            >>> HandHolds(per_rank=3, ranks=3)(Hand.parse("4s 4c 4d 7s 7c 7d Js Jc Jd"))
            True
        """
        held = ranks_with(_bits.rank_counts(as_hand(hand).mask), self.per_rank)
        if self.rank is not None:
            return bool(held >> _bits.SHIFTS[self.rank.value] & 1)
        if self.consecutive:
            return has_run(held, self.ranks)
        return held.bit_count() >= self.ranks


@attrs.frozen(kw_only=True)
class CustomInstantWin:
    """A table's own instant-win hand: a name and a test of the dealt hand (RULES §12.5).

    Put it in a rule set's `BaseRules.instant_wins` beside the built-in `InstantWin`
    members; they are tried first, then the custom ones by name. A rule set holding one
    plays and scores like any other. Its test is a `HandHolds` value (data, which
    records and notation save and replay) or a function of the hand (code: a rule set
    holding it cannot be written to a record).

    Example:
        >>> import attrs
        >>> from tienlen import CLASSIC, CustomInstantWin, GameState, Hand, HandHolds, Rank
        >>> threes = CustomInstantWin(
        ...     name="three-threes", test=HandHolds(per_rank=3, rank=Rank.THREE), first_game_only=True
        ... )
        >>> house = attrs.evolve(CLASSIC, name="three-threes", instant_wins={threes})
        >>> GameState.from_hands(["3s 3c 3d 8h", "9d Ts"], house).result.winner
        0
        >>> low = CustomInstantWin(
        ...     name="no-card-above-8", test=lambda hand: all(c.rank <= Rank.EIGHT for c in hand)
        ... )
        >>> house = attrs.evolve(CLASSIC, name="low-hands", instant_wins={low})
        >>> house.instant_win(Hand.parse("3s 4s 5s 8h")) is low
        True
    """

    name: str = attrs.field(validator=attrs.validators.instance_of(str))
    """What the table calls the hand (``str()`` of the win)."""
    test: HandHolds | Callable[[Hand], bool] = attrs.field(
        validator=attrs.validators.is_callable()
    )
    """The test of whether a dealt hand is this instant win (a `HandHolds` value, or a function)."""
    first_game_only: bool = attrs.field(
        default=False, validator=attrs.validators.instance_of(bool)
    )
    """Whether it counts only in the first game of a match (as `InstantWin.FOUR_THREES`)."""

    @property
    def value(self) -> str:
        """The name, as ``InstantWin.value`` names a built-in hand (in records and output).

        Example:
            >>> from tienlen import CustomInstantWin, InstantWin
            >>> CustomInstantWin(name="all-low", test=lambda hand: False).value
            'all-low'
            >>> InstantWin.FOUR_TWOS.value
            'four-twos'
        """
        return self.name

    def __str__(self) -> str:
        return self.name


InstantWinHand = InstantWin | CustomInstantWin
"""An instant-win hand: built in (`InstantWin`) or a table's own (`CustomInstantWin`)."""


def _check_bomb(bomb: Bomb, _: object, target: Shape) -> None:
    if target == bomb.bomb:
        msg = f"a bomb cannot target its own shape ({target}): same shapes compare by top card"
        raise InvalidRulesError(msg)


@attrs.frozen(kw_only=True)
class Bomb:
    """One row of a bomb table: combinations of shape `bomb` beat `target` (RULES §2.3).

    Example:
        >>> four = Shape.of(ComboKind.FOUR_OF_A_KIND)
        >>> str(Bomb(bomb=four, target=Shape.of(ComboKind.SINGLE), target_rank=Rank.TWO))
        'four of a kind beats single 2'
    """

    bomb: Shape
    """The shape that bombs."""
    target: Shape = attrs.field(validator=_check_bomb)
    """The shape it beats, whatever the cards' ranks."""
    target_rank: Rank | None = None
    """When set, only targets of this rank (the rank of their top card) are beaten."""

    def __str__(self) -> str:
        rank = f" {self.target_rank.symbol}" if self.target_rank is not None else ""
        return f"{self.bomb} beats {self.target}{rank}"


def _collected(kind: Callable[[Iterable[object]], object], values: object) -> Any:
    """*values* as a *kind* (`tuple`, `frozenset`); text and non-iterables are left alone.

    What is left alone is refused by the settings' type check, which names the setting.
    """
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        return values
    return kind(values)


def _str_tuple(values: Iterable[str]) -> tuple[str, ...]:
    return _collected(tuple, values)  # type: ignore[no-any-return]


def _kinds(values: Iterable[ComboKind]) -> frozenset[ComboKind]:
    return _collected(frozenset, values)  # type: ignore[no-any-return]


def _bombs(values: Iterable[Bomb]) -> frozenset[Bomb]:
    return _collected(frozenset, values)  # type: ignore[no-any-return]


def _shape_set(values: Iterable[Shape]) -> frozenset[Shape]:
    return _collected(frozenset, values)  # type: ignore[no-any-return]


def _shape_tuple(values: Iterable[Shape]) -> tuple[Shape, ...]:
    return _collected(tuple, values)  # type: ignore[no-any-return]


def _int_tuple(values: Iterable[int]) -> tuple[int, ...]:
    return _collected(tuple, values)  # type: ignore[no-any-return]


def _instant_wins(values: Iterable[InstantWinHand]) -> frozenset[InstantWinHand]:
    return _collected(frozenset, values)  # type: ignore[no-any-return]


def _bomb_values(values: Iterable[tuple[Shape, int]]) -> tuple[tuple[Shape, int], ...]:
    items = _collected(tuple, values)
    try:
        return tuple(sorted(items, key=lambda item: item[0].code))
    except (TypeError, AttributeError, IndexError, KeyError):
        return items  # type: ignore[no-any-return]  # refused by the type check


_STANDARD_KINDS: Final = frozenset(
    {
        ComboKind.SINGLE,
        ComboKind.PAIR,
        ComboKind.TRIPLE,
        ComboKind.FOUR_OF_A_KIND,
        ComboKind.STRAIGHT,
        ComboKind.CONSECUTIVE_PAIRS,
    }
)
"""The kinds of RULES §1.2 every preset but Vietcong plays (a whitelist)."""
_MAX_PLAYERS: Final = 8
_ONE_DECK_PLAYERS: Final = 4
_TWO_DECKS_HINT: Final = (
    "CLASSIC_TWO_DECKS, or attrs.evolve(rules, decks=2, min_players=5, max_players=8)"
)
"""How to get a two-deck table, for the messages that refuse five or more on one deck."""
_LONGEST_RUN: Final = _bits.RANKS
_SHORTEST_PAIR_RUN: Final = KINDS[ComboKind.CONSECUTIVE_PAIRS.value].shortest
"""The fewest pairs any run of consecutive pairs has (RULES §1.2): three."""
_SETS_OF_TWOS: Final = (
    ComboKind.SINGLE,
    ComboKind.PAIR,
    ComboKind.TRIPLE,
    ComboKind.FOUR_OF_A_KIND,
)
"""The kinds that hold n = 1…4 2s, for `BaseRules.pair_runs_beat_twos` (RULES §12.3)."""
_TWO: Final = Rank.TWO.value
_MOST_OF_A_RANK: Final = 8
"""The most cards of one rank a hand may hold (two decks, RULES §2.1): `HandHolds`."""
_RANKS_BELOW_TWO: Final = _bits.RANKS - 1
"""How many ranks a run below the 2 may span (`HandHolds.consecutive`)."""
_Items = tuple[tuple[int, int, int, int], ...]
"""`_best_packing` items: ``(per_rank, length, value, top_rank)`` for each bomb shape."""
_TWO_CARDS: Final = 4 * _TWO
"""The index of the first 2 (2♠) in a hand mask."""
_ANY_TWO: Final = _bits.RANK_CARDS[_TWO]
"""The four 2s of either deck."""
_LOW_HALF: Final = _bits.LOW_HALF
_ANY_MASK: Final = (1 << 2 * _bits.CARDS) - 1
"""Every card of two decks: no mask exceeds it."""


class _Verdicts(dict[int, bool]):
    """A rule set's remembered `beats` answers: a cache, so it pickles empty."""

    __slots__ = ()

    def __reduce__(self) -> tuple[type[_Verdicts], tuple[()]]:
        return _Verdicts, ()


WIN_NAME_LIMIT: Final = 64
"""The most characters of the name of a table's own instant win (`CustomInstantWin`)."""
_BUILT_IN_WINS: Final = {win.value: win for win in InstantWin}
"""The built-in instant wins by name: a table's own win may not take one."""


def _name_problems(name: str) -> Iterator[str]:
    """What is wrong with a rule set's *name*: empty, or not printable text.

    A control character or a lone surrogate would break every text that shows it
    (`str` of a state, its notation encoded as UTF-8).
    """
    if not name:
        yield "the name is empty"
    elif any(
        unicodedata.category(char)[0] == "C" or char in "\u2028\u2029" for char in name
    ):
        # control and format characters, lone surrogates, line breaks; spaces of any
        # kind (a no-break space) are text
        yield "the name must be printable text, without control characters or lone surrogates"


def _win_name_problems(name: str) -> Iterator[str]:
    """What is wrong with the name of a table's own instant win, besides a clash.

    The rule of a rule set's name (`_name_problems`), and not blank nor longer than
    `WIN_NAME_LIMIT`.
    """
    yield from _name_problems(name)
    if name and name.isspace():
        yield "the name is blank"
    if len(name) > WIN_NAME_LIMIT:
        yield f"the name is {len(name)} characters long, more than {WIN_NAME_LIMIT}"


@attrs.frozen
class Feed:
    """Field metadata of a setting that feeds a policy: which field, and how (`policy_settings`).

    A setting is written once, in `BaseRules`; the policy field it gives its value
    is named in its metadata, and the rule set builds its policies from those names.

    Example:
        >>> import attrs
        >>> feed = attrs.fields(BaseRules).game_end.metadata["feeds"]
        >>> feed.policy.__name__, feed.field, feed.convert(GameEnd.FIRST_OUT)
        ('TurnPolicy', 'ends_at_first_out', True)
    """

    policy: type
    """The policy class fed (`TurnPolicy`, `DealPolicy`, `StakeScorer` or `PokerScorer`)."""
    field: str
    """The policy's field the setting gives its value."""
    convert: Callable[[Any], object]
    """The setting's value as the field's (`game_end` to ``ends_at_first_out``, say)."""


def _same(value: object) -> object:
    """The setting's value as it is: a flag feeding a flag of the same name."""
    return value


def _feeds(
    policy: type, field: str, convert: Callable[[Any], object] = _same
) -> MappingProxyType[str, object]:
    """Field metadata: this setting gives *policy*'s *field* its value (through *convert*)."""
    return MappingProxyType({_FEEDS: Feed(policy, field, convert)})


_FEEDS: Final = "feeds"
"""The field metadata key of a `Feed`."""


def _is_first_out(end: GameEnd) -> bool:
    """`BaseRules.game_end` as `TurnPolicy.ends_at_first_out`."""
    return end is GameEnd.FIRST_OUT


def _each_pays_winner(scoring: Scoring) -> bool:
    """`BaseRules.scoring` as `StakeScorer.each_pays_winner`."""
    return scoring is Scoring.EACH_PAYS_WINNER


def policy_settings(
    rules: type[BaseRules], policy: type
) -> MappingProxyType[str, Feed]:
    """The settings of the rule set class *rules* that feed *policy*, by name.

    Read from the field metadata (`Feed`): each setting names the policy field it
    fills, so adding one is one field written once.

    Example:
        >>> from tienlen.policies import DealPolicy, TurnPolicy
        >>> {name: feed.field for name, feed in policy_settings(BaseRules, TurnPolicy).items()}
        ... # doctest: +NORMALIZE_WHITESPACE
        {'jump_in': 'jump_ins', 'continuation': 'continuation', 'game_end': 'ends_at_first_out',
         'pass_locks_out': 'pass_locks_out', 'leader_after_going_out': 'leader_after_going_out',
         'no_going_out_with_two': 'no_going_out_with_two',
         'no_going_out_with_bomb': 'no_going_out_with_bomb', 'bomb_reopens_trick': 'bomb_reopens_trick'}
        >>> list(policy_settings(BaseRules, DealPolicy))
        ['spare_card_to_starter']
    """
    found = _POLICY_SETTINGS.get((rules, policy))
    if found is None:
        found = _POLICY_SETTINGS[rules, policy] = MappingProxyType(
            {
                field.name: feed
                for field in attrs.fields(rules)
                if isinstance(feed := field.metadata.get(_FEEDS), Feed)
                and feed.policy is policy
            }
        )
    return found


def _changed_members(cls: type) -> frozenset[str]:
    """What the `BaseRules` subclass *cls* answers otherwise: methods it overrides, settings it adds.

    Methods and properties of `BaseRules` (private ones too, and the hook after
    ``__init__``), compared as the class holds them; the generated dunders of an attrs
    subclass are the same settings' and are not counted.
    """
    changed = _CHANGED.get(cls)
    if changed is None:
        overridden = {
            name
            for name, member in vars(BaseRules).items()
            if (not name.startswith("__") or name == "__attrs_post_init__")
            and isinstance(member, _MEMBERS)
            and inspect.getattr_static(cls, name) is not member
        }
        base = {field.name for field in attrs.fields(BaseRules)}
        added = {field.name for field in attrs.fields(cls)} - base
        changed = _CHANGED[cls] = frozenset(overridden | added)
    return changed


_MEMBERS: Final = (types.FunctionType, property, classmethod, staticmethod)
"""What a `BaseRules` member that answers a question may be (`_changed_members`)."""
_CHANGED: Final[dict[type, frozenset[str]]] = {}
"""`_changed_members`' answers, once per class."""


_POLICY_SETTINGS: Final[dict[tuple[type, type], MappingProxyType[str, Feed]]] = {}
"""`policy_settings`' answers, computed once per rule set class and policy class."""


class _Contexts(dict[int, Any]):
    """A rule set's engine contexts by table size: rebuilt from it, so it pickles empty."""

    __slots__ = ()

    def __reduce__(self) -> tuple[type[_Contexts], tuple[()]]:
        return _Contexts, ()


class _MadeOnFirstUse:
    """The parts of a rule set made the first time they are needed, unset until then.

    Slots of a plain base class rather than attrs fields, so that no method attrs
    generates (``__eq__``, ``__repr__``, the ``__getstate__`` of an attrs subclass)
    reads them, set or not.
    """

    __slots__ = ("_bomb_items", "_classifier")

    _classifier: Classifier
    """What `classify`, `beats` and `legal_plays` read (`tienlen.engine.classification`):
    the rule book, compiled on first use (`BaseRules._rulebook`)."""
    _bomb_items: _Items
    """Every bomb combination as a `_best_packing` item worth 1 (`InstantWin.TWO_BOMBS`),
    made when first asked (`BaseRules._bombs_as_items`)."""


@attrs.frozen(kw_only=True)
class BaseRules(_MadeOnFirstUse):
    """A variant as data: every setting of RULES §11, with the rule questions it answers.

    The five presets (`CLASSIC`, `JUSTUS_PANG`, `KENNETH_LO`, `VIETCONG`, `POKER`) are
    instances, all on one deck; `CLASSIC_TWO_DECKS` seats five to eight. Make a house
    rule by changing settings, never by editing the library.

    Under one deck (`decks` 1) every method refuses cards holding a card twice
    (``"10h 10h"``) with `InvalidCardError`, whether given as text, a `Hand` or a
    `Combo` built under two decks.

    Example:
        >>> import attrs
        >>> from tienlen import CLASSIC, classify
        >>> house = attrs.evolve(CLASSIC, name="no-2s", twos_in_straights=False)
        >>> classify("Jd Qh Kh Ac 2d", house) is None
        True
        >>> attrs.evolve(CLASSIC, min_consecutive_pairs=5, max_consecutive_pairs=4)
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidRulesError: ...
    """

    name: str
    """The canonical kebab-case name (``"classic"``)."""
    aliases: tuple[str, ...] = attrs.field(default=(), eq=False, converter=_str_tuple)
    """Other names `tienlen.get_rules` accepts."""
    direction: Direction = Direction.CLOCKWISE
    """Play direction (RULES §2.1, §6.1)."""
    decks: int = 1
    """Decks shuffled together: 1 for 2–4 players, 2 for 5–8 (RULES §1.1, §2.1).

    With one deck a card held twice is refused everywhere; with two, both copies
    are equal and neither beats the other. See `CLASSIC_TWO_DECKS`.

    Example:
        >>> import attrs
        >>> from tienlen import CLASSIC, classify
        >>> CLASSIC.decks, classify("Th Th", attrs.evolve(CLASSIC, decks=2, min_players=5, max_players=8))
        (1, <Combo PAIR 'Th Th'>)
    """
    min_players: int = 2
    """The fewest players a game may have (five or more with two decks)."""
    max_players: int = _ONE_DECK_PLAYERS
    """The most players, four with one deck and up to eight with two (RULES §2.1)."""
    hand_size: int = 13
    """Cards dealt to each player with one deck (RULES §2.1)."""
    three_player_hand_size: int = 13
    """Cards each of three players gets, 13 or by agreement 17 (RULES §2.1, §4.1)."""
    spare_card_to_starter: bool = attrs.field(
        default=False, metadata=_feeds(DealPolicy, "spare_card_to_starter")
    )
    """With three players of 17 cards, whether the 52nd card goes to the starter (RULES §4.1, D-8)."""
    two_deck_hand_size: int | None = 13
    """Cards each with two decks (`decks` 2), or ``None`` for as many as deal equally."""
    kinds: frozenset[ComboKind] = attrs.field(default=_STANDARD_KINDS, converter=_kinds)
    """The combination kinds that exist (RULES §1.2); `ComboKind.FIVE_OF_A_KIND` forms on two decks only (RULES §12.14)."""
    twos_in_straights: bool = True
    """Whether a 2 may top a straight (RULES §1.4, §10)."""
    twos_in_consecutive_pairs: bool = True
    """Whether 2-2 may top consecutive pairs (D-2, D-5, D-9, D-12)."""
    twos_in_consecutive_quads: bool = True
    """Whether 2-2-2-2 may top consecutive quads (only with `CONSECUTIVE_QUADS`)."""
    twos_in_consecutive_triples: bool = True
    """Whether 2-2-2 may top consecutive triples (only with `CONSECUTIVE_TRIPLES`, RULES §12.4)."""
    min_consecutive_pairs: int = 3
    """The fewest pairs in consecutive pairs (RULES §1.2)."""
    max_consecutive_pairs: int = _LONGEST_RUN
    """The most pairs in consecutive pairs (4 in Poker, RULES §6.2)."""
    min_consecutive_triples: int = 3
    """The fewest triples in consecutive triples, 2 or more (RULES §12.4)."""
    max_consecutive_triples: int = _LONGEST_RUN
    """The most triples in consecutive triples (RULES §12.4)."""
    bombs_may_lead: bool = True
    """Whether consecutive pairs may be led; if not, only played onto what they beat (RULES §12.1), as every other bomb but a four of a kind: a run of triples or a five of a kind of a shape that is one (D-25, `may_lead`)."""
    four_of_a_kind_may_lead: bool = True
    """Whether a four of a kind may be led; if not, only played onto what it beats (RULES §12.1)."""
    suited_straights: bool = False
    """Whether a straight of one suit is beaten only by a higher straight of one suit (*đồng chất*, RULES §12.2)."""
    bombs: frozenset[Bomb] = attrs.field(default=frozenset(), converter=_bombs)
    """The bomb table, which shape beats which target across shapes (RULES §2.3, §4.3, §5.2, §6.3)."""
    bomb_chain: tuple[Shape, ...] = attrs.field(default=(), converter=_shape_tuple)
    """Bomb shapes in rising order; each beats every shape before it (Poker, RULES §6.3)."""
    pair_runs_beat_twos: int | None = None
    """With *k*, n + k consecutive pairs beat n 2s for every n, besides the bomb table (RULES §12.3)."""
    longer_pair_runs_beat_shorter: bool = False
    """Whether a longer run of consecutive pairs beats any shorter one (RULES §12.6)."""
    jump_in: frozenset[Shape] = attrs.field(
        default=frozenset(),
        converter=_shape_set,
        metadata=_feeds(TurnPolicy, "jump_ins", bool),
    )
    """Shapes any player may play out of turn onto a 2, a pair of 2s or a bomb (RULES §6.4)."""
    first_lead: FirstLead = FirstLead.FIRST_GAME
    """When the lead must include 3♠ or the lowest dealt card (RULES §2.4, §5.3, §6.5)."""
    may_decline_first_lead: bool = False
    """Whether that player may pass instead, locking themselves out (RULES §3.3, D-6)."""
    continuation: bool = attrs.field(
        default=False, metadata=_feeds(TurnPolicy, "continuation")
    )
    """Justus Pang continuation and close (RULES §3.4, D-7)."""
    game_end: GameEnd = attrs.field(
        default=GameEnd.LAST_HOLDER,
        metadata=_feeds(TurnPolicy, "ends_at_first_out", _is_first_out),
    )
    """When the game ends (RULES §2.5, §4.4)."""
    scoring: Scoring = attrs.field(
        default=Scoring.LOSER_PAYS_EACH,
        metadata=_feeds(StakeScorer, "each_pays_winner", _each_pays_winner),
    )
    """How a game is paid (RULES §2.5, §4.4, §6.6)."""
    place_points: tuple[int, ...] = attrs.field(
        default=(4, 2, 1, 0), converter=_int_tuple
    )
    """Poker place points, first place first (RULES §6.6.1)."""
    short_table_last_place_zero: bool = True
    """With fewer players the last place gets 0 place points (D-17)."""
    two_values: tuple[int, int, int, int] = attrs.field(
        default=(1, 2, 3, 4), converter=_int_tuple
    )
    """Chop values of 2♠, 2♣, 2♦, 2♥ (RULES §6.6.2)."""
    bomb_values: tuple[tuple[Shape, int], ...] = attrs.field(
        default=(), converter=_bomb_values
    )
    """Chop values of bombs by shape (RULES §6.6.2)."""
    frozen_penalty: int = 4
    """What a frozen player loses besides their 2s and bombs (*cóng*, RULES §6.6.3)."""
    instant_wins: frozenset[InstantWin | CustomInstantWin] = attrs.field(
        default=frozenset(), converter=_instant_wins
    )
    """Hands that win at the deal (RULES §5.4, §6.7, §12.5)."""
    six_pairs_counts_sets: bool = True
    """Whether `InstantWin.SIX_PAIRS` counts ⌊n/2⌋ pairs per rank, or only ranks of exactly two (D-21)."""
    instant_win_stake: int = 1
    """Stakes each other player pays an instant winner under stake scoring (D-14)."""
    instant_win_points: int = 12
    """Points an instant win scores under `Scoring.POKER_POINTS` (RULES §6.7)."""

    # -- game-flow house rules and policies (RULES §7 ⚙, §12.7-§12.12) -----------
    pass_locks_out: bool = attrs.field(
        default=True, metadata=_feeds(TurnPolicy, "pass_locks_out")
    )
    """A pass locks the player out of the trick (RULES §1.5.3); False: §12.8."""
    leader_after_going_out: LeaderAfterGoingOut = attrs.field(
        default=LeaderAfterGoingOut.NEXT_WITH_CARDS,
        metadata=_feeds(TurnPolicy, "leader_after_going_out"),
    )
    """Who leads after a player goes out unbeaten (RULES §12.10, D-1)."""
    chop_chain: bool = attrs.field(
        default=True, metadata=_feeds(PokerScorer, "chop_chain")
    )
    """Poker catches accumulate in a chain (D-18); False: each paid at once (§12.7)."""
    frozen_multiplier: int = attrs.field(
        default=1, metadata=_feeds(PokerScorer, "frozen_multiplier")
    )
    """Multiplies what a frozen player pays ("frozen doubled": 2, RULES §12.7)."""
    end_penalty_with_frozen: bool = attrs.field(
        default=True, metadata=_feeds(PokerScorer, "end_penalty_with_frozen")
    )
    """The end penalty is paid with frozen players at the bottom (D-22)."""
    catch_with_last_cards_scores: bool = attrs.field(
        default=True, metadata=_feeds(PokerScorer, "catch_with_last_cards_scores")
    )
    """A catch made with the catcher's own last cards scores (D-23)."""
    no_going_out_with_two: bool = attrs.field(
        default=False, metadata=_feeds(TurnPolicy, "no_going_out_with_two")
    )
    """A player may not go out with a play holding a 2 (RULES §12.12)."""
    no_going_out_with_bomb: bool = attrs.field(
        default=False, metadata=_feeds(TurnPolicy, "no_going_out_with_bomb")
    )
    """A player may not go out with a bomb (RULES §12.12)."""
    bomb_reopens_trick: bool = attrs.field(
        default=False,
        metadata=WRITTEN_WHEN_SET | _feeds(TurnPolicy, "bomb_reopens_trick"),
    )
    """A bomb played onto a play lets the players who passed answer it (RULES §12.13)."""
    custom_turn_policy: TurnPolicy | None = None
    """A turn policy of the table's own, instead of the one built from the settings."""
    custom_deal_policy: DealPolicy | None = None
    """A deal policy of the table's own, instead of the one built from the settings."""
    custom_scorer: Scorer | None = None
    """A scorer of the table's own, instead of the one built from the settings."""

    @property
    def turn_policy(self) -> TurnPolicy:
        """Who acts and leads, and when the game ends (see `tienlen.policies`).

        Built from the settings that feed it (each names the `TurnPolicy` field it
        gives its value in its field metadata, `policy_settings`), unless
        `custom_turn_policy` is given.

        Example:
            >>> from tienlen import JUSTUS_PANG, KENNETH_LO
            >>> JUSTUS_PANG.turn_policy.continuation, KENNETH_LO.turn_policy.ends_at_first_out
            (True, True)
        """
        if self.custom_turn_policy is not None:
            return self.custom_turn_policy
        return TurnPolicy(**self._fed(TurnPolicy))

    @property
    def deal_policy(self) -> DealPolicy:
        """The spare card and instant wins (built from `spare_card_to_starter`).

        Example:
            >>> from tienlen import CLASSIC, KENNETH_LO
            >>> CLASSIC.deal_policy, KENNETH_LO.deal_policy
            (DealPolicy(spare_card_to_starter=False), DealPolicy(spare_card_to_starter=True))
        """
        if self.custom_deal_policy is not None:
            return self.custom_deal_policy
        return DealPolicy(**self._fed(DealPolicy))

    @property
    def scorer(self) -> Scorer:
        """How a game is paid: `scoring` chooses the scorer, the settings feeding it fill it.

        Example:
            >>> import attrs
            >>> from tienlen import CLASSIC, POKER
            >>> CLASSIC.scorer
            StakeScorer(scores_catches=False, each_pays_winner=False)
            >>> attrs.evolve(POKER, name="no-chain", chop_chain=False).scorer.chop_chain
            False
        """
        if self.custom_scorer is not None:
            return self.custom_scorer
        if self.scoring is Scoring.POKER_POINTS:
            return PokerScorer(**self._fed(PokerScorer))
        return StakeScorer(**self._fed(StakeScorer))

    @property
    def answers_from_settings(self) -> bool:
        """Whether every answer of this rule set comes from its settings, as `BaseRules`' do.

        True for a `BaseRules`, and for a subclass that overrides none of its methods
        and adds no setting: such a rule set is its settings, and records and notation
        write it as them (`as_settings`). A subclass that changes a rule is code.

        Example:
            >>> import attrs
            >>> from tienlen import CLASSIC
            >>> @attrs.frozen
            ... class Named(BaseRules):  # adds nothing
            ...     pass
            >>> @attrs.frozen
            ... class NoTwos(BaseRules):
            ...     def classify(self, cards):
            ...         combo = super().classify(cards)
            ...         return None if combo is None or "2" in str(combo) else combo
            >>> settings = CLASSIC.__getstate__()
            >>> CLASSIC.answers_from_settings, Named(**settings).answers_from_settings
            (True, True)
            >>> NoTwos(**settings).answers_from_settings
            False
        """
        return not _changed_members(type(self))

    def as_settings(self) -> BaseRules:
        """This rule set as a `BaseRules` of the same settings (itself when it is one).

        Raises:
            InvalidRulesError: a subclass changes a rule (`answers_from_settings` is
                false): its settings do not say what it plays.

        Example:
            >>> import attrs
            >>> from tienlen import CLASSIC
            >>> @attrs.frozen
            ... class Named(BaseRules):
            ...     pass
            >>> named = Named(**CLASSIC.__getstate__())
            >>> named == CLASSIC, named.as_settings() == CLASSIC, CLASSIC.as_settings() is CLASSIC
            (False, True, True)
        """
        changed = _changed_members(type(self))
        if changed:
            msg = (
                f"a rule set of class {type(self).__name__} is code, not settings: "
                f"it changes {', '.join(sorted(changed))}"
            )
            raise InvalidRulesError(msg)
        if type(self) is BaseRules:  # already the settings
            return self
        settings = {
            f.name: getattr(self, f.name) for f in attrs.fields(BaseRules) if f.init
        }
        return BaseRules(**settings)

    def _fed(self, policy: type) -> dict[str, Any]:
        """The fields of *policy* as the settings feeding them give them (`policy_settings`)."""
        feeds = policy_settings(type(self), policy)
        return {
            feed.field: feed.convert(getattr(self, name))
            for name, feed in feeds.items()
        }

    _one_deck: bool = attrs.field(init=False, eq=False, repr=False)
    _mask_limit: int = attrs.field(init=False, eq=False, repr=False)
    """The largest mask a combination may have: a card held twice exceeds it with one
    deck (RULES §1.1), so one comparison refuses duplicates on the hot paths."""
    _verdicts: _Verdicts = attrs.field(init=False, eq=False, repr=False)
    """`beats` answers by key pair (``a << 16 | b``), filled as they are asked."""
    _contexts: _Contexts = attrs.field(init=False, eq=False, repr=False)
    """What the games of this rule set share, per table size: `context_of`'s."""
    _tops: dict[Shape, Rank | None] = attrs.field(init=False, eq=False, repr=False)
    """`max_top_rank`'s answers, by shape, as they are asked: shared by the rule sets
    whose settings it reads are the same (`_tops_shared`)."""
    _bomb_shapes: frozenset[Shape] = attrs.field(init=False, eq=False, repr=False)
    """Every bomb (`is_bomb`): the bomb table's and chain's, and the pair-run formulas'."""
    _instant_order: tuple[InstantWinHand, ...] = attrs.field(
        init=False, eq=False, repr=False
    )
    """`instant_wins` in the order `instant_win` tries them."""
    _count_tests: tuple[Callable[[int], bool] | None, ...] = attrs.field(
        init=False, eq=False, repr=False
    )
    """Per win of `_instant_order`: its test on the per-rank counts alone, if it has one."""
    _valued_items: _Items = attrs.field(init=False, eq=False, repr=False)
    """The `bomb_values` combinations as `_best_packing` items (`hand_value`)."""
    _fewest_for_value: int = attrs.field(init=False, eq=False, repr=False)
    """The fewest cards a valued bomb takes: a hand with fewer and no 2 is worth 0."""

    def __getstate__(self) -> dict[str, object]:
        """Pickle the settings only: what they derive is built again when loaded."""
        return {
            f.name: getattr(self, f.name) for f in attrs.fields(type(self)) if f.init
        }

    def __setstate__(self, state: dict[str, object]) -> None:
        """Load pickled settings, checked as a new rule set is.

        A pickle written before a setting existed loads with that setting's default,
        and what a pickle of 0.1 held besides the settings (derived tables) is
        dropped: the rule set is built again from its settings.
        """
        names = {f.name for f in attrs.fields(type(self)) if f.init}
        settings = {name: value for name, value in state.items() if name in names}
        self.__init__(**settings)  # type: ignore[misc]  # attrs' init, on the new object

    def __attrs_post_init__(self) -> None:
        for problem in _type_problems(self):
            msg = f"invalid rule set {short_repr(self.name, 80)}: {problem}"
            raise SettingTypeError(msg)
        object.__setattr__(self, "_tops", _tops_shared(self))
        for problem in self._problems():
            msg = f"invalid rule set {short_repr(self.name, 80)}: {problem}"
            raise InvalidRulesError(msg)
        bomb_problem, bomb_shapes = _bomb_facts(self)
        if bomb_problem is not None:
            msg = f"invalid rule set {short_repr(self.name, 80)}: {bomb_problem}"
            raise InvalidRulesError(msg)
        object.__setattr__(self, "_bomb_shapes", bomb_shapes)
        object.__setattr__(self, "_one_deck", self.decks == 1)
        object.__setattr__(
            self, "_mask_limit", _LOW_HALF if self.decks == 1 else _ANY_MASK
        )
        object.__setattr__(self, "_verdicts", _Verdicts())
        object.__setattr__(self, "_contexts", _Contexts())
        for shape, _ in self.bomb_values:
            if shape not in self._bomb_shapes:
                msg = f"invalid rule set {short_repr(self.name, 80)}: bomb_values gives a value to {shape}, which is no bomb here"
                raise InvalidRulesError(msg)
        self._prepare_packings()

    def _rulebook(self) -> Classifier:
        """The compiled rule book (`_classifier`): built on first use, then kept.

        The settings are checked when the rule set is made; the move tables, which
        take milliseconds, are compiled the first time a rule question needs them, so
        ``attrs.evolve`` stays cheap. Built under a lock and stored whole, last: a
        thread never sees half a rule book, and every thread gets the same one. The
        hot paths read the `_classifier` slot and call this only when it is unset.

        Example:
            >>> import attrs
            >>> from tienlen import CLASSIC
            >>> house = attrs.evolve(CLASSIC, name="lazy")
            >>> hasattr(house, "_classifier")  # not compiled yet
            False
            >>> house._rulebook() is house._rulebook() is house._classifier
            True
        """
        try:
            return self._classifier
        except AttributeError:
            pass
        with _COMPILING:
            try:
                return self._classifier  # another thread compiled it meanwhile
            except AttributeError:
                pass
            book = Classifier(
                self._compile(),
                one_deck=self.decks == 1,
                suited=self.suited_straights,
                verdicts=self._verdicts,
            )
            object.__setattr__(self, "_classifier", book)
            return book

    @property
    def _compiled(self) -> Tables:
        """The compiled move tables (`_rulebook`'s), compiled on first use."""
        return self._rulebook().tables

    @property
    def _tables(self) -> Tables | None:
        """The move tables the engine generates plays from, or ``None``.

        A rule depending on suits beyond the top card (RULES §12.2) is not in the
        compiled tables: the engine then asks `legal_plays`, which applies it.
        """
        return None if self.suited_straights else self._rulebook().tables

    @property
    def _valid(self) -> frozenset[int]:
        """The keys of every combination under the rules (compiled on first use)."""
        return self._rulebook().valid

    def _bomb_problem_and_shapes(self) -> tuple[str | None, frozenset[Shape]]:
        """What is wrong with the bomb table, if anything, and every bomb shape (`is_bomb`)."""
        for bomb in self.bombs:
            for shape in (bomb.bomb, bomb.target):
                if self.max_top_rank(shape) is None:
                    return (
                        f"bomb table uses {shape}, which is not a combination",
                        frozenset(),
                    )
        bombing = self._bombing()
        for problem in _table_problems(bombing):
            return problem, frozenset()
        bomb_shapes = {bomb.bomb for bomb in self.bombs} | set(self.bomb_chain)
        bomb_shapes.update(Shape.from_code(code) for code, _ in bombing)
        return None, frozenset(bomb_shapes)

    def _prepare_packings(self) -> None:
        """Fix the order of the instant wins and the items of `_best_packing`, once."""
        if (
            not self.instant_wins and not self.bomb_values
        ):  # most tables: nothing to fix
            for name in ("_instant_order", "_count_tests", "_valued_items"):
                object.__setattr__(self, name, ())
            object.__setattr__(self, "_fewest_for_value", _bits.CARDS * 2 + 1)
            return
        custom = [w for w in self.instant_wins if isinstance(w, CustomInstantWin)]
        order: tuple[InstantWinHand, ...] = (
            *(w for w in InstantWin if w in self.instant_wins),
            *sorted(custom, key=operator.attrgetter("name")),
        )
        object.__setattr__(self, "_instant_order", order)
        tests = [
            _INSTANT_WIN_TESTS.get(win) if isinstance(win, InstantWin) else None
            for win in order
        ]
        if InstantWin.SIX_PAIRS in order and not self.six_pairs_counts_sets:
            tests[order.index(InstantWin.SIX_PAIRS)] = six_exact_pairs  # D-21
        object.__setattr__(self, "_count_tests", tuple(tests))
        object.__setattr__(self, "_valued_items", self._items(self.bomb_values))
        sizes = [per_rank * length for per_rank, length, _, _ in self._valued_items]
        object.__setattr__(
            self, "_fewest_for_value", min(sizes, default=_bits.CARDS * 2 + 1)
        )

    def _items(self, valued: Iterable[tuple[Shape, int]]) -> _Items:
        """The `_best_packing` items of the *valued* shapes that are combinations here."""
        return tuple(
            (shape.kind.per_rank, shape.length, value, top.value)
            for shape, value in valued
            if (top := self.max_top_rank(shape)) is not None
        )

    def _bombs_as_items(self) -> _Items:
        """Every bomb shape as a `_best_packing` item worth 1, made when first asked."""
        try:
            return self._bomb_items
        except AttributeError:
            items = self._items((shape, 1) for shape in self._bomb_shapes)
            object.__setattr__(
                self, "_bomb_items", items
            )  # the same, if two threads race
            return items

    def _problems(self) -> Iterable[str]:
        yield from _name_problems(self.name)
        if not 2 <= self.min_players <= self.max_players <= _MAX_PLAYERS:
            yield f"players must satisfy 2 <= min_players ({self.min_players}) <= max_players ({self.max_players}) <= 8"
        yield from self._deck_problems()
        if not 1 <= self.hand_size <= 13:
            yield f"hand_size must be 1-13, got {self.hand_size}"
        if not 1 <= self.three_player_hand_size <= 17:
            yield f"three_player_hand_size must be 1-17, got {self.three_player_hand_size}"
        if self.spare_card_to_starter and self.three_player_hand_size != 17:
            yield "spare_card_to_starter needs three_player_hand_size = 17"
        if (
            self.two_deck_hand_size is not None
            and not 1 <= self.two_deck_hand_size <= 104 // _MAX_PLAYERS
        ):
            yield f"two_deck_hand_size must be 1-13 or None, got {self.two_deck_hand_size}"
        if (
            not 3
            <= self.min_consecutive_pairs
            <= self.max_consecutive_pairs
            <= _LONGEST_RUN
        ):
            yield (
                "consecutive pairs need 3 <= min_consecutive_pairs "
                f"({self.min_consecutive_pairs}) <= max_consecutive_pairs ({self.max_consecutive_pairs}) <= 13"
            )
        if (
            not 2
            <= self.min_consecutive_triples
            <= self.max_consecutive_triples
            <= _LONGEST_RUN
        ):
            yield (
                "consecutive triples need 2 <= min_consecutive_triples "
                f"({self.min_consecutive_triples}) <= max_consecutive_triples ({self.max_consecutive_triples}) <= 13"
            )
        if self.suited_straights and ComboKind.STRAIGHT not in self.kinds:
            yield "suited_straights needs straights in kinds"
        pairs = ComboKind.CONSECUTIVE_PAIRS in self.kinds
        yield from self._pair_run_problems()
        if self.longer_pair_runs_beat_shorter and not pairs:
            yield "longer_pair_runs_beat_shorter needs consecutive pairs in kinds"
        if not {ComboKind.SINGLE}.issubset(self.kinds):
            yield "singles must exist"
        for shape in self.bomb_chain:
            if self.max_top_rank(shape) is None:
                yield f"bomb chain uses {shape}, which is not a combination"
        if len(set(self.bomb_chain)) != len(self.bomb_chain):
            yield "bomb chain lists a shape twice"
        single = Shape.of(ComboKind.SINGLE)
        if not self.bombs_may_lead and (
            single in self.bomb_chain or any(row.bomb == single for row in self.bombs)
        ):  # a hand of singles alone would have no lead (RULES §12.1, D-25)
            yield (
                "bombs_may_lead=False bars every bomb from leading, and the bomb table "
                "or chain makes a single a bomb: a player holding only singles could "
                "not lead (D-25)"
            )
        for shape in self.jump_in:
            if self.max_top_rank(shape) is None:
                yield f"jump-in shape {shape} is not a combination"
        valued = [shape for shape, _ in self.bomb_values]
        if len(set(valued)) != len(valued):
            yield "bomb_values lists a shape twice"
        if (
            self.scoring is Scoring.POKER_POINTS
            and len(self.place_points) < self.max_players
        ):
            yield f"place_points needs a value for each of {self.max_players} places"
        yield from self._money_problems()
        # the types were checked before (`_type_problems`): what is left is ranges
        if self.frozen_multiplier < 0:
            yield f"frozen_multiplier must be an int >= 0, got {self.frozen_multiplier!r}"
        yield from self._policy_problems()
        yield from self._custom_win_problems()

    def _policy_problems(self) -> Iterator[str]:
        """The custom policies are policies; a turn policy reads facts plays have."""
        for name, kind in (
            ("custom_turn_policy", TurnPolicy),
            ("custom_deal_policy", DealPolicy),
            ("custom_scorer", Scorer),
        ):
            value = getattr(self, name)
            if value is not None and not isinstance(value, kind):
                yield f"{name} must be a {kind.__name__} or None, got {value!r}"
        if isinstance(self.custom_turn_policy, TurnPolicy):
            try:
                facts_read(self.custom_turn_policy)
            except (TypeError, InvalidArgumentError) as error:
                yield f"custom_turn_policy: {error}"

    def _custom_win_problems(self) -> Iterator[str]:
        """A table's own instant wins have names as rule sets do, each its own (RULES §12.5).

        Not blank, at most `WIN_NAME_LIMIT` characters, and not a built-in win's name
        (``four-twos``, or ``four_twos`` as records write it): the win would show as
        nothing, flood every text that names it, or show as the built-in one.
        """
        names = sorted(
            win.name for win in self.instant_wins if isinstance(win, CustomInstantWin)
        )
        for name in names:
            shown = short_repr(name, 40)
            for problem in _win_name_problems(name):
                yield f"instant win {shown}: {problem}"
            built_in = _BUILT_IN_WINS.get(name.strip().lower().replace("_", "-"))
            if built_in is not None:
                yield f"instant win {shown}: the name of the built-in InstantWin.{built_in.name}"
        for first, second in itertools.pairwise(names):
            if first == second:
                yield f"two instant wins are called {first!r}"

    def _pair_run_problems(self) -> Iterator[str]:
        """``pair_runs_beat_twos`` k is 1-12 and makes some run a bomb (RULES §12.3).

        n + k pairs beat n 2s for the n (1-4) whose 2s form a combination here; a
        value that reaches no run of the allowed lengths would be silently ignored.
        """
        k = self.pair_runs_beat_twos
        if k is None:
            return
        if not 1 <= k < _LONGEST_RUN:
            yield f"pair_runs_beat_twos must be 1-12 or None, got {k}"
            return
        if ComboKind.CONSECUTIVE_PAIRS not in self.kinds:
            yield "pair_runs_beat_twos needs consecutive pairs in kinds"
            return
        fewest = max(self.min_consecutive_pairs, _SHORTEST_PAIR_RUN)
        most = self.max_consecutive_pairs
        counts = [n for n, kind in enumerate(_SETS_OF_TWOS, 1) if kind in self.kinds]
        if not any(fewest <= n + k <= most for n in counts):
            yield (
                f"pair_runs_beat_twos={k} makes no run a bomb: n 2s (n = "
                f"{', '.join(map(str, counts))}) would need n + {k} consecutive pairs, "
                f"and runs here are {fewest}-{most} pairs long"
            )

    def _money_problems(self) -> Iterator[str]:
        """Points and stakes are never negative; place points never rise (RULES §6.6, §12.7)."""
        for name in ("two_values", "place_points"):
            values: tuple[int, ...] = getattr(self, name)
            for index, value in enumerate(values):
                if value < 0:
                    yield f"{name}[{index}] must be >= 0, got {value} (in {values})"
        for shape, value in self.bomb_values:
            if value < 0:
                yield f"bomb_values gives {shape} a negative value, {value}; values must be >= 0"
        points = self.place_points
        for place in range(1, len(points)):
            if points[place] > points[place - 1]:
                yield (
                    f"place_points must not rise from one place to the next: place "
                    f"{place + 1} scores {points[place]}, more than place {place}'s "
                    f"{points[place - 1]} (in {points})"
                )
                break
        for name in ("frozen_penalty", "instant_win_stake", "instant_win_points"):
            value = getattr(self, name)
            if value < 0:
                yield f"{name} must be >= 0, got {value}"

    def _deck_problems(self) -> Iterator[str]:
        """One deck seats 2–4 players, two decks 5–8 (RULES §1.1, §2.1, §10)."""
        if self.decks not in (1, 2):
            yield f"decks must be 1 or 2, got {self.decks}"
        elif self.decks == 1 and self.max_players > _ONE_DECK_PLAYERS:
            yield (
                f"one deck seats at most {_ONE_DECK_PLAYERS} players, not max_players={self.max_players}: "
                f"five to eight play with two decks ({_TWO_DECKS_HINT})"
            )
        elif self.decks == 2 and self.min_players <= _ONE_DECK_PLAYERS:
            yield (
                f"two decks are for five to eight players, not min_players={self.min_players} "
                "(RULES §2.1): set min_players=5, or play 2-4 players with decks=1"
            )

    def _forms(self, kind: ComboKind) -> bool:
        """Whether *kind* is played here: listed in `kinds` and held by the decks.

        A kind the decks cannot hold (five of a kind on one deck, RULES §12.14) never
        forms, so a rule set listing it plays as one without it.
        """
        return kind in self.kinds and KINDS[kind.value].decks <= self.decks

    # -- shapes and comparison (RULES §1.2-§1.4 and the variant's bomb table) -----

    def max_top_rank(self, shape: Shape) -> Rank | None:
        """The highest rank *shape*'s top card may have, or ``None`` if it is no combination.

        Encodes RULES §1.2 (kinds and lengths), §1.4 (2s at the top of sequences) and
        the variant's settings.

        Example:
            >>> from tienlen import JUSTUS_PANG
            >>> JUSTUS_PANG.max_top_rank(Shape.of(ComboKind.STRAIGHT, 5))
            <Rank.ACE: 11>
        """
        if not isinstance(shape, Shape):
            raise TypeError(f"expected a Shape, got {shape!r}")
        tops = self._tops
        top = tops.get(shape, _NOTHING)
        if top is _NOTHING:
            top = tops[shape] = self._top_rank(shape)
        return top  # type: ignore[return-value]  # a Rank or None, as stored

    def _top_rank(self, shape: Shape) -> Rank | None:
        """`max_top_rank`, worked out (it remembers the answers in `_tops`)."""
        kind, length = shape.kind, shape.length
        if not self._forms(kind):
            return None
        row = KINDS[kind.value]  # the kind table names the settings that apply
        if row.lengths is not None:
            fewest, most = (getattr(self, setting) for setting in row.lengths)
            if not fewest <= length <= most:
                return None
        elif length > row.most_played:
            return None
        twos = row.twos is None or getattr(self, row.twos)
        top = Rank.TWO if twos else Rank.ACE
        if length > top.value + 1:  # thirteen ranks always reach the 2
            return None
        return top

    def is_leadable(self, kind: ComboKind) -> bool:
        """Whether a combination of *kind* may be led (RULES §1.5.1, D-13, §12.1, D-25).

        All kinds may, but consecutive quads (slams only), and consecutive pairs or
        fours of a kind when ``bombs_may_lead`` or ``four_of_a_kind_may_lead`` is off.
        With ``bombs_may_lead`` off, a kind whose every shape the rule set makes a bomb
        may not lead either (a five of a kind that is a bomb, RULES §12.14, D-25); a
        four of a kind keeps its own setting. A kind some of whose lengths are bombs
        leads in its other lengths: `may_lead` answers per shape.

        Example:
            >>> import attrs
            >>> from tienlen import CLASSIC
            >>> CLASSIC.is_leadable(ComboKind.CONSECUTIVE_PAIRS)
            True
            >>> attrs.evolve(CLASSIC, bombs_may_lead=False).is_leadable(ComboKind.CONSECUTIVE_PAIRS)
            False
        """
        if not isinstance(kind, ComboKind):
            raise TypeError(f"expected a ComboKind, got {kind!r}")
        if not self._forms(kind):
            return False
        lead = KINDS[kind.value].lead
        if not (lead if isinstance(lead, bool) else getattr(self, lead)):
            return False
        if self.bombs_may_lead:
            return True
        shapes = (Shape.from_code(code) for code in STRUCTURES.values())
        return any(  # D-25: not every shape of it a bomb barred from leading
            not self._barred_bomb(shape)
            for shape in shapes
            if shape.kind is kind and self.max_top_rank(shape) is not None
        )

    def may_lead(self, shape: Shape) -> bool:
        """Whether a combination of *shape* may be led (RULES §1.5.1, §12.1, §12.14, D-25).

        Its kind must lead (`is_leadable`), and with ``bombs_may_lead`` off the shape
        must be no bomb of the rule set (`is_bomb`: by its bomb table, its chain or
        the pair-run formulas), a four of a kind excepted (it has its own setting,
        ``four_of_a_kind_may_lead``). So a run of three triples that beats a pair of
        2s may not lead while a run of four still does. A shape that is no
        combination here may not lead. Move generation and the legality check both
        ask this.

        Example:
            >>> import attrs
            >>> from tienlen import CLASSIC, Bomb, Rank
            >>> triples = ComboKind.CONSECUTIVE_TRIPLES
            >>> three, four = Shape.of(triples, 3), Shape.of(triples, 4)
            >>> twos = Bomb(bomb=three, target=Shape.of(ComboKind.PAIR), target_rank=Rank.TWO)
            >>> house = attrs.evolve(
            ...     CLASSIC, name="triple-runs", kinds=CLASSIC.kinds | {triples},
            ...     bombs=CLASSIC.bombs | {twos}, bombs_may_lead=False,
            ... )
            >>> house.may_lead(three), house.may_lead(four), house.is_leadable(triples)
            (False, True, True)
        """
        if not isinstance(shape, Shape):
            raise TypeError(f"expected a Shape, got {shape!r}")
        return (
            self.max_top_rank(shape) is not None
            and self.is_leadable(shape.kind)
            and not self._barred_bomb(shape)
        )

    def _barred_bomb(self, shape: Shape) -> bool:
        """Whether *shape* may not lead for being a bomb (RULES §12.1, §12.14, D-25).

        The one place that decides it: ``bombs_may_lead=False`` bars every bomb of the
        rule set from leading (`is_bomb`), except a four of a kind, which follows
        ``four_of_a_kind_may_lead``. Consecutive pairs are barred as a kind too (§12.1).
        """
        return (
            not self.bombs_may_lead
            and shape.kind is not ComboKind.FOUR_OF_A_KIND
            and self.is_bomb(shape)
        )

    def bombs_against(self, target: Combo) -> frozenset[Shape]:
        """The shapes that beat *target* across shapes: the bomb table and chain.

        Example:
            >>> from tienlen import CLASSIC, classify
            >>> sorted(str(s) for s in CLASSIC.bombs_against(classify("2h")))
            ['3 consecutive pairs', 'four of a kind']
        """
        if type(target) is not Combo:
            raise TypeError(f"expected a Combo, got {target!r}")
        self._check_copies(target.mask)
        return self._bombs_against(target.shape, target.rank)

    def _bombs_against(self, shape: Shape, rank: Rank) -> frozenset[Shape]:
        """The bomb table (RULES §2.3), chain (§6.3) and pair-run formulas (§12.3, §12.6)."""
        found = {
            bomb.bomb
            for bomb in self.bombs
            if bomb.target == shape and bomb.target_rank in (None, rank)
        }
        if shape in self.bomb_chain:
            found.update(self.bomb_chain[self.bomb_chain.index(shape) + 1 :])
        pairs = ComboKind.CONSECUTIVE_PAIRS
        k = self.pair_runs_beat_twos
        if (
            k is not None
            and rank is Rank.TWO
            and not shape.kind.is_sequence
            and _SHORTEST_PAIR_RUN <= shape.size + k <= _LONGEST_RUN
        ):  # n + k pairs beat n 2s; a run too short to exist beats nothing (k = 1, n = 1)
            found.add(Shape.of(pairs, shape.size + k))
        if self.longer_pair_runs_beat_shorter and shape.kind is pairs:
            found.update(Shape.of(pairs, n) for n in range(shape.length + 1, 14))
        found.discard(shape)
        return frozenset(s for s in found if self.max_top_rank(s) is not None)

    def _bombing(self) -> frozenset[tuple[int, int]]:
        """Every ``(bomb code, target code)``: which shape bombs which, at some rank.

        What the compiled bomb table (`Tables.bombers`) holds, per shape rather than
        per key: cheap enough to check at construction (`_table_problems`) and to
        find every bomb shape (`is_bomb`) before anything is compiled. It reads the
        rows, the chain and the pair-run formulas as `_bombs_against` does, with the
        top card's rank only where it matters: a row's ``target_rank``, and the 2s
        of RULES §12.3 (a shape reaches rank 2 when its highest top card is a 2).

        Example:
            >>> from tienlen import CLASSIC, Shape
            >>> sorted(str(Shape.from_code(code)) for code, _ in CLASSIC._bombing())
            ['3 consecutive pairs', '4 consecutive pairs', '5 consecutive pairs', 'four of a kind']
        """
        found: set[tuple[int, int]] = set()
        top_of = self.max_top_rank

        def add(bomb: Shape, target: Shape) -> None:
            if bomb != target and top_of(bomb) is not None:
                found.add((bomb.code, target.code))

        for row in self.bombs:  # RULES §2.3: at the row's rank, or any
            top = top_of(row.target)
            if top is not None and (
                row.target_rank is None
                or row.target_rank.value in _ranks_of(row.target.code, top.value)
            ):
                add(row.bomb, row.target)
        for at, target in enumerate(self.bomb_chain):  # RULES §6.3
            if top_of(target) is not None:
                for bomb in self.bomb_chain[at + 1 :]:
                    add(bomb, target)
        pairs = ComboKind.CONSECUTIVE_PAIRS
        k = self.pair_runs_beat_twos
        if k is not None:  # n + k pairs beat n 2s (RULES §12.3)
            for target in _SET_SHAPES:
                reach = target.size + k
                if (
                    top_of(target) is Rank.TWO
                    and _SHORTEST_PAIR_RUN <= reach <= _LONGEST_RUN
                ):
                    add(Shape.of(pairs, reach), target)
        if self.longer_pair_runs_beat_shorter:  # RULES §12.6
            for target in _PAIR_RUNS:
                if top_of(target) is not None:
                    for n in range(target.length + 1, _LONGEST_RUN + 1):
                        add(Shape.of(pairs, n), target)
        return frozenset(found)

    def _compile(self) -> Tables:
        """The compiled move tables, for `_rulebook` (the bomb shapes are known, D-25)."""
        max_rank: dict[int, int] = {}
        for code in STRUCTURES.values():
            top = self.max_top_rank(Shape.from_code(code))
            if top is not None:
                max_rank[code] = top.value
        valid = valid_keys(max_rank)
        bombers: dict[int, tuple[int, ...]] = {}
        for key in valid:
            shapes = self._bombs_against(Shape.from_code(key >> 6), DECK[key & 63].rank)
            if shapes:
                bombers[key] = tuple(sorted(shape.code for shape in shapes))
        leadable = [code for code in max_rank if self.may_lead(Shape.from_code(code))]
        return Tables(max_rank, leadable, lambda _: bombers, valid)

    def _duplicate(self, mask: int, shown: object) -> NoReturn:
        card = Hand(mask >> _bits.CARDS).cards[0]
        if shown is None:
            shown = str(Hand(mask))
        msg = f"duplicate card {str(card)!r} in {shown!r}: {self.name} is played with one deck"
        raise InvalidCardError(msg, problem="duplicate", token=str(card))

    def _check_copies(self, mask: int) -> None:
        """Refuse a card held twice where one deck is in play (RULES §1.1)."""
        if self._one_deck and mask >> _bits.CARDS:
            self._duplicate(mask, None)

    def _refuse(self, *combos: Combo) -> NoReturn:
        """Raise for the first of *combos* these rules do not know (`_invalid`)."""
        for combo in combos:
            if combo.key not in self._valid or combo.mask > self._mask_limit:
                self._invalid(combo)
        raise AssertionError  # pragma: no cover - called only when one is refused

    def _invalid(self, combo: Combo) -> NoReturn:
        if combo.mask > self._mask_limit:
            self._duplicate(combo.mask, None)
        msg = f"{str(combo)!r} is not a combination under {self.name}"
        raise InvalidComboError(msg)

    # -- the RuleSet protocol -----------------------------------------------------

    # Each answer is one call into the engine, which does the work on masks and keys
    # (compiled in the compiled build: `tienlen.engine.classification`).

    def classify(self, cards: str | Iterable[Card]) -> Combo | None:
        """The combination *cards* form under these rules, or ``None`` (RULES §1.2).

        Raises:
            InvalidCardError: bad card text, or a duplicate card where one deck is in play.

        Example:
            >>> from tienlen import VIETCONG
            >>> VIETCONG.classify("7s 7c 7d 7h 8s 8c 8d 8h")
            <Combo CONSECUTIVE_QUADS '7s 7c 7d 7h 8s 8c 8d 8h'>
        """
        return _classify(self, cards)

    def beats(self, challenger: Combo, incumbent: Combo) -> bool:
        """Whether *challenger* may be played on *incumbent* (RULES §1.3 and bomb table).

        Raises:
            InvalidComboError: either is not a combination under these rules.

        Example:
            >>> from tienlen import CLASSIC, classify
            >>> CLASSIC.beats(classify("5s 5c 5d 5h"), classify("2h"))
            True
        """
        return _beats(self, challenger, incumbent)

    def legal_plays(self, hand: Hand, top: Combo | None = None) -> Plays:
        """Every distinct combination in *hand* that may be led, or that beats *top*.

        Raises:
            InvalidCardError: *hand* holds a duplicate card where one deck is in play.
            InvalidComboError: *top* is not a combination under these rules.

        Example:
            >>> from tienlen import CLASSIC, Hand, classify
            >>> [str(p) for p in CLASSIC.legal_plays(Hand.parse("4s 9d 2c"), classify("8h"))]
            ['9d', '2c']
        """
        return _legal_plays(self, hand, top)

    def _mask_of_any(self, cards: str | Iterable[Card]) -> int:
        """The mask of card text or any iterable of cards (the general path)."""
        shown: object = None
        if isinstance(cards, str):
            shown, cards = cards, parse_cards(cards)
        parsed = tuple(cards)
        mask = 0
        try:
            for card in parsed:
                mask |= card.mask
        except AttributeError:
            raise TypeError(not_cards(cards)) from None
        if mask.bit_count() != len(parsed):
            mask = self._multiset(parsed, shown)
        return mask

    def _multiset(self, cards: Collection[Card], shown: object) -> int:
        """The mask of *cards* holding a card twice: allowed with two decks only."""
        mask = mask_of(cards, shown)
        if self._one_deck:
            self._duplicate(mask, shown)
        return mask

    # -- game flow (RULES §1.5, §2.4, §3, §6.4) -----------------------------------

    def lead_must_include(
        self, *, first_game: bool, after_instant_win: bool = False
    ) -> bool:
        """Whether a game's first lead must include 3♠ or the lowest dealt card.

        RULES §2.4 (first game), §5.3 (every game), §6.5 (and after an instant win, D-16).

        Example:
            >>> from tienlen import CLASSIC, VIETCONG
            >>> CLASSIC.lead_must_include(first_game=False), VIETCONG.lead_must_include(first_game=False)
            (False, True)
        """
        if first_game or self.first_lead is FirstLead.EVERY_GAME:
            return True
        return (
            after_instant_win
            and self.first_lead is FirstLead.FIRST_GAME_AND_AFTER_INSTANT_WIN
        )

    def is_bomb(self, shape: Shape) -> bool:
        """Whether *shape* appears in the bomb table or chain (a *bomb*, RULES §6.2).

        Example:
            >>> from tienlen import POKER, classify
            >>> POKER.is_bomb(classify("9s 9c 9d 9h").shape), POKER.is_bomb(classify("2h").shape)
            (True, False)
        """
        return shape in self._bomb_shapes

    def is_catch(self, play: Combo, top: Combo) -> bool:
        """Whether playing *play* on *top* is a catch (*chặt*, RULES §6.6.2).

        A catch is a bomb played onto a single 2, a pair of 2s or a bomb.

        Example:
            >>> from tienlen import POKER, classify
            >>> four = classify("9s 9c 9d 9h")
            >>> POKER.is_catch(four, classify("2h")), POKER.is_catch(four, classify("Ah"))
            (True, False)
        """
        _require(play, Combo)
        self._check_copies(play.mask)
        return self.is_bomb(play.shape) and self.is_chop_target(top)

    def is_chop_target(self, top: Combo) -> bool:
        """Whether *top* is a single 2, a pair of 2s or a bomb (RULES §6.4, §6.6.2).

        Example:
            >>> from tienlen import POKER, classify
            >>> POKER.is_chop_target(classify("2s 2h")), POKER.is_chop_target(classify("As Ah"))
            (True, False)
        """
        _require(top, Combo)
        self._check_copies(top.mask)
        kind = top.kind
        if kind in (ComboKind.SINGLE, ComboKind.PAIR):
            return top.rank is Rank.TWO
        return self.is_bomb(top.shape)

    def may_jump_in(self, play: Combo, top: Combo) -> bool:
        """Whether *play* may be played out of turn onto *top* (Poker jump-in, RULES §6.4).

        Only the `jump_in` shapes, only onto a single 2, a pair of 2s or a bomb, and only
        when *play* beats *top* (D-15).

        Example:
            >>> from tienlen import POKER, classify
            >>> POKER.may_jump_in(classify("3s 3c 4s 4c 5s 5c 6s 6c"), classify("2h"))
            True
            >>> POKER.may_jump_in(classify("9s 9c 9d 9h"), classify("2h"))
            False
        """
        _require(play, Combo)
        self._check_copies(play.mask)
        return (
            play.shape in self.jump_in
            and self.is_chop_target(top)
            and self.beats(play, top)
        )

    def instant_win(
        self, hand: Hand, *, first_game: bool = True
    ) -> InstantWin | CustomInstantWin | None:
        """The instant win *hand* qualifies for at the deal, or ``None`` (RULES §5.4, §6.7, §12.5).

        *first_game* says whether this is a match's first game (`InstantWin.FOUR_THREES`
        counts only then). Several apply: the first in `InstantWin` order, then the
        table's own (`CustomInstantWin`) by name.

        Raises:
            InvalidCardError: *hand* holds a card twice where one deck is in play.

        Example:
            >>> from tienlen import POKER, Hand
            >>> POKER.instant_win(Hand.parse("3s 3c 5d 5h 7s 7c 9d 9h Js Jc Kd Kh 2s"))
            <InstantWin.SIX_PAIRS: 'six-pairs'>
        """
        if type(hand) is not Hand:
            raise TypeError(f"expected a Hand, got {hand!r}")
        self._check_copies(hand.mask)
        if not self._instant_order:
            return None
        counts = _bits.rank_counts(hand.mask)
        for win, test in zip(self._instant_order, self._count_tests, strict=True):
            if test is not None:
                if test(counts):
                    return win
            elif isinstance(win, InstantWin):
                if self._qualifies(win, hand, counts, first_game=first_game):
                    return win
            elif (first_game or not win.first_game_only) and win.test(hand):
                return win
        return None

    def _qualifies(
        self, win: InstantWin, hand: Hand, counts: int, *, first_game: bool
    ) -> bool:
        """Whether *hand* (with `_bits.rank_counts` *counts*) is the instant win *win*.

        RULES §6.7, §12.5.
        """
        if win is InstantWin.SIX_PAIRS and not self.six_pairs_counts_sets:
            return six_exact_pairs(counts)  # D-21
        test = _INSTANT_WIN_TESTS.get(win)
        if test is not None:
            return test(counts)
        if win is InstantWin.TWO_BOMBS:
            listed = tuple(_count_list(hand.mask))
            return _best_packing(listed, [], self._bombs_as_items()) >= 2
        if win is InstantWin.ONE_COLOUR:  # 13 cards of one colour
            return one_colour(hand.mask)
        assert win is InstantWin.FOUR_THREES  # the only one left
        return first_game and counts & 15 >= 4

    def chop_value(self, combo: Combo) -> int:
        """What catching *combo* is worth: 2s by suit, bombs by shape (RULES §6.6.2).

        Example:
            >>> from tienlen import POKER, classify
            >>> POKER.chop_value(classify("2s 2h")), POKER.chop_value(classify("9s 9c 9d 9h"))
            (5, 6)
        """
        _require(combo, Combo)
        self._check_copies(combo.mask)
        if (
            combo.kind in (ComboKind.SINGLE, ComboKind.PAIR, ComboKind.TRIPLE)
            and combo.rank is Rank.TWO
        ):
            return sum(self.two_values[card.suit.value] for card in combo.cards)
        return dict(self.bomb_values).get(combo.shape, 0)

    def hand_value(self, hand: Hand) -> int:
        """The value of the 2s and bombs in *hand*: the best disjoint set (RULES §6.6.4, D-20).

        Raises:
            InvalidCardError: *hand* holds a card twice where one deck is in play.

        Example:
            >>> from tienlen import POKER, Hand
            >>> POKER.hand_value(Hand.parse("2s 2d 4s"))
            4
            >>> POKER.hand_value(Hand.parse("2s 2c 2d 2h"))  # four 2s count 10 singly, 6 as a bomb
            10
        """
        _require(hand, Hand)
        mask = hand.mask
        self._check_copies(mask)
        if not mask & _ANY_TWO and mask.bit_count() < self._fewest_for_value:
            return 0  # no 2, and too few cards for any valued bomb (most last hands)
        twos = [
            value
            for suit, value in enumerate(self.two_values)
            for copy in (mask >> _TWO_CARDS, mask >> _bits.CARDS + _TWO_CARDS)
            if copy >> suit & 1
        ]
        counts = _bits.rank_counts(mask)
        items = self._valued_items
        if not any(holds_run(counts, k, n, top) for k, n, _, top in items):
            return sum(twos)  # no room for a valued bomb: every 2 counts singly
        return _best_packing(tuple(_count_list(mask)), sorted(twos), items)

    def place_points_for(self, players: int) -> tuple[int, ...]:
        """Poker place points for a table of *players*, first place first (RULES §6.6.1, D-17).

        Example:
            >>> from tienlen import POKER
            >>> POKER.place_points_for(4), POKER.place_points_for(3), POKER.place_points_for(2)
            ((4, 2, 1, 0), (4, 2, 0), (4, 0))
        """
        _require(players, int)
        points = self.place_points[:players]
        if self.short_table_last_place_zero and players < len(self.place_points):
            points = (*self.place_points[: players - 1], 0)
        return points

    # -- dealing -----------------------------------------------------------------

    def deal_size(self, players: int) -> tuple[int, int]:
        """``(decks, cards per player)`` for a table of *players* (RULES §2.1, §4.1).

        The decks are the `decks` setting; the cards follow `hand_size`,
        `three_player_hand_size` or, with two decks, `two_deck_hand_size`.

        Raises:
            InvalidRulesError: the rules do not allow that many players; for five to
                eight under one deck, the message says how to get two decks.

        Example:
            >>> from tienlen import CLASSIC, CLASSIC_TWO_DECKS
            >>> CLASSIC.deal_size(4), CLASSIC.deal_size(3), CLASSIC_TWO_DECKS.deal_size(6)
            ((1, 13), (1, 13), (2, 13))
            >>> CLASSIC.deal_size(6)
            Traceback (most recent call last):
            ...
            tienlen.errors.InvalidRulesError: classic is played by 2-4 players, not 6: ...
        """
        _require(players, int)
        if not self.min_players <= players <= self.max_players:
            msg = f"{self.name} is played by {self.min_players}-{self.max_players} players, not {players!r}"
            if self.decks == 1 and _ONE_DECK_PLAYERS < players <= _MAX_PLAYERS:
                msg += f": five to eight play with two decks ({_TWO_DECKS_HINT})"
            raise InvalidRulesError(msg)
        if self.decks == 2:
            return 2, self.two_deck_hand_size or 2 * _bits.CARDS // players
        if players == 3:
            return 1, self.three_player_hand_size
        return 1, self.hand_size


def two_decks(rules: BaseRules) -> BaseRules:
    """*rules* for five to eight players on two decks shuffled together (RULES §2.1).

    Sets ``decks=2``, ``min_players=5`` and ``max_players=8`` and names the result
    ``<name>-two-decks``; a two-deck rule set is returned as it is. Settings that then
    contradict each other (Poker's four place points for eight places) are refused.

    Raises:
        InvalidRulesError: the settings contradict each other with two decks.

    Example:
        >>> from tienlen import CLASSIC, CLASSIC_TWO_DECKS, JUSTUS_PANG
        >>> two_decks(CLASSIC) == CLASSIC_TWO_DECKS, two_decks(CLASSIC_TWO_DECKS) is CLASSIC_TWO_DECKS
        (True, True)
        >>> big = two_decks(JUSTUS_PANG)
        >>> big.name, big.decks, big.min_players, big.max_players
        ('justus-pang-two-decks', 2, 5, 8)
    """
    _require(rules, BaseRules)
    if rules.decks == 2:
        return rules
    return attrs.evolve(
        rules,
        name=f"{rules.name}-two-decks",
        aliases=(),
        decks=2,
        min_players=_ONE_DECK_PLAYERS + 1,
        max_players=_MAX_PLAYERS,
    )


def _require(value: object, kind: type) -> None:
    """Raise `TypeError` unless *value* is exactly a *kind* (a `bool` is no `int`)."""
    if type(value) is not kind:
        msg = f"expected {_describe(kind)}, got {value!r}"
        raise TypeError(msg)


def _type_problems(rules: BaseRules) -> Iterator[str]:
    """Every setting whose value does not have its field's declared type (RULES §11).

    Read from the annotations, so every setting is covered, including ones added later.
    A `bool` is not an `int` here, and an `int` not a `bool`.
    """
    cls = type(rules)
    hints = _field_hints(cls)
    passed = _PASSED.setdefault(cls, {})
    for field in attrs.fields(cls):
        if field.init:
            name = field.name
            value = getattr(rules, name)
            if passed.get(name, _NOTHING) is value:
                continue  # the very value checked last (an evolve keeps the others)
            hint = hints[name]
            if not _has_type(value, hint):
                yield f"{name} must be {_describe(hint)}, got {value!r}"
            else:
                passed[name] = value


_PASSED: Final[dict[type, dict[str, object]]] = {}
"""Per `BaseRules` class and setting, the value whose type was last found right.

Settings are immutable values and an ``attrs.evolve`` hands the unchanged ones on as
they are: a value that is that very object needs no second look."""
_NOTHING: Final = object()
"""No value checked yet (`_PASSED`)."""


def _field_hints(cls: type) -> dict[str, Any]:
    """The resolved annotations of a `BaseRules` class, computed once per class."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = get_type_hints(cls)
    return hints


_HINTS: Final[dict[type, dict[str, Any]]] = {}


def _has_type(value: object, hint: Any) -> bool:
    """Whether *value* has the type *hint* (classes, unions, tuples, frozensets, callables)."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return True
    if hint is None or hint is types.NoneType:
        return value is None
    if origin is Union or origin is types.UnionType:
        return any(_has_type(value, arg) for arg in args)
    if hint is bool:
        return type(value) is bool
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_has_type(item, args[0]) for item in value)
        return len(value) == len(args) and all(map(_has_type, value, args))
    if origin is frozenset:
        return isinstance(value, frozenset) and all(
            _has_type(v, args[0]) for v in value
        )
    if origin is Callable:
        return callable(value)
    return isinstance(value, origin or hint)


def _describe(hint: Any) -> str:
    """A type in words, for error messages: ``"a tuple of 4 ints"``."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is None or hint is types.NoneType:
        return "None"
    if origin is Union or origin is types.UnionType:
        return " or ".join(_describe(arg) for arg in args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a tuple of ({_describe(args[0])})"
        return f"a tuple of {len(args)} ({', '.join(_describe(arg) for arg in args)})"
    if origin is frozenset:
        return f"a frozenset of ({_describe(args[0])})"
    if origin is Callable:
        return "a callable"
    name = getattr(origin or hint, "__name__", str(hint))
    return f"an {name}" if name[0] in "aeiouAEIOU" else f"a {name}"


def _table_problems(bombing: frozenset[tuple[int, int]]) -> Iterator[str]:
    """Bomb tables that contradict themselves (RULES §11), from `BaseRules._bombing`.

    Two shapes that each beat the other would break "beats" being asymmetric (RULES §1.3).
    """
    for code, target in sorted(bombing):
        if (target, code) in bombing and code < target:
            first, second = Shape.from_code(code), Shape.from_code(target)
            yield f"the bomb table lets {first} beat {second} and {second} beat {first}"


_ALL_SHAPES: Final = tuple(Shape.from_code(code) for code in STRUCTURES.values())
"""Every shape of every kind and length, whether a rule set plays it or not."""
_SET_SHAPES: Final = tuple(s for s in _ALL_SHAPES if not s.kind.is_sequence)
"""Every shape of cards of one rank (the n 2s of RULES §12.3)."""
_PAIR_RUNS: Final = tuple(
    s for s in _ALL_SHAPES if s.kind is ComboKind.CONSECUTIVE_PAIRS
)
"""Every length of consecutive pairs (RULES §12.6)."""


@functools.cache
def _ranks_of(code: int, top: int) -> tuple[int, ...]:
    """The ranks (values) the top card of shape *code* may have, up to *top*.

    A run needs room below its top card (`structural_key_fits`): the valid keys'.
    """
    return tuple(rank for rank in range(top + 1) if structural_key_fits(code, 4 * rank))


_TOP_SETTINGS: Final = (
    "kinds",
    "decks",
    *sorted(
        {name for row in KINDS.values() for name in row.lengths or ()}
        | {row.twos for row in KINDS.values() if row.twos is not None}
    ),
)
"""The settings `BaseRules.max_top_rank` reads: the kinds, the decks and the ones the
kind table names (lengths, 2s on top)."""
_TOPS: Final[dict[tuple[object, ...], dict[Shape, Rank | None]]] = {}
"""`BaseRules._tops` by the class and the values of `_TOP_SETTINGS`."""
_TOPS_KEPT: Final = 256
"""How many `_TOPS` entries are kept before it starts afresh."""


def _tops_shared(rules: BaseRules) -> dict[Shape, Rank | None]:
    """The `max_top_rank` answers of the rule sets that read what *rules* reads.

    An ``attrs.evolve`` of a house rule that changes no length, kind or 2 on top
    shares its preset's, so its checks ask nothing anew. A class that answers a rule
    question its own way (`_changed_members`) keeps its own.
    """
    if _changed_members(type(rules)):  # its answers may read more than these
        return {}
    key = (type(rules), *(getattr(rules, name) for name in _TOP_SETTINGS))
    tops = _TOPS.get(key)
    if tops is None:
        if len(_TOPS) >= _TOPS_KEPT:
            _TOPS.clear()
        tops = _TOPS.setdefault(key, {})
    return tops


_BOMB_SETTINGS: Final = (
    "bombs",
    "bomb_chain",
    "pair_runs_beat_twos",
    "longer_pair_runs_beat_shorter",
)
"""The settings besides `_TOP_SETTINGS` that `BaseRules._bomb_problem_and_shapes` reads."""
_BOMB_FACTS: Final[dict[tuple[object, ...], tuple[str | None, frozenset[Shape]]]] = {}
"""`BaseRules._bomb_problem_and_shapes` by the class and the settings it reads."""


def _bomb_facts(rules: BaseRules) -> tuple[str | None, frozenset[Shape]]:
    """`BaseRules._bomb_problem_and_shapes` of *rules*, shared by the rule sets reading the same.

    A class that answers a rule question its own way (`_changed_members`) is asked
    each time: its answers may read more than these settings.
    """
    if _changed_members(type(rules)):
        return rules._bomb_problem_and_shapes()
    key = (
        type(rules),
        *(getattr(rules, name) for name in _TOP_SETTINGS),
        *(getattr(rules, name) for name in _BOMB_SETTINGS),
    )
    facts = _BOMB_FACTS.get(key)
    if facts is None:
        if len(_BOMB_FACTS) >= _TOPS_KEPT:
            _BOMB_FACTS.clear()
        facts = _BOMB_FACTS[key] = rules._bomb_problem_and_shapes()
    return facts


_COMPILING: Final = threading.RLock()
"""Held while a rule set compiles its rule book (`BaseRules._rulebook`)."""


_INSTANT_WIN_TESTS: Final[dict[InstantWin, Callable[[int], bool]]] = {
    InstantWin.FOUR_TWOS: four_twos,
    InstantWin.SIX_PAIRS: six_pairs,
    InstantWin.FIVE_CONSECUTIVE_PAIRS: five_consecutive_pairs,
    InstantWin.THIRTEEN_RANKS: thirteen_ranks,
    InstantWin.THREE_CONSECUTIVE_TRIPLES: three_consecutive_triples,
    InstantWin.THREE_TRIPLES: three_triples,
    InstantWin.DRAGON_WITHOUT_TWO: dragon_without_two,
}
"""The instant wins read off the per-rank counts (`_bits.rank_counts`) alone;
`BaseRules._qualifies` has the rest."""


def _count_list(mask: int) -> list[int]:
    """The per-rank card counts of *mask*, rank 3 first."""
    counts = _bits.rank_counts(mask)
    return [counts >> shift & 15 for shift in _bits.SHIFTS]


def _best_packing(
    counts: tuple[int, ...], twos: list[int], items: Iterable[tuple[int, int, int, int]]
) -> int:
    """The largest total of disjoint items (bombs by per-rank need and length, and single 2s).

    Bombs need ``per_rank`` cards at each of ``length`` consecutive ranks, the highest no
    higher than ``top_rank``; a 2 used by a bomb is the lowest-valued one, so the dearest
    2s stay free to count singly (D-20).

    A dynamic programme over the ranks, low to high (issue 14: no search over
    orderings). A bomb's value is taken where it starts; afterwards only its per-rank
    need and the ranks it still spans matter, so the state is the multiset of those
    pairs, and a rank of at most 8 cards keeps it small.
    """
    starts, needs = _bomb_starts(tuple(items))
    # Ranks where no bomb can start: nothing to choose there unless one passes through.
    idle = [count < need for count, need in zip(counts, needs, strict=True)]
    if all(idle):  # no bomb at all: every 2 counts singly
        return sum(twos)

    @functools.cache
    def best(rank: int, open_bombs: tuple[tuple[int, int], ...]) -> int:
        if rank == _bits.RANKS:
            return 0
        if not open_bombs and idle[rank]:
            free_twos = sum(twos) if rank == _TWO else 0
            return free_twos + best(rank + 1, ())
        free = counts[rank] - sum(per_rank for per_rank, _ in open_bombs)
        if free < 0:  # the bombs begun lower need more cards than this rank holds
            return _IMPOSSIBLE
        going = tuple((k, left - 1) for k, left in open_bombs if left > 1)
        result = _IMPOSSIBLE
        for started, used, worth in _starts(starts[rank], free):
            rest = free - used
            value = worth
            if rank == _TWO and rest:
                value += sum(twos[len(twos) - rest :])  # the dearest 2s stay free
            opened = going + tuple(
                (k, length - 1) for k, length in started if length > 1
            )
            result = max(result, value + best(rank + 1, tuple(sorted(opened))))
        return result

    return best(0, ())


@functools.lru_cache(maxsize=64)
def _bomb_starts(
    items: _Items,
) -> tuple[tuple[tuple[tuple[int, int, int], ...], ...], tuple[int, ...]]:
    """The bombs of *items* that may start at each rank, and the fewest cards each needs.

    At each rank, each ``(per_rank, length)`` once, at its dearest ``value``; a rank
    where none starts needs more cards than a rank holds.
    """
    starts: list[tuple[tuple[int, int, int], ...]] = []
    for start in range(_bits.RANKS):
        dearest: dict[tuple[int, int], int] = {}
        for per_rank, length, value, top in items:
            if start + length - 1 <= top:
                shape = (per_rank, length)
                dearest[shape] = max(dearest.get(shape, value), value)
        starts.append(
            tuple((*shape, value) for shape, value in sorted(dearest.items()))
        )
    needs = tuple(min((k for k, _, _ in row), default=_NO_START) for row in starts)
    return tuple(starts), needs


_NO_START: Final = 2 * _bits.CARDS
"""More cards than a rank holds: the need of a rank where no bomb starts."""
_IMPOSSIBLE: Final = -(1 << 30)
"""Below any total: a state whose bombs cannot be completed."""


def _starts(
    choices: tuple[tuple[int, int, int], ...], room: int
) -> Iterator[tuple[tuple[tuple[int, int], ...], int, int]]:
    """Every multiset of bombs ``(per_rank, length, value)`` whose needs fit in *room* cards.

    Yields each multiset as ``(per_rank, length)`` pairs, with its cards and its value.
    """

    def extend(
        at: int, chosen: tuple[tuple[int, int], ...], used: int, value: int
    ) -> Iterator[tuple[tuple[tuple[int, int], ...], int, int]]:
        yield chosen, used, value
        for j in range(at, len(choices)):
            per_rank, length, worth = choices[j]
            if used + per_rank <= room:
                yield from extend(
                    j, (*chosen, (per_rank, length)), used + per_rank, value + worth
                )

    return extend(0, (), 0, 0)
