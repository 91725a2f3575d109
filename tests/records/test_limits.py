"""Records as untrusted input: bounded work, short messages, strict JSON (issue 14 items 3, 9).

`loads` refuses a record above `MAX_SIZE` before parsing it, one with more than
`MAX_ACTIONS` actions or nesting deeper than `MAX_DEPTH` before building its rule set
or replaying it, repeats of a key in an object (a forged field before the real one),
and JSON's non-numbers. Every refusal is fast and its message short, whatever the size
of the offending value.
"""

from __future__ import annotations

import copy
import io
import json
import time
from collections.abc import Callable

import pytest

from tienlen import CLASSIC, GameState
from tienlen.records import (
    MAX_ACTIONS,
    MAX_DEPTH,
    MAX_SIZE,
    RecordError,
    dumps,
    from_json,
    load,
    loads,
    record,
)

Json = object
"""A decoded JSON value (the tests build and mutate them freely)."""

MESSAGE_LIMIT = 400
"""No `RecordError` message is longer, whatever the record holds."""


@pytest.fixture(scope="module")
def text() -> str:
    """A finished two-player classic game as record text."""
    state = GameState.from_hands(["3s 9h", "8d"], CLASSIC)
    state = state.play("3s").play("8d")
    assert state.is_over
    return dumps(record(state))


def refused(source: str | bytes, where: str, within: float = 1.0) -> RecordError:
    """`loads` refuses *source* at *where*, quickly and with a short message."""
    start = time.perf_counter()
    with pytest.raises(RecordError) as caught:
        loads(source)
    elapsed = time.perf_counter() - start
    assert caught.value.where == where, str(caught.value)
    assert len(str(caught.value)) <= MESSAGE_LIMIT
    assert elapsed < within, f"{elapsed:.3f} s to refuse"
    return caught.value


def mutated(text: str, change: Callable[[dict[str, Json]], None]) -> str:
    """*text* decoded, changed and encoded again."""
    data = json.loads(text)
    change(data)
    return json.dumps(data)


# -- size -------------------------------------------------------------------------------


def test_a_50_mb_record_is_refused_at_once() -> None:
    """A 50 MB record is refused before it is parsed, in milliseconds, in one line."""
    huge = '{"format": "tienlen-game", "hands": ["' + "3s " * 17_000_000 + '"]}'
    error = refused(huge, "record", within=0.05)
    assert "more than the 1,000,000 allowed" in str(error)
    refused(huge.encode(), "record", within=0.05)


def test_load_reads_no_more_than_the_limit() -> None:
    """`load` reads at most `MAX_SIZE` + 1 characters of a file before refusing it."""
    file = io.StringIO("[" * (MAX_SIZE * 3))
    with pytest.raises(RecordError) as caught:
        load(file)
    assert caught.value.where == "record"
    assert file.tell() == MAX_SIZE + 1


def test_a_record_of_exactly_the_limit_loads(text: str) -> None:
    """A valid record padded with whitespace to `MAX_SIZE` loads; one more is refused."""
    padded = text + " " * (MAX_SIZE - len(text))
    assert loads(padded) == loads(text)
    refused(padded + " ", "record")


def test_too_many_actions_are_refused_before_the_replay(text: str) -> None:
    """More than `MAX_ACTIONS` actions are refused before the rule set is even read."""

    def change(data: dict[str, Json]) -> None:
        data["actions"] = [{"player": 0, "pass": True}] * (MAX_ACTIONS + 1)
        data["rules"] = {"name": "broken", "settings": {"hand_size": 0}}

    error = refused(mutated(text, change), "actions", within=0.5)
    assert str(MAX_ACTIONS) in str(error)


def test_more_plays_than_cards_are_refused_before_the_replay(text: str) -> None:
    """A record with more plays than cards dealt cannot be a game: refused unreplayed."""

    def change(data: dict[str, Json]) -> None:
        data["actions"] = [{"player": 0, "play": "3s"}] * 4

    refused(mutated(text, change), "actions")


def test_nesting_deeper_than_the_limit_is_refused(text: str) -> None:
    """Arrays nested deeper than `MAX_DEPTH` anywhere are refused at ``record``."""

    def nest(depth: int) -> Json:
        value: Json = []
        for _ in range(depth - 1):
            value = [value]
        return value

    def deep(data: dict[str, Json]) -> None:
        data["seed"] = nest(MAX_DEPTH)  # with the record itself: one level too deep

    error = refused(mutated(text, deep), "record")
    assert "nested deeper" in str(error)

    def shallow(data: dict[str, Json]) -> None:
        data["seed"] = nest(MAX_DEPTH - 1)  # exactly the limit: refused as a seed

    refused(mutated(text, shallow), "seed")
    refused("[" * 100_000 + "]" * 100_000, "record")


def test_cyclic_data_is_refused_by_from_json(text: str) -> None:
    """`from_json` refuses a structure that contains itself, without recursing forever."""
    data = json.loads(text)
    data["seed"] = data
    with pytest.raises(RecordError) as caught:
        from_json(data)
    assert caught.value.where == "record"
    shared = json.loads(text)
    loop: list[Json] = []
    loop.extend([loop] * 1000)
    shared["seed"] = loop
    with pytest.raises(RecordError):
        from_json(shared)


# -- strict JSON ------------------------------------------------------------------------


