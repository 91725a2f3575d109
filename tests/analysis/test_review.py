"""`analyse`: a finished game reviewed decision by decision, and its JSON."""

from __future__ import annotations

import json
import random

import pytest

from tienlen import (
    CLASSIC,
    GameState,
    GreedyPlayer,
    InvalidArgumentError,
    RandomPlayer,
    play_game,
)
from tienlen.analysis import (
    AnalysisCancelledError,
    AnalysisFormatError,
    GameAnalysis,
    Label,
    analyse,
)
from tienlen.analysis.review import THRESHOLDS, accuracy_of, label_of, replay
from tienlen.analysis.values import Estimate
from tienlen.records import record


def small_game(seed: int = 4) -> GameState:
    """A finished two-player game of Greedy against Random."""
    deal = GameState.deal(CLASSIC, players=2, seed=seed)
    return play_game(deal, [GreedyPlayer(), RandomPlayer()], random.Random(seed))


def test_every_decision_with_a_choice_is_reviewed() -> None:
    """Decisions with one action are skipped; the rest name what was played."""
    game = small_game()
    review = analyse(game, budget=3)
    states = replay(game)
    indices = [d.index for d in review.decisions]
    assert indices == sorted(indices)
    assert indices
    for decision in review.decisions:
        before = states[decision.index]
        assert decision.played.action == game.history[decision.index]
        assert decision.seat == decision.played.action.player
        assert len(before.legal_actions()) > 1
        assert decision.loss.mean >= 0
        assert decision.best[0].score.mean >= decision.played.score.mean
        assert decision.best[0].perfect is not None
    reviewed = set(indices)
    for index, before in enumerate(states[:-1]):
        if index not in reviewed:
            assert len(before.legal_actions()) == 1


def test_a_record_and_its_final_state_give_the_same_review() -> None:
    """A `GameRecord` or the finished state: the same analysis, deterministic."""
    game = small_game(5)
    assert analyse(record(game), budget=2) == analyse(game, budget=2)


def test_seats_progress_and_cancellation() -> None:
    """Only the seats asked; progress after each decision; ``False`` stops."""
    game = small_game(6)
    calls: list[tuple[int, int]] = []
    review = analyse(
        game, budget=2, seats=[1], progress=lambda d, t: calls.append((d, t))
    )
    assert {d.seat for d in review.decisions} == {1}
    assert calls == [
        (i + 1, len(review.decisions)) for i in range(len(review.decisions))
    ]
    with pytest.raises(AnalysisCancelledError, match="after 1 of"):
        analyse(game, budget=2, progress=lambda _done, _total: False)


def test_workers_give_the_same_review() -> None:
    """Two processes or one: the same numbers."""
    game = small_game(7)
    assert analyse(game, budget=2, workers=2) == analyse(game, budget=2)


def test_json_round_trip_and_schema() -> None:
    """`to_json` is JSON; `from_json` reads it back equal; anything else is refused."""
    review = analyse(small_game(8), budget=3)
    data = json.loads(json.dumps(review.to_json()))
    assert data["format"] == "tienlen-analysis"
    assert data["version"] == 1
    assert GameAnalysis.from_json(data) == review
    with pytest.raises(AnalysisFormatError, match="format"):
        GameAnalysis.from_json({"format": "other"})
    with pytest.raises(AnalysisFormatError, match="version 99"):
        GameAnalysis.from_json({**data, "version": 99})
    with pytest.raises(AnalysisFormatError, match="not a tienlen analysis"):
        GameAnalysis.from_json({**data, "decisions": [{"index": 1}]})


def test_labels_need_the_threshold_and_a_real_loss() -> None:
    """A mistake or blunder needs its loss's interval above zero."""
    sure = Estimate(1.0, 0.5, 1.5)
    unsure = Estimate(1.0, -0.5, 2.5)
    assert label_of(THRESHOLDS[Label.BLUNDER], sure) is Label.BLUNDER
    assert label_of(THRESHOLDS[Label.MISTAKE], sure) is Label.MISTAKE
    assert label_of(THRESHOLDS[Label.BLUNDER], unsure) is Label.INACCURACY
    assert label_of(THRESHOLDS[Label.INACCURACY] - 0.1, sure) is None
    assert accuracy_of(0.0) > accuracy_of(5.0) > accuracy_of(30.0) >= 0.0


def test_biggest_losses_and_accuracy() -> None:
    """The biggest losses come first; accuracy is a mean of 0-100 figures."""
    review = analyse(small_game(9), budget=3)
    losses = [d.loss.mean for d in review.biggest_losses(len(review.decisions))]
    assert losses == sorted(losses, reverse=True)
    for seat, figure in review.accuracy.items():
        mine = [d.accuracy for d in review.decisions if d.seat == seat]
        assert figure == pytest.approx(sum(mine) / len(mine))
        assert 0 <= figure <= 100


def test_bad_input() -> None:
    """A game going on, a wrong type, a bad budget."""
    going = GameState.deal(CLASSIC, players=2, seed=1)
    with pytest.raises(InvalidArgumentError, match="not over"):
        analyse(going)
    with pytest.raises(TypeError):
        analyse("game")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="budget"):
        analyse(small_game(), budget=0)
