"""The reference game server: ``tienlen serve`` (needs ``pip install "tienlen[server]"``).

`tienlen.server.tables` holds tables, seats and connections without any web
framework; `tienlen.server.protocol` the JSON messages and the per-seat views;
`tienlen.server.names` the check of seat names;
`tienlen.server.storage` the `Storage` interface and its SQLite implementation;
`tienlen.server.app` the Starlette application (a WebSocket and the browser client);
`tienlen.server.bots` runs any library `Player` remotely over the protocol;
`tienlen.server.reviews` reviews finished hands (`tienlen.analysis`) off the event loop.
Only `app` and `bots` import Starlette, uvicorn or websockets. docs/server.md
describes the protocol.
"""
