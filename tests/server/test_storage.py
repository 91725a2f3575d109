"""Storage: every action saved as the library's game record, and tables restored from it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.server.harness import Client, Clock, create, join
from tienlen.records import loads, record, to_json
from tienlen.server.storage import SQLiteStorage
from tienlen.server.tables import Hub


def _hub(path: Path) -> Hub:
    return Hub(SQLiteStorage(path), clock=Clock(), rate=1e9, burst=1e9)


def test_every_action_is_saved_as_the_hands_record(tmp_path: Path) -> None:
    """After each move the stored text is exactly the library's record of the hand so far."""
    hub = _hub(tmp_path / "t.db")
    owner = Client(hub)
    table = hub.tables[create(owner, rules="poker", seed=4, hands=2)]
    join(owner, table.id, 0)
    assert hub.storage is not None
    for _ in range(40):
        if table.between:
            break
        saved = hub.storage.load()[0].hands[-1]
        assert json.loads(saved[1]) == to_json(record(table.state))
        assert loads(saved[1]).final == table.state
        owner.send({"type": "move", "index": 0, "ply": len(table.state.history)})


def test_a_restarted_hub_has_every_table_where_it_was(tmp_path: Path) -> None:
    """Two tables, hands finished and in play: a new hub on the same file resumes them."""
    hub = _hub(tmp_path / "t.db")
    owner, other = Client(hub), Client(hub)
    first = hub.tables[create(owner, rules="classic", seed=1, hands=3)]
    second = hub.tables[create(other, rules="vietcong", seed=2)]
    token = join(owner, first.id, 0)
    join(other, second.id, 2)
    other.send({"type": "move", "index": 0, "ply": len(second.state.history)})
    assert second.seats[2].moved  # a table nobody played at is not restored
    while first.match.game_count < 1:
        if first.between:
            owner.send({"type": "ready"})
        else:
            owner.send({"type": "move", "index": 0, "ply": len(first.state.history)})
    owner.send({"type": "ready"})
    owner.send({"type": "move", "index": 0, "ply": len(first.state.history)})
    again = _hub(tmp_path / "t.db")
    assert again.restore() == 2
    for table in (first, second):
        copy = again.tables[table.id]
        assert copy.state == table.state
        assert copy.state.history == table.state.history
        assert copy.match == table.match
        assert copy.number == table.number
    back = Client(again)
    back.send({"type": "hello", "table": first.id, "seat": 0, "token": token})
    assert back.new()[-1]["type"] == "gameFull"


def test_a_corrupt_table_is_set_aside_by_name(tmp_path: Path) -> None:
    """A table whose saved record was tampered with is not half-built: it is set aside."""
    storage = SQLiteStorage(tmp_path / "t.db")
    hub = Hub(storage)
    table = hub.create_table(__import__("tienlen").CLASSIC, 4, seed=3)
    storage.save_hand(table.id, 1, '{"format": "tienlen-game"}', finished=False)
    again = Hub(SQLiteStorage(tmp_path / "t.db"))
    assert again.restore() == 0
    assert again.tables == {}
    assert again.quarantined[table.id].startswith(
        f"table {table.id!r} cannot be restored: invalid game record"
    )
