"""Simulations: many games between bots, in batches, on one core or on any executor.

`simulate` splits the games into batches (about 250 games each, PERFORMANCE.md §6) and
seeds batch ``i`` with ``random.Random(f"tienlen-sim:{seed}:{i}")``, which deals its
games and drives its players. The result depends only on the seed and the inputs: the
same serially, on a process pool, on Ray or on Dask. Each batch returns a
`SimulationStats`; the batches' stats are merged in batch order.

Example:
    >>> from tienlen import CLASSIC, GreedyPlayer, RandomPlayer, simulate
    >>> bots = [GreedyPlayer(), RandomPlayer(), RandomPlayer(), RandomPlayer()]
    >>> stats = simulate(40, rules=CLASSIC, players=bots, seed=1, batch_size=20)
    >>> stats.games, sum(stats.wins), stats == simulate(40, rules=CLASSIC, players=bots, seed=1, batch_size=20)
    (40, 40, True)

.. versionadded:: 0.1
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import inspect
import math
import multiprocessing
import multiprocessing.pool
import multiprocessing.process
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from types import FrameType
from typing import Final, Protocol, TypeVar, overload

import attrs

from tienlen._checks import check_players, check_time_limit, check_type
from tienlen._workers import start_worker
from tienlen.engine.keys import BombTally
from tienlen.engine.referee import play_out
from tienlen.errors import InvalidArgumentError, TienLenError
from tienlen.game import GameState
from tienlen.players import Player, PlayerError
from tienlen.records import GameRecord, RecordError, record
from tienlen.rules import BaseRules, RuleSet, as_rules
from tienlen.rules.base import InstantWin, InstantWinHand

__all__ = [
    "ExecutorError",
    "MapExecutor",
    "SimulationStats",
    "process_pool",
    "simulate",
]

_S = TypeVar("_S")
_T = TypeVar("_T")

_MAX_SEATS: Final = 8
"""The most players at a table (RULES §1.1: two decks)."""

_Z95: Final = 1.959963984540054
"""The 97.5th percentile of the standard normal distribution."""


class MapExecutor(Protocol):
    """Anything with an order-keeping ``map(fn, iterable)``: where `simulate` runs batches.

    ``multiprocessing.Pool``, ``concurrent.futures.ProcessPoolExecutor``,
    ``ray.util.multiprocessing.Pool`` and a Dask client's ``get_executor()`` all fit;
    so does any class whose ``map`` calls the built-in one. Results must come back in
    the order of the inputs.

    Example:
        >>> from tienlen import CLASSIC, RandomPlayer
        >>> class Serial:
        ...     def map(self, fn, iterable):
        ...         return map(fn, iterable)
        >>> bots = [RandomPlayer()] * 4
        >>> on_it = simulate(20, rules=CLASSIC, players=bots, seed=3, executor=Serial())
        >>> on_it == simulate(20, rules=CLASSIC, players=bots, seed=3)
        True

    .. versionadded:: 0.1
    """

    def map(self, fn: Callable[[_S], _T], iterable: Iterable[_S], /) -> Iterable[_T]:
        """Apply *fn* to every item of *iterable*; the results in input order.

        Example:
            >>> list(map(abs, [-2, 3]))  # the built-in map fits the protocol's method
            [2, 3]
        """
        ...


def _ints(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


def _int_rows(values: Iterable[Iterable[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(row) for row in values)


def _win_counts(
    values: Iterable[tuple[InstantWinHand, int]],
) -> tuple[tuple[InstantWinHand, int], ...]:
    """Instant-win counts summed per hand, zeros dropped.

    The built-in hands come in `InstantWin` order, a table's own by name.
    """
    totals: dict[InstantWinHand, int] = dict.fromkeys(InstantWin, 0)
    for win, count in values:
        totals[win] = totals.get(win, 0) + count
    order: list[InstantWinHand] = [w for w in totals if isinstance(w, InstantWin)]
    order += sorted((w for w in totals if not isinstance(w, InstantWin)), key=str)
    return tuple((win, totals[win]) for win in order if totals[win])


def _records(values: Iterable[GameRecord]) -> tuple[GameRecord, ...]:
    return tuple(values)


def add_counts(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


@attrs.frozen(kw_only=True)
class SimulationStats:
    """What a simulation counted, per seat; merge two with ``a + b`` (or `merge`).

    Scores are summed with their squares, so means and confidence intervals come out
    exactly however the games were split into batches. A *win* is first place: the
    first player out, Poker's first place, or an instant winner
    (`GameResult.winner`).

    Example:
        >>> from tienlen import POKER, RandomPlayer, simulate
        >>> stats = simulate(30, rules=POKER, players=[RandomPlayer()] * 3, seed=2)
        >>> stats.games, len(stats.places), [sum(row) for row in stats.places]
        (30, 3, [30, 30, 30])
        >>> low, high = stats.confidence_interval(0)
        >>> low <= stats.mean_scores[0] <= high
        True

    .. versionadded:: 0.1
    """

    seats: int
    """How many players sit at the table."""
    games: int = 0
    """How many games were played."""
    wins: tuple[int, ...] = attrs.field(converter=_ints)
    """First places, by seat."""
    places: tuple[tuple[int, ...], ...] = attrs.field(converter=_int_rows)
    """``places[place][seat]``: how often *seat* finished in *place* (0 is first)."""
    score_sums: tuple[int, ...] = attrs.field(converter=_ints)
    """The sum of each seat's scores."""
    score_squares: tuple[int, ...] = attrs.field(converter=_ints)
    """The sum of each seat's squared scores."""
    total_actions: int = 0
    """Actions applied in all games (plays, passes and jump-ins)."""
    min_actions: int | None = None
    """The fewest actions in a game (0 for an instant win); ``None`` with no games."""
    max_actions: int | None = None
    """The most actions in a game; ``None`` with no games."""
    bombs: tuple[int, ...] = attrs.field(converter=_ints)
    """Plays of a bomb's shape, by the seat that made them (RULES §2.3, §6.2)."""
    chops: tuple[int, ...] = attrs.field(converter=_ints)
    """Catches, bombs played onto a 2 or a bomb (*chặt*, RULES §6.6.2), by seat."""
    instant_wins: tuple[tuple[InstantWinHand, int], ...] = attrs.field(
        default=(), converter=_win_counts
    )
    """``(hand, count)`` for each instant win that occurred (RULES §5.4, §6.7)."""
    records: tuple[GameRecord, ...] = attrs.field(default=(), converter=_records)
    """One `records.GameRecord` per game, in game order, with ``record_games``.

    Each names its ``batch`` and ``game`` (its index in the batch), and the
    simulation's ``seed`` when that is an int.
    """

    @classmethod
    def empty(cls, seats: int) -> SimulationStats:
        """Stats of no games: the neutral element of `merge`.

        Raises:
            TypeError: *seats* is not an int.
            InvalidArgumentError: *seats* is outside 1 to 8.

        Example:
            >>> SimulationStats.empty(4).wins
            (0, 0, 0, 0)
        """
        seats = _check_count("seats", seats, 1)
        if seats > _MAX_SEATS:
            msg = f"seats must be at most {_MAX_SEATS}, got {seats}"
            raise InvalidArgumentError(msg)
        zeros = (0,) * seats
        return cls(
            seats=seats,
            wins=zeros,
            places=(zeros,) * seats,
            score_sums=zeros,
            score_squares=zeros,
            bombs=zeros,
            chops=zeros,
        )

    def merge(self, other: SimulationStats) -> SimulationStats:
        """Both stats together; records keep their order, this one's first.

        Raises:
            InvalidArgumentError: the stats are for different numbers of seats.

        Example:
            >>> empty = SimulationStats.empty(2)
            >>> empty.merge(empty) == empty
            True
        """
        check_type("other", other, SimulationStats)
        if other.seats != self.seats:
            msg = f"cannot merge stats of {self.seats} and {other.seats} seats"
            raise InvalidArgumentError(msg)
        mins = [m for m in (self.min_actions, other.min_actions) if m is not None]
        maxs = [m for m in (self.max_actions, other.max_actions) if m is not None]
        return SimulationStats(
            seats=self.seats,
            games=self.games + other.games,
            wins=add_counts(self.wins, other.wins),
            places=[
                add_counts(a, b) for a, b in zip(self.places, other.places, strict=True)
            ],
            score_sums=add_counts(self.score_sums, other.score_sums),
            score_squares=add_counts(self.score_squares, other.score_squares),
            total_actions=self.total_actions + other.total_actions,
            min_actions=min(mins) if mins else None,
            max_actions=max(maxs) if maxs else None,
            bombs=add_counts(self.bombs, other.bombs),
            chops=add_counts(self.chops, other.chops),
            instant_wins=(*self.instant_wins, *other.instant_wins),
            records=(*self.records, *other.records),
        )

    def __add__(self, other: object) -> SimulationStats:
        if not isinstance(other, SimulationStats):
            return NotImplemented
        return self.merge(other)

    @property
    def win_rates(self) -> tuple[float, ...]:
        """Each seat's share of first places (``nan`` with no games).

        Example:
            >>> from tienlen import CLASSIC, RandomPlayer
            >>> stats = simulate(40, rules=CLASSIC, players=[RandomPlayer()] * 4, seed=1)
            >>> stats.win_rates, sum(stats.win_rates)
            ((0.3, 0.2, 0.3, 0.2), 1.0)
        """
        return tuple(_ratio(wins, self.games) for wins in self.wins)

    @property
    def mean_scores(self) -> tuple[float, ...]:
        """Each seat's mean score per game (``nan`` with no games).

        Example:
            >>> from tienlen import CLASSIC, RandomPlayer
            >>> stats = simulate(40, rules=CLASSIC, players=[RandomPlayer()] * 4, seed=1)
            >>> stats.mean_scores
            (-0.1, -0.1, 0.3, -0.1)
        """
        return tuple(_ratio(total, self.games) for total in self.score_sums)

    @property
    def mean_actions(self) -> float:
        """The mean number of actions per game (``nan`` with no games).

        Example:
            >>> from tienlen import CLASSIC, RandomPlayer
            >>> stats = simulate(40, rules=CLASSIC, players=[RandomPlayer()] * 4, seed=1)
            >>> stats.mean_actions == stats.total_actions / 40
            True
        """
        return _ratio(self.total_actions, self.games)

    def instant_win_count(self, win: InstantWinHand) -> int:
        """How many games *win* ended at the deal.

        Example:
            >>> SimulationStats.empty(4).instant_win_count(InstantWin.FOUR_TWOS)
            0
        """
        return dict(self.instant_wins).get(win, 0)

    def confidence_interval(self, seat: int) -> tuple[float, float]:
        """A 95% confidence interval for *seat*'s mean score (normal approximation).

        The mean ± 1.96 standard errors, from the sample variance; ``(nan, nan)`` with
        fewer than two games.

        Example:
            >>> import math
            >>> stats = SimulationStats.empty(2)
            >>> all(math.isnan(x) for x in stats.confidence_interval(0))
            True
        """
        n = self.games
        if n < 2:
            return math.nan, math.nan
        total = self.score_sums[seat]
        variance = max(0.0, (self.score_squares[seat] - total * total / n) / (n - 1))
        mean = total / n
        half = _Z95 * math.sqrt(variance / n)
        return mean - half, mean + half

    def summary(self) -> str:
        """A small text table: per seat, win rate, mean score ± CI half-width, places.

        Example:
            >>> from tienlen import CLASSIC, GreedyPlayer, RandomPlayer
            >>> stats = simulate(100, rules=CLASSIC, players=[GreedyPlayer(), RandomPlayer()], seed=1)
            >>> print(stats.summary())
            100 games, 2 seats, 19.5 actions per game
            seat  win rate  mean score  places (1st..last)
               0     0.950  +0.900 ± 0.086  95 5
               1     0.050  -0.900 ± 0.086  5 95
        """
        lines = [
            f"{self.games} games, {self.seats} seats, {self.mean_actions:.1f} actions per game",
            "seat  win rate  mean score  places (1st..last)",
        ]
        for seat in range(self.seats):
            low, high = self.confidence_interval(seat)
            places = " ".join(str(row[seat]) for row in self.places)
            score = f"{self.mean_scores[seat]:+.3f} ± {(high - low) / 2:.3f}"
            lines.append(
                f"{seat:4d}  {self.win_rates[seat]:8.3f}  {score:>10}  {places}"
            )
        return "\n".join(lines)


