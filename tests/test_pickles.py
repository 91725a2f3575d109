"""Pickles name stable paths (issue 35 item 2): `tienlen.pickles` and public modules only."""

from __future__ import annotations

import pickle
import random

import pytest

from tienlen import (
    CLASSIC,
    POKER,
    Actions,
    GameState,
    Hand,
    Observation,
    PlayerError,
    RandomPlayer,
    classify,
    legal_plays,
    pickles,
)
from tienlen.batch import Batch
from tienlen.records import record, to_json


def _globals(data: bytes) -> set[str]:
    """The ``module.name`` of every global *data* loads."""
    names: set[str] = set()

    class Recorder(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> object:
            names.add(f"{module}.{name}")
            return super().find_class(module, name)

    Recorder(__import__("io").BytesIO(data)).load()
    return names


def _values() -> list[object]:
    """One of every kind of value users pickle, from a game played partway."""
    state = GameState.deal(POKER, players=4, seed=7)
    rng = random.Random(3)
    for _ in range(9):
        state = state.apply(rng.choice(list(state.legal_actions())))
    return [
        state,
        state.setup,
        state.legal_actions(),
        state.history,
        classify("3s 4s 5s"),
        legal_plays(Hand.parse("3s 3c 4d"), None, CLASSIC),
        Observation.of(state, 1),
        PlayerError(1, RandomPlayer(), None, problem="raised KeyError()"),
        CLASSIC,
        Batch([state]),
    ]


def _same(loaded: object, value: object) -> bool:
    """Whether *loaded* is *value* again (actions pickle as a tuple, errors by their words)."""
    if isinstance(value, Actions):
        return loaded == tuple(value)
    if isinstance(value, Batch):
        return isinstance(loaded, Batch) and (loaded.plays, loaded.states) == (
            value.plays,
            value.states,
        )
    if isinstance(value, Exception):
        return type(loaded) is type(value) and str(loaded) == str(value)
    return loaded == value


@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_pickles_name_no_internal_module(protocol: int) -> None:
    """No pickle names `tienlen.engine` or a private module: internal moves never break one."""
    for value in _values():
        data = pickle.dumps(value, protocol)
        internal = {
            name
            for name in _globals(data)
            if name.startswith("tienlen.")
            and (name.startswith("tienlen.engine.") or "._" in name.rpartition(".")[0])
        }
        assert not internal, (type(value).__name__, internal)
        assert _same(pickle.loads(data), value)  # noqa: S301 - our own bytes
        assert _same(pickles.loads(data), value)


def test_a_loaded_state_plays_on() -> None:
    """A state through `tienlen.pickles` lists and applies actions as the original."""
    state = GameState.deal(CLASSIC, players=3, seed=4)
    copy = pickle.loads(pickle.dumps(state))  # noqa: S301 - our own bytes
    rng = random.Random(5)
    while state.is_continuing:
        actions = list(state.legal_actions())
        assert list(copy.legal_actions()) == actions
        action = rng.choice(actions)
        state, copy = state.apply(action), copy.apply(action)
    assert copy == state
    assert to_json(record(copy)) == to_json(record(state))


def test_a_0_1_module_name_is_read_by_the_converter() -> None:
    """A rule set pickled under ``tienlen.rules._base`` (0.1's name) loads through `loads`."""
    state = GameState.deal(POKER, seed=3)
    old = pickle.dumps(state, 0).replace(
        b"ctienlen.rules.base\n", b"ctienlen.rules._base\n"
    )
    assert b"tienlen.rules._base" in old
    with pytest.raises(ModuleNotFoundError):
        pickle.loads(old)  # noqa: S301 - our own bytes
    assert pickles.loads(old) == state


def test_a_name_0_1_had_and_today_lacks_is_refused() -> None:
    """A public name of a 0.1 module that no longer exists is a clear `UnpicklingError`."""
    old = b"ctienlen.rules._base\nNoSuchThing\n."
    with pytest.raises(pickles.PickleError, match="NoSuchThing"):
        pickles.loads(old)
