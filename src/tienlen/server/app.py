"""The Starlette application: one WebSocket per client, the browser client, card pictures.

Example:
    >>> from starlette.testclient import TestClient
    >>> with TestClient(create_app(Hub())) as http:
    ...     http.get("/api/health").json()
    {'tables': 0}
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import itertools
from collections.abc import AsyncIterator
from functools import lru_cache
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from tienlen import svg
from tienlen.cards import Card
from tienlen.errors import InvalidCardError
from tienlen.records import rules_to_json
from tienlen.rules import RULESETS
from tienlen.server.tables import BOTS, SLOW_BOTS, Hub

__all__ = [
    "STATIC",
    "TABLES_PER_PAGE",
    "bot_list",
    "create_app",
    "page",
    "preset_list",
    "preset_rules",
]

STATIC = Path(__file__).parent / "static"
"""The browser client's files."""
_BACKLOG = 2000
"""A client this many messages behind is dropped (it reconnects with a snapshot)."""
_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; "
        "base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Sent with the browser client's page: no script but the server's own, no framing."""
TABLES_PER_PAGE = 100
"""The most tables one ``GET /api/tables`` lists (its default ``limit``)."""
_MAX_PAGE = 1_000_000


_PRESET_OPTIONS = (
    "<!-- presets: the server writes one option per preset of the registry -->"
)
"""Where `page` writes the preset options into ``static/index.html``."""


def preset_list() -> list[dict[str, object]]:
    """The presets a table may be created with (``GET /api/presets``): `tienlen.RULESETS`.

    Example:
        >>> preset_list()[1]
        {'name': 'justus-pang', 'aliases': ['justus', 'jp']}
    """
    return [
        {"name": name, "aliases": list(rules.aliases)}
        for name, rules in RULESETS.items()
    ]


def preset_rules(name: str) -> dict[str, object] | None:
    """A preset's rule set as a ``create`` message takes it (``GET /api/presets/NAME``).

    The records' self-contained form (`tienlen.records.rules_to_json`): the browser's
    New table dialog changes its settings (house rules) and sends it back. ``None``
    for a name that is no listed preset (aliases are not looked up: one address each).

    Example:
        >>> rules = preset_rules("poker")
        >>> rules["name"], rules["settings"]["twos_in_straights"]
        ('poker', False)
        >>> preset_rules("no-such-game") is None
        True
    """
    rules = RULESETS.get(name)
    return None if rules is None else dict(rules_to_json(rules))


def bot_list() -> list[dict[str, object]]:
    """The house bots a ``create`` message may seat (``GET /api/bots``), in `BOTS` order.

    ``slow`` marks the search bots, which the limits per address count.

    Example:
        >>> bot_list()[:2]
        [{'name': 'random', 'slow': False}, {'name': 'greedy', 'slow': False}]
        >>> [bot["name"] for bot in bot_list() if bot["slow"]]
        ['pimc', 'ismcts']
    """
    return [{"name": name, "slow": name in SLOW_BOTS} for name in BOTS]


def page() -> str:
    """The browser client's page, its rules options one per preset of `preset_list`.

    Example:
        >>> '<option>kenneth-lo</option>' in page()
        True
    """
    template = (STATIC / "index.html").read_text(encoding="utf-8")
    options = "".join(f"<option>{html.escape(name)}</option>" for name in RULESETS)
    return template.replace(_PRESET_OPTIONS, options, 1)


@lru_cache(maxsize=64)
def _card_svg(code: str) -> str | None:
    try:
        card = Card.parse(code)
    except InvalidCardError:
        return None
    if str(card) != code:
        return None
    return svg.card(card)


async def _connect(hub: Hub, websocket: WebSocket, backlog: int) -> None:
    """One client's WebSocket: its messages to *hub*, the hub's to it, at most *backlog* queued."""
    await websocket.accept()
    queue: asyncio.Queue[str] = asyncio.Queue(maxsize=backlog)
    loop = asyncio.get_running_loop()
    dropped = False

    def send(text: str) -> None:
        nonlocal dropped
        if writer.done():
            return  # dropped already
        try:
            queue.put_nowait(text)
        except asyncio.QueueFull:  # it stopped reading: drop it, memory stays bounded
            dropped = True
            writer.cancel()
            loop.call_soon(hub.close, client)  # not inside the hub's own loop

    async def write() -> None:
        try:
            while True:
                await websocket.send_text(await queue.get())
        except asyncio.CancelledError:
            if dropped:  # not gone by itself: say so, if it listens
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(websocket.close(code=1013), 1.0)
            raise

    writer = asyncio.create_task(write())
    peer = websocket.client
    client = hub.open(send, address="" if peer is None else peer.host)
    try:
        while not client.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            data = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            hub.receive(client, data)
    except WebSocketDisconnect:
        pass
    finally:
        hub.close(client)
        writer.cancel()
        await asyncio.wait({writer})


