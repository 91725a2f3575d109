"""Faults in bots and executors (issue 14 items 6-8 and "What to build" 4; issue 11 §4).

A bot that raises, returns anything but one of the actions it was offered, changes
what it was handed or exceeds the time limit ends the game with a `PlayerError`
naming the seat and the action (and, within `simulate`, the batch and the game), on
every executor. An executor that loses or repeats a batch, or whose worker dies,
raises `ExecutorError`: never a hang, never a silently wrong count.
"""

from __future__ import annotations

import multiprocessing
import pickle
import random
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar

import pytest

from tests.forgery import PLAYS_FORGEABLE, UNFORGEABLE_REASON
from tests.sim.faulty_bots import Faulty
from tienlen import (
    CLASSIC,
    POKER,
    ExecutorError,
    GameState,
    GreedyPlayer,
    InvalidArgumentError,
    MapExecutor,
    Player,
    PlayerError,
    RandomPlayer,
    TienLenError,
    UnknownVariantError,
    play_game,
    simulate,
)
from tienlen.records import RecordError
from tienlen.simulation import process_pool

_S = TypeVar("_S")
_T = TypeVar("_T")

AT = 40
"""The history length at which the faulty bots fail: reached in a few games only."""

CAUSED = {"raise": ZeroDivisionError}
"""The faults that raise inside the bot, and the exception the bot raises."""

REFUSED = [
    "illegal",
    "none",
    "text",
    "unpicklable",
    "pass-as-true",
    "pass-as-float",
    pytest.param(
        "always-equal",
        marks=pytest.mark.skipif(not PLAYS_FORGEABLE, reason=UNFORGEABLE_REASON),
    ),
]
"""Faults where the bot returns something that is not one of its offered actions."""

MUTATED = ["mutate-observation", "mutate-actions"]
"""Faults where the bot changes what it was handed."""


def faulty_table(fault: str, at: int = AT) -> list[Player]:
    """Four players that play greedily, each failing at history length *at*."""
    return [Faulty(fault, at)] * 4


def failing_games(at: int = AT) -> list[tuple[int, int]]:
    """``(batch, game)`` of every game of `run` that lasts more than *at* actions.

    In the first of them, in batch order, a serial run fails; a pool reports the one
    that fails first in time, which may be any of them (but the first of its batch).
    """
    stats = simulate(
        40, rules=CLASSIC, players=[GreedyPlayer()] * 4, seed=3, batch_size=5,
        record_games=True,
    )  # fmt: skip
    found = [(r.batch, r.game) for r in stats.records if len(r.actions) > at]
    assert found  # the seed has long games
    return found  # type: ignore[return-value]  # records of simulate have both


def run(
    players: list[Player], executor: MapExecutor | None = None, **options: object
) -> None:
    """The simulation every fault test runs: 40 classic games, 8 batches."""
    simulate(
        40, rules=CLASSIC, players=players, seed=3, batch_size=5, executor=executor,
        **options,  # type: ignore[arg-type]
    )  # fmt: skip


# -- play_game ------------------------------------------------------------------------


@pytest.mark.parametrize("fault", [*CAUSED, *REFUSED, *MUTATED])
def test_play_game_names_the_seat_and_the_action(fault: str) -> None:
    """Every kind of bot fault ends `play_game` with a `PlayerError` for that seat."""
    state = GameState.deal(CLASSIC, 4, 1)
    with pytest.raises(PlayerError) as caught:
        play_game(state, faulty_table(fault, at=0), random.Random(1))
    error = caught.value
    assert isinstance(error, TienLenError)
    assert isinstance(error, ValueError)
    assert error.seat == state.to_act
    assert (error.batch, error.game) == (None, None)
    assert str(error).startswith(f"player {state.to_act} (Faulty) ")
    if fault in CAUSED:
        assert type(error.__cause__) is CAUSED[fault]
        assert error.action is None
        assert "raised" in error.problem
    elif fault in MUTATED:
        assert "changed the observation or the actions" in str(error)
    else:
        assert "which is not one of its" in str(error)


