"""A game reviewed decision by decision: `analyse` and its `GameAnalysis`.

For every decision of a finished game where the player had more than one legal
action, `analyse` values the candidates and the action played (`value_actions`, over
the worlds the player could not tell apart), and measures the **loss**: how much
less the played action is expected to score than the best candidate. A loss is
turned into a *win-chance loss* in percentage points by dividing it by the rule
set's score range (`score_range`), which labels it (`Label`) and gives the player's
accuracy, in the functional form Lichess uses for chess.

Example:
    >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
    >>> import random
    >>> game = play_game(GameState.deal(CLASSIC, players=2, seed=4), [GreedyPlayer()] * 2, random.Random(0))
    >>> review = analyse(game, budget=4)
    >>> len(review.decisions) > 0, sorted(review.accuracy) == [0, 1]
    (True, True)

.. versionadded:: 0.3
"""

from __future__ import annotations

import concurrent.futures
import enum
import importlib
import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final

import attrs

from tienlen._checks import check_count
from tienlen.analysis.values import (
    DEFAULT_BUDGET,
    DEFAULT_CANDIDATES,
    ActionValue,
    Estimate,
    seat_actions,
    value_actions,
    with_perfect,
)
from tienlen.errors import InvalidArgumentError, TienLenError
from tienlen.game import Action, GameState, Pass, Play
from tienlen.records import GameRecord, record
from tienlen.rules import RuleSet, as_rules
from tienlen.scoring import StakeScorer

__all__ = [
    "FORMAT",
    "THRESHOLDS",
    "VERSION",
    "AnalysisCancelledError",
    "AnalysisFormatError",
    "GameAnalysis",
    "Label",
    "ReviewedDecision",
    "accuracy_of",
    "analyse",
    "score_range",
]

FORMAT: Final = "tienlen-analysis"
"""The ``"format"`` field of an analysis in JSON."""
VERSION: Final = 1
"""The JSON schema version `GameAnalysis.to_json` writes and `GameAnalysis.from_json` reads."""
POKER_RANGES: Final[Mapping[int, float]] = {2: 19.0, 3: 16.0, 4: 11.0}
"""Poker's score range by table size, from the 1st to the 99th percentile of a
seat's score in 1,500 Greedy self-play games (docs/analysis.md)."""
_OTHER_RANGE: Final = 12.0
"""The range of a scorer not measured (other table sizes, a custom scorer)."""
ACCURACY_A: Final = 103.1668
ACCURACY_C: Final = 3.1669
ACCURACY_K: Final = 0.02177
"""Lichess's ``103.1668·exp(−0.04354·x) − 3.1669``, its decay refitted to the blunder
threshold: a blunder by a hair scores 50.5, as a Lichess blunder does (docs/analysis.md)."""


class Label(enum.StrEnum):
    """How bad a decision was, by its win-chance loss (`THRESHOLDS`).

    Example:
        >>> [label.value for label in Label]
        ['inaccuracy', 'mistake', 'blunder']
    """

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


THRESHOLDS: Final[Mapping[Label, float]] = {
    Label.BLUNDER: 30.0,
    Label.MISTAKE: 20.0,
    Label.INACCURACY: 10.0,
}
"""The least win-chance loss (percentage points) of each label, worst first. A mistake
or a blunder also needs its loss's 95% interval above zero (docs/analysis.md)."""


class AnalysisCancelledError(TienLenError, RuntimeError):
    """The progress callback asked `analyse` to stop (it returned ``False``).

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
        >>> deal = GameState.deal(CLASSIC, players=2, seed=4)
        >>> game = play_game(deal, [GreedyPlayer()] * 2, random.Random(0))
        >>> analyse(game, budget=1, progress=lambda done, total: done < 3)
        Traceback (most recent call last):
        ...
        tienlen.analysis.review.AnalysisCancelledError: analysis cancelled after 3 of 22 decisions
    """