def _ratio(part: float, whole: int) -> float:
    return part / whole if whole else math.nan


@attrs.frozen(kw_only=True)
class _Batch:
    """One batch of games: a picklable task for an executor (private)."""

    index: int
    games: int
    seed: int | str
    rules: RuleSet
    players: tuple[Player, ...]
    record: bool
    time_limit: float | None


def owns_exit(error: BaseException) -> bool:
    """Whether a bot's ``SystemExit`` or ``KeyboardInterrupt`` is the bot's own fault.

    The referee reports a bot's ``Exception`` as a `PlayerError`; these two are not
    ``Exception``, so a bot raising them would stop a serial run or a thread, kill a
    ``multiprocessing.Pool`` worker, or come back from a ``ProcessPoolExecutor`` as
    the parent's own exit (issue 20, finding 6). `simulate` and `evaluate` have the
    referee report them as the bot's `PlayerError` too (`play_out`'s *owns_exit*), on
    every executor, but for a signal: a ``KeyboardInterrupt`` in the main thread of
    the main process is Ctrl-C, and stops the run as usual; so does the
    ``SystemExit`` of `process_pool`'s SIGTERM handler. Any other exception that is
    not an ``Exception`` (``GeneratorExit``, a cancellation) is never the bot's here.

    Example:
        >>> owns_exit(SystemExit(3)), owns_exit(GeneratorExit())
        (True, False)
    """
    return isinstance(error, SystemExit | KeyboardInterrupt) and not _is_a_signal(error)


