"""The engine owns the state; one transition; ints underneath (issue 21 items 1-2).

`GameState` and its transitions live in the public module `tienlen.game`.
Every way to act ends in `tienlen.game.after`, and `GameState.apply_mask` applies a listed
mask without building an object, anything else checked exactly as `apply` checks.
"""

from __future__ import annotations

import io
import pickle
import random
import subprocess
import sys

import pytest

import tienlen
from tienlen import (
    CLASSIC,
    JUSTUS_PANG,
    POKER,
    GameState,
    Hand,
    IllegalPlayError,
    InvalidStateError,
    Pass,
    Play,
    game,
)
from tienlen.actions import Actions
from tienlen.game import GameSetup

PRESETS = list(tienlen.RULESETS.values())


def _games(rules: object, games: int, seed: int) -> list[GameState]:
    """Every state of *games* random games (lazy indexing)."""
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = GameState.deal(rules, 4, rng)  # type: ignore[arg-type]
        while not state.is_over:
            states.append(state)
            actions = state.legal_actions()
            state = state.apply(actions[rng.randrange(len(actions))])
        states.append(state)
    return states


def test_the_engine_classes_are_defined_in_public_modules() -> None:
    """Issue 35 item 2: each public class reports the public module that defines it."""
    public = {
        name: getattr(tienlen, name)
        for name in tienlen.__all__
        if isinstance(getattr(tienlen, name), type)
    }
    internal = {
        name: cls.__module__
        for name, cls in public.items()
        if "._" in cls.__module__ or ".engine" in cls.__module__
    }
    assert internal == {}
    assert (GameState.__module__, GameSetup.__module__) == (
        "tienlen.game",
        "tienlen.setups",
    )
    assert Actions.__module__ == tienlen.Play.__module__ == "tienlen.actions"


def test_a_pickle_naming_the_public_module_loads() -> None:
    """A state pickled as ``tienlen.game.GameState`` (before 0.3) loads equal."""
    state = GameState.deal(CLASSIC, 4, seed=3)
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=2)
    pickler.dispatch_table = {}  # as 0.2 pickled: by the class, not `tienlen.pickles`
    pickler.dump(state)
    data = buffer.getvalue()
    assert b"ctienlen.game\nGameState\n" in data
    copy = pickle.loads(data)  # noqa: S301 - our own bytes
    assert copy == state
    assert copy.history == state.history


