"""Observations: what one seat may see, as numbers, relative to that seat (issue 12 §1).

Every per-seat field lists the seats in play direction starting with the observer
(RULES §2.1, §6.1), so a policy sees "me, next, next but one…" under every variant.
The fields, by name (`ObservationLayout.fields` gives their sizes):

- ``hand``: the observer's cards (52 card counts: 0 or 1, 0–2 with two decks);
- ``played``: the cards each seat has played (52 per seat);
- ``unseen``: the cards the observer has not seen (neither held nor played);
- ``card_counts``: the cards each seat holds;
- ``top``, ``top_kind``, ``top_player``: the combination to beat, its kind (one-hot)
  and who played it (one-hot; all zero when leading);
- ``to_act``, ``passed``, ``out``: who acts, who has passed this trick, who is out;
- ``flags``: the observer must include the first-lead card (RULES §2.4), may decline
  it (§3.3), may continue or close its trick (§3.4), is asked about a jump-in (§6.4);
- ``rules``: the rule settings that change play (`rule_features`);
- ``history``: the last *k* actions, latest first: who (one-hot), the cards, a pass.

`ObservationEncoder` keeps a game's public record up to date once per action and
assembles an observation in a few array copies; `reference_observation` builds the same
numbers the slow, obvious way from a `tienlen.Observation`, and the tests hold the two
equal at every step of random games.

Example:
    >>> from tienlen import CLASSIC, GameState
    >>> state = GameState.deal(CLASSIC, 4, seed=1)
    >>> encoder = ObservationEncoder(CLASSIC, 4)
    >>> encoder.reset(state)
    >>> flat = encoder.encode(state, state.to_act)
    >>> len(flat) == encoder.layout.size, flat.dtype.name, int(encoder.structured(state, 0)["hand"].sum())
    (True, 'float32', 13)
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Final, cast

import attrs
import numpy as np
import numpy.typing as npt

from tienlen.cards import Hand
from tienlen.combos import ComboKind
from tienlen.errors import InvalidArgumentError
from tienlen.game import Action, GameState, Pass, Play
from tienlen.players import Observation
from tienlen.rl._arrays import card_rows, halves
from tienlen.rl._checks import OBSERVED_KINDS, as_rules, as_sequence, check_count
from tienlen.rl.table import class_key, class_key_array, is_structure
from tienlen.rules import BaseRules, Direction, GameEnd, Scoring

__all__ = [
    "ACTION_FEATURES",
    "MAX_HISTORY",
    "BatchEncoder",
    "ObservationBatch",
    "ObservationEncoder",
    "ObservationLayout",
    "action_feature",
    "action_features",
    "card_matrix",
    "card_vector",
    "check_table",
    "mask_feature",
    "reference_observation",
    "rule_features",
]

Array = npt.NDArray[np.float32]
MAX_HISTORY: Final = 1024
"""The most past actions an observation may hold."""
_CARDS: Final = 52
_ALL_MASKS: Final = 1 << 2 * _CARDS
_ONE_DECK: Final = (1 << _CARDS) - 1
_INT: Final = frozenset({int})
_KINDS: Final = tuple(kind for kind in ComboKind if kind in OBSERVED_KINDS)
_FLAGS: Final = ("must_include", "may_decline", "may_continue", "jumping_in")


def rule_features(rules: BaseRules | str) -> Array:
    """The rule settings that change play, as numbers (the ``rules`` field).

    Direction, continuation, jump-ins, declining the first lead, 2s in straights and
    in pair runs, the shortest and longest pair runs (over 13), bombs (none, table or
    chain), a game ending at the first out, the scoring (one-hot), the kinds that exist.

    Example:
        >>> from tienlen import CLASSIC, POKER
        >>> rule_features(CLASSIC)[:4].tolist(), rule_features(POKER)[:4].tolist()
        ([1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0])
    """
    rules = as_rules(rules)
    values = [
        rules.direction is Direction.CLOCKWISE,
        rules.continuation,
        bool(rules.jump_in),
        rules.may_decline_first_lead,
        rules.twos_in_straights,
        rules.twos_in_consecutive_pairs,
        rules.min_consecutive_pairs / 13,
        rules.max_consecutive_pairs / 13,
        bool(rules.bombs),
        bool(rules.bomb_chain),
        rules.game_end is GameEnd.FIRST_OUT,
        *(rules.scoring is scoring for scoring in Scoring),
        *(kind in rules.kinds for kind in _KINDS),
    ]
    return np.array(values, dtype=np.float32)


@attrs.frozen
class ObservationLayout:
    """Where each field lies in the flat observation of a table.

    Example:
        >>> from tienlen import POKER
        >>> layout = ObservationLayout(POKER, players=4, history=2)
        >>> layout.fields["played"], layout.fields["history"], layout.slices["hand"]
        (208, 114, slice(0, 52, None))
    """

    rules: BaseRules = attrs.field(converter=as_rules)
    """The variant (a preset's name is read with `tienlen.get_rules`)."""
    players: int
    """Seats at the table."""
    history: int = 8
    """How many past actions the ``history`` field holds (at most `MAX_HISTORY`)."""

    def __attrs_post_init__(self) -> None:
        """Refuse a table the rules do not seat, and a bad history length.

        Raises:
            TypeError: a count is not an ``int``, or *rules* not a rule set.
            tienlen.errors.InvalidRulesError: *rules* is not played by *players*.
            tienlen.errors.InvalidArgumentError: *history* is negative or above
                `MAX_HISTORY`.
        """
        self.rules.deal_size(self.players)
        check_count(self.history, "history", 0, MAX_HISTORY)

    @cached_property
    def fields(self) -> Mapping[str, int]:
        """Each field's name and size, in order."""
        n = self.players
        return {
            "hand": _CARDS,
            "played": n * _CARDS,
            "unseen": _CARDS,
            "card_counts": n,
            "top": _CARDS,
            "top_kind": len(_KINDS),
            "top_player": n,
            "to_act": n,
            "passed": n,
            "out": n,
            "flags": len(_FLAGS),
            "rules": len(rule_features(self.rules)),
            "history": self.history * self.action_size,
        }

    @property
    def action_size(self) -> int:
        """The size of one ``history`` entry: who (one-hot), the cards, a pass.

        Example:
            >>> from tienlen import CLASSIC
            >>> layout = ObservationLayout(CLASSIC, players=4, history=2)
            >>> layout.action_size, layout.fields["history"] == 2 * layout.action_size
            (57, True)
        """
        return self.players + _CARDS + 1

    @cached_property
    def slices(self) -> Mapping[str, slice]:
        """Each field's slice of the flat observation."""
        found: dict[str, slice] = {}
        start = 0
        for name, size in self.fields.items():
            found[name] = slice(start, start + size)
            start += size
        return found

    @property
    def size(self) -> int:
        """The length of the flat observation.

        Example:
            >>> from tienlen import CLASSIC
            >>> layout = ObservationLayout(CLASSIC, players=4, history=2)
            >>> layout.size, layout.size == sum(layout.fields.values())
            (532, True)
        """
        return sum(self.fields.values())

    @property
    def high(self) -> float:
        """An upper bound of every value (for a `Box`): the largest hand.

        Example:
            >>> from tienlen import CLASSIC, CLASSIC_TWO_DECKS
            >>> tables = [(CLASSIC, 2), (CLASSIC, 4), (CLASSIC_TWO_DECKS, 8)]
            >>> [ObservationLayout(rules, players).high for rules, players in tables]
            [52.0, 26.0, 17.0]
        """
        return float(max(17, 2 * _CARDS // max(self.players, 1)))

    def split(self, flat: Array) -> dict[str, Array]:
        """The structured form of a flat observation: one array per field (views).

        Example:
            >>> import numpy as np
            >>> from tienlen import CLASSIC
            >>> layout = ObservationLayout(CLASSIC, players=4, history=2)
            >>> fields = layout.split(np.arange(layout.size, dtype=np.float32))
            >>> list(fields) == list(layout.fields), fields["card_counts"].tolist()
            (True, [312.0, 313.0, 314.0, 315.0])
        """
        return {name: flat[part] for name, part in self.slices.items()}


def card_vector(mask: int) -> Array:
    """The 52 card counts of a multiset mask (see `tienlen.Hand.mask`).

    Example:
        >>> from tienlen import Hand
        >>> card_vector(Hand.parse("3s 2h").mask).nonzero()[0].tolist()
        [0, 51]
    """
    vector: Array = card_matrix([mask])[0]
    return vector


class ObservationEncoder:
    """Observations of one game, its last actions kept up to date once per action.

    Call `reset` with the first state, `update` (or `record`) with every action
    applied, and `encode` (flat), `structured` or `perfect` for any seat at any time.
    It keeps the cards dealt and the last actions; everything else (the cards held,
    the top, who acts, passes, who is out, the flags) is read off the state as ints,
    so no step rebuilds the game's history and one observation costs a few array
    copies. Actions that were not recorded (bots' moves, say) are missing from the
    ``history`` field only.

    Example:
        >>> from tienlen import POKER, GameState
        >>> state = GameState.deal(POKER, 4, seed=3)
        >>> encoder = ObservationEncoder(POKER, 4, history=2)
        >>> encoder.reset(state)
        >>> action = state.legal_actions()[0]
        >>> state = state.apply(action)
        >>> encoder.update(action)
        >>> fields = encoder.structured(state, action.player)
        >>> int(fields["hand"].sum()), int(fields["played"][:52].sum()) == len(action.cards)
        (12, True)
    """

    def __init__(self, rules: BaseRules | str, players: int, history: int = 8) -> None:
        self.layout: Final = ObservationLayout(as_rules(rules), players, history)
        """The field layout."""
        layout = self.layout
        self._template = np.zeros(layout.size, dtype=np.float32)
        self._template[layout.slices["rules"]] = rule_features(layout.rules)
        self._starts = {name: part.start for name, part in layout.slices.items()}
        self._decks = layout.rules.deal_size(players)[0]
        self._recent: list[tuple[int, int]] = []
        """The last actions, latest first: who, and the cards as a mask (0: a pass)."""
        self._dealt: list[npt.NDArray[np.uint8]] | None = None
        """Per observer, each seat's cards dealt in play direction from it (card counts)."""
        self._dealt_union = 0
        """The cards dealt to anyone (one deck: `_fill` reads unseen cards off it)."""
        self._orders: list[list[int]] = []
        """Per observer, the seats in play direction from it."""
        self._relative: list[list[int]] = []
        """Per observer, each seat's place in its `_orders` row."""

    def reset(self, state: GameState) -> None:
        """Start from *state* (usually a deal; any state works).

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.deal(CLASSIC, 4, seed=1)
            >>> state = state.apply(state.legal_actions()[0])
            >>> encoder = ObservationEncoder(CLASSIC, 4)
            >>> encoder.reset(state)  # a state in play: its history fills the record
            >>> [str(action) for action in encoder.recent]
            ['3s']
        """
        check_table(self.layout, state)
        self._recent = [
            (action.player, action.cards.mask if type(action) is Play else 0)
            for action in state.history[::-1][: self.layout.history]
        ]
        players = self.layout.players
        self._orders = [[seat, *state.seats_after(seat)] for seat in range(players)]
        dealt = [hand.mask for hand in state.dealt]
        rows = card_rows(*halves(dealt))
        self._dealt = [rows[order] for order in self._orders]
        self._dealt_union = (
            0 if self._decks > 1 else functools.reduce(operator.or_, dealt)
        )
        self._relative = [
            [order.index(seat) for seat in range(players)] for order in self._orders
        ]

    def update(self, action: Action) -> None:
        """Record *action*, just applied to the game (see `record`).

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.deal(CLASSIC, 4, seed=1)
            >>> encoder = ObservationEncoder(CLASSIC, 4)
            >>> encoder.reset(state)
            >>> action = state.legal_actions()[0]
            >>> state = state.apply(action)
            >>> encoder.update(action)
            >>> int(encoder.structured(state, action.player)["hand"].sum())
            12
        """
        _check_action(action, self.layout.players)
        self.record(action.player, action.cards.mask if type(action) is Play else 0)

    def record(self, seat: int, mask: int) -> None:
        """Record that *seat* just played the cards of *mask* (0: passed): `update` on ints.

        Raises:
            ValueError: *seat* is not at the table, or *mask* is no card mask.
            TypeError: either is not an ``int``.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.deal(CLASSIC, 4, seed=1)
            >>> encoder = ObservationEncoder(CLASSIC, 4)
            >>> encoder.reset(state)
            >>> mask = state.legal_actions().masks[0]  # seat 2 leads the 3s
            >>> state = state.apply_mask(mask)
            >>> encoder.record(2, mask)
            >>> [str(action) for action in encoder.recent]
            ['3s']
        """
        if type(seat) is not int or not 0 <= seat < self.layout.players:
            seat = check_count(seat, "a seat", 0, self.layout.players - 1)
        if type(mask) is not int or not 0 <= mask < _ALL_MASKS:
            _check_masks([mask])
        recent = self._recent
        recent.insert(0, (seat, mask))
        if len(recent) > self.layout.history:
            recent.pop()

    @property
    def recent(self) -> list[Action]:
        """The last actions, latest first (at most ``layout.history``), built on reading.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.deal(CLASSIC, 4, seed=1)
            >>> encoder = ObservationEncoder(CLASSIC, 4, history=1)
            >>> encoder.reset(state)
            >>> for _ in range(2):
            ...     action = state.legal_actions()[0]
            ...     state = state.apply(action)
            ...     encoder.update(action)
            >>> encoder.recent == [state.history[-1]]
            True
        """
        return [
            Play(player=seat, cards=Hand(mask)) if mask else Pass(player=seat)
            for seat, mask in self._recent
        ]

    def _check(self, state: GameState, seat: int) -> list[npt.NDArray[np.uint8]]:
        """The cards dealt; refuse a state of another table, a bad seat, no `reset`."""
        dealt = self._dealt
        if dealt is None:
            msg = "reset() the encoder before encoding"
            raise InvalidArgumentError(msg)
        layout = self.layout
        if (
            type(state) is not GameState
            or state.rules is not layout.rules
            or state.players != layout.players
        ):
            check_table(layout, state)
        if type(seat) is not int or not 0 <= seat < layout.players:
            check_count(seat, "a seat", 0, layout.players - 1)
        return dealt

    def _fill(
        self, state: GameState, seat: int, dealt: list[npt.NDArray[np.uint8]]
    ) -> tuple[Array, npt.NDArray[np.uint8]]:
        """The flat observation (a new array), and each seat's cards held from *seat* on."""
        layout, at, out = self.layout, self._starts, self._template.copy()
        players = layout.players
        held = state.hand_masks
        top = state.top_mask
        recent = self._recent
        order = self._orders[seat]
        masks = [held[other] for other in order]
        union = self._dealt_union
        if union:  # one deck: unseen = neither held by the observer nor played
            mine = masks[0]
            masks.append(
                _ONE_DECK & ~(mine | union & ~functools.reduce(operator.or_, held))
            )
        masks.append(top)
        masks.extend(mask for _, mask in recent)
        rows = card_rows(*halves(masks))
        hands = rows[:players]
        played = dealt[seat] - hands
        out[: at["played"]] = rows[0]  # the hand comes first
        out[at["played"] : at["unseen"]] = played.ravel()
        if union:
            out[at["unseen"] : at["card_counts"]] = rows[players]
        else:
            unseen = self._decks - rows[0] - played.sum(axis=0, dtype=np.uint8)
            out[at["unseen"] : at["card_counts"]] = unseen
        out[at["card_counts"] : at["top"]] = [
            mask.bit_count() for mask in masks[:players]
        ]
        after = players + 1 if union else players
        out[at["top"] : at["top_kind"]] = rows[after]
        self._fill_public(out, state, seat, rows[after + 1 :])
        return out, hands

    def _fill_public(
        self, out: Array, state: GameState, seat: int, past_cards: npt.NDArray[np.uint8]
    ) -> None:
        """The one-hot fields, passes, who is out, the flags and the history."""
        at, players, top = self._starts, self.layout.players, state.top_mask
        order, place = self._orders[seat], self._relative[seat]
        to_act, last = state.to_act, state.last_player
        if top:
            out[at["top_kind"] + _KIND_PLACE[class_key(top) >> 12]] = 1
            if last is not None:
                out[at["top_player"] + place[last]] = 1
        if to_act is not None:
            out[at["to_act"] + place[to_act]] = 1
        locked, gone = state.locked, state.out
        for i, other in enumerate(order):
            if locked >> other & 1:
                out[at["passed"] + i] = 1
            if gone >> other & 1:
                out[at["out"] + i] = 1
        flags = at["flags"]
        if seat == to_act:
            out[flags] = state.required != 0
            out[flags + 1] = state.may_decline
            out[flags + 2] = bool(top) and to_act == last
        elif to_act is not None:
            out[flags + 3] = 1
        recent = self._recent
        if recent:
            width = self.layout.action_size
            start = at["history"]
            past = out[start : start + len(recent) * width].reshape(-1, width)
            past[:, players:-1] = past_cards
            for i, (other, mask) in enumerate(recent):
                past[i, place[other]] = 1
                if not mask:
                    past[i, -1] = 1

    def encode(self, state: GameState, seat: int) -> Array:
        """The flat observation of *state* for *seat* (a new float32 array).

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.deal(CLASSIC, 4, seed=1)
            >>> encoder = ObservationEncoder(CLASSIC, 4, history=2)
            >>> encoder.reset(state)
            >>> flat = encoder.encode(state, 0)
            >>> hand = flat[encoder.layout.slices["hand"]]
            >>> flat.shape, flat.dtype.name, int(hand.sum())
            ((532,), 'float32', 13)
        """
        return self._fill(state, seat, self._check(state, seat))[0]

    def structured(self, state: GameState, seat: int) -> dict[str, Array]:
        """The observation of *state* for *seat*, one array per field.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.deal(CLASSIC, 4, seed=1)
            >>> encoder = ObservationEncoder(CLASSIC, 4)
            >>> encoder.reset(state)
            >>> fields = encoder.structured(state, 1)
            >>> fields["card_counts"].tolist(), fields["to_act"].tolist()
            ([13.0, 13.0, 13.0, 13.0], [0.0, 1.0, 0.0, 0.0])
        """
        return self.layout.split(self.encode(state, seat))

    def perfect(self, state: GameState, seat: int) -> Array:
        """`encode` followed by every seat's hand, from *seat* on (centralised critics).

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.deal(CLASSIC, 4, seed=1)
            >>> encoder = ObservationEncoder(CLASSIC, 4)
            >>> encoder.reset(state)
            >>> row, size = encoder.perfect(state, 0), encoder.layout.size
            >>> same = (row[:size] == encoder.encode(state, 0)).all()
            >>> len(row) == size + 4 * 52, bool(same)
            (True, True)
            >>> row[size:].reshape(4, 52).sum(axis=1).tolist()
            [13.0, 13.0, 13.0, 13.0]
        """
        observed, hands = self._fill(state, seat, self._check(state, seat))
        return np.concatenate([observed, hands.ravel()])


class BatchEncoder:
    """Flat observations of many unrelated states at once, each from its own record.

    Each item is ``(state, seat, recent actions latest first)``; the rows come back in
    one ``(len(items), layout.size)`` float32 array. Every call loads the items into a
    fresh `ObservationBatch`; to follow games action by action, keep one of those.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> states = [GameState.deal(CLASSIC, 4, seed=seed) for seed in range(3)]
        >>> encoder = BatchEncoder(ObservationLayout(CLASSIC, 4))
        >>> encoder.encode([(state, state.to_act, ()) for state in states]).shape[0]
        3
    """

    def __init__(self, layout: ObservationLayout) -> None:
        _check_layout(layout)
        self.layout: Final = layout

    def check(self, state: GameState) -> None:
        """Refuse a state of another table than the layout's.

        Raises:
            ValueError: *state* has another rule set or table size.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> encoder = BatchEncoder(ObservationLayout(CLASSIC, 4))
            >>> encoder.check(GameState.deal(CLASSIC, 4, seed=1))  # accepted
            >>> encoder.check(GameState.deal(CLASSIC, 3, seed=1))
            Traceback (most recent call last):
            ...
            tienlen.errors.InvalidArgumentError: this encoder is for 4 players of classic
        """
        check_table(self.layout, state)

    def _loaded(
        self, items: Sequence[tuple[GameState, int, Sequence[Action]]]
    ) -> tuple[ObservationBatch, list[GameState], list[int]]:
        as_sequence(items, "items")
        if not items:
            msg = "no items to encode"
            raise InvalidArgumentError(msg)
        for item in items:
            if type(item) is not tuple or len(item) != 3:
                msg = f"an item is a (state, seat, recent actions) tuple, not {item!r:.60}"
                raise TypeError(msg)
        batch = ObservationBatch(self.layout, len(items))
        states = [state for state, _, _ in items]
        batch.load(range(len(items)), states, [recent for _, _, recent in items])
        return batch, states, [seat for _, seat, _ in items]

    def encode(self, items: Sequence[tuple[GameState, int, Sequence[Action]]]) -> Array:
        """One flat observation per ``(state, seat, recent actions)`` item.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> layout = ObservationLayout(CLASSIC, 4, history=2)
            >>> state = GameState.deal(CLASSIC, 4, seed=1)
            >>> play = state.legal_actions()[0]
            >>> after = state.apply(play)
            >>> items = [(after, 3, [play]), (state, 0, ())]
            >>> rows = BatchEncoder(layout).encode(items)
            >>> history = rows[:, layout.slices["history"]]  # who and the 3s; nothing
            >>> rows.shape, history.sum(axis=1).tolist()
            ((2, 532), [2.0, 0.0])
        """
        batch, states, seats = self._loaded(items)
        return batch.encode(states, seats)

    def perfect(
        self, items: Sequence[tuple[GameState, int, Sequence[Action]]]
    ) -> Array:
        """`encode` followed by every seat's hand, from the observing seat on.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> layout = ObservationLayout(CLASSIC, 4)
            >>> state = GameState.deal(CLASSIC, 4, seed=1)
            >>> rows = BatchEncoder(layout).perfect([(state, 0, ()), (state, 2, ())])
            >>> rows.shape == (2, layout.size + 4 * 52), int(rows[0, layout.size:].sum())
            (True, 52)
        """
        batch, states, seats = self._loaded(items)
        return batch.perfect(states, seats)


class ObservationBatch:
    """The public record of *games* games of one table as arrays, updated once per action.

    Row *g* belongs to game *g*: each seat's cards held and cards played, in seat
    order, and the game's last actions (a ring of ``layout.history`` slots). `load` fills rows from states; `record` takes
    the actions just applied, one per game, in one numpy pass over the batch (the
    actor's cards and the ring); `encode` assembles, for every game, the flat
    observation of one seat, relative to that seat, into one array it reuses. The rest
    of an observation (the top, who acts, passes, who is out, the flags) is a few ints
    read off each state.

    `tienlen.rl.vector.VectorEnv` keeps one for all its games, `ObservationEncoder`
    one for a single game; the tests hold both equal to `reference_observation` at
    every step of random games.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> states = [GameState.deal(CLASSIC, 4, seed=seed) for seed in (1, 2)]
        >>> batch = ObservationBatch(ObservationLayout(CLASSIC, 4), games=2)
        >>> batch.load([0, 1], states)
        >>> play = states[0].legal_actions()[0]
        >>> states[0] = states[0].apply(play)
        >>> batch.record([0], [play.player], [play.cards.mask])
        >>> rows = batch.encode(states, [state.to_act for state in states])
        >>> rows.shape == (2, batch.layout.size), int(rows[0, 52:260].sum())
        (True, 1)
    """

    def __init__(self, layout: ObservationLayout, games: int) -> None:
        _check_layout(layout)
        check_count(games, "games", 1, 1 << 20)
        self.layout: Final = layout
        """The field layout."""
        self.games: Final = games
        """How many games (rows)."""
        players, k = layout.players, layout.history
        slots = max(k, 1)
        self._decks = layout.rules.deal_size(players)[0]
        self._seats = np.zeros((games * players, 2, _CARDS), dtype=np.uint8)
        """Per (game, seat), row ``game * players + seat``: the cards held, played."""
        self._ring = np.zeros((games * slots, _CARDS + 1), dtype=np.uint8)
        """Per (game, slot), row ``game * slots + slot``: an action's cards, a pass."""
        self._ring_seat = np.zeros(games * slots, dtype=np.int64)
        self._done = np.zeros(games, dtype=np.int64)
        """Per game, how many actions the ring took (the next goes to slot done % k)."""
        self._out = np.zeros((games, layout.size), dtype=np.float32)
        self._out[:, layout.slices["rules"]] = rule_features(layout.rules)
        self._rows = np.arange(games)
        self._seat_rows = self._rows[:, None] * players
        self._steps = np.arange(k)
        self._ring_rows = self._rows[:, None] * slots
        self._positions = np.arange(max(players, len(_KINDS)))
        self._orders: npt.NDArray[np.int64] | None = None
        self._relative: npt.NDArray[np.int64] | None = None

    def load(
        self,
        rows: Sequence[int],
        states: Sequence[GameState],
        recent: Sequence[Sequence[Action]] | None = None,
    ) -> None:
        """Fill *rows* from *states* (a deal, or any state), one state per row.

        Args:
            rows: Distinct game rows.
            states: Their states.
            recent: Each state's last actions, latest first (default: its history).

        Raises:
            ValueError: a state of another table than the layout's, rows that are not
                distinct rows of the batch, or lengths that differ.
            TypeError: an argument of the wrong type.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> states = [GameState.deal(CLASSIC, 4, seed=seed) for seed in (1, 2)]
            >>> batch = ObservationBatch(ObservationLayout(CLASSIC, 4), games=2)
            >>> batch.load([1, 0], states)  # game 1 holds seed 1, game 0 seed 2
            >>> hand = batch.encode(states[::-1], [0, 0])[0, :52]
            >>> hand.nonzero()[0].tolist() == [card.index for card in states[1].hand(0)]
            True
        """
        rows = self._check_rows(rows)
        as_sequence(states, "states")
        if len(states) != len(rows):
            msg = f"{len(rows)} rows for {len(states)} states"
            raise InvalidArgumentError(msg)
        for state in states:
            check_table(self.layout, state)
        if recent is not None:
            as_sequence(recent, "recent")
            if len(recent) != len(rows):
                msg = f"{len(rows)} rows for {len(recent)} lists of recent actions"
                raise InvalidArgumentError(msg)
            for actions in recent:
                as_sequence(actions, "actions")
                for action in actions[: self.layout.history]:
                    _check_action(action, self.layout.players)
        self._load(rows, states, recent)

    def _load(
        self,
        rows: Sequence[int],
        states: Sequence[GameState],
        recent: Sequence[Sequence[Action]] | None = None,
    ) -> None:
        """`load`, its arguments known good (the environments' hot path)."""
        layout = self.layout
        players, k = layout.players, layout.history
        if not states:
            return
        if self._orders is None:
            self._set_orders(states[0])
        masks = [hand.mask for state in states for hand in state.dealt]
        masks += [mask for state in states for mask in state.hand_masks]
        low, high = halves(masks)
        dealt, held = card_rows(low, high).reshape(2, len(states), players, _CARDS)
        played = dealt - held
        at = np.asarray(rows, dtype=np.int64)
        seat_rows = (at[:, None] * players + np.arange(players)).ravel()
        self._seats[seat_rows, 0] = held.reshape(-1, _CARDS)
        self._seats[seat_rows, 1] = played.reshape(-1, _CARDS)
        if not k:
            return
        self._ring[(at[:, None] * k + self._steps).ravel()] = 0
        if recent is None:
            recent = [state.history[::-1][:k] for state in states]
        slots: list[int] = []
        seats: list[int] = []
        plays: list[int] = []
        for row, actions in zip(rows, recent, strict=True):
            latest = actions[:k]
            for i, action in enumerate(latest):  # the i-th latest sits i slots back
                slots.append(row * k + len(latest) - 1 - i)
                seats.append(action.player)
                plays.append(action.cards.mask if type(action) is Play else 0)
            self._done[row] = len(latest)
        if slots:
            low, high = halves(plays)
            self._ring[slots, :_CARDS] = card_rows(low, high)
            self._ring[slots, _CARDS] = low == 0
            self._ring_seat[slots] = seats

    def record(
        self, rows: Sequence[int], seats: Sequence[int], masks: Sequence[int]
    ) -> None:
        """The actions just applied: in game ``rows[i]``, seat ``seats[i]`` played ``masks[i]``.

        *rows* are distinct; a mask of 0 is a pass.

        Raises:
            ValueError: rows that are not distinct rows of the batch, a seat not at
                the table, a value that is no card mask, or lengths that differ.
            TypeError: an argument of the wrong type.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> layout = ObservationLayout(CLASSIC, 4, history=2)
            >>> state = GameState.deal(CLASSIC, 4, seed=1)
            >>> batch = ObservationBatch(layout, games=1)
            >>> batch.load([0], [state])
            >>> play = state.legal_actions()[0]  # seat 2 leads the 3s
            >>> state = state.apply(play)
            >>> batch.record([0], [play.player], [play.cards.mask])
            >>> state = state.apply(state.legal_actions()[-1])  # seat 3 passes
            >>> batch.record([0], [3], [0])
            >>> history = layout.split(batch.encode([state], [0])[0])["history"]
            >>> history.reshape(2, -1)[:, -1].tolist()  # latest first: the pass, the 3s
            [1.0, 0.0]
        """
        rows = self._check_rows(rows)
        seats = self._check_seats(seats, len(rows))
        as_sequence(masks, "masks")
        if len(masks) != len(rows):
            msg = f"{len(rows)} rows for {len(masks)} masks"
            raise InvalidArgumentError(msg)
        _check_masks(masks)
        self._record(rows, seats, masks)

    def _record(
        self, rows: Sequence[int], seats: Sequence[int], masks: Sequence[int]
    ) -> None:
        """`record`, its arguments known good (the environments' hot path)."""
        if not len(rows):
            return
        low, high = halves(masks)
        cards = card_rows(low, high)
        at = np.asarray(rows, dtype=np.int64)
        who = np.asarray(seats, dtype=np.int64)
        seat_rows = at * self.layout.players + who
        self._seats[seat_rows, 0] -= cards
        self._seats[seat_rows, 1] += cards
        k = self.layout.history
        if k:
            done = self._done[at]
            ring_rows = at * k + done % k
            self._ring[ring_rows, :_CARDS] = cards
            self._ring[ring_rows, _CARDS] = low == 0
            self._ring_seat[ring_rows] = who
            self._done[at] = done + 1

    def _set_orders(self, state: GameState) -> None:
        players = self.layout.players
        orders = np.array(
            [[seat, *state.seats_after(seat)] for seat in range(players)],
            dtype=np.int64,
        )
        relative = np.empty_like(orders)
        relative[np.arange(players)[:, None], orders] = np.arange(players)
        self._orders, self._relative = orders, relative

    def encode(self, states: Sequence[GameState], seats: Sequence[int]) -> Array:
        """The flat observation of ``seats[g]`` in ``states[g]``, for every game *g*.

        *states* are the games' current states, one per row, as `load` and `record`
        followed them. The array returned is reused by the next call: copy it to keep it.

        Raises:
            ValueError: not one state of the table and one seat per game, or no game
                loaded yet.
            TypeError: an argument of the wrong type.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> states = [GameState.deal(CLASSIC, 4, seed=seed) for seed in (1, 2)]
            >>> batch = ObservationBatch(ObservationLayout(CLASSIC, 4), games=2)
            >>> batch.load([0, 1], states)
            >>> rows = batch.encode(states, [0, 3])
            >>> rows.shape == (2, batch.layout.size), rows[:, :52].sum(axis=1).tolist()
            (True, [13.0, 13.0])
            >>> batch.encode(states, [1, 1]) is rows  # the same array, rewritten
            True
        """
        self._check(states, seats)
        return self._encode(states, seats)

    def _check(self, states: Sequence[GameState], seats: Sequence[int]) -> None:
        """Refuse anything but one state of the table and one seat per game, loaded."""
        if self._orders is None:
            msg = "load() the games before encoding them"
            raise InvalidArgumentError(msg)
        as_sequence(states, "states")
        if len(states) != self.games:
            msg = f"expected {self.games} states, got {len(states)}"
            raise InvalidArgumentError(msg)
        rules, players = self.layout.rules, self.layout.players
        for state in states:  # the common case in one cheap pass, then in full
            if (
                type(state) is not GameState
                or state.rules is not rules
                or state.players != players
            ):
                check_table(self.layout, state)
        self._check_seats(seats, self.games)

    def _check_rows(self, rows: object) -> list[int]:
        """*rows*, checked to be distinct rows of the batch."""
        given = as_sequence(rows, "rows")
        if (  # the common case, in one pass
            type(given) is list
            and set(map(type, given)) <= _INT
            and (not given or (min(given) >= 0 and max(given) < self.games))
        ):
            checked: list[int] = given
        else:
            checked = [check_count(row, "a row", 0, self.games - 1) for row in given]
        if len(set(checked)) != len(checked):
            msg = f"rows must be distinct: {checked!r:.60}"
            raise InvalidArgumentError(msg)
        return checked

    def _check_seats(self, seats: object, count: int) -> Sequence[int]:
        """*seats*, checked to be *count* seats of the table."""
        given = as_sequence(seats, "seats")
        if len(given) != count:
            msg = f"expected {count} seats, got {len(given)}"
            raise InvalidArgumentError(msg)
        most = self.layout.players - 1
        if (  # the common case, in one pass
            (type(given) is list or type(given) is tuple)
            and set(map(type, given)) <= _INT
            and (not given or (min(given) >= 0 and max(given) <= most))
        ):
            return given
        return [check_count(seat, "a seat", 0, most) for seat in given]

    def _encode(self, states: Sequence[GameState], seats: Sequence[int]) -> Array:
        """`encode`, its arguments known good (the environments' hot path)."""
        layout, out = self.layout, self._out
        parts = layout.slices
        orders, relative = self._orders, self._relative
        if orders is None or relative is None:  # pragma: no cover - `_check` refuses
            msg = "load() the games before encoding them"
            raise InvalidArgumentError(msg)
        n, players = self.games, layout.players
        seat = np.asarray(seats, dtype=np.int64)
        order = orders[seat]  # (n, players): the seats in play direction from each
        cards = self._seats.take((self._seat_rows + order).ravel(), axis=0)
        cards = cards.reshape(n, players, 2, _CARDS)
        hand = cards[:, 0, 0]
        out[:, parts["hand"]] = hand
        out[:, parts["played"]] = cards[:, :, 1].reshape(n, -1)
        played_all = cards[:, :, 1].sum(axis=1, dtype=np.uint8)
        out[:, parts["unseen"]] = self._decks - hand - played_all
        out[:, parts["card_counts"]] = cards[:, :, 0].sum(axis=2, dtype=np.uint8)
        tops = halves([s.top_mask for s in states])
        out[:, parts["top"]] = card_rows(*tops)
        to_act, last, locked, gone, required, declines = _scalars(states)
        held_top = tops[0] != 0
        kinds = _KIND_POSITION[np.maximum(class_key_array(*tops), 0) >> 12]
        acting_now = to_act >= 0
        for name, column in (  # one-hot fields, −1 for none
            ("top_kind", np.where(held_top, kinds, -1)),
            ("top_player", np.where(held_top, relative[seat, last], -1)),
            ("to_act", np.where(acting_now, relative[seat, to_act], -1)),
        ):
            part = parts[name]
            out[:, part] = column[:, None] == self._positions[: part.stop - part.start]
        out[:, parts["passed"]] = locked[:, None] >> order & 1
        out[:, parts["out"]] = gone[:, None] >> order & 1
        acting = seat == to_act
        flags = out[:, parts["flags"]]
        flags[:, 0] = acting & (required != 0)
        flags[:, 1] = acting & (declines != 0)
        flags[:, 2] = acting & held_top & (to_act == last)
        flags[:, 3] = acting_now & ~acting
        if layout.history:
            self._history(out[:, parts["history"]], seat, relative)
        return out

    def _history(
        self, part: Array, seat: npt.NDArray[np.int64], relative: npt.NDArray[np.int64]
    ) -> None:
        """The ``history`` field: the last actions, latest first, from the ring."""
        n, k, players = self.games, self.layout.history, self.layout.players
        history = part.reshape(n, k, -1)  # a view: the field is contiguous per row
        ring_rows = (
            self._ring_rows + (self._done[:, None] - 1 - self._steps) % k
        ).ravel()
        history[:, :, players:] = self._ring.take(ring_rows, axis=0).reshape(n, k, -1)
        who = relative[seat[:, None], self._ring_seat[ring_rows].reshape(n, k)]
        who = np.where(self._steps < self._done[:, None], who, -1)
        history[:, :, :players] = who[:, :, None] == self._positions[:players]

    def perfect(self, states: Sequence[GameState], seats: Sequence[int]) -> Array:
        """`encode` followed by every seat's hand, from the observing seat on (a new array).

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.deal(CLASSIC, 4, seed=1)
            >>> batch = ObservationBatch(ObservationLayout(CLASSIC, 4), games=1)
            >>> batch.load([0], [state])
            >>> size = batch.layout.size
            >>> hands = batch.perfect([state], [2])[0, size:].reshape(4, 52)
            >>> hands[0].nonzero()[0].tolist() == [card.index for card in state.hand(2)]
            True
        """
        self._check(states, seats)
        return self._perfect(states, seats)

    def _perfect(self, states: Sequence[GameState], seats: Sequence[int]) -> Array:
        """`perfect`, its arguments known good."""
        observed = self._encode(states, seats)
        orders = self._orders
        if orders is None:  # pragma: no cover - `_encode` refuses
            msg = "load() the games before encoding them"
            raise InvalidArgumentError(msg)
        order = orders[np.asarray(seats, dtype=np.int64)]
        hands = self._seats[(self._seat_rows + order).ravel(), 0]
        return np.concatenate([observed, hands.reshape(self.games, -1)], axis=1)


def _scalars(states: Sequence[GameState]) -> npt.NDArray[np.int64]:
    """Per state: to act, last player (−1 for none), passed, out, required, may decline."""
    values = [
        (
            -1 if s.to_act is None else s.to_act,
            -1 if s.last_player is None else s.last_player,
            s.locked,
            s.out,
            s.required != 0,
            s.may_decline,
        )
        for s in states
    ]
    return np.array(values, dtype=np.int64).reshape(len(states), 6).T


def card_matrix(masks: Sequence[int]) -> Array:
    """The 52 card counts of each multiset mask, one row each (see `card_vector`).

    Example:
        >>> from tienlen import Hand
        >>> card_matrix([Hand.parse("3s").mask, 0]).sum(axis=1).tolist()
        [1.0, 0.0]
    """
    as_sequence(masks, "masks")
    _check_masks(masks)
    return card_rows(*halves(masks)).astype(np.float32)


def _check_masks(masks: Sequence[object]) -> None:
    """Refuse anything but card masks: ints from 0 below ``2**104`` (two decks)."""
    if set(map(type, masks)) <= _INT:  # the common case, in one pass
        ints = cast("Sequence[int]", masks)
        if not ints or (min(ints) >= 0 and max(ints) < _ALL_MASKS):
            return
    for mask in masks:
        if type(mask) is not int:
            msg = f"a card mask is an int, not {type(mask).__name__}"
            raise TypeError(msg)
        if not 0 <= mask < _ALL_MASKS:
            msg = f"{mask!r} is no card mask"
            raise InvalidArgumentError(msg)


def _check_layout(layout: object) -> None:
    """Refuse anything but an `ObservationLayout`."""
    if not isinstance(layout, ObservationLayout):
        msg = f"expected an ObservationLayout, got {type(layout).__name__}"
        raise TypeError(msg)


def _check_action(action: object, players: int) -> None:
    """Refuse anything but a `tienlen.Play` or `tienlen.Pass` of a seat of the table."""
    if type(action) is not Play and type(action) is not Pass:
        msg = f"expected a Play or a Pass, not {type(action).__name__}"
        raise TypeError(msg)
    check_count(action.player, "a player", 0, players - 1)


_KIND_POSITION: Final = np.zeros(1 + max(kind.value for kind in _KINDS), dtype=np.int64)
"""A kind's position in `_KINDS` by its value (a class key's top bits)."""
_KIND_POSITION[[kind.value for kind in _KINDS]] = np.arange(len(_KINDS))
_KIND_PLACE: Final[list[int]] = _KIND_POSITION.tolist()


def check_table(layout: ObservationLayout, state: GameState) -> None:
    """Refuse a state of another table than *layout*'s.

    Raises:
        ValueError: *state* has another rule set or table size.
        TypeError: *layout* is not an `ObservationLayout`, *state* not a
            `tienlen.GameState`.

    Example:
        >>> from tienlen import CLASSIC, POKER, GameState
        >>> check_table(ObservationLayout(POKER, 4), GameState.deal(CLASSIC, 4, seed=1))
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidArgumentError: this encoder is for 4 players of poker
    """
    _check_layout(layout)
    given: object = state  # checked at run time: callers may pass anything
    if type(given) is not GameState:
        msg = f"expected a GameState, not {type(given).__name__}"
        raise TypeError(msg)
    rules = state.rules
    if state.players != layout.players or (
        rules is not layout.rules and rules != layout.rules
    ):
        msg = f"this encoder is for {layout.players} players of {layout.rules.name}"
        raise InvalidArgumentError(msg)


def reference_observation(
    observation: Observation, history: int = 8
) -> dict[str, Array]:
    """The structured observation built the slow, obvious way from an `Observation`.

    Only the seat's own view is used, card by card: the tests hold
    `ObservationEncoder.structured` equal to it at every step of random games.

    Example:
        >>> from tienlen import CLASSIC, GameState, Observation
        >>> state = GameState.deal(CLASSIC, 4, seed=1)
        >>> slow = reference_observation(Observation.of(state, 0))
        >>> encoder = ObservationEncoder(CLASSIC, 4)
        >>> encoder.reset(state)
        >>> fast = encoder.structured(state, 0)
        >>> all((fast[name] == slow[name]).all() for name in slow)
        True
    """
    given: object = observation  # checked at run time: callers may pass anything
    if type(given) is not Observation:
        msg = f"expected an Observation, not {type(given).__name__}"
        raise TypeError(msg)
    check_count(history, "history", 0, MAX_HISTORY)
    rules = observation.rules
    if not isinstance(rules, BaseRules):
        msg = f"the observations need a BaseRules rule set, not {type(rules).__name__}"
        raise TypeError(msg)
    n = observation.players
    step = 1 if observation.direction is Direction.CLOCKWISE else -1
    order = [(observation.seat + step * i) % n for i in range(n)]
    decks = rules.deal_size(n)[0]

    def cards(hand: object) -> Array:
        vector = np.zeros(_CARDS, dtype=np.float32)
        for card in hand:  # type: ignore[attr-defined]
            vector[card.index] += 1
        return vector

    def one_hot(size: int, index: int | None) -> Array:
        vector = np.zeros(size, dtype=np.float32)
        if index is not None:
            vector[index] = 1
        return vector

    played = np.zeros((n, _CARDS), dtype=np.float32)
    for action in observation.history:
        if isinstance(action, Play):
            played[order.index(action.player)] += cards(action.cards)
    hand = cards(observation.hand)
    top = observation.top
    acting = observation.to_act == observation.seat
    width = n + _CARDS + 1
    past = np.zeros((history, width), dtype=np.float32)
    for row, action in enumerate(
        reversed(observation.history[-history:] if history else ())
    ):
        past[row, order.index(action.player)] = 1
        if isinstance(action, Play):
            past[row, n : n + _CARDS] = cards(action.cards)
        else:
            past[row, -1] = 1
    return {
        "hand": hand,
        "played": played.ravel(),
        "unseen": decks - hand - played.sum(axis=0),
        "card_counts": np.array(
            [observation.card_counts[p] for p in order], dtype=np.float32
        ),
        "top": cards(top) if top is not None else np.zeros(_CARDS, dtype=np.float32),
        "top_kind": one_hot(len(_KINDS), _KINDS.index(top.kind) if top else None),
        "top_player": one_hot(
            n,
            order.index(observation.last_player)
            if observation.last_player is not None and top is not None
            else None,
        ),
        "to_act": one_hot(
            n, None if observation.to_act is None else order.index(observation.to_act)
        ),
        "passed": np.array([p in observation.passed for p in order], dtype=np.float32),
        "out": np.array([p in observation.out for p in order], dtype=np.float32),
        "flags": np.array(
            [
                acting and observation.must_include is not None,
                observation.may_decline,
                observation.may_continue,
                observation.jumping_in,
            ],
            dtype=np.float32,
        ),
        "rules": rule_features(rules),
        "history": past.ravel(),
    }


def action_feature(action: Action) -> Array:
    """One action as DouZero-style agents score it: its 52 card counts, kind, pass.

    The exact mode beside the action table: per legal action a vector, so an agent
    (RLCard's DMC) scores every exact play rather than a class.

    Example:
        >>> from tienlen import Pass, Play
        >>> feature = action_feature(Play(player=0, cards="7s 7h"))
        >>> feature[:52].nonzero()[0].tolist(), int(feature[52 + 1]), int(feature[-1])
        ([16, 19], 1, 0)
        >>> int(action_feature(Pass(player=0))[-1])
        1
    """
    if type(action) is not Play and type(action) is not Pass:
        msg = f"expected a Play or a Pass, not {type(action).__name__}"
        raise TypeError(msg)
    if type(action) is Play and not is_structure(action.cards.mask):
        msg = f"{str(action)!r} is no combination"
        raise InvalidArgumentError(msg)
    return mask_feature(action.cards.mask if type(action) is Play else 0)


def mask_feature(mask: int) -> Array:
    """`action_feature` of the play whose cards are *mask* (0: a pass), on ints.

    Raises:
        ValueError: *mask* is no combination's cards (nor 0).
        TypeError: *mask* is not an ``int``.

    Example:
        >>> from tienlen import Hand, Play
        >>> mask = Hand.parse("7s 7h").mask
        >>> bool((mask_feature(mask) == action_feature(Play(player=0, cards="7s 7h"))).all())
        True
        >>> int(mask_feature(0)[-1])
        1
    """
    if type(mask) is not int:
        msg = f"a card mask is an int, not {type(mask).__name__}"
        raise TypeError(msg)
    out = np.zeros(ACTION_FEATURES, dtype=np.float32)
    if not mask:
        out[-1] = 1
        return out
    if not is_structure(mask):
        msg = f"{mask!r} is no combination's cards"
        raise InvalidArgumentError(msg)
    out[:_CARDS] = card_vector(mask)
    kind = ComboKind(class_key(mask) >> 12)  # see `ActionClass.key`
    out[_CARDS + _KINDS.index(kind)] = 1
    return out


def action_features(actions: Sequence[Action]) -> Array:
    """`action_feature` of every action, one row each.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> actions = GameState.deal(CLASSIC, 4, seed=1).legal_actions()
        >>> action_features(actions).shape == (len(actions), ACTION_FEATURES)
        True
    """
    as_sequence(actions, "actions")
    if not actions:
        return np.zeros((0, ACTION_FEATURES), dtype=np.float32)
    return np.stack([action_feature(action) for action in actions])


ACTION_FEATURES: Final = _CARDS + len(_KINDS) + 1
"""The length of `action_feature`."""