def _is_a_signal(error: BaseException) -> bool:
    """Whether *error* is Ctrl-C or `process_pool`'s SIGTERM rather than the bot's.

    Signals reach the main thread of a process; in a worker process of an executor
    Ctrl-C is ignored (`process_pool`) or the parent's to handle.
    """
    if isinstance(error, SystemExit):
        traceback = error.__traceback__
        while traceback is not None:
            if traceback.tb_frame.f_code is _exit_on_sigterm.__code__:
                return True
            traceback = traceback.tb_next
        return False
    return (
        threading.current_thread() is threading.main_thread()
        and multiprocessing.parent_process() is None
    )


def _run_batch(batch: _Batch) -> tuple[int, SimulationStats]:
    """Play one batch of games: its index and stats (module-level, so it pickles).

    Raises:
        PlayerError: a player failed a decision; the error names the batch and game.
    """
    rng = random.Random(f"tienlen-sim:{batch.seed}:{batch.index}")
    players = batch.players
    seats = len(players)
    counter = BombTally(seats)
    wins = [0] * seats
    places = [[0] * seats for _ in range(seats)]
    sums = [0] * seats
    squares = [0] * seats
    lengths: list[int] = []
    instant: list[tuple[InstantWinHand, int]] = []
    kept: list[GameRecord] = []
    seed = batch.seed if type(batch.seed) is int else None
    for game in range(batch.games):
        start = GameState.deal(batch.rules, seats, rng)
        try:
            final = play_out(
                start, players, rng, counter, batch.time_limit, owns_exit=owns_exit
            )
        except PlayerError as error:
            raise error.in_game(batch.index, game) from error.__cause__
        result = final.result
        assert result is not None
        wins[result.winner] += 1
        for place, seat in enumerate(result.finish_order):
            places[place][seat] += 1
        for seat, score in enumerate(result.scores):
            sums[seat] += score
            squares[seat] += score * score
        lengths.append(len(final.history))
        if result.instant_win is not None:
            instant.append((result.instant_win, 1))
        if batch.record:
            kept.append(
                attrs.evolve(record(final, seed=seed), batch=batch.index, game=game)
            )
    return batch.index, SimulationStats(
        seats=seats,
        games=batch.games,
        wins=wins,
        places=places,
        score_sums=sums,
        score_squares=squares,
        total_actions=sum(lengths),
        min_actions=min(lengths, default=None),
        max_actions=max(lengths, default=None),
        bombs=counter.bombs,
        chops=counter.chops,
        instant_wins=instant,
        records=kept,
    )


