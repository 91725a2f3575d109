"""The fixed action table: PASS plus every (kind, length, top card) class (issue 12 §1).

A legal play is named by its *class*: its `ComboKind`, its length in ranks and its top
card. Members of one class differ only in the suits of their non-top cards, and the
top card decides every same-shape comparison (RULES §1.3), so a policy over classes
loses nothing a player cares about, while the table stays small and fixed.

The table is generated from the rule settings, never pickled: the classes the five
presets allow with one deck come first, in a stable order (kind, length, top card);
then the 213 classes the presets' key tables add with two decks (a pair topped by a ♠:
two 3♠), 829 entries in all; then, for a house rule set, its own extra classes.
Indices of earlier parts never move. Of the two-deck classes, 49 are keys no deal can
make (a triple, a four of a kind or a quad run topped by a ♠ would need three ♠ of one
rank): they keep their place, so the layout is the presets' whole key space, and their
mask is always 0 (`ActionTable.playable` says which are).

Example:
    >>> from tienlen.rl import ACTIONS
    >>> ACTIONS.PASS, ACTIONS.size, len(ACTIONS)
    (0, 616, 829)
    >>> ACTIONS[1], ACTIONS[ACTIONS.size]
    (ActionClass(kind=<ComboKind.SINGLE: 1>, length=1, top=Card.parse('3s')), ActionClass(kind=<ComboKind.PAIR: 2>, length=1, top=Card.parse('3s')))
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import ClassVar, Final, overload

import attrs
import numpy as np
import numpy.typing as npt

from tienlen.cards import DECK, Card, Hand, Rank
from tienlen.combos import ComboKind, Shape
from tienlen.errors import InvalidArgumentError, InvalidRulesError, TienLenError
from tienlen.game import Action, GameState, Pass, Play
from tienlen.rl._arrays import Words, class_keys, halves
from tienlen.rl._checks import as_rules, check_count
from tienlen.rules import RULESETS, BaseRules

__all__ = [
    "ACTIONS",
    "ActionClass",
    "ActionTable",
    "UnknownActionError",
    "card_value",
    "class_key",
    "class_key_array",
    "is_structure",
]

_RANKS: Final = 13
_CARDS: Final = 52
_LOW_HALF: Final = (1 << _CARDS) - 1


class UnknownActionError(TienLenError, ValueError):
    """An action index or a play that the action table does not hold.

    Example:
        >>> from tienlen.rl import ACTIONS
        >>> ACTIONS[5000]
        Traceback (most recent call last):
        ...
        tienlen.rl.table.UnknownActionError: no action 5000 in a table of 829 actions
    """


@attrs.frozen
class ActionClass:
    """One entry of the table: every play of *kind* over *length* ranks topped by *top*.

    Raises:
        ValueError: a run reaching below the 3 (runs never wrap, RULES §1.4), or a
            length *kind* cannot have.

    Example:
        >>> from tienlen import Card, ComboKind
        >>> run = ActionClass(ComboKind.STRAIGHT, 5, Card.parse("7h"))
        >>> str(run), [rank.symbol for rank in run.ranks]
        ('5-card straight to 7h', ['3', '4', '5', '6', '7'])
    """

    kind: ComboKind
    """The combination kind."""
    length: int
    """Ranks spanned (1 for singles, pairs, triples and fours)."""
    top: Card
    """The highest card, which decides same-shape comparisons (RULES §1.3)."""

    def __attrs_post_init__(self) -> None:
        Shape.of(self.kind, self.length)  # raises InvalidRulesError, a ValueError
        if not self.kind.is_sequence and self.length != 1:
            msg = f"a {self.kind.label} spans one rank, not {self.length}"
            raise InvalidArgumentError(msg)
        if self.top.rank.value < self.length - 1:
            msg = f"no {self.kind.label} of {self.length} ranks tops at {self.top}"
            raise InvalidArgumentError(msg)

    @property
    def shape(self) -> Shape:
        """The kind plus the number of cards.

        Example:
            >>> from tienlen import Card, ComboKind
            >>> str(ActionClass(ComboKind.STRAIGHT, 5, Card.parse("7h")).shape)
            '5-card straight'
        """
        return Shape.of(self.kind, self.length)

    @property
    def key(self) -> int:
        """The class as `tienlen.Combo.key` names it (shape code and top card).

        Example:
            >>> from tienlen import Card, ComboKind, classify
            >>> run = ActionClass(ComboKind.STRAIGHT, 5, Card.parse("7h"))
            >>> run.key == classify("3s 4d 5c 6s 7h").key
            True
        """
        return self.shape.code << 6 | self.top.index

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """The ranks the class spans, lowest first.

        Example:
            >>> from tienlen import Card, ComboKind
            >>> pairs = ActionClass(ComboKind.CONSECUTIVE_PAIRS, 3, Card.parse("Th"))
            >>> [rank.symbol for rank in pairs.ranks]
            ['8', '9', '10']
        """
        top = self.top.rank.value
        return tuple(Rank(value) for value in range(top - self.length + 1, top + 1))

    def __str__(self) -> str:
        return f"{self.shape} to {self.top}"


def _lengths(kind: ComboKind) -> Iterator[int]:
    """Every length a shape of *kind* may have (`Shape.of` decides)."""
    for length in range(1, _RANKS + 1 if kind.is_sequence else 2):
        try:
            Shape.of(kind, length)
        except InvalidRulesError:
            continue
        yield length


def rule_classes(
    rules: BaseRules, decks: int, *, any_suit: bool = False
) -> list[ActionClass]:
    """Every class *rules* allows with *decks* decks, ordered by kind, length, top card.

    A class exists when its shape is a combination under the rules (`max_top_rank`),
    its top rank is at least its length less one (runs never wrap, RULES §1.4) and at
    most that maximum, and its top suit leaves room below for the other cards of its
    rank: with one deck a pair's top is at least ♣, with two decks any suit. With
    *any_suit* every top suit counts: the rule set's whole key space, playable or not.

    Example:
        >>> from tienlen import POKER
        >>> len(rule_classes(POKER, 1))
        407
    """
    found: list[ActionClass] = []
    for kind in ComboKind:
        per_rank = kind.per_rank
        lowest_suit = 0 if any_suit else (per_rank + decks - 1) // decks - 1
        for length in _lengths(kind):
            highest = rules.max_top_rank(Shape.of(kind, length))
            if highest is None:
                continue
            for rank in range(length - 1, highest.value + 1):
                found.extend(
                    ActionClass(kind, length, DECK[rank * 4 + suit])
                    for suit in range(lowest_suit, 4)
                )
    return found


def _ordered(classes: Iterable[ActionClass]) -> list[ActionClass]:
    return sorted(set(classes), key=lambda c: (c.kind.value, c.length, c.top.index))


@functools.cache
def _base_classes() -> tuple[tuple[ActionClass, ...], tuple[ActionClass, ...]]:
    """The presets' one-deck classes, then the classes only two decks add."""
    presets = list(RULESETS.values())
    one = _ordered(c for rules in presets for c in rule_classes(rules, 1))
    two = _ordered(
        c for rules in presets for c in rule_classes(rules, 2, any_suit=True)
    )
    seen = set(one)
    return tuple(one), tuple(c for c in two if c not in seen)


