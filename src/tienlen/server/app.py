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
from collections.abc import AsyncIterator
from functools import lru_cache
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from tienlen import svg
from tienlen.cards import Card
from tienlen.errors import InvalidCardError
from tienlen.server.tables import Hub

__all__ = ["STATIC", "create_app"]

STATIC = Path(__file__).parent / "static"
"""The browser client's files."""
_QUEUE_LIMIT = 2000
"""A client this many messages behind is dropped (it reconnects with a snapshot)."""


@lru_cache(maxsize=64)
def _card_svg(code: str) -> str | None:
    try:
        card = Card.parse(code)
    except InvalidCardError:
        return None
    if str(card) != code:
        return None
    return svg.card(card)


def create_app(hub: Hub, *, tick: float = 0.05) -> Starlette:
    """The web application serving *hub*: ``/ws``, ``/``, ``/cards/<card>.svg``, ``/api``.

    ``/api/tables`` lists the tables without their ids (`Table.summary`): an id is
    the table's code, shared only by whoever created it.

    Its lifespan runs the hub's timers every *tick* seconds (`Hub.run`).

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

    async def index(request: Request) -> Response:
        del request
        return FileResponse(STATIC / "index.html")

    async def health(request: Request) -> Response:
        del request
        return JSONResponse({"tables": len(hub.tables)})

    async def tables(request: Request) -> Response:
        del request
        return JSONResponse([table.summary() for table in hub.tables.values()])

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
        await websocket.accept()
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        client = hub.open(queue.put_nowait)

        async def write() -> None:
            while (text := await queue.get()) is not None:
                if queue.qsize() > _QUEUE_LIMIT:
                    await websocket.close(code=1008)
                    return
                await websocket.send_text(text)

        writer = asyncio.create_task(write())
        try:
            while True:
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
            queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer

    routes = [
        Route("/", index),
        Route("/api/health", health),
        Route("/api/tables", tables),
        Route("/cards/{code}.svg", card),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
