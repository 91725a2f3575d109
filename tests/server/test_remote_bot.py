"""`RemoteBot` under the server's rate limit: what it drops is sent again."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any, cast

import pytest

pytest.importorskip("websockets")

from tienlen import GreedyPlayer
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
