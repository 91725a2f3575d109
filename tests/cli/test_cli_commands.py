"""The command line (`tienlen.cli`): every command, in process and as a program.

Each command runs through ``main([...], out=...)`` and, for a few cases, as
``python -m tienlen`` and the ``tienlen`` console script (when the venv has it). The
answers must agree with the library (`classify`, `beats`, `legal_plays`,
`simulate`), the exit codes are 0 for a positive answer, 1 for a negative one and 2
for bad input (with the error on standard error), and ``--json`` prints the
documented objects (docs/cli.md).
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.strategies import combos, hands
from tienlen import (
    CLASSIC,
    POKER,
    RULESETS,
    VIETCONG,
    BaseRules,
    Combo,
    ComboKind,
    GameState,
    GreedyPlayer,
    Player,
    RandomPlayer,
    beats,
    legal_plays,
    parse_cards,
    rule_section,
    simulate,
)
from tienlen.cli import main
from tienlen.explain import explain_beats, why_not_combination

PRESETS: tuple[BaseRules, ...] = tuple(RULESETS.values())
CORE_1_3 = {
    "number": "1.3",
    "title": "Shape, and beating the same shape",
    "url": "https://tienlen.readthedocs.io/en/latest/reference/core.html#rules-1-3",
}
"""The ``section`` object of a ``--json`` answer decided by RULES §1.3."""
PRESET_IDS = [rules.name for rules in PRESETS]

_CONSOLE_SCRIPT = Path(sys.executable).parent / "tienlen"
LAUNCHERS: list[list[str]] = [[sys.executable, "-m", "tienlen"]]
"""How the program is started: ``python -m tienlen``, and the console script if installed."""
if _CONSOLE_SCRIPT.exists():
    LAUNCHERS.append([str(_CONSOLE_SCRIPT)])
LAUNCHER_IDS = ["python-m-tienlen", "console-script"][: len(LAUNCHERS)]


def run(*argv: str) -> tuple[int, str]:
    """Run the command line in process; its exit code and standard output."""
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def run_json(*argv: str) -> tuple[int, object]:
    """Run a command with ``--json``; its exit code and the decoded output."""
    code, text = run(*argv, "--json")
    return code, json.loads(text)


def run_program(
    launcher: Sequence[str], *argv: str, stdin: str = "", hash_seed: str = "0"
) -> subprocess.CompletedProcess[str]:
    """Run the installed program with *argv* in a fresh process, UTF-8 in and out."""
    env = {
        **os.environ,
        "PYTHONIOENCODING": "utf-8",
        "PYTHONUTF8": "1",
        "PYTHONHASHSEED": hash_seed,
    }
    return subprocess.run(  # noqa: S603 - our own program, no shell
        [*launcher, *argv],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=120,
        check=False,
    )


def strict_json(text: str) -> object:
    """Decode *text* as standard JSON (RFC 8259): ``NaN`` and ``Infinity`` are refused."""

    def refuse(name: str) -> object:
        raise ValueError(f"not standard JSON: {name}")

    return json.loads(text, parse_constant=refuse)


# -- classify -----------------------------------------------------------------------

NAMED = [
    (["3s", "4s", "5h"], "3-card straight, 5♥ high: 3♠ 4♠ 5♥"),
    (["3s 4s 5h"], "3-card straight, 5♥ high: 3♠ 4♠ 5♥"),
    (["7h", "7s"], "pair, 7♥ high: 7♠ 7♥"),
    (["10♥"], "single, 10♥ high: 10♥"),
    (["9s 9c 9d 9h"], "four of a kind, 9♥ high: 9♠ 9♣ 9♦ 9♥"),
    (["3s 3c 4d 4h 5s 5c"], "3 consecutive pairs, 5♣ high: 3♠ 3♣ 4♦ 4♥ 5♠ 5♣"),
]


@pytest.mark.parametrize(("cards", "expected"), NAMED, ids=[e for _, e in NAMED])
def test_classify_names_the_combination(cards: list[str], expected: str) -> None:
    """``classify`` prints the shape, top card and cards, and exits 0 (RULES §1.2)."""
    assert run("classify", *cards) == (0, expected + "\n")


NOT_COMBOS = [
    ("3s 4h", "classic"),
    ("7h 8s 9d 9c", "classic"),
    ("As 2c 3d", "classic"),
    ("3s 3c 3d 4s 4c 4d", "classic"),
    ("3s 3c 3d 3h 4s 4c 4d 4h", "classic"),
    ("Jd Qh Kh Ac 2d", "vietcong"),
    ("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c", "poker"),
]


@pytest.mark.parametrize(("cards", "rules"), NOT_COMBOS)
def test_classify_says_why_not(cards: str, rules: str) -> None:
    """Cards that form no combination: exit 1, the reason, then the rule on its own line."""
    reason = why_not_combination(cards, RULESETS[rules])
    assert reason is not None
    section = rule_section(reason.rule)
    clause = reason.clause("en")
    code, text = run("classify", cards, "--rules", rules)
    assert code == 1
    first, second = text.splitlines()
    assert first == f"not a combination under {rules}: {clause}"
    assert second == f"rule: §{section.number} {section.title}"
    assert "RULES" not in text


def test_classify_rules_option() -> None:
    """``--rules`` takes a name or an alias; the answer follows the variant (RULES §5.1)."""
    straight = "Jd Qh Kh Ac 2d"
    assert run("classify", straight)[0] == 0
    assert run("classify", straight, "--rules", "classic")[0] == 0
    code, text = run("classify", straight, "--rules", "VC")
    assert code == 1
    assert text.startswith("not a combination under vietcong: ")
    assert run("classify", "7h 7h")[0] == 2  # classic is one deck (issue 13 §5)
    assert run("classify", "7h 7h", "--rules", "poker")[0] == 2  # one deck
    assert run("classify", "7h 7h", "--rules", "two-decks")[0] == 0


def test_classify_json_shape() -> None:
    """``--json``: ``combination`` (kind, cards, top, size) or null, and ``reason``."""
    assert run_json("classify", "5h", "3s", "4s") == (
        0,
        {
            "rules": "classic",
            "combination": {
                "kind": "STRAIGHT",
                "cards": "3s 4s 5h",
                "top": "5h",
                "size": 3,
            },
            "reason": None,
            "rule": None,
            "section": None,
        },
    )
    code, data = run_json("classify", "3s 4h")
    assert code == 1
    assert data == {
        "rules": "classic",
        "combination": None,
        "reason": "a straight needs at least three cards",
        "rule": "rules-1-2",
        "section": {
            "number": "1.2",
            "title": "Combinations",
            "url": "https://tienlen.readthedocs.io/en/latest/reference/core.html#rules-1-2",
        },
    }


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
@given(data=st.data())
def test_classify_agrees_with_the_library(
    rules: BaseRules, data: st.DataObject
) -> None:
    """For any combination, ``classify --json`` reports what `classify` returns."""
    combo = data.draw(combos(rules))
    code, decoded = run_json("classify", str(combo), "--rules", rules.name)
    assert code == 0
    assert decoded == {
        "rules": rules.name,
        "combination": {
            "kind": combo.kind.name,
            "cards": str(combo),
            "top": str(combo.top),
            "size": len(combo),
        },
        "reason": None,
        "rule": None,
        "section": None,
    }


BAD_CLASSIFY = [
    (["classify", "3s", "1x"], "invalid card '1x'"),
    (["classify", "7h 7h", "--rules", "vietcong"], "duplicate card '7h'"),
    (["classify", "3s", "--rules", "hearts"], "unknown variant: 'hearts'"),
    (["classify", "7h 7h 7h"], "more than two copies of '7h'"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_CLASSIFY, ids=str)
def test_classify_bad_input_exits_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad cards or an unknown variant: exit 2, nothing on stdout, the error on stderr."""
    for extra in ([], ["--json"]):
        assert run(*argv, *extra) == (2, "")
        err = capsys.readouterr().err
        assert err.startswith("tienlen: error: ")
        assert message in err


