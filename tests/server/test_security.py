"""The server's defences: names, seeds, idle tables, slow readers, failing storage, slow bots."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import random
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from starlette.websockets import WebSocket, WebSocketDisconnect

from tests.server.harness import Client, create, join, make_hub, snapshot
from tienlen import CLASSIC, POKER, GameState
from tienlen.game import Action
from tienlen.players import Observation
from tienlen.server import tables
from tienlen.server.app import create_app
from tienlen.server.storage import SavedTable, SQLiteStorage
from tienlen.server.tables import Hub, Table

# -- names ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "<img src=x onerror=alert(1)>",
        "Ann</td>",
        'a"b',
        "it's",
        "Tom & Jerry",
        "`x`",
        "bell\x07",
        "tab\tname",
        "new\nline",
        "\u202eevil",  # right-to-left override: a format character
    ],
)
def test_a_name_with_markup_or_control_characters_is_refused(name: str) -> None:
    """A seat's name shown in every browser: markup and control characters are refused."""
    hub, _ = make_hub()
    owner = Client(hub)
    table = hub.tables[create(owner, rules="classic", seed=1)]
    before = snapshot(table)
    owner.send({"type": "join", "table": table.id, "seat": 0, "name": name})
    answer = owner.new()
    assert [m["type"] for m in answer] == ["error"]
    assert answer[0]["code"] == "bad-name"
    assert snapshot(table) == before
    assert table.seats[0].name == ""


def test_a_name_in_any_script_is_welcome() -> None:
    """Letters of any script, spaces, digits and ordinary punctuation are a name."""
    hub, _ = make_hub()
    owner = Client(hub)
    table = hub.tables[create(owner, rules="classic", seed=1)]
    owner.send(
        {"type": "join", "table": table.id, "seat": 0, "name": "Nguyễn Văn A. #2"}
    )
    assert owner.new()[0]["type"] == "joined"
    assert table.seats[0].name == "Nguyễn Văn A. #2"


def test_the_page_is_served_with_a_content_security_policy() -> None:
    """The browser client's page forbids any script but the server's own files."""
    with TestClient(create_app(Hub())) as http:
        page = http.get("/")
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy
    assert "script-src" not in policy  # no exception for inline scripts
    assert "frame-ancestors 'none'" in policy
    assert page.headers["x-content-type-options"] == "nosniff"
    assert (
        "<script>" not in page.text
    )  # the client still runs under it: no inline script
    assert "style=" not in page.text


# -- seeds ---------------------------------------------------------------------------


def test_a_client_cannot_choose_the_seed() -> None:
    """``create`` with a seed is refused: whoever knows the seed knows every hand."""
    hub, _ = make_hub()
    owner = Client(hub)
    owner.send({"type": "create", "rules": "classic", "seed": 1})
    answer = owner.new()
    assert [m["code"] for m in answer] == ["bad-message"]
    assert "seed" in answer[0]["message"]
    assert hub.tables == {}