@functools.cache
def _playable_classes() -> frozenset[ActionClass]:
    """The presets' classes some deal of one or two decks can make."""
    presets = list(RULESETS.values())
    return frozenset(
        c for rules in presets for decks in (1, 2) for c in rule_classes(rules, decks)
    )


class ActionTable(Sequence[ActionClass | None]):
    """PASS (index 0) and the play classes, index ↔ action both ways.

    ``table[i]`` is the `ActionClass` at index *i* (``None`` for PASS);
    `ActionTable.index` maps an action to its index. `size` counts the entries
    one-deck games use; ``len(table)`` counts them all. Use `ActionTable.for_rules`
    for a house rule set with classes the presets lack.

    Example:
        >>> from tienlen import CLASSIC, GameState, Play
        >>> from tienlen.rl import ACTIONS
        >>> state = GameState.from_hands(["3s 3h 4d", "5d 6d"], CLASSIC)
        >>> i = ACTIONS.index(Play(player=0, cards="3s 3h"))
        >>> str(ACTIONS[i]), str(ACTIONS.fill(i, state.hand(0), player=0))
        ('pair to 3h', '3s 3h')
    """

    PASS: ClassVar[int] = 0
    """The index of a pass."""

    def __init__(self, extra: Sequence[ActionClass] = ()) -> None:
        one, two = _base_classes()
        known = {*one, *two}
        given: object = extra  # checked at run time: callers may pass anything
        if isinstance(given, str) or not isinstance(given, Sequence):
            msg = f"expected a sequence of ActionClass, got {given!r}"
            raise TypeError(msg)
        for item in given:
            if not isinstance(item, ActionClass):
                msg = f"expected an ActionClass, got {item!r}"
                raise TypeError(msg)
        for entry in extra:
            if entry in known:
                msg = f"{entry} is already in the table"
                raise InvalidArgumentError(msg)
            known.add(entry)
        self._classes: tuple[ActionClass | None, ...] = (None, *one, *two, *extra)
        self._index: dict[int, int] = {
            entry.key: i for i, entry in enumerate(self._classes) if entry is not None
        }
        self._known: dict[int, int] = {}
        """Card mask → index of the plays `group_masks` met (a cache, emptied when full)."""
        self.size: Final = 1 + len(one)
        """Entries a one-deck game of the presets can use (PASS and 615 classes)."""
        self.base_size: Final = 1 + len(one) + len(two)
        """The entries every preset uses, one or two decks (829); extra classes come after."""
        playable = _playable_classes()
        self._unplayable: frozenset[ActionClass] = frozenset(
            entry for entry in two if entry not in playable
        )

    def playable(self, index: int) -> bool:
        """Whether some deal can make a play of entry *index* (PASS always can).

        The 49 two-deck keys no deal makes (a triple topped by a ♠, say) keep their
        place in the table; their mask is always 0.

        Example:
            >>> playable = [ACTIONS.playable(i) for i in range(len(ACTIONS))]
            >>> playable.count(False), all(playable[: ACTIONS.size])
            (49, True)
        """
        return self[index] not in self._unplayable

    @classmethod
    def for_rules(cls, rules: BaseRules | str) -> ActionTable:
        """The table extended with the classes *rules* allows that the presets lack.

        Those are appended after `base_size`, in the table's order; with none (the
        presets' classes cover every longer Poker run, say) this is `ACTIONS` itself.

        Raises:
            TypeError: *rules* is neither a rule set nor a preset's name.

        Example:
            >>> import attrs
            >>> from tienlen import POKER
            >>> ActionTable.for_rules(attrs.evolve(POKER, max_consecutive_pairs=6)) is ACTIONS
            True
        """
        return _table_for(as_rules(rules))

    def actions_for(self, players: int) -> int:
        """How many entries a game of *players* needs (the size of its action space).

        Example:
            >>> ACTIONS.actions_for(4), ACTIONS.actions_for(6)
            (616, 829)
        """
        if players <= 4 and len(self) == self.base_size:
            return self.size
        return len(self)

    # -- index ↔ action -------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._classes)

    @overload
    def __getitem__(self, index: int) -> ActionClass | None: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[ActionClass | None, ...]: ...
    def __getitem__(
        self, index: int | slice
    ) -> ActionClass | tuple[ActionClass | None, ...] | None:
        if isinstance(index, slice):
            return self._classes[index]
        index = operator.index(index)  # a TypeError for anything but an int
        try:
            return self._classes[index]
        except IndexError:
            msg = f"no action {index} in a table of {len(self)} actions"
            raise UnknownActionError(msg) from None

    def __iter__(self) -> Iterator[ActionClass | None]:
        return iter(self._classes)

    def index(self, action: Action) -> int:  # type: ignore[override]
        """The index of *action*: `PASS` for a pass, its class for a play.

        Raises:
            UnknownActionError: a play that is no combination of the table.
        """
        if type(action) is Pass:
            return self.PASS
        if type(action) is not Play:
            msg = f"expected a Play or a Pass, not {type(action).__name__}"
            raise TypeError(msg)
        mask = action.cards.mask
        index = self._index.get(class_key(mask)) if is_structure(mask) else None
        if index is None:
            msg = f"{str(action)!r} is no combination of this action table"
            raise UnknownActionError(msg)
        return index

    def index_of_mask(self, mask: int) -> int:
        """The index of the play whose cards are *mask* (a legal play's mask).

        Raises:
            TypeError: *mask* is not an ``int``.
            UnknownActionError: *mask* is no combination of the table.

        Example:
            >>> from tienlen import Hand
            >>> i = ACTIONS.index_of_mask(Hand.parse("9s 9h").mask)
            >>> i == ACTIONS.index(Play(player=0, cards="9d 9h")), str(ACTIONS[i])
            (True, 'pair to 9h')
        """
        if type(mask) is not int:
            msg = f"expected a card mask (an int), not {type(mask).__name__}"
            raise TypeError(msg)
        index = None
        if is_structure(mask):
            index = self._index.get(class_key(mask))
        if index is None:
            msg = f"the mask {mask!r} is no combination of this action table"
            raise UnknownActionError(msg)
        return index

    def indices(self, masks: Sequence[int]) -> npt.NDArray[np.int64]:
        """`index_of_mask` of many legal plays at once, computed by numpy.

        Raises:
            UnknownActionError: a mask that is no combination of the table.

        Example:
            >>> from tienlen import Hand
            >>> masks = [Hand.parse(text).mask for text in ("3s", "9s 9h", "5d 6c 7h")]
            >>> ACTIONS.indices(masks).tolist() == [ACTIONS.index_of_mask(m) for m in masks]
            True
        """
        if any(type(mask) is not int or mask <= 0 for mask in masks):
            msg = "expected the masks of plays: positive ints"
            raise TypeError(msg)
        return self.index_halves(*halves(masks))

    def index_halves(self, low: Words, high: Words | None) -> npt.NDArray[np.int64]:
        """`indices` of legal plays' masks given as ``uint64`` halves.

        The halves are the low words (first copies) and, with two decks, the high
        words (else ``None``), as `tienlen.rl._arrays.halves` splits them.

        Raises:
            UnknownActionError: a mask that is no combination of the table.

        Example:
            >>> import numpy as np
            >>> from tienlen import Hand
            >>> low = np.array([Hand.parse("3s").mask, Hand.parse("9s 9h").mask], np.uint64)
            >>> ACTIONS.index_halves(low, None).tolist() == ACTIONS.indices(low.tolist()).tolist()
            True
        """
        _check_words(low, high)
        keys = class_key_array(low, high)
        lookup = self._lookup
        found = lookup[np.minimum(keys, len(lookup) - 1)]
        if (found < 0).any():
            msg = "a mask that is no combination of this action table"
            raise UnknownActionError(msg)
        return found

    @functools.cached_property
    def _lookup(self) -> npt.NDArray[np.int64]:
        """Class key → index (−1 where no class has the key), with a −1 sentinel last."""
        lookup = np.full(max(self._index) + 2, -1, dtype=np.int64)
        for key, index in self._index.items():
            lookup[key] = index
        return lookup

    def index_of_key(self, key: int) -> int:
        """The index of the class named *key* (a `tienlen.Combo.key`).

        Raises:
            UnknownActionError: no class of the table has that key.

        Example:
            >>> from tienlen import classify
            >>> str(ACTIONS[ACTIONS.index_of_key(classify("9s 9h").key)])
            'pair to 9h'
            >>> ACTIONS.index_of_key(0)
            Traceback (most recent call last):
            ...
            tienlen.rl.table.UnknownActionError: no class with key 0 in this action table
        """
        try:
            return self._index[key]
        except KeyError:
            msg = f"no class with key {key!r} in this action table"
            raise UnknownActionError(msg) from None

    @functools.cached_property
    def single_indices(self) -> tuple[int, ...]:
        """The index of the single of each card, by card index (0 = 3♠ … 51 = 2♥).

        Example:
            >>> str(ACTIONS[ACTIONS.single_indices[0]]), len(ACTIONS.single_indices)
            ('single to 3s', 52)
        """
        indices: list[int] = self.indices(
            [1 << card for card in range(_CARDS)]
        ).tolist()
        return tuple(indices)

    def group_masks(self, masks: Iterable[int]) -> dict[int, list[int]]:
        """Legal actions' card masks by index, each class's in the order given.

        *masks* are what `tienlen.Actions.masks` lists for one seat: the masks of
        legal plays, and 0 for a pass (`PASS`). Nothing is built per action: this is
        how the environments read a decision's choices.

        Raises:
            UnknownActionError: a mask that is no combination of the table (only a
                mask that is no legal play can be one).

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.from_hands(["3s 4d 4h 5c", "5d 6d"], CLASSIC)
            >>> groups = ACTIONS.group_masks(state.legal_actions().masks)
            >>> {str(ACTIONS[i]): len(masks) for i, masks in groups.items()}
            {'single to 3s': 1, '3-card straight to 5c': 2}
        """
        groups: dict[int, list[int]] = {}
        keys, singles, known = self._index, self.single_indices, self._known
        try:
            for mask in masks:
                if not mask & (mask - 1):  # a single card, or 0: a pass
                    index = singles[mask.bit_length() - 1] if mask else self.PASS
                else:
                    index = known.get(mask, -1)
                    if index < 0:  # a hand's plays recur until it plays: remember
                        index = keys[class_key(mask)]
                        if len(known) >= _KNOWN_MASKS:
                            known.clear()
                        known[mask] = index
                group = groups.get(index)
                if group is None:
                    groups[index] = [mask]
                else:
                    group.append(mask)
        except (KeyError, IndexError, UnknownActionError):
            msg = "a mask that is no combination of this action table"
            raise UnknownActionError(msg) from None
        return groups

    # -- classes of a state -----------------------------------------------------------

    def group(self, actions: Iterable[Action], player: int) -> dict[int, list[Action]]:
        """*player*'s actions among *actions*, by index (exact plays of each class).

        Raises:
            TypeError: an item of *actions* is not a `tienlen.Play` or `tienlen.Pass`,
                or *player* is not an ``int``.
            UnknownActionError: a play that is no combination of the table.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.from_hands(["3s 4s 4h 9d", "5d 6d"], CLASSIC)
            >>> groups = ACTIONS.group(state.legal_actions(), 0)
            >>> [(str(ACTIONS[i]), len(plays)) for i, plays in groups.items()]
            [('single to 3s', 1)]
        """
        seat = _seat(player)
        groups: dict[int, list[Action]] = {}
        for action in actions:
            if type(action) is not Play and type(action) is not Pass:
                msg = f"expected Play and Pass actions, not {type(action).__name__}"
                raise TypeError(msg)
            if action.player == seat:
                groups.setdefault(self.index(action), []).append(action)
        return groups

    def legal_indices(self, state: GameState, player: int) -> list[int]:
        """The indices *player* may choose now, ascending (jump-ins included).

        The player to act gets their plays and pass; any other player their Poker
        jump-ins (RULES §6.4), without a pass: declining is not an engine action.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.from_hands(["3s 4s 4h 9d", "5d 6d"], CLASSIC)
            >>> state = state.apply(Play(player=0, cards="3s"))
            >>> [str(ACTIONS[i]) for i in ACTIONS.legal_indices(state, 1)]
            ['None', 'single to 5d', 'single to 6d']
            >>> ACTIONS.legal_indices(state, 0)  # not to act, and no jump-in in Classic
            []
        """
        given: object = state  # checked at run time: callers may pass anything
        if type(given) is not GameState:
            msg = f"expected a GameState, not {type(given).__name__}"
            raise TypeError(msg)
        return sorted(self.group(state.legal_actions(), player))

    def mask(
        self, state: GameState, player: int, size: int | None = None
    ) -> npt.NDArray[np.int8]:
        """An int8 array, 1 where `legal_indices` holds the index (*size* entries).

        Raises:
            TypeError: *state* is not a `tienlen.GameState`, or *player* or *size*
                not an ``int``.
            tienlen.errors.InvalidArgumentError: *size* leaves out a legal index or
                exceeds the table.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> mask = ACTIONS.mask(GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC), 0)
            >>> mask.dtype.name, mask.shape, int(mask.sum())
            ('int8', (616,), 1)
        """
        indices = self.legal_indices(state, player)
        need = self.actions_for(state.players)
        if size is not None:
            need = check_count(size, "size", 1 + max(indices, default=0), len(self))
        out = np.zeros(need, dtype=np.int8)
        out[indices] = 1
        return out

    def plays(self, index: int, actions: Iterable[Action], player: int) -> list[Action]:
        """Every exact action of class *index* among *player*'s *actions*.

        Raises:
            UnknownActionError: *index* is not in the table.

        Example:
            >>> pairs = ("9s 9d", "9c 9d", "9d 9h")
            >>> actions = [Play(player=0, cards=text) for text in pairs]
            >>> i = ACTIONS.index(actions[0])
            >>> str(ACTIONS[i]), [str(play) for play in ACTIONS.plays(i, actions, 0)]
            ('pair to 9d', ['9s 9d', '9c 9d'])
            >>> ACTIONS.plays(i, actions, 1)
            []
        """
        self[index]  # an unknown index raises
        return self.group(actions, player).get(index, [])

    def fill(
        self,
        index: int,
        hand: Hand,
        player: int,
        choose: Callable[[Sequence[Play]], Play] | None = None,
    ) -> Action:
        """The action of class *index* from *hand*: a pass, or the play it names.

        By default the play takes, at every rank, the lowest suits the hand holds (the
        top card itself at the top rank); that play is legal whenever the class is
        (every member of a class compares alike, RULES §1.3). *choose* instead picks
        among every play of the class the hand holds.

        Raises:
            UnknownActionError: the hand holds no play of the class.
            TypeError: *hand* is not a `tienlen.Hand`, *player* not an ``int``.

        Example:
            >>> from tienlen import Hand
            >>> hand = Hand.parse("4s 4d 5c 5h 6s 6h 7d")
            >>> i = ACTIONS.index(Play(player=0, cards="4d 5h 6h"))
            >>> str(ACTIONS.fill(i, hand, 0)), len(ACTIONS.members(i, hand))
            ('4s 5c 6h', 4)
        """
        entry = self[index]
        seat = _seat(player)
        _check_hand(hand)
        if entry is None:
            return Pass(player=seat)
        if choose is None:
            mask = _lowest_fill(entry, hand.mask)
            if mask is None:
                raise self._missing(entry, hand)
            return Play(player=seat, cards=Hand(mask))
        given: object = choose  # checked at run time: callers may pass anything
        if not callable(given):
            msg = f"choose must be callable, not {type(given).__name__}"
            raise TypeError(msg)
        return choose([Play(player=seat, cards=m) for m in self.members(index, hand)])

    def members(self, index: int, hand: Hand) -> list[Hand]:
        """Every play of class *index* that *hand* holds (distinct card sets).

        Raises:
            UnknownActionError: the hand holds no play of the class.
            TypeError: *hand* is not a `tienlen.Hand`.

        Example:
            >>> from tienlen import Hand
            >>> hand = Hand.parse("4s 4d 5c 5h 6s 6h 7d")
            >>> i = ACTIONS.index(Play(player=0, cards="4d 5h 6h"))
            >>> [str(play) for play in ACTIONS.members(i, hand)]
            ['4s 5c 6h', '4s 5h 6h', '4d 5c 6h', '4d 5h 6h']
            >>> ACTIONS.members(ACTIONS.PASS, hand)
            []
        """
        entry = self[index]
        _check_hand(hand)
        if entry is None:
            return []
        found = [Hand(m) for m in _members(entry, hand.mask)]
        if not found:
            raise self._missing(entry, hand)
        return found

    @staticmethod
    def _missing(entry: ActionClass, hand: Hand) -> UnknownActionError:
        return UnknownActionError(f"{str(hand)!r} holds no {entry}")

    def __repr__(self) -> str:
        return f"<ActionTable ({len(self)} actions)>"


