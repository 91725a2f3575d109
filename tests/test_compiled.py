"""The optional compiled core: `tienlen.COMPILED` and pickling (issue 11 §3).

The same tests run against the pure build (an editable install or the pure wheel)
and against the mypyc wheel: ``.ci/run`` installs each wheel in a fresh virtual
environment, sets ``TIENLEN_EXPECT_COMPILED`` to ``1`` or ``0`` and runs the whole
suite, so every other test also checks that both builds give the same answers.
"""

from __future__ import annotations

import ast
import importlib.metadata
import inspect
import os
import pickle
import signal
import subprocess
import sys
import types
from collections.abc import Callable, Iterator, Sequence
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType
from typing import TypeVar

import pytest

import tienlen
from tienlen import (
    CLASSIC,
    POKER,
    RULESETS,
    Actions,
    BaseRules,
    GameState,
    InvalidCardError,
    RandomPlayer,
    actions,
    batch,
    combos,
    game,
    legal_plays,
    simulate,
)
from tienlen.engine import (
    answers,
    bits,
    classification,
    counts,
    greedy,
    keys,
    kinds,
    movegen,
    positions,
    referee,
    rulebook,
    shapes,
    shuffle,
    turns,
    view,
)
from tienlen.engine.movegen import Tables

T = TypeVar("T")

CORE: tuple[ModuleType, ...] = (
    combos,
    actions,
    game,
    batch,
    bits,
    counts,
    kinds,
    shapes,
    shuffle,
    movegen,
    turns,
    rulebook,
    positions,
    keys,
    view,
    referee,
    classification,
    greedy,
    answers,
)
"""The modules the build hook compiles (``hatch_build.COMPILED_MODULES``): the engine
and the public modules that define its classes."""

PRESETS = [pytest.param(rules, id=rules.name) for rules in RULESETS.values()]


def round_trip(value: T) -> T:
    """*value* pickled and unpickled."""
    copy: T = pickle.loads(pickle.dumps(value))  # noqa: S301 - our own bytes
    return copy


def _is_extension(module: ModuleType) -> bool:
    return str(module.__file__).endswith(tuple(EXTENSION_SUFFIXES))


def test_compiled_is_a_bool() -> None:
    """Issue 11 §3: `COMPILED` is a plain bool, exported."""
    assert type(tienlen.COMPILED) is bool
    assert "COMPILED" in tienlen.__all__


def test_compiled_says_whether_the_core_is_an_extension() -> None:
    """Issue 11 §3, issue 21 item 6: the engine is compiled as a whole or not at all."""
    assert [_is_extension(module) for module in CORE] == [tienlen.COMPILED] * len(CORE)


def _hook_list(name: str) -> tuple[str, ...]:
    """The tuple *name* of ``hatch_build.py``, read from the checkout (no hatchling)."""
    hook = Path(__file__).resolve().parents[1] / "hatch_build.py"
    if not hook.is_file():  # pragma: no cover - the tests outside a checkout
        pytest.skip("hatch_build.py is not beside the tests")
    for node in ast.parse(hook.read_text(encoding="utf-8")).body:
        target: ast.expr
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign):
            target, value = node.targets[0], node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id == name and value is not None:
            modules: tuple[str, ...] = ast.literal_eval(value)
            return modules
    pytest.fail(f"hatch_build.py defines no {name}")


def test_the_build_compiles_every_engine_module() -> None:
    """Issue 21 item 6: the compiled build compiles the engine, every module of it.

    A new module of `tienlen.engine` must be added to ``COMPILED_MODULES`` (and to
    `CORE`), or to ``PURE_ENGINE_MODULES`` with its reason, or the compiled build
    would run it as Python without anyone noticing.
    """
    engine = Path(str(bits.__file__)).parent
    names = {
        path.name.split(".")[0]
        for path in engine.iterdir()
        if path.name.endswith((".py", *EXTENSION_SUFFIXES))
    } - {"__init__"}
    names -= {name.removeprefix("engine/") for name in _hook_list("NATIVE_EXTENSIONS")}
    modules = _hook_list("COMPILED_MODULES")
    pure = _hook_list("PURE_ENGINE_MODULES")
    engine_modules = [module for module in modules if module.startswith("engine/")]
    assert sorted(f"engine/{name}.py" for name in names) == sorted(
        [*engine_modules, *pure]
    )
    assert [module.__name__ for module in CORE] == [
        "tienlen." + name.removesuffix(".py").replace("/", ".") for name in modules
    ]


