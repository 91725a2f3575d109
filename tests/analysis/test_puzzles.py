"""Puzzles: `make_puzzle`, `generate_puzzles`, the shipped sets and their loader."""

from __future__ import annotations

import importlib.resources
import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

from tienlen import (
    CLASSIC,
    POKER,
    GameState,
    GreedyPlayer,
    InvalidArgumentError,
    Observation,
    Pass,
    Play,
    TienLenError,
)
from tienlen.analysis import (
    Puzzle,
    PuzzleFormatError,
    PuzzleSet,
    SolverLimitError,
    generate_puzzles,
    load_puzzles,
    make_puzzle,
    solve,
)
from tienlen.analysis import puzzles as puzzles_module
from tienlen.analysis.puzzles import default_players, fingerprint, shipped


def values(state: GameState) -> dict[str, int]:
    """Every legal action of the player to act and its exact final score for them."""
    mover = state.to_act
    assert mover is not None
    scores: dict[str, int] = {}
    for action in state.legal_actions():
        after = state.apply(action)
        result = after.result
        final = result.scores if result is not None else solve(after).scores
        scores[str(action)] = final[mover]
    return scores


def assert_unique_best(puzzle: Puzzle) -> None:
    """*puzzle*'s answer scores strictly more than every other action (solved afresh)."""
    state = puzzle.state
    scores = values(state)
    best = scores.pop(str(puzzle.answer))
    assert all(score < best for score in scores.values()), (puzzle.position, scores)
    assert state.notation() == puzzle.position
    assert puzzle.fingerprint == fingerprint(puzzle.position, puzzle.answer)
    after = state
    for action in puzzle.line:
        after = after.apply(action)
    assert after.result is not None
    assert after.result.scores[puzzle.seat] == best  # the line is the winning line


# -- make_puzzle ------------------------------------------------------------------


def test_a_unique_winning_play_is_a_puzzle() -> None:
    """Only the 2 wins: passing lets the 6 out."""
    state = GameState.from_hands(["3s 4s 2h", "5d 6d"], CLASSIC).play("3s").play("5d")
    assert values(state) == {"2h": 1, "pass": -1}
    puzzle = make_puzzle(state)
    assert puzzle is not None
    assert puzzle.answer == Play(player=0, cards="2h")
    assert [str(action) for action in puzzle.line] == ["2h", "pass", "4s"]
    assert puzzle.themes == ("two",)
    assert puzzle.moves == 3
    assert_unique_best(puzzle)


def test_no_puzzle_where_every_play_wins_or_every_play_loses() -> None:
    """Two winning plays, or none: not a puzzle."""
    both_win = GameState.from_hands(["3s 9h", "5d 6d"], CLASSIC)
    assert set(values(both_win).values()) == {1}
    assert make_puzzle(both_win) is None
    all_lose = GameState.from_hands(["3s 2h", "4d 5d 6c"], CLASSIC).play("3s")
    assert set(values(all_lose).values()) == {-1}
    assert make_puzzle(all_lose) is None


def test_a_position_with_one_legal_action_is_no_puzzle() -> None:
    """Nothing to choose: nothing to find."""
    state = GameState.from_hands(["3s", "5d 6d"], CLASSIC)
    assert len(state.legal_actions()) == 1
    assert make_puzzle(state) is None


def test_bomb_out_and_pass_themes() -> None:
    """Only the bomb beats the 2 (it also goes out here); generated passes say "pass"."""
    top = "played - / 2h; to 0; top 2h by 1"
    bomb = GameState.from_notation(
        f"tienlen 1; rules classic; hands 4s 4c 5s 5c 6s 6c 9h / 7d; {top}"
    )
    puzzle = make_puzzle(bomb)
    assert puzzle is not None
    assert puzzle.themes == ("bomb",)
    assert [str(action) for action in puzzle.line] == [
        "4s 4c 5s 5c 6s 6c",
        "pass",
        "9h",
    ]
    out = GameState.from_notation(
        f"tienlen 1; rules classic; hands 4s 4c 5s 5c 6s 6c / 7d; {top}"
    )
    assert make_puzzle(out).themes == ("bomb", "out")  # type: ignore[union-attr]
    shipped_pass = next(
        found
        for found in load_puzzles("classic").puzzles
        if found.answer == Pass(player=found.seat)
    )
    passing = make_puzzle(shipped_pass.state)
    assert passing is not None
    assert passing.themes == ("pass",)