def _seat(player: object) -> int:
    """*player*, checked to be a plain ``int`` seat (``bool`` is not one)."""
    if type(player) is not int:
        msg = f"a player is an int, not {type(player).__name__}"
        raise TypeError(msg)
    return player


def _check_hand(hand: object) -> None:
    """Refuse anything but a `tienlen.Hand`."""
    if type(hand) is not Hand:
        msg = f"expected a Hand, not {type(hand).__name__}"
        raise TypeError(msg)


def _copies(mask: int, card: int) -> int:
    """How many copies of *card* a multiset mask holds (0-2)."""
    return (mask >> card & 1) + (mask >> (card + _CARDS) & 1)


def _rank_choices(mask: int, entry: ActionClass, rank: int) -> list[list[int]]:
    """The card lists *mask* can give rank *rank* of *entry*, lowest suits first."""
    per_rank = entry.kind.per_rank
    top = entry.top.index
    cards: list[int] = []
    for card in range(rank * 4, rank * 4 + 4):
        if rank == entry.top.rank.value and card > top:
            break
        cards += [card] * _copies(mask, card)
    if rank == entry.top.rank.value:  # the top card itself, then per_rank - 1 below it
        if top not in cards:
            return []
        cards.remove(top)
        return [[top, *rest] for rest in _combinations(cards, per_rank - 1)]
    return list(_combinations(cards, per_rank))


