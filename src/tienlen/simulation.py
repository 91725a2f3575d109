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

import functools
import inspect
import math
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Final, Protocol, TypeVar

import attrs

from tienlen.game import Action, GameState, Play
from tienlen.players import Player, _play
from tienlen.rules import RuleSet
from tienlen.rules._base import InstantWin

__all__ = ["MapExecutor", "SimulatedGame", "SimulationStats", "simulate"]

_S = TypeVar("_S")
_T = TypeVar("_T")

_Z95: Final = 1.959963984540054
"""The 97.5th percentile of the standard normal distribution."""


class MapExecutor(Protocol):
    """Anything with an order-keeping ``map(fn, iterable)``: where `simulate` runs batches.

    ``multiprocessing.Pool``, ``concurrent.futures.ProcessPoolExecutor``,
    ``ray.util.multiprocessing.Pool`` and a Dask client's ``get_executor()`` all fit;
    so does any class whose ``map`` calls the built-in one. Results must come back in
    the order of the inputs.

    .. versionadded:: 0.1
    """

    def map(self, fn: Callable[[_S], _T], iterable: Iterable[_S], /) -> Iterable[_T]:
        """Apply *fn* to every item of *iterable*; the results in input order."""
        ...


def _ints(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


def _int_rows(values: Iterable[Iterable[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(row) for row in values)


def _moves(values: Iterable[tuple[int, str]]) -> tuple[tuple[int, str], ...]:
    return tuple((player, text) for player, text in values)


def _strs(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


def _win_counts(
    values: Iterable[tuple[InstantWin, int]],
) -> tuple[tuple[InstantWin, int], ...]:
    """Instant-win counts summed per hand, in `InstantWin` order, zeros dropped."""
    totals = dict.fromkeys(InstantWin, 0)
    for win, count in values:
        totals[win] += count
    return tuple((win, count) for win, count in totals.items() if count)


@attrs.frozen(kw_only=True)
class SimulatedGame:
    """One simulated game: where it came from, the deal, every action and the result.

    Replay it with ``GameState.from_hands(record.hands, rules)`` and
    `GameState.apply` of each action (with one deck the first lead is the same).

    Example:
        >>> from tienlen import KENNETH_LO, GameState, Pass, Play, RandomPlayer, simulate
        >>> stats = simulate(1, rules=KENNETH_LO, players=[RandomPlayer()] * 2, seed=5, record_games=True)
        >>> record = stats.records[0]
        >>> record.seed, record.batch, record.game, len(record.hands)
        ('tienlen-sim:5:0', 0, 0, 2)
        >>> state = GameState.from_hands(record.hands, KENNETH_LO)
        >>> for player, cards in record.actions:
        ...     state = state.apply(Pass(player=player) if cards == "pass" else Play(player=player, cards=cards))
        >>> state.result.scores == record.scores
        True

    .. versionadded:: 0.1
    """

    seed: str
    """The seed of the game's batch (``"tienlen-sim:{seed}:{batch}"``)."""
    batch: int
    """The batch's index."""
    game: int
    """The game's index within its batch."""
    hands: tuple[str, ...] = attrs.field(converter=_strs)
    """Every player's dealt cards, as card text."""
    actions: tuple[tuple[int, str], ...] = attrs.field(converter=_moves)
    """Every action in order, as ``(player, cards)`` with ``"pass"`` for a pass."""
    finish_order: tuple[int, ...] = attrs.field(converter=_ints)
    """Every player, first out first (`GameResult.finish_order`)."""
    scores: tuple[int, ...] = attrs.field(converter=_ints)
    """Each player's score change (`GameResult.scores`)."""
    instant_win: InstantWin | None = None
    """The instant win that ended the game at the deal, if any."""


def _records(values: Iterable[SimulatedGame]) -> tuple[SimulatedGame, ...]:
    return tuple(values)


def _add(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
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
    instant_wins: tuple[tuple[InstantWin, int], ...] = attrs.field(
        default=(), converter=_win_counts
    )
    """``(hand, count)`` for each instant win that occurred (RULES §5.4, §6.7)."""
    records: tuple[SimulatedGame, ...] = attrs.field(default=(), converter=_records)
    """One record per game, in game order, when simulated with ``record_games``."""

    @classmethod
    def empty(cls, seats: int) -> SimulationStats:
        """Stats of no games: the neutral element of `merge`.

        Example:
            >>> SimulationStats.empty(4).wins
            (0, 0, 0, 0)
        """
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
            ValueError: the stats are for different numbers of seats.

        Example:
            >>> empty = SimulationStats.empty(2)
            >>> empty.merge(empty) == empty
            True
        """
        if other.seats != self.seats:
            msg = f"cannot merge stats of {self.seats} and {other.seats} seats"
            raise ValueError(msg)
        mins = [m for m in (self.min_actions, other.min_actions) if m is not None]
        maxs = [m for m in (self.max_actions, other.max_actions) if m is not None]
        return SimulationStats(
            seats=self.seats,
            games=self.games + other.games,
            wins=_add(self.wins, other.wins),
            places=[_add(a, b) for a, b in zip(self.places, other.places, strict=True)],
            score_sums=_add(self.score_sums, other.score_sums),
            score_squares=_add(self.score_squares, other.score_squares),
            total_actions=self.total_actions + other.total_actions,
            min_actions=min(mins) if mins else None,
            max_actions=max(maxs) if maxs else None,
            bombs=_add(self.bombs, other.bombs),
            chops=_add(self.chops, other.chops),
            instant_wins=(*self.instant_wins, *other.instant_wins),
            records=(*self.records, *other.records),
        )

    def __add__(self, other: object) -> SimulationStats:
        if not isinstance(other, SimulationStats):
            return NotImplemented
        return self.merge(other)

    @property
    def win_rates(self) -> tuple[float, ...]:
        """Each seat's share of first places (``nan`` with no games)."""
        return tuple(_ratio(wins, self.games) for wins in self.wins)

    @property
    def mean_scores(self) -> tuple[float, ...]:
        """Each seat's mean score per game (``nan`` with no games)."""
        return tuple(_ratio(total, self.games) for total in self.score_sums)

    @property
    def mean_actions(self) -> float:
        """The mean number of actions per game (``nan`` with no games)."""
        return _ratio(self.total_actions, self.games)

    def instant_win_count(self, win: InstantWin) -> int:
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


class _Counter:
    """Counts bombs and catches as a game is played (the `players._Tally` protocol)."""

    __slots__ = ("bombs", "chops")

    def __init__(self, seats: int) -> None:
        self.bombs = [0] * seats
        self.chops = [0] * seats

    def count(self, state: GameState, action: Action) -> None:
        if not isinstance(action, Play):
            return
        rules = state.rules
        combo = rules.classify(action.cards)
        assert combo is not None
        if rules.is_bomb(combo.shape):
            self.bombs[action.player] += 1
        top = state.top
        if top is not None and rules.is_catch(combo, top):
            self.chops[action.player] += 1


def _run_batch(batch: _Batch) -> SimulationStats:
    """Play one batch of games; module-level so that executors can pickle it."""
    seed = f"tienlen-sim:{batch.seed}:{batch.index}"
    rng = random.Random(seed)
    seats = len(batch.players)
    counter = _Counter(seats)
    wins = [0] * seats
    places = [[0] * seats for _ in range(seats)]
    sums = [0] * seats
    squares = [0] * seats
    lengths: list[int] = []
    instant: list[tuple[InstantWin, int]] = []
    records: list[SimulatedGame] = []
    for game in range(batch.games):
        start = GameState.deal(batch.rules, seats, rng)
        final = _play(start, batch.players, rng, counter)
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
            records.append(
                SimulatedGame(
                    seed=seed,
                    batch=batch.index,
                    game=game,
                    hands=[str(hand) for hand in start.hands],
                    actions=[(a.player, str(a)) for a in final.history],
                    finish_order=result.finish_order,
                    scores=result.scores,
                    instant_win=result.instant_win,
                )
            )
    return SimulationStats(
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
        records=records,
    )


def _map(executor: MapExecutor, batches: list[_Batch]) -> Iterable[SimulationStats]:
    """``executor.map`` of the batches, one batch per task where ``map`` takes a chunksize.

    `multiprocessing.Pool` and Ray's pool otherwise send several batches per task, and
    a worker left with the last ones keeps the others waiting.
    """
    try:
        takes_chunksize = "chunksize" in inspect.signature(executor.map).parameters
    except (TypeError, ValueError):  # no signature to read (a builtin, say)
        takes_chunksize = False
    if takes_chunksize:
        chunked: Callable[..., Iterable[SimulationStats]] = executor.map
        return chunked(_run_batch, batches, chunksize=1)
    return executor.map(_run_batch, batches)


def simulate(
    n_games: int,
    *,
    rules: RuleSet,
    players: Sequence[Player],
    seed: int | str,
    executor: MapExecutor | None = None,
    batch_size: int = 250,
    record_games: bool = False,
    first_batch: int = 0,
) -> SimulationStats:
    """Play *n_games* independent games between *players* and count what happened.

    Every game is a fresh first game of a match (`GameState.deal` with
    ``first_game=True``), played with `play_game`. The games are split into batches
    of *batch_size*; batch ``i`` deals and plays from
    ``random.Random(f"tienlen-sim:{seed}:{i}")``, so the result depends only on the
    arguments, never on the executor or the machine. Batches are numbered from
    *first_batch*: a simulation of ``k * batch_size`` games merged with one starting
    at batch ``first_batch + k`` equals one longer simulation.

    Args:
        n_games: How many games to play.
        rules: The variant.
        players: One `Player` per seat; their number is the table size. They must
            be picklable to run on a process-based executor.
        seed: The simulation's seed (an int or a string).
        executor: Runs the batches: anything with ``map(fn, iterable)`` that keeps
            the order (`MapExecutor`); ``None`` runs them here, one after another.
            When its ``map`` takes a ``chunksize`` (``multiprocessing.Pool``), each
            batch is sent as its own task.
        batch_size: Games per batch (per task on an executor). About 250 amortises
            the cost of a task (PERFORMANCE.md §6).
        record_games: Whether to keep a `SimulatedGame` of every game.
        first_batch: The index of the first batch.

    Returns:
        The merged `SimulationStats` of every batch, in batch order.

    Raises:
        ValueError: a negative *n_games* or *first_batch*, or *batch_size* below 1.
        InvalidRulesError: the rules do not allow that many players.
        PlayerError: a player chose an action it was not offered.

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
    if n_games < 0 or first_batch < 0 or batch_size < 1:
        msg = (
            f"need n_games >= 0, first_batch >= 0 and batch_size >= 1; got "
            f"n_games={n_games!r}, first_batch={first_batch!r}, batch_size={batch_size!r}"
        )
        raise ValueError(msg)
    seats = len(players)
    rules.deal_size(seats)  # raises InvalidRulesError for a wrong table size
    team = tuple(players)
    batches = [
        _Batch(
            index=first_batch + number,
            games=min(batch_size, n_games - start),
            seed=seed,
            rules=rules,
            players=team,
            record=record_games,
        )
        for number, start in enumerate(range(0, n_games, batch_size))
    ]
    results = map(_run_batch, batches) if executor is None else _map(executor, batches)
    return functools.reduce(
        SimulationStats.merge, results, SimulationStats.empty(seats)
    )
