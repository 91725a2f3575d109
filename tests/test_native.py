"""Issue 36 item 1: native move generation gives the pure generator's plays, in order.

The pure Python of `tienlen.engine.movegen.Tables` is the reference: every test here
asks a rule set's tables twice, natively and with the native generator switched off
(a copy whose ``native`` is ``None``), and compares the lists, in order, or the errors.
Skipped when the extension is not built (``python tools/build_native.py``); failing
instead when ``TIENLEN_EXPECT_NATIVE=1`` says it must be there.
"""

from __future__ import annotations

import copy
import functools
import importlib.util
import os
import random
import subprocess
import sys
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tienlen
from tests.strategies import house_rules
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    POKER,
    RULESETS,
    VIETCONG,
    BaseRules,
    Bomb,
    ComboKind,
    Shape,
    TienLenError,
)
from tienlen.engine import native
from tienlen.engine.movegen import MAX_LISTED_PLAYS, SUBSETS, Leads, Tables

ROOT = Path(__file__).resolve().parent.parent
INSTALLED = str(Path(str(tienlen.__file__)).resolve().parents[1])
"""Where the `tienlen` under test is imported from: a subprocess imports the same."""
EXPECTED = os.environ.get("TIENLEN_EXPECT_NATIVE") == "1"


def test_the_native_generator_is_there_when_expected() -> None:
    """``TIENLEN_EXPECT_NATIVE=1`` (a native build's test run) fails on a pure import."""
    if not EXPECTED:
        pytest.skip("TIENLEN_EXPECT_NATIVE is not set")
    assert tienlen.NATIVE
    assert CLASSIC._tables is not None
    assert CLASSIC._tables.native is not None


needs_native = pytest.mark.skipif(
    native.MODULE is None and not EXPECTED,
    reason="the native generator is not built (tools/build_native.py)",
)


def _five_of_a_kind(preset: BaseRules, **changes: Any) -> BaseRules:
    """*preset* on two decks for five players, with five of a kind (RULES §12.14)."""
    seats: dict[str, Any] = {"decks": 2, "min_players": 5, "max_players": 5}
    if preset.place_points and len(preset.place_points) != 5:
        seats["place_points"] = (4, 2, 1, 0, 0)
    return attrs.evolve(
        preset,
        name=f"{preset.name}-five",
        aliases=(),
        kinds=preset.kinds | {ComboKind.FIVE_OF_A_KIND},
        **seats,
        **changes,
    )


def _five_bombs(rules: BaseRules) -> BaseRules:
    """*rules* with five of a kind a bomb above a four, and wherever a four bombs."""
    five = Shape.of(ComboKind.FIVE_OF_A_KIND)
    four = Shape.of(ComboKind.FOUR_OF_A_KIND)
    rows = {Bomb(bomb=five, target=four)} | {
        Bomb(bomb=five, target=row.target, target_rank=row.target_rank)
        for row in rules.bombs
        if row.bomb == four
    }
    return attrs.evolve(rules, bombs=rules.bombs | rows)


def _house_rules() -> dict[str, BaseRules]:
    """Data house rules (RULES §12) over the presets, one deck and two."""
    evolve = attrs.evolve
    triples = CLASSIC.kinds | {ComboKind.CONSECUTIVE_TRIPLES}
    quads = CLASSIC.kinds | {ComboKind.CONSECUTIVE_QUADS}
    return {
        "classic-two-decks": CLASSIC_TWO_DECKS,
        "no-2s-in-runs": evolve(
            CLASSIC,
            name="no-2s",
            twos_in_straights=False,
            twos_in_consecutive_pairs=False,
        ),
        "pair-runs-3-5": evolve(
            CLASSIC, name="pairs-3-5", min_consecutive_pairs=3, max_consecutive_pairs=5
        ),
        "consecutive-triples": evolve(
            CLASSIC,
            name="triples",
            kinds=triples,
            min_consecutive_triples=2,
            max_consecutive_triples=4,
        ),
        "consecutive-quads": evolve(VIETCONG, name="quads", kinds=quads),
        "no-bomb-leads": evolve(
            CLASSIC,
            name="no-bomb-leads",
            bombs_may_lead=False,
            four_of_a_kind_may_lead=False,
        ),
        "pair-runs-beat-twos": evolve(CLASSIC, name="k-pairs", pair_runs_beat_twos=1),
        "longer-pair-runs": evolve(
            CLASSIC, name="longer", longer_pair_runs_beat_shorter=True
        ),
        "five-classic": _five_of_a_kind(CLASSIC),
        "five-classic-bomb": _five_bombs(_five_of_a_kind(CLASSIC)),
        "five-classic-bomb-no-lead": evolve(
            _five_bombs(_five_of_a_kind(CLASSIC)), bombs_may_lead=False
        ),
        "five-poker": _five_of_a_kind(POKER),
        "five-vietcong-bomb": _five_bombs(_five_of_a_kind(VIETCONG)),
        "two-decks-triples": evolve(
            CLASSIC_TWO_DECKS, name="two-decks-triples", kinds=triples
        ),
    }


