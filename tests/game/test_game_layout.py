"""A `GameState` is a small slotted, frozen object, built by one draft path (issue 11 §1).

Successors are copied into a draft (`tienlen.engine.successor.draft`, generated from
the attrs fields), changed and sealed; these tests pin that the copy leaves no field out
and that what users hold stays immutable.
"""

from __future__ import annotations

import pickle
import random
import sys
import weakref

import attrs
import pytest

from tienlen import CLASSIC, POKER, GameState
from tienlen.engine.successor import draft, fields_of, from_fields, seal


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
    """`draft` holds every attrs field of the state it copies, the same objects.

    Only the trust token and the cache of the state's own legal actions are not
    inherited: sealing gives a fresh token, and the successor lists its own actions.
    """
    for state in _states(rules, 3):
        masks = state.legal_actions().masks  # the state keeps what it lists
        assert state._listed is not None
        assert len(masks) == len(state.legal_actions())
        copy = draft(state)
        for field in attrs.fields(GameState):
            if field.name == "_listed":
                assert copy._listed is None
            elif field.name != "_serial":
                assert getattr(copy, field.name) is getattr(state, field.name), (
                    field.name
                )
        sealed = seal(copy)
        assert type(sealed) is GameState
        assert sealed == state
        assert sealed._serial != state._serial


def test_a_field_added_to_the_state_is_copied() -> None:
    """The copier is generated from the class's fields: its text names every field."""
    code = draft.__code__
    copied = set(code.co_names) - {"_new", "Draft"}
    expected = {field.name for field in attrs.fields(GameState)} - {"_serial"}
    assert copied == expected


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
def test_fields_round_trip_through_the_engine_door(rules: object) -> None:
    """`from_fields(fields_of(state))` is an equal state that plays on the same."""
    for state in _states(rules, 2)[::5]:
        copy = from_fields(fields_of(state))
        assert copy == state
        assert copy.legal_actions().masks == state.legal_actions().masks


def test_a_state_is_small_and_has_no_dict() -> None:
    """A state holds its fields in slots: about 230 bytes, not a 25-key dict's 830."""
    state = _states(CLASSIC, 1)[5]
    assert not hasattr(state, "__dict__")
    assert sys.getsizeof(state) < 300


def test_a_state_cannot_be_changed() -> None:
    """Setting or deleting a field raises, on every state a game goes through."""
    for state in _states(CLASSIC, 1):
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            state.to_act = 0  # type: ignore[misc]
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            del state.locked
        assert type(state) is GameState


def test_states_take_weak_references_and_pickle() -> None:
    """A state can be weakly referenced (caches) and pickles to an equal state."""
    for state in _states(POKER, 2)[::7]:
        assert weakref.ref(state)() is state
        copy = pickle.loads(pickle.dumps(state))  # noqa: S301 - our own bytes
        assert copy == state
        assert copy.history == state.history
        assert copy.result == state.result
