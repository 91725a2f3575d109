"""Explanations of flagged decisions, and ``tienlen analyse``, in English and Vietnamese."""

from __future__ import annotations

import io
import json
import random
import string
from pathlib import Path

import pytest

from tienlen import (
    CLASSIC,
    GameState,
    GreedyPlayer,
    Pass,
    Play,
    RandomPlayer,
    play_game,
)
from tienlen.analysis import GameAnalysis, Label, ReviewedDecision
from tienlen.analysis.explain import CATALOGUE, explain, say
from tienlen.analysis.values import ActionValue, Estimate
from tienlen.cli import main
from tienlen.errors import UnknownLanguageError, UnknownMessageError
from tienlen.messages import LANGUAGES
from tienlen.records import dump, record


def value(action: Play | Pass, mean: float, first: float = 0.25) -> ActionValue:
    """An action's value with a narrow interval."""
    return ActionValue(
        action,
        Estimate(mean, mean - 0.1, mean + 0.1),
        Estimate(first, first, first),
        None,
        perfect_exact=False,
        samples=(),
    )


def decision(played: Play | Pass, better: Play | Pass) -> ReviewedDecision:
    """A blunder: *played* instead of *better*."""
    return ReviewedDecision(
        3,
        0,
        value(played, -1.0),
        (value(better, 0.5), value(played, -1.0)),
        Estimate(1.5, 1.0, 2.0),
        37.5,
        Label.BLUNDER,
    )


def test_every_entry_has_both_languages_with_the_same_fields() -> None:
    """One template per language, the same fields in each."""
    for key, entry in CATALOGUE.items():
        assert set(entry) == set(LANGUAGES), key
        fields = [
            {name for _, name, _, _ in string.Formatter().parse(entry[lang]) if name}
            for lang in LANGUAGES
        ]
        assert all(f == fields[0] for f in fields), key


@pytest.mark.parametrize(
    ("played", "better", "english", "vietnamese"),
    [
        (Play(player=0, cards="2h"), Pass(player=0), "spent a 2", "heo"),
        (
            Play(player=0, cards="5s 5c 5d 5h"),
            Play(player=0, cards="9h"),
            "bomb",
            "hàng",
        ),
        (Pass(player=0), Play(player=0, cards="9h"), "gave up the trick", "bỏ vòng"),
        (
            Play(player=0, cards="9h"),
            Play(player=0, cards="9h 9d"),
            "1 more card",
            "thêm 1 lá",
        ),
    ],
)
def test_the_consequence_is_named(
    played: Play | Pass, better: Play | Pass, english: str, vietnamese: str
) -> None:
    """What the cards show: a 2 or a bomb spent, a trick given up, cards not shed."""
    flagged = decision(played, better)
    assert english in explain(flagged, CLASSIC)
    said = explain(flagged, CLASSIC, "vi")
    assert vietnamese in said
    assert said.startswith("Nước sai nghiêm trọng")


def test_the_numbers_are_in_the_sentence() -> None:
    """Loss, its interval and the chances of going out first."""
    said = explain(decision(Play(player=0, cards="9h"), Pass(player=0)), CLASSIC)
    assert "better by 1.50 (± 0.50)" in said
    assert "25% instead of 25%" in said


def test_unknown_language_and_key() -> None:
    """The catalogue's errors are the library's."""
    with pytest.raises(UnknownLanguageError):
        say("report.move", "fr", number=1)
    with pytest.raises(UnknownMessageError):
        say("report.nothing")


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    """A finished 2-player game record on disk."""
    game = play_game(
        GameState.deal(CLASSIC, players=2, seed=3),
        [GreedyPlayer(), RandomPlayer()],
        random.Random(3),
    )
    path = tmp_path / "game.json"
    with path.open("w", encoding="utf-8") as file:
        dump(record(game), file)
    return path


def test_analyse_command(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The report, its Vietnamese, the JSON, and progress on standard error."""
    out = io.StringIO()
    assert main(["analyse", str(game_file), "--budget", "2"], out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "Analysis: classic, 2 players, 2 worlds per decision"
    assert lines[1].startswith("accuracy: player 0 ")
    assert "analysing: " in capsys.readouterr().err
    out = io.StringIO()
    assert (
        main(
            ["analyse", str(game_file), "--budget", "2", "--lang", "vi", "--quiet"], out
        )
        == 0
    )
    assert out.getvalue().startswith("Phân tích: classic, 2 người chơi")
    assert capsys.readouterr().err == ""
    out = io.StringIO()
    assert (
        main(["analyse", str(game_file), "--budget", "2", "--json", "--quiet"], out)
        == 0
    )
    review = GameAnalysis.from_json(json.loads(out.getvalue()))
    assert review.budget == 2


def test_analyse_command_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file that is no record, or a budget of 0: exit code 2 and one line."""
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    assert main(["analyse", str(bad), "--quiet"], io.StringIO()) == 2
    assert main(["analyse", str(tmp_path / "missing.json")], io.StringIO()) == 2
    assert main(["analyse", str(bad), "--budget", "0"], io.StringIO()) == 2
    err = capsys.readouterr().err.splitlines()
    assert all(line.startswith("tienlen: error") for line in err)
    assert "cannot read" in err[1]
