"""Where the server keeps its tables: the `Storage` interface and its SQLite implementation.

The server writes a table's settings and seats when they change, and the hand in
play as the library's game record (`tienlen.records.dumps`) after every action, so a
server killed at any moment restarts with every table where it was. A finished hand
stays as its record; the finished records of a table, in order, are its match.

A deployment may plug another store (Postgres, Redis, an object store) by writing a
class with the methods of `Storage`; `SQLiteStorage` needs only the standard library.

Example:
    >>> storage = SQLiteStorage(":memory:")
    >>> storage.save_table("t1", {"players": 4})
    >>> storage.save_hand("t1", 1, '{"format": "tienlen-game"}', finished=False)
    >>> [(saved.table, saved.meta, saved.hands) for saved in storage.load()]
    [('t1', {'players': 4}, [(1, '{"format": "tienlen-game"}', False)])]
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Final, Protocol

import attrs

from tienlen.errors import TienLenError

__all__ = [
    "DATABASE",
    "LOCK",
    "SQLiteStorage",
    "SavedTable",
    "Storage",
    "StorageError",
    "open_data",
]

DATABASE: Final = "tienlen.sqlite3"
"""The database's file name in a data directory (`open_data`)."""
LOCK: Final = "tienlen.lock"
"""The lock file's name in a data directory: it holds the running server's process id."""


class StorageError(TienLenError, RuntimeError):
    """The store cannot be used: a data directory or database file the server cannot open.

    A ``RuntimeError`` (the environment failed, not the input), as ``ExecutorError`` is.

    Its message is one line naming the directory or file and what is wrong.

    Example:
        >>> SQLiteStorage("/no/such/folder/t.db")
        Traceback (most recent call last):
        ...
        tienlen.server.storage.StorageError: cannot open the database /no/such/folder/t.db: ...
    """


@attrs.frozen
class SavedTable:
    """One table as a `Storage` gives it back: its settings and its hands' records.

    Example:
        >>> saved = SavedTable("t1", {"players": 4}, [(1, "{}", False)])
        >>> saved.table, saved.hands[0][0]
        ('t1', 1)
    """

    table: str
    """The table's id."""
    meta: dict[str, object]
    """The settings and seats the server saved (`Storage.save_table`)."""
    hands: list[tuple[int, str, bool]]
    """Every hand saved: its number (from 1), its record text, whether it is finished."""
    problem: str | None = None
    """Why the store could not read this table (then *meta* is empty), or ``None``."""