def test_make_puzzle_refuses_what_it_cannot_answer() -> None:
    """A finished game, junk, a budget too small: clear errors, the position unchanged."""
    state = GameState.from_hands(["3s 4s 2h", "5d 6d"], CLASSIC).play("3s").play("5d")
    with pytest.raises(InvalidArgumentError, match="over"):
        make_puzzle(GameState.from_hands(["3s", "5d 6d"], CLASSIC).play("3s"))
    with pytest.raises(TypeError):
        make_puzzle("tienlen 1; rules classic")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        make_puzzle(state, max_nodes=0)
    with pytest.raises(SolverLimitError):
        make_puzzle(GameState.deal(CLASSIC, players=2, seed=1), max_nodes=50)
    assert make_puzzle(state) is not None


def test_a_jump_in_position_is_no_puzzle() -> None:
    """Poker: while another seat may jump in, the player to act alone does not decide."""
    hands = ["3s 2h 9c", "3c 3d 4c 4d 5c 5d 6c 6d Kc", "7c 8c"]
    state = GameState.from_hands(hands, POKER)
    state = state.play("3s").play("7c").play("Kc").play("2h")  # seat 1 may jump in
    assert any(action.player != state.to_act for action in state.legal_actions())
    assert make_puzzle(state) is None


# -- generate_puzzles ---------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        pytest.param(name, marks=pytest.mark.slow) if name == "poker" else name
        for name in shipped()
    ],
)
def test_generated_puzzles_are_unique_best_plays_greedy_misses(rules: str) -> None:
    """Every generated puzzle's answer, solved afresh, is the only best play.

    And the Greedy bot's choice is another.
    """
    generated = generate_puzzles(rules, 4, seed=11)
    assert len(generated.puzzles) == 4
    assert generated.players == default_players(rules)
    for puzzle in generated.puzzles:
        assert_unique_best(puzzle)
        in_hand = sum(len(hand) for hand in puzzle.state.hands)
        assert generated.min_cards <= in_hand <= generated.max_cards
        state = puzzle.state
        greedy = GreedyPlayer().act(
            Observation.of(state, puzzle.seat), state.legal_actions(), random.Random()
        )
        assert not puzzle.is_answer(greedy)


def test_the_same_seed_gives_the_same_puzzles() -> None:
    """Generated twice: equal; a longer run begins with the shorter; another seed differs."""
    first = generate_puzzles("justus-pang", 3, seed=5)
    assert generate_puzzles("justus-pang", 3, seed=5) == first
    assert generate_puzzles("justus-pang", 2, seed=5).puzzles == first.puzzles[:2]
    other = generate_puzzles("justus-pang", 3, seed=6)
    assert {p.fingerprint for p in other.puzzles}.isdisjoint(
        p.fingerprint for p in first.puzzles
    )


def test_generation_is_bounded() -> None:
    """``max_games`` bounds the work: fewer puzzles, never a hang.

    A tiny node budget skips every position.
    """
    few = generate_puzzles("classic", 50, seed=1, max_games=5)
    assert few.games == 5
    assert len(few.puzzles) < 50
    starved = generate_puzzles("kenneth-lo", 2, seed=1, max_nodes=1, max_games=20)
    assert starved.puzzles == ()
    assert starved.games == 20


def test_generation_refuses_bad_arguments() -> None:
    """Counts and limits are checked before any game is played."""
    with pytest.raises(InvalidArgumentError):
        generate_puzzles("classic", 0)
    with pytest.raises(TypeError):
        generate_puzzles("classic", 2.0)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        generate_puzzles("classic", 2, players=1)
    with pytest.raises(InvalidArgumentError):
        generate_puzzles("classic", 2, min_cards=8, max_cards=7)
    with pytest.raises(TienLenError):
        generate_puzzles("no such rules", 2)


def test_progress_is_reported_after_each_game() -> None:
    """``progress(found, count)`` after every game played."""
    calls: list[tuple[int, int]] = []
    generated = generate_puzzles(
        "vietcong", 2, seed=2, progress=lambda *a: calls.append(a)
    )
    assert len(calls) == generated.games
    assert calls[-1] == (2, 2)


# -- JSON and the loader -------------------------------------------------------------


@pytest.fixture(scope="module")
def small() -> PuzzleSet:
    """A small generated set."""
    return generate_puzzles("justus-pang", 3, seed=4)


def test_json_round_trip(small: PuzzleSet) -> None:
    """`to_json` → text → `from_json`: equal."""
    data = json.loads(json.dumps(small.to_json()))
    assert data["format"] == "tienlen-puzzles"
    assert data["version"] == 1
    assert data["generator"]["seed"] == 4
    assert PuzzleSet.from_json(data) == small


