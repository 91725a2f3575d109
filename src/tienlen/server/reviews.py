"""Reviews of finished hands: `tienlen.analysis.analyse` off the event loop, cached.

A client at a table asks for the review of a finished hand (``review``); the hub
hands the hand's record to a `ReviewDesk`, which runs `review_json` in its own
bounded pool of worker processes (spawned and niced, as the search bots'), at most
one review in flight per client address and `ReviewDesk.queue` in all, and keeps
the answers of the last hands reviewed so that a second viewer gets them at once.
While a review is made its worker writes how many decisions it has valued on a
`ProgressBoard`, which the hub reads (`ReviewDesk.progress`) to tell the waiting
clients, and on which a review nobody waits for any more is stopped
(`ReviewDesk.withdraw`). docs/server.md describes the messages.

Example:
    >>> import concurrent.futures, random, types
    >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
    >>> from tienlen.records import dumps, record
    >>> game = play_game(GameState.deal(CLASSIC, players=2, seed=4), [GreedyPlayer()] * 2, random.Random(0))
    >>> desk = ReviewDesk(concurrent.futures.ThreadPoolExecutor, budget=2)
    >>> ann = types.SimpleNamespace(address="::1")
    >>> pending = desk.start(("t", 1), dumps(record(game)), ann)
    >>> desk.busy("::1"), desk.cached(("t", 1)) is None
    (True, True)
    >>> _ = pending.future.result()
    >>> [(key, last.done, last.total) for key, body, waiting, last in desk.finished()]
    [(('t', 1), 22, 22)]
    >>> desk.busy("::1")
    False
    >>> len(desk.cached(("t", 1))["actions"]) == len(game.history)
    True
    >>> desk.shutdown()

.. versionadded:: 0.3
.. versionchanged:: 0.3
   Progress (`ReviewDesk.progress`) and cancellation (`ReviewDesk.withdraw`).
"""

from __future__ import annotations

import collections
import concurrent.futures
import math
import mmap
import os
import struct
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final, Protocol

import attrs

from tienlen.analysis import AnalysisCancelledError, analyse
from tienlen.analysis.explain import explain
from tienlen.records import loads
from tienlen.server.protocol import Json, action_json

__all__ = [
    "HANDS_KEPT",
    "PROGRESS_INTERVAL",
    "REVIEWS_CACHED",
    "REVIEW_BUDGET",
    "REVIEW_SEED",
    "Pending",
    "ProgressBoard",
    "Report",
    "ReviewDesk",
    "Waiter",
    "review_json",
]

REVIEW_BUDGET: Final = 16
"""Worlds sampled per decision of a review (`analyse`'s *budget*): a four-player
classic hand reviews in about 2 s of CPU on the reference machine (docs/server.md)."""
REVIEW_SEED: Final = 0
"""The seed of every review: the same hand gets the same review."""
HANDS_KEPT: Final = 8
"""Finished hands of a table whose records the hub keeps for review."""
REVIEWS_CACHED: Final = 64
"""Reviews kept for the next viewer, the latest first out last."""
PROGRESS_INTERVAL: Final = 0.25
"""The least seconds between two progress reports of one review; the last (every
decision valued) is reported at once."""

Key = tuple[str, int]
"""A review's key: the table's id and the hand's number."""


class Waiter(Protocol):
    """Who waits for a review: anything with a network address (the hub's connections).

    Example:
        >>> from types import SimpleNamespace
        >>> client: Waiter = SimpleNamespace(address="::1")
        >>> client.address
        '::1'
    """

    address: str


