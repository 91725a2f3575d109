"""The command line as a referee meets it (issue 22 §2, §4, §9; issue 20 finding 10).

``--rules-file`` on every command that takes ``--rules``, errors in Vietnamese,
``play``'s commands in both languages, no line for a player who is out, an output
that cannot encode the suit symbols, and Ctrl-C.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import attrs
import pytest

from tests.cli.test_cli_commands import run
from tienlen import CLASSIC, GameState
from tienlen.cli import _parser, _table, main
from tienlen.records import record, rules_to_json, to_json

PYTHON = [sys.executable, "-m", "tienlen"]

TABLE = attrs.evolve(CLASSIC, name="our-table", bombs_may_lead=False)
"""A house-rule table: consecutive pairs and fours of a kind may not lead."""


@pytest.fixture
def table_file(tmp_path: Path) -> Path:
    """The table's rule set in the records' JSON form."""
    path = tmp_path / "table.json"
    path.write_text(json.dumps(rules_to_json(TABLE)), encoding="utf-8")
    return path


def test_every_command_with_rules_takes_a_rules_file() -> None:
    """Issue 22 §9: each command with ``--rules`` also has ``--rules-file``."""
    parser = _parser()
    subparsers = next(action for action in parser._actions if action.dest == "command")
    assert isinstance(subparsers.choices, dict)
    commands: dict[str, argparse.ArgumentParser] = subparsers.choices
    with_rules = [
        name
        for name, sub in commands.items()
        if any("--rules" in action.option_strings for action in sub._actions)
    ]
    assert {"classify", "beats", "plays", "play", "demo", "simulate"} <= set(with_rules)
    for name in with_rules:
        options = {o for a in commands[name]._actions for o in a.option_strings}
        assert "--rules-file" in options, name


def test_rules_file_is_the_table(table_file: Path) -> None:
    """The file's rule set is used: its name, and its house rule in the legal plays."""
    code, text = run("classify", "3s 3c 4s 4c 5s 5c", "--rules-file", str(table_file))
    assert code == 0
    code, text = run("plays", "3s 3c 4s 4c 5s 5c", "--rules-file", str(table_file))
    assert code == 0
    assert text.startswith("13 plays to lead (our-table):") or "(our-table)" in text
    assert "consecutive pairs" not in text  # they may not lead at this table
    code, text = run("plays", "3s 3c 4s 4c 5s 5c", "--rules", "classic")
    assert "consecutive pairs" in text
    code, text = run("beats", "5s 5c 5d 5h", "2h", "--rules-file", str(table_file))
    assert code == 0
    code, text = run("demo", "--rules-file", str(table_file), "--seed", "2")
    assert (code, text.splitlines()[0].split(",")[0]) == (0, "our-table")
    code, text = run(
        "simulate", "--games", "5", "--rules-file", str(table_file), "--json"
    )
    assert (code, json.loads(text)["rules"]) == (0, "our-table")


def test_rules_file_in_play(table_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``play`` welcomes the player to the file's table."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code, text = run("play", "--rules-file", str(table_file), "--seed", "1")
    assert code == 0
    assert text.startswith("our-table: you are player 0")


def test_rules_file_may_be_a_whole_record(tmp_path: Path) -> None:
    """A game record's JSON gives its rules."""
    state = GameState.deal(TABLE, 4, seed=3)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_json(record(state))), encoding="utf-8")
    code, text = run("demo", "--rules-file", str(path), "--seed", "2")
    assert (code, text.split(",")[0]) == (0, "our-table")


