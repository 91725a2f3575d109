"""The agent at a seat of a running ``tienlen serve`` table, over the bot protocol.

A `RemoteSeat` joins a seat as a remote bot does (``join`` with ``"as": "bot"``,
docs/server.md), then keeps the seat's latest view: one asyncio task per seat reads
the server's messages on a background event loop (`RemoteSeat.LOOP`, one thread
for all seats), while the agent's tool calls, from any thread, read the latest view
and send moves. `RemoteSeat.act` sends a move and waits, bounded, for the server's
answer: the refusal (nothing changed), or the move played and then the agent's next
decision (or the hand's end). A hand's end is answered ``ready`` once the agent has
been shown it (`RemoteSeat.shown_end`), or after `READY_AFTER` seconds if it does
not look, so the table never waits long for the agent between hands; every finished
hand's result is kept.

The agent learns only what the server sends its seat: its view, the public actions
and, once a hand is over, its result. The hands the server reveals then (``dealt``,
``left``, the hand's ``record``) are not kept.

Example:
    >>> seat = RemoteSeat("http://127.0.0.1:8000/ws", "main", 0)
    Traceback (most recent call last):
    ...
    tienlen.mcp.session.AgentError: a table's address is a ws:// or wss:// URL, ...
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import urllib.parse
from collections.abc import Coroutine
from typing import Any, ClassVar, Final

import attrs

from tienlen.cards import Hand
from tienlen.errors import TienLenError
from tienlen.game import Action, Pass, Play
from tienlen.mcp.session import AgentError, Move
from tienlen.players import Observation
from tienlen.records import rules_from_json
from tienlen.rules import BaseRules, InstantWin, as_combo
from tienlen.scoring import GameResult, ScoreItem, ScoreKind
from tienlen.server.protocol import action_from_json, dump, observation_from_view

__all__ = [
    "CONNECT_TIMEOUT",
    "READY_AFTER",
    "TURN_WAIT",
    "FinishedHand",
    "RemoteRefusalError",
    "RemoteSeat",
]

CONNECT_TIMEOUT: Final = 10.0
"""Seconds to connect and be seated, and to see a move answered, before giving up."""
TURN_WAIT: Final = 30.0
"""Seconds `RemoteSeat.act` waits for the agent's next decision after its move."""
READY_AFTER: Final = 30.0
"""Seconds after a hand's end the seat says ``ready`` if the agent was not shown it."""

Json = dict[str, Any]


class RemoteRefusalError(AgentError):
    """The server refused the agent's move: *refusal* is its structured refusal.

    For an illegal move it is the library's (``refusal_json``: code, reason, rule,
    message in English and Vietnamese); for another refusal (``stale``,
    ``rate-limited``, ...) its code and the server's message.

    Example:
        >>> error = RemoteRefusalError({"code": "stale", "message": {"en": "late", "vi": "late"}})
        >>> error.code, str(error)
        ('stale', 'late')
    """

    def __init__(self, refusal: dict[str, Any]) -> None:
        if not isinstance(refusal, dict):
            msg = f"a refusal is a dict, not {type(refusal).__name__}"  # type: ignore[unreachable]  # checked at run time
            raise TypeError(msg)
        message = refusal.get("message")
        said = message.get("en") if isinstance(message, dict) else None
        super().__init__(str(refusal.get("code")), str(said))
        self.refusal = refusal

    def __reduce__(self) -> tuple[type[RemoteRefusalError], tuple[dict[str, Any]]]:
        # Rebuilt from the refusal, so that it pickles (its arguments are not *args*).
        return RemoteRefusalError, (self.refusal,)


def _check_url(url: object) -> str:
    """*url*, a ws:// or wss:// URL with a host."""
    parts = urllib.parse.urlsplit(url) if isinstance(url, str) else None
    if parts is None or parts.scheme not in {"ws", "wss"} or not parts.hostname:
        msg = f"a table's address is a ws:// or wss:// URL, not {url!r:.80}"
        raise AgentError("bad-argument", msg)
    return str(url)


