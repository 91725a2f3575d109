"""The review of a finished hand over the protocol: made off the event loop, once."""

from __future__ import annotations

import concurrent.futures
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from tests.server.harness import Client, create, join, make_hub, snapshot
from tienlen.analysis import analyse
from tienlen.records import RecordError, loads
from tienlen.server.reviews import HANDS_KEPT, REVIEW_SEED
from tienlen.server.storage import SQLiteStorage
from tienlen.server.tables import Hub

BUDGET = 2


class HeldPool(concurrent.futures.Executor):
    """A pool that runs nothing until the test says so (`run`)."""

    def __init__(self) -> None:
        self.jobs: list[
            tuple[concurrent.futures.Future[Any], Callable[..., Any], tuple[Any, ...]]
        ] = []

    def submit(
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[Any]:
        """Keep the job; its future is done by `run`."""
        assert not kwargs
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.jobs.append((future, fn, args))
        return future

    def run(self) -> None:
        """Run every job kept, in order."""
        jobs, self.jobs = self.jobs, []
        for future, fn, args in jobs:
            if future.set_running_or_notify_cancel():
                future.set_result(fn(*args))


@pytest.fixture(autouse=True)
def _boards_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reviews' progress boards in the test's own directory (a held review keeps its)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


def _hub(pool: HeldPool | None = None, **options: Any) -> Hub:
    if pool is None:
        options["slow_pool"] = concurrent.futures.ThreadPoolExecutor
    else:
        options["slow_pool"] = lambda _: pool
    hub, _ = make_hub(review_budget=BUDGET, **options)
    return hub


def _finish_hand(client: Client, table_id: str) -> None:
    """Play the client's seat (0) of a two-seat table to the hand's end: its first legal action."""
    table = client.hub.tables[table_id]
    while not table.between:
        client.send({"type": "move", "index": 0, "ply": len(table.state.history)})


def _seated_after_a_hand(
    hub: Hub, address: str = "10.0.0.1", seed: int = 3
) -> tuple[Client, str]:
    client = Client(hub, address)
    table_id = create(client, seed=seed, rules="classic", players=2)
    join(client, table_id, 0)
    _finish_hand(client, table_id)
    client.new()
    return client, table_id


def _played(client: Client) -> list[dict[str, Any]]:
    """The actions of hand 1 as the client was sent them."""
    seen: list[dict[str, Any]] = []
    for text in client.inbox:
        message = json.loads(text)
        if message["type"] == "gameFull" and message["table"]["hand"] == 1:
            seen = list(message["history"])
        elif message["type"] == "gameState" and message["hand"] == 1:
            seen += message["actions"]
    return seen


def _types(client: Client) -> list[str]:
    return [message["type"] for message in client.new()]


def _wait_for_review(hub: Hub, client: Client) -> dict[str, Any]:
    for _ in range(2000):
        hub.tick()
        for message in client.new():
            if message["type"] in {"review", "error"}:
                return message
        concurrent.futures.wait(
            [p.future for p in hub.reviews._pending.values()], timeout=0.05
        )
    raise AssertionError("no review")


def test_a_finished_hand_is_reviewed_as_analyse_reviews_its_record() -> None:
    """The review is `analyse` of the hand's record at the server's budget and seed."""
    hub = _hub()
    client, table_id = _seated_after_a_hand(hub)
    ended = client.last("handEnd")
    client.send({"type": "review", "hand": 1})
    assert _types(client) == ["reviewing"]
    review = _wait_for_review(hub, client)
    assert review["type"] == "review"
    assert review["hand"] == 1
    game = loads(hub.tables[table_id].finished[1])
    expected = analyse(game, budget=BUDGET, seed=REVIEW_SEED).to_json()
    assert review["analysis"] == expected
    assert review["actions"] == _played(client)
    assert len(review["actions"]) == len(ended["record"]["actions"])
    decisions = cast("list[dict[str, Any]]", expected["decisions"])
    labelled = [d["index"] for d in decisions if d["label"] is not None]
    assert sorted(map(int, review["explanations"])) == labelled
    for words in review["explanations"].values():
        assert set(words) == {"en", "vi"}
        assert words["en"] != words["vi"]


def test_a_hand_in_play_is_not_reviewed() -> None:
    """Asked while a hand is played, a review is refused and nothing starts."""
    hub = _hub()
    client = Client(hub, "10.0.0.1")
    table_id = create(client, seed=3, rules="classic", players=2)
    join(client, table_id, 0)
    client.new()
    table = hub.tables[table_id]
    before = snapshot(table)
    client.send({"type": "review", "hand": 1})
    error = client.new()[-1]
    assert error["type"] == "error"
    assert error["code"] == "hand-in-play"
    assert snapshot(table) == before
    assert hub.reviews.pending((table_id, 1)) is None
    _finish_hand(client, table_id)
    client.send({"type": "ready"})  # hand 2 is dealt: hand 1 is not reviewed now either
    assert table.number == 2
    assert not table.between
    client.new()
    client.send({"type": "review", "hand": 1})
    assert client.new()[-1]["code"] == "hand-in-play"


@pytest.mark.parametrize(
    ("hand", "code"),
    [(2, "no-hand"), (0, "no-hand"), ("1", "bad-message"), (None, "bad-message")],
)
def test_a_review_of_no_finished_hand_is_refused(hand: object, code: str) -> None:
    """A hand never finished, or no number, is refused with its code."""
    hub = _hub()
    client, table_id = _seated_after_a_hand(hub)
    client.send({"type": "review", "hand": hand})
    assert client.new()[-1]["code"] == code
    assert hub.reviews.pending((table_id, 1)) is None


def test_a_review_needs_a_table() -> None:
    """A connection at no table is refused."""
    hub = _hub()
    lone = Client(hub)
    lone.send({"type": "review", "hand": 1})
    assert lone.new()[-1]["code"] == "not-seated"


def test_one_review_in_flight_per_address() -> None:
    """A second review asked from the same address waits for the first; others do not."""
    pool = HeldPool()
    hub = _hub(pool)
    first, _table_one = _seated_after_a_hand(hub, "10.0.0.1", seed=3)
    second, table_two = _seated_after_a_hand(hub, "10.0.0.1", seed=4)
    other, _table_three = _seated_after_a_hand(hub, "10.0.0.2", seed=5)
    first.send({"type": "review", "hand": 1})
    assert _types(first) == ["reviewing"]
    second.send({"type": "review", "hand": 1})
    refused = second.new()[-1]
    assert refused["code"] == "review-busy"
    assert refused["in"] == "review"
    other.send({"type": "review", "hand": 1})
    assert _types(other) == ["reviewing"]
    assert len(pool.jobs) == 2
    pool.run()
    hub.tick()
    assert _types(first) == ["reviewProgress", "review"]
    assert _types(other) == ["reviewProgress", "review"]
    second.send(
        {"type": "review", "hand": 1}
    )  # the address's review is made: a new one
    assert _types(second) == ["reviewing"]
    assert hub.reviews.pending((table_two, 1)) is not None


def test_the_reviews_in_flight_are_bounded() -> None:
    """Beyond ``reviews_in_flight``, every address together, a review is refused busy."""
    pool = HeldPool()
    hub = _hub(pool, reviews_in_flight=1)
    first, _ = _seated_after_a_hand(hub, "10.0.0.1", seed=3)
    second, _ = _seated_after_a_hand(hub, "10.0.0.2", seed=4)
    first.send({"type": "review", "hand": 1})
    second.send({"type": "review", "hand": 1})
    assert second.new()[-1]["code"] == "busy"
    assert len(pool.jobs) == 1


def test_a_review_is_made_once_and_cached() -> None:
    """Viewers asking while it is made wait for the same job; later ones get it at once."""
    pool = HeldPool()
    hub = _hub(pool)
    player, table_id = _seated_after_a_hand(hub)
    watcher = Client(hub, "10.0.0.9")
    watcher.send({"type": "watch", "table": table_id})
    watcher.new()
    player.send({"type": "review", "hand": 1})
    watcher.send({"type": "review", "hand": 1})
    assert _types(watcher) == ["reviewing"]
    assert len(pool.jobs) == 1
    pool.run()
    hub.tick()
    made = player.last("review")
    assert watcher.last("review") == made
    late = Client(hub, "10.0.0.10")
    late.send({"type": "watch", "table": table_id})
    late.new()
    late.send({"type": "review", "hand": 1})
    assert late.new() == [made]
    assert pool.jobs == []


def test_a_review_made_during_a_later_hand_waits_for_its_end() -> None:
    """No message of a hand in play names a card: a review made meanwhile waits."""
    pool = HeldPool()
    hub = _hub(pool)
    player, table_id = _seated_after_a_hand(hub)
    watcher = Client(hub, "10.0.0.9")
    watcher.send({"type": "watch", "table": table_id})
    watcher.send({"type": "review", "hand": 1})
    player.send({"type": "ready"})  # hand 2 starts before the review is made
    assert not hub.tables[table_id].between
    pool.run()
    hub.tick()
    assert "review" not in _types(watcher)
    _finish_hand(player, table_id)
    hub.tick()
    assert _types(watcher)[-1] == "review"


def test_a_failed_review_is_answered_and_not_cached() -> None:
    """A review whose job fails is an ``internal`` error; asked again it runs again."""
    pool = HeldPool()
    hub = _hub(pool)
    player, table_id = _seated_after_a_hand(hub)
    hub.tables[table_id].finished[1] = "{}"  # no record: the job raises
    player.send({"type": "review", "hand": 1})
    future, fn, args = pool.jobs.pop()
    with pytest.raises(RecordError) as raised:
        fn(*args)
    future.set_exception(raised.value)
    hub.tick()
    error = player.new()[-1]
    assert (error["type"], error["code"], error["in"]) == (
        "error",
        "internal",
        "review",
    )
    player.send({"type": "review", "hand": 1})
    assert _types(player) == ["reviewing"]
    assert len(pool.jobs) == 1


def test_the_last_hands_are_kept_and_restored(tmp_path: Path) -> None:
    """The records of the last finished hands survive a restart, for reviews."""
    storage = SQLiteStorage(tmp_path / "tables.sqlite3")
    hub = _hub(storage=storage)
    player, table_id = _seated_after_a_hand(hub)
    for _ in range(HANDS_KEPT):
        player.send({"type": "ready"})
        _finish_hand(player, table_id)
    kept = hub.tables[table_id].finished
    assert sorted(kept) == list(range(2, HANDS_KEPT + 2))
    storage.close()
    again = _hub(storage=SQLiteStorage(tmp_path / "tables.sqlite3"))
    again.restore()
    assert again.tables[table_id].finished == kept


def test_serve_takes_the_reviews_limits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--review-workers`` and ``--review-budget`` reach the hub; 0 is refused."""
    uvicorn = pytest.importorskip("uvicorn")
    from tienlen.cli import main  # noqa: PLC0415
    from tienlen.server import tables  # noqa: PLC0415

    made: list[Hub] = []

    class Recorded(Hub):
        def __init__(self, *args: Any, **options: Any) -> None:
            super().__init__(*args, **options)
            made.append(self)

    monkeypatch.setattr(tables, "Hub", Recorded)
    monkeypatch.setattr(uvicorn, "run", lambda *_, **__: None)
    options = ["--review-workers", "2", "--review-budget", "5"]
    assert main(["serve", "--data", str(tmp_path / "d"), *options]) == 0
    (hub,) = made
    assert (hub.reviews.workers, hub.reviews.budget) == (2, 5)
    for option in ("--review-workers", "--review-budget"):
        assert main(["serve", "--data", str(tmp_path / "e"), option, "0"]) == 2
    assert not (tmp_path / "e").exists()


def test_an_earlier_hand_of_the_match_is_reviewed() -> None:
    """Between hands, any kept hand may be reviewed, not only the last one."""
    hub = _hub()
    player, table_id = _seated_after_a_hand(hub)
    player.send({"type": "ready"})
    _finish_hand(player, table_id)
    player.new()
    player.send({"type": "review", "hand": 1})
    review = _wait_for_review(hub, player)
    assert review["hand"] == 1
    first = loads(hub.tables[table_id].finished[1])
    assert len(review["actions"]) == len(first.actions)
    assert review["analysis"] == analyse(first, budget=BUDGET).to_json()
