"""`best_actions`: values over the seat's information, deterministic, honest."""

from __future__ import annotations

import random

import pytest

from tienlen import (
    CLASSIC,
    POKER,
    GameState,
    GreedyPlayer,
    InvalidArgumentError,
    Observation,
    Pass,
    sample_world,
)
from tienlen.analysis import best_actions, solve
from tienlen.analysis.values import Estimate, perfect_value, value_actions


def greedy_until(state: GameState, stop: int) -> GameState:
    """*state* played on by Greedy until *stop* actions have been played."""
    bot = GreedyPlayer()
    rng = random.Random(0)
    while len(state.history) < stop and not state.is_over:
        seat = state.to_act
        assert seat is not None
        own = [a for a in state.legal_actions() if a.player == seat]
        state = state.apply(bot.act(Observation.of(state, seat), own, rng))
    return state


def test_deterministic_under_a_seed_and_sorted() -> None:
    """The same seed gives the same values; the best comes first."""
    state = greedy_until(GameState.deal(CLASSIC, players=4, seed=11), 6)
    seat = state.to_act
    assert seat is not None
    first = best_actions(state, seat, k=3, budget=6, seed=4)
    assert first == best_actions(state, seat, k=3, budget=6, seed=4)
    means = [value.score.mean for value in first]
    assert means == sorted(means, reverse=True)
    for value in first:
        assert value.score.low <= value.score.mean <= value.score.high
        assert 0 <= value.first.low <= value.first.mean <= value.first.high <= 1
        assert len(value.samples) == 6


def test_values_see_only_the_seats_information() -> None:
    """Two positions the seat cannot tell apart get the same sampled values."""
    state = greedy_until(GameState.deal(CLASSIC, players=4, seed=12), 5)
    seat = state.to_act
    assert seat is not None
    other = sample_world(Observation.of(state, seat), random.Random(3))
    assert other.hands != state.hands
    mine = best_actions(state, seat, budget=5, perfect=False)
    theirs = best_actions(other, seat, budget=5, perfect=False)
    assert [(v.action, v.score, v.first) for v in mine] == [
        (v.action, v.score, v.first) for v in theirs
    ]


def test_perfect_column_is_the_solvers_near_the_end() -> None:
    """With few cards left the perfect column is `solve`'s exact value."""
    state = GameState.deal(CLASSIC, players=4, seed=7)
    while sum(len(hand) for hand in state.hands) > 9:
        state = greedy_until(state, len(state.history) + 1)
    assert not state.is_over
    seat = state.to_act
    assert seat is not None
    for value in best_actions(state, seat, k=5, budget=2):
        assert value.perfect_exact
        after = state.apply(value.action)
        exact = after.result.scores if after.result else solve(after).scores
        assert value.perfect == exact[seat]


def test_poker_jump_in_can_be_declined() -> None:
    """A seat offered a jump-in values declining it too (its `Pass`)."""
    rng = random.Random(5)
    for seed in range(400):
        state = GameState.deal(POKER, players=4, seed=seed)
        while not state.is_over:
            jumpers = {a.player for a in state.legal_actions()} - {state.to_act}
            if jumpers:
                seat = min(jumpers)
                values = value_actions(state, seat, budget=2)
                assert Pass(player=seat) in [value.action for value in values]
                return
            state = state.apply(rng.choice(list(state.legal_actions())))
    pytest.fail("no jump-in met")


def test_bad_input_is_refused() -> None:
    """Over, not a seat with a decision, a budget of 0, an action not the seat's."""
    state = GameState.deal(CLASSIC, players=4, seed=1)
    seat = state.to_act
    assert seat is not None
    other = (seat + 1) % 4
    with pytest.raises(InvalidArgumentError, match="no decision"):
        best_actions(state, other)
    with pytest.raises(InvalidArgumentError, match="budget"):
        best_actions(state, seat, budget=0)
    with pytest.raises(InvalidArgumentError, match="k must"):
        best_actions(state, seat, k=0)
    with pytest.raises(InvalidArgumentError, match="no player 9"):
        best_actions(state, 9)
    with pytest.raises(InvalidArgumentError, match="not an action"):
        value_actions(state, seat, include=[Pass(player=other)])
    over = GameState.from_hands(["3s", "5d 6d"], CLASSIC).play("3s")
    with pytest.raises(InvalidArgumentError, match="game is over"):
        best_actions(over, 0)


def test_confidence_intervals() -> None:
    """The normal interval of a mean and the Wilson interval of a chance."""
    assert Estimate.of_scores([2]) == Estimate(2.0, 2.0, 2.0)
    wide = Estimate.of_scores([1, -3] * 8)
    assert wide.low < -1 < wide.high
    assert wide.half_width == pytest.approx(1.96 * 2 / 4 * (16 / 15) ** 0.5, rel=1e-3)
    sure = Estimate.of_chance(10, 10)
    assert sure.mean == 1.0
    assert sure.high == 1.0
    assert 0.6 < sure.low < 0.75


def test_intervals_cover_at_their_stated_rate() -> None:
    """Simulated: 95% intervals of 64 stake scores and of a chance cover about 95%."""
    rng = random.Random(37)
    trials = 2000
    means = chances = 0
    for _ in range(trials):
        scores = [1 if rng.random() < 0.75 else -3 for _ in range(64)]  # mean 0
        estimate = Estimate.of_scores(scores)
        means += estimate.low <= 0 <= estimate.high
        hits = sum(rng.random() < 0.2 for _ in range(64))
        chance = Estimate.of_chance(hits, 64)
        chances += chance.low <= 0.2 <= chance.high
    assert 0.93 <= means / trials <= 0.97
    assert 0.93 <= chances / trials <= 0.97


def test_a_declined_jump_in_is_never_called_exact() -> None:
    """The solver would offer the declined jump-in again: a rollout, not exact."""
    hands = ["3s 2h", "4s 4c 5s 5c 6s 6c 7s 7c", "8d"]
    state = GameState.from_hands(hands, POKER, first_game=False, leader=0).play("2h", 0)
    jump_in = next(a for a in state.legal_actions() if a.player == 1)
    assert perfect_value(state, 1, jump_in)[1]
    assert not perfect_value(state, 1, Pass(player=1))[1]
