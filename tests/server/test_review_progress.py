"""A review's progress over the protocol, its cancellation, and bad ``review`` messages."""

from __future__ import annotations

import concurrent.futures
import json
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.server.harness import (
    Client,
    Clock,
    create,
    hidden_from,
    join,
    leaked,
    make_hub,
    snapshot,
)
from tests.server.test_review import (
    BUDGET,
    HeldPool,
    _finish_hand,
    _seated_after_a_hand,
)
from tienlen.analysis import AnalysisCancelledError
from tienlen.records import loads
from tienlen.server.reviews import PROGRESS_INTERVAL, ProgressBoard, review_json
from tienlen.server.tables import Connection, Hub, Table


@pytest.fixture(autouse=True)
def _boards_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reviews' progress boards in the test's own directory (a held review keeps its)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


def _hub(pool: concurrent.futures.Executor, **options: Any) -> tuple[Hub, Clock]:
    return make_hub(review_budget=BUDGET, slow_pool=lambda _: pool, **options)


def _progress(client: Client) -> list[tuple[int, int, int]]:
    """The ``reviewProgress`` messages received since the last read: (hand, done, total)."""
    return [
        (m["hand"], m["done"], m["total"])
        for m in client.new()
        if m["type"] == "reviewProgress"
    ]


def _full(hub: Hub) -> bool:
    return hub.reviews.full


def _worker_board(pool: HeldPool, job: int = -1) -> ProgressBoard:
    """The board of a job kept by *pool*, mapped as its worker maps it."""
    _, _, args = pool.jobs[job]
    return ProgressBoard.attach(args[3])


def _run_without_board(pool: HeldPool) -> None:
    """Make every kept job's review, its board told by the test instead."""
    jobs, pool.jobs = pool.jobs, []
    for future, fn, args in jobs:
        if future.set_running_or_notify_cancel():
            future.set_result(fn(*args[:3]))


# -- progress ----------------------------------------------------------------------------


def test_progress_is_told_at_most_every_interval_and_at_the_end() -> None:
    """Four ticks at one instant tell once; the interval later, the latest; all done, at once."""
    pool = HeldPool()
    hub, clock = _hub(pool)
    player, _ = _seated_after_a_hand(hub)
    player.send({"type": "review", "hand": 1})
    player.new()
    board = _worker_board(pool)
    for done in range(1, 5):
        assert board.tell(done, 20)
        hub.tick()
    assert _progress(player) == [(1, 1, 20)]
    clock.now += PROGRESS_INTERVAL / 2
    board.tell(6, 20)
    hub.tick()
    assert _progress(player) == []
    clock.now += PROGRESS_INTERVAL / 2
    hub.tick()
    assert _progress(player) == [(1, 6, 20)]
    board.tell(20, 20)  # all done: told at once, though the interval has not passed
    hub.tick()
    assert _progress(player) == [(1, 20, 20)]
    hub.tick()
    assert _progress(player) == []
    _run_without_board(pool)
    hub.tick()
    assert [m["type"] for m in player.new()] == ["review"]  # the end was told already
    board.close()


def test_a_review_done_between_ticks_tells_its_end_before_it() -> None:
    """A review made before any tick is told done (every decision), then sent."""
    pool = HeldPool()
    hub, _ = _hub(pool)
    player, table_id = _seated_after_a_hand(hub)
    player.send({"type": "review", "hand": 1})
    player.new()
    pool.run()
    hub.tick()
    told, review = player.new()
    decisions = len(review["analysis"]["decisions"])
    assert told == {
        "v": 1,
        "type": "reviewProgress",
        "hand": 1,
        "done": decisions,
        "total": decisions,
    }
    assert review["type"] == "review"
    assert len(review["actions"]) == len(
        loads(hub.tables[table_id].finished[1]).actions
    )


