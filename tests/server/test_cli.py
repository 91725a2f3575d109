"""``tienlen serve`` and ``tienlen bot`` on the command line."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import attrs
import pytest

from tests.server.serving import SRC, serving
from tienlen import CLASSIC
from tienlen.cli import main, rules_from_args
from tienlen.records import rules_to_json
from tienlen.server import cli as server_cli


def test_without_the_extra_the_commands_say_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No Starlette: ``serve`` and ``bot`` print the pip command and exit with 2."""
    monkeypatch.setattr(server_cli, "find_spec", lambda _name: None)
    assert main(["serve"]) == 2
    assert main(["bot", "--seat", "1"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [server_cli._MISSING] * 2
    assert 'pip install "tienlen[server]"' in err[0]


def _serve_rules(path: Path) -> object:
    """The main table's rules of ``serve --rules-file path``, read as ``serve`` reads them."""
    parser = argparse.ArgumentParser()
    server_cli.add_commands(
        parser.add_subparsers(), argparse.HelpFormatter, rules_from_args
    )
    args = parser.parse_args(["serve", "--rules-file", str(path)])
    return args.read_rules(args)


def test_rules_file_reads_a_rule_set_or_a_record(tmp_path: Path) -> None:
    """``--rules-file`` takes the records' rules form, or a whole record."""
    house = attrs.evolve(CLASSIC, twos_in_straights=False, name="house")
    path = tmp_path / "table.json"
    path.write_text(json.dumps(rules_to_json(house)))
    assert _serve_rules(path) == house
    path.write_text(
        json.dumps({"format": "tienlen-game", "rules": rules_to_json(house)})
    )
    assert _serve_rules(path) == house
    path.write_text("{broken")
    with pytest.raises(ValueError, match="is not JSON"):
        _serve_rules(path)


@pytest.mark.parametrize("content", [None, "{broken", "[1, 2]"])
def test_a_bad_rules_file_is_worded_as_for_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None
) -> None:
    """``serve --rules-file`` refuses a missing, non-JSON or non-rules file as ``simulate`` does."""
    pytest.importorskip("starlette")
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    assert main(["simulate", "--rules-file", str(path)]) == 2
    expected = capsys.readouterr().err
    assert (
        main(["serve", "--rules-file", str(path), "--data", str(tmp_path / "d")]) == 2
    )
    assert capsys.readouterr().err == expected
    assert expected.startswith("tienlen: error: ")
    assert not (tmp_path / "d").exists()


@pytest.mark.slow
def test_four_bot_commands_play_the_main_table(tmp_path: Path) -> None:
    """Four ``tienlen bot`` processes sit at the main table and play two hands each."""
    pytest.importorskip("starlette")
    house = attrs.evolve(CLASSIC, twos_in_straights=False, name="house")
    rules = tmp_path / "table.json"
    rules.write_text(json.dumps(rules_to_json(house)))
    with serving(
        tmp_path / "data", "--bot-delay", "0", "--rules-file", str(rules)
    ) as port:
        env_path = {"PYTHONPATH": str(SRC)}
        bots = [
            subprocess.Popen(  # noqa: S603
                [
                    sys.executable,
                    "-m",
                    "tienlen",
                    "bot",
                    "--connect",
                    f"ws://127.0.0.1:{port}/ws",
                    "--seat",
                    str(seat),
                    "--player",
                    "random" if seat % 2 else "greedy",
                    "--hands",
                    "2",
                    "--seed",
                    str(seat),
                ],
                env=env_path,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for seat in range(4)
        ]
        try:
            outputs = [bot.communicate(timeout=300) for bot in bots]
        finally:  # a bot still running after a failure is stopped, not left behind
            for bot in bots:
                if bot.poll() is None:
                    bot.kill()
                    bot.communicate()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables") as answer:
            tables = json.load(answer)
    assert [bot.returncode for bot in bots] == [0, 0, 0, 0], outputs
    assert all("2 hand(s) played" in out for out, _ in outputs)
    assert (tables[0]["rules"], tables[0]["changed"]) == ("classic", 1)  # its preset
    assert tables[0]["handsPlayed"] >= 2