class ProgressBoard:
    """How far a review is, and whether to stop it: three integers in a shared file.

    The server makes the board (`create`) and passes its `path` to the review's
    worker, which maps the same file (`attach`) and calls `tell` after each
    decision (`analyse`'s *progress*); the server reads it (`read`) and may `stop`
    it, which `tell` answers with ``False``, and `analyse` stops. A mapped file
    works between processes and threads alike, needs no pipe, and the hub reads it
    without waiting.

    Example:
        >>> board = ProgressBoard.create()
        >>> worker = ProgressBoard.attach(board.path)
        >>> worker.tell(3, 22), board.read()
        (True, (3, 22))
        >>> board.stop()
        >>> worker.tell(4, 22), worker.stopped
        (False, True)
        >>> worker.close(); board.remove()
        >>> Path(board.path).exists()
        False
    """

    _LAYOUT: Final = struct.Struct("<qqq")
    """``done``, ``total``, ``stop``: the worker writes the first two, the server the third
    (neither writes the other's, so a stop is never written over)."""
    _COUNTS: Final = struct.Struct("<qq")
    _STOP: Final = struct.Struct("<q")

    def __init__(self, path: str, mapped: mmap.mmap) -> None:
        self.path = path
        """The file's path (what a worker is given)."""
        self._mapped: mmap.mmap | None = mapped

    @classmethod
    def create(cls) -> ProgressBoard:
        """A new board at nought, in a new file of the temporary directory.

        Example:
            >>> board = ProgressBoard.create()
            >>> board.read(), board.stopped, Path(board.path).exists()
            ((0, 0), False, True)
            >>> board.remove()
        """
        fd, path = tempfile.mkstemp(prefix="tienlen-review-", suffix=".progress")
        try:
            os.write(fd, bytes(cls._LAYOUT.size))
            return cls(path, mmap.mmap(fd, cls._LAYOUT.size))
        finally:
            os.close(fd)

    @classmethod
    def attach(cls, path: str) -> ProgressBoard:
        """The board at *path*, as a worker maps it.

        Raises:
            FileNotFoundError: the board was removed.

        Example:
            >>> board = ProgressBoard.create()
            >>> board.tell(2, 9)
            True
            >>> worker = ProgressBoard.attach(board.path)
            >>> worker.read()
            (2, 9)
            >>> worker.close(); board.remove()
            >>> ProgressBoard.attach(board.path)
            Traceback (most recent call last):
            ...
            FileNotFoundError: [Errno 2] No such file or directory: '...'
        """
        fd = os.open(path, os.O_RDWR)
        try:
            return cls(path, mmap.mmap(fd, cls._LAYOUT.size))
        finally:
            os.close(fd)

    def _fields(self) -> tuple[int, int, int]:
        if self._mapped is None:
            return 0, 0, 1  # closed: nothing to tell, and stopped
        done, total, stop = self._LAYOUT.unpack_from(self._mapped)
        return done, total, stop

    def tell(self, done: int, total: int) -> bool:
        """Write that *done* of *total* decisions are valued; ``False`` once stopped.

        Example:
            >>> board = ProgressBoard.create()
            >>> board.tell(1, 4), board.read()
            (True, (1, 4))
            >>> board.remove()
        """
        if self._mapped is not None:
            self._COUNTS.pack_into(self._mapped, 0, done, total)
        return not self.stopped

    def read(self) -> tuple[int, int]:
        """``(done, total)`` as last told; ``(0, 0)`` before the first decision.

        Example:
            >>> board = ProgressBoard.create()
            >>> board.read()
            (0, 0)
            >>> board.remove()
        """
        done, total, _ = self._fields()
        return done, total

    def stop(self) -> None:
        """Ask the worker to stop at its next decision.

        Example:
            >>> board = ProgressBoard.create()
            >>> board.stop()
            >>> board.tell(1, 4)
            False
            >>> board.remove()
        """
        if self._mapped is not None:
            self._STOP.pack_into(self._mapped, self._COUNTS.size, 1)

    @property
    def stopped(self) -> bool:
        """Whether `stop` was called (or the board closed).

        Example:
            >>> board = ProgressBoard.create()
            >>> board.stopped
            False
            >>> board.close()
            >>> board.stopped
            True
            >>> board.remove()
        """
        return self._fields()[2] != 0

    def close(self) -> None:
        """Unmap the board (twice is fine).

        Example:
            >>> board = ProgressBoard.create()
            >>> board.close(); board.close()
            >>> board.read()
            (0, 0)
            >>> board.remove()
        """
        mapped, self._mapped = self._mapped, None
        if mapped is not None:
            mapped.close()

    def remove(self) -> None:
        """Close the board and delete its file (the server's side; twice is fine).

        Example:
            >>> board = ProgressBoard.create()
            >>> board.remove(); board.remove()
            >>> Path(board.path).exists()
            False
        """
        self.close()
        Path(self.path).unlink(missing_ok=True)