RULE_SETS: dict[str, BaseRules] = {**RULESETS, **_house_rules()}


def _tables(rules: BaseRules) -> tuple[Tables, Tables]:
    """The rule set's tables, native, and a copy generating in pure Python."""
    tables = rules._tables
    assert tables is not None
    pure = copy.copy(tables)
    pure.native = None
    if tables.native is None:
        pytest.fail("the native generator refused a library rule set's tables")
    return tables, pure


def _answer(call: Callable[[], object]) -> object:
    """What *call* returns, listed, or the error it raises (type and message)."""
    try:
        result = call()
        if isinstance(result, Leads):
            return "Leads", len(result), _answer(result.listed), _answer(result.keyed)
        return type(result).__name__, list(result)  # type: ignore[call-overload]
    except (TienLenError, KeyError) as error:
        return type(error), str(error)


def _hand(rng: random.Random, decks: int) -> int:
    """A random hand: mostly dealt sizes, a tenth of the time up to every card."""
    most = 52 * decks if rng.random() < 0.1 else 20
    size = rng.randint(0, most)
    cards = rng.sample(range(52 * decks), size)
    mask = 0
    for index in cards:
        card = index % 52
        mask |= 1 << card + 52 if mask >> card & 1 else 1 << card
    return mask


def _positions(
    tables: Tables, decks: int, count: int, seed: int
) -> Iterator[tuple[int, int, int]]:
    """*count* random (hand, top, card): tops among the rule set's keys.

    The top is 0 a tenth of the time; the card is one of the hand's, or 0.
    """
    rng = random.Random(seed)
    keys = sorted(tables.valid_keys)
    for _ in range(count):
        hand = _hand(rng, decks)
        top = 0 if rng.random() < 0.1 else rng.choice(keys)
        cards = [c for c in range(52) if hand >> c & 1]
        card = 1 << rng.choice(cards) if cards and rng.random() < 0.5 else 0
        yield hand, top, card


ASKS: dict[str, Callable[[Tables, int, int, int], object]] = {
    "plays": lambda tables, hand, top, _: tables.plays(hand, top),
    "leads": lambda tables, hand, _, card: tables.leads(hand, card),
    "bombs": lambda tables, hand, top, _: tables.bombs(hand, top) if top else [],
}
"""What the lockstep asks both generators at each position."""


def lockstep(tables: Tables, pure: Tables, decks: int, count: int, seed: int) -> int:
    """Compare the two generators on *count* random positions; how many plays listed."""
    listed = 0
    for hand, top, card in _positions(tables, decks, count, seed):
        for name, ask in ASKS.items():
            native_answer = _answer(functools.partial(ask, tables, hand, top, card))
            pure_answer = _answer(functools.partial(ask, pure, hand, top, card))
            assert native_answer == pure_answer, (name, hex(hand), top, card)
            if isinstance(pure_answer, tuple) and isinstance(pure_answer[-1], list):
                listed += len(pure_answer[-1])
    return listed


@needs_native
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_lockstep(name: str) -> None:
    """Random hands and tops of every preset and data house rule: the same lists."""
    rules = RULE_SETS[name]
    tables, pure = _tables(rules)
    assert lockstep(tables, pure, rules.decks, 1_000, seed=36) > 0


@needs_native
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_lockstep_long(name: str) -> None:
    """As `test_lockstep`, 4,000 more positions each."""
    rules = RULE_SETS[name]
    tables, pure = _tables(rules)
    lockstep(tables, pure, rules.decks, 4_000, seed=3600)


@needs_native
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(house_rules(), st.integers(0, 2**32))
def test_lockstep_generated_house_rules(rules: BaseRules, seed: int) -> None:
    """Generated house rules (tests/strategies.py): the same lists, or both pure."""
    tables = rules._tables
    if tables is None:  # a rule needs suits (RULES §12.2): no tables, the object path
        assert rules.suited_straights
        return
    native_tables, pure = _tables(rules)
    lockstep(native_tables, pure, rules.decks, 40, seed)