def score_range(rules: RuleSet, players: int) -> float:
    """The spread of one seat's final score under *rules*: a loss of this much is 100 points.

    Under stakes the best score and the worst differ by *players* stakes (a loss of
    it turns a sure first place into a sure last); under Poker, by the measured
    `POKER_RANGES`.

    Raises:
        TypeError: *rules* is no rule set, or *players* not an ``int``.
        InvalidArgumentError: *players* is below 2.

    Example:
        >>> from tienlen import CLASSIC, POKER
        >>> score_range(CLASSIC, 4), score_range(POKER, 4)
        (4.0, 11.0)
    """
    rules = as_rules(rules)
    check_count("players", players, 2)
    if type(rules.scorer) is StakeScorer:
        return float(players)
    return POKER_RANGES.get(players, _OTHER_RANGE)


def accuracy_of(win_loss: float) -> float:
    """The accuracy (0–100) of a decision that lost *win_loss* points of win chance.

    Example:
        >>> accuracy_of(0.0), round(accuracy_of(30.0), 1), round(accuracy_of(100.0), 1)
        (99.9999, 50.5, 8.5)
    """
    raw = ACCURACY_A * math.exp(-ACCURACY_K * max(0.0, win_loss)) - ACCURACY_C
    return max(0.0, min(100.0, raw))


def label_of(win_loss: float, loss: Estimate) -> Label | None:
    """The label of a decision (see `THRESHOLDS`), or ``None``."""
    for label, least in THRESHOLDS.items():
        if win_loss >= least and (label is Label.INACCURACY or loss.low > 0):
            return label
    return None


@attrs.frozen
class ReviewedDecision:
    """One reviewed decision.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
        >>> deal = GameState.deal(CLASSIC, players=2, seed=4)
        >>> game = play_game(deal, [GreedyPlayer()] * 2, random.Random(0))
        >>> review = analyse(game, budget=2)
        >>> decision = review.decisions[0]
        >>> decision.index, decision.seat, str(decision.played.action)
        (1, 0, '4h')
        >>> [str(value.action) for value in decision.best], decision.label
        (['pass', 'Qh', '4h'], <Label.INACCURACY: 'inaccuracy'>)
    """

    index: int
    """The action's index in the game's history."""
    seat: int
    """Who decided."""
    played: ActionValue
    """The action played, with its value."""
    best: tuple[ActionValue, ...]
    """The best candidates, best first (the perfect column filled in)."""
    loss: Estimate
    """How much less the played action is expected to score than the best, with a
    paired 95% interval (the same worlds for both)."""
    win_loss: float
    """`loss` as percentage points of win chance (`score_range`)."""
    label: Label | None
    """The decision's label, or ``None`` for a good one."""

    @property
    def accuracy(self) -> float:
        """This decision's accuracy, 0–100 (`accuracy_of`).

        Example:
            >>> from tienlen.analysis.values import Estimate
            >>> ReviewedDecision(0, 0, None, (), Estimate(0.0, 0.0, 0.0), 0.0, None).accuracy
            99.9999
        """
        return accuracy_of(self.win_loss)


