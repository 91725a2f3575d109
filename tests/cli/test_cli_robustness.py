"""The command line as a user meets it (issue 13 §6, issue 14 item 9).

``--version``, help with every default, ``--players`` as a count with ``--bots``,
the progress bar, what ``play`` tells the player (tricks, going out, places, the deal
of an instant win), forgiving input, ``--lang vi``, and the failures of the
environment: standard input or error closed, an output that cannot be written.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.test_cli_commands import HintFollower, playable_seed, run, run_program
from tienlen import CLASSIC, POKER, GameState, Pass, __version__
from tienlen.cli import _aftermath, _count, _parser, _Progress, main

PYTHON = [sys.executable, "-m", "tienlen"]
ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONUTF8": "1"}


def test_version() -> None:
    """``--version`` prints the package version and exits 0."""
    assert run("--version") == (0, f"tienlen {__version__}\n")


def test_bare_command_prints_the_help() -> None:
    """``tienlen`` alone prints the help, listing every command, and exits 0."""
    code, text = run()
    assert code == 0
    assert text.startswith("usage: tienlen")
    for command in ("classify", "beats", "plays", "play", "demo", "simulate"):
        assert f"    {command} " in text


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    actions = _parser()._subparsers._group_actions  # type: ignore[union-attr]
    (choices,) = [action.choices for action in actions]
    assert isinstance(choices, dict)
    return choices


@pytest.mark.parametrize("command", sorted(_subcommands()))
def test_every_option_shows_its_default(command: str) -> None:
    """Each option with a default says it in ``--help`` (``(default: …)``)."""
    sub = _subcommands()[command]
    shown = " ".join(sub.format_help().split())
    for action in sub._actions:
        if action.option_strings and action.default not in (
            None,
            False,
            "==SUPPRESS==",
        ):
            assert action.help, action.option_strings
            assert f"(default: {action.default})" in shown, action.option_strings


def test_players_is_a_count_and_bots_fill_the_seats() -> None:
    """``--players N`` everywhere; ``--bots`` names the bots, the last one repeated."""
    code, text = run(
        "simulate", "--games", "20", "--players", "3", "--bots", "random", "--json"
    )
    assert code == 0
    assert '"players": [\n    "random",\n    "random",\n    "random"\n  ]' in text
    code, text = run("demo", "--players", "3", "--seed", "2")
    assert code == 0
    assert text.startswith("classic, 3 players, seed 2;")


def test_the_progress_bar_shows_rate_and_time_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a terminal the bar is redrawn as each batch arrives, with games/s and time left."""

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert run("simulate", "--games", "1000", "--players", "2")[0] == 0
    frames = terminal.getvalue().split("\r")[1:]
    assert len(frames) == 4  # one per batch of 250 games
    assert frames[0].startswith("[#######.......................] 250/1000 games, ")
    assert all(re.search(r", \d+ games/s, \d+:\d\d left", frame) for frame in frames)
    assert frames[-1].startswith("[##############################] 1000/1000 games")
    assert frames[-1].endswith("left\n")


def test_the_progress_line_without_games() -> None:
    """Before the first batch, the bar has no rate."""
    assert _Progress(10, enabled=False).line(1.0) == (
        "[..............................] 0/10 games"
    )


def test_never_one_cards() -> None:
    """A count of cards is singular for one (13 §6)."""
    assert _count(1, "en") == "1 card"
    assert _count(2, "en") == "2 cards"
    assert _count(1, "vi") == "1 lá"


def test_the_winner_of_each_trick_is_said() -> None:
    """When the pile is cleared, the line names who won the trick (RULES §1.5.4)."""
    state = GameState.from_hands(["3s 9h", "5d 6d", "7c 8c"], CLASSIC)
    state = state.play("3s").play("5d").pass_turn()
    after = state.pass_turn()
    assert _aftermath(state, Pass(player=0), after, 0, "en") == [
        "player 1 wins the trick"
    ]
    assert _aftermath(state, Pass(player=0), after, 1, "vi") == ["bạn thắng vòng này"]
    out = GameState.from_hands(["3s", "5d 6d"], CLASSIC)
    gone = out.play("3s")
    assert _aftermath(out, gone.history[-1], gone, 0, "en") == ["you are out"]


def test_play_tells_tricks_going_out_and_the_final_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A whole game says who won each trick, who went out and the human's place."""
    seed = playable_seed(CLASSIC, 4)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", HintFollower(out))
    assert main(["play", "--seed", str(seed)], out=out) == 0
    text = out.getvalue()
    assert re.search(r"^(player \d|you) wins? the trick$", text, re.MULTILINE)
    assert (
        len(re.findall(r"^(?:> )?(?:player \d is|you are) out$", text, re.MULTILINE))
        == 3
    )
    assert re.search(r"^your place: (1st|2nd|3rd|4th) of 4$", text, re.MULTILINE)
    assert not re.search(r"\b1 cards", text)


