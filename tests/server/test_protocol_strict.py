"""The protocol taken strictly: replayed moves, strict JSON, the bots' own randomness, names."""

from __future__ import annotations

import random
import re
import secrets
from pathlib import Path
from typing import Any

import pytest

from tests.server.harness import Client, create, join, make_hub, snapshot
from tienlen.server import names, tables
from tienlen.server.storage import SQLiteStorage
from tienlen.server.tables import BOTS, Hub, Table


def _seated(hub: Hub) -> tuple[Client, Client, Table]:
    """A classic table (the harness's seed gives seat 0 the lead), a seat and a watcher."""
    owner, watcher = Client(hub), Client(hub)
    table = hub.tables[create(owner, rules="classic", seed=1)]
    join(owner, table.id, 0)
    watcher.send({"type": "watch", "table": table.id})
    owner.new(), watcher.new()
    assert table.state.to_act == 0
    return owner, watcher, table


def _refused(client: Client, message: dict[str, Any] | str, table: Table) -> str:
    """Send *message*: refused with one error to its sender, the table unchanged; the code."""
    before = snapshot(table)
    client.send(message)
    answer = client.new()
    assert [m["type"] for m in answer] == ["error"], answer
    assert snapshot(table) == before
    return str(answer[0]["code"])


# -- replayed moves ---------------------------------------------------------------------


def test_a_move_by_index_without_its_ply_is_refused_stale() -> None:
    """An index names an action of one ply's list: without the ply it is refused."""
    hub, _ = make_hub()
    owner, watcher, table = _seated(hub)
    assert _refused(owner, {"type": "move", "index": 0}, table) == "stale"
    assert watcher.new() == []


def test_a_replayed_move_is_played_once() -> None:
    """The same ``move`` delivered twice (a network replay) plays one action."""
    hub, _ = make_hub()
    owner, _, table = _seated(hub)
    ply = len(table.state.history)
    move = {"type": "move", "index": 0, "ply": ply}
    owner.send(move)
    assert owner.new()[-1]["type"] == "gameState"
    mine = [a for a in table.state.history[ply:] if a.player == 0]
    assert len(mine) == 1
    assert _refused(owner, move, table) == "stale"


@pytest.mark.parametrize("ply", [True, 0.0, "0", [0]])
def test_a_ply_that_is_no_integer_is_refused(ply: object) -> None:
    """``"ply": true`` is no ply, even where ``true == 1``."""
    hub, _ = make_hub()
    owner, _, table = _seated(hub)
    move = {"type": "move", "action": "pass", "ply": ply}
    assert _refused(owner, move, table) == "bad-message"


def test_a_move_by_text_may_still_omit_the_ply() -> None:
    """Card text names its action whatever the ply: it may come without one."""
    hub, _ = make_hub()
    owner, _, table = _seated(hub)
    text = str(table.legal(0)[0])
    owner.send({"type": "move", "action": text})
    assert owner.new()[-1]["type"] == "gameState"
    assert any(str(a) == text and a.player == 0 for a in table.state.history)


# -- strict JSON ------------------------------------------------------------------------

STRICT = [
    ("duplicate type", '{"v": 1, "type": "ping", "type": "create"}', "bad-json"),
    ("duplicate deep", '{"v": 1, "type": "ping", "x": {"a": 1, "a": 2}}', "bad-json"),
    ("duplicate v", '{"v": 2, "v": 1, "type": "ping"}', "bad-json"),
    ("NaN", '{"v": 1, "type": "ping", "x": NaN}', "bad-json"),
    ("Infinity", '{"v": 1, "type": "ping", "x": -Infinity}', "bad-json"),
    ("overflow", '{"v": 1, "type": "ping", "x": 1e999}', "bad-json"),
    ("v true", '{"v": true, "type": "ping"}', "bad-version"),
    ("v float", '{"v": 1.0, "type": "ping"}', "bad-version"),
    ("v text", '{"v": "1", "type": "ping"}', "bad-version"),
    ("v null", '{"v": null, "type": "ping"}', "bad-version"),
]


@pytest.mark.parametrize(("what", "text", "code"), STRICT, ids=[s[0] for s in STRICT])
def test_lenient_json_is_refused(what: str, text: str, code: str) -> None:
    """A key twice, a non-finite number, a ``v`` not the integer 1: refused, nothing done."""
    del what
    hub, _ = make_hub()
    owner, watcher, table = _seated(hub)
    assert _refused(owner, text, table) == code
    assert watcher.new() == []
    assert list(hub.tables) == [table.id]  # the duplicate "create" made no table


def test_a_message_without_v_is_read_as_version_1() -> None:
    """``v`` defaults to 1 (as before); only a present ``v`` must be the integer 1."""
    hub, _ = make_hub()
    client = Client(hub)
    client.send('{"type": "ping"}')
    assert client.new() == [{"v": 1, "type": "pong"}]


# -- the house bots' randomness ---------------------------------------------------------


