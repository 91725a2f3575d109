"""Bots that exit, interrupt or leave a thread running, on every executor (issue 20 §6).

A bot's ``SystemExit`` or ``KeyboardInterrupt`` is not an ``Exception``: it used to stop
a serial run, kill a ``multiprocessing.Pool`` worker and come back from a
``ProcessPoolExecutor`` as the parent's own exit. Now each executor ends the run with
the `PlayerError` naming the batch, the game and the seat, the bot's exception as its
cause. A bot that starts a non-daemon thread kept a worker alive, so that leaving
`process_pool` waited forever: that is checked in a subprocess with a timeout, so that
a regression fails instead of hanging.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import pytest

from tests.sim.faulty_bots import Faulty
from tests.sim.test_sim_faults import EXECUTORS, failing_games, faulty_table, run
from tienlen import CLASSIC, GameState, GreedyPlayer, Player, PlayerError
from tienlen.engine.referee import play_out
from tienlen.evaluation import evaluate
from tienlen.simulation import owns_exit

ROOT = Path(__file__).resolve().parents[2]

RAISED = {"exit": "SystemExit(3)", "interrupt": "KeyboardInterrupt()"}
"""What each exiting bot raises, as the `PlayerError` shows it."""


def _outcome(call: Callable[[], object]) -> BaseException | None:
    """What *call* raised, whatever it was (a ``KeyboardInterrupt`` must not stop pytest)."""
    try:
        call()
    except BaseException as error:  # noqa: BLE001 - the outcome is what is checked
        return error
    return None


@pytest.mark.parametrize("name", EXECUTORS)
@pytest.mark.parametrize("fault", ["exit", "interrupt"])
def test_a_bot_that_exits_is_a_player_error(name: str, fault: str) -> None:
    """``SystemExit`` or ``KeyboardInterrupt`` raised by a bot: the same `PlayerError`.

    Except a ``KeyboardInterrupt`` in the main thread of the main process (the serial
    executors here), which is Ctrl-C and stops the run as such.
    """
    failing = failing_games()
    with EXECUTORS[name]() as executor:
        error = _outcome(lambda: run(faulty_table(fault), executor))
    if fault == "interrupt" and name in {"none", "map"}:
        assert isinstance(error, KeyboardInterrupt)
        return
    assert isinstance(error, PlayerError), repr(error)
    assert (error.batch, error.game) in failing
    if name in {"none", "map"}:
        assert (error.batch, error.game) == failing[0]
    expected = f"batch {error.batch}, game {error.game}: player {error.seat} (Faulty) "
    assert str(error) == f"{expected}raised {RAISED[fault]}"
    assert isinstance(error.player, Faulty)
    assert error.action is None  # it raised: no action
    kind = SystemExit if fault == "exit" else KeyboardInterrupt
    assert isinstance(error.__cause__, kind) or kind.__name__ in str(error.__cause__)


def test_an_exit_on_a_thread_is_a_player_error_even_as_keyboard_interrupt() -> None:
    """Off the main thread a ``KeyboardInterrupt`` is the bot's own: a `PlayerError`."""
    with EXECUTORS["threads"]() as executor:
        error = _outcome(lambda: run(faulty_table("interrupt"), executor))
    assert isinstance(error, PlayerError)
    assert isinstance(error.__cause__, KeyboardInterrupt)


def test_other_faults_still_name_the_bot_itself() -> None:
    """A refused action of a guarded bot names the bot's class, never the guard's."""
    with pytest.raises(PlayerError, match=r"player \d \(Faulty\) chose"):
        run(faulty_table("illegal"))


_LEAVING = """
import os, sys, time
from tests.sim.faulty_bots import Faulty
from tienlen import CLASSIC, simulate
from tienlen.simulation import process_pool
import multiprocessing

def pool():
    return process_pool(2) if sys.argv[1] == "process_pool" else multiprocessing.Pool(2)

with pool() as executor:
    stats = simulate(
        40, rules=CLASSIC, players=[Faulty("thread", 40)] * 4, seed=3, batch_size=5,
        executor=executor,
    )
    workers = executor._executor._processes if sys.argv[1] == "process_pool" else {
        w.pid: w for w in executor._pool}
    pids = sorted(process.pid for process in workers.values())
print(stats.games, *pids)
"""


@pytest.mark.slow
@pytest.mark.parametrize("name", ["process_pool", "multiprocessing"])
def test_a_thread_left_running_does_not_hang_the_pool(name: str) -> None:
    """Leaving the pool returns within seconds, with every worker gone.

    Each worker is kept alive by a non-daemon thread a bot started (it sleeps for ten
    minutes): `process_pool` gives idle workers two seconds, then terminates them.
    """
    code = textwrap.dedent(_LEAVING)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    done = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", code, name],
        capture_output=True,
        text=True,
        timeout=90,
        cwd=ROOT,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    games, *pids = map(int, done.stdout.split())
    assert games == 40
    assert pids
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists() or _is_zombie(pid), pid


def _is_zombie(pid: int) -> bool:
    """Whether process *pid* has exited and waits only to be reaped."""
    try:
        status = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return status.rsplit(")", 1)[1].split()[0] in {"Z", "X"}


@pytest.mark.parametrize("name", ["none", "threads", "process_pool"])
def test_a_bot_that_exits_in_an_evaluation_is_a_player_error(name: str) -> None:
    """`evaluate` ends the same way: the `PlayerError` naming the bot's seat."""
    with EXECUTORS[name]() as executor:
        error = _outcome(
            lambda: evaluate(
                [Faulty("exit", 4), GreedyPlayer()],
                6,
                rules=CLASSIC,
                seed=3,
                batch_size=2,
                executor=executor,
            )
        )
    assert isinstance(error, PlayerError), repr(error)
    assert str(error) == f"player {error.seat} (Faulty) raised SystemExit(3)"
    assert isinstance(error.player, Faulty)


class _Exits:
    """A bot that raises ``SystemExit`` on its first decision."""

    def act(self, observation: object, actions: object, rng: object) -> NoReturn:
        del observation, actions, rng
        raise SystemExit(5)


@pytest.mark.parametrize("declared", [False, True])
def test_the_referee_reports_an_exit_only_when_told_it_is_the_bots(
    declared: bool,
) -> None:
    """`play_out`'s *owns_exit* decides; without it a bot's exit goes on up."""
    bot: Player = (
        type("Declared", (_Exits,), {"changes_nothing": True})()
        if declared
        else _Exits()
    )
    state = GameState.deal(CLASSIC, 4, 1)
    players = [bot] * 4
    with pytest.raises(SystemExit):
        play_out(state, players, random.Random(1), None)
    with pytest.raises(SystemExit):
        play_out(state, players, random.Random(1), None, owns_exit=lambda _: False)
    with pytest.raises(PlayerError, match=r"raised SystemExit\(5\)") as caught:
        play_out(state, players, random.Random(1), None, owns_exit=lambda _: True)
    assert caught.value.player is bot
    assert type(caught.value.__cause__) is SystemExit


def test_simulate_leaves_other_base_exceptions_alone() -> None:
    """Only a bot's own ``SystemExit`` or ``KeyboardInterrupt`` becomes its error."""

    class Closing:
        def act(self, observation: object, actions: object, rng: object) -> NoReturn:
            del observation, actions, rng
            raise GeneratorExit

    state = GameState.deal(CLASSIC, 4, 1)
    with pytest.raises(GeneratorExit):
        play_out(state, [Closing()] * 4, random.Random(1), None, owns_exit=owns_exit)
