"""The analysis's 95% intervals cover the true value at their stated rate (issue 37).

Checked by simulation against a known truth: the score interval on the scores the
analysis itself draws, and the chance interval exactly, by the binomial law.
`benchmarks/coverage_analysis.py` measures more positions.
"""

from __future__ import annotations

import math
import random

import pytest

from tienlen import CLASSIC, GameState, GreedyPlayer, Observation
from tienlen.analysis.values import Estimate, value_actions

RATE = 0.95


def tolerance(trials: int) -> float:
    """Three standard errors of a 95% rate measured in *trials* trials."""
    return 3 * math.sqrt(RATE * (1 - RATE) / trials)


def midgame(seed: int, cards: int = 28) -> GameState:
    """A four-player classic deal played by Greedy until *cards* cards are in hand."""
    state = GameState.deal(CLASSIC, players=4, seed=seed)
    rng = random.Random(seed)
    while sum(len(hand) for hand in state.hands) > cards:
        seat = state.to_act
        assert seat is not None
        own = [a for a in state.legal_actions() if a.player == seat]
        state = state.apply(GreedyPlayer().act(Observation.of(state, seat), own, rng))
    return state


def greedy_value(state: GameState, budget: int, seed: int) -> Estimate:
    """The score estimate of the Greedy candidate of the player to act."""
    seat = state.to_act
    assert seat is not None
    return value_actions(state, seat, budget=budget, max_candidates=1, seed=seed)[
        0
    ].score


def resampled_coverage(state: GameState, n: int, trials: int = 2000) -> float:
    """How often the score interval of *n* scores holds the mean of a position's scores.

    The scores are 600 play-outs of the position's Greedy candidate; the intervals are
    of *n* of them drawn with replacement, so the true mean is known exactly.
    """
    seat = state.to_act
    assert seat is not None
    scores = value_actions(state, seat, budget=600, max_candidates=1, seed=9)[0].samples
    truth = sum(scores) / len(scores)
    rng = random.Random(1)
    covered = 0
    for _ in range(trials):
        estimate = Estimate.of_scores(rng.choices(scores, k=n))
        covered += estimate.low <= truth <= estimate.high
    return covered / trials


def test_score_interval_covers_where_outcomes_are_balanced() -> None:
    """Where the seat wins a third of its play-outs, 95% of the intervals hold the mean."""
    state = midgame(101)  # classic scores are -3 or +1 here: +1 in 35% of play-outs
    assert abs(resampled_coverage(state, 64) - RATE) <= tolerance(2000)


@pytest.mark.xfail(
    strict=True,
    reason="the normal interval under-covers a rare outcome (docs/analysis.md)",
)
def test_score_interval_covers_a_rare_outcome() -> None:
    """Where the seat wins 97% of its play-outs, the interval should still cover 95%."""
    state = midgame(106, cards=36)  # +1 in 97% of play-outs: 82% covered at 64
    assert abs(resampled_coverage(state, 64) - RATE) <= tolerance(2000)


@pytest.mark.parametrize("n", [16, 64])
def test_chance_interval_covers_on_average(n: int) -> None:
    """Wilson's interval, its exact coverage averaged over chances 0.01 to 0.99."""
    coverage = []
    for percent in range(1, 100):
        p = percent / 100
        coverage.append(
            sum(
                math.comb(n, k) * p**k * (1 - p) ** (n - k)
                for k in range(n + 1)
                if Estimate.of_chance(k, n).low <= p <= Estimate.of_chance(k, n).high
            )
        )
    assert abs(sum(coverage) / len(coverage) - RATE) <= 0.01
    assert sum(c >= 0.92 for c in coverage) >= 0.9 * len(coverage)


@pytest.mark.slow
def test_analysis_intervals_cover_over_independent_seeds() -> None:
    """`value_actions` run on independent seeds: its intervals hold a large run's mean."""
    state = midgame(101)
    seat = state.to_act
    assert seat is not None
    truth = value_actions(state, seat, budget=6000, max_candidates=1, seed=10**6)[0]
    runs = 150
    covered = 0
    for seed in range(runs):
        value = value_actions(state, seat, budget=64, max_candidates=1, seed=seed)[0]
        covered += value.score.low <= truth.score.mean <= value.score.high
    assert abs(covered / runs - RATE) <= tolerance(runs)
