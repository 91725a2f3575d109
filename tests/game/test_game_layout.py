"""A `GameState` is a small slotted, frozen object, built by one draft path (issue 11 §1).

Successors are copied into a draft (`tienlen.game.draft`), changed and
sealed; these tests pin that the copy leaves no field out, that equality is the
position, and that what users hold stays immutable (issue 21: a plain class that mypyc
compiles). That the field list is written once is `test_game_fields.py`.
"""

from __future__ import annotations

import pickle
import random
import sys
import weakref

import pytest

import tienlen
from tienlen import CLASSIC, POKER, GameState
from tienlen.game import FIELDS, draft, fields_of, from_fields, seal, with_fields


def _states(rules: object, games: int) -> list[GameState]:
    rng = random.Random(f"layout:{rules}")
    states = []
    for seed in range(games):
        state = GameState.deal(rules, 4, seed)  # type: ignore[arg-type]
        while not state.is_over:
            states.append(state)
            actions = state.legal_actions()
            state = state.apply(actions[rng.randrange(len(actions))])
        states.append(state)
    return states


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
def test_a_draft_copies_every_field(rules: object) -> None:
    """`draft` holds every field of the state it copies, the same objects.

    Only the trust token and the cache of the state's own legal actions are not
    inherited: sealing gives a fresh token, and the successor lists its own actions.
    """
    for state in _states(rules, 3):
        masks = state.legal_actions().masks  # the state keeps what it lists
        assert state._listed is not None
        assert len(masks) == len(state.legal_actions())
        copy = draft(state)
        for name in FIELDS:
            if name == "_listed":
                assert copy._listed is None
            elif name != "_serial":  # the same objects (ints: the same values)
                value = getattr(copy, name)
                assert value == getattr(state, name), name
                assert type(value) is int or value is getattr(state, name), name
        sealed = seal(copy)
        assert type(sealed) is GameState
        assert sealed == state
        assert hash(sealed) == hash(state)
        assert sealed._serial != state._serial


def test_equality_is_the_position() -> None:
    """States are equal when every compared field is; history, setup and caches do not count."""
    state = _states(CLASSIC, 1)[3]
    assert state == with_fields(state, {"_log": None, "_top_combo": None})
    assert state != with_fields(state, {"locked": state.locked ^ 1})
    assert state != with_fields(state, {"required": 8})
    assert (state == "state") is False
    assert state.__eq__("state") is NotImplemented


def test_the_engine_door_refuses_an_unknown_field() -> None:
    """`from_fields` names a field a state does not have instead of setting it."""
    state = _states(CLASSIC, 1)[0]
    with pytest.raises(tienlen.InvalidStateError, match="no field 'to_play'"):
        with_fields(state, {"to_play": 1})


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
def test_fields_round_trip_through_the_engine_door(rules: object) -> None:
    """`from_fields(fields_of(state))` is an equal state that plays on the same."""
    for state in _states(rules, 2)[::5]:
        copy = from_fields(fields_of(state))
        assert copy == state
        assert copy.legal_actions().masks == state.legal_actions().masks


def test_a_state_is_small_and_has_no_dict() -> None:
    """A state holds its fields in slots (or a compiled struct): not a 26-key dict."""
    state = _states(CLASSIC, 1)[5]
    assert not hasattr(state, "__dict__")
    assert sys.getsizeof(state) < 300


def test_a_state_cannot_be_changed() -> None:
    """Setting or deleting a field raises, on every state a game goes through."""
    for state in _states(CLASSIC, 1):
        with pytest.raises(AttributeError):
            state.to_act = 0  # type: ignore[misc]
        with pytest.raises(AttributeError):
            del state.locked
        with pytest.raises(AttributeError):
            state.rules = POKER  # type: ignore[misc]
        assert type(state) is GameState


def test_states_pickle() -> None:
    """A state pickles to an equal state, and the pure build's states take weak references.

    The compiled build's classes (mypyc) take none: a documented difference.
    """
    for state in _states(POKER, 2)[::7]:
        if not tienlen.COMPILED:
            assert weakref.ref(state)() is state
        copy = pickle.loads(pickle.dumps(state))  # noqa: S301 - our own bytes
        assert copy == state
        assert copy.history == state.history
        assert copy.result == state.result