def _check_arguments(table: object, seat: object, name: object) -> None:
    """Refuse a table that is not named by text, a seat not a number, a name not text."""
    if not isinstance(table, str) or not isinstance(name, str):
        msg = "a table's id and a seat's name are text"
        raise AgentError("bad-argument", msg)
    if type(seat) is not int or seat < 0:
        msg = f"a seat is a number from 0, not {seat!r:.20}"
        raise AgentError("bad-argument", msg)


class _Loop:
    """An asyncio event loop running in a daemon thread, started on first use."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def run(self, work: Coroutine[Any, Any, Any], timeout: float) -> Any:
        """Run *work* on the loop; its result, or `TimeoutError` after *timeout* s."""
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                threading.Thread(
                    target=loop.run_forever, name="tienlen-remote", daemon=True
                ).start()
                self._loop = loop
        future = asyncio.run_coroutine_threadsafe(work, self._loop)
        try:
            return future.result(timeout)
        except TimeoutError:
            future.cancel()
            raise


@attrs.frozen
class FinishedHand:
    """A hand of the table that ended while the agent sat there, and its result.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> final = GameState.from_hands(["3s", "4d"], CLASSIC).play("3s")
        >>> FinishedHand(1, final.result, match_over=False).result.scores
        (1, -1)
    """

    hand: int
    """The table's number of the hand."""
    result: GameResult
    """Its result, rebuilt from the server's."""
    match_over: bool
    """Whether it was the match's last hand."""


