"""Run any library `Player` at a server's seat over the protocol (``tienlen bot``).

The bot joins a seat with a bot credential (or resumes it with one), rebuilds its
seat's `Observation` from each view (`protocol.observation_from_view`), asks its
`Player` when it may act (its turn, or a Poker jump-in: then a `Pass` means "do not
jump in"), sends the move by its index in the legal list with the ply it was chosen
at, and says ``ready`` after every hand. A dropped connection is resumed with the
credential.
"""

from __future__ import annotations

import asyncio
import json
import random

import attrs
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tienlen.game import Action, Pass, Play
from tienlen.players import Player
from tienlen.records import JsonValue, rules_from_json
from tienlen.rules import BaseRules
from tienlen.server import protocol

__all__ = ["RemoteBot"]


@attrs.define
class RemoteBot:
    """One library `Player` playing one seat of a table on a server.

    Example:
        >>> from tienlen import GreedyPlayer
        >>> bot = RemoteBot("ws://127.0.0.1:8000/ws", "main", 2, GreedyPlayer())
        >>> bot.seat, bot.token is None
        (2, True)
    """

    url: str
    table: str
    seat: int
    player: Player
    name: str = "bot"
    hands: int | None = None
    """Leave after this many hands (``None``: play until the match ends)."""
    token: str | None = None
    rng: random.Random = attrs.Factory(random.Random)
    records: list[dict[str, JsonValue]] = attrs.Factory(list)
    """The record of every hand finished, as the server sent it."""
    latencies: list[float] = attrs.Factory(list)
    """Seconds from sending each move to seeing it applied."""
    errors: list[dict[str, JsonValue]] = attrs.Factory(list)
    _rules: BaseRules | None = None
    _history: list[Action] = attrs.Factory(list)
    _asked: tuple[int, int] | None = None
    _sent: float | None = None
    _hand: int = 0
    _ended: int | None = None
    """The hand whose ``handEnd`` was answered last."""
    _done: bool = False
    _last: dict[str, JsonValue] | None = None
    _again: bool = False
    """Whether the last messages were dropped by the rate limit: send them again soon."""
    _batch: list[dict[str, JsonValue]] = attrs.Factory(list)
    """The last messages sent (what `_retry` sends again)."""

    async def run(self, retries: int = 5) -> list[dict[str, JsonValue]]:
        """Play until the match ends (or `hands` hands); returns the hands' records.

        Raises:
            ConnectionError: the server stayed unreachable after *retries* attempts.

        Example:
            >>> import asyncio
            >>> from tienlen import GreedyPlayer
            >>> bot = RemoteBot("ws://127.0.0.1:9/ws", "main", 0, GreedyPlayer())
            >>> asyncio.run(bot.run(retries=0))  # nothing listens on port 9
            Traceback (most recent call last):
            ...
            ConnectionError: cannot reach ws://127.0.0.1:9/ws: ...
        """
        failures = 0
        while not self._done:
            try:
                async with connect(self.url, max_size=2**22) as socket:
                    failures = 0
                    await self._session(socket)
            except (OSError, ConnectionClosed) as error:
                failures += 1
                if failures > retries:
                    msg = f"cannot reach {self.url}: {error}"
                    raise ConnectionError(msg) from error
                await asyncio.sleep(0.2 * failures)
        return self.records

    async def _session(self, socket: ClientConnection) -> None:
        if self.token is None:
            hello: dict[str, JsonValue] = {
                "type": "join",
                "table": self.table,
                "seat": self.seat,
                "name": self.name,
                "as": "bot",
            }
        else:
            hello = {
                "type": "hello",
                "table": self.table,
                "seat": self.seat,
                "token": self.token,
            }
        await socket.send(protocol.dump({"v": 1, **hello}))
        async for text in socket:
            message = json.loads(text)
            reply = self.handle(message)
            if self._again:
                self._again = False
                await asyncio.sleep(0.1)
                reply = self._retry()
            for item in reply:
                await socket.send(protocol.dump({"v": 1, **item}))
            if reply:
                self._batch = reply
            if self._done:
                return

    def handle(self, message: dict[str, JsonValue]) -> list[dict[str, JsonValue]]:
        """The messages to send in answer to *message* (a pure step, for tests).

        Example:
            >>> from tienlen import GreedyPlayer
            >>> bot = RemoteBot("ws://127.0.0.1:8000/ws", "main", 0, GreedyPlayer())
            >>> bot.handle({"type": "joined", "token": "secret"}), bot.token
            ([], 'secret')
            >>> bot.handle({"type": "handEnd", "record": {}, "matchOver": False})
            [{'type': 'ready'}]
        """
        kind = message.get("type")
        if kind == "joined":
            token = message["token"]
            self.token = token if isinstance(token, str) else None
            return []
        if kind == "error":
            self.errors.append(message)
            fatal = {"bad-credential", "seat-taken", "no-table"}
            if message.get("code") in fatal or message.get("in") in {"join", "hello"}:
                self._done = True
                msg = f"the server refused the bot: {message.get('message')}"
                raise ConnectionRefusedError(msg)
            if message.get("code") == "rate-limited":
                self._asked = None  # the move was dropped: send it again
                self._again = True
            return []  # a stale move: the newer state is on its way
        if kind == "gameFull":
            table = _object(message.get("table"), "table")
            self._rules = rules_from_json(table.get("rules"))
            history = _array(message.get("history"), "history")
            self._history = [
                protocol.action_from_json(_object(item, "action")) for item in history
            ]
            playing, self._hand = self._hand, int(str(table.get("hand")))
            self._asked = None
            ended = message.get("ended")
            if isinstance(ended, dict):  # between hands: the table waits for `ready`
                return self._between(ended, missed=playing == self._hand)
            return self._decide(message)
        if kind == "gameState":
            actions = _array(message.get("actions"), "actions")
            if self._sent is not None and any(
                isinstance(a, dict) and a.get("seat") == self.seat for a in actions
            ):
                self.latencies.append(asyncio.get_running_loop().time() - self._sent)
                self._sent = None
            self._history.extend(
                protocol.action_from_json(_object(a, "action")) for a in actions
            )
            return self._decide(message)
        if kind == "handEnd":
            self._ended = self._hand
            self.records.append(_object(message.get("record"), "record"))
            if message.get("matchOver") is True:
                self._done = True
                return []
            if self.hands is not None and len(self.records) >= self.hands:
                self._done = True
                return [{"type": "leave"}]
            return [{"type": "ready"}]
        if kind == "matchEnd":
            self._done = True
        return []

    def _between(
        self, ended: dict[str, JsonValue], *, missed: bool
    ) -> list[dict[str, JsonValue]]:
        """The answer to a `gameFull` sent between hands, with the hand just *ended*.

        A bot that joins (or comes back) after a hand's ``handEnd`` was sent never
        saw it, and the next hand waits for its ``ready``: it answers as to that
        ``handEnd``, counting the hand as its own only if it was playing it
        (*missed*) and did not count it already.
        """
        if missed and self._ended != self._hand:
            return self.handle(ended)
        if ended.get("matchOver") is True:
            self._done = True
            return []
        return [{"type": "ready"}]

    def _retry(self) -> list[dict[str, JsonValue]]:
        """What to send again once the rate limit dropped the last messages sent.

        A move is decided again on the latest state (it may have moved on); anything
        else (``ready``, ``leave``) is sent again as it was, since the server sends
        nothing more until it arrives.
        """
        if any(item.get("type") == "move" for item in self._batch):
            return [] if self._last is None else self._decide(self._last)
        return self._batch

    def _decide(self, message: dict[str, JsonValue]) -> list[dict[str, JsonValue]]:
        self._last = message
        view = _object(message.get("state"), "state")
        if self._rules is None:
            msg = "a view before the table's gameFull"
            raise ValueError(msg)
        legal = view.get("legal")
        if not isinstance(legal, list) or not legal:
            return []
        ply = int(str(message["ply"]))
        if self._asked == (self._hand, ply):
            return []  # asked already at this ply (declined a jump-in)
        self._asked = (self._hand, ply)
        seen = protocol.observation_from_view(view, self._rules, self._history)
        offer: list[Action] = [
            Pass(player=self.seat)
            if text == "pass"
            else Play(player=self.seat, cards=str(text))
            for text in legal
        ]
        jumping = seen.to_act != self.seat
        if jumping:
            offer.append(Pass(player=self.seat))  # "do not jump in"
        choice = self.player.act(seen, offer, self.rng)
        if jumping and type(choice) is Pass:
            return []
        index = offer.index(choice)
        try:
            self._sent = asyncio.get_running_loop().time()
        except RuntimeError:
            self._sent = None
        return [{"type": "move", "index": index, "ply": ply}]


def _object(value: object, what: str) -> dict[str, JsonValue]:
    """*value*, a JSON object from the server.

    Raises:
        ValueError: it is not one (a server not speaking the protocol).
    """
    if not isinstance(value, dict):
        msg = f"the server sent a {what} that is not an object: {value!r:.80}"
        raise ValueError(msg)  # noqa: TRY004  # bad input from the server, not a wrong argument
    return value


def _array(value: object, what: str) -> list[JsonValue]:
    """*value*, a JSON array from the server.

    Raises:
        ValueError: it is not one.
    """
    if not isinstance(value, list):
        msg = f"the server sent {what} that is not a list: {value!r:.80}"
        raise ValueError(msg)  # noqa: TRY004  # bad input from the server, not a wrong argument
    return value
