"""One client cannot take the server for itself (issue 34, items 1–3).

Tables are limited per client address, whatever the number of its connections (a
live-table cap, a creation rate, and a rate for every address together); a seat
claimed and never played does not keep a table past the short ``idle`` clock, and a
restart does not bring such tables back. The public list shows no text a client
typed and is paginated. Slow bots get one decision out per table at a time, the
addresses served in turn, at most a few slow seats per address, and think in other
processes (off the event loop's GIL).
"""

from __future__ import annotations

import concurrent.futures
import itertools
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from tests.server.harness import Client, Clock, create, join
from tienlen import CLASSIC
from tienlen.records import rules_to_json
from tienlen.server import tables
from tienlen.server.app import TABLES_PER_PAGE, create_app
from tienlen.server.storage import SQLiteStorage
from tienlen.server.tables import Hub, Table, process_workers

FLOODER, VISITOR = "203.0.113.66", "198.51.100.7"


def _hub(**options: Any) -> tuple[Hub, Clock]:
    """A hub with a fake clock, its messages not rate-limited, the given limits."""
    clock = Clock()
    options.setdefault("rate", 1e9)
    options.setdefault("burst", 1e9)
    return Hub(clock=clock, **options), clock


def _create(client: Client, **settings: Any) -> dict[str, Any]:
    """What the hub answers *client*'s ``create``."""
    client.send({"v": 1, "type": "create", **settings})
    answer: dict[str, Any] = client.new()[-1]
    return answer


def _codes(hub: Hub, count: int, address: str) -> list[str]:
    """Each of *count* new connections from *address* creates a table: the answers."""
    answers = [_create(Client(hub, address)) for _ in range(count)]
    return [a.get("code", a["type"]) for a in answers]


def _move(client: Client, table: Table) -> None:
    """*client*'s seat plays its first legal action now."""
    ply = len(table.state.history)
    client.send({"v": 1, "type": "move", "index": 0, "ply": ply})
    assert len(table.state.history) > ply, client.inbox[-1]


# -- tables per address ------------------------------------------------------------------


def test_many_connections_of_one_address_hold_a_few_tables_at_most() -> None:
    """The live-table cap counts the address, not the connection; others still create."""
    hub, _ = _hub(tables_per_address=3, creates_per_minute=1e6, create_burst=1000)
    codes = _codes(hub, 20, FLOODER)
    assert codes == ["created"] * 3 + ["too-many-tables"] * 17
    assert len(hub.tables) == 3
    assert _codes(hub, 1, VISITOR) == ["created"]


def test_one_address_creates_at_its_rate() -> None:
    """A burst, then one table per `creates_per_minute`; a refusal uses nothing up."""
    hub, clock = _hub(creates_per_minute=6, create_burst=2)
    assert _codes(hub, 4, FLOODER) == ["created"] * 2 + ["rate-limited"] * 2
    clock.now += 9
    assert _codes(hub, 1, FLOODER) == ["rate-limited"]
    clock.now += 1  # ten seconds: one more
    assert _codes(hub, 2, FLOODER) == ["created", "rate-limited"]
    assert _codes(hub, 2, VISITOR) == ["created", "created"]


def test_every_address_together_creates_at_the_server_rate() -> None:
    """Many addresses at once meet the server's own rate (``busy``); it refills."""
    hub, clock = _hub(server_creates_per_minute=60, server_create_burst=3)
    answers = [_codes(hub, 1, f"10.0.0.{n}")[0] for n in range(5)]
    assert answers == ["created"] * 3 + ["busy"] * 2
    assert len(hub.tables) == 3
    clock.now += 1
    assert _codes(hub, 1, "10.0.0.4") == ["created"]


