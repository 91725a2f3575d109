"""Structure-aware fuzz target: edited real positions (issue 20, "Also").

Run (the first directory receives new inputs, the second is the seed corpus)::

    .venv/bin/pip install -e ".[fuzz]"
    .venv/bin/python fuzz/fuzz_positions.py -max_total_time=20 -timeout=5 NEW fuzz/corpus/positions

The input's bytes choose a real position (a state of a seeded random game under a
preset or a house-rule table, `position_edits.real_positions`) and one to three
edits of its fields (hands, played cards, passes, items, chop, frozen, bottom, out,
the player to act, the top's player, the first-lead flags). An input fails if
`GameState.from_notation` raises anything but a `TienLenError`, or if the state it
reads has a listed action that raises, a state that is not over with nobody to act
or nobody able to act, or a game that never ends (`position_edits.check_position`).
"""

# ruff: noqa: INP001  (a script directory, not a package)

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from position_edits import check_position, edit, real_positions


class BytesChooser:
    """Choices read from the fuzzer's bytes (zero once they run out)."""

    def __init__(self, data: bytes) -> None:
        self._provider = atheris.FuzzedDataProvider(data)

    def pick(self, count: int) -> int:
        """A number in ``range(count)``."""
        return int(self._provider.ConsumeIntInRange(0, count - 1))


def test_one_input(data: bytes) -> None:
    """Edit the position *data* chooses, as it chooses; check the contract."""
    positions = real_positions()
    chooser = BytesChooser(data)
    text = edit(positions[chooser.pick(len(positions))], chooser)
    check_position(text, chooser)


def main() -> None:
    """Hand the target to libFuzzer with the command-line arguments."""
    real_positions()  # built once, before the fuzzing starts
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