def damaged(small: PuzzleSet, change: str) -> dict[str, object]:
    """*small*'s JSON with one thing broken."""
    data: dict[str, Any] = json.loads(json.dumps(small.to_json()))
    entry = data["puzzles"][1]
    if change == "fingerprint":
        entry["fingerprint"] = "0" * 16
    elif change == "answer":
        entry["answer"] = {"player": entry["answer"]["player"], "cards": "3s 3s"}
    elif change == "illegal":  # a fingerprint recomputed for an answer not held
        held = str(GameState.from_notation(entry["position"]).hands[0])
        entry["answer"] = {"player": entry["answer"]["player"], "cards": "2h"}
        if "2h" in held.split():
            entry["answer"]["cards"] = "3s"
        answer = Play(player=entry["answer"]["player"], cards=entry["answer"]["cards"])
        entry["fingerprint"] = fingerprint(entry["position"], answer)
    elif change == "line":
        entry["line"] = entry["line"][:1]
    elif change == "themes":
        entry["themes"] = ["bomb"]
    elif change == "twice":
        data["puzzles"].append(entry)
    elif change == "rules":
        data["rules"] = "classic"
    elif change == "version":
        data["version"] = 2
    elif change == "position":
        entry["position"] = entry["position"].replace("hands", "hans")
    elif change == "seed":
        data["generator"]["seed"] = "0"
    return data


@pytest.mark.parametrize(
    "change",
    [
        "fingerprint",
        "answer",
        "illegal",
        "line",
        "themes",
        "twice",
        "rules",
        "version",
        "position",
        "seed",
    ],
)
def test_a_damaged_set_is_refused(small: PuzzleSet, change: str) -> None:
    """Each kind of damage: `PuzzleFormatError`, which pickles."""
    with pytest.raises(PuzzleFormatError) as refused:
        PuzzleSet.from_json(damaged(small, change))
    again = pickle.loads(pickle.dumps(refused.value))  # noqa: S301 - our own error
    assert str(again) == str(refused.value)


@pytest.mark.parametrize("junk", [None, [], {"format": "tienlen-puzzles"}, "x", 3])
def test_junk_is_not_a_puzzle_set(junk: object) -> None:
    """Not a set at all: `PuzzleFormatError`."""
    with pytest.raises(PuzzleFormatError):
        PuzzleSet.from_json(junk)


@pytest.mark.parametrize("rules", shipped())
def test_every_preset_ships_a_verified_set(rules: str) -> None:
    """At least 100 puzzles a preset, loaded and verified.

    The first few are what the generator makes again from the file's own parameters.
    """
    puzzles = load_puzzles(rules)
    assert puzzles.rules == rules
    assert len(puzzles.puzzles) >= 100
    again = generate_puzzles(
        rules,
        3,
        puzzles.seed,
        players=puzzles.players,
        max_nodes=puzzles.max_nodes,
        min_cards=puzzles.min_cards,
        max_cards=puzzles.max_cards,
    )
    assert again.puzzles == puzzles.puzzles[:3]


@pytest.mark.parametrize("rules", shipped())
def test_shipped_answers_are_still_the_unique_best_plays(rules: str) -> None:
    """A sample of every shipped set, solved again: each answer is the only best play."""
    puzzles = load_puzzles(rules).puzzles
    for puzzle in random.Random(37).sample(puzzles, 50):
        assert_unique_best(puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("rules", shipped())
def test_every_shipped_answer_is_still_the_unique_best_play(rules: str) -> None:
    """Every puzzle of every shipped set, solved again (2 to 6 s a set)."""
    for puzzle in load_puzzles(rules).puzzles:
        assert_unique_best(puzzle)


def test_the_loader_refuses_what_is_not_shipped() -> None:
    """A rule set with no set, an unknown name: clear errors."""
    with pytest.raises(InvalidArgumentError, match="no puzzle set ships"):
        load_puzzles("classic-two-decks")
    with pytest.raises(TienLenError):
        load_puzzles("no such rules")


def test_the_loader_refuses_a_damaged_file(
    small: PuzzleSet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shipped file damaged on disk: `PuzzleFormatError`, not a wrong answer."""
    folder = tmp_path / "puzzle-sets"
    folder.mkdir()
    (folder / "justus-pang.json").write_text(json.dumps(damaged(small, "fingerprint")))
    (folder / "vietcong.json").write_text("{not json")
    monkeypatch.setattr(importlib.resources, "files", lambda _: tmp_path)
    puzzles_module._load.cache_clear()
    try:
        with pytest.raises(PuzzleFormatError, match="puzzle 2 is damaged"):
            load_puzzles("justus-pang")
        with pytest.raises(PuzzleFormatError, match="cannot be read"):
            load_puzzles("vietcong")
    finally:
        puzzles_module._load.cache_clear()


def test_puzzles_refuse_junk_fields() -> None:
    """A `Puzzle` built by hand checks its fields' types; fingerprint checks its own."""
    with pytest.raises(TypeError):
        Puzzle(3, Pass(player=0), (), (), "x")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Puzzle("p", "pass", (), (), "x")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        fingerprint("p", "pass")  # type: ignore[arg-type]