def review_json(
    text: str, budget: int, seed: int = REVIEW_SEED, board: str | None = None
) -> Json:
    """The body of a ``review`` message for the finished hand whose record is *text*.

    ``actions`` are the hand's every action (as `action_json` writes them),
    ``analysis`` is `GameAnalysis.to_json <tienlen.analysis.GameAnalysis.to_json>`
    of `analyse` at *budget* and *seed*, and ``explanations`` words each labelled
    decision (by its index in ``actions``) in English and Vietnamese
    (`tienlen.analysis.explain.explain`). It runs in a worker process, telling its
    progress on the `ProgressBoard` at the path *board*, if any, and stopping
    when that board is stopped.

    Raises:
        tienlen.records.RecordError: *text* is not a game record.
        tienlen.errors.InvalidArgumentError: the hand is not over.
        tienlen.analysis.AnalysisCancelledError: the board was stopped (or removed).

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
        >>> from tienlen.records import dumps, record
        >>> deal = GameState.deal(CLASSIC, players=2, seed=4)
        >>> game = play_game(deal, [GreedyPlayer()] * 2, random.Random(0))
        >>> board = ProgressBoard.create()
        >>> body = review_json(dumps(record(game)), budget=2, board=board.path)
        >>> body["actions"][1], body["analysis"]["budget"], board.read()
        ({'seat': 0, 'action': '4h'}, 2, (22, 22))
        >>> body["explanations"]["1"]["en"].startswith("Inaccuracy: player 0 played 4♥")
        True
        >>> board.stop()
        >>> review_json(dumps(record(game)), budget=2, board=board.path)
        Traceback (most recent call last):
        ...
        tienlen.analysis.review.AnalysisCancelledError: the review was stopped before it started
        >>> board.remove()
    """
    game = loads(text)
    progress: ProgressBoard | None = None
    if board is not None:
        try:
            progress = ProgressBoard.attach(board)
        except FileNotFoundError:
            progress = None
        else:  # mapped by both sides now: a crash leaves no file behind
            Path(board).unlink(missing_ok=True)
        if progress is None or progress.stopped:
            msg = "the review was stopped before it started"
            raise AnalysisCancelledError(msg)
    try:
        tell = None if progress is None else progress.tell
        analysis = analyse(game, budget=budget, seed=seed, progress=tell)
    finally:
        if progress is not None:
            progress.close()
    explanations = {
        str(decision.index): {
            lang: explain(decision, game.rules, lang) for lang in ("en", "vi")
        }
        for decision in analysis.labelled()
    }
    return {
        "actions": [action_json(action) for action in game.actions],
        "analysis": analysis.to_json(),
        "explanations": explanations,
    }


@attrs.define(eq=False)
class Pending:
    """A review being made: its answer to come, its board, and who waits for it.

    Example:
        >>> board = ProgressBoard.create()
        >>> pending = Pending(("t1", 0), concurrent.futures.Future(), board, [])
        >>> pending.told, pending.address
        (0, '')
        >>> board.remove()
    """

    key: Key
    future: concurrent.futures.Future[Json]
    board: ProgressBoard
    waiting: list[Waiter]
    """The clients to send it to; the first one's address is the review's
    (`ReviewDesk.busy`). Nobody left: the review is stopped."""
    told: int = 0
    """The decisions done last reported (`ReviewDesk.progress`)."""
    told_at: float = -math.inf
    """When they were."""

    @property
    def address(self) -> str:
        """The address whose one review in flight this is: its first waiter's.

        Example:
            >>> from types import SimpleNamespace
            >>> board = ProgressBoard.create()
            >>> first, second = SimpleNamespace(address="a"), SimpleNamespace(address="b")
            >>> Pending(("t1", 0), concurrent.futures.Future(), board, [first, second]).address
            'a'
            >>> board.remove()
        """
        return self.waiting[0].address if self.waiting else ""


def _waits(pending: Pending, waiter: Waiter) -> bool:
    """Whether *waiter* (this very one) waits for *pending*."""
    return any(w is waiter for w in pending.waiting)


@attrs.frozen
class Report:
    """A review's progress to tell its waiters: *done* of *total* decisions valued.

    Example:
        >>> Report(("t1", 3), (), 5, 20).done
        5
    """

    key: Key
    waiting: tuple[Waiter, ...]
    done: int
    total: int