@attrs.frozen
class GameAnalysis:
    """A reviewed game: every decision with more than one action, and per-player figures.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
        >>> deal = GameState.deal(CLASSIC, players=2, seed=4)
        >>> game = play_game(deal, [GreedyPlayer()] * 2, random.Random(0))
        >>> review = analyse(game, budget=2)
        >>> review.rules, review.players, len(review.decisions)
        ('classic', 2, 22)
    """

    rules: str
    """The rule set's name."""
    players: int
    budget: int
    """Worlds sampled per decision."""
    seed: int
    decisions: tuple[ReviewedDecision, ...]

    @property
    def accuracy(self) -> dict[int, float]:
        """Each player's accuracy, the mean of its decisions' (players with one).

        Example:
            >>> GameAnalysis("classic", 2, 8, 0, ()).accuracy
            {}
        """
        seats: dict[int, list[float]] = {}
        for decision in self.decisions:
            seats.setdefault(decision.seat, []).append(decision.accuracy)
        return {seat: sum(a) / len(a) for seat, a in sorted(seats.items())}

    def labelled(self, seat: int | None = None) -> tuple[ReviewedDecision, ...]:
        """The decisions with a label, of *seat* (every seat's by default).

        Example:
            >>> import random
            >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
            >>> deal = GameState.deal(CLASSIC, players=2, seed=4)
            >>> game = play_game(deal, [GreedyPlayer()] * 2, random.Random(0))
            >>> review = analyse(game, budget=2)
            >>> [(d.index, d.label.value) for d in review.labelled(1)]
            [(6, 'inaccuracy'), (12, 'inaccuracy')]
        """
        return tuple(
            d
            for d in self.decisions
            if d.label is not None and (seat is None or d.seat == seat)
        )

    def biggest_losses(self, n: int = 3) -> tuple[ReviewedDecision, ...]:
        """The *n* decisions that lost the most expected score, biggest first.

        Example:
            >>> import random
            >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
            >>> deal = GameState.deal(CLASSIC, players=2, seed=4)
            >>> game = play_game(deal, [GreedyPlayer()] * 2, random.Random(0))
            >>> review = analyse(game, budget=2)
            >>> [(d.index, d.loss.mean) for d in review.biggest_losses(2)]
            [(13, 2.0), (1, 1.0)]
        """
        ranked = sorted(self.decisions, key=lambda d: (-d.loss.mean, d.index))
        return tuple(ranked[:n])

    def to_json(self) -> dict[str, object]:
        """The analysis as JSON data (schema in docs/analysis.md, version `tienlen.analysis.review.VERSION`).

        Example:
            >>> import random
            >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
            >>> deal = GameState.deal(CLASSIC, players=2, seed=4)
            >>> game = play_game(deal, [GreedyPlayer()] * 2, random.Random(0))
            >>> review = analyse(game, budget=2)
            >>> data = review.to_json()
            >>> data["format"], data["version"], data["decisions"][0]["label"]
            ('tienlen-analysis', 1, 'inaccuracy')
        """
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules,
            "players": self.players,
            "budget": self.budget,
            "seed": self.seed,
            "accuracy": {str(seat): round(a, 2) for seat, a in self.accuracy.items()},
            "decisions": [_decision_json(d) for d in self.decisions],
        }

    @classmethod
    def from_json(cls, data: object) -> GameAnalysis:
        """Read back what `to_json` wrote.

        Raises:
            AnalysisFormatError: *data* is not an analysis of a version read here.

        Example:
            >>> import random
            >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
            >>> deal = GameState.deal(CLASSIC, players=2, seed=4)
            >>> game = play_game(deal, [GreedyPlayer()] * 2, random.Random(0))
            >>> review = analyse(game, budget=2)
            >>> GameAnalysis.from_json(review.to_json()) == review
            True
        """
        try:
            return _read(data)
        except (KeyError, TypeError, ValueError, IndexError) as error:
            if isinstance(error, TienLenError):
                raise
            msg = f"not a tienlen analysis: {error!r}"[:300]
            raise AnalysisFormatError(msg) from None


class AnalysisFormatError(TienLenError, ValueError):
    """JSON that is not an analysis `GameAnalysis.from_json` reads.

    Example:
        >>> GameAnalysis.from_json({"format": "tienlen-game"})
        Traceback (most recent call last):
        ...
        tienlen.analysis.review.AnalysisFormatError: not a tienlen analysis: no "format": "tienlen-analysis"
    """


def _estimate_json(estimate: Estimate) -> list[float]:
    return [estimate.mean, estimate.low, estimate.high]


def _action_json(action: Action) -> dict[str, object]:
    cards = None if isinstance(action, Pass) else str(action.cards)
    return {"player": action.player, "cards": cards}


def _value_json(value: ActionValue) -> dict[str, object]:
    return {
        "action": _action_json(value.action),
        "score": _estimate_json(value.score),
        "first": _estimate_json(value.first),
        "perfect": value.perfect,
        "perfect_exact": value.perfect_exact,
    }