@pytest.mark.skipif(not PLAYS_FORGEABLE, reason=UNFORGEABLE_REASON)
def test_a_forged_seat_never_clears_a_trick() -> None:
    """Issue 14 item 8: ``Play(player=AlwaysEqual(seat))`` is no play for any seat."""
    state = GameState.deal(CLASSIC, 4, 2)
    with pytest.raises(PlayerError, match="which is not one of"):
        play_game(state, faulty_table("always-equal", at=0), random.Random(2))


def test_the_jump_in_offer_cannot_be_extended() -> None:
    """Issue 14 item 9: a Poker bot cannot append its own play to what it is offered.

    Player 3 has put 2h on 3s; player 1, asked first, holds four pairs (RULES §6.4).
    """
    state = GameState.from_hands(
        ["3s Ts Tc Js Jc Qs Qc Ks Kc", "5s 5c 6s 6c 7s 7c 8s 8c 9c", "Ad Ah 4h",
         "2h 9d 4s"],
        POKER,
    ).play("3s").play("2h")  # fmt: skip
    with pytest.raises(PlayerError) as caught:
        play_game(state, faulty_table("append-jump-in", at=-1), random.Random(0))
    assert caught.value.seat == 1
    assert type(caught.value.__cause__) is AttributeError


def test_the_time_limit_is_measured() -> None:
    """A decision over *time_limit* seconds is a fault; without a limit it is not."""
    state = GameState.deal(CLASSIC, 4, 1)
    slow = faulty_table("slow", at=0)
    with pytest.raises(PlayerError, match=r"took 0\.\d+ s to decide, over the time"):
        play_game(state, slow, random.Random(1), time_limit=0.05)
    assert play_game(state, slow, random.Random(1)).is_over
    assert play_game(state, slow, random.Random(1), time_limit=10).is_over


@pytest.mark.parametrize(
    ("limit", "error"),
    [(0, InvalidArgumentError), (-1.0, InvalidArgumentError),
     (float("nan"), InvalidArgumentError), (float("inf"), InvalidArgumentError),
     ("1", TypeError), (True, TypeError)],
)  # fmt: skip
def test_bad_time_limits(limit: object, error: type[Exception]) -> None:
    """A time limit is a positive, finite number of seconds."""
    state = GameState.deal(CLASSIC, 4, 1)
    with pytest.raises(error, match="time_limit"):
        play_game(state, [RandomPlayer()] * 4, random.Random(1), time_limit=limit)  # type: ignore[arg-type]
    with pytest.raises(error, match="time_limit"):
        run([RandomPlayer()] * 4, time_limit=limit)


def test_player_errors_pickle_with_every_field() -> None:
    """An error from a worker arrives whole: fields, message and cause."""
    state = GameState.deal(CLASSIC, 4, 1)
    with pytest.raises(PlayerError) as caught:
        play_game(state, faulty_table("raise", at=0), random.Random(1))
    error = caught.value.in_game(3, 4)
    copy = pickle.loads(pickle.dumps(error))  # noqa: S301 - our own bytes
    assert type(copy) is PlayerError
    assert str(copy) == str(error)
    assert str(copy).startswith("batch 3, game 4: player ")
    fields = ("seat", "player", "action", "problem", "batch", "game")
    assert [getattr(copy, f) for f in fields] == [getattr(error, f) for f in fields]
    assert type(copy.__cause__) is ZeroDivisionError


def test_an_unpicklable_action_travels_as_its_repr() -> None:
    """A bot returning a lambda still gets its error back from a worker."""
    state = GameState.deal(CLASSIC, 4, 1)
    with pytest.raises(PlayerError) as caught:
        play_game(state, faulty_table("unpicklable", at=0), random.Random(1))
    copy = pickle.loads(pickle.dumps(caught.value))  # noqa: S301 - our own bytes
    assert isinstance(copy.action, str)
    assert copy.action.startswith("<function")


# -- simulate, on every executor ---------------------------------------------------------


