"""Reviews of finished hands: `tienlen.analysis.analyse` off the event loop, cached.

A client at a table asks for the review of a finished hand (``review``); the hub
hands the hand's record to a `ReviewDesk`, which runs `review_json` in its own
bounded pool of worker processes (spawned and niced, as the search bots'), at most
one review in flight per client address and `ReviewDesk.queue` in all, and keeps
the answers of the last hands reviewed so that a second viewer gets them at once.
docs/server.md describes the messages.

Example:
    >>> import concurrent.futures, random
    >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
    >>> from tienlen.records import dumps, record
    >>> game = play_game(GameState.deal(CLASSIC, players=2, seed=4), [GreedyPlayer()] * 2, random.Random(0))
    >>> desk = ReviewDesk(concurrent.futures.ThreadPoolExecutor, budget=2)
    >>> pending = desk.start(("t", 1), dumps(record(game)), "::1")
    >>> desk.busy("::1"), desk.cached(("t", 1)) is None
    (True, True)
    >>> _ = pending.future.result()
    >>> [key for key, body, waiting in desk.finished()], desk.busy("::1")
    ([('t', 1)], False)
    >>> len(desk.cached(("t", 1))["actions"]) == len(game.history)
    True
    >>> desk.shutdown()

.. versionadded:: 0.3
"""

from __future__ import annotations

import collections
import concurrent.futures
from collections.abc import Callable, Iterator
from typing import Final

import attrs

from tienlen.analysis import analyse
from tienlen.analysis.explain import explain
from tienlen.records import loads
from tienlen.server.protocol import Json, action_json

__all__ = [
    "HANDS_KEPT",
    "REVIEWS_CACHED",
    "REVIEW_BUDGET",
    "REVIEW_SEED",
    "ReviewDesk",
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

Key = tuple[str, int]
"""A review's key: the table's id and the hand's number."""


def review_json(text: str, budget: int, seed: int = REVIEW_SEED) -> Json:
    """The body of a ``review`` message for the finished hand whose record is *text*.

    ``actions`` are the hand's every action (as `action_json` writes them),
    ``analysis`` is `GameAnalysis.to_json <tienlen.analysis.GameAnalysis.to_json>`
    of `analyse` at *budget* and *seed*, and ``explanations`` words each labelled
    decision (by its index in ``actions``) in English and Vietnamese
    (`tienlen.analysis.explain.explain`). It runs in a worker process.

    Raises:
        tienlen.records.RecordError: *text* is not a game record.
        tienlen.errors.InvalidArgumentError: the hand is not over.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
        >>> from tienlen.records import dumps, record
        >>> deal = GameState.deal(CLASSIC, players=2, seed=4)
        >>> game = play_game(deal, [GreedyPlayer()] * 2, random.Random(0))
        >>> body = review_json(dumps(record(game)), budget=2)
        >>> body["actions"][1], body["analysis"]["budget"]
        ({'seat': 0, 'action': '4h'}, 2)
        >>> body["explanations"]["1"]["en"].startswith("Inaccuracy: player 0 played 4♥")
        True
    """
    game = loads(text)
    analysis = analyse(game, budget=budget, seed=seed)
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
    """A review being made: its answer to come, who asked, and who waits for it."""

    future: concurrent.futures.Future[Json]
    address: str
    """The address whose one review in flight this is."""
    waiting: list[object] = attrs.Factory(list)
    """The connections to send it to (the hub's)."""


class ReviewDesk:
    """The reviews of one server: a bounded pool, one review per address, a cache.

    Args:
        pool: Makes the pool of *workers* the reviews run in (the hub passes its
            `process_workers <tienlen.server.tables.process_workers>`).
        workers: How many reviews run at once.
        budget: Worlds sampled per decision (`REVIEW_BUDGET`).
        queue: The most reviews in flight, every address together.

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

    def busy(self, address: str) -> bool:
        """Whether *address* has a review in flight already.

        Example:
            >>> import concurrent.futures
            >>> ReviewDesk(concurrent.futures.ThreadPoolExecutor).busy("127.0.0.1")
            False
        """
        return any(p.address == address for p in self._pending.values())

    @property
    def full(self) -> bool:
        """Whether `queue` reviews are in flight.

        Example:
            >>> import concurrent.futures
            >>> ReviewDesk(concurrent.futures.ThreadPoolExecutor, queue=1).full
            False
        """
        return len(self._pending) >= self.queue

    def start(self, key: Key, text: str, address: str) -> Pending:
        """Start the review of *key*, the hand whose record is *text*, for *address*.

        Raises:
            RuntimeError: the pool cannot take it (the pool is dropped: the next
                review starts a new one).

        Example:
            >>> import concurrent.futures, random
            >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
            >>> from tienlen.records import dumps, record
            >>> deal = GameState.deal(CLASSIC, players=2, seed=4)
            >>> game = play_game(deal, [GreedyPlayer()] * 2, random.Random(0))
            >>> desk = ReviewDesk(concurrent.futures.ThreadPoolExecutor, budget=2)
            >>> pending = desk.start(("t", 1), dumps(record(game)), "::1")
            >>> pending.address, desk.busy("::1")
            ('::1', True)
            >>> desk.shutdown()
        """
        if self._pool is None:
            self._pool = self.make_pool(self.workers)
        try:
            future = self._pool.submit(review_json, text, self.budget)
        except (RuntimeError, concurrent.futures.BrokenExecutor):
            self.shutdown(wait=False)
            raise
        pending = self._pending[key] = Pending(future, address)
        return pending

    def finished(self) -> Iterator[tuple[Key, Json | None, list[object]]]:
        """The reviews done since the last call, removed from the flight, and who waits.

        Each is cached; ``None`` for one that failed (not cached: asked again, it
        runs again). A broken pool (a worker died) is dropped.

        Example:
            >>> import concurrent.futures, random
            >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
            >>> from tienlen.records import dumps, record
            >>> deal = GameState.deal(CLASSIC, players=2, seed=4)
            >>> game = play_game(deal, [GreedyPlayer()] * 2, random.Random(0))
            >>> desk = ReviewDesk(concurrent.futures.ThreadPoolExecutor, budget=2)
            >>> _ = desk.start(("t", 1), dumps(record(game)), "::1").future.result()
            >>> [(key, body is not None) for key, body, _ in desk.finished()]
            [(('t', 1), True)]
            >>> desk.shutdown()
        """
        done = [(k, p) for k, p in self._pending.items() if p.future.done()]
        for key, pending in done:
            del self._pending[key]
            try:
                body = pending.future.result()
            except concurrent.futures.BrokenExecutor:
                self.shutdown(wait=False)
                body = None
            except Exception:  # noqa: BLE001  # a failed review is answered as such
                body = None
            if body is not None:
                self._cache[key] = body
                while len(self._cache) > REVIEWS_CACHED:
                    self._cache.popitem(last=False)
            yield key, body, pending.waiting

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
            self._pending.pop(key).future.cancel()
        for key in [k for k in self._cache if k[0] == table]:
            del self._cache[key]

    def shutdown(self, *, wait: bool = True) -> None:
        """Stop the workers; a later review starts a new pool.

        Example:
            >>> import concurrent.futures
            >>> desk = ReviewDesk(concurrent.futures.ThreadPoolExecutor)
            >>> desk.shutdown()  # no pool yet: nothing to stop
        """
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=wait, cancel_futures=True)
