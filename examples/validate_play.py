"""Referee plays typed by a user: accept the legal ones, explain the others.

Run ``python examples/validate_play.py ["7h 7s" ...]``; without arguments a few sample
inputs are checked. A game server does the same with what its clients send.
"""

from __future__ import annotations

import sys

from tienlen import CLASSIC, GameState, IllegalPlayError, InvalidCardError


def referee(state: GameState, text: str) -> GameState:
    """Apply *text* as the play of the player to act, or explain why it is refused."""
    try:
        new_state = (
            state.pass_turn() if text.strip().lower() == "pass" else state.play(text)
        )
    except InvalidCardError as error:
        print(f"  {text!r}: not card text: {error}")
        return state
    except IllegalPlayError as error:
        print(f"  {text!r}: refused ({error.reason.name}): {error}")
        return state
    print(
        f"  {text!r}: accepted; player {new_state.to_act} to act, top {new_state.top}"
    )
    return new_state


def main(inputs: list[str]) -> None:
    """Start a small classic game and referee each input in turn."""
    state = GameState.from_hands(
        ["3s 4s 5h 9d 2c", "3h 6c 6d 8s Kh", "4d 7c 7d Jh Ah"], CLASSIC
    )
    print(state)
    for text in inputs or [
        "4s",
        "3s 4s 5x",
        "pass",
        "3s 4s 5h",
        "6c 6d",
        "6c 7c 8s",
        "pass",
    ]:
        state = referee(state, text)


if __name__ == "__main__":
    main(sys.argv[1:])