def test_progress_goes_to_who_waits_only() -> None:
    """Every waiter is told; a spectator who did not ask and another table are not."""
    pool = HeldPool()
    hub, _ = _hub(pool)
    player, table_id = _seated_after_a_hand(hub, "10.0.0.1", seed=3)
    asker, idle = Client(hub, "10.0.0.2"), Client(hub, "10.0.0.3")
    for client in (asker, idle):
        client.send({"type": "watch", "table": table_id})
        client.new()
    elsewhere, _ = _seated_after_a_hand(hub, "10.0.0.4", seed=4)
    player.send({"type": "review", "hand": 1})
    asker.send({"type": "review", "hand": 1})
    board = _worker_board(pool)
    board.tell(2, 9)
    hub.tick()
    assert _progress(player) == _progress(asker) == [(1, 2, 9)]
    assert idle.new() == elsewhere.new() == []
    pool.run()
    hub.tick()
    assert idle.new() == elsewhere.new() == []
    board.close()


def test_a_real_review_tells_rising_progress_then_the_review() -> None:
    """In a worker thread: progress rising to every decision, then the review."""
    hub, clock = make_hub(
        review_budget=BUDGET, slow_pool=concurrent.futures.ThreadPoolExecutor
    )
    player, _ = _seated_after_a_hand(hub)
    player.send({"type": "review", "hand": 1})
    seen: list[dict[str, Any]] = []
    while not seen or seen[-1]["type"] != "review":
        clock.now += PROGRESS_INTERVAL
        hub.tick()
        seen += player.new()
        concurrent.futures.wait(
            [p.future for p in hub.reviews._pending.values()], timeout=0.01
        )
    told = [(m["done"], m["total"]) for m in seen if m["type"] == "reviewProgress"]
    total = len(seen[-1]["analysis"]["decisions"])
    assert told
    assert told[-1] == (total, total)
    assert all(t == total for _, t in told)
    assert [d for d, _ in told] == sorted({d for d, _ in told})
    hub.shutdown()


# -- cancellation ------------------------------------------------------------------------


class StartedPool(HeldPool):
    """A pool whose jobs are taken at once (as a process pool's call queue does): no cancel."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        """Keep the job, already running."""
        future = super().submit(fn, *args, **kwargs)
        assert future.set_running_or_notify_cancel()
        return future

    def finish(self) -> list[BaseException | None]:
        """Run every kept job; what each raised."""
        jobs, self.jobs = self.jobs, []
        raised: list[BaseException | None] = []
        for future, fn, args in jobs:
            try:
                future.set_result(fn(*args))
                raised.append(None)
            except Exception as error:  # noqa: BLE001  # the job's failure is its answer
                future.set_exception(error)
                raised.append(error)
        return raised


def test_a_client_that_leaves_stops_its_review() -> None:
    """Its client gone, a review not started is cancelled: the address may ask again."""
    pool = HeldPool()
    hub, _ = _hub(pool, reviews_in_flight=1)
    player, table_id = _seated_after_a_hand(hub)
    player.send({"type": "review", "hand": 1})
    future, _, args = pool.jobs[0]
    player.close()
    assert future.cancelled()
    assert hub.reviews.pending((table_id, 1)) is None
    assert not hub.reviews.full
    again = Client(hub, "10.0.0.1")
    again.send({"type": "watch", "table": table_id})
    again.send({"type": "review", "hand": 1})
    assert again.new()[-1]["type"] == "reviewing"
    with pytest.raises(FileNotFoundError):
        ProgressBoard.attach(args[3])  # the stopped review's board is gone


def test_a_running_review_stops_when_its_client_leaves() -> None:
    """A review its worker took stops at the worker's next look; it counts until then."""
    pool = StartedPool()
    hub, _ = _hub(pool, reviews_in_flight=1)
    player, table_id = _seated_after_a_hand(hub)
    player.send({"type": "review", "hand": 1})
    board = _worker_board(pool)
    player.close()
    assert board.stopped
    assert not board.tell(1, 20)  # analyse's progress: stop
    assert _full(hub)  # its worker is still busy with it
    (raised,) = pool.finish()
    assert isinstance(raised, AnalysisCancelledError)
    hub.tick()
    assert not _full(hub)
    assert hub.reviews.cached((table_id, 1)) is None
    board.close()


