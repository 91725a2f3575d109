"""Numeric settings: every out-of-range value is refused by name, every edge value works.

Issue 20 finding 3: ``pair_runs_beat_twos=1`` passed the range check and then failed
with a message naming neither the setting nor the rule set; negative chop values and
place points that rise from one place to the next were accepted; `InstantWin.ONE_COLOUR`
counted for a hand of any size although RULES §12.5 says 13 cards. Each numeric
setting of `BaseRules` is audited here: refused values raise `InvalidRulesError` (a
`ValueError`) whose message names the rule set, the setting and the value, and the
boundary values the message allows build and play.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable

import attrs
import pytest

from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    VIETCONG,
    BaseRules,
    ComboKind,
    GameState,
    Hand,
    InstantWin,
    InvalidRulesError,
    Shape,
    beats,
)

_evolve: Callable[..., BaseRules] = attrs.evolve  # settings named at run time
_FOUR = Shape.of(ComboKind.FOUR_OF_A_KIND)


@pytest.mark.parametrize(
    ("preset", "changes", "named"),
    [
        (CLASSIC, {"decks": 0}, "decks"),
        (CLASSIC, {"decks": 3}, "decks"),
        (CLASSIC, {"min_players": 1}, "min_players (1)"),
        (CLASSIC, {"max_players": 9}, "max_players (9)"),
        (CLASSIC, {"min_players": 4, "max_players": 3}, "min_players (4)"),
        (CLASSIC, {"hand_size": 0}, "hand_size"),
        (CLASSIC, {"hand_size": 14}, "hand_size"),
        (CLASSIC, {"hand_size": -13}, "hand_size"),
        (CLASSIC, {"three_player_hand_size": 0}, "three_player_hand_size"),
        (CLASSIC, {"three_player_hand_size": 18}, "three_player_hand_size"),
        (CLASSIC_TWO_DECKS, {"two_deck_hand_size": 0}, "two_deck_hand_size"),
        (CLASSIC_TWO_DECKS, {"two_deck_hand_size": 14}, "two_deck_hand_size"),
        (CLASSIC, {"min_consecutive_pairs": 2}, "min_consecutive_pairs (2)"),
        (CLASSIC, {"max_consecutive_pairs": 14}, "max_consecutive_pairs (14)"),
        (
            CLASSIC,
            {"min_consecutive_pairs": 5, "max_consecutive_pairs": 4},
            "min_consecutive_pairs (5)",
        ),
        (CLASSIC, {"min_consecutive_triples": 1}, "min_consecutive_triples (1)"),
        (CLASSIC, {"max_consecutive_triples": 0}, "max_consecutive_triples (0)"),
        (CLASSIC, {"pair_runs_beat_twos": 0}, "pair_runs_beat_twos must be 1-12"),
        (CLASSIC, {"pair_runs_beat_twos": -2}, "pair_runs_beat_twos must be 1-12"),
        (CLASSIC, {"pair_runs_beat_twos": 13}, "pair_runs_beat_twos must be 1-12"),
        (POKER, {"pair_runs_beat_twos": 4}, "pair_runs_beat_twos=4 makes no run"),
        (
            CLASSIC,
            {"pair_runs_beat_twos": 5, "max_consecutive_pairs": 5},
            "pair_runs_beat_twos=5 makes no run",
        ),
        (POKER, {"two_values": (1, 2, -3, 4)}, "two_values[2] must be >= 0, got -3"),
        (
            POKER,
            {"bomb_values": ((_FOUR, -6),)},
            "bomb_values gives four of a kind a negative value, -6",
        ),
        (POKER, {"place_points": (4, 2, 1, -1)}, "place_points[3] must be >= 0"),
        (POKER, {"place_points": (0, 1, 2, 4)}, "place_points must not rise"),
        (POKER, {"place_points": (4, 2, 2, 3)}, "place 4 scores 3"),
        (POKER, {"place_points": (4, 2, 1)}, "place_points needs a value for each"),
        (POKER, {"frozen_penalty": -4}, "frozen_penalty must be >= 0, got -4"),
        (POKER, {"frozen_multiplier": -1}, "frozen_multiplier must be an int >= 0"),
        (VIETCONG, {"instant_win_stake": -1}, "instant_win_stake must be >= 0, got -1"),
        (POKER, {"instant_win_points": -12}, "instant_win_points must be >= 0"),
    ],
)
def test_out_of_range_values_are_refused_by_name(
    preset: BaseRules, changes: dict[str, object], named: str
) -> None:
    """Each refused value raises `InvalidRulesError` naming the rule set and setting.

    The error is a `ValueError` (input, not type), and it pickles.
    """
    with pytest.raises(InvalidRulesError) as caught:
        _evolve(preset, name="our-table", **changes)
    error = caught.value
    assert isinstance(error, ValueError)
    assert not isinstance(error, TypeError)
    message = str(error)
    assert message.startswith("invalid rule set 'our-table': "), message
    assert named in message, message
    copy = pickle.loads(pickle.dumps(error))  # noqa: S301 - our own bytes
    assert type(copy) is type(error)
    assert str(copy) == message


@pytest.mark.parametrize(
    ("preset", "changes"),
    [
        (CLASSIC, {"hand_size": 1}),
        (CLASSIC, {"three_player_hand_size": 17}),
        (CLASSIC_TWO_DECKS, {"two_deck_hand_size": 1}),
        (CLASSIC_TWO_DECKS, {"two_deck_hand_size": None}),
        (CLASSIC, {"max_consecutive_pairs": 5, "pair_runs_beat_twos": 4}),
        (CLASSIC, {"pair_runs_beat_twos": 1}),
        (CLASSIC, {"pair_runs_beat_twos": 12}),
        (POKER, {"pair_runs_beat_twos": 3}),
        (POKER, {"two_values": (0, 0, 0, 0)}),
        (POKER, {"bomb_values": ((_FOUR, 0),)}),
        (POKER, {"place_points": (0, 0, 0, 0)}),
        (POKER, {"place_points": (3, 3, 3, 3)}),
        (POKER, {"place_points": (9, 5, 5, 0, 0)}),
        (POKER, {"frozen_penalty": 0, "frozen_multiplier": 0}),
        (VIETCONG, {"instant_win_stake": 0}),
        (POKER, {"instant_win_points": 0}),
    ],
)
def test_edge_values_build_and_play(
    preset: BaseRules, changes: dict[str, object]
) -> None:
    """The edge values each range admits build a rule set that plays a whole game."""
    rules = _evolve(preset, name="edge", **changes)
    rng = random.Random(20)
    players = 5 if rules.decks == 2 else 4
    state = GameState.deal(rules, players, rng)
    while not state.is_over:
        actions = state.legal_actions()
        state = state.apply(actions[rng.randrange(len(actions))])
    assert state.result is not None
    assert len(state.result.scores) == players


# -- §12.3 with k = 1 --------------------------------------------------------------------


def test_one_more_pair_than_twos() -> None:
    """RULES §12.3 with k = 1: n + 1 pairs beat n 2s wherever such a run exists.

    A run of two pairs is no combination (RULES §1.2), so a single 2 gains no new
    bomb; three pairs beat a pair of 2s, four pairs three 2s, five pairs all four.
    """
    house = _evolve(CLASSIC, name="k1", bombs=(), pair_runs_beat_twos=1)
    runs = [f"{rank}{suit}" for rank in "3456789" for suit in "sc"]
    assert not beats(" ".join(runs[:6]), "2h", house)
    for n, twos in enumerate(["2s 2h", "2s 2c 2h", "2s 2c 2d 2h"], start=2):
        assert beats(" ".join(runs[: 2 * (n + 1)]), twos, house), twos
        assert n < 3 or not beats(" ".join(runs[: 2 * n]), twos, house), twos
    assert house.is_bomb(Shape.of(ComboKind.CONSECUTIVE_PAIRS, 3))
    assert not house.is_bomb(Shape.of(ComboKind.CONSECUTIVE_PAIRS, 6))


def test_one_more_pair_combines_with_every_preset() -> None:
    """One more pair builds on every preset: three pairs then beat a pair of 2s."""
    for preset in (CLASSIC, JUSTUS_PANG, KENNETH_LO, VIETCONG, POKER):
        house = _evolve(preset, name="k1", pair_runs_beat_twos=1)
        assert beats("3s 3c 4s 4c 5s 5c", "2s 2h", house), preset.name


# -- §12.5: thirteen cards of one colour -----------------------------------------------

_RED_13 = "3d 4d 5h 7d 8h 9h Td Jh Qd Kh Ad 2d 2h"


def _one_colour(preset: BaseRules = POKER) -> BaseRules:
    return _evolve(preset, name="one-colour", instant_wins={InstantWin.ONE_COLOUR})


@pytest.mark.parametrize(
    ("hand", "wins"),
    [
        (_RED_13, True),
        ("3s 4c 5s 6c 7s 8c 9s Tc Js Qc Ks Ac 2s", True),
        (_RED_13.rsplit(" ", 1)[0], False),  # twelve red cards
        ("3d 4d", False),
        ("2h", False),
        (_RED_13.replace("2h", "2s"), False),  # one black card
    ],
)
def test_one_colour_needs_thirteen_cards(hand: str, wins: bool) -> None:
    """RULES §12.5: 13 cards of one colour win at the deal; fewer never do."""
    assert (
        _one_colour().instant_win(Hand.parse(hand)) is InstantWin.ONE_COLOUR
    ) is wins


def test_one_colour_in_a_seventeen_card_hand() -> None:
    """Three players on 17 cards: 13 cards of one colour among them win, 12 do not."""
    rules = _one_colour(_evolve(CLASSIC, three_player_hand_size=17))
    thirteen = Hand.parse(f"{_RED_13} 3s 4c 5s 6c")
    twelve = Hand.parse(_RED_13.replace("2h", "7s") + " 3s 4c 5s 6c")
    assert rules.instant_win(thirteen) is InstantWin.ONE_COLOUR
    assert rules.instant_win(twelve) is None


def test_short_one_colour_hands_do_not_end_the_game() -> None:
    """The reported case: two-card hands of one colour no longer win at the deal."""
    state = GameState.from_hands(["3d 4h", "5s 6c"], _one_colour(CLASSIC))
    assert state.result is None
    assert state.to_act == 0  # nobody holds 3♠: the lowest card (3♦) leads (D-4)


def test_no_preset_plays_one_colour() -> None:
    """The presets are unchanged: none lists `InstantWin.ONE_COLOUR`."""
    for preset in (
        CLASSIC,
        JUSTUS_PANG,
        KENNETH_LO,
        VIETCONG,
        POKER,
        CLASSIC_TWO_DECKS,
    ):
        assert InstantWin.ONE_COLOUR not in preset.instant_wins