class ReviewDesk:
    """The reviews of one server: a bounded pool, one review per address, a cache.

    Args:
        pool: Makes the pool of *workers* the reviews run in (the hub passes its
            `process_workers <tienlen.server.tables.process_workers>`).
        workers: How many reviews run at once.
        budget: Worlds sampled per decision (`REVIEW_BUDGET`).
        queue: The most reviews in flight, every address together (those stopped
            but still running count).

    Example:
        >>> import concurrent.futures
        >>> desk = ReviewDesk(concurrent.futures.ThreadPoolExecutor, budget=2, queue=4)
        >>> desk.budget, desk.queue, desk.full
        (2, 4, False)
    """

    def __init__(
        self,
        pool: Callable[[int], concurrent.futures.Executor],
        *,
        workers: int = 1,
        budget: int = REVIEW_BUDGET,
        queue: int = 8,
    ) -> None:
        self.make_pool = pool
        self.workers = workers
        self.budget = budget
        self.queue = queue
        self._pool: concurrent.futures.Executor | None = None
        self._pending: dict[Key, Pending] = {}
        self._stopping: list[Pending] = []
        """Reviews stopped while their worker ran: in flight until it notices."""
        self._cache: collections.OrderedDict[Key, Json] = collections.OrderedDict()

    def cached(self, key: Key) -> Json | None:
        """The review of *key* already made, if it is still kept.

        Example:
            >>> import concurrent.futures
            >>> ReviewDesk(concurrent.futures.ThreadPoolExecutor).cached(("main", 1)) is None
            True
        """
        body = self._cache.get(key)
        if body is not None:
            self._cache.move_to_end(key)
        return body

    def pending(self, key: Key) -> Pending | None:
        """The review of *key* being made, if any.

        Example:
            >>> import concurrent.futures
            >>> ReviewDesk(concurrent.futures.ThreadPoolExecutor).pending(("main", 1)) is None
            True
        """
        return self._pending.get(key)

    def waited_for(self, waiter: Waiter) -> Key | None:
        """The review *waiter* waits for, if any (it waits for one at most).

        Example:
            >>> import concurrent.futures, types
            >>> desk = ReviewDesk(concurrent.futures.ThreadPoolExecutor)
            >>> desk.waited_for(types.SimpleNamespace(address="::1")) is None
            True
        """
        for key, pending in self._pending.items():
            if _waits(pending, waiter):
                return key
        return None

    def busy(self, address: str, *, besides: Waiter | None = None) -> bool:
        """Whether *address* has a review in flight already.

        With *besides*, as if that waiter waited for none (`withdraw`): a review
        it alone waits for does not count, one it shares passes to the next waiter.

        Example:
            >>> import concurrent.futures
            >>> ReviewDesk(concurrent.futures.ThreadPoolExecutor).busy("127.0.0.1")
            False
        """
        for pending in self._pending.values():
            rest = [w for w in pending.waiting if w is not besides]
            if rest and rest[0].address == address:
                return True
        return False

    @property
    def full(self) -> bool:
        """Whether `queue` reviews are in flight.

        Example:
            >>> import concurrent.futures
            >>> ReviewDesk(concurrent.futures.ThreadPoolExecutor, queue=1).full
            False
        """
        self._settle()
        return len(self._pending) + len(self._stopping) >= self.queue

    def start(self, key: Key, text: str, waiter: Waiter) -> Pending:
        """Start the review of *key*, the hand whose record is *text*, for *waiter*.

        Raises:
            RuntimeError: the pool cannot take it (the pool is dropped: the next
                review starts a new one).

        Example:
            >>> import concurrent.futures, random, types
            >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
            >>> from tienlen.records import dumps, record
            >>> deal = GameState.deal(CLASSIC, players=2, seed=4)
            >>> game = play_game(deal, [GreedyPlayer()] * 2, random.Random(0))
            >>> desk = ReviewDesk(concurrent.futures.ThreadPoolExecutor, budget=2)
            >>> pending = desk.start(("t", 1), dumps(record(game)), types.SimpleNamespace(address="::1"))
            >>> pending.address, desk.busy("::1")
            ('::1', True)
            >>> desk.shutdown()
        """
        if self._pool is None:
            self._pool = self.make_pool(self.workers)
        board = ProgressBoard.create()
        try:
            future = self._pool.submit(
                review_json, text, self.budget, REVIEW_SEED, board.path
            )
        except (RuntimeError, concurrent.futures.BrokenExecutor):
            board.remove()
            self._drop_pool()
            raise
        pending = self._pending[key] = Pending(key, future, board, [waiter])
        return pending

    def withdraw(self, waiter: Waiter) -> None:
        """*waiter* waits no more (it left, or asked for another review).

        A review nobody else waits for is stopped: cancelled if it has not
        started, else its board is stopped and `analyse` stops at its next decision.

        Example:
            >>> import concurrent.futures, random, types
            >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
            >>> from tienlen.records import dumps, record
            >>> deal = GameState.deal(CLASSIC, players=2, seed=4)
            >>> game = play_game(deal, [GreedyPlayer()] * 2, random.Random(0))
            >>> desk = ReviewDesk(concurrent.futures.ThreadPoolExecutor, budget=2)
            >>> ann = types.SimpleNamespace(address="::1")
            >>> pending = desk.start(("t", 1), dumps(record(game)), ann)
            >>> desk.withdraw(ann)
            >>> desk.pending(("t", 1)) is None, desk.busy("::1"), pending.board.stopped
            (True, False, True)
            >>> desk.shutdown()
        """
        for key in [k for k, p in self._pending.items() if _waits(p, waiter)]:
            pending = self._pending[key]
            pending.waiting = [w for w in pending.waiting if w is not waiter]
            if not pending.waiting:
                self._stop(key)

    def _stop(self, key: Key) -> None:
        """Stop the review of *key*: it leaves the flight once its worker stops."""
        pending = self._pending.pop(key)
        pending.board.stop()
        pending.future.cancel()
        self._stopping.append(pending)
        self._settle()

    def _settle(self) -> None:
        """Forget the stopped reviews whose worker stopped (a finished one is cached)."""
        still = []
        for pending in self._stopping:
            if not pending.future.done():
                still.append(pending)
                continue
            pending.board.remove()
            future = pending.future
            if not future.cancelled() and future.exception() is None:
                self._remember(pending.key, future.result())  # done before it stopped
        self._stopping = still

    def _remember(self, key: Key, body: Json) -> None:
        self._cache[key] = body
        self._cache.move_to_end(key)
        while len(self._cache) > REVIEWS_CACHED:
            self._cache.popitem(last=False)

    def progress(self, now: float) -> list[Report]:
        """The reviews whose progress is due to be told at *now* (seconds).

        One is due when its worker has valued more decisions than last told, and
        `PROGRESS_INTERVAL` has passed since, or it has valued them all. A review
        done is reported by `finished`.

        Example:
            >>> import concurrent.futures
            >>> ReviewDesk(concurrent.futures.ThreadPoolExecutor).progress(now=0.0)
            []
        """
        due = []
        for key, pending in self._pending.items():
            if pending.future.done():
                continue
            done, total = pending.board.read()
            if done > pending.told and (
                done >= total or now - pending.told_at >= PROGRESS_INTERVAL
            ):
                pending.told, pending.told_at = done, now
                due.append(Report(key, tuple(pending.waiting), done, total))
        return due

    def finished(
        self,
    ) -> Iterator[tuple[Key, Json | None, list[Waiter], Report | None]]:
        """The reviews done since the last call, removed from the flight, and who waits.

        Each comes with its last progress report if it was not told yet (every
        decision valued). Each is cached; ``None`` for one that failed (not
        cached: asked again, it runs again). A broken pool (a worker died) is dropped.

        Example:
            >>> import concurrent.futures, random, types
            >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
            >>> from tienlen.records import dumps, record
            >>> deal = GameState.deal(CLASSIC, players=2, seed=4)
            >>> game = play_game(deal, [GreedyPlayer()] * 2, random.Random(0))
            >>> desk = ReviewDesk(concurrent.futures.ThreadPoolExecutor, budget=2)
            >>> ann = types.SimpleNamespace(address="::1")
            >>> _ = desk.start(("t", 1), dumps(record(game)), ann).future.result()
            >>> [(key, body is not None, last.done) for key, body, _, last in desk.finished()]
            [(('t', 1), True, 22)]
            >>> desk.shutdown()
        """
        self._settle()
        done = [(k, p) for k, p in self._pending.items() if p.future.done()]
        for key, pending in done:
            del self._pending[key]
            last = None
            body = self._answer(pending)
            if body is not None:
                self._remember(key, body)
                valued, total = pending.board.read()
                if valued > pending.told:
                    last = Report(key, tuple(pending.waiting), valued, total)
            pending.board.remove()
            yield key, body, pending.waiting, last

    def _answer(self, pending: Pending) -> Json | None:
        """A review's body, or ``None`` if it failed (a broken pool is dropped)."""
        try:
            return pending.future.result()
        except concurrent.futures.BrokenExecutor:
            self._drop_pool()
            return None
        except Exception:  # noqa: BLE001  # a failed review is answered as such
            return None

    def forget(self, table: str) -> None:
        """Drop the reviews of *table* (removed), made or being made.

        Example:
            >>> import concurrent.futures
            >>> desk = ReviewDesk(concurrent.futures.ThreadPoolExecutor)
            >>> desk.forget("main")
            >>> desk.cached(("main", 1)) is None
            True
        """
        for key in [k for k in self._pending if k[0] == table]:
            self._stop(key)
        for key in [k for k in self._cache if k[0] == table]:
            del self._cache[key]

    def _drop_pool(self) -> None:
        """Forget a broken pool: the next review starts a new one."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        """Stop every review and the workers; a later review starts a new pool.

        Example:
            >>> import concurrent.futures
            >>> desk = ReviewDesk(concurrent.futures.ThreadPoolExecutor)
            >>> desk.shutdown()  # no pool yet: nothing to stop
        """
        for key in list(self._pending):
            self._stop(key)
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        self._settle()
        for pending in self._stopping:
            pending.board.remove()
        self._stopping = []
