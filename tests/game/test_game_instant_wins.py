"""Instant wins at the deal under house rules, through the engine (RULES §12.5)."""

from __future__ import annotations

import attrs

from tienlen import CLASSIC, GameState, InstantWin

FOUR_THREES = attrs.evolve(
    CLASSIC, name="four-threes", instant_wins={InstantWin.FOUR_THREES}
)
HANDS = ["3s 3c 3d 3h 9s", "4s 5c 6d 7h 8s", "Ts Jc Qd Kh As"]


def test_four_threes_win_the_first_game_at_the_deal() -> None:
    """RULES §12.5: four 3s in the first game win at once; the game is over."""
    state = GameState.from_hands(HANDS, FOUR_THREES)
    assert state.result is not None
    assert state.result.instant_win is InstantWin.FOUR_THREES
    assert state.result.winner == 0


def test_four_threes_do_not_win_a_later_game() -> None:
    """RULES §12.5: four 3s count only in the first game of a match."""
    state = GameState.from_hands(HANDS, FOUR_THREES, first_game=False, leader=1)
    assert state.result is None
    assert state.to_act == 1
