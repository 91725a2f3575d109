"""What one seat may see of a state, as ints, and the observation fields computed from it.

`seat_view` takes, from a `GameState`, only what the seat may see: its own hand's
mask, the public table (the top, who passed, who is out, card counts) and the shared
record of actions. It holds no `GameState` and no other seat's cards, so the lazy
`tienlen.players.Observation` built on it can be handed to a bot's code (issue 20
item 7). `FIELDS` computes each observation field from a view, when it is first read;
`field_reader` is the descriptor that does it (compiled, a field is read at C speed by
any bot).

Example:
    >>> from tienlen import CLASSIC, GameState
    >>> state = GameState.from_hands(["3s 7h", "4d 9c", "5c Jd"], CLASSIC).play("3s")
    >>> view = seat_view(state, 1, (1, 2, 2), game_view(state))
    >>> str(FIELDS["top"](view)), FIELDS["to_act"](view), FIELDS["card_counts"](view)
    ('3s', 1, (1, 2, 2))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from tienlen.actions import Play, hand_of
from tienlen.cards import DECK, Hand
from tienlen.combos import make_combo
from tienlen.game import unwound

if TYPE_CHECKING:
    from tienlen.game import GameState

__all__ = [
    "FIELDS",
    "GAME_ITEMS",
    "ITEMS",
    "SEAT_SETS",
    "ComputedField",
    "GameView",
    "GameViewItem",
    "SeatView",
    "ViewItem",
    "card_counts",
    "fewest_opponent_cards",
    "field_reader",
    "game_view",
    "hand_mask",
    "is_leading",
    "seat_view",
]

GameView = tuple[object, ...]
"""What every seat sees alike for a whole game: rules, players, direction, and the
setup's ``first_game`` and ``after_instant_win`` (`game_view`).

Of any length to the type checker: compiled by mypyc, a tuple type of fixed length is
a C structure, built into a new tuple at every `seat_view`."""

SeatView = tuple[Any, ...]
"""One seat's view of one state, as a flat tuple read by index (`seat_view`)."""

# The indices of a `SeatView`.
SEAT: Final = 0
HAND: Final = 1
TO_ACT: Final = 2
TOP_KEY: Final = 3
TOP_MASK: Final = 4
TOP_COMBO: Final = 5
LAST_PLAYER: Final = 6
LOCKED: Final = 7
OUT: Final = 8
FINISH_ORDER: Final = 9
FROZEN: Final = 10
COUNTS: Final = 11
REQUIRED: Final = 12
MAY_DECLINE: Final = 13
MAY_CONTINUE: Final = 14
LOG: Final = 15
GAME: Final = 16


def game_view(state: GameState) -> GameView:
    """The part of every view of *state*'s game that stays fixed for the game.

    Example:
        >>> from tienlen import POKER, GameState
        >>> rules, players, direction, first, after = game_view(GameState.deal(POKER, 4, seed=1))
        >>> players, direction.name, first, after
        (4, 'COUNTERCLOCKWISE', True, False)
    """
    rules = state.rules
    setup = state.setup
    return (
        rules,
        len(state._masks),
        rules.direction,
        setup.first_game,
        setup.after_instant_win,
    )


def card_counts(state: GameState) -> tuple[int, ...]:
    """How many cards each player of *state* holds, by seat.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> card_counts(GameState.from_hands(["3s 7h", "4d"], CLASSIC))
        (2, 1)
    """
    return tuple(mask.bit_count() for mask in state._masks)


