"""``tienlen solve`` on the command line."""

from __future__ import annotations

import io
import json

import pytest

from tienlen.cli import main

POSITION = "tienlen 1; rules classic; hands 3s 4s 2h / 5d 6d 7c 8c; to 0; first 3s"


def run(*argv: str) -> tuple[int, str]:
    """Run the command line; its exit code and output."""
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def test_prints_the_value_and_the_winning_line() -> None:
    """The value, then the line as `demo` tells it."""
    code, said = run("solve", POSITION)
    assert code == 0
    lines = said.splitlines()
    assert lines[0] == "value: player 0 +1, player 1 -1"
    assert lines[1:6] == [
        "player 0 plays 3♠",
        "player 1 plays 5♦",
        "player 0 plays 2♥",
        "player 1 passes",
        "player 0 plays 4♠",
    ]


def test_vietnamese_and_json() -> None:
    """``--lang vi`` and ``--json``."""
    code, said = run("solve", "--lang", "vi", POSITION)
    assert code == 0
    assert said.startswith("giá trị: người chơi 0 +1")
    code, said = run("solve", "--json", POSITION)
    data = json.loads(said)
    assert data["scores"] == [1, -1]
    assert data["line"][0] == {"player": 0, "cards": "3s"}


def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """Bad notation and a node limit too small: exit code 2, one line."""
    assert run("solve", "tienlen 1; rules classic")[0] == 2
    assert run("solve", POSITION, "--max-nodes", "3")[0] == 2
    assert "max_nodes=3" in capsys.readouterr().err