def test_a_forged_result_before_the_real_one_is_refused(text: str) -> None:
    """A key given twice is refused: a forged ``result`` before the real one never loads."""
    real = json.loads(text)["result"]
    forged = {"finish_order": [0, 1], "scores": [1, -1]}
    assert forged != real
    body = text[1:]  # after the opening brace
    twice = '{"result": ' + json.dumps(forged) + ", " + body
    error = refused(twice, "record")
    assert "duplicate key 'result'" in str(error)


@pytest.mark.parametrize(
    "path", [("rules",), ("rules", "settings"), ("actions", 0), ("result",)]
)
def test_duplicate_keys_are_refused_in_every_object(
    text: str, path: tuple[str | int, ...]
) -> None:
    """No object of a record may repeat a key, however deep."""
    data = json.loads(text)
    target: Json = data
    for step in path:
        assert isinstance(target, dict | list)
        target = target[step]  # type: ignore[index]
    assert isinstance(target, dict)
    key, value = next(iter(target.items()))
    inner = json.dumps(target)
    doubled = "{" + json.dumps(key) + ": " + json.dumps(value) + ", " + inner[1:]
    source = text.replace(inner, doubled, 1)
    assert source != text
    refused(source, "record")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_numbers_are_not_json(text: str, constant: str) -> None:
    """``NaN`` and ``Infinity`` are not JSON: refused at ``record``."""
    source = text.replace('"seed": null', f'"seed": {constant}')
    assert source != text
    refused(source, "record")


def test_a_number_too_large_for_a_float_is_not_json(text: str) -> None:
    """``1e999`` reads as infinity in Python: refused at ``record``, as ``Infinity`` is."""
    source = text.replace('"seed": null', '"seed": 1e999')
    assert source != text
    error = refused(source, "record")
    assert "1e999 is no finite number" in str(error)


# -- short messages ---------------------------------------------------------------------

HUGE = "x" * 400_000

Change = Callable[[dict[str, Json]], None]


def put(*path: str | int, value: Json) -> Change:
    """A change that sets the value at *path* (an object's key or an array's item)."""

    def change(data: dict[str, Json]) -> None:
        target: Json = data
        for step in path[:-1]:
            target = child(target, step)
        if isinstance(target, dict):
            target[path[-1]] = value
        else:
            assert isinstance(target, list)
            assert isinstance(path[-1], int)
            target[path[-1]] = value

    return change


def child(value: Json, step: str | int) -> Json:
    """The item *step* of an object or array."""
    if isinstance(value, dict):
        return value[step]
    assert isinstance(value, list)
    assert isinstance(step, int)
    return value[step]


BIG_VALUES: list[tuple[str, Change, str]] = [
    ("seed", put("seed", value=HUGE), "seed"),
    ("format", put("format", value=HUGE), "format"),
    ("version", put("version", value=[HUGE]), "version"),
    ("unknown-field", put(HUGE, value=1), "record"),
    ("players", put("players", value=HUGE), "players"),
    ("hand", put("hands", 0, value="3s " * 200_000), "hands[0]"),
    ("hand-token", put("hands", 0, value=HUGE), "hands[0]"),
    ("action", put("actions", 0, value={"player": HUGE}), "actions[0]"),
    ("play", put("actions", 0, value={"player": 0, "play": HUGE}), "actions[0]"),
    ("player-number", put("actions", 0, "player", value=10**4000), "actions[0]"),
    ("setting-name", put("rules", "settings", HUGE, value=1), "rules.settings"),
    (
        "setting-value",
        put("rules", "settings", "kinds", value=[HUGE]),
        "rules.settings.kinds[0]",
    ),
    (
        "setting-list",
        put("rules", "settings", "two_values", value=list(range(100_000))),
        "rules.settings.two_values",
    ),
    ("rules-name", put("rules", "name", value=[HUGE]), "rules.name"),
    ("result", put("result", value={"scores": [HUGE]}), "result"),
]


@pytest.mark.parametrize(
    ("change", "where"),
    [pytest.param(change, where, id=name) for name, change, where in BIG_VALUES],
)
def test_huge_values_give_short_messages_fast(
    text: str, change: Callable[[dict[str, Json]], None], where: str
) -> None:
    """An oversized value anywhere is refused fast, its message cut (issue 14 item 9)."""
    data = json.loads(text)
    change(data)
    source = json.dumps(data)
    assert len(source) < MAX_SIZE or where == "record"
    if len(source) > MAX_SIZE:
        refused(source, "record")
        return
    refused(source, where)


def test_a_long_rule_set_name_is_kept_and_messages_stay_short(text: str) -> None:
    """A long name is a valid name; the errors that quote it are still cut."""
    data = json.loads(text)
    data["rules"]["name"] = "n" * 100_000
    game = loads(json.dumps(data))
    assert len(game.rules.name) == 100_000
    data["rules"]["settings"]["min_players"] = 3
    refused(json.dumps(data), "players")
    data["rules"]["settings"]["max_players"] = 2
    refused(json.dumps(data), "rules.settings")


def test_a_valid_record_is_left_untouched_by_the_checks(text: str) -> None:
    """The checks refuse nothing valid: the record loads and writes back the same."""
    data = json.loads(text)
    game = from_json(copy.deepcopy(data))
    assert json.loads(dumps(game)) == data
