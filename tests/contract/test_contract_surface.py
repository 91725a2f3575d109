"""One refusal contract over the whole public surface (issue 14, "What to build" 1).

Every public callable (`tests.contract.surface.callables`: discovered, so a new one is
covered automatically) is called with junk: wrong types, empty and huge values,
look-alike text and foreign objects. Each call must give an answer, a `TienLenError`
or a `TypeError` — never another exception, never a hang (each call is bounded by
SIGALRM) — and leave the object it was called on unchanged. And `check`, `is_legal`,
`apply` and membership in `legal_actions()` agree on every forged action.
Every case the first run found (issue 14 item 8: `AttributeError`, `IndexError` and
plain `ValueError` escaping from the rules, the state, records, scoring and
explanations) is fixed; each stays covered by these tests.
"""

from __future__ import annotations

import enum
import inspect
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.contract.surface import callables, forged_actions, junk, public_modules
from tests.forgery import (
    PLAYS_FORGEABLE,
    UNFORGEABLE_REASON,
    AlwaysEqual,
    forged_pass,
    forged_play,
)
from tienlen import (
    CLASSIC,
    GameState,
    Hand,
    IllegalPlayError,
    Pass,
    Play,
    TienLenError,
)
from tienlen.rules import RULESETS

pytestmark = pytest.mark.skipif(
    not hasattr(signal, "setitimer"), reason="bounds calls with SIGALRM"
)

JUNK: Final = junk()
SECONDS: Final = 2.0
"""The most a call on junk may take."""

ALLOWED: Final[dict[str, tuple[type[Exception], str]]] = {
    "tienlen.Actions.index": (
        ValueError,
        "the Sequence protocol: index of a missing item",
    ),
    "tienlen.rl.gymnasium.SoloEnv.get_wrapper_attr": (
        AttributeError,
        "Gymnasium's protocol (its Env method): the attribute the env lacks",
    ),
}
"""Exceptions the contract allows one callable, with the protocol that demands them."""

SURFACE: Final = {
    name: (function, owner)
    for name, function, owner in callables()
    if not (inspect.isclass(function) and issubclass(function, enum.Enum))
}
"""Every public callable but enum lookups (``Rank(99)`` is Python's ValueError)."""

CLEAN: Final = sorted(SURFACE)


class HangError(Exception):
    """A call ran past its bound."""


def _alarm(signum: int, frame: object) -> None:
    del signum, frame
    raise HangError


