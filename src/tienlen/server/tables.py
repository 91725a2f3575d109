"""Tables, seats and connections: the game server without a web framework.

A `Hub` holds many `Table` objects and the `Connection` of every client. It reads
each client's messages (`Hub.receive`), referees every move with the engine, sends
each seat its own view and spectators the public view, plays the seats no human
holds with the library's bots, and keeps the seats of dropped clients for a grace
period. Starlette only carries the bytes (`tienlen.server.app`); tests drive a hub
directly or through the app.

Example:
    >>> hub = Hub()
    >>> sent = []
    >>> client = hub.open(sent.append)
    >>> hub.receive(client, '{"v": 1, "type": "create", "rules": "classic"}')
    >>> table = sent[0]
    >>> '"type":"created"' in table
    True
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import hashlib
import hmac
import json
import logging
import math
import multiprocessing
import os
import random
import secrets
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import Final

import attrs

from tienlen import messages
from tienlen._workers import start_worker
from tienlen.errors import IllegalPlayError, TienLenError
from tienlen.game import Action, GameState, Pass, Play
from tienlen.match import Match
from tienlen.players import GreedyPlayer, Observation, Player, RandomPlayer
from tienlen.records import (
    JsonValue,
    RecordError,
    dumps,
    loads,
    read_json,
    record,
    rules_from_file,
    rules_from_json,
    rules_to_json,
    to_json,
)
from tienlen.rules import BaseRules, get_rules
from tienlen.rules.registry import presets
from tienlen.server import protocol
from tienlen.server.names import NameRefusedError, seat_name
from tienlen.server.protocol import Json, dump
from tienlen.server.reviews import HANDS_KEPT, REVIEW_BUDGET, Report, ReviewDesk
from tienlen.server.storage import SavedTable, Storage

__all__ = [
    "BOTS",
    "MAX_RULES_FILE",
    "OPEN",
    "SLOW_BOTS",
    "Connection",
    "Hub",
    "Seat",
    "ServerError",
    "Table",
    "derived_preset",
    "process_workers",
    "rules_file",
    "trick_start",
]


def _pimc() -> Player:
    from tienlen.search import PIMCPlayer  # noqa: PLC0415  # only when asked for

    return PIMCPlayer(worlds=8, seconds=0.5)


def _ismcts() -> Player:
    from tienlen.search import ISMCTSPlayer  # noqa: PLC0415  # only when asked for

    return ISMCTSPlayer(iterations=64, seconds=0.5)


BOTS: Final[Mapping[str, Callable[[], Player]]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "pimc": _pimc,
    "ismcts": _ismcts,
}
"""The library's bots a seat may be played by, by name."""
_log: Final = logging.getLogger("tienlen.server")
_SLOW: Final = frozenset({"pimc", "ismcts"})
"""Bots that think for a while: asked in a worker thread, off the event loop."""
SLOW_BOTS: Final = _SLOW
"""The names in `BOTS` of the search bots: slow, and limited per address."""
_ADDRESSES_KEPT: Final = 4096
"""Creation buckets kept before the refilled ones are forgotten (memory stays bounded)."""


