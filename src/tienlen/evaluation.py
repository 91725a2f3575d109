"""Duplicate-deal evaluation: every deal played under every seating of the players.

Deal luck is large in Tiến Lên: a hand with three 2s wins whoever holds it. `evaluate`
plays each deal once per rotation of the players round the table, so every player
holds every hand of the deal once, and reports per player (not per seat) the place
distribution, the mean score with a 95% confidence interval taken over deals (the
luck of the deal cancels inside each deal) and an Elo-style rating from who finished
ahead of whom. Results merge with ``a + b`` like `SimulationStats`.

Example:
    >>> from tienlen import CLASSIC, GreedyPlayer, RandomPlayer
    >>> stats = evaluate([GreedyPlayer(), RandomPlayer()], 40, rules=CLASSIC, seed=1)
    >>> stats.deals, stats.games, [row[0] for row in stats.places]
    (40, 80, [73, 7])
    >>> stats.mean_scores[0] > 0 > stats.ratings[1]
    True

.. versionadded:: 0.2
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import math
import random
from collections.abc import Iterable, Sequence
from typing import Final

import attrs

from tienlen._checks import check_players, check_type
from tienlen.engine.referee import play_out
from tienlen.errors import InvalidArgumentError
from tienlen.game import GameState
from tienlen.players import Player
from tienlen.rules import RuleSet, as_rules, get_rules
from tienlen.simulation import MapExecutor, Planned, add_counts, owns_exit

__all__ = [
    "BATCH_SIZE",
    "FROZEN_DEALS",
    "DealSet",
    "EvaluationStats",
    "evaluate",
    "frozen_deals",
]

_Z95: Final = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""
_ELO: Final = 400.0
_MAX_SEATS: Final = 8
"""The most players at a table (RULES §1.1: two decks)."""


def _ints(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


def _int_rows(rows: Iterable[Iterable[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(row) for row in rows)


def _rules_name(rules: RuleSet | None) -> str:
    """A rule set as the stats show it: its name, quoted."""
    return repr(None if rules is None else getattr(rules, "name", rules))


def _add_rows(
    a: Sequence[Sequence[int]], b: Sequence[Sequence[int]]
) -> tuple[tuple[int, ...], ...]:
    return tuple(add_counts(x, y) for x, y in zip(a, b, strict=True))


@attrs.frozen(kw_only=True)
class EvaluationStats:
    """What a duplicate evaluation counted, per player; merge two with ``a + b``.

    Players are numbered as passed to `evaluate`, whatever seat they held. Every count
    is an int, so merging is exact however the deals were split into batches.

    Example:
        >>> empty = EvaluationStats.empty(players=3, rotations=3)
        >>> (empty + empty).deals, empty.mean_scores
        (0, (nan, nan, nan))

    .. versionadded:: 0.2
    """

    players: int
    """How many players (and seats) there are."""
    rotations: int
    """How many games each deal gets, one per seating (the players, or 1 without rotation)."""
    deals: int = 0
    """How many deals were played."""
    places: tuple[tuple[int, ...], ...] = attrs.field(converter=_int_rows)
    """``places[place][player]``: how often *player* finished in *place* (0 is first)."""
    score_sums: tuple[int, ...] = attrs.field(converter=_ints)
    """The sum of each player's scores over all games."""
    deal_score_squares: tuple[int, ...] = attrs.field(converter=_ints)
    """The sum over deals of the square of each player's score summed over the deal."""
    ahead: tuple[tuple[int, ...], ...] = attrs.field(converter=_int_rows)
    """``ahead[a][b]``: games in which player *a* finished ahead of player *b*."""
    rules: RuleSet | None = attrs.field(default=None, repr=_rules_name)
    """The rule set the deals were played under (``None`` for `empty` stats).

    .. versionadded:: 0.3
    """

    @classmethod
    def empty(
        cls, players: int, rotations: int, rules: RuleSet | str | None = None
    ) -> EvaluationStats:
        """Stats of no deals: the neutral element of `merge`.

        Raises:
            TypeError: *players* or *rotations* is not an int, or *rules* neither a
                rule set, a preset's name nor ``None``.
            InvalidArgumentError: *players* is outside 1 to 8, or *rotations*
                outside 1 to *players*.

        Example:
            >>> EvaluationStats.empty(players=2, rotations=2).places
            ((0, 0), (0, 0))
        """
        for name, value, most in (
            ("players", players, _MAX_SEATS),
            ("rotations", rotations, players),
        ):
            if type(value) is not int:
                msg = f"{name} must be an int, not {type(value).__name__}"
                raise TypeError(msg)
            if not 1 <= value <= most:
                msg = f"{name} must be 1 to {most}, got {value}"
                raise InvalidArgumentError(msg)
        zeros = (0,) * players
        return cls(
            players=players,
            rotations=rotations,
            places=(zeros,) * players,
            score_sums=zeros,
            deal_score_squares=zeros,
            ahead=(zeros,) * players,
            rules=None if rules is None else as_rules(rules),
        )

    @property
    def games(self) -> int:
        """How many games were played (deals times rotations).

        Example:
            >>> from tienlen import CLASSIC, GreedyPlayer, RandomPlayer
            >>> bots = [GreedyPlayer(), RandomPlayer(), RandomPlayer()]
            >>> stats = evaluate(bots, 5, rules=CLASSIC, seed=1)
            >>> stats.deals, stats.rotations, stats.games
            (5, 3, 15)
        """
        return self.deals * self.rotations

    def merge(self, other: EvaluationStats) -> EvaluationStats:
        """Both evaluations together (of the same rule set: stats without one take the other's).

        Raises:
            TypeError: *other* is not an `EvaluationStats`.
            InvalidArgumentError: the stats are for different numbers of players or
                rotations, or for different rule sets.

        Example:
            >>> from tienlen import POKER, GreedyPlayer
            >>> bots = [GreedyPlayer()] * 3
            >>> a = evaluate(bots, 4, rules=POKER, seed=2, batch_size=2)
            >>> b = evaluate(bots, 2, rules=POKER, seed=2, batch_size=2)
            >>> c = evaluate(bots, 2, rules=POKER, seed=2, batch_size=2, first_batch=1)
            >>> a == b + c
            True
        """
        check_type("other", other, EvaluationStats)
        if (other.players, other.rotations) != (self.players, self.rotations):
            msg = (
                f"cannot merge stats of {self.players} players x {self.rotations} "
                f"rotations with {other.players} x {other.rotations}"
            )
            raise InvalidArgumentError(msg)
        rules = self.rules if other.rules is None else other.rules
        if self.rules is not None and other.rules is not None and self.rules != rules:
            msg = (
                f"cannot merge stats of rule set {_rules_name(self.rules)} "
                f"with stats of {_rules_name(other.rules)}"
            )
            if _rules_name(self.rules) == _rules_name(other.rules):
                msg += " (another rule set of that name)"
            raise InvalidArgumentError(msg)
        return EvaluationStats(
            rules=rules,
            players=self.players,
            rotations=self.rotations,
            deals=self.deals + other.deals,
            places=_add_rows(self.places, other.places),
            score_sums=add_counts(self.score_sums, other.score_sums),
            deal_score_squares=add_counts(
                self.deal_score_squares, other.deal_score_squares
            ),
            ahead=_add_rows(self.ahead, other.ahead),
        )

    def __add__(self, other: object) -> EvaluationStats:
        if not isinstance(other, EvaluationStats):
            return NotImplemented
        return self.merge(other)

    @property
    def mean_scores(self) -> tuple[float, ...]:
        """Each player's mean score per game (``nan`` with no games).

        Example:
            >>> from tienlen import CLASSIC, GreedyPlayer, RandomPlayer
            >>> bots = [GreedyPlayer(), RandomPlayer(), RandomPlayer()]
            >>> evaluate(bots, 5, rules=CLASSIC, seed=1).mean_scores
            (1.0, -0.4, -0.6)
        """
        games = self.games
        return tuple(total / games if games else math.nan for total in self.score_sums)

    def confidence_interval(self, player: int) -> tuple[float, float]:
        """A 95% confidence interval for *player*'s mean score, over deals.

        Each deal gives one value, the player's mean score over its rotations; the
        interval is their mean ± 1.96 standard errors (normal approximation), so the
        luck of the deal, shared by the rotations, does not widen it. ``(nan, nan)``
        with fewer than two deals.

        Example:
            >>> from tienlen import VIETCONG, GreedyPlayer, RandomPlayer
            >>> stats = evaluate([GreedyPlayer(), RandomPlayer()], 30, rules=VIETCONG, seed=3)
            >>> low, high = stats.confidence_interval(0)
            >>> low < stats.mean_scores[0] < high
            True
        """
        n = self.deals
        if n < 2:
            return math.nan, math.nan
        r = self.rotations
        total = self.score_sums[player] / r
        squares = self.deal_score_squares[player] / (r * r)
        variance = max(0.0, (squares - total * total / n) / (n - 1))
        mean = total / n
        half = _Z95 * math.sqrt(variance / n)
        return mean - half, mean + half

    @property
    def ratings(self) -> tuple[float, ...]:
        """Each player's Elo-style rating against the others, from finishing order.

        Every game counts, for each pair of players, one win for the one who
        finished ahead. A player who finished ahead in a share *p* of its pairings
        rates ``400 * log10(p / (1 - p))``: 0 for an even player, +191 for winning
        three pairings in four. *p* is smoothed by half a pairing each way, so a
        player who always wins gets a large finite rating (``nan`` with no games).

        Example:
            >>> from tienlen import CLASSIC, GreedyPlayer
            >>> stats = evaluate([GreedyPlayer()] * 4, 10, rules=CLASSIC, seed=4)
            >>> [round(r, 6) for r in stats.ratings]
            [0.0, 0.0, 0.0, 0.0]
        """
        ratings = []
        for player in range(self.players):
            wins = sum(self.ahead[player])
            pairings = wins + sum(row[player] for row in self.ahead)
            if not pairings:
                ratings.append(math.nan)
                continue
            share = (wins + 0.5) / (pairings + 1)
            ratings.append(_ELO * math.log10(share / (1 - share)))
        return tuple(ratings)

    def summary(self) -> str:
        """A small text table: per player, mean score ± CI half-width, rating, places.

        Example:
            >>> from tienlen import CLASSIC, GreedyPlayer, RandomPlayer
            >>> stats = evaluate([GreedyPlayer(), RandomPlayer()], 50, rules=CLASSIC, seed=1)
            >>> print(stats.summary())
            50 deals x 2 rotations = 100 games
            player  mean score        rating  places (1st..last)
                 0  +0.860 ± 0.112    +438.3  93 7
                 1  -0.860 ± 0.112    -438.3  7 93
        """
        lines = [
            f"{self.deals} deals x {self.rotations} rotations = {self.games} games",
            "player  mean score        rating  places (1st..last)",
        ]
        for player in range(self.players):
            low, high = self.confidence_interval(player)
            score = f"{self.mean_scores[player]:+.3f} ± {(high - low) / 2:.3f}"
            places = " ".join(str(row[player]) for row in self.places)
            lines.append(
                f"{player:6d}  {score:<16}  {self.ratings[player]:+6.1f}  {places}"
            )
        return "\n".join(lines)