class RemoteSeat:
    """The agent's seat *seat* at table *table* of the server at *url* (``ws://…/ws``).

    Joining happens on construction: it connects (within *timeout* seconds), claims
    the seat, and waits for the seat's first view.

    Raises:
        AgentError: ``bad-argument`` (not a ws:// or wss:// URL), ``unreachable``
            (nothing answers, or not in time), ``refused`` (the server refused the
            seat: taken, no such table, a bad name; its message says which),
            ``unavailable`` (the ``websockets`` package of ``tienlen[server]`` is
            not installed).
    """

    LOOP: ClassVar = _Loop()
    """The event loop every seat's connection runs on."""

    def __init__(
        self,
        url: str,
        table: str,
        seat: int,
        name: str = "agent",
        *,
        timeout: float = CONNECT_TIMEOUT,
        wait: float = TURN_WAIT,
    ) -> None:
        self.url: Final = _check_url(url)
        """The server's WebSocket address."""
        _check_arguments(table, seat, name)
        self.table: Final = table
        """The table's id."""
        self.seat: Final = seat
        """The agent's seat."""
        self.timeout: Final = timeout
        """Seconds to connect, and to see a move answered."""
        self.wait = wait
        """Seconds `act` waits for the agent's next decision after its move."""
        self._changed = threading.Condition()
        self._socket: Any = None
        self._task: asyncio.Task[None] | None = None
        self.rules: BaseRules | None = None
        """The table's rules."""
        self.hand = 0
        """The table's number of the hand being played (or just ended)."""
        self.ply = 0
        """How many actions of the hand the seat has seen."""
        self.view: dict[str, Any] = {}
        """The seat's latest view, as the server sent it (its ``state``)."""
        self.history: list[Action] = []
        """The hand's actions so far."""
        self.moves: list[Move] = []
        """The hand's actions so far, as the agent's tools describe them."""
        self.last_decision = 0
        """How many of `moves` there were when the agent last acted."""
        self.finished: list[FinishedHand] = []
        """The hands that ended while the agent sat here, oldest first."""
        self.between = False
        """Whether the hand is over and the next not dealt yet."""
        self.match_over = False
        """Whether the table's match is over (no more hands)."""
        self.closed: str | None = None
        """Why the connection ended, once it has."""
        self.ready_after = READY_AFTER
        """Seconds after a hand's end to say ``ready`` unless `shown_end` said it."""
        self._owed: int | None = None  # the ended hand whose ``ready`` is not sent
        self._declined = -1  # the ply of a jump-in offer the agent declined
        self._refusal: Json | None = None
        self._join(name)

    # -- what the agent sees ------------------------------------------------------

    @property
    def legal(self) -> tuple[str, ...]:
        """The agent's legal actions now, in notation, as the server lists them.

        Offered a Poker jump-in, ``"pass"`` ends the list: "do not jump in".
        """
        with self._changed:
            listed = self.view.get("legal")
            if self.between or self.closed or not isinstance(listed, list):
                return ()
            if self._declined == self.ply:
                return ()
            actions = tuple(str(item) for item in listed)
            if actions and self.jumping_in and "pass" not in actions:
                actions += ("pass",)
            return actions

    @property
    def jumping_in(self) -> bool:
        """Whether the agent's decision is a Poker jump-in offer out of turn."""
        return self.view.get("toAct") != self.seat and bool(self.view.get("legal"))

    @property
    def waiting(self) -> bool:
        """Whether the agent must decide now."""
        return bool(self.legal)

    def observation(self) -> Observation:
        """The seat's `Observation`, rebuilt from its view."""
        with self._changed:
            assert self.rules is not None  # seated: the first view has come
            return observation_from_view(self.view, self.rules, self.history)

    # -- what the agent does ------------------------------------------------------

    def resolve(self, choice: str | int) -> str:
        """The notation of the action *choice* names (an index of `legal`, or notation).

        Raises:
            AgentError: ``disconnected``, ``game-over`` (between hands, or the match
                is over), ``bad-argument`` (an index out of range, not an action).
            InvalidCardError: the text names no cards.
        """
        if self.closed is not None:
            raise AgentError("disconnected", f"not at the table: {self.closed}")
        legal = self.legal
        if self.between or self.match_over:
            raise AgentError("game-over", "the hand is over: no action is taken")
        if type(choice) is int:
            if not 0 <= choice < len(legal):
                msg = f"no action {choice} among the {len(legal)} legal actions"
                raise AgentError("bad-argument", msg)
            return legal[choice]
        if not isinstance(choice, str):
            msg = f"an action is notation or an index, not {type(choice).__name__}"
            raise AgentError("bad-argument", msg)
        said = choice.strip()[:200]
        return "pass" if said.lower() == "pass" else str(Hand.parse(said))

    def act(self, choice: str | int) -> None:
        """Play *choice*; then wait (`wait` s at most) for the agent's next decision.

        Raises:
            AgentError: as `resolve`; ``timeout`` when the server did not answer
                the move in `timeout` seconds.
            RemoteRefusalError: the server refused the move; nothing changed.
        """
        action = self.resolve(choice)
        with self._changed:
            before = (self.hand, self.ply, len(self.finished))
            moves = len(self.moves)
        if self.jumping_in and action == "pass":  # do not jump in: nothing to send
            with self._changed:
                self._declined = self.ply
                self.moves.append(Move(Pass(player=self.seat), jumped_in=True))
                self.last_decision = moves
            return
        with self._changed:
            self._refusal = None
        self._send({"type": "move", "action": action, "ply": before[1]})
        with self._changed:
            answered = self._changed.wait_for(
                lambda: (
                    self._refusal is not None
                    or self.closed is not None
                    or (self.hand, self.ply, len(self.finished)) != before
                ),
                self.timeout,
            )
            refusal, self._refusal = self._refusal, None
            if refusal is not None:
                raise RemoteRefusalError(refusal)
            if not answered:
                msg = f"the server did not answer the move in {self.timeout:g} s"
                raise AgentError("timeout", msg)
            self.last_decision = moves if self.hand == before[0] else 0
            self._changed.wait_for(
                lambda: (
                    self.waiting
                    or self.closed is not None
                    or self.match_over
                    or len(self.finished) != before[2]
                ),
                self.wait,
            )

    def shown_end(self) -> None:
        """The agent was shown the hand's end: say ``ready`` for the next (if owed)."""
        with self._changed:
            owed, self._owed = self._owed, None
        if owed is not None and self.closed is None:
            with contextlib.suppress(AgentError):  # gone: nothing to be ready for
                self._send({"type": "ready"})

    def close(self) -> None:
        """Give the seat back (``leave``) and disconnect; never raises."""
        if self._socket is None:
            return
        with contextlib.suppress(Exception):  # closing is best effort
            self.LOOP.run(self._close(), self.timeout)
        with self._changed:
            self.closed = self.closed or "closed by the agent"
            self._changed.notify_all()

    # -- the connection -----------------------------------------------------------

    def _join(self, name: str) -> None:
        try:
            import websockets  # noqa: F401, PLC0415  # the server extra
        except ImportError:
            msg = (
                'joining a table needs the server extra: pip install "tienlen[server]"'
            )
            raise AgentError("unavailable", msg) from None
        try:
            self.LOOP.run(self._connect(name), self.timeout + 1)
        except AgentError:
            self.close()
            raise
        except (OSError, TimeoutError, ValueError) as error:
            self.close()
            msg = f"cannot reach {self.url:.80}: {str(error) or type(error).__name__}"
            raise AgentError("unreachable", msg) from None
        except Exception as error:  # noqa: BLE001  # websockets' handshake errors
            self.close()
            msg = f"cannot join at {self.url:.80}: {error}"
            raise AgentError("unreachable", msg) from None

    async def _connect(self, name: str) -> None:
        from websockets.asyncio.client import connect  # noqa: PLC0415  # the server extra

        async with asyncio.timeout(self.timeout):
            self._socket = await connect(
                self.url, open_timeout=self.timeout, max_size=2**22
            )
            hello = {"v": 1, "type": "join", "table": self.table, "seat": self.seat}
            await self._socket.send(dump({**hello, "name": name, "as": "bot"}))
            while not self.view:
                message = json.loads(await self._socket.recv())
                if message.get("type") == "error":
                    said = str(message.get("message"))[:200]
                    msg = f"the server refused the seat ({message.get('code')}): {said}"
                    raise AgentError("refused", msg)
                await self._handle(message)
        self._task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed  # noqa: PLC0415

        reason = "the server closed the connection"
        try:
            async for text in self._socket:
                await self._handle(json.loads(text))
        except ConnectionClosed:
            pass
        except (TienLenError, ValueError, KeyError, TypeError) as error:
            reason = f"the server sent what the seat cannot read: {error}"
            await self._socket.close()
        with self._changed:
            self.closed = self.closed or reason
            self._changed.notify_all()

    async def _close(self) -> None:
        if self.closed is None:
            await self._socket.send(dump({"v": 1, "type": "leave"}))
        await self._socket.close()
        if self._task is not None:
            await self._task

    def _send(self, message: Json) -> None:
        try:
            self.LOOP.run(self._socket.send(dump({"v": 1, **message})), self.timeout)
        except Exception as error:  # noqa: BLE001  # closed, or no answer in time
            with self._changed:
                self.closed = self.closed or f"the connection failed: {error}"
            raise AgentError(
                "disconnected", f"not at the table: {self.closed}"
            ) from None

    async def _handle(self, message: Json) -> None:
        """Take in one message from the server (on the loop's thread)."""
        kind = message.get("type")
        answer: Json | None = None
        with self._changed:
            if kind == "gameFull":
                answer = self._full(message)
            elif kind == "gameState":
                self._state(message)
            elif kind == "handEnd":
                answer = self._ended(message)
            elif kind == "matchEnd":
                self.match_over = True
            elif kind == "error" and message.get("in") == "move":
                self._refusal = _refusal(message)
            elif kind == "left":
                self.closed = "the seat was given back"
            self._changed.notify_all()
        if answer is not None:
            await self._socket.send(dump({"v": 1, **answer}))

    def _full(self, message: Json) -> Json | None:
        table = message["table"]
        self.rules = rules_from_json(table["rules"])
        playing, self.hand = self.hand, int(table["hand"])
        self.history = [action_from_json(item) for item in message["history"]]
        self.moves = [Move(action, jumped_in=False) for action in self.history]
        self.last_decision = len(self.moves)
        self.ply, self.view = int(message["ply"]), dict(message["state"])
        ended = message.get("ended")
        self.between = bool(table.get("between")) and isinstance(ended, dict)
        if not self.between:
            return None
        assert isinstance(ended, dict)
        if playing == self.hand and not any(f.hand == self.hand for f in self.finished):
            return self._ended(ended)  # the hand's end was missed: take it now
        self.match_over = ended.get("matchOver") is True
        return None if self.match_over else {"type": "ready"}

    def _state(self, message: Json) -> None:
        hand = int(message["hand"])
        if hand != self.hand:  # a new hand: its actions come in full
            self.hand, self.history, self.moves, self.last_decision = hand, [], [], 0
            self.view, self.between = {}, False
        before = self.view
        actions = [action_from_json(item) for item in message["actions"]]
        after = dict(message["state"])
        for action in actions:
            self.history.append(action)
            last = action is actions[-1]
            self.moves.append(_move(before, action, after if last else None))
        self.ply, self.view = int(message["ply"]), after

    def _ended(self, message: Json) -> Json | None:
        assert self.rules is not None
        over = message.get("matchOver") is True
        result = _result(message["result"], self.rules, len(self.view["counts"]))
        self.finished.append(FinishedHand(int(message["hand"]), result, over))
        self.between, self.match_over = True, over
        if not over:
            hand = self.hand
            self._owed = hand
            loop = asyncio.get_running_loop()
            loop.call_later(
                self.ready_after, lambda: loop.create_task(self._late(hand))
            )
        return None

    async def _late(self, hand: int) -> None:
        """Say ``ready`` for *hand*'s end if the agent was not shown it in time."""
        with self._changed:
            owed = self._owed == hand
            if owed:
                self._owed = None
        if owed and self.closed is None:
            with contextlib.suppress(Exception):  # closed meanwhile
                await self._socket.send(dump({"v": 1, "type": "ready"}))