class ServerError(TienLenError, ValueError):
    """A client's message refused: its machine-readable *code* and a sentence.

    *text* defaults to the code; *refusal* is the engine's refusal of an illegal move;
    *localized* the refusal in English and Vietnamese (a rules file's, `rules_file`).

    Example:
        >>> error = ServerError("no-table", "no table 'x'")
        >>> error.code, str(error)
        ('no-table', "no table 'x'")
    """

    def __init__(
        self,
        code: str,
        text: str | None = None,
        refusal: IllegalPlayError | None = None,
        localized: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(code if text is None else text)
        self.code = code
        self.refusal = refusal
        self.localized = None if localized is None else dict(localized)
        """The refusal in each language (``{"en", "vi"}``), when the library words it."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


_COMPARED: Final = tuple(
    field.name for field in attrs.fields(BaseRules) if field.eq and field.name != "name"
)
"""The settings that tell rule sets apart (every one but the free-text name)."""


def derived_preset(rules: BaseRules) -> tuple[str, int]:
    """The preset *rules* derives from, and how many of its settings differ.

    The preset with the fewest settings changed (the first of the rules reference
    on a tie). The name a client gave the rule set plays no part: the public table
    list shows this instead (`Table.summary`).

    Example:
        >>> import attrs
        >>> from tienlen import CLASSIC, POKER
        >>> derived_preset(POKER)
        ('poker', 0)
        >>> derived_preset(attrs.evolve(CLASSIC, name="<a href=x>", twos_in_straights=False))
        ('classic', 1)
    """

    def changed(preset: BaseRules) -> int:
        return sum(getattr(rules, name) != getattr(preset, name) for name in _COMPARED)

    known = [preset.rules for preset in presets(listed_only=False)]
    counts = [(changed(preset), index) for index, preset in enumerate(known)]
    count, index = min(counts)
    return known[index].name, count


@attrs.define
class _Bucket:
    """A token bucket: *burst* takes at once, then *rate* a second."""

    tokens: float
    stamp: float

    def wait(self, now: float, rate: float, burst: float) -> float:
        """Seconds until a token is there (0: one is there now); refills first."""
        self.tokens = min(burst, self.tokens + max(0.0, now - self.stamp) * rate)
        self.stamp = now
        if self.tokens >= 1:
            return 0.0
        return (1 - self.tokens) / rate if rate > 0 else math.inf

    def take(self) -> None:
        """Use a token (after `wait` said one is there)."""
        self.tokens -= 1


_WORKER_NICENESS: Final = 10
"""How much lower the slow bots' processes run than the server's event loop."""


def process_workers(workers: int) -> concurrent.futures.Executor:
    """The slow bots' default pool: *workers* processes, below the event loop's priority.

    In other processes the searches neither hold the event loop's GIL nor, niced,
    take its CPU: pings and the other tables' moves are answered while they think.
    Workers are spawned (not forked from the serving process) and die with it.

    Example:
        >>> pool = process_workers(1)
        >>> pool.submit(abs, -3).result()
        3
        >>> pool.shutdown()
    """
    return concurrent.futures.ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start_worker,
        initargs=(os.getpid(), _WORKER_NICENESS),
    )


@attrs.define
class Seat:
    """One seat: the bot that plays it when no client does, and who claimed it.

    Example:
        >>> seat = Seat(2, "random")
        >>> seat.by_bot, seat.to_json(13)["kind"], seat.to_json(13)["cards"]
        (True, 'house', 13)
    """

    index: int
    bot: str = "greedy"
    name: str = ""
    token_hash: str | None = None
    """The SHA-256 of the seat's credential; ``None`` while nobody claimed it."""
    remote: str = ""
    """``"human"`` or ``"bot"`` once claimed."""
    connections: int = 0
    away_since: float | None = None
    taken_over: bool = False
    """Whether the seat's bot plays it, its client gone longer than the grace."""
    moved: bool = False
    """Whether whoever claimed the seat has played a move there (`Hub.abandoned`)."""
    person: bool = False
    """Whether the table was made with this seat kept for a person (``"open"``)."""
    open: bool = False
    """Whether the seat waits for a person: the table deals once none does."""

    @property
    def by_bot(self) -> bool:
        """Whether the server's bot plays this seat now.

        Example:
            >>> Seat(0).by_bot, Seat(0, token_hash="ab").by_bot
            (True, False)
        """
        return self.token_hash is None or self.taken_over

    def to_json(self, count: int) -> Json:
        """The seat as every client sees it (never its credential).

        Example:
            >>> Seat(1, "greedy").to_json(5)["name"], Seat(1, token_hash="ab").to_json(5)["name"]
            ('greedy bot', 'seat 1')
            >>> "ab" in str(Seat(1, token_hash="ab").to_json(5))
            False
            >>> Seat(2, person=True, open=True).to_json(0)["kind"]
            'open'
        """
        kind = "house" if self.token_hash is None else self.remote
        if self.open:
            kind = "open"
        return {
            "seat": self.index,
            "name": self.name
            or (
                f"seat {self.index}"
                if self.token_hash or self.open
                else f"{self.bot} bot"
            ),
            "kind": kind,
            "bot": self.bot,
            "connected": self.connections > 0,
            "away": self.token_hash is not None and self.connections == 0,
            "takenOver": self.taken_over,
            "cards": count,
        }


@attrs.define(eq=False)
class Connection:
    """One client: where its messages go, and what it sits at.

    Example:
        >>> client = Hub().open(print)
        >>> client.table is None, client.seat is None
        (True, True)
    """

    send: Callable[[str], None]
    """Queues one message for the client (the web layer writes it)."""
    table: Table | None = None
    seat: int | None = None
    """The seat it holds, or ``None`` for a spectator or a client not at a table."""
    ply: int = 0
    """How many actions of the current hand it has been sent."""
    hand: int = 0
    tokens: float = 0.0
    stamp: float = 0.0
    closed: bool = False
    created: int = 0
    """How many tables it created (at most `Hub.tables_per_connection`)."""
    address: str = ""
    """The client's network address: the limits of `Hub` hold per address."""


@attrs.define(eq=False)
class Table:
    """A table: its rules, its seats, its match and the hand in play.

    Example:
        >>> from tienlen import CLASSIC
        >>> table = Hub().create_table(CLASSIC, 4, seed=1)
        >>> table.players, table.number, table.between, len(table.state.history)
        (4, 1, False, 0)
    """

    id: str
    rules: BaseRules
    seats: list[Seat]
    match: Match
    state: GameState
    hands: int | None
    """How many hands the match lasts; ``None`` for no limit."""
    grace: float
    clock: float | None
    number: int = 1
    """The hand in play, from 1."""
    between: bool = False
    """Whether the hand is over and the next not yet dealt."""
    ready: set[int] = attrs.Factory(set)
    connections: list[Connection] = attrs.Factory(list)
    rng: random.Random = attrs.Factory(random.Random)
    """The house bots' randomness: drawn from `secrets`, never the deal's seed."""
    bots: dict[int, Player] = attrs.Factory(dict)
    polled: GameState | None = None
    """The state whose jump-ins the bots were already asked about."""
    turn_since: float = 0.0
    changed: float = 0.0
    thinking: tuple[GameState, int, concurrent.futures.Future[Action] | None] | None = (
        None
    )
    """A slow bot's decision asked: the state, the seat, the answer to come (``None``
    while it waits for a worker)."""
    match_start: int = 1
    """The number of the current match's first hand (hand numbers go on at a rematch)."""
    last_end: Json | None = None
    """The ``handEnd`` message of the hand just finished, while between hands."""
    dealt: dict[str, JsonValue] | None = None
    """The record of the hand in play without its actions (`Hub._save_hand`)."""
    permanent: bool = False
    """Whether `Hub.tick` keeps the table however long nobody is there (``main``)."""
    seen: float = 0.0
    """When a client was last connected to the table (or it was made)."""
    meta_unsaved: bool = False
    """Whether the last `Hub._save_meta` failed (`Hub.tick` saves it again)."""
    owner: str = ""
    """The address of the client that created it (``""``: the operator's, or restored)."""
    listed: tuple[str, int] | None = None
    """`derived_preset` of the rules, once the public list asked for it."""
    trick_start: int = 0
    """Where the current trick starts in the hand's history (`Hub._apply` keeps it)."""
    finished: dict[int, str] = attrs.Factory(dict)
    """The records of the last `HANDS_KEPT` finished hands, by number, for reviews."""
    host_hash: str | None = None
    """The SHA-256 of the creator's ``host`` credential, while the table waits."""

    @property
    def open_seats(self) -> int:
        """How many seats wait for a person (`Seat.open`).

        Example:
            >>> from tienlen import CLASSIC
            >>> Hub().create_table(CLASSIC, seed=1, open_seats=[0, 2]).open_seats
            2
        """
        return sum(seat.open for seat in self.seats)

    @property
    def waiting(self) -> bool:
        """Whether the table waits for people: no hand is dealt until none is open.

        Example:
            >>> from tienlen import CLASSIC
            >>> Hub().create_table(CLASSIC, seed=1, open_seats=[1]).waiting
            True
        """
        return self.open_seats > 0

    @property
    def players(self) -> int:
        """How many seats.

        Example:
            >>> from tienlen import CLASSIC
            >>> Hub().create_table(CLASSIC, 3, seed=1).players
            3
        """
        return len(self.seats)

    @property
    def match_over(self) -> bool:
        """Whether the match has played all its hands.

        Example:
            >>> from tienlen import CLASSIC
            >>> Hub().create_table(CLASSIC, hands=1, seed=1).match_over
            False
        """
        return self.hands is not None and self.match.game_count >= self.hands

    def legal(self, seat: int) -> list[Action]:
        """*seat*'s legal actions now, in the engine's order (jump-ins included).

        Example:
            >>> from tienlen import CLASSIC
            >>> table = Hub().create_table(CLASSIC, seed=1)
            >>> seat = table.state.to_act
            >>> table.legal(seat) == list(table.state.legal_actions())
            True
        """
        if self.between or self.waiting or self.state.to_act is None:
            return []
        return [a for a in self.state.legal_actions() if a.player == seat]

    def counts(self) -> list[int]:
        """Cards held by seat (none while the table waits: nothing is dealt).

        Example:
            >>> from tienlen import CLASSIC
            >>> Hub().create_table(CLASSIC, seed=1).counts()
            [13, 13, 13, 13]
            >>> Hub().create_table(CLASSIC, seed=1, open_seats=[0]).counts()
            [0, 0, 0, 0]
        """
        if self.waiting:
            return [0] * self.players
        return [len(self.state.hand(seat)) for seat in range(self.players)]

    def meta(self) -> dict[str, object]:
        """What `Storage.save_table` keeps.

        Example:
            >>> from tienlen import CLASSIC
            >>> meta = Hub().create_table(CLASSIC, seed=1).meta()
            >>> meta["players"], meta["seed"], meta["seats"][0]["token"]
            (4, 1, None)
        """
        return {
            "rules": rules_to_json(self.rules),
            "players": self.players,
            "seed": self.match.seed,
            "matchStart": self.match_start,
            "firstDealer": self.match.first_dealer,
            "hands": self.hands,
            "grace": self.grace,
            "clock": self.clock,
            "between": self.between,
            "permanent": self.permanent,
            "seats": [
                {
                    "bot": seat.bot,
                    "name": seat.name,
                    "token": seat.token_hash,
                    "remote": seat.remote,
                    "moved": seat.moved,
                    "person": seat.person,
                    "open": seat.open,
                }
                for seat in self.seats
            ],
        }

    def info(self) -> Json:
        """The table as every client sees it: rules, seats, match so far.

        Example:
            >>> from tienlen import CLASSIC
            >>> info = Hub().create_table(CLASSIC, seed=1).info()
            >>> info["players"], info["hand"], info["totals"], info["seats"][0]["kind"]
            (4, 1, [0, 0, 0, 0], 'house')
        """
        counts = self.counts()
        return {
            "id": self.id,
            "rules": rules_to_json(self.rules),
            "players": self.players,
            "hand": self.number,
            "hands": self.hands,
            "between": self.between,
            "matchOver": self.match_over,
            "totals": list(self.match.totals),
            "results": [protocol.result_json(r, cards=False) for r in self.match.games],
            "grace": self.grace,
            "clock": self.clock,
            "open": self.open_seats,
            "seats": [seat.to_json(counts[seat.index]) for seat in self.seats],
        }

    def summary(self) -> Json:
        """The table for the public list (``GET /api/tables``): no id, no names.

        A table's id is its code (whoever has it may watch and sit), so the list never
        shows it, nor any text a client chose (seat names, the rule set's name): the
        rules are listed as the preset they derive from, ``changed`` counting the
        settings that differ from it (`derived_preset`).

        Example:
            >>> import attrs
            >>> from tienlen import CLASSIC
            >>> table = Hub().create_table(CLASSIC, seed=1)
            >>> table.summary()
            {'rules': 'classic', 'changed': 0, 'players': 4, 'hand': 1, 'handsPlayed': 0, 'matchOver': False, 'seated': 0, 'open': 0}
            >>> table.id in str(table.summary())
            False
            >>> house = attrs.evolve(CLASSIC, name="<b>x.example</b>", twos_in_straights=False)
            >>> listed = Hub().create_table(house, seed=1).summary()
            >>> listed["rules"], listed["changed"], "x.example" in str(listed)
            ('classic', 1, False)
        """
        if self.listed is None:
            self.listed = derived_preset(self.rules)
        preset, changed = self.listed
        return {
            "rules": preset,
            "changed": changed,
            "players": self.players,
            "hand": self.number,
            "handsPlayed": len(self.match.games),
            "matchOver": self.match_over,
            "seated": sum(seat.token_hash is not None for seat in self.seats),
            "open": self.open_seats,
        }


OPEN: Final = "open"
"""A ``create`` message's word for a seat kept for a person (its ``seats``)."""


def _seat_plan(message: Mapping[str, object]) -> list[str] | None:
    """A ``create`` message's ``seats``: `OPEN` or a house bot's name each; ``None`` if absent.

    Raises:
        ServerError: ``bad-message``: not a list of those, no seat open for a
            person (a table of bots only is made with ``bots``), or given with
            ``bots``.

    Example:
        >>> _seat_plan({"seats": ["open", "pimc", "greedy"]})
        ['open', 'pimc', 'greedy']
        >>> _seat_plan({"seats": ["greedy", "greedy"]})
        Traceback (most recent call last):
        tienlen.server.tables.ServerError: seats: at least one "open" seat, for a person
    """
    plan = message.get("seats")
    if plan is None:
        return None
    if "bots" in message:
        raise ServerError("bad-message", "seats or bots, not both")
    kinds = [OPEN, *BOTS]
    if (
        not isinstance(plan, list)
        or not 2 <= len(plan) <= 8
        or not all(isinstance(kind, str) and kind in kinds for kind in plan)
    ):
        raise ServerError(
            "bad-message", f"seats: 2 to 8 seats, each one of {', '.join(kinds)}"
        )
    if OPEN not in plan:
        raise ServerError(
            "bad-message", 'seats: at least one "open" seat, for a person'
        )
    return [str(kind) for kind in plan]


MAX_RULES_FILE: Final = 12 * 1024
"""The most characters of a house-rules file a ``create`` message may carry."""


def rules_file(upload: object) -> BaseRules:
    """The rule set of a ``create`` message's ``rulesFile``: ``{"name", "text"}``.

    *text* is the file as ``tienlen --rules-file`` reads it: a rule set or a game
    record (`tienlen.records.rules_from_file`), at most `MAX_RULES_FILE` characters;
    *name* (optional, at most 100 characters) is the file's name, for the refusal.

    Raises:
        ServerError: ``bad-message`` for no such object; ``bad-rules-file`` for a
            file the library refuses, with its refusal in English and Vietnamese.

    Example:
        >>> from tienlen import POKER
        >>> from tienlen.records import rules_to_json
        >>> rules_file({"text": json.dumps(rules_to_json(POKER))}) == POKER
        True
        >>> try:
        ...     rules_file({"name": "ours.json", "text": '{"name": "x", "settings": 1}'})
        ... except ServerError as error:
        ...     print(error.localized["vi"])
        không đọc được luật chơi trong tệp 'ours.json': invalid game record at rules.settings: expected an object, got 1
    """
    if (
        type(upload) is not dict
        or not upload.keys() <= {"name", "text"}
        or not isinstance(upload.get("text"), str)
        or not isinstance(upload.get("name", ""), str)
        or len(upload.get("name", "")) > 100
    ):
        raise ServerError(
            "bad-message", 'rulesFile: {"name": the file\'s name, "text": its text}'
        )
    text, name = str(upload["text"]), repr(str(upload.get("name", "")))
    try:
        if len(text) > MAX_RULES_FILE:
            raise RecordError(  # noqa: TRY301  # refused as the library's refusals are
                "rules", f"the file is larger than {MAX_RULES_FILE:,} characters"
            )
        return rules_from_file(read_json(text))
    except RecordError as error:
        said = {
            lang: f"{messages.text('cli.rules_file', lang, path=name)}: {error}"
            for lang in ("en", "vi")
        }
        raise ServerError("bad-rules-file", said["en"], localized=said) from None


def _asked_rules(message: Mapping[str, object]) -> BaseRules:
    """The rules a ``create`` message asks for: ``rules`` (a preset or its JSON) or ``rulesFile``.

    Raises:
        ServerError: ``bad-rules``, ``bad-rules-file`` (`rules_file`), or
            ``bad-message`` for both.
    """
    if "rulesFile" in message:
        if "rules" in message:
            raise ServerError("bad-message", "rules or rulesFile, not both")
        return rules_file(message["rulesFile"])
    rules_data = message.get("rules", "classic")
    try:
        if isinstance(rules_data, str):
            return get_rules(rules_data)
        return rules_from_json(rules_data)
    except (TienLenError, TypeError) as error:
        raise ServerError("bad-rules", str(error)[:300]) from None


def _settings_number(
    data: Mapping[str, object], key: str, default: float | None, *, low: float
) -> float | None:
    value = data.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ServerError("bad-message", f"{key} must be a number")
    if not low <= value <= 86_400:
        raise ServerError("bad-message", f"{key} must be between {low} and 86400")
    return float(value)


class Hub:
    """Every table of one server process, and every client connected to it.

    Args:
        storage: Where tables are saved after every action; ``None`` keeps them in
            memory only.
        clock: The time source (seconds); tests pass a fake one.
        grace: The default seconds a dropped seat is kept before its bot takes over.
        bot_delay: Seconds a bot waits before it moves (so people can follow);
            0 plays bots at once, inside the call that let them move.
        rate: Messages per second a connection may send on average …
        burst: … and at once; more are refused with ``rate-limited``.
        max_tables: The most tables the process holds.
        tables_per_connection: The most tables one connection may create; more are
            refused with ``too-many-tables``.
        tables_per_address: The most tables the clients of one network address
            (`Hub.open`) may hold at once; more are refused with ``too-many-tables``.
        creates_per_minute: How many tables one address may create a minute on
            average …
        create_burst: … and at once; more are refused with ``rate-limited``.
        server_creates_per_minute: How many tables all clients together may create
            a minute on average …
        server_create_burst: … and at once; more are refused with ``busy``.
        slow_bots_per_address: The most seats played by a slow bot (``pimc``,
            ``ismcts``) in the tables of one address; more are refused with
            ``too-many-bots``.
        slow_workers: How many slow bots' decisions run at once.
        slow_pool: Makes the slow bots' pool of *slow_workers*; `process_workers`
            by default (tests pass a thread pool).
        idle: Seconds a table nobody is connected to is kept unless a person who
            sits there has moved; then `tick` removes it, from the storage too.
        abandoned: Seconds a table nobody is connected to is kept when a person
            holds a seat there and has moved at it (a person gone for good). A seat
            claimed and never played does not keep a table longer than *idle*.
        seeds: Where the seeds of the tables clients create come from; ``None``
            draws each from ``random.SystemRandom`` (`Match.start`). Clients never
            choose a seed: whoever knows it knows every hand. Tests pass a fixed one.
        tap: Called with every message sent, ``(connection, text, table)``, before
            it is queued: tests check the bytes against the table's true hands.
        review_budget: Worlds sampled per decision of a hand's review
            (`tienlen.server.reviews.REVIEW_BUDGET`).
        review_workers: How many reviews run at once, in a pool of their own made
            by *slow_pool*.
        reviews_in_flight: The most reviews in flight, every address together;
            more are refused with ``busy`` (one per address: ``review-busy``).

    Example:
        >>> hub = Hub()
        >>> sent = []
        >>> client = hub.open(sent.append)
        >>> hub.receive(client, '{"v": 1, "type": "create", "rules": "poker", "table": "x"}')
        >>> hub.receive(client, "{nope")
        >>> [text[:40] for text in sent[1:]]
        ['{"v":1,"type":"error","code":"bad-json",']
    """

    def __init__(
        self,
        storage: Storage | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        grace: float = 30.0,
        clock_seconds: float | None = None,
        bot_delay: float = 0.0,
        rate: float = 50.0,
        burst: float = 200.0,
        max_tables: int = 1000,
        tables_per_connection: int = 5,
        tables_per_address: int = 10,
        creates_per_minute: float = 6.0,
        create_burst: int = 5,
        server_creates_per_minute: float = 60.0,
        server_create_burst: int = 30,
        slow_bots_per_address: int = 4,
        slow_workers: int = 2,
        slow_pool: Callable[[int], concurrent.futures.Executor] = process_workers,
        idle: float = 600.0,
        abandoned: float = 86_400.0,
        seeds: Callable[[], int] | None = None,
        tap: Callable[[Connection, str, Table | None], None] | None = None,
        review_budget: int = REVIEW_BUDGET,
        review_workers: int = 1,
        reviews_in_flight: int = 8,
    ) -> None:
        self.tables: dict[str, Table] = {}
        self.quarantined: dict[str, str] = {}
        """Tables `restore` set aside: id and reason."""
        self.storage = storage
        self.now = clock
        self.grace = grace
        self.clock_seconds = clock_seconds
        self.bot_delay = bot_delay
        self.rate = rate
        self.burst = burst
        self.max_tables = max_tables
        self.tables_per_connection = tables_per_connection
        self.tables_per_address = tables_per_address
        self.creates_per_minute = creates_per_minute
        self.create_burst = create_burst
        self.server_creates_per_minute = server_creates_per_minute
        self.server_create_burst = server_create_burst
        self.slow_bots_per_address = slow_bots_per_address
        self.slow_workers = slow_workers
        self.slow_pool = slow_pool
        self.idle = idle
        self.abandoned = abandoned
        self.seeds = seeds
        self.tap = tap
        self._pool: concurrent.futures.Executor | None = None
        self._asking: dict[str, collections.deque[Table]] = {}
        """Tables whose slow bot waits for a worker, by owner, in round-robin order."""
        self._waiting: set[str] = set()
        """The ids of the tables in `_asking`: each is there once at most."""
        self._served: dict[str, int] = {}
        """When each address's slow bot last got a worker (a count of decisions)."""
        self._turns = 0
        self._running: set[concurrent.futures.Future[Action]] = set()
        self._creates: dict[str, _Bucket] = {}
        """Each address's creation bucket (`creates_per_minute`)."""
        self._server_creates = _Bucket(float(server_create_burst), clock())
        self.reviews = ReviewDesk(
            slow_pool,
            workers=review_workers,
            budget=review_budget,
            queue=reviews_in_flight,
        )
        """The hands' reviews (`review`): their pool, flights and cache."""
        self._held: list[tuple[Connection, Json]] = []
        """Reviews made while the asker's table plays a hand: sent once it ends."""
        self._handlers: dict[str, Callable[[Connection, dict[str, object]], None]] = {
            "create": self._create,
            "join": self._join,
            "hello": self._hello,
            "watch": self._watch,
            "move": self._move,
            "check": self._check,
            "ready": self._ready,
            "rematch": self._rematch,
            "leave": self._leave,
            "start": self._start,
            "ping": self._ping,
            "review": self._review,
        }

    # -- connections ---------------------------------------------------------------

    def open(self, send: Callable[[str], None], *, address: str = "") -> Connection:
        """A new client whose messages go to *send*, from the network *address*.

        The limits on creating tables and slow bots hold per *address*, whatever
        the number of its connections (``""``, unknown, is one address too).

        Example:
            >>> sent = []
            >>> hub = Hub()
            >>> hub.receive(hub.open(sent.append, address="::1"), '{"v": 1, "type": "ping"}')
            >>> sent
            ['{"v":1,"type":"pong"}']
        """
        return Connection(
            send=send, tokens=self.burst, stamp=self.now(), address=address
        )

    def close(self, client: Connection) -> None:
        """The client is gone: its seat is kept for the grace period.

        Example:
            >>> from tienlen import CLASSIC
            >>> hub = Hub()
            >>> table = hub.create_table(CLASSIC, seed=1, table_id="t")
            >>> client = hub.open(lambda text: None)
            >>> hub.receive(client, '{"type": "join", "table": "t", "seat": 0}')
            >>> hub.close(client)
            >>> table.seats[0].away_since is not None, table.seats[0].taken_over
            (True, False)
        """
        if client.closed:
            return
        client.closed = True
        self.reviews.withdraw(client)  # a review it alone waited for stops
        table = client.table
        if table is None:
            return
        table.connections.remove(client)
        table.seen = self.now()
        if client.seat is not None:
            seat = table.seats[client.seat]
            seat.connections -= 1
            if seat.connections == 0 and seat.token_hash is not None:
                seat.away_since = self.now()
                self._broadcast(table)

    def _emit(self, client: Connection, message: Json) -> None:
        message = {"v": protocol.VERSION, **message}
        text = dump(message)
        if self.tap is not None:
            self.tap(client, text, client.table)
        client.send(text)

    def _error(self, client: Connection, error: ServerError, kind: str) -> None:
        message: Json = {"type": "error", "code": error.code, "message": str(error)}
        if kind:
            message["in"] = kind
        if error.refusal is not None:
            message["refusal"] = protocol.refusal_json(error.refusal)
        if error.localized is not None:
            message["localized"] = dict(error.localized)
        self._emit(client, message)

    def _limited(self, client: Connection) -> bool:
        now = self.now()
        client.tokens = min(
            self.burst, client.tokens + (now - client.stamp) * self.rate
        )
        client.stamp = now
        if client.tokens < 1:
            return True
        client.tokens -= 1
        return False

    def receive(self, client: Connection, data: str | bytes) -> None:
        """Handle one message from *client*: act on it, or answer with an error.

        A refused message changes nothing and is answered on that connection only.

        Example:
            >>> hub, sent = Hub(), []
            >>> hub.receive(hub.open(sent.append), '{"v": 1, "type": "teleport"}')
            >>> print(sent[0])
            {"v":1,"type":"error","code":"unknown-type","message":"no message type 'teleport'"}
        """
        try:
            message = self._decode(client, data)
        except ServerError as error:
            self._error(client, error, "")
            return
        kind = str(message["type"])
        try:
            self._handlers[kind](client, message)
        except ServerError as error:
            self._error(client, error, kind)
        except Exception:  # noqa: BLE001  # a bug must not kill the connection's handler
            _log.exception("tienlen server: a %s message failed", kind)
            self._error(client, ServerError("internal", "the server failed"), kind)

    def _decode(self, client: Connection, data: str | bytes) -> dict[str, object]:
        """The message *data* holds, with a known ``type``.

        Raises:
            ServerError: a flood, an oversized message, not strict JSON (a key
                twice, ``NaN``: `read_json`), not an object, no type, a ``v`` that
                is not the integer 1, or an unknown type.
        """
        if self._limited(client):
            raise ServerError("rate-limited", "too many messages: slow down")
        size = len(data) if isinstance(data, bytes) else len(data.encode())
        if size > protocol.MAX_MESSAGE:
            raise ServerError(
                "too-large",
                f"message of {size} bytes; the limit is {protocol.MAX_MESSAGE}",
            )
        try:
            message = read_json(data)
        except RecordError as error:
            raise ServerError("bad-json", error.problem) from None
        if type(message) is not dict:
            raise ServerError("bad-message", "a message is a JSON object")
        kind = message.get("type")
        if not isinstance(kind, str):
            raise ServerError("bad-message", "the message has no type")
        version = message.get("v", protocol.VERSION)
        if type(version) is not int or version != protocol.VERSION:
            raise ServerError("bad-version", 'this server speaks protocol "v": 1')
        if kind not in self._handlers:
            raise ServerError("unknown-type", f"no message type {kind[:40]!r}")
        return message

    # -- tables --------------------------------------------------------------------

    def create_table(
        self,
        rules: BaseRules,
        players: int = 4,
        *,
        bots: Sequence[str] = (),
        hands: int | None = None,
        seed: int | None = None,
        grace: float | None = None,
        clock: float | None = None,
        table_id: str | None = None,
        permanent: bool = False,
        open_seats: Collection[int] = (),
    ) -> Table:
        """A new table with its first hand dealt; every seat played by its bot until claimed.

        *seed* fixes every deal of the table (for tests and demonstrations: the
        operator's choice, never a client's); ``None`` draws one from
        ``random.SystemRandom``. A *permanent* table is never removed for being idle.
        The seats of *open_seats* wait for people: the table deals its first hand
        once each is taken (`Table.waiting`), or its creator starts it (``start``).

        Raises:
            ServerError: bad settings, or the process holds `max_tables` tables.

        Example:
            >>> from tienlen import POKER
            >>> table = Hub().create_table(POKER, 4, bots=["random"] * 4, table_id="p", hands=5)
            >>> table.id, table.hands, [seat.bot for seat in table.seats]
            ('p', 5, ['random', 'random', 'random', 'random'])
        """
        if len(self.tables) >= self.max_tables:
            raise ServerError("full", "this server holds no more tables")
        try:
            match = Match.start(rules, players, seed)
        except (TienLenError, TypeError) as error:
            raise ServerError("bad-rules", str(error)) from None
        names = list(bots) or ["greedy"] * players
        if len(names) != players or any(name not in BOTS for name in names):
            raise ServerError(
                "bad-message", f"bots: one of {sorted(BOTS)} per seat ({players})"
            )
        people = set(open_seats)
        if not people <= set(range(players)):
            raise ServerError("bad-message", f"open seats: 0 to {players - 1}")
        seats = [
            Seat(index, bot, person=index in people, open=index in people)
            for index, bot in enumerate(names)
        ]
        table = Table(
            id=table_id or secrets.token_urlsafe(6),
            rules=rules,
            seats=seats,
            match=match,
            state=match.deal(),
            hands=hands,
            grace=self.grace if grace is None else grace,
            clock=self.clock_seconds if clock is None else clock,
            rng=self._bot_rng(),
            permanent=permanent,
            seen=self.now(),
        )
        self._save_meta(table, required=True)
        self.tables[table.id] = table
        if not table.waiting:
            self._started(table)
        return table

    def _table(self, message: Mapping[str, object]) -> Table:
        name = message.get("table")
        table = self.tables.get(name) if isinstance(name, str) else None
        if table is None:
            raise ServerError("no-table", f"no table {str(name)[:40]!r}")
        return table

    def _seat_index(self, table: Table, message: Mapping[str, object]) -> int:
        seat = message.get("seat")
        if type(seat) is not int or not 0 <= seat < table.players:
            raise ServerError("no-seat", f"no seat {str(seat)[:20]!r} at this table")
        return seat

    def _create(self, client: Connection, message: dict[str, object]) -> None:
        rules = _asked_rules(message)
        plan = _seat_plan(message)
        players = message.get("players", 4 if plan is None else len(plan))
        bots = message.get("bots", ())
        hands = message.get("hands")
        if "seed" in message:
            raise ServerError(
                "bad-message", "seed: the server deals, a client cannot choose the seed"
            )
        if client.created >= self.tables_per_connection:
            raise ServerError(
                "too-many-tables",
                f"a connection creates at most {self.tables_per_connection} tables",
            )
        if type(players) is not int or not 2 <= players <= 8:
            raise ServerError("bad-message", "players must be 2 to 8")
        if not isinstance(bots, list | tuple) or not all(
            isinstance(b, str) for b in bots
        ):
            raise ServerError("bad-message", "bots must be a list of bot names")
        if hands is not None and (type(hands) is not int or not 1 <= hands <= 10_000):
            raise ServerError("bad-message", "hands must be 1 to 10000, or null")
        grace = _settings_number(message, "grace", self.grace, low=0)
        if grace is None:
            raise ServerError("bad-message", "grace must be a number")
        clock = _settings_number(message, "clock", self.clock_seconds, low=1)
        names = [str(b) for b in bots]
        people: list[int] = []
        if plan is not None:
            if len(plan) != players:
                raise ServerError(
                    "bad-message", f"seats: one per seat ({players}), not {len(plan)}"
                )
            people = [index for index, kind in enumerate(plan) if kind == OPEN]
            names = ["greedy" if kind == OPEN else kind for kind in plan]
        bucket = self._may_create(client.address, names)
        table = self.create_table(
            rules,
            players,
            bots=names,
            hands=hands,
            seed=None if self.seeds is None else self.seeds(),
            grace=grace,
            clock=clock,
            open_seats=people,
        )
        table.owner = client.address
        bucket.take()
        self._server_creates.take()
        client.created += 1
        created: Json = {"type": "created", "table": table.id}
        if table.waiting:
            host = secrets.token_urlsafe(32)
            table.host_hash = _hash(host)
            created["host"] = host
        self._emit(client, created)

    def _may_create(self, address: str, bots: Sequence[str]) -> _Bucket:
        """*address*'s creation bucket, when it may create a table with *bots* now.

        Raises:
            ServerError: ``too-many-tables``, ``too-many-bots``, ``rate-limited``
                (this address) or ``busy`` (every address): nothing is used up.
        """
        owned = [table for table in self.tables.values() if table.owner == address]
        if len(owned) >= self.tables_per_address:
            raise ServerError(
                "too-many-tables",
                f"your address holds {len(owned)} tables, the most it may: "
                "wait for one to end",
            )
        slow = sum(seat.bot in _SLOW for table in owned for seat in table.seats)
        asked = sum(bot in _SLOW for bot in bots)
        if asked and slow + asked > self.slow_bots_per_address:
            raise ServerError(
                "too-many-bots",
                f"the tables of your address may have {self.slow_bots_per_address} "
                f"search bots (pimc, ismcts) at most; they have {slow}",
            )
        now = self.now()
        bucket = self._creates.get(address)
        if bucket is None:
            if len(self._creates) >= _ADDRESSES_KEPT:
                self._forget_full_buckets(now)
            bucket = self._creates[address] = _Bucket(float(self.create_burst), now)
        rate = self.creates_per_minute / 60
        wait = bucket.wait(now, rate, self.create_burst)
        if wait > 0:
            raise ServerError(
                "rate-limited",
                f"your address creates {self.creates_per_minute:g} tables a minute "
                f"at most: try again in {math.ceil(wait)} s",
            )
        rate = self.server_creates_per_minute / 60
        if self._server_creates.wait(now, rate, self.server_create_burst) > 0:
            raise ServerError(
                "busy", "the server creates no more tables now: try again shortly"
            )
        return bucket

    def _forget_full_buckets(self, now: float) -> None:
        """Drop the creation buckets that refilled: they hold nothing to remember."""
        rate = self.creates_per_minute / 60
        kept = {}
        for address, bucket in self._creates.items():
            bucket.wait(now, rate, self.create_burst)
            if bucket.tokens < self.create_burst:
                kept[address] = bucket
        self._creates = kept

    def _attach(self, client: Connection, table: Table, seat: int | None) -> None:
        if client.table is table and client.seat is None and seat is not None:
            table.connections.remove(client)  # a spectator sits down
            client.table = None
        if client.table is not None:
            raise ServerError("already-seated", "this connection is at a table already")
        client.table, client.seat = table, seat
        table.connections.append(client)
        if seat is not None:
            table.seats[seat].connections += 1
            table.seats[seat].away_since = None

    def _join(self, client: Connection, message: dict[str, object]) -> None:
        table = self._table(message)
        index = self._seat_index(table, message)
        seat = table.seats[index]
        if seat.token_hash is not None:
            raise ServerError("seat-taken", f"seat {index} is taken")
        if client.table is not None and (
            client.table is not table or client.seat is not None
        ):
            raise ServerError("already-seated", "this connection is at a table already")
        name = message.get("name", "")
        role = message.get("as", "human")
        if not isinstance(name, str) or len(name) > 40:
            raise ServerError(
                "bad-message", "name must be text of at most 40 characters"
            )
        try:
            name = seat_name(name, BOTS)
        except NameRefusedError as error:
            raise ServerError("bad-name", str(error)) from None
        if role not in {"human", "bot"}:
            raise ServerError("bad-message", 'as must be "human" or "bot"')
        token = secrets.token_urlsafe(32)
        before = (seat.token_hash, seat.name, seat.remote, seat.taken_over, seat.open)
        seat.token_hash, seat.name, seat.remote = _hash(token), name, str(role)
        seat.taken_over = seat.moved = seat.open = False
        try:
            self._save_meta(table, required=True)
        except ServerError:
            (seat.token_hash, seat.name, seat.remote, seat.taken_over, seat.open) = (
                before
            )
            raise
        self._attach(client, table, index)
        self._emit(
            client, {"type": "joined", "table": table.id, "seat": index, "token": token}
        )
        if before[4] and not table.waiting:  # the last open seat: the hand is dealt
            self._begin(table)
            return
        self._full(client)
        self._broadcast(table, skip=client)
        self._next_hand(table)
        self._advance(table)

    def _hello(self, client: Connection, message: dict[str, object]) -> None:
        table = self._table(message)
        index = self._seat_index(table, message)
        seat = table.seats[index]
        token = message.get("token")
        if (
            not isinstance(token, str)
            or seat.token_hash is None
            or not hmac.compare_digest(_hash(token), seat.token_hash)
        ):
            raise ServerError("bad-credential", "wrong credential for this seat")
        self._attach(client, table, index)
        seat.taken_over = False
        self._full(client)
        self._broadcast(table, skip=client)
        self._next_hand(table)
        self._advance(table)

    def _watch(self, client: Connection, message: dict[str, object]) -> None:
        table = self._table(message)
        self._attach(client, table, None)
        self._full(client)

    def _seated(self, client: Connection) -> tuple[Table, int]:
        if client.table is None or client.seat is None:
            raise ServerError("not-seated", "join or resume a seat first")
        return client.table, client.seat

    def _parse(self, table: Table, seat: int, message: dict[str, object]) -> Action:
        if table.between:
            raise ServerError("between-hands", "the hand is over")
        if table.waiting:
            raise ServerError(
                "waiting",
                f"no hand yet: the table waits for {table.open_seats} players",
            )
        index, text = message.get("index"), message.get("action")
        self._check_ply(table, message.get("ply"), by_index=index is not None)
        if index is not None:
            legal = table.legal(seat)
            if type(index) is not int or not 0 <= index < len(legal):
                raise ServerError("bad-action", f"no legal action {str(index)[:20]}")
            return legal[index]
        if not isinstance(text, str) or len(text) > 200:
            raise ServerError("bad-action", "action: card text or 'pass'")
        try:
            return table.state.parse_action(text, seat)
        except IllegalPlayError as error:
            raise ServerError("illegal", error.message(), error) from None
        except TienLenError as error:
            raise ServerError("bad-action", str(error)[:200]) from None

    @staticmethod
    def _check_ply(table: Table, ply: object, *, by_index: bool) -> None:
        """Refuse a move chosen at another ply than the hand's (a replayed message).

        An index names an action of one ply's legal list, so it comes with that ply.

        Raises:
            ServerError: ``bad-message`` for a ply that is no integer; ``stale`` for
                another ply, or an index without its ply.
        """
        now = len(table.state.history)
        if ply is None:
            if by_index:
                raise ServerError(
                    "stale", f"an index needs the ply it was chosen at (now {now})"
                )
            return
        if type(ply) is not int:
            raise ServerError("bad-message", "ply must be an integer")
        if ply != now:
            raise ServerError("stale", f"the hand is at ply {now}")

    def _move(self, client: Connection, message: dict[str, object]) -> None:
        table, seat = self._seated(client)
        action = self._parse(table, seat, message)
        try:
            table.state.check(action)
        except IllegalPlayError as error:
            raise ServerError("illegal", error.message(), error) from None
        self._apply(table, action)
        if not table.seats[seat].moved:
            table.seats[seat].moved = True  # the table is kept longer (`_keep`)
            self._save_meta(table)

    def _check(self, client: Connection, message: dict[str, object]) -> None:
        table, seat = self._seated(client)
        action = self._parse(table, seat, message)
        answer: Json = {"type": "checked", "action": str(action), "legal": True}
        try:
            table.state.check(action)
        except IllegalPlayError as error:
            answer.update(legal=False, refusal=protocol.refusal_json(error))
        self._emit(client, answer)

    def _ready(self, client: Connection, message: dict[str, object]) -> None:
        del message
        table, seat = self._seated(client)
        if not table.between or table.match_over:
            raise ServerError("not-between-hands", "no hand to start now")
        table.ready.add(seat)
        self._next_hand(table)

    def _rematch(self, client: Connection, message: dict[str, object]) -> None:
        del message
        table, _ = self._seated(client)
        if not table.match_over:
            raise ServerError("not-over", "the match is not over")
        table.match = Match.start(table.rules, table.players)
        table.ready.clear()
        table.number += 1
        table.match_start = table.number
        self._deal(table)

    def _leave(self, client: Connection, message: dict[str, object]) -> None:
        del message
        table, index = self._seated(client)
        seat = table.seats[index]
        seat.token_hash, seat.remote, seat.name, seat.taken_over = None, "", "", False
        seat.connections, seat.away_since, seat.moved = 0, None, False
        seat.open = seat.person and table.waiting  # a person's seat waits again
        for other in table.connections:
            if other.seat == index:
                other.seat = None  # a spectator now
        self._emit(client, {"type": "left", "seat": index})
        self._save_meta(table)
        self._broadcast(table)
        self._advance(table)

    def _start(self, client: Connection, message: dict[str, object]) -> None:
        """The creator deals now: house bots take the seats still open (greedy)."""
        table, _ = self._seated(client)
        if not table.waiting:
            raise ServerError("not-waiting", "the table is not waiting for players")
        host = message.get("host")
        if (
            not isinstance(host, str)
            or table.host_hash is None
            or not hmac.compare_digest(_hash(host), table.host_hash)
        ):
            raise ServerError(
                "not-host", "only the table's creator may start it with seats open"
            )
        opened = [seat for seat in table.seats if seat.open]
        for seat in opened:
            seat.open = False
        try:
            self._save_meta(table, required=True)
        except ServerError:
            for seat in opened:
                seat.open = True
            raise
        self._begin(table)

    def _begin(self, table: Table) -> None:
        """Every open seat is taken: deal the first hand to everyone at the table."""
        table.host_hash = None
        self._deal(table)

    def _ping(self, client: Connection, message: dict[str, object]) -> None:
        del message
        self._emit(client, {"type": "pong"})

    # -- reviews -------------------------------------------------------------------

    def _review(self, client: Connection, message: dict[str, object]) -> None:
        """Review a finished hand of the client's table: ``review`` once it is made.

        Made once in the reviews' pool (`ReviewDesk`), then cached; while it is
        made the client gets ``reviewing``, then ``reviewProgress`` now and then,
        and whoever asks for it too waits for it. A client waits for one review at
        most: asking for another gives up the one it waited for, which stops if
        nobody else waits for it (`ReviewDesk.withdraw`).
        """
        table = client.table
        if table is None:
            raise ServerError("not-seated", "sit at or watch a table first")
        hand = message.get("hand")
        if type(hand) is not int:
            raise ServerError("bad-message", "hand must be a hand's number")
        if not table.between:
            raise ServerError(
                "hand-in-play", "a hand is in play: hands are reviewed between hands"
            )
        text = table.finished.get(hand)
        if text is None:
            raise ServerError(
                "no-hand", f"no finished hand {str(hand)[:20]} kept at this table"
            )
        key = (table.id, hand)
        if self.reviews.waited_for(client) == key:
            self._emit(client, {"type": "reviewing", "hand": hand})  # asked again
            return
        body = self.reviews.cached(key)
        if body is not None:
            self.reviews.withdraw(client)
            self._emit(client, {"type": "review", "hand": hand, **body})
            return
        pending = self.reviews.pending(key)
        if pending is None:
            if self.reviews.busy(client.address, besides=client):
                raise ServerError(
                    "review-busy", "a review asked from your address is being made"
                )
            if self.reviews.full:
                raise ServerError("busy", "too many reviews are being made: try later")
            self.reviews.withdraw(client)
            try:
                pending = self.reviews.start(key, text, client)
            except (RuntimeError, concurrent.futures.BrokenExecutor):
                _log.exception("tienlen server: the reviews' pool failed")
                raise ServerError("internal", "the review could not start") from None
        else:
            self.reviews.withdraw(client)
            pending.waiting.append(client)
        self._emit(client, {"type": "reviewing", "hand": hand})

    def _review_progress(self, report: Report) -> None:
        """Tell a review's waiters how far it is: ``reviewProgress`` (no card)."""
        message: Json = {
            "type": "reviewProgress",
            "hand": report.key[1],
            "done": report.done,
            "total": report.total,
        }
        for client in report.waiting:
            if isinstance(client, Connection) and not client.closed:
                self._emit(client, message)

    def _reviewed(self) -> None:
        """Tell the reviews' progress; send the reviews made to who waits, between hands.

        Progress names no card and goes at once. A review names the cards of a
        finished hand: it waits for the end of the hand its client's table plays,
        so that no message of a hand in play names a card.
        """
        for report in self.reviews.progress(self.now()):
            self._review_progress(report)
        for (_, hand), body, waiting, last in self.reviews.finished():
            if last is not None:
                self._review_progress(last)
            for client in waiting:
                if not isinstance(client, Connection):
                    continue  # only _review puts clients there
                if body is None:
                    error = ServerError("internal", "the review failed")
                    self._error(client, error, "review")
                else:
                    self._held.append(
                        (client, {"type": "review", "hand": hand, **body})
                    )
        held, self._held = self._held, []
        for client, message in held:
            if client.closed:
                continue
            if client.table is not None and not client.table.between:
                self._held.append((client, message))
                continue
            self._emit(client, message)

    # -- play ----------------------------------------------------------------------

    def _started(self, table: Table) -> None:
        """A hand was dealt: save it, and end it at once after an instant win."""
        now = self.now()
        table.turn_since = table.changed = now
        self._save_hand(table, table.state)
        if table.state.is_over:
            self._hand_over(table)
            return
        self._advance(table)

    def _apply(self, table: Table, action: Action) -> None:
        """Play *action* (checked legal): saved first, then applied and broadcast.

        Raises:
            ServerError: ``internal``, the storage failed: nothing changed.
        """
        state = table.state.apply(action)
        self._save_hand(table, state, required=True)
        if table.state.top is None:  # nothing to beat: this action leads a trick
            table.trick_start = len(table.state.history)
        table.state = state
        table.turn_since = table.changed = self.now()
        if table.state.is_over:
            self._broadcast(table)
            self._hand_over(table)
            return
        self._broadcast(table)
        self._advance(table)

    def _hand_over(self, table: Table) -> None:
        state = table.state
        result = state.final_result()  # called once the hand is over
        table.match = table.match.record(state)
        table.between = True
        table.ready.clear()
        self._save_meta(table)
        data = to_json(record(state, seed=None))
        ended: Json = {
            "type": "handEnd",
            "hand": table.number,
            "result": protocol.result_json(result),
            "totals": list(table.match.totals),
            "matchOver": table.match_over,
            "dealt": [str(hand) for hand in state.dealt],
            "left": [str(hand) for hand in state.hands],
            "record": data,
        }
        table.last_end = ended
        table.finished[table.number] = json.dumps(data)
        for number in sorted(table.finished)[:-HANDS_KEPT]:
            del table.finished[number]
        for client in list(table.connections):
            self._emit(client, ended)
        if table.match_over:
            over: Json = {
                "type": "matchEnd",
                "totals": list(table.match.totals),
                "results": [protocol.result_json(r) for r in table.match.games],
            }
            for client in list(table.connections):
                self._emit(client, over)
            return
        self._next_hand(table)

    def _next_hand(self, table: Table) -> None:
        """Deal the next hand once every connected player is ready.

        A table where no player is connected waits: bots do not play on alone.
        """
        present = {
            seat.index
            for seat in table.seats
            if not seat.by_bot and seat.connections > 0
        }
        if table.between and not table.match_over and present <= table.ready:
            if not present:
                return
            table.number += 1
            self._deal(table)

    def _deal(self, table: Table) -> None:
        table.state = table.match.deal()
        table.trick_start = 0
        table.between = False
        table.last_end = None
        table.dealt = None
        table.polled = None
        self._save_meta(table)
        for client in table.connections:
            client.ply, client.hand = 0, table.number
        for client in list(table.connections):
            self._full(client)
        self._started(table)

    @staticmethod
    def _bot_rng() -> random.Random:
        """A table's source for its house bots' choices, drawn from `secrets`.

        Never the deal's seed: the moves of random bots would reveal the seed's
        generator, and with it every later deal.
        """
        return random.Random(secrets.randbits(128))

    def _bot(self, table: Table, seat: int) -> Player:
        bot = table.bots.get(seat)
        if bot is None:
            bot = table.bots[seat] = BOTS[table.seats[seat].bot]()
        return bot

    def _bot_action(self, table: Table) -> Action | None:
        """The next move of a bot-played seat now, if any (jump-ins asked first)."""
        state = table.state
        if table.between or state.to_act is None or table.thinking is not None:
            return None
        if table.waiting:
            return None  # nothing is dealt yet
        if all(seat.token_hash is None for seat in table.seats):
            return None  # nobody sits at the table: the bots wait
        if table.polled is not state:
            table.polled = state
            groups: dict[int, list[Action]] = {}
            for action in state.legal_actions():
                if action.player != state.to_act:
                    groups.setdefault(action.player, []).append(action)
            for seat, plays in groups.items():
                if not table.seats[seat].by_bot or table.seats[seat].bot in _SLOW:
                    continue  # a slow bot is asked on its own turn, off the event loop
                offer = (*plays, Pass(player=seat))
                choice = self._bot(table, seat).act(
                    Observation.of(state, seat), offer, table.rng
                )
                if type(choice) is Play and choice in plays:
                    return choice
        seat = state.to_act
        info = table.seats[seat]
        clocked = (
            table.clock is not None and self.now() - table.turn_since >= table.clock
        )
        if not info.by_bot and not clocked:
            return None
        if info.bot in _SLOW:
            self._think(table, state, seat)
            return None
        own = [action for action in state.legal_actions() if action.player == seat]
        return self._bot(table, seat).act(Observation.of(state, seat), own, table.rng)

    def _think(self, table: Table, state: GameState, seat: int) -> None:
        """Queue a slow bot's decision for *seat*: one per table, asked by `_dispatch`."""
        table.thinking = (state, seat, None)
        if table.id not in self._waiting:
            self._waiting.add(table.id)
            self._asking.setdefault(table.owner, collections.deque()).append(table)
        self._dispatch()

    def _queued(self) -> Iterator[Table]:
        """The tables waiting for a worker, in turn.

        Owner addresses take turns: next is the address served longest ago (or
        never), and each address's tables go in the order they asked.
        """
        while self._asking:
            owner = min(self._asking, key=lambda address: self._served.get(address, 0))
            waiting = self._asking[owner]
            table = waiting.popleft()
            if not waiting:
                del self._asking[owner]
            self._waiting.discard(table.id)
            yield table

    def _dispatch(self) -> None:
        """Give free workers the next slow bots' decisions (`_queued`).

        At most `slow_workers` decisions are out at once, so a table queued now
        waits for one decision of each other address at most, not for all of them.
        """
        self._running = {future for future in self._running if not future.done()}
        if len(self._served) > _ADDRESSES_KEPT:
            owners = {table.owner for table in self.tables.values()}
            self._served = {a: n for a, n in self._served.items() if a in owners}
        queued = self._queued()
        while len(self._running) < self.slow_workers:
            table = next(queued, None)
            if table is None:
                return
            thinking = table.thinking
            if (
                self.tables.get(table.id) is not table
                or thinking is None
                or thinking[2] is not None
            ):
                continue  # removed, or asked already
            state, seat, _ = thinking
            if state is not table.state:
                table.thinking = None  # the hand moved on: asked again if still due
                continue
            own = [action for action in state.legal_actions() if action.player == seat]
            bot = self._bot(table, seat)
            rng = random.Random(table.rng.random())
            try:
                if self._pool is None:
                    self._pool = self.slow_pool(self.slow_workers)
                future = self._pool.submit(
                    bot.act, Observation.of(state, seat), own, rng
                )
            except (RuntimeError, concurrent.futures.BrokenExecutor):
                _log.exception("tienlen server: the slow bots' pool failed")
                self._drop_pool()
                table.thinking = None  # asked again at the next tick
                continue
            table.thinking = (state, seat, future)
            self._running.add(future)
            self._turns += 1
            self._served[table.owner] = self._turns

    def _drop_pool(self) -> None:
        pool, self._pool = self._pool, None
        self._running.clear()
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def _thought(self, table: Table) -> None:
        """Play a slow bot's decision once it is there (a broken bot becomes greedy)."""
        if table.thinking is None:
            return
        state, seat, future = table.thinking
        if future is None:
            if state is not table.state:
                table.thinking = None  # stale before a worker took it
            return
        if not future.done():
            return
        table.thinking = None
        try:
            action = future.result()
            if state is table.state:
                table.state.check(action)
        except (concurrent.futures.CancelledError, concurrent.futures.BrokenExecutor):
            if self._pool is not None and future in self._running:
                self._drop_pool()  # a worker died: a new pool asks again
        except Exception:  # noqa: BLE001  # a broken bot: greedy plays the seat on
            table.seats[seat].bot = "greedy"
            table.bots.pop(seat, None)
        else:
            if state is table.state:
                with contextlib.suppress(ServerError):  # logged; asked again
                    self._apply(table, action)

    def _advance(self, table: Table) -> None:
        """Play the bots' moves that are due now (all of them when there is no delay)."""
        while True:
            if self.bot_delay and self.now() - table.changed < self.bot_delay:
                return
            action = self._bot_action(table)
            if action is None:
                return
            try:
                self._apply(table, action)
            except ServerError:
                return  # the storage failed (logged): the bot tries again at a tick
            if self.bot_delay:
                return

    def tick(self) -> None:
        """Run the timers: delayed and slow bots, the move clock, the grace periods.

        Example:
            >>> from tienlen import CLASSIC
            >>> now = [0.0]
            >>> hub = Hub(clock=lambda: now[0], grace=30)
            >>> table = hub.create_table(CLASSIC, seed=1, table_id="t")
            >>> client = hub.open(lambda text: None)
            >>> hub.receive(client, '{"type": "join", "table": "t", "seat": 0}')
            >>> hub.close(client)
            >>> now[0] = 31.0
            >>> hub.tick()
            >>> table.seats[0].taken_over
            True
        """
        now = self.now()
        for table in list(self.tables.values()):
            if table.connections:
                table.seen = now
            elif not table.permanent and now - table.seen >= self._keep(table):
                self._remove(table)
                continue
            if table.meta_unsaved:
                self._save_meta(table)  # the seat flags a move set, say
            self._thought(table)
            changed = False
            for held in table.seats:
                if (
                    held.away_since is not None
                    and not held.taken_over
                    and held.token_hash is not None
                    and now - held.away_since >= table.grace
                ):
                    held.taken_over = True
                    table.ready.discard(held.index)
                    changed = True
            if changed:
                self._broadcast(table)
                self._next_hand(table)
            self._advance(table)
        self._dispatch()
        self._reviewed()

    def _keep(self, table: Table) -> float:
        """How long *table* is kept with nobody connected to it.

        A seat claimed by a person keeps it for `abandoned` only once that person
        moved there: a seat claimed and left does not hold a table for a day.
        """
        if any(
            s.token_hash is not None and s.remote == "human" and s.moved
            for s in table.seats
        ):
            return self.abandoned
        return self.idle

    def _remove(self, table: Table) -> None:
        """Forget an idle table, in memory and in the storage."""
        del self.tables[table.id]
        self.reviews.forget(table.id)
        if table.thinking is not None and table.thinking[2] is not None:
            table.thinking[2].cancel()
        table.thinking = None
        if self.storage is not None:
            try:
                self.storage.delete_table(table.id)
            except Exception:  # noqa: BLE001  # removed again after the next restart
                _log.exception("tienlen server: table %r not deleted", table.id)

    def shutdown(self) -> None:
        """Stop the slow bots' workers (the app calls it on exit).

        The hub may still be used afterwards: a slow bot then starts a new pool.

        Example:
            >>> hub = Hub()
            >>> hub.shutdown()
            >>> hub.shutdown()  # twice is fine
        """
        pool, self._pool = self._pool, None
        self._running.clear()
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        self.reviews.shutdown()

    async def run(self, interval: float = 0.05) -> None:
        """Call `tick` every *interval* seconds, until cancelled.

        Example:
            >>> import asyncio
            >>> async def briefly():
            ...     task = asyncio.create_task(Hub().run(0.01))
            ...     await asyncio.sleep(0.05)
            ...     task.cancel()
            ...     try:
            ...         await task
            ...     except asyncio.CancelledError:
            ...         return "stopped"
            >>> asyncio.run(briefly())
            'stopped'
        """
        while True:
            await asyncio.sleep(interval)
            try:
                self.tick()
            except Exception:  # noqa: BLE001  # a failing store must not stop every timer
                _log.exception("tienlen server: a timer failed")

    # -- views ---------------------------------------------------------------------

    def _view(
        self,
        client: Connection,
        table: Table,
        legal: dict[int, list[str]] | None = None,
    ) -> Json:
        """*client*'s view of *table*: its seat's, or the public one.

        *legal* maps seats to their legal actions in notation, when the caller has
        them for every seat (`_legal_by_seat`).
        """
        seat = client.seat
        state = table.state
        if table.waiting:  # nothing dealt: nobody to act, no cards
            view = protocol.public_view(Observation.of(state, 0))
            view.update(toAct=None, lastPlayer=None, counts=table.counts())
            if seat is not None:  # a seat's view, of an empty hand
                view.update(
                    seat=seat,
                    hand="",
                    legal=[],
                    jumpingIn=False,
                    mustInclude=None,
                    mayDecline=False,
                    mayContinue=False,
                )
            return view
        if seat is None:
            return protocol.public_view(Observation.of(state, 0))
        if legal is None:
            own = [str(action) for action in table.legal(seat)]
        else:
            own = legal.get(seat, [])
        return protocol.seat_view(Observation.of(state, seat), own)

    @staticmethod
    def _legal_by_seat(table: Table) -> dict[int, list[str]]:
        """Every seat's legal actions now, from one `GameState.legal_actions` call."""
        legal: dict[int, list[str]] = {}
        if table.between or table.waiting or table.state.to_act is None:
            return legal
        for action in table.state.legal_actions():
            legal.setdefault(action.player, []).append(str(action))
        return legal

    def _clock_left(self, table: Table) -> float | None:
        """Seconds the seat to act has left on the move clock; ``None`` without one."""
        if table.clock is None or table.between or table.state.to_act is None:
            return None
        if table.waiting:
            return None
        return round(max(0.0, table.clock - (self.now() - table.turn_since)), 1)

    def _full(self, client: Connection) -> None:
        table = client.table
        assert table is not None  # only for clients at a table
        history = table.state.history
        client.ply, client.hand = len(history), table.number
        message: Json = {
            "type": "gameFull",
            "table": table.info(),
            "you": client.seat,
            "ply": len(history),
            "history": [protocol.action_json(a) for a in history],
            "trickStart": table.trick_start,
            "clockLeft": self._clock_left(table),
            "state": self._view(client, table),
        }
        if table.last_end is not None:
            message["ended"] = table.last_end
        self._emit(client, message)

    def _broadcast(self, table: Table, skip: Connection | None = None) -> None:
        history = table.state.history
        counts = table.counts()
        seats: object = [seat.to_json(counts[seat.index]) for seat in table.seats]
        legal = self._legal_by_seat(table)
        clock_left = self._clock_left(table)
        for client in list(table.connections):
            if client is skip:
                continue
            new = history[client.ply :] if client.hand == table.number else history
            client.ply, client.hand = len(history), table.number
            self._emit(
                client,
                {
                    "type": "gameState",
                    "hand": table.number,
                    "ply": len(history),
                    "actions": [protocol.action_json(a) for a in new],
                    "trickStart": table.trick_start,
                    "clockLeft": clock_left,
                    "seats": seats,
                    "state": self._view(client, table, legal),
                },
            )

    # -- storage -------------------------------------------------------------------

    def _stored(
        self, table: Table, write: Callable[[], None], *, required: bool
    ) -> None:
        """Run a storage *write*; a failure is logged, and refused if *required*.

        Raises:
            ServerError: ``internal``, when *required* and the storage failed.
        """
        try:
            write()
        except Exception:  # noqa: BLE001  # any store's failure
            _log.exception("tienlen server: saving table %r failed", table.id)
            if required:
                raise ServerError(
                    "internal", "the server could not save this: try again"
                ) from None

    def _save_meta(self, table: Table, *, required: bool = False) -> None:
        """Save *table*'s `Table.meta`; after a failure `tick` tries again."""
        storage = self.storage
        if storage is not None:
            meta = table.meta()

            def write() -> None:
                storage.save_table(table.id, meta)
                table.meta_unsaved = False

            table.meta_unsaved = True
            self._stored(table, write, required=required)

    def _save_hand(
        self, table: Table, state: GameState, *, required: bool = False
    ) -> None:
        """Save *state*, the hand in play, as its game record (before every action).

        Raises:
            ServerError: ``internal``, when *required* and the storage failed.
        """
        storage = self.storage
        if storage is None:
            return
        if state.is_over:
            text = dumps(record(state))  # the record with its result, replay-checked
        else:
            if table.dealt is None or len(state.history) == 0:
                table.dealt = to_json(record(state))
            text = json.dumps(
                {**table.dealt, "actions": [record_action(a) for a in state.history]}
            )
        self._stored(
            table,
            lambda: storage.save_hand(
                table.id, table.number, text, finished=state.is_over
            ),
            required=required,
        )

    def restore(self) -> int:
        """Load every saved table the storage can rebuild, each where it was; returns how many.

        A table that cannot be rebuilt (its records are corrupt) is set aside with
        `Storage.quarantine`, logged with its id and the reason, and listed in
        `quarantined`; every other table is restored.

        A table where nobody who sat down ever moved is deleted instead (its seats
        would not keep it past `idle`); the permanent table is always restored.

        Raises:
            StorageError: the storage cannot be read at all (a damaged file).

        Example:
            >>> from tienlen import CLASSIC
            >>> from tienlen.server.storage import SQLiteStorage
            >>> storage = SQLiteStorage(":memory:")
            >>> hub = Hub(storage)
            >>> hub.create_table(CLASSIC, seed=1, table_id="t", permanent=True).number
            1
            >>> hub.create_table(CLASSIC, seed=2, table_id="never played").number
            1
            >>> storage.save_table("bad", {"rules": "?"})
            >>> again = Hub(storage)
            >>> again.restore(), list(again.tables), list(again.quarantined)
            (1, ['t'], ['bad'])
        """
        if self.storage is None:
            return 0
        restored = 0
        saved = self.storage.load()
        for item in saved:
            try:
                self.tables[item.table] = self._rebuilt(item)
                restored += 1
            except ServerError as error:
                self.quarantined[item.table] = str(error)
                _log.warning("tienlen server: %s; set aside", error)
                try:
                    self.storage.quarantine(item.table, str(error))
                except Exception:  # noqa: BLE001  # any store's failure: not served anyway
                    _log.exception(
                        "tienlen server: setting %r aside failed", item.table
                    )
        forgotten = self._forget_unplayed(saved)
        now = self.now()
        for table in self.tables.values():
            table.turn_since = table.changed = table.seen = now
            for seat in table.seats:
                if seat.token_hash is not None:
                    seat.away_since = now
        return restored - forgotten

    def _forget_unplayed(self, saved: Sequence[SavedTable]) -> int:
        """Delete the restored tables where nobody who sat down ever moved.

        Such a table would be removed on the short `idle` clock anyway: restoring
        it would bring back, at every restart, tables created and never played (a
        flood). Returns how many were deleted.
        """
        unplayed = [
            self.tables[item.table]
            for item in saved
            if item.table in self.tables and _never_played(item.meta)
        ]
        for table in unplayed:
            _log.info("tienlen server: table %r never played, not restored", table.id)
            self._remove(table)
        return len(unplayed)

    def _rebuilt(self, saved: SavedTable) -> Table:
        """*saved* as a table where it was.

        Raises:
            ServerError: ``bad-storage``, naming the table, when it cannot be rebuilt.
        """
        meta = saved.meta
        try:
            if saved.problem is not None:
                raise ServerError("bad-storage", saved.problem)
            rules = rules_from_json(meta["rules"])
            players, seed = _int(meta["players"]), _int(meta["seed"])
            first, start = _int(meta["firstDealer"]), _int(meta["matchStart"])
            hands = None if meta["hands"] is None else _int(meta["hands"])
            grace = _number(meta["grace"])
            clock = None if meta["clock"] is None else _number(meta["clock"])
            seats_data = meta["seats"]
            if not isinstance(seats_data, list) or len(seats_data) != players:
                raise ServerError("bad-storage", "one seat per player")
            match = Match(rules=rules, players=players, seed=seed, first_dealer=first)
            state = saved_start = match.deal()
            number = start
            kept = {n: text for n, text, done in saved.hands if done}
            for number, text, finished in saved.hands:
                if number < start:
                    continue  # a hand of an earlier match
                game = loads(text)
                state, saved_start = game.final, game.start()
                if finished:
                    match = match.record(state)
            seats = []
            for index, item in enumerate(seats_data):
                if not isinstance(item, dict):
                    raise ServerError("bad-storage", f"seat {index} is not an object")
                token = item["token"]
                seats.append(
                    Seat(
                        index,
                        str(item["bot"]),
                        str(item["name"]),
                        token if isinstance(token, str) else None,
                        str(item["remote"]),
                        moved=item.get("moved") is True,
                        person=item.get("person") is True,
                        open=item.get("open") is True,
                    )
                )
        except (
            KeyError,
            TypeError,
            ValueError,
            AttributeError,
            RecursionError,
            TienLenError,
        ) as error:
            raise ServerError(
                "bad-storage", f"table {saved.table!r} cannot be restored: {error}"
            ) from None
        table = Table(
            id=saved.table,
            rules=rules,
            seats=seats,
            match=match,
            state=state,
            hands=hands,
            grace=grace,
            clock=clock,
            number=number,
            match_start=start,
            rng=self._bot_rng(),
            permanent=meta.get("permanent") is True,
        )
        table.between = state.is_over
        table.trick_start = trick_start(saved_start, state.history)
        table.finished = {n: kept[n] for n in sorted(kept)[-HANDS_KEPT:]}
        return table


def trick_start(start: GameState, history: Sequence[Action]) -> int:
    """Where the current trick starts in *history*, played from *start*.

    The trick is led by the latest action taken with nothing to beat; its actions are
    ``history[trick_start(...):]`` (after the trick closes, until the next lead, the
    closed trick's).

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> start = GameState.from_hands(["3s 9h", "4d 5c"], CLASSIC)
        >>> state = start.play("3s").play("4d").pass_turn().play("5c")
        >>> trick_start(start, state.history)
        3
    """
    led, state = 0, start
    for ply, action in enumerate(history):
        if state.top is None:
            led = ply
        state = state.apply(action)
    return led


def record_action(action: Action) -> dict[str, JsonValue]:
    """*action* as a game record writes it (format version 2, docs/records.md).

    Example:
        >>> from tienlen import Pass, Play
        >>> record_action(Play(player=1, cards="3s 3c")), record_action(Pass(player=0))
        ({'player': 1, 'play': '3s 3c'}, {'player': 0, 'pass': True})
    """
    if type(action) is Pass:
        return {"player": action.player, "pass": True}
    return {"player": action.player, "play": str(action)}


def _never_played(meta: Mapping[str, object]) -> bool:
    """Whether a saved table is not permanent and no seat of it says it moved.

    A table saved before `Seat.moved` was (no ``moved`` in its seats) is restored,
    and kept on the `Hub.idle` clock until a person moves there.

    Example:
        >>> seat = {"bot": "greedy", "token": "ab", "moved": False}
        >>> _never_played({"seats": [seat, seat]}), _never_played({"seats": [{}]})
        (True, False)
        >>> _never_played({"seats": [seat], "permanent": True})
        False
    """
    seats = meta.get("seats")
    return (
        meta.get("permanent") is not True
        and isinstance(seats, list)
        and all(isinstance(seat, dict) and seat.get("moved") is False for seat in seats)
    )


def _int(value: object) -> int:
    if type(value) is not int:
        msg = f"expected an integer, got {value!r:.40}"
        raise TypeError(msg)
    return value


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        msg = f"expected a number, got {value!r:.40}"
        raise TypeError(msg)
    return float(value)