# -- beats --------------------------------------------------------------------------


def test_beats_yes_and_no_name_the_rule() -> None:
    """``beats`` answers yes (exit 0) or no (exit 1), then the rule that decides (RULES §1.3)."""
    rule = "rule: §1.3 Shape, and beating the same shape\n"
    assert run("beats", "8s", "7h") == (
        0,
        "Yes: the same shape, and 8♠ is higher than 7♥.\n" + rule,
    )
    assert run("beats", "5d 5h", "6s 6c") == (
        1,
        "No: the same shape, but 5♥ is not higher than 6♣.\n" + rule,
    )
    assert run("beats", "7d 7c", "7h 7s") == (
        1,
        "No: the same shape, but 7♦ is not higher than 7♥.\n" + rule,
    )
    assert run("beats", "9c Tc Jc", "3s 4s 5s 6s") == (
        1,
        (
            "No: a 3-card straight cannot beat a 4-card straight: the same kind, "
            "but not the same number of cards.\n" + rule
        ),
    )


BOMBS = [
    ("classic", "5s 5c 5d 5h", "2h", True, "§2.3"),
    ("classic", "5s 5c 5d 5h", "Ah", False, "§1.3"),
    ("classic", "3s 3c 4s 4c 5s 5c", "2d", True, "§2.3"),
    ("classic", "3s 3c 4s 4c 5s 5c 6s 6c", "2s 2h", True, "§2.3"),
    ("classic", "9s 9c 9d 9h", "2s 2h", False, "§1.3"),
    ("classic", "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c", "2s 2c 2h", True, "§2.3"),
    ("classic", "9s 9c 9d 9h", "3s 3c 4s 4c 5s 5c", False, "§1.3"),
    ("justus-pang", "3s 3c 4s 4c 5s 5c", "2d", True, "§3.2"),
    ("kenneth-lo", "9s 9c 9d 9h", "2s 2h", True, "§4.3"),
    ("kenneth-lo", "3s 3c 4s 4c 5s 5c 6s 6c", "2s 2h", False, "§1.3"),
    ("vietcong", "7s 7c 7d 7h 8s 8c 8d 8h", "2d 2h", True, "§5.2"),
    ("vietcong", "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c", "2d 2h", True, "§5.2"),
    ("poker", "9s 9c 9d 9h", "3s 3c 4s 4c 5s 5c", True, "§6.3"),
    ("poker", "3s 3c 4s 4c 5s 5c 6s 6c", "9s 9c 9d 9h", True, "§6.3"),
    ("poker", "9s 9c 9d 9h", "3s 3c 4s 4c 5s 5c 6s 6c", False, "§1.3"),
    ("poker", "3s 3c 4s 4c 5s 5c", "2s 2c 2h", False, "§1.3"),
]


