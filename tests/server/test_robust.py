"""``tienlen serve`` survives its data directory and hostile sockets (issue 34, items 4-6 and 10).

A corrupt table is set aside and the others restored; a damaged database, a data
directory that cannot be used or is in use by another server is one line naming it;
idle, slow and surplus sockets are closed. The socket tests run a real server on
loopback, a few hundred sockets for a few seconds.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from tests.server.harness import Client, Clock, join
from tests.server.serving import SRC, free_port, serving
from tienlen import CLASSIC
from tienlen.cli import main
from tienlen.errors import InvalidArgumentError
from tienlen.server.connections import ConnectionLimits
from tienlen.server.storage import SQLiteStorage, StorageError, open_data
from tienlen.server.tables import Hub

# -- one corrupt table ---------------------------------------------------------------


def _three_tables(path: Path) -> list[str]:
    """Three tables saved in *path*, a person's move into their first hand; their ids."""
    hub = Hub(SQLiteStorage(path), clock=Clock(), bot_delay=0)
    ids = []
    for seed in (1, 2, 3):
        table = hub.create_table(CLASSIC, 4, seed=seed)
        person, seat = Client(hub), table.state.to_act
        assert seat is not None
        join(person, table.id, seat)
        person.send({"type": "move", "index": 0, "ply": len(table.state.history)})
        assert table.seats[seat].moved  # a table nobody moved at is not restored
        ids.append(table.id)
    assert hub.storage is not None
    hub.storage.close()
    return ids


def _meta(path: Path, table: str) -> dict[str, Any]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        (text,) = db.execute(
            "SELECT meta FROM tables WHERE id = ?", (table,)
        ).fetchone()
    meta: dict[str, Any] = json.loads(text)
    return meta


def _set(path: Path, sql: str, *values: object) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute(sql, values)


def _meta_changed(
    change: Callable[[dict[str, Any]], object],
) -> Callable[[Path, str], None]:
    def corrupt(path: Path, table: str) -> None:
        meta = _meta(path, table)
        change(meta)
        _set(path, "UPDATE tables SET meta = ? WHERE id = ?", json.dumps(meta), table)

    return corrupt


def _raw_meta(text: str) -> Callable[[Path, str], None]:
    def corrupt(path: Path, table: str) -> None:
        _set(path, "UPDATE tables SET meta = ? WHERE id = ?", text, table)

    return corrupt


def _record(value: object) -> Callable[[Path, str], None]:
    def corrupt(path: Path, table: str) -> None:
        _set(path, "UPDATE hands SET record = ? WHERE table_id = ?", value, table)

    return corrupt


_CORRUPTIONS: dict[str, Callable[[Path, str], None]] = {
    "record-without-deal": _record('{"format": "tienlen-game"}'),
    "record-not-json": _record("not json"),
    "record-not-text": _record(7),
    "hand-number-text": lambda path, table: _set(
        path, "UPDATE hands SET number = 'x' WHERE table_id = ?", table
    ),
    "meta-not-json": _raw_meta("{"),
    "meta-a-list": _raw_meta("[1, 2]"),
    "meta-too-deep": _raw_meta("[" * 100_000),
    "meta-no-seed": _meta_changed(lambda meta: meta.pop("seed")),
    "meta-unknown-rules": _meta_changed(lambda meta: meta.update(rules="?")),
    "meta-players-text": _meta_changed(lambda meta: meta.update(players="4")),
    "meta-seats-short": _meta_changed(lambda meta: meta["seats"].pop()),
    "meta-seats-numbers": _meta_changed(lambda meta: meta.update(seats=[1, 2, 3, 4])),
    "meta-seat-missing-key": _meta_changed(lambda meta: meta["seats"][0].pop("bot")),
}


