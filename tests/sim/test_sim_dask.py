"""`simulate` on a Dask ``distributed.LocalCluster`` (issue 11 §4; the ``dask`` extra).

Two worker processes, reached through the client's ``get_executor()``: the stats are
the serial ones for the same seed, and a bot fault comes back as the `PlayerError`
naming the batch, the game and the seat. Skipped when Dask is not installed (the
README's test command installs it, with ``.[test-all]``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from tests.sim.faulty_bots import Faulty
from tienlen import CLASSIC, POKER, GreedyPlayer, PlayerError, RandomPlayer, simulate

distributed = pytest.importorskip("distributed")

BOTS = [GreedyPlayer(), RandomPlayer(), GreedyPlayer(danger=3), RandomPlayer()]


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """A client of a two-process local cluster, shared by this module's tests."""
    cluster = distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    )
    with cluster, distributed.Client(cluster) as connected:
        yield connected


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
def test_dask_gives_the_serial_result(client: Any, rules: object) -> None:
    """PERFORMANCE.md §6: the same seed gives the same stats and records on Dask."""
    kwargs: dict[str, Any] = {
        "rules": rules, "players": BOTS, "seed": 21, "batch_size": 20,
        "record_games": True,
    }  # fmt: skip
    on_dask = simulate(100, executor=client.get_executor(), **kwargs)
    assert on_dask == simulate(100, **kwargs)
    assert on_dask.games == len(on_dask.records) == 100


def test_a_bot_fault_on_dask_is_a_player_error(client: Any) -> None:
    """A bot that raises on a Dask worker ends the run with a `PlayerError`."""
    with pytest.raises(PlayerError) as caught:
        simulate(
            40, rules=CLASSIC, players=[Faulty("raise", 40)] * 4, seed=3,
            batch_size=5, executor=client.get_executor(),
        )  # fmt: skip
    error = caught.value
    assert error.batch is not None
    assert error.game is not None
    assert str(error).startswith(f"batch {error.batch}, game {error.game}: player ")
    assert "raised ZeroDivisionError" in str(error)


@pytest.mark.parametrize("fault", ["exit", "interrupt"])
def test_a_bot_exiting_on_dask_is_a_player_error(client: Any, fault: str) -> None:
    """A bot's ``SystemExit`` or ``KeyboardInterrupt`` on a Dask worker (issue 20 §6).

    Run in a thread joined with a timeout: before the fix the run never ended.
    """
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            simulate(
                40, rules=CLASSIC, players=[Faulty(fault, 40)] * 4, seed=3,
                batch_size=5, executor=client.get_executor(),
            )  # fmt: skip
        except BaseException as error:  # noqa: BLE001 - the outcome is what is checked
            outcome.append(error)
        else:
            outcome.append(None)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(120)
    assert outcome, "the simulation on Dask did not end within 120 s"
    error = outcome[0]
    assert isinstance(error, PlayerError), repr(error)
    shown = "SystemExit(3)" if fault == "exit" else "KeyboardInterrupt()"
    assert str(error) == (
        f"batch {error.batch}, game {error.game}: player {error.seat} (Faulty)"
        f" raised {shown}"
    )