class Serial:
    """A serial executor: the built-in ``map``."""

    def map(self, fn: Callable[[_S], _T], iterable: Iterable[_S], /) -> Iterator[_T]:
        """Apply *fn* here, in order."""
        return map(fn, iterable)


def executors() -> dict[str, Callable[[], AbstractContextManager[MapExecutor | None]]]:
    """Every kind of executor `simulate` is tested on, by name."""
    return {
        "none": lambda: nullcontext(None),
        "map": lambda: nullcontext(Serial()),
        "threads": lambda: ThreadPoolExecutor(2),
        "multiprocessing": lambda: multiprocessing.Pool(2),
        "futures": lambda: ProcessPoolExecutor(2),
        "process_pool": lambda: process_pool(2),
    }


EXECUTORS = executors()


@pytest.mark.parametrize("name", EXECUTORS)
@pytest.mark.parametrize("fault", ["raise", "illegal", "mutate-actions"])
def test_a_fault_names_batch_game_seat_and_action(name: str, fault: str) -> None:
    """Issue 14 "What to build" 4: the same `PlayerError` on every executor."""
    failing = failing_games()
    with EXECUTORS[name]() as executor, pytest.raises(PlayerError) as caught:
        run(faulty_table(fault), executor)
    error = caught.value
    batch, game = error.batch, error.game
    if name in {"none", "map"}:
        assert (batch, game) == failing[0]
    assert (batch, game) in failing
    assert str(error).startswith(f"batch {batch}, game {game}: player {error.seat} ")
    if fault == "raise":
        assert "raised ZeroDivisionError('the bot divided by zero')" in str(error)
        assert error.__cause__ is not None  # the bot's error, or the remote traceback
        assert "ZeroDivisionError" in str(error.__cause__) + repr(error.__cause__)


def test_the_time_limit_applies_in_simulate() -> None:
    """`simulate(time_limit=...)` is `play_game`'s limit, for every decision."""
    batch, game = failing_games()[0]
    with pytest.raises(PlayerError, match=f"^batch {batch}, game {game}: .* took"):
        run(faulty_table("slow"), time_limit=0.05)


class Dropping:
    """An executor that loses the second batch."""

    def map(self, fn: Callable[[_S], _T], iterable: Iterable[_S], /) -> Iterator[_T]:
        """Every result but the second."""
        for number, item in enumerate(iterable):
            if number != 1:
                yield fn(item)


class Repeating:
    """An executor that returns the third batch twice."""

    def map(self, fn: Callable[[_S], _T], iterable: Iterable[_S], /) -> Iterator[_T]:
        """Every result, the third one twice."""
        for number, item in enumerate(iterable):
            result = fn(item)
            yield result
            if number == 2:
                yield result


class Reversing:
    """An executor that returns the batches in reverse order."""

    def map(self, fn: Callable[[_S], _T], iterable: Iterable[_S], /) -> list[_T]:
        """Every result, last first."""
        return [fn(item) for item in iterable][::-1]


def test_a_lost_batch_is_named() -> None:
    """Issue 14 item 6: 40 games asked are 40 games played, or an error."""
    with pytest.raises(ExecutorError, match=r"lost batch 1 and returned no extra"):
        run([RandomPlayer()] * 4, Dropping())


def test_a_repeated_batch_is_named() -> None:
    """Issue 14 item 6: a batch returned twice is refused, not counted twice."""
    with pytest.raises(
        ExecutorError, match=r"lost no batch and returned extra batch 2"
    ):
        run([RandomPlayer()] * 4, Repeating())