def test_analyse_stops_midway_when_the_board_is_stopped() -> None:
    """A review being made stops at its next decision once its board is stopped."""
    hub, _ = make_hub()
    _, table_id = _seated_after_a_hand(hub)
    text = hub.tables[table_id].finished[1]
    board = ProgressBoard.create()
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            review_json(text, 16, board=board.path)
            outcome.append(None)
        except AnalysisCancelledError as error:
            outcome.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    while board.read()[0] == 0 and worker.is_alive():
        worker.join(0.001)
    board.stop()
    worker.join()
    done, total = board.read()
    (error,) = outcome
    assert isinstance(error, AnalysisCancelledError)
    assert 0 < done < total
    board.remove()


def test_asking_another_review_stops_the_first() -> None:
    """A client waits for one review: asking another gives up the first, which stops."""
    pool = HeldPool()
    hub, _ = _hub(pool)
    player, table_id = _seated_after_a_hand(hub)
    player.send({"type": "ready"})
    _finish_hand(player, table_id)
    player.new()
    player.send({"type": "review", "hand": 1})
    first, _, _ = pool.jobs[0]
    player.send({"type": "review", "hand": 2})
    assert [m["type"] for m in player.new()] == ["reviewing", "reviewing"]
    assert first.cancelled()
    assert hub.reviews.pending((table_id, 1)) is None
    assert hub.reviews.pending((table_id, 2)) is not None
    pool.run()
    hub.tick()
    sent = player.new()
    assert [(m["type"], m["hand"]) for m in sent] == [
        ("reviewProgress", 2),
        ("review", 2),
    ]


def test_a_review_another_client_waits_for_goes_on() -> None:
    """Given up by one of its waiters, a review goes on for the others; the asker is free."""
    pool = HeldPool()
    hub, _ = _hub(pool)
    player, table_id = _seated_after_a_hand(hub, "10.0.0.1")
    player.send({"type": "ready"})
    _finish_hand(player, table_id)
    watcher = Client(hub, "10.0.0.9")
    watcher.send({"type": "watch", "table": table_id})
    player.send({"type": "review", "hand": 1})
    watcher.send({"type": "review", "hand": 1})
    player.new(), watcher.new()
    player.send({"type": "review", "hand": 2})  # hand 1 is the watcher's now
    assert player.new()[-1]["type"] == "reviewing"
    assert hub.reviews.busy("10.0.0.9")
    assert len(pool.jobs) == 2
    assert not any(future.cancelled() for future, _, _ in pool.jobs)
    pool.run()
    hub.tick()
    assert [m["hand"] for m in player.new() if m["type"] == "review"] == [2]
    assert [m["hand"] for m in watcher.new() if m["type"] == "review"] == [1]


def test_the_same_review_asked_twice_runs_once_and_comes_once() -> None:
    """Asked again while it is made: ``reviewing`` again, one job, one review."""
    pool = HeldPool()
    hub, _ = _hub(pool)
    player, _ = _seated_after_a_hand(hub)
    player.send({"type": "review", "hand": 1})
    player.send({"type": "review", "hand": 1})
    assert [m["type"] for m in player.new()] == ["reviewing", "reviewing"]
    assert len(pool.jobs) == 1
    board = _worker_board(pool)
    board.tell(1, 5)
    hub.tick()
    pool.run()
    hub.tick()
    kinds = [m["type"] for m in player.new()]
    assert kinds.count("review") == 1
    assert kinds.count("reviewProgress") == 2  # 1 of 5, then every decision
    board.close()


