"""A house-rules file in ``create`` (the New table dialog's upload): read as the CLI reads it."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

from tests.server.harness import Client, make_hub
from tienlen import CLASSIC, POKER, GameState
from tienlen.records import record, rules_to_json, to_json
from tienlen.server.tables import MAX_RULES_FILE

HOUSE = attrs.evolve(CLASSIC, name="our table", twos_in_straights=True, chop_chain=True)


def made(fields: dict[str, Any]) -> tuple[Client, list[dict[str, Any]]]:
    """A client that sent ``create`` with *fields*, and what it was answered."""
    hub, _ = make_hub()
    client = Client(hub)
    client.send({"type": "create", **fields})
    return client, client.new()


def test_a_rule_set_file_makes_the_table_with_those_rules() -> None:
    """The file's text as ``rules_to_json`` writes it (as ``--rules-file`` reads it)."""
    text = json.dumps(rules_to_json(HOUSE), indent=2)
    client, [answer] = made({"rulesFile": {"name": "ours.json", "text": text}})
    assert answer["type"] == "created", answer
    assert client.hub.tables[answer["table"]].rules == HOUSE


def test_a_game_record_file_gives_its_rules() -> None:
    """A whole game record: its rules are taken, as the CLI does."""
    state = GameState.deal(POKER, 4, seed=5)
    text = json.dumps(to_json(record(state)))
    client, [answer] = made(
        {"rulesFile": {"text": text}, "seats": ["open", "greedy"] * 2}
    )
    assert answer["type"] == "created", answer
    assert client.hub.tables[answer["table"]].rules == POKER


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("{not json", "not JSON"),
        ('{"name": "x", "settings": {"decks": "two"}}', "rules.settings.decks"),
        ('{"name": "x", "settings": {"teleport": true}}', "teleport"),
        ('{"name": "x", "settings": {"min_players": 5, "max_players": 3}}', "rules"),
        ('{"name": "x", "name": "y", "settings": {}}', "duplicate key"),
        ("[1, 2, 3]", "expected name and settings"),
        (" " * (MAX_RULES_FILE + 1), "larger than"),
    ],
)
def test_a_bad_rules_file_gets_the_librarys_refusal_in_both_languages(
    text: str, said: str
) -> None:
    """``bad-rules-file`` with ``localized`` en and vi; no table is made."""
    client, [error] = made({"rulesFile": {"name": "ours.json", "text": text}})
    assert (error["type"], error["code"], error["in"]) == (
        "error",
        "bad-rules-file",
        "create",
    )
    assert said in error["message"], error
    assert error["localized"]["en"] == error["message"]
    assert error["localized"]["vi"].startswith(
        "không đọc được luật chơi trong tệp 'ours.json'"
    )
    assert said in error["localized"]["vi"]
    assert client.hub.tables == {}
    assert client.connection.created == 0


@pytest.mark.parametrize(
    "upload",
    [
        "{}",
        ["{}"],
        None,
        {},
        {"text": 3},
        {"text": "{}", "name": 4},
        {"text": "{}", "name": "n" * 101},
        {"text": "{}", "path": "/etc/passwd"},
    ],
)
def test_a_malformed_upload_is_a_bad_message(upload: object) -> None:
    """``rulesFile`` is ``{"name", "text"}``, both text: anything else is refused."""
    client, [error] = made({"rulesFile": upload})
    assert (error["code"], error["in"]) == ("bad-message", "create"), error
    assert client.hub.tables == {}


def test_rules_and_a_rules_file_together_are_refused() -> None:
    """One source of rules: ``rules`` or ``rulesFile``."""
    text = json.dumps(rules_to_json(HOUSE))
    client, [error] = made({"rules": "classic", "rulesFile": {"text": text}})
    assert (error["code"], error["message"]) == (
        "bad-message",
        "rules or rulesFile, not both",
    )
    assert client.hub.tables == {}
