"""An in-process harness for the server's hub: clients with inboxes and a fake clock."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from tienlen import svg
from tienlen.cards import Card, Hand
from tienlen.server.tables import Connection, Hub, Table


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        """The time now."""
        return self.now


class Client:
    """One connection to a hub, with everything it was sent."""

    def __init__(self, hub: Hub, address: str = "") -> None:
        self.hub = hub
        self.inbox: list[str] = []
        self.connection: Connection = hub.open(self.inbox.append, address=address)
        self.read = 0

    def send(self, message: dict[str, Any] | str | bytes) -> None:
        """Send a message (a dict is written as JSON)."""
        data = message if isinstance(message, str | bytes) else json.dumps(message)
        self.hub.receive(self.connection, data)

    def new(self) -> list[dict[str, Any]]:
        """The messages received since the last call."""
        fresh = self.inbox[self.read :]
        self.read = len(self.inbox)
        return [json.loads(text) for text in fresh]

    def last(self, kind: str) -> dict[str, Any]:
        """The latest message of type *kind*."""
        for text in reversed(self.inbox):
            message = json.loads(text)
            if message["type"] == kind:
                return message  # type: ignore[no-any-return]
        msg = f"no {kind} message"
        raise AssertionError(msg)

    def close(self) -> None:
        """Drop the connection."""
        self.hub.close(self.connection)


def make_hub(**options: Any) -> tuple[Hub, Clock]:
    """A hub with a fake clock and no rate limit worth the name."""
    clock = Clock()
    options.setdefault("rate", 1e9)
    options.setdefault("burst", 1e9)
    options.setdefault("tables_per_connection", 1000)
    options.setdefault("tables_per_address", 1000)
    options.setdefault("creates_per_minute", 1e9)
    options.setdefault("create_burst", 1000)
    options.setdefault("server_creates_per_minute", 1e9)
    options.setdefault("server_create_burst", 1000)
    return Hub(clock=clock, **options), clock


def create(client: Client, seed: int | None = None, **settings: Any) -> str:
    """Create a table through *client*; its id.

    A client cannot choose the seed: a *seed* is the operator's (`Hub.seeds`).
    """
    hub, seeds = client.hub, client.hub.seeds
    if seed is not None:
        hub.seeds = lambda: seed
    try:
        client.send({"v": 1, "type": "create", **settings})
    finally:
        hub.seeds = seeds
    message = client.new()[-1]
    assert message["type"] == "created", message
    return str(message["table"])


def join(client: Client, table: str, seat: int, role: str = "human") -> str:
    """Claim *seat*; the credential."""
    client.send({"v": 1, "type": "join", "table": table, "seat": seat, "as": role})
    joined = [m for m in client.new() if m["type"] == "joined"]
    assert joined, client.inbox[-1]
    return str(joined[0]["token"])


def snapshot(table: Table) -> tuple[object, ...]:
    """What must not change when a message is refused."""
    return (
        table.state,
        table.state.history,
        table.number,
        table.between,
        frozenset(table.ready),
        [(s.token_hash, s.remote, s.taken_over, s.bot) for s in table.seats],
        table.match,
    )


def card_forms(card: Card) -> list[str]:
    """Every way the server could write *card*: notation, Unicode, the SVG title."""
    return [str(card), card.unicode(), svg._name(card)]


def leaked(text: str, forbidden: Iterable[Card]) -> list[str]:
    """The forms of *forbidden* cards that *text* (its raw UTF-8 bytes) contains."""
    raw = text.encode()
    found = []
    for card in forbidden:
        for form in card_forms(card):
            written = form.encode()
            if written not in raw:  # the quick answer, nearly always
                continue
            # A whole token: not inside a longer word or credential ("Kh" in "Không").
            pattern = _EDGE_BEFORE + re.escape(written) + _EDGE_AFTER
            if re.search(pattern, raw):
                found.append(form)
    return found


_EDGE_BEFORE = rb"(?<![A-Za-z0-9_\-\x80-\xff])"
_EDGE_AFTER = rb"(?![A-Za-z0-9_\-\x80-\xff])"


def hidden_from(table: Table, seat: int | None) -> list[Card]:
    """The cards *seat* (``None``: a spectator) must not see now in *table*'s hand.

    Cards held by the other seats, less the copies the seat holds itself or saw
    played (two decks hold every card twice).
    """
    state = table.state
    own = state.hand(seat) if seat is not None else Hand(0)
    played = Hand.from_cards(c for a in state.history for c in getattr(a, "cards", ()))
    hidden: set[Card] = set()
    for other in range(state.players):
        if other != seat:
            hidden.update(state.hand(other))
    return sorted(card for card in hidden if card not in own and card not in played)
