"""The public surface, discovered, and the junk thrown at it (tests/contract helpers).

Every public module of `tienlen` (a submodule whose name has no leading underscore)
and every name in its ``__all__`` is covered; a new module or function is covered
without being listed here. Callables are functions, classes (their constructors) and
the public methods of a sample instance of each class that has one below.
"""

from __future__ import annotations

import importlib
import inspect
import math
import pkgutil
import random
import types
from collections.abc import Callable, Iterable, Iterator
from typing import Final

import tienlen
from tests.forgery import AlwaysEqual, forged_pass, forged_play
from tienlen import CLASSIC, POKER, GameState, Hand, Pass, Play, classify
from tienlen.evaluation import EvaluationStats
from tienlen.records import record
from tienlen.search import ISMCTSPlayer, PIMCPlayer
from tienlen.simulation import SimulationStats

NOT_A_LIBRARY: Final = {
    "tienlen.cli": "a program: it reports errors as exit statuses (tests/cli)",
    "tienlen.__main__": "runs the program on import",
}
"""Public modules outside the contract, with the reason."""

LONG_BY_DESIGN: Final = {
    "simulate": "n_games sets the work: 2**70 games is a request, not bad input",
    "play_game": "bots decide how long a game takes",
    "process_pool": "starts processes (tests/sim/test_sim_faults.py)",
    "Match": "plays whole matches between bots (tests/game)",
}
"""Callables not thrown junk here (their contracts are tested where named)."""


WALKED_PACKAGES: Final = ("tienlen.search",)
"""Subpackages whose public submodules are walked too (issue 20 §9)."""


def public_modules() -> list[types.ModuleType]:
    """`tienlen` and each of its public submodules, imported."""
    found = [tienlen]
    packages: list[tuple[Iterable[str], str]] = [(tienlen.__path__, "tienlen.")]
    packages += [
        (importlib.import_module(name).__path__, f"{name}.") for name in WALKED_PACKAGES
    ]
    infos = [
        info for path, prefix in packages for info in pkgutil.iter_modules(path, prefix)
    ]
    for info in infos:
        name = info.name
        if name.rpartition(".")[2].startswith("_") or name in NOT_A_LIBRARY:
            continue
        try:
            found.append(importlib.import_module(name))
        except ModuleNotFoundError as missing:  # an extra's module, extra not installed
            if (missing.name or "").partition(".")[0] not in EXTRAS_DEPENDENCIES:
                raise
    return found


EXTRAS_DEPENDENCIES: Final = {
    "numpy",
    "pettingzoo",
    "gymnasium",
    "rlcard",
    "distributed",
}
"""What the modules of the extras import (``tienlen.rl`` needs ``tienlen[rl]``): their
surface is checked where the extra is installed, as in `.ci/run`."""


def forged_actions() -> list[object]:
    """Actions no honest caller builds (issue 14 item 8).

    `Play` and `Pass` refuse ``True`` and ``1.0`` as players, so those are forged
    around the constructors, as unpickling or ``object.__new__`` could.
    """
    return [
        forged_pass(True),
        forged_pass(1.0),
        forged_play(1.0, "3s"),
        forged_play(True, "3s"),
        Play(player=AlwaysEqual(0), cards="3s"),
        Pass(player=AlwaysEqual(1)),
        forged_pass(AlwaysEqual(1)),
        forged_play(AlwaysEqual(0), "3s"),
        Pass(player=-1),
        Play(player=0, cards=""),
        Play(player=2**70, cards="3s"),
    ]


def junk() -> list[object]:
    """Wrong types, empty and huge values, look-alike text and foreign objects."""
    return [
        None, True, 0, -1, 2**70, 1.0, math.nan, math.inf, "", " ", "3s",
        "3s 3s", "\u212ad", "3\u017f", "\uff13s", "\x00", "\u3000", "3s\x1c4s",
        "x" * 10_000, b"3s", [], [None], (), {}, {"a": 1}, set(), object(),
        lambda: None, random.Random(1), Hand(0), *forged_actions(),
    ]  # fmt: skip


def samples() -> dict[type, object]:
    """One instance of every class with interesting methods."""
    state = GameState.deal(CLASSIC, 4, 1)
    combo = classify("3s 4s 5s", CLASSIC)
    return {
        GameState: state,
        type(state.legal_actions()): state.legal_actions(),
        Hand: Hand.parse("3s 4s 5h"),
        type(Hand.parse("3s").cards[0]): Hand.parse("3s").cards[0],
        type(combo): combo,
        type(CLASSIC): POKER,
        SimulationStats: SimulationStats.empty(4),
        type(record(state)): record(state),
        EvaluationStats: EvaluationStats.empty(players=2, rotations=2, rules=CLASSIC),
        ISMCTSPlayer: ISMCTSPlayer(iterations=2, max_candidates=2),
        PIMCPlayer: PIMCPlayer(worlds=1, max_candidates=2),
    }


def callables() -> Iterator[tuple[str, Callable[..., object], object]]:
    """``(name, callable, owner)``: every public callable; *owner* is its instance."""
    seen: set[int] = set()
    instances = samples()
    for module in public_modules():
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            if not callable(value) or name in LONG_BY_DESIGN or id(value) in seen:
                continue
            if inspect.isclass(value) and issubclass(value, BaseException):
                continue
            seen.add(id(value))
            yield f"{module.__name__}.{name}", value, None
            owner = instances.get(value) if inspect.isclass(value) else None
            if owner is None:
                continue
            for attribute in dir(owner):
                if attribute.startswith("_"):
                    continue
                method = getattr(owner, attribute)
                if callable(method) and not inspect.isclass(method):
                    yield f"{module.__name__}.{name}.{attribute}", method, owner