@needs_native
def test_suited_straights_take_the_object_path() -> None:
    """A rule that needs suits compiles no tables: neither generator runs (documented)."""
    rules = attrs.evolve(CLASSIC, name="suited", suited_straights=True)
    assert rules._tables is None


def _as_leads(plays: object) -> Leads:
    assert isinstance(plays, Leads)
    return plays


@needs_native
def test_too_many_plays_is_the_same_error() -> None:
    """Every card of two decks leads more than `MAX_LISTED_PLAYS` plays: one error."""
    tables, pure = _tables(_five_of_a_kind(CLASSIC))
    everything = (1 << 104) - 1
    calls: list[Callable[[Tables], object]] = [
        lambda t: _as_leads(t.leads(everything)).listed(),
        lambda t: _as_leads(t.leads(everything)).keyed(),
        lambda t: t.plays(everything, 6 << 12 | 12 << 6 | 23),  # six pairs, 8♥ on top
    ]
    for call in calls:
        native_answer = _answer(functools.partial(call, tables))
        assert native_answer == _answer(functools.partial(call, pure))
        assert isinstance(native_answer, tuple)
        assert native_answer[0] is TienLenError
        assert f"at most {MAX_LISTED_PLAYS}" in native_answer[1]


@needs_native
def test_a_lead_through_a_card_builds_only_runs_it_lists() -> None:
    """Runs that end below the card's rank are neither listed nor built.

    Six full ranks of two decks (ten pairs each) under seven ranks holding one pair:
    the pair runs of at most six ranks through a 2 are 5,471, while the runs of the
    six full ranks, never listed, are a million. Built, they took 19 MB; now the C
    allocates no more than the plays it lists.
    """
    rules = attrs.evolve(CLASSIC_TWO_DECKS, name="six-pairs", max_consecutive_pairs=6)
    tables, pure = _tables(rules)
    full = sum(15 << 4 * rank for rank in range(6))
    one_pair = sum(1 << 4 * rank for rank in range(6, 13))
    hand = (full | one_pair) * (1 + (1 << 52))
    two = 1 << 48
    expected = _as_leads(pure.leads(hand, two)).listed()
    tracemalloc.start()
    try:
        listed = _as_leads(tables.leads(hand, two)).listed()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert listed == expected
    assert len(listed) == 5_471
    assert peak < 2_000_000


# --- bad input: every entry point checks what it is handed ---------------------


def _generator() -> Any:
    """CLASSIC's native generator."""
    tables = CLASSIC._tables
    assert tables is not None
    return tables.native


BAD_MASKS: list[tuple[object, type[Exception]]] = [
    ("3s", TypeError),
    (1.0, TypeError),
    (None, TypeError),
    (-1, ValueError),
    (-(2**80), ValueError),
    (1 << 104, ValueError),
    (2**200, ValueError),
]


@needs_native
@pytest.mark.parametrize(("value", "error"), BAD_MASKS)
@pytest.mark.parametrize(
    "method", ["plays", "bombs", "lead_sets", "lead_runs", "keyed_runs"]
)
def test_a_bad_hand_is_refused(
    method: str, value: object, error: type[Exception]
) -> None:
    """A hand that is no card mask: `TypeError` or `ValueError`, at every entry point."""
    entry = getattr(_generator(), method)
    args = (value, 0, 0) if method.endswith("runs") else (value, 1)
    with pytest.raises(error):
        entry(*args)


@needs_native
@pytest.mark.parametrize(
    ("top", "error"),
    [
        ("x", TypeError),
        (0, ValueError),
        (-5, ValueError),
        (1 << 16, ValueError),
        (2**70, ValueError),
    ],
)
@pytest.mark.parametrize("method", ["plays", "bombs"])
def test_a_bad_top_is_refused(method: str, top: object, error: type[Exception]) -> None:
    """A top that is no key (or 0, which `Tables.plays` answers as a lead) is refused."""
    with pytest.raises(error):
        getattr(_generator(), method)(0b111, top)


@needs_native
@pytest.mark.parametrize(
    ("card", "error"),
    [(3, ValueError), (1 << 52, ValueError), (-1, ValueError), ("c", TypeError)],
)
@pytest.mark.parametrize("method", ["lead_sets", "lead_runs", "keyed_runs"])
def test_a_bad_card_is_refused(
    method: str, card: object, error: type[Exception]
) -> None:
    """A card that is not one card's mask (nor 0) is refused."""
    args = (0b111, card, 0) if method.endswith("runs") else (0b111, card)
    with pytest.raises(error):
        getattr(_generator(), method)(*args)