def test_compiled_matches_the_installed_wheel() -> None:
    """Issue 11 §3: a compiled core comes from a platform wheel, a pure one from a pure wheel.

    The wheel's own metadata (``Root-Is-Purelib``) says how it was built.
    """
    try:
        wheel = importlib.metadata.distribution("tienlen").read_text("WHEEL")
    except (
        importlib.metadata.PackageNotFoundError
    ):  # pragma: no cover - a bare checkout
        pytest.skip("tienlen is not installed")
    assert wheel is not None
    assert ("Root-Is-Purelib: false" in wheel) is tienlen.COMPILED


def test_compiled_matches_what_ci_built() -> None:
    """Issue 11 §3: CI says which wheel it installed; `COMPILED` must agree."""
    expected = os.environ.get("TIENLEN_EXPECT_COMPILED")
    if expected is None:
        pytest.skip("TIENLEN_EXPECT_COMPILED is not set (only .ci/run sets it)")
    assert tienlen.COMPILED is (expected == "1")


@pytest.mark.parametrize("name", ["classify", "beats", "legal_plays"])
def test_rule_set_methods_are_documented_python(name: str) -> None:
    """Issue 21: `BaseRules`' hot methods keep their documentation in both builds.

    Each is a Python method with its docstring and example, and one call into the
    engine function of its name, which is compiled in the compiled build (mypyc drops
    a compiled function's docstring: the method carries it).
    """
    method = BaseRules.__dict__[name]
    assert isinstance(method, types.FunctionType)
    assert method.__module__ == "tienlen.rules.base"
    assert ">>>" in (method.__doc__ or "")
    function = getattr(classification, name)
    assert isinstance(function, types.FunctionType) is not tienlen.COMPILED


@pytest.mark.parametrize("rules", PRESETS)
def test_rule_set_methods_answer_as_the_engine(rules: BaseRules) -> None:
    """Issue 21: a rule set's methods give the engine functions' answers."""
    pair, single, king = (rules.classify(c) for c in ("5s 5h", "2h", "Ks"))
    assert pair is not None
    assert single is not None
    assert king is not None
    assert pair == classification.classify(rules, "5s 5h")
    assert rules.beats(single, king) is classification.beats(rules, single, king)
    hand = tienlen.Hand.parse("3s 4s 5h 5d 6c 6d 7h 2h")
    assert list(rules.legal_plays(hand, pair)) == list(
        classification.legal_plays(rules, hand, pair)
    )
    assert rules.beats(single, pair) is classification.judge(rules, single, pair)


@pytest.mark.parametrize("rules", PRESETS)
def test_tables_pickle(rules: BaseRules) -> None:
    """Pickling contract: a rule set's compiled tables round-trip, pure or compiled."""
    tables = rules._compiled
    copy = round_trip(tables)
    assert type(copy) is Tables
    assert copy.valid_keys == tables.valid_keys
    assert copy.bombers == tables.bombers
    assert copy.max_rank == tables.max_rank
    assert [f.kind for f in copy.lead_families] == [
        f.kind for f in tables.lead_families
    ]
    hand = GameState.deal(rules, 4, seed=7).hands[0].mask
    assert list(copy.plays(hand, 0)) == list(tables.plays(hand, 0))


@pytest.mark.parametrize("rules", PRESETS)
def test_rules_pickle_and_still_generate_plays(rules: BaseRules) -> None:
    """Pickling contract: an unpickled rule set is equal and answers the same."""
    copy = round_trip(rules)
    assert copy == rules
    hand = "3s 4s 5h 5d 6c 6d 7h 7s 8d 9d Ts 2h 2s"
    assert list(legal_plays(hand, None, copy)) == list(legal_plays(hand, None, rules))