class Storage(Protocol):
    """What the server needs from a store: six methods, each one atomic.

    The server calls them from its event loop; they should be quick (a local
    database), or the implementation should queue the writes itself.

    Example:
        >>> storage: Storage = SQLiteStorage(":memory:")
        >>> storage.load()
        []
    """

    def save_table(self, table: str, meta: dict[str, object]) -> None:
        """Create or replace the settings and seats of *table*."""
        ...

    def save_hand(
        self, table: str, number: int, record: str, *, finished: bool
    ) -> None:
        """Create or replace hand *number* of *table*: its record so far."""
        ...

    def delete_table(self, table: str) -> None:
        """Forget *table* and its hands (an idle table the server removed)."""
        ...

    def load(self) -> list[SavedTable]:
        """Every table saved, with its hands in order (at restart).

        A table the store cannot read comes back with its `SavedTable.problem`;
        a store that cannot be read at all raises `StorageError`.
        """
        ...

    def quarantine(self, table: str, reason: str) -> None:
        """Set *table* aside, kept for its operator, with *reason*: `load` no longer gives it."""
        ...

    def close(self) -> None:
        """Release the store."""
        ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    meta TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS hands (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    record TEXT NOT NULL,
    finished INTEGER NOT NULL,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS quarantined_tables (
    id TEXT NOT NULL,
    meta TEXT,
    reason TEXT NOT NULL,
    since TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS quarantined_hands (
    table_id TEXT NOT NULL,
    number INTEGER,
    record TEXT,
    finished INTEGER
);
"""


class SQLiteStorage:
    """`Storage` in one SQLite file (standard library ``sqlite3``), in WAL mode.

    Each write is its own transaction, committed before the call returns: a process
    killed after a move was broadcast finds the move on restart.

    Example:
        >>> storage = SQLiteStorage(":memory:")
        >>> storage.save_table("t1", {"seed": 7})
        >>> storage.save_table("t1", {"seed": 8})
        >>> storage.load()[0].meta
        {'seed': 8}
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        """The database file."""
        self._lock = threading.Lock()
        for file in (self.path, f"{self.path}-wal", f"{self.path}-shm"):
            if Path(file).exists() and not os.access(file, os.W_OK):
                # SQLite would open it read-only, and refuse the first move
                raise StorageError(f"the database file {file} is read-only")
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False)
        except sqlite3.Error as error:
            raise self._error(error) from None
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as error:
            self._db.close()
            raise self._error(error) from None

    def _error(self, error: sqlite3.Error) -> StorageError:
        """*error* as one line naming the file."""
        if isinstance(error, sqlite3.DatabaseError) and "not a database" in str(error):
            return StorageError(f"{self.path} is not a SQLite database: {error}")
        return StorageError(f"cannot open the database {self.path}: {error}")

    def save_table(self, table: str, meta: dict[str, object]) -> None:
        """Create or replace the settings and seats of *table*.

        Example:
            >>> storage = SQLiteStorage(":memory:")
            >>> storage.save_table("t1", {"seed": 3})
            >>> storage.load()[0].meta
            {'seed': 3}
        """
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO tables (id, meta) VALUES (?, ?)",
                (table, json.dumps(meta)),
            )

    def save_hand(
        self, table: str, number: int, record: str, *, finished: bool
    ) -> None:
        """Create or replace hand *number* of *table*: its record so far.

        Example:
            >>> storage = SQLiteStorage(":memory:")
            >>> storage.save_table("t1", {})
            >>> storage.save_hand("t1", 1, "{}", finished=False)
            >>> storage.save_hand("t1", 1, '{"done": 1}', finished=True)
            >>> storage.load()[0].hands
            [(1, '{"done": 1}', True)]
        """
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO hands (table_id, number, record, finished)"
                " VALUES (?, ?, ?, ?)",
                (table, number, record, int(finished)),
            )

    def delete_table(self, table: str) -> None:
        """Forget *table* and its hands; nothing happens for a table not saved.

        Example:
            >>> storage = SQLiteStorage(":memory:")
            >>> storage.save_table("t1", {})
            >>> storage.save_hand("t1", 1, "{}", finished=False)
            >>> storage.delete_table("t1")
            >>> storage.delete_table("t1")
            >>> storage.load()
            []
        """
        with self._lock, self._db:
            self._db.execute("DELETE FROM hands WHERE table_id = ?", (table,))
            self._db.execute("DELETE FROM tables WHERE id = ?", (table,))

    def load(self) -> list[SavedTable]:
        """Every table saved, with its hands in order.

        A table whose settings are not a JSON object, or whose hands are not
        numbered records, comes back with its `SavedTable.problem`.

        Raises:
            StorageError: the file is damaged (SQLite cannot read it).

        Example:
            >>> storage = SQLiteStorage(":memory:")
            >>> for name in ("b", "a"):
            ...     storage.save_table(name, {})
            >>> [saved.table for saved in storage.load()]
            ['b', 'a']
            >>> storage.save_table("c", {})
            >>> with storage._db:
            ...     _ = storage._db.execute("UPDATE tables SET meta = '{' WHERE id = 'c'")
        """
        try:
            with self._lock:
                tables = self._db.execute("SELECT id, meta FROM tables ORDER BY rowid")
                rows = tables.fetchall()
                return [self._read(str(row[0]), row[1]) for row in rows]
        except sqlite3.ProgrammingError:  # a closed store: the caller's mistake
            raise
        except sqlite3.Error as error:
            msg = f"cannot read the database {self.path}: {error}"
            raise StorageError(msg) from None

    def _read(self, table: str, meta_text: object) -> SavedTable:
        """One table's row and its hands; a row it cannot read gives its *problem*."""
        rows = self._db.execute(
            "SELECT number, record, finished FROM hands WHERE table_id = ?"
            " ORDER BY number",
            (table,),
        ).fetchall()
        try:
            meta = json.loads(str(meta_text))
        except (ValueError, RecursionError) as error:
            return SavedTable(table, {}, [], f"its settings are not JSON: {error}")
        if not isinstance(meta, dict):
            return SavedTable(table, {}, [], "its settings are not a JSON object")
        if not all(
            type(number) is int and isinstance(text, str) for number, text, _ in rows
        ):
            return SavedTable(table, {}, [], "a hand is not a numbered record")
        hands = [(number, text, bool(done)) for number, text, done in rows]
        return SavedTable(table, meta, hands)

    def quarantine(self, table: str, reason: str) -> None:
        """Move *table* and its hands to the ``quarantined_…`` tables of the same file.

        They stay there for the operator (with *reason* and the time, UTC); `load`
        no longer gives them, and a new table may take the id.

        Example:
            >>> storage = SQLiteStorage(":memory:")
            >>> storage.save_table("t1", {})
            >>> storage.save_hand("t1", 1, "{}", finished=False)
            >>> storage.quarantine("t1", "its record is corrupt")
            >>> storage.load(), storage.quarantined()
            ([], [('t1', 'its record is corrupt')])
        """
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO quarantined_tables (id, meta, reason, since)"
                " SELECT id, meta, ?, datetime('now') FROM tables WHERE id = ?",
                (reason, table),
            )
            self._db.execute(
                "INSERT INTO quarantined_hands (table_id, number, record, finished)"
                " SELECT table_id, number, record, finished FROM hands"
                " WHERE table_id = ?",
                (table,),
            )
            self._db.execute("DELETE FROM hands WHERE table_id = ?", (table,))
            self._db.execute("DELETE FROM tables WHERE id = ?", (table,))

    def quarantined(self) -> list[tuple[str, str]]:
        """Every table set aside (`quarantine`), oldest first: its id and the reason.

        Example:
            >>> SQLiteStorage(":memory:").quarantined()
            []
        """
        with self._lock:
            rows = self._db.execute(
                "SELECT id, reason FROM quarantined_tables ORDER BY rowid"
            ).fetchall()
        return [(str(table), str(reason)) for table, reason in rows]

    def close(self) -> None:
        """Close the database.

        Example:
            >>> storage = SQLiteStorage(":memory:")
            >>> storage.close()
            >>> storage.load()
            Traceback (most recent call last):
            ...
            sqlite3.ProgrammingError: Cannot operate on a closed database.
        """
        with self._lock:
            self._db.close()