def test_play_shows_the_hand_of_a_game_won_at_the_deal() -> None:
    """When the deal ends the game (an instant win), ``play`` shows the dealt hand."""
    seed = next(s for s in range(100) if GameState.deal(POKER, 4, s).is_over)
    dealt = GameState.deal(POKER, 4, seed)
    code, text = run("play", "--rules", "poker", "--seed", str(seed))
    assert code == 0
    assert f"your hand: {dealt.hands[0].unicode()}" in text
    assert "wins at the deal" in text


def test_play_reads_commands_in_any_case_and_skips_empty_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``HINT``, ``Pass`` and ``QUIT`` work; an empty line asks again, silently."""
    seed = next(s for s in range(100) if GameState.deal(CLASSIC, 4, s).to_act == 0)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n   \nHINT\nPass\nQuit\n"))
    code, text = run("play", "--seed", str(seed))
    assert code == 0
    assert "legal: 3♠" in text
    assert text.count("not allowed: ") == 1  # the leader's pass, not the empty lines
    assert "not allowed: You open this trick: you must play." in text
    assert text.count("> ") == 5


def test_play_in_vietnamese(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--lang vi``: the table, the refusals and the hints in Vietnamese."""
    seed = next(s for s in range(100) if GameState.deal(CLASSIC, 4, s).to_act == 0)
    monkeypatch.setattr(sys, "stdin", io.StringIO("pass\nhint\nquit\n"))
    code, text = run("play", "--seed", str(seed), "--lang", "vi")
    assert code == 0
    assert "bạn là người chơi 0" in text
    assert "bài của bạn: " in text
    assert "Không hợp lệ: Bạn đang mở vòng nên phải đánh, không được bỏ lượt." in text
    assert "có thể đánh: 3♠" in text


def test_other_commands_in_vietnamese() -> None:
    """``classify``, ``beats`` and ``plays`` speak Vietnamese with ``--lang vi``."""
    assert run("classify", "9s 9c 9d 9h", "--lang", "vi") == (
        0,
        "tứ quý, lá cao nhất 9♥: 9♠ 9♣ 9♦ 9♥\n",
    )
    assert run("beats", "5s 5c 5d 5h", "2h", "--lang", "vi") == (
        0,
        "Được: tứ quý chặt được một con heo.\nđiều luật: §2.3\n",
    )
    code, text = run("plays", "3s 3c", "--lang", "vi")
    assert code == 0
    assert "  đôi (1): 3♠ 3♣" in text


def _closed(fd: int) -> list[str]:
    """A command line that runs the program with file descriptor *fd* closed."""
    return [
        "/bin/sh",
        "-c",
        f'exec "$@" {fd}<&-' if fd == 0 else f'exec "$@" {fd}>&-',
        "sh",
    ]


def test_closed_standard_input_ends_play_cleanly() -> None:
    """``play`` with standard input closed exits 0, without a traceback (14 §9)."""
    done = subprocess.run(  # noqa: S603 - our own program
        [*_closed(0), *PYTHON, "play", "--seed", "1"],
        capture_output=True, text=True, env=ENV, timeout=60, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")
    assert "your hand: " in done.stdout


def test_closed_standard_error_keeps_the_exit_code() -> None:
    """With standard error closed, bad input still exits 2 and prints nothing (14 §9)."""
    done = subprocess.run(  # noqa: S603 - our own program
        [*_closed(2), *PYTHON, "classify", "1x"],
        capture_output=True, text=True, env=ENV, timeout=60, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (2, "")


def test_closed_standard_error_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """`main` with ``sys.stderr`` gone: exit 2, and the error is not printed to stdout."""
    monkeypatch.setattr(sys, "stderr", None)
    assert run("classify", "1x") == (2, "")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_output_is_one_line_and_exit_3() -> None:
    """Writing to ``/dev/full``: one error line on stderr, exit 3, no traceback (14 §9)."""
    with Path("/dev/full").open("w", encoding="utf-8") as full:
        done = subprocess.run(  # noqa: S603 - our own program
            [*PYTHON, "demo"],
            stdout=full, stderr=subprocess.PIPE, text=True, env=ENV, timeout=60,
            check=False,
        )  # fmt: skip
    assert done.returncode == 3
    assert done.stderr == (
        "tienlen: error: cannot write the output: No space left on device\n"
    )


def test_a_broken_pipe_is_quiet() -> None:
    """``tienlen demo | head -1``: exit 0 and nothing on stderr."""
    done = subprocess.run(  # noqa: S603 - our own program
        ["/bin/sh", "-c", f'"{sys.executable}" -m tienlen demo | head -n 1'],
        capture_output=True, text=True, env=ENV, timeout=60, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("classic, 4 players")


def test_too_many_workers_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """``--workers`` above four per CPU: exit 2 before any process starts (14 §9)."""
    limit = 4 * (os.cpu_count() or 1)
    assert run("simulate", "--workers", str(limit + 1)) == (2, "")
    assert f"--workers must be at most {limit}" in capsys.readouterr().err


def test_program_demo_matches() -> None:
    """The program's ``demo`` still equals the in-process one."""
    done = run_program(PYTHON, "demo", "--seed", "4")
    assert (done.returncode, done.stdout) == (0, run("demo", "--seed", "4")[1])
