"""Seats kept for people: a table made with open seats deals once people take them."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

from tests.server.harness import Client, Clock, join, leaked, make_hub, snapshot
from tienlen import CLASSIC, Hand
from tienlen.server.protocol import observation_from_view
from tienlen.server.tables import Hub, ServerError

PLAN = ["open", "open", "greedy", "random"]


def waiting_table(plan: list[str] | None = None) -> tuple[Hub, Clock, Client, str, str]:
    """A hub with a table of *plan* made by a client: hub, clock, creator, id, host."""
    hub, clock = make_hub()
    creator = Client(hub, address="10.0.0.1")
    creator.send({"type": "create", "seats": plan or PLAN})
    created = creator.new()[-1]
    assert created["type"] == "created", created
    return hub, clock, creator, created["table"], created["host"]


def errors(client: Client) -> list[dict[str, Any]]:
    """The errors *client* was sent since it last read."""
    return [m for m in client.new() if m["type"] == "error"]


def test_a_table_with_open_seats_deals_nothing_until_they_are_taken() -> None:
    """No cards, no bot moves, no legal actions while a seat waits for a person."""
    hub, clock, creator, table_id, _ = waiting_table()
    table = hub.tables[table_id]
    assert table.waiting
    assert table.open_seats == 2
    assert [seat.open for seat in table.seats] == [True, True, False, False]
    join(creator, table_id, 0)
    clock.now += 1000
    hub.tick()
    assert table.state.history == ()
    assert table.waiting
    full = creator.last("gameFull")
    assert full["table"]["open"] == 1
    assert [seat["kind"] for seat in full["table"]["seats"]] == [
        "human",
        "open",
        "house",
        "house",
    ]
    assert [seat["cards"] for seat in full["table"]["seats"]] == [0] * 4
    state = full["state"]
    assert (state["seat"], state["hand"], state["legal"]) == (0, "", [])
    seen = observation_from_view(state, CLASSIC, [])  # as a remote seat reads it
    assert (len(seen.hand), seen.to_act, seen.card_counts) == (0, None, (0,) * 4)
    assert state["toAct"] is None
    assert state["counts"] == [0] * 4
    for text in creator.inbox:  # the hand to come is nobody's yet
        assert leaked(text, table.state.hand(0)) == []


def test_the_last_open_seat_taken_deals_the_hand_to_everyone() -> None:
    """A person taking the last open seat starts the hand: both get their cards."""
    hub, _, creator, table_id, _ = waiting_table()
    table = hub.tables[table_id]
    join(creator, table_id, 0)
    friend = Client(hub, address="10.0.0.2")
    join(friend, table_id, 1)
    assert not table.waiting
    for client, seat in ((creator, 0), (friend, 1)):
        state = client.last("gameFull")["state"]
        assert Hand.parse(state["hand"]) == table.state.hands[seat]
        assert client.last("gameFull")["table"]["open"] == 0
    assert table.state.to_act in (0, 1)  # the bots played on up to a person


def test_a_bot_seat_taken_at_a_waiting_table_does_not_start_it() -> None:
    """Only the open seats count: a person in a house bot's seat still waits."""
    hub, _, creator, table_id, _ = waiting_table()
    join(creator, table_id, 0)
    join(Client(hub), table_id, 2)
    assert hub.tables[table_id].waiting
    assert hub.tables[table_id].open_seats == 1


def test_a_move_at_a_waiting_table_is_refused() -> None:
    """Nothing is dealt: moves and checks are refused, nothing changes."""
    hub, _, creator, table_id, _ = waiting_table()
    table = hub.tables[table_id]
    join(creator, table_id, 0)
    before = snapshot(table)
    for kind in ("move", "check"):
        creator.send({"type": kind, "action": "pass"})
        [error] = errors(creator)
        assert error["code"] == "waiting", error
        assert "1 players" in error["message"]
    assert snapshot(table) == before


def test_the_creator_fills_the_open_seats_with_bots_and_starts() -> None:
    """``start`` with the ``host`` credential of ``created``: greedy bots sit, it deals."""
    hub, _, creator, table_id, host = waiting_table()
    table = hub.tables[table_id]
    join(creator, table_id, 0)
    creator.send({"type": "start", "host": host})
    assert not table.waiting
    assert table.host_hash is None
    assert [seat.bot for seat in table.seats] == [
        "greedy",
        "greedy",
        "greedy",
        "random",
    ]
    assert Hand.parse(creator.last("gameFull")["state"]["hand"]) == table.state.hands[0]
    assert (
        table.state.to_act == 0 or table.state.history
    )  # the bots played up to seat 0


def test_start_is_refused_to_anyone_but_the_seated_creator() -> None:
    """A wrong or missing host credential, no seat, a table not waiting: refused."""
    hub, _, creator, table_id, host = waiting_table()
    table = hub.tables[table_id]
    other = Client(hub, address="10.0.0.1")  # the same address is no credential
    other.send({"type": "start", "host": host})
    assert errors(other)[0]["code"] == "not-seated"
    join(other, table_id, 1)
    before = snapshot(table)
    for wrong in ({}, {"host": "x" * 43}, {"host": 7}, {"host": None}):
        other.send({"type": "start", **wrong})
        [error] = errors(other)
        assert error["code"] == "not-host", (wrong, error)
    assert snapshot(table) == before
    assert table.waiting
    join(creator, table_id, 0)  # the last open seat: dealt
    creator.send({"type": "start", "host": host})
    assert errors(creator)[0]["code"] == "not-waiting"


