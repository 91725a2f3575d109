"""No message tells a seat or a spectator a card of another seat's hand before the reveal.

The check reads the raw UTF-8 bytes of every message the hub sends, at the moment it
is sent, against the engine's true hands: every notation the server writes (``Th``),
the Unicode form (``10♥``) and the SVG picture's title (``10 of hearts``).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.server.harness import (
    Client,
    Clock,
    create,
    hidden_from,
    join,
    leaked,
    make_hub,
)
from tienlen import Card
from tienlen.rules import CLASSIC_TWO_DECKS, RULESETS
from tienlen.server.tables import Connection, Hub, Table


class Checker:
    """The hub's tap: every message checked against the hands when it is sent."""

    def __init__(self) -> None:
        self.checked = 0
        self.problems: list[str] = []

    def __call__(self, client: Connection, text: str, table: Table | None) -> None:
        """Check one message as the hub sends it."""
        if table is None or table.state.is_over or table.between:
            return  # not at a table, or the hand is over and revealed
        self.checked += 1
        found = leaked(text, hidden_from(table, client.seat))
        if found:
            self.problems.append(f"seat {client.seat} was sent {found}: {text[:300]}")


def _reconnect(
    hub: Hub,
    clock: Clock,
    seats: dict[int, tuple[Client, str]],
    table_id: str,
    rng: random.Random,
) -> None:
    """One seat drops, the clock moves on (past the grace or not), it comes back."""
    seat = rng.choice(sorted(seats))
    client, token = seats[seat]
    client.close()
    clock.now += rng.choice([1.0, 10.0])
    hub.tick()
    again = Client(hub)
    again.send({"type": "hello", "table": table_id, "seat": seat, "token": token})
    seats[seat] = (again, token)


@pytest.mark.slow
@settings(max_examples=20)
@given(
    preset=st.sampled_from([*sorted(RULESETS), CLASSIC_TWO_DECKS.name]),
    size=st.integers(0, 11),
    humans=st.sets(st.integers(0, 7), min_size=1),
    seed=st.integers(0, 2**32),
)
def test_no_message_shows_another_seats_cards(
    preset: str, size: int, humans: set[int], seed: int
) -> None:
    """Random games: deals, moves, jump-ins, reconnects and spectators leak no card.

    One deck seats two to four, two decks five to eight (where a card the seat holds
    or saw played may be held by another seat too).
    """
    players = 5 + size % 4 if preset == CLASSIC_TWO_DECKS.name else 2 + size % 3
    checker = Checker()
    hub, clock = make_hub(tap=checker, grace=5.0)
    rng = random.Random(seed)
    owner = Client(hub)
    table_id = create(owner, rules=preset, players=players, hands=2, seed=seed)
    table = hub.tables[table_id]
    seats: dict[int, tuple[Client, str]] = {}
    for seat in sorted({s for s in humans if s < players} or {0}):
        client = owner if not seats else Client(hub)
        seats[seat] = (client, join(client, table_id, seat))
    spectators = [Client(hub)]
    spectators[0].send({"type": "watch", "table": table_id})
    for _ in range(600):
        if table.match_over:
            break
        roll = rng.random()
        if roll < 0.05:  # somebody drops and comes back, after the grace or not
            _reconnect(hub, clock, seats, table_id, rng)
            continue
        if roll < 0.08:
            watcher = Client(hub)
            watcher.send({"type": "watch", "table": table_id})
            spectators.append(watcher)
            continue
        if table.between:
            for client, _ in seats.values():
                client.send({"type": "ready"})
            continue
        movers = [s for s in seats if table.legal(s)]
        if not movers:
            clock.now += 10.0  # a seat taken over: its bot moves
            hub.tick()
            continue
        seat = rng.choice(movers)
        legal = table.legal(seat)
        choice = rng.randrange(len(legal))
        if rng.random() < 0.1:  # a refused move, with the seat's own cards
            own = list(table.state.hand(seat))
            text = " ".join(str(c) for c in rng.sample(own, min(2, len(own))))
            seats[seat][0].send({"type": "move", "action": text or "pass"})
        else:
            seats[seat][0].send(
                {"type": "move", "index": choice, "ply": len(table.state.history)}
            )
    played = any(result.instant_win is None for result in table.match.games)
    assert checker.checked > 0 or not played  # only instant wins: nothing was hidden
    assert not checker.problems, checker.problems[:3]


def test_the_checker_finds_a_leak() -> None:
    """The check itself: a message naming another seat's card in any form is caught."""
    hub, _ = make_hub()
    owner = Client(hub)
    table = hub.tables[create(owner, rules="classic", seed=3)]
    join(owner, table.id, 0)
    other = next(iter(table.state.hand(1)))
    for form in (str(other), other.unicode(), f"<title>{other.unicode()}</title>"):
        assert leaked(f'{{"x":"{form}"}}', [other]) or "title" in form
    assert leaked('{"hand":"' + str(other) + ' 3s"}', hidden_from(table, 0))
    assert not leaked('{"token":"ab' + str(other) + 'cd"}', [other])
    assert leaked(
        "<title>" + __import__("tienlen").svg._name(other) + "</title>", [other]
    )


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_poker_jump_ins_are_offered_only_to_their_seat(preset: str) -> None:
    """A seat's legal list holds only its own actions; another seat never sees them."""
    hub, _ = make_hub()
    owner = Client(hub)
    table = hub.tables[create(owner, rules=preset, seed=11)]
    clients = [owner, Client(hub), Client(hub), Client(hub)]
    for seat, client in enumerate(clients):
        join(client, table.id, seat)
    for _ in range(200):
        if table.between:
            break
        for seat, client in enumerate(clients):
            view = (
                client.last("gameState")["state"]
                if any('"gameState"' in t for t in client.inbox)
                else client.last("gameFull")["state"]
            )
            mine = [str(a) for a in table.legal(seat)]
            assert view["legal"] == mine
            assert all(a.player == seat for a in table.legal(seat))
        movers = [s for s in range(4) if table.legal(s)]
        seat = movers[-1]  # a jump-in when one is offered
        clients[seat].send(
            {"type": "move", "index": 0, "ply": len(table.state.history)}
        )
    assert table.between


def test_a_card_inside_a_word_is_no_leak() -> None:
    """Only whole tokens count: "Kh" in the Vietnamese "Không" names no card."""
    king = Card.parse("Kh")
    assert leaked('"Không"', [king]) == []
    assert leaked('"Kh"', [king]) == ["Kh"]