@pytest.mark.parametrize(
    ("rules", "play", "top", "verdict", "section"),
    BOMBS,
    ids=[f"{r}:{p}/{t}" for r, p, t, _, _ in BOMBS],
)
def test_beats_bombs_per_variant(
    rules: str, play: str, top: str, verdict: bool, section: str
) -> None:
    """Bombs follow each variant's table and chain, citing its section (RULES §2.3-§6.3)."""
    code, text = run("beats", play, top, "--rules", rules)
    assert code == (0 if verdict else 1)
    explanation = explain_beats(play, top, RULESETS[rules])
    assert text.startswith(f"{explanation.message()}\n")
    assert text.startswith("Yes: the bomb table" if verdict else "No: ")
    title = rule_section(explanation.rule).title
    assert text.endswith(f"\nrule: {section} {title}\n")
    assert verdict == beats(play, top, RULESETS[rules])


def test_beats_json() -> None:
    """``--json``: ``beats`` (a boolean) and ``reason`` (the explanation after yes/no)."""
    assert run_json("beats", "5s 5c 5d 5h", "2h") == (
        0,
        {
            "rules": "classic",
            "beats": True,
            "reason": "the bomb table lets a four of a kind beat a single 2",
            "rule": "rules-2-3",
            "section": {
                "number": "2.3",
                "title": "Bombs",
                "url": "https://tienlen.readthedocs.io/en/latest/reference/classic.html#rules-2-3",
            },
        },
    )
    assert run_json("beats", "5d 5h", "6s 6c") == (
        1,
        {
            "rules": "classic",
            "beats": False,
            "reason": "the same shape, but 5♥ is not higher than 6♣",
            "rule": "rules-1-3",
            "section": CORE_1_3,
        },
    )


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
@given(data=st.data())
def test_beats_agrees_with_the_library(rules: BaseRules, data: st.DataObject) -> None:
    """For any two combinations, the exit code and ``--json`` verdict are `beats`."""
    play = data.draw(combos(rules))
    top = data.draw(combos(rules))
    verdict = beats(play, top, rules)
    code, decoded = run_json("beats", str(play), str(top), "--rules", rules.name)
    assert code == (0 if verdict else 1)
    assert isinstance(decoded, dict)
    assert decoded["beats"] is verdict


BAD_BEATS = [
    (
        ["beats", "3s 4h", "2h"],
        "3♠ 4♥: not a combination under classic: a straight needs at least three cards",
    ),
    (
        ["beats", "2h", "3s 4h"],
        "3♠ 4♥: not a combination under classic: a straight needs at least three cards",
    ),
    (["beats", "3s", "1x"], "invalid card '1x'"),
    (["beats", "3s", "4s", "--rules", "uno"], "unknown variant: 'uno'"),
    (
        ["beats", "7h 7h", "3s 3c", "--rules", "vc"],
        "duplicate card '7h' in '7h 7h': vietcong is played with one deck",
    ),
]


