"""`simulate` and `SimulationStats`: reproducible on any executor, mergeable, sane.

Batches are seeded from ``(seed, batch index)`` (PERFORMANCE.md §6), so serial runs,
`multiprocessing.Pool` and `concurrent.futures.ProcessPoolExecutor` give identical
stats, and two halves merge into the whole.
"""

from __future__ import annotations

import functools
import math
import multiprocessing
import multiprocessing.pool
import pickle
import random
import statistics
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar, assert_type

import attrs
import pytest

from tienlen import (
    CLASSIC,
    KENNETH_LO,
    POKER,
    RULESETS,
    VIETCONG,
    BaseRules,
    GameState,
    GreedyPlayer,
    InstantWin,
    InvalidArgumentError,
    InvalidRulesError,
    MapExecutor,
    Player,
    RandomPlayer,
    SimulationStats,
    simulate,
)
from tienlen.records import GameRecord

PRESETS = list(RULESETS.values())
PRESET_IDS = [rules.name for rules in PRESETS]

MIXED: list[Player] = [
    GreedyPlayer(),
    RandomPlayer(),
    GreedyPlayer(danger=3),
    RandomPlayer(),
]
GREEDY_VS_RANDOM: list[Player] = [
    GreedyPlayer(),
    RandomPlayer(),
    RandomPlayer(),
    RandomPlayer(),
]

_S = TypeVar("_S")
_T = TypeVar("_T")


class CountingExecutor:
    """A serial executor that counts its tasks (any object with ``map`` will do)."""

    def __init__(self) -> None:
        self.tasks = 0

    def map(self, fn: Callable[[_S], _T], iterable: Iterable[_S], /) -> Iterator[_T]:
        """Apply *fn* here, in order."""
        for item in iterable:
            self.tasks += 1
            yield fn(item)


# -- reproducibility --------------------------------------------------------------------


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
def test_serial_and_process_pools_agree(rules: BaseRules) -> None:
    """PERFORMANCE.md §6: the executor never changes the result, records included."""
    run = functools.partial(
        simulate,
        100,
        rules=rules,
        players=MIXED,
        seed=11,
        batch_size=25,
        record_games=True,
    )
    serial = run()
    with multiprocessing.Pool(2) as pool:
        pooled = run(executor=pool)
    with ProcessPoolExecutor(2) as executor:
        futures = run(executor=executor)
    assert serial == pooled == futures
    assert len(serial.records) == 100


def test_any_object_with_map_is_an_executor() -> None:
    """An executor gets one task per batch and the result is the serial one."""
    executor = CountingExecutor()
    _: MapExecutor = executor
    stats = simulate(
        25, rules=VIETCONG, players=MIXED, seed=3, batch_size=10, executor=executor
    )
    assert executor.tasks == 3
    assert stats == simulate(25, rules=VIETCONG, players=MIXED, seed=3, batch_size=10)


class ChunkingExecutor(CountingExecutor):
    """A serial executor whose ``map`` takes a chunksize, as `multiprocessing.Pool`'s does."""

    def __init__(self) -> None:
        super().__init__()
        self.chunksizes: list[int | None] = []

    def map(
        self,
        fn: Callable[[_S], _T],
        iterable: Iterable[_S],
        chunksize: int | None = None,
    ) -> Iterator[_T]:
        """Record the chunksize asked for, then apply *fn* here, in order."""
        self.chunksizes.append(chunksize)
        return super().map(fn, iterable)


def test_one_batch_per_task_where_map_takes_a_chunksize() -> None:
    """PERFORMANCE.md §6: batches go one per task, so the last ones spread over workers."""
    executor = ChunkingExecutor()
    stats = simulate(
        25, rules=CLASSIC, players=MIXED, seed=3, batch_size=10, executor=executor
    )
    assert executor.chunksizes == [1]
    assert executor.tasks == 3
    assert stats == simulate(25, rules=CLASSIC, players=MIXED, seed=3, batch_size=10)


def test_seeds_decide_the_games() -> None:
    """The same seed repeats the simulation; another seed gives other games."""
    first = simulate(30, rules=CLASSIC, players=MIXED, seed=5, record_games=True)
    assert first == simulate(
        30, rules=CLASSIC, players=MIXED, seed=5, record_games=True
    )
    other = simulate(30, rules=CLASSIC, players=MIXED, seed="5", record_games=True)
    # The seed enters the batch seed as text; records keep only an int seed.
    assert [r.seed for r in first.records] == [5] * 30
    assert [r.seed for r in other.records] == [None] * 30
    unseeded = [attrs.evolve(r, seed=None) for r in first.records]
    assert attrs.evolve(other, records=()) == attrs.evolve(first, records=())
    assert list(other.records) == unseeded
    assert (
        simulate(30, rules=CLASSIC, players=MIXED, seed=6, record_games=True) != first
    )