def test_a_flood_through_the_app_leaves_room_for_another_address() -> None:
    """Over real WebSockets, 30 connections create 5 tables; another address may create.

    The app passes each connection's address to the hub (Starlette's test client
    connects from ``testclient``).
    """
    hub = Hub(rate=1e9, burst=1e9)
    answers = []
    with TestClient(create_app(hub)) as http:
        for _ in range(30):
            with http.websocket_connect("/ws") as socket:
                socket.send_text(json.dumps({"v": 1, "type": "create"}))
                answers.append(json.loads(socket.receive_text()))
    codes = [answer.get("code", answer["type"]) for answer in answers]
    assert codes == ["created"] * 5 + ["rate-limited"] * 25
    assert {table.owner for table in hub.tables.values()} == {"testclient"}
    assert _codes(hub, 1, VISITOR) == ["created"]


# -- expiry ------------------------------------------------------------------------------


def test_a_seat_claimed_and_never_played_does_not_keep_its_table() -> None:
    """Sitting down as a person and leaving keeps a table for `idle`, not `abandoned`."""
    hub, clock = _hub(idle=600, abandoned=86_400)
    owner, player = Client(hub, FLOODER), Client(hub, VISITOR)
    left = create(owner, rules="classic")
    join(owner, left, 0)
    played = hub.tables[create(player, rules="classic")]
    join(player, played.id, 0)
    if played.state.to_act != 0:
        pytest.fail("the bots should have played up to seat 0")
    _move(player, played)
    owner.close()
    player.close()
    clock.now += 600
    hub.tick()
    assert set(hub.tables) == {played.id}
    clock.now += 86_400
    hub.tick()
    assert hub.tables == {}


def test_a_restart_does_not_bring_unplayed_tables_back(tmp_path: Path) -> None:
    """Tables whose people never moved are deleted at restore; played ones come back."""
    storage = SQLiteStorage(tmp_path / "t.db")
    hub, _ = _hub(storage=storage, tables_per_address=50, create_burst=50)
    main = hub.create_table(CLASSIC, table_id="main", permanent=True)
    flood = [create(Client(hub, FLOODER), rules="classic") for _ in range(20)]
    for table in flood[:10]:
        join(Client(hub, FLOODER), table, 1)
    player = Client(hub, VISITOR)
    played = hub.tables[create(player, rules="classic")]
    join(player, played.id, 0)
    _move(player, played)
    again, clock = _hub(storage=SQLiteStorage(tmp_path / "t.db"), idle=600)
    assert again.restore() == 2
    assert set(again.tables) == {main.id, played.id}
    assert {saved.table for saved in storage.load()} == {main.id, played.id}
    assert again.tables[played.id].seats[0].moved
    clock.now += 601  # a person moved there: kept on the long clock
    again.tick()
    assert played.id in again.tables


def test_the_moved_flag_is_saved_again_after_a_failed_write(tmp_path: Path) -> None:
    """A seat's first move sets a flag in the table's settings; a failed save is retried."""

    class Flaky(SQLiteStorage):
        failing = False

        def save_table(self, table: str, meta: dict[str, object]) -> None:
            if self.failing:
                raise OSError("disk full")
            super().save_table(table, meta)

    storage = Flaky(tmp_path / "t.db")
    hub, _ = _hub(storage=storage)
    player = Client(hub, VISITOR)
    table = hub.tables[create(player, rules="classic")]
    join(player, table.id, 0)
    storage.failing = True
    _move(player, table)
    storage.failing = False
    hub.tick()
    again = Hub(SQLiteStorage(tmp_path / "t.db"))
    assert again.restore() == 1
    assert again.tables[table.id].seats[0].moved


# -- the public list ---------------------------------------------------------------------