def seat_view(
    state: GameState, seat: int, counts: tuple[int, ...], game: GameView
) -> SeatView:
    """What *seat* may see of *state*, whose hands hold *counts* cards, in *game*.

    Every item is an immutable value the state already holds (nothing is computed
    here: the observation fields are, when read). The must-include card, declining
    and continuing are the seat's only when it is to act.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.from_hands(["3s 7h", "4d 9c"], CLASSIC)
        >>> view = seat_view(state, 0, (2, 2), game_view(state))
        >>> str(FIELDS["hand"](view)), FIELDS["must_include"](view)
        ('3s 7h', Card.parse('3s'))
    """
    to_act = state.to_act
    top = state._top
    last = state.last_player
    acting = seat == to_act
    masks: tuple[object, ...] = state._masks  # compiled: read as stored, not unboxed
    return (
        seat,
        masks[seat],
        to_act,
        top,
        state._top_mask,
        state._top_combo,
        last,
        state.locked,
        state.out,
        state.finish_order,
        state.frozen,
        counts,
        state.required if acting else 0,
        state.may_decline if acting else False,
        acting and top != 0 and seat == last,
        state._log,
        game,
    )


def _top(view: SeatView) -> object:
    """The combination to beat, built when first asked."""
    if not view[TOP_KEY]:
        return None
    combo = view[TOP_COMBO]
    if combo is None:
        return make_combo(view[TOP_MASK], view[TOP_KEY])
    return combo


def _played(view: SeatView) -> Hand:
    """Every card played: the cards of every play of the record."""
    mask = 0
    log = view[LOG]
    while log is not None:
        log, action = log  # the record's pairs (`tienlen.game.Log`)
        if type(action) is Play:
            mask |= action._mask
        elif type(action) is int:  # a play applied by its mask: ``mask << 4 | seat``
            mask |= action >> 4
    return hand_of(mask)


def _must_include(view: SeatView) -> object:
    required = view[REQUIRED]
    return DECK[required.bit_length() - 1] if required else None


def _jumping_in(view: SeatView) -> bool:
    to_act = view[TO_ACT]
    return to_act is not None and to_act != view[SEAT]


SEAT_SETS: Final = tuple(
    frozenset(seat for seat in range(8) if mask >> seat & 1) for mask in range(256)
)
"""``SEAT_SETS[mask]``: the seats whose bits are set in *mask* (at most 8 players)."""


FIELDS: Final[dict[str, Callable[[SeatView], object]]] = {
    "seat": lambda view: view[SEAT],
    "hand": lambda view: hand_of(view[HAND]),
    "rules": lambda view: view[GAME][0],
    "players": lambda view: view[GAME][1],
    "direction": lambda view: view[GAME][2],
    "to_act": lambda view: view[TO_ACT],
    "jumping_in": _jumping_in,
    "top": _top,
    "last_player": lambda view: view[LAST_PLAYER],
    "passed": lambda view: SEAT_SETS[view[LOCKED]],
    "out": lambda view: SEAT_SETS[view[OUT]],
    "finish_order": lambda view: view[FINISH_ORDER],
    "frozen": lambda view: view[FROZEN],
    "card_counts": lambda view: view[COUNTS],
    "played": _played,
    "history": lambda view: unwound(view[LOG]),
    "must_include": _must_include,
    "may_decline": lambda view: view[MAY_DECLINE],
    "may_continue": lambda view: view[MAY_CONTINUE],
    "first_game": lambda view: view[GAME][3],
    "after_instant_win": lambda view: view[GAME][4],
}
"""Each `tienlen.players.Observation` field, computed from a `SeatView`."""


ITEMS: Final = {
    "seat": SEAT,
    "to_act": TO_ACT,
    "last_player": LAST_PLAYER,
    "finish_order": FINISH_ORDER,
    "frozen": FROZEN,
    "card_counts": COUNTS,
    "may_decline": MAY_DECLINE,
    "may_continue": MAY_CONTINUE,
}
"""The observation fields that are a `SeatView` item as it is (``FIELDS`` reads them so)."""

GAME_ITEMS: Final = {
    "rules": 0,
    "players": 1,
    "direction": 2,
    "first_game": 3,
    "after_instant_win": 4,
}
"""The observation fields that are a `GameView` item as it is."""


# The `tienlen.players.Observation` properties computed from the snapshot (not kept:
# each is cheap). Each is the property's getter itself, so that reading one is one
# call, compiled in the compiled build. An observation built whole (`Observation`'s
# constructor) has no snapshot: each reads its fields then.