class ExecutorError(TienLenError, RuntimeError):
    """The executor running a simulation failed: a worker died or a batch was lost.

    Raised by `simulate` when the executor returns a batch twice or never, when a
    worker process dies (``BrokenProcessPool``: killed by a signal or the OOM
    killer), or when a batch exceeds the *timeout* of `process_pool`. The original
    error, if any, is the ``__cause__``.

    Example:
        >>> from tienlen import CLASSIC, RandomPlayer
        >>> class Lossy:
        ...     def map(self, fn, iterable):
        ...         return [fn(batch) for batch in iterable][1:]  # drops batch 0
        >>> simulate(20, rules=CLASSIC, players=[RandomPlayer()] * 2, seed=1, batch_size=10, executor=Lossy())
        Traceback (most recent call last):
        ...
        tienlen.simulation.ExecutorError: the executor lost batch 0 and returned no extra batch (2 batches sent)

    .. versionadded:: 0.2
    """


class Planned(Sequence[_T]):
    """The batches of a run, each made when it is read: a sequence, not a list.

    A sequence, not an iterator, so that every executor takes it (Dask's refuses
    iterators); nothing is made before an executor reads it.
    """

    __slots__ = ("_indices", "_make")

    def __init__(self, indices: range, make: Callable[[int], _T]) -> None:
        self._indices = indices
        self._make = make

    def __len__(self) -> int:
        return len(self._indices)

    @overload
    def __getitem__(self, position: int) -> _T: ...

    @overload
    def __getitem__(self, position: slice) -> list[_T]: ...

    def __getitem__(self, position: int | slice) -> _T | list[_T]:
        if isinstance(position, slice):
            return [self._make(index) for index in self._indices[position]]
        return self._make(self._indices[position])


