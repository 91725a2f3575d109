"""The routes the browser's New table dialog reads: a preset's rule set, the house bots."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from tests.server.harness import Client, create, make_hub
from tienlen.records import rules_to_json
from tienlen.rules import RULESETS
from tienlen.server.app import create_app
from tienlen.server.tables import BOTS, SLOW_BOTS, Hub


@pytest.mark.parametrize("name", list(RULESETS))
def test_a_preset_with_house_rules_toggled_makes_that_table(name: str) -> None:
    """``/api/presets/NAME`` is the rule set ``create`` takes, its booleans changeable."""
    with TestClient(create_app(Hub())) as http:
        answer = http.get(f"/api/presets/{name}")
    assert answer.status_code == 200
    rules: dict[str, Any] = answer.json()
    assert rules == rules_to_json(RULESETS[name])
    rules["settings"]["no_going_out_with_two"] = (
        True  # a house rule, as the page sends it
    )
    hub, _ = make_hub()
    table = hub.tables[create(Client(hub), rules=rules)]
    assert table.rules.no_going_out_with_two
    assert rules_to_json(table.rules) == rules


def test_no_preset_of_that_name_is_a_404() -> None:
    """An unknown preset (or an alias: one address each) is a 404, as JSON."""
    with TestClient(create_app(Hub())) as http:
        for name in ("no-such-game", "jp", "%3Cb%3E"):
            answer = http.get(f"/api/presets/{name}")
            assert answer.status_code == 404, name
            assert answer.json() == {"error": "no such preset"}


def test_the_bot_list_is_what_create_seats() -> None:
    """``/api/bots`` names every bot ``create`` accepts, the slow ones marked."""
    with TestClient(create_app(Hub())) as http:
        listed = http.get("/api/bots").json()
    assert [bot["name"] for bot in listed] == list(BOTS)
    assert {bot["name"] for bot in listed if bot["slow"]} == SLOW_BOTS
    hub, _ = make_hub()
    try:
        for bot in listed:  # one search bot a table: within the limit per address
            bots = [bot["name"], *["greedy"] * 3] if bot["slow"] else [bot["name"]] * 4
            table = hub.tables[create(Client(hub), bots=bots)]
            assert [seat.bot for seat in table.seats] == bots
    finally:
        hub.shutdown()
