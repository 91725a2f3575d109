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

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Final

import attrs
import numpy as np
import numpy.typing as npt

from tienlen.combos import ComboKind
from tienlen.errors import InvalidArgumentError
from tienlen.game import Action, GameState, Play
from tienlen.players import Observation
from tienlen.rl.table import class_key
from tienlen.rules import BaseRules, Direction, GameEnd, Scoring

__all__ = [
    "ACTION_FEATURES",
    "BatchEncoder",
    "ObservationEncoder",
    "ObservationLayout",
    "action_feature",
    "action_features",
    "card_matrix",
    "card_vector",
    "reference_observation",
    "rule_features",
]

Array = npt.NDArray[np.float32]
_CARDS: Final = 52
_LOW_HALF: Final = (1 << _CARDS) - 1
_KINDS: Final = tuple(ComboKind)
_FLAGS: Final = ("must_include", "may_decline", "may_continue", "jumping_in")


def rule_features(rules: BaseRules) -> Array:
    """The rule settings that change play, as numbers (the ``rules`` field).

    Direction, continuation, jump-ins, declining the first lead, 2s in straights and
    in pair runs, the shortest and longest pair runs (over 13), bombs (none, table or
    chain), a game ending at the first out, the scoring (one-hot), the kinds that exist.

    Example:
        >>> from tienlen import CLASSIC, POKER
        >>> rule_features(CLASSIC)[:4].tolist(), rule_features(POKER)[:4].tolist()
        ([1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0])
    """
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

    rules: BaseRules
    """The variant."""
    players: int
    """Seats at the table."""
    history: int = 8
    """How many past actions the ``history`` field holds."""

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
        """The size of one ``history`` entry: who (one-hot), the cards, a pass."""
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
        """The length of the flat observation."""
        return sum(self.fields.values())

    @property
    def high(self) -> float:
        """An upper bound of every value (for a `Box`): the largest hand."""
        return float(max(17, 2 * _CARDS // max(self.players, 1)))

    def split(self, flat: Array) -> dict[str, Array]:
        """The structured form of a flat observation: one array per field (views)."""
        return {name: flat[part] for name, part in self.slices.items()}


def card_vector(mask: int) -> Array:
    """The 52 card counts of a multiset mask (see `tienlen.Hand.mask`).

    Example:
        >>> from tienlen import Hand
        >>> card_vector(Hand.parse("3s 2h").mask).nonzero()[0].tolist()
        [0, 51]
    """
    low = _unpack(mask & _LOW_HALF)
    high = mask >> _CARDS
    return low + _unpack(high) if high else low


def _unpack(mask: int) -> Array:
    raw = np.frombuffer(mask.to_bytes(7, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:_CARDS].astype(np.float32)


class ObservationEncoder:
    """Observations of one game, kept up to date once per action.

    Call `reset` with the first state, `update` with every action applied, and
    `encode` (flat), `structured` or `perfect` for any seat at any time. The encoder
    keeps only the last actions; everything else it reads off the state in constant
    time (cards played are the dealt cards less the hand), so no step rebuilds the
    game's history.
    """

    def __init__(self, rules: BaseRules, players: int, history: int = 8) -> None:
        self.layout: Final = ObservationLayout(rules, players, history)
        """The field layout."""
        self._batch = BatchEncoder(self.layout)
        self._recent: list[Action] = []

    def reset(self, state: GameState) -> None:
        """Start from *state* (usually a deal; any state works)."""
        self._batch.check(state)
        self._recent = list(state.history[::-1][: self.layout.history])

    def update(self, action: Action) -> None:
        """Record *action*, just applied to the game."""
        self._recent.insert(0, action)
        del self._recent[self.layout.history :]

    @property
    def recent(self) -> list[Action]:
        """The last actions, latest first (at most ``layout.history``)."""
        return self._recent

    def encode(self, state: GameState, seat: int) -> Array:
        """The flat observation of *state* for *seat* (a new float32 array)."""
        row: Array = self._batch.encode([(state, seat, self._recent)])[0]
        return row

    def structured(self, state: GameState, seat: int) -> dict[str, Array]:
        """The observation of *state* for *seat*, one array per field."""
        return self.layout.split(self.encode(state, seat))

    def perfect(self, state: GameState, seat: int) -> Array:
        """`encode` followed by every seat's hand, from *seat* on (centralised critics)."""
        row: Array = self._batch.perfect([(state, seat, self._recent)])[0]
        return row


class BatchEncoder:
    """Flat observations of many games at once, assembled with a few numpy operations.

    Each item is ``(state, seat, recent actions latest first)``; the rows come back in
    one ``(len(items), layout.size)`` float32 array. `ObservationEncoder` is one game
    of it; `tienlen.rl.vector.VectorEnv` steps hundreds.
    """

    def __init__(self, layout: ObservationLayout) -> None:
        self.layout: Final = layout
        rules = layout.rules
        self._decks = rules.deal_size(layout.players)[0]
        self._rules_row = rule_features(rules)
        self._orders: list[list[int]] | None = None

    def check(self, state: GameState) -> None:
        """Refuse a state of another table than the layout's."""
        layout = self.layout
        if state.players != layout.players or state.rules != layout.rules:
            msg = f"this encoder is for {layout.players} players of {layout.rules.name}"
            raise InvalidArgumentError(msg)

    def _order(self, state: GameState, seat: int) -> list[int]:
        if self._orders is None:
            self._orders = [
                [s, *state.seats_after(s)] for s in range(self.layout.players)
            ]
        return self._orders[seat]

    def encode(self, items: Sequence[tuple[GameState, int, Sequence[Action]]]) -> Array:
        """One flat observation per ``(state, seat, recent actions)`` item."""
        layout = self.layout
        n, players, k = len(items), layout.players, layout.history
        per_row = players + 2 + k  # hand, played by each seat, top, history
        masks: list[int] = []
        ints = np.zeros((n, 3 + 3 * players + 4 + k), dtype=np.int64)
        ints[:, :3] = -1  # top kind, top player, to act: none
        for row, (state, seat, recent) in enumerate(items):
            order = self._order(state, seat)
            hands = [state.hand(s).mask for s in order]
            masks.append(hands[0])
            one_deck = self._decks == 1
            for s, held in zip(order, hands, strict=True):
                dealt = state.dealt[s].mask
                masks.append(
                    dealt & ~held if one_deck else (state.dealt[s] - state.hand(s)).mask
                )
            top = state.top
            masks.append(top.mask if top is not None else 0)
            line = ints[row]
            if top is not None:
                line[0] = _KIND_INDEX[top.kind]
                line[1] = order.index(state.last_player)  # type: ignore[arg-type]
            to_act = state.to_act
            if to_act is not None:
                line[2] = order.index(to_act)
            base = 3
            for rel, s in enumerate(order):
                line[base + rel] = hands[rel].bit_count()
                line[base + players + rel] = state.locked >> s & 1
                line[base + 2 * players + rel] = state.out >> s & 1
            base += 3 * players
            acting = seat == to_act
            line[base] = acting and state.required != 0
            line[base + 1] = acting and state.may_decline
            line[base + 2] = acting and state.is_continuing
            line[base + 3] = to_act is not None and not acting
            base += 4
            for i in range(k):
                if i < len(recent):
                    action = recent[i]
                    line[base + i] = order.index(action.player)
                    masks.append(action.cards.mask if type(action) is Play else 0)
                else:
                    line[base + i] = -1
                    masks.append(0)
        cards = card_matrix(masks).reshape(n, per_row, _CARDS)
        return self._assemble(cards, ints)

    def _assemble(self, cards: Array, ints: npt.NDArray[np.int64]) -> Array:
        layout = self.layout
        parts = layout.slices
        n, players, k = len(ints), layout.players, layout.history
        out = np.zeros((n, layout.size), dtype=np.float32)
        rows = np.arange(n)
        hand = cards[:, 0]
        played = cards[:, 1 : 1 + players]
        out[:, parts["hand"]] = hand
        out[:, parts["played"]] = played.reshape(n, -1)
        out[:, parts["unseen"]] = self._decks - hand - played.sum(axis=1)
        out[:, parts["top"]] = cards[:, 1 + players]
        for name, column in (("top_kind", 0), ("top_player", 1), ("to_act", 2)):
            present = ints[:, column] >= 0
            out[rows[present], parts[name].start + ints[present, column]] = 1
        base = 3
        for name in ("card_counts", "passed", "out"):
            out[:, parts[name]] = ints[:, base : base + players]
            base += players
        out[:, parts["flags"]] = ints[:, base : base + 4]
        base += 4
        out[:, parts["rules"]] = self._rules_row
        history = np.zeros((n, k, layout.action_size), dtype=np.float32)
        who = ints[:, base : base + k]
        recorded = who >= 0
        env_index, step_index = recorded.nonzero()
        history[env_index, step_index, who[recorded]] = 1
        history[:, :, players:-1] = cards[:, 2 + players :]
        history[:, :, -1] = recorded & (history[:, :, players:-1].sum(axis=2) == 0)
        out[:, parts["history"]] = history.reshape(n, -1)
        return out

    def perfect(
        self, items: Sequence[tuple[GameState, int, Sequence[Action]]]
    ) -> Array:
        """`encode` followed by every seat's hand, from the observing seat on."""
        hands = [
            state.hand(s).mask
            for state, seat, _ in items
            for s in self._order(state, seat)
        ]
        extra = card_matrix(hands).reshape(len(items), -1)
        return np.concatenate([self.encode(items), extra], axis=1)


def card_matrix(masks: Sequence[int]) -> Array:
    """The 52 card counts of each multiset mask, one row each (see `card_vector`).

    Example:
        >>> from tienlen import Hand
        >>> card_matrix([Hand.parse("3s").mask, 0]).sum(axis=1).tolist()
        [1.0, 0.0]
    """
    low = b"".join((mask & _LOW_HALF).to_bytes(7, "little") for mask in masks)
    raw = np.frombuffer(low, dtype=np.uint8).reshape(len(masks), 7)
    bits = np.unpackbits(raw, axis=1, bitorder="little")[:, :_CARDS]
    if any(mask >> _CARDS for mask in masks):
        high = b"".join((mask >> _CARDS).to_bytes(7, "little") for mask in masks)
        raw = np.frombuffer(high, dtype=np.uint8).reshape(len(masks), 7)
        bits = bits + np.unpackbits(raw, axis=1, bitorder="little")[:, :_CARDS]
    return bits.astype(np.float32)


_KIND_INDEX: Final = {kind: i for i, kind in enumerate(_KINDS)}


def reference_observation(
    observation: Observation, history: int = 8
) -> dict[str, Array]:
    """The structured observation built the slow, obvious way from an `Observation`.

    Only the seat's own view is used, card by card: the tests hold
    `ObservationEncoder.structured` equal to it at every step of random games.
    """
    rules = observation.rules
    assert isinstance(rules, BaseRules)
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
    out = np.zeros(ACTION_FEATURES, dtype=np.float32)
    if type(action) is Play:
        out[:_CARDS] = card_vector(action.cards.mask)
        kind = ComboKind(class_key(action.cards.mask) >> 12)  # see `ActionClass.key`
        out[_CARDS + _KINDS.index(kind)] = 1
    else:
        out[-1] = 1
    return out


def action_features(actions: Sequence[Action]) -> Array:
    """`action_feature` of every action, one row each."""
    if not actions:
        return np.zeros((0, ACTION_FEATURES), dtype=np.float32)
    return np.stack([action_feature(action) for action in actions])


ACTION_FEATURES: Final = _CARDS + len(_KINDS) + 1
"""The length of `action_feature`."""