def _decision_json(decision: ReviewedDecision) -> dict[str, object]:
    return {
        "index": decision.index,
        "seat": decision.seat,
        "played": _value_json(decision.played),
        "best": [_value_json(value) for value in decision.best],
        "loss": _estimate_json(decision.loss),
        "win_loss": decision.win_loss,
        "label": None if decision.label is None else decision.label.value,
    }


def _read(data: object) -> GameAnalysis:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        msg = f'not a tienlen analysis: no "format": "{FORMAT}"'
        raise AnalysisFormatError(msg)
    if data.get("version") != VERSION:
        msg = f"analysis version {data.get('version')!r} is not read here (only {VERSION})"
        raise AnalysisFormatError(msg)
    return GameAnalysis(
        _str(data["rules"]),
        _int(data["players"]),
        _int(data["budget"]),
        _int(data["seed"]),
        tuple(_read_decision(item) for item in data["decisions"]),
    )


def _int(value: object) -> int:
    if type(value) is not int:
        raise TypeError(value)
    return value


def _str(value: object) -> str:
    if type(value) is not str:
        raise TypeError(value)
    return value


def _read_estimate(value: object) -> Estimate:
    mean, low, high = (float(x) for x in value)  # type: ignore[attr-defined]
    return Estimate(mean, low, high)


def _read_action(value: Mapping[str, object]) -> Action:
    player = _int(value["player"])
    cards = value["cards"]
    if cards is None:
        return Pass(player=player)
    return Play(player=player, cards=_str(cards))


def _read_value(value: Mapping[str, object]) -> ActionValue:
    perfect = value["perfect"]
    return ActionValue(
        _read_action(value["action"]),  # type: ignore[arg-type]
        _read_estimate(value["score"]),
        _read_estimate(value["first"]),
        None if perfect is None else float(perfect),  # type: ignore[arg-type]
        perfect_exact=bool(value["perfect_exact"]),
        samples=(),
    )


def _read_decision(value: Mapping[str, object]) -> ReviewedDecision:
    label = value["label"]
    return ReviewedDecision(
        _int(value["index"]),
        _int(value["seat"]),
        _read_value(value["played"]),  # type: ignore[arg-type]
        tuple(_read_value(v) for v in value["best"]),  # type: ignore[attr-defined]
        _read_estimate(value["loss"]),
        float(value["win_loss"]),  # type: ignore[arg-type]
        None if label is None else Label(_str(label)),
    )


def replay(game: GameRecord | GameState) -> list[GameState]:
    """Every state of a finished *game*, from its start to its end.

    Raises:
        TypeError: *game* is neither a record nor a `GameState`.
        InvalidArgumentError: the game is not over.
    """
    if isinstance(game, GameRecord):
        states = list(game.states())
    elif isinstance(game, GameState):
        states = list(record(game).states())
    else:
        msg = f"expected a GameRecord or a GameState, got {type(game).__name__}"  # type: ignore[unreachable]
        raise TypeError(msg)
    if not states[-1].is_over:
        msg = "the game is not over: analyse reviews finished games"
        raise InvalidArgumentError(msg)
    return states


def decisions_of(states: Sequence[GameState]) -> list[tuple[int, GameState, Action]]:
    """The decisions with more than one action: (index, state before, action taken)."""
    found = []
    for index, (before, after) in enumerate(itertools.pairwise(states)):
        action = after.history[-1]
        if len(seat_actions(before, action.player)) > 1:
            found.append((index, before, action))
    return found


@attrs.frozen
class _Task:
    """One decision to value (picklable: sent to worker processes)."""

    index: int
    state: GameState
    action: Action
    budget: int
    k: int
    max_candidates: int
    seed: int

    def __call__(self) -> ReviewedDecision:
        seat = self.action.player
        values = value_actions(
            self.state,
            seat,
            budget=self.budget,
            max_candidates=self.max_candidates,
            include=[self.action],
            seed=self.seed,
        )
        played = next(v for v in values if v.action == self.action)
        best = values[0]
        loss = Estimate.of_scores(
            [b - p for b, p in zip(best.samples, played.samples, strict=True)]
        )
        spread = score_range(self.state.rules, self.state.players)
        win_loss = round(100.0 * max(0.0, loss.mean) / spread, 6)
        top = tuple(with_perfect(self.state, seat, v) for v in values[: self.k])
        if played not in top:
            played = with_perfect(self.state, seat, played)
        else:
            played = top[top.index(played)]
        return ReviewedDecision(
            self.index, seat, played, top, loss, win_loss, label_of(win_loss, loss)
        )


