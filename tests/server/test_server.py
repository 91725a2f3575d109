"""The server end to end: the app with several WebSockets, bad input, faults, restart, bots."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import threading
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

from starlette.testclient import TestClient
from websockets.sync.client import connect

from tests.server.harness import Client, create, join, make_hub, snapshot
from tests.server.serving import free_port, serving, start
from tienlen import CLASSIC, GreedyPlayer, Match, RandomPlayer
from tienlen.records import from_json, rules_from_json, rules_to_json
from tienlen.rules import RULESETS
from tienlen.server.app import create_app
from tienlen.server.bots import RemoteBot
from tienlen.server.tables import Hub

HOUSE = attrs.evolve(CLASSIC, twos_in_straights=False, name="house")


def bot_join(table: str, seat: int) -> str:
    """The message a bot sends to claim *seat* at *table*."""
    return json.dumps(
        {"v": 1, "type": "join", "table": table, "seat": seat, "as": "bot"}
    )


def _play_seat(socket: Any, bot: RemoteBot, log: list[dict[str, Any]]) -> None:
    """Answer every message of one seat's WebSocket with *bot* until the match ends."""
    while True:
        message = json.loads(socket.receive_text())
        log.append(message)
        for reply in bot.handle(message):
            socket.send_text(json.dumps({"v": 1, **reply}))
        if message["type"] == "matchEnd":
            return


@pytest.mark.parametrize("rules", [*sorted(RULESETS), "house"])
def test_four_seats_and_a_spectator_play_whole_hands(rules: str) -> None:
    """Each preset and a house-rule table: four WebSockets play two hands, one watches."""
    hub = Hub(rate=1e9, burst=1e9)
    data = rules_to_json(HOUSE) if rules == "house" else rules
    with TestClient(create_app(hub)) as http:
        with http.websocket_connect("/ws") as owner:
            owner.send_text(
                json.dumps({"v": 1, "type": "create", "rules": data, "hands": 2})
            )
            table = json.loads(owner.receive_text())["table"]
        sockets = [http.websocket_connect("/ws") for _ in range(5)]
        seats = [socket.__enter__() for socket in sockets]
        try:
            watcher = seats.pop()
            watcher.send_text(json.dumps({"v": 1, "type": "watch", "table": table}))
            # Watching before anyone sits: else a hand may end before the watch.
            full = json.loads(watcher.receive_text())
            assert full["type"] == "gameFull"
            # An instant win ends the first hand as it is dealt, before the watch
            # (3 % of Poker deals): its handEnd comes inside the snapshot.
            seen: list[dict[str, Any]] = [full["ended"]] if "ended" in full else []
            logs: list[list[dict[str, Any]]] = [[] for _ in range(4)]
            threads = []
            for seat, socket in enumerate(seats):
                bot = RemoteBot(
                    "-", table, seat, GreedyPlayer(), rng=random.Random(seat)
                )
                socket.send_text(bot_join(table, seat))
                threads.append(
                    threading.Thread(target=_play_seat, args=(socket, bot, logs[seat]))
                )
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(60)
            stuck = [seat for seat, thread in enumerate(threads) if thread.is_alive()]
            assert not stuck, (
                f"seats {stuck} did not finish: the watcher would wait forever"
            )
            while not seen or seen[-1]["type"] != "matchEnd":
                seen.append(json.loads(watcher.receive_text()))
        finally:
            for socket in sockets:
                socket.__exit__(None, None, None)
    assert all(log[-1]["type"] == "matchEnd" for log in logs)
    records = [m["record"] for m in seen if m["type"] == "handEnd"]
    assert len(records) == 2
    match = Match.start(
        rules_from_json(records[0]["rules"]), 4, hub.tables[table].match.seed
    )
    for data_ in records:
        match = match.record(from_json(data_).final)
    assert list(match.totals) == seen[-1]["totals"]
    assert all("hand" not in m.get("state", {}) for m in seen)  # the public view only


def _table(hub: Hub, client: Client) -> Any:
    return hub.tables[create(client, rules="classic", seed=1)]