def test_the_engine_imports_first_in_a_fresh_process() -> None:
    """Importing an engine module before anything else works (no import cycle)."""
    for module in ("tienlen.game", "tienlen.actions", "tienlen.combos"):
        code = f"import {module}; import tienlen; print(tienlen.GameState.__name__)"
        done = subprocess.run(  # noqa: S603 - this interpreter, our own code
            [sys.executable, "-c", code], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "GameState"


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
def test_apply_mask_plays_the_same_game_as_apply(rules: object) -> None:
    """Each listed mask, jump-ins included, gives the state its listed play gives."""
    for state in _games(rules, 4, 11):
        actions = state.legal_actions()
        for action, mask in zip(actions, actions.masks, strict=True):
            by_mask = state.apply_mask(mask, action.player)
            by_object = state.apply(action)
            assert by_mask == by_object
            assert by_mask.history == by_object.history
            assert by_mask.to_act == by_object.to_act


def test_a_listed_mask_builds_no_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """A listed mask goes straight to the transition: no `Play` object is made."""
    state = GameState.from_hands(["3s 4s 9h", "5d 6d 9c"], CLASSIC).play("3s")
    assert Hand.parse("5d").mask in state.legal_actions().masks

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a Play was built")

    monkeypatch.setattr(Play, "__init__", refuse)
    after = state.apply_mask(Hand.parse("5d").mask)
    assert str(after.top) == "5d"
    assert 0 in after.legal_actions().masks
    assert after.apply_mask(0).to_act == 1


def test_an_unlisted_mask_is_refused_as_apply_refuses() -> None:
    """A mask not listed is checked in full, with `apply`'s exact error."""
    state = GameState.from_hands(["3s 4s 9h", "5d 6d 9c", "7c 8c"], CLASSIC).play("3s")
    for listed in (False, True):
        if listed:
            assert state.legal_actions().masks
        for text, player in (
            ("4s", None),  # not held
            ("5d 6d", None),  # no combination
            ("9c", 2),  # not their turn
            ("", 2),  # a pass out of turn
        ):
            seat = 1 if player is None else player
            mask = Hand.parse(text).mask
            action = Play(player=seat, cards=text) if text else Pass(player=seat)
            with pytest.raises(IllegalPlayError) as by_object:
                state.apply(action)
            with pytest.raises(IllegalPlayError) as by_mask:
                state.apply_mask(mask, player)
            assert str(by_mask.value) == str(by_object.value)
            assert by_mask.value.reason == by_object.value.reason


def test_a_mask_played_is_a_play_in_the_history_and_pickles() -> None:
    """A play applied by its mask is recorded as a `Play`; the state pickles equal."""
    state = GameState.from_hands(["3s 4s 9h", "5d 6d 9c"], CLASSIC)
    state = state.apply_mask(state.legal_actions().masks[0])
    assert state.legal_actions().masks
    state = state.apply_mask(0)
    assert state.history == (Play(player=0, cards="3s"), Pass(player=1))
    copy = pickle.loads(pickle.dumps(state))  # noqa: S301 - our own bytes
    assert copy == state
    assert copy.history == state.history


def test_reading_the_masks_is_no_change_of_the_state() -> None:
    """The listing a state keeps for `apply_mask` is not part of equality or pickles."""
    state = GameState.from_hands(["3s 4s 9h", "5d 6d 9c"], POKER)
    fresh = GameState.from_hands(["3s 4s 9h", "5d 6d 9c"], POKER)
    assert state.legal_actions().masks == fresh.legal_actions().masks
    other = GameState.from_hands(["3s 4s 9h", "5d 6d 9c"], POKER)
    assert state == other
    assert hash(state) == hash(other)
    assert pickle.loads(pickle.dumps(state)) == other  # noqa: S301 - our own bytes


@pytest.mark.parametrize("rules", PRESETS, ids=lambda rules: rules.name)
def test_membership_reads_the_listed_masks(rules: object) -> None:
    """``action in actions`` is `is_legal`, answered from the masks (no state held)."""
    for state in _games(rules, 2, 7)[::3]:
        actions = state.legal_actions()
        probes: list[object] = [*actions, "pass"]
        for seat in range(state.players):
            probes.append(Pass(player=seat))
            probes.extend(Play(player=seat, cards=[card]) for card in state.hand(seat))
        for probe in probes:
            expected = isinstance(probe, Play | Pass) and state.is_legal(probe)
            assert (probe in actions) == expected, probe


def test_from_fields_is_the_door_for_a_position() -> None:
    """`game.from_fields` builds an equal state that plays on the same."""
    state = GameState.from_hands(["3s 4s 9h", "5d 6d 9c"], CLASSIC).play("3s")
    copy = game.from_fields(game.fields_of(state))
    assert copy == state
    assert copy.legal_actions().masks == state.legal_actions().masks
    assert copy.play("5d") == state.play("5d")


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
def test_a_play_is_its_mask(rules: object) -> None:
    """`Play.mask` is its cards' mask, for every listed play and after a pickle."""
    for state in _games(rules, 2, 3)[::4]:
        actions = state.legal_actions()
        for action, mask in zip(actions, actions.masks, strict=True):
            if isinstance(action, Play):
                assert action.mask == action.cards.mask == mask
                copy = pickle.loads(pickle.dumps(action))  # noqa: S301 - our own bytes
                assert copy.mask == mask


def test_an_empty_play_is_not_a_listed_pass() -> None:
    """A `Play` of no cards is never ``in`` the actions, even where a pass is listed."""
    state = GameState.deal(JUSTUS_PANG, 4, 0)
    actions = state.legal_actions()
    assert 0 in actions.masks  # the first lead may be declined: a pass is listed
    assert state.to_act is not None
    empty = Play(player=state.to_act, cards=[])
    assert empty not in actions
    assert not state.is_legal(empty)


def test_games_that_start_alike_share_one_setup() -> None:
    """`GameSetup.checked` gives one value per start; ``1`` is not ``True`` there."""
    first = GameState.deal(CLASSIC, 4, seed=1, dealer=2)
    second = GameState.deal(CLASSIC, 4, seed=2, dealer=2)
    assert first.setup is second.setup
    numeric = GameSetup.checked(4, 1, None, 0, 2)  # type: ignore[arg-type]  # as given
    assert numeric == first.setup
    assert numeric.first_game is not True
    assert type(numeric.after_instant_win) is int
    with pytest.raises(InvalidStateError, match="leader"):
        GameSetup.checked(4, True, [0], False, 2)  # type: ignore[arg-type]  # unhashable