def _map(
    executor: MapExecutor, batches: Sequence[_Batch], count: int
) -> Iterable[tuple[int, SimulationStats]]:
    """``executor.map`` of the batches, one batch per task where ``map`` takes a chunksize.

    `multiprocessing.Pool` and Ray's pool otherwise send several batches per task, and
    a worker left with the last ones keeps the others waiting.
    """
    if isinstance(executor, multiprocessing.pool.Pool):
        return _watched_pool_map(executor, batches, count)
    try:
        takes_chunksize = "chunksize" in inspect.signature(executor.map).parameters
    except (TypeError, ValueError):  # no signature to read (a builtin, say)
        takes_chunksize = False
    if takes_chunksize:
        chunked: Callable[..., Iterable[tuple[int, SimulationStats]]] = executor.map
        return chunked(_run_batch, batches, chunksize=1)
    return executor.map(_run_batch, batches)


def _watched_pool_map(
    pool: multiprocessing.pool.Pool, batches: Sequence[_Batch], count: int
) -> Iterator[tuple[int, SimulationStats]]:
    """The batches on a `multiprocessing.Pool`, one per task, watching its workers.

    A worker killed mid-batch (the OOM killer's SIGKILL) loses its task, and the
    pool would wait for it forever: a worker that exits with an error is a
    `BrokenExecutor` instead, which `_collect` reports. The pool's worker list is
    read for that (``Pool`` has no public way to see a dead worker).
    """
    workers: dict[int | None, multiprocessing.process.BaseProcess] = {}
    results = pool.imap(_run_batch, batches, chunksize=1)
    for _ in range(count):
        while True:
            for worker in getattr(pool, "_pool", ()):
                workers.setdefault(worker.pid, worker)
            try:
                yield results.next(timeout=_POOL_WATCH_SECONDS)
                break
            except multiprocessing.TimeoutError:
                dead = [w for w in workers.values() if w.exitcode not in (None, 0)]
                if dead:
                    msg = f"worker {dead[0].pid} exited with code {dead[0].exitcode}"
                    raise BrokenExecutor(msg) from None


_POOL_WATCH_SECONDS: Final = 0.25
"""How often `_watched_pool_map` looks at the pool's workers while it waits."""


def _collect(
    results: Iterable[tuple[int, SimulationStats]], indices: range, seats: int
) -> SimulationStats:
    """Every batch's stats merged in batch order, checking each came back exactly once.

    Stats are merged as soon as every earlier batch is in: an executor that keeps
    the order holds one batch's stats at a time.

    Raises:
        ExecutorError: a batch is missing, repeated or unknown, a worker died, or a
            batch took longer than its pool allows.
    """
    total = SimulationStats.empty(seats)
    waiting: dict[int, SimulationStats] = {}
    following = indices.start  # the next batch to merge
    repeated: list[int] = []
    try:
        for index, stats in results:
            if (
                type(index) is not int
                or not following <= index < indices.stop
                or index in waiting
            ):
                repeated.append(index)
                continue
            waiting[index] = stats
            while following in waiting:
                total = total.merge(waiting.pop(following))
                following += 1
    except BrokenExecutor as error:
        msg = f"a worker died while running the simulation ({error})"
        raise ExecutorError(msg) from error
    except TimeoutError as error:
        msg = "a batch took longer than the pool's timeout; its workers were stopped"
        raise ExecutorError(msg) from error
    if following < indices.stop or repeated:
        missing = [i for i in range(following, indices.stop) if i not in waiting]
        msg = (
            f"the executor lost {_batches(missing)} and returned "
            f"{_batches(repeated, 'extra ')} ({len(indices)} batches sent)"
        )
        raise ExecutorError(msg)
    return total


