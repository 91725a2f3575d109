"""A table's own instant-win hands (RULES §12.5: "a table can add its own predicate")."""

from __future__ import annotations

import attrs
import pytest

from tienlen import (
    CLASSIC,
    POKER,
    Card,
    CustomInstantWin,
    GameState,
    Hand,
    InstantWin,
    RandomPlayer,
    simulate,
)
from tienlen.records import RecordError, dumps, record, rules_to_json


def holds_three_of_spades(hand: Hand) -> bool:
    """The test of the instant win below: the dealt hand holds 3♠."""
    return Card.parse("3s") in hand


SPADE = CustomInstantWin(name="three-of-spades", test=holds_three_of_spades)
HOUSE = attrs.evolve(CLASSIC, name="spade-wins", instant_wins={SPADE})


def test_a_custom_hand_wins_at_the_deal() -> None:
    """RULES §12.5: the dealt hand that passes the table's test wins at once."""
    assert HOUSE.instant_win(Hand.parse("3s 9h")) is SPADE
    assert HOUSE.instant_win(Hand.parse("4s 9h")) is None
    state = GameState.from_hands(["4s 9h", "3s 5d"], HOUSE)
    assert state.result is not None
    assert state.result.instant_win is SPADE
    assert state.result.winner == 1
    assert state.result.scores == (-1, 1)  # one stake from each other player (D-14)


def test_built_in_hands_come_first() -> None:
    """Several apply: the built-in `InstantWin` first, then the table's own by name."""
    house = attrs.evolve(POKER, name="both", instant_wins={*POKER.instant_wins, SPADE})
    sixes = Hand.parse("3s 3c 5d 5h 7s 7c 9d 9h Js Jc Kd Kh 2s")
    assert house.instant_win(sixes) is InstantWin.SIX_PAIRS


def test_first_game_only() -> None:
    """A table's hand may count only in a match's first game, as four 3s do."""
    first = attrs.evolve(SPADE, first_game_only=True)
    house = attrs.evolve(CLASSIC, name="first-only", instant_wins={first})
    assert house.instant_win(Hand.parse("3s"), first_game=True) is first
    assert house.instant_win(Hand.parse("3s"), first_game=False) is None


def test_simulate_counts_it() -> None:
    """Simulation statistics count a table's own instant wins like the built-in ones."""
    stats = simulate(20, rules=HOUSE, players=[RandomPlayer()] * 4, seed=1)
    assert stats.instant_win_count(SPADE) == 20  # someone always holds 3♠ at four


def test_records_refuse_it() -> None:
    """A record holds data: a rule set with a table's own test cannot be written."""
    with pytest.raises(RecordError) as caught:
        rules_to_json(HOUSE)
    assert caught.value.where.startswith("rules.settings.instant_wins")
    with pytest.raises(RecordError):
        dumps(record(GameState.from_hands(["4s 9h", "5s 5d"], HOUSE)))


def test_the_test_must_be_callable() -> None:
    """A test that is no function of the hand is refused when the hand is built."""
    with pytest.raises(TypeError):
        CustomInstantWin(name="broken", test="3s")  # type: ignore[arg-type]