def _run(fields: tuple[int, GameState, Action, int, int, int, int]) -> ReviewedDecision:
    """Value one decision in a worker process (plain fields: see `_map`)."""
    return _Task(*fields)()


def analyse(
    game: GameRecord | GameState,
    *,
    budget: int = DEFAULT_BUDGET,
    seats: Iterable[int] | None = None,
    workers: int = 1,
    progress: Callable[[int, int], bool | None] | None = None,
    k: int = 3,
    max_candidates: int = DEFAULT_CANDIDATES,
    seed: int = 0,
) -> GameAnalysis:
    """Review every decision of a finished game (see the module).

    Args:
        game: A game record (`tienlen.records`) or a finished `GameState` (its
            history from the deal).
        budget: Worlds sampled per decision.
        seats: The seats whose decisions to review (every seat by default).
        workers: Processes to value decisions in (1: this one).
        progress: Called as ``progress(done, total)`` after each decision; returning
            ``False`` cancels the analysis (`AnalysisCancelledError`).
        k: Best candidates kept per decision.
        max_candidates: Candidates valued per decision.
        seed: The seed; decision *i* uses worlds seeded from ``(seed, i)``.

    Raises:
        TypeError: *game* is neither a record nor a `GameState`.
        InvalidArgumentError: the game is not over, or a count is out of range.
        AnalysisCancelledError: *progress* returned ``False``.
        tienlen.search.sampling.SamplingError: a game no deal leads to (a puzzle
            position), whose hidden hands cannot be sampled.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
        >>> deal = GameState.deal(CLASSIC, players=2, seed=4)
        >>> game = play_game(deal, [GreedyPlayer()] * 2, random.Random(0))
        >>> review = analyse(game, budget=2)
        >>> review.accuracy
        {0: 80.97270572190935, 1: 86.31422967485679}
    """
    check_count("budget", budget, 1)
    check_count("workers", workers, 1)
    check_count("k", k, 1)
    check_count("seed", seed, 0)
    states = replay(game)
    found = decisions_of(states)
    chosen = None if seats is None else set(seats)
    tasks = [
        _Task(index, state, action, budget, k, max_candidates, seed * 1_000_003 + index)
        for index, state, action in found
        if chosen is None or action.player in chosen
    ]
    decisions = list(_map(tasks, workers, progress))
    start = states[0]
    return GameAnalysis(start.rules.name, start.players, budget, seed, tuple(decisions))


def _map(
    tasks: Sequence[_Task],
    workers: int,
    progress: Callable[[int, int], bool | None] | None,
) -> Iterable[ReviewedDecision]:
    """Each task's decision, in order, telling *progress* after each."""
    total = len(tasks)
    if workers == 1:
        for done, task in enumerate(tasks, 1):
            decision = task()
            _tell(progress, done, total)
            yield decision
        return
    # The worker function is looked up by name now, and sent plain fields, so that
    # a module imported twice (pytest's doctests import it again) still pickles.
    run = getattr(importlib.import_module(__name__), "_run")  # noqa: B009
    with concurrent.futures.ProcessPoolExecutor(workers) as pool:
        futures = [
            pool.submit(run, attrs.astuple(task, recurse=False)) for task in tasks
        ]
        try:
            for done, future in enumerate(futures, 1):
                decision = future.result()
                _tell(progress, done, total)
                yield decision
        finally:
            for future in futures:
                future.cancel()


def _tell(
    progress: Callable[[int, int], bool | None] | None, done: int, total: int
) -> None:
    if progress is not None and progress(done, total) is False:
        msg = f"analysis cancelled after {done} of {total} decisions"
        raise AnalysisCancelledError(msg)