@needs_native
@pytest.mark.parametrize(
    "method", ["plays", "bombs", "lead_sets", "lead_runs", "keyed_runs"]
)
def test_a_wrong_number_of_arguments_is_refused(method: str) -> None:
    """Too few or too many arguments: `TypeError`."""
    entry = getattr(_generator(), method)
    for args in ((), (1,), (1, 2, 3, 4, 5)):
        with pytest.raises(TypeError):
            entry(*args)


@needs_native
def test_a_bad_offset_is_refused() -> None:
    """The runs' offset (the sets listed before them) is a count: an int, not negative."""
    generator = _generator()
    with pytest.raises(ValueError, match="offset"):
        generator.lead_runs(0b111, 0, -1)
    with pytest.raises(TypeError):
        generator.keyed_runs(0b111, 0, "0")
    with pytest.raises(TienLenError):  # the sets already fill the listing
        generator.lead_runs(0b111_0111_0111, 0, MAX_LISTED_PLAYS)


@needs_native
def test_an_unknown_shape_on_top_is_a_key_error_as_in_python() -> None:
    """A top whose kind the rule set lacks: `KeyError`, as the pure tables' lookup."""
    key = 9 << 12 | 5 << 6 | 51  # five of a kind: not a one-deck kind
    tables, pure = _tables(CLASSIC)
    assert _answer(lambda: tables.plays(0b1111, key)) == _answer(
        lambda: pure.plays(0b1111, key)
    )


def _arguments() -> dict[str, Any]:
    """A valid constructor call's arguments: CLASSIC's tables, as `generator` hands them."""
    tables = CLASSIC._tables
    assert tables is not None
    counts, pieces = native.subset_bytes(SUBSETS)
    return {
        "counts": counts,
        "pieces": pieces,
        "families": tuple(native._row(f) for f in tables.families.values()),
        "leads": tuple(native._row(f) for f in tables.lead_families),
        "all_sets": tables.all_sets,
        "single_cards": tables.single_cards,
        "bombers": tuple(
            (key, tuple(codes)) for key, codes in sorted(tables.bombers.items())
        ),
        "limit": MAX_LISTED_PLAYS,
        "error": TienLenError,
    }


def _with(**changes: Any) -> dict[str, Any]:
    return {**_arguments(), **changes}


BAD_TABLES: list[tuple[str, Callable[[], dict[str, Any]], type[Exception]]] = [
    ("counts not bytes", lambda: _with(counts="x" * 2304), TypeError),
    ("counts short", lambda: _with(counts=b"\0" * 100), ValueError),
    ("pieces short", lambda: _with(pieces=_arguments()["pieces"][:-1]), ValueError),
    ("pieces long", lambda: _with(pieces=_arguments()["pieces"] + b"\1"), ValueError),
    (
        "a piece off its state",
        lambda: _with(pieces=b"\xff" + _arguments()["pieces"][1:]),
        ValueError,
    ),
    ("families not a tuple", lambda: _with(families=[]), TypeError),
    ("a family too short", lambda: _with(families=((1, 1, 0, 1, 1),)), TypeError),
    (
        "a kind out of range",
        lambda: _with(families=((16, 1, 0, 1, 1, 12),)),
        ValueError,
    ),
    (
        "a max rank out of range",
        lambda: _with(families=((1, 1, 0, 1, 1, 13),)),
        ValueError,
    ),
    ("a one-rank run", lambda: _with(leads=((5, 1, 1, 1, 5, 12),)), ValueError),
    ("a set of two lengths", lambda: _with(leads=((2, 2, 0, 1, 2, 12),)), ValueError),
    (
        "two families of a kind",
        lambda: _with(families=((1, 1, 0, 1, 1, 12),) * 2),
        ValueError,
    ),
    (
        "too many lead families",
        lambda: _with(leads=((1, 1, 0, 1, 1, 12),) * 65),
        ValueError,
    ),
    ("bombers not a tuple", lambda: _with(bombers={}), TypeError),
    ("bombers unsorted", lambda: _with(bombers=((200, ()), (100, ()))), ValueError),
    ("a bomb of no family", lambda: _with(bombers=((100, (9 << 6 | 5,)),)), ValueError),
    (
        "a bomb of a wrong length",
        lambda: _with(bombers=((100, (6 << 6 | 40,)),)),
        ValueError,
    ),
    ("a bomb entry not a pair", lambda: _with(bombers=((100,),)), TypeError),
    ("single cards too high", lambda: _with(single_cards=1 << 60), ValueError),
    ("a negative limit", lambda: _with(limit=-1), ValueError),
    ("error not a class", lambda: _with(error="boom"), TypeError),
    ("error not an exception", lambda: _with(error=int), TypeError),
]