def test_the_table_list_shows_the_preset_not_the_creators_text() -> None:
    """A rule set named with markup and a link is listed as the preset it derives from."""
    hub, _ = _hub()
    name = '<a href="https://evil.example">free chips</a>' * 20
    settings = rules_to_json(CLASSIC)
    settings["name"] = name
    settings["settings"] = {**settings["settings"], "twos_in_straights": False}  # type: ignore[dict-item]
    create(Client(hub, FLOODER), rules=settings)
    with TestClient(create_app(hub)) as http:
        answer = http.get("/api/tables")
    assert "evil" not in answer.text
    assert "<" not in answer.text
    (listed,) = answer.json()
    assert (listed["rules"], listed["changed"]) == ("classic", 1)


def test_the_table_list_is_paginated() -> None:
    """At most `TABLES_PER_PAGE` a page; ``Link`` names the next, ``X-Total-Count`` all."""
    hub, _ = _hub()
    total = TABLES_PER_PAGE + 30
    for index in range(total):
        hub.create_table(CLASSIC, 2 + index % 3, seed=index)
    with TestClient(create_app(hub)) as http:
        first = http.get("/api/tables")
        second = http.get("/api/tables?page=2")
        small = http.get("/api/tables?page=3&limit=7")
        past = http.get("/api/tables?page=99")
        bad = [
            http.get(f"/api/tables?{query}").status_code
            for query in ("page=0", "limit=0", f"limit={TABLES_PER_PAGE + 1}", "page=x")
        ]
    players = [table.players for table in hub.tables.values()]
    assert [t["players"] for t in first.json()] == players[:TABLES_PER_PAGE]
    assert first.headers["X-Total-Count"] == str(total)
    assert (
        first.headers["Link"]
        == f'</api/tables?page=2&limit={TABLES_PER_PAGE}>; rel="next"'
    )
    assert [t["players"] for t in second.json()] == players[TABLES_PER_PAGE:]
    assert "Link" not in second.headers
    assert [t["players"] for t in small.json()] == players[14:21]
    assert past.json() == []
    assert bad == [400, 400, 400, 400]


# -- slow bots ---------------------------------------------------------------------------


def test_one_address_has_a_few_slow_bot_seats_at_most() -> None:
    """Search bots are counted over the address's live tables; another address may have them."""
    hub, _ = _hub(slow_bots_per_address=4)
    flooder = Client(hub, FLOODER)
    assert _create(flooder, bots=["ismcts"] * 3 + ["greedy"])["type"] == "created"
    refused = _create(Client(hub, FLOODER), bots=["pimc", "pimc", "greedy", "greedy"])
    assert refused["code"] == "too-many-bots"
    assert (
        _create(flooder, bots=["pimc", "random", "greedy", "greedy"])["type"]
        == "created"
    )
    assert _create(flooder)["type"] == "created"  # no slow bot: not counted
    assert len(hub.tables) == 3
    visitor = _create(Client(hub, VISITOR), bots=["ismcts"] * 4)
    assert visitor["type"] == "created"