def test_bad_rules_files_exit_2(
    tmp_path: Path, table_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing file, no JSON, no rule set, or both options: exit 2, one line."""
    not_json = tmp_path / "bad.json"
    not_json.write_text("{", encoding="utf-8")
    not_rules = tmp_path / "list.json"
    not_rules.write_text("[1, 2]", encoding="utf-8")
    huge = tmp_path / "huge.json"
    huge.write_text(" " * 1_000_001, encoding="utf-8")
    cases = [
        (
            ["--rules-file", str(tmp_path / "missing.json")],
            "cannot read the rules file",
        ),
        (["--rules-file", str(not_json)], "is not JSON"),
        (["--rules-file", str(not_rules)], "rules"),
        (["--rules-file", str(huge)], "larger than"),
    ]
    for options, message in cases:
        assert run("classify", "3s", *options) == (2, "")
        err = capsys.readouterr().err
        assert err.startswith("tienlen: error: ")
        assert message in err
        assert err.count("\n") == 1
    assert (
        run("classify", "3s", "--rules", "poker", "--rules-file", str(table_file))[0]
        == 2
    )
    assert "not allowed with argument" in capsys.readouterr().err


def test_a_card_named_too_often_is_said_in_both_languages(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A repeated card is named as such (not "not card text") with ``--lang vi`` and en."""
    assert run("classify", "3s", "3s", "--lang", "vi") == (2, "")
    assert capsys.readouterr().err == (
        "tienlen: lỗi: Bạn gõ 3♠ hai lần: một bộ bài chỉ có một lá này.\n"
    )
    assert run("classify", "7h 7h 7h", "--lang", "vi") == (2, "")
    assert capsys.readouterr().err == (
        "tienlen: lỗi: Bạn gõ 7♥ hơn hai lần: hai bộ bài chỉ có hai lá này.\n"
    )
    assert run("classify", "3s", "3s") == (2, "")  # English: the developer's message
    assert capsys.readouterr().err == (
        "tienlen: error: duplicate card '3s' in '3s 3s': classic is played with one deck\n"
    )
    assert run("classify", "7h 7h 7h", "--lang", "en") == (2, "")
    assert capsys.readouterr().err == (
        "tienlen: error: more than two copies of '7h' in '7h 7h 7h'\n"
    )


def test_errors_in_vietnamese(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22 §2: with ``--lang vi`` an error is the player's sentence in Vietnamese."""
    assert run("classify", "11h", "--lang", "vi") == (2, "")
    assert capsys.readouterr().err == (
        "tienlen: lỗi: 11h không phải là lá bài: hãy gõ J cho lá bồi.\n"
    )
    assert run("beats", "3s 4h", "2h", "--lang", "vi") == (2, "")
    assert capsys.readouterr().err == (
        "tienlen: lỗi: 3♠ 4♥: không phải là bộ bài hợp lệ theo luật classic: "
        "sảnh phải có ít nhất ba lá\n"
    )
    assert run("classify", "3s", "--rules", "uno", "--lang", "vi") == (2, "")
    assert capsys.readouterr().err.startswith("tienlen: lỗi: không có luật 'uno'")
    assert run("simulate", "--bots", "bogus", "--lang", "vi") == (2, "")
    assert capsys.readouterr().err == (
        "tienlen: lỗi: không có máy 'bogus' (các máy có: random, greedy)\n"
    )
    assert run("demo", "--players", "6", "--lang", "vi") == (2, "")
    assert "thêm --decks 2" in capsys.readouterr().err
    assert run("simulate", "--games", "0", "--lang", "vi") == (2, "")
    assert capsys.readouterr().err == (
        "tienlen: lỗi: --games và --workers phải từ 1 trở lên\n"
    )


def test_beats_says_why_an_argument_is_no_combination(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 22 §9: ``beats`` gives the reason cards are no combination."""
    assert run("beats", "As 2c 3d", "5h")[0] == 2
    assert capsys.readouterr().err == (
        "tienlen: error: A♠ 2♣ 3♦: not a combination under classic: "
        "sequences never wrap around from 2 to 3\n"
    )


def _seed_to_lead() -> int:
    return next(s for s in range(100) if GameState.deal(CLASSIC, 4, s).to_act == 0)


@pytest.mark.parametrize(
    ("lines", "lang", "expected"),
    [
        (["gợi ý", "thoát"], "vi", "có thể đánh: 3♠"),
        (["Gợi Ý", "THOÁT"], "vi", "có thể đánh: 3♠"),
        (["hint", "quit"], "vi", "có thể đánh: 3♠"),
        (["gợi ý", "thoát"], "en", "legal: 3♠"),
        (["?", "quit"], "en", "Commands: cards such as"),
        (["help", "quit"], "en", "Commands: cards such as"),
        (["?", "thoát"], "vi", "Lệnh: gõ các lá như"),
        (["trợ giúp", "thoát"], "vi", "Lệnh: gõ các lá như"),
        (["help", "thoát"], "vi", "Lệnh: gõ các lá như"),
    ],
)
def test_play_commands_in_both_languages(
    lines: list[str], lang: str, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22 §4: ``gợi ý``, ``thoát``, ``help`` and ``?`` work in either language."""
    stdin = io.StringIO("".join(f"{line}\n" for line in lines))
    monkeypatch.setattr(sys, "stdin", stdin)
    code, text = run("play", "--seed", str(_seed_to_lead()), "--lang", lang)
    assert code == 0
    assert expected in text
    assert text.count("> ") == len(lines)


def test_play_reads_vietnamese_passes_and_suit_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``bỏ lượt`` is a pass (refused for the leader), ``3 bích`` is 3♠."""
    stdin = io.StringIO("bỏ lượt\n3 bích\nthoát\n")
    monkeypatch.setattr(sys, "stdin", stdin)
    code, text = run("play", "--seed", str(_seed_to_lead()), "--lang", "vi")
    assert code == 0
    assert "Không hợp lệ: Bạn đang mở vòng nên phải đánh" in text
    assert "bạn đánh 3♠" in text


def test_unreadable_input_is_said_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22 §6: no "không được: không đọc được"; the card error's own sentence."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("7x\nthoát\n"))
    code, text = run("play", "--seed", str(_seed_to_lead()), "--lang", "vi")
    assert code == 0
    assert (
        "Không đọc được '7x': 7x không phải là lá bài: chất là s (bích), c (chuồn), "
        "d (rô) hoặc h (cơ)." in text
    )
    assert "không được: không" not in text.casefold()


def test_players_out_have_no_line() -> None:
    """Issue 22 §9: the table lists only players with cards, never "0 cards"."""
    state = GameState.from_hands(["3s 9h", "4s", "5d 6d"], CLASSIC)
    state = state.play("3s").play("4s")
    assert 1 in state.finish_order
    shown = _table(state, "en")
    assert "player 1" not in shown
    assert "0 cards" not in shown
    assert "player 2: 2 cards" in shown


def test_an_ascii_output_gets_suit_letters() -> None:
    """Issue 20 finding 10: ``PYTHONIOENCODING=ascii tienlen demo`` works, suits as letters."""
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    env.pop("PYTHONUTF8", None)
    for lang in ("en", "vi"):
        done = subprocess.run(  # noqa: S603 - our own program, no shell
            [*PYTHON, "demo", "--seed", "3", "--lang", lang],
            capture_output=True,
            env=env,
            timeout=120,
            check=False,
        )
        assert (done.returncode, done.stderr) == (0, b""), done.stderr
        assert done.stdout.isascii()
        assert b"player 0" in done.stdout or b"nguoi choi 0" in done.stdout
    utf8 = run("demo", "--seed", "3")[1]
    letters = utf8.translate(str.maketrans("♠♣♦♥", "scdh"))
    done = subprocess.run(  # noqa: S603 - our own program, no shell
        [*PYTHON, "demo", "--seed", "3"],
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.stdout.decode("ascii") == letters


@pytest.mark.parametrize(
    "argv",
    [
        ["classify", "3s"],
        ["beats", "3s", "2h"],
        ["plays", "3s"],
        ["demo"],
        ["play"],
        ["simulate", "--games", "2"],
    ],
    ids=lambda argv: argv[0],
)
def test_every_command_turns_ctrl_c_into_one_line_and_130(
    argv: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 20 finding 10: a KeyboardInterrupt is "interrupted" and exit 130."""

    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("tienlen.cli.rules_from_args", interrupted)
    assert main(argv, out=io.StringIO()) == 130
    assert capsys.readouterr().err == "tienlen: interrupted\n"
    assert main([*argv, "--lang", "vi"], out=io.StringIO()) == 130
    assert capsys.readouterr().err == "tienlen: đã dừng\n"


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "killpg"), reason="signals a process group (POSIX)")
def test_ctrl_c_in_simulate_as_a_program() -> None:
    """SIGINT to a running ``simulate`` (workers too): one line, no traceback, 130.

    The signal is sent once the program runs (three seconds: a loaded machine
    imports slowly; an interrupt while Python imports is Python's own traceback).
    """
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    for workers in ("1", "2"):
        child = subprocess.Popen(  # noqa: S603 - our own program, no shell
            [*PYTHON, "simulate", "--games", "10000000", "--workers", workers],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            start_new_session=True,
        )
        time.sleep(3.0)
        os.killpg(child.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
        _, err = child.communicate(timeout=60)
        assert (child.returncode, err) == (130, b"tienlen: interrupted\n")