BAD = [
    ("not json", "{nope", "bad-json"),
    ("not an object", "[1, 2]", "bad-message"),
    ("no type", '{"v": 1}', "bad-message"),
    ("unknown type", '{"v": 1, "type": "teleport"}', "unknown-type"),
    ("wrong version", '{"v": 2, "type": "ping"}', "bad-version"),
    (
        "too large",
        '{"v": 1, "type": "ping", "pad": "' + "x" * 20000 + '"}',
        "too-large",
    ),
    ("bad card text", '{"v": 1, "type": "move", "action": "3x"}', "bad-action"),
    ("bad index", '{"v": 1, "type": "move", "index": 999, "ply": "PLY"}', "bad-action"),
    ("stale ply", '{"v": 1, "type": "move", "index": 0, "ply": 77}', "stale"),
    (
        "not seated hello",
        '{"v": 1, "type": "hello", "table": "T", "seat": 1, "token": "x"}',
        "bad-credential",
    ),
    ("no table", '{"v": 1, "type": "watch", "table": "nope"}', "no-table"),
    ("no seat", '{"v": 1, "type": "join", "table": "T", "seat": 9}', "no-seat"),
    ("taken seat", '{"v": 1, "type": "join", "table": "T", "seat": 0}', "seat-taken"),
    ("ready mid-hand", '{"v": 1, "type": "ready"}', "not-between-hands"),
    ("rematch mid-match", '{"v": 1, "type": "rematch"}', "not-over"),
    ("bad rules", '{"v": 1, "type": "create", "rules": "chess"}', "bad-rules"),
    ("deep json", "[" * 5000 + "]" * 5000, "bad-json"),
]


