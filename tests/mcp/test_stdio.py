"""``tienlen mcp`` over stdio, driven by the MCP SDK's own client.

The server runs as ``python -m tienlen mcp`` in a subprocess; the scripted agent
plays through the SDK's `ClientSession`, and every answer must equal the one the
same tools give in process (where the true hands are known to the leak check).
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, TextContent

import tienlen
from tests.mcp.harness import (
    PRESETS,
    Remote,
    ScriptedAgent,
    Table,
    Tally,
    decline_a_jump_in,
)
from tienlen.mcp.tools import Reply

SOURCE = str(Path(tienlen.__file__).resolve().parent.parent)
"""The folder that holds the `tienlen` under test, for the server's subprocess."""


@asynccontextmanager
async def connect() -> AsyncIterator[ClientSession]:
    """A client session with ``python -m tienlen mcp`` running in a subprocess."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "tienlen", "mcp"],
        env={"PYTHONPATH": SOURCE},
    )
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def reply_of(result: object) -> Reply:
    """A tool result as the in-process tools' `Reply`."""
    assert isinstance(result, CallToolResult)
    content = result.content[0]
    assert isinstance(content, TextContent)
    data = result.structured_content
    assert isinstance(data, dict)
    return Reply(content.text, data, error=result.is_error)


def remote(session: ClientSession) -> Remote:
    """Tool calls over *session*."""

    async def call(name: str, arguments: dict[str, object]) -> Reply:
        return reply_of(await session.call_tool(name, arguments))

    return call


@pytest.mark.slow
def test_games_over_stdio_leak_nothing_and_accept_nothing_illegal() -> None:
    """Issue 38 item 7: 20 games over stdio across the five presets.

    Every answer equals the in-process one, names no card another seat holds; no
    illegal action is accepted; every refusal is in English and Vietnamese.
    """
    tally = Tally()

    async def run() -> None:
        async with connect() as session:
            agent = ScriptedAgent(Table(tally, remote(session)), random.Random(38))
            for number in range(20):
                await agent.play(PRESETS[number % len(PRESETS)], 38_000 + number)

    asyncio.run(run())
    assert tally.games == 20
    assert tally.refused > 0
    assert tally.illegal_accepted == 0
    assert not tally.leaks, tally.leaks[:3]
    assert not tally.problems, tally.problems[:3]


@pytest.mark.slow
def test_the_tools_are_listed_and_a_refusal_is_a_tool_error() -> None:
    """The nine tools and their arguments; a jump-in declined; a refusal is an ``isError``."""
    tally = Tally()

    async def run() -> tuple[dict[str, set[str]], Reply, Reply]:
        async with connect() as session:
            declined = await decline_a_jump_in(Table(tally, remote(session)))
            assert declined.data["events"][0]["jumpIn"] is True  # type: ignore[index]
            listed = await session.list_tools()
            tools = {
                tool.name: set(tool.input_schema["properties"]) for tool in listed.tools
            }
            call = remote(session)
            opened = await call("new_game", {"seed": 1, "opponents": ["greedy"]})
            refused = await call("act", {"game": opened.data["game"], "action": "7x"})
            return tools, opened, refused

    tools, opened, refused = asyncio.run(run())
    assert tools == {
        "new_game": {
            "rules",
            "house_rules",
            "seat",
            "opponents",
            "seed",
            "deal",
            "lang",
        },
        "observe": {"game", "lang"},
        "legal_actions": {"game", "lang"},
        "act": {"game", "action", "lang"},
        "explain": {"game", "action", "lang"},
        "result": {"game", "lang"},
        "evaluate": {"games", "lang"},
        "close_game": {"game"},
        "join_table": {"url", "table", "seat", "name", "lang"},
    }
    assert not opened.error
    assert refused.error
    assert refused.data["refusal"]["code"] == "UNREADABLE"  # type: ignore[index]
    assert not tally.leaks
    assert not tally.problems, tally.problems[:3]
