"""Observations (issue 12 §1): the incremental encoder equals the slow reference encoder."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numpy")
import numpy as np

from tests.rl.walk import TABLES, decider, table_id, walk
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    POKER,
    Action,
    BaseRules,
    GameState,
    Observation,
    Pass,
    Play,
)
from tienlen.rl.observation import (
    ACTION_FEATURES,
    BatchEncoder,
    ObservationBatch,
    ObservationEncoder,
    ObservationLayout,
    action_feature,
    action_features,
    reference_observation,
)
from tienlen.rl.turns import Turns


def reference_flat(turns: Turns, seat: int) -> np.ndarray[Any, Any]:
    """The reference encoder's fields for *seat*, concatenated in layout order."""
    observation = Observation.of(turns.state, seat)
    fields = reference_observation(observation, turns.encoder.layout.history)
    return np.concatenate(list(fields.values()))


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_incremental_equals_reference_at_every_step(
    table: tuple[BaseRules, int],
) -> None:
    """Contract.

    At every decision of random games, for every seat, the encoder kept up to date once
    per action gives exactly the reference encoder's numbers (the RLCard "last action"
    bug class), field by field.
    """
    rules, players = table
    steps = 0
    for turns in walk(rules, players, seed=players, games=3):
        for seat in range(players):
            fast = turns.encoder.structured(turns.state, seat)
            slow = reference_observation(Observation.of(turns.state, seat))
            assert fast.keys() == slow.keys()
            for name in fast:
                assert np.array_equal(fast[name], slow[name]), (name, turns.state)
        steps += 1
    assert steps > 30


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_batch_encoder_equals_reference_for_many_games(
    table: tuple[BaseRules, int],
) -> None:
    """Contract: one batch of many games' rows equals the reference row by row."""
    rules, players = table
    layout = ObservationLayout(rules, players)
    items: list[tuple[GameState, int, list[Action]]] = []
    expected = []
    for turns in walk(rules, players, seed=7, games=2):
        items.append((turns.state, decider(turns), list(turns.encoder.recent)))
        expected.append(reference_flat(turns, decider(turns)))
    rows = BatchEncoder(layout).encode(items)
    assert rows.shape == (len(items), layout.size)
    assert np.array_equal(rows, np.stack(expected))


def test_fields_are_relative_to_the_seat_in_play_direction() -> None:
    """RULES §6.1.

    Poker runs counterclockwise, so the seat after 0 is 3; the played cards of seat 3
    sit in the second ``played`` block of seat 0's observation.
    """
    turns = next(walk(POKER, 4, seed=1, games=1))
    while turns.decider is not None:
        turns.act(turns.legal_indices()[-1])
        history = turns.state.history
        if history and isinstance(history[-1], Play) and history[-1].player == 3:
            break
    fields = turns.encoder.structured(turns.state, 0)
    played = fields["played"].reshape(4, 52)
    assert played[1].sum() > 0
    assert played[1].sum() == 13 - turns.state.hand(3).__len__()


def test_flat_observation_fits_its_layout_and_bounds() -> None:
    """Contract: the flat vector has the layout's size and stays within [0, high]."""
    encoder = ObservationEncoder(CLASSIC_TWO_DECKS, 6)
    for turns in walk(CLASSIC_TWO_DECKS, 6, seed=3, games=1):
        encoder.reset(turns.state)
        flat = encoder.encode(turns.state, decider(turns))
        assert flat.shape == (encoder.layout.size,)
        assert flat.min() >= 0
        assert flat.max() <= encoder.layout.high


def test_perfect_view_appends_every_hand() -> None:
    """Contract.

    The perfect-information view is the observation plus all hands, from the observing
    seat on, and holds every dealt card that is not played.
    """
    turns = next(walk(CLASSIC, 4, seed=2, games=1))
    seat = decider(turns)
    view = turns.encoder.perfect(turns.state, seat)
    size = turns.encoder.layout.size
    assert np.array_equal(view[:size], turns.encoder.encode(turns.state, seat))
    hands = view[size:].reshape(4, 52)
    assert hands[0].sum() == len(turns.state.hand(seat))
    assert hands.sum() == 52


def test_encoder_refuses_another_table() -> None:
    """Bad input: an encoder for four classic players refuses a Poker state."""
    turns = next(walk(POKER, 4, seed=1, games=1))
    with pytest.raises(ValueError, match="4 players of classic"):
        ObservationEncoder(CLASSIC, 4).reset(turns.state)


def test_action_features_name_cards_kind_and_pass() -> None:
    """Issue 12 §1 exact mode: a feature per action, its 52 card bits, kind, pass."""
    features = action_features([Play(player=0, cards="3s 4s 5h"), Pass(player=0)])
    assert features.shape == (2, ACTION_FEATURES)
    assert features[0, :52].nonzero()[0].tolist() == [0, 4, 11]
    assert features[0, 52 + 4] == 1  # STRAIGHT is the fifth kind
    assert features[1, -1] == 1
    assert features[1, :-1].sum() == 0
    assert action_features([]).shape == (0, ACTION_FEATURES)
    assert np.array_equal(action_feature(Pass(player=2)), features[1])


def test_observation_batch_refuses_bad_sizes() -> None:
    """Bad input: a batch needs a layout and a positive number of games."""
    layout = ObservationLayout(CLASSIC, 4)
    with pytest.raises(ValueError, match="games must be at least 1"):
        ObservationBatch(layout, 0)
    with pytest.raises(TypeError):
        ObservationBatch("classic", 2)  # type: ignore[arg-type]


def test_observation_batch_follows_many_games_action_by_action() -> None:
    """Contract.

    One batch, loaded once and recorded once per action, equals the reference encoder
    for every game at every step (games of different lengths, jump-in polls kept).
    """
    rules, players = POKER, 3
    games = [
        [(turns.state, decider(turns)) for turns in walk(rules, players, seed, games=1)]
        for seed in range(4)
    ]
    batch = ObservationBatch(ObservationLayout(rules, players), len(games))
    previous = [game[0][0] for game in games]
    batch.load(range(len(games)), previous)
    for step in range(max(len(game) for game in games)):
        now = [game[min(step, len(game) - 1)] for game in games]
        states = [state for state, _ in now]
        moved = [g for g, state in enumerate(states) if state is not previous[g]]
        played = [states[g].history[-1] for g in moved]
        batch.record(
            moved,
            [action.player for action in played],
            [action.cards.mask if isinstance(action, Play) else 0 for action in played],
        )
        previous = states
        rows = batch.encode(states, [seat for _, seat in now])
        for row, (state, seat) in zip(rows, now, strict=True):
            fields = reference_observation(Observation.of(state, seat))
            assert np.array_equal(row, np.concatenate(list(fields.values())))