@pytest.mark.parametrize("corruption", sorted(_CORRUPTIONS))
def test_one_corrupt_table_is_set_aside_and_the_others_restored(
    tmp_path: Path, corruption: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Each way one table is damaged: the two others come back, it is quarantined by id."""
    path = tmp_path / "t.db"
    first, bad, last = _three_tables(path)
    before = Hub(SQLiteStorage(path))
    before.restore()
    _CORRUPTIONS[corruption](path, bad)
    storage = SQLiteStorage(path)
    hub = Hub(storage)
    with caplog.at_level(logging.WARNING, logger="tienlen.server"):
        assert hub.restore() == 2
    assert list(hub.tables) == [first, last]
    for table in (first, last):
        assert hub.tables[table].state == before.tables[table].state
    assert list(hub.quarantined) == [bad]
    assert bad in hub.quarantined[bad]
    assert any(bad in record.getMessage() for record in caplog.records)
    assert [saved.table for saved in storage.load()] == [first, last]
    assert [table for table, _ in storage.quarantined()] == [bad]
    again = Hub(SQLiteStorage(path))  # set aside once: the next start is clean
    assert again.restore() == 2
    assert again.quarantined == {}


def test_a_quarantined_table_keeps_its_hands_apart(tmp_path: Path) -> None:
    """The set-aside rows move out of the way: a new table with that id starts clean."""
    path = tmp_path / "t.db"
    _, bad, _ = _three_tables(path)
    _record("not json")(path, bad)
    storage = SQLiteStorage(path)
    Hub(storage).restore()
    with contextlib.closing(sqlite3.connect(path)) as db:
        kept = db.execute(
            "SELECT record FROM quarantined_hands WHERE table_id = ?", (bad,)
        ).fetchall()
    assert kept == [("not json",)]
    table = Hub(storage).create_table(CLASSIC, 4, seed=9, table_id=bad, permanent=True)
    again = Hub(SQLiteStorage(path))
    assert again.restore() == 3
    assert again.tables[bad].state == table.state


def test_a_file_that_is_no_database_is_one_clear_error(tmp_path: Path) -> None:
    """Not SQLite at all: `StorageError` naming the file, no ``sqlite3`` exception."""
    path = tmp_path / "t.db"
    path.write_bytes(b"this is not a database\n" * 100)
    with pytest.raises(StorageError) as caught:
        SQLiteStorage(path)
    assert str(caught.value).startswith(f"{path} is not a SQLite database")
    assert caught.value.__cause__ is None
    assert caught.value.__suppress_context__


def test_a_truncated_database_is_one_clear_error(tmp_path: Path) -> None:
    """A database cut short (a damaged disk): `StorageError` naming the file, at open or read."""
    path = tmp_path / "t.db"
    storage = SQLiteStorage(path)
    for number in range(200):
        storage.save_table(f"t{number}", {"padding": "x" * 2000})
    storage.close()
    with path.open("r+b") as file:
        file.truncate(path.stat().st_size // 2)
    with pytest.raises(StorageError) as caught:
        Hub(SQLiteStorage(path)).restore()
    assert str(caught.value).endswith(
        f" the database {path}: database disk image is malformed"
    )


def _serve(data: Path, *options: str) -> int:
    """``tienlen serve`` up to the point it would listen (uvicorn is not started)."""
    return main(["serve", "--data", str(data), "--seed", "3", *options])


@pytest.fixture
def no_listening(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """``uvicorn.run`` recorded instead of run: the options each call had."""
    uvicorn = pytest.importorskip("uvicorn")
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda _app, **options: calls.append(options))
    return calls


def test_serve_warns_of_a_corrupt_table_and_starts(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    no_listening: list[dict[str, Any]],
) -> None:
    """The main table's record is damaged: one warning line naming file and table, a new main."""
    assert _serve(tmp_path) == 0
    database = tmp_path / "tienlen.sqlite3"
    _record("not json")(database, "main")
    capsys.readouterr()
    assert _serve(tmp_path) == 0
    err = capsys.readouterr().err.splitlines()
    warning = [line for line in err if line.startswith("tienlen: warning: ")]
    assert warning == [
        (
            f"tienlen: warning: 1 table(s) in {database} could not be restored"
            " and were set aside: main"
        )
    ]
    assert len(no_listening) == 2
    assert _serve(tmp_path) == 0  # the new main table, restored; no warning again
    assert "warning" not in capsys.readouterr().err
    (saved,) = SQLiteStorage(database).load()
    assert saved.table == "main"
    assert [hand[1] for hand in saved.hands] != ["not json"]


def test_serve_names_a_database_that_is_no_database(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    no_listening: list[dict[str, Any]],
) -> None:
    """A ``tienlen.sqlite3`` that is something else: one error line naming it, status 2."""
    database = tmp_path / "tienlen.sqlite3"
    database.write_bytes(b"\x00garbage" * 512)
    assert _serve(tmp_path) == 2
    assert capsys.readouterr().err == (
        f"tienlen: error: {database} is not a SQLite database: file is not a database\n"
    )
    assert no_listening == []


# -- the data directory --------------------------------------------------------------


def test_a_data_directory_is_locked_while_open(tmp_path: Path) -> None:
    """A second `open_data` of the same directory is refused, naming it and the holder."""
    folder = tmp_path / "data"
    with open_data(folder) as storage:
        storage.save_table("t", {})
        with pytest.raises(StorageError) as caught, open_data(folder):
            pass
        assert str(caught.value) == (
            f"the data directory {folder} is in use by another server"
            f" (process {os.getpid()})"
        )
    with open_data(folder) as storage:  # released at the end of the block
        assert [saved.table for saved in storage.load()] == ["t"]


@pytest.mark.slow
def test_a_second_server_on_one_data_directory_refuses(tmp_path: Path) -> None:
    """Two ``tienlen serve`` on one ``--data``: the second exits with one line; the first serves."""
    data = tmp_path / "data"
    with serving(data) as port:
        env = {**os.environ, "PYTHONPATH": str(SRC)}
        second = subprocess.run(  # noqa: S603  # our own command line
            [
                *(sys.executable, "-m", "tienlen", "serve"),
                *("--data", str(data), "--port", str(free_port())),
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health") as answer:
            assert json.load(answer) == {"tables": 1}
    assert second.returncode == 2
    assert second.stdout == ""
    assert second.stderr.startswith(
        f"tienlen: error: the data directory {data} is in use by another server"
        " (process "
    )
    assert second.stderr.count("\n") == 1


def _read_only(path: Path) -> Callable[[], None]:
    """Make *path* read-only, even for root (``chattr +i`` where mode bits do not bind).

    Returns how to undo it; skips the test where neither way binds.
    """
    mode = path.stat().st_mode
    path.chmod(mode & 0o555)
    if not os.access(path, os.W_OK):
        return lambda: path.chmod(mode)
    chattr = shutil.which("chattr")  # root: the mode bits do not bind
    if chattr is None or subprocess.run([chattr, "+i", path], check=False).returncode:  # noqa: S603
        path.chmod(mode)
        pytest.skip("no way to make a file read-only here")

    def undo() -> None:
        subprocess.run([chattr, "-i", path], check=True)  # noqa: S603
        path.chmod(mode)

    if os.access(path, os.W_OK):
        undo()
        pytest.skip("no way to make a file read-only here")
    return undo


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A directory nobody may write in."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    undo = _read_only(folder)
    try:
        yield folder
    finally:
        undo()


def _only_error(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    return lines[0]


def test_serve_names_a_data_directory_it_cannot_create(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    no_listening: list[dict[str, Any]],
) -> None:
    """``--data`` under a file: one line naming the directory and why, status 2."""
    (tmp_path / "file").write_text("")
    data = tmp_path / "file" / "tables"
    assert _serve(data) == 2
    assert _only_error(capsys) == (
        f"tienlen: error: the data directory {data} cannot be created: Not a directory"
    )
    assert no_listening == []


def test_serve_names_a_data_directory_that_is_a_file(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    no_listening: list[dict[str, Any]],
) -> None:
    """``--data`` naming a file: one line, status 2."""
    data = tmp_path / "file"
    data.write_text("")
    assert _serve(data) == 2
    assert _only_error(capsys) == (
        f"tienlen: error: the data directory {data} is not a directory"
    )
    assert no_listening == []


def test_serve_names_a_read_only_data_directory(
    read_only_folder: Path,
    capsys: pytest.CaptureFixture[str],
    no_listening: list[dict[str, Any]],
) -> None:
    """A read-only ``--data``: one line naming it, status 2, no ``sqlite3`` traceback."""
    assert _serve(read_only_folder) == 2
    assert _only_error(capsys) == (
        f"tienlen: error: the data directory {read_only_folder} is not writable"
    )
    assert no_listening == []


def test_serve_names_a_read_only_database(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    no_listening: list[dict[str, Any]],
) -> None:
    """A read-only ``tienlen.sqlite3`` in a writable ``--data``: one line, status 2.

    SQLite would open it read-only: a server that refuses every move.
    """
    assert _serve(tmp_path) == 0
    capsys.readouterr()
    database = tmp_path / "tienlen.sqlite3"
    undo = _read_only(database)
    try:
        assert _serve(tmp_path) == 2
    finally:
        undo()
    assert _only_error(capsys) == (
        f"tienlen: error: the database file {database} is read-only"
    )
    assert len(no_listening) == 1


def test_serve_sets_the_connection_limits(
    tmp_path: Path, no_listening: list[dict[str, Any]]
) -> None:
    """The options reach uvicorn: keep-alive and WebSocket pings as its own settings."""
    assert _serve(tmp_path, "--keep-alive", "7", "--ws-ping", "9") == 0
    (options,) = no_listening
    assert options["timeout_keep_alive"] == 7
    assert (options["ws_ping_interval"], options["ws_ping_timeout"]) == (9.0, 9.0)
    assert options["http"].__name__ == "GuardedHTTPProtocol"


# -- hostile sockets -----------------------------------------------------------------


def _closed(sock: socket.socket) -> bool:
    """Whether the server closed *sock* (a non-blocking socket that was sent nothing)."""
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:  # reset
        return True


def _sockets(port: int, count: int, source: str = "127.0.0.1") -> list[socket.socket]:
    """*count* connections to the server from the loopback address *source*."""
    sockets = []
    for _ in range(count):
        sock = socket.create_connection(
            ("127.0.0.1", port), timeout=10, source_address=(source, 0)
        )
        sock.setblocking(False)
        sockets.append(sock)
    return sockets


def _refused(sockets: list[socket.socket], count: int) -> bool:
    """Whether at least *count* of *sockets* were closed by the server."""
    return sum(map(_closed, sockets)) >= count


def _wait(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _health(port: int) -> dict[str, Any]:
    with urllib.request.urlopen(
        f"http://127.0.0.1:{port}/api/health", timeout=10
    ) as answer:
        health: dict[str, Any] = json.load(answer)
    return health


@pytest.mark.slow
def test_connections_over_a_cap_are_closed_at_once(tmp_path: Path) -> None:
    """Idle sockets from loopback addresses against caps of 30 an address, 100 in all.

    Each address holds 30 of its 50 until the cap of 100 is reached; a proxy's
    address is not capped per address, but by the total; WebSockets count.
    """
    with serving(
        tmp_path / "data",
        *("--max-connections", "100", "--max-per-address", "30"),
        *("--proxy", "127.0.0.9", "--header-timeout", "30"),
    ) as port:
        held: dict[str, int] = {}
        sockets: list[socket.socket] = []
        try:
            for address, refused in (
                ("127.0.0.2", 20),
                ("127.0.0.3", 20),
                ("127.0.0.4", 20),
                ("127.0.0.5", 40),
            ):
                batch = _sockets(port, 50, address)
                sockets += batch
                assert _wait(functools.partial(_refused, batch, refused), 10)
                time.sleep(0.3)  # and no more
                held[address] = sum(not _closed(sock) for sock in batch)
            assert held == {
                "127.0.0.2": 30,
                "127.0.0.3": 30,
                "127.0.0.4": 30,
                "127.0.0.5": 10,
            }
            proxied = _sockets(port, 50, "127.0.0.9")
            sockets += proxied
            assert _wait(lambda: all(map(_closed, proxied)), 10)  # the total is full
            for sock in sockets:
                sock.close()
            sockets = _sockets(port, 50, "127.0.0.9")
            time.sleep(1)
            assert not any(map(_closed, sockets))  # 50 > 30: the proxy is not capped
            with contextlib.ExitStack() as stack:  # WebSockets count too
                assert len(_websockets(port, 31, "127.0.0.6", stack)) == 30
        finally:
            for sock in sockets:
                sock.close()
        assert _wait(lambda: _health(port) == {"tables": 1}, 10)


def _websockets(
    port: int, count: int, source: str, stack: contextlib.ExitStack
) -> list[ClientConnection]:
    """The WebSockets the server accepts of *count* opened from *source*, in *stack*."""
    accepted = []
    for _ in range(count):
        sock = stack.enter_context(
            socket.create_connection(
                ("127.0.0.1", port), timeout=10, source_address=(source, 0)
            )
        )
        with contextlib.suppress(InvalidHandshake, ConnectionClosed, OSError):
            accepted.append(  # refused: closed in its handshake
                stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws", sock=sock))
            )
    return accepted


@pytest.mark.slow
def test_idle_and_slow_sockets_are_closed_and_players_are_not(tmp_path: Path) -> None:
    """Idle and slowloris sockets are closed after the header timeout; players are not.

    300 sockets send nothing, 100 send their headers a line at a time: all are
    closed. A WebSocket open all along and a prompt HTTP client still work.
    """
    with serving(
        tmp_path / "data", "--header-timeout", "1", "--keep-alive", "5"
    ) as port:
        with connect(f"ws://127.0.0.1:{port}/ws") as player:
            idle = _sockets(port, 300)
            slow = _sockets(port, 100)
            try:
                for sock in slow:
                    sock.send(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")

                def slowloris_done() -> bool:
                    for sock in slow:
                        with contextlib.suppress(OSError):
                            sock.send(b"X-Slow: 1\r\n")
                    return all(map(_closed, idle + slow))

                assert _wait(slowloris_done, 15)
            finally:
                for sock in idle + slow:
                    sock.close()
            player.send(json.dumps({"v": 1, "type": "ping"}))  # open all along
            assert json.loads(player.recv(10))["type"] == "pong"
        with socket.create_connection(("127.0.0.1", port), timeout=10) as http:
            for pause in (0, 0.5):  # kept alive between requests within the timeout
                time.sleep(pause)
                http.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
                answer = b""
                while not answer.endswith(b'{"tables":1}') and (
                    part := http.recv(4096)
                ):
                    answer += part
                assert answer.startswith(b"HTTP/1.1 200 OK\r\n")
                assert answer.endswith(b'{"tables":1}')


@pytest.mark.parametrize(
    "option",
    [
        "--max-connections",
        "--max-per-address",
        "--header-timeout",
        "--keep-alive",
        "--ws-ping",
    ],
)
@pytest.mark.parametrize("value", ["0", "-1", "nan", "x"])
def test_a_limit_that_is_no_number_above_zero_is_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    no_listening: list[dict[str, Any]],
    option: str,
    value: str,
) -> None:
    """``--max-connections 0`` and the like: argparse's one line naming the option, status 2."""
    assert _serve(tmp_path / "data", option, value) == 2
    assert (
        capsys.readouterr()
        .err.splitlines()[-1]
        .startswith(f"tienlen serve: error: argument {option}: {value!r} is not ")
    )
    assert no_listening == []
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize(
    "settings",
    [
        {"max_connections": 1.5},
        {"per_address": True},
        {"per_address": -3},
        {"keep_alive": 0},
        {"header_timeout": float("inf")},
        {"ws_ping": "20"},
        {"proxies": "127.0.0.1"},
        {"proxies": [1]},
    ],
)
def test_connection_limits_refuse_what_is_no_limit(settings: dict[str, Any]) -> None:
    """`ConnectionLimits` refuses a wrong limit by name, as the library does."""
    (name,) = settings
    with pytest.raises(InvalidArgumentError, match=f"^{name} must be "):
        ConnectionLimits(**settings)
