"""A table's own instant-win hands (RULES §12.5: "a table can add its own predicate")."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tienlen import (
    CLASSIC,
    POKER,
    Card,
    CustomInstantWin,
    GameState,
    Hand,
    HandHolds,
    InstantWin,
    InvalidRulesError,
    RandomPlayer,
    Rank,
    notation,
    simulate,
)
from tienlen.cards import DECK
from tienlen.errors import InvalidArgumentError
from tienlen.records import (
    RecordError,
    dumps,
    loads,
    record,
    rules_from_json,
    rules_to_json,
)


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


# -- an instant win given as data (HandHolds) ---------------------------------------

THREE_THREES = CustomInstantWin(
    name="three-threes",
    test=HandHolds(per_rank=3, rank=Rank.THREE),
    first_game_only=True,
)
DATA_HOUSE = attrs.evolve(CLASSIC, name="three-threes", instant_wins={THREE_THREES})


def test_a_data_win_wins_at_the_deal_in_the_first_game_only() -> None:
    """RULES §12.5: three 3s win the first game of a match, and only that game."""
    hands = ["3s 3c 3d 9h", "4s 5d 6c 7h"]
    state = GameState.from_hands(hands, DATA_HOUSE)
    assert state.result is not None
    assert state.result.instant_win is THREE_THREES
    assert state.result.winner == 0
    later = GameState.from_hands(hands, DATA_HOUSE, first_game=False, leader=1)
    assert later.result is None


def test_a_record_of_a_data_win_saves_loads_and_replays() -> None:
    """A rule set holding a `HandHolds` win is data: its record replays equal."""
    state = GameState.from_hands(["3s 3c 3d 9h", "4s 5d 6c 7h"], DATA_HOUSE)
    text = dumps(record(state))
    game = loads(text)
    assert game.rules == DATA_HOUSE
    assert game.final == state
    assert game.final.result == state.result
    assert dumps(game) == text
    data = rules_to_json(DATA_HOUSE)["settings"]
    assert isinstance(data, dict)
    assert data["instant_wins"] == [
        {
            "name": "three-threes",
            "test": {"per_rank": 3, "ranks": 1, "rank": "three", "consecutive": False},
            "first_game_only": True,
        }
    ]
    assert (
        rules_from_json(json.loads(json.dumps(rules_to_json(DATA_HOUSE)))) == DATA_HOUSE
    )


def test_notation_saves_and_reads_a_data_win() -> None:
    """Notation writes the rule set's changed settings, the data win included."""
    state = GameState.from_hands(["3s 3c 4d 9h", "4s 5d 6c 7h"], DATA_HOUSE).play("3s")
    assert notation.read(notation.write(state)) == state
    won = GameState.from_hands(["3s 3c 3d 9h", "4s 5d 6c 7h"], DATA_HOUSE)
    assert notation.read(notation.write(won)) == won


@settings(max_examples=200, deadline=None)
@given(cards=st.lists(st.sampled_from(DECK), min_size=1, max_size=13, unique=True))
def test_the_built_in_hands_are_data_too(cards: list[Card]) -> None:
    """The §12.5 and §6.7 hands that count ranks are one `HandHolds` each."""
    hand = Hand.from_cards(cards)
    rules = attrs.evolve(CLASSIC, name="all", instant_wins=set(InstantWin))
    same = {
        InstantWin.FOUR_TWOS: HandHolds(per_rank=4, rank=Rank.TWO),
        InstantWin.FIVE_CONSECUTIVE_PAIRS: HandHolds(
            per_rank=2, ranks=5, consecutive=True
        ),
        InstantWin.THIRTEEN_RANKS: HandHolds(per_rank=1, ranks=13),
        InstantWin.THREE_CONSECUTIVE_TRIPLES: HandHolds(
            per_rank=3, ranks=3, consecutive=True
        ),
        InstantWin.THREE_TRIPLES: HandHolds(per_rank=3, ranks=3),
        InstantWin.DRAGON_WITHOUT_TWO: HandHolds(
            per_rank=1, ranks=12, consecutive=True
        ),
        InstantWin.FOUR_THREES: HandHolds(per_rank=4, rank=Rank.THREE),
    }
    for win, holds in same.items():
        alone = attrs.evolve(rules, instant_wins={win})
        assert (alone.instant_win(hand) is win) == holds(hand), win


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"per_rank": 0}, InvalidArgumentError),
        ({"per_rank": 9}, InvalidArgumentError),
        ({"per_rank": 2, "ranks": 14}, InvalidArgumentError),
        ({"per_rank": 2, "ranks": 13, "consecutive": True}, InvalidArgumentError),
        ({"per_rank": 2, "ranks": 2, "rank": Rank.ACE}, InvalidArgumentError),
        ({"per_rank": 2, "rank": Rank.ACE, "consecutive": True}, InvalidArgumentError),
        ({"per_rank": 2.0}, TypeError),
        ({"per_rank": True}, TypeError),
        ({"per_rank": 2, "rank": "ace"}, TypeError),
        ({"per_rank": 2, "consecutive": 1}, TypeError),
    ],
)
def test_a_hand_that_cannot_be_is_refused(fields: dict[str, Any], error: type) -> None:
    """Out-of-range counts and contradictions are refused when the value is built."""
    with pytest.raises(error):
        HandHolds(**fields)


