"""What the browser table needs to show who played what and why the points are what they are.

The current trick's start (``trickStart``), the move clock's time left (``clockLeft``)
and a hand's score explained (``result.items``): all public, and all consistent with
the engine.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.server.harness import Client, Clock, create, join, make_hub
from tienlen import POKER, GameResult, GameState, Hand, ScoreItem, ScoreKind
from tienlen.rules import as_combo
from tienlen.server import protocol
from tienlen.server.storage import SQLiteStorage
from tienlen.server.tables import Hub, Table, trick_start


def _move(client: Client, table: Table) -> None:
    client.send({"type": "move", "index": 0, "ply": len(table.state.history)})


def _led_with_nothing_to_beat(start: GameState, table: Table, ply: int) -> bool:
    """Whether the action at *ply* was taken with no combination on the table."""
    state = start
    for action in table.state.history[:ply]:
        state = state.apply(action)
    return state.top is None


def test_every_game_state_says_where_the_trick_starts() -> None:
    """``trickStart`` is the latest lead, as a replay of the hand finds it."""
    hub, _ = make_hub()
    owner = Client(hub)
    table = hub.tables[create(owner, rules="classic", seed=3, hands=1)]
    join(owner, table.id, 0)
    start = table.match.deal()
    starts = set()
    while not table.between:
        _move(owner, table)
        ply = owner.last("gameState")["trickStart"]
        assert ply == trick_start(start, table.state.history)
        assert _led_with_nothing_to_beat(start, table, ply)
        starts.add(ply)
    assert len(starts) > 1  # several tricks were played


def test_a_restored_table_keeps_its_trick(tmp_path: Path) -> None:
    """A hub restarted mid-trick sends the same ``trickStart``."""
    hub = Hub(SQLiteStorage(tmp_path / "t.db"), clock=Clock(), rate=1e9, burst=1e9)
    owner = Client(hub)
    table = hub.tables[create(owner, rules="classic", seed=5)]
    token = join(owner, table.id, 0)
    while table.trick_start == 0:  # into the second trick
        _move(owner, table)
    again = Hub(SQLiteStorage(tmp_path / "t.db"), clock=Clock(), rate=1e9, burst=1e9)
    again.restore()
    back = Client(again)
    back.send({"type": "hello", "table": table.id, "seat": 0, "token": token})
    assert back.last("gameFull")["trickStart"] == table.trick_start
    assert again.tables[table.id].trick_start == table.trick_start


def test_the_move_clock_counts_down_in_every_snapshot() -> None:
    """``clockLeft`` is the clock less the time the seat to act has thought."""
    hub, clock = make_hub()
    owner, watcher = Client(hub), Client(hub)
    table = hub.tables[create(owner, rules="classic", seed=1, clock=30)]
    join(owner, table.id, table.state.to_act or 0)
    assert owner.last("gameFull")["clockLeft"] == 30.0
    clock.now += 12.5
    watcher.send({"type": "watch", "table": table.id})
    assert watcher.last("gameFull")["clockLeft"] == 17.5
    _move(owner, table)
    assert owner.last("gameState")["clockLeft"] == 30.0
    plain = hub.tables[create(watcher, rules="classic", seed=1)]
    other = Client(hub)
    other.send({"type": "watch", "table": plain.id})
    assert other.last("gameFull")["clockLeft"] is None


def test_a_hands_end_explains_every_point() -> None:
    """The items of ``handEnd`` add up to the scores; match results name no card."""
    hub, _ = make_hub()
    owner = Client(hub)
    table = hub.tables[create(owner, rules="classic", seed=2, hands=2)]
    join(owner, table.id, 0)
    while not table.between:
        _move(owner, table)
    ended = owner.last("handEnd")["result"]
    assert ended["items"]
    sums = [0] * 4
    for item in ended["items"]:
        sums[item["player"]] += item["points"]
        if item["payer"] is not None:
            sums[item["payer"]] -= item["points"]
    assert sums == ended["scores"]
    assert ended["instantWin"] is None or isinstance(ended["instantWin"], str)
    owner.send({"type": "ready"})
    during = owner.last("gameFull")["table"]["results"]
    assert all("combos" not in item for item in during[0]["items"])


def test_a_chop_names_its_cards_only_at_the_hands_end() -> None:
    """A chop's caught cards are in ``handEnd``'s result, not in a later hand's table."""
    caught = as_combo(Hand.parse("2s"), POKER)
    item = ScoreItem(kind=ScoreKind.CHOP, player=1, payer=0, points=4, combos=[caught])
    result = GameResult.from_items(players=2, finish_order=(1, 0), items=[item])
    shown = protocol.result_json(result)
    assert shown["items"] == [
        {"kind": "chop", "player": 1, "payer": 0, "points": 4, "combos": ["2s"]}
    ]
    assert shown["scores"] == [-4, 4]
    assert "2s" not in str(protocol.result_json(result, cards=False))


def test_the_page_has_an_icon() -> None:
    """The icon the page names is served, and ``/favicon.ico`` too: no 404 in a browser."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient  # noqa: PLC0415

    from tienlen.server.app import create_app  # noqa: PLC0415

    with TestClient(create_app(Hub())) as http:
        page = http.get("/").text
        found = re.search(r'<link rel="icon"[^>]* href="([^"]+)"', page)
        assert found is not None
        for path in (found.group(1), "/favicon.ico"):
            answer = http.get(path)
            assert answer.status_code == 200, path
            assert answer.headers["content-type"].startswith("image/svg+xml")
            assert answer.text.startswith("<svg")