@needs_native
@pytest.mark.parametrize(
    ("make", "error"),
    [(make, error) for _, make, error in BAD_TABLES],
    ids=[name for name, _, _ in BAD_TABLES],
)
def test_malformed_tables_are_refused(
    make: Callable[[], dict[str, Any]], error: type[Exception]
) -> None:
    """Tables that do not fit the generator's layout are refused when it is made."""
    module = native.MODULE
    assert module is not None
    with pytest.raises(error):
        module.MoveGen(**make())


@needs_native
def test_the_generator_is_made_once_and_only_used_made() -> None:
    """A generator is made once; one not (or not yet) made refuses to answer."""
    module = native.MODULE
    assert module is not None
    made = module.MoveGen(**_arguments())
    with pytest.raises(TypeError):
        made.__init__(**_arguments())
    blank = module.MoveGen.__new__(module.MoveGen)
    with pytest.raises(ValueError, match="not initialised"):
        blank.plays(1, 65)
    failed = module.MoveGen.__new__(module.MoveGen)
    with pytest.raises(ValueError, match="ascend"):
        failed.__init__(**_with(bombers=((200, ()), (100, ()))))
    failed.__init__(**_arguments())  # a failed __init__ leaves it unmade: made now
    assert failed.plays(1 << 51, 1 << 12 | 1 << 6 | 0) == made.plays(1 << 51, 65 << 6)


def test_pure_is_forced_by_the_environment() -> None:
    """``TIENLEN_PURE=1`` at import: `tienlen.NATIVE` is ``False``, tables have none."""
    code = (
        "import tienlen; print(tienlen.NATIVE, tienlen.CLASSIC._tables.native is None)"
    )
    env = {**os.environ, "TIENLEN_PURE": "1", "PYTHONPATH": INSTALLED}
    out = subprocess.run(  # noqa: S603  # this interpreter, our own code
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split() == ["False", "True"]


@needs_native
def test_native_reports_the_extension() -> None:
    """`tienlen.NATIVE` says whether the extension is in use."""
    assert tienlen.NATIVE is (native.MODULE is not None)


@pytest.mark.slow
def test_lockstep_under_sanitizers(tmp_path: Path) -> None:
    """Issue 36: the C built with AddressSanitizer and UBSan passes this file's tests.

    The lockstep and bad-input tests run in a subprocess, the sanitized extension
    loaded in place of the built one; any report fails.
    """
    script_path = ROOT / "tools" / "build_native.py"
    if not script_path.is_file():  # the tests outside a checkout (an sdist)
        pytest.skip("tools/build_native.py is not beside the tests")
    spec = importlib.util.spec_from_file_location("build_native", script_path)
    assert spec is not None
    assert spec.loader is not None
    build_native = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_native)
    try:
        libasan = build_native.libasan()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("no C compiler")
    if not Path(libasan).is_file():
        pytest.skip("the compiler has no AddressSanitizer runtime")
    built = build_native.build(tmp_path, sanitize=True)
    assert built is not None, "the sanitizer build failed"
    script = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('tienlen.engine._native', {str(built)!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "sys.modules['tienlen.engine._native'] = module\n"
        "import pytest\n"
        "sys.exit(pytest.main(['-q', '-x', '-p', 'no:cacheprovider', '-m', 'not slow',\n"
        f"    {str(Path(__file__))!r}]))\n"
    )
    env = {
        **os.environ,
        "LD_PRELOAD": libasan,
        "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1",
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
        "TIENLEN_EXPECT_NATIVE": "1",
        "PYTHONPATH": INSTALLED,
    }
    env.pop("TIENLEN_PURE", None)
    result = subprocess.run(  # noqa: S603  # this interpreter, our own code
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=1200,
    )
    report = result.stdout[-3000:] + result.stderr[-6000:]
    assert result.returncode == 0, report
    assert "ERROR: AddressSanitizer" not in result.stderr, report
    assert "runtime error:" not in result.stderr, report