@attrs.frozen(kw_only=True)
class _Batch:
    """One batch of deals: a picklable task for an executor (private)."""

    index: int
    deals: int
    seed: int | str
    rules: RuleSet
    players: tuple[Player, ...]
    rotations: int


def _run_batch(batch: _Batch) -> EvaluationStats:
    """Play one batch of deals under every rotation; module-level for pickling.

    Raises:
        PlayerError: a player failed a decision (a bot's `SystemExit` or
            `KeyboardInterrupt` too, as in `simulate`).
    """
    players = batch.players
    n = len(players)
    seed = f"tienlen-eval:{batch.seed}:{batch.index}"
    deal_rng = random.Random(seed)
    places = [[0] * n for _ in range(n)]
    sums = [0] * n
    squares = [0] * n
    ahead = [[0] * n for _ in range(n)]
    for deal in range(batch.deals):
        start = GameState.deal(batch.rules, n, deal_rng)
        deal_sums = [0] * n
        for rotation in range(batch.rotations):
            # seat s holds player (s + rotation) % n
            seated = [players[(s + rotation) % n] for s in range(n)]
            game_rng = random.Random(f"{seed}:{deal}:{rotation}")
            result = play_out(start, seated, game_rng, None, owns_exit=owns_exit).result
            assert result is not None
            order = [(seat + rotation) % n for seat in result.finish_order]
            for place, player in enumerate(order):
                places[place][player] += 1
                for behind in order[place + 1 :]:
                    ahead[player][behind] += 1
            for seat, score in enumerate(result.scores):
                deal_sums[(seat + rotation) % n] += score
        for player, total in enumerate(deal_sums):
            sums[player] += total
            squares[player] += total * total
    return EvaluationStats(
        players=n,
        rotations=batch.rotations,
        deals=batch.deals,
        places=places,
        score_sums=sums,
        deal_score_squares=squares,
        ahead=ahead,
    )