@pytest.mark.parametrize(("argv", "message"), BAD_BEATS, ids=str)
def test_beats_bad_input_exits_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Cards that are no combination, bad cards, an unknown variant: exit 2, error on stderr."""
    for extra in ([], ["--json"]):
        assert run(*argv, *extra) == (2, "")
        err = capsys.readouterr().err
        assert err.startswith(f"tienlen: error: {message}")
        assert err.endswith("\n")
        assert err.count("\n") == 1


# -- plays --------------------------------------------------------------------------


def test_plays_to_lead_grouped_by_kind() -> None:
    """``plays`` lists the leads grouped by kind, in the order of the kinds (RULES §1.2)."""
    assert run("plays", "3s 4s 5h 5d 6c") == (
        0,
        (
            "12 plays to lead (classic):\n"
            "  single (5): 3♠  4♠  5♦  5♥  6♣\n"
            "  pair (1): 5♦ 5♥\n"
            "  straight (6): 3♠ 4♠ 5♦  3♠ 4♠ 5♥  3♠ 4♠ 5♦ 6♣  3♠ 4♠ 5♥ 6♣  4♠ 5♦ 6♣  4♠ 5♥ 6♣\n"
        ),
    )


def test_plays_on_a_top_include_bombs() -> None:
    """``--on``: the plays that beat the top, bombs included (RULES §2.3, §5.2)."""
    assert run("plays", "4s 5s 5c 5d 5h 9d 2h", "--on", "2s") == (
        0,
        (
            "2 plays that beat 2♠ (classic):\n"
            "  single (1): 2♥\n"
            "  four of a kind (1): 5♠ 5♣ 5♦ 5♥\n"
        ),
    )
    code, text = run(
        "plays", "7s 7c 7d 7h 8s 8c 8d 8h 9s", "--on", "2d 2h", "--rules", "vc"
    )
    assert code == 0
    assert "consecutive quads (1): 7♠ 7♣ 7♦ 7♥ 8♠ 8♣ 8♦ 8♥" in text


def test_plays_none_exits_1() -> None:
    """No legal play: exit 1, zero plays (text) or an empty object (JSON)."""
    assert run("plays", "3s 4d", "--on", "2s") == (
        1,
        "0 plays that beat 2♠ (classic):\n",
    )
    assert run_json("plays", "3s 4d", "--on", "2s") == (
        1,
        {"rules": "classic", "plays": {}},
    )
    assert run("plays", "3s 4d", "--on", "3h") == (
        0,
        "1 play that beats 3♥ (classic):\n  single (1): 4♦\n",
    )


def test_plays_json() -> None:
    """``--json``: the rules, and ``plays`` from kind name to card text, as `legal_plays`."""
    assert run_json("plays", "3s 4s 5h 9d 9c") == (
        0,
        {
            "rules": "classic",
            "plays": {
                "SINGLE": ["3s", "4s", "5h", "9c", "9d"],
                "PAIR": ["9c 9d"],
                "STRAIGHT": ["3s 4s 5h"],
            },
        },
    )
    assert run_json("plays", "4s 5s 5c 5d 5h 9d 2h", "--on", "2s") == (
        0,
        {
            "rules": "classic",
            "plays": {"SINGLE": ["2h"], "FOUR_OF_A_KIND": ["5s 5c 5d 5h"]},
        },
    )


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
@given(data=st.data())
def test_plays_agree_with_the_library(rules: BaseRules, data: st.DataObject) -> None:
    """``plays --json`` lists exactly `legal_plays`, grouped by kind, with or without ``--on``."""
    top: Combo | None = data.draw(st.none() | combos(rules))
    text = str(data.draw(hands(1, 13, rules.decks)))
    expected: dict[str, list[str]] = {}
    for play in legal_plays(text, top, rules):
        expected.setdefault(play.kind.name, []).append(str(play))
    on = [] if top is None else ["--on", str(top)]
    assert run_json("plays", text, *on, "--rules", rules.name) == (
        0 if expected else 1,
        {"rules": rules.name, "plays": expected},
    )


def test_plays_bad_input_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """A bad hand or a top that is no combination: exit 2 with the error on stderr."""
    assert run("plays", "3s 1x") == (2, "")
    assert "invalid card '1x'" in capsys.readouterr().err
    assert run("plays", "3s 4s", "--on", "3c 4h") == (2, "")
    assert capsys.readouterr().err == (
        "tienlen: error: '3c 4h' is not a combination under classic\n"
    )


# -- demo ---------------------------------------------------------------------------

_HAND = re.compile(r"  player (\d): (.+)")
_ACTION = re.compile(r"  player (\d) (?:plays (.+?)|passes)( \(jumps in\))?")


def replay_demo(text: str, rules: BaseRules) -> tuple[GameState, int]:
    """Replay a demo transcript through the engine: the final state and the tricks."""
    lines = text.splitlines()
    hands = [m[2] for line in lines if (m := _HAND.fullmatch(line))]
    state = GameState.from_hands(hands, rules)
    tricks = 0
    for line in lines:
        if re.fullmatch(r"trick \d+:", line):
            tricks += 1
            assert line == f"trick {tricks}:"
            assert state.top is None
        elif m := _ACTION.fullmatch(line):
            player = int(m[1])
            assert (m[3] is not None) == (player != state.to_act)
            state = (
                state.pass_turn(player)
                if m[2] is None
                else state.play(parse_cards(m[2]), player)
            )
        elif m := re.fullmatch(r"  player (\d) is out", line):
            assert int(m[1]) in state.finish_order
    return state, tricks


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_demo_plays_a_whole_game(rules: BaseRules, seed: int) -> None:
    """``demo`` prints the deal and every action, then the finish order and the scores."""
    code, text = run("demo", "--rules", rules.name, "--seed", str(seed))
    assert code == 0
    lines = text.splitlines()
    assert lines[0] == (
        f"{rules.name}, 4 players, seed {seed}; even seats greedy, odd seats random"
    )
    state, _ = replay_demo(text, rules)
    result = state.result
    assert result is not None  # the transcript is a whole, legal game
    order = ", ".join(f"player {p}" for p in result.finish_order)
    scores = ", ".join(f"player {p} {s:+d}" for p, s in enumerate(result.scores))
    tail = [f"finish order: {order}", f"scores: {scores}"]
    tail += [f"  {item}" for item in result.items]
    assert lines[-len(tail) :] == tail
    if result.instant_win is not None:
        assert f"player {result.winner} wins at the deal" in text


def test_demo_is_deterministic() -> None:
    """The same seed gives the same game, in process and in fresh processes."""
    first = run("demo", "--seed", "5", "--rules", "poker", "--players", "3")
    assert first == run("demo", "--seed", "5", "--rules", "poker", "--players", "3")
    assert (
        first[1] != run("demo", "--seed", "6", "--rules", "poker", "--players", "3")[1]
    )
    for hash_seed in ("1", "2"):
        done = run_program(
            LAUNCHERS[0],
            "demo",
            "--seed",
            "5",
            "--rules",
            "poker",
            "--players",
            "3",
            hash_seed=hash_seed,
        )
        assert (done.returncode, done.stdout, done.stderr) == (0, first[1], "")


def test_demo_default_seed_and_players() -> None:
    """Without options, ``demo`` plays classic with four players from seed 7."""
    code, text = run("demo")
    assert code == 0
    assert text == run("demo", "--seed", "7", "--players", "4", "--rules", "classic")[1]
    assert text.startswith("classic, 4 players, seed 7;")


@pytest.mark.parametrize(
    ("options", "players"),
    [
        (["--decks", "2"], 6),
        (["--rules", "classic-two-decks"], 8),
        (["--rules", "justus-pang", "--decks", "2"], 5),
        (["--rules", "kenneth-lo"], 3),
    ],
)
def test_demo_other_table_sizes(options: list[str], players: int) -> None:
    """Two decks and Kenneth Lo's three players on 17 cards work too (RULES §2.1, §4.1)."""
    code, text = run("demo", *options, "--players", str(players))
    assert code == 0
    hands = [m[2] for line in text.splitlines() if (m := _HAND.fullmatch(line))]
    assert len(hands) == players
    assert "finish order: " in text


