"""The 0.1 module name of the rule sets, kept as a deprecated alias (issue 21 item 5)."""

from __future__ import annotations

import importlib
import pickle
import warnings

import pytest

from tienlen import CLASSIC, POKER, GameState
from tienlen.rules import base


@pytest.mark.parametrize("rules", [CLASSIC, POKER])
def test_a_pickle_naming_the_old_module_loads_with_a_warning(rules: object) -> None:
    """A state pickled under ``tienlen.rules._base`` (0.1's name) loads, equal, and warns."""
    state = GameState.deal(rules, seed=3)  # type: ignore[arg-type]
    alias = importlib.import_module("tienlen.rules._base")
    with pytest.MonkeyPatch.context() as patch, warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # building the old bytes
        for name in ("BaseRules", "Direction", "FirstLead", "GameEnd", "Scoring"):
            moved = getattr(base, name)
            patch.setattr(moved, "__module__", alias.__name__)
            patch.setattr(alias, name, moved, raising=False)  # as 0.1 defined it
        old = pickle.dumps(state)  # as 0.1 wrote it
    assert b"tienlen.rules._base" in old
    with pytest.warns(DeprecationWarning, match=r"tienlen\.rules\.base"):
        loaded = pickle.loads(old)  # noqa: S301  # our own bytes
    assert loaded == state
    assert loaded.rules == rules


def test_the_public_module_is_what_pickles_name() -> None:
    """New pickles name `tienlen.rules.base`, not the deprecated alias."""
    assert b"tienlen.rules._base" not in pickle.dumps(GameState.deal(CLASSIC, seed=1))