def test_batches_are_seeded_by_index() -> None:
    """Batch i is dealt from random.Random(f"tienlen-sim:{seed}:{i}")."""
    stats = simulate(
        3, rules=CLASSIC, players=MIXED, seed=8, batch_size=2, record_games=True
    )
    assert [(r.seed, r.batch, r.game) for r in stats.records] == [
        (8, 0, 0),
        (8, 0, 1),
        (8, 1, 0),
    ]
    rng = random.Random("tienlen-sim:8:1")
    dealt = GameState.deal(CLASSIC, 4, rng)
    assert stats.records[2].hands == dealt.hands


# -- merging ------------------------------------------------------------------------------


def test_two_halves_merge_into_the_whole() -> None:
    """simulate(n) == simulate(n/2) + simulate(n/2 starting at the next batch)."""
    run = functools.partial(
        simulate, rules=POKER, players=MIXED, seed=17, batch_size=25, record_games=True
    )
    whole = run(100)
    first = run(50)
    second = run(50, first_batch=2)
    assert first + second == whole
    assert first.merge(second) == whole
    assert first.games + second.games == whole.games


def test_empty_stats_are_neutral() -> None:
    """Merging with no games changes nothing, on either side."""
    stats = simulate(20, rules=KENNETH_LO, players=MIXED[:3], seed=1)
    empty = SimulationStats.empty(3)
    assert stats + empty == stats
    assert empty + stats == stats
    assert simulate(0, rules=KENNETH_LO, players=MIXED[:3], seed=1) == empty


def test_merge_is_associative() -> None:
    """(a + b) + c == a + (b + c)."""
    a, b, c = (simulate(10, rules=CLASSIC, players=MIXED, seed=s) for s in range(3))
    assert (a + b) + c == a + (b + c)


def test_stats_of_different_tables_do_not_merge() -> None:
    """Stats for 3 and 4 seats cannot be added; other types are not stats."""
    with pytest.raises(ValueError, match="cannot merge stats of 4 and 3 seats"):
        SimulationStats.empty(4).merge(SimulationStats.empty(3))
    with pytest.raises(TypeError):
        _ = SimulationStats.empty(4) + 1


def test_stats_pickle() -> None:
    """Stats travel back from worker processes."""
    stats = simulate(10, rules=POKER, players=MIXED, seed=2, record_games=True)
    assert pickle.loads(pickle.dumps(stats)) == stats  # noqa: S301 - our own bytes


# -- greedy beats random ----------------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
def test_greedy_beats_random_players(rules: BaseRules) -> None:
    """GreedyPlayer against three random players wins far more than its 1/4 share.

    Measured with this seed over 300 games: win rates 0.76-0.81 in every variant
    (random seats 0.05-0.10), and a mean score well above every random seat's.
    """
    stats = simulate(
        300, rules=rules, players=GREEDY_VS_RANDOM, seed=2024, batch_size=100
    )
    assert stats.win_rates[0] > 0.6
    greedy_low, _ = stats.confidence_interval(0)
    for seat in (1, 2, 3):
        _, random_high = stats.confidence_interval(seat)
        assert greedy_low > random_high
        assert stats.win_rates[seat] < 0.15


# -- the fields make sense ------------------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
def test_stats_are_consistent(rules: BaseRules) -> None:
    """Counts add up, places are a permutation per game, records replay to the scores."""
    stats = simulate(
        60, rules=rules, players=MIXED, seed=99, batch_size=25, record_games=True
    )
    n = stats.games
    assert n == 60
    assert stats.seats == 4
    assert sum(stats.wins) == n
    assert stats.wins == stats.places[0]
    assert all(sum(row) == n for row in stats.places)
    assert [sum(row[seat] for row in stats.places) for seat in range(4)] == [n] * 4
    assert len(stats.records) == n
    results = [r.final.result for r in stats.records]  # replayed by the engine
    scores = [result.scores for result in results if result is not None]
    assert len(scores) == n
    assert stats.score_sums == tuple(sum(s[seat] for s in scores) for seat in range(4))
    assert stats.score_squares == tuple(
        sum(s[seat] ** 2 for s in scores) for seat in range(4)
    )
    lengths = [len(r.actions) for r in stats.records]
    assert stats.total_actions == sum(lengths)
    assert stats.min_actions == min(lengths)
    assert stats.max_actions == max(lengths)
    assert stats.min_actions <= stats.mean_actions <= stats.max_actions
    assert all(chops >= 0 for chops in stats.chops)
    assert sum(stats.instant_win_count(win) for win in InstantWin) == sum(
        result.instant_win is not None for result in results if result is not None
    )
    assert len(stats.win_rates) == len(stats.mean_scores) == 4