@pytest.mark.parametrize(("what", "text", "code"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_refused_on_that_connection_only(
    what: str, text: str, code: str
) -> None:
    """Each bad message: an error with its code to the sender, nothing to others, no change."""
    del what
    hub, _ = make_hub()
    owner, other = Client(hub), Client(hub)
    table = _table(hub, owner)
    join(owner, table.id, 0)
    other.send({"type": "watch", "table": table.id})
    other.new()
    assert table.state.to_act == 0  # the harness's fixed seed deals seat 0 the lead
    before = snapshot(table)
    ply = str(len(table.state.history))
    owner.send(text.replace('"T"', json.dumps(table.id)).replace('"PLY"', ply))
    answer = owner.new()
    assert [m["type"] for m in answer] == ["error"], answer
    assert answer[0]["code"] == code
    assert other.new() == []
    assert snapshot(table) == before


def test_the_table_list_does_not_disclose_table_ids() -> None:
    """``GET /api/tables`` counts created tables but shows no id, token or name."""
    hub = Hub(rate=1e9, burst=1e9)
    with TestClient(create_app(hub)) as http:
        with http.websocket_connect("/ws") as owner:
            owner.send_text(json.dumps({"v": 1, "type": "create", "rules": "poker"}))
            table = json.loads(owner.receive_text())["table"]
            owner.send_text(
                json.dumps(
                    {"v": 1, "type": "join", "table": table, "seat": 1, "name": "Zoë"}
                )
            )
            token = json.loads(owner.receive_text())["token"]
        answer = http.get("/api/tables")
        health = http.get("/api/health").json()
    assert table in hub.tables
    assert answer.status_code == 200
    assert table not in answer.text
    assert token not in answer.text
    assert "Zo" not in answer.text
    listed = answer.json()
    assert len(listed) == health["tables"] == 1
    assert listed[0]["rules"] == "poker"
    assert listed[0]["seated"] == 1


def test_the_client_translates_only_error_codes_the_server_sends() -> None:
    """Every code in the browser client's ``TEXT.vi.errors`` is one the server raises."""
    static = resources.files("tienlen.server") / "static"
    script = (static / "app.js").read_text(encoding="utf-8")
    block = re.search(r"errors: \{ //(.*?)\} \}", script, re.DOTALL)
    assert block is not None
    translated = set(re.findall(r'^\s*"?([a-z-]+)"?: "', block.group(1), re.MULTILINE))
    server = (resources.files("tienlen.server") / "tables.py").read_text(
        encoding="utf-8"
    )
    raised = set(re.findall(r'ServerError\(\s*"([a-z-]+)"', server))
    met_by_a_visitor = {  # making a table, sitting down, playing
        *("stale", "between-hands", "seat-taken", "rate-limited", "bad-name"),
        *("full", "busy", "too-many-tables", "too-many-bots"),
    }
    assert met_by_a_visitor <= translated
    assert translated <= raised


def test_out_of_turn_illegal_and_wrong_credential_moves() -> None:
    """Out of turn, illegal, and a forged credential: refusals with the library's reason."""
    hub, _ = make_hub()
    owner, second = Client(hub), Client(hub)
    table = _table(hub, owner)
    join(owner, table.id, 0)
    join(second, table.id, 1)
    actor = table.state.to_act
    assert actor in (0, 1)  # the bots moved up to a person's turn
    clients = {0: owner, 1: second}
    waiting = 1 - actor
    before = snapshot(table)
    clients[waiting].send(
        {"type": "move", "action": str(next(iter(table.state.hand(waiting))))}
    )
    error = clients[waiting].new()[-1]
    assert error["code"] == "illegal"
    assert error["refusal"]["code"] == "NOT_YOUR_TURN"
    assert error["refusal"]["message"]["vi"]
    assert error["refusal"]["rule"] == "rules-1-5-2"
    clients[actor].send(
        {"type": "move", "action": str(next(iter(table.state.hand(waiting))))}
    )
    refusal = clients[actor].new()[-1]["refusal"]
    assert refusal["code"] == "CARDS_NOT_IN_HAND"
    assert refusal["message"]["en"] != refusal["message"]["vi"]
    thief = Client(hub)
    thief.send({"type": "hello", "table": table.id, "seat": 0, "token": "A" * 43})
    assert thief.new()[-1]["code"] == "bad-credential"
    assert snapshot(table) == before


def test_flood_is_rate_limited() -> None:
    """More messages than the burst: the extra ones are refused, the table unchanged."""
    hub, _ = make_hub(rate=1.0, burst=5.0)
    client = Client(hub)
    for _ in range(8):
        client.send({"type": "ping"})
    codes = [m.get("code", m["type"]) for m in client.new()]
    assert codes == ["pong"] * 5 + ["rate-limited"] * 3


def test_grace_then_takeover_then_hand_back() -> None:
    """A dropped seat waits out the grace; then its bot plays; the credential takes it back."""
    hub, clock = make_hub(grace=30.0)
    owner = Client(hub)
    table = _table(hub, owner)
    token = join(owner, table.id, 0)
    other = Client(hub)
    join(other, table.id, 1)
    owner.close()
    clock.now += 10
    hub.tick()
    assert not table.seats[0].taken_over
    back = Client(hub)
    back.send({"type": "hello", "table": table.id, "seat": 0, "token": token})
    full = back.new()[-1]
    assert full["type"] == "gameFull"
    assert full["you"] == 0
    assert full["state"]["hand"]
    back.close()
    clock.now += 31
    hub.tick()
    assert table.seats[0].taken_over
    assert table.state.to_act != 0 or table.between  # its bot moved for it
    again = Client(hub)
    again.send({"type": "hello", "table": table.id, "seat": 0, "token": token})
    assert not table.seats[0].taken_over
    assert again.new()[-1]["type"] == "gameFull"


def test_move_clock_plays_the_seats_bot() -> None:
    """With a move clock, a seat that does not move in time gets its bot's move."""
    hub, clock = make_hub(clock_seconds=5.0)
    owner = Client(hub)
    table = _table(hub, owner)
    join(owner, table.id, 0)
    ply = len(table.state.history)
    clock.now += 4
    hub.tick()
    assert len(table.state.history) == ply
    clock.now += 2
    hub.tick()
    assert len(table.state.history) > ply
    assert not table.seats[0].by_bot  # still the person's seat


@pytest.mark.slow
def test_sigkill_and_restart_resume_every_table(tmp_path: Path) -> None:
    """A real server killed with SIGKILL mid-hand restarts from --data where it was."""
    port = free_port()
    process = start(tmp_path, port, "--bot-delay", "0")
    url = f"ws://127.0.0.1:{port}/ws"
    try:
        with connect(url) as socket:
            socket.send(
                json.dumps({"v": 1, "type": "join", "table": "main", "seat": 0})
            )
            token = json.loads(socket.recv())["token"]
            full = json.loads(socket.recv())
            for _ in range(3):
                if full["state"]["toAct"] != 0:
                    break
                move = {"v": 1, "type": "move", "index": 0, "ply": full["ply"]}
                socket.send(json.dumps(move))
                while (full := json.loads(socket.recv()))[
                    "type"
                ] != "gameState" or full["state"]["toAct"] not in (0, None):
                    pass
            with connect(url) as watcher:
                watcher.send(json.dumps({"v": 1, "type": "watch", "table": "main"}))
                before = json.loads(watcher.recv())
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        if process.stderr is not None:
            process.stderr.close()
    with serving(tmp_path, "--bot-delay", "0") as port_again:
        url = f"ws://127.0.0.1:{port_again}/ws"
        with connect(url) as socket:
            socket.send(
                json.dumps(
                    {
                        "v": 1,
                        "type": "hello",
                        "table": "main",
                        "seat": 0,
                        "token": token,
                    }
                )
            )
            after = json.loads(socket.recv())
    assert after["type"] == "gameFull"
    assert after["history"] == before["history"]
    assert after["ply"] == before["ply"] > 0
    assert after["state"]["counts"] == before["state"]["counts"]


@pytest.mark.slow
def test_four_remote_bots_play_a_hundred_hands(tmp_path: Path) -> None:
    """Four `tienlen bot`-style clients over real WebSockets finish 100 hands; records replay."""
    with serving(tmp_path, "--bot-delay", "0") as port:
        url = f"ws://127.0.0.1:{port}/ws"
        with connect(url) as socket:
            socket.send(
                json.dumps(
                    {
                        "v": 1,
                        "type": "create",
                        "rules": "poker",
                        "hands": 100,
                    }
                )
            )
            table = json.loads(socket.recv())["table"]
        # Every seat is claimed before any bot plays: the server's own bots play a
        # seat nobody claimed, so a bot that joined late would miss whole hands.
        tokens: list[str] = []
        hands = 100
        for seat in range(4):
            with connect(url) as socket:
                socket.send(bot_join(table, seat))
                joined = json.loads(socket.recv())
                full = json.loads(socket.recv())
                assert (joined["type"], full["type"]) == ("joined", "gameFull")
                tokens.append(joined["token"])
                if seat == 0 and isinstance(full.get("ended"), dict):
                    hands = 99  # an instant win ended hand 1 at the deal: no bot's

        async def play() -> list[list[dict[str, Any]]]:
            bots = [
                RemoteBot(
                    url,
                    table,
                    seat,
                    GreedyPlayer() if seat % 2 else RandomPlayer(),
                    token=tokens[seat],
                    rng=random.Random(seat),
                )
                for seat in range(4)
            ]
            return await asyncio.gather(*(bot.run() for bot in bots))

        results = asyncio.run(asyncio.wait_for(play(), timeout=600))  # fail, not hang
    assert [len(records) for records in results] == [hands] * 4
    assert results[0] == results[1] == results[2] == results[3]
    # A client may not choose the seed (it would know every hand), so each record
    # is replayed on its own: its deal and actions give the result it reports.
    deals = set()
    for data in results[0]:
        final = from_json(data).final
        assert final.rules == RULESETS["poker"]
        assert [
            list(final.final_result().finish_order),
            list(final.final_result().scores),
        ] == [
            data["result"]["finish_order"],
            data["result"]["scores"],
        ]
        deals.add(tuple(final.dealt))
    assert len(deals) == hands  # a fresh deal every hand
