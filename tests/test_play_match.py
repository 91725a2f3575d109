"""`play_match` and `GameState.final_result` (issue 22 §8): a `Match` played by bots."""

from __future__ import annotations

import random

import pytest

from tienlen import (
    CLASSIC,
    POKER,
    GameState,
    GreedyPlayer,
    InvalidArgumentError,
    InvalidStateError,
    Match,
    Player,
    RandomPlayer,
    play_game,
    play_match,
)


def _bots() -> list[Player]:
    return [GreedyPlayer(), RandomPlayer(), GreedyPlayer(), RandomPlayer()]


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
def test_play_match_is_play_game_then_record(rules: object) -> None:
    """Each game is `Match.deal`, `play_game` with the same rng, then `Match.record`.

    `play_game` asks the seats not to act whether to jump in under Poker, so a match
    played by `play_match` is played by the same protocol as a single game.
    """
    start = Match.start(rules, seed=5)  # type: ignore[arg-type]
    played = play_match(start, _bots(), random.Random(5), games=3)
    expected = start
    rng = random.Random(5)
    for _ in range(3):
        expected = expected.record(play_game(expected.deal(), _bots(), rng))
    assert played == expected
    assert played.game_count == 3
    assert start.game_count == 0  # the match given is unchanged


def test_zero_games_is_the_same_match() -> None:
    """``games=0`` plays nothing."""
    match = Match.start(CLASSIC, seed=2)
    assert play_match(match, _bots(), random.Random(2), games=0) == match


def test_bad_arguments_are_refused() -> None:
    """A wrong number of bots or games is an `InvalidArgumentError`, a wrong type a `TypeError`."""
    match = Match.start(CLASSIC, seed=2)
    rng = random.Random(2)
    with pytest.raises(InvalidArgumentError):
        play_match(match, _bots()[:3], rng)
    with pytest.raises(InvalidArgumentError):
        play_match(match, _bots(), rng, games=-1)
    with pytest.raises(TypeError):
        play_match(match, _bots(), rng, games=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        play_match("match", _bots(), rng)  # type: ignore[arg-type]


def test_final_result_is_the_result_of_a_finished_game() -> None:
    """`final_result` is `result` once the game is over, an error before."""
    state = GameState.deal(CLASSIC, 4, seed=3)
    with pytest.raises(InvalidStateError, match="not over"):
        state.final_result()
    final = play_game(state, _bots(), random.Random(3))
    assert final.final_result() is final.result