def _combinations(cards: list[int], k: int) -> list[list[int]]:
    """The distinct k-multisets of *cards* (sorted), lowest first."""
    if k == 0:
        return [[]]
    found: list[list[int]] = []
    for i, card in enumerate(cards):
        if i and cards[i - 1] == card:
            continue
        found += [[card, *rest] for rest in _combinations(cards[i + 1 :], k - 1)]
    return found


def _from_cards(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        bit = 1 << card
        mask |= bit << _CARDS if mask & bit else bit
    return mask


def _lowest_fill(entry: ActionClass, mask: int) -> int | None:
    cards: list[int] = []
    for rank in entry.ranks:
        choices = _rank_choices(mask, entry, rank.value)
        if not choices:
            return None
        cards += choices[0]
    return _from_cards(cards)


def _members(entry: ActionClass, mask: int) -> list[int]:
    found = [0]
    for rank in entry.ranks:
        choices = [
            _from_cards(cards) for cards in _rank_choices(mask, entry, rank.value)
        ]
        found = [done | more for done in found for more in choices]  # disjoint ranks
    return [m for m in found if m]


def class_key(mask: int) -> int:
    """The `ActionClass.key` of the combination whose cards are *mask*.

    *mask* must be a combination (a legal play); its class is read off the cards: the
    number of ranks, the cards per rank and the top card (the highest of one copy).

    Raises:
        TypeError: *mask* is not an ``int``.
        UnknownActionError: no shape has that many ranks and cards per rank.

    Example:
        >>> from tienlen import classify
        >>> combo = classify("9s 9h Ts Td Jc Jd")
        >>> class_key(combo.mask) == combo.key
        True
    """
    if type(mask) is not int:
        msg = f"a card mask is an int, not {type(mask).__name__}"
        raise TypeError(msg)
    low = mask & _LOW_HALF
    high = mask >> _CARDS
    top = low.bit_length() - 1
    size = low.bit_count() + high.bit_count()
    ranks = _rank_bits(low).bit_count()
    code = _SHAPE_CODES.get((ranks, size // ranks)) if ranks and mask > 0 else None
    if code is None:
        msg = f"the mask {mask!r} has no combination's shape"
        raise UnknownActionError(msg)
    return code << 6 | top


def is_structure(mask: int) -> bool:
    """Whether *mask* is one rank, or a run of ranks holding equally many cards each.

    Only a card mask qualifies: a positive int below ``2**104`` whose second copies
    (the high half) are cards it also holds once (the low half).

    Raises:
        TypeError: *mask* is not an ``int`` (``bool`` is not one).

    Example:
        >>> from tienlen import Hand
        >>> is_structure(Hand.parse("9s 9h").mask), is_structure(Hand.parse("3s 5s").mask)
        (True, False)
    """
    if type(mask) is not int:
        msg = f"a card mask is an int, not {type(mask).__name__}"
        raise TypeError(msg)
    if not 0 < mask < _ALL_MASKS or mask >> _CARDS & ~mask:
        return False
    counts = [
        (mask >> 4 * r & 15).bit_count() + (mask >> (_CARDS + 4 * r) & 15).bit_count()
        for r in range(_RANKS)
    ]
    held = [r for r, count in enumerate(counts) if count]
    if not held or len({counts[r] for r in held}) != 1:
        return False
    if held[-1] - held[0] != len(held) - 1:
        return False
    return (len(held), counts[held[0]]) in _SHAPE_CODES


def _rank_bits(low: int) -> int:
    """One bit per rank present in a one-copy mask."""
    folded = low | low >> 1
    folded |= folded >> 2
    return folded & _NIBBLE_LOW


_NIBBLE_LOW: Final = int("1" * _RANKS, 16)
_KNOWN_MASKS: Final = 1 << 16
"""The most plays an `ActionTable` remembers the index of (`group_masks`)."""
_ALL_MASKS: Final = 1 << 2 * _CARDS
"""Every card mask is below this (two copies of each card)."""


def _shape_codes() -> Mapping[tuple[int, int], int]:
    """``(ranks, cards per rank)`` → shape code, for every kind and length."""
    codes: dict[tuple[int, int], int] = {}
    for kind in ComboKind:
        for length in _lengths(kind):
            ranks = length if kind.is_sequence else 1
            codes[ranks, kind.per_rank] = Shape.of(kind, length).code
    return codes


_SHAPE_CODES: Final = _shape_codes()


def _shape_code_array() -> npt.NDArray[np.int64]:
    """`_SHAPE_CODES` as an array indexed ``[ranks, cards per rank]`` (0: no shape)."""
    array = np.zeros(
        (_RANKS + 1, 1 + max(per for _, per in _SHAPE_CODES)), dtype=np.int64
    )
    for (ranks, per), code in _SHAPE_CODES.items():
        array[ranks, per] = code
    return array


_SHAPE_CODE_ARRAY: Final = _shape_code_array()


def class_key_array(low: Words, high: Words | None) -> npt.NDArray[np.int64]:
    """`class_key` of many combination masks at once, given as ``uint64`` halves.

    ``key >> 12`` is the `tienlen.ComboKind` value; an empty mask gives a key below 0.

    Raises:
        TypeError: the halves are not 1-d ``uint64`` arrays of one length.

    Example:
        >>> import numpy as np
        >>> from tienlen import Hand
        >>> masks = [Hand.parse(text).mask for text in ("3s", "5d 6c 7h")]
        >>> keys = class_key_array(np.array(masks, np.uint64), None)
        >>> keys.tolist() == [class_key(mask) for mask in masks]
        True
    """
    _check_words(low, high)
    return class_keys(low, high, _SHAPE_CODE_ARRAY)


def _check_words(low: object, high: object) -> None:
    """Refuse anything but a 1-d ``uint64`` array and ``None`` or another like it."""
    shape = low.shape if isinstance(low, np.ndarray) else None
    for words in (low, high):
        if words is high is None:
            break
        if (
            not isinstance(words, np.ndarray)
            or words.dtype != np.uint64
            or words.ndim != 1
            or words.shape != shape
        ):
            msg = "expected the masks' halves: 1-d uint64 arrays of one length"
            raise TypeError(msg)


def card_value(mask: int) -> int:
    """The sum of ``2 ** card`` over a play's cards (two decks: each copy's card).

    Of one class's members, the one filled with the lowest suits (`ActionTable.fill`)
    has the least value: this is how the environments pick it among legal masks.

    Raises:
        TypeError: *mask* is not an ``int`` (``bool`` is not one).
        UnknownActionError: *mask* is negative or above ``2**104`` (no card mask).

    Example:
        >>> from tienlen import Hand
        >>> low, high = Hand.parse("4s 5c 6h").mask, Hand.parse("4d 5h 6h").mask
        >>> card_value(low) < card_value(high)
        True
    """
    if type(mask) is not int:
        msg = f"a card mask is an int, not {type(mask).__name__}"
        raise TypeError(msg)
    if not 0 <= mask < _ALL_MASKS:
        msg = f"the mask {mask!r} is no card mask"
        raise UnknownActionError(msg)
    return (mask & _LOW_HALF) + (mask >> _CARDS)


@functools.cache
def _table_for(rules: BaseRules) -> ActionTable:
    one, two = _base_classes()
    known = {*one, *two}
    extra = [c for c in _ordered(rule_classes(rules, rules.decks)) if c not in known]
    return ACTIONS if not extra else ActionTable(extra)


ACTIONS: Final = ActionTable()
"""The action table of the five presets: 616 one-deck entries, 829 in all."""