class _Pool(concurrent.futures.Executor):
    """A pool whose answers the test gives: it records what it was asked."""

    def __init__(self) -> None:
        self.asked: list[concurrent.futures.Future[Any]] = []

    def submit(
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[Any]:
        del fn, kwargs
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        future.offered = args[1]  # type: ignore[attr-defined]  # the legal actions
        self.asked.append(future)
        return future


def _asked(hub: Hub, pool: _Pool) -> Table:
    """The table whose slow bot the pool was asked about last."""
    future = pool.asked[-1]
    (table,) = [
        t for t in hub.tables.values() if t.thinking and t.thinking[2] is future
    ]
    return table


def test_slow_bots_are_served_in_turn_by_address() -> None:
    """Three tables of one address ask before a visitor's, one worker.

    The addresses take turns (the visitor's decision is the second one out, not
    the fourth), and the address's tables take turns among themselves.
    """
    pool = _Pool()
    hub, _ = _hub(
        slow_bots_per_address=12,
        slow_workers=1,
        slow_pool=lambda _: pool,
        seeds=itertools.count(1).__next__,
    )
    slow = ["greedy", "ismcts", "ismcts", "ismcts"]
    flood = [Client(hub, FLOODER) for _ in range(3)]
    visitor = Client(hub, VISITOR)
    order = []
    for client in [*flood, visitor]:
        table = hub.tables[create(client, bots=slow)]
        join(client, table.id, 0)
        if table.state.to_act == 0:
            _move(client, table)
        assert table.thinking is not None  # a slow seat's turn: asked, or queued
        order.append(table)
    assert len(pool.asked) == 1  # one worker: one decision out
    assert _asked(hub, pool) is order[0]
    served = []
    for _ in range(6):
        future = pool.asked[-1]
        served.append(_asked(hub, pool))
        future.set_result(future.offered[0])  # type: ignore[attr-defined]
        hub.tick()
        assert len(pool.asked) == len(served) + 1  # the next one, once this is done
    first, *_, theirs = order
    assert served[:2] == [first, theirs]  # not behind the flooder's other tables
    assert [table for table in served if table is not theirs][:3] == order[:3]
    assert all(  # the flooder always has a table waiting: the visitor never twice
        (a, b) != (theirs, theirs) for a, b in itertools.pairwise(served)
    )


def test_slow_bots_think_in_another_process_at_a_lower_priority() -> None:
    """The default pool: processes (no GIL shared with the event loop), niced."""
    assert Hub().slow_pool is process_workers
    pool = process_workers(1)
    try:
        pid = pool.submit(os.getpid).result(timeout=60)
        niceness = pool.submit(os.nice, 0).result(timeout=60)
    finally:
        pool.shutdown()
    assert pid != os.getpid()
    assert niceness >= os.nice(0) + 10 or niceness == 19


def test_a_slow_bot_plays_through_the_process_pool() -> None:
    """A real ``pimc`` seat's decision comes back from a worker process and is played."""
    hub, _ = _hub(slow_workers=1)
    owner = Client(hub, VISITOR)
    table = hub.tables[create(owner, bots=["greedy", "pimc", "pimc", "pimc"])]
    join(owner, table.id, 0)
    if table.state.to_act == 0:
        _move(owner, table)
    played = len(table.state.history)
    assert table.thinking is not None
    try:
        for _ in range(1200):
            if len(table.state.history) > played:
                break
            time.sleep(0.05)
            hub.tick()
    finally:
        hub.shutdown()
    assert len(table.state.history) > played
    assert table.seats[1].bot == "pimc"  # not demoted: the answer was legal


# -- the command line --------------------------------------------------------------------


def test_serve_passes_its_limits_to_the_hub(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``tienlen serve``'s limit options reach the hub; a bad one is a clear error."""
    uvicorn = pytest.importorskip("uvicorn")
    from tienlen.cli import main  # noqa: PLC0415

    made: list[Hub] = []

    class Recorded(Hub):
        def __init__(self, *args: Any, **options: Any) -> None:
            super().__init__(*args, **options)
            made.append(self)

    monkeypatch.setattr(tables, "Hub", Recorded)
    monkeypatch.setattr(uvicorn, "run", lambda *_, **__: None)
    options = [
        "--tables-per-address", "3",
        "--creates-per-minute", "2",
        "--server-creates-per-minute", "30",
        "--slow-bots-per-address", "1",
        "--slow-workers", "1",
        "--idle", "60",
        "--abandoned", "3600",
    ]  # fmt: skip
    assert main(["serve", "--data", str(tmp_path / "d"), *options]) == 0
    (hub,) = made
    assert (hub.tables_per_address, hub.creates_per_minute) == (3, 2.0)
    assert (hub.server_creates_per_minute, hub.slow_bots_per_address) == (30.0, 1)
    assert (hub.slow_workers, hub.idle, hub.abandoned) == (1, 60.0, 3600.0)
    assert main(["serve", "--data", str(tmp_path / "e"), "--slow-workers", "0"]) == 2
    assert not (tmp_path / "e").exists()
