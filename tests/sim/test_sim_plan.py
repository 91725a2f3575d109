"""`simulate` plans its batches lazily: a huge simulation starts at once (issue 20 §10).

``simulate(10**7, batch_size=1)`` used to build its ten million batches before the
first game (45 s and gigabytes). Batches are now made as the executor asks for them,
and stats are merged as soon as every earlier batch is in.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

import pytest

from tienlen import (
    CLASSIC,
    GreedyPlayer,
    Player,
    RandomPlayer,
    SimulationStats,
    simulate,
)
from tienlen.simulation import process_pool

_S = TypeVar("_S")
_T = TypeVar("_T")

BOTS: list[Player] = [GreedyPlayer(), RandomPlayer(), RandomPlayer(), RandomPlayer()]


class _Enough(Exception):  # noqa: N818 - a signal for the test, not an error
    """Raised by `FirstOnly` once the first batch is in."""


class FirstOnly:
    """An executor that runs the first batch, notes when it came back, and stops."""

    def __init__(self) -> None:
        self.first: object = None

    def map(self, fn: Callable[[_S], _T], iterable: Iterable[_S], /) -> Iterator[_T]:
        """The first result; then `_Enough`."""
        for item in iterable:
            self.first = fn(item)
            raise _Enough
        return iter(())


def test_the_first_game_of_a_huge_simulation_comes_at_once() -> None:
    """Ten million one-game batches: the first is played within two seconds."""
    executor = FirstOnly()
    start = time.perf_counter()
    with pytest.raises(_Enough):
        simulate(10**7, rules=CLASSIC, players=BOTS, seed=1, batch_size=1, executor=executor)  # fmt: skip
    assert time.perf_counter() - start < 2
    assert isinstance(executor.first, tuple)
    index, stats = executor.first  # a batch's index and stats
    assert index == 0
    assert isinstance(stats, SimulationStats)
    assert stats == simulate(1, rules=CLASSIC, players=BOTS, seed=1, batch_size=1)


def test_a_huge_simulation_on_a_pool_submits_only_a_few_batches_ahead() -> None:
    """`process_pool` takes batches as results come: leaving early submitted few."""
    taken = 0

    def counted() -> Iterator[int]:
        nonlocal taken
        for number in range(10**9):
            taken += 1
            yield number

    with process_pool(2) as pool:
        results = pool.map(abs, counted())
        assert [next(iter(results)) for _ in range(3)] == [0, 1, 2]
    assert taken <= 3 + 2 * 2 + 1  # the results read, and two per worker ahead


@pytest.mark.parametrize(("games", "batch_size"), [(0, 5), (1, 5), (7, 3), (9, 3)])
def test_the_last_batch_holds_the_games_left(games: int, batch_size: int) -> None:
    """Batches of *batch_size*, the last one short: every game played, none twice."""
    stats = simulate(
        games, rules=CLASSIC, players=BOTS, seed=4, batch_size=batch_size,
        record_games=True,
    )  # fmt: skip
    assert stats.games == len(stats.records) == games
    batches = [(r.batch, r.game) for r in stats.records]
    assert batches == [(n // batch_size, n % batch_size) for n in range(games)]