@contextlib.contextmanager
def open_data(folder: Path) -> Iterator[SQLiteStorage]:
    """The store of a data directory, locked for this process until the block ends.

    Creates *folder* if missing, checks it is a writable directory, takes an
    exclusive lock on its `LOCK` file (``fcntl.flock``: released when the block
    ends or the process dies, even by SIGKILL) and opens its `DATABASE`. Where
    ``fcntl`` is missing (Windows) the directory is not locked.

    Raises:
        StorageError: one line naming the directory (or the database file) and what
            is wrong: it cannot be created, is not a directory, is not writable, is in
            use by another process, or holds a file that is not a tienlen database.

    Example:
        >>> import tempfile
        >>> folder = Path(tempfile.mkdtemp()) / "tables"
        >>> with open_data(folder) as storage:
        ...     with open_data(folder):
        ...         pass
        Traceback (most recent call last):
        ...
        tienlen.server.storage.StorageError: the data directory ... is in use by another server (process ...)
        >>> with open_data(folder) as storage:  # released
        ...     storage.load()
        []
    """
    where = f"the data directory {folder}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a file of that name
        raise StorageError(f"{where} is not a directory") from None
    except OSError as error:
        msg = f"{where} cannot be created: {error.strerror or error}"
        raise StorageError(msg) from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StorageError(f"{where} is not writable")
    try:
        lock = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        msg = f"{where} is not writable: {error.strerror or error}"
        raise StorageError(msg) from None
    try:
        _lock(lock, where)
        storage = SQLiteStorage(folder / DATABASE)
        try:
            yield storage
        finally:
            storage.close()
    finally:
        os.close(lock)  # releases the lock


def _lock(descriptor: int, where: str) -> None:
    """Take the exclusive lock on the open lock file; write this process's id in it."""
    if sys.platform == "win32":  # no fcntl: not locked (docs/server.md)
        return
    import fcntl  # noqa: PLC0415  # POSIX only

    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(descriptor, 32, 0).decode("ascii", "replace").strip()
        msg = f"{where} is in use by another server (process {holder or '?'})"
        raise StorageError(msg) from None
    except OSError as error:  # a file system without locks
        msg = f"{where} cannot be locked: {error.strerror or error}"
        raise StorageError(msg) from None
    os.ftruncate(descriptor, 0)
    os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