def hand_mask(observation: Any) -> int:
    """`tienlen.Observation.hand_mask`: the seat's own cards as a mask.

    Example:
        >>> from tienlen import CLASSIC, GameState, Hand, Observation
        >>> state = GameState.from_hands(["3s 7h", "4d 9c"], CLASSIC)
        >>> hand_mask(Observation.of(state, 1)) == Hand.parse("4d 9c").mask
        True
    """
    view = observation.__dict__.get("_view")
    if view is None:
        mask: int = observation.hand.mask
        return mask
    return view[HAND]  # type: ignore[no-any-return]


def is_leading(observation: Any) -> bool:
    """`tienlen.Observation.is_leading`: the seat is to act with nothing to beat.

    Example:
        >>> from tienlen import CLASSIC, GameState, Observation
        >>> is_leading(Observation.of(GameState.from_hands(["3s", "4d"], CLASSIC), 0))
        True
    """
    view = observation.__dict__.get("_view")
    if view is None:
        return observation.top is None and observation.seat == observation.to_act
    return not view[TOP_KEY] and view[SEAT] == view[TO_ACT]


def fewest_opponent_cards(observation: Any) -> int | None:
    """`tienlen.Observation.fewest_opponent_cards`: the smallest opponent's hand.

    ``None`` when no opponent is still in the game.

    Example:
        >>> from tienlen import CLASSIC, GameState, Observation
        >>> state = GameState.from_hands(["3s 7h", "4d", "5c 6c 8h"], CLASSIC)
        >>> fewest_opponent_cards(Observation.of(state, 0))
        1
    """
    view = observation.__dict__.get("_view")
    fewest: int | None = None
    if view is None:
        for seat in observation.opponents:
            count: int = observation.card_counts[seat]
            if fewest is None or count < fewest:
                fewest = count
        return fewest
    own: int = view[SEAT]  # typed: compiled, the shift is on native ints
    out: int = view[OUT] | 1 << own
    counts: tuple[int, ...] = view[COUNTS]
    for other, count in enumerate(counts):
        if not out >> other & 1 and (fewest is None or count < fewest):
            fewest = count
    return fewest


class ComputedField:
    """An observation field computed from the snapshot when first read, then kept.

    A non-data descriptor: once the value is in the instance ``__dict__``, reading
    the field is a plain attribute read.
    """

    __slots__ = ("compute", "name")

    def __init__(self, name: str, compute: Callable[[SeatView], object]) -> None:
        self.name = name
        self.compute = compute

    def __get__(self, observation: object, owner: type | None = None) -> object:
        if observation is None:
            return self
        fields = observation.__dict__
        value = fields[self.name] = self.compute(fields["_view"])
        return value


class ViewItem:
    """An observation field that is an item of the snapshot (`ITEMS`), kept once read."""

    __slots__ = ("index", "name")

    def __init__(self, name: str, index: int) -> None:
        self.name = name
        self.index = index

    def __get__(self, observation: object, owner: type | None = None) -> object:
        if observation is None:
            return self
        fields = observation.__dict__
        value = fields[self.name] = fields["_view"][self.index]
        return value


class GameViewItem(ViewItem):
    """An observation field that is an item of the game's part of the snapshot."""

    __slots__ = ()

    def __get__(self, observation: object, owner: type | None = None) -> object:
        if observation is None:
            return self
        fields = observation.__dict__
        value = fields[self.name] = fields["_view"][GAME][self.index]
        return value


def field_reader(name: str) -> ComputedField | ViewItem:
    """The descriptor that reads the observation field *name* from its snapshot.

    Example:
        >>> from tienlen import CLASSIC, GameState, Observation
        >>> seen = Observation.of(GameState.from_hands(["3s 7h", "4d 9c"], CLASSIC), 1)
        >>> field_reader("to_act").__get__(seen), type(field_reader("top")).__name__
        (0, 'ComputedField')
    """
    if name in ITEMS:
        return ViewItem(name, ITEMS[name])
    if name in GAME_ITEMS:
        return GameViewItem(name, GAME_ITEMS[name])
    return ComputedField(name, FIELDS[name])
