"""`evaluate` and `EvaluationStats`: duplicate deals under every seat rotation (issue 12 §3).

Every deal is played once per rotation of the players round the table and counted per
player; the confidence interval is over deals; batches are seeded from
``(seed, batch index)`` so any executor, and any split into batches, gives the same
stats.
"""

from __future__ import annotations

import math
import multiprocessing
import pickle
import random
import statistics
from concurrent.futures import ThreadPoolExecutor

import pytest

from tienlen import (
    CLASSIC,
    POKER,
    VIETCONG,
    EvaluationStats,
    GameState,
    GreedyPlayer,
    InvalidRulesError,
    Player,
    RandomPlayer,
    evaluate,
    play_game,
)

MIXED: list[Player] = [GreedyPlayer(), RandomPlayer(), GreedyPlayer(danger=4)]


def by_hand(
    players: list[Player], deals: int, seed: str, *, rotate: bool = True
) -> tuple[list[list[int]], list[list[int]]]:
    """The documented seeding, replayed here: per deal and player, the scores and places."""
    n = len(players)
    scores = []
    places = []
    rng = random.Random(f"tienlen-eval:{seed}:0")
    for deal in range(deals):
        start = GameState.deal(VIETCONG, n, rng)
        deal_scores = [0] * n
        deal_places = [0] * n
        for rotation in range(n if rotate else 1):
            seated = [players[(s + rotation) % n] for s in range(n)]
            result = play_game(
                start, seated, random.Random(f"tienlen-eval:{seed}:0:{deal}:{rotation}")
            ).result
            assert result is not None
            for seat, score in enumerate(result.scores):
                deal_scores[(seat + rotation) % n] += score
            deal_places[(result.finish_order[0] + rotation) % n] += 1
        scores.append(deal_scores)
        places.append(deal_places)
    return scores, places


@pytest.mark.parametrize("rotate", [True, False], ids=["rotated", "fixed-seats"])
def test_every_deal_is_played_under_every_rotation(rotate: bool) -> None:
    """Duplicate deals: player k holds seat (k - r) % n in rotation r; scores follow the player."""
    stats = evaluate(MIXED, 5, rotate, rules=VIETCONG, seed="dup", batch_size=5)
    scores, firsts = by_hand(MIXED, 5, "dup", rotate=rotate)
    assert stats.rotations == (3 if rotate else 1)
    assert stats.games == 5 * stats.rotations
    for player in range(3):
        assert stats.score_sums[player] == sum(deal[player] for deal in scores)
        assert stats.deal_score_squares[player] == sum(d[player] ** 2 for d in scores)
        assert stats.places[0][player] == sum(deal[player] for deal in firsts)
    assert [sum(row) for row in stats.places] == [stats.games] * 3


def test_identical_players_come_out_identical() -> None:
    """Rotation cancels seat and deal luck: equal deterministic players score equally."""
    stats = evaluate([GreedyPlayer()] * 4, 12, rules=CLASSIC, seed=7)
    assert len(set(stats.score_sums)) == 1
    assert all(abs(rating) < 1e-9 for rating in stats.ratings)
    assert all(len(set(row)) == 1 for row in stats.places)


def test_the_interval_is_over_deals() -> None:
    """The 95% interval: mean ± 1.96 standard errors of the per-deal mean scores."""
    stats = evaluate(MIXED, 10, rules=VIETCONG, seed="ci", batch_size=10)
    scores, _ = by_hand(MIXED, 10, "ci")
    for player in range(3):
        values = [deal[player] / 3 for deal in scores]
        mean = statistics.fmean(values)
        half = 1.959963984540054 * statistics.stdev(values) / math.sqrt(10)
        low, high = stats.confidence_interval(player)
        assert mean == pytest.approx(stats.mean_scores[player])
        assert (low, high) == pytest.approx((mean - half, mean + half))


def test_halves_merge_into_the_whole() -> None:
    """Mergeable like `SimulationStats`: consecutive batch ranges add up exactly."""
    whole = evaluate(MIXED, 6, rules=POKER, seed=3, batch_size=2)
    first = evaluate(MIXED, 4, rules=POKER, seed=3, batch_size=2)
    rest = evaluate(MIXED, 2, rules=POKER, seed=3, batch_size=2, first_batch=2)
    assert first + rest == whole
    assert whole + EvaluationStats.empty(3, 3) == whole


def test_any_executor_gives_the_serial_result() -> None:
    """Batches depend only on the arguments: threads and processes agree with serial runs."""
    serial = evaluate(MIXED, 6, rules=CLASSIC, seed=1, batch_size=2)
    with ThreadPoolExecutor(2) as threads:
        threaded = evaluate(
            MIXED, 6, rules=CLASSIC, seed=1, batch_size=2, executor=threads
        )
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pooled = evaluate(MIXED, 6, rules=CLASSIC, seed=1, batch_size=2, executor=pool)
    assert serial == threaded == pooled
    assert pickle.loads(pickle.dumps(serial)) == serial  # noqa: S301 - our own bytes


def test_the_stronger_player_rates_higher() -> None:
    """Ratings come from who finished ahead of whom: opposite for two players."""
    stats = evaluate([GreedyPlayer(), RandomPlayer()], 20, rules=CLASSIC, seed=2)
    assert stats.ratings[0] > 100
    assert stats.ratings[0] == pytest.approx(-stats.ratings[1])
    total = stats.ahead[0][1] + stats.ahead[1][0]
    assert total == stats.games


def test_no_deals_give_empty_stats() -> None:
    """Zero deals: nothing counted, means and intervals not a number."""
    stats = evaluate(MIXED, 0, rules=CLASSIC, seed=1)
    assert stats == EvaluationStats.empty(3, 3, rules=CLASSIC)
    assert all(math.isnan(x) for x in stats.mean_scores)
    assert all(math.isnan(x) for x in stats.ratings)
    assert all(math.isnan(x) for x in stats.confidence_interval(0))
    assert "0 deals" in stats.summary()


def test_bad_arguments_are_refused() -> None:
    """COMMON: bad counts are ValueErrors; a table the rules refuse, InvalidRulesError."""
    with pytest.raises(ValueError, match="deals"):
        evaluate(MIXED, -1, rules=CLASSIC, seed=1)
    with pytest.raises(ValueError, match="batch_size"):
        evaluate(MIXED, 1, rules=CLASSIC, seed=1, batch_size=0)
    with pytest.raises(ValueError, match="first_batch"):
        evaluate(MIXED, 1, rules=CLASSIC, seed=1, first_batch=-2)
    with pytest.raises(InvalidRulesError):
        evaluate([GreedyPlayer()] * 5, 1, rules=POKER, seed=1)
    with pytest.raises(TypeError, match="player 2 is not a Player"):
        evaluate([GreedyPlayer(), GreedyPlayer(), None], 0, rules=CLASSIC, seed=1)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="cannot merge"):
        EvaluationStats.empty(3, 3).merge(EvaluationStats.empty(3, 1))
    with pytest.raises(TypeError):
        EvaluationStats.empty(3, 3) + 1