def _move(before: Json, action: Action, after: Json | None) -> Move:
    """The `Move` of *action* between the views *before* and *after* (if known).

    Without the view right after it (several actions in one message), only its
    jump-in is known.
    """
    jumped_in = bool(before) and action.player != before.get("toAct")
    if after is None:
        return Move(action, jumped_in=jumped_in)
    went_out = tuple(after["finishOrder"][len(before.get("finishOrder", [])) :])
    won = None
    if (
        before.get("top") is not None
        and after["top"] is None
        and after["toAct"] is not None
    ):
        won = action.player if type(action) is Play else before.get("lastPlayer")
    return Move(action, jumped_in=jumped_in, went_out=went_out, won_trick=won)


def _refusal(message: Json) -> Json:
    """The agent's refusal from the server's ``error`` answering its move."""
    refusal = message.get("refusal")
    if isinstance(refusal, dict):
        return refusal
    said = str(message.get("message"))[:300]
    return {"code": str(message.get("code")), "message": {"en": said, "vi": said}}


def _result(data: Json, rules: BaseRules, players: int) -> GameResult:
    """The `GameResult` the server's ``result`` JSON describes."""
    items = [
        ScoreItem(
            kind=ScoreKind(item["kind"]),
            player=item["player"],
            payer=item["payer"],
            points=item["points"],
            combos=[as_combo(Hand.parse(c), rules) for c in item.get("combos", [])],
        )
        for item in data["items"]
    ]
    try:
        win = None if data.get("instantWin") is None else InstantWin(data["instantWin"])
    except ValueError:  # a table's own instant-win hand: its name is not kept
        win = None
    return GameResult.from_items(
        players=players,
        finish_order=data["finishOrder"],
        items=items,
        instant_win=win,
        frozen=data.get("frozen", ()),
    )
