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

import json
import sqlite3
import threading
from pathlib import Path
from typing import Protocol

import attrs

__all__ = ["SQLiteStorage", "SavedTable", "Storage"]


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


class Storage(Protocol):
    """What the server needs from a store: five methods, each one atomic.

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
        """Every table saved, with its hands in order (at restart)."""
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
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

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

        Example:
            >>> storage = SQLiteStorage(":memory:")
            >>> for name in ("b", "a"):
            ...     storage.save_table(name, {})
            >>> [saved.table for saved in storage.load()]
            ['b', 'a']
        """
        with self._lock:
            tables = self._db.execute("SELECT id, meta FROM tables ORDER BY rowid")
            saved = [(str(row[0]), json.loads(row[1])) for row in tables.fetchall()]
            result = []
            for table, meta in saved:
                rows = self._db.execute(
                    "SELECT number, record, finished FROM hands WHERE table_id = ?"
                    " ORDER BY number",
                    (table,),
                ).fetchall()
                hands = [(int(row[0]), str(row[1]), bool(row[2])) for row in rows]
                result.append(SavedTable(table, meta, hands))
        return result

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
