"""Connection limits for ``tienlen serve``: how many sockets, and how long each may idle.

uvicorn closes an HTTP connection that idles between requests (``timeout_keep_alive``)
and a WebSocket whose peer stops answering pings (``ws_ping_interval``,
``ws_ping_timeout``), but it keeps a socket that never finishes its request's headers
for good, and it never refuses a connection. `ConnectionLimits` sets those uvicorn
settings and adds the two it lacks, in `guarded_protocol`: caps on the connections
held at once, in all and from one client address (one more is closed as soon as it
is accepted), and a deadline for the headers of each request (a socket that sends
nothing, or its headers a byte at a time, is closed when it passes).

Example:
    >>> limits = ConnectionLimits(max_connections=100, header_timeout=5)
    >>> options = limits.uvicorn_options()
    >>> options["timeout_keep_alive"], options["ws_ping_interval"]
    (5, 20.0)
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

import attrs

from tienlen.errors import InvalidArgumentError

__all__ = ["ConnectionLimits", "guarded_protocol"]


def _positive(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    del instance
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not 0 < value < float("inf")
    ):
        msg = f"{attribute.name} must be a finite number above zero, not {value!r:.40}"
        raise InvalidArgumentError(msg)


def _count(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if type(value) is not int:
        msg = f"{attribute.name} must be a whole number, not {value!r:.40}"
        raise InvalidArgumentError(msg)
    _positive(instance, attribute, value)


def _addresses(value: Iterable[str]) -> tuple[str, ...]:
    addresses = tuple(value)
    if isinstance(value, str) or not all(isinstance(item, str) for item in addresses):
        msg = f"proxies must be a sequence of addresses, not {value!r:.40}"
        raise InvalidArgumentError(msg)
    return addresses


@attrs.frozen
class ConnectionLimits:
    """The limits on the connections of one server process.

    Raises:
        InvalidArgumentError: a limit that is not a positive number.

    Example:
        >>> ConnectionLimits(max_connections=0)
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidArgumentError: max_connections must be a finite number above zero, not 0
    """

    max_connections: int = attrs.field(default=1000, validator=_count)
    """The most connections (HTTP and WebSocket) held at once; one more is closed at once."""
    per_address: int = attrs.field(default=50, validator=_count)
    """The most connections held at once from one client address, but for *proxies*."""
    proxies: tuple[str, ...] = attrs.field(
        default=("127.0.0.1", "::1"), converter=_addresses
    )
    """Addresses *per_address* does not cap: a reverse proxy in front of the server
    (every client comes through it; the proxy caps each client). By default the
    loopback addresses, which uvicorn also trusts as proxies."""
    header_timeout: float = attrs.field(default=10.0, validator=_positive)
    """Seconds a connection has to send a request's headers, from the moment it is
    ready for one (accepted, or done with its last response)."""
    keep_alive: int = attrs.field(default=5, validator=_count)
    """Seconds an HTTP connection may idle between requests (uvicorn's ``timeout_keep_alive``)."""
    ws_ping: float = attrs.field(default=20.0, validator=_positive)
    """Seconds between WebSocket pings, and to wait for the answer before closing."""

    def uvicorn_options(self) -> dict[str, Any]:
        """The keyword arguments of ``uvicorn.run`` that set these limits.

        Example:
            >>> sorted(ConnectionLimits().uvicorn_options())
            ['http', 'timeout_keep_alive', 'ws_ping_interval', 'ws_ping_timeout']
        """
        return {
            "http": guarded_protocol(self),
            "timeout_keep_alive": self.keep_alive,
            "ws_ping_interval": self.ws_ping,
            "ws_ping_timeout": self.ws_ping,
        }


def guarded_protocol(limits: ConnectionLimits) -> type[asyncio.Protocol]:
    """The HTTP protocol class uvicorn picks, with *limits*' connection cap and header deadline.

    Example:
        >>> guarded_protocol(ConnectionLimits()).__name__
        'GuardedHTTPProtocol'
    """
    from uvicorn.protocols.http.auto import (  # noqa: PLC0415  # the server extra
        AutoHTTPProtocol,
    )

    base: Any = AutoHTTPProtocol  # uvicorn's h11 or httptools protocol

    class GuardedHTTPProtocol(base):  # type: ignore[misc]  # a class uvicorn chose
        """One HTTP connection, closed when over the cap or late with its headers."""

        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            if len(self.connections) > limits.max_connections or self._crowded():
                self.connections.discard(self)  # not held: others may take its place
                transport.close()  # over a cap: refused at once
                return
            self._await_headers()

        def _crowded(self) -> bool:
            """Whether this connection's address holds more than its share."""
            host = self.client[0] if self.client else None
            if host is None or host in limits.proxies:
                return False
            held = sum(
                1
                for connection in self.connections
                if (getattr(connection, "client", None) or (None,))[0] == host
            )
            return held > limits.per_address

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._await_headers()  # the next request's headers, in time too

        def connection_lost(self, exc: Exception | None) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            super().connection_lost(exc)

        def _await_headers(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._deadline = self.loop.call_later(
                limits.header_timeout, self._headers_due, self.cycle
            )

        def _headers_due(self, cycle: object) -> None:
            """Close the connection unless a request began since *cycle* or it upgraded."""
            self._deadline = None
            transport = self.transport
            if (
                self.cycle is cycle
                and transport.get_protocol() is self
                and not transport.is_closing()
            ):
                transport.close()

    return GuardedHTTPProtocol
