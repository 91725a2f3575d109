"""Differential fuzz target: the native move generator against the pure one (issue 36).

Run, once the extension is built (``python tools/build_native.py``)::

    .venv/bin/pip install -e ".[fuzz]"
    .venv/bin/python fuzz/fuzz_movegen.py -max_total_time=60 -timeout=5 NEW fuzz/corpus/movegen

The input's bytes choose a rule set (a preset or a data house rule, one deck or two), a
hand (a sub-multiset of the rule set's decks, at most `MOST_CARDS` cards), a top (0, or one of the rule set's
keys) and a card (0, or one of the hand's). An input fails if the native `Tables` and a
pure copy (``native`` set to ``None``) answer `Tables.plays`, `Tables.bombs` or
`Tables.leads` (listed, keyed and counted) differently, the same masks in the same
order or the same error. The rest of the input is then handed raw to each native entry
point: it must answer, or raise `TypeError`, `ValueError`, `KeyError` or a
`TienLenError`, never crash.
"""

# ruff: noqa: INP001  (a script directory, not a package)

from __future__ import annotations

import contextlib
import copy
import sys
from collections.abc import Callable

import atheris

with atheris.instrument_imports():
    import attrs

    from tienlen import CLASSIC, CLASSIC_TWO_DECKS, POKER, RULESETS, VIETCONG, ComboKind
    from tienlen.engine import native
    from tienlen.engine.movegen import Leads, Tables
    from tienlen.errors import TienLenError


def _rule_sets() -> list[tuple[Tables, Tables, int]]:
    """Each rule set's tables, a pure copy, and its decks."""
    five = CLASSIC.kinds | {ComboKind.FIVE_OF_A_KIND}
    seats = {"decks": 2, "min_players": 5, "max_players": 5}
    rules = [
        *RULESETS.values(),
        CLASSIC_TWO_DECKS,
        attrs.evolve(CLASSIC, name="five", kinds=five, **seats),
        attrs.evolve(
            POKER,
            name="poker-five",
            kinds=POKER.kinds | {ComboKind.FIVE_OF_A_KIND},
            place_points=(4, 2, 1, 0, 0),
            **seats,
        ),
        attrs.evolve(
            CLASSIC,
            name="triples",
            kinds=CLASSIC.kinds | {ComboKind.CONSECUTIVE_TRIPLES},
            min_consecutive_triples=2,
        ),
        attrs.evolve(
            VIETCONG, name="quads", kinds=VIETCONG.kinds | {ComboKind.CONSECUTIVE_QUADS}
        ),
        attrs.evolve(CLASSIC, name="no-bomb-leads", bombs_may_lead=False),
    ]
    out = []
    for rule_set in rules:
        tables = rule_set._tables  # the generator under test
        assert tables is not None
        assert tables.native is not None, "the native generator refused a rule set"
        pure = copy.copy(tables)
        pure.native = None
        out.append((tables, pure, rule_set.decks))
    return out


MOST_CARDS = 40
"""The most cards of a fuzzed hand: the pure generator lists its plays well within the
five-second timeout (a listing past `MAX_LISTED_PLAYS` is refused, both sides)."""
RULE_SETS: list[tuple[Tables, Tables, int]] = []
KEYS: list[list[int]] = []


def _answer(call: Callable[[], object]) -> object:
    """What *call* returns, listed, or its error (type and message)."""
    try:
        result = call()
        if isinstance(result, Leads):
            return len(result), _answer(result.listed), _answer(result.keyed)
        return list(result)  # type: ignore[call-overload]
    except (TienLenError, KeyError) as error:
        return type(error), str(error)


def test_one_input(data: bytes) -> None:
    """Compare both generators where *data* chooses; then feed the rest raw."""
    provider = atheris.FuzzedDataProvider(data)
    index = provider.ConsumeIntInRange(0, len(RULE_SETS) - 1)
    tables, pure, decks = RULE_SETS[index]
    low = provider.ConsumeIntInRange(0, (1 << 52) - 1)
    high = provider.ConsumeIntInRange(0, (1 << 52) - 1) if decks == 2 else 0
    hand = low | (high & low) << 52
    while hand.bit_count() > MOST_CARDS:  # bounded work: drop the highest card
        top_card = (hand & (1 << 52) - 1).bit_length() - 1
        hand &= ~(1 << top_card | 1 << top_card + 52)
    keys = KEYS[index]
    pick = provider.ConsumeIntInRange(0, len(keys))
    top = keys[pick - 1] if pick else 0
    cards = [c for c in range(52) if hand >> c & 1]
    pick = provider.ConsumeIntInRange(0, len(cards))
    card = 1 << cards[pick - 1] if pick else 0
    for ask in (
        lambda t: t.plays(hand, top),
        lambda t: t.bombs(hand, top) if top else [],
        lambda t: t.leads(hand, card),
    ):
        native_answer = _answer(lambda: ask(tables))  # noqa: B023  # called at once
        pure_answer = _answer(lambda: ask(pure))  # noqa: B023
        if native_answer != pure_answer:
            msg = f"differ: {hex(hand)} top {top} card {card}: {native_answer} != {pure_answer}"
            raise AssertionError(msg)
    generator = tables.native
    raw = [provider.ConsumeInt(provider.ConsumeIntInRange(1, 16)) for _ in range(3)]
    for name in ("plays", "bombs", "lead_sets", "lead_runs", "keyed_runs"):
        entry = getattr(generator, name)
        args = raw if name.endswith("runs") else raw[:2]
        with contextlib.suppress(TypeError, ValueError, KeyError, TienLenError):
            entry(*args)


def main() -> None:
    """Hand the target to libFuzzer with the command-line arguments."""
    if native.MODULE is None:
        sys.exit("the native generator is not built (python tools/build_native.py)")
    RULE_SETS[:] = _rule_sets()
    KEYS[:] = [sorted(tables.valid_keys) for tables, _, _ in RULE_SETS]
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