def test_lazy_leads_pickle_as_their_plays() -> None:
    """Pickling contract: the lazy lead sequence pickles as the list of its plays."""
    hand = "3s 4s 5h 5d 6c 6d 7h"
    leads = CLASSIC._compiled.plays(tienlen.Hand.parse(hand).mask, 0)
    assert type(leads) is movegen.Leads  # runs: the lazy sequence (by type)
    copy: object = round_trip(leads)
    assert copy == list(leads) == list(legal_plays(hand).masks)


def test_games_pickle_mid_play() -> None:
    """Pickling contract: a state pickles mid-game and plays on identically."""
    state = GameState.deal(POKER, 4, seed=3)
    for _ in range(5):
        state = state.apply(state.legal_actions()[0])
    copy = round_trip(state)
    assert list(copy.legal_actions()) == list(state.legal_actions())


def test_simulate_on_two_processes_matches_serial() -> None:
    """Issue 11 §3: worker processes unpickle the rules (no hang) and agree with serial."""
    import multiprocessing  # noqa: PLC0415 - only this test starts processes

    players = [RandomPlayer()] * 4
    serial = simulate(8, rules=CLASSIC, players=players, seed=1, batch_size=4)
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pooled = simulate(
            8, rules=CLASSIC, players=players, seed=1, batch_size=4, executor=pool
        )
    assert pooled == serial


def test_actions_keep_their_own_abc_registry() -> None:
    """`Actions` and `Leads` are `Sequence`s, and a list is neither, in both builds.

    mypyc builds a compiled class without ABCMeta's set-up: without its own registry
    `Actions` would answer from `Sequence`'s caches, where a list is an instance.
    """
    actions_of_a_deal = GameState.deal(CLASSIC, 4, seed=1).legal_actions()
    assert isinstance([], Sequence)  # fills Sequence's cache with list
    assert not isinstance([], Actions)
    assert not isinstance((), Actions)
    assert isinstance(actions_of_a_deal, Sequence)
    assert issubclass(Actions, Sequence)
    assert not isinstance([], movegen.Leads)  # the move generator's lazy leads too
    assert issubclass(movegen.Leads, Sequence)


def test_the_actions_fields_are_its_slots() -> None:
    """`tienlen.actions.FIELDS` names the slots (a compiled class has none to read)."""
    slots = getattr(Actions, "__slots__", None)
    if tienlen.COMPILED:
        assert not slots
    else:
        assert slots == actions.FIELDS


