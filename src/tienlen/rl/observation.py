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
from tienlen.game import Action, GameState, Play
from tienlen.players import Observation
from tienlen.rl.table import class_key
from tienlen.rules import BaseRules, Direction, GameEnd, Scoring

__all__ = [
    "ACTION_FEATURES",
    "ObservationEncoder",
    "ObservationLayout",
    "action_feature",
    "action_features",
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
    `encode` (flat), `structured` or `perfect` for any seat at any time.
    """

    def __init__(self, rules: BaseRules, players: int, history: int = 8) -> None:
        self.layout: Final = ObservationLayout(rules, players, history)
        """The field layout."""
        self._rules = rules
        self._players = players
        self._decks = rules.deal_size(players)[0]
        self._rule_row = rule_features(rules)
        self._played = np.zeros((players, _CARDS), dtype=np.float32)
        self._history = np.zeros((history, self.layout.action_size), dtype=np.float32)
        self._counts = np.zeros(players, dtype=np.float32)
        self._order: list[list[int]] = []

    def reset(self, state: GameState) -> None:
        """Start from *state* (usually a deal; any state works, its history replayed)."""
        players = self._players
        if state.players != players or state.rules != self._rules:
            msg = f"this encoder is for {players} players of {self._rules.name}"
            raise ValueError(msg)
        self._order = [[seat, *state.seats_after(seat)] for seat in range(players)]
        self._played[:] = 0
        self._history[:] = 0
        for seat in range(players):
            self._counts[seat] = len(state.dealt[seat])
        for action in state.history:
            self.update(action)

    def update(self, action: Action) -> None:
        """Record *action*, just applied to the game."""
        history = self._history
        history[1:] = history[:-1]
        history[0] = 0
        history[0, action.player] = 1
        if type(action) is Play:
            cards = card_vector(action.cards.mask)
            self._played[action.player] += cards
            self._counts[action.player] -= cards.sum()
            history[0, self._players : -1] = cards
        else:
            history[0, -1] = 1

    def encode(self, state: GameState, seat: int) -> Array:
        """The flat observation of *state* for *seat* (a new float32 array)."""
        out = np.zeros(self.layout.size, dtype=np.float32)
        self._fill(out, state, seat)
        return out

    def structured(self, state: GameState, seat: int) -> dict[str, Array]:
        """The observation of *state* for *seat*, one array per field."""
        return self.layout.split(self.encode(state, seat))

    def perfect(self, state: GameState, seat: int) -> Array:
        """`encode` followed by every seat's hand, from *seat* on (centralised critics)."""
        hands = [card_vector(state.hand(s).mask) for s in self._order[seat]]
        return np.concatenate([self.encode(state, seat), *hands])

    def _fill(self, out: Array, state: GameState, seat: int) -> None:
        parts = self.layout.slices
        order = self._order[seat]
        n = self._players
        hand = card_vector(state.hand(seat).mask)
        out[parts["hand"]] = hand
        played = self._played[order]
        out[parts["played"]] = played.ravel()
        out[parts["unseen"]] = self._decks - hand - played.sum(axis=0)
        out[parts["card_counts"]] = self._counts[order]
        base = parts["top"].start
        top = state.top
        if top is not None:
            out[parts["top"]] = card_vector(top.mask)
            out[parts["top_kind"].start + _KINDS.index(top.kind)] = 1
            assert state.last_player is not None
            out[parts["top_player"].start + order.index(state.last_player)] = 1
        to_act = state.to_act
        if to_act is not None:
            out[parts["to_act"].start + order.index(to_act)] = 1
        base = parts["passed"].start
        out_base = parts["out"].start
        for rel, player in enumerate(order):
            out[base + rel] = state.locked >> player & 1
            out[out_base + rel] = state.out >> player & 1
        acting = seat == to_act
        flags = parts["flags"].start
        out[flags] = acting and state.required != 0
        out[flags + 1] = acting and state.may_decline
        out[flags + 2] = acting and state.is_continuing
        out[flags + 3] = to_act is not None and not acting
        out[parts["rules"]] = self._rule_row
        history = self._history.copy()
        history[:, :n] = history[:, order]
        out[parts["history"]] = history.ravel()


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
    for row, action in enumerate(reversed(observation.history[-history:] if history else ())):
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
            n, order.index(observation.last_player) if top is not None else None
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