def test_two_wins_of_one_name_are_refused() -> None:
    """Two of a table's own hands under one name could not be told apart in a record."""
    other = CustomInstantWin(name="three-threes", test=HandHolds(per_rank=3, ranks=3))
    with pytest.raises(InvalidRulesError, match="two instant wins"):
        attrs.evolve(CLASSIC, name="clash", instant_wins={THREE_THREES, other})
    with pytest.raises(InvalidRulesError, match="instant win"):
        attrs.evolve(
            CLASSIC,
            name="blank",
            instant_wins={CustomInstantWin(name="", test=HandHolds(per_rank=4))},
        )


def test_a_hand_test_takes_hand_like_input_and_refuses_junk() -> None:
    """`HandHolds` tests a `Hand`, card text or cards; anything else is a TypeError."""
    three_threes = HandHolds(per_rank=3, rank=Rank.THREE)
    assert three_threes("3s 3c 3d 9h") is True
    assert three_threes(Hand.parse("3s 3c 3d").cards) is True
    with pytest.raises(TypeError):
        three_threes(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="3x"):
        three_threes("3s 3x")


# -- names and fields (issue 34 item 13) ----------------------------------------------


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("four-twos", "the name of the built-in InstantWin.FOUR_TWOS"),
        ("six-pairs", "the name of the built-in InstantWin.SIX_PAIRS"),
        (
            "six_pairs",
            "the name of the built-in InstantWin.SIX_PAIRS",
        ),  # as records write it
        (
            " Dragon-Without-Two ",
            "the name of the built-in InstantWin.DRAGON_WITHOUT_TWO",
        ),
        ("   ", "the name is blank"),
        ("\u3000", "the name is blank"),
        ("x" * 5000, "the name is 5000 characters long, more than 64"),
    ],
)
def test_a_custom_win_name_is_refused(name: str, problem: str) -> None:
    """A table's own win may not take a built-in win's name, be blank or run on.

    It would show as the built-in win, as nothing, or flood every text that names it.
    The rule is the rule set's own name rule, with a length cap.
    """
    win = CustomInstantWin(name=name, test=HandHolds(per_rank=4))
    with pytest.raises(InvalidRulesError, match=problem) as caught:
        attrs.evolve(CLASSIC, name="own-win", instant_wins={win})
    assert len(str(caught.value)) < 200  # the name is shown cut short


def test_a_name_at_the_cap_is_taken() -> None:
    """64 characters are a win's name; a rule set's own name has no cap (records keep it)."""
    win = CustomInstantWin(name="w" * 64, test=HandHolds(per_rank=4))
    house = attrs.evolve(CLASSIC, name="n" * 100, instant_wins={win})
    assert house.instant_win(Hand.parse("9s 9c 9d 9h")) is win
    with pytest.raises(InvalidRulesError) as caught:  # quoted cut short
        attrs.evolve(CLASSIC, name="n" * 5000, min_players=3, max_players=2)
    assert len(str(caught.value)) < 300


@pytest.mark.parametrize(
    ("change", "where", "says"),
    [
        (("test", "per_rank", "3"), ".test.per_rank", "expected an integer, got '3'"),
        (("test", "per_rank", 9), ".test", "per_rank must be 1-8, got 9"),
        (("test", "rank", "x"), ".test.rank", "expected one of three"),
        (("test", "bogus", 1), ".test", "HandHolds has no field 'bogus'"),
        (("test", "per_rank", None), ".test", "HandHolds needs per_rank"),
    ],
)
def test_a_bad_hand_holds_field_is_named(
    change: tuple[str, str, object], where: str, says: str
) -> None:
    """A record's bad `HandHolds` field is refused at that field.

    Not with the list of built-in names the union of win kinds expects, as before.
    """
    data = rules_to_json(DATA_HOUSE)
    settings_ = data["settings"]
    assert isinstance(settings_, dict)
    wins = settings_["instant_wins"]
    assert isinstance(wins, list)
    win = wins[0]
    assert isinstance(win, dict)
    test = win["test"]
    assert isinstance(test, dict)
    _, key, value = change
    if value is None:
        del test[key]
    else:
        test[key] = value  # type: ignore[assignment]
    with pytest.raises(RecordError) as caught:
        rules_from_json(data)
    assert caught.value.where == f"rules.settings.instant_wins[0]{where}"
    assert says in str(caught.value)
    assert "four_twos" not in str(caught.value)
