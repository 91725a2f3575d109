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
from tests.forgery import PLAYS_FORGEABLE, AlwaysEqual, forged_pass, forged_play
from tienlen import CLASSIC, POKER, GameState, Hand, Pass, Play, classify
from tienlen.evaluation import EvaluationStats
from tienlen.records import record
from tienlen.search import ISMCTSPlayer, PIMCPlayer
from tienlen.simulation import SimulationStats

NOT_A_LIBRARY: Final = {
    "tienlen.cli": "a program: it reports errors as exit statuses (tests/cli)",
    "tienlen.__main__": "runs the program on import",
    "tienlen.analysis.cli": "the program's solve, analyse and puzzle commands (tests/analysis)",
}
"""Public modules outside the contract, with the reason."""

LONG_BY_DESIGN: Final = {
    "simulate": "n_games sets the work: 2**70 games is a request, not bad input",
    "play_game": "bots decide how long a game takes",
    "process_pool": "starts processes (tests/sim/test_sim_faults.py)",
    "Match": "plays whole matches between bots (tests/game)",
}
"""Callables not thrown junk here (their contracts are tested where named)."""


SUBPACKAGES: Final = ("tienlen.rl", "tienlen.search", "tienlen.mcp", "tienlen.analysis")
"""Subpackages whose public modules are walked too, as the top level's are (issue 20 §9)."""


def public_modules() -> list[types.ModuleType]:
    """`tienlen` and each of its public submodules, imported (`SUBPACKAGES`' too)."""
    found = [tienlen]
    paths: list[tuple[Iterable[str], str]] = [(tienlen.__path__, "tienlen.")]
    for package in SUBPACKAGES:
        module = _imported(package)
        if module is not None:
            found.append(module)
            paths.append((module.__path__, f"{package}."))
    for path, prefix in paths:
        for info in pkgutil.iter_modules(path, prefix):
            name = info.name
            if name.rpartition(".")[2].startswith("_") or name in NOT_A_LIBRARY:
                continue
            module = _imported(name)
            if module is not None and module not in found:
                found.append(module)
    return found


def _imported(name: str) -> types.ModuleType | None:
    """The module *name*, or None if it needs an extra that is not installed."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as missing:  # an extra's module, extra not installed
        if (missing.name or "").partition(".")[0] not in EXTRAS_DEPENDENCIES:
            raise
    return None


EXTRAS_DEPENDENCIES: Final = {
    "numpy",
    "pettingzoo",
    "gymnasium",
    "rlcard",
    "distributed",
    "dask",
    "pyspiel",
    "open_spiel",
    "shimmy",
    "starlette",
    "uvicorn",
    "websockets",
    "mcp",
}
"""What the modules of the extras import (``tienlen.rl`` needs ``tienlen[rl]``,
``tienlen.server.app`` ``tienlen[server]``): their surface is checked where the extra is
installed, as in `.ci/run`."""


def forged_actions() -> list[object]:
    """Actions no honest caller builds (issue 14 item 8).

    `Play` and `Pass` refuse ``True`` and ``1.0`` as players, so those are forged
    around the constructors, as unpickling or ``object.__new__`` could (a forged
    `Play` only where the build can hold one: `PLAYS_FORGEABLE`).
    """
    plays: list[object] = []
    if PLAYS_FORGEABLE:
        plays = [
            forged_play(1.0, "3s"),
            forged_play(True, "3s"),
            forged_play(AlwaysEqual(0), "3s"),
        ]
    return [
        forged_pass(True),
        forged_pass(1.0),
        *plays,
        Play(player=AlwaysEqual(0), cards="3s"),
        Pass(player=AlwaysEqual(1)),
        forged_pass(AlwaysEqual(1)),
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
        **rl_samples(),
        **openspiel_samples(),
        **mcp_samples(),
    }


def mcp_samples() -> dict[type, object]:
    """The agents' tools with an open game, and a game (no SDK needed)."""
    from tienlen.mcp.session import AgentGame  # noqa: PLC0415
    from tienlen.mcp.tools import AgentTools  # noqa: PLC0415

    tools = AgentTools()
    tools.new_game(opponents=["greedy"], seed=1)
    game = AgentGame(CLASSIC, seat=1, opponents=["random"] * 3, seed=1)
    return {AgentTools: tools, AgentGame: game}


def rl_samples() -> dict[type, object]:
    """One instance of each class of `tienlen.rl` (none without the ``rl`` extra)."""
    try:
        from tienlen.rl import ACTIONS  # noqa: PLC0415 - an extra
        from tienlen.rl.gymnasium import SoloEnv  # noqa: PLC0415
        from tienlen.rl.observation import (  # noqa: PLC0415
            BatchEncoder,
            ObservationBatch,
            ObservationEncoder,
            ObservationLayout,
        )
        from tienlen.rl.pettingzoo import raw_env  # noqa: PLC0415
        from tienlen.rl.turns import Turns  # noqa: PLC0415
        from tienlen.rl.vector import VectorEnv  # noqa: PLC0415
    except ModuleNotFoundError:
        return {}
    state = GameState.deal(POKER, 4, 2)
    layout = ObservationLayout(POKER, 4, 2)
    encoder = ObservationEncoder(POKER, 4, 2)
    encoder.reset(state)
    batch = ObservationBatch(layout, 2)
    batch.load([0, 1], [state, state])
    solo = SoloEnv(POKER, 4)
    solo.reset(seed=1)
    game = raw_env(rules=POKER)
    game.reset(seed=1)
    envs = VectorEnv(2, POKER, players=4, seed=1)
    envs.reset()
    table = ACTIONS
    return {
        type(table): table,
        type(table[1]): table[1],
        ObservationLayout: layout,
        ObservationEncoder: encoder,
        ObservationBatch: batch,
        BatchEncoder: BatchEncoder(layout),
        Turns: Turns(state),
        SoloEnv: solo,
        type(game): game,
        VectorEnv: envs,
    }


def openspiel_samples() -> dict[type, object]:
    """A game, a state in play and an observer of `tienlen.rl.openspiel` (or none).

    The state is at a lead after a won trick, where neither ``0`` (PASS) nor ``1``
    (3s, played) is legal, so no junk integer plays a move on it.
    """
    try:
        import pyspiel  # noqa: PLC0415 - an extra

        from tienlen.rl.openspiel import (  # noqa: PLC0415
            PokerGame,
            TienLenGame,
            TienLenObserver,
            TienLenState,
        )
    except ModuleNotFoundError:
        return {}
    game = pyspiel.load_game("python_tienlen_classic", {"players": 2})
    state = game.new_initial_state()
    for _ in range(26 + 2):  # the deal, 3s led, seat 1 passes: seat 0 leads
        state.apply_action(state.legal_actions()[0])
    return {
        TienLenGame: game,
        PokerGame: pyspiel.load_game("python_tienlen_poker"),
        TienLenState: state,
        TienLenObserver: game.make_py_observer(),
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