def test_no_compiled_module_calls_the_play_class() -> None:
    """Compiled code builds a checked `Play` with `actions.checked_play`, never ``Play(...)``.

    mypyc's native constructor of a class with ``__new__`` drops an error its
    ``__init__`` raises: a refused play would come back half-built, with the error
    left set (a `SystemError` later).
    """
    package = Path(str(bits.__file__)).parents[1]
    calls = [
        f"{name}:{node.lineno}"
        for name in _hook_list("COMPILED_MODULES")
        for node in ast.walk(ast.parse((package / name).read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "Play"
    ]
    assert calls == []


@pytest.mark.parametrize(
    ("act", "error"),
    [
        (lambda state: state.play("zz"), InvalidCardError),
        (lambda state: state.play("3s", player=True), TypeError),
        (lambda state: state.parse_action("3s zz"), InvalidCardError),
        (lambda state: state.parse_action("3s", player=1.0), TypeError),
    ],
    ids=["play-bad-cards", "play-bool-seat", "parse-bad-cards", "parse-float-seat"],
)
def test_a_refused_play_raises_from_compiled_code(
    act: Callable[[GameState], object], error: type[Exception]
) -> None:
    """A `Play` the engine builds from what a caller wrote is refused with its own error."""
    state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
    with pytest.raises(error):
        act(state)


def _documented(module: ModuleType) -> Iterator[tuple[str, object, str]]:
    """``(name, object, docstring)`` of *module* and what its source documents.

    Read from the module's source beside it (the wheel ships it): the module, its
    functions and classes, and their methods and properties; dunder methods are
    slots (their docstrings are Python's), ``@overload`` stubs are the function's.
    """
    path = Path(str(module.__file__))
    source = path.with_name(module.__name__.rpartition(".")[2] + ".py")
    tree = ast.parse(source.read_text(encoding="utf-8"))
    yield module.__name__, module, ast.get_docstring(tree) or ""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name in vars(
            module
        ):
            found = vars(module)[node.name]
            yield f"{module.__name__}.{node.name}", found, ast.get_docstring(node) or ""
            if isinstance(node, ast.ClassDef):
                yield from _members(module, found, node)


def _members(
    module: ModuleType, cls: type, node: ast.ClassDef
) -> Iterator[tuple[str, object, str]]:
    """The methods and properties of *cls* (*node* in its source) with a docstring."""
    for member in node.body:
        if not isinstance(member, ast.FunctionDef):
            continue
        name = member.name
        if name.startswith("__") or any(
            getattr(decorator, "id", "") == "overload"
            or getattr(decorator, "attr", "") == "setter"
            for decorator in member.decorator_list
        ):
            continue
        doc = ast.get_docstring(member)
        if doc and name in vars(cls):
            yield f"{module.__name__}.{cls.__name__}.{name}", vars(cls)[name], doc


@pytest.mark.parametrize("module", CORE, ids=lambda module: module.__name__)
def test_compiled_modules_keep_their_docstrings(module: ModuleType) -> None:
    """``help()`` shows the engine's documentation in both builds.

    mypyc keeps no docstring itself; the build writes each one into the C it
    generates (``mypyc_docstrings.py``).
    """
    lost = [
        name
        for name, found, doc in _documented(module)
        if inspect.cleandoc(getattr(found, "__doc__", None) or "") != doc
    ]
    assert not lost, f"{len(lost)} docstrings lost: {lost[:10]}"


SIGNALLED_GAMES = """
import random, signal
from tienlen import CLASSIC_TWO_DECKS, RULESETS, GameState, GreedyPlayer, RandomPlayer, play_game

armed = False

def tick(signum, frame):  # Ctrl-C's handler, while a game is played
    global armed
    if armed:
        armed = False
        raise KeyboardInterrupt

signal.signal(signal.SIGALRM, tick)
rng, ticks, games = random.Random(1), 0, 0
tables = [(rules, 4) for rules in RULESETS.values()] + [(CLASSIC_TWO_DECKS, 6)]
for rules, players in tables:  # compile each rule book first (on first use, some ms)
    GameState.deal(rules, players, seed=0).legal_actions()
while ticks < 1000:
    try:
        signal.setitimer(signal.ITIMER_REAL, rng.uniform(0.00005, 0.002))
        armed = True
        rules, players = tables[games % len(tables)]
        state = GameState.deal(rules, players, seed=games)
        play_game(state, [GreedyPlayer(), RandomPlayer()] * (players // 2), rng)
        armed = False
        games += 1
    except KeyboardInterrupt:
        ticks += 1
signal.setitimer(signal.ITIMER_REAL, 0)
print(ticks, games)
"""


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="lands signals by SIGALRM")
def test_a_signal_anywhere_in_a_game_is_the_handler_s_exception() -> None:
    """A signal handler's exception (Ctrl-C's KeyboardInterrupt) surfaces, never an abort.

    Compiled, a product of ints above 2**30 is Python's long multiplication, which runs
    pending signal handlers; mypyc takes its failure for out of memory and aborts the
    process ("fatal: out of memory"). The engine keeps such products out of its loops.
    A thousand timer signals land at random points of games (every preset, and two
    decks); each must surface as the handler's ``KeyboardInterrupt``.
    """
    done = subprocess.run(  # noqa: S603 - this interpreter, our own script
        [sys.executable, "-c", SIGNALLED_GAMES],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    ticks, games = map(int, done.stdout.split())
    assert ticks == 1000
    assert games > 0
