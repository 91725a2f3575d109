"""Coverage-guided fuzz target: `tienlen.records.loads` on any bytes (issue 14, 5).

Run (the first directory receives new inputs, the second is the seed corpus)::

    .venv/bin/pip install -e ".[fuzz]"
    .venv/bin/python fuzz/fuzz_records.py -max_total_time=30 -timeout=5 NEW fuzz/corpus/records

An input fails if `loads` raises anything but `RecordError`, if the message is longer
than 400 characters, if it takes more than ``-timeout`` seconds (bounded work), or if a
record that loads does not write back to text that loads as the same record.
"""

# ruff: noqa: INP001  (a script directory, not a package)

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from tienlen import records

MESSAGE_LIMIT = 400


def test_one_input(data: bytes) -> None:
    """Load *data* as bytes, or (first byte odd) as text; check the contract."""
    source: str | bytes = data[1:]
    if data[:1] and data[0] & 1:
        source = data[1:].decode("utf-8", "surrogateescape")
    try:
        game = records.loads(source)
    except records.RecordError as error:
        if len(str(error)) > MESSAGE_LIMIT:
            raise AssertionError(str(error)[:MESSAGE_LIMIT]) from None
        return
    if records.loads(records.dumps(game)) != game:
        raise AssertionError("a loaded record does not write back to itself")


def main() -> None:
    """Hand the target to libFuzzer with the command-line arguments."""
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