@contextmanager
def bounded(seconds: float) -> Iterator[None]:
    """Raise `HangError` in the block after *seconds*."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def keeps_the_contract(name: str, arguments: tuple[object, ...]) -> None:
    """Call *name* with *arguments*; fail unless it answers or refuses properly."""
    function, owner = SURFACE[name]
    before = repr(owner)
    allowed, _ = ALLOWED.get(name, (TypeError, ""))
    try:
        with bounded(SECONDS):
            function(*arguments)
    except HangError:
        pytest.fail(f"{name}{arguments!r:.80} ran past {SECONDS} s")
    except (TienLenError, TypeError, allowed):
        pass
    assert repr(owner) == before, f"{name} changed the object it was called on"


@pytest.mark.parametrize("name", CLEAN)
@settings(deadline=None)
@given(data=st.data())
def test_junk_is_answered_or_refused(name: str, data: st.DataObject) -> None:
    """Contract: an answer, a `TienLenError` or a `TypeError`; bounded; nothing changed."""
    arguments = data.draw(st.lists(st.sampled_from(JUNK), max_size=3), label="args")
    keeps_the_contract(name, tuple(arguments))


@pytest.mark.parametrize("name", CLEAN)
def test_no_arguments_and_each_junk_alone(name: str) -> None:
    """The same contract, exhaustively for zero arguments and every single junk value."""
    keeps_the_contract(name, ())
    for value in JUNK:
        keeps_the_contract(name, (value,))


def test_the_surface_is_discovered() -> None:
    """Discovery finds the modules and functions a user imports (a smoke check)."""
    for expected in (
        "tienlen.parse_cards", "tienlen.classify", "tienlen.records.loads",
        "tienlen.svg.hand", "tienlen.GameState.apply", "tienlen.explain.explain_beats",
        "tienlen.SimulationStats.merge", "tienlen.records.GameRecord",
    ):  # fmt: skip
        assert expected in SURFACE


def test_the_search_package_is_walked() -> None:
    """Issue 20 §9: the public modules of `tienlen.search` are walked.

    The methods of the search bots and of evaluation stats are thrown junk too.
    """
    walked = {module.__name__ for module in public_modules()}
    assert {
        "tienlen.search.sampling",
        "tienlen.search.ismcts",
        "tienlen.search.pimc",
    } <= walked
    for expected in (
        "tienlen.ISMCTSPlayer.act", "tienlen.PIMCPlayer.act",
        "tienlen.EvaluationStats.merge", "tienlen.EvaluationStats.empty",
    ):  # fmt: skip
        assert expected in SURFACE


# -- forged actions: every judge agrees ---------------------------------------------


def verdicts(state: GameState, action: object) -> tuple[bool, bool, bool, bool]:
    """``(in legal_actions, is_legal, check passes, apply passes)`` for *action*."""
    listed = action in state.legal_actions()
    try:
        legal = state.is_legal(action)  # type: ignore[arg-type]
    except TypeError:
        legal = False
    checks = applies = True
    try:
        state.check(action)  # type: ignore[arg-type]
    except (IllegalPlayError, TypeError):
        checks = False
    before = repr(state)
    try:
        state.apply(action)  # type: ignore[arg-type]
    except (IllegalPlayError, TypeError):
        applies = False
    assert repr(state) == before
    return listed, legal, checks, applies


@pytest.mark.parametrize("rules", list(RULESETS.values()), ids=list(RULESETS))
@settings(deadline=None)
@given(seed=st.integers(0, 2**32), forged=st.sampled_from(forged_actions()))
def test_every_judge_refuses_forged_actions(
    rules: object, seed: int, forged: object
) -> None:
    """Issue 14 item 8: `check`, `is_legal`, `apply` and ``in`` agree on every action.

    Look-alike seats (``True``, ``1.0``, an ``int`` subclass) forged around the
    constructors included: all four refuse those (an ``int`` subclass given to a
    constructor is read as its plain value, and may then be legal).
    """
    state = GameState.deal(rules, 4, seed)  # type: ignore[arg-type]
    found = verdicts(state, forged)
    assert len(set(found)) == 1, found
    if type(getattr(forged, "player", None)) is not int:
        assert found == (False, False, False, False)


@pytest.mark.parametrize(
    "forged",
    [
        forged_pass(True),
        forged_pass(1.0),
        forged_pass(AlwaysEqual(1)),
        Pass(player=AlwaysEqual(0)),
        *(
            [forged_play(True, "4s"), forged_play(AlwaysEqual(0), "4s")]
            if PLAYS_FORGEABLE
            else [
                pytest.param(None, marks=pytest.mark.skip(reason=UNFORGEABLE_REASON)),
                pytest.param(None, marks=pytest.mark.skip(reason=UNFORGEABLE_REASON)),
            ]
        ),
    ],
    ids=["True", "1.0", "always-equal", "int-subclass-0", "play-True", "play-eq"],
)
def test_look_alike_seats(forged: object) -> None:
    """Issue 14 item 8: ``in``, `check`, `is_legal` and `apply` agree on look-alike seats.

    The seat to act is player 1; a look-alike of another seat (or a forged one) is
    refused by all four, whatever its ``__eq__`` says.
    """
    state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC).play("3s")
    assert verdicts(state, forged) == (False, False, False, False)


@pytest.mark.parametrize("player", [True, 1.0, "1", None])
def test_actions_refuse_look_alike_players(player: object) -> None:
    """Issue 14 item 8: `Play` and `Pass` take only integers as players."""
    with pytest.raises(TypeError):
        Pass(player=player)
    with pytest.raises(TypeError):
        Play(player=player, cards="3s")  # type: ignore[arg-type]  # the point of the test


def test_a_play_of_no_cards_is_not_the_listed_pass() -> None:
    """A pass is listed as mask 0: a forged play of no cards is still not among them."""
    state = GameState.deal(RULESETS["justus-pang"], 4, 0)  # the first lead may pass
    seat = state.to_act
    assert seat is not None
    empty = Play(player=seat, cards=Hand.parse(""))
    assert Pass(player=seat) in state.legal_actions()
    assert verdicts(state, empty) == (False, False, False, False)