def test_leaving_a_persons_seat_at_a_waiting_table_opens_it_again() -> None:
    """The table goes on waiting for a person, not for its house bot."""
    hub, _, creator, table_id, _ = waiting_table()
    table = hub.tables[table_id]
    join(creator, table_id, 0)
    creator.send({"type": "leave"})
    assert table.seats[0].open
    assert table.open_seats == 2
    friend = Client(hub)
    join(friend, table_id, 2)  # a bot's seat: left, it is the bot's again
    friend.send({"type": "leave"})
    assert not table.seats[2].open
    assert table.open_seats == 2


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"seats": ["open", "greedy", "greedy"], "players": 4}, "one per seat (4)"),
        ({"seats": ["greedy"] * 4}, 'at least one "open" seat'),
        ({"seats": ["open", "alphago", "greedy", "greedy"]}, "each one of open"),
        ({"seats": ["open", "Greedy", "greedy", "greedy"]}, "each one of open"),
        ({"seats": "open,greedy"}, "each one of open"),
        ({"seats": ["open", 1, None, ["greedy"]]}, "each one of open"),
        ({"seats": ["open"]}, "2 to 8 seats"),
        ({"seats": ["open"] * 9}, "2 to 8 seats"),
        ({"seats": {"0": "open"}}, "each one of open"),
        ({"seats": ["open"] * 4, "bots": ["greedy"] * 4}, "seats or bots"),
    ],
)
def test_a_bad_seat_list_is_refused_and_nothing_is_made(
    fields: dict[str, Any], said: str
) -> None:
    """Wrong length, no person's seat, an unknown bot, junk: ``bad-message``."""
    hub, _ = make_hub()
    client = Client(hub)
    client.send({"type": "create", **fields})
    [error] = errors(client)
    assert (error["code"], error["in"]) == ("bad-message", "create")
    assert said in error["message"], error
    assert hub.tables == {}
    assert client.connection.created == 0


def test_the_seat_list_sets_the_number_of_players() -> None:
    """Without ``players``, there are as many seats as listed."""
    hub, _, _, table_id, _ = waiting_table(["pimc", "open", "ismcts"])
    table = hub.tables[table_id]
    assert table.players == 3
    assert [seat.bot for seat in table.seats] == ["pimc", "greedy", "ismcts"]
    hub.shutdown()


def test_open_seats_are_listed_in_the_lobby() -> None:
    """``GET /api/tables`` (`Table.summary`) counts the open seats."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient  # noqa: PLC0415

    from tienlen.server.app import create_app  # noqa: PLC0415

    hub, _, creator, table_id, _ = waiting_table()
    join(creator, table_id, 0)
    with TestClient(create_app(hub)) as http:
        [listed] = http.get("/api/tables").json()
    assert (listed["open"], listed["seated"]) == (1, 1)


def test_a_waiting_table_nobody_is_at_is_reaped_on_the_idle_clock() -> None:
    """Open seats that never fill do not keep a table: `Hub.idle` removes it."""
    hub, clock, creator, table_id, _ = waiting_table()
    join(creator, table_id, 0)
    clock.now += hub.idle * 10
    hub.tick()
    assert table_id in hub.tables  # its creator is there: kept
    creator.close()
    clock.now += hub.idle - 1
    hub.tick()
    assert table_id in hub.tables
    clock.now += 2
    hub.tick()
    assert table_id not in hub.tables


def test_a_waiting_table_is_saved_with_its_open_seats() -> None:
    """`Table.meta` keeps which seats wait; a rebuilt table still waits."""
    from tienlen.server.storage import SQLiteStorage  # noqa: PLC0415

    storage = SQLiteStorage(":memory:")
    hub = Hub(storage)
    hub.create_table(CLASSIC, seed=3, table_id="w", open_seats=[1], permanent=True)
    again = Hub(storage)
    assert again.restore() == 1
    table = again.tables["w"]
    assert table.waiting
    assert [seat.open for seat in table.seats] == [
        False,
        True,
        False,
        False,
    ]
    assert table.state.history == ()


def test_operator_tables_refuse_open_seats_out_of_range() -> None:
    """`Hub.create_table` checks *open_seats* too."""
    with pytest.raises(ServerError, match="open seats"):
        Hub().create_table(CLASSIC, 4, open_seats=[4])


def test_a_localized_refusal_pickles() -> None:
    """A `ServerError` with its English and Vietnamese pickles whole."""
    error = ServerError("bad-rules-file", "no", localized={"en": "no", "vi": "không"})
    copy = pickle.loads(pickle.dumps(error))  # noqa: S301  # our own bytes
    assert (copy.code, copy.localized, str(copy)) == (
        "bad-rules-file",
        {"en": "no", "vi": "không"},
        "no",
    )
    assert json.loads(json.dumps(copy.localized)) == copy.localized


@pytest.mark.parametrize(
    "name", ["Open seat 1", "open  SEAT", "Ghế trống 2", "ghế-trống"]
)
def test_a_name_that_reads_as_an_open_seat_is_refused(name: str) -> None:
    """Nobody sits down looking like a seat still free (``bad-name``)."""
    hub, _, _, table_id, _ = waiting_table()
    friend = Client(hub)
    friend.send({"type": "join", "table": table_id, "seat": 1, "name": name})
    [error] = errors(friend)
    assert error["code"] == "bad-name", error
    assert hub.tables[table_id].seats[1].open
