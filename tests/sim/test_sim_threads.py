"""Rule sets shared between threads: many threads over many rule sets agree with one.

What the games of a rule set share (`tienlen.engine.rulebook.context_of`) used to live in a
global cache of 32 entries whose eviction was not locked: eight threads dealing games
of a hundred rule sets raised `KeyError` (issue 20, finding 4). The thread switch
interval is cut to a microsecond here so that a race shows within a second.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import attrs
import pytest

from tienlen import (
    CLASSIC,
    POKER,
    BaseRules,
    GameState,
    GreedyPlayer,
    Player,
    RandomPlayer,
    simulate,
)

THREADS = 8
RULE_SETS = 100
"""More than the old cache held (32), so that contexts were evicted as threads read."""
ROUNDS = 30
"""Times each thread goes through the rule sets."""


@contextmanager
def _tiny_switch_interval() -> Iterator[None]:
    """Switch threads every microsecond inside the block (races show quickly)."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def _house_rules() -> list[BaseRules]:
    """`RULE_SETS` distinct rule sets: classic and Poker tables under new names."""
    return [
        attrs.evolve(POKER if index % 2 else CLASSIC, name=f"house-{index}")
        for index in range(RULE_SETS)
    ]


def _opening(rules: BaseRules, seed: int) -> str:
    """A game's deal, as the text of its hands."""
    return str(GameState.deal(rules, 4, seed=seed).hands)


def _in_threads(work: Callable[[int], list[str]], seconds: float) -> list[list[str]]:
    """The results of ``work(k)`` run in `THREADS` threads at once, within *seconds*.

    A thread's error is raised; threads still running after *seconds* fail the test.
    """
    results: list[list[str] | BaseException | None] = [None] * THREADS

    def run(index: int) -> None:
        try:
            results[index] = work(index)
        except BaseException as error:  # noqa: BLE001 - reported below
            results[index] = error

    threads = [threading.Thread(target=run, args=(k,)) for k in range(THREADS)]
    deadline = time.monotonic() + seconds
    with _tiny_switch_interval():
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
    assert not any(thread.is_alive() for thread in threads), "the threads hang"
    done: list[list[str]] = []
    for result in results:
        if isinstance(result, BaseException):
            raise result
        assert result is not None
        done.append(result)
    return done


@pytest.mark.slow
def test_threads_dealing_many_rule_sets_agree_with_a_serial_run() -> None:
    """Eight threads dealing 100 rule sets at once deal what one thread deals.

    Each thread goes 30 times through the rule sets in its own order, at a 1 µs switch
    interval: no error, and every deal is the serial run's.
    """
    rule_sets = _house_rules()
    serial = [_opening(rules, seed) for seed, rules in enumerate(rule_sets)]
    fresh = _house_rules()  # no context built yet: the threads build them

    def work(offset: int) -> list[str]:
        got = [""] * RULE_SETS
        for _ in range(ROUNDS):
            for step in range(RULE_SETS):
                index = (step * 7 + offset) % RULE_SETS
                got[index] = _opening(fresh[index], index)
        return got

    for got in _in_threads(work, seconds=60):
        assert got == serial


def test_simulate_on_threads_over_many_rule_sets_is_the_serial_result() -> None:
    """`simulate` of many rule sets from the threads of a pool gives the serial stats."""
    rule_sets = _house_rules()[:24]
    players: list[Player] = [
        GreedyPlayer(),
        RandomPlayer(),
        GreedyPlayer(),
        RandomPlayer(),
    ]
    serial = [
        simulate(2, players=players, rules=rules, seed=7, batch_size=1)
        for rules in rule_sets
    ]
    fresh = [attrs.evolve(rules, name=rules.name) for rules in rule_sets]
    with _tiny_switch_interval(), ThreadPoolExecutor(4) as executor:
        threaded = list(
            executor.map(
                lambda rules: simulate(
                    2, players=players, rules=rules, seed=7, batch_size=1
                ),
                fresh,
            )
        )
    assert threaded == serial