def test_stake_scores_are_zero_sum() -> None:
    """RULES §2.5: the loser pays each other player, so every game sums to zero."""
    stats = simulate(40, rules=CLASSIC, players=MIXED, seed=4)
    assert sum(stats.score_sums) == 0


def test_bombs_and_chops_are_counted() -> None:
    """Bombs of every seat and catches (RULES §6.6.2) show up over enough games."""
    stats = simulate(
        200, rules=POKER, players=[RandomPlayer()] * 4, seed=1, batch_size=100
    )
    assert sum(stats.bombs) > 0
    assert 0 < sum(stats.chops) <= sum(stats.bombs)


def test_instant_wins_are_counted() -> None:
    """RULES §6.7: deals that win at once are counted by hand and take no action."""
    stats = simulate(
        200, rules=POKER, players=[RandomPlayer()] * 4, seed=1, batch_size=100
    )
    assert stats.instant_wins  # several per hundred Poker deals
    assert stats.min_actions == 0
    assert all(count > 0 for _, count in stats.instant_wins)
    assert [win for win, _ in stats.instant_wins] == sorted(
        (win for win, _ in stats.instant_wins),
        key=lambda win: list(InstantWin).index(win),  # type: ignore[arg-type]  # built-in
    )


def test_confidence_interval_is_the_normal_approximation() -> None:
    """Mean ± 1.96 sample standard errors, from the recorded scores."""
    stats = simulate(50, rules=POKER, players=MIXED, seed=12, record_games=True)
    scores = [record.final.result.scores[1] for record in stats.records]  # type: ignore[union-attr]
    mean = statistics.fmean(scores)
    half = 1.959963984540054 * statistics.stdev(scores) / math.sqrt(len(scores))
    low, high = stats.confidence_interval(1)
    assert low == pytest.approx(mean - half)
    assert high == pytest.approx(mean + half)
    assert stats.mean_scores[1] == pytest.approx(mean)


def test_no_games_give_no_means() -> None:
    """With no games the rates, means and intervals are nan; min/max are None."""
    empty = SimulationStats.empty(2)
    assert all(
        math.isnan(x)
        for x in (*empty.win_rates, *empty.mean_scores, empty.mean_actions)
    )
    assert all(math.isnan(x) for x in empty.confidence_interval(0))
    assert empty.min_actions is None
    assert empty.max_actions is None


def test_summary_lists_every_seat() -> None:
    """The text summary has a header and one line per seat."""
    stats = simulate(20, rules=CLASSIC, players=MIXED, seed=3)
    lines = stats.summary().splitlines()
    assert lines[0] == f"20 games, 4 seats, {stats.mean_actions:.1f} actions per game"
    assert len(lines) == 2 + 4


# -- arguments ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n_games", "batch_size", "first_batch"),
    [(-1, 250, 0), (10, 0, 0), (10, 250, -1)],
    ids=["negative-games", "empty-batches", "negative-first-batch"],
)
def test_bad_arguments(n_games: int, batch_size: int, first_batch: int) -> None:
    """Counts must be sensible."""
    with pytest.raises(InvalidArgumentError, match="must be at least"):
        simulate(
            n_games,
            rules=CLASSIC,
            players=MIXED,
            seed=1,
            batch_size=batch_size,
            first_batch=first_batch,
        )


def test_table_size_follows_the_rules() -> None:
    """Poker is played by 2-4 players (RULES §6.1)."""
    with pytest.raises(InvalidRulesError):
        simulate(1, rules=POKER, players=[RandomPlayer()] * 5, seed=1)


def test_public_types() -> None:
    """STYLE R47: the signatures users rely on (checked by mypy, run as a smoke test)."""
    stats = simulate(2, rules=CLASSIC, players=MIXED, seed=1)
    assert_type(stats, SimulationStats)
    assert_type(stats.mean_scores, tuple[float, ...])
    assert_type(stats.confidence_interval(0), tuple[float, float])
    assert_type(stats.records, tuple[GameRecord, ...])
    assert_type(stats.min_actions, int | None)
    pool_type: type[MapExecutor] = multiprocessing.pool.Pool
    futures_type: type[MapExecutor] = ProcessPoolExecutor
    assert pool_type is not futures_type
