"""Pickles written before the engine package (issue 21) still load, through `tienlen.pickles`.

`tests/data/states-e7efc69.pickle` was written by commit e7efc69, the last one before
`tienlen.engine`: its states name `tienlen._context`, `tienlen._movegen` and
`tienlen.rules._base`, removed in 0.3; `tienlen.pickles.loads` finds their names where
they live now. The file holds, by
name, a state of each preset seven random actions into seed 5, an observation, a play,
a combination, a rule set and a Poker state's actions, made as `old_objects` makes them.
"""

from __future__ import annotations

import pickle
import random
import warnings
from pathlib import Path

import pytest

from tienlen import CLASSIC, GameState, Observation, Play, classify, get_rules, pickles

OLD = Path(__file__).parent / "data" / "states-e7efc69.pickle"
PRESETS = ("classic", "poker", "justus-pang", "vietcong", "kenneth-lo")


def old_objects() -> dict[str, object]:
    """What the file holds, made again by today's code."""
    found: dict[str, object] = {}
    for name in PRESETS:
        state = GameState.deal(get_rules(name), 4, 5)
        rng = random.Random(1)
        for _ in range(7):
            if not state.is_continuing:
                break
            state = state.apply(rng.choice(list(state.legal_actions())))
        found[name] = state
    classic = found["classic"]
    assert isinstance(classic, GameState)
    found["obs"] = Observation.of(classic, 0)
    found["play"] = Play(player=1, cards="3s 3c")
    found["combo"] = classify("3s 4s 5s")
    found["rules"] = CLASSIC
    return found


def load_old() -> dict[str, object]:
    """The file's objects, read by `tienlen.pickles.loads`."""
    loaded = pickles.loads(OLD.read_bytes())
    assert isinstance(loaded, dict)
    return loaded


def test_old_pickles_need_the_converter() -> None:
    """`pickle.loads` no longer finds 0.1's modules; `tienlen.pickles.loads` does, silently."""
    with pytest.raises(ModuleNotFoundError, match="tienlen"):
        pickle.loads(OLD.read_bytes())  # noqa: S301  # our own file
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pickles.loads(OLD.read_bytes())


def test_old_pickles_load_equal_to_todays_objects() -> None:
    """Every object of the file equals the one today's code makes the same way."""
    loaded, today = load_old(), old_objects()
    for name, value in today.items():
        assert loaded[name] == value, name
    poker = today["poker"]
    assert isinstance(poker, GameState)
    assert tuple(loaded["actions"]) == tuple(poker.legal_actions())  # type: ignore[arg-type]


@pytest.mark.parametrize("name", PRESETS)
def test_an_old_state_plays_on(name: str) -> None:
    """A loaded state lists and applies actions exactly as a state made today."""
    old, new = load_old()[name], old_objects()[name]
    assert isinstance(old, GameState)
    assert isinstance(new, GameState)
    rng = random.Random(2)
    while new.is_continuing:
        actions = list(new.legal_actions())
        assert list(old.legal_actions()) == actions
        action = rng.choice(actions)
        old, new = old.apply(action), new.apply(action)
    assert old == new
    assert old.result == new.result


class _OldPlayerError:
    """Pickles as a 0.2 `PlayerError` did: through ``tienlen.players``' restorer."""

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        from tienlen import players  # noqa: PLC0415

        fields = (1, "RandomPlayer()", None, "raised KeyError()", 2, 5)
        message = "batch 2, game 5: player 1 (str) raised KeyError()"
        return players._restore_player_error, (*fields, message, KeyError("x"))


def test_player_error_pickled_by_0_2_loads() -> None:
    """`PlayerError` moved to `tienlen.seat`; its 0.2 pickles still load."""
    from tienlen.seat import PlayerError  # noqa: PLC0415

    error = pickle.loads(pickle.dumps(_OldPlayerError()))  # noqa: S301
    assert type(error) is PlayerError
    assert (error.seat, error.problem, error.batch, error.game) == (
        1,
        "raised KeyError()",
        2,
        5,
    )
    assert str(error) == "batch 2, game 5: player 1 (str) raised KeyError()"
    assert isinstance(error.__cause__, KeyError)