def test_a_clients_table_is_seeded_from_the_system_random_source(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without an operator's seed source, each table's seed is `random.SystemRandom`'s."""
    drawn = iter([123456789, 987654321])

    def getrandbits(self: random.SystemRandom, bits: int) -> int:
        del self, bits
        return next(drawn)

    monkeypatch.setattr(random.SystemRandom, "getrandbits", getrandbits)
    hub, _ = make_hub()
    owner = Client(hub)
    first = hub.tables[create(owner, rules="classic")]
    second = hub.tables[create(owner, rules="classic")]
    assert (first.match.seed, second.match.seed) == (123456789, 987654321)


def test_the_operators_seed_source_seeds_the_clients_tables() -> None:
    """`Hub.seeds` (the operator's, for tests) gives the seed of every client's table."""
    hub, _ = make_hub(seeds=lambda: 42)
    owner = Client(hub)
    table = hub.tables[create(owner, rules="classic")]
    assert table.match.seed == 42
    assert table.state.dealt == hub.create_table(CLASSIC, seed=42).state.dealt


# -- idle tables -----------------------------------------------------------------------


def test_a_connection_creates_a_few_tables_at_most() -> None:
    """More creates than `Hub.tables_per_connection` from one connection are refused."""
    hub, _ = make_hub(tables_per_connection=3)
    owner = Client(hub)
    for _ in range(3):
        create(owner, rules="classic")
    owner.send({"type": "create", "rules": "classic"})
    assert owner.new()[-1]["code"] == "too-many-tables"
    assert len(hub.tables) == 3
    create(Client(hub), rules="classic")  # another connection may
    assert len(hub.tables) == 4


def test_an_idle_table_is_removed_from_memory_and_storage(tmp_path: Path) -> None:
    """Nobody connected and nobody seated for `Hub.idle` seconds: the table is gone."""
    storage = SQLiteStorage(tmp_path / "t.db")
    hub, clock = make_hub(storage=storage, idle=600, abandoned=3600)
    owner, watcher = Client(hub), Client(hub)
    idle = create(owner, rules="classic")
    watched = create(owner, rules="classic")
    kept = hub.create_table(CLASSIC, table_id="main", permanent=True)
    watcher.send({"type": "watch", "table": watched})
    clock.now += 599
    hub.tick()
    assert set(hub.tables) == {idle, watched, "main"}
    clock.now += 1
    hub.tick()
    assert set(hub.tables) == {watched, "main"}  # a spectator keeps a table
    assert {saved.table for saved in storage.load()} == {watched, "main"}
    watcher.close()
    clock.now += 600
    hub.tick()
    assert set(hub.tables) == {"main"}
    assert hub.tables["main"] is kept
    assert [saved.table for saved in storage.load()] == ["main"]
    again = Hub(storage)
    again.restore()
    assert again.tables["main"].permanent


def test_a_table_a_person_left_is_kept_longer() -> None:
    """A person's seat keeps the table for `Hub.abandoned` seconds, not `Hub.idle`.

    Once the person has moved there (tests/server/test_flood.py: a seat never
    played does not).
    """
    hub, clock = make_hub(idle=600, abandoned=3600)
    owner = Client(hub)
    table = create(owner, rules="classic", seed=1)
    join(owner, table, 0)
    ply = len(hub.tables[table].state.history)
    owner.send({"type": "move", "index": 0, "ply": ply})
    assert len(hub.tables[table].state.history) > ply
    owner.close()
    clock.now += 3599
    hub.tick()
    assert table in hub.tables
    clock.now += 1
    hub.tick()
    assert table not in hub.tables


# -- a client that stops reading ---------------------------------------------------------


def test_a_client_that_stops_reading_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its queue is bounded: once *backlog* messages behind it is closed (code 1013)."""

    async def stuck(self: WebSocket, data: str) -> None:
        del self, data
        await asyncio.Event().wait()  # the client never reads

    hub = Hub(rate=1e9, burst=1e9)
    table = hub.create_table(CLASSIC, seed=1, table_id="t")
    with TestClient(create_app(hub, backlog=5)) as http:
        monkeypatch.setattr(WebSocket, "send_text", stuck)
        with http.websocket_connect("/ws") as socket:
            socket.send_text(json.dumps({"type": "watch", "table": "t"}))
            for _ in range(10):
                socket.send_text(json.dumps({"type": "ping"}))
            deadline = time.monotonic() + 5
            while table.connections and time.monotonic() < deadline:
                time.sleep(0.01)
            assert table.connections == []  # the hub let it go
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_text()
            assert closed.value.code == 1013


# -- failing storage ---------------------------------------------------------------------


class FlakyStorage:
    """SQLite that fails every write while `failing`, or after `writes_left` writes."""

    def __init__(self, path: Path) -> None:
        self.inner = SQLiteStorage(path)
        self.failing = False
        self.writes_left: int | None = None

    def _write(self) -> None:
        if self.writes_left is not None:
            self.writes_left -= 1
            if self.writes_left < 0:
                self.failing = True
        if self.failing:
            raise OSError("disk full")

    def save_table(self, table: str, meta: dict[str, object]) -> None:
        """`Storage.save_table`, unless failing."""
        self._write()
        self.inner.save_table(table, meta)

    def save_hand(
        self, table: str, number: int, record: str, *, finished: bool
    ) -> None:
        """`Storage.save_hand`, unless failing."""
        self._write()
        self.inner.save_hand(table, number, record, finished=finished)

    def delete_table(self, table: str) -> None:
        """`Storage.delete_table`."""
        self.inner.delete_table(table)

    def load(self) -> list[SavedTable]:
        """`Storage.load`."""
        return self.inner.load()

    def quarantine(self, table: str, reason: str) -> None:
        """`Storage.quarantine`."""
        self.inner.quarantine(table, reason)

    def close(self) -> None:
        """`Storage.close`."""
        self.inner.close()


def test_a_move_the_storage_cannot_save_is_refused_unchanged(tmp_path: Path) -> None:
    """The move is saved before it is applied: a failed save refuses it, nothing changed."""
    storage = FlakyStorage(tmp_path / "t.db")
    hub, _ = make_hub(storage=storage)
    owner, watcher = Client(hub), Client(hub)
    table = hub.tables[create(owner, rules="classic", seed=1)]
    join(owner, table.id, 0)
    watcher.send({"type": "watch", "table": table.id})
    watcher.new()
    assert table.state.to_act == 0
    before, played = snapshot(table), len(table.state.history)
    storage.failing = True
    owner.send({"type": "move", "index": 0, "ply": len(table.state.history)})
    answer = owner.new()
    assert [(m["type"], m["code"]) for m in answer] == [("error", "internal")]
    assert snapshot(table) == before
    assert watcher.new() == []
    storage.failing = False
    owner.send({"type": "move", "index": 0, "ply": len(table.state.history)})
    assert owner.new()[-1]["type"] == "gameState"
    assert len(table.state.history) > played


def test_a_bot_move_the_storage_cannot_save_waits_and_nothing_is_lost(
    tmp_path: Path,
) -> None:
    """A person's move saved, then the bots' saves fail: they retry at a tick, no move lost."""
    storage = FlakyStorage(tmp_path / "t.db")
    hub, _ = make_hub(storage=storage)
    owner = Client(hub)
    table = hub.tables[create(owner, rules="classic", seed=1)]
    join(owner, table.id, 0)
    assert table.state.to_act == 0
    played = len(table.state.history)
    owner.new()
    storage.writes_left = 1  # the person's move only
    owner.send({"type": "move", "index": 0, "ply": len(table.state.history)})
    assert [m["type"] for m in owner.new()] == ["gameState"]  # no error: it was saved
    assert len(table.state.history) == played + 1
    assert table.state.to_act != 0  # a bot's turn, not played: its save failed
    storage.failing, storage.writes_left = False, None
    hub.tick()
    assert len(table.state.history) > played + 1
    again = Hub(storage)
    again.restore()
    assert again.tables[table.id].state == table.state


def test_a_join_the_storage_cannot_save_leaves_the_seat_free(tmp_path: Path) -> None:
    """The seat's credential must be saved: if it cannot be, the join is refused."""
    storage = FlakyStorage(tmp_path / "t.db")
    hub, _ = make_hub(storage=storage)
    owner = Client(hub)
    table = hub.tables[create(owner, rules="classic", seed=1)]
    before = snapshot(table)
    storage.failing = True
    owner.send({"type": "join", "table": table.id, "seat": 0, "name": "Ann"})
    assert [m["code"] for m in owner.new()] == ["internal"]
    assert snapshot(table) == before
    assert table.seats[0].name == ""
    assert table.connections == []


# -- slow bots and the worker threads -----------------------------------------------------


class Slow:
    """A stand-in for a search bot: it records the thread that asked it."""

    threads: ClassVar[list[threading.Thread]] = []

    def act(
        self, seen: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The first action offered (a jump-in when offered one)."""
        del seen, rng
        Slow.threads.append(threading.current_thread())
        return actions[0]


def _thinking(table: Table) -> bool:
    return table.thinking is not None


def test_a_slow_bot_is_not_asked_about_a_jump_in_on_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The jump-in poll skips the search bots: they are asked only in a worker thread."""
    monkeypatch.setitem(tables.BOTS, "pimc", Slow)
    monkeypatch.setattr(Slow, "threads", [])
    hub, _ = make_hub(slow_pool=concurrent.futures.ThreadPoolExecutor)  # seen here
    table = hub.create_table(POKER, bots=["greedy", "greedy", "pimc", "greedy"])
    join(Client(hub), table.id, 0)
    table.thinking = None
    # Seat 0 played a 2; seat 2, a search bot, may jump in with four pairs in a row.
    table.state = GameState.from_hands(
        ["2s 9d", "7h 8h", "3s 3c 4s 4c 5s 5c 6s 6c Kd", "Jd Qd"],
        POKER,
        first_game=False,
        leader=0,
    ).play("2s")
    assert any(action.player == 2 for action in table.state.legal_actions())
    hub.tick()
    assert threading.main_thread() not in Slow.threads
    deadline = time.monotonic() + 10
    while _thinking(table) and time.monotonic() < deadline:
        time.sleep(0.01)
        hub.tick()
    hub.shutdown()


def test_shutdown_stops_the_worker_threads() -> None:
    """`Hub.shutdown` stops the slow bots' pool; the app's lifespan calls it at the end."""
    hub = Hub()
    pool = concurrent.futures.ThreadPoolExecutor(1)
    hub._pool = pool
    with TestClient(create_app(hub)):
        pass
    assert vars(hub)["_pool"] is None
    with pytest.raises(RuntimeError):
        pool.submit(print)


def test_serve_closes_its_storage(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``tienlen serve`` closes the SQLite file when the server stops."""
    uvicorn = pytest.importorskip("uvicorn")
    from tienlen.cli import main  # noqa: PLC0415

    closed: list[bool] = []
    close = SQLiteStorage.close

    def closing(self: SQLiteStorage) -> None:
        closed.append(True)
        close(self)

    def run(app: Any, **options: Any) -> None:
        del app, options
        assert closed == []  # open while the server runs

    monkeypatch.setattr(SQLiteStorage, "close", closing)
    monkeypatch.setattr(uvicorn, "run", run)
    assert main(["serve", "--data", str(tmp_path), "--seed", "3"]) == 0
    assert closed == [True]
    storage = SQLiteStorage(tmp_path / "tienlen.sqlite3")
    (saved,) = storage.load()
    assert saved.meta["seed"] == 3
    assert saved.meta["permanent"] is True
    storage.close()