def _batches(indices: Sequence[int], kind: str = "") -> str:
    """``"batch 3"``, ``"batches 1, 4"`` or ``"no batch"``; at most 10 numbers shown."""
    if not indices:
        return f"no {kind}batch"
    shown = ", ".join(map(str, indices[:10])) + (", ..." if len(indices) > 10 else "")
    return f"{kind}batch {shown}" if len(indices) == 1 else f"{kind}batches {shown}"


def _check_count(name: str, value: object, least: int) -> int:
    """*value* as an ``int`` of at least *least*.

    Raises:
        TypeError: *value* is not an integer (``bool`` is not).
        InvalidArgumentError: it is below *least*.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        msg = f"{name} must be an int, not {type(value).__name__}"
        raise TypeError(msg)
    if value < least:
        msg = f"{name} must be at least {least}, got {value!r}"
        raise InvalidArgumentError(msg)
    return int(value)


def _check_arguments(seed: object, executor: object, record_games: object) -> None:
    """Refuse arguments of `simulate` of the wrong type.

    Raises:
        TypeError: one of them has the wrong type.
    """
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        msg = f"seed must be an int or a str, not {type(seed).__name__}"
        raise TypeError(msg)
    if executor is not None and not callable(getattr(executor, "map", None)):
        msg = f"executor must have a map method, {type(executor).__name__} has none"
        raise TypeError(msg)
    if not isinstance(record_games, bool):
        msg = f"record_games must be a bool, not {type(record_games).__name__}"
        raise TypeError(msg)


def simulate(
    n_games: int,
    *,
    rules: RuleSet | str,
    players: Sequence[Player],
    seed: int | str,
    executor: MapExecutor | None = None,
    batch_size: int = 250,
    record_games: bool = False,
    first_batch: int = 0,
    time_limit: float | None = None,
) -> SimulationStats:
    """Play *n_games* independent games between *players* and count what happened.

    Every game is a fresh first game of a match (`GameState.deal` with
    ``first_game=True``), played with `play_game`. The games are split into batches
    of *batch_size*; batch ``i`` deals and plays from
    ``random.Random(f"tienlen-sim:{seed}:{i}")``, so the result depends only on the
    arguments, never on the executor or the machine. Batches are numbered from
    *first_batch*: a simulation of ``k * batch_size`` games merged with one starting
    at batch ``first_batch + k`` equals one longer simulation. Every batch must come
    back from the executor exactly once (in any order).

    Args:
        n_games: How many games to play.
        rules: The variant, or a preset's name (`get_rules`: ``"classic"``).
        players: One `Player` per seat; their number is the table size. They must
            be picklable to run on a process-based executor.
        seed: The simulation's seed (an int or a string).
        executor: Runs the batches: anything with ``map(fn, iterable)``
            (`MapExecutor`); ``None`` runs them here, one after another, each
            batch made only when it is run (a huge *n_games* starts at once). When its
            ``map`` takes a ``chunksize`` (``multiprocessing.Pool``), each batch is
            sent as its own task. `process_pool` is the robust choice for processes.
        batch_size: Games per batch (per task on an executor). About 250 amortises
            the cost of a task (PERFORMANCE.md §6).
        record_games: Whether to keep a `records.GameRecord` of every game.
        first_batch: The index of the first batch.
        time_limit: The most seconds one decision of a player may take
            (`play_game`); ``None`` for no limit.

    Returns:
        The merged `SimulationStats` of every batch, in batch order.

    Raises:
        TypeError: an argument of the wrong type (``players=[None] * 4``).
        UnknownVariantError: *rules* names no preset.
        InvalidArgumentError: a negative *n_games* or *first_batch*, *batch_size*
            below 1, or a *time_limit* that is not a positive number.
        InvalidRulesError: the rules do not allow that many players.
        RecordError: *record_games* with a custom rule set, which records cannot
            hold.
        PlayerError: a player failed a decision (it raised, chose an action it was
            not offered, changed what it was handed or exceeded *time_limit*); the
            error names the batch, the game, the seat and the action.
        ExecutorError: a batch came back twice or never, or a worker died.

    Example:
        >>> from concurrent.futures import ThreadPoolExecutor
        >>> from tienlen import VIETCONG, RandomPlayer
        >>> bots = [RandomPlayer()] * 4
        >>> serial = simulate(30, rules=VIETCONG, players=bots, seed=9, batch_size=10)
        >>> with ThreadPoolExecutor(2) as pool:
        ...     threaded = simulate(30, rules=VIETCONG, players=bots, seed=9, batch_size=10, executor=pool)
        >>> serial == threaded
        True
    """
    n_games = _check_count("n_games", n_games, 0)
    batch_size = _check_count("batch_size", batch_size, 1)
    first_batch = _check_count("first_batch", first_batch, 0)
    rules = as_rules(rules)
    _check_arguments(seed, executor, record_games)
    check_players(players)
    check_time_limit(time_limit)
    seats = len(players)
    rules.deal_size(seats)  # raises InvalidRulesError for a wrong table size
    if record_games and not isinstance(rules, BaseRules):
        raise RecordError("rules", f"cannot record a custom rule set {rules!r}")
    team = tuple(players)
    indices = range(first_batch, first_batch + -(-n_games // batch_size))
    batches = Planned(  # made as they are run: a huge simulation starts at once
        indices,
        lambda index: _Batch(
            index=index,
            games=min(batch_size, n_games - (index - first_batch) * batch_size),
            seed=seed,
            rules=rules,
            players=team,
            record=record_games,
            time_limit=time_limit,
        ),
    )
    if executor is None:
        results: Iterable[tuple[int, SimulationStats]] = map(_run_batch, batches)
    else:
        results = _map(executor, batches, len(indices))
    return _collect(results, indices, seats)


# -- a process pool that survives dead workers and signals ---------------------------


class _Pool:
    """The `MapExecutor` that `process_pool` yields (private)."""

    def __init__(
        self, executor: ProcessPoolExecutor, workers: int, timeout: float | None
    ) -> None:
        self._executor = executor
        self._ahead = 2 * workers
        """How many items are submitted ahead of the result waited for."""
        self._timeout = timeout
        self.futures: set[Future[object]] = set()
        """The work submitted and not yet waited for (for `_finish`)."""

    def map(self, fn: Callable[[_S], _T], iterable: Iterable[_S], /) -> Iterator[_T]:
        """*fn* of every item, in input order, submitted a few ahead of the results.

        Items are taken from *iterable* as the results come: a huge simulation
        starts at once and keeps only the batches in flight.

        Raises:
            concurrent.futures.process.BrokenProcessPool: a worker died.
            TimeoutError: a result took longer than the pool's timeout to come.
        """
        return self._results(fn, iter(iterable))

    def _results(self, fn: Callable[[_S], _T], items: Iterator[_S]) -> Iterator[_T]:
        """`map`, as a generator: the futures not waited for are cancelled on leaving."""
        ahead: collections.deque[Future[_T]] = collections.deque()
        try:
            for item in items:
                ahead.append(self._submit(fn, item))
                if len(ahead) > self._ahead:
                    yield self._result(ahead.popleft())
            while ahead:
                yield self._result(ahead.popleft())
        finally:
            for future in ahead:
                future.cancel()

    def _submit(self, fn: Callable[[_S], _T], item: _S) -> Future[_T]:
        future = self._executor.submit(fn, item)
        self.futures.add(future)  # type: ignore[arg-type]  # only waited for
        return future

    def _result(self, future: Future[_T]) -> _T:
        self.futures.discard(future)
        return future.result(self._timeout)


def _exit_on_sigterm(signum: int, frame: FrameType | None) -> None:
    """SIGTERM handler: leave by ``SystemExit``, so that the pool is shut down."""
    del frame
    raise SystemExit(128 + signum)


def _stop(executor: ProcessPoolExecutor, grace: float = 0.0) -> None:
    """Stop every worker of *executor*, waiting *grace* seconds for idle ones to exit.

    Workers still there after *grace* are terminated: running, or kept alive by a
    thread a bot left behind (a process waits for its non-daemon threads at exit).
    """
    # The executor lends its processes and its manager thread only through private
    # attributes, and its first shutdown forgets both.
    processes = list((vars(executor).get("_processes") or {}).values())
    manager: threading.Thread | None = vars(executor).get("_executor_manager_thread")
    executor.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + grace
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(5)
        if process.is_alive():  # pragma: no cover - a worker ignoring SIGTERM
            process.kill()
            process.join()
    # A second shutdown does not wait for the manager thread: join it here, or it
    # may still be closing its pipe when Python's exit hook writes to that pipe. A
    # thread stuck on a pipe nobody reads is left to that hook, as before.
    if manager is not None:
        manager.join(_MANAGER_GRACE)


_MANAGER_GRACE: Final = 5.0
"""Seconds `_stop` waits for the executor's manager thread once the workers are gone."""


