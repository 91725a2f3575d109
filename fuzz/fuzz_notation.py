"""Coverage-guided fuzz target: `GameState.from_notation` on any text (issue 13 §3).

Run (the first directory receives new inputs, the second is the seed corpus)::

    .venv/bin/pip install -e ".[fuzz]"
    .venv/bin/python fuzz/fuzz_notation.py -max_total_time=20 -timeout=5 NEW fuzz/corpus/notation

An input fails if reading raises anything but `NotationError`, if the message is
longer than 400 characters or names no field and character, if it takes more than
``-timeout`` seconds (bounded work), or if a state read does not write back to text
that reads as the same state with the same legal actions.
"""

# ruff: noqa: INP001  (a script directory, not a package)

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from tienlen import GameState
    from tienlen.notation import NotationError

MESSAGE_LIMIT = 400


def test_one_input(data: bytes) -> None:
    """Read the text *data* encodes as a position; check the contract."""
    text = data.decode("utf-8", "surrogateescape")
    try:
        state = GameState.from_notation(text)
    except NotationError as error:
        if len(str(error)) > MESSAGE_LIMIT or error.position is None:
            raise AssertionError(str(error)[:MESSAGE_LIMIT]) from None
        return
    again = GameState.from_notation(state.notation())
    if again != state or again.notation() != state.notation():
        raise AssertionError(f"a position read does not write back: {text[:80]!r}")
    if list(again.legal_actions()) != list(state.legal_actions()):
        raise AssertionError(f"legal actions differ after a round trip: {text[:80]!r}")


def main() -> None:
    """Hand the target to libFuzzer with the command-line arguments."""
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
