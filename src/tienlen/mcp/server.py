"""``tienlen mcp``: the agents' tools (`tienlen.mcp.tools`) served over MCP on stdio.

The one module that imports the ``mcp`` SDK (the ``tienlen[mcp]`` extra, mcp 2.x,
its `MCPServer`). Each tool answers with its text as the content the model reads
and its JSON object as the structured content; a refused request is a tool
result with ``isError`` set, its refusal in the structured content. The tools run
one at a time (the SDK runs a plain function in a worker thread).

Example:
    >>> import anyio
    >>> server = build_server()
    >>> sorted(tool.name for tool in anyio.run(server.list_tools))
    ['act', 'close_game', 'evaluate', 'explain', 'join_table', 'legal_actions', 'new_game', 'observe', 'result']
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Final, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent, ToolAnnotations

from tienlen import __version__
from tienlen.mcp.tools import AgentTools, Reply

__all__ = ["INSTRUCTIONS", "build_server"]

Lang = Literal["en", "vi"]

INSTRUCTIONS: Final = """\
Play Tiến Lên (Thirteen) against the tienlen library's bots. new_game deals a game \
and returns its id and your view; act takes your action (card notation such as \
"7h 7s" or "pass", or an index of legal_actions); the bots then play until it is \
your turn again. observe shows your view, explain says why a play is or is not \
legal with the rule, result gives the scores once the game is over, evaluate \
measures you over duplicate deals (each deal played from every seat). join_table \
takes a seat at a running tienlen serve table instead (ws:// URL, table id, seat), \
played with the same observe, legal_actions, act and result. Cards: rank \
3-9, T, J, Q, K, A, 2 and suit s c d h (spades < clubs < diamonds < hearts). \
lang="vi" answers in Vietnamese."""
"""What the server tells the client about itself, for the model."""


def _result(reply: Reply) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=reply.text)],
        structured_content=reply.data,
        is_error=reply.error,
    )


def build_server(tools: AgentTools | None = None) -> MCPServer:
    """The MCP server of the agents' tools, over *tools* (new, empty ones by default).

    ``build_server().run("stdio")`` serves them on standard input and output until
    the client closes the connection: that is ``tienlen mcp``.

    Example:
        >>> build_server().name
        'tienlen'
    """
    if tools is not None and not isinstance(tools, AgentTools):
        msg = f"expected AgentTools, got {type(tools).__name__}"  # type: ignore[unreachable]
        raise TypeError(msg)
    agent_tools = AgentTools() if tools is None else tools
    lock = threading.Lock()
    server: MCPServer = MCPServer(
        "tienlen", version=__version__, instructions=INSTRUCTIONS
    )

    def serve_one(call: Callable[[], Reply]) -> CallToolResult:
        with lock:
            return _result(call())

    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    changes = ToolAnnotations(read_only_hint=False, open_world_hint=False)

    @server.tool(annotations=changes, structured_output=False)
    def new_game(
        rules: str | None = None,
        seat: int = 0,
        opponents: list[str] | None = None,
        seed: int | None = None,
        deal: str | None = None,
        house_rules: dict[str, object] | None = None,
        lang: Lang = "en",
    ) -> CallToolResult:
        """Deal a new game against the library's bots; returns its id and your view.

        rules: classic (the default), justus-pang, kenneth-lo, vietcong or poker.
        seat: your seat, 0 to players-1. opponents: one bot kind per other seat, in
        seat order (random, greedy, pimc, ismcts); the table has len(opponents)+1
        players; default three greedy bots. seed: makes the game reproducible
        (drawn when omitted); every seat of one seed gets the same hands. deal: a
        frozen deal instead, "classic-150-v1:0" to ":149" or "poker-150-v1:N".
        house_rules: settings that differ from the preset, as the library's records
        write them. The bots play until it is your turn.
        """
        kinds = ["greedy"] * 3 if opponents is None else opponents
        return serve_one(
            lambda: agent_tools.new_game(
                rules=rules,
                house_rules=house_rules,
                seat=seat,
                opponents=kinds,
                seed=seed,
                deal=deal,
                lang=lang,
            )
        )

    @server.tool(
        annotations=ToolAnnotations(read_only_hint=False, open_world_hint=True),
        structured_output=False,
    )
    def join_table(
        url: str, table: str, seat: int, name: str = "agent", lang: Lang = "en"
    ) -> CallToolResult:
        """Take a seat at a running tienlen serve table; returns a game id and your view.

        url: the server's WebSocket, ws://host:port/ws (or wss://). table: the
        table's id ("main" for the server's own). seat: your seat number. name: the
        name the table shows. Then observe, legal_actions, act and result play it
        as a local game; act waits for the server's answer and your next turn (30 s
        at most: then observe again). Each hand's end is answered ready at once;
        result gives the last finished hand's. close_game leaves the seat.
        """
        return serve_one(lambda: agent_tools.join_table(url, table, seat, name, lang))

    @server.tool(annotations=read_only, structured_output=False)
    def observe(game: str, lang: Lang = "en") -> CallToolResult:
        """Your view of a game: the moves since your last action, the top, your hand.

        Never another seat's cards: only how many each holds.
        """
        return serve_one(lambda: agent_tools.observe(game, lang))

    @server.tool(annotations=read_only, structured_output=False)
    def legal_actions(game: str, lang: Lang = "en") -> CallToolResult:
        """Your legal actions now, each with its index and its notation."""
        return serve_one(lambda: agent_tools.legal_actions(game, lang))

    @server.tool(annotations=changes, structured_output=False)
    def act(game: str, action: str | int, lang: Lang = "en") -> CallToolResult:
        """Take your action: card notation ("7h 7s", "pass") or a legal_actions index.

        An illegal action is refused with the rule and a sentence in English and
        Vietnamese, and changes nothing. Otherwise the bots play until it is your
        turn again (or the game ends); the answer lists their moves and your view.
        """
        return serve_one(lambda: agent_tools.act(game, action, lang))

    @server.tool(annotations=read_only, structured_output=False)
    def explain(game: str, action: str | int, lang: Lang = "en") -> CallToolResult:
        """Why an action (notation or index) is or is not legal for you now, with the rule."""
        return serve_one(lambda: agent_tools.explain(game, action, lang))

    @server.tool(annotations=read_only, structured_output=False)
    def result(game: str, lang: Lang = "en") -> CallToolResult:
        """A finished game's finishing order, scores and the reason of every point."""
        return serve_one(lambda: agent_tools.result(game, lang))

    @server.tool(annotations=read_only, structured_output=False)
    def evaluate(games: list[str], lang: Lang = "en") -> CallToolResult:
        """Your duplicate evaluation over finished games: mean score, 95% interval.

        Play each deal (one seed, or one frozen deal) from every seat against the
        same bots, then pass all those game ids. Player 0 is you, player p the bot
        p seats after you.
        """
        return serve_one(lambda: agent_tools.evaluate(games, lang))

    @server.tool(annotations=changes, structured_output=False)
    def close_game(game: str) -> CallToolResult:
        """Forget a game (at most 100 are open), or leave a joined table's seat."""
        return serve_one(lambda: agent_tools.close_game(game))

    return server
