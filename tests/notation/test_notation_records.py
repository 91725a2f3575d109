"""Records that start from a position (issue 13 §3, docs/records.md "Positions").

A game started with `GameState.from_notation` is recorded from that position: the
record's optional ``position`` field holds the notation, its ``hands`` the cards held
there, and loading it replays the actions from the position to the same final state.
Records without the field are written and read exactly as before (format 2), and a
``position`` that is bad or disagrees with the record's other fields is refused with a
`RecordError` naming the field.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.game.helpers import deal_configs
from tienlen import POKER, BaseRules, GameState
from tienlen.records import RecordError, dumps, loads, record, to_json

PUZZLE = (
    "tienlen 1; rules poker; hands 9c / 7s 7c 7d 7h / 9s; "
    "played 3s 2h / 8d / 5s 6s 6c 6d 6h; to 1; top 6s 6c 6d 6h by 2; "
    "chop 0 pays 2 4 for 2h"
)


def play_out(state: GameState, seed: int) -> GameState:
    """*state* played to the end by random legal actions."""
    rng = random.Random(seed)
    while not state.is_over:
        state = state.apply(rng.choice(list(state.legal_actions())))
    return state


def test_a_game_from_a_position_round_trips_through_a_record() -> None:
    """dump/load: the position, the hands there, the actions since, the same end."""
    final = play_out(GameState.from_notation(PUZZLE), 0)
    text = dumps(record(final))
    data = json.loads(text)
    assert data["position"] == GameState.from_notation(PUZZLE).notation()
    assert data["hands"] == ["9c", "7s 7c 7d 7h", "9s"]
    game = loads(text)
    assert game.position == data["position"]
    assert game.start() == GameState.from_notation(PUZZLE)
    assert game.final == final
    assert [state.notation() for state in game.states()][-1] == final.notation()
    assert dumps(game) == text


@given(config=st.sampled_from(deal_configs()), seed=st.integers(0, 2**32))
def test_a_record_from_any_mid_game_position_replays(
    config: tuple[BaseRules, int], seed: int
) -> None:
    """Cut a game anywhere, restart it from the notation, record the rest: it replays."""
    rules, players = config
    rng = random.Random(seed)
    state = GameState.deal(rules, players, seed)
    for _ in range(rng.randrange(40)):
        if state.is_over:
            break
        state = state.apply(rng.choice(list(state.legal_actions())))
    final = play_out(GameState.from_notation(state.notation()), seed)
    assert loads(dumps(record(final))).final == final


def test_records_without_a_position_are_unchanged() -> None:
    """A game from its deal: no ``position`` key, the twelve fields of format 2."""
    data = to_json(record(GameState.deal(POKER, 4, seed=2), seed=2))
    assert "position" not in data
    assert list(data) == [
        "format", "version", "rules", "players", "seed", "dealer", "first_game",
        "leader", "after_instant_win", "hands", "actions", "result",
    ]  # fmt: skip
    assert loads(json.dumps(data)).position is None


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda data: data.update(position=7), "position"),
        (lambda data: data.update(position="tienlen 1; rules poker"), "position"),
        (lambda data: data.update(hands=["9c", "7s 7c 7d 7h", "9h"]), "hands"),
        (lambda data: data.update(dealer=2), "dealer"),
        (lambda data: data.update(first_game=False), "first_game"),
        (lambda data: data["rules"].update(name="other"), "rules"),
        (lambda data: data.update(extra=1), "record"),
    ],
)
def test_a_position_that_disagrees_is_refused(change: object, where: str) -> None:
    """A bad position, or other fields that contradict it: `RecordError` at the field."""
    data = json.loads(dumps(record(GameState.from_notation(PUZZLE))))
    change(data)  # type: ignore[operator]
    with pytest.raises(RecordError) as caught:
        loads(json.dumps(data))
    assert caught.value.where == where
