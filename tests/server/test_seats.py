"""Seats: leaving, a rematch, people replacing bots, and the search bots off the event loop."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from tests.server.harness import Client, create, join, make_hub


def _finish(client: Client, hub_table: object) -> None:
    """Play seat moves (the first legal one) until the hand is over."""
    table = hub_table
    for _ in range(300):
        if table.between:  # type: ignore[attr-defined]
            return
        ply = len(table.state.history)  # type: ignore[attr-defined]
        client.send({"type": "move", "index": 0, "ply": ply})
    raise AssertionError("the hand did not end")


def test_leave_gives_the_seat_back_to_its_bot() -> None:
    """After ``leave`` the seat is the house bot's, the credential is void, the client watches."""
    hub, _ = make_hub()
    owner = Client(hub)
    table = hub.tables[create(owner, rules="classic", seed=2)]
    token = join(owner, table.id, 0)
    owner.send({"type": "leave"})
    assert owner.new()[0] == {"v": 1, "type": "left", "seat": 0}
    assert table.seats[0].by_bot
    assert owner.connection.seat is None
    other = Client(hub)
    other.send({"type": "hello", "table": table.id, "seat": 0, "token": token})
    assert other.new()[-1]["code"] == "bad-credential"
    join(other, table.id, 0)  # a person takes the seat over from the bot


def test_rematch_after_the_last_hand() -> None:
    """A one-hand match: ``matchEnd``, then ``rematch`` deals a new match at the same seats."""
    hub, _ = make_hub()
    owner = Client(hub)
    table = hub.tables[create(owner, rules="justus-pang", seed=6, hands=1)]
    join(owner, table.id, 0)
    _finish(owner, table)
    kinds = [m["type"] for m in owner.new()]
    assert kinds[-2:] == ["handEnd", "matchEnd"]
    owner.send({"type": "ready"})
    assert owner.new()[-1]["code"] == "not-between-hands"
    owner.send({"type": "rematch"})
    full = [m for m in owner.new() if m["type"] == "gameFull"]
    assert full
    assert full[0]["table"]["hand"] == 2
    assert full[0]["table"]["totals"] == [0, 0, 0, 0]
    assert not table.between
    assert table.match.game_count == 0


def test_a_search_bot_thinks_off_the_loop() -> None:
    """A PIMC seat is asked in a worker thread; its move is applied by a later tick."""
    hub, _ = make_hub()
    owner = Client(hub)
    table = hub.tables[
        create(owner, rules="classic", seed=8, bots=["greedy", "pimc", "pimc", "pimc"])
    ]
    join(owner, table.id, 0)
    thought = 0  # moves that came from a worker thread
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and thought < 3 and not table.between:
        if table.state.to_act == 0:
            owner.send({"type": "move", "index": 0, "ply": len(table.state.history)})
            continue
        assert table.thinking is not None  # a search bot's turn: it is thinking
        thinker = table.thinking[1]
        before = len(table.state.history)
        while len(table.state.history) == before:
            time.sleep(0.02)
            hub.tick()
        assert table.state.history[before].player == thinker
        thought += 1
    assert thought == 3


def test_a_failing_timer_is_logged_and_the_ticker_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """`Hub.run` logs a tick that raises (a full disk, say) and keeps ticking."""
    hub, _ = make_hub()
    calls = []

    def tick() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise OSError("disk full")

    hub.tick = tick  # type: ignore[method-assign]

    async def briefly() -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(hub.run(0.01), 0.2)

    asyncio.run(briefly())
    assert len(calls) > 2
    assert "a timer failed" in caplog.text