def test_the_bots_randomness_is_not_the_deal_seed() -> None:
    """Two tables dealt from one seed: the same deals, bots drawing from other sources."""
    hub, _ = make_hub(seeds=lambda: 42)
    owner = Client(hub)
    first = hub.tables[create(owner, rules="classic", bots=["random"] * 4)]
    second = hub.tables[create(owner, rules="classic", bots=["random"] * 4)]
    assert first.state.dealt == second.state.dealt  # deals still follow the seed
    from_seed = random.Random(42).getstate()
    assert first.rng.getstate() != from_seed
    assert first.rng.getstate() != second.rng.getstate()


def test_the_bots_randomness_comes_from_secrets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each table's bot source is seeded by `secrets`, on creation and on restore."""
    drawn = iter([1111, 2222])
    monkeypatch.setattr(secrets, "randbits", lambda _bits: next(drawn))
    storage = SQLiteStorage(":memory:")
    hub, _ = make_hub(storage=storage, seeds=lambda: 42)
    player = Client(hub)
    table = hub.tables[create(player, rules="classic")]
    assert table.rng.getstate() == random.Random(1111).getstate()
    seat = table.state.to_act
    assert seat is not None
    join(player, table.id, seat)  # a table nobody moved at is not restored
    player.send({"v": 1, "type": "move", "index": 0, "ply": len(table.state.history)})
    assert table.seats[seat].moved
    again = Hub(storage)
    again.restore()
    assert again.tables[table.id].rng.getstate() == random.Random(2222).getstate()
    assert again.tables[table.id].state == table.state


# -- names ------------------------------------------------------------------------------


def _wide(text: str) -> str:
    """*text* in full-width forms (U+FF01 to U+FF5E; a space as U+3000)."""
    return "".join(
        "\u3000" if char == " " else chr(ord(char) + 0xFEE0) for char in text
    )


LOOK_ALIKES = [
    "\u3164",  # HANGUL FILLER: shows as blank
    "\u3164\u3164",
    "\uffa0",  # HALFWIDTH HANGUL FILLER
    "\u115f",
    "\u2800",  # BRAILLE PATTERN BLANK
    "Ann\u3164",  # looks like "Ann"
    "Ann\ufe0f",  # a variation selector on a letter shows nothing
    "\u034f",  # COMBINING GRAPHEME JOINER
    "\u200b",  # ZERO WIDTH SPACE: a format character
    "\u00ad",  # SOFT HYPHEN
    "\u3000",  # IDEOGRAPHIC SPACE: blank
    "   ",
    "e" + "\u0301" * 4,  # marks piled on one letter
    "bot",
    "Bot 2 · greedy",
    "bot 3 (ismcts)",
    _wide("Bot 1 random"),  # NFKC reads it as the label
    "Máy 2 · greedy",
    "máy 3",
    "seat 2",
    _wide("Seat 3"),
    "ghế 1",
    "you",
    "\ufdfa" * 3,  # one character each, 18 once normalised: too long
]


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_look_alike_name_is_refused(name: str) -> None:
    """Blank or invisible names and the page's own labels for seats are refused."""
    hub, _ = make_hub()
    owner = Client(hub)
    table = hub.tables[create(owner, rules="classic", seed=1)]
    message = {"type": "join", "table": table.id, "seat": 0, "name": name}
    assert _refused(owner, message, table) == "bad-name"
    assert table.seats[0].token_hash is None


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        (_wide("Ann"), "Ann"),  # the name everyone reads
        ("  Ann   Lee ", "Ann Lee"),
        ("Nguye\u0302\u0303n", "Nguyễn"),  # decomposed: composed
        ("❤\ufe0f Ann", "❤\ufe0f Ann"),  # an emoji's variation selector
        ("Housebot fan", "Housebot fan"),
        ("greedy bot", "greedy bot"),  # what `tienlen bot` calls itself
        ("", ""),
    ],
)
def test_a_name_is_kept_normalised(typed: str, kept: str) -> None:
    """A name is stored and shown NFKC-normalised, spaces collapsed."""
    hub, _ = make_hub()
    owner = Client(hub)
    table = hub.tables[create(owner, rules="classic", seed=1)]
    owner.send({"type": "join", "table": table.id, "seat": 0, "name": typed})
    assert owner.new()[0]["type"] == "joined"
    assert table.seats[0].name == kept
    shown = table.info()["seats"][0]["name"]  # type: ignore[index]
    assert shown == (kept or "seat 0")


def test_the_page_labels_are_the_pages_own_words() -> None:
    """The labels refused are those static/app.js writes, in both languages."""
    page = (Path(tables.__file__).parent / "static" / "app.js").read_text("utf-8")
    labels = {label.casefold() for label in names.page_labels(BOTS).values()}
    for key in ("house", "seat", "you", "open"):
        words = re.findall(rf'\b{key}: "([^"]+)"', page)
        assert len(words) == 2, key  # English and Vietnamese
        for word in map(str.casefold, words):
            assert word in labels or f"{word} 1" in labels, word
            if key == "house":
                assert all(f"{word} 1 · {bot}" in labels for bot in BOTS)


def test_a_refused_name_pickles() -> None:
    """The error `seat_name` raises pickles (it may cross a process pool)."""
    import pickle  # noqa: PLC0415

    with pytest.raises(names.NameRefusedError) as caught:
        names.seat_name("\u3164", BOTS)
    again = pickle.loads(pickle.dumps(caught.value))  # noqa: S301  # our own bytes
    assert str(again) == str(caught.value)