def test_demo_bad_players_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """A table size the variant does not allow: exit 2 with the error on stderr."""
    assert run("demo", "--rules", "vietcong", "--players", "9") == (2, "")
    assert capsys.readouterr().err == (
        "tienlen: error: vietcong is played by 2-4 players, not 9\n"
    )


@pytest.mark.parametrize("command", ["demo", "play", "simulate"])
def test_five_or_more_need_decks_2(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """RULES §2.1, issue 13 §5: five to eight on one deck exit 2 and name ``--decks 2``."""
    assert run(command, "--players", "6", "--seed", "1") == (2, "")
    assert capsys.readouterr().err == (
        "tienlen: error: classic on one deck seats 2-4 players, not 6: "
        "add --decks 2 for five to eight\n"
    )
    assert run(command, "--rules", "two-decks", "--decks", "1", "--players", "6") == (
        2,
        "",
    )
    assert "classic-two-decks is played with two decks" in capsys.readouterr().err
    assert run(command, "--decks", "2", "--players", "4", "--seed", "1") == (2, "")
    assert (
        "classic-two-decks is played by 5-8 players, not 4" in capsys.readouterr().err
    )


@pytest.mark.parametrize("command", ["demo", "play", "simulate"])
def test_decks_option_help_shows_the_default(command: str) -> None:
    """Issue 13 §5, §6: ``--decks {1,2}`` is listed with its default."""
    code, text = run(command, "--help")
    assert code == 0
    assert "--decks {1,2}" in text
    assert "(default: the variant's own, 1 for every" in " ".join(text.split())


# -- play ---------------------------------------------------------------------------


class HintFollower:
    """Standard input for ``play`` that asks for a hint, then answers a legal move.

    Every prompt is answered twice: ``hint``, then the first play listed (every third
    time ``pass`` when passing is listed).
    """

    def __init__(self, out: io.StringIO) -> None:
        self.out = out
        self.asked = False
        self.answers: list[str] = []

    def readline(self) -> str:
        """The next answer, chosen from the hint just printed."""
        if not self.asked:
            self.asked = True
            return "hint\n"
        self.asked = False
        listed = self.out.getvalue().rsplit("legal: ", 1)[1].splitlines()[0]
        options = listed.split(" | ")
        plays = [option for option in options if option != "pass"]
        wants_pass = "pass" in options and len(self.answers) % 3 == 2
        answer = "pass" if wants_pass or not plays else plays[0]
        self.answers.append(answer)
        return answer + "\n"


def playable_seed(rules: BaseRules, players: int) -> int:
    """The first seed whose deal is not won at once."""
    return next(s for s in range(100) if not GameState.deal(rules, players, s).is_over)


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
def test_play_a_whole_game_following_hints(
    rules: BaseRules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``play`` referees a whole game against bots when the human follows the hints."""
    seed = playable_seed(rules, 4)
    out = io.StringIO()
    stdin = HintFollower(out)
    monkeypatch.setattr(sys, "stdin", stdin)
    code = main(["play", "--rules", rules.name, "--seed", str(seed)], out=out)
    text = out.getvalue()
    assert code == 0
    assert text.startswith(
        f"{rules.name}: you are player 0, against 3 bots (greedy, greedy, greedy).\n"
        "Type cards to play (e.g. '7h 7s' or '10♥'), 'pass', 'hint', 'help' or 'quit'.\n"
    )
    dealt = GameState.deal(rules, 4, seed).hands[0]
    assert f"your hand: {dealt.unicode()}" in text
    assert "not allowed" not in text
    assert stdin.answers
    assert text.count("legal: ") == len(stdin.answers)
    assert re.search(r"^(> )?finish order: (player \d(, )?){4}$", text, re.MULTILINE)
    assert re.search(r"^scores: (player \d [+-]\d+(, )?){4}$", text, re.MULTILINE)


def test_play_explains_an_illegal_input_and_asks_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each refused input is explained and asked again; ``quit`` exits 0 (RULES §1.5, §2.4)."""
    seed = next(s for s in range(100) if GameState.deal(CLASSIC, 4, s).to_act == 0)
    hand = GameState.deal(CLASSIC, 4, seed).hands[0]
    other = next(
        str(card) for card in parse_cards("2h 2d 2c 2s Ah") if card not in hand
    )
    not_three = str(hand.cards[-1])
    lines = ["zz", "pass", other, not_three, f"3s {not_three}", "hint", "quit"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    code, text = run("play", "--seed", str(seed))
    assert code == 0
    refusals = [
        line
        for line in text.splitlines()
        if "not allowed: " in line or "cannot read" in line
    ]
    assert len(refusals) == 5
    assert refusals[0].endswith(
        "cannot read 'zz': zz is not a card: write a rank (3 to 10, J, Q, K, A, 2) "
        "and a suit (s, c, d, h), such as 7h."
    )
    shown = parse_cards(other)[0].unicode()
    assert refusals[1].endswith("not allowed: You open this trick: you must play.")
    assert refusals[2].endswith(f"not allowed: You do not hold {shown}.")
    assert refusals[3].endswith(
        "not allowed: The first play of the game must include 3♠."
    )
    assert refusals[4].endswith("is not a combination.")
    assert "legal: 3♠" in text
    assert text.count("> ") == len(lines)
    assert text.count("your hand: ") == 1  # asked again, not dealt again
    assert "finish order" not in text


@pytest.mark.parametrize("stdin", ["quit\n", "", "hint\nquit\n"], ids=repr)
def test_play_quit_or_end_of_input_exits_0(
    stdin: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``quit``, or the end of standard input, leaves the game with exit code 0."""
    seed = next(s for s in range(100) if GameState.deal(CLASSIC, 4, s).to_act == 0)
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code, text = run("play", "--seed", str(seed))
    assert code == 0
    assert "your hand: " in text
    assert "finish order" not in text


def test_play_bad_options_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown variant or table size: exit 2 before any question is asked."""
    assert run("play", "--rules", "bridge") == (2, "")
    assert "unknown variant: 'bridge'" in capsys.readouterr().err
    assert run("play", "--players", "1", "--seed", "1") == (2, "")
    assert "classic is played by 2-4 players, not 1" in capsys.readouterr().err


def pass_or_lowest_card() -> str:
    """Input for any number of prompts: ``pass``, else every card from the lowest up.

    Passing is legal whenever following; a lead refuses it and is then offered every
    card in ascending order, so the lowest card held is led (on the first lead that is
    3♠ or the lowest dealt card, RULES §2.4). Later cards are tried on the next
    prompts, where some beat the top.
    """
    deck = [f"{rank}{suit}" for rank in "3456789TJQKA2" for suit in "scdh"]
    return "".join(f"{line}\n" for line in ["pass", *deck] * 80)


@pytest.mark.parametrize("launcher", LAUNCHERS, ids=LAUNCHER_IDS)
@pytest.mark.parametrize("rules", ["classic", "poker"])
def test_play_as_a_program(launcher: list[str], rules: str) -> None:
    """The program plays a whole game from piped input, and ``quit`` exits 0."""
    seed = playable_seed(RULESETS[rules], 4)
    done = run_program(
        launcher,
        "play",
        "--rules",
        rules,
        "--seed",
        str(seed),
        stdin=pass_or_lowest_card(),
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert "finish order: " in done.stdout
    assert re.search(
        r"^scores: (player \d [+-]\d+(, )?){4}$", done.stdout, re.MULTILINE
    )
    done = run_program(launcher, "play", "--seed", "1", stdin="hint\nquit\n")
    assert (done.returncode, done.stderr) == (0, "")
    assert "legal: " in done.stdout


# -- simulate -----------------------------------------------------------------------

_NAMES: dict[str, type[GreedyPlayer | RandomPlayer]] = {
    "greedy": GreedyPlayer,
    "random": RandomPlayer,
}


def library_stats(games: int, names: list[str], rules: BaseRules, seed: int) -> object:
    """The ``--json`` object `simulate` gives for the same arguments (docs/cli.md).

    Every per-seat list is indexed by seat first (``places[seat][place]``).
    """
    players: list[Player] = [_NAMES[name]() for name in names]
    stats = simulate(games, rules=rules, players=players, seed=seed)
    seats = range(stats.seats)
    return {
        "rules": rules.name,
        "seed": seed,
        "games": stats.games,
        "players": names,
        "win_rates": list(stats.win_rates),
        "mean_scores": list(stats.mean_scores),
        "confidence_intervals": [
            list(stats.confidence_interval(seat)) for seat in range(stats.seats)
        ],
        "places": [[row[seat] for row in stats.places] for seat in seats],
        "mean_actions": stats.mean_actions,
        "bombs": list(stats.bombs),
        "chops": list(stats.chops),
    }


def test_simulate_prints_a_table() -> None:
    """``simulate`` prints the variant and seats, `SimulationStats.summary` and bombs."""
    players: list[Player] = [GreedyPlayer(), RandomPlayer(), RandomPlayer()]
    stats = simulate(120, rules=VIETCONG, players=players, seed=3)
    code, text = run(
        "simulate",
        "--games",
        "120",
        "--players",
        "3",
        "--bots",
        "Greedy, random",
        "--rules",
        "vc",
        "--seed",
        "3",
    )
    assert code == 0
    lines = text.splitlines()
    assert lines[0] == "vietcong, 120 games, players: 0=greedy, 1=random, 2=random"
    assert lines[1] == f"actions per game: {stats.mean_actions:.1f}"
    names = ["greedy", "random", "random"]
    ordinals = ["1st", "2nd", "3rd"]
    for seat, line in enumerate(lines[2:5]):
        low, high = stats.confidence_interval(seat)
        places = ", ".join(
            f"{ordinals[place]} {row[seat]}" for place, row in enumerate(stats.places)
        )
        assert line == (
            f"player {seat} ({names[seat]}): win rate {stats.win_rates[seat]:.3f}, "
            f"mean score {stats.mean_scores[seat]:+.3f} "
            f"(95% interval {low:+.3f} to {high:+.3f}), places {places}"
        )
    bombs = ", ".join(f"player {seat} {n}" for seat, n in enumerate(stats.bombs))
    chops = ", ".join(f"player {seat} {n}" for seat, n in enumerate(stats.chops))
    assert lines[5:] == [f"bombs played: {bombs}; chops: {chops}"]
    assert "(" not in lines[5]  # no tuple


def test_simulate_in_vietnamese() -> None:
    """``simulate --lang vi``: every line in Vietnamese, the last place *bét*."""
    code, text = run("simulate", "--games", "30", "--players", "2", "--lang", "vi")
    assert code == 0
    lines = text.splitlines()
    assert lines[0] == "classic, 30 ván, người chơi: 0=greedy, 1=random"
    assert lines[1].startswith("số lượt mỗi ván: ")
    assert lines[2].startswith("người chơi 0 (greedy): tỉ lệ thắng ")
    assert ", về nhất " in lines[2]
    assert ", bét " in lines[2]
    assert lines[4].startswith("số lần đánh hàng: người chơi 0 ")
    assert not re.search(r"\b(games|player|win rate|bombs)\b", text)


def test_simulate_json_keys() -> None:
    """``--json``: the documented keys, equal to `simulate` with the same arguments."""
    code, data = run(
        "simulate", "--games", "80", "--rules", "poker", "--seed", "4", "--json"
    )
    assert code == 0
    decoded = strict_json(data)
    assert isinstance(decoded, dict)
    assert list(decoded) == [
        "rules",
        "seed",
        "games",
        "players",
        "win_rates",
        "mean_scores",
        "confidence_intervals",
        "places",
        "mean_actions",
        "bombs",
        "chops",
    ]
    names = ["greedy", "random", "random", "random"]
    assert decoded == library_stats(80, names, POKER, 4)
    places = decoded["places"]
    assert isinstance(places, list)
    assert [sum(row) for row in places] == [80] * 4  # places[seat][place]


def test_simulate_workers_give_the_same_results() -> None:
    """``--workers 2`` gives exactly the results of ``--workers 1``, across chunks."""
    argv = ["simulate", "--games", "1100", "--players", "2", "--json"]
    serial = run(*argv, "--workers", "1")
    assert serial[0] == 0
    assert run(*argv, "--workers", "2") == serial
    assert strict_json(serial[1]) == library_stats(
        1100, ["greedy", "random"], CLASSIC, 0
    )


def test_simulate_one_game_is_standard_json() -> None:
    """With one game the confidence intervals are unknown: still standard JSON (null)."""
    code, text = run("simulate", "--games", "1", "--json")
    assert code == 0
    decoded = strict_json(text)
    assert isinstance(decoded, dict)
    assert decoded["games"] == 1


BAD_SIMULATE = [
    (["--bots", "greedy,bogus"], "unknown bot 'bogus' (known: random, greedy)"),
    (["--bots", "greedy,random,random"], "3 bots named for 2 seats"),
    (["--games", "0"], "--games and --workers must be at least 1"),
    (["--workers", "0"], "--games and --workers must be at least 1"),
    (
        ["--workers", str(4 * (os.cpu_count() or 1) + 1)],
        f"--workers must be at most {4 * (os.cpu_count() or 1)} (four per CPU)",
    ),
    (["--rules", "nope"], "unknown variant: 'nope'"),
    (["--players", "1"], "classic is played by 2-4 players, not 1"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_SIMULATE, ids=str)
def test_simulate_bad_input_exits_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown player or variant, or no games: exit 2 with the error on stderr."""
    players = [] if "--players" in argv else ["--players", "2"]
    assert run("simulate", "--games", "10", *players, *argv) == (2, "")
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("launcher", LAUNCHERS, ids=LAUNCHER_IDS)
def test_simulate_as_a_program(launcher: list[str]) -> None:
    """The program gives the in-process answer; an unknown player exits 2 on stderr."""
    argv = [
        "simulate",
        "--games",
        "60",
        "--players",
        "2",
        "--bots",
        "random,greedy",
        "--json",
    ]
    done = run_program(launcher, *argv)
    assert (done.returncode, done.stdout, done.stderr) == (0, run(*argv)[1], "")
    done = run_program(launcher, "simulate", "--bots", "greedy,bogus")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "tienlen: error: unknown bot 'bogus' (known: random, greedy)\n"
    )


# -- the program --------------------------------------------------------------------


@pytest.mark.parametrize("launcher", LAUNCHERS, ids=LAUNCHER_IDS)
def test_program_exit_codes(launcher: list[str]) -> None:
    """As a program: 0 for yes, 1 for no, 2 for bad input with the error on stderr."""
    done = run_program(launcher, "classify", "3s", "4s", "5h")
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "3-card straight, 5♥ high: 3♠ 4♠ 5♥\n",
        "",
    )
    done = run_program(launcher, "beats", "5s 5c 5d 5h", "Ah")
    assert done.returncode == 1
    assert done.stdout.startswith("No: a four of a kind cannot beat a single A")
    done = run_program(launcher, "plays", "3s 4s", "--on", "5d 5h", "--json")
    assert (done.returncode, json.loads(done.stdout)) == (
        1,
        {"rules": "classic", "plays": {}},
    )
    done = run_program(launcher, "classify", "3s", "1x")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("tienlen: error: invalid card '1x'")
    done = run_program(launcher, "demo", "--seed", "3")
    assert done.returncode == 0
    assert done.stdout == run("demo", "--seed", "3")[1]


def test_console_script_is_main() -> None:
    """The ``tienlen`` console script declared in pyproject.toml runs `tienlen.cli.main`."""
    pyproject = Path(__file__).parents[2] / "pyproject.toml"
    scripts = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts == {"tienlen": "tienlen.cli:main"}


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """No command, an unknown command or option, a missing argument: exit 2 with usage."""
    for argv in (
        ["deal"],
        ["classify"],
        ["beats", "3s"],
        ["plays", "3s", "--bogus"],
        ["demo", "--seed", "x"],
        ["play", "--json"],
    ):
        assert main(argv, out=io.StringIO()) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("usage: tienlen"), argv


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    """``--help`` prints the commands to the output stream and exits 0."""
    out = io.StringIO()
    assert main(["--help"], out=out) == 0
    shown = out.getvalue()
    assert capsys.readouterr().out == ""
    for command in ("classify", "beats", "plays", "play", "demo", "simulate"):
        assert command in shown


def test_main_defaults_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    """Without *out*, `main` prints to ``sys.stdout``."""
    assert main(["classify", "2h"]) == 0
    assert capsys.readouterr().out == "single, 2♥ high: 2♥\n"


def test_kinds_are_reported_in_order() -> None:
    """The text output of ``plays`` lists kinds in `ComboKind` order."""
    _, text = run("plays", "3s 3c 4s 4c 5s 5c 6d 7d 8d 8h 8s 8c", "--rules", "vc")
    labels = [m[1] for m in re.finditer(r"^  (.+?) \(\d+\):", text, re.MULTILINE)]
    assert labels == [kind.label for kind in ComboKind if kind.label in labels]
    assert len(labels) >= 5