def evaluate(
    players: Sequence[Player],
    deals: int,
    rotate_seats: bool = True,  # noqa: FBT001, FBT002
    *,
    rules: RuleSet | str,
    seed: int | str,
    executor: MapExecutor | None = None,
    batch_size: int = 25,
    first_batch: int = 0,
) -> EvaluationStats:
    """Play *deals* duplicate deals between *players* and count what happened per player.

    Each deal (a fresh first game, `GameState.deal`) is played once per rotation of
    the players round the table: in rotation ``r`` seat ``s`` holds player
    ``(s + r) % n``, so with *rotate_seats* every player holds every seat's hand once.
    Deals are split into batches of *batch_size*; batch ``i`` deals from
    ``random.Random(f"tienlen-eval:{seed}:{i}")`` and plays game ``(deal, r)`` from its
    own ``random.Random``, so the result depends only on the arguments, never on the
    executor. As in `simulate`, batches are numbered from *first_batch*, and
    evaluations of consecutive batch ranges merge into the longer one.

    Args:
        players: One `Player` per seat; their number is the table size. They must
            be picklable to run on a process-based executor.
        deals: How many deals to play.
        rotate_seats: Whether to play every rotation (else one game per deal, each
            player in its own seat).
        rules: The variant, or a preset's name (`get_rules`: ``"classic"``).
        seed: The evaluation's seed (an int or a string).
        executor: Runs the batches: anything with ``map(fn, iterable)`` that keeps
            the order (`MapExecutor`); ``None`` runs them here.
        batch_size: Deals per batch (per task on an executor).
        first_batch: The index of the first batch.

    Returns:
        The merged `EvaluationStats` of every batch, naming *rules*.

    Raises:
        TypeError: *rules* is neither a rule set nor a name, or *players* is not a
            sequence of players (each with an ``act`` method).
        UnknownVariantError: *rules* names no preset.
        InvalidArgumentError: a negative *deals* or *first_batch*, or *batch_size* below 1.
        InvalidRulesError: the rules do not allow that many players.
        PlayerError: a player failed a decision, as in `play_game`: it raised
            (its own ``SystemExit`` or ``KeyboardInterrupt`` too, as in `simulate`),
            or chose an action it was not offered.

    Example:
        >>> from concurrent.futures import ThreadPoolExecutor
        >>> from tienlen import KENNETH_LO, GreedyPlayer, RandomPlayer
        >>> bots = [GreedyPlayer(), RandomPlayer(), RandomPlayer()]
        >>> serial = evaluate(bots, 6, rules=KENNETH_LO, seed=5, batch_size=2)
        >>> with ThreadPoolExecutor(2) as pool:
        ...     threaded = evaluate(bots, 6, rules=KENNETH_LO, seed=5, batch_size=2, executor=pool)
        >>> serial == threaded, serial.games
        (True, 18)
    """
    for name, value in (("deals", deals), ("first_batch", first_batch)):
        if type(value) is not int or value < 0:
            msg = f"{name} must be a non-negative int, got {value!r}"
            raise InvalidArgumentError(msg)
    if type(batch_size) is not int or batch_size < 1:
        msg = f"batch_size must be a positive int, got {batch_size!r}"
        raise InvalidArgumentError(msg)
    check_players(players)
    rules = as_rules(rules)
    seats = len(players)
    rules.deal_size(seats)  # raises InvalidRulesError for a wrong table size
    rotations = seats if rotate_seats else 1
    team = tuple(players)
    batches = Planned(  # made as they are run, as in `simulate`
        range(first_batch, first_batch + -(-deals // batch_size)),
        lambda index: _Batch(
            index=index,
            deals=min(batch_size, deals - (index - first_batch) * batch_size),
            seed=seed,
            rules=rules,
            players=team,
            rotations=rotations,
        ),
    )
    if executor is None:
        results: Iterable[EvaluationStats] = map(_run_batch, batches)
    else:
        results = _map(executor, batches)
    total = functools.reduce(
        EvaluationStats.merge, results, EvaluationStats.empty(seats, rotations)
    )
    return attrs.evolve(total, rules=rules)  # the caller's, not a worker's copy


def _map(executor: MapExecutor, batches: Iterable[_Batch]) -> Iterable[EvaluationStats]:
    """``executor.map`` of the batches, one batch per task where ``map`` takes a chunksize."""
    try:
        takes_chunksize = "chunksize" in inspect.signature(executor.map).parameters
    except (TypeError, ValueError):  # no signature to read (a builtin, say)
        takes_chunksize = False
    if takes_chunksize:
        return executor.map(_run_batch, batches, chunksize=1)  # type: ignore[call-arg]
    return executor.map(_run_batch, batches)


@attrs.frozen(kw_only=True)
class DealSet:
    """A frozen evaluation deal set: fixed deals that papers and benchmarks can cite.

    `evaluate` with this set's `rules`, `deals` and `seed` (and the default batch size,
    `BATCH_SIZE`) plays exactly the deals of `states`; `DealSet.evaluate` does so.
    `fingerprint` is a digest of every hand of every deal, pinned by the test suite:
    a change of the dealer or of the seeding that would change the deals fails it.

    Example:
        >>> deal_set = frozen_deals("classic-150-v1")
        >>> deal_set.rules.name, deal_set.players, deal_set.deals, deal_set.seed
        ('classic', 4, 150, 'classic-150-v1')
        >>> first = next(iter(deal_set.states()))
        >>> len(first.hands[0])
        13

    .. versionadded:: 0.3
    """

    name: str
    """The set's citable name, such as ``"classic-150-v1"``."""
    rules: RuleSet
    """The variant dealt."""
    players: int
    """The table size."""
    deals: int
    """How many deals."""
    seed: str
    """The `evaluate` seed that deals them."""

    def states(self) -> Iterable[GameState]:
        """The deals, in order: each one's opening `GameState` (the deals `evaluate` plays).

        Example:
            >>> deals = list(frozen_deals("poker-150-v1").states())
            >>> len(deals), deals[0].rules.name
            (150, 'poker')
        """
        for index, start in enumerate(range(0, self.deals, BATCH_SIZE)):
            deal_rng = random.Random(f"tienlen-eval:{self.seed}:{index}")
            for _ in range(min(BATCH_SIZE, self.deals - start)):
                yield GameState.deal(self.rules, self.players, deal_rng)

    @property
    def fingerprint(self) -> str:
        """The first 16 hex digits of a SHA-256 of every hand of every deal, in order.

        Example:
            >>> len(frozen_deals("classic-150-v1").fingerprint)
            16
        """
        digest = hashlib.sha256()
        for state in self.states():
            for hand in state.hands:
                digest.update(hand.mask.to_bytes(8, "big"))
        return digest.hexdigest()[:16]

    def evaluate(
        self, players: Sequence[Player], executor: MapExecutor | None = None
    ) -> EvaluationStats:
        """`evaluate` *players* (one per seat) on every deal of the set, every rotation.

        Raises:
            InvalidArgumentError: not one player per seat of the set.

        Example:
            >>> from tienlen import GreedyPlayer
            >>> small = DealSet(name="demo", rules=frozen_deals("poker-150-v1").rules, players=4, deals=2, seed="demo")
            >>> small.evaluate([GreedyPlayer()] * 4).games
            8
        """
        if len(players) != self.players:
            msg = f"the {self.name!r} deals seat {self.players} players, got {len(players)}"
            raise InvalidArgumentError(msg)
        return evaluate(
            players,
            self.deals,
            rules=self.rules,
            seed=self.seed,
            executor=executor,
            batch_size=BATCH_SIZE,
        )


BATCH_SIZE: Final = 25
"""`evaluate`'s default batch size, which frozen deal sets are dealt with."""

FROZEN_DEALS: Final = ("classic-150-v1", "poker-150-v1")
"""The names of the frozen deal sets: ``<preset>-<deals>-v<version>``, four players,
seeded by their own name. A set's deals never change; new deals get a new version."""


def frozen_deals(name: str) -> DealSet:
    """The frozen evaluation deal set called *name* (one of `FROZEN_DEALS`).

    Raises:
        InvalidArgumentError: no frozen deal set has that name.

    Example:
        >>> frozen_deals("poker-150-v1").rules.name
        'poker'
        >>> frozen_deals("classic-9-v1")
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidArgumentError: no frozen deal set 'classic-9-v1'; known: classic-150-v1, poker-150-v1
    """
    if not isinstance(name, str):
        msg = f"expected a deal set's name, got {name!r}"  # type: ignore[unreachable]
        raise TypeError(msg)
    if name not in FROZEN_DEALS:
        msg = f"no frozen deal set {name!r}; known: {', '.join(FROZEN_DEALS)}"
        raise InvalidArgumentError(msg)
    preset, deals, _ = name.rsplit("-", 2)
    return DealSet(
        name=name, rules=get_rules(preset), players=4, deals=int(deals), seed=name
    )
