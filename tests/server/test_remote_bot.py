"""`RemoteBot` under the server's rate limit: what it drops is sent again."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any, cast

import pytest

pytest.importorskip("websockets")

from tienlen import GreedyPlayer
from tienlen.records import JsonValue
from tienlen.server.bots import RemoteBot


class _Socket:
    """A stand-in connection: replays *incoming* and records what the bot sends."""

    def __init__(self, incoming: list[dict[str, Any]]) -> None:
        self.incoming = incoming
        self.sent: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    async def _replay(self) -> AsyncIterator[str]:
        for message in self.incoming:
            yield json.dumps(message)

    def __aiter__(self) -> AsyncIterator[str]:
        return self._replay()


def test_a_ready_dropped_by_the_rate_limit_is_sent_again() -> None:
    """A hand's end is answered with ``ready``; a rate-limited one is sent again.

    The server sends nothing more until every seat is ready, so a lost ``ready``
    would stall the table for good (seen in a 100-hand match of four bots).
    """
    bot = RemoteBot("ws://127.0.0.1:9/ws", "main", 0, GreedyPlayer())
    bot.token = "secret"  # noqa: S105 - a stand-in credential
    socket = _Socket(
        [
            {"type": "handEnd", "record": {}, "matchOver": False},
            {"type": "error", "code": "rate-limited", "message": "slow down"},
        ]
    )
    asyncio.run(bot._session(cast("Any", socket)))
    kinds = [message["type"] for message in socket.sent]
    assert kinds == ["hello", "ready", "ready"]


def _full(hand: int, ended: dict[str, Any] | None) -> dict[str, Any]:
    """A `gameFull` of table hand *hand* (between hands when *ended* is given)."""
    from tienlen import CLASSIC  # noqa: PLC0415
    from tienlen.records import rules_to_json  # noqa: PLC0415

    message: dict[str, Any] = {
        "type": "gameFull",
        "table": {"rules": rules_to_json(CLASSIC), "hand": hand},
        "ply": 0,
        "history": [],
        "state": {"legal": []},
    }
    if ended is not None:
        message["ended"] = ended
    return message


def _ended(hand: int, *, match_over: bool = False) -> dict[str, Any]:
    """The ``handEnd`` of table hand *hand*."""
    return {
        "type": "handEnd",
        "hand": hand,
        "record": {"hand": hand},
        "matchOver": match_over,
    }


def test_a_bot_joining_between_hands_says_ready() -> None:
    """Joined after a hand's end was sent, the bot answers ``ready``, uncounted.

    The next hand waits for it, and it did not play the hand that ended. Without it, four ``tienlen bot`` processes joining while the server's own bots
    finished a hand could wait for a ``handEnd`` that had gone out before they came.
    """
    bot = RemoteBot("ws://127.0.0.1:9/ws", "main", 0, GreedyPlayer(), hands=1)
    assert bot.handle(_full(2, _ended(2))) == [{"type": "ready"}]
    assert bot.records == []


def test_a_bot_back_between_hands_counts_the_hand_it_missed() -> None:
    """Back after missing the end of a hand it was playing, the bot counts it once."""
    bot = RemoteBot("ws://127.0.0.1:9/ws", "main", 0, GreedyPlayer(), hands=2)
    bot.handle(_full(1, None))  # playing hand 1
    assert bot.handle(_full(1, _ended(1))) == [{"type": "ready"}]
    assert bot.records == [{"hand": 1}]
    assert bot.handle(_full(1, _ended(1))) == [{"type": "ready"}]  # not twice
    assert bot.records == [{"hand": 1}]
    bot.handle(_full(2, None))
    assert bot.handle(_full(2, _ended(2))) == [{"type": "leave"}]  # its last hand


def test_a_bot_joining_after_the_match_stops() -> None:
    """Between hands of a match that is over, there is nothing to be ready for."""
    bot = RemoteBot("ws://127.0.0.1:9/ws", "main", 0, GreedyPlayer())
    assert bot.handle(_full(3, _ended(3, match_over=True))) == []
    assert bot._done


@pytest.mark.parametrize(
    ("code", "where"),
    [("bad-name", "join"), ("bad-message", "join"), ("seat-taken", "join")],
)
def test_a_refused_join_stops_the_bot(code: str, where: str) -> None:
    """Any refusal of the bot's ``join`` ends it with the server's reason: no hang."""
    bot = RemoteBot("ws://127.0.0.1:9/ws", "main", 0, GreedyPlayer())
    error: dict[str, JsonValue] = {
        "type": "error",
        "code": code,
        "in": where,
        "message": "refused",
    }
    with pytest.raises(ConnectionRefusedError, match="refused"):
        bot.handle(error)
    assert bot._done
