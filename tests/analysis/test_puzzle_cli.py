"""``tienlen puzzle`` on the command line."""

from __future__ import annotations

import io
import json

import pytest

from tienlen import Pass
from tienlen.analysis import Puzzle, load_puzzles
from tienlen.analysis.explain import action_text
from tienlen.cli import main


class Terminal(io.StringIO):
    """Standard input that says it is a terminal."""

    def isatty(self) -> bool:
        """Yes."""
        return True


def run(
    monkeypatch: pytest.MonkeyPatch, stdin: io.StringIO | str, *argv: str
) -> tuple[int, str]:
    """Run the command line with *stdin*; its exit code and output."""
    stream = io.StringIO(stdin) if isinstance(stdin, str) else stdin
    monkeypatch.setattr("sys.stdin", stream)
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def puzzle(number: int, rules: str = "classic") -> Puzzle:
    """Puzzle *number* (from 1) of the shipped set."""
    return load_puzzles(rules).puzzles[number - 1]


def wrong_play(found: Puzzle) -> str:
    """A legal play of the puzzle's seat that is not the answer, a pass last."""
    wrong = [a for a in found.state.legal_actions() if not found.is_answer(a)]
    return str(min(wrong, key=lambda action: isinstance(action, Pass)))


def test_a_right_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """The answer: exit 0, "Right", then the winning line as `solve` tells it."""
    found = puzzle(3)
    code, said = run(monkeypatch, f"{found.answer}\n", "puzzle", "--number", "3")
    assert code == 0
    lines = said.splitlines()
    assert lines[0].startswith(f"Puzzle 3 of {len(load_puzzles().puzzles)} (classic, ")
    assert found.fingerprint in lines[0]
    assert lines[-found.moves - 2].startswith("Right: ")
    assert lines[-found.moves - 1] == "the winning line:"
    assert len(lines) == 6 + found.moves  # header, top, two hands, verdict, "the line:"


def test_a_wrong_play_shows_the_answer_and_the_refutation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another legal play: exit 1, "Wrong", the answer, the line that answers it."""
    found = puzzle(3)
    given = wrong_play(found)
    code, said = run(monkeypatch, given + "\n", "puzzle", "--number", "3")
    assert code == 1
    shown = found.state.parse_action(given)
    assert "Wrong: you played" in said
    assert f"after {action_text(shown)}, best play goes:" in said


def test_a_wrong_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """Passing when a play wins: "you passed"."""
    found = next(
        (number, p)
        for number, p in enumerate(load_puzzles().puzzles, 1)
        if not isinstance(p.answer, Pass) and p.state.is_legal(Pass(player=p.seat))
    )
    code, said = run(monkeypatch, "pass\n", "puzzle", "--number", str(found[0]))
    assert code == 1
    assert (
        f"Wrong: you passed; the best play is {action_text(found[1].answer)}." in said
    )


def test_nothing_to_read_shows_the_puzzle_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """End of input: the position, no verdict, exit 0."""
    code, said = run(monkeypatch, "", "puzzle", "--number", "5")
    assert code == 0
    assert "your hand:" in said
    assert "Right" not in said
    assert "Wrong" not in said


def test_answer_and_vietnamese(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--answer`` asks nothing; ``--lang vi`` writes Vietnamese."""
    code, said = run(monkeypatch, "junk\n", "puzzle", "--number", "7", "--answer")
    assert code == 0
    assert "answer: " in said
    found = puzzle(2, "vietcong")
    code, said = run(
        monkeypatch, f"{found.answer}\n", "puzzle", "--preset", "vc", "--number", "2",
        "--lang", "vi",
    )  # fmt: skip
    assert code == 0
    assert said.startswith("Câu đố 2/")
    assert "Đúng: " in said
    assert "đường thắng:" in said


def test_json(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--json``: the puzzle alone with nothing read; the verdict after a play."""
    found = puzzle(4, "poker")
    code, said = run(
        monkeypatch, "", "puzzle", "--preset", "poker", "--number", "4", "--json"
    )
    data = json.loads(said)
    assert code == 0
    assert data["position"] == found.position
    assert data["fingerprint"] == found.fingerprint
    assert "answer" not in data
    given = wrong_play(found)
    code, said = run(
        monkeypatch,
        given + "\n",
        "puzzle",
        "--preset",
        "poker",
        "--number",
        "4",
        "--json",
    )
    data = json.loads(said)
    assert code == 1
    assert data["correct"] is False
    cards = None if isinstance(found.answer, Pass) else str(found.answer.cards)
    assert data["answer"] == {"player": found.seat, "cards": cards}
    assert len(data["line"]) == data["moves"] == found.moves
    assert data["refutation"] is not None


def test_a_seed_chooses_the_same_puzzle(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--seed S`` draws the same puzzle each time."""
    first = run(monkeypatch, "", "puzzle", "--seed", "9", "--json")[1]
    second = run(monkeypatch, "", "puzzle", "--random", "--seed", "9", "--json")[1]
    assert json.loads(first) == json.loads(second)


def test_a_terminal_asks_again_after_a_bad_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a terminal: the question, a bad line explained, asked again."""
    found = puzzle(3)
    stdin = Terminal(f"zz\n\n{found.answer}\n")
    code, said = run(monkeypatch, stdin, "puzzle", "--number", "3")
    assert code == 0
    assert said.count("your play (cards, or 'pass'):") == 3
    assert "not allowed: " in said
    assert "Right: " in said


@pytest.mark.parametrize(
    ("stdin", "argv", "problem"),
    [
        ("zz\n", ["--number", "3"], "zz"),
        ("2s 2s\n", ["--number", "3"], ""),
        ("", ["--number", "0"], "--number must be 1 to"),
        ("", ["--number", "100000"], "--number must be 1 to"),
        ("", ["--number", "3", "--seed", "1"], "--seed chooses a random puzzle"),
        ("", ["--preset", "no-such-rules"], "unknown variant"),
        ("", ["--preset", "classic-two-decks"], "no puzzle set ships"),
        ("", ["--number", "3", "--random"], "not allowed with argument"),
    ],
)
def test_bad_input_exits_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stdin: str,
    argv: list[str],
    problem: str,
) -> None:
    """Bad input: exit code 2 and one clear line on standard error."""
    assert run(monkeypatch, stdin, "puzzle", *argv)[0] == 2
    assert problem in capsys.readouterr().err