# -- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "code"),
    [
        (-1, "no-hand"),
        (10**30, "no-hand"),
        (int("9" * 4000), "no-hand"),
        (True, "bad-message"),
        (1.0, "bad-message"),
        ([1], "bad-message"),
        ({"hand": 1}, "bad-message"),
    ],
    ids=["negative", "far", "4000-digits", "true", "float", "list", "object"],
)
def test_a_review_of_no_kept_hand_is_refused_briefly(hand: object, code: str) -> None:
    """No kept hand, or no number: one short error to the asker; nothing starts or changes."""
    pool = HeldPool()
    hub, _ = _hub(pool)
    player, table_id = _seated_after_a_hand(hub)
    table = hub.tables[table_id]
    watcher = Client(hub, "10.0.0.9")
    watcher.send({"type": "watch", "table": table_id})
    watcher.new()
    before = snapshot(table)
    player.send(json.dumps({"type": "review", "hand": hand}))
    (error,) = player.new()
    assert (error["type"], error["code"], error["in"]) == ("error", code, "review")
    assert len(player.inbox[-1]) < 200
    assert pool.jobs == []
    assert snapshot(table) == before
    assert watcher.new() == []


def test_a_review_is_of_the_clients_own_table_whatever_it_names() -> None:
    """Junk fields are ignored: a ``table`` naming another table reviews the client's own."""
    pool = HeldPool()
    hub, _ = _hub(pool)
    player, mine = _seated_after_a_hand(hub, "10.0.0.1", seed=3)
    _, theirs = _seated_after_a_hand(hub, "10.0.0.2", seed=4)
    player.send({"type": "review", "hand": 1, "table": theirs, "budget": 10**6})
    assert player.new()[-1]["type"] == "reviewing"
    assert hub.reviews.pending((mine, 1)) is not None
    assert hub.reviews.pending((theirs, 1)) is None
    (_, _, args) = pool.jobs[0]
    assert args[1] == BUDGET


def test_no_progress_or_review_names_a_hidden_card_of_a_hand_in_play() -> None:
    """A watcher's review made while hand 2 is played: progress names no card, the review waits.

    Every message sent while a hand is in play is checked, as it is sent, for the
    cards its receiver may not see.
    """
    checked: list[str] = []

    def tap(connection: Connection, text: str, table: Table | None) -> None:
        if table is None or table.between:
            return
        assert not leaked(text, hidden_from(table, connection.seat)), text
        checked.append(json.loads(text)["type"])

    pool = HeldPool()
    hub, _ = _hub(pool, tap=tap)
    player = Client(hub, "10.0.0.1")
    table_id = create(player, seed=3, rules="classic", players=2)
    join(player, table_id, 0)
    _finish_hand(player, table_id)
    watcher = Client(hub, "10.0.0.9")
    watcher.send({"type": "watch", "table": table_id})
    watcher.send({"type": "review", "hand": 1})
    player.send({"type": "ready"})  # hand 2 is dealt
    assert not hub.tables[table_id].between
    board = _worker_board(pool)
    board.tell(3, 12)
    hub.tick()
    pool.run()
    hub.tick()
    assert checked.count("reviewProgress") == 2  # 3 of 12, then every decision
    assert "review" not in checked
    watcher.new()
    _finish_hand(player, table_id)
    hub.tick()
    assert watcher.new()[-1]["type"] == "review"
    board.close()


def test_a_review_stops_when_the_server_shuts_down() -> None:
    """Shutting down stops a review being made rather than waiting for its end."""
    hub, _ = make_hub(review_budget=64, slow_pool=concurrent.futures.ThreadPoolExecutor)
    player, table_id = _seated_after_a_hand(hub)
    player.send({"type": "review", "hand": 1})
    pending = hub.reviews.pending((table_id, 1))
    assert pending is not None
    while pending.board.read()[0] == 0:
        concurrent.futures.wait([pending.future], timeout=0.001)
    hub.shutdown()
    assert isinstance(pending.future.exception(), AnalysisCancelledError)