def _table_list(hub: Hub, request: Request) -> Response:
    """One page of ``GET /api/tables``: ``?page=`` (from 1) of ``?limit=`` tables.

    The body is the page's list (`Table.summary`); ``X-Total-Count`` gives the
    number of tables and a ``Link`` header the next page, when there is one.
    """
    try:
        page = int(request.query_params.get("page", "1"))
        limit = int(request.query_params.get("limit", str(TABLES_PER_PAGE)))
    except ValueError:
        page = limit = 0
    if not (1 <= page <= _MAX_PAGE and 1 <= limit <= TABLES_PER_PAGE):
        return JSONResponse(
            {"error": f"page: 1 to {_MAX_PAGE}; limit: 1 to {TABLES_PER_PAGE}"},
            status_code=400,
        )
    start = (page - 1) * limit
    listed = itertools.islice(hub.tables.values(), start, start + limit)
    headers = {"X-Total-Count": str(len(hub.tables))}
    if start + limit < len(hub.tables):
        headers["Link"] = f'</api/tables?page={page + 1}&limit={limit}>; rel="next"'
    return JSONResponse([table.summary() for table in listed], headers=headers)


def create_app(hub: Hub, *, tick: float = 0.05, backlog: int = _BACKLOG) -> Starlette:
    """The web application serving *hub*: ``/ws``, ``/``, ``/cards/<card>.svg``, ``/api``.

    ``/api/tables`` lists the tables without their ids (`Table.summary`): an id is
    the table's code, shared only by whoever created it. It lists `TABLES_PER_PAGE`
    at most: ``?page=2`` gives the next ones (``?limit=`` fewer), the ``Link``
    header points to the next page and ``X-Total-Count`` counts them all.

    Its lifespan runs the hub's timers every *tick* seconds (`Hub.run`) and shuts the
    hub's worker threads down at the end (`Hub.shutdown`). A client more than
    *backlog* messages behind (it stopped reading) is disconnected with close code
    1013; it may reconnect and resume from a snapshot.

    Example:
        >>> from starlette.testclient import TestClient
        >>> with TestClient(create_app(Hub())) as http:
        ...     picture = http.get("/cards/Th.svg")
        ...     missing = http.get("/cards/Zz.svg")
        >>> picture.headers["content-type"], "10 of hearts" in picture.text
        ('image/svg+xml', True)
        >>> missing.status_code
        404
    """

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        del app
        ticker = asyncio.create_task(hub.run(tick))
        try:
            yield
        finally:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
            hub.shutdown()

    async def index(request: Request) -> Response:
        del request
        return HTMLResponse(page(), headers=_HEADERS)

    async def presets(request: Request) -> Response:
        del request
        return JSONResponse(preset_list())

    async def preset(request: Request) -> Response:
        rules = preset_rules(str(request.path_params["name"]))
        if rules is None:
            return JSONResponse({"error": "no such preset"}, status_code=404)
        return JSONResponse(rules)

    async def bots(request: Request) -> Response:
        del request
        return JSONResponse(bot_list())

    async def favicon(request: Request) -> Response:
        """The page's icon, for clients that ask ``/favicon.ico`` whatever the page says."""
        del request
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def health(request: Request) -> Response:
        del request
        return JSONResponse({"tables": len(hub.tables)})

    async def tables(request: Request) -> Response:
        return _table_list(hub, request)

    async def card(request: Request) -> Response:
        picture = _card_svg(str(request.path_params["code"]))
        if picture is None:
            return Response("no such card", status_code=404)
        return Response(
            picture,
            media_type="image/svg+xml",
            headers={"Cache-Control": "public, max-age=86400"},
        )

    async def socket(websocket: WebSocket) -> None:
        await _connect(hub, websocket, backlog)

    routes = [
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/api/health", health),
        Route("/api/tables", tables),
        Route("/api/presets", presets),
        Route("/api/presets/{name}", preset),
        Route("/api/bots", bots),
        Route("/cards/{code}.svg", card),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