def test_batches_may_come_back_in_any_order() -> None:
    """The stats are merged in batch order, whatever order the executor keeps."""
    kwargs = {"rules": CLASSIC, "players": [RandomPlayer()] * 4, "seed": 3}
    assert simulate(40, batch_size=5, executor=Reversing(), **kwargs) == simulate(  # type: ignore[arg-type]
        40,
        batch_size=5,
        **kwargs,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("name", ["multiprocessing", "futures", "process_pool"])
def test_a_killed_worker_raises(name: str) -> None:
    """Issue 14 item 7: a worker killed by SIGKILL (the OOM killer) is an error."""
    with EXECUTORS[name]() as executor, pytest.raises(ExecutorError) as caught:
        run(faulty_table("die"), executor)
    assert "a worker died" in str(caught.value)


def test_a_stuck_batch_times_out() -> None:
    """`process_pool(timeout=...)`: a bot that never returns stops the simulation."""
    with pytest.raises(ExecutorError, match="timeout"):  # noqa: SIM117 - the error leaves the pool
        with process_pool(2, timeout=1) as pool:
            run(faulty_table("hang"), pool)


@pytest.mark.parametrize(
    ("workers", "timeout", "error"),
    [(0, None, InvalidArgumentError), (1025, None, InvalidArgumentError),
     (2.0, None, TypeError), (2, 0, InvalidArgumentError), (2, "1", TypeError)],
)  # fmt: skip
def test_bad_pools(workers: object, timeout: object, error: type[Exception]) -> None:
    """A pool has 1 to 1,024 workers and a positive timeout."""
    with pytest.raises(error), process_pool(workers, timeout=timeout):  # type: ignore[arg-type]
        pass  # pragma: no cover - never reached


# -- wrong arguments -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({"players": [None] * 4}, TypeError),
        ({"players": "abcd"}, TypeError),
        ({"players": None}, TypeError),
        ({"rules": 4}, TypeError),
        ({"rules": "no-such-variant"}, UnknownVariantError),
        ({"seed": None}, TypeError),
        ({"seed": True}, TypeError),
        ({"seed": 1.5}, TypeError),
        ({"executor": 3}, TypeError),
        ({"record_games": 1}, TypeError),
        ({"batch_size": 2.5}, TypeError),
        ({"n_games": "10"}, TypeError),
        ({"n_games": -1}, InvalidArgumentError),
        ({"first_batch": -1}, InvalidArgumentError),
        ({"batch_size": 0}, InvalidArgumentError),
    ],
    ids=lambda value: "-".join(map(str, value)) if isinstance(value, dict) else "",
)
def test_wrong_arguments_are_refused(
    arguments: dict[str, object], error: type[Exception]
) -> None:
    """Issue 14 item 8: a wrong type is a `TypeError`, a bad value a `TienLenError`."""
    call: dict[str, object] = {
        "n_games": 10, "rules": CLASSIC, "players": [RandomPlayer()] * 4, "seed": 1,
    }  # fmt: skip
    call.update(arguments)
    with pytest.raises(error) as caught:
        simulate(**call)  # type: ignore[arg-type]
    if error is not TypeError:
        assert isinstance(caught.value, TienLenError)
        assert isinstance(caught.value, ValueError)


def test_play_game_refuses_wrong_types() -> None:
    """Issue 14 item 8: `play_game` with no state, no rng or a non-player."""
    state = GameState.deal(CLASSIC, 4, 1)
    bots: list[Player] = [RandomPlayer()] * 4
    with pytest.raises(TypeError, match="state must be a GameState"):
        play_game(None, bots, random.Random(1))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rng must be a Random"):
        play_game(state, bots, 1)  # type: ignore[arg-type]
    odd: list[object] = [RandomPlayer(), RandomPlayer(), 3, RandomPlayer()]
    with pytest.raises(TypeError, match="player 2 is not a Player"):
        play_game(state, odd, random.Random(1))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="3 players for a 4-player game"):
        play_game(state, bots[:3], random.Random(1))


def test_custom_rules_cannot_be_recorded() -> None:
    """`record_games` needs a `BaseRules`: refused before any game is played."""

    class Wrapped:
        def __init__(self) -> None:
            self.inner = CLASSIC

        def __getattr__(self, name: str) -> object:
            return getattr(self.inner, name)

    wrapped: Any = Wrapped()  # a custom rule set, as far as simulate knows
    bots = [RandomPlayer()] * 4
    with pytest.raises(RecordError):
        simulate(1, rules=wrapped, players=bots, seed=1, record_games=True)