def _finish(executor: ProcessPoolExecutor, pool: _Pool) -> None:
    """Leave *pool* normally: let the work submitted finish, then stop the workers."""
    concurrent.futures.wait(pool.futures)
    _stop(executor, grace=_EXIT_GRACE)


_EXIT_GRACE: Final = 2.0
"""Seconds idle workers get to exit when `process_pool` is left normally."""


@contextlib.contextmanager
def process_pool(
    workers: int, *, timeout: float | None = None
) -> Iterator[MapExecutor]:
    """A pool of *workers* processes for `simulate` that never hangs and leaves none behind.

    Built on ``concurrent.futures.ProcessPoolExecutor``. Unlike ``multiprocessing.Pool``
    (which loses the task of a killed worker and waits for it forever), a worker that
    dies, killed by a signal or the OOM killer, makes `simulate` raise
    `ExecutorError`. Leaving the ``with`` block by an exception (a `PlayerError`,
    Ctrl-C's ``KeyboardInterrupt``) terminates every worker at once; leaving it
    normally waits for the work submitted, gives the workers two seconds to exit and
    then terminates any still there (a thread a bot left running would keep one
    alive forever). Inside the block, in the main thread, SIGTERM
    raises ``SystemExit(143)`` instead of killing the process outright, so the workers
    are stopped too (unless the program set its own SIGTERM handler, which is kept);
    the previous handler is restored on leaving. Workers ignore SIGINT (Ctrl-C in a
    terminal reaches the whole process group; the parent handles it), and on Linux
    die with their parent even when it is killed with SIGKILL.

    Args:
        workers: How many worker processes (1 to 1,024).
        timeout: The most seconds `simulate` waits for any one batch's result, or
            ``None`` to wait as long as it takes. A batch over the limit (a bot
            stuck in a loop, say) makes `simulate` raise `ExecutorError`, and its
            worker is stopped with the others.

    Yields:
        An executor for `simulate` (`MapExecutor`).

    Raises:
        TypeError: *workers* is not an int, or *timeout* not a number.
        InvalidArgumentError: *workers* is outside 1 to 1,024, or *timeout* is not
            positive and finite.

    Example:
        >>> from tienlen import CLASSIC, RandomPlayer, simulate
        >>> from tienlen.simulation import process_pool
        >>> bots = [RandomPlayer()] * 4
        >>> with process_pool(2) as pool:
        ...     pooled = simulate(40, rules=CLASSIC, players=bots, seed=3, batch_size=10, executor=pool)
        >>> pooled == simulate(40, rules=CLASSIC, players=bots, seed=3, batch_size=10)
        True

    .. versionadded:: 0.2
    """
    workers = _check_count("workers", workers, 1)
    if workers > _MAX_WORKERS:
        msg = f"workers must be at most {_MAX_WORKERS}, got {workers}"
        raise InvalidArgumentError(msg)
    check_time_limit(timeout, "timeout")
    executor = ProcessPoolExecutor(
        workers, initializer=start_worker, initargs=(os.getpid(),)
    )
    restore = _catch_sigterm()
    pool = _Pool(executor, workers, timeout)
    try:
        yield pool
    except BaseException:
        _stop(executor)
        raise
    else:
        _finish(executor, pool)
    finally:
        restore()


_MAX_WORKERS: Final = 1024
"""The most worker processes `process_pool` starts."""


def _catch_sigterm() -> Callable[[], None]:
    """Make SIGTERM raise `SystemExit` if it has its default action; the undo.

    Only the main thread may set signal handlers: elsewhere nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        return _nothing
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return _nothing
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    return _default_sigterm


def _default_sigterm() -> None:
    """Give SIGTERM its default action back."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _nothing() -> None:
    """Do nothing (an undo with nothing to undo)."""
